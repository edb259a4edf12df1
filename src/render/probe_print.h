/* What 'wirerate probe' prints, text and JSON from the same calls: the
 * host's line and a line per feature, the time a cache line takes from
 * the first CPU to each other one, and each --tx interface. */
#ifndef WR_RENDER_PROBE_PRINT_H
#define WR_RENDER_PROBE_PRINT_H

#include "app/probe.h"
#include "os/cpulat.h"
#include "os/hostcaps.h"
#include "render/out.h"

void probe_print_report(struct out *o, const struct probe_report *r);
/* n pairs; one not measured shows "?", then goes to unmeasured, which
 * says why. */
void probe_print_cpu_lines(struct out *o, const struct cpulat_pair *p, int n,
			  void (*unmeasured)(void *ctx, const struct cpulat_pair *p), void *ctx);
/* One --tx interface: rc is app_probe_port's (nonzero: pp->err). */
void probe_print_port(struct out *o, const char *spec, int rc, const struct app_probe_port *pp);

/* What a run of 'wirerate probe' says on stderr beside its report. */
struct probeprint_hooks {
	void (*unmeasured)(void *ctx, const struct cpulat_pair *p);	/* a "?" CPU pair */
	void (*port_failed)(void *ctx, const char *spec, const char *why);	/* a --tx interface */
	void *ctx;
};
/* The whole report of app_probe_host: the host, the CPU lines (when
 * measured) and the interfaces. Returns how many interfaces failed. */
unsigned int probe_print_host(struct out *o, const struct app_probe_host *h, const struct probeprint_hooks *k);

#endif
