/* The analyzer inside XDP (src/io/bpf/count.bpf.c): test frames are
 * counted and dropped where they arrive, so the analyzer keeps up with the
 * XDP generator. The program is held by a bpf_link: it goes away with the
 * last descriptor, also when the process is killed. */
#ifndef WR_IO_XDPCOUNT_H
#define WR_IO_XDPCOUNT_H

#include <stddef.h>
#include <stdint.h>

#include "core/frame.h"
#include "core/hist.h"
#include "core/seqtrack.h"

/* Sequence numbers one trial can count: the bitmap is one bit each
 * (2^30 frames: 128 MiB, e.g. 60 s at 17 Mpps). */
#define XDPCOUNT_MAX_FRAMES (1ULL << 30)
#define XDPCOUNT_MAX_STREAMS 8

struct xdpcount_cfg {
	const char *ifname;
	int nsfd;			/* namespace of ifname, -1: the caller's */
	uint64_t frames;		/* the most the trial sends, all streams */
	unsigned int streams;		/* generator threads of the direction, 1..XDPCOUNT_MAX_STREAMS
					 * (0 counts as 1): thread k sends stream arm.stream + 2k and
					 * at most ceil(frames / streams) frames */
	int cpu;			/* run the port's receive (NAPI) here, -1: anywhere */
	unsigned int capture;		/* copy up to this many frames not counted for
					 * xdpcount_capture_read; 0: none */
};

/* What a trial counts as its own; times CLOCK_REALTIME ns. */
struct xdpcount_arm {
	uint16_t trial, learn_trial;
	uint16_t stream;		/* the first stream; learning frames come on it */
	uint64_t epoch_ns;		/* the tags' timestamp zero */
	uint64_t deadline_ns;		/* frames after it are late */
	unsigned int latency_every;	/* latency from 1 frame in this many a stream (a power
					 * of two: xdpcount_latency_every); 0 or 1: every frame */
};

/* Up to this rate a stream, latency is measured on every frame. */
#define XDPCOUNT_LAT_ALL_PPS 1e6
/* 1 frame in how many to time at this rate a stream: 1 up to
 * XDPCOUNT_LAT_ALL_PPS, else the power of two that brings it below. */
unsigned int xdpcount_latency_every(double stream_pps);

struct xdpcount_result {
	struct seqtrack_stats seq;	/* distinct, lost (against sent), reordered, duplicate */
	uint64_t late, learning, stale;
	uint64_t not_test[FRAME_VERDICTS];
	uint64_t not_test_total;
	uint64_t if_drops;		/* dropped entering the interface since open */
};

struct xdpcount;

/* With cfg->ifname NULL the program is loaded but attached nowhere: frames
 * are fed to it one by one with xdpcount_feed (the fuzz test does). */

struct xdpcount *xdpcount_open(const struct xdpcount_cfg *cfg, char *err, size_t errlen);
void xdpcount_close(struct xdpcount *x);
void xdpcount_set(struct xdpcount *x, const struct xdpcount_arm *a);
/* Move the deadline (a trial stopped early drains from the stop). */
void xdpcount_set_deadline(struct xdpcount *x, uint64_t deadline_ns);
/* The deadline has passed: every frame from now on is late (the frames
 * not timed are not checked against the deadline themselves). */
void xdpcount_close_window(struct xdpcount *x);
/* Distinct test frames so far (for progress). */
uint64_t xdpcount_received(struct xdpcount *x);
/* The counts, with lost computed against sent; latency into h (reset). */
int xdpcount_read(struct xdpcount *x, uint64_t sent, struct xdpcount_result *r, struct hist *h);

/* A frame the program did not count, copied out (at most CAPTURE_SNAP
 * bytes of it): why is the enum xc_counter it was counted under. */
struct xdpcount_cap {
	uint64_t ts_ns;			/* CLOCK_REALTIME */
	uint32_t len, caplen;
	unsigned int why;
	const uint8_t *data;
};
typedef void (*xdpcount_cap_fn)(void *ctx, const struct xdpcount_cap *c);
/* Hand every frame copied so far to fn, oldest first. 0 or -errno. */
int xdpcount_capture_read(struct xdpcount *x, xdpcount_cap_fn fn, void *ctx);
/* A counter's name for a capture's comment ("stale", "late", ...). */
const char *xdpcount_why_name(unsigned int why);

/* Run the program once on frame (BPF_PROG_RUN, not live): *action gets
 * its verdict (XDP_PASS, XDP_DROP). 0 or -errno. */
int xdpcount_feed(struct xdpcount *x, const uint8_t *frame, uint32_t len, uint32_t *action);
/* The raw counters summed over CPUs (enum xc_counter in bpf_shared.h). */
int xdpcount_counters(struct xdpcount *x, uint64_t *c, unsigned int n);
/* The map of each stream's frames seen so far, for the generator's flow
 * control back to back (xdpgen_cfg.flow_fd); valid while x is open. */
int xdpcount_flow_fd(const struct xdpcount *x);

#endif
