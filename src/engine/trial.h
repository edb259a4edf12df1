/* A trial (RFC 2544 section 23): learning frames, a wait, traffic at a
 * fixed rate for a fixed time, a wait for residual frames, and the count of
 * what came out, per direction. The generator and analyzer run in threads
 * of their own, pinned; the caller only configures, waits and reads. */
#ifndef WR_ENGINE_TRIAL_H
#define WR_ENGINE_TRIAL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/dutsnap.h"
#include "core/frame.h"
#include "core/hist.h"
#include "core/lossattr.h"
#include "io/analyzer.h"
#include "io/gen.h"
#include "io/port.h"

struct cpucost;
struct capture;

#define TRIAL_MAX_SIZES 16
#define TRIAL_MAX_THREADS 8
#define TRIAL_MAX_PORTS 4		/* tester port pairs, each a path through the DUT */
#define TRIAL_MAX_DIRS LOSSATTR_MAX_DIRS	/* both ways through every path */
_Static_assert(TRIAL_MAX_DIRS == 2 * TRIAL_MAX_PORTS, "a direction each way through each path");
#define TRIAL_TESTER_SHORTFALL 0.005	/* offered more than 0.5% short: tester-limited */

/* One direction: frames built from spec leave on tx_if and are counted on
 * rx_if. With several generator threads, each thread is a stream of its
 * own (its own sequence numbers, loss and order); the direction's result
 * adds them up. Several ports make several paths through the DUT, each
 * one direction, or two with --bidir: every direction is counted on its
 * own, with stream ids no other direction uses (trial_stream_id). */
struct trial_dir {
	unsigned int path;	/* the tester's port pair it runs on, < TRIAL_MAX_PORTS */
	bool back;		/* from the pair's receive port to its transmit port */
	const char *tx_if;
	int tx_nsfd;		/* -1: the caller's namespace */
	const char *rx_if;
	int rx_nsfd;
	struct frame_spec spec;	/* addresses, ports; size comes from sizes[] */
	bool direct;		/* tx_if is cabled straight to rx_if (calibration):
				 * what the far end's ring refuses is the tester's loss */
	const char *rx_peer_if;	/* or NULL: the far end of rx_if's cable, a veth (the
				 * lab's dut1), whose tx_dropped counts the frames
				 * rx_if's full ring refused: the tester's loss */
	int rx_peer_nsfd;
};

/* The DUT whose counters say where lost frames went: read before the
 * traffic and after the drain (trial_loss_snapshot). */
struct dut;
struct trial_dut {
	bool on;
	bool lab;			/* the tester's ports are veths whose peers are its ports */
	struct dut *agent;		/* where the snapshots come from (not owned) */
	/* Path p's ingress and egress ports on the DUT at 2p and 2p + 1
	 * (NULL: not known); a direction back goes the other way. */
	const char *ifnames[2 * TRIAL_MAX_PORTS];
	struct cpuset cpus;		/* its CPUs: softnet drops elsewhere are not its;
					 * empty: every CPU */
};

struct trial_cfg {
	struct trial_dir dir[TRIAL_MAX_DIRS];
	struct trial_dut dut;		/* .on false: the tester's counters only */
	unsigned int ndirs;		/* one per path, two with --bidir */
	unsigned int sizes[TRIAL_MAX_SIZES];	/* one size, or an IMIX pattern */
	unsigned int nsizes;
	struct frame_flows flows;
	double rate_pps;		/* per direction */
	uint64_t duration_ns;
	uint64_t learn_frames;		/* 0: no learning phase */
	uint64_t learn_wait_ns;
	uint64_t drain_ns;		/* wait for residual frames */
	uint16_t trial_id;
	unsigned int threads;		/* generator threads per direction, 1..TRIAL_MAX_THREADS
					 * (0 counts as 1): thread k sends every threads-th slot of
					 * the rate as its own stream (trial_stream_id), from its
					 * own port or program, and so from its own queue */
	int gen_cpu[TRIAL_MAX_THREADS];	/* thread k runs here; -1: not pinned */
	int rx_cpu;			/* -1: not pinned */
	enum port_type port_type;	/* the receive ports, and the transmit ones unless xdp_gen */
	bool xdp_gen;			/* transmit XDP live frames (io/xdpgen.h): no skb, no
					 * back-pressure; one frame size per trial */
	bool xdp_rx;			/* count in an XDP program at the receive port
					 * (io/xdpcount.h) instead of through a port */
	unsigned int max_burst;		/* frames per batch at most */
	unsigned int latency_every;	/* the XDP analyzer times 1 frame in this many a stream
					 * (a power of two); 0: the analyzer chooses for the rate */
	bool no_flow_control;		/* back to back on the XDP path, let the generator
					 * overrun the analyzer's ring instead of keeping a
					 * window of frames to it */
	struct cpucost *cost;		/* optional: marked at the start and end of traffic */
	struct capture *capture;	/* optional: the frames received and not counted
					 * (io/capture.h), across the trials that share it */
};

/* What the analyzer counted for one direction. */
struct trial_dir_result {
	unsigned int path;		/* the port pair (trial_dir's) */
	bool back;
	double target_pps;
	double offered_pps;		/* achieved: frames sent / trial time */
	uint64_t tx;			/* test frames sent */
	uint64_t rx;			/* distinct test frames received in time */
	uint64_t lost;
	double loss_pct;
	unsigned int streams;		/* generator threads, each a stream of its own */
	uint64_t reordered, duplicate, late, out_of_window;
	uint64_t stale;			/* tagged by another trial or stream, or beyond the
					 * frames sent so far: never counted */
	uint64_t learning_tx, learning_rx;
	uint64_t not_test[FRAME_VERDICTS];	/* frames without a valid tag, by reason */
	uint64_t not_test_total;
	unsigned int largest_burst;
	uint64_t max_backlog;		/* frames due but not yet sent, at worst */
	uint64_t tester_rx_drops;	/* dropped by our own receive ring */
	uint64_t tester_if_drops;	/* dropped into our receive interface (its backlog) */
	uint64_t tester_refused;	/* refused by our receive port's full ring, as the far
					 * end counted them (rx_peer_if's transmit drops) */
	uint64_t tx_errors;
	uint64_t tx_refused;		/* refused by the next hop's queue, sent again */
	uint64_t dut_refused;		/* frames of the trial's load the DUT would not take:
					 * the next hop is the DUT's own ingress queue (a
					 * veth or a tap), it was full, and the generator fell
					 * short by these. Never sent, never lost: the DUT's
					 * shortfall, which a throughput search counts as
					 * its loss at this load (docs/measurement.md) */
	uint64_t ring_drops;		/* XDP frames the next hop's receive ring refused: the
					 * DUT's input drops (the tester's when direct) */
	bool flow_control;		/* back to back: the generator kept a window to the analyzer */
	unsigned int flow_window;	/* frames each generator thread kept at most ahead of it */
	uint64_t flow_waits;		/* times the window was full */
	bool flow_gave_up;		/* the analyzer saw nothing for 200 ms: window opened */
	unsigned int xdp_batch;		/* the XDP generator's runs per batch (xdpgen.c), the
					 * largest of its threads'; 0: another generator */
	const char *gen_path;		/* "xdp", or the transmit port's type */
	const char *rx_path;		/* "xdp", or the receive port's type */
	struct hist latency;
	unsigned int latency_every;	/* latency from 1 frame in this many (XDP analyzer at
					 * high rates); 0 or 1: every frame */
	bool tester_limited;
	char tester_reason[512];
};

struct trial_result {
	unsigned int ndirs;
	struct trial_dir_result dir[TRIAL_MAX_DIRS];
	uint64_t elapsed_ns;		/* traffic time actually run */
	bool interrupted;
	bool tester_limited;		/* any direction */
	double avg_frame_size;		/* with FCS */
	/* One cache line from the generator's CPU to the analyzer's (sys/
	 * cpulat.h), measured before the traffic when one generator thread and
	 * the analyzer are pinned to different CPUs; 0: not measured. */
	double cpu_line_ns;
	/* The same when the tester's ceiling was calibrated on these CPUs
	 * (set by the caller that checks the ceiling); 0: unknown. */
	double ceiling_line_ns;
	/* Where each direction's lost frames went (core/lossattr.h), from the
	 * tester's counters and, with cfg->dut, the DUT's; loss_note says why
	 * the DUT's part is missing when it was asked for. */
	bool loss_valid;
	struct lossattr loss[TRIAL_MAX_DIRS];
	char loss_note[192];
};

/* Live figures for a progress line. */
struct trial_progress {
	uint64_t elapsed_ns, duration_ns;
	uint64_t tx, rx;		/* all directions */
	const char *phase;		/* "learning", "traffic", "drain" */
};
typedef void (*trial_progress_fn)(void *ctx, const struct trial_progress *p);

/* Generator threads per direction (cfg->threads, at least 1). */
static inline unsigned int trial_threads(const struct trial_cfg *cfg)
{
	return cfg->threads ? cfg->threads : 1;
}

/* The stream id of direction d's generator thread k. The analyzers take
 * a direction's streams as first + 2k (io/analyzer.h), so a direction's
 * first is d for the first two (one path both ways, as before several
 * ports) and leaves room for TRIAL_MAX_THREADS a direction after. */
static inline uint16_t trial_stream_id(unsigned int d, unsigned int k)
{
	return (uint16_t)((d & 1) + 2 * TRIAL_MAX_THREADS * (d >> 1) + 2 * k);
}

/* The generator and the analyzer cfg asks for: the one place that reads
 * xdp_gen and xdp_rx. */
static inline enum gen_type trial_gen_type(const struct trial_cfg *cfg)
{
	return cfg->xdp_gen ? GEN_XDP : GEN_PORT;
}

static inline enum analyzer_type trial_analyzer_type(const struct trial_cfg *cfg)
{
	return cfg->xdp_rx ? ANALYZER_XDP : ANALYZER_PORT;
}

/* Check cfg before anything is opened: sizes, rate, flows, CPUs. */
int trial_preflight_check(const struct trial_cfg *cfg, char *err, size_t errlen);

/* Every direction's transmit link takes the largest frame: -EMSGSIZE with
 * err naming the MTU needed otherwise. */
int trial_preflight_mtu(const struct trial_cfg *c, char *err, size_t errlen);

/* The DUT's counters now: snapread in a short-lived thread that enters
 * d's namespace, so the caller's namespace never changes. (The one place
 * to read a DUT: over the agent of dut/dut.h later.) Free with
 * dutsnap_clear. */
int trial_loss_snapshot(const struct trial_dut *d, struct dutsnap *s, char *err, size_t errlen);

/* Run one trial. stop (may be NULL) ends the traffic early when it becomes
 * non-zero; the drain still happens and res->interrupted is set. progress
 * (may be NULL) is called about once a second from the calling thread.
 * Returns 0 with res filled, or -errno with a reason in err. */
int trial_run(const struct trial_cfg *cfg, struct trial_result *res,
	      const volatile sig_atomic_t *stop, trial_progress_fn progress,
	      void *pctx, char *err, size_t errlen);

#endif
