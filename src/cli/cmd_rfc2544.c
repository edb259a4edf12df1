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
#include "app/rfc2544check.h"
#include "app/rfc2544plan.h"
#include "app/rfc2544run.h"
#include "engine/rfc2544.h"
#include "core/timeconst.h"
#include "os/clock.h"
#include "render/r2544print.h"
#include "render/r2544runprint.h"
#include "render/openmetrics.h"

struct r_opts {
	struct app_r2544_opts po;	/* the options the plan reads, declared into it */
	bool sizes_given;
	bool json_stream;
	const char *openmetrics;
};



#define RO(field) OPT_FIELD(struct r_opts, field)

static int set_sizes(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct r_opts *r = ctx;

	r->sizes_given = true;
	return app_r2544_sizes_parse(&r->po, v, err, errlen);
}

/* --pdr (id 0) and --precision (id 1): a loss or width ratio. */
static int set_goal(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct r_opts *r = ctx;
	double *dst = opt->id ? &r->po.precision : &r->po.pdr;

	if (ratio_parse(v, dst) || (opt->id && *dst <= 0)) {
		snprintf(err, errlen, "--%s '%s': expected a ratio like 0.5%% or 0.005, below 100%%", opt->name, v);
		return -EINVAL;
	}
	return 0;
}

static int set_exceed(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	if (ratio_parse(v, &((struct r_opts *)ctx)->po.exceed)) {
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



/* The result as a table (or JSON): the run's settings and deviations, a
 * row per size, the trials, where it was stored. */
static void print_result(struct cli *cli, const struct app_r2544_setup *s, const struct r2544_result *res)
{
	struct r2544runprint v = { .po = s->po, .to = s->to, .plan = s->plan, .res = res, .run_id = s->so->run_id,
				   .db = s->so->path };
	struct out *o = cli_out_create(cli, "rfc2544");

	r2544runprint_result(o, &v);
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
	*r = (struct r_opts){ .json_stream = false };
	app_r2544_defaults(&r->po);
	storeopt_init(so);
	app_trial_defaults(to);
	if (!(args = calloc((size_t)argc, sizeof(*args)))) {
		cli_error("rfc2544: out of memory");
		return EXIT_RUNTIME;
	}
	rc = opt_parse(&rfc2544_cmd, ctx, cli, argc, argv, args, argc, &nargs);
	if (!rc && (rc = app_r2544_tests_parse(&r->po, args, nargs, err, sizeof(err))))
		cli_error("rfc2544: %s", err);
	free(args);
	if (rc)
		return rc == OPT_HELP ? 0 : EXIT_USAGE;
	if (r->json_stream)
		cli->json = true;
	if (app_r2544_check(&r->po, to, r->sizes_given, err, sizeof(err))) {
		cli_error("rfc2544: %s", err);
		return EXIT_USAGE;
	}
	return -1;
}

/* Before the maximum loads, which can take minutes: how long the run
 * should take; Ctrl-C stops a ceiling's measurement in order. */
static void loads_begin(void *ctx, const struct app_r2544_estimate *est)
{
	r2544runprint_planned(est);
	cli_stop_catch(ctx);
}

static void loads_end(void *ctx)
{
	cli_stop_restore(ctx);
}

static void measuring(void *ctx, unsigned int size, bool done)
{
	(void)ctx;
	r2544runprint_measuring(size, done);
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
	struct r2544runprint_progress prog = { .tty = isatty(STDERR_FILENO) };
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
	rc = r2544_run(setup.cfg, res, cli_stop_catch(&stop), r2544runprint_progress, &prog, err, sizeof(err));
	cli_stop_restore(&stop);
	r2544runprint_progress_clear(&prog);
	if (rc) {
		cli_error("rfc2544: %s", err);
		storeopt_end(&so, "failed", NULL);
		goto out;
	}
	if ((rc = app_store_r2544_finish(&so, res, headline, sizeof(headline), err, sizeof(err))))
		cli_error("warning: rfc2544: storing the last rows in %s: %s", so.path, err);
	storeopt_end(&so, res->interrupted ? "interrupted" : "complete", headline);
	print_result(cli, &setup, res);
	if (r.openmetrics) {
		struct om_rfc2544 m = { .label = so.label, .res = res };

		if (cli_write_file(r.openmetrics, om_rfc2544_write, &m, err, sizeof(err)))
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
