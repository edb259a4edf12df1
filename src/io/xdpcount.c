/* The analyzer inside XDP: user space side; see xdpcount.h. */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/if_link.h>

#include "io/capture.h"
#include "io/ifcount.h"
#include "io/bpf/bpf_objs.h"
#include "io/bpf/bpf_shared.h"
#include "io/xdpcount.h"
#include "os/bpfobj.h"
#include "os/clock.h"
#include "os/napi.h"
#include "os/netns.h"
#include "os/nl.h"

_Static_assert(XDPCOUNT_MAX_STREAMS == XC_MAX_STREAMS, "one stream limit, in the header and the program");
_Static_assert(CAPTURE_SNAP == XC_CAP_SNAP, "one snap length, in the capture and the program");

struct xdpcount {
	struct bpf_object *obj;
	struct bpf_link *link;
	int prog_fd;
	volatile struct xc_state *st;	/* the program's .bss, mapped */
	int cnt_fd, hist_fd, flow_fd;
	int ncpu;
	int64_t tai_off;
	int nsfd;
	char ifname[IF_NAMESIZE];
	struct ifcount if0;		/* the interface's drop counters at attach */
	bool drops_counted;		/* the driver counts our XDP_DROP in rx_dropped */
	bool is_tap;
	uint64_t per_stream;
	unsigned int nstreams;
	int cap_fd;			/* the xc_cap ring buffer */
};

struct napi_job {
	const char *ifname;
	struct cpuset cpus;
};

static int napi_job(void *arg, char *err, size_t errlen)
{
	struct napi_job *j = arg;

	return napi_pin(j->ifname, &j->cpus, err, errlen);
}

/* The program loaded, its bitmap and capture ring sized for cfg, and
 * its state mapped. */
static int load(struct xdpcount *x, const struct xdpcount_cfg *cfg, char *err, size_t errlen)
{
	uint64_t words = (x->per_stream * x->nstreams + 63) / 64;
	struct bpf_program *prog;
	int rc;

	if (!(x->obj = bpfobj_open("wr_count", wr_bpf_count, wr_bpf_count_len, err, errlen)))
		return -EIO;
	if ((rc = bpf_map__set_max_entries(bpf_object__find_map_by_name(x->obj, "xc_seen"), (uint32_t)words))) {
		snprintf(err, errlen, "the XDP analyzer's bitmap: %s", strerror(-rc));
		return rc;
	}
	/* room for every frame the capture may take: a power of two pages */
	if (cfg->capture) {
		uint64_t need = (uint64_t)cfg->capture * (sizeof(struct xc_cap_rec) + 8), size = 4096;

		while (size < need && size < (1ULL << 30))
			size <<= 1;
		if ((rc = bpf_map__set_max_entries(bpf_object__find_map_by_name(x->obj, "xc_cap"), (uint32_t)size))) {
			snprintf(err, errlen, "the XDP analyzer's capture buffer: %s", strerror(-rc));
			return rc;
		}
	}
	if (bpfobj_load(x->obj, "the XDP analyzer program", err, errlen))
		return -EIO;
	prog = bpf_object__find_program_by_name(x->obj, "wr_count");
	x->cnt_fd = bpf_map__fd(bpf_object__find_map_by_name(x->obj, "xc_cnt"));
	x->hist_fd = bpf_map__fd(bpf_object__find_map_by_name(x->obj, "xc_hist"));
	x->flow_fd = bpf_map__fd(bpf_object__find_map_by_name(x->obj, "xc_flow"));
	x->cap_fd = bpf_map__fd(bpf_object__find_map_by_name(x->obj, "xc_cap"));
	if (!prog || !(x->st = bpfobj_map_bss(x->obj, sizeof(struct xc_state)))) {
		snprintf(err, errlen, "the XDP analyzer program has no state to map: %s", strerror(errno));
		return -EIO;
	}
	x->st->per_stream = x->per_stream;
	x->st->nstreams = (uint16_t)x->nstreams;
	x->st->cap_max = cfg->capture;
	x->prog_fd = bpf_program__fd(prog);
	return 0;
}

/* Attached to the interface in its namespace, by a link that dies with
 * us; never over another XDP program. */
static int attach(struct xdpcount *x, const struct xdpcount_cfg *cfg, char *err, size_t errlen)
{
	struct bpf_program *prog = bpf_object__find_program_by_name(x->obj, "wr_count");
	struct link_info li;
	struct nl *nl = NULL;
	int saved = -1, rc = -EIO;

	if (cfg->nsfd >= 0 && netns_enter(cfg->nsfd, &saved)) {
		snprintf(err, errlen, "cannot enter the namespace of %s", cfg->ifname);
		return -EIO;
	}
	if (!(nl = nl_create(-1, err, errlen)))
		goto out;
	if (nl_link_get(nl, cfg->ifname, &li)) {
		snprintf(err, errlen, "no interface '%s'%s", cfg->ifname, cfg->nsfd >= 0 ? " in that namespace" : "");
		goto out;
	}
	if (li.xdp_prog_id) {
		snprintf(err, errlen, "%s already has an XDP program attached (id %u); wirerate does not replace it "
			 "(use --port-type afpacket, or detach it: ip link set dev %s xdp off)",
			 cfg->ifname, li.xdp_prog_id, cfg->ifname);
		goto out;
	}
	ifcount_of_link(&x->if0, &li);
	x->drops_counted = ifcount_counts_xdp_drop(li.kind);
	x->is_tap = !strcmp(li.kind, "tun");
	if (!(x->link = bpf_program__attach_xdp(prog, li.ifindex))) {
		snprintf(err, errlen, "attaching the XDP analyzer to %s: %s", cfg->ifname, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	nl_destroy(nl);
	if (saved >= 0)
		netns_leave(&saved);
	return rc;
}

/* Attaching gave the port a NAPI instance. Run it in a thread on the
 * analyzer's CPU: otherwise the kernel runs it on whichever CPU sent the
 * frame, which in the lab is the DUT's. */
static int napi_on_cpu(const struct xdpcount_cfg *cfg, char *err, size_t errlen)
{
	struct napi_job j = { .ifname = cfg->ifname };
	char e2[256];

	cpuset_add(&j.cpus, (unsigned int)cfg->cpu);
	if ((cfg->nsfd >= 0 ? netns_run_fd(cfg->nsfd, cfg->ifname, napi_job, &j, e2, sizeof(e2)) :
	     napi_job(&j, e2, sizeof(e2)))) {
		snprintf(err, errlen, "the XDP analyzer's receive thread on %s: %s", cfg->ifname, e2);
		return -EIO;
	}
	return 0;
}

struct xdpcount *xdpcount_open(const struct xdpcount_cfg *cfg, char *err, size_t errlen)
{
	struct xdpcount *x = calloc(1, sizeof(*x));

	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	x->nsfd = cfg->nsfd;
	snprintf(x->ifname, sizeof(x->ifname), "%s", cfg->ifname ? cfg->ifname : "");
	if (cfg->frames > XDPCOUNT_MAX_FRAMES) {
		snprintf(err, errlen, "the XDP analyzer counts up to %llu frames a trial, not %llu: use --port-type afxdp",
			 (unsigned long long)XDPCOUNT_MAX_FRAMES, (unsigned long long)cfg->frames);
		goto fail;
	}
	x->nstreams = cfg->streams ? cfg->streams : 1;
	if (x->nstreams > XDPCOUNT_MAX_STREAMS) {
		snprintf(err, errlen, "the XDP analyzer counts up to %d streams a direction, not %u",
			 XC_MAX_STREAMS, x->nstreams);
		goto fail;
	}
	x->per_stream = cfg->frames ? (cfg->frames + x->nstreams - 1) / x->nstreams : 1;
	x->ncpu = libbpf_num_possible_cpus();
	x->tai_off = clock_tai_offset();
	if (load(x, cfg, err, errlen))
		goto fail;
	if (!cfg->ifname)
		return x;
	if (attach(x, cfg, err, errlen))
		goto fail;
	/* A tap has no NAPI of its own: the program runs in the writer's
	 * system call (a VM's QEMU), on whichever CPU that is. */
	if (cfg->cpu >= 0 && !x->is_tap && napi_on_cpu(cfg, err, errlen))
		goto fail;
	return x;
fail:
	xdpcount_close(x);
	return NULL;
}

void xdpcount_close(struct xdpcount *x)
{
	if (!x)
		return;
	bpf_link__destroy(x->link);
	bpfobj_unmap_bss((void *)x->st);
	bpf_object__close(x->obj);
	free(x);
}

void xdpcount_set(struct xdpcount *x, const struct xdpcount_arm *a)
{
	volatile struct xc_state *st = x->st;

	st->armed = 0;
	st->trial = a->trial;
	st->learn_trial = a->learn_trial;
	st->stream = a->stream;
	st->nstreams = (uint16_t)x->nstreams;
	st->epoch_ns = a->epoch_ns + (uint64_t)x->tai_off;
	st->deadline_ns = a->deadline_ns + (uint64_t)x->tai_off;
	st->lat_mask = a->latency_every > 1 ? a->latency_every - 1 : 0;
	st->closed = 0;
	__atomic_store_n(&st->armed, 1, __ATOMIC_SEQ_CST);
}

void xdpcount_set_deadline(struct xdpcount *x, uint64_t deadline_ns)
{
	x->st->deadline_ns = deadline_ns + (uint64_t)x->tai_off;
}

void xdpcount_close_window(struct xdpcount *x)
{
	__atomic_store_n(&x->st->closed, 1, __ATOMIC_SEQ_CST);
}

unsigned int xdpcount_latency_every(double stream_pps)
{
	unsigned int k = 1;

	while (stream_pps / k > XDPCOUNT_LAT_ALL_PPS && k < (1u << 20))
		k <<= 1;
	return k;
}

static int counters(struct xdpcount *x, struct xc_counters *sum)
{
	struct xc_counters *per = calloc((size_t)x->ncpu, sizeof(*per));
	uint32_t zero = 0;

	memset(sum, 0, sizeof(*sum));
	if (!per)
		return -ENOMEM;
	if (bpf_map_lookup_elem(x->cnt_fd, &zero, per)) {
		int rc = -errno;

		free(per);
		return rc;
	}
	for (int c = 0; c < x->ncpu; c++) {
		for (int i = 0; i < XC_NCOUNTERS; i++) {
			uint64_t v = per[c].c[i];

			if (i == XC_LAT_MAX)
				sum->c[i] = v > sum->c[i] ? v : sum->c[i];
			else if (i == XC_LAT_MIN)
				sum->c[i] = v && (!sum->c[i] || v < sum->c[i]) ? v : sum->c[i];
			else
				sum->c[i] += v;
		}
		for (int k = 0; k < XC_MAX_STREAMS; k++)
			if (per[c].max_seq[k] > sum->max_seq[k])
				sum->max_seq[k] = per[c].max_seq[k];
	}
	free(per);
	return 0;
}

uint64_t xdpcount_received(struct xdpcount *x)
{
	struct xc_counters s;

	return counters(x, &s) ? 0 : s.c[XC_DISTINCT];
}

int xdpcount_read(struct xdpcount *x, uint64_t sent, struct xdpcount_result *r, struct hist *h)
{
	uint64_t *per = calloc((size_t)x->ncpu, sizeof(uint64_t));
	struct xc_counters s;
	struct ifcount now;
	int rc;

	memset(r, 0, sizeof(*r));
	hist_reset(h);
	if (!per)
		return -ENOMEM;
	if ((rc = counters(x, &s)))
		goto out;
	r->seq.received = s.c[XC_DISTINCT] + s.c[XC_DUPLICATE];
	r->seq.distinct = s.c[XC_DISTINCT];
	r->seq.duplicate = s.c[XC_DUPLICATE];
	r->seq.reordered = s.c[XC_REORDERED];
	r->seq.lost = sent > s.c[XC_DISTINCT] ? sent - s.c[XC_DISTINCT] : 0;
	for (int k = 0; k < XC_MAX_STREAMS; k++)
		if (s.max_seq[k] && s.max_seq[k] - 1 > r->seq.highest)
			r->seq.highest = s.max_seq[k] - 1;
	r->late = s.c[XC_LATE];
	r->learning = s.c[XC_LEARNING];
	r->stale = s.c[XC_STALE];
	r->not_test[FRAME_NO_TAG] = s.c[XC_NO_TAG];
	r->not_test[FRAME_BAD_TAG] = s.c[XC_BAD_TAG];
	r->not_test[FRAME_BAD_IP_CSUM] = s.c[XC_BAD_IP_CSUM];
	r->not_test[FRAME_TRUNCATED] = s.c[XC_TRUNCATED];
	for (int v = 0; v < FRAME_VERDICTS; v++)
		r->not_test_total += r->not_test[v];
	/* The buckets have hist.c's layout: add them, then put the exact
	 * min, max and sum the program kept. */
	for (uint32_t b = 0; b < XC_HIST_BUCKETS; b++) {
		uint64_t n = 0;

		if (bpf_map_lookup_elem(x->hist_fd, &b, per)) {
			rc = -errno;
			goto out;
		}
		for (int c = 0; c < x->ncpu; c++)
			n += per[c];
		if (n)
			hist_add_bucket(h, b, n);
	}
	if (h->count)
		hist_set_exact(h, s.c[XC_LAT_MIN], s.c[XC_LAT_MAX], s.c[XC_LAT_SUM]);
	if (!ifcount_read_in(x->nsfd, x->ifname, &now)) {
		struct ifcount d = { 0 };

		ifcount_since(&x->if0, &now, &d);
		r->if_drops = d.rx_dropped;
		if (x->drops_counted) {
			/* every frame the program dropped itself, after counting it */
			uint64_t own = s.c[XC_DISTINCT] + s.c[XC_DUPLICATE] + s.c[XC_LATE] + s.c[XC_LEARNING] +
				       s.c[XC_STALE] + s.c[XC_BAD_TAG] + s.c[XC_BAD_IP_CSUM] + s.c[XC_TRUNCATED];

			r->if_drops = r->if_drops > own ? r->if_drops - own : 0;
		}
	}
out:
	free(per);
	return rc;
}

int xdpcount_feed(struct xdpcount *x, const uint8_t *frame, uint32_t len, uint32_t *action)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = len, .repeat = 1);

	if (bpf_prog_test_run_opts(x->prog_fd, &opts))
		return -errno;
	*action = opts.retval;
	return 0;
}

int xdpcount_counters(struct xdpcount *x, uint64_t *c, unsigned int n)
{
	struct xc_counters s;
	int rc = counters(x, &s);

	for (unsigned int i = 0; i < n && i < XC_NCOUNTERS; i++)
		c[i] = rc ? 0 : s.c[i];
	return rc;
}

int xdpcount_flow_fd(const struct xdpcount *x)
{
	return x->flow_fd;
}

struct cap_ctx {
	struct xdpcount *x;
	xdpcount_cap_fn fn;
	void *ctx;
};

static int on_cap(void *arg, void *data, size_t size)
{
	struct cap_ctx *c = arg;
	const struct xc_cap_rec *r = data;
	struct xdpcount_cap cap;

	if (size < sizeof(*r) || r->caplen > XC_CAP_SNAP)
		return 0;
	cap.ts_ns = r->ts_ns - (uint64_t)c->x->tai_off;
	cap.len = r->len;
	cap.caplen = r->caplen;
	cap.why = r->why;
	cap.data = r->data;
	c->fn(c->ctx, &cap);
	return 0;
}

int xdpcount_capture_read(struct xdpcount *x, xdpcount_cap_fn fn, void *ctx)
{
	struct cap_ctx c = { .x = x, .fn = fn, .ctx = ctx };
	struct ring_buffer *rb;
	int rc;

	if (x->cap_fd < 0)
		return -ENOENT;
	if (!(rb = ring_buffer__new(x->cap_fd, on_cap, &c, NULL)))
		return -errno;
	rc = ring_buffer__consume(rb);
	ring_buffer__free(rb);
	return rc < 0 ? rc : 0;
}

const char *xdpcount_why_name(unsigned int why)
{
	static const char *const names[XC_NCOUNTERS] = {
		[XC_DUPLICATE] = "duplicate", [XC_LATE] = "late", [XC_STALE] = "stale",
		[XC_NO_TAG] = "not-test", [XC_BAD_TAG] = "bad-tag", [XC_BAD_IP_CSUM] = "bad-ip-csum",
		[XC_TRUNCATED] = "truncated",
	};

	return why < XC_NCOUNTERS && names[why] ? names[why] : "not-counted";
}
