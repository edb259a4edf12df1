/* What one interface offers the fast paths, found by trying: its driver,
 * whether it runs an XDP program in native (driver) mode, whether an
 * AF_XDP socket binds to it in zero-copy mode, and what the kernel says
 * it can do with XDP frames (the netdev family's xdp-features, Linux 6.3
 * and later). src/app decides the path from these facts. */
#ifndef WR_OS_IFPROBE_H
#define WR_OS_IFPROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* xdp-features bits (include/uapi/linux/netdev.h), named here because
 * older headers lack them. */
#define IFPROBE_XDP_BASIC	(1u << 0)
#define IFPROBE_XDP_REDIRECT	(1u << 1)
#define IFPROBE_XDP_NDO_XMIT	(1u << 2)	/* takes XDP frames to transmit */
#define IFPROBE_XDP_ZEROCOPY	(1u << 3)

enum ifprobe_ans { IFPROBE_NO = 0, IFPROBE_YES = 1, IFPROBE_UNKNOWN = -1 };

struct ifprobe {
	char driver[33];		/* ethtool's driver name; "" when it says none */
	uint32_t xdp_prog_id;		/* a program someone attached already; 0: none */
	enum ifprobe_ans native_xdp;	/* a program attached in driver mode */
	char native_why[160];		/* the error when no, what was seen when unknown */
	enum ifprobe_ans zerocopy;	/* an AF_XDP socket bound with XDP_ZEROCOPY */
	char zerocopy_why[160];
	bool features_known;		/* the kernel said xdp-features */
	uint64_t features;		/* IFPROBE_XDP_*, as it is now */
	uint64_t features_attached;	/* the same while our program was attached (0: not tried) */
};

/* Probe ifname in the namespace behind nsfd (-1: ours). The XDP program
 * is attached through a BPF link, which the kernel detaches when it is
 * closed, whatever happens to this process; the AF_XDP socket is closed
 * before returning. -ENODEV: no such interface; other -errno: the probe
 * itself failed (err says why). Needs CAP_NET_ADMIN and CAP_BPF. */
int ifprobe_run(int nsfd, const char *ifname, struct ifprobe *p, char *err, size_t errlen);
/* Keep a pass-through XDP program on ifname in driver mode while the
 * returned fd (a BPF link) is open: drivers that transmit XDP frames only
 * while a program runs on the port need one for the XDP generator. Closing
 * the fd, or the process ending, detaches it. -errno with a reason. */
int ifprobe_xdp_hold(int nsfd, const char *ifname, char *err, size_t errlen);

#endif
