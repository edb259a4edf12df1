/* What a bisection decides from what it has measured: each candidate
 * good, bad, not yet known, or skipped, and what to measure next. A pure
 * function of the figures: 'wirerate bisect' stores the figures and
 * derives the rest again on every step, so a resumed bisection makes the
 * same decisions as one that never stopped.
 *
 * Candidates are in order, c[0] the good end and c[n-1] the bad end
 * (which side is higher comes from their figures: an NDR falls, a CPU
 * cost rises). Every measurement of a candidate adds values (a --repeat
 * of the test each); its values are pooled.
 *
 * The ends first. Each is measured until it has BISECT_END_VALUES values
 * (ends alternate, so a drifting host moves both alike); then their
 * medians' order-statistics intervals (core/interval.h, as 'report'
 * compares runs) must be apart. When they are not, both are measured
 * again up to BISECT_END_VALUES_MAX values (more values, a narrower
 * interval); still not apart, good and bad do not differ beyond their
 * noise and the bisection stops there.
 *
 * A candidate between is judged against the two ends by a sequential
 * likelihood ratio: with sigma the ends' pooled spread, each of its
 * values adds ((x - b)^2 - (x - g)^2) / (2 sigma^2) for end medians g
 * and b; good when the sum reaches ln(BISECT_ODDS), bad when it reaches
 * -ln(BISECT_ODDS), else "cannot tell" and measured again, up to
 * max_rounds measurements; after that it is skipped, as 'git bisect skip'
 * does. The spread is the ends' own, made wider by BISECT_SIGMA_SLACK
 * for the few values it comes from and never below BISECT_SIGMA_FLOOR of
 * the ends' mean. A candidate that could not be built, booted or
 * configured is a skip the caller marks; it is never a verdict.
 *
 * Next: the candidate nearest the middle of the last good and first bad
 * that is neither judged nor skipped (one being measured is finished
 * first). When none is left, the first bad is the one after the last
 * good, or, when skips lie between, one of a range. */
#ifndef WR_CORE_BISECT_H
#define WR_CORE_BISECT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/interval.h"

#define BISECT_MAX_CANDIDATES	100000
#define BISECT_END_VALUES	6	/* per end: a 97% interval of the median */
#define BISECT_END_VALUES_MAX	12	/* per end, when 6 each did not tell them apart */
#define BISECT_ODDS		100.0	/* likelihood ratio for a verdict */
#define BISECT_SIGMA_SLACK	1.25
#define BISECT_SIGMA_FLOOR	0.005

enum bisect_mark {
	BISECT_UNTESTED,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_UNSURE,		/* measured, no verdict yet */
	BISECT_SKIP,		/* failed to build/boot/apply (the caller's) or never told */
};

struct bisect_cand {
	const double *v;	/* its values so far, pooled over rounds */
	unsigned int n;
	unsigned int rounds;	/* measurements made */
	bool failed;		/* could not be built, booted or configured: skip */
};

enum bisect_action {
	BISECT_MEASURE,		/* measure next, then decide again */
	BISECT_FOUND,		/* first is the first bad, last the last good */
	BISECT_RANGE,		/* the first bad is one of last+1 .. first: skips between */
	BISECT_NO_DIFFERENCE,	/* the ends do not differ beyond their noise */
	BISECT_END_FAILED,	/* an end could not be built, booted or configured */
};

struct bisect_state {
	enum bisect_action action;
	size_t next;		/* BISECT_MEASURE: the candidate */
	size_t last_good, first_bad;
	struct interval good_iv, bad_iv;	/* the ends' (once both are measured) */
	bool ends_known;
	double sigma;		/* the noise the verdicts use, in the figure's unit */
	unsigned int measured;	/* candidates measured, the ends aside */
};

/* Decide over c[0..n): marks[i] for each candidate (room for n) and *st.
 * max_rounds >= 1 is how often a candidate is measured before it is
 * skipped as "cannot tell"; coverage is the ends' interval goal
 * (INTERVAL_GOAL). 0, or -EINVAL for n < 2, n > BISECT_MAX_CANDIDATES or a
 * value that is not finite; -ENOMEM. */
int bisect_decide(const struct bisect_cand *c, size_t n, unsigned int max_rounds, enum bisect_mark *marks,
		  struct bisect_state *st);

/* The log likelihood ratio of values v[0..n) being the good end's rather
 * than the bad end's (g, b the ends' medians), as bisect_decide sums it. */
double bisect_llr(const double *v, unsigned int n, double g, double b, double sigma);

/* A mark's name: "untested", "good", "bad", "unsure", "skip". */
const char *bisect_mark_name(enum bisect_mark m);

#endif
