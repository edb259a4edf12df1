/* Pieces of the lab shared by its files (lab.c builds and removes the
 * lab; lab_status.c locks and inspects it; lab_direct.c adds the calibration
 * pair): not for use outside src/sys/lab*.c. */
#ifndef WR_LAB_LAB_IMPL_H
#define WR_LAB_LAB_IMPL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/cpuset.h"
#include "lab/lab.h"
#include "os/nl.h"
#include "os/stop.h"

/* The lab's namespaces and a netlink socket in each. */
struct lab_ctx {
	const struct lab_spec *spec;
	int nsfd[LAB_NROLES];
	struct nl *nl[LAB_NROLES];
	unsigned int ports;		/* paths being built */
	/* The roles built here, a bit each (1 << LAB_GEN ...): all three for
	 * the namespace lab; the tester's two for a VM lab, whose DUT role
	 * the guest builds in its own root namespace (nsfd -1). */
	unsigned int roles;
	struct cpuset rps[LAB_PORTS_MAX * LAB_NIFS];	/* path p's interface i at p * LAB_NIFS + i */
};

/* Open every namespace (all) or those present; 0 or -errno. */
int lab_ctx_open(struct lab_ctx *c, const char *prefix, bool all, char *err, size_t errlen);
void lab_ctx_close(struct lab_ctx *c);

/* err = "what ifname: reason" when rc is non-zero; returns rc. */
int lab_nl_err(int rc, const char *what, const char *ifname, char *err, size_t errlen);

/* The RPS mask of every receive queue of ifname (inside its namespace). */
int lab_write_cpus(const char *ifname, const struct cpuset *cpus, char *err, size_t errlen);

#define NAPI_ALIAS "wirerate: receive on CPUs "

/* Record in ifname's alias the CPUs its pinned NAPI threads run on, or
 * clear it (cpus NULL): 'lab status' reads it (inside its namespace). */
int lab_write_napi_cpus(const char *ifname, const struct cpuset *cpus, char *err, size_t errlen);

struct sysctl_kv {
	const char *path;
	const char *value;
	bool optional;		/* absent on older kernels: skip */
};
/* Each path is under /proc/sys/net/, with "IF" replaced by ifname. */
int lab_write_sysctls(const struct sysctl_kv *kv, size_t n, const char *ifname, char *err, size_t errlen);

/* The roles of c->roles, for c->ports paths: links flagged, sysctls,
 * RPS, rules, offloads, MTU, addresses, routes and neighbours, shaping;
 * the links exist already (veth pairs, taps, or the guest's NICs). */
int lab_configure(struct lab_ctx *c, char *err, size_t errlen);
#define LAB_ROLE(r) (1u << (r))
#define LAB_ALL_ROLES (LAB_ROLE(LAB_GEN) | LAB_ROLE(LAB_DUT) | LAB_ROLE(LAB_SINK))


#endif
