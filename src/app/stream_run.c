#include "app/stream_run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/stream_proto.h"

const char *app_stream_run_end_status(bool have, bool interrupted, enum app_stream_why why)
{
	if ((have && interrupted) || why == APP_STREAM_STOPPED)
		return "interrupted";
	return why == APP_STREAM_OK ? "complete" : "failed";
}

int app_stream_run_serve(const struct app_stream_opts *op, const struct app_cli_hooks *cli,
		     const struct app_stream_hooks *h, void *ctx, enum app_stream_why *why, char *err,
		     size_t errlen)
{
	volatile sig_atomic_t *stop = cli->stop(cli->ctx, true);
	struct stream_server s = { .lfd = -1, .nsfd = -1, .quit = stop, .on_session = h->session, .arg = ctx };
	char tok[STREAM_TOKEN_MAX + 1] = "";
	bool root = geteuid() == 0;	/* as started: root is given up once listening */
	int rc;

	/* the server's reasons are said in 511 bytes at most */
	if (errlen > 512)
		errlen = 512;
	err[0] = '\0';
	*why = APP_STREAM_HOST;
	if ((rc = app_stream_client_listen(op, &s, tok, sizeof(tok), err, errlen))) {
		*why = rc == -EINVAL ? APP_STREAM_INPUT : APP_STREAM_HOST;
	} else if (!(rc = h->listening(ctx, op, &s, root))) {
		rc = stream_server_run(&s, err, errlen);
		h->served(ctx, *stop);
		/* with --once, the session's failure, already on its line */
		if (rc && op->once)
			err[0] = '\0';
		*why = rc ? APP_STREAM_HOST : APP_STREAM_OK;
	}
	if (s.lfd >= 0)
		close(s.lfd);
	explicit_bzero(tok, sizeof(tok));
	cli->stop(cli->ctx, false);
	return rc;
}

/* The stored run's end: its status, and the headline 'runs' shows. */
static void store_end(struct app_stream_opts *op, const struct app_cli_hooks *cli, const struct app_stream_res *res,
		      enum app_stream_why why)
{
	const char *status = app_stream_run_end_status(res->cf.n > 0, res->r.interrupted, why);
	char headline[160];

	if (res->cf.n > 0)
		app_stream_client_headline(op, res, headline, sizeof(headline));
	app_run_store_end_say(&op->store, status, res->cf.n > 0 ? headline : NULL, cli);
}

/* The client's run, once Ctrl-C is caught (op->stop). */
static int client(struct app_stream_opts *op, const struct app_cli_hooks *cli, const struct app_stream_hooks *h,
		  void *ctx, enum app_stream_why *why, char *err, size_t errlen)
{
	struct app_stream_res *res = calloc(1, sizeof(*res));
	int rc;

	if (!res) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (op->mode == APP_STREAM_LAB && !op->root) {
		snprintf(err, errlen, "lab mode needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN): run it as root, "
			 "or give --server or --client");
		free(res);
		return -EPERM;
	}
	if ((rc = app_stream_client(op, cli, res, err, errlen)))
		*why = rc == -ECANCELED ? APP_STREAM_STOPPED : rc == -EINVAL ? APP_STREAM_INPUT : APP_STREAM_HOST;
	else if (!(rc = h->result(ctx, op, res)))
		*why = res->r.interrupted ? APP_STREAM_STOPPED : APP_STREAM_OK;
	if (op->store.ses.db)
		store_end(op, cli, res, *why);
	free(res);
	return rc;
}

int app_stream_run(struct app_stream_opts *op, const struct app_cli_hooks *cli, const struct app_stream_hooks *h,
		   void *ctx, enum app_stream_why *why, char *err, size_t errlen)
{
	int rc;

	err[0] = '\0';
	*why = APP_STREAM_HOST;
	op->stop = cli->stop(cli->ctx, true);
	rc = client(op, cli, h, ctx, why, err, errlen);
	op->stop = cli->stop(cli->ctx, false);
	return rc;
}
