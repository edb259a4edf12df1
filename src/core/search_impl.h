/* The search's private state (search.c drives it, search_class.c reads
 * its trials for each goal). */
#ifndef WR_CORE_SEARCH_IMPL_H
#define WR_CORE_SEARCH_IMPL_H

#include "core/search.h"

#include <math.h>

#define MAX_PHASES	40	/* log4(UINT64_MAX) + 2 */

/* Why a trial was asked for: decides what its result teaches the goal. */
enum search_kind { K_NONE, K_START, K_MID, K_UP, K_DOWN, K_HINT, K_CONFIRM, K_REPEAT };

/* A load's class for one goal (RFC 9971's load classification). */
enum search_cls { C_NONE, C_LOWER, C_UPPER, C_UNDECIDED };

struct search_trial {
	double load;
	uint64_t dur;
	uint64_t tx, rx;
	bool limited;
};

/* One goal: what it asks of a load, and where its own steps stand. */
struct search_goal_state {
	double ratio;		/* loss ratio a trial may reach and still be good */
	double exceed;		/* goal exceed ratio E */
	uint64_t sum_ns;	/* goal duration sum G */
	double sum_per_ns;	/* G per ns of final trial (>= 1) */
	double precision;	/* width goal, frames/s */
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
	double fine;		/* the smallest goal width, frames/s */
	double cap;		/* lowest tester-limited load; INFINITY if none */
	double cap_got;		/* what the generator managed there */
	double ceiling;		/* highest load we may ask for */
	bool stuck;		/* tester-limited at min_load: nothing to measure */
	bool finished;
	unsigned int nphases, phase;
	uint64_t prev_dur;	/* duration of the phase before this one */
	uint64_t dur[MAX_PHASES];
	double scale[MAX_PHASES];	/* a goal's width in phase i: its precision times this */
	struct search_goal_state g[SEARCH_GOALS];
	bool pending;
	double p_load;
	uint64_t p_dur;
	int p_goal;
	enum search_kind p_kind;
	struct search_trial *t;
	unsigned int n;
	unsigned int retries;	/* tester-limited trials run once more */
	uint64_t total_ns;
};

/* What the trials at or above one duration say about one goal. */
struct search_view {
	bool lv, uv;
	double l, u;
	double fr_u;		/* forwarding rate (rx/s) of the trial at u */
	bool noisy;
	double noisy_load;
};

/* One trial, read for one goal. Loss is counted in frames, so the test is
 * loss <= ratio * tx, not a rounded percentage (ratio 0: no loss). */
static inline bool search_passes(const struct search *s, const struct search_trial *t, int goal)
{
	uint64_t loss = t->tx > t->rx ? t->tx - t->rx : 0;

	return (double)loss <= s->g[goal].ratio * (double)t->tx;
}

/* Trials that say something about the DUT: not tester-limited, and below
 * any load the tester was found unable to offer. */
static inline bool search_usable(const struct search *s, const struct search_trial *t, uint64_t min_dur)
{
	return !t->limited && t->dur >= min_dur && t->load < s->cap;
}

static inline bool search_same_load(const struct search *s, double a, double b)
{
	return fabs(a - b) <= s->eps;
}

/* A usable trial (of at least min_dur) at load x. */
static inline bool search_usable_at(const struct search *s, const struct search_trial *t, uint64_t min_dur, double x)
{
	return search_usable(s, t, min_dur) && search_same_load(s, t->load, x);
}

/* Goal goal's width goal in phase i, frames/s. */
static inline double search_width(const struct search *s, int goal, unsigned int i)
{
	return s->g[goal].precision * s->scale[i < s->nphases ? i : s->nphases - 1];
}

/* search_class.c: load x for goal from its usable trials of at least
 * min_dur (*good: their good time, ns); whether trial i is the first
 * usable one of at least min_dur at its load; the goal's relevant bounds
 * from the trials of at least min_dur; its bound as the outcome gives it. */
enum search_cls search_class_load(const struct search *s, int goal, double x, uint64_t min_dur, double *good);
bool search_class_first(const struct search *s, unsigned int i, uint64_t min_dur);
void search_class_view(const struct search *s, int goal, uint64_t min_dur, struct search_view *v);
void search_class_bound(const struct search *s, int goal, struct search_bound *b);

#endif
