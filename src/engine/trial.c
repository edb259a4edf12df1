#include "engine/trial.h"
#include "engine/trial_impl.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/prctl.h>

#include "core/pace.h"
#include "core/seqtrack.h"
#include "engine/cpucost.h"
#include "io/xdpcount.h"
#include "io/xdpgen.h"
#include "os/nl.h"
#include "os/clock.h"
#include "os/cpulat.h"

#define START_DELAY_NS	 50000000ULL	/* threads up and pinned before the first frame */
#define RX_GRACE_NS	150000000ULL	/* keep reading the ring after the deadline */
#define LEARN_RATE_MAX	100000.0
#define SPIN_NS		30000ULL	/* closer than this to the next frame: spin */
#define MIN_BATCH_NS	20000ULL	/* a kick costs a system call: batch at least this much time */

/* The kernel stamps received frames with CLOCK_REALTIME: the tags use it too. */
static inline uint64_t now_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000ULL), .tv_nsec = (long)(t % 1000000000ULL) };

	while (clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* ---- generator ---- */

static void gen_phase(struct gen_ctx *g, struct pace *pace, uint16_t trial, uint64_t *seq,
		      uint64_t epoch, uint64_t hard_end, uint64_t *counter)
{
	struct run *r = g->run;
	const unsigned int mask = g->nslots - 1;
	struct tag tag = { .trial = trial, .stream = g->stream };
	/* Batch only as much as the rate needs: one frame at a time at low
	 * rates, at high rates as many as fall due in MIN_BATCH_NS, since
	 * each kick is a system call. */
	double rate = (double)pace->rate_upps / 1e6;
	unsigned int min_batch = (unsigned int)(rate * MIN_BATCH_NS / 1e9);
	uint64_t period = (uint64_t)(1e9 / rate);

	if (min_batch < 1)
		min_batch = 1;
	if (min_batch > pace->max_burst)
		min_batch = pace->max_burst;
	for (;;) {
		uint64_t now = now_ns();
		unsigned int n, k, first;

		if (r->stop_gen || now > hard_end)
			break;
		n = pace_due(pace, now);
		if (n < min_batch && !(pace->limit && pace->sent + n >= pace->limit)) {
			uint64_t next = pace_next_ns(pace);

			if (next == UINT64_MAX)
				break;
			next += (min_batch - 1 - n) * period;
			if (next > now + SPIN_NS)
				sleep_until(next - SPIN_NS / 2);
			continue;
		}
		k = port_tx_acquire(g->port, n, &first);
		tag.ts = tag_ts(now - epoch);
		for (unsigned int j = 0; j < k; j++) {
			unsigned int s = (first + j) & mask;

			tag.seq = (*seq)++;
			tag_write(g->slot[s] + g->payload_off, &tag);
			port_tx_submit(g->port, s, g->slot_len[s]);
		}
		if (k && port_tx_kick(g->port))
			g->tx_errors++;
		pace_sent(pace, k, now);
		__atomic_store_n(counter, pace->sent, __ATOMIC_RELAXED);
		if (k < n)
			sched_yield();	/* ring full: the kernel is behind us */
	}
}

/* The same phases as gen_main, each spent in one BPF_PROG_RUN loop that
 * paces and tags in the kernel. */
static void gen_xdp(struct gen_ctx *g)
{
	struct run *r = g->run;
	const struct trial_cfg *c = r->cfg;
	uint64_t slack = c->duration_ns / 20 > 100000000ULL ? c->duration_ns / 20 : 100000000ULL;
	struct xdpgen_stats st;

	/* The other threads wait out the learning frames, so that the
	 * refused counter's window is the traffic's. */
	if (g->k)
		sleep_until(r->t_start - START_DELAY_NS / 2);
	if (c->learn_frames && !g->k) {
		double lr = c->rate_pps < LEARN_RATE_MAX ? c->rate_pps : LEARN_RATE_MAX;
		/* End the call when the learning frames are out, so the traffic
		 * call is set up (about 20 ms) before its first slot. */
		uint64_t lend = r->t_learn + (uint64_t)((double)c->learn_frames / lr * 1e9) + 10000000ULL;
		struct xdpgen_phase ph = { .rate_pps = lr, .start_ns = r->t_learn,
					   .end_ns = lend < r->t_start ? lend : r->t_start,
					   .limit = c->learn_frames, .epoch_ns = r->t_learn, .max_burst = c->max_burst,
					   .trial = c->trial_id ^ 0x8000, .stream = (uint16_t)g->dir };

		if ((g->rc = xdpgen_run(g->xg, &ph, g->err, sizeof(g->err))))
			return;
		xdpgen_stats(g->xg, &st);
		__atomic_store_n(&g->learning_sent, st.sent, __ATOMIC_RELAXED);
	}
	xdpgen_ring_refused(g->xg, &g->refused0);
	struct xdpgen_phase ph = { .rate_pps = g->rate, .start_ns = g->start_ns,
				   .end_ns = r->t_end + slack, .limit = g->limit, .epoch_ns = r->t_start,
				   .max_burst = c->max_burst,
				   .trial = c->trial_id, .stream = g->stream,
				   .flow_slot = g->k, .latency_every = r->rx[g->dir].res->latency_every,
				   .window = g->window,
				   .analyzer_apart = c->gen_cpu[g->k] >= 0 && c->rx_cpu >= 0 &&
						     c->gen_cpu[g->k] != c->rx_cpu };

	g->rc = xdpgen_run(g->xg, &ph, g->err, sizeof(g->err));
	g->stopped_ns = now_ns();
	xdpgen_stats(g->xg, &st);
	/* The call outlasts the traffic (the trial stops it once every frame
	 * is out, or the slack ends it): the traffic ended with the last frame. */
	if (st.sent && st.last_ns > r->t_start && st.last_ns < g->stopped_ns)
		g->stopped_ns = st.last_ns;
	xdpgen_ring_refused(g->xg, &g->refused1);
	g->flow_waits = st.flow_waits;
	g->flow_gave_up = st.flow_gave_up;
	g->xdp_batch = st.batch;
	__atomic_store_n(&g->sent, st.sent, __ATOMIC_RELAXED);
	/* A frame that leaves late goes out right behind the one before:
	 * the worst lag in frames is the largest burst. */
	g->ps.max_backlog = (uint64_t)((double)st.max_lag_ns * g->rate / 1e9);
	g->ps.largest_burst = (unsigned int)g->ps.max_backlog + 1;
}

static void *gen_main(void *arg)
{
	struct gen_ctx *g = arg;
	struct run *r = g->run;
	const struct trial_cfg *c = r->cfg;
	struct pace pace;
	uint64_t seq = 0;

	pin(c->gen_cpu[g->k]);
	if (g->xg) {
		gen_xdp(g);
		return NULL;
	}
	prctl(PR_SET_TIMERSLACK, 1000UL);
	if (c->learn_frames && !g->k) {
		double lr = c->rate_pps < LEARN_RATE_MAX ? c->rate_pps : LEARN_RATE_MAX;
		uint64_t lseq = 0;

		sleep_until(r->t_learn);
		if (!pace_init(&pace, lr, r->t_learn, c->max_burst, c->learn_frames, g->err, sizeof(g->err)))
			gen_phase(g, &pace, c->trial_id ^ 0x8000, &lseq, r->t_learn, r->t_start, &g->learning_sent);
	}
	sleep_until(g->start_ns);
	if ((g->rc = pace_init(&pace, g->rate, g->start_ns, c->max_burst, g->limit, g->err, sizeof(g->err))))
		return NULL;
	/* Behind at the end: give up after 5% of the trial (at least 100 ms). */
	uint64_t slack = c->duration_ns / 20 > 100000000ULL ? c->duration_ns / 20 : 100000000ULL;

	gen_phase(g, &pace, c->trial_id, &seq, r->t_start, r->t_end + slack, &g->sent);
	g->stopped_ns = now_ns();
	pace_stats(&pace, &g->ps);
	return NULL;
}

/* ---- analyzer ---- */

/* Indexes stream k of direction dir cannot have reached yet: what its
 * generator has sent so far plus slack, and never its limit. A batch is
 * tagged and on the wire before the generator stores its count (max_burst
 * frames at most); the rest is margin for that store reaching the
 * analyzer's CPU late. */
static uint64_t seq_bound(struct run *r, unsigned int dir, unsigned int k)
{
	const struct gen_ctx *g = &r->gen[dir][k];
	uint64_t sent = g->xg ? xdpgen_sent(g->xg) : __atomic_load_n(&g->sent, __ATOMIC_RELAXED);
	uint64_t b = sent + 4ULL * r->cfg->max_burst + 1024;

	return g->limit && b > g->limit ? g->limit : b;
}

static void on_frame(void *arg, const uint8_t *frame, uint32_t len, uint64_t ts)
{
	struct rx_ctx *x = arg;
	struct run *r = x->run;
	struct trial_dir_result *d = x->res;
	struct frame_info fi;
	enum frame_verdict v = frame_parse(frame, len, &fi);

	if (v != FRAME_OK) {
		d->not_test[v]++;
		d->not_test_total++;
		return;
	}
	if (fi.tag.trial == (uint16_t)(r->cfg->trial_id ^ 0x8000)) {
		d->learning_rx++;
		return;
	}
	/* stream k of this direction is dir + 2k */
	uint16_t rel = (uint16_t)(fi.tag.stream - x->dir);

	if (fi.tag.trial != r->cfg->trial_id || (rel & 1) || rel / 2 >= x->nst) {
		d->stale++;
		return;
	}
	if (ts > r->deadline) {
		d->late++;
		return;
	}
	/* A tag that claims a frame not sent yet is someone else's (forged
	 * or corrupt past the check): stale, as the XDP analyzer counts it.
	 * The bound is fetched afresh only when a frame reaches it, so the
	 * generator's counter is read about once per slack of frames. */
	struct seqtrack *t = &x->st[rel / 2];

	if (seqtrack_ahead(t, fi.tag.seq) >= x->bound[rel / 2])
		x->bound[rel / 2] = seq_bound(r, x->dir, rel / 2);
	if (!seqtrack_add(t, fi.tag.seq, x->bound[rel / 2])) {
		d->stale++;
		return;
	}
	hist_add(&d->latency, tag_latency_ns(fi.tag.ts, ts - r->t_start));
	__atomic_store_n(&x->received, x->received + 1, __ATOMIC_RELAXED);
}

static void *rx_main(void *arg)
{
	struct rx_ctx *x = arg;
	struct run *r = x->run;

	pin(r->cfg->rx_cpu);
	/* Counted in the kernel: only follow the count for the progress line.
	 * This thread sleeps between reads. It once spun at SCHED_IDLE to keep
	 * the analyzer's CPU out of idle, but since Linux 6.12 a fair task that
	 * is always runnable next to a busy SCHED_FIFO thread (the port's NAPI
	 * thread) is served by the fair server, which runs it ahead of the
	 * FIFO thread for up to 50 ms a second: the port's ring overflowed in
	 * holes of 50 ms (4% of the frames at 6 Mpps; 0.07% with this thread
	 * asleep). */
	if (x->xc) {
		for (;;) {
			uint64_t t = now_ns();

			__atomic_store_n(&x->received, xdpcount_received(x->xc), __ATOMIC_RELAXED);
			if (r->stop_rx || t > r->deadline + RX_GRACE_NS)
				return NULL;
			sleep_until(t + 20000000ULL);
		}
	}
	for (;;) {
		int n = port_rx_poll(x->port, on_frame, x, 10);

		if (n < 0) {
			x->rc = n;
			snprintf(x->err, sizeof(x->err), "receive: %s", strerror(-n));
			break;
		}
		if (n == 0 && (r->stop_rx || now_ns() > r->deadline + RX_GRACE_NS))
			break;
	}
	return NULL;
}

/* ---- setup ---- */

struct port_slot {
	const char *ifname;
	int nsfd;
	bool tx, rx;
	struct port *port;
};

static struct port_slot *port_find(struct port_slot *ps, unsigned int *n, const char *ifname, int nsfd)
{
	for (unsigned int i = 0; i < *n; i++)
		if (!strcmp(ps[i].ifname, ifname) && ps[i].nsfd == nsfd)
			return &ps[i];
	ps[*n] = (struct port_slot){ .ifname = ifname, .nsfd = nsfd };
	return &ps[(*n)++];
}

/* Build every TX slot of g's port once: slot i carries size i % nsizes and
 * flow i % flows; only the tag changes afterwards. */
static int gen_build(struct gen_ctx *g, const struct trial_cfg *c, char *err, size_t errlen)
{
	struct frame_spec spec = c->dir[g->dir].spec;
	uint32_t nflows = frame_flows_count(&c->flows);

	g->nslots = port_tx_slots(g->port);
	g->slot = calloc(g->nslots, sizeof(*g->slot));
	g->slot_len = calloc(g->nslots, sizeof(*g->slot_len));
	if (!g->slot || !g->slot_len) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < g->nslots; i++) {
		struct frame_layout lay;
		int rc;

		spec.size = c->sizes[i % c->nsizes];
		g->slot[i] = port_tx_slot(g->port, i);
		if ((rc = frame_build(&spec, g->slot[i], spec.size, &lay, err, errlen)))
			return rc;
		frame_set_flow(g->slot[i], &lay, &c->flows, i % nflows);
		g->slot_len[i] = lay.len;
		g->payload_off = lay.payload_off;
	}
	return 0;
}

int trial_run(const struct trial_cfg *c, struct trial_result *res,
	      const volatile sig_atomic_t *stop, trial_progress_fn progress,
	      void *pctx, char *err, size_t errlen)
{
	struct port_slot ps[4];
	unsigned int nps = 0, maxsz = 0;
	struct run *r;
	pthread_t gt[2 * TRIAL_MAX_THREADS], rt[2];
	unsigned int ngt = 0, nrt = 0;
	uint64_t learn_ns = 0, next_progress;
	bool closed = false;
	int rc;

	if ((rc = trial_cfg_check(c, err, errlen)))
		return rc;
	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->cfg = c;
	r->nthreads = trial_threads(c);
	memset(res, 0, sizeof(*res));
	res->ndirs = c->ndirs;
	for (unsigned int i = 0; i < c->nsizes; i++) {
		res->avg_frame_size += c->sizes[i] / (double)c->nsizes;
		if (c->sizes[i] > maxsz)
			maxsz = c->sizes[i];
	}

	if ((rc = trial_mtu_check(c, err, errlen)))
		goto out;
	/* One port per interface, transmitting and/or receiving. */
	for (unsigned int d = 0; d < c->ndirs; d++) {
		if (!c->xdp_gen)
			port_find(ps, &nps, c->dir[d].tx_if, c->dir[d].tx_nsfd)->tx = true;
		if (!c->xdp_rx)
			port_find(ps, &nps, c->dir[d].rx_if, c->dir[d].rx_nsfd)->rx = true;
	}
	for (unsigned int i = 0; i < nps; i++) {
		struct port_cfg pc = { .ifname = ps[i].ifname, .nsfd = ps[i].nsfd, .tx = ps[i].tx,
				       .rx = ps[i].rx, .frame_max = maxsz };

		if (!(ps[i].port = port_open(c->port_type, &pc, err, errlen))) {
			rc = -EIO;
			goto out;
		}
	}
	for (unsigned int d = 0; d < c->ndirs; d++) {
		struct rx_ctx *x = &r->rx[d];
		/* Cabled back to back, the far end's ring is the tester's own:
		 * the XDP generator keeps a window of frames to the analyzer. */
		bool flow = c->dir[d].direct && c->xdp_gen && c->xdp_rx && !c->no_flow_control;

		if (c->xdp_rx) {
			struct xdpcount_cfg xc = { .ifname = c->dir[d].rx_if, .nsfd = c->dir[d].rx_nsfd,
						   .frames = (uint64_t)(c->rate_pps * (double)c->duration_ns / 1e9),
						   .streams = r->nthreads, .cpu = c->rx_cpu };

			if (!(x->xc = xdpcount_open(&xc, err, errlen))) {
				rc = -EIO;
				goto out;
			}
		}
		for (unsigned int k = 0; k < r->nthreads; k++) {
			struct gen_ctx *g = &r->gen[d][k];

			g->run = r;
			g->dir = d;
			g->k = k;
			g->stream = (uint16_t)(d + 2 * k);
			if (c->xdp_gen) {
				struct frame_spec spec = c->dir[d].spec;
				struct xdpgen_cfg xc = { .ifname = c->dir[d].tx_if, .nsfd = c->dir[d].tx_nsfd,
							 .spec = &spec, .flows = &c->flows,
							 .flow_fd = flow ? xdpcount_flow_fd(x->xc) : 0 };

				spec.size = c->sizes[0];
				/* the threads may share a ring: each a part of the window */
				g->window = flow ? XDPGEN_FLOW_WINDOW / r->nthreads : 0;
				if (!(g->xg = xdpgen_open(&xc, err, errlen))) {
					rc = -EIO;
					goto out;
				}
			} else {
				if (!k) {
					g->port = port_find(ps, &nps, c->dir[d].tx_if, c->dir[d].tx_nsfd)->port;
				} else {
					/* a socket of its own, on queue k where queues are chosen */
					struct port_cfg pc = { .ifname = c->dir[d].tx_if, .nsfd = c->dir[d].tx_nsfd,
							       .tx = true, .frame_max = maxsz, .tx_queue = k };

					if (!(g->port = g->own_port = port_open(c->port_type, &pc, err, errlen))) {
						rc = -EIO;
						goto out;
					}
				}
				if ((rc = gen_build(g, c, err, errlen)))
					goto out;
			}
		}
		x->run = r;
		x->dir = d;
		x->nst = r->nthreads;
		x->res = &res->dir[d];
		if (!c->xdp_rx)
			x->port = port_find(ps, &nps, c->dir[d].rx_if, c->dir[d].rx_nsfd)->port;
		x->st = malloc(r->nthreads * sizeof(*x->st));
		x->bound = calloc(r->nthreads, sizeof(*x->bound));
		if (!x->st || !x->bound) {
			rc = -ENOMEM;
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		for (unsigned int k = 0; k < r->nthreads; k++)
			seqtrack_init(&x->st[k], 0);
		hist_reset(&res->dir[d].latency);
	}

	/* How far apart the host has the generator's and the analyzer's CPUs
	 * now: the XDP path's ceiling moves with it (docs/measurement.md). */
	if (r->nthreads == 1 && c->gen_cpu[0] >= 0 && c->rx_cpu >= 0 && c->gen_cpu[0] != c->rx_cpu) {
		char e2[256];

		if (cpulat_measure(c->gen_cpu[0], c->rx_cpu, &res->cpu_line_ns, e2, sizeof(e2)))
			res->cpu_line_ns = 0;
	}

	/* The timeline, fixed before any thread starts. */
	if (c->learn_frames) {
		double lr = c->rate_pps < LEARN_RATE_MAX ? c->rate_pps : LEARN_RATE_MAX;

		learn_ns = (uint64_t)((double)c->learn_frames / lr * 1e9) + c->learn_wait_ns;
	}
	r->t_learn = now_ns() + START_DELAY_NS;
	r->t_start = r->t_learn + learn_ns;
	r->t_end = r->t_start + c->duration_ns;
	r->deadline = r->t_end + c->drain_ns;
	r->limit = (uint64_t)(c->rate_pps * (double)c->duration_ns / 1e9);
	/* Thread k takes slots k, k + N, k + 2N...: rate/N from its own start. */
	for (unsigned int d = 0; d < c->ndirs; d++)
		for (unsigned int k = 0; k < r->nthreads; k++) {
			struct gen_ctx *g = &r->gen[d][k];

			g->rate = c->rate_pps / r->nthreads;
			g->start_ns = r->t_start + (uint64_t)((double)k * 1e9 / c->rate_pps);
			g->limit = r->limit / r->nthreads + (k < r->limit % r->nthreads);
		}
	for (unsigned int d = 0; d < c->ndirs; d++)
		if (r->rx[d].xc) {
			struct xdpcount_arm a = { .trial = c->trial_id, .learn_trial = c->trial_id ^ 0x8000,
						  .stream = (uint16_t)d, .epoch_ns = r->t_start,
						  .deadline_ns = r->deadline,
						  .latency_every = c->latency_every ? c->latency_every :
							  xdpcount_latency_every(c->rate_pps / r->nthreads) };

			res->dir[d].latency_every = a.latency_every;

			xdpcount_set(r->rx[d].xc, &a);
		}

	for (unsigned int d = 0; d < c->ndirs; d++)
		r->peer_read[d] = !peer_drops(&c->dir[d], &r->peer_drops0[d]);

	for (unsigned int d = 0; d < c->ndirs; d++) {
		if ((rc = -pthread_create(&rt[nrt], NULL, rx_main, &r->rx[d]))) {
			snprintf(err, errlen, "cannot start the analyzer: %s", strerror(-rc));
			goto stop;
		}
		nrt++;
	}
	for (unsigned int d = 0; d < c->ndirs; d++)
		for (unsigned int k = 0; k < r->nthreads; k++) {
			if ((rc = -pthread_create(&gt[ngt], NULL, gen_main, &r->gen[d][k]))) {
				snprintf(err, errlen, "cannot start the generator: %s", strerror(-rc));
				goto stop;
			}
			ngt++;
		}

	/* Wait: report progress, watch for the caller's stop. */
	next_progress = r->t_learn + 1000000000ULL;
	for (;;) {
		uint64_t t = now_ns();
		bool gens_done = t > r->t_end + 200000000ULL;

		/* The DUT's CPU figures cover the traffic window only. */
		if (c->cost && !cpucost_started(c->cost) && t >= r->t_start)
			cpucost_mark_start(c->cost);
		if (c->cost && cpucost_started(c->cost) && !cpucost_ended(c->cost) && (t >= r->t_end || r->stop_gen))
			cpucost_mark_end(c->cost);
		/* A stop after the traffic's end changes nothing: the trial is
		 * whole, and its drain (at most drain_ns) ends as planned. */
		if (stop && *stop && !r->stop_gen && t < r->t_end) {
			r->stop_gen = 1;
			res->interrupted = true;
			r->deadline = t + c->drain_ns;
			for (unsigned int d = 0; d < c->ndirs; d++) {
				for (unsigned int k = 0; k < r->nthreads; k++)
					if (r->gen[d][k].xg)
						xdpgen_stop(r->gen[d][k].xg);
				if (r->rx[d].xc)
					xdpcount_set_deadline(r->rx[d].xc, r->deadline);
			}
		}
		/* An XDP generator's call runs on, dropping, until its slack is
		 * over: end it once every frame is out. */
		for (unsigned int d = 0; d < c->ndirs && t >= r->t_end; d++)
			for (unsigned int k = 0; k < r->nthreads; k++)
				if (r->gen[d][k].xg && xdpgen_sent(r->gen[d][k].xg) >= r->gen[d][k].limit)
					xdpgen_stop(r->gen[d][k].xg);
		if (progress && t >= next_progress) {
			struct trial_progress p = { .duration_ns = c->duration_ns };

			p.phase = t < r->t_start ? "learning" : t < r->t_end && !r->stop_gen ? "traffic" : "drain";
			p.elapsed_ns = t > r->t_start ? t - r->t_start : 0;
			for (unsigned int d = 0; d < c->ndirs; d++) {
				for (unsigned int k = 0; k < r->nthreads; k++) {
					struct gen_ctx *g = &r->gen[d][k];

					if (g->xg && t >= r->t_start)
						p.tx += xdpgen_sent(g->xg);
					else
						p.tx += __atomic_load_n(&g->sent, __ATOMIC_RELAXED);
				}
				p.rx += __atomic_load_n(&r->rx[d].received, __ATOMIC_RELAXED);
			}
			progress(pctx, &p);
			next_progress += 1000000000ULL;
		}
		if (t > r->deadline && !closed) {
			for (unsigned int d = 0; d < c->ndirs; d++)
				if (r->rx[d].xc)
					xdpcount_close_window(r->rx[d].xc);
			closed = true;
		}
		if (t > r->deadline + RX_GRACE_NS && (gens_done || r->stop_gen))
			break;
		usleep(20000);
	}
	rc = 0;
stop:
	if (rc) {
		r->stop_gen = 1;
		r->stop_rx = 1;
		r->deadline = 0;
		for (unsigned int d = 0; d < c->ndirs; d++)
			for (unsigned int k = 0; k < r->nthreads; k++)
				if (r->gen[d][k].xg)
					xdpgen_stop(r->gen[d][k].xg);
	}
	for (unsigned int i = 0; i < ngt; i++)
		pthread_join(gt[i], NULL);
	r->stop_rx = 1;
	for (unsigned int i = 0; i < nrt; i++)
		pthread_join(rt[i], NULL);
	if (c->cost && cpucost_started(c->cost) && !cpucost_ended(c->cost))
		cpucost_mark_end(c->cost);
	for (unsigned int d = 0; !rc && d < c->ndirs; d++) {
		for (unsigned int k = 0; !rc && k < r->nthreads; k++)
			if (r->gen[d][k].rc) {
				rc = r->gen[d][k].rc;
				snprintf(err, errlen, "generator: %s", r->gen[d][k].err);
			}
		if (rc)
			break;
		if (r->rx[d].rc) {
			rc = r->rx[d].rc;
			snprintf(err, errlen, "analyzer: %s", r->rx[d].err);
		}
	}
	if (!rc) {
		uint64_t stopped = 0;

		for (unsigned int d = 0; d < c->ndirs; d++) {
			trial_finish_dir(r, d, res, res->interrupted);
			for (unsigned int k = 0; k < r->nthreads; k++)
				if (r->gen[d][k].stopped_ns > stopped)
					stopped = r->gen[d][k].stopped_ns;
		}
		res->elapsed_ns = stopped > r->t_start ? stopped - r->t_start : 0;
	}
out:
	for (unsigned int d = 0; d < 2; d++) {
		for (unsigned int k = 0; k < TRIAL_MAX_THREADS; k++) {
			struct gen_ctx *g = &r->gen[d][k];

			xdpgen_close(g->xg);
			free(g->slot);
			free(g->slot_len);
			port_close(g->own_port);
		}
		xdpcount_close(r->rx[d].xc);
		free(r->rx[d].st);
		free(r->rx[d].bound);
	}
	for (unsigned int i = 0; i < nps; i++)
		port_close(ps[i].port);
	free(r);
	return rc;
}
