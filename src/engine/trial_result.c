/* A trial's result, one direction at a time, once its threads have ended:
 * the generator threads' figures added up, the analyzer's counts, the
 * ports' and the far end's drops, and every reason the tester (not the
 * DUT) may have been the limit. trial.c runs the trial. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/ns.h"
#include "engine/trial_impl.h"

/* The direction's generator figures: its threads added up. */
struct gen_sum {
	uint64_t sent, learning_sent, tx_errors, stopped_ns, max_backlog;
	uint64_t refused0, refused1;
	unsigned int largest_burst;
	uint64_t flow_waits;
	unsigned int window, batch;
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
		if (g->batch > o->batch)
			o->batch = g->batch;
		o->flow_waits += g->flow_waits;
		o->flow_gave_up |= g->flow_gave_up;
		if (g->stopped_ns > o->stopped_ns)
			o->stopped_ns = g->stopped_ns;
		/* threads at rate/N that are each behind by b frames leave the
		 * direction behind by about N x b */
		o->max_backlog += g->max_backlog;
		if (g->largest_burst > o->largest_burst)
			o->largest_burst = g->largest_burst;
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

/* Why direction d's figures are the tester's, not the DUT's: every cause
 * that holds, the generator's first (a generator that fell short and a
 * receive port that refused are both the tester's); "" when none. */
static void tester_reason(const struct run *r, unsigned int d, const struct gen_sum *gs, bool interrupted,
			  struct trial_dir_result *o)
{
	const struct trial_cfg *c = r->cfg;
	char *rs = o->tester_reason;
	size_t n = 0, cap = sizeof(o->tester_reason);

	if (o->tester_reason[0])
		return;
	/* Held back by a DUT that was full: the DUT's shortfall, not ours. */
	if (!interrupted && r->next_hop_dut[d] && o->tx_refused &&
	    (double)gs->sent < (double)r->limit * (1.0 - TRIAL_TESTER_SHORTFALL))
		o->dut_refused = r->limit - gs->sent;
#define REASON(...) (n += (size_t)snprintf(rs + n, n < cap ? cap - n : 0, "%s", n ? "; " : ""), \
		     n += (size_t)snprintf(rs + n, n < cap ? cap - n : 0, __VA_ARGS__))
	if (!interrupted && !o->dut_refused && (double)gs->sent < (double)r->limit * (1.0 - TRIAL_TESTER_SHORTFALL))
		REASON("the generator offered %.0f frames/s, %.2f%% short of %.0f%s", o->offered_pps,
		       100.0 * (1.0 - (double)gs->sent / (double)r->limit), c->rate_pps,
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
	else if (gen_needs_xdp_peer(r->gen[d][0].gen) && o->learning_tx && !o->learning_rx)
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

/* The generators' side of direction d: what was offered, their ports'
 * errors and refusals, the flow control, the far end's drops. */
static void sender_side(const struct run *r, unsigned int d, const struct gen_sum *gs, double secs,
			struct trial_dir_result *o)
{
	const struct trial_cfg *c = r->cfg;
	uint64_t now;

	o->learning_tx = gs->learning_sent;
	o->largest_burst = gs->largest_burst;
	o->max_backlog = gs->max_backlog;
	o->offered_pps = secs > 0 ? (double)gs->sent / secs : 0;
	o->tx_errors = gs->tx_errors;
	for (unsigned int k = 0; k < r->nthreads; k++) {
		uint64_t errors, refused;

		if (!gen_link_counters(r->gen[d][k].gen, &errors, &refused)) {
			o->tx_errors += errors;
			o->tx_refused += refused;
		}
	}
	o->ring_drops = gs->refused1 - gs->refused0;
	o->flow_control = gs->window > 0;
	o->flow_window = gs->window;
	o->xdp_batch = gs->batch;
	o->flow_waits = gs->flow_waits;
	o->flow_gave_up = gs->flow_gave_up;
	/* The far end counts every frame it could not hand over; those our
	 * port counted itself (the backlog's drops, on a socket path) are in
	 * tester_if_drops already. */
	if (r->peer_read[d] && !trial_peer_drops(&c->dir[d], &now) && now >= r->peer_drops0[d] &&
	    now - r->peer_drops0[d] > o->tester_if_drops)
		o->tester_refused = now - r->peer_drops0[d] - o->tester_if_drops;
	o->gen_path = gen_path_name(r->gen[d][0].gen);
	o->rx_path = analyzer_path_name(r->rx[d].an);
}

void trial_result_finish_dir(struct run *r, unsigned int d, struct trial_result *res, bool interrupted)
{
	const struct trial_cfg *c = r->cfg;
	struct trial_dir_result *o = &res->dir[d];
	struct gen_sum gs;
	struct analyzer_result ar;
	uint64_t sent[TRIAL_MAX_THREADS];
	double secs;

	o->path = c->dir[d].path;
	o->back = c->dir[d].back;
	gen_sum(r, d, &gs);
	secs = interrupted ? ns_to_s((double)(gs.stopped_ns - r->t_start)) : ns_to_s((double)c->duration_ns);
	/* each stream's loss against what its own thread sent */
	for (unsigned int k = 0; k < r->nthreads; k++)
		sent[k] = r->gen[d][k].sent;
	if (!analyzer_read(r->rx[d].an, sent, &ar, &o->latency, o->tester_reason, sizeof(o->tester_reason))) {
		o->late = ar.late;
		o->learning_rx = ar.learning;
		o->stale = ar.stale;
		memcpy(o->not_test, ar.not_test, sizeof(o->not_test));
		o->not_test_total = ar.not_test_total;
		o->tester_rx_drops = ar.rx_drops;
		o->tester_if_drops = ar.if_drops;
	} else {
		/* Nothing known: not a DUT result (marked below). */
		memset(&ar, 0, sizeof(ar));
		ar.seq.lost = gs.sent;
	}
	o->target_pps = c->rate_pps;
	o->streams = r->nthreads;
	o->tx = gs.sent;
	o->rx = ar.seq.distinct;
	o->lost = ar.seq.lost;
	o->loss_pct = o->tx ? (double)o->lost * 100.0 / (double)o->tx : 0;
	o->reordered = ar.seq.reordered;
	o->duplicate = ar.seq.duplicate;
	o->out_of_window = ar.seq.late;
	sender_side(r, d, &gs, secs, o);
	tester_reason(r, d, &gs, interrupted, o);
	o->tester_limited = o->tester_reason[0] != '\0';
	res->tester_limited |= o->tester_limited;
}
