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

/* Goal g's attributes as a search reads them. */
static struct rfc2544_goal_attr attr_of(const struct search_goal *g)
{
	return (struct rfc2544_goal_attr){ .loss_ratio = g->loss_ratio, .exceed_ratio = g->exceed_ratio,
					   .width = g->width, .duration_sum_ns = g->sum_ns };
}

static bool same_attr(const struct rfc2544_goal_attr *a, const struct rfc2544_goal_attr *b)
{
	return a->loss_ratio == b->loss_ratio && a->exceed_ratio == b->exceed_ratio && a->width == b->width &&
	       a->duration_sum_ns == b->duration_sum_ns;
}

/* Goal a's place in search set s: the goal it equals, else a new one at
 * the end; -1 when s is full. */
static int slot_in(struct rfc2544_goalset *s, const struct rfc2544_goal_attr *a)
{
	for (unsigned int k = 0; k < s->ngoals; k++)
		if (same_attr(&s->goal[k], a))
			return (int)k;
	if (s->ngoals >= GOAL_MAX)
		return -1;
	s->goal[s->ngoals] = *a;
	return (int)s->ngoals++;
}

void app_rfc2544_plan_goals(const struct app_rfc2544_opts *o, struct app_rfc2544_plan *p)
{
	struct search_goal g = { .final_ns = p->final_ns, .sum_ns = p->dsum_ns, .exceed_ratio = o->exceed,
				 .width = o->precision, .initial_ns = p->initial_ns };
	/* set 0: the first search, whose goal 0 is the NDR and goal 1 the
	 * PDR (the first lossy goal that shares the NDR's attributes) */
	struct rfc2544_goalset set[GOAL_MAX] = { { .final_ns = p->final_ns, .initial_ns = p->initial_ns,
						 .goal[0] = attr_of(&g), .ngoals = 1 } };
	unsigned int nset = 1;

	p->nmore = 0;
	p->nalso = 0;
	p->first_pdr = 0;
	memset(p->goal_set, 0, sizeof(p->goal_set));
	memset(p->goal_slot, 0, sizeof(p->goal_slot));
	if (!o->ngoals) {
		p->goal[0] = g;
		snprintf(p->goal[0].name, sizeof(p->goal[0].name), "ndr");
		p->ngoal = 1;
		if (o->pdr > 0) {
			p->goal[1] = g;
			p->goal[1].loss_ratio = o->pdr;
			snprintf(p->goal[1].name, sizeof(p->goal[1].name), "pdr");
			p->goal_slot[1] = 1;
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
		struct rfc2544_goal_attr a;
		unsigned int k;
		int slot = -1;

		if (!x->width)
			x->width = o->precision;
		if (!x->initial_ns)
			x->initial_ns = i == 0 ? p->initial_ns : initial_for(x->final_ns, o->quick);
		a = attr_of(x);
		/* the row's PDR: the first lossy goal with the NDR's attributes */
		if (x->final_ns == set[0].final_ns && x->initial_ns == set[0].initial_ns && a.loss_ratio > 0 &&
		    !p->first_pdr && a.exceed_ratio == set[0].goal[0].exceed_ratio &&
		    a.width == set[0].goal[0].width && a.duration_sum_ns == set[0].goal[0].duration_sum_ns &&
		    set[0].ngoals < GOAL_MAX) {
			/* the PDR is goal 1: what was goal 1 moves to the end */
			if (set[0].ngoals > 1) {
				set[0].goal[set[0].ngoals] = set[0].goal[1];
				for (unsigned int j = 0; j < i; j++)
					if (p->goal_set[j] == 0 && p->goal_slot[j] == 1)
						p->goal_slot[j] = (unsigned char)set[0].ngoals;
			}
			set[0].goal[1] = a;
			set[0].ngoals++;
			p->first_pdr = a.loss_ratio;
			p->goal_set[i] = 0;
			p->goal_slot[i] = 1;
			continue;
		}
		/* the search of its final and initial trial durations, if it
		 * has room; one more otherwise */
		for (k = 0; k < nset; k++)
			if (x->final_ns == set[k].final_ns && x->initial_ns == set[k].initial_ns &&
			    (slot = slot_in(&set[k], &a)) >= 0)
				break;
		if (k == nset) {	/* GOAL_MAX goals at most: a set for each fits */
			set[nset] = (struct rfc2544_goalset){ .final_ns = x->final_ns, .initial_ns = x->initial_ns };
			slot = slot_in(&set[nset++], &a);
		}
		p->goal_set[i] = (unsigned char)k;
		p->goal_slot[i] = (unsigned char)slot;
	}
	/* the first search's goals beyond its NDR and PDR */
	for (unsigned int k = p->first_pdr > 0 ? 2 : 1; k < set[0].ngoals; k++)
		p->also[p->nalso++] = set[0].goal[k];
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
	cfg->nalso = p->nalso;
	memcpy(cfg->also, p->also, sizeof(cfg->also));
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
		double w = o->precision > 0 ? o->precision : 0.005;
		uint64_t dsum = p->dsum_ns;

		/* the first search's finest width and longest duration sum */
		for (unsigned int k = 0; k < p->nalso; k++) {
			if (p->also[k].width > 0 && p->also[k].width < w)
				w = p->also[k].width;
			if (p->also[k].duration_sum_ns > dsum)
				dsum = p->also[k].duration_sum_ns;
		}
		n = ceil(log2(1 / w)) + 4;
		/* a goal duration sum of k trials asks each final load k times */
		per = n / 2 * (ini + wait) + n / 2 * (fin + wait) * (dsum > p->final_ns ?
								    (double)dsum / (double)p->final_ns : 1);
		trials += (unsigned int)(rows * (p->repeats ? p->repeats : 1) * n);
		secs += rows * (p->repeats ? p->repeats : 1) * per;
		/* each further goal set's search, at its own durations */
		for (unsigned int k = 0; k < p->nmore && (o->tests & RFC2544_THROUGHPUT); k++) {
			const struct rfc2544_goalset *g = &p->more[k];
			double gf = (double)g->final_ns / NSEC_PER_SEC, gi = (double)g->initial_ns / NSEC_PER_SEC;
			double gw = 0.005, gn, gd = 1;

			for (unsigned int j = 0; j < g->ngoals; j++) {
				const struct rfc2544_goal_attr *a = &g->goal[j];

				if (a->width > 0 && (j == 0 || a->width < gw))
					gw = a->width;
				if (a->duration_sum_ns > g->final_ns && (double)a->duration_sum_ns / (double)g->final_ns > gd)
					gd = (double)a->duration_sum_ns / (double)g->final_ns;
			}
			gn = ceil(log2(1 / gw)) + 4;

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
