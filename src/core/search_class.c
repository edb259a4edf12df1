/* The search's reading of its trials, one goal at a time (RFC 9971's load
 * classification, relevant bounds and conditional throughput). Every goal
 * reads every trial: a trial asked for one goal counts for all of them,
 * so goals that differ only in loss ratio, exceed ratio, duration sum or
 * width are ordered as their attributes are (goal.h, goal_tolerates). */
#include "core/search_impl.h"

#include "core/ns.h"

#include <math.h>
#include <string.h>

/* The load x for one goal, from its usable trials of at least min_dur
 * (see search.h): the goal duration sum scales with min_dur, so every
 * phase asks for as many trials' worth as the final one. *good is the
 * good time (ns). With E = 0 and G = the trial duration, one trial
 * decides, the bad trial first: RFC 2544's reading. */
enum search_cls search_class_load(const struct search *s, int goal, double x, uint64_t min_dur, double *good)
{
	const struct search_goal_state *gl = &s->g[goal];
	double g = 0, b = 0, whole, miss, sum = gl->sum_per_ns * (double)min_dur;
	double e = gl->exceed;
	double gs = 0, bs = 0;
	bool final = min_dur >= s->cfg.final_ns;
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		const struct search_trial *t = &s->t[i];

		if (final && search_usable_at(s, t, 0, x) && t->dur < min_dur) {
			/* RFC 9971: a short trial can prove an upper bound */
			if (search_passes(s, t, goal))
				gs += (double)t->dur;
			else
				bs += (double)t->dur;
			continue;
		}
		if (!search_usable_at(s, t, min_dur, x))
			continue;
		if (search_passes(s, t, goal))
			g += (double)t->dur;
		else
			b += (double)t->dur;
	}
	*good = g;
	/* the RFC's effective bad sum: short bad time not balanced by short
	 * good time (good_short * E / (1 - E)) counts as bad */
	b += fmax(0, bs - gs * e / (1 - e));
	if (g + b <= 0)
		return C_NONE;
	whole = fmax(sum, g + b);
	miss = fmax(0, sum - g - b);
	if (b / whole > e)
		return C_UPPER;		/* even if the missing time were good */
	if ((b + miss) / whole <= e)
		return C_LOWER;		/* even if the missing time were bad */
	return C_UNDECIDED;
}

/* Trial i is the first usable one (of at least min_dur) at its load: each
 * load is classified once. */
bool search_class_first(const struct search *s, unsigned int i, uint64_t min_dur)
{
	unsigned int j;

	if (!search_usable(s, &s->t[i], min_dur))
		return false;
	for (j = 0; j < i; j++)
		if (search_usable_at(s, &s->t[j], min_dur, s->t[i].load))
			return false;
	return true;
}

/* The relevant bounds: the upper is the lowest load classified upper, the
 * lower the highest load classified lower below it (the conservative
 * reading). A lower bound at or above the upper one contradicts it: that
 * is noise (or a non-monotonic DUT), reported with the lowest such load.
 * With E = 0 any pass there does: the same load passing and failing is
 * then a contradiction, while a non-zero E allows for it. */
void search_class_view(const struct search *s, int goal, uint64_t min_dur, struct search_view *v)
{
	uint64_t first_dur = min_dur >= s->cfg.final_ns ? 0 : min_dur;
	unsigned int i;
	double good;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < s->n; i++) {
		const struct search_trial *t = &s->t[i];

		if (!search_class_first(s, i, first_dur) || (v->uv && t->load >= v->u) ||
		    search_class_load(s, goal, t->load, min_dur, &good) != C_UPPER)
			continue;
		v->uv = true;
		v->u = t->load;
	}
	for (i = 0; v->uv && i < s->n; i++) {
		const struct search_trial *t = &s->t[i];

		/* MLRsearch's use of the receive rate: the first failure's */
		if (search_usable_at(s, t, min_dur, v->u) && !search_passes(s, t, goal)) {
			v->fr_u = (double)t->rx * NSEC_PER_SEC / (double)t->dur;
			break;
		}
	}
	for (i = 0; i < s->n; i++) {
		const struct search_trial *t = &s->t[i];
		enum search_cls c;

		if (!search_class_first(s, i, min_dur))
			continue;
		c = search_class_load(s, goal, t->load, min_dur, &good);
		if (v->uv && t->load >= v->u - s->eps) {
			if (good > 0 && (c == C_LOWER || s->g[goal].exceed == 0) &&
			    (!v->noisy || t->load < v->noisy_load)) {
				v->noisy_load = t->load;
				v->noisy = true;
			}
			continue;
		}
		if (c == C_LOWER && (!v->lv || t->load > v->l)) {
			v->lv = true;
			v->l = t->load;
		}
	}
}

static double loss_ratio(const struct search_trial *t)
{
	return t->tx > t->rx ? (double)(t->tx - t->rx) / (double)t->tx : 0;
}

/* RFC 9971's conditional throughput at load x for one goal: the smallest
 * loss ratio r such that the full-length trials losing at most r fill
 * (1 - E) of the whole time (G, or more when more was measured), as a
 * forwarding rate. Time missing from G counts as total loss, so a lower
 * bound, whose good time alone fills (1 - E), never reads worse than its
 * loss goal. */
static double cond_tput(const struct search *s, int goal, double x)
{
	const struct search_goal_state *gl = &s->g[goal];
	double total = 0, need, q = 1;
	unsigned int i, k;

	for (i = 0; i < s->n; i++)
		if (search_usable_at(s, &s->t[i], s->cfg.final_ns, x))
			total += (double)s->t[i].dur;
	need = fmax((double)gl->sum_ns, total) * (1 - gl->exceed);
	for (i = 0; i < s->n; i++) {
		const struct search_trial *t = &s->t[i];
		double r, d = 0;

		if (!search_usable_at(s, t, s->cfg.final_ns, x) || (r = loss_ratio(t)) >= q)
			continue;
		for (k = 0; k < s->n; k++)
			if (search_usable_at(s, &s->t[k], s->cfg.final_ns, x) && loss_ratio(&s->t[k]) <= r)
				d += (double)s->t[k].dur;
		if (d >= need * (1 - 1e-12))
			q = r;
	}
	return x * (1 - q);
}

void search_class_bound(const struct search *s, int goal, struct search_bound *b)
{
	struct search_view v;

	search_class_view(s, goal, s->cfg.final_ns, &v);
	memset(b, 0, sizeof(*b));
	b->lower_valid = v.lv;
	b->upper_valid = v.uv;
	b->lower = v.lv ? v.l : s->cfg.min_load;
	b->upper = v.uv ? v.u : s->ceiling;
	b->at_max = v.lv && v.l >= s->ceiling - s->eps;
	b->tester_capped = isfinite(s->cap) && !v.uv;
	b->noisy = v.noisy;
	b->noisy_load = v.noisy_load;
	b->cond_valid = v.lv;
	b->cond_tput = v.lv ? cond_tput(s, goal, v.l) : 0;
}
