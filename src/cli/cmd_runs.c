/* wirerate runs [--label L] [--tag T] [--since TIME] [--json] [--db F]
 * wirerate runs rm ID... [--json] [--db F]
 * wirerate runs upgrade [--json] [--db F] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "core/units.h"
#include "app/runs.h"
#include "store/db.h"
#include "render/out.h"

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
	int rc = app_runs_open(path_opt, write, db, path, len, err, sizeof(err));

	if (rc) {
		/* a file not ours, or planted with triggers: bad input; an
		 * older or newer schema: the host's state, as a failure */
		*exit_rc = cli_status(rc);
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

/* All the runs or, when one id is not stored, none of them. */
static int runs_rm(struct cli *cli, int argc, char **argv, const char *db_path)
{
	char path[4096], err[512];
	struct db *db = NULL;
	struct out *o;
	int64_t *ids;
	size_t n;
	int rc, ret = 0, bad;

	if (argc < 1) {
		cli_error("runs rm: give the ids of the runs to delete");
		return EXIT_USAGE;
	}
	if (!(ids = calloc((size_t)argc, sizeof(*ids)))) {
		cli_error("runs rm: out of memory");
		return EXIT_RUNTIME;
	}
	if (app_runs_ids(argc, argv, ids, &n, &bad)) {
		cli_error("runs rm: '%s' is not a valid run id (see 'wirerate runs')", argv[bad]);
		ret = EXIT_USAGE;
		goto out;
	}
	if ((rc = open_db(db_path, true, &db, path, sizeof(path), &ret))) {
		if (rc == -ENOENT)
			cli_error("runs rm: no run %s (no database at %s)", argv[0], path);
		ret = rc == -ENOENT ? EXIT_USAGE : ret;
		goto out;
	}
	if ((rc = app_runs_delete(db, ids, n, err, sizeof(err)))) {
		cli_error("runs rm: %s", err);
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

/* One run, a line of the table or an object of the list. */
static void print_run(void *arg, const struct app_run_entry *e)
{
	const struct db_run_row *r = e->row;
	struct out *o = arg;
	char when[32], tags[512], *save = NULL;
	bool when_known = !timefmt_local(when, sizeof(when), r->started, "%Y-%m-%d %H:%M:%S");

	out_obj_start(o, NULL);
	out_i64(o, "id", "%5lld", r->id);
	out_i64(o, "started", NULL, r->started);
	if (when_known) {
		out_str(o, "time", "  %-19s", when);
	} else {
		out_null(o, "time");
		out_text(o, "  %-19s", when);
	}
	out_str(o, "label", "  %-14s", r->label[0] ? r->label : "-");
	out_str(o, "test", "  %-22s", r->test);
	out_str(o, "sizes", "  %-14s", r->sizes);
	out_str(o, "status", "  %-11s", e->status);
	out_str(o, "headline", "  %s\n", e->headline);
	out_i64(o, "repeats", NULL, r->repeats);
	out_str(o, "config", NULL, r->config);
	out_arr_start(o, "tags");
	snprintf(tags, sizeof(tags), "%s", r->tags);
	for (char *tk = strtok_r(tags, ",", &save); tk; tk = strtok_r(NULL, ",", &save))
		out_str(o, NULL, NULL, tk);
	out_arr_end(o);
	out_i64(o, "trials", NULL, r->ntrials);
	out_obj_end(o);
}

struct runs_opts {
	const char *label, *tag, *db_path, *filter;	/* filter: the last filter given */
	int64_t since;
};

static int set_filter(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct runs_opts *ro = ctx;

	*(opt->id ? &ro->tag : &ro->label) = v;
	ro->filter = opt->id ? "--tag" : "--label";
	return 0;
}

static int set_since(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct runs_opts *ro = ctx;
	int rc = parse_since(v, &ro->since);

	if (rc == -ERANGE) {
		snprintf(err, errlen, "--since '%s' out of range: an age must not reach back before 1970", v);
		return -EINVAL;
	}
	if (rc) {
		snprintf(err, errlen, "--since '%s': give a date (2024-05-01, '2024-05-01 13:00') or an age (30m, 12h, 7d)",
			 v);
		return -EINVAL;
	}
	ro->filter = "--since";
	return 0;
}

static int set_db(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	if (!*v) {
		snprintf(err, errlen, "give a file name");
		return -EINVAL;
	}
	((struct runs_opts *)ctx)->db_path = v;
	return 0;
}

static const struct opt runs_opts_table[] = {
	{ "label", 0, OPT_VALUE, "L", "filters", NULL, "only runs labelled L", set_filter, 0, 0, 0, 0 },
	{ "tag", 0, OPT_VALUE, "T", NULL, NULL, "only runs tagged T", set_filter, 0, 0, 0, 1 },
	{ "since", 0, OPT_VALUE, "TIME", NULL, NULL,
	  "only runs started since TIME: 2024-05-01, '2024-05-01 13:00',\n"
	  "or an age such as 30m, 12h, 7d", set_since },
	{ "db", 0, OPT_VALUE, "FILE", "store", NULL,
	  "the results database (default $WIRERATE_DB, else\n"
	  "$XDG_DATA_HOME/wirerate/results.db or ~/.local/share/wirerate/results.db)", set_db },
	{ NULL },
};

static const struct opt *const runs_tables[] = { runs_opts_table, NULL };

const struct opt_cmd runs_cmd = {
	.name = "runs",
	.synopsis = "[--label L] [--tag T] [--since TIME] [--json] [--db FILE]\n"
		    "       wirerate runs rm ID... [--json] [--db FILE]\n"
		    "       wirerate runs upgrade [--json] [--db FILE]",
	.about = "Lists the stored runs: id, time, label, test, sizes, headline result, status.\n"
		 "A run whose process died (SIGKILL, power loss) shows as interrupted.\n"
		 "Listing only reads the database; one in an older format is refused until\n"
		 "'runs upgrade' (or any command that stores a run) brings it up to date.\n"
		 "'runs rm' deletes the runs given, all of them or, when one is not stored, none.\n",
	.tables = runs_tables,
};

int cmd_runs(struct cli *cli, int argc, char **argv)
{
	struct runs_opts ro = { 0 };
	void *ctx[] = { &ro };
	char path[4096], **args;
	struct db *db;
	int nargs, rc, ret = 0;

	if (!(args = calloc((size_t)argc, sizeof(*args)))) {
		cli_error("runs: out of memory");
		return EXIT_RUNTIME;
	}
	if ((rc = opt_parse(&runs_cmd, ctx, cli, argc, argv, args, argc, &nargs))) {
		free(args);
		return rc == OPT_HELP ? 0 : EXIT_USAGE;
	}
	if (nargs && (!strcmp(args[0], "rm") || !strcmp(args[0], "upgrade"))) {
		bool rm = !strcmp(args[0], "rm");

		if (ro.filter) {
			cli_error(rm ? "runs rm: %s does not apply: rm deletes the runs named by id"
				     : "runs upgrade: %s does not apply: upgrade acts on the whole file", ro.filter);
			ret = EXIT_USAGE;
		} else {
			ret = (rm ? runs_rm : runs_upgrade)(cli, nargs - 1, args + 1, ro.db_path);
		}
		free(args);
		return ret;
	}
	if (nargs) {
		cli_error("runs: unexpected '%s' (see 'wirerate runs --help')", args[0]);
		free(args);
		return EXIT_USAGE;
	}
	free(args);
	if ((rc = open_db(ro.db_path, false, &db, path, sizeof(path), &ret))) {
		if (rc != -ENOENT)
			return ret;
		db = NULL;	/* nothing stored yet: an empty list */
		ret = 0;
	}

	struct out *o = out_create(stdout, cli->json);
	struct db_run_filter f = { .label = ro.label, .tag = ro.tag, .since = ro.since };
	char err[512];

	out_str(o, "db", NULL, path);
	out_text(o, "%5s  %-19s  %-14s  %-22s  %-14s  %-11s  %s\n", "id", "started", "label", "test", "sizes",
		 "status", "headline");
	out_arr_start(o, "runs");
	if (app_runs_list(db, &f, print_run, o, err, sizeof(err))) {
		cli_error("runs: %s: %s", path, err);
		ret = EXIT_RUNTIME;
	}
	out_arr_end(o);
	out_destroy(o);
	db_close(db);
	return ret;
}
