// SPDX-License-Identifier: GPL-2.0
/* The live-frames generator (BPF_PROG_RUN with BPF_F_TEST_XDP_LIVE_FRAMES).
 * One call of the program is one chance to send a frame: user space runs it
 * millions of times per call, the program reads the clock each time and
 * sends (XDP_TX out of the generator's port) only when the next frame's
 * slot is due; otherwise it returns XDP_DROP, which recycles the buffer and
 * sends nothing. So pacing is even at any rate, without a system call per
 * frame and without an skb: an overloaded next hop drops instead of holding
 * the generator back.
 *
 * Buffers come back from the page pool with whatever the stack wrote into
 * them (forwarding rewrites MACs and TTL), so every frame is rewritten from
 * its flow's template up to the end of the tag, and the UDP checksum is
 * computed from the template's partial sum plus the new tag, inline (the
 * csum helper cost a seventh of the generator's time). */
#include <linux/bpf.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include "bpf_inline.h"
#include "bpf_shared.h"
#include "bpf_flow.h"

struct xg_state xg;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XG_MAX_FLOWS);
	__type(key, __u32);
	__type(value, struct xg_tmpl);
} xg_tmpl SEC(".maps");

static long spin_cb(__u32 i, void *ctx)
{
	return 0;
}

/* Room in the window? Read the analyzer's count when the credit is used
 * up; while waiting, idle about a microsecond first (XG_FLOW_SPIN), so
 * that the waiting runs neither churn the page pool nor pull the line
 * the analyzer writes with every frame. */
static __always_inline int flow_blocked(void)
{
	struct xc_flow *f;
	__u32 slot;

	if (xg.sent < xg.credit_end)
		return 0;
	if (xg.flow_waiting)
		bpf_loop(XG_FLOW_SPIN, spin_cb, NULL, 0);
	slot = xg.flow_slot;
	f = bpf_map_lookup_elem(&xc_flow, &slot);
	if (!f)
		return 1;
	xg.credit_end = *(volatile __u64 *)&f->seen - xg.seen_base + xg.window;
	if (xg.sent < xg.credit_end) {
		xg.flow_waiting = 0;
		return 0;
	}
	if (!xg.flow_waiting) {
		xg.flow_waiting = 1;
		xg.flow_waits++;
	}
	/* Frames lost out of the analyzer's sight would hold the window
	 * shut for good: after XG_FLOW_GIVEUP_NS without a frame, open it. */
	if (!(xg.iterations & 1023) && xg.sent && bpf_ktime_get_tai_ns() - xg.last_ns > XG_FLOW_GIVEUP_NS) {
		xg.flow_gave_up = 1;
		xg.window = 0;
		xg.flow_waiting = 0;
		return 0;
	}
	return 1;
}

SEC("xdp")
int wr_gen(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 now, rel, seq, ts, lag, w0, w1;
	struct xg_tmpl *tp;
	__u32 flow, off, hdr_len;
	__u16 c, cw;

	xg.iterations++;
	if (xg.stop || xg.sent >= xg.limit || (xg.window && flow_blocked()))
		return XDP_DROP;
	seq = xg.sent;
	/* A frame the analyzer will time needs the time it leaves; one it
	 * will not, whose slot had come by the last clock read, is due
	 * without reading the clock again (flat out, that is most frames:
	 * a read costs a fifth of a frame here). */
	if (!(seq & xg.lat_mask) || xg.next_fp > xg.clock_rel_fp) {
		now = bpf_ktime_get_tai_ns();
		if (now >= xg.end_ns || now < xg.start_ns)
			return XDP_DROP;
		xg.clock_ns = now;
		xg.clock_rel_fp = (now - xg.start_ns) << XG_FP_SHIFT;
	} else {
		now = xg.clock_ns;
	}
	rel = xg.clock_rel_fp;
	if (rel < xg.next_fp)
		return XDP_DROP;
	/* Held up (the CPU was taken away): send at most a burst's worth
	 * back to back, and give up the older slots, which shows as the
	 * generator falling short of its rate rather than as a burst the
	 * DUT's ring must absorb. */
	if (rel - xg.next_fp > xg.burst_fp) {
		xg.skipped += (rel - xg.next_fp - xg.burst_fp) / xg.gap_fp;
		xg.next_fp = rel - xg.burst_fp;
	}
	lag = (rel - xg.next_fp) >> XG_FP_SHIFT;
	if (lag > xg.max_lag_ns)
		xg.max_lag_ns = lag;
	xg.next_fp += xg.gap_fp;

	flow = xg.nflows > 1 ? (__u32)(seq % xg.nflows) : 0;
	tp = bpf_map_lookup_elem(&xg_tmpl, &flow);
	if (!tp)
		return XDP_ABORTED;
	/* the template, 8 bytes at a time, up to the end of the tag (a
	 * multiple of 4 bytes: the last 4 are copied on their own) */
	hdr_len = xg.hdr_len;
#pragma unroll
	for (int i = 0; i < XG_HDR_MAX / 8; i++) {
		if (i * 8 + 8 > hdr_len)
			break;
		if (data + i * 8 + 8 > end)
			return XDP_ABORTED;
		((__u64 *)data)[i] = ((__u64 *)tp->hdr)[i];
	}
	if (hdr_len & 4) {
		off = hdr_len - 4;
		if (off > XG_HDR_MAX - 4 || data + off + 4 > end)
			return XDP_ABORTED;
		*(__u32 *)(data + off) = *(__u32 *)(tp->hdr + off);
	}

	/* The tag (src/core/frame.h) as two 64-bit words in the order a
	 * native load of its bytes gives, plus the 16-bit check. */
	ts = now - xg.epoch_ns;
	w0 = bpf_cpu_to_be64(0x57B1ULL << 48 | (__u64)xg.trial << 32 | (__u64)xg.stream << 16 |
			     ((seq >> 32) & 0xffff));
	w1 = bpf_cpu_to_be64(seq << 32 | (ts & 0xffffffff));
	c = frame_tag_check(w0, w1);
	cw = bpf_htons(c);

	/* The UDP checksum: the template's sum plus the tag's, in the same
	 * native order (one's complement sums do not care about byte order
	 * as long as the sum and the field are loaded alike). */
	c = (__u16)~csum_fold64((__u64)tp->sum + (w0 & 0xffffffff) + (w0 >> 32) +
				(w1 & 0xffffffff) + (w1 >> 32) + cw);

	/* from the UDP checksum (2 bytes before the tag) to the tag's end */
	off = xg.tag_off - 2;
	if (off > XG_HDR_MAX - 20)
		return XDP_ABORTED;
	__u8 *p = data + off;

	if ((void *)(p + 20) > end)
		return XDP_ABORTED;
	*(__u16 *)p = c ? c : 0xffff;
	*(__u64 *)(p + 2) = w0;
	*(__u64 *)(p + 10) = w1;
	*(__u16 *)(p + 18) = cw;

	xg.sent = seq + 1;
	if (!seq)
		xg.first_ns = now;
	xg.last_ns = now;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
