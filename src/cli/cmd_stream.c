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

/* A line for the user while the client runs: a warning, or a note. */
static void note(void *ctx, bool warning, const char *line)
{
	(void)ctx;
	if (warning)
		cli_error("warning: stream: %s", line);
	else
		fprintf(stderr, "stream: %s\n", line);
}

int cmd_stream(struct cli *cli, int argc, char **argv)
{
	static const int status[] = {
		[APP_STREAM_OK] = 0, [APP_STREAM_INPUT] = EXIT_USAGE, [APP_STREAM_HOST] = EXIT_RUNTIME,
		[APP_STREAM_STOPPED] = 130,
	};
	struct streamprint_ctx p = { .create = cli_out_create_json };
	struct stop stop = { 0 };
	struct app_stream_opts op;
	struct app_stream_end e;
	char err[1024];
	int rc;

	if (stream_args(cli, argc, argv, &op, &rc) == OPT_EXIT)
		return rc;
	/* no SA_RESTART: a blocked send or wait returns at once to look */
	op.stop = stop_catch(&stop);
	op.note = note;
	op.root = cli_have_root();
	p.json = cli->json;
	if (op.mode == APP_STREAM_SERVER)
		rc = app_stream_run_serve(&op, &stream_print_hooks, &p, &e, err, sizeof(err));
	else
		rc = app_stream_run(&op, &stream_print_hooks, &p, &e, err, sizeof(err));
	if (rc && err[0])
		cli_error("stream: %s", err);
	if (e.warning[0])
		cli_error("warning: %s", e.warning);
	out_destroy(p.o);
	stop_restore(&stop);
	return status[e.why];
}
