/* Where a bisection's candidates come from: a git tree (the commits of a
 * range, checked out one after another) or a list of kernels. git runs
 * as a child, bounded in time, its output read from a private file. */
#ifndef WR_APP_BISECT_SOURCE_H
#define WR_APP_BISECT_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#define BISECTSRC_GIT_TIMEOUT_MS 120000

/* git -C tree ARGS...: its exit status (0 success), its output (stdout
 * and stderr) in *out (malloc'd, NUL ended; may be NULL), or -errno
 * with err when it could not run. */
int app_bisect_source_git(const char *tree, const char *const *args, char **out, char *err, size_t errlen);

/* The tree at rev (a commit, or a branch to go back to), quietly. */
int app_bisect_source_checkout(const char *tree, const char *rev, char *err, size_t errlen);

/* What HEAD is: the branch's name, or the commit when detached. */
int app_bisect_source_head(const char *tree, char *out, size_t len, char *err, size_t errlen);

/* Whether the tracked files have changes that a checkout would carry or
 * refuse: 1 changed, 0 clean, -errno. */
int app_bisect_source_dirty(const char *tree, char *err, size_t errlen);

/* The tree (len bytes) by its full path, checked: a git work tree
 * without uncommitted changes (each candidate is checked out). 0;
 * -EINVAL with err for bad input; -errno when git could not run. */
int app_bisect_source_tree(char *tree, size_t len, char *err, size_t errlen);

struct app_bisect;

/* The kernel candidate i boots on a VM lab, and its modules ("" none):
 * a kernel of the list, or the image the build made in the tree; "" when
 * the lab has the host's. */
void app_bisect_source_kernel(const struct app_bisect *b, size_t i, char *kernel, size_t klen, char *modules,
			      size_t mlen);

#endif
