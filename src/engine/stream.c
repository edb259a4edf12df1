/* netperf's UDP_STREAM, both ends: the control protocol, a session at the
 * server and at the client, and lab mode's pairing of the two (stream.h
 * has the protocol). The server's loop, with its child processes, is in
 * stream_server.c. */
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/sock_diag.h>

#include "engine/stream.h"
#include "engine/stream_impl.h"
#include "engine/stream_proto.h"
#include "core/pace.h"
#include "os/clock.h"
#include "os/netns.h"
#include "os/procstat.h"

/* ---- the control connection ---- */

int stream_ctl_send(int fd, const char *line)
{
	size_t len = strlen(line), done = 0;

	while (done < len) {
		ssize_t n = send(fd, line + done, len - done, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		done += (size_t)n;
	}
	return 0;
}

/* Wait until fd is ready for events or the clock reaches end (ns):
 * 0, -ETIMEDOUT or -errno. */
static int poll_until(int fd, short events, uint64_t end)
{
	for (;;) {
		struct pollfd p = { .fd = fd, .events = events };
		uint64_t t = clock_mono_ns();
		int n;

		if (t >= end)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)((end - t) / NSEC_PER_MSEC) + 1);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			return 0;
	}
}

/* A byte at a time, as the lines are few and short and the peer sends
 * nothing past one before an answer. */
int stream_ctl_recv(int fd, char *buf, size_t len, int timeout_ms)
{
	uint64_t end = clock_mono_ns() + (uint64_t)timeout_ms * NSEC_PER_MSEC;
	size_t n = 0;

	for (;;) {
		ssize_t r;
		char ch;
		int rc;

		if ((rc = poll_until(fd, POLLIN, end)))
			return rc;
		r = recv(fd, &ch, 1, 0);
		if (r < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			return -ECONNRESET;
		if (ch == '\n') {
			buf[n] = '\0';
			return 0;
		}
		if (n + 1 >= len)
			return -EPROTO;
		buf[n++] = ch;
	}
}

/* ---- the server's session ---- */

void stream_addr_key(const struct sockaddr_storage *a, uint8_t key[16])
{
	memset(key, 0, 16);
	if (a->ss_family == AF_INET) {
		key[10] = key[11] = 0xff;
		memcpy(key + 12, &((const struct sockaddr_in *)a)->sin_addr, 4);
	} else if (a->ss_family == AF_INET6) {
		memcpy(key, &((const struct sockaddr_in6 *)a)->sin6_addr, 16);
	}
}

/* Count what arrives on ufd until the control socket says END (or the
 * run's time plus STREAM_END_NS passes), then a grace period for the
 * datagrams still on their way. With a peer (ufd not connected: a
 * version 1 client, whose port is not known), only datagrams from its
 * address count. */
static int server_count(int cfd, int ufd, uint64_t duration_ns, const struct sockaddr_storage *peer,
			volatile sig_atomic_t *quit, struct stream_result *r, uint64_t *sent,
			struct procstat_busy *busy, char *err, size_t errlen)
{
	struct mmsghdr msgs[STREAM_BATCH];
	struct iovec iov[STREAM_BATCH];
	struct sockaddr_storage from[STREAM_BATCH];
	uint64_t start = clock_mono_ns(), deadline = start + duration_ns + STREAM_END_NS, end = 0;
	char line[STREAM_LINE_MAX], q[4 * STREAM_QUOTE_MAX + 8], (*bufs)[2048] = malloc(STREAM_BATCH * sizeof(*bufs));
	uint8_t want[16], got[16];
	int rc = 0;

	if (!bufs) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (peer)
		stream_addr_key(peer, want);
	for (;;) {
		struct pollfd p[2] = { { .fd = ufd, .events = POLLIN }, { .fd = cfd, .events = POLLIN } };
		uint64_t t = clock_mono_ns();
		int n;

		if (end && t >= end)
			break;
		if (*quit) {
			snprintf(err, errlen, "the server was stopped mid-session");
			stream_ctl_send(cfd, "ERR the server was stopped\n");
			rc = -EINTR;
			goto out;
		}
		if (!end && t >= deadline) {
			snprintf(err, errlen, "no end of the run from the client in time");
			stream_ctl_send(cfd, "ERR no end of the run in time\n");
			rc = -ETIMEDOUT;
			goto out;
		}
		n = poll(p, end ? 1 : 2, 100);
		if (n < 0 && errno != EINTR) {
			rc = -errno;
			goto out;
		}
		if (n <= 0)
			continue;
		/* an error queued on the socket (ICMP unreachable from the
		 * client's port) is read out by recvmmsg, or poll spins on it */
		if (p[0].revents & (POLLIN | POLLERR)) {
			/* The bytes counted are those the datagram carried, also
			 * past the part kept (MSG_TRUNC returns the whole length). */
			for (int i = 0; i < STREAM_BATCH; i++) {
				iov[i] = (struct iovec){ bufs[i], sizeof(bufs[i]) };
				msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i], .msg_iovlen = 1,
									 .msg_name = &from[i], .msg_namelen = sizeof(from[i]) } };
			}
			n = recvmmsg(ufd, msgs, STREAM_BATCH, MSG_DONTWAIT | MSG_TRUNC, NULL);
			for (int i = 0; i < n; i++) {
				if (peer) {
					stream_addr_key(&from[i], got);
					if (memcmp(got, want, 16))
						continue;
				}
				r->recv++;
				r->recv_bytes += msgs[i].msg_len;
			}
		}
		if (!end && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			if ((rc = stream_ctl_recv(cfd, line, sizeof(line), STREAM_CTL_MS))) {
				snprintf(err, errlen, "control connection: %s", strerror(-rc));
				goto out;
			}
			if (stream_proto_end_parse(line, sent)) {
				stream_proto_quote(line, q, sizeof(q));
				snprintf(err, errlen, "unexpected from the client: '%s'", q);
				rc = -EPROTO;
				goto out;
			}
			r->recv_ns = clock_mono_ns() - start;
			end = clock_mono_ns() + STREAM_GRACE_NS;
			/* over the sending, not the grace that follows it; a
			 * figure that cannot be had is left out of RESULT */
			{
				char e[128];

				if (busy->stat && procstat_busy_end(busy, r->recv_cpu.cpu, &r->recv_cpu.busy,
								    &r->recv_cpu.ncpus, e, sizeof(e)))
					r->recv_cpu.ncpus = 0;
			}
		}
	}
out:
	free(bufs);
	return rc;
}

static uint16_t *sa_port(struct sockaddr_storage *a)
{
	return a->ss_family == AF_INET ? &((struct sockaddr_in *)a)->sin_port
				       : &((struct sockaddr_in6 *)a)->sin6_port;
}

/* The session's data socket, on the address the client reached us on;
 * connected to the client's data port where it said which. */
static int data_socket(int cfd, const struct stream_hello *h, const struct sockaddr_storage *peer, uint16_t *port)
{
	struct sockaddr_storage local, to = *peer;
	socklen_t sl = sizeof(local);
	int ufd, rc;

	if (getsockname(cfd, (struct sockaddr *)&local, &sl))
		return -errno;
	if ((ufd = socket(local.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return -errno;
	*sa_port(&local) = 0;
	*sa_port(&to) = htons(h->data_port);
	if (bind(ufd, (struct sockaddr *)&local, sl) ||
	    (h->data_port && connect(ufd, (struct sockaddr *)&to, sl)) ||
	    getsockname(ufd, (struct sockaddr *)&local, &sl)) {
		rc = -errno;
		close(ufd);
		return rc;
	}
	*port = ntohs(*sa_port(&local));
	return ufd;
}

int stream_session_serve(int cfd, const struct stream_hello *h, const struct sockaddr_storage *peer,
			  volatile sig_atomic_t *quit, struct stream_result *r, char *err, size_t errlen)
{
	struct stream_counts c;
	struct procstat_busy busy = { 0 };
	socklen_t sl;
	uint64_t sent = 0;
	uint16_t port = 0;
	char line[STREAM_LINE_MAX];
	int ufd, rc;

	memset(r, 0, sizeof(*r));
	r->size = h->size;
	r->recv_cpu.cpu = h->cpu;
	/* netperf's -T: the session on the CPU the client named */
	if (h->cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		if (h->cpu < CPU_SETSIZE)
			CPU_SET(h->cpu, &set);
		if (h->cpu >= CPU_SETSIZE || sched_setaffinity(0, sizeof(set), &set)) {
			rc = h->cpu >= CPU_SETSIZE ? -EINVAL : -errno;
			snprintf(err, errlen, "cannot serve on CPU %d: %s", h->cpu, strerror(-rc));
			snprintf(line, sizeof(line), "ERR cannot serve on CPU %d\n", h->cpu);
			stream_ctl_send(cfd, line);
			return rc;
		}
	}
	if ((ufd = data_socket(cfd, h, peer, &port)) < 0) {
		rc = ufd;
		snprintf(err, errlen, "data socket: %s", strerror(-rc));
		stream_ctl_send(cfd, "ERR cannot open a data socket\n");
		return rc;
	}
	sl = sizeof(r->rcvbuf);
	getsockopt(ufd, SOL_SOCKET, SO_RCVBUF, &r->rcvbuf, &sl);
	snprintf(line, sizeof(line), "OK port=%u rcvbuf=%d version=%d\n", port, r->rcvbuf, STREAM_PROTO_VERSION);
	if ((rc = stream_ctl_send(cfd, line))) {
		snprintf(err, errlen, "control connection: %s", strerror(-rc));
		goto out;
	}
	{
		char e[128];

		if (procstat_busy_start(&busy, e, sizeof(e)))
			busy.stat = NULL;
	}
	rc = server_count(cfd, ufd, h->duration_ms * NSEC_PER_MSEC, h->data_port ? NULL : peer, quit, r, &sent, &busy,
			  err, errlen);
	procstat_busy_free(&busy);
	if (rc)
		goto out;
	r->sent = sent;
	/* What the receiving socket itself dropped (its buffer full) tells
	 * the tester's loss from the path's. */
	{
		uint32_t mi[SK_MEMINFO_VARS] = { 0 };
		socklen_t ml = sizeof(mi);

		if (!getsockopt(ufd, SOL_SOCKET, SO_MEMINFO, mi, &ml) && ml > SK_MEMINFO_DROPS * sizeof(mi[0]))
			r->drops = mi[SK_MEMINFO_DROPS];
	}
	c = (struct stream_counts){ .msgs = r->recv, .bytes = r->recv_bytes, .elapsed_ns = r->recv_ns,
				    .rcvbuf = r->rcvbuf, .drops = r->drops, .cpus = r->recv_cpu.ncpus,
				    .busy_ppm = (uint64_t)(r->recv_cpu.busy * 1e6 + 0.5) };
	stream_proto_result_format(&c, line, sizeof(line));
	if ((rc = stream_ctl_send(cfd, line)))
		snprintf(err, errlen, "control connection: %s", strerror(-rc));
out:
	close(ufd);
	return rc;
}

int stream_addr_parse(const char *s, uint16_t port, struct sockaddr_storage *a, socklen_t *alen, char *err,
		      size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV | AI_PASSIVE }, *res = NULL;
	char ps[8];

	snprintf(ps, sizeof(ps), "%u", port);
	if (!*s || getaddrinfo(s, ps, &hints, &res) || !res || res->ai_addrlen > sizeof(*a)) {
		if (res)
			freeaddrinfo(res);
		snprintf(err, errlen, "expected an IPv4 or IPv6 address in numbers (e.g. 192.0.2.1, 2001:db8::1)");
		return -EINVAL;
	}
	memset(a, 0, sizeof(*a));
	memcpy(a, res->ai_addr, res->ai_addrlen);
	*alen = res->ai_addrlen;
	freeaddrinfo(res);
	return 0;
}

int stream_listen(const struct sockaddr_storage *a, socklen_t alen, uint16_t port, char *err, size_t errlen)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, zero = 0, fd = -1, rc;
	char host[INET6_ADDRSTRLEN + 16];

	if (a) {
		/* the address given and no other: an IPv6 one without the
		 * IPv4 addresses mapped */
		fd = socket(a->ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			goto fail;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (a->ss_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
		if (!bind(fd, (const struct sockaddr *)a, alen) && !listen(fd, 64))
			return fd;
		goto fail;
	}
	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (!bind(fd, (struct sockaddr *)&a6, sizeof(a6)) && !listen(fd, 64))
			return fd;
		close(fd);
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!bind(fd, (struct sockaddr *)&a4, sizeof(a4)) && !listen(fd, 64))
		return fd;
fail:
	rc = -errno;
	if (a && !getnameinfo((const struct sockaddr *)a, alen, host, sizeof(host), NULL, 0, NI_NUMERICHOST))
		snprintf(err, errlen, "cannot listen on %s port %u: %s", host, port, strerror(-rc));
	else
		snprintf(err, errlen, "cannot listen on port %u: %s", port, strerror(-rc));
	if (fd >= 0)
		close(fd);
	return rc;
}

uint16_t stream_local_port(int fd)
{
	struct sockaddr_storage a;
	socklen_t sl = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &sl))
		return 0;
	return ntohs(*sa_port(&a));
}

/* ---- the client ---- */

/* Connect the control socket within STREAM_CTL_MS; 0 or -errno. */
static int connect_bounded(int fd, const struct sockaddr *a, socklen_t alen)
{
	uint64_t end = clock_mono_ns() + STREAM_CTL_MS * NSEC_PER_MSEC;
	int soerr = 0, rc;
	socklen_t sl = sizeof(soerr);

	if (!connect(fd, a, alen))
		return 0;
	if (errno != EINPROGRESS)
		return -errno;
	if ((rc = poll_until(fd, POLLOUT, end)))
		return rc;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl))
		return -errno;
	return -soerr;
}

/* Both sockets, in the calling thread's namespace, the control one
 * connected and the data one bound to the same local address (the server
 * connects its data socket to that address and the port in HELLO). */
static int client_open(const struct stream_client *c, int *cfd, int *ufd, char *err, size_t errlen)
{
	struct sockaddr_storage local;
	socklen_t sl = sizeof(local);
	int rc;

	*cfd = socket(c->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	*ufd = socket(c->addr.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (*cfd < 0 || *ufd < 0) {
		rc = -errno;
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return rc;
	}
	if ((rc = connect_bounded(*cfd, (const struct sockaddr *)&c->addr, c->alen))) {
		snprintf(err, errlen, "cannot reach the server: %s", strerror(-rc));
		return rc;
	}
	if (!getsockname(*cfd, (struct sockaddr *)&local, &sl))
		*sa_port(&local) = 0;
	else
		sl = 0;
	if (!sl || bind(*ufd, (struct sockaddr *)&local, sl)) {
		rc = -errno;
		snprintf(err, errlen, "data socket: %s", strerror(errno));
		return rc;
	}
	return 0;
}

/* The rate's datagrams due now, in one batch at most; sleeps until the
 * next is due when none is (the sender's CPU is then free for others:
 * what -c measures), waking at least every 100 ms for *stop and never
 * past end. Without a rate, a whole batch. 0: end or *stop came first. */
#define CLIENT_WAKE_NS (100 * NSEC_PER_MSEC)
static unsigned int client_due(struct pace *p, bool paced, uint64_t end, volatile sig_atomic_t *stop,
			       uint64_t *t)
{
	unsigned int n;

	if (!paced)
		return STREAM_BATCH;
	while (!(n = pace_due(p, *t))) {
		uint64_t wake = pace_next_ns(p);
		struct timespec ts;

		if (*stop || *t >= end)
			return 0;
		if (wake > end)
			wake = end;
		if (wake > *t + CLIENT_WAKE_NS)
			wake = *t + CLIENT_WAKE_NS;
		ts = (struct timespec){ .tv_sec = (time_t)((wake - *t) / NSEC_PER_SEC),
					.tv_nsec = (long)((wake - *t) % NSEC_PER_SEC) };
		nanosleep(&ts, NULL);
		*t = clock_mono_ns();
	}
	return n;
}

/* Send for the duration (or until *stop), sendmmsg in batches, the clock
 * read once per batch; at c->rate_pps when it is given. */
static int client_blast(int ufd, const struct stream_client *c, struct stream_result *r, char *err,
			size_t errlen)
{
	struct mmsghdr msgs[STREAM_BATCH];
	struct iovec iov = { calloc(1, c->size), c->size };
	struct procstat_busy busy = { 0 };
	struct pace pace;
	bool paced = c->rate_pps > 0;
	uint64_t start, t;
	int rc = 0;

	if (!iov.iov_base) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < STREAM_BATCH; i++)
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov, .msg_iovlen = 1 } };
	r->send_cpu = (struct stream_cpu){ .cpu = c->cpu };
	{
		char e[128];

		if (procstat_busy_start(&busy, e, sizeof(e)))
			busy.stat = NULL;
	}
	if (c->window)
		c->window(c->window_arg, false);
	start = t = clock_mono_ns();
	if (paced && (rc = pace_init(&pace, c->rate_pps, start, STREAM_BATCH, 0, err, errlen)))
		goto out;
	while (!*c->stop && t - start < c->duration_ns) {
		unsigned int due = client_due(&pace, paced, start + c->duration_ns, c->stop, &t);
		int n;

		if (!due || t - start >= c->duration_ns)
			break;
		n = sendmmsg(ufd, msgs, due, 0);
		if (n > 0) {
			r->sent += (uint64_t)n;
			if (paced)
				pace_sent(&pace, (unsigned int)n, t);
		} else if (n < 0 && (errno == ENOBUFS || errno == EAGAIN || errno == ECONNREFUSED)) {
			/* the one message refused; the rest of the batch is tried again */
			r->errors++;
			if (paced)
				pace_sent(&pace, 1, t);
		} else if (n < 0 && errno != EINTR) {
			rc = -errno;
			snprintf(err, errlen, "send: %s", strerror(errno));
			t = clock_mono_ns();
			goto out;
		}
		t = clock_mono_ns();
	}
	r->sent_bytes = r->sent * c->size;
	r->interrupted = *c->stop;
out:
	if (c->window)
		c->window(c->window_arg, true);
	r->send_ns = t - start;
	if (busy.stat) {
		char e[128];

		if (procstat_busy_end(&busy, c->cpu, &r->send_cpu.busy, &r->send_cpu.ncpus, e, sizeof(e)))
			r->send_cpu.ncpus = 0;
	}
	free(iov.iov_base);
	return rc;
}

/* The server's answer to HELLO, as a message for the user. */
static int client_refused(const struct stream_reply *rep, char *err, size_t errlen)
{
	switch (rep->kind) {
	case STREAM_REPLY_BUSY:
		snprintf(err, errlen, "the server is busy: it serves at most %" PRIu64 " session%s at once; "
			 "try again later", rep->limit, rep->limit == 1 ? "" : "s");
		return -EBUSY;
	case STREAM_REPLY_PER_PEER:
		snprintf(err, errlen, "the server is busy: it serves at most %" PRIu64 " session%s at once from "
			 "one address; try again later", rep->limit, rep->limit == 1 ? "" : "s");
		return -EBUSY;
	case STREAM_REPLY_DURATION:
		snprintf(err, errlen, "the server allows runs of at most %g s (its --max-duration): "
			 "ask for that or less with -l", (double)rep->limit / MSEC_PER_SEC);
		return -EPERM;
	case STREAM_REPLY_AUTH:
		snprintf(err, errlen, "the server refused the token: give the server's with --token-file");
		return -EACCES;
	default:
		snprintf(err, errlen, "the server refused: '%s'", rep->text);
		return -EPROTO;
	}
}

/* A session on open sockets: HELLO, data, END, RESULT. */
static int client_session(int cfd, int ufd, const struct stream_client *c, struct stream_result *r,
			  char *err, size_t errlen)
{
	struct sockaddr_storage data = c->addr;
	struct stream_hello h = { .version = STREAM_PROTO_VERSION, .size = c->size,
				  .duration_ms = c->duration_ns / 1000000U, .cpu = c->server_cpu };
	struct stream_reply rep;
	struct stream_counts counts;
	char line[STREAM_LINE_MAX], q[4 * STREAM_QUOTE_MAX + 8];
	int rc;
	socklen_t sl = sizeof(r->sndbuf);

	h.data_port = stream_local_port(ufd);
	if (c->token)
		snprintf(h.token, sizeof(h.token), "%s", c->token);
	rc = stream_proto_hello_format(&h, line, sizeof(line));
	if (rc >= 0)
		rc = stream_ctl_send(cfd, line);
	/* the token, gone from memory once sent */
	explicit_bzero(&h, sizeof(h));
	explicit_bzero(line, sizeof(line));
	if (rc || (rc = stream_ctl_recv(cfd, line, sizeof(line), STREAM_CTL_MS))) {
		snprintf(err, errlen, "the server did not answer: %s", strerror(-rc));
		return rc;
	}
	if (stream_proto_reply_parse(line, &rep)) {
		stream_proto_quote(line, q, sizeof(q));
		snprintf(err, errlen, "not an answer from a stream server: '%s'", q);
		return -EPROTO;
	}
	if (rep.kind != STREAM_REPLY_OK)
		return client_refused(&rep, err, errlen);
	r->rcvbuf = rep.rcvbuf;
	*sa_port(&data) = htons(rep.port);
	if (connect(ufd, (struct sockaddr *)&data, c->alen)) {
		snprintf(err, errlen, "data socket: %s", strerror(errno));
		return -errno;
	}
	getsockopt(ufd, SOL_SOCKET, SO_SNDBUF, &r->sndbuf, &sl);
	rc = client_blast(ufd, c, r, err, errlen);
	/* the server's counts are collected whatever stopped the sending */
	snprintf(line, sizeof(line), "END sent=%" PRIu64 "\n", r->sent);
	if (stream_ctl_send(cfd, line) ||
	    stream_ctl_recv(cfd, line, sizeof(line), STREAM_CTL_MS + STREAM_GRACE_NS / NSEC_PER_MSEC)) {
		if (!rc)
			snprintf(err, errlen, "no counts from the server after the run");
		return rc ? rc : -EPROTO;
	}
	if (stream_proto_result_parse(line, &counts)) {
		/* a count out of range too: never stored as given */
		if (!rc) {
			stream_proto_quote(line, q, sizeof(q));
			snprintf(err, errlen, "the server's counts do not read (a number missing or out of range): '%s'",
				 q);
		}
		return rc ? rc : -EPROTO;
	}
	r->recv = counts.msgs;
	r->recv_bytes = counts.bytes;
	r->recv_ns = counts.elapsed_ns;
	r->rcvbuf = counts.rcvbuf;
	r->drops = counts.drops;
	r->recv_cpu = (struct stream_cpu){ .ncpus = counts.cpus, .cpu = c->server_cpu,
					   .busy = (double)counts.busy_ppm / 1e6 };
	return rc;
}

int stream_resolve(struct stream_client *c, const char *host, uint16_t port, char *addr, size_t addrlen,
		   char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res = NULL;
	char ps[8];
	int rc;

	snprintf(ps, sizeof(ps), "%u", port);
	if ((rc = getaddrinfo(host, ps, &hints, &res)) || !res) {
		snprintf(err, errlen, "cannot resolve '%s': %s", host, gai_strerror(rc));
		return -EINVAL;
	}
	memcpy(&c->addr, res->ai_addr, res->ai_addrlen);
	c->alen = res->ai_addrlen;
	freeaddrinfo(res);
	if (getnameinfo((struct sockaddr *)&c->addr, c->alen, addr, (socklen_t)addrlen, NULL, 0, NI_NUMERICHOST))
		snprintf(addr, addrlen, "%s", host);
	return 0;
}

int stream_client_run(const struct stream_client *c, int nsfd, struct stream_result *r, char *err,
		      size_t errlen)
{
	int cfd = -1, ufd = -1, saved = -1, rc;
	cpu_set_t was, set;
	bool pinned = false;

	/* netperf's -T: the sending thread on the CPU asked, for this run */
	if (c->cpu >= 0) {
		CPU_ZERO(&set);
		if (c->cpu < CPU_SETSIZE)
			CPU_SET(c->cpu, &set);
		if (c->cpu >= CPU_SETSIZE || pthread_getaffinity_np(pthread_self(), sizeof(was), &was) ||
		    (rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set))) {
			snprintf(err, errlen, "cannot send from CPU %d", c->cpu);
			return -EINVAL;
		}
		pinned = true;
	}
	/* sockets stay in the namespace they were made in */
	if (nsfd >= 0 && (rc = netns_enter(nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the client's namespace: %s", strerror(-rc));
		goto out;
	}
	rc = client_open(c, &cfd, &ufd, err, errlen);
	if (nsfd >= 0)
		netns_leave(&saved);
	if (!rc)
		rc = client_session(cfd, ufd, c, r, err, errlen);
	if (cfd >= 0)
		close(cfd);
	if (ufd >= 0)
		close(ufd);
out:
	if (pinned)
		pthread_setaffinity_np(pthread_self(), sizeof(was), &was);
	return rc;
}

/* ---- a server for one session ---- */

struct stream_once {
	struct stream_server s;
	volatile sig_atomic_t quit;
	pthread_t th;
	bool started;
	char err[256];
};

static void *once_run(void *arg)
{
	struct stream_once *o = arg;

	stream_server_run(&o->s, o->err, sizeof(o->err));
	return NULL;
}

int stream_once_start(int nsfd, const struct sockaddr_storage *a, socklen_t alen, uint16_t *port,
		      uint64_t max_duration_ns, struct stream_once **out, char *err, size_t errlen)
{
	struct stream_once *o = calloc(1, sizeof(*o));
	sigset_t block, old;
	int saved = -1, rc;
	char e[256];

	*out = NULL;
	if (!o) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* the run asked for is the longest the server allows: it serves
	 * only this client */
	o->s = (struct stream_server){ .lfd = -1, .nsfd = nsfd, .quit = &o->quit, .once = true,
				       .max_duration_ns = max_duration_ns };
	if (nsfd >= 0 && (rc = netns_enter(nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the server's namespace: %s", strerror(-rc));
		goto fail;
	}
	o->s.lfd = stream_listen(a, alen, *port, e, sizeof(e));
	if (nsfd >= 0)
		netns_leave(&saved);
	if (o->s.lfd < 0) {
		rc = o->s.lfd;
		snprintf(err, errlen, "%s", e);
		goto fail;
	}
	*port = stream_local_port(o->s.lfd);
	/* Signals go to the caller's thread, not the server's. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(&o->th, NULL, once_run, o);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		snprintf(err, errlen, "cannot start the server thread: %s", strerror(rc));
		rc = -rc;
		goto fail;
	}
	o->started = true;
	*out = o;
	return 0;
fail:
	stream_once_stop(o);
	return rc;
}

void stream_once_stop(struct stream_once *o)
{
	if (!o)
		return;
	if (o->started) {
		o->quit = 1;
		pthread_join(o->th, NULL);
	}
	if (o->s.lfd >= 0)
		close(o->s.lfd);
	free(o);
}

/* ---- lab mode ---- */

int stream_lab_run(int gen_nsfd, int sink_nsfd, const uint8_t ip[4], uint16_t *port, const struct stream_client *c0,
		   struct stream_result *r, bool *in_session, char *err, size_t errlen)
{
	struct stream_client c = *c0;
	struct sockaddr_in *a4 = (struct sockaddr_in *)&c.addr;
	struct stream_once *srv = NULL;
	int saved = -1, rc;
	char e[256];

	*in_session = false;
	memset(&c.addr, 0, sizeof(c.addr));
	/* The server's listener in sink (an ephemeral port unless asked, so
	 * that it never meets a server already there). */
	if ((rc = stream_once_start(sink_nsfd, NULL, 0, port, c0->duration_ns, &srv, e, sizeof(e)))) {
		snprintf(err, errlen, "in the sink namespace: %s", e);
		return rc;
	}
	a4->sin_family = AF_INET;
	a4->sin_port = htons(*port);
	memcpy(&a4->sin_addr, ip, 4);
	c.alen = sizeof(*a4);
	/* tried here first so that a namespace that cannot be entered is
	 * told as the lab's failure, not the session's */
	if ((rc = netns_enter(gen_nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the gen namespace: %s", strerror(-rc));
		goto out;
	}
	netns_leave(&saved);
	*in_session = true;
	rc = stream_client_run(&c, gen_nsfd, r, err, errlen);
out:
	stream_once_stop(srv);
	return rc;
}
