// SPDX-License-Identifier: GPL-2.0
/* The lab DUT's ingress port. Attaching any XDP program puts a veth in NAPI
 * mode: frames then queue in its receive ring and are taken by a NAPI poll
 * (threaded and pinned to the DUT's CPUs by the lab), so an overloaded DUT
 * drops from that ring as a NIC does, instead of holding the sender back.
 * Every frame goes on to the kernel's forwarding path unchanged. Declared
 * for multi-buffer frames (xdp.frags), so the lab's jumbo MTU stays
 * allowed. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp.frags")
int wr_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
