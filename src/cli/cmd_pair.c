/* wirerate pair [--topology net.config] [--test LIST] [--ktap|--json]
 * [--kcidb FILE --origin NAME]: pair_args.c declares the options,
 * app/pair_run.c runs the tests, render/pair_print.c writes them out. */
#include <errno.h>
#include <signal.h>

#include "app/pair_run.h"
#include "cli/cli.h"
#include "cli/pair_args.h"
#include "os/stop.h"
#include "render/pair_print.h"

static void say(void *ctx, enum app_say how, const char *line)
{
	(void)ctx;
	cli_error("%spair: %s", how == APP_SAY_WARNING ? "warning: " : "", line);
}

int cmd_pair(struct cli *cli, int argc, char **argv)
{
	struct pair_print p = { .create = cli_out_create_json };
	struct stop stop = { 0 };
	const struct app_cli_hooks ch = { .stop = stop_hook, .say = say, .ctx = &stop };
	struct testpoint_set s = { 0 };
	struct app_pair_opts op;
	struct topology t;
	char err[2048];
	int rc;

	if (pair_args(cli, argc, argv, &op, &rc) == OPT_EXIT)
		return rc;
	op.json = cli->json;
	if ((rc = app_pair_run_check(&op, &t, err, sizeof(err))))
		return cli_fail(EXIT_USAGE, "pair: %s", err);
	rc = app_pair_run(&op, &t, &ch, &pair_print_hooks, &p, &s, err, sizeof(err));
	if (rc) {
		cli_error("pair: %s", err);
		testpoint_set_free(&s);
		return rc == -EINTR ? 130 : rc == -EINVAL ? EXIT_USAGE : EXIT_RUNTIME;
	}
	rc = app_pair_run_status(&s);
	testpoint_set_free(&s);
	return rc;
}
