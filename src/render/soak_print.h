/* 'wirerate soak''s output (dut/soak.h): the calibration's readings and
 * what it saved, the idle check, each reading of the load and the
 * summary; text and JSON from the same calls. */
#ifndef WR_RENDER_SOAK_PRINT_H
#define WR_RENDER_SOAK_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/soak_run.h"
#include "core/cpuset.h"
#include "core/soak_calib.h"
#include "dut/soak.h"
#include "render/out.h"

/* What --calibrate is about to do: the CPUs, the readings, the limit. */
void soak_print_calib_start(struct out *o, const struct cpuset *cpus, const struct soak_calib_opts *cal,
			   uint64_t interval_ns);
/* A reading of the calibration (soak_progress_fn; ctx is the struct out). */
void soak_print_calib_progress(void *ctx, unsigned int reading, const struct soak_calib_busy *l, double spread);
/* The calibration saved to path, kept CPUs taken over from the old file. */
void soak_print_calib_saved(struct out *o, const char *path, unsigned int kept, const struct soak_calib *c);
/* "using 2 CPUs (0-1) on DUT, calibration FILE"; dut NULL: this host. */
void soak_print_header(struct out *o, unsigned int ncpu, const struct cpuset *cpus, const char *dut,
		      const char *calibration, uint64_t interval_ns);
/* The idle check made before the soak: whether its calibration holds. */
void soak_print_check(struct out *o, const struct soak_idle *k);
/* One reading, t seconds from the start: "System load: 12.3%". */
void soak_print_reading(struct out *o, double t, const struct soak_calib_busy *l, unsigned int ncpu, bool per_cpu);
/* The load over the whole run and the readings' spread: hist holds the n
 * readings of the whole, then n for each CPU in turn. */
void soak_print_summary(struct out *o, const struct soak_calib_busy *overall, double *hist, size_t n,
		       unsigned int ncpu, bool per_cpu, unsigned int fast, bool interrupted);
/* Whether the calibration held (trusted) and whether Ctrl-C ended it. */
void soak_print_verdict(struct out *o, bool trusted, bool interrupted);

/* soak's hooks as it runs (app_soak_hooks, ctx a struct soakprint_run):
 * each step printed as it happens, the output made by create (text or
 * JSON as json says) once there is something to print. A calibration's
 * end closes it; otherwise the caller does, after any error (o NULL:
 * nothing to close). */
struct soakprint_run {
	struct out *(*create)(bool json, const char *command);
	bool json, per_cpu;
	struct out *o;
};

extern const struct app_soak_hooks soak_print_hooks;

#endif
