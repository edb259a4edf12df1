// SPDX-License-Identifier: GPL-2.0
/* The AF_XDP receive port's program: test frames (UDP whose payload starts
 * with wirerate's tag magic) go to the AF_XDP socket of the queue they
 * arrived on; everything else (ARP, ICMP, other traffic) goes on to the
 * stack, so the interface keeps working while the port is open.
 *
 * Only the magic is checked here: the analyzer validates the whole frame
 * (checksums, tag check) in user space and counts the failures apart, which
 * it could not do if this program passed them to the stack. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>
#include "bpf_shared.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, XSK_MAX_QUEUES);
	__type(key, __u32);
	__type(value, __u32);
} xsks SEC(".maps");

struct vlan_hdr {
	__be16 tci;
	__be16 proto;
};

/* Offset of the UDP payload, or 0 when the frame is not UDP over IPv4 or
 * IPv6 (without extension headers) behind at most one 802.1Q tag. */
static __always_inline __u32 udp_payload_off(void *data, void *end)
{
	struct ethhdr *eth = data;
	__u32 off = sizeof(*eth);
	__u16 proto;

	if ((void *)(eth + 1) > end)
		return 0;
	proto = eth->h_proto;
	if (proto == bpf_htons(ETH_P_8021Q)) {
		struct vlan_hdr *vh = data + off;

		if ((void *)(vh + 1) > end)
			return 0;
		proto = vh->proto;
		off += sizeof(*vh);
	}
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = data + off;

		if ((void *)(ip + 1) > end)
			return 0;
		if (ip->ihl < 5 || ip->protocol != IPPROTO_UDP)
			return 0;
		/* A non-first fragment has no UDP header at its start. */
		if (ip->frag_off & bpf_htons(0x1fff))
			return 0;
		off += ip->ihl * 4;
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = data + off;

		if ((void *)(ip6 + 1) > end)
			return 0;
		if (ip6->nexthdr != IPPROTO_UDP)
			return 0;
		off += sizeof(*ip6);
	} else {
		return 0;
	}
	return off + sizeof(struct udphdr);
}

SEC("xdp")
int wr_xsk(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct xsk_meta *m;
	__u8 *pl;
	__u32 off = udp_payload_off(data, end);

	/* off is at most 14 + 4 + 60 + 8; the mask tells the verifier so. */
	if (!off)
		return XDP_PASS;
	pl = data + (off & 0xff);
	if ((void *)(pl + 2) > end || pl[0] != 0x57 || pl[1] != 0xB1)
		return XDP_PASS;
	/* The receive time, taken here rather than when user space gets to
	 * the frame: copy-mode AF_XDP copies the metadata area along with the
	 * frame (measured on this kernel with veth; see docs/afxdp.md). Where
	 * there is no room for it the frame still goes, without a time, and
	 * user space falls back to its own clock. */
#ifndef WR_XSK_NO_META
	if (!bpf_xdp_adjust_meta(ctx, -(int)sizeof(*m))) {
		__u64 now = bpf_ktime_get_tai_ns();

		data = (void *)(long)ctx->data;
		m = (void *)(long)ctx->data_meta;
		if ((void *)(m + 1) <= data) {
			m->rx_tai_ns = now;
			m->magic = XSK_META_MAGIC;
			m->pad = 0;
		}
	}
#else
	(void)m;
#endif
	return bpf_redirect_map(&xsks, ctx->rx_queue_index, XDP_PASS);
}

char LICENSE[] SEC("license") = "GPL";
