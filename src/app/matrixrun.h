/* A matrix run, once its configurations are checked: the lab held for
 * the whole run (its tests share the lock), and per configuration the
 * lab built afresh with it (none for a DUT of its own, which the test's
 * agent configures) and the test run as a child of this program, its run
 * stored with the configuration's label and the matrix's tag; Ctrl-C or
 * SIGTERM stops between or in a test, keeping the runs so far; the lab
 * taken down at the end, also on failure. */
#ifndef WR_APP_MATRIXRUN_H
#define WR_APP_MATRIXRUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/matrix.h"
#include "lab/lab.h"

struct app_matrix_run {
	/* in */
	const struct app_matrix *m;	/* counted and labelled */
	const char *prefix;		/* the lab's */
	bool remote;			/* the test's DUT of its own: no lab */
	const struct lab_spec *specs;	/* per configuration (not remote) */
	char **test;			/* argv from the test's name on */
	int ntest;
	const char *const *tags;	/* the user's, beside the matrix's */
	int ntags;
	const char *db_path, *mtag;	/* the store, the matrix's tag */
	int test_out;			/* the tests' stdout: -1 this one's */
	/* Said as the run goes (any may be NULL): begin before the first
	 * configuration (the lab held, when there is one); each
	 * configuration before its lab is built and after its test stored
	 * its run; end once every configuration stored its run, the lab
	 * still held and the signals still passed on (the report), its
	 * value app_matrix_run's; say, a line of what went wrong (more than
	 * one may come). */
	void (*begin)(void *ctx);
	void (*starting)(void *ctx, int c);
	void (*done)(void *ctx, int c);
	int (*end)(void *ctx);
	void (*say)(void *ctx, const char *line);
	void *ctx;
	/* out */
	int64_t run_ids[APP_MATRIX_MAX];	/* each configuration's stored run */
	char *targv[APP_MATRIX_ARGV_MAX];
};

/* Configuration c's test command line, in r->targv. */
char **app_matrix_run_argv(struct app_matrix_run *r, int c);

/* Every configuration in turn, then end: end's value when each stored
 * its run; -EINTR when stopped (the runs so far stay stored); -EIO when
 * the lab, the test's start or its store failed; a positive exit status
 * when a test failed with it. What went wrong is said through say. */
int app_matrix_run(struct app_matrix_run *r);

#endif
