/* wirerate bisect start (--good REV --bad REV [--tree DIR] | --kernels LIST)
 *                       [--build CMD] [--boot IMAGE] [--apply CMD] [--lab OPTIONS] ...
 *                       -- trial|rfc2544 throughput [OPTIONS]
 * wirerate bisect resume [RUN]
 * wirerate bisect log [RUN] [--html FILE]
 *
 * Everything checked before anything is built or measured
 * (bisect_check.c); then app/bisect_run.c runs it to the end. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/bisect_check.h"
#include "render/bisect_print.h"

static void say(void *ctx, enum app_say how, const char *line)
{
	(void)ctx;
	cli_error("%sbisect: %s", how == APP_SAY_WARNING ? "warning: " : "", line);
}

/* The log (once found, with what differed between the last good and the
 * first bad), then the page of the steps' runs when html names it. */
static int print_log(struct cli *cli, const struct app_bisect *b, const char *html)
{
	struct trend_change diff;
	char err[512];
	bool found = (b->st.action == BISECT_FOUND || b->st.action == BISECT_RANGE) &&
		     !app_bisect_run_explain(b, &diff, err, sizeof(err));
	struct out *o = cli_out_create(cli, "bisect");
	int rc = 0;

	if (!o)
		return cli_fail(EXIT_RUNTIME, "bisect: out of memory");
	bisect_print_log(o, b, found ? &diff : NULL);
	out_destroy(o);
	if (html && (rc = app_bisect_run_html(b, html, err, sizeof(err))) == -ENOENT)
		return cli_fail(EXIT_RUNTIME, "bisect log --html: %s", err);
	return rc < 0 ? EXIT_RUNTIME : rc;
}

int cmd_bisect(struct cli *cli, int argc, char **argv)
{
	const struct app_cli_hooks ch = { .say = say, .ctx = cli };
	struct bisect_print_run v = { .json = false };
	struct app_bisect *b = calloc(1, sizeof(*b));
	struct bisect_opts bo;
	int rc;

	if (!b)
		return cli_fail(EXIT_RUNTIME, "bisect: out of memory");
	*b = (struct app_bisect){ .cli = &ch, .h = &bisect_print_hooks, .ctx = &v };
	if (bisect_args(cli, argc, argv, &bo, &rc) == OPT_EXIT || bisect_check(cli, &bo, b, &rc) == OPT_EXIT)
		goto out;
	v.json = cli->json;	/* --json is known once parsed */
	if (bo.sub == BISECT_LOG) {
		rc = print_log(cli, b, bo.html);
		goto out;
	}
	if (!cli->json)
		bisect_print_begin(stdout, b, bo.sub == BISECT_RESUME);
	if ((rc = app_bisect_run(b)) == -EINTR)
		rc = cli_fail(130, "bisect: stopped; every finished step is stored: 'wirerate bisect resume %" PRId64
			      "' goes on", b->id);
	else if (rc)
		rc = EXIT_RUNTIME;
	else if (!cli->json)
		printf("\n");
	if (!rc)
		rc = print_log(cli, b, NULL);
out:
	bisect_args_free(&bo);
	app_bisect_run_free(b);
	free(b);
	return rc;
}
