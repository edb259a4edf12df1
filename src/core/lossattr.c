#include "core/lossattr.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpustat.h"

static const char *const place_names[LOSS_NPLACES] = {
	"tester-tx", "lab-tap", "lab-qemu", "dut-ingress", "dut-stack", "qdisc", "dut-egress", "tester-rx",
	"unaccounted",
};

const char *lossattr_place_name(enum lossattr_place p)
{
	return (unsigned int)p < LOSS_NPLACES ? place_names[p] : "?";
}

const char *lossattr_place_owner(enum lossattr_place p)
{
	switch (p) {
	case LOSS_TESTER_TX:
	case LOSS_TESTER_RX:
		return "tester";
	case LOSS_LAB_TAP:
	case LOSS_LAB_QEMU:
		return "lab";
	case LOSS_DUT_INGRESS:
	case LOSS_DUT_STACK:
	case LOSS_QDISC:
	case LOSS_DUT_EGRESS:
		return "dut";
	default:
		return "";
	}
}

int lossattr_place_parse(const char *s, enum lossattr_place *p)
{
	for (unsigned int i = 0; i < LOSS_NPLACES; i++)
		if (!strcmp(s, place_names[i])) {
			*p = (enum lossattr_place)i;
			return 0;
		}
	return -EINVAL;
}

/* a before b in the list: more frames first, then the order of places. */
static bool before(const struct lossattr_entry *a, const struct lossattr_entry *b)
{
	if ((a->place == LOSS_UNACCOUNTED) != (b->place == LOSS_UNACCOUNTED))
		return b->place == LOSS_UNACCOUNTED;
	if (a->frames != b->frames)
		return a->frames > b->frames;
	return a->place < b->place;
}

static void add(struct lossattr *a, enum lossattr_place p, const char *detail, uint64_t frames, bool shared)
{
	struct lossattr_entry e = { .place = p, .frames = frames, .shared = shared };
	unsigned int i;

	if (!frames)
		return;
	snprintf(e.detail, sizeof(e.detail), "%s", detail ? detail : "");
	/* The same place and detail again (the store's rows, a counter
	 * named twice) adds up. */
	for (i = 0; i < a->n; i++)
		if (a->e[i].place == p && !strcmp(a->e[i].detail, e.detail)) {
			e.frames += a->e[i].frames;
			e.shared |= a->e[i].shared;
			memmove(&a->e[i], &a->e[i + 1], (a->n - i - 1) * sizeof(e));
			a->n--;
			break;
		}
	/* Full: the rest go into one last entry, "others", so that the
	 * frames still add up; unaccounted always has its slot. */
	if (p != LOSS_UNACCOUNTED && a->n >= LOSSATTR_MAX - 1) {
		for (i = 0; i < a->n; i++)
			if (!strcmp(a->e[i].detail, "others"))
				break;
		if (i == a->n) {
			/* the smallest regular entry becomes "others" */
			for (i = a->n; i-- > 0;)
				if (a->e[i].place != LOSS_UNACCOUNTED)
					break;
			snprintf(a->e[i].detail, sizeof(a->e[i].detail), "others");
		}
		e = a->e[i];
		e.frames += frames;
		memmove(&a->e[i], &a->e[i + 1], (a->n - i - 1) * sizeof(e));
		a->n--;
	}
	for (i = a->n; i > 0 && before(&e, &a->e[i - 1]); i--)
		a->e[i] = a->e[i - 1];
	a->e[i] = e;
	a->n++;
}

void lossattr_add(struct lossattr *a, enum lossattr_place p, const char *detail, uint64_t frames)
{
	add(a, p, detail, frames, false);
	if (p != LOSS_UNACCOUNTED)
		a->counted += frames;
}

/* What a counter added; one that went back (reset, an interface made
 * again) added nothing we can know. */
static uint64_t d64(uint64_t after, uint64_t before_)
{
	return after >= before_ ? after - before_ : 0;
}

/* ---- one direction's own counters ---- */

struct list {
	unsigned int n;
	struct lossattr_entry e[LOSSATTR_MAX * 2];
};

__attribute__((format(printf, 4, 5)))
static void put(struct list *l, enum lossattr_place p, uint64_t frames, const char *fmt, ...)
{
	va_list ap;

	if (!frames || l->n >= sizeof(l->e) / sizeof(l->e[0]))
		return;
	l->e[l->n].place = p;
	l->e[l->n].frames = frames;
	va_start(ap, fmt);
	vsnprintf(l->e[l->n].detail, sizeof(l->e[l->n].detail), fmt, ap);
	va_end(ap);
	l->n++;
}

static bool same_qdisc(const struct dutsnap_qdisc *a, const struct dutsnap_qdisc *b)
{
	return !strcmp(a->dev, b->dev) && !strcmp(a->kind, b->kind) && a->handle == b->handle &&
	       a->parent == b->parent;
}

#define TC_ROOT 0xFFFFFFFFu
#define TC_INGRESS 0xFFFFFFF1u

/* Drops of every qdisc on dev, on its egress (ingress false) or ingress
 * side. A parent qdisc's counts include what its children dropped (mq
 * adds them up; htb, prio and tbf count a child's refusal as their own):
 * each child keeps its drops, the root only what is left over. */
static void qdiscs(struct list *l, const struct dutsnap *b, const struct dutsnap *a, const char *dev, bool ingress)
{
	uint64_t child = 0, root = 0;
	const struct dutsnap_qdisc *rq = NULL;
	unsigned int na = a->nqdisc < DUTSNAP_QDISC_MAX ? a->nqdisc : DUTSNAP_QDISC_MAX;
	unsigned int nb = b->nqdisc < DUTSNAP_QDISC_MAX ? b->nqdisc : DUTSNAP_QDISC_MAX;
	char detail[LOSSATTR_DETAIL];

	for (unsigned int i = 0; i < na; i++) {
		const struct dutsnap_qdisc *q = &a->qdisc[i];
		uint64_t d = q->drops;
		bool in = q->parent == TC_INGRESS || !strcmp(q->kind, "ingress") || !strcmp(q->kind, "clsact");

		if (strcmp(q->dev, dev) || in != ingress)
			continue;
		for (unsigned int j = 0; j < nb; j++)
			if (same_qdisc(q, &b->qdisc[j])) {
				d = d64(q->drops, b->qdisc[j].drops);
				break;
			}
		if (q->parent == TC_ROOT || in) {
			rq = q;
			root += d;
			continue;
		}
		snprintf(detail, sizeof(detail), "%.15s %x: on %.63s", q->kind, q->handle >> 16, dev);
		put(l, LOSS_QDISC, d, "%s", detail);
		child += d;
	}
	if (rq && root > child) {
		snprintf(detail, sizeof(detail), "%.15s on %.63s", rq->kind, dev);
		put(l, ingress ? LOSS_DUT_INGRESS : LOSS_QDISC, root - child, "%s", detail);
	}
}

/* " (queue 0 1523, queue 3 12)": the ring's drops by receive queue, when
 * the interface has more than one and the driver names them (RSS that
 * sends one flow's frames to one queue shows as one queue dropping). */
static void queue_split(const struct dutsnap_if *b, const struct dutsnap_if *a, char *buf, size_t len)
{
	char one[40];
	unsigned int shown = 0, more = 0, nq = a->nqueue < b->nqueue ? a->nqueue : b->nqueue;

	buf[0] = 0;
	if (nq < 2)
		return;
	for (unsigned int q = 0; q < nq && q < DUTSNAP_QUEUE_MAX; q++) {
		uint64_t v = d64(a->queue[q].ring_drops + a->queue[q].xdp_drops,
				 b->queue[q].ring_drops + b->queue[q].xdp_drops);

		if (!v)
			continue;
		if (shown == 3) {
			more++;
			continue;
		}
		snprintf(one, sizeof(one), "%squeue %u %llu", shown ? ", " : " (", q, (unsigned long long)v);
		strncat(buf, one, len - strlen(buf) - 1);
		shown++;
	}
	if (more) {
		snprintf(one, sizeof(one), ", %u more", more);
		strncat(buf, one, len - strlen(buf) - 1);
	}
	if (shown)
		strncat(buf, ")", len - strlen(buf) - 1);
}

/* The DUT's port name in both readings; false when it is not in both. */
static bool if_pair(const struct dutsnap *b, const struct dutsnap *a, const char *name, const struct dutsnap_if **ib,
		    const struct dutsnap_if **ia)
{
	return b && a && name && (*ib = dutsnap_if_find(b, name)) && (*ia = dutsnap_if_find(a, name)) &&
	       (*ib)->present && (*ia)->present;
}

/* A VM lab's way in: the tester's transmit tap, then QEMU. A frame the
 * tester put on the tap is either read by QEMU (the tap's tx_packets,
 * counted as QEMU reads) or dropped by the tap when its queue is full,
 * which happens when QEMU stops reading (the guest's receive ring has
 * no free buffer, or QEMU's thread is not running). The tap's own
 * tx_dropped counts one frame per XDP bulk it refuses, not each frame,
 * so the tap's loss is what was put on it less what QEMU read. What QEMU
 * read and the guest's NIC did not take (its rx_packets; its rx_dropped
 * too, so that a guest's ring drop is never counted twice) is QEMU's. */
static void taps_in(const struct lossattr_dir *d, const struct dutsnap *b, const struct dutsnap *a, bool late,
		    struct list *l)
{
	const char *tap = d->tap_in ? d->tap_in : "the tap";
	const struct dutsnap_if *ib, *ia;
	uint64_t on_tap = d64(d64(d->sent, d->held_back), d->tester_tx_errors);

	put(l, LOSS_LAB_TAP, d64(on_tap, d->tap_read), "queue of %.40s full: QEMU did not read them in time", tap);
	if (!late && if_pair(b, a, d->dut_in, &ib, &ia))
		put(l, LOSS_LAB_QEMU,
		    d64(d->tap_read, d64(ia->rx_packets, ib->rx_packets) + d64(ia->rx_dropped, ib->rx_dropped)),
		    "read from %.40s, never in %.40s's ring", tap, d->dut_in);
}

/* A VM lab's way out: what the guest's egress NIC sent (virtio counts a
 * frame when QEMU has taken it from the ring) and QEMU never wrote into
 * the tester's receive tap. */
static void taps_out(const struct lossattr_dir *d, const struct dutsnap *b, const struct dutsnap *a, struct list *l)
{
	const struct dutsnap_if *ib, *ia;

	if (if_pair(b, a, d->dut_out, &ib, &ia))
		put(l, LOSS_LAB_QEMU, d64(d64(ia->tx_packets, ib->tx_packets), d->tap_written),
		    "sent by %.40s, never written into %.40s", d->dut_out, d->tap_out ? d->tap_out : "the tap");
}

static void own(const struct lossattr_dir *d, const struct dutsnap *b, const struct dutsnap *a, bool late,
		struct list *l)
{
	const struct dutsnap_if *ib, *ia;

	const char *in = d->dut_in ? d->dut_in : "the DUT's ingress";
	uint64_t ring = 0;
	char ring_detail[LOSSATTR_DETAIL] = "", queues[96] = "";

	put(l, LOSS_TESTER_TX, d->tester_tx_errors, "%stransmit errors", "");
	if (d->taps)
		taps_in(d, b, a, late, l);
	if (b && a && d->dut_in && (ib = dutsnap_if_find(b, d->dut_in)) && (ia = dutsnap_if_find(a, d->dut_in)) &&
	    ib->present && ia->present) {
		uint64_t dropped = d64(ia->rx_dropped, ib->rx_dropped);
		uint64_t rq = d64(ia->ring_drops, ib->ring_drops);

		put(l, LOSS_DUT_INGRESS, d64(ia->rx_missed, ib->rx_missed), "missed on %.63s", d->dut_in);
		put(l, LOSS_DUT_INGRESS, d64(ia->rx_fifo, ib->rx_fifo), "fifo on %.63s", d->dut_in);
		put(l, LOSS_DUT_INGRESS, d64(ia->rx_over, ib->rx_over), "over on %.63s", d->dut_in);
		/* veth's rx_dropped holds its ring's drops (ethtool's
		 * rx_queue_N_drops) and the backlog's: the larger, once. */
		ring = rq > dropped ? rq : dropped;
		queue_split(ib, ia, queues, sizeof(queues));
		snprintf(ring_detail, sizeof(ring_detail), "%s on %.40s%s", rq > dropped ? "ring" : "rx_dropped", d->dut_in,
			 queues);
		put(l, LOSS_DUT_INGRESS, d64(ia->xdp_drops, ib->xdp_drops), "XDP drop on %.63s", d->dut_in);
	}
	/* A frame veth's ring refused is counted at both ends: the sender's
	 * tx_dropped (the tester's port) and the receiver's rx_dropped: the
	 * larger, once. */
	if (d->taps)
		put(l, LOSS_LAB_TAP, d->held_back, "held back by %.40s's full queue toward %.40s (back-pressure: never "
		    "sent)", d->tap_in ? d->tap_in : "the tap", in);
	else
		put(l, LOSS_DUT_INGRESS, d->held_back, "held back by %.40s's full queue (back-pressure: never sent)", in);
	if (d->ingress_refused >= ring)
		put(l, LOSS_DUT_INGRESS, d->ingress_refused, "ring of %.40s (refused at the tester's port)%s", in, queues);
	else
		put(l, LOSS_DUT_INGRESS, ring, "%s", ring_detail);
	if (b && a && d->dut_in)
		qdiscs(l, b, a, d->dut_in, true);
	if (b && a && d->dut_out)
		qdiscs(l, b, a, d->dut_out, false);
	if (b && a && d->dut_out && (ib = dutsnap_if_find(b, d->dut_out)) &&
	    (ia = dutsnap_if_find(a, d->dut_out)) && ib->present && ia->present) {
		uint64_t txd = d64(ia->tx_dropped, ib->tx_dropped);
		uint64_t tester = d->tester_refused + d->tester_if_drops;

		if (d->out_feeds_rx)
			txd = txd > tester ? txd - tester : 0;
		put(l, LOSS_DUT_EGRESS, txd, "tx_dropped on %.63s", d->dut_out);
		put(l, LOSS_DUT_EGRESS, d64(ia->tx_errors, ib->tx_errors), "tx_errors on %.63s", d->dut_out);
		put(l, LOSS_DUT_EGRESS, d64(ia->xdp_tx_errors, ib->xdp_tx_errors), "XDP transmit errors on %.63s",
		    d->dut_out);
	}
	if (d->taps)
		taps_out(d, b, a, l);
	put(l, LOSS_TESTER_RX, d->tester_rx_drops, "%sreceive ring", "");
	put(l, LOSS_TESTER_RX, d->tester_if_drops, "%sreceive interface", "");
	if (d->dut_out && d->out_feeds_rx)
		put(l, LOSS_TESTER_RX, d->tester_refused, "receive port's ring (counted by %.63s)", d->dut_out);
	else
		put(l, LOSS_TESTER_RX, d->tester_refused, "%sreceive port's ring", "");
}

/* ---- the stack's counters, one set for the whole DUT ---- */

static uint64_t softnet_drops(const struct dutsnap *b, const struct dutsnap *a, const struct cpuset *cpus)
{
	struct softnetstat *sb, *sa;
	uint64_t n = 0;
	char e[64];

	if (!b->proc_softnet || !a->proc_softnet)
		return 0;
	sb = malloc(sizeof(*sb));
	sa = malloc(sizeof(*sa));
	if (sb && sa && !cpustat_parse_softnet(b->proc_softnet, NULL, sb, e, sizeof(e)) &&
	    !cpustat_parse_softnet(a->proc_softnet, NULL, sa, e, sizeof(e)))
		for (unsigned int c = 0; c < CPUSTAT_MAX; c++) {
			if (!sa->cpu[c].present || !sb->cpu[c].present || (cpus && !cpuset_has(cpus, c)))
				continue;
			/* the kernel prints a 32-bit counter */
			n += (uint32_t)(sa->cpu[c].dropped - sb->cpu[c].dropped);
		}
	free(sb);
	free(sa);
	return n;
}

static void shared(const struct lossattr_in *in, struct list *l)
{
	const struct dutsnap *b = in->before, *a = in->after;
	const struct dutsnap_stack *sb = &b->stack, *sa = &a->stack;
	uint64_t backlog = softnet_drops(b, a, in->dut_cpus), counted = 0;
	char detail[LOSSATTR_DETAIL];

	/* A backlog drop is also its device's rx_dropped (dut-ingress
	 * already) or, on the tester's CPUs, the tester's interface drop. */
	for (unsigned int i = 0; i < a->nif && i < DUTSNAP_IF_MAX; i++) {
		const struct dutsnap_if *ib = dutsnap_if_find(b, a->ifs[i].name);

		if (ib && ib->present && a->ifs[i].present)
			counted += d64(a->ifs[i].rx_dropped, ib->rx_dropped);
	}
	for (unsigned int d = 0; d < in->ndirs; d++)
		counted += in->dir[d].tester_if_drops;
	put(l, LOSS_DUT_STACK, backlog > counted ? backlog - counted : 0, "%ssoftnet backlog", "");

	for (unsigned int i = 0; i < a->nnft && i < DUTSNAP_NFT_MAX; i++) {
		const struct dutsnap_nft *r = &a->nft[i];
		uint64_t p0 = 0;

		for (unsigned int j = 0; j < b->nnft && j < DUTSNAP_NFT_MAX; j++)
			if (b->nft[j].handle == r->handle && !strcmp(b->nft[j].family, r->family) &&
			    !strcmp(b->nft[j].table, r->table) && !strcmp(b->nft[j].chain, r->chain)) {
				p0 = b->nft[j].packets;
				break;
			}
		snprintf(detail, sizeof(detail), "nft %.7s %.40s %.40s rule %llu", r->family, r->table, r->chain,
			 (unsigned long long)r->handle);
		put(l, LOSS_DUT_STACK, d64(r->packets, p0), "%s", detail);
	}
	if (!sb->present || !sa->present)
		return;
	/* A TTL that runs out counts as a header error too, and as an ICMP
	 * time exceeded when the ICMP rate limit let it go. */
	uint64_t hdr = d64(sa->ip_in_hdr_errors, sb->ip_in_hdr_errors) +
		       d64(sa->ip6_in_hdr_errors, sb->ip6_in_hdr_errors);
	uint64_t ttl = d64(sa->icmp_out_time_excds, sb->icmp_out_time_excds) +
		       d64(sa->icmp6_out_time_excds, sb->icmp6_out_time_excds);

	if (ttl > hdr)
		ttl = hdr;
	put(l, LOSS_DUT_STACK, ttl, "%sTTL exceeded", "");
	put(l, LOSS_DUT_STACK, hdr - ttl, "%sIP header errors", "");
	put(l, LOSS_DUT_STACK, d64(sa->ip_in_no_routes, sb->ip_in_no_routes) +
			       d64(sa->ip_out_no_routes, sb->ip_out_no_routes) +
			       d64(sa->ip6_in_no_routes, sb->ip6_in_no_routes), "%sno route", "");
	put(l, LOSS_DUT_STACK, d64(sa->ip_in_addr_errors, sb->ip_in_addr_errors), "%sIP address errors", "");
	put(l, LOSS_DUT_STACK, d64(sa->ip_in_discards, sb->ip_in_discards) +
			       d64(sa->ip_out_discards, sb->ip_out_discards) +
			       d64(sa->ip6_in_discards, sb->ip6_in_discards) +
			       d64(sa->ip6_out_discards, sb->ip6_out_discards), "%sIP discards", "");
}

/* n split by weights w[0..k-1] (largest remainder: the parts add up to n). */
static void split(uint64_t n, const uint64_t *w, unsigned int k, uint64_t *part)
{
	long double tot = 0, rem[LOSSATTR_MAX_DIRS] = { 0 };
	uint64_t given = 0;

	if (k == 1) {
		part[0] = n;
		return;
	}
	for (unsigned int i = 0; i < k; i++)
		tot += (long double)w[i];
	for (unsigned int i = 0; i < k; i++) {
		long double x = tot > 0 ? (long double)n * (long double)w[i] / tot : (i == 0 ? (long double)n : 0);

		part[i] = (uint64_t)x;
		if (part[i] > n - given)
			part[i] = n - given;
		rem[i] = x - (long double)part[i];
		given += part[i];
	}
	while (given < n) {
		unsigned int best = 0;

		for (unsigned int i = 1; i < k; i++)
			if (rem[i] > rem[best])
				best = i;
		part[best]++;
		rem[best] = -1;
		given++;
	}
}

int lossattr_compute(const struct lossattr_in *in, struct lossattr *out)
{
	struct list *own_l, *sh;
	uint64_t w[LOSSATTR_MAX_DIRS] = { 0 }, wsum = 0;

	if (!in->ndirs || in->ndirs > LOSSATTR_MAX_DIRS)
		return -EINVAL;
	own_l = calloc(in->ndirs + 1, sizeof(*own_l));
	if (!own_l)
		return -ENOMEM;
	sh = &own_l[in->ndirs];
	for (unsigned int d = 0; d < in->ndirs; d++) {
		const struct lossattr_dir *dd = &in->dir[d];
		struct lossattr *o = &out[d];

		memset(o, 0, sizeof(*o));
		o->lost = d64(dd->sent, dd->received);
		o->held_back = dd->held_back < o->lost ? dd->held_back : o->lost;
		o->have_dut = in->before && in->after;
		own(dd, in->before, in->after, in->dut_late, &own_l[d]);
		for (unsigned int i = 0; i < own_l[d].n; i++)
			lossattr_add(o, own_l[d].e[i].place, own_l[d].e[i].detail, own_l[d].e[i].frames);
		w[d] = d64(o->lost, o->counted);
		wsum += w[d];
	}
	if (in->before && in->after)
		shared(in, sh);
	/* Shared counters go where loss is left to explain; with none left,
	 * where the loss was; with no loss, to the first direction. */
	if (!wsum)
		for (unsigned int d = 0; d < in->ndirs; d++)
			w[d] = out[d].lost;
	for (unsigned int i = 0; i < sh->n; i++) {
		uint64_t part[LOSSATTR_MAX_DIRS] = { 0 };

		split(sh->e[i].frames, w, in->ndirs, part);
		for (unsigned int d = 0; d < in->ndirs; d++) {
			add(&out[d], sh->e[i].place, sh->e[i].detail, part[d], in->ndirs > 1);
			out[d].counted += part[d];
		}
	}
	for (unsigned int d = 0; d < in->ndirs; d++) {
		struct lossattr *o = &out[d];

		if (o->counted > o->lost)
			o->over = o->counted - o->lost;
		else
			add(o, LOSS_UNACCOUNTED, "", o->lost - o->counted, false);
	}
	free(own_l);
	return 0;
}

/* With a lab place among the entries (a VM lab), whose the frames were:
 * the guest kernel's, the lab's tap and QEMU, the tester's. */
static void owners(const struct lossattr *a, char *buf, size_t len, size_t *n)
{
	uint64_t lab = 0, dut = 0, tester = 0;

	for (unsigned int i = 0; i < a->n; i++) {
		const char *o = lossattr_place_owner(a->e[i].place);

		if (!strcmp(o, "lab"))
			lab += a->e[i].frames;
		else if (!strcmp(o, "dut"))
			dut += a->e[i].frames;
		else if (!strcmp(o, "tester"))
			tester += a->e[i].frames;
	}
	if (!lab)
		return;
	*n += (size_t)snprintf(buf + (*n < len ? *n : len), *n < len ? len - *n : 0,
			       "; the DUT's (guest kernel) %llu, the lab's (tap, QEMU) %llu", (unsigned long long)dut,
			       (unsigned long long)lab);
	if (tester)
		*n += (size_t)snprintf(buf + (*n < len ? *n : len), *n < len ? len - *n : 0, ", the tester's %llu",
				       (unsigned long long)tester);
}

const char *lossattr_format(const struct lossattr *a, char *buf, size_t len)
{
	size_t n = 0;

#define PUT(...) (n += (size_t)snprintf(buf + (n < len ? n : len), n < len ? len - n : 0, __VA_ARGS__))
	if (!len)
		return buf;
	buf[0] = '\0';
	if (a->held_back)
		PUT("short of the load by %llu (lost %llu, held back by the DUT %llu)", (unsigned long long)a->lost,
		    (unsigned long long)(a->lost - a->held_back), (unsigned long long)a->held_back);
	else
		PUT("lost %llu", (unsigned long long)a->lost);
	for (unsigned int i = 0; i < a->n; i++) {
		const struct lossattr_entry *e = &a->e[i];

		PUT("%s%s%s%s %llu", i ? ", " : ": ", lossattr_place_name(e->place), e->detail[0] ? " " : "",
		    e->detail, (unsigned long long)e->frames);
	}
	owners(a, buf, len, &n);
	if (a->over)
		PUT("; the counters over-explain by %llu (other traffic through the DUT?)",
		    (unsigned long long)a->over);
#undef PUT
	return buf;
}

const char *lossattr_limit_name(enum lossattr_limit_by by)
{
	static const char *const names[] = {
		[LIMIT_NONE] = "none", [LIMIT_TESTER] = "tester", [LIMIT_DUT_CPU] = "dut-cpu",
		[LIMIT_DUT_AWAY] = "dut-away", [LIMIT_DUT_INGRESS] = "dut-ingress", [LIMIT_QDISC] = "qdisc",
		[LIMIT_DUT_STACK] = "dut-stack", [LIMIT_DUT_EGRESS] = "dut-egress", [LIMIT_LAB] = "lab",
		[LIMIT_UNKNOWN] = "unknown",
	};

	return (unsigned int)by < sizeof(names) / sizeof(names[0]) ? names[by] : "unknown";
}

/* The place an entry counts as in the verdict: a VM lab's full tap is
 * the DUT's receive side (QEMU stops reading it when the guest's ring
 * has no room), counted at the lab's plumbing. */
static enum lossattr_place verdict_place(enum lossattr_place p)
{
	return p == LOSS_LAB_TAP ? LOSS_DUT_INGRESS : p;
}

enum lossattr_limit_by lossattr_limit(const struct lossattr *a, unsigned int ndirs, const uint64_t *sent,
				      bool tester, const struct lossattr_cpu_hint *cpu, char *buf, size_t len)
{
	const struct lossattr_entry *top = NULL;
	uint64_t lost = 0, tx = 0, by_place[LOSS_NPLACES] = { 0 };
	enum lossattr_place place;
	double ppm;
	char stall[64] = "", what[LOSSATTR_DETAIL + 16] = "";

	for (unsigned int d = 0; d < ndirs; d++) {
		lost += a[d].lost;
		tx += sent[d];
		for (unsigned int i = 0; i < a[d].n; i++)
			by_place[verdict_place(a[d].e[i].place)] += a[d].e[i].frames;
	}
	buf[0] = 0;
	if (tester) {
		snprintf(buf, len, "the tester: it fell short or dropped frames itself (see above), not the DUT");
		return LIMIT_TESTER;
	}
	if (!lost) {
		snprintf(buf, len, "nothing: every frame was forwarded");
		return LIMIT_NONE;
	}
	/* the place that saw the most frames, over both directions */
	place = LOSS_TESTER_TX;
	for (unsigned int p = 0; p < LOSS_UNACCOUNTED; p++)
		if (by_place[p] > by_place[place])
			place = (enum lossattr_place)p;
	if (!by_place[place] || by_place[LOSS_UNACCOUNTED] > by_place[place])
		place = LOSS_UNACCOUNTED;
	/* its largest entry names it */
	for (unsigned int d = 0; d < ndirs; d++)
		for (unsigned int i = 0; i < a[d].n; i++)
			if (verdict_place(a[d].e[i].place) == place && (!top || a[d].e[i].frames > top->frames))
				top = &a[d].e[i];
	/* a lab place is named with its place: the lab's, not the guest's */
	if (top)
		snprintf(what, sizeof(what), "%s%s%s", strcmp(lossattr_place_owner(top->place), "lab") ? "" :
			 lossattr_place_name(top->place), strcmp(lossattr_place_owner(top->place), "lab") ? "" : " ",
			 top->detail);
	ppm = tx ? 1e6 * (double)lost / (double)tx : 0;
	if (cpu && cpu->stall_ms >= 0)
		snprintf(stall, sizeof(stall), "; its longest stall %.1f ms", cpu->stall_ms);
	switch (place) {
	case LOSS_DUT_INGRESS:
		if (cpu && cpu->known && cpu->busy_pct >= LOSSATTR_SATURATED_PCT) {
			snprintf(buf, len, "the DUT's CPU: CPU %u busy %.1f%%, and its receive side dropped %llu frames: "
				 "%s", cpu->cpu, cpu->busy_pct, (unsigned long long)by_place[place],
				 top ? what : "dut-ingress");
			return LIMIT_DUT_CPU;
		}
		if (cpu && cpu->known && ppm < LOSSATTR_SPORADIC_PPM) {
			snprintf(buf, len, "sporadic: the DUT's receive side dropped %llu frames (%.0f ppm) while no CPU "
				 "of it was saturated (busiest: CPU %u at %.1f%%%s): its CPU was away for moments "
				 "(a held vCPU, another task), not its capacity", (unsigned long long)by_place[place], ppm,
				 cpu->cpu, cpu->busy_pct, stall);
			return LIMIT_DUT_AWAY;
		}
		snprintf(buf, len, "the DUT's receive side: %llu frames, %s%s", (unsigned long long)by_place[place],
			 top ? what : "dut-ingress",
			 cpu && cpu->known ? "; its CPUs not saturated by /proc/stat, which misses interrupt time "
					     "(--soak sees it)" : "");
		return LIMIT_DUT_INGRESS;
	case LOSS_QDISC:
		snprintf(buf, len, "a qdisc: %s dropped %llu frames (a shaper or a queue limit)",
			 top ? what : "qdisc", (unsigned long long)by_place[place]);
		return LIMIT_QDISC;
	case LOSS_DUT_STACK:
	case LOSS_DUT_EGRESS: {
		const char *part = place == LOSS_DUT_STACK ? "stack" : "egress";

		snprintf(buf, len, "the DUT's %s: %s, %llu frames", part, top ? what : part,
			 (unsigned long long)by_place[place]);
		return place == LOSS_DUT_STACK ? LIMIT_DUT_STACK : LIMIT_DUT_EGRESS;
	}
	case LOSS_LAB_QEMU:
		snprintf(buf, len, "the lab, not the DUT: %s, %llu frames", top ? what : "QEMU",
			 (unsigned long long)by_place[place]);
		return LIMIT_LAB;
	case LOSS_TESTER_TX:
	case LOSS_TESTER_RX:
		snprintf(buf, len, "the tester: %llu frames dropped on its own ports", (unsigned long long)by_place[place]);
		return LIMIT_TESTER;
	default:
		snprintf(buf, len, "not known: no counter saw most of the %llu frames lost", (unsigned long long)lost);
		return LIMIT_UNKNOWN;
	}
}
