/* cpio newc writer; see cpio.h. */
#include "core/cpio.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void cpio_init(struct cpio *c, cpio_write_fn write, void *ctx)
{
	memset(c, 0, sizeof(*c));
	c->write = write;
	c->ctx = ctx;
	c->ino = 1;
}

static int put(struct cpio *c, const void *buf, size_t n)
{
	if (c->rc)
		return c->rc;
	if (n && (c->rc = c->write(c->ctx, buf, n)))
		return c->rc;
	c->off += n;
	return 0;
}

int cpio_pad(struct cpio *c)
{
	static const char zero[4];

	return put(c, zero, (4 - c->off % 4) % 4);
}

static int name_ok(const char *name)
{
	size_t n = strlen(name);
	const char *p = name;

	if (!n || n > CPIO_NAME_MAX || name[0] == '/')
		return 0;
	/* no ".." component: the archive stays inside the root it makes */
	while (p) {
		if (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2]))
			return 0;
		p = strchr(p, '/');
		if (p)
			p++;
	}
	return 1;
}

static int header(struct cpio *c, const char *name, uint32_t mode, uint64_t len)
{
	char h[111];
	size_t nlen = strlen(name) + 1;

	if (len > 0xffffffffULL)
		return c->rc ? c->rc : -EINVAL;
	snprintf(h, sizeof(h), "070701%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X%08X",
		 c->ino++, mode, 0u, 0u, S_ISDIR(mode) ? 2u : 1u, 0u, (unsigned int)len, 0u, 0u, 0u, 0u,
		 (unsigned int)nlen, 0u);
	if (put(c, h, 110) || put(c, name, nlen))
		return c->rc;
	return cpio_pad(c);
}

int cpio_file_begin(struct cpio *c, const char *name, uint32_t mode, uint64_t len)
{
	if (!name_ok(name) || !S_ISREG(mode))
		return c->rc ? c->rc : -EINVAL;
	return header(c, name, mode, len);
}

int cpio_data(struct cpio *c, const void *buf, size_t n)
{
	return put(c, buf, n);
}

int cpio_add(struct cpio *c, const char *name, uint32_t mode, const void *data, size_t len)
{
	int rc;

	if (!name_ok(name) || !(S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode)) || (S_ISDIR(mode) && len))
		return c->rc ? c->rc : -EINVAL;
	if ((rc = header(c, name, mode, len)) || (rc = put(c, data, len)))
		return rc;
	return cpio_pad(c);
}

int cpio_end(struct cpio *c)
{
	if (header(c, "TRAILER!!!", 0, 0))
		return c->rc;
	return c->rc;
}
