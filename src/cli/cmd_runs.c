/* wirerate runs [--label L] [--tag T] [--since TIME] [--json] [--db F]
 * wirerate runs show ID [--json] [--db F]
 * wirerate runs export ID... [--db F] > FILE
 * wirerate runs import FILE [--json] [--db F]
 * wirerate runs rm ID... [--json] [--db F]
 * wirerate runs upgrade [--json] [--db F] */
#include <errno.h>
#include <json-c/json.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "cli/runsargs.h"
#include "cli/opt.h"
#include "core/units.h"
#include "app/runs.h"
#include "store/db.h"
#include "store/dbexport.h"
#include "render/out.h"
#include "render/runsprint.h"
#include "wr_config.h"

/* The store named or the default one, to write (rm) or only to read. */
static int open_db(const char *cmd, const char *path_opt, bool write, struct db **db, char *path, size_t len,
		   int *exit_rc)
{
	char err[512];
	int rc = app_runs_open(path_opt, write, db, path, len, err, sizeof(err));

	if (rc) {
		/* a file not ours, or planted with triggers: bad input; an
		 * older or newer schema: the host's state, as a failure */
		*exit_rc = cli_status(rc);
		if (rc != -ENOENT)
			cli_error("%s: %s", cmd, err);
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
	if ((rc = open_db("runs upgrade", db_path, true, &db, path, sizeof(path), &ret))) {
		if (rc == -ENOENT)
			cli_error("runs upgrade: no database at %s", path);
		return rc == -ENOENT ? EXIT_USAGE : ret;
	}
	was = db_found_version(db);
	o = cli_out_create(cli, "runs");
	runsprint_upgrade(o, path, was);
	out_destroy(o);
	db_close(db);
	return 0;
}

/* The run ids in argv and their store, opened (write: to change it), for
 * runs rm, export and show: 0, or an exit status after a one-line error
 * (what: the subcommand). *ids is the caller's to free either way. */
static int ids_and_store(const char *what, int argc, char **argv, const char *db_path, bool write,
			 int64_t **ids, size_t *n, struct db **db)
{
	char path[4096], cmd[32];
	int rc, ret = 0, bad;

	*db = NULL;
	if (!(*ids = calloc((size_t)argc + 1, sizeof(**ids)))) {
		cli_error("runs %s: out of memory", what);
		return EXIT_RUNTIME;
	}
	if (app_runs_ids(argc, argv, *ids, n, &bad)) {
		cli_error("runs %s: '%s' is not a valid run id (see 'wirerate runs')", what, argv[bad]);
		return EXIT_USAGE;
	}
	snprintf(cmd, sizeof(cmd), "runs %s", what);
	if ((rc = open_db(cmd, db_path, write, db, path, sizeof(path), &ret))) {
		if (rc == -ENOENT)
			cli_error("runs %s: no run %s (no database at %s)", what, argv[0], path);
		return rc == -ENOENT ? EXIT_USAGE : ret;
	}
	return 0;
}

/* All the runs or, when one id is not stored, none of them. */
static int runs_rm(struct cli *cli, int argc, char **argv, const char *db_path)
{
	char err[512];
	struct db *db = NULL;
	struct out *o;
	int64_t *ids = NULL;
	size_t n;
	int rc, ret;

	if (argc < 1) {
		cli_error("runs rm: give the ids of the runs to delete");
		return EXIT_USAGE;
	}
	if ((ret = ids_and_store("rm", argc, argv, db_path, true, &ids, &n, &db)))
		goto out;
	if ((rc = app_runs_delete(db, ids, n, err, sizeof(err)))) {
		cli_error("runs rm: %s", err);
		ret = rc == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	o = cli_out_create(cli, "runs");
	runsprint_removed(o, ids, n);
	out_destroy(o);
out:
	db_close(db);
	free(ids);
	return ret;
}

/* The runs named, as a document (export, show). An exit status. */
static int export_doc(const char *what, int argc, char **argv, const char *db_path, json_object **doc)
{
	char err[512];
	struct db *db = NULL;
	int64_t *ids = NULL;
	size_t n;
	int rc, ret;

	if (!(ret = ids_and_store(what, argc, argv, db_path, false, &ids, &n, &db)) &&
	    (rc = db_export(db, ids, n, WR_VERSION, doc, err, sizeof(err)))) {
		cli_error("runs %s: %s", what, err);
		ret = rc == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	db_close(db);
	free(ids);
	return ret;
}

/* runs export ID...: the document on stdout (always JSON). */
static int runs_export(struct cli *cli, int argc, char **argv, const char *db_path)
{
	json_object *doc = NULL;
	int ret;

	(void)cli;
	if (argc < 1) {
		cli_error("runs export: give the ids of the runs to export (see 'wirerate runs')");
		return EXIT_USAGE;
	}
	if ((ret = export_doc("export", argc, argv, db_path, &doc)))
		return ret;
	puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
	json_object_put(doc);
	return fflush(stdout) ? EXIT_RUNTIME : 0;
}

/* runs show ID: the run and every trial of it. */
static int runs_show(struct cli *cli, int argc, char **argv, const char *db_path)
{
	json_object *doc = NULL;
	struct out *o;
	int ret;

	if (argc != 1) {
		cli_error(argc ? "runs show: one run at a time ('%s' is one too many)" : "runs show: give a run id",
			  argc ? argv[1] : "");
		return EXIT_USAGE;
	}
	if ((ret = export_doc("show", argc, argv, db_path, &doc)))
		return ret;
	if (cli->json) {
		puts(json_object_to_json_string_ext(doc, JSON_C_TO_STRING_PLAIN));
		json_object_put(doc);
		return 0;
	}
	o = out_create(stdout, false);
	runsprint_show(o, doc);
	out_destroy(o);
	json_object_put(doc);
	return 0;
}

/* runs import FILE ('-': stdin): every run of an export, each once. */
static int runs_import(struct cli *cli, int argc, char **argv, const char *db_path)
{
	char path[4096], err[1024];
	struct db_import_result r;
	struct out *o;
	int rc;

	if (argc != 1) {
		cli_error(argc ? "runs import: one file at a time" : "runs import: give the file an export wrote ('-': stdin)");
		return EXIT_USAGE;
	}
	if ((rc = app_runs_import(argv[0], db_path, path, sizeof(path), &r, err, sizeof(err)))) {
		cli_error("runs import: %s", err);
		return cli_status(rc);
	}
	o = cli_out_create(cli, "runs");
	runsprint_import(o, path, &r);
	out_destroy(o);
	return 0;
}

/* runs sync FROM: every run of the store FROM (that the filters let
 * through, and that has ended) into this one, those whose UUID it holds
 * already left out: a tester that worked offline pushes its runs later. */
static int runs_sync(struct cli *cli, int argc, char **argv, const struct db_run_filter *f, const char *db_path)
{
	char path[4096], err[1024];
	struct db_import_result r;
	struct out *o;
	int rc;

	if (argc != 1) {
		cli_error(argc ? "runs sync: one store to copy from at a time" :
				 "runs sync: give the store to copy from (runs sync FROM [--db TO])");
		return EXIT_USAGE;
	}
	if ((rc = app_runs_sync(argv[0], db_path, f, path, sizeof(path), &r, err, sizeof(err)))) {
		cli_error("runs sync: %s", err);
		return cli_status(rc);
	}
	o = cli_out_create(cli, "runs");
	runsprint_sync(o, argv[0], path, &r);
	out_destroy(o);
	return 0;
}

int cmd_runs(struct cli *cli, int argc, char **argv)
{
	struct runs_opts ro;
	char path[4096], **args;
	struct db *db;
	int nargs, rc, ret = 0;

	if ((rc = runs_args(cli, argc, argv, &ro, &args, &nargs)) >= 0)
		return rc;
	if (nargs && !strcmp(args[0], "sync")) {
		struct db_run_filter f = { .label = ro.label, .tag = ro.tag, .since = ro.since };

		ret = runs_sync(cli, nargs - 1, args + 1, &f, ro.db_path);
		free(args);
		return ret;
	}
	static const struct {
		const char *word;
		int (*fn)(struct cli *, int, char **, const char *);
		const char *why;	/* why a filter does not apply */
	} subs[] = {
		{ "rm", runs_rm, "rm deletes the runs named by id" },
		{ "upgrade", runs_upgrade, "upgrade acts on the whole file" },
		{ "show", runs_show, "show prints the run named by id" },
		{ "export", runs_export, "export writes the runs named by id" },
		{ "import", runs_import, "import stores every run of the file" },
	};

	for (size_t i = 0; nargs && i < sizeof(subs) / sizeof(subs[0]); i++) {
		if (strcmp(args[0], subs[i].word))
			continue;
		if (ro.filter) {
			cli_error("runs %s: %s does not apply: %s", subs[i].word, ro.filter, subs[i].why);
			ret = EXIT_USAGE;
		} else {
			ret = subs[i].fn(cli, nargs - 1, args + 1, ro.db_path);
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
	if ((rc = open_db("runs", ro.db_path, false, &db, path, sizeof(path), &ret))) {
		if (rc != -ENOENT)
			return ret;
		db = NULL;	/* nothing stored yet: an empty list */
		ret = 0;
	}

	struct out *o = cli_out_create(cli, "runs");
	struct db_run_filter f = { .label = ro.label, .tag = ro.tag, .since = ro.since };
	char err[512];

	runsprint_list_head(o, path);
	out_arr_start(o, "runs");
	if (app_runs_list(db, &f, runsprint_run, o, err, sizeof(err))) {
		cli_error("runs: %s: %s", path, err);
		ret = EXIT_RUNTIME;
	}
	out_arr_end(o);
	out_destroy(o);
	db_close(db);
	return ret;
}
