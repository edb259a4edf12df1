/* 'runs': which stored runs are listed (by label, tag, start time), how
 * each is shown (its status as of now, its headline), deleting runs all
 * or nothing, and carrying runs from one store to another (an export
 * file imported, a store synced). The CLI prints. */
#ifndef WR_APP_RUNS_H
#define WR_APP_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "store/db.h"
#include "store/db_export.h"
#include "store/db_runs.h"

/* The store at path_opt, or the default one (its path in path), opened to
 * write or only to read. -ENOENT when there is no file (err unset); else
 * -errno with err: -EINVAL for a file that is not ours or a bad default. */
int app_runs_open(const char *path_opt, bool write, struct db **db, char *path, size_t len,
		  char *err, size_t errlen);

/* One run as listed. */
struct app_run_entry {
	const struct db_run_row *row;
	const char *status;		/* "interrupted" for a run whose process died */
	const char *headline;		/* the stored one, or "N trial(s) stored" */
};

/* Each run that f lets through, oldest first, to fn; db NULL (nothing
 * stored yet) lists none. -EIO with err when the query fails. */
int app_runs_list(struct db *db, const struct db_run_filter *f,
		  void (*fn)(void *ctx, const struct app_run_entry *e), void *ctx, char *err, size_t errlen);

/* --since: a date ("2024-05-01", "2024-05-01 13:00", local time) or an
 * age back from now ("30m", "12h", "7d"), as Unix time. -EINVAL when it
 * is neither, -ERANGE for an age before 1970. */
int app_runs_since(const char *s, int64_t now, int64_t *out);

/* The run ids in args, each once, in ids (room for n); -EINVAL with the
 * bad one's index in *bad. */
int app_runs_ids(int n, char **args, int64_t *ids, size_t *nids, int *bad);

/* Delete the runs ids: all or, when one is not stored, none (-ENOENT,
 * err naming it and saying nothing was deleted). */
int app_runs_delete(struct db *db, const int64_t *ids, size_t n, char *err, size_t errlen);

/* Import the export in file ('-': standard input; a file of at most
 * DB_EXPORT_FILE_MAX) into the store at path_opt or the default one (its
 * path in path): each run once, by its UUID. -EINVAL for bad input (a
 * file that cannot be read as given, is not JSON or not an export, a bad
 * store path), another -errno when the host fails; err says why, and
 * nothing was imported. */
int app_runs_import(const char *file, const char *path_opt, char *path, size_t len, struct db_import_result *r,
		    char *err, size_t errlen);

/* Copy every run of the store from that f lets through and that has
 * ended into the one at path_opt or the default one (its path in path),
 * those whose UUID is there already left out: a tester that worked
 * offline pushes its runs later. Errors as app_runs_import's (from
 * missing, or the store it would copy into: -EINVAL). */
int app_runs_sync(const char *from, const char *path_opt, const struct db_run_filter *f, char *path, size_t len,
		  struct db_import_result *r, char *err, size_t errlen);

/* What 'runs rm', 'export' and 'show' act on. Each returns 0, or -errno
 * with err: -EINVAL (an id that is no id, a store not ours) and -ENOENT
 * (a run or store that is not there) are bad input; any other is the
 * host's. */
/* The runs named by their ids in argv and their store, opened (write: to
 * change it). *ids is the caller's to free, and *db to close, either
 * way. */
int app_runs_named(int argc, char **argv, bool write, const char *path_opt, int64_t **ids, size_t *n,
		   struct db **db, char *err, size_t errlen);
/* Those runs deleted: all or, when one is not stored, none. *ids (n of
 * them) is the caller's to free either way. */
int app_runs_rm(const char *path_opt, int argc, char **argv, int64_t **ids, size_t *n, char *err, size_t errlen);
/* Those runs as one export document, the caller's to put. */
int app_runs_export(const char *path_opt, int argc, char **argv, struct json_object **doc, char *err,
		    size_t errlen);
/* The store's schema made current ('runs upgrade', the one write of
 * 'runs' itself): *was is its version before (0: the file was empty). */
int app_runs_upgrade(const char *path_opt, char *path, size_t len, int64_t *was, char *err, size_t errlen);

/* The subcommands of 'runs' after the list. */
enum app_runs_sub {
	APP_RUNS_LIST,
	APP_RUNS_SHOW,
	APP_RUNS_EXPORT,
	APP_RUNS_IMPORT,
	APP_RUNS_SYNC,
	APP_RUNS_RM,
	APP_RUNS_UPGRADE,
};

/* One subcommand asked: its words after the subcommand's own (ids, a
 * file, a store), the store, and the filters (sync's). */
struct app_runs_req {
	enum app_runs_sub sub;
	int nargs;
	char **args;
	const char *db_path;		/* NULL: the default store */
	struct db_run_filter f;
};

/* What it did, for the printer. */
struct app_runs_done {
	enum app_runs_sub sub;
	char path[4096];		/* the store written (import, sync, upgrade) */
	const char *from;		/* sync: the store copied from */
	int64_t was;			/* upgrade: the schema version before */
	int64_t *ids;			/* rm: the runs deleted */
	size_t n;
	struct db_import_result r;	/* import, sync */
	struct json_object *doc;	/* show, export: the export document */
	bool bad_input;			/* after a failure: the input was wrong */
};

/* Carry out q (not APP_RUNS_LIST): 0 with d filled (app_runs_done_free
 * lets it go), or -errno with err and d->bad_input set for bad input (an
 * id that is no id, a store not ours, and for the subcommands that name
 * runs or act on this store, a run or store that is not there). */
int app_runs_do(const struct app_runs_req *q, struct app_runs_done *d, char *err, size_t errlen);
void app_runs_done_free(struct app_runs_done *d);

#endif
