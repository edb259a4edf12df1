/* wirerate pair: the tests of a selftests pair (app/pair_run.h). */
#include "app/pair_run.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <arpa/inet.h>

#include "core/addrpolicy.h"
#include "core/errmsg.h"
#include "dut/soak.h"
#include "core/ns.h"
#include "io/reflect.h"
#include "os/command.h"
#include "os/fs.h"
#include "os/ifinfo.h"
#include "os/netns.h"
#include "store/db.h"
#include "wr_config.h"

#define PAIR_OUT_MAX (4 << 20)		/* a child's JSON, kept */
#define PAIR_STREAM_SLACK_MS 60000	/* a stream's start, its agent and end */
#define PAIR_SEARCH_MS (30 * 60 * 1000)	/* a forwarding search at most */
#define PAIR_ARGS_MAX 64
#define PAIR_TEST_PORT 9		/* the test frames' UDP port (core/frame.h's default) */

/* A word that goes into a command line at the peer (ssh joins them with
 * spaces for the remote shell): nothing a shell reads specially. */
static bool word_safe(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("_.:/@%,+=-", *s)))
			return false;
	return true;
}

static bool in_range(const char *addr, bool v6)
{
	unsigned char b[16];

	return inet_pton(v6 ? AF_INET6 : AF_INET, addr, b) == 1 && addrpolicy_ip_in_bench_range(b, v6);
}

int app_pair_run_check(const struct app_pair_opts *op, struct topology *t, char *err, size_t errlen)
{
	char *text = NULL, e[512];
	const char *local, *remote;
	long n = 0;
	int rc;

	if (!op->tests)
		return errmsg(-EINVAL, err, errlen, "--test: name one test or more (send, receive, forward, reflect)");
	if (op->ktap && op->json)
		return errmsg(-EINVAL, err, errlen, "one of --ktap and --json");
	if ((rc = app_gate_run_check_kcidb(&op->kcidb, err, errlen)))
		return rc;
	if (op->remote_wirerate && !word_safe(op->remote_wirerate))
		return errmsg(-EINVAL, err, errlen, "--remote-wirerate '%s': a command of letters, digits and /._-",
			      op->remote_wirerate);
	if (op->topology) {
		if (!(text = malloc(65536)))
			return errmsg(-ENOMEM, err, errlen, "out of memory");
		n = fs_read(NULL, op->topology, text, 65536);
		if (n < 0) {
			free(text);
			return errmsg(-EINVAL, err, errlen, "--topology %s: %s", op->topology, strerror((int)-n));
		}
		if (n >= 65535) {
			free(text);
			return errmsg(-EINVAL, err, errlen, "--topology %s: more than 64 KiB: not a net.config",
				      op->topology);
		}
		text[n] = '\0';
	}
	rc = topology_parse(text, op->envp, op->topology ? op->topology : "the environment", t, e, sizeof(e));
	free(text);
	if (rc)
		return errmsg(rc, err, errlen, "%s", e);
	if (op->ipv6 && !t->local_v6[0])
		return errmsg(-EINVAL, err, errlen, "--ipv6: the pair has no LOCAL_V6 and REMOTE_V6");
	if (t->remote_type == TOPOLOGY_SSH && !word_safe(t->remote_args))
		return errmsg(-EINVAL, err, errlen, "REMOTE_ARGS '%s': give the peer as [USER@]HOST for ssh",
			      t->remote_args);
	if (t->remote_type == TOPOLOGY_NETNS && !netns_exists(t->remote_args))
		return errmsg(-EINVAL, err, errlen, "REMOTE_ARGS %s: no network namespace of that name here (ip netns list)",
			      t->remote_args);
	if (op->nssh && t->remote_type != TOPOLOGY_SSH)
		return errmsg(-EINVAL, err, errlen, "--ssh-option goes with REMOTE_TYPE=ssh");
	if (op->soak) {
		char path[4096], buf[64];

		soak_calibration_default_path(path, sizeof(path));
		if (fs_read(NULL, path, buf, sizeof(buf)) < 0)
			return errmsg(-EINVAL, err, errlen, "--soak: this host's soak is not calibrated (%s): run "
							     "'wirerate soak --calibrate' on it, idle, first", path);
	}
	local = op->ipv6 || !t->local_v4[0] ? t->local_v6 : t->local_v4;
	remote = op->ipv6 || !t->local_v4[0] ? t->remote_v6 : t->remote_v4;
	rc = ifinfo_has_addr(t->netif, local);
	if (rc == -ENODEV)
		return errmsg(-EINVAL, err, errlen, "NETIF %s: no such interface on this host", t->netif);
	if (rc < 0)
		return errmsg(rc, err, errlen, "reading the addresses of %s: %s", t->netif, strerror(-rc));
	if (rc == 0)
		return errmsg(-EINVAL, err, errlen, "%s %s is not an address of NETIF %s",
			      strchr(local, ':') ? "LOCAL_V6" : "LOCAL_V4", local, t->netif);
	if (!op->allow_any_address)
		for (int i = 0; i < 2; i++)
			if (!in_range(i ? remote : local, strchr(local, ':') != NULL)) {
				addrpolicy_refusal(i ? "REMOTE address" : "LOCAL address", i ? remote : local, err, errlen);
				return -EINVAL;
			}
	return 0;
}

/* What runs a test: this host, or the peer, and its command lines. */
struct pair {
	const struct app_pair_opts *op;
	const struct topology *t;
	const char *local, *remote;	/* the family chosen */
	bool v6;
	char dut[320];			/* the peer as --dut names it */
	volatile sig_atomic_t *stop;
	const struct app_cli_hooks *cli;
	const struct app_pair_hooks *h;
	void *ctx;
};

static void say(const struct pair *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const struct pair *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!p->h->progress)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	p->h->progress(p->ctx, line);
}

/* argv (a wirerate command when wr, else a program) as it runs at the
 * peer: in its namespace (*netns set), or through ssh. words keeps the
 * joined command line for ssh. */
static int peer_argv(const struct pair *p, bool wr, char *const *argv, const char **out, const char **netns,
		     char *words, size_t wlen, char *err, size_t errlen)
{
	unsigned int n = 0, k;
	size_t w = 0;

	*netns = NULL;
	if (p->t->remote_type == TOPOLOGY_NETNS) {
		for (k = 0; argv[k] && n < PAIR_ARGS_MAX - 1; k++)
			out[n++] = k == 0 && wr ? "/proc/self/exe" : argv[k];
		out[n] = NULL;
		*netns = p->t->remote_args;
		return 0;
	}
	out[n++] = "ssh";
	out[n++] = "-T";
	for (k = 0; k < p->op->nssh; k++) {
		out[n++] = "-o";
		out[n++] = p->op->ssh_opts[k];
	}
	out[n++] = "-o";
	out[n++] = "BatchMode=yes";
	out[n++] = "-o";
	out[n++] = "ConnectTimeout=10";
	out[n++] = "--";
	out[n++] = p->t->remote_args;
	words[0] = '\0';
	for (k = 0; argv[k]; k++) {
		const char *a = k == 0 && wr && p->op->remote_wirerate ? p->op->remote_wirerate : argv[k];
		int m;

		if (!word_safe(a))
			return errmsg(-EINVAL, err, errlen, "'%s' cannot go to the peer's shell", a);
		m = snprintf(words + w, wlen - w, "%s%s", k ? " " : "", a);
		if (m < 0 || (size_t)m >= wlen - w)
			return errmsg(-E2BIG, err, errlen, "the command for the peer is too long");
		w += (size_t)m;
	}
	out[n++] = words;
	out[n] = NULL;
	return 0;
}

/* Run argv (here, or at the peer) and read its stdout as one JSON
 * document: the status, and *doc (NULL when it wrote none). */
static int run_json(const struct pair *p, bool at_peer, char *const *argv, unsigned int timeout_ms,
		    json_object **doc, char *errline, size_t elen, char *err, size_t errlen)
{
	const char *av[PAIR_ARGS_MAX + 16], *netns = NULL;
	char *out = malloc(PAIR_OUT_MAX), words[2048];
	bool truncated;
	int rc;

	*doc = NULL;
	if (!out)
		return errmsg(-ENOMEM, err, errlen, "out of memory");
	if (at_peer && (rc = peer_argv(p, true, argv, av, &netns, words, sizeof(words), err, errlen))) {
		free(out);
		return rc;
	}
	rc = command_capture(at_peer ? (char *const *)av : argv, netns, out, PAIR_OUT_MAX, &truncated, errline, elen,
			     timeout_ms, p->stop, err, errlen);
	if (rc >= 0 && !truncated && out[0])
		*doc = json_tokener_parse(out);
	free(out);
	return rc;
}

static double num(json_object *o, const char *path)
{
	char key[64];
	const char *p = path;

	while (o && *p) {
		size_t n = strcspn(p, ".");

		snprintf(key, sizeof(key), "%.*s", (int)n, p);
		if (!json_object_object_get_ex(o, key, &o))
			return NAN;
		p += n + (p[n] == '.');
	}
	if (!o || !(json_object_is_type(o, json_type_double) || json_object_is_type(o, json_type_int)))
		return NAN;
	return json_object_get_double(o);
}

static struct testpoint *point(struct testpoint_set *s, enum testpoint_status st, const char *test, const char *fig,
			       double v, const char *unit, int *rc)
{
	struct testpoint *t = testpoint_add(s, st, "wirerate.pair.%s%s%s", test, fig ? "." : "", fig ? fig : "");

	if (!t) {
		*rc = -ENOMEM;
		return NULL;
	}
	t->have_value = isfinite(v);
	t->value = v;
	snprintf(t->unit, sizeof(t->unit), "%s", unit ? unit : "");
	return t;
}

/* A test that could not complete: one ERROR point with the reason. */
static int broken(struct testpoint_set *s, const char *test, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int broken(struct testpoint_set *s, const char *test, const char *fmt, ...)
{
	int rc = 0;
	struct testpoint *t = point(s, TESTPOINT_ERROR, test, NULL, NAN, NULL, &rc);
	va_list ap;

	if (t) {
		va_start(ap, fmt);
		vsnprintf(t->line, sizeof(t->line), fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* send and receive: a paced stream between this host and the peer. */
static int stream_test(const struct pair *p, bool send, struct testpoint_set *s, char *err, size_t errlen)
{
	const struct app_pair_opts *op = p->op;
	const char *test = send ? "send" : "receive";
	char dur[32], rate[32], msg[16], errline[512], e[512];
	const char *argv[PAIR_ARGS_MAX];
	unsigned int n = 0;
	json_object *doc;
	int rc, st = 0;

	snprintf(dur, sizeof(dur), "%llums", (unsigned long long)(op->duration_ns / NSEC_PER_MSEC));
	snprintf(rate, sizeof(rate), "%llupps", (unsigned long long)op->rate_pps);
	snprintf(msg, sizeof(msg), "%u", op->message_size);
	argv[n++] = "/proc/self/exe";
	argv[n++] = "stream";
	argv[n++] = send ? "--receiver" : "--sender";
	argv[n++] = "dut";
	argv[n++] = "--dut";
	argv[n++] = p->dut;
	for (unsigned int k = 0; k < op->nssh; k++) {
		argv[n++] = "--ssh-option";
		argv[n++] = op->ssh_opts[k];
	}
	if (op->remote_wirerate) {
		argv[n++] = "--dut-agent";
		argv[n++] = op->remote_wirerate;
	}
	argv[n++] = "-H";
	argv[n++] = send ? p->remote : p->local;
	argv[n++] = "-l";
	argv[n++] = dur;
	argv[n++] = "--rate";
	argv[n++] = rate;
	argv[n++] = "-m";
	argv[n++] = msg;
	argv[n++] = send ? "-c" : "-C";
	if (op->soak)
		argv[n++] = "--soak-here";
	argv[n++] = "--no-store";
	argv[n++] = "--json";
	if (op->allow_any_address)
		argv[n++] = "--allow-any-address";
	argv[n] = NULL;
	say(p, "%s: %s %llu UDP datagrams/s of %u bytes for %.3g s %s %s", test, send ? "this host sends" :
	    "the peer sends", (unsigned long long)op->rate_pps, op->message_size, (double)op->duration_ns / 1e9,
	    send ? "to" : "from", send ? p->remote : p->t->remote_args);
	rc = run_json(p, false, (char *const *)argv,
		      (unsigned int)(op->duration_ns / NSEC_PER_MSEC) + PAIR_STREAM_SLACK_MS, &doc, errline,
		      sizeof(errline), e, sizeof(e));
	if (rc == -EINTR)
		return errmsg(rc, err, errlen, "stopped");
	if (rc < 0)
		return broken(s, test, "%s", e);
	if (rc != 0 || !doc) {
		json_object_put(doc);
		return broken(s, test, "the stream ended with status %d: %s", rc, errline[0] ? errline : "no output");
	}
	{
		const char *end = send ? "send" : "receive";
		char key[64];
		double recv = num(doc, "receive.throughput_mbps"), lost = num(doc, "lost"),
		       lost_pct = num(doc, "lost_pct"), sent = num(doc, "send.okay");
		double busy, cpus, el, count;
		struct testpoint *t;

		snprintf(key, sizeof(key), "%s.cpu.busy_pct", end);
		busy = num(doc, key);
		snprintf(key, sizeof(key), "%s.cpu.cpus", end);
		cpus = num(doc, key);
		snprintf(key, sizeof(key), "%s.elapsed_s", end);
		el = num(doc, key);
		count = send ? sent : num(doc, "receive.messages");
		if ((t = point(s, TESTPOINT_DONE, test, "received", recv, "Mbit/s", &st)))
			snprintf(t->line, sizeof(t->line), "payload received at the %s, of %.0f datagrams sent",
				 send ? "peer" : "host under test", sent);
		if (t && (t = point(s, !(lost_pct <= op->max_loss_pct) ? TESTPOINT_FAIL : TESTPOINT_PASS, test, "loss",
				   lost_pct, "%", &st)))
			snprintf(t->line, sizeof(t->line), "lost %.0f of %.0f datagrams (at most %.4g%% allowed)", lost,
				 sent, op->max_loss_pct);
		snprintf(key, sizeof(key), "%s.cpu.service_demand_us_per_kb", end);
		/* /proc/stat's figures, unless soaked: the soak's busy loop then
		 * fills every CPU /proc/stat reads */
		if (t && !op->soak && (t = point(s, TESTPOINT_DONE, test, "cpu_per_kb", num(doc, key), "us/KB", &st)))
			snprintf(t->line, sizeof(t->line),
				 "this host's CPU time per KB %s: all %.0f CPUs busy %.2f%% (/proc/stat)",
				 send ? "sent" : "received", cpus, busy);
		if (t && !op->soak && (t = point(s, TESTPOINT_DONE, test, "cpu_per_datagram",
						 count > 0 ? busy / 100 * cpus * el * 1e9 / count : NAN, "ns", &st)))
			snprintf(t->line, sizeof(t->line), "this host's CPU time per datagram %s (/proc/stat)",
				 send ? "sent" : "received");
		if (t && op->soak) {
			json_object *here, *tr;
			double ns = NAN, us_kb = num(doc, "here_service_demand_us_per_kb");
			bool trusted = true;
			const char *why = NULL;

			if (json_object_object_get_ex(doc, "here_cpu", &here) && here) {
				ns = num(here, "ns_per_frame");
				if (json_object_object_get_ex(here, "soak_trusted", &tr) && tr && !json_object_get_boolean(tr)) {
					json_object *r;

					trusted = false;
					if (json_object_object_get_ex(here, "soak_untrusted_reason", &r) && r)
						why = json_object_get_string(r);
				}
			}
			if ((t = point(s, !isfinite(ns) ? TESTPOINT_ERROR : trusted ? TESTPOINT_DONE : TESTPOINT_UNSURE, test,
				       "cpu_per_datagram", ns, "ns", &st)))
				snprintf(t->line, sizeof(t->line), "this host's CPU time per datagram %s, from the soak%s%.200s",
					 send ? "sent" : "received", trusted ? "" : ": untrusted: ", trusted ? "" : why ? why : "");
			if (t && (t = point(s, !isfinite(us_kb) ? TESTPOINT_ERROR : trusted ? TESTPOINT_DONE :
					   TESTPOINT_UNSURE, test, "cpu_per_kb", us_kb, "us/KB", &st)))
				snprintf(t->line, sizeof(t->line), "this host's CPU time per KB %s, from the soak%s",
					 send ? "sent" : "received", trusted ? "" : " (untrusted, as above)");
		}
	}
	json_object_put(doc);
	return st;
}

/* The peer's interface holding its address, from ip -j addr show
 * there. */
static int peer_ifname(const struct pair *p, char *ifname, size_t len, char *err, size_t errlen)
{
	const char *argv[] = { "ip", "-j", "addr", "show", NULL };
	const char *av[PAIR_ARGS_MAX + 16], *netns;
	char *out = malloc(PAIR_OUT_MAX), words[256], errline[256], e[512];
	json_object *doc = NULL;
	bool truncated;
	int rc;

	if (!out)
		return errmsg(-ENOMEM, err, errlen, "out of memory");
	ifname[0] = '\0';
	if (!(rc = peer_argv(p, false, (char *const *)argv, av, &netns, words, sizeof(words), e, sizeof(e))))
		rc = command_capture((char *const *)av, netns, out, PAIR_OUT_MAX, &truncated, errline, sizeof(errline),
				     30000, p->stop, e, sizeof(e));
	if (rc == 0 && !truncated)
		doc = json_tokener_parse(out);
	free(out);
	if (rc == -EINTR)
		return errmsg(rc, err, errlen, "stopped");
	if (rc || !json_object_is_type(doc, json_type_array)) {
		json_object_put(doc);
		return errmsg(-EIO, err, errlen, "reading the peer's addresses (ip -j addr show at %s): %s",
			      p->t->remote_args, rc < 0 ? e : errline[0] ? errline : "no answer");
	}
	for (size_t i = 0; i < json_object_array_length(doc) && !ifname[0]; i++) {
		json_object *l = json_object_array_get_idx(doc, i), *name, *ai;

		if (!json_object_object_get_ex(l, "ifname", &name) || !json_object_object_get_ex(l, "addr_info", &ai) ||
		    !json_object_is_type(ai, json_type_array))
			continue;
		for (size_t k = 0; k < json_object_array_length(ai); k++) {
			json_object *loc;

			if (json_object_object_get_ex(json_object_array_get_idx(ai, k), "local", &loc) &&
			    json_object_is_type(loc, json_type_string) && !strcmp(json_object_get_string(loc), p->remote)) {
				snprintf(ifname, len, "%s", json_object_get_string(name));
				break;
			}
		}
	}
	json_object_put(doc);
	if (!ifname[0])
		return errmsg(-EINVAL, err, errlen, "%s %s is not an address of the peer (%s %s)",
			      p->v6 ? "REMOTE_V6" : "REMOTE_V4", p->remote, topology_remote_name(p->t->remote_type),
			      p->t->remote_args);
	if (!word_safe(ifname) || strlen(ifname) >= TOPOLOGY_IFNAMSIZ)
		return errmsg(-EINVAL, err, errlen, "the peer's interface name is not one wirerate takes");
	return 0;
}

/* forward and reflect: the peer's rfc2544 search through this host on
 * one port, the frames routed back by the kernel (forward) or sent back
 * by the XDP reflector on NETIF (reflect). */
static int forward_test(const struct pair *p, const char *rif, bool reflect, struct testpoint_set *s, char *err,
			size_t errlen)
{
	const struct app_pair_opts *op = p->op;
	const char *test = reflect ? "reflect" : "forward";
	const char *sysctl = p->v6 ? "/proc/sys/net/ipv6/conf/all/forwarding" : "/proc/sys/net/ipv4/ip_forward";
	const char *sysname = p->v6 ? "net.ipv6.conf.all.forwarding" : "net.ipv4.ip_forward";
	char on[8] = "", size[16], trial[32], errline[512], e[512];
	const char *argv[PAIR_ARGS_MAX];
	struct reflect *rf = NULL;
	unsigned int n = 0;
	json_object *doc, *rows, *row, *ndr;
	struct testpoint *t;
	int rc, st = 0;

	if (!reflect && (fs_read(NULL, sysctl, on, sizeof(on)) < 0 || on[0] != '1')) {
		if (!(t = point(s, TESTPOINT_SKIP, test, NULL, NAN, NULL, &st)))
			return st;
		snprintf(t->line, sizeof(t->line),
			 "forwarding is off on this host (%s = %c): the test routes frames back out of %s; "
			 "turn it on (sysctl -w %s=1) to run it",
			 sysname, on[0] ? on[0] : '?', p->t->netif, sysname);
		say(p, "%s: skipped: %s", test, t->line);
		return 0;
	}
	if (reflect && (rc = reflect_attach(p->t->netif, PAIR_TEST_PORT, &rf, e, sizeof(e)))) {
		/* a port that cannot take the program (one of its own there): a skip, said why */
		if (rc == -EOPNOTSUPP || rc == -EINVAL || rc == -EBUSY || rc == -EPERM) {
			if (!(t = point(s, TESTPOINT_SKIP, test, NULL, NAN, NULL, &st)))
				return st;
			snprintf(t->line, sizeof(t->line), "%s cannot take the XDP reflector: %.256s", p->t->netif, e);
			say(p, "%s: skipped: %s", test, t->line);
			return 0;
		}
		return broken(s, test, "%s", e);
	}
	snprintf(size, sizeof(size), "%u", op->frame_size);
	snprintf(trial, sizeof(trial), "%llums", (unsigned long long)(op->trial_ns / NSEC_PER_MSEC));
	argv[n++] = "wirerate";
	argv[n++] = "rfc2544";
	argv[n++] = "throughput";
	argv[n++] = "--quick";
	argv[n++] = "--trial-time";
	argv[n++] = trial;
	argv[n++] = "--sizes";
	argv[n++] = size;
	argv[n++] = "--tx";
	argv[n++] = rif;
	argv[n++] = "--rx";
	argv[n++] = rif;
	argv[n++] = "--next-hop";
	argv[n++] = p->local;
	argv[n++] = "--src-ip";
	argv[n++] = p->remote;
	argv[n++] = "--dst-ip";
	argv[n++] = p->remote;
	if (p->v6)
		argv[n++] = "--ipv6";
	if (op->max_load) {
		argv[n++] = "--max-load";
		argv[n++] = op->max_load;
	}
	if (op->allow_any_address)
		argv[n++] = "--allow-any-address";
	argv[n++] = "--no-store";
	argv[n++] = "--json";
	argv[n] = NULL;
	say(p, "%s: the peer offers %s-byte frames on %s to %s's %s, %s (rfc2544 throughput)", test, size, rif,
	    "this host", p->t->netif, reflect ? "sent back by the XDP reflector there" : "routed back out of it");
	rc = run_json(p, true, (char *const *)argv, PAIR_SEARCH_MS, &doc, errline, sizeof(errline), e, sizeof(e));
	{
		uint64_t back, passed;

		reflect_counts(rf, &back, &passed);
		reflect_detach(rf);
		if (reflect)
			say(p, "%s: the reflector sent back %llu frames and left %llu to the stack", test,
			    (unsigned long long)back, (unsigned long long)passed);
	}
	if (rc == -EINTR)
		return errmsg(rc, err, errlen, "stopped");
	if (rc < 0)
		return broken(s, test, "%s", e);
	if (rc != 0 || !doc) {
		json_object_put(doc);
		return broken(s, test, "the search at the peer ended with status %d: %s", rc,
			      errline[0] ? errline : "no output");
	}
	if (!json_object_object_get_ex(doc, "rows", &rows) || !json_object_is_type(rows, json_type_array) ||
	    !(row = json_object_array_get_idx(rows, 0)) || !json_object_object_get_ex(row, "ndr", &ndr)) {
		json_object_put(doc);
		return broken(s, test, "the search at the peer gave no NDR");
	}
	{
		json_object *al, *cap;
		bool at_least = json_object_object_get_ex(ndr, "at_least", &al) && json_object_get_boolean(al);
		bool capped = json_object_object_get_ex(ndr, "tester_capped", &cap) && json_object_get_boolean(cap);
		double pps = num(ndr, "pps");

		if ((t = point(s, isfinite(pps) ? TESTPOINT_DONE : TESTPOINT_ERROR, test, "ndr", pps, "frames/s", &st))) {
			snprintf(t->line, sizeof(t->line), "%u-byte frames in on %s and %s%s", op->frame_size, p->t->netif,
				 reflect ? "sent back by the XDP reflector" : "routed back out of it",
				 !at_least ? "" : capped ?
				 ", at least: the peer's generator fell short before this host lost a frame" :
				 ", at least: nothing lost up to the highest load offered (--max-load)");
			/* the frame size in the path, as the figures of a search */
			snprintf(t->path + strlen(t->path), sizeof(t->path) - strlen(t->path), ".%u", op->frame_size);
		}
	}
	json_object_put(doc);
	return st;
}

static void env_of(const struct pair *p, struct testpoint_env *e)
{
	const struct app_pair_opts *op = p->op;
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;

	memset(e, 0, sizeof(*e));
	db_uuid(e->run_uuid);
	if (gmtime_r(&now, &tm))
		strftime(e->start_time, sizeof(e->start_time), "%Y-%m-%dT%H:%M:%S+00:00", &tm);
	snprintf(e->test, sizeof(e->test), "pair");
	if (!uname(&u)) {
		snprintf(e->kernel, sizeof(e->kernel), "%.63s", u.release);
		snprintf(e->arch, sizeof(e->arch), "%.23s", u.machine);
	}
	snprintf(e->config, sizeof(e->config), "rate=%llupps message=%u duration=%llums frame=%u family=ipv%c",
		 (unsigned long long)op->rate_pps, op->message_size,
		 (unsigned long long)(op->duration_ns / NSEC_PER_MSEC), op->frame_size, p->v6 ? '6' : '4');
	topology_describe(p->t, e->target, sizeof(e->target));
	snprintf(e->version, sizeof(e->version), "%s", WR_VERSION);
}

int app_pair_run(const struct app_pair_opts *op, const struct topology *t, const struct app_cli_hooks *cli,
		 const struct app_pair_hooks *h, void *ctx, struct testpoint_set *s, char *err, size_t errlen)
{
	struct pair p = { .op = op, .t = t, .cli = cli, .h = h, .ctx = ctx };
	char rif[TOPOLOGY_IFNAMSIZ] = "";
	int rc = 0;

	p.v6 = op->ipv6 || !t->local_v4[0];
	p.local = p.v6 ? t->local_v6 : t->local_v4;
	p.remote = p.v6 ? t->remote_v6 : t->remote_v4;
	if (t->remote_type == TOPOLOGY_NETNS)
		snprintf(p.dut, sizeof(p.dut), "netns:%s", t->remote_args);
	else
		snprintf(p.dut, sizeof(p.dut), "ssh:%s", t->remote_args);
	env_of(&p, &s->env);
	if (cli && cli->stop)
		p.stop = cli->stop(cli->ctx, true);
	/* the peer holds its address: the pair is what net.config says */
	rc = peer_ifname(&p, rif, sizeof(rif), err, errlen);
	if (!rc && (op->tests & APP_PAIR_SEND))
		rc = stream_test(&p, true, s, err, errlen);
	if (!rc && (op->tests & APP_PAIR_RECEIVE))
		rc = stream_test(&p, false, s, err, errlen);
	if (!rc && (op->tests & APP_PAIR_FORWARD))
		rc = forward_test(&p, rif, false, s, err, errlen);
	if (!rc && (op->tests & APP_PAIR_REFLECT))
		rc = forward_test(&p, rif, true, s, err, errlen);
	if (cli && cli->stop)
		cli->stop(cli->ctx, false);
	if (rc)
		return rc;
	if (h->kcidb && op->kcidb.path && (rc = h->kcidb(ctx, &op->kcidb, s, err, errlen)))
		return rc;
	if ((rc = h->print(ctx, op, s)))
		snprintf(err, errlen, "writing the results: %s", strerror(-rc));
	return rc;
}

int app_pair_run_status(const struct testpoint_set *s)
{
	struct testpoint_counts c = testpoint_count(s);

	if (c.fail || c.error)
		return 1;
	if (c.skip == s->n)
		return 4;
	return 0;
}
