// SPDX-License-Identifier: GPL-2.0
/* A reflector on the host under test's one port (wirerate pair's
 * forward test with --reflect): a test frame, UDP to the test port over
 * IPv4 or IPv6, goes back out of the port it came in on (XDP_TX) with its
 * Ethernet addresses swapped, and nothing else touched, so the tester's
 * tag, sequence numbers and checksums arrive as they left. Every other
 * frame (ARP, neighbour discovery, the management traffic) goes on to
 * the stack. What it reflected is counted in rf. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

/* In .bss, mapped by user space (io/reflect.c): the UDP port of the test
 * frames, written before the program is attached, and the counts. */
struct {
	__u64 reflected;	/* frames sent back */
	__u64 passed;		/* frames left to the stack */
	__u16 port;
} rf;

SEC("xdp")
int wr_reflect(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct udphdr *udp;
	unsigned char mac[ETH_ALEN];
	__u16 proto;

	if ((void *)(eth + 1) > end)
		goto pass;
	proto = eth->h_proto;
	if (proto == bpf_htons(ETH_P_IP)) {
		struct iphdr *ip = (void *)(eth + 1);

		if ((void *)(ip + 1) > end || ip->protocol != IPPROTO_UDP || ip->ihl != 5)
			goto pass;
		udp = (void *)(ip + 1);
	} else if (proto == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr *ip6 = (void *)(eth + 1);

		if ((void *)(ip6 + 1) > end || ip6->nexthdr != IPPROTO_UDP)
			goto pass;
		udp = (void *)(ip6 + 1);
	} else {
		goto pass;
	}
	if ((void *)(udp + 1) > end || !rf.port || udp->dest != bpf_htons(rf.port))
		goto pass;
	__builtin_memcpy(mac, eth->h_dest, ETH_ALEN);
	__builtin_memcpy(eth->h_dest, eth->h_source, ETH_ALEN);
	__builtin_memcpy(eth->h_source, mac, ETH_ALEN);
	__sync_fetch_and_add(&rf.reflected, 1);
	return XDP_TX;
pass:
	__sync_fetch_and_add(&rf.passed, 1);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
