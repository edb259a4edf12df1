/* Next hop resolution on a tester port: an ARP request or a Neighbour
 * Solicitation (core/neigh.h) sent on an AF_PACKET socket bound to the
 * port, and the answer awaited there. The port needs no address and the
 * kernel's neighbour table is neither read nor changed: the tester's
 * kernel stays out of it. */
#ifndef WR_OS_NEIGHSOCK_H
#define WR_OS_NEIGHSOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct neighsock_req {
	int nsfd;			/* namespace of ifname, -1: the caller's */
	const char *ifname;
	const uint8_t *mac;		/* the port's own MAC (6 bytes) */
	bool v6;			/* ND, else ARP */
	const uint8_t *sender;		/* our address on the DUT's subnet (4 or 16 bytes) */
	const uint8_t *target;		/* the next hop's address */
	unsigned int tries;		/* requests sent at most, 1 apart by wait_ns */
	uint64_t wait_ns;		/* how long each waits for its answer */
};

struct neighsock_res {
	uint8_t mac[6];
	uint64_t rtt_ns;		/* from the last request sent to the answer */
	unsigned int tries;		/* requests sent */
};

/* Ask and wait: at most tries * wait_ns. 0 with res filled; -ETIMEDOUT
 * when nothing answered; other -errno with the reason in err. */
int neighsock_resolve(const struct neighsock_req *q, struct neighsock_res *res, char *err, size_t errlen);

#endif
