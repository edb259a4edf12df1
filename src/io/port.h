/* Packet ports behind one ops table: the generator transmits pre-built
 * frames from slots (only the tag is rewritten per frame), the analyzer
 * polls received frames. AF_PACKET (TX_RING / TPACKET_V3), its sendmmsg
 * fallback and AF_XDP each implement the table (port_impl.h). */
#ifndef WR_IO_PORT_H
#define WR_IO_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum port_type {
	PORT_AFPACKET,		/* TX_RING + QDISC_BYPASS, TPACKET_V3 RX ring */
	PORT_AFPACKET_MMSG,	/* plain AF_PACKET socket, sendmmsg batches */
	PORT_AFXDP,		/* AF_XDP socket: UMEM TX, RX through an XDP redirect */
};

struct port_cfg {
	const char *ifname;
	int nsfd;		/* namespace of ifname; -1 = the caller's */
	bool tx, rx;
	unsigned int tx_slots;	/* frames in flight at most (power of 2) */
	unsigned int frame_max;	/* largest frame written, bytes without FCS */
	unsigned int tx_queue;	/* AF_XDP, transmitting only: the queue to bind (a
				 * generator's thread k takes queue k) */
	unsigned int rx_block_kib;	/* TPACKET_V3 block size */
	unsigned int rx_blocks;
};

struct port_stats {
	uint64_t tx_frames;	/* handed to the kernel */
	uint64_t tx_errors;	/* the kernel refused (TP_STATUS_WRONG_FORMAT, send errors) */
	uint64_t tx_if_refused;	/* the next hop's queue refused a frame since open; the
				 * TX ring then sends it again (veth back-pressure) */
	uint64_t rx_frames;	/* seen by this socket */
	uint64_t rx_drops;	/* dropped by this socket's ring: the tester's own loss */
	uint64_t rx_if_drops;	/* dropped on the way into the receive interface since
				 * open (its backlog queue on the tester's CPU) */
	uint64_t rx_freezes;	/* times the ring was full */
};

/* Called for each received frame; ts_ns is the kernel's receive time
 * (CLOCK_REALTIME). */
typedef void (*port_rx_fn)(void *ctx, const uint8_t *frame, uint32_t len, uint64_t ts_ns);

struct port;

struct port *port_open(enum port_type type, const struct port_cfg *cfg, char *err, size_t errlen);
void port_close(struct port *p);
const char *port_type_name(enum port_type type);

/* Number of TX slots and the buffer of slot i, to build frames in once. */
unsigned int port_tx_slots(const struct port *p);
uint8_t *port_tx_slot(struct port *p, unsigned int i);
/* Up to n free slots starting at the cursor; *first gets the first index.
 * Returns how many (0 when the ring is full: the tester is behind). */
unsigned int port_tx_acquire(struct port *p, unsigned int n, unsigned int *first);
/* Queue slot i (from the last acquire, in order) with len bytes. */
void port_tx_submit(struct port *p, unsigned int i, unsigned int len);
/* Hand what was submitted to the kernel; 0 or -errno. */
int port_tx_kick(struct port *p);
/* Slots still owned by the kernel (frames not yet freed). */
unsigned int port_tx_pending(struct port *p);
/* Frames submitted that the kernel has not taken (the next hop held them
 * back), taken back so they are never sent; returns how many. They were
 * the last ones submitted, so a generator subtracts them from what it
 * sent and its sequence stays whole. */
unsigned int port_tx_revoke(struct port *p);

/* Deliver received frames to fn; waits up to timeout_ms for the first.
 * Returns frames delivered or -errno. */
int port_rx_poll(struct port *p, port_rx_fn fn, void *ctx, int timeout_ms);

int port_stats(struct port *p, struct port_stats *st);

#endif
