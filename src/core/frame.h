/* Test frames: Ethernet (optionally one 802.1Q tag) + IPv4 or IPv6 + UDP,
 * carrying an 18-byte tag in the UDP payload.
 *
 * The generator builds a frame once per flow (frame_build, frame_set_flow)
 * and then, per frame, rewrites only the tag (frame_tag_write), fixing the UDP
 * checksum incrementally (RFC 1624). The analyzer hands every received byte
 * sequence to frame_parse, which treats it as untrusted.
 *
 * Frame size means the Ethernet frame including its 4-byte FCS (RFC 2544);
 * frame_build writes size - 4 bytes and the NIC or veth adds the FCS.
 *
 * Tag layout (18 bytes, all fields big-endian, starting at the first byte
 * of the UDP payload; a 64-byte IPv4 frame has exactly 18 payload bytes):
 *
 *	offset	size	field
 *	 0	2	magic 0x57 0xB1
 *	 2	2	trial id
 *	 4	2	stream id
 *	 6	6	sequence number (48 bits, wraps at 2^48)
 *	12	4	transmit timestamp: low 32 bits of ns since the trial epoch
 *	16	2	check: a 16-bit hash of bytes 0..15 (frame_tag_check)
 *
 * A random payload passes the magic and the check with probability 2^-32.
 * The check also catches corruption of the tag that a missing UDP checksum
 * would let through.
 *
 * Timestamps: the transmitter writes (tx_ns - epoch) mod 2^32 and the
 * receiver, reading the same clock, computes latency as
 * (rx_ns - epoch - ts) mod 2^32 (frame_tag_latency_ns). That is exact for any
 * latency below 2^32 ns = 4.295 s; a frame delayed longer aliases to
 * latency mod 4.295 s. Frames arriving that late are outside the trial's
 * residual wait (2 s by default) anyway, so the analyzer must stop counting
 * at the end of the wait, not rely on the timestamp to spot them.
 */
#ifndef WR_CORE_FRAME_H
#define WR_CORE_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FRAME_FCS_LEN		4
#define FRAME_TAG_LEN		18
#define FRAME_TAG_MAGIC		0x57B1
#define FRAME_SEQ_MASK		((1ULL << 48) - 1)
/* Sizes with FCS. IPv6 frames of 78..83 bytes can be built (RFC 5180's
 * smallest) but have fewer than FRAME_TAG_LEN payload bytes, so they cannot
 * carry a tag: tagged IPv6 frames start at FRAME_MIN_TAGGED_V6. A VLAN tag
 * adds 4 bytes to every minimum and to the maximum. */
#define FRAME_MIN_V4		64
#define FRAME_MIN_V6		78
#define FRAME_MIN_TAGGED_V6	84
#define FRAME_MAX		9018
#define FRAME_VLAN_LEN		4
#define FRAME_DISCARD_PORT	9

enum frame_family {
	FRAME_IPV4 = 4,
	FRAME_IPV6 = 6,
};

/* What the generator wants on the wire. IPv4 addresses sit in the first 4
 * bytes of src_ip/dst_ip. */
struct frame_spec {
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	enum frame_family family;
	uint8_t src_ip[16];
	uint8_t dst_ip[16];
	uint16_t src_port;
	uint16_t dst_port;
	unsigned int size;	/* Ethernet frame including FCS */
	uint8_t ttl;		/* TTL or hop limit */
	bool vlan;		/* add one 802.1Q tag */
	uint16_t vlan_tci;	/* PCP, DEI and VLAN id, when vlan */
};

/* Where things are in a built or parsed frame, in bytes from its start. */
struct frame_layout {
	uint16_t len;		/* bytes written: size - FCS */
	uint16_t l3_off;	/* 14, or 18 with a VLAN tag */
	uint16_t l4_off;
	uint16_t payload_off;	/* the tag starts here */
	uint16_t payload_len;
	uint8_t family;		/* enum frame_family */
};

struct tag {
	uint16_t trial;
	uint16_t stream;
	uint64_t seq;		/* only the low 48 bits travel */
	uint32_t ts;		/* frame_tag_ts() of the transmit time */
};

/* Why a byte sequence is not a test frame, so the analyzer can count the
 * kinds apart. FRAME_OK means a valid tagged test frame. */
enum frame_verdict {
	FRAME_OK = 0,
	FRAME_TRUNCATED,	/* shorter than its headers or lengths say */
	FRAME_NOT_IP,		/* EtherType not IPv4/IPv6 (ARP, LLDP, QinQ) */
	FRAME_BAD_IP,		/* bad version, header or total length */
	FRAME_BAD_IP_CSUM,	/* IPv4 header checksum wrong */
	FRAME_FRAGMENT,		/* IPv4 fragment: our frames never are */
	FRAME_NOT_UDP,		/* other protocol, or IPv6 extension headers */
	FRAME_BAD_UDP,		/* UDP length inconsistent with IP */
	FRAME_BAD_UDP_CSUM,	/* UDP checksum wrong (or zero on IPv6) */
	FRAME_NO_TAG,		/* payload too short for a tag, or no magic */
	FRAME_BAD_TAG,		/* magic right but check wrong: corrupted */
	FRAME_VERDICTS		/* number of verdicts, for counter arrays */
};

/* Everything frame_parse learned; meaningful only when it returned
 * FRAME_OK. */
struct frame_info {
	struct frame_layout lay;
	uint8_t dst_mac[6];
	uint8_t src_mac[6];
	bool vlan;
	uint16_t vlan_tci;
	uint8_t src_ip[16];	/* IPv4: first 4 bytes, rest zero */
	uint8_t dst_ip[16];
	uint16_t src_port;
	uint16_t dst_port;
	uint8_t ttl;
	struct tag tag;
};

/* Sources of spread for RSS/RPS: flow i uses source port
 * sport_first + i % sport_count and, when saddr_count > 1, the source
 * address's last byte saddr_first + (i / sport_count) % saddr_count.
 * So sport_count * saddr_count flows are distinct. */
struct frame_flows {
	uint16_t sport_first;
	uint16_t sport_count;	/* >= 1 */
	uint8_t saddr_first;
	uint8_t saddr_count;	/* 0 or 1: leave the address alone */
};

/* Defaults: addresses from the ranges reserved for benchmarking (RFC 2544
 * appendix C, 198.18.0.0/15; RFC 5180, 2001:2::/48), so that test traffic
 * can never be taken for a real network's (198.18.0.1 -> 198.19.0.1,
 * 2001:2::1 -> 2001:2::2); locally administered MACs; UDP to the discard
 * port 9; TTL 64; the family's smallest taggable size. The caller then sets
 * what the lab needs. */
void frame_spec_init(struct frame_spec *s, enum frame_family family);

/* Smallest and largest size (with FCS) frame_build accepts for this
 * family and VLAN choice, so the CLI can say the range up front. */
unsigned int frame_size_min(enum frame_family family, bool vlan);
unsigned int frame_size_max(bool vlan);

/* Write the whole frame (size - 4 bytes) into buf once: headers, a zeroed
 * payload, both checksums. lay (may be NULL) says where the tag goes.
 * -EINVAL for a bad family or size, -ENOSPC when len is too small. */
int frame_build(const struct frame_spec *s, uint8_t *buf, size_t len,
		struct frame_layout *lay, char *err, size_t errlen);

/* Check a flow spread before the hot path uses it: counts at least 1 and
 * port/address ranges that do not run past 65535/255. */
int frame_flows_check(const struct frame_flows *f, char *err, size_t errlen);

/* Number of distinct flows the spread gives. */
uint32_t frame_flows_count(const struct frame_flows *f);

/* Turn a built frame into flow i: patch the source port (and the last
 * source address byte) and fix the IPv4 header and UDP checksums
 * incrementally, so a generator can switch flows per frame cheaply. */
void frame_set_flow(uint8_t *buf, const struct frame_layout *lay,
		    const struct frame_flows *f, uint32_t i);

/* The 18 tag bytes for t, and back. frame_tag_decode checks the magic and the
 * check and returns FRAME_OK, FRAME_NO_TAG or FRAME_BAD_TAG. */
void frame_tag_encode(uint8_t out[FRAME_TAG_LEN], const struct tag *t);
enum frame_verdict frame_tag_decode(const uint8_t in[FRAME_TAG_LEN], struct tag *t);

/* The check field's value for tag bytes 0..15. Exposed for tests and the
 * fuzzer, which verify it independently. */
uint16_t frame_tag_check(const uint8_t *tag16);

/* Per-frame hot path: overwrite the tag at payload (= buf +
 * lay.payload_off of a frame from frame_build, with payload_len >=
 * FRAME_TAG_LEN) and fix the UDP checksum, which sits 2 bytes before the
 * payload, incrementally from the old and new tag bytes. */
void frame_tag_write(uint8_t *payload, const struct tag *t);

/* The timestamp the tag carries for a time ns_since_epoch, and the latency
 * recovered on receive (see the header comment for the 4.295 s wrap). */
static inline uint32_t frame_tag_ts(uint64_t ns_since_epoch)
{
	return (uint32_t)ns_since_epoch;
}

static inline uint32_t frame_tag_latency_ns(uint32_t ts, uint64_t rx_ns_since_epoch)
{
	return (uint32_t)rx_ns_since_epoch - ts;
}

/* Decide whether buf[0..len) is a valid tagged test frame and fill out.
 * Any byte sequence is safe: nothing is read outside buf[0..len). Trailing
 * bytes after the IP packet (Ethernet padding, an FCS) are allowed. The
 * IPv4 header checksum is verified, and the UDP checksum when present. */
enum frame_verdict frame_parse(const uint8_t *buf, size_t len,
			       struct frame_info *out);

/* Short fixed name for a verdict ("ok", "truncated", "bad-ip-csum"...). */
const char *frame_verdict_name(enum frame_verdict v);

#endif
