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

#include "engine/cpucost.h"
#include "io/analyzer.h"
#include "io/gen.h"
#include "os/clock.h"
#include "os/cpulat.h"

#define START_DELAY_NS	(50 * NSEC_PER_MSEC)	/* threads up and pinned before the first frame */
#define RX_GRACE_NS	(150 * NSEC_PER_MSEC)	/* keep reading the ring after the deadline */
#define LEARN_RATE_MAX	100000.0
#define LEARN_LEAD_NS	(10 * NSEC_PER_MSEC)	/* after the last learning frame is due */
#define PROGRESS_NS	NSEC_PER_SEC
#define WAIT_US		20000			/* the control loop's period */
/* The counters for the loss attribution are read at least this long
 * before the traffic (two of the loop's turns; a namespace's snapshot
 * takes about a ms, a TCG guest's tens): after the learning frames,
 * before the first test frame. */
#define SNAP_LEAD_NS	(2 * WAIT_US * NSEC_PER_USEC)

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

/* The learning frames (thread 0 only), then the traffic, each one phase of
 * the generator; the figures are kept for trial_result_finish_dir. */
static void *gen_main(void *arg)
{
	struct gen_ctx *g = arg;
	struct run *r = g->run;
	const struct trial_cfg *c = r->cfg;
	struct gen_stats st;

	pin(c->gen_cpu[g->k]);
	/* The other threads wait out the learning frames, so that the
	 * refused counter's window is the traffic's. */
	if (g->k)
		clock_sleep_until(r->t_start - START_DELAY_NS / 2);
	if (c->learn_frames && !g->k) {
		double lr = c->rate_pps < LEARN_RATE_MAX ? c->rate_pps : LEARN_RATE_MAX;
		struct gen_phase ph = { .rate_pps = lr, .start_ns = r->t_learn, .end_ns = r->t_start,
					.soft_end_ns = r->t_learn + (uint64_t)((double)c->learn_frames / lr * NSEC_PER_SEC) +
						       LEARN_LEAD_NS,
					.limit = c->learn_frames, .epoch_ns = r->t_learn, .max_burst = c->max_burst,
					.trial = c->trial_id ^ 0x8000, .stream = trial_stream_id(g->dir, 0) };

		if ((g->rc = gen_run(g->gen, &ph, g->err, sizeof(g->err))))
			return NULL;
		gen_stats(g->gen, &st);
		g->learning_sent = st.sent;
	}
	gen_ring_refused(g->gen, &g->refused0);
	/* Behind at the end: give up after 5% of the trial (at least 100 ms). */
	uint64_t slack = c->duration_ns / 20 > 100 * NSEC_PER_MSEC ? c->duration_ns / 20 : 100 * NSEC_PER_MSEC;
	struct gen_phase ph = { .rate_pps = g->rate, .start_ns = g->start_ns,
				.end_ns = r->t_end + slack, .limit = g->limit, .epoch_ns = r->t_start,
				.max_burst = c->max_burst,
				.trial = c->trial_id, .stream = g->stream,
				.flow_slot = g->k, .latency_every = analyzer_latency_every(r->rx[g->dir].an),
				.window = g->window,
				.analyzer_apart = c->gen_cpu[g->k] >= 0 && c->rx_cpu >= 0 &&
						  c->gen_cpu[g->k] != c->rx_cpu };

	g->rc = gen_run(g->gen, &ph, g->err, sizeof(g->err));
	g->stopped_ns = clock_real_ns();
	gen_stats(g->gen, &st);
	/* A call that outlasts the traffic (the trial stops it once every
	 * frame is out, or the slack ends it) ended it with the last frame. */
	if (st.sent && st.last_ns > r->t_start && st.last_ns < g->stopped_ns)
		g->stopped_ns = st.last_ns;
	gen_ring_refused(g->gen, &g->refused1);
	g->flow_waits = st.flow_waits;
	g->flow_gave_up = st.flow_gave_up;
	g->batch = st.batch;
	g->max_backlog = st.max_backlog;
	g->largest_burst = st.largest_burst;
	g->tx_errors = st.tx_errors;
	__atomic_store_n(&g->sent, st.sent, __ATOMIC_RELAXED);
	return NULL;
}

/* ---- analyzer ---- */

/* Indexes stream k of a direction cannot have reached yet: what its
 * generator has sent so far plus slack, and never its limit. A batch is
 * tagged and on the wire before the generator stores its count (max_burst
 * frames at most); the rest is margin for that store reaching the
 * analyzer's CPU late. */
static uint64_t seq_bound(void *arg, unsigned int k)
{
	const struct rx_ctx *x = arg;
	const struct gen_ctx *g = &x->run->gen[x->dir][k];
	uint64_t b = gen_sent(g->gen) + 4ULL * x->run->cfg->max_burst + 1024;

	return g->limit && b > g->limit ? g->limit : b;
}

static void *rx_main(void *arg)
{
	struct rx_ctx *x = arg;
	struct run *r = x->run;

	pin(r->cfg->rx_cpu);
	x->rc = analyzer_run(x->an, &r->stop_rx, RX_GRACE_NS, x->err, sizeof(x->err));
	return NULL;
}

/* ---- setup ---- */

/* One port per interface, transmitting and/or receiving, shared by the
 * generator and the analyzer that need one there. */
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

/* The port opened on ifname for transmitting (tx) or receiving, or NULL. */
static struct port *port_lookup(struct port_slot *ps, unsigned int n, const char *ifname, int nsfd, bool tx)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(ps[i].ifname, ifname) && ps[i].nsfd == nsfd && (tx ? ps[i].tx : ps[i].rx))
			return ps[i].port;
	return NULL;
}

/* What trial_run holds while it runs: the ports and the threads. */
struct hold {
	struct port_slot ps[2 * TRIAL_MAX_DIRS];
	unsigned int nps, maxsz;	/* ports; the largest frame */
	pthread_t gen[TRIAL_MAX_DIRS * TRIAL_MAX_THREADS], rx[TRIAL_MAX_DIRS];
	unsigned int ngen, nrx;		/* threads started */
};

/* The ports the generators and analyzers share (none for the XDP ones):
 * each interface opened once, for sending, receiving or both. */
static int open_ports(struct run *r, struct hold *h, char *err, size_t errlen)
{
	const struct trial_cfg *c = r->cfg;

	for (unsigned int d = 0; d < c->ndirs; d++) {
		if (trial_gen_type(c) == GEN_PORT)
			port_find(h->ps, &h->nps, c->dir[d].tx_if, c->dir[d].tx_nsfd)->tx = true;
		if (trial_analyzer_type(c) == ANALYZER_PORT)
			port_find(h->ps, &h->nps, c->dir[d].rx_if, c->dir[d].rx_nsfd)->rx = true;
	}
	for (unsigned int i = 0; i < h->nps; i++) {
		struct port_cfg pc = { .ifname = h->ps[i].ifname, .nsfd = h->ps[i].nsfd, .tx = h->ps[i].tx,
				       .rx = h->ps[i].rx, .frame_max = h->maxsz };

		if (!(h->ps[i].port = port_open(c->port_type, &pc, err, errlen)))
			return -EIO;
	}
	return 0;
}

/* Each direction's analyzer and its generator threads. */
static int create_ends(struct run *r, struct hold *h, struct trial_result *res, char *err, size_t errlen)
{
	const struct trial_cfg *c = r->cfg;

	for (unsigned int d = 0; d < c->ndirs; d++) {
		struct rx_ctx *x = &r->rx[d];
		struct analyzer_cfg ac = { .type = trial_analyzer_type(c), .ifname = c->dir[d].rx_if,
					   .nsfd = c->dir[d].rx_nsfd,
					   .port = port_lookup(h->ps, h->nps, c->dir[d].rx_if, c->dir[d].rx_nsfd, false),
					   .port_type = c->port_type,
					   .frames = (uint64_t)(c->rate_pps * (double)c->duration_ns / NSEC_PER_SEC),
					   .streams = r->nthreads, .cpu = c->rx_cpu, .capture = c->capture };
		/* Cabled back to back, the far end's ring is the tester's own:
		 * a generator that can keeps a window of frames to the analyzer. */
		bool flow = c->dir[d].direct && !c->no_flow_control;

		x->run = r;
		x->dir = d;
		if (!(x->an = analyzer_create(&ac, err, errlen)))
			return -EIO;
		for (unsigned int k = 0; k < r->nthreads; k++) {
			struct gen_ctx *g = &r->gen[d][k];
			/* thread k > 0 has a socket of its own, on queue k where
			 * queues are chosen */
			struct gen_cfg gc = { .type = trial_gen_type(c), .ifname = c->dir[d].tx_if,
					      .nsfd = c->dir[d].tx_nsfd,
					      .port = k ? NULL : port_lookup(h->ps, h->nps, c->dir[d].tx_if,
									     c->dir[d].tx_nsfd, true),
					      .port_type = c->port_type, .tx_queue = k, .frame_max = h->maxsz,
					      .spec = &c->dir[d].spec, .sizes = c->sizes, .nsizes = c->nsizes,
					      .flows = &c->flows, .flow_fd = flow ? analyzer_flow_fd(x->an) : 0 };

			g->run = r;
			g->dir = d;
			g->k = k;
			g->stream = trial_stream_id(d, k);
			if (!(g->gen = gen_create(&gc, err, errlen)))
				return -EIO;
			/* the threads may share a ring: each a part of the window */
			g->window = gen_flow_window(g->gen) / r->nthreads;
		}
		hist_reset(&res->dir[d].latency);
	}
	return 0;
}

/* The timeline, fixed before any thread starts, and each end armed
 * with it; the far ends' drop counters read before the traffic. */
static void plan(struct run *r, struct trial_result *res)
{
	const struct trial_cfg *c = r->cfg;
	uint64_t learn_ns = 0;

	/* How far apart the host has the generator's and the analyzer's CPUs
	 * now: the XDP path's ceiling moves with it (docs/measurement.md). */
	if (r->nthreads == 1 && c->gen_cpu[0] >= 0 && c->rx_cpu >= 0 && c->gen_cpu[0] != c->rx_cpu) {
		char e2[256];

		if (cpulat_measure(c->gen_cpu[0], c->rx_cpu, &res->cpu_line_ns, e2, sizeof(e2)))
			res->cpu_line_ns = 0;
	}
	if (c->learn_frames) {
		double lr = c->rate_pps < LEARN_RATE_MAX ? c->rate_pps : LEARN_RATE_MAX;

		learn_ns = (uint64_t)((double)c->learn_frames / lr * NSEC_PER_SEC) + c->learn_wait_ns;
	}
	/* Without learning frames the DUT's counters are read now, before
	 * any frame. With them, between the learning and the traffic: a
	 * first reading says how long one takes (a VM's agent answers in
	 * tens of ms, longer when its vCPU stalls), and the traffic waits
	 * three times that, so the reading ends before the first frame. */
	r->snap_lead_ns = SNAP_LEAD_NS;
	if (c->dut.on) {
		uint64_t t0 = clock_real_ns();

		trial_loss_before(r);
		if (c->learn_frames) {
			uint64_t took = clock_real_ns() - t0;

			if (3 * took > r->snap_lead_ns)
				r->snap_lead_ns = 3 * took;
			dutsnap_clear(r->snap0);
			free(r->snap0);
			r->snap0 = NULL;
			r->snap_tried = false;
			learn_ns += r->snap_lead_ns;
		}
	}
	r->t_learn = clock_real_ns() + START_DELAY_NS;
	r->t_start = r->t_learn + learn_ns;
	r->t_end = r->t_start + c->duration_ns;
	r->deadline = r->t_end + c->drain_ns;
	r->limit = (uint64_t)(c->rate_pps * (double)c->duration_ns / NSEC_PER_SEC);
	/* Thread k takes slots k, k + N, k + 2N...: rate/N from its own start. */
	for (unsigned int d = 0; d < c->ndirs; d++)
		for (unsigned int k = 0; k < r->nthreads; k++) {
			struct gen_ctx *g = &r->gen[d][k];

			g->rate = c->rate_pps / r->nthreads;
			g->start_ns = r->t_start + (uint64_t)((double)k * NSEC_PER_SEC / c->rate_pps);
			g->limit = r->limit / r->nthreads + (k < r->limit % r->nthreads);
		}
	for (unsigned int d = 0; d < c->ndirs; d++) {
		struct analyzer_arm a = { .trial = c->trial_id, .learn_trial = c->trial_id ^ 0x8000,
					  .stream = trial_stream_id(d, 0), .epoch_ns = r->t_start,
					  .deadline_ns = r->deadline, .latency_every = c->latency_every,
					  .stream_pps = c->rate_pps / r->nthreads,
					  .bound = seq_bound, .bound_ctx = &r->rx[d] };

		analyzer_arm(r->rx[d].an, &a);
		res->dir[d].latency_every = analyzer_latency_every(r->rx[d].an);
	}
	for (unsigned int d = 0; d < c->ndirs; d++) {
		struct link_info li;

		r->peer_read[d] = !trial_peer_drops(&c->dir[d], &r->peer_drops0[d]);
		/* A veth's or a tap's next hop is a queue in the kernel that the
		 * DUT drains (a veth peer's ring, a tap's reader): when it is
		 * full, the DUT refuses. A NIC's is the wire (its line rate, or
		 * the DUT's pause frames): the tester's. Back to back, the far
		 * end is the tester's own. */
		r->next_hop_dut[d] = !c->dir[d].direct &&
				     ((c->dut.on && c->dut.lab) ||
				      (!nl_link_get_in(c->dir[d].tx_nsfd, c->dir[d].tx_if, &li) &&
				       (!strcmp(li.kind, "veth") || !strcmp(li.kind, "tun"))));
	}
}

/* The analyzers' threads, then the generators'. */
static int start_threads(struct run *r, struct hold *h, char *err, size_t errlen)
{
	const struct trial_cfg *c = r->cfg;
	int rc;

	for (unsigned int d = 0; d < c->ndirs; d++) {
		if ((rc = -pthread_create(&h->rx[h->nrx], NULL, rx_main, &r->rx[d]))) {
			snprintf(err, errlen, "cannot start the analyzer: %s", strerror(-rc));
			return rc;
		}
		h->nrx++;
	}
	for (unsigned int d = 0; d < c->ndirs; d++)
		for (unsigned int k = 0; k < r->nthreads; k++) {
			if ((rc = -pthread_create(&h->gen[h->ngen], NULL, gen_main, &r->gen[d][k]))) {
				snprintf(err, errlen, "cannot start the generator: %s", strerror(-rc));
				return rc;
			}
			h->ngen++;
		}
	return 0;
}

/* Every generator stopped, and the analyzers' deadline moved to deadline
 * (0: stop reading at once). */
static void stop_all(struct run *r, uint64_t deadline)
{
	const struct trial_cfg *c = r->cfg;

	r->stop_gen = 1;
	r->deadline = deadline;
	for (unsigned int d = 0; d < c->ndirs; d++) {
		for (unsigned int k = 0; k < r->nthreads; k++)
			gen_stop(r->gen[d][k].gen);
		analyzer_set_deadline(r->rx[d].an, deadline);
	}
}

/* The progress line's figures at t. */
static void show(struct run *r, uint64_t t, trial_progress_fn progress, void *pctx)
{
	const struct trial_cfg *c = r->cfg;
	struct trial_progress p = { .duration_ns = c->duration_ns };

	p.phase = t < r->t_start ? "learning" : t < r->t_end && !r->stop_gen ? "traffic" : "drain";
	p.elapsed_ns = t > r->t_start ? t - r->t_start : 0;
	for (unsigned int d = 0; d < c->ndirs; d++) {
		/* before the traffic, a phase's count is the learning frames' */
		for (unsigned int k = 0; k < r->nthreads && t >= r->t_start; k++)
			p.tx += gen_sent(r->gen[d][k].gen);
		p.rx += analyzer_received(r->rx[d].an);
	}
	progress(pctx, &p);
}

/* The trial's course, watched until the drain is over: the DUT's
 * counters and CPU window, the caller's stop, progress. */
static void watch(struct run *r, struct trial_result *res, const volatile sig_atomic_t *stop,
		  trial_progress_fn progress, void *pctx)
{
	const struct trial_cfg *c = r->cfg;
	uint64_t next_progress = r->t_learn + PROGRESS_NS;
	bool closed = false;

	for (;;) {
		uint64_t t = clock_real_ns();
		bool gens_done = t > r->t_end + 200 * NSEC_PER_MSEC;

		if (!r->snap_tried && t + r->snap_lead_ns >= r->t_start) {
			trial_loss_before(r);
			if (r->snap0 && clock_real_ns() > r->t_start)
				r->snap_late = true;
		}
		/* The DUT's CPU figures cover the traffic window only. */
		if (c->cost && !cpucost_started(c->cost) && t >= r->t_start)
			cpucost_mark_start(c->cost);
		if (c->cost && cpucost_started(c->cost) && !cpucost_ended(c->cost) && (t >= r->t_end || r->stop_gen))
			cpucost_mark_end(c->cost);
		/* A stop after the traffic's end changes nothing: the trial is
		 * whole, and its drain (at most drain_ns) ends as planned. */
		if (stop && *stop && !r->stop_gen && t < r->t_end) {
			res->interrupted = true;
			stop_all(r, t + c->drain_ns);
		}
		/* A generator may run on after its last frame (the XDP one's call
		 * drops until its slack is over): end it once every frame is out. */
		for (unsigned int d = 0; d < c->ndirs && t >= r->t_end; d++)
			for (unsigned int k = 0; k < r->nthreads; k++)
				if (gen_sent(r->gen[d][k].gen) >= r->gen[d][k].limit)
					gen_stop(r->gen[d][k].gen);
		if (progress && t >= next_progress) {
			show(r, t, progress, pctx);
			next_progress += PROGRESS_NS;
		}
		if (t > r->deadline && !closed) {
			for (unsigned int d = 0; d < c->ndirs; d++)
				analyzer_close_window(r->rx[d].an);
			closed = true;
		}
		if (t > r->deadline + RX_GRACE_NS && (gens_done || r->stop_gen))
			break;
		usleep(WAIT_US);
	}
}

/* After the threads: the first one's failure, else every direction's
 * figures and the DUT's attribution into res. */
static int collect(struct run *r, struct trial_result *res, char *err, size_t errlen)
{
	const struct trial_cfg *c = r->cfg;
	uint64_t stopped = 0;

	for (unsigned int d = 0; d < c->ndirs; d++) {
		for (unsigned int k = 0; k < r->nthreads; k++)
			if (r->gen[d][k].rc) {
				snprintf(err, errlen, "generator: %s", r->gen[d][k].err);
				return r->gen[d][k].rc;
			}
		if (r->rx[d].rc) {
			snprintf(err, errlen, "analyzer: %s", r->rx[d].err);
			return r->rx[d].rc;
		}
	}
	for (unsigned int d = 0; d < c->ndirs; d++) {
		trial_result_finish_dir(r, d, res, res->interrupted);
		for (unsigned int k = 0; k < r->nthreads; k++)
			if (r->gen[d][k].stopped_ns > stopped)
				stopped = r->gen[d][k].stopped_ns;
	}
	res->elapsed_ns = stopped > r->t_start ? stopped - r->t_start : 0;
	trial_loss_after(r, res);
	return 0;
}

int trial_run(const struct trial_cfg *c, struct trial_result *res,
	      const volatile sig_atomic_t *stop, trial_progress_fn progress,
	      void *pctx, char *err, size_t errlen)
{
	struct hold *h;
	struct run *r;
	int rc;

	if ((rc = trial_preflight_check(c, err, errlen)))
		return rc;
	r = calloc(1, sizeof(*r));
	h = calloc(1, sizeof(*h));
	if (!r || !h) {
		free(r);
		free(h);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	r->cfg = c;
	r->nthreads = trial_threads(c);
	memset(res, 0, sizeof(*res));
	res->ndirs = c->ndirs;
	for (unsigned int i = 0; i < c->nsizes; i++) {
		res->avg_frame_size += c->sizes[i] / (double)c->nsizes;
		if (c->sizes[i] > h->maxsz)
			h->maxsz = c->sizes[i];
	}
	if ((rc = trial_preflight_mtu(c, err, errlen)) || (rc = open_ports(r, h, err, errlen)) ||
	    (rc = create_ends(r, h, res, err, errlen)))
		goto out;
	plan(r, res);
	if (!(rc = start_threads(r, h, err, errlen))) {
		watch(r, res, stop, progress, pctx);
	} else {
		stop_all(r, 0);
		r->stop_rx = 1;
	}
	for (unsigned int i = 0; i < h->ngen; i++)
		pthread_join(h->gen[i], NULL);
	r->stop_rx = 1;
	for (unsigned int i = 0; i < h->nrx; i++)
		pthread_join(h->rx[i], NULL);
	if (c->cost && cpucost_started(c->cost) && !cpucost_ended(c->cost))
		cpucost_mark_end(c->cost);
	if (!rc)
		rc = collect(r, res, err, errlen);
out:
	for (unsigned int d = 0; d < TRIAL_MAX_DIRS; d++) {
		for (unsigned int k = 0; k < TRIAL_MAX_THREADS; k++)
			gen_destroy(r->gen[d][k].gen);
		analyzer_destroy(r->rx[d].an);
	}
	for (unsigned int i = 0; i < h->nps; i++)
		port_close(h->ps[i].port);
	dutsnap_clear(r->snap0);
	free(r->snap0);
	free(r);
	free(h);
	return rc;
}
