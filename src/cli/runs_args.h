/* runs' options (src/cli/runs_args.c): the table and the parse. */
#ifndef WR_CLI_RUNS_ARGS_H
#define WR_CLI_RUNS_ARGS_H

#include "cli/cli.h"
#include "cli/opt.h"
#include "app/gate_run.h"
#include "app/runs.h"

struct runs_opts {
	struct app_runs_req req;	/* the subcommand, its words, the store, the filters */
	const char *filter;		/* the last filter given */
	char **words;			/* every word given (runs_args_free) */
	/* export --kcidb FILE: the run's figures as a KernelCI document */
	struct app_gate_kcidb kcidb;
};

/* argv into ro: the options, and the subcommand with its words, checked
 * against what each takes: OPT_GO, or OPT_EXIT with *status (opt.h). */
enum opt_result runs_args(struct cli *cli, int argc, char **argv, struct runs_opts *ro, int *status);
void runs_args_free(struct runs_opts *ro);
/* A subcommand's word ("show"), "" for the list. */
const char *runs_args_word(enum app_runs_sub sub);

#endif
