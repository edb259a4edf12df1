/* A traffic command's run as it prints, text and JSON from the same
 * calls: the trial's header (the options as resolved: sizes, flows, rate,
 * the tester's path and CPUs, the next hops and the port path), each
 * repeat as it ends, the run's end (the summary over the repeats, the
 * median trial in JSON, what --capture wrote, the stored run); and the
 * progress line on a terminal meanwhile: the printing hooks of a trial
 * command's run (app_trial_run_go). */
#ifndef WR_RENDER_TRIAL_LIVE_H
#define WR_RENDER_TRIAL_LIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "app/trial_setup.h"
#include "app/trial_run.h"
#include "engine/trial.h"
#include "io/capture.h"
#include "render/out.h"
#include "render/trial_files.h"

void trial_live_header(struct out *out, const struct trial_setup *o, const struct trial_result *res);
/* The next hops resolved and why this port path: part of the header, and
 * on its own where a command prints no trial header (rfc2544). */
void trial_live_ports(struct out *out, const struct trial_setup *o);

/* A trial run's printing, app_trial_run_go's hooks (trial_live_hooks,
 * ctx a struct trial_live_run): the plan of a long run; the progress
 * line on a terminal when a trial lasts over 2 s; each repeat ("repeat I
 * of N" when there are several; the output made at the first by
 * out_create, in JSON a "repeats" array); the files asked for; the run's
 * end (the summary after several repeats and always in JSON, with the
 * median trial at the top level; --capture's file; the stored run).
 * trial_live_init sets it up for the run of to. */
struct trial_live_run {
	const struct trial_setup *to;
	bool json;
	struct out *(*out_create)(bool json, const char *command);
	struct trial_files files;	/* the paths asked for */
	bool progress;			/* the progress line is shown */
	/* meanwhile */
	struct trial_live_progress {
		uint64_t last_tx, last_rx, last_ns;
		bool shown;
	} pc;
	struct out *o;
};

void trial_live_init(struct trial_live_run *v, const struct trial_setup *to, bool json,
		     struct out *(*create)(bool json, const char *command), const struct trial_files *files);

extern const struct app_trial_hooks trial_live_hooks;

#endif
