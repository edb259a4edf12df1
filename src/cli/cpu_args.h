/* cpu's options (src/cli/cpu_args.c): the table and the parse. */
#ifndef WR_CLI_CPU_ARGS_H
#define WR_CLI_CPU_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/cpuset.h"
#include "core/duttarget.h"
#include "app/cpu_watch.h"

struct cpu_opts {
	struct app_cpu_cfg cfg;		/* the run asked (cfg.d: cmd_cpu opens it) */
	bool have_cpus;			/* --cpus given: cfg.cpus points to cpus */
	struct cpuset cpus;
	struct dut_target dut;
};

/* argv into op, checked: OPT_GO, or OPT_EXIT with *status (opt.h). */
enum opt_result cpu_args(struct cli *cli, int argc, char **argv, struct cpu_opts *op, int *status);

#endif
