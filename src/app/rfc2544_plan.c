/* The RFC 2544 plan: defaults, maximum loads, deviations. */
#include "app/rfc2544_plan.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab.h"
#include "store/calib.h"

const struct app_rfc2544_test_name app_rfc2544_tests[APP_RFC2544_NTESTS] = {
	{ RFC2544_THROUGHPUT, "throughput", "throughput" },
	{ RFC2544_LATENCY, "latency", "latency" },
	{ RFC2544_LOSS, "loss", "frame-loss" },
	{ RFC2544_B2B, "b2b", "back-to-back" },
};

void app_rfc2544_plan_tests_text(unsigned int bits, bool title, char *buf, size_t len)
{
	size_t off = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned int i = 0; i < APP_RFC2544_NTESTS && off < len; i++)
		if (bits & app_rfc2544_tests[i].bit)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "",
						title ? app_rfc2544_tests[i].title : app_rfc2544_tests[i].arg);
}

int app_rfc2544_plan_timing(const struct app_rfc2544_opts *o, struct trial_cfg *base, struct app_rfc2544_plan *p,
		     char *err, size_t errlen)
{
	memset(p, 0, sizeof(*p));
	p->final_ns = o->trial_set ? o->trial_ns : o->quick ? APP_RFC2544_QUICK_TRIAL_NS : APP_RFC2544_TRIAL_NS;
	p->settle_ns = o->settle_set ? o->settle_ns : o->quick ? APP_RFC2544_QUICK_SETTLE_NS : APP_RFC2544_SETTLE_NS;
	p->dsum_ns = o->dsum_ns ? o->dsum_ns : p->final_ns;
	if (p->dsum_ns < p->final_ns) {
		snprintf(err, errlen, "--duration-sum %g s: shorter than one trial (%g s): give at least the trial time",
			 (double)p->dsum_ns / NSEC_PER_SEC, (double)p->final_ns / NSEC_PER_SEC);
		return -EINVAL;
	}
	/* --quick shortens the RFC's waits, unless they were given */
	if (o->quick) {
		base->drain_ns = base->drain_ns == APP_RFC2544_DRAIN_NS ? 500 * NSEC_PER_MSEC : base->drain_ns;
		base->learn_wait_ns = base->learn_wait_ns == NSEC_PER_SEC ? 200 * NSEC_PER_MSEC : base->learn_wait_ns;
	}
	base->duration_ns = p->final_ns;
	/* short trials while the bounds are wide, when the final ones are long */
	p->initial_ns = p->final_ns >= 2 * NSEC_PER_SEC ? (o->quick ? 500 * NSEC_PER_MSEC : NSEC_PER_SEC) : p->final_ns;
	if (o->initial_ns && o->initial_ns <= p->final_ns)
		p->initial_ns = o->initial_ns;
	p->latency_runs = (unsigned int)(o->lat_set ? o->lat_runs : o->quick ? 3 : APP_RFC2544_LATENCY_RUNS);
	p->latency_ns = o->quick ? p->final_ns : APP_RFC2544_LATENCY_NS;
	p->b2b_runs = (unsigned int)(o->b2b_set ? o->b2b_runs : o->quick ? 2 : APP_RFC2544_B2B_RUNS);
	p->b2b_max_ns = 2 * NSEC_PER_SEC;
	p->repeats = (unsigned int)o->repeat;
	p->goals = o->exceed > 0 || p->dsum_ns > p->final_ns;
	p->nrows = o->imix ? 1 : o->nsizes;
	p->min_load = 100;
	app_rfc2544_plan_goals(o, p);
	return 0;
}

/* The initial trials of a search whose final trials are final_ns long. */
static uint64_t initial_for(uint64_t final_ns, bool quick)
{
	return final_ns >= 2 * NSEC_PER_SEC ? (quick ? 500 * NSEC_PER_MSEC : NSEC_PER_SEC) : final_ns;
}

/* Whether goal g can be served by search set s. */
static bool goal_fits(const struct search_goal *g, const struct rfc2544_goalset *s)
{
	return g->final_ns == s->final_ns && g->sum_ns == s->duration_sum_ns && g->exceed_ratio == s->exceed_ratio &&
	       g->width == s->precision && g->initial_ns == s->initial_ns &&
	       (g->loss_ratio == 0 || s->pdr_ratio == 0 || g->loss_ratio == s->pdr_ratio);
}

void app_rfc2544_plan_goals(const struct app_rfc2544_opts *o, struct app_rfc2544_plan *p)
{
	struct search_goal g = { .final_ns = p->final_ns, .sum_ns = p->dsum_ns, .exceed_ratio = o->exceed,
				 .width = o->precision, .initial_ns = p->initial_ns };
	struct rfc2544_goalset set[GOAL_MAX] = { { .precision = o->precision, .exceed_ratio = o->exceed,
						 .final_ns = p->final_ns, .initial_ns = p->initial_ns,
						 .duration_sum_ns = p->dsum_ns } };
	unsigned int nset = 1;

	p->nmore = 0;
	p->first_pdr = 0;
	memset(p->goal_set, 0, sizeof(p->goal_set));
	if (!o->ngoals) {
		p->goal[0] = g;
		snprintf(p->goal[0].name, sizeof(p->goal[0].name), "ndr");
		p->ngoal = 1;
		if (o->pdr > 0) {
			p->goal[1] = g;
			p->goal[1].loss_ratio = o->pdr;
			snprintf(p->goal[1].name, sizeof(p->goal[1].name), "pdr");
			p->ngoal = 2;
		}
		p->first_pdr = o->pdr;
		return;
	}
	/* as given, with the width and initial trials the search applies
	 * where a goal left them out */
	memcpy(p->goal, o->goals, sizeof(o->goals));
	p->ngoal = o->ngoals;
	for (unsigned int i = 0; i < p->ngoal; i++) {
		struct search_goal *x = &p->goal[i];
		unsigned int k;

		if (!x->width)
			x->width = o->precision;
		if (!x->initial_ns)
			x->initial_ns = i == 0 ? p->initial_ns : initial_for(x->final_ns, o->quick);
		for (k = 0; k < nset && !goal_fits(x, &set[k]); k++)
			;
		if (k == nset) {	/* GOAL_MAX goals at most: a set for each fits */
			set[nset++] = (struct rfc2544_goalset){ .precision = x->width, .exceed_ratio = x->exceed_ratio,
							      .final_ns = x->final_ns, .initial_ns = x->initial_ns,
							      .duration_sum_ns = x->sum_ns };
		}
		if (x->loss_ratio > 0)
			set[k].pdr_ratio = x->loss_ratio;
		p->goal_set[i] = (unsigned char)k;
	}
	p->first_pdr = set[0].pdr_ratio;
	p->nmore = nset - 1;
	memcpy(p->more, set + 1, sizeof(p->more));
}

int app_rfc2544_plan_check_mtu(const struct app_rfc2544_opts *o, const struct trial_cfg *base, char *err, size_t errlen)
{
	struct trial_cfg *t;
	int rc = 0;

	if (o->imix)
		return 0;
	if (!(t = malloc(sizeof(*t)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < o->nsizes && !rc; i++) {
		*t = *base;
		t->sizes[0] = o->sizes[i];
		t->nsizes = 1;
		if (trial_preflight_mtu(t, err, errlen))
			rc = -EINVAL;
	}
	free(t);
	return rc;
}

static double calib_ceiling(const struct app_rfc2544_host *h, unsigned int size)
{
	struct calib_entry e;
	char e2[256];

	if (h->ceiling)
		return h->ceiling(h->ctx, size);
	if (h->calib_path && !calib_lookup(h->calib_path, h->calib_key, size, &e, e2, sizeof(e2)))
		return e.pps;
	return 0;
}

int app_rfc2544_plan_check_sizes(const struct app_rfc2544_opts *o, const struct trial_cfg *base, char *err, size_t errlen)
{
	for (unsigned int i = 0; !o->imix && i < o->nsizes; i++) {
		struct trial_cfg probe = *base;
		char e2[512];

		probe.sizes[0] = o->sizes[i];
		probe.nsizes = 1;
		if (trial_preflight_check(&probe, e2, sizeof(e2))) {
			snprintf(err, errlen, "--sizes: %s", e2);
			return -EINVAL;
		}
	}
	return 0;
}

int app_rfc2544_plan_max_loads(const struct app_rfc2544_opts *o, const struct trial_cfg *base,
			const struct app_rfc2544_host *h, struct app_rfc2544_plan *p, char *err, size_t errlen)
{
	int rc;

	/* every size checked before a placement measurement sends a frame:
	 * bad input is refused before any traffic */
	if (h->placed && (rc = app_rfc2544_plan_check_sizes(o, base, err, errlen)))
		return rc;
	for (unsigned int i = 0; i < p->nrows; i++) {
		double avg = 0, line = 0, ceil_pps = 0, m;

		if (o->imix) {
			for (unsigned int k = 0; k < base->nsizes; k++)
				avg += base->sizes[k] / (double)base->nsizes;
		} else {
			struct trial_cfg probe = *base;
			char e2[512];

			avg = o->sizes[i];
			probe.sizes[0] = o->sizes[i];
			probe.nsizes = 1;
			if (trial_preflight_check(&probe, e2, sizeof(e2))) {
				snprintf(err, errlen, "--sizes: %s", e2);
				return -EINVAL;
			}
		}
		if (h->line_bps > 0)
			line = h->line_bps / ((avg + 20) * 8);
		bool placed = false;

		if (!o->imix && !o->max_load_set && h->placed) {
			if ((rc = h->placed(h->ctx, o->sizes[i], &p->placed[i], err, errlen)))
				return rc;
			ceil_pps = p->placed[i].pps;
			placed = true;
		} else if (!o->imix) {
			ceil_pps = calib_ceiling(h, o->sizes[i]);
		}
		if (o->max_load_set) {
			m = o->max_load.kind == RATE_PPS ? o->max_load.value :
			    o->max_load.kind == RATE_BPS ? o->max_load.value / ((avg + 20) * 8) :
			    line * o->max_load.value / 100;
			p->load_from[i] = APP_RFC2544_LOAD_GIVEN;
		} else {
			m = line > 0 ? line : ceil_pps;
			if (ceil_pps > 0 && ceil_pps < m)
				m = ceil_pps;
			p->load_from[i] = !(ceil_pps > 0 && m == ceil_pps) ? APP_RFC2544_LOAD_LINE :
					  placed ? APP_RFC2544_LOAD_PLACED : APP_RFC2544_LOAD_CEILING;
		}
		if (!(m > 0) && o->max_load_set && o->max_load.kind == RATE_PCT) {
			snprintf(err, errlen, "--max-load %g%%: no line rate known here (veth has none): give --line-rate, "
				 "e.g. 1G, or --max-load in frames/s", o->max_load.value);
			return -EINVAL;
		}
		if (!(m > 0)) {
			char pa[LAB_PREFIX_MAX + 12];

			snprintf(err, errlen, "no maximum load for %g-byte frames: no line rate here and no calibrated "
				 "ceiling; run 'wirerate calibrate --size %g%s' or give --max-load",
				 avg, avg, h->lab ? lab_prefix_arg(h->prefix, pa, sizeof(pa)) : "");
			return -EINVAL;
		}
		p->max_load[i] = m;
	}
	return 0;
}

static void dev_add(struct app_rfc2544_plan *p, enum app_rfc2544_dev_kind kind, double a, double b, double c)
{
	if (p->ndev < APP_RFC2544_DEV_N)
		p->dev[p->ndev++] = (struct app_rfc2544_dev){ kind, a, b, c };
}

void app_rfc2544_plan_deviations(const struct app_rfc2544_opts *o, const struct trial_cfg *base, double line_bps,
			  struct app_rfc2544_plan *p)
{
	const double s = NSEC_PER_SEC;

	p->ndev = 0;
	if (p->final_ns != APP_RFC2544_TRIAL_NS)
		dev_add(p, APP_RFC2544_DEV_TRIAL, p->final_ns / s, 0, 0);
	if (p->initial_ns < p->final_ns)
		dev_add(p, APP_RFC2544_DEV_INITIAL, p->initial_ns / s, p->final_ns / s, 0);
	if (p->settle_ns != APP_RFC2544_SETTLE_NS)
		dev_add(p, APP_RFC2544_DEV_SETTLE, p->settle_ns / s, 0, 0);
	if (base->drain_ns != APP_RFC2544_DRAIN_NS)
		dev_add(p, APP_RFC2544_DEV_DRAIN, base->drain_ns / s, 0, 0);
	if ((o->tests & RFC2544_LATENCY) &&
	    (p->latency_runs != APP_RFC2544_LATENCY_RUNS || p->latency_ns != APP_RFC2544_LATENCY_NS))
		dev_add(p, APP_RFC2544_DEV_LATENCY, p->latency_runs, p->latency_ns / s, 0);
	if ((o->tests & RFC2544_B2B) && p->b2b_runs != APP_RFC2544_B2B_RUNS)
		dev_add(p, APP_RFC2544_DEV_B2B, p->b2b_runs, 0, 0);
	if (p->goals)
		dev_add(p, APP_RFC2544_DEV_GOALS, p->dsum_ns / s, p->final_ns / s, o->exceed * 100);
	if (o->pdr > 0)
		dev_add(p, APP_RFC2544_DEV_PDR, o->pdr * 100, 0, 0);
	for (unsigned int i = 0; i < p->nrows; i++)
		if (p->load_from[i] == APP_RFC2544_LOAD_CEILING || p->load_from[i] == APP_RFC2544_LOAD_PLACED) {
			bool placed = p->load_from[i] == APP_RFC2544_LOAD_PLACED;

			dev_add(p, APP_RFC2544_DEV_CEILING, line_bps > 0, placed,
				placed ? (p->placed[i].gen_cpu + 1) * 10000.0 + p->placed[i].rx_cpu + 1 : 0);
			break;
		}
	if (o->repeat > 1)
		dev_add(p, APP_RFC2544_DEV_REPEAT, (double)o->repeat, 0, 0);
}

void app_rfc2544_plan_dev_text(const struct app_rfc2544_dev *d, char *buf, size_t len)
{
	switch (d->kind) {
	case APP_RFC2544_DEV_TRIAL:
		snprintf(buf, len, "trials of %g s (RFC 2544: 60 s)", d->a);
		break;
	case APP_RFC2544_DEV_INITIAL:
		snprintf(buf, len, "the search starts with %g s trials while its bounds are wide; "
			 "final bounds are from %g s trials", d->a, d->b);
		break;
	case APP_RFC2544_DEV_SETTLE:
		snprintf(buf, len, "%g s between trials (RFC 2544: 5 s)", d->a);
		break;
	case APP_RFC2544_DEV_DRAIN:
		snprintf(buf, len, "%g s wait for residual frames (RFC 2544: 2 s)", d->a);
		break;
	case APP_RFC2544_DEV_LATENCY:
		snprintf(buf, len, "latency: %u trials of %g s (RFC 2544: 20 of 120 s)", (unsigned int)d->a, d->b);
		break;
	case APP_RFC2544_DEV_B2B:
		snprintf(buf, len, "back-to-back: %u searches (RFC 2544: 50)", (unsigned int)d->a);
		break;
	case APP_RFC2544_DEV_GOALS:
		snprintf(buf, len, "a load is judged from %g s of %g s trials, of which up to %g%% may exceed the "
			 "loss goal (RFC 2544: one trial, none)", d->a, d->b, d->c);
		break;
	case APP_RFC2544_DEV_PDR:
		snprintf(buf, len, "PDR: highest load losing at most %g%% (RFC 2544 reports zero loss only: NDR)", d->a);
		break;
	case APP_RFC2544_DEV_CEILING:
		if (d->b)
			snprintf(buf, len, "maximum load is the tester's ceiling measured through the DUT before the "
				 "search, generator on CPU %d and analyzer on CPU %d as in its trials, not line rate (%s)",
				 (int)(d->c / 10000) - 1, (int)d->c % 10000 - 1, d->a ? "it is lower" : "no line rate known");
		else
			snprintf(buf, len, "maximum load is the tester's calibrated ceiling (back to back), not line "
				 "rate (%s)", d->a ? "it is lower" : "no line rate known");
		break;
	case APP_RFC2544_DEV_REPEAT:
		snprintf(buf, len, "the throughput search ran %llu times per size: NDR and PDR are the median",
			 (unsigned long long)d->a);
		break;
	default:
		snprintf(buf, len, "?");
		break;
	}
}

void app_rfc2544_plan_fill(const struct app_rfc2544_opts *o, const struct app_rfc2544_plan *p, struct rfc2544_cfg *cfg)
{
	cfg->tests = o->tests;
	cfg->nsizes = o->imix ? 0 : o->nsizes;
	memcpy(cfg->sizes, o->sizes, sizeof(o->sizes));
	cfg->precision = o->precision;
	cfg->pdr_ratio = o->pdr;
	cfg->exceed_ratio = o->exceed;
	cfg->duration_sum_ns = p->dsum_ns;
	cfg->final_ns = p->final_ns;
	cfg->initial_ns = p->initial_ns;
	cfg->settle_ns = p->settle_ns;
	cfg->latency_runs = p->latency_runs;
	cfg->latency_ns = p->latency_ns;
	cfg->b2b_runs = p->b2b_runs;
	cfg->b2b_max_ns = p->b2b_max_ns;
	cfg->repeats = p->repeats;
	cfg->nmore = p->nmore;
	memcpy(cfg->more, p->more, sizeof(cfg->more));
	for (unsigned int i = 0; i < p->nrows; i++) {
		cfg->max_load[i] = p->max_load[i];
		cfg->max_is_ceiling[i] = p->load_from[i] == APP_RFC2544_LOAD_CEILING ||
					 p->load_from[i] == APP_RFC2544_LOAD_PLACED;
		cfg->max_from[i] = p->load_from[i] == APP_RFC2544_LOAD_CEILING || p->load_from[i] == APP_RFC2544_LOAD_PLACED
					   ? RFC2544_MAX_CEILING
				   : p->load_from[i] == APP_RFC2544_LOAD_GIVEN ? RFC2544_MAX_GIVEN : RFC2544_MAX_LINE;
	}
	cfg->min_load = p->min_load;
}

void app_rfc2544_plan_sizes_text(const struct app_rfc2544_opts *o, char *buf, size_t len)
{
	if (o->imix)
		snprintf(buf, len, "imix");
	else
		units_sizes_join(buf, len, o->sizes, o->nsizes);
}

void app_rfc2544_plan_estimate(const struct app_rfc2544_opts *o, const struct app_rfc2544_plan *p, const struct trial_cfg *base,
			bool placed, struct app_rfc2544_plan_estimate *e)
{
	double wait = (double)(base->learn_wait_ns + base->drain_ns + p->settle_ns) / NSEC_PER_SEC;
	double fin = (double)p->final_ns / NSEC_PER_SEC, ini = (double)p->initial_ns / NSEC_PER_SEC;
	double rows = p->nrows ? p->nrows : 1, n, per;
	unsigned int trials = 0;
	double secs = 0;

	if (o->tests & (RFC2544_THROUGHPUT | RFC2544_LATENCY | RFC2544_B2B)) {
		n = ceil(log2(1 / (o->precision > 0 ? o->precision : 0.005))) + 4;
		/* a goal duration sum of k trials asks each final load k times */
		per = n / 2 * (ini + wait) + n / 2 * (fin + wait) * (p->dsum_ns > p->final_ns ?
								    (double)p->dsum_ns / (double)p->final_ns : 1);
		trials += (unsigned int)(rows * (p->repeats ? p->repeats : 1) * n);
		secs += rows * (p->repeats ? p->repeats : 1) * per;
		/* each further goal set's search, at its own durations */
		for (unsigned int k = 0; k < p->nmore && (o->tests & RFC2544_THROUGHPUT); k++) {
			const struct rfc2544_goalset *g = &p->more[k];
			double gf = (double)g->final_ns / NSEC_PER_SEC, gi = (double)g->initial_ns / NSEC_PER_SEC;
			double gn = ceil(log2(1 / (g->precision > 0 ? g->precision : 0.005))) + 4;
			double gd = g->duration_sum_ns > g->final_ns ? (double)g->duration_sum_ns / (double)g->final_ns : 1;

			trials += (unsigned int)(rows * (p->repeats ? p->repeats : 1) * gn);
			secs += rows * (p->repeats ? p->repeats : 1) * (gn / 2 * (gi + wait) + gn / 2 * (gf + wait) * gd);
		}
	}
	if (o->tests & RFC2544_LATENCY) {
		trials += (unsigned int)(rows * p->latency_runs);
		secs += rows * p->latency_runs * ((double)p->latency_ns / NSEC_PER_SEC + wait);
	}
	if (o->tests & RFC2544_LOSS) {
		trials += (unsigned int)(rows * 4);
		secs += rows * 4 * (fin + wait);
	}
	if (o->tests & RFC2544_B2B) {
		trials += (unsigned int)(rows * p->b2b_runs * 8);
		secs += rows * p->b2b_runs * 8 * ((double)p->b2b_max_ns / 2 / NSEC_PER_SEC + wait);
	}
	if (placed) {
		trials += (unsigned int)(rows * 6);
		secs += rows * 6 * (0.5 + (double)(base->learn_wait_ns + base->drain_ns) / NSEC_PER_SEC);
	}
	e->trials = trials;
	e->seconds = secs;
}
