/* The public port API: one ops table per port type. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "io/port.h"
#include "io/port_impl.h"

struct port {
	const struct port_ops *ops;
	void *impl;
};

static const struct port_ops *ops_of(enum port_type type)
{
	switch (type) {
	case PORT_AFPACKET:
		return &afpacket_ring_ops;
	case PORT_AFPACKET_MMSG:
		return &afpacket_mmsg_ops;
	case PORT_AFXDP:
		return &afxdp_ops;
	}
	return NULL;
}

const char *port_type_name(enum port_type type)
{
	const struct port_ops *o = ops_of(type);

	return o ? o->name : "unknown";
}

struct port *port_open(enum port_type type, const struct port_cfg *cfg, char *err, size_t errlen)
{
	const struct port_ops *o = ops_of(type);
	struct port *p;

	if (!o) {
		snprintf(err, errlen, "unknown port type %d", (int)type);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	p->ops = o;
	if (!(p->impl = o->open(cfg, err, errlen))) {
		free(p);
		return NULL;
	}
	return p;
}

void port_close(struct port *p)
{
	if (!p)
		return;
	p->ops->close(p->impl);
	free(p);
}

unsigned int port_tx_slots(const struct port *p) { return p->ops->tx_slots(p->impl); }
uint8_t *port_tx_slot(struct port *p, unsigned int i) { return p->ops->tx_slot(p->impl, i); }
unsigned int port_tx_acquire(struct port *p, unsigned int n, unsigned int *first)
{
	return p->ops->tx_acquire(p->impl, n, first);
}
void port_tx_submit(struct port *p, unsigned int i, unsigned int len) { p->ops->tx_submit(p->impl, i, len); }
int port_tx_kick(struct port *p) { return p->ops->tx_kick(p->impl); }
unsigned int port_tx_pending(struct port *p) { return p->ops->tx_pending(p->impl); }
unsigned int port_tx_revoke(struct port *p) { return p->ops->tx_revoke(p->impl); }
int port_rx_poll(struct port *p, port_rx_fn fn, void *ctx, int timeout_ms)
{
	return p->ops->rx_poll(p->impl, fn, ctx, timeout_ms);
}
int port_stats(struct port *p, struct port_stats *st) { return p->ops->stats(p->impl, st); }
