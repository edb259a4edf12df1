#include "os/nl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <libmnl/libmnl.h>
#include <linux/if_link.h>
#include <linux/neighbour.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <linux/gen_stats.h>
#include <linux/veth.h>
#include <linux/if_addr.h>

#include "os/netns.h"
#include "core/ns.h"

struct nl {
	struct mnl_socket *sk;
	unsigned int portid;
	unsigned int seq;
	char *buf;		/* MNL_SOCKET_BUFFER_SIZE */
};

struct nl *nl_create(int nsfd, char *err, size_t errlen)
{
	struct nl *nl = calloc(1, sizeof(*nl));
	int saved = -1, rc;

	if (!nl || !(nl->buf = malloc(MNL_SOCKET_BUFFER_SIZE))) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	if (nsfd >= 0 && (rc = netns_enter(nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter network namespace: %s", strerror(-rc));
		goto fail;
	}
	nl->sk = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (nsfd >= 0)
		netns_leave(&saved);
	if (!nl->sk || mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		snprintf(err, errlen, "cannot open rtnetlink socket: %s", strerror(errno));
		goto fail;
	}
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = (unsigned int)time(NULL);
	{
		int one = 1;
		/* Errors with extended messages; harmless where unsupported. */
		mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
		mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	}
	return nl;
fail:
	nl_destroy(nl);
	return NULL;
}

void nl_destroy(struct nl *nl)
{
	if (!nl)
		return;
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl->buf);
	free(nl);
}

static struct nlmsghdr *msg_start(struct nl *nl, uint16_t type, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++nl->seq;
	return nlh;
}

/* Send nlh and read until the ack (or end of dump); cb sees each reply. */
static int talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	unsigned int seq = nlh->nlmsg_seq;
	int rc;

	/* rtnetlink GET types are 2 mod 4; NLM_F_DUMP shares its bits with
	 * NLM_F_EXCL|NLM_F_REPLACE, which only the NEW types use. */
	bool dump = (nlh->nlmsg_type & 3) == 2 && (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;

	if (!dump)
		nlh->nlmsg_flags |= NLM_F_ACK;
	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		ssize_t n = mnl_socket_recvfrom(nl->sk, nl->buf, MNL_SOCKET_BUFFER_SIZE);

		if (n < 0)
			return -errno;
		rc = mnl_cb_run(nl->buf, (size_t)n, seq, nl->portid, cb, data);
	} while (rc > 0);
	return rc < 0 ? -errno : 0;
}

/* ---- links ---- */

struct link_query {
	const char *name;
	struct link_info *li;
	bool found;
};

static int parse_xdp(const struct nlattr *nest, struct link_info *li)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case IFLA_XDP_ATTACHED:
			li->xdp_mode = mnl_attr_get_u8(a);
			break;
		case IFLA_XDP_PROG_ID:
			li->xdp_prog_id = mnl_attr_get_u32(a);
			break;
		}
	}
	return 0;
}

static int link_cb(const struct nlmsghdr *nlh, void *data)
{
	struct link_query *q = data;
	struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);
	struct link_info li = { .ifindex = ifi->ifi_index };
	const struct nlattr *a;

	li.up = ifi->ifi_flags & IFF_UP;
	li.running = ifi->ifi_flags & (1u << 16); /* IFF_LOWER_UP */
	mnl_attr_for_each(a, nlh, sizeof(*ifi)) {
		switch (mnl_attr_get_type(a)) {
		case IFLA_IFNAME:
			snprintf(li.name, sizeof(li.name), "%s", mnl_attr_get_str(a));
			break;
		case IFLA_ADDRESS:
			if (mnl_attr_get_payload_len(a) == 6)
				memcpy(li.mac, mnl_attr_get_payload(a), 6);
			break;
		case IFLA_NUM_TX_QUEUES:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				li.num_tx_queues = mnl_attr_get_u32(a);
			break;
		case IFLA_NUM_RX_QUEUES:
			if (mnl_attr_validate(a, MNL_TYPE_U32) >= 0)
				li.num_rx_queues = mnl_attr_get_u32(a);
			break;
		case IFLA_MTU:
			li.mtu = mnl_attr_get_u32(a);
			break;
		case IFLA_LINK:
			li.peer_ifindex = (int)mnl_attr_get_u32(a);
			break;
		case IFLA_XDP:
			parse_xdp(a, &li);
			break;
		case IFLA_LINKINFO: {
			const struct nlattr *b;

			mnl_attr_for_each_nested(b, a)
				if (mnl_attr_get_type(b) == IFLA_INFO_KIND)
					snprintf(li.kind, sizeof(li.kind), "%s", mnl_attr_get_str(b));
			break;
		}
		case IFLA_STATS64: {
			struct rtnl_link_stats64 st;

			if (mnl_attr_get_payload_len(a) < sizeof(st))
				break;
			memcpy(&st, mnl_attr_get_payload(a), sizeof(st));
			li.rx_packets = st.rx_packets;
			li.tx_packets = st.tx_packets;
			li.rx_bytes = st.rx_bytes;
			li.tx_bytes = st.tx_bytes;
			li.rx_dropped = st.rx_dropped;
			li.tx_dropped = st.tx_dropped;
			li.rx_errors = st.rx_errors;
			li.tx_errors = st.tx_errors;
			li.rx_missed = st.rx_missed_errors;
			li.rx_fifo = st.rx_fifo_errors;
			li.rx_over = st.rx_over_errors;
			break;
		}
		}
	}
	if (!strcmp(li.name, q->name)) {
		*q->li = li;
		q->found = true;
	}
	return MNL_CB_OK;
}

int nl_link_get(struct nl *nl, const char *name, struct link_info *li)
{
	struct nlmsghdr *nlh = msg_start(nl, RTM_GETLINK, 0);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	struct link_query q = { .name = name, .li = li };
	int rc;

	ifi->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	/* A GET with a name answers with the one link, not an ack. */
	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	{
		ssize_t n = mnl_socket_recvfrom(nl->sk, nl->buf, MNL_SOCKET_BUFFER_SIZE);

		if (n < 0)
			return -errno;
		rc = mnl_cb_run(nl->buf, (size_t)n, nlh->nlmsg_seq, nl->portid, link_cb, &q);
	}
	if (rc < 0)
		return errno == ENODEV ? -ENODEV : -errno;
	return q.found ? 0 : -ENODEV;
}

int nl_link_get_in(int nsfd, const char *name, struct link_info *li)
{
	char e[128];
	struct nl *nl = nl_create(nsfd, e, sizeof(e));
	int rc;

	if (!nl)
		return -EIO;
	rc = nl_link_get(nl, name, li);
	nl_destroy(nl);
	return rc;
}

static struct nlmsghdr *link_msg(struct nl *nl, uint16_t type, uint16_t flags, int ifindex)
{
	struct nlmsghdr *nlh = msg_start(nl, type, flags);
	struct ifinfomsg *ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));

	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_index = ifindex;
	return nlh;
}

int nl_veth_add(struct nl *nl, const char *name, const uint8_t mac[6],
		const char *peer, const uint8_t peer_mac[6], int peer_nsfd, unsigned int queues)
{
	struct nlmsghdr *nlh = link_msg(nl, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL, 0);
	struct nlattr *linkinfo, *data, *peerinfo;
	struct ifinfomsg *pifi;

	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put(nlh, IFLA_ADDRESS, 6, mac);
	/* Always said: veth otherwise allocates a queue per possible CPU and
	 * uses one. */
	mnl_attr_put_u32(nlh, IFLA_NUM_TX_QUEUES, queues ? queues : 1);
	mnl_attr_put_u32(nlh, IFLA_NUM_RX_QUEUES, queues ? queues : 1);
	linkinfo = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "veth");
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	peerinfo = mnl_attr_nest_start(nlh, VETH_INFO_PEER);
	pifi = mnl_nlmsg_get_payload_tail(nlh);
	memset(pifi, 0, sizeof(*pifi));
	nlh->nlmsg_len += MNL_ALIGN(sizeof(*pifi));
	mnl_attr_put_strz(nlh, IFLA_IFNAME, peer);
	mnl_attr_put(nlh, IFLA_ADDRESS, 6, peer_mac);
	mnl_attr_put_u32(nlh, IFLA_NUM_TX_QUEUES, queues ? queues : 1);
	mnl_attr_put_u32(nlh, IFLA_NUM_RX_QUEUES, queues ? queues : 1);
	if (peer_nsfd >= 0)
		mnl_attr_put_u32(nlh, IFLA_NET_NS_FD, (uint32_t)peer_nsfd);
	mnl_attr_nest_end(nlh, peerinfo);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, linkinfo);
	return talk(nl, nlh, NULL, NULL);
}

int nl_link_del(struct nl *nl, int ifindex)
{
	int rc = talk(nl, link_msg(nl, RTM_DELLINK, 0, ifindex), NULL, NULL);

	return rc == -ENODEV ? 0 : rc;
}

int nl_link_up(struct nl *nl, int ifindex, bool up)
{
	struct nlmsghdr *nlh = link_msg(nl, RTM_NEWLINK, 0, ifindex);
	struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	ifi->ifi_change = IFF_UP;
	ifi->ifi_flags = up ? IFF_UP : 0;
	return talk(nl, nlh, NULL, NULL);
}

int nl_link_flags(struct nl *nl, int ifindex, unsigned int set, unsigned int clear)
{
	struct nlmsghdr *nlh = link_msg(nl, RTM_NEWLINK, 0, ifindex);
	struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	ifi->ifi_change = set | clear;
	ifi->ifi_flags = set;
	return talk(nl, nlh, NULL, NULL);
}

int nl_link_mtu(struct nl *nl, int ifindex, unsigned int mtu)
{
	struct nlmsghdr *nlh = link_msg(nl, RTM_NEWLINK, 0, ifindex);

	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	return talk(nl, nlh, NULL, NULL);
}

int nl_link_mac(struct nl *nl, int ifindex, const uint8_t mac[6])
{
	struct nlmsghdr *nlh = link_msg(nl, RTM_NEWLINK, 0, ifindex);

	mnl_attr_put(nlh, IFLA_ADDRESS, 6, mac);
	return talk(nl, nlh, NULL, NULL);
}

int nl_link_rename(struct nl *nl, int ifindex, const char *name)
{
	struct nlmsghdr *nlh = link_msg(nl, RTM_NEWLINK, 0, ifindex);

	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return talk(nl, nlh, NULL, NULL);
}

int nl_xdp_set(struct nl *nl, int ifindex, int prog_fd, uint32_t flags)
{
	struct nlmsghdr *nlh = link_msg(nl, RTM_NEWLINK, 0, ifindex);
	struct nlattr *x = mnl_attr_nest_start(nlh, IFLA_XDP);

	mnl_attr_put_u32(nlh, IFLA_XDP_FD, (uint32_t)prog_fd);
	mnl_attr_put_u32(nlh, IFLA_XDP_FLAGS, flags);
	mnl_attr_nest_end(nlh, x);
	return talk(nl, nlh, NULL, NULL);
}

/* ---- addresses, routes, neighbours ---- */

static size_t alen(int family)
{
	return family == AF_INET6 ? 16 : 4;
}

int nl_addr_add(struct nl *nl, int ifindex, int family, const void *addr,
		unsigned int plen, bool nodad)
{
	struct nlmsghdr *nlh = msg_start(nl, RTM_NEWADDR, NLM_F_CREATE | NLM_F_REPLACE);
	struct ifaddrmsg *ifa = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifa));

	ifa->ifa_family = (uint8_t)family;
	ifa->ifa_prefixlen = (uint8_t)plen;
	ifa->ifa_index = (uint32_t)ifindex;
	if (nodad)
		ifa->ifa_flags = IFA_F_NODAD;
	mnl_attr_put(nlh, IFA_LOCAL, alen(family), addr);
	mnl_attr_put(nlh, IFA_ADDRESS, alen(family), addr);
	return talk(nl, nlh, NULL, NULL);
}

int nl_route_add(struct nl *nl, int family, const void *dst, unsigned int plen,
		 const void *gw, int ifindex)
{
	struct nlmsghdr *nlh = msg_start(nl, RTM_NEWROUTE, NLM_F_CREATE | NLM_F_REPLACE);
	struct rtmsg *rtm = mnl_nlmsg_put_extra_header(nlh, sizeof(*rtm));

	rtm->rtm_family = (uint8_t)family;
	rtm->rtm_dst_len = (uint8_t)plen;
	rtm->rtm_table = RT_TABLE_MAIN;
	rtm->rtm_protocol = RTPROT_STATIC;
	rtm->rtm_scope = gw ? RT_SCOPE_UNIVERSE : RT_SCOPE_LINK;
	rtm->rtm_type = RTN_UNICAST;
	mnl_attr_put(nlh, RTA_DST, alen(family), dst);
	if (gw)
		mnl_attr_put(nlh, RTA_GATEWAY, alen(family), gw);
	mnl_attr_put_u32(nlh, RTA_OIF, (uint32_t)ifindex);
	return talk(nl, nlh, NULL, NULL);
}

int nl_neigh_add(struct nl *nl, int ifindex, int family, const void *addr,
		 const uint8_t mac[6])
{
	struct nlmsghdr *nlh = msg_start(nl, RTM_NEWNEIGH, NLM_F_CREATE | NLM_F_REPLACE);
	struct ndmsg *ndm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ndm));

	ndm->ndm_family = (uint8_t)family;
	ndm->ndm_ifindex = ifindex;
	ndm->ndm_state = NUD_PERMANENT;
	mnl_attr_put(nlh, NDA_DST, alen(family), addr);
	mnl_attr_put(nlh, NDA_LLADDR, 6, mac);
	return talk(nl, nlh, NULL, NULL);
}

/* ---- qdiscs ---- */

static struct nlmsghdr *qdisc_msg(struct nl *nl, uint16_t type, uint16_t flags, int ifindex)
{
	struct nlmsghdr *nlh = msg_start(nl, type, flags);
	struct tcmsg *tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));

	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	tcm->tcm_parent = TC_H_ROOT;
	tcm->tcm_handle = 0x10000; /* 1: */
	return nlh;
}

int nl_qdisc_tbf(struct nl *nl, int ifindex, const struct tbf_params *p)
{
	struct nlmsghdr *nlh = qdisc_msg(nl, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE, ifindex);
	struct tc_tbf_qopt q = { 0 };
	struct tc_sizespec sz = { 0 };
	struct nlattr *opts, *stab;

	if (!p->rate || !p->burst || !p->limit)
		return -EINVAL;
	mnl_attr_put_strz(nlh, TCA_KIND, "tbf");
	/* A size table makes the qdisc count every frame as pkt_size bytes
	 * (a packet-rate shaper), or add the wire overhead to each frame. */
	stab = mnl_attr_nest_start(nlh, TCA_STAB);
	if (p->pkt_size) {
		uint16_t cell = (uint16_t)p->pkt_size;

		sz.cell_log = 17;	/* every length up to 128 KiB lands in slot 0 */
		sz.tsize = 1;
		sz.mpu = p->pkt_size;	/* unused by the kernel; read back by status */
		mnl_attr_put(nlh, TCA_STAB_BASE, sizeof(sz), &sz);
		mnl_attr_put(nlh, TCA_STAB_DATA, sizeof(cell), &cell);
	} else {
		sz.overhead = p->overhead;
		mnl_attr_put(nlh, TCA_STAB_BASE, sizeof(sz), &sz);
	}
	mnl_attr_nest_end(nlh, stab);

	q.rate.rate = p->rate >= (1ULL << 32) ? ~0U : (uint32_t)p->rate;
	q.rate.linklayer = TC_LINKLAYER_ETHERNET;
	q.limit = p->limit;
	opts = mnl_attr_nest_start(nlh, TCA_OPTIONS);
	mnl_attr_put(nlh, TCA_TBF_PARMS, sizeof(q), &q);
	if (p->rate >= (1ULL << 32))
		mnl_attr_put_u64(nlh, TCA_TBF_RATE64, p->rate);
	mnl_attr_put_u32(nlh, TCA_TBF_BURST, p->burst);
	mnl_attr_nest_end(nlh, opts);
	return talk(nl, nlh, NULL, NULL);
}

int nl_qdisc_del_root(struct nl *nl, int ifindex)
{
	struct nlmsghdr *nlh = qdisc_msg(nl, RTM_DELQDISC, 0, ifindex);
	struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	int rc;

	tcm->tcm_handle = 0;
	rc = talk(nl, nlh, NULL, NULL);
	/* No root qdisc (noqueue): the kernel says ENOENT or EINVAL. */
	return rc == -ENOENT || rc == -EINVAL ? 0 : rc;
}

struct qdisc_query {
	int ifindex;
	struct qdisc_info *qi;
};

static void parse_tbf(const struct nlattr *opts, struct qdisc_info *qi)
{
	const struct nlattr *a;
	uint64_t rate64 = 0;
	uint32_t buffer = 0;

	mnl_attr_for_each_nested(a, opts) {
		switch (mnl_attr_get_type(a)) {
		case TCA_TBF_PARMS: {
			struct tc_tbf_qopt q;

			if (mnl_attr_get_payload_len(a) < sizeof(q))
				break;
			memcpy(&q, mnl_attr_get_payload(a), sizeof(q));
			qi->rate = q.rate.rate;
			qi->limit = q.limit;
			buffer = q.buffer;
			break;
		}
		case TCA_TBF_RATE64:
			rate64 = mnl_attr_get_u64(a);
			break;
		}
	}
	if (rate64)
		qi->rate = rate64;
	/* buffer is in psched ticks of 64 ns: burst = rate * time. */
	qi->burst = (uint32_t)((double)qi->rate * ((double)buffer * 64.0) / NSEC_PER_SEC + 0.5);
}

static void parse_stab(const struct nlattr *nest, struct qdisc_info *qi)
{
	const struct nlattr *a;
	struct tc_sizespec sz = { 0 };

	mnl_attr_for_each_nested(a, nest) {
		if (mnl_attr_get_type(a) == TCA_STAB_BASE &&
		    mnl_attr_get_payload_len(a) >= sizeof(sz)) {
			memcpy(&sz, mnl_attr_get_payload(a), sizeof(sz));
			qi->overhead = sz.overhead;
			if (sz.tsize == 1)
				qi->pkt_size = sz.mpu;
		}
	}
}

/* TCA_STATS2, as `tc -s qdisc` shows it: the one parser of it. */
static void parse_stats2(const struct nlattr *nest, struct qdisc_stat *q)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		switch (mnl_attr_get_type(a)) {
		case TCA_STATS_BASIC: {
			struct gnet_stats_basic b;

			if (mnl_attr_get_payload_len(a) < sizeof(b))
				break;
			memcpy(&b, mnl_attr_get_payload(a), sizeof(b));
			q->bytes = b.bytes;
			if (!q->packets)
				q->packets = b.packets;
			break;
		}
		case TCA_STATS_PKT64:
			if (mnl_attr_get_payload_len(a) >= sizeof(uint64_t))
				q->packets = mnl_attr_get_u64(a);
			break;
		case TCA_STATS_QUEUE: {
			struct gnet_stats_queue s;

			if (mnl_attr_get_payload_len(a) < sizeof(s))
				break;
			memcpy(&s, mnl_attr_get_payload(a), sizeof(s));
			q->drops = s.drops;
			q->overlimits = s.overlimits;
			q->requeues = s.requeues;
			q->qlen = s.qlen;
			q->backlog = s.backlog;
			break;
		}
		}
	}
}

static int qdisc_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qdisc_query *q = data;
	struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	struct qdisc_info qi = { 0 };
	const struct nlattr *a, *opts = NULL;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*tcm)) || tcm->tcm_ifindex != q->ifindex ||
	    tcm->tcm_parent != TC_H_ROOT)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*tcm)) {
		switch (mnl_attr_get_type(a)) {
		case TCA_KIND:
			if (mnl_attr_validate(a, MNL_TYPE_STRING) >= 0)
				snprintf(qi.kind, sizeof(qi.kind), "%s", mnl_attr_get_str(a));
			break;
		case TCA_OPTIONS:
			opts = a;
			break;
		case TCA_STAB:
			parse_stab(a, &qi);
			break;
		case TCA_STATS2: {
			struct qdisc_stat st = { 0 };

			parse_stats2(a, &st);
			qi.packets = st.packets;
			qi.bytes = st.bytes;
			qi.drops = st.drops;
			qi.overlimits = st.overlimits;
			qi.qlen = st.qlen;
			break;
		}
		}
	}
	if (opts && !strcmp(qi.kind, "tbf"))
		parse_tbf(opts, &qi);
	*q->qi = qi;
	return MNL_CB_OK;
}

int nl_qdisc_get_root(struct nl *nl, int ifindex, struct qdisc_info *qi)
{
	struct nlmsghdr *nlh = msg_start(nl, RTM_GETQDISC, NLM_F_DUMP);
	struct tcmsg *tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	struct qdisc_query q = { .ifindex = ifindex, .qi = qi };

	memset(qi, 0, sizeof(*qi));
	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	return talk(nl, nlh, qdisc_cb, &q);
}

/* ---- every qdisc's statistics ---- */

struct qdisc_list {
	int ifindex;
	struct qdisc_stat *out;
	unsigned int max, n;
};

static int qdisc_list_cb(const struct nlmsghdr *nlh, void *data)
{
	struct qdisc_list *l = data;
	struct tcmsg *tcm = mnl_nlmsg_get_payload(nlh);
	struct qdisc_stat q = { .ifindex = tcm->tcm_ifindex, .handle = tcm->tcm_handle,
				.parent = tcm->tcm_parent };
	const struct nlattr *a;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*tcm)) || (l->ifindex && tcm->tcm_ifindex != l->ifindex) ||
	    l->n >= l->max)
		return MNL_CB_OK;
	mnl_attr_for_each(a, nlh, sizeof(*tcm)) {
		switch (mnl_attr_get_type(a)) {
		case TCA_KIND:
			if (mnl_attr_validate(a, MNL_TYPE_STRING) >= 0)
				snprintf(q.kind, sizeof(q.kind), "%s", mnl_attr_get_str(a));
			break;
		case TCA_STATS2:
			parse_stats2(a, &q);
			break;
		}
	}
	l->out[l->n++] = q;
	return MNL_CB_OK;
}

int nl_qdisc_list(struct nl *nl, int ifindex, struct qdisc_stat *out, unsigned int max, unsigned int *n)
{
	struct nlmsghdr *nlh = msg_start(nl, RTM_GETQDISC, NLM_F_DUMP);
	struct tcmsg *tcm = mnl_nlmsg_put_extra_header(nlh, sizeof(*tcm));
	struct qdisc_list l = { .ifindex = ifindex, .out = out, .max = max };
	int rc;

	tcm->tcm_family = AF_UNSPEC;
	tcm->tcm_ifindex = ifindex;
	rc = talk(nl, nlh, qdisc_list_cb, &l);
	*n = l.n;
	return rc;
}
