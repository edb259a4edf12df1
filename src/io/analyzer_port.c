/* The analyzer over a packet port: a thread takes every received frame
 * from the port's ring, checks its tag and counts it per stream. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/analyzer.h"
#include "io/analyzer_impl.h"
#include "io/capture.h"
#include "io/port.h"
#include "os/clock.h"

#define POLL_MS 10	/* the longest a poll waits: how soon a stop is seen */

struct analyzer_port {
	struct analyzer an;		/* first: the public handle */
	struct port *port;
	enum port_type port_type;
	struct analyzer_arm arm;
	uint64_t deadline_ns;		/* arm.deadline_ns, moved by set_deadline */
	struct seqtrack *st;		/* one per stream */
	uint64_t *bound;		/* per stream: indexes not sent yet (arm.bound) */
	uint64_t late, learning, stale;
	uint64_t not_test[FRAME_VERDICTS];
	uint64_t not_test_total;
	uint64_t received;		/* read by the progress loop */
	struct hist latency;
	struct capture *cap;		/* the frames not counted, or NULL */
	int cap_if;
};

static struct analyzer_port *of(const struct analyzer *a)
{
	return (struct analyzer_port *)a;
}

static const char *port_path_name(const struct analyzer *a)
{
	return port_type_name(of(a)->port_type);
}

static int port_flow_fd(const struct analyzer *a)
{
	(void)a;
	return 0;
}

static void port_arm(struct analyzer *a, const struct analyzer_arm *arm)
{
	struct analyzer_port *x = of(a);

	x->arm = *arm;
	__atomic_store_n(&x->deadline_ns, arm->deadline_ns, __ATOMIC_RELAXED);
	a->latency_every = 0;	/* every frame is timed */
}

/* What a capture's comment says beside the reason. */
enum snap_detail { SNAP_PLAIN, SNAP_TAG, SNAP_LATE };

/* A frame not counted, into the capture while it has room. */
static void snap(struct analyzer_port *x, const uint8_t *frame, uint32_t len, uint64_t ts, const char *reason,
		 enum snap_detail how)
{
	char detail[160] = "";
	uint64_t deadline = __atomic_load_n(&x->deadline_ns, __ATOMIC_RELAXED);

	if (!capture_room(x->cap))
		return;
	if (how == SNAP_TAG)
		capture_tag_detail(frame, len, x->arm.trial, detail, sizeof(detail));
	else if (how == SNAP_LATE && ts > deadline)
		snprintf(detail, sizeof(detail), "%.3f ms after the deadline", ns_to_ms((double)(ts - deadline)));
	capture_frame(x->cap, x->cap_if, frame, len, len, ts, reason, detail);
}

static void on_frame(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	struct analyzer_port *x = arg;
	struct frame_info fi;
	enum frame_verdict v = frame_parse(frame, len, &fi);

	if (v != FRAME_OK) {
		x->not_test[v]++;
		x->not_test_total++;
		snap(x, frame, len, ts, frame_verdict_name(v), SNAP_PLAIN);
		return;
	}
	if (fi.tag.trial == x->arm.learn_trial) {
		x->learning++;
		return;
	}
	/* stream k is arm.stream + 2k */
	uint16_t rel = (uint16_t)(fi.tag.stream - x->arm.stream);

	if (fi.tag.trial != x->arm.trial || (rel & 1) || rel / 2 >= x->an.nstreams) {
		x->stale++;
		snap(x, frame, len, ts, "stale", SNAP_TAG);
		return;
	}
	if (ts > __atomic_load_n(&x->deadline_ns, __ATOMIC_RELAXED)) {
		x->late++;
		snap(x, frame, len, ts, "late", SNAP_LATE);
		return;
	}
	/* A tag that claims a frame not sent yet is someone else's (forged
	 * or corrupt past the check): stale, as the XDP analyzer counts it.
	 * The bound is fetched afresh only when a frame reaches it, so the
	 * generator's counter is read about once per slack of frames. */
	struct seqtrack *t = &x->st[rel / 2];

	if (seqtrack_ahead(t, fi.tag.seq) >= x->bound[rel / 2])
		x->bound[rel / 2] = x->arm.bound(x->arm.bound_ctx, rel / 2);
	uint64_t dup = t->duplicate;

	if (!seqtrack_add(t, fi.tag.seq, x->bound[rel / 2])) {
		x->stale++;
		snap(x, frame, len, ts, "stale", SNAP_TAG);
		return;
	}
	if (t->duplicate != dup)
		snap(x, frame, len, ts, "duplicate", SNAP_TAG);
	hist_add(&x->latency, frame_tag_latency_ns(fi.tag.ts, ts - x->arm.epoch_ns));
	__atomic_store_n(&x->received, x->received + 1, __ATOMIC_RELAXED);
}

static int port_run(struct analyzer *a, const volatile int *stop, uint64_t grace_ns, char *err, size_t errlen)
{
	struct analyzer_port *x = of(a);

	for (;;) {
		int n = port_rx_poll(x->port, on_frame, x, POLL_MS);

		if (n < 0) {
			snprintf(err, errlen, "receive: %s", strerror(-n));
			return n;
		}
		if (n == 0 && (*stop || clock_real_ns() >
				       __atomic_load_n(&x->deadline_ns, __ATOMIC_RELAXED) + grace_ns))
			return 0;
	}
}

static void port_set_deadline(struct analyzer *a, uint64_t deadline_ns)
{
	__atomic_store_n(&of(a)->deadline_ns, deadline_ns, __ATOMIC_RELAXED);
}

static void port_close_window(struct analyzer *a)
{
	(void)a;	/* on_frame compares each frame's own time with the deadline */
}

static uint64_t port_received(const struct analyzer *a)
{
	return __atomic_load_n(&of(a)->received, __ATOMIC_RELAXED);
}

static int port_read(struct analyzer *a, const uint64_t *sent, struct analyzer_result *r, struct hist *h,
		     char *err, size_t errlen)
{
	struct analyzer_port *x = of(a);
	struct port_stats ps;

	(void)err;
	(void)errlen;
	memset(r, 0, sizeof(*r));
	/* each stream's loss against what its own generator sent */
	for (unsigned int k = 0; k < a->nstreams; k++) {
		struct seqtrack_stats one;

		seqtrack_stats(&x->st[k], sent[k], &one);
		r->seq.received += one.received;
		r->seq.distinct += one.distinct;
		r->seq.lost += one.lost;
		r->seq.reordered += one.reordered;
		r->seq.duplicate += one.duplicate;
		r->seq.late += one.late;
		if (one.max_extent > r->seq.max_extent)
			r->seq.max_extent = one.max_extent;
	}
	r->late = x->late;
	r->learning = x->learning;
	r->stale = x->stale;
	memcpy(r->not_test, x->not_test, sizeof(r->not_test));
	r->not_test_total = x->not_test_total;
	*h = x->latency;
	if (!port_stats(x->port, &ps)) {
		r->rx_drops = ps.rx_drops;
		r->if_drops = ps.rx_if_drops;
	}
	return 0;
}

static void port_destroy(struct analyzer *a)
{
	struct analyzer_port *x = of(a);

	free(x->st);
	free(x->bound);
	free(x);
}

static const struct analyzer_ops analyzer_port_ops = {
	.path_name = port_path_name,
	.flow_fd = port_flow_fd,
	.arm = port_arm,
	.run = port_run,
	.set_deadline = port_set_deadline,
	.close_window = port_close_window,
	.received = port_received,
	.read = port_read,
	.destroy = port_destroy,
};

struct analyzer *analyzer_port_create(const struct analyzer_cfg *cfg, char *err, size_t errlen)
{
	struct analyzer_port *x = calloc(1, sizeof(*x));

	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	x->an.ops = &analyzer_port_ops;
	x->an.nstreams = cfg->streams ? cfg->streams : 1;
	x->port = cfg->port;
	x->port_type = cfg->port_type;
	x->cap = cfg->capture;
	x->cap_if = cfg->capture ? capture_iface(cfg->capture, cfg->ifname ? cfg->ifname : "rx") : -1;
	x->st = malloc(x->an.nstreams * sizeof(*x->st));
	x->bound = calloc(x->an.nstreams, sizeof(*x->bound));
	if (!x->st || !x->bound) {
		snprintf(err, errlen, "out of memory");
		port_destroy(&x->an);
		return NULL;
	}
	for (unsigned int k = 0; k < x->an.nstreams; k++)
		seqtrack_init(&x->st[k], 0);
	hist_reset(&x->latency);
	return &x->an;
}
