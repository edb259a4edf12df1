/* Taps through /dev/net/tun; see tap.h. */
#include "os/tap.h"

#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <linux/if_tun.h>

#include "os/netns.h"

int tap_create(int nsfd, const char *ifname, unsigned int queues, int *fds, char *err, size_t errlen)
{
	int saved = -1, rc = 0;
	unsigned int n = 0;

	if (!queues || queues > TAP_QUEUES_MAX || strlen(ifname) >= IF_NAMESIZE) {
		snprintf(err, errlen, "tap %s: %u queues (1..%d)", ifname, queues, TAP_QUEUES_MAX);
		return -EINVAL;
	}
	if (if_nametoindex(ifname) && nsfd < 0) {
		snprintf(err, errlen, "a link named %s is there already", ifname);
		return -EEXIST;
	}
	if (nsfd >= 0 && (rc = netns_enter(nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the namespace of tap %s: %s", ifname, strerror(-rc));
		return rc;
	}
	/* The name is checked in the namespace it will live in. */
	if (if_nametoindex(ifname)) {
		snprintf(err, errlen, "a link named %s is there already", ifname);
		rc = -EEXIST;
	}
	for (; !rc && n < queues; n++) {
		struct ifreq ifr;

		if ((fds[n] = open("/dev/net/tun", O_RDWR | O_CLOEXEC)) < 0) {
			rc = -errno;
			snprintf(err, errlen, "cannot open /dev/net/tun: %s (a kernel without tun: modprobe tun)",
				 strerror(errno));
			break;
		}
		memset(&ifr, 0, sizeof(ifr));
		ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_VNET_HDR | (queues > 1 ? IFF_MULTI_QUEUE : 0);
		snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
		if (ioctl(fds[n], TUNSETIFF, &ifr) < 0) {
			rc = -errno;
			snprintf(err, errlen, "cannot make tap %s: %s", ifname, strerror(errno));
			close(fds[n]);
			break;
		}
	}
	if (saved >= 0)
		netns_leave(&saved);
	if (rc)
		while (n-- > 0)
			close(fds[n]);
	return rc;
}
