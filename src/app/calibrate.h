/* 'wirerate calibrate''s workflow: the tester back to back (the lab's
 * direct veth pair from gen to sink, or the cabled ports), flat out,
 * then paced at 90% of what that reached; the ceiling chosen from the
 * two, the CPUs' cache line timed before, between and after, and the
 * ceiling stored. */
#ifndef WR_APP_CALIBRATE_H
#define WR_APP_CALIBRATE_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "app/trial_setup.h"
#include "engine/trial.h"
#include "store/calib.h"

/* calibrate's own defaults: cabled straight, 5 s of traffic (unless
 * --duration), no learning frames (unless --learn-frames). */
void app_calibrate_defaults(struct trial_setup *to);

/* The lowest rate any direction offered. */
double app_calibrate_min_offered(const struct trial_result *r);
/* Nothing lost or dropped by the tester, nothing failed to send. */
bool app_calibrate_rx_clean(const struct trial_result *r);
/* The ceiling: flat out when the analyzer counted all of it and the
 * generator held 90% of it paced (within 0.5%); else what the paced run
 * reached. *pace_err: the paced run's % off its target. */
double app_calibrate_ceiling(const struct trial_result *flat, const struct trial_result *paced, double *pace_err);
/* The smallest and largest of the n cache line times above 0 (0 and 0
 * when none is). */
void app_calibrate_line_span(const double *lines, unsigned int n, double *lo, double *hi);

/* What 'wirerate calibrate' prints below the trial's header. */
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

struct app_calibrate {
	struct trial_result *flat, *paced;
	bool direct_made;		/* the lab's direct pair, to remove */
	struct calib_report rep;	/* what to print */
};

/* The calibration of to (resolved: app_trial_plan_resolve) until done or
 * *stop. -EINTR when stopped (nothing stored); err empty: nothing to
 * say. c is given back by app_calibrate_free either way. */
int app_calibrate(struct trial_setup *to, const volatile sig_atomic_t *stop, struct app_calibrate *c,
		  char *err, size_t errlen);
void app_calibrate_free(struct trial_setup *to, struct app_calibrate *c);

#endif
