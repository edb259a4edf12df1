/* What stream.c and stream_server.c share; not for outside src/engine. */
#ifndef WR_ENGINE_STREAM_IMPL_H
#define WR_ENGINE_STREAM_IMPL_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/socket.h>

#include "engine/stream.h"
#include "engine/stream_proto.h"
#include "core/ns.h"

#define STREAM_BATCH 64
#define STREAM_GRACE_NS (500 * NSEC_PER_MSEC)	/* late datagrams counted after END */
#define STREAM_CTL_MS 5000		/* any control step but the run itself */
#define STREAM_END_NS (5 * NSEC_PER_SEC)	/* past the run's time, for the client's END */

/* Send one line; 0 or -errno. */
int stream_ctl_send(int fd, const char *line);
/* Read one line (without its '\n') within timeout_ms: 0, -ETIMEDOUT,
 * -ECONNRESET (closed) or -errno. */
int stream_ctl_recv(int fd, char *buf, size_t len, int timeout_ms);
/* An address as 16 bytes, IPv4 as IPv4-mapped IPv6, so that one client
 * is one key whichever family its socket is; the port left out. */
void stream_addr_key(const struct sockaddr_storage *a, uint8_t key[16]);
/* One session on an accepted control connection whose request h was
 * read and allowed, from peer, until it ends or *quit: 0 or -errno with
 * err; r holds what was counted. */
int stream_session_serve(int cfd, const struct stream_hello *h, const struct sockaddr_storage *peer,
			  volatile sig_atomic_t *quit, struct stream_result *r, char *err, size_t errlen);

#endif
