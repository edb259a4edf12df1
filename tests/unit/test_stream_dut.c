/* A stream's end on the DUT (app/stream_dut.c): the agent's side run on
 * pipes with requests a hostile or careless tester could send, and a real
 * run of its senders to a one-session server on loopback. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <netinet/in.h>

#include "app/stream_dut.h"
#include "dut/agent.h"
#include "engine/stream.h"

static char err[512];

/* The requests written to a pipe, the agent (with the stream end) run on
 * it, its answers split into lines (at most max). */
static int serve(const char *requests, char **line, int max, char **buf)
{
	static volatile sig_atomic_t stop;
	struct agent_cfg cfg = { .ext = app_stream_dut_ext() };
	int in[2], out[2], n = 0;
	ssize_t r, off = 0;
	char *save = NULL;

	*buf = calloc(1, 1 << 20);
	assert_int_equal(pipe(in), 0);
	assert_int_equal(pipe(out), 0);
	assert_int_equal(write(in[1], requests, strlen(requests)), (ssize_t)strlen(requests));
	close(in[1]);
	assert_int_equal(agent_serve(in[0], out[1], &cfg, &stop, err, sizeof(err)), 0);
	close(in[0]);
	close(out[1]);
	while ((r = read(out[0], *buf + off, (1 << 20) - 1 - off)) > 0)
		off += r;
	close(out[0]);
	for (char *t = strtok_r(*buf, "\n", &save); t && n < max; t = strtok_r(NULL, "\n", &save))
		line[n++] = t;
	return n;
}

#define HELLO "{\"op\":\"hello\",\"version\":1}\n"

static void hostile_requests(void **st)
{
	char *line[32], *buf;
	int n;

	(void)st;
	n = serve(HELLO
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[9],\"cpus\":[-1],\"size\":100,"
		  "\"duration_ns\":1000000000000}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[9],\"cpus\":[-1],\"size\":0,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[9],\"cpus\":[-1],\"size\":70000,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"8.8.8.8\",\"ports\":[9],\"cpus\":[-1],\"size\":100,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[],\"cpus\":[],\"size\":100,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[70000],\"cpus\":[-1],\"size\":100,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[9,10],\"cpus\":[-1],\"size\":100,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[9],\"cpus\":[4000],\"size\":100,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[9],\"cpus\":[-1],\"size\":100,"
		  "\"duration_ns\":1000000,\"rate_pps\":-5}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"not an address\",\"ports\":[9],\"cpus\":[-1],\"size\":100,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_sent\",\"wait_ms\":100}\n"
		  "{\"op\":\"stream_recv\",\"n\":65,\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_recv\",\"n\":1,\"duration_ns\":0}\n"
		  "{\"op\":\"stream_recv\",\"n\":1,\"duration_ns\":1000000,\"bind\":\"x\"}\n"
		  "{\"op\":\"stream_end\"}\n"
		  "{\"op\":\"bye\"}\n",
		  line, 32, &buf);
	assert_int_equal(n, 17);
	assert_non_null(strstr(line[0], "\"stream\":true"));	/* hello says it has the end */
	assert_non_null(strstr(line[1], "a run of at most 600 s"));
	assert_non_null(strstr(line[2], "a message size of 1..65507"));
	assert_non_null(strstr(line[3], "a message size of 1..65507"));
	assert_non_null(strstr(line[4], "sends only to"));
	assert_non_null(strstr(line[5], "ports: 1.."));
	assert_non_null(strstr(line[6], "ports: 1.."));
	assert_non_null(strstr(line[7], "cpus: one CPU"));
	assert_non_null(strstr(line[8], "CPU 4000 is not online on the DUT"));
	assert_non_null(strstr(line[9], "a rate of"));
	assert_non_null(strstr(line[10], "addr: "));
	for (int i = 1; i <= 10; i++)	/* each the tester's bad input */
		assert_non_null(strstr(line[i], "\"invalid\":true"));
	assert_non_null(strstr(line[11], "no stream is sending"));
	assert_non_null(strstr(line[12], "n: 1..64 servers"));
	assert_non_null(strstr(line[13], "a run of at most"));
	assert_non_null(strstr(line[14], "bind: "));
	/* an end with nothing running ends nothing */
	assert_string_equal(line[15], "{\"ok\":true,\"senders\":[]}");
	assert_string_equal(line[16], "{\"ok\":true}");
	free(buf);
}

/* Its senders really run: two to two one-session servers on loopback,
 * a second stream refused while they do, their figures at the end. */
static void senders_run(void **st)
{
	struct stream_once *srv[2];
	uint16_t port[2] = { 0, 0 };
	char req[2048], *line[16], *buf, *p;
	int n;

	(void)st;
	for (int i = 0; i < 2; i++)
		assert_int_equal(stream_once_start(-1, NULL, 0, &port[i], NSEC_PER_SEC, &srv[i], err, sizeof(err)), 0);
	snprintf(req, sizeof(req), HELLO
		 "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[%u,%u],\"cpus\":[-1,0],\"size\":200,"
		 "\"duration_ns\":300000000,\"rate_pps\":2000}\n"
		 "{\"op\":\"stream_recv\",\"n\":1,\"duration_ns\":1000000}\n"
		 "{\"op\":\"stream_sent\",\"wait_ms\":3000}\n"
		 "{\"op\":\"stream_end\"}\n"
		 "{\"op\":\"bye\"}\n", port[0], port[1]);
	n = serve(req, line, 16, &buf);
	assert_int_equal(n, 6);
	assert_non_null(strstr(line[1], "\"started\":true"));
	assert_non_null(strstr(line[2], "already running"));
	assert_non_null(strstr(line[3], "\"sent\":true"));
	/* each sender paced at 2000/s for 0.3 s: about 600 sent, all received */
	p = line[4];
	for (int i = 0; i < 2; i++) {
		unsigned long sent, recv;

		assert_non_null(p = strstr(p, "\"rc\":0"));
		assert_non_null(strstr(p, "\"sent\":"));
		sent = strtoul(strstr(p, "\"sent\":") + 7, NULL, 10);
		recv = strtoul(strstr(p, "\"recv\":") + 7, NULL, 10);
		assert_true(sent >= 400 && sent <= 700);
		assert_true(recv <= sent && recv >= sent * 9 / 10);
		p++;
	}
	free(buf);
	for (int i = 0; i < 2; i++)
		stream_once_stop(srv[i]);
}

/* A server on the DUT: its port said, stopped by the end. */
static void servers_start(void **st)
{
	char *line[8], *buf;
	int n;

	(void)st;
	n = serve(HELLO
		  "{\"op\":\"stream_recv\",\"n\":2,\"duration_ns\":1000000000,\"bind\":\"127.0.0.1\"}\n"
		  "{\"op\":\"stream_send\",\"addr\":\"127.0.0.1\",\"ports\":[9],\"cpus\":[-1],\"size\":100,"
		  "\"duration_ns\":1000000}\n"
		  "{\"op\":\"stream_end\"}\n"
		  "{\"op\":\"stream_recv\",\"n\":1,\"duration_ns\":1000000000}\n",
		  line, 8, &buf);
	/* the last is ended by the input's end, as a tester gone would */
	assert_int_equal(n, 5);
	assert_non_null(strstr(line[1], "\"ports\":["));
	assert_non_null(strstr(line[2], "already running"));
	assert_string_equal(line[3], "{\"ok\":true,\"senders\":[]}");
	assert_non_null(strstr(line[4], "\"ports\":["));
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_requests),
		cmocka_unit_test(senders_run),
		cmocka_unit_test(servers_start),
	};

	signal(SIGPIPE, SIG_IGN);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
