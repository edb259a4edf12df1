/* An RFC 2544 run up to its search: the ports resolved and the DUT
 * opened, every size checked against the links, the DUT's CPU watch, the
 * store, each size's maximum load (the tester's ceiling measured in place
 * through the lab, when the lab's ports are used: minutes), the
 * deviations from the RFC and the run's row stored; then the search
 * (rfc2544_run with the configuration this fills), each trial and row
 * stored as it ends. app_rfc2544_run_go runs the command's whole run through
 * hooks that print and say. */
#ifndef WR_APP_RFC2544_RUN_H
#define WR_APP_RFC2544_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "app/rfc2544_plan.h"
#include "app/run_store.h"
#include "app/trial_setup.h"

/* The ports resolved, the DUT opened, and every size the search will
 * offer checked against the links, before anything is stored or sent.
 * -EINVAL for a size that cannot be (bad input), another -errno; err says
 * why. app_trial_plan_release undoes it. */
int app_rfc2544_run_prepare(const struct app_rfc2544_opts *po, struct trial_setup *to, char *err, size_t errlen);

struct app_rfc2544_setup {
	const struct app_rfc2544_opts *po;
	struct trial_setup *to;
	struct run_store *so;
	volatile sig_atomic_t *stop;	/* set: the ceiling's measurement stops */
	/* Around the maximum loads, which can take minutes: how long the
	 * run should take, said before (est); then after. Either may be
	 * NULL. */
	void (*loads_begin)(void *ctx, const struct app_rfc2544_plan_estimate *est);
	void (*loads_end)(void *ctx);
	/* The ceiling of a size being measured through the DUT (done:
	 * finished), for a line on a terminal; may be NULL. */
	void (*measuring)(void *ctx, unsigned int size, bool done);
	void *ctx;
	/* out */
	struct app_rfc2544_plan *plan;	/* timed (app_rfc2544_plan_timing): its loads and deviations added */
	struct app_rfc2544_plan_estimate est;
	struct rfc2544_cfg *cfg;		/* the caller's: filled for rfc2544_run but its hooks */
};

/* After app_rfc2544_run_prepare: everything up to the search. 0; -EINVAL (bad
 * input: a store not ours, a size with no maximum load), -EINTR (stopped
 * while measuring), another -errno; err says why. */
int app_rfc2544_run_set_up(struct app_rfc2544_setup *s, char *err, size_t errlen);

/* The search after app_rfc2544_run_set_up (rfc2544_run with s->cfg), each trial
 * and row stored as it ends; on_trial, when given, has each trial after
 * the store does (--json-stream). 0, or -errno with err. The caller then
 * stores the last rows (app_run_store_rfc2544_finish). */
struct app_rfc2544_run_search {
	volatile sig_atomic_t *stop;
	rfc2544_progress_fn progress;
	void *progress_ctx;
	void (*on_trial)(void *ctx, const struct rfc2544_trial *t);
	void *ctx;
};

int app_rfc2544_run_search(struct app_rfc2544_setup *s, struct app_rfc2544_run_search *x, struct rfc2544_result *res, char *err,
		     size_t errlen);

/* An rfc2544 command's run as app_rfc2544_run_go goes. The CLI's half, each
 * with ctx: Ctrl-C caught around the maximum loads and around the search
 * (stop on: the flag a signal sets) and let go (off); a line for stderr
 * (an error, or a warning: the results stand); the run's row marked at
 * its end. The printing's half, each with print_ctx: the planned time
 * before the maximum loads; a ceiling being measured through the DUT;
 * the search's start (its estimate) and a line per trial meanwhile
 * (progress) cleared after it (quiet); each trial as it ends after the
 * store has it (NULL: none); the result at the end (warn: a file not
 * written, with wctx). */
struct app_rfc2544_hooks {
	volatile sig_atomic_t *(*stop)(void *ctx, bool on);
	void (*say)(void *ctx, bool warning, const char *line);
	void (*store_end)(struct run_store *so, const char *status, const char *headline);
	void *ctx;
	void (*planned)(void *pctx, const struct app_rfc2544_plan_estimate *est);
	void (*measuring)(void *pctx, unsigned int size, bool done);
	void (*searching)(void *pctx, const struct app_rfc2544_plan_estimate *est);
	rfc2544_progress_fn progress;
	void (*quiet)(void *pctx);
	void (*on_trial)(void *pctx, const struct rfc2544_trial *t);
	void (*end)(void *pctx, const struct app_rfc2544_setup *s, const struct rfc2544_result *res,
		    void (*warn)(void *ctx, const char *line), void *wctx);
	void *print_ctx;
};

/* Where a run stopped short. */
enum app_rfc2544_fail {
	APP_RFC2544_FAIL_NONE,
	APP_RFC2544_FAIL_PREPARE,		/* app_rfc2544_run_prepare, or no memory (said nothing): rc -errno */
	APP_RFC2544_FAIL_SETUP,		/* app_rfc2544_run_set_up: rc -errno, -EINTR stopped while measuring */
	APP_RFC2544_FAIL_SEARCH,		/* the search: rc -errno */
};

/* What app_rfc2544_run_go runs: in s, the options (po, to, so) and the plan
 * timed (app_rfc2544_plan_timing), its stop and hooks set by app_rfc2544_run_go; and
 * h. */
struct app_rfc2544_job {
	struct app_rfc2544_setup s;
	const struct app_rfc2544_hooks *h;
	/* out */
	enum app_rfc2544_fail fail;
	int rc;
	bool interrupted;		/* the search stopped by Ctrl-C, its result printed */
};

/* The rfc2544 command's run: prepared (app_rfc2544_run_prepare), set up, the
 * search, the last rows and the row's end stored, the result printed;
 * all let go after. Each failure is said (h->say) where it happens but
 * no memory; its kind and -errno are left in j, and rc returned. */
int app_rfc2544_run_go(struct app_rfc2544_job *j);

#endif
