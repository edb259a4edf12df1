/* The initramfs format the Linux kernel unpacks at boot: cpio "newc"
 * (ASCII headers of 13 eight-digit hex fields, names and data padded to
 * four bytes, a TRAILER!!! entry at the end). Several archives one after
 * another unpack as one. Pure: the bytes go to the caller's writer. */
#ifndef WR_CORE_CPIO_H
#define WR_CORE_CPIO_H

#include <stddef.h>
#include <stdint.h>

#define CPIO_NAME_MAX 1024

/* Returns 0 or -errno; a failure sticks (every later call returns it). */
typedef int (*cpio_write_fn)(void *ctx, const void *buf, size_t n);

struct cpio {
	cpio_write_fn write;
	void *ctx;
	uint64_t off;		/* bytes written */
	uint32_t ino;		/* the next entry's inode number */
	int rc;			/* the first failure */
};

void cpio_init(struct cpio *c, cpio_write_fn write, void *ctx);
/* An entry: mode's type bits say what it is (S_IFREG with its data,
 * S_IFDIR and S_IFLNK with the link's target as data); names are
 * relative ("bin/sh", no leading '/'), at most CPIO_NAME_MAX bytes, no
 * ".." component. -EINVAL for a bad name or a size over 4 GiB. */
int cpio_add(struct cpio *c, const char *name, uint32_t mode, const void *data, size_t len);
/* The header alone of a regular file of len bytes, whose data the caller
 * then writes in pieces through cpio_data and closes with cpio_pad. */
int cpio_file_begin(struct cpio *c, const char *name, uint32_t mode, uint64_t len);
int cpio_data(struct cpio *c, const void *buf, size_t n);
int cpio_pad(struct cpio *c);
/* The trailer; returns the first failure of the archive, or 0. */
int cpio_end(struct cpio *c);

#endif
