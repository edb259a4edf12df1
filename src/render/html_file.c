/* The report's and the trend's HTML pages as files: each written to a
 * temporary file next to its path and renamed into place, so that a
 * failure never leaves half a page under the name asked for. */
#include "render/html_file.h"
#include "render/html.h"
#include "render/html_trend.h"

#include <string.h>

#include "os/fs.h"

static int write_page(const char *path, int (*write)(const void *model, FILE *f, char *err, size_t errlen),
		      const void *model, char *err, size_t errlen)
{
	struct fs_out o;
	int rc, rc2;

	if ((rc = fs_out_open(&o, path))) {
		snprintf(err, errlen, "--html %s: %s", path, strerror(-rc));
		return rc;
	}
	rc = write(model, o.f, err, errlen);
	rc2 = fs_out_close(&o, !rc);
	if (!rc && rc2) {
		rc = rc2;
		snprintf(err, errlen, "--html %s: %s", path, strerror(-rc));
	}
	return rc;
}

static int report_page(const void *m, FILE *f, char *err, size_t errlen)
{
	return html_report_write(m, f, err, errlen);
}

static int trend_page(const void *t, FILE *f, char *err, size_t errlen)
{
	return html_trend_write(t, f, err, errlen);
}

int html_file_report(const char *path, const struct report_model *m, char *err, size_t errlen)
{
	return write_page(path, report_page, m, err, errlen);
}

int html_file_trend(const char *path, const struct trend *t, char *err, size_t errlen)
{
	return write_page(path, trend_page, t, err, errlen);
}
