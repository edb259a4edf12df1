/* Small file helpers for /proc and /sys, rooted so that tests can point
 * them at fixture trees. */
#ifndef WR_OS_FS_H
#define WR_OS_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Read root/path into buf (NUL-terminated, trailing newline kept);
 * returns bytes read or -errno. root NULL or "" means "/". */
long fs_read(const char *root, const char *path, char *buf, size_t len);
/* The end of the file at path (a log): its last len - 1 bytes, or all of
 * a shorter file, into buf (NUL-terminated); bytes read or -errno. */
long fs_read_tail(const char *path, char *buf, size_t len);
/* Write s to root/path; returns 0 or -errno. */
int fs_write(const char *root, const char *path, const char *s);
/* The file name in wirerate's state directory: $WIRERATE_STATE_DIR,
 * $XDG_STATE_HOME/wirerate or ~/.local/state/wirerate ($HOME unset or
 * empty: /root), then "/name". */
void fs_state_path(const char *name, char *buf, size_t len);
/* Create the directories above path (mkdir -p of its parent). */
int fs_mkdir_parents(const char *path);
/* A new file to be renamed over path once written: a name no one can
 * predict or plant beforehand ("PATH.tmp.XXXXXX" by mkostemp: O_EXCL,
 * never through a symlink), in path's directory so the rename stays on
 * one file system, mode 0644 whatever the umask. The name goes into tmp.
 * Returns the descriptor or -errno. */
int fs_tmp_open(const char *path, char *tmp, size_t tmplen);
/* A file written beside its name (fs_tmp_open) and renamed over it when
 * done: a reader sees the old file or the whole new one, never half. */
struct fs_out {
	FILE *f;
	char path[4096];
	char tmp[4200];
};
/* Open it as a stdio stream: 0, or -errno with o->f NULL. */
int fs_out_open(struct fs_out *o, const char *path);
/* Close it. keep: flushed to disk and renamed over its path, 0 or
 * -errno (a write that failed on the way, too); otherwise, and on any
 * failure, the file beside is removed. o->f NULL is a no-op (0). */
int fs_out_close(struct fs_out *o, bool keep);
/* A whole file at path from write(f, arg), through fs_out: 0, or -EIO
 * with the reason in err (a file already at path is left as it was). */
int fs_write_file(const char *path, void (*write)(FILE *f, void *arg), void *arg, char *err, size_t errlen);

/* Write s to path, with a one-line error naming path on failure. */
int fs_write_err(const char *path, const char *s, char *err, size_t errlen);

#endif
