/* The stream server's loop. With once (--once, lab mode) the one session
 * runs in the serving thread. Otherwise each session runs in a child
 * process of its own, as netserver's do, so that concurrent clients are
 * each counted on their own socket and a session that fails or hangs takes
 * only itself down. A child hands its result back over a pipe of its own
 * and the serving thread alone reports sessions, so the caller's output
 * (one JSON array) is never written from two processes. */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "engine/stream.h"
#include "engine/stream_impl.h"
#include "sys/netns.h"

#define REFUSE_MS 1000				/* for a refused client's HELLO */
#define STOP_MS (STREAM_CTL_MS + 1000)		/* for children to end after SIGTERM */

/* A child's result is one write, so that it arrives whole or not at all. */
_Static_assert(sizeof(struct stream_session) <= PIPE_BUF, "a session's result must fit one pipe write");

struct child {
	pid_t pid;			/* 0: a free slot */
	int rfd;			/* the result's pipe; -1 once at its end */
	bool reaped, reported;
	int status;			/* waitpid's */
	struct stream_session s;
};

struct server_state {
	const struct stream_server *cfg;
	struct child *kids;
	unsigned int max;
	pid_t self;
};

static void peer_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage a;
	socklen_t sl = sizeof(a);

	if (getpeername(fd, (struct sockaddr *)&a, &sl) ||
	    getnameinfo((struct sockaddr *)&a, sl, buf, (socklen_t)len, NULL, 0, NI_NUMERICHOST))
		snprintf(buf, len, "?");
	else if (!strncmp(buf, "::ffff:", 7) && strchr(buf, '.'))
		memmove(buf, buf + 7, strlen(buf + 7) + 1);	/* IPv4, mapped */
}

static void report(const struct stream_server *cfg, const struct stream_session *s)
{
	if (cfg->on_session)
		cfg->on_session(cfg->arg, s);
}

/* Accept one control connection, made so that a session cannot hang on a
 * stalled send either; -1 when there was none. */
static int accept_one(int lfd, struct stream_session *s)
{
	struct timeval tv = { STREAM_CTL_MS / 1000, 0 };
	int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

	if (cfd < 0)
		return -1;
	setsockopt(cfd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	memset(s, 0, sizeof(*s));
	peer_name(cfd, s->peer, sizeof(s->peer));
	return cfd;
}

/* Wait for one session and serve it here; its 0 or -errno. */
static int serve_once(const struct stream_server *cfg, char *err, size_t errlen)
{
	struct stream_session s;
	int rc = -ETIMEDOUT;

	snprintf(err, errlen, "no session");
	while (!*cfg->quit) {
		struct pollfd p = { .fd = cfg->lfd, .events = POLLIN };
		int cfd;

		if (poll(&p, 1, 100) <= 0 || (cfd = accept_one(cfg->lfd, &s)) < 0)
			continue;
		s.rc = rc = stream_server_session(cfd, cfg->quit, &s.res, s.err, sizeof(s.err));
		close(cfd);
		snprintf(err, errlen, "%s", s.err);
		report(cfg, &s);
		break;
	}
	return rc;
}

/* A client beyond the bound: its HELLO read (so that closing does not
 * reset the connection before it reads the answer), then the refusal. */
static void refuse(struct server_state *st, int cfd, struct stream_session *s)
{
	char line[160];

	stream_ctl_recv(cfd, line, sizeof(line), REFUSE_MS);
	snprintf(line, sizeof(line), "ERR busy max_sessions=%u\n", st->max);
	stream_ctl_send(cfd, line);
	close(cfd);
	s->rc = -EBUSY;
	snprintf(s->err, sizeof(s->err), "refused: already serving %u session%s, the most at once", st->max,
		 st->max == 1 ? "" : "s");
	report(st->cfg, s);
}

static void child_main(struct server_state *st, int cfd, int wfd, struct stream_session *s)
{
	sigset_t set;

	/* never outlive the server, even one killed outright */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != st->self)
		_exit(1);
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	close(st->cfg->lfd);
	for (unsigned int i = 0; i < st->max; i++)
		if (st->kids[i].pid && st->kids[i].rfd >= 0)
			close(st->kids[i].rfd);
	s->rc = stream_server_session(cfd, st->cfg->quit, &s->res, s->err, sizeof(s->err));
	close(cfd);
	/* _exit: the caller's stdio buffers are the parent's to flush */
	_exit(write(wfd, s, sizeof(*s)) == (ssize_t)sizeof(*s) ? 0 : 1);
}

/* Start a child for the session on cfd in slot k; on failure the session
 * is reported failed here. */
static void spawn(struct server_state *st, struct child *k, int cfd)
{
	int pfd[2];

	if (pipe2(pfd, O_CLOEXEC)) {
		k->s.rc = -errno;
		goto fail;
	}
	k->pid = fork();
	if (k->pid < 0) {
		k->s.rc = -errno;
		k->pid = 0;
		close(pfd[0]);
		close(pfd[1]);
		goto fail;
	}
	if (!k->pid) {
		close(pfd[0]);
		child_main(st, cfd, pfd[1], &k->s);
	}
	close(pfd[1]);
	close(cfd);
	k->rfd = pfd[0];
	k->reaped = k->reported = false;
	k->status = 0;
	return;
fail:
	snprintf(k->s.err, sizeof(k->s.err), "cannot start the session: %s", strerror(-k->s.rc));
	stream_ctl_send(cfd, "ERR the server cannot start a session\n");
	close(cfd);
	report(st->cfg, &k->s);
}

/* The child's result, when its pipe has something (or its end). */
static void child_read(struct server_state *st, struct child *k)
{
	struct stream_session s;
	ssize_t n = read(k->rfd, &s, sizeof(s));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n == (ssize_t)sizeof(s) && !k->reported) {
		k->s = s;
		k->reported = true;
		report(st->cfg, &k->s);
	}
	close(k->rfd);
	k->rfd = -1;
}

/* Reap children that ended (blocking: only after SIGKILL) and free the
 * slots of those whose result is in; the number of slots in use. */
static unsigned int reap(struct server_state *st, bool block)
{
	unsigned int busy = 0;

	for (unsigned int i = 0; i < st->max; i++) {
		struct child *k = &st->kids[i];
		pid_t w;

		if (!k->pid)
			continue;
		/* ECHILD: reaped already, as where SIGCHLD is ignored */
		if (!k->reaped && ((w = waitpid(k->pid, &k->status, block ? 0 : WNOHANG)) == k->pid ||
				   (w < 0 && errno == ECHILD)))
			k->reaped = true;
		if (k->reaped && k->rfd >= 0 && block)
			child_read(st, k);
		if (!k->reaped || k->rfd >= 0) {
			busy++;
			continue;
		}
		if (!k->reported) {
			k->s.rc = -ECHILD;
			if (WIFSIGNALED(k->status))
				snprintf(k->s.err, sizeof(k->s.err),
					 "the session's process ended without a result (signal %d)",
					 WTERMSIG(k->status));
			else
				snprintf(k->s.err, sizeof(k->s.err),
					 "the session's process ended without a result (exit %d)",
					 WEXITSTATUS(k->status));
			report(st->cfg, &k->s);
		}
		k->pid = 0;
	}
	return busy;
}

/* Wait up to timeout_ms for the listener (lfd, or -1) and the children's
 * results, reading those that came; *listener_ready when a client waits. */
static void poll_children(struct server_state *st, int lfd, int timeout_ms, bool *listener_ready)
{
	struct pollfd p[STREAM_SESSIONS_MAX + 1];
	struct child *who[STREAM_SESSIONS_MAX + 1];
	nfds_t n = 0;

	if (lfd >= 0)
		p[n++] = (struct pollfd){ .fd = lfd, .events = POLLIN };
	for (unsigned int i = 0; i < st->max; i++) {
		if (st->kids[i].pid && st->kids[i].rfd >= 0) {
			who[n] = &st->kids[i];
			p[n++] = (struct pollfd){ .fd = st->kids[i].rfd, .events = POLLIN };
		}
	}
	*listener_ready = false;
	if (poll(p, n, timeout_ms) <= 0)
		return;
	for (nfds_t i = lfd >= 0 ? 1 : 0; i < n; i++)
		if (p[i].revents)
			child_read(st, who[i]);
	*listener_ready = lfd >= 0 && (p[0].revents & POLLIN);
}

/* Stop the children still serving: SIGTERM (each then tells its client
 * the server stopped), a bounded wait, SIGKILL for any left. */
static void stop_children(struct server_state *st)
{
	uint64_t end = stream_now_ns() + STOP_MS * 1000000ULL;
	bool unused;

	for (unsigned int i = 0; i < st->max; i++)
		if (st->kids[i].pid && !st->kids[i].reaped)
			kill(st->kids[i].pid, SIGTERM);
	while (reap(st, false) && stream_now_ns() < end)
		poll_children(st, -1, 100, &unused);
	for (unsigned int i = 0; i < st->max; i++)
		if (st->kids[i].pid && !st->kids[i].reaped)
			kill(st->kids[i].pid, SIGKILL);
	reap(st, true);
}

static int serve_many(const struct stream_server *cfg, char *err, size_t errlen)
{
	struct server_state st = { .cfg = cfg, .self = getpid(),
				   .max = cfg->max_sessions ? cfg->max_sessions : STREAM_SESSIONS_DEFAULT };

	if (st.max > STREAM_SESSIONS_MAX)
		st.max = STREAM_SESSIONS_MAX;
	st.kids = calloc(st.max, sizeof(*st.kids));
	if (!st.kids) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	while (!*cfg->quit) {
		struct stream_session s;
		unsigned int busy;
		bool ready;
		int cfd;

		poll_children(&st, cfg->lfd, 100, &ready);
		busy = reap(&st, false);
		if (!ready || (cfd = accept_one(cfg->lfd, &s)) < 0)
			continue;
		if (busy >= st.max) {
			refuse(&st, cfd, &s);
			continue;
		}
		for (unsigned int i = 0; i < st.max; i++) {
			if (!st.kids[i].pid) {
				st.kids[i].s = s;
				spawn(&st, &st.kids[i], cfd);
				break;
			}
		}
	}
	stop_children(&st);
	free(st.kids);
	return 0;
}

int stream_serve(const struct stream_server *s, char *err, size_t errlen)
{
	int saved = -1, rc;

	/* each session's data socket is made in the server's namespace */
	if (s->nsfd >= 0 && (rc = netns_enter(s->nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the server's namespace: %s", strerror(-rc));
		return rc;
	}
	rc = s->once ? serve_once(s, err, errlen) : serve_many(s, err, errlen);
	if (s->nsfd >= 0)
		netns_leave(&saved);
	return rc;
}
