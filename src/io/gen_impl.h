/* The ops table a generator implements; gen.c dispatches the public gen_*
 * calls to it. Each implementation embeds struct gen first in its own
 * state. Every op is called once a phase or once a trial: the per-frame
 * loop stays inside run. */
#ifndef WR_IO_GEN_IMPL_H
#define WR_IO_GEN_IMPL_H

#include "io/gen.h"

struct gen_ops {
	const char *(*path_name)(const struct gen *g);
	int (*run)(struct gen *g, const struct gen_phase *ph, char *err, size_t errlen);
	void (*stop)(struct gen *g);
	uint64_t (*sent)(const struct gen *g);
	void (*stats)(const struct gen *g, struct gen_stats *st);
	int (*ring_refused)(const struct gen *g, uint64_t *n);
	int (*port_counters)(struct gen *g, uint64_t *tx_errors, uint64_t *tx_refused);
	void (*destroy)(struct gen *g);
};

struct gen {
	const struct gen_ops *ops;
	unsigned int flow_window;	/* gen_flow_window() */
	bool needs_xdp_peer;		/* gen_needs_xdp_peer() */
	bool resends_refused;		/* gen_resends_refused() */
};

struct gen *gen_port_create(const struct gen_cfg *cfg, char *err, size_t errlen);
struct gen *gen_xdp_create(const struct gen_cfg *cfg, char *err, size_t errlen);
int gen_xdp_check(const unsigned int *sizes, unsigned int nsizes, char *err, size_t errlen);

#endif
