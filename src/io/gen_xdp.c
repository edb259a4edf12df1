/* The generator over XDP live frames: io/xdpgen.h does the work; this maps
 * a gen_phase onto an xdpgen_phase and its figures back. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/ns.h"
#include "io/gen.h"
#include "io/gen_impl.h"
#include "os/nl.h"
#include "io/xdpgen.h"

struct gen_xdp {
	struct gen gen;		/* first: the public handle */
	struct xdpgen *xg;
	double rate_pps;	/* the last phase's */
};

static struct gen_xdp *of(const struct gen *g)
{
	return (struct gen_xdp *)g;
}

int gen_xdp_check(const unsigned int *sizes, unsigned int nsizes, char *err, size_t errlen)
{
	if (nsizes > 1) {
		snprintf(err, errlen, "the XDP generator sends one frame size per trial: a size mix needs --port-type afpacket");
		return -EINVAL;
	}
	if (nsizes && sizes[0] > XDPGEN_FRAME_MAX + FRAME_FCS_LEN) {
		snprintf(err, errlen, "the XDP generator sends frames up to %u bytes (one page each): --size %u needs --port-type afpacket",
			 XDPGEN_FRAME_MAX + FRAME_FCS_LEN, sizes[0]);
		return -EINVAL;
	}
	return 0;
}

static const char *xdp_path_name(const struct gen *g)
{
	(void)g;
	return "xdp";
}

static int xdp_run(struct gen *g, const struct gen_phase *ph, char *err, size_t errlen)
{
	struct gen_xdp *x = of(g);
	struct xdpgen_phase xp = {
		.rate_pps = ph->rate_pps, .start_ns = ph->start_ns,
		.end_ns = ph->soft_end_ns && ph->soft_end_ns < ph->end_ns ? ph->soft_end_ns : ph->end_ns,
		.limit = ph->limit, .epoch_ns = ph->epoch_ns, .max_burst = ph->max_burst,
		.trial = ph->trial, .stream = ph->stream, .window = ph->window,
		.flow_slot = ph->flow_slot, .analyzer_apart = ph->analyzer_apart,
		.latency_every = ph->latency_every,
	};

	x->rate_pps = ph->rate_pps;
	return xdpgen_run(x->xg, &xp, err, errlen);
}

static void xdp_stop(struct gen *g)
{
	xdpgen_stop(of(g)->xg);
}

static uint64_t xdp_sent(const struct gen *g)
{
	return xdpgen_sent(of(g)->xg);
}

static void xdp_stats(const struct gen *g, struct gen_stats *st)
{
	const struct gen_xdp *x = of(g);
	struct xdpgen_stats xs;

	xdpgen_stats(x->xg, &xs);
	*st = (struct gen_stats){ .sent = xs.sent, .last_ns = xs.last_ns, .flow_waits = xs.flow_waits,
				  .flow_gave_up = xs.flow_gave_up, .batch = xs.batch };
	/* A frame that leaves late goes out right behind the one before:
	 * the worst lag in frames is the largest burst. */
	st->max_backlog = (uint64_t)((double)xs.max_lag_ns * x->rate_pps / NSEC_PER_SEC);
	st->largest_burst = (unsigned int)st->max_backlog + 1;
}

static int xdp_ring_refused(const struct gen *g, uint64_t *n)
{
	return xdpgen_ring_refused(of(g)->xg, n);
}

static int xdp_port_counters(struct gen *g, uint64_t *tx_errors, uint64_t *tx_refused)
{
	(void)g;
	*tx_errors = *tx_refused = 0;
	return -EOPNOTSUPP;
}

static void xdp_destroy(struct gen *g)
{
	xdpgen_close(of(g)->xg);
	free(g);
}

static const struct gen_ops gen_xdp_ops = {
	.path_name = xdp_path_name,
	.run = xdp_run,
	.stop = xdp_stop,
	.sent = xdp_sent,
	.stats = xdp_stats,
	.ring_refused = xdp_ring_refused,
	.port_counters = xdp_port_counters,
	.destroy = xdp_destroy,
};

struct gen *gen_xdp_create(const struct gen_cfg *cfg, char *err, size_t errlen)
{
	struct gen_xdp *x = calloc(1, sizeof(*x));
	struct frame_spec spec = *cfg->spec;
	struct xdpgen_cfg xc = { .ifname = cfg->ifname, .nsfd = cfg->nsfd, .spec = &spec,
				 .flows = cfg->flows, .flow_fd = cfg->flow_fd };

	if (!x) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	spec.size = cfg->sizes[0];
	if (!(x->xg = xdpgen_open(&xc, err, errlen))) {
		free(x);
		return NULL;
	}
	x->gen.ops = &gen_xdp_ops;
	x->gen.flow_window = cfg->flow_fd > 0 ? XDPGEN_FLOW_WINDOW : 0;
	/* veth hands an XDP frame only to a peer that runs XDP; a tap or a
	 * NIC takes it as it is */
	{
		struct link_info li;

		x->gen.needs_xdp_peer = nl_link_get_in(cfg->nsfd, cfg->ifname, &li) || !strcmp(li.kind, "veth");
	}
	return &x->gen;
}
