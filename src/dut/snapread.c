#include "dut/snapread.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "core/snmp.h"
#include "os/clock.h"
#include "os/ethtool.h"
#include "os/nft.h"
#include "os/nl.h"
#include "os/procstat.h"

/* /proc/net is the namespace of the process's first thread; a thread that
 * entered another namespace sees its own under /proc/thread-self/net. */
#define NET_DIR "/proc/thread-self/net/"

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

enum snapread_stat snapread_stat_kind(const char *name)
{
	if (ends_with(name, "xdp_drops") || ends_with(name, "xdp_drop"))
		return SNAP_STAT_XDP_DROP;
	if (ends_with(name, "xdp_tx_errors") || ends_with(name, "xdp_xmit_errors") ||
	    ends_with(name, "xdp_tx_err") || ends_with(name, "xdp_xmit_err"))
		return SNAP_STAT_XDP_TX_ERR;
	/* a queue's receive count: veth counts every frame in
	 * rx_queue_N_xdp_packets, virtio in both (the larger is kept) */
	if (!strncmp(name, "rx", 2) && ends_with(name, "packets"))
		return SNAP_STAT_PACKETS;
	if (strstr(name, "xdp"))
		return SNAP_STAT_NONE;
	/* veth and virtio: rx_queue_N_drops; Intel: rx_no_buffer_count;
	 * mlx5: rx_out_of_buffer. rx_missed and rx_fifo_errors come from
	 * rtnetlink already. */
	if (!strncmp(name, "rx", 2) && (ends_with(name, "_drops") || ends_with(name, "_dropped")))
		return SNAP_STAT_RING;
	if (!strcmp(name, "rx_no_buffer_count") || !strcmp(name, "rx_out_of_buffer"))
		return SNAP_STAT_RING;
	return SNAP_STAT_NONE;
}

int snapread_stat_queue(const char *name)
{
	static const char *const pre[] = { "rx_queue_", "rx-", "rx_q", "rxq", "rx" };

	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		size_t n = strlen(pre[i]);
		const char *p = name + n;
		long q = 0;

		if (strncmp(name, pre[i], n) || *p < '0' || *p > '9')
			continue;
		for (; *p >= '0' && *p <= '9' && q < 1000000; p++)
			q = q * 10 + (*p - '0');
		return (*p == '_' || *p == '.') && q < 1000000 ? (int)q : -1;
	}
	return -1;
}

struct stat_sum {
	uint64_t queue[SNAP_STAT_KINDS], total[SNAP_STAT_KINDS];	/* by enum snapread_stat */
	bool any;
	struct dutsnap_if *o;		/* its per-queue counters */
};

static void stat_cb(void *ctx, const char *name, uint64_t v)
{
	struct stat_sum *s = ctx;
	enum snapread_stat k = snapread_stat_kind(name);
	int q;

	if (k == SNAP_STAT_NONE)
		return;
	if ((q = snapread_stat_queue(name)) >= 0 && q < DUTSNAP_QUEUE_MAX) {
		struct dutsnap_queue *dq = &s->o->queue[q];

		if (k == SNAP_STAT_PACKETS)
			dq->packets = v > dq->packets ? v : dq->packets;
		else if (k == SNAP_STAT_RING)
			dq->ring_drops += v;
		else if (k == SNAP_STAT_XDP_DROP)
			dq->xdp_drops += v;
		if ((unsigned int)q >= s->o->nqueue)
			s->o->nqueue = (unsigned int)q + 1;
	}
	if (k == SNAP_STAT_PACKETS)
		return;
	s->any = true;
	if (strpbrk(name, "0123456789"))
		s->queue[k] += v;
	else
		s->total[k] += v;
}

static uint64_t larger(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

static void read_if(struct nl *nl, int sock, const char *name, struct dutsnap_if *o, int *ifindex)
{
	struct link_info li;
	struct stat_sum ss = { .o = o };

	snprintf(o->name, sizeof(o->name), "%s", name);
	*ifindex = 0;
	if (strlen(name) >= IF_NAMESIZE || nl_link_get(nl, name, &li))
		return;
	*ifindex = li.ifindex;
	o->present = true;
	o->rx_packets = li.rx_packets;
	o->tx_packets = li.tx_packets;
	o->rx_bytes = li.rx_bytes;
	o->tx_bytes = li.tx_bytes;
	o->rx_dropped = li.rx_dropped;
	o->tx_dropped = li.tx_dropped;
	o->rx_errors = li.rx_errors;
	o->tx_errors = li.tx_errors;
	o->rx_missed = li.rx_missed;
	o->rx_fifo = li.rx_fifo;
	o->rx_over = li.rx_over;
	if (sock >= 0 && !ethtool_stats(sock, name, stat_cb, &ss) && ss.any) {
		o->have_xdp = true;
		o->xdp_drops = larger(ss.queue[SNAP_STAT_XDP_DROP], ss.total[SNAP_STAT_XDP_DROP]);
		o->xdp_tx_errors = larger(ss.queue[SNAP_STAT_XDP_TX_ERR], ss.total[SNAP_STAT_XDP_TX_ERR]);
		o->ring_drops = larger(ss.queue[SNAP_STAT_RING], ss.total[SNAP_STAT_RING]);
	}
}

static void read_stack(struct dutsnap_stack *st)
{
	static const char *const pairs[] = { NET_DIR "snmp", NET_DIR "netstat" };
	char e[128], *t;

	for (size_t i = 0; i < 2; i++)
		if (!procstat_slurp("/", pairs[i], &t, e, sizeof(e))) {
			snmp_parse_pairs(t, st);
			free(t);
		}
	if (!procstat_slurp("/", NET_DIR "snmp6", &t, e, sizeof(e))) {
		snmp_parse_snmp6(t, st);
		free(t);
	}
}

int snapread(const char *const *ifnames, unsigned int n, struct dutsnap *s, char *err, size_t errlen)
{
	struct qdisc_stat *qs = NULL;
	struct nft_drop_rule *rules = NULL;
	int ifindex[DUTSNAP_IF_MAX] = { 0 };
	unsigned int nq = 0, nr = 0;
	char e[160];
	struct nl *nl;
	int sock, rc;

	memset(s, 0, sizeof(*s));
	s->t_ns = clock_mono_ns();
	if ((rc = procstat_slurp("/", "/proc/stat", &s->proc_stat, err, errlen)))
		return rc;
	if (procstat_slurp("/", "/proc/interrupts", &s->proc_interrupts, e, sizeof(e)))
		s->proc_interrupts = NULL;
	if (procstat_slurp("/", "/proc/softirqs", &s->proc_softirqs, e, sizeof(e)))
		s->proc_softirqs = NULL;
	if (procstat_slurp("/", NET_DIR "softnet_stat", &s->proc_softnet, e, sizeof(e)))
		s->proc_softnet = NULL;
	read_stack(&s->stack);

	if (!(nl = nl_create(-1, err, errlen))) {
		dutsnap_clear(s);
		return -EIO;
	}
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	s->nif = n < DUTSNAP_IF_MAX ? n : DUTSNAP_IF_MAX;
	for (unsigned int i = 0; i < s->nif; i++)
		read_if(nl, sock, ifnames[i] ? ifnames[i] : "", &s->ifs[i], &ifindex[i]);
	if (sock >= 0)
		close(sock);

	/* Every qdisc, kept when it is on a named interface. */
	qs = calloc(4 * DUTSNAP_QDISC_MAX, sizeof(*qs));
	if (qs && !nl_qdisc_list(nl, 0, qs, 4 * DUTSNAP_QDISC_MAX, &nq))
		for (unsigned int i = 0; i < nq && s->nqdisc < DUTSNAP_QDISC_MAX; i++)
			for (unsigned int j = 0; j < s->nif; j++) {
				struct dutsnap_qdisc *q;

				if (!ifindex[j] || ifindex[j] != qs[i].ifindex)
					continue;
				q = &s->qdisc[s->nqdisc++];
				memcpy(q->dev, s->ifs[j].name, sizeof(q->dev));
				snprintf(q->kind, sizeof(q->kind), "%s", qs[i].kind);
				q->handle = qs[i].handle;
				q->parent = qs[i].parent;
				q->packets = qs[i].packets;
				q->bytes = qs[i].bytes;
				q->drops = qs[i].drops;
				q->overlimits = qs[i].overlimits;
				q->requeues = qs[i].requeues;
				q->qlen = qs[i].qlen;
				q->backlog = qs[i].backlog;
				break;
			}
	free(qs);
	nl_destroy(nl);

	rules = calloc(DUTSNAP_NFT_MAX, sizeof(*rules));
	if (rules && !nft_drop_counters(rules, DUTSNAP_NFT_MAX, &nr, e, sizeof(e)))
		for (unsigned int i = 0; i < nr && i < DUTSNAP_NFT_MAX; i++) {
			struct dutsnap_nft *o = &s->nft[s->nnft++];

			snprintf(o->family, sizeof(o->family), "%s", rules[i].family);
			snprintf(o->table, sizeof(o->table), "%s", rules[i].table);
			snprintf(o->chain, sizeof(o->chain), "%s", rules[i].chain);
			o->handle = rules[i].handle;
			o->packets = rules[i].packets;
			o->bytes = rules[i].bytes;
		}
	free(rules);
	return 0;
}
