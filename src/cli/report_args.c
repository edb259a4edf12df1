/* report's options: declared once (the table that opt_parse, the usage
 * text and 'help --json' read), then parsed with the runs named. */
#include "cli/report_args.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opt.h"
#include "core/duttarget.h"

/* --dut TARGET, written as trial takes it (lab[:PREFIX], local,
 * ssh:[USER@]HOST[:PORT]), into the name the runs store. */
static int set_dut(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_report_opts *op = ctx;
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
	struct app_report_opts *op = ctx;

	(void)opt;
	return opt_add_db(v, op->db, &op->ndb, REPORT_MAX_STORES, err, errlen);
}

static int set_fail_pct(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	(void)opt;
	return opt_parse_pct("fail-on-regression", v, &((struct app_report_opts *)ctx)->fail_pct, err, errlen);
}

#define RO(field) OPT_FIELD(struct app_report_opts, field)

static const struct opt report_opts[] = {
	{ OPT_BOOL("csv", RO(csv), "one line per run and frame size"), .group = "output" },
	{ OPT_BOOL("csv-loss", RO(csv_loss),
		   "the frame loss test's steps: one line per run, frame size\n"
		   "and offered load") },
	{ OPT_STR("html", "FILE", RO(html), "one self-contained HTML page with the tables and charts") },
	{ OPT_CUSTOM("fail-on-regression", OPT_VALUE, "PCT", set_fail_pct,
		     "exit 3 when any cell is worse than the baseline by\n"
		     "more than PCT percent beyond noise (for CI)"),
	  .group = "verdict" },
	{ OPT_BOOL("trend", RO(trend),
		   "follow one figure over a series of runs in time and say\n"
		   "where it changed beyond the noise, and what differed\n"
		   "(no RUN: the series is chosen by the options below)"),
	  .group = "trend" },
	{ OPT_STR("label", "L", RO(label), "--trend: the runs with this label") },
	{ OPT_STR("tag", "T", RO(tag),
		  "the runs with this tag, oldest first, in place of RUN... (a\n"
		  "matrix's: matrix-...); with --trend, its series' runs") },
	{ OPT_STR("test", "NAME", RO(test),
		  "--trend: the runs of this test (default: the newest run's,\n"
		  "e.g. 'rfc2544 throughput' or 'trial')") },
	{ OPT_CUSTOM("dut", OPT_VALUE, "TARGET", set_dut,
		     "--trend: the runs of this DUT (lab[:PREFIX], local,\n"
		     "ssh:[USER@]HOST[:PORT], as trial's --dut names it)") },
	{ OPT_UINT("size", "BYTES", RO(size), 1, 65535,
		   "--trend: the figure at this frame size (default: the\n"
		   "newest run's smallest)") },
	{ OPT_CUSTOM("db", OPT_VALUE, "FILE", set_db,
		     "the results database: a file, or a postgresql:// URI shared by\n"
		     "several testers (docs/store.md); default $WIRERATE_DB, else\n"
		     "$XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db;\n"
		     "give it again to take runs from several (up to 8)"),
	  .group = "store" },
	{ NULL },
};

static const struct opt *const report_tables[] = { report_opts, NULL };

const struct opt_cmd report_cmd = {
	.name = "report",
	.synopsis = "RUN...|--tag T [--json] [--csv|--csv-loss] [--html FILE] [--fail-on-regression PCT] [--db FILE]...\n"
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

enum opt_result report_args(struct cli *cli, int argc, char **argv, struct app_report_opts *op, int *status)
{
	void *ctx[] = { op };
	int rc;

	*op = (struct app_report_opts){ .fail_pct = -1 };
	/* Options and run names in any order: every name gathered, so that
	 * too many get the report's own message. */
	if ((rc = opt_parse_words(&report_cmd, ctx, cli, argc, argv, &op->runs, &op->nruns)))
		return opt_exit(status, opt_status(rc));
	return OPT_GO;
}
