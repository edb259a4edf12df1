/* What a kernel image file says of itself: an x86 bzImage carries the
 * boot protocol's header ("HdrS" at 0x202) and a pointer to its version
 * string ("6.1.0-57-cloud-amd64 (debian-kernel@...) #1 SMP ..."), whose
 * first word is the release `uname -r` will print. Pure, and the file is
 * untrusted: every offset is checked against its length. */
#ifndef WR_CORE_KIMAGE_H
#define WR_CORE_KIMAGE_H

#include <stddef.h>
#include <stdint.h>

#define KIMAGE_HEAD_LEN	0x4000	/* read this much of the file: the header and the version string */
#define KIMAGE_RELEASE_MAX 64

struct kimage {
	unsigned int protocol;		/* boot protocol, e.g. 0x20f */
	char release[KIMAGE_RELEASE_MAX + 1];	/* "" when the image has no version string */
	char version[160];		/* the whole string, control bytes as '?' */
};

/* Parse the first len bytes of a file. -EINVAL (with a one-line reason
 * into err) when it is not a bzImage: too short, no boot flag, no
 * "HdrS", a boot protocol older than 2.06 (the 64-bit kernels QEMU
 * boots). */
int kimage_parse(const uint8_t *buf, size_t len, struct kimage *k, char *err, size_t errlen);

#endif
