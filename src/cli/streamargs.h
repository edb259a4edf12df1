/* stream's options (src/cli/streamargs.c): the table and the parse. */
#ifndef WR_CLI_STREAMARGS_H
#define WR_CLI_STREAMARGS_H

#include "app/streamclient.h"
#include "cli/cli.h"

/* argv into op, checked: -1 to go on, or the exit status (0 after
 * --help) after a one-line error. */
int stream_args(struct cli *cli, int argc, char **argv, struct app_stream_opts *op);

#endif
