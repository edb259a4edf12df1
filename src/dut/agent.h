/* `wirerate agent`: the DUT's side of the agent protocol (docs/agent.md),
 * JSON lines on two file descriptors (stdin and stdout under ssh). It
 * answers hello, snapshot, soak_start/read/stop, apply, restore and bye,
 * and restores whatever it applied when the tester says so, when its
 * input ends (the tester or its connection died) and when *stop is set
 * (SIGINT, SIGTERM, SIGHUP). It opens no socket of its own. */
#ifndef WR_DUT_AGENT_H
#define WR_DUT_AGENT_H

#include <signal.h>
#include <stddef.h>

/* Serve until bye, EOF or *stop; 0, or -errno with a reason (a write to
 * the tester failed, a restore failed). */
int agent_serve(int in_fd, int out_fd, const volatile sig_atomic_t *stop, char *err, size_t errlen);

/* The same for the lab's own agent (in its DUT namespace, or a VM lab's
 * guest), which also runs commands for 'lab exec' (the exec op,
 * agent_exec.h); an agent reached over ssh never does. */
int agent_serve_exec(int in_fd, int out_fd, const volatile sig_atomic_t *stop, char *err, size_t errlen);

#endif
