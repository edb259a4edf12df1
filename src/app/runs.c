/* The runs list, deleting runs, and importing and syncing them. */
#include "app/runs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <sys/stat.h>

#include "core/errmsg.h"
#include "core/json_bound.h"
#include "core/units.h"
#include "os/procstat.h"
#include "wr_config.h"

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
	procstat_boot_id(NULL, l.boot, sizeof(l.boot));
	return db_runs_list(db, f, list_one, &l, err, errlen);
}

int app_runs_ids(int n, char **args, int64_t *ids, size_t *nids, int *bad)
{
	char err[128];

	*nids = 0;
	for (int i = 0; i < n; i++) {
		uint64_t v;
		size_t k;

		if (units_u64_parse(args[i], 1, INT64_MAX, &v, err, sizeof(err))) {
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
	int rc = db_delete_runs(db, ids, n, err, errlen);

	if (rc == -ENOENT) {
		size_t l = strlen(err);

		snprintf(err + l, errlen - l, ": nothing deleted");
	}
	return rc;
}

/* An age such as 30m, 12h or 7d (decimal: strtod would also take inf,
 * nan and hex), as Unix time; -ERANGE when it reaches back before 1970,
 * which could also overflow the subtraction. */
static int parse_age(const char *s, int64_t now, int64_t *out)
{
	size_t n = strspn(s, "0123456789.eE");
	double v, mul;
	char *end;

	if (!n || !s[n] || s[n + 1] || !strchr("smhd", s[n]))
		return -EINVAL;
	v = strtod(s, &end);
	if (end != s + n)
		return -EINVAL;
	mul = s[n] == 's' ? 1 : s[n] == 'm' ? 60 : s[n] == 'h' ? 3600 : 86400;
	if (!(v * mul <= (double)now))
		return -ERANGE;
	*out = now - (int64_t)(v * mul);
	return 0;
}

int app_runs_since(const char *s, int64_t now, int64_t *out)
{
	static const char *const fmts[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
					     "%Y-%m-%dT%H:%M", "%Y-%m-%d", NULL };
	int rc = parse_age(s, now, out);

	if (rc != -EINVAL)
		return rc;
	for (int i = 0; fmts[i]; i++) {
		struct tm tm;
		const char *e;

		memset(&tm, 0, sizeof(tm));
		if ((e = strptime(s, fmts[i], &tm)) && !*e) {
			tm.tm_isdst = -1;
			*out = (int64_t)mktime(&tm);
			return 0;
		}
	}
	return -EINVAL;
}

/* All of fd into *buf (its *len bytes, NUL after them), at most
 * DB_EXPORT_FILE_MAX; name is the file's, for err. */
static int read_all(int fd, const char *name, char **buf, size_t *len, char *err, size_t errlen)
{
	for (size_t cap = 0;;) {
		ssize_t k;

		if (*len == cap) {
			char *nb;

			if (cap >= DB_EXPORT_FILE_MAX)
				return errmsg(-EINVAL, err, errlen, "%s is over %u MB: not an export of this tool", name,
					      DB_EXPORT_FILE_MAX >> 20);
			cap = cap ? cap * 2 : 65536;
			if (!(nb = realloc(*buf, cap + 1)))
				return errmsg(-ENOMEM, err, errlen, "out of memory");
			*buf = nb;
		}
		k = read(fd, *buf + *len, cap - *len);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return errmsg(-EIO, err, errlen, "%s: %s", name, strerror(errno));
		if (!k)
			break;
		*len += (size_t)k;
	}
	(*buf)[*len] = 0;
	return 0;
}

/* buf[0..len) as one JSON document (white space may follow it). */
static int parse_doc(const char *buf, size_t len, const char *name, json_object **doc, char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	enum json_tokener_error je = json_tokener_error_depth;
	size_t end = 0;

	/* A real export spends 40 bytes or more of text on each object or
	 * array (a run's empty "tags":[] is the leanest), so one per 16 bytes,
	 * and a million at most, passes any; a file of "{}" that would cost
	 * 263 times its size does not (json-c: some 700 bytes an object). */
	struct json_bound import_bound = { .containers = 4096 + len / 16, .values = 16384 + len / 2 };
	char why[160];

	if (import_bound.containers > (1u << 20))
		import_bound.containers = 1u << 20;
	if (import_bound.values > (1u << 24))
		import_bound.values = 1u << 24;

	if (json_bound_check(buf ? buf : "", len, &import_bound, why, sizeof(why))) {
		if (tok)
			json_tokener_free(tok);
		return errmsg(-EINVAL, err, errlen, "%s: %s", name, why);
	}
	if (tok && len <= INT32_MAX) {
		*doc = json_tokener_parse_ex(tok, buf ? buf : "", (int)len);
		end = json_tokener_get_parse_end(tok);
		je = json_tokener_get_error(tok);
	}
	while (*doc && end < len && (buf[end] == ' ' || buf[end] == '\t' || buf[end] == '\r' || buf[end] == '\n'))
		end++;
	if (tok)
		json_tokener_free(tok);
	if (*doc && end >= len)
		return 0;
	return errmsg(-EINVAL, err, errlen, "%s is not JSON (%s)", name,
		      *doc ? "something follows the document"
		      : je == json_tokener_continue ? "it ends before the document does"
		      : json_tokener_error_desc(je));
}

/* The file of an export, read and parsed. */
static int load_export(const char *file, json_object **doc, char *err, size_t errlen)
{
	int fd = strcmp(file, "-") ? open(file, O_RDONLY | O_CLOEXEC) : STDIN_FILENO;
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (fd < 0 || fstat(fd, &st))
		rc = errmsg(-EINVAL, err, errlen, "%s: %s", file, strerror(errno));
	else if (S_ISDIR(st.st_mode))
		rc = errmsg(-EINVAL, err, errlen, "%s is a directory", file);
	else if (!(rc = read_all(fd, file, &buf, &len, err, errlen)))
		rc = parse_doc(buf, len, file, doc, err, errlen);
	free(buf);
	if (fd > STDIN_FILENO)
		close(fd);
	return rc;
}

/* The store to write: path_opt, or the default one. */
static int store_path(const char *path_opt, char *path, size_t len, char *err, size_t errlen)
{
	if (path_opt)
		snprintf(path, len, "%s", path_opt);
	else if (db_default_path(path, len, err, errlen))
		return -EINVAL;
	return 0;
}

/* doc's runs (NULL: none) into the store at path; what says what was
 * not imported. */
static int import_doc(const char *path, const char *from, json_object *doc, const char *what,
		      struct db_import_result *r, char *err, size_t errlen)
{
	struct db *db = NULL;
	char e[512];
	int rc;

	if ((rc = db_open(path, true, &db, err, errlen)))
		return rc;
	if (doc && (rc = db_export_read(db, doc, r, e, sizeof(e))))
		snprintf(err, errlen, "%s: %s; nothing was %s", from, e, what);
	db_close(db);
	return rc;
}

int app_runs_import(const char *file, const char *path_opt, char *path, size_t len, struct db_import_result *r,
		    char *err, size_t errlen)
{
	json_object *doc = NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!(rc = load_export(file, &doc, err, errlen)) && !(rc = store_path(path_opt, path, len, err, errlen)))
		rc = import_doc(path, file, doc, "imported", r, err, errlen);
	json_object_put(doc);
	return rc;
}

struct sync_ids {
	int64_t *ids;
	size_t n, cap;
	bool nomem;
};

static void sync_pick(void *ctx, const struct app_run_entry *e)
{
	struct sync_ids *s = ctx;

	/* a run still being stored would be copied half, and its UUID
	 * would keep the rest from ever following */
	if (!strcmp(e->status, "running") || s->nomem)
		return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		int64_t *ids = realloc(s->ids, cap * sizeof(*ids));

		if (!ids) {
			s->nomem = true;
			return;
		}
		s->ids = ids;
		s->cap = cap;
	}
	s->ids[s->n++] = e->row->id;
}

/* The ended runs of from that f lets through, as an export document
 * (*doc NULL when there is none). */
static int sync_doc(const char *from, const struct db_run_filter *f, json_object **doc, char *err, size_t errlen)
{
	struct sync_ids s = { 0 };
	struct db *db = NULL;
	char e[512];
	int rc;

	if ((rc = db_open_read(from, &db, err, errlen)))
		return rc == -ENOENT ? -EINVAL : rc;
	if ((rc = app_runs_list(db, f, sync_pick, &s, e, sizeof(e))))
		rc = errmsg(-EIO, err, errlen, "%s: %s", from, e);
	else if (s.nomem)
		rc = errmsg(-ENOMEM, err, errlen, "out of memory");
	else if (s.n && (rc = db_export_write(db, s.ids, s.n, WR_VERSION, doc, e, sizeof(e))))
		rc = errmsg(errmsg_host(rc), err, errlen, "%s: %s", from, e);
	free(s.ids);
	db_close(db);
	return rc;
}

int app_runs_sync(const char *from, const char *path_opt, const struct db_run_filter *f, char *path, size_t len,
		  struct db_import_result *r, char *err, size_t errlen)
{
	char from_real[PATH_MAX], to_real[PATH_MAX];
	json_object *doc = NULL;
	int rc;

	memset(r, 0, sizeof(*r));
	if ((rc = store_path(path_opt, path, len, err, errlen)))
		return rc;
	if (!strcmp(from, path) || (realpath(from, from_real) && realpath(path, to_real) && !strcmp(from_real, to_real)))
		return errmsg(-EINVAL, err, errlen, "%s is the store it would copy into", from);
	if ((rc = sync_doc(from, f, &doc, err, errlen)))
		return rc;
	rc = import_doc(path, from, doc, "copied", r, err, errlen);
	json_object_put(doc);
	return rc;
}

int app_runs_named(int argc, char **argv, bool write, const char *path_opt, int64_t **ids, size_t *n,
		   struct db **db, char *err, size_t errlen)
{
	char path[4096];
	int rc, bad;

	*db = NULL;
	if (!(*ids = calloc((size_t)argc + 1, sizeof(**ids))))
		return errmsg(-ENOMEM, err, errlen, "out of memory");
	if (app_runs_ids(argc, argv, *ids, n, &bad))
		return errmsg(-EINVAL, err, errlen, "'%s' is not a valid run id (see 'wirerate runs')", argv[bad]);
	if ((rc = app_runs_open(path_opt, write, db, path, sizeof(path), err, errlen)) == -ENOENT)
		return errmsg(-ENOENT, err, errlen, "no run %s (no database at %s)", argv[0], path);
	return rc;
}

int app_runs_rm(const char *path_opt, int argc, char **argv, int64_t **ids, size_t *n, char *err, size_t errlen)
{
	struct db *db;
	int rc;

	if (!(rc = app_runs_named(argc, argv, true, path_opt, ids, n, &db, err, errlen)) &&
	    (rc = app_runs_delete(db, *ids, *n, err, errlen)) && rc != -ENOENT)
		rc = errmsg_host(rc);
	db_close(db);
	return rc;
}

int app_runs_export(const char *path_opt, int argc, char **argv, struct json_object **doc, char *err,
		    size_t errlen)
{
	struct db *db;
	int64_t *ids = NULL;
	size_t n;
	int rc;

	*doc = NULL;
	if (!(rc = app_runs_named(argc, argv, false, path_opt, &ids, &n, &db, err, errlen)) &&
	    (rc = db_export_write(db, ids, n, WR_VERSION, doc, err, errlen)) && rc != -ENOENT)
		rc = errmsg_host(rc);
	db_close(db);
	free(ids);
	return rc;
}

int app_runs_upgrade(const char *path_opt, char *path, size_t len, int64_t *was, char *err, size_t errlen)
{
	struct db *db = NULL;
	int rc;

	if ((rc = app_runs_open(path_opt, true, &db, path, len, err, errlen)) == -ENOENT)
		return errmsg(-ENOENT, err, errlen, "no database at %s", path);
	if (rc)
		return rc;
	*was = db_found_version(db);
	db_close(db);
	return 0;
}

int app_runs_do(const struct app_runs_req *q, struct app_runs_done *d, char *err, size_t errlen)
{
	size_t len = sizeof(d->path);
	int rc;

	*d = (struct app_runs_done){ .sub = q->sub, .from = q->nargs ? q->args[0] : NULL };
	switch (q->sub) {
	case APP_RUNS_SHOW:
	case APP_RUNS_EXPORT:
		rc = app_runs_export(q->db_path, q->nargs, q->args, &d->doc, err, errlen);
		break;
	case APP_RUNS_IMPORT:
		rc = app_runs_import(d->from, q->db_path, d->path, len, &d->r, err, errlen);
		break;
	case APP_RUNS_SYNC:
		rc = app_runs_sync(d->from, q->db_path, &q->f, d->path, len, &d->r, err, errlen);
		break;
	case APP_RUNS_RM:
		rc = app_runs_rm(q->db_path, q->nargs, q->args, &d->ids, &d->n, err, errlen);
		break;
	case APP_RUNS_UPGRADE:
		rc = app_runs_upgrade(q->db_path, d->path, len, &d->was, err, errlen);
		break;
	default:
		rc = errmsg(-EINVAL, err, errlen, "not a subcommand that changes or carries runs");
	}
	if (rc) {
		/* import and sync say bad input with -EINVAL alone; the
		 * others name runs, or a store, that must be there */
		d->bad_input = rc == -EINVAL ||
			       (rc == -ENOENT && q->sub != APP_RUNS_IMPORT && q->sub != APP_RUNS_SYNC);
		app_runs_done_free(d);
	}
	return rc;
}

void app_runs_done_free(struct app_runs_done *d)
{
	free(d->ids);
	d->ids = NULL;
	if (d->doc)
		json_object_put(d->doc);
	d->doc = NULL;
}
