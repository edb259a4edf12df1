/* A stream's workflow without sockets. Several senders at once: each
 * runs in a thread of its own with its CPU, the DUT watch's window opens
 * once before the first and closes once after the last, and the total
 * adds the senders up (each sender is a function that fills in its
 * figures). The options' rules: which end each option belongs to, and
 * what follows from them (the mode, -i's default, the senders' CPUs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/stream_client.h"
#include "app/stream_senders.h"
#include "core/ns.h"

struct watch {
	pthread_mutex_t lock;
	int starts, ends, inside, most_inside;
};

struct fake {
	struct watch *w;
	pthread_t seen[STREAMRUN_MAX];
	int fail;			/* this sender fails (-1: none) */
};

static void edge(void *arg, bool end)
{
	struct watch *w = arg;

	pthread_mutex_lock(&w->lock);
	if (end)
		w->ends++;
	else
		w->starts++;
	pthread_mutex_unlock(&w->lock);
}

static int fake_one(void *arg, unsigned int i, const struct stream_client *c, struct stream_result *r, char *err,
		    size_t errlen)
{
	struct fake *f = arg;

	f->seen[i] = pthread_self();
	c->window(c->window_arg, false);
	usleep(20000);		/* all are inside at once */
	r->sent = 100 + i;
	r->sent_bytes = (100 + i) * 1000;
	r->send_ns = 1000000000 + i;
	r->recv = 90 + i;
	r->recv_bytes = (90 + i) * 1000;
	r->recv_ns = 2000000000 - i;
	r->drops = 1;
	r->sndbuf = 7;
	r->rcvbuf = 8;
	r->send_cpu = (struct stream_cpu){ .ncpus = 1, .cpu = c->cpu, .busy = 0.5 + 0.1 * i };
	r->recv_cpu = (struct stream_cpu){ .ncpus = 4, .cpu = -1, .busy = 0.25 };
	c->window(c->window_arg, true);
	if ((int)i == f->fail) {
		snprintf(err, errlen, "sender %u broke", i);
		return -EPIPE;
	}
	return 0;
}

static void many_and_total(void **st)
{
	struct watch w = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct fake f = { .w = &w, .fail = -1 };
	struct stream_client c = { .cpu = -1, .server_cpu = -1, .window = edge, .window_arg = &w };
	struct stream_sender s[3];
	struct stream_result t;
	int cpus[3] = { 2, 0, 1 };

	(void)st;
	assert_int_equal(app_stream_senders_many(&c, 3, cpus, fake_one, &f, s), -1);
	/* the window: once each way, around them all */
	assert_int_equal(w.starts, 1);
	assert_int_equal(w.ends, 1);
	/* each in a thread of its own, with its CPU */
	assert_false(pthread_equal(f.seen[0], f.seen[1]));
	assert_false(pthread_equal(f.seen[1], f.seen[2]));
	for (int i = 0; i < 3; i++) {
		assert_int_equal(s[i].rc, 0);
		assert_int_equal(s[i].cpu, cpus[i]);
		assert_int_equal(s[i].r.send_cpu.cpu, cpus[i]);
	}
	app_stream_senders_total(s, 3, &t);
	assert_true(t.sent == 303 && t.sent_bytes == 303000 && t.recv == 273 && t.recv_bytes == 273000);
	assert_true(t.drops == 3 && t.sndbuf == 7 && t.rcvbuf == 8);
	assert_true(t.send_ns == 1000000002 && t.recv_ns == 2000000000);
	/* three distinct CPUs, the mean of their shares */
	assert_int_equal(t.send_cpu.ncpus, 3);
	assert_int_equal(t.send_cpu.cpu, -1);
	assert_true(t.send_cpu.busy > 0.5999 && t.send_cpu.busy < 0.6001);
	/* the host's CPUs each time: as many as one said */
	assert_int_equal(t.recv_cpu.ncpus, 4);
	assert_true(t.recv_cpu.busy > 0.2499 && t.recv_cpu.busy < 0.2501);
}

static void one_here_and_failures(void **st)
{
	struct watch w = { .lock = PTHREAD_MUTEX_INITIALIZER };
	struct fake f = { .w = &w, .fail = -1 };
	struct stream_client c = { .cpu = 5, .server_cpu = -1, .window = edge, .window_arg = &w };
	struct stream_sender s[4];
	struct stream_result t;

	(void)st;
	/* one sender runs in the caller's thread, with the client's CPU
	 * replaced by the one given (none: not pinned) */
	assert_int_equal(app_stream_senders_many(&c, 1, NULL, fake_one, &f, s), -1);
	assert_true(pthread_equal(f.seen[0], pthread_self()));
	assert_int_equal(s[0].cpu, -1);
	assert_int_equal(w.starts + w.ends, 2);
	/* a failure is told by index, the others still run and count */
	f.fail = 2;
	assert_int_equal(app_stream_senders_many(&c, 4, NULL, fake_one, &f, s), 2);
	assert_int_equal(s[2].rc, -EPIPE);
	assert_string_equal(s[2].err, "sender 2 broke");
	assert_int_equal(s[3].rc, 0);
	/* a sender's end not measured: the total has no figure for it */
	s[1].r.recv_cpu.ncpus = 0;
	app_stream_senders_total(s, 4, &t);
	assert_int_equal(t.recv_cpu.ncpus, 0);
	assert_int_equal(t.send_cpu.ncpus, 1);	/* all four not pinned: one "CPU", cpu -1 */
	/* the same CPU twice is one CPU, its share the mean of both */
	s[0].r.send_cpu = (struct stream_cpu){ .ncpus = 1, .cpu = 3, .busy = 0.2 };
	s[1].r.send_cpu = (struct stream_cpu){ .ncpus = 1, .cpu = 3, .busy = 0.4 };
	app_stream_senders_total(s, 2, &t);
	assert_int_equal(t.send_cpu.ncpus, 1);
	assert_int_equal(t.send_cpu.cpu, 3);
	assert_true(t.send_cpu.busy > 0.2999 && t.send_cpu.busy < 0.3001);
	/* out of range */
	assert_int_equal(app_stream_senders_many(&c, 0, NULL, fake_one, &f, s), 0);
	assert_int_equal(s[0].rc, -EINVAL);
}

/* op checked: its error, or "" when it passes. */
static const char *check(struct app_stream_opts *op)
{
	static char err[512];

	err[0] = 0;
	if (app_stream_client_check(op, err, sizeof(err)))
		assert_true(err[0] != 0);
	else
		assert_string_equal(err, "");
	return err;
}

static void rules(void **state)
{
	struct app_stream_opts op;

	(void)state;
	/* nothing given: lab mode, one unpinned sender, one run */
	app_stream_client_defaults(&op);
	assert_string_equal(check(&op), "");
	assert_int_equal(op.mode, APP_STREAM_LAB);
	assert_int_equal(op.nsend, 1);
	assert_int_equal(op.send_cpu[0], -1);
	assert_int_equal(op.iter_max, 0);
	assert_int_equal(op.size, APP_STREAM_SIZE_DEFAULT);
	assert_int_equal(op.port, STREAM_PORT);
	/* the ends exclude each other, and each option has its end */
	app_stream_client_defaults(&op);
	op.server = true;
	op.host = "198.18.0.1";
	assert_string_equal(check(&op), "--server and --client exclude each other");
	app_stream_client_defaults(&op);
	op.host = "198.18.0.1";
	op.once = true;
	assert_string_equal(check(&op), "--once applies to --server only");
	app_stream_client_defaults(&op);
	op.server = true;
	op.have_size = true;
	assert_string_equal(check(&op),
			    "--message-size and --duration are the client's (the server takes them from it)");
	app_stream_client_defaults(&op);
	op.server = true;
	op.store.req.no_store = true;
	assert_string_equal(check(&op), "--db, --label, --tag and --no-store are the client's (it stores the runs)");
	app_stream_client_defaults(&op);
	op.token_file = "t";
	assert_string_equal(check(&op), "--token-file applies to --server and --client");
	/* the DUT's watch needs a DUT with --client; not so in lab mode */
	app_stream_client_defaults(&op);
	op.host = "198.18.0.1";
	op.soak = true;
	assert_string_equal(check(&op), "--soak: name the DUT the stream crosses with --dut");
	app_stream_client_defaults(&op);
	op.soak = true;
	assert_string_equal(check(&op), "");
	/* -I brings -i's default; -i alone is refused */
	app_stream_client_defaults(&op);
	op.conf_level = 95;
	assert_string_equal(check(&op), "");
	assert_int_equal(op.iter_max, APP_STREAM_ITER_DEFAULT_MAX);
	assert_int_equal(op.iter_min, APP_STREAM_ITER_DEFAULT_MIN);
	app_stream_client_defaults(&op);
	op.iter_max = 5;
	assert_string_equal(check(&op), "-i (--iterations) goes with -I (--confidence)");
}

static void rate_and_senders(void **state)
{
	struct app_stream_opts op;

	(void)state;
	/* --rate: bits/s count the payload; a rate that sends nothing in
	 * the run is refused */
	app_stream_client_defaults(&op);
	op.have_rate = true;
	op.rate = (struct rate){ .kind = RATE_BPS, .value = 8200 * 1000.0 };
	op.size = 1025;
	assert_true(app_stream_client_rate_pps(&op) > 999.99 && app_stream_client_rate_pps(&op) < 1000.01);
	assert_string_equal(check(&op), "");
	op.rate = (struct rate){ .kind = RATE_PPS, .value = 1 };
	op.duration_ns = 200 * NSEC_PER_MSEC;
	assert_string_equal(check(&op), "--rate 1 datagrams/s for -l 0.2 s sends no datagram");
	app_stream_client_defaults(&op);
	op.server = true;
	op.have_rate = true;
	op.rate = (struct rate){ .kind = RATE_PPS, .value = 1000 };
	assert_string_equal(check(&op), "--rate is the client's (lab mode or --client)");
	/* --threads: as many senders, each pinned as -T says */
	app_stream_client_defaults(&op);
	op.threads = 3;
	op.cpu = 0;
	op.have_bind_cpu = true;
	assert_string_equal(check(&op), "");
	assert_int_equal(op.nsend, 3);
	assert_int_equal(op.send_cpu[0], 0);
	assert_int_equal(op.send_cpu[2], 0);
	/* --cpus: one sender on each CPU, in order (CPU 0 is online) */
	app_stream_client_defaults(&op);
	cpuset_add(&op.cpus, 0);
	assert_string_equal(check(&op), "");
	assert_int_equal(op.nsend, 1);
	assert_int_equal(op.send_cpu[0], 0);
	assert_int_equal(op.send_cpu[1], -1);
	op.threads = 2;
	assert_string_equal(check(&op),
			    "--threads 2 and --cpus with 1 CPU(s): one sender per CPU, so as many of each");
	app_stream_client_defaults(&op);
	cpuset_add(&op.cpus, 0);
	op.cpu = 0;
	assert_string_equal(check(&op), "--cpus pins the senders: give -T ,REMOTE for the server's CPU only");
	/* a CPU that is not online here (none has 1023 on a test host) */
	app_stream_client_defaults(&op);
	cpuset_add(&op.cpus, 0);
	cpuset_add(&op.cpus, 1023);
	assert_non_null(strstr(check(&op), "--cpus: CPU 1023 is not online here (online: 0"));
	app_stream_client_defaults(&op);
	op.server_cpu = 1023;
	assert_non_null(strstr(check(&op), "-T: CPU 1023 is not online here"));
	op.host = "198.18.0.1";		/* the server's CPU is the server host's */
	assert_string_equal(check(&op), "");
	/* several senders in lab mode each have a server of their own */
	app_stream_client_defaults(&op);
	op.threads = 2;
	op.have_port = true;
	assert_string_equal(check(&op), "--port with several senders in lab mode: each sender's server picks a port");
}

/* netperf's -I, -i and -T values. */
static void netperf_values(void **state)
{
	struct app_stream_opts op;
	char err[256];

	(void)state;
	app_stream_client_defaults(&op);
	assert_int_equal(app_stream_client_confidence(&op, "99", err, sizeof(err)), 0);
	assert_int_equal(op.conf_level, 99);
	assert_true(op.conf_width == APP_STREAM_CONF_WIDTH);
	assert_int_equal(app_stream_client_confidence(&op, "95,2.5", err, sizeof(err)), 0);
	assert_true(op.conf_width == 2.5);
	assert_int_equal(app_stream_client_confidence(&op, "90", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_stream_client_confidence(&op, "95,51", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_stream_client_confidence(&op, "95,", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_stream_client_confidence(&op, "95x", err, sizeof(err)), -EINVAL);
	/* -i: MIN defaults to 3, or to MAX below it */
	assert_int_equal(app_stream_client_iterations(&op, "10", err, sizeof(err)), 0);
	assert_int_equal(op.iter_max, 10);
	assert_int_equal(op.iter_min, 3);
	assert_int_equal(app_stream_client_iterations(&op, "2", err, sizeof(err)), 0);
	assert_int_equal(op.iter_min, 2);
	assert_int_equal(app_stream_client_iterations(&op, "8,5", err, sizeof(err)), 0);
	assert_int_equal(op.iter_min, 5);
	assert_int_equal(app_stream_client_iterations(&op, "5,6", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_stream_client_iterations(&op, "31", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_stream_client_iterations(&op, "2.5", err, sizeof(err)), -EINVAL);
	/* -T: both ends, the sender only, the server only */
	app_stream_client_defaults(&op);
	assert_int_equal(app_stream_client_bind_cpu(&op, "1", err, sizeof(err)), 0);
	assert_int_equal(op.cpu, 1);
	assert_int_equal(op.server_cpu, 1);
	assert_true(op.have_bind_cpu);
	app_stream_client_defaults(&op);
	assert_int_equal(app_stream_client_bind_cpu(&op, "2,", err, sizeof(err)), 0);
	assert_int_equal(op.cpu, 2);
	assert_int_equal(op.server_cpu, -1);
	app_stream_client_defaults(&op);
	assert_int_equal(app_stream_client_bind_cpu(&op, ",3", err, sizeof(err)), 0);
	assert_int_equal(op.cpu, -1);
	assert_int_equal(op.server_cpu, 3);
	assert_int_equal(app_stream_client_bind_cpu(&op, ",", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_stream_client_bind_cpu(&op, "1,2,3", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_stream_client_bind_cpu(&op, "-1", err, sizeof(err)), -EINVAL);
	assert_int_equal(app_stream_client_bind_cpu(&op, "4096", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "wants CPU numbers (0..4095): LOCAL,REMOTE, LOCAL, or ,REMOTE");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(many_and_total),
		cmocka_unit_test(one_here_and_failures),
		cmocka_unit_test(rules),
		cmocka_unit_test(rate_and_senders),
		cmocka_unit_test(netperf_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
