/* The analyzer inside XDP: io/xdpcount.h does the counting; this arms it,
 * follows its count for progress, and maps its result back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns.h"
#include "io/analyzer.h"
#include "io/analyzer_impl.h"
#include "io/bpf/bpf_shared.h"
#include "io/capture.h"
#include "io/xdpcount.h"
#include "os/clock.h"

/* How often the analyzer's thread reads the count for progress. */
#define FOLLOW_NS (20 * NSEC_PER_MSEC)

struct analyzer_xdp {
	struct analyzer an;		/* first: the public handle */
	struct xdpcount *xc;
	uint64_t deadline_ns;		/* the run ends a grace after it */
	uint64_t received;		/* the last count read */
	uint16_t trial;			/* the trial armed, for a capture's comments */
	struct capture *cap;		/* the frames not counted, or NULL */
	int cap_if;
};

static struct analyzer_xdp *of(const struct analyzer *a)
{
	return (struct analyzer_xdp *)a;
}

int analyzer_xdp_check(double frames, char *err, size_t errlen)
{
	if (frames > (double)XDPCOUNT_MAX_FRAMES) {
		snprintf(err, errlen, "the XDP analyzer counts up to %llu frames a trial: lower --rate or --duration, "
			 "or use --port-type afxdp", (unsigned long long)XDPCOUNT_MAX_FRAMES);
		return -EINVAL;
	}
	return 0;
}

static const char *xdp_path_name(const struct analyzer *a)
{
	(void)a;
	return "xdp";
}

static int xdp_flow_fd(const struct analyzer *a)
{
	return xdpcount_flow_fd(of(a)->xc);
}

static void xdp_arm(struct analyzer *a, const struct analyzer_arm *arm)
{
	struct analyzer_xdp *x = of(a);
	struct xdpcount_arm xa = { .trial = arm->trial, .learn_trial = arm->learn_trial, .stream = arm->stream,
				   .epoch_ns = arm->epoch_ns, .deadline_ns = arm->deadline_ns,
				   .latency_every = arm->latency_every ? arm->latency_every :
					   xdpcount_latency_every(arm->stream_pps) };

	a->latency_every = xa.latency_every;
	x->trial = arm->trial;
	__atomic_store_n(&x->deadline_ns, arm->deadline_ns, __ATOMIC_RELAXED);
	xdpcount_set(x->xc, &xa);
}

/* Counted in the kernel: only follow the count for the progress line.
 * This thread sleeps between reads. It once spun at SCHED_IDLE to keep
 * the analyzer's CPU out of idle, but since Linux 6.12 a fair task that is
 * always runnable next to a busy SCHED_FIFO thread (the port's NAPI
 * thread) is served by the fair server, which runs it ahead of the FIFO
 * thread for up to 50 ms a second: the port's ring overflowed in holes of
 * 50 ms (4% of the frames at 6 Mpps; 0.07% with this thread asleep). */
static int xdp_run(struct analyzer *a, const volatile int *stop, uint64_t grace_ns, char *err, size_t errlen)
{
	struct analyzer_xdp *x = of(a);

	(void)err;
	(void)errlen;
	for (;;) {
		uint64_t t = clock_real_ns();

		__atomic_store_n(&x->received, xdpcount_received(x->xc), __ATOMIC_RELAXED);
		if (*stop || t > __atomic_load_n(&x->deadline_ns, __ATOMIC_RELAXED) + grace_ns)
			return 0;
		clock_sleep_until(t + FOLLOW_NS);
	}
}

static void xdp_set_deadline(struct analyzer *a, uint64_t deadline_ns)
{
	struct analyzer_xdp *x = of(a);

	__atomic_store_n(&x->deadline_ns, deadline_ns, __ATOMIC_RELAXED);
	xdpcount_set_deadline(x->xc, deadline_ns);
}

static void xdp_close_window(struct analyzer *a)
{
	xdpcount_close_window(of(a)->xc);
}

static uint64_t xdp_received(const struct analyzer *a)
{
	return __atomic_load_n(&of(a)->received, __ATOMIC_RELAXED);
}

/* A frame the program copied out, into the capture with its comment. */
static void on_cap(void *arg, const struct xdpcount_cap *c)
{
	struct analyzer_xdp *x = arg;
	uint64_t deadline = __atomic_load_n(&x->deadline_ns, __ATOMIC_RELAXED);
	char detail[160] = "";

	if (c->why == XC_STALE || c->why == XC_DUPLICATE)
		capture_tag_detail(c->data, c->caplen, x->trial, detail, sizeof(detail));
	else if (c->why == XC_LATE && c->ts_ns > deadline)
		snprintf(detail, sizeof(detail), "%.3f ms after the deadline", ns_to_ms((double)(c->ts_ns - deadline)));
	capture_frame(x->cap, x->cap_if, c->data, c->caplen, c->len, c->ts_ns, xdpcount_why_name(c->why), detail);
}

static int xdp_read(struct analyzer *a, const uint64_t *sent, struct analyzer_result *r, struct hist *h,
		    char *err, size_t errlen)
{
	struct xdpcount_result xr;
	uint64_t all = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	for (unsigned int k = 0; k < a->nstreams; k++)
		all += sent[k];
	if ((rc = xdpcount_read(of(a)->xc, all, &xr, h))) {
		snprintf(err, errlen, "the XDP analyzer's counters could not be read");
		return rc;
	}
	if (of(a)->cap && (rc = xdpcount_capture_read(of(a)->xc, on_cap, of(a)))) {
		snprintf(err, errlen, "the XDP analyzer's capture could not be read: %s", strerror(-rc));
		return rc;
	}
	r->seq = xr.seq;
	r->late = xr.late;
	r->learning = xr.learning;
	r->stale = xr.stale;
	memcpy(r->not_test, xr.not_test, sizeof(r->not_test));
	r->not_test_total = xr.not_test_total;
	r->if_drops = xr.if_drops;
	return 0;
}

static void xdp_destroy(struct analyzer *a)
{
	xdpcount_close(of(a)->xc);
	free(a);
}

static const struct analyzer_ops analyzer_xdp_ops = {
	.path_name = xdp_path_name,
	.flow_fd = xdp_flow_fd,
	.arm = xdp_arm,
	.run = xdp_run,
	.set_deadline = xdp_set_deadline,
	.close_window = xdp_close_window,
	.received = xdp_received,
	.read = xdp_read,
	.destroy = xdp_destroy,
};

struct analyzer *analyzer_xdp_create(const struct analyzer_cfg *cfg, char *err, size_t errlen)
{
	struct analyzer_xdp *x = calloc(1, sizeof(*x));
	struct xdpcount_cfg xc = { .ifname = cfg->ifname, .nsfd = cfg->nsfd, .frames = cfg->frames,
				   .streams = cfg->streams, .cpu = cfg->cpu, .capture = capture_room(cfg->capture) };

	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (!(x->xc = xdpcount_open(&xc, err, errlen))) {
		free(x);
		return NULL;
	}
	x->an.ops = &analyzer_xdp_ops;
	x->an.nstreams = cfg->streams ? cfg->streams : 1;
	x->cap = cfg->capture;
	x->cap_if = cfg->capture ? capture_iface(cfg->capture, cfg->ifname ? cfg->ifname : "rx") : -1;
	return &x->an;
}
