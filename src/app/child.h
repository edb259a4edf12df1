/* A child of this program that a workflow runs: a matrix's tests and its
 * report, a bisection's measurements and the page of its log. The app
 * says what the child is asked; the CLI, which alone knows how a command
 * line spells it, builds the command line through the workflow's argv
 * hook (src/cli/child_args.c); then it runs, and is waited for. */
#ifndef WR_APP_CHILD_H
#define WR_APP_CHILD_H

#include <stdbool.h>
#include <stdint.h>

#include "app/run_store.h"

enum app_child_cmd {
	APP_CHILD_TEST,		/* a measurement: the test's words, with what the workflow adds */
	APP_CHILD_REPORT,	/* the stored runs compared */
};

struct app_child {
	enum app_child_cmd cmd;
	bool json;			/* its output one JSON document */
	const char *db;			/* the store it writes or reads (NULL: the default) */
	/* a test */
	char *const *words;		/* its name and options, as the user gave them */
	int nwords;
	const char *prefix;		/* the lab it measures, unless its words name one (NULL: none) */
	unsigned int repeat;		/* measurements of each figure (0: the test's own) */
	const char *label;		/* its run's (NULL: none) */
	unsigned int round;		/* its run's round (0: none) */
	const char *tags[APP_STORE_MAX_TAGS];	/* its run's, beside its words' own */
	int ntags;
	/* a DUT of its own: the configuration its agent applies (NULL: the DUT's as it is) */
	const char *placement, *rules;
	/* a report */
	const int64_t *runs;		/* in the order compared */
	int nruns;
	const char *html;		/* the page it writes too (NULL: none) */
	const char *fail_pct;		/* the regression that fails it, as given (NULL: none) */
};

/* How a workflow has a child's command line built: argv[0] "wirerate",
 * NULL-ended, malloc'd with its strings (one free); NULL when out of
 * memory. */
typedef char **(*app_child_argv_fn)(void *ctx, const struct app_child *what);

/* The child's command line built through argv (with ctx), run as
 * selfexec_run runs it (its stdout to out_fd when >= 0; fail, its exit
 * status when it cannot start) and waited for: its exit status, or
 * -errno when it could not be built or started. */
int app_child_run(app_child_argv_fn argv, void *ctx, const struct app_child *what, int out_fd, int fail);

#endif
