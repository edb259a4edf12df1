/* wirerate agent: the DUT's side of --dut, on stdin and stdout. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app/stream_dut.h"
#include "cli/cli.h"
#include "cli/opt.h"
#include "dut/agent.h"
#include "os/stop.h"

struct agent_args {
	bool exec;
};

static const struct opt agent_opts[] = {
	{ OPT_BOOL("exec", OPT_FIELD(struct agent_args, exec),
		   "also run commands for 'lab exec' (the lab's own agent, which the\n"
		   "tester starts in the DUT's namespace; never given over ssh)"),
	  .group = "options" },
	{ NULL },
};
static const struct opt *const agent_tables[] = { agent_opts, NULL };

const struct opt_cmd agent_cmd = {
	.name = "agent",
	.synopsis = "",
	.about = "The DUT's side of --dut: JSON lines on stdin and stdout (docs/agent.md).\n"
		 "The tester starts it, over ssh for a separate box; it opens no socket,\n"
		 "and restores what it changed when its input ends.\n",
	.tables = agent_tables,
};

int cmd_agent(struct cli *cli, int argc, char **argv)
{
	struct stop stop;
	volatile sig_atomic_t *flag;
	char err[256] = "";
	int rc, nargs;
	char *args[1];

	struct agent_args aa = { false };
	void *ctx[] = { &aa };

	if ((rc = opt_parse(&agent_cmd, ctx, cli, argc, argv, args, 1, &nargs)))
		return opt_status(rc);
	if (nargs)
		return cli_fail(EXIT_USAGE, "agent: takes no arguments");
	if (isatty(0)) {
		cli_error("agent: speaks JSON lines to a tester on stdin; run 'wirerate trial --dut ssh:HOST ...' on the tester instead");
		return EXIT_USAGE;
	}
	/* A tester gone mid-answer must not kill the agent before it
	 * restores; and a hangup (the SSH session closed) is a stop. */
	signal(SIGPIPE, SIG_IGN);
	flag = stop_catch_hangup(&stop);
	struct agent_cfg cfg = { .allow_exec = aa.exec, .ext = app_stream_dut_ext() };

	rc = agent_serve(0, 1, &cfg, flag, err, sizeof(err));
	stop_restore(&stop);
	if (rc) {
		cli_error("agent: %s", err);
		return EXIT_RUNTIME;
	}
	return 0;
}
