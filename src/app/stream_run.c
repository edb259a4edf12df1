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

int app_stream_run_serve(const struct app_stream_opts *op, const struct app_stream_hooks *h, void *ctx,
		     struct app_stream_end *e, char *err, size_t errlen)
{
	struct stream_server s = { .lfd = -1, .nsfd = -1, .quit = op->stop, .on_session = h->session, .arg = ctx };
	char tok[STREAM_TOKEN_MAX + 1] = "";
	bool root = geteuid() == 0;	/* as started: root is given up once listening */
	int rc;

	/* the server's reasons are said in 511 bytes at most */
	if (errlen > 512)
		errlen = 512;
	err[0] = '\0';
	e->warning[0] = '\0';
	e->why = APP_STREAM_HOST;
	if ((rc = app_stream_client_listen(op, &s, tok, sizeof(tok), err, errlen))) {
		e->why = rc == -EINVAL ? APP_STREAM_INPUT : APP_STREAM_HOST;
	} else if (!(rc = h->listening(ctx, op, &s, root))) {
		rc = stream_server_run(&s, err, errlen);
		h->served(ctx, *op->stop);
		/* with --once, the session's failure, already on its line */
		if (rc && op->once)
			err[0] = '\0';
		e->why = rc ? APP_STREAM_HOST : APP_STREAM_OK;
	}
	if (s.lfd >= 0)
		close(s.lfd);
	explicit_bzero(tok, sizeof(tok));
	return rc;
}

/* The stored run's end: its status, and the headline 'runs' shows. */
static void store_end(struct app_stream_opts *op, const struct app_stream_res *res, struct app_stream_end *e)
{
	const char *status = app_stream_run_end_status(res->cf.n > 0, res->r.interrupted, e->why);
	char headline[160], err[512];
	int64_t id = op->store.ses.run_id;

	if (res->cf.n > 0)
		app_stream_client_headline(op, res, headline, sizeof(headline));
	if (app_run_store_end(&op->store, status, res->cf.n > 0 ? headline : NULL, err, sizeof(err)))
		snprintf(e->warning, sizeof(e->warning), "run %lld not marked %s in %s: %s", (long long)id, status,
			 op->store.ses.path, err);
}

int app_stream_run(struct app_stream_opts *op, const struct app_stream_hooks *h, void *ctx,
		   struct app_stream_end *e, char *err, size_t errlen)
{
	struct app_stream_res *res = calloc(1, sizeof(*res));
	int rc;

	err[0] = '\0';
	e->warning[0] = '\0';
	e->why = APP_STREAM_HOST;
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
	if ((rc = app_stream_client(op, res, err, errlen)))
		e->why = rc == -ECANCELED ? APP_STREAM_STOPPED : rc == -EINVAL ? APP_STREAM_INPUT : APP_STREAM_HOST;
	else if (!(rc = h->result(ctx, op, res)))
		e->why = res->r.interrupted ? APP_STREAM_STOPPED : APP_STREAM_OK;
	if (op->store.ses.db)
		store_end(op, res, e);
	free(res);
	return rc;
}
