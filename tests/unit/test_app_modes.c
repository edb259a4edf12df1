/* Each mode of soak, stream and report as one workflow, through hooks
 * that record what they were asked to print: the options' rules, how a
 * failure is classed (the input, the host, a stop), what is said and
 * what is not printed when a step before the output fails. Stores and
 * files in a temporary directory; no root, no traffic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/report.h"
#include "app/soak_run.h"
#include "app/stream_run.h"
#include "store/db.h"

static char err[2 * 4096 + 512], dir[256], path[512], garbage[512];

/* What the hooks were asked: how many times each, and what they say. */
struct seen {
	int open, page, print, trend;
	int page_rc, print_rc, open_rc;
	bool regression;
};

static int setup(void **st)
{
	struct db *db = NULL;
	struct db_run_info ri = { .test = "trial", .label = "a", .sizes = "64" };
	int64_t id;
	FILE *f;

	(void)st;
	snprintf(dir, sizeof(dir), "/tmp/wr-test-app-modes-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	snprintf(garbage, sizeof(garbage), "%s/garbage", dir);
	if (!(f = fopen(garbage, "w")))
		return -1;
	fputs("not a calibration\n", f);
	fclose(f);
	if (db_open(path, true, &db, err, sizeof(err)) || db_run_begin(db, &ri, NULL, 0, &id, err, sizeof(err)) ||
	    db_run_end(db, id, "complete", NULL, err, sizeof(err)))
		return -1;
	db_close(db);
	return 0;
}

static int teardown(void **st)
{
	char cmd[300];

	(void)st;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

/* The CLI's stop: the flag, never set. */
static volatile sig_atomic_t stop_flag;

static volatile sig_atomic_t *stop(void *ctx, bool on)
{
	(void)ctx;
	return on ? &stop_flag : NULL;
}

/* ---- report ---- */

static int page(void *ctx, const char *p, const struct report_model *m, char *e, size_t elen)
{
	struct seen *s = ctx;

	(void)p;
	(void)m;
	s->page++;
	if (s->page_rc)
		snprintf(e, elen, "page failed");
	return s->page_rc;
}

static int trend_page(void *ctx, const char *p, const struct trend *t, char *e, size_t elen)
{
	(void)t;
	return page(ctx, p, NULL, e, elen);
}

static int print(void *ctx, const struct app_report_opts *op, const struct report_model *m)
{
	struct seen *s = ctx;

	(void)op;
	assert_int_equal(m->nruns, 1);
	s->print++;
	return s->print_rc;
}

static void trend_print(void *ctx, const struct app_report_opts *op, const struct trend *t, bool regression)
{
	struct seen *s = ctx;

	(void)op;
	(void)t;
	s->trend++;
	s->regression = regression;
}

static const struct app_report_hooks report_hooks = { page, trend_page, print, trend_print };

/* Which options go with which mode, checked before any store is read. */
static void report_check(void **st)
{
	char *one[] = { "1" }, *none[] = { NULL };
	struct app_report_opts op = { .fail_pct = -1, .runs = one, .nruns = 1 };

	(void)st;
	assert_int_equal(app_report_check(&op, err, sizeof(err)), 0);
	op.label = "x";
	assert_int_equal(app_report_check(&op, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--label, --dut, --test and --size choose the runs of --trend; name runs as RUN");
	op.label = NULL;
	/* --tag names the runs in place of RUN..., not beside them */
	op.tag = "t";
	assert_int_equal(app_report_check(&op, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--tag T or RUN..., not both: --tag compares every run tagged T");
	op.nruns = 0;
	assert_int_equal(app_report_check(&op, err, sizeof(err)), 0);
	op.nruns = 1;
	op.tag = NULL;
	op.size = 64;
	assert_int_equal(app_report_check(&op, err, sizeof(err)), -EINVAL);
	op.size = 0;
	op.csv = op.json = true;
	assert_int_equal(app_report_check(&op, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "one of --csv, --csv-loss and --json");
	op.csv = false;
	op.html = "/nonexistent/x.html";
	assert_int_equal(app_report_check(&op, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--html /nonexistent/x.html: no directory /nonexistent");
	/* --trend: the filters, no RUN, no CSV */
	op.trend = true;
	op.html = NULL;
	assert_int_equal(app_report_check(&op, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--trend takes no RUN"));
	op.runs = none;
	op.nruns = 0;
	op.label = "x";
	op.size = 64;
	assert_int_equal(app_report_check(&op, err, sizeof(err)), 0);
	op.csv_loss = true;
	op.json = false;
	assert_int_equal(app_report_check(&op, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--trend gives text, --json or --html, not --csv or --csv-loss");
	/* without --trend, no RUN is refused as such */
	op.trend = op.csv_loss = false;
	op.label = NULL;
	op.size = 0;
	assert_int_equal(app_report_check(&op, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "give one or more runs (ids or labels; see 'wirerate runs')");
}

/* The page first, then stdout; either failing is the host's, a store or
 * a run not there the input's, and nothing is written then. */
static void report_run(void **st)
{
	char *one[] = { "1" }, *missing[] = { "9" };
	const char *dbs[] = { path };
	struct app_report_opts op = { .db = { path }, .ndb = 1, .fail_pct = -1, .runs = one, .nruns = 1 };
	struct seen s = { 0 };
	enum app_report_why why;

	(void)st;
	(void)dbs;
	assert_int_equal(app_report_run(&op, NULL, &report_hooks, &s, &why, err, sizeof(err)), 0);
	assert_int_equal(why, APP_REPORT_OK);
	assert_int_equal(s.page, 0);
	assert_int_equal(s.print, 1);
	op.html = "x.html";
	s.page_rc = -ENOSYS;
	assert_int_equal(app_report_run(&op, NULL, &report_hooks, &s, &why, err, sizeof(err)), -ENOSYS);
	assert_int_equal(why, APP_REPORT_HOST);
	assert_string_equal(err, "--html: this build cannot write HTML yet");
	assert_int_equal(s.print, 1);
	s.page_rc = -EACCES;
	assert_int_equal(app_report_run(&op, NULL, &report_hooks, &s, &why, err, sizeof(err)), -EACCES);
	assert_string_equal(err, "page failed");
	s.page_rc = 0;
	s.print_rc = -ENOSPC;
	assert_int_equal(app_report_run(&op, NULL, &report_hooks, &s, &why, err, sizeof(err)), -ENOSPC);
	assert_int_equal(why, APP_REPORT_HOST);
	assert_string_equal(err, "writing the report: No space left on device");
	op.runs = missing;
	s = (struct seen){ 0 };
	assert_int_equal(app_report_run(&op, NULL, &report_hooks, &s, &why, err, sizeof(err)), -EINVAL);
	assert_int_equal(why, APP_REPORT_INPUT);
	assert_int_equal(s.page + s.print, 0);
}

/* A series with no figure, or none with the label asked, is the input's. */
static void report_trend(void **st)
{
	struct app_report_opts op = { .db = { path }, .ndb = 1, .fail_pct = -1, .trend = true };
	struct seen s = { 0 };
	enum app_report_why why;

	(void)st;
	assert_int_equal(app_report_trend(&op, NULL, &report_hooks, &s, &why, err, sizeof(err)), -EINVAL);
	assert_int_equal(why, APP_REPORT_INPUT);
	assert_string_equal(err, "--trend: no complete run of 'trial' to follow");
	op.label = "nope";
	assert_int_equal(app_report_trend(&op, NULL, &report_hooks, &s, &why, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--trend: no complete run to follow with that label, tag or DUT");
	op.db[0] = "/nonexistent/r.db";
	assert_int_equal(app_report_trend(&op, NULL, &report_hooks, &s, &why, err, sizeof(err)), -EINVAL);
	assert_int_equal(why, APP_REPORT_INPUT);
	assert_int_equal(s.page + s.trend, 0);
}

/* ---- stream ---- */

static int listening(void *ctx, const struct app_stream_opts *op, const struct stream_server *srv, bool root)
{
	(void)op;
	(void)srv;
	(void)root;
	((struct seen *)ctx)->open++;
	return 0;
}

static int result(void *ctx, const struct app_stream_opts *op, const struct app_stream_res *res)
{
	(void)op;
	(void)res;
	((struct seen *)ctx)->print++;
	return 0;
}

static const struct app_stream_hooks stream_hooks = { .listening = listening, .result = result };

/* The stored run's status: stopped wins, then the figures' own mark. */
static void stream_end_status(void **st)
{
	(void)st;
	assert_string_equal(app_stream_run_end_status(false, false, APP_STREAM_OK), "complete");
	assert_string_equal(app_stream_run_end_status(true, true, APP_STREAM_OK), "interrupted");
	assert_string_equal(app_stream_run_end_status(false, true, APP_STREAM_OK), "complete");
	assert_string_equal(app_stream_run_end_status(false, false, APP_STREAM_STOPPED), "interrupted");
	assert_string_equal(app_stream_run_end_status(true, false, APP_STREAM_HOST), "failed");
	assert_string_equal(app_stream_run_end_status(false, false, APP_STREAM_INPUT), "failed");
}

/* Refusals before anything is printed: lab mode without root, a token
 * file that is not there (either end); the server's reason in 511
 * bytes at most. */
static void stream_refusals(void **st)
{
	const struct app_cli_hooks cli = { .stop = stop };
	struct app_stream_opts op;
	enum app_stream_why why;
	struct seen s = { 0 };

	(void)st;
	app_stream_client_defaults(&op);
	op.mode = APP_STREAM_LAB;
	assert_int_equal(app_stream_run(&op, &cli, &stream_hooks, &s, &why, err, sizeof(err)), -EPERM);
	assert_int_equal(why, APP_STREAM_HOST);
	assert_non_null(strstr(err, "lab mode needs root"));
	op.mode = APP_STREAM_CLIENT;
	op.host = "127.0.0.1";
	op.token_file = "/nonexistent/token";
	assert_int_equal(app_stream_run(&op, &cli, &stream_hooks, &s, &why, err, sizeof(err)), -EINVAL);
	assert_int_equal(why, APP_STREAM_INPUT);
	assert_non_null(strstr(err, "--token-file: "));
	op.mode = APP_STREAM_SERVER;
	op.server = true;
	assert_int_equal(app_stream_run_serve(&op, &cli, &stream_hooks, &s, &why, err, sizeof(err)), -EINVAL);
	assert_int_equal(why, APP_STREAM_INPUT);
	memset(err, 'x', sizeof(err) - 1);
	op.token_file = err;
	err[sizeof(err) - 1] = '\0';
	{
		char e2[1024];

		assert_int_equal(app_stream_run_serve(&op, &cli, &stream_hooks, &s, &why, e2, sizeof(e2)), -EINVAL);
		assert_int_equal(strlen(e2), 511);
	}
	assert_int_equal(s.open + s.print, 0);
}

/* ---- soak ---- */

static int soak_open(void *ctx)
{
	struct seen *s = ctx;

	s->open++;
	return s->open_rc;
}

static const struct app_soak_hooks soak_hooks = { .open = soak_open };

/* A calibration never over a file that is not one, said before any
 * reading; a soak without its calibration is the input's too. */
static void soak_refusals(void **st)
{
	const struct app_cli_hooks cli = { .stop = stop };
	struct soak_calib_opts cal = { .settle = 5, .tolerance = 0.01, .timeout_ns = 1000000000 };
	struct cpuset cpus;
	struct app_soak_cfg cfg = { .cpus = &cpus, .path = garbage, .interval_ns = 1000000000, .cal = &cal };
	struct app_soak_result r;
	struct seen s = { 0 };
	char nothere[600];

	(void)st;
	assert_int_equal(cpuset_parse_list("0", &cpus, err, sizeof(err)), 0);
	assert_int_equal(app_soak_run_calibration(&cfg, &cli, &soak_hooks, &s, &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(r.why, APP_SOAK_INPUT);
	assert_non_null(strstr(err, "--calibration "));
	assert_non_null(strstr(err, " (give another file, or delete it)"));
	app_soak_run_result_free(&r);
	assert_int_equal(app_soak_run(&cfg, &cli, &soak_hooks, &s, &r, err, sizeof(err)), -EINVAL);
	assert_int_equal(r.why, APP_SOAK_INPUT);
	app_soak_run_result_free(&r);
	snprintf(nothere, sizeof(nothere), "%s/nothere", dir);
	cfg.path = nothere;
	assert_int_equal(app_soak_run(&cfg, &cli, &soak_hooks, &s, &r, err, sizeof(err)), -ENOENT);
	assert_int_equal(r.why, APP_SOAK_INPUT);
	app_soak_run_result_free(&r);
	assert_int_equal(s.open, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(report_check),
		cmocka_unit_test(report_run),
		cmocka_unit_test(report_trend),
		cmocka_unit_test(stream_end_status),
		cmocka_unit_test(stream_refusals),
		cmocka_unit_test(soak_refusals),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
