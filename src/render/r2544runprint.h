/* An rfc2544 command's run as it prints: the result (text or JSON from
 * the same calls: the run's settings, the deviations from RFC 2544, where
 * each size's maximum load came from, a row per size, where it was
 * stored), and on stderr meanwhile the planned time, a ceiling being
 * measured, and a line per trial (one that updates on a terminal). */
#ifndef WR_RENDER_R2544RUNPRINT_H
#define WR_RENDER_R2544RUNPRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "app/rfc2544plan.h"
#include "app/trialcfg.h"
#include "engine/rfc2544.h"
#include "render/out.h"

struct r2544runprint {
	const struct app_r2544_opts *po;
	const struct trialopt *to;
	const struct app_r2544_plan *plan;
	const struct r2544_result *res;
	int64_t run_id;			/* 0: not stored */
	const char *db;			/* the store's path */
};

void r2544runprint_result(struct out *o, const struct r2544runprint *v);

/* The trial line (an r2544_progress_fn with arg a struct
 * r2544runprint_progress): on a terminal one line that updates;
 * elsewhere (a log, a CI job) one line per trial. Until the first size is
 * done the time left is the plan's estimate less the time spent. */
struct r2544runprint_progress {
	bool tty;			/* stderr is a terminal */
	uint64_t t0;			/* mono_ns at the start */
	double estimate_s;
};

void r2544runprint_progress(void *arg, const struct r2544_progress *p);
void r2544runprint_progress_clear(const struct r2544runprint_progress *pr);

/* Before the maximum loads, which can take minutes: how long the run
 * should take. */
void r2544runprint_planned(const struct app_r2544_estimate *est);
/* A ceiling measured through the DUT: a line on a terminal meanwhile,
 * cleared when done. */
void r2544runprint_measuring(unsigned int size, bool done);

#endif
