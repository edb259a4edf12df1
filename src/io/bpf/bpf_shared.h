/* Layouts shared by the BPF programs and user space. Fixed-width types
 * only, so both compilers lay them out alike. */
#ifndef WR_IO_BPF_SHARED_H
#define WR_IO_BPF_SHARED_H

#include <linux/types.h>

/* ---- xdpgen.bpf.c: the live-frames generator ---- */

#define XG_HDR_MAX	96	/* bytes of a frame rewritten each time: headers and tag */
#define XG_MAX_FLOWS	65536
#define XG_FP_SHIFT	10	/* pacing times are ns << XG_FP_SHIFT */

/* One flow's frame: its first hdr_len bytes and the UDP checksum's partial
 * sum over them with the tag zeroed (pseudo-header included, folded, in
 * the byte order of a native load of the checksum field). */
struct xg_tmpl {
	__u8 hdr[XG_HDR_MAX];
	__u32 sum;
	__u32 pad;
};

/* The generator's settings and counters: one global in .bss, mapped by
 * user space. User space writes the settings before each phase (learning,
 * traffic) and reads the counters after; the program never blocks. */
struct xg_state {
	/* set by user space */
	__u64 gap_fp;		/* time between frames, ns << XG_FP_SHIFT */
	__u64 start_ns;		/* CLOCK_TAI: the first frame's slot */
	__u64 end_ns;		/* CLOCK_TAI: no frame at or after this */
	__u64 limit;		/* frames this phase at most */
	__u64 epoch_ns;		/* CLOCK_TAI: the tag timestamps' zero */
	__u32 hdr_len;		/* template bytes copied: up to the tag's end */
	__u32 tag_off;		/* the tag's offset; the UDP checksum is 2 before */
	__u32 nflows;
	__u16 trial, stream;
	__u32 stop;		/* non-zero: send nothing more */
	__u32 pad0;
	__u64 burst_fp;		/* catch up at most this far behind (max burst x gap):
				 * slots missed beyond it are given up, not sent in a burst */
	/* written by the program */
	__u64 next_fp;		/* the next frame's slot */
	__u64 sent;		/* frames sent this phase: also the next sequence number */
	__u64 max_lag_ns;	/* how late a frame left its slot, at worst */
	__u64 first_ns, last_ns;	/* CLOCK_TAI of the first and last frame */
	__u64 iterations;	/* program runs, sent or not */
	__u64 skipped;		/* slots given up after the generator was held up */
	/* flow control (back to back only), set by user space; window 0: off */
	__u64 window;		/* frames sent but not yet seen by the analyzer, at most */
	__u64 seen_base;	/* the stream's xc_flow count when the phase began */
	__u32 flow_slot;	/* the stream's xc_flow entry */
	__u32 flow_waiting;	/* program: the window is full */
	__u64 credit_end;	/* program: frames may be sent while sent < credit_end */
	__u64 flow_waits;	/* program: times the window filled */
	__u64 flow_gave_up;	/* program: nothing was seen for XG_FLOW_GIVEUP_NS with the
				 * window full (frames lost out of sight): window off */
	__u64 lat_mask;		/* set by user space: the analyzer times the frames whose
				 * sequence number has these bits 0 (xc_state.lat_mask);
				 * the others, when their slot is already past at the
				 * last clock read, go without reading the clock again */
	__u64 clock_ns;		/* program: the last clock read */
	__u64 clock_rel_fp;	/* program: the same, since start_ns, ns << XG_FP_SHIFT */
};

/* Back to back, the far end's ring is the tester's own: the generator
 * keeps at most a window of frames between itself and the analyzer, so
 * an analyzer held up costs rate (a shortfall) instead of frames. The
 * analyzer counts each stream's frames as it sees them in xc_flow, one
 * cache line a stream, which the generator reads when its window is full.
 * The veth ring holds 256 frames; the window leaves room for frames from
 * the stack and for a bulk queue's flush. */
#define XG_FLOW_WINDOW		192
/* While the window is full, each run first idles this many bpf_loop
 * steps (about 1 us) before it reads the analyzer's count again: a run
 * takes a page from the pool and gives it back, and runs as fast as they
 * go would fight the analyzer for the pool's ring, whose lock both take. */
#define XG_FLOW_SPIN		256
#define XG_FLOW_GIVEUP_NS	200000000ULL

struct xc_flow {
	__u64 seen;		/* the stream's frames of this trial the analyzer saw */
	__u64 pad[7];
};

/* ---- xsk.bpf.c: test frames to an AF_XDP socket ---- */

#define XSK_MAX_QUEUES	64	/* XSKMAP entries: one per receive queue */
#define XSK_META_MAGIC	0x57B1A5D7u

/* Metadata the receive program puts in front of each frame it redirects:
 * the receive time (CLOCK_TAI ns), read where the frame entered. The magic
 * tells user space the bytes were written for this frame: a driver or mode
 * that does not carry metadata leaves whatever the buffer held before, and
 * user space clears the magic before giving a buffer back to the kernel. */
struct xsk_meta {
	__u64 rx_tai_ns;
	__u32 magic;
	__u32 pad;
};

/* ---- count.bpf.c: the analyzer inside XDP ---- */

/* Counters, one set per CPU in a per-CPU array (key 0). */
enum xc_counter {
	XC_DISTINCT,		/* test frames of the trial, first copy */
	XC_DUPLICATE,
	XC_REORDERED,		/* arrived after a higher sequence number */
	XC_LATE,		/* after the deadline: not counted as received */
	XC_LEARNING,
	XC_STALE,		/* another trial or stream, or beyond the frames sent */
	XC_NO_TAG,		/* not a test frame: passed on to the stack */
	XC_BAD_TAG,		/* magic right, check wrong */
	XC_BAD_IP_CSUM,
	XC_TRUNCATED,
	XC_LAT_MIN,		/* ns; 0 while nothing was seen */
	XC_LAT_MAX,
	XC_LAT_SUM,
	XC_NCOUNTERS
};

/* Streams one analyzer counts: a direction sent by up to this many
 * generator threads, thread k with stream id base + 2k. */
#define XC_MAX_STREAMS	8

struct xc_counters {
	__u64 c[XC_NCOUNTERS];
	__u64 max_seq[XC_MAX_STREAMS];	/* highest sequence number seen, plus one */
};

/* Latency buckets: the layout of src/core/hist.c for values below 2^32 ns
 * (the tag's timestamp is 32 bits). */
#define XC_HIST_BUCKETS	1728

/* Set by user space before the first frame. */
struct xc_state {
	__u64 epoch_ns;		/* CLOCK_TAI: the tag timestamps' zero */
	__u64 deadline_ns;	/* CLOCK_TAI: later frames are late */
	__u64 per_stream;	/* sequence numbers each stream's part of the bitmap holds */
	__u16 trial, learn_trial;
	__u16 stream;		/* the first stream's id; stream k is stream + 2k */
	__u16 nstreams;		/* 1..XC_MAX_STREAMS */
	__u16 armed;		/* 0: count nothing as the trial's yet */
	__u16 closed;		/* set at the deadline: every frame from now on is late */
	__u16 pad[2];
	__u64 lat_mask;		/* the clock is read, for the latency and the deadline, for
				 * sequence numbers with these bits 0: every frame (0), or
				 * 1 in lat_mask + 1 at high rates (a clock read costs a
				 * sixth of the analyzer's time in a VM) */
	__u64 cap_max;		/* copy up to this many frames not counted into xc_cap */
	__u64 cap_n;		/* program: frames it tried to copy so far */
};

/* A frame not counted, copied into the xc_cap ring buffer: at most
 * XC_CAP_SNAP bytes of it (io/capture.h's CAPTURE_SNAP). */
#define XC_CAP_SNAP	1536
struct xc_cap_rec {
	__u64 ts_ns;		/* CLOCK_TAI */
	__u32 len;		/* the frame's length */
	__u32 caplen;		/* bytes of it in data */
	__u32 why;		/* the counter it went to: XC_STALE, XC_NO_TAG, ... */
	__u32 pad;
	__u8 data[XC_CAP_SNAP];
};

#endif
