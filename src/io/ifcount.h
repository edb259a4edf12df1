/* An interface's drop counters as a port or an analyzer sees them: a
 * snapshot when it opens, and what was added since, so that drops from
 * before the trial (or another tester's) are never counted as its own. */
#ifndef WR_IO_IFCOUNT_H
#define WR_IO_IFCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#include "os/nl.h"

struct ifcount {
	uint64_t rx_dropped;	/* frames dropped on the way in (the backlog on the receiving CPU) */
	uint64_t tx_dropped;	/* frames the next hop refused (veth: the peer's full ring) */
};

/* The snapshot of a link already read. */
static inline void ifcount_of_link(struct ifcount *c, const struct link_info *li)
{
	c->rx_dropped = li->rx_dropped;
	c->tx_dropped = li->tx_dropped;
}

/* Read ifname's counters through nl. 0 or -errno. */
int ifcount_read(struct nl *nl, const char *ifname, struct ifcount *c);

/* The same in namespace nsfd (-1: the caller's). 0 or -errno. */
int ifcount_read_in(int nsfd, const char *ifname, struct ifcount *c);

/* What each counter added from base to now, into d. A counter below its
 * snapshot was reset (the interface went away and came back): its field
 * of d is left as it was, so the last figure known stands. */
void ifcount_since(const struct ifcount *base, const struct ifcount *now, struct ifcount *d);

/* Whether a link of this kind (IFLA_INFO_KIND) counts the frames an XDP
 * program dropped in its rx_dropped: a tap does (tun's XDP_DROP is a
 * receive drop), veth counts them apart (xdp_drops) and NIC drivers in
 * their own statistics. The XDP analyzer drops every frame it counted,
 * so where this holds its own drops are not the tester's loss. */
bool ifcount_counts_xdp_drop(const char *kind);

#endif
