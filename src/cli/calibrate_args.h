/* calibrate's options (src/cli/calibrate_args.c): the table and the parse. */
#ifndef WR_CLI_CALIBRATE_ARGS_H
#define WR_CLI_CALIBRATE_ARGS_H

#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/trial_opts.h"

/* argv into to, checked, with calibrate's defaults where trial's differ:
 * OPT_GO, or OPT_EXIT with *status (opt.h). */
enum opt_result calibrate_args(struct cli *cli, int argc, char **argv, struct trial_setup *to, int *status);

#endif
