/* Two configurations measured in interleaved rounds (each round measures
 * both, A B in one round, B A in the next, or a shuffled order), compared
 * by their per-round differences: a drift of the host between rounds
 * moves both figures of a round alike and falls out of the difference,
 * where back-to-back repeats of A then of B would read it as a change.
 *
 * The verdict: B "worse" or "better" than A only when the interval of the
 * paired difference excludes zero *and* the change is beyond the
 * threshold; "same" (noise) when the interval lies within +-threshold: no
 * change as large as the threshold is there; "cannot tell" otherwise: the
 * rounds disagree too much (the host moved within rounds) to rule out a
 * change of the threshold's size, and the result says so. The rule and
 * its simulated error rates are in docs/confidence.md. A pure function:
 * no I/O, no clock. */
#ifndef WR_CORE_PAIRED_H
#define WR_CORE_PAIRED_H

#include <stdbool.h>

#define PAIRED_MAX_ROUNDS	64
/* The threshold when the caller has none: a change smaller than this is
 * not called (percent of A). */
#define PAIRED_THRESHOLD_PCT	1.0
/* The interval's confidence: 99%, two-sided (docs/confidence.md says
 * why: with the threshold it keeps equal configurations from ever being
 * called different in the simulations, and 5 rounds still see 10%). */
#define PAIRED_LEVEL		0.99

enum paired_verdict {
	PAIRED_NONE,		/* fewer than 2 rounds with both figures */
	PAIRED_SAME,		/* no change as large as the threshold (noise) */
	PAIRED_BETTER,		/* B above A */
	PAIRED_WORSE,		/* B below A */
	PAIRED_CANNOT_TELL,	/* the rounds disagree too much to say */
};

struct paired_result {
	enum paired_verdict verdict;
	unsigned int n;		/* rounds with both figures (finite, > 0) */
	double diff_pct;	/* B against A, percent: the rounds' typical difference */
	double lo_pct, hi_pct;	/* its interval, percent */
	double level;		/* the interval's confidence, 0..1 */
	double drift_pct;	/* how far the host moved across rounds: the larger
				 * of A's and B's range over their median, percent */
	double noise_pct;	/* how much the per-round differences disagree
				 * (their standard deviation), percent */
	int left_out;		/* -1, or the round (index in a, b) the verdict
				 * left out: with 5 rounds or more, one whose
				 * difference lies beyond the others' prediction
				 * interval (the host stepped inside it), when
				 * the others alone give a verdict */
};

/* A and B of each round (a[i], b[i] from round i; a value not finite or
 * not > 0 leaves its round out), compared with threshold_pct (< 0:
 * PAIRED_THRESHOLD_PCT). Round i's difference is 100 ln(b[i] / a[i]);
 * their mean, with a Student-t interval at PAIRED_LEVEL, in percent
 * (100 (e^(x/100) - 1)), makes the verdict. When that says "cannot tell"
 * and one round of 5 or more stands apart, the others alone decide, and
 * left_out says so. Always fills *r; returns r->verdict. */
enum paired_verdict paired_compare(const double *a, const double *b, unsigned int n, double threshold_pct,
				   struct paired_result *r);

/* Student's t distribution with df >= 1 degrees of freedom: P(T <= t),
 * from the regularized incomplete beta function, and its inverse (the
 * t with P(T <= t) = p, 0 < p < 1). NaN for df = 0 or p outside (0, 1).
 * Any level, any df: no table. */
double paired_t_cdf(double t, unsigned int df);
double paired_t_quantile(double p, unsigned int df);

/* "same", "better", "worse", "cannot tell", "" for none. */
const char *paired_verdict_name(enum paired_verdict v);

#endif
