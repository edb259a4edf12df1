#include "os/fs.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

static void full_path(char *out, size_t len, const char *root, const char *path)
{
	if (!root || !*root || !strcmp(root, "/"))
		snprintf(out, len, "%s", path);
	else
		snprintf(out, len, "%s%s", root, path);
}

long fs_read(const char *root, const char *path, char *buf, size_t len)
{
	char p[4096];
	size_t off = 0;
	int fd;

	if (!len)
		return -EINVAL;
	full_path(p, sizeof(p), root, path);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (off + 1 < len) {
		ssize_t n = read(fd, buf + off, len - 1 - off);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			int rc = -errno;

			close(fd);
			return rc;
		}
		if (n == 0)
			break;
		off += (size_t)n;
	}
	close(fd);
	buf[off] = '\0';
	return (long)off;
}

long fs_read_tail(const char *path, char *buf, size_t len)
{
	FILE *f;
	long n;

	if (!len)
		return -EINVAL;
	if (!(f = fopen(path, "re")))
		return -errno;
	if (fseek(f, -(long)(len - 1), SEEK_END))
		fseek(f, 0, SEEK_SET);
	n = (long)fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n;
}

int fs_write(const char *root, const char *path, const char *s)
{
	char p[4096];
	size_t len = strlen(s);
	ssize_t n;
	int fd, rc = 0;

	full_path(p, sizeof(p), root, path);
	fd = open(p, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

int fs_write_err(const char *path, const char *s, char *err, size_t errlen)
{
	int rc = fs_write(NULL, path, s);

	if (rc)
		snprintf(err, errlen, "cannot write '%s' to %s: %s", s, path, strerror(-rc));
	return rc;
}

void fs_state_path(const char *name, char *buf, size_t len)
{
	const char *d = getenv("WIRERATE_STATE_DIR"), *x = getenv("XDG_STATE_HOME"), *h = getenv("HOME");

	if (d && *d)
		snprintf(buf, len, "%s/%s", d, name);
	else if (x && *x)
		snprintf(buf, len, "%s/wirerate/%s", x, name);
	else
		snprintf(buf, len, "%s/.local/state/wirerate/%s", h && *h ? h : "/root", name);
}

int fs_mkdir_parents(const char *path)
{
	char d[4096];

	snprintf(d, sizeof(d), "%s", path);
	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(d, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

int fs_tmp_open(const char *path, char *tmp, size_t tmplen)
{
	int fd;

	if ((size_t)snprintf(tmp, tmplen, "%s.tmp.XXXXXX", path) >= tmplen)
		return -ENAMETOOLONG;
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		return -errno;
	/* mkostemp makes it 0600: the files it replaces are readable */
	if (fchmod(fd, 0644)) {
		int rc = -errno;

		close(fd);
		unlink(tmp);
		return rc;
	}
	return fd;
}

int fs_out_open(struct fs_out *o, const char *path)
{
	int fd;

	o->f = NULL;
	if ((size_t)snprintf(o->path, sizeof(o->path), "%s", path) >= sizeof(o->path))
		return -ENAMETOOLONG;
	if ((fd = fs_tmp_open(path, o->tmp, sizeof(o->tmp))) < 0)
		return fd;
	if (!(o->f = fdopen(fd, "w"))) {
		int rc = -errno;

		close(fd);
		unlink(o->tmp);
		return rc;
	}
	return 0;
}

int fs_out_close(struct fs_out *o, bool keep)
{
	int rc = 0;

	if (!o->f)
		return 0;
	errno = 0;
	if (keep && (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f))))
		rc = errno ? -errno : -EIO;
	if (fclose(o->f) && !rc)
		rc = -errno;
	o->f = NULL;
	if (keep && !rc && rename(o->tmp, o->path))
		rc = -errno;
	if (!keep || rc)
		unlink(o->tmp);
	return rc;
}

int fs_write_file(const char *path, void (*write)(FILE *f, void *arg), void *arg, char *err, size_t errlen)
{
	struct fs_out o;
	int rc = fs_out_open(&o, path);

	if (!rc) {
		write(o.f, arg);
		rc = fs_out_close(&o, true);
	}
	if (rc)
		snprintf(err, errlen, "%s", strerror(-rc));
	return rc ? -EIO : 0;
}
