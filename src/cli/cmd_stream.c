/* wirerate stream: netperf's UDP_STREAM. A server (netserver's part)
 * counts the datagrams a client sends it as fast as it can; the client
 * prints netperf's block with both ends' figures, and the loss between
 * them. Lab mode runs both ends itself, the server in the lab's sink
 * namespace and the client in its gen namespace, through the DUT.
 *
 * The control connection (TCP) carries one line each way per step:
 *   client: HELLO size=S duration_ms=D      server: OK port=P rcvbuf=B
 *   client: END sent=N                      server: RESULT msgs=M bytes=Y elapsed_ns=E rcvbuf=B
 * (or ERR reason). The server counts on a fresh UDP port per session, so
 * no datagram of an earlier session is ever counted in a later one. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <linux/sock_diag.h>

#include "cli/cli.h"
#include "core/cpuset.h"
#include "core/units.h"
#include "store/out.h"
#include "sys/lab.h"
#include "sys/netns.h"

#define STREAM_PORT 12866		/* netperf's */
#define STREAM_MSG_MAX 65507		/* the largest UDP payload over IPv4 */
#define STREAM_BATCH 64
#define STREAM_GRACE_NS 500000000ULL	/* late datagrams counted after END */
#define STREAM_CTL_MS 5000		/* any control step but the run itself */
#define STREAM_DUR_MAX (24 * 3600000000000ULL)

static const char stream_usage[] =
	"usage: wirerate stream --server [--port N] [--once] [--json]\n"
	"       wirerate stream --client HOST [-m SIZE] [-l T] [--port N] [--json]\n"
	"       wirerate stream [--prefix P] [-m SIZE] [-l T] [--json]\n"
	"\n"
	"netperf's UDP_STREAM: the client sends UDP datagrams of one size as fast as\n"
	"it can for a time; the server counts what arrives. The client prints\n"
	"netperf's block (socket size, message size, elapsed time, messages okay and\n"
	"errors, throughput in 10^6 bits/s; the sender's line, then the receiver's)\n"
	"and the loss between them.\n"
	"  --server            serve sessions one at a time until Ctrl-C (exit 0)\n"
	"  --once              with --server: end after one session (exit 1 if it failed)\n"
	"  --client HOST       run against the server on HOST (name or address)\n"
	"  -p, --port N        the server's control port (TCP; default 12866, netperf's);\n"
	"                      the data port (UDP) is one the server picks per session\n"
	"  -m, --message-size SIZE\n"
	"                      datagram payload, 1..65507 bytes (default 1025); IEC\n"
	"                      units (1k = 1024)\n"
	"  -l, --duration T    how long to send (default 10s; 100ms..24h; plain\n"
	"                      number = seconds)\n"
	"  --prefix P          lab mode (neither --server nor --client): both ends run\n"
	"                      here, the server in the lab's sink namespace, the client\n"
	"                      in its gen namespace, to 198.19.0.2 through the DUT\n"
	"                      (default prefix wr-; needs root and a lab that is up)\n"
	"  --json              machine-readable output (every figure)\n"
	"A send refused with ENOBUFS, EAGAIN or ECONNREFUSED counts as an error, as\n"
	"netperf's do. Ctrl-C on the client stops sending, still collects the\n"
	"server's counts, prints the block marked interrupted and exits 130.\n"
	"Exit: 0 done, 1 the server or the lab failed it, 2 bad input, 130 Ctrl-C.\n";

static volatile sig_atomic_t stream_stop;

static void on_signal(int sig)
{
	(void)sig;
	stream_stop = 1;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

enum stream_mode { MODE_LAB, MODE_SERVER, MODE_CLIENT };

struct stream_opts {
	enum stream_mode mode;
	bool once, have_port, have_size, have_duration, have_prefix;
	const char *host;
	uint16_t port;
	uint64_t size, duration_ns;
	char prefix[LAB_PREFIX_MAX + 1];
};

/* What a session measured, at both ends. */
struct stream_result {
	uint64_t sent, errors, sent_bytes, send_ns;
	int sndbuf;
	uint64_t recv, recv_bytes, recv_ns;
	int rcvbuf;
	uint64_t size;			/* the message size asked for (server side) */
	uint64_t drops;			/* the receiving socket's own (full buffer) */
	bool interrupted;
};

static int parse_opts(struct stream_opts *op, struct cli *cli, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "server", no_argument, NULL, 'S' },
		{ "client", required_argument, NULL, 'C' },
		{ "once", no_argument, NULL, 'o' },
		{ "port", required_argument, NULL, 'p' },
		{ "message-size", required_argument, NULL, 'm' },
		{ "duration", required_argument, NULL, 'l' },
		{ "prefix", required_argument, NULL, 'P' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool server = false;
	char err[256];
	uint64_t v;
	int c;

	memset(op, 0, sizeof(*op));
	op->port = STREAM_PORT;
	op->size = 1025;
	op->duration_ns = 10000000000ULL;
	snprintf(op->prefix, sizeof(op->prefix), "%s", LAB_PREFIX_DEFAULT);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hjm:l:p:", opts, NULL)) != -1) {
		switch (c) {
		case 'S': server = true; break;
		case 'o': op->once = true; break;
		case 'j': cli->json = true; break;
		case 'C':
			if (!*optarg) {
				cli_error("stream: --client: expected a host name or address");
				return EXIT_USAGE;
			}
			op->host = optarg;
			break;
		case 'p':
			if (u64_parse(optarg, 1, 65535, &v, err, sizeof(err))) {
				cli_error("stream: --port: %s", err);
				return EXIT_USAGE;
			}
			op->port = (uint16_t)v;
			op->have_port = true;
			break;
		case 'm':
			if (size_parse(optarg, 1, STREAM_MSG_MAX, &op->size, err, sizeof(err))) {
				cli_error("stream: --message-size: %s", err);
				return EXIT_USAGE;
			}
			op->have_size = true;
			break;
		case 'l':
			if (duration_parse(optarg, 100000000ULL, STREAM_DUR_MAX, &op->duration_ns,
					   err, sizeof(err))) {
				cli_error("stream: --duration: %s", err);
				return EXIT_USAGE;
			}
			op->have_duration = true;
			break;
		case 'P':
			if (lab_prefix_check(optarg, err, sizeof(err))) {
				cli_error("stream: %s", err);
				return EXIT_USAGE;
			}
			snprintf(op->prefix, sizeof(op->prefix), "%s", optarg);
			op->have_prefix = true;
			break;
		case 'h': fputs(stream_usage, stdout); return -1;
		default:
			return cli_bad_option("stream", c, argv, optind);
		}
	}
	if (optind < argc) {
		cli_error("stream: unexpected argument '%s'", argv[optind]);
		return EXIT_USAGE;
	}
	if (server && op->host) {
		cli_error("stream: --server and --client exclude each other");
		return EXIT_USAGE;
	}
	op->mode = server ? MODE_SERVER : op->host ? MODE_CLIENT : MODE_LAB;
	if (op->once && op->mode != MODE_SERVER) {
		cli_error("stream: --once applies to --server only");
		return EXIT_USAGE;
	}
	if (op->have_prefix && op->mode != MODE_LAB) {
		cli_error("stream: --prefix is for lab mode (neither --server nor --client)");
		return EXIT_USAGE;
	}
	if (op->mode == MODE_SERVER && (op->have_size || op->have_duration)) {
		cli_error("stream: --message-size and --duration are the client's (the server takes them from it)");
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- the control connection ---- */

/* Send one line; 0 or -errno. */
static int ctl_send(int fd, const char *line)
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
		uint64_t t = now_ns();
		int n;

		if (t >= end)
			return -ETIMEDOUT;
		n = poll(&p, 1, (int)((end - t) / 1000000ULL) + 1);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			return 0;
	}
}

/* Read one line (without its '\n') within timeout_ms; a byte at a time, as
 * the lines are few and short and the peer sends nothing past one before
 * an answer. 0, -ETIMEDOUT, -ECONNRESET (closed) or -errno. */
static int ctl_recv(int fd, char *buf, size_t len, int timeout_ms)
{
	uint64_t end = now_ns() + (uint64_t)timeout_ms * 1000000ULL;
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

/* ---- the server ---- */

struct server_ctx {
	int lfd;			/* the listening socket */
	int nsfd;			/* the namespace to serve in (-1: this one) */
	volatile sig_atomic_t *quit;	/* stop waiting for sessions */
	bool once;
	struct out *o;			/* session lines; NULL = silent (lab mode) */
	/* the last session's, for lab mode */
	struct stream_result res;
	int rc;				/* 0, or -errno of the last session */
	char err[256];
};

/* Count what arrives on ufd until the control socket says END (or the
 * run's time plus a margin passes), then a grace period for the datagrams
 * still on their way. */
static int server_count(int cfd, int ufd, uint64_t duration_ns, volatile sig_atomic_t *quit,
			struct stream_result *r, uint64_t *sent, char *err, size_t errlen)
{
	static char bufs[STREAM_BATCH][2048];
	struct mmsghdr msgs[STREAM_BATCH];
	struct iovec iov[STREAM_BATCH];
	uint64_t start = now_ns(), deadline = start + duration_ns + 30000000000ULL, end = 0;
	char line[128];
	int rc;

	/* The bytes counted are those the datagram carried, also past the
	 * part kept (MSG_TRUNC returns the whole length). */
	for (int i = 0; i < STREAM_BATCH; i++) {
		iov[i] = (struct iovec){ bufs[i], sizeof(bufs[i]) };
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov[i], .msg_iovlen = 1 } };
	}
	for (;;) {
		struct pollfd p[2] = { { .fd = ufd, .events = POLLIN }, { .fd = cfd, .events = POLLIN } };
		uint64_t t = now_ns();
		int n;

		if (end && t >= end)
			break;
		if (*quit) {
			snprintf(err, errlen, "the server was stopped mid-session");
			ctl_send(cfd, "ERR the server was stopped\n");
			return -EINTR;
		}
		if (!end && t >= deadline) {
			snprintf(err, errlen, "no end of the run from the client in time");
			return -ETIMEDOUT;
		}
		n = poll(p, end ? 1 : 2, 100);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		if (p[0].revents & POLLIN) {
			n = recvmmsg(ufd, msgs, STREAM_BATCH, MSG_DONTWAIT | MSG_TRUNC, NULL);
			for (int i = 0; i < n; i++) {
				r->recv++;
				r->recv_bytes += msgs[i].msg_len;
			}
		}
		if (!end && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			if ((rc = ctl_recv(cfd, line, sizeof(line), STREAM_CTL_MS))) {
				snprintf(err, errlen, "control connection: %s", strerror(-rc));
				return rc;
			}
			if (sscanf(line, "END sent=%" SCNu64, sent) != 1) {
				snprintf(err, errlen, "unexpected from the client: '%.60s'", line);
				return -EPROTO;
			}
			r->recv_ns = now_ns() - start;
			end = now_ns() + STREAM_GRACE_NS;
		}
	}
	return 0;
}

/* One session on an accepted control connection. */
static int server_session(int cfd, volatile sig_atomic_t *quit, struct stream_result *r, char *err,
			  size_t errlen)
{
	struct sockaddr_storage local;
	socklen_t sl = sizeof(local);
	uint64_t size, dur_ms, sent = 0;
	char line[160];
	int ufd = -1, rc;

	memset(r, 0, sizeof(*r));
	if ((rc = ctl_recv(cfd, line, sizeof(line), STREAM_CTL_MS))) {
		snprintf(err, errlen, "no request from the client: %s", strerror(-rc));
		return rc;
	}
	if (sscanf(line, "HELLO size=%" SCNu64 " duration_ms=%" SCNu64, &size, &dur_ms) != 2 ||
	    !size || size > STREAM_MSG_MAX || dur_ms > STREAM_DUR_MAX / 1000000ULL) {
		snprintf(err, errlen, "bad request from the client: '%.60s'", line);
		ctl_send(cfd, "ERR bad request\n");
		return -EPROTO;
	}
	r->size = size;
	/* The data port is on the address the client reached us on. */
	if (getsockname(cfd, (struct sockaddr *)&local, &sl) ||
	    (ufd = socket(local.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0) {
		rc = -errno;
		goto fail;
	}
	if (local.ss_family == AF_INET)
		((struct sockaddr_in *)&local)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&local)->sin6_port = 0;
	if (bind(ufd, (struct sockaddr *)&local, sl) || getsockname(ufd, (struct sockaddr *)&local, &sl)) {
		rc = -errno;
		goto fail;
	}
	sl = sizeof(r->rcvbuf);
	getsockopt(ufd, SOL_SOCKET, SO_RCVBUF, &r->rcvbuf, &sl);
	snprintf(line, sizeof(line), "OK port=%u rcvbuf=%d\n",
		 ntohs(local.ss_family == AF_INET ? ((struct sockaddr_in *)&local)->sin_port
						  : ((struct sockaddr_in6 *)&local)->sin6_port), r->rcvbuf);
	if ((rc = ctl_send(cfd, line))) {
		snprintf(err, errlen, "control connection: %s", strerror(-rc));
		goto out;
	}
	if ((rc = server_count(cfd, ufd, dur_ms * 1000000ULL, quit, r, &sent, err, errlen)))
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
	snprintf(line, sizeof(line), "RESULT msgs=%" PRIu64 " bytes=%" PRIu64 " elapsed_ns=%" PRIu64
		 " rcvbuf=%d drops=%" PRIu64 "\n", r->recv, r->recv_bytes, r->recv_ns, r->rcvbuf, r->drops);
	if ((rc = ctl_send(cfd, line)))
		snprintf(err, errlen, "control connection: %s", strerror(-rc));
	goto out;
fail:
	snprintf(err, errlen, "data socket: %s", strerror(-rc));
	ctl_send(cfd, "ERR cannot open a data socket\n");
out:
	if (ufd >= 0)
		close(ufd);
	return rc;
}

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

/* Serve sessions one at a time until *quit (or one, with once). */
static void *server_run(void *arg)
{
	struct server_ctx *s = arg;
	struct timeval tv = { STREAM_CTL_MS / 1000, 0 };

	int saved = -1;

	s->rc = -ETIMEDOUT;
	snprintf(s->err, sizeof(s->err), "no session");
	/* each session's data socket is made in the server's namespace */
	if (s->nsfd >= 0 && (s->rc = netns_enter(s->nsfd, &saved))) {
		snprintf(s->err, sizeof(s->err), "cannot enter the server's namespace: %s", strerror(-s->rc));
		return NULL;
	}
	while (!*s->quit) {
		struct pollfd p = { .fd = s->lfd, .events = POLLIN };
		char peer[64];
		int cfd;

		if (poll(&p, 1, 100) <= 0)
			continue;
		cfd = accept4(s->lfd, NULL, NULL, SOCK_CLOEXEC);
		if (cfd < 0)
			continue;
		/* a session cannot hang the server on a stalled send either */
		setsockopt(cfd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		peer_name(cfd, peer, sizeof(peer));
		s->err[0] = '\0';
		s->rc = server_session(cfd, s->quit, &s->res, s->err, sizeof(s->err));
		close(cfd);
		if (s->o) {
			struct stream_result *r = &s->res;
			double secs = (double)r->recv_ns / 1e9;

			out_obj_start(s->o, NULL);
			out_str(s->o, "client", "session from %s: ", peer);
			out_bool(s->o, "ok", NULL, !s->rc);
			if (s->rc) {
				out_str(s->o, "error", "%s\n", s->err);
			} else {
				out_u64(s->o, "messages", "%llu messages", r->recv);
				out_u64(s->o, "message_size", " of %llu bytes", r->size);
				out_u64(s->o, "bytes", NULL, r->recv_bytes);
				out_u64(s->o, "client_sent", " (client sent %llu", r->sent);
				out_u64(s->o, "socket_drops", ", socket dropped %llu)", r->drops);
				out_f64(s->o, "elapsed_s", " in %.2f s", secs);
				out_f64(s->o, "throughput_mbps", ", %.2f 10^6bits/sec",
					secs > 0 ? (double)r->recv_bytes * 8 / secs / 1e6 : 0);
				out_u64(s->o, "socket_size", ", socket %llu bytes\n", (uint64_t)r->rcvbuf);
			}
			out_obj_end(s->o);
			fflush(stdout);
		}
		if (s->once)
			break;
	}
	netns_leave(&saved);
	return NULL;
}

/* A listening socket on port (0: any), on all addresses of the namespace
 * the calling thread is in: IPv6 with IPv4 mapped, else IPv4. */
static int listen_on(uint16_t port, char *err, size_t errlen)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons(port) };
	int one = 1, zero = 0, fd, rc;

	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
		if (!bind(fd, (struct sockaddr *)&a6, sizeof(a6)) && !listen(fd, 8))
			return fd;
		close(fd);
	}
	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		goto fail;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (!bind(fd, (struct sockaddr *)&a4, sizeof(a4)) && !listen(fd, 8))
		return fd;
fail:
	rc = -errno;
	snprintf(err, errlen, "cannot listen on port %u: %s", port, strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

static uint16_t local_port(int fd)
{
	struct sockaddr_storage a;
	socklen_t sl = sizeof(a);

	if (getsockname(fd, (struct sockaddr *)&a, &sl))
		return 0;
	return ntohs(a.ss_family == AF_INET ? ((struct sockaddr_in *)&a)->sin_port
					    : ((struct sockaddr_in6 *)&a)->sin6_port);
}

static int do_server(struct stream_opts *op, struct cli *cli)
{
	struct server_ctx s = { .nsfd = -1, .quit = &stream_stop, .once = op->once };
	char err[256];

	if ((s.lfd = listen_on(op->port, err, sizeof(err))) < 0) {
		cli_error("stream: %s", err);
		return s.lfd == -EADDRINUSE || s.lfd == -EACCES ? EXIT_USAGE : EXIT_RUNTIME;
	}
	s.o = out_create(stdout, cli->json);
	if (!s.o) {
		close(s.lfd);
		return EXIT_RUNTIME;
	}
	out_u64(s.o, "port", "wirerate stream server on port %llu", op->port);
	out_text(s.o, "%s\n", op->once ? ", for one session" : " (Ctrl-C ends it)");
	fflush(stdout);
	out_arr_start(s.o, "sessions");
	server_run(&s);
	out_arr_end(s.o);
	out_bool(s.o, "interrupted", NULL, stream_stop);
	out_destroy(s.o);
	close(s.lfd);
	return op->once && s.rc ? EXIT_RUNTIME : 0;
}

/* ---- the client ---- */

struct client_socks {
	int cfd, ufd;
	struct sockaddr_storage addr;	/* the server's, control port */
	socklen_t alen;
};

/* Connect the control socket within STREAM_CTL_MS; 0 or -errno. */
static int connect_bounded(int fd, const struct sockaddr *a, socklen_t alen)
{
	uint64_t end = now_ns() + STREAM_CTL_MS * 1000000ULL;
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

/* Open both sockets in the calling thread's namespace and connect the
 * control one. */
static int client_open(struct client_socks *cs, char *err, size_t errlen)
{
	int rc;

	cs->cfd = socket(cs->addr.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	cs->ufd = socket(cs->addr.ss_family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (cs->cfd < 0 || cs->ufd < 0) {
		rc = -errno;
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return rc;
	}
	if ((rc = connect_bounded(cs->cfd, (struct sockaddr *)&cs->addr, cs->alen))) {
		snprintf(err, errlen, "cannot reach the server: %s", strerror(-rc));
		return rc;
	}
	return 0;
}

/* Send for duration_ns (or until Ctrl-C), sendmmsg in batches, the clock
 * read once per batch. */
static int client_blast(int ufd, size_t size, uint64_t duration_ns, struct stream_result *r,
			char *err, size_t errlen)
{
	static char payload[STREAM_MSG_MAX];
	struct mmsghdr msgs[STREAM_BATCH];
	struct iovec iov = { payload, size };
	uint64_t start, t;

	for (int i = 0; i < STREAM_BATCH; i++)
		msgs[i] = (struct mmsghdr){ .msg_hdr = { .msg_iov = &iov, .msg_iovlen = 1 } };
	start = t = now_ns();
	while (!stream_stop && t - start < duration_ns) {
		int n = sendmmsg(ufd, msgs, STREAM_BATCH, 0);

		if (n > 0) {
			r->sent += (uint64_t)n;
		} else if (n < 0 && (errno == ENOBUFS || errno == EAGAIN || errno == ECONNREFUSED)) {
			/* the one message refused; the rest of the batch is tried again */
			r->errors++;
		} else if (n < 0 && errno != EINTR) {
			snprintf(err, errlen, "send: %s", strerror(errno));
			r->send_ns = now_ns() - start;
			return -errno;
		}
		t = now_ns();
	}
	r->sent_bytes = r->sent * size;
	r->send_ns = t - start;
	r->interrupted = stream_stop;
	return 0;
}

/* A session on open sockets: HELLO, data, END, RESULT. */
static int client_session(struct client_socks *cs, const struct stream_opts *op, struct stream_result *r,
			  char *err, size_t errlen)
{
	char line[160];
	unsigned int dport;
	int rc;
	socklen_t sl = sizeof(r->sndbuf);

	snprintf(line, sizeof(line), "HELLO size=%" PRIu64 " duration_ms=%" PRIu64 "\n", op->size,
		 (uint64_t)(op->duration_ns / 1000000U));
	if ((rc = ctl_send(cs->cfd, line)) || (rc = ctl_recv(cs->cfd, line, sizeof(line), STREAM_CTL_MS))) {
		snprintf(err, errlen, "the server did not answer: %s", strerror(-rc));
		return rc;
	}
	if (sscanf(line, "OK port=%u rcvbuf=%d", &dport, &r->rcvbuf) != 2 || !dport || dport > 65535) {
		snprintf(err, errlen, "the server refused: '%.60s'", line);
		return -EPROTO;
	}
	if (cs->addr.ss_family == AF_INET)
		((struct sockaddr_in *)&cs->addr)->sin_port = htons((uint16_t)dport);
	else
		((struct sockaddr_in6 *)&cs->addr)->sin6_port = htons((uint16_t)dport);
	if (connect(cs->ufd, (struct sockaddr *)&cs->addr, cs->alen)) {
		snprintf(err, errlen, "data socket: %s", strerror(errno));
		return -errno;
	}
	getsockopt(cs->ufd, SOL_SOCKET, SO_SNDBUF, &r->sndbuf, &sl);
	rc = client_blast(cs->ufd, op->size, op->duration_ns, r, err, errlen);
	/* the server's counts are collected whatever stopped the sending */
	snprintf(line, sizeof(line), "END sent=%" PRIu64 "\n", r->sent);
	if (ctl_send(cs->cfd, line) ||
	    ctl_recv(cs->cfd, line, sizeof(line), STREAM_CTL_MS + STREAM_GRACE_NS / 1000000ULL) ||
	    sscanf(line, "RESULT msgs=%" SCNu64 " bytes=%" SCNu64 " elapsed_ns=%" SCNu64 " rcvbuf=%d drops=%" SCNu64,
		   &r->recv, &r->recv_bytes, &r->recv_ns, &r->rcvbuf, &r->drops) != 5) {
		if (!rc)
			snprintf(err, errlen, "no counts from the server after the run");
		return rc ? rc : -EPROTO;
	}
	return rc;
}

static double mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 8 / ((double)ns / 1e9) / 1e6 : 0;
}

/* netperf's UDP_STREAM block, and the loss it leaves to the reader. */
static void print_block(struct out *o, const struct stream_opts *op, const char *addr, const char *lab,
			const struct stream_result *r)
{
	const char *any = strchr(addr, ':') ? "::" : "0.0.0.0", *fam = strchr(addr, ':') ? "AF_INET6" : "AF_INET";
	uint64_t lost = r->sent > r->recv ? r->sent - r->recv : 0;

	out_str(o, "test", NULL, "UDP_STREAM");
	out_text(o, "UDP UNIDIRECTIONAL SEND TEST from %s (%s) port 0 %s", any, any, fam);
	out_str(o, "host", " to %s", op->host);
	out_str(o, "address", " (%s)", addr);
	out_text(o, " port 0 %s\n", fam);
	out_u64(o, "port", NULL, op->port);
	if (lab)
		out_str(o, "lab", NULL, lab);
	else
		out_null(o, "lab");
	out_f64(o, "duration_s", NULL, (double)op->duration_ns / 1e9);
	out_text(o, "Socket  Message  Elapsed      Messages\n"
		    "Size    Size     Time         Okay Errors   Throughput\n"
		    "bytes   bytes    secs            #      #   10^6bits/sec\n\n");
	out_obj_start(o, "send");
	out_u64(o, "socket_size", "%6llu", (uint64_t)r->sndbuf);
	out_u64(o, "message_size", "%8llu", op->size);
	out_f64(o, "elapsed_s", "%8.2f", (double)r->send_ns / 1e9);
	out_u64(o, "elapsed_ns", NULL, r->send_ns);
	out_u64(o, "okay", "%13llu", r->sent);
	out_u64(o, "errors", "%7llu", r->errors);
	out_u64(o, "bytes", NULL, r->sent_bytes);
	out_f64(o, "throughput_mbps", "%12.2f\n", mbps(r->sent_bytes, r->send_ns));
	out_obj_end(o);
	out_obj_start(o, "receive");
	out_u64(o, "socket_size", "%6llu", (uint64_t)r->rcvbuf);
	out_f64(o, "elapsed_s", "%16.2f", (double)r->recv_ns / 1e9);
	out_u64(o, "elapsed_ns", NULL, r->recv_ns);
	out_u64(o, "messages", "%13llu", r->recv);
	out_u64(o, "bytes", NULL, r->recv_bytes);
	out_f64(o, "throughput_mbps", "%19.2f\n\n", mbps(r->recv_bytes, r->recv_ns));
	out_u64(o, "socket_drops", NULL, r->drops);
	out_obj_end(o);
	out_u64(o, "lost", "lost %llu", lost);
	out_f64(o, "lost_pct", " (%.2f%%)", r->sent ? 100.0 * (double)lost / (double)r->sent : 0);
	out_text(o, " of the messages sent okay%s", r->recv > r->sent ? " (the server counted more than were sent)" : "");
	out_text(o, "; the receiving socket dropped %llu (its buffer full)\n", (unsigned long long)r->drops);
	out_bool(o, "interrupted", NULL, r->interrupted);
	if (r->interrupted)
		out_text(o, "interrupted after %.2f s of %.2f s\n", (double)r->send_ns / 1e9,
			 (double)op->duration_ns / 1e9);
	if (lab) {
		const uint8_t *g = lab_if(LAB_GEN0)->ip;

		out_text(o, "through lab %s: gen0 (%u.%u.%u.%u) -> DUT -> sink0 (%s)\n", lab, g[0], g[1], g[2], g[3],
			 addr);
	}
}

/* Resolve host to the server's control address; -EINVAL with a message. */
static int resolve(const char *host, uint16_t port, struct client_socks *cs, char *addr, size_t alen,
		   char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res = NULL;
	char ps[8];
	int rc;

	snprintf(ps, sizeof(ps), "%u", port);
	if ((rc = getaddrinfo(host, ps, &hints, &res)) || !res) {
		snprintf(err, errlen, "--client: cannot resolve '%s': %s", host, gai_strerror(rc));
		return -EINVAL;
	}
	memcpy(&cs->addr, res->ai_addr, res->ai_addrlen);
	cs->alen = res->ai_addrlen;
	freeaddrinfo(res);
	if (getnameinfo((struct sockaddr *)&cs->addr, cs->alen, addr, (socklen_t)alen, NULL, 0, NI_NUMERICHOST))
		snprintf(addr, alen, "%s", host);
	return 0;
}

static int finish(struct cli *cli, const struct stream_opts *op, const char *addr, const char *lab,
		  const struct stream_result *r)
{
	struct out *o = out_create(stdout, cli->json);

	if (!o)
		return EXIT_RUNTIME;
	print_block(o, op, addr, lab, r);
	out_destroy(o);
	return r->interrupted ? 130 : 0;
}

static void close_socks(struct client_socks *cs)
{
	if (cs->cfd >= 0)
		close(cs->cfd);
	if (cs->ufd >= 0)
		close(cs->ufd);
	cs->cfd = cs->ufd = -1;
}

static int do_client(struct stream_opts *op, struct cli *cli)
{
	struct client_socks cs = { .cfd = -1, .ufd = -1 };
	struct stream_result r = { 0 };
	char err[256], addr[INET6_ADDRSTRLEN];
	int rc;

	if (resolve(op->host, op->port, &cs, addr, sizeof(addr), err, sizeof(err))) {
		cli_error("stream: %s", err);
		return EXIT_USAGE;
	}
	if ((rc = client_open(&cs, err, sizeof(err))) ||
	    (rc = client_session(&cs, op, &r, err, sizeof(err)))) {
		close_socks(&cs);
		cli_error("stream: %s (%s port %u)", err, addr, op->port);
		return stream_stop ? 130 : EXIT_RUNTIME;
	}
	close_socks(&cs);
	return finish(cli, op, addr, NULL, &r);
}

/* ---- lab mode ---- */

static int do_lab(struct stream_opts *op, struct cli *cli)
{
	static volatile sig_atomic_t server_quit;
	struct client_socks cs = { .cfd = -1, .ufd = -1 };
	struct server_ctx s = { .lfd = -1, .nsfd = -1, .quit = &server_quit, .once = true };
	struct stream_result r = { 0 };
	struct lab_status st;
	char err[256], name[NETNS_NAME_MAX], addr[INET_ADDRSTRLEN];
	int lock = -1, gen = -1, sink = -1, saved = -1, rc = EXIT_RUNTIME;
	const struct lab_addr *dst = lab_if(LAB_SINK0);
	struct sockaddr_in *a4 = (struct sockaddr_in *)&cs.addr;
	sigset_t block, old;
	pthread_t th;
	bool started = false;

	if (!cli_have_root()) {
		cli_error("stream: lab mode needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN): run it as root, "
			  "or give --server or --client");
		return EXIT_USAGE;
	}
	server_quit = 0;
	if (lab_lock(op->prefix, "a stream", false, &lock, err, sizeof(err)) ||
	    lab_status(op->prefix, &st, err, sizeof(err))) {
		cli_error("stream: %s", err);
		goto out;
	}
	if (!st.complete) {
		char pa[LAB_PREFIX_MAX + 12];

		cli_error("stream: the lab %s is %s: run 'wirerate lab up%s'", op->prefix,
			  st.exists ? "half-built" : "not up", lab_prefix_arg(op->prefix, pa, sizeof(pa)));
		goto out;
	}
	/* Both ends on the tester's CPUs (the server's thread inherits this
	 * one's), off the DUT's, as a trial's generator and analyzer are. */
	if (cpuset_count(&st.tester_cpus)) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (int c = cpuset_next(&st.tester_cpus, 0); c >= 0; c = cpuset_next(&st.tester_cpus, (unsigned)c + 1))
			CPU_SET(c, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	lab_ns_name(op->prefix, LAB_GEN, name, sizeof(name));
	gen = netns_open(name);
	lab_ns_name(op->prefix, LAB_SINK, name, sizeof(name));
	sink = netns_open(name);
	if (gen < 0 || sink < 0) {
		cli_error("stream: cannot open the lab's namespaces (%s)", strerror(-(gen < 0 ? gen : sink)));
		goto out;
	}
	/* The server's listener in sink (an ephemeral port unless --port, so
	 * that it never meets a server already there), the client's sockets
	 * in gen; sockets stay in the namespace they were made in. */
	if ((rc = netns_enter(sink, &saved))) {
		cli_error("stream: cannot enter the sink namespace: %s", strerror(-rc));
		rc = EXIT_RUNTIME;
		goto out;
	}
	s.lfd = listen_on(op->have_port ? op->port : 0, err, sizeof(err));
	netns_leave(&saved);
	if (s.lfd < 0) {
		cli_error("stream: in the sink namespace: %s", err);
		rc = EXIT_RUNTIME;
		goto out;
	}
	op->port = local_port(s.lfd);
	s.nsfd = sink;
	inet_ntop(AF_INET, dst->ip, addr, sizeof(addr));
	op->host = addr;
	a4->sin_family = AF_INET;
	a4->sin_port = htons(op->port);
	memcpy(&a4->sin_addr, dst->ip, 4);
	cs.alen = sizeof(*a4);
	/* Signals go to this thread, not the server's. */
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	rc = pthread_create(&th, NULL, server_run, &s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc) {
		cli_error("stream: cannot start the server thread: %s", strerror(rc));
		rc = EXIT_RUNTIME;
		goto out;
	}
	started = true;
	if ((rc = netns_enter(gen, &saved))) {
		cli_error("stream: cannot enter the gen namespace: %s", strerror(-rc));
		rc = EXIT_RUNTIME;
		goto out;
	}
	rc = client_open(&cs, err, sizeof(err));
	netns_leave(&saved);
	if (rc || (rc = client_session(&cs, op, &r, err, sizeof(err)))) {
		cli_error("stream: %s (lab %s, %s port %u)", err, op->prefix, addr, op->port);
		rc = stream_stop ? 130 : EXIT_RUNTIME;
		goto out;
	}
	close_socks(&cs);
	server_quit = 1;
	pthread_join(th, NULL);
	started = false;
	rc = finish(cli, op, addr, op->prefix, &r);
out:
	close_socks(&cs);
	if (started) {
		server_quit = 1;
		pthread_join(th, NULL);
	}
	if (s.lfd >= 0)
		close(s.lfd);
	if (gen >= 0)
		close(gen);
	if (sink >= 0)
		close(sink);
	lab_unlock(&lock, NULL);
	return rc;
}

int cmd_stream(struct cli *cli, int argc, char **argv)
{
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term;
	struct stream_opts op;
	int rc;

	if ((rc = parse_opts(&op, cli, argc, argv)))
		return rc < 0 ? 0 : rc;
	/* no SA_RESTART: a blocked send or wait returns at once to look */
	sigemptyset(&sa.sa_mask);
	stream_stop = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	rc = op.mode == MODE_SERVER ? do_server(&op, cli) : op.mode == MODE_CLIENT ? do_client(&op, cli)
										   : do_lab(&op, cli);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	return rc;
}
