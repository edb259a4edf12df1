/* Interface drop counters, snapshot and delta; see ifcount.h. */
#include "io/ifcount.h"

#include <string.h>

int ifcount_read(struct nl *nl, const char *ifname, struct ifcount *c)
{
	struct link_info li;
	int rc = nl_link_get(nl, ifname, &li);

	if (!rc)
		ifcount_of_link(c, &li);
	return rc;
}

int ifcount_read_in(int nsfd, const char *ifname, struct ifcount *c)
{
	struct link_info li;
	int rc = nl_link_get_in(nsfd, ifname, &li);

	if (!rc)
		ifcount_of_link(c, &li);
	return rc;
}

void ifcount_since(const struct ifcount *base, const struct ifcount *now, struct ifcount *d)
{
	if (now->rx_dropped >= base->rx_dropped)
		d->rx_dropped = now->rx_dropped - base->rx_dropped;
	if (now->tx_dropped >= base->tx_dropped)
		d->tx_dropped = now->tx_dropped - base->tx_dropped;
}

bool ifcount_counts_xdp_drop(const char *kind)
{
	return kind && !strcmp(kind, "tun");
}
