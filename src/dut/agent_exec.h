/* A command run on the DUT for the tester: `wirerate lab exec -- CMD`
 * on a VM lab, where there is no shell to reach the guest by. Only the
 * agent of a VM lab's guest takes it (vm-guest starts it so): an agent
 * reached over ssh never runs commands, the tester has ssh for that. */
#ifndef WR_DUT_AGENT_EXEC_H
#define WR_DUT_AGENT_EXEC_H

#include <json-c/json.h>

#define AGENTEXEC_ARGS_MAX 64
#define AGENTEXEC_OUTPUT_MAX (1024 * 1024)	/* stdout and stderr together, kept */
#define AGENTEXEC_TIMEOUT_MAX_MS (600 * 1000)

/* {"op":"exec","argv":[...],"timeout_ms":N} -> {"ok":true,"status":S,
 * "output":"...","truncated":bool}; status is the exit status, or 128
 * + the signal (a timeout ends it with SIGKILL: "timed_out":true). */
json_object *agent_exec_run(json_object *req);

#endif
