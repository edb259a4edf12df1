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
#include "cli/test_args.h"
#include "store/db.h"

/* Every configuration checked as 'lab up' would check it, before any lab
 * is built or test run. */
static enum opt_result check_labs(struct cli *cli, struct matrix_plan *p, int *status)
{
	for (int c = 0; c < p->m.nconf; c++) {
		char *largv[2 * APP_MATRIX_NAXES + 6];
		int la = app_matrix_plan_lab_argv(&p->m, c, p->mo.prefix, p->mo.no_xdp, largv);
		const char *action;

		/* a usage printed (a value read as --help) is no configuration */
		if (lab_args_parse(cli, la, largv, &p->specs[c], &action, NULL, status) == OPT_EXIT)
			return opt_exit(status, *status ? *status : EXIT_USAGE);
	}
	return OPT_GO;
}

enum opt_result matrix_check(struct cli *cli, int argc, char **argv, struct matrix_plan *p, int *status)
{
	struct app_matrix *m = &p->m;
	struct app_matrix_run *run = &p->run;
	const struct matrix_opts *mo = &p->mo;
	char err[512];

	p->mo.m = m;
	if (matrix_args(cli, argc, argv, &p->mo, &run->test, &run->ntest, status) == OPT_EXIT)
		return OPT_EXIT;
	if (app_matrix_plan_check_test(run->test, run->ntest, mo->ntags, &run->remote, err, sizeof(err)) ||
	    app_matrix_plan_count(m, err, sizeof(err)) ||
	    app_matrix_plan_check_own(mo->label, mo->tags, mo->ntags, mo->db, mo->html, mo->fail_pct, err, sizeof(err)) ||
	    (run->remote && app_matrix_plan_check_remote(m, err, sizeof(err))))
		return opt_fail(status, EXIT_USAGE, "matrix: %s", err);
	/* a DUT of its own is checked by its test, below */
	if (!run->remote && check_labs(cli, p, status) == OPT_EXIT)
		return OPT_EXIT;
	if (app_matrix_plan_labels(m, mo->label, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "matrix: %s", err);
	if (mo->db) {
		snprintf(p->db_path, sizeof(p->db_path), "%s", mo->db);
	} else if (db_default_path(p->db_path, sizeof(p->db_path), err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "matrix: %s", err);
	snprintf(p->mtag, sizeof(p->mtag), "matrix-%lld-%d", (long long)time(NULL), (int)getpid());
	*run = (struct app_matrix_run){ .m = m, .prefix = mo->prefix, .remote = run->remote, .specs = p->specs,
					.test = run->test, .ntest = run->ntest, .tags = mo->tags, .ntags = mo->ntags,
					.db_path = p->db_path, .mtag = p->mtag, .html = mo->html,
					.fail_pct = mo->fail_pct, .json = cli->json };
	/* the test's own options, parsed by the test with nothing built */
	for (int c = 0; c < (run->remote ? m->nconf : 1); c++)
		if (test_args_check(cli, app_matrix_run_argv(run, c), &run->planned_s, status) == OPT_EXIT)
			return OPT_EXIT;
	return OPT_GO;
}
