/* wirerate stream's output (stream_print.h). */
#include "render/stream_print.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/ns.h"
#include "lab/lab.h"
#include "render/cpu_print.h"

/* A session's line (an element of "sessions"), as each one ends. */
void stream_print_session(void *arg, const struct stream_session *s)
{
	struct out *o = arg;
	const struct stream_result *r = &s->res;
	double secs = (double)r->recv_ns / NSEC_PER_SEC;

	out_obj_start(o, NULL);
	out_str(o, "client", "session from %s: ", s->peer);
	out_bool(o, "ok", NULL, !s->rc);
	if (s->rc) {
		out_str(o, "error", "%s\n", s->err);
	} else {
		out_u64(o, "messages", "%llu messages", r->recv);
		out_u64(o, "message_size", " of %llu bytes", r->size);
		out_u64(o, "bytes", NULL, r->recv_bytes);
		out_u64(o, "client_sent", " (client sent %llu", r->sent);
		out_u64(o, "socket_drops", ", socket dropped %llu)", r->drops);
		out_f64(o, "elapsed_s", " in %.2f s", secs);
		out_f64(o, "throughput_mbps", ", %.2f 10^6bits/sec",
			secs > 0 ? (double)r->recv_bytes * 8 / secs / 1e6 : 0);
		out_u64(o, "socket_size", ", socket %llu bytes\n", (uint64_t)r->rcvbuf);
	}
	out_obj_end(o);
	fflush(stdout);
}


/* netperf's service demand: microseconds of the end's CPU time (its
 * busy share times its CPUs times the elapsed time) per KB (1024 bytes)
 * it moved; < 0 when there is no figure. */
static double service_demand(const struct stream_cpu *c, uint64_t ns, uint64_t bytes)
{
	if (!c->ncpus || !bytes)
		return -1;
	return c->busy * c->ncpus * ((double)ns / NSEC_PER_USEC) / ((double)bytes / 1024);
}

/* One end's CPU: an object in JSON (null when not measured); netperf's
 * two columns where shown, -1 where that end's were not asked for or
 * not measured, as netperf's. */
static void print_cpu(struct out *o, bool show, bool asked, const struct stream_cpu *c, uint64_t ns,
		      uint64_t bytes)
{
	double sd = service_demand(c, ns, bytes);
	bool have = asked && c->ncpus;

	if (show)
		out_text(o, "   %6.2f   %7.3f", have ? 100 * c->busy : -1.0, have && sd >= 0 ? sd : -1.0);
	if (!c->ncpus) {
		out_null(o, "cpu");
		return;
	}
	out_obj_start(o, "cpu");
	if (c->cpu >= 0)
		out_u64(o, "cpu", NULL, (uint64_t)c->cpu);
	else
		out_null(o, "cpu");
	out_u64(o, "cpus", NULL, c->ncpus);
	out_f64(o, "busy_pct", NULL, 100 * c->busy);
	if (sd >= 0)
		out_f64(o, "service_demand_us_per_kb", NULL, sd);
	else
		out_null(o, "service_demand_us_per_kb");
	out_obj_end(o);
}

/* Which CPUs an end's figure is of, for the line under the block. */
static void cpu_where(char *buf, size_t len, const struct stream_cpu *c)
{
	if (!c->ncpus)
		snprintf(buf, len, "not measured (a server without CPU figures)");
	else if (c->cpu >= 0)
		snprintf(buf, len, "CPU %d", c->cpu);
	else
		snprintf(buf, len, "all %u CPUs of its host", c->ncpus);
}

/* netperf's UDP_STREAM block, and the loss it leaves to the reader. */
static void print_block(struct out *o, const struct stream_print *p, const struct stream_result *r)
{
	const char *any = strchr(p->addr, ':') ? "::" : "0.0.0.0", *fam = strchr(p->addr, ':') ? "AF_INET6" : "AF_INET";
	uint64_t lost = r->sent > r->recv ? r->sent - r->recv : 0;

	out_str(o, "test", NULL, "UDP_STREAM");
	out_text(o, "UDP UNIDIRECTIONAL SEND TEST from %s (%s) port 0 %s", any, any, fam);
	out_str(o, "host", " to %s", p->host);
	out_str(o, "address", " (%s)", p->addr);
	out_text(o, " port 0 %s\n", fam);
	out_u64(o, "port", NULL, p->port);
	if (p->lab)
		out_str(o, "lab", NULL, p->lab);
	else
		out_null(o, "lab");
	out_f64(o, "duration_s", NULL, (double)p->duration_ns / NSEC_PER_SEC);
	if (p->rate_pps > 0) {
		out_f64(o, "rate_pps", "paced at %.0f messages/s", p->rate_pps);
		out_text(o, "%s (--rate)\n", p->nsend > 1 ? " a sender" : "");
	} else {
		out_null(o, "rate_pps");
	}
	if (p->local_cpu || p->remote_cpu)
		out_text(o, "Socket  Message  Elapsed      Messages                   CPU      Service\n"
			    "Size    Size     Time         Okay Errors   Throughput   Util     Demand\n"
			    "bytes   bytes    secs            #      #   10^6bits/sec %% S      us/KB\n\n");
	else
		out_text(o, "Socket  Message  Elapsed      Messages\n"
			    "Size    Size     Time         Okay Errors   Throughput\n"
			    "bytes   bytes    secs            #      #   10^6bits/sec\n\n");
	out_obj_start(o, "send");
	out_u64(o, "socket_size", "%6llu", (uint64_t)r->sndbuf);
	out_u64(o, "message_size", "%8llu", p->size);
	out_f64(o, "elapsed_s", "%8.2f", (double)r->send_ns / NSEC_PER_SEC);
	out_u64(o, "elapsed_ns", NULL, r->send_ns);
	out_u64(o, "okay", "%13llu", r->sent);
	out_u64(o, "errors", "%7llu", r->errors);
	out_u64(o, "bytes", NULL, r->sent_bytes);
	out_f64(o, "throughput_mbps", "%12.2f", stream_mbps(r->sent_bytes, r->send_ns));
	print_cpu(o, p->local_cpu || p->remote_cpu, p->local_cpu, &r->send_cpu, r->send_ns, r->sent_bytes);
	out_text(o, "\n");
	out_obj_end(o);
	out_obj_start(o, "receive");
	out_u64(o, "socket_size", "%6llu", (uint64_t)r->rcvbuf);
	out_f64(o, "elapsed_s", "%16.2f", (double)r->recv_ns / NSEC_PER_SEC);
	out_u64(o, "elapsed_ns", NULL, r->recv_ns);
	out_u64(o, "messages", "%13llu", r->recv);
	out_u64(o, "bytes", NULL, r->recv_bytes);
	out_f64(o, "throughput_mbps", "%19.2f", stream_mbps(r->recv_bytes, r->recv_ns));
	print_cpu(o, p->local_cpu || p->remote_cpu, p->remote_cpu, &r->recv_cpu, r->recv_ns, r->recv_bytes);
	out_text(o, "\n\n");
	out_u64(o, "socket_drops", NULL, r->drops);
	out_obj_end(o);
	out_u64(o, "lost", "lost %llu", lost);
	out_f64(o, "lost_pct", " (%.2f%%)", r->sent ? 100.0 * (double)lost / (double)r->sent : 0);
	out_text(o, " of the messages sent okay%s", r->recv > r->sent ? " (the server counted more than were sent)" : "");
	out_text(o, "; the receiving socket dropped %llu (its buffer full)\n", (unsigned long long)r->drops);
	if (p->local_cpu || p->remote_cpu) {
		char snd[96], rcv[64];

		if ((p->cpus && cpuset_count(p->cpus))) {
			char list[32];

			cpuset_format_list(p->cpus, list, sizeof(list));
			snprintf(snd, sizeof(snd), "CPUs %s (a sender on each)", list);
		} else {
			cpu_where(snd, sizeof(snd), &r->send_cpu);
		}
		cpu_where(rcv, sizeof(rcv), &r->recv_cpu);
		out_text(o, "CPU (/proc/stat: not idle, interrupt time included): the sender's is %s, the "
			 "receiver's %s\n", snd, rcv);
	}
	out_bool(o, "interrupted", NULL, r->interrupted);
	if (r->interrupted)
		out_text(o, "interrupted after %.2f s of %.2f s\n", (double)r->send_ns / NSEC_PER_SEC,
			 (double)p->duration_ns / NSEC_PER_SEC);
	if (p->dut_end) {
		bool snd = !strcmp(p->dut_end, "sender");

		out_str(o, "dut_end", NULL, p->dut_end);
		out_str(o, "dut_kernel", NULL, p->dut_kernel);
		if (p->lab && snd)
			out_text(o, "from the DUT of lab %s (kernel %s) -> sink0 (%s)\n", p->lab, p->dut_kernel, p->addr);
		else if (p->lab) {
			const uint8_t *g = lab_if(LAB_GEN0)->ip;

			out_text(o, "from lab %s's gen0 (%u.%u.%u.%u) -> the DUT (%s, kernel %s)\n", p->lab, g[0], g[1],
				 g[2], g[3], p->addr, p->dut_kernel);
		} else
			out_text(o, "the %s ran on the DUT %s (kernel %s)\n", p->dut_end, p->dut_name, p->dut_kernel);
		return;
	}
	out_null(o, "dut_end");
	out_null(o, "dut_kernel");
	if (p->lab) {
		const uint8_t *g = lab_if(LAB_GEN0)->ip;

		out_text(o, "through lab %s: gen0 (%u.%u.%u.%u) -> DUT -> sink0 (%s)\n", p->lab, g[0], g[1], g[2], g[3],
			 p->addr);
	}
}


/* -I's verdict, or null without it. */
static void print_conf(struct out *o, const struct stream_print *p, const struct stream_conf *cf)
{
	double mean = 0;

	if (!p->conf_level) {
		out_null(o, "confidence");
		return;
	}
	for (unsigned int i = 0; i < cf->n; i++)
		mean += cf->mbps[i];
	mean /= cf->n ? cf->n : 1;
	out_obj_start(o, "confidence");
	out_u64(o, "level_pct", "confidence %llu%%: ", p->conf_level);
	out_f64(o, "width_pct", NULL, p->conf_width);
	out_f64(o, "mean_mbps", "the mean received throughput %.2f 10^6bits/s", mean);
	out_u64(o, "runs", " over %llu run(s)", cf->n);
	if (isfinite(cf->halfwidth))
		out_f64(o, "interval_pct", " is known to +-%.2f%%", cf->halfwidth * 100);
	else
		out_null(o, "interval_pct");
	out_bool(o, "achieved", NULL, cf->achieved);
	out_text(o, cf->achieved ? ", within the +-%.2f%% asked\n" :
		 ", NOT within the +-%.2f%% asked: the runs spread more than that (more runs, -i, or longer ones, -l)\n",
		 p->conf_width / 2);
	out_arr_start(o, "runs_mbps");
	for (unsigned int i = 0; i < cf->n; i++)
		out_f64(o, NULL, NULL, cf->mbps[i]);
	out_arr_end(o);
	out_obj_end(o);
}


/* Each sender's line, above the total's block, where there are several;
 * "senders" in JSON either way. */
static void print_senders(struct out *o, const struct stream_print *p)
{
	bool text = p->nsend > 1;

	if (text)
		out_text(o, "sender  CPU       Okay Errors   sent 10^6bits/s    Received  recv 10^6bits/s\n");
	out_arr_start(o, "senders");
	for (unsigned int i = 0; i < p->nsend; i++) {
		const struct stream_result *r = &p->senders[i].r;

		out_obj_start(o, NULL);
		out_u64(o, "sender", text ? "%6llu" : NULL, i);
		if (p->senders[i].cpu >= 0)
			out_u64(o, "cpu", text ? "%5llu" : NULL, (uint64_t)p->senders[i].cpu);
		else {
			if (text)
				out_text(o, "    -");
			out_null(o, "cpu");
		}
		out_u64(o, "okay", text ? "%11llu" : NULL, r->sent);
		out_u64(o, "errors", text ? "%7llu" : NULL, r->errors);
		out_u64(o, "sent_bytes", NULL, r->sent_bytes);
		out_u64(o, "send_elapsed_ns", NULL, r->send_ns);
		out_f64(o, "send_throughput_mbps", text ? "%17.2f" : NULL, stream_mbps(r->sent_bytes, r->send_ns));
		out_u64(o, "messages", text ? "%12llu" : NULL, r->recv);
		out_u64(o, "received_bytes", NULL, r->recv_bytes);
		out_u64(o, "receive_elapsed_ns", NULL, r->recv_ns);
		out_f64(o, "receive_throughput_mbps", text ? "%17.2f\n" : NULL, stream_mbps(r->recv_bytes, r->recv_ns));
		out_u64(o, "socket_drops", NULL, r->drops);
		if (r->send_cpu.ncpus)
			out_f64(o, "send_busy_pct", NULL, 100 * r->send_cpu.busy);
		else
			out_null(o, "send_busy_pct");
		out_obj_end(o);
	}
	out_arr_end(o);
	if (text)
		out_text(o, "total of %u senders:\n", p->nsend);
}


/* With an end on a lab's DUT: each path's DUT port, what its senders
 * sent okay and what the port counted. The port also carries the
 * control connections' few TCP segments (up to 20 a sender); beyond
 * that, or fewer, is a mismatch, and said. */
static void print_ports(struct out *o, const struct stream_print *p)
{
	bool snd = !strcmp(p->dut_end, "sender");

	out_arr_start(o, "dut_ports");
	for (unsigned int i = 0; i < p->nport; i++) {
		const struct app_stream_port *pt = &p->ports[i];
		bool match = pt->counted >= pt->datagrams && pt->counted <= pt->datagrams + 20ull * pt->senders;

		out_obj_start(o, NULL);
		out_str(o, "port", "port %s: ", pt->ifname);
		out_u64(o, "senders", "%llu sender(s)", pt->senders);
		out_u64(o, "datagrams", snd ? " sent %llu okay" : " sent it %llu okay", pt->datagrams);
		out_f64(o, "throughput_mbps", " (%.2f 10^6bits/s)",
			(double)pt->datagrams * (double)p->size * 8 / ns_to_s((double)p->duration_ns) / 1e6);
		out_u64(o, "counted", snd ? ", it put out %llu" : ", it received %llu", pt->counted);
		out_bool(o, "matches", NULL, match);
		out_text(o, match ? " (%+lld: the control connections')\n" :
			 " (%+lld: MISMATCH, not what the senders sent)\n",
			 (long long)(pt->counted - pt->datagrams));
		out_obj_end(o);
	}
	out_arr_end(o);
}

void stream_print_result(struct out *o, const struct stream_print *p, const struct stream_result *r,
			const struct stream_conf *cf)
{
	/* What the DUT forwarded: what the server received, and what reached
	 * its socket but found the buffer full (past the DUT). */
	uint64_t fwd = r->recv + r->drops;

	print_senders(o, p);
	print_block(o, p, r);
	print_conf(o, p, cf);
	if (p->dut_end)
		print_ports(o, p);
	if (p->irq_placed && p->irq_placed[0])
		out_str(o, "irq_placed", "the DUT's ports for the run (--irq-cpus): %s\n", p->irq_placed);
	else
		out_null(o, "irq_placed");
	if (p->control_mbps > 0)
		out_f64(o, "control_mbps", "the soak's control run, without it: %.2f 10^6bits/s received\n",
			p->control_mbps);
	else
		out_null(o, "control_mbps");
	if (p->cr && p->cr->valid && p->dut_end) {
		bool snd = !strcmp(p->dut_end, "sender");
		uint64_t n = snd ? r->sent : fwd;

		out_text(o, "the host under test (%s), which %s %llu datagrams:\n", p->dut_name,
			 snd ? "sent" : "received (or dropped, its socket full)", (unsigned long long)n);
		out_u64(o, snd ? "dut_sent" : "dut_received", NULL, n);
		cpu_print_cost_per(o, p->cr, snd ? "datagram sent" : "datagram received");
		if (p->cr->ns_per_frame > 0) {
			out_f64(o, "dut_service_demand_us_per_kb", "  demand     %.3f us of the DUT's CPU per KB",
				ns_to_us(p->cr->ns_per_frame) * 1024.0 / (double)p->size);
			out_text(o, " %s (netperf's service demand, from %s)\n", snd ? "sent" : "received",
				 p->cr->source);
		}
	} else if (p->cr && p->cr->valid) {
		out_text(o, "through the DUT (%s), %llu datagrams forwarded (received, or dropped by the full "
			 "receiving socket):\n", p->dut, (unsigned long long)fwd);
		out_u64(o, "dut_forwarded", NULL, fwd);
		cpu_print_cost(o, p->cr);
		/* netperf's service demand: CPU time per KB (1024 bytes) moved,
		 * here the DUT's per KB it forwarded: its time per datagram
		 * (from the soak or /proc/stat, as the block says) per KB */
		if (p->cr->ns_per_frame > 0) {
			out_f64(o, "dut_service_demand_us_per_kb", "  demand     %.3f us of DUT CPU per KB forwarded",
				ns_to_us(p->cr->ns_per_frame) * 1024.0 / (double)p->size);
			out_text(o, " (netperf's service demand, from %s)\n", p->cr->source);
		}
	}
	if (p->here && p->here->valid) {
		/* this host's end: the senders, or the server with the DUT's senders */
		bool sender = !p->dut_end || strcmp(p->dut_end, "sender");

		out_text(o, "this host, which %s %llu datagrams (--soak-here):\n", sender ? "sent" : "received",
			 (unsigned long long)(sender ? r->sent : fwd));
		cpu_print_cost_of(o, "here_cpu", "this host's", p->here, sender ? "datagram sent" : "datagram received");
		if (p->here->ns_per_frame > 0)
			out_f64(o, "here_service_demand_us_per_kb", "  demand     %.3f us of this host's CPU per KB\n",
				ns_to_us(p->here->ns_per_frame) * 1024.0 / (double)p->size);
	} else {
		out_null(o, "here_cpu");
	}
	if (p->run_id)
		out_i64(o, "run_id", "stored as run %lld\n", p->run_id);
}

void stream_print_run(struct out *o, const struct app_stream_opts *op, const struct app_stream_res *res)
{
	struct stream_print p = { .host = op->host, .addr = res->addr, .port = res->port, .size = op->size,
				 .lab = op->mode == APP_STREAM_LAB ? op->prefix : NULL,
				 .duration_ns = op->duration_ns, .rate_pps = app_stream_client_rate_pps(op),
				 .local_cpu = op->local_cpu, .remote_cpu = op->remote_cpu, .cpus = &op->cpus,
				 .nsend = op->nsend, .senders = res->s, .conf_level = op->conf_level,
				 .conf_width = op->conf_width, .cr = &res->cr,
				 .dut = res->have_cost ? res->dut : NULL, .run_id = op->store.ses.run_id,
				 .dut_end = res->dut_end == APP_STREAM_END_SENDER ? "sender" :
					    res->dut_end == APP_STREAM_END_RECEIVER ? "receiver" : NULL,
				 .dut_name = res->dut, .dut_kernel = res->dut_kernel, .ports = res->dport,
				 .nport = res->nport, .control_mbps = res->control_mbps, .irq_placed = res->irq_placed,
				 .here = res->have_here ? &res->here_cr : NULL };

	stream_print_result(o, &p, &res->r, &res->cf);
}

void stream_print_server(struct out *o, const struct app_stream_opts *op, const struct stream_server *s, bool root)
{
	bool open = app_stream_client_open(op, s);

	out_text(o, "wirerate stream server on ");
	if (op->bind)
		out_str(o, "bind", "%s ", op->bind);
	else
		out_null(o, "bind");
	out_u64(o, "port", "port %llu", op->port);
	out_f64(o, "max_duration_s", ", runs of up to %g s", ns_to_s(s->max_duration_ns));
	out_u64(o, "max_per_peer", ", %llu at once from one address", s->max_per_peer);
	out_u64(o, "peer_prefix6", s->peer_prefix6 < 128 ? " (IPv6: one /%llu)" : NULL, s->peer_prefix6);
	out_bool(o, "token", NULL, s->token != NULL);
	out_text(o, "%s", s->token ? ", a token asked for" : "");
	if (root)
		out_str(o, "user", ", as user %s", app_stream_client_user(op));
	else
		out_null(o, "user");
	out_text(o, "%s", op->once ? ", for one session" : " (Ctrl-C ends it)");
	/* said where it is seen: a server anyone can start runs on */
	out_bool(o, "open", NULL, open);
	out_text(o, "%s\n", open ? "; open: no token, so anyone who reaches it may run sessions "
			 "(--token-file or a loopback --bind to close it)" : "");
}

static int hook_listening(void *ctx, const struct app_stream_opts *op, const struct stream_server *s, bool root)
{
	struct streamprint_ctx *p = ctx;

	if (!(p->o = p->create(p->json, "stream")))
		return -ENOMEM;
	stream_print_server(p->o, op, s, root);
	fflush(stdout);
	out_arr_start(p->o, "sessions");
	return 0;
}

static void hook_session(void *ctx, const struct stream_session *s)
{
	stream_print_session(((struct streamprint_ctx *)ctx)->o, s);
}

static void hook_served(void *ctx, bool interrupted)
{
	struct streamprint_ctx *p = ctx;

	out_arr_end(p->o);
	out_bool(p->o, "interrupted", NULL, interrupted);
}

static int hook_result(void *ctx, const struct app_stream_opts *op, const struct app_stream_res *res)
{
	struct streamprint_ctx *p = ctx;
	struct out *o = p->create(p->json, "stream");

	if (!o)
		return -ENOMEM;
	stream_print_run(o, op, res);
	out_destroy(o);
	return 0;
}

const struct app_stream_hooks stream_print_hooks = {
	.listening = hook_listening, .session = hook_session, .served = hook_served, .result = hook_result,
};
