/* Small file helpers for /proc and /sys, rooted so that tests can point
 * them at fixture trees. */
#ifndef WR_SYS_FSUTIL_H
#define WR_SYS_FSUTIL_H

#include <stddef.h>

/* Read root/path into buf (NUL-terminated, trailing newline kept);
 * returns bytes read or -errno. root NULL or "" means "/". */
long fs_read(const char *root, const char *path, char *buf, size_t len);
/* Write s to root/path; returns 0 or -errno. */
int fs_write(const char *root, const char *path, const char *s);
/* Create the directories above path (mkdir -p of its parent). */
int fs_mkdir_parents(const char *path);
/* Write s to path, with a one-line error naming path on failure. */
int fs_write_err(const char *path, const char *s, char *err, size_t errlen);

#endif
