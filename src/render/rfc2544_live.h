/* An rfc2544 command's run as it prints: the result (text or JSON from
 * the same calls: the run's settings, the deviations from RFC 2544, where
 * each size's maximum load came from, a row per size, where it was
 * stored), and on stderr meanwhile the planned time, a ceiling being
 * measured, and a line per trial (one that updates on a terminal): the
 * printing hooks of an rfc2544 command's run (app_rfc2544_run_go). */
#ifndef WR_RENDER_RFC2544_LIVE_H
#define WR_RENDER_RFC2544_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "app/rfc2544_plan.h"
#include "app/rfc2544_run.h"
#include "app/trial_setup.h"
#include "engine/rfc2544.h"
#include "render/out.h"

struct rfc2544runprint {
	const struct app_rfc2544_opts *po;
	const struct trial_setup *to;
	const struct app_rfc2544_plan *plan;
	const struct rfc2544_result *res;
	int64_t run_id;			/* 0: not stored */
	const char *db;			/* the store's path */
	const struct envcap *sut;	/* the SUT's configuration (run_store ses.sut), or NULL */
	const char *sut_config;		/* its summary */
};

void rfc2544_live_result(struct out *o, const struct rfc2544runprint *v);

/* An rfc2544 run's printing, app_rfc2544_run_go's hooks
 * (rfc2544_live_hooks, ctx a struct rfc2544_live_run): the planned time
 * before the maximum loads, which can take minutes; a ceiling measured
 * through the DUT (a line on a terminal meanwhile, cleared when done);
 * the trial line during the search: on a terminal one line that updates,
 * elsewhere (a log, a CI job) one line per trial, the time left until
 * the first size is done the plan's estimate less the time spent; each
 * trial as a JSON object of its own (--json-stream); the result
 * (out_create's output) and --openmetrics's file. rfc2544_live_init sets
 * it up. */
struct rfc2544_live_run {
	bool json, json_stream;
	struct out *(*out_create)(bool json, const char *command);
	const char *openmetrics;	/* --openmetrics FILE, or NULL */
	bool tty;			/* stderr is a terminal */
	/* meanwhile */
	uint64_t t0;			/* clock_mono_ns at the search's start */
	double estimate_s;
};

void rfc2544_live_init(struct rfc2544_live_run *v, bool json, bool json_stream,
		       struct out *(*create)(bool json, const char *command), const char *openmetrics);

extern const struct app_rfc2544_hooks rfc2544_live_hooks;

#endif
