/* What this host can do, found by trying it (in a throw-away network
 * namespace), so that commands and tests can fall back or skip with a
 * reason instead of failing half way. */
#ifndef WR_OS_HOSTCAPS_H
#define WR_OS_HOSTCAPS_H

#include <stdbool.h>
#include <stddef.h>

enum probe_state { PROBE_NO = 0, PROBE_YES = 1, PROBE_UNKNOWN = -1 };

enum probe_id {
	PR_ROOT, PR_NETNS, PR_VETH, PR_PACKET_TX_RING, PR_PACKET_RX_RING,
	PR_QDISC_BYPASS, PR_AF_XDP, PR_BPF, PR_XDP_VETH, PR_NFTABLES,
	PR_IPTABLES, PR_TBF, PR_RPS, PR_IRQ_TIME, PR_XDP_LIVE, PR_STEADY_CPU,
	PR_TUN, PR_QEMU, PR_KVM, PR_VM_KERNELS, PR_COUNT
};

struct probe_item {
	const char *name;	/* stable key: "af_xdp" */
	enum probe_state state;
	char detail[200];	/* one line: what it means here */
};

struct probe_report {
	struct probe_item item[PR_COUNT];
	unsigned int cpus_online;
	char cpus_list[128];
	char clocksource[64];
	char kernel[128];
};

/* Run every check; sys_root is "/" or a fixture tree for the file-based
 * ones (kernel config, clocksource, CPUs). */
void hostcaps_run(struct probe_report *r, const char *sys_root, bool have_root);
/* Fill one item from a check made elsewhere (the XDP generator lives in
 * src/io, above this layer: the command runs it and reports here). */
void hostcaps_set(struct probe_report *r, enum probe_id id, enum probe_state s, const char *detail);
/* Index of the item called name, or -1. */
int hostcaps_find(const char *name);

#endif
