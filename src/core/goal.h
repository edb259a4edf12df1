/* Search goals in RFC 9971 (MLRsearch) terms: a Search Goal is its Goal
 * Final Trial Duration, Goal Duration Sum, Goal Loss Ratio and Goal Exceed
 * Ratio (required), and Goal Width and Goal Initial Trial Duration
 * (optional). The RFC's compact notation writes a goal as
 * "<final>f<sum>d<loss>l<exceed>e", durations in seconds, the two ratios
 * in percent: 60f60d0l0e is RFC 2544's zero-loss search with one 60 s
 * trial; 60f120d0l50e is ETSI GS NFV-TST 009's. wirerate adds optional
 * "<width>w" (percent of the load) and "<initial>i" (seconds) after the
 * four, and a name before them, "ndr:60f60d0l0e".
 * Pure parsing; no I/O. */
#ifndef WR_CORE_GOAL_H
#define WR_CORE_GOAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GOAL_NAME_MAX	24	/* name length, bytes, with the NUL */
#define GOAL_MAX	8	/* goals in one search */

struct search_goal {
	char name[GOAL_NAME_MAX];	/* [A-Za-z0-9_-]+; "" when none was given */
	uint64_t final_ns;		/* Goal Final Trial Duration, > 0 */
	uint64_t sum_ns;		/* Goal Duration Sum, >= final_ns */
	double loss_ratio;		/* Goal Loss Ratio, [0, 1) */
	double exceed_ratio;		/* Goal Exceed Ratio, [0, 1) */
	double width;			/* Goal Width, relative to the load, (0, 1); 0 = none */
	uint64_t initial_ns;		/* Goal Initial Trial Duration; 0 = none, else <= final_ns */
};

/* Parse one goal, "[name:]<f>f<d>d<l>l<e>e[<w>w][<i>i]". 0, or -EINVAL
 * with one line in err saying what is wrong. */
int goal_parse(const char *s, struct search_goal *g, char *err, size_t errlen);

/* Write g in the compact notation (with its name, when it has one).
 * Returns what snprintf returns. */
int goal_format(const struct search_goal *g, char *buf, size_t len);

/* The goals of a preset: "rfc2544" (60f60d0l0e), "tst009" (60f120d0l50e),
 * "csit" (CSIT's NDR 1f21d0l50e and PDR 1f21d0.5l50e, width 0.5%),
 * "quick" and "default" (the searches wirerate runs without --goal:
 * NDR 0l0e and PDR 0.5l0e at 2 s or 60 s, width 0.5%). Fills up to max
 * goals; returns how many, or -EINVAL (err filled) for an unknown name. */
int goal_preset(const char *name, struct search_goal *g, unsigned int max, char *err, size_t errlen);

/* The names goal_preset knows, for --help: "rfc2544|tst009|csit|quick|default". */
const char *goal_preset_names(void);

/* Whether goal b is at least as tolerant as goal a, so that RFC 9971's
 * load classification, over the same trials, can never give b a lower
 * Relevant Lower Bound (or Relevant Upper Bound) than a's. With f the
 * final trial duration, G the duration sum, l the loss ratio and E the
 * exceed ratio, b tolerates a when
 *   l_b >= l_a        every trial good for a is good for b;
 *   E_b >= E_a        b lets more of its time be bad (and a short bad
 *                     trial is balanced as much for b as for a);
 *   (1 - E_b) G_b <= (1 - E_a) G_a
 *                     b needs no more good time to call a load lower;
 *   E_b G_b >= E_a G_a
 *                     b bears as much bad time before calling it upper;
 *   f_b == f_a, or f_b < f_a when E_a == 0
 *                     a longer trial is full-length for both; with E_a
 *                     0 any bad trial condemns the load for a, so b's
 *                     counting a shorter trial as full-length cannot
 *                     make b stricter (with E_a > 0 it can: a trial
 *                     short for a only is balanced for a, bad for b).
 * Then every load lower for a is lower for b and every load upper for b
 * is upper for a. Width and initial trial duration play no part; names
 * neither. a == b tolerates. */
bool goal_tolerates(const struct search_goal *b, const struct search_goal *a);

/* A Trial Output in RFC 9971 terms, from a trial's intended load
 * (frames/s), the duration the search counts for it, and the frames
 * offered (tx) and forwarded (rx): the Trial Loss Ratio (lost / offered;
 * more received than offered, duplicates, is no loss; nothing offered is
 * no loss), the Trial Effective Duration in seconds (the counted one) and
 * the Trial Forwarding Rate, the load times one less the loss ratio. */
struct trial_output {
	double loss_ratio, effective_s, forwarding_rate;
};
void goal_trial_output(double load, uint64_t duration_ns, uint64_t tx, uint64_t rx, struct trial_output *out);

#endif
