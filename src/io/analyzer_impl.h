/* The ops table an analyzer implements; analyzer.c dispatches the public
 * analyzer_* calls to it. Each implementation embeds struct analyzer first
 * in its own state. Every op is called once a trial, or from the progress
 * and stop checks a few times a second: the per-frame work stays inside
 * run. */
#ifndef WR_IO_ANALYZER_IMPL_H
#define WR_IO_ANALYZER_IMPL_H

#include "io/analyzer.h"

struct analyzer_ops {
	const char *(*path_name)(const struct analyzer *a);
	int (*flow_fd)(const struct analyzer *a);
	void (*arm)(struct analyzer *a, const struct analyzer_arm *arm);
	int (*run)(struct analyzer *a, const volatile int *stop, uint64_t grace_ns, char *err, size_t errlen);
	void (*set_deadline)(struct analyzer *a, uint64_t deadline_ns);
	void (*close_window)(struct analyzer *a);
	uint64_t (*received)(const struct analyzer *a);
	int (*read)(struct analyzer *a, const uint64_t *sent, struct analyzer_result *r, struct hist *h,
		    char *err, size_t errlen);
	void (*destroy)(struct analyzer *a);
};

struct analyzer {
	const struct analyzer_ops *ops;
	unsigned int nstreams;
	unsigned int latency_every;	/* analyzer_latency_every(), set by arm */
};

struct analyzer *analyzer_port_create(const struct analyzer_cfg *cfg, char *err, size_t errlen);
struct analyzer *analyzer_xdp_create(const struct analyzer_cfg *cfg, char *err, size_t errlen);
int analyzer_xdp_check(double frames, char *err, size_t errlen);

#endif
