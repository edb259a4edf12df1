/* A test's command line checked before anything is built
 * (src/cli/test_args.c): what the matrix and bisect will run. */
#ifndef WR_CLI_TEST_ARGS_H
#define WR_CLI_TEST_ARGS_H

#include "cli/cli.h"
#include "cli/opt.h"

struct app_child;

/* A test that the matrix or bisect will run as a child (what: a test's
 * words, trial or rfc2544 and its options, and what the workflow adds)
 * checked by the test's command in this process with nothing built
 * (cli->check_only), its command line as the child will have it: OPT_GO
 * with the time it plans in *planned_s, or OPT_EXIT with its exit status
 * in *status after it printed why. */
enum opt_result test_args_check(struct cli *cli, const struct app_child *what, double *planned_s, int *status);

#endif
