#include "core/search.h"

#include "core/ns.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PHASES	40	/* log4(UINT64_MAX) + 2 */

enum { G_NDR, G_PDR, G_N };

/* Why a trial was asked for: decides what its result teaches the goal. */
enum kind { K_NONE, K_START, K_MID, K_UP, K_DOWN, K_HINT, K_CONFIRM, K_REPEAT };

/* A load's class for one goal (the draft's load classification). */
enum cls { C_NONE, C_LOWER, C_UPPER, C_UNDECIDED };

struct trial {
	double load;
	uint64_t dur;
	uint64_t tx, rx;
	bool limited;
};

struct goal {
	double ext;		/* external search step, doubles per step */
	bool probe_up;		/* a downward step just passed: the edge is near */
	/* bisection reference */
	bool started, over;
	double lo, hi;
};

struct search {
	struct search_cfg cfg;
	bool bisect;
	int ngoals;
	double eps;		/* loads closer than this are the same load */
	double sum_per_ns;	/* goal duration sum per ns of final trial (>= 1) */
	double cap;		/* lowest tester-limited load; INFINITY if none */
	double cap_got;		/* what the generator managed there */
	double ceiling;		/* highest load we may ask for */
	bool stuck;		/* tester-limited at min_load: nothing to measure */
	bool finished;
	unsigned int nphases, phase;
	uint64_t prev_dur;	/* duration of the phase before this one */
	uint64_t dur[MAX_PHASES];
	double width[MAX_PHASES];
	struct goal g[G_N];
	bool pending;
	double p_load;
	uint64_t p_dur;
	int p_goal;
	enum kind p_kind;
	struct trial *t;
	unsigned int n;
	unsigned int retries;	/* tester-limited trials run once more */
	uint64_t total_ns;
};

/* What the trials at or above one duration say about one goal. */
struct view {
	bool lv, uv;
	double l, u;
	double fr_u;		/* forwarding rate (rx/s) of the trial at u */
	bool noisy;
	double noisy_load;
};

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
		s->width[i] = ldexp(s->cfg.precision, (int)(n - 1 - i));
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
	if (!s->cfg.duration_sum_ns || bisect)
		s->cfg.duration_sum_ns = cfg->final_ns;
	if (bisect)
		s->cfg.exceed_ratio = 0;
	s->sum_per_ns = (double)s->cfg.duration_sum_ns / (double)cfg->final_ns;
	s->bisect = bisect;
	s->ngoals = cfg->pdr_ratio > 0 ? 2 : 1;
	s->eps = 1e-9 * cfg->max_load;
	s->cap = INFINITY;
	s->ceiling = cfg->max_load;
	plan(s);
	s->g[G_NDR].ext = s->g[G_PDR].ext = s->width[0];
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
	*width = s->width[i];
}

/* One trial, read for one goal. Loss is counted in frames, so the PDR test
 * is loss <= ratio * tx, not a rounded percentage. */
static bool passes(const struct search *s, const struct trial *t, int goal)
{
	uint64_t loss = t->tx > t->rx ? t->tx - t->rx : 0;

	if (goal == G_NDR)
		return loss == 0;
	return (double)loss <= s->cfg.pdr_ratio * (double)t->tx;
}

/* Trials that say something about the DUT: not tester-limited, and below
 * any load the tester was found unable to offer. */
static bool usable(const struct search *s, const struct trial *t, uint64_t min_dur)
{
	return !t->limited && t->dur >= min_dur && t->load < s->cap;
}

static bool same_load(const struct search *s, double a, double b)
{
	return fabs(a - b) <= s->eps;
}

/* A usable trial (of at least min_dur) at load x. */
static bool usable_at(const struct search *s, const struct trial *t, uint64_t min_dur, double x)
{
	return usable(s, t, min_dur) && same_load(s, t->load, x);
}

/* The load x for one goal, from its usable trials of at least min_dur
 * (see search.h): the goal duration sum scales with min_dur, so every
 * phase asks for as many trials' worth as the final one. *good is the
 * good time (ns). With E = 0 and G = the trial duration, one trial
 * decides, the bad trial first: RFC 2544's reading. */
static enum cls classify(const struct search *s, int goal, double x, uint64_t min_dur, double *good)
{
	double g = 0, b = 0, whole, miss, sum = s->sum_per_ns * (double)min_dur;
	double e = s->cfg.exceed_ratio;
	unsigned int i;

	double gs = 0, bs = 0;
	bool final = min_dur >= s->cfg.final_ns;

	for (i = 0; i < s->n; i++) {
		const struct trial *t = &s->t[i];

		if (final && usable_at(s, t, 0, x) && t->dur < min_dur) {
			/* RFC 9971: a short trial can prove an upper bound */
			if (passes(s, t, goal))
				gs += (double)t->dur;
			else
				bs += (double)t->dur;
			continue;
		}
		if (!usable_at(s, t, min_dur, x))
			continue;
		if (passes(s, t, goal))
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
static bool first_at(const struct search *s, unsigned int i, uint64_t min_dur)
{
	unsigned int j;

	if (!usable(s, &s->t[i], min_dur))
		return false;
	for (j = 0; j < i; j++)
		if (usable_at(s, &s->t[j], min_dur, s->t[i].load))
			return false;
	return true;
}

/* The relevant bounds: the upper is the lowest load classified upper, the
 * lower the highest load classified lower below it (the conservative
 * reading). A lower bound at or above the upper one contradicts it: that
 * is noise (or a non-monotonic DUT), reported with the lowest such load.
 * With E = 0 any pass there does: the same load passing and failing is
 * then a contradiction, while a non-zero E allows for it. */
static void eval(const struct search *s, int goal, uint64_t min_dur, struct view *v)
{
	unsigned int i;
	double good;

	memset(v, 0, sizeof(*v));
	for (i = 0; i < s->n; i++) {
		const struct trial *t = &s->t[i];

		if (!first_at(s, i, min_dur >= s->cfg.final_ns ? 0 : min_dur) || (v->uv && t->load >= v->u) ||
		    classify(s, goal, t->load, min_dur, &good) != C_UPPER)
			continue;
		v->uv = true;
		v->u = t->load;
	}
	for (i = 0; v->uv && i < s->n; i++) {
		const struct trial *t = &s->t[i];

		/* MLRsearch's use of the receive rate: the first failure's */
		if (usable_at(s, t, min_dur, v->u) && !passes(s, t, goal)) {
			v->fr_u = (double)t->rx * NSEC_PER_SEC / (double)t->dur;
			break;
		}
	}
	for (i = 0; i < s->n; i++) {
		const struct trial *t = &s->t[i];
		enum cls c;

		if (!first_at(s, i, min_dur))
			continue;
		c = classify(s, goal, t->load, min_dur, &good);
		if (v->uv && t->load >= v->u - s->eps) {
			if (good > 0 && (c == C_LOWER || s->cfg.exceed_ratio == 0) &&
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

/* The lowest load strictly between lo and hi, and askable, that its
 * trials of at least min_dur leave undecided: it needs another trial. */
static bool undecided_in(const struct search *s, int goal, double lo, double hi,
			 uint64_t min_dur, double *out)
{
	bool found = false;
	unsigned int i;
	double good;

	for (i = 0; i < s->n; i++) {
		const struct trial *t = &s->t[i];

		if (!first_at(s, i, min_dur) || t->load <= lo + s->eps || t->load >= hi - s->eps ||
		    t->load > s->ceiling + s->eps || (found && t->load >= *out) ||
		    classify(s, goal, t->load, min_dur, &good) != C_UNDECIDED)
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
		const struct trial *t = &s->t[i];

		if (!usable(s, t, min_dur) || passes(s, t, goal) != pass ||
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
		if (usable_at(s, &s->t[i], min_dur, x))
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
static double settled(const struct search *s, const struct view *v)
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
static bool goal_next(struct search *s, int goal, double *load, enum kind *kind)
{
	uint64_t d = s->dur[s->phase];
	double w = s->width[s->phase], lo, hi, l, u, c = 0, h;
	struct goal *g = &s->g[goal];
	bool hint_l, hint_u;
	struct view v;

	eval(s, goal, d, &v);
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
	double worst = 0;
	unsigned int p;
	int goal;

	for (goal = 0; goal < s->ngoals; goal++) {
		struct view v;
		double w;

		eval(s, goal, s->dur[s->phase], &v);
		w = settled(s, &v);
		if (w > worst)
			worst = w;
	}
	s->prev_dur = s->dur[s->phase];
	p = s->phase + 1;
	while (p < s->nphases - 1 && worst <= s->width[p] + s->eps)
		p++;
	s->phase = p;
	for (goal = 0; goal < G_N; goal++) {
		s->g[goal].ext = p < s->nphases ? s->width[p] : 0;
		s->g[goal].probe_up = false;
	}
}

static bool mlr_next(struct search *s, double *load, int *goal, enum kind *kind)
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
static bool bisect_next(struct search *s, double *load, int *goal, enum kind *kind)
{
	for (*goal = 0; *goal < s->ngoals; (*goal)++) {
		struct goal *g = &s->g[*goal];

		if (g->over)
			continue;
		if (!g->started) {
			*load = s->ceiling;
			*kind = K_START;
			return true;
		}
		if (g->hi > s->ceiling)
			g->hi = s->ceiling;
		if (g->hi - g->lo <= s->cfg.precision + s->eps) {
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
static void tester_limit(struct search *s, const struct trial *t)
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
	c = s->cap - s->cfg.precision;
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
static bool retry_limited(const struct search *s, const struct trial *t)
{
	unsigned int i, k = 0;

	if (s->bisect || s->n >= s->cfg.max_trials)
		return false;
	for (i = 0; i < s->n; i++)
		if (s->t[i].limited && same_load(s, s->t[i].load, t->load))
			k++;
	return k <= SEARCH_TESTER_RETRIES;
}

static void bisect_feed(struct search *s, const struct trial *t)
{
	struct goal *g;

	if (!s->pending || s->p_goal >= s->ngoals)
		return;
	g = &s->g[s->p_goal];
	if (!g->started) {
		g->started = true;
		if (!t->limited && passes(s, t, s->p_goal)) {
			g->over = true;
			return;
		}
		g->lo = s->cfg.min_load;
		g->hi = t->load;
		return;
	}
	if (!t->limited && passes(s, t, s->p_goal))
		g->lo = t->load;
	else
		g->hi = t->load;
}

void search_feed(struct search *s, double load, uint64_t duration_ns,
		 uint64_t tx, uint64_t rx, bool tester_limited)
{
	struct trial *t;

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
		   passes(s, t, s->p_goal)) {
		s->g[s->p_goal].probe_up = true;
	}
	s->pending = false;
}

static double loss_ratio(const struct trial *t)
{
	return t->tx > t->rx ? (double)(t->tx - t->rx) / (double)t->tx : 0;
}

/* The draft's conditional throughput at load x: the smallest loss ratio r
 * such that the full-length trials losing at most r fill (1 - E) of the
 * whole time (G, or more when more was measured), as a forwarding rate.
 * Time missing from G counts as total loss, so a lower bound, whose good
 * time alone fills (1 - E), never reads worse than its loss goal. */
static double cond_tput(const struct search *s, double x)
{
	double total = 0, need, q = 1;
	unsigned int i, k;

	for (i = 0; i < s->n; i++)
		if (usable_at(s, &s->t[i], s->cfg.final_ns, x))
			total += (double)s->t[i].dur;
	need = fmax((double)s->cfg.duration_sum_ns, total) * (1 - s->cfg.exceed_ratio);
	for (i = 0; i < s->n; i++) {
		const struct trial *t = &s->t[i];
		double r, d = 0;

		if (!usable_at(s, t, s->cfg.final_ns, x) || (r = loss_ratio(t)) >= q)
			continue;
		for (k = 0; k < s->n; k++)
			if (usable_at(s, &s->t[k], s->cfg.final_ns, x) && loss_ratio(&s->t[k]) <= r)
				d += (double)s->t[k].dur;
		if (d >= need * (1 - 1e-12))
			q = r;
	}
	return x * (1 - q);
}

static void bound(const struct search *s, int goal, struct search_bound *b)
{
	struct view v;

	eval(s, goal, s->cfg.final_ns, &v);
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
	b->cond_tput = v.lv ? cond_tput(s, v.l) : 0;
}

void search_outcome(const struct search *s, struct search_outcome *out)
{
	memset(out, 0, sizeof(*out));
	bound(s, G_NDR, &out->ndr);
	if (s->ngoals > 1)
		bound(s, G_PDR, &out->pdr);
	else
		out->pdr = out->ndr;
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
