#include "core/neigh.h"

#include <errno.h>
#include <string.h>

#define ETH_HLEN_ 14
#define ETHERTYPE_ARP_ 0x0806
#define ETHERTYPE_IPV6_ 0x86dd
#define IP6_HLEN 40
#define ICMP6_NS 135
#define ICMP6_NA 136
#define ND_OPT_SLLA 1
#define ND_OPT_TLLA 2
#define ND_MSG_LEN 24	/* type, code, checksum, flags/reserved, target */

static void put16(uint8_t *p, unsigned int v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static unsigned int get16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

/* A MAC a DUT port can have: not zero, not a group address. */
static bool unicast_mac(const uint8_t m[6])
{
	return !(m[0] & 1) && (m[0] | m[1] | m[2] | m[3] | m[4] | m[5]);
}

uint16_t neigh_icmp6_csum(const uint8_t *ip, size_t len)
{
	uint32_t sum = 0;
	size_t plen = len - IP6_HLEN;

	/* pseudo-header: source, destination, length, next header */
	for (size_t i = 8; i < IP6_HLEN; i += 2)
		sum += get16(ip + i);
	sum += (uint32_t)(plen >> 16) + (uint32_t)(plen & 0xffff) + 58;
	for (size_t i = IP6_HLEN; i + 1 < len; i += 2)
		sum += get16(ip + i);
	if ((len - IP6_HLEN) & 1)
		sum += (uint32_t)ip[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static int arp_request(uint8_t *b, const uint8_t mac[6], const uint8_t *sender, const uint8_t *target)
{
	uint8_t *a = b + ETH_HLEN_;

	memset(b, 0, NEIGH_ARP_LEN);
	memset(b, 0xff, 6);
	memcpy(b + 6, mac, 6);
	put16(b + 12, ETHERTYPE_ARP_);
	put16(a, 1);		/* Ethernet */
	put16(a + 2, 0x0800);	/* IPv4 */
	a[4] = 6;
	a[5] = 4;
	put16(a + 6, 1);	/* request */
	memcpy(a + 8, mac, 6);
	memcpy(a + 14, sender, 4);
	/* target hardware address: zero (unknown) */
	memcpy(a + 24, target, 4);
	return NEIGH_ARP_LEN;
}

static int ns_request(uint8_t *b, const uint8_t mac[6], const uint8_t *sender, const uint8_t *target)
{
	uint8_t *ip = b + ETH_HLEN_, *icmp = ip + IP6_HLEN;
	static const uint8_t snm[13] = { 0xff, 0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff };

	memset(b, 0, NEIGH_NS_LEN);
	/* the solicited-node group ff02::1:ffXX:XXXX and its MAC 33:33:ff:XX:XX:XX */
	b[0] = b[1] = 0x33;
	b[2] = 0xff;
	memcpy(b + 3, target + 13, 3);
	memcpy(b + 6, mac, 6);
	put16(b + 12, ETHERTYPE_IPV6_);
	ip[0] = 0x60;
	put16(ip + 4, ND_MSG_LEN + 8);
	ip[6] = 58;		/* ICMPv6 */
	ip[7] = 255;		/* RFC 4861: the receiver checks this */
	memcpy(ip + 8, sender, 16);
	memcpy(ip + 24, snm, 13);
	memcpy(ip + 37, target + 13, 3);
	icmp[0] = ICMP6_NS;
	memcpy(icmp + 8, target, 16);
	icmp[24] = ND_OPT_SLLA;
	icmp[25] = 1;		/* in units of 8 bytes */
	memcpy(icmp + 26, mac, 6);
	put16(icmp + 2, neigh_icmp6_csum(ip, IP6_HLEN + ND_MSG_LEN + 8));
	return NEIGH_NS_LEN;
}

int neigh_request(uint8_t *buf, size_t cap, bool v6, const uint8_t mac[6], const uint8_t *sender,
		  const uint8_t *target)
{
	if (cap < (v6 ? NEIGH_NS_LEN : NEIGH_ARP_LEN))
		return -ENOSPC;
	return v6 ? ns_request(buf, mac, sender, target) : arp_request(buf, mac, sender, target);
}

static int arp_reply(const uint8_t *f, size_t len, const uint8_t *target, uint8_t mac[6])
{
	const uint8_t *a = f + ETH_HLEN_;

	if (len < ETH_HLEN_ + 28 || get16(f + 12) != ETHERTYPE_ARP_)
		return -ENOENT;
	if (get16(a) != 1 || get16(a + 2) != 0x0800 || a[4] != 6 || a[5] != 4 || get16(a + 6) != 2)
		return -ENOENT;
	if (memcmp(a + 14, target, 4) || !unicast_mac(a + 8))
		return -ENOENT;
	memcpy(mac, a + 8, 6);
	return 0;
}

static int na_reply(const uint8_t *f, size_t len, const uint8_t *target, uint8_t mac[6])
{
	const uint8_t *ip = f + ETH_HLEN_, *icmp = ip + IP6_HLEN, *src = f + 6;
	size_t plen, end;

	if (len < ETH_HLEN_ + IP6_HLEN + ND_MSG_LEN || get16(f + 12) != ETHERTYPE_IPV6_)
		return -ENOENT;
	plen = get16(ip + 4);
	/* no extension headers: a Neighbour Advertisement carries none */
	if ((ip[0] >> 4) != 6 || ip[6] != 58 || ip[7] != 255 || plen < ND_MSG_LEN ||
	    ETH_HLEN_ + IP6_HLEN + plen > len)
		return -ENOENT;
	if (icmp[0] != ICMP6_NA || icmp[1] != 0 || memcmp(icmp + 8, target, 16))
		return -ENOENT;
	if (neigh_icmp6_csum(ip, IP6_HLEN + plen) != 0)
		return -ENOENT;
	/* options: type, length in 8-byte units (0 is malformed) */
	end = IP6_HLEN + plen;
	for (size_t o = IP6_HLEN + ND_MSG_LEN; o + 2 <= end;) {
		size_t olen = (size_t)ip[o + 1] * 8;

		if (!olen || o + olen > end)
			return -ENOENT;
		if (ip[o] == ND_OPT_TLLA && olen >= 8) {
			src = ip + o + 2;
			break;
		}
		o += olen;
	}
	if (!unicast_mac(src))
		return -ENOENT;
	memcpy(mac, src, 6);
	return 0;
}

int neigh_reply(const uint8_t *frame, size_t len, bool v6, const uint8_t *target, uint8_t mac[6])
{
	if (!frame)
		return -ENOENT;
	return v6 ? na_reply(frame, len, target, mac) : arp_reply(frame, len, target, mac);
}
