/* calibrate's options (src/cli/calibrate_args.c): the table and the parse. */
#ifndef WR_CLI_CALIBRATE_ARGS_H
#define WR_CLI_CALIBRATE_ARGS_H

#include "cli/cli.h"
#include "cli/trial_opts.h"

/* argv into to, checked, with calibrate's defaults where trial's differ:
 * -1 to go on, or the exit status (0 after --help) after a one-line
 * error. */
int calibrate_args(struct cli *cli, int argc, char **argv, struct trialopt *to);

#endif
