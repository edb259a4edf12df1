/* QEMU as a process: the command line of a virtual machine that boots a
 * kernel and an initramfs with virtio-net NICs on taps the caller made
 * and virtio-serial ports on Unix sockets, started as a daemon of its
 * own, its vCPU threads found and pinned, and stopped within a bound.
 * The lab layer decides what the machine is; this only runs it. */
#ifndef WR_OS_QEMU_H
#define WR_OS_QEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/cpuset.h"
#include "os/tap.h"

#define QEMU_BIN "qemu-system-x86_64"
#define QEMU_NICS_MAX 8
#define QEMU_PORTS_MAX 4
#define QEMU_ARGV_MAX 160

struct qemu_nic {
	int fds[TAP_QUEUES_MAX];	/* the tap's queue descriptors, inherited */
	unsigned int queues;
	uint8_t mac[6];			/* the guest's side */
	unsigned int mtu;		/* advertised to the guest (host_mtu) */
};

struct qemu_cfg {
	const char *name;		/* -name: how 'ps' and qemu_alive know it */
	const char *kernel, *initrd, *append;
	unsigned int cpus, memory_mib;
	bool kvm;			/* else TCG, one host thread per vCPU */
	const char *console;		/* the serial console's file */
	const char *pidfile;
	const char *log;		/* QEMU's own messages */
	struct qemu_nic nic[QEMU_NICS_MAX];
	unsigned int nnics;
	const char *port_sock[QEMU_PORTS_MAX];	/* virtio-serial ports, "wirerate.agentK" */
	unsigned int nports;
};

/* Whether a VM runs under KVM here: /dev/kvm answers (KVM's API version
 * 12) and QEMU starts a vCPU of the host's model on it (some nested or
 * paravirtual hosts give a /dev/kvm whose vCPUs refuse QEMU's MSRs, and
 * QEMU aborts). Checked once per process, within 5 s. */
bool qemu_kvm_usable(void);

/* Whether a kernel boots under that KVM: some nested hosts start QEMU's
 * vCPUs, run the BIOS and the kernel's real-mode setup, and then never
 * reach the kernel's first message. Checked by booting image under KVM
 * with no initramfs up to its panic for want of a root, within
 * QEMU_KVM_BOOT_MS; the verdict kept in QEMU_KVM_VERDICT for this boot of
 * the host (its boot_id), so that it costs that once. */
#define QEMU_KVM_BOOT_MS 10000
#define QEMU_KVM_VERDICT "/run/wirerate/kvm-boots"
bool qemu_kvm_boots(const char *image);
/* The verdict kept for this boot: 1 kernels boot under KVM, -1 they
 * hang, 0 not checked. */
int qemu_kvm_verdict(void);
/* The path of qemu-system-x86_64 in PATH into buf, or -ENOENT. */
int qemu_find(char *buf, size_t len);

/* The argument vector for cfg into argv (QEMU_ARGV_MAX entries; the
 * strings in store, len bytes): for tests and for the log. -E2BIG when
 * it does not fit. */
int qemu_argv(const struct qemu_cfg *cfg, const char **argv, char *store, size_t len);

/* Start it: QEMU daemonizes once the machine is made (its taps and
 * sockets open), so a 0 return means it runs, with its pid in *pid. The
 * NICs' descriptors are passed on (and stay open here: the caller closes
 * them). -errno with QEMU's own last line in err otherwise. */
int qemu_start(const struct qemu_cfg *cfg, pid_t *pid, char *err, size_t errlen);

/* Whether pid is a live QEMU started with -name name (a pid reused by
 * another program is not). */
bool qemu_alive(pid_t pid, const char *name);
/* Its vCPU threads ("CPU k/TCG" or "CPU k/KVM"), tid[k] for vCPU k, at
 * most max; returns how many were found. */
int qemu_vcpu_threads(pid_t pid, pid_t *tid, int max);
/* Every thread of pid on cpus (the emulator's own: I/O, the NICs' work),
 * then vCPU k alone on vcpu_cpu[k] where that is >= 0. 0 or -errno. */
int qemu_pin(pid_t pid, const struct cpuset *cpus, const int *vcpu_cpu, int nvcpu);
/* SIGTERM, at most wait_ms for it to end, then SIGKILL and as long
 * again. 0 when it is gone (or was never there), -ETIMEDOUT otherwise. */
int qemu_stop(pid_t pid, const char *name, unsigned int wait_ms);

#endif
