#include "render/probe_print.h"

#include <stdio.h>

static const char *state_word(enum probe_state s)
{
	return s == PROBE_YES ? "yes" : s == PROBE_NO ? "no" : "?";
}

void probe_print_report(struct out *o, const struct probe_report *r)
{
	out_str(o, "kernel", "kernel %s", r->kernel);
	out_u64(o, "cpus", ", %llu CPUs online", r->cpus_online);
	out_str(o, "cpus_online", " (%s)", r->cpus_list);
	out_str(o, "clocksource", ", clocksource %s\n\n", r->clocksource);
	out_obj_start(o, "features");
	for (int i = 0; i < PR_COUNT; i++) {
		const struct probe_item *it = &r->item[i];

		out_obj_start(o, it->name);
		out_text(o, "  %-4s %-20s ", state_word(it->state), it->name);
		if (it->state == PROBE_UNKNOWN)
			out_null(o, "ok");
		else
			out_bool(o, "ok", NULL, it->state == PROBE_YES);
		out_str(o, "detail", "%s\n", it->detail);
		out_obj_end(o);
	}
	out_obj_end(o);
}

void probe_print_cpu_lines(struct out *o, const struct cpulat_pair *p, int n,
			  void (*unmeasured)(void *ctx, const struct cpulat_pair *p), void *ctx)
{
	out_obj_start(o, "cpu_line_ns");
	if (n)
		out_text(o, "\n  one cache line from CPU %d to:", p[0].a);
	for (int i = 0; i < n; i++) {
		char key[32];

		cpulat_pair_name(p[i].a, p[i].b, key, sizeof(key));
		out_text(o, "%s CPU %d", i ? "," : "", p[i].b);
		if (p[i].ns > 0) {
			out_f64(o, key, " %.0f ns", p[i].ns);
		} else {
			out_null(o, key);
			out_text(o, " ?");
			unmeasured(ctx, &p[i]);
		}
	}
	if (n)
		out_text(o, "\n");
	out_obj_end(o);
}

static const char *ans_word(enum ifprobe_ans a)
{
	return a == IFPROBE_YES ? "yes" : a == IFPROBE_NO ? "no" : "?";
}

static void out_ans(struct out *o, const char *key, enum ifprobe_ans a)
{
	if (a == IFPROBE_UNKNOWN)
		out_null(o, key);
	else
		out_bool(o, key, NULL, a == IFPROBE_YES);
}

void probe_print_port(struct out *o, const char *spec, int rc, const struct app_probe_port *pp)
{
	const struct ifprobe *p = &pp->p;

	out_obj_start(o, NULL);
	out_str(o, "interface", "\ninterface %s", spec);
	if (rc) {
		out_str(o, "error", ": %s\n", pp->err);
		out_obj_end(o);
		return;
	}
	out_str(o, "driver", ": driver %s\n", p->driver[0] ? p->driver : "(none)");
	out_text(o, "  %-3s native XDP (driver mode)", ans_word(p->native_xdp));
	out_ans(o, "native_xdp", p->native_xdp);
	out_str(o, "native_xdp_detail", p->native_why[0] ? ": %s\n" : "\n", p->native_why);
	out_u64(o, "xdp_prog_id", NULL, p->xdp_prog_id);
	out_text(o, "  %-3s AF_XDP zero-copy", ans_word(p->zerocopy));
	out_ans(o, "afxdp_zerocopy", p->zerocopy);
	out_str(o, "afxdp_zerocopy_detail", p->zerocopy_why[0] ? ": %s\n" : "\n", p->zerocopy_why);
	if (p->features_known) {
		bool now = p->features & IFPROBE_XDP_NDO_XMIT, att = p->features_attached & IFPROBE_XDP_NDO_XMIT;

		out_text(o, "  %-3s sends XDP frames (xdp-features ndo-xmit%s)\n", now ? "yes" : att ? "yes" : "no",
			 !now && att ? " while a program is attached" : "");
		out_u64(o, "xdp_features", NULL, p->features);
		out_bool(o, "xdp_xmit", NULL, now);
		out_bool(o, "xdp_xmit_with_program", NULL, now || att);
	} else {
		out_text(o, "  ?   sends XDP frames (the kernel has no xdp-features)\n");
		out_null(o, "xdp_features");
		out_null(o, "xdp_xmit");
		out_null(o, "xdp_xmit_with_program");
	}
	out_obj_start(o, "auto");
	out_str(o, "path", "  auto picks %s", app_port_path_name(pp->auto_path.path));
	out_str(o, "reason", " (%s)\n", pp->auto_path.why);
	out_obj_end(o);
	out_obj_end(o);
}

unsigned int probe_print_host(struct out *o, const struct app_probe_host *h, const struct probeprint_hooks *k)
{
	unsigned int failed = 0;

	probe_print_report(o, &h->r);
	if (h->here)
		probe_print_cpu_lines(o, h->lines, h->nlines, k->unmeasured, k->ctx);
	if (!h->nports)
		return 0;
	out_arr_start(o, "interfaces");
	for (unsigned int i = 0; i < h->nports; i++) {
		probe_print_port(o, h->spec[i], h->port_rc[i], &h->ports[i]);
		if (h->port_rc[i]) {
			k->port_failed(k->ctx, h->spec[i], h->ports[i].err);
			failed++;
		}
	}
	out_arr_end(o);
	return failed;
}
