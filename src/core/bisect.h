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
 * good, or, when skips lie between, one of a range.
 *
 * When the measurements' order is given (each candidate's m: every
 * measurement with its values and its place in the bisection), the host
 * is watched for drift, since this kind of VM steps by ~9% within two
 * minutes while the ends differ by perhaps 10%:
 * - the ends' reference is what they measured before the first
 *   candidate, since the host last moved: each end's trailing
 *   measurements whose medians agree within BISECT_DRIFT_SIGMAS times the
 *   spread of the repeats within a measurement (never below the floor's).
 *   Fewer than BISECT_END_VALUES values so: the ends are measured again
 *   (ends_moved), up to twice BISECT_END_VALUES_MAX values each;
 * - each candidate's measurement is followed by one of its nearer end (in
 *   position), the drift check, so it lies between two ends' measurements:
 *   the host's level before and after it (an end's figure over its
 *   reference). The limit (limit_pct) is BISECT_DRIFT_SIGMAS times the
 *   ends' noise: the larger of their values' spread and of how far an
 *   end's figure moves from one of its measurements to the next (the
 *   median step, so one step of the host leaves it alone while a DUT
 *   whose figure jumps from one built lab to the next raises it). Levels
 *   before and after that disagree beyond it: the host moved while the
 *   candidate was measured, and that measurement counts for nothing;
 * - when the level after the usable measurements is within limit_pct of
 *   the reference, the likelihood ratio decides (on values divided by the
 *   level when it is further than one noise from 1; "cannot tell" when
 *   the values as measured say the opposite outright); beyond it, the host
 *   moved, and the candidate is judged on its paired difference against
 *   the end measured beside it (core/paired.h: repeat k of the one
 *   against repeat k of the other, over all such pairs; the threshold
 *   halfway to the other end in log terms): "same" is the end's verdict,
 *   a change toward the other end that end's, away from it the end's too.
 *   A pair that cannot tell leaves it to the ratio; a pair that the ratio
 *   on the figures as measured contradicts outright is "cannot tell"
 *   (measured again): the host moved, or the end did on its own, and no
 *   one can say which;
 * - before the bisection ends, the good end is measured once more (the
 *   last drift check may be it): beyond limit_pct, the host drifted by
 *   that much, and every verdict between the ends whose difference from
 *   the end it was judged unlike is smaller than the drift becomes
 *   BISECT_DRIFTED ("cannot tell"), counted as a skip: the result may
 *   become a range, never a further measurement.
 */
#ifndef WR_CORE_BISECT_H
#define WR_CORE_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/interval.h"

#define BISECT_MAX_CANDIDATES	100000
#define BISECT_END_VALUES	6	/* per end: a 97% interval of the median */
#define BISECT_END_VALUES_MAX	12	/* per end, when 6 each did not tell them apart */
#define BISECT_ODDS		100.0	/* likelihood ratio for a verdict */
#define BISECT_SIGMA_SLACK	1.25
#define BISECT_SIGMA_FLOOR	0.005
#define BISECT_DRIFT_SIGMAS	3.0	/* an end this far from its reference: the host moved */

enum bisect_mark {
	BISECT_UNTESTED,
	BISECT_GOOD,
	BISECT_BAD,
	BISECT_UNSURE,		/* measured, no verdict yet */
	BISECT_SKIP,		/* failed to build/boot/apply (the caller's) or never told */
	BISECT_DRIFTED,		/* judged, but by less than the host drifted: cannot tell */
};

/* One measurement of a candidate: its values (a --repeat each) and its
 * place in the bisection's order (a stored run's id: later is larger). */
struct bisect_meas {
	const double *v;
	unsigned int n;
	int64_t seq;
};

struct bisect_cand {
	const double *v;	/* its values so far, pooled over rounds */
	unsigned int n;
	unsigned int rounds;	/* measurements made */
	bool failed;		/* could not be built, booted or configured: skip */
	const struct bisect_meas *m;	/* its measurements (their values are
					 * those of v), oldest first; NULL on
					 * every candidate: no order, no drift
					 * checks */
	unsigned int nm;
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
	/* With the order (drift checks): */
	bool ordered;
	bool ends_moved;	/* BISECT_MEASURE: the ends again, the host moved
				 * while they were measured */
	double noise_pct;	/* the ends' noise: sigma over their mean, percent */
	double limit_pct;	/* BISECT_DRIFT_SIGMAS times noise_pct */
	bool check_next;	/* BISECT_MEASURE: next is an end, a drift check */
	size_t check_for;	/* the candidate it is measured beside; n: the final one */
	/* the last measurement, when it was an end's drift check: */
	bool checked;
	size_t checked_end, checked_for;	/* the end; the candidate before it, or n */
	double checked_pct;	/* the end against its reference, percent */
	bool checked_moved;	/* beyond limit_pct */
	bool checked_during;	/* the host moved while the candidate was measured
				 * (the ends before and after it disagree beyond
				 * limit_pct): that measurement counts for nothing */
	double checked_during_pct;	/* after against before, percent */
	/* the final check of the good end: */
	bool final_checked;
	double final_pct;	/* the good end against its reference, percent */
	bool drifted;		/* beyond limit_pct: verdicts by less are BISECT_DRIFTED */
	unsigned int paired;	/* candidates judged on a paired difference */
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

/* A mark's name: "untested", "good", "bad", "unsure", "skip", "cannot tell". */
const char *bisect_mark_name(enum bisect_mark m);

#endif
