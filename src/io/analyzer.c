/* The public analyzer API: one ops table per kind of analyzer. */
#include <errno.h>
#include <stdio.h>

#include "io/analyzer.h"
#include "io/analyzer_impl.h"

struct analyzer *analyzer_create(const struct analyzer_cfg *cfg, char *err, size_t errlen)
{
	switch (cfg->type) {
	case ANALYZER_PORT:
		return analyzer_port_create(cfg, err, errlen);
	case ANALYZER_XDP:
		return analyzer_xdp_create(cfg, err, errlen);
	}
	snprintf(err, errlen, "unknown analyzer type %d", (int)cfg->type);
	return NULL;
}

void analyzer_destroy(struct analyzer *a)
{
	if (a)
		a->ops->destroy(a);
}

int analyzer_check(enum analyzer_type type, double frames, char *err, size_t errlen)
{
	/* a port's analyzer tracks sequence numbers in a window: no limit */
	return type == ANALYZER_XDP ? analyzer_xdp_check(frames, err, errlen) : 0;
}

const char *analyzer_path_name(const struct analyzer *a) { return a->ops->path_name(a); }
int analyzer_flow_fd(const struct analyzer *a) { return a->ops->flow_fd(a); }
void analyzer_arm(struct analyzer *a, const struct analyzer_arm *arm) { a->ops->arm(a, arm); }
unsigned int analyzer_latency_every(const struct analyzer *a) { return a->latency_every; }
int analyzer_run(struct analyzer *a, const volatile int *stop, uint64_t grace_ns, char *err, size_t errlen)
{
	return a->ops->run(a, stop, grace_ns, err, errlen);
}
void analyzer_set_deadline(struct analyzer *a, uint64_t deadline_ns) { a->ops->set_deadline(a, deadline_ns); }
void analyzer_close_window(struct analyzer *a) { a->ops->close_window(a); }
uint64_t analyzer_received(const struct analyzer *a) { return a->ops->received(a); }
int analyzer_read(struct analyzer *a, const uint64_t *sent, struct analyzer_result *r, struct hist *h,
		  char *err, size_t errlen)
{
	return a->ops->read(a, sent, r, h, err, errlen);
}
