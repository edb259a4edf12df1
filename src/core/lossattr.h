/* Where a trial's lost frames went: sent - received of each direction
 * split by the counters that saw them, read before and after the trial
 * on the tester and on the DUT (core/dutsnap.h). Pure.
 *
 * Places, in the order a frame passes them (each is the tester's, the
 * DUT's or, in a VM lab, the lab's plumbing: lossattr_place_owner):
 *   tester-tx    the tester's transmit errors (counted sent, never out)
 *   lab-tap      a VM lab: frames put on the tester's transmit tap that
 *                QEMU never read (the tap's queue was full); the tap's
 *                own tx_dropped misses part of them (one count per XDP
 *                bulk it refuses), so they are what the tester sent less
 *                what QEMU read (the tap's tx_packets)
 *   lab-qemu     a VM lab: frames QEMU read from the transmit tap that
 *                never reached the guest's NIC (its rx_packets), or that
 *                the guest's egress NIC sent (its tx_packets) and QEMU
 *                never wrote into the receive tap (rx_packets + rx_dropped)
 *   dut-ingress  the DUT's receive side of this direction's ingress port:
 *                NIC missed/fifo/over, rx_dropped (veth: its ring, the
 *                backlog), XDP drops, and frames its ring refused that
 *                the tester's transmit port counted (veth counts those at
 *                both ends: the larger of the two counts, once)
 *   dut-stack    the DUT's stack: softnet backlog drops on the DUT's CPUs
 *                (those not already an interface's rx_dropped), nft rules
 *                that drop and count, no route, TTL exceeded, IP discards,
 *                header and address errors
 *   qdisc        each qdisc on the egress port that dropped ("tbf on dut1")
 *   dut-egress   the egress port's tx_dropped and tx_errors (less what the
 *                tester's receive port refused, when the egress is its
 *                far end and counted those)
 *   tester-rx    the tester's receive ring and interface drops
 *   unaccounted  sent - received - the rest, never negative
 *
 * Several directions (both ways, several ports) through one DUT share
 * the stack's counters (softnet, nft, snmp): they cannot be split by
 * direction from counters. They are
 * given to the directions in proportion to the loss each has left after
 * its own counters (largest remainder, so the parts add up exactly); a
 * direction that lost nothing more gets none. When the counters saw more
 * than was lost (other traffic through the DUT, a counter of something
 * else), nothing is scaled: the entries say what the counters saw,
 * unaccounted is 0 and over says by how much they over-explain. */
#ifndef WR_CORE_LOSSATTR_H
#define WR_CORE_LOSSATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "core/dutsnap.h"

enum lossattr_place {
	LOSS_TESTER_TX,
	LOSS_LAB_TAP,
	LOSS_LAB_QEMU,
	LOSS_DUT_INGRESS,
	LOSS_DUT_STACK,
	LOSS_QDISC,
	LOSS_DUT_EGRESS,
	LOSS_TESTER_RX,
	LOSS_UNACCOUNTED,
	LOSS_NPLACES
};

#define LOSSATTR_MAX 48
#define LOSSATTR_MAX_DIRS 8	/* both ways through 4 ports */
#define LOSSATTR_DETAIL 160

struct lossattr_entry {
	enum lossattr_place place;
	char detail[LOSSATTR_DETAIL];	/* "tbf on dut1"; "" for unaccounted */
	uint64_t frames;
	bool shared;			/* a stack counter split between directions */
};

/* One direction's attribution: entries most frames first, unaccounted
 * (when not 0) last. */
struct lossattr {
	uint64_t lost;			/* sent - received */
	uint64_t held_back;		/* of lost, the DUT's back-pressure (never sent) */
	uint64_t counted;		/* the entries other than unaccounted, added up */
	uint64_t over;			/* counted - lost when the counters saw more */
	bool have_dut;			/* DUT counters were read around the trial */
	unsigned int n;
	struct lossattr_entry e[LOSSATTR_MAX];
};

/* What the tester knows of one direction (engine/trial.h's
 * trial_dir_result) and which DUT ports it crosses. */
struct lossattr_dir {
	uint64_t sent, received;
	uint64_t tester_tx_errors;
	uint64_t tester_rx_drops, tester_if_drops, tester_refused;
	/* Frames the DUT ingress ring refused, counted on the tester's side
	 * when the two are a veth pair (the XDP generator's ring_drops, the
	 * transmit port's tx_dropped); veth counts them in the DUT port's
	 * rx_dropped as well. */
	uint64_t ingress_refused;
	/* Frames of the load the DUT's full ingress queue held back (a veth's
	 * or a tap's back-pressure): never sent, in sent all the same, as
	 * the DUT's shortfall at its ingress. */
	uint64_t held_back;
	const char *dut_in, *dut_out;	/* DUT port names; NULL: not known */
	/* dut_out is the far end of the tester's receive port and its
	 * tx_dropped holds tester_refused + tester_if_drops (veth). */
	bool out_feeds_rx;
	/* A VM lab: the tester's ports are taps whose other ends are QEMU's
	 * NICs for dut_in and dut_out; their counts over the trial. */
	bool taps;
	const char *tap_in, *tap_out;	/* the transmit and receive taps */
	uint64_t tap_read;		/* frames QEMU read from tap_in (tx_packets) */
	uint64_t tap_written;		/* frames QEMU wrote into tap_out (rx_packets
					 * + rx_dropped: what the tester's XDP
					 * analyzer takes is rx_dropped there) */
};

struct lossattr_in {
	unsigned int ndirs;		/* 1..LOSSATTR_MAX_DIRS */
	struct lossattr_dir dir[LOSSATTR_MAX_DIRS];
	const struct dutsnap *before, *after;	/* NULL: no DUT counters */
	const struct cpuset *dut_cpus;	/* softnet drops on these CPUs; NULL: all */
	/* The DUT's first reading ended after the traffic began: the frames
	 * it took first are in neither of its readings' difference, so a VM
	 * lab's QEMU hop (the tap's count less the guest's) is not made. */
	bool dut_late;
};

/* Fill out[0..ndirs-1]. -EINVAL for ndirs outside 1..LOSSATTR_MAX_DIRS, -ENOMEM. */
int lossattr_compute(const struct lossattr_in *in, struct lossattr *out);

/* "tester-tx", "lab-tap", "lab-qemu", "dut-ingress", ..., "unaccounted". */
const char *lossattr_place_name(enum lossattr_place p);
/* Whose the place is: "tester", "lab" (a VM lab's tap and QEMU: the
 * plumbing between the tester and the guest), "dut" (the DUT's kernel:
 * in a VM lab the guest's), "" for unaccounted. */
const char *lossattr_place_owner(enum lossattr_place p);
/* The place called s; -EINVAL when none (read back from the store). */
int lossattr_place_parse(const char *s, enum lossattr_place *p);

/* Add one entry (frames 0 ignored), keeping the most-first order with
 * unaccounted last; for readers that rebuild an attribution (the store).
 * Full: the smallest entries merge into "other". */
void lossattr_add(struct lossattr *a, enum lossattr_place p, const char *detail, uint64_t frames);

/* "lost 59879: qdisc tbf on dut1 59879" (most frames first, "unaccounted
 * N" last; "lost 0" without a colon); with a lab place among them, whose
 * the frames were after it ("; the DUT's (guest kernel) 12, the lab's
 * (tap, QEMU) 89454"). Truncated to fit buf; returns buf. */
const char *lossattr_format(const struct lossattr *a, char *buf, size_t len);

/* What limited a trial that lost frames: one verdict from where the loss
 * went and how busy the DUT's CPUs were. */
enum lossattr_limit_by {
	LIMIT_NONE,		/* nothing lost */
	LIMIT_TESTER,		/* the tester's own loss or shortfall */
	LIMIT_DUT_CPU,		/* the ingress ring overflowed with a CPU saturated */
	LIMIT_DUT_AWAY,		/* sporadic ring overflow, CPUs not saturated */
	LIMIT_DUT_INGRESS,	/* the ingress dropped, the CPUs' load unknown */
	LIMIT_QDISC,		/* a qdisc (a shaper, a queue limit) */
	LIMIT_DUT_STACK,	/* the stack: firewall, no route, TTL, backlog */
	LIMIT_DUT_EGRESS,	/* the egress port */
	LIMIT_LAB,		/* a VM lab's QEMU lost them: the lab, not the DUT */
	LIMIT_UNKNOWN,		/* no counter saw most of it */
};

/* How the DUT's CPUs fared in the trial, for the verdict. */
struct lossattr_cpu_hint {
	bool known;		/* busy_pct is read (the DUT's CPUs were watched) */
	unsigned int cpu;	/* the busiest */
	double busy_pct;	/* its busy share (the soak's when higher), 0..100 */
	double stall_ms;	/* the longest stall of a DUT CPU; < 0: not probed */
};

/* A CPU this busy counts as saturated: a DUT forwarding flat out reads
 * 95-100% busy; 90% leaves room for the ticks /proc/stat misses. */
#define LOSSATTR_SATURATED_PCT 90.0
/* Loss under this (per million sent) with no CPU saturated is sporadic:
 * a CPU away for moments, not a capacity (1%: a held vCPU lost up to
 * 3,500 per million here, 1,064 of 300,000 frames at 100 kpps). */
#define LOSSATTR_SPORADIC_PPM 10000.0

/* The verdict over a trial's directions a[0..ndirs), and a line for
 * it in buf ("the DUT's CPU: CPU 1 busy 97.7%, and the ring of dut0
 * overflowed"). tester: the trial was tester-limited. */
enum lossattr_limit_by lossattr_limit(const struct lossattr *a, unsigned int ndirs, const uint64_t *sent,
				      bool tester, const struct lossattr_cpu_hint *cpu, char *buf, size_t len);
/* "none", "tester", "dut-cpu", "dut-away", "dut-ingress", "qdisc",
 * "dut-stack", "dut-egress", "lab", "unknown". */
const char *lossattr_limit_name(enum lossattr_limit_by by);

#endif
