/* The map the analyzer (count.bpf.c) and the generator (xdpgen.bpf.c)
 * share back to back for flow control: each stream's frames of the trial
 * the analyzer has seen, one cache line a stream (struct xc_flow). The
 * generator's own copy is replaced by the analyzer's before loading, and
 * never read where there is no analyzer to share (window 0). */
#ifndef WR_IO_BPF_FLOW_H
#define WR_IO_BPF_FLOW_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "bpf_shared.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, XC_MAX_STREAMS);
	__type(key, __u32);
	__type(value, struct xc_flow);
} xc_flow SEC(".maps");

#endif
