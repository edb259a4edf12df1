/* The lab DUT's ingress in NAPI mode: an XDP pass-through program on its
 * ports and threaded NAPI pinned to the DUT's CPUs. Frames then wait in
 * the port's receive ring until the DUT's CPU takes them, and an overloaded
 * DUT drops from that ring as a NIC does (the sender sees its transmit
 * refused, counted as xdp_xmit_errors), instead of the kernel holding the
 * sender back. */
#ifndef WR_LAB_LAB_XDP_H
#define WR_LAB_LAB_XDP_H

#include <stddef.h>

#include "core/cpuset.h"

struct nl;

/* Attach the pass-through program to ifname (native mode) in the
 * namespace nl talks to, turn on threaded NAPI and pin the NAPI threads to
 * cpus. Must run inside that namespace (netns_run) for the sysfs part.
 * 0 or -errno with a reason. */
int lab_xdp_setup(struct nl *nl, const char *ifname, const struct cpuset *cpus, char *err, size_t errlen);

#endif
