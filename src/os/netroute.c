#include "os/netroute.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <net/route.h>

static FILE *open_in(const char *root, const char *path)
{
	char p[4096];

	snprintf(p, sizeof(p), "%s%s", root && strcmp(root, "/") ? root : "", path);
	return fopen(p, "re");
}

/* Iface Destination Gateway Flags RefCnt Use Metric Mask ..., hex in host
 * order; the first line is a header. */
static bool default4(FILE *f, const char *ifname)
{
	char line[512], dev[64];
	unsigned int dst, gw, flags, mask;
	bool found = false;

	if (!fgets(line, sizeof(line), f))
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%63s %x %x %x %*d %*d %*d %x", dev, &dst, &gw, &flags, &mask) != 5)
			continue;
		found = !strcmp(dev, ifname) && !dst && !mask && (flags & RTF_UP) && !(flags & RTF_REJECT);
	}
	return found;
}

/* dst plen src splen nexthop metric refcnt use flags iface, no header. The
 * kernel's own "::/0 reject" route on lo when nothing else routes is not a
 * default route to leave by. */
static bool default6(FILE *f, const char *ifname)
{
	char line[512], dst[40], dev[64];
	unsigned int plen, flags;
	bool found = false;

	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%39s %x %*s %*x %*s %*x %*x %*x %x %63s", dst, &plen, &flags, dev) != 4)
			continue;
		found = !strcmp(dev, ifname) && !plen && strspn(dst, "0") == 32 &&
			(flags & RTF_UP) && !(flags & RTF_REJECT);
	}
	return found;
}

int netroute_default_on(const char *root, const char *ifname, int *family)
{
	FILE *f = open_in(root, "/proc/net/route");
	bool v4;

	*family = 0;
	if (!f)
		return -errno;
	v4 = default4(f, ifname);
	fclose(f);
	if (v4) {
		*family = AF_INET;
		return 0;
	}
	if ((f = open_in(root, "/proc/net/ipv6_route"))) {
		if (default6(f, ifname))
			*family = AF_INET6;
		fclose(f);
	}
	return 0;
}
