/* wirerate trial: one trial at a fixed rate, through the lab or cabled ports. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "os/fsutil.h"
#include "io/capture.h"
#include "render/histcsv.h"
#include "render/openmetrics.h"
#include "cli/opt.h"
#include "cli/storeargs.h"
#include "cli/trialopt.h"
#include "app/trialres.h"
#include "app/trialdut.h"
#include "app/trialrun.h"
#include "engine/trial.h"
#include "core/timeconst.h"
#include "core/units.h"
#include "render/trialprint.h"
#include "render/out.h"
#include "wr_config.h"

struct progress_ctx {
	uint64_t last_tx, last_rx, last_ns;
	bool shown;
};

static void show_progress(void *arg, const struct trial_progress *p)
{
	struct progress_ctx *pc = arg;
	double dt = (double)(p->elapsed_ns - pc->last_ns) / 1e9;

	if (dt <= 0)
		dt = 1;
	fprintf(stderr, "\r  %-8s %5.1f/%.1f s  tx %9.0f f/s  rx %9.0f f/s  lost so far %.3f%%   ",
		p->phase, p->elapsed_ns / 1e9, p->duration_ns / 1e9,
		(double)(p->tx - pc->last_tx) / dt, (double)(p->rx - pc->last_rx) / dt,
		p->tx > p->rx && p->tx ? (double)(p->tx - p->rx) * 100.0 / (double)p->tx : 0.0);
	pc->last_tx = p->tx;
	pc->last_rx = p->rx;
	pc->last_ns = p->elapsed_ns;
	pc->shown = true;
}

#define TRIAL_CAPTURE_COUNT 100	/* --capture-count's default */

struct trial_own {
	uint64_t repeat;
	const char *histogram;		/* --latency-histogram FILE */
	const char *openmetrics;	/* --openmetrics FILE */
	const char *capture;		/* --capture FILE */
	unsigned int capture_count;	/* --capture-count N */
};

static const struct opt trial_own_opts[] = {
	{ "repeat", 0, OPT_VALUE, "N", "repeats", "1",
	  "run the trial N times in a row (1..16), each stored;\n"
	  "'report' compares the runs over their spread",
	  opt_set_u64, OPT_FIELD(struct trial_own, repeat), 1, APP_TRIAL_MAX_REPEATS },
	{ "latency-histogram", 0, OPT_VALUE, "FILE", NULL, NULL,
	  "write every direction's full latency histogram as CSV\n"
	  "(repeat,direction,lo_ns,hi_ns,count,cumulative; docs/trial.md)",
	  opt_set_path, OPT_FIELD(struct trial_own, histogram) },
	{ "openmetrics", 0, OPT_VALUE, "FILE", NULL, NULL,
	  "write the run's figures as OpenMetrics text (for a\n"
	  "Prometheus textfile collector; docs/json.md)",
	  opt_set_path, OPT_FIELD(struct trial_own, openmetrics) },
	{ "capture", 0, OPT_VALUE, "FILE", NULL, NULL,
	  "write the first frames received but not counted (not a\n"
	  "test frame, a bad tag, another trial's, late, a\n"
	  "duplicate) to a pcapng file, each with why",
	  opt_set_path, OPT_FIELD(struct trial_own, capture) },
	{ "capture-count", 0, OPT_VALUE, "N", NULL, "100",
	  "how many frames --capture keeps (1..10000)",
	  opt_set_uint, OPT_FIELD(struct trial_own, capture_count), 1, CAPTURE_MAX_FRAMES },
	{ NULL },
};

static const struct opt *const trial_tables[] = { trialopt_opts, trial_own_opts, storeopt_opts, NULL };

const struct opt_cmd trial_cmd = {
	.name = "trial",
	.synopsis = "--rate RATE [OPTIONS]",
	.about = "Offers UDP frames at RATE for a time and counts what came out of the DUT.\n",
	.tables = trial_tables,
};

/* --openmetrics, through cli_write_file */
struct om_trials {
	const char *label;
	const struct trial_result *res;
	unsigned int n;
	const double *ns;
};

static void om_trials(FILE *f, void *arg)
{
	const struct om_trials *t = arg;

	om_write_trials(f, t->label, t->res, t->n, t->ns);
}

/* A trial's result block, text or JSON: its header, then the rest. */
static void print_one(struct out *o, const struct trialopt *to, const struct trial_result *res,
		      const struct cpucost_result *cr, double ceiling)
{
	const char *labels[TRIAL_MAX_DIRS];

	trialopt_print_header(o, to, res);
	for (unsigned int d = 0; d < TRIAL_MAX_DIRS; d++)
		labels[d] = to->dir_label[d];
	trialprint_result(o, res, cr, ceiling, to->line_bps, labels);
}

/* What each repeat prints as it ends (app_trial_run.after_each). */
struct shown {
	struct cli *cli;
	struct trialopt *to;
	struct app_trial_run *run;
	struct storeopt *so;
	struct progress_ctx pc;
	struct out *o;
};

/* The progress line off the terminal. */
static void progress_clear(struct progress_ctx *pc)
{
	if (pc->shown)
		fprintf(stderr, "\r%100s\r", "");
	memset(pc, 0, sizeof(*pc));
}

static int show_one(void *ctx, unsigned int i, const char *warn)
{
	struct shown *sh = ctx;
	const struct app_trial_run *run = sh->run;

	progress_clear(&sh->pc);
	if (warn)
		cli_error("warning: trial: not stored in %s: %s", sh->so->path, warn);
	if (!sh->o) {
		if (!(sh->o = cli_out_create(sh->cli, "trial")))
			return EXIT_RUNTIME;
		out_arr_start(sh->o, "repeats");
	}
	if (run->repeat > 1)
		out_text(sh->o, "%srepeat %u of %llu\n", i ? "\n" : "", i + 1, (unsigned long long)run->repeat);
	out_obj_start(sh->o, NULL);
	print_one(sh->o, sh->to, &run->res[i], &run->cr[i], run->ceiling[i]);
	out_obj_end(sh->o);
	return 0;
}

/* The exit status of a run that stopped short, after its one-line error. */
static int run_status(struct shown *sh)
{
	const struct app_trial_run *run = sh->run;

	switch (run->fail) {
	case APP_TRIAL_FAIL_CPU:
		progress_clear(&sh->pc);
		cli_error("trial: %s", run->err);
		return cli_status(run->rc);
	case APP_TRIAL_FAIL_TRAFFIC:
		progress_clear(&sh->pc);
		cli_error("trial: %s", run->err);
		return run->rc == -EMSGSIZE ? EXIT_USAGE : EXIT_RUNTIME;
	case APP_TRIAL_FAIL_HOOK:
		return run->rc;
	default:
		return 0;
	}
}

int cmd_trial(struct cli *cli, int argc, char **argv)
{
	struct trialopt to;
	struct storeopt so;
	struct app_trial_run run = { .repeat = 1 };
	struct app_trial_summary sum;
	struct shown sh = { .cli = cli, .to = &to, .run = &run, .so = &so };
	char err[512], headline[160];
	struct trial_own own = { .repeat = 1 };
	void *ctx[] = { &to, &own, &so };
	struct cli_stop stop = { 0 };
	char *args[1];
	struct fs_out hist = { .f = NULL };	/* --latency-histogram */
	int nargs, rc;

	trialopt_init(&to);
	storeopt_init(&so);
	if ((rc = opt_parse(&trial_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return rc == OPT_HELP ? 0 : EXIT_USAGE;
	if (trialopt_check(&to, NULL, err, sizeof(err))) {
		cli_error("trial: %s", err);
		return EXIT_USAGE;
	}
	run.repeat = (unsigned int)own.repeat;
	if (own.capture_count && !own.capture) {
		cli_error("trial: --capture-count goes with --capture FILE");
		return EXIT_USAGE;
	}
	if (!own.capture_count)
		own.capture_count = TRIAL_CAPTURE_COUNT;
	if (cli->check_only) {
		cli->planned_s = app_trial_planned_s(&to.cfg, run.repeat);
		return 0;
	}
	if ((rc = app_trial_resolve(&to, err, sizeof(err))) || (rc = app_trial_dut_open(&to, err, sizeof(err)))) {
		cli_error("trial: %s", err);
		app_trial_release(&to);
		return cli_status(rc);
	}
	run.res = calloc(run.repeat, sizeof(*run.res));
	run.cr = calloc(run.repeat, sizeof(*run.cr));
	if (!run.res || !run.cr) {
		free(run.res);
		free(run.cr);
		app_trial_release(&to);
		return EXIT_RUNTIME;
	}
	/* The first trial's CPU watch before anything is stored: a soak asked
	 * for but not calibrated is bad input, not a failed run. */
	if ((rc = app_trial_cpucost(&to, &to.cfg.cost, err, sizeof(err)))) {
		cli_error("trial: %s", err);
		free(run.res);
		free(run.cr);
		app_trial_release(&to);
		return cli_status(rc);
	}
	/* Ctrl-C from here on stops the run in order: a run row stored before
	 * the handlers were in place was left 'running' by a signal between. */
	cli_stop_catch(&stop);
	/* Stored as a run of its trials, and the histogram and capture files
	 * made now (renamed over their names at the end): a bad --db or a
	 * place a file cannot be written fails before the traffic. */
	{
		char sizes[160];
		struct db_run_info ri = { .test = "trial", .sizes = sizes, .repeats = run.repeat };
		int ret = 0;

		sizes_join(sizes, sizeof(sizes), to.cfg.sizes, to.cfg.nsizes);
		if ((rc = app_store_open(&so, err, sizeof(err))) ||
		    (rc = app_store_begin(&so, &to, &ri, err, sizeof(err)))) {
			cli_error("trial: %s", err);
			ret = cli_status(rc);
		} else if (own.histogram && (rc = fs_out_open(&hist, own.histogram))) {
			cli_error("trial: --latency-histogram %s: %s", own.histogram, strerror(-rc));
			ret = EXIT_RUNTIME;
		} else if (own.capture &&
			   !(to.cfg.capture = capture_open(own.capture, own.capture_count, "wirerate " WR_VERSION, err,
							   sizeof(err)))) {
			cli_error("trial: --capture %s", err);
			ret = EXIT_RUNTIME;
		}
		if (ret) {
			fs_out_close(&hist, false);
			storeopt_end(&so, "failed", NULL);
			cli_stop_restore(&stop);
			cpucost_destroy(to.cfg.cost);
			free(run.res);
			free(run.cr);
			app_trial_release(&to);
			return ret;
		}
		if ((run.hist = hist.f))
			hist_csv_header(run.hist);
	}
	/* A long run says how long before it starts. */
	{
		double secs = app_trial_planned_s(&to.cfg, run.repeat);

		if (secs >= APP_TRIAL_PLAN_SHOWN_S)
			fprintf(stderr, "trial: planned: %llu trial(s) of %.0f s, %.0f s with learning and drain\n",
				(unsigned long long)run.repeat, (double)to.cfg.duration_ns / NSEC_PER_SEC, secs);
	}
	/* Each trial prints in turn (in JSON, in "repeats", one element for
	 * one trial), then what they forwarded over all. */
	run.stop = cli_stop_flag();
	run.progress = isatty(STDERR_FILENO) && to.cfg.duration_ns > 2 * NSEC_PER_SEC ? show_progress : NULL;
	run.progress_ctx = &sh.pc;
	run.after_each = show_one;
	run.ctx = &sh;
	app_trial_repeats(&to, &so, &run);
	rc = run_status(&sh);

	/* The run's headline: what came out, the median over the trials. */
	app_trial_summarize(&run, to.cfg.rate_pps * to.cfg.ndirs, &sum, headline, sizeof(headline));
	storeopt_end(&so, run.interrupted ? "interrupted" : !run.done || rc ? "failed" : "complete",
		     run.done ? headline : NULL);
	if (own.openmetrics && run.done) {
		char err2[512];

		struct om_trials t = { .label = so.label, .res = run.res, .n = run.done, .ns = run.kept_ns };

		if (cli_write_file(own.openmetrics, om_trials, &t, err2, sizeof(err2)))
			cli_error("warning: trial: --openmetrics %s: %s", own.openmetrics, err2);
	}
	/* what was measured, also of an interrupted run; nothing of a
	 * failed one */
	if (fs_out_close(&hist, run.done > 0) && run.done)
		cli_error("warning: trial: --latency-histogram %s: not written", own.histogram);
	/* what was captured, also of an interrupted run; nothing of a
	 * failed one */
	struct capture_stats cs = { 0 };

	if (to.cfg.capture) {
		capture_stats(to.cfg.capture, &cs);
		if (capture_close(to.cfg.capture, run.done > 0, err, sizeof(err))) {
			cli_error("warning: trial: --capture %s: not written", err);
			cs.written = 0;
			own.capture = NULL;
		}
		to.cfg.capture = NULL;
	}
	cli_stop_restore(&stop);
	if (sh.o) {
		struct out *o = sh.o;

		out_arr_end(o);
		/* One shape whatever the options: the run's figures in
		 * "summary" and, at the top level, the median trial (the only
		 * one, of one); the text says the summary after several. */
		if (run.repeat > 1 || out_is_json(o)) {
			unsigned int m = sum.median_repeat;
			struct trialprint_summary ps = {
				.trials = run.done, .fwd_median = sum.median, .fwd_min = sum.lo, .fwd_max = sum.hi,
				.loss_mean = sum.loss_mean, .median_repeat = m, .tester_limited = run.tester_limited,
				.interrupted = run.interrupted,
			};

			trialprint_summary(o, &ps);
			if (out_is_json(o)) {
				to.cfg.trial_id = run.ids[m];
				print_one(o, &to, &run.res[m], &run.cr[m], run.ceiling[m]);
			}
		}
		if (own.capture)
			trialprint_capture(o, own.capture, &cs);
		if (so.run_id)
			out_i64(o, "run_id", "  stored as run %lld\n", so.run_id);
		out_destroy(o);
	}
	free(run.res);
	free(run.cr);
	app_trial_release(&to);
	return rc ? rc : run.interrupted ? 130 : 0;
}
