#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/frame.h"

static char err[256];
static uint64_t rng_state = 0x243F6A8885A308D3ULL;

static uint64_t rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ULL;
}

static unsigned int be16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

/* RFC 1071, the slow obvious way, independent of frame.c. */
static uint16_t ref_csum(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
	uint32_t s = 0;
	uint8_t *all = malloc(an + bn + 1);

	memcpy(all, a, an);
	if (bn)
		memcpy(all + an, b, bn);
	all[an + bn] = 0;
	for (size_t i = 0; i < an + bn; i += 2) {
		s += (uint32_t)all[i] << 8 | all[i + 1];
		s = (s & 0xffff) + (s >> 16);
	}
	free(all);
	return (uint16_t)~s;
}

static uint16_t ref_ip_csum(const uint8_t *ip)
{
	uint8_t h[60];
	size_t n = (size_t)(ip[0] & 0xf) * 4;

	memcpy(h, ip, n);
	h[10] = h[11] = 0;
	return ref_csum(h, n, NULL, 0);
}

/* UDP checksum over pseudo-header + UDP header (checksum zeroed) + data,
 * with 0 sent as 0xFFFF. */
static uint16_t ref_udp_csum(const uint8_t *buf, const struct frame_layout *l)
{
	const uint8_t *ip = buf + l->l3_off, *udp = buf + l->l4_off;
	unsigned int ulen = be16(udp + 4);
	uint8_t ph[40], *u = malloc(ulen);
	size_t pn;
	uint16_t c;

	if (l->family == FRAME_IPV4) {
		memcpy(ph, ip + 12, 8);
		ph[8] = 0;
		ph[9] = 17;
		ph[10] = (uint8_t)(ulen >> 8);
		ph[11] = (uint8_t)ulen;
		pn = 12;
	} else {
		memcpy(ph, ip + 8, 32);
		ph[32] = ph[33] = 0;
		ph[34] = (uint8_t)(ulen >> 8);
		ph[35] = (uint8_t)ulen;
		ph[36] = ph[37] = ph[38] = 0;
		ph[39] = 17;
		pn = 40;
	}
	memcpy(u, udp, ulen);
	u[6] = u[7] = 0;
	c = ref_csum(ph, pn, u, ulen);
	free(u);
	return c ? c : 0xffff;
}

static void fix_ip_csum(uint8_t *buf, const struct frame_layout *l)
{
	uint16_t c;

	if (l->family != FRAME_IPV4)
		return;
	c = ref_ip_csum(buf + l->l3_off);
	buf[l->l3_off + 10] = (uint8_t)(c >> 8);
	buf[l->l3_off + 11] = (uint8_t)c;
}

static void fix_udp_csum(uint8_t *buf, const struct frame_layout *l)
{
	uint16_t c = ref_udp_csum(buf, l);

	buf[l->l4_off + 6] = (uint8_t)(c >> 8);
	buf[l->l4_off + 7] = (uint8_t)c;
}

static void check_csums(const uint8_t *buf, const struct frame_layout *l)
{
	if (l->family == FRAME_IPV4)
		assert_int_equal(be16(buf + l->l3_off + 10), ref_ip_csum(buf + l->l3_off));
	assert_int_equal(be16(buf + l->l4_off + 6), ref_udp_csum(buf, l));
}

static struct tag rnd_tag(void)
{
	struct tag t;

	t.trial = (uint16_t)rnd();
	t.stream = (uint16_t)rnd();
	t.seq = rnd() & FRAME_SEQ_MASK;
	t.ts = (uint32_t)rnd();
	return t;
}

/* A built, tagged frame of the given kind. */
static void make(uint8_t *buf, struct frame_layout *l, enum frame_family fam,
		 unsigned int size, bool vlan)
{
	struct frame_spec s;
	struct tag t = { 7, 3, 12345, 99 };

	frame_spec_init(&s, fam);
	s.size = size;
	s.vlan = vlan;
	s.vlan_tci = 0x2064;
	assert_int_equal(frame_build(&s, buf, 9100, l, err, sizeof(err)), 0);
	frame_tag_write(buf + l->payload_off, &t);
}

static void sizes_v4(void **st)
{
	static const unsigned int sizes[] = { 64, 65, 128, 1518, 9018 };
	uint8_t buf[9100];
	struct frame_layout l;
	struct frame_spec s;
	struct frame_info fi;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		frame_spec_init(&s, FRAME_IPV4);
		s.size = sizes[i];
		s.ttl = 17;
		memset(buf, 0xee, sizeof(buf));
		assert_int_equal(frame_build(&s, buf, sizeof(buf), &l, err, sizeof(err)), 0);
		assert_int_equal(l.len, sizes[i] - 4);
		assert_int_equal(buf[l.len], 0xee);	/* nothing past the frame */
		assert_int_equal(be16(buf + 12), 0x0800);
		assert_int_equal(l.l3_off, 14);
		assert_int_equal(l.l4_off, 34);
		assert_int_equal(l.payload_off, 42);
		assert_int_equal(l.payload_len, sizes[i] - 4 - 42);
		assert_int_equal(buf[14], 0x45);
		assert_int_equal(be16(buf + 16), sizes[i] - 4 - 14);
		assert_int_equal(buf[22], 17);
		assert_int_equal(buf[23], 17);
		assert_int_equal(be16(buf + 34 + 2), 9);
		assert_int_equal(be16(buf + 34 + 4), sizes[i] - 4 - 34);
		assert_int_equal(buf[26], 198);
		assert_int_equal(buf[27], 18);
		assert_int_equal(buf[30], 198);
		assert_int_equal(buf[31], 19);
		check_csums(buf, &l);
		/* Untagged as built; tagged after frame_tag_write. */
		assert_int_equal(frame_parse(buf, l.len, &fi), FRAME_NO_TAG);
		struct tag t = rnd_tag();

		frame_tag_write(buf + l.payload_off, &t);
		check_csums(buf, &l);
		assert_int_equal(frame_parse(buf, l.len, &fi), FRAME_OK);
		assert_int_equal(fi.lay.family, FRAME_IPV4);
		assert_int_equal(fi.ttl, 17);
		assert_int_equal(fi.src_port, 49152);
		assert_int_equal(fi.dst_port, 9);
		assert_memory_equal(fi.src_ip, s.src_ip, 16);
		assert_memory_equal(fi.dst_ip, s.dst_ip, 16);
		assert_memory_equal(fi.src_mac, s.src_mac, 6);
		assert_memory_equal(fi.dst_mac, s.dst_mac, 6);
		assert_false(fi.vlan);
		assert_int_equal(fi.lay.payload_off, 42);
		assert_int_equal(fi.lay.payload_len, l.payload_len);
		assert_int_equal(fi.tag.seq, t.seq);
		assert_int_equal(fi.tag.ts, t.ts);
		/* With the FCS (or padding) still on. */
		assert_int_equal(frame_parse(buf, l.len + 4, &fi), FRAME_OK);
	}
}

static void sizes_v6_vlan(void **st)
{
	static const unsigned int sizes[] = { 78, 83, 84, 85, 128, 1518, 9018 };
	uint8_t buf[9100];
	struct frame_layout l;
	struct frame_spec s;
	struct frame_info fi;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		frame_spec_init(&s, FRAME_IPV6);
		s.size = sizes[i];
		assert_int_equal(frame_build(&s, buf, sizeof(buf), &l, err, sizeof(err)), 0);
		assert_int_equal(l.len, sizes[i] - 4);
		assert_int_equal(be16(buf + 12), 0x86dd);
		assert_int_equal(buf[14] >> 4, 6);
		assert_int_equal(be16(buf + 18), sizes[i] - 4 - 54);
		assert_int_equal(buf[20], 17);
		assert_int_equal(buf[21], 64);
		assert_int_equal(l.payload_off, 62);
		assert_int_equal(be16(buf + 54 + 4), sizes[i] - 4 - 54);
		check_csums(buf, &l);
		if (sizes[i] < FRAME_MIN_TAGGED_V6) {
			assert_true(l.payload_len < FRAME_TAG_LEN);
			assert_int_equal(frame_parse(buf, l.len, &fi), FRAME_NO_TAG);
			continue;
		}
		struct tag t = rnd_tag();

		frame_tag_write(buf + l.payload_off, &t);
		check_csums(buf, &l);
		assert_int_equal(frame_parse(buf, l.len, &fi), FRAME_OK);
		assert_int_equal(fi.lay.family, FRAME_IPV6);
		assert_memory_equal(fi.src_ip, s.src_ip, 16);
		assert_int_equal(fi.tag.stream, t.stream);
	}
	/* One 802.1Q tag, both families. */
	for (int fam = 4; fam <= 6; fam += 2) {
		frame_spec_init(&s, (enum frame_family)fam);
		s.vlan = true;
		s.vlan_tci = 0xa00 | 42;
		s.size = frame_size_min((enum frame_family)fam, true) + (fam == 6 ? 6 : 0);
		assert_int_equal(frame_build(&s, buf, sizeof(buf), &l, err, sizeof(err)), 0);
		assert_int_equal(be16(buf + 12), 0x8100);
		assert_int_equal(be16(buf + 14), 0xa2a);
		assert_int_equal(l.l3_off, 18);
		assert_true(l.payload_len >= FRAME_TAG_LEN);
		struct tag t = rnd_tag();

		frame_tag_write(buf + l.payload_off, &t);
		check_csums(buf, &l);
		assert_int_equal(frame_parse(buf, l.len, &fi), FRAME_OK);
		assert_true(fi.vlan);
		assert_int_equal(fi.vlan_tci, 0xa2a);
		assert_int_equal(fi.lay.family, fam);
		assert_int_equal(fi.tag.trial, t.trial);
		s.size = frame_size_max(true);
		assert_int_equal(frame_build(&s, buf, sizeof(buf), &l, err, sizeof(err)), 0);
		assert_int_equal(l.len, 9018);
	}
}

static void build_bad(void **st)
{
	uint8_t buf[9100];
	struct frame_spec s;

	frame_spec_init(&s, FRAME_IPV4);
	s.size = 63;
	assert_int_equal(frame_build(&s, buf, sizeof(buf), NULL, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "64..9018"));
	s.size = 9019;
	assert_int_equal(frame_build(&s, buf, sizeof(buf), NULL, err, sizeof(err)), -EINVAL);
	s.size = 64;
	s.vlan = true;
	assert_int_equal(frame_build(&s, buf, sizeof(buf), NULL, err, sizeof(err)), -EINVAL);
	s.vlan = false;
	assert_int_equal(frame_build(&s, buf, 59, NULL, err, sizeof(err)), -ENOSPC);
	assert_int_equal(frame_build(&s, buf, 60, NULL, err, sizeof(err)), 0);
	frame_spec_init(&s, FRAME_IPV6);
	s.size = 77;
	assert_int_equal(frame_build(&s, buf, sizeof(buf), NULL, err, sizeof(err)), -EINVAL);
	s.family = (enum frame_family)5;
	assert_int_equal(frame_build(&s, buf, sizeof(buf), NULL, err, sizeof(err)), -EINVAL);
	assert_true(strlen(err) > 10);
}

static void tag_roundtrip(void **st)
{
	uint8_t b[FRAME_TAG_LEN];
	struct tag t, u;
	int missed = 0;

	for (int i = 0; i < 20000; i++) {
		t = rnd_tag();
		frame_tag_encode(b, &t);
		assert_int_equal(b[0], 0x57);
		assert_int_equal(b[1], 0xb1);
		assert_int_equal(be16(b + 2), t.trial);
		assert_int_equal(be16(b + 4), t.stream);
		assert_int_equal(be16(b + 16), frame_tag_check(b));
		assert_int_equal(frame_tag_decode(b, &u), FRAME_OK);
		assert_int_equal(u.trial, t.trial);
		assert_int_equal(u.stream, t.stream);
		assert_int_equal(u.seq, t.seq);
		assert_int_equal(u.ts, t.ts);
		/* A bit flip outside the magic is caught by the 16-bit check
		 * but for about 1 in 65536. */
		int bit = (int)(16 + rnd() % (FRAME_TAG_LEN * 8 - 16));

		b[bit / 8] ^= (uint8_t)(1 << (bit % 8));
		missed += frame_tag_decode(b, &u) != FRAME_BAD_TAG;
		b[0] ^= 0x80;
		assert_int_equal(frame_tag_decode(b, &u), FRAME_NO_TAG);
	}
	assert_true(missed <= 2);
	/* Only 48 bits travel. */
	t = (struct tag){ 1, 2, 0xABCD123456789AULL, 5 };
	frame_tag_encode(b, &t);
	assert_int_equal(frame_tag_decode(b, &u), FRAME_OK);
	assert_int_equal(u.seq, 0x123456789AULL | (0xCDULL << 40));
	/* Latency across the 32-bit timestamp wrap. */
	assert_int_equal(frame_tag_latency_ns(frame_tag_ts((1ULL << 32) - 10), (1ULL << 32) + 5), 15);
	assert_int_equal(frame_tag_latency_ns(frame_tag_ts(5ULL << 32 | 100), 5ULL << 32 | 1100), 1000);
}

/* frame_tag_write's incremental checksum must equal a full recompute, bit for
 * bit, including the 0 -> 0xFFFF case. */
static void tag_write_csum(void **st)
{
	static const unsigned int sizes[] = { 64, 65, 67, 129 };
	uint8_t buf[9100];
	struct frame_layout l;
	struct frame_spec s;
	int ffff = 0;

	for (int fam = 4; fam <= 6; fam += 2) {
		for (size_t i = 0; i < 4; i++) {
			frame_spec_init(&s, (enum frame_family)fam);
			s.size = sizes[i] + (fam == 6 ? 20 : 0);
			assert_int_equal(frame_build(&s, buf, sizeof(buf), &l, err, sizeof(err)), 0);
			for (int k = 0; k < 3000; k++) {
				struct tag t = rnd_tag();

				frame_tag_write(buf + l.payload_off, &t);
				check_csums(buf, &l);
			}
		}
	}
	/* Hunt for a tag whose checksum computes to 0 (sent as 0xFFFF), then
	 * move away from it and back: about 1 in 65536 tags. */
	frame_spec_init(&s, FRAME_IPV4);
	assert_int_equal(frame_build(&s, buf, sizeof(buf), &l, err, sizeof(err)), 0);
	for (int k = 0; k < 4000000 && ffff < 3; k++) {
		struct tag t = rnd_tag();

		frame_tag_write(buf + l.payload_off, &t);
		if (be16(buf + l.l4_off + 6) == 0xffff) {
			check_csums(buf, &l);
			t = rnd_tag();
			frame_tag_write(buf + l.payload_off, &t);
			check_csums(buf, &l);
			ffff++;
		}
		assert_int_not_equal(be16(buf + l.l4_off + 6), 0);
	}
	assert_int_equal(ffff, 3);
}

static void flows(void **st)
{
	uint8_t buf[9100];
	struct frame_layout l;
	struct frame_spec s;
	struct frame_info fi;
	struct frame_flows f = { 1000, 16, 10, 4 };
	unsigned int seen[64] = { 0 };

	assert_int_equal(frame_flows_check(&f, err, sizeof(err)), 0);
	assert_int_equal(frame_flows_count(&f), 64);
	for (int fam = 4; fam <= 6; fam += 2) {
		make(buf, &l, (enum frame_family)fam, fam == 4 ? 64 : 130, false);
		for (uint32_t i = 0; i < 200; i++) {
			frame_set_flow(buf, &l, &f, i);
			check_csums(buf, &l);
			assert_int_equal(frame_parse(buf, l.len, &fi), FRAME_OK);
			assert_int_equal(fi.src_port, 1000 + i % 16);
			assert_int_equal(fi.src_ip[fam == 4 ? 3 : 15], 10 + (i / 16) % 4);
			assert_int_equal(fi.dst_port, 9);
			if (fam == 4)
				seen[(fi.src_port - 1000) * 4 + fi.src_ip[3] - 10]++;
		}
	}
	for (int i = 0; i < 64; i++)
		assert_true(seen[i] >= 3);
	/* Ports only, and many random specs: incremental equals full. */
	for (int k = 0; k < 20000; k++) {
		frame_spec_init(&s, k & 1 ? FRAME_IPV6 : FRAME_IPV4);
		for (int j = 0; j < 16; j++)
			s.src_ip[j] = (uint8_t)rnd();
		s.ttl = (uint8_t)rnd();
		s.size = 90 + (unsigned int)(rnd() % 100);
		assert_int_equal(frame_build(&s, buf, sizeof(buf), &l, err, sizeof(err)), 0);
		f = (struct frame_flows){ (uint16_t)(1 + rnd() % 60000), (uint16_t)(1 + rnd() % 1000),
					  (uint8_t)(rnd() % 128), (uint8_t)(rnd() % 128) };
		assert_int_equal(frame_flows_check(&f, err, sizeof(err)), 0);
		frame_set_flow(buf, &l, &f, (uint32_t)rnd());
		check_csums(buf, &l);
	}
	f = (struct frame_flows){ 65530, 7, 0, 0 };
	assert_int_equal(frame_flows_check(&f, err, sizeof(err)), -EINVAL);
	f = (struct frame_flows){ 1, 0, 0, 0 };
	assert_int_equal(frame_flows_check(&f, err, sizeof(err)), -EINVAL);
	f = (struct frame_flows){ 0, 1, 0, 0 };
	assert_int_equal(frame_flows_check(&f, err, sizeof(err)), -EINVAL);
	f = (struct frame_flows){ 1, 1, 250, 7 };
	assert_int_equal(frame_flows_check(&f, err, sizeof(err)), -EINVAL);
	f = (struct frame_flows){ 65535, 1, 250, 6 };
	assert_int_equal(frame_flows_check(&f, err, sizeof(err)), 0);
}

/* Each corruption of a valid frame gives its own verdict. */
static void parse_rejects(void **st)
{
	uint8_t good[9100], b[9100];
	struct frame_layout l;
	struct frame_info fi;
	const size_t ip = 14, udp = 34;

	make(good, &l, FRAME_IPV4, 128, false);
	assert_int_equal(frame_parse(good, l.len, &fi), FRAME_OK);

#define FRESH() memcpy(b, good, l.len)
	FRESH();
	assert_int_equal(frame_parse(b, 13, &fi), FRAME_TRUNCATED);
	assert_int_equal(frame_parse(b, 30, &fi), FRAME_TRUNCATED);
	assert_int_equal(frame_parse(b, l.len - 1, &fi), FRAME_TRUNCATED);
	assert_int_equal(frame_parse(NULL, 100, &fi), FRAME_TRUNCATED);
	b[12] = 0x08, b[13] = 0x06;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_NOT_IP);
	b[12] = 0x88, b[13] = 0xa8;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_NOT_IP);
	FRESH();
	b[ip] = 0x55;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_IP);
	b[ip] = 0x44;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_IP);
	FRESH();
	b[ip + 2] = 0, b[ip + 3] = 19;	/* total length < header */
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_IP);
	FRESH();
	b[ip + 2] = 0x10;		/* total length beyond the buffer */
	fix_ip_csum(b, &l);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_TRUNCATED);
	FRESH();
	b[ip + 15] ^= 1;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_IP_CSUM);
	FRESH();
	b[ip + 10] ^= 0x40;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_IP_CSUM);
	FRESH();
	b[ip + 6] |= 0x20;		/* MF */
	fix_ip_csum(b, &l);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_FRAGMENT);
	FRESH();
	b[ip + 7] = 8;			/* fragment offset */
	fix_ip_csum(b, &l);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_FRAGMENT);
	FRESH();
	b[ip + 9] = 6;
	fix_ip_csum(b, &l);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_NOT_UDP);
	FRESH();
	b[udp + 4] = 0, b[udp + 5] = 7;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_UDP);
	b[udp + 4] = 0, b[udp + 5] = (uint8_t)(l.len - udp + 1);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_UDP);
	FRESH();
	b[l.len - 1] ^= 0x10;		/* payload after the tag */
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_UDP_CSUM);
	FRESH();
	b[l.payload_off] = 0x58;	/* magic */
	fix_udp_csum(b, &l);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_NO_TAG);
	FRESH();
	b[l.payload_off + 9] ^= 4;	/* sequence number */
	fix_udp_csum(b, &l);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_TAG);
	/* IPv4 without UDP checksum: the tag check still guards. */
	b[udp + 6] = b[udp + 7] = 0;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_TAG);
	FRESH();
	b[udp + 6] = b[udp + 7] = 0;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_OK);
	/* UDP shorter than the IP payload: parse by the UDP length. */
	FRESH();
	b[udp + 4] = 0, b[udp + 5] = 8 + 17;
	fix_udp_csum(b, &l);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_NO_TAG);
	b[udp + 5] = 8 + 18;
	fix_udp_csum(b, &l);
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_OK);
	assert_int_equal(fi.lay.payload_len, 18);
	/* IPv4 options are skipped. */
	{
		uint8_t o[200];

		memcpy(o, good, 34);
		memset(o + 34, 1, 4);		/* four NOP options */
		memcpy(o + 38, good + 34, l.len - 34);
		o[ip] = 0x46;
		o[ip + 2] = 0, o[ip + 3] = (uint8_t)(l.len + 4 - 14);
		struct frame_layout lo = l;

		lo.l4_off += 4;
		lo.payload_off += 4;
		fix_ip_csum(o, &lo);
		assert_int_equal(frame_parse(o, l.len + 4u, &fi), FRAME_OK);
		assert_int_equal(fi.lay.payload_off, 46);
	}

	/* IPv6 */
	make(good, &l, FRAME_IPV6, 100, false);
	assert_int_equal(frame_parse(good, l.len, &fi), FRAME_OK);
	FRESH();
	b[54 + 6] = b[54 + 7] = 0;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_UDP_CSUM);
	FRESH();
	b[20] = 0;			/* hop-by-hop extension header */
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_NOT_UDP);
	FRESH();
	b[18] = 0x10;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_TRUNCATED);
	FRESH();
	b[14] = 0x40;
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_IP);
	FRESH();
	b[22 + 15] ^= 1;		/* source address: pseudo-header */
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_BAD_UDP_CSUM);
	assert_int_equal(frame_parse(b, 50, &fi), FRAME_TRUNCATED);

	/* VLAN */
	make(good, &l, FRAME_IPV4, 68, true);
	assert_int_equal(frame_parse(good, l.len, &fi), FRAME_OK);
	assert_int_equal(frame_parse(good, 16, &fi), FRAME_TRUNCATED);
	assert_int_equal(frame_parse(good, 17, &fi), FRAME_TRUNCATED);
	FRESH();
	b[16] = 0x81, b[17] = 0x00;	/* a second VLAN tag: not supported */
	assert_int_equal(frame_parse(b, l.len, &fi), FRAME_NOT_IP);
#undef FRESH
}

/* Every truncation of valid frames, each in an exactly sized heap buffer
 * so the sanitizer sees any read past the end. */
static void parse_truncations(void **st)
{
	uint8_t good[9100];
	struct frame_layout l;
	struct frame_info fi;
	static const struct {
		int fam;
		unsigned int size;
		bool vlan;
	} kinds[] = { { 4, 64, false }, { 6, 84, false }, { 4, 72, true }, { 6, 200, true } };

	for (size_t k = 0; k < 4; k++) {
		make(good, &l, (enum frame_family)kinds[k].fam, kinds[k].size, kinds[k].vlan);
		for (size_t n = 0; n <= l.len; n++) {
			uint8_t *p = malloc(n ? n : 1);

			memcpy(p, good, n);
			assert_int_equal(frame_parse(p, n, &fi) == FRAME_OK, n == l.len);
			free(p);
		}
	}
}

/* Random bytes, and random payloads behind valid headers, are not test
 * frames. */
static void parse_random(void **st)
{
	uint8_t b[300], good[9100];
	struct frame_layout l;
	struct frame_info fi;
	unsigned int counts[FRAME_VERDICTS] = { 0 };

	for (int i = 0; i < 200000; i++) {
		size_t n = rnd() % sizeof(b);

		for (size_t j = 0; j < n; j++)
			b[j] = (uint8_t)rnd();
		if (i & 1) {	/* make more of them get deep into the parser */
			b[12] = 0x08, b[13] = 0;
		}
		enum frame_verdict v = frame_parse(b, n, &fi);

		assert_int_not_equal(v, FRAME_OK);
		assert_true(v < FRAME_VERDICTS);
		counts[v]++;
	}
	assert_true(counts[FRAME_TRUNCATED] > 0);
	assert_true(counts[FRAME_NOT_IP] > 0);
	assert_true(counts[FRAME_BAD_IP] > 0);
	make(good, &l, FRAME_IPV4, 64, false);
	for (int i = 0; i < 100000; i++) {
		for (int j = 0; j < FRAME_TAG_LEN; j++)
			good[l.payload_off + j] = (uint8_t)rnd();
		if (i & 1)
			good[l.payload_off] = 0x57, good[l.payload_off + 1] = 0xb1;
		fix_udp_csum(good, &l);
		enum frame_verdict v = frame_parse(good, l.len, &fi);

		assert_true(v == FRAME_NO_TAG || v == FRAME_BAD_TAG);
		if (i & 1)
			assert_int_equal(v, FRAME_BAD_TAG);
	}
}

static void verdict_names(void **st)
{
	for (int i = 0; i < FRAME_VERDICTS; i++) {
		const char *n = frame_verdict_name((enum frame_verdict)i);

		assert_non_null(n);
		assert_string_not_equal(n, "unknown");
		for (int j = 0; j < i; j++)
			assert_string_not_equal(n, frame_verdict_name((enum frame_verdict)j));
	}
	assert_string_equal(frame_verdict_name(FRAME_VERDICTS), "unknown");
	assert_string_equal(frame_verdict_name(FRAME_OK), "ok");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_v4),	    cmocka_unit_test(sizes_v6_vlan),
		cmocka_unit_test(build_bad),	    cmocka_unit_test(tag_roundtrip),
		cmocka_unit_test(tag_write_csum),   cmocka_unit_test(flows),
		cmocka_unit_test(parse_rejects),    cmocka_unit_test(parse_truncations),
		cmocka_unit_test(parse_random),	    cmocka_unit_test(verdict_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
