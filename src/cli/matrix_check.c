/* A matrix checked before any lab is built or test run: its options as
 * its tests and report would check them, every configuration as 'lab up'
 * would, and the test's own options by the test's command in this process,
 * parsing only. */
#include "cli/matrix_check.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/lab_args.h"
#include "store/db.h"

/* Every configuration checked as 'lab up' would check it, before any lab
 * is built or test run: -1, or the exit status. */
static int check_labs(struct cli *cli, struct matrix_plan *p)
{
	for (int c = 0; c < p->m.nconf; c++) {
		char *largv[2 * APP_MATRIX_NAXES + 6];
		int la = app_matrix_plan_lab_argv(&p->m, c, p->mo.prefix, p->mo.no_xdp, largv), rc;
		const char *action;

		if ((rc = lab_args_parse(cli, la, largv, &p->specs[c], &action, NULL)) >= 0)
			return rc ? rc : EXIT_USAGE;
	}
	return -1;
}

int matrix_check(struct cli *cli, int argc, char **argv, struct matrix_plan *p)
{
	struct app_matrix *m = &p->m;
	struct app_matrix_run *run = &p->run;
	const struct matrix_opts *mo = &p->mo;
	char err[512];
	int rc;

	p->mo.m = m;
	if ((rc = matrix_args(cli, argc, argv, &p->mo, &run->test, &run->ntest)) >= 0)
		return rc;
	if (app_matrix_plan_check_test(run->test, run->ntest, mo->ntags, &run->remote, err, sizeof(err)) ||
	    app_matrix_plan_count(m, err, sizeof(err)) ||
	    app_matrix_plan_check_own(mo->label, mo->tags, mo->ntags, mo->db, mo->html, mo->fail_pct, err, sizeof(err)) ||
	    (run->remote && app_matrix_plan_check_remote(m, err, sizeof(err))))
		return cli_fail(EXIT_USAGE, "matrix: %s", err);
	/* a DUT of its own is checked by its test, below */
	if (!run->remote && (rc = check_labs(cli, p)) >= 0)
		return rc;
	if (app_matrix_plan_labels(m, mo->label, err, sizeof(err)))
		return cli_fail(EXIT_USAGE, "matrix: %s", err);
	if (mo->db) {
		snprintf(p->db_path, sizeof(p->db_path), "%s", mo->db);
	} else if (db_default_path(p->db_path, sizeof(p->db_path), err, sizeof(err)))
		return cli_fail(EXIT_USAGE, "matrix: %s", err);
	snprintf(p->mtag, sizeof(p->mtag), "matrix-%lld-%d", (long long)time(NULL), (int)getpid());
	*run = (struct app_matrix_run){ .m = m, .prefix = mo->prefix, .remote = run->remote, .specs = p->specs,
					.test = run->test, .ntest = run->ntest, .tags = mo->tags, .ntags = mo->ntags,
					.db_path = p->db_path, .mtag = p->mtag, .html = mo->html,
					.fail_pct = mo->fail_pct, .json = cli->json };
	/* the test's own options, parsed by the test with nothing built */
	for (int c = 0; c < (run->remote ? m->nconf : 1); c++)
		if ((rc = test_args_check(cli, app_matrix_run_argv(run, c), &run->planned_s)))
			return rc;
	return -1;
}
