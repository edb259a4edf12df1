/* The AF_XDP port: frames are sent from and received into one UMEM shared
 * by one socket per receive queue of the device. Transmit slots are UMEM
 * frames, so the generator builds each frame once and rewrites only its
 * tag. Receive goes through xsk.bpf.c, attached with a bpf_link: the kernel
 * detaches it when the last fd closes, so a process killed with SIGKILL
 * leaves neither a program nor a socket behind.
 *
 * UMEM layout: frames [0, tx_n) are the TX slots (slot i = frame i);
 * receive queue q owns frames [tx_n + q * rx_n, tx_n + (q + 1) * rx_n),
 * which circulate between its fill and RX rings only. */
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/ethtool.h>
#include <linux/if_link.h>
#include <linux/if_xdp.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/xsk.h>

#include "io/ifcount.h"
#include "io/port.h"
#include "io/port_impl.h"
#include "io/bpf/bpf_objs.h"
#include "os/bpfobj.h"
#include "io/bpf/bpf_shared.h"
#include "os/clock.h"
#include "os/ethtool.h"
#include "os/netns.h"
#include "os/nl.h"

#define RX_BATCH	256		/* descriptors taken from a ring at once */
#define RX_MAX_CALL	4096		/* frames one rx_poll delivers at most */
#define XDP_HEADROOM	256		/* XDP_PACKET_HEADROOM: the kernel's, before received data */
#define BIND_TRIES	100		/* a busy queue: retries, BIND_WAIT_US apart */
#define BIND_WAIT_US	10000

static void afx_close(void *vp);

struct afx_queue {
	struct xsk_socket *xsk;
	int fd;
	struct xsk_ring_cons rx;
	struct xsk_ring_prod fill;	/* queue 0: the UMEM's own rings */
	struct xsk_ring_cons comp;
};

struct afx {
	int ifindex;
	char ifname[IF_NAMESIZE];
	struct nl *nl;
	bool want_tx, want_rx;
	/* UMEM */
	uint8_t *area;
	size_t area_len;
	struct xsk_umem *umem;
	unsigned int chunk, chunk_shift;
	bool zerocopy;
	/* sockets: queue 0 also transmits; a port that only transmits has
	 * one socket, on tx_queue */
	unsigned int nq, tx_queue;
	struct afx_queue q[XSK_MAX_QUEUES];
	/* transmit */
	struct xsk_ring_prod tx;
	unsigned int tx_n, tx_cursor, tx_unsent, tx_inflight;
	uint8_t *tx_busy;		/* slot handed to the kernel, not completed */
	/* receive */
	unsigned int rx_n;		/* frames per queue */
	int64_t tai_off;		/* CLOCK_TAI - CLOCK_REALTIME at open */
	struct bpf_object *obj;
	int link_fd;
	bool skb_mode;
	bool is_veth;
	struct ifcount if0;		/* the interface's drop counters at open */
	struct port_stats st;
};

/* Receive (or transmit) queues of the device: combined + rx-only (tx-only)
 * channels; 1 when the driver does not say. Called inside the device's
 * namespace. */
static unsigned int dev_queues(const char *ifname, bool tx)
{
	unsigned int n = 1, rxq, txq;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 1;
	if (!ethtool_queues(fd, ifname, &rxq, &txq) && (tx ? txq : rxq) > 0)
		n = tx ? txq : rxq;
	close(fd);
	return n > XSK_MAX_QUEUES ? XSK_MAX_QUEUES : n;
}

/* The name of an XDP program someone else attached, for the refusal. */
static void prog_name(uint32_t id, char *name, size_t len)
{
	struct bpf_prog_info info;
	uint32_t ilen = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);

	snprintf(name, len, "?");
	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	if (!bpf_obj_get_info_by_fd(fd, &info, &ilen) && info.name[0])
		snprintf(name, len, "%s", info.name);
	close(fd);
}

static void sockets_delete(struct afx *p)
{
	/* Sockets sharing the UMEM first: the UMEM's fd is queue 0's. */
	for (unsigned int i = p->nq; i-- > 0;) {
		xsk_socket__delete(p->q[i].xsk);
		p->q[i].xsk = NULL;
	}
	if (p->umem)
		xsk_umem__delete(p->umem);
	p->umem = NULL;
}

/* The UMEM and one socket per queue, bound with bind_flags. On failure
 * everything made here is released again, so the caller can retry in copy
 * mode on a clean slate. */
static int sockets_create(struct afx *p, uint16_t bind_flags)
{
	struct xsk_umem_config uc = {
		.fill_size = p->want_rx ? p->rx_n : 64,
		.comp_size = p->want_tx ? p->tx_n : 64,
		.frame_size = p->chunk,
		.frame_headroom = 0,
	};
	int rc;

	rc = xsk_umem__create(&p->umem, p->area, p->area_len, &p->q[0].fill, &p->q[0].comp, &uc);
	if (rc) {
		p->umem = NULL;
		return rc;
	}
	for (unsigned int i = 0; i < p->nq; i++) {
		struct afx_queue *q = &p->q[i];
		bool tx = p->want_tx && i == 0;
		struct xsk_socket_config sc = {
			.rx_size = p->want_rx ? p->rx_n : 0,
			.tx_size = tx ? p->tx_n : 0,
			.libxdp_flags = XSK_LIBXDP_FLAGS__INHIBIT_PROG_LOAD,
			.bind_flags = bind_flags,
		};

		rc = xsk_socket__create_shared(&q->xsk, p->ifname, p->want_rx ? i : p->tx_queue, p->umem,
					       p->want_rx ? &q->rx : NULL, tx ? &p->tx : NULL,
					       &q->fill, &q->comp, &sc);
		if (rc) {
			q->xsk = NULL;
			sockets_delete(p);
			return rc;
		}
		q->fd = xsk_socket__fd(q->xsk);
	}
	return 0;
}

/* Give queue q all its receive frames. */
static void fill_all(struct afx *p, unsigned int qi)
{
	struct afx_queue *q = &p->q[qi];
	uint64_t base = (uint64_t)(p->tx_n + qi * p->rx_n) << p->chunk_shift;
	uint32_t idx;
	unsigned int n = xsk_ring_prod__reserve(&q->fill, p->rx_n, &idx);

	for (unsigned int k = 0; k < n; k++)
		*xsk_ring_prod__fill_addr(&q->fill, idx + k) = base + ((uint64_t)k << p->chunk_shift);
	xsk_ring_prod__submit(&q->fill, n);
}

/* Load xsk.bpf.c, put the sockets in its XSKMAP and attach it with a link:
 * native mode, else generic (skb) mode, which still works but builds an
 * skb per frame before the program runs. Inside the namespace. */
static int prog_attach(struct afx *p, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = XDP_FLAGS_DRV_MODE);
	struct bpf_program *prog;
	int map_fd, rc;

	/* With the receive time in the frame's metadata; a kernel that
	 * refuses bpf_xdp_adjust_meta to the program (EINVAL from the
	 * verifier) gets the same program without it, and user space stamps
	 * the frames when it reads them. */
	for (int nometa = 0;; nometa++) {
		p->obj = nometa ? bpfobj_open("wr_xsk", wr_bpf_xsk_nometa, wr_bpf_xsk_nometa_len, err, errlen)
				: bpfobj_open("wr_xsk", wr_bpf_xsk, wr_bpf_xsk_len, err, errlen);
		if (!p->obj)
			return -EINVAL;
		if (!(rc = bpf_object__load(p->obj)))
			break;
		bpf_object__close(p->obj);
		p->obj = NULL;
		if (nometa || rc != -EINVAL) {
			snprintf(err, errlen, "cannot load the AF_XDP receive program: %s", strerror(-rc));
			return rc;
		}
	}
	prog = bpf_object__find_program_by_name(p->obj, "wr_xsk");
	map_fd = bpf_object__find_map_fd_by_name(p->obj, "xsks");
	if (!prog || map_fd < 0) {
		snprintf(err, errlen, "the AF_XDP receive program has no wr_xsk or xsks");
		return -ENOENT;
	}
	for (unsigned int i = 0; i < p->nq; i++) {
		if (bpf_map_update_elem(map_fd, &i, &p->q[i].fd, 0)) {
			rc = -errno;
			snprintf(err, errlen, "cannot add the queue %u socket to the XSKMAP: %s", i, strerror(-rc));
			return rc;
		}
	}
	p->link_fd = bpf_link_create(bpf_program__fd(prog), p->ifindex, BPF_XDP, &lo);
	if (p->link_fd < 0) {
		lo.flags = XDP_FLAGS_SKB_MODE;
		p->link_fd = bpf_link_create(bpf_program__fd(prog), p->ifindex, BPF_XDP, &lo);
		p->skb_mode = p->link_fd >= 0;
	}
	if (p->link_fd < 0) {
		rc = p->link_fd;
		p->link_fd = -1;
		snprintf(err, errlen, "cannot attach the AF_XDP receive program to %s: %s",
			 p->ifname, strerror(-rc));
		return rc;
	}
	return 0;
}

/* Everything that must happen inside the device's namespace: AF_XDP
 * sockets bind to an ifindex of the namespace they were made in, and XDP
 * links resolve the ifindex in the caller's. */
static int open_in_ns(struct afx *p, char *err, size_t errlen)
{
	int rc, zc_rc;

	p->ifindex = (int)if_nametoindex(p->ifname);
	if (!p->ifindex) {
		snprintf(err, errlen, "no interface '%s'", p->ifname);
		return -ENODEV;
	}
	p->nq = p->want_rx ? dev_queues(p->ifname, false) : 1;
	if (p->tx_queue && p->tx_queue >= dev_queues(p->ifname, true)) {
		snprintf(err, errlen, "AF_XDP on %s: generator thread %u transmits on queue %u, and %s has %u "
			 "transmit queue(s) (the lab: 'wirerate lab up --queues N')", p->ifname, p->tx_queue,
			 p->tx_queue, p->ifname, dev_queues(p->ifname, true));
		return -EINVAL;
	}
	/* The kernel pins the whole UMEM, so it is sized for the queues the
	 * device has, known only here. */
	p->area_len = ((size_t)p->tx_n + (size_t)p->rx_n * p->nq) << p->chunk_shift;
	p->area = mmap(NULL, p->area_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		       -1, 0);
	if (p->area == MAP_FAILED) {
		p->area = NULL;
		snprintf(err, errlen, "cannot map a %zu MiB UMEM: %s", p->area_len >> 20, strerror(errno));
		return -ENOMEM;
	}
	/* Zero-copy where the driver has it; veth has not (EOPNOTSUPP).
	 * EBUSY: the queue still has the buffer pool of a socket closed
	 * just now (the kernel frees it from a work queue, so a trial that
	 * follows another one finds it busy for a moment), or a live socket
	 * of someone else holds it: wait a bounded time, then say so. */
	for (unsigned int tries = 0;; tries++) {
		rc = sockets_create(p, XDP_ZEROCOPY | XDP_USE_NEED_WAKEUP);
		if (!rc) {
			p->zerocopy = true;
			break;
		}
		zc_rc = rc;
		if (!(rc = sockets_create(p, XDP_COPY | XDP_USE_NEED_WAKEUP)))
			break;
		if (rc != -EBUSY || tries >= BIND_TRIES) {
			snprintf(err, errlen, "cannot bind an AF_XDP socket to %s: %s (zero-copy: %s)%s",
				 p->ifname, strerror(-rc), strerror(-zc_rc),
				 rc == -EBUSY ? "; another AF_XDP socket holds its queue" : "");
			return rc;
		}
		usleep(BIND_WAIT_US);
	}
	if (p->want_tx) {
		/* Let every slot be in flight: in copy mode each frame is an skb
		 * charged to this socket until the far end frees it, and the
		 * default send buffer would hold the generator back instead of
		 * letting an overloaded next hop drop. */
		long sb = (long)p->tx_n * (p->chunk + 1024);
		int sndbuf = sb > (1L << 30) ? (1 << 30) : (int)sb;

		if (setsockopt(p->q[0].fd, SOL_SOCKET, SO_SNDBUFFORCE, &sndbuf, sizeof(sndbuf)))
			setsockopt(p->q[0].fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	}
	if (p->want_rx) {
		for (unsigned int i = 0; i < p->nq; i++)
			fill_all(p, i);
		if ((rc = prog_attach(p, err, errlen)))
			return rc;
	}
	return 0;
}

static void *afx_open(const struct port_cfg *cfg, char *err, size_t errlen)
{
	struct afx *p = calloc(1, sizeof(*p));
	struct link_info li;
	unsigned int need;
	int saved = -1, rc;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->link_fd = -1;
	p->want_tx = cfg->tx;
	p->want_rx = cfg->rx;
	p->tx_queue = cfg->tx_queue;
	if (p->tx_queue && (p->want_rx || p->tx_queue >= XSK_MAX_QUEUES)) {
		snprintf(err, errlen, "AF_XDP on %s: only a port that transmits alone takes a queue other than 0",
			 cfg->ifname);
		free(p);
		return NULL;
	}
	snprintf(p->ifname, sizeof(p->ifname), "%s", cfg->ifname);
	if (!(p->nl = nl_create(cfg->nsfd, err, errlen)))
		goto fail;
	if ((rc = nl_link_get(p->nl, p->ifname, &li))) {
		snprintf(err, errlen, "no interface '%s'%s", p->ifname, cfg->nsfd >= 0 ? " in that namespace" : "");
		goto fail;
	}
	ifcount_of_link(&p->if0, &li);
	p->is_veth = !strcmp(li.kind, "veth");
	/* Replacing someone's program would break their setup silently; the
	 * kernel would refuse our link anyway (EBUSY), less clearly. */
	if (p->want_rx && li.xdp_prog_id) {
		char name[BPF_OBJ_NAME_LEN + 1];

		prog_name(li.xdp_prog_id, name, sizeof(name));
		snprintf(err, errlen, "%s already has an XDP program attached ('%s', id %u); "
			 "wirerate does not replace it (detach it: ip link set dev %s xdp off)",
			 p->ifname, name, li.xdp_prog_id, p->ifname);
		goto fail;
	}
	/* Aligned chunks of 2 KiB or 4 KiB (the most copy mode takes); a
	 * received frame also needs the kernel's headroom in its chunk. */
	need = cfg->frame_max;
	if (p->want_rx && li.mtu + 18 + XDP_HEADROOM > need)
		need = li.mtu + 18 + XDP_HEADROOM;
	p->chunk = need <= 2048 ? 2048 : 4096;
	p->chunk_shift = p->chunk == 2048 ? 11 : 12;
	if (need > 4096 || cfg->frame_max > 4096 - XDP_HEADROOM) {
		snprintf(err, errlen, "AF_XDP on %s: frames of %u bytes (MTU %u) do not fit a 4 KiB UMEM "
			 "frame; use --port-type afpacket for jumbo frames",
			 p->ifname, cfg->frame_max, li.mtu);
		goto fail;
	}
	p->tx_n = p->want_tx ? port_pow2_at_least(cfg->tx_slots ? cfg->tx_slots : 4096) : 0;
	/* Receive buffers per queue: what an AF_PACKET ring of the same
	 * configuration would hold, within 2k..64k frames. */
	p->rx_n = 0;
	if (p->want_rx) {
		unsigned long bytes = (unsigned long)(cfg->rx_block_kib ? cfg->rx_block_kib : 1024) * 1024 *
				      (cfg->rx_blocks ? cfg->rx_blocks : 16);
		unsigned long frames = bytes / p->chunk;

		p->rx_n = port_pow2_at_least(frames < 2048 ? 2048 : frames > 65536 ? 65536 : (unsigned int)frames);
	}
	if (p->tx_n && !(p->tx_busy = calloc(p->tx_n, 1))) {
		snprintf(err, errlen, "out of memory for %u TX slots", p->tx_n);
		goto fail;
	}
	p->tai_off = clock_tai_offset();
	if (cfg->nsfd >= 0 && (rc = netns_enter(cfg->nsfd, &saved))) {
		snprintf(err, errlen, "cannot enter the namespace of %s: %s", cfg->ifname, strerror(-rc));
		goto fail;
	}
	rc = open_in_ns(p, err, errlen);
	if (saved >= 0)
		netns_leave(&saved);
	if (rc)
		goto fail;
	return p;
fail:
	afx_close(p);
	return NULL;
}

static void afx_close(void *vp)
{
	struct afx *p = vp;

	if (!p)
		return;
	/* The program first, so no frame is redirected to a closing socket. */
	if (p->link_fd >= 0)
		close(p->link_fd);
	bpf_object__close(p->obj);
	sockets_delete(p);
	if (p->area)
		munmap(p->area, p->area_len);
	nl_destroy(p->nl);
	free(p->tx_busy);
	free(p);
}

/* ---- transmit ---- */

static unsigned int afx_tx_slots(const void *vp)
{
	const struct afx *p = vp;

	return p->tx_n;
}

static uint8_t *afx_tx_slot(void *vp, unsigned int i)
{
	struct afx *p = vp;

	return p->area + ((size_t)i << p->chunk_shift);
}

/* Completions can come back out of order in copy mode (each frame is an
 * skb freed wherever it ends), so slots are freed one by one. */
static void tx_reclaim(struct afx *p)
{
	struct xsk_ring_cons *cq = &p->q[0].comp;
	uint32_t idx;
	unsigned int n = xsk_ring_cons__peek(cq, p->tx_n, &idx);

	for (unsigned int k = 0; k < n; k++) {
		uint64_t i = *xsk_ring_cons__comp_addr(cq, idx + k) >> p->chunk_shift;

		if (i < p->tx_n && p->tx_busy[i]) {
			p->tx_busy[i] = 0;
			p->tx_inflight--;
		}
	}
	if (n)
		xsk_ring_cons__release(cq, n);
}

static unsigned int afx_tx_acquire(void *vp, unsigned int n, unsigned int *first)
{
	struct afx *p = vp;
	unsigned int k = 0, room, mask = p->tx_n - 1;

	*first = p->tx_cursor;
	if (!p->tx_n)
		return 0;
	tx_reclaim(p);
	room = xsk_prod_nb_free(&p->tx, n);
	if (n > room)
		n = room;
	while (k < n && !p->tx_busy[(p->tx_cursor + k) & mask])
		k++;
	p->tx_cursor = (p->tx_cursor + k) & mask;
	return k;
}

static void afx_tx_submit(void *vp, unsigned int i, unsigned int len)
{
	struct afx *p = vp;
	struct xdp_desc *d;
	uint32_t idx;

	/* acquire checked the ring's room, so this cannot fail; if the
	 * caller submits more than it acquired, the frame is counted lost. */
	if (xsk_ring_prod__reserve(&p->tx, 1, &idx) != 1) {
		p->st.tx_errors++;
		return;
	}
	d = xsk_ring_prod__tx_desc(&p->tx, idx);
	d->addr = (uint64_t)i << p->chunk_shift;
	d->len = len;
	d->options = 0;
	p->tx_busy[i] = 1;
	p->tx_inflight++;
	p->tx_unsent++;
	p->st.tx_frames++;
}

/* Descriptors in the TX ring the kernel has not taken yet. */
static unsigned int tx_unconsumed(const struct afx *p)
{
	return p->tx.cached_prod - __atomic_load_n(p->tx.consumer, __ATOMIC_ACQUIRE);
}

static int afx_tx_kick(void *vp)
{
	struct afx *p = vp;
	unsigned int tries;

	if (!p->tx_n)
		return 0;
	if (p->tx_unsent) {
		xsk_ring_prod__submit(&p->tx, p->tx_unsent);
		p->tx_unsent = 0;
	}
	if (!xsk_ring_prod__needs_wakeup(&p->tx))
		return 0;
	/* Copy mode sends at most 32 frames per system call and says EAGAIN
	 * when more are left, so call again while the ring has some, boundedly
	 * (EAGAIN also means the send buffer is full). Zero-copy only needs a
	 * wakeup: the driver drains the ring itself. */
	tries = p->zerocopy ? 1 : tx_unconsumed(p) / 32 + 2;
	while (tries-- > 0) {
		if (sendto(p->q[0].fd, NULL, 0, MSG_DONTWAIT, NULL, 0) < 0) {
			/* EBUSY: a frame the device dropped (it is completed,
			 * and the device counts it); ENOBUFS: no memory now. */
			if (errno == ENOBUFS)
				break;
			if (errno != EAGAIN && errno != EBUSY && errno != EINTR) {
				p->st.tx_errors++;
				return -errno;
			}
		}
		if (p->zerocopy || !tx_unconsumed(p))
			break;
	}
	return 0;
}

static unsigned int afx_tx_pending(void *vp)
{
	struct afx *p = vp;

	if (!p->tx_n)
		return 0;
	/* Called while draining: frames still in the ring need a kick to
	 * ever complete in copy mode. */
	if (!p->zerocopy && tx_unconsumed(p))
		afx_tx_kick(p);
	tx_reclaim(p);
	return p->tx_inflight;
}

/* A descriptor the kernel has not consumed cannot be taken back from the
 * ring: one last kick, then what is left is counted as never sent. No
 * later kick of this phase sends it; a later phase's first kick may, with
 * this phase's tag, which the analyzer does not count as the next one's. */
static unsigned int afx_tx_revoke(void *vp)
{
	struct afx *p = vp;
	unsigned int n;

	if (!p->tx_n)
		return 0;
	afx_tx_kick(p);
	n = tx_unconsumed(p);
	p->st.tx_frames -= n;
	return n;
}

/* ---- receive ---- */

static bool rx_ready(struct afx *p)
{
	for (unsigned int i = 0; i < p->nq; i++)
		if (xsk_cons_nb_avail(&p->q[i].rx, 1))
			return true;
	return false;
}

/* Take up to RX_BATCH frames from queue q, give each to fn, and return the
 * buffers to the fill ring. A frame that came without the program's
 * metadata gets the batch's user-space time, read after the ring showed
 * it: every frame in the batch was sent (and stamped) before that, so its
 * latency is never negative. */
static unsigned int rx_queue_batch(struct afx *p, struct afx_queue *q, port_rx_fn fn, void *ctx)
{
	uint32_t idx, fidx;
	unsigned int n = xsk_ring_cons__peek(&q->rx, RX_BATCH, &idx), got;
	uint64_t now_ns;

	if (!n)
		return 0;
	now_ns = clock_real_ns();
	/* Each queue owns rx_n frames and its fill ring has rx_n entries,
	 * so there is always room for those just received. */
	got = xsk_ring_prod__reserve(&q->fill, n, &fidx);
	for (unsigned int k = 0; k < n; k++) {
		const struct xdp_desc *d = xsk_ring_cons__rx_desc(&q->rx, idx + k);
		uint64_t addr = xsk_umem__add_offset_to_addr(d->addr);
		uint8_t *data = xsk_umem__get_data(p->area, addr);
		uint64_t ts = now_ns;

		if ((addr & (p->chunk - 1)) >= sizeof(struct xsk_meta)) {
			struct xsk_meta *m = (struct xsk_meta *)(data - sizeof(*m));

			if (m->magic == XSK_META_MAGIC) {
				ts = m->rx_tai_ns - (uint64_t)p->tai_off;
				m->magic = 0;	/* this buffer's next frame may come without */
			}
		}
		fn(ctx, data, d->len, ts);
		if (k < got)
			*xsk_ring_prod__fill_addr(&q->fill, fidx + k) = addr & ~(uint64_t)(p->chunk - 1);
	}
	xsk_ring_cons__release(&q->rx, n);
	if (got) {
		xsk_ring_prod__submit(&q->fill, got);
		if (xsk_ring_prod__needs_wakeup(&q->fill))
			recvfrom(q->fd, NULL, 0, MSG_DONTWAIT, NULL, NULL);
	}
	return n;
}

static int afx_rx_poll(void *vp, port_rx_fn fn, void *ctx, int timeout_ms)
{
	struct afx *p = vp;
	unsigned int delivered = 0, got;

	if (!p->want_rx)
		return -EINVAL;
	if (!rx_ready(p)) {
		struct pollfd pfd[XSK_MAX_QUEUES];

		if (timeout_ms <= 0)
			return 0;
		for (unsigned int i = 0; i < p->nq; i++)
			pfd[i] = (struct pollfd){ .fd = p->q[i].fd, .events = POLLIN };
		if (poll(pfd, p->nq, timeout_ms) < 0)
			return errno == EINTR ? 0 : -errno;
	}
	do {
		got = 0;
		for (unsigned int i = 0; i < p->nq; i++)
			got += rx_queue_batch(p, &p->q[i], fn, ctx);
		delivered += got;
	} while (got && delivered < RX_MAX_CALL);
	p->st.rx_frames += delivered;
	return (int)delivered;
}

/* XDP_STATISTICS, summed over the sockets (the kernel's counters are
 * cumulative since bind):
 *   rx_drops   = rx_dropped (no fill buffer, frame larger than a buffer)
 *              + rx_ring_full (our RX ring full): frames the tester lost;
 *   rx_freezes = rx_ring_full + rx_fill_ring_empty_descs: times the kernel
 *                found no room, a sign the analyzer is behind;
 *   tx_errors  += tx_invalid_descs (descriptors the kernel refused).
 * rx_if_drops and tx_if_refused are the interface's rx_dropped and
 * tx_dropped since open, as for AF_PACKET: with copy-mode transmit on a
 * veth, a frame the peer's full ring refused shows up in tx_dropped. The
 * two receive counts do not overlap, so their sum is the tester's loss. */
static int afx_stats(void *vp, struct port_stats *st)
{
	struct afx *p = vp;
	uint64_t drops = 0, ring_full = 0, fill_empty = 0, tx_invalid = 0;

	for (unsigned int i = 0; i < p->nq && p->q[i].xsk; i++) {
		struct xdp_statistics xs;
		socklen_t len = sizeof(xs);

		memset(&xs, 0, sizeof(xs));
		if (getsockopt(p->q[i].fd, SOL_XDP, XDP_STATISTICS, &xs, &len))
			return -errno;
		drops += xs.rx_dropped;
		ring_full += xs.rx_ring_full;
		fill_empty += xs.rx_fill_ring_empty_descs;
		tx_invalid += xs.tx_invalid_descs;
	}
	*st = p->st;
	if (p->want_rx) {
		st->rx_drops = drops + ring_full;
		st->rx_freezes = ring_full + fill_empty;
	}
	st->tx_errors += tx_invalid;
	if (p->nl) {
		struct ifcount now, d = { .rx_dropped = st->rx_if_drops, .tx_dropped = st->tx_if_refused };

		if (!ifcount_read(p->nl, p->ifname, &now)) {
			ifcount_since(&p->if0, &now, &d);
			if (p->want_rx && now.rx_dropped >= p->if0.rx_dropped) {
				st->rx_if_drops = d.rx_dropped;
				/* veth counts a frame its XDP redirect could not
				 * hand to the socket in rx_dropped as well: those
				 * are in rx_drops already (measured: equal). */
				if (p->is_veth)
					st->rx_if_drops = st->rx_if_drops > st->rx_drops ?
							  st->rx_if_drops - st->rx_drops : 0;
			}
			if (p->want_tx)
				st->tx_if_refused = d.tx_dropped;
		}
	}
	return 0;
}

const struct port_ops afxdp_ops = {
	.name = "afxdp", .open = afx_open, .close = afx_close,
	.tx_slots = afx_tx_slots, .tx_slot = afx_tx_slot,
	.tx_acquire = afx_tx_acquire, .tx_submit = afx_tx_submit,
	.tx_kick = afx_tx_kick, .tx_pending = afx_tx_pending, .tx_revoke = afx_tx_revoke,
	.rx_poll = afx_rx_poll, .stats = afx_stats,
};
