/* AF_PACKET ports: PACKET_TX_RING (TPACKET_V2) with PACKET_QDISC_BYPASS for
 * transmit, a TPACKET_V3 block ring for receive, and a sendmmsg fallback. */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/virtio_net.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "io/ifcount.h"
#include "core/ns.h"
#include "io/port.h"
#include "io/port_impl.h"
#include "os/netns.h"
#include "os/nl.h"

#define MMSG_BATCH 64

static void afp_close(void *vp);

struct afp {
	enum port_type type;
	int ifindex;
	/* transmit */
	int txfd;
	uint8_t *tx_map;
	size_t tx_map_len;
	unsigned int tx_nslots, tx_slot_size, tx_data_off;
	unsigned int tx_vnet;		/* bytes of virtio_net_hdr before each frame */
	unsigned int tx_cursor;		/* next slot to hand out */
	uint8_t *tx_mem;		/* mmsg: plain slots */
	unsigned int *tx_len;		/* mmsg: submitted lengths */
	unsigned int mmsg_first, mmsg_n;	/* mmsg: submitted run */
	/* receive */
	int rxfd;
	uint8_t *rx_map;
	size_t rx_map_len;
	unsigned int rx_block_size, rx_nblocks, rx_block;
	struct nl *nl;			/* for the interface's own drop counter */
	char ifname[IF_NAMESIZE];
	struct ifcount if0;		/* the interface's drop counters at open */
	struct port_stats st;
};

static int open_socket(const struct port_cfg *cfg, int *fd, char *err, size_t errlen)
{
	int saved = -1, rc;

	if (cfg->nsfd >= 0 && (rc = netns_enter(cfg->nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the namespace of %s: %s", cfg->ifname, strerror(-rc));
		return rc;
	}
	/* Protocol 0: receives nothing until bound with a protocol. */
	*fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	rc = *fd < 0 ? -errno : 0;
	if (saved >= 0)
		netns_leave(&saved);
	if (rc)
		snprintf(err, errlen, "cannot open an AF_PACKET socket: %s", strerror(-rc));
	return rc;
}

static int bind_to(int fd, int ifindex, uint16_t proto, const char *ifname, char *err, size_t errlen)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = ifindex, .sll_protocol = proto };

	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll))) {
		snprintf(err, errlen, "cannot bind to %s: %s", ifname, strerror(errno));
		return -errno;
	}
	return 0;
}

static int ifindex_in_ns(const struct port_cfg *cfg, char *err, size_t errlen)
{
	int saved = -1, rc, idx;

	if (cfg->nsfd >= 0 && (rc = netns_enter(cfg->nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the namespace of %s: %s", cfg->ifname, strerror(-rc));
		return rc;
	}
	idx = (int)if_nametoindex(cfg->ifname);
	rc = idx ? idx : -ENODEV;
	if (saved >= 0)
		netns_leave(&saved);
	if (rc < 0)
		snprintf(err, errlen, "no interface '%s'%s", cfg->ifname, cfg->nsfd >= 0 ? " in that namespace" : "");
	return rc;
}

static int tx_ring_open(struct afp *p, const struct port_cfg *cfg, char *err, size_t errlen)
{
	struct tpacket_req req;
	unsigned int frames_per_block, block_size;
	int v = TPACKET_V2, one = 1, rc;

	if ((rc = open_socket(cfg, &p->txfd, err, errlen)))
		return rc;
	if (setsockopt(p->txfd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v))) {
		snprintf(err, errlen, "TPACKET_V2: %s", strerror(errno));
		return -errno;
	}
	/* Not fatal: without it frames pass the qdisc, which costs rate. */
	setsockopt(p->txfd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one));
	/* With a virtio_net_hdr whose hdr_len is the whole frame, the kernel
	 * copies the frame into the skb's linear part instead of pointing
	 * page fragments at the ring, which veth must then copy page by page
	 * when the frame crosses into another namespace. */
	if (!setsockopt(p->txfd, SOL_PACKET, PACKET_VNET_HDR, &one, sizeof(one)))
		p->tx_vnet = sizeof(struct virtio_net_hdr);
	p->tx_data_off = TPACKET2_HDRLEN - sizeof(struct sockaddr_ll) + p->tx_vnet;
	p->tx_slot_size = port_pow2_at_least(p->tx_data_off + cfg->frame_max);
	if (p->tx_slot_size < 2048)
		p->tx_slot_size = 2048;
	block_size = p->tx_slot_size * 32;
	frames_per_block = block_size / p->tx_slot_size;
	p->tx_nslots = port_pow2_at_least(cfg->tx_slots ? cfg->tx_slots : 4096);
	if (p->tx_nslots < frames_per_block)
		p->tx_nslots = frames_per_block;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = block_size;
	req.tp_block_nr = p->tx_nslots / frames_per_block;
	req.tp_frame_size = p->tx_slot_size;
	req.tp_frame_nr = p->tx_nslots;
	if (setsockopt(p->txfd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req))) {
		snprintf(err, errlen, "PACKET_TX_RING (%u frames of %u B): %s", req.tp_frame_nr,
			 req.tp_frame_size, strerror(errno));
		return -errno;
	}
	/* Let the whole ring be in flight: a frame stays charged to this
	 * socket until the far end frees it, and with the default send
	 * buffer (~270 small frames) a slow DUT would throttle the generator
	 * instead of dropping from its receive queue as a router does. */
	{
		int sndbuf = (int)(p->tx_nslots > 65536 ? 65536 : p->tx_nslots) * (int)(p->tx_slot_size + 1024);

		if (setsockopt(p->txfd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)))
			setsockopt(p->txfd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	}
	p->tx_map_len = (size_t)req.tp_block_size * req.tp_block_nr;
	p->tx_map = mmap(NULL, p->tx_map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, p->txfd, 0);
	if (p->tx_map == MAP_FAILED) {
		p->tx_map = NULL;
		snprintf(err, errlen, "cannot map the TX ring: %s", strerror(errno));
		return -errno;
	}
	return bind_to(p->txfd, p->ifindex, 0, cfg->ifname, err, errlen);
}

static int tx_mmsg_open(struct afp *p, const struct port_cfg *cfg, char *err, size_t errlen)
{
	int rc;

	if ((rc = open_socket(cfg, &p->txfd, err, errlen)))
		return rc;
	p->tx_data_off = 0;
	p->tx_slot_size = cfg->frame_max;
	p->tx_nslots = port_pow2_at_least(cfg->tx_slots ? cfg->tx_slots : 4096);
	{
		int sndbuf = (int)p->tx_nslots * (int)(p->tx_slot_size + 1024);

		if (setsockopt(p->txfd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)))
			setsockopt(p->txfd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	}
	p->tx_mem = calloc(p->tx_nslots, p->tx_slot_size);
	p->tx_len = calloc(p->tx_nslots, sizeof(*p->tx_len));
	if (!p->tx_mem || !p->tx_len) {
		snprintf(err, errlen, "out of memory for %u TX slots", p->tx_nslots);
		return -ENOMEM;
	}
	return bind_to(p->txfd, p->ifindex, 0, cfg->ifname, err, errlen);
}

static int rx_ring_open(struct afp *p, const struct port_cfg *cfg, char *err, size_t errlen)
{
	struct tpacket_req3 req;
	int v = TPACKET_V3, one = 1, rc;

	if ((rc = open_socket(cfg, &p->rxfd, err, errlen)))
		return rc;
	if (setsockopt(p->rxfd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v))) {
		snprintf(err, errlen, "TPACKET_V3: %s", strerror(errno));
		return -errno;
	}
	/* Our own transmissions on the same interface are not received frames. */
	setsockopt(p->rxfd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one, sizeof(one));
	p->rx_block_size = (cfg->rx_block_kib ? cfg->rx_block_kib : 1024) * 1024;
	p->rx_nblocks = cfg->rx_blocks ? cfg->rx_blocks : 64;
	memset(&req, 0, sizeof(req));
	req.tp_block_size = p->rx_block_size;
	req.tp_block_nr = p->rx_nblocks;
	req.tp_frame_size = 2048;
	req.tp_frame_nr = p->rx_block_size / 2048 * p->rx_nblocks;
	req.tp_retire_blk_tov = 2;	/* ms: a part-filled block reaches us soon */
	if (setsockopt(p->rxfd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req))) {
		snprintf(err, errlen, "PACKET_RX_RING (%u blocks of %u KiB): %s", req.tp_block_nr,
			 req.tp_block_size / 1024, strerror(errno));
		return -errno;
	}
	p->rx_map_len = (size_t)req.tp_block_size * req.tp_block_nr;
	p->rx_map = mmap(NULL, p->rx_map_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, p->rxfd, 0);
	if (p->rx_map == MAP_FAILED) {
		p->rx_map = NULL;
		snprintf(err, errlen, "cannot map the RX ring: %s", strerror(errno));
		return -errno;
	}
	return bind_to(p->rxfd, p->ifindex, htons(ETH_P_ALL), cfg->ifname, err, errlen);
}

static void *afp_open(enum port_type type, const struct port_cfg *cfg, char *err, size_t errlen)
{
	struct afp *p = calloc(1, sizeof(*p));
	int rc = 0;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->type = type;
	p->txfd = p->rxfd = -1;
	if ((rc = ifindex_in_ns(cfg, err, errlen)) < 0)
		goto fail;
	p->ifindex = rc;
	rc = 0;
	if (cfg->tx)
		rc = type == PORT_AFPACKET ? tx_ring_open(p, cfg, err, errlen) : tx_mmsg_open(p, cfg, err, errlen);
	if (!rc && cfg->rx)
		rc = rx_ring_open(p, cfg, err, errlen);
	if (!rc) {
		snprintf(p->ifname, sizeof(p->ifname), "%s", cfg->ifname);
		p->nl = nl_create(cfg->nsfd, err, errlen);
		if (p->nl)
			ifcount_read(p->nl, p->ifname, &p->if0);
	}
	if (!rc)
		return p;
fail:
	afp_close(p);
	return NULL;
}

static void afp_close(void *vp)
{
	struct afp *p = vp;
	if (!p)
		return;
	if (p->tx_map)
		munmap(p->tx_map, p->tx_map_len);
	if (p->rx_map)
		munmap(p->rx_map, p->rx_map_len);
	if (p->txfd >= 0)
		close(p->txfd);
	if (p->rxfd >= 0)
		close(p->rxfd);
	nl_destroy(p->nl);
	free(p->tx_mem);
	free(p->tx_len);
	free(p);
}

static unsigned int afp_tx_slots(const void *vp)
{
	const struct afp *p = vp;
	return p->tx_nslots;
}

static struct tpacket2_hdr *tx_hdr(struct afp *p, unsigned int i)
{
	return (struct tpacket2_hdr *)(p->tx_map + (size_t)i * p->tx_slot_size);
}

static uint8_t *afp_tx_slot(void *vp, unsigned int i)
{
	struct afp *p = vp;
	if (p->tx_mem)
		return p->tx_mem + (size_t)i * p->tx_slot_size;
	return (uint8_t *)tx_hdr(p, i) + p->tx_data_off;
}

static unsigned int afp_tx_acquire(void *vp, unsigned int n, unsigned int *first)
{
	struct afp *p = vp;
	unsigned int k = 0, mask = p->tx_nslots - 1;

	*first = p->tx_cursor;
	if (p->tx_mem) {
		/* Slots are free once kicked; one run at most per kick. */
		unsigned int room = p->tx_nslots - p->mmsg_n;

		k = n < room ? n : room;
		if (k > MMSG_BATCH * 16)
			k = MMSG_BATCH * 16;
	} else {
		while (k < n) {
			struct tpacket2_hdr *h = tx_hdr(p, (p->tx_cursor + k) & mask);
			uint32_t s = __atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE);

			if (s == TP_STATUS_WRONG_FORMAT) {
				p->st.tx_errors++;
				__atomic_store_n(&h->tp_status, TP_STATUS_AVAILABLE, __ATOMIC_RELEASE);
			} else if (s != TP_STATUS_AVAILABLE) {
				break;
			}
			k++;
		}
	}
	p->tx_cursor = (p->tx_cursor + k) & mask;
	return k;
}

static void afp_tx_submit(void *vp, unsigned int i, unsigned int len)
{
	struct afp *p = vp;
	if (p->tx_mem) {
		if (!p->mmsg_n)
			p->mmsg_first = i;
		p->tx_len[i] = len;
		p->mmsg_n++;
		return;
	}
	struct tpacket2_hdr *h = tx_hdr(p, i);

	if (p->tx_vnet) {
		struct virtio_net_hdr *vh = (struct virtio_net_hdr *)((uint8_t *)h + p->tx_data_off - p->tx_vnet);

		memset(vh, 0, sizeof(*vh));
		vh->hdr_len = (uint16_t)len;	/* little-endian host: virtio 1.0 order */
	}
	h->tp_len = len + p->tx_vnet;
	__atomic_store_n(&h->tp_status, TP_STATUS_SEND_REQUEST, __ATOMIC_RELEASE);
	p->st.tx_frames++;
}

static int mmsg_flush(struct afp *p)
{
	struct mmsghdr msgs[MMSG_BATCH];
	struct iovec iov[MMSG_BATCH];
	unsigned int mask = p->tx_nslots - 1, tries = 0;

	while (p->mmsg_n) {
		unsigned int n = p->mmsg_n < MMSG_BATCH ? p->mmsg_n : MMSG_BATCH;
		int sent;

		for (unsigned int k = 0; k < n; k++) {
			unsigned int i = (p->mmsg_first + k) & mask;

			iov[k].iov_base = afp_tx_slot(p, i);
			iov[k].iov_len = p->tx_len[i];
			memset(&msgs[k], 0, sizeof(msgs[k]));
			msgs[k].msg_hdr.msg_iov = &iov[k];
			msgs[k].msg_hdr.msg_iovlen = 1;
		}
		sent = sendmmsg(p->txfd, msgs, n, 0);
		if (sent < 0) {
			if ((errno == ENOBUFS || errno == EAGAIN || errno == EINTR) && ++tries < 1000)
				continue;
			p->st.tx_errors += p->mmsg_n;
			p->mmsg_n = 0;
			return -errno;
		}
		p->st.tx_frames += (unsigned int)sent;
		p->mmsg_first = (p->mmsg_first + (unsigned int)sent) & mask;
		p->mmsg_n -= (unsigned int)sent;
	}
	return 0;
}

static int afp_tx_kick(void *vp)
{
	struct afp *p = vp;
	if (p->tx_mem)
		return mmsg_flush(p);
	/* MSG_DONTWAIT: hand the frames over without waiting for them to be
	 * freed, which in a lab happens only at the far end of the DUT. */
	if (send(p->txfd, NULL, 0, MSG_DONTWAIT) < 0 && errno != EAGAIN && errno != ENOBUFS)
		return -errno;
	return 0;
}

static unsigned int afp_tx_pending(void *vp)
{
	struct afp *p = vp;
	unsigned int n = 0;

	if (p->tx_mem)
		return p->mmsg_n;
	for (unsigned int i = 0; i < p->tx_nslots; i++) {
		uint32_t s = __atomic_load_n(&tx_hdr(p, i)->tp_status, __ATOMIC_ACQUIRE);

		if (s == TP_STATUS_SEND_REQUEST || s == TP_STATUS_SENDING)
			n++;
	}
	return n;
}

/* The kernel walks the ring from its own head and stops at the first slot
 * not marked for sending; a frame the next hop refused is marked for
 * sending again and the head stays on it. So the slots from the kernel's
 * head up to our cursor are the frames it has not taken, and outside a
 * send() call it touches none of them: they are ours to take back, and the
 * cursor goes back to where the kernel will look next. */
static unsigned int afp_tx_revoke(void *vp)
{
	struct afp *p = vp;
	unsigned int mask = p->tx_nslots - 1, n = 0;

	if (p->tx_mem) {
		n = p->mmsg_n;
		p->tx_cursor = p->mmsg_first;
		p->mmsg_n = 0;
		return n;
	}
	while (n < p->tx_nslots) {
		struct tpacket2_hdr *h = tx_hdr(p, (p->tx_cursor - 1 - n) & mask);

		if (__atomic_load_n(&h->tp_status, __ATOMIC_ACQUIRE) != TP_STATUS_SEND_REQUEST)
			break;
		__atomic_store_n(&h->tp_status, TP_STATUS_AVAILABLE, __ATOMIC_RELEASE);
		n++;
	}
	p->tx_cursor = (p->tx_cursor - n) & mask;
	p->st.tx_frames -= n;
	return n;
}

static int afp_rx_poll(void *vp, port_rx_fn fn, void *ctx, int timeout_ms)
{
	struct afp *p = vp;
	struct tpacket_block_desc *b;
	int delivered = 0;

	if (!p->rx_map)
		return -EINVAL;
	b = (struct tpacket_block_desc *)(p->rx_map + (size_t)p->rx_block * p->rx_block_size);
	if (!(__atomic_load_n(&b->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER)) {
		struct pollfd pfd = { .fd = p->rxfd, .events = POLLIN | POLLERR };

		if (timeout_ms <= 0)
			return 0;
		if (poll(&pfd, 1, timeout_ms) < 0)
			return errno == EINTR ? 0 : -errno;
	}
	/* Every ready block, in ring order. */
	while (__atomic_load_n(&b->hdr.bh1.block_status, __ATOMIC_ACQUIRE) & TP_STATUS_USER) {
		uint32_t n = b->hdr.bh1.num_pkts;
		uint32_t off = b->hdr.bh1.offset_to_first_pkt;

		for (uint32_t k = 0; k < n; k++) {
			struct tpacket3_hdr *h = (struct tpacket3_hdr *)((uint8_t *)b + off);

			/* The kernel wrote these offsets; still, never step outside. */
			if (off + sizeof(*h) > p->rx_block_size ||
			    off + h->tp_mac + h->tp_snaplen > p->rx_block_size)
				break;
			fn(ctx, (uint8_t *)h + h->tp_mac, h->tp_snaplen,
			   (uint64_t)h->tp_sec * NSEC_PER_SEC + h->tp_nsec);
			delivered++;
			if (!h->tp_next_offset)
				break;
			off += h->tp_next_offset;
		}
		__atomic_store_n(&b->hdr.bh1.block_status, TP_STATUS_KERNEL, __ATOMIC_RELEASE);
		p->rx_block = (p->rx_block + 1) % p->rx_nblocks;
		b = (struct tpacket_block_desc *)(p->rx_map + (size_t)p->rx_block * p->rx_block_size);
	}
	p->st.rx_frames += (uint64_t)delivered;
	return delivered;
}

static int afp_stats(void *vp, struct port_stats *st)
{
	struct afp *p = vp;
	if (p->rxfd >= 0) {
		struct tpacket_stats_v3 s;
		socklen_t len = sizeof(s);

		/* Reading resets the kernel's counters: accumulate. */
		if (getsockopt(p->rxfd, SOL_PACKET, PACKET_STATISTICS, &s, &len))
			return -errno;
		p->st.rx_drops += s.tp_drops;
		p->st.rx_freezes += s.tp_freeze_q_cnt;
	}
	if (p->nl) {
		struct ifcount now, d = { .rx_dropped = p->st.rx_if_drops, .tx_dropped = p->st.tx_if_refused };

		if (!ifcount_read(p->nl, p->ifname, &now)) {
			ifcount_since(&p->if0, &now, &d);
			if (p->rx_map)
				p->st.rx_if_drops = d.rx_dropped;
			if (p->tx_map || p->tx_mem)
				p->st.tx_if_refused = d.tx_dropped;
		}
	}
	*st = p->st;
	return 0;
}

static void *afp_open_ring(const struct port_cfg *cfg, char *err, size_t errlen)
{
	return afp_open(PORT_AFPACKET, cfg, err, errlen);
}

static void *afp_open_mmsg(const struct port_cfg *cfg, char *err, size_t errlen)
{
	return afp_open(PORT_AFPACKET_MMSG, cfg, err, errlen);
}

#define AFP_OPS(open_fn, label) {					\
	.name = label, .open = open_fn, .close = afp_close,		\
	.tx_slots = afp_tx_slots, .tx_slot = afp_tx_slot,		\
	.tx_acquire = afp_tx_acquire, .tx_submit = afp_tx_submit,	\
	.tx_kick = afp_tx_kick, .tx_pending = afp_tx_pending,		\
	.tx_revoke = afp_tx_revoke,					\
	.rx_poll = afp_rx_poll, .stats = afp_stats,			\
}

const struct port_ops afpacket_ring_ops = AFP_OPS(afp_open_ring, "afpacket");
const struct port_ops afpacket_mmsg_ops = AFP_OPS(afp_open_mmsg, "afpacket-mmsg");
