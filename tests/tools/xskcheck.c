/* Test helper for the AF_XDP port: sends N tagged frames at a bounded rate
 * from an afxdp TX port on one interface and counts them on an afxdp RX
 * port on another, then prints one JSON object: frames sent, test frames
 * received (valid tag of this run, each sequence number once), frames that
 * were not, duplicates, timestamp checks and both ports' stats.
 *
 * With --xdpgen the frames come from the XDP live-frames generator
 * (src/io/xdpgen.c) instead of an AF_XDP port, so every frame it builds is
 * checked by frame_parse on the way in: headers, IPv4 and UDP checksums,
 * tag; --flows and --vlan vary what it builds.
 *
 * Either side can be left out to measure one direction alone: --tx only
 * sends (as fast as it can with --rate 0), --rx only counts every valid
 * tagged frame for --duration seconds. Every loop is bounded in time. */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/frame.h"
#include "io/port.h"
#include "io/xdpgen.h"
#include "os/clock.h"
#include "os/netns.h"
#include "os/nl.h"

#define TX_BURST 256

struct side {
	const char *ifname, *ns;
	int nsfd;
	struct port *port;
	struct link_info li;
	int cpu;
};

struct rxstate {
	struct port *port;
	volatile int stop;
	uint16_t trial;
	bool any_trial;		/* rx-only: every valid tag counts */
	uint64_t n;		/* sequence numbers expected: 0..n-1 */
	uint8_t *seen;		/* bitmap of n bits, or NULL */
	uint64_t epoch;		/* CLOCK_REALTIME of the first frame's tag */
	/* counts */
	uint64_t frames, valid, dup, other_trial, not_test, bad_tag;
	uint64_t ts_changes, last_ts, lat_bad, lat_min, lat_max, lat_sum;
	uint64_t first_ns, last_ns;	/* monotonic, first and last valid frame */
	uint64_t cpu_ns;		/* the receive thread's CPU time */
	int cpu;
};

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void pin(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

static void on_frame(void *vctx, const uint8_t *frame, uint32_t len, uint64_t ts_ns)
{
	struct rxstate *r = vctx;
	struct frame_info fi;
	enum frame_verdict v = frame_parse(frame, len, &fi);
	uint64_t lat;

	r->frames++;
	if (ts_ns != r->last_ts)
		r->ts_changes++;
	r->last_ts = ts_ns;
	if (v == FRAME_BAD_TAG) {
		r->bad_tag++;
		return;
	}
	if (v != FRAME_OK) {
		r->not_test++;
		return;
	}
	if (!r->any_trial && fi.tag.trial != r->trial) {
		r->other_trial++;
		return;
	}
	if (r->seen) {
		if (fi.tag.seq >= r->n) {
			r->other_trial++;
			return;
		}
		if (r->seen[fi.tag.seq >> 3] & (1u << (fi.tag.seq & 7))) {
			r->dup++;
			return;
		}
		r->seen[fi.tag.seq >> 3] |= (uint8_t)(1u << (fi.tag.seq & 7));
	}
	if (!r->valid)
		r->first_ns = clock_mono_ns();
	r->last_ns = clock_mono_ns();
	r->valid++;
	if (r->epoch) {
		/* Receive time is the port's (kernel metadata or batch clock),
		 * transmit time the sender's, both CLOCK_REALTIME. */
		lat = frame_tag_latency_ns(fi.tag.ts, ts_ns - r->epoch);
		if (lat > 1000000000ULL) {
			r->lat_bad++;
		} else {
			if (!r->lat_min || lat < r->lat_min)
				r->lat_min = lat;
			if (lat > r->lat_max)
				r->lat_max = lat;
			r->lat_sum += lat;
		}
	}
}

static void *rx_main(void *arg)
{
	struct rxstate *r = arg;

	pin(r->cpu);
	while (!r->stop) {
		int n = port_rx_poll(r->port, on_frame, r, 10);

		if (n < 0) {
			fprintf(stderr, "xskcheck: rx: %s\n", strerror(-n));
			break;
		}
	}
	r->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

/* The side's namespace and interface (MAC, index). */
static int side_lookup(struct side *s, char *err, size_t errlen)
{
	struct nl *nl;
	int rc;

	if (s->ns && (s->nsfd = netns_open(s->ns)) < 0) {
		snprintf(err, errlen, "no namespace %s", s->ns);
		return -ENOENT;
	}
	if (!(nl = nl_create(s->nsfd, err, errlen)))
		return -EIO;
	rc = nl_link_get(nl, s->ifname, &s->li);
	nl_destroy(nl);
	if (rc)
		snprintf(err, errlen, "no interface %s", s->ifname);
	return rc;
}

static int side_open(struct side *s, bool tx, unsigned int size, char *err, size_t errlen)
{
	struct port_cfg pc = { .ifname = s->ifname, .nsfd = -1, .tx = tx, .rx = !tx,
			       .tx_slots = 4096, .frame_max = size - FRAME_FCS_LEN };
	int rc;

	if ((rc = side_lookup(s, err, errlen)))
		return rc;
	pc.nsfd = s->nsfd;
	if (!(s->port = port_open(PORT_AFXDP, &pc, err, errlen)))
		return -EIO;
	return 0;
}

static void print_stats(const char *name, struct port *p)
{
	struct port_stats st;

	if (!p || port_stats(p, &st)) {
		printf(",\"%s\":null", name);
		return;
	}
	printf(",\"%s\":{\"tx_frames\":%lu,\"tx_errors\":%lu,\"tx_if_refused\":%lu,\"rx_frames\":%lu,"
	       "\"rx_drops\":%lu,\"rx_if_drops\":%lu,\"rx_freezes\":%lu}", name,
	       (unsigned long)st.tx_frames, (unsigned long)st.tx_errors, (unsigned long)st.tx_if_refused,
	       (unsigned long)st.rx_frames, (unsigned long)st.rx_drops, (unsigned long)st.rx_if_drops,
	       (unsigned long)st.rx_freezes);
}

/* Send n frames at rate pps (0: as fast as the port takes them) until
 * deadline (monotonic ns); returns frames sent. */
static uint64_t send_frames(struct port *p, uint64_t n, uint64_t pps, uint64_t deadline, uint16_t trial,
			    uint64_t epoch, const unsigned int *payload_off, const uint16_t *len)
{
	unsigned int mask = port_tx_slots(p) - 1;
	struct tag tag = { .trial = trial, .stream = 0 };
	uint64_t sent = 0, start = clock_mono_ns();

	while (sent < n && !interrupted) {
		uint64_t now = clock_mono_ns(), due = n - sent;
		unsigned int k, first;

		if (now > deadline)
			break;
		if (pps) {
			uint64_t want = (now - start) * pps / 1000000000ULL + 1;

			if (want > n)
				want = n;
			due = want > sent ? want - sent : 0;
			if (!due) {
				uint64_t next = start + (sent * 1000000000ULL) / pps;
				struct timespec ts = { 0, (long)(next > now ? next - now : 0) };

				if (ts.tv_nsec > 1000000)
					ts.tv_nsec = 1000000;
				nanosleep(&ts, NULL);
				continue;
			}
		}
		k = port_tx_acquire(p, due < TX_BURST ? (unsigned int)due : TX_BURST, &first);
		tag.ts = frame_tag_ts(clock_ns(CLOCK_REALTIME) - epoch);
		for (unsigned int j = 0; j < k; j++) {
			unsigned int s = (first + j) & mask;

			tag.seq = sent + j;
			frame_tag_write(port_tx_slot(p, s) + payload_off[s], &tag);
			port_tx_submit(p, s, len[s]);
		}
		if (port_tx_kick(p))
			break;
		sent += k;
		if (!k)
			sched_yield();
	}
	return sent;
}

/* The same with the XDP generator: one BPF_PROG_RUN phase of n frames
 * at pps, ending by deadline (monotonic ns) at the latest. 0 or -errno. */
static int send_xdpgen(struct side *s, const struct frame_spec *spec, const struct frame_flows *flows,
		       uint64_t n, uint64_t pps, uint64_t deadline, uint16_t trial, uint64_t epoch,
		       uint64_t *sent, char *err, size_t errlen)
{
	struct xdpgen_cfg gc = { .ifname = s->ifname, .nsfd = s->nsfd, .spec = spec, .flows = flows };
	uint64_t now = clock_ns(CLOCK_REALTIME), mono = clock_mono_ns();
	struct xdpgen_phase ph = { .rate_pps = (double)(pps ? pps : 20000000), .start_ns = now + 10000000ULL,
				   .end_ns = now + (deadline > mono ? deadline - mono : 0), .limit = n,
				   .epoch_ns = epoch, .max_burst = 32, .trial = trial };
	struct xdpgen *g = xdpgen_open(&gc, err, errlen);
	int rc;

	if (!g)
		return -EINVAL;
	rc = xdpgen_run(g, &ph, err, errlen);
	*sent = xdpgen_sent(g);
	xdpgen_close(g);
	return rc;
}

static void usage(void)
{
	fprintf(stderr, "usage: xskcheck [--tx IF --tx-ns NS] [--rx IF --rx-ns NS] [-n N] [--rate PPS]\n"
		"                [--size BYTES] [--ipv6] [--duration S] [--drain-ms MS] [--tx-cpu C] [--rx-cpu C]\n"
		"                [--xdpgen [--flows N] [--vlan]]\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "tx", required_argument, NULL, 't' }, { "tx-ns", required_argument, NULL, 'T' },
		{ "rx", required_argument, NULL, 'r' }, { "rx-ns", required_argument, NULL, 'R' },
		{ "count", required_argument, NULL, 'n' }, { "rate", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' }, { "ipv6", no_argument, NULL, '6' },
		{ "duration", required_argument, NULL, 'd' }, { "drain-ms", required_argument, NULL, 'w' },
		{ "tx-cpu", required_argument, NULL, 'c' }, { "rx-cpu", required_argument, NULL, 'C' },
		{ "xdpgen", no_argument, NULL, 'x' }, { "flows", required_argument, NULL, 'f' },
		{ "vlan", no_argument, NULL, 'v' },
		{ 0 }
	};
	struct side tx = { .nsfd = -1, .cpu = -1 }, rx = { .nsfd = -1, .cpu = -1 };
	struct rxstate rs = { .cpu = -1 };
	uint64_t n = 10000, pps = 10000, sent = 0, t0, t1 = 0, tx_end = 0, tx_cpu = 0;
	unsigned int size = 64, drain_ms = 1000;
	double duration = 10;
	bool v6 = false, use_xdpgen = false, vlan = false;
	struct frame_flows flows = { .sport_first = 1024, .sport_count = 1 };
	char err[256] = "";
	unsigned int *payload_off = NULL;
	uint16_t *lens = NULL;
	pthread_t th;
	bool th_started = false;
	int c, rc = 1;

	while ((c = getopt_long(argc, argv, "n:", opts, NULL)) != -1) {
		switch (c) {
		case 't': tx.ifname = optarg; break;
		case 'T': tx.ns = optarg; break;
		case 'r': rx.ifname = optarg; break;
		case 'R': rx.ns = optarg; break;
		case 'n': n = strtoull(optarg, NULL, 10); break;
		case 'p': pps = strtoull(optarg, NULL, 10); break;
		case 's': size = (unsigned int)atoi(optarg); break;
		case '6': v6 = true; break;
		case 'd': duration = atof(optarg); break;
		case 'w': drain_ms = (unsigned int)atoi(optarg); break;
		case 'c': tx.cpu = atoi(optarg); break;
		case 'C': rx.cpu = atoi(optarg); break;
		case 'x': use_xdpgen = true; break;
		case 'f': flows.sport_count = (uint16_t)atoi(optarg); break;
		case 'v': vlan = true; break;
		default: usage(); return 2;
		}
	}
	if ((!tx.ifname && !rx.ifname) || n < 1 || n > 1000000000ULL || duration <= 0 || duration > 600 ||
	    size < 64 || size > 1518 || drain_ms > 60000 || flows.sport_count < 1 ||
	    ((use_xdpgen || vlan || flows.sport_count > 1) && (!tx.ifname || !rx.ifname))) {
		usage();
		return 2;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (tx.ifname && (use_xdpgen ? side_lookup(&tx, err, sizeof(err)) : side_open(&tx, true, size, err, sizeof(err))))
		goto out;
	if (rx.ifname && side_open(&rx, false, size, err, sizeof(err)))
		goto out;

	rs.trial = (uint16_t)(getpid() ^ (time(NULL) << 4));
	rs.cpu = rx.cpu;
	if (rx.port) {
		rs.port = rx.port;
		rs.any_trial = !tx.ifname;
		if (tx.ifname) {
			rs.n = n;
			if (!(rs.seen = calloc((size_t)(n + 7) / 8, 1))) {
				snprintf(err, sizeof(err), "out of memory");
				goto out;
			}
		}
		if (pthread_create(&th, NULL, rx_main, &rs)) {
			snprintf(err, sizeof(err), "cannot start the receive thread");
			goto out;
		}
		th_started = true;
	}
	t0 = clock_mono_ns();
	if (tx.ifname) {
		struct frame_spec spec;
		struct frame_layout lay;
		uint64_t epoch = clock_ns(CLOCK_REALTIME), deadline;

		frame_spec_init(&spec, v6 ? FRAME_IPV6 : FRAME_IPV4);
		memcpy(spec.src_mac, tx.li.mac, 6);
		if (rx.port)
			memcpy(spec.dst_mac, rx.li.mac, 6);
		spec.size = size;
		spec.vlan = vlan;
		spec.vlan_tci = 7;
		rs.epoch = epoch;
		/* The run's time bound: the frames at the rate, plus slack. */
		deadline = t0 + (uint64_t)(duration * 1e9);
		if (pps && n * 1000000000ULL / pps + 5000000000ULL > (uint64_t)(duration * 1e9))
			deadline = t0 + n * 1000000000ULL / pps + 5000000000ULL;
		if (use_xdpgen) {
			pin(tx.cpu);
			tx_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			if (send_xdpgen(&tx, &spec, &flows, n, pps, deadline, rs.trial, epoch, &sent, err, sizeof(err)))
				goto out;
			tx_end = clock_mono_ns();
			tx_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - tx_cpu;
			goto drain;
		}
		unsigned int ns = port_tx_slots(tx.port);

		payload_off = calloc(ns, sizeof(*payload_off));
		lens = calloc(ns, sizeof(*lens));
		if (!payload_off || !lens) {
			snprintf(err, sizeof(err), "out of memory");
			goto out;
		}
		for (unsigned int i = 0; i < ns; i++) {
			if (frame_build(&spec, port_tx_slot(tx.port, i), spec.size, &lay, err, sizeof(err)))
				goto out;
			payload_off[i] = lay.payload_off;
			lens[i] = lay.len;
		}
		pin(tx.cpu);
		tx_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		sent = send_frames(tx.port, n, pps, deadline, rs.trial, epoch, payload_off, lens);
		tx_end = clock_mono_ns();
		tx_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID) - tx_cpu;
		/* Every frame completed, boundedly. */
		for (int i = 0; i < 2000 && port_tx_pending(tx.port); i++)
			usleep(1000);
drain:
		if (rx.port) {
			uint64_t until = clock_mono_ns() + (uint64_t)drain_ms * 1000000ULL;

			while (__atomic_load_n(&rs.valid, __ATOMIC_RELAXED) < sent && clock_mono_ns() < until && !interrupted)
				usleep(1000);
		}
	} else {
		uint64_t until = t0 + (uint64_t)(duration * 1e9);

		while (clock_mono_ns() < until && !interrupted)
			usleep(10000);
	}
	t1 = clock_mono_ns();
	rc = 0;
out:
	if (th_started) {
		rs.stop = 1;
		pthread_join(th, NULL);
	}
	if (!rc) {
		double tx_s = tx_end > t0 ? (double)(tx_end - t0) / 1e9 : 0;
		double rx_s = rs.last_ns > rs.first_ns ? (double)(rs.last_ns - rs.first_ns) / 1e9 : 0;

		printf("{\"sent\":%lu,\"received\":%lu,\"frames\":%lu,\"duplicates\":%lu,\"other_trial\":%lu,"
		       "\"not_test\":%lu,\"bad_tag\":%lu,\"ts_changes\":%lu,\"latency_bad\":%lu",
		       (unsigned long)sent, (unsigned long)rs.valid, (unsigned long)rs.frames,
		       (unsigned long)rs.dup, (unsigned long)rs.other_trial, (unsigned long)rs.not_test,
		       (unsigned long)rs.bad_tag, (unsigned long)rs.ts_changes, (unsigned long)rs.lat_bad);
		if (rs.valid > rs.lat_bad && rs.epoch)
			printf(",\"latency_us\":{\"min\":%.1f,\"avg\":%.1f,\"max\":%.1f}", rs.lat_min / 1e3,
			       (double)rs.lat_sum / (double)(rs.valid - rs.lat_bad) / 1e3, rs.lat_max / 1e3);
		printf(",\"tx_pps\":%.0f,\"rx_pps\":%.0f,\"elapsed_s\":%.3f", tx_s > 0 ? sent / tx_s : 0,
		       rx_s > 0 ? (rs.valid - 1) / rx_s : 0, (double)(t1 - t0) / 1e9);
		/* CPU time of the sending and receiving threads (user + system),
		 * for cost per frame on a machine shared with other work. */
		printf(",\"tx_cpu_s\":%.3f,\"rx_cpu_s\":%.3f", tx_cpu / 1e9, rs.cpu_ns / 1e9);
		print_stats("tx_stats", tx.port);
		print_stats("rx_stats", rx.port);
		printf("}\n");
	} else {
		fprintf(stderr, "xskcheck: %s\n", err);
	}
	port_close(tx.port);
	port_close(rx.port);
	if (tx.nsfd >= 0)
		close(tx.nsfd);
	if (rx.nsfd >= 0)
		close(rx.nsfd);
	free(rs.seen);
	free(payload_off);
	free(lens);
	return rc;
}
