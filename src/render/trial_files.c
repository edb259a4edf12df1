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
		      void (*warn)(void *ctx, const char *line), void *ctx)
{
	char err[512], line[4096 + 1024];

	if (f->openmetrics && keep) {
		struct om_trials om = { .label = label, .res = run->res, .n = run->done, .ns = run->kept_ns };

		if (fs_write_file(f->openmetrics, openmetrics_trials_write, &om, err, sizeof(err))) {
			snprintf(line, sizeof(line), "--openmetrics %s: %s", f->openmetrics, err);
			warn(ctx, line);
		}
	}
	if (fs_out_close(&f->hist, keep) && keep) {
		snprintf(line, sizeof(line), "--latency-histogram %s: not written", f->histogram);
		warn(ctx, line);
	}
	if (f->cap) {
		capture_stats(f->cap, &f->cs);
		if (capture_close(f->cap, keep, err, sizeof(err))) {
			snprintf(line, sizeof(line), "--capture %s: not written", err);
			warn(ctx, line);
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
