/* The stream control protocol's lines, parsed and written without any
 * socket, so that the fuzzer and the unit tests link them alone.
 *
 * A line is "VERB key=value key=value ...": single spaces, a key of
 * [a-z_], a value of printable ASCII without spaces, numbers in decimal
 * digits only. Keys a side does not know are ignored, so that each side
 * may add some; a key given twice is refused. The lines, by version:
 *   1  HELLO size=S duration_ms=D
 *   2  HELLO size=S duration_ms=D version=2 port=U [token=T] [cpu=C]
 *      (U: the client's UDP port, on the address of its control
 *      connection; the server connects its data socket to it. C: the
 *      CPU the server's session runs on, netperf's -T)
 *   OK port=P rcvbuf=B [version=2]
 *   ERR busy max_sessions=N | ERR busy per_peer=N | ERR duration max_ms=N
 *   ERR auth | ERR <text>
 *   END sent=N
 *   RESULT msgs=M bytes=Y elapsed_ns=E rcvbuf=B drops=D [cpus=N busy_ppm=P]
 *      (P: how busy the N CPUs the server measured were over its
 *      counting, in parts per million of their time; a server before
 *      these keys leaves them out)
 * A version 1 client (no version=) is still served where no token is
 * asked for; its data socket is then filtered by the client's address
 * only, not its port. A version 2 client ignores what an older server
 * leaves out of OK. */
#ifndef WR_ENGINE_STREAM_PROTO_H
#define WR_ENGINE_STREAM_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STREAM_PROTO_VERSION 2
#define STREAM_LINE_MAX 256		/* a control line, its '\n' included */
#define STREAM_TOKEN_MAX 128		/* characters of a shared token */
#define STREAM_QUOTE_MAX 60
#define STREAM_CPU_MAX 4095		/* the highest CPU number a HELLO may name */		/* characters of a peer's text quoted in a message */

struct stream_hello {
	unsigned int version;		/* 1 where the line has no version= */
	uint64_t size, duration_ms;
	uint16_t data_port;		/* the client's UDP port (0: not given) */
	int cpu;			/* the CPU to serve on (-1: not given) */
	char token[STREAM_TOKEN_MAX + 1];	/* "": none given */
};

enum stream_reply_kind {
	STREAM_REPLY_OK,
	STREAM_REPLY_BUSY,		/* limit: the server's max_sessions */
	STREAM_REPLY_PER_PEER,		/* limit: sessions from one address */
	STREAM_REPLY_DURATION,		/* limit: the longest run, in ms */
	STREAM_REPLY_AUTH,		/* no token, or not the server's */
	STREAM_REPLY_ERR,		/* text: the rest of the line, quoted */
};

struct stream_reply {
	enum stream_reply_kind kind;
	unsigned int version;		/* the server's, from OK (1: not said) */
	uint16_t port;			/* OK: the server's data port */
	int rcvbuf;
	uint64_t limit;
	char text[4 * STREAM_QUOTE_MAX + 8];
};

struct stream_counts {
	uint64_t msgs, bytes, elapsed_ns, drops;
	int rcvbuf;
	unsigned int cpus;		/* CPUs measured (0: no CPU figure) */
	uint64_t busy_ppm;		/* their busy share, 0..1000000 */
};

/* Each parser takes one line without its '\n': 0, or -EPROTO with a
 * message that quotes none of a token (stream_proto_hello_parse: -ERANGE when
 * a number is out of range). */
int stream_proto_hello_parse(const char *line, struct stream_hello *h, char *err, size_t errlen);
int stream_proto_end_parse(const char *line, uint64_t *sent);
int stream_proto_reply_parse(const char *line, struct stream_reply *r);
int stream_proto_result_parse(const char *line, struct stream_counts *c);

/* Write a line, '\n' included, into buf: its length, or -ENOSPC. */
int stream_proto_hello_format(const struct stream_hello *h, char *buf, size_t len);
int stream_proto_result_format(const struct stream_counts *c, char *buf, size_t len);

/* A peer's text made safe to print: bytes outside printable ASCII and
 * the backslash as \xNN, at most STREAM_QUOTE_MAX of them (then "..."),
 * and nothing from "token=" on. buf always ends up NUL-terminated. */
void stream_proto_quote(const char *s, char *buf, size_t len);

/* 1..STREAM_TOKEN_MAX characters of printable ASCII but space: 0, or
 * -EINVAL with a message that does not quote it. */
int stream_proto_token_check(const char *tok, char *err, size_t errlen);
/* Equal tokens, in a time that does not depend on where they differ. */
bool stream_proto_token_equal(const char *a, const char *b);
/* A token from a file: a regular file not open to others (mode o-rwx),
 * its one line (a trailing newline dropped). 0, or -errno with a message
 * naming the file and never the token. */
int stream_proto_token_load(const char *path, char *tok, size_t len, char *err, size_t errlen);

#endif
