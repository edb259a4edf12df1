/* wirerate rfc2544 [throughput|latency|loss|b2b|all] */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "app/trialcheck.h"
#include "core/units.h"
#include "cli/opt.h"
#include "cli/storeargs.h"
#include "cli/trialopt.h"
#include "app/trialres.h"
#include "app/rfc2544plan.h"
#include "app/rfc2544run.h"
#include "engine/rfc2544.h"
#include "core/timeconst.h"
#include "os/clock.h"
#include "render/r2544print.h"
#include "render/openmetrics.h"

struct r_opts {
	struct app_r2544_opts po;	/* the options the plan reads, declared into it */
	bool sizes_given;
	bool json_stream;
	const char *openmetrics;
};

/* "0.5%" or "0.005" as a ratio in [0, 1). */
static int parse_ratio(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || !isfinite(v))
		return -EINVAL;
	if (!strcmp(end, "%"))
		v /= 100;
	else if (*end)
		return -EINVAL;
	if (v < 0 || v >= 1)
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_sizes(const char *s, struct r_opts *r, char *err, size_t errlen)
{
	char *list = strdup(s), *save = NULL;
	int rc = 0;

	r->po.nsizes = 0;
	for (char *t = strtok_r(list, ",", &save); t && !rc; t = strtok_r(NULL, ",", &save)) {
		uint64_t v;

		if (r->po.nsizes == R2544_MAX_SIZES) {
			snprintf(err, errlen, "--sizes: at most %d sizes", R2544_MAX_SIZES);
			rc = -EINVAL;
		} else if (size_parse(t, 1, FRAME_MAX, &v, err, errlen)) {
			rc = -EINVAL;
		} else {
			r->po.sizes[r->po.nsizes++] = (unsigned int)v;
		}
	}
	free(list);
	if (!rc && !r->po.nsizes) {
		snprintf(err, errlen, "--sizes: give sizes like 64,512,1518");
		rc = -EINVAL;
	}
	return rc;
}

#define RO(field) OPT_FIELD(struct r_opts, field)

static int set_sizes(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct r_opts *r = ctx;

	r->sizes_given = true;
	return parse_sizes(v, r, err, errlen);
}

/* --pdr (id 0) and --precision (id 1): a loss or width ratio. */
static int set_goal(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct r_opts *r = ctx;
	double *dst = opt->id ? &r->po.precision : &r->po.pdr;

	if (parse_ratio(v, dst) || (opt->id && *dst <= 0)) {
		snprintf(err, errlen, "--%s '%s': expected a ratio like 0.5%% or 0.005, below 100%%", opt->name, v);
		return -EINVAL;
	}
	return 0;
}

static int set_exceed(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	if (parse_ratio(v, &((struct r_opts *)ctx)->po.exceed)) {
		snprintf(err, errlen, "--exceed-ratio '%s': expected a ratio in [0, 1), like 0.5 or 50%%", v);
		return -EINVAL;
	}
	return 0;
}

static int set_max_load(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct r_opts *r = ctx;

	r->po.max_load_set = true;
	return rate_parse(v, &r->po.max_load, err, errlen);
}

static const struct opt r2544_opts[] = {
	{ "sizes", 0, OPT_VALUE, "LIST", "RFC 2544", "64,128,256,512,1024,1280,1518",
	  "frame sizes (with --ipv6 84 instead of 64; --imix: one\n"
	  "IMIX row instead)", set_sizes },
	{ "pdr", 0, OPT_VALUE, "RATIO", NULL, "0.5%", "loss goal of PDR, e.g. 0.5% or 0.001", set_goal, 0, 0, 0, 0 },
	{ "precision", 0, OPT_VALUE, "PCT", NULL, "0.5%", "width goal of the search, % of the maximum load",
	  set_goal, 0, 0, 0, 1 },
	{ "max-load", 0, OPT_VALUE, "RATE", NULL, NULL,
	  "the highest load to offer (default: line rate, or the\n"
	  "tester's calibrated ceiling, whichever is lower)", set_max_load },
	{ "quick", 0, OPT_NOARG, NULL, NULL, NULL, "short trials for the lab (printed as deviations from RFC 2544)",
	  opt_set_true, RO(po.quick) },
	{ "trial-time", 0, OPT_VALUE, "T", NULL, NULL, "full trial length (RFC 2544: 60s; --quick: 2s)",
	  opt_set_ns, RO(po.trial_ns), 10 * NSEC_PER_MSEC, NSEC_PER_HOUR, RO(po.trial_set) },
	{ "settle", 0, OPT_VALUE, "T", NULL, NULL, "wait between trials (RFC 2544: 5s; --quick: 0.5s)",
	  opt_set_ns, RO(po.settle_ns), 0, 600 * NSEC_PER_SEC, RO(po.settle_set) },
	{ "latency-runs", 0, OPT_VALUE, "N", NULL, NULL, "latency trials per size (RFC 2544: 20; --quick: 3)",
	  opt_set_u64, RO(po.lat_runs), 1, 64, RO(po.lat_set) },
	{ "b2b-runs", 0, OPT_VALUE, "N", NULL, NULL, "back-to-back searches per size (RFC 2544: 50; --quick: 2)",
	  opt_set_u64, RO(po.b2b_runs), 1, 1000, RO(po.b2b_set) },
	{ "repeat", 0, OPT_VALUE, "N", NULL, "1",
	  "run the throughput search N times per size (1..16): the\n"
	  "median and the spread, which 'wirerate report' compares",
	  opt_set_u64, RO(po.repeat), 1, R2544_MAX_REPEATS },
	{ "exceed-ratio", 0, OPT_VALUE, "R", NULL, "0",
	  "share of a load's trial time that may exceed the loss goal,\n"
	  "e.g. 0.5 or 50% (0: one failed trial condemns a load)", set_exceed },
	{ "duration-sum", 0, OPT_VALUE, "T", NULL, NULL,
	  "full-length trial time that decides a load, e.g. 4s or 120s\n"
	  "(default: the trial time, one trial); with --exceed-ratio the\n"
	  "goal exceed ratio and goal duration sum of MLRsearch",
	  opt_set_ns, RO(po.dsum_ns), 10 * NSEC_PER_MSEC, NSEC_PER_DAY },
	{ "json-stream", 0, OPT_NOARG, NULL, NULL, NULL,
	  "one JSON object per trial on stdout as it ends ({\"event\":\"trial\",\n"
	  "...}), then the result as --json gives it", opt_set_true, RO(json_stream) },
	{ "openmetrics", 0, OPT_VALUE, "FILE", NULL, NULL,
	  "write each size's NDR, PDR and latency as OpenMetrics text\n"
	  "(for a Prometheus textfile collector; docs/json.md)", opt_set_path, RO(openmetrics) },
	{ NULL },
};

static const struct opt *const r2544_tables[] = { r2544_opts, storeopt_opts, trialopt_opts, NULL };

const struct opt_cmd rfc2544_cmd = {
	.name = "rfc2544",
	.synopsis = "[throughput|latency|loss|b2b|all] [OPTIONS]",
	.about = "RFC 2544 benchmarks per frame size: throughput (NDR and PDR from one\n"
		 "MLRsearch-style search), latency at the throughput rate, frame loss rate\n"
		 "from the maximum load down, back-to-back bursts (RFC 9004 correction).\n"
		 "Takes the port, flow, timing and tester options of 'wirerate trial' but\n"
		 "--rate and --duration: the search chooses the loads and trial lengths.\n",
	.tables = r2544_tables,
};

/* The words that name the tests, into r->po.tests. */
static int take_tests(struct r_opts *r, char **args, int nargs, char *err, size_t errlen)
{
	unsigned int all = 0, k;

	for (k = 0; k < APP_R2544_NTESTS; k++)
		all |= app_r2544_tests[k].bit;
	for (int i = 0; i < nargs; i++) {
		for (k = 0; k < APP_R2544_NTESTS && strcmp(args[i], app_r2544_tests[k].arg); k++)
			;
		if (k < APP_R2544_NTESTS) {
			r->po.tests |= app_r2544_tests[k].bit;
		} else if (!strcmp(args[i], "all")) {
			r->po.tests |= all;
		} else {
			snprintf(err, errlen, "unexpected argument '%s'", args[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* How the run reports as it goes: on a terminal one line that updates;
 * elsewhere (a log, a CI job) one line per trial. Until the first size is
 * done the time left is the plan's estimate less the time spent. */
struct progress {
	bool tty;
	uint64_t t0;
	double estimate_s;
};

static void show_progress(void *arg, const struct r2544_progress *p)
{
	const struct progress *pr = arg;
	double eta = p->eta_s;

	if (eta < 0 && pr->estimate_s > 0) {
		eta = pr->estimate_s - (double)(mono_ns() - pr->t0) / NSEC_PER_SEC;
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

/* --openmetrics, through cli_write_file */
struct om_r2544 {
	const char *label;
	const struct r2544_result *res;
};

static void om_r2544(FILE *f, void *arg)
{
	const struct om_r2544 *m = arg;

	om_write_rfc2544(f, m->label, m->res);
}

/* --json-stream: each trial as it ends (after the store has it). */
struct stream_hook {
	struct storeopt *so;
	bool store;
};

static int stream_trial(void *ctx, const struct r2544_trial *t, char *err, size_t errlen)
{
	struct stream_hook *h = ctx;
	struct out *o;
	int rc;

	if (h->store && (rc = app_store_r2544_trial(h->so, t, err, errlen)))
		return rc;
	if (!(o = cli_out_create_json(true, "rfc2544")))
		return 0;
	r2544print_event(o, t);
	out_destroy(o);
	return 0;
}

static int stream_row(void *ctx, const struct r2544_row *row, char *err, size_t errlen)
{
	struct stream_hook *h = ctx;

	return h->store ? app_store_r2544_row(h->so, row, err, errlen) : 0;
}

/* Where each row's maximum load came from; a ceiling measured in the
 * trial's placement says what it measured. */
static void print_max_loads(struct out *o, const struct app_r2544_plan *plan)
{
	static const char *const from[] = { [APP_R2544_LOAD_LINE] = "line rate",
		[APP_R2544_LOAD_CEILING] = "calibration", [APP_R2544_LOAD_PLACED] = "placement",
		[APP_R2544_LOAD_GIVEN] = "--max-load" };

	out_arr_start(o, "max_loads");
	for (unsigned int i = 0; i < plan->nrows; i++) {
		const struct app_ceiling *c = &plan->placed[i];

		out_obj_start(o, NULL);
		out_f64(o, "max_load", NULL, plan->max_load[i]);
		out_str(o, "from", NULL, from[plan->load_from[i]]);
		if (plan->load_from[i] == APP_R2544_LOAD_PLACED) {
			out_f64(o, "pps", "  max load   %.0f frames/s: the tester's ceiling through the DUT", c->pps);
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

/* The result as a table (or JSON): the run's settings and deviations, a
 * row per size, the trials, where it was stored. */
static void print_result(struct cli *cli, const struct r_opts *r, const struct trialopt *to,
			 const struct app_r2544_plan *plan, const struct r2544_result *res, const struct storeopt *so)
{
	struct out *o = cli_out_create(cli, "rfc2544");
	char tests[64];

	app_r2544_tests_text(r->po.tests, true, tests, sizeof(tests));
	out_str(o, "tests", "RFC 2544 %s", tests);
	out_str(o, "where", ", %s", to->where);
	out_str(o, "mode", ", %s mode\n", r->po.quick ? "quick" : "strict");
	out_u64(o, "flows", "  %llu flow(s)", frame_flows_count(&to->cfg.flows));
	out_u64(o, "direction_count", ", %llu direction(s)", to->cfg.ndirs);
	out_f64(o, "pdr_ratio", ", PDR loss goal %g", r->po.pdr);
	out_f64(o, "precision", ", width goal %g of the max load", r->po.precision);
	out_f64(o, "exceed_ratio", NULL, r->po.exceed);
	out_f64(o, "duration_sum_s", NULL, ns_to_s(plan->dsum_ns));
	out_f64(o, "trial_s", NULL, ns_to_s(plan->final_ns));
	out_u64(o, "trials_run", ", %llu trials", res->trials_run);
	out_u64(o, "repeat", NULL, r->po.repeat);
	out_f64(o, "elapsed_s", " in %.0f s\n", ns_to_s(res->elapsed_ns));
	if (to->line_bps > 0)
		out_f64(o, "line_rate_bps", "  line rate %.0f bit/s\n", to->line_bps);
	trialopt_print_ports(o, to);
	out_arr_start(o, "deviations");
	for (unsigned int i = 0; i < plan->ndev; i++) {
		char line[160];

		app_r2544_dev_text(&plan->dev[i], line, sizeof(line));
		out_str(o, NULL, "  deviation: %s\n", line);
	}
	out_arr_end(o);
	print_max_loads(o, plan);

	struct r2544print_opts p = { .tests = r->po.tests, .goals = plan->goals, .line_bps = to->line_bps,
				     .sizes = to->cfg.sizes, .nsizes = to->cfg.nsizes, .run_id = so->run_id,
				     .db = so->path };

	r2544print_result(o, res, &p);
	out_destroy(o);
}

/* argv into r, so and to, checked: -1 to go on, or the exit status. */
static int parse(struct cli *cli, int argc, char **argv, struct r_opts *r, struct storeopt *so, struct trialopt *to)
{
	void *ctx[] = { r, so, to };
	char err[512], **args;
	int nargs, rc;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			opt_usage(stdout, &rfc2544_cmd);
			return 0;
		}
	/* the search chooses the loads; a --rate would be ignored */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--rate") || !strncmp(argv[i], "--rate=", 7)) {
			cli_error("rfc2544: --rate is not an option here: the search chooses the loads up to --max-load");
			return EXIT_USAGE;
		}
	}
	*r = (struct r_opts){ .po = { .pdr = 0.005, .precision = 0.005, .repeat = 1, .nsizes = 7,
				      .sizes = { 64, 128, 256, 512, 1024, 1280, 1518 } } };
	storeopt_init(so);
	app_trial_defaults(to);
	if (!(args = calloc((size_t)argc, sizeof(*args)))) {
		cli_error("rfc2544: out of memory");
		return EXIT_RUNTIME;
	}
	rc = opt_parse(&rfc2544_cmd, ctx, cli, argc, argv, args, argc, &nargs);
	if (!rc && (rc = take_tests(r, args, nargs, err, sizeof(err))))
		cli_error("rfc2544: %s", err);
	free(args);
	if (rc)
		return rc == OPT_HELP ? 0 : EXIT_USAGE;
	if (r->json_stream)
		cli->json = true;
	if (!r->po.tests)
		r->po.tests = R2544_THROUGHPUT;
	r->po.imix = to->imix_set;
	if (r->po.imix && r->sizes_given) {
		cli_error("rfc2544: --sizes and --imix: a list of sizes or one IMIX row, not both");
		return EXIT_USAGE;
	}
	if (to->ipv6_flag && !r->sizes_given)
		r->po.sizes[0] = FRAME_MIN_TAGGED_V6;	/* RFC 5180's 78 has no room for the tag */
	if (app_trial_check(to, "1kpps", err, sizeof(err))) {
		cli_error("rfc2544: %s", err);
		return EXIT_USAGE;
	}
	if (to->duration_set) {
		cli_error("rfc2544: use --trial-time, not --duration (the search chooses trial lengths)");
		return EXIT_USAGE;
	}
	return -1;
}

/* Before the maximum loads, which can take minutes: how long the run
 * should take; Ctrl-C stops a ceiling's measurement in order. */
static void loads_begin(void *ctx, const struct app_r2544_estimate *est)
{
	char when[32];

	duration_text(est->seconds, when, sizeof(when));
	fprintf(stderr, "rfc2544: planned: about %u trials, %s (an estimate: the search decides; the time "
		"left follows as it runs)\n", est->trials, when);
	cli_stop_catch(ctx);
}

static void loads_end(void *ctx)
{
	cli_stop_restore(ctx);
}

/* A ceiling measured through the DUT: a line on a terminal meanwhile. */
static void measuring(void *ctx, unsigned int size, bool done)
{
	(void)ctx;
	if (!isatty(STDERR_FILENO))
		return;
	if (done)
		fprintf(stderr, "%80s\r", "");
	else
		fprintf(stderr, "  measuring the tester's ceiling through the DUT for %u-byte frames...\r", size);
}

/* The run up to its search (app_r2544_prepare, app_r2544_set_up): 0, or
 * an exit status after a one-line error. */
static int set_up(struct app_r2544_setup *s)
{
	char err[1024];
	int rc;

	if ((rc = app_r2544_prepare(s->po, s->to, err, sizeof(err)))) {
		cli_error("rfc2544: %s", err);
		return cli_status(rc);
	}
	if (!(s->cfg = calloc(1, sizeof(*s->cfg))))
		return EXIT_RUNTIME;
	if ((rc = app_r2544_set_up(s, err, sizeof(err)))) {
		cli_error("rfc2544: %s", err);
		return rc == -EINTR ? 130 : cli_status(rc);
	}
	return 0;
}

int cmd_rfc2544(struct cli *cli, int argc, char **argv)
{
	struct r_opts r;
	struct storeopt so;
	char headline[512];
	struct trialopt to;
	struct r2544_result *res = NULL;
	struct app_r2544_plan plan;
	struct cli_stop stop = { .caught = false };
	struct app_r2544_setup setup = { .po = &r.po, .to = &to, .so = &so, .stop = cli_stop_flag(),
					 .loads_begin = loads_begin, .loads_end = loads_end, .measuring = measuring,
					 .ctx = &stop, .plan = &plan };
	struct progress prog = { .tty = isatty(STDERR_FILENO) };
	struct stream_hook sh = { .so = &so };
	char err[512];
	int rc, ret = EXIT_RUNTIME;

	if ((rc = parse(cli, argc, argv, &r, &so, &to)) >= 0)
		return rc;
	/* The plan: RFC 2544's defaults, or the lab's quick mode. */
	if ((rc = app_r2544_timing(&r.po, &to.cfg, &plan, err, sizeof(err)))) {
		cli_error("rfc2544: %s", err);
		return EXIT_USAGE;
	}
	if (cli->check_only) {
		/* the plan without the host: no ceiling measured in place */
		app_r2544_estimate(&r.po, &plan, &to.cfg, false, &setup.est);
		cli->planned_s = setup.est.seconds;
		return 0;
	}
	if ((ret = set_up(&setup)) || !(res = calloc(1, sizeof(*res)))) {
		ret = ret ? ret : EXIT_RUNTIME;
		goto out;
	}
	ret = EXIT_RUNTIME;
	sh.store = true;
	if (r.json_stream) {
		/* the store's hooks first, then the line */
		setup.cfg->on_trial = stream_trial;
		setup.cfg->on_row = stream_row;
		setup.cfg->hook_ctx = &sh;
	}
	prog.t0 = mono_ns();
	prog.estimate_s = setup.est.seconds;
	rc = r2544_run(setup.cfg, res, cli_stop_catch(&stop), show_progress, &prog, err, sizeof(err));
	cli_stop_restore(&stop);
	if (prog.tty)
		fprintf(stderr, "\r%150s\r", "");
	if (rc) {
		cli_error("rfc2544: %s", err);
		storeopt_end(&so, "failed", NULL);
		goto out;
	}
	if ((rc = app_store_r2544_finish(&so, res, headline, sizeof(headline), err, sizeof(err))))
		cli_error("warning: rfc2544: storing the last rows in %s: %s", so.path, err);
	storeopt_end(&so, res->interrupted ? "interrupted" : "complete", headline);
	print_result(cli, &r, &to, &plan, res, &so);
	if (r.openmetrics) {
		struct om_r2544 m = { .label = so.label, .res = res };

		if (cli_write_file(r.openmetrics, om_r2544, &m, err, sizeof(err)))
			cli_error("warning: rfc2544: --openmetrics %s: %s", r.openmetrics, err);
	}
	ret = res->interrupted ? 130 : 0;
out:
	cli_stop_restore(&stop);
	storeopt_end(&so, "failed", NULL);
	free(setup.cfg);
	free(res);
	app_trial_release(&to);
	return ret;
}
