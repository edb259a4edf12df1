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

#include "app/cli_hooks.h"
#include "app/rfc2544_plan.h"
#include "app/run_store.h"
#include "app/trial_setup.h"

/* The ports resolved, the DUT opened, and every size the search will
 * offer checked against the links, before anything is stored or sent.
 * -EINVAL for a size that cannot be (bad input), another -errno; err says
 * why. app_trial_plan_release undoes it. */
int app_rfc2544_run_prepare(const struct app_rfc2544_opts *po, struct trial_setup *to, char *err, size_t errlen);

struct app_rfc2544_setup;

/* An rfc2544 command's run as it prints, the hooks render exports
 * (rfc2544_live_hooks), each called with the setup's ctx: the planned
 * time before the maximum loads; a ceiling being measured through the
 * DUT (done: finished); the search's start (its estimate) and a line per
 * trial meanwhile (progress) cleared after it (quiet); each trial as it
 * ends after the store has it; the result at the end (a file not
 * written said through s->cli). */
struct app_rfc2544_hooks {
	void (*planned)(void *ctx, const struct app_rfc2544_plan_estimate *est);
	void (*measuring)(void *ctx, unsigned int size, bool done);
	void (*searching)(void *ctx, const struct app_rfc2544_plan_estimate *est);
	rfc2544_progress_fn progress;
	void (*quiet)(void *ctx);
	void (*on_trial)(void *ctx, const struct rfc2544_trial *t);
	void (*end)(void *ctx, const struct app_rfc2544_setup *s, const struct rfc2544_result *res);
};

/* The options (po, to, so), the CLI's hooks (Ctrl-C caught around the
 * maximum loads, which can take minutes, and around the search; errors
 * and warnings said), the printing hooks and their ctx. */
struct app_rfc2544_setup {
	const struct app_rfc2544_opts *po;
	struct trial_setup *to;
	struct run_store *so;
	const struct app_cli_hooks *cli;
	const struct app_rfc2544_hooks *h;
	void *ctx;
	volatile sig_atomic_t *stop;	/* while caught: set, the measurement or the search stops */
	/* out */
	struct app_rfc2544_plan *plan;	/* timed (app_rfc2544_plan_timing): its loads and deviations added */
	struct app_rfc2544_plan_estimate est;
	struct rfc2544_cfg *cfg;		/* the caller's: filled for rfc2544_run but its hooks */
};

/* After app_rfc2544_run_prepare: everything up to the search, the planned
 * time said before the maximum loads. 0; -EINVAL (bad input: a store not
 * ours, a size with no maximum load), -EINTR (stopped while measuring),
 * another -errno; err says why. */
int app_rfc2544_run_set_up(struct app_rfc2544_setup *s, char *err, size_t errlen);

/* The search after app_rfc2544_run_set_up (rfc2544_run with s->cfg and
 * s->stop, the hooks' progress), each trial and row stored as it ends,
 * each trial then to the hooks' on_trial. 0, or -errno with err. The
 * caller then stores the last rows (app_run_store_rfc2544_finish). */
int app_rfc2544_run_search(struct app_rfc2544_setup *s, struct rfc2544_result *res, char *err, size_t errlen);

/* Where a run stopped short. */
enum app_rfc2544_fail {
	APP_RFC2544_FAIL_NONE,
	APP_RFC2544_FAIL_PREPARE,		/* app_rfc2544_run_prepare, or no memory (said nothing): rc -errno */
	APP_RFC2544_FAIL_SETUP,		/* app_rfc2544_run_set_up: rc -errno, -EINTR stopped while measuring */
	APP_RFC2544_FAIL_SEARCH,		/* the search: rc -errno */
};

/* What app_rfc2544_run_go runs: in s, the options (po, to, so), the plan
 * timed (app_rfc2544_plan_timing) and the hooks (cli, h, ctx). */
struct app_rfc2544_job {
	struct app_rfc2544_setup s;
	/* out */
	enum app_rfc2544_fail fail;
	int rc;
	bool interrupted;		/* the search stopped by Ctrl-C, its result printed */
};

/* The rfc2544 command's run: prepared (app_rfc2544_run_prepare), set up, the
 * search, the last rows and the row's end stored (a mark that failed
 * said as a warning), the result printed; all let go after. Each failure
 * is said (cli->say) where it happens but no memory; its kind and -errno
 * are left in j, and rc returned. */
int app_rfc2544_run_go(struct app_rfc2544_job *j);

#endif
