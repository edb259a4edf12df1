/* trial's options (src/cli/trial_args.c): the table and the parse. */
#ifndef WR_CLI_TRIAL_ARGS_H
#define WR_CLI_TRIAL_ARGS_H

#include <stdint.h>

#include "app/trial_setup.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "cli/store_args.h"
#include "render/trial_files.h"

#define TRIAL_CAPTURE_COUNT 100	/* --capture-count's default */

struct trial_args {
	uint64_t repeat;
	/* --latency-histogram, --openmetrics, --capture FILE, --capture-count N */
	struct trial_files files;
};

/* argv into to, own and so (the traffic options, trial's own, the
 * store's), with the checks the traffic options do not know of: OPT_GO, or
 * OPT_EXIT with *status (opt.h). */
enum opt_result trial_args(struct cli *cli, int argc, char **argv, struct trial_setup *to, struct trial_args *own,
			   struct run_store *so, int *status);

#endif
