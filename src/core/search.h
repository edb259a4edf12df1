/* Throughput search (RFC 2544 section 26.1): NDR (highest load with zero
 * loss) and PDR (highest load whose loss ratio stays within a goal) found
 * in the same search, so that one set of trials answers both, in the style
 * of MLRsearch
 * (draft-ietf-bmwg-mlrsearch). A pure state machine: the caller asks
 * search_next() for a load and a duration, runs that trial, and hands the
 * counts back with search_feed(). No clock, no I/O, no randomness: the same
 * trial results always give the same trials and the same outcome.
 *
 * Phases: the search starts at max_load with short trials (initial_ns) and a
 * wide width goal, then runs phases whose trial durations grow
 * geometrically toward final_ns while the width goal halves each phase, down
 * to precision in the final phase. Every trial classifies for both goals at
 * once (loss 0 passes NDR; loss ratio <= pdr_ratio passes PDR). A
 * reported lower bound is valid only if trials at final_ns measured it;
 * shorter trials can prove an upper bound (RFC 9971): in the final view
 * their bad time counts as bad, less what their good time balances
 * (good_short * E / (1 - E)).
 *
 * Classification (the draft's goal exceed ratio E and goal duration sum
 * G): a load is judged for a goal from the summed durations of its trials
 * at the phase's duration or longer, good (loss within the goal) g and bad
 * b, against G scaled to the phase (G * phase duration / final_ns, the same
 * number of trials' worth in every phase). With m = max(0, G - g - b)
 * still missing, it is an upper bound when even counting the missing time
 * as good the bad share b / max(G, g + b) exceeds E, a lower bound when
 * even counting it as bad (b + m) / max(G, g + b) stays within E, and
 * otherwise undecided: the search measures it again before anything else.
 * The defaults E = 0, G = final_ns are RFC 2544's single-trial reading:
 * one failed trial bounds everything above it.
 *
 * Honesty: the relevant upper bound is the lowest load classified upper
 * (the conservative reading); a load classified lower at or above it (with
 * E = 0: any pass there) marks the bound noisy and is reported, not
 * hidden. A tester-limited trial says nothing about the DUT: it is run
 * once more, and limited again, loads at or above it are never asked again
 * and the result reads "at least".
 */
#ifndef WR_CORE_SEARCH_H
#define WR_CORE_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SEARCH_PHASE_RATIO	4	/* duration growth per phase, about */
#define SEARCH_TESTER_RETRIES	1	/* a tester-limited trial is run again this often */
#define SEARCH_GOALS		8	/* goals one search serves */

/* One goal of a search (RFC 9971's Search Goal less its final and initial
 * trial durations, which the goals of one search share). Every goal reads
 * every trial of the search, whichever goal it was asked for: a trial at
 * least final_ns long is a full-length trial for all of them, good for
 * each goal whose loss ratio it stays within. So a goal at least as
 * tolerant as another (goal.h, goal_tolerates: loss ratio and exceed ratio
 * no lower, no more good time and no less bad time asked) classifies as
 * a lower bound every load the other does, and as an upper bound only
 * loads the other does: its relevant bounds are never below the other's. */
struct search_target {
	double loss_ratio;		/* a trial losing at most this share is good */
	double exceed_ratio;		/* E in [0, 1) */
	uint64_t duration_sum_ns;	/* G; 0 = final_ns */
	double precision;		/* width goal, frames/s; 0 = search_cfg's */
};

struct search_cfg {
	double min_load, max_load;	/* frames/s; max_load = line rate or tester ceiling, whichever is lower */
	double precision;		/* width goal: stop when upper - lower <= precision (frames/s) */
	double pdr_ratio;		/* loss ratio goal for PDR, e.g. 0.005; 0 = NDR only */
	uint64_t final_ns;		/* full trial duration (RFC 2544: 60 s) */
	uint64_t initial_ns;		/* short trials while the bounds are wide (e.g. 1 s) */
	unsigned int max_trials;	/* hard cap, e.g. 200 */
	bool confirm;			/* measure each final lower bound twice (one more
					 * final trial per goal) so a noisy DUT shows */
	double exceed_ratio;		/* goal exceed ratio E in [0, 1): the share of a
					 * load's trial time that may exceed the loss goal */
	uint64_t duration_sum_ns;	/* goal duration sum G: trial time that decides a
					 * load; 0 = final_ns (one trial) */
	/* The goals, when given (ngoals > 0): then pdr_ratio, exceed_ratio
	 * and duration_sum_ns above are not read, goal 0 is the outcome's
	 * ndr and goal 1 (or 0 when alone) its pdr. ngoals 0: goal 0 is the
	 * NDR (loss 0) and, with pdr_ratio > 0, goal 1 the PDR, both with
	 * exceed_ratio, duration_sum_ns and precision. */
	struct search_target goals[SEARCH_GOALS];
	unsigned int ngoals;
};

struct search;

struct search_bound {
	double lower;		/* highest load that passed (at final duration) */
	double upper;		/* lowest load that failed (at final duration), or max_load */
	bool lower_valid, upper_valid;
	bool at_max;		/* lower == max_load: DUT passed everything we could offer ("at least") */
	bool tester_capped;	/* the upper side was a tester limit, not a DUT failure */
	bool noisy;		/* some load both passed and failed at final duration */
	double noisy_load;	/* such a load, when noisy */
	/* The draft's conditional throughput at the lower bound: lower times
	 * (1 - the loss ratio that the duration-weighted 1 - E quantile of
	 * its full-length trials reaches; time missing from G counts as total
	 * loss). With E = 0 the worst trial's forwarding; NDR: lower itself. */
	double cond_tput;
	bool cond_valid;
};

struct search_outcome {
	struct search_bound ndr, pdr;	/* goal[0], and goal[1] (goal[0] when alone) */
	struct search_bound goal[SEARCH_GOALS];	/* each goal's, in search_cfg's order */
	unsigned int ngoals;
	unsigned int trials;
	unsigned int tester_retries;	/* tester-limited trials that were run again */
	uint64_t total_ns;	/* sum of trial durations asked for */
	bool done;		/* width goals met (vs max_trials hit) */
	double ceiling;		/* highest load the tester could measure: max_load, or below a tester limit */
	/* Where the tester fell short, when it did (twice at one load): that
	 * load and what the generator managed there, frames/s; 0 if never.
	 * What a bound capped by the tester says "at least" against. */
	double limit_load, limit_got;
};

/* Start an MLRsearch-style search. Checks cfg and says what is wrong:
 * -EINVAL for min_load <= 0, min_load >= max_load, non-finite values,
 * precision <= 0, pdr_ratio or exceed_ratio outside [0, 1), final_ns 0,
 * initial_ns 0 or above final_ns, duration_sum_ns below final_ns (but 0),
 * max_trials 0; a goal whose ratios, duration sum or precision are out of
 * those ranges, more than SEARCH_GOALS goals; -ENOMEM. NULL on error (err filled). */
struct search *search_create(const struct search_cfg *cfg, char *err, size_t errlen);

/* The reference the benchmark measures against: plain bisection at final
 * duration only, NDR first and then PDR (and any further goal) separately, each from max_load
 * down to the same precision, trusting min_load without measuring it.
 * One trial decides a load (exceed_ratio and duration_sum_ns are ignored).
 * Same cfg checks and the same next/feed/outcome calls. */
struct search *search_create_bisect(const struct search_cfg *cfg, char *err, size_t errlen);

/* Accepts NULL. */
void search_destroy(struct search *s);

/* The next trial to run; false when the search is done (or max_trials
 * reached, or nothing below a tester limit is left to measure). Asking
 * again before search_feed returns the same trial. The load is always in
 * [min_load, max_load] and below any tester-limited load; the duration is
 * one of the phase durations, between initial_ns and final_ns. An
 * undecided load is asked again, each trial counting against max_trials. */
bool search_next(struct search *s, double *load, uint64_t *duration_ns);

/* The result of the trial search_next asked for: frames offered (tx) and
 * received (rx); rx > tx (duplicates) counts as no loss. tester_limited:
 * the tester could not offer/count this load honestly (the trial says
 * nothing about the DUT). The MLRsearch asks for the same trial again, up
 * to SEARCH_TESTER_RETRIES times (a moment's hold-up of the generator is
 * not its limit); limited once more, the search treats loads >= this one
 * as unmeasurable and caps its upper bound below it, reporting the result
 * as "at least". A trial with tx == 0 is taken as tester-limited. Trials
 * after max_trials are ignored. */
void search_feed(struct search *s, double load, uint64_t duration_ns,
		 uint64_t tx, uint64_t rx, bool tester_limited);

/* Where the search stands, from final-duration trials only (valid at any
 * time, final once search_next returned false). With pdr_ratio 0 the PDR
 * is the NDR (out->pdr = out->ndr). Invalid bounds read lower = min_load,
 * upper = ceiling. */
void search_outcome(const struct search *s, struct search_outcome *out);

/* Number of phases and the trial duration and width goal of phase i
 * (0-based; the last is final_ns and precision), for printing the plan. */
unsigned int search_phases(const struct search *s);
void search_phase(const struct search *s, unsigned int i, uint64_t *duration_ns, double *width);

#endif
