/* 'runs': filters, each run's status and headline, ids, sync and import,
 * rm all or none; and report's choice of runs. On stores in a temporary
 * directory. */
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
#include "app/runs.h"

static char err[512], dir[256], path[512];

struct seen {
	int n;
	int64_t id[8];
	char status[8][24], head[8][64];
};

static void collect(void *arg, const struct app_run_entry *e)
{
	struct seen *s = arg;

	s->id[s->n] = e->row->id;
	snprintf(s->status[s->n], sizeof(s->status[0]), "%s", e->status);
	snprintf(s->head[s->n], sizeof(s->head[0]), "%s", e->headline);
	s->n++;
}

static int64_t add_run(struct db *db, const char *label, const char *tag, const char *headline)
{
	const char *tags[] = { tag };
	struct db_run_info ri = { .test = "trial", .label = label, .tags = tags, .ntags = tag ? 1 : 0, .sizes = "64" };
	int64_t id;

	assert_int_equal(db_run_begin(db, &ri, NULL, 0, &id, err, sizeof(err)), 0);
	assert_int_equal(db_run_end(db, id, "complete", headline, err, sizeof(err)), 0);
	return id;
}

static int setup(void **st)
{
	struct db *db = NULL;

	snprintf(dir, sizeof(dir), "/tmp/wr-test-app-runs-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	if (db_open(path, true, &db, err, sizeof(err)))
		return -1;
	add_run(db, "a", "x", "NDR 64:1k f/s");
	add_run(db, "b", "x", NULL);
	add_run(db, "a", NULL, NULL);
	db_close(db);
	return 0;
}

static int teardown(void **st)
{
	char cmd[300];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) ? -1 : 0;
}

static void filters(void **st)
{
	struct db *db = NULL;
	char p[512];
	struct seen s = { 0 };
	struct db_run_filter all = { 0 }, by_label = { .label = "a" }, by_tag = { .tag = "x" },
			     later = { .since = INT64_MAX };

	assert_int_equal(app_runs_open(path, false, &db, p, sizeof(p), err, sizeof(err)), 0);
	assert_int_equal(app_runs_list(db, &all, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.status[0], "complete");
	assert_string_equal(s.head[0], "NDR 64:1k f/s");
	assert_string_equal(s.head[1], "0 trial(s) stored");
	memset(&s, 0, sizeof(s));
	assert_int_equal(app_runs_list(db, &by_label, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	assert_true(s.id[0] < s.id[1]);
	memset(&s, 0, sizeof(s));
	assert_int_equal(app_runs_list(db, &by_tag, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	memset(&s, 0, sizeof(s));
	assert_int_equal(app_runs_list(db, &later, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 0);
	db_close(db);
	/* nothing stored yet: no file, an empty list */
	snprintf(p, sizeof(p), "%s/none.db", dir);
	assert_int_equal(app_runs_open(p, false, &db, p, sizeof(p), err, sizeof(err)), -ENOENT);
	assert_int_equal(app_runs_list(NULL, &all, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 0);
}

static void ids(void **st)
{
	char *args[] = { "3", "1", "3", "007" };
	char *bad[] = { "1", "x" };
	int64_t v[4];
	size_t n;
	int at = -1;

	assert_int_equal(app_runs_ids(4, args, v, &n, &at), 0);
	assert_int_equal(n, 3);
	assert_true(v[0] == 3 && v[1] == 1 && v[2] == 7);
	assert_int_equal(app_runs_ids(2, bad, v, &n, &at), -EINVAL);
	assert_int_equal(at, 1);
}

/* Runs carried to another store, each once by its UUID; bad input
 * refused with nothing copied. */
static void sync_and_import(void **st)
{
	struct db_import_result r;
	char to[512], p[512], file[512];
	FILE *f;

	snprintf(to, sizeof(to), "%s/to.db", dir);
	assert_int_equal(app_runs_sync(path, to, &(struct db_run_filter){ 0 }, p, sizeof(p), &r, err, sizeof(err)), 0);
	assert_string_equal(p, to);
	assert_int_equal(r.imported, 3);
	assert_int_equal(r.skipped, 0);
	assert_int_equal(r.first, 1);
	assert_int_equal(r.last, 3);
	/* again: all there already */
	assert_int_equal(app_runs_sync(path, to, &(struct db_run_filter){ .label = "a" }, p, sizeof(p), &r, err,
				       sizeof(err)), 0);
	assert_int_equal(r.imported, 0);
	assert_int_equal(r.skipped, 2);
	assert_int_equal(app_runs_sync(to, to, &(struct db_run_filter){ 0 }, p, sizeof(p), &r, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "is the store it would copy into"));
	snprintf(file, sizeof(file), "%s/none.db", dir);
	assert_int_equal(app_runs_sync(file, to, &(struct db_run_filter){ 0 }, p, sizeof(p), &r, err, sizeof(err)),
			 -EINVAL);
	/* an import of what is not an export */
	snprintf(file, sizeof(file), "%s/x.json", dir);
	assert_non_null(f = fopen(file, "w"));
	fputs("{\"a\": 1} trailing", f);
	fclose(f);
	assert_int_equal(app_runs_import(file, to, p, sizeof(p), &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is not JSON (something follows the document)"));
	assert_non_null(f = fopen(file, "w"));
	fputs("{\"a\": 1}\n", f);
	fclose(f);
	assert_int_equal(app_runs_import(file, to, p, sizeof(p), &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "; nothing was imported"));
	assert_int_equal(app_runs_import(dir, to, p, sizeof(p), &r, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "is a directory"));
}

/* --since: an age back from now, or a date. */
static void since(void **st)
{
	int64_t t;

	(void)st;
	assert_int_equal(app_runs_since("30m", 100000, &t), 0);
	assert_int_equal(t, 100000 - 1800);
	assert_int_equal(app_runs_since("1.5h", 100000, &t), 0);
	assert_int_equal(t, 100000 - 5400);
	assert_int_equal(app_runs_since("1d", 100000, &t), 0);
	assert_int_equal(t, 100000 - 86400);
	assert_int_equal(app_runs_since("2d", 100000, &t), -ERANGE);
	assert_int_equal(app_runs_since("inf", 100000, &t), -EINVAL);
	assert_int_equal(app_runs_since("7", 100000, &t), -EINVAL);
	assert_int_equal(app_runs_since("7dd", 100000, &t), -EINVAL);
	assert_int_equal(app_runs_since("2024-05-01", 0, &t), 0);
	assert_true(t > 1714400000 && t < 1714700000);	/* that day, in any zone */
	assert_int_equal(app_runs_since("2024-05-01 13:00", 0, &t), 0);
	assert_int_equal(app_runs_since("2024-05-01x", 0, &t), -EINVAL);
}

static void noted(void *ctx, enum app_say how, const char *line)
{
	assert_int_equal(how, APP_SAY_NOTE);
	snprintf(ctx, 256, "%s", line);
}

/* report's runs: named by id or label, in one store or several (K:RUN),
 * the first the baseline; bad names refused before a store is read. */
static void report_runs(void **st)
{
	char *none[] = { NULL }, *empty[] = { "1", "" }, *many[RM_MAX_IDS + 1];
	char *byname[] = { "a", "2" }, *k[] = { "2:1", "1:3" }, *missing[] = { "9" }, note[256] = "";
	const char *two[] = { path, path }, *gone[] = { "/nonexistent/r.db" };
	const struct app_cli_hooks cli = { .say = noted, .ctx = note };
	struct app_report_cfg c = { .dbs = two, .ndb = 1, .runs = byname, .nruns = 2, .fail_pct = -1, .cli = &cli };
	struct report_model *m;

	assert_int_equal(app_report_check_runs(none, 0, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "give one or more runs (ids or labels; see 'wirerate runs')");
	assert_int_equal(app_report_check_runs(empty, 2, err, sizeof(err)), -EINVAL);
	for (int i = 0; i <= RM_MAX_IDS; i++)
		many[i] = "1";
	assert_int_equal(app_report_check_runs(many, RM_MAX_IDS + 1, err, sizeof(err)), -EINVAL);
	assert_int_equal(app_report_check_runs(many, RM_MAX_IDS, err, sizeof(err)), 0);
	/* label a is runs 1 and 3: the latest, said in a note */
	assert_int_equal(app_report_load(&c, &m, err, sizeof(err)), 0);
	assert_int_equal(m->nruns, 2);
	assert_int_equal(m->run[0].id, 3);
	assert_int_equal(m->run[1].id, 2);
	assert_string_equal(m->run[0].ref, "3");
	assert_string_equal(m->run[0].store, path);
	assert_non_null(strstr(note, "a"));
	free(m);
	/* two stores: K:RUN, and refs that say the store */
	c.ndb = 2;
	c.runs = k;
	assert_int_equal(app_report_load(&c, &m, err, sizeof(err)), 0);
	assert_string_equal(m->run[0].ref, "2:1");
	assert_string_equal(m->run[1].ref, "1:3");
	free(m);
	/* a run or a store that is not there is bad input */
	c.ndb = 1;
	c.runs = missing;
	c.nruns = 1;
	assert_int_equal(app_report_load(&c, &m, err, sizeof(err)), -EINVAL);
	assert_null(m);
	c.dbs = gone;
	assert_int_equal(app_report_load(&c, &m, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "no run '9': "));
}

/* --html's path before any work: a name for a regular file (new or
 * there already) in a directory that exists; not empty, not a directory
 * or a device, not longer than a path can be. */
static void report_html_path(void **st)
{
	static char lng[4097];
	char p[512], want[600];
	FILE *f;

	(void)st;
	assert_int_equal(app_report_check_html("", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--html: give a file name");
	assert_int_equal(app_report_check_html(dir, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "--html %s is a directory", dir);
	assert_string_equal(err, want);
	/* a new file in the temporary directory; then the same, there already */
	snprintf(p, sizeof(p), "%s/new.html", dir);
	assert_int_equal(app_report_check_html(p, err, sizeof(err)), 0);
	assert_non_null(f = fopen(p, "w"));
	fclose(f);
	assert_int_equal(app_report_check_html(p, err, sizeof(err)), 0);
	/* under a regular file: no directory there */
	snprintf(p, sizeof(p), "%s/new.html/r.html", dir);
	assert_int_equal(app_report_check_html(p, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ": no directory "));
	snprintf(p, sizeof(p), "%s/none/r.html", dir);
	assert_int_equal(app_report_check_html(p, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "--html %s/none/r.html: no directory %s/none", dir, dir);
	assert_string_equal(err, want);
	assert_int_equal(app_report_check_html("/dev/null", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--html /dev/null is not a regular file");
	/* a name alone is in the working directory, which is there */
	assert_int_equal(app_report_check_html("wr-test-never-written.html", err, sizeof(err)), 0);
	/* a path of 4095 characters (this directory, then "/." and "/" over
	 * again) is taken; one more "/" makes it too long */
	snprintf(lng, sizeof(lng), "%s", dir);
	while (strlen(lng) + 2 + 7 <= 4095)
		strcat(lng, "/.");
	while (strlen(lng) + 7 < 4095)
		strcat(lng, "/");
	strcat(lng, "/r.html");
	assert_int_equal(strlen(lng), 4095);
	assert_int_equal(app_report_check_html(lng, err, sizeof(err)), 0);
	memmove(lng + 1, lng, 4096);
	lng[0] = '/';
	assert_int_equal(strlen(lng), 4096);
	assert_int_equal(app_report_check_html(lng, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--html: the path is too long");
}

/* app_runs_do: each subcommand's work, and which failures are bad input. */
static void subcommands(void **st)
{
	char *two[] = { "2" }, *word[] = { "abc" }, *gone[] = { "99" }, *some[] = { "1", "99" };
	char *missing[] = { "/nonexistent/e.json" };
	struct app_runs_req q = { .sub = APP_RUNS_SHOW, .nargs = 1, .args = two, .db_path = path };
	struct app_runs_done d;
	struct db_run_filter all = { 0 };
	struct seen s = { 0 };
	struct db *db = NULL;
	char p[512];

	assert_int_equal(app_runs_do(&q, &d, err, sizeof(err)), 0);
	assert_non_null(d.doc);
	app_runs_done_free(&d);
	assert_null(d.doc);
	q.args = word;
	assert_int_equal(app_runs_do(&q, &d, err, sizeof(err)), -EINVAL);
	assert_true(d.bad_input);
	q = (struct app_runs_req){ .sub = APP_RUNS_EXPORT, .nargs = 1, .args = gone, .db_path = path };
	assert_int_equal(app_runs_do(&q, &d, err, sizeof(err)), -ENOENT);
	assert_true(d.bad_input);
	assert_null(d.doc);
	/* rm: all or none, nothing left to free after a failure */
	q = (struct app_runs_req){ .sub = APP_RUNS_RM, .nargs = 2, .args = some, .db_path = path };
	assert_int_equal(app_runs_do(&q, &d, err, sizeof(err)), -ENOENT);
	assert_true(d.bad_input);
	assert_null(d.ids);
	assert_int_equal(app_runs_open(path, false, &db, p, sizeof(p), err, sizeof(err)), 0);
	assert_int_equal(app_runs_list(db, &all, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	db_close(db);
	q = (struct app_runs_req){ .sub = APP_RUNS_UPGRADE, .db_path = path };
	assert_int_equal(app_runs_do(&q, &d, err, sizeof(err)), 0);
	assert_string_equal(d.path, path);
	assert_true(d.was > 0);
	/* a file to import that is not there: bad input, said as such */
	q = (struct app_runs_req){ .sub = APP_RUNS_IMPORT, .nargs = 1, .args = missing, .db_path = path };
	assert_int_equal(app_runs_do(&q, &d, err, sizeof(err)), -EINVAL);
	assert_true(d.bad_input);
	q.sub = APP_RUNS_LIST;
	assert_int_equal(app_runs_do(&q, &d, err, sizeof(err)), -EINVAL);
}

static void rm_all_or_none(void **st)
{
	struct db *db = NULL;
	char p[512];
	struct seen s = { 0 };
	struct db_run_filter all = { 0 };
	int64_t some[] = { 1, 99 }, one[] = { 1 };

	assert_int_equal(app_runs_open(path, true, &db, p, sizeof(p), err, sizeof(err)), 0);
	assert_int_equal(app_runs_delete(db, some, 2, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "no run 99: nothing deleted");
	assert_int_equal(app_runs_list(db, &all, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 3);
	assert_int_equal(app_runs_delete(db, one, 1, err, sizeof(err)), 0);
	memset(&s, 0, sizeof(s));
	assert_int_equal(app_runs_list(db, &all, collect, &s, err, sizeof(err)), 0);
	assert_int_equal(s.n, 2);
	db_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(filters),
		cmocka_unit_test(ids),
		cmocka_unit_test(since),
		cmocka_unit_test(sync_and_import),
		cmocka_unit_test(report_runs),
		cmocka_unit_test(report_html_path),
		cmocka_unit_test(subcommands),
		cmocka_unit_test(rm_all_or_none),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
