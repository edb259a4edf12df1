/* cpu's options: declared once (the table that opt_parse, the usage text
 * and 'help --json' read; also mpstat's INTERVAL [COUNT] arguments), then
 * parsed and checked. */
#include "cli/cpu_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli/cli.h"
#include "cli/opt.h"
#include "core/ns.h"
#include "cli/dut_args.h"
#include "dut/profile.h"

#define CO(field) OPT_FIELD(struct cpu_opts, field)

static const struct opt cpu_opts[] = {
	{ OPT_NS("interval", "T", CO(cfg.interval_ns), 10 * NSEC_PER_MSEC, NSEC_PER_HOUR,
		 "time between rows (10ms..1h)"),
	  .group = "sampling", .def = "1s" },
	{ OPT_U64("count", "N", CO(cfg.count), 1, 1000000000, "stop after N intervals (default: until Ctrl-C)") },
	{ OPT_CPUSET("cpus", "LIST", CO(cpus), "CPUs to show (e.g. 1 or 0-3,8; default all online)"),
	  .given = CO(have_cpus) },
	{ OPT_STR("irq", "NAME", CO(cfg.irq), "count only IRQ lines whose name contains NAME (e.g. eth0)") },
	{ OPT_BOOL("profile", CO(cfg.profile),
		   "also sample where the CPUs' time goes over the whole run\n"
		   "(cpu-clock sampling, named from /proc/kallsyms) and print the\n"
		   "top functions and the share in softirq at the end"),
	  .group = "profile" },
	{ OPT_UINT("profile-hz", "HZ", CO(cfg.profile_hz), 1, PROFILE_HZ_MAX, "--profile's sampling rate per CPU"),
	  .def = "999" },
	{ OPT_UINT("profile-top", "N", CO(cfg.profile_top), 1, PROFILE_TOP_MAX, "--profile's entries shown"),
	  .def = "10" },
	{ OPT_STR("root", "DIR", CO(cfg.root), "read /proc under DIR (fixture trees)"), .def = "/" },
	DUTOPT_ENTRIES(CO(dut), "the host", "this host", "the DUT whose CPUs to show"),
	{ NULL },
};

static const struct opt *const cpu_tables[] = { cpu_opts, NULL };

const struct opt_cmd cpu_cmd = {
	.name = "cpu",
	.synopsis = "[--interval 1s] [--count N] [--cpus LIST] [--irq NAME] [--dut TARGET] [--json]\n"
		    "       wirerate cpu [OPTIONS] [INTERVAL [COUNT]]   (mpstat's habit: INTERVAL in seconds)",
	.about = "Per-CPU time (mpstat's columns), interrupts and network softirqs per second,\n"
		 "every interval; Ctrl-C or the end of --count prints the average.\n",
	.notes = "%busy is (wall time - idle - iowait) / wall time: without\n"
		 "CONFIG_IRQ_TIME_ACCOUNTING, interrupt time lands in no column, so the\n"
		 "columns add up to less than the wall time and %busy is the closer figure.\n",
	.tables = cpu_tables,
};

enum opt_result cpu_args(struct cli *cli, int argc, char **argv, struct cpu_opts *op, int *status)
{
	void *ctx[] = { op };
	char *args[2];
	int nargs, rc;

	memset(op, 0, sizeof(*op));
	op->cfg.root = "/";
	char err[256];

	if ((rc = opt_parse(&cpu_cmd, ctx, cli, argc, argv, args, 2, &nargs)))
		return opt_exit(status, opt_status(rc));
	/* mpstat's habit: cpu [INTERVAL [COUNT]], INTERVAL in seconds unless
	 * it has a unit; each once, as an argument or as its option */
	for (int i = 0; i < nargs; i++) {
		const struct opt *o = &cpu_opts[i];
		char v[64];

		if (i ? op->cfg.count != 0 : op->cfg.interval_ns != 0)
			return opt_fail(status, EXIT_USAGE, "cpu: the %s is given twice: '%s' and --%s", o->name,
					args[i], o->name);
		snprintf(v, sizeof(v), "%s%s", args[i],
			 !i && *args[i] && strspn(args[i], "0123456789.") == strlen(args[i]) ? "s" : "");
		if (o->set(op, o, v, err, sizeof(err)))
			return opt_fail(status, EXIT_USAGE, "cpu: the %s argument: %s", o->name, err);
	}
	if (!op->cfg.interval_ns)
		op->cfg.interval_ns = NSEC_PER_SEC;
	op->cfg.cpus = op->have_cpus ? &op->cpus : NULL;
	if (duttarget_check(&op->dut, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "cpu: %s", err);
	if (op->cfg.profile && strcmp(op->cfg.root, "/"))
		return opt_fail(status, EXIT_USAGE, "cpu: --profile samples this host's CPUs or a DUT's, not a "
				"fixture tree: give one of --root and --profile");
	if (op->dut.given && strcmp(op->cfg.root, "/"))
		return opt_fail(status, EXIT_USAGE, "cpu: --root reads this host's fixture trees, not a DUT's: give "
				"one of --root and --dut");
	return OPT_GO;
}
