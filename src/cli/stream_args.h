/* stream's options (src/cli/stream_args.c): the table and the parse. */
#ifndef WR_CLI_STREAM_ARGS_H
#define WR_CLI_STREAM_ARGS_H

#include "app/stream_client.h"
#include "cli/cli.h"

/* argv into op, checked: -1 to go on, or the exit status (0 after
 * --help) after a one-line error. */
int stream_args(struct cli *cli, int argc, char **argv, struct app_stream_opts *op);

#endif
