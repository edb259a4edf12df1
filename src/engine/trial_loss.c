/* A trial's loss attribution: the DUT's counters before the traffic and
 * after the drain, the tester's own counts, core/lossattr.c between. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dut/dut.h"
#include "engine/trial_impl.h"
#include "io/gen.h"

/* Through the DUT's agent, whatever the DUT is: the lab's agent lives in
 * its DUT namespace, a separate box's came over ssh. */
int trial_loss_snapshot(const struct trial_dut *d, struct dutsnap *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof(*s));
	return dut_snapshot(d->agent, s, err, errlen);
}

/* What the transmit port's far end refused: veth counts a frame its peer's
 * ring would not take as the sender's tx_dropped (the XDP generator's
 * ring_drops are among them). */
static int tx_dropped(const struct trial_dir *t, uint64_t *n)
{
	struct link_info li;
	int rc = nl_link_get_in(t->tx_nsfd, t->tx_if, &li);

	if (!rc)
		*n = li.tx_dropped;
	return rc;
}

/* A VM lab's direction runs from a tap to a tap, QEMU at their other
 * ends: what QEMU read from the transmit one (its tx_packets, counted
 * as QEMU reads) and wrote into the receive one (rx_packets, and
 * rx_dropped: what the XDP analyzer takes and what the tap refused). */
static int tap_counts(const struct trial_dir *t, uint64_t *read, uint64_t *written)
{
	struct link_info tx, rx;
	int rc = nl_link_get_in(t->tx_nsfd, t->tx_if, &tx);

	if (!rc)
		rc = nl_link_get_in(t->rx_nsfd, t->rx_if, &rx);
	if (rc)
		return rc;
	if (strcmp(tx.kind, "tun") || strcmp(rx.kind, "tun"))
		return -ENOTTY;
	*read = tx.tx_packets;
	*written = rx.rx_packets + rx.rx_dropped;
	return 0;
}

void trial_loss_before(struct run *r)
{
	const struct trial_cfg *c = r->cfg;

	if (r->snap_tried)
		return;
	r->snap_tried = true;
	for (unsigned int d = 0; d < c->ndirs; d++) {
		r->txdrop_read[d] = !tx_dropped(&c->dir[d], &r->txdrop0[d]);
		r->taps[d] = c->dut.on && c->dut.lab &&
			     !tap_counts(&c->dir[d], &r->tap_read0[d], &r->tap_written0[d]);
	}
	if (!c->dut.on || !(r->snap0 = calloc(1, sizeof(*r->snap0))))
		return;
	if (trial_loss_snapshot(&c->dut, r->snap0, r->snap_err, sizeof(r->snap_err))) {
		free(r->snap0);
		r->snap0 = NULL;
	}
}

void trial_loss_after(struct run *r, struct trial_result *res)
{
	const struct trial_cfg *c = r->cfg;
	struct dutsnap *after = NULL;
	struct lossattr_in in = { .ndirs = c->ndirs };

	if (r->snap0 && (after = calloc(1, sizeof(*after))) &&
	    trial_loss_snapshot(&c->dut, after, r->snap_err, sizeof(r->snap_err))) {
		dutsnap_clear(after);
		free(after);
		after = NULL;
	}
	if (c->dut.on && (!r->snap0 || !after))
		snprintf(res->loss_note, sizeof(res->loss_note), "no DUT counters: %s",
			 r->snap_err[0] ? r->snap_err : "out of memory");
	else if (r->snap_late)
		snprintf(res->loss_note, sizeof(res->loss_note),
			 "the DUT answered after the traffic began: what it dropped first is unaccounted");
	for (unsigned int d = 0; d < c->ndirs; d++) {
		const struct trial_dir_result *o = &res->dir[d];
		struct lossattr_dir *ld = &in.dir[d];
		uint64_t now = 0, txd = 0, refused = o->ring_drops, read = 0, written = 0;

		/* A TX ring offers a refused frame again: its port's drops
		 * are retries (the back-pressure the tester reports), not loss. */
		if (r->txdrop_read[d] && !tx_dropped(&c->dir[d], &now) && now >= r->txdrop0[d] &&
		    !gen_resends_refused(r->gen[d][0].gen))
			txd = now - r->txdrop0[d];
		/* what the DUT's full ingress refused of the load: its loss */
		*ld = (struct lossattr_dir){ .sent = o->tx + o->dut_refused, .received = o->rx,
					     .tester_tx_errors = o->tx_errors,
					     .tester_rx_drops = o->tester_rx_drops,
					     .tester_if_drops = o->tester_if_drops,
					     .tester_refused = o->tester_refused };
		/* In the lab the transmit port is a veth whose peer is the DUT's
		 * ingress: what it could not hand over, that ring refused (the
		 * XDP generator's ring_drops among them). On cabled ports a
		 * transmit drop is the tester's own; back to back the far end's
		 * ring is the tester's too. */
		ld->held_back = o->dut_refused;
		if (r->taps[d] && !tap_counts(&c->dir[d], &read, &written)) {
			/* a tap's tx_dropped misses frames (lossattr.h): what
			 * QEMU read and wrote counts them instead */
			ld->taps = true;
			ld->tap_in = c->dir[d].tx_if;
			ld->tap_out = c->dir[d].rx_if;
			ld->tap_read = read >= r->tap_read0[d] ? read - r->tap_read0[d] : 0;
			ld->tap_written = written >= r->tap_written0[d] ? written - r->tap_written0[d] : 0;
		} else if (c->dut.on && c->dut.lab) {
			ld->ingress_refused = txd > refused ? txd : refused;
		} else if (c->dir[d].direct) {
			ld->tester_refused += txd > refused ? txd : refused;
		} else {
			ld->ingress_refused = refused;
			ld->tester_tx_errors += txd;
		}
		if (c->dut.on) {
			const struct trial_dir *t = &c->dir[d];

			ld->dut_in = c->dut.ifnames[2 * t->path + t->back];
			ld->dut_out = c->dut.ifnames[2 * t->path + !t->back];
			ld->out_feeds_rx = c->dir[d].rx_peer_if && ld->dut_out &&
					   !strcmp(c->dir[d].rx_peer_if, ld->dut_out);
		}
	}
	in.before = after ? r->snap0 : NULL;
	in.after = after;
	in.dut_cpus = cpuset_count(&c->dut.cpus) ? &c->dut.cpus : NULL;
	in.dut_late = r->snap_late;
	res->loss_valid = !lossattr_compute(&in, res->loss);
	dutsnap_clear(after);
	free(after);
	dutsnap_clear(r->snap0);
	free(r->snap0);
	r->snap0 = NULL;
}
