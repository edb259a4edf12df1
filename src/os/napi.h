/* Threaded NAPI: a kernel thread per NAPI instance of an interface, which
 * can be pinned and given a real-time priority as a NIC's interrupt is. */
#ifndef WR_OS_NAPI_H
#define WR_OS_NAPI_H

#include <stddef.h>

#include "core/cpuset.h"

/* Turn on threaded NAPI on ifname (it must have NAPI: XDP attached) and
 * pin the threads that appear to cpus at SCHED_FIFO; empty cpus: threaded,
 * not pinned. Inside the interface's namespace (netns_run). */
int napi_pin(const char *ifname, const struct cpuset *cpus, char *err, size_t errlen);

#endif
