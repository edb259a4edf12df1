// SPDX-License-Identifier: GPL-2.0
/* The analyzer inside XDP, for rates a socket cannot take: every frame is
 * parsed, its tag checked and counted where it arrives, and dropped there;
 * nothing is copied to user space. A bitmap with one bit per sequence
 * number sent tells first copies from duplicates exactly (no window), and
 * the latency goes into the same log-linear buckets as src/core/hist.c
 * (from every frame, or above XDPCOUNT_LAT_ALL_PPS a stream, from every
 * frame whose sequence number is a multiple of a power of two).
 *
 * What it checks: Ethernet (one 802.1Q tag at most), IPv4 (header checksum)
 * or IPv6, UDP, the tag's magic and check. Unlike the socket analyzers it
 * does not verify the UDP checksum: the tag's own check covers the bytes
 * that are counted. Frames that are not test frames go to the stack.
 * With a capture, the first frames not counted are also copied to user
 * space through a ring buffer, whatever their fate. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include "bpf_inline.h"
#include "bpf_shared.h"
#include "bpf_flow.h"

struct xc_state xc;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct xc_counters);
} xc_cnt SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, XC_HIST_BUCKETS);
	__type(key, __u32);
	__type(value, __u64);
} xc_hist SEC(".maps");

/* One bit per sequence number; sized by user space before loading. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} xc_seen SEC(".maps");

/* The frames not counted, copied for a capture (xc.cap_max of them);
 * sized by user space: a page when there is no capture. */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} xc_cap SEC(".maps");

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

/* hist_bucket() for a 32-bit value: the exact value below 128, else 64
 * buckets per power of two. */
static __always_inline __u32 bucket(__u32 v)
{
	__u32 msb = 0, x = v;

	if (v < 128)
		return v;
	if (x >> 16) { msb += 16; x >>= 16; }
	if (x >> 8) { msb += 8; x >>= 8; }
	if (x >> 4) { msb += 4; x >>= 4; }
	if (x >> 2) { msb += 2; x >>= 2; }
	if (x >> 1) msb += 1;
	return ((msb - 6) << 6) + (v >> (msb - 6));
}

/* Copy the frame into xc_cap while the capture has room. */
static __always_inline void capture(struct xdp_md *ctx, int which)
{
	struct xc_cap_rec *r;
	__u64 len, n;

	if (!xc.cap_max || __sync_fetch_and_add(&xc.cap_n, 1) >= xc.cap_max)
		return;
	r = bpf_ringbuf_reserve(&xc_cap, sizeof(*r), 0);
	if (!r)
		return;
	len = bpf_xdp_get_buff_len(ctx);
	n = len > XC_CAP_SNAP ? XC_CAP_SNAP : len;
	/* the bounds checked on the register passed, not on a copy; the lower
	 * one as "< ETH_HLEN", which clang keeps as an unsigned compare: it
	 * made "n < 1" an equality test, from which 6.1's verifier learns no
	 * lower bound and refuses the program (a size of 0) */
	barrier_var(n);
	if (n < 14 || n > XC_CAP_SNAP || bpf_xdp_load_bytes(ctx, 0, r->data, n)) {
		bpf_ringbuf_discard(r, 0);
		return;
	}
	r->ts_ns = bpf_ktime_get_tai_ns();
	r->len = len;
	r->caplen = n;
	r->why = which;
	bpf_ringbuf_submit(r, 0);
}

static __always_inline int verdict_of(struct xdp_md *ctx, struct xc_counters *k, int which, int action)
{
	k->c[which]++;
	if (which != XC_LEARNING)
		capture(ctx, which);
	return action;
}

#define verdict(k, which, action) verdict_of(ctx, k, which, action)

SEC("xdp.frags")
int wr_count(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct xc_counters *k;
	__u32 zero = 0, off = sizeof(*eth), b;
	__u16 proto;
	__u8 *t;

	k = bpf_map_lookup_elem(&xc_cnt, &zero);
	if (!k)
		return XDP_PASS;
	if ((void *)(eth + 1) > end)
		return verdict(k, XC_NO_TAG, XDP_PASS);
	proto = eth->h_proto;
	if (proto == bpf_htons(ETH_P_8021Q)) {
		struct vlan_hdr *vh = data + off;

		if ((void *)(vh + 1) > end)
			return verdict(k, XC_NO_TAG, XDP_PASS);
		proto = vh->proto;
		off += sizeof(*vh);
	}
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = data + off;
		const __u32 *w;
		__u16 s;

		if ((void *)(ip + 1) > end)
			return verdict(k, XC_NO_TAG, XDP_PASS);
		/* our frames have no options and are never fragments */
		if (ip->ihl != 5 || ip->protocol != IPPROTO_UDP || (ip->frag_off & bpf_htons(0x3fff)))
			return verdict(k, XC_NO_TAG, XDP_PASS);
		/* 0xffff when the header checksum is right */
		w = (const __u32 *)ip;
		s = csum_fold64((__u64)w[0] + w[1] + w[2] + w[3] + w[4]);
		if (s != 0xffff) {
			/* only a frame that carries the magic is ours to count */
			t = (void *)(ip + 1) + sizeof(struct udphdr);
			if ((void *)(t + 2) <= end && t[0] == 0x57 && t[1] == 0xB1)
				return verdict(k, XC_BAD_IP_CSUM, XDP_DROP);
			return verdict(k, XC_NO_TAG, XDP_PASS);
		}
		off += sizeof(*ip);
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = data + off;

		if ((void *)(ip6 + 1) > end)
			return verdict(k, XC_NO_TAG, XDP_PASS);
		if (ip6->nexthdr != IPPROTO_UDP)
			return verdict(k, XC_NO_TAG, XDP_PASS);
		off += sizeof(*ip6);
	} else {
		return verdict(k, XC_NO_TAG, XDP_PASS);
	}
	off += sizeof(struct udphdr);
	t = data + (off & 0xff);
	if ((void *)(t + 2) > end || t[0] != 0x57 || t[1] != 0xB1)
		return verdict(k, XC_NO_TAG, XDP_PASS);
	if ((void *)(t + 18) > end)
		return verdict(k, XC_TRUNCATED, XDP_DROP);

	/* the tag's first 16 bytes as two big-endian words */
	__u64 a, c;
	__builtin_memcpy(&a, t, 8);
	__builtin_memcpy(&c, t + 8, 8);
	if (frame_tag_check(a, c) != (__u16)(t[16] << 8 | t[17]))
		return verdict(k, XC_BAD_TAG, XDP_DROP);
	if (!xc.armed)
		return verdict(k, XC_STALE, XDP_DROP);

	a = bpf_be64_to_cpu(a);
	c = bpf_be64_to_cpu(c);
	__u16 trial = (__u16)(a >> 32), stream = (__u16)(a >> 16);
	__u64 seq = (a & 0xffff) << 32 | c >> 32;
	__u32 ts = (__u32)c;

	/* stream k of the direction: its own numbers, its own part of the
	 * bitmap, its own order */
	__u16 rel = stream - xc.stream;
	__u32 sk = rel >> 1;

	if (trial == xc.learn_trial && stream == xc.stream)
		return verdict(k, XC_LEARNING, XDP_DROP);
	if (trial != xc.trial || (rel & 1) || sk >= xc.nstreams || sk >= XC_MAX_STREAMS ||
	    seq >= xc.per_stream)
		return verdict(k, XC_STALE, XDP_DROP);
	struct xc_flow *fl = bpf_map_lookup_elem(&xc_flow, &sk);

	if (fl)
		fl->seen++;
	/* the clock for every frame, or for 1 in lat_mask + 1 at high rates;
	 * user space closes the window at the deadline for the others */
	int timed = !(seq & xc.lat_mask);
	__u64 now = timed ? bpf_ktime_get_tai_ns() : 0;

	if (xc.closed || now > xc.deadline_ns)
		return verdict(k, XC_LATE, XDP_DROP);

	__u64 bi = sk * xc.per_stream + seq;
	__u32 w = (__u32)(bi >> 6);
	__u64 bit = 1ULL << (bi & 63), *word = bpf_map_lookup_elem(&xc_seen, &w);

	if (!word)
		return verdict(k, XC_STALE, XDP_DROP);
	if (__sync_fetch_and_or(word, bit) & bit)
		return verdict(k, XC_DUPLICATE, XDP_DROP);
	k->c[XC_DISTINCT]++;
	if (seq + 1 <= k->max_seq[sk & (XC_MAX_STREAMS - 1)])
		k->c[XC_REORDERED]++;
	else
		k->max_seq[sk & (XC_MAX_STREAMS - 1)] = seq + 1;
	if (!timed)
		return XDP_DROP;

	__u32 lat = (__u32)(now - xc.epoch_ns) - ts;

	if (!k->c[XC_LAT_MIN] || lat < k->c[XC_LAT_MIN])
		k->c[XC_LAT_MIN] = lat ? lat : 1;
	if (lat > k->c[XC_LAT_MAX])
		k->c[XC_LAT_MAX] = lat;
	k->c[XC_LAT_SUM] += lat;
	b = bucket(lat);
	__u64 *h = bpf_map_lookup_elem(&xc_hist, &b);

	if (h)
		(*h)++;
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
