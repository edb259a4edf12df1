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
#include "app/runs.h"
#include "store/db.h"
#include "store/dbexport.h"
#include "render/out.h"
#include "render/runsprint.h"
#include "wr_config.h"

/* A subcommand's failure: its one-line error, and the exit status: bad
 * input (an id that is no id, a store not ours, a run or store that is
 * not there) 2, else 1. */
static int failed(const char *sub, int rc, const char *err)
{
	cli_error("runs %s: %s", sub, err);
	return rc == -EINVAL || rc == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
}

/* Make the file's schema current: the one write 'runs' itself does. */
static int runs_upgrade(struct cli *cli, int argc, char **argv, const char *db_path)
{
	char path[4096], err[512];
	struct out *o;
	int64_t was;
	int rc;

	if (argc > 0)
		return cli_fail(EXIT_USAGE, "runs upgrade: unexpected '%s': it takes no arguments", argv[0]);
	if ((rc = app_runs_upgrade(db_path, path, sizeof(path), &was, err, sizeof(err))))
		return failed("upgrade", rc, err);
	o = cli_out_create(cli, "runs");
	runsprint_upgrade(o, path, was);
	out_destroy(o);
	return 0;
}

/* All the runs or, when one id is not stored, none of them. */
static int runs_rm(struct cli *cli, int argc, char **argv, const char *db_path)
{
	char err[512];
	struct out *o;
	int64_t *ids = NULL;
	size_t n;
	int rc;

	if (argc < 1) {
		cli_error("runs rm: give the ids of the runs to delete");
		return EXIT_USAGE;
	}
	if ((rc = app_runs_rm(db_path, argc, argv, &ids, &n, err, sizeof(err)))) {
		free(ids);
		return failed("rm", rc, err);
	}
	o = cli_out_create(cli, "runs");
	runsprint_removed(o, ids, n);
	out_destroy(o);
	free(ids);
	return 0;
}

/* runs export ID... (the document on stdout, always JSON) and runs show
 * ID (the run and every trial of it). */
static int runs_export(struct cli *cli, int argc, char **argv, const char *db_path, bool show)
{
	const char *sub = show ? "show" : "export";
	json_object *doc;
	char err[512];
	int rc;

	if (show && argc != 1) {
		cli_error(argc ? "runs show: one run at a time ('%s' is one too many)" : "runs show: give a run id",
			  argc ? argv[1] : "");
		return EXIT_USAGE;
	}
	if (argc < 1)
		return cli_fail(EXIT_USAGE, "runs export: give the ids of the runs to export (see 'wirerate runs')");
	if ((rc = app_runs_export(db_path, argc, argv, &doc, err, sizeof(err))))
		return failed(sub, rc, err);
	if (show && !cli->json) {
		struct out *o = out_create(stdout, false);

		runsprint_show(o, doc);
		out_destroy(o);
	} else {
		runsprint_doc(doc);
	}
	json_object_put(doc);
	return fflush(stdout) && !show ? EXIT_RUNTIME : 0;
}

static int runs_show(struct cli *cli, int argc, char **argv, const char *db_path)
{
	return runs_export(cli, argc, argv, db_path, true);
}

static int runs_export_doc(struct cli *cli, int argc, char **argv, const char *db_path)
{
	return runs_export(cli, argc, argv, db_path, false);
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
	if ((rc = app_runs_import(argv[0], db_path, path, sizeof(path), &r, err, sizeof(err))))
		return cli_fail(cli_status(rc), "runs import: %s", err);
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

	if (argc != 1)
		return cli_fail(EXIT_USAGE, argc ? "runs sync: one store to copy from at a time" :
					    "runs sync: give the store to copy from (runs sync FROM [--db TO])");
	if ((rc = app_runs_sync(argv[0], db_path, f, path, sizeof(path), &r, err, sizeof(err))))
		return cli_fail(cli_status(rc), "runs sync: %s", err);
	o = cli_out_create(cli, "runs");
	runsprint_sync(o, argv[0], path, &r);
	out_destroy(o);
	return 0;
}

/* The runs the filters let through, a line or an object each (none
 * stored yet: an empty list). */
static int runs_list(struct cli *cli, const struct runs_opts *ro)
{
	struct db_run_filter f = { .label = ro->label, .tag = ro->tag, .since = ro->since };
	char path[4096], err[512];
	struct db *db = NULL;
	struct out *o;
	int rc, ret = 0;

	if ((rc = app_runs_open(ro->db_path, false, &db, path, sizeof(path), err, sizeof(err)))) {
		/* a file not ours, or planted with triggers: bad input; an
		 * older or newer schema: the host's state, as a failure */
		if (rc != -ENOENT)
			return cli_fail(cli_status(rc), "runs: %s", err);
		db = NULL;
	}
	o = cli_out_create(cli, "runs");
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

int cmd_runs(struct cli *cli, int argc, char **argv)
{
	struct runs_opts ro;
	char **args;
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
		{ "export", runs_export_doc, "export writes the runs named by id" },
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
	return runs_list(cli, &ro);
}
