#include "render/report_live.h"

#include <errno.h>
#include <stdio.h>

#include "render/report_print.h"
#include "render/report_print_csv.h"
#include "render/html_file.h"
#include "render/trend_print.h"

static int page(void *ctx, const char *path, const struct report_model *m, char *err, size_t errlen)
{
	(void)ctx;
	return html_file_report(path, m, err, errlen);
}

static int trend_page(void *ctx, const char *path, const struct trend *t, char *err, size_t errlen)
{
	(void)ctx;
	return html_file_trend(path, t, err, errlen);
}

/* CSV, or the tables (JSON: every figure), all on stdout and flushed
 * there: a full disk is said, not left to the exit. */
static int print(void *ctx, const struct app_report_opts *op, const struct report_model *m)
{
	const struct report_live *p = ctx;

	if (op->csv) {
		report_print_csv(m, stdout);
	} else if (op->csv_loss) {
		report_print_csv_loss(m, stdout);
	} else {
		struct out *o = p->create(op->json, "report");

		report_print(o, m);
		if (op->html)
			out_str(o, "html", "  HTML report: %s\n", op->html);
		out_destroy(o);
	}
	if (fflush(stdout))
		return errno ? -errno : -EIO;
	return 0;
}

static void trend(void *ctx, const struct app_report_opts *op, const struct trend *t, bool regression)
{
	const struct report_live *p = ctx;
	struct out *o = p->create(op->json, "report");

	trend_print(o, t, op->fail_pct, regression);
	if (op->html)
		out_str(o, "html", "  HTML report: %s\n", op->html);
	out_destroy(o);
}

const struct app_report_hooks report_live_hooks = {
	.page = page, .trend_page = trend_page, .print = print, .trend_print = trend,
};
