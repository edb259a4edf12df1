/* libFuzzer target for frame_parse: any byte sequence must be handled
 * without reading out of bounds, and whatever it accepts must be
 * consistent. Accepted frames are also fed back through frame_tag_write and
 * frame_set_flow, whose incremental checksums must keep them valid.
 * Build and run with tests/fuzz/run.sh. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/frame.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c) do { if (!(c)) __builtin_trap(); } while (0)

static unsigned int be16(const uint8_t *p)
{
	return (unsigned int)p[0] << 8 | p[1];
}

static void check_info(const uint8_t *d, size_t size, const struct frame_info *fi)
{
	const struct frame_layout *l = &fi->lay;
	uint8_t tag[FRAME_TAG_LEN];

	CHECK(l->family == FRAME_IPV4 || l->family == FRAME_IPV6);
	CHECK(l->l3_off == (fi->vlan ? 18 : 14));
	CHECK(l->l4_off >= l->l3_off + (l->family == FRAME_IPV4 ? 20 : 40));
	CHECK(l->l4_off <= l->l3_off + (l->family == FRAME_IPV4 ? 60 : 40));
	CHECK(l->payload_off == l->l4_off + 8);
	CHECK(l->payload_len >= FRAME_TAG_LEN);
	CHECK((size_t)l->payload_off + l->payload_len == l->len);
	CHECK(l->len <= size);
	CHECK(fi->tag.seq <= FRAME_SEQ_MASK);
	CHECK(fi->src_port == be16(d + l->l4_off));
	CHECK(fi->dst_port == be16(d + l->l4_off + 2));
	CHECK(!memcmp(fi->dst_mac, d, 6) && !memcmp(fi->src_mac, d + 6, 6));
	if (l->family == FRAME_IPV4) {
		CHECK(!memcmp(fi->src_ip, d + l->l3_off + 12, 4));
		for (int i = 4; i < 16; i++)
			CHECK(fi->src_ip[i] == 0 && fi->dst_ip[i] == 0);
	} else {
		CHECK(!memcmp(fi->src_ip, d + l->l3_off + 8, 16));
	}
	/* The tag re-encodes to the very bytes it came from. */
	frame_tag_encode(tag, &fi->tag);
	CHECK(!memcmp(tag, d + l->payload_off, FRAME_TAG_LEN));
	CHECK(frame_tag_check(d + l->payload_off) == be16(d + l->payload_off + 16));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct frame_info fi, fi2;
	struct frame_flows f;
	enum frame_verdict v;
	struct tag t;
	uint8_t *b;

	v = frame_parse(data, size, &fi);
	CHECK((unsigned int)v < FRAME_VERDICTS);
	CHECK(frame_verdict_name(v) != NULL);
	if (v != FRAME_OK)
		return 0;
	check_info(data, size, &fi);

	/* frame_tag_write needs a live UDP checksum (frame_build always sets one). */
	if (!be16(data + fi.lay.l4_off + 6))
		return 0;
	b = malloc(size);
	memcpy(b, data, size);
	t = fi.tag;
	t.seq = (t.seq * 0x9E3779B97F4A7C15ULL + 1) & FRAME_SEQ_MASK;
	t.ts ^= 0xdeadbeef;
	t.stream++;
	frame_tag_write(b + fi.lay.payload_off, &t);
	CHECK(frame_parse(b, size, &fi2) == FRAME_OK);
	check_info(b, size, &fi2);
	CHECK(fi2.tag.seq == t.seq && fi2.tag.ts == t.ts && fi2.tag.stream == t.stream);

	f.sport_first = (uint16_t)(1 + fi.src_port % 60000);
	f.sport_count = (uint16_t)(1 + fi.tag.seq % 1000);
	f.saddr_first = (uint8_t)(fi.tag.ts % 128);
	f.saddr_count = (uint8_t)(fi.tag.trial % 128);
	CHECK(frame_flows_check(&f, NULL, 0) == 0);
	frame_set_flow(b, &fi.lay, &f, fi.tag.ts);
	CHECK(frame_parse(b, size, &fi2) == FRAME_OK);
	check_info(b, size, &fi2);
	CHECK(fi2.src_port == f.sport_first + fi.tag.ts % f.sport_count);
	free(b);
	return 0;
}
