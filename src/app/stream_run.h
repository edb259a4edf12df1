/* wirerate stream's two workflows, one call each: the server (listen,
 * then serve until *stop, or one session with --once) and the client's
 * side (--client or lab mode: the runs, their figures printed, the stored
 * run's end). The caller prints through the hooks as each step happens,
 * says err and turns why into the exit status. */
#ifndef WR_APP_STREAM_RUN_H
#define WR_APP_STREAM_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "app/stream_client.h"
#include "engine/stream.h"

/* How it ended: done, refused for its input, failed by the host or the
 * lab, or stopped (the client: its figures printed marked interrupted,
 * or none). */
enum app_stream_why { APP_STREAM_OK, APP_STREAM_INPUT, APP_STREAM_HOST, APP_STREAM_STOPPED };

/* What the caller prints, the hooks render exports (stream_print_hooks),
 * each called with the ctx it hands the workflow. */
struct app_stream_hooks {
	/* --server listening (root: started as root, given up since);
	 * nonzero ends it quietly */
	int (*listening)(void *ctx, const struct app_stream_opts *op, const struct stream_server *s, bool root);
	stream_session_fn session;	/* a session ended (arg: ctx) */
	void (*served)(void *ctx, bool interrupted);
	/* the client's figures; nonzero: they could not be printed */
	int (*result)(void *ctx, const struct app_stream_opts *op, const struct app_stream_res *res);
};

/* The stored run's status at its end: interrupted when the last run's
 * figures say so (have: there are figures) or the client was stopped,
 * failed when it failed, else complete. */
const char *app_stream_run_end_status(bool have, bool interrupted, enum app_stream_why why);

/* Both workflows catch Ctrl-C through cli's stop from their start to
 * their end; a blocked send or wait returns at once to look (the CLI's
 * handler is installed without SA_RESTART).
 *
 * The server's workflow (op->mode SERVER). 0, or -errno with *why and
 * err (empty: nothing more to say; --once's failed session is said on
 * its line). */
int app_stream_run_serve(const struct app_stream_opts *op, const struct app_cli_hooks *cli,
		     const struct app_stream_hooks *h, void *ctx, enum app_stream_why *why, char *err,
		     size_t errlen);

/* The client's workflow (op->mode CLIENT or LAB, op->root set):
 * app_stream_client (saying through cli as it goes), its figures to
 * h->result, the stored run's end (a mark that failed said as a
 * warning). 0 when the figures were printed (*why STOPPED when they
 * are marked interrupted), or -errno with *why and err (empty: nothing
 * to say). */
int app_stream_run(struct app_stream_opts *op, const struct app_cli_hooks *cli, const struct app_stream_hooks *h,
		   void *ctx, enum app_stream_why *why, char *err, size_t errlen);

#endif
