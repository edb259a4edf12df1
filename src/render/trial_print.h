/* A trial's result (engine/trial.h) in text and JSON from the same calls:
 * each direction's block (offered, received, where the loss went, latency,
 * the tester's own drops, pktgen's result line), the two directions'
 * total, the DUT's CPU, what limited the trial; a run's summary over its
 * repeats and what --capture wrote. */
#ifndef WR_RENDER_TRIAL_PRINT_H
#define WR_RENDER_TRIAL_PRINT_H

#include <stdbool.h>

#include "engine/cpucost.h"
#include "engine/trial.h"
#include "io/capture.h"
#include "render/out.h"

/* One direction: label "gen -> sink"; line_bps 0 when unknown. */
void trial_print_dir(struct out *o, const struct trial_dir_result *d, double frame_size,
		    double line_bps, const char *label);

/* Everything after the trial's header: the tester's ceiling (0: none
 * known), the directions named by labels, the total, the CPU, the limit. */
void trial_print_result(struct out *o, const struct trial_result *res, const struct cpucost_result *cr,
		       double ceiling, double line_bps, const char *const *labels);

/* A run's figures over its repeats, the object "summary". */
struct trial_print_summary {
	unsigned int trials;		/* the repeats done */
	double fwd_median, fwd_min, fwd_max;	/* forwarded frames/s */
	double loss_mean;		/* percent */
	unsigned int median_repeat;	/* the repeat nearest the median */
	bool tester_limited, interrupted;
};

void trial_print_summary(struct out *o, const struct trial_print_summary *s);

/* What --capture wrote to path: the file, the frames and why. */
void trial_print_capture(struct out *o, const char *path, const struct capture_stats *cs);

#endif
