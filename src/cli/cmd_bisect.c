/* wirerate bisect start (--good REV --bad REV [--tree DIR] | --kernels LIST)
 *                       [--build CMD] [--boot IMAGE] [--apply CMD] [--lab OPTIONS] ...
 *                       -- trial|rfc2544 throughput [OPTIONS]
 * wirerate bisect resume [RUN]
 * wirerate bisect log [RUN] [--html FILE]
 *
 * Everything checked before anything is built or measured (the range,
 * the tree, each candidate's lab as 'lab up' checks it, the measurement
 * as its command parses it); then app/bisect_run.c runs it to the end. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/bisect_source.h"
#include "cli/bisect_args.h"
#include "cli/cli.h"
#include "cli/lab_args.h"
#include "cli/opt.h"
#include "cli/test_args.h"
#include "os/selfexec.h"
#include "render/bisect_print.h"
#include "store/report_db.h"

#define LAB_WORDS_MAX 64

struct bisect_cli {
	struct cli *cli;
	struct app_bisect b;
};

/* The lab for candidate i: 'lab' and the --lab words, the prefix, the
 * candidate's kernel (or the build's image), 'up'; parsed as cmd_lab
 * parses it (its error said on stderr). */
static int lab_spec_of(void *ctx, const struct app_bisect *b, size_t i, struct lab_spec *out, char *err,
		       size_t errlen)
{
	struct bisect_cli *bc = ctx;
	const struct app_bisect_spec *s = &b->spec;
	char words[sizeof(s->lab)], kernel[4200], modules[4200], *argv[LAB_WORDS_MAX + 12], *save = NULL;
	const char *action;
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
	argv[a++] = "--prefix";
	argv[a++] = (char *)s->prefix;
	if (s->kernels[0] || s->boot[0]) {
		if (s->kernels[0])
			snprintf(kernel, sizeof(kernel), "%s", b->c[i].id);
		else
			snprintf(kernel, sizeof(kernel), "%.2048s/%.2048s", s->tree, s->boot);
		argv[a++] = "--kernel";
		argv[a++] = kernel;
		if (s->modules[0]) {
			snprintf(modules, sizeof(modules), "%.2048s/%.2048s", s->tree, s->modules);
			argv[a++] = "--modules";
			argv[a++] = modules;
		}
	}
	argv[a++] = "up";
	argv[a] = NULL;
	if (lab_args_parse(bc->cli, a, argv, out, &action, NULL, &status) == OPT_EXIT) {
		snprintf(err, errlen, "the lab's options for candidate %zu are refused (said above)", i);
		return -EINVAL;
	}
	return 0;
}

static void on_step(void *ctx, const struct app_bisect *b, size_t i, const char *what)
{
	struct bisect_cli *bc = ctx;

	if (!bc->cli->json)
		bisect_print_step(stdout, b, i, what);
}

static void on_say(void *ctx, const char *line)
{
	(void)ctx;
	cli_error("bisect: %s", line);
}

/* The figure the measurement gives: the option's, or the test's own. */
static enum opt_result figure_of(const struct bisect_opts *bo, enum bisect_figure *f, int *status)
{
	bool rfc = !strcmp(bo->measure[0], "rfc2544");

	if (!bo->figure) {
		*f = rfc ? BISECT_FIG_NDR : BISECT_FIG_FORWARDED;
		return OPT_GO;
	}
	if (bisect_db_figure_parse(bo->figure, f))
		return opt_fail(status, EXIT_USAGE, "bisect: --figure '%.32s': ndr, pdr, forwarded or cpu-per-frame",
				bo->figure);
	if (bisect_db_figure_rfc2544(*f) != rfc)
		return opt_fail(status, EXIT_USAGE, "bisect: --figure %s is %s, and the measurement is %s", bo->figure,
				rfc ? "a trial's figure (forwarded, cpu-per-frame)" : "an rfc2544 throughput figure",
				bo->measure[0]);
	return OPT_GO;
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

/* The tree: a git work tree without uncommitted changes, by its full path. */
static enum opt_result check_tree(struct app_bisect_spec *s, int *status)
{
	char real[PATH_MAX], err[512];
	int rc;

	if (!realpath(s->tree, real))
		return opt_fail(status, EXIT_USAGE, "bisect: --tree %.200s: %s", s->tree, strerror(errno));
	if (strlen(real) >= sizeof(s->tree))
		return opt_fail(status, EXIT_USAGE, "bisect: --tree: a path too long");
	snprintf(s->tree, sizeof(s->tree), "%s", real);
	if ((rc = app_bisect_source_dirty(s->tree, err, sizeof(err))) < 0)
		return opt_fail(status, rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME,
				"bisect: --tree %.200s is not a git work tree: %s", s->tree, err);
	if (rc)
		return opt_fail(status, EXIT_USAGE, "bisect: --tree %.200s has uncommitted changes: commit or stash "
				"them first (each candidate is checked out)", s->tree);
	return OPT_GO;
}

/* The spec from the options, checked. */
static enum opt_result spec_of(struct bisect_cli *bc, const struct bisect_opts *bo, int *status)
{
	struct app_bisect *b = &bc->b;
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
	if (figure_of(bo, &s->figure, status) == OPT_EXIT)
		return OPT_EXIT;
	if (!bo->kernels && (copy_opt(s->tree, sizeof(s->tree), bo->tree, "--tree", status) == OPT_EXIT ||
			     check_tree(s, status) == OPT_EXIT))
		return OPT_EXIT;
	if (lab_prefix_check(s->prefix, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "bisect: --prefix: %s", err);
	s->size = bo->size_set ? bo->size : 0;
	s->repeat = bo->repeat;
	s->max_rounds = bo->rounds;
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
		b->lab_spec = lab_spec_of;
	return OPT_GO;
}

/* The measurement as its command parses it, with what bisect adds. */
static enum opt_result check_measure(struct bisect_cli *bc, int *status)
{
	const struct app_bisect_spec *s = &bc->b.spec;
	char *argv[BISECT_ARGV_MAX + 8], rep[16];
	double planned;
	int a = 0;

	argv[a++] = "wirerate";
	for (int i = 0; i < s->nmeasure; i++)
		argv[a++] = s->measure[i];
	snprintf(rep, sizeof(rep), "%u", s->repeat);
	argv[a++] = "--repeat";
	argv[a++] = rep;
	if (bc->b.lab_spec) {
		argv[a++] = "--prefix";
		argv[a++] = (char *)s->prefix;
	}
	argv[a] = NULL;
	return test_args_check(bc->cli, argv, &planned, status);
}

/* A new bisection from the options, checked and stored. */
static enum opt_result start(struct bisect_cli *bc, const struct bisect_opts *bo, int *status)
{
	struct app_bisect *b = &bc->b;
	char err[1024];
	int rc;

	if (spec_of(bc, bo, status) == OPT_EXIT || check_measure(bc, status) == OPT_EXIT)
		return OPT_EXIT;
	if ((rc = app_bisect_source_candidates(b, err, sizeof(err))))
		return opt_fail(status, cli_status(rc), "bisect: %s", err);
	if (b->lab_spec)
		for (size_t i = 0; i < (b->spec.kernels[0] ? b->n : 1); i++) {
			struct lab_spec ls;

			if (lab_spec_of(bc, b, i, &ls, err, sizeof(err)))
				return opt_exit(status, EXIT_USAGE);
		}
	if (b->spec.tree[0] && (rc = app_bisect_source_head(b->spec.tree, b->head, sizeof(b->head), err, sizeof(err))))
		return opt_fail(status, cli_status(rc), "bisect: %s", err);
	if ((rc = app_bisect_run_create(b, err, sizeof(err))))
		return opt_fail(status, cli_status(rc), "bisect: %s", err);
	return OPT_GO;
}

/* A stored bisection (bo->run, or the newest not complete), opened; with
 * need_clean, its tree checked as start checks it. */
static enum opt_result resume(struct bisect_cli *bc, const struct bisect_opts *bo, bool need_clean, int *status)
{
	struct app_bisect *b = &bc->b;
	char path[4096], err[1024], note[256];
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
	if (b->spec.lab_on)
		b->lab_spec = lab_spec_of;
	return OPT_GO;
}

/* The steps' runs in order as 'report' shows them, into an HTML page. */
static int html(struct bisect_cli *bc, const char *file)
{
	const struct app_bisect *b = &bc->b;
	char *argv[16 + 12], ids[16][24];
	int a = 0, n = 0, st;

	argv[a++] = "wirerate";
	argv[a++] = "report";
	for (size_t i = 0; i < b->n && n < 16; i++) {
		const struct app_bisect_cand *c = &b->c[i];

		if (!c->nruns)
			continue;
		snprintf(ids[n], sizeof(ids[n]), "%" PRId64, c->runs[c->nruns - 1]);
		argv[a++] = ids[n++];
	}
	if (!n)
		return cli_fail(EXIT_RUNTIME, "bisect log --html: no step was measured yet");
	argv[a++] = "--html";
	argv[a++] = (char *)file;
	argv[a++] = "--db";
	argv[a++] = (char *)b->spec.db_path;
	argv[a] = NULL;
	FILE *null = fopen("/dev/null", "w");

	st = selfexec_run(argv, null ? fileno(null) : -1, EXIT_RUNTIME);
	if (null)
		fclose(null);
	return st < 0 ? EXIT_RUNTIME : st;
}

static int print_log(struct bisect_cli *bc)
{
	struct app_bisect *b = &bc->b;
	struct trend_change diff, *d = NULL;
	char err[512];
	struct out *o;

	if ((b->st.action == BISECT_FOUND || b->st.action == BISECT_RANGE) &&
	    !app_bisect_run_explain(b, &diff, err, sizeof(err)))
		d = &diff;
	o = cli_out_create(bc->cli, "bisect");
	if (!o)
		return cli_fail(EXIT_RUNTIME, "bisect: out of memory");
	bisect_print_log(o, b, d);
	out_destroy(o);
	return 0;
}

int cmd_bisect(struct cli *cli, int argc, char **argv)
{
	struct bisect_cli *bc = calloc(1, sizeof(*bc));
	struct bisect_opts bo;
	char err[512];
	int rc;

	if (!bc)
		return cli_fail(EXIT_RUNTIME, "bisect: out of memory");
	bc->cli = cli;
	bc->b.ctx = bc;
	bc->b.step = on_step;
	bc->b.say = on_say;
	if (bisect_args(cli, argc, argv, &bo, &rc) == OPT_EXIT)
		goto out;
	if (bo.sub != BISECT_LOG && !cli_have_root() && !cli->check_only) {
		rc = cli_fail(EXIT_RUNTIME, "bisect: needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN): run it as root");
		goto out;
	}
	if ((bo.sub == BISECT_START ? start(bc, &bo, &rc) : resume(bc, &bo, bo.sub == BISECT_RESUME, &rc)) == OPT_EXIT)
		goto out;
	if (bo.sub == BISECT_LOG) {
		if ((rc = app_bisect_run_state(&bc->b, err, sizeof(err))))
			rc = cli_fail(EXIT_RUNTIME, "bisect: %s", err);
		else if (!(rc = print_log(bc)) && bo.html)
			rc = html(bc, bo.html);
		goto out;
	}
	if (!cli->json)
		bisect_print_begin(stdout, &bc->b, bo.sub == BISECT_RESUME);
	rc = app_bisect_run(&bc->b);
	if (rc == -EINTR) {
		cli_error("bisect: stopped; every finished step is stored: 'wirerate bisect resume %" PRId64 "' goes on",
			  bc->b.id);
		rc = 130;
	} else if (rc) {
		rc = EXIT_RUNTIME;
	} else {
		if (!cli->json)
			printf("\n");
		rc = print_log(bc);
	}
out:
	bisect_args_free(&bo);
	app_bisect_run_free(&bc->b);
	free(bc);
	return rc;
}
