/* The runs list and deleting runs. */
#include "app/runs.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"

int app_runs_open(const char *path_opt, bool write, struct db **db, char *path, size_t len,
		  char *err, size_t errlen)
{
	if (path_opt)
		snprintf(path, len, "%s", path_opt);
	else if (db_default_path(path, len, err, errlen))
		return -EINVAL;
	return write ? db_open(path, false, db, err, errlen) : db_open_read(path, db, err, errlen);
}

struct list_ctx {
	struct db *db;
	void (*fn)(void *ctx, const struct app_run_entry *e);
	void *ctx;
	char boot[64];
};

static int list_one(void *arg, const struct db_run_row *r)
{
	struct list_ctx *l = arg;
	char head[320];
	struct app_run_entry e = { .row = r, .headline = head };

	e.status = db_run_status(l->db, r->status, r->id, r->pid, r->boot_id, l->boot);
	if (r->headline[0])
		snprintf(head, sizeof(head), "%s", r->headline);
	else
		snprintf(head, sizeof(head), "%lld trial(s) stored", (long long)r->ntrials);
	l->fn(l->ctx, &e);
	return 0;
}

int app_runs_list(struct db *db, const struct db_run_filter *f,
		  void (*fn)(void *ctx, const struct app_run_entry *e), void *ctx, char *err, size_t errlen)
{
	struct list_ctx l = { .db = db, .fn = fn, .ctx = ctx };

	if (!db)
		return 0;
	db_boot_id(l.boot, sizeof(l.boot));
	return db_runs_list(db, f, list_one, &l, err, errlen);
}

int app_runs_ids(int n, char **args, int64_t *ids, size_t *nids, int *bad)
{
	char err[128];

	*nids = 0;
	for (int i = 0; i < n; i++) {
		uint64_t v;
		size_t k;

		if (u64_parse(args[i], 1, INT64_MAX, &v, err, sizeof(err))) {
			*bad = i;
			return -EINVAL;
		}
		for (k = 0; k < *nids && ids[k] != (int64_t)v; k++)
			;
		if (k == *nids)
			ids[(*nids)++] = (int64_t)v;
	}
	return 0;
}

int app_runs_delete(struct db *db, const int64_t *ids, size_t n, char *err, size_t errlen)
{
	int rc = db_runs_delete(db, ids, n, err, errlen);

	if (rc == -ENOENT) {
		size_t l = strlen(err);

		snprintf(err + l, errlen - l, ": nothing deleted");
	}
	return rc;
}
