/* The ops table a packet port implements: open, the TX slots (acquire,
 * submit, kick), receive polling, stats and close. port.c dispatches the
 * public port_* calls to it; AF_PACKET fills two (TX ring, sendmmsg) and
 * AF_XDP one. */
#ifndef WR_IO_PORT_IMPL_H
#define WR_IO_PORT_IMPL_H

#include "io/port.h"

struct port_ops {
	const char *name;
	void *(*open)(const struct port_cfg *cfg, char *err, size_t errlen);
	void (*close)(void *impl);
	unsigned int (*tx_slots)(const void *impl);
	uint8_t *(*tx_slot)(void *impl, unsigned int i);
	unsigned int (*tx_acquire)(void *impl, unsigned int n, unsigned int *first);
	void (*tx_submit)(void *impl, unsigned int i, unsigned int len);
	int (*tx_kick)(void *impl);
	unsigned int (*tx_pending)(void *impl);
	unsigned int (*tx_revoke)(void *impl);
	int (*rx_poll)(void *impl, port_rx_fn fn, void *ctx, int timeout_ms);
	int (*stats)(void *impl, struct port_stats *st);
};

/* Ring sizes are powers of two: the smallest one at least v. */
static inline unsigned int port_pow2_at_least(unsigned int v)
{
	unsigned int p = 1;

	while (p < v)
		p <<= 1;
	return p;
}

extern const struct port_ops afpacket_ring_ops;
extern const struct port_ops afpacket_mmsg_ops;
extern const struct port_ops afxdp_ops;

#endif
