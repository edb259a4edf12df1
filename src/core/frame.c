#include "core/frame.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define ETH_HLEN	14
#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define ETH_P_8021Q	0x8100
#define IP4_HLEN	20
#define IP6_HLEN	40
#define UDP_HLEN	8
#define IPPROTO_UDP_	17

static inline uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static inline void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* One's complement sum of big-endian 16-bit words, accumulated in 64 bits
 * and folded at the end. 32-bit loads are fine: 2^16 = 1 (mod 0xFFFF). */
static uint64_t csum_add(uint64_t acc, const uint8_t *p, size_t n)
{
	for (; n >= 4; p += 4, n -= 4)
		acc += get32(p);
	if (n >= 2) {
		acc += get16(p);
		p += 2;
		n -= 2;
	}
	if (n)
		acc += (uint64_t)p[0] << 8;
	return acc;
}

static uint16_t csum_fold(uint64_t acc)
{
	while (acc >> 16)
		acc = (acc & 0xffff) + (acc >> 16);
	return (uint16_t)acc;
}

/* RFC 1624 eqn. 3, HC' = ~(~HC + ~m + m'), one word at a time. The data
 * sum S is never 0 for our headers (version and protocol are in it), so a
 * folded 0 can only be the other zero, 0xFFFF; mapping it keeps the result
 * bit-identical to a full recompute. */
static uint64_t csum_diff16(uint64_t acc, uint16_t old, uint16_t new)
{
	return acc + (uint16_t)~old + new;
}

static uint16_t csum_finish_diff(uint64_t acc)
{
	uint16_t s = csum_fold(acc);

	return (uint16_t)~(s ? s : 0xffff);
}

/* UDP sends 0xFFFF for a computed 0, since 0 means "no checksum". */
static uint16_t udp_csum_fix(uint16_t c)
{
	return c ? c : 0xffff;
}

static uint64_t pseudo_sum(unsigned int family, const uint8_t *l3, uint16_t udp_len)
{
	uint64_t acc;

	if (family == FRAME_IPV4)
		acc = csum_add(0, l3 + 12, 8);
	else
		acc = csum_add(0, l3 + 8, 32);
	return acc + IPPROTO_UDP_ + udp_len;
}

void frame_spec_init(struct frame_spec *s, enum frame_family family)
{
	static const uint8_t v4s[4] = { 198, 18, 0, 1 };
	static const uint8_t v4d[4] = { 198, 19, 0, 1 };
	static const uint8_t v6s[16] = { 0x20, 0x01, 0, 2, [15] = 1 };
	static const uint8_t v6d[16] = { 0x20, 0x01, 0, 2, [15] = 2 };

	memset(s, 0, sizeof(*s));
	memcpy(s->src_mac, (uint8_t[6]){ 0x02, 0, 0, 0, 0, 1 }, 6);
	memcpy(s->dst_mac, (uint8_t[6]){ 0x02, 0, 0, 0, 0, 2 }, 6);
	s->family = family;
	if (family == FRAME_IPV6) {
		memcpy(s->src_ip, v6s, 16);
		memcpy(s->dst_ip, v6d, 16);
		s->size = FRAME_MIN_TAGGED_V6;
	} else {
		memcpy(s->src_ip, v4s, 4);
		memcpy(s->dst_ip, v4d, 4);
		s->size = FRAME_MIN_V4;
	}
	s->src_port = 49152;
	s->dst_port = FRAME_DISCARD_PORT;
	s->ttl = 64;
}

unsigned int frame_size_min(enum frame_family family, bool vlan)
{
	unsigned int v = vlan ? FRAME_VLAN_LEN : 0;

	return (family == FRAME_IPV6 ? FRAME_MIN_V6 : FRAME_MIN_V4) + v;
}

unsigned int frame_size_max(bool vlan)
{
	return FRAME_MAX + (vlan ? FRAME_VLAN_LEN : 0);
}

int frame_build(const struct frame_spec *s, uint8_t *buf, size_t len,
		struct frame_layout *lay, char *err, size_t errlen)
{
	struct frame_layout l;
	unsigned int min, max, l3len;
	uint8_t *ip, *udp;
	uint16_t c;

	if (s->family != FRAME_IPV4 && s->family != FRAME_IPV6) {
		snprintf(err, errlen, "bad address family %d: must be IPv4 or IPv6", (int)s->family);
		return -EINVAL;
	}
	min = frame_size_min(s->family, s->vlan);
	max = frame_size_max(s->vlan);
	if (s->size < min || s->size > max) {
		snprintf(err, errlen, "frame size %u out of range: IPv%d%s frames are %u..%u bytes with FCS",
			 s->size, (int)s->family, s->vlan ? " with VLAN" : "", min, max);
		return -EINVAL;
	}
	l.len = (uint16_t)(s->size - FRAME_FCS_LEN);
	if (len < l.len) {
		snprintf(err, errlen, "buffer of %zu bytes too small for a %u-byte frame", len, s->size);
		return -ENOSPC;
	}
	l.family = (uint8_t)s->family;
	l.l3_off = ETH_HLEN + (s->vlan ? FRAME_VLAN_LEN : 0);
	l.l4_off = l.l3_off + (s->family == FRAME_IPV4 ? IP4_HLEN : IP6_HLEN);
	l.payload_off = l.l4_off + UDP_HLEN;
	l.payload_len = l.len - l.payload_off;
	l3len = l.len - l.l3_off;

	memset(buf, 0, l.len);
	memcpy(buf, s->dst_mac, 6);
	memcpy(buf + 6, s->src_mac, 6);
	if (s->vlan) {
		put16(buf + 12, ETH_P_8021Q);
		put16(buf + 14, s->vlan_tci);
	}
	put16(buf + l.l3_off - 2, s->family == FRAME_IPV4 ? ETH_P_IP : ETH_P_IPV6);

	ip = buf + l.l3_off;
	if (s->family == FRAME_IPV4) {
		ip[0] = 0x45;
		put16(ip + 2, (uint16_t)l3len);
		put16(ip + 6, 0x4000);	/* DF; id 0 is fine with DF (RFC 6864) */
		ip[8] = s->ttl;
		ip[9] = IPPROTO_UDP_;
		memcpy(ip + 12, s->src_ip, 4);
		memcpy(ip + 16, s->dst_ip, 4);
		put16(ip + 10, (uint16_t)~csum_fold(csum_add(0, ip, IP4_HLEN)));
	} else {
		ip[0] = 0x60;
		put16(ip + 4, (uint16_t)(l3len - IP6_HLEN));
		ip[6] = IPPROTO_UDP_;
		ip[7] = s->ttl;
		memcpy(ip + 8, s->src_ip, 16);
		memcpy(ip + 24, s->dst_ip, 16);
	}
	udp = buf + l.l4_off;
	put16(udp, s->src_port);
	put16(udp + 2, s->dst_port);
	put16(udp + 4, (uint16_t)(l.len - l.l4_off));
	c = (uint16_t)~csum_fold(csum_add(pseudo_sum(s->family, ip, (uint16_t)(l.len - l.l4_off)),
					  udp, l.len - l.l4_off));
	put16(udp + 6, udp_csum_fix(c));
	if (lay)
		*lay = l;
	return 0;
}

int frame_flows_check(const struct frame_flows *f, char *err, size_t errlen)
{
	if (f->sport_count < 1 || f->sport_first < 1 ||
	    (unsigned int)f->sport_first + f->sport_count - 1 > 65535) {
		snprintf(err, errlen, "bad source port range %u+%u: must be 1..65535",
			 f->sport_first, f->sport_count);
		return -EINVAL;
	}
	if (f->saddr_count > 1 && (unsigned int)f->saddr_first + f->saddr_count - 1 > 255) {
		snprintf(err, errlen, "bad source address range: last byte %u+%u runs past 255",
			 f->saddr_first, f->saddr_count);
		return -EINVAL;
	}
	return 0;
}

uint32_t frame_flows_count(const struct frame_flows *f)
{
	uint32_t p = f->sport_count ? f->sport_count : 1;

	return p * (f->saddr_count > 1 ? f->saddr_count : 1);
}

void frame_set_flow(uint8_t *buf, const struct frame_layout *lay,
		    const struct frame_flows *f, uint32_t i)
{
	uint32_t ports = f->sport_count ? f->sport_count : 1;
	uint8_t *ip = buf + lay->l3_off, *udp = buf + lay->l4_off;
	uint16_t port = (uint16_t)(f->sport_first + i % ports);
	uint64_t uacc = (uint16_t)~get16(udp + 6);

	uacc = csum_diff16(uacc, get16(udp), port);
	put16(udp, port);
	if (f->saddr_count > 1) {
		/* The last address byte is the low half of a 16-bit word, in
		 * the IPv4 header and in the UDP pseudo-header alike. */
		uint8_t *w = ip + (lay->family == FRAME_IPV4 ? 14 : 22);
		uint16_t old = get16(w);
		uint16_t new = (uint16_t)((old & 0xff00) | (uint8_t)(f->saddr_first + (i / ports) % f->saddr_count));

		if (lay->family == FRAME_IPV4) {
			uint64_t iacc = (uint16_t)~get16(ip + 10);

			put16(ip + 10, csum_finish_diff(csum_diff16(iacc, old, new)));
		}
		uacc = csum_diff16(uacc, old, new);
		put16(w, new);
	}
	put16(udp + 6, udp_csum_fix(csum_finish_diff(uacc)));
}

uint16_t frame_tag_check(const uint8_t *tag16)
{
	uint64_t a = get_le64(tag16), b = get_le64(tag16 + 8), h;

	/* Multiplying by odd constants makes the top bits depend on every
	 * input bit; the xor-shift mixes the top back in before the last. */
	h = a * 0x9E3779B97F4A7C15ULL ^ b;
	h *= 0xC2B2AE3D27D4EB4FULL;
	h ^= h >> 29;
	h *= 0x165667B19E3779F9ULL;
	return (uint16_t)(h >> 48);
}

void frame_tag_encode(uint8_t out[FRAME_TAG_LEN], const struct tag *t)
{
	uint64_t seq = t->seq & FRAME_SEQ_MASK;

	put16(out, FRAME_TAG_MAGIC);
	put16(out + 2, t->trial);
	put16(out + 4, t->stream);
	for (int i = 0; i < 6; i++)
		out[6 + i] = (uint8_t)(seq >> (40 - 8 * i));
	put16(out + 12, (uint16_t)(t->ts >> 16));
	put16(out + 14, (uint16_t)t->ts);
	put16(out + 16, frame_tag_check(out));
}

enum frame_verdict frame_tag_decode(const uint8_t in[FRAME_TAG_LEN], struct tag *t)
{
	uint64_t seq = 0;

	if (get16(in) != FRAME_TAG_MAGIC)
		return FRAME_NO_TAG;
	if (get16(in + 16) != frame_tag_check(in))
		return FRAME_BAD_TAG;
	for (int i = 0; i < 6; i++)
		seq = seq << 8 | in[6 + i];
	t->trial = get16(in + 2);
	t->stream = get16(in + 4);
	t->seq = seq;
	t->ts = get32(in + 12);
	return FRAME_OK;
}

void frame_tag_write(uint8_t *payload, const struct tag *t)
{
	uint8_t nt[FRAME_TAG_LEN];
	uint64_t acc = (uint16_t)~get16(payload - 2);

	frame_tag_encode(nt, t);
	for (int i = 0; i < FRAME_TAG_LEN; i += 2)
		acc = csum_diff16(acc, get16(payload + i), get16(nt + i));
	memcpy(payload, nt, FRAME_TAG_LEN);
	put16(payload - 2, udp_csum_fix(csum_finish_diff(acc)));
}

/* IPv4 header at ip, avail bytes of it in the buffer. Sets the UDP offset
 * and length of the IP payload. */
static enum frame_verdict parse_ip4(const uint8_t *ip, size_t avail,
				    struct frame_info *out, size_t *l4len)
{
	size_t ihl, tot;

	if (avail < IP4_HLEN)
		return FRAME_TRUNCATED;
	if (ip[0] >> 4 != 4)
		return FRAME_BAD_IP;
	ihl = (size_t)(ip[0] & 0xf) * 4;
	tot = get16(ip + 2);
	if (ihl < IP4_HLEN || tot < ihl)
		return FRAME_BAD_IP;
	if (ihl > avail || tot > avail)
		return FRAME_TRUNCATED;
	if (csum_fold(csum_add(0, ip, ihl)) != 0xffff)
		return FRAME_BAD_IP_CSUM;
	if (get16(ip + 6) & 0x3fff)	/* MF or a fragment offset */
		return FRAME_FRAGMENT;
	if (ip[9] != IPPROTO_UDP_)
		return FRAME_NOT_UDP;
	out->ttl = ip[8];
	memcpy(out->src_ip, ip + 12, 4);
	memcpy(out->dst_ip, ip + 16, 4);
	out->lay.family = FRAME_IPV4;
	out->lay.l4_off = (uint16_t)(out->lay.l3_off + ihl);
	*l4len = tot - ihl;
	return FRAME_OK;
}

static enum frame_verdict parse_ip6(const uint8_t *ip, size_t avail,
				    struct frame_info *out, size_t *l4len)
{
	size_t plen;

	if (avail < IP6_HLEN)
		return FRAME_TRUNCATED;
	if (ip[0] >> 4 != 6)
		return FRAME_BAD_IP;
	plen = get16(ip + 4);
	if (plen > avail - IP6_HLEN)
		return FRAME_TRUNCATED;
	if (ip[6] != IPPROTO_UDP_)
		return FRAME_NOT_UDP;
	out->ttl = ip[7];
	memcpy(out->src_ip, ip + 8, 16);
	memcpy(out->dst_ip, ip + 24, 16);
	out->lay.family = FRAME_IPV6;
	out->lay.l4_off = (uint16_t)(out->lay.l3_off + IP6_HLEN);
	*l4len = plen;
	return FRAME_OK;
}

enum frame_verdict frame_parse(const uint8_t *buf, size_t len,
			       struct frame_info *out)
{
	enum frame_verdict v;
	const uint8_t *udp;
	size_t off = 12, l4len, ulen;
	uint16_t type, ck;

	memset(out, 0, sizeof(*out));
	if (!buf || len < ETH_HLEN)
		return FRAME_TRUNCATED;
	if (len > 0xffff)	/* no jumbo beyond IP's 16-bit lengths */
		len = 0xffff;
	memcpy(out->dst_mac, buf, 6);
	memcpy(out->src_mac, buf + 6, 6);
	type = get16(buf + off);
	if (type == ETH_P_8021Q) {
		if (len < ETH_HLEN + FRAME_VLAN_LEN)
			return FRAME_TRUNCATED;
		out->vlan = true;
		out->vlan_tci = get16(buf + 14);
		off += FRAME_VLAN_LEN;
		type = get16(buf + off);
	}
	off += 2;
	out->lay.l3_off = (uint16_t)off;
	if (type == ETH_P_IP)
		v = parse_ip4(buf + off, len - off, out, &l4len);
	else if (type == ETH_P_IPV6)
		v = parse_ip6(buf + off, len - off, out, &l4len);
	else
		return FRAME_NOT_IP;
	if (v != FRAME_OK)
		return v;

	/* l4_off + l4len <= len: both parsers checked against avail. */
	if (l4len < UDP_HLEN)
		return FRAME_TRUNCATED;
	udp = buf + out->lay.l4_off;
	ulen = get16(udp + 4);
	if (ulen < UDP_HLEN || ulen > l4len)
		return FRAME_BAD_UDP;
	ck = get16(udp + 6);
	if (ck || out->lay.family == FRAME_IPV6) {
		uint64_t acc = pseudo_sum(out->lay.family, buf + out->lay.l3_off, (uint16_t)ulen);

		if (!ck || csum_fold(csum_add(acc, udp, ulen)) != 0xffff)
			return FRAME_BAD_UDP_CSUM;
	}
	out->src_port = get16(udp);
	out->dst_port = get16(udp + 2);
	out->lay.payload_off = (uint16_t)(out->lay.l4_off + UDP_HLEN);
	out->lay.payload_len = (uint16_t)(ulen - UDP_HLEN);
	out->lay.len = (uint16_t)(out->lay.l4_off + ulen);
	if (out->lay.payload_len < FRAME_TAG_LEN)
		return FRAME_NO_TAG;
	return frame_tag_decode(buf + out->lay.payload_off, &out->tag);
}

const char *frame_verdict_name(enum frame_verdict v)
{
	static const char *const names[FRAME_VERDICTS] = {
		[FRAME_OK] = "ok",
		[FRAME_TRUNCATED] = "truncated",
		[FRAME_NOT_IP] = "not-ip",
		[FRAME_BAD_IP] = "bad-ip",
		[FRAME_BAD_IP_CSUM] = "bad-ip-csum",
		[FRAME_FRAGMENT] = "fragment",
		[FRAME_NOT_UDP] = "not-udp",
		[FRAME_BAD_UDP] = "bad-udp",
		[FRAME_BAD_UDP_CSUM] = "bad-udp-csum",
		[FRAME_NO_TAG] = "no-tag",
		[FRAME_BAD_TAG] = "bad-tag",
	};

	if ((unsigned int)v >= FRAME_VERDICTS)
		return "unknown";
	return names[v];
}
