/* Default routes as /proc/net shows them, for the rule that test traffic
 * does not leave by the interface that carries the host's own traffic
 * (the one holding its default route) unless the user says so. Reads the
 * namespace of the calling process (/proc/net is /proc/self/net): enter
 * the interface's namespace first. root: a fixture tree, or NULL for /. */
#ifndef WR_OS_NETROUTE_H
#define WR_OS_NETROUTE_H

#include <stdbool.h>

/* Whether ifname holds an IPv4 (proc/net/route) or IPv6
 * (proc/net/ipv6_route) default route that is up and not a reject
 * route: *family is AF_INET, AF_INET6 or 0 (none). A missing ipv6_route
 * (IPv6 off) counts as no IPv6 route. 0, or -errno when proc/net/route
 * cannot be read. */
int netroute_default_on(const char *root, const char *ifname, int *family);

#endif
