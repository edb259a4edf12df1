/* A VM lab: the DUT is a virtual machine booting the kernel the user
 * chose (lab up --kernel), its NICs virtio-net on taps in the lab's
 * generator and sink namespaces, where the DUT namespace's veths would
 * be, with the lab's addresses, routes and neighbours; so every test
 * runs on it unchanged. The guest's root is an initramfs (vm_initrd.h)
 * whose `wirerate vm-guest` sets up the DUT's half of the lab and serves
 * `wirerate agent` on virtio-serial ports, which the tester reaches
 * through QEMU's Unix sockets (never ssh, never the test ports).
 *
 * Its files are in /run/wirerate/vm-PREFIX: the state (what was booted,
 * QEMU's pid), the console, QEMU's log, the initramfs, the agents'
 * sockets and their locks. A lab up or down killed at any point leaves
 * a state file or a pid file that the next one finds: it stops that
 * QEMU, and the taps go with it. */
#ifndef WR_LAB_VM_LAB_H
#define WR_LAB_VM_LAB_H

#include <stdbool.h>
#include <stddef.h>

#include "lab/lab.h"

#define LABVM_AGENTS 4		/* agent sessions at once */
#define LABVM_READY "wirerate-guest: ready"
#define LABVM_FAILED "wirerate-guest: error: "
/* The guest's first line on an agent port once its end is open: what the
 * tester wrote before then, the guest's driver threw away. */
#define LABVM_BANNER "{\"ok\":true,\"banner\":\"wirerate agent\"}"
#define LABVM_BANNER_MS 10000	/* a tester waits this long for it, then speaks */

/* Boot (or keep, when it runs what s asks for) the VM lab. */
int vm_lab_up(const struct lab_spec *s, char *err, size_t errlen);
/* Stop the VM and remove its files (its taps go with QEMU); the
 * namespaces are lab_down's. */
int vm_lab_down(const char *prefix, char *err, size_t errlen);
/* Whether prefix's lab is (or was, half) a VM lab: its directory exists. */
bool vm_lab_present(const char *prefix);
/* What it booted, and whether it runs (vm->on false when no VM lab). */
void vm_lab_read(const char *prefix, struct lab_vm *vm, struct lab_spec *booted);
/* A session with the guest's agent: a free port's socket, connected,
 * into *fd, and its lock into *lock (hold it while the session lasts).
 * -ENOENT when the VM is not running, -EBUSY when every port is taken. */
int vm_lab_agent_connect(const char *prefix, int *fd, int *lock, char *err, size_t errlen);

/* The guest's settings, /etc/wirerate/lab.conf: key=value lines. */
int vm_lab_conf_format(const struct lab_spec *s, char *buf, size_t len);
/* Parse them into s (defaults for what is missing); -EINVAL with the
 * line that is wrong. */
int vm_lab_conf_parse(const char *text, struct lab_spec *s, char *err, size_t errlen);

/* The guest's side (run by `wirerate vm-guest` in the VM's root
 * namespace): its NICs found by MAC and named as the lab's DUT ports,
 * then configured as the namespace lab's DUT is, and the IRQs of each
 * port's queues placed on its CPUs. 0 or -errno. */
int vm_guest_setup(const struct lab_spec *s, char *err, size_t errlen);

#endif
