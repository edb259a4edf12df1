/* wirerate matrix AXES... [--prefix P] [--no-xdp] [--label L] [--tag T] [--db FILE]
 *                 [--html FILE] [--fail-on-regression PCT] -- trial|rfc2544 [OPTIONS]
 *
 * The same test across lab configurations: every combination of the axes'
 * values is one configuration; for each the lab is built afresh with it and
 * the test runs in a process of its own (the wirerate binary again), its run
 * stored with the configuration as its label and a tag shared by the whole
 * matrix. Then the runs go to 'wirerate report': the table by frame size
 * and the table by configuration, with verdicts against the first. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/labargs.h"
#include "core/units.h"
#include "cli/storeargs.h"
#include "app/matrix.h"
#include "cli/opt.h"
#include "store/db.h"
#include "render/matrixprint.h"
#include "render/out.h"
#include "lab/lab.h"
#include "os/selfexec.h"

#define MATRIX_MAX	APP_MATRIX_MAX
#define ARGV_MAX	APP_MATRIX_ARGV_MAX

/* The matrix's own options, before '--'. */
struct matrix_opts {
	struct app_matrix *m;
	const char *prefix, *label, *db, *html, *fail_pct;
	const char *tags[STOREOPT_MAX_TAGS - 1];	/* and the matrix's own */
	int ntags;
	bool no_xdp;
};

#define MO(field) OPT_FIELD(struct matrix_opts, field)

static int set_axis(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct matrix_opts *mo = ctx;
	char name[48];

	snprintf(name, sizeof(name), "--%s", opt->name);
	return app_matrix_add(mo->m, app_matrix_axis(mo->m, name), (char *)v, err, errlen);
}

static int set_tag(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct matrix_opts *mo = ctx;

	if (mo->ntags == (int)(sizeof(mo->tags) / sizeof(mo->tags[0]))) {
		snprintf(err, errlen, "--tag: at most %d", (int)(sizeof(mo->tags) / sizeof(mo->tags[0])));
		return -EINVAL;
	}
	mo->tags[mo->ntags++] = v;
	return 0;
}

static const struct opt matrix_opts_table[] = {
	{ "placement", 0, OPT_VALUE, "LIST", "axes ('lab up' options, each a comma-separated list of values, or repeated)",
	  NULL, "e.g. bound,split,free (the DUT's IRQ placement)", set_axis },
	{ "rules", 0, OPT_VALUE, "LIST", NULL, NULL, "e.g. 0,100,1000 (null firewall rules in the DUT)", set_axis },
	{ "dut-cpus", 0, OPT_VALUE, "CPUS", NULL, NULL, "one CPU list per occurrence: --dut-cpus 1 --dut-cpus 0-1",
	  set_axis },
	{ "shape", 0, OPT_VALUE, "LIST", NULL, NULL, "e.g. 50kpps,100kpps", set_axis },
	{ "mtu", 0, OPT_VALUE, "LIST", NULL, NULL, "e.g. 1500,9000", set_axis },
	{ "queues", 0, OPT_VALUE, "LIST", NULL, NULL, "e.g. 1,2", set_axis },
	{ "prefix", 0, OPT_VALUE, "P", "options", LAB_PREFIX_DEFAULT,
	  "the lab's namespace prefix. A lab already up with this\n"
	  "prefix is taken down first; the matrix takes its own down at\n"
	  "the end, also on failure or Ctrl-C", opt_set_str, MO(prefix) },
	{ "no-xdp", 0, OPT_NOARG, NULL, NULL, NULL, "every configuration's DUT in skb mode ('lab up --no-xdp')",
	  opt_set_true, MO(no_xdp) },
	{ "label", 0, OPT_VALUE, "TEXT", NULL, NULL, "put in front of each run's label (the configuration)",
	  opt_set_str, MO(label) },
	{ "tag", 0, OPT_VALUE, "TEXT", NULL, NULL, "an extra tag on every run (repeatable)", set_tag },
	{ "db", 0, OPT_VALUE, "FILE", NULL, NULL,
	  "the results database, a file or a postgresql:// URI\n(default as for 'wirerate runs')", opt_set_db, MO(db) },
	{ "html", 0, OPT_VALUE, "FILE", NULL, NULL, "the report as an HTML page too", opt_set_str, MO(html) },
	{ "fail-on-regression", 0, OPT_VALUE, "PCT", NULL, NULL,
	  "exit 3 when a configuration is worse than the first by more\n"
	  "than PCT percent beyond noise", opt_set_str, MO(fail_pct) },
	{ NULL },
};

static const struct opt *const matrix_tables[] = { matrix_opts_table, NULL };

const struct opt_cmd matrix_cmd = {
	.name = "matrix",
	.synopsis = "AXES... [OPTIONS] -- trial|rfc2544 [TEST OPTIONS]",
	.about = "Runs the same test once per lab configuration: every combination of the\n"
		 "axes' values. For each, the lab is built afresh with that configuration\n"
		 "and the test runs and is stored (label: the configuration; one tag for the\n"
		 "whole matrix). Then 'wirerate report' compares the runs: a table by size\n"
		 "(rows are frame sizes, columns are configurations) and one by setup (rows\n"
		 "are configurations, kpps), each against the first configuration.\n",
	.notes = "The test's options follow '--': any of trial's or rfc2544's, except the\n"
		 "ones the matrix sets (--prefix, --tx, --rx, --label, --db, --no-store, --json).\n"
		 "At most 64 configurations. With --json: the configurations, their run ids\n"
		 "and the report's JSON.\n"
		 "\n"
		 "exit status: 0; 1 runtime failure; 2 bad input; 3 regression (with\n"
		 "--fail-on-regression); 130 interrupted (the runs finished so far stay stored)\n",
	.tables = matrix_tables,
};

/* A lab's build between two configurations, about (this VM: 2-4 s). */
#define MATRIX_LAB_UP_S 4.0

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

/* The configurations' runs compared by 'wirerate report', run as a
 * child; with --json its document goes inside the matrix's. */
static int report(struct cli *cli, const struct app_matrix *m, const int64_t *run_ids, const char *db_path,
		  const char *html, const char *fail_pct, const char *mtag, const char *prefix)
{
	char *rargv[APP_MATRIX_REPORT_ARGV], ids[APP_MATRIX_MAX][24];
	FILE *tmp = NULL;
	int rc;

	app_matrix_report_argv(rargv, ids, run_ids, m->nconf, cli->json, db_path, html, fail_pct);
	if (cli->json && !(tmp = tmpfile())) {
		cli_error("matrix: a temporary file: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	fflush(stdout);
	rc = selfexec_run(rargv, tmp ? fileno(tmp) : -1, EXIT_RUNTIME);
	if (rc < 0)
		rc = EXIT_RUNTIME;
	if (tmp) {
		struct out *o = cli_out_create(cli, "matrix");

		matrixprint_json(o, m, run_ids, mtag, prefix, tmp);
		out_destroy(o);
		fclose(tmp);
	}
	return rc;
}

/* One matrix: what was asked, and its runs as they go. */
struct mrun {
	struct app_matrix m;
	struct matrix_opts mo;
	char **test;			/* argv from the test's name on */
	int ntest;
	bool remote;			/* the test names a DUT of its own */
	char db_path[4096], mtag[64];
	double planned;			/* the test's plan, seconds a configuration */
	struct lab_spec specs[MATRIX_MAX];
	int64_t run_ids[MATRIX_MAX];
	char *targv[ARGV_MAX];
	int at, started;		/* the configuration running, and how many began */
};

static char **test_argv(struct mrun *r, int c);

/* argv up to the test and the test's own options, each configuration
 * checked as 'lab up' would, the test's options by the test with
 * nothing built: -1 to go on, or the exit status. */
static int check(struct cli *cli, int argc, char **argv, struct mrun *r)
{
	struct app_matrix *m = &r->m;
	void *ctx[] = { &r->mo };
	int test_at = -1, rc, nown, nargs;
	char *args[1], err[512];

	app_matrix_init(m);
	r->mo = (struct matrix_opts){ .m = m, .prefix = LAB_PREFIX_DEFAULT };
	/* The matrix's own options end at '--'; the test's follow. */
	for (nown = 1; nown < argc && strcmp(argv[nown], "--"); nown++)
		;
	if (nown < argc)
		test_at = nown + 1;
	if ((rc = opt_parse(&matrix_cmd, ctx, cli, nown, argv, args, 1, &nargs)))
		return rc == OPT_HELP ? 0 : EXIT_USAGE;
	if (nargs) {
		cli_error("matrix: unexpected '%s': the test goes after '--'", args[0]);
		return EXIT_USAGE;
	}
	if (test_at < 0 || test_at >= argc) {
		cli_error("matrix: give the test after '--': trial or rfc2544 and its options (see 'wirerate matrix --help')");
		return EXIT_USAGE;
	}
	if (strcmp(argv[test_at], "trial") && strcmp(argv[test_at], "rfc2544")) {
		cli_error("matrix: the test is trial or rfc2544, not '%s'", argv[test_at]);
		return EXIT_USAGE;
	}
	r->test = argv + test_at;
	r->ntest = argc - test_at;
	r->remote = app_matrix_remote_dut(r->test, r->ntest);
	for (int i = 1; i < r->ntest; i++) {
		if (app_matrix_reserved(r->test[i], r->remote)) {
			cli_error("matrix: %s is the matrix's to set, not the test's (see 'wirerate matrix --help')",
				  r->test[i]);
			return EXIT_USAGE;
		}
	}
	if (r->ntest + 2 * r->mo.ntags + 12 > ARGV_MAX) {
		cli_error("matrix: too many test options");
		return EXIT_USAGE;
	}
	if (app_matrix_count(m, err, sizeof(err)) ||
	    app_matrix_check_own(r->mo.label, r->mo.tags, r->mo.ntags, r->mo.db, r->mo.html, r->mo.fail_pct, err,
				 sizeof(err)) ||
	    (r->remote && app_matrix_check_remote(m, err, sizeof(err)))) {
		cli_error("matrix: %s", err);
		return EXIT_USAGE;
	}
	/* Every configuration checked as 'lab up' would check it, before any
	 * lab is built or test run; a DUT of its own by its test, below. */
	for (int c = 0; c < m->nconf && !r->remote; c++) {
		char *largv[2 * APP_MATRIX_NAXES + 6];
		int la = app_matrix_lab_argv(m, c, r->mo.prefix, r->mo.no_xdp, largv);
		const char *action;

		if ((rc = lab_args_parse(cli, la, largv, &r->specs[c], &action)))
			return rc < 0 ? EXIT_USAGE : rc;
	}
	if (app_matrix_labels(m, r->mo.label, err, sizeof(err))) {
		cli_error("matrix: %s", err);
		return EXIT_USAGE;
	}
	if (r->mo.db) {
		snprintf(r->db_path, sizeof(r->db_path), "%s", r->mo.db);
	} else if (db_default_path(r->db_path, sizeof(r->db_path), err, sizeof(err))) {
		cli_error("matrix: %s", err);
		return EXIT_USAGE;
	}
	snprintf(r->mtag, sizeof(r->mtag), "matrix-%lld-%d", (long long)time(NULL), (int)getpid());
	/* the test's own options, parsed by the test with nothing built */
	for (int c = 0; c < (r->remote ? m->nconf : 1); c++)
		if ((rc = check_test(cli, test_argv(r, c), &r->planned)))
			return rc;
	return -1;
}

/* Configuration c's command line in r->targv. */
static char **test_argv(struct mrun *r, int c)
{
	app_matrix_test_argv(r->targv, r->test, r->ntest, r->remote ? NULL : r->mo.prefix, r->m.labels[c], r->mtag,
			     r->mo.tags, r->mo.ntags, r->db_path);
	if (r->remote)
		app_matrix_dut_argv(&r->m, c, r->targv);
	return r->targv;
}

/* Configuration c: its lab built, its test run and stored. 0, or the
 * exit status after saying why. */
static int run_one(struct cli *cli, struct mrun *r, int c)
{
	const char *label = r->m.labels[c];
	char err[512];
	int st;

	if (!cli->json) {
		char l[4 * sizeof(r->m.labels[0])];

		printf("matrix %d/%d: %s\n", c + 1, r->m.nconf, out_escape_text(l, sizeof(l), label));
		fflush(stdout);
	}
	if (!r->remote && (lab_down(r->mo.prefix, err, sizeof(err)) || lab_up(&r->specs[c], err, sizeof(err)))) {
		cli_error("matrix: configuration %d (%s): lab up: %s", c + 1, label, err);
		return EXIT_RUNTIME;
	}
	if (selfexec_stopped())
		return 130;
	if (cli->json) {
		FILE *null = fopen("/dev/null", "w");

		st = selfexec_run(test_argv(r, c), null ? fileno(null) : -1, EXIT_RUNTIME);
		if (null)
			fclose(null);
	} else {
		st = selfexec_run(test_argv(r, c), -1, EXIT_RUNTIME);
	}
	if (st < 0) {
		cli_error("matrix: cannot run the test: %s", strerror(-st));
		return EXIT_RUNTIME;
	}
	r->run_ids[c] = app_matrix_newest_run(r->db_path, r->mtag);
	if (st) {
		/* the test said why; a stop keeps the runs so far */
		if (st == 130 || selfexec_stopped())
			return 130;
		cli_error("matrix: configuration %d (%s): the test failed (exit %d); the runs so far are stored, "
			  "tagged %s", c + 1, label, st, r->mtag);
		return st;
	}
	if (r->run_ids[c] <= (c ? r->run_ids[c - 1] : 0)) {
		cli_error("matrix: configuration %d (%s): the test stored no run in %s", c + 1, label, r->db_path);
		return EXIT_RUNTIME;
	}
	if (!cli->json)
		printf("\n");
	return 0;
}

int cmd_matrix(struct cli *cli, int argc, char **argv)
{
	struct mrun *r = calloc(1, sizeof(*r));
	struct selfexec_sigs sigs;
	int rc, lock = -1, nconf;
	bool between = false;
	char err[512], held[64];

	if (!r) {
		cli_error("matrix: out of memory");
		return EXIT_RUNTIME;
	}
	if ((rc = check(cli, argc, argv, r)) >= 0) {
		free(r);
		return rc;
	}
	nconf = r->m.nconf;
	/* the lab is the matrix's until the end; its tests share its lock
	 * (inherited: it lasts while a test runs, even if the matrix dies) */
	if (!r->remote && (rc = lab_lock(r->mo.prefix, "matrix", true, &lock, err, sizeof(err)))) {
		cli_error("matrix: %s", err);
		free(r);
		return EXIT_RUNTIME;
	}
	fcntl(lock, F_SETFD, 0);
	snprintf(held, sizeof(held), "%s:%d", r->mo.prefix, lock);
	setenv(LAB_LOCK_ENV, held, 1);
	selfexec_catch(&sigs);
	if (!cli->json) {
		char t[4 * sizeof(r->mtag)];

		printf("matrix: %d configuration(s) %s %s, runs tagged %s\n", nconf, r->remote ? "on the test's" : "in lab",
		       r->remote ? "DUT" : r->mo.prefix, out_escape_text(t, sizeof(t), r->mtag));
	}
	/* the test's own plan, once per configuration, and the lab's build */
	if (r->planned > 0) {
		char when[64];

		duration_text(nconf * (r->planned + (r->remote ? 0 : MATRIX_LAB_UP_S)), when, sizeof(when));
		fprintf(stderr, "matrix: planned: %d configuration(s) of about %.0f s each%s, %s in all (an estimate: "
			"each test says its own plan as it starts)\n", nconf, r->planned,
			r->remote ? "" : " and the lab's build", when);
	}
	rc = 0;
	if (!r->remote && lab_down(r->mo.prefix, err, sizeof(err))) {
		cli_error("matrix: lab down: %s", err);
		rc = EXIT_RUNTIME;
	}
	for (int c = 0; !rc && c < nconf && !selfexec_stopped(); c++) {
		r->at = c;
		r->started = c + 1;
		rc = run_one(cli, r, c);
	}
	if (!rc && selfexec_stopped()) {
		rc = 130;
		between = r->started > 0;
	}
	if (!r->remote && lab_down(r->mo.prefix, err, sizeof(err))) {
		cli_error("matrix: lab down: %s", err);
		if (!rc)
			rc = EXIT_RUNTIME;
	}
	if (rc == 130 && !r->started)
		fprintf(stderr, "wirerate: matrix: stopped before configuration 1 of %d; nothing was run\n", nconf);
	else if (rc == 130)
		cli_error("matrix: stopped %s configuration %d of %d; the runs so far are stored, tagged %s",
			  between ? "after" : "in", r->at + 1, nconf, r->mtag);
	if (!rc)
		rc = report(cli, &r->m, r->run_ids, r->db_path, r->mo.html, r->mo.fail_pct, r->mtag, r->mo.prefix);
	unsetenv(LAB_LOCK_ENV);
	lab_unlock(&lock, r->mo.prefix);
	selfexec_restore(&sigs);
	free(r);
	return rc;
}
