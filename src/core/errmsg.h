/* The project's error convention in one call: a reason written into the
 * caller's buffer (char *err, size_t errlen) and the -errno returned, so
 * that a check reads "return errmsg(-EINVAL, err, errlen, ...)". */
#ifndef WR_CORE_ERRMSG_H
#define WR_CORE_ERRMSG_H

#include <errno.h>
#include <stddef.h>

/* fmt's text into err (truncated to errlen); returns rc. */
int errmsg(int rc, char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* A lower step's failure that is not the user's input: its -EINVAL (or
 * a 0 that should not be) as -EIO, so that the CLI does not call it bad
 * input (exit 2); any other -errno as it is. */
static inline int errmsg_host(int rc)
{
	return rc == -EINVAL || !rc ? -EIO : rc;
}

#endif
