/* A test's command line checked in this process before anything is
 * built: what the matrix and bisect run, parsed as the test parses it. */
#include <stdlib.h>
#include <string.h>

#include "cli/test_args.h"

enum opt_result test_args_check(struct cli *cli, char **targv, double *planned_s, int *status)
{
	struct cli sub = *cli;
	char **copy;
	int n = 0;

	/* the command takes its options out of the array it is given */
	while (targv[n + 1])
		n++;
	if (!(copy = calloc((size_t)n + 1, sizeof(*copy))))
		return opt_fail(status, EXIT_RUNTIME, "out of memory");
	for (int i = 0; i < n; i++)
		copy[i] = targv[i + 1];
	sub.check_only = true;
	sub.planned_s = 0;
	*status = !strcmp(copy[0], "trial") ? cmd_trial(&sub, n, copy) : cmd_rfc2544(&sub, n, copy);
	*planned_s = sub.planned_s;
	free(copy);
	return *status ? OPT_EXIT : OPT_GO;
}
