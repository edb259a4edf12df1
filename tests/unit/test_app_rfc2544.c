/* The RFC 2544 plan: defaults, maximum loads, deviations, test names. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app/rfc2544_plan.h"

static char err[512];

static void base_cfg(struct trial_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->ndirs = 1;
	c->dir[0].spec.family = FRAME_IPV4;
	c->sizes[0] = 64;
	c->nsizes = 1;
	c->flows.sport_first = 1;
	c->flows.sport_count = 1;
	c->rate_pps = 1000;
	c->duration_ns = 10 * NSEC_PER_SEC;
	c->learn_wait_ns = NSEC_PER_SEC;
	c->drain_ns = 2 * NSEC_PER_SEC;
	c->gen_cpu[0] = -1;
	c->rx_cpu = -1;
	c->max_burst = 64;
}

/* The defaults rfc2544 starts from: seven sizes, PDR and precision 0.5%. */
static void opts(struct app_rfc2544_opts *o)
{
	static const unsigned int sizes[] = { 64, 128, 256, 512, 1024, 1280, 1518 };

	memset(o, 0, sizeof(*o));
	o->tests = RFC2544_THROUGHPUT;
	memcpy(o->sizes, sizes, sizeof(sizes));
	o->nsizes = 7;
	o->pdr = 0.005;
	o->precision = 0.005;
	o->repeat = 1;
}

static double fixed_ceiling(void *ctx, unsigned int size)
{
	(void)size;
	return *(double *)ctx;
}

/* Goals into searches: those sharing f, d, e, w and i share one (a
 * loss-free and one lossy ratio); the rest get one each, with the width
 * and initial trials a goal left out filled in; without goals, the
 * options' NDR and PDR are the goals. */
static void goal_sets(void **st)
{
	static const char *const g[] = { "ndr:1f1d0l0e", "e50:1f2d0l50e", "pdr:1f1d0.5l0e0.5w", "x:1f1d1l0e",
					 "ndr2:1f1d0l0e", "long:2f2d0l0e" };
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	/* every goal of 1 s trials shares the first search; the PDR is its
	 * goal 1 (e50, placed before it, moves behind it); 2 s trials get
	 * a search of their own */
	static const unsigned char want[] = { 0, 0, 0, 0, 0, 1 }, slot[] = { 0, 2, 1, 3, 0, 0 };

	opts(&o);
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(p.ngoal, 2);
	assert_string_equal(p.goal[0].name, "ndr");
	assert_true(p.goal[1].loss_ratio == 0.005 && p.goal[1].final_ns == p.final_ns);
	assert_int_equal(p.nmore, 0);
	assert_true(p.first_pdr == 0.005);
	for (unsigned int i = 0; i < 6; i++)
		assert_int_equal(goal_parse(g[i], &o.goals[i], err, sizeof(err)), 0);
	o.ngoals = 6;
	o.trial_ns = NSEC_PER_SEC;
	o.trial_set = true;
	o.pdr = 0;
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(p.ngoal, 6);
	assert_memory_equal(p.goal_set, want, sizeof(want));
	assert_memory_equal(p.goal_slot, slot, sizeof(slot));
	assert_int_equal(p.nmore, 1);
	assert_true(p.first_pdr == 0.005);
	assert_int_equal(p.nalso, 2);
	assert_true(p.also[0].duration_sum_ns == 2 * NSEC_PER_SEC && p.also[0].exceed_ratio == 0.5 &&
		    p.also[0].loss_ratio == 0 && p.also[0].width == 0.005);
	assert_true(p.also[1].loss_ratio == 0.01 && p.also[1].duration_sum_ns == NSEC_PER_SEC);
	assert_true(p.more[0].final_ns == 2 * NSEC_PER_SEC && p.more[0].ngoals == 1 &&
		    p.more[0].goal[0].loss_ratio == 0);
	for (unsigned int i = 0; i < 5; i++)
		assert_true(p.goal[i].width == 0.005 && p.goal[i].initial_ns == NSEC_PER_SEC);
}

static void strict_defaults(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;

	opts(&o);
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_true(p.final_ns == 60 * NSEC_PER_SEC);
	assert_true(p.settle_ns == 5 * NSEC_PER_SEC);
	assert_true(p.dsum_ns == p.final_ns);
	assert_true(p.initial_ns == NSEC_PER_SEC);
	assert_int_equal(p.latency_runs, 20);
	assert_true(p.latency_ns == 120 * NSEC_PER_SEC);
	assert_int_equal(p.b2b_runs, 50);
	assert_false(p.goals);
	assert_int_equal(p.nrows, 7);
	/* the RFC's waits stay, the duration is the trial's */
	assert_true(b.drain_ns == 2 * NSEC_PER_SEC);
	assert_true(b.learn_wait_ns == NSEC_PER_SEC);
	assert_true(b.duration_ns == 60 * NSEC_PER_SEC);
}

static void quick_defaults(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;

	opts(&o);
	o.quick = true;
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_true(p.final_ns == 2 * NSEC_PER_SEC);
	assert_true(p.settle_ns == 500 * NSEC_PER_MSEC);
	assert_true(p.initial_ns == 500 * NSEC_PER_MSEC);
	assert_int_equal(p.latency_runs, 3);
	assert_true(p.latency_ns == p.final_ns);
	assert_int_equal(p.b2b_runs, 2);
	assert_true(b.drain_ns == 500 * NSEC_PER_MSEC);
	assert_true(b.learn_wait_ns == 200 * NSEC_PER_MSEC);

	/* a wait given explicitly is kept, also with --quick */
	base_cfg(&b);
	b.drain_ns = 3 * NSEC_PER_SEC;
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_true(b.drain_ns == 3 * NSEC_PER_SEC);
	/* a short trial is not split into shorter ones */
	o.trial_set = true;
	o.trial_ns = NSEC_PER_SEC;
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_true(p.initial_ns == NSEC_PER_SEC);
}

static void duration_sum_below_trial(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;

	opts(&o);
	base_cfg(&b);
	o.dsum_ns = 30 * NSEC_PER_SEC;
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--duration-sum 30 s: shorter than one trial (60 s)"));
	assert_null(strchr(err, '\n'));
	o.dsum_ns = 120 * NSEC_PER_SEC;
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_true(p.goals);
}

static void max_load_line_rate(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	double none = 0;
	struct app_rfc2544_host h = { .line_bps = 1e9, .ceiling = fixed_ceiling, .ctx = &none };

	opts(&o);
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	assert_int_equal((long)p.max_load[0], 1488095);
	assert_int_equal((long)p.max_load[6], 81274);
	assert_int_equal(p.load_from[0], APP_RFC2544_LOAD_LINE);
}

static void max_load_ceiling(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	double ceil = 300000;
	struct app_rfc2544_host h = { .line_bps = 1e9, .ceiling = fixed_ceiling, .ctx = &ceil };

	opts(&o);
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	/* 64 B: the ceiling is lower than line rate; 1518 B: line rate is */
	assert_true(p.max_load[0] == 300000);
	assert_int_equal(p.load_from[0], APP_RFC2544_LOAD_CEILING);
	assert_int_equal((long)p.max_load[6], 81274);
	assert_int_equal(p.load_from[6], APP_RFC2544_LOAD_LINE);
	/* no line rate (veth): the ceiling alone */
	h.line_bps = 0;
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	assert_true(p.max_load[6] == 300000);
	assert_int_equal(p.load_from[6], APP_RFC2544_LOAD_CEILING);
}

/* The ceiling measured in the trial's placement: it replaces the
 * calibrated one, the deviation says where it came from, and a failed
 * measurement fails the plan with its error. */
static int placed_fake(void *ctx, unsigned int size, struct app_ceiling *out, char *errbuf, size_t errlen)
{
	double *pps = ctx;

	memset(out, 0, sizeof(*out));
	if (*pps < 0) {
		snprintf(errbuf, errlen, "trial failed");
		return -EIO;
	}
	out->found = true;
	out->pps = *pps;
	out->flat_pps = 2 * *pps;
	out->gen_cpu = 0;
	out->rx_cpu = 0;
	return 0;
}

static void max_load_placed(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	double pps = 900000;
	char line[200];
	struct app_rfc2544_host h = { .placed = placed_fake, .ctx = &pps, .lab = true, .prefix = "t1-" };

	opts(&o);
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	assert_true(p.max_load[0] == 900000);
	assert_int_equal(p.load_from[0], APP_RFC2544_LOAD_PLACED);
	assert_true(p.placed[0].flat_pps == 1800000);
	app_rfc2544_plan_deviations(&o, &b, 0, &p);
	bool seen = false;

	for (unsigned int i = 0; i < p.ndev; i++)
		if (p.dev[i].kind == APP_RFC2544_DEV_CEILING) {
			app_rfc2544_plan_dev_text(&p.dev[i], line, sizeof(line));
			assert_non_null(strstr(line, "measured through the DUT before the search, generator on CPU 0 "
						     "and analyzer on CPU 0"));
			seen = true;
		}
	assert_true(seen);
	struct rfc2544_cfg cfg = { 0 };

	app_rfc2544_plan_fill(&o, &p, &cfg);
	assert_true(cfg.max_is_ceiling[0]);
	/* --max-load given: nothing measured */
	o.max_load_set = true;
	assert_int_equal(units_rate_parse("50kpps", &o.max_load, err, sizeof(err)), 0);
	pps = -1;
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	assert_int_equal(p.load_from[0], APP_RFC2544_LOAD_GIVEN);
	/* a measurement that fails fails the plan */
	o.max_load_set = false;
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), -EIO);
	assert_string_equal(err, "trial failed");
}

static void max_load_given(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	double ceil = 300000;
	struct app_rfc2544_host h = { .line_bps = 1e9, .ceiling = fixed_ceiling, .ctx = &ceil };

	opts(&o);
	base_cfg(&b);
	o.max_load_set = true;
	assert_int_equal(units_rate_parse("50kpps", &o.max_load, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	for (unsigned int i = 0; i < 7; i++) {
		assert_true(p.max_load[i] == 50000);
		assert_int_equal(p.load_from[i], APP_RFC2544_LOAD_GIVEN);
	}
	/* 10% of line rate */
	assert_int_equal(units_rate_parse("10%", &o.max_load, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	assert_int_equal((long)p.max_load[0], 148809);
	/* a percentage with no line rate: refused, with a reason on one line */
	h.line_bps = 0;
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--max-load 10%: no line rate known here"));
	assert_null(strchr(err, '\n'));
}

static void max_load_none(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	double none = 0;
	struct app_rfc2544_host h = { .ceiling = fixed_ceiling, .ctx = &none, .lab = true, .prefix = "t1-" };

	opts(&o);
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "no maximum load for 64-byte frames: no line rate here and no calibrated ceiling; "
				 "run 'wirerate calibrate --size 64 --prefix t1-' or give --max-load");
	/* a size the trial refuses is named */
	o.sizes[0] = 40;
	h.line_bps = 1e9;
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--sizes: frame size 40"));
}

static unsigned int dev_text(const struct app_rfc2544_plan *p, char lines[][160])
{
	for (unsigned int i = 0; i < p->ndev; i++)
		app_rfc2544_plan_dev_text(&p->dev[i], lines[i], 160);
	return p->ndev;
}

static void deviations_strict(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	double none = 0;
	struct app_rfc2544_host h = { .line_bps = 1e9, .ceiling = fixed_ceiling, .ctx = &none };
	char l[APP_RFC2544_DEV_N][160];

	opts(&o);
	o.pdr = 0;
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	app_rfc2544_plan_deviations(&o, &b, h.line_bps, &p);
	/* RFC 2544 to the letter but for the search's short first trials */
	assert_int_equal(dev_text(&p, l), 1);
	assert_int_equal(p.dev[0].kind, APP_RFC2544_DEV_INITIAL);
	assert_string_equal(l[0], "the search starts with 1 s trials while its bounds are wide; "
				  "final bounds are from 60 s trials");
}

static void deviations_quick(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	double ceil = 300000;
	struct app_rfc2544_host h = { .ceiling = fixed_ceiling, .ctx = &ceil };
	char l[APP_RFC2544_DEV_N][160];

	opts(&o);
	o.quick = true;
	o.tests = RFC2544_THROUGHPUT | RFC2544_LATENCY | RFC2544_LOSS | RFC2544_B2B;
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	app_rfc2544_plan_deviations(&o, &b, h.line_bps, &p);
	assert_int_equal(dev_text(&p, l), 8);
	assert_string_equal(l[0], "trials of 2 s (RFC 2544: 60 s)");
	assert_string_equal(l[1], "the search starts with 0.5 s trials while its bounds are wide; "
				  "final bounds are from 2 s trials");
	assert_string_equal(l[2], "0.5 s between trials (RFC 2544: 5 s)");
	assert_string_equal(l[3], "0.5 s wait for residual frames (RFC 2544: 2 s)");
	assert_string_equal(l[4], "latency: 3 trials of 2 s (RFC 2544: 20 of 120 s)");
	assert_string_equal(l[5], "back-to-back: 2 searches (RFC 2544: 50)");
	assert_string_equal(l[6], "PDR: highest load losing at most 0.5% (RFC 2544 reports zero loss only: NDR)");
	assert_string_equal(l[7], "maximum load is the tester's calibrated ceiling (back to back), not line rate (no line rate known)");
}

static void deviations_explicit(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	double none = 0;
	struct app_rfc2544_host h = { .line_bps = 1e9, .ceiling = fixed_ceiling, .ctx = &none };
	char l[APP_RFC2544_DEV_N][160];

	opts(&o);
	o.trial_set = true;
	o.trial_ns = 10 * NSEC_PER_SEC;
	o.settle_set = true;
	o.settle_ns = NSEC_PER_SEC;
	o.exceed = 0.5;
	o.dsum_ns = 20 * NSEC_PER_SEC;
	o.repeat = 3;
	o.tests = RFC2544_LATENCY;
	o.lat_set = true;
	o.lat_runs = 20;	/* the RFC's count and length: no deviation */
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	app_rfc2544_plan_deviations(&o, &b, h.line_bps, &p);
	assert_int_equal(dev_text(&p, l), 6);
	assert_string_equal(l[0], "trials of 10 s (RFC 2544: 60 s)");
	assert_int_equal(p.dev[1].kind, APP_RFC2544_DEV_INITIAL);
	assert_string_equal(l[2], "1 s between trials (RFC 2544: 5 s)");
	assert_string_equal(l[3], "a load is judged from 20 s of 10 s trials, of which up to 50% may exceed the "
				  "loss goal (RFC 2544: one trial, none)");
	assert_int_equal(p.dev[4].kind, APP_RFC2544_DEV_PDR);
	assert_string_equal(l[5], "the throughput search ran 3 times per size: NDR and PDR are the median");
}

static void fill_engine(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct trial_cfg b;
	struct rfc2544_cfg c;
	double ceil = 300000;
	struct app_rfc2544_host h = { .line_bps = 1e9, .ceiling = fixed_ceiling, .ctx = &ceil };

	opts(&o);
	base_cfg(&b);
	memset(&c, 0, sizeof(c));
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	assert_int_equal(app_rfc2544_plan_max_loads(&o, &b, &h, &p, err, sizeof(err)), 0);
	app_rfc2544_plan_fill(&o, &p, &c);
	assert_int_equal(c.nsizes, 7);
	assert_true(c.final_ns == 60 * NSEC_PER_SEC);
	assert_true(c.max_is_ceiling[0]);
	assert_false(c.max_is_ceiling[6]);
	assert_true(c.min_load == 100);
	o.imix = true;
	app_rfc2544_plan_fill(&o, &p, &c);
	assert_int_equal(c.nsizes, 0);
}

static void test_names(void **st)
{
	char buf[64];

	app_rfc2544_plan_tests_text(RFC2544_THROUGHPUT | RFC2544_LATENCY | RFC2544_LOSS | RFC2544_B2B, false, buf, sizeof(buf));
	assert_string_equal(buf, "throughput latency loss b2b");
	app_rfc2544_plan_tests_text(RFC2544_THROUGHPUT | RFC2544_LATENCY | RFC2544_LOSS | RFC2544_B2B, true, buf, sizeof(buf));
	assert_string_equal(buf, "throughput latency frame-loss back-to-back");
	app_rfc2544_plan_tests_text(RFC2544_LOSS, true, buf, sizeof(buf));
	assert_string_equal(buf, "frame-loss");
	app_rfc2544_plan_tests_text(RFC2544_B2B | RFC2544_THROUGHPUT, false, buf, sizeof(buf));
	assert_string_equal(buf, "throughput b2b");
	for (unsigned int i = 0; i < APP_RFC2544_NTESTS; i++)
		assert_int_equal(app_rfc2544_tests[i].bit, 1u << i);
}

static void sizes_text(void **st)
{
	struct app_rfc2544_opts o;
	char buf[160];

	opts(&o);
	app_rfc2544_plan_sizes_text(&o, buf, sizeof(buf));
	assert_string_equal(buf, "64,128,256,512,1024,1280,1518");
	o.imix = true;
	app_rfc2544_plan_sizes_text(&o, buf, sizeof(buf));
	assert_string_equal(buf, "imix");
	/* cut short, still terminated */
	assert_true(units_sizes_join(buf, 8, o.sizes, 7) >= 8);
	assert_string_equal(buf, "64,128,");
	assert_int_equal(units_sizes_join(buf, sizeof(buf), o.sizes, 0), 0);
	assert_string_equal(buf, "");
}

/* The estimate told before a run: log2(1/precision) + 4 trials a search,
 * half at the initial length, each with its waits; repeats, sizes, the
 * other tests and a ceiling measured in place add to it. */
static void estimate(void **st)
{
	struct app_rfc2544_opts o;
	struct app_rfc2544_plan p;
	struct app_rfc2544_plan_estimate e, e2;
	struct trial_cfg b;

	opts(&o);
	o.quick = true;
	o.nsizes = 2;
	base_cfg(&b);
	assert_int_equal(app_rfc2544_plan_timing(&o, &b, &p, err, sizeof(err)), 0);
	p.nrows = 2;
	app_rfc2544_plan_estimate(&o, &p, &b, false, &e);
	/* 0.5%: log2(200) = 7.6, so 12 trials a search; quick: 0.5 s and 2 s
	 * trials, 0.2 s learning wait, 0.5 s drain, 0.5 s settle */
	assert_int_equal(e.trials, 24);
	assert_true(fabs(e.seconds - 2 * (6 * (0.5 + 1.2) + 6 * (2 + 1.2))) < 1e-9);
	o.precision = 0.02;	/* log2(50) = 5.6: 10 a search */
	app_rfc2544_plan_estimate(&o, &p, &b, false, &e2);
	assert_int_equal(e2.trials, 20);
	o.precision = 0.005;
	p.repeats = 3;
	app_rfc2544_plan_estimate(&o, &p, &b, false, &e2);
	assert_int_equal(e2.trials, 72);
	assert_true(fabs(e2.seconds - 3 * e.seconds) < 1e-6);
	p.repeats = 1;
	app_rfc2544_plan_estimate(&o, &p, &b, true, &e2);
	assert_int_equal(e2.trials, 24 + 12);
	assert_true(e2.seconds > e.seconds);
	o.tests |= RFC2544_LOSS | RFC2544_LATENCY;
	app_rfc2544_plan_estimate(&o, &p, &b, false, &e2);
	assert_int_equal(e2.trials, 24 + 2 * 4 + 2 * 3);
	/* a goal duration sum of two trials asks each final load twice */
	o.tests = RFC2544_THROUGHPUT;
	p.dsum_ns = 2 * p.final_ns;
	app_rfc2544_plan_estimate(&o, &p, &b, false, &e2);
	assert_true(fabs(e2.seconds - 2 * (6 * (0.5 + 1.2) + 2 * 6 * (2 + 1.2))) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strict_defaults),	cmocka_unit_test(quick_defaults), cmocka_unit_test(goal_sets),
		cmocka_unit_test(duration_sum_below_trial), cmocka_unit_test(max_load_line_rate),
		cmocka_unit_test(max_load_ceiling),	cmocka_unit_test(max_load_given),
		cmocka_unit_test(max_load_placed),
		cmocka_unit_test(max_load_none),	cmocka_unit_test(deviations_strict),
		cmocka_unit_test(deviations_quick),	cmocka_unit_test(deviations_explicit),
		cmocka_unit_test(fill_engine),		cmocka_unit_test(test_names),
		cmocka_unit_test(sizes_text),		cmocka_unit_test(estimate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
