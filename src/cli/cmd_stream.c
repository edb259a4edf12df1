/* wirerate stream: netperf's UDP_STREAM, a server, a client, or both ends
 * through the lab's DUT (lab mode). stream_args.c declares the options,
 * app/stream_run.c runs each mode, render/stream_print.c prints as it
 * goes; this file points the hooks and picks the exit status. */
#include <stdio.h>

#include "app/stream_run.h"
#include "cli/cli.h"
#include "cli/stream_args.h"
#include "os/stop.h"
#include "render/out.h"
#include "render/stream_print.h"

/* A line for the user: an error, a warning, or a note (each -I run's
 * figure) on its own. */
static void say(void *ctx, enum app_say how, const char *line)
{
	(void)ctx;
	if (how == APP_SAY_NOTE)
		fprintf(stderr, "stream: %s\n", line);
	else
		cli_error("%sstream: %s", how == APP_SAY_WARNING ? "warning: " : "", line);
}

int cmd_stream(struct cli *cli, int argc, char **argv)
{
	static const int status[] = {
		[APP_STREAM_OK] = 0, [APP_STREAM_INPUT] = EXIT_USAGE, [APP_STREAM_HOST] = EXIT_RUNTIME,
		[APP_STREAM_STOPPED] = 130,
	};
	struct streamprint_ctx p = { .create = cli_out_create_json };
	struct stop stop = { 0 };
	const struct app_cli_hooks ch = { .stop = stop_hook, .say = say, .ctx = &stop };
	struct app_stream_opts op;
	enum app_stream_why why;
	char err[1024];
	int rc;

	if (stream_args(cli, argc, argv, &op, &rc) == OPT_EXIT)
		return rc;
	if (cli->check_only) {
		/* a matrix's or bisect's check of its test: its options alone */
		if (op.mode == APP_STREAM_SERVER)
			return cli_fail(EXIT_USAGE, "stream: --server is no test to run (give lab mode or --client)");
		cli->planned_s = ns_to_s((double)op.duration_ns) * app_stream_client_runs(&op);
		return 0;
	}
	op.root = cli_have_root();
	p.json = cli->json;
	if (op.mode == APP_STREAM_SERVER)
		rc = app_stream_run_serve(&op, &ch, &stream_print_hooks, &p, &why, err, sizeof(err));
	else
		rc = app_stream_run(&op, &ch, &stream_print_hooks, &p, &why, err, sizeof(err));
	if (rc && err[0])
		cli_error("stream: %s", err);
	out_destroy(p.o);
	return status[why];
}
