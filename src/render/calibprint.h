/* 'wirerate calibrate''s result below the trial's header: its two steps
 * (flat out, paced at 90%), where the host had the generator's and the
 * analyzer's CPUs, the pacing error and the ceiling stored; text and JSON
 * from the same calls. */
#ifndef WR_RENDER_CALIBPRINT_H
#define WR_RENDER_CALIBPRINT_H

#include <stdbool.h>

#include "engine/trial.h"
#include "render/out.h"
#include "store/calib.h"

struct calib_report {
	const struct trial_result *flat, *paced;	/* the two steps */
	struct calib_entry e;		/* the ceiling, as stored */
	double pace_err;		/* % off target, paced */
	bool line;			/* the cache line was measured */
	double line_after;		/* ns after both steps; 0: unknown */
	bool moved;			/* the host moved the CPUs meanwhile */
	int gen_cpu, rx_cpu;		/* the pair the line was timed between */
	const char *path;		/* the generator's path, e.g. "xdp" */
	unsigned int threads;		/* generator threads */
	bool lab;			/* back to back in the lab */
	bool stored;			/* e was stored in calib_path */
	const char *calib_path;
};

void calibprint_report(struct out *o, const struct calib_report *c);

#endif
