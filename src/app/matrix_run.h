/* A matrix run, once its configurations are checked: the lab held for
 * the whole run (its tests share the lock), and per test of its schedule
 * (app_matrix_plan_schedule: rounds of every configuration, interleaved)
 * the lab built afresh with the test's configuration (none for a DUT of
 * its own, which the test's agent configures) and the test run as a
 * child of this program, its run stored with the configuration's label,
 * its round and the matrix's tag; then the runs compared by 'wirerate
 * report', run as a child too, which pairs them by round. Ctrl-C or
 * SIGTERM stops between or in a test, keeping the runs so far; the lab
 * taken down at the end, also on failure. */
#ifndef WR_APP_MATRIX_RUN_H
#define WR_APP_MATRIX_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app/child.h"
#include "app/cli_hooks.h"
#include "app/matrix_plan.h"
#include "lab/lab.h"

/* A lab's build between two configurations, about, in seconds (2-4 s on
 * a small VM): part of the time a matrix plans. */
#define APP_MATRIX_LAB_UP_S 4.0

struct app_matrix_run;

/* A matrix's run as it prints, the hooks render exports
 * (matrix_print_hooks), each called with the ctx the caller hands the
 * workflow and the run: begin before the first test (the lab held, when
 * there is one); each test k of the schedule before its lab is built
 * (starting) and after it stored its run (done); report, with
 * json, the report's document as its child wrote it (empty when it
 * wrote nothing), the lab still held and the signals still passed on,
 * not 0 to fail the run. */
struct app_matrix_hooks {
	void (*begin)(void *ctx, const struct app_matrix_run *r);
	void (*starting)(void *ctx, const struct app_matrix_run *r, int k);
	void (*done)(void *ctx, const struct app_matrix_run *r, int k);
	int (*report)(void *ctx, const struct app_matrix_run *r, FILE *doc);
};

struct app_matrix_run {
	/* in */
	const struct app_matrix *m;	/* counted and labelled */
	const char *prefix;		/* the lab's */
	bool remote;			/* the test's DUT of its own: no lab */
	const struct lab_spec *specs;	/* per configuration (not remote) */
	/* the tests in order (app_matrix_plan_schedule) and how they were
	 * ordered: rounds, interleaved or not, the order and its seed */
	const struct app_matrix_step *steps;
	int nsteps;
	unsigned int rounds;
	bool interleave;		/* rounds > 1, interleaved */
	bool back_to_back;		/* --no-interleave: the test repeats as it was asked */
	enum app_matrix_order order;
	uint64_t seed;
	char **test;			/* argv from the test's name on */
	int ntest;
	const char *const *tags;	/* the user's, beside the matrix's */
	int ntags;
	const char *db_path, *mtag;	/* the store, the matrix's tag */
	const char *html, *fail_pct;	/* the report's (NULL: none) */
	/* The report as a JSON document (handed to report), the tests' own
	 * output discarded so that it cannot break that document. */
	bool json;
	double planned_s;		/* the test's planned seconds a configuration (0: unknown) */
	/* The CLI's (not NULL): say, each line of what went wrong (more
	 * than one may come); no stop, for the run catches its stops itself,
	 * a hangup too (stop_catch_hangup). And the command line of a child
	 * (a test, the report), which the CLI spells (app/child.h), called
	 * with cli's ctx. */
	const struct app_cli_hooks *cli;
	app_child_argv_fn argv;
	/* the printing hooks and their ctx */
	const struct app_matrix_hooks *h;
	void *ctx;
	/* out */
	int64_t run_ids[APP_MATRIX_RUNS_MAX];	/* each step's stored run */
};

/* What configuration c's test in round (from 1; 0: none) is asked: the
 * test's words, and the lab (or for a DUT of its own its placement and
 * rules), the label, the round, the tags and the store the matrix gives
 * it. */
void app_matrix_run_test(const struct app_matrix_run *r, int c, unsigned int round, struct app_child *what);

/* The stored runs for the report, n of them: the configurations in
 * order, each its runs in the order they ran. */
int app_matrix_run_report_ids(const struct app_matrix_run *r, int64_t *ids);

/* Every test of the schedule in turn, then the report: the report's exit status
 * when each stored its run; -EINTR when stopped (the runs so far stay
 * stored); -EIO when the lab, the test's start or its store, or the
 * report's start failed; a positive exit status when a test failed with
 * it. What went wrong is said through cli. */
int app_matrix_run(struct app_matrix_run *r);

#endif
