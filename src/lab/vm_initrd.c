/* The guest's initramfs; see vm_initrd.h. */
#include "lab/vm_initrd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "core/cpio.h"
#include "os/command.h"
#include "os/fs.h"

/* Modules the guest needs and everything below them that modules.dep
 * names: the whole network stack (netfilter, qdiscs, pktgen) so that a
 * rule or a shaper loads on demand, and the virtio devices. */
static const char *const module_roots[] = {
	"kernel/net/", "kernel/drivers/virtio/", "kernel/drivers/net/virtio_net.ko",
	"kernel/drivers/net/net_failover.ko", "kernel/drivers/char/virtio_console.ko",
	/* veth: the tester in a guest (tests/netns/guest_paths.sh) makes its own lab */
	"kernel/drivers/net/veth.ko",
};

/* What /init does before wirerate takes over: the file systems, the
 * virtio drivers, and modprobe where the kernel looks for it. */
static const char init_script[] =
	"#!/bin/sh\n"
	"# wirerate's VM DUT: made by 'wirerate lab up --kernel', runs wirerate vm-guest\n"
	"export PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root WIRERATE_STATE_DIR=/var/lib/wirerate\n"
	"mount -t proc proc /proc\n"
	"mount -t sysfs sysfs /sys\n"
	"mount -t devtmpfs devtmpfs /dev 2>/dev/null\n"
	"mount -t tmpfs tmpfs /tmp\n"
	"mount -t tmpfs tmpfs /run\n"
	"mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null\n"
	"echo /sbin/modprobe > /proc/sys/kernel/modprobe 2>/dev/null\n"
	"for m in virtio_pci virtio_net virtio_console; do modprobe $m 2>/dev/null; done\n"
	"ln -s /proc/self/fd /dev/fd 2>/dev/null\n"
	"# the soak's idle rate, measured while nothing else runs (lab up --soak-calibrate)\n"
	"if grep -q '^soak_calibrate=1' /etc/wirerate/lab.conf; then\n"
	"  echo 'wirerate-guest: calibrating the soak'\n"
	"  wirerate soak --calibrate --timeout 60s >/dev/null 2>&1 || echo 'wirerate-guest: the soak did not calibrate'\n"
	"fi\n"
	"exec /bin/wirerate vm-guest /etc/wirerate/lab.conf\n";

static const char *const busybox_links[] = { "bin/sh", "bin/mount", "bin/modprobe", "bin/insmod", "bin/cat",
					     "bin/echo", "bin/ls", "bin/sleep", "bin/ps", "bin/grep", "bin/sysctl",
					     "sbin/modprobe" };
/* The tester's own tools a user reaches the guest with ('lab exec'):
 * each with its libraries, where the tester has it. */
static const char *const tools[] = { "/usr/sbin/nft", "/usr/sbin/ip", "/usr/sbin/tc", "/usr/sbin/ethtool" };
static const char *const dirs[] = { "bin", "sbin", "dev", "proc", "sys", "tmp", "run", "etc", "etc/wirerate",
				    "lib", "lib64", "usr", "usr/lib", "boot", "var", "var/lib", "var/lib/wirerate",
				    "root" };

struct out {
	int fd;
};

static int out_write(void *ctx, const void *buf, size_t n)
{
	struct out *o = ctx;
	const char *p = buf;

	while (n) {
		ssize_t w = write(o->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -errno ? -errno : -EIO;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Every directory above name ("a/b/c" adds "a" and "a/b") not added yet:
 * the archive names each directory once, before what is in it. */
struct seen {
	char **names;
	size_t n, cap;
};

static bool seen_has(struct seen *s, const char *name)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->names[i], name))
			return true;
	return false;
}

static int add_dirs_above(struct cpio *c, struct seen *s, const char *name)
{
	char d[CPIO_NAME_MAX + 1];

	for (const char *p = strchr(name, '/'); p; p = strchr(p + 1, '/')) {
		snprintf(d, sizeof(d), "%.*s", (int)(p - name), name);
		if (seen_has(s, d))
			continue;
		if (s->n == s->cap) {
			char **nn = realloc(s->names, (s->cap ? s->cap * 2 : 64) * sizeof(*nn));

			if (!nn)
				return -ENOMEM;
			s->names = nn;
			s->cap = s->cap ? s->cap * 2 : 64;
		}
		if (!(s->names[s->n] = strdup(d)))
			return -ENOMEM;
		s->n++;
		if (cpio_add(c, d, S_IFDIR | 0755, NULL, 0))
			return c->rc;
	}
	return 0;
}

/* A host file into the archive as name, with its mode. */
static int add_file(struct cpio *c, struct seen *s, const char *name, const char *path, char *err, size_t errlen)
{
	const size_t size = 1 << 16;
	struct stat st;
	char *buf;
	int fd, rc;

	if ((rc = add_dirs_above(c, s, name)))
		return rc;
	if (!(buf = malloc(size))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &st)) {
		rc = -errno;
		snprintf(err, errlen, "cannot read %.300s for the guest: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		free(buf);
		return rc;
	}
	if ((rc = cpio_file_begin(c, name, S_IFREG | (st.st_mode & 0777), (uint64_t)st.st_size)))
		goto out;
	for (uint64_t left = (uint64_t)st.st_size; left && !rc;) {
		ssize_t n = read(fd, buf, left < size ? left : size);

		if (n <= 0) {
			rc = n < 0 ? -errno : -EIO;
			snprintf(err, errlen, "reading %.300s: %s", path, n < 0 ? strerror(errno) : "it shrank");
			break;
		}
		rc = cpio_data(c, buf, (size_t)n);
		left -= (uint64_t)n;
	}
	if (!rc)
		rc = cpio_pad(c);
out:
	close(fd);
	free(buf);
	if (rc && !err[0])
		snprintf(err, errlen, "writing the initramfs: %s", strerror(-rc));
	return rc;
}

static int add_text(struct cpio *c, struct seen *s, const char *name, uint32_t mode, const char *text)
{
	int rc = add_dirs_above(c, s, name);

	return rc ? rc : cpio_add(c, name, S_IFREG | mode, text, strlen(text));
}

/* This binary's shared libraries and its loader, as ldd lists them:
 * each added under its own path. */
static int add_libraries(struct cpio *c, struct seen *s, const char *exe, const char *tmpdir, char *err,
			 size_t errlen)
{
	char log[4200], line[1024], e2[200];
	char *argv[] = { "ldd", (char *)exe, NULL };
	FILE *f;
	int rc;

	snprintf(log, sizeof(log), "%s/ldd.log", tmpdir);
	unlink(log);
	if ((rc = command_run(argv, NULL, log, 30000, NULL, e2, sizeof(e2)))) {
		snprintf(err, errlen, "ldd %s: %s", exe, rc < 0 ? e2 : "failed");
		return -EIO;
	}
	if (!(f = fopen(log, "r")))
		return -errno;
	rc = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "=> "), path[600];

		/* "libx.so.1 => /lib/.../libx.so.1 (0x...)" or "/lib64/ld-linux... (0x...)" */
		if (p)
			p += 3;
		else
			for (p = line; *p == ' ' || *p == '\t'; p++)
				;
		if (*p != '/')
			continue;
		snprintf(path, sizeof(path), "%.*s", (int)strcspn(p, " \n"), p);
		{
			char real[4096];

			/* the file under the name the loader asks for */
			if (!realpath(path, real))
				continue;
			if (!seen_has(s, path + 1))
				rc = add_file(c, s, path + 1, real, err, errlen);
		}
	}
	fclose(f);
	unlink(log);
	return rc;
}

static bool wanted_root(const char *rel)
{
	for (size_t i = 0; i < sizeof(module_roots) / sizeof(module_roots[0]); i++)
		if (!strncmp(rel, module_roots[i], strlen(module_roots[i])))
			return true;
	return false;
}

/* The module files the roots need, from modules.dep ("mod.ko: dep.ko
 * ..."), and the index files busybox's modprobe reads. */
static int add_modules(struct cpio *c, struct seen *s, const struct vm_kernel *k, char *err, size_t errlen)
{
	static const char *const index[] = { "modules.dep", "modules.alias", "modules.symbols", "modules.builtin",
					     "modules.order", "modules.builtin.modinfo" };
	char path[1200], name[CPIO_NAME_MAX + 1], line[8192], base[600];
	size_t nwant = 0, cap = 0;
	char **want = NULL;
	FILE *f;
	int rc = 0;

	if (!k->modules[0])
		return 0;
	/* where the guest's modprobe looks: lib/modules/`uname -r` */
	snprintf(base, sizeof(base), "lib/modules/%s", k->release[0] ? k->release :
		 strrchr(k->modules, '/') ? strrchr(k->modules, '/') + 1 : k->modules);
	snprintf(path, sizeof(path), "%s/modules.dep", k->modules);
	if (!(f = fopen(path, "r"))) {
		snprintf(err, errlen, "cannot read %.300s: %s", path, strerror(errno));
		return -errno;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *tok, *save;

		if (!colon)
			continue;
		*colon = '\0';
		if (!wanted_root(line))
			continue;
		*colon = ' ';
		for (tok = strtok_r(line, " \t\n", &save); tok && !rc; tok = strtok_r(NULL, " \t\n", &save)) {
			bool dup = false;

			for (size_t i = 0; i < nwant && !dup; i++)
				dup = !strcmp(want[i], tok);
			if (dup)
				continue;
			if (nwant == cap) {
				char **nw = realloc(want, (cap ? cap * 2 : 256) * sizeof(*nw));

				if (!nw) {
					rc = -ENOMEM;
					break;
				}
				want = nw;
				cap = cap ? cap * 2 : 256;
			}
			if (!(want[nwant] = strdup(tok)))
				rc = -ENOMEM;
			else
				nwant++;
		}
	}
	fclose(f);
	for (size_t i = 0; i < nwant && !rc; i++) {
		snprintf(path, sizeof(path), "%s/%s", k->modules, want[i]);
		snprintf(name, sizeof(name), "%s/%s", base, want[i]);
		if (!access(path, R_OK))
			rc = add_file(c, s, name, path, err, errlen);
	}
	for (size_t i = 0; i < sizeof(index) / sizeof(index[0]) && !rc; i++) {
		snprintf(path, sizeof(path), "%s/%s", k->modules, index[i]);
		snprintf(name, sizeof(name), "%s/%s", base, index[i]);
		if (!access(path, R_OK))
			rc = add_file(c, s, name, path, err, errlen);
	}
	for (size_t i = 0; i < nwant; i++)
		free(want[i]);
	free(want);
	return rc;
}

static const char *find_busybox(void)
{
	static const char *const where[] = { "/bin/busybox", "/usr/bin/busybox", "/sbin/busybox" };

	for (size_t i = 0; i < 3; i++)
		if (!access(where[i], X_OK))
			return where[i];
	return NULL;
}

int vm_initrd_build(const char *path, const struct vm_kernel *k, const char *conf, char *err, size_t errlen)
{
	const char *bb = find_busybox();
	char tmp[4200], dir[4096], exe[4096], cfgname[200];
	struct seen s = { 0 };
	struct out o;
	struct cpio c;
	ssize_t n;
	int rc = 0;

	err[0] = '\0';
	if (!bb) {
		snprintf(err, errlen, "busybox is missing: apt-get install busybox-static (the guest's shell and modprobe)");
		return -ENOENT;
	}
	if ((n = readlink("/proc/self/exe", exe, sizeof(exe) - 1)) <= 0) {
		snprintf(err, errlen, "cannot find this program's own file: %s", strerror(errno));
		return -EIO;
	}
	exe[n] = '\0';
	/* the running program's own image, read through /proc: a binary
	 * rebuilt (and so unlinked) while a matrix or bisection runs still
	 * goes into its next guest as the one running */
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	snprintf(dir, sizeof(dir), "%s", path);
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = '\0';
	if ((o.fd = fs_tmp_open(path, tmp, sizeof(tmp))) < 0) {
		snprintf(err, errlen, "cannot write %.300s: %s", path, strerror(-o.fd));
		return o.fd;
	}
	cpio_init(&c, out_write, &o);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !rc; i++)
		rc = add_dirs_above(&c, &s, (snprintf(cfgname, sizeof(cfgname), "%s/", dirs[i]), cfgname));
	if (!rc)
		rc = add_file(&c, &s, "bin/busybox", bb, err, errlen);
	for (size_t i = 0; i < sizeof(busybox_links) / sizeof(busybox_links[0]) && !rc; i++)
		rc = cpio_add(&c, busybox_links[i], S_IFLNK | 0777, "/bin/busybox", strlen("/bin/busybox"));
	if (!rc)
		rc = add_file(&c, &s, "bin/wirerate", exe, err, errlen);
	if (!rc)
		rc = add_libraries(&c, &s, exe, dir, err, errlen);
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]) && !rc; i++) {
		char real[4096];

		if (access(tools[i], X_OK) || !realpath(tools[i], real))
			continue;
		if (!(rc = add_file(&c, &s, tools[i] + 1, real, err, errlen)))
			rc = add_libraries(&c, &s, real, dir, err, errlen);
	}
	if (!rc)
		rc = add_modules(&c, &s, k, err, errlen);
	if (!rc && k->config[0] && k->release[0]) {
		snprintf(cfgname, sizeof(cfgname), "boot/config-%s", k->release);
		rc = add_file(&c, &s, cfgname, k->config, err, errlen);
	}
	if (!rc)
		rc = add_text(&c, &s, "init", 0755, init_script);
	if (!rc)
		rc = add_text(&c, &s, "etc/wirerate/lab.conf", 0644, conf);
	if (!rc)
		rc = add_text(&c, &s, "etc/passwd", 0644, "root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534::/:/bin/false\n");
	if (!rc)
		rc = add_text(&c, &s, "etc/group", 0644, "root:x:0:\nnogroup:x:65534:\n");
	if (!rc)
		rc = cpio_end(&c);
	for (size_t i = 0; i < s.n; i++)
		free(s.names[i]);
	free(s.names);
	if (!rc && (fsync(o.fd) || close(o.fd) || rename(tmp, path)))
		rc = -errno;
	else if (rc)
		close(o.fd);
	if (rc) {
		unlink(tmp);
		if (!err[0])
			snprintf(err, errlen, "writing the initramfs %.300s: %s", path, strerror(-rc));
	}
	return rc;
}
