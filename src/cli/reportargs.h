/* report's options (src/cli/reportargs.c): the table and the parse. */
#ifndef WR_CLI_REPORTARGS_H
#define WR_CLI_REPORTARGS_H

#include <stdbool.h>

#include "app/report.h"
#include "cli/cli.h"
#include "core/duttarget.h"

struct report_opts {
	const char *db[REPORT_MAX_STORES], *html;
	unsigned int ndb;
	bool csv, csv_loss;
	double fail_pct;	/* -1: not given */
	bool trend;		/* --trend and the series' filters */
	const char *label, *tag, *test;
	unsigned int size;
	char dut[160];		/* --dut: the DUT's name as runs store it; "" any */
};

/* argv into op, and the runs named into *runs (n of them, the caller's to
 * free): -1 to go on, or the exit status (0 after --help) after a
 * one-line error. */
int report_args(struct cli *cli, int argc, char **argv, struct report_opts *op, char ***runs, int *nruns);

#endif
