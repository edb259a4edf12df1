/* report's options (src/cli/report_args.c): the table and the parse. */
#ifndef WR_CLI_REPORT_ARGS_H
#define WR_CLI_REPORT_ARGS_H

#include "app/report.h"
#include "cli/cli.h"
#include "cli/opt.h"

/* argv into op, with the runs named (op->runs, the caller's to free):
 * OPT_GO, or OPT_EXIT with *status (opt.h). */
enum opt_result report_args(struct cli *cli, int argc, char **argv, struct app_report_opts *op, int *status);

#endif
