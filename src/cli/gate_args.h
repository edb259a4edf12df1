/* gate's options (src/cli/gate_args.c): the table and the parse. */
#ifndef WR_CLI_GATE_ARGS_H
#define WR_CLI_GATE_ARGS_H

#include "app/gate_run.h"
#include "cli/cli.h"
#include "cli/opt.h"

/* argv into op (RUN the one word): OPT_GO, or OPT_EXIT with *status. */
enum opt_result gate_args(struct cli *cli, int argc, char **argv, struct app_gate_opts *op, int *status);

#endif
