/* wirerate trial: one trial at a fixed rate, through the lab or cabled ports. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/storeargs.h"
#include "cli/trialargs.h"
#include "app/trialrun.h"
#include "core/timeconst.h"
#include "render/out.h"
#include "render/trialfiles.h"
#include "render/trialrunprint.h"
#include "wr_config.h"

/* What each repeat prints as it ends (app_trial_run.after_each). */
struct shown {
	struct cli *cli;
	struct trialopt *to;
	struct app_trial_run *run;
	struct storeopt *so;
	struct trialrunprint_progress pc;
	struct out *o;
	struct trialfiles *files;	/* --latency-histogram's rows */
};

static int show_one(void *ctx, unsigned int i, const char *warn)
{
	struct shown *sh = ctx;
	const struct app_trial_run *run = sh->run;

	trialrunprint_progress_clear(&sh->pc);
	if (warn)
		cli_error("warning: trial: not stored in %s: %s", sh->so->path, warn);
	if (!sh->o) {
		if (!(sh->o = cli_out_create(sh->cli, "trial")))
			return EXIT_RUNTIME;
		out_arr_start(sh->o, "repeats");
	}
	trialrunprint_repeat(sh->o, sh->to, run, i);
	trialfiles_repeat(sh->files, &run->res[i], i);
	return 0;
}

/* The exit status of a run that stopped short, after its one-line error. */
static int run_status(struct shown *sh)
{
	const struct app_trial_run *run = sh->run;

	switch (run->fail) {
	case APP_TRIAL_FAIL_CPU:
		trialrunprint_progress_clear(&sh->pc);
		cli_error("trial: %s", run->err);
		return cli_status(run->rc);
	case APP_TRIAL_FAIL_TRAFFIC:
		trialrunprint_progress_clear(&sh->pc);
		cli_error("trial: %s", run->err);
		return run->rc == -EMSGSIZE ? EXIT_USAGE : EXIT_RUNTIME;
	case APP_TRIAL_FAIL_HOOK:
		return run->rc;
	default:
		return 0;
	}
}

/* A trial command's run, from its options to its printed summary. */
struct trun {
	struct trialopt to;
	struct storeopt so;
	struct trial_args own;
	struct app_trial_run run;
	struct app_trial_summary sum;
	struct shown sh;
	struct trialfiles files;	/* --latency-histogram, --openmetrics, --capture */
};

/* The ports, the DUT, the repeats' room and the CPU watch
 * (app_trial_prepare): 0, or an exit status after a one-line error. */
static int prepare(struct trun *t)
{
	char err[512];
	int rc;

	if ((rc = app_trial_prepare(&t->to, &t->run, err, sizeof(err)))) {
		cli_error("trial: %s", err);
		return rc == -ENOMEM ? EXIT_RUNTIME : cli_status(rc);
	}
	return 0;
}

/* Stored as a run of its trials, and the histogram and capture files
 * made now (renamed over their names at the end): a bad --db or a place
 * a file cannot be written fails before the traffic. 0, or an exit
 * status after a one-line error, with the stored run marked failed. */
static int open_outputs(struct trun *t)
{
	char err[4096 + 512];
	int rc;

	if ((rc = app_trial_store_begin(&t->so, &t->to, t->run.repeat, err, sizeof(err)))) {
		cli_error("trial: %s", err);
		rc = cli_status(rc);
	} else if ((rc = trialfiles_open(&t->files, "wirerate " WR_VERSION, err, sizeof(err)))) {
		cli_error("trial: %s", err);
		rc = EXIT_RUNTIME;
	}
	if (rc) {
		storeopt_end(&t->so, "failed", NULL);
		return rc;
	}
	t->to.cfg.capture = t->files.cap;
	return 0;
}

static void warn(void *ctx, const char *line)
{
	(void)ctx;
	cli_error("warning: trial: %s", line);
}


/* What the run holds, let go: the files unwritten when still open. */
static void release(struct trun *t)
{
	trialfiles_drop(&t->files);
	app_trial_run_free(&t->to, &t->run);
	free(t);
}

int cmd_trial(struct cli *cli, int argc, char **argv)
{
	struct trun *t = calloc(1, sizeof(*t));
	struct cli_stop stop = { 0 };
	char headline[160];
	double secs;
	int rc;

	if (!t)
		return EXIT_RUNTIME;
	t->sh = (struct shown){ .cli = cli, .to = &t->to, .run = &t->run, .so = &t->so, .files = &t->files };
	rc = trial_args(cli, argc, argv, &t->to, &t->own, &t->so);
	t->run.repeat = (unsigned int)t->own.repeat;
	t->files = (struct trialfiles){ .histogram = t->own.histogram, .openmetrics = t->own.openmetrics,
					.capture = t->own.capture, .capture_count = t->own.capture_count };
	if (rc >= 0 || cli->check_only) {
		if (rc < 0)
			cli->planned_s = app_trial_planned_s(&t->to.cfg, t->run.repeat);
		free(t);
		return rc < 0 ? 0 : rc;
	}
	if ((rc = prepare(t))) {
		release(t);
		return rc;
	}
	/* Ctrl-C from here on stops the run in order: a run row stored before
	 * the handlers were in place was left 'running' by a signal between. */
	cli_stop_catch(&stop);
	if ((rc = open_outputs(t))) {
		cli_stop_restore(&stop);
		release(t);
		return rc;
	}
	/* A long run says how long before it starts. */
	if ((secs = app_trial_planned_s(&t->to.cfg, t->run.repeat)) >= APP_TRIAL_PLAN_SHOWN_S)
		trialrunprint_planned(t->run.repeat, t->to.cfg.duration_ns, secs);
	/* Each trial prints in turn (in JSON, in "repeats", one element for
	 * one trial), then what they forwarded over all. */
	t->run.stop = cli_stop_flag();
	t->run.progress = isatty(STDERR_FILENO) && t->to.cfg.duration_ns > 2 * NSEC_PER_SEC ? trialrunprint_progress : NULL;
	t->run.progress_ctx = &t->sh.pc;
	t->run.after_each = show_one;
	t->run.ctx = &t->sh;
	app_trial_repeats(&t->to, &t->so, &t->run);
	rc = run_status(&t->sh);
	/* The run's headline: what came out, the median over the trials. */
	app_trial_summarize(&t->run, t->to.cfg.rate_pps * t->to.cfg.ndirs, &t->sum, headline, sizeof(headline));
	storeopt_end(&t->so, t->run.interrupted ? "interrupted" : !t->run.done || rc ? "failed" : "complete",
		     t->run.done ? headline : NULL);
	/* what was measured, also of an interrupted run; nothing of a failed one */
	trialfiles_close(&t->files, t->so.label, &t->run, t->run.done > 0, warn, NULL);
	t->to.cfg.capture = NULL;
	cli_stop_restore(&stop);
	if (t->sh.o) {
		struct trialrunprint_files f = { .capture = t->files.capture, .cs = &t->files.cs, .run_id = t->so.run_id };

		trialrunprint_end(t->sh.o, &t->to, &t->run, &t->sum, &f);
		out_destroy(t->sh.o);
		t->sh.o = NULL;
	}
	rc = rc ? rc : t->run.interrupted ? 130 : 0;
	release(t);
	return rc;
}
