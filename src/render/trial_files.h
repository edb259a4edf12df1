/* The files a trial run writes besides its output: every direction's
 * latency histogram as CSV (--latency-histogram), the run's figures as
 * OpenMetrics text (--openmetrics), and the first frames received but
 * not counted as pcapng (--capture). Each is made before the traffic,
 * written beside its name and renamed over it at the end, when the caller
 * keeps it. */
#ifndef WR_RENDER_TRIAL_FILES_H
#define WR_RENDER_TRIAL_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "app/trial_run.h"
#include "io/capture.h"
#include "os/fs.h"

struct trial_files {
	/* in: the paths asked for, or NULL */
	const char *histogram, *openmetrics, *capture;
	unsigned int capture_count;
	/* the open files */
	struct fs_out hist;
	struct capture *cap;		/* the trial's (trial_cfg.capture) */
	/* out: what --capture wrote (capture NULL when it was not) */
	struct capture_stats cs;
};

/* The histogram's and the capture's files made (app: the pcapng's
 * writer): 0, or -errno with the option and the reason in err. The
 * caller hands cap to the trial (trial_cfg.capture). */
int trial_files_open(struct trial_files *f, const char *app, char *err, size_t errlen);
/* Repeat i's histogram rows. */
void trial_files_repeat(struct trial_files *f, const struct trial_result *r, unsigned int i);
/* The run's end: with keep, the OpenMetrics file of its done repeats
 * written and the others renamed into place; without, all removed. A
 * warning said through cli for each file not written. */
void trial_files_close(struct trial_files *f, const char *label, const struct app_trial_run *run, bool keep,
		      const struct app_cli_hooks *cli);
/* Whatever is still open, removed (a failed run). */
void trial_files_drop(struct trial_files *f);

#endif
