/* Offloads through the SIOCETHTOOL ioctl (in the namespace of the socket
 * the caller passes). */
#ifndef WR_OS_ETHTOOL_H
#define WR_OS_ETHTOOL_H

#include <stdbool.h>
#include <stdint.h>

struct offloads {
	bool gro, gso, tso;
};

/* sock: any AF_INET/AF_PACKET datagram socket in the link's namespace. */
int ethtool_offloads_get(int sock, const char *ifname, struct offloads *o);
/* Turn GRO, GSO and TSO off; features the device cannot change are left. */
int ethtool_offloads_off(int sock, const char *ifname);
/* Receive and transmit queues in use (combined channels plus rx-only,
 * tx-only); 0 or -errno when the driver does not say. */
int ethtool_queues(int sock, const char *ifname, unsigned int *rx, unsigned int *tx);
/* Use n combined channels (virtio-net's queue pairs). */
int ethtool_set_queues(int sock, const char *ifname, unsigned int n);
/* Link speed in Mb/s as the driver reports it; 0 when unknown. */
int ethtool_speed(int sock, const char *ifname, unsigned int *mbps);

/* The driver's statistics (`ethtool -S`): fn(ctx, name, value) for each,
 * name NUL-terminated. 0, or -errno (-EOPNOTSUPP: the driver has none). */
typedef void (*ethtool_stat_fn)(void *ctx, const char *name, uint64_t value);
int ethtool_stats(int sock, const char *ifname, ethtool_stat_fn fn, void *ctx);

#endif
