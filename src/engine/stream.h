/* netperf's UDP_STREAM: a server (netserver's part) counts the datagrams a
 * client sends it as fast as it can; both ends' figures come back to the
 * client. The caller (src/cli) parses, prints and picks the exit status;
 * this module owns the protocol (stream_proto.h has its lines), the
 * sockets and the server's sessions.
 *
 * The control connection (TCP) carries one line each way per step: the
 * client's HELLO (message size, duration, its data port, a token), the
 * server's OK (its data port) or ERR; then the client's END, the server's
 * RESULT. The server counts on a fresh UDP port per session, connected to
 * the client's, so no datagram of an earlier session, or of anyone but the
 * client, is ever counted. It is network-facing: it reads each client's
 * request without blocking its loop and within STREAM_HELLO_MS, bounds the
 * sessions at once, those from one address and the longest run, and asks
 * for a shared token where given one. */
#ifndef WR_ENGINE_STREAM_H
#define WR_ENGINE_STREAM_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "core/ns.h"

#define STREAM_PORT 12866		/* netperf's */
#define STREAM_MSG_MAX 65507		/* the largest UDP payload over IPv4 */
#define STREAM_DUR_MAX (24 * NSEC_PER_HOUR)
#define STREAM_SESSIONS_DEFAULT 16	/* sessions a server serves at once */
#define STREAM_SESSIONS_MAX 256
#define STREAM_PER_PEER_DEFAULT 2	/* sessions from one address at once */
#define STREAM_MAX_DURATION_DEFAULT (60 * NSEC_PER_SEC)
#define STREAM_HELLO_MS 2000		/* for a client's request, from its connect */
#define STREAM_PENDING_MAX 64		/* connections whose request is awaited */
#define STREAM_PREFIX6_DEFAULT 64	/* IPv6 peers counted by their /64: a host
					 * has a /64 of addresses to come from */

/* How busy one end's CPUs were over its part of the run (/proc/stat:
 * not idle, interrupt time included): its one pinned CPU, or every CPU
 * of its host. ncpus 0: not measured (a server before these figures). */
struct stream_cpu {
	unsigned int ncpus;
	int cpu;			/* the one CPU, -1: all of them */
	double busy;			/* 0..1 of those CPUs' time */
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
	struct stream_cpu send_cpu, recv_cpu;
};

/* 10^6 bits/s of bytes over ns (0 over no time). */
static inline double stream_mbps(uint64_t bytes, uint64_t ns)
{
	return ns ? (double)bytes * 8 / ((double)ns / NSEC_PER_SEC) / 1e6 : 0;
}

/* One of several senders at once: where it ran, how it ended, what it
 * measured. */
struct stream_sender {
	int cpu;			/* pinned to (-1: where it may run) */
	int rc;				/* 0, or its -errno */
	char err[256];
	struct stream_result r;
};

#define STREAM_ITER_MAX 30		/* -I's runs at most: netperf's limit too */

/* The runs of -I: each one's received throughput and the interval of
 * their mean. */
struct stream_conf {
	unsigned int n;
	double mbps[STREAM_ITER_MAX];
	double halfwidth;		/* a share of the mean; infinity below two runs */
	bool achieved;
};

/* A session as the server saw it, for its caller to report. */
struct stream_session {
	char peer[64];			/* the client's address, numeric */
	int rc;				/* 0, or -errno (-EBUSY: refused, too many) */
	char err[256];			/* why, when rc */
	struct stream_result res;
};

typedef void (*stream_session_fn)(void *arg, const struct stream_session *s);

struct stream_server {
	int lfd;			/* listening, from stream_listen() */
	int nsfd;			/* the namespace to serve in (-1: this one) */
	volatile sig_atomic_t *quit;	/* set (by the caller's SIGINT/SIGTERM handler)
					 * to stop; it ends the sessions in progress too */
	bool once;			/* serve one session, in this process */
	unsigned int max_sessions;	/* at once, each in a child process (0: the default) */
	unsigned int max_per_peer;	/* from one address, at once, sessions and
					 * requests awaited each (0: the default) */
	unsigned int peer_prefix6;	/* an IPv6 peer is its first this many bits
					 * (1..128; 0: STREAM_PREFIX6_DEFAULT) */
	uint64_t max_duration_ns;	/* the longest run a client may ask for
					 * (0: STREAM_MAX_DURATION_DEFAULT) */
	const char *token;		/* a client must send this one (NULL: any client) */
	stream_session_fn on_session;	/* each finished session, in the serving
					 * thread; may be NULL */
	void *arg;
};

/* A client's run: the server's control address and what to send. */
struct stream_client {
	struct sockaddr_storage addr;
	socklen_t alen;
	uint64_t size, duration_ns;
	double rate_pps;		/* datagrams/s each sender offers (core/pace.h);
					 * 0: as fast as it can, netperf's way */
	const char *token;		/* sent in HELLO (NULL: none) */
	int cpu, server_cpu;		/* the CPU the sender, and the server's
					 * session, run on (-1: where they may) */
	volatile sig_atomic_t *stop;	/* ends the sending early (Ctrl-C) */
	/* Called in the client's thread as the sending starts (end false)
	 * and as it ends (end true): the window a DUT's CPU cost is read
	 * over. NULL: none. */
	void (*window)(void *arg, bool end);
	void *window_arg;
};

/* An IPv4 or IPv6 address written as numbers (an IPv6 one may have a
 * %scope) into a, with port. 0, or -EINVAL with a message. */
int stream_addr_parse(const char *s, uint16_t port, struct sockaddr_storage *a, socklen_t *alen, char *err,
		      size_t errlen);
/* A listening socket in the calling thread's namespace, on a (port
 * included), or with a NULL on port (0: any) of every address: IPv6 with
 * IPv4 mapped, else IPv4. The fd or -errno (-EADDRINUSE, -EACCES,
 * -EADDRNOTAVAIL: the address or port is not to be had). */
int stream_listen(const struct sockaddr_storage *a, socklen_t alen, uint16_t port, char *err, size_t errlen);
/* The port a socket is bound to; 0 when unknown. */
uint16_t stream_local_port(int fd);

/* Serve sessions until *quit, or one with once. Concurrent sessions run in
 * child processes of their own (netserver's way), at most max_sessions,
 * max_per_peer from one address (IPv6: one peer_prefix6 network); when
 * the requests awaited fill their slots, the oldest is turned away for a
 * new connection (so connections that never send their request cannot
 * keep a real client out); a client beyond, or one whose request
 * is bad, late, too long or without the token, is told so in one line and
 * reported with its -errno (-EBUSY, -EPROTO, -ETIMEDOUT, -EPERM, -EACCES).
 * On quit the children are stopped (SIGTERM, then SIGKILL past a bound)
 * and reaped before this returns. With once, the 0 or -errno (with err)
 * of the first session allowed (those turned away do not end it); else
 * 0, or -errno when the server could not start. */
int stream_server_run(const struct stream_server *s, char *err, size_t errlen);

/* Give up root for the user named (its uid and gid, no supplementary
 * groups, no new privileges), once every socket that needed root is
 * made. 0, or -errno: -ENOENT no such user, -EINVAL the user is root,
 * -EPERM not root. */
int stream_server_drop_root(const char *user, char *err, size_t errlen);

/* Resolve host (name or address) and port into c's control address; addr
 * gets it numeric. 0, or -EINVAL with a message. */
int stream_resolve(struct stream_client *c, const char *host, uint16_t port, char *addr, size_t addrlen,
		   char *err, size_t errlen);
/* One session against the server at c->addr, the sockets made in the
 * namespace nsfd (-1: this one): connect, HELLO, send for the duration (or
 * until *stop, r->interrupted set), END, the server's RESULT. 0 or -errno
 * with err; r holds what was measured either way. */
int stream_client_run(const struct stream_client *c, int nsfd, struct stream_result *r, char *err,
		      size_t errlen);

/* A server for one session in a thread of its own: listening in the
 * namespace nsfd (-1: this one) on a (NULL: every address), *port (0:
 * any; the one used comes back), for a run of at most max_duration_ns.
 * The lab's sink, a DUT's receiving end and a tester's end of a DUT's
 * sender all use it. 0, or -errno with err. */
struct stream_once;
int stream_once_start(int nsfd, const struct sockaddr_storage *a, socklen_t alen, uint16_t *port,
		      uint64_t max_duration_ns, struct stream_once **out, char *err, size_t errlen);
/* Stop it (a session still in progress ends too), join and free; NULL
 * is fine. */
void stream_once_stop(struct stream_once *o);

/* Lab mode: a server on 'ip' (IPv4) in namespace sink_nsfd, served by a
 * thread of its own for one session, and the client c (its size,
 * duration, stop and window; the address is made here) in gen_nsfd; *port is
 * the control port asked for (0: any) and comes back as the one used.
 * 0 or -errno with err; *in_session tells a failure of the session itself
 * from one of setting it up. */
int stream_lab_run(int gen_nsfd, int sink_nsfd, const uint8_t ip[4], uint16_t *port, const struct stream_client *c,
		   struct stream_result *r, bool *in_session, char *err, size_t errlen);

#endif
