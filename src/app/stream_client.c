#include "app/stream_client.h"
#include "app/stream_dut.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "core/addrpolicy.h"
#include "core/stat.h"
#include "core/errmsg.h"
#include "core/dutsnap.h"
#include "core/pace.h"
#include "core/ns.h"
#include "dut/envcap.h"
#include "dut/soak.h"
#include "engine/stream_proto.h"
#include "os/netns.h"
#include "os/procstat.h"

void app_stream_client_defaults(struct app_stream_opts *op)
{
	memset(op, 0, sizeof(*op));
	op->cpu = op->server_cpu = -1;
	op->port = STREAM_PORT;
	op->size = APP_STREAM_SIZE_DEFAULT;
	op->duration_ns = 10 * NSEC_PER_SEC;
	snprintf(op->prefix, sizeof(op->prefix), "%s", LAB_PREFIX_DEFAULT);
}

unsigned int app_stream_client_runs(const struct app_stream_opts *op)
{
	return op->conf_level ? op->iter_max : op->repeat ? op->repeat : 1;
}

double app_stream_client_rate_pps(const struct app_stream_opts *op)
{
	if (!op->have_rate)
		return 0;
	return op->rate.kind == RATE_PPS ? op->rate.value : op->rate.value / ((double)op->size * 8);
}

/* ---- netperf's option values ---- */

/* "A[,B]": two unsigned numbers, the second optional. */
static int two_numbers(const char *v, double *a, double *b, bool *have_b)
{
	char *end;

	*a = strtod(v, &end);
	*have_b = false;
	if (end == v || !isfinite(*a))
		return -EINVAL;
	if (*end == ',') {
		const char *w = end + 1;

		*b = strtod(w, &end);
		if (end == w || !isfinite(*b))
			return -EINVAL;
		*have_b = true;
	}
	return *end ? -EINVAL : 0;
}

int app_stream_client_confidence(struct app_stream_opts *op, const char *v, char *err, size_t errlen)
{
	double level, width = APP_STREAM_CONF_WIDTH;
	bool have_width;

	if (two_numbers(v, &level, &width, &have_width) || (level != 95 && level != 99) ||
	    (have_width && (width < 0.1 || width > 50))) {
		snprintf(err, errlen, "'%s': give LEVEL[,WIDTH]: a confidence level of 95 or 99 (%%) and the "
			 "interval's width, 0.1..50 %% of the mean (default 10)", v);
		return -EINVAL;
	}
	op->conf_level = (unsigned int)level;
	op->conf_width = have_width ? width : APP_STREAM_CONF_WIDTH;
	return 0;
}

int app_stream_client_iterations(struct app_stream_opts *op, const char *v, char *err, size_t errlen)
{
	double max, min = APP_STREAM_ITER_DEFAULT_MIN;
	bool have_min;

	if (two_numbers(v, &max, &min, &have_min) || max != floor(max) || min != floor(min) || max < 1 ||
	    max > STREAM_ITER_MAX || (have_min && (min < 1 || min > max))) {
		snprintf(err, errlen, "'%s': give MAX[,MIN]: at most MAX runs (1..%d) and at least MIN (1..MAX, "
			 "default 3)", v, STREAM_ITER_MAX);
		return -EINVAL;
	}
	op->iter_max = (unsigned int)max;
	op->iter_min = have_min ? (unsigned int)min : max < APP_STREAM_ITER_DEFAULT_MIN ? (unsigned int)max :
			APP_STREAM_ITER_DEFAULT_MIN;
	return 0;
}

/* A CPU number of -T, "" for none. */
static int cpu_number(const char *v, size_t len, int *cpu, char *err, size_t errlen)
{
	char buf[16];
	unsigned long n;
	char *end;

	*cpu = -1;
	if (!len)
		return 0;
	if (len >= sizeof(buf) || *v < '0' || *v > '9')
		goto bad;
	memcpy(buf, v, len);
	buf[len] = 0;
	n = strtoul(buf, &end, 10);
	if (*end || n > STREAM_CPU_MAX)
		goto bad;
	*cpu = (int)n;
	return 0;
bad:
	snprintf(err, errlen, "wants CPU numbers (0..%d): LOCAL,REMOTE, LOCAL, or ,REMOTE", STREAM_CPU_MAX);
	return -EINVAL;
}

int app_stream_client_bind_cpu(struct app_stream_opts *op, const char *v, char *err, size_t errlen)
{
	const char *comma = strchr(v, ',');
	int rc;

	if (!*v || (comma && strchr(comma + 1, ',')) || !strcmp(v, ","))
		return cpu_number("x", 1, &op->cpu, err, errlen);
	if ((rc = cpu_number(v, comma ? (size_t)(comma - v) : strlen(v), &op->cpu, err, errlen)))
		return rc;
	if (!comma)
		op->server_cpu = op->cpu;
	else if ((rc = cpu_number(comma + 1, strlen(comma + 1), &op->server_cpu, err, errlen)))
		return rc;
	op->have_bind_cpu = true;
	return 0;
}

/* --rate given: the client's, and sending something. */
static int check_rate(const struct app_stream_opts *op, char *err, size_t errlen)
{
	double pps = app_stream_client_rate_pps(op);

	if (op->mode == APP_STREAM_SERVER)
		return errmsg(-EINVAL, err, errlen, "--rate is the client's (lab mode or --client)");
	if (!(pps >= PACE_RATE_MIN && pps <= PACE_RATE_MAX))
		return errmsg(-EINVAL, err, errlen, "--rate: %g datagrams/s is outside %g..%g", pps, PACE_RATE_MIN, PACE_RATE_MAX);
	if (pps * ns_to_s((double)op->duration_ns) < 1)
		return errmsg(-EINVAL, err, errlen, "--rate %g datagrams/s for -l %g s sends no datagram", pps,
			      ns_to_s((double)op->duration_ns));
	return 0;
}

/* Which end each option belongs to. */
static int check_ends(struct app_stream_opts *op, char *err, size_t errlen)
{
	bool server = op->mode == APP_STREAM_SERVER;
	int rc;

	if (op->once && !server)
		return errmsg(-EINVAL, err, errlen, "--once applies to --server only");
	if (op->max_sessions && (!server || op->once))
		return errmsg(-EINVAL, err, errlen, "--max-sessions applies to --server without --once");
	if ((op->bind || op->max_per_peer || op->peer_prefix6 || op->max_duration_ns || op->user) && !server)
		return errmsg(-EINVAL, err, errlen,
			      "--bind, --max-per-peer, --peer-prefix6, --max-duration and --user apply to --server only");
	if (op->allow_any && op->mode != APP_STREAM_CLIENT)
		return errmsg(-EINVAL, err, errlen, "--allow-any-address applies to --client only");
	if (op->token_file && op->mode == APP_STREAM_LAB)
		return errmsg(-EINVAL, err, errlen, "--token-file applies to --server and --client");
	if (op->have_prefix && op->mode != APP_STREAM_LAB)
		return errmsg(-EINVAL, err, errlen, "--prefix is for lab mode (neither --server nor --client)");
	if (server && (op->dut.given || cpuset_count(&op->watch) || op->soak || op->soak_path))
		return errmsg(-EINVAL, err, errlen, "--dut, --watch-cpus, --soak and --soak-calibration are the client's "
			      "(lab mode or --client)");
	if ((rc = duttarget_check(&op->dut, err, errlen)))
		return rc;
	if (server && (op->profile || op->profile_hz || op->profile_top))
		return errmsg(-EINVAL, err, errlen, "--profile is the client's (lab mode or --client --dut)");
	if ((op->profile_hz || op->profile_top) && !op->profile)
		return errmsg(-EINVAL, err, errlen, "--profile-hz and --profile-top go with --profile");
	if (op->soak_here && op->mode != APP_STREAM_CLIENT)
		return errmsg(-EINVAL, err, errlen, "--soak-here soaks this host's end against a server elsewhere "
						     "(--client HOST, or an end on a DUT of its own)");
	if (op->mode == APP_STREAM_CLIENT && !op->dut.given && (cpuset_count(&op->watch) || op->soak || op->profile))
		return errmsg(-EINVAL, err, errlen, "--%s: name the DUT the stream crosses with --dut",
			      op->soak ? "soak" : op->profile ? "profile" : "watch-cpus");
	if (op->dut_end && server)
		return errmsg(-EINVAL, err, errlen, "--sender dut and --receiver dut are the client's (lab mode or --client)");
	if (op->dut_end && op->mode == APP_STREAM_CLIENT && !op->dut.given)
		return errmsg(-EINVAL, err, errlen, "--%s dut: name the DUT with --dut (ssh:HOST), or run through a lab "
			      "without --client", op->dut_end == APP_STREAM_END_SENDER ? "sender" : "receiver");
	if (op->ndut_ports && (!op->dut_end || op->mode != APP_STREAM_CLIENT))
		return errmsg(-EINVAL, err, errlen, "--dut-ports names the ports a DUT of its own's end uses: with "
			      "--dut, -H and --sender dut or --receiver dut (a lab's are known)");
	if (cpuset_count(&op->irq_cpus) && (!op->dut_end || (op->mode != APP_STREAM_LAB && !op->ndut_ports)))
		return errmsg(-EINVAL, err, errlen, "--irq-cpus places the IRQs of the ports an end on the DUT uses: "
			      "give --sender dut or --receiver dut through a lab, or a DUT's --dut-ports");
	if (op->dut_end && op->mode == APP_STREAM_CLIENT && op->host) {
		unsigned int nh = 1;

		for (const char *c = op->host; *c; c++)
			nh += *c == ',';
		if (nh > 1 && nh != op->ndut_ports)
			return errmsg(-EINVAL, err, errlen, "-H gives %u addresses and --dut-ports %u port(s): one address "
				      "per port, each routed by it", nh, op->ndut_ports);
		if (nh == 1 && op->ndut_ports > 1)
			return errmsg(-EINVAL, err, errlen, "--dut-ports names %u ports and -H one address: give one "
				      "address per port (-H A1,A2,...)", op->ndut_ports);
	}
	if (op->dut_end && op->token_file)
		return errmsg(-EINVAL, err, errlen, "--token-file: the DUT's end and this one need none (each server "
			      "serves one session of this run)");
	if (op->have_rate && (rc = check_rate(op, err, errlen)))
		return rc;
	if (op->iter_max && !op->conf_level)
		return errmsg(-EINVAL, err, errlen, "-i (--iterations) goes with -I (--confidence)");
	if (op->conf_level && server)
		return errmsg(-EINVAL, err, errlen, "-I is the client's (lab mode or --client)");
	if (op->repeat && (server || op->conf_level))
		return errmsg(-EINVAL, err, errlen, "--repeat is the client's, and not with -I (which repeats until "
			      "its interval is narrow enough)");
	if (op->conf_level && !op->iter_max) {
		op->iter_max = APP_STREAM_ITER_DEFAULT_MAX;
		op->iter_min = APP_STREAM_ITER_DEFAULT_MIN;
	}
	if (server && (op->local_cpu || op->remote_cpu || op->have_bind_cpu))
		return errmsg(-EINVAL, err, errlen, "-c, -C and -T are the client's (lab mode or --client): it tells the server");
	return 0;
}

/* The CPUs online here: false when that is not known. */
static bool online_here(struct cpuset *online)
{
	char e[256];

	return procstat_online(NULL, online, e, sizeof(e)) == 0;
}

static int offline(const struct cpuset *online, int cpu, const char *what, char *err, size_t errlen)
{
	char list[256];

	cpuset_format_list(online, list, sizeof(list));
	return errmsg(-EINVAL, err, errlen, "%s: CPU %d is not online here (online: %s)", what, cpu, list);
}

/* The senders: one, --threads N, or one on each CPU of --cpus. */
static int check_senders(struct app_stream_opts *op, char *err, size_t errlen)
{
	unsigned int n = cpuset_count(&op->cpus);
	struct cpuset online;
	int c;

	op->nsend = op->threads ? op->threads : 1;
	for (unsigned int i = 0; i < STREAMRUN_MAX; i++)
		op->send_cpu[i] = op->cpu;
	if (!n)
		return 0;
	if (op->cpu >= 0)
		return errmsg(-EINVAL, err, errlen, "--cpus pins the senders: give -T ,REMOTE for the server's CPU only");
	if (n > STREAMRUN_MAX)
		return errmsg(-EINVAL, err, errlen, "--cpus: at most %d CPUs, one sender each", STREAMRUN_MAX);
	if (op->threads && op->threads != n)
		return errmsg(-EINVAL, err, errlen, "--threads %u and --cpus with %u CPU(s): one sender per CPU, so "
			      "as many of each", op->threads, n);
	if (op->dut_end != APP_STREAM_END_SENDER && online_here(&online))
		for (c = cpuset_next(&op->cpus, 0); c >= 0; c = cpuset_next(&op->cpus, (unsigned int)c + 1))
			if (!cpuset_has(&online, (unsigned int)c))
				return offline(&online, c, "--cpus", err, errlen);
	op->nsend = n;
	for (unsigned int i = 0; i < n; i++)
		op->send_cpu[i] = cpuset_nth(&op->cpus, i);
	return 0;
}

int app_stream_client_check(struct app_stream_opts *op, char *err, size_t errlen)
{
	struct cpuset online;
	bool server;
	int rc;

	if (op->server && op->host)
		return errmsg(-EINVAL, err, errlen, "--server and --client exclude each other");
	op->mode = op->server ? APP_STREAM_SERVER : op->host ? APP_STREAM_CLIENT : APP_STREAM_LAB;
	server = op->mode == APP_STREAM_SERVER;
	if ((rc = check_ends(op, err, errlen)))
		return rc;
	for (int end = 0; end < 2; end++) {
		int cpu = end ? op->server_cpu : op->cpu;

		/* the server's CPU is this host's in lab mode only; an end on
		 * the DUT is checked against the DUT's CPUs once it is open */
		if (cpu < 0 || (end && op->mode != APP_STREAM_LAB) ||
		    op->dut_end == (end ? APP_STREAM_END_RECEIVER : APP_STREAM_END_SENDER))
			continue;
		if (online_here(&online) && !cpuset_has(&online, (unsigned int)cpu))
			return offline(&online, cpu, "-T", err, errlen);
	}
	if (server && (op->store.req.path_set || op->store.req.label || op->store.req.ntags || op->store.req.no_store))
		return errmsg(-EINVAL, err, errlen, "--db, --label, --tag and --no-store are the client's (it stores the runs)");
	if (server && (op->threads || cpuset_count(&op->cpus)))
		return errmsg(-EINVAL, err, errlen, "--threads and --cpus are the client's (lab mode or --client)");
	if ((rc = check_senders(op, err, errlen)))
		return rc;
	if (op->nsend > 1 && op->mode == APP_STREAM_LAB && op->have_port)
		return errmsg(-EINVAL, err, errlen, "--port with several senders in lab mode: each sender's server picks a port");
	if (server && (op->have_size || op->have_duration))
		return errmsg(-EINVAL, err, errlen, "--message-size and --duration are the client's (the server takes them from it)");
	return 0;
}

/* ---- the client's side ---- */

/* One run's senders, and where they go: a server (gen < 0), or the lab's
 * sink namespace, each sender with a server of its own there. */
struct run {
	struct app_stream_opts *op;
	const struct app_cli_hooks *cli;	/* where a line for the user goes */
	struct app_stream_res *res;
	struct stream_client c;
	struct dut *d;
	struct cpucost *cost;
	bool store_warned;
	/* lab mode */
	int gen, sink;
	const uint8_t *ip;
	uint16_t port[STREAMRUN_MAX];	/* each sender's server's, as used */
	bool in_session[STREAMRUN_MAX];
	/* an end on the DUT: each sender's server's control port (theirs
	 * with --receiver dut, ours with --sender dut), and in a lab of
	 * several paths, sender i's on path i % npath: its address */
	uint16_t dport[STREAMRUN_MAX];
	unsigned int npath;
	char daddr[STREAMRUN_MAX][INET6_ADDRSTRLEN];
	const char *daddrs[STREAMRUN_MAX];
	/* each path's DUT port at that end (the lab's, or --dut-ports):
	 * counted around each run; none: not counted */
	const char *port_name[DUTSNAP_IF_MAX];
	unsigned int nport_name;
	/* --soak with an end on the DUT: the soak's busy loop shares the
	 * CPUs with the DUT's own sending or receiving, and can slow it (an
	 * RT guest under emulation sent 25 times less beside it), so a
	 * control run without the soak goes first and the soaked runs are
	 * held against it; the watch's CPUs and calibration kept for the
	 * soak's start after it */
	bool control;
	double control_mbps;
	struct cpuset watch;
	char soak_path[4096];
	bool soak_path_set;
	/* --soak-here: this host's own CPUs, watched and soaked over the
	 * same window through an agent of this host (hd) */
	struct dut *hd;
	struct cpucost *hcost;
};

/* The soaked run slower than the control run by more than this share
 * is not the workload the control measured: two back-to-back runs of
 * one VM guest's sender differed by up to 25% here (157 and 184 Mb/s). */
#define SOAK_CONTROL_SLOWER 0.25

static void soak_control_check(const struct run *w, const struct stream_result *r, struct cpucost_result *cr);

/* The sending window's ends: the DUT's CPUs and, with --soak-here, this
 * host's, marked together. */
static void window_mark(struct run *w, bool end)
{
	struct cpucost *c[2] = { w->cost, w->hcost };

	for (int i = 0; i < 2; i++) {
		if (!c[i])
			continue;
		if (end)
			cpucost_mark_end(c[i]);
		else
			cpucost_mark_start(c[i]);
	}
}

static void dut_window(void *arg, bool end)
{
	window_mark(arg, end);
}

/* Open the DUT the stream crosses (lab mode: the lab of --prefix unless
 * --dut names another; --client: only with --dut) and the watch of its
 * CPUs, and hook it to the client's sending window. */
static int dut_watch_open(struct run *w, const struct lab_status *lab, char *err, size_t errlen)
{
	const struct app_stream_opts *op = w->op;
	struct dut_target t = op->dut;
	struct cpuset watch = op->watch;
	const char *ports[DUTSNAP_IF_MAX];
	unsigned int nports = 0;
	char e[512], path[4096];
	struct lab_status st;
	const char *v;
	int rc;

	if (!t.given) {
		if (op->mode != APP_STREAM_LAB)
			return 0;
		t.kind = DUT_LAB;
		snprintf(t.prefix, sizeof(t.prefix), "%s", op->prefix);
	}
	if (t.kind == DUT_LAB) {
		/* lab mode has read its lab's status already */
		if (!lab || strcmp(t.prefix, op->prefix)) {
			if ((rc = lab_status(t.prefix, &st, e, sizeof(e)))) {
				snprintf(err, errlen, "--dut: %s", e);
				return errmsg_host(rc);
			}
			lab = &st;
		}
		t.avoid = lab->dut_cpus;
		if (!cpuset_count(&watch))
			watch = lab->dut_cpus;
		/* every path's two ports: their counters are the DUT's own
		 * account of what crossed them */
		for (unsigned int p = 0; p < (lab->ports ? lab->ports : 1) && p < LAB_PORTS_MAX; p++) {
			/* an end on the DUT: the ports that end uses, in path
			 * order (--irq-cpus places port i on its i-th CPU) */
			if (op->dut_end != APP_STREAM_END_SENDER)
				ports[nports++] = lab_path_if(p, LAB_DUT0)->ifname;
			if (op->dut_end != APP_STREAM_END_RECEIVER)
				ports[nports++] = lab_path_if(p, LAB_DUT1)->ifname;
		}
	}
	for (unsigned int i = 0; t.kind != DUT_LAB && i < op->ndut_ports; i++)
		ports[nports++] = op->dut_ports[i];
	if ((rc = dut_open(&t, nports ? ports : NULL, nports, &w->d, err, errlen)))
		return rc;
	if (!cpuset_count(&watch) && (v = envcap_kv_get(dut_env(w->d), "dut.cpu.online")) &&
	    cpuset_parse_list(v, &watch, e, sizeof(e))) {
		snprintf(err, errlen, "the DUT's CPU list '%s': %s", v, e);
		return -EIO;
	}
	if (op->soak_path)
		snprintf(path, sizeof(path), "%s", op->soak_path);
	else
		soak_calibration_default_path(path, sizeof(path));
	w->control = op->soak && op->dut_end;
	w->watch = watch;
	snprintf(w->soak_path, sizeof(w->soak_path), "%s", path);
	w->soak_path_set = t.kind != DUT_SSH;
	if ((rc = cpucost_create(w->d, &watch, op->soak && !w->control, w->soak_path_set ? w->soak_path : NULL,
				 &w->cost, err, errlen)))
		return rc;
	if (op->profile)
		cpucost_profile(w->cost, op->profile_hz, op->profile_top ? op->profile_top : 10);
	w->c.window = dut_window;
	w->c.window_arg = w;
	return 0;
}

/* --soak-here: this host's CPUs (every one online), watched and soaked
 * through a local agent over the same window as the DUT's. */
static int here_watch_open(struct run *w, char *err, size_t errlen)
{
	const struct app_stream_opts *op = w->op;
	struct dut_target t = { .given = true, .kind = DUT_LOCAL };
	struct cpuset watch;
	char e[256], path[4096];
	const char *v;
	int rc;

	if (!op->soak_here)
		return 0;
	if ((rc = dut_open(&t, NULL, 0, &w->hd, err, errlen)))
		return rc;
	if (!(v = envcap_kv_get(dut_env(w->hd), "dut.cpu.online")) || cpuset_parse_list(v, &watch, e, sizeof(e)))
		return errmsg(-EIO, err, errlen, "--soak-here: this host's online CPUs are not known");
	if (op->soak_path)
		snprintf(path, sizeof(path), "%s", op->soak_path);
	else
		soak_calibration_default_path(path, sizeof(path));
	if ((rc = cpucost_create(w->hd, &watch, true, path, &w->hcost, err, errlen)))
		return rc;
	w->c.window = dut_window;
	w->c.window_arg = w;
	return 0;
}

/* An end on the DUT: its agent has one, the CPUs named for that end are
 * the DUT's own, and in a namespace lab (whose DUT is this host's
 * kernel) the DUT's senders run on the lab's DUT CPUs unless placed. */
static int dut_end_open(struct run *w, const struct lab_status *lab, char *err, size_t errlen)
{
	struct app_stream_opts *op = w->op;
	struct app_stream_res *res = w->res;
	const char *v = envcap_kv_get(dut_env(w->d), "dut.cpu.online");
	bool sender = op->dut_end == APP_STREAM_END_SENDER;
	struct cpuset online;
	char e[256], list[256];
	int rc;

	if ((rc = app_stream_dut_check(w->d, err, errlen)))
		return rc;
	res->dut_end = op->dut_end;
	snprintf(res->dut_kernel, sizeof(res->dut_kernel), "%s",
		 envcap_kv_get(dut_env(w->d), "dut.kernel.release") ? envcap_kv_get(dut_env(w->d), "dut.kernel.release") :
		 "unknown");
	if (v && !cpuset_parse_list(v, &online, e, sizeof(e))) {
		cpuset_format_list(&online, list, sizeof(list));
		for (unsigned int i = 0; i < (sender ? op->nsend : 1); i++) {
			int cpu = sender ? op->send_cpu[i] : op->server_cpu;

			if (cpu >= 0 && !cpuset_has(&online, (unsigned int)cpu))
				return errmsg(-EINVAL, err, errlen, "%s: CPU %d is not online on the DUT %s (online: %s)",
					      sender ? (cpuset_count(&op->cpus) ? "--cpus" : "-T") : "-T ,REMOTE", cpu,
					      dut_name(w->d), list);
		}
	}
	if (cpuset_count(&op->irq_cpus)) {
		struct dut_apply ap = { .placement = DUT_PLACE_SPLIT, .cpus = op->irq_cpus, .need_irqs = true };
		int c;

		if (v && !cpuset_parse_list(v, &online, e, sizeof(e)))
			for (c = cpuset_next(&op->irq_cpus, 0); c >= 0; c = cpuset_next(&op->irq_cpus, (unsigned int)c + 1))
				if (!cpuset_has(&online, (unsigned int)c)) {
					cpuset_format_list(&online, list, sizeof(list));
					return errmsg(-EINVAL, err, errlen, "--irq-cpus: CPU %d is not online on the DUT %s "
						      "(online: %s)", c, dut_name(w->d), list);
				}
		if ((rc = dut_apply(w->d, &ap, res->irq_placed, sizeof(res->irq_placed), e, sizeof(e))))
			return errmsg(rc == -EINVAL ? -EINVAL : rc, err, errlen, "--irq-cpus: %s", e);
	}
	if (!lab || lab->vm.on || !cpuset_count(&lab->dut_cpus))
		return 0;
	if (sender && !cpuset_count(&op->cpus) && op->cpu < 0)
		for (unsigned int i = 0; i < op->nsend; i++)
			op->send_cpu[i] = cpuset_nth(&lab->dut_cpus, i % cpuset_count(&lab->dut_cpus));
	/* the agent there runs off the DUT's CPUs: its sessions go to the
	 * first of them (netperf's -T ,N), unless placed */
	if (!sender && op->server_cpu < 0)
		op->server_cpu = w->c.server_cpu = cpuset_nth(&lab->dut_cpus, 0);
	return 0;
}

/* The datagrams the DUT's CPU time is counted per: those it sent with
 * --sender dut; else those that reached its socket, received or
 * dropped with the buffer full (received there, or forwarded through). */
static uint64_t dut_frames(const struct app_stream_opts *op, const struct stream_result *r)
{
	return op->dut_end == APP_STREAM_END_SENDER ? r->sent : r->recv + r->drops;
}

/* The run's row in the store, before its runs. */
static int keep_begin(struct run *w, const char *lab, char *err, size_t errlen)
{
	struct app_stream_opts *op = w->op;
	struct app_stream_info si = { .lab = lab, .dut = w->d, .size = (unsigned int)op->size,
				      .rate_pps = app_stream_client_rate_pps(op), .senders = op->nsend,
				      .server_cpu = op->server_cpu };
	struct db_run_info ri = { .test = "stream", .repeats = app_stream_client_runs(op) };
	const char *dn = w->d ? dut_name(w->d) : "the DUT";
	char where[256], sizes[16];
	int rc;

	snprintf(sizes, sizeof(sizes), "%llu", (unsigned long long)op->size);
	ri.sizes = sizes;
	si.dut_end = op->dut_end == APP_STREAM_END_SENDER ? "sender" : op->dut_end ? "receiver" : NULL;
	if (lab && op->dut_end == APP_STREAM_END_SENDER)
		snprintf(where, sizeof(where), "from the DUT of lab %s -> sink0 (%s)", lab, w->res->addr);
	else if (lab && op->dut_end)
		snprintf(where, sizeof(where), "from lab %s's gen0 -> the DUT (%s)", lab, w->res->addr);
	else if (lab)
		snprintf(where, sizeof(where), "through lab %s: gen0 -> DUT -> sink0 (%s)", lab, w->res->addr);
	else if (op->dut_end == APP_STREAM_END_SENDER)
		snprintf(where, sizeof(where), "from %.60s to %.60s (%s) here", dn, op->host, w->res->addr);
	else if (op->dut_end)
		snprintf(where, sizeof(where), "from here to %.60s (%s) on %.60s", op->host, w->res->addr, dn);
	else
		snprintf(where, sizeof(where), "to %s (%s) port %u", op->host, w->res->addr, op->port);
	si.where = where;
	if (cpuset_count(&op->cpus))
		cpuset_format_list(&op->cpus, si.cpus, sizeof(si.cpus));
	else if (op->cpu >= 0)
		snprintf(si.cpus, sizeof(si.cpus), "%d", op->cpu);
	if ((rc = app_run_store_open(&op->store, err, errlen)) ||
	    (rc = app_run_store_stream_begin(&op->store, &si, &ri, err, errlen)))
		return rc;
	return 0;
}

/* A run stored as it ends: a plain trial with the stream's figures and
 * the DUT's CPU over it. A store that refuses one is said once; the runs
 * go on. */
static void keep_run(struct run *w, const struct stream_result *r, unsigned int rep)
{
	struct app_stream_opts *op = w->op;
	struct cpucost_result *cr;
	struct db_prof_entry prof[PROFILE_TOP_MAX];
	struct db_stream x;
	struct db_trial t;
	char err[512];

	if (!op->store.ses.db || !op->store.ses.run_id)
		return;
	cr = calloc(1, sizeof(*cr));
	if (cr && w->cost && cpucost_ended(w->cost)) {
		cpucost_result(w->cost, dut_frames(op, r), cr);
		soak_control_check(w, r, cr);
	}
	app_run_store_stream_trial(r, (unsigned int)op->size, op->nsend, rep, cr, &t, &x, prof);
	if (app_run_store_trial(&op->store, &t, err, sizeof(err)) && !w->store_warned) {
		app_cli_hooks_say(w->cli, APP_SAY_WARNING, "run %u not stored in %s: %s", rep + 1, op->store.ses.path, err);
		w->store_warned = true;
	}
	free(cr);
}

/* Each sender with a server of its own in sink, on a port of its own. */
static int lab_one(void *arg, unsigned int i, const struct stream_client *c, struct stream_result *r, char *err,
		   size_t errlen)
{
	struct run *w = arg;

	w->port[i] = w->op->have_port ? w->op->port : 0;
	return stream_lab_run(w->gen, w->sink, w->ip, &w->port[i], c, r, &w->in_session[i], err, errlen);
}

static int client_one(void *arg, unsigned int i, const struct stream_client *c, struct stream_result *r,
		      char *err, size_t errlen)
{
	(void)arg;
	(void)i;
	return stream_client_run(c, -1, r, err, errlen);
}

/* --receiver dut: each sender here (in the lab's gen namespace) to a
 * server of its own on the DUT. */
static int dut_recv_one(void *arg, unsigned int i, const struct stream_client *c0, struct stream_result *r,
			char *err, size_t errlen)
{
	struct run *w = arg;
	struct stream_client c = *c0;

	if (stream_addr_parse(w->npath > 1 ? w->daddrs[i] : w->res->addr, w->dport[i], &c.addr, &c.alen, err, errlen))
		return -EINVAL;
	return stream_client_run(&c, w->gen, r, err, errlen);
}

/* Why sender i failed, into err: -ECANCELED when a stop cut its session. */
static int sender_failed(struct run *w, unsigned int i, char *err, size_t errlen)
{
	const struct app_stream_opts *op = w->op;
	bool stopped = op->stop && *op->stop;
	char who[32] = "";

	if (op->nsend > 1)
		snprintf(who, sizeof(who), "sender %u: ", i);
	if (op->dut_end) {
		snprintf(err, errlen, "%s%s (%s on %s, to %s port %u)", who, w->res->s[i].err,
			 op->dut_end == APP_STREAM_END_SENDER ? "the sender" : "the server", dut_name(w->d),
			 w->res->addr, w->dport[i]);
		return stopped ? -ECANCELED : -EIO;
	}
	if (w->gen < 0) {
		snprintf(err, errlen, "%s%s (%s port %u)", who, w->res->s[i].err, w->res->addr, op->port);
		return stopped ? -ECANCELED : -EIO;
	}
	if (!w->in_session[i]) {
		snprintf(err, errlen, "%s%s", who, w->res->s[i].err);
		return -EIO;
	}
	snprintf(err, errlen, "%s%s (lab %s, %s port %u)", who, w->res->s[i].err, op->prefix, w->res->addr,
		 w->port[i]);
	return stopped ? -ECANCELED : -EIO;
}

/* The lab's DUT ports the stream's datagrams cross at the DUT's end, one
 * per path: counted before (start) and after the run, and the datagrams
 * each path's senders sent okay; nothing when the DUT is no lab (its
 * ports are not known) or a snapshot fails (the run goes on). */
static void ports_mark(struct run *w, bool start)
{
	const struct app_stream_opts *op = w->op;
	struct app_stream_res *res = w->res;
	bool sender = op->dut_end == APP_STREAM_END_SENDER;
	struct dutsnap *s;
	char e[256];

	if (!w->nport_name || !(s = calloc(1, sizeof(*s))))
		return;
	if (dut_snapshot(w->d, s, e, sizeof(e))) {
		res->nport = 0;
		free(s);
		return;
	}
	if (start)
		res->nport = w->nport_name < LAB_PORTS_MAX ? w->nport_name : LAB_PORTS_MAX;
	for (unsigned int p = 0; p < res->nport; p++) {
		struct app_stream_port *pt = &res->dport[p];
		const struct dutsnap_if *f;
		uint64_t v;

		if (start) {
			memset(pt, 0, sizeof(*pt));
			snprintf(pt->ifname, sizeof(pt->ifname), "%s", w->port_name[p]);
		}
		if (!(f = dutsnap_if_find(s, pt->ifname)) || !f->present) {
			res->nport = 0;
			break;
		}
		v = sender ? f->tx_packets + f->tx_dropped : f->rx_packets;
		pt->counted = start ? v : v - pt->counted;
		if (start)
			continue;
		for (unsigned int i = p; i < op->nsend; i += res->nport) {
			pt->senders++;
			pt->datagrams += res->s[i].r.sent;
		}
	}
	dutsnap_clear(s);
	free(s);
}

/* --sender dut: a server here for each of the DUT's senders (in the
 * lab's sink namespace, or on -H's address), the senders started there,
 * the DUT's CPU window from the first one's start to the last one's end. */
static int dut_send_once(struct run *w, char *err, size_t errlen)
{
	const struct app_stream_opts *op = w->op;
	struct stream_once *srv[STREAMRUN_MAX] = { NULL };
	struct app_stream_dut_send ds = { .addr = w->res->addr, .addrs = w->npath > 1 ? w->daddrs : NULL,
					  .ports = w->dport, .cpus = op->send_cpu,
					  .n = op->nsend, .size = op->size, .duration_ns = op->duration_ns,
					  .rate_pps = w->c.rate_pps, .server_cpu = op->server_cpu,
					  .allow_any = op->allow_any };
	bool sent = false, stopped = false;
	char e[256];
	int rc = 0;

	for (unsigned int i = 0; i < op->nsend && !rc; i++) {
		w->dport[i] = op->have_port && op->nsend == 1 ? op->port : 0;
		struct sockaddr_storage at = w->c.addr;
		socklen_t alen = w->c.alen;

		/* on a box of several ports, at sender i's address */
		if (w->sink < 0 && w->npath > 1 && stream_addr_parse(w->daddrs[i], 0, &at, &alen, e, sizeof(e))) {
			rc = errmsg(-EINVAL, err, errlen, "%s", e);
			break;
		}
		/* the port asked for (--port, one sender) or any */
		if (at.ss_family == AF_INET6)
			((struct sockaddr_in6 *)&at)->sin6_port = htons(w->dport[i]);
		else
			((struct sockaddr_in *)&at)->sin_port = htons(w->dport[i]);
		if ((rc = stream_once_start(w->sink, w->sink >= 0 ? NULL : &at, w->sink >= 0 ? 0 : alen, &w->dport[i],
					    op->duration_ns, &srv[i], e, sizeof(e))))
			snprintf(err, errlen, "the server for the DUT's sender %u: %s", i, e);
	}
	if (!rc)
		ports_mark(w, true);
	if (!rc && !(rc = app_stream_dut_send(w->d, &ds, err, errlen))) {
		window_mark(w, false);
		while (!sent && !rc) {
			if (op->stop && *op->stop) {
				stopped = true;
				break;
			}
			rc = app_stream_dut_sent(w->d, 1000, &sent, err, errlen);
		}
		window_mark(w, true);
		if (!rc)
			rc = app_stream_dut_end(w->d, stopped, w->res->s, op->nsend, err, errlen);
		if (!rc)
			ports_mark(w, false);
	}
	for (unsigned int i = 0; i < op->nsend; i++)
		stream_once_stop(srv[i]);
	return rc;
}

/* One run of the senders, their total into r. */
static int run_once(struct run *w, struct stream_result *r, char *err, size_t errlen)
{
	const struct app_stream_opts *op = w->op;
	int first, rc;

	if (op->dut_end == APP_STREAM_END_SENDER) {
		if ((rc = dut_send_once(w, err, errlen)))
			return rc;
		first = -1;
		for (unsigned int i = 0; i < op->nsend && first < 0; i++)
			if (w->res->s[i].rc)
				first = (int)i;
	} else if (op->dut_end == APP_STREAM_END_RECEIVER) {
		if ((rc = app_stream_dut_recv(w->d, w->npath > 1 ? NULL : w->res->addr, op->nsend, op->duration_ns,
					      w->dport, err, errlen)))
			return rc;
		ports_mark(w, true);
		first = app_stream_senders_many(&w->c, op->nsend, op->send_cpu, dut_recv_one, w, w->res->s);
		if ((rc = app_stream_dut_end(w->d, false, NULL, 0, err, errlen)))
			return rc;
		ports_mark(w, false);
	} else {
		first = app_stream_senders_many(&w->c, op->nsend, op->send_cpu, w->gen < 0 ? client_one : lab_one, w,
						w->res->s);
	}

	if (first >= 0) {
		for (unsigned int i = 0; i < op->nsend; i++)
			if (w->res->s[i].rc && w->res->s[i].rc != -ECANCELED)
				return sender_failed(w, i, err, errlen);
		snprintf(err, errlen, "the senders were stopped");
		return -EIO;
	}
	app_stream_senders_total(w->res->s, op->nsend, r);
	return 0;
}

/* One run, or with -I runs until the mean's interval is narrow enough or
 * -i's most are done; res->r is the last run's. The first run that fails
 * stops them. */
static int iterate(struct run *w, char *err, size_t errlen)
{
	const struct app_stream_opts *op = w->op;
	struct stream_conf *cf = &w->res->cf;
	struct stream_result *r = &w->res->r;
	unsigned int max = app_stream_client_runs(op);
	int rc;

	cf->halfwidth = INFINITY;
	for (unsigned int i = 0; i < max; i++) {
		memset(r, 0, sizeof(*r));
		if ((rc = run_once(w, r, err, errlen)))
			return rc;
		keep_run(w, r, i);
		cf->mbps[cf->n++] = stream_mbps(r->recv_bytes, r->recv_ns);
		if (r->interrupted || (op->stop && *op->stop))
			break;
		if (!op->conf_level) {
			if (max > 1)
				app_cli_hooks_say(w->cli, APP_SAY_NOTE, "run %u of %u: %.2f 10^6bits/s received", cf->n, max,
						  cf->mbps[cf->n - 1]);
			continue;
		}
		cf->halfwidth = stat_mean_halfwidth(cf->mbps, cf->n, op->conf_level);
		if (isfinite(cf->halfwidth))
			app_cli_hooks_say(w->cli, APP_SAY_NOTE, "run %u: %.2f 10^6bits/s received; the mean's %u%% "
					  "interval +-%.2f%%", cf->n, cf->mbps[cf->n - 1], op->conf_level,
					  cf->halfwidth * 100);
		else
			app_cli_hooks_say(w->cli, APP_SAY_NOTE, "run %u: %.2f 10^6bits/s received", cf->n,
					  cf->mbps[cf->n - 1]);
		if (cf->n >= op->iter_min && 200 * cf->halfwidth <= op->conf_width) {
			cf->achieved = true;
			break;
		}
	}
	return 0;
}

/* A DUT end's control run: one run without the soak (its throughput
 * kept), then the soak started for the runs that count. */
static int soak_control(struct run *w, char *err, size_t errlen)
{
	const struct app_stream_opts *op = w->op;
	struct stream_result r = { 0 };
	int rc;

	app_cli_hooks_say(w->cli, APP_SAY_NOTE, "a control run without the soak first: the soak's busy loop shares "
			  "the DUT's CPUs with its own %s", op->dut_end == APP_STREAM_END_SENDER ? "sending" : "receiving");
	if ((rc = run_once(w, &r, err, errlen)))
		return rc;
	w->control_mbps = stream_mbps(r.recv_bytes, r.recv_ns);
	app_cli_hooks_say(w->cli, APP_SAY_NOTE, "control run: %.2f 10^6bits/s received", w->control_mbps);
	cpucost_destroy(w->cost);
	w->cost = NULL;
	if ((rc = cpucost_create(w->d, &w->watch, true, w->soak_path_set ? w->soak_path : NULL, &w->cost, err,
				 errlen)))
		return rc;
	if (op->profile)
		cpucost_profile(w->cost, op->profile_hz, op->profile_top ? op->profile_top : 10);
	w->c.window_arg = w;
	return 0;
}

/* A soaked run held against the control run: much slower, its CPU
 * figure is another workload's, and the soak is said untrusted. */
static void soak_control_check(const struct run *w, const struct stream_result *r, struct cpucost_result *cr)
{
	double mbps = stream_mbps(r->recv_bytes, r->recv_ns);

	if (!w->control || !(w->control_mbps > 0) || !cr->valid || strcmp(cr->source, "soak"))
		return;
	if (mbps >= (1 - SOAK_CONTROL_SLOWER) * w->control_mbps)
		return;
	cr->soak_checked = true;
	cr->soak_trusted = false;
	snprintf(cr->soak_reason, sizeof(cr->soak_reason), "the soak slowed the DUT's %s to %.1f 10^6bits/s from "
		 "%.1f in the control run without it (%.0f%% less): its CPU figure is of another workload; run "
		 "without --soak for /proc/stat's", w->op->dut_end == APP_STREAM_END_SENDER ? "sending" : "receiving",
		 mbps, w->control_mbps, 100 * (1 - mbps / w->control_mbps));
}

/* The runs, stored, and the DUT's CPU over the last. */
static int runs(struct run *w, const char *lab, char *err, size_t errlen)
{
	struct app_stream_res *res = w->res;
	int rc;

	if (w->d)
		snprintf(res->dut, sizeof(res->dut), "%s", dut_name(w->d));
	if (w->control && (rc = soak_control(w, err, errlen)))
		return rc;
	res->control_mbps = w->control_mbps;
	if ((rc = keep_begin(w, lab, err, errlen)) || (rc = iterate(w, err, errlen)))
		return rc;
	if (w->cost && cpucost_ended(w->cost)) {
		cpucost_result(w->cost, dut_frames(w->op, &res->r), &res->cr);
		soak_control_check(w, &res->r, &res->cr);
		res->have_cost = true;
	}
	/* this host's end: the datagrams it sent, or with its server here
	 * (--sender dut) those that reached it */
	if (w->hcost && cpucost_ended(w->hcost)) {
		cpucost_result(w->hcost, w->op->dut_end == APP_STREAM_END_SENDER ? res->r.recv + res->r.drops : res->r.sent,
			       &res->here_cr);
		res->have_here = true;
	}
	return 0;
}

/* Against a server: --client. */
/* -H's one address (or with a DUT end's --dut-ports, one per port), each
 * resolved and held to the benchmarking ranges; the first in w->c and
 * res->addr, sender i's in w->daddrs[i] with several. */
static int client_hosts(struct run *w, char *err, size_t errlen)
{
	struct app_stream_opts *op = w->op;
	char hosts[1024], *save = NULL, e[256], addr[INET6_ADDRSTRLEN];
	char each[DUTSNAP_IF_MAX][INET6_ADDRSTRLEN];
	unsigned int n = 0;

	snprintf(hosts, sizeof(hosts), "%s", op->host);
	for (char *h = strtok_r(hosts, ",", &save); h && n < DUTSNAP_IF_MAX; h = strtok_r(NULL, ",", &save)) {
		struct stream_client c = { 0 };

		if (stream_resolve(&c, h, op->port, addr, sizeof(addr), e, sizeof(e))) {
			snprintf(err, errlen, "--client: %s", e);
			return -EINVAL;
		}
		/* A load test aimed at a real host by a typo: the benchmarking
		 * ranges and loopback only, unless the user says otherwise. */
		if (!op->allow_any && !addrpolicy_in_bench_range((struct sockaddr *)&c.addr) &&
		    !addrpolicy_is_loopback((struct sockaddr *)&c.addr)) {
			snprintf(err, errlen, "--client %s is outside the benchmarking ranges " ADDRPOLICY_RANGES
				 " and loopback: give --allow-any-address to send there anyway", addr);
			return -EINVAL;
		}
		if (!n++) {
			w->c.addr = c.addr;
			w->c.alen = c.alen;
			snprintf(w->res->addr, sizeof(w->res->addr), "%s", addr);
		}
		snprintf(each[n - 1], sizeof(each[0]), "%s", addr);
	}
	for (unsigned int p = 0; p < op->ndut_ports && p < DUTSNAP_IF_MAX; p++)
		w->port_name[w->nport_name++] = op->dut_ports[p];
	if (n > 1) {
		w->npath = n;
		for (unsigned int i = 0; i < op->nsend; i++) {
			snprintf(w->daddr[i], sizeof(w->daddr[i]), "%s", each[i % n]);
			w->daddrs[i] = w->daddr[i];
		}
	}
	return 0;
}

static int client(struct run *w, char *err, size_t errlen)
{
	struct app_stream_opts *op = w->op;
	int rc;

	if ((rc = client_hosts(w, err, errlen)))
		return rc;
	w->res->port = op->port;
	if ((rc = dut_watch_open(w, NULL, err, errlen)) || (rc = here_watch_open(w, err, errlen)) ||
	    (op->dut_end && (rc = dut_end_open(w, NULL, err, errlen))))
		return rc;
	return runs(w, NULL, err, errlen);
}

/* Both ends on the tester's CPUs (the server's thread inherits this
 * one's), off the DUT's, as a trial's generator and analyzer are. */
static void pin_to(const struct cpuset *cpus)
{
	cpu_set_t set;

	if (!cpuset_count(cpus))
		return;
	CPU_ZERO(&set);
	for (int cpu = cpuset_next(cpus, 0); cpu >= 0; cpu = cpuset_next(cpus, (unsigned int)cpu + 1))
		CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Through the lab, with both ends here: lab mode. */
static int lab(struct run *w, char *err, size_t errlen)
{
	struct app_stream_opts *op = w->op;
	const struct lab_addr *dst = lab_if(LAB_SINK0);
	char name[NETNS_NAME_MAX], pa[LAB_PREFIX_MAX + 12];
	struct lab_status st;
	int lock = -1, rc;

	if ((rc = lab_status_lock(op->prefix, "a stream", false, &lock, err, errlen)) ||
	    (rc = lab_status(op->prefix, &st, err, errlen))) {
		rc = errmsg_host(rc);
		goto out;
	}
	if (!st.complete) {
		snprintf(err, errlen, "the lab %s is %s: run 'wirerate lab up%s'", op->prefix,
			 st.exists ? "half-built" : "not up", lab_prefix_arg(op->prefix, pa, sizeof(pa)));
		rc = -ENOENT;
		goto out;
	}
	pin_to(&st.tester_cpus);
	lab_ns_name(op->prefix, LAB_GEN, name, sizeof(name));
	w->gen = netns_open(name);
	lab_ns_name(op->prefix, LAB_SINK, name, sizeof(name));
	w->sink = netns_open(name);
	if (w->gen < 0 || w->sink < 0) {
		rc = w->gen < 0 ? w->gen : w->sink;
		snprintf(err, errlen, "cannot open the lab's namespaces (%s)", strerror(-rc));
		rc = errmsg_host(rc);
		goto out;
	}
	/* --receiver dut: the datagrams go to the DUT's own address on gen's side */
	if (op->dut_end == APP_STREAM_END_RECEIVER)
		dst = lab_if(LAB_DUT0);
	inet_ntop(AF_INET, dst->ip, w->res->addr, sizeof(w->res->addr));
	w->ip = dst->ip;
	op->host = w->res->addr;
	if (op->dut_end) {
		w->npath = st.ports ? st.ports : 1;
		for (unsigned int p = 0; p < w->npath && p < LAB_PORTS_MAX; p++)
			w->port_name[w->nport_name++] = lab_path_if(p, op->dut_end == APP_STREAM_END_SENDER ? LAB_DUT1 :
								    LAB_DUT0)->ifname;
		for (unsigned int i = 0; i < op->nsend; i++) {
			const struct lab_addr *a = lab_path_if(i % w->npath, op->dut_end == APP_STREAM_END_SENDER ?
							       LAB_SINK0 : LAB_DUT0);

			inet_ntop(AF_INET, a->ip, w->daddr[i], sizeof(w->daddr[i]));
			w->daddrs[i] = w->daddr[i];
		}
	}
	if (!(rc = dut_watch_open(w, &st, err, errlen)) &&
	    !(op->dut_end && (rc = dut_end_open(w, &st, err, errlen))) && !(rc = runs(w, op->prefix, err, errlen)))
		w->res->port = op->dut_end ? w->dport[0] : w->port[0];
out:
	lab_status_unlock(&lock, NULL);
	return rc;
}

/* The token of --token-file into tok ("" without one). */
static int load_token(const struct app_stream_opts *op, char *tok, size_t len, char *err, size_t errlen)
{
	char e[512];

	if (op->token_file && stream_proto_token_load(op->token_file, tok, len, e, sizeof(e))) {
		snprintf(err, errlen, "--token-file: %s", e);
		return -EINVAL;
	}
	return 0;
}

int app_stream_client(struct app_stream_opts *op, const struct app_cli_hooks *cli, struct app_stream_res *res,
		      char *err, size_t errlen)
{
	struct run *w = calloc(1, sizeof(*w));
	char tok[STREAM_TOKEN_MAX + 1] = "";
	int rc;

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memset(res, 0, sizeof(*res));
	*w = (struct run){ .op = op, .cli = cli, .res = res, .gen = -1, .sink = -1,
			   .c = { .size = op->size, .duration_ns = op->duration_ns, .rate_pps = app_stream_client_rate_pps(op),
				  .stop = op->stop, .cpu = op->cpu, .server_cpu = op->server_cpu } };
	if ((rc = load_token(op, tok, sizeof(tok), err, errlen)))
		goto out;
	w->c.token = *tok ? tok : NULL;
	rc = op->mode == APP_STREAM_LAB ? lab(w, err, errlen) : client(w, err, errlen);
out:
	cpucost_destroy(w->cost);
	dut_close(w->d);
	cpucost_destroy(w->hcost);
	dut_close(w->hd);
	if (w->gen >= 0)
		close(w->gen);
	if (w->sink >= 0)
		close(w->sink);
	explicit_bzero(tok, sizeof(tok));
	free(w);
	return rc;
}

const char *app_stream_client_user(const struct app_stream_opts *op)
{
	return op->user ? op->user : "nobody";
}

bool app_stream_client_open(const struct app_stream_opts *op, const struct stream_server *s)
{
	struct in_addr a4;
	struct in6_addr a6;

	if (s->token)
		return false;
	if (!op->bind)
		return true;
	if (inet_pton(AF_INET, op->bind, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) != 127;
	return !(inet_pton(AF_INET6, op->bind, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6));
}

int app_stream_client_listen(const struct app_stream_opts *op, struct stream_server *s, char *tok, size_t toklen,
		      char *err, size_t errlen)
{
	struct sockaddr_storage ba;
	socklen_t bl = 0;
	bool root = geteuid() == 0;
	char e[256];
	int rc;

	s->once = op->once;
	s->max_sessions = op->max_sessions;
	s->max_per_peer = op->max_per_peer ? op->max_per_peer : STREAM_PER_PEER_DEFAULT;
	s->peer_prefix6 = op->peer_prefix6 ? op->peer_prefix6 : STREAM_PREFIX6_DEFAULT;
	s->max_duration_ns = op->max_duration_ns ? op->max_duration_ns : STREAM_MAX_DURATION_DEFAULT;
	if ((rc = load_token(op, tok, toklen, err, errlen)))
		return rc;
	if (op->bind && stream_addr_parse(op->bind, op->port, &ba, &bl, e, sizeof(e))) {
		snprintf(err, errlen, "--bind: %s", e);
		return -EINVAL;
	}
	if (op->user && !root) {
		snprintf(err, errlen, "--user: only root can run as another user (running as uid %u)",
			 (unsigned int)geteuid());
		return -EINVAL;
	}
	if ((s->lfd = stream_listen(op->bind ? &ba : NULL, bl, op->port, err, errlen)) < 0) {
		rc = s->lfd;
		return rc == -EADDRINUSE || rc == -EACCES || rc == -EADDRNOTAVAIL ? -EINVAL : errmsg_host(rc);
	}
	/* Root was for the port alone (one below 1024): the sessions need
	 * none, so a client reaches only an unprivileged process. */
	if (root && (rc = stream_server_drop_root(app_stream_client_user(op), e, sizeof(e)))) {
		snprintf(err, errlen, "--user: %s", e);
		return rc == -ENOENT && op->user ? -EINVAL : errmsg_host(rc);
	}
	s->token = *tok ? tok : NULL;
	return 0;
}

void app_stream_client_headline(const struct app_stream_opts *op, const struct app_stream_res *res, char *buf,
			 size_t len)
{
	const struct stream_result *r = &res->r;

	snprintf(buf, len, "%.1f Mb/s received of %.1f sent (%llu B%s), loss %.2f%%",
		 stream_mbps(r->recv_bytes, r->recv_ns), stream_mbps(r->sent_bytes, r->send_ns),
		 (unsigned long long)op->size, op->nsend > 1 ? ", several senders" : "",
		 r->sent ? 100.0 * (double)(r->sent > r->recv ? r->sent - r->recv : 0) / (double)r->sent : 0);
}
