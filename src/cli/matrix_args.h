/* matrix's options (src/cli/matrix_args.c): the table and the parse. */
#ifndef WR_CLI_MATRIX_ARGS_H
#define WR_CLI_MATRIX_ARGS_H

#include <stdbool.h>

#include "app/matrix_plan.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/store_args.h"
#include "lab/lab.h"

/* The matrix's own options, before '--'. */
struct matrix_opts {
	struct app_matrix *m;
	const char *prefix, *label, *db, *html, *fail_pct;
	const char *tags[APP_STORE_MAX_TAGS - 2];	/* and the matrix's own two */
	int ntags;
	bool no_xdp;
	/* the rounds (--repeat; 0: the test's --repeat, else 1), whether
	 * they interleave, their order and its seed */
	unsigned int repeat;
	bool no_interleave;
	enum app_matrix_order order;
	uint64_t seed;
	bool seed_set;
};

/* argv up to '--' into mo (mo->m: the axes' values) and the test after
 * it (*test from its name on, ntest words): OPT_GO, or OPT_EXIT with
 * *status (opt.h). */
enum opt_result matrix_args(struct cli *cli, int argc, char **argv, struct matrix_opts *mo, char ***test,
			    int *ntest, int *status);

/* Axis k's option: the name matrix and 'lab up' give it ("placement"). */
const char *matrix_args_axis(int k);

/* Configuration c's lab: the prefix, its axes' settings and --no-xdp set
 * through lab's table and checked, as 'lab up' would take them: OPT_GO
 * with *out set, or OPT_EXIT with *status after lab's one-line error. */
enum opt_result matrix_args_lab(const struct matrix_opts *mo, int c, struct lab_spec *out, int *status);

#endif
