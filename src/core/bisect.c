#include "core/bisect.h"

#include <errno.h>
#include <math.h>

const char *bisect_mark_name(enum bisect_mark m)
{
	switch (m) {
	case BISECT_GOOD:
		return "good";
	case BISECT_BAD:
		return "bad";
	case BISECT_UNSURE:
		return "unsure";
	case BISECT_SKIP:
		return "skip";
	default:
		return "untested";
	}
}

double bisect_llr(const double *v, unsigned int n, double g, double b, double sigma)
{
	double s = 0;

	for (unsigned int i = 0; i < n; i++)
		s += ((v[i] - b) * (v[i] - b) - (v[i] - g) * (v[i] - g)) / (2 * sigma * sigma);
	return s;
}

static double mean(const double *v, unsigned int n)
{
	double s = 0;

	for (unsigned int i = 0; i < n; i++)
		s += v[i];
	return n ? s / n : 0;
}

/* The ends' pooled standard deviation about their own means, widened for
 * the few values it rests on, and never below the floor. */
static double ends_sigma(const struct bisect_cand *g, const struct bisect_cand *b)
{
	double mg = mean(g->v, g->n), mb = mean(b->v, b->n), ss = 0, floor;
	unsigned int df = g->n + b->n - 2;

	for (unsigned int i = 0; i < g->n; i++)
		ss += (g->v[i] - mg) * (g->v[i] - mg);
	for (unsigned int i = 0; i < b->n; i++)
		ss += (b->v[i] - mb) * (b->v[i] - mb);
	floor = BISECT_SIGMA_FLOOR * fabs(mg + mb) / 2;
	ss = df ? sqrt(ss / df) * BISECT_SIGMA_SLACK : 0;
	return ss > floor ? ss : floor;
}

/* Which end a measured candidate is, or unsure. */
static enum bisect_mark judge(const struct bisect_cand *c, const struct bisect_state *st, unsigned int max_rounds)
{
	double llr;

	if (c->failed)
		return BISECT_SKIP;
	if (!c->n)
		return c->rounds >= max_rounds ? BISECT_SKIP : BISECT_UNTESTED;
	llr = bisect_llr(c->v, c->n, st->good_iv.median, st->bad_iv.median, st->sigma);
	if (llr >= log(BISECT_ODDS))
		return BISECT_GOOD;
	if (llr <= -log(BISECT_ODDS))
		return BISECT_BAD;
	return c->rounds >= max_rounds ? BISECT_SKIP : BISECT_UNSURE;
}

/* The ends: measured in turn until each has its values, then compared.
 * 1 when the ends decided the action, 0 to go on between them, or
 * -errno. */
static int ends(const struct bisect_cand *c, size_t n, struct bisect_state *st)
{
	const struct bisect_cand *g = &c[0], *b = &c[n - 1];
	struct interval_verdict iv;
	int rc;

	if (g->failed || b->failed) {
		st->action = BISECT_END_FAILED;
		st->next = g->failed ? 0 : n - 1;
		return 1;
	}
	if (g->n < BISECT_END_VALUES || b->n < BISECT_END_VALUES) {
		st->action = BISECT_MEASURE;
		st->next = g->n <= b->n && g->n < BISECT_END_VALUES ? 0 : n - 1;
		return 1;
	}
	if ((rc = interval_median(g->v, g->n, INTERVAL_GOAL, &st->good_iv)) ||
	    (rc = interval_median(b->v, b->n, INTERVAL_GOAL, &st->bad_iv)))
		return rc;
	st->ends_known = true;
	st->sigma = ends_sigma(g, b);
	interval_compare(&st->bad_iv, false, &st->good_iv, false, &iv);
	if (iv.cmp == ICMP_OVERLAP || !(st->sigma > 0)) {
		st->ends_known = false;
		if (g->n < BISECT_END_VALUES_MAX || b->n < BISECT_END_VALUES_MAX) {
			st->action = BISECT_MEASURE;
			st->next = g->n <= b->n && g->n < BISECT_END_VALUES_MAX ? 0 : n - 1;
		} else
			st->action = BISECT_NO_DIFFERENCE;
		return 1;
	}
	return 0;
}

/* The candidate to measure between last good lg and first bad fb: one
 * being measured, else the untested nearest the middle (the lower on a
 * tie); n when none is left. */
static size_t pick(const enum bisect_mark *marks, size_t lg, size_t fb, size_t n)
{
	size_t best = n, mid2 = lg + fb;	/* twice the middle */
	size_t bestd = (size_t)-1;

	for (size_t i = lg + 1; i < fb; i++)
		if (marks[i] == BISECT_UNSURE)
			return i;
	for (size_t i = lg + 1; i < fb; i++) {
		size_t d;

		if (marks[i] != BISECT_UNTESTED)
			continue;
		d = 2 * i > mid2 ? 2 * i - mid2 : mid2 - 2 * i;
		if (d < bestd) {
			bestd = d;
			best = i;
		}
	}
	return best;
}

int bisect_decide(const struct bisect_cand *c, size_t n, unsigned int max_rounds, enum bisect_mark *marks,
		  struct bisect_state *st)
{
	size_t lg = 0, fb;
	int rc;

	*st = (struct bisect_state){ .last_good = 0, .first_bad = n ? n - 1 : 0 };
	if (n < 2 || n > BISECT_MAX_CANDIDATES || !max_rounds)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		for (unsigned int k = 0; k < c[i].n; k++)
			if (!isfinite(c[i].v[k]))
				return -EINVAL;
		marks[i] = c[i].failed ? BISECT_SKIP : BISECT_UNTESTED;
		if (i && i < n - 1 && (c[i].n || c[i].rounds))
			st->measured++;
	}
	marks[0] = c[0].failed ? BISECT_SKIP : BISECT_GOOD;
	marks[n - 1] = c[n - 1].failed ? BISECT_SKIP : BISECT_BAD;
	if ((rc = ends(c, n, st)))
		return rc < 0 ? rc : 0;
	for (size_t i = 1; i + 1 < n; i++)
		marks[i] = judge(&c[i], st, max_rounds);
	/* The last good below the first bad: a good above a bad (a series
	 * that is not a step) counts for nothing. */
	fb = n - 1;
	for (size_t i = 1; i + 1 < n; i++)
		if (marks[i] == BISECT_BAD) {
			fb = i;
			break;
		}
	for (size_t i = 1; i < fb; i++)
		if (marks[i] == BISECT_GOOD)
			lg = i;
	st->last_good = lg;
	st->first_bad = fb;
	st->next = pick(marks, lg, fb, n);
	if (st->next < n)
		st->action = BISECT_MEASURE;
	else
		st->action = fb == lg + 1 ? BISECT_FOUND : BISECT_RANGE;
	return 0;
}
