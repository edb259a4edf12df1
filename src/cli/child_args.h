/* The command lines of the children a workflow runs (src/cli/child_args.c):
 * built from what the app asks (app/child.h), and the test's words a
 * matrix passes on, checked before anything is built. Only here does a
 * child's option have its spelling. */
#ifndef WR_CLI_CHILD_ARGS_H
#define WR_CLI_CHILD_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "app/child.h"
#include "cli/opt.h"

/* The command line of the child the app asks for (the workflows' argv
 * hook; ctx unused): argv[0] "wirerate", NULL-ended, malloc'd with its
 * strings (one free); NULL when out of memory. */
char **child_args_build(void *ctx, const struct app_child *what);

/* Whether word is the option opt ("--db", "-j"): the name exact, alone or
 * with "=VALUE". */
bool child_args_is(const char *word, const char *opt);

/* Whether a test's words name a DUT other than the lab (--dut ssh:... or
 * local): its configurations are applied by its agent, one test at a
 * time, with no lab built. */
bool child_args_remote(char *const *test, int ntest);

/* The test's words a matrix runs (from its name on) checked before
 * anything is built: no --help, none that the matrix sets itself (remote:
 * a DUT of its own, whose matrix sets --dut-placement and --dut-rules and
 * leaves the ports to the test), and room for what it adds (ntags: the
 * user's tags) in APP_MATRIX_ARGV_MAX words. *remote: the test names a
 * DUT of its own. With rounds (an interleaved matrix) the test's own
 * --repeat N is taken out of its words (*ntest fewer), N in *repeat (0:
 * none): the matrix runs N rounds of one test each instead. OPT_GO, or
 * OPT_EXIT with *status (opt.h) after "matrix: " and the reason. */
enum opt_result child_args_matrix(char **test, int *ntest, int ntags, bool rounds, bool *remote,
				  unsigned int *repeat, int *status);

#endif
