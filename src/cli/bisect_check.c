/* A bisection's options into its spec, and everything checked before
 * anything is built or measured: the range, the tree, each candidate's
 * lab as 'lab up' checks it, the measurement as its command parses it. */
#include "cli/bisect_check.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/bisect_source.h"
#include "cli/child_args.h"
#include "cli/lab_args.h"
#include "cli/test_args.h"
#include "store/report_db.h"

#define LAB_WORDS_MAX 64

int bisect_check_dut(char *const *measure, int nmeasure, struct dut_target *t, char *err, size_t errlen)
{
	const char *target = NULL;

	*t = (struct dut_target){ 0 };
	for (int i = 0; i + 1 < nmeasure; i++) {
		const char *o = measure[i], *v = measure[i + 1];

		if (!strcmp(o, "--dut"))
			target = v;
		else if (!strcmp(o, "--ssh-option") && t->nssh_opts < DUT_SSH_OPTS_MAX)
			t->ssh_opts[t->nssh_opts++] = v;
		else if (!strcmp(o, "--dut-agent"))
			t->agent = v;
	}
	if (!target) {
		snprintf(err, errlen, "--install: the measurement names no --dut to wait for");
		return -EINVAL;
	}
	return duttarget_parse(target, t, err, errlen);
}

static int measure_dut(void *ctx, const struct app_bisect *b, struct dut_target *t, char *err, size_t errlen)
{
	(void)ctx;
	return bisect_check_dut(b->spec.measure, b->spec.nmeasure, t, err, errlen);
}

/* The lab for candidate i: the --lab words, the prefix and the
 * candidate's kernel set through lab's table as 'lab up' takes them
 * (what is wrong said on stderr). */
static int lab_of(void *ctx, const struct app_bisect *b, size_t i, struct lab_spec *out, char *err, size_t errlen)
{
	const struct app_bisect_spec *s = &b->spec;
	char words[sizeof(s->lab)], kernel[4200], modules[4200], *argv[LAB_WORDS_MAX + 1], *save = NULL;
	struct lab_args la;
	enum opt_result r;
	int a = 0, status;

	snprintf(words, sizeof(words), "%s", s->lab);
	argv[a++] = "lab";
	for (char *w = strtok_r(words, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (a >= LAB_WORDS_MAX) {
			snprintf(err, errlen, "--lab: more than %d words", LAB_WORDS_MAX);
			return -EINVAL;
		}
		argv[a++] = w;
	}
	argv[a] = NULL;
	app_bisect_source_kernel(b, i, kernel, sizeof(kernel), modules, sizeof(modules));
	lab_args_init(&la);
	if ((r = lab_args_options(ctx, &la, a, argv, &status)) == OPT_GO &&
	    (r = lab_args_set(&la, lab_args_opt("prefix"), s->prefix, &status)) == OPT_GO &&
	    (!kernel[0] || (r = lab_args_set(&la, lab_args_opt("kernel"), kernel, &status)) == OPT_GO) &&
	    (!modules[0] || (r = lab_args_set(&la, lab_args_opt("modules"), modules, &status)) == OPT_GO))
		r = lab_args_up(&la, out, &status);
	lab_args_free(&la);
	if (r == OPT_EXIT) {
		snprintf(err, errlen, "the lab's options for candidate %zu are refused (said above)", i);
		return -EINVAL;
	}
	return 0;
}

/* An option's text into the spec's field of len bytes, when given. */
static enum opt_result copy_opt(char *dst, size_t len, const char *v, const char *name, int *status)
{
	if (!v)
		return OPT_GO;
	if (strlen(v) >= len)
		return opt_fail(status, EXIT_USAGE, "bisect: %s: at most %zu characters", name, len - 1);
	snprintf(dst, len, "%s", v);
	return OPT_GO;
}

/* The tree by its full path, a clean git work tree. */
static enum opt_result check_tree(struct app_bisect_spec *s, int *status)
{
	char err[1024];
	int rc;

	if ((rc = app_bisect_source_tree(s->tree, sizeof(s->tree), err, sizeof(err))))
		return opt_fail(status, rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME, "bisect: %s", err);
	return OPT_GO;
}

/* The spec from the options, checked. */
static enum opt_result spec_of(struct app_bisect *b, const struct bisect_opts *bo, int *status)
{
	struct app_bisect_spec *s = &b->spec;
	/* the spec's field, and the option (of the same name in bo) */
#define TEXT(field, option) { s->field, sizeof(s->field), bo->option, "--" #option }
	const struct {
		char *dst;
		size_t len;
		const char *v, *name;
	} texts[] = {
		TEXT(name, label), TEXT(good, good), TEXT(bad, bad), TEXT(kernels, kernels), TEXT(build, build),
		TEXT(apply, apply), TEXT(install, install), TEXT(release, release), TEXT(boot, boot),
		TEXT(modules, modules), TEXT(lab, lab), TEXT(prefix, prefix), TEXT(logs, logs),
	};
#undef TEXT
	char err[1024];

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		if (copy_opt(texts[i].dst, texts[i].len, texts[i].v, texts[i].name, status) == OPT_EXIT)
			return OPT_EXIT;
	if (app_bisect_run_figure(bo->figure, bo->measure[0], &s->figure, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "bisect: %s", err);
	if (!bo->kernels && (copy_opt(s->tree, sizeof(s->tree), bo->tree, "--tree", status) == OPT_EXIT ||
			     check_tree(s, status) == OPT_EXIT))
		return OPT_EXIT;
	if (lab_prefix_check(s->prefix, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "bisect: --prefix: %s", err);
	s->size = bo->size_set ? bo->size : 0;
	s->repeat = bo->repeat;
	s->max_rounds = bo->rounds;
	s->no_drift_checks = bo->no_drift_checks;
	s->timeout_s = bo->timeout;
	s->dut_wait_s = bo->dut_wait;
	for (int i = 0; i < bo->nmeasure; i++)
		s->measure[i] = bo->measure[i];
	s->nmeasure = bo->nmeasure;
	if (bo->db)
		snprintf(s->db_path, sizeof(s->db_path), "%s", bo->db);
	else if (db_default_path(s->db_path, sizeof(s->db_path), err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "bisect: %s", err);
	s->lab_on = bo->lab || bo->kernels || bo->boot;
	if (s->lab_on)
		b->lab_spec = lab_of;
	return OPT_GO;
}

/* The measurement as its command parses it, with what bisect adds. */
static enum opt_result check_measure(struct cli *cli, const struct app_bisect *b, int *status)
{
	const struct app_bisect_spec *s = &b->spec;
	const struct app_child what = { .cmd = APP_CHILD_TEST, .words = s->measure, .nwords = s->nmeasure,
					.prefix = b->lab_spec ? s->prefix : NULL, .repeat = s->repeat };
	double planned;

	return test_args_check(cli, &what, &planned, status);
}

/* A new bisection from the options, checked and stored. */
static enum opt_result start(struct cli *cli, struct app_bisect *b, const struct bisect_opts *bo, int *status)
{
	char err[1024];
	int rc;

	if (spec_of(b, bo, status) == OPT_EXIT || check_measure(cli, b, status) == OPT_EXIT)
		return OPT_EXIT;
	if ((rc = app_bisect_source_candidates(b, err, sizeof(err))))
		return opt_fail(status, cli_status(rc), "bisect: %s", err);
	if (b->lab_spec)
		for (size_t i = 0; i < (b->spec.kernels[0] ? b->n : 1); i++) {
			struct lab_spec ls;

			if (lab_of(cli, b, i, &ls, err, sizeof(err)))
				return opt_exit(status, EXIT_USAGE);
		}
	if (b->spec.tree[0] && (rc = app_bisect_source_head(b->spec.tree, b->head, sizeof(b->head), err, sizeof(err))))
		return opt_fail(status, cli_status(rc), "bisect: %s", err);
	if ((rc = app_bisect_run_create(b, err, sizeof(err))))
		return opt_fail(status, cli_status(rc), "bisect: %s", err);
	return OPT_GO;
}

/* A stored bisection (bo->run, or the newest not complete), opened: for
 * resume its tree checked as start checks it, for log its steps read. */
static enum opt_result resume(struct app_bisect *b, const struct bisect_opts *bo, int *status)
{
	char path[4096], err[1024], note[256];
	bool need_clean = bo->sub == BISECT_RESUME;
	int64_t id = 0;
	struct db *db = NULL;
	int rc;

	if (bo->db)
		snprintf(path, sizeof(path), "%s", bo->db);
	else if (db_default_path(path, sizeof(path), err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "bisect: %s", err);
	if (bo->run) {
		if ((rc = db_open_read(path, &db, err, sizeof(err))))
			return opt_fail(status, cli_status(rc), "bisect: %s", err);
		rc = report_db_resolve(db, bo->run, &id, note, sizeof(note), err, sizeof(err));
		db_close(db);
		if (rc)
			return opt_fail(status, EXIT_USAGE, "bisect: %s", err);
	}
	if ((rc = app_bisect_run_open(b, path, id, !need_clean, err, sizeof(err))))
		return opt_fail(status, rc == -ENOENT || rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME, "bisect: %s", err);
	if (need_clean && b->spec.tree[0] && check_tree(&b->spec, status) == OPT_EXIT)
		return OPT_EXIT;
	if (bo->sub == BISECT_LOG && app_bisect_run_state(b, err, sizeof(err)))
		return opt_fail(status, EXIT_RUNTIME, "bisect: %s", err);
	if (b->spec.lab_on)
		b->lab_spec = lab_of;
	return OPT_GO;
}

enum opt_result bisect_check(struct cli *cli, const struct bisect_opts *bo, struct app_bisect *b, int *status)
{
	b->measure_dut = measure_dut;
	b->argv = child_args_build;
	if (bo->sub != BISECT_LOG && !cli_have_root() && !cli->check_only)
		return opt_fail(status, EXIT_RUNTIME,
				"bisect: needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN): run it as root");
	return bo->sub == BISECT_START ? start(cli, b, bo, status) : resume(b, bo, status);
}
