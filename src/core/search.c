#include "core/search_impl.h"

#include "core/ns.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_cfg(const struct search_cfg *c, char *err, size_t errlen)
{
	if (!isfinite(c->min_load) || !isfinite(c->max_load) || c->min_load <= 0) {
		snprintf(err, errlen, "search: min_load %g and max_load %g must be finite and min_load > 0",
			 c->min_load, c->max_load);
		return -EINVAL;
	}
	if (c->min_load >= c->max_load) {
		snprintf(err, errlen, "search: min_load %g must be below max_load %g",
			 c->min_load, c->max_load);
		return -EINVAL;
	}
	if (!isfinite(c->precision) || c->precision <= 0) {
		snprintf(err, errlen, "search: precision %g frames/s must be > 0", c->precision);
		return -EINVAL;
	}
	if (!(c->pdr_ratio >= 0 && c->pdr_ratio < 1)) {
		snprintf(err, errlen, "search: PDR loss ratio %g must be in [0, 1)", c->pdr_ratio);
		return -EINVAL;
	}
	if (!c->final_ns) {
		snprintf(err, errlen, "search: final trial duration must be > 0");
		return -EINVAL;
	}
	if (!c->initial_ns || c->initial_ns > c->final_ns) {
		snprintf(err, errlen,
			 "search: initial trial duration %llu ns must be in 1..%llu (the final duration)",
			 (unsigned long long)c->initial_ns, (unsigned long long)c->final_ns);
		return -EINVAL;
	}
	if (!(c->exceed_ratio >= 0 && c->exceed_ratio < 1)) {
		snprintf(err, errlen, "search: goal exceed ratio %g must be in [0, 1)", c->exceed_ratio);
		return -EINVAL;
	}
	if (c->duration_sum_ns && c->duration_sum_ns < c->final_ns) {
		snprintf(err, errlen,
			 "search: goal duration sum %llu ns must be at least the final trial duration %llu ns",
			 (unsigned long long)c->duration_sum_ns, (unsigned long long)c->final_ns);
		return -EINVAL;
	}
	if (!c->max_trials) {
		snprintf(err, errlen, "search: max_trials must be at least 1");
		return -EINVAL;
	}
	if (c->ngoals > SEARCH_GOALS) {
		snprintf(err, errlen, "search: %u goals, at most %d", c->ngoals, SEARCH_GOALS);
		return -EINVAL;
	}
	for (unsigned int i = 0; i < c->ngoals; i++) {
		const struct search_target *g = &c->goals[i];

		if (!(g->loss_ratio >= 0 && g->loss_ratio < 1) || !(g->exceed_ratio >= 0 && g->exceed_ratio < 1)) {
			snprintf(err, errlen, "search: goal %u: loss ratio %g and exceed ratio %g must be in [0, 1)", i,
				 g->loss_ratio, g->exceed_ratio);
			return -EINVAL;
		}
		if (g->duration_sum_ns && g->duration_sum_ns < c->final_ns) {
			snprintf(err, errlen,
				 "search: goal %u: duration sum %llu ns must be at least the final trial duration %llu ns",
				 i, (unsigned long long)g->duration_sum_ns, (unsigned long long)c->final_ns);
			return -EINVAL;
		}
		if (!(g->precision >= 0 && isfinite(g->precision))) {
			snprintf(err, errlen, "search: goal %u: precision %g frames/s must be >= 0 (0: the search's)", i,
				 g->precision);
			return -EINVAL;
		}
	}
	return 0;
}

/* Durations grow by about SEARCH_PHASE_RATIO per phase from initial_ns to
 * final_ns; the width goal doubles per phase back from precision. The
 * early phases are cheap, so they may be coarse; each phase only has to
 * halve the previous phase's interval, usually in two trials per goal. */
static void plan(struct search *s)
{
	double r = (double)s->cfg.final_ns / (double)s->cfg.initial_ns;
	unsigned int n = 1, i;

	if (r > 1)
		n = 1 + (unsigned int)ceil(log(r) / log(SEARCH_PHASE_RATIO) - 1e-9);
	if (n > MAX_PHASES)
		n = MAX_PHASES;
	s->nphases = n;
	for (i = 0; i < n; i++) {
		double d = (double)s->cfg.initial_ns;

		if (n > 1)
			d *= pow(r, (double)i / (n - 1));
		/* Whole milliseconds read better, when there are any. */
		if (d >= 1e6)
			d = round(d / 1e6) * 1e6;
		s->dur[i] = i == n - 1 ? s->cfg.final_ns : (uint64_t)d;
		if (s->dur[i] < s->cfg.initial_ns)
			s->dur[i] = s->cfg.initial_ns;
		s->scale[i] = ldexp(1, (int)(n - 1 - i));
	}
}

static struct search *create(const struct search_cfg *cfg, bool bisect,
			     char *err, size_t errlen)
{
	struct search *s;

	if (check_cfg(cfg, err, errlen))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (s)
		s->t = calloc(cfg->max_trials, sizeof(*s->t));
	if (!s || !s->t) {
		free(s);
		snprintf(err, errlen, "search: out of memory for %u trials", cfg->max_trials);
		return NULL;
	}
	s->cfg = *cfg;
	if (!cfg->ngoals) {
		/* the NDR and, with a PDR ratio, the PDR: the cfg's pair */
		struct search_target t = { .exceed_ratio = cfg->exceed_ratio,
					   .duration_sum_ns = cfg->duration_sum_ns };

		s->cfg.goals[0] = t;
		s->cfg.ngoals = 1;
		if (cfg->pdr_ratio > 0) {
			t.loss_ratio = cfg->pdr_ratio;
			s->cfg.goals[1] = t;
			s->cfg.ngoals = 2;
		}
	}
	if (!s->cfg.duration_sum_ns || bisect)
		s->cfg.duration_sum_ns = cfg->final_ns;
	if (bisect)
		s->cfg.exceed_ratio = 0;
	s->bisect = bisect;
	s->ngoals = (int)s->cfg.ngoals;
	s->eps = 1e-9 * cfg->max_load;
	s->cap = INFINITY;
	s->ceiling = cfg->max_load;
	s->fine = INFINITY;
	plan(s);
	for (int i = 0; i < s->ngoals; i++) {
		const struct search_target *t = &s->cfg.goals[i];
		struct search_goal_state *g = &s->g[i];

		g->ratio = t->loss_ratio;
		g->exceed = bisect ? 0 : t->exceed_ratio;
		g->sum_ns = t->duration_sum_ns && !bisect ? t->duration_sum_ns : cfg->final_ns;
		g->sum_per_ns = (double)g->sum_ns / (double)cfg->final_ns;
		g->precision = t->precision > 0 ? t->precision : cfg->precision;
		g->ext = search_width(s, i, 0);
		s->fine = fmin(s->fine, g->precision);
	}
	return s;
}

struct search *search_create(const struct search_cfg *cfg, char *err, size_t errlen)
{
	return create(cfg, false, err, errlen);
}

struct search *search_create_bisect(const struct search_cfg *cfg, char *err, size_t errlen)
{
	return create(cfg, true, err, errlen);
}

void search_destroy(struct search *s)
{
	if (!s)
		return;
	free(s->t);
	free(s);
}

unsigned int search_phases(const struct search *s)
{
	return s->bisect ? 1 : s->nphases;
}

void search_phase(const struct search *s, unsigned int i, uint64_t *duration_ns, double *width)
{
	if (s->bisect || i >= s->nphases)
		i = s->nphases - 1;
	*duration_ns = s->dur[i];
	*width = search_width(s, 0, i);
}

/* The lowest load strictly between lo and hi, and askable, that its
 * trials of at least min_dur leave undecided: it needs another trial. */
static bool undecided_in(const struct search *s, int goal, double lo, double hi,
			 uint64_t min_dur, double *out)
{
	bool found = false;
	unsigned int i;
	double good;

	for (i = 0; i < s->n; i++) {
		const struct search_trial *t = &s->t[i];

		if (!search_class_first(s, i, min_dur) || t->load <= lo + s->eps || t->load >= hi - s->eps ||
		    t->load > s->ceiling + s->eps || (found && t->load >= *out) ||
		    search_class_load(s, goal, t->load, min_dur, &good) != C_UNDECIDED)
			continue;
		*out = t->load;
		found = true;
	}
	return found;
}

/* A hint from trials of at least min_dur strictly between lo and hi: the
 * lowest failure (pass false) or the highest pass (pass true). */
static bool hint_in(const struct search *s, int goal, bool pass, double lo, double hi,
		    uint64_t min_dur, double *out)
{
	bool found = false;
	unsigned int i;

	for (i = 0; i < s->n; i++) {
		const struct search_trial *t = &s->t[i];

		if (!search_usable(s, t, min_dur) || search_passes(s, t, goal) != pass ||
		    t->load <= lo + s->eps || t->load >= hi - s->eps)
			continue;
		if (!found || (pass ? t->load > *out : t->load < *out))
			*out = t->load;
		found = true;
	}
	return found;
}

/* Hints prefer the previous phase's trials (longer, so likelier to hold)
 * and fall back to any duration. */
static bool hint(const struct search *s, int goal, bool pass, double lo, double hi, double *out)
{
	return hint_in(s, goal, pass, lo, hi, s->prev_dur, out) ||
	       hint_in(s, goal, pass, lo, hi, 0, out);
}

/* How many usable trials of at least min_dur ran at load x. */
static unsigned int measured(const struct search *s, double x, uint64_t min_dur)
{
	unsigned int i, k = 0;

	for (i = 0; i < s->n; i++)
		if (search_usable_at(s, &s->t[i], min_dur, x))
			k++;
	return k;
}

static double clamp(const struct search *s, double x)
{
	if (x > s->ceiling)
		x = s->ceiling;
	if (x < s->cfg.min_load)
		x = s->cfg.min_load;
	return x;
}

/* A goal is settled in a phase when that phase's trials bracket it within
 * the phase's width, or when it passed the highest load we can offer, or
 * failed the lowest we may ask for. Returns the bracket width (0 for the
 * last two), INFINITY when not settled. */
static double settled(const struct search *s, const struct search_view *v)
{
	if (v->lv && v->l >= s->ceiling - s->eps)
		return 0;
	if (v->uv && v->u <= s->cfg.min_load + s->eps)
		return 0;
	if (v->lv && v->uv)
		return v->u - v->l;
	return INFINITY;
}

/* The next load for one goal in the current phase, or false when the goal
 * is settled in it.
 *
 * The bracket measured at this phase's duration, [lo, hi] (either side may
 * be missing), is narrowed by hints from shorter trials strictly inside
 * it, read conservatively like the bounds (the lowest failure, then the
 * highest pass below it), preferring the last phase's. Unconfirmed hints
 * are re-measured first, the lower one first (a longer trial is likelier
 * to turn a pass into a failure than the reverse). Then: bisect a bracket
 * wider than the phase's width goal; with one side only, search outward in
 * steps that double (external search), downward jumping straight to the
 * measured forwarding rate when that is lower (MLRsearch's use of the
 * receive rate). Every load asked
 * (but a confirmation) is strictly inside the measured bracket, so each
 * trial narrows it or finds its missing side: the search cannot cycle. */
static bool goal_next(struct search *s, int goal, double *load, enum search_kind *kind)
{
	uint64_t d = s->dur[s->phase];
	double w = search_width(s, goal, s->phase), lo, hi, l, u, c = 0, h;
	struct search_goal_state *g = &s->g[goal];
	bool hint_l, hint_u;
	struct search_view v;

	search_class_view(s, goal, d, &v);
	if (settled(s, &v) <= w + s->eps) {
		/* Optionally measure the final lower bound once more: a
		 * noisy DUT then shows as the same load passing and failing
		 * (and the bound moves down), instead of going unseen. */
		if (!s->cfg.confirm || s->phase != s->nphases - 1 || !v.lv ||
		    v.l >= s->ceiling - s->eps || measured(s, v.l, d) > 1)
			return false;
		*load = v.l;
		*kind = K_CONFIRM;
		return true;
	}
	lo = v.lv ? v.l : -INFINITY;
	hi = v.uv ? v.u : INFINITY;
	/* An undecided load first: it is where the bounds are in question. */
	if (undecided_in(s, goal, lo, hi, d, &c)) {
		*load = c;
		*kind = K_REPEAT;
		return true;
	}
	hint_u = hint(s, goal, false, lo, hi, &h);
	u = hint_u ? h : hi;
	hint_l = hint(s, goal, true, lo, u, &h);
	l = hint_l ? h : lo;

	if (isfinite(l) && isfinite(u)) {
		c = (l + u) / 2;
		if (u - l <= w + s->eps)
			c = hint_l ? l : u;
		else if (g->probe_up && !hint_l && !hint_u && l + w < c)
			c = l + w;	/* a step down just passed: the edge is near */
		*kind = hint_l || hint_u ? K_HINT : K_MID;
	} else if (isfinite(l)) {
		c = l;
		if (!hint_l) {
			c = l + g->ext;
			g->ext *= 2;
		}
		*kind = hint_l ? K_HINT : K_UP;
	} else if (isfinite(u)) {
		c = u;
		if (!hint_u) {
			c = u - g->ext;
			if (v.fr_u > 0 && v.fr_u < c)
				c = v.fr_u;
			else
				g->ext *= 2;
		}
		*kind = hint_u ? K_HINT : K_DOWN;
	} else {
		c = s->ceiling;		/* the very first trial: max_load */
		*kind = K_START;
	}
	g->probe_up = false;
	*load = clamp(s, c);
	return true;
}

/* Move to the next phase, skipping intermediate phases whose width goal
 * the current brackets already meet: they would only repeat those loads at
 * a duration that the final phase repeats anyway. */
static void next_phase(struct search *s)
{
	double w[SEARCH_GOALS];
	unsigned int p;
	int goal;
	bool met;

	for (goal = 0; goal < s->ngoals; goal++) {
		struct search_view v;

		search_class_view(s, goal, s->dur[s->phase], &v);
		w[goal] = settled(s, &v);
	}
	s->prev_dur = s->dur[s->phase];
	for (p = s->phase + 1; p < s->nphases - 1; p++) {
		met = true;
		for (goal = 0; goal < s->ngoals; goal++)
			met = met && w[goal] <= search_width(s, goal, p) + s->eps;
		if (!met)
			break;
	}
	s->phase = p;
	for (goal = 0; goal < s->ngoals; goal++) {
		s->g[goal].ext = p < s->nphases ? search_width(s, goal, p) : 0;
		s->g[goal].probe_up = false;
	}
}

static bool mlr_next(struct search *s, double *load, int *goal, enum search_kind *kind)
{
	while (s->phase < s->nphases) {
		for (*goal = 0; *goal < s->ngoals; (*goal)++)
			if (goal_next(s, *goal, load, kind))
				return true;
		if (s->phase == s->nphases - 1) {
			s->finished = true;
			s->phase = s->nphases;
			return false;
		}
		next_phase(s);
	}
	return false;
}

/* Plain RFC 2544 bisection, one goal after the other: max_load first, then
 * halve [min_load, lowest failure] at final duration until it is
 * precision wide. */
static bool bisect_next(struct search *s, double *load, int *goal, enum search_kind *kind)
{
	for (*goal = 0; *goal < s->ngoals; (*goal)++) {
		struct search_goal_state *g = &s->g[*goal];

		if (g->over)
			continue;
		if (!g->started) {
			*load = s->ceiling;
			*kind = K_START;
			return true;
		}
		if (g->hi > s->ceiling)
			g->hi = s->ceiling;
		if (g->hi - g->lo <= g->precision + s->eps) {
			g->over = true;
			continue;
		}
		*load = clamp(s, (g->lo + g->hi) / 2);
		*kind = K_MID;
		return true;
	}
	s->finished = true;
	return false;
}

bool search_next(struct search *s, double *load, uint64_t *duration_ns)
{
	bool ok;

	if (s->pending) {
		*load = s->p_load;
		*duration_ns = s->p_dur;
		return true;
	}
	if (s->finished || s->stuck || s->n >= s->cfg.max_trials)
		return false;
	if (s->bisect)
		ok = bisect_next(s, &s->p_load, &s->p_goal, &s->p_kind);
	else
		ok = mlr_next(s, &s->p_load, &s->p_goal, &s->p_kind);
	if (!ok)
		return false;
	s->p_dur = s->bisect ? s->cfg.final_ns : s->dur[s->phase];
	s->pending = true;
	*load = s->p_load;
	*duration_ns = s->p_dur;
	return true;
}

/* A tester limit at load x: nothing at or above x is asked again. The next
 * ceiling is one precision below x, or the rate the generator actually
 * managed when that is lower, so a far-off limit is not walked down to in
 * precision-sized steps. */
static void tester_limit(struct search *s, const struct search_trial *t)
{
	double got = (double)t->tx * NSEC_PER_SEC / (double)t->dur, c;

	if (t->load < s->cap) {
		s->cap = t->load;
		s->cap_got = got;
	}
	if (s->cap <= s->cfg.min_load + s->eps) {
		s->stuck = true;
		return;
	}
	c = s->cap - s->fine;
	if (got < c)
		c = got;
	if (c < s->cfg.min_load)
		c = s->cfg.min_load;
	if (c < s->ceiling)
		s->ceiling = c;
}

/* A tester-limited trial is run once more, at the same load and duration,
 * before it caps the search. On a shared host the generator's CPU is taken
 * for a moment now and then; one such moment in one trial would otherwise
 * set the ceiling to what the generator managed during it, and a search
 * once walked that way down to min_load read "at least 100 frames/s". A
 * limit that holds twice at one load is the tester's real limit. The
 * bisection reference keeps one trial per load. */
static bool retry_limited(const struct search *s, const struct search_trial *t)
{
	unsigned int i, k = 0;

	if (s->bisect || s->n >= s->cfg.max_trials)
		return false;
	for (i = 0; i < s->n; i++)
		if (s->t[i].limited && search_same_load(s, s->t[i].load, t->load))
			k++;
	return k <= SEARCH_TESTER_RETRIES;
}

static void bisect_feed(struct search *s, const struct search_trial *t)
{
	struct search_goal_state *g;

	if (!s->pending || s->p_goal >= s->ngoals)
		return;
	g = &s->g[s->p_goal];
	if (!g->started) {
		g->started = true;
		if (!t->limited && search_passes(s, t, s->p_goal)) {
			g->over = true;
			return;
		}
		g->lo = s->cfg.min_load;
		g->hi = t->load;
		return;
	}
	if (!t->limited && search_passes(s, t, s->p_goal))
		g->lo = t->load;
	else
		g->hi = t->load;
}

void search_feed(struct search *s, double load, uint64_t duration_ns,
		 uint64_t tx, uint64_t rx, bool tester_limited)
{
	struct search_trial *t;

	if (s->n >= s->cfg.max_trials || !isfinite(load))
		return;
	t = &s->t[s->n++];
	t->load = load;
	t->dur = duration_ns ? duration_ns : 1;
	t->tx = tx;
	t->rx = rx;
	t->limited = tester_limited || !tx;
	s->total_ns += duration_ns;
	if (t->limited) {
		if (retry_limited(s, t)) {
			s->retries++;
			return;		/* still pending: asked again as it was */
		}
		tester_limit(s, t);
	}
	if (s->bisect) {
		bisect_feed(s, t);
	} else if (s->pending && s->p_kind == K_DOWN && !t->limited &&
		   search_passes(s, t, s->p_goal)) {
		s->g[s->p_goal].probe_up = true;
	}
	s->pending = false;
}

void search_outcome(const struct search *s, struct search_outcome *out)
{
	memset(out, 0, sizeof(*out));
	for (int goal = 0; goal < s->ngoals; goal++)
		search_class_bound(s, goal, &out->goal[goal]);
	out->ngoals = (unsigned int)s->ngoals;
	out->ndr = out->goal[0];
	out->pdr = out->goal[s->ngoals > 1 ? 1 : 0];
	out->trials = s->n;
	out->tester_retries = s->retries;
	out->total_ns = s->total_ns;
	out->done = s->finished;
	out->ceiling = s->ceiling;
	if (isfinite(s->cap)) {
		out->limit_load = s->cap;
		out->limit_got = s->cap_got;
	}
}
