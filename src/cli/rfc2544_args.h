/* rfc2544's options (src/cli/rfc2544_args.c): the table and the parse. */
#ifndef WR_CLI_RFC2544_ARGS_H
#define WR_CLI_RFC2544_ARGS_H

#include <stdbool.h>

#include "app/rfc2544_plan.h"
#include "app/trial_setup.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/store_args.h"

struct rfc2544_args {
	struct app_rfc2544_opts po;	/* the options the plan reads, declared into it */
	bool sizes_given;
	bool json_stream;
	const char *openmetrics;
};

/* argv into r, so and to (rfc2544's own options, the store's, the
 * traffic options), with the test words and every check, and the plan
 * timed (RFC 2544's defaults, or the lab's quick mode): OPT_GO, or
 * OPT_EXIT with *status (opt.h). */
enum opt_result rfc2544_args(struct cli *cli, int argc, char **argv, struct rfc2544_args *r, struct run_store *so,
			     struct trial_setup *to, struct app_rfc2544_plan *plan, int *status);

#endif
