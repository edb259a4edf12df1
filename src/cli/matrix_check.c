/* A matrix checked before any lab is built or test run: its options as
 * its tests and report would check them, every configuration as 'lab up'
 * would, and the test's own options by the test's command in this process,
 * parsing only. */
#include "cli/matrix_check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/child_args.h"
#include "cli/test_args.h"
#include "store/db.h"

/* Every configuration checked as 'lab up' would check it, before any lab
 * is built or test run. */
static enum opt_result check_labs(struct matrix_plan *p, int *status)
{
	for (int c = 0; c < p->m.nconf; c++)
		if (matrix_args_lab(&p->mo, c, &p->specs[c], status) == OPT_EXIT)
			return OPT_EXIT;
	return OPT_GO;
}

/* "matrix: give at least one axis (--placement, ... or --kernel-cmdline)" */
static enum opt_result no_axis(int *status)
{
	char list[512];
	size_t at = 0;

	for (int k = 0; k < APP_MATRIX_NAXES; k++)
		at += (size_t)snprintf(list + at, sizeof(list) - at, "%s--%s",
				       !k ? "" : k < APP_MATRIX_NAXES - 1 ? ", " : " or ", matrix_args_axis(k));
	return opt_fail(status, EXIT_USAGE, "matrix: give at least one axis (%s)", list);
}

enum opt_result matrix_check(struct cli *cli, int argc, char **argv, struct matrix_plan *p, int *status)
{
	struct app_matrix *m = &p->m;
	struct app_matrix_run *run = &p->run;
	const struct matrix_opts *mo = &p->mo;
	char err[512];
	int rc, k;

	unsigned int test_repeat, rounds;
	int nsteps;

	p->mo.m = m;
	if (matrix_args(cli, argc, argv, &p->mo, &run->test, &run->ntest, status) == OPT_EXIT ||
	    child_args_matrix(run->test, &run->ntest, mo->ntags, !mo->no_interleave, &run->remote, &test_repeat,
			      status) == OPT_EXIT)
		return OPT_EXIT;
	if (test_repeat && mo->repeat)
		return opt_fail(status, EXIT_USAGE, "matrix: --repeat twice: give it to the matrix (rounds) or, with "
				"--no-interleave, to the test");
	if (mo->no_interleave && mo->repeat)
		return opt_fail(status, EXIT_USAGE, "matrix: --repeat with --no-interleave: give the test its "
				"--repeat, which repeats back to back");
	rounds = mo->repeat ? mo->repeat : test_repeat ? test_repeat : 1;
	if ((rc = app_matrix_plan_count(m, err, sizeof(err))) == -ENOENT)
		return no_axis(status);
	if (rc || app_matrix_plan_check_own(mo->label, mo->tags, mo->ntags, mo->db, mo->html, mo->fail_pct, err,
					    sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "matrix: %s", err);
	if (run->remote && app_matrix_plan_check_remote(m, &k))
		return opt_fail(status, EXIT_USAGE, "matrix: --%s: a DUT of its own (--dut ssh: or local) has the "
				"axes --placement and --rules; --%s is the lab's", matrix_args_axis(k),
				matrix_args_axis(k));
	/* a DUT of its own is checked by its test, below */
	if (!run->remote && check_labs(p, status) == OPT_EXIT)
		return OPT_EXIT;
	if (app_matrix_plan_labels(m, mo->label, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "matrix: %s", err);
	if (mo->db) {
		snprintf(p->db_path, sizeof(p->db_path), "%s", mo->db);
	} else if (db_default_path(p->db_path, sizeof(p->db_path), err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "matrix: %s", err);
	snprintf(p->mtag, sizeof(p->mtag), "matrix-%lld-%d", (long long)time(NULL), (int)getpid());
	if (!mo->seed_set)
		p->mo.seed = (uint64_t)time(NULL) * 1000003u ^ (uint64_t)getpid();
	if ((nsteps = app_matrix_plan_schedule(m->nconf, rounds, !mo->no_interleave, mo->order, mo->seed, p->steps,
					       APP_MATRIX_RUNS_MAX, err, sizeof(err))) < 0)
		return opt_fail(status, EXIT_USAGE, "matrix: %s", err);
	/* how the tests were ordered, a tag of every run */
	if (mo->no_interleave || rounds == 1)
		snprintf(p->otag, sizeof(p->otag), "order-%s", mo->no_interleave ? "back-to-back" : "one-round");
	else if (mo->order == APP_MATRIX_SHUFFLE)
		snprintf(p->otag, sizeof(p->otag), "order-shuffle-%llu", (unsigned long long)mo->seed);
	else
		snprintf(p->otag, sizeof(p->otag), "order-alternate");
	memcpy(p->tags, mo->tags, (size_t)mo->ntags * sizeof(*p->tags));
	p->tags[mo->ntags] = p->otag;
	*run = (struct app_matrix_run){ .m = m, .prefix = mo->prefix, .remote = run->remote, .specs = p->specs,
					.steps = p->steps, .nsteps = nsteps, .rounds = rounds,
					.interleave = !mo->no_interleave && rounds > 1,
					.back_to_back = mo->no_interleave, .order = mo->order,
					.seed = mo->seed, .test = run->test, .ntest = run->ntest, .tags = p->tags,
					.ntags = mo->ntags + 1, .db_path = p->db_path, .mtag = p->mtag, .html = mo->html,
					.fail_pct = mo->fail_pct, .json = cli->json, .argv = child_args_build };
	/* the test's own options, parsed by the test with nothing built */
	for (int c = 0; c < (run->remote ? m->nconf : 1); c++) {
		struct app_child what;

		app_matrix_run_test(run, c, 1, &what);
		if (test_args_check(cli, &what, &run->planned_s, status) == OPT_EXIT)
			return OPT_EXIT;
	}
	return OPT_GO;
}
