#include "render/rfc2544_live.h"

#include <stdio.h>
#include <unistd.h>

#include "core/ns.h"
#include "core/units.h"
#include "dut/envcap.h"
#include "os/clock.h"
#include "os/fs.h"
#include "render/openmetrics.h"
#include "render/rfc2544_print.h"
#include "render/trial_live.h"

/* Where each row's maximum load came from; a ceiling measured in the
 * trial's placement says what it measured. */
static void max_loads(struct out *o, const struct app_rfc2544_plan *plan)
{
	static const char *const from[] = { [APP_RFC2544_LOAD_LINE] = "line rate",
		[APP_RFC2544_LOAD_CEILING] = "calibration", [APP_RFC2544_LOAD_PLACED] = "placement",
		[APP_RFC2544_LOAD_GIVEN] = "--max-load" };

	out_arr_start(o, "max_loads");
	for (unsigned int i = 0; i < plan->nrows; i++) {
		const struct app_ceiling *c = &plan->placed[i];

		out_obj_start(o, NULL);
		out_f64(o, "max_load", NULL, plan->max_load[i]);
		out_str(o, "from", NULL, from[plan->load_from[i]]);
		if (plan->load_from[i] == APP_RFC2544_LOAD_PLACED && c->dut_held) {
			out_f64(o, "pps", "  max load   %.0f frames/s: a step above what the DUT took flat out", c->pps);
			out_f64(o, "flat_out_pps", " (%.0f frames/s;", c->flat_pps);
			out_text(o, " its full ingress held the rest back: the tester overloads it)\n");
			out_bool(o, "dut_held", NULL, true);
			out_u64(o, "steps", NULL, 0);
			out_u64(o, "trials", NULL, 0);
			out_bool(o, "held", NULL, true);
			out_null(o, "last_limited");
		} else if (plan->load_from[i] == APP_RFC2544_LOAD_PLACED) {
			out_f64(o, "pps", "  max load   %.0f frames/s: the tester's ceiling through the DUT", c->pps);
			out_bool(o, "dut_held", NULL, false);
			out_f64(o, "flat_out_pps", " (flat out %.0f", c->flat_pps);
			out_u64(o, "steps", "; %llu paced step(s)", c->steps);
			out_u64(o, "trials", " in %llu trials", c->trials);
			out_bool(o, "held", NULL, c->found);
			out_text(o, c->found ? ", the last held twice)\n" : ", none held)\n");
			if (c->why[0])
				out_str(o, "last_limited", "             the last tester-limited: %s\n", c->why);
			else
				out_null(o, "last_limited");
		}
		out_obj_end(o);
	}
	out_arr_end(o);
}

/* The SUT's configuration as the run began (RFC 9971 asks the report
 * for all of it): the kernel and the summary in the text, with where the
 * whole capture is; in JSON every key of the lab and the DUT. */
static void sut_print(struct out *o, const struct rfc2544runprint *v)
{
	const char *k = v->sut ? envcap_kv_get(v->sut, "kernel") : NULL;

	out_obj_start(o, "sut");
	if (k)
		out_str(o, "kernel", "  sut        kernel %s", k);
	else
		out_null(o, "kernel");
	out_str(o, "config", k ? ", %s" : "  sut        %s", v->sut_config && v->sut_config[0] ? v->sut_config
												   : "(nothing captured)");
	if (v->run_id)
		out_text(o, "\n             all of it: wirerate runs show %lld", (long long)v->run_id);
	out_text(o, "\n");
	out_obj_start(o, "environment");
	for (unsigned int i = 0; v->sut && i < v->sut->n; i++)
		out_str(o, v->sut->kv[i].key, NULL, v->sut->kv[i].value);
	out_obj_end(o);
	out_obj_end(o);
}

/* The result as a table (or JSON): the run's settings and deviations, a
 * row per size, the trials, where it was stored. */
void rfc2544_live_result(struct out *o, const struct rfc2544runprint *v)
{
	const struct app_rfc2544_opts *po = v->po;
	const struct trial_setup *to = v->to;
	const struct app_rfc2544_plan *plan = v->plan;
	const struct rfc2544_result *res = v->res;
	char tests[64];

	app_rfc2544_plan_tests_text(po->tests, true, tests, sizeof(tests));
	out_str(o, "tests", "RFC 2544 %s", tests);
	out_str(o, "where", ", %s", to->plan.where);
	out_str(o, "mode", ", %s mode\n", po->quick ? "quick" : "strict");
	out_u64(o, "flows", "  %llu flow(s)", frame_flows_count(&to->plan.cfg.flows));
	out_u64(o, "direction_count", ", %llu direction(s)", to->plan.cfg.ndirs);
	out_f64(o, "pdr_ratio", ", PDR loss goal %g", po->pdr);
	out_f64(o, "precision", ", width goal %g of the max load", po->precision);
	out_f64(o, "exceed_ratio", NULL, po->exceed);
	out_f64(o, "duration_sum_s", NULL, ns_to_s(plan->dsum_ns));
	out_f64(o, "trial_s", NULL, ns_to_s(plan->final_ns));
	out_u64(o, "trials_run", ", %llu trials", res->trials_run);
	out_u64(o, "repeat", NULL, po->repeat);
	out_f64(o, "elapsed_s", " in %.0f s\n", ns_to_s(res->elapsed_ns));
	if (to->plan.line_bps > 0)
		out_f64(o, "line_rate_bps", "  line rate %.0f bit/s\n", to->plan.line_bps);
	/* RFC 9971's report items: the load's unit and scope, the traffic's
	 * direction, and every goal with all its attributes */
	out_str(o, "load_unit", "  loads      %s", "frames/s");
	out_text(o, " offered per interface and direction, not the aggregate");
	out_str(o, "load_per", NULL, "interface");
	out_str(o, "traffic", "; traffic %s\n", to->plan.cfg.ndirs > 1 ? "bidirectional" : "unidirectional");
	out_arr_start(o, "goals");
	for (unsigned int i = 0; i < plan->ngoal; i++) {
		const struct search_goal *g = &plan->goal[i];
		char spec[64];

		goal_format(g, spec, sizeof(spec));
		out_obj_start(o, NULL);
		out_str(o, "goal", i ? ", %s" : "  goals      %s", spec);
		out_str(o, "name", NULL, g->name);
		out_f64(o, "final_trial_duration_s", NULL, ns_to_s(g->final_ns));
		out_f64(o, "duration_sum_s", NULL, ns_to_s(g->sum_ns));
		out_f64(o, "loss_ratio", NULL, g->loss_ratio);
		out_f64(o, "exceed_ratio", NULL, g->exceed_ratio);
		if (g->width > 0)
			out_f64(o, "width", NULL, g->width);
		else
			out_null(o, "width");
		if (g->initial_ns)
			out_f64(o, "initial_trial_duration_s", NULL, ns_to_s(g->initial_ns));
		else
			out_null(o, "initial_trial_duration_s");
		out_obj_end(o);
	}
	out_arr_end(o);
	if (plan->ngoal)
		out_text(o, "\n  (RFC 9971 notation: final trial s f, duration sum s d, loss %% l, exceed %% e, "
			 "width w in %% of the max load, an absolute load difference; initial trial s i)\n");
	sut_print(o, v);
	trial_live_ports(o, to);
	out_arr_start(o, "deviations");
	for (unsigned int i = 0; i < plan->ndev; i++) {
		char line[160];

		app_rfc2544_plan_dev_text(&plan->dev[i], line, sizeof(line));
		out_str(o, NULL, "  deviation: %s\n", line);
	}
	out_arr_end(o);
	max_loads(o, plan);

	struct rfc2544_print_opts p = { .tests = po->tests, .goals = plan->goals, .line_bps = to->plan.line_bps,
				     .sizes = to->plan.cfg.sizes, .nsizes = to->plan.cfg.nsizes, .run_id = v->run_id,
				     .db = v->db, .goal = plan->goal,
				     .goal_set = plan->goal_set,
				     .goal_slot = plan->goal_slot, .ngoal = plan->ngoal };

	rfc2544_print_result(o, res, &p);
}

/* rfc2544_live_hooks (ctx a struct rfc2544_live_run): the trial line,
 * its clearing, the search's start. */
static void hook_progress(void *ctx, const struct rfc2544_progress *p)
{
	const struct rfc2544_live_run *pr = ctx;
	double eta = p->eta_s;

	if (eta < 0 && pr->estimate_s > 0) {
		eta = pr->estimate_s - (double)(clock_mono_ns() - pr->t0) / NSEC_PER_SEC;
		if (eta < 0)
			eta = -1;
	}
	fprintf(stderr, "%s  %5u B  %-12s trial %-3u load %10.0f f/s  loss %7.3f%%", pr->tty ? "\r" : "", p->size,
		p->test, p->trial, p->load, p->loss_pct);
	if (p->bounds) {
		const struct search_bound *n = &p->bounds->ndr, *d = &p->bounds->pdr;

		fprintf(stderr, "  NDR [%.0f, %.0f]  PDR [%.0f, %.0f]",
			n->lower_valid ? n->lower : 0, n->upper_valid ? n->upper : 0,
			d->lower_valid ? d->lower : 0, d->upper_valid ? d->upper : 0);
	}
	if (eta >= 0)
		fprintf(stderr, "  ~%.0f s left", eta);
	fprintf(stderr, pr->tty ? "   " : "\n");
}

static void hook_quiet(void *ctx)
{
	const struct rfc2544_live_run *pr = ctx;

	if (pr->tty)
		fprintf(stderr, "\r%150s\r", "");
}

static void hook_searching(void *ctx, const struct app_rfc2544_plan_estimate *est)
{
	struct rfc2544_live_run *pr = ctx;

	pr->t0 = clock_mono_ns();
	pr->estimate_s = est->seconds;
}

static void hook_planned(void *ctx, const struct app_rfc2544_plan_estimate *est)
{
	char when[32];

	(void)ctx;
	units_duration_text(est->seconds, when, sizeof(when));
	fprintf(stderr, "rfc2544: planned: about %u trials, %s (an estimate: the search decides; the time "
		"left follows as it runs)\n", est->trials, when);
}

static void hook_measuring(void *ctx, unsigned int size, bool done)
{
	(void)ctx;
	if (!isatty(STDERR_FILENO))
		return;
	if (done)
		fprintf(stderr, "%80s\r", "");
	else
		fprintf(stderr, "  measuring the tester's ceiling through the DUT for %u-byte frames...\r", size);
}

/* --json-stream: each trial as it ends (after the store has it). */
static void hook_trial(void *ctx, const struct rfc2544_trial *t)
{
	const struct rfc2544_live_run *v = ctx;
	struct out *o;

	if (!v->json_stream)
		return;
	if ((o = v->out_create(true, "rfc2544"))) {
		rfc2544_print_event(o, t);
		out_destroy(o);
	}
}

/* The result as a table (or JSON), then --openmetrics's file. */
static void hook_end(void *ctx, const struct app_rfc2544_setup *s, const struct rfc2544_result *res)
{
	const struct rfc2544_live_run *v = ctx;
	struct rfc2544runprint p = { .po = s->po, .to = s->to, .plan = s->plan, .res = res, .run_id = s->so->ses.run_id,
				   .db = s->so->ses.path, .sut = s->so->ses.sut, .sut_config = s->so->ses.sut_config };
	struct om_rfc2544 m = { .label = s->so->req.label, .res = res };
	struct out *o = v->out_create(v->json, "rfc2544");
	char err[512];

	rfc2544_live_result(o, &p);
	out_destroy(o);
	if (v->openmetrics && fs_write_file(v->openmetrics, openmetrics_rfc2544_write, &m, err, sizeof(err)))
		app_cli_hooks_say(s->cli, APP_SAY_WARNING, "--openmetrics %s: %s", v->openmetrics, err);
}

void rfc2544_live_init(struct rfc2544_live_run *v, bool json, bool json_stream,
		       struct out *(*create)(bool json, const char *command), const char *openmetrics)
{
	*v = (struct rfc2544_live_run){ .json = json, .json_stream = json_stream, .out_create = create,
					.openmetrics = openmetrics, .tty = isatty(STDERR_FILENO) };
}

const struct app_rfc2544_hooks rfc2544_live_hooks = {
	.planned = hook_planned, .measuring = hook_measuring, .searching = hook_searching,
	.progress = hook_progress, .quiet = hook_quiet, .on_trial = hook_trial, .end = hook_end,
};
