/* report's options (src/cli/report_args.c): the table and the parse. */
#ifndef WR_CLI_REPORT_ARGS_H
#define WR_CLI_REPORT_ARGS_H

#include "app/report.h"
#include "cli/cli.h"

/* argv into op, with the runs named (op->runs, the caller's to free):
 * -1 to go on, or the exit status (0 after --help) after a one-line
 * error. */
int report_args(struct cli *cli, int argc, char **argv, struct app_report_opts *op);

#endif
