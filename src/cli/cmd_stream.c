/* wirerate stream: netperf's UDP_STREAM (engine/stream.h has the
 * protocol and both ends). A server (netserver's part) counts the datagrams
 * a client sends it as fast as it can; the client prints netperf's block
 * with both ends' figures, and the loss between them. Lab mode runs both
 * ends itself, the server in the lab's sink namespace and the client in
 * its gen namespace, through the DUT. This file serves, runs the client
 * and picks the exit status; streamargs.c declares the options,
 * app/streamclient.c has their rules and the client's workflow, and
 * render/streamprint.c prints. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/streamclient.h"
#include "cli/cli.h"
#include "cli/streamargs.h"
#include "cli/opt.h"
#include "cli/storeargs.h"
#include "engine/stream.h"
#include "engine/stream_proto.h"
#include "render/out.h"
#include "render/streamprint.h"

/* ---- the server ---- */

static int do_server(struct app_stream_opts *op, struct cli *cli)
{
	struct stream_server s = { .lfd = -1, .nsfd = -1, .quit = cli_stop_flag(), .on_session = streamprint_session };
	struct out *o = NULL;
	char err[512], tok[STREAM_TOKEN_MAX + 1] = "";
	bool root = geteuid() == 0;	/* as started: root is given up once listening */
	int rc;

	if ((rc = app_stream_listen(op, &s, tok, sizeof(tok), err, sizeof(err)))) {
		cli_error("stream: %s", err);
		rc = cli_status(rc);
		goto out;
	}
	if (!(o = cli_out_create(cli, "stream"))) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	s.arg = o;
	streamprint_server(o, op, &s, root);
	fflush(stdout);
	out_arr_start(o, "sessions");
	rc = stream_serve(&s, err, sizeof(err));
	out_arr_end(o);
	out_bool(o, "interrupted", NULL, cli_stopped());
	/* with --once, the session's failure, already on its line */
	if (rc && !op->once)
		cli_error("stream: %s", err);
	rc = rc ? EXIT_RUNTIME : 0;
out:
	out_destroy(o);
	if (s.lfd >= 0)
		close(s.lfd);
	explicit_bzero(tok, sizeof(tok));
	return rc;
}

/* ---- the client's side: --client and lab mode ---- */

static void note(void *ctx, bool warning, const char *line)
{
	(void)ctx;
	if (warning)
		cli_error("warning: stream: %s", line);
	else
		fprintf(stderr, "stream: %s\n", line);
}

static int print(struct cli *cli, const struct app_stream_opts *op, const struct app_stream_res *res)
{
	struct out *o = cli_out_create(cli, "stream");

	if (!o)
		return EXIT_RUNTIME;
	streamprint_run(o, op, res);
	out_destroy(o);
	return res->r.interrupted ? 130 : 0;
}

static int do_client(struct app_stream_opts *op, struct cli *cli)
{
	struct app_stream_res *res = calloc(1, sizeof(*res));
	char err[1024], headline[160];
	bool have, stopped;
	int rc;

	if (!res) {
		cli_error("stream: out of memory");
		return EXIT_RUNTIME;
	}
	if (op->mode == APP_STREAM_LAB && !cli_have_root()) {
		cli_error("stream: lab mode needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN): run it as root, "
			  "or give --server or --client");
		free(res);
		return EXIT_RUNTIME;
	}
	op->stop = cli_stop_flag();
	op->note = note;
	if ((rc = app_stream_client(op, res, err, sizeof(err)))) {
		cli_error("stream: %s", err);
		rc = rc == -ECANCELED ? 130 : cli_status(rc);
	} else {
		rc = print(cli, op, res);
	}
	/* the stored run's end: its status, and the headline 'runs' shows */
	have = res->cf.n > 0;
	stopped = (have && res->r.interrupted) || rc == 130;
	if (have)
		app_stream_headline(op, res, headline, sizeof(headline));
	if (op->store.db)
		storeopt_end(&op->store, stopped ? "interrupted" : rc ? "failed" : "complete", have ? headline : NULL);
	free(res);
	return rc;
}

int cmd_stream(struct cli *cli, int argc, char **argv)
{
	struct cli_stop stop = { 0 };
	struct app_stream_opts op;
	int rc;

	if ((rc = stream_args(cli, argc, argv, &op)) >= 0)
		return rc;
	/* no SA_RESTART: a blocked send or wait returns at once to look */
	cli_stop_catch(&stop);
	rc = op.mode == APP_STREAM_SERVER ? do_server(&op, cli) : do_client(&op, cli);
	cli_stop_restore(&stop);
	return rc;
}
