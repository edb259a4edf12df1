// SPDX-License-Identifier: GPL-2.0
/* Placeholder: the generator program is being written. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_shared.h"

struct xg_state xg;

SEC("xdp")
int wr_gen(struct xdp_md *ctx)
{
	return XDP_DROP;
}

char LICENSE[] SEC("license") = "GPL";
