#include "core/bisect.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "core/paired.h"

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
	case BISECT_DRIFTED:
		return "cannot tell";
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

/* What the order of the measurements tells: every measurement in the
 * bisection's order, and the ends' reference (what they measured before
 * the first candidate). */
struct order {
	struct ord {
		int64_t seq;
		size_t cand;
		unsigned int k;		/* its index in the candidate's m */
	} *o;
	size_t n;
	struct bisect_cand ref[2];	/* good and bad: their reference values */
	double *refv;
	double *margin;		/* per candidate: its difference from the end it
				 * was judged unlike, percent (NAN: none) */
	bool ends_more;		/* the host moved while the ends were measured */
	double between_pct;	/* how far an end's figure moves from one of its
				 * measurements to the next, percent (steps_sd_pct) */
	unsigned int ends_all[2];	/* the ends' values before the first candidate */
};

static int ord_cmp(const void *x, const void *y)
{
	const struct ord *a = x, *b = y;

	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

static void order_free(struct order *od)
{
	free(od->o);
	free(od->refv);
	free(od->margin);
}

/* The median of a measurement's values. */
static double meas_median(const struct bisect_meas *m)
{
	struct interval iv;

	return m->n && !interval_median(m->v, m->n, INTERVAL_GOAL, &iv) ? iv.median : NAN;
}

/* How far two measurements of one end may differ before the host is
 * said to have moved between them, percent: BISECT_DRIFT_SIGMAS times
 * the spread of the ends' repeats within their measurements (back to
 * back, so the host's drift is not in it), never below the floor's. */
static double ends_within_pct(const struct bisect_cand *c, size_t n, int64_t first)
{
	double ss = 0, sum = 0;
	unsigned int df = 0, nv = 0;

	for (int e = 0; e < 2; e++) {
		const struct bisect_cand *x = &c[e ? n - 1 : 0];

		for (unsigned int k = 0; k < x->nm; k++) {
			const struct bisect_meas *m = &x->m[k];
			double mu = mean(m->v, m->n);

			if (m->seq >= first || m->n < 2)
				continue;
			for (unsigned int j = 0; j < m->n; j++)
				ss += (m->v[j] - mu) * (m->v[j] - mu);
			df += m->n - 1;
			sum += mu * m->n;
			nv += m->n;
		}
	}
	ss = df && sum > 0 ? 100 * sqrt(ss / df) / (sum / nv) : 0;
	return BISECT_DRIFT_SIGMAS * (ss > 100 * BISECT_SIGMA_FLOOR ? ss : 100 * BISECT_SIGMA_FLOOR);
}

static int dbl_cmp(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;

	return a < b ? -1 : a > b;
}

/* How far an end's figure moves from one of its measurements to the next
 * (all of them, the drift checks too), as a standard deviation of one
 * measurement, percent: the median of the steps' sizes in log points,
 * over 0.6745 (a normal's median absolute value) and sqrt 2 (a step is
 * the difference of two). The median, so that one step of the host (one
 * large step) leaves it where it was, while a DUT whose figure moves from
 * one measurement (one lab built) to the next raises it: such an end
 * moves that much without the host moving. 0 with one measurement. */
static double steps_sd_pct(const struct bisect_cand *x)
{
	double st[64], prev = NAN, med;
	unsigned int n = 0;

	for (unsigned int k = 0; k < x->nm && n < 64; k++) {
		double l = log(meas_median(&x->m[k]));

		if (!isfinite(l))
			continue;
		if (isfinite(prev))
			st[n++] = fabs(l - prev);
		prev = l;
	}
	if (!n)
		return 0;
	qsort(st, n, sizeof(*st), dbl_cmp);
	med = n % 2 ? st[n / 2] : (st[n / 2 - 1] + st[n / 2]) / 2;
	return 100 * med / (0.6745 * sqrt(2));
}

/* The order, and each end's reference: its values measured before the
 * first candidate's measurement, since the host last moved: the trailing
 * measurements that agree within ends_within_pct. When that leaves an
 * end fewer than BISECT_END_VALUES values, the ends are measured again
 * (od->ends_more), up to BISECT_END_VALUES_MAX values each; then all of
 * them are its reference. And how far an end's figure moves from one
 * measurement to the next (steps_sd_pct, the larger end's). */
static int order_make(const struct bisect_cand *c, size_t n, struct order *od)
{
	size_t total = 0, nv = 0, at = 0;
	int64_t first = INT64_MAX;
	double lim;

	for (size_t i = 0; i < n; i++) {
		total += c[i].nm;
		for (unsigned int k = 0; k < c[i].nm; k++) {
			nv += c[i].m[k].n;
			if (i && i + 1 < n && c[i].m[k].seq < first)
				first = c[i].m[k].seq;
		}
	}
	od->o = malloc((total + 1) * sizeof(*od->o));
	od->refv = malloc((nv + 1) * sizeof(*od->refv));
	od->margin = malloc(n * sizeof(*od->margin));
	if (!od->o || !od->refv || !od->margin)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		od->margin[i] = NAN;
		for (unsigned int k = 0; k < c[i].nm; k++)
			od->o[od->n++] = (struct ord){ c[i].m[k].seq, i, k };
	}
	qsort(od->o, od->n, sizeof(*od->o), ord_cmp);
	lim = ends_within_pct(c, n, first);
	for (int e = 0; e < 2; e++) {
		const struct bisect_cand *x = &c[e ? n - 1 : 0];
		unsigned int all = 0, from = x->nm, got = 0;
		double lo = INFINITY, hi = -INFINITY, sd;

		for (unsigned int k = 0; k < x->nm; k++)
			if (x->m[k].seq < first)
				all += x->m[k].n;
		/* back from the last, while the medians stay within the limit */
		for (unsigned int k = x->nm; k-- > 0;) {
			double med = meas_median(&x->m[k]);

			if (x->m[k].seq >= first)
				continue;
			lo = med < lo ? med : lo;
			hi = med > hi ? med : hi;
			if (100 * (hi / lo - 1) > lim)
				break;
			from = k;
			got += x->m[k].n;
		}
		if (got < BISECT_END_VALUES && got < all) {
			if (all < BISECT_END_VALUES_MAX)
				od->ends_more = true;
			else
				from = 0;
		}
		od->ref[e] = (struct bisect_cand){ .v = od->refv + at, .rounds = x->rounds, .failed = x->failed };
		od->ends_all[e] = all;
		for (unsigned int k = from; k < x->nm; k++) {
			if (x->m[k].seq >= first)
				continue;
			for (unsigned int j = 0; j < x->m[k].n; j++)
				od->refv[at++] = x->m[k].v[j];
			od->ref[e].n += x->m[k].n;
		}
		sd = steps_sd_pct(x);
		od->between_pct = sd > od->between_pct ? sd : od->between_pct;
	}
	return 0;
}

/* An end's measurement against its reference median, percent. */
static double drift_pct(const struct bisect_meas *m, const struct interval *ref)
{
	return 100 * (meas_median(m) / ref->median - 1);
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

/* The host's level at end measurement p of the order (the end's figure
 * over its reference median), NAN when p is not an end's. */
static double level_at(const struct bisect_cand *c, size_t n, const struct order *od, size_t p,
		       const struct bisect_state *st)
{
	const struct ord *x = &od->o[p];

	if (x->cand && x->cand + 1 < n)
		return NAN;
	return meas_median(&c[x->cand].m[x->k]) / (x->cand ? st->bad_iv.median : st->good_iv.median);
}

/* Candidate i with the order. Each of its measurements lies between two
 * of the ends' (the one before it, and its drift check after it, of its
 * nearer end): the host's level before and after it. A measurement whose
 * two levels disagree beyond the limit was made while the host moved: it
 * counts for nothing (measured again). When the usable ones' ends stayed
 * within the limit of their reference, the ratio decides as without an
 * order, on values divided by the level beside them when it is further
 * than one noise_pct from 1 (a slow drift corrected; nearer, the level's
 * own noise would add more than it takes away); when they moved beyond
 * the limit, the paired difference against the end measured beside each,
 * and the ratio again when the pairs cannot tell.
 * Its margin (the difference from the end it is judged unlike) into od. */
static enum bisect_mark judge_ordered(const struct bisect_cand *c, size_t n, size_t i, struct bisect_state *st,
				      unsigned int max_rounds, struct order *od)
{
	size_t e = 2 * i <= n - 1 ? 0 : n - 1;
	const struct interval *eref = e ? &st->bad_iv : &st->good_iv, *oref = e ? &st->good_iv : &st->bad_iv;
	double a[PAIRED_MAX_ROUNDS], b[PAIRED_MAX_ROUNDS], u[PAIRED_MAX_ROUNDS], gap, mc;
	unsigned int k = 0, nu = 0;
	bool moved = false;
	enum bisect_mark m, emark = e ? BISECT_BAD : BISECT_GOOD;
	struct bisect_cand used;
	struct paired_result r;

	if (c[i].failed)
		return BISECT_SKIP;
	for (size_t p = 1; p + 1 < od->n; p++) {
		const struct bisect_meas *cm, *em;
		double before, after;

		if (od->o[p].cand != i || od->o[p + 1].cand != e)
			continue;
		before = level_at(c, n, od, p - 1, st);
		after = level_at(c, n, od, p + 1, st);
		if (!(fabs(100 * (after / before - 1)) <= st->limit_pct))
			continue;	/* the host moved while it was measured */
		cm = &c[i].m[od->o[p].k];
		em = &c[e].m[od->o[p + 1].k];
		moved |= fabs(100 * (after - 1)) > st->limit_pct;
		for (unsigned int j = 0; j < cm->n && j < em->n && k < PAIRED_MAX_ROUNDS; j++, k++) {
			a[k] = em->v[j];
			b[k] = cm->v[j];
			/* beyond one noise: as if the host were where the ends were */
			u[nu++] = cm->v[j] / (fabs(100 * (after - 1)) > st->noise_pct ? after : 1);
		}
	}
	if (!k)
		return c[i].rounds >= max_rounds ? BISECT_SKIP : c[i].rounds ? BISECT_UNSURE : BISECT_UNTESTED;
	if (moved) {
		/* halfway to the other end in log terms, as a percentage
		 * toward it: for a large difference, half of it in percent
		 * is not halfway */
		gap = 100 * (oref->median / eref->median - 1);
		paired_compare(a, b, k, 100 * fabs(sqrt(oref->median / eref->median) - 1), &r);
		mc = r.diff_pct;
		if (r.verdict == PAIRED_SAME || r.verdict == PAIRED_BETTER || r.verdict == PAIRED_WORSE) {
			struct bisect_cand raw = { .v = b, .n = k, .rounds = c[i].rounds };
			enum bisect_mark rm = judge(&raw, st, max_rounds);

			m = r.verdict == PAIRED_SAME || (mc > 0) != (gap > 0) ? emark : e ? BISECT_GOOD : BISECT_BAD;
			/* the figures as measured say the other end's verdict
			 * outright: either the host moved (the pair is right)
			 * or the end beside it did on its own (a DUT whose
			 * figure jumps from one measurement to the next, a
			 * figure the host's speed does not move alike at both
			 * ends: the ratio is right). Which, no one can say */
			if ((rm == BISECT_GOOD || rm == BISECT_BAD) && rm != m)
				return c[i].rounds >= max_rounds ? BISECT_SKIP : BISECT_UNSURE;
			st->paired++;
			/* unlike the end beside it: differs from it by mc; like
			 * it: from the other end by the gap less mc */
			od->margin[i] = m == emark ? fabs(gap - mc) : fabs(mc);
			return m;
		}
		/* the pairs cannot tell (an end whose own figure moves from
		 * one measurement to the next): the ratio, as below */
	}
	used = (struct bisect_cand){ .v = u, .n = nu, .rounds = c[i].rounds };
	m = judge(&used, st, max_rounds);
	{
		/* divided by a level that the end's own jumps may have made:
		 * when the figures as measured say the opposite outright,
		 * cannot tell */
		struct bisect_cand raw = { .v = b, .n = k, .rounds = c[i].rounds };
		enum bisect_mark rm = judge(&raw, st, max_rounds);

		if ((rm == BISECT_GOOD || rm == BISECT_BAD) && (m == BISECT_GOOD || m == BISECT_BAD) && rm != m)
			return c[i].rounds >= max_rounds ? BISECT_SKIP : BISECT_UNSURE;
	}
	if (m == BISECT_GOOD || m == BISECT_BAD)
		od->margin[i] = 100 * fabs(mean(u, nu) / (m == BISECT_GOOD ? st->bad_iv.median : st->good_iv.median) - 1);
	return m;
}

/* The ends: measured in turn until each has its values, then compared.
 * 1 when the ends decided the action, 0 to go on between them, or
 * -errno. */
static int ends(const struct bisect_cand *g, const struct bisect_cand *b, size_t n, struct bisect_state *st)
{
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
	st->noise_pct = 100 * st->sigma / ((st->good_iv.median + st->bad_iv.median) / 2);
	st->limit_pct = BISECT_DRIFT_SIGMAS * st->noise_pct;
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

/* The last good below the first bad: a good above a bad (a series that
 * is not a step) counts for nothing. */
static void bounds(const enum bisect_mark *marks, size_t n, struct bisect_state *st)
{
	size_t lg = 0, fb = n - 1;

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
}

/* The order's last measurement, when it is an end's drift check. */
static void last_check(const struct bisect_cand *c, size_t n, const struct order *od, struct bisect_state *st)
{
	const struct ord *l = od->n ? &od->o[od->n - 1] : NULL;
	bool after = false;

	for (size_t p = 0; l && p + 1 < od->n; p++)
		after |= od->o[p].cand && od->o[p].cand + 1 < n;
	if (!l || !after || (l->cand && l->cand + 1 < n))
		return;
	st->checked = true;
	st->checked_end = l->cand;
	st->checked_for = od->o[od->n - 2].cand && od->o[od->n - 2].cand + 1 < n ? od->o[od->n - 2].cand : n;
	st->checked_pct = drift_pct(&c[l->cand].m[l->k], l->cand ? &st->bad_iv : &st->good_iv);
	st->checked_moved = fabs(st->checked_pct) > st->limit_pct;
	if (st->checked_for < n && od->n >= 3) {
		double lb = level_at(c, n, od, od->n - 3, st), la = level_at(c, n, od, od->n - 1, st);

		st->checked_during_pct = 100 * (la / lb - 1);
		st->checked_during = !(fabs(st->checked_during_pct) <= st->limit_pct);
	}
}

/* Before the end: the good end measured after every candidate. 1 when
 * it is to be measured (st says so), 0 when it was (verdicts by less
 * than its drift are marked). */
static int final_check(const struct bisect_cand *c, size_t n, enum bisect_mark *marks, struct order *od,
		       struct bisect_state *st)
{
	const struct ord *l = &od->o[od->n - 1];

	if (l->cand) {
		st->action = BISECT_MEASURE;
		st->next = 0;
		st->check_next = true;
		st->check_for = n;
		return 1;
	}
	st->final_checked = true;
	st->final_pct = drift_pct(&c[0].m[l->k], &st->good_iv);
	st->drifted = fabs(st->final_pct) > st->limit_pct;
	if (st->drifted)
		for (size_t i = 1; i + 1 < n; i++)
			if ((marks[i] == BISECT_GOOD || marks[i] == BISECT_BAD) && od->margin[i] < fabs(st->final_pct))
				marks[i] = BISECT_DRIFTED;
	return 0;
}

int bisect_decide(const struct bisect_cand *c, size_t n, unsigned int max_rounds, enum bisect_mark *marks,
		  struct bisect_state *st)
{
	struct order od = { 0 };
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
		st->ordered |= c[i].m != NULL;
	}
	marks[0] = c[0].failed ? BISECT_SKIP : BISECT_GOOD;
	marks[n - 1] = c[n - 1].failed ? BISECT_SKIP : BISECT_BAD;
	if (st->ordered && (rc = order_make(c, n, &od)))
		goto out;
	if (st->ordered && od.ends_more && !c[0].failed && !c[n - 1].failed) {
		st->action = BISECT_MEASURE;
		st->next = od.ends_all[0] <= od.ends_all[1] ? 0 : n - 1;
		st->ends_moved = true;
		goto out;
	}
	if ((rc = ends(st->ordered ? &od.ref[0] : &c[0], st->ordered ? &od.ref[1] : &c[n - 1], n, st)))
		goto out;
	if (st->ordered && od.between_pct > st->noise_pct) {
		st->noise_pct = od.between_pct;
		st->limit_pct = BISECT_DRIFT_SIGMAS * st->noise_pct;
	}
	for (size_t i = 1; i + 1 < n; i++)
		marks[i] = st->ordered ? judge_ordered(c, n, i, st, max_rounds, &od) : judge(&c[i], st, max_rounds);
	if (st->ordered) {
		last_check(c, n, &od, st);
		/* a candidate just measured: its drift check comes first */
		size_t l = od.n ? od.o[od.n - 1].cand : 0;

		if (l && l + 1 < n && !c[l].failed) {
			st->action = BISECT_MEASURE;
			st->next = 2 * l <= n - 1 ? 0 : n - 1;
			st->check_next = true;
			st->check_for = l;
			marks[l] = BISECT_UNSURE;
			bounds(marks, n, st);
			goto out;
		}
	}
	bounds(marks, n, st);
	st->next = pick(marks, st->last_good, st->first_bad, n);
	if (st->next < n) {
		st->action = BISECT_MEASURE;
		goto out;
	}
	if (st->ordered && st->measured && od.n && (rc = final_check(c, n, marks, &od, st)))
		goto out;
	if (st->drifted)
		bounds(marks, n, st);
	st->action = st->first_bad == st->last_good + 1 ? BISECT_FOUND : BISECT_RANGE;
out:
	order_free(&od);
	return rc < 0 ? rc : 0;
}
