/* Everything a matrix checks before a lab is built (src/cli/matrix_check.c):
 * its own options, each configuration as 'lab up' would check it, and the
 * test's options by the test itself. */
#ifndef WR_CLI_MATRIX_CHECK_H
#define WR_CLI_MATRIX_CHECK_H

#include "app/matrix_plan.h"
#include "app/matrix_run.h"
#include "cli/cli.h"
#include "cli/matrix_args.h"
#include "cli/opt.h"
#include "lab/lab.h"

/* A matrix checked and ready to run: what was asked, each configuration's
 * lab, and the run (its hooks still to set) that points into them. */
struct matrix_plan {
	struct app_matrix m;
	struct matrix_opts mo;
	struct app_matrix_run run;
	char db_path[4096], mtag[64], otag[64];
	const char *tags[APP_STORE_MAX_TAGS - 1];	/* the user's and otag */
	struct lab_spec specs[APP_MATRIX_MAX];
	struct app_matrix_step steps[APP_MATRIX_RUNS_MAX];
};

/* argv checked into p: OPT_GO to go on with p->run, or OPT_EXIT with
 * *status (opt.h). */
enum opt_result matrix_check(struct cli *cli, int argc, char **argv, struct matrix_plan *p, int *status);

#endif
