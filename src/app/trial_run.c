#include "app/trial_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/trial_dut.h"
#include "app/trial_plan.h"
#include "core/stat.h"
#include "core/ns.h"
#include "os/cpulat.h"
#include "store/calib.h"

double app_trial_run_check_ceiling(const struct trial_setup *o, struct trial_result *res)
{
	struct calib_entry e;
	char err[256], key[sizeof(e.port_type)];

	app_trial_plan_calib_key(o, key, sizeof(key));
	if (o->plan.cfg.nsizes != 1 || calib_lookup(o->plan.calib_path, key, o->plan.cfg.sizes[0], &e, err, sizeof(err)))
		return 0;
	/* calibrated on the same pair of CPUs: how far apart they were then */
	if (e.line_ns > 0 && res->cpu_line_ns > 0) {
		char pair[sizeof(e.line_cpus)];

		cpulat_pair_name(o->plan.cfg.gen_cpu[0], o->plan.cfg.rx_cpu, pair, sizeof(pair));
		if (!strcmp(pair, e.line_cpus))
			res->ceiling_line_ns = e.line_ns;
	}
	if (o->plan.cfg.rate_pps <= e.pps)
		return e.pps;
	for (unsigned int d = 0; d < res->ndirs; d++) {
		struct trial_dir_result *r = &res->dir[d];

		if (r->tester_limited)
			continue;
		snprintf(r->tester_reason, sizeof(r->tester_reason),
			 "%.0f frames/s is above the tester's calibrated ceiling of %.0f (wirerate calibrate)",
			 o->plan.cfg.rate_pps, e.pps);
		r->tester_limited = true;
		res->tester_limited = true;
	}
	return e.pps;
}

double app_trial_run_planned_s(const struct trial_cfg *cfg, uint64_t repeat)
{
	return (double)repeat * (double)(cfg->duration_ns + cfg->learn_wait_ns + cfg->drain_ns) / NSEC_PER_SEC;
}

uint16_t app_trial_run_next_id(uint16_t id)
{
	id = (uint16_t)((id + 1) & 0x7fff);
	return id ? id : 1;
}

double app_trial_run_loss_pct(const struct trial_result *r)
{
	uint64_t tx = 0, rx = 0;

	for (unsigned int d = 0; d < r->ndirs; d++) {
		tx += r->dir[d].tx;
		rx += r->dir[d].rx;
	}
	return tx ? (double)(tx - (rx < tx ? rx : tx)) * 100 / (double)tx : 0;
}

unsigned int app_trial_run_median_repeat(const double *fwd, unsigned int n, double med)
{
	unsigned int best = 0;

	for (unsigned int i = 1; i < n; i++)
		if (fabs(fwd[i] - med) < fabs(fwd[best] - med))
			best = i;
	return best;
}

void app_trial_run_summarize(const struct app_trial_run *run, double load, struct app_trial_summary *s,
			 char *buf, size_t len)
{
	double sorted[APP_TRIAL_MAX_REPEATS];
	unsigned int done = run->done;

	memset(s, 0, sizeof(*s));
	memcpy(sorted, run->fwd, sizeof(sorted));
	if (done)
		s->median = stat_median(sorted, done, &s->lo, &s->hi);
	s->loss_mean = done ? run->loss_sum / done : 0;
	s->median_repeat = app_trial_run_median_repeat(run->fwd, done, s->median);
	if (done > 1)
		snprintf(buf, len, "rx %.4gk f/s of %.4gk offered (median of %u, %.4gk..%.4gk), "
			 "loss %.3f%% (mean)%s", s->median / 1e3, load / 1e3, done, s->lo / 1e3, s->hi / 1e3,
			 run->loss_sum / done, run->tester_limited ? ", tester-limited" : "");
	else
		snprintf(buf, len, "rx %.4gk f/s of %.4gk offered, loss %.3f%%%s",
			 s->median / 1e3, load / 1e3, run->loss_sum, run->tester_limited ? ", tester-limited" : "");
}

/* The stored form of one repeat: its counts, the DUT's CPU, stalls and
 * profile (prof: PROFILE_TOP_MAX entries, kept while t is stored). */
static void db_trial_of(const struct trial_setup *to, const struct trial_result *res, unsigned int rep,
			const struct cpucost_result *cr, struct db_trial *t, struct db_prof_entry *prof)
{
	uint64_t fwd = 0, tx = 0;

	for (unsigned int d = 0; d < res->ndirs; d++) {
		fwd += res->dir[d].rx;
		tx += res->dir[d].tx;
	}
	*t = (struct db_trial){ .size = (unsigned int)(res->avg_frame_size + 0.5), .test = 'x', .repeat = rep,
			      .load = to->plan.cfg.rate_pps * res->ndirs,
			      /* the time the trial's own rates are of: its duration,
			       * or what ran of it when interrupted (the generator may
			       * stop a few ms late, which is not the trial's time) */
			      .duration_s = ns_to_s(res->interrupted ? res->elapsed_ns : to->plan.cfg.duration_ns),
			      .tx = tx, .rx = fwd, .tester_limited = res->tester_limited, .cpu_valid = cr->valid,
			      .cpu_busy_pct = cr->valid ? cr->busy_cpu_s / cr->seconds * 100 : 0,
			      .cpu_soak_pct = cr->valid && cr->soak_cpu_s >= 0 ? cr->soak_cpu_s / cr->seconds * 100 : -1,
			      .ns_per_frame = cr->ns_per_frame, .cpu_source = cr->source,
			      .loss = res->loss_valid ? res->loss : NULL, .nloss = res->ndirs,
			      .soak_trusted = cr->soak_checked ? (cr->soak_trusted ? 1 : -1) : 0,
			      .soak_note = cr->soak_reason };
	const struct stallprobe_result *sp = &cr->stall;

	app_run_store_profile(cr->profiled ? &cr->profile : NULL, t, prof);

	/* the worst CPU's stall, every CPU's stalls, the most steal */
	if (sp->valid) {
		t->stall_valid = true;
		t->stall_fifo = sp->fifo;
		t->stall_max_ns = (double)sp->c[sp->worst].max_late_ns;
		t->stall_cpu = sp->c[sp->worst].cpu;
		t->stall_threshold_ns = (double)sp->threshold_ns;
		t->steal_pct = -1;
		for (unsigned int i = 0; i < sp->n; i++) {
			t->stalls += sp->c[i].stalls;
			if (sp->c[i].steal_pct > t->steal_pct)
				t->steal_pct = sp->c[i].steal_pct;
		}
	}
}

/* One repeat: the traffic, the DUT's CPU and the stored trial; *unstored
 * when the store refused it, warn saying why. */
static int run_one(struct app_trial_job *j, unsigned int rep, bool *unstored, char *warn, size_t warnlen)
{
	struct trial_setup *to = &j->to;
	struct app_trial_run *run = &j->run;
	struct trial_result *res = &run->res[rep];
	struct cpucost_result *cr = &run->cr[rep];
	uint64_t fwd = 0;
	int rc;

	memset(cr, 0, sizeof(*cr));
	*unstored = false;
	if (!to->plan.cfg.cost && (rc = app_trial_dut_cpucost(to, &to->plan.cfg.cost, run->err, sizeof(run->err)))) {
		run->fail = APP_TRIAL_FAIL_CPU;
		return rc;
	}
	rc = trial_run(&to->plan.cfg, res, run->stop, j->h->progress, j->ctx, run->err, sizeof(run->err));
	if (rc) {
		cpucost_destroy(to->plan.cfg.cost);
		to->plan.cfg.cost = NULL;
		run->fail = APP_TRIAL_FAIL_TRAFFIC;
		return rc;
	}
	run->fwd[run->done] = 0;
	for (unsigned int d = 0; d < res->ndirs; d++) {
		fwd += res->dir[d].rx;
		/* As the result's forwarded_pps: the offered rate times rx/tx. */
		if (res->dir[d].tx)
			run->fwd[run->done] += res->dir[d].offered_pps * (double)res->dir[d].rx /
					       (double)res->dir[d].tx;
	}
	if (to->plan.cfg.cost) {
		cpucost_result(to->plan.cfg.cost, fwd, cr);
		cpucost_destroy(to->plan.cfg.cost);
		to->plan.cfg.cost = NULL;
	}

	/* Before it is stored: a rate above the tester's ceiling marks it. */
	run->ceiling[rep] = app_trial_run_check_ceiling(to, res);

	struct db_trial t;
	struct db_prof_entry prof[PROFILE_TOP_MAX];

	db_trial_of(to, res, rep, cr, &t, prof);
	if (app_run_store_trial(&j->so, &t, warn, warnlen))
		*unstored = true;
	return 0;
}

/* After a repeat's trial and before its figures count: the progress
 * line cleared, a trial the store refused said (warn), the repeat
 * printed; nonzero ends the run. */
static int after_each(struct app_trial_job *j, unsigned int i, const char *warn)
{
	j->h->quiet(j->ctx);
	if (warn)
		app_cli_hooks_say(j->cli, APP_SAY_WARNING, "not stored in %s: %s", j->so.ses.path, warn);
	return j->h->repeat(j->ctx, &j->run, i);
}

int app_trial_run_repeats(struct app_trial_job *j)
{
	struct trial_setup *to = &j->to;
	struct app_trial_run *run = &j->run;
	char warn[512];
	bool unstored;
	int rc = 0;

	run->done = 0;
	run->interrupted = run->tester_limited = false;
	run->loss_sum = 0;
	run->fail = APP_TRIAL_FAIL_NONE;
	run->err[0] = '\0';
	for (unsigned int i = 0; i < run->repeat && !run->interrupted; i++) {
		struct trial_result *r = &run->res[i];

		/* a stop before the first, or in the last one's drain (that
		 * one was whole): no more */
		if (*run->stop) {
			run->interrupted = true;
			break;
		}
		if (i)
			to->plan.cfg.trial_id = app_trial_run_next_id(to->plan.cfg.trial_id);
		run->ids[i] = to->plan.cfg.trial_id;
		if ((rc = run_one(j, i, &unstored, warn, sizeof(warn))))
			break;
		if ((rc = after_each(j, i, unstored ? warn : NULL))) {
			run->fail = APP_TRIAL_FAIL_HOOK;
			break;
		}
		run->kept_ns[i] = run->cr[i].valid ? run->cr[i].ns_per_frame : 0;
		run->loss_sum += app_trial_run_loss_pct(r);
		run->done++;
		run->interrupted = r->interrupted;
		run->tester_limited |= r->tester_limited;
	}
	cpucost_destroy(to->plan.cfg.cost);
	to->plan.cfg.cost = NULL;
	run->rc = rc;
	return rc;
}

int app_trial_run_prepare(struct trial_setup *to, struct app_trial_run *run, char *err, size_t errlen)
{
	int rc;

	if ((rc = app_trial_plan_resolve(to, err, errlen)) || (rc = app_trial_dut_open(to, err, errlen)))
		return rc;
	run->res = calloc(run->repeat, sizeof(*run->res));
	run->cr = calloc(run->repeat, sizeof(*run->cr));
	if (!run->res || !run->cr) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	return app_trial_dut_cpucost(to, &to->plan.cfg.cost, err, errlen);
}

void app_trial_run_free(struct trial_setup *to, struct app_trial_run *run)
{
	cpucost_destroy(to->plan.cfg.cost);
	to->plan.cfg.cost = NULL;
	free(run->res);
	free(run->cr);
	run->res = NULL;
	run->cr = NULL;
	app_trial_plan_release(to);
}

int app_trial_run_store_begin(struct run_store *so, const struct trial_setup *to, unsigned int repeat, char *err,
			  size_t errlen)
{
	char sizes[160];
	struct db_run_info ri = { .test = "trial", .sizes = sizes, .repeats = repeat };
	int rc;

	units_sizes_join(sizes, sizeof(sizes), to->plan.cfg.sizes, to->plan.cfg.nsizes);
	if ((rc = app_run_store_open(so, err, errlen)))
		return rc;
	return app_run_store_begin(so, to, &ri, err, errlen);
}

const char *app_trial_run_status(const struct app_trial_run *run)
{
	return run->interrupted ? "interrupted" : !run->done || run->fail ? "failed" : "complete";
}

/* The run's row, then the files asked for (renamed over their names at
 * the end): a bad --db or a place a file cannot be written fails before
 * the traffic. 0, or -errno after the error is said, with the stored run
 * marked failed. */
static int open_outputs(struct app_trial_job *j)
{
	char err[4096 + 512];
	int rc;

	if ((rc = app_trial_run_store_begin(&j->so, &j->to, j->run.repeat, err, sizeof(err))))
		j->run.fail = APP_TRIAL_FAIL_STORE;
	else if ((rc = j->h->files_open(j->ctx, &j->to.plan.cfg.capture, err, sizeof(err))))
		j->run.fail = APP_TRIAL_FAIL_FILES;
	if (rc) {
		j->cli->say(j->cli->ctx, APP_SAY_ERROR, err);
		app_run_store_end_say(&j->so, "failed", NULL, j->cli);
		j->run.rc = rc;
	}
	return rc;
}

/* After the repeats: a failed one said, the row's end with the headline
 * (the median over the repeats), the files of what was measured (also of
 * an interrupted run; nothing of a failed one), Ctrl-C let go, the end
 * printed. */
static void finish(struct app_trial_job *j)
{
	const struct app_trial_hooks *h = j->h;
	const struct app_cli_hooks *cli = j->cli;
	struct app_trial_run *run = &j->run;
	struct trial_cfg *cfg = &j->to.plan.cfg;
	char headline[160];

	if (run->fail == APP_TRIAL_FAIL_CPU || run->fail == APP_TRIAL_FAIL_TRAFFIC) {
		h->quiet(j->ctx);
		cli->say(cli->ctx, APP_SAY_ERROR, run->err);
	}
	app_trial_run_summarize(run, cfg->rate_pps * cfg->ndirs, &j->sum, headline, sizeof(headline));
	app_run_store_end_say(&j->so, app_trial_run_status(run), run->done ? headline : NULL, cli);
	h->files_close(j->ctx, j->so.req.label, run, run->done > 0, cli);
	cfg->capture = NULL;
	cli->stop(cli->ctx, false);
	h->end(j->ctx, run, &j->sum, j->so.ses.run_id);
}

int app_trial_run_go(struct app_trial_job *j)
{
	const struct app_cli_hooks *cli = j->cli;
	struct app_trial_run *run = &j->run;
	double secs;

	if ((run->rc = app_trial_run_prepare(&j->to, run, run->err, sizeof(run->err)))) {
		run->fail = APP_TRIAL_FAIL_PREPARE;
		cli->say(cli->ctx, APP_SAY_ERROR, run->err);
		goto out;
	}
	/* Ctrl-C from here on stops the run in order: a run row stored before
	 * the handlers were in place was left 'running' by a signal between. */
	run->stop = cli->stop(cli->ctx, true);
	if (open_outputs(j)) {
		cli->stop(cli->ctx, false);
		goto out;
	}
	/* A long run says how long before it starts. */
	if ((secs = app_trial_run_planned_s(&j->to.plan.cfg, run->repeat)) >= APP_TRIAL_PLAN_SHOWN_S)
		j->h->planned(j->ctx, run->repeat, j->to.plan.cfg.duration_ns, secs);
	app_trial_run_repeats(j);
	finish(j);
out:
	j->h->files_drop(j->ctx);
	app_trial_run_free(&j->to, run);
	return run->rc;
}
