/* wirerate runs [--label L] [--tag T] [--since TIME] [--json] [--db F]
 * wirerate runs show|export|import|sync|rm|upgrade ... (runs_args.c) */
#include <errno.h>
#include <stdio.h>

#include "cli/cli.h"
#include "render/gate_print.h"
#include "cli/runs_args.h"
#include "app/runs.h"
#include "render/out.h"
#include "render/runs_print.h"

/* The runs the filters let through, a line or an object each (none
 * stored yet: an empty list). */
static int runs_list(struct cli *cli, const struct runs_opts *ro)
{
	char path[4096], err[512];
	struct db *db = NULL;
	struct out *o;
	int rc, ret = 0;

	/* a file not ours, or planted with triggers: bad input; an older or
	 * newer schema: the host's state, as a failure */
	if ((rc = app_runs_open(ro->req.db_path, false, &db, path, sizeof(path), err, sizeof(err))) && rc != -ENOENT)
		return cli_fail(cli_status(rc), "runs: %s", err);
	o = cli_out_create(cli, "runs");
	runs_print_list_head(o, path);
	out_arr_start(o, "runs");
	if (app_runs_list(db, &ro->req.f, runs_print_run, o, err, sizeof(err)))
		ret = cli_fail(EXIT_RUNTIME, "runs: %s: %s", path, err);
	out_arr_end(o);
	out_destroy(o);
	db_close(db);
	return ret;
}

/* runs export ID --kcidb FILE: the run's figures for KernelCI, each a
 * test with its number, measured (no verdict: 'gate' judges). */
static int export_kcidb(struct cli *cli, const struct runs_opts *ro)
{
	struct testpoint_set s = { 0 };
	char err[2 * 4096 + 512];
	struct out *o;
	int rc;

	if ((rc = app_gate_run_check_kcidb(&ro->kcidb, err, sizeof(err))))
		return cli_fail(EXIT_USAGE, "runs export: %s", err);
	if ((rc = app_gate_run_export(ro->req.db_path, ro->req.args[0], &s, err, sizeof(err))) ||
	    (rc = gate_print_kcidb_file(&ro->kcidb, &s, err, sizeof(err)))) {
		testpoint_set_free(&s);
		return cli_fail(rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME, "runs export: %s", err);
	}
	o = cli_out_create(cli, "runs");
	out_str(o, "run", "run %s", ro->req.args[0]);
	out_u64(o, "tests", ": %llu", s.n);
	out_text(o, " figure%s", s.n == 1 ? "" : "s");
	out_str(o, "kcidb", " as KernelCI tests in %s\n", ro->kcidb.path);
	out_destroy(o);
	testpoint_set_free(&s);
	return 0;
}

int cmd_runs(struct cli *cli, int argc, char **argv)
{
	enum app_runs_sub sub;
	struct runs_opts ro;
	struct app_runs_done d;
	struct out *o;
	char err[1024];
	int rc;

	if (runs_args(cli, argc, argv, &ro, &rc) == OPT_EXIT)
		return rc;
	if (ro.kcidb.path) {
		rc = export_kcidb(cli, &ro);
		runs_args_free(&ro);
		return rc;
	}
	rc = 0;
	if ((sub = ro.req.sub) == APP_RUNS_LIST)
		rc = runs_list(cli, &ro);
	else if (app_runs_do(&ro.req, &d, err, sizeof(err)))
		rc = cli_fail(d.bad_input ? EXIT_USAGE : EXIT_RUNTIME, "runs %s: %s", runs_args_word(sub), err);
	runs_args_free(&ro);
	if (sub == APP_RUNS_LIST || rc)
		return rc;
	/* show as text; export, and show --json: the document as it is */
	o = sub == APP_RUNS_EXPORT || (sub == APP_RUNS_SHOW && cli->json) ? NULL :
	    sub == APP_RUNS_SHOW ? out_create(stdout, false) : cli_out_create(cli, "runs");
	runs_print_done(o, &d);
	out_destroy(o);
	app_runs_done_free(&d);
	return fflush(stdout) && sub == APP_RUNS_EXPORT ? EXIT_RUNTIME : 0;
}
