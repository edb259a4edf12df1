/* wirerate cpu: mpstat's per-CPU table plus interrupts, NET_RX/NET_TX
 * softirqs and softnet counters per second, and busy% = wall - idle -
 * iowait, which sees the interrupt time /proc/stat's columns miss. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cpuargs.h"
#include "cli/opt.h"
#include "core/cpuset.h"
#include "render/out.h"
#include "dut/dut.h"
#include "dut/profile.h"
#include "render/cpuprint.h"
#include "app/cpuwatch.h"

int cmd_cpu(struct cli *cli, int argc, char **argv)
{
	struct app_cpu_watch w = { 0 };
	struct cli_stop stop = { 0 };
	enum app_cpu_fail why;
	struct cpu_opts op;
	struct out *o = NULL;
	char err[512];
	int rc;

	if ((rc = cpu_args(cli, argc, argv, &op)) >= 0)
		return rc;
	if (op.dut.given && (rc = dut_open(&op.dut, NULL, 0, &op.d, err, sizeof(err))))
		return cli_fail(cli_status(rc), "cpu: %s", err);
	const struct cpuset *only = op.have_cpus ? &op.cpus : NULL;
	const struct app_cpu_cfg cfg = {
		.interval_ns = op.interval_ns, .count = op.count, .cpus = only, .irq = op.irq, .root = op.root,
		.d = op.d, .profile = op.profile, .profile_hz = op.profile_hz, .profile_top = op.profile_top,
	};

	if ((rc = app_cpu_open(&cfg, &w, &why, err, sizeof(err)))) {
		cli_error("cpu: %s%s", why == APP_CPU_PROFILE ? "--profile: " : "", err);
		rc = why == APP_CPU_CHECK || (why == APP_CPU_PROFILE && rc == -EINVAL) ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	o = cli_out_create(cli, "cpu");
	if (!o) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	cpuprint_start(o, op.interval_ns, w.hz, op.irq, w.first);
	cli_stop_catch(&stop);
	out_arr_start(o, "samples");
	while ((rc = app_cpu_next(&cfg, &w, cli_stop_flag(), err, sizeof(err))) > 0)
		cpuprint_sample(o, (int64_t)time(NULL), w.prev, w.cur, w.hz, op.irq, only);
	if (rc < 0) {
		out_arr_end(o);
		out_destroy(o);
		o = NULL;
		cli_error("cpu: %s", err);
		rc = EXIT_RUNTIME;
		goto restore;
	}
	out_arr_end(o);
	cpuprint_average(o, w.n, w.first, w.prev, w.hz, op.irq, only);
	if (op.profile) {
		struct profile_result *pr = calloc(1, sizeof(*pr));

		app_cpu_profile_end(&cfg, &w, pr, err, sizeof(err));
		profile_print(o, pr, err);
		free(pr);
	}
	rc = 0;
restore:
	cli_stop_restore(&stop);
out:
	out_destroy(o);
	app_cpu_close(&w);
	dut_close(op.d);
	return rc;
}
