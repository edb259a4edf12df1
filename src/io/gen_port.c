/* The generator over a packet port: every TX slot is built once, and a
 * phase paces batches from user space, rewriting only the tag of each
 * frame before handing the batch to the port with one kick. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/prctl.h>

#include "core/pace.h"
#include "core/ns.h"
#include "io/gen.h"
#include "io/gen_impl.h"
#include "io/port.h"
#include "os/clock.h"

#define SPIN_NS		(30 * NSEC_PER_USEC)	/* closer than this to the next frame: spin */
#define MIN_BATCH_NS	(20 * NSEC_PER_USEC)	/* a kick costs a system call: batch at least this much time */

struct gen_port {
	struct gen gen;			/* first: the public handle */
	struct port *port;
	struct port *own_port;		/* opened for this generator alone: closed with it */
	enum port_type port_type;
	uint8_t **slot;			/* frame buffer of each TX slot */
	uint16_t *slot_len;
	unsigned int nslots;
	uint16_t payload_off;
	uint64_t sent;			/* this phase's, read by other threads */
	volatile int stop;
	struct pace_stats ps;		/* the last phase's */
	uint64_t tx_errors;
};

static struct gen_port *of(const struct gen *g)
{
	return (struct gen_port *)g;
}

static const char *port_path_name(const struct gen *g)
{
	return port_type_name(of(g)->port_type);
}

static void phase_loop(struct gen_port *g, struct pace *pace, const struct gen_phase *ph)
{
	const unsigned int mask = g->nslots - 1;
	struct tag tag = { .trial = ph->trial, .stream = ph->stream };
	uint64_t seq = 0;
	/* Batch only as much as the rate needs: one frame at a time at low
	 * rates, at high rates as many as fall due in MIN_BATCH_NS, since
	 * each kick is a system call. */
	double rate = (double)pace->rate_upps / 1e6;
	unsigned int min_batch = (unsigned int)(rate * MIN_BATCH_NS / NSEC_PER_SEC);
	uint64_t period = (uint64_t)(NSEC_PER_SEC / rate);

	if (min_batch < 1)
		min_batch = 1;
	if (min_batch > pace->max_burst)
		min_batch = pace->max_burst;
	for (;;) {
		uint64_t now = clock_real_ns();
		unsigned int n, k, first;

		if (g->stop || now > ph->end_ns)
			break;
		n = pace_due(pace, now);
		if (n < min_batch && !(pace->limit && pace->sent + n >= pace->limit)) {
			uint64_t next = pace_next_ns(pace);

			if (next == UINT64_MAX)
				break;
			next += (min_batch - 1 - n) * period;
			if (next > now + SPIN_NS)
				clock_sleep_until(next - SPIN_NS / 2);
			continue;
		}
		k = port_tx_acquire(g->port, n, &first);
		tag.ts = frame_tag_ts(now - ph->epoch_ns);
		for (unsigned int j = 0; j < k; j++) {
			unsigned int s = (first + j) & mask;

			tag.seq = seq++;
			frame_tag_write(g->slot[s] + g->payload_off, &tag);
			port_tx_submit(g->port, s, g->slot_len[s]);
		}
		/* With the ring full, kick anyway: a frame the next hop
		 * refused (a veth or tap whose queue stopped) stays in the
		 * ring until a send() offers it again, and nothing else does. */
		if (port_tx_kick(g->port))
			g->tx_errors++;
		pace_sent(pace, k, now);
		__atomic_store_n(&g->sent, pace->sent, __ATOMIC_RELAXED);
		if (k < n)
			sched_yield();	/* ring full: the kernel is behind us */
	}
	/* What the kernel never took was not offered: taken back, not sent
	 * and not lost (they are the last ones, so the sequence stays whole). */
	pace_unsend(pace, port_tx_revoke(g->port));
	__atomic_store_n(&g->sent, pace->sent, __ATOMIC_RELAXED);
}

static int port_run(struct gen *gg, const struct gen_phase *ph, char *err, size_t errlen)
{
	struct gen_port *g = of(gg);
	struct pace pace;
	int rc;

	__atomic_store_n(&g->sent, 0, __ATOMIC_RELAXED);
	memset(&g->ps, 0, sizeof(g->ps));
	prctl(PR_SET_TIMERSLACK, 1000UL);
	clock_sleep_until(ph->start_ns);
	if ((rc = pace_init(&pace, ph->rate_pps, ph->start_ns, ph->max_burst, ph->limit, err, errlen)))
		return rc;
	phase_loop(g, &pace, ph);
	pace_stats(&pace, &g->ps);
	return 0;
}

static void port_stop(struct gen *g)
{
	of(g)->stop = 1;
}

static uint64_t port_sent(const struct gen *g)
{
	return __atomic_load_n(&of(g)->sent, __ATOMIC_RELAXED);
}

static void port_stats_of(const struct gen *gg, struct gen_stats *st)
{
	const struct gen_port *g = of(gg);

	*st = (struct gen_stats){ .sent = port_sent(gg), .max_backlog = g->ps.max_backlog,
				  .largest_burst = g->ps.largest_burst, .tx_errors = g->tx_errors };
}

static int port_ring_refused(const struct gen *g, uint64_t *n)
{
	(void)g;
	*n = 0;
	return -EOPNOTSUPP;
}

static int port_counters(struct gen *g, uint64_t *tx_errors, uint64_t *tx_refused)
{
	struct port_stats st;
	int rc = port_stats(of(g)->port, &st);

	*tx_errors = rc ? 0 : st.tx_errors;
	*tx_refused = rc ? 0 : st.tx_if_refused;
	return rc;
}

static void port_destroy(struct gen *gg)
{
	struct gen_port *g = of(gg);

	free(g->slot);
	free(g->slot_len);
	port_close(g->own_port);
	free(g);
}

static const struct gen_ops gen_port_ops = {
	.path_name = port_path_name,
	.run = port_run,
	.stop = port_stop,
	.sent = port_sent,
	.stats = port_stats_of,
	.ring_refused = port_ring_refused,
	.port_counters = port_counters,
	.destroy = port_destroy,
};

/* Build every TX slot once: slot i carries size i % nsizes and flow
 * i % flows; only the tag changes afterwards. */
static int build_slots(struct gen_port *g, const struct gen_cfg *cfg, char *err, size_t errlen)
{
	struct frame_spec spec = *cfg->spec;
	uint32_t nflows = frame_flows_count(cfg->flows);

	g->nslots = port_tx_slots(g->port);
	g->slot = calloc(g->nslots, sizeof(*g->slot));
	g->slot_len = calloc(g->nslots, sizeof(*g->slot_len));
	if (!g->slot || !g->slot_len) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (unsigned int i = 0; i < g->nslots; i++) {
		struct frame_layout lay;
		int rc;

		spec.size = cfg->sizes[i % cfg->nsizes];
		g->slot[i] = port_tx_slot(g->port, i);
		if ((rc = frame_build(&spec, g->slot[i], spec.size, &lay, err, errlen)))
			return rc;
		frame_set_flow(g->slot[i], &lay, cfg->flows, i % nflows);
		g->slot_len[i] = lay.len;
		g->payload_off = lay.payload_off;
	}
	return 0;
}

struct gen *gen_port_create(const struct gen_cfg *cfg, char *err, size_t errlen)
{
	struct gen_port *g = calloc(1, sizeof(*g));

	if (!g) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	g->gen.ops = &gen_port_ops;
	g->port_type = cfg->port_type;
	g->gen.resends_refused = cfg->port_type == PORT_AFPACKET;
	g->port = cfg->port;
	if (!g->port) {
		/* a socket of its own, on the queue chosen for it */
		struct port_cfg pc = { .ifname = cfg->ifname, .nsfd = cfg->nsfd, .tx = true,
				       .frame_max = cfg->frame_max, .tx_queue = cfg->tx_queue };

		if (!(g->port = g->own_port = port_open(cfg->port_type, &pc, err, errlen)))
			goto fail;
	}
	if (build_slots(g, cfg, err, errlen))
		goto fail;
	return &g->gen;
fail:
	port_destroy(&g->gen);
	return NULL;
}
