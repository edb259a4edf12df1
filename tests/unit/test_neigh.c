/* Next hop resolution frames (core/neigh.h): the requests byte by byte,
 * and the reply parsers against answers, near misses and every
 * truncation of a good answer. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <string.h>
#include <arpa/inet.h>

#include "core/neigh.h"

static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };
static const uint8_t dut[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };

static void ip4(const char *s, uint8_t a[4])
{
	assert_int_equal(inet_pton(AF_INET, s, a), 1);
}

static void ip6(const char *s, uint8_t a[16])
{
	assert_int_equal(inet_pton(AF_INET6, s, a), 1);
}

static void arp_request_bytes(void **st)
{
	uint8_t f[NEIGH_FRAME_MAX], s[4], t[4], pad[NEIGH_ARP_LEN - 42] = { 0 };

	(void)st;
	ip4("198.18.0.1", s);
	ip4("198.18.0.2", t);
	assert_int_equal(neigh_request(f, sizeof(f), false, mac, s, t), NEIGH_ARP_LEN);
	assert_memory_equal(f, "\xff\xff\xff\xff\xff\xff", 6);
	assert_memory_equal(f + 6, mac, 6);
	assert_memory_equal(f + 12, "\x08\x06\x00\x01\x08\x00\x06\x04\x00\x01", 10);
	assert_memory_equal(f + 22, mac, 6);
	assert_memory_equal(f + 28, s, 4);
	assert_memory_equal(f + 32, "\0\0\0\0\0\0", 6);
	assert_memory_equal(f + 38, t, 4);
	assert_memory_equal(f + 42, pad, sizeof(pad));
	assert_int_equal(neigh_request(f, NEIGH_ARP_LEN - 1, false, mac, s, t), -ENOSPC);
}

static void ns_request_bytes(void **st)
{
	uint8_t f[NEIGH_FRAME_MAX], s[16], t[16], g[16];

	(void)st;
	ip6("2001:2:0:1::1", s);
	ip6("2001:2:0:1::2", t);
	ip6("ff02::1:ff00:2", g);
	assert_int_equal(neigh_request(f, sizeof(f), true, mac, s, t), NEIGH_NS_LEN);
	assert_memory_equal(f, "\x33\x33\xff\x00\x00\x02", 6);
	assert_memory_equal(f + 6, mac, 6);
	assert_memory_equal(f + 12, "\x86\xdd\x60\0\0\0\0\x20\x3a\xff", 10);
	assert_memory_equal(f + 22, s, 16);
	assert_memory_equal(f + 38, g, 16);
	assert_int_equal(f[54], 135);
	assert_int_equal(f[55], 0);
	/* computed apart (Python, RFC 4443 section 2.3) */
	assert_int_equal(f[56] << 8 | f[57], 0x3791);
	assert_memory_equal(f + 62, t, 16);
	assert_memory_equal(f + 78, "\x01\x01", 2);
	assert_memory_equal(f + 80, mac, 6);
	assert_int_equal(neigh_icmp6_csum(f + 14, NEIGH_NS_LEN - 14), 0);
	assert_int_equal(neigh_request(f, NEIGH_NS_LEN - 1, true, mac, s, t), -ENOSPC);
}

/* What a DUT sends back: an ARP reply from target to us. */
static size_t arp_answer(uint8_t *f, const char *from)
{
	uint8_t s[4], t[4];

	ip4(from, s);
	ip4("198.18.0.1", t);
	memset(f, 0, 60);
	memcpy(f, mac, 6);
	memcpy(f + 6, dut, 6);
	memcpy(f + 12, "\x08\x06\x00\x01\x08\x00\x06\x04\x00\x02", 10);
	memcpy(f + 22, dut, 6);
	memcpy(f + 28, s, 4);
	memcpy(f + 32, mac, 6);
	memcpy(f + 38, t, 4);
	return 60;
}

static void arp_replies(void **st)
{
	uint8_t f[64], t[4], m[6];
	size_t n;

	(void)st;
	ip4("198.18.0.2", t);
	n = arp_answer(f, "198.18.0.2");
	assert_int_equal(neigh_reply(f, n, false, t, m), 0);
	assert_memory_equal(m, dut, 6);
	/* 42 bytes is a whole ARP packet; less is not */
	for (size_t k = 0; k < 42; k++)
		assert_int_equal(neigh_reply(f, k, false, t, m), -ENOENT);
	assert_int_equal(neigh_reply(f, 42, false, t, m), 0);
	assert_int_equal(neigh_reply(NULL, 0, false, t, m), -ENOENT);
	n = arp_answer(f, "198.18.0.3");
	assert_int_equal(neigh_reply(f, n, false, t, m), -ENOENT);
	/* a request from the next hop is not its answer */
	n = arp_answer(f, "198.18.0.2");
	f[21] = 1;
	assert_int_equal(neigh_reply(f, n, false, t, m), -ENOENT);
	/* a group or zero MAC is never a DUT port's */
	n = arp_answer(f, "198.18.0.2");
	f[22] |= 1;
	assert_int_equal(neigh_reply(f, n, false, t, m), -ENOENT);
	n = arp_answer(f, "198.18.0.2");
	memset(f + 22, 0, 6);
	assert_int_equal(neigh_reply(f, n, false, t, m), -ENOENT);
	n = arp_answer(f, "198.18.0.2");
	f[13] = 0;
	assert_int_equal(neigh_reply(f, n, false, t, m), -ENOENT);
	/* asked as IPv6: not an answer */
	n = arp_answer(f, "198.18.0.2");
	assert_int_equal(neigh_reply(f, n, true, t, m), -ENOENT);
}

/* A Neighbour Advertisement from target, with the target link-layer
 * address option when tlla (and a nonce-like option before it). */
static size_t na_answer(uint8_t *f, const char *target, bool tlla)
{
	uint8_t t[16], d[16];
	size_t plen = 24 + 8 + (tlla ? 8 : 0);
	uint8_t *ip = f + 14, *icmp = ip + 40;
	uint16_t c;

	ip6(target, t);
	ip6("2001:2:0:1::1", d);
	memset(f, 0, 14 + 40 + plen);
	memcpy(f, mac, 6);
	memcpy(f + 6, dut, 6);
	f[12] = 0x86;
	f[13] = 0xdd;
	ip[0] = 0x60;
	ip[5] = (uint8_t)plen;
	ip[6] = 58;
	ip[7] = 255;
	memcpy(ip + 8, t, 16);
	memcpy(ip + 24, d, 16);
	icmp[0] = 136;
	icmp[4] = 0x60;		/* solicited, override */
	memcpy(icmp + 8, t, 16);
	icmp[24] = 14;		/* an option to skip */
	icmp[25] = 1;
	if (tlla) {
		icmp[32] = 2;
		icmp[33] = 1;
		memcpy(icmp + 34, "\x02\x11\x22\x33\x44\x55", 6);
	}
	c = neigh_icmp6_csum(ip, 40 + plen);
	icmp[2] = (uint8_t)(c >> 8);
	icmp[3] = (uint8_t)c;
	return 14 + 40 + plen;
}

static void na_replies(void **st)
{
	uint8_t f[128], t[16], m[6];
	size_t n;

	(void)st;
	ip6("2001:2:0:1::2", t);
	n = na_answer(f, "2001:2:0:1::2", true);
	assert_int_equal(neigh_reply(f, n, true, t, m), 0);
	assert_memory_equal(m, "\x02\x11\x22\x33\x44\x55", 6);
	for (size_t k = 0; k < n; k++)
		assert_int_equal(neigh_reply(f, k, true, t, m), -ENOENT);
	/* trailing bytes (Ethernet padding) are not the message's */
	assert_int_equal(neigh_reply(f, sizeof(f), true, t, m), 0);
	/* without the option: the frame's source */
	n = na_answer(f, "2001:2:0:1::2", false);
	assert_int_equal(neigh_reply(f, n, true, t, m), 0);
	assert_memory_equal(m, dut, 6);
	/* another target */
	n = na_answer(f, "2001:2:0:1::3", true);
	assert_int_equal(neigh_reply(f, n, true, t, m), -ENOENT);
	/* a checksum off by one bit */
	n = na_answer(f, "2001:2:0:1::2", true);
	f[56] ^= 1;
	assert_int_equal(neigh_reply(f, n, true, t, m), -ENOENT);
	/* routed from elsewhere: hop limit below 255 */
	n = na_answer(f, "2001:2:0:1::2", true);
	f[21] = 254;
	assert_int_equal(neigh_reply(f, n, true, t, m), -ENOENT);
	/* an option of length 0 would loop forever: malformed */
	n = na_answer(f, "2001:2:0:1::2", true);
	f[14 + 40 + 25] = 0;
	assert_int_equal(neigh_reply(f, n, true, t, m), -ENOENT);
	/* an option running past the payload */
	n = na_answer(f, "2001:2:0:1::2", true);
	f[14 + 40 + 33] = 9;
	assert_int_equal(neigh_reply(f, n, true, t, m), -ENOENT);
	/* a payload length beyond the frame */
	n = na_answer(f, "2001:2:0:1::2", true);
	f[19] = 200;
	assert_int_equal(neigh_reply(f, n, true, t, m), -ENOENT);
	/* a solicitation is not an advertisement */
	n = na_answer(f, "2001:2:0:1::2", true);
	f[54] = 135;
	assert_int_equal(neigh_reply(f, n, true, t, m), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(arp_request_bytes),
		cmocka_unit_test(ns_request_bytes),
		cmocka_unit_test(arp_replies),
		cmocka_unit_test(na_replies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
