/* An interface's MAC address and link speed, read in the network
 * namespace behind an open fd (-1: ours). */
#ifndef WR_OS_IFINFO_H
#define WR_OS_IFINFO_H

#include <stdint.h>

/* The hardware address of ifname; -errno (-ENODEV: no such interface). */
int ifinfo_mac(int nsfd, const char *ifname, uint8_t mac[6]);
/* The link speed in Mb/s (left as it is when the link has none, such as
 * veth, or it cannot be read); -errno. */
int ifinfo_speed(int nsfd, const char *ifname, unsigned int *mbps);

/* Whether ifname exists here (1), and holds the address addr (text,
 * IPv4 or IPv6) in this namespace: 1 yes, 0 no, -ENODEV no such
 * interface, -errno. */
int ifinfo_has_addr(const char *ifname, const char *addr);

#endif
