#include <stdarg.h>
#include <stdint.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/opt.h"
#include "render/out.h"
#include "wr_config.h"
#include "wr_revision.h"

static int cmd_help(struct cli *cli, int argc, char **argv);
static int cmd_version(struct cli *cli, int argc, char **argv);

/* version and help: --json and --help, no arguments */
static const struct opt no_opts[] = { { NULL } };
static const struct opt *const no_tables[] = { no_opts, NULL };

static const struct opt_cmd version_cmd = {
	.name = "version",
	.synopsis = "[--json]",
	.about = "The version and the source revision it was built from.\n",
	.tables = no_tables,
};

static const struct opt_cmd help_cmd = {
	.name = "help",
	.synopsis = "[--json]",
	.about = "The commands and what each does ('wirerate help'); with --json, each\n"
		 "command's options too.\n",
	.tables = no_tables,
};

static const struct cmd commands[] = {
	{ "lab",     cmd_lab,     NEED_ROOT, "build, inspect or remove the embedded DUT (up|down|status)", &lab_cmd },
	{ "probe",   cmd_probe,   NEED_NONE, "what this host supports: root, namespaces, veth, AF_PACKET, AF_XDP, XDP, ...", &probe_cmd },
	{ "trial",   cmd_trial,   NEED_ROOT, "offer frames at a rate for a time and count what the DUT forwarded", &trial_cmd },
	{ "calibrate", cmd_calibrate, NEED_ROOT, "the tester's own ceiling, back to back with no DUT", &calibrate_cmd },
	{ "rfc2544", cmd_rfc2544, NEED_ROOT, "RFC 2544 throughput (NDR/PDR), latency, frame loss, back-to-back", &rfc2544_cmd },
	{ "matrix",  cmd_matrix,  NEED_ROOT, "the same trial, rfc2544 or stream across lab configurations, compared side by side", &matrix_cmd },
	{ "bisect",  cmd_bisect,  NEED_NONE, "find the commit, kernel or configuration change that moved a figure (start|resume|log)", &bisect_cmd },
	{ "runs",    cmd_runs,    NEED_NONE, "list the stored runs (filter by label, tag, time); 'runs rm ID' deletes, 'runs upgrade' migrates", &runs_cmd },
	{ "report",  cmd_report,  NEED_NONE, "compare stored runs: tables, verdicts against the first, JSON, CSV, HTML", &report_cmd },
	{ "gate",    cmd_gate,    NEED_NONE, "a CI's regression gate: a run against a stored baseline, exit 0/3/4, KTAP and KernelCI output", &gate_cmd },
	{ "pair",    cmd_pair,    NEED_ROOT, "the tests of a selftests NIC pair (net.config): send, receive, one-port forwarding; KTAP", &pair_cmd },
	{ "cpu",     cmd_cpu,     NEED_NONE, "mpstat-like per-CPU time, interrupts/s and softnet counters, every interval", &cpu_cmd },
	{ "soak",    cmd_soak,    NEED_NONE, "cyclesoak: the CPU everything else takes, hidden interrupt time included", &soak_cmd },
	{ "stream",  cmd_stream,  NEED_NONE, "netperf-style UDP_STREAM: socket throughput between two hosts, or through the lab", &stream_cmd },
	{ "agent",   cmd_agent,   NEED_NONE, "the DUT's side of --dut: JSON lines on stdin/stdout, started by the tester (over ssh)", &agent_cmd },
	{ "vm-guest", cmd_vm_guest, NEED_ROOT, "a VM lab's guest side, its init: set up the DUT, serve the agent (lab up --kernel boots it)", &vm_guest_cmd },
	{ "version", cmd_version, NEED_NONE, "print the version", &version_cmd },
	{ "help",    cmd_help,    NEED_NONE, "this list", &help_cmd },
};

static void usage(FILE *f)
{
	fprintf(f, "usage: wirerate [--json] COMMAND [OPTIONS]\n\n"
		   "A software network tester: offers UDP traffic at a precise rate through a\n"
		   "device under test and counts what comes out (RFC 2544).\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'wirerate COMMAND --help' shows a command's options.\n");
}

/* version and help take no arguments; --json may follow the command as
 * it may precede it. Options end at the first word, which is refused as
 * it is (not as an unknown option after it). OPT_GO, or OPT_EXIT with
 * *status (0 after the usage for --help). */
static enum opt_result no_arguments(struct cli *cli, const struct opt_cmd *cmd, int argc, char **argv, int *status)
{
	struct opt_cmd c = *cmd;
	enum opt_result r = OPT_GO;
	char **args;
	int nargs, rc;

	c.stop_at_arg = true;
	if (!(args = calloc((size_t)argc, sizeof(*args))))
		return opt_exit(status, EXIT_RUNTIME);
	if ((rc = opt_parse(&c, NULL, cli, argc, argv, args, argc, &nargs)))
		r = opt_exit(status, opt_status(rc));
	else if (nargs)
		r = opt_fail(status, EXIT_USAGE, "%s: unexpected '%s': it takes no arguments", cmd->name, args[0]);
	free(args);
	return r;
}

static int cmd_help(struct cli *cli, int argc, char **argv)
{
	int status;

	if (no_arguments(cli, &help_cmd, argc, argv, &status) == OPT_EXIT)
		return status;
	if (!cli->json) {
		usage(stdout);
		return 0;
	}
	printf("{");
	cli_out_json_header("help");
	printf("\"commands\":[");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		printf("%s{\"name\":", i ? "," : "");
		out_json_put_string(stdout, commands[i].name);
		printf(",\"summary\":");
		out_json_put_string(stdout, commands[i].summary);
		printf(",\"needs_root\":%s", commands[i].needs & NEED_ROOT ? "true" : "false");
		if (commands[i].opts) {
			putchar(',');
			opt_json(stdout, commands[i].opts);
		}
		putchar('}');
	}
	printf("]}\n");
	return 0;
}

static int cmd_version(struct cli *cli, int argc, char **argv)
{
	int status;

	if (no_arguments(cli, &version_cmd, argc, argv, &status) == OPT_EXIT)
		return status;
	if (cli->json) {
		printf("{");
		cli_out_json_header("version");
		printf("\"version\":\"%s\",\"revision\":\"%s\"}\n", WR_VERSION, WR_REVISION);
	} else {
		printf("wirerate %s (%s)\n", WR_VERSION, WR_REVISION);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct cli cli = { .prog = "wirerate" };
	int i = 1;

	/* Files wirerate makes (the store, calibrations, reports) are
	 * readable by all and writable by the owner, whatever umask a root
	 * shell or a service manager handed down. */
	umask(022);
	/* A pipe or a log file sees each line when a terminal would (an
	 * rfc2544 run's rows, hours apart), not all of them at exit. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "-j")) {
			cli.json = true;
		} else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			return cmd_help(&cli, argc - i, argv + i);
		} else if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-V")) {
			return cmd_version(&cli, argc - i, argv + i);
		} else {
			cli_error("unknown option '%s' (see 'wirerate --help')", argv[i]);
			return EXIT_USAGE;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return EXIT_USAGE;
	}
	for (size_t k = 0; k < sizeof(commands) / sizeof(commands[0]); k++) {
		const struct cmd *c = &commands[k];

		if (strcmp(argv[i], c->name))
			continue;
		if ((c->needs & NEED_ROOT) && !cli_have_root()) {
			/* --help needs no privilege. */
			for (int a = i + 1; a < argc; a++)
				if (!strcmp(argv[a], "--help") || !strcmp(argv[a], "-h"))
					return c->fn(&cli, argc - i, argv + i);
			/* the host's (the privilege), not the input's: 1 */
			cli_error("%s: needs root (CAP_NET_ADMIN and CAP_SYS_ADMIN): run it as root", c->name);
			return EXIT_RUNTIME;
		}
		return c->fn(&cli, argc - i, argv + i);
	}
	cli_error("unknown command '%s' (see 'wirerate help')", argv[i]);
	return EXIT_USAGE;
}
