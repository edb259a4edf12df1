/* probe's options (src/cli/probeargs.c): the table and the parse. */
#ifndef WR_CLI_PROBEARGS_H
#define WR_CLI_PROBEARGS_H

#include "cli/cli.h"

/* Interfaces `probe --tx` reports on, at most. */
#define PROBE_MAX_IFS 8

/* Pairs the cache-line figure is measured for: the first CPU wirerate may
 * use and each other one, at most this many. */
#define PROBE_LINE_PAIRS 16

struct probe_opts {
	const char *require, *root;
	const char *ifs[PROBE_MAX_IFS];
	unsigned int nifs;
};

/* argv into op: -1 to go on, or the exit status (0 after --help) after a
 * one-line error. */
int probe_args(struct cli *cli, int argc, char **argv, struct probe_opts *op);

#endif
