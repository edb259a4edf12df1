/* A trial run of one or more repeats (trial --repeat): each repeat's
 * traffic with a fresh trial id, the DUT's CPU cost, the tester's
 * ceiling, the stored trial and the histogram's rows; then the run's
 * figures over the repeats (the median forwarded rate, the mean loss)
 * and its headline; and the trial command's whole run around them
 * (app_trial_run_go), from the ports to the stored run's end. */
#ifndef WR_APP_TRIAL_RUN_H
#define WR_APP_TRIAL_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "app/cli_hooks.h"
#include "app/run_store.h"
#include "app/trial_setup.h"
#include "engine/cpucost.h"
#include "engine/trial.h"

#define APP_TRIAL_MAX_REPEATS 16
/* A run this long (or longer) shows its plan first. */
#define APP_TRIAL_PLAN_SHOWN_S 30.0

/* Where a run stopped short. */
enum app_trial_fail {
	APP_TRIAL_FAIL_NONE,
	APP_TRIAL_FAIL_PREPARE,		/* app_trial_run_prepare: rc -errno */
	APP_TRIAL_FAIL_STORE,		/* the run's row: rc -errno (-EINVAL: a store not ours) */
	APP_TRIAL_FAIL_FILES,		/* a file asked for could not be made: rc -errno */
	APP_TRIAL_FAIL_CPU,		/* the DUT's CPU watch did not start: rc -errno */
	APP_TRIAL_FAIL_TRAFFIC,		/* the trial itself failed: rc -errno (-EMSGSIZE: a frame too big) */
	APP_TRIAL_FAIL_HOOK,		/* the repeat's printing (hooks' repeat) failed: rc is what it returned */
};

struct app_trial_run {
	/* in */
	unsigned int repeat;		/* 1..APP_TRIAL_MAX_REPEATS */
	volatile sig_atomic_t *stop;	/* set: no more repeats, the trial stops */
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
	char err[512];			/* with fail PREPARE, CPU or TRAFFIC */
};

/* Before anything is stored: the ports resolved, the DUT opened, room
 * for run->repeat repeats, and the first trial's CPU watch (a soak asked
 * for but not calibrated is -EINVAL, bad input). 0 or -errno with err;
 * app_trial_run_free undoes it, also after a failure. */
int app_trial_run_prepare(struct trial_setup *to, struct app_trial_run *run, char *err, size_t errlen);
void app_trial_run_free(struct trial_setup *to, struct app_trial_run *run);

/* The run's row in the store (unless --no-store): a bad --db fails here,
 * before the traffic. 0 or -errno with err. */
int app_trial_run_store_begin(struct run_store *so, const struct trial_setup *to, unsigned int repeat, char *err,
			  size_t errlen);

struct app_trial_job;
/* Run j's repeats until all are done, one fails or a stop; after each,
 * the progress line cleared, a trial the store refused said and the
 * repeat printed (j's hooks). Leaves to->cfg.cost NULL. Returns
 * j->run.rc (0 when nothing failed). */
int app_trial_run_repeats(struct app_trial_job *j);

/* The word a run's row ends with: interrupted (a stop), failed (a step
 * failed, or no repeat done), else complete. */
const char *app_trial_run_status(const struct app_trial_run *run);

/* The seconds a run of repeat trials takes: traffic, learning wait and
 * drain of each. */
double app_trial_run_planned_s(const struct trial_cfg *cfg, uint64_t repeat);

/* The trial id after id: a late frame of the trial before is stale in
 * the next, never counted. Never 0, at most 0x7fff. */
uint16_t app_trial_run_next_id(uint16_t id);

/* The share of the frames sent that were not received, percent, over
 * the directions of one trial. */
double app_trial_run_loss_pct(const struct trial_result *r);

/* The run's figures over its done repeats. */
struct app_trial_summary {
	double median, lo, hi;		/* forwarded frames/s */
	double loss_mean;		/* percent */
	unsigned int median_repeat;	/* nearest the median, the first of equals */
};

/* The summary of run and its headline for 'wirerate runs' into buf
 * ("rx 9.9k f/s of 10k offered, loss 0.010%"); load: the frames/s
 * offered over all directions. */
void app_trial_run_summarize(const struct app_trial_run *run, double load, struct app_trial_summary *s,
			 char *buf, size_t len);

/* The repeat whose forwarded rate is nearest med (the first of equals). */
unsigned int app_trial_run_median_repeat(const double *fwd, unsigned int n, double med);

/* Flag directions whose target is above the tester's calibrated ceiling
 * for this port type and size; returns the ceiling (0: none known). */
double app_trial_run_check_ceiling(const struct trial_setup *o, struct trial_result *res);

/* A trial command's run as it prints, the hooks render exports
 * (trial_live_hooks), each called with the job's ctx: the plan of a long
 * run before it starts; the progress line while a trial runs and its
 * clearing (quiet, before a repeat's output or an error); each repeat as
 * it ends (nonzero, -errno: the run stops); the files asked for, made
 * before the traffic (open, its capture handed to the trial), written or
 * removed at the end (close, keep: with the done repeats; a file not
 * written is said through cli), removed when still open (drop); the
 * run's end (the summary, the stored run's id, 0: none). */
struct app_trial_hooks {
	void (*planned)(void *ctx, unsigned int repeat, uint64_t duration_ns, double secs);
	trial_progress_fn progress;
	void (*quiet)(void *ctx);
	int (*repeat)(void *ctx, const struct app_trial_run *run, unsigned int i);
	int (*files_open)(void *ctx, struct capture **cap, char *err, size_t errlen);
	void (*files_close)(void *ctx, const char *label, const struct app_trial_run *run, bool keep,
			    const struct app_cli_hooks *cli);
	void (*files_drop)(void *ctx);
	void (*end)(void *ctx, const struct app_trial_run *run, const struct app_trial_summary *sum,
		    int64_t run_id);
};

/* What app_trial_run_go runs: the options parsed (to, so, run.repeat),
 * the CLI's hooks (Ctrl-C caught from the run's row to the end of its
 * files; errors and warnings said), the printing hooks and their ctx;
 * out: run (fail, rc, interrupted) and sum. */
struct app_trial_job {
	struct trial_setup to;
	struct run_store so;
	const struct app_cli_hooks *cli;
	const struct app_trial_hooks *h;
	void *ctx;
	struct app_trial_run run;
	struct app_trial_summary sum;
};

/* The trial command's run: prepared (app_trial_run_prepare), its row stored
 * and its files made, the plan of a long run said, the repeats, the
 * summary, the row's end (a mark that failed said as a warning), the
 * files written, the end printed; all let go after. Each failure is said
 * (cli->say) where it happens, but a repeat the printing could not
 * print; its kind and -errno are left in j->run.fail and j->run.rc,
 * which it returns. */
int app_trial_run_go(struct app_trial_job *j);

#endif
