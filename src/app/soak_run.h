/* 'wirerate soak''s workflow: the CPUs it soaks, the calibration made on
 * an idle machine (kept CPUs merged from the old file), and the soak
 * itself, here or through a DUT's agent, read every interval; with the
 * decisions on each reading (the load over the run, the readings'
 * history, a calibration that runs fast, a reading cut short). */
#ifndef WR_APP_SOAK_RUN_H
#define WR_APP_SOAK_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/cli_hooks.h"
#include "core/cpuset.h"
#include "dut/dut.h"
#include "dut/soak.h"

/* Every CPU the soaked host has online: the DUT's (d not NULL, from its
 * environment) or this host's. */
int app_soak_run_cpus(struct dut *d, struct cpuset *cpus, char *err, size_t errlen);

/* Before the minutes of measuring: -EINVAL when path holds something
 * other than a soak calibration (a missing or empty file is fine); c is
 * the room to read it into. */
int app_soak_run_calib_precheck(const char *path, struct soak_calib *c, char *err, size_t errlen);
/* Calibrate cpus (readings of cal->interval_ns, each to fn) into c and
 * save it to path, with the CPUs the file had and this calibration did
 * not redo (same kernel, CPU model and loop) kept; *kept counts those. */
int app_soak_run_calibrate(const char *path, const struct cpuset *cpus, const struct soak_calib_opts *cal,
		       const volatile sig_atomic_t *stop, soak_progress_fn fn, void *ctx,
		       struct soak_calib *c, unsigned int *kept, char *err, size_t errlen);

/* The DUT's readings added up into tot, each weighted by its length: the
 * load over the whole run, as soak_read gives it for this host. */
void app_soak_run_accumulate(struct soak_calib_busy *tot, const struct soak_calib_busy *l);
/* Noise puts an idle soaker a little above its calibrated rate; more
 * than 2% above on any of the first ncpu CPUs means the calibration is
 * off. */
bool app_soak_run_fast(const struct soak_calib_busy *l, unsigned int ncpu);
/* A reading cut short by Ctrl-C to under a tenth of the interval is
 * noise: false drops it. */
bool app_soak_run_keep(bool stopped, double seconds, uint64_t interval_ns);

/* The readings' history: the whole's load, then each CPU's, each cap
 * long until app_soak_run_hist_compact packs them n long. */
struct app_soak_hist {
	double *v;
	size_t n, cap;
	unsigned int ncpu;
};

int app_soak_run_hist_init(struct app_soak_hist *h, unsigned int ncpu, size_t cap);
/* false when it could not grow: the reading is not kept. */
bool app_soak_run_hist_add(struct app_soak_hist *h, const struct soak_calib_busy *l);
void app_soak_run_hist_compact(struct app_soak_hist *h);
void app_soak_run_hist_free(struct app_soak_hist *h);

/* How a soak or a calibration ended: done, refused for its input (an
 * option, a calibration file that is not one), failed by the host, or
 * stopped before it could end (a calibration only: a soak stopped is
 * done). */
enum app_soak_why { APP_SOAK_OK, APP_SOAK_INPUT, APP_SOAK_HOST, APP_SOAK_STOPPED };

struct app_soak_cfg {
	const struct cpuset *cpus;	/* NULL: every CPU the soaked host has online */
	const char *path;		/* the calibration here; NULL: the DUT's own */
	uint64_t interval_ns, duration_ns;	/* duration 0: until stop */
	const struct soak_calib_opts *cal;	/* --calibrate's, but its interval */
	struct dut *d;			/* not NULL: the soak runs there */
};

struct app_soak_result {
	enum app_soak_why why;
	struct cpuset cpus;		/* the CPUs soaked or calibrated */
	struct soak_calib_busy overall;	/* the load over the whole run */
	struct app_soak_hist hist;	/* compacted */
	unsigned int ncpu, fast;	/* fast: readings above the calibration */
	bool trusted;			/* unchecked, or the idle check held */
	bool interrupted;		/* the soak was stopped, not timed out */
	struct soak_calib *calib;	/* the calibration made (saved when ok) */
	unsigned int kept;		/* its CPUs kept from the file before */
};

/* What the caller prints, in the order it happens, the hooks render
 * exports (soak_print_hooks), each called with the ctx it hands the
 * workflow. */
struct app_soak_hooks {
	/* there is something to say: nonzero ends it (quietly) */
	int (*open)(void *ctx);
	/* the calibration starts (r->cpus), each reading of it, its end
	 * (r->calib saved when ok) */
	void (*calib_start)(void *ctx, const struct app_soak_cfg *cfg, const struct app_soak_result *r);
	soak_progress_fn progress;
	void (*calib_end)(void *ctx, const struct app_soak_cfg *cfg, const struct app_soak_result *r, bool ok);
	/* the soakers run: idle is the check of the calibration, NULL when
	 * none */
	void (*start)(void *ctx, const struct app_soak_cfg *cfg, const struct app_soak_result *r,
		      const struct soak_idle *idle);
	/* a reading, t seconds after the start */
	void (*reading)(void *ctx, double t, const struct soak_calib_busy *l, unsigned int ncpu);
	/* the soak ended well: r has its summary */
	void (*end)(void *ctx, const struct app_soak_result *r);
};

/* Both workflows catch Ctrl-C through cli once the CPUs are known (a
 * stop from there on ends the run in order; before, while the DUT is
 * asked for its CPUs, it ends the process) and let it go at their end;
 * they say nothing through it: their error is err.
 *
 * soak --calibrate: cfg->cpus calibrated on this host and saved to
 * cfg->path (never over a file that is not a soak calibration: refused
 * before the minutes of measuring), until done or a stop. 0, or -errno
 * with r->why and err (empty: nothing to say). */
int app_soak_run_calibration(const struct app_soak_cfg *cfg, const struct app_cli_hooks *cli,
			 const struct app_soak_hooks *h, void *ctx, struct app_soak_result *r, char *err,
			 size_t errlen);

/* The soak of cfg->cpus until cfg->duration_ns or a stop. 0, or -errno
 * with r->why and err (empty: nothing to say). r is freed by
 * app_soak_run_result_free either way. */
int app_soak_run(const struct app_soak_cfg *cfg, const struct app_cli_hooks *cli, const struct app_soak_hooks *h,
		 void *ctx, struct app_soak_result *r, char *err, size_t errlen);
void app_soak_run_result_free(struct app_soak_result *r);

#endif
