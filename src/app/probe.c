#include "app/probe.h"
#include "lab/vm_kernel.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>

#include "core/cpuset.h"
#include "core/ns.h"
#include "dut/soak.h"
#include "io/xdpgen.h"
#include "os/netns.h"
#include "os/procstat.h"

int app_probe_check_require(const char *list, char *err, size_t errlen)
{
	const char *p = list;
	char name[64];

	for (;;) {
		size_t n = strcspn(p, ",");

		if (!n) {
			snprintf(err, errlen, "--require: %s'%s': give feature names, e.g. af_xdp,veth",
				 *list ? "an empty name in " : "", list);
			return -EINVAL;
		}
		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		if (n >= sizeof(name) || hostcaps_find(name) < 0) {
			snprintf(err, errlen, "--require: unknown feature '%.*s' (see 'wirerate probe' for names)", (int)n,
				 p);
			return -EINVAL;
		}
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

/* Two 200 ms readings of every CPU's soak speed and the steal time over
 * them (under half a second): a host whose CPUs change speed, or whose
 * hypervisor takes them, gives soak figures that drift from their
 * calibration (docs/cpu.md). SOAK_IDLE_TOL is the tolerance of the
 * soak's idle check before each soaked trial. */
static void check_steady(struct probe_report *r)
{
	struct soak_steady st;
	struct cpuset cpus;
	char err[256], line[200];

	if (procstat_online(NULL, &cpus, err, sizeof(err)) ||
	    soak_steady_check(&cpus, 200 * NSEC_PER_MSEC, &st, err, sizeof(err))) {
		hostcaps_set(r, PR_STEADY_CPU, PROBE_UNKNOWN, err);
		return;
	}
	if (st.spread > SOAK_IDLE_TOL || st.steal_ticks > 0) {
		int n = snprintf(line, sizeof(line), "not steady:");

		if (st.spread > SOAK_IDLE_TOL)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " CPU %u's speed moved %.0f%% between two "
				      "200 ms readings;", st.cpu, 100 * st.spread);
		if (st.steal_ticks > 0)
			n += snprintf(line + n, sizeof(line) - (size_t)n, " the hypervisor stole %lld ticks in %.1f s;",
				      (long long)st.steal_ticks, st.seconds);
		snprintf(line + n, sizeof(line) - (size_t)n, " soak figures drift (docs/cpu.md)");
		hostcaps_set(r, PR_STEADY_CPU, PROBE_NO, line);
	} else {
		snprintf(line, sizeof(line), "two 200 ms readings of each CPU's speed within %.1f%%, no steal time",
			 100 * st.spread);
		hostcaps_set(r, PR_STEADY_CPU, PROBE_YES, line);
	}
}

/* Whether BPF_PROG_RUN's live frames work: the XDP generator's way. */
static void check_live(struct probe_report *r, bool have_root, bool *live, char *live_why, size_t whylen)
{
	char why[200], line[256];

	*live = false;
	if (!have_root) {
		hostcaps_set(r, PR_XDP_LIVE, PROBE_UNKNOWN, "needs root to try");
		snprintf(live_why, whylen, "needs root to try");
	} else if (xdpgen_probe(why, sizeof(why))) {
		snprintf(live_why, whylen, "%s", why);
		snprintf(line, sizeof(line), "%s: the generator uses AF_PACKET", why);
		hostcaps_set(r, PR_XDP_LIVE, PROBE_NO, line);
	} else {
		*live = true;
		hostcaps_set(r, PR_XDP_LIVE, PROBE_YES, "BPF_PROG_RUN live frames: the XDP generator (no skb, paced in BPF)");
	}
}

void app_probe_run(struct probe_report *r, const char *root, bool have_root, bool steady, bool *live,
		   char *live_why, size_t whylen)
{
	hostcaps_run(r, root, have_root);
	check_live(r, have_root, live, live_why, whylen);
	{
		char list[2048];
		int n = vm_kernel_cached(list, sizeof(list));

		for (char *p = list; *p; p++)
			if (*p == '\n')
				*p = p[1] ? ';' : '\0';
		if (n)
			hostcaps_set(r, PR_VM_KERNELS, PROBE_YES, list);
		else
			hostcaps_set(r, PR_VM_KERNELS, PROBE_NO, "none cached yet: 'lab up --kernel VERSION' fetches a Debian "
				  "kernel package into the cache");
	}
	if (steady)
		check_steady(r);
}

int app_probe_require(const struct probe_report *r, const char *list, char *err, size_t errlen)
{
	char *buf = strdup(list), *save = NULL;
	int rc = 0;

	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	/* the names were checked (app_probe_check_require) */
	for (char *n = strtok_r(buf, ",", &save); n && !rc; n = strtok_r(NULL, ",", &save)) {
		int i = hostcaps_find(n);

		if (i < 0 || r->item[i].state != PROBE_YES) {
			snprintf(err, errlen, "%s missing: %s", n, i < 0 ? "not a feature" : r->item[i].detail);
			rc = -ENOENT;
		}
	}
	free(buf);
	return rc;
}

int app_probe_port(const char *spec, bool live, const char *live_why, struct app_probe_port *out)
{
	char name[IF_NAMESIZE];
	const char *at = strchr(spec, '@');
	int nsfd = -1, rc;

	memset(out, 0, sizeof(*out));
	snprintf(name, sizeof(name), "%.*s", (int)(at ? (size_t)(at - spec) : strlen(spec)), spec);
	if (at && (nsfd = netns_open(at + 1)) < 0) {
		rc = -ENOENT;
		snprintf(out->err, sizeof(out->err), "no network namespace '%s'", at + 1);
	} else {
		rc = ifprobe_run(nsfd, name, &out->p, out->err, sizeof(out->err));
	}
	if (nsfd >= 0)
		close(nsfd);
	if (rc)
		return rc;

	struct port_path_in in = { .tx_name = spec, .rx_name = spec, .tx = &out->p, .live_frames = live,
				  .live_why = live_why, .one_size_fits = true };

	app_port_path_choose(&in, &out->auto_path);
	return 0;
}

void app_probe_host(const struct app_probe_cfg *c, struct app_probe_host *h)
{
	char live_why[200] = "";
	bool here = !strcmp(c->root, "/"), live;

	memset(h, 0, sizeof(*h));
	app_probe_run(&h->r, c->root, c->have_root, here && (!c->require || strstr(c->require, "steady_cpu")), &live,
		      live_why, sizeof(live_why));
	if (c->require)
		return;
	if ((h->here = here))
		h->nlines = cpulat_from_first(h->lines, APP_PROBE_LINE_PAIRS);
	for (h->nports = 0; h->nports < c->nifs; h->nports++) {
		h->spec[h->nports] = c->ifs[h->nports];
		h->port_rc[h->nports] = app_probe_port(c->ifs[h->nports], live, live_why, &h->ports[h->nports]);
	}
}
