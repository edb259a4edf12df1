/* The comparison behind 'wirerate report' on synthetic runs: a clear
 * regression, a clear improvement, noise, "at least" figures, the
 * --fail-on-regression decision; and the model loaded from a real store
 * (median, min, max over repeats; plain trials). */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "store/db.h"
#include "render/out.h"
#include "render/report_print.h"
#include "render/report_print_csv.h"
#include "render/html.h"
#include "store/report_db.h"
#include "store/bisect_db.h"

static struct report_model m;

/* A run whose 64-byte cell has these repeats (frames/s). */
static void cell(struct rm_run *r, unsigned int size, const double *v, unsigned int n, double width)
{
	struct rm_cell *c = &r->cell[r->ncells++];
	double s[16];

	memset(c, 0, sizeof(*c));
	memcpy(s, v, n * sizeof(*v));
	for (unsigned int i = 0; i < n; i++)	/* sort, tiny */
		for (unsigned int k = i + 1; k < n; k++)
			if (s[k] < s[i]) {
				double t = s[i];

				s[i] = s[k];
				s[k] = t;
			}
	c->size = size;
	c->have_thr = n > 0;
	c->repeats = n;
	c->ndr_min = s[0];
	c->ndr_max = s[n - 1];
	c->ndr_med = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	c->width_pps = width;
}

static void two_runs(const double *a, unsigned int na, const double *b, unsigned int nb, double width)
{
	memset(&m, 0, sizeof(m));
	m.nruns = 2;
	m.run[0].id = 1;
	m.run[1].id = 2;
	cell(&m.run[0], 64, a, na, width);
	cell(&m.run[1], 64, b, nb, width);
	m.sizes[0] = 64;
	m.nsizes = 1;
}

static void clear_regression(void **st)
{
	const double base[] = { 20000, 20100, 19950 }, now[] = { 17000, 17100, 16950 };

	two_runs(base, 3, now, 3, 100);
	report_db_compare(&m, 5);
	assert_int_equal(m.run[0].cell[0].verdict, RM_BASELINE);
	assert_int_equal(m.run[1].cell[0].verdict, RM_WORSE);
	assert_true(fabs(m.run[1].cell[0].diff_pct - (-15.0)) < 0.01);
	/* (19950 - 100) - (17100 + 100) = 2650 frames/s beyond noise: 13.2% */
	assert_true(m.regression);
	report_db_compare(&m, 13);
	assert_true(m.regression);
	report_db_compare(&m, 14);
	assert_false(m.regression);	/* worse, but not by 14% beyond noise */
	assert_int_equal(m.run[1].cell[0].verdict, RM_WORSE);
	report_db_compare(&m, -1);
	assert_false(m.regression);	/* no threshold, no regression flag */
	/* the same runs, one of them incomplete: shown worse, not a CI failure */
	m.run[1].interrupted = true;
	report_db_compare(&m, 5);
	assert_int_equal(m.run[1].cell[0].verdict, RM_WORSE);
	assert_false(m.regression);
	m.run[1].interrupted = false;
	m.run[0].interrupted = true;
	report_db_compare(&m, 5);
	assert_false(m.regression);
}

static void clear_improvement(void **st)
{
	const double base[] = { 20000, 20100, 19950 }, now[] = { 32000, 31900, 32100 };

	two_runs(base, 3, now, 3, 100);
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_BETTER);
	assert_true(m.run[1].cell[0].diff_pct > 59 && m.run[1].cell[0].diff_pct < 61);
	assert_false(m.regression);
}

static void noise(void **st)
{
	/* Medians 3% apart, but the repeats overlap: noise, not a change. */
	const double base[] = { 20000, 19000, 21000 }, now[] = { 19400, 18500, 20500 };

	two_runs(base, 3, now, 3, 100);
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_NOISE);
	assert_true(m.run[1].cell[0].diff_pct < -2.9);
	assert_false(m.regression);
	/* One repeat each: the width goal alone is the band. */
	const double one_a[] = { 20000 }, one_b[] = { 19850 }, one_c[] = { 19700 };

	two_runs(one_a, 1, one_b, 1, 100);
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_NOISE);	/* 150 apart, bands +-100 overlap */
	two_runs(one_a, 1, one_c, 1, 100);
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_WORSE);	/* 300 apart: 19800 > 19700 + 100 */
	assert_true(m.regression);	/* any amount beyond noise at 0% */
	report_db_compare(&m, 1);
	assert_false(m.regression);	/* (19900 - 19800) / 20000 = 0.5% < 1% */
}

static void at_least_and_missing(void **st)
{
	const double base[] = { 20000 }, now[] = { 15000 };

	two_runs(base, 1, now, 1, 100);
	m.run[1].cell[0].tester_limited = true;	/* "at least 15000": not worse, nor noise */
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_NOT_COMPARABLE);
	assert_true(m.run[1].cell[0].diff_at_least);
	assert_false(m.regression);
	/* a bound above the baseline's whole band: better, "at least" */
	const double high[] = { 25000 }, low[] = { 9000 };

	two_runs(base, 1, high, 1, 100);
	m.run[1].cell[0].tester_limited = true;
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_BETTER);
	assert_true(m.run[1].cell[0].diff_at_least);
	/* a bound baseline: a value below all of it is worse (a regression,
	 * by at least the gap), one above it is not comparable */
	two_runs(base, 1, low, 1, 100);
	m.run[0].cell[0].tester_limited = true;
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_WORSE);
	assert_true(m.run[1].cell[0].diff_at_least && m.regression);
	two_runs(base, 1, high, 1, 100);
	m.run[0].cell[0].tester_limited = true;
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_NOT_COMPARABLE);
	/* two bounds */
	two_runs(base, 1, high, 1, 100);
	m.run[0].cell[0].tester_limited = m.run[1].cell[0].tester_limited = true;
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_NOT_COMPARABLE);
	/* A size only one run has: no verdict. */
	two_runs(base, 1, now, 1, 100);
	m.run[1].cell[0].size = 512;
	report_db_compare(&m, 0);
	assert_int_equal(m.run[1].cell[0].verdict, RM_NONE);
	assert_false(m.regression);
}

/* Runs stored through db.h, loaded back into the model. */
static void load_from_store(void **st)
{
	char dir[] = "/tmp/wr-test-report.XXXXXX", p[128], err[256], note[128];
	struct db *db;
	int64_t id[2], got;

	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/r.db", dir);
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	for (int r = 0; r < 2; r++) {
		struct db_run_info ri = { .test = "rfc2544 throughput", .label = "k", .sizes = "64,512",
					  .config = r ? "rules=1000" : "rules=0", .repeats = 3 };

		/* the host had CPUs 0 and 1 close for run 0, far for run 1 */
		struct db_kv env[] = { { "cpu.line_ns", r ? "0-1:171.5" : "0-1:42.0" } };

		assert_int_equal(db_run_begin(db, &ri, env, 1, &id[r], err, sizeof(err)), 0);
		for (unsigned int rep = 0; rep < 3; rep++) {
			double v64 = r ? 10000 + rep * 100 : 20000 + rep * 100;
			struct db_result res = { .size = 64, .repeat = rep, .max_load = 40000, .ndr_valid = true,
						 .ndr_lower = v64, .ndr_upper = v64 + 200, .pdr_valid = true,
						 .pdr_lower = v64 + 50, .pdr_upper = v64 + 250, .width_pps = 200,
						 .ns_per_frame = 900, .b2b_avg = NAN, .b2b_min = NAN, .b2b_max = NAN };

			/* the frame loss test, run 0 at 64 bytes: 100%, 90%, 80% */
			static const struct db_loss_step loss[] = {
				{ .pct = 100, .load = 40000, .tx = 200000, .rx = 100000, .loss_pct = 50 },
				{ .pct = 90, .load = 36000, .tx = 180000, .rx = 126000, .loss_pct = 30 },
				{ .pct = 80, .load = 32000, .tx = 160000, .rx = 160000, .loss_pct = 0 },
			};

			if (!r && !rep) {
				res.loss = loss;
				res.nloss = 3;
			}
			assert_int_equal(db_result_add(db, id[r], &res, err, sizeof(err)), 0);
			res.loss = NULL;
			res.nloss = 0;
			res.size = 512;
			res.ndr_lower = 20000 - rep;
			assert_int_equal(db_result_add(db, id[r], &res, err, sizeof(err)), 0);
		}
		assert_int_equal(db_run_end(db, id[r], "complete", NULL, err, sizeof(err)), 0);
	}
	/* A label names the latest run; an id is an id. */
	assert_int_equal(report_db_resolve(db, "k", &got, note, sizeof(note), err, sizeof(err)), 0);
	assert_int_equal(got, id[1]);
	assert_non_null(strstr(note, "2 runs"));
	assert_int_equal(report_db_resolve(db, "1", &got, note, sizeof(note), err, sizeof(err)), 0);
	assert_int_equal(got, id[0]);
	assert_int_equal(report_db_resolve(db, "nope", &got, note, sizeof(note), err, sizeof(err)), -ENOENT);
	assert_int_equal(report_db_resolve(db, "99", &got, note, sizeof(note), err, sizeof(err)), -ENOENT);

	assert_int_equal(report_db_load(db, id, 2, &m, err, sizeof(err)), 0);
	assert_int_equal(m.nruns, 2);
	assert_int_equal(m.nsizes, 2);
	assert_int_equal(m.sizes[0], 64);
	assert_int_equal(m.sizes[1], 512);
	const struct rm_cell *c = report_model_cell_of(&m.run[0], 64);

	assert_non_null(c);
	assert_int_equal(c->repeats, 3);
	assert_true(c->ndr_med == 20100 && c->ndr_min == 20000 && c->ndr_max == 20200);
	assert_true(c->pdr_med == 20150);
	assert_true(c->width_pps == 200 && c->ns_per_frame == 900);
	assert_string_equal(m.run[1].config, "rules=1000");
	report_db_compare(&m, 10);
	assert_string_equal(m.run[0].cpu_line, "0-1:42.0");
	assert_false(m.run[0].placement_moved);
	assert_true(m.run[1].placement_moved);
	assert_string_equal(m.run[1].placement_note, "CPUs 0 and 1 172 ns a cache line apart (42 in the baseline)");
	/* said under the run in text, and in JSON */
	for (int json = 0; json < 2; json++) {
		char *txt = NULL;
		size_t tlen = 0;
		FILE *tf = open_memstream(&txt, &tlen);
		struct out *o = out_create(tf, json);

		report_print(o, &m);
		out_destroy(o);
		fclose(tf);
		if (json) {
			assert_non_null(strstr(txt, "\"cpu_line_ns\":\"0-1:171.5\",\"placement_moved\":true"));
			assert_non_null(strstr(txt, "\"cpu_line_ns\":\"0-1:42.0\",\"placement_moved\":false"));
		} else {
			assert_non_null(strstr(txt, "the host had CPUs 0 and 1 172 ns a cache line apart (42 in the baseline)"));
		}
		free(txt);
	}
	/* and on the HTML page, as a badge on the run */
	{
		char *page = NULL, e2[128];
		size_t plen = 0;
		FILE *pf = open_memstream(&page, &plen);

		assert_int_equal(html_report_write(&m, pf, e2, sizeof(e2)), 0);
		fclose(pf);
		assert_non_null(strstr(page, "title=\"the host had CPUs 0 and 1 172 ns a cache line apart (42 in the "
					     "baseline): its figures move with that\">CPUs moved</span>"));
		free(page);
	}
	assert_int_equal(report_model_cell_of(&m.run[1], 64)->verdict, RM_WORSE);
	assert_int_equal(report_model_cell_of(&m.run[1], 512)->verdict, RM_NOISE);
	assert_true(m.regression);

	/* CSV: a header and one line per run and size. */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	report_print_csv(&m, f);
	fclose(f);
	int lines = 0;

	for (char *q = buf; *q; q++)
		lines += *q == '\n';
	assert_int_equal(lines, 1 + 4);
	assert_non_null(strstr(buf, ",worse,"));
	/* Numbers exact, as in the JSON, never rounded to six digits
	 * (-49.7512) or put in exponent form. */
	assert_non_null(strstr(buf, ",worse,-49.7512437810945"));
	assert_null(strstr(buf, "e+"));
	free(buf);

	/* The loss CSV: a header and one line per step, from 100% down. */
	f = open_memstream(&buf, &len);
	report_print_csv_loss(&m, f);
	fclose(f);
	lines = 0;
	for (char *q = buf; *q; q++)
		lines += *q == '\n';
	assert_int_equal(lines, 1 + 3);
	assert_non_null(strstr(buf, "run_id,label,when,test,kernel,config,interrupted,store,size,step,offered_pct,"
				    "offered_pps,loss_pct\n"));
	assert_non_null(strstr(buf, ",rules=0,0,,64,1,100,40000,50\n"));
	assert_non_null(strstr(buf, ",rules=0,0,,64,2,90,36000,30\n"));
	assert_non_null(strstr(buf, ",rules=0,0,,64,3,80,32000,0\n"));
	assert_null(strstr(buf, "rules=1000"));
	free(buf);
	db_close(db);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* A run as the issue's: 5 repeats of a DUT with ~300 ppm of sporadic
 * loss under a 400000 capacity and a PDR the tester capped at 300000.
 * The report reads: the NDR a value with its interval (5 repeats: the
 * full range, 93.75%), the PDR "at least" (no upper, below the max
 * load), the noise floor from the stored trials. And a row as an older
 * build stored it (no uppers, no trials) still loads, flagging nothing. */
static void intervals_bounds_noise_from_store(void **st)
{
	char dir[] = "/tmp/wr-test-report.XXXXXX", p[128], err[256];
	struct db *db;
	int64_t id[2];

	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/r.db", dir);
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	struct db_run_info ri = { .test = "rfc2544 throughput", .sizes = "64", .repeats = 5, .pdr_ratio = 0.005 };

	assert_int_equal(db_run_begin(db, &ri, NULL, 0, &id[0], err, sizeof(err)), 0);
	for (unsigned int rep = 0; rep < 5; rep++) {
		static const double ndr[5] = { 12000, 9000, 15000, 11000, 14000 };
		/* the search's trials: down from the PDR, 300 ppm at each load,
		 * clean at the NDR */
		static const double loads[] = { 300000, 240000, 160000, 80000, 40000, 20000 };

		for (unsigned int k = 0; k < sizeof(loads) / sizeof(loads[0]); k++) {
			uint64_t tx = (uint64_t)(loads[k] * 2);
			struct db_trial tr = { .size = 64, .test = 't', .repeat = rep, .load = loads[k], .duration_s = 2,
					       .tx = tx, .rx = tx - (k ? tx * 3 / 10000 : 0), .cpu_soak_pct = -1 };

			assert_int_equal(db_trial_add(db, id[0], &tr, err, sizeof(err)), 0);
		}
		struct db_trial clean = { .size = 64, .test = 't', .repeat = rep, .load = ndr[rep], .duration_s = 2,
					  .tx = (uint64_t)(ndr[rep] * 2), .rx = (uint64_t)(ndr[rep] * 2), .cpu_soak_pct = -1 };

		assert_int_equal(db_trial_add(db, id[0], &clean, err, sizeof(err)), 0);
		struct db_result res = { .size = 64, .repeat = rep, .max_load = 1000000, .max_is_ceiling = true,
					 .ndr_valid = true, .ndr_lower = ndr[rep], .ndr_upper = 20000, .pdr_valid = true,
					 .pdr_lower = 300000, .pdr_upper = NAN, .width_pps = 5000, .ns_per_frame = NAN,
					 .b2b_avg = NAN, .b2b_min = NAN, .b2b_max = NAN };

		assert_int_equal(db_result_add(db, id[0], &res, err, sizeof(err)), 0);
	}
	assert_int_equal(db_run_end(db, id[0], "complete", NULL, err, sizeof(err)), 0);
	/* the older row: NDR only, no upper, no max load, no trials */
	assert_int_equal(db_run_begin(db, &ri, NULL, 0, &id[1], err, sizeof(err)), 0);
	struct db_result old = { .size = 64, .max_load = NAN, .ndr_valid = true, .ndr_lower = 12000, .ndr_upper = NAN,
				 .pdr_upper = NAN, .width_pps = NAN, .ns_per_frame = NAN, .b2b_avg = NAN,
				 .b2b_min = NAN, .b2b_max = NAN };

	assert_int_equal(db_result_add(db, id[1], &old, err, sizeof(err)), 0);
	assert_int_equal(db_run_end(db, id[1], "complete", NULL, err, sizeof(err)), 0);

	assert_int_equal(report_db_load(db, id, 2, &m, err, sizeof(err)), 0);
	const struct rm_cell *c = report_model_cell_of(&m.run[0], 64), *o = report_model_cell_of(&m.run[1], 64);

	assert_true(c->ndr_iv.n == 5 && c->ndr_iv.median == 12000 && c->ndr_iv.lo == 9000 && c->ndr_iv.hi == 15000);
	assert_true(fabs(c->ndr_iv.coverage - 0.9375) < 1e-9);
	assert_false(c->tester_limited);		/* the NDR failed at 20000: a value */
	assert_true(c->pdr_bound);			/* the PDR: at least 300000 */
	assert_true(c->nf.limited);
	assert_true(c->nf.ppm_lo <= 300 && c->nf.ppm_hi >= 300);
	assert_false(o->tester_limited);
	assert_false(o->nf.limited);
	report_db_compare(&m, 0);
	/* 12000 [9000-15000] +-5000 against 12000: noise */
	assert_int_equal(o->verdict, RM_NOISE);
	for (int json = 0; json < 2; json++) {
		char *txt = NULL;
		size_t tlen = 0;
		FILE *tf = open_memstream(&txt, &tlen);
		struct out *out = out_create(tf, json);

		report_print(out, &m);
		out_destroy(out);
		fclose(tf);
		if (json) {
			assert_non_null(strstr(txt, "\"ndr_limited\":true"));
			assert_non_null(strstr(txt, "\"pdr_at_least\":true"));
			assert_non_null(strstr(txt, "\"coverage\":0.9375"));
			assert_non_null(strstr(txt, "\"max_load_pps\":1000000,\"ndr_pct_of_max_load\":1.2"));
		} else {
			assert_non_null(strstr(txt, "12.00k* [9.00k-15.00k] 94%"));
			assert_non_null(strstr(txt, "NDR limited by sporadic loss of "));
			/* no line rate here: the NDR as a share of the max load,
			 * "-" for the row that kept none */
			const char *t = strstr(txt, "NDR as % of the maximum load");

			assert_non_null(t);
			assert_non_null(strstr(t, "   64  1.2% of 1000.00k"));
			assert_non_null(strstr(t, "1000.00k          -\n"));
		}
		free(txt);
	}
	{
		char *page = NULL, e2[128];
		size_t plen = 0;
		FILE *pf = open_memstream(&page, &plen);

		assert_int_equal(html_report_write(&m, pf, e2, sizeof(e2)), 0);
		fclose(pf);
		assert_non_null(strstr(page, "NDR limited by sporadic loss of "));
		free(page);
	}
	db_close(db);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* Plain trials (wirerate trial [--repeat N]): a cell is the median rate
 * forwarded of the load offered, with the trials' range; compared only at
 * the same load, band against band (each widened by 0.5% of the load),
 * never when the tester fell short. */
static void trials_from_store(void **st)
{
	char dir[] = "/tmp/wr-test-report.XXXXXX", p[128], err[256];
	struct db *db;
	/* per run, its trials: offered, tx, rx, tester-limited */
	static const struct { double load; uint64_t tx, rx; bool tl; } t[8][3] = {
		{ { 100000, 200000, 198000, false } },				/* baseline: 99000 */
		{ { 100000, 200000, 198600, false } },				/* 99300: noise */
		{ { 100000, 200000, 118000, false } },				/* 59000: worse */
		{ { 200000, 400000, 400000, false } },				/* another load */
		{ { 100000, 150000, 148000, true } },				/* tester short: 74000 */
		{ { 100200, 200000, 200000, false } },				/* 100200: better */
		{ { 100000, 200000, 190000, false }, { 100000, 200000, 191000, false },
		  { 100000, 200000, 189000, false } },				/* 3 trials: worse */
		/* tester short, but the DUT lost a third of what it got: full,
		 * its 50000 is its own */
		{ { 100000, 150000, 100000, true } },
	};
	static const enum rm_verdict want[8] = { RM_BASELINE, RM_NOISE, RM_WORSE, RM_NONE, RM_NONE, RM_BETTER,
						 RM_WORSE, RM_WORSE };
	int64_t id[8];

	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/r.db", dir);
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	for (int r = 0; r < 8; r++) {
		struct db_run_info ri = { .test = "trial", .sizes = "64", .config = "rules=0", .repeats = 1 };

		assert_int_equal(db_run_begin(db, &ri, NULL, 0, &id[r], err, sizeof(err)), 0);
		for (unsigned int k = 0; k < 3 && t[r][k].tx; k++) {
			struct db_trial tr = { .size = 64, .test = 'x', .repeat = k, .load = t[r][k].load,
					       .duration_s = 2, .tx = t[r][k].tx, .rx = t[r][k].rx,
					       .tester_limited = t[r][k].tl, .cpu_valid = true, .cpu_busy_pct = 50,
					       .cpu_soak_pct = -1, .ns_per_frame = 3000 + r, .cpu_source = "proc" };

			assert_int_equal(db_trial_add(db, id[r], &tr, err, sizeof(err)), 0);
		}
		assert_int_equal(db_run_end(db, id[r], "complete", NULL, err, sizeof(err)), 0);
	}
	assert_int_equal(report_db_load(db, id, 8, &m, err, sizeof(err)), 0);
	assert_int_equal(m.nsizes, 1);
	report_db_compare(&m, 5);
	for (int r = 0; r < 6; r++) {
		const struct rm_cell *c = report_model_cell_of(&m.run[r], 64);

		assert_non_null(c);
		assert_true(c->have_trial && !c->have_thr && c->trials == 1);
		/* offered: the load, or what the generator sent in its 2 s when
		 * it fell short (run 4: 75000 offered, 74000 forwarded) */
		double offered = t[r][0].tx / 2.0 < t[r][0].load * 0.995 ? t[r][0].tx / 2.0 : t[r][0].load;

		assert_true(fabs(c->trial_fwd_pps - offered * (double)t[r][0].rx / (double)t[r][0].tx) < 1e-6);
		assert_true(c->ns_per_frame == 3000 + r);
		assert_int_equal(c->verdict, want[r]);
	}
	const struct rm_cell *c3 = report_model_cell_of(&m.run[6], 64);

	assert_true(c3->trials == 3 && c3->trial_fwd_pps == 95000 && c3->trial_fwd_min == 94500 &&
		    c3->trial_fwd_max == 95500);
	assert_true(fabs(c3->trial_loss_pct - 5) < 1e-9);
	assert_int_equal(c3->verdict, want[6]);
	assert_false(report_model_cell_of(&m.run[7], 64)->tester_limited);
	assert_int_equal(report_model_cell_of(&m.run[7], 64)->verdict, want[7]);
	assert_true(report_model_cell_of(&m.run[4], 64)->tester_limited);
	assert_true(fabs(report_model_cell_of(&m.run[2], 64)->trial_loss_pct - 41) < 1e-9);
	assert_true(fabs(report_model_cell_of(&m.run[2], 64)->diff_pct - (59000 - 99000) * 100.0 / 99000) < 1e-9);
	assert_true(m.regression);		/* 59000 against 99000, limit 5% */
	report_db_compare(&m, 50);
	assert_false(m.regression);		/* the gap is (98500 - 59500) / 99000: 39% */

	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	report_print_csv(&m, f);
	fclose(f);
	assert_non_null(strstr(buf, ",trials,trial_offered_pps,trial_forwarded_pps,trial_forwarded_min_pps,"
				    "trial_forwarded_max_pps,trial_loss_pct,ndr_interval_lo_pps,ndr_interval_hi_pps,"
				    "ndr_interval_coverage,pdr_at_least,ndr_noise_limited,noise_ppm_lo,noise_ppm_hi,"
				    "stream_runs,stream_received_mbps,stream_received_min_mbps,stream_received_max_mbps,"
				    "stream_sent_mbps,stream_loss_pct,stream_send_sd_us_per_kb,"
				    "stream_receive_sd_us_per_kb,stream_dut_sd_us_per_kb\n"));
	/* plain trials have no interval of an NDR, no noise floor, no stream */
	assert_non_null(strstr(buf, ",worse,-40.4040404040404,1,100000,59000,59000,59000,41,,,,0,0" ",,,,,,,,,,,\n"));
	assert_non_null(strstr(buf, ",3,100000,95000,94500,95500,5,,,,0,0" ",,,,,,,,,,,\n"));
	free(buf);
	db_close(db);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* One run of plain trials at 100 kpps for 2 s, stored with its label and
 * round (0: none): rx of 200000 sent. */
static int64_t round_run(struct db *db, const char *label, unsigned int round, uint64_t rx)
{
	struct db_run_info ri = { .test = "trial", .sizes = "64", .config = "rules=0", .repeats = 1, .label = label };
	struct db_trial tr = { .size = 64, .test = 'x', .load = 100000, .duration_s = 2, .tx = 200000, .rx = rx };
	char v[16], err[256];
	struct db_kv kv = { "run.round", v };
	int64_t id;

	snprintf(v, sizeof(v), "%u", round);
	assert_int_equal(db_run_begin(db, &ri, &kv, round ? 1 : 0, &id, err, sizeof(err)), 0);
	assert_int_equal(db_trial_add(db, id, &tr, err, sizeof(err)), 0);
	assert_int_equal(db_run_end(db, id, "complete", NULL, err, sizeof(err)), 0);
	return id;
}

/* Runs in rounds, as a matrix stores them: the rounds of one label make
 * one column (the median over them, their range); its verdict against
 * the baseline is the paired one. The host steps 9% between rounds: two
 * equal configurations are never worse or better (their rounds moved
 * together), one 10% below is worse; without rounds in common, a change
 * smaller than the baseline's own drift (its drift check) is "cannot
 * tell". */
static void rounds_from_store(void **st)
{
	char dir[] = "/tmp/wr-test-report.XXXXXX", p[128], err[256];
	/* the host's level per round, and the order ABBA ... */
	static const double host[3] = { 1.0, 0.91, 0.95 };
	int64_t id[16];
	unsigned int n = 0;
	struct db *db;

	(void)st;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/r.db", dir);
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	for (unsigned int r = 0; r < 3; r++) {
		uint64_t a = (uint64_t)(198000 * host[r]);

		id[n++] = round_run(db, "A", r + 1, a);
		id[n++] = round_run(db, "B", r + 1, a + 300 * (r == 1 ? 1 : 0));	/* equal, within 0.2% */
		id[n++] = round_run(db, "C", r + 1, (uint64_t)(a * 0.9));
	}
	assert_int_equal(report_db_load(db, id, n, &m, err, sizeof(err)), 0);
	assert_int_equal(m.nruns, 3);
	report_db_compare(&m, 5);
	for (unsigned int r = 0; r < 3; r++) {
		const struct rm_cell *c = report_model_cell_of(&m.run[r], 64);

		assert_int_equal(m.run[r].nrounds, 3);
		assert_int_equal(m.run[r].round_no[2], 3);
		assert_true(c->trials == 3);
		assert_true(c->trial_fwd_min < c->trial_fwd_pps && c->trial_fwd_pps < c->trial_fwd_max);
	}
	const struct rm_cell *b = report_model_cell_of(&m.run[1], 64), *c = report_model_cell_of(&m.run[2], 64);

	assert_string_equal(m.run[1].label, "B");
	assert_true(b->have_paired && b->paired.n == 3);
	assert_true(b->verdict == RM_NOISE || b->verdict == RM_CANNOT_TELL);
	/* the bands of the rounds overlap: without pairing this was noise too,
	 * but so would a 5% drop be; with it, 10% is found */
	assert_true(c->have_paired);
	assert_int_equal(c->verdict, RM_WORSE);
	assert_true(fabs(c->diff_pct + 10) < 0.5);
	assert_true(b->paired.drift_pct > 8);
	assert_true(m.regression);
	/* a round given twice is refused */
	id[n] = round_run(db, "A", 2, 198000);
	assert_int_equal(report_db_load(db, id, n + 1, &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "round 2 of 'A'"));

	/* the drift check: D in round 1, E, D again in round 2, 9% lower; E
	 * is below both of D's, but by 6.9% of their median: less than D
	 * moved by itself */
	n = 0;
	id[n++] = round_run(db, "D", 1, 198000);
	id[n++] = round_run(db, "E", 1, 176000);
	id[n++] = round_run(db, "D", 2, 180000);
	assert_int_equal(report_db_load(db, id, n, &m, err, sizeof(err)), 0);
	assert_int_equal(m.nruns, 2);
	report_db_compare(&m, 1);
	c = report_model_cell_of(&m.run[1], 64);
	assert_false(c->have_paired);
	assert_true(c->drift_pct > 9);
	assert_int_equal(c->verdict, RM_CANNOT_TELL);
	assert_false(m.regression);

	/* the text says the pairing and the drift */
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct out *o = out_create(f, false);

	report_print(o, &m);
	out_destroy(o);
	fclose(f);
	assert_non_null(strstr(buf, "cannot tell"));
	assert_non_null(strstr(buf, "2 rounds: runs"));
	assert_non_null(strstr(buf, "moved 9.5% by itself"));
	free(buf);
	db_close(db);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* A bisection's forwarded figure: a trial the tester fell short of is
 * the tester's bound, unless the DUT lost 5% or more of what it got (then
 * full, as 'report' reads it). */
static void bisect_bound_from_store(void **st)
{
	char dir[] = "/tmp/wr-test-report.XXXXXX", p[128], err[256];
	struct db *db;
	int64_t short_full, short_clean;
	double v[4];
	unsigned int n;
	bool bound;

	(void)st;
	assert_non_null(mkdtemp(dir));
	snprintf(p, sizeof(p), "%s/r.db", dir);
	assert_int_equal(db_open(p, true, &db, err, sizeof(err)), 0);
	short_full = round_run(db, "a", 0, 100000);	/* 200000 sent, half lost */
	short_clean = round_run(db, "b", 0, 199000);	/* 0.5% lost */
	assert_int_equal(sqlite3_exec(db_sqlite(db), "UPDATE trials SET tester_limited = 1", NULL, NULL, NULL), SQLITE_OK);
	assert_int_equal(bisect_db_values(db, short_full, BISECT_FIG_FORWARDED, 0, v, 4, &n, &bound, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_true(fabs(v[0] - 50000) < 1e-6);
	assert_false(bound);
	assert_int_equal(bisect_db_values(db, short_clean, BISECT_FIG_FORWARDED, 0, v, 4, &n, &bound, err, sizeof(err)), 0);
	assert_true(bound);
	db_close(db);
	snprintf(p, sizeof(p), "rm -rf '%s'", dir);
	assert_int_equal(system(p), 0);
}

/* Runs from several stores: a label is the latest in any, K:RUN one
 * store's, an id in two stores is ambiguous, a UUID finds its run, and
 * the loaded runs come each from its own store. */
static void resolve_in_stores(void **st)
{
	char dir[] = "/tmp/wr-test-report.XXXXXX", p[2][128], err[256], note[160], uuid[64] = "";
	struct db *db[2];
	const char *names[2] = { p[0], p[1] };
	int64_t id[2][2], got, ids[2];
	unsigned int which = 9;
	struct db *dbs[2];

	(void)st;
	assert_non_null(mkdtemp(dir));
	for (int s = 0; s < 2; s++) {
		snprintf(p[s], sizeof(p[s]), "%s/s%d.db", dir, s);
		assert_int_equal(db_open(p[s], true, &db[s], err, sizeof(err)), 0);
		for (int r = 0; r < 2; r++) {
			/* store 1's "nightly" run is the later one: begun after
			 * a second's wait */
			struct db_run_info ri = { .test = "trial", .label = r ? "nightly" : (s ? "only-1" : "only-0"),
						  .sizes = "64", .config = "", .repeats = 1 };

			if (s && r)
				sleep(1);
			assert_int_equal(db_run_begin(db[s], &ri, NULL, 0, &id[s][r], err, sizeof(err)), 0);
			assert_int_equal(db_run_end(db[s], id[s][r], "complete", NULL, err, sizeof(err)), 0);
		}
	}
	/* both stores number their runs 1, 2 */
	assert_int_equal(id[0][0], id[1][0]);
	assert_int_equal(report_db_resolve_in(db, names, 2, "nightly", &which, &got, note, sizeof(note), err,
					   sizeof(err)), 0);
	assert_int_equal(which, 1);
	assert_int_equal(got, id[1][1]);
	assert_non_null(strstr(note, "2 runs in 2 stores"));
	assert_int_equal(report_db_resolve_in(db, names, 2, "1:nightly", &which, &got, note, sizeof(note), err,
					   sizeof(err)), 0);
	assert_int_equal(which, 0);
	assert_int_equal(got, id[0][1]);
	assert_int_equal(report_db_resolve_in(db, names, 2, "only-0", &which, &got, note, sizeof(note), err,
					   sizeof(err)), 0);
	assert_int_equal(which, 0);
	assert_string_equal(note, "");
	/* the same id in both: ambiguous, both named */
	assert_int_equal(report_db_resolve_in(db, names, 2, "1", &which, &got, note, sizeof(note), err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "1: "));
	assert_non_null(strstr(err, "2: "));
	assert_int_equal(report_db_resolve_in(db, names, 2, "2:1", &which, &got, note, sizeof(note), err, sizeof(err)),
			 0);
	assert_int_equal(which, 1);
	assert_int_equal(got, id[1][0]);
	/* 3 is no store's place: a label, and there is none */
	assert_int_equal(report_db_resolve_in(db, names, 2, "3:1", &which, &got, note, sizeof(note), err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "'3:1'"));
	/* a run's UUID, from store 1 */
	{
		sqlite3_stmt *q;

		assert_int_equal(sqlite3_prepare_v2(db_sqlite(db[1]), "SELECT uuid FROM runs WHERE label = 'only-1'", -1,
						    &q, NULL), SQLITE_OK);
		assert_int_equal(sqlite3_step(q), SQLITE_ROW);
		snprintf(uuid, sizeof(uuid), "%s", (const char *)sqlite3_column_text(q, 0));
		sqlite3_finalize(q);
	}
	assert_true(strlen(uuid) >= 32);
	assert_int_equal(report_db_resolve_in(db, names, 2, uuid, &which, &got, note, sizeof(note), err, sizeof(err)),
			 0);
	assert_int_equal(which, 1);
	assert_int_equal(got, id[1][0]);
	/* loaded each from its own store: the labels say which */
	ids[0] = id[0][0];
	ids[1] = id[1][0];
	dbs[0] = db[0];
	dbs[1] = db[1];
	assert_int_equal(report_db_load_stores(dbs, ids, 2, &m, err, sizeof(err)), 0);
	assert_string_equal(m.run[0].label, "only-0");
	assert_string_equal(m.run[1].label, "only-1");
	assert_string_equal(m.run[0].ref, "1");
	for (int s = 0; s < 2; s++)
		db_close(db[s]);
	snprintf(p[0], sizeof(p[0]), "rm -rf %s", dir);
	assert_int_equal(system(p[0]), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(clear_regression), cmocka_unit_test(clear_improvement), cmocka_unit_test(noise),
		cmocka_unit_test(at_least_and_missing), cmocka_unit_test(load_from_store),
		cmocka_unit_test(intervals_bounds_noise_from_store),
		cmocka_unit_test(trials_from_store), cmocka_unit_test(rounds_from_store), cmocka_unit_test(bisect_bound_from_store), cmocka_unit_test(resolve_in_stores),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
