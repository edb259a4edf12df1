/* wirerate stream's output: netperf's UDP_STREAM block, each end's CPU
 * columns, the senders' lines, -I's verdict, the DUT's cost, and the
 * server's line per session. Text and JSON from the same calls. */
#ifndef WR_RENDER_STREAM_PRINT_H
#define WR_RENDER_STREAM_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "core/cpuset.h"
#include "engine/cpucost.h"
#include "engine/stream.h"
#include "app/stream_client.h"
#include "app/stream_run.h"
#include "render/out.h"

/* What the result is printed with: the run as asked and where it went. */
struct stream_print {
	const char *host, *addr;	/* as given, and numeric */
	const char *lab;		/* lab mode's prefix, NULL otherwise */
	uint16_t port;
	uint64_t size, duration_ns;
	double rate_pps;		/* --rate, each sender's; 0: flat out */
	bool local_cpu, remote_cpu;	/* -c, -C: netperf's CPU columns */
	const struct cpuset *cpus;	/* --cpus, or NULL */
	unsigned int nsend;		/* senders, each in senders[] */
	const struct stream_sender *senders;
	unsigned int conf_level;	/* -I's level, 0 without -I */
	double conf_width;
	/* the DUT crossed (dut_name), its CPU over the last run (cr valid),
	 * and the stored run (0: none) */
	const char *dut;
	const struct cpucost_result *cr;
	/* --soak-here: this host's end over the same window (NULL: not asked) */
	const struct cpucost_result *here;
	int64_t run_id;
	/* the end that ran on the DUT ("sender", "receiver"; NULL: neither),
	 * the DUT's name and kernel release */
	const char *dut_end, *dut_name, *dut_kernel;
	/* with dut_end in a lab: each path's DUT port and its count */
	const struct app_stream_port *ports;
	unsigned int nport;
	double control_mbps;		/* the soak's control run (0: none) */
	const char *irq_placed;		/* --irq-cpus: the agent's account (NULL or "": none) */
};

/* The client's result: the senders, the block for their total r, -I's
 * verdict cf, the DUT's cost, where it was stored. */
void stream_print_result(struct out *o, const struct stream_print *p, const struct stream_result *r,
			const struct stream_conf *cf);

/* A server's session as it ends (an element of "sessions"); arg is the
 * struct out, so it serves as the server's on_session. */
void stream_print_session(void *arg, const struct stream_session *s);

/* The client's run (app_stream_client's result) through stream_print_result. */
void stream_print_run(struct out *o, const struct app_stream_opts *op, const struct app_stream_res *res);
/* The server's line as it starts listening: where, the limits, the
 * token, the user it runs as (root: started as root). */
void stream_print_server(struct out *o, const struct app_stream_opts *op, const struct stream_server *s, bool root);

/* stream's hooks as it runs (app_stream_hooks, ctx a struct
 * streamprint_ctx): the server's line once listening and each session as
 * it ends, or the client's figures; the output made by create (text or
 * JSON as json says) when there is something to print. The client's is
 * closed once printed; the server's by the caller, after any error (o
 * NULL: nothing to close). */
struct streamprint_ctx {
	struct out *(*create)(bool json, const char *command);
	bool json;
	struct out *o;
};

extern const struct app_stream_hooks stream_print_hooks;

#endif
