/* A traffic command's run as it prints, text and JSON from the same
 * calls: the trial's header (the options as resolved: sizes, flows, rate,
 * the tester's path and CPUs, the next hops and the port path), each
 * repeat as it ends, the run's end (the summary over the repeats, the
 * median trial in JSON, what --capture wrote, the stored run); and the
 * progress line on a terminal meanwhile. */
#ifndef WR_RENDER_TRIALRUNPRINT_H
#define WR_RENDER_TRIALRUNPRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "app/trialcfg.h"
#include "app/trialrun.h"
#include "engine/trial.h"
#include "io/capture.h"
#include "render/out.h"

void trialrunprint_header(struct out *out, const struct trialopt *o, const struct trial_result *res);
/* The next hops resolved and why this port path: part of the header, and
 * on its own where a command prints no trial header (rfc2544). */
void trialrunprint_ports(struct out *out, const struct trialopt *o);

/* Repeat i of run (in "repeats", which the caller opened), after
 * "repeat I of N" when there are several. */
void trialrunprint_repeat(struct out *o, const struct trialopt *to, const struct app_trial_run *run, unsigned int i);

/* The run's end: "repeats" closed; the summary after several repeats (and
 * always in JSON, with the median trial at the top level); --capture's
 * file; the stored run. */
struct trialrunprint_files {
	const char *capture;		/* --capture's path, or NULL */
	const struct capture_stats *cs;
	int64_t run_id;			/* 0: not stored */
};

void trialrunprint_end(struct out *o, const struct trialopt *to, const struct app_trial_run *run,
		       const struct app_trial_summary *sum, const struct trialrunprint_files *f);

/* On stderr, before a long run: repeat trials of duration_ns, secs in
 * all with learning and drain. */
void trialrunprint_planned(unsigned int repeat, uint64_t duration_ns, double secs);

/* The line on a terminal while a trial runs (a trial_progress_fn, arg a
 * struct trialrunprint_progress zeroed at first), and its clearing. */
struct trialrunprint_progress {
	uint64_t last_tx, last_rx, last_ns;
	bool shown;
};

void trialrunprint_progress(void *arg, const struct trial_progress *p);
void trialrunprint_progress_clear(struct trialrunprint_progress *pc);

#endif
