#include "render/trial_files.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "render/hist_csv.h"
#include "render/openmetrics.h"

int trial_files_open(struct trial_files *f, const char *app, char *err, size_t errlen)
{
	char why[512];
	int rc;

	if (f->histogram && (rc = fs_out_open(&f->hist, f->histogram))) {
		snprintf(err, errlen, "--latency-histogram %s: %s", f->histogram, strerror(-rc));
		return rc;
	}
	if (f->capture && !(f->cap = capture_open(f->capture, f->capture_count, app, why, sizeof(why)))) {
		fs_out_close(&f->hist, false);
		snprintf(err, errlen, "--capture %s", why);
		return -EIO;
	}
	if (f->hist.f)
		hist_csv_header(f->hist.f);
	return 0;
}

void trial_files_repeat(struct trial_files *f, const struct trial_result *r, unsigned int i)
{
	for (unsigned int d = 0; f->hist.f && d < r->ndirs; d++)
		hist_csv_rows(f->hist.f, &r->dir[d].latency, i, d);
}

void trial_files_close(struct trial_files *f, const char *label, const struct app_trial_run *run, bool keep,
		      const struct app_cli_hooks *cli)
{
	char err[512];

	if (f->openmetrics && keep) {
		struct om_trials om = { .label = label, .res = run->res, .n = run->done, .ns = run->kept_ns };

		if (fs_write_file(f->openmetrics, openmetrics_trials_write, &om, err, sizeof(err)))
			app_cli_hooks_say(cli, APP_SAY_WARNING, "--openmetrics %s: %s", f->openmetrics, err);
	}
	if (fs_out_close(&f->hist, keep) && keep)
		app_cli_hooks_say(cli, APP_SAY_WARNING, "--latency-histogram %s: not written", f->histogram);
	if (f->cap) {
		capture_stats(f->cap, &f->cs);
		if (capture_close(f->cap, keep, err, sizeof(err))) {
			app_cli_hooks_say(cli, APP_SAY_WARNING, "--capture %s: not written", err);
			f->cs.written = 0;
			f->capture = NULL;
		}
		f->cap = NULL;
	}
}

void trial_files_drop(struct trial_files *f)
{
	char err[512];

	fs_out_close(&f->hist, false);
	if (f->cap)
		capture_close(f->cap, false, err, sizeof(err));
	f->cap = NULL;
}
