/* A trial run of one or more repeats (trial --repeat): each repeat's
 * traffic with a fresh trial id, the DUT's CPU cost, the tester's
 * ceiling, the stored trial and the histogram's rows; then the run's
 * figures over the repeats (the median forwarded rate, the mean loss)
 * and its headline. */
#ifndef WR_APP_TRIALRUN_H
#define WR_APP_TRIALRUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app/runstore.h"
#include "app/trialcfg.h"
#include "engine/cpucost.h"
#include "engine/trial.h"

#define APP_TRIAL_MAX_REPEATS 16
/* A run this long (or longer) shows its plan first. */
#define APP_TRIAL_PLAN_SHOWN_S 30.0

/* Where a run stopped short. */
enum app_trial_fail {
	APP_TRIAL_FAIL_NONE,
	APP_TRIAL_FAIL_CPU,		/* the DUT's CPU watch did not start: rc -errno */
	APP_TRIAL_FAIL_TRAFFIC,		/* the trial itself failed: rc -errno (-EMSGSIZE: a frame too big) */
	APP_TRIAL_FAIL_HOOK,		/* after_each said stop: rc is what it returned */
};

struct app_trial_run {
	/* in */
	unsigned int repeat;		/* 1..APP_TRIAL_MAX_REPEATS */
	volatile sig_atomic_t *stop;	/* set: no more repeats, the trial stops */
	trial_progress_fn progress;	/* or NULL */
	void *progress_ctx;
	/* After each repeat's trial and before its figures count: warn is
	 * why it was not stored, or NULL. Nonzero ends the run. */
	int (*after_each)(void *ctx, unsigned int i, const char *warn);
	void *ctx;
	struct trial_result *res;	/* repeat entries each, the caller's */
	struct cpucost_result *cr;
	/* out: per repeat */
	double ceiling[APP_TRIAL_MAX_REPEATS];	/* the tester's, 0: none known */
	uint64_t ids[APP_TRIAL_MAX_REPEATS];	/* trial ids */
	double fwd[APP_TRIAL_MAX_REPEATS];	/* forwarded frames/s */
	double kept_ns[APP_TRIAL_MAX_REPEATS];	/* DUT CPU ns per frame, 0: none */
	/* out: over the run */
	unsigned int done;		/* repeats whose figures count */
	bool interrupted, tester_limited;
	double loss_sum;		/* of the repeats' loss, percent */
	enum app_trial_fail fail;
	int rc;
	char err[512];			/* with fail CPU or TRAFFIC */
};

/* Before anything is stored: the ports resolved, the DUT opened, room
 * for run->repeat repeats, and the first trial's CPU watch (a soak asked
 * for but not calibrated is -EINVAL, bad input). 0 or -errno with err;
 * app_trial_run_free undoes it, also after a failure. */
int app_trial_prepare(struct trialopt *to, struct app_trial_run *run, char *err, size_t errlen);
void app_trial_run_free(struct trialopt *to, struct app_trial_run *run);

/* The run's row in the store (unless --no-store): a bad --db fails here,
 * before the traffic. 0 or -errno with err. */
int app_trial_store_begin(struct storeopt *so, const struct trialopt *to, unsigned int repeat, char *err,
			  size_t errlen);

/* Run the repeats until all are done, one fails or a stop; leaves
 * to->cfg.cost NULL. Returns run->rc (0 when nothing failed). */
int app_trial_repeats(struct trialopt *to, struct storeopt *so, struct app_trial_run *run);

/* The seconds a run of repeat trials takes: traffic, learning wait and
 * drain of each. */
double app_trial_planned_s(const struct trial_cfg *cfg, uint64_t repeat);

/* The trial id after id: a late frame of the trial before is stale in
 * the next, never counted. Never 0, at most 0x7fff. */
uint16_t app_trial_next_id(uint16_t id);

/* The share of the frames sent that were not received, percent, over
 * the directions of one trial. */
double app_trial_loss_pct(const struct trial_result *r);

/* The run's figures over its done repeats. */
struct app_trial_summary {
	double median, lo, hi;		/* forwarded frames/s */
	double loss_mean;		/* percent */
	unsigned int median_repeat;	/* nearest the median, the first of equals */
};

/* The summary of run and its headline for 'wirerate runs' into buf
 * ("rx 9.9k f/s of 10k offered, loss 0.010%"); load: the frames/s
 * offered over all directions. */
void app_trial_summarize(const struct app_trial_run *run, double load, struct app_trial_summary *s,
			 char *buf, size_t len);

/* The repeat whose forwarded rate is nearest med (the first of equals). */
unsigned int app_trial_median_repeat(const double *fwd, unsigned int n, double med);

/* Flag directions whose target is above the tester's calibrated ceiling
 * for this port type and size; returns the ceiling (0: none known). */
double app_trial_check_ceiling(const struct trialopt *o, struct trial_result *res);

#endif
