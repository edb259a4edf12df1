/* rfc2544's options: declared once (the table that opt_parse, the usage
 * text and 'help --json' read), then parsed into the app's config and
 * checked. */
#include "cli/rfc2544_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/rfc2544_check.h"
#include "app/trial_check.h"
#include "cli/opt.h"
#include "cli/trial_opts.h"
#include "core/ns.h"
#include "core/units.h"

#define RO(field) OPT_FIELD(struct rfc2544_args, field)

static int set_sizes(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct rfc2544_args *r = ctx;

	r->sizes_given = true;
	return app_rfc2544_check_sizes_parse(&r->po, v, err, errlen);
}

/* --pdr (id 0) and --precision (id 1): a loss or width ratio. */
static int set_goal(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct rfc2544_args *r = ctx;
	double *dst = opt->id ? &r->po.precision : &r->po.pdr;

	if (units_ratio_parse(v, dst) || (opt->id && *dst <= 0)) {
		snprintf(err, errlen, "--%s '%s': expected a ratio like 0.5%% or 0.005, below 100%%", opt->name, v);
		return -EINVAL;
	}
	return 0;
}

static int set_exceed(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	if (units_ratio_parse(v, &((struct rfc2544_args *)ctx)->po.exceed)) {
		snprintf(err, errlen, "--exceed-ratio '%s': expected a ratio in [0, 1), like 0.5 or 50%%", v);
		return -EINVAL;
	}
	return 0;
}

static int set_max_load(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct rfc2544_args *r = ctx;

	r->po.max_load_set = true;
	return units_rate_parse(v, &r->po.max_load, err, errlen);
}

/* A name given to two goals: the results could not say which is which. */
static int dup_name(const struct rfc2544_args *r, const char *v, char *err, size_t errlen)
{
	for (unsigned int i = 0; i < r->po.ngoals; i++)
		for (unsigned int k = i + 1; k < r->po.ngoals; k++)
			if (r->po.goals[i].name[0] && !strcmp(r->po.goals[i].name, r->po.goals[k].name)) {
				snprintf(err, errlen, "'%.64s': a second goal named '%s': give each goal its own name", v,
					 r->po.goals[k].name);
				return -EINVAL;
			}
	return 0;
}

/* --goal (id 0, repeatable) and --preset (id 1): RFC 9971 search goals. */
static int set_goal9971(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct rfc2544_args *r = ctx;
	int n;

	if (opt->id) {
		n = goal_preset(v, r->po.goals + r->po.ngoals, GOAL_MAX - r->po.ngoals, err, errlen);
		if (n < 0)
			return -EINVAL;
		r->po.ngoals += (unsigned int)n;
		return dup_name(r, v, err, errlen);
	}
	if (r->po.ngoals >= GOAL_MAX) {
		snprintf(err, errlen, "--goal '%.64s': at most %d goals", v, GOAL_MAX);
		return -EINVAL;
	}
	if (goal_parse(v, &r->po.goals[r->po.ngoals], err, errlen))
		return -EINVAL;
	r->po.ngoals++;
	return dup_name(r, v, err, errlen);
}

/* The first goal onto the search's options: its search is the run's
 * first (the table's NDR and PDR); the plan puts every goal of the same
 * final and initial trial durations in it, gives the others a search per
 * pair of those (app_rfc2544_plan_goals), and the first lossy goal that
 * shares the first's d, e and w sets --pdr. */
static int map_goals(struct rfc2544_args *r, char *err, size_t errlen)
{
	const struct search_goal *g = r->po.goals;

	(void)err;
	(void)errlen;
	if (!r->po.ngoals)
		return 0;
	r->po.trial_ns = g[0].final_ns;
	r->po.trial_set = true;
	r->po.dsum_ns = g[0].sum_ns;
	r->po.exceed = g[0].exceed_ratio;
	r->po.pdr = 0;
	if (g[0].width > 0)
		r->po.precision = g[0].width;
	r->po.initial_ns = g[0].initial_ns;
	return 0;
}

static const struct opt rfc2544_opts[] = {
	{ OPT_CUSTOM("goal", OPT_VALUE, "GOAL", set_goal9971,
		     "a search goal in RFC 9971's notation, [name:]<s>f<s>d<%>l<%>e\n"
		     "[<%>w][<s>i], e.g. 60f60d0l0e; repeatable (up to 8, each\n"
		     "with its own name). The first goal sets --trial-time (f),\n"
		     "--duration-sum (d), --exceed-ratio (e), --precision (w) and,\n"
		     "with a lossy goal beside it, --pdr (l): those options are\n"
		     "its attributes. Goals sharing f and i share a search and\n"
		     "its trials (a more tolerant goal never reads below a\n"
		     "stricter one); other f or i get one each, after it. Each\n"
		     "goal's lower and upper bound are in the output and the store"),
	  .group = "RFC 9971" },
	{ OPT_CUSTOM("preset", OPT_VALUE, "NAME", set_goal9971,
		     "goals by name: rfc2544 (60f60d0l0e), tst009 (60f120d0l50e),\n"
		     "csit (1f21d0l50e, 1f21d0.5l50e), quick, default"),
	  .id = 1 },
	{ OPT_CUSTOM("sizes", OPT_VALUE, "LIST", set_sizes,
		     "frame sizes (with --ipv6 84 instead of 64; --imix: one\n"
		     "IMIX row instead)"),
	  .group = "RFC 2544", .def = "64,128,256,512,1024,1280,1518" },
	{ OPT_CUSTOM("pdr", OPT_VALUE, "RATIO", set_goal, "loss goal of PDR, e.g. 0.5% or 0.001"), .def = "0.5%" },
	{ OPT_CUSTOM("precision", OPT_VALUE, "PCT", set_goal, "width goal of the search, % of the maximum load"),
	  .def = "0.5%", .id = 1 },
	{ OPT_CUSTOM("max-load", OPT_VALUE, "RATE", set_max_load,
		     "the highest load to offer (default: line rate, or the\n"
		     "tester's calibrated ceiling, whichever is lower)") },
	{ OPT_BOOL("quick", RO(po.quick), "short trials for the lab (printed as deviations from RFC 2544)") },
	{ OPT_NS("trial-time", "T", RO(po.trial_ns), 10 * NSEC_PER_MSEC, NSEC_PER_HOUR,
		 "full trial length (RFC 2544: 60s; --quick: 2s)"),
	  .given = RO(po.trial_set) },
	{ OPT_NS("settle", "T", RO(po.settle_ns), 0, 600 * NSEC_PER_SEC,
		 "wait between trials (RFC 2544: 5s; --quick: 0.5s)"),
	  .given = RO(po.settle_set) },
	{ OPT_U64("latency-runs", "N", RO(po.lat_runs), 1, 64,
		  "latency trials per size (RFC 2544: 20; --quick: 3)"),
	  .given = RO(po.lat_set) },
	{ OPT_U64("b2b-runs", "N", RO(po.b2b_runs), 1, 1000,
		  "back-to-back searches per size (RFC 2544: 50; --quick: 2)"),
	  .given = RO(po.b2b_set) },
	{ OPT_U64("repeat", "N", RO(po.repeat), 1, RFC2544_MAX_REPEATS,
		  "run the throughput search N times per size (1..16): the\n"
		  "median and the spread, which 'wirerate report' compares"),
	  .def = "1" },
	{ OPT_CUSTOM("exceed-ratio", OPT_VALUE, "R", set_exceed,
		     "share of a load's trial time that may exceed the loss goal,\n"
		     "e.g. 0.5 or 50% (0: one failed trial condemns a load)"),
	  .def = "0" },
	{ OPT_NS("duration-sum", "T", RO(po.dsum_ns), 10 * NSEC_PER_MSEC, NSEC_PER_DAY,
		 "full-length trial time that decides a load, e.g. 4s or 120s\n"
		 "(default: the trial time, one trial); with --exceed-ratio the\n"
		 "goal exceed ratio and goal duration sum of MLRsearch") },
	{ OPT_BOOL("json-stream", RO(json_stream),
		   "one JSON object per trial on stdout as it ends ({\"event\":\"trial\",\n"
		   "...}), then the result as --json gives it") },
	{ OPT_PATH("openmetrics", "FILE", RO(openmetrics),
		   "write each size's NDR, PDR and latency as OpenMetrics text\n"
		   "(for a Prometheus textfile collector; docs/json.md)") },
	{ NULL },
};

static const struct opt *const rfc2544_tables[] = { rfc2544_opts, store_args_opts, trial_opts, NULL };

const struct opt_cmd rfc2544_cmd = {
	.name = "rfc2544",
	.synopsis = "[throughput|latency|loss|b2b|all] [OPTIONS]",
	.about = "RFC 2544 benchmarks per frame size: throughput (NDR and PDR from one\n"
		 "MLRsearch-style search), latency at the throughput rate, frame loss rate\n"
		 "from the maximum load down, back-to-back bursts (RFC 9004 correction).\n"
		 "Takes the port, flow, timing and tester options of 'wirerate trial' but\n"
		 "--rate and --duration: the search chooses the loads and trial lengths.\n",
	.tables = rfc2544_tables,
};

enum opt_result rfc2544_args(struct cli *cli, int argc, char **argv, struct rfc2544_args *r, struct run_store *so,
			     struct trial_setup *to, struct app_rfc2544_plan *plan, int *status)
{
	void *ctx[] = { r, &so->req, &to->req };
	char err[512], **args;
	int nargs, rc;

	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			opt_usage(stdout, &rfc2544_cmd);
			return opt_exit(status, 0);
		}
	/* the search chooses the loads; a --rate would be ignored */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--rate") || !strncmp(argv[i], "--rate=", 7))
			return opt_fail(status, EXIT_USAGE, "rfc2544: --rate is not an option here: the search "
					"chooses the loads up to --max-load");
	*r = (struct rfc2544_args){ .json_stream = false };
	app_rfc2544_check_defaults(&r->po);
	store_args_init(so);
	app_trial_check_defaults(to);
	if ((rc = opt_parse_words(&rfc2544_cmd, ctx, cli, argc, argv, &args, &nargs)))
		return opt_exit(status, opt_status(rc));
	rc = app_rfc2544_check_tests_parse(&r->po, args, nargs, err, sizeof(err));
	free(args);
	if (rc)
		return opt_fail(status, EXIT_USAGE, "rfc2544: %s", err);
	if (r->json_stream)
		cli->json = true;
	if (map_goals(r, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "rfc2544: %s", err);
	if (app_rfc2544_check(&r->po, to, r->sizes_given, err, sizeof(err)) ||
	    app_rfc2544_plan_timing(&r->po, &to->plan.cfg, plan, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "rfc2544: %s", err);
	if (r->po.ngoals)
		r->po.pdr = plan->first_pdr;
	return OPT_GO;
}
