/* The RFC 2544 benchmarks as sequences of trials: throughput (NDR and PDR
 * from one search), latency at the throughput rate, frame loss rate from
 * the maximum load down, and back-to-back bursts (with RFC 9004's
 * correction). Each size is one row of results; the caller prints. */
#ifndef WR_ENGINE_RFC2544_H
#define WR_ENGINE_RFC2544_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/search.h"
#include "engine/cpucost.h"
#include "engine/trial.h"

#define R2544_MAX_SIZES 16
#define R2544_MAX_STEPS 24
#define R2544_MAX_TRIALS 256
#define R2544_MAX_REPEATS 16

enum r2544_test {
	R2544_THROUGHPUT = 1 << 0,
	R2544_LATENCY = 1 << 1,
	R2544_LOSS = 1 << 2,
	R2544_B2B = 1 << 3,
};

struct r2544_trial;
struct r2544_row;

struct r2544_cfg {
	struct trial_cfg base;		/* ports, flows, learning, drain, CPUs */
	unsigned int sizes[R2544_MAX_SIZES];
	unsigned int nsizes;		/* 0: base.sizes is one IMIX row */
	unsigned int tests;		/* enum r2544_test bits */
	double max_load[R2544_MAX_SIZES];	/* frames/s per size: line rate or ceiling */
	bool max_is_ceiling[R2544_MAX_SIZES];	/* the tester's ceiling, not line rate */
	double min_load;		/* frames/s */
	double precision;		/* fraction of max load, e.g. 0.005 */
	double pdr_ratio;
	double exceed_ratio;		/* the search's goal exceed ratio (0: one trial decides) */
	uint64_t duration_sum_ns;	/* its goal duration sum; 0 = final_ns */
	uint64_t final_ns, initial_ns;
	uint64_t settle_ns;		/* between trials (RFC 2544: 5 s) */
	unsigned int latency_runs;	/* RFC 2544: 20 */
	uint64_t latency_ns;		/* RFC 2544 26.2: 120 s */
	unsigned int b2b_runs;		/* RFC 2544: 50 */
	uint64_t b2b_max_ns;		/* longest burst tried (RFC 2544: 2 s) */
	/* How a trial is run: NULL is trial_run; the unit tests give a
	 * simulated DUT here, so every procedure is tested without traffic. */
	int (*runner)(void *ctx, const struct trial_cfg *t, struct trial_result *res,
		      const volatile sig_atomic_t *stop, char *err, size_t errlen);
	void *runner_ctx;
	/* DUT CPUs to watch on every trial (empty: none), soaked with calib. */
	struct cpuset watch;
	const struct soak_calib *calib;
	/* --repeat N: the throughput search runs N times per size (0 = 1), so
	 * a comparison can tell a change from the DUT's own spread. Latency,
	 * frame loss and back-to-back run once, at the median NDR. */
	unsigned int repeats;
	/* Hooks (may be NULL), called as results become final so the caller
	 * can store them at once: a crash then loses at most the trial in
	 * flight. A non-zero return stops the run with that error. */
	int (*on_trial)(void *ctx, const struct r2544_trial *t, char *err, size_t errlen);
	int (*on_row)(void *ctx, const struct r2544_row *row, char *err, size_t errlen);
	void *hook_ctx;
};

struct r2544_trial {
	unsigned int size;
	char test;			/* 't' throughput, 'l' latency, 'f' frame loss, 'b' back-to-back */
	double load;
	uint64_t duration_ns;
	uint64_t tx, rx;
	bool tester_limited;
	bool cpu_valid;
	double cpu_busy_pct;		/* DUT CPUs, summed, /proc/stat wall - idle */
	double cpu_soak_pct;		/* summed soak reading, -1 without */
	double ns_per_frame;		/* DUT CPU per forwarded frame */
	const char *cpu_source;
	unsigned int repeat;		/* which search of the size (0-based); 0 for the other tests */
};

struct r2544_loss_step {
	double pct;			/* of max load */
	double load;
	uint64_t tx, rx;
	double loss_pct;		/* (in - out) * 100 / in */
	bool tester_limited;
};

struct r2544_row {
	unsigned int size;
	double max_load;
	bool max_is_ceiling;
	struct search_outcome thr;	/* the repeat with the median NDR */
	bool thr_done;
	/* every repeat of the search, and NDR/PDR over them */
	struct search_outcome rep[R2544_MAX_REPEATS];
	double rep_ns_per_frame[R2544_MAX_REPEATS];	/* cost at that repeat's NDR, 0 unknown */
	unsigned int nrep;		/* finished searches */
	double ndr_med, ndr_min, ndr_max;	/* over the repeats with a valid NDR */
	double pdr_med, pdr_min, pdr_max;
	unsigned int ndr_valid;		/* repeats with a valid NDR */
	double ns_per_frame_ndr;	/* DUT CPU per frame at the highest clean full-length load, 0 unknown */
	double ndr_cost_load;
	const char *cpu_source;
	/* latency at the NDR rate, over every frame of every run */
	bool lat_done;
	double lat_load;
	unsigned int lat_runs;
	uint64_t lat_frames;
	uint64_t lat_min, lat_median, lat_p99, lat_p999, lat_max;
	uint64_t lat_pdv;		/* p99.9 - min: delay variation (RFC 8219 style) */
	struct r2544_loss_step loss[R2544_MAX_STEPS];
	unsigned int nloss;
	bool loss_done;
	/* back-to-back */
	bool b2b_done;
	unsigned int b2b_runs;
	double b2b_avg, b2b_min, b2b_max;	/* frames */
	double b2b_implied_s, b2b_corrected_s;
};

struct r2544_result {
	struct r2544_row row[R2544_MAX_SIZES];
	unsigned int nrows;
	struct r2544_trial trials[R2544_MAX_TRIALS];
	unsigned int ntrials;		/* kept, at most R2544_MAX_TRIALS */
	unsigned int trials_run;
	uint64_t elapsed_ns;
	bool interrupted;
};

struct r2544_progress {
	unsigned int size;
	const char *test;
	unsigned int trial;
	double load, loss_pct;
	const struct search_outcome *bounds;	/* throughput only */
	double eta_s;			/* rough estimate of time left, <0 unknown */
};
typedef void (*r2544_progress_fn)(void *ctx, const struct r2544_progress *p);

/* Run the chosen tests for every size. Rows finished before a stop stay in
 * res; res->interrupted says the rest is missing. */
int r2544_run(const struct r2544_cfg *cfg, struct r2544_result *res,
	      const volatile sig_atomic_t *stop, r2544_progress_fn progress,
	      void *pctx, char *err, size_t errlen);

#endif
