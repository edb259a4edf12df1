/* probe's options (src/cli/probe_args.c): the table and the parse. */
#ifndef WR_CLI_PROBE_ARGS_H
#define WR_CLI_PROBE_ARGS_H

#include "cli/cli.h"
#include "cli/opt.h"
#include "app/probe.h"

/* argv into c (have_root aside), --require's list checked: OPT_GO, or
 * OPT_EXIT with *status (opt.h). */
enum opt_result probe_args(struct cli *cli, int argc, char **argv, struct app_probe_cfg *c, int *status);

#endif
