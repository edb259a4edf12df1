/* A run's headline figures as OpenMetrics text, for a Prometheus
 * node-exporter textfile collector (or anything that scrapes the format):
 * one family per figure, each sample labelled with the run's label, the
 * frame size and the direction or repeat, then "# EOF". All gauges but the
 * latency, a summary. Names and labels: docs/json.md's units, in base
 * units (seconds, ratios). */
#ifndef WR_RENDER_OPENMETRICS_H
#define WR_RENDER_OPENMETRICS_H

#include <stdio.h>

#include "engine/rfc2544.h"
#include "engine/trial.h"

/* The trials of one `trial` run, res[0..n) (its repeats); label may be
 * NULL or "". ns_per_frame[i]: the DUT's CPU per forwarded frame of
 * repeat i, 0 unknown. */
void openmetrics_write_trials(FILE *f, const char *label, const struct trial_result *res, unsigned int n,
		     const double *ns_per_frame);

/* An rfc2544 run: each row's NDR and PDR (and whether each is a bound),
 * latency where measured. */
void openmetrics_write_rfc2544(FILE *f, const char *label, const struct rfc2544_result *res);

/* The two above for a writer that takes a FILE and one argument (the
 * file writer fs_write_file): arg a struct om_trials or a struct
 * om_rfc2544. */
struct om_trials {
	const char *label;
	const struct trial_result *res;
	unsigned int n;
	const double *ns;		/* ns_per_frame */
};

struct om_rfc2544 {
	const char *label;
	const struct rfc2544_result *res;
};

void openmetrics_trials_write(FILE *f, void *arg);
void openmetrics_rfc2544_write(FILE *f, void *arg);

#endif
