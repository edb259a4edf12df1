/* wirerate runs [--label L] [--tag T] [--since TIME] [--json] [--db F]
 * wirerate runs rm ID... [--json] [--db F]
 * wirerate runs upgrade [--json] [--db F] */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "cli/cli.h"
#include "core/units.h"
#include "store/db.h"
#include "render/out.h"

static const char runs_usage[] =
	"usage: wirerate runs [--label L] [--tag T] [--since TIME] [--json] [--db FILE]\n"
	"       wirerate runs rm ID... [--json] [--db FILE]\n"
	"       wirerate runs upgrade [--json] [--db FILE]\n"
	"\n"
	"Lists the stored runs: id, time, label, test, sizes, headline result, status.\n"
	"A run whose process died (SIGKILL, power loss) shows as interrupted.\n"
	"Listing only reads the database; one in an older format is refused until\n"
	"'runs upgrade' (or any command that stores a run) brings it up to date.\n"
	"'runs rm' deletes the runs given, all of them or, when one is not stored, none.\n"
	"\n"
	"  --label L           only runs labelled L\n"
	"  --tag T             only runs tagged T\n"
	"  --since TIME        only runs started since TIME: 2024-05-01, '2024-05-01 13:00',\n"
	"                      or an age such as 30m, 12h, 7d\n"
	"  --json              machine-readable list\n"
	"  --db FILE           the results database (default $WIRERATE_DB, else\n"
	"                      $XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db)\n";

/* An age such as 30m, 12h or 7d (decimal: strtod would also take inf,
 * nan and hex), as Unix time; -ERANGE when it reaches back before 1970,
 * which could also overflow the subtraction. */
static int parse_age(const char *s, int64_t *out)
{
	size_t n = strspn(s, "0123456789.eE");
	int64_t now = (int64_t)time(NULL);
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

/* An absolute date or an age, as Unix time. */
static int parse_since(const char *s, int64_t *out)
{
	static const char *const fmts[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
					     "%Y-%m-%dT%H:%M", "%Y-%m-%d", NULL };
	int rc = parse_age(s, out);

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

/* The store named or the default one, to write (rm) or only to read. */
static int open_db(const char *path_opt, bool write, struct db **db, char *path, size_t len, int *exit_rc)
{
	char err[512];
	int rc;

	if (path_opt)
		snprintf(path, len, "%s", path_opt);
	else if ((rc = db_default_path(path, len, err, sizeof(err)))) {
		cli_error("%s", err);
		*exit_rc = EXIT_USAGE;
		return rc;
	}
	if (write)
		rc = db_open(path, false, db, err, sizeof(err));
	else
		rc = db_open_read(path, db, err, sizeof(err));
	if (rc) {
		/* a file not ours, or planted with triggers: bad input; an
		 * older or newer schema: the host's state, as a failure */
		*exit_rc = rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
		if (rc != -ENOENT)
			cli_error("%s", err);
	}
	return rc;
}

/* Make the file's schema current: the one write 'runs' itself does. */
static int runs_upgrade(struct cli *cli, int argc, char **argv, const char *db_path)
{
	char path[4096];
	struct db *db = NULL;
	struct out *o;
	int64_t was;
	int rc, ret = 0;

	if (argc > 0) {
		cli_error("runs upgrade: unexpected '%s': it takes no arguments", argv[0]);
		return EXIT_USAGE;
	}
	if ((rc = open_db(db_path, true, &db, path, sizeof(path), &ret))) {
		if (rc == -ENOENT)
			cli_error("runs upgrade: no database at %s", path);
		return rc == -ENOENT ? EXIT_USAGE : ret;
	}
	was = db_found_version(db);
	o = out_create(stdout, cli->json);
	out_str(o, "db", "database %s: ", path);
	out_i64(o, "schema_version", "schema version %lld", DB_SCHEMA_VERSION);
	out_i64(o, "was", NULL, was);
	if (was == DB_SCHEMA_VERSION)
		out_text(o, ", already current\n");
	else if (was == 0)
		out_text(o, ", created in the empty file\n");
	else
		out_text(o, ", upgraded from %lld\n", (long long)was);
	out_destroy(o);
	db_close(db);
	return 0;
}

/* The ids to delete, each once; EXIT_USAGE after the error. */
static int rm_ids(int argc, char **argv, int64_t *ids, size_t *n)
{
	char err[128];

	*n = 0;
	for (int i = 0; i < argc; i++) {
		uint64_t v;
		size_t k;

		if (u64_parse(argv[i], 1, INT64_MAX, &v, err, sizeof(err))) {
			cli_error("runs rm: '%s' is not a valid run id (see 'wirerate runs')", argv[i]);
			return EXIT_USAGE;
		}
		for (k = 0; k < *n && ids[k] != (int64_t)v; k++)
			;
		if (k == *n)
			ids[(*n)++] = (int64_t)v;
	}
	return 0;
}

/* All the runs or, when one id is not stored, none of them. */
static int runs_rm(struct cli *cli, int argc, char **argv, const char *db_path)
{
	char path[4096], err[512];
	struct db *db = NULL;
	struct out *o;
	int64_t *ids;
	size_t n;
	int rc, ret = 0;

	if (argc < 1) {
		cli_error("runs rm: give the ids of the runs to delete");
		return EXIT_USAGE;
	}
	if (!(ids = calloc((size_t)argc, sizeof(*ids)))) {
		cli_error("runs rm: out of memory");
		return EXIT_RUNTIME;
	}
	if ((ret = rm_ids(argc, argv, ids, &n)))
		goto out;
	if ((rc = open_db(db_path, true, &db, path, sizeof(path), &ret))) {
		if (rc == -ENOENT)
			cli_error("runs rm: no run %s (no database at %s)", argv[0], path);
		ret = rc == -ENOENT ? EXIT_USAGE : ret;
		goto out;
	}
	if ((rc = db_runs_delete(db, ids, n, err, sizeof(err)))) {
		cli_error("runs rm: %s%s", err, rc == -ENOENT ? ": nothing deleted" : "");
		ret = rc == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	o = out_create(stdout, cli->json);
	out_arr_start(o, "removed");
	for (size_t i = 0; i < n; i++)
		out_i64(o, NULL, "deleted run %lld\n", ids[i]);
	out_arr_end(o);
	out_destroy(o);
out:
	db_close(db);
	free(ids);
	return ret;
}

int cmd_runs(struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "label", required_argument, NULL, 'l' }, { "tag", required_argument, NULL, 't' },
		{ "since", required_argument, NULL, 's' }, { "json", no_argument, NULL, 'j' },
		{ "db", required_argument, NULL, 'd' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *label = NULL, *tag = NULL, *db_path = NULL, *filter = NULL;
	int64_t since = 0;
	char path[4096], boot[64];
	struct db *db;
	int c, rc, ret = 0;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'l': label = optarg; filter = "--label"; break;
		case 't': tag = optarg; filter = "--tag"; break;
		case 'j': cli->json = true; break;
		case 'd':
			if (!*optarg) {
				cli_error("runs: --db: give a file name");
				return EXIT_USAGE;
			}
			db_path = optarg;
			break;
		case 's':
			if ((rc = parse_since(optarg, &since)) == -ERANGE) {
				cli_error("runs: --since '%s' out of range: an age must not reach back before 1970", optarg);
				return EXIT_USAGE;
			} else if (rc) {
				cli_error("runs: --since '%s': give a date (2024-05-01, '2024-05-01 13:00') or an age (30m, 12h, 7d)",
					  optarg);
				return EXIT_USAGE;
			}
			filter = "--since";
			break;
		case 'h': fputs(runs_usage, stdout); return 0;
		default: return cli_bad_option("runs", c, argv, optind);
		}
	}
	if (optind < argc && !strcmp(argv[optind], "rm")) {
		if (filter) {
			cli_error("runs rm: %s does not apply: rm deletes the runs named by id", filter);
			return EXIT_USAGE;
		}
		return runs_rm(cli, argc - optind - 1, argv + optind + 1, db_path);
	}
	if (optind < argc && !strcmp(argv[optind], "upgrade")) {
		if (filter) {
			cli_error("runs upgrade: %s does not apply: upgrade acts on the whole file", filter);
			return EXIT_USAGE;
		}
		return runs_upgrade(cli, argc - optind - 1, argv + optind + 1, db_path);
	}
	if (optind < argc) {
		cli_error("runs: unexpected '%s' (see 'wirerate runs --help')", argv[optind]);
		return EXIT_USAGE;
	}
	if ((rc = open_db(db_path, false, &db, path, sizeof(path), &ret))) {
		if (rc != -ENOENT)
			return ret;
		db = NULL;	/* nothing stored yet: an empty list */
		ret = 0;
	}

	struct out *o = out_create(stdout, cli->json);
	sqlite3_stmt *st = NULL;

	db_boot_id(boot, sizeof(boot));
	out_str(o, "db", NULL, path);
	out_text(o, "%5s  %-19s  %-14s  %-22s  %-14s  %-11s  %s\n", "id", "started", "label", "test", "sizes",
		 "status", "headline");
	out_arr_start(o, "runs");
	if (db && sqlite3_prepare_v2(db_sqlite(db),
			"SELECT r.id, r.started, r.label, r.test, r.sizes, r.status, r.pid, r.boot_id, r.headline,"
			" r.repeats, r.config, (SELECT group_concat(tag, ',') FROM tags WHERE run_id = r.id),"
			" (SELECT count(*) FROM trials WHERE run_id = r.id)"
			" FROM runs r WHERE (?1 IS NULL OR r.label = ?1)"
			" AND (?2 IS NULL OR EXISTS (SELECT 1 FROM tags WHERE run_id = r.id AND tag = ?2))"
			" AND r.started >= ?3 ORDER BY r.started, r.id", -1, &st, NULL) != SQLITE_OK) {
		cli_error("runs: %s: %s", path, sqlite3_errmsg(db_sqlite(db)));
		ret = EXIT_RUNTIME;
	}
	if (st) {
		if (label)
			sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
		if (tag)
			sqlite3_bind_text(st, 2, tag, -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 3, since);
	}
	while (st && sqlite3_step(st) == SQLITE_ROW) {
		int64_t t = sqlite3_column_int64(st, 1);
		char when[32], head[320];
		const char *txt[13];
		bool when_known = !timefmt_local(when, sizeof(when), t, "%Y-%m-%d %H:%M:%S");

		for (int i = 0; i < 13; i++)
			txt[i] = sqlite3_column_text(st, i) ? (const char *)sqlite3_column_text(st, i) : "";
		const char *status = db_status_shown(txt[5], sqlite3_column_int64(st, 6), txt[7], boot);

		if (txt[8][0])
			snprintf(head, sizeof(head), "%s", txt[8]);
		else
			snprintf(head, sizeof(head), "%lld trial(s) stored", (long long)sqlite3_column_int64(st, 12));
		out_obj_start(o, NULL);
		out_i64(o, "id", "%5lld", sqlite3_column_int64(st, 0));
		out_i64(o, "started", NULL, t);
		if (when_known) {
			out_str(o, "time", "  %-19s", when);
		} else {
			out_null(o, "time");
			out_text(o, "  %-19s", when);
		}
		out_str(o, "label", "  %-14s", txt[2][0] ? txt[2] : "-");
		out_str(o, "test", "  %-22s", txt[3]);
		out_str(o, "sizes", "  %-14s", txt[4]);
		out_str(o, "status", "  %-11s", status);
		out_str(o, "headline", "  %s\n", head);
		out_i64(o, "repeats", NULL, sqlite3_column_int64(st, 9));
		out_str(o, "config", NULL, txt[10]);
		out_arr_start(o, "tags");
		char tags[512], *save = NULL;

		snprintf(tags, sizeof(tags), "%s", txt[11]);
		for (char *tk = strtok_r(tags, ",", &save); tk; tk = strtok_r(NULL, ",", &save))
			out_str(o, NULL, NULL, tk);
		out_arr_end(o);
		out_i64(o, "trials", NULL, sqlite3_column_int64(st, 12));
		out_obj_end(o);
	}
	sqlite3_finalize(st);
	out_arr_end(o);
	out_destroy(o);
	db_close(db);
	return ret;
}
