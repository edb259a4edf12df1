/* libFuzzer target for the stream control protocol's parsers (the lines a
 * network peer sends the server, and the server's to the client): any
 * byte sequence must be handled within bounds; what is accepted must be
 * written back to the same line, and quoted text must be printable ASCII
 * whatever came in. Build and run with tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stream_proto.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static void check_printable(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	CHECK(n < cap);
	for (size_t i = 0; i < n; i++)
		CHECK(s[i] >= 0x20 && s[i] < 0x7f);
}

static void check_hello(const char *line)
{
	struct stream_hello h, h2;
	char err[256], out[STREAM_LINE_MAX + 64];
	int n;

	if (stream_proto_hello_parse(line, &h, err, sizeof(err))) {
		check_printable(err, sizeof(err));
		return;
	}
	CHECK(h.version >= 1);
	CHECK(h.version < 2 || h.data_port);
	CHECK(!*h.token || !stream_proto_token_check(h.token, err, sizeof(err)));
	CHECK(stream_proto_token_equal(h.token, h.token));
	if (h.version < 2) {
		/* version 1 lines carry neither */
		h.data_port = 0;
		h.token[0] = '\0';
	}
	n = stream_proto_hello_format(&h, out, sizeof(out));
	CHECK(n > 0 && out[n - 1] == '\n');
	out[n - 1] = '\0';
	CHECK(!stream_proto_hello_parse(out, &h2, err, sizeof(err)));
	CHECK(h2.version == h.version && h2.size == h.size && h2.duration_ms == h.duration_ms &&
	      h2.data_port == h.data_port && !strcmp(h2.token, h.token));
}

static void check_reply(const char *line)
{
	struct stream_reply r;

	if (stream_proto_reply_parse(line, &r))
		return;
	CHECK(r.kind <= STREAM_REPLY_ERR);
	CHECK(r.kind != STREAM_REPLY_OK || (r.port && r.rcvbuf >= 0 && r.version >= 1));
	check_printable(r.text, sizeof(r.text));
}

static void check_result(const char *line)
{
	struct stream_counts c, c2;
	char out[STREAM_LINE_MAX];
	uint64_t sent;
	int n;

	/* a count read is one the store holds: never above 2^63-1 */
	if (!stream_proto_end_parse(line, &sent))
		CHECK(sent <= INT64_MAX);
	if (stream_proto_result_parse(line, &c))
		return;
	CHECK(c.msgs <= INT64_MAX && c.bytes <= INT64_MAX && c.elapsed_ns <= INT64_MAX && c.drops <= INT64_MAX);
	n = stream_proto_result_format(&c, out, sizeof(out));
	CHECK(n > 0);
	out[n - 1] = '\0';
	CHECK(!stream_proto_result_parse(out, &c2));
	CHECK(!memcmp(&c, &c2, sizeof(c)));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[STREAM_LINE_MAX], q[4 * STREAM_QUOTE_MAX + 8];
	size_t n = size < sizeof(line) - 1 ? size : sizeof(line) - 1;

	/* a line as stream_ctl_recv hands it over: up to its '\n' */
	memcpy(line, data, n);
	line[n] = '\0';
	if (memchr(line, '\n', n))
		*(char *)memchr(line, '\n', n) = '\0';
	check_hello(line);
	check_reply(line);
	check_result(line);
	stream_proto_quote(line, q, sizeof(q));
	check_printable(q, sizeof(q));
	/* any buffer size, down to none */
	stream_proto_quote(line, q, size ? data[0] % sizeof(q) : 0);
	if (size && data[0] % sizeof(q))
		check_printable(q, data[0] % sizeof(q));
	return 0;
}
