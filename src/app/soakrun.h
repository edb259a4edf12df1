/* 'wirerate soak''s workflow: the CPUs it soaks, the calibration made on
 * an idle machine (kept CPUs merged from the old file), and the soak
 * itself, here or through a DUT's agent, read every interval; with the
 * decisions on each reading (the load over the run, the readings'
 * history, a calibration that runs fast, a reading cut short). */
#ifndef WR_APP_SOAKRUN_H
#define WR_APP_SOAKRUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "dut/dut.h"
#include "dut/soak.h"

/* Every CPU the soaked host has online: the DUT's (d not NULL, from its
 * environment) or this host's. */
int app_soak_cpus(struct dut *d, struct cpuset *cpus, char *err, size_t errlen);

/* Before the minutes of measuring: -EINVAL when path holds something
 * other than a soak calibration (a missing or empty file is fine); c is
 * the room to read it into. */
int app_soak_calib_precheck(const char *path, struct soak_calib *c, char *err, size_t errlen);
/* Calibrate cpus (readings of cal->interval_ns, each to fn) into c and
 * save it to path, with the CPUs the file had and this calibration did
 * not redo (same kernel, CPU model and loop) kept; *kept counts those. */
int app_soak_calibrate(const char *path, const struct cpuset *cpus, const struct soak_calib_opts *cal,
		       const volatile sig_atomic_t *stop, soak_progress_fn fn, void *ctx,
		       struct soak_calib *c, unsigned int *kept, char *err, size_t errlen);

/* The DUT's readings added up into tot, each weighted by its length: the
 * load over the whole run, as soak_read gives it for this host. */
void app_soak_accumulate(struct soak_load *tot, const struct soak_load *l);
/* Noise puts an idle soaker a little above its calibrated rate; more
 * than 2% above on any of the first ncpu CPUs means the calibration is
 * off. */
bool app_soak_fast(const struct soak_load *l, unsigned int ncpu);
/* A reading cut short by Ctrl-C to under a tenth of the interval is
 * noise: false drops it. */
bool app_soak_keep(bool stopped, double seconds, uint64_t interval_ns);

/* The readings' history: the whole's load, then each CPU's, each cap
 * long until app_soak_hist_compact packs them n long. */
struct app_soak_hist {
	double *v;
	size_t n, cap;
	unsigned int ncpu;
};

int app_soak_hist_init(struct app_soak_hist *h, unsigned int ncpu, size_t cap);
/* false when it could not grow: the reading is not kept. */
bool app_soak_hist_add(struct app_soak_hist *h, const struct soak_load *l);
void app_soak_hist_compact(struct app_soak_hist *h);
void app_soak_hist_free(struct app_soak_hist *h);

struct app_soak_cfg {
	const struct cpuset *cpus;
	const char *path;		/* the calibration here; NULL: the DUT's own */
	uint64_t interval_ns, duration_ns;	/* duration 0: until stop */
	struct dut *d;			/* not NULL: the soak runs there */
	const volatile sig_atomic_t *stop;
};

/* What the caller prints, in the order it happens. */
struct app_soak_hooks {
	/* the soakers are made; nonzero ends the run (-ENOMEM: quietly) */
	int (*open)(void *ctx);
	/* they run: idle is the check of the calibration, NULL when none */
	void (*start)(void *ctx, unsigned int ncpu, const struct soak_idle *idle);
	/* a reading, t seconds after the start */
	void (*reading)(void *ctx, double t, const struct soak_load *l, unsigned int ncpu);
};

struct app_soak_result {
	struct soak_load overall;	/* the load over the whole run */
	struct app_soak_hist hist;	/* compacted */
	unsigned int ncpu, fast;	/* fast: readings above the calibration */
	bool trusted;			/* unchecked, or the idle check held */
	bool bad_input;			/* on failure: the input was wrong */
};

/* The soak of cfg->cpus until cfg->duration_ns or *stop. On failure err
 * says why (empty: nothing to say) and r->bad_input whether the input
 * was wrong. r is freed by app_soak_result_free either way. */
int app_soak_run(const struct app_soak_cfg *cfg, const struct app_soak_hooks *h, void *ctx,
		 struct app_soak_result *r, char *err, size_t errlen);
void app_soak_result_free(struct app_soak_result *r);

#endif
