/* Next hop resolution on the wire, without the kernel's neighbour table:
 * the ARP request and the IPv6 Neighbour Solicitation a tester port sends
 * to learn the DUT port's MAC, and the parsers of the answers. Pure code:
 * src/os/neighsock.c sends and receives the frames. The replies come from
 * the wire and are untrusted: the parsers read only inside len. */
#ifndef WR_CORE_NEIGH_H
#define WR_CORE_NEIGH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An ARP request padded to Ethernet's minimum (no FCS). */
#define NEIGH_ARP_LEN 60
/* A Neighbour Solicitation with the source link-layer address option:
 * 14 + 40 + 24 + 8. */
#define NEIGH_NS_LEN 86
/* Room for either. */
#define NEIGH_FRAME_MAX 86

/* Build the request that asks who has target, from mac and sender (4
 * bytes with v6 false, 16 with v6 true) into buf; returns its length, or
 * -ENOSPC when cap is short. IPv6: to the target's solicited-node
 * multicast group, hop limit 255, ICMPv6 checksum filled. */
int neigh_request(uint8_t *buf, size_t cap, bool v6, const uint8_t mac[6], const uint8_t *sender,
		  const uint8_t *target);

/* 0 and the MAC in mac when frame (len bytes from Ethernet on) answers
 * for target: an ARP reply whose sender is target, or a Neighbour
 * Advertisement for target (hop limit 255, checksum right, its target
 * link-layer address option, else the frame's source). -ENOENT for
 * anything else (another protocol, another address, malformed): callers
 * keep waiting. A multicast or zero MAC is never an answer. */
int neigh_reply(const uint8_t *frame, size_t len, bool v6, const uint8_t *target, uint8_t mac[6]);

/* The ICMPv6 checksum of an IPv6 packet (ip points to its header, len
 * bytes in all, the ICMPv6 message after 40 bytes of header). */
uint16_t neigh_icmp6_csum(const uint8_t *ip, size_t len);

#endif
