/* The generator path without an skb: frames are XDP frames made by the
 * kernel's BPF_PROG_RUN "live frames" mode and transmitted out of the port
 * by our program (src/io/bpf/xdpgen.bpf.c), which also paces and tags them.
 * The thread that runs a phase spends it inside one system call; the
 * receiving side of the port must run XDP (the lab DUT's ingress does), or
 * the kernel drops the frames without a counter. */
#ifndef WR_IO_XDPGEN_H
#define WR_IO_XDPGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/frame.h"

/* Live frames are one page each, with the kernel's head (xdp_page_head),
 * XDP_PACKET_HEADROOM and skb_shared_info's room in it: 3408 bytes without
 * FCS on 4 KiB pages (measured: 3409 and up fail with EINVAL); larger
 * frames need another path. */
#define XDPGEN_FRAME_MAX 3408
/* Flow control back to back: frames sent but not yet seen, at most. */
#define XDPGEN_FLOW_WINDOW 192

struct xdpgen_cfg {
	const char *ifname;
	int nsfd;			/* namespace of ifname, -1: the caller's */
	const struct frame_spec *spec;	/* one frame size (spec->size) */
	const struct frame_flows *flows;
	int flow_fd;			/* the analyzer's per-stream counts (xdpcount_flow_fd),
					 * for flow control back to back; 0: none */
};

/* One phase: learning frames, or the trial's traffic. Times are
 * CLOCK_REALTIME ns, like the rest of the trial. */
struct xdpgen_phase {
	double rate_pps;
	uint64_t start_ns;		/* the first frame's slot */
	uint64_t end_ns;		/* nothing is sent from here on */
	uint64_t limit;			/* frames at most */
	uint64_t epoch_ns;		/* zero of the tag timestamps */
	unsigned int max_burst;		/* frames back to back at most after a hold-up */
	uint16_t trial, stream;
	unsigned int window;		/* flow control (needs cfg.flow_fd): at most this many
					 * frames sent but not yet seen by the analyzer, 1 to
					 * XDPGEN_FLOW_WINDOW (the streams sharing a ring share
					 * that); 0: off */
	unsigned int flow_slot;		/* the stream's entry in the analyzer's counts */
	bool analyzer_apart;		/* the analyzer is pinned to another CPU than this
					 * thread: it empties the far ring while a batch runs */
	unsigned int latency_every;	/* the analyzer times 1 frame in this many (a power of
					 * two, xdpcount_arm.latency_every; 0 or 1: every frame):
					 * the others may leave with the last clock read's time */
};

struct xdpgen_stats {
	uint64_t sent;			/* frames transmitted in the last phase */
	uint64_t max_lag_ns;		/* latest a frame left after its slot */
	uint64_t first_ns, last_ns;	/* REALTIME of the first and last frame */
	uint64_t iterations;		/* program runs: chances to send */
	uint64_t calls;			/* BPF_PROG_RUN calls */
	unsigned int batch;		/* program runs per batch, which is also the size of
					 * the ring of the call's page pool */
	uint64_t skipped;		/* slots given up after a hold-up */
	uint64_t flow_waits;		/* times the window was full (flow control) */
	bool flow_gave_up;		/* the analyzer saw nothing for 200 ms with the
					 * window full: flow control was turned off */
};

struct xdpgen;

/* Load the program and the flows' templates. -errno with a reason. */
struct xdpgen *xdpgen_open(const struct xdpgen_cfg *cfg, char *err, size_t errlen);
void xdpgen_close(struct xdpgen *g);

/* Run a phase in the calling thread; returns when limit frames are sent,
 * end_ns has passed or xdpgen_stop was called. 0 or -errno. */
int xdpgen_run(struct xdpgen *g, const struct xdpgen_phase *ph, char *err, size_t errlen);

/* End the running phase soon; safe from any thread. */
void xdpgen_stop(struct xdpgen *g);

/* Frames sent so far in this phase; safe from any thread. */
uint64_t xdpgen_sent(const struct xdpgen *g);

void xdpgen_stats(const struct xdpgen *g, struct xdpgen_stats *st);

/* Frames the far end's receive ring refused since the port came up (veth:
 * the tx_queue_N_xdp_xmit_errors counters). 0 or -errno (no such counter:
 * *n is 0). */
int xdpgen_ring_refused(const struct xdpgen *g, uint64_t *n);

/* Check that this kernel runs the generator: load the program and run it
 * once on an XDP frame (no interface needed). 0, or -errno with a reason. */
int xdpgen_probe(char *err, size_t errlen);

#endif
