/* wirerate trial: one trial at a fixed rate, through the lab or cabled ports. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>

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
#include "engine/trial.h"
#include "core/cpustat.h"
#include "core/timeconst.h"
#include "core/units.h"
#include "render/lossprint.h"
#include "render/out.h"
#include "os/cpulat.h"
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

static void print_latency(struct out *o, const struct hist *h, unsigned int every)
{
	out_obj_start(o, "latency_ns");
	if (!h->count) {
		out_text(o, "  latency    none measured\n");
	} else {
		out_text(o, "  latency    min %.1f us, median %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us, mean %.1f us",
			 hist_min(h) / 1e3, hist_quantile(h, 0.5) / 1e3, hist_quantile(h, 0.99) / 1e3,
			 hist_quantile(h, 0.999) / 1e3, hist_max(h) / 1e3, hist_mean(h) / 1e3);
		if (every > 1)
			out_text(o, " (%llu frames: 1 in %u)", (unsigned long long)h->count, every);
		out_text(o, "\n");
		out_u64(o, "every", NULL, every);
		out_u64(o, "min", NULL, hist_min(h));
		out_u64(o, "median", NULL, hist_quantile(h, 0.5));
		out_u64(o, "p99", NULL, hist_quantile(h, 0.99));
		out_u64(o, "p99_9", NULL, hist_quantile(h, 0.999));
		out_u64(o, "max", NULL, hist_max(h));
		out_f64(o, "mean", NULL, hist_mean(h));
		out_u64(o, "frames", NULL, h->count);
	}
	out_obj_end(o);
}

void trial_print_dir(struct out *o, const struct trial_dir_result *d, double frame_size,
		     double line_bps, const char *label)
{
	out_str(o, "direction", "  %s\n", label);
	out_f64(o, "target_pps", "  offered    %.0f frames/s target", d->target_pps);
	out_f64(o, "offered_pps", ", %.1f achieved", d->offered_pps);
	out_text(o, " (%.2f%%)", d->target_pps > 0 ? d->offered_pps * 100.0 / d->target_pps : 0);
	out_u64(o, "tx", ", %llu frames", d->tx);
	out_u64(o, "streams", d->streams > 1 ? " in %llu streams" : NULL, d->streams ? d->streams : 1);
	out_u64(o, "largest_burst", ", largest burst %llu\n", d->largest_burst);
	out_u64(o, "max_backlog", NULL, d->max_backlog);
	out_u64(o, "rx", "  received   %llu frames", d->rx);
	out_u64(o, "lost", ", lost %llu", d->lost);
	out_f64(o, "loss_pct", " (%.4f%%)", d->loss_pct);
	out_u64(o, "reordered", ", reordered %llu", d->reordered);
	out_u64(o, "duplicated", ", duplicated %llu", d->duplicate);
	out_u64(o, "late", ", late %llu\n", d->late + d->out_of_window);
	out_u64(o, "ring_drops", NULL, d->ring_drops);
	if (d->ring_drops && !d->tester_limited)
		out_text(o, "  where      %llu of the lost frames were refused by the DUT's receive ring (its input queue was full)\n",
			 (unsigned long long)d->ring_drops);
	out_bool(o, "flow_control", NULL, d->flow_control);
	out_u64(o, "flow_waits", NULL, d->flow_waits);
	out_bool(o, "flow_gave_up", NULL, d->flow_gave_up);
	if (d->xdp_batch)
		out_u64(o, "xdp_batch", NULL, d->xdp_batch);
	if (d->flow_control)
		out_text(o, "  flow       back to back: the generator kept at most %u frames ahead of the analyzer, "
			 "held %llu times%s\n", d->flow_window,
			 (unsigned long long)d->flow_waits,
			 d->flow_gave_up ? " (then gave up: the analyzer saw nothing for 200 ms)" : "");
	out_u64(o, "learning_tx", NULL, d->learning_tx);
	out_u64(o, "learning_rx", NULL, d->learning_rx);
	out_u64(o, "stale", NULL, d->stale);
	out_u64(o, "not_test", NULL, d->not_test_total);
	if (d->not_test_total || d->stale)
		out_text(o, "  other      %llu frames without a valid tag, %llu from another trial or beyond the frames sent "
			 "(never counted)\n",
			 (unsigned long long)d->not_test_total, (unsigned long long)d->stale);
	print_latency(o, &d->latency, d->latency_every ? d->latency_every : 1);
	out_u64(o, "tester_rx_drops", "  tester     receive drops %llu", d->tester_rx_drops);
	out_u64(o, "tester_if_drops", " (+%llu entering the port", d->tester_if_drops);
	out_u64(o, "tester_refused", ", +%llu refused by its ring)", d->tester_refused);
	out_u64(o, "tx_errors", ", transmit errors %llu", d->tx_errors);
	out_u64(o, "tx_refused", ", held back by the next hop %llu", d->tx_refused);
	out_bool(o, "tester_limited", NULL, d->tester_limited);
	if (d->tester_limited)
		out_str(o, "tester_reason", ": TESTER-LIMITED, %s (not DUT loss)\n", d->tester_reason);
	else
		out_text(o, ": ok\n");
	/* pktgen's result line, for people who read those. */
	double rx_pps = d->offered_pps * (d->tx ? (double)d->rx / (double)d->tx : 0);
	out_text(o, "  Result: %.0fpps %.0fMb/sec (%.0fbps) errors: %llu",
		 rx_pps, rx_pps * frame_size * 8 / 1e6, rx_pps * frame_size * 8,
		 (unsigned long long)d->lost);
	if (line_bps > 0) {
		double pct = rx_pps * (frame_size + 20) * 8 * 100.0 / line_bps;

		out_text(o, ", %.1f%% of line rate", pct);
		out_f64(o, "forwarded_pct_line_rate", NULL, pct);
	}
	out_text(o, "\n");
	out_f64(o, "forwarded_pps", NULL, rx_pps);
	/* bit rates as TRex names them: L2 the frames with their FCS, L1
	 * with the preamble and gap a wire adds (what --rate 1Gbit counts) */
	out_f64(o, "forwarded_mbps_l2", NULL, rx_pps * frame_size * 8 / 1e6);
	out_f64(o, "forwarded_mbps_l1", NULL, rx_pps * (frame_size + 20) * 8 / 1e6);
}

#define TRIAL_MAX_REPEATS 16
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
	  opt_set_u64, OPT_FIELD(struct trial_own, repeat), 1, TRIAL_MAX_REPEATS },
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

/* A run this long (or longer) prints its plan first. */
#define TRIAL_PLAN_SHOWN_S 30.0

/* One trial of the run: the traffic, the DUT's CPU and the stored trial.
 * Returns 0, or an exit status after a one-line error. */
static int run_one(struct trialopt *to, struct storeopt *so, struct trial_result *res, unsigned int rep,
		   struct cpucost_result *cr, double *ceiling, double *fwd_pps)
{
	struct progress_ctx pc = { 0 };
	char err[512];
	uint64_t fwd = 0, tx = 0;
	int rc;

	memset(cr, 0, sizeof(*cr));
	if (!to->cfg.cost && (rc = app_trial_cpucost(to, &to->cfg.cost, err, sizeof(err)))) {
		cli_error("trial: %s", err);
		return cli_status(rc);
	}
	rc = trial_run(&to->cfg, res, cli_stop_flag(),
		       isatty(STDERR_FILENO) && to->cfg.duration_ns > 2 * NSEC_PER_SEC ? show_progress : NULL,
		       &pc, err, sizeof(err));
	if (pc.shown)
		fprintf(stderr, "\r%100s\r", "");
	if (rc) {
		cli_error("trial: %s", err);
		cpucost_destroy(to->cfg.cost);
		to->cfg.cost = NULL;
		return rc == -EMSGSIZE ? EXIT_USAGE : EXIT_RUNTIME;
	}
	*fwd_pps = 0;
	for (unsigned int d = 0; d < res->ndirs; d++) {
		fwd += res->dir[d].rx;
		tx += res->dir[d].tx;
		/* As the result's forwarded_pps: the offered rate times rx/tx. */
		if (res->dir[d].tx)
			*fwd_pps += res->dir[d].offered_pps * (double)res->dir[d].rx / (double)res->dir[d].tx;
	}
	if (to->cfg.cost) {
		cpucost_result(to->cfg.cost, fwd, cr);
		cpucost_destroy(to->cfg.cost);
		to->cfg.cost = NULL;
	}

	/* Before it is stored: a rate above the tester's ceiling marks it. */
	*ceiling = trialopt_check_ceiling(to, res);

	struct db_trial t = { .size = (unsigned int)(res->avg_frame_size + 0.5), .test = 'x', .repeat = rep,
			      .load = to->cfg.rate_pps * res->ndirs, .duration_s = res->elapsed_ns / 1e9,
			      .tx = tx, .rx = fwd, .tester_limited = res->tester_limited, .cpu_valid = cr->valid,
			      .cpu_busy_pct = cr->valid ? cr->busy_cpu_s / cr->seconds * 100 : 0,
			      .cpu_soak_pct = cr->valid && cr->soak_cpu_s >= 0 ? cr->soak_cpu_s / cr->seconds * 100 : -1,
			      .ns_per_frame = cr->ns_per_frame, .cpu_source = cr->source,
			      .loss = res->loss_valid ? res->loss : NULL, .nloss = res->ndirs,
			      .soak_trusted = cr->soak_checked ? (cr->soak_trusted ? 1 : -1) : 0,
			      .soak_note = cr->soak_reason };
	const struct stallprobe_result *sp = &cr->stall;
	struct db_prof_entry prof[PROFILE_TOP_MAX];

	app_store_profile(cr->profiled ? &cr->profile : NULL, &t, prof);

	/* the worst CPU's stall, every CPU's stalls, the most steal */
	if (sp->valid) {
		t.stall_valid = true;
		t.stall_fifo = sp->fifo;
		t.stall_max_ns = (double)sp->c[sp->worst].max_late_ns;
		t.stall_cpu = sp->c[sp->worst].cpu;
		t.stall_threshold_ns = (double)sp->threshold_ns;
		t.steal_pct = -1;
		for (unsigned int i = 0; i < sp->n; i++) {
			t.stalls += sp->c[i].stalls;
			if (sp->c[i].steal_pct > t.steal_pct)
				t.steal_pct = sp->c[i].steal_pct;
		}
	}

	if (app_store_trial(so, &t, err, sizeof(err)))
		cli_error("warning: trial: not stored in %s: %s", so->path, err);
	return 0;
}

/* A trial's result block, text or JSON. */
static void print_one(struct out *o, const struct trialopt *to, const struct trial_result *res,
		      const struct cpucost_result *cr, double ceiling)
{
	trialopt_print_header(o, to, res);
	if (ceiling > 0) {
		/* the host moved the tester's CPUs since: the ceiling is another's */
		bool moved = cpulat_moved(res->ceiling_line_ns, res->cpu_line_ns);

		out_f64(o, "tester_ceiling_pps", "  ceiling    %.0f frames/s (calibrated back to back)", ceiling);
		if (res->ceiling_line_ns > 0)
			out_f64(o, "ceiling_line_ns", NULL, res->ceiling_line_ns);
		else
			out_null(o, "ceiling_line_ns");
		out_bool(o, "ceiling_placement_moved", NULL, moved);
		if (moved)
			out_text(o, ", NOT FOR THESE CPUS NOW: %.0f ns a cache line apart then, %.0f now (the host "
				 "moved them): calibrate again", res->ceiling_line_ns, res->cpu_line_ns);
		out_text(o, "\n");
	} else {
		out_null(o, "tester_ceiling_pps");
	}
	out_arr_start(o, "directions");
	for (unsigned int d = 0; d < res->ndirs; d++) {
		out_obj_start(o, NULL);
		trial_print_dir(o, &res->dir[d], res->avg_frame_size, to->line_bps, to->dir_label[d]);
		if (res->loss_valid)
			lossattr_print(o, &res->loss[d], res->loss_note);
		out_obj_end(o);
	}
	out_arr_end(o);
	if (res->ndirs == 2) {
		const struct trial_dir_result *a = &res->dir[0], *b = &res->dir[1];
		uint64_t tx = a->tx + b->tx, rx = a->rx + b->rx, lost = a->lost + b->lost;

		out_obj_start(o, "total");
		out_u64(o, "tx", "  total      sent %llu", tx);
		out_u64(o, "rx", ", received %llu", rx);
		out_u64(o, "lost", ", lost %llu", lost);
		out_f64(o, "loss_pct", " (%.4f%%)\n", tx ? (double)lost * 100.0 / (double)tx : 0);
		out_obj_end(o);
	}
	if (cr->valid)
		cpucost_print(o, cr);
	if (res->loss_valid) {
		struct lossattr_cpu_hint h;
		uint64_t sent[2] = { res->dir[0].tx, res->ndirs > 1 ? res->dir[1].tx : 0 };
		char text[384];
		enum lossattr_limit_by by;

		cpucost_hint(cr, &h);
		by = lossattr_limit(res->loss, res->ndirs, sent, res->tester_limited, &h, text, sizeof(text));
		lossattr_limit_print(o, by, text);
	}
	out_bool(o, "tester_limited", NULL, res->tester_limited);
	out_bool(o, "interrupted", NULL, res->interrupted);
	if (res->interrupted)
		out_text(o, "  INTERRUPTED after %.2f s: the counts above cover the frames sent until then\n",
			 res->elapsed_ns / 1e9);
}

/* What --capture wrote: the file, the frames and why. */
static void capture_print(struct out *o, const char *path, const struct capture_stats *cs)
{
	out_obj_start(o, "capture");
	out_str(o, "file", "  capture    %s: ", path);
	out_u64(o, "frames", "%llu frame(s) received and not counted", cs->written);
	out_obj_start(o, "reasons");
	for (unsigned int i = 0; i < cs->nreasons; i++) {
		out_text(o, i ? ", %s " : " (%s ", cs->by[i].reason);
		out_u64(o, cs->by[i].reason, "%llu", cs->by[i].frames);
	}
	out_obj_end(o);
	out_text(o, "%s\n", cs->nreasons ? ")" : "");
	out_obj_end(o);
}

/* The repeat whose forwarded rate is nearest the median (the first of
 * equals): the trial a run's JSON shows at its top level. */
static unsigned int median_repeat(const double *fwd, unsigned int n, double med)
{
	unsigned int best = 0;

	for (unsigned int i = 1; i < n; i++)
		if (fabs(fwd[i] - med) < fabs(fwd[best] - med))
			best = i;
	return best;
}

int cmd_trial(struct cli *cli, int argc, char **argv)
{
	struct trialopt to;
	struct storeopt so;
	/* every repeat's result, CPU cost, ceiling and trial id */
	struct trial_result *res = NULL;
	struct cpucost_result *cr = NULL;
	double ceiling[TRIAL_MAX_REPEATS] = { 0 };
	uint64_t ids[TRIAL_MAX_REPEATS] = { 0 };
	uint64_t repeat = 1;
	double fwd[TRIAL_MAX_REPEATS], loss_sum = 0;
	unsigned int done = 0;
	bool interrupted = false, tester_limited = false;
	char err[512];
	struct out *o = NULL;
	struct trial_own own = { .repeat = 1 };
	void *ctx[] = { &to, &own, &so };
	struct cli_stop stop = { 0 };
	char *args[1];
	struct fs_out hist = { .f = NULL };	/* --latency-histogram */
	FILE *hf = NULL;
	double kept_ns[TRIAL_MAX_REPEATS] = { 0 };
	int nargs, rc;

	trialopt_init(&to);
	storeopt_init(&so);
	if ((rc = opt_parse(&trial_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return rc == OPT_HELP ? 0 : EXIT_USAGE;
	if (trialopt_check(&to, NULL, err, sizeof(err))) {
		cli_error("trial: %s", err);
		return EXIT_USAGE;
	}
	repeat = own.repeat;
	if (own.capture_count && !own.capture) {
		cli_error("trial: --capture-count goes with --capture FILE");
		return EXIT_USAGE;
	}
	if (!own.capture_count)
		own.capture_count = TRIAL_CAPTURE_COUNT;
	if (cli->check_only) {
		cli->planned_s = (double)repeat * (double)(to.cfg.duration_ns + to.cfg.learn_wait_ns + to.cfg.drain_ns) /
				 NSEC_PER_SEC;
		return 0;
	}
	if ((rc = app_trial_resolve(&to, err, sizeof(err))) || (rc = app_trial_dut_open(&to, err, sizeof(err)))) {
		cli_error("trial: %s", err);
		app_trial_release(&to);
		return cli_status(rc);
	}
	res = calloc(repeat, sizeof(*res));
	cr = calloc(repeat, sizeof(*cr));
	if (!res || !cr) {
		free(res);
		free(cr);
		app_trial_release(&to);
		return EXIT_RUNTIME;
	}
	/* The first trial's CPU watch before anything is stored: a soak asked
	 * for but not calibrated is bad input, not a failed run. */
	if ((rc = app_trial_cpucost(&to, &to.cfg.cost, err, sizeof(err)))) {
		cli_error("trial: %s", err);
		free(res);
		free(cr);
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
		struct db_run_info ri = { .test = "trial", .sizes = sizes, .repeats = (unsigned int)repeat };
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
			free(res);
			free(cr);
			app_trial_release(&to);
			return ret;
		}
		if ((hf = hist.f))
			hist_csv_header(hf);
	}
	/* A long run says how long before it starts: traffic, learning wait
	 * and drain of every repeat. */
	{
		double secs = (double)repeat * (double)(to.cfg.duration_ns + to.cfg.learn_wait_ns + to.cfg.drain_ns) /
			      NSEC_PER_SEC;

		if (secs >= TRIAL_PLAN_SHOWN_S)
			fprintf(stderr, "trial: planned: %llu trial(s) of %.0f s, %.0f s with learning and drain\n",
				(unsigned long long)repeat, (double)to.cfg.duration_ns / NSEC_PER_SEC, secs);
	}
	/* Each trial prints in turn (in JSON, in "repeats", one element for
	 * one trial), then what they forwarded over all. */
	for (unsigned int i = 0; i < repeat && !interrupted; i++) {
		struct trial_result *r = &res[i];

		/* a stop before the first, or in the last one's drain (that
		 * one was whole): no more */
		if (cli_stopped()) {
			interrupted = true;
			break;
		}
		if (i) {
			/* A fresh trial id: a late frame of the trial before is
			 * stale here, never counted. */
			to.cfg.trial_id = (uint16_t)((to.cfg.trial_id + 1) & 0x7fff);
			if (!to.cfg.trial_id)
				to.cfg.trial_id = 1;
		}
		ids[i] = to.cfg.trial_id;
		if ((rc = run_one(&to, &so, r, i, &cr[i], &ceiling[i], &fwd[done])))
			break;
		if (!o) {
			if (!(o = cli_out_create(cli, "trial"))) {
				rc = EXIT_RUNTIME;
				break;
			}
			out_arr_start(o, "repeats");
		}
		if (repeat > 1)
			out_text(o, "%srepeat %u of %llu\n", i ? "\n" : "", i + 1, (unsigned long long)repeat);
		out_obj_start(o, NULL);
		print_one(o, &to, r, &cr[i], ceiling[i]);
		out_obj_end(o);
		for (unsigned int d = 0; hf && d < r->ndirs; d++)
			hist_csv_rows(hf, &r->dir[d].latency, i, d);
		kept_ns[i] = cr[i].valid ? cr[i].ns_per_frame : 0;

		uint64_t tx = 0, rx = 0;

		for (unsigned int d = 0; d < r->ndirs; d++) {
			tx += r->dir[d].tx;
			rx += r->dir[d].rx;
		}
		loss_sum += tx ? (double)(tx - (rx < tx ? rx : tx)) * 100 / (double)tx : 0;
		done++;
		interrupted = r->interrupted;
		tester_limited |= r->tester_limited;
	}
	cpucost_destroy(to.cfg.cost);
	to.cfg.cost = NULL;

	/* The run's headline: what came out, the median over the trials. */
	double load = to.cfg.rate_pps * to.cfg.ndirs, med = 0, lo = 0, hi = 0, sorted[TRIAL_MAX_REPEATS];
	char headline[160];

	memcpy(sorted, fwd, sizeof(sorted));
	if (done)
		med = stat_median(sorted, done, &lo, &hi);
	if (done > 1)
		snprintf(headline, sizeof(headline), "rx %.4gk f/s of %.4gk offered (median of %u, %.4gk..%.4gk), "
			 "loss %.3f%% (mean)%s", med / 1e3, load / 1e3, done, lo / 1e3, hi / 1e3, loss_sum / done,
			 tester_limited ? ", tester-limited" : "");
	else
		snprintf(headline, sizeof(headline), "rx %.4gk f/s of %.4gk offered, loss %.3f%%%s",
			 med / 1e3, load / 1e3, loss_sum, tester_limited ? ", tester-limited" : "");
	storeopt_end(&so, interrupted ? "interrupted" : !done || rc ? "failed" : "complete",
		     done ? headline : NULL);
	if (own.openmetrics && done) {
		char err2[512];

		struct om_trials t = { .label = so.label, .res = res, .n = done, .ns = kept_ns };

		if (cli_write_file(own.openmetrics, om_trials, &t, err2, sizeof(err2)))
			cli_error("warning: trial: --openmetrics %s: %s", own.openmetrics, err2);
	}
	/* what was measured, also of an interrupted run; nothing of a
	 * failed one */
	if (fs_out_close(&hist, done > 0) && done)
		cli_error("warning: trial: --latency-histogram %s: not written", own.histogram);
	/* what was captured, also of an interrupted run; nothing of a
	 * failed one */
	struct capture_stats cs = { 0 };

	if (to.cfg.capture) {
		capture_stats(to.cfg.capture, &cs);
		if (capture_close(to.cfg.capture, done > 0, err, sizeof(err))) {
			cli_error("warning: trial: --capture %s: not written", err);
			cs.written = 0;
			own.capture = NULL;
		}
		to.cfg.capture = NULL;
	}
	cli_stop_restore(&stop);
	if (o) {
		out_arr_end(o);
		/* One shape whatever the options: the run's figures in
		 * "summary" and, at the top level, the median trial (the only
		 * one, of one); the text says the summary after several. */
		if (repeat > 1 || out_is_json(o)) {
			unsigned int m = median_repeat(fwd, done, med);

			out_obj_start(o, "summary");
			out_u64(o, "trials", "\n  over %llu trials", done);
			out_f64(o, "forwarded_pps_median", ": forwarded %.0f frames/s (median", med);
			out_f64(o, "forwarded_pps_min", ", %.0f", lo);
			out_f64(o, "forwarded_pps_max", "..%.0f)", hi);
			out_f64(o, "loss_pct_mean", ", loss %.4f%% (mean)\n", loss_sum / done);
			out_u64(o, "median_repeat", NULL, m);
			out_bool(o, "tester_limited", NULL, tester_limited);
			out_bool(o, "interrupted", NULL, interrupted);
			out_obj_end(o);
			if (out_is_json(o)) {
				to.cfg.trial_id = ids[m];
				print_one(o, &to, &res[m], &cr[m], ceiling[m]);
			}
		}
		if (own.capture)
			capture_print(o, own.capture, &cs);
		if (so.run_id)
			out_i64(o, "run_id", "  stored as run %lld\n", so.run_id);
		out_destroy(o);
	}
	free(res);
	free(cr);
	app_trial_release(&to);
	return rc ? rc : interrupted ? 130 : 0;
}
