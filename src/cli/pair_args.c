/* pair's options: declared once (the table that opt_parse, the usage text
 * and 'help --json' read), then parsed. */
#include "cli/pair_args.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/ns.h"
#include "core/units.h"

extern char **environ;

/* --test send,receive,forward */
static int set_tests(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	static const struct { const char *name; unsigned int bit; } names[] = {
		{ "send", APP_PAIR_SEND }, { "receive", APP_PAIR_RECEIVE }, { "forward", APP_PAIR_FORWARD },
		{ "reflect", APP_PAIR_REFLECT },
		{ "all", APP_PAIR_ALL },
	};
	struct app_pair_opts *op = ctx;
	const char *p = v;

	(void)opt;
	op->tests = 0;
	while (*p) {
		size_t n = strcspn(p, ","), i;

		for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (strlen(names[i].name) == n && !strncmp(names[i].name, p, n))
				break;
		if (i == sizeof(names) / sizeof(names[0])) {
			snprintf(err, errlen, "--test '%s': the tests are send, receive, forward and reflect (or all)", v);
			return -EINVAL;
		}
		op->tests |= names[i].bit;
		p += n + (p[n] == ',');
	}
	if (!op->tests) {
		snprintf(err, errlen, "--test '%s': name one test or more: send, receive, forward, reflect", v);
		return -EINVAL;
	}
	return 0;
}

/* --rate: datagrams per second */
static int set_rate(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_pair_opts *op = ctx;
	struct rate r;
	int rc;

	(void)opt;
	if ((rc = units_rate_parse(v, &r, err, errlen)))
		return rc;
	if (r.kind != RATE_PPS || r.value < 1 || r.value > 10e6) {
		snprintf(err, errlen, "--rate '%s': give datagrams per second, 1 to 10Mpps (e.g. 10kpps)", v);
		return -EINVAL;
	}
	op->rate_pps = (uint64_t)r.value;
	return 0;
}

static int set_max_loss(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	(void)opt;
	return opt_parse_pct("max-loss", v, &((struct app_pair_opts *)ctx)->max_loss_pct, err, errlen);
}

/* --max-load: checked here, passed on as given */
static int set_max_load(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_pair_opts *op = ctx;
	struct rate r;
	int rc;

	(void)opt;
	if ((rc = units_rate_parse(v, &r, err, errlen)))
		return rc;
	op->max_load = v;
	return 0;
}

static int set_ssh_option(void *ctx, const struct opt *opt, const char *v, char *err, size_t errlen)
{
	struct app_pair_opts *op = ctx;

	(void)opt;
	if (!*v || *v == '-' || strchr(v, '\n') || op->nssh == APP_PAIR_SSH_OPTS_MAX) {
		snprintf(err, errlen, "--ssh-option '%s': expected an ssh -o option such as IdentityFile=~/.ssh/lab "
			 "(up to %d)", v, APP_PAIR_SSH_OPTS_MAX);
		return -EINVAL;
	}
	op->ssh_opts[op->nssh++] = v;
	return 0;
}

#define PO(field) OPT_FIELD(struct app_pair_opts, field)

static const struct opt pair_opts[] = {
	{ OPT_STR("topology", "FILE", PO(topology),
		  "the pair as the kernel's driver selftests give it: a net.config\n"
		  "file (NETIF, LOCAL_V4/V6, REMOTE_V4/V6, REMOTE_TYPE netns|ssh,\n"
		  "REMOTE_ARGS); without it, those variables in the environment"),
	  .group = "the pair" },
	{ OPT_CUSTOM("test", OPT_VALUE, "LIST", set_tests,
		     "the tests to run: send, receive, forward, reflect\n"
		     "(comma-separated)"),
	  .def = "all" },
	{ OPT_BOOL("ipv6", PO(ipv6), "use the pair's IPv6 addresses (default: IPv4 when it has them)") },
	{ OPT_BOOL("allow-any-address", PO(allow_any_address),
		   "let the pair's addresses lie outside 198.18.0.0/15 and 2001:2::/48") },
	{ OPT_CUSTOM("ssh-option", OPT_VALUE, "OPT", set_ssh_option,
		     "REMOTE_TYPE=ssh: passed to ssh as -o OPT (repeatable)") },
	{ OPT_STR("remote-wirerate", "CMD", PO(remote_wirerate),
		  "REMOTE_TYPE=ssh: the wirerate command at the peer") ,
	  .def = "wirerate" },
	{ OPT_NS("duration", "T", PO(duration_ns), 100 * NSEC_PER_MSEC, 600 * NSEC_PER_SEC,
		 "send, receive: each stream's length"),
	  .group = "send and receive", .shortname = 'l', .def = "2s" },
	{ OPT_CUSTOM("rate", OPT_VALUE, "RATE", set_rate, "each stream's pace, datagrams/s"), .def = "10kpps" },
	{ OPT_UINT("message-size", "BYTES", PO(message_size), 1, 65507, "each datagram's payload"),
	  .shortname = 'm', .def = "1024" },
	{ OPT_BOOL("soak", PO(soak),
		   "also soak this host's CPUs over each stream (needs 'wirerate\n"
		   "soak --calibrate' here): its CPU per datagram and per KB\n"
		   "with the interrupt time /proc/stat hides") },
	{ OPT_CUSTOM("max-loss", OPT_VALUE, "PCT", set_max_loss,
		     "a stream that loses more than PCT percent fails"),
	  .def = "0" },
	{ OPT_UINT("size", "BYTES", PO(frame_size), 64, 9018, "forward, reflect: the frame size"),
	  .group = "forward and reflect",
	  .def = "64" },
	{ OPT_NS("trial-time", "T", PO(trial_ns), 100 * NSEC_PER_MSEC, 60 * NSEC_PER_SEC,
		 "forward, reflect: each trial of the search"),
	  .def = "1s" },
	{ OPT_CUSTOM("max-load", OPT_VALUE, "RATE", set_max_load,
		     "forward, reflect: the highest load the search offers (default: the\n"
		     "peer's line rate or its generator's ceiling)") },
	{ OPT_BOOL("ktap", PO(ktap),
		   "the results as KTAP, the kernel selftests' format (one test\n"
		   "point per figure), instead of the text"),
	  .group = "output" },
	{ OPT_STR("kcidb", "FILE", PO(kcidb.path),
		  "also write the results as a KernelCI (KCIDB I/O v5.3) document") },
	{ OPT_STR("origin", "NAME", PO(kcidb.origin), "--kcidb: the CI system's name ([a-z0-9_]+)") },
	{ OPT_STR("kcidb-checkout", "ID", PO(kcidb.checkout_id), "--kcidb: the KernelCI checkout tested (ORIGIN:...)") },
	{ OPT_STR("kcidb-build", "ID", PO(kcidb.build_id), "--kcidb: the KernelCI build tested (ORIGIN:...)") },
	{ NULL },
};

static const struct opt *const pair_tables[] = { pair_opts, NULL };

const struct opt_cmd pair_cmd = {
	.name = "pair",
	.synopsis = "[--topology net.config] [--test send,receive,forward,reflect] [--ktap|--json] [--kcidb FILE --origin NAME]\n"
		    "       [OPTIONS]",
	.about = "The tests a two-endpoint pair can run, the pair given as the kernel's driver\n"
		 "selftests give it: this host (NETIF) is the host under test, the peer is a\n"
		 "network namespace (REMOTE_TYPE=netns) or a host reached by ssh (ssh). send:\n"
		 "this host sends paced UDP to the peer; receive: the peer sends to this\n"
		 "host; each gives what arrived, the loss and this host's CPU per KB and per\n"
		 "datagram. forward: the peer offers frames to NETIF addressed to itself,\n"
		 "which this host routes back out of NETIF (a router on one port), searched\n"
		 "for the NDR (needs forwarding on here). reflect: the same, the frames sent\n"
		 "back by an XDP program on NETIF (XDP_TX). wirerate runs at the peer too (the\n"
		 "same binary in a namespace; over ssh, --remote-wirerate). docs/kernel-ci.md.\n",
	.notes = "exit status (kselftest's): 0 every test passed or measured, 1 a test failed or\n"
		 "could not complete, 4 every test skipped; 2 bad input (the pair, an option)\n",
	.tables = pair_tables,
};

enum opt_result pair_args(struct cli *cli, int argc, char **argv, struct app_pair_opts *op, int *status)
{
	void *ctx[] = { op };
	int rc, nargs;

	*op = (struct app_pair_opts){
		.envp = (const char *const *)environ,
		.tests = APP_PAIR_ALL,
		.duration_ns = 2 * NSEC_PER_SEC,
		.rate_pps = 10000,
		.message_size = 1024,
		.frame_size = 64,
		.trial_ns = NSEC_PER_SEC,
	};
	if ((rc = opt_parse(&pair_cmd, ctx, cli, argc, argv, NULL, 0, &nargs)))
		return opt_exit(status, opt_status(rc));
	return OPT_GO;
}
