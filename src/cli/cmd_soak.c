/* wirerate soak: cyclesoak's "System load", from SCHED_IDLE soakers
 * against their calibrated idle rate. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/timeconst.h"
#include "core/cpuset.h"
#include "render/out.h"
#include "cli/dutopt.h"
#include "dut/dut.h"
#include "dut/soak.h"
#include "render/soakprint.h"
#include "app/soakrun.h"

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

static const struct opt soak_opts[] = {
	{ "calibrate", 0, OPT_NOARG, NULL, "soaking", NULL,
	  "measure the idle rate (the machine must be idle) and\n"
	  "store it; needed once per kernel and CPU model (the\n"
	  "file keeps the CPUs not calibrated this time)",
	  opt_set_true, OPT_FIELD(struct soak_opts, calibrate) },
	{ "interval", 0, OPT_VALUE, "T", NULL, "1s", "time per reading (10ms..1h)",
	  opt_set_ns, OPT_FIELD(struct soak_opts, interval_ns), 10 * NSEC_PER_MSEC, NSEC_PER_HOUR },
	{ "duration", 0, OPT_VALUE, "T", NULL, NULL, "stop after T (default: until Ctrl-C)",
	  opt_set_ns, OPT_FIELD(struct soak_opts, duration_ns), 10 * NSEC_PER_MSEC, 31 * NSEC_PER_DAY },
	{ "cpus", 0, OPT_VALUE, "LIST", NULL, NULL, "CPUs to soak (default: all online)",
	  opt_set_cpuset, OPT_FIELD(struct soak_opts, cpus), 0, 0, OPT_FIELD(struct soak_opts, have_cpus) },
	{ "per-cpu", 0, OPT_NOARG, NULL, NULL, NULL, "the load of each CPU too",
	  opt_set_true, OPT_FIELD(struct soak_opts, per_cpu) },
	{ "calibration", 0, OPT_VALUE, "FILE", NULL, NULL,
	  "calibration file (default $WIRERATE_STATE_DIR,\n"
	  "$XDG_STATE_HOME/wirerate or ~/.local/state/wirerate,\n"
	  "then /soak-calibration)", set_calibration },
	{ "settle", 0, OPT_VALUE, "N", "calibration only", "5", "consecutive readings that must agree (2..100)",
	  set_settle, OPT_FIELD(struct soak_opts, cal.settle), 2, 100 },
	{ "tolerance", 0, OPT_VALUE, "PCT", NULL, "1", "how closely, in percent of their mean (0.01..50)",
	  set_tolerance },
	{ "timeout", 0, OPT_VALUE, "T", NULL, "60s", "give up after T (1s..1h)",
	  opt_set_ns, OPT_FIELD(struct soak_opts, cal.timeout_ns), NSEC_PER_SEC, NSEC_PER_HOUR },
	DUTOPT_ENTRIES(OPT_FIELD(struct soak_opts, dut), "the host", "this host",
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

static int parse_opts(struct soak_opts *op, struct cli *cli, int argc, char **argv)
{
	void *ctx[] = { op };
	char *args[1];
	int nargs, rc;

	memset(op, 0, sizeof(*op));
	op->interval_ns = NSEC_PER_SEC;
	op->cal.settle = 5;
	op->cal.tolerance = 0.01;
	op->cal.timeout_ns = 60 * NSEC_PER_SEC;
	soak_calib_default_path(op->path, sizeof(op->path));
	if ((rc = opt_parse(&soak_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return rc == OPT_HELP ? -1 : EXIT_USAGE;
	char err[256];

	if (op->cal_only && !op->calibrate) {
		cli_error("soak: %s applies to --calibrate only", op->cal_only);
		return EXIT_USAGE;
	}
	if (duttarget_check(&op->dut, err, sizeof(err))) {
		cli_error("soak: %s", err);
		return EXIT_USAGE;
	}
	/* A calibration is made on the idle machine it is for. */
	if (op->dut.given && op->calibrate) {
		cli_error("soak: --calibrate runs on the DUT itself: 'wirerate soak --calibrate' there, idle");
		return EXIT_USAGE;
	}
	if (op->dut.kind == DUT_SSH && op->path_set) {
		cli_error("soak: --calibration names a file here; a DUT over ssh uses its own");
		return EXIT_USAGE;
	}
	return 0;
}

static int do_calibrate(struct soak_opts *op, struct cli *cli)
{
	struct soak_calib *c = calloc(1, sizeof(*c));
	struct out *o = NULL;
	char err[512];
	unsigned int kept = 0;
	int rc;

	if (!c)
		return EXIT_RUNTIME;
	/* never over a file that is not a soak calibration: said before the
	 * minutes of measuring, not after */
	if (app_soak_calib_precheck(op->path, c, err, sizeof(err))) {
		free(c);
		cli_error("soak: --calibration %s (give another file, or delete it)", err);
		return EXIT_USAGE;
	}
	o = cli_out_create(cli, "soak");
	if (!o) {
		free(c);
		return EXIT_RUNTIME;
	}
	soakprint_calib_start(o, &op->cpus, &op->cal, op->interval_ns);
	out_arr_start(o, "readings");
	op->cal.interval_ns = op->interval_ns;
	rc = app_soak_calibrate(op->path, &op->cpus, &op->cal, cli_stop_flag(), soakprint_calib_progress, o, c,
				&kept, err, sizeof(err));
	out_arr_end(o);
	if (rc) {
		out_destroy(o);
		free(c);
		cli_error("soak: %s", err);
		return cli_stopped() ? 130 : cli_status(rc);
	}
	soakprint_calib_saved(o, op->path, kept, c);
	out_destroy(o);
	free(c);
	return 0;
}

/* The soak's output, made once the soakers are. */
struct soak_print {
	struct cli *cli;
	const struct soak_opts *op;
	struct out *o;
};

static int soak_open(void *ctx)
{
	struct soak_print *p = ctx;

	p->o = cli_out_create(p->cli, "soak");
	return p->o ? 0 : -ENOMEM;
}

static void soak_started(void *ctx, unsigned int ncpu, const struct soak_idle *idle)
{
	struct soak_print *p = ctx;
	const struct soak_opts *op = p->op;

	soakprint_header(p->o, ncpu, &op->cpus, op->d ? dut_name(op->d) : NULL,
			 op->d && op->dut.kind == DUT_SSH ? "the DUT's own" : op->path, op->interval_ns);
	if (idle)
		soakprint_check(p->o, idle);
	out_arr_start(p->o, "readings");
}

static void soak_reading(void *ctx, double t, const struct soak_load *l, unsigned int ncpu)
{
	struct soak_print *p = ctx;

	soakprint_reading(p->o, t, l, ncpu, p->op->per_cpu);
}

static int do_soak(struct soak_opts *op, struct cli *cli)
{
	static const struct app_soak_hooks hooks = { soak_open, soak_started, soak_reading };
	struct app_soak_cfg cfg = {
		.cpus = &op->cpus,
		.path = op->d && op->dut.kind == DUT_SSH ? NULL : op->path,
		.interval_ns = op->interval_ns,
		.duration_ns = op->duration_ns,
		.d = op->d,
		.stop = cli_stop_flag(),
	};
	struct soak_print p = { cli, op, NULL };
	struct app_soak_result r;
	char err[512];
	int rc;

	if (app_soak_run(&cfg, &hooks, &p, &r, err, sizeof(err))) {
		if (err[0])
			cli_error("soak: %s", err);
		rc = r.bad_input ? EXIT_USAGE : EXIT_RUNTIME;
	} else {
		out_arr_end(p.o);
		soakprint_summary(p.o, &r.overall, r.hist.v, r.hist.n, r.ncpu, op->per_cpu, r.fast, cli_stopped());
		soakprint_verdict(p.o, r.trusted, cli_stopped());
		rc = 0;
	}
	out_destroy(p.o);
	app_soak_result_free(&r);
	return rc;
}

int cmd_soak(struct cli *cli, int argc, char **argv)
{
	struct cli_stop stop = { 0 };
	struct soak_opts op;
	char err[256];
	int rc;

	if ((rc = parse_opts(&op, cli, argc, argv)))
		return rc < 0 ? 0 : rc;
	if (op.dut.given && (rc = dut_open(&op.dut, NULL, 0, &op.d, err, sizeof(err)))) {
		cli_error("soak: %s", err);
		return cli_status(rc);
	}
	/* every CPU the soaked host has online, unless told */
	if (!op.have_cpus && app_soak_cpus(op.d, &op.cpus, err, sizeof(err))) {
		cli_error("soak: %s", err);
		dut_close(op.d);
		return EXIT_RUNTIME;
	}
	if (op.calibrate && op.duration_ns) {
		cli_error("soak: --duration does not apply to --calibrate (see --timeout)");
		return EXIT_USAGE;
	}
	cli_stop_catch(&stop);
	rc = op.calibrate ? do_calibrate(&op, cli) : do_soak(&op, cli);
	cli_stop_restore(&stop);
	dut_close(op.d);
	return rc;
}
