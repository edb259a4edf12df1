/* wirerate soak: cyclesoak's "System load", from SCHED_IDLE soakers
 * against their calibrated idle rate. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/timeconst.h"
#include "core/cpuset.h"
#include "core/cpustat.h"
#include "core/units.h"
#include "render/out.h"
#include "os/procstat.h"
#include "os/clock.h"
#include "cli/dutopt.h"
#include "dut/dut.h"
#include "dut/envcap.h"
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
	if (dutopt_check(&op->dut, err, sizeof(err))) {
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

static void calib_progress(void *ctx, unsigned int reading, const struct soak_load *l, double spread)
{
	struct out *o = ctx;

	out_obj_start(o, NULL);
	out_u64(o, "reading", "  reading %2llu:", reading);
	out_arr_start(o, "cpus");
	for (unsigned int i = 0; i < l->n; i++) {
		out_obj_start(o, NULL);
		out_u64(o, "cpu", " cpu%llu", l->cpu[i]);
		out_f64(o, "loops_per_s", " %.0f/s", l->run_rate[i]);
		/* Below 100%, something else ran on the CPU: the reading is the
		 * loop's speed per second it ran, so it still counts. */
		if (l->share[i] < 0.98)
			out_f64(o, "ran_pct", " (ran %.0f%%)", 100 * l->share[i]);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_f64(o, "spread_pct", "   spread %.2f%%\n", 100 * spread);
	out_obj_end(o);
	fflush(stdout);
}

static int do_calibrate(struct soak_opts *op, struct cli *cli)
{
	struct soak_calib *c = calloc(1, sizeof(*c));
	struct out *o = NULL;
	char err[512], list[256];
	unsigned int kept = 0;
	struct stat sb;
	int rc;

	if (!c)
		return EXIT_RUNTIME;
	/* never over a file that is not a soak calibration: said before the
	 * minutes of measuring, not after */
	rc = stat(op->path, &sb) == 0 && sb.st_size == 0 ? -ENOENT : soak_calib_load(op->path, c, err, sizeof(err));
	if (rc && rc != -ENOENT) {
		free(c);
		cli_error("soak: --calibration %s (give another file, or delete it)", err);
		return EXIT_USAGE;
	}
	memset(c, 0, sizeof(*c));
	o = cli_out_create(cli, "soak");
	if (!o) {
		free(c);
		return EXIT_RUNTIME;
	}
	cpuset_format_list(&op->cpus, list, sizeof(list));
	out_text(o, "calibrating %u CPU%s (%s): %u readings of %.2g s within %.2g%%, at most %.0f s; "
		 "the machine must be idle\n", cpuset_count(&op->cpus),
		 cpuset_count(&op->cpus) == 1 ? "" : "s", list, op->cal.settle,
		 (double)op->interval_ns / NSEC_PER_SEC, 100 * op->cal.tolerance, (double)op->cal.timeout_ns / NSEC_PER_SEC);
	out_arr_start(o, "readings");
	op->cal.interval_ns = op->interval_ns;
	rc = soak_calibrate(&op->cpus, &op->cal, cli_stop_flag(), calib_progress, o, c, err, sizeof(err));
	out_arr_end(o);
	if (!rc) {
		/* Calibrating some CPUs keeps the others the file already has
		 * (same kernel, CPU model and loop); anything else is replaced. */
		struct soak_calib *old = calloc(1, sizeof(*old));
		char e2[512];

		if (old && !soak_calib_load(op->path, old, e2, sizeof(e2)))
			kept = soak_calib_merge(c, old);
		free(old);
		rc = soak_calib_save(op->path, c, err, sizeof(err));
	}
	if (rc) {
		out_destroy(o);
		free(c);
		cli_error("soak: %s", err);
		return cli_stopped() ? 130 : cli_status(rc);
	}
	out_str(o, "file", "soak calibration saved to %s", op->path);
	out_u64(o, "kept_cpus", kept ? " (with %llu CPU(s) kept from before)\n" : "\n", kept);
	out_str(o, "kernel", "  kernel %s,", c->kernel);
	out_str(o, "cpu_model", " CPU %s\n", c->cpu_model);
	out_arr_start(o, "cpus");
	for (unsigned int i = 0; i < c->n; i++) {
		out_obj_start(o, NULL);
		out_u64(o, "cpu", "  cpu%llu:", c->cpu[i]);
		out_f64(o, "loops_per_s", " %.0f loops/s", c->rate[i]);
		out_f64(o, "spread_pct", " (spread %.2f%%)\n", 100 * c->spread[i]);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_destroy(o);
	free(c);
	return 0;
}

/* Sleep until t_ns (CLOCK_MONOTONIC), or a signal. */
static void wait_until(uint64_t t_ns)
{
	struct timespec ts = { (time_t)(t_ns / NSEC_PER_SEC), (long)(t_ns % NSEC_PER_SEC) };

	while (!cli_stopped() && clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The idle check made before the soak: whether its calibration holds. */
static void print_check(struct out *o, const struct soak_idle *k)
{
	out_obj_start(o, "calibration_check");
	out_f64(o, "seconds", NULL, (double)k->duration_ns / NSEC_PER_SEC);
	out_f64(o, "tolerance_pct", NULL, 100 * k->tolerance);
	out_bool(o, "trusted", NULL, k->trusted);
	out_arr_start(o, "cpus");
	for (unsigned int i = 0; i < k->n; i++) {
		out_obj_start(o, NULL);
		out_u64(o, "cpu", NULL, k->cpu[i]);
		out_f64(o, "loops_per_s", NULL, k->run_rate[i]);
		out_f64(o, "calibrated", NULL, k->calib[i]);
		out_f64(o, "off_pct", NULL, 100 * k->off[i]);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (k->trusted) {
		out_text(o, "idle check: every CPU within %.1f%% of its calibration (tolerance %.0f%%)\n",
			 k->n ? 100 * fabs(k->off[k->worst]) : 0.0, 100 * k->tolerance);
		out_null(o, "reason");
	} else {
		out_str(o, "reason", "idle check: UNTRUSTED: %s\n", k->reason);
	}
	out_obj_end(o);
}

static void put_load(struct out *o, const char *key, const char *fmt, double frac)
{
	out_f64(o, key, fmt, 100 * frac);
}

static void summary(struct out *o, const struct soak_load *overall, double *hist, size_t n,
		    unsigned int ncpu, bool per_cpu, unsigned int fast, bool interrupted)
{
	double mean, min, max;

	out_obj_start(o, "summary");
	if (!n) {
		/* stopped before the first reading: no figure is better than
		 * one from a few microseconds */
		out_u64(o, "readings", "\nSummary: no reading", 0);
		out_text(o, "%s\n", interrupted ? " (interrupted before the first)" : "");
		out_null(o, "seconds");
		out_null(o, "load");
		out_u64(o, "fast_readings", NULL, 0);
		out_arr_start(o, "cpus");
		out_arr_end(o);
		out_obj_end(o);
		return;
	}
	out_u64(o, "readings", "\nSummary: %llu readings", n);
	out_f64(o, "seconds", " over %.1f s", overall->seconds);
	put_load(o, "load", ": load %.1f%%", overall->all);
	if (n) {
		stat_summary(hist, n, &mean, &min, &max);
		put_load(o, "mean", " (readings: mean %.1f%%", mean);
		put_load(o, "min", ", min %.1f%%", min);
		put_load(o, "max", ", max %.1f%%)", max);
	}
	out_u64(o, "fast_readings", NULL, fast);
	out_text(o, "%s\n", interrupted ? " (interrupted)" : "");
	if (fast)
		out_text(o, "  in %u readings a soaker ran over 2%% faster than calibrated: calibrate "
			 "again on an idle machine ('wirerate soak --calibrate')\n", fast);
	out_arr_start(o, "cpus");
	for (unsigned int i = 0; (per_cpu || out_is_json(o)) && i < ncpu; i++) {
		double *v = hist + n * (i + 1);

		out_obj_start(o, NULL);
		out_u64(o, "cpu", "  cpu%llu:", overall->cpu[i]);
		put_load(o, "load", " load %.1f%%", overall->load[i]);
		if (n) {
			stat_summary(v, n, &mean, &min, &max);
			put_load(o, "mean", " (mean %.1f%%", mean);
			put_load(o, "min", ", min %.1f%%", min);
			put_load(o, "max", ", max %.1f%%)", max);
		}
		out_f64(o, "loops_per_s", NULL, overall->rate[i]);
		/* the CPU time the soaker itself got: what /proc/stat shows
		 * busy on the CPU less this is everything else that ran */
		put_load(o, "soaker_ran", NULL, overall->share[i]);
		out_text(o, "\n");
		out_obj_end(o);
	}
	out_arr_end(o);
	out_obj_end(o);
}

/* The load over the last interval: from two snapshots of this host's
 * soakers, or the DUT agent's reading since its previous one. */
static int reading(struct soak_opts *op, struct soak *s, struct soak_snap *a, struct soak_snap *b,
		   struct soak_load *l, char *err, size_t errlen)
{
	if (op->d)
		return dut_soak_read(op->d, l, err, errlen);
	soak_snap(s, b);
	soak_load_between(s, a, b, l);
	*a = *b;
	return 0;
}

/* The DUT's readings added up, each weighted by its length: the load
 * over the whole run, as soak_read gives it for this host. */
static void accumulate(struct soak_load *tot, const struct soak_load *l)
{
	double t = tot->seconds + l->seconds;

	for (unsigned int i = 0; i < l->n && i < SOAK_MAX_CPUS; i++) {
		tot->cpu[i] = l->cpu[i];
		if (t > 0) {
			tot->load[i] = (tot->load[i] * tot->seconds + l->load[i] * l->seconds) / t;
			tot->rate[i] = (tot->rate[i] * tot->seconds + l->rate[i] * l->seconds) / t;
			tot->share[i] = (tot->share[i] * tot->seconds + l->share[i] * l->seconds) / t;
		}
	}
	tot->n = l->n;
	tot->seconds = t;
	tot->clamped |= l->clamped;
	tot->all = 0;
	for (unsigned int i = 0; i < tot->n; i++)
		tot->all += tot->load[i] / tot->n;
}

static int do_soak(struct soak_opts *op, struct cli *cli)
{
	struct soak_calib *c = calloc(1, sizeof(*c));
	struct soak_snap *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct soak_load *l = malloc(sizeof(*l)), *total = malloc(sizeof(*total));
	static struct soak_idle idle;	/* large; one run per process */
	bool checked = true;
	struct soak *s = NULL;
	struct out *o = NULL;
	double *hist = NULL;	/* readings: all, then per CPU, each cap long */
	size_t n = 0, cap = 0;
	unsigned int ncpu, fast = 0;
	char err[512], list[256];
	uint64_t start, next, end;
	int rc = EXIT_RUNTIME;

	if (!c || !a || !b || !l || !total)
		goto out;
	if (op->d) {
		/* the DUT loads and checks its calibration itself */
		if ((rc = dut_soak_start(op->d, &op->cpus, op->dut.kind == DUT_SSH ? NULL : op->path, &idle,
					 &checked, err, sizeof(err)))) {
			cli_error("soak: %s", err);
			rc = cli_status(rc);
			goto out;
		}
		ncpu = cpuset_count(&op->cpus);
	} else if ((rc = soak_calib_load(op->path, c, err, sizeof(err))) ||
		   (rc = soak_calib_verify(c, err, sizeof(err))) ||
		   (rc = soak_check_idle(&op->cpus, c, 0, 0, &idle, err, sizeof(err))) ||
		   (rc = soak_create(&op->cpus, c, &s, err, sizeof(err)))) {
		cli_error("soak: %s", err);
		rc = rc == -ENOMEM || rc == -EIO ? EXIT_RUNTIME : EXIT_USAGE;
		goto out;
	} else {
		ncpu = soak_ncpus(s);
	}
	cap = op->duration_ns ? op->duration_ns / op->interval_ns + 2 : 64;
	hist = malloc(cap * (ncpu + 1) * sizeof(double));
	o = cli_out_create(cli, "soak");
	if (!hist || !o) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (!op->d && (rc = soak_start(s, err, sizeof(err)))) {
		cli_error("soak: %s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	cpuset_format_list(&op->cpus, list, sizeof(list));
	out_u64(o, "ncpus", ncpu == 1 ? "using %llu CPU" : "using %llu CPUs", ncpu);
	out_str(o, "cpus", " (%s)", list);
	if (op->d)
		out_str(o, "dut", " on %s", dut_name(op->d));
	out_str(o, "calibration", ", calibration %s\n", op->d && op->dut.kind == DUT_SSH ? "the DUT's own" : op->path);
	out_f64(o, "interval_s", NULL, (double)op->interval_ns / NSEC_PER_SEC);
	if (checked)
		print_check(o, &idle);
	out_arr_start(o, "readings");
	memset(total, 0, sizeof(*total));
	if (s)
		soak_snap(s, a);
	else
		a->t_ns = mono_ns();	/* the readings' times are the tester's */
	start = next = a->t_ns;
	end = op->duration_ns ? start + op->duration_ns : UINT64_MAX;
	while (!cli_stopped() && next < end) {
		next = next + op->interval_ns < end ? next + op->interval_ns : end;
		wait_until(next);
		if ((rc = reading(op, s, a, b, l, err, sizeof(err)))) {
			cli_error("soak: %s", err);
			rc = EXIT_RUNTIME;
			goto out;
		}
		/* A Ctrl-C cut reading shorter than a tenth is noise: drop it. */
		if (cli_stopped() && l->seconds * NSEC_PER_SEC < op->interval_ns / 10)
			break;
		accumulate(total, l);
		if (n == cap) {
			double *nh = malloc(2 * cap * (ncpu + 1) * sizeof(double));

			if (!nh)
				break;
			for (unsigned int k = 0; k <= ncpu; k++)
				memcpy(nh + 2 * cap * k, hist + cap * k, n * sizeof(double));
			free(hist);
			hist = nh;
			cap *= 2;
		}
		hist[n] = l->all;
		for (unsigned int i = 0; i < ncpu; i++)
			hist[cap * (i + 1) + n] = l->load[i];
		n++;
		/* Noise puts an idle soaker a little above its calibrated rate;
		 * more than 2% above means the calibration is off. */
		for (unsigned int i = 0; i < ncpu; i++)
			if (l->raw[i] < -0.02) {
				fast++;
				break;
			}
		out_obj_start(o, NULL);
		out_f64(o, "t", NULL, (double)((s ? b->t_ns : mono_ns()) - start) / NSEC_PER_SEC);
		put_load(o, "load", "System load: %4.1f%%", l->all);
		out_bool(o, "clamped", NULL, l->clamped);
		out_arr_start(o, "cpus");
		for (unsigned int i = 0; (op->per_cpu || out_is_json(o)) && i < ncpu; i++) {
			out_obj_start(o, NULL);
			out_u64(o, "cpu", i ? ", cpu%llu" : "   (cpu%llu", l->cpu[i]);
			put_load(o, "load", " %.1f%%", l->load[i]);
			put_load(o, "raw_load", NULL, l->raw[i]);
			out_obj_end(o);
		}
		out_arr_end(o);
		out_text(o, "%s\n", op->per_cpu ? ")" : "");
		out_obj_end(o);
		fflush(stdout);
	}
	out_arr_end(o);
	if (s) {
		soak_read(s, l);
		soak_stop(s);
	} else {
		*l = *total;
		dut_soak_stop(op->d, err, sizeof(err));
	}
	/* the per-CPU history sits at hist + cap * (i + 1): compact it */
	for (unsigned int k = 1; k <= ncpu; k++)
		memmove(hist + n * k, hist + cap * k, n * sizeof(double));
	summary(o, l, hist, n, ncpu, op->per_cpu, fast, cli_stopped());
	out_bool(o, "trusted", !checked || idle.trusted ? NULL : "  UNTRUSTED: the calibration does not hold for this "
		 "CPU now (see the idle check above)\n", !checked || idle.trusted);
	out_bool(o, "interrupted", NULL, cli_stopped());
	rc = 0;
out:
	out_destroy(o);
	soak_destroy(s);
	free(hist);
	free(c);
	free(a);
	free(b);
	free(l);
	free(total);
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
	if (!op.have_cpus && op.d) {
		const char *v = envcap_get(dut_env(op.d), "dut.cpu.online");

		if (!v || cpuset_parse_list(v, &op.cpus, err, sizeof(err))) {
			cli_error("soak: %s: its CPUs online are not known", dut_name(op.d));
			dut_close(op.d);
			return EXIT_RUNTIME;
		}
	} else if (!op.have_cpus && (rc = procstat_online(NULL, &op.cpus, err, sizeof(err)))) {
		cli_error("soak: %s", err);
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
