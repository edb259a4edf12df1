/* rtnetlink through libmnl: links, addresses, routes, neighbours, qdiscs.
 * A handle is bound to the network namespace it was opened in. */
#ifndef WR_OS_NL_H
#define WR_OS_NL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <net/if.h>

struct nl;

/* Open an rtnetlink socket in the namespace behind nsfd (-1: the caller's). */
struct nl *nl_create(int nsfd, char *err, size_t errlen);
void nl_destroy(struct nl *nl);

struct link_info {
	int ifindex;
	int peer_ifindex;	/* IFLA_LINK: veth peer (in its own namespace) */
	char name[IF_NAMESIZE];
	char kind[16];		/* "veth", ... */
	uint8_t mac[6];
	bool up;		/* IFF_UP */
	bool running;		/* carrier */
	unsigned int mtu;
	unsigned int num_tx_queues, num_rx_queues;	/* allocated (not the number in use); 0: not said */
	uint32_t xdp_prog_id;	/* attached XDP program, 0 = none */
	uint8_t xdp_mode;	/* XDP_ATTACHED_* */
	uint64_t rx_packets, tx_packets, rx_bytes, tx_bytes;
	uint64_t rx_dropped, tx_dropped, rx_errors, tx_errors;
	uint64_t rx_missed, rx_fifo, rx_over;	/* the NIC's overruns (rx_*_errors) */
};

/* Fill *li for the link called name; -ENODEV when there is none. */
int nl_link_get(struct nl *nl, const char *name, struct link_info *li);
/* The same, once, in the namespace behind nsfd (-1: ours): for counters
 * read now and then. */
int nl_link_get_in(int nsfd, const char *name, struct link_info *li);
/* Create a veth pair: name here, peer in the namespace behind peer_nsfd,
 * each end with queues transmit and receive queues (0 or 1: one). */
int nl_veth_add(struct nl *nl, const char *name, const uint8_t mac[6],
		const char *peer, const uint8_t peer_mac[6], int peer_nsfd, unsigned int queues);
int nl_link_del(struct nl *nl, int ifindex);
int nl_link_up(struct nl *nl, int ifindex, bool up);
int nl_link_mtu(struct nl *nl, int ifindex, unsigned int mtu);
/* Set a link's MAC address; rename a link (it must be down). */
int nl_link_mac(struct nl *nl, int ifindex, const uint8_t mac[6]);
int nl_link_rename(struct nl *nl, int ifindex, const char *name);
/* Set and clear IFF_* flags of a link. */
int nl_link_flags(struct nl *nl, int ifindex, unsigned int set, unsigned int clear);

/* Address, route and permanent neighbour; all replace what is there, so
 * that calling them again is harmless. addr points to 4 or 16 bytes. */
int nl_addr_add(struct nl *nl, int ifindex, int family, const void *addr,
		unsigned int plen, bool nodad);
int nl_route_add(struct nl *nl, int family, const void *dst, unsigned int plen,
		 const void *gw, int ifindex);
int nl_neigh_add(struct nl *nl, int ifindex, int family, const void *addr,
		 const uint8_t mac[6]);

/* Root qdisc of a link. */
struct qdisc_info {
	char kind[16];		/* "noqueue", "tbf", ... empty when none */
	uint64_t rate;		/* tbf: bytes/s in the qdisc's own size units */
	uint32_t burst;		/* tbf: bytes */
	uint32_t limit;		/* tbf: bytes */
	uint32_t pkt_size;	/* size table: every frame counts as this many bytes, 0 = none */
	int32_t overhead;	/* size table: bytes added to each frame */
	uint64_t packets, bytes;
	uint32_t drops, overlimits, qlen;
};

struct tbf_params {
	uint64_t rate;		/* bytes per second, in the units below */
	uint32_t burst;		/* bytes */
	uint32_t limit;		/* bytes queued at most */
	uint32_t pkt_size;	/* count each frame as pkt_size bytes (rate in pps * pkt_size); 0 = real length */
	int32_t overhead;	/* added to each frame's length when pkt_size is 0 */
};

int nl_qdisc_tbf(struct nl *nl, int ifindex, const struct tbf_params *p);
/* Remove the root qdisc; none is not an error. */
int nl_qdisc_del_root(struct nl *nl, int ifindex);
int nl_qdisc_get_root(struct nl *nl, int ifindex, struct qdisc_info *qi);

/* One qdisc's statistics (TCA_STATS2), as `tc -s qdisc` shows them. */
struct qdisc_stat {
	int ifindex;
	char kind[16];
	uint32_t handle, parent;	/* parent TC_H_ROOT: the root; TC_H_INGRESS: ingress/clsact */
	uint64_t packets, bytes;
	uint32_t drops, overlimits, requeues, qlen, backlog;
};
/* Every qdisc of ifindex (0: of every link), at most max of them into
 * out; *n says how many were kept. */
int nl_qdisc_list(struct nl *nl, int ifindex, struct qdisc_stat *out, unsigned int max, unsigned int *n);

/* Attach (prog_fd >= 0) or detach (-1) an XDP program; mode is XDP_FLAGS_*. */
int nl_xdp_set(struct nl *nl, int ifindex, int prog_fd, uint32_t flags);

#endif
