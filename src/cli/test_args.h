/* A test's command line checked before anything is built
 * (src/cli/test_args.c): what the matrix and bisect will run. */
#ifndef WR_CLI_TEST_ARGS_H
#define WR_CLI_TEST_ARGS_H

#include "cli/cli.h"
#include "cli/opt.h"

/* A test's command line (targv[0] "wirerate", then trial or rfc2544 and
 * its options, NULL ended) checked by the test's command in this process
 * with nothing built (cli->check_only), as the matrix and bisect check
 * what they will run: OPT_GO with the time it plans in *planned_s, or
 * OPT_EXIT with its exit status in *status after it printed why. */
enum opt_result test_args_check(struct cli *cli, char **targv, double *planned_s, int *status);

#endif
