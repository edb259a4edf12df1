/* The state of one running trial, shared by trial.c (which runs it) and
 * trial_result.c (which reads its result): not for use outside
 * src/engine/trial*.c. (trial_preflight.c checks a configuration and needs
 * none of it.) */
#ifndef WR_ENGINE_TRIAL_IMPL_H
#define WR_ENGINE_TRIAL_IMPL_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/trial.h"
#include "io/analyzer.h"
#include "io/gen.h"
#include "os/nl.h"

struct run;

struct gen_ctx {
	struct run *run;
	unsigned int dir;
	unsigned int k;			/* thread of the direction */
	uint16_t stream;		/* trial_stream_id(dir, k) */
	double rate;			/* this thread's share: every threads-th slot */
	uint64_t start_ns;		/* its first slot */
	uint64_t limit;			/* its frames */
	struct gen *gen;
	uint64_t refused0, refused1;	/* the far end's refused counter around the traffic */
	uint64_t sent, learning_sent;
	uint64_t max_backlog;
	unsigned int largest_burst;
	uint64_t tx_errors;
	uint64_t stopped_ns;
	unsigned int window;		/* flow control: frames at most ahead of the analyzer,
					 * whose counts are shared; 0: none */
	uint64_t flow_waits;
	bool flow_gave_up;
	unsigned int batch;		/* the XDP generator's runs per batch; 0: another */
	int rc;
	char err[160];
};

struct rx_ctx {
	struct run *run;
	struct analyzer *an;
	unsigned int dir;
	int rc;
	char err[160];
};

struct run {
	const struct trial_cfg *cfg;
	uint64_t t_learn, t_start, t_end;	/* REALTIME ns */
	uint64_t deadline;		/* frames after this are late */
	uint64_t limit;			/* frames per direction */
	unsigned int nthreads;		/* generator threads per direction */
	volatile int stop_gen;		/* set by the caller's stop or an error */
	volatile int stop_rx;
	struct gen_ctx gen[TRIAL_MAX_DIRS][TRIAL_MAX_THREADS];
	struct rx_ctx rx[TRIAL_MAX_DIRS];
	bool peer_read[TRIAL_MAX_DIRS];	/* rx_peer_if's transmit drops read at the start */
	bool next_hop_dut[TRIAL_MAX_DIRS];	/* tx_if's far end is the DUT's ingress
						 * queue (a veth or tap, not a cable) */
	uint64_t peer_drops0[TRIAL_MAX_DIRS];
	/* Loss attribution (trial_loss.c): the DUT before the traffic, and the
	 * transmit ports' drops (what the DUT's ingress ring refused). */
	struct dutsnap *snap0;		/* NULL: not taken (yet) */
	bool snap_tried;
	bool snap_late;			/* read after the first test frame was due */
	uint64_t snap_lead_ns;		/* read this long before the traffic */
	bool txdrop_read[TRIAL_MAX_DIRS];
	uint64_t txdrop0[TRIAL_MAX_DIRS];
	/* A VM lab's taps (the ports are taps QEMU holds): what QEMU read
	 * from the transmit tap and wrote into the receive tap, at the start. */
	bool taps[TRIAL_MAX_DIRS];
	uint64_t tap_read0[TRIAL_MAX_DIRS], tap_written0[TRIAL_MAX_DIRS];
	char snap_err[160];
};

/* The far end of a direction's receive port: what its full ring refused. */
static inline int trial_peer_drops(const struct trial_dir *t, uint64_t *n)
{
	struct link_info li;
	int rc;

	if (!t->rx_peer_if)
		return -ENOENT;
	if (!(rc = nl_link_get_in(t->rx_peer_nsfd, t->rx_peer_if, &li)))
		*n = li.tx_dropped;
	return rc;
}

/* The DUT's counters and the transmit ports' drops before the traffic
 * (once; nothing without cfg->dut), and after the drain: each
 * direction's attribution into res (after trial_result_finish_dir). */
void trial_loss_before(struct run *r);
void trial_loss_after(struct run *r, struct trial_result *res);

/* Direction d's figures and verdict into res->dir[d], after the trial's
 * threads have ended. */
void trial_result_finish_dir(struct run *r, unsigned int d, struct trial_result *res, bool interrupted);

#endif
