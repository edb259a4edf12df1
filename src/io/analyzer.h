/* A trial's analyzer, whatever counts the frames: one interface over a
 * packet port (a thread parses every received frame in user space) and
 * over the XDP analyzer (io/xdpcount.h: frames are counted and dropped in
 * the kernel where they arrive). The engine arms it once a trial, runs it
 * in a thread of its own and reads its counts at the end; the per-frame
 * work stays inside each implementation. */
#ifndef WR_IO_ANALYZER_H
#define WR_IO_ANALYZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/frame.h"
#include "core/hist.h"
#include "core/seqtrack.h"
#include "io/port.h"

struct capture;

enum analyzer_type {
	ANALYZER_PORT,		/* frames read from a port's receive ring */
	ANALYZER_XDP,		/* counted by an XDP program at the receive port */
};

struct analyzer_cfg {
	enum analyzer_type type;
	const char *ifname;
	int nsfd;			/* namespace of ifname; -1: the caller's */
	struct port *port;		/* ANALYZER_PORT: the port to read, shared (left open) */
	enum port_type port_type;	/* ANALYZER_PORT: its type, for the path's name */
	uint64_t frames;		/* the most the trial sends, all streams */
	unsigned int streams;		/* stream k is arm.stream + 2k, k < streams (0 counts as 1) */
	int cpu;			/* ANALYZER_XDP: run the port's receive (NAPI) here; -1: anywhere */
	struct capture *capture;	/* the frames received but not counted go here (io/capture.h);
					 * NULL: none. The XDP analyzer hands them over at read. */
};

/* Stream k's sequence numbers that cannot have been sent yet: what its
 * generator has sent so far plus slack, never past its limit. The port
 * analyzer calls it only when a frame reaches the last bound, about once
 * per slack of frames. */
typedef uint64_t (*analyzer_bound_fn)(void *ctx, unsigned int k);

/* What a trial counts as its own; times CLOCK_REALTIME ns. */
struct analyzer_arm {
	uint16_t trial, learn_trial;
	uint16_t stream;		/* the first stream; learning frames come on it */
	uint64_t epoch_ns;		/* the tags' timestamp zero */
	uint64_t deadline_ns;		/* frames after it are late */
	unsigned int latency_every;	/* time 1 frame in this many a stream where the
					 * analyzer samples (the XDP one, a power of two);
					 * 0: its own choice for stream_pps */
	double stream_pps;
	analyzer_bound_fn bound;	/* the port analyzer's check of sequence numbers */
	void *bound_ctx;
};

struct analyzer_result {
	struct seqtrack_stats seq;	/* distinct, lost (against sent), reordered, duplicate */
	uint64_t late, learning, stale;
	uint64_t not_test[FRAME_VERDICTS];
	uint64_t not_test_total;
	uint64_t rx_drops;		/* dropped by the tester's own receive ring */
	uint64_t if_drops;		/* dropped entering the interface since it was opened */
};

struct analyzer;

/* Open (and for XDP, attach) what cfg names. NULL with a reason in err. */
struct analyzer *analyzer_create(const struct analyzer_cfg *cfg, char *err, size_t errlen);
void analyzer_destroy(struct analyzer *a);

/* "xdp", or the receive port's type name. */
const char *analyzer_path_name(const struct analyzer *a);

/* Check, before anything is opened, that an analyzer of this type can
 * count this many frames in one trial. 0, or -errno with a reason. */
int analyzer_check(enum analyzer_type type, double frames, char *err, size_t errlen);

/* The map of each stream's frames seen so far, for the XDP generator's
 * flow control back to back (gen_cfg.flow_fd); 0: this analyzer has none. */
int analyzer_flow_fd(const struct analyzer *a);

/* Arm for a trial, before any of its frames is sent. */
void analyzer_arm(struct analyzer *a, const struct analyzer_arm *arm);

/* 1 frame in how many a stream is timed (0 or 1: every frame). */
unsigned int analyzer_latency_every(const struct analyzer *a);

/* Count in the calling thread until *stop is set or grace_ns past the
 * deadline. 0, or -errno with a reason. */
int analyzer_run(struct analyzer *a, const volatile int *stop, uint64_t grace_ns, char *err, size_t errlen);

/* Move the deadline (a trial stopped early drains from the stop); safe
 * while analyzer_run runs. */
void analyzer_set_deadline(struct analyzer *a, uint64_t deadline_ns);

/* The deadline has passed: every frame from now on is late. */
void analyzer_close_window(struct analyzer *a);

/* Distinct test frames so far (for progress); safe from any thread. */
uint64_t analyzer_received(const struct analyzer *a);

/* The counts, with lost computed against sent[k] frames of stream k, and
 * latency into h (reset first). 0, or -errno with a reason. */
int analyzer_read(struct analyzer *a, const uint64_t *sent, struct analyzer_result *r, struct hist *h,
		  char *err, size_t errlen);

#endif
