/* The bzImage header; see kimage.h and the kernel's
 * Documentation/arch/x86/boot.rst for the offsets. */
#include "core/kimage.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define OFF_BOOT_FLAG	0x1fe
#define OFF_MAGIC	0x202
#define OFF_VERSION	0x206
#define OFF_KVER	0x20e
#define PROTOCOL_MIN	0x206

static unsigned int le16(const uint8_t *p)
{
	return (unsigned int)p[0] | (unsigned int)p[1] << 8;
}

int kimage_parse(const uint8_t *buf, size_t len, struct kimage *k, char *err, size_t errlen)
{
	size_t at, n = 0;

	memset(k, 0, sizeof(*k));
	if (len < OFF_KVER + 2 || le16(buf + OFF_BOOT_FLAG) != 0xaa55 || memcmp(buf + OFF_MAGIC, "HdrS", 4)) {
		snprintf(err, errlen, "not a Linux kernel image (no x86 boot header: give a bzImage, "
			 "arch/x86/boot/bzImage or /boot/vmlinuz-*)");
		return -EINVAL;
	}
	k->protocol = le16(buf + OFF_VERSION);
	if (k->protocol < PROTOCOL_MIN) {
		snprintf(err, errlen, "a kernel image of boot protocol %u.%02u: QEMU needs 2.06 or later",
			 k->protocol >> 8, k->protocol & 0xff);
		return -EINVAL;
	}
	/* kernel_version points 0x200 bytes short of the string */
	at = (size_t)le16(buf + OFF_KVER) + 0x200;
	if (le16(buf + OFF_KVER) == 0 || at >= len)
		return 0;
	while (at + n < len && buf[at + n] && n < sizeof(k->version) - 1) {
		unsigned char ch = buf[at + n];

		k->version[n++] = (char)(ch < 0x20 || ch >= 0x7f ? '?' : ch);
	}
	k->version[n] = '\0';
	for (n = 0; k->version[n] && k->version[n] != ' ' && n < KIMAGE_RELEASE_MAX; n++)
		k->release[n] = k->version[n];
	k->release[n] = '\0';
	return 0;
}
