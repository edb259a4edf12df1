/* The kernel a VM lab boots: a file the user names (a developer's fresh
 * bzImage, with --modules DIR when its drivers are modules), or a Debian
 * kernel package version ("6.1.0-57-cloud-amd64", "6.12.*-rt-amd64"),
 * fetched with apt-get download and unpacked with dpkg-deb into
 * wirerate's cache (WIRERATE_CACHE, default /var/cache/wirerate): never
 * installed, never in the tester's /boot. A package is unpacked beside
 * its final place and renamed there when whole (modules decompressed,
 * their dependencies listed by busybox depmod), under the cache's lock,
 * so a killed fetch leaves nothing another takes for a kernel. */
#ifndef WR_LAB_VM_KERNEL_H
#define WR_LAB_VM_KERNEL_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/lab.h"

#define VMKERNEL_CACHE_DEFAULT "/var/cache/wirerate"
#define VMKERNEL_FETCH_S 600	/* apt-get download, at most */

struct vm_kernel {
	char image[LAB_PATH_MAX + 1];	/* the file QEMU boots */
	char modules[LAB_PATH_MAX + 1];	/* lib/modules/RELEASE, or "" (no modules) */
	char config[LAB_PATH_MAX + 1];	/* its build configuration, or "" */
	char release[72];		/* from the image's header (or the package) */
	char source[160];		/* "file" or "debian PACKAGE VERSION" */
	bool package;
};

/* The cache's root (WIRERATE_CACHE or the default) into buf. */
const char *vm_kernel_cache_root(char *buf, size_t len);

/* Resolve given (and modules, for a file) into k; a package not yet in
 * the cache is fetched when fetch is set (else -ENOENT). -EINVAL with a
 * one-line reason for bad input: a file that is missing or not a kernel,
 * a --modules directory without modules.dep, an unknown package version;
 * -EIO when apt-get or dpkg-deb failed (their log's last line in err). */
int vm_kernel_resolve(const char *given, const char *modules, bool fetch, struct vm_kernel *k,
		     char *err, size_t errlen);

/* The kernels in the cache, "RELEASE (PACKAGE VERSION)" each, one a
 * line, into buf; how many. */
int vm_kernel_cached(char *buf, size_t len);

#endif
