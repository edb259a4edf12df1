/* wirerate matrix AXES... [--prefix P] [--no-xdp] [--label L] [--tag T] [--db FILE]
 *                 [--html FILE] [--fail-on-regression PCT] -- trial|rfc2544 [OPTIONS]
 *
 * The same test across lab configurations: every combination of the axes'
 * values is one configuration; for each the lab is built afresh with it and
 * the test runs in a process of its own (the wirerate binary again), its run
 * stored with the configuration as its label and a tag shared by the whole
 * matrix (app/matrixrun.c). Then the runs go to 'wirerate report': the table
 * by frame size and the table by configuration, with verdicts against the
 * first. Everything is checked before a lab is built: each configuration as
 * 'lab up' would check it, the test's options by the test itself. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/labargs.h"
#include "cli/matrixargs.h"
#include "app/matrixrun.h"
#include "os/selfexec.h"
#include "render/matrixprint.h"
#include "render/out.h"
#include "store/db.h"

/* A lab's build between two configurations, about (this VM: 2-4 s). */
#define MATRIX_LAB_UP_S 4.0

/* One matrix: what was asked, and its run. */
struct mrun {
	struct app_matrix m;
	struct matrix_opts mo;
	struct app_matrix_run run;
	struct cli *cli;
	char db_path[4096], mtag[64];
	double planned;			/* the test's plan, seconds a configuration */
	struct lab_spec specs[APP_MATRIX_MAX];
};

/* The test's own options, checked by the test's command in this process
 * with nothing built (cli->check_only): 0, or its exit status after it
 * printed why. */
static int check_test(struct cli *cli, char **targv, double *planned_s)
{
	struct cli sub = *cli;
	char *copy[APP_MATRIX_ARGV_MAX];
	int n = 0, rc;

	/* the command takes its options out of the array it is given */
	for (; targv[n + 1]; n++)
		copy[n] = targv[n + 1];
	copy[n] = NULL;
	sub.check_only = true;
	sub.planned_s = 0;
	rc = !strcmp(copy[0], "trial") ? cmd_trial(&sub, n, copy) : cmd_rfc2544(&sub, n, copy);
	*planned_s = sub.planned_s;
	return rc;
}

/* Everything before a lab is built: -1 to go on, or the exit status. */
static int check(struct cli *cli, int argc, char **argv, struct mrun *r)
{
	struct app_matrix *m = &r->m;
	struct app_matrix_run *run = &r->run;
	const struct matrix_opts *mo = &r->mo;
	char err[512];
	int rc;

	r->mo.m = m;
	if ((rc = matrix_args(cli, argc, argv, &r->mo, &run->test, &run->ntest)) >= 0)
		return rc;
	if (app_matrix_check_test(run->test, run->ntest, mo->ntags, &run->remote, err, sizeof(err)) ||
	    app_matrix_count(m, err, sizeof(err)) ||
	    app_matrix_check_own(mo->label, mo->tags, mo->ntags, mo->db, mo->html, mo->fail_pct, err, sizeof(err)) ||
	    (run->remote && app_matrix_check_remote(m, err, sizeof(err)))) {
		cli_error("matrix: %s", err);
		return EXIT_USAGE;
	}
	/* Every configuration checked as 'lab up' would check it, before any
	 * lab is built or test run; a DUT of its own by its test, below. */
	for (int c = 0; c < m->nconf && !run->remote; c++) {
		char *largv[2 * APP_MATRIX_NAXES + 6];
		int la = app_matrix_lab_argv(m, c, mo->prefix, mo->no_xdp, largv);
		const char *action;

		if ((rc = lab_args_parse(cli, la, largv, &r->specs[c], &action)) >= 0)
			return rc ? rc : EXIT_USAGE;
	}
	if (app_matrix_labels(m, mo->label, err, sizeof(err)))
		return cli_fail(EXIT_USAGE, "matrix: %s", err);
	if (mo->db) {
		snprintf(r->db_path, sizeof(r->db_path), "%s", mo->db);
	} else if (db_default_path(r->db_path, sizeof(r->db_path), err, sizeof(err)))
		return cli_fail(EXIT_USAGE, "matrix: %s", err);
	snprintf(r->mtag, sizeof(r->mtag), "matrix-%lld-%d", (long long)time(NULL), (int)getpid());
	*run = (struct app_matrix_run){ .m = m, .prefix = mo->prefix, .remote = run->remote, .specs = r->specs,
					.test = run->test, .ntest = run->ntest, .tags = mo->tags, .ntags = mo->ntags,
					.db_path = r->db_path, .mtag = r->mtag, .test_out = -1 };
	/* the test's own options, parsed by the test with nothing built */
	for (int c = 0; c < (run->remote ? m->nconf : 1); c++)
		if ((rc = check_test(cli, app_matrix_run_argv(run, c), &r->planned)))
			return rc;
	return -1;
}

/* The configurations' runs compared by 'wirerate report', run as a
 * child; with --json its document goes inside the matrix's. */
static int report(void *ctx)
{
	struct mrun *r = ctx;
	char *rargv[APP_MATRIX_REPORT_ARGV], ids[APP_MATRIX_MAX][24];
	FILE *tmp = NULL;
	int rc;

	app_matrix_report_argv(rargv, ids, r->run.run_ids, r->m.nconf, r->cli->json, r->db_path, r->mo.html,
			       r->mo.fail_pct);
	if (r->cli->json && !(tmp = tmpfile())) {
		cli_error("matrix: a temporary file: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	fflush(stdout);
	rc = selfexec_run(rargv, tmp ? fileno(tmp) : -1, EXIT_RUNTIME);
	if (rc < 0)
		rc = EXIT_RUNTIME;
	if (tmp) {
		struct out *o = cli_out_create(r->cli, "matrix");

		if (o)
			matrixprint_json(o, &r->m, r->run.run_ids, r->mtag, r->mo.prefix, tmp);
		else
			rc = EXIT_RUNTIME;
		out_destroy(o);
		fclose(tmp);
	}
	return rc;
}

/* The lab held: what will run, and for how long. */
static void begin(void *ctx)
{
	const struct mrun *r = ctx;
	int nconf = r->m.nconf;

	if (!r->cli->json)
		matrixprint_begin(nconf, r->run.remote ? NULL : r->mo.prefix, r->mtag);
	/* the test's own plan, once per configuration, and the lab's build */
	if (r->planned > 0)
		matrixprint_planned(nconf, r->planned, r->run.remote ? 0 : MATRIX_LAB_UP_S);
}

static void starting(void *ctx, int c)
{
	const struct mrun *r = ctx;

	if (!r->cli->json)
		matrixprint_config(c, r->m.nconf, r->m.labels[c]);
}

static void done(void *ctx, int c)
{
	const struct mrun *r = ctx;

	(void)c;
	if (!r->cli->json)
		matrixprint_config_done();
}

static void say(void *ctx, const char *line)
{
	(void)ctx;
	cli_error("matrix: %s", line);
}

int cmd_matrix(struct cli *cli, int argc, char **argv)
{
	struct mrun *r = calloc(1, sizeof(*r));
	FILE *null = NULL;
	int rc;

	if (!r) {
		cli_error("matrix: out of memory");
		return EXIT_RUNTIME;
	}
	r->cli = cli;
	if ((rc = check(cli, argc, argv, r)) >= 0) {
		free(r);
		return rc;
	}
	r->run.begin = begin;
	r->run.starting = starting;
	r->run.done = done;
	r->run.end = report;
	r->run.say = say;
	r->run.ctx = r;
	/* with --json the tests' own output would break the document */
	if (cli->json && (null = fopen("/dev/null", "w")))
		r->run.test_out = fileno(null);
	rc = app_matrix_run(&r->run);
	if (null)
		fclose(null);
	rc = rc == -EINTR ? 130 : rc < 0 ? EXIT_RUNTIME : rc;
	free(r);
	return rc;
}
