/* soak's options (src/cli/soak_args.c): the table and the parse. */
#ifndef WR_CLI_SOAK_ARGS_H
#define WR_CLI_SOAK_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/cpuset.h"
#include "core/duttarget.h"
#include "dut/soak.h"

struct soak_opts {
	bool calibrate, per_cpu, have_cpus;
	uint64_t interval_ns, duration_ns;
	struct cpuset cpus;
	char path[4096];
	struct soak_calib_opts cal;
	const char *cal_only;	/* the last option of --calibrate's given */
	bool path_set;
	struct dut_target dut;
	struct dut *d;		/* with --dut: the soak runs there */
};

/* argv into op, checked: OPT_GO, or OPT_EXIT with *status (opt.h). */
enum opt_result soak_args(struct cli *cli, int argc, char **argv, struct soak_opts *op, int *status);

#endif
