/* ioctls on an interface in a given namespace. */
#include "os/ifinfo.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdbool.h>
#include <ifaddrs.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "os/ethtool.h"
#include "os/netns.h"

/* A datagram socket made in the namespace behind nsfd: the ioctls on it
 * act on that namespace's interfaces. */
static int sock_in(int nsfd)
{
	int saved = -1, fd, rc;

	if (nsfd >= 0 && (rc = netns_enter(nsfd, &saved)))
		return rc;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	rc = fd < 0 ? -errno : fd;
	if (nsfd >= 0)
		netns_leave(&saved);
	return rc;
}

int ifinfo_mac(int nsfd, const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr;
	int fd = sock_in(nsfd), rc = 0;

	if (fd < 0)
		return fd;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		rc = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return rc;
}

int ifinfo_speed(int nsfd, const char *ifname, unsigned int *mbps)
{
	int fd = sock_in(nsfd), rc;

	if (fd < 0)
		return fd;
	rc = ethtool_speed(fd, ifname, mbps);
	close(fd);
	return rc;
}

int ifinfo_has_addr(const char *ifname, const char *addr)
{
	unsigned char want[16], have[16];
	bool v6 = strchr(addr, ':') != NULL;
	struct ifaddrs *ifa, *i;
	int found = 0;

	if (!if_nametoindex(ifname))
		return -ENODEV;
	if (inet_pton(v6 ? AF_INET6 : AF_INET, addr, want) != 1)
		return -EINVAL;
	if (getifaddrs(&ifa))
		return -errno;
	for (i = ifa; i && !found; i = i->ifa_next) {
		if (!i->ifa_addr || strcmp(i->ifa_name, ifname))
			continue;
		if (!v6 && i->ifa_addr->sa_family == AF_INET) {
			memcpy(have, &((struct sockaddr_in *)(void *)i->ifa_addr)->sin_addr, 4);
			found = !memcmp(have, want, 4);
		} else if (v6 && i->ifa_addr->sa_family == AF_INET6) {
			memcpy(have, &((struct sockaddr_in6 *)(void *)i->ifa_addr)->sin6_addr, 16);
			found = !memcmp(have, want, 16);
		}
	}
	freeifaddrs(ifa);
	return found;
}
