/* A test's command line checked in this process before anything is
 * built: what the matrix and bisect run, parsed as the test parses it. */
#include <stdlib.h>
#include <string.h>

#include "cli/child_args.h"
#include "cli/test_args.h"

enum opt_result test_args_check(struct cli *cli, const struct app_child *what, double *planned_s, int *status)
{
	struct cli sub = *cli;
	char **targv = child_args_build(NULL, what);
	int n = 0;

	if (!targv)
		return opt_fail(status, EXIT_RUNTIME, "out of memory");
	/* the command takes its options out of the array it is given: its
	 * own, from the test's name on */
	while (targv[n + 1])
		n++;
	sub.check_only = true;
	sub.planned_s = 0;
	*status = !strcmp(targv[1], "trial") ? cmd_trial(&sub, n, targv + 1) :
		  !strcmp(targv[1], "stream") ? cmd_stream(&sub, n, targv + 1) : cmd_rfc2544(&sub, n, targv + 1);
	*planned_s = sub.planned_s;
	free(targv);
	return *status ? OPT_EXIT : OPT_GO;
}
