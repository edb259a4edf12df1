/* stream's options (src/cli/stream_args.c): the table and the parse. */
#ifndef WR_CLI_STREAM_ARGS_H
#define WR_CLI_STREAM_ARGS_H

#include "app/stream_client.h"
#include "cli/cli.h"
#include "cli/opt.h"

/* argv into op, checked: OPT_GO, or OPT_EXIT with *status (opt.h). */
enum opt_result stream_args(struct cli *cli, int argc, char **argv, struct app_stream_opts *op, int *status);

#endif
