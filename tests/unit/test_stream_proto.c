#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "engine/stream_proto.h"

static char err[256];

static void hello_versions(void **st)
{
	struct stream_hello h;
	char line[STREAM_LINE_MAX];

	assert_int_equal(stream_proto_hello_parse("HELLO size=1025 duration_ms=10000", &h, err, sizeof(err)), 0);
	assert_int_equal(h.version, 1);
	assert_int_equal(h.size, 1025);
	assert_int_equal(h.duration_ms, 10000);
	assert_int_equal(h.data_port, 0);
	assert_string_equal(h.token, "");
	assert_int_equal(h.cpu, -1);
	/* netperf's -T for the server's session */
	assert_int_equal(stream_proto_hello_parse("HELLO size=64 duration_ms=500 version=2 port=1 cpu=4095", &h, err,
					    sizeof(err)), 0);
	assert_int_equal(h.cpu, 4095);
	assert_int_equal(stream_proto_hello_parse("HELLO size=64 duration_ms=500 version=2 port=1 cpu=4096", &h, err,
					    sizeof(err)), -ERANGE);
	assert_int_not_equal(stream_proto_hello_parse("HELLO size=64 duration_ms=500 version=2 port=1 cpu=-1", &h, err,
						sizeof(err)), 0);
	assert_int_equal(stream_proto_hello_parse("HELLO size=64 duration_ms=500 version=2 port=40000 token=s3cr=t", &h, err,
					    sizeof(err)), 0);
	assert_int_equal(h.version, 2);
	assert_int_equal(h.data_port, 40000);
	assert_string_equal(h.token, "s3cr=t");
	/* keys of later versions are ignored */
	assert_int_equal(stream_proto_hello_parse("HELLO size=64 duration_ms=500 version=3 port=1 future_key=x", &h, err,
					    sizeof(err)), 0);
	assert_int_equal(h.version, 3);
	/* written and read back */
	h = (struct stream_hello){ .version = 2, .size = 9, .duration_ms = 7, .data_port = 65535, .cpu = -1 };
	strcpy(h.token, "tok");
	assert_true(stream_proto_hello_format(&h, line, sizeof(line)) > 0);
	assert_string_equal(line, "HELLO size=9 duration_ms=7 version=2 port=65535 token=tok\n");
	h.cpu = 3;
	assert_true(stream_proto_hello_format(&h, line, sizeof(line)) > 0);
	assert_string_equal(line, "HELLO size=9 duration_ms=7 version=2 port=65535 token=tok cpu=3\n");
	line[strlen(line) - 1] = '\0';
	assert_int_equal(stream_proto_hello_parse(line, &h, err, sizeof(err)), 0);
	assert_int_equal(h.cpu, 3);
	assert_int_equal(stream_proto_hello_format(&h, line, 20), -ENOSPC);
}

static void hello_refused(void **st)
{
	static const char *const bad[] = {
		"HELLO size=-1 duration_ms=1",	/* sscanf's %u took this */
		"HELLO size= 1 duration_ms=1",
		"HELLO  size=1 duration_ms=1",
		"HELLO size=1 duration_ms=1 ",
		"HELLO size=1",
		"HELLO size=1 size=2 duration_ms=1",
		"HELLO size=0x10 duration_ms=1",
		"HELLO size=1 duration_ms=99999999999999999999",
		"HELLO size=1 duration_ms=18446744073710",	/* ns would wrap */
		"HELLO size=1 duration_ms=1 version=2",	/* no data port */
		"HELLO size=1 duration_ms=1 version=0",
		"HELLO size=1 duration_ms=1 version=2 port=65536",
		"HELLOsize=1 duration_ms=1",
		"hello size=1 duration_ms=1",
		"HELLO size=1 duration_ms=1 token=a\tb",
		"",
	};
	struct stream_hello h;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (!stream_proto_hello_parse(bad[i], &h, err, sizeof(err)))
			fail_msg("accepted '%s'", bad[i]);
		assert_true(err[0]);
	}
	/* the message names what was wrong, never the token */
	assert_int_not_equal(stream_proto_hello_parse("HELLO size=x duration_ms=1 token=hunter2", &h, err, sizeof(err)), 0);
	assert_null(strstr(err, "hunter2"));
}

static void replies(void **st)
{
	struct stream_reply r;
	struct stream_counts c = { 1, 2, 3, 4, 5 }, d;
	char line[STREAM_LINE_MAX];

	assert_int_equal(stream_proto_reply_parse("OK port=5000 rcvbuf=212992", &r), 0);
	assert_int_equal(r.kind, STREAM_REPLY_OK);
	assert_int_equal(r.port, 5000);
	assert_int_equal(r.rcvbuf, 212992);
	assert_int_equal(r.version, 1);
	assert_int_equal(stream_proto_reply_parse("OK port=5000 rcvbuf=1 version=2", &r), 0);
	assert_int_equal(r.version, 2);
	assert_int_not_equal(stream_proto_reply_parse("OK port=0 rcvbuf=1", &r), 0);
	assert_int_not_equal(stream_proto_reply_parse("OK port=1 rcvbuf=2147483648", &r), 0);
	assert_int_equal(stream_proto_reply_parse("ERR busy max_sessions=16", &r), 0);
	assert_int_equal(r.kind, STREAM_REPLY_BUSY);
	assert_int_equal(r.limit, 16);
	assert_int_equal(stream_proto_reply_parse("ERR busy per_peer=2", &r), 0);
	assert_int_equal(r.kind, STREAM_REPLY_PER_PEER);
	assert_int_equal(r.limit, 2);
	assert_int_equal(stream_proto_reply_parse("ERR duration max_ms=60000", &r), 0);
	assert_int_equal(r.kind, STREAM_REPLY_DURATION);
	assert_int_equal(r.limit, 60000);
	assert_int_equal(stream_proto_reply_parse("ERR auth", &r), 0);
	assert_int_equal(r.kind, STREAM_REPLY_AUTH);
	assert_int_equal(stream_proto_reply_parse("ERR \x1b]0;title\x07 \xff", &r), 0);
	assert_int_equal(r.kind, STREAM_REPLY_ERR);
	assert_string_equal(r.text, "\\x1b]0;title\\x07 \\xff");
	assert_int_not_equal(stream_proto_reply_parse("ERRbusy", &r), 0);
	assert_int_not_equal(stream_proto_reply_parse("SSH-2.0-OpenSSH", &r), 0);
	assert_true(stream_proto_result_format(&c, line, sizeof(line)) > 0);
	line[strlen(line) - 1] = '\0';
	assert_int_equal(stream_proto_result_parse(line, &d), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	assert_int_not_equal(stream_proto_result_parse("RESULT msgs=1 bytes=2 elapsed_ns=3 rcvbuf=4", &d), 0);
	/* the server's CPU: both keys or neither, a share within 0..1e6 */
	assert_int_equal(stream_proto_result_parse("RESULT msgs=1 bytes=2 elapsed_ns=3 rcvbuf=4 drops=0", &d), 0);
	assert_int_equal(d.cpus, 0);
	c.cpus = 2;
	c.busy_ppm = 1000000;
	assert_true(stream_proto_result_format(&c, line, sizeof(line)) > 0);
	assert_non_null(strstr(line, " cpus=2 busy_ppm=1000000\n"));
	line[strlen(line) - 1] = '\0';
	assert_int_equal(stream_proto_result_parse(line, &d), 0);
	assert_memory_equal(&c, &d, sizeof(c));
	assert_int_not_equal(stream_proto_result_parse("RESULT msgs=1 bytes=2 elapsed_ns=3 rcvbuf=4 drops=0 cpus=1", &d), 0);
	assert_int_not_equal(stream_proto_result_parse("RESULT msgs=1 bytes=2 elapsed_ns=3 rcvbuf=4 drops=0 busy_ppm=1", &d), 0);
	assert_int_not_equal(stream_proto_result_parse("RESULT msgs=1 bytes=2 elapsed_ns=3 rcvbuf=4 drops=0 cpus=0 busy_ppm=1",
						 &d), 0);
	assert_int_not_equal(stream_proto_result_parse("RESULT msgs=1 bytes=2 elapsed_ns=3 rcvbuf=4 drops=0 cpus=1 "
						 "busy_ppm=1000001", &d), 0);
	uint64_t sent;
	/* the store's range: a signed 64-bit count, never a -1 stored */
	assert_int_equal(stream_proto_end_parse("END sent=9223372036854775807", &sent), 0);
	assert_true(sent == INT64_MAX);
	assert_int_not_equal(stream_proto_end_parse("END sent=9223372036854775808", &sent), 0);
	assert_int_not_equal(stream_proto_end_parse("END sent=18446744073709551615", &sent), 0);
	assert_int_not_equal(stream_proto_end_parse("END sent=18446744073709551616", &sent), 0);
	assert_int_not_equal(stream_proto_result_parse("RESULT msgs=18446744073709551615 bytes=2 elapsed_ns=3 rcvbuf=4 drops=0",
						 &d), 0);
	assert_int_not_equal(stream_proto_result_parse("RESULT msgs=1 bytes=9223372036854775808 elapsed_ns=3 rcvbuf=4 drops=0",
						 &d), 0);
	assert_int_not_equal(stream_proto_result_parse("RESULT msgs=1 bytes=2 elapsed_ns=3 rcvbuf=4 drops=18446744073709551615",
						 &d), 0);
	assert_int_equal(stream_proto_result_parse("RESULT msgs=9223372036854775807 bytes=2 elapsed_ns=3 rcvbuf=4 drops=0", &d),
			 0);
}

static void quoting(void **st)
{
	char q[4 * STREAM_QUOTE_MAX + 8], longer[200];

	stream_proto_quote("a\x1b[31mb\\c\xff\n", q, sizeof(q));
	assert_string_equal(q, "a\\x1b[31mb\\x5cc\\xff\\x0a");
	stream_proto_quote("HELLO size=1 token=hunter2 x=1", q, sizeof(q));
	assert_string_equal(q, "HELLO size=1 token=...");
	memset(longer, 'x', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	stream_proto_quote(longer, q, sizeof(q));
	assert_int_equal(strlen(q), STREAM_QUOTE_MAX + 3);
	assert_string_equal(q + STREAM_QUOTE_MAX, "...");
	/* a small buffer: cut, still terminated */
	stream_proto_quote("\xff\xff\xff\xff", q, 9);
	assert_true(strlen(q) < 9);
	for (size_t i = 0; q[i]; i++)
		assert_true(q[i] >= 0x20 && q[i] < 0x7f);
}

static void tokens(void **st)
{
	char path[] = "/tmp/wr-token.XXXXXX", tok[STREAM_TOKEN_MAX + 1];
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_true(stream_proto_token_equal("abc", "abc"));
	assert_false(stream_proto_token_equal("abc", "abd"));
	assert_false(stream_proto_token_equal("abc", "abcd"));
	assert_false(stream_proto_token_equal("", "a"));
	assert_int_equal(stream_proto_token_check("", err, sizeof(err)), -EINVAL);
	assert_int_equal(stream_proto_token_check("a b", err, sizeof(err)), -EINVAL);
	assert_int_equal(stream_proto_token_check("ok-token", err, sizeof(err)), 0);

	assert_int_equal(write(fd, "s3cret-Token\n", 13), 13);
	fchmod(fd, 0600);
	assert_int_equal(stream_proto_token_load(path, tok, sizeof(tok), err, sizeof(err)), 0);
	assert_string_equal(tok, "s3cret-Token");
	/* open to others: refused, the token never in the message */
	fchmod(fd, 0604);
	assert_int_equal(stream_proto_token_load(path, tok, sizeof(tok), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "open to others"));
	assert_null(strstr(err, "s3cret"));
	fchmod(fd, 0600);
	assert_int_equal(ftruncate(fd, 0), 0);
	assert_int_equal(stream_proto_token_load(path, tok, sizeof(tok), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "empty"));
	assert_int_equal(pwrite(fd, "two words\n", 10, 0), 10);
	assert_int_equal(stream_proto_token_load(path, tok, sizeof(tok), err, sizeof(err)), -EINVAL);
	assert_null(strstr(err, "words"));
	assert_int_equal(stream_proto_token_load("/tmp", tok, sizeof(tok), err, sizeof(err)), -EINVAL);
	assert_int_equal(stream_proto_token_load("/nonexistent/x", tok, sizeof(tok), err, sizeof(err)), -ENOENT);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hello_versions),
		cmocka_unit_test(hello_refused),
		cmocka_unit_test(replies),
		cmocka_unit_test(quoting),
		cmocka_unit_test(tokens),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
