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
	__u16 pad[3];
};

#endif
