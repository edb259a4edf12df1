/* The initramfs a VM lab's guest boots into, built from what the tester
 * already has, so nothing is installed in the guest: busybox (Debian's
 * busybox-static) for the shell and modprobe, this very wirerate binary
 * with the shared libraries it was linked with (the guest runs
 * `wirerate vm-guest`, which sets up the DUT and serves the agent), the
 * kernel's network and virtio modules with their dependencies, its build
 * configuration, and the lab's settings (lab.conf). One uncompressed
 * cpio archive: the kernel unpacks it faster than it would inflate one. */
#ifndef WR_LAB_VM_INITRD_H
#define WR_LAB_VM_INITRD_H

#include <stddef.h>

#include "lab/vm_kernel.h"

/* Write the initramfs for kernel k with the guest settings conf (the
 * text of /etc/wirerate/lab.conf) to path (through a file renamed over
 * it when whole). 0, or -errno with a one-line reason (busybox missing:
 * install busybox-static). */
int vm_initrd_build(const char *path, const struct vm_kernel *k, const char *conf, char *err, size_t errlen);

#endif
