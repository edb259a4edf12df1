/* A stream's end on the host under test: `stream --sender dut` and
 * `--receiver dut` run the senders, or the servers, on the DUT through
 * its agent (the lab's DUT namespace, a VM lab's guest, a box over ssh),
 * so that the kernel under test is the one that sends or receives.
 *
 * Both sides are here, so they cannot disagree on a field: the agent's
 * (app_stream_dut_ext, served by `wirerate agent` and a VM guest's init)
 * and the tester's (app_stream_dut_send ... _end). The agent's end is
 * bounded as every agent op is: one stream at a time, at most
 * STREAMRUN_MAX senders or servers, a run of at most
 * APP_STREAM_DUT_MAX_NS, datagrams of at most STREAM_MSG_MAX bytes, sent
 * only to the benchmarking ranges and loopback unless the tester allows
 * any address; it ends on the tester's restore, bye or a dropped link.
 *
 *   tester                                 agent on the DUT
 *   stream_send {addr, ports[], cpus[]}    senders start; answers once
 *                                          the first is sending
 *   stream_sent {wait_ms}                  {"sent": whether all ended}
 *   stream_end {stop}                      joins them: each sender's
 *                                          figures (both ends' counts)
 *   stream_recv {bind, n, duration_ns}     n one-session servers:
 *                                          {"ports": [...]}
 *   stream_end {}                          stops them
 */
#ifndef WR_APP_STREAM_DUT_H
#define WR_APP_STREAM_DUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "app/stream_senders.h"
#include "dut/agent.h"
#include "engine/stream.h"

struct dut;

#define APP_STREAM_DUT_MAX_NS (600 * NSEC_PER_SEC)	/* the longest run an agent runs */
#define APP_STREAM_DUT_SUPPORT "stream"			/* in the agent's hello */

/* The agent's side: the ops above, for agent_cfg.ext. One per process
 * (an agent serves one tester). */
const struct agent_ext *app_stream_dut_ext(void);

/* The tester's side. A DUT whose agent lacks the stream end (an older
 * wirerate) is bad input: -EINVAL, err naming the agent's version. */
int app_stream_dut_check(struct dut *d, char *err, size_t errlen);

struct app_stream_dut_send {
	const char *addr;		/* the receiver's, numeric */
	const char *const *addrs;	/* or each sender's (NULL: addr for all) */
	const uint16_t *ports;		/* each sender's server's control port */
	const int *cpus;		/* each sender's CPU on the DUT (-1: not pinned) */
	unsigned int n;
	uint64_t size, duration_ns;
	double rate_pps;		/* each sender's; 0: as fast as it can */
	int server_cpu;			/* the tester's sessions' CPU, -1: any */
	bool allow_any;			/* an address outside the ranges */
};

/* Start the DUT's senders; returns once the first is sending (the CPU
 * window's start). 0, -EINVAL (the DUT refused the request: a CPU it
 * does not have, an address outside the ranges), or another -errno. */
int app_stream_dut_send(struct dut *d, const struct app_stream_dut_send *s, char *err, size_t errlen);
/* Wait at most wait_ms for every sender to end its sending; *sent. */
int app_stream_dut_sent(struct dut *d, unsigned int wait_ms, bool *sent, char *err, size_t errlen);
/* Start n one-session servers on the DUT, listening on bind (numeric;
 * NULL: every address); ports[] gets theirs. */
int app_stream_dut_recv(struct dut *d, const char *bind, unsigned int n, uint64_t duration_ns, uint16_t *ports,
			char *err, size_t errlen);
/* End the stream on the DUT: its senders stopped first when stop, and
 * joined; s[0..n) gets each one's figures (senders only: NULL for the
 * servers, which the tester's clients heard from). */
int app_stream_dut_end(struct dut *d, bool stop, struct stream_sender *s, unsigned int n, char *err,
		       size_t errlen);

#endif
