/* wirerate report RUN... [--json] [--csv|--csv-loss] [--html FILE] [--fail-on-regression PCT] [--db FILE]... */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/reportargs.h"
#include "cli/opt.h"
#include "render/out.h"
#include "render/report_render.h"
#include "store/report.h"
#include "app/report.h"
#include "app/trend.h"
#include "render/trendprint.h"
#include "os/fsutil.h"

#define EXIT_REGRESSION 3

/* report --trend: the series the options choose, its changes, and the
 * verdict on the last one; the exit status, after a one-line error. */
static int do_trend(struct cli *cli, const struct report_opts *op, int nruns)
{
	struct db_run_filter f = { .label = op->label, .tag = op->tag, .dut = op->dut[0] ? op->dut : NULL };
	char path[4096], err[2 * 4096 + 512];
	const char *names[REPORT_MAX_STORES];
	struct db *db[REPORT_MAX_STORES] = { 0 };
	unsigned int ndb = op->ndb ? op->ndb : 1;
	struct trend t;
	bool regression;
	struct out *o;
	int rc;

	if (nruns)
		return cli_fail(EXIT_USAGE, "report: --trend takes no RUN: the series is the runs --label, --tag, "
				"--dut and --test choose");
	if (op->csv || op->csv_loss)
		return cli_fail(EXIT_USAGE, "report: --trend gives text, --json or --html, not --csv or --csv-loss");
	if (op->html && app_report_check_html(op->html, err, sizeof(err)))
		return cli_fail(EXIT_USAGE, "report: %s", err);
	if ((rc = app_report_open(op->db, op->ndb, NULL, path, sizeof(path), names, db, err, sizeof(err)))) {
		cli_error("report: %s", err);
		app_report_close(db);
		return cli_status(rc);
	}
	rc = app_trend(db, ndb, &f, op->test, op->size, &t, err, sizeof(err));
	app_report_close(db);
	if (rc) {
		cli_error("report: --trend: %s", err);
		return rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	}
	regression = op->fail_pct >= 0 && t.nc && t.c[t.nc - 1].worse && -t.c[t.nc - 1].pct > op->fail_pct;
	if (op->html && (rc = trend_html_file(op->html, &t, err, sizeof(err)))) {
		cli_error("report: %s", err);
		app_trend_free(&t);
		return EXIT_RUNTIME;
	}
	o = cli_out_create(cli, "report");
	trend_print(o, &t, op->fail_pct, regression);
	if (op->html)
		out_str(o, "html", "  HTML report: %s\n", op->html);
	out_destroy(o);
	app_trend_free(&t);
	return regression ? EXIT_REGRESSION : 0;
}

static void note(void *ctx, const char *line)
{
	(void)ctx;
	cli_error("report: %s", line);
}

/* The model written out: the page, then CSV, JSON or text on stdout. */
static int write_out(struct cli *cli, const struct report_opts *op, const struct report_model *m)
{
	char err[4096 + 512];
	int rc;

	if (op->html && (rc = report_html_file(op->html, m, err, sizeof(err)))) {
		cli_error("report: %s", rc == -ENOSYS ? "--html: this build cannot write HTML yet" : err);
		return EXIT_RUNTIME;
	}
	if (op->csv) {
		report_csv(m, stdout);
	} else if (op->csv_loss) {
		report_csv_loss(m, stdout);
	} else {
		struct out *o = cli_out_create(cli, "report");

		report_print(o, m);
		if (op->html)
			out_str(o, "html", "  HTML report: %s\n", op->html);
		out_destroy(o);
	}
	if (fflush(stdout)) {
		cli_error("report: writing the report: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	return op->fail_pct >= 0 && m->regression ? EXIT_REGRESSION : 0;
}

int cmd_report(struct cli *cli, int argc, char **argv)
{
	struct report_opts op;
	struct report_model *m = NULL;
	char err[2 * 4096 + 512], **runs;
	int nruns, rc, ret = EXIT_USAGE;

	if ((rc = report_args(cli, argc, argv, &op, &runs, &nruns)) >= 0)
		return rc;
	if (op.trend)
		ret = do_trend(cli, &op, nruns);
	else if (op.label || op.tag || op.test || op.size || op.dut[0])
		cli_error("report: --label, --tag, --dut, --test and --size choose the runs of --trend; name runs as RUN");
	else if (app_report_check_runs(runs, nruns, err, sizeof(err)))
		cli_error("report: %s", err);
	else if (op.csv + op.csv_loss + cli->json > 1)
		cli_error("report: one of --csv, --csv-loss and --json");
	else if (op.html && app_report_check_html(op.html, err, sizeof(err)))
		cli_error("report: %s", err);
	else {
		struct app_report_cfg c = { .dbs = op.db, .ndb = op.ndb, .runs = runs, .nruns = (unsigned int)nruns,
					    .fail_pct = op.fail_pct, .note = note };

		if ((rc = app_report_load(&c, &m, err, sizeof(err)))) {
			cli_error("report: %s", err);
			ret = cli_status(rc);
		} else {
			ret = write_out(cli, &op, m);
		}
	}
	free(m);
	free(runs);
	return ret;
}
