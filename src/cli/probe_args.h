/* probe's options (src/cli/probe_args.c): the table and the parse. */
#ifndef WR_CLI_PROBE_ARGS_H
#define WR_CLI_PROBE_ARGS_H

#include "cli/cli.h"
#include "app/probe.h"

/* argv into c (have_root aside), --require's list checked: -1 to go on,
 * or the exit status (0 after --help) after a one-line error. */
int probe_args(struct cli *cli, int argc, char **argv, struct app_probe_cfg *c);

#endif
