/* wirerate report RUN... [--json] [--csv|--csv-loss] [--html FILE] [--fail-on-regression PCT] [--db FILE]... */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/duttarget.h"
#include "store/db.h"
#include "render/out.h"
#include "render/report_render.h"
#include "store/report.h"
#include "app/report.h"
#include "app/trend.h"
#include "render/trendprint.h"
#include "os/fsutil.h"

#define EXIT_REGRESSION 3

/* The page's path, checked before any work: a name, not a directory or a
 * device (the page is renamed over it), in a directory that exists. */
static int check_html_path(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat sb;

	if (!*path) {
		cli_error("report: --html: give a file name");
		return -EINVAL;
	}
	if (strlen(path) >= sizeof(dir)) {
		cli_error("report: --html: the path is too long");
		return -EINVAL;
	}
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode)) {
		cli_error("report: --html %s is %s", path, S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
		return -EINVAL;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		cli_error("report: --html %s: no directory %s", path, dir);
		return -EINVAL;
	}
	return 0;
}

/* Write the page to a temporary file next to path and rename it into
 * place, so a failure never leaves half a file under the name asked for. */
/* An HTML page to path, written beside it and renamed over it: 0, or
 * -errno with err. */
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
	return report_html_write(m, f, err, errlen);
}

static int trend_page(const void *t, FILE *f, char *err, size_t errlen)
{
	return trend_html_write(t, f, err, errlen);
}

struct report_opts {
	const char *db[REPORT_MAX_STORES], *html;
	unsigned int ndb;
	bool csv, csv_loss;
	double fail_pct;	/* -1: not given */
	bool trend;		/* --trend and the series' filters */
	const char *label, *tag, *test;
	unsigned int size;
	char dut[160];		/* --dut: the DUT's name as runs store it; "" any */
};

/* --dut TARGET, written as trial takes it (lab[:PREFIX], local,
 * ssh:[USER@]HOST[:PORT]), into the name the runs store. */
static int set_dut(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct report_opts *op = ctx;
	struct dut_target t;
	int rc;

	(void)opt;
	memset(&t, 0, sizeof(t));
	if ((rc = duttarget_parse(v, &t, err, errlen)))
		return rc;
	duttarget_name(&t, op->dut, sizeof(op->dut));
	return 0;
}

/* --db, once per store the runs come from */
static int set_db(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct report_opts *op = ctx;
	int rc;

	(void)opt;
	if (op->ndb == REPORT_MAX_STORES) {
		snprintf(err, errlen, "--db: at most %d stores in one report", REPORT_MAX_STORES);
		return -EINVAL;
	}
	if ((rc = opt_db_check(v, err, errlen)))
		return rc;
	op->db[op->ndb++] = v;
	return 0;
}


static int set_fail_pct(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct report_opts *op = ctx;
	char *end;

	op->fail_pct = strtod(v, &end);
	if (end != v && !strcmp(end, "%"))
		end++;
	if (end == v || *end || !isfinite(op->fail_pct) || op->fail_pct < 0 || op->fail_pct > 100) {
		snprintf(err, errlen, "--fail-on-regression '%s': give a percentage from 0 to 100, e.g. 5", v);
		return -EINVAL;
	}
	return 0;
}

#define RO(field) OPT_FIELD(struct report_opts, field)

static const struct opt report_opts[] = {
	{ "csv", 0, OPT_NOARG, NULL, "output", NULL, "one line per run and frame size", opt_set_true, RO(csv) },
	{ "csv-loss", 0, OPT_NOARG, NULL, NULL, NULL,
	  "the frame loss test's steps: one line per run, frame size\nand offered load", opt_set_true, RO(csv_loss) },
	{ "html", 0, OPT_VALUE, "FILE", NULL, NULL, "one self-contained HTML page with the tables and charts",
	  opt_set_str, RO(html) },
	{ "fail-on-regression", 0, OPT_VALUE, "PCT", "verdict", NULL,
	  "exit 3 when any cell is worse than the baseline by\n"
	  "more than PCT percent beyond noise (for CI)", set_fail_pct },
	{ "trend", 0, OPT_NOARG, NULL, "trend", NULL,
	  "follow one figure over a series of runs in time and say\n"
	  "where it changed beyond the noise, and what differed\n"
	  "(no RUN: the series is chosen by the options below)", opt_set_true, RO(trend) },
	{ "label", 0, OPT_VALUE, "L", NULL, NULL, "--trend: the runs with this label", opt_set_str, RO(label) },
	{ "tag", 0, OPT_VALUE, "T", NULL, NULL, "--trend: the runs with this tag", opt_set_str, RO(tag) },
	{ "test", 0, OPT_VALUE, "NAME", NULL, NULL,
	  "--trend: the runs of this test (default: the newest run's,\n"
	  "e.g. 'rfc2544 throughput' or 'trial')", opt_set_str, RO(test) },
	{ "dut", 0, OPT_VALUE, "TARGET", NULL, NULL,
	  "--trend: the runs of this DUT (lab[:PREFIX], local,\n"
	  "ssh:[USER@]HOST[:PORT], as trial's --dut names it)", set_dut },
	{ "size", 0, OPT_VALUE, "BYTES", NULL, NULL,
	  "--trend: the figure at this frame size (default: the\n"
	  "newest run's smallest)", opt_set_uint, RO(size), 1, 65535 },
	{ "db", 0, OPT_VALUE, "FILE", "store", NULL,
	  "the results database: a file, or a postgresql:// URI shared by\n"
	  "several testers (docs/store.md); default $WIRERATE_DB, else\n"
	  "$XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db;\n"
	  "give it again to take runs from several (up to 8)", set_db },
	{ NULL },
};

static const struct opt *const report_tables[] = { report_opts, NULL };

const struct opt_cmd report_cmd = {
	.name = "report",
	.synopsis = "RUN... [--json] [--csv|--csv-loss] [--html FILE] [--fail-on-regression PCT] [--db FILE]...\n"
		    "       wirerate report --trend [--label L] [--tag T] [--dut TARGET] [--test NAME] [--size BYTES] [--json]\n"
		    "       [--fail-on-regression PCT] [--db FILE]...",
	.about = "Compares stored runs side by side (a table by size: rows are frame sizes,\n"
		 "columns are runs), each cell against the first run (the baseline): better,\n"
		 "worse, or within noise, from the spread of repeated searches (rfc2544\n"
		 "--repeat N) and the search's width goal. RUN is a run id, a run's UUID or\n"
		 "a label (the latest run with that label). With several --db, a label is the\n"
		 "latest in any of them and K:RUN names RUN in the K-th; the report then names\n"
		 "runs K:ID. It only reads the databases: one in an older format is refused\n"
		 "until 'wirerate runs upgrade' brings it up to date.\n"
		 "--trend follows one figure (an rfc2544 run's NDR, a trial's forwarded\n"
		 "rate) over the complete runs of one test in time, finds where it changed\n"
		 "beyond the run-to-run noise, and names what differed in the runs'\n"
		 "environment across each change (docs/runs.md).\n",
	.notes = "--json gives every figure behind the tables.\n"
		 "exit status: 0, 1 runtime failure, 2 bad input, 3 regression (with --fail-on-regression;\n"
		 "with --trend, the last change worse by more than PCT)\n",
	.tables = report_tables,
};

/* Open the stores --db names (or the default one) to read, names[] and
 * db[] for each; 0 or the exit status, with the error said. run: the run
 * asked for, named when the one store is missing (NULL: none). */
static int do_trend(struct cli *cli, const struct report_opts *op, int nruns)
{
	struct db_run_filter f = { .label = op->label, .tag = op->tag, .dut = op->dut[0] ? op->dut : NULL };
	char path[4096], err[512];
	const char *names[REPORT_MAX_STORES];
	struct db *db[REPORT_MAX_STORES] = { 0 };
	unsigned int ndb = op->ndb ? op->ndb : 1;
	struct trend t;
	bool regression;
	struct out *o;
	int rc;

	if (nruns) {
		cli_error("report: --trend takes no RUN: the series is the runs --label, --tag, --dut and --test choose");
		return EXIT_USAGE;
	}
	if (op->csv || op->csv_loss) {
		cli_error("report: --trend gives text, --json or --html, not --csv or --csv-loss");
		return EXIT_USAGE;
	}
	if (op->html && check_html_path(op->html))
		return EXIT_USAGE;
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
	if (op->html && (rc = write_page(op->html, trend_page, &t, err, sizeof(err)))) {
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
	char err[512];
	int rc;

	if (op->html && (rc = write_page(op->html, report_page, m, err, sizeof(err)))) {
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
	struct report_opts op = { .fail_pct = -1 };
	void *ctx[] = { &op };
	struct report_model *m = NULL;
	char err[1024], **runs;
	int nruns, rc, ret = EXIT_USAGE;

	/* Options and run names in any order: every name gathered, so that
	 * too many get the report's own message. */
	if (!(runs = calloc((size_t)argc, sizeof(*runs)))) {
		cli_error("report: out of memory");
		return EXIT_RUNTIME;
	}
	if ((rc = opt_parse(&report_cmd, ctx, cli, argc, argv, runs, argc, &nruns))) {
		free(runs);
		return rc == OPT_HELP ? 0 : EXIT_USAGE;
	}
	if (op.trend)
		ret = do_trend(cli, &op, nruns);
	else if (op.label || op.tag || op.test || op.size || op.dut[0])
		cli_error("report: --label, --tag, --dut, --test and --size choose the runs of --trend; name runs as RUN");
	else if (app_report_check_runs(runs, nruns, err, sizeof(err)))
		cli_error("report: %s", err);
	else if (op.csv + op.csv_loss + cli->json > 1)
		cli_error("report: one of --csv, --csv-loss and --json");
	else if (op.html && check_html_path(op.html))
		;
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
