/* Taps: the tester's side of a virtual machine's NIC. A tap made here
 * lives as long as one of its queue descriptors is open, so a QEMU that
 * inherited them takes the tap with it when it ends, killed or not: a
 * VM lab never leaves a tap behind its QEMU. */
#ifndef WR_OS_TAP_H
#define WR_OS_TAP_H

#include <stddef.h>

#define TAP_QUEUES_MAX 8

/* Create tap ifname in the namespace behind nsfd (-1: this one) with
 * queues queue descriptors (multiqueue when more than one), each with a
 * virtio-net header (what QEMU's virtio-net expects), into fds[]. The
 * descriptors are close-on-exec: the caller clears that on the ones a
 * child inherits. -EEXIST when a link of that name is there already;
 * -errno with a one-line reason otherwise, nothing left open. */
int tap_create(int nsfd, const char *ifname, unsigned int queues, int *fds, char *err, size_t errlen);

#endif
