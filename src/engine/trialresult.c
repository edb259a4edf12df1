/* A trial's result, one direction at a time, once its threads have ended:
 * the generator threads' figures added up, the analyzer's counts, the
 * ports' and the far end's drops, and every reason the tester (not the
 * DUT) may have been the limit. trial.c runs the trial. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/trial_impl.h"
#include "io/xdpcount.h"

/* The direction's generator figures: its threads added up. */
struct gen_sum {
	uint64_t sent, learning_sent, tx_errors, stopped_ns, max_backlog;
	uint64_t refused0, refused1;
	unsigned int largest_burst;
	uint64_t flow_waits;
	unsigned int window, xdp_batch;
	bool flow_gave_up;
};

static void gen_sum(const struct run *r, unsigned int d, struct gen_sum *o)
{
	memset(o, 0, sizeof(*o));
	o->refused0 = UINT64_MAX;
	for (unsigned int k = 0; k < r->nthreads; k++) {
		const struct gen_ctx *g = &r->gen[d][k];

		o->sent += g->sent;
		o->learning_sent += g->learning_sent;
		o->tx_errors += g->tx_errors;
		o->window = g->window;
		if (g->xdp_batch > o->xdp_batch)
			o->xdp_batch = g->xdp_batch;
		o->flow_waits += g->flow_waits;
		o->flow_gave_up |= g->flow_gave_up;
		if (g->stopped_ns > o->stopped_ns)
			o->stopped_ns = g->stopped_ns;
		/* threads at rate/N that are each behind by b frames leave the
		 * direction behind by about N x b */
		o->max_backlog += g->ps.max_backlog;
		if (g->ps.largest_burst > o->largest_burst)
			o->largest_burst = g->ps.largest_burst;
		/* one counter for the whole port, read by every thread: the
		 * traffic's window runs from the first read to the last */
		if (g->refused0 < o->refused0)
			o->refused0 = g->refused0;
		if (g->refused1 > o->refused1)
			o->refused1 = g->refused1;
	}
	if (o->refused1 < o->refused0)
		o->refused0 = o->refused1;
}

void trial_finish_dir(struct run *r, unsigned int d, struct trial_result *res, bool interrupted)
{
	const struct trial_cfg *c = r->cfg;
	struct trial_dir_result *o = &res->dir[d];
	struct gen_ctx *g = &r->gen[d][0];
	struct gen_sum gs;
	struct seqtrack_stats ss;
	struct port_stats st;
	uint64_t now;
	double secs;

	gen_sum(r, d, &gs);
	secs = interrupted ? (double)(gs.stopped_ns - r->t_start) / 1e9 : c->duration_ns / 1e9;
	if (r->rx[d].xc) {
		struct xdpcount_result xr;

		if (!xdpcount_read(r->rx[d].xc, gs.sent, &xr, &o->latency)) {
			ss = xr.seq;
			o->late = xr.late;
			o->learning_rx = xr.learning;
			o->stale = xr.stale;
			memcpy(o->not_test, xr.not_test, sizeof(o->not_test));
			o->not_test_total = xr.not_test_total;
			o->tester_if_drops = xr.if_drops;
		} else {
			/* Nothing known: not a DUT result (marked below). */
			memset(&ss, 0, sizeof(ss));
			ss.lost = gs.sent;
			snprintf(o->tester_reason, sizeof(o->tester_reason), "the XDP analyzer's counters could not be read");
		}
	} else {
		/* each stream's loss against what its own thread sent */
		memset(&ss, 0, sizeof(ss));
		for (unsigned int k = 0; k < r->nthreads; k++) {
			struct seqtrack_stats one;

			seqtrack_stats(&r->rx[d].st[k], r->gen[d][k].sent, &one);
			ss.received += one.received;
			ss.distinct += one.distinct;
			ss.lost += one.lost;
			ss.reordered += one.reordered;
			ss.duplicate += one.duplicate;
			ss.late += one.late;
			if (one.max_extent > ss.max_extent)
				ss.max_extent = one.max_extent;
		}
	}
	o->target_pps = c->rate_pps;
	o->streams = r->nthreads;
	o->tx = gs.sent;
	o->rx = ss.distinct;
	o->lost = ss.lost;
	o->loss_pct = o->tx ? (double)o->lost * 100.0 / (double)o->tx : 0;
	o->reordered = ss.reordered;
	o->duplicate = ss.duplicate;
	o->out_of_window = ss.late;
	o->learning_tx = gs.learning_sent;
	o->largest_burst = gs.largest_burst;
	o->max_backlog = gs.max_backlog;
	o->offered_pps = secs > 0 ? (double)gs.sent / secs : 0;
	if (r->rx[d].port && !port_stats(r->rx[d].port, &st)) {
		o->tester_rx_drops = st.rx_drops;
		o->tester_if_drops = st.rx_if_drops;
	}
	o->tx_errors = gs.tx_errors;
	for (unsigned int k = 0; k < r->nthreads; k++)
		if (r->gen[d][k].port && !port_stats(r->gen[d][k].port, &st)) {
			o->tx_errors += st.tx_errors;
			o->tx_refused += st.tx_if_refused;
		}
	o->ring_drops = gs.refused1 - gs.refused0;
	o->flow_control = gs.window > 0;
	o->flow_window = gs.window;
	o->xdp_batch = gs.xdp_batch;
	o->flow_waits = gs.flow_waits;
	o->flow_gave_up = gs.flow_gave_up;
	/* The far end counts every frame it could not hand over; those our
	 * port counted itself (the backlog's drops, on a socket path) are in
	 * tester_if_drops already. */
	if (r->peer_read[d] && !peer_drops(&c->dir[d], &now) && now >= r->peer_drops0[d] &&
	    now - r->peer_drops0[d] > o->tester_if_drops)
		o->tester_refused = now - r->peer_drops0[d] - o->tester_if_drops;
	o->gen_path = g->xg ? "xdp" : port_type_name(c->port_type);
	o->rx_path = r->rx[d].xc ? "xdp" : port_type_name(c->port_type);

	/* Every cause that holds, the generator's first: a generator that
	 * fell short and a receive port that refused are both the tester's. */
	if (!o->tester_reason[0]) {
		char *rs = o->tester_reason;
		size_t n = 0, cap = sizeof(o->tester_reason);

#define REASON(...) (n += (size_t)snprintf(rs + n, n < cap ? cap - n : 0, "%s", n ? "; " : ""), \
		     n += (size_t)snprintf(rs + n, n < cap ? cap - n : 0, __VA_ARGS__))
		if (!interrupted && (double)gs.sent < (double)r->limit * (1.0 - TRIAL_TESTER_SHORTFALL))
			REASON("the generator offered %.0f frames/s, %.2f%% short of %.0f%s", o->offered_pps,
			       100.0 * (1.0 - (double)gs.sent / (double)r->limit), c->rate_pps,
			       o->tx_refused ? "; the next hop's queue was full and the kernel held frames back "
					       "(back-pressure: the DUT may be overloaded, see docs/measurement.md)" : "");
		if (o->tester_rx_drops)
			REASON("the tester's receive ring dropped %llu frames", (unsigned long long)o->tester_rx_drops);
		else if (o->tester_refused)
			REASON("the tester's receive port %s refused %llu frames (its ring was full: the "
			       "tester's CPU fell behind; %s counts them as transmit drops)",
			       c->dir[d].rx_if, (unsigned long long)o->tester_refused, c->dir[d].rx_peer_if);
		else if (c->dir[d].direct && o->ring_drops)
			REASON("the tester's receive port refused %llu XDP frames (its ring was full)",
			       (unsigned long long)o->ring_drops);
		else if (g->xg && o->learning_tx && !o->learning_rx)
			REASON("none of the %llu learning frames arrived: XDP frames vanish without a counter "
			       "when the far end of %s runs no XDP program ('wirerate lab up' attaches one to the DUT)",
			       (unsigned long long)o->learning_tx, c->dir[d].tx_if);
		else if (o->tester_if_drops)
			REASON("%llu frames were dropped entering the tester's receive port (its CPU fell behind)",
			       (unsigned long long)o->tester_if_drops);
		else if (o->tx_errors)
			REASON("%llu transmit errors", (unsigned long long)o->tx_errors);
#undef REASON
	}
	o->tester_limited = o->tester_reason[0] != '\0';
	res->tester_limited |= o->tester_limited;
}
