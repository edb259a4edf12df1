// SPDX-License-Identifier: GPL-2.0
/* Experiment: XDP live-frames generator programs + helper programs. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

const volatile __u32 tx_ifindex = 0;	/* bpf_redirect target */
const volatile __u32 tag_off = 42;	/* first byte of the 18-byte tag */
const volatile __u64 epoch = 0;		/* CLOCK_MONOTONIC ns of trial start */
const volatile __u16 trial_id = 1, stream_id = 1;

const volatile __u64 tmpl[8] = {};	/* whole frame, rewritten per frame */
const volatile __u32 tmpl_len = 60;
const volatile __u32 tmpl_sum = 0;	/* UDP partial sum without the tag, unfolded */
__u64 seq_next = 0;
__u64 next_fp = 0, gap_fp = 0, end_ns = 0;	/* pacing, .bss; fp = ns * 1024 */			/* .bss, read by user space after */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} cnt SEC(".maps");

static __always_inline void count(void)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&cnt, &k);
	if (v)
		(*v)++;
}

SEC("xdp") int gen_tx(struct xdp_md *ctx) { return XDP_TX; }
SEC("xdp") int gen_redirect(struct xdp_md *ctx) { return bpf_redirect(tx_ifindex, 0); }
SEC("xdp") int xpass(struct xdp_md *ctx) { count(); return XDP_PASS; }
SEC("xdp") int xdrop(struct xdp_md *ctx) { count(); return XDP_DROP; }

static __always_inline __u16 frame_tag_check(const __u8 *b)
{
	__u64 a = *(const __u64 *)b, c = *(const __u64 *)(b + 8), h;
	h = a * 0x9E3779B97F4A7C15ULL ^ c;
	h *= 0xC2B2AE3D27D4EB4FULL;
	h ^= h >> 29;
	h *= 0x165667B19E3779F9ULL;
	return (__u16)(h >> 48);
}

/* mode bits: 1 = atomic seq (multi-CPU safe), 2 = bpf_ktime_get_tai_ns */
static __always_inline int tag_frame(struct xdp_md *ctx, int mode, int action)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u8 *p = data + tag_off;
	__u16 *udp_check;
	__u64 oldw[3] = {}, neww[3] = {};
	__u8 *n = (__u8 *)neww;
	__u64 seq, ts;
	__s64 sum;

	if (tag_off < 2 || tag_off > 200)
		return XDP_ABORTED;
	if ((void *)(p + 18) > end || (void *)(p - 2) < data)
		return XDP_ABORTED;
	udp_check = (__u16 *)(p - 2);

	if (mode & 1)
		seq = __sync_fetch_and_add(&seq_next, 1);
	else
		seq = seq_next++;
	ts = ((mode & 2) ? bpf_ktime_get_tai_ns() : bpf_ktime_get_ns()) - epoch;

	__builtin_memcpy(oldw, p, 18);
	n[0] = 0x57; n[1] = 0xB1;
	n[2] = trial_id >> 8; n[3] = trial_id;
	n[4] = stream_id >> 8; n[5] = stream_id;
	n[6] = seq >> 40; n[7] = seq >> 32; n[8] = seq >> 24;
	n[9] = seq >> 16; n[10] = seq >> 8; n[11] = seq;
	n[12] = ts >> 24; n[13] = ts >> 16; n[14] = ts >> 8; n[15] = ts;
	__u16 chk = frame_tag_check(n);
	n[16] = chk >> 8; n[17] = chk;

	/* RFC 1624: HC' = ~(~HC + ~m + m'); padding words are zero in both */
	sum = bpf_csum_diff((__be32 *)oldw, 20, (__be32 *)neww, 20, (__u16)~*udp_check);
	__u32 s = (__u32)sum;
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	__u16 c = ~s;
	*udp_check = c ? c : 0xffff;
	__builtin_memcpy(p, n, 18);
	return action;
}

SEC("xdp") int gen_tag_tx(struct xdp_md *ctx) { return tag_frame(ctx, 0, XDP_TX); }
SEC("xdp") int gen_tag_tx_atomic(struct xdp_md *ctx) { return tag_frame(ctx, 1, XDP_TX); }
SEC("xdp") int gen_tag_tx_tai(struct xdp_md *ctx) { return tag_frame(ctx, 2, XDP_TX); }
SEC("xdp") int gen_tag_redirect(struct xdp_md *ctx)
{
	int r = tag_frame(ctx, 0, XDP_TX);
	return r == XDP_TX ? bpf_redirect(tx_ifindex, 0) : r;
}

/* Rewrite the whole frame from the template (the stack may have modified the
 * recycled page: forwarding rewrites MACs and TTL), then the tag, then the UDP
 * checksum from the template's partial sum. */
static __always_inline int tmpl_frame(struct xdp_md *ctx, int tag)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u64 neww[3] = {};
	__u8 *n = (__u8 *)neww;

	if (data + 60 > end)
		return XDP_ABORTED;
	/* volatile loads: a memcpy from the (zero-initialised) const would be
	 * constant-folded by clang into stores of zeros */
#pragma unroll
	for (int i = 0; i < 7; i++)
		((__u64 *)data)[i] = tmpl[i];
	*(__u32 *)(data + 56) = (__u32)tmpl[7];
	if (!tag)
		return XDP_TX;
	__u64 seq = seq_next++;
	__u64 ts = bpf_ktime_get_ns() - epoch;
	n[0] = 0x57; n[1] = 0xB1;
	n[2] = trial_id >> 8; n[3] = trial_id;
	n[4] = stream_id >> 8; n[5] = stream_id;
	n[6] = seq >> 40; n[7] = seq >> 32; n[8] = seq >> 24;
	n[9] = seq >> 16; n[10] = seq >> 8; n[11] = seq;
	n[12] = ts >> 24; n[13] = ts >> 16; n[14] = ts >> 8; n[15] = ts;
	__u16 chk = frame_tag_check(n);
	n[16] = chk >> 8; n[17] = chk;
	__u32 s = (__u32)bpf_csum_diff(0, 0, (__be32 *)neww, 20, tmpl_sum);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	__u16 c = ~s;
	*(__u16 *)(data + 40) = c ? c : 0xffff;
	__builtin_memcpy(data + 42, n, 18);
	return XDP_TX;
}
SEC("xdp") int gen_tmpl(struct xdp_md *ctx) { return tmpl_frame(ctx, 0); }
SEC("xdp") int gen_tmpl_tag(struct xdp_md *ctx) { return tmpl_frame(ctx, 1); }

/* Paced: one prog_run call spins through repeat iterations; a frame is sent
 * only when its slot is due, the others are XDP_DROPped (recycled, not sent). */
SEC("xdp") int gen_paced(struct xdp_md *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	if (!next_fp) {			/* first frame: start the clock */
		next_fp = now << 10;
		end_ns += now;		/* user space wrote the duration */
	}
	if (now >= end_ns)
		return XDP_DROP;
	if ((now << 10) < next_fp)
		return XDP_DROP;
	next_fp += gap_fp;
	return tmpl_frame(ctx, 1);
}

char LICENSE[] SEC("license") = "GPL";
