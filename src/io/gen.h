/* A trial's generator, whatever sends the frames: one interface over a
 * packet port (user space paces and tags each batch and hands it to the
 * port's ring) and over the XDP generator (io/xdpgen.h: the kernel paces,
 * tags and sends live frames inside one system call a phase). The engine
 * calls it once a phase and reads its figures afterwards; the per-frame
 * work stays inside each implementation, so the table costs one indirect
 * call a phase, never one a frame. */
#ifndef WR_IO_GEN_H
#define WR_IO_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/frame.h"
#include "io/port.h"

enum gen_type {
	GEN_PORT,		/* frames built once in a port's TX slots, tags rewritten */
	GEN_XDP,		/* XDP live frames (io/xdpgen.h): no skb, no back-pressure */
};

struct gen_cfg {
	enum gen_type type;
	const char *ifname;
	int nsfd;			/* namespace of ifname; -1: the caller's */
	/* GEN_PORT: the port to send from, shared and left open by
	 * gen_destroy; NULL opens one of its own of port_type on tx_queue. */
	struct port *port;
	enum port_type port_type;
	unsigned int tx_queue;
	unsigned int frame_max;		/* largest frame of sizes[], for a port of its own */
	const struct frame_spec *spec;	/* addresses and ports; sizes come from sizes[] */
	const unsigned int *sizes;	/* GEN_PORT: slot i carries sizes[i % nsizes];
					 * GEN_XDP: one size, sizes[0] */
	unsigned int nsizes;
	const struct frame_flows *flows;
	int flow_fd;			/* GEN_XDP: the analyzer's per-stream counts
					 * (analyzer_flow_fd), for flow control back to
					 * back; 0: none */
};

/* One phase: learning frames, or the trial's traffic. Times are
 * CLOCK_REALTIME ns, like the rest of the trial. */
struct gen_phase {
	double rate_pps;
	uint64_t start_ns;		/* the first frame's slot */
	uint64_t end_ns;		/* nothing is sent from here on */
	/* The phase's frames are all due by then (0: no such time). The XDP
	 * generator's call takes about 20 ms to set up, so it ends here to
	 * have the next phase's call ready for its first slot; a port
	 * generator sends from user space and keeps going to end_ns when
	 * behind. */
	uint64_t soft_end_ns;
	uint64_t limit;			/* frames at most */
	uint64_t epoch_ns;		/* zero of the tag timestamps */
	unsigned int max_burst;		/* frames per batch at most */
	uint16_t trial, stream;
	unsigned int window;		/* flow control, at most gen_flow_window(): frames
					 * sent but not yet seen by the analyzer; 0: off */
	unsigned int flow_slot;		/* the stream's entry in the analyzer's counts */
	bool analyzer_apart;		/* the analyzer runs on another CPU than this thread */
	unsigned int latency_every;	/* the analyzer times 1 frame in this many
					 * (analyzer_latency_every); 0 or 1: every frame */
};

/* The last phase's figures (tx_errors: every phase's). */
struct gen_stats {
	uint64_t sent;			/* frames sent */
	uint64_t last_ns;		/* REALTIME of the last frame; 0: not known */
	uint64_t max_backlog;		/* frames due but not yet sent, at worst */
	unsigned int largest_burst;	/* frames sent back to back, at most */
	uint64_t tx_errors;		/* batches the kernel refused to take */
	uint64_t flow_waits;		/* times the flow-control window was full */
	bool flow_gave_up;		/* the analyzer saw nothing for 200 ms: window opened */
	unsigned int batch;		/* the XDP generator's program runs per batch; 0: none */
};

struct gen;

/* Open what cfg names and build its frames. NULL with a reason in err. */
struct gen *gen_create(const struct gen_cfg *cfg, char *err, size_t errlen);
void gen_destroy(struct gen *g);

/* "xdp", or the transmit port's type name. */
const char *gen_path_name(const struct gen *g);

/* The largest flow-control window this generator keeps (0: none; only the
 * XDP generator with cfg->flow_fd does). */
unsigned int gen_flow_window(const struct gen *g);

/* Its frames vanish without any counter when the far end of the link runs
 * no XDP program (XDP live frames do: there is no skb to queue or drop). */
bool gen_needs_xdp_peer(const struct gen *g);
/* Whether a frame the next hop refused is offered again rather than lost
 * (the AF_PACKET TX ring: the kernel keeps it in the ring), so that the
 * transmit port's tx_dropped counts retries, not loss. */
bool gen_resends_refused(const struct gen *g);

/* Check, before anything is opened, that a generator of this type can send
 * these frame sizes (with FCS). 0, or -errno with a reason. */
int gen_check(enum gen_type type, const unsigned int *sizes, unsigned int nsizes, char *err, size_t errlen);

/* Run a phase in the calling thread: from its first slot until limit
 * frames are sent, end_ns has passed or gen_stop was called. 0 or -errno. */
int gen_run(struct gen *g, const struct gen_phase *ph, char *err, size_t errlen);

/* End the running phase soon, and any later one at once; safe from any
 * thread. */
void gen_stop(struct gen *g);

/* Frames sent so far in the current phase; safe from any thread. */
uint64_t gen_sent(const struct gen *g);

void gen_stats(const struct gen *g, struct gen_stats *st);

/* Frames the far end's receive ring refused since the link came up (the
 * XDP generator's veth counters). -EOPNOTSUPP with *n 0 where frames are
 * not lost that way (a port's ring is back-pressured instead). */
int gen_ring_refused(const struct gen *g, uint64_t *n);

/* The transmit port's own counters since it was opened: frames the kernel
 * refused, and those the next hop's queue refused and the ring sent again.
 * -EOPNOTSUPP without a port. */
int gen_link_counters(struct gen *g, uint64_t *tx_errors, uint64_t *tx_refused);

#endif
