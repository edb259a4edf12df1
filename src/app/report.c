#include "app/report.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "app/trend.h"
#include "core/errmsg.h"
#include "store/db.h"
#include "store/db_runs.h"

int app_report_check_runs(char *const *runs, int nruns, char *err, size_t errlen)
{
	if (nruns < 1) {
		snprintf(err, errlen, "give one or more runs (ids or labels; see 'wirerate runs')");
		return -EINVAL;
	}
	if (nruns > RM_MAX_IDS) {
		snprintf(err, errlen, "at most %d runs in one report", RM_MAX_IDS);
		return -EINVAL;
	}
	for (int i = 0; i < nruns; i++)
		if (!runs[i][0]) {
			snprintf(err, errlen, "an empty run name: give a run id or a label (see 'wirerate runs')");
			return -EINVAL;
		}
	return 0;
}

/* A store or a run not there is bad input, as a file not ours is. */
static int input(int rc)
{
	return rc == -ENOENT ? -EINVAL : rc;
}

int app_report_open(const char *const *dbs, unsigned int ndb, const char *run, char *path, size_t plen,
		    const char **names, struct db **db, char *err, size_t errlen)
{
	unsigned int n = ndb ? ndb : 1;
	char e[512];
	int rc;

	if (ndb)
		memcpy(names, dbs, n * sizeof(*names));
	else if (db_default_path(path, plen, err, errlen))
		return -EINVAL;
	else
		names[0] = path;
	for (unsigned int i = 0; i < n; i++)
		if ((rc = db_open_read(names[i], &db[i], e, sizeof(e)))) {
			if (rc == -ENOENT && n == 1 && run)
				snprintf(err, errlen, "no run '%s': %s", run, e);
			else
				snprintf(err, errlen, "%s", e);
			return input(rc);
		}
	return 0;
}

void app_report_close(struct db **db)
{
	for (unsigned int i = 0; i < REPORT_MAX_STORES; i++) {
		db_close(db[i]);
		db[i] = NULL;
	}
}

/* Each run's store, and its id there. */
static int resolve(const struct app_report_cfg *c, struct db **db, const char **names, unsigned int *which,
		   int64_t *ids, char *err, size_t errlen)
{
	unsigned int ndb = c->ndb ? c->ndb : 1;
	char note[256];
	int rc;

	for (unsigned int i = 0; i < c->nruns; i++) {
		if ((rc = report_db_resolve_in(db, names, ndb, c->runs[i], &which[i], &ids[i], note, sizeof(note), err,
					    errlen)))
			return input(rc);
		if (note[0] && c->cli)
			c->cli->say(c->cli->ctx, APP_SAY_NOTE, note);
	}
	return 0;
}

int app_report_load(const struct app_report_cfg *c, struct report_model **mp, char *err, size_t errlen)
{
	struct db *db[REPORT_MAX_STORES] = { NULL }, *dbs[RM_MAX_IDS];
	const char *names[REPORT_MAX_STORES];
	unsigned int which[RM_MAX_IDS];
	int64_t ids[RM_MAX_IDS];
	struct report_model *m = NULL;
	char path[4096];
	int rc;

	*mp = NULL;
	if ((rc = app_report_check_runs(c->runs, (int)c->nruns, err, errlen)) ||
	    (rc = app_report_open(c->dbs, c->ndb, c->runs[0], path, sizeof(path), names, db, err, errlen)) ||
	    (rc = resolve(c, db, names, which, ids, err, errlen)))
		goto out;
	for (unsigned int i = 0; i < c->nruns; i++)
		dbs[i] = db[which[i]];
	if (!(m = calloc(1, sizeof(*m)))) {
		snprintf(err, errlen, "out of memory");
		rc = -ENOMEM;
		goto out;
	}
	if ((rc = report_db_load_stores(dbs, ids, c->nruns, m, err, errlen))) {
		rc = input(rc);
		goto out;
	}
	/* each run's store; of several, the runs are K:ID */
	for (unsigned int i = 0; i < m->nruns; i++) {
		unsigned int w = which[m->run[i].arg];

		snprintf(m->run[i].store, sizeof(m->run[i].store), "%s", names[w]);
		if (c->ndb > 1)
			snprintf(m->run[i].ref, sizeof(m->run[i].ref), "%u:%lld", w + 1, (long long)m->run[i].id);
	}
	report_db_title(m);
	report_db_compare(m, c->fail_pct);
	*mp = m;
	m = NULL;
out:
	free(m);
	app_report_close(db);
	return rc;
}

/* The page's path, checked before any work: a name, not a directory or a
 * device (the page is renamed over it), in a directory that exists. */
int app_report_check_html(const char *path, char *err, size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat sb;

	if (!*path) {
		snprintf(err, errlen, "--html: give a file name");
		return -EINVAL;
	}
	if (strlen(path) >= sizeof(dir)) {
		snprintf(err, errlen, "--html: the path is too long");
		return -EINVAL;
	}
	if (!stat(path, &sb) && !S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "--html %s is %s", path, S_ISDIR(sb.st_mode) ? "a directory" : "not a regular file");
		return -EINVAL;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if (stat(dir, &sb) || !S_ISDIR(sb.st_mode)) {
		snprintf(err, errlen, "--html %s: no directory %s", path, dir);
		return -EINVAL;
	}
	return 0;
}

int app_report_check(const struct app_report_opts *op, char *err, size_t errlen)
{
	if (op->trend) {
		if (op->nruns)
			return errmsg(-EINVAL, err, errlen,
				      "--trend takes no RUN: the series is the runs --label, --tag, --dut and --test choose");
		if (op->csv || op->csv_loss)
			return errmsg(-EINVAL, err, errlen,
				      "--trend gives text, --json or --html, not --csv or --csv-loss");
	} else {
		if (op->tag && op->nruns)
			return errmsg(-EINVAL, err, errlen, "--tag T or RUN..., not both: --tag compares every run tagged T");
		if (op->label || op->test || op->size || op->dut[0])
			return errmsg(-EINVAL, err, errlen,
				      "--label, --dut, --test and --size choose the runs of --trend; name runs as RUN");
		if (!op->tag && app_report_check_runs(op->runs, op->nruns, err, errlen))
			return -EINVAL;
		if (op->csv + op->csv_loss + op->json > 1)
			return errmsg(-EINVAL, err, errlen, "one of --csv, --csv-loss and --json");
	}
	return op->html ? app_report_check_html(op->html, err, errlen) : 0;
}

static enum app_report_why input_or_host(int rc)
{
	return rc == -EINVAL ? APP_REPORT_INPUT : APP_REPORT_HOST;
}

/* The runs tagged --tag, oldest first, as their ids. */
struct tagged {
	char id[RM_MAX_IDS][24];
	char *runs[RM_MAX_IDS];
	unsigned int n;
	bool over;
};

static int tagged_row(void *ctx, const struct db_run_row *r)
{
	struct tagged *t = ctx;

	if (t->n == RM_MAX_IDS) {
		t->over = true;
		return 1;
	}
	snprintf(t->id[t->n], sizeof(t->id[0]), "%lld", (long long)r->id);
	t->runs[t->n] = t->id[t->n];
	t->n++;
	return 0;
}

static int tagged_runs(const struct app_report_opts *op, struct tagged *t, char *err, size_t errlen)
{
	const struct db_run_filter f = { .tag = op->tag };
	struct db *db[REPORT_MAX_STORES] = { 0 };
	const char *names[REPORT_MAX_STORES];
	char path[4096];
	int rc;

	if (op->ndb > 1)
		return errmsg(-EINVAL, err, errlen, "--tag reads one store: give one --db");
	if (!(rc = app_report_open(op->db, op->ndb, NULL, path, sizeof(path), names, db, err, errlen)))
		rc = db_runs_list(db[0], &f, tagged_row, t, err, errlen);
	app_report_close(db);
	if (rc < 0)
		return rc;
	if (t->over)
		return errmsg(-EINVAL, err, errlen, "more than %d runs tagged %s", RM_MAX_IDS, op->tag);
	if (!t->n)
		return errmsg(-EINVAL, err, errlen, "no run tagged %s", op->tag);
	return 0;
}

int app_report_run(const struct app_report_opts *op, const struct app_cli_hooks *cli,
		   const struct app_report_hooks *h, void *ctx, enum app_report_why *why, char *err, size_t errlen)
{
	struct app_report_cfg c = { .dbs = op->db, .ndb = op->ndb, .runs = op->runs,
				    .nruns = (unsigned int)op->nruns, .fail_pct = op->fail_pct, .cli = cli };
	struct report_model *m = NULL;
	struct tagged *t = NULL;
	int rc;

	if (op->tag) {
		if (!(t = calloc(1, sizeof(*t)))) {
			*why = APP_REPORT_HOST;
			return errmsg(-ENOMEM, err, errlen, "out of memory");
		}
		if ((rc = tagged_runs(op, t, err, errlen))) {
			free(t);
			*why = input_or_host(rc);
			return rc;
		}
		c.runs = t->runs;
		c.nruns = t->n;
	}
	rc = app_report_load(&c, &m, err, errlen);
	free(t);
	if (rc) {
		*why = input_or_host(rc);
		return rc;
	}
	*why = APP_REPORT_HOST;
	if (op->html && (rc = h->page(ctx, op->html, m, err, errlen))) {
		if (rc == -ENOSYS)
			snprintf(err, errlen, "--html: this build cannot write HTML yet");
	} else if ((rc = h->print(ctx, op, m))) {
		snprintf(err, errlen, "writing the report: %s", strerror(-rc));
	} else {
		*why = op->fail_pct >= 0 && m->regression ? APP_REPORT_REGRESSION : APP_REPORT_OK;
	}
	free(m);
	return rc;
}

int app_report_trend(const struct app_report_opts *op, const struct app_cli_hooks *cli,
		     const struct app_report_hooks *h, void *ctx, enum app_report_why *why, char *err,
		     size_t errlen)
{
	const struct db_run_filter f = { .label = op->label, .tag = op->tag, .dut = op->dut[0] ? op->dut : NULL };
	struct db *db[REPORT_MAX_STORES] = { 0 };
	const char *names[REPORT_MAX_STORES];
	char path[4096], e[2 * 4096 + 512];
	struct trend t;
	bool regression;
	int rc;

	(void)cli;	/* the series names no run: nothing to note */
	if ((rc = app_report_open(op->db, op->ndb, NULL, path, sizeof(path), names, db, err, errlen))) {
		app_report_close(db);
		*why = input_or_host(rc);
		return rc;
	}
	rc = app_trend(db, op->ndb ? op->ndb : 1, &f, op->test, op->size, &t, e, sizeof(e));
	app_report_close(db);
	if (rc) {
		snprintf(err, errlen, "--trend: %s", e);
		*why = input_or_host(rc);
		return rc;
	}
	/* the last change worse than the group before it by more than asked */
	regression = op->fail_pct >= 0 && t.nc && t.c[t.nc - 1].worse && -t.c[t.nc - 1].pct > op->fail_pct;
	if (op->html && (rc = h->trend_page(ctx, op->html, &t, err, errlen))) {
		*why = APP_REPORT_HOST;
	} else {
		h->trend_print(ctx, op, &t, regression);
		*why = regression ? APP_REPORT_REGRESSION : APP_REPORT_OK;
	}
	app_trend_free(&t);
	return rc;
}
