/* pair's options (src/cli/pair_args.c): the table and the parse. */
#ifndef WR_CLI_PAIR_ARGS_H
#define WR_CLI_PAIR_ARGS_H

#include "app/pair_run.h"
#include "cli/cli.h"
#include "cli/opt.h"

/* argv into op: OPT_GO, or OPT_EXIT with *status (opt.h). */
enum opt_result pair_args(struct cli *cli, int argc, char **argv, struct app_pair_opts *op, int *status);

#endif
