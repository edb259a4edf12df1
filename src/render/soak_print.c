#include "render/soak_print.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "core/soak_calib.h"
#include "core/stat.h"
#include "core/ns.h"

void soak_print_calib_progress(void *ctx, unsigned int reading, const struct soak_calib_busy *l, double spread)
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

/* The idle check made before the soak: whether its calibration holds. */
void soak_print_check(struct out *o, const struct soak_idle *k)
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

void soak_print_summary(struct out *o, const struct soak_calib_busy *overall, double *hist, size_t n,
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

void soak_print_calib_start(struct out *o, const struct cpuset *cpus, const struct soak_calib_opts *cal,
			   uint64_t interval_ns)
{
	char list[256];

	cpuset_format_list(cpus, list, sizeof(list));
	out_text(o, "calibrating %u CPU%s (%s): %u readings of %.2g s within %.2g%%, at most %.0f s; "
		 "the machine must be idle\n", cpuset_count(cpus),
		 cpuset_count(cpus) == 1 ? "" : "s", list, cal->settle,
		 (double)interval_ns / NSEC_PER_SEC, 100 * cal->tolerance, (double)cal->timeout_ns / NSEC_PER_SEC);
}

void soak_print_calib_saved(struct out *o, const char *path, unsigned int kept, const struct soak_calib *c)
{
	out_str(o, "file", "soak calibration saved to %s", path);
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
}

void soak_print_header(struct out *o, unsigned int ncpu, const struct cpuset *cpus, const char *dut,
		      const char *calibration, uint64_t interval_ns)
{
	char list[256];

	cpuset_format_list(cpus, list, sizeof(list));
	out_u64(o, "ncpus", ncpu == 1 ? "using %llu CPU" : "using %llu CPUs", ncpu);
	out_str(o, "cpus", " (%s)", list);
	if (dut)
		out_str(o, "dut", " on %s", dut);
	out_str(o, "calibration", ", calibration %s\n", calibration);
	out_f64(o, "interval_s", NULL, (double)interval_ns / NSEC_PER_SEC);
}

void soak_print_reading(struct out *o, double t, const struct soak_calib_busy *l, unsigned int ncpu, bool per_cpu)
{
	out_obj_start(o, NULL);
	out_f64(o, "t", NULL, t);
	put_load(o, "load", "System load: %4.1f%%", l->all);
	out_bool(o, "clamped", NULL, l->clamped);
	out_arr_start(o, "cpus");
	for (unsigned int i = 0; (per_cpu || out_is_json(o)) && i < ncpu; i++) {
		out_obj_start(o, NULL);
		out_u64(o, "cpu", i ? ", cpu%llu" : "   (cpu%llu", l->cpu[i]);
		put_load(o, "load", " %.1f%%", l->load[i]);
		put_load(o, "raw_load", NULL, l->raw[i]);
		out_obj_end(o);
	}
	out_arr_end(o);
	out_text(o, "%s\n", per_cpu ? ")" : "");
	out_obj_end(o);
	fflush(stdout);
}

void soak_print_verdict(struct out *o, bool trusted, bool interrupted)
{
	out_bool(o, "trusted", trusted ? NULL : "  UNTRUSTED: the calibration does not hold for this "
		 "CPU now (see the idle check above)\n", trusted);
	out_bool(o, "interrupted", NULL, interrupted);
}

static int run_open(void *ctx)
{
	struct soakprint_run *p = ctx;

	p->o = p->create(p->json, "soak");
	return p->o ? 0 : -ENOMEM;
}

static void run_calib_start(void *ctx, const struct app_soak_cfg *cfg, const struct app_soak_result *r)
{
	struct soakprint_run *p = ctx;

	soak_print_calib_start(p->o, &r->cpus, cfg->cal, cfg->interval_ns);
	out_arr_start(p->o, "readings");
}

static void run_calib_progress(void *ctx, unsigned int reading, const struct soak_calib_busy *l, double spread)
{
	soak_print_calib_progress(((struct soakprint_run *)ctx)->o, reading, l, spread);
}

static void run_calib_end(void *ctx, const struct app_soak_cfg *cfg, const struct app_soak_result *r, bool ok)
{
	struct soakprint_run *p = ctx;

	out_arr_end(p->o);
	if (ok)
		soak_print_calib_saved(p->o, cfg->path, r->kept, r->calib);
	out_destroy(p->o);
	p->o = NULL;
}

/* "using 2 CPUs (0-1) on DUT, calibration FILE", and the idle check */
static void run_start(void *ctx, const struct app_soak_cfg *cfg, const struct app_soak_result *r,
		      const struct soak_idle *idle)
{
	struct soakprint_run *p = ctx;

	soak_print_header(p->o, r->ncpu, &r->cpus, cfg->d ? dut_name(cfg->d) : NULL,
			 cfg->path ? cfg->path : "the DUT's own", cfg->interval_ns);
	if (idle)
		soak_print_check(p->o, idle);
	out_arr_start(p->o, "readings");
}

static void run_reading(void *ctx, double t, const struct soak_calib_busy *l, unsigned int ncpu)
{
	struct soakprint_run *p = ctx;

	soak_print_reading(p->o, t, l, ncpu, p->per_cpu);
}

static void run_end(void *ctx, const struct app_soak_result *r)
{
	struct soakprint_run *p = ctx;

	out_arr_end(p->o);
	soak_print_summary(p->o, &r->overall, r->hist.v, r->hist.n, r->ncpu, p->per_cpu, r->fast, r->interrupted);
	soak_print_verdict(p->o, r->trusted, r->interrupted);
}

const struct app_soak_hooks soak_print_hooks = {
	.open = run_open, .calib_start = run_calib_start, .progress = run_calib_progress,
	.calib_end = run_calib_end, .start = run_start, .reading = run_reading, .end = run_end,
};
