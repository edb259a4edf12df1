/* stream's options: declared once (the table that opt_parse, the usage
 * text and 'help --json' read), then parsed into app_stream_opts and
 * checked by the app's rules (app/stream_client.c). */
#include "cli/stream_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "app/stream_client.h"
#include "cli/cli.h"
#include "cli/dut_args.h"
#include "cli/opt.h"
#include "cli/store_args.h"
#include "core/ns.h"
#include "core/units.h"
#include "engine/stream.h"
#include "lab/lab.h"

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
	struct app_stream_opts *op = ctx;
	uint64_t port;
	int rc;

	if ((rc = units_u64_parse(v, opt->min, opt->max, &port, err, errlen)))
		return rc;
	op->port = (uint16_t)port;
	op->have_port = true;
	return 0;
}

static int set_size(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_stream_opts *op = ctx;
	int rc = units_size_parse(v, 1, STREAM_MSG_MAX, &op->size, err, errlen);

	op->have_size |= !rc;
	return rc;
}

static int set_rate(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_stream_opts *op = ctx;
	int rc = units_rate_parse(v, &op->rate, err, errlen);

	if (!rc && op->rate.kind == RATE_PCT) {
		snprintf(err, errlen, "--rate %s: give datagrams/s (20kpps) or bits/s of payload (100Mbit); "
			 "a stream has no line rate", v);
		rc = -EINVAL;
	}
	op->have_rate |= !rc;
	return rc;
}

/* -I, -i and -T: netperf's values, read by the app (app/stream_client.h). */
static int set_confidence(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	(void)opt;
	return app_stream_client_confidence(ctx, v, err, errlen);
}

static int set_iterations(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	(void)opt;
	return app_stream_client_iterations(ctx, v, err, errlen);
}

static int set_bind_cpu(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	(void)opt;
	return app_stream_client_bind_cpu(ctx, v, err, errlen);
}

static int set_dut_ports(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_stream_opts *op = ctx;

	(void)opt;
	return dut_args_ports(v, op->dut_ports_buf, sizeof(op->dut_ports_buf), op->dut_ports, &op->ndut_ports, err,
			      errlen);
}

/* --sender and --receiver: tester (the default) or dut. */
static int set_end(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_stream_opts *op = ctx;
	enum app_stream_end end = opt->id ? APP_STREAM_END_RECEIVER : APP_STREAM_END_SENDER;

	if (!strcmp(v, "dut")) {
		if (op->dut_end && op->dut_end != end) {
			snprintf(err, errlen, "the sender and the receiver cannot both be the DUT");
			return -EINVAL;
		}
		op->dut_end = end;
		return 0;
	}
	if (!strcmp(v, "tester")) {
		if (op->dut_end == end)
			op->dut_end = APP_STREAM_END_NONE;
		return 0;
	}
	snprintf(err, errlen, "'%s': give tester or dut", v);
	return -EINVAL;
}

static int set_prefix(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_stream_opts *op = ctx;
	int rc;

	if ((rc = lab_prefix_check(v, err, errlen)))
		return rc;
	snprintf(op->prefix, sizeof(op->prefix), "%s", v);
	op->have_prefix = true;
	return 0;
}

#define SO(field) OPT_FIELD(struct app_stream_opts, field)

static const struct opt stream_opts[] = {
	{ OPT_BOOL("server", SO(server),
		   "serve sessions until Ctrl-C (exit 0), each in a process\n"
		   "of its own, several at once"),
	  .group = "server" },
	{ OPT_UINT("max-sessions", "N", SO(max_sessions), 1, STREAM_SESSIONS_MAX,
		   "with --server: serve at most N sessions at once (1..256,\n"
		   "default 16); a client beyond them is refused as busy") },
	{ OPT_BOOL("once", SO(once),
		   "with --server: end after one session (exit 1 if it failed;\n"
		   "a client turned away before its session does not count)") },
	{ OPT_CUSTOM("bind", OPT_VALUE, "ADDR", set_word,
		     "with --server: listen on this IPv4 or IPv6 address only\n"
		     "(default: every address)"),
	  .off = SO(bind), .id = SET_BIND },
	{ OPT_UINT("max-per-peer", "N", SO(max_per_peer), 1, STREAM_SESSIONS_MAX,
		   "with --server: at most N sessions at once from one\n"
		   "address, and N connections awaiting their request\n"
		   "(1..256, default 2)") },
	{ OPT_UINT("peer-prefix6", "BITS", SO(peer_prefix6), 1, 128,
		   "with --server: an IPv6 client is its address's first\n"
		   "BITS bits for --max-per-peer (1..128, default 64: a host\n"
		   "has a /64 to come from; 128: each address its own)") },
	{ OPT_NS("max-duration", "T", SO(max_duration_ns), 100 * NSEC_PER_MSEC, STREAM_DUR_MAX,
		 "with --server: the longest run a client may ask for\n"
		 "(100ms..24h, default 60s); a session is cut 5 s past\n"
		 "its run without the client's end") },
	{ OPT_CUSTOM("user", OPT_VALUE, "NAME", set_word,
		     "with --server started as root: the user to run as once\n"
		     "listening (default nobody)"),
	  .off = SO(user), .id = SET_USER },
	{ OPT_CUSTOM("client", OPT_VALUE, "HOST", set_word,
		     "run against the server on HOST (name or address):\n"
		     "198.18.0.0/15, 2001:2::/48 or loopback, unless --allow-any-address"),
	  .group = "client", .shortname = 'H', .off = SO(host), .id = SET_CLIENT },
	{ OPT_BOOL("allow-any-address", SO(allow_any), "lets the client send to any address") },
	{ OPT_CUSTOM("message-size", OPT_VALUE, "SIZE", set_size,
		     "datagram payload, 1..65507 bytes; IEC units (1k = 1024)"),
	  .shortname = 'm', .def = "1025" },
	{ OPT_CUSTOM("rate", OPT_VALUE, "RATE", set_rate,
		     "each sender at most RATE, paced evenly: datagrams/s (20kpps)\n"
		     "or payload bits/s (100Mbit), as iperf3's -b; default: as\n"
		     "fast as it can, netperf's way") },
	{ OPT_NS("duration", "T", SO(duration_ns), 100 * NSEC_PER_MSEC, STREAM_DUR_MAX,
		 "how long to send (100ms..24h; plain number = seconds)"),
	  .shortname = 'l', .def = "10s", .given = SO(have_duration) },
	{ OPT_CUSTOM("port", OPT_VALUE, "N", set_port,
		     "the server's control port (TCP); the data port (UDP)\n"
		     "is one the server picks per session"),
	  .group = "both ends", .shortname = 'p', .def = "12866, netperf's", .min = 1, .max = 65535 },
	{ OPT_CUSTOM("token-file", OPT_VALUE, "FILE", set_word,
		     "a shared token (one line, 1..128 printable characters,\n"
		     "the file not open to others): the server serves only\n"
		     "clients that send it; the client sends it"),
	  .off = SO(token_file), .id = SET_TOKEN_FILE },
	{ OPT_CUSTOM("prefix", OPT_VALUE, "P", set_prefix,
		     "neither --server nor --client: both ends run\n"
		     "here, the server in the lab's sink namespace, the client\n"
		     "in its gen namespace, to 198.19.0.2 through the DUT\n"
		     "(needs root and a lab that is up)"),
	  .group = "lab mode", .def = "wr-" },
	{ OPT_CUSTOM("sender", OPT_VALUE, "tester|dut", set_end,
		     "where the senders run: dut runs them on the host under\n"
		     "test (the lab's DUT, a VM lab's guest, --dut's box) through\n"
		     "its agent, to a server here: the kernel under test sends"),
	  .group = "the host under test as an end", .def = "tester", .id = 0 },
	{ OPT_CPUSET("irq-cpus", "LIST", SO(irq_cpus),
		     "with an end on the DUT: the IRQs of the ports it uses (a\n"
		     "lab's, or --dut-ports) placed, port i's on the i-th CPU of\n"
		     "LIST (mod its length), for the run; put back after") },
	{ OPT_CUSTOM("dut-ports", OPT_VALUE, "LIST", set_dut_ports,
		     "a DUT of its own: the ports its end uses, in order; with\n"
		     "-H A1,A2,... sender i goes to address i mod n, by port i\n"
		     "mod n, each port's count checked") },
	{ OPT_CUSTOM("receiver", OPT_VALUE, "tester|dut", set_end,
		     "where the server runs: dut serves on the host under test,\n"
		     "the senders here send to it"),
	  .def = "tester", .id = 1 },
	DUTOPT_ENTRIES(SO(dut), "the DUT's CPU cost (lab mode or --client)", "lab mode: the lab",
		       "the DUT the datagrams cross, whose CPU time per\ndatagram is read"),
	{ OPT_CPUSET("watch-cpus", "LIST", SO(watch),
		     "the DUT's CPUs to read (default: the lab's DUT CPUs, or\n"
		     "every CPU of a DUT of its own)") },
	{ OPT_BOOL("soak", SO(soak),
		   "also soak them (needs 'wirerate soak --calibrate' on the\n"
		   "DUT): sees the interrupt time /proc/stat hides") },
	{ OPT_BOOL("soak-here", SO(soak_here),
		   "also soak this host's CPUs over the run (its end: the\n"
		   "senders, or the server with --sender dut; needs 'wirerate\n"
		   "soak --calibrate' here): this end's CPU per datagram") },
	{ OPT_BOOL("local-cpu", SO(local_cpu),
		   "show the sender's CPU use and service demand (netperf's\n"
		   "-c): its CPU's, with -T, else its host's"),
	  .group = "CPU of the two ends", .shortname = 'c' },
	{ OPT_BOOL("remote-cpu", SO(remote_cpu),
		   "show the receiver's (netperf's -C), as the server measured\n"
		   "them"),
	  .shortname = 'C' },
	{ OPT_CUSTOM("cpu-bind", OPT_VALUE, "LOCAL[,REMOTE]", set_bind_cpu,
		     "the CPU the sender runs on, and the one the server's\n"
		     "session runs on (netperf's -T: N both, N, the sender only,\n"
		     ",N the server only)"),
	  .shortname = 'T' },
	{ OPT_UINT("threads", "N", SO(threads), 1, STREAMRUN_MAX,
		   "N senders at once (1..64), each a thread, a socket (its\n"
		   "own source port) and a session of its own; per-sender and\n"
		   "total figures"),
	  .group = "several senders", .def = "1" },
	{ OPT_CPUSET("cpus", "LIST", SO(cpus),
		     "one sender pinned to each CPU of LIST (with --threads N,\n"
		     "N CPUs); not with -T's sender CPU") },
	PROFILEOPT_ENTRIES(SO(profile), SO(profile_hz), SO(profile_top), "also sample where the DUT's time goes"),
	{ OPT_CUSTOM("confidence", OPT_VALUE, "LEVEL[,WIDTH]", set_confidence,
		     "repeat the run until the mean received throughput is\n"
		     "known to WIDTH % (its interval's whole width, default 10)\n"
		     "at LEVEL % confidence (95 or 99), as netperf's -I"),
	  .group = "confidence", .shortname = 'I' },
	{ OPT_UINT("repeat", "N", SO(repeat), 1, STREAM_ITER_MAX,
		   "N runs (1..30), one after another, each stored: what\n"
		   "bisect and a matrix without rounds repeat; not with -I"),
	},
	{ OPT_CUSTOM("iterations", OPT_VALUE, "MAX[,MIN]", set_iterations,
		     "with -I: at most MAX runs (1..30), at least MIN"),
	  .shortname = 'i', .def = "10,3" },
	{ OPT_CUSTOM("soak-calibration", OPT_VALUE, "FILE", set_word,
		     "the soak's calibration (the lab and --dut local; a DUT over\n"
		     "ssh keeps its own)"),
	  .def = "~/.local/state/wirerate/soak-calibration", .off = SO(soak_path), .id = SET_TOKEN_FILE },
	{ NULL },
};

static const struct opt *const stream_tables[] = { stream_opts, store_args_opts, NULL };

const struct opt_cmd stream_cmd = {
	.name = "stream",
	.synopsis = "--server [--bind ADDR] [--port N] [--once | --max-sessions N]\n"
		    "                              [--max-per-peer N] [--peer-prefix6 BITS] [--max-duration T]\n"
		    "                              [--token-file FILE] [--user NAME] [--json]\n"
		    "       wirerate stream --client|-H HOST [-m SIZE] [-l T] [--rate RATE] [-c] [-C] [-T L,R]\n"
		    "                              [--threads N] [--cpus LIST] [--port N] [--token-file FILE]\n"
		    "                              [--allow-any-address] [--json]\n"
		    "       wirerate stream [--prefix P] [-m SIZE] [-l T] [--rate RATE] [-c] [-C] [-T L,R]\n"
		    "                              [--threads N] [--cpus LIST] [--soak] [--profile] [--json]\n"
		    "       wirerate stream --sender dut|--receiver dut [--dut TARGET [-H HOST]] [...]",
	.about = "netperf's UDP_STREAM: the client sends UDP datagrams of one size as fast as\n"
		 "it can, or paced at --rate, for a time; the server counts what arrives. The\n"
		 "client prints netperf's block (socket size, message size, elapsed time,\n"
		 "messages okay and errors, throughput in 10^6 bits/s; the sender's line, then\n"
		 "the receiver's) and the loss between them; with -c/-C, each end's CPU and\n"
		 "service demand, and with --threads/--cpus, several senders at once and\n"
		 "their total.\n"
		 "Through a DUT (the lab's, or --dut), also what the stream cost the DUT's\n"
		 "CPUs: per CPU, per datagram received, and as netperf's service demand (us\n"
		 "of CPU per KB).\n"
		 "With --sender dut (or --receiver dut) that end runs on the DUT itself, so\n"
		 "the kernel under test sends (or receives), and the CPU figures are its own.\n",
	.notes = "A send refused with ENOBUFS, EAGAIN or ECONNREFUSED counts as an error, as\n"
		 "netperf's do. Ctrl-C on the client stops sending, still collects the\n"
		 "server's counts, prints the block marked interrupted and exits 130.\n"
		 "A client must send its request within 2 s of connecting. docs/stream.md has\n"
		 "the server's security model.\n"
		 "Exit: 0 done, 1 the server or the lab failed it, 2 bad input, 130 Ctrl-C.\n",
	.tables = stream_tables,
};

enum opt_result stream_args(struct cli *cli, int argc, char **argv, struct app_stream_opts *op, int *status)
{
	void *ctx[] = { op, &op->store.req };
	char *args[1], err[512];
	int nargs, rc;

	app_stream_client_defaults(op);
	if ((rc = opt_parse(&stream_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return opt_exit(status, opt_status(rc));
	if (app_stream_client_check(op, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "stream: %s", err);
	return OPT_GO;
}
