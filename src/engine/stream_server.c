/* The stream server's loop. It reads each client's request (HELLO) itself,
 * on a non-blocking socket among the others it awaits, each within
 * STREAM_HELLO_MS of its connect, so that no client, idle, slow or refused,
 * holds up the next one; it then decides: the token, the size, the run's
 * length, the sessions from that address and in all. With once (--once,
 * lab mode) the one session allowed runs in the serving thread. Otherwise
 * each session runs in a child process of its own, as netserver's do, so
 * that concurrent clients are each counted on their own socket and a
 * session that fails or hangs takes only itself down. A child hands its
 * result back over a pipe of its own and the serving thread alone reports
 * sessions, so the caller's output (one JSON array) is never written from
 * two processes. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>
#include <limits.h>
#include <grp.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>

#include "engine/stream.h"
#include "engine/stream_impl.h"
#include "os/clock.h"
#include "os/netns.h"

#define STOP_MS (STREAM_CTL_MS + 1000)		/* for children to end after SIGTERM */

/* A child's result is one write, so that it arrives whole or not at all. */
_Static_assert(sizeof(struct stream_session) <= PIPE_BUF, "a session's result must fit one pipe write");

struct child {
	pid_t pid;			/* 0: a free slot */
	int rfd;			/* the result's pipe; -1 once at its end */
	bool reaped, reported;
	int status;			/* waitpid's */
	uint8_t key[16];		/* the client's address (stream_addr_key) */
	struct stream_session s;
};

/* A connection whose request is awaited. */
struct pending {
	int fd;				/* -1: a free slot */
	uint64_t deadline;
	size_t n;
	char buf[STREAM_LINE_MAX];
	struct sockaddr_storage peer;
	uint8_t key[16];
	struct stream_session s;
};

struct server_state {
	const struct stream_server *cfg;
	struct child *kids;
	struct pending wait[STREAM_PENDING_MAX];
	unsigned int max, per_peer, prefix6;
	uint64_t max_dur_ns;
	pid_t self;
	bool done;			/* once: the session was served */
	int rc;				/* once: its 0 or -errno */
};

static void peer_name(const struct sockaddr_storage *a, socklen_t sl, char *buf, size_t len)
{
	if (getnameinfo((const struct sockaddr *)a, sl, buf, (socklen_t)len, NULL, 0, NI_NUMERICHOST))
		snprintf(buf, len, "?");
	else if (!strncmp(buf, "::ffff:", 7) && strchr(buf, '.'))
		memmove(buf, buf + 7, strlen(buf + 7) + 1);	/* IPv4, mapped */
}

static void report(const struct stream_server *cfg, const struct stream_session *s)
{
	if (cfg->on_session)
		cfg->on_session(cfg->arg, s);
}

/* A line to a client the loop is done with, never blocking: a fresh
 * socket's send buffer takes it whole. What the client sent is read out
 * first (a bounded amount, as a client may keep sending), as closing on
 * unread bytes would reset the connection before it reads the answer. */
static void say_and_close(int fd, const char *line)
{
	char sink[512];

	for (int i = 0; i < 8 && recv(fd, sink, sizeof(sink), MSG_DONTWAIT) > 0; i++)
		;
	if (line)
		send(fd, line, strlen(line), MSG_DONTWAIT | MSG_NOSIGNAL);
	shutdown(fd, SHUT_WR);
	close(fd);
}

/* End an awaited connection with line, its report (rc, the why) unless
 * rc is 0. */
static void pending_end(struct server_state *st, struct pending *pw, const char *line, int rc, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static void pending_end(struct server_state *st, struct pending *pw, const char *line, int rc, const char *fmt, ...)
{
	va_list ap;

	say_and_close(pw->fd, line);
	explicit_bzero(pw->buf, sizeof(pw->buf));
	pw->fd = -1;
	if (!rc)
		return;
	pw->s.rc = rc;
	va_start(ap, fmt);
	vsnprintf(pw->s.err, sizeof(pw->s.err), fmt, ap);
	va_end(ap);
	report(st->cfg, &pw->s);
}

/* Whether a peer's key is its address whole: IPv4 (mapped, as
 * stream_addr_key makes it), or IPv6 counted by every bit. */
static bool peer_whole(const struct server_state *st, const uint8_t key[16])
{
	static const uint8_t mapped[12] = { [10] = 0xff, [11] = 0xff };

	return !memcmp(key, mapped, sizeof(mapped)) || st->prefix6 >= 128;
}

/* The peer a connection counts against: its address, an IPv6 one cut to
 * its first prefix6 bits (IPv4, mapped or not, is the address whole). */
static void peer_key(const struct server_state *st, const struct sockaddr_storage *a, uint8_t key[16])
{
	stream_addr_key(a, key);
	if (peer_whole(st, key))
		return;
	if (st->prefix6 % 8)
		key[st->prefix6 / 8] &= (uint8_t)(0xff00 >> (st->prefix6 % 8));
	memset(key + (st->prefix6 + 7) / 8, 0, 16 - (st->prefix6 + 7) / 8);
}

/* The peer's name in a refusal: "this address", or its network. */
static const char *peer_what(const struct server_state *st, const uint8_t key[16], char *buf, size_t len)
{
	if (peer_whole(st, key))
		return "this address";
	snprintf(buf, len, "this address's /%u", st->prefix6);
	return buf;
}

/* Connections from key: awaited, and in session. */
static void peer_count(const struct server_state *st, const uint8_t key[16], unsigned int *waiting,
		       unsigned int *serving)
{
	*waiting = *serving = 0;
	for (unsigned int i = 0; i < STREAM_PENDING_MAX; i++)
		if (st->wait[i].fd >= 0 && !memcmp(st->wait[i].key, key, 16))
			(*waiting)++;
	for (unsigned int i = 0; i < st->max; i++)
		if (st->kids[i].pid && !memcmp(st->kids[i].key, key, 16))
			(*serving)++;
}

/* The session's socket as a session wants it: blocking, a stalled send
 * bounded too. */
static void session_socket(int fd)
{
	struct timeval tv = { (time_t)(STREAM_CTL_MS / MSEC_PER_SEC), 0 };

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static void child_main(struct server_state *st, struct pending *pw, const struct stream_hello *h, int wfd,
		       struct stream_session *s)
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
	for (unsigned int i = 0; i < STREAM_PENDING_MAX; i++)
		if (st->wait[i].fd >= 0 && &st->wait[i] != pw)
			close(st->wait[i].fd);
	session_socket(pw->fd);
	s->rc = stream_session_serve(pw->fd, h, &pw->peer, st->cfg->quit, &s->res, s->err, sizeof(s->err));
	close(pw->fd);
	/* _exit: the caller's stdio buffers are the parent's to flush */
	_exit(write(wfd, s, sizeof(*s)) == (ssize_t)sizeof(*s) ? 0 : 1);
}

/* Start a child in slot k for the session of pw; on failure the session
 * is reported failed here. */
static void spawn(struct server_state *st, struct child *k, struct pending *pw, const struct stream_hello *h)
{
	int pfd[2];

	k->s = pw->s;
	memcpy(k->key, pw->key, 16);
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
		child_main(st, pw, h, pfd[1], &k->s);
	}
	close(pfd[1]);
	close(pw->fd);
	pw->fd = -1;
	k->rfd = pfd[0];
	k->reaped = k->reported = false;
	k->status = 0;
	return;
fail:
	say_and_close(pw->fd, "ERR the server cannot start a session\n");
	pw->fd = -1;
	snprintf(k->s.err, sizeof(k->s.err), "cannot start the session: %s", strerror(-k->s.rc));
	report(st->cfg, &k->s);
}

/* The session of pw, in this thread (once): the others awaited are
 * turned away, as the server ends after it. */
static void serve_here(struct server_state *st, struct pending *pw, const struct stream_hello *h)
{
	char line[64];

	snprintf(line, sizeof(line), "ERR busy max_sessions=1\n");
	for (unsigned int i = 0; i < STREAM_PENDING_MAX; i++)
		if (st->wait[i].fd >= 0 && &st->wait[i] != pw)
			pending_end(st, &st->wait[i], line, -EBUSY, "refused: already serving 1 session, the most at once");
	session_socket(pw->fd);
	pw->s.rc = st->rc = stream_session_serve(pw->fd, h, &pw->peer, st->cfg->quit, &pw->s.res, pw->s.err,
						  sizeof(pw->s.err));
	close(pw->fd);
	pw->fd = -1;
	st->done = true;
	report(st->cfg, &pw->s);
}

/* A whole request from pw: allowed, it becomes a session; else the
 * client is told why, and so is the caller. The client's line is never
 * quoted (a token may be in it); what was wrong with it is. */
static void decide(struct server_state *st, struct pending *pw)
{
	const char *tok = st->cfg->token;
	struct stream_hello h;
	unsigned int waiting, serving, busy = 0;
	char why[128], line[64], what[32];

	if (stream_proto_hello_parse(pw->buf, &h, why, sizeof(why))) {
		pending_end(st, pw, "ERR bad request\n", -EPROTO, "bad request from the client: %s", why);
		goto out;
	}
	/* before any limit is told, so that a client without the token
	 * learns nothing of the server */
	if (tok && !stream_proto_token_equal(h.token, tok)) {
		pending_end(st, pw, "ERR auth\n", -EACCES, "refused: %s", *h.token ? "not the server's token" : "no token");
		goto out;
	}
	if (!h.size || h.size > STREAM_MSG_MAX) {
		pending_end(st, pw, "ERR bad request\n", -EPROTO,
			    "bad request from the client: size %" PRIu64 " not in 1..%d", h.size, STREAM_MSG_MAX);
		goto out;
	}
	if (h.duration_ms > st->max_dur_ns / NSEC_PER_MSEC) {
		snprintf(line, sizeof(line), "ERR duration max_ms=%" PRIu64 "\n", (uint64_t)(st->max_dur_ns / NSEC_PER_MSEC));
		pending_end(st, pw, line, -EPERM, "refused: a run of %g s asked for, longer than the %g s allowed",
			    (double)h.duration_ms / MSEC_PER_SEC, (double)st->max_dur_ns / NSEC_PER_SEC);
		goto out;
	}
	peer_count(st, pw->key, &waiting, &serving);
	if (serving >= st->per_peer) {
		snprintf(line, sizeof(line), "ERR busy per_peer=%u\n", st->per_peer);
		pending_end(st, pw, line, -EBUSY, "refused: already serving %u session%s from %s, the most at once",
			    st->per_peer, st->per_peer == 1 ? "" : "s", peer_what(st, pw->key, what, sizeof(what)));
		goto out;
	}
	if (st->cfg->once) {
		serve_here(st, pw, &h);
		goto out;
	}
	for (unsigned int i = 0; i < st->max; i++)
		busy += st->kids[i].pid != 0;
	if (busy >= st->max) {
		snprintf(line, sizeof(line), "ERR busy max_sessions=%u\n", st->max);
		pending_end(st, pw, line, -EBUSY, "refused: already serving %u session%s, the most at once", st->max,
			    st->max == 1 ? "" : "s");
		goto out;
	}
	for (unsigned int i = 0; i < st->max; i++) {
		if (!st->kids[i].pid) {
			spawn(st, &st->kids[i], pw, &h);
			break;
		}
	}
out:
	explicit_bzero(&h, sizeof(h));
	explicit_bzero(pw->buf, sizeof(pw->buf));
}

/* What pw's client sent since the last look; its request when whole. */
static void pending_read(struct server_state *st, struct pending *pw)
{
	ssize_t n = recv(pw->fd, pw->buf + pw->n, sizeof(pw->buf) - 1 - pw->n, MSG_DONTWAIT);
	char *nl;

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		pending_end(st, pw, NULL, n ? -errno : -ECONNRESET, "no request from the client: %s",
			    n ? strerror(errno) : "it closed the connection");
		return;
	}
	pw->buf[pw->n + (size_t)n] = '\0';
	nl = memchr(pw->buf + pw->n, '\n', (size_t)n);
	pw->n += (size_t)n;
	if (nl) {
		*nl = '\0';
		decide(st, pw);
	} else if (pw->n == sizeof(pw->buf) - 1) {
		pending_end(st, pw, "ERR bad request\n", -EPROTO, "bad request from the client: longer than %d bytes",
			    STREAM_LINE_MAX - 1);
	}
}

/* A slot for a new connection: a free one, else the oldest awaited
 * (one that has sent nothing first) is turned away for it, as a real
 * client sends its request at once and a slot held without one is what
 * an attacker would fill them with. */
static struct pending *pending_slot(struct server_state *st)
{
	struct pending *old = NULL;
	uint64_t now = clock_mono_ns();

	for (unsigned int i = 0; i < STREAM_PENDING_MAX; i++) {
		struct pending *pw = &st->wait[i];

		if (pw->fd < 0)
			return pw;
		if (!old || (!pw->n && old->n) || (!pw->n == !old->n && pw->deadline < old->deadline))
			old = pw;
	}
	pending_end(st, old, "ERR busy too many connections\n", -EBUSY,
		    "turned away: no request in %.1f s, and its slot was wanted (%d connections awaited)",
		    (double)(now + STREAM_HELLO_MS * NSEC_PER_MSEC - old->deadline) / NSEC_PER_SEC, STREAM_PENDING_MAX);
	return old;
}

/* Take the connections waiting on the listener into the awaited ones;
 * those beyond the bounds are turned away at once. */
static void accept_new(struct server_state *st)
{
	/* a bounded batch, so that a flood of connections still leaves
	 * time for the rest of the loop */
	for (int b = 0; b < 16; b++) {
		struct pending *pw;
		struct sockaddr_storage peer;
		socklen_t sl = sizeof(peer);
		struct stream_session s = { 0 };
		unsigned int waiting, serving;
		uint8_t key[16];
		char line[64], what[32];
		int fd = accept4(st->cfg->lfd, (struct sockaddr *)&peer, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (fd < 0)
			return;
		peer_name(&peer, sl, s.peer, sizeof(s.peer));
		peer_key(st, &peer, key);
		peer_count(st, key, &waiting, &serving);
		if (waiting >= st->per_peer) {
			snprintf(line, sizeof(line), "ERR busy per_peer=%u\n", st->per_peer);
			say_and_close(fd, line);
			s.rc = -EBUSY;
			snprintf(s.err, sizeof(s.err), "refused: %u connections from %s awaited already", waiting,
				 peer_what(st, key, what, sizeof(what)));
			report(st->cfg, &s);
			continue;
		}
		pw = pending_slot(st);
		*pw = (struct pending){ .fd = fd, .deadline = clock_mono_ns() + STREAM_HELLO_MS * NSEC_PER_MSEC,
					.peer = peer, .s = s };
		memcpy(pw->key, key, 16);
	}
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

/* Wait up to timeout_ms for the listener (with_lfd), the requests
 * awaited and the children's results, and handle what came. */
static void poll_all(struct server_state *st, bool with_lfd, int timeout_ms)
{
	struct pollfd p[1 + STREAM_PENDING_MAX + STREAM_SESSIONS_MAX];
	struct child *kid[1 + STREAM_PENDING_MAX + STREAM_SESSIONS_MAX];
	struct pending *pw[1 + STREAM_PENDING_MAX + STREAM_SESSIONS_MAX];
	uint64_t now = clock_mono_ns();
	nfds_t n = 0;

	if (with_lfd)
		p[n++] = (struct pollfd){ .fd = st->cfg->lfd, .events = POLLIN };
	for (unsigned int i = 0; with_lfd && i < STREAM_PENDING_MAX; i++) {
		struct pending *w = &st->wait[i];

		if (w->fd < 0)
			continue;
		if (w->deadline <= now)
			timeout_ms = 0;
		else if ((w->deadline - now) / NSEC_PER_MSEC < (uint64_t)timeout_ms)
			timeout_ms = (int)((w->deadline - now) / NSEC_PER_MSEC) + 1;
		pw[n] = w;
		kid[n] = NULL;
		p[n++] = (struct pollfd){ .fd = w->fd, .events = POLLIN };
	}
	for (unsigned int i = 0; i < st->max; i++) {
		if (st->kids[i].pid && st->kids[i].rfd >= 0) {
			kid[n] = &st->kids[i];
			pw[n] = NULL;
			p[n++] = (struct pollfd){ .fd = st->kids[i].rfd, .events = POLLIN };
		}
	}
	if (poll(p, n, timeout_ms) < 0)
		return;
	for (nfds_t i = with_lfd ? 1 : 0; i < n; i++) {
		if (!p[i].revents)
			continue;
		if (kid[i])
			child_read(st, kid[i]);
		else if (pw[i]->fd >= 0 && !st->done)
			pending_read(st, pw[i]);
	}
	/* the slow: past their time, whatever they sent */
	now = clock_mono_ns();
	for (unsigned int i = 0; with_lfd && !st->done && i < STREAM_PENDING_MAX; i++)
		if (st->wait[i].fd >= 0 && st->wait[i].deadline <= now)
			pending_end(st, &st->wait[i], "ERR no request in time\n", -ETIMEDOUT,
				    "no request from the client in %d ms", STREAM_HELLO_MS);
	if (with_lfd && !st->done && (p[0].revents & POLLIN))
		accept_new(st);
}

/* Stop the children still serving: SIGTERM (each then tells its client
 * the server stopped), a bounded wait, SIGKILL for any left. */
static void stop_children(struct server_state *st)
{
	uint64_t end = clock_mono_ns() + STOP_MS * NSEC_PER_MSEC;

	for (unsigned int i = 0; i < st->max; i++)
		if (st->kids[i].pid && !st->kids[i].reaped)
			kill(st->kids[i].pid, SIGTERM);
	while (reap(st, false) && clock_mono_ns() < end)
		poll_all(st, false, 100);
	for (unsigned int i = 0; i < st->max; i++)
		if (st->kids[i].pid && !st->kids[i].reaped)
			kill(st->kids[i].pid, SIGKILL);
	reap(st, true);
}

static int serve(const struct stream_server *cfg, char *err, size_t errlen)
{
	struct server_state *st = calloc(1, sizeof(*st));
	int rc = 0;

	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*st = (struct server_state){ .cfg = cfg, .self = getpid(), .rc = -ETIMEDOUT,
				     .max = cfg->once ? 1 : cfg->max_sessions ? cfg->max_sessions : STREAM_SESSIONS_DEFAULT,
				     .per_peer = cfg->max_per_peer ? cfg->max_per_peer : STREAM_PER_PEER_DEFAULT,
				     .prefix6 = cfg->peer_prefix6 && cfg->peer_prefix6 <= 128 ? cfg->peer_prefix6
										 : STREAM_PREFIX6_DEFAULT,
				     .max_dur_ns = cfg->max_duration_ns ? cfg->max_duration_ns : STREAM_MAX_DURATION_DEFAULT };
	if (st->max > STREAM_SESSIONS_MAX)
		st->max = STREAM_SESSIONS_MAX;
	for (unsigned int i = 0; i < STREAM_PENDING_MAX; i++)
		st->wait[i].fd = -1;
	st->kids = calloc(st->max, sizeof(*st->kids));
	if (!st->kids || fcntl(cfg->lfd, F_SETFL, fcntl(cfg->lfd, F_GETFL) | O_NONBLOCK)) {
		rc = st->kids ? -errno : -ENOMEM;
		snprintf(err, errlen, "cannot start serving: %s", strerror(-rc));
		goto out;
	}
	while (!*cfg->quit && !st->done) {
		poll_all(st, true, 100);
		reap(st, false);
	}
	if (cfg->once) {
		rc = st->rc;
		snprintf(err, errlen, "%s", st->done ? "" : "no session");
	}
out:
	for (unsigned int i = 0; i < STREAM_PENDING_MAX; i++)
		if (st->wait[i].fd >= 0)
			say_and_close(st->wait[i].fd, "ERR the server was stopped\n");
	if (st->kids)
		stop_children(st);
	free(st->kids);
	explicit_bzero(st, sizeof(*st));
	free(st);
	return rc;
}

int stream_server_run(const struct stream_server *s, char *err, size_t errlen)
{
	int saved = -1, rc;

	/* each session's data socket is made in the server's namespace */
	if (s->nsfd >= 0 && (rc = netns_enter(s->nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the server's namespace: %s", strerror(-rc));
		return rc;
	}
	rc = serve(s, err, errlen);
	if (s->nsfd >= 0)
		netns_leave(&saved);
	return rc;
}

int stream_server_drop_root(const char *user, char *err, size_t errlen)
{
	struct passwd *pw;

	if (geteuid()) {
		snprintf(err, errlen, "only root can change to another user (running as uid %u)", (unsigned int)geteuid());
		return -EPERM;
	}
	errno = 0;
	if (!(pw = getpwnam(user))) {
		snprintf(err, errlen, "no user '%s' here", user);
		return -ENOENT;
	}
	if (!pw->pw_uid || !pw->pw_gid) {
		snprintf(err, errlen, "user '%s' has uid or gid 0: that would keep root", user);
		return -EINVAL;
	}
	/* groups first: setgroups and setgid need root, which setuid ends */
	if (setgroups(0, NULL) || setgid(pw->pw_gid) || setuid(pw->pw_uid)) {
		int rc = -errno;

		snprintf(err, errlen, "cannot become user '%s': %s", user, strerror(errno));
		return rc;
	}
	/* a drop that can be undone is none */
	if (!setuid(0) || !geteuid() || !getegid()) {
		snprintf(err, errlen, "still able to regain root after becoming '%s'", user);
		return -EPERM;
	}
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	return 0;
}
