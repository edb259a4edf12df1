/* `wirerate agent`: the DUT's side of the agent protocol (docs/agent.md),
 * JSON lines on two file descriptors (stdin and stdout under ssh). It
 * answers hello, snapshot, soak_start/read/stop, apply, restore and bye
 * (and what an agent_ext adds),
 * and restores whatever it applied when the tester says so, when its
 * input ends (the tester or its connection died) and when *stop is set
 * (SIGINT, SIGTERM, SIGHUP). It opens no socket of its own. */
#ifndef WR_DUT_AGENT_H
#define WR_DUT_AGENT_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <json-c/json.h>

/* Ops a layer above serves through the agent (the stream's end on the
 * DUT, app/stream_dut.c): the agent cannot reach the engine itself.
 * handle answers one request, or returns NULL when op is not its own;
 * restore ends whatever it started (the tester's restore, bye, or its
 * input ending). name is said in hello's "supports" as true, so that a
 * tester tells an agent without it by what it says. */
struct agent_ext {
	const char *name;
	json_object *(*handle)(void *arg, const char *op, json_object *req);
	void (*restore)(void *arg);
	void *arg;
};

struct agent_cfg {
	/* the lab's own agent (in its DUT namespace, or a VM lab's guest)
	 * also runs commands for 'lab exec' (the exec op, agent_exec.h);
	 * an agent reached over ssh never does */
	bool allow_exec;
	const struct agent_ext *ext;	/* NULL: none */
};

/* Serve until bye, EOF or *stop; 0, or -errno with a reason (a write to
 * the tester failed, a restore failed). */
int agent_serve(int in_fd, int out_fd, const struct agent_cfg *cfg, const volatile sig_atomic_t *stop, char *err,
		size_t errlen);

#endif
