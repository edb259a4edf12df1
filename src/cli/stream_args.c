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
	{ "peer-prefix6", 0, OPT_VALUE, "BITS", NULL, NULL,
	  "with --server: an IPv6 client is its address's first\n"
	  "BITS bits for --max-per-peer (1..128, default 64: a host\n"
	  "has a /64 to come from; 128: each address its own)",
	  opt_set_uint, SO(peer_prefix6), 1, 128 },
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
	  opt_set_ns, SO(duration_ns), 100 * NSEC_PER_MSEC, STREAM_DUR_MAX, SO(have_duration) },
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

enum opt_result stream_args(struct cli *cli, int argc, char **argv, struct app_stream_opts *op, int *status)
{
	void *ctx[] = { op, &op->store };
	char *args[1], err[512];
	int nargs, rc;

	app_stream_client_defaults(op);
	if ((rc = opt_parse(&stream_cmd, ctx, cli, argc, argv, args, 0, &nargs)))
		return opt_exit(status, opt_status(rc));
	if (app_stream_client_check(op, err, sizeof(err)))
		return opt_fail(status, EXIT_USAGE, "stream: %s", err);
	return OPT_GO;
}
