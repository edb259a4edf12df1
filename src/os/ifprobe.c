#include "os/ifprobe.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/sockios.h>

#include <bpf/bpf.h>
#include <libmnl/libmnl.h>

#include "os/netns.h"
#include "os/nl.h"

#ifndef AF_XDP
#define AF_XDP 44
#endif
#ifndef SOL_XDP
#define SOL_XDP 283
#endif

/* The netdev generic netlink family (include/uapi/linux/netdev.h). */
#define NETDEV_CMD_DEV_GET 1
#define NETDEV_A_DEV_IFINDEX 1
#define NETDEV_A_DEV_XDP_FEATURES 3

/* The AF_XDP probe's UMEM: a few frames, enough for a bind. */
#define ZC_FRAMES 16
#define ZC_FRAME 4096

static void driver_name(const char *ifname, struct ifprobe *p)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&di;
	if (!ioctl(fd, SIOCETHTOOL, &ifr))
		snprintf(p->driver, sizeof(p->driver), "%.*s", (int)sizeof(di.driver), di.driver);
	close(fd);
}

/* r0 = XDP_PASS; exit: the smallest program a driver can run. */
static int load_pass(void)
{
	const struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};

	return bpf_prog_load(BPF_PROG_TYPE_XDP, "wr_probe", "GPL", insns, 2, NULL);
}

struct feat_query {
	uint16_t family;
	uint64_t features;
	bool found;
};

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct feat_query *q = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID && mnl_attr_get_payload_len(a) >= 2)
			q->family = mnl_attr_get_u16(a);
	return MNL_CB_OK;
}

static int dev_cb(const struct nlmsghdr *nlh, void *data)
{
	struct feat_query *q = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == NETDEV_A_DEV_XDP_FEATURES && mnl_attr_get_payload_len(a) >= 8) {
			q->features = mnl_attr_get_u64(a);
			q->found = true;
		}
	return MNL_CB_OK;
}

static int genl_ask(struct mnl_socket *sk, char *buf, uint16_t type, uint8_t cmd,
		    void (*put)(struct nlmsghdr *, const void *), const void *arg, mnl_cb_t cb, void *data)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;
	unsigned int seq = 1, portid = mnl_socket_get_portid(sk);
	ssize_t n;
	int rc;

	nlh->nlmsg_type = type;
	/* the ack ends the answer: a GET of one object is no dump */
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = 1;
	put(nlh, arg);
	if (mnl_socket_sendto(sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		if ((n = mnl_socket_recvfrom(sk, buf, MNL_SOCKET_BUFFER_SIZE)) < 0)
			return -errno;
		rc = mnl_cb_run(buf, (size_t)n, seq, portid, cb, data);
	} while (rc > 0);
	return rc < 0 ? -errno : 0;
}

static void put_name(struct nlmsghdr *nlh, const void *arg)
{
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, arg);
}

static void put_ifindex(struct nlmsghdr *nlh, const void *arg)
{
	mnl_attr_put_u32(nlh, NETDEV_A_DEV_IFINDEX, *(const uint32_t *)arg);
}

/* xdp-features of ifindex, from the socket's namespace (the caller's
 * thread's). -ENOENT: no netdev family (before Linux 6.3). */
static int xdp_features(uint32_t ifindex, uint64_t *out)
{
	struct mnl_socket *sk = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	char *buf = malloc(MNL_SOCKET_BUFFER_SIZE);
	struct feat_query q = { 0 };
	int rc;

	if (!sk || !buf) {
		rc = -ENOMEM;
		goto out;
	}
	if (mnl_socket_bind(sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = -errno;
		goto out;
	}
	rc = genl_ask(sk, buf, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, put_name, "netdev", family_cb, &q);
	if (rc || !q.family) {
		rc = -ENOENT;
		goto out;
	}
	rc = genl_ask(sk, buf, q.family, NETDEV_CMD_DEV_GET, put_ifindex, &ifindex, dev_cb, &q);
	if (!rc && !q.found)
		rc = -ENOENT;
	if (!rc)
		*out = q.features;
out:
	if (sk)
		mnl_socket_close(sk);
	free(buf);
	return rc;
}

/* Attach in driver mode and detach at once. The link goes when its fd is
 * closed: nothing stays attached, even if this process dies here. */
static void try_native(int ifindex, struct ifprobe *p)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_DRV_MODE);
	int prog = load_pass(), link;
	uint64_t f;

	if (prog < 0) {
		p->native_xdp = IFPROBE_UNKNOWN;
		snprintf(p->native_why, sizeof(p->native_why), "cannot load a BPF program: %s", strerror(-prog));
		return;
	}
	link = bpf_link_create(prog, ifindex, BPF_XDP, &lo);
	if (link < 0) {
		int e = errno;

		p->native_xdp = e == EOPNOTSUPP || e == EINVAL ? IFPROBE_NO : IFPROBE_UNKNOWN;
		snprintf(p->native_why, sizeof(p->native_why), "attaching in driver mode: %s", strerror(e));
	} else {
		p->native_xdp = IFPROBE_YES;
		/* some drivers take XDP frames to send only while a program runs */
		if (p->features_known && !xdp_features((uint32_t)ifindex, &f))
			p->features_attached = f;
		close(link);
	}
	close(prog);
}

/* Bind an AF_XDP socket with XDP_ZEROCOPY to queue 0 and close it. */
static void try_zerocopy(int ifindex, struct ifprobe *p)
{
	struct xdp_umem_reg mr = { .len = ZC_FRAMES * ZC_FRAME, .chunk_size = ZC_FRAME };
	struct sockaddr_xdp sx = { .sxdp_family = AF_XDP, .sxdp_ifindex = (uint32_t)ifindex,
				   .sxdp_queue_id = 0, .sxdp_flags = XDP_ZEROCOPY };
	int n = ZC_FRAMES, fd, e = 0;
	void *area;

	p->zerocopy = IFPROBE_UNKNOWN;
	area = mmap(NULL, mr.len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (area == MAP_FAILED) {
		snprintf(p->zerocopy_why, sizeof(p->zerocopy_why), "mmap: %s", strerror(errno));
		return;
	}
	mr.addr = (uint64_t)(uintptr_t)area;
	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(p->zerocopy_why, sizeof(p->zerocopy_why), "no AF_XDP sockets: %s", strerror(errno));
		munmap(area, mr.len);
		return;
	}
	if (setsockopt(fd, SOL_XDP, XDP_UMEM_REG, &mr, sizeof(mr)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_FILL_RING, &n, sizeof(n)) ||
	    setsockopt(fd, SOL_XDP, XDP_UMEM_COMPLETION_RING, &n, sizeof(n)) ||
	    setsockopt(fd, SOL_XDP, XDP_RX_RING, &n, sizeof(n))) {
		snprintf(p->zerocopy_why, sizeof(p->zerocopy_why), "setting up an AF_XDP socket: %s", strerror(errno));
	} else if (bind(fd, (struct sockaddr *)&sx, sizeof(sx))) {
		e = errno;
		/* EOPNOTSUPP: the driver has no zero-copy; EBUSY: the queue is taken */
		p->zerocopy = e == EOPNOTSUPP || e == EINVAL ? IFPROBE_NO : IFPROBE_UNKNOWN;
		snprintf(p->zerocopy_why, sizeof(p->zerocopy_why), "binding with XDP_ZEROCOPY: %s", strerror(e));
	} else {
		p->zerocopy = IFPROBE_YES;
	}
	close(fd);
	munmap(area, mr.len);
}

int ifprobe_run(int nsfd, const char *ifname, struct ifprobe *p, char *err, size_t errlen)
{
	struct link_info li;
	int saved = -1, rc;

	memset(p, 0, sizeof(*p));
	p->native_xdp = p->zerocopy = IFPROBE_UNKNOWN;
	if (nsfd >= 0 && (rc = netns_enter(nsfd, &saved))) {
		snprintf(err, errlen, "%s: cannot enter its namespace: %s", ifname, strerror(-rc));
		return rc;
	}
	if ((rc = nl_link_get_in(-1, ifname, &li))) {
		snprintf(err, errlen, "%s: %s", ifname, rc == -ENODEV ? "no such interface" : strerror(-rc));
		goto out;
	}
	driver_name(ifname, p);
	p->features_known = !xdp_features((uint32_t)li.ifindex, &p->features);
	p->xdp_prog_id = li.xdp_prog_id;
	if (li.xdp_prog_id) {
		/* never replace someone's program to find out */
		p->native_xdp = li.xdp_mode == XDP_ATTACHED_DRV ? IFPROBE_YES : IFPROBE_UNKNOWN;
		snprintf(p->native_why, sizeof(p->native_why), "an XDP program (id %u) is attached already",
			 li.xdp_prog_id);
	} else {
		try_native(li.ifindex, p);
	}
	try_zerocopy(li.ifindex, p);
out:
	if (nsfd >= 0)
		netns_leave(&saved);
	return rc;
}

int ifprobe_xdp_hold(int nsfd, const char *ifname, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_DRV_MODE);
	int saved = -1, prog, link = -1, ifindex, rc;

	if (nsfd >= 0 && (rc = netns_enter(nsfd, &saved))) {
		snprintf(err, errlen, "%s: cannot enter its namespace: %s", ifname, strerror(-rc));
		return rc;
	}
	ifindex = (int)if_nametoindex(ifname);
	prog = load_pass();
	if (!ifindex || prog < 0) {
		rc = !ifindex ? -ENODEV : prog;
		snprintf(err, errlen, "%s: %s", ifname, !ifindex ? "no such interface" : "cannot load a BPF program");
	} else if ((link = bpf_link_create(prog, ifindex, BPF_XDP, &lo)) < 0) {
		rc = -errno;
		snprintf(err, errlen, "attaching a pass-through XDP program to %s: %s", ifname, strerror(-rc));
	}
	if (prog >= 0)
		close(prog);	/* the link holds the program */
	if (nsfd >= 0)
		netns_leave(&saved);
	return link >= 0 ? link : rc;
}
