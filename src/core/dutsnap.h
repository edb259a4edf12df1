/* The counters of a device under test at one instant, whatever the DUT
 * is (the lab, this host, a box reached over SSH): what a trial reads
 * before and after its traffic to say what forwarding cost the DUT's CPUs
 * and where lost frames went. Pure data: src/dut reads it on the DUT and
 * carries it over the agent protocol; src/core/lossattr.c attributes loss
 * from two of them.
 *
 * The /proc texts travel as text and are parsed on the tester with the
 * parsers of core/cpustat.h, so the DUT side stays thin and a kernel with
 * other columns needs no newer agent. Every count is 64-bit; a field the
 * DUT's kernel does not report is 0 and its have_* flag false. */
#ifndef WR_CORE_DUTSNAP_H
#define WR_CORE_DUTSNAP_H

#include <stdbool.h>
#include <stdint.h>

#define DUTSNAP_IF_MAX 16		/* named interfaces */
#define DUTSNAP_QDISC_MAX 64		/* qdiscs over those interfaces */
#define DUTSNAP_NFT_MAX 64		/* nft rules that count and drop */
#define DUTSNAP_NAME 64
#define DUTSNAP_QUEUE_MAX 32		/* receive queues kept per interface */

/* One receive queue of an interface, from the driver's per-queue
 * statistics: what RSS gave it, and what its ring and XDP dropped. */
struct dutsnap_queue {
	uint64_t packets, ring_drops, xdp_drops;
};

/* One interface, from rtnetlink's IFLA_STATS64 and, where the driver has
 * them, its ethtool statistics. */
struct dutsnap_if {
	char name[DUTSNAP_NAME];
	bool present;			/* the interface existed at this instant */
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
	uint64_t rx_missed, rx_fifo, rx_over;	/* NIC ring/FIFO overruns (IFLA_STATS64) */
	/* ethtool -S, summed over queues: drops by the XDP program and by
	 * the driver's receive ring (veth: the peer's ring was full). */
	bool have_xdp;
	uint64_t xdp_drops, xdp_tx_errors, ring_drops;
	/* The same by receive queue (rx_queue_N_*, rxN_*, rx-N.*), queues
	 * 0..nqueue-1; nqueue 0 when the driver names no queues. */
	unsigned int nqueue;
	struct dutsnap_queue queue[DUTSNAP_QUEUE_MAX];
};

/* One qdisc on a named interface (root or child). */
struct dutsnap_qdisc {
	char dev[DUTSNAP_NAME];
	char kind[16];			/* "tbf", "fq_codel", "mq", ... */
	uint32_t handle, parent;
	uint64_t packets, bytes;
	uint64_t drops, overlimits, requeues;
	uint32_t qlen, backlog;
};

/* An nft rule that ends in drop and has a counter: frames the firewall
 * dropped on purpose. */
struct dutsnap_nft {
	char family[8];			/* "ip", "ip6", "inet", ... */
	char table[DUTSNAP_NAME];
	char chain[DUTSNAP_NAME];
	uint64_t handle;
	uint64_t packets, bytes;
};

/* The stack's own drop counters, from /proc/net/snmp and netstat. */
struct dutsnap_stack {
	bool present;
	uint64_t ip_in_hdr_errors, ip_in_addr_errors, ip_in_discards;
	uint64_t ip_in_no_routes, ip_out_discards, ip_out_no_routes;
	uint64_t ip_forw_datagrams;
	uint64_t icmp_out_time_excds;	/* TTL ran out */
	uint64_t ip6_in_no_routes, ip6_in_discards, ip6_out_discards, ip6_out_forw;
	uint64_t ip6_in_hdr_errors, icmp6_out_time_excds;
};

struct dutsnap {
	uint64_t t_ns;			/* the DUT's CLOCK_MONOTONIC */
	/* /proc texts as read on the DUT (malloc'ed, NUL-terminated; NULL
	 * when the file is missing there). Parse with core/cpustat.h. */
	char *proc_stat, *proc_interrupts, *proc_softirqs, *proc_softnet;
	struct dutsnap_stack stack;
	unsigned int nif, nqdisc, nnft;
	struct dutsnap_if ifs[DUTSNAP_IF_MAX];
	struct dutsnap_qdisc qdisc[DUTSNAP_QDISC_MAX];
	struct dutsnap_nft nft[DUTSNAP_NFT_MAX];
};

/* Free the texts and zero the snapshot; NULL is fine. */
void dutsnap_clear(struct dutsnap *s);
/* The interface called name, or NULL. */
const struct dutsnap_if *dutsnap_if_find(const struct dutsnap *s, const char *name);

#endif
