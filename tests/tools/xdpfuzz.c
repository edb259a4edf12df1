/* Differential fuzz of the XDP analyzer (src/io/bpf/count.bpf.c) against
 * the user-space parser (frame_parse): valid tagged frames, their random
 * mutations and truncations, and random bytes go through the program with
 * BPF_PROG_RUN (attached nowhere). For every frame:
 *   - exactly one verdict counter moves, and the verdict is XDP_PASS exactly when
 *     the frame was not taken as carrying a tag;
 *   - a frame frame_parse accepts as a valid test frame is counted as one:
 *     of the trial's streams, as a first copy or a duplicate exactly as a
 *     shadow bitmap per stream says; of another stream, as stale;
 *   - a frame the program counts as a test frame carries a valid tag
 *     (frame_tag_decode) right after a UDP header.
 * The analyzer is armed for three streams (0, 2, 4: three generator
 * threads of direction 0); frames also come on streams 1 and 6, which are
 * not the trial's.
 * Usage: xdpfuzz ITERATIONS SEED. Prints one JSON line; exit 0 when every
 * check held, 1 with the first failing frame in hex, 2 on bad usage,
 * 77 when BPF programs cannot run here. Bounded: at most 60 s. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <linux/bpf.h>

#include "core/frame.h"
#include "io/bpf/bpf_shared.h"
#include "io/xdpcount.h"

#define NFRAMES 4096	/* sequence numbers the analyzer is set up for, all streams */
#define NSTREAMS 3	/* the trial's streams: 0, 2 and 4 */
#define PER_STREAM ((NFRAMES + NSTREAMS - 1) / NSTREAMS)

static uint64_t rng = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void dump(const char *why, const uint8_t *f, uint32_t len, const uint64_t *d)
{
	fprintf(stderr, "xdpfuzz: %s; frame (%u bytes):", why, len);
	for (uint32_t i = 0; i < len; i++)
		fprintf(stderr, "%s%02x", i % 32 ? "" : "\n  ", f[i]);
	fprintf(stderr, "\n  counter deltas:");
	for (int i = 0; i < XC_LAT_MIN; i++)
		fprintf(stderr, " %llu", (unsigned long long)d[i]);
	fprintf(stderr, "\n");
}

/* A valid test frame of the armed trial: IPv4 or IPv6, maybe a VLAN tag. */
static uint32_t valid_frame(uint8_t *buf, size_t cap, uint64_t seq)
{
	struct frame_spec s;
	struct frame_layout lay;
	static const uint16_t streams[] = { 0, 2, 4, 0, 2, 4, 1, 6 };
	struct tag t = { .trial = 7, .stream = streams[rnd() % 8], .seq = seq, .ts = (uint32_t)rnd() };
	enum frame_family fam = rnd() & 1 ? FRAME_IPV6 : FRAME_IPV4;
	char err[128];

	frame_spec_init(&s, fam);
	s.vlan = (rnd() % 4) == 0;
	s.size = frame_size_min(fam, s.vlan) + (unsigned int)(rnd() % 200);
	if (frame_build(&s, buf, cap, &lay, err, sizeof(err)))
		return 0;
	frame_tag_write(buf + lay.payload_off, &t);
	return lay.len;
}

int main(int argc, char **argv)
{
	struct xdpcount_cfg cfg = { .ifname = NULL, .nsfd = -1, .frames = NFRAMES, .streams = NSTREAMS, .cpu = -1 };
	struct xdpcount_arm arm = { .trial = 7, .learn_trial = 7 ^ 0x8000, .stream = 0,
				    .epoch_ns = 0, .deadline_ns = UINT64_MAX / 4 };
	static uint8_t frame[2048], orig[2048], seen[NSTREAMS][PER_STREAM];
	uint64_t before[XC_NCOUNTERS], after[XC_NCOUNTERS], d[XC_NCOUNTERS];
	uint64_t counted = 0, passed = 0, parse_ok = 0;
	char err[256];
	struct xdpcount *x;
	long iters;
	time_t end = time(NULL) + 60;

	if (argc != 3 || (iters = atol(argv[1])) < 1 || iters > 10000000) {
		fprintf(stderr, "usage: xdpfuzz ITERATIONS(1..10000000) SEED\n");
		return 2;
	}
	rng ^= strtoull(argv[2], NULL, 0) * 0x9E3779B97F4A7C15ULL;
	if (!(x = xdpcount_open(&cfg, err, sizeof(err)))) {
		fprintf(stderr, "xdpfuzz: %s\n", err);
		return 77;
	}
	xdpcount_set(x, &arm);
	if (xdpcount_counters(x, before, XC_NCOUNTERS)) {
		fprintf(stderr, "xdpfuzz: cannot read the counters\n");
		return 77;
	}
	for (long it = 0; it < iters && time(NULL) < end; it++) {
		uint32_t len = 0, action;
		int kind = (int)(rnd() % 8), hits = 0, accepted;
		struct frame_info fi;
		enum frame_verdict v;

		if (kind == 0) {		/* random bytes, random length */
			len = 14 + (uint32_t)(rnd() % 200);
			for (uint32_t i = 0; i < len; i++)
				frame[i] = (uint8_t)rnd();
		} else {
			len = valid_frame(orig, sizeof(orig), rnd() % (PER_STREAM + 64));
			memcpy(frame, orig, len);
			if (kind >= 3) {	/* flip bytes */
				for (int k = 1 + (int)(rnd() % 3); k > 0; k--)
					frame[rnd() % len] ^= (uint8_t)(1 + rnd() % 255);
			}
			if (kind == 2)		/* cut short */
				len = 14 + (uint32_t)(rnd() % (len - 14));
		}
		if (len < 14)
			len = 14;
		v = frame_parse(frame, len, &fi);
		if (xdpcount_feed(x, frame, len, &action)) {
			fprintf(stderr, "xdpfuzz: BPF_PROG_RUN: %s\n", strerror(errno));
			return 77;
		}
		xdpcount_counters(x, after, XC_NCOUNTERS);
		for (int i = 0; i < XC_LAT_MIN; i++) {
			d[i] = after[i] - before[i];
			/* reordered qualifies a first copy; it is not a verdict */
			if (i != XC_REORDERED)
				hits += (int)d[i];
		}
		memcpy(before, after, sizeof(before));
		accepted = d[XC_DISTINCT] || d[XC_DUPLICATE] || d[XC_STALE] || d[XC_LEARNING] || d[XC_LATE];
		if (hits != 1) {
			dump("not exactly one counter moved", frame, len, d);
			return 1;
		}
		if ((action == XDP_PASS) != (d[XC_NO_TAG] == 1) || (action != XDP_PASS && action != XDP_DROP)) {
			dump("verdict does not match the counter", frame, len, d);
			return 1;
		}
		if (v == FRAME_OK) {
			parse_ok++;
			if (!accepted) {
				dump("a valid test frame was not counted as one", frame, len, d);
				return 1;
			}
			if (fi.tag.trial == 7 && fi.tag.stream % 2 == 0 && fi.tag.stream < 2 * NSTREAMS &&
			    fi.tag.seq < PER_STREAM) {
				/* each stream has its own numbers: a first copy on one
				 * is not a duplicate of the same number on another */
				uint8_t *s = &seen[fi.tag.stream / 2][fi.tag.seq];

				if (d[XC_DISTINCT] != !*s || d[XC_DUPLICATE] != *s) {
					dump(*s ? "a second copy was not counted as a duplicate"
						: "a first copy of the trial's frame was not counted as distinct",
					     frame, len, d);
					return 1;
				}
			} else if (fi.tag.trial == 7 && !d[XC_STALE]) {
				dump("a frame of another stream or beyond the frames sent was not stale", frame, len, d);
				return 1;
			}
		}
		if (accepted) {
			/* the tag sits after an Ethernet (+VLAN) and an IPv4 (20) or
			 * IPv6 (40) header and the UDP header: one of these decodes */
			static const uint32_t offs[] = { 42, 46, 62, 66 };
			int ok = 0;
			struct tag t;

			for (int i = 0; i < 4 && !ok; i++)
				if (offs[i] + FRAME_TAG_LEN <= len && frame_tag_decode(frame + offs[i], &t) == FRAME_OK)
					ok = 1;
			/* a first copy, whether or not frame_parse took the
			 * frame (the program does not check the UDP checksum) */
			if (ok && d[XC_DISTINCT] && t.stream / 2 < NSTREAMS && t.seq < PER_STREAM)
				seen[t.stream / 2][t.seq] = 1;
			if (!ok) {
				dump("counted as a test frame without a valid tag", frame, len, d);
				return 1;
			}
			counted++;
		}
		if (action == XDP_PASS)
			passed++;
	}
	printf("{\"iterations\": %ld, \"parse_ok\": %llu, \"counted\": %llu, \"passed\": %llu, "
	       "\"distinct\": %llu, \"duplicate\": %llu, \"bad_tag\": %llu, \"bad_ip_csum\": %llu}\n",
	       iters, (unsigned long long)parse_ok, (unsigned long long)counted, (unsigned long long)passed,
	       (unsigned long long)after[XC_DISTINCT], (unsigned long long)after[XC_DUPLICATE],
	       (unsigned long long)after[XC_BAD_TAG], (unsigned long long)after[XC_BAD_IP_CSUM]);
	xdpcount_close(x);
	return 0;
}
