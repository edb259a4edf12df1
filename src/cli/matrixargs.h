/* matrix's options (src/cli/matrixargs.c): the table and the parse. */
#ifndef WR_CLI_MATRIXARGS_H
#define WR_CLI_MATRIXARGS_H

#include <stdbool.h>

#include "app/matrix.h"
#include "cli/cli.h"
#include "cli/storeargs.h"
#include "lab/lab.h"

/* The matrix's own options, before '--'. */
struct matrix_opts {
	struct app_matrix *m;
	const char *prefix, *label, *db, *html, *fail_pct;
	const char *tags[STOREOPT_MAX_TAGS - 1];	/* and the matrix's own */
	int ntags;
	bool no_xdp;
};

/* argv up to '--' into mo (mo->m: the axes' values) and the test after
 * it (*test from its name on, ntest words): -1 to go on, or the exit
 * status (0 after --help) after a one-line error. */
int matrix_args(struct cli *cli, int argc, char **argv, struct matrix_opts *mo, char ***test, int *ntest);

#endif
