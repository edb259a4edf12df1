/* What `wirerate report` shows, loaded from the store and compared: the
 * runs side by side (rows are frame sizes, columns are runs),
 * each cell with the figures behind it and a verdict against the first run
 * (the baseline). The text/JSON/CSV writers (report_print.c) and the
 * HTML+SVG writer (html.c, html_chart.c) read this one model, so they never
 * disagree. */
#ifndef WR_STORE_REPORT_MODEL_H
#define WR_STORE_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/interval.h"
#include "core/noisefloor.h"
#include "core/paired.h"

#define RM_MAX_RUNS 16		/* columns */
#define RM_MAX_IDS 256		/* runs given, their rounds grouped into columns */
#define RM_MAX_ROUNDS PAIRED_MAX_ROUNDS
#define RM_MAX_SIZES 16
#define RM_MAX_LOSS 24

enum rm_verdict {
	RM_NONE,		/* no figure in this run or in the baseline */
	RM_BASELINE,		/* the cell is the baseline itself */
	RM_NOISE,		/* the difference is within the runs' spread */
	RM_BETTER,
	RM_WORSE,
	RM_NOT_COMPARABLE,	/* a bound ("at least") that may be above or below the other */
	RM_CANNOT_TELL,		/* the rounds disagree, or the host drifted, by more than the change */
};

/* Frame loss test: loss at one offered load. */
struct rm_loss_point {
	double offered_pct;	/* of the maximum load */
	double offered_pps;
	double loss_pct;
};

/* One frame size in one run. Throughput figures are over the run's
 * repeats (rfc2544 --repeat N): the median and the spread. */
#define RM_MAX_PROF 10			/* profile entries kept per cell */
#define RM_MAX_GOALS 8			/* search goals kept per cell (core/goal.h's GOAL_MAX) */

/* One search goal's result over a size's repeats (RFC 9971's Goal
 * Result): the medians of its Relevant Lower and Upper Bounds and its
 * Conditional Throughput (NAN: no repeat had one), and how many repeats
 * were irregular, with the first one's reason. */
struct rm_goal {
	char name[24], spec[48];
	double rlb, rub, cond;
	unsigned int repeats, irregular;
	char why[160];
};

struct rm_cell {
	unsigned int size;		/* bytes, with FCS */
	bool have_thr;
	unsigned int repeats;		/* searches that gave an NDR */
	double ndr_med, ndr_min, ndr_max;	/* frames/s */
	double pdr_med;			/* frames/s, 0 unknown */
	double line_pps;		/* line rate for this size, 0 unknown */
	double max_load;		/* the searches' maximum load, frames/s
					 * (the lowest over the repeats), 0 unknown */
	bool tester_limited;		/* the NDR is a bound: "at least" (the tester or
					 * --max-load stopped a search, not the DUT) */
	/* the medians with their order-statistics intervals (core/interval),
	 * over the repeats; pdr_bound: the PDR is "at least" */
	struct interval ndr_iv, pdr_iv;
	bool pdr_bound;
	/* the noise floor under the NDR, read from the stored throughput
	 * trials of every repeat (core/noisefloor): the same reading rfc2544
	 * printed, so runs stored before it was made show it too */
	struct nf_result nf;
	/* latency at the NDR rate, ns; have_lat false when not measured */
	bool have_lat;
	double lat_min, lat_median, lat_p99, lat_p999, lat_max;
	/* frame loss test */
	struct rm_loss_point loss[RM_MAX_LOSS];
	unsigned int nloss;
	/* DUT CPU per forwarded frame at the NDR, ns; 0 unknown */
	double ns_per_frame;
	/* back-to-back frames, 0 not measured */
	double b2b_frames;
	/* where the DUT's CPUs spent the trial (--profile): the NDR's trial
	 * (the highest load that lost nothing, else the highest), or a plain
	 * run's last; shares of its busy samples */
	bool have_prof;
	double prof_busy_pct, prof_softirq_pct;
	unsigned int nprof;
	struct rm_prof { char symbol[64]; double pct; } prof[RM_MAX_PROF];
	/* the search's goals, in their order (none: a run stored before
	 * goals were, or no search) */
	struct rm_goal goal[RM_MAX_GOALS];
	unsigned int ngoal;
	/* plain trials (wirerate trial [--repeat N]): the load offered (all
	 * directions), what came out of the DUT (the offered rate times rx/tx:
	 * the median over the trials, and their range) and the mean loss;
	 * tester_limited when the tester fell short in one */
	bool have_trial;
	unsigned int trials;
	double trial_offered_pps, trial_fwd_pps, trial_fwd_min, trial_fwd_max, trial_loss_pct;
	/* where the plain trials' frames were lost, added up over the trials
	 * and directions (core/lossattr.h's line); have_loss false for runs
	 * stored before the attribution */
	bool have_loss;
	uint64_t loss_lost, loss_over;
	char loss_text[384];
	/* a stream's runs (wirerate stream; one per run of -I) of this
	 * message size: what was received, 10^6 bits/s (the median and the
	 * range), what was sent (the median), the mean loss, the senders, and
	 * netperf's service demand of each end and of the DUT, us per KB (the
	 * medians; < 0: not measured) */
	bool have_stream;
	unsigned int stream_runs, stream_senders;
	double st_recv_mbps, st_recv_min, st_recv_max, st_send_mbps, st_loss_pct;
	double st_send_sd, st_recv_sd, st_dut_sd;
	/* against the baseline's cell of the same size: the NDR, or for plain
	 * trials at the same offered load the forwarded rate, or for a stream
	 * what was received */
	enum rm_verdict verdict;
	double diff_pct;		/* (ndr_med - base) * 100 / base */
	bool diff_at_least;		/* a bound took part: better/worse "at least",
					 * diff_pct is no measure of the change */
	/* the shortfall beyond noise of a "worse" cell, percent of the
	 * baseline: what --fail-on-regression compares */
	double worse_by_pct;
	/* runs in rounds (a matrix's, or stored with --round): the cell's
	 * figure in each round (round_v[round - 1], NAN none: the NDR, the
	 * forwarded rate or the stream's received rate), the paired
	 * comparison with the baseline's rounds when both have two or more
	 * in common (the verdict then comes from it), and else the
	 * baseline's drift: how far its own rounds moved (its range over its
	 * median, percent; a drift check is a round), under which no verdict
	 * is given */
	double round_v[RM_MAX_ROUNDS];
	bool have_paired;
	struct paired_result paired;
	/* a stream's: the DUT's service demand in each round (NAN none), and
	 * its paired comparison with the baseline's (verdict better/worse in
	 * CPU per KB: more is worse), the figure a host under test as the
	 * sender or receiver is judged by */
	double round_sd[RM_MAX_ROUNDS];
	bool have_paired_sd;
	struct paired_result paired_sd;
	enum rm_verdict sd_verdict;
	double drift_pct;
	/* the search's width goal (precision) in frames/s: how exactly one
	 * search places the NDR; the least noise at one repeat */
	double width_pps;
};

struct rm_run {
	int64_t id;
	/* how the report names it: its id, or "K:ID" when the runs come from
	 * several stores (K the store's place among them, from 1) */
	char ref[32];
	char store[256];		/* the store's path; "" when not said */
	char label[64];			/* --label, or "" */
	char when[32];			/* ISO 8601, local time and its UTC offset; "" when the stored
					 * time has no date (out of range) */
	char test[32];			/* "rfc2544 throughput", "trial", ... */
	char kernel[64];		/* kernel release */
	char config[160];		/* the setup in a few words, key=value:
					 * "placement=bound rules=0 dut-cpus=1" */
	bool interrupted;
	int64_t started;		/* Unix time the run started */
	char uuid[40];			/* the run's UUID, "" for one stored before UUIDs */
	char place[192];		/* where it ran, as its header said ("through lab wr- ...") */
	char dut[160];			/* the DUT's name (env dut.name: "lab wr-", "ssh:root@dut"), "" none */
	char cpu_line[128];		/* env cpu.line_ns: "0-1:43.2 ..."; "" unknown */
	/* set by report_db_compare: the host had the CPUs at another distance
	 * than in the baseline (sys/cpulat.h), and what moved */
	bool placement_moved;
	char placement_note[160];
	struct rm_cell cell[RM_MAX_SIZES];
	unsigned int ncells;
	/* its runs when it is rounds of one configuration (the same label,
	 * each stored with its round): their ids and rounds, in the order
	 * given; nrounds 0 for a run without a round. arg: the place of its
	 * first run among those given (its store's). */
	unsigned int nrounds;
	int64_t round_id[RM_MAX_ROUNDS];
	unsigned int round_no[RM_MAX_ROUNDS];
	unsigned int arg;
};

struct report_model {
	char title[128];
	struct rm_run run[RM_MAX_RUNS];	/* run[0] is the baseline */
	unsigned int nruns;
	unsigned int sizes[RM_MAX_SIZES];	/* union of the runs' sizes, ascending */
	unsigned int nsizes;
	double fail_pct;		/* --fail-on-regression, <0 not given */
	bool regression;		/* a cell is worse by more than fail_pct */
};

/* The cell of run r for a frame size, or NULL. */
static inline const struct rm_cell *report_model_cell_of(const struct rm_run *r, unsigned int size)
{
	for (unsigned int i = 0; i < r->ncells; i++)
		if (r->cell[i].size == size)
			return &r->cell[i];
	return (const struct rm_cell *)0;
}


#endif
