/* An RFC 2544 run up to its search: the ports resolved and the DUT
 * opened, every size checked against the links, the DUT's CPU watch, the
 * store, each size's maximum load (the tester's ceiling measured in place
 * through the lab, when the lab's ports are used: minutes), the
 * deviations from the RFC and the run's row stored. The caller runs the
 * search (r2544_run) with the configuration this fills, and prints. */
#ifndef WR_APP_RFC2544RUN_H
#define WR_APP_RFC2544RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "app/rfc2544plan.h"
#include "app/runstore.h"
#include "app/trialcfg.h"

/* The ports resolved, the DUT opened, and every size the search will
 * offer checked against the links, before anything is stored or sent.
 * -EINVAL for a size that cannot be (bad input), another -errno; err says
 * why. app_trial_release undoes it. */
int app_r2544_prepare(const struct app_r2544_opts *po, struct trialopt *to, char *err, size_t errlen);

struct app_r2544_setup {
	const struct app_r2544_opts *po;
	struct trialopt *to;
	struct storeopt *so;
	volatile sig_atomic_t *stop;	/* set: the ceiling's measurement stops */
	/* Around the maximum loads, which can take minutes: how long the
	 * run should take, said before (est); then after. Either may be
	 * NULL. */
	void (*loads_begin)(void *ctx, const struct app_r2544_estimate *est);
	void (*loads_end)(void *ctx);
	/* The ceiling of a size being measured through the DUT (done:
	 * finished), for a line on a terminal; may be NULL. */
	void (*measuring)(void *ctx, unsigned int size, bool done);
	void *ctx;
	/* out */
	struct app_r2544_plan *plan;	/* timed (app_r2544_timing): its loads and deviations added */
	struct app_r2544_estimate est;
	struct r2544_cfg *cfg;		/* the caller's: filled for r2544_run but its hooks */
};

/* After app_r2544_prepare: everything up to the search. 0; -EINVAL (bad
 * input: a store not ours, a size with no maximum load), -EINTR (stopped
 * while measuring), another -errno; err says why. */
int app_r2544_set_up(struct app_r2544_setup *s, char *err, size_t errlen);

/* The search after app_r2544_set_up (r2544_run with s->cfg), each trial
 * and row stored as it ends; on_trial, when given, has each trial after
 * the store does (--json-stream). 0, or -errno with err. The caller then
 * stores the last rows (app_store_r2544_finish). */
struct app_r2544_search {
	volatile sig_atomic_t *stop;
	r2544_progress_fn progress;
	void *progress_ctx;
	void (*on_trial)(void *ctx, const struct r2544_trial *t);
	void *ctx;
};

int app_r2544_search(struct app_r2544_setup *s, struct app_r2544_search *x, struct r2544_result *res, char *err,
		     size_t errlen);

#endif
