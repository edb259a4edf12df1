/* The embedded device under test: three network namespaces and two veth
 * pairs, the DUT forwarding IPv4 between them on CPUs of its own.
 *
 *   [gen] gen0 198.18.0.1/24 ==veth== dut0 198.18.0.2/24 [dut]
 *         dut1 198.19.0.1/24 ==veth== sink0 198.19.0.2/24 [sink]
 *
 * and IPv6 from 2001:2::/48: gen0 2001:2:0:1::1, dut0 ::2 of that /64,
 * dut1 2001:2:0:2::1, sink0 ::2. The lab's links are NOARP and without
 * multicast, with permanent neighbours, so no ARP, ND, DAD, RS or MLD frame
 * ever reaches a counter.
 *
 * With several ports (lab_spec.ports) the DUT forwards as many parallel
 * paths, each with networks of its own. Path p (0-based) is
 *
 *   [gen] gen<p> 198.18.p.1/24 ==veth== dut<2p> 198.18.p.2/24 [dut]
 *         dut<2p+1> 198.19.p.1/24 ==veth== sink<p> 198.19.p.2/24 [sink]
 *
 * with IPv6 nets 2001:2:0:(1+2p)::/64 and 2001:2:0:(2+2p)::/64 and MACs
 * 02:77:72:p:0:1, :0:2, :1:1, :1:2; path 0 is the one-port lab above.
 */
#ifndef WR_LAB_LAB_H
#define WR_LAB_LAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/units.h"
#include "os/nl.h"
#include "os/ethtool.h"

#define LAB_PREFIX_DEFAULT "wr-"
#define LAB_PREFIX_MAX 24
#define LAB_MTU_MIN 1280	/* IPv6's minimum */
#define LAB_MTU_MAX 9000	/* a 9018-byte frame */
#define LAB_QUEUES_MAX 8	/* a generator thread each, at most (TRIAL_MAX_THREADS) */
#define LAB_PORTS_MAX 4		/* parallel paths through the DUT */
#define LAB_PATH_MAX 511	/* --kernel and --modules */
#define LAB_CMDLINE_MAX 511	/* --kernel-cmdline */
#define LAB_VCPUS_MAX 16
#define LAB_VM_MEMORY_DEFAULT 512	/* MiB */
#define LAB_VM_MEMORY_MIN 192
#define LAB_VM_MEMORY_MAX 65536
#define LAB_VM_BOOT_TIMEOUT 90		/* s: TCG boots a Debian kernel in about 5 */

enum lab_role { LAB_GEN, LAB_DUT, LAB_SINK, LAB_NROLES };
enum lab_ifx { LAB_GEN0, LAB_DUT0, LAB_DUT1, LAB_SINK0, LAB_NIFS };

/* Where the DUT's receive work runs (the three IRQ placements,
 * done with RPS on veth): both directions on one CPU, each direction on a
 * CPU of its own, or spread over all DUT CPUs by flow hash. */
enum lab_placement { PLACE_BOUND, PLACE_SPLIT, PLACE_FREE, PLACE_OTHER };

struct lab_spec {
	char prefix[LAB_PREFIX_MAX + 1];
	struct cpuset dut_cpus;		/* empty = default (the last online CPU) */
	enum lab_placement placement;
	unsigned int rules;		/* null rules in the DUT's forward path */
	unsigned int mtu;		/* of the lab's links; 0 = 1500 */
	unsigned int queues;		/* transmit and receive queues of every lab port; 0 = 1 */
	bool no_xdp;			/* leave the DUT's ingress in plain (skb) mode */
	bool shape;			/* cap the DUT with a token bucket */
	struct rate shape_rate;		/* RATE_PPS or RATE_BPS */
	unsigned int ports;		/* parallel paths through the DUT, 1..LAB_PORTS_MAX; 0 = 1 */
	/* A virtual machine as the DUT (lab up --kernel): its kernel, as
	 * given (a file, or a Debian kernel package version); the rest
	 * only with it. */
	char kernel[LAB_PATH_MAX + 1];
	char modules[LAB_PATH_MAX + 1];	/* --modules DIR: the kernel's modules */
	char cmdline[LAB_CMDLINE_MAX + 1];	/* added to the guest kernel's command line */
	unsigned int vcpus;		/* --dut-cpus N with --kernel; 0 = 1 */
	unsigned int memory_mib;	/* 0 = LAB_VM_MEMORY_DEFAULT */
	unsigned int boot_timeout_s;	/* 0 = LAB_VM_BOOT_TIMEOUT */
	bool soak_calibrate;		/* the guest measures its soak's idle rate as it boots */
};

/* What a VM lab booted (lab status, and every run's environment). */
struct lab_vm {
	bool on;			/* the lab's DUT is a VM */
	bool running;			/* its QEMU is alive and the guest said it was ready */
	int pid;
	char kernel[LAB_PATH_MAX + 1];	/* as given */
	char image[LAB_PATH_MAX + 1];	/* the file booted */
	char source[160];		/* "file", "debian linux-image-6.1.0-57-cloud-amd64 6.1.192-3" */
	char release[72];		/* the guest's uname -r */
	char accel[8];			/* "kvm" or "tcg" */
	unsigned int vcpus, memory_mib;
	char cmdline[LAB_CMDLINE_MAX + 1];	/* the user's part */
	struct cpuset host_cpus;	/* host CPUs QEMU is pinned to; empty: not pinned */
	double boot_s;			/* QEMU start to the guest's agent ready */
	char key[20];			/* what the VM was booted from, hashed: same key, same VM */
};

/* Fixed facts of the topology, for the generator and the analyzer. */
struct lab_addr {
	const char *ns_suffix;		/* "gen", "dut", "sink" */
	const char *ifname;
	enum lab_role role;
	uint8_t mac[6];
	uint8_t ip[4];
	unsigned int plen;
	uint8_t ip6[16];		/* from 2001:2::/48 (RFC 5180), /64 */
};
/* Path 0's interface i. */
const struct lab_addr *lab_if(enum lab_ifx i);
/* Path p's interface i (p < LAB_PORTS_MAX, else NULL); lab_path_if(0, i)
 * == lab_if(i). The pointers are to a constant table: stable, and safe
 * from any thread. */
const struct lab_addr *lab_path_if(unsigned int p, enum lab_ifx i);
void lab_ns_name(const char *prefix, enum lab_role r, char *buf, size_t len);
const char *lab_placement_name(enum lab_placement p);
int lab_placement_parse(const char *s, enum lab_placement *p);

/* Fill defaults and check the spec against this host (CPUs online,
 * enough DUT CPUs for the placement, ranges). Changes nothing; -EINVAL
 * with a one-line reason for bad input. */
int lab_spec_check(struct lab_spec *s, char *err, size_t errlen);
/* A prefix that names namespaces and nothing else: 1..LAB_PREFIX_MAX of
 * letters, digits, '-', '_', '.' (so never a path). */
int lab_prefix_check(const char *prefix, char *err, size_t errlen);
/* The option a command needs to name this lab in a hint: "" for the
 * default lab, else " --prefix P" (in buf, at least LAB_PREFIX_MAX + 12). */
const char *lab_prefix_arg(const char *prefix, char *buf, size_t len);

/* One user of a lab at a time: lab up and down, and every trial,
 * calibration, search or matrix on it, hold the lab's lock
 * (/run/wirerate/lab-PREFIX.lock, an flock, so a killed holder frees it).
 * A second user is refused with err naming the holder: two trials on one
 * DUT would each count the other's load as theirs. 0 with *fd set (-1
 * when a parent process holds the lock for this one: LAB_LOCK_ENV is
 * "PREFIX:FD", FD an inherited descriptor of the lock file, checked); -EBUSY
 * or -errno otherwise. A lab whose last lab up, lab
 * down or matrix was killed mid-way is refused too, except to those that
 * rebuild it (rebuilds). */
#define LAB_LOCK_DIR "/run/wirerate"
#define LAB_LOCK_ENV "WIRERATE_LAB_HELD"
int lab_status_lock(const char *prefix, const char *what, bool rebuilds, int *fd, char *err, size_t errlen);
/* remove_prefix: the lab is gone, its lock file goes too (else NULL) */
void lab_status_unlock(int *fd, const char *remove_prefix);

/* Build or repair the lab so that it matches spec; idempotent. On failure
 * nothing is left half-built: the lab is removed and err says why. */
int lab_up(const struct lab_spec *s, char *err, size_t errlen);
/* Remove everything of the lab, also of a half-built one. */
int lab_down(const char *prefix, char *err, size_t errlen);

struct lab_if_status {
	bool present;
	struct link_info link;
	struct offloads offl;
	bool offl_known;
	struct cpuset rps;
	bool rps_known;
	/* The CPUs that take the port's receive work: its NAPI threads'
	 * (NAPI mode, from the port's alias) or else its RPS mask. */
	struct cpuset cpus;
	bool cpus_known;
};

struct lab_status {
	char prefix[LAB_PREFIX_MAX + 1];
	bool ns_present[LAB_NROLES];
	/* path p's interface i at p * LAB_NIFS + i; ifs[LAB_DUT0] etc. stay
	 * path 0's */
	struct lab_if_status ifs[LAB_PORTS_MAX * LAB_NIFS];
	unsigned int ports;		/* paths present (1 when only path 0, or none) */
	bool complete;			/* every namespace, and every link of every present path, present and up */
	bool exists;			/* any part present */
	bool forwarding;
	int rules;			/* -1 unknown */
	struct qdisc_info shape;	/* on dut1 (path 0's egress; every egress port has the same) */
	struct cpuset dut_cpus;		/* union of the DUT ports' cpus */
	struct cpuset tester_cpus;	/* online CPUs not in dut_cpus */
	enum lab_placement placement;
	unsigned int queues;		/* of the lab's ports (gen0's receive queues) */
	char holder[128];		/* who holds the lab's lock now ("" none) */
	struct lab_vm vm;		/* a VM as the DUT: vm.on */
	bool build_died;		/* a lab up or down was killed mid-way: repair with lab up */
};

int lab_status(const char *prefix, struct lab_status *st, char *err, size_t errlen);

/* A veth pair straight from gen to sink (cal0 -> cal1), no DUT between:
 * the tester measured against itself ('wirerate calibrate'). The receive
 * side gets the same CPUs as sink0. Removed by lab_direct_del, and with
 * the lab by lab_down. */
#define LAB_DIRECT_TX "cal0"
#define LAB_DIRECT_RX "cal1"
int lab_direct_add(const char *prefix, uint8_t tx_mac[6], uint8_t rx_mac[6], char *err, size_t errlen);
int lab_direct_del(const char *prefix, char *err, size_t errlen);

#endif
