/* What 'runs' (import, sync, upgrade, rm) and 'matrix' print for a fixed
 * input: the exact text, and the exact JSON from the same calls; the
 * matrix's printing hooks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/matrix_plan.h"
#include "render/matrix_print.h"
#include "render/rfc2544_print.h"
#include "render/out.h"
#include "render/runs_print.h"
#include "store/db.h"

static char err[512];

/* An out on memory: what it received, once closed. */
struct mem {
	FILE *f;
	char *buf;
	size_t len;
	struct out *o;
};

static struct out *mem_out(struct mem *m, bool json)
{
	m->buf = NULL;
	m->len = 0;
	m->f = open_memstream(&m->buf, &m->len);
	assert_non_null(m->f);
	m->o = out_create(m->f, json);
	assert_non_null(m->o);
	return m->o;
}

/* Finish the out and compare all it wrote with want. */
static void mem_is(struct mem *m, const char *want)
{
	out_destroy(m->o);
	fclose(m->f);
	assert_string_equal(m->buf, want);
	free(m->buf);
}

/* What fn(arg) printed on stdout (a temporary file in its place);
 * the caller frees it. */
static char *stdout_of(void (*fn)(const void *), const void *arg)
{
	FILE *tmp = tmpfile();
	int saved;
	long n;
	char *s;

	assert_non_null(tmp);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	assert_true(saved >= 0);
	assert_true(dup2(fileno(tmp), STDOUT_FILENO) >= 0);
	fn(arg);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	n = ftell(tmp);
	assert_true(n >= 0);
	s = calloc(1, (size_t)n + 1);
	assert_non_null(s);
	rewind(tmp);
	assert_int_equal(fread(s, 1, (size_t)n, tmp), n);
	fclose(tmp);
	return s;
}

/* import: the runs stored and their new ids (a range, one id, or none),
 * those skipped; the path escaped in text. */
static void runs_import(void **st)
{
	struct db_import_result two = { .imported = 2, .first = 5, .last = 6, .skipped = 1 };
	struct db_import_result one = { .imported = 1, .first = 4, .last = 4 };
	struct db_import_result none = { .skipped = 3 };
	struct mem m;

	(void)st;
	runs_print_import(mem_out(&m, false), "/s/r.db", &two);
	mem_is(&m, "imported 2 run(s) as 5-6 into /s/r.db; 1 already there (the same UUID), skipped\n");
	runs_print_import(mem_out(&m, true), "/s/r.db", &two);
	mem_is(&m, "{\"db\":\"/s/r.db\",\"imported\":2,\"first\":5,\"last\":6,\"skipped\":1}\n");

	runs_print_import(mem_out(&m, false), "/s/r.db", &one);
	mem_is(&m, "imported 1 run(s) as 4 into /s/r.db; 0 already there (the same UUID), skipped\n");
	runs_print_import(mem_out(&m, true), "/s/r.db", &one);
	mem_is(&m, "{\"db\":\"/s/r.db\",\"imported\":1,\"first\":4,\"last\":4,\"skipped\":0}\n");

	runs_print_import(mem_out(&m, false), "/s/r.db", &none);
	mem_is(&m, "imported 0 run(s) into /s/r.db; 3 already there (the same UUID), skipped\n");
	runs_print_import(mem_out(&m, true), "/s/r.db", &none);
	mem_is(&m, "{\"db\":\"/s/r.db\",\"imported\":0,\"skipped\":3}\n");

	runs_print_import(mem_out(&m, false), "/s/\x1b[2J", &none);
	mem_is(&m, "imported 0 run(s) into /s/\\x1b[2J; 3 already there (the same UUID), skipped\n");
	runs_print_import(mem_out(&m, true), "/s/\x1b[2J", &none);
	mem_is(&m, "{\"db\":\"/s/\\u001b[2J\",\"imported\":0,\"skipped\":3}\n");
}

/* sync: from one store into another, the same counts and ids. */
static void runs_sync(void **st)
{
	struct db_import_result two = { .imported = 2, .first = 5, .last = 6, .skipped = 1 };
	struct db_import_result one = { .imported = 1, .first = 9, .last = 9 };
	struct db_import_result none = { .skipped = 2 };
	struct mem m;

	(void)st;
	runs_print_sync(mem_out(&m, false), "/a.db", "/b.db", &two);
	mem_is(&m, "synced /a.db into /b.db: 2 run(s) copied as 5-6, 1 already there (the same UUID)\n");
	runs_print_sync(mem_out(&m, true), "/a.db", "/b.db", &two);
	mem_is(&m, "{\"from\":\"/a.db\",\"db\":\"/b.db\",\"imported\":2,\"first\":5,\"last\":6,\"skipped\":1}\n");

	runs_print_sync(mem_out(&m, false), "/a.db", "/b.db", &one);
	mem_is(&m, "synced /a.db into /b.db: 1 run(s) copied as 9, 0 already there (the same UUID)\n");

	runs_print_sync(mem_out(&m, false), "/a.db", "/b.db", &none);
	mem_is(&m, "synced /a.db into /b.db: 0 run(s) copied, 2 already there (the same UUID)\n");
	runs_print_sync(mem_out(&m, true), "/a.db", "/b.db", &none);
	mem_is(&m, "{\"from\":\"/a.db\",\"db\":\"/b.db\",\"imported\":0,\"skipped\":2}\n");
}

/* upgrade: the schema version now and what the file had: current
 * already, an empty file, or an older version. */
static void runs_upgrade(void **st)
{
	char want[256];
	struct mem m;

	(void)st;
	runs_print_upgrade(mem_out(&m, false), "/s.db", DB_SCHEMA_VERSION);
	snprintf(want, sizeof(want), "database /s.db: schema version %d, already current\n", DB_SCHEMA_VERSION);
	mem_is(&m, want);
	runs_print_upgrade(mem_out(&m, false), "/s.db", 0);
	snprintf(want, sizeof(want), "database /s.db: schema version %d, created in the empty file\n",
		 DB_SCHEMA_VERSION);
	mem_is(&m, want);
	runs_print_upgrade(mem_out(&m, false), "/s.db", DB_SCHEMA_VERSION - 2);
	snprintf(want, sizeof(want), "database /s.db: schema version %d, upgraded from %d\n", DB_SCHEMA_VERSION,
		 DB_SCHEMA_VERSION - 2);
	mem_is(&m, want);
	runs_print_upgrade(mem_out(&m, true), "/s.db", DB_SCHEMA_VERSION - 2);
	snprintf(want, sizeof(want), "{\"db\":\"/s.db\",\"schema_version\":%d,\"was\":%d}\n", DB_SCHEMA_VERSION,
		 DB_SCHEMA_VERSION - 2);
	mem_is(&m, want);
	runs_print_upgrade(mem_out(&m, true), "/s.db", 0);
	snprintf(want, sizeof(want), "{\"db\":\"/s.db\",\"schema_version\":%d,\"was\":0}\n", DB_SCHEMA_VERSION);
	mem_is(&m, want);
}

/* rm: a line for each run deleted, or their ids in an array (empty when
 * none). */
static void runs_removed(void **st)
{
	const int64_t ids[] = { 3, 9, 12 };
	struct mem m;

	(void)st;
	runs_print_removed(mem_out(&m, false), ids, 3);
	mem_is(&m, "deleted run 3\ndeleted run 9\ndeleted run 12\n");
	runs_print_removed(mem_out(&m, true), ids, 3);
	mem_is(&m, "{\"removed\":[3,9,12]}\n");
	runs_print_removed(mem_out(&m, false), ids, 0);
	mem_is(&m, "");
	runs_print_removed(mem_out(&m, true), ids, 0);
	mem_is(&m, "{\"removed\":[]}\n");
}

/* A matrix of two placements and one rules value, labelled. */
static void two_confs(struct app_matrix *m)
{
	static char bound[] = "bound", free_[] = "free", ru[] = "0";

	app_matrix_plan_init(m);
	assert_int_equal(app_matrix_plan_add(m, app_matrix_plan_axis(m, "placement"), bound, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_add(m, app_matrix_plan_axis(m, "placement"), free_, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_add(m, app_matrix_plan_axis(m, "rules"), ru, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_count(m, err, sizeof(err)), 0);
	assert_int_equal(app_matrix_plan_labels(m, NULL, err, sizeof(err)), 0);
}

/* The matrix's document: its tag and lab, each configuration's label,
 * run and lab settings (every axis given, in the axes' order), and the
 * report's document inside as the child wrote it; nothing in text. */
static void matrix_json(void **st)
{
	const char *report = "{\"runs\": [11,\n12]}\n";
	const struct app_matrix_step steps[] = { { 0, 1, false }, { 1, 1, false }, { 0, 2, true } };
	struct app_matrix mx;
	struct app_matrix_run r = { .m = &mx, .prefix = "t-", .mtag = "matrix-1", .steps = steps, .nsteps = 2,
				    .rounds = 1, .run_ids = { 11, 12 } };
	struct mem m;
	FILE *src;

	(void)st;
	two_confs(&mx);
	assert_non_null(src = tmpfile());
	fputs(report, src);
	matrix_print_json(mem_out(&m, true), &r, src);
	mem_is(&m, "{\"tag\":\"matrix-1\",\"prefix\":\"t-\",\"rounds\":1,\"interleaved\":false,\"configurations\":["
		   "{\"label\":\"bound\",\"run_id\":11,\"runs\":[{\"run_id\":11,\"round\":1}],"
		   "\"lab\":{\"placement\":\"bound\",\"rules\":\"0\"}},"
		   "{\"label\":\"free\",\"run_id\":12,\"runs\":[{\"run_id\":12,\"round\":1}],"
		   "\"lab\":{\"placement\":\"free\",\"rules\":\"0\"}}],"
		   "\"report\":{\"runs\": [11,\n12]}}\n");
	matrix_print_json(mem_out(&m, false), &r, src);
	mem_is(&m, "");
	fclose(src);

	/* no report written (the child failed): null; a label with the user's
	 * --label, escaped in JSON */
	assert_int_equal(app_matrix_plan_labels(&mx, "k\x01", err, sizeof(err)), 0);
	assert_non_null(src = tmpfile());
	/* and the drift check's run, the first configuration's second */
	r.mtag = "matrix-2";
	r.nsteps = 3;
	r.run_ids[2] = 13;
	matrix_print_json(mem_out(&m, true), &r, src);
	mem_is(&m, "{\"tag\":\"matrix-2\",\"prefix\":\"t-\",\"rounds\":1,\"interleaved\":false,\"configurations\":["
		   "{\"label\":\"k\\u0001 bound\",\"run_id\":11,\"runs\":[{\"run_id\":11,\"round\":1},"
		   "{\"run_id\":13,\"round\":2,\"drift_check\":true}],"
		   "\"lab\":{\"placement\":\"bound\",\"rules\":\"0\"}},"
		   "{\"label\":\"k\\u0001 free\",\"run_id\":12,\"runs\":[{\"run_id\":12,\"round\":1}],"
		   "\"lab\":{\"placement\":\"free\",\"rules\":\"0\"}}],"
		   "\"report\":null}\n");
	/* interleaved and shuffled: the order and its seed */
	r.interleave = true;
	r.order = APP_MATRIX_SHUFFLE;
	r.seed = 42;
	r.rounds = 2;
	matrix_print_json(mem_out(&m, true), &r, src);
	out_destroy(m.o);
	fclose(m.f);
	assert_non_null(strstr(m.buf, "\"rounds\":2,\"interleaved\":true,\"order\":\"shuffle\",\"seed\":42,"));
	free(m.buf);
	fclose(src);
}

static void print_config(const void *label)
{
	matrix_print_config(1, 4, label, 1, 1, false);
}

static void print_round(const void *label)
{
	matrix_print_config(4, 6, label, 2, 3, false);
}

static void print_drift(const void *label)
{
	matrix_print_config(3, 4, label, 2, 1, true);
}

static void print_begin(const void *prefix)
{
	static struct app_matrix mx = { .nconf = 3 };
	struct app_matrix_run r = { .m = &mx, .prefix = prefix, .remote = !prefix, .mtag = "matrix-\x1b",
				    .rounds = 1 };

	matrix_print_begin(&r);
}

static void print_begin_rounds(const void *order)
{
	static struct app_matrix mx = { .nconf = 2 };
	struct app_matrix_run r = { .m = &mx, .prefix = "t-", .mtag = "m", .rounds = 3, .interleave = true,
				    .order = *(const enum app_matrix_order *)order, .seed = 7 };

	matrix_print_begin(&r);
}

/* The lines on stdout: "matrix C/N: LABEL" (counted from 1) and the
 * first line, in a lab or on the test's DUT; what the user gave escaped. */
static void matrix_lines(void **st)
{
	char *got;

	(void)st;
	got = stdout_of(print_config, "bound,rules=0");
	assert_string_equal(got, "matrix 2/4: bound,rules=0\n");
	free(got);
	got = stdout_of(print_config, "k\x1b[2J bound");
	assert_string_equal(got, "matrix 2/4: k\\x1b[2J bound\n");
	free(got);
	got = stdout_of(print_round, "free");
	assert_string_equal(got, "matrix 5/6: free (round 2 of 3)\n");
	free(got);
	got = stdout_of(print_drift, "bound");
	assert_string_equal(got, "matrix 4/4: bound (again: the drift check)\n");
	free(got);
	got = stdout_of(print_begin, "t-");
	assert_string_equal(got, "matrix: 3 configuration(s) in lab t-, runs tagged matrix-\\x1b\n"
				 "matrix: each configuration once, then the first again: the drift check\n");
	free(got);
	got = stdout_of(print_begin, NULL);
	assert_string_equal(got, "matrix: 3 configuration(s) on the test's DUT, runs tagged matrix-\\x1b\n"
				 "matrix: each configuration once, then the first again: the drift check\n");
	free(got);
	{
		enum app_matrix_order alt = APP_MATRIX_ALTERNATE, shuf = APP_MATRIX_SHUFFLE;

		got = stdout_of(print_begin_rounds, &alt);
		assert_string_equal(got, "matrix: 2 configuration(s) in lab t-, runs tagged m\n"
					 "matrix: 3 rounds, each every configuration once, in alternating order\n");
		free(got);
		got = stdout_of(print_begin_rounds, &shuf);
		assert_string_equal(got, "matrix: 2 configuration(s) in lab t-, runs tagged m\n"
					 "matrix: 3 rounds, each every configuration once, shuffled (seed 7)\n");
		free(got);
	}
}

/* The run's printing hooks: the first line, a configuration's line and
 * the blank line after it, in text; nothing on stdout with --json. */
static void run_hooks(const void *arg)
{
	const struct app_matrix_run *r = arg;
	struct matrix_print_run v = { 0 };

	matrix_print_hooks.begin(&v, r);
	matrix_print_hooks.starting(&v, r, 1);
	matrix_print_hooks.done(&v, r, 1);
}

static void matrix_hooks(void **st)
{
	struct app_matrix mx;
	const struct app_matrix_step steps[] = { { 0, 1, false }, { 1, 1, false }, { 0, 2, true } };
	struct app_matrix_run r = { .m = &mx, .prefix = "t-", .mtag = "matrix-1", .steps = steps, .nsteps = 3,
				    .rounds = 1 };
	char *got;

	(void)st;
	two_confs(&mx);
	got = stdout_of(run_hooks, &r);
	assert_string_equal(got, "matrix: 2 configuration(s) in lab t-, runs tagged matrix-1\n"
				 "matrix: each configuration once, then the first again: the drift check\n"
				 "matrix 2/3: free\n\n");
	free(got);
	r.remote = true;
	got = stdout_of(run_hooks, &r);
	assert_string_equal(got, "matrix: 2 configuration(s) on the test's DUT, runs tagged matrix-1\n"
				 "matrix: each configuration once, then the first again: the drift check\n"
				 "matrix 2/3: free\n\n");
	free(got);
	r.json = true;
	got = stdout_of(run_hooks, &r);
	assert_string_equal(got, "");
	free(got);
}

/* The report hook, with --json: the matrix's one document, made by the
 * ctx's create, the report's inside it. */
static struct mem report_mem;

static struct out *report_create(bool json, const char *command)
{
	(void)command;
	return mem_out(&report_mem, json);
}

static void matrix_report(void **st)
{
	struct matrix_print_run v = { .create = report_create };
	struct app_matrix mx;
	const struct app_matrix_step steps[] = { { 0, 1, false }, { 1, 1, false }, { 0, 2, false }, { 1, 2, false } };
	struct app_matrix_run r = { .m = &mx, .prefix = "t-", .mtag = "matrix-1", .json = true, .steps = steps,
				    .nsteps = 4, .rounds = 2, .interleave = true, .run_ids = { 11, 12, 14, 13 } };
	FILE *src;

	(void)st;
	two_confs(&mx);
	assert_non_null(src = tmpfile());
	fputs("{\"runs\": [11,\n12]}\n", src);
	assert_int_equal(matrix_print_hooks.report(&v, &r, src), 0);
	fclose(src);
	fclose(report_mem.f);
	assert_string_equal(report_mem.buf, "{\"tag\":\"matrix-1\",\"prefix\":\"t-\",\"rounds\":2,\"interleaved\":true,"
		   "\"order\":\"alternate\",\"configurations\":["
		   "{\"label\":\"bound\",\"run_id\":11,\"runs\":[{\"run_id\":11,\"round\":1},{\"run_id\":14,\"round\":2}],"
		   "\"lab\":{\"placement\":\"bound\",\"rules\":\"0\"}},"
		   "{\"label\":\"free\",\"run_id\":12,\"runs\":[{\"run_id\":12,\"round\":1},{\"run_id\":13,\"round\":2}],"
		   "\"lab\":{\"placement\":\"free\",\"rules\":\"0\"}}],"
		   "\"report\":{\"runs\": [11,\n12]}}\n");
	free(report_mem.buf);
}

/* The goals table: a goal whose lower bound reads below that of a goal
 * it is more tolerant than says why under its line (and in JSON's
 * "note"): here strict (1 s trials) tolerates long (2 s, no exceed
 * ratio), searched apart; none when it is not below, or not comparable. */
static struct rfc2544_result goal_res;

static void goal_notes(void **st)
{
	struct search_goal g[3];
	static const unsigned char set[] = { 0, 1, 0 }, slot[] = { 0, 0, 1 };
	struct rfc2544_print_opts p = { .tests = RFC2544_THROUGHPUT, .goal = g, .goal_set = set, .goal_slot = slot,
					.ngoal = 3 };
	struct rfc2544_row *row = &goal_res.row[0];
	struct search_bound b = { .lower = 19000, .upper = 19200, .lower_valid = true, .upper_valid = true };
	struct mem m;

	(void)st;
	assert_int_equal(goal_parse("strict:1f1d0l0e", &g[0], err, sizeof(err)), 0);
	assert_int_equal(goal_parse("long:2f2d0l0e", &g[1], err, sizeof(err)), 0);
	assert_int_equal(goal_parse("lossy:1f1d1l0e", &g[2], err, sizeof(err)), 0);
	goal_res.nrows = 1;
	row->size = 64;
	row->max_load = 40000;
	row->max_from = RFC2544_MAX_GIVEN;
	row->nrep = 1;
	row->rep[0] = (struct search_outcome){ .ndr = b, .pdr = b, .ngoals = 2, .done = true };
	row->rep[0].goal[0] = row->rep[0].goal[1] = b;
	row->rep[0].goal[1].lower = 19600;
	row->rep[0].goal[1].upper = 19800;
	row->thr = row->rep[0];
	row->more[0][0] = row->rep[0];
	row->more[0][0].goal[0].lower = 19500;
	row->more[0][0].goal[0].upper = 19700;
	row->more[0][0].ngoals = 1;
	mem_out(&m, false);
	rfc2544_print_result(m.o, &goal_res, &p);
	out_destroy(m.o);
	fclose(m.f);
	assert_non_null(strstr(m.buf, "     64  strict:1f1d0l0e                   19000        19200"));
	assert_non_null(strstr(m.buf, "note: below the stricter long's 19500: searched apart with its own trials "
				      "(final trials 1 s, long's 2 s), which RFC 9971 does not order\n"));
	/* one note: lossy tolerates long too, but is above it; long
	 * tolerates neither */
	assert_null(strstr(strstr(m.buf, "note:") + 1, "note:"));
	free(m.buf);
	/* long below strict: nothing to say (long is the stricter) */
	row->more[0][0].goal[0].lower = 18000;
	row->more[0][0].goal[0].upper = 18200;
	mem_out(&m, true);
	rfc2544_print_result(m.o, &goal_res, &p);
	out_destroy(m.o);
	fclose(m.f);
	assert_non_null(strstr(m.buf, "\"note\":\"\""));
	assert_null(strstr(m.buf, "below the stricter"));
	free(m.buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(goal_notes),
		cmocka_unit_test(runs_import),	cmocka_unit_test(runs_sync),   cmocka_unit_test(runs_upgrade),
		cmocka_unit_test(runs_removed), cmocka_unit_test(matrix_json), cmocka_unit_test(matrix_lines),
		cmocka_unit_test(matrix_hooks), cmocka_unit_test(matrix_report),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
