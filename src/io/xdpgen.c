/* The live-frames generator: user space side. See xdpgen.h and
 * bpf/xdpgen.bpf.c for the method. */
#include <errno.h>
#include <net/if.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>

#include "io/bpf/bpf_objs.h"
#include "io/bpf/bpf_shared.h"
#include "io/xdpgen.h"
#include "os/bpfobj.h"
#include "os/clock.h"
#include "os/netns.h"

/* Runs per flush (256 is the kernel's limit). A frame waits in the
 * redirect's bulk queue until its batch ends, which at low rates, where
 * most runs send nothing, adds up to a batch of runs to its latency:
 * batches of 16 below XDPGEN_SMALL_BATCH_PPS a thread took 1.2-2.2 us off
 * the median latency back to back at 100 kpps. Above it 64: with flow
 * control, 32 counted less flat out (docs/xdp.md). */
#define XDPGEN_BATCH 64
#define XDPGEN_SMALL_BATCH 16
#define XDPGEN_SMALL_BATCH_PPS 1e6
/* The batch is also the size of the ring of the call's page pool, to
 * which the analyzer's CPU returns every page (the pool caches 128 more
 * on the generator's side). Under flow control up to a window of 192
 * pages is out at once, and with a ring of 64 the pages that came back
 * while it was full were freed and new ones allocated and filled: 0.36-2.0
 * million in a calibration of 2 s a step. A ring of 256 holds them, and the
 * batch costs no frames or latency that is measured: the window keeps
 * the far ring from overflowing, and calibrate times nothing. Flat out
 * 9.55-9.97 Mpps counted against 8.60-9.23 with 64, and the paced step
 * held 90% of that where with 64 it fell 10-27% short (docs/xdp.md).
 * Only with the analyzer on another CPU: on the generator's, it runs
 * between batches, and a batch longer than the window spends its end
 * waiting for it (1.3 Mpps flat out instead of 5.4). */
#define XDPGEN_FLOW_BATCH 256
/* The phase's end interrupts the call with this signal (see arm_timer). */
#define XDPGEN_SIG (SIGRTMIN + 3)

_Static_assert(XDPGEN_FLOW_WINDOW == XG_FLOW_WINDOW, "one window");

struct xdpgen {
	struct bpf_object *obj;
	int prog_fd;
	volatile struct xg_state *st;	/* the program's .bss, mapped */
	int nsfd;
	int ifindex;
	char ifname[IF_NAMESIZE];
	uint8_t frame[XDPGEN_FRAME_MAX];	/* flow 0, for data_in */
	unsigned int len;
	pthread_t runner;
	volatile int running;
	volatile int stopped;
	uint64_t calls;
	unsigned int batch;		/* the last phase's runs per batch */
	int64_t tai_off;		/* CLOCK_TAI - CLOCK_REALTIME */
	int flow_fd;			/* the analyzer's xc_flow, shared; -1: none */
};

static void on_sig(int s)
{
	(void)s;	/* only to make the kernel end the call with EINTR */
}

static void handler_init(void)
{
	struct sigaction sa = { .sa_handler = on_sig };	/* no SA_RESTART */

	sigemptyset(&sa.sa_mask);
	sigaction(XDPGEN_SIG, &sa, NULL);
}

/* A signal's handler is the process's, whichever generator sets it: once. */
static void install_handler(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, handler_init);
}

/* The embedded object, loaded, with its state mapped. */
static struct bpf_object *load_obj(struct xdpgen *g, int flow_fd, char *err, size_t errlen)
{
	struct bpf_object *obj = bpfobj_open("wr_xdpgen", wr_bpf_xdpgen, wr_bpf_xdpgen_len, err, errlen);
	struct bpf_program *prog;

	if (!obj)
		goto fail;
	/* the analyzer's counts in place of our own map */
	if (flow_fd > 0 && bpf_map__reuse_fd(bpf_object__find_map_by_name(obj, "xc_flow"), flow_fd)) {
		snprintf(err, errlen, "sharing the XDP analyzer's counts with the generator: %s", strerror(errno));
		goto fail;
	}
	if (bpfobj_load(obj, "the XDP generator program", err, errlen))
		goto fail;
	prog = bpf_object__find_program_by_name(obj, "wr_gen");
	if (!prog || !(g->st = bpfobj_map_bss(obj, sizeof(struct xg_state)))) {
		snprintf(err, errlen, "the XDP generator program has no state to map: %s", strerror(errno));
		goto fail;
	}
	g->prog_fd = bpf_program__fd(prog);
	return obj;
fail:
	bpf_object__close(obj);
	return NULL;
}

/* Each flow's template: the frame up to the tag's end, and the UDP
 * checksum's sum over the rest with the tag zero (frame_build zeroes the
 * payload, so it is the complement of the checksum it wrote). */
static int load_templates(struct xdpgen *g, const struct xdpgen_cfg *cfg, struct frame_layout *lay,
			  char *err, size_t errlen)
{
	uint32_t nflows = frame_flows_count(cfg->flows);
	int fd = bpf_map__fd(bpf_object__find_map_by_name(g->obj, "xg_tmpl"));
	uint8_t *buf = malloc(FRAME_MAX);
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	if ((rc = frame_build(cfg->spec, buf, FRAME_MAX, lay, err, errlen)))
		goto out;
	if (lay->len > XDPGEN_FRAME_MAX) {
		snprintf(err, errlen, "the XDP generator sends frames up to %u bytes (one page each); %u needs --port-type afpacket",
			 XDPGEN_FRAME_MAX + FRAME_FCS_LEN, cfg->spec->size);
		rc = -EMSGSIZE;
		goto out;
	}
	if (lay->payload_len < FRAME_TAG_LEN) {
		snprintf(err, errlen, "a %u-byte frame has no room for the tag", cfg->spec->size);
		rc = -EINVAL;
		goto out;
	}
	if (lay->payload_off + FRAME_TAG_LEN > XG_HDR_MAX || (lay->payload_off + FRAME_TAG_LEN) % 4) {
		snprintf(err, errlen, "the XDP generator cannot rewrite a tag at offset %u", lay->payload_off);
		rc = -EINVAL;
		goto out;
	}
	if (nflows > XG_MAX_FLOWS) {
		snprintf(err, errlen, "the XDP generator holds up to %u flows, not %u", XG_MAX_FLOWS, nflows);
		rc = -E2BIG;
		goto out;
	}
	memcpy(g->frame, buf, lay->len);
	g->len = lay->len;
	for (uint32_t i = 0; i < nflows; i++) {
		struct xg_tmpl t = { 0 };
		uint16_t c;

		frame_set_flow(buf, lay, cfg->flows, i);
		memcpy(t.hdr, buf, lay->payload_off + FRAME_TAG_LEN);
		memcpy(&c, buf + lay->payload_off - 2, 2);
		t.sum = (uint16_t)~c;
		if (bpf_map_update_elem(fd, &i, &t, 0)) {
			rc = -errno;
			snprintf(err, errlen, "the XDP generator's flow table: %s", strerror(errno));
			goto out;
		}
	}
	g->st->nflows = nflows;
	g->st->hdr_len = lay->payload_off + FRAME_TAG_LEN;
	g->st->tag_off = lay->payload_off;
out:
	free(buf);
	return rc;
}

struct xdpgen *xdpgen_open(const struct xdpgen_cfg *cfg, char *err, size_t errlen)
{
	struct xdpgen *g = calloc(1, sizeof(*g));
	struct frame_layout lay;
	int saved = -1;

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	g->nsfd = cfg->nsfd;
	snprintf(g->ifname, sizeof(g->ifname), "%s", cfg->ifname);
	if (cfg->nsfd >= 0 && netns_enter(cfg->nsfd, &saved)) {
		snprintf(err, errlen, "cannot enter the namespace of %s", cfg->ifname);
		free(g);
		return NULL;
	}
	g->ifindex = (int)if_nametoindex(cfg->ifname);
	if (saved >= 0)
		netns_leave(&saved);
	if (!g->ifindex) {
		snprintf(err, errlen, "no interface '%s'%s", cfg->ifname, cfg->nsfd >= 0 ? " in that namespace" : "");
		free(g);
		return NULL;
	}
	g->flow_fd = -1;
	if (!(g->obj = load_obj(g, cfg->flow_fd, err, errlen)) || load_templates(g, cfg, &lay, err, errlen)) {
		xdpgen_close(g);
		return NULL;
	}
	if (cfg->flow_fd > 0)
		g->flow_fd = bpf_map__fd(bpf_object__find_map_by_name(g->obj, "xc_flow"));
	install_handler();
	g->tai_off = clock_tai_offset();
	return g;
}

void xdpgen_close(struct xdpgen *g)
{
	if (!g)
		return;
	bpfobj_unmap_bss((void *)g->st);
	bpf_object__close(g->obj);
	free(g);
}

/* A one-shot timer that interrupts this thread's call at the phase's end:
 * without it a call runs all its repeats, sending nothing. */
static int arm_timer(timer_t *tid, uint64_t at_realtime_ns)
{
	struct sigevent sev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = XDPGEN_SIG };
	struct itimerspec its = { 0 };

	sev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	if (timer_create(CLOCK_REALTIME, &sev, tid))
		return -errno;
	its.it_value.tv_sec = (time_t)(at_realtime_ns / NSEC_PER_SEC);
	its.it_value.tv_nsec = (long)(at_realtime_ns % NSEC_PER_SEC);
	/* and again every 100 ms, in case a stop came between two checks */
	its.it_interval.tv_nsec = (long)(100 * NSEC_PER_MSEC);
	if (timer_settime(*tid, TIMER_ABSTIME, &its, NULL)) {
		int rc = -errno;

		timer_delete(*tid);
		return rc;
	}
	return 0;
}

/* Program runs per batch for a phase at this rate, with a flow-control
 * window (0: none), the analyzer on another CPU or not. */
static unsigned int xdpgen_batch(double rate_pps, unsigned int window, bool analyzer_apart)
{
	if (rate_pps < XDPGEN_SMALL_BATCH_PPS)
		return XDPGEN_SMALL_BATCH;
	return window && analyzer_apart ? XDPGEN_FLOW_BATCH : XDPGEN_BATCH;
}

int xdpgen_run(struct xdpgen *g, const struct xdpgen_phase *ph, char *err, size_t errlen)
{
	volatile struct xg_state *st = g->st;
	struct xdp_md ctx = { .data_end = g->len, .ingress_ifindex = (uint32_t)g->ifindex };
	/* flow control needs the analyzer's counts */
	const unsigned int window = g->flow_fd >= 0 ? ph->window : 0;
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .data_in = g->frame, .data_size_in = g->len,
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		    .batch_size = xdpgen_batch(ph->rate_pps, window, ph->analyzer_apart));
	timer_t tid;
	int saved = -1, rc = 0;

	if (!(ph->rate_pps > 0)) {
		snprintf(err, errlen, "the XDP generator needs a rate above 0");
		return -EINVAL;
	}
	st->stop = 0;
	st->sent = 0;
	st->next_fp = 0;
	st->max_lag_ns = 0;
	st->first_ns = st->last_ns = 0;
	st->iterations = 0;
	st->skipped = 0;
	st->gap_fp = (uint64_t)((double)(1ULL << XG_FP_SHIFT) * NSEC_PER_SEC / ph->rate_pps);
	st->start_ns = ph->start_ns + (uint64_t)g->tai_off;
	st->end_ns = ph->end_ns + (uint64_t)g->tai_off;
	st->epoch_ns = ph->epoch_ns + (uint64_t)g->tai_off;
	st->limit = ph->limit;
	st->burst_fp = st->gap_fp * (ph->max_burst ? ph->max_burst : 1);
	st->trial = ph->trial;
	st->stream = ph->stream;
	st->window = 0;
	st->lat_mask = ph->latency_every > 1 ? ph->latency_every - 1 : 0;
	st->clock_ns = 0;
	st->clock_rel_fp = 0;
	st->flow_waiting = 0;
	st->flow_waits = 0;
	st->flow_gave_up = 0;
	if (window) {
		struct xc_flow f;
		uint32_t slot = ph->flow_slot;

		if (bpf_map_lookup_elem(g->flow_fd, &slot, &f)) {
			int e = errno;

			snprintf(err, errlen, "reading the XDP analyzer's counts: %s", strerror(e));
			return -e;
		}
		st->flow_slot = slot;
		st->seen_base = f.seen;
		st->credit_end = window < XG_FLOW_WINDOW ? window : XG_FLOW_WINDOW;
		st->window = st->credit_end;
	}
	g->calls = 0;
	g->batch = opts.batch_size;

	if (g->nsfd >= 0 && netns_enter(g->nsfd, &saved)) {
		snprintf(err, errlen, "cannot enter the generator's namespace");
		return -EPERM;
	}
	g->runner = pthread_self();
	__atomic_store_n(&g->running, 1, __ATOMIC_SEQ_CST);
	if (g->stopped)
		st->stop = 1;
	if ((rc = arm_timer(&tid, ph->end_ns))) {
		snprintf(err, errlen, "timer: %s", strerror(-rc));
		goto out;
	}
	for (;;) {
		uint64_t now = clock_real_ns();
		uint64_t left = ph->end_ns > now ? ph->end_ns - now : 0;
		/* Enough runs to last to the end even at 20 ns each (a run that
		 * drops costs about that); the timer ends the call sooner. */
		uint64_t rep = left / 20 + 4096;

		if (st->stop || st->sent >= ph->limit || !left)
			break;
		opts.repeat = rep > 0xffffffffULL ? 0xffffffffU : (uint32_t)rep;
		rc = bpf_prog_test_run_opts(g->prog_fd, &opts);
		g->calls++;
		if (rc && rc != -EINTR && errno != EINTR) {
			rc = -errno;
			snprintf(err, errlen, "BPF_PROG_RUN live frames on ifindex %d: %s", g->ifindex, strerror(errno));
			break;
		}
		rc = 0;
	}
	timer_delete(tid);
out:
	__atomic_store_n(&g->running, 0, __ATOMIC_SEQ_CST);
	if (saved >= 0)
		netns_leave(&saved);
	return rc;
}

void xdpgen_stop(struct xdpgen *g)
{
	g->stopped = 1;
	g->st->stop = 1;
	if (__atomic_load_n(&g->running, __ATOMIC_SEQ_CST))
		pthread_kill(g->runner, XDPGEN_SIG);
}

uint64_t xdpgen_sent(const struct xdpgen *g)
{
	return g->st->sent;
}

void xdpgen_stats(const struct xdpgen *g, struct xdpgen_stats *s)
{
	const volatile struct xg_state *st = g->st;

	s->sent = st->sent;
	s->max_lag_ns = st->max_lag_ns;
	s->first_ns = st->first_ns ? st->first_ns - (uint64_t)g->tai_off : 0;
	s->last_ns = st->last_ns ? st->last_ns - (uint64_t)g->tai_off : 0;
	s->iterations = st->iterations;
	s->calls = g->calls;
	s->batch = g->batch;
	s->skipped = st->skipped;
	s->flow_waits = st->flow_waits;
	s->flow_gave_up = st->flow_gave_up != 0;
}

int xdpgen_probe(char *err, size_t errlen)
{
	struct xdpgen g = { .nsfd = -1, .len = 60 };
	struct xdp_md ctx = { .data_end = 60 };
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .data_in = g.frame, .data_size_in = 60,
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx),
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .batch_size = XDPGEN_BATCH, .repeat = 1024);
	int rc = 0;

	if (!(g.obj = load_obj(&g, 0, err, errlen)))
		return -ENOTSUP;
	/* limit 0: every run drops, nothing leaves */
	g.st->limit = 0;
	if (bpf_prog_test_run_opts(g.prog_fd, &opts)) {
		rc = -errno;
		snprintf(err, errlen, "BPF_PROG_RUN live frames: %s", strerror(errno));
	} else if (g.st->iterations != 1024) {
		rc = -ENOTSUP;
		snprintf(err, errlen, "BPF_PROG_RUN live frames ran the program %llu times, not 1024",
			 (unsigned long long)g.st->iterations);
	}
	bpfobj_unmap_bss((void *)g.st);
	bpf_object__close(g.obj);
	return rc;
}

/* The sum of the interface's ethtool counters whose name ends in
 * "xdp_xmit_errors", read in its namespace. */
int xdpgen_ring_refused(const struct xdpgen *g, uint64_t *n)
{
	struct {
		struct ethtool_sset_info hdr;
		uint32_t len;
	} ss = { .hdr = { .cmd = ETHTOOL_GSSET_INFO, .sset_mask = 1ULL << ETH_SS_STATS } };
	struct ethtool_gstrings *names = NULL;
	struct ethtool_stats *vals = NULL;
	struct ifreq ifr = { 0 };
	int saved = -1, fd = -1, rc = 0;
	uint32_t count;

	*n = 0;
	if (g->nsfd >= 0 && netns_enter(g->nsfd, &saved))
		return -EPERM;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (saved >= 0)
		netns_leave(&saved);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", g->ifname);
	ifr.ifr_data = (void *)&ss;
	if (ioctl(fd, SIOCETHTOOL, &ifr) || !ss.hdr.sset_mask) {
		rc = -EOPNOTSUPP;
		goto out;
	}
	count = ss.len;
	names = calloc(1, sizeof(*names) + (size_t)count * ETH_GSTRING_LEN);
	vals = calloc(1, sizeof(*vals) + (size_t)count * sizeof(uint64_t));
	if (!names || !vals) {
		rc = -ENOMEM;
		goto out;
	}
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = count;
	ifr.ifr_data = (void *)names;
	if (ioctl(fd, SIOCETHTOOL, &ifr)) {
		rc = -errno;
		goto out;
	}
	vals->cmd = ETHTOOL_GSTATS;
	vals->n_stats = count;
	ifr.ifr_data = (void *)vals;
	if (ioctl(fd, SIOCETHTOOL, &ifr)) {
		rc = -errno;
		goto out;
	}
	for (uint32_t i = 0; i < count && i < vals->n_stats; i++) {
		char nm[ETH_GSTRING_LEN + 1];
		size_t l;

		memcpy(nm, names->data + (size_t)i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		nm[ETH_GSTRING_LEN] = '\0';
		l = strlen(nm);
		if (l >= 15 && !strcmp(nm + l - 15, "xdp_xmit_errors"))
			*n += vals->data[i];
	}
out:
	free(names);
	free(vals);
	close(fd);
	return rc;
}
