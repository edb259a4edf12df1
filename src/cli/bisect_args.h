/* bisect's options (src/cli/bisect_args.c): the table, and the words
 * parsed into a subcommand and a spec. */
#ifndef WR_CLI_BISECT_ARGS_H
#define WR_CLI_BISECT_ARGS_H

#include "app/bisect_run.h"
#include "cli/cli.h"
#include "cli/opt.h"

enum bisect_sub { BISECT_START, BISECT_RESUME, BISECT_LOG };

struct bisect_opts {
	enum bisect_sub sub;
	const char *good, *bad, *tree, *kernels, *build, *apply, *install, *release, *boot, *modules, *lab, *prefix;
	const char *figure, *label, *logs, *db, *html, *run;
	unsigned int size, repeat, rounds, timeout, dut_wait;
	bool size_set, no_drift_checks;
	char **measure;			/* from the test's name on (start) */
	int nmeasure;
	char **words;
};

extern const struct opt_cmd bisect_cmd;

/* argv parsed: OPT_GO with *bo set, or OPT_EXIT with *status (opt.h).
 * Either way bisect_args_free(bo) after. */
enum opt_result bisect_args(struct cli *cli, int argc, char **argv, struct bisect_opts *bo, int *status);
void bisect_args_free(struct bisect_opts *bo);

#endif
