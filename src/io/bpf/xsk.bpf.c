// SPDX-License-Identifier: GPL-2.0
/* Placeholder: the AF_XDP receive program is being written. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int wr_xsk(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
