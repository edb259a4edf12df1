/* Kernels for VM labs; see vm_kernel.h. */
#include "lab/vm_kernel.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>

#include "core/kimage.h"
#include "os/command.h"
#include "os/fs.h"

#define PKG_PREFIX "linux-image-"

const char *vm_kernel_cache_root(char *buf, size_t len)
{
	const char *e = getenv("WIRERATE_CACHE");

	snprintf(buf, len, "%s", e && *e == '/' ? e : VMKERNEL_CACHE_DEFAULT);
	return buf;
}

/* Read a kernel image's header: 0 with its release, or -EINVAL. */
static int image_check(const char *path, struct kimage *ki, char *err, size_t errlen)
{
	uint8_t head[KIMAGE_HEAD_LEN];
	char why[200];
	struct stat st;
	ssize_t n;
	int fd;

	if (stat(path, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--kernel %.300s: %s", path, errno == ENOENT || !errno ? "no such file" :
			 S_ISREG(st.st_mode) ? strerror(errno) : "not a file");
		return -EINVAL;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, errlen, "--kernel %.300s: %s", path, strerror(errno));
		return -EINVAL;
	}
	n = read(fd, head, sizeof(head));
	close(fd);
	if (kimage_parse(head, n > 0 ? (size_t)n : 0, ki, why, sizeof(why))) {
		snprintf(err, errlen, "--kernel %.300s: %s", path, why);
		return -EINVAL;
	}
	return 0;
}

/* A --modules directory: DIR/lib/modules/RELEASE (make modules_install
 * INSTALL_MOD_PATH=DIR), DIR/RELEASE, or DIR itself; it must hold
 * modules.dep. */
static int modules_dir(const char *dir, const char *release, char *out, size_t len, char *err, size_t errlen)
{
	char p[LAB_PATH_MAX + 200];

	for (size_t i = 0; i < 3; i++) {
		if (i < 2 && !release[0])
			continue;
		if (i == 0)
			snprintf(p, sizeof(p), "%s/lib/modules/%s", dir, release);
		else if (i == 1)
			snprintf(p, sizeof(p), "%s/%s", dir, release);
		else
			snprintf(p, sizeof(p), "%s", dir);
		if (strlen(p) > LAB_PATH_MAX)
			continue;
		snprintf(out, len, "%s", p);
		strncat(p, "/modules.dep", sizeof(p) - strlen(p) - 1);
		if (!access(p, R_OK))
			return 0;
	}
	snprintf(err, errlen, "--modules %.300s: no modules.dep for %s there (run 'make modules_install "
		 "INSTALL_MOD_PATH=DIR', or depmod)", dir, release[0] ? release : "this kernel");
	return -EINVAL;
}

static bool looks_like_version(const char *s)
{
	if (!(*s >= '0' && *s <= '9'))
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || *s == '.' || *s == '-' || *s == '+' ||
		      *s == '*' || *s == '_' || *s == '~'))
			return false;
	return true;
}

/* Run a command with its output in log; 0, or -EIO with the log's last
 * line. */
static int run(char *const *argv, const char *dir, const char *log, unsigned int timeout_s, char *err, size_t errlen)
{
	char tail[300], e2[200] = "";
	int rc = command_run(argv, dir, log, timeout_s * 1000, NULL, e2, sizeof(e2));

	if (!rc)
		return 0;
	command_log_tail(log, tail, sizeof(tail));
	snprintf(err, errlen, "%s failed (%s): %s", argv[0], rc < 0 ? (e2[0] ? e2 : strerror(-rc)) : "exit status",
		 tail[0] ? tail : "no message");
	if (rc > 0)
		snprintf(err + strlen(err), errlen - strlen(err), " (status %d)", rc);
	return -EIO;
}

/* The packages apt knows whose name matches PKG_PREFIX + pattern, the
 * highest version-sorted first: the name into out. -ENOENT when none. */
static int apt_match(const char *pattern, const char *tmpdir, char *out, size_t len, char *err, size_t errlen)
{
	char log[600], *argv[] = { "apt-cache", "pkgnames", PKG_PREFIX, NULL }, line[256], best[256] = "";
	char pat[300];
	FILE *f;
	int rc;

	snprintf(log, sizeof(log), "%s/apt-cache.log", tmpdir);
	unlink(log);
	if ((rc = run(argv, NULL, log, 60, err, errlen)))
		return rc;
	snprintf(pat, sizeof(pat), PKG_PREFIX "%s", pattern);
	if (!(f = fopen(log, "r")))
		return -EIO;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (fnmatch(pat, line, 0))
			continue;
		/* the image itself: not its debug symbols or its unsigned twin */
		if (strstr(line, "-dbg") || strstr(line, "-unsigned"))
			continue;
		if (!best[0] || strverscmp(line, best) > 0)
			snprintf(best, sizeof(best), "%s", line);
	}
	fclose(f);
	unlink(log);
	if (!best[0])
		return -ENOENT;
	snprintf(out, len, "%s", best);
	return 0;
}

/* The candidate version apt would download of pkg into ver. */
static int apt_version(const char *pkg, const char *tmpdir, char *ver, size_t len, char *err, size_t errlen)
{
	char log[600], line[512], *argv[] = { "apt-cache", "show", "--no-all-versions", (char *)pkg, NULL };
	FILE *f;
	int rc;

	snprintf(log, sizeof(log), "%s/apt-show.log", tmpdir);
	unlink(log);
	if ((rc = run(argv, NULL, log, 60, err, errlen)))
		return rc;
	ver[0] = '\0';
	if ((f = fopen(log, "r"))) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "Version: ", 9)) {
				line[strcspn(line, "\n")] = '\0';
				snprintf(ver, len, "%.*s", (int)len - 1, line + 9);
				break;
			}
		fclose(f);
	}
	unlink(log);
	return ver[0] ? 0 : -ENOENT;
}

/* Every *.ko.xz and *.ko.zst under dir, decompressed in place (busybox's
 * insmod in the guest reads plain modules). */
static int decompress_modules(const char *dir, const char *log, char *err, size_t errlen)
{
	char *stack[64];
	int depth = 0, rc = 0;

	if (!(stack[depth++] = strdup(dir)))
		return -ENOMEM;
	while (depth && !rc) {
		char *d = stack[--depth];
		DIR *dh = opendir(d);
		struct dirent *e;

		while (dh && !rc && (e = readdir(dh))) {
			char p[4096];
			size_t n = strlen(e->d_name);

			if (e->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", d, e->d_name);
			if (e->d_type == DT_DIR) {
				if (depth < 64 && !(stack[depth++] = strdup(p)))
					rc = -ENOMEM;
			} else if (n > 7 && !strcmp(e->d_name + n - 7, ".ko.zst")) {
				char *argv[] = { "zstd", "-q", "-d", "--rm", p, NULL };

				rc = run(argv, NULL, log, 60, err, errlen);
			} else if (n > 6 && !strcmp(e->d_name + n - 6, ".ko.xz")) {
				char *argv[] = { "xz", "-d", p, NULL };

				rc = run(argv, NULL, log, 60, err, errlen);
			}
		}
		if (dh)
			closedir(dh);
		free(d);
	}
	while (depth)
		free(stack[--depth]);
	return rc;
}

/* The one directory name under path/lib/modules (the package's release). */
static int pkg_release(const char *root, char *rel, size_t len)
{
	char p[4096];
	struct dirent *e;
	DIR *d;

	snprintf(p, sizeof(p), "%s/lib/modules", root);
	if (!(d = opendir(p)))
		return -ENOENT;
	rel[0] = '\0';
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			snprintf(rel, len, "%.*s", (int)len - 1, e->d_name);
	closedir(d);
	return rel[0] ? 0 : -ENOENT;
}

/* Fetch and unpack pkg at ver into final (under the cache's lock). */
static int fetch(const char *kdir, const char *pkg, const char *ver, const char *final, char *err, size_t errlen)
{
	char tmp[600], log[700], deb[800], spec[400], rel[100], unpacked[700];
	struct dirent *e;
	DIR *d;
	int rc;

	snprintf(tmp, sizeof(tmp), "%s/.fetch-XXXXXX", kdir);
	if (!mkdtemp(tmp)) {
		snprintf(err, errlen, "cannot make a directory in %s: %s", kdir, strerror(errno));
		return -EIO;
	}
	snprintf(log, sizeof(log), "%s/fetch.log", tmp);
	snprintf(spec, sizeof(spec), "%s=%s", pkg, ver);
	{
		char *argv[] = { "apt-get", "download", "-q", spec, NULL };

		if ((rc = run(argv, tmp, log, VMKERNEL_FETCH_S, err, errlen)))
			goto out;
	}
	deb[0] = '\0';
	if ((d = opendir(tmp))) {
		while ((e = readdir(d))) {
			size_t n = strlen(e->d_name);

			if (n > 4 && !strcmp(e->d_name + n - 4, ".deb"))
				snprintf(deb, sizeof(deb), "%s/%s", tmp, e->d_name);
		}
		closedir(d);
	}
	if (!deb[0]) {
		snprintf(err, errlen, "apt-get download %s gave no package file", spec);
		rc = -EIO;
		goto out;
	}
	snprintf(unpacked, sizeof(unpacked), "%s/root", tmp);
	{
		char *argv[] = { "dpkg-deb", "-x", deb, unpacked, NULL };

		if ((rc = run(argv, NULL, log, 300, err, errlen)))
			goto out;
	}
	unlink(deb);
	if (pkg_release(unpacked, rel, sizeof(rel))) {
		snprintf(err, errlen, "%s holds no lib/modules: not a kernel image package", pkg);
		rc = -EINVAL;
		goto out;
	}
	{
		char mods[1200];
		char *argv[] = { "busybox", "depmod", "-b", unpacked, rel, NULL };

		snprintf(mods, sizeof(mods), "%s/lib/modules/%s", unpacked, rel);
		if ((rc = decompress_modules(mods, log, err, errlen)) || (rc = run(argv, NULL, log, 300, err, errlen)))
			goto out;
	}
	/* whole: in its place at once */
	if (rename(unpacked, final)) {
		snprintf(err, errlen, "cannot move the kernel into %s: %s", final, strerror(errno));
		rc = -EIO;
	}
out:
	{
		char *argv[] = { "rm", "-rf", tmp, NULL };
		char e2[100];

		command_run(argv, NULL, NULL, 120000, NULL, e2, sizeof(e2));
	}
	return rc;
}

/* Fetches left by a killed one (the lock is ours, so none runs now). */
static void remove_stale(const char *kdir)
{
	struct dirent *e;
	DIR *d = opendir(kdir);

	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, ".fetch-", 7)) {
			char p[4096], *argv[] = { "rm", "-rf", p, NULL }, e2[100];

			snprintf(p, sizeof(p), "%s/%s", kdir, e->d_name);
			command_run(argv, NULL, NULL, 120000, NULL, e2, sizeof(e2));
		}
	if (d)
		closedir(d);
}

/* A cached package's files into k. */
static int from_cache(const char *dir, const char *pkg, const char *ver, struct vm_kernel *k, char *err,
		      size_t errlen)
{
	char rel[100];
	struct kimage ki;
	int rc;

	if (pkg_release(dir, rel, sizeof(rel)))
		return -ENOENT;
	snprintf(k->image, sizeof(k->image), "%s/boot/vmlinuz-%s", dir, rel);
	if ((rc = image_check(k->image, &ki, err, errlen)))
		return rc;
	snprintf(k->modules, sizeof(k->modules), "%s/lib/modules/%s", dir, rel);
	snprintf(k->config, sizeof(k->config), "%s/boot/config-%s", dir, rel);
	if (access(k->config, R_OK))
		k->config[0] = '\0';
	snprintf(k->release, sizeof(k->release), "%.*s", (int)sizeof(k->release) - 1, ki.release[0] ? ki.release : rel);
	snprintf(k->source, sizeof(k->source), "debian %s %s", pkg, ver);
	k->package = true;
	return 0;
}

/* The highest cached package matching pattern (for a tester without
 * apt's lists): 0 with k filled, or -ENOENT. */
static int cached_match(const char *kdir, const char *pattern, struct vm_kernel *k, char *err, size_t errlen)
{
	char pat[300], best[300] = "";
	struct dirent *e;
	DIR *d = opendir(kdir);

	snprintf(pat, sizeof(pat), PKG_PREFIX "%s_*", pattern);
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && !fnmatch(pat, e->d_name, 0) && (!best[0] || strverscmp(e->d_name, best) > 0))
			snprintf(best, sizeof(best), "%s", e->d_name);
	if (d)
		closedir(d);
	if (!best[0])
		return -ENOENT;
	{
		char dir[4096], pkg[300];
		char *us = strrchr(best, '_');

		snprintf(dir, sizeof(dir), "%s/%s", kdir, best);
		snprintf(pkg, sizeof(pkg), "%.*s", (int)(us - best), best);
		return from_cache(dir, pkg, us + 1, k, err, errlen);
	}
}

static int resolve_package(const char *given, bool do_fetch, struct vm_kernel *k, char *err, size_t errlen)
{
	char root[400], kdir[500], lockp[600], pkg[300], ver[100], final[1400];
	int lock = -1, rc;

	vm_kernel_cache_root(root, sizeof(root));
	snprintf(kdir, sizeof(kdir), "%s/kernels", root);
	if ((rc = fs_mkdir_parents(kdir)) || (mkdir(kdir, 0755) && errno != EEXIST)) {
		snprintf(err, errlen, "cannot make the kernel cache %s: %s", kdir, strerror(errno));
		return -EIO;
	}
	snprintf(lockp, sizeof(lockp), "%s/.lock", kdir);
	if ((lock = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0 || flock(lock, LOCK_EX)) {
		snprintf(err, errlen, "cannot lock the kernel cache %s: %s", kdir, strerror(errno));
		if (lock >= 0)
			close(lock);
		return -EIO;
	}
	remove_stale(kdir);
	rc = apt_match(given, kdir, pkg, sizeof(pkg), err, errlen);
	if (rc == -ENOENT || rc == -EIO) {
		/* apt does not know it (or cannot be asked): the cache may */
		char e2[256];

		if (!cached_match(kdir, given, k, e2, sizeof(e2))) {
			rc = 0;
			goto out;
		}
		if (rc == -ENOENT)
			snprintf(err, errlen, "--kernel %.100s: no Debian kernel package %s%.100s is known to apt "
				 "(see 'apt-cache search --names-only ^linux-image-'; e.g. 6.1.0-57-cloud-amd64)",
				 given, PKG_PREFIX, given);
		rc = rc == -ENOENT ? -EINVAL : rc;
		goto out;
	}
	if (rc)
		goto out;
	if ((rc = apt_version(pkg, kdir, ver, sizeof(ver), err, errlen))) {
		if (rc == -ENOENT)
			snprintf(err, errlen, "--kernel %.100s: apt has no version of %s to download", given, pkg);
		rc = rc == -ENOENT ? -EINVAL : rc;
		goto out;
	}
	snprintf(final, sizeof(final), "%s/%s_%s", kdir, pkg, ver);
	if (!from_cache(final, pkg, ver, k, err, errlen))
		goto out;
	if (!do_fetch) {
		snprintf(err, errlen, "--kernel %.100s: %s %s is not in the cache %s", given, pkg, ver, kdir);
		rc = -ENOENT;
		goto out;
	}
	if (!(rc = fetch(kdir, pkg, ver, final, err, errlen)))
		rc = from_cache(final, pkg, ver, k, err, errlen);
out:
	close(lock);
	return rc;
}

int vm_kernel_resolve(const char *given, const char *modules, bool do_fetch, struct vm_kernel *k,
		     char *err, size_t errlen)
{
	struct kimage ki;
	int rc;

	memset(k, 0, sizeof(*k));
	if (!given || !*given) {
		snprintf(err, errlen, "--kernel: give a kernel image file or a Debian kernel package version");
		return -EINVAL;
	}
	if (strlen(given) > LAB_PATH_MAX || (modules && strlen(modules) > LAB_PATH_MAX)) {
		snprintf(err, errlen, "--kernel and --modules: at most %d characters", LAB_PATH_MAX);
		return -EINVAL;
	}
	/* a path, or a file here: the user's own kernel */
	if (strchr(given, '/') || !access(given, F_OK) || !looks_like_version(given)) {
		if ((rc = image_check(given, &ki, err, errlen)))
			return rc;
		if (realpath(given, k->image) == NULL)
			snprintf(k->image, sizeof(k->image), "%s", given);
		snprintf(k->release, sizeof(k->release), "%s", ki.release);
		snprintf(k->source, sizeof(k->source), "file");
		if (modules && *modules && (rc = modules_dir(modules, ki.release, k->modules, sizeof(k->modules),
							      err, errlen)))
			return rc;
		return 0;
	}
	if (modules && *modules) {
		snprintf(err, errlen, "--modules: only with a kernel file; a Debian package brings its own");
		return -EINVAL;
	}
	return resolve_package(given, do_fetch, k, err, errlen);
}

int vm_kernel_cached(char *buf, size_t len)
{
	char root[400], kdir[500];
	struct dirent *e;
	size_t off = 0;
	int n = 0;
	DIR *d;

	buf[0] = '\0';
	vm_kernel_cache_root(root, sizeof(root));
	snprintf(kdir, sizeof(kdir), "%s/kernels", root);
	if (!(d = opendir(kdir)))
		return 0;
	while ((e = readdir(d)) && off < len) {
		char dir[4096], rel[100], *us;

		if (e->d_name[0] == '.' || !(us = strrchr(e->d_name, '_')))
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", kdir, e->d_name);
		if (pkg_release(dir, rel, sizeof(rel)))
			continue;
		off += (size_t)snprintf(buf + off, len - off, "%s (%.*s %s)\n", rel, (int)(us - e->d_name), e->d_name,
					us + 1);
		n++;
	}
	closedir(d);
	return n;
}
