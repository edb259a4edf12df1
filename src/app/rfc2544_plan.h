/* The plan of an RFC 2544 run, from what the user asked: the defaults of
 * the RFC (or of --quick), each frame size's maximum load and where it
 * came from, and every deviation from the RFC as data, printed with the
 * result. No host, no lab: the unit tests drive it with fixed inputs. */
#ifndef WR_APP_RFC2544_PLAN_H
#define WR_APP_RFC2544_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/ns.h"
#include "core/units.h"
#include "app/ceiling.h"
#include "core/goal.h"
#include "engine/rfc2544.h"
#include "engine/trial.h"

/* RFC 2544's figures, and the lab's quick ones. */
#define APP_RFC2544_TRIAL_NS		(60 * NSEC_PER_SEC)
#define APP_RFC2544_QUICK_TRIAL_NS	(2 * NSEC_PER_SEC)
#define APP_RFC2544_SETTLE_NS		(5 * NSEC_PER_SEC)
#define APP_RFC2544_QUICK_SETTLE_NS	(500 * NSEC_PER_MSEC)
#define APP_RFC2544_DRAIN_NS		(2 * NSEC_PER_SEC)
#define APP_RFC2544_LATENCY_RUNS		20
#define APP_RFC2544_LATENCY_NS		(120 * NSEC_PER_SEC)
#define APP_RFC2544_B2B_RUNS		50

/* The test names: as given on the command line and stored with the run
 * ("loss"), and as printed over the result ("frame-loss"). */
struct app_rfc2544_test_name {
	unsigned int bit;	/* enum rfc2544_test */
	const char *arg;	/* "loss" */
	const char *title;	/* "frame-loss" */
};
#define APP_RFC2544_NTESTS 4
extern const struct app_rfc2544_test_name app_rfc2544_tests[APP_RFC2544_NTESTS];

/* The names of the tests in bits, in the table's order, separated by one
 * space (title: the printed names, else the arguments), in buf. */
void app_rfc2544_plan_tests_text(unsigned int bits, bool title, char *buf, size_t len);

/* What the user asked (the rfc2544 options as parsed). */
struct app_rfc2544_opts {
	unsigned int tests;		/* enum rfc2544_test bits; 0: throughput */
	unsigned int sizes[RFC2544_MAX_SIZES], nsizes;
	bool imix;			/* one IMIX row (base.sizes) instead of sizes */
	double pdr, precision, exceed;
	struct rate max_load;
	bool max_load_set, quick;
	uint64_t trial_ns, settle_ns;
	bool trial_set, settle_set;
	uint64_t lat_runs, b2b_runs, repeat;
	bool lat_set, b2b_set;
	uint64_t dsum_ns;		/* 0: the trial time */
	uint64_t initial_ns;		/* a goal's Initial Trial Duration; 0: the plan's */
	/* --goal and --preset in order (RFC 9971's Search Goals); none: the
	 * plan derives them from the options above */
	struct search_goal goals[GOAL_MAX];
	unsigned int ngoals;
};

enum app_rfc2544_load_from {
	APP_RFC2544_LOAD_LINE,		/* the line rate */
	APP_RFC2544_LOAD_CEILING,		/* the tester's calibrated ceiling */
	APP_RFC2544_LOAD_PLACED,		/* its ceiling measured in the trial's placement */
	APP_RFC2544_LOAD_GIVEN,		/* --max-load */
};

enum app_rfc2544_dev_kind {
	APP_RFC2544_DEV_TRIAL,		/* a: trial s */
	APP_RFC2544_DEV_INITIAL,		/* a: initial s, b: final s */
	APP_RFC2544_DEV_SETTLE,		/* a: settle s */
	APP_RFC2544_DEV_DRAIN,		/* a: drain s */
	APP_RFC2544_DEV_LATENCY,		/* a: runs, b: trial s */
	APP_RFC2544_DEV_B2B,		/* a: searches */
	APP_RFC2544_DEV_GOALS,		/* a: duration sum s, b: trial s, c: exceed % */
	APP_RFC2544_DEV_PDR,		/* a: PDR loss % */
	APP_RFC2544_DEV_CEILING,		/* a: 1 when a line rate is known (and higher);
					 * b: 1 measured in the trial's placement,
					 * c: (its generator CPU + 1) * 10000 + analyzer
					 * CPU + 1 (-1: not pinned) */
	APP_RFC2544_DEV_REPEAT,		/* a: searches per size */
	APP_RFC2544_DEV_N
};

/* One deviation from RFC 2544: what and by how much. */
struct app_rfc2544_dev {
	enum app_rfc2544_dev_kind kind;
	double a, b, c;
};

struct app_rfc2544_plan {
	uint64_t final_ns, initial_ns, settle_ns, dsum_ns, latency_ns, b2b_max_ns;
	unsigned int latency_runs, b2b_runs, repeats;
	bool goals;			/* more than one trial, or some, decides a load */
	/* the search's goals in RFC 9971 terms: those given, or the options'
	 * (NDR "ndr", and "pdr" with a PDR goal), in the order reported */
	struct search_goal goal[GOAL_MAX];
	unsigned int ngoal;
	/* which search serves each goal: 0 the first (the options' above),
	 * k more[k - 1]: one per further pair of final and initial trial
	 * durations (f and i); and its place among that search's goals
	 * (search_outcome's goal[]): in the first, 0 the NDR, 1 the PDR (with
	 * one), then also[] in order */
	unsigned char goal_set[GOAL_MAX];
	unsigned char goal_slot[GOAL_MAX];
	struct rfc2544_goal_attr also[GOAL_MAX];	/* the first search's further goals */
	unsigned int nalso;
	struct rfc2544_goalset more[GOAL_MAX - 1];
	unsigned int nmore;
	double first_pdr;		/* the first search's lossy goal's ratio, 0: none */
	unsigned int nrows;		/* sizes, or 1 IMIX row */
	double max_load[RFC2544_MAX_SIZES];
	enum app_rfc2544_load_from load_from[RFC2544_MAX_SIZES];
	double min_load;
	/* rows whose max load is APP_RFC2544_LOAD_PLACED: the measurement */
	struct app_ceiling placed[RFC2544_MAX_SIZES];
	struct app_rfc2544_dev dev[APP_RFC2544_DEV_N];
	unsigned int ndev;
};

/* The run's timing from o and base (the trial options as parsed): the
 * RFC's defaults or --quick's, base's drain, learning wait and duration
 * set to match. -EINVAL with a reason when the options contradict. */
int app_rfc2544_plan_timing(const struct app_rfc2544_opts *o, struct trial_cfg *base, struct app_rfc2544_plan *p,
		     char *err, size_t errlen);

/* The search's goals in p->goal: o's, or the options' as goals (with
 * p's durations), each with the width and initial trials it gets where
 * it gave none; and the searches that serve them: the first goal's
 * (the options': its NDR, the first lossy goal sharing the NDR's d, e
 * and w as its PDR, and every other goal of the same f and i), and one
 * more per further pair of f and i. Goals of one search share its trials
 * (RFC 9971), so a more tolerant goal there never reads below a stricter
 * one (goal_tolerates). app_rfc2544_plan_timing calls it. */
void app_rfc2544_plan_goals(const struct app_rfc2544_opts *o, struct app_rfc2544_plan *p);

/* What a run will take, told before it starts: trials and seconds, the
 * tester's ceiling measured through the DUT (placed) included. An
 * estimate from the plan, not a promise: the search decides how many
 * trials it needs. Per search, log2(1 / precision) + 4 trials, half of
 * them at the initial length (10 and 12 were seen at 2% and 0.5% on a
 * shaped lab DUT, 22 a size on a noisy one); each trial also waits for
 * learning, drain and settle.
 * Frame loss: 4 steps; back-to-back: 8 bursts a search; latency: its
 * runs. A ceiling measured in place: 6 trials of 0.5 s a size. */
struct app_rfc2544_plan_estimate {
	unsigned int trials;
	double seconds;
};
void app_rfc2544_plan_estimate(const struct app_rfc2544_opts *o, const struct app_rfc2544_plan *p, const struct trial_cfg *base,
			bool placed, struct app_rfc2544_plan_estimate *e);

/* Every size is a test frame the trial can build (trial_preflight_check):
 * -EINVAL with "--sizes: ..." in err. */
int app_rfc2544_plan_check_sizes(const struct app_rfc2544_opts *o, const struct trial_cfg *base, char *err, size_t errlen);

/* Every size the search will offer fits the links (base resolved). */
int app_rfc2544_plan_check_mtu(const struct app_rfc2544_opts *o, const struct trial_cfg *base, char *err, size_t errlen);

/* Where the maximum loads come from: the link, and the tester's ceiling
 * for a size (0: none), from calib_path under calib_key unless a ceiling
 * function is given. */
struct app_rfc2544_host {
	double line_bps;		/* 0: unknown */
	const char *calib_path, *calib_key;
	double (*ceiling)(void *ctx, unsigned int size);
	void *ctx;
	/* Measures the tester's ceiling for a size in the trial's own
	 * placement (app/ceiling.h); given, it replaces the calibration
	 * (which was measured back to back) for every size. */
	int (*placed)(void *ctx, unsigned int size, struct app_ceiling *out, char *err, size_t errlen);
	bool lab;			/* for the hint: 'calibrate --prefix P' */
	const char *prefix;
};

/* Each row's maximum load: --max-load, else the line rate or the tester's
 * ceiling (in the trial's placement when h->placed is given, else the
 * calibrated one), whichever is lower. -EINVAL with a reason when a row
 * has none; a failed placement measurement's -errno. */
int app_rfc2544_plan_max_loads(const struct app_rfc2544_opts *o, const struct trial_cfg *base,
			const struct app_rfc2544_host *h, struct app_rfc2544_plan *p, char *err, size_t errlen);

/* The deviations from RFC 2544, after timing and max loads. */
void app_rfc2544_plan_deviations(const struct app_rfc2544_opts *o, const struct trial_cfg *base, double line_bps,
			  struct app_rfc2544_plan *p);
/* One deviation as the line printed after "deviation: ". */
void app_rfc2544_plan_dev_text(const struct app_rfc2544_dev *d, char *buf, size_t len);

/* The engine's configuration from the plan (all but base, watch, calib
 * and the hooks, which the caller sets). */
void app_rfc2544_plan_fill(const struct app_rfc2544_opts *o, const struct app_rfc2544_plan *p, struct rfc2544_cfg *cfg);

/* The run's sizes as stored: "64,128,256" or "imix". */
void app_rfc2544_plan_sizes_text(const struct app_rfc2544_opts *o, char *buf, size_t len);

#endif
