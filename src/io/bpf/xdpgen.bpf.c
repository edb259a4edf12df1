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
 * computed from the template's partial sum plus the new tag. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_shared.h"

struct xg_state xg;

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XG_MAX_FLOWS);
	__type(key, __u32);
	__type(value, struct xg_tmpl);
} xg_tmpl SEC(".maps");

/* wirerate's tag check (src/core/frame.c tag_check): little-endian loads
 * of bytes 0..7 and 8..15. */
static __always_inline __u16 tag_check(const __u64 *w)
{
	__u64 h = w[0] * 0x9E3779B97F4A7C15ULL ^ w[1];

	h *= 0xC2B2AE3D27D4EB4FULL;
	h ^= h >> 29;
	h *= 0x165667B19E3779F9ULL;
	return (__u16)(h >> 48);
}

SEC("xdp")
int wr_gen(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 now = bpf_ktime_get_tai_ns(), rel, seq, ts, lag;
	__u64 tw[3] = {};
	__u8 *t = (__u8 *)tw;
	struct xg_tmpl *tp;
	__u32 flow, off, s;
	__u16 c;

	xg.iterations++;
	if (xg.stop || xg.sent >= xg.limit || now >= xg.end_ns || now < xg.start_ns)
		return XDP_DROP;
	rel = (now - xg.start_ns) << XG_FP_SHIFT;
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

	seq = xg.sent;
	flow = xg.nflows > 1 ? (__u32)(seq % xg.nflows) : 0;
	tp = bpf_map_lookup_elem(&xg_tmpl, &flow);
	if (!tp)
		return XDP_ABORTED;
	/* the template, 4 bytes at a time, up to the end of the tag */
#pragma unroll
	for (int i = 0; i < XG_HDR_MAX / 4; i++) {
		if (i * 4 >= xg.hdr_len)
			break;
		if (data + i * 4 + 4 > end)
			return XDP_ABORTED;
		((__u32 *)data)[i] = ((__u32 *)tp->hdr)[i];
	}

	ts = now - xg.epoch_ns;
	t[0] = 0x57;
	t[1] = 0xB1;
	t[2] = xg.trial >> 8;
	t[3] = xg.trial;
	t[4] = xg.stream >> 8;
	t[5] = xg.stream;
	t[6] = seq >> 40;
	t[7] = seq >> 32;
	t[8] = seq >> 24;
	t[9] = seq >> 16;
	t[10] = seq >> 8;
	t[11] = seq;
	t[12] = ts >> 24;
	t[13] = ts >> 16;
	t[14] = ts >> 8;
	t[15] = ts;
	c = tag_check(tw);
	t[16] = c >> 8;
	t[17] = c;

	/* from the UDP checksum (2 bytes before the tag) to the tag's end */
	off = xg.tag_off - 2;
	if (off > XG_HDR_MAX - 20)
		return XDP_ABORTED;
	__u8 *p = data + off;

	if ((void *)(p + 20) > end)
		return XDP_ABORTED;
	/* bytes 18..19 of tw are zero: they add nothing to the sum */
	s = (__u32)bpf_csum_diff(0, 0, (__be32 *)tw, 20, tp->sum);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	c = (__u16)~s;
	*(__u16 *)p = c ? c : 0xffff;
	__builtin_memcpy(p + 2, t, 18);

	xg.sent = seq + 1;
	if (!seq)
		xg.first_ns = now;
	xg.last_ns = now;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "GPL";
