/* soak's options: declared once (the table that opt_parse, the usage text
 * and 'help --json' read), then parsed and checked. */
#include "cli/soak_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/cli.h"
#include "cli/opt.h"
#include "core/ns.h"
#include "cli/dut_args.h"
#include "dut/soak.h"
#include "app/soak_run.h"

static int set_calibration(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct soak_opts *op = ctx;

	if (!*v || strlen(v) >= sizeof(op->path) - 32) {
		snprintf(err, errlen, "expected a file name");
		return -EINVAL;
	}
	snprintf(op->path, sizeof(op->path), "%s", v);
	op->path_set = true;
	return 0;
}

static int set_settle(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	int rc = opt_set_uint(ctx, opt, v, err, errlen);

	if (!rc)
		((struct soak_opts *)ctx)->cal_only = "--settle";
	return rc;
}

static int set_tolerance(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct soak_opts *op = ctx;
	char *end;

	errno = 0;
	op->cal.tolerance = strtod(v, &end) / 100;
	if (end == v || (*end && strcmp(end, "%")) || errno ||
	    !(op->cal.tolerance >= 0.0001 && op->cal.tolerance <= 0.5)) {
		snprintf(err, errlen, "'%s' is not a percentage in 0.01..50", v);
		return -EINVAL;
	}
	op->cal_only = "--tolerance";
	return 0;
}

#define SK(field) OPT_FIELD(struct soak_opts, field)

static const struct opt soak_opts[] = {
	{ OPT_BOOL("calibrate", SK(calibrate),
		   "measure the idle rate (the machine must be idle) and\n"
		   "store it; needed once per kernel and CPU model (the\n"
		   "file keeps the CPUs not calibrated this time)"),
	  .group = "soaking" },
	{ OPT_NS("interval", "T", SK(interval_ns), 10 * NSEC_PER_MSEC, NSEC_PER_HOUR,
		 "time per reading (10ms..1h)"),
	  .def = "1s" },
	{ OPT_NS("duration", "T", SK(duration_ns), 10 * NSEC_PER_MSEC, 31 * NSEC_PER_DAY,
		 "stop after T (default: until Ctrl-C)") },
	{ OPT_CPUSET("cpus", "LIST", SK(cpus), "CPUs to soak (default: all online)"), .given = SK(have_cpus) },
	{ OPT_BOOL("per-cpu", SK(per_cpu), "the load of each CPU too") },
	{ OPT_CUSTOM("calibration", OPT_VALUE, "FILE", set_calibration,
		     "calibration file (default $WIRERATE_STATE_DIR,\n"
		     "$XDG_STATE_HOME/wirerate or ~/.local/state/wirerate,\n"
		     "then /soak-calibration)") },
	{ OPT_CUSTOM("settle", OPT_VALUE, "N", set_settle, "consecutive readings that must agree (2..100)"),
	  .group = "calibration only", .def = "5", .off = SK(cal.settle), .min = 2, .max = 100 },
	{ OPT_CUSTOM("tolerance", OPT_VALUE, "PCT", set_tolerance,
		     "how closely, in percent of their mean (0.01..50)"),
	  .def = "1" },
	{ OPT_NS("timeout", "T", SK(cal.timeout_ns), NSEC_PER_SEC, NSEC_PER_HOUR, "give up after T (1s..1h)"),
	  .def = "60s" },
	DUTOPT_ENTRIES(SK(dut), "the host", "this host",
		       "soak the CPUs of this DUT, with the calibration kept there"),
	{ NULL },
};

static const struct opt *const soak_tables[] = { soak_opts, NULL };

const struct opt_cmd soak_cmd = {
	.name = "soak",
	.synopsis = "[--calibrate] [--interval 1s] [--duration T] [--cpus LIST]\n"
		    "                     [--per-cpu] [--calibration FILE] [--dut TARGET] [--json]",
	.about = "Runs a lowest-priority (SCHED_IDLE) busy loop pinned to each CPU and prints\n"
		 "how much slower it runs than on an idle machine: the CPU that everything\n"
		 "else took, interrupts and softirqs included (Andrew Morton's cyclesoak).\n",
	.tables = soak_tables,
};

enum opt_result soak_args(struct cli *cli, int argc, char **argv, struct soak_opts *op, int *status)
{
	void *ctx[] = { op };
	char *args[1];
	int nargs, rc;

	memset(op, 0, sizeof(*op));
	op->interval_ns = NSEC_PER_SEC;
	op->cal.settle = 5;
	op->cal.tolerance = 0.01;
	op->cal.timeout_ns = 60 * NSEC_PER_SEC;
	soak_calibration_default_path(op->path, sizeof(op->path));
	if ((rc = opt_parse(&soak_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return opt_exit(status, opt_status(rc));
	char err[256];

	if (op->cal_only && !op->calibrate)
		return opt_fail(status, EXIT_USAGE, "soak: %s applies to --calibrate only", op->cal_only);
	if (duttarget_check(&op->dut, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "soak: %s", err);
	/* A calibration is made on the idle machine it is for. */
	if (op->dut.given && op->calibrate)
		return opt_fail(status, EXIT_USAGE,
				"soak: --calibrate runs on the DUT itself: 'wirerate soak --calibrate' there, idle");
	if (op->dut.kind == DUT_SSH && op->path_set)
		return opt_fail(status, EXIT_USAGE,
				"soak: --calibration names a file here; a DUT over ssh uses its own");
	if (op->calibrate && op->duration_ns)
		return opt_fail(status, EXIT_USAGE, "soak: --duration does not apply to --calibrate (see --timeout)");
	return OPT_GO;
}
