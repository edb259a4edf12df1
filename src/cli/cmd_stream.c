/* wirerate stream: netperf's UDP_STREAM (engine/stream.h has the
 * protocol and both ends). A server (netserver's part) counts the datagrams
 * a client sends it as fast as it can; the client prints netperf's block
 * with both ends' figures, and the loss between them. Lab mode runs both
 * ends itself, the server in the lab's sink namespace and the client in
 * its gen namespace, through the DUT. This file parses, prints and picks
 * the exit status. */
#include <errno.h>
#include <math.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "cli/cli.h"
#include "core/cpustat.h"
#include "cli/dutopt.h"
#include "cli/opt.h"
#include "cli/storeargs.h"
#include "core/timeconst.h"
#include "core/addrpolicy.h"
#include "core/cpuset.h"
#include "core/pace.h"
#include "core/units.h"
#include "dut/dut.h"
#include "dut/envcap.h"
#include "dut/profile.h"
#include "dut/soak.h"
#include "app/streamrun.h"
#include "engine/cpucost.h"
#include "engine/stream.h"
#include "engine/stream_proto.h"
#include "render/cpuprint.h"
#include "render/streamprint.h"
#include "render/out.h"
#include "lab/lab.h"
#include "os/netns.h"
#include "os/procstat.h"

enum stream_mode { MODE_LAB, MODE_SERVER, MODE_CLIENT };

struct stream_opts {
	enum stream_mode mode;
	bool server, once, have_port, have_size, have_duration, have_prefix;
	bool allow_any;			/* --allow-any-address */
	const char *host;
	uint16_t port;
	uint64_t size, duration_ns;
	struct rate rate;		/* --rate: each sender's (kind RATE_PPS, value 0: none) */
	bool have_rate;
	unsigned int max_sessions;	/* 0: not given */
	unsigned int max_per_peer;	/* 0: not given */
	uint64_t max_duration_ns;	/* 0: not given */
	const char *bind, *token_file, *user;
	char prefix[LAB_PREFIX_MAX + 1];
	/* The DUT the datagrams cross: its CPU time per datagram. */
	struct dut_target dut;		/* --dut; lab mode: the lab's */
	struct cpuset watch;		/* --watch-cpus */
	bool soak;
	const char *soak_path;		/* --soak-calibration (lab, local) */
	bool profile;			/* --profile: where the DUT's CPU time goes */
	unsigned int profile_hz, profile_top;
	/* -I LEVEL[,WIDTH] and -i MAX[,MIN]: repeat until the mean's
	 * interval is narrow enough (netperf's confidence iterations) */
	unsigned int conf_level;	/* 95 or 99; 0: one run */
	double conf_width;		/* the interval's whole width, % of the mean */
	unsigned int iter_max, iter_min;	/* 0: not given */
	/* netperf's -c, -C and -T */
	bool local_cpu, remote_cpu;	/* show the CPU columns of that end */
	int cpu, server_cpu;		/* pin the sender, the server's session (-1: no) */
	bool have_bind_cpu;
	/* several senders at once: --threads N, --cpus LIST (one per CPU) */
	unsigned int threads;		/* 0: not given */
	struct cpuset cpus;
	unsigned int nsend;		/* senders (1 without either) */
	int send_cpu[STREAMRUN_MAX];	/* each one's CPU, -1: not pinned */
	/* the store (--db, --label, --tag, --no-store): each run a trial */
	struct storeopt store;
	bool store_warned;
};

#define STREAM_CONF_WIDTH 10.0		/* % of the mean, netperf's default */
#define STREAM_ITER_DEFAULT_MAX 10
#define STREAM_ITER_DEFAULT_MIN 3

enum { SET_BIND, SET_TOKEN_FILE, SET_USER, SET_CLIENT };

/* A string that may not be empty: what it should have been, per option. */
static int set_word(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	static const char *const what[] = {
		[SET_BIND] = "an IPv4 or IPv6 address", [SET_TOKEN_FILE] = "a file name",
		[SET_USER] = "a user name", [SET_CLIENT] = "a host name or address",
	};

	if (!*v) {
		snprintf(err, errlen, "expected %s", what[opt->id]);
		return -EINVAL;
	}
	return opt_set_str(ctx, opt, v, err, errlen);
}

static int set_port(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct stream_opts *op = ctx;
	uint64_t port;
	int rc;

	if ((rc = u64_parse(v, opt->min, opt->max, &port, err, errlen)))
		return rc;
	op->port = (uint16_t)port;
	op->have_port = true;
	return 0;
}

static int set_size(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct stream_opts *op = ctx;
	int rc = size_parse(v, 1, STREAM_MSG_MAX, &op->size, err, errlen);

	op->have_size |= !rc;
	return rc;
}

static int set_rate(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct stream_opts *op = ctx;
	int rc = rate_parse(v, &op->rate, err, errlen);

	if (!rc && op->rate.kind == RATE_PCT) {
		snprintf(err, errlen, "--rate %s: give datagrams/s (20kpps) or bits/s of payload (100Mbit); "
			 "a stream has no line rate", v);
		rc = -EINVAL;
	}
	op->have_rate |= !rc;
	return rc;
}

static int set_duration(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	int rc = opt_set_ns(ctx, opt, v, err, errlen);

	((struct stream_opts *)ctx)->have_duration |= !rc;
	return rc;
}

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

static int set_confidence(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct stream_opts *op = ctx;
	double level, width = STREAM_CONF_WIDTH;
	bool have_width;

	(void)opt;
	if (two_numbers(v, &level, &width, &have_width) || (level != 95 && level != 99) ||
	    (have_width && (width < 0.1 || width > 50))) {
		snprintf(err, errlen, "'%s': give LEVEL[,WIDTH]: a confidence level of 95 or 99 (%%) and the "
			 "interval's width, 0.1..50 %% of the mean (default 10)", v);
		return -EINVAL;
	}
	op->conf_level = (unsigned int)level;
	op->conf_width = have_width ? width : STREAM_CONF_WIDTH;
	return 0;
}

static int set_iterations(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct stream_opts *op = ctx;
	double max, min = STREAM_ITER_DEFAULT_MIN;
	bool have_min;

	(void)opt;
	if (two_numbers(v, &max, &min, &have_min) || max != floor(max) || min != floor(min) || max < 1 ||
	    max > STREAM_ITER_MAX || (have_min && (min < 1 || min > max))) {
		snprintf(err, errlen, "'%s': give MAX[,MIN]: at most MAX runs (1..%d) and at least MIN (1..MAX, "
			 "default 3)", v, STREAM_ITER_MAX);
		return -EINVAL;
	}
	op->iter_max = (unsigned int)max;
	op->iter_min = have_min ? (unsigned int)min : max < STREAM_ITER_DEFAULT_MIN ? (unsigned int)max :
			STREAM_ITER_DEFAULT_MIN;
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

/* -T LOCAL[,REMOTE] as netperf's: "N" both ends on CPU N, "N," the
 * sender only, ",N" the server only. */
static int set_bind_cpu(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct stream_opts *op = ctx;
	const char *comma = strchr(v, ',');
	int rc;

	(void)opt;
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

static int set_prefix(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct stream_opts *op = ctx;
	int rc;

	if ((rc = lab_prefix_check(v, err, errlen)))
		return rc;
	snprintf(op->prefix, sizeof(op->prefix), "%s", v);
	op->have_prefix = true;
	return 0;
}

#define SO(field) OPT_FIELD(struct stream_opts, field)

static const struct opt stream_opts[] = {
	{ "server", 0, OPT_NOARG, NULL, "server", NULL,
	  "serve sessions until Ctrl-C (exit 0), each in a process\nof its own, several at once",
	  opt_set_true, SO(server) },
	{ "max-sessions", 0, OPT_VALUE, "N", NULL, NULL,
	  "with --server: serve at most N sessions at once (1..256,\n"
	  "default 16); a client beyond them is refused as busy",
	  opt_set_uint, SO(max_sessions), 1, STREAM_SESSIONS_MAX },
	{ "once", 0, OPT_NOARG, NULL, NULL, NULL,
	  "with --server: end after one session (exit 1 if it failed;\n"
	  "a client turned away before its session does not count)",
	  opt_set_true, SO(once) },
	{ "bind", 0, OPT_VALUE, "ADDR", NULL, NULL,
	  "with --server: listen on this IPv4 or IPv6 address only\n(default: every address)",
	  set_word, SO(bind), 0, 0, SET_BIND },
	{ "max-per-peer", 0, OPT_VALUE, "N", NULL, NULL,
	  "with --server: at most N sessions at once from one\n"
	  "address, and N connections awaiting their request\n(1..256, default 2)",
	  opt_set_uint, SO(max_per_peer), 1, STREAM_SESSIONS_MAX },
	{ "max-duration", 0, OPT_VALUE, "T", NULL, NULL,
	  "with --server: the longest run a client may ask for\n"
	  "(100ms..24h, default 60s); a session is cut 5 s past\nits run without the client's end",
	  opt_set_ns, SO(max_duration_ns), 100 * NSEC_PER_MSEC, STREAM_DUR_MAX },
	{ "user", 0, OPT_VALUE, "NAME", NULL, NULL,
	  "with --server started as root: the user to run as once\nlistening (default nobody)",
	  set_word, SO(user), 0, 0, SET_USER },
	{ "client", 'H', OPT_VALUE, "HOST", "client", NULL,
	  "run against the server on HOST (name or address):\n"
	  "198.18.0.0/15, 2001:2::/48 or loopback, unless --allow-any-address",
	  set_word, SO(host), 0, 0, SET_CLIENT },
	{ "allow-any-address", 0, OPT_NOARG, NULL, NULL, NULL, "lets the client send to any address",
	  opt_set_true, SO(allow_any) },
	{ "message-size", 'm', OPT_VALUE, "SIZE", NULL, "1025",
	  "datagram payload, 1..65507 bytes; IEC units (1k = 1024)", set_size },
	{ "rate", 0, OPT_VALUE, "RATE", NULL, NULL,
	  "each sender at most RATE, paced evenly: datagrams/s (20kpps)\n"
	  "or payload bits/s (100Mbit), as iperf3's -b; default: as\n"
	  "fast as it can, netperf's way", set_rate },
	{ "duration", 'l', OPT_VALUE, "T", NULL, "10s",
	  "how long to send (100ms..24h; plain number = seconds)",
	  set_duration, SO(duration_ns), 100 * NSEC_PER_MSEC, STREAM_DUR_MAX },
	{ "port", 'p', OPT_VALUE, "N", "both ends", "12866, netperf's",
	  "the server's control port (TCP); the data port (UDP)\nis one the server picks per session",
	  set_port, 0, 1, 65535 },
	{ "token-file", 0, OPT_VALUE, "FILE", NULL, NULL,
	  "a shared token (one line, 1..128 printable characters,\n"
	  "the file not open to others): the server serves only\n"
	  "clients that send it; the client sends it",
	  set_word, SO(token_file), 0, 0, SET_TOKEN_FILE },
	{ "prefix", 0, OPT_VALUE, "P", "lab mode", "wr-",
	  "neither --server nor --client: both ends run\n"
	  "here, the server in the lab's sink namespace, the client\n"
	  "in its gen namespace, to 198.19.0.2 through the DUT\n"
	  "(needs root and a lab that is up)", set_prefix },
	DUTOPT_ENTRIES(SO(dut), "the DUT's CPU cost (lab mode or --client)", "lab mode: the lab",
		       "the DUT the datagrams cross, whose CPU time per\ndatagram is read"),
	{ "watch-cpus", 0, OPT_VALUE, "LIST", NULL, NULL,
	  "the DUT's CPUs to read (default: the lab's DUT CPUs, or\nevery CPU of a DUT of its own)",
	  opt_set_cpuset, SO(watch) },
	{ "soak", 0, OPT_NOARG, NULL, NULL, NULL,
	  "also soak them (needs 'wirerate soak --calibrate' on the\nDUT): sees the interrupt time /proc/stat hides",
	  opt_set_true, SO(soak) },
	{ "local-cpu", 'c', OPT_NOARG, NULL, "CPU of the two ends", NULL,
	  "show the sender's CPU use and service demand (netperf's\n-c): its CPU's, with -T, else its host's",
	  opt_set_true, SO(local_cpu) },
	{ "remote-cpu", 'C', OPT_NOARG, NULL, NULL, NULL,
	  "show the receiver's (netperf's -C), as the server measured\nthem", opt_set_true, SO(remote_cpu) },
	{ "cpu-bind", 'T', OPT_VALUE, "LOCAL[,REMOTE]", NULL, NULL,
	  "the CPU the sender runs on, and the one the server's\n"
	  "session runs on (netperf's -T: N both, N, the sender only,\n,N the server only)",
	  set_bind_cpu },
	{ "threads", 0, OPT_VALUE, "N", "several senders", "1",
	  "N senders at once (1..64), each a thread, a socket (its\n"
	  "own source port) and a session of its own; per-sender and\ntotal figures",
	  opt_set_uint, SO(threads), 1, STREAMRUN_MAX },
	{ "cpus", 0, OPT_VALUE, "LIST", NULL, NULL,
	  "one sender pinned to each CPU of LIST (with --threads N,\nN CPUs); not with -T's sender CPU",
	  opt_set_cpuset, SO(cpus) },
	PROFILEOPT_ENTRIES(SO(profile), SO(profile_hz), SO(profile_top), "also sample where the DUT's time goes"),
	{ "confidence", 'I', OPT_VALUE, "LEVEL[,WIDTH]", "confidence", NULL,
	  "repeat the run until the mean received throughput is\n"
	  "known to WIDTH % (its interval's whole width, default 10)\n"
	  "at LEVEL % confidence (95 or 99), as netperf's -I",
	  set_confidence },
	{ "iterations", 'i', OPT_VALUE, "MAX[,MIN]", NULL, "10,3",
	  "with -I: at most MAX runs (1..30), at least MIN", set_iterations },
	{ "soak-calibration", 0, OPT_VALUE, "FILE", NULL, "~/.local/state/wirerate/soak-calibration",
	  "the soak's calibration (the lab and --dut local; a DUT over\nssh keeps its own)", set_word,
	  SO(soak_path), 0, 0, SET_TOKEN_FILE },
	{ NULL },
};

static const struct opt *const stream_tables[] = { stream_opts, storeopt_opts, NULL };

const struct opt_cmd stream_cmd = {
	.name = "stream",
	.synopsis = "--server [--bind ADDR] [--port N] [--once | --max-sessions N]\n"
		    "                              [--max-per-peer N] [--max-duration T] [--token-file FILE]\n"
		    "                              [--user NAME] [--json]\n"
		    "       wirerate stream --client|-H HOST [-m SIZE] [-l T] [--rate RATE] [-c] [-C] [-T L,R]\n"
		    "                              [--threads N] [--cpus LIST] [--port N] [--token-file FILE]\n"
		    "                              [--allow-any-address] [--json]\n"
		    "       wirerate stream [--prefix P] [-m SIZE] [-l T] [--rate RATE] [-c] [-C] [-T L,R]\n"
		    "                              [--threads N] [--cpus LIST] [--soak] [--profile] [--json]",
	.about = "netperf's UDP_STREAM: the client sends UDP datagrams of one size as fast as\n"
		 "it can, or paced at --rate, for a time; the server counts what arrives. The\n"
		 "client prints netperf's block (socket size, message size, elapsed time,\n"
		 "messages okay and errors, throughput in 10^6 bits/s; the sender's line, then\n"
		 "the receiver's) and the loss between them; with -c/-C, each end's CPU and\n"
		 "service demand, and with --threads/--cpus, several senders at once and\n"
		 "their total.\n"
		 "Through a DUT (the lab's, or --dut), also what the stream cost the DUT's\n"
		 "CPUs: per CPU, per datagram received, and as netperf's service demand (us\n"
		 "of CPU per KB).\n",
	.notes = "A send refused with ENOBUFS, EAGAIN or ECONNREFUSED counts as an error, as\n"
		 "netperf's do. Ctrl-C on the client stops sending, still collects the\n"
		 "server's counts, prints the block marked interrupted and exits 130.\n"
		 "A client must send its request within 2 s of connecting. docs/stream.md has\n"
		 "the server's security model.\n"
		 "Exit: 0 done, 1 the server or the lab failed it, 2 bad input, 130 Ctrl-C.\n",
	.tables = stream_tables,
};

/* --rate in datagrams/s: bits/s count the payload, as the throughput does. */
static double stream_rate_pps(const struct stream_opts *op)
{
	if (!op->have_rate)
		return 0;
	return op->rate.kind == RATE_PPS ? op->rate.value : op->rate.value / ((double)op->size * 8);
}

/* --rate given: the client's, and sending something. */
static bool rate_ok(const struct stream_opts *op)
{
	double pps = stream_rate_pps(op);

	if (op->mode == MODE_SERVER)
		cli_error("stream: --rate is the client's (lab mode or --client)");
	else if (!(pps >= PACE_RATE_MIN && pps <= PACE_RATE_MAX))
		cli_error("stream: --rate: %g datagrams/s is outside %g..%g", pps, PACE_RATE_MIN, PACE_RATE_MAX);
	else if (pps * (double)op->duration_ns / NSEC_PER_SEC < 1)
		cli_error("stream: --rate %g datagrams/s for -l %g s sends no datagram", pps,
			  (double)op->duration_ns / NSEC_PER_SEC);
	else
		return true;
	return false;
}

static int parse_opts(struct stream_opts *op, struct cli *cli, int argc, char **argv)
{
	void *ctx[] = { op, &op->store };
	char *args[1];
	int nargs, rc;

	memset(op, 0, sizeof(*op));
	storeopt_init(&op->store);
	op->cpu = op->server_cpu = -1;
	op->port = STREAM_PORT;
	op->size = 1025;
	op->duration_ns = 10 * NSEC_PER_SEC;
	snprintf(op->prefix, sizeof(op->prefix), "%s", LAB_PREFIX_DEFAULT);
	if ((rc = opt_parse(&stream_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return rc == OPT_HELP ? -1 : EXIT_USAGE;
	if (op->server && op->host) {
		cli_error("stream: --server and --client exclude each other");
		return EXIT_USAGE;
	}
	op->mode = op->server ? MODE_SERVER : op->host ? MODE_CLIENT : MODE_LAB;
	if (op->once && op->mode != MODE_SERVER) {
		cli_error("stream: --once applies to --server only");
		return EXIT_USAGE;
	}
	if (op->max_sessions && (op->mode != MODE_SERVER || op->once)) {
		cli_error("stream: --max-sessions applies to --server without --once");
		return EXIT_USAGE;
	}
	if ((op->bind || op->max_per_peer || op->max_duration_ns || op->user) && op->mode != MODE_SERVER) {
		cli_error("stream: --bind, --max-per-peer, --max-duration and --user apply to --server only");
		return EXIT_USAGE;
	}
	if (op->allow_any && op->mode != MODE_CLIENT) {
		cli_error("stream: --allow-any-address applies to --client only");
		return EXIT_USAGE;
	}
	if (op->token_file && op->mode == MODE_LAB) {
		cli_error("stream: --token-file applies to --server and --client");
		return EXIT_USAGE;
	}
	if (op->have_prefix && op->mode != MODE_LAB) {
		cli_error("stream: --prefix is for lab mode (neither --server nor --client)");
		return EXIT_USAGE;
	}
	if (op->mode == MODE_SERVER && (op->dut.given || cpuset_count(&op->watch) || op->soak || op->soak_path)) {
		cli_error("stream: --dut, --watch-cpus, --soak and --soak-calibration are the client's "
			  "(lab mode or --client)");
		return EXIT_USAGE;
	}
	{
		char e[256];

		if (dutopt_check(&op->dut, e, sizeof(e))) {
			cli_error("stream: %s", e);
			return EXIT_USAGE;
		}
	}
	if (op->mode == MODE_SERVER && (op->profile || op->profile_hz || op->profile_top)) {
		cli_error("stream: --profile is the client's (lab mode or --client --dut)");
		return EXIT_USAGE;
	}
	if ((op->profile_hz || op->profile_top) && !op->profile) {
		cli_error("stream: --profile-hz and --profile-top go with --profile");
		return EXIT_USAGE;
	}
	if (op->mode == MODE_CLIENT && !op->dut.given && (cpuset_count(&op->watch) || op->soak || op->profile)) {
		cli_error("stream: --%s: name the DUT the stream crosses with --dut",
			  op->soak ? "soak" : op->profile ? "profile" : "watch-cpus");
		return EXIT_USAGE;
	}
	if (op->have_rate && !rate_ok(op))
		return EXIT_USAGE;
	if (op->iter_max && !op->conf_level) {
		cli_error("stream: -i (--iterations) goes with -I (--confidence)");
		return EXIT_USAGE;
	}
	if (op->conf_level && op->mode == MODE_SERVER) {
		cli_error("stream: -I is the client's (lab mode or --client)");
		return EXIT_USAGE;
	}
	if (op->conf_level && !op->iter_max) {
		op->iter_max = STREAM_ITER_DEFAULT_MAX;
		op->iter_min = STREAM_ITER_DEFAULT_MIN;
	}
	if (op->mode == MODE_SERVER && (op->local_cpu || op->remote_cpu || op->have_bind_cpu)) {
		cli_error("stream: -c, -C and -T are the client's (lab mode or --client): it tells the server");
		return EXIT_USAGE;
	}
	for (int end = 0; end < 2; end++) {
		int cpu = end ? op->server_cpu : op->cpu;
		struct cpuset online;

		/* the server's CPU is this host's in lab mode only */
		if (cpu < 0 || (end && op->mode != MODE_LAB))
			continue;
		char e[256];

		if (procstat_online(NULL, &online, e, sizeof(e)) == 0 && !cpuset_has(&online, (unsigned int)cpu)) {
			char list[256];

			cpuset_format_list(&online, list, sizeof(list));
			cli_error("stream: -T: CPU %d is not online here (online: %s)", cpu, list);
			return EXIT_USAGE;
		}
	}
	if (op->mode == MODE_SERVER && (op->store.path_set || op->store.label || op->store.ntags || op->store.no_store)) {
		cli_error("stream: --db, --label, --tag and --no-store are the client's (it stores the runs)");
		return EXIT_USAGE;
	}
	if (op->mode == MODE_SERVER && (op->threads || cpuset_count(&op->cpus))) {
		cli_error("stream: --threads and --cpus are the client's (lab mode or --client)");
		return EXIT_USAGE;
	}
	op->nsend = op->threads ? op->threads : 1;
	for (unsigned int i = 0; i < STREAMRUN_MAX; i++)
		op->send_cpu[i] = op->cpu;
	if (cpuset_count(&op->cpus)) {
		struct cpuset online;
		char e[256], list[256];
		unsigned int i = 0;

		if (op->cpu >= 0) {
			cli_error("stream: --cpus pins the senders: give -T ,REMOTE for the server's CPU only");
			return EXIT_USAGE;
		}
		if (cpuset_count(&op->cpus) > STREAMRUN_MAX) {
			cli_error("stream: --cpus: at most %d CPUs, one sender each", STREAMRUN_MAX);
			return EXIT_USAGE;
		}
		if (op->threads && op->threads != cpuset_count(&op->cpus)) {
			cli_error("stream: --threads %u and --cpus with %u CPU(s): one sender per CPU, so as many of each",
				  op->threads, cpuset_count(&op->cpus));
			return EXIT_USAGE;
		}
		if (procstat_online(NULL, &online, e, sizeof(e)) == 0) {
			for (int c = cpuset_next(&op->cpus, 0); c >= 0; c = cpuset_next(&op->cpus, (unsigned int)c + 1))
				if (!cpuset_has(&online, (unsigned int)c)) {
					cpuset_format_list(&online, list, sizeof(list));
					cli_error("stream: --cpus: CPU %d is not online here (online: %s)", c, list);
					return EXIT_USAGE;
				}
		}
		op->nsend = cpuset_count(&op->cpus);
		for (int c = cpuset_next(&op->cpus, 0); c >= 0; c = cpuset_next(&op->cpus, (unsigned int)c + 1))
			op->send_cpu[i++] = c;
	}
	if (op->nsend > 1 && op->mode == MODE_LAB && op->have_port) {
		cli_error("stream: --port with several senders in lab mode: each sender's server picks a port");
		return EXIT_USAGE;
	}
	if (op->mode == MODE_SERVER && (op->have_size || op->have_duration)) {
		cli_error("stream: --message-size and --duration are the client's (the server takes them from it)");
		return EXIT_USAGE;
	}
	return 0;
}
/* ---- the server ---- */

/* The token of --token-file into tok (bad input: exit 2); 0 without one. */
static int load_token(const struct stream_opts *op, char *tok, size_t len)
{
	char err[512];

	if (!op->token_file)
		return 0;
	if (stream_token_load(op->token_file, tok, len, err, sizeof(err))) {
		cli_error("stream: --token-file: %s", err);
		return EXIT_USAGE;
	}
	return 0;
}

static int do_server(struct stream_opts *op, struct cli *cli)
{
	struct stream_server s = { .lfd = -1, .nsfd = -1, .quit = cli_stop_flag(), .once = op->once,
				   .max_sessions = op->max_sessions, .max_per_peer = op->max_per_peer,
				   .max_duration_ns = op->max_duration_ns ? op->max_duration_ns
									   : STREAM_MAX_DURATION_DEFAULT,
				   .on_session = streamprint_session };
	struct sockaddr_storage ba;
	socklen_t bl = 0;
	const char *user = op->user ? op->user : "nobody";
	bool root = geteuid() == 0;
	struct out *o = NULL;
	char err[256], tok[STREAM_TOKEN_MAX + 1] = "";
	int rc;

	if ((rc = load_token(op, tok, sizeof(tok))))
		goto out;
	if (op->bind && stream_addr_parse(op->bind, op->port, &ba, &bl, err, sizeof(err))) {
		cli_error("stream: --bind: %s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	if (op->user && !root) {
		cli_error("stream: --user: only root can run as another user (running as uid %u)",
			  (unsigned int)geteuid());
		rc = EXIT_USAGE;
		goto out;
	}
	if ((s.lfd = stream_listen(op->bind ? &ba : NULL, bl, op->port, err, sizeof(err))) < 0) {
		cli_error("stream: %s", err);
		rc = s.lfd == -EADDRINUSE || s.lfd == -EACCES || s.lfd == -EADDRNOTAVAIL ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	/* Root was for the port alone (one below 1024): the sessions need
	 * none, so a client reaches only an unprivileged process. */
	if (root && (rc = stream_drop_root(user, err, sizeof(err)))) {
		cli_error("stream: --user: %s", err);
		rc = rc == -ENOENT && op->user ? EXIT_USAGE : EXIT_RUNTIME;
		goto out;
	}
	s.token = *tok ? tok : NULL;
	o = cli_out_create(cli, "stream");
	if (!o) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	s.arg = o;
	out_text(o, "wirerate stream server on ");
	if (op->bind)
		out_str(o, "bind", "%s ", op->bind);
	else
		out_null(o, "bind");
	out_u64(o, "port", "port %llu", op->port);
	out_f64(o, "max_duration_s", ", runs of up to %g s", (double)s.max_duration_ns / NSEC_PER_SEC);
	out_u64(o, "max_per_peer", ", %llu at once from one address", op->max_per_peer ? op->max_per_peer
										  : STREAM_PER_PEER_DEFAULT);
	out_bool(o, "token", NULL, s.token != NULL);
	out_text(o, "%s", s.token ? ", a token asked for" : "");
	if (root)
		out_str(o, "user", ", as user %s", user);
	else
		out_null(o, "user");
	out_text(o, "%s\n", op->once ? ", for one session" : " (Ctrl-C ends it)");
	fflush(stdout);
	out_arr_start(o, "sessions");
	rc = stream_serve(&s, err, sizeof(err));
	out_arr_end(o);
	out_bool(o, "interrupted", NULL, cli_stopped());
	/* with --once, the session's failure, already on its line */
	if (rc && !op->once)
		cli_error("stream: %s", err);
	rc = rc ? EXIT_RUNTIME : 0;
out:
	out_destroy(o);
	if (s.lfd >= 0)
		close(s.lfd);
	explicit_bzero(tok, sizeof(tok));
	return rc;
}

/* ---- the client ---- */

/* The DUT's side of a stream: its agent and the watch of its CPUs. */
struct stream_dut {
	struct dut *d;
	struct cpucost *cost;
};

static void dut_window(void *arg, bool end)
{
	struct cpucost *c = arg;

	if (end)
		cpucost_mark_end(c);
	else
		cpucost_mark_start(c);
}

/* Open the DUT the stream crosses (lab mode: the lab of --prefix unless
 * --dut names another; --client: only with --dut) and the watch of its
 * CPUs, and hook it to the client's sending window. 0, or an exit status
 * after a one-line error. */
static int dut_watch_open(struct stream_opts *op, const struct lab_status *lab, struct stream_client *c,
			  struct stream_dut *sd)
{
	struct dut_target t = op->dut;
	struct cpuset watch = op->watch;
	const char *ports[2] = { lab_if(LAB_DUT0)->ifname, lab_if(LAB_DUT1)->ifname };
	char err[512], path[4096];
	const char *v;
	int rc;

	memset(sd, 0, sizeof(*sd));
	if (!t.given) {
		if (op->mode != MODE_LAB)
			return 0;
		t.kind = DUT_LAB;
		snprintf(t.prefix, sizeof(t.prefix), "%s", op->prefix);
	}
	if (t.kind == DUT_LAB) {
		struct lab_status st;

		/* lab mode has read its lab's status already */
		if (!lab || strcmp(t.prefix, op->prefix)) {
			if (lab_status(t.prefix, &st, err, sizeof(err))) {
				cli_error("stream: --dut: %s", err);
				return EXIT_RUNTIME;
			}
			lab = &st;
		}
		t.avoid = lab->dut_cpus;
		if (!cpuset_count(&watch))
			watch = lab->dut_cpus;
	}
	if ((rc = dut_open(&t, t.kind == DUT_LAB ? ports : NULL, t.kind == DUT_LAB ? 2 : 0, &sd->d, err,
			   sizeof(err)))) {
		cli_error("stream: %s", err);
		return cli_status(rc);
	}
	if (!cpuset_count(&watch) && (v = envcap_get(dut_env(sd->d), "dut.cpu.online")) &&
	    cpuset_parse_list(v, &watch, err, sizeof(err))) {
		cli_error("stream: the DUT's CPU list '%s': %s", v, err);
		return EXIT_RUNTIME;
	}
	if (op->soak_path)
		snprintf(path, sizeof(path), "%s", op->soak_path);
	else
		soak_calib_default_path(path, sizeof(path));
	if ((rc = cpucost_create(sd->d, &watch, op->soak, t.kind == DUT_SSH ? NULL : path, &sd->cost, err,
				 sizeof(err)))) {
		cli_error("stream: %s", err);
		return cli_status(rc);
	}
	if (op->profile)
		cpucost_profile(sd->cost, op->profile_hz, op->profile_top ? op->profile_top : 10);
	c->window = dut_window;
	c->window_arg = sd->cost;
	return 0;
}

static void dut_watch_close(struct stream_dut *sd)
{
	cpucost_destroy(sd->cost);
	dut_close(sd->d);
	memset(sd, 0, sizeof(*sd));
}

/* One session into r: 0, or an exit status after a one-line error. */
typedef int (*stream_run_fn)(void *ctx, struct stream_result *r);

/* One run, or with -I runs until the mean's interval is narrow enough or
 * -i's most are done; r is the last run's. The first run that fails stops
 * them, with its status. */
/* The run's row in the store, before its runs; an exit status after a
 * one-line error when the store refuses it. */
static int keep_begin(struct stream_opts *op, const struct stream_dut *sd, const char *lab, const char *addr)
{
	struct app_stream_info si = { .lab = lab, .dut = sd->d, .size = (unsigned int)op->size,
				      .rate_pps = stream_rate_pps(op),
				      .senders = op->nsend, .server_cpu = op->server_cpu };
	struct db_run_info ri = { .test = "stream", .repeats = op->conf_level ? op->iter_max : 1 };
	char where[160], sizes[16], err[512];
	int rc;

	snprintf(sizes, sizeof(sizes), "%llu", (unsigned long long)op->size);
	ri.sizes = sizes;
	if (lab)
		snprintf(where, sizeof(where), "through lab %s: gen0 -> DUT -> sink0 (%s)", lab, addr);
	else
		snprintf(where, sizeof(where), "to %s (%s) port %u", op->host, addr, op->port);
	si.where = where;
	if (cpuset_count(&op->cpus))
		cpuset_format_list(&op->cpus, si.cpus, sizeof(si.cpus));
	else if (op->cpu >= 0)
		snprintf(si.cpus, sizeof(si.cpus), "%d", op->cpu);
	if ((rc = app_store_open(&op->store, err, sizeof(err))) ||
	    (rc = app_store_stream_begin(&op->store, &si, &ri, err, sizeof(err)))) {
		cli_error("stream: %s", err);
		return cli_status(rc);
	}
	return 0;
}

/* A run stored as it ends: a plain trial with the stream's figures and
 * the DUT's CPU over it. A store that refuses one is said once; the runs
 * go on. */
static void keep_run(struct stream_opts *op, const struct stream_dut *sd, const struct stream_result *r,
		     unsigned int rep)
{
	struct cpucost_result *cr;
	struct db_prof_entry prof[PROFILE_TOP_MAX];
	struct db_stream x;
	struct db_trial t;
	char err[512];

	if (!op->store.db || !op->store.run_id)
		return;
	cr = calloc(1, sizeof(*cr));
	if (cr && sd && sd->cost && cpucost_ended(sd->cost))
		cpucost_result(sd->cost, r->recv + r->drops, cr);
	app_store_stream_trial(r, (unsigned int)op->size, op->nsend, rep, cr, &t, &x, prof);
	if (app_store_trial(&op->store, &t, err, sizeof(err)) && !op->store_warned) {
		cli_error("warning: stream: run %u not stored in %s: %s", rep + 1, op->store.path, err);
		op->store_warned = true;
	}
	free(cr);
}

/* The end of the stored run: its status, and the headline 'runs' shows. */
static void keep_end(struct stream_opts *op, int rc, const struct stream_result *r, bool have)
{
	char headline[160];
	bool stopped = (have && r->interrupted) || rc == 130;

	if (!op->store.db)
		return;
	if (have)
		snprintf(headline, sizeof(headline), "%.1f Mb/s received of %.1f sent (%llu B%s), loss %.2f%%",
			 stream_mbps(r->recv_bytes, r->recv_ns), stream_mbps(r->sent_bytes, r->send_ns),
			 (unsigned long long)op->size, op->nsend > 1 ? ", several senders" : "",
			 r->sent ? 100.0 * (double)(r->sent > r->recv ? r->sent - r->recv : 0) / (double)r->sent : 0);
	storeopt_end(&op->store, stopped ? "interrupted" : rc ? "failed" : "complete", have ? headline : NULL);
}

static int iterate(struct stream_opts *op, const struct stream_dut *sd, stream_run_fn run, void *ctx,
		   struct stream_result *r, struct stream_conf *cf)
{
	unsigned int max = op->conf_level ? op->iter_max : 1;
	int rc;

	memset(cf, 0, sizeof(*cf));
	cf->halfwidth = INFINITY;
	for (unsigned int i = 0; i < max; i++) {
		memset(r, 0, sizeof(*r));
		if ((rc = run(ctx, r)))
			return rc;
		keep_run(op, sd, r, i);
		cf->mbps[cf->n++] = stream_mbps(r->recv_bytes, r->recv_ns);
		if (!op->conf_level || r->interrupted || cli_stopped())
			break;
		cf->halfwidth = stat_mean_halfwidth(cf->mbps, cf->n, op->conf_level);
		if (isfinite(cf->halfwidth))
			fprintf(stderr, "stream: run %u: %.2f 10^6bits/s received; the mean's %u%% interval +-%.2f%%\n",
				cf->n, cf->mbps[cf->n - 1], op->conf_level, cf->halfwidth * 100);
		else
			fprintf(stderr, "stream: run %u: %.2f 10^6bits/s received\n", cf->n, cf->mbps[cf->n - 1]);
		if (cf->n >= op->iter_min && 200 * cf->halfwidth <= op->conf_width) {
			cf->achieved = true;
			break;
		}
	}
	return 0;
}

/* The senders of one run, and each one's figures. */
struct senders {
	const struct stream_opts *op;
	struct stream_sender s[STREAMRUN_MAX];
};

static int finish(struct cli *cli, const struct stream_opts *op, const char *addr, const char *lab,
		  const struct stream_result *r, const struct stream_dut *sd, const struct stream_conf *cf,
		  const struct senders *sn)
{
	struct out *o = cli_out_create(cli, "stream");
	struct cpucost_result cr = { 0 };
	struct streamprint p = { .host = op->host, .addr = addr, .lab = lab, .port = op->port, .size = op->size,
				 .duration_ns = op->duration_ns, .rate_pps = stream_rate_pps(op), .local_cpu = op->local_cpu,
				 .remote_cpu = op->remote_cpu, .cpus = &op->cpus, .nsend = op->nsend,
				 .senders = sn->s, .conf_level = op->conf_level, .conf_width = op->conf_width,
				 .cr = &cr, .run_id = op->store.run_id };

	if (!o)
		return EXIT_RUNTIME;
	if (sd && sd->cost && cpucost_ended(sd->cost)) {
		cpucost_result(sd->cost, r->recv + r->drops, &cr);
		p.dut = dut_name(sd->d);
	}
	streamprint_result(o, &p, r, cf);
	out_destroy(o);
	return r->interrupted ? 130 : 0;
}

/* One run of op->nsend senders through one(), their total into r: 0, or
 * an exit status after a one-line error (why, for each that failed). */
static int run_senders(struct senders *sn, const struct stream_client *c, streamrun_one_fn one, void *arg,
		       struct stream_result *r, int (*say)(void *arg, unsigned int i, const char *err))
{
	int first = streamrun_many(c, sn->op->nsend, sn->op->send_cpu, one, arg, sn->s);

	if (first >= 0) {
		int rc = 0;

		for (unsigned int i = 0; i < sn->op->nsend; i++)
			if (sn->s[i].rc && sn->s[i].rc != -ECANCELED && !rc)
				rc = say(arg, i, sn->s[i].err);
		return rc ? rc : EXIT_RUNTIME;
	}
	streamrun_total(sn->s, sn->op->nsend, r);
	return 0;
}

struct client_run {
	struct stream_client *c;
	const char *addr;
	uint16_t port;
	struct senders *sn;
};

static int client_one(void *arg, unsigned int i, const struct stream_client *c, struct stream_result *r,
		      char *err, size_t errlen)
{
	(void)arg;
	(void)i;
	return stream_client_run(c, -1, r, err, errlen);
}

static int client_say(void *arg, unsigned int i, const char *err)
{
	struct client_run *cr = arg;

	if (cr->sn->op->nsend > 1)
		cli_error("stream: sender %u: %s (%s port %u)", i, err, cr->addr, cr->port);
	else
		cli_error("stream: %s (%s port %u)", err, cr->addr, cr->port);
	return cli_stopped() ? 130 : EXIT_RUNTIME;
}

static int client_run(void *ctx, struct stream_result *r)
{
	struct client_run *cr = ctx;

	return run_senders(cr->sn, cr->c, client_one, cr, r, client_say);
}

static int do_client(struct stream_opts *op, struct cli *cli)
{
	struct stream_client c = { .size = op->size, .duration_ns = op->duration_ns, .rate_pps = stream_rate_pps(op),
				   .stop = cli_stop_flag(),
				   .cpu = op->cpu, .server_cpu = op->server_cpu };
	struct stream_result r = { 0 };
	struct stream_dut sd = { 0 };
	struct stream_conf cf;
	char err[256], addr[INET6_ADDRSTRLEN], tok[STREAM_TOKEN_MAX + 1] = "";
	struct senders *sn = calloc(1, sizeof(*sn));
	struct client_run cr = { .c = &c, .addr = addr, .port = op->port, .sn = sn };
	int rc;

	if (!sn) {
		cli_error("stream: out of memory");
		return EXIT_RUNTIME;
	}
	sn->op = op;

	if ((rc = load_token(op, tok, sizeof(tok))))
		goto out;
	c.token = *tok ? tok : NULL;
	if (stream_resolve(&c, op->host, op->port, addr, sizeof(addr), err, sizeof(err))) {
		cli_error("stream: --client: %s", err);
		rc = EXIT_USAGE;
		goto out;
	}
	/* A load test aimed at a real host by a typo: the benchmarking
	 * ranges and loopback only, unless the user says otherwise. */
	if (!op->allow_any && !addrpolicy_in_bench_range((struct sockaddr *)&c.addr) &&
	    !addrpolicy_is_loopback((struct sockaddr *)&c.addr)) {
		cli_error("stream: --client %s is outside the benchmarking ranges " ADDRPOLICY_RANGES
			  " and loopback: give --allow-any-address to send there anyway", addr);
		rc = EXIT_USAGE;
		goto out;
	}
	if ((rc = dut_watch_open(op, NULL, &c, &sd)) || (rc = keep_begin(op, &sd, NULL, addr)))
		goto out;
	if (!(rc = iterate(op, &sd, client_run, &cr, &r, &cf)))
		rc = finish(cli, op, addr, NULL, &r, &sd, &cf, sn);
	keep_end(op, rc, &r, cf.n > 0);
out:
	dut_watch_close(&sd);
	explicit_bzero(tok, sizeof(tok));
	free(sn);
	return rc;
}

/* ---- lab mode ---- */

struct lab_run {
	int gen, sink;
	const uint8_t *ip;
	uint16_t asked;			/* the control port asked for (0: any) */
	uint16_t port[STREAMRUN_MAX];	/* each sender's server's, as used */
	bool in_session[STREAMRUN_MAX];
	struct stream_client *c;
	const char *prefix, *addr;
	struct senders *sn;
};

/* Each sender with a server of its own in sink, on a port of its own. */
static int lab_one(void *arg, unsigned int i, const struct stream_client *c, struct stream_result *r, char *err,
		   size_t errlen)
{
	struct lab_run *lr = arg;

	lr->port[i] = lr->asked;
	return stream_lab_run(lr->gen, lr->sink, lr->ip, &lr->port[i], c, r, &lr->in_session[i], err, errlen);
}

static int lab_say(void *arg, unsigned int i, const char *err)
{
	struct lab_run *lr = arg;
	char who[32] = "";

	if (lr->sn->op->nsend > 1)
		snprintf(who, sizeof(who), "sender %u: ", i);
	if (lr->in_session[i])
		cli_error("stream: %s%s (lab %s, %s port %u)", who, err, lr->prefix, lr->addr, lr->port[i]);
	else
		cli_error("stream: %s%s", who, err);
	return lr->in_session[i] && cli_stopped() ? 130 : EXIT_RUNTIME;
}

static int lab_run(void *ctx, struct stream_result *r)
{
	struct lab_run *lr = ctx;

	return run_senders(lr->sn, lr->c, lab_one, lr, r, lab_say);
}

static int do_lab(struct stream_opts *op, struct cli *cli)
{
	struct stream_client c = { .size = op->size, .duration_ns = op->duration_ns, .rate_pps = stream_rate_pps(op),
				   .stop = cli_stop_flag(),
				   .cpu = op->cpu, .server_cpu = op->server_cpu };
	struct stream_result r = { 0 };
	struct stream_dut sd = { 0 };
	struct lab_status st;
	struct senders *sn = NULL;
	struct lab_run *lr = NULL;
	char err[256], name[NETNS_NAME_MAX], addr[INET_ADDRSTRLEN];
	int lock = -1, gen = -1, sink = -1, rc = EXIT_RUNTIME;
	const struct lab_addr *dst = lab_if(LAB_SINK0);
	uint16_t port = op->have_port ? op->port : 0;

	if (!cli_have_root()) {
		cli_error("stream: lab mode needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN): run it as root, "
			  "or give --server or --client");
		return EXIT_RUNTIME;
	}
	if (lab_lock(op->prefix, "a stream", false, &lock, err, sizeof(err)) ||
	    lab_status(op->prefix, &st, err, sizeof(err))) {
		cli_error("stream: %s", err);
		goto out;
	}
	if (!st.complete) {
		char pa[LAB_PREFIX_MAX + 12];

		cli_error("stream: the lab %s is %s: run 'wirerate lab up%s'", op->prefix,
			  st.exists ? "half-built" : "not up", lab_prefix_arg(op->prefix, pa, sizeof(pa)));
		goto out;
	}
	/* Both ends on the tester's CPUs (the server's thread inherits this
	 * one's), off the DUT's, as a trial's generator and analyzer are. */
	if (cpuset_count(&st.tester_cpus)) {
		cpu_set_t set;

		CPU_ZERO(&set);
		for (int cpu = cpuset_next(&st.tester_cpus, 0); cpu >= 0;
		     cpu = cpuset_next(&st.tester_cpus, (unsigned)cpu + 1))
			CPU_SET(cpu, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	lab_ns_name(op->prefix, LAB_GEN, name, sizeof(name));
	gen = netns_open(name);
	lab_ns_name(op->prefix, LAB_SINK, name, sizeof(name));
	sink = netns_open(name);
	if (gen < 0 || sink < 0) {
		cli_error("stream: cannot open the lab's namespaces (%s)", strerror(-(gen < 0 ? gen : sink)));
		goto out;
	}
	inet_ntop(AF_INET, dst->ip, addr, sizeof(addr));
	op->host = addr;
	if ((rc = dut_watch_open(op, &st, &c, &sd)))
		goto out;
	if (!(sn = calloc(1, sizeof(*sn))) || !(lr = calloc(1, sizeof(*lr)))) {
		cli_error("stream: out of memory");
		rc = EXIT_RUNTIME;
		goto out;
	}
	sn->op = op;
	*lr = (struct lab_run){ .gen = gen, .sink = sink, .ip = dst->ip, .asked = port, .c = &c,
				.prefix = op->prefix, .addr = addr, .sn = sn };
	struct stream_conf cf;

	if ((rc = keep_begin(op, &sd, op->prefix, addr)))
		goto out;
	if (!(rc = iterate(op, &sd, lab_run, lr, &r, &cf))) {
		op->port = lr->port[0];
		rc = finish(cli, op, addr, op->prefix, &r, &sd, &cf, sn);
	}
	keep_end(op, rc, &r, cf.n > 0);
out:
	free(sn);
	free(lr);
	dut_watch_close(&sd);
	if (gen >= 0)
		close(gen);
	if (sink >= 0)
		close(sink);
	lab_unlock(&lock, NULL);
	return rc;
}

int cmd_stream(struct cli *cli, int argc, char **argv)
{
	struct cli_stop stop = { 0 };
	struct stream_opts op;
	int rc;

	if ((rc = parse_opts(&op, cli, argc, argv)))
		return rc < 0 ? 0 : rc;
	/* no SA_RESTART: a blocked send or wait returns at once to look */
	cli_stop_catch(&stop);
	rc = op.mode == MODE_SERVER ? do_server(&op, cli) : op.mode == MODE_CLIENT ? do_client(&op, cli)
										   : do_lab(&op, cli);
	cli_stop_restore(&stop);
	return rc;
}
