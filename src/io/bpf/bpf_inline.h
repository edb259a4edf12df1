/* Helpers both BPF programs inline (xdpgen.bpf.c, count.bpf.c). */
#ifndef WR_IO_BPF_INLINE_H
#define WR_IO_BPF_INLINE_H

#include <linux/types.h>

/* wirerate's tag check (src/core/frame.c frame_tag_check), from little-endian
 * loads of the tag's bytes 0..7 and 8..15. */
static __always_inline __u16 frame_tag_check(__u64 a, __u64 b)
{
	__u64 h = a * 0x9E3779B97F4A7C15ULL ^ b;

	h *= 0xC2B2AE3D27D4EB4FULL;
	h ^= h >> 29;
	h *= 0x165667B19E3779F9ULL;
	return (__u16)(h >> 48);
}

/* A one's complement sum of 32-bit (or smaller) terms, folded to 16 bits;
 * inline, because the csum helper call cost more than the sum. */
static __always_inline __u16 csum_fold64(__u64 s)
{
	s = (s & 0xffffffff) + (s >> 32);
	s = (s & 0xffffffff) + (s >> 32);
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (__u16)s;
}

#endif
