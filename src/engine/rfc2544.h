/* The RFC 2544 benchmarks as sequences of trials: throughput (NDR and PDR
 * from one search), latency at the throughput rate, frame loss rate from
 * the maximum load down, and back-to-back bursts (with RFC 9004's
 * correction). Each size is one row of results; the caller prints. */
#ifndef WR_ENGINE_RFC2544_H
#define WR_ENGINE_RFC2544_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/goal.h"
#include "core/interval.h"
#include "core/lossattr.h"
#include "core/noisefloor.h"
#include "core/search.h"
#include "engine/cpucost.h"
#include "engine/trial.h"

struct dut;

#define RFC2544_MAX_SIZES 16
#define RFC2544_MAX_STEPS 24
#define RFC2544_MAX_TRIALS 256
#define RFC2544_MAX_REPEATS 16

enum rfc2544_test {
	RFC2544_THROUGHPUT = 1 << 0,
	RFC2544_LATENCY = 1 << 1,
	RFC2544_LOSS = 1 << 2,
	RFC2544_B2B = 1 << 3,
};

struct rfc2544_trial;
struct rfc2544_row;

/* Where a row's maximum load came from: what an "at least" is against. */
enum rfc2544_max_from {
	RFC2544_MAX_LINE,			/* the line rate: passing it is a value, not a bound */
	RFC2544_MAX_CEILING,		/* the tester's calibrated ceiling */
	RFC2544_MAX_GIVEN,		/* --max-load */
};

/* One goal of a search: what it asks of a load (core/search.h's
 * search_target, with its width a share of the row's maximum load). */
struct rfc2544_goal_attr {
	double loss_ratio, exceed_ratio, width;
	uint64_t duration_sum_ns;	/* 0: the final trial duration */
};

/* One search's goals (RFC 9971): the goals whose final and initial trial
 * durations are these, each classified from every trial of the search
 * (so a more tolerant goal's bounds are never below a stricter one's). */
struct rfc2544_goalset {
	uint64_t final_ns, initial_ns;
	struct rfc2544_goal_attr goal[GOAL_MAX];
	unsigned int ngoals;
};

struct rfc2544_cfg {
	struct trial_cfg base;		/* ports, flows, learning, drain, CPUs */
	unsigned int sizes[RFC2544_MAX_SIZES];
	unsigned int nsizes;		/* 0: base.sizes is one IMIX row */
	unsigned int tests;		/* enum rfc2544_test bits */
	double max_load[RFC2544_MAX_SIZES];	/* frames/s per size: line rate or ceiling */
	bool max_is_ceiling[RFC2544_MAX_SIZES];	/* the tester's ceiling, not line rate */
	enum rfc2544_max_from max_from[RFC2544_MAX_SIZES];
	double min_load;		/* frames/s */
	double precision;		/* fraction of max load, e.g. 0.005 */
	double pdr_ratio;
	double exceed_ratio;		/* the search's goal exceed ratio (0: one trial decides) */
	uint64_t duration_sum_ns;	/* its goal duration sum; 0 = final_ns */
	uint64_t final_ns, initial_ns;
	uint64_t settle_ns;		/* between trials (RFC 2544: 5 s) */
	unsigned int latency_runs;	/* RFC 2544: 20 */
	uint64_t latency_ns;		/* RFC 2544 26.2: 120 s */
	unsigned int b2b_runs;		/* RFC 2544: 50 */
	uint64_t b2b_max_ns;		/* longest burst tried (RFC 2544: 2 s) */
	/* How a trial is run: NULL is trial_run; the unit tests give a
	 * simulated DUT here, so every procedure is tested without traffic. */
	int (*runner)(void *ctx, const struct trial_cfg *t, struct trial_result *res,
		      const volatile sig_atomic_t *stop, char *err, size_t errlen);
	void *runner_ctx;
	/* DUT CPUs to watch on every trial (empty: none), soaked with calib. */
	struct cpuset watch;
	struct dut *dut;		/* where they are read (not owned) */
	bool soak;
	const char *soak_path;
	/* --profile: sample the watched CPUs on every trial (hz 0: the
	 * default; top: entries kept). */
	bool profile;
	unsigned int profile_hz, profile_top;
	/* --repeat N: the throughput search runs N times per size (0 = 1), so
	 * a comparison can tell a change from the DUT's own spread. Latency,
	 * frame loss and back-to-back run once, at the median NDR. */
	unsigned int repeats;
	/* Further goals of the first search (RFC 9971), after its NDR (goal
	 * 0) and PDR (goal 1, with pdr_ratio > 0): goals whose final and
	 * initial trial durations are the first search's but whose loss
	 * ratio, exceed ratio, duration sum or width are not the NDR's and
	 * the PDR's. They read the same trials as the NDR and the PDR. */
	struct rfc2544_goal_attr also[GOAL_MAX];
	unsigned int nalso;
	/* Further searches, one per pair of final and initial trial
	 * durations other than the first search's: each runs after the
	 * first one, in every repeat, with its own trials (test 'g'), which
	 * the first's figures (NDR, PDR, noise floor, cost) never pool. */
	struct rfc2544_goalset more[GOAL_MAX - 1];
	unsigned int nmore;
	/* Hooks (may be NULL), called as results become final so the caller
	 * can store them at once: a crash then loses at most the trial in
	 * flight. A non-zero return stops the run with that error. */
	int (*on_trial)(void *ctx, const struct rfc2544_trial *t, char *err, size_t errlen);
	int (*on_row)(void *ctx, const struct rfc2544_row *row, char *err, size_t errlen);
	void *hook_ctx;
};

struct rfc2544_trial {
	unsigned int size;
	char test;			/* 't' throughput, 'g' a further goal set's search (rfc2544_cfg.more),
					 * 'l' latency, 'f' frame loss, 'b' back-to-back */
	unsigned int goalset;		/* 'g': which (1: more[0]); 0 otherwise */
	double load;
	uint64_t duration_ns;		/* asked, and what the search counts */
	uint64_t elapsed_ns;		/* the traffic's time as measured, 0 unknown */
	uint64_t tx, rx;		/* tx: the load's frames, sent or refused */
	uint64_t dut_refused;		/* of tx, refused by the DUT's full ingress */
	bool tester_limited;
	bool cpu_valid;
	double cpu_busy_pct;		/* DUT CPUs, summed, /proc/stat wall - idle */
	double cpu_soak_pct;		/* summed soak reading, -1 without */
	int soak_trusted;		/* the soak's idle check: 0 none, 1 held, -1 did not */
	double ns_per_frame;		/* DUT CPU per forwarded frame */
	const char *cpu_source;
	unsigned int repeat;		/* which search of the size (0-based); 0 for the other tests */
	/* where each direction's frames were lost, or NULL: the trial's own,
	 * valid during on_trial only (NULL in rfc2544_result.trials) */
	const struct lossattr *loss;
	unsigned int nloss;
	/* with --profile, where the DUT's CPUs spent it (valid during
	 * on_trial only; NULL without one) */
	const struct profile_result *profile;
	/* what limited it (lossattr_limit over the attribution and the DUT's
	 * busiest CPU), and the line that says so */
	enum lossattr_limit_by limit;
	char limit_text[232];
};

struct rfc2544_loss_step {
	double pct;			/* of max load */
	double load;
	uint64_t tx, rx;
	double loss_pct;		/* (in - out) * 100 / in */
	bool tester_limited;
};

struct rfc2544_row {
	unsigned int size;
	double max_load;
	bool max_is_ceiling;
	enum rfc2544_max_from max_from;
	struct search_outcome thr;	/* the repeat with the median NDR */
	bool thr_done;
	/* every repeat of the search, and NDR/PDR over them */
	struct search_outcome rep[RFC2544_MAX_REPEATS];
	double rep_ns_per_frame[RFC2544_MAX_REPEATS];	/* cost at that repeat's NDR, 0 unknown */
	unsigned int nrep;		/* finished searches */
	/* each repeat's further searches (rfc2544_cfg.more), in order */
	struct search_outcome more[RFC2544_MAX_REPEATS][GOAL_MAX - 1];
	double ndr_med, ndr_min, ndr_max;	/* over the repeats with a valid NDR */
	double pdr_med, pdr_min, pdr_max;
	unsigned int ndr_valid;		/* repeats with a valid NDR */
	/* the medians with their order-statistics intervals (core/interval),
	 * over the repeats with a valid bound; *_bound: some repeat's figure
	 * is "at least" (rfc2544_bound_note), so the median is one too */
	struct interval ndr_iv, pdr_iv;
	bool ndr_bound, pdr_bound;
	unsigned int ndr_nbound, pdr_nbound;	/* how many repeats' figures are bounds */
	/* the noise floor from every throughput trial of the size, all
	 * repeats pooled, against the median PDR and NDR */
	struct nf_result nf;
	/* where that sporadic loss went most, with its share:
	 * "dut-ingress ring of dut0 612 of 700 frames"; "" unknown */
	char nf_where[224];
	double ns_per_frame_ndr;	/* DUT CPU per frame at the highest clean full-length load, 0 unknown */
	double ndr_cost_load;
	const char *cpu_source;
	/* latency at the NDR rate, over every frame of every run */
	bool lat_done;
	double lat_load;
	unsigned int lat_runs;
	uint64_t lat_frames;
	uint64_t lat_min, lat_median, lat_p99, lat_p999, lat_max;
	uint64_t lat_pdv;		/* p99.9 - min: delay variation (RFC 8219 style) */
	struct rfc2544_loss_step loss[RFC2544_MAX_STEPS];
	unsigned int nloss;
	bool loss_done;
	/* back-to-back */
	bool b2b_done;
	unsigned int b2b_runs;
	double b2b_avg, b2b_min, b2b_max;	/* frames */
	double b2b_implied_s, b2b_corrected_s;
};

/* Whether the sizes tell one story. A DUT bound by frames (not by bytes
 * or the line) forwards about the same frames/s at every size. Each
 * size's figure lies in a range: its search's lower and upper bound, or
 * with --repeat its interval widened above by one search's width; an
 * "at least" is open above. The sizes
 * agree when their ranges meet. When they do not, each size whose range
 * ends below another's start is explained by what limited the trial that
 * failed just above its figure: the DUT's CPU (that size costs the DUT
 * more), loss while no CPU was saturated (the DUT's CPU away for moments:
 * the host, not the DUT's capacity), a qdisc, the tester. */
struct rfc2544_agree_size {
	unsigned int row;		/* index in rfc2544_result.row */
	double figure;			/* the row's NDR or PDR (the median with repeats) */
	double lo, hi;			/* its range; hi INFINITY: open above */
	bool below;			/* its range ends below another size's start */
	double fail_load;		/* the failing trial's load, 0: none kept */
	enum lossattr_limit_by by;	/* that trial's verdict (LIMIT_UNKNOWN without one) */
	const char *why;		/* its line, in rfc2544_result.trials; "" without one */
};

struct rfc2544_agree {
	unsigned int n;			/* sizes compared: with a figure, not at line rate */
	unsigned int nline;		/* sizes left out: at line rate, bound by bytes */
	bool agree;			/* n >= 2 and every range meets the others */
	bool explained;			/* every size below another has a verdict */
	double lo, hi;			/* where the ranges meet (agree), or the widest gap */
	struct rfc2544_agree_size s[RFC2544_MAX_SIZES];
};

struct rfc2544_result {
	struct rfc2544_row row[RFC2544_MAX_SIZES];
	unsigned int nrows;
	struct rfc2544_agree agree[2];	/* NDR, PDR (throughput runs, two or more sizes) */
	struct rfc2544_trial trials[RFC2544_MAX_TRIALS];
	unsigned int ntrials;		/* kept, at most RFC2544_MAX_TRIALS */
	unsigned int trials_run;
	uint64_t elapsed_ns;
	bool interrupted;
};

struct rfc2544_progress {
	unsigned int size;
	const char *test;
	unsigned int trial;
	double load, loss_pct;
	const struct search_outcome *bounds;	/* throughput only */
	double eta_s;			/* rough estimate of time left, <0 unknown */
};
typedef void (*rfc2544_progress_fn)(void *ctx, const struct rfc2544_progress *p);

/* Whether bound b of outcome o (a search of row) is "at least" a value
 * rather than the value, and why, in why (may be NULL): true when no load
 * failed and what stopped the search was the tester (it fell short, or
 * its calibrated ceiling) or --max-load; then why says where ("at 64 B
 * the tester fell short at 560000 frames/s (the generator managed
 * 540112)"). Passing the line rate is a value ("at line rate" in why,
 * false returned); so is a bound the DUT failed above. A search stopped
 * (trial cap) before any load failed is a bound too, and why says so. */
bool rfc2544_bound_note(const struct rfc2544_row *row, const struct search_outcome *o, bool pdr,
		      char *why, size_t len);

/* One RFC 9971 Goal Result: goal g's Relevant Lower Bound, Relevant
 * Upper Bound and Conditional Throughput in outcome o of row (frames/s,
 * NAN where there is none), and, when the result is irregular, why: the
 * min load failed, the max load was reached (line rate, the tester's
 * ceiling or its limit, --max-load), a load at or above the upper bound
 * passed too, or the search stopped at its trial cap before the width.
 * slot is the goal's place in its search (o->goal[slot]); slot < 0: a
 * goal with a loss ratio reads the search's PDR, one without its NDR. */
struct rfc2544_goal_result {
	double rlb, rub, cond;
	bool at_least;			/* the RLB is "at least" (rfc2544_bound_note) */
	char irregular[256];		/* "" for a regular result */
};
void rfc2544_goal_result(const struct rfc2544_row *row, const struct search_outcome *o, int slot,
			 const struct search_goal *g, struct rfc2544_goal_result *out);

/* Repeat rep's search of goal set set (0: the first, 1: more[0], ...). */
const struct search_outcome *rfc2544_set_outcome(const struct rfc2544_row *row, unsigned int rep, unsigned int set);

/* The sizes' agreement on the NDR (pdr false) or the PDR of res, whose
 * PDR loss goal was pdr_ratio; rfc2544_run fills res->agree with it. */
void rfc2544_agree(const struct rfc2544_result *res, bool pdr, double pdr_ratio, struct rfc2544_agree *out);

/* Run the chosen tests for every size. Rows finished before a stop stay in
 * res; res->interrupted says the rest is missing. */
int rfc2544_run(const struct rfc2544_cfg *cfg, struct rfc2544_result *res,
	      const volatile sig_atomic_t *stop, rfc2544_progress_fn progress,
	      void *pctx, char *err, size_t errlen);

#endif
