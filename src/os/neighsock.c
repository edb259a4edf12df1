#include "os/neighsock.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/socket.h>

#include "core/neigh.h"
#include "os/clock.h"
#include "os/netns.h"

/* The socket lives in the port's namespace: made there, it stays bound
 * to that namespace's interface after this thread goes back. */
static int open_port(const struct neighsock_req *q, int *ifindex, char *err, size_t errlen)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	int saved = -1, fd, rc;
	uint16_t proto = htons(q->v6 ? ETH_P_IPV6 : ETH_P_ARP);

	if (q->nsfd >= 0 && (rc = netns_enter(q->nsfd, &saved))) {
		snprintf(err, errlen, "%s: cannot enter its namespace: %s", q->ifname, strerror(-rc));
		return rc;
	}
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, proto);
	rc = fd < 0 ? -errno : 0;
	*ifindex = (int)if_nametoindex(q->ifname);
	if (q->nsfd >= 0)
		netns_leave(&saved);
	if (rc) {
		snprintf(err, errlen, "%s: a packet socket: %s", q->ifname, strerror(-rc));
		return rc;
	}
	if (!*ifindex) {
		snprintf(err, errlen, "%s: no such interface", q->ifname);
		close(fd);
		return -ENODEV;
	}
	sll.sll_protocol = proto;
	sll.sll_ifindex = *ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		rc = -errno;
		snprintf(err, errlen, "%s: binding a packet socket: %s", q->ifname, strerror(-rc));
		close(fd);
		return rc;
	}
	return fd;
}

/* Read what arrived until deadline; 0 when the answer came. */
static int await(int fd, const struct neighsock_req *q, uint64_t deadline, uint8_t mac[6])
{
	uint8_t buf[2048];

	for (;;) {
		uint64_t now = clock_mono_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		struct sockaddr_ll from;
		socklen_t fl = sizeof(from);
		ssize_t n;
		int ms;

		if (now >= deadline)
			return -ETIMEDOUT;
		ms = (int)((deadline - now + NSEC_PER_MSEC - 1) / NSEC_PER_MSEC);
		if (poll(&p, 1, ms) < 0 && errno != EINTR)
			return -errno;
		if (!(p.revents & POLLIN))
			continue;
		n = recvfrom(fd, buf, sizeof(buf), MSG_DONTWAIT, (struct sockaddr *)&from, &fl);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		if (from.sll_pkttype == PACKET_OUTGOING)
			continue;
		if (!neigh_reply(buf, (size_t)n, q->v6, q->target, mac))
			return 0;
	}
}

int neighsock_resolve(const struct neighsock_req *q, struct neighsock_res *res, char *err, size_t errlen)
{
	uint8_t frame[NEIGH_FRAME_MAX];
	int fd, ifindex = 0, len, rc = -ETIMEDOUT;

	memset(res, 0, sizeof(*res));
	len = neigh_request(frame, sizeof(frame), q->v6, q->mac, q->sender, q->target);
	if (len < 0) {
		snprintf(err, errlen, "cannot build the request: %s", strerror(-len));
		return len;
	}
	if ((fd = open_port(q, &ifindex, err, errlen)) < 0)
		return fd;
	for (unsigned int t = 0; t < q->tries && rc == -ETIMEDOUT; t++) {
		struct sockaddr_ll to = { .sll_family = AF_PACKET, .sll_ifindex = ifindex, .sll_halen = 6 };
		uint64_t sent;

		memcpy(to.sll_addr, frame, 6);
		sent = clock_mono_ns();
		if (sendto(fd, frame, (size_t)len, 0, (struct sockaddr *)&to, sizeof(to)) != len) {
			rc = -errno;
			snprintf(err, errlen, "%s: sending the %s: %s", q->ifname, q->v6 ? "neighbour solicitation" :
				 "ARP request", rc == -ENETDOWN ? "the interface is down" : strerror(-rc));
			break;
		}
		res->tries = t + 1;
		rc = await(fd, q, sent + q->wait_ns, res->mac);
		if (!rc)
			res->rtt_ns = clock_mono_ns() - sent;
		else if (rc != -ETIMEDOUT)
			snprintf(err, errlen, "%s: waiting for the answer: %s", q->ifname, strerror(-rc));
	}
	if (rc == -ETIMEDOUT) {
		char a[INET6_ADDRSTRLEN] = "?";

		inet_ntop(q->v6 ? AF_INET6 : AF_INET, q->target, a, sizeof(a));
		snprintf(err, errlen, "no answer from %s on %s: %u %s in %.1f s", a, q->ifname, res->tries,
			 q->v6 ? "neighbour solicitation(s)" : "ARP request(s)",
			 (double)res->tries * (double)q->wait_ns / NSEC_PER_SEC);
	}
	close(fd);
	return rc;
}
