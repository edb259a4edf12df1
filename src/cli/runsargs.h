/* runs' options (src/cli/runsargs.c): the table and the parse. */
#ifndef WR_CLI_RUNSARGS_H
#define WR_CLI_RUNSARGS_H

#include <stdint.h>

#include "cli/cli.h"

struct runs_opts {
	const char *label, *tag, *db_path, *filter;	/* filter: the last filter given */
	int64_t since;
};

/* argv into ro, and the words (the subcommand and its arguments) into
 * *args (n of them, the caller's to free): -1 to go on, or the exit
 * status (0 after --help) after a one-line error. */
int runs_args(struct cli *cli, int argc, char **argv, struct runs_opts *ro, char ***args, int *nargs);

#endif
