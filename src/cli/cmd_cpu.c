/* wirerate cpu: mpstat's per-CPU table plus interrupts, NET_RX/NET_TX
 * softirqs and softnet counters per second, and busy% = wall - idle -
 * iowait, which sees the interrupt time /proc/stat's columns miss. */
#include <errno.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/cpu_args.h"
#include "app/cpu_watch.h"
#include "dut/dut.h"
#include "os/stop.h"
#include "render/cpu_print.h"
#include "render/out.h"

/* Every interval until --count or Ctrl-C, then the average (and the
 * profile): 0, or an exit status after a one-line error. */
static int watch(struct cli *cli, const struct app_cpu_cfg *c, struct app_cpu_watch *w)
{
	struct stop stop = { 0 };
	struct out *o = cli_out_create(cli, "cpu");
	char err[512];
	int rc;

	if (!o)
		return EXIT_RUNTIME;
	cpu_print_start(o, c->interval_ns, w->hz, c->irq, w->first);
	stop_catch(&stop);
	out_arr_start(o, "samples");
	while ((rc = app_cpu_watch_next(c, w, stop_flag(), err, sizeof(err))) > 0)
		cpu_print_sample(o, (int64_t)time(NULL), w->prev, w->cur, w->hz, c->irq, c->cpus);
	out_arr_end(o);
	if (!rc) {
		app_cpu_watch_finish(c, w);
		cpu_print_watch_end(o, c, w);
	}
	stop_restore(&stop);
	out_destroy(o);
	return rc ? cli_fail(EXIT_RUNTIME, "cpu: %s", err) : 0;
}

int cmd_cpu(struct cli *cli, int argc, char **argv)
{
	struct app_cpu_watch w = { 0 };
	enum app_cpu_fail why;
	struct cpu_opts op;
	char err[512];
	int rc;

	if (cpu_args(cli, argc, argv, &op, &rc) == OPT_EXIT)
		return rc;
	if (op.dut.given && (rc = dut_open(&op.dut, NULL, 0, &op.cfg.d, err, sizeof(err))))
		return cli_fail(cli_status(rc), "cpu: %s", err);
	if ((rc = app_cpu_watch_open(&op.cfg, &w, &why, err, sizeof(err)))) {
		cli_error("cpu: %s%s", why == APP_CPU_PROFILE ? "--profile: " : "", err);
		rc = why == APP_CPU_CHECK || (why == APP_CPU_PROFILE && rc == -EINVAL) ? EXIT_USAGE : EXIT_RUNTIME;
	} else {
		rc = watch(cli, &op.cfg, &w);
	}
	app_cpu_watch_close(&w);
	dut_close(op.cfg.d);
	return rc;
}
