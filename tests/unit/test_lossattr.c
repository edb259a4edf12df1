/* Loss attribution from hand-made snapshots: every place, the double
 * counts it must avoid, the shared stack counters of two directions, the
 * cap when counters over-explain, a VM lab's taps and QEMU, and the text
 * line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/lossattr.h"

static struct dutsnap *snap(void)
{
	struct dutsnap *s = calloc(1, sizeof(*s));
	static const char *names[] = { "dut0", "dut1" };

	s->nif = 2;
	for (unsigned int i = 0; i < 2; i++) {
		snprintf(s->ifs[i].name, sizeof(s->ifs[i].name), "%s", names[i]);
		s->ifs[i].present = true;
	}
	s->stack.present = true;
	return s;
}

static void qd(struct dutsnap *s, const char *dev, const char *kind, uint32_t handle, uint32_t parent, uint64_t drops)
{
	struct dutsnap_qdisc *q = &s->qdisc[s->nqdisc++];

	snprintf(q->dev, sizeof(q->dev), "%s", dev);
	snprintf(q->kind, sizeof(q->kind), "%s", kind);
	q->handle = handle;
	q->parent = parent;
	q->drops = drops;
}

static void nft(struct dutsnap *s, uint64_t handle, uint64_t packets)
{
	struct dutsnap_nft *r = &s->nft[s->nnft++];

	snprintf(r->family, sizeof(r->family), "inet");
	snprintf(r->table, sizeof(r->table), "filter");
	snprintf(r->chain, sizeof(r->chain), "forward");
	r->handle = handle;
	r->packets = packets;
}

/* frames at place/detail in a, 0 when absent */
static uint64_t at(const struct lossattr *a, enum lossattr_place p, const char *detail)
{
	for (unsigned int i = 0; i < a->n; i++)
		if (a->e[i].place == p && (!detail || !strcmp(a->e[i].detail, detail)))
			return a->e[i].frames;
	return 0;
}

static struct lossattr_in one_dir(uint64_t sent, uint64_t rx, struct dutsnap *b, struct dutsnap *a)
{
	struct lossattr_in in = { .ndirs = 1, .before = b, .after = a };

	in.dir[0] = (struct lossattr_dir){ .sent = sent, .received = rx, .dut_in = "dut0", .dut_out = "dut1",
					   .out_feeds_rx = true };
	return in;
}

static void qdisc_tbf(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];
	char buf[256];

	(void)st;
	qd(b, "dut1", "tbf", 0x10000, 0xFFFFFFFF, 100);
	qd(a, "dut1", "tbf", 0x10000, 0xFFFFFFFF, 100 + 59879);
	qd(b, "dut0", "tbf", 0x10000, 0xFFFFFFFF, 0);	/* the other way: not ours */
	qd(a, "dut0", "tbf", 0x10000, 0xFFFFFFFF, 500);
	struct lossattr_in in = one_dir(120000, 120000 - 59879, b, a);

	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_true(out[0].have_dut);
	assert_int_equal(out[0].lost, 59879);
	assert_int_equal(out[0].n, 1);
	assert_int_equal(at(&out[0], LOSS_QDISC, "tbf on dut1"), 59879);
	assert_string_equal(lossattr_format(&out[0], buf, sizeof(buf)), "lost 59879: qdisc tbf on dut1 59879");
	free(b);
	free(a);
}

static void qdisc_tree(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];

	(void)st;
	/* mq adds its children up: each child keeps its own, mq none. */
	qd(b, "dut1", "mq", 0x10000, 0xFFFFFFFF, 0);
	qd(a, "dut1", "mq", 0x10000, 0xFFFFFFFF, 30);
	qd(b, "dut1", "fq_codel", 0x80010000, 0x10001, 0);
	qd(a, "dut1", "fq_codel", 0x80010000, 0x10001, 10);
	qd(b, "dut1", "fq_codel", 0x80020000, 0x10002, 0);
	qd(a, "dut1", "fq_codel", 0x80020000, 0x10002, 20);
	/* an ingress drop belongs to the ingress port's direction */
	qd(b, "dut0", "clsact", 0xFFFF0000, 0xFFFFFFF1, 0);
	qd(a, "dut0", "clsact", 0xFFFF0000, 0xFFFFFFF1, 5);
	struct lossattr_in in = one_dir(1000, 965, b, a);

	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_QDISC, "fq_codel 8002: on dut1"), 20);
	assert_int_equal(at(&out[0], LOSS_QDISC, "fq_codel 8001: on dut1"), 10);
	assert_int_equal(at(&out[0], LOSS_QDISC, "mq on dut1"), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "clsact on dut0"), 5);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	assert_int_equal(out[0].counted, 35);
	free(b);
	free(a);
}

/* A DUT behind a veth that pushed back: 4,000 frames of a 10,000-frame
 * load never sent, 6,000 sent and forwarded. The shortfall is the DUT's
 * ingress, and the text tells it from loss. */
static void held_back(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];
	char buf[256];

	(void)st;
	struct lossattr_in in = one_dir(10000, 6000, b, a);

	in.dir[0].held_back = 4000;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(out[0].lost, 4000);
	assert_int_equal(out[0].held_back, 4000);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "held back by dut0's full queue (back-pressure: never sent)"), 4000);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, ""), 0);
	assert_string_equal(lossattr_format(&out[0], buf, sizeof(buf)),
			    "short of the load by 4000 (lost 0, held back by the DUT 4000): dut-ingress held back by "
			    "dut0's full queue (back-pressure: never sent) 4000");
	dutsnap_clear(a);
	dutsnap_clear(b);
	free(a);
	free(b);
}

static void ingress(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];

	(void)st;
	a->ifs[0].rx_missed = 10;
	a->ifs[0].rx_fifo = 20;
	a->ifs[0].rx_over = 30;
	/* veth: its ring's drops are in rx_dropped too: counted once */
	a->ifs[0].rx_dropped = 400;
	a->ifs[0].ring_drops = 300;
	a->ifs[0].xdp_drops = 50;
	struct lossattr_in in = one_dir(10000, 10000 - 510, b, a);

	/* veth counts its ring's refusals at the sender (the tester's port)
	 * and in the receiver's rx_dropped: once, the larger */
	in.dir[0].ingress_refused = 7;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "missed on dut0"), 10);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "fifo on dut0"), 20);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "over on dut0"), 30);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "rx_dropped on dut0"), 400);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "ring on dut0"), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "XDP drop on dut0"), 50);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "ring of dut0 (refused at the tester's port)"), 0);
	assert_int_equal(out[0].counted, 510);
	assert_int_equal(out[0].over, 0);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	/* most first */
	assert_int_equal(out[0].e[0].frames, 400);
	in.dir[0].ingress_refused = 450;
	in.dir[0].received = 10000 - 560;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "ring of dut0 (refused at the tester's port)"), 450);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "rx_dropped on dut0"), 0);
	assert_int_equal(out[0].counted, 560);
	in.dir[0].ingress_refused = 0;
	in.dir[0].received = 10000 - 510;
	/* the ring's count larger than rx_dropped: the ring's */
	a->ifs[0].ring_drops = 600;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "ring on dut0"), 600);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "rx_dropped on dut0"), 0);
	/* two receive queues: the ring's drops named by queue */
	b->ifs[0].nqueue = a->ifs[0].nqueue = 2;
	a->ifs[0].queue[1].ring_drops = 600;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "ring on dut0 (queue 1 600)"), 600);
	a->ifs[0].queue[0].ring_drops = 2;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "ring on dut0 (queue 0 2, queue 1 600)"), 600);
	b->ifs[0].nqueue = a->ifs[0].nqueue = 0;
	/* an interface gone in between: nothing from it */
	a->ifs[0].present = false;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "ring on dut0"), 0);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 510);
	free(b);
	free(a);
}

static void stack(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];
	struct cpuset dut;

	(void)st;
	/* CPU 1 is the DUT's: 0x10 drops there, 0x1000 on CPU 0 (the
	 * tester's) are not the DUT's. rx_dropped 3 on dut0 is a backlog
	 * drop counted once, at the ingress. */
	b->proc_softnet = strdup("00000010 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
				 "00000010 fffffff0 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001\n");
	a->proc_softnet = strdup("00000010 00001000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000\n"
				 "00000010 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000000 00000001\n");
	a->ifs[0].rx_dropped = 3;
	nft(b, 5, 1000);
	nft(a, 5, 1000 + 200);
	nft(a, 9, 6);			/* added during the trial: all its counts */
	b->stack.ip_in_hdr_errors = 1;
	a->stack.ip_in_hdr_errors = 1 + 40;
	a->stack.icmp_out_time_excds = 30;	/* 30 TTL exceeded, 10 more header errors */
	a->stack.ip_in_no_routes = 4;
	a->stack.ip6_in_no_routes = 1;
	a->stack.ip_in_discards = 2;
	a->stack.ip6_out_discards = 2;
	a->stack.ip_in_addr_errors = 8;
	cpuset_zero(&dut);
	cpuset_add(&dut, 1);
	struct lossattr_in in = one_dir(100000, 100000 - 313 - 3, b, a);

	in.dut_cpus = &dut;
	assert_int_equal(lossattr_compute(&in, out), 0);
	/* 0xfffffff0 -> 0x00000000 wraps the 32-bit counter: 16 */
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "softnet backlog"), 16 - 3);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "rx_dropped on dut0"), 3);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "nft inet filter forward rule 5"), 200);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "nft inet filter forward rule 9"), 6);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "TTL exceeded"), 30);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "IP header errors"), 10);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "no route"), 5);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "IP discards"), 4);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "IP address errors"), 8);
	assert_int_equal(out[0].counted, 13 + 3 + 206 + 30 + 10 + 5 + 4 + 8);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 316 - out[0].counted);
	/* every CPU (no set): CPU 0's 0x1000 too */
	in.dut_cpus = NULL;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "softnet backlog"), 0x1000 + 16 - 3);
	dutsnap_clear(b);
	dutsnap_clear(a);
	free(b);
	free(a);
}

static void egress_and_tester(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];
	char buf[512];

	(void)st;
	/* dut1's tx_dropped 100: 60 + 15 of them the tester's receive port
	 * refused (veth counts them at the sender), 25 the DUT's own. */
	a->ifs[1].tx_dropped = 100;
	a->ifs[1].tx_errors = 2;
	struct lossattr_in in = one_dir(5000, 5000 - 100 - 2 - 4 - 1, b, a);

	in.dir[0].tester_refused = 60;
	in.dir[0].tester_if_drops = 15;
	in.dir[0].tester_rx_drops = 4;
	in.dir[0].tester_tx_errors = 1;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_EGRESS, "tx_dropped on dut1"), 25);
	assert_int_equal(at(&out[0], LOSS_DUT_EGRESS, "tx_errors on dut1"), 2);
	assert_int_equal(at(&out[0], LOSS_TESTER_RX, "receive port's ring (counted by dut1)"), 60);
	assert_int_equal(at(&out[0], LOSS_TESTER_RX, "receive interface"), 15);
	assert_int_equal(at(&out[0], LOSS_TESTER_RX, "receive ring"), 4);
	assert_int_equal(at(&out[0], LOSS_TESTER_TX, "transmit errors"), 1);
	assert_int_equal(out[0].counted, 107);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	lossattr_format(&out[0], buf, sizeof(buf));
	assert_string_equal(buf, "lost 107: tester-rx receive port's ring (counted by dut1) 60, dut-egress tx_dropped on "
				 "dut1 25, tester-rx receive interface 15, tester-rx receive ring 4, dut-egress "
				 "tx_errors on dut1 2, tester-tx transmit errors 1");
	free(b);
	free(a);
}

static void no_dut(void **st)
{
	struct lossattr out[LOSSATTR_MAX_DIRS];
	struct lossattr_in in = one_dir(1000, 900, NULL, NULL);
	char buf[128];

	(void)st;
	in.dir[0].tester_rx_drops = 30;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_false(out[0].have_dut);
	assert_string_equal(lossattr_format(&out[0], buf, sizeof(buf)),
			    "lost 100: tester-rx receive ring 30, unaccounted 70");
	/* nothing lost */
	in.dir[0].received = 1000;
	in.dir[0].tester_rx_drops = 0;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_string_equal(lossattr_format(&out[0], buf, sizeof(buf)), "lost 0");
	/* more received than sent (duplicates are not loss) */
	in.dir[0].received = 2000;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(out[0].lost, 0);
	in.ndirs = LOSSATTR_MAX_DIRS + 1;
	assert_int_equal(lossattr_compute(&in, out), -EINVAL);
	/* truncated text stays a string */
	in.ndirs = 1;
	in.dir[0].received = 10;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_string_equal(lossattr_format(&out[0], buf, 8), "lost 99");
}

static void over_explained(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];
	char buf[256];

	(void)st;
	/* other traffic through the DUT dropped too: 500 counted, 300 lost */
	qd(b, "dut1", "tbf", 0x10000, 0xFFFFFFFF, 0);
	qd(a, "dut1", "tbf", 0x10000, 0xFFFFFFFF, 500);
	struct lossattr_in in = one_dir(1000, 700, b, a);

	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(out[0].over, 200);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	lossattr_format(&out[0], buf, sizeof(buf));
	assert_non_null(strstr(buf, "over-explain by 200"));
	free(b);
	free(a);
}

static void two_directions(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];

	(void)st;
	/* dir 0 lost 900 (its own qdisc 300), dir 1 lost 300 (nothing of its
	 * own): the firewall's 900 go 600:300 by the loss left. */
	qd(b, "dut1", "tbf", 0x10000, 0xFFFFFFFF, 0);
	qd(a, "dut1", "tbf", 0x10000, 0xFFFFFFFF, 300);
	nft(a, 7, 900);
	struct lossattr_in in = { .ndirs = 2, .before = b, .after = a };

	in.dir[0] = (struct lossattr_dir){ .sent = 10000, .received = 9100, .dut_in = "dut0", .dut_out = "dut1" };
	in.dir[1] = (struct lossattr_dir){ .sent = 10000, .received = 9700, .dut_in = "dut1", .dut_out = "dut0" };
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_QDISC, "tbf on dut1"), 300);
	assert_int_equal(at(&out[1], LOSS_QDISC, NULL), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "nft inet filter forward rule 7"), 600);
	assert_int_equal(at(&out[1], LOSS_DUT_STACK, "nft inet filter forward rule 7"), 300);
	assert_true(out[1].e[0].shared);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	assert_int_equal(at(&out[1], LOSS_UNACCOUNTED, NULL), 0);
	/* odd counts: the parts still add up */
	a->nft[0].packets = 901;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, NULL) + at(&out[1], LOSS_DUT_STACK, NULL), 901);
	/* no loss left anywhere: by the loss (here dir 0 only) */
	in.dir[1].received = 10000;
	in.dir[0].received = 10000 - 300;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, NULL), 901);
	assert_int_equal(at(&out[1], LOSS_DUT_STACK, NULL), 0);
	assert_int_equal(out[0].over, 901);
	free(b);
	free(a);
}

/* Four ports one way (four directions): a shared counter goes to each by
 * the loss it has left, and the parts add up. */
static void four_ports(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr *out = calloc(LOSSATTR_MAX_DIRS, sizeof(*out));
	struct lossattr_in in = { .ndirs = 4, .before = b, .after = a };
	uint64_t sum = 0;

	(void)st;
	assert_non_null(out);
	nft(a, 9, 1001);
	for (unsigned int d = 0; d < 4; d++)
		in.dir[d] = (struct lossattr_dir){ .sent = 10000, .received = 10000 - 100 * (d + 1) };
	/* 100, 200, 300, 400 lost: 1000 to explain, 1001 counted */
	assert_int_equal(lossattr_compute(&in, out), 0);
	for (unsigned int d = 0; d < 4; d++) {
		uint64_t x = at(&out[d], LOSS_DUT_STACK, "nft inet filter forward rule 9");

		assert_in_range(x, 100 * (d + 1), 100 * (d + 1) + 1);
		sum += x;
	}
	assert_int_equal(sum, 1001);
	/* the most directions there can be, and one more */
	in.ndirs = LOSSATTR_MAX_DIRS;
	for (unsigned int d = 4; d < LOSSATTR_MAX_DIRS; d++)
		in.dir[d] = (struct lossattr_dir){ .sent = 10, .received = 10 };
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[LOSSATTR_MAX_DIRS - 1], LOSS_DUT_STACK, NULL), 0);
	in.ndirs = LOSSATTR_MAX_DIRS + 1;
	assert_int_equal(lossattr_compute(&in, out), -EINVAL);
	free(out);
	free(b);
	free(a);
}

static void add_full(void **st)
{
	struct lossattr a = { 0 };
	char d[32];
	uint64_t sum = 0;

	(void)st;
	for (unsigned int i = 0; i < 2 * LOSSATTR_MAX; i++) {
		snprintf(d, sizeof(d), "x%u", i);
		lossattr_add(&a, LOSS_DUT_STACK, d, i + 1);
		sum += i + 1;
	}
	lossattr_add(&a, LOSS_UNACCOUNTED, "", 5);
	assert_true(a.n <= LOSSATTR_MAX);
	assert_int_equal(a.e[a.n - 1].place, LOSS_UNACCOUNTED);
	uint64_t got = 0;

	for (unsigned int i = 0; i + 1 < a.n; i++) {
		got += a.e[i].frames;
		if (i)
			assert_true(a.e[i].frames <= a.e[i - 1].frames);
	}
	assert_int_equal(got, sum);
	assert_int_equal(a.counted, sum);
	enum lossattr_place p;

	assert_int_equal(lossattr_place_parse("qdisc", &p), 0);
	assert_int_equal(p, LOSS_QDISC);
	assert_int_equal(lossattr_place_parse("nowhere", &p), -EINVAL);
}

/* The one-line verdict: where most of the loss went, and how busy the
 * DUT's busiest CPU was. */
static void limit(void **st)
{
	struct lossattr a[2];
	struct lossattr_cpu_hint busy = { .known = true, .cpu = 1, .busy_pct = 97.5, .stall_ms = -1 };
	struct lossattr_cpu_hint idle = { .known = true, .cpu = 1, .busy_pct = 40, .stall_ms = 12.5 };
	uint64_t sent[2] = { 1000000, 1000000 };
	char buf[384];

	(void)st;
	memset(a, 0, sizeof(a));
	assert_int_equal(lossattr_limit(a, 1, sent, false, &busy, buf, sizeof(buf)), LIMIT_NONE);
	assert_int_equal(lossattr_limit(a, 1, sent, true, &busy, buf, sizeof(buf)), LIMIT_TESTER);
	/* the ring, a CPU saturated: its capacity */
	a[0].lost = 5000;
	lossattr_add(&a[0], LOSS_DUT_INGRESS, "ring on dut0", 4990);
	lossattr_add(&a[0], LOSS_QDISC, "tbf on dut1", 10);
	assert_int_equal(lossattr_limit(a, 1, sent, false, &busy, buf, sizeof(buf)), LIMIT_DUT_CPU);
	assert_non_null(strstr(buf, "CPU 1 busy 97.5%"));
	assert_non_null(strstr(buf, "4990 frames: ring on dut0"));
	/* the same loss with no CPU saturated: 5000 ppm is sporadic, 5% is not */
	assert_int_equal(lossattr_limit(a, 1, sent, false, &idle, buf, sizeof(buf)), LIMIT_DUT_AWAY);
	sent[0] = 100000;
	assert_int_equal(lossattr_limit(a, 1, sent, false, &idle, buf, sizeof(buf)), LIMIT_DUT_INGRESS);
	sent[0] = 1000000;
	/* 100 ppm of it is, with the stall said */
	memset(a, 0, sizeof(a));
	a[0].lost = 100;
	lossattr_add(&a[0], LOSS_DUT_INGRESS, "ring on dut0", 100);
	assert_int_equal(lossattr_limit(a, 1, sent, false, &idle, buf, sizeof(buf)), LIMIT_DUT_AWAY);
	assert_non_null(strstr(buf, "100 ppm"));
	assert_non_null(strstr(buf, "longest stall 12.5 ms"));
	/* no CPU figures: the ring, not a guess */
	assert_int_equal(lossattr_limit(a, 1, sent, false, NULL, buf, sizeof(buf)), LIMIT_DUT_INGRESS);
	/* most of it at a shaper, over both directions */
	memset(a, 0, sizeof(a));
	a[0].lost = 300;
	lossattr_add(&a[0], LOSS_DUT_INGRESS, "ring on dut0", 300);
	a[1].lost = 800;
	lossattr_add(&a[1], LOSS_QDISC, "tbf on dut0", 500);
	lossattr_add(&a[1], LOSS_UNACCOUNTED, "", 300);
	assert_int_equal(lossattr_limit(a, 2, sent, false, &busy, buf, sizeof(buf)), LIMIT_QDISC);
	assert_non_null(strstr(buf, "tbf on dut0 dropped 500"));
	/* most of it seen by no counter */
	memset(a, 0, sizeof(a));
	a[0].lost = 900;
	lossattr_add(&a[0], LOSS_DUT_STACK, "nft inet filter forward rule 5", 100);
	lossattr_add(&a[0], LOSS_UNACCOUNTED, "", 800);
	assert_int_equal(lossattr_limit(a, 1, sent, false, &busy, buf, sizeof(buf)), LIMIT_UNKNOWN);
	a[0].n = 0;
	lossattr_add(&a[0], LOSS_DUT_STACK, "nft inet filter forward rule 5", 900);
	assert_int_equal(lossattr_limit(a, 1, sent, false, &busy, buf, sizeof(buf)), LIMIT_DUT_STACK);
	assert_string_equal(lossattr_limit_name(LIMIT_DUT_AWAY), "dut-away");
	assert_string_equal(lossattr_limit_name((enum lossattr_limit_by)99), "unknown");
}

/* A VM lab: the tester's ports are taps, QEMU at their other ends. Of
 * 10,000 frames put on gen0, QEMU read 7,000 (the tap's queue was full
 * for the rest), the guest's dut0 took 6,990 of those (5 of them its
 * ring dropped), a rule in the guest dropped 20, dut1 sent 6,965 and
 * QEMU wrote 6,960 into sink0. Every frame has its hop, each hop its
 * owner; the tap's own tx_dropped, which misses frames, is not read. */
static struct lossattr_in vm_dir(struct dutsnap *b, struct dutsnap *a)
{
	struct lossattr_in in = one_dir(10000, 6960, b, a);

	in.dir[0].out_feeds_rx = false;
	in.dir[0].taps = true;
	in.dir[0].tap_in = "gen0";
	in.dir[0].tap_out = "sink0";
	in.dir[0].tap_read = 7000;
	in.dir[0].tap_written = 6960;
	a->ifs[0].rx_packets = 6985;
	a->ifs[0].rx_dropped = 5;
	a->ifs[1].tx_packets = 6965;
	nft(b, 5, 0);
	nft(a, 5, 20);
	return in;
}

static void vm_taps(void **st)
{
	struct dutsnap *b = snap(), *a = snap();
	struct lossattr out[2];
	struct lossattr_cpu_hint busy = { .known = true, .cpu = 0, .busy_pct = 97.5, .stall_ms = -1 };
	uint64_t sent[1] = { 10000 };
	enum lossattr_place p;
	char buf[512];

	(void)st;
	struct lossattr_in in = vm_dir(b, a);

	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(out[0].lost, 3040);
	assert_int_equal(at(&out[0], LOSS_LAB_TAP, "queue of gen0 full: QEMU did not read them in time"), 3000);
	assert_int_equal(at(&out[0], LOSS_LAB_QEMU, "read from gen0, never in dut0's ring"), 10);
	assert_int_equal(at(&out[0], LOSS_DUT_INGRESS, "rx_dropped on dut0"), 5);
	assert_int_equal(at(&out[0], LOSS_DUT_STACK, "nft inet filter forward rule 5"), 20);
	assert_int_equal(at(&out[0], LOSS_LAB_QEMU, "sent by dut1, never written into sink0"), 5);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	assert_int_equal(out[0].counted, 3040);
	assert_string_equal(lossattr_format(&out[0], buf, sizeof(buf)),
			    "lost 3040: lab-tap queue of gen0 full: QEMU did not read them in time 3000, dut-stack nft "
			    "inet filter forward rule 5 20, lab-qemu read from gen0, never in dut0's ring 10, "
			    "lab-qemu sent by dut1, never written into sink0 5, dut-ingress rx_dropped on dut0 5; "
			    "the DUT's (guest kernel) 25, the lab's (tap, QEMU) 3015");
	/* whose each place is */
	assert_string_equal(lossattr_place_owner(LOSS_LAB_TAP), "lab");
	assert_string_equal(lossattr_place_owner(LOSS_LAB_QEMU), "lab");
	assert_string_equal(lossattr_place_owner(LOSS_DUT_INGRESS), "dut");
	assert_string_equal(lossattr_place_owner(LOSS_QDISC), "dut");
	assert_string_equal(lossattr_place_owner(LOSS_TESTER_RX), "tester");
	assert_string_equal(lossattr_place_owner(LOSS_UNACCOUNTED), "");
	assert_int_equal(lossattr_place_parse("lab-qemu", &p), 0);
	assert_int_equal(p, LOSS_LAB_QEMU);
	/* a full tap is the VM's receive side in the verdict, named as the lab's */
	assert_int_equal(lossattr_limit(out, 1, sent, false, &busy, buf, sizeof(buf)), LIMIT_DUT_CPU);
	assert_non_null(strstr(buf, "dropped 3005 frames: lab-tap queue of gen0 full"));
	/* the guest's ring drop is never QEMU's too: QEMU read 7000, the
	 * guest took 6985 and dropped 5 of them as well */
	a->ifs[0].rx_packets = 6990;
	in.dir[0].received = 6965;
	a->ifs[1].tx_packets = 6970;
	in.dir[0].tap_written = 6965;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_LAB_QEMU, NULL), 5);
	assert_int_equal(out[0].counted, 3035);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	/* most of it lost in QEMU: the lab, not the DUT */
	dutsnap_clear(a);
	dutsnap_clear(b);
	free(a);
	free(b);
	b = snap();
	a = snap();
	in = vm_dir(b, a);
	in.dir[0].tap_read = 10000;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_LAB_QEMU, "read from gen0, never in dut0's ring"), 3010);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	assert_int_equal(lossattr_limit(out, 1, sent, false, &busy, buf, sizeof(buf)), LIMIT_LAB);
	/* the guest read late: its count misses the first frames, so the
	 * difference is not QEMU's and is left unaccounted */
	in.dut_late = true;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_LAB_QEMU, "read from gen0, never in dut0's ring"), 0);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 3010);
	assert_string_equal(lossattr_limit_name(LIMIT_LAB), "lab");
	assert_non_null(strstr(buf, "the lab, not the DUT: lab-qemu read from gen0"));
	dutsnap_clear(a);
	dutsnap_clear(b);
	free(a);
	free(b);
}

/* A VM lab without the guest's counters (the agent did not answer): the
 * tap's hop is the tester's own counts and still said; QEMU's needs the
 * guest's and is left unaccounted. AF_PACKET's back-pressure on a tap is
 * the tap's too, never sent. */
static void vm_taps_alone(void **st)
{
	struct lossattr out[2];
	char buf[512];

	(void)st;
	struct lossattr_in in = one_dir(10000, 6000, NULL, NULL);

	in.dir[0].taps = true;
	in.dir[0].tap_in = "gen0";
	in.dir[0].tap_out = "sink0";
	in.dir[0].tap_read = 7000;
	in.dir[0].tap_written = 6000;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_false(out[0].have_dut);
	assert_int_equal(at(&out[0], LOSS_LAB_TAP, NULL), 3000);
	assert_int_equal(at(&out[0], LOSS_LAB_QEMU, NULL), 0);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 1000);
	/* held back by the tap's full queue: 4000 never sent, 6000 read */
	in.dir[0].held_back = 4000;
	in.dir[0].tap_read = 6000;
	in.dir[0].tap_written = 6000;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(at(&out[0], LOSS_LAB_TAP, "held back by gen0's full queue toward dut0 (back-pressure: never "
				"sent)"), 4000);
	assert_int_equal(at(&out[0], LOSS_LAB_TAP, "queue of gen0 full: QEMU did not read them in time"), 0);
	assert_int_equal(at(&out[0], LOSS_UNACCOUNTED, NULL), 0);
	assert_non_null(strstr(lossattr_format(&out[0], buf, sizeof(buf)), "the lab's (tap, QEMU) 4000"));
	/* more read than sent (a learning frame read late): nothing, not a wrap */
	in.dir[0].held_back = 0;
	in.dir[0].tap_read = 10001;
	in.dir[0].received = 10000;
	assert_int_equal(lossattr_compute(&in, out), 0);
	assert_int_equal(out[0].lost, 0);
	assert_int_equal(out[0].n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(qdisc_tbf),
		cmocka_unit_test(qdisc_tree),
		cmocka_unit_test(held_back), cmocka_unit_test(ingress),
		cmocka_unit_test(stack),
		cmocka_unit_test(egress_and_tester),
		cmocka_unit_test(no_dut),
		cmocka_unit_test(over_explained),
		cmocka_unit_test(two_directions),
		cmocka_unit_test(four_ports),
		cmocka_unit_test(add_full),
		cmocka_unit_test(limit),
		cmocka_unit_test(vm_taps),
		cmocka_unit_test(vm_taps_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
