/* cpu's options (src/cli/cpuargs.c): the table and the parse. */
#ifndef WR_CLI_CPUARGS_H
#define WR_CLI_CPUARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "core/cpuset.h"
#include "core/duttarget.h"

struct cpu_opts {
	uint64_t interval_ns;
	uint64_t count;			/* 0 = until Ctrl-C */
	bool have_cpus;
	struct cpuset cpus;
	const char *irq;
	const char *root;
	struct dut_target dut;
	struct dut *d;			/* open with --dut */
	bool profile;			/* --profile: where the CPUs' time goes */
	unsigned int profile_hz, profile_top;
};

/* argv into op, checked: -1 to go on, or the exit status (0 after
 * --help) after a one-line error. */
int cpu_args(struct cli *cli, int argc, char **argv, struct cpu_opts *op);

#endif
