/* The public generator API: one ops table per kind of generator. */
#include <errno.h>
#include <stdio.h>

#include "io/gen.h"
#include "io/gen_impl.h"

struct gen *gen_create(const struct gen_cfg *cfg, char *err, size_t errlen)
{
	switch (cfg->type) {
	case GEN_PORT:
		return gen_port_create(cfg, err, errlen);
	case GEN_XDP:
		return gen_xdp_create(cfg, err, errlen);
	}
	snprintf(err, errlen, "unknown generator type %d", (int)cfg->type);
	return NULL;
}

void gen_destroy(struct gen *g)
{
	if (g)
		g->ops->destroy(g);
}

int gen_check(enum gen_type type, const unsigned int *sizes, unsigned int nsizes, char *err, size_t errlen)
{
	/* a port's slots take any size a frame can have */
	return type == GEN_XDP ? gen_xdp_check(sizes, nsizes, err, errlen) : 0;
}

const char *gen_path_name(const struct gen *g) { return g->ops->path_name(g); }
unsigned int gen_flow_window(const struct gen *g) { return g->flow_window; }
bool gen_needs_xdp_peer(const struct gen *g) { return g->needs_xdp_peer; }
bool gen_resends_refused(const struct gen *g) { return g->resends_refused; }
int gen_run(struct gen *g, const struct gen_phase *ph, char *err, size_t errlen)
{
	return g->ops->run(g, ph, err, errlen);
}
void gen_stop(struct gen *g) { g->ops->stop(g); }
uint64_t gen_sent(const struct gen *g) { return g->ops->sent(g); }
void gen_stats(const struct gen *g, struct gen_stats *st) { g->ops->stats(g, st); }
int gen_ring_refused(const struct gen *g, uint64_t *n) { return g->ops->ring_refused(g, n); }
int gen_link_counters(struct gen *g, uint64_t *tx_errors, uint64_t *tx_refused)
{
	return g->ops->port_counters(g, tx_errors, tx_refused);
}
