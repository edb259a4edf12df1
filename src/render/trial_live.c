#include "render/trial_live.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "app/trial_plan.h"
#include "core/ns.h"
#include "core/units.h"
#include "render/trial_print.h"
#include "wr_config.h"

void trial_live_ports(struct out *out, const struct trial_setup *o)
{
	out_arr_start(out, "next_hops");
	for (int k = 0; k < 2; k++) {
		const struct trial_nexthop *nh = &o->plan.nh[k];
		const uint8_t *m = nh->mac;
		char a[INET6_ADDRSTRLEN], mac[18];

		if (!nh->resolved)
			continue;
		inet_ntop(nh->v6 ? AF_INET6 : AF_INET, nh->ip, a, sizeof(a));
		snprintf(mac, sizeof(mac), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
		out_obj_start(out, NULL);
		out_u64(out, "direction", NULL, (uint64_t)k);
		out_str(out, "address", "  next hop   %s", a);
		out_str(out, "mac", " is %s", mac);
		out_str(out, "port", " on %s", k ? o->plan.rx_if : o->plan.tx_if);
		out_str(out, "protocol", " (%s", nh->v6 ? "ND" : "ARP");
		out_f64(out, "ms", ", %.1f ms", nh->ms);
		out_u64(out, "tries", nh->tries > 1 ? ", %llu tries)\n" : ")\n", nh->tries);
		out_obj_end(out);
	}
	out_arr_end(out);
	if (o->plan.path_why[0])
		out_text(out, "  port path  %s", app_trial_plan_path(o));
	out_str(out, "path_reason", o->plan.path_why[0] ? " (%s)\n" : NULL, o->plan.path_why);
}

static void header(struct out *out, const struct trial_setup *o, const struct trial_result *res, uint64_t trial_id)
{
	const struct trial_cfg *c = &o->plan.cfg;
	char sizes[128];

	units_sizes_join(sizes, sizeof(sizes), c->sizes, c->nsizes);
	out_u64(out, "trial_id", "trial %llu: ", trial_id);
	out_str(out, "family", "%s ", o->plan.ipv6 ? "IPv6" : "IPv4");
	out_str(out, "sizes", c->nsizes > 1 ? "IMIX %s byte frames" : "%s-byte frames", sizes);
	out_f64(out, "avg_frame_size", NULL, res->avg_frame_size);
	out_u64(out, "flows", ", %llu flow(s)", frame_flows_count(&c->flows));
	out_f64(out, "duration_s", ", %g s", ns_to_s(c->duration_ns));
	/* calibrate: two steps, and the rate kept is the second's */
	if (o->plan.direct)
		out_text(out, " flat out, then %g s", ns_to_s(c->duration_ns));
	out_f64(out, "rate_pps", o->plan.direct ? " at %.0f frames/s (90%% of that)" : " at %.0f frames/s", c->rate_pps);
	out_u64(out, "direction_count", " x %llu direction(s)", c->ndirs);
	out_str(out, "where", ", %s\n", o->plan.where);
	out_str(out, "path", "  tester     %s generator", app_trial_plan_path(o));
	out_str(out, "analyzer", ", %s analyzer", c->xdp_rx ? "xdp" : port_type_name(c->port_type));
	out_str(out, "port_type", NULL, app_trial_plan_path(o));
	{
		char cpus[96] = "";
		size_t n = 0;
		unsigned int nt = trial_threads(c);

		for (unsigned int k = 0; k < nt && n < sizeof(cpus); k++)
			n += (size_t)snprintf(cpus + n, sizeof(cpus) - n, "%s%d", k ? "," : "", c->gen_cpu[k]);
		if (c->gen_cpu[0] >= 0) {
			out_i64(out, "gen_cpu", nt > 1 ? NULL : ", generator on CPU %lld", c->gen_cpu[0]);
		} else {
			out_null(out, "gen_cpu");
			out_text(out, ", generator not pinned");
		}
		out_u64(out, "gen_threads", nt > 1 ? ", %llu generator threads" : NULL, nt);
		out_str(out, "gen_cpus", nt > 1 ? " on CPUs %s" : NULL, cpus);
	}
	if (c->rx_cpu >= 0) {
		out_i64(out, "rx_cpu", ", analyzer on CPU %lld", c->rx_cpu);
	} else {
		out_null(out, "rx_cpu");
		out_text(out, ", analyzer not pinned");
	}
	if (res->cpu_line_ns > 0)
		out_f64(out, "cpu_line_ns", " (%.0f ns a cache line away)", res->cpu_line_ns);
	else
		out_null(out, "cpu_line_ns");
	out_u64(out, "learn_frames", "; %llu learning frames", c->learn_frames);
	out_f64(out, "learn_wait_s", ", %g s wait", ns_to_s(c->learn_wait_ns));
	out_f64(out, "drain_s", ", %g s drain\n", ns_to_s(c->drain_ns));
	if (o->plan.line_bps > 0)
		out_f64(out, "line_rate_bps", "  line rate  %.0f bit/s\n", o->plan.line_bps);
	else
		out_null(out, "line_rate_bps");
	trial_live_ports(out, o);
}

void trial_live_header(struct out *out, const struct trial_setup *o, const struct trial_result *res)
{
	header(out, o, res, o->plan.cfg.trial_id);
}

/* A trial's result block, text or JSON: its header, then the rest. */
static void one(struct out *o, const struct trial_setup *to, const struct app_trial_run *run, unsigned int i)
{
	const char *labels[TRIAL_MAX_DIRS];

	header(o, to, &run->res[i], run->ids[i]);
	for (unsigned int d = 0; d < TRIAL_MAX_DIRS; d++)
		labels[d] = to->plan.dir_label[d];
	trial_print_result(o, &run->res[i], &run->cr[i], run->ceiling[i], to->plan.line_bps, labels);
}

/* Repeat i of run, after "repeat I of N" when there are several. */
static void repeat_block(struct out *o, const struct trial_setup *to, const struct app_trial_run *run, unsigned int i)
{
	if (run->repeat > 1)
		out_text(o, "%srepeat %u of %llu\n", i ? "\n" : "", i + 1, (unsigned long long)run->repeat);
	out_obj_start(o, NULL);
	one(o, to, run, i);
	out_obj_end(o);
}

/* trial_live_hooks (ctx a struct trial_live_run): a repeat, the output
 * made at the first. */
static int hook_repeat(void *ctx, const struct app_trial_run *run, unsigned int i)
{
	struct trial_live_run *v = ctx;

	if (!v->o) {
		if (!(v->o = v->out_create(v->json, "trial")))
			return -ENOMEM;
		out_arr_start(v->o, "repeats");
	}
	repeat_block(v->o, v->to, run, i);
	trial_files_repeat(&v->files, &run->res[i], i);
	return 0;
}

static void hook_end(void *ctx, const struct app_trial_run *run, const struct app_trial_summary *sum, int64_t run_id)
{
	struct trial_live_run *v = ctx;
	struct out *o = v->o;

	if (!o)
		return;
	out_arr_end(o);
	if (run->repeat > 1 || out_is_json(o)) {
		unsigned int m = sum->median_repeat;
		struct trial_print_summary ps = {
			.trials = run->done, .fwd_median = sum->median, .fwd_min = sum->lo, .fwd_max = sum->hi,
			.loss_mean = sum->loss_mean, .median_repeat = m, .tester_limited = run->tester_limited,
			.interrupted = run->interrupted,
		};

		trial_print_summary(o, &ps);
		if (out_is_json(o))
			one(o, v->to, run, m);
	}
	if (v->files.capture)
		trial_print_capture(o, v->files.capture, &v->files.cs);
	if (run_id)
		out_i64(o, "run_id", "  stored as run %lld\n", run_id);
	out_destroy(o);
	v->o = NULL;
}

static void hook_progress(void *ctx, const struct trial_progress *p)
{
	struct trial_live_run *v = ctx;
	struct trial_live_progress *pc = &v->pc;
	double dt;

	if (!v->progress)
		return;
	dt = ns_to_s(p->elapsed_ns - pc->last_ns);
	if (dt <= 0)
		dt = 1;
	fprintf(stderr, "\r  %-8s %5.1f/%.1f s  tx %9.0f f/s  rx %9.0f f/s  lost so far %.3f%%   ",
		p->phase, ns_to_s(p->elapsed_ns), ns_to_s(p->duration_ns),
		(double)(p->tx - pc->last_tx) / dt, (double)(p->rx - pc->last_rx) / dt,
		p->tx > p->rx && p->tx ? (double)(p->tx - p->rx) * 100.0 / (double)p->tx : 0.0);
	pc->last_tx = p->tx;
	pc->last_rx = p->rx;
	pc->last_ns = p->elapsed_ns;
	pc->shown = true;
}

static void hook_planned(void *ctx, unsigned int repeat, uint64_t duration_ns, double secs)
{
	(void)ctx;
	fprintf(stderr, "trial: planned: %llu trial(s) of %.0f s, %.0f s with learning and drain\n",
		(unsigned long long)repeat, (double)duration_ns / NSEC_PER_SEC, secs);
}

static void hook_quiet(void *ctx)
{
	struct trial_live_run *v = ctx;

	if (v->pc.shown)
		fprintf(stderr, "\r%100s\r", "");
	memset(&v->pc, 0, sizeof(v->pc));
}

static int hook_files_open(void *ctx, struct capture **cap, char *err, size_t errlen)
{
	struct trial_live_run *v = ctx;
	int rc = trial_files_open(&v->files, "wirerate " WR_VERSION, err, errlen);

	if (!rc)
		*cap = v->files.cap;
	return rc;
}

static void hook_files_close(void *ctx, const char *label, const struct app_trial_run *run, bool keep,
			     const struct app_cli_hooks *cli)
{
	struct trial_live_run *v = ctx;

	trial_files_close(&v->files, label, run, keep, cli);
}

static void hook_files_drop(void *ctx)
{
	struct trial_live_run *v = ctx;

	trial_files_drop(&v->files);
}

void trial_live_init(struct trial_live_run *v, const struct trial_setup *to, bool json,
		     struct out *(*create)(bool json, const char *command), const struct trial_files *files)
{
	*v = (struct trial_live_run){ .to = to, .json = json, .out_create = create, .files = *files,
				      .progress = isatty(STDERR_FILENO) && to->plan.cfg.duration_ns > 2 * NSEC_PER_SEC };
}

const struct app_trial_hooks trial_live_hooks = {
	.planned = hook_planned, .progress = hook_progress, .quiet = hook_quiet, .repeat = hook_repeat,
	.files_open = hook_files_open, .files_close = hook_files_close, .files_drop = hook_files_drop,
	.end = hook_end,
};
