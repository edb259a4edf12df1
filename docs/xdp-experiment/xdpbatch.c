/* Experiment: XDP live-frames generator (BPF_PROG_RUN + BPF_F_TEST_XDP_LIVE_FRAMES). */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <net/if.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/if_link.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

static volatile sig_atomic_t stop;
static void on_sig(int s) { (void)s; stop = 1; }

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int libbpf_print(enum libbpf_print_level l, const char *f, va_list ap)
{
	if (l == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, f, ap);
}

static struct bpf_map *find_map(struct bpf_object *o, const char *suffix)
{
	struct bpf_map *m;
	bpf_object__for_each_map(m, o) {
		const char *n = bpf_map__name(m);
		size_t a = strlen(n), b = strlen(suffix);
		if (a >= b && !strcmp(n + a - b, suffix))
			return m;
	}
	return NULL;
}

struct rodata { uint32_t tx_ifindex, tag_off; uint64_t epoch; uint16_t trial, stream; uint8_t tmpl[64]; uint32_t tmpl_len, tmpl_sum; };

/* Opens obj, sets .rodata, autoloads only prog, loads. */
static struct bpf_object *load(const char *obj, const char *prog, struct rodata *rd,
			       struct bpf_program **out)
{
	struct bpf_object *o = bpf_object__open_file(obj, NULL);
	struct bpf_program *p;
	int err;

	if (!o) { fprintf(stderr, "open %s: %s\n", obj, strerror(errno)); exit(1); }
	bpf_object__for_each_program(p, o)
		bpf_program__set_autoload(p, !strcmp(bpf_program__name(p), prog));
	*out = bpf_object__find_program_by_name(o, prog);
	if (!*out) { fprintf(stderr, "no program %s\n", prog); exit(1); }
	if (rd) {
		struct bpf_map *m = find_map(o, ".rodata");
		size_t sz;
		char *v = bpf_map__initial_value(m, &sz);
		/* layout from gen.bpf.c: u32 tx_ifindex; u32 tag_off; u64 epoch; u16 trial, stream */
		memcpy(v, &rd->tx_ifindex, 4);
		memcpy(v + 4, &rd->tag_off, 4);
		memcpy(v + 8, &rd->epoch, 8);
		memcpy(v + 16, &rd->trial, 2);
		memcpy(v + 18, &rd->stream, 2);
		memcpy(v + 0x18, rd->tmpl, 64);
		memcpy(v + 0x58, &rd->tmpl_len, 4);
		memcpy(v + 0x5c, &rd->tmpl_sum, 4);
		if (sz != 0x60) { fprintf(stderr, ".rodata size %zu: layout changed\n", sz); exit(1); }
	}
	err = bpf_object__load(o);
	if (err) { fprintf(stderr, "load: %s\n", strerror(-err)); exit(1); }
	return o;
}

static uint64_t read_cnt(struct bpf_object *o)
{
	struct bpf_map *m = bpf_object__find_map_by_name(o, "cnt");
	int ncpu = libbpf_num_possible_cpus();
	uint64_t v[256] = {0}, t = 0;
	uint32_t k = 0;
	if (!m || bpf_map_lookup_elem(bpf_map__fd(m), &k, v))
		return (uint64_t)-1;
	for (int i = 0; i < ncpu; i++) t += v[i];
	return t;
}

/* gen hold DEV PROG [secs]: attach natively, wait for a signal, print count, detach */
static int cmd_hold(int argc, char **argv)
{
	struct bpf_program *p;
	struct bpf_object *o;
	int ifx, err, secs = argc > 3 ? atoi(argv[3]) : 60;

	if (argc < 3) return 2;
	ifx = if_nametoindex(argv[1]);
	if (!ifx) { fprintf(stderr, "%s: no such device\n", argv[1]); return 1; }
	o = load("gen.bpf.o", argv[2], NULL, &p);
	err = bpf_xdp_attach(ifx, bpf_program__fd(p), XDP_FLAGS_DRV_MODE, NULL);
	if (err) { fprintf(stderr, "attach %s: %s\n", argv[1], strerror(-err)); return 1; }
	fprintf(stderr, "hold: %s on %s attached\n", argv[2], argv[1]);
	for (int i = 0; i < secs * 10 && !stop; i++)
		usleep(100000);
	printf("%s %s count=%llu\n", argv[1], argv[2], (unsigned long long)read_cnt(o));
	err = bpf_xdp_detach(ifx, XDP_FLAGS_DRV_MODE, NULL);
	if (err) fprintf(stderr, "detach %s: %s\n", argv[1], strerror(-err));
	bpf_object__close(o);
	return 0;
}

static uint16_t csum16(const uint8_t *b, size_t n, uint32_t s)
{
	for (size_t i = 0; i + 1 < n; i += 2) s += (b[i] << 8) | b[i + 1];
	if (n & 1) s += b[n - 1] << 8;
	while (s >> 16) s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static void parse_mac(const char *s, uint8_t *m)
{
	if (sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", m, m + 1, m + 2, m + 3, m + 4, m + 5) != 6) {
		fprintf(stderr, "bad mac %s\n", s); exit(2);
	}
}

static int build_frame(uint8_t *f, const char *smac, const char *dmac, const char *sip, const char *dip)
{
	const int len = 60;
	uint8_t *ip = f + 14, *udp = f + 34, *tag = f + 42, ph[12];
	uint32_t s;

	memset(f, 0, len);
	parse_mac(dmac, f); parse_mac(smac, f + 6);
	f[12] = 0x08; f[13] = 0x00;
	ip[0] = 0x45; ip[2] = 0; ip[3] = 46; ip[6] = 0x40; ip[8] = 64; ip[9] = 17;
	inet_pton(AF_INET, sip, ip + 12); inet_pton(AF_INET, dip, ip + 16);
	s = csum16(ip, 20, 0); ip[10] = s >> 8; ip[11] = s;
	udp[0] = 1024 >> 8; udp[1] = 1024 & 0xff; udp[2] = 0; udp[3] = 9; udp[4] = 0; udp[5] = 26;
	tag[0] = 0x57; tag[1] = 0xB1;	/* rest zero; BPF rewrites it */
	memcpy(ph, ip + 12, 8); ph[8] = 0; ph[9] = 17; ph[10] = 0; ph[11] = 26;
	{
		uint32_t acc = 0;
		for (int i = 0; i < 12; i += 2) acc += (ph[i] << 8) | ph[i + 1];
		s = csum16(udp, 26, acc);
		if (!s) s = 0xffff;
		udp[6] = s >> 8; udp[7] = s;
	}
	return len;
}

static uint64_t bss_u64(struct bpf_object *o, int i)
{
	uint64_t b[4] = {0}; uint32_t z = 0;
	bpf_map_lookup_elem(bpf_map__fd(find_map(o, ".bss")), &z, b);
	return b[i];
}
/* paced run over once the BPF clock passed end_ns */
static int seq_done(struct bpf_object *o) { uint64_t e = bss_u64(o, 3); return e > 1000000000000ull && now_ns() >= e; }

static int cmd_run(int argc, char **argv)
{
	const char *dev = "g0", *prog = "gen_tx", *redir = NULL, *smac = NULL, *dmac = NULL;
	const char *sip = "198.18.0.1", *dip = "198.19.0.2";
	double secs = 3, rate = 0;
	unsigned batch = 64, chunk = 65536, calls_per_clock = 1;
	int c, ifx;
	struct rodata rd = { .tag_off = 42, .trial = 1, .stream = 1 };
	struct bpf_program *p;
	struct bpf_object *o;
	uint8_t frame[128];
	int len;

	optind = 1;
	while ((c = getopt(argc, argv, "d:p:r:S:D:s:t:n:b:c:R:k:")) != -1) {
		switch (c) {
		case 'd': dev = optarg; break;
		case 'p': prog = optarg; break;
		case 'r': redir = optarg; break;
		case 'S': smac = optarg; break;
		case 'D': dmac = optarg; break;
		case 's': sip = optarg; break;
		case 't': dip = optarg; break;
		case 'n': secs = atof(optarg); break;
		case 'b': batch = atoi(optarg); break;
		case 'c': chunk = atoi(optarg); break;
		case 'R': rate = atof(optarg); break;
		case 'k': calls_per_clock = atoi(optarg); break;
		default: return 2;
		}
	}
	if (!smac || !dmac) { fprintf(stderr, "need -S smac -D dmac\n"); return 2; }
	if (secs > 10) secs = 10;	/* bounded runs */
	ifx = if_nametoindex(dev);
	if (!ifx) { fprintf(stderr, "%s: no such device\n", dev); return 1; }
	rd.tx_ifindex = redir ? if_nametoindex(redir) : ifx;
	rd.epoch = now_ns();
	len = build_frame(frame, smac, dmac, sip, dip);
	memcpy(rd.tmpl, frame, len);
	rd.tmpl_len = len;
	{	/* partial sum: pseudo-header + UDP header (check 0) + zero tag, big-endian words */
		uint32_t a = 0;
		uint8_t *ip = frame + 14, *udp = frame + 34;
		for (int i = 12; i < 20; i += 2) a += (ip[i] << 8) | ip[i + 1];
		a += 17 + 26;
		a += (udp[0] << 8 | udp[1]) + (udp[2] << 8 | udp[3]) + (udp[4] << 8 | udp[5]);
		while (a >> 16) a = (a & 0xffff) + (a >> 16);
		rd.tmpl_sum = htons((uint16_t)a);	/* native-endian read of those bytes */
		memset(rd.tmpl + 42, 0, 18); rd.tmpl[40] = rd.tmpl[41] = 0;
		if (strcmp(prog, "gen_tmpl_tag") && strcmp(prog, "gen_paced")) memcpy(rd.tmpl, frame, len); /* others: full valid frame */
	}
	o = load("gen.bpf.o", prog, &rd, &p);

	struct xdp_md ctx_in = { .data_end = len, .ingress_ifindex = ifx, .rx_queue_index = 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		.data_in = frame, .data_size_in = len,
		.ctx_in = &ctx_in, .ctx_size_in = sizeof(ctx_in),
		.flags = BPF_F_TEST_XDP_LIVE_FRAMES,
		.batch_size = batch);
	int fd = bpf_program__fd(p);
	int paced = !strcmp(prog, "gen_paced");
	if (paced) {
		uint64_t b[4] = { 0, 0, (uint64_t)(1e9 * 1024 / rate), (uint64_t)(secs * 1e9) };
		uint32_t z = 0;
		bpf_map_update_elem(bpf_map__fd(find_map(o, ".bss")), &z, b, 0);
		rate = 0;	/* user side: just keep calling until the end */
	}
	uint64_t sent = 0, calls = 0, t0 = now_ns(), end = t0 + (uint64_t)(secs * 1e9), t = t0, idle = 0;
	int err = 0;

	while (!stop) {
		unsigned n = chunk;
		if (rate > 0) {
			double due = rate * (double)(t - t0) / 1e9 - (double)sent;
			if (due < 1) {
				/* ahead of schedule: spin on the clock */
				idle++;
				t = now_ns();
				if (t >= end) break;
				continue;
			}
			if (due < n) n = (unsigned)due;
		}
		for (unsigned k = 0; k < calls_per_clock; k++) {
			opts.repeat = n;
			err = bpf_prog_test_run_opts(fd, &opts);
			if (err) { fprintf(stderr, "prog_run: %d %s (retval %u)\n", err, strerror(-err), opts.retval); goto out; }
			sent += n; calls++;
			if (paced && seq_done(o)) goto out;
		}
		t = now_ns();
		if (t >= end + (paced ? 1000000000ull : 0)) break;
	}
out:;
	double el = (double)(now_ns() - t0) / 1e9;
	uint64_t seq = 0;
	struct bpf_map *bss = find_map(o, ".bss");
	uint32_t k0 = 0;
	if (bss) bpf_map_lookup_elem(bpf_map__fd(bss), &k0, &seq);
	if (paced) sent = seq;
	printf("prog=%s batch=%u chunk=%u rate=%.0f sent=%llu calls=%llu elapsed=%.3f pps=%.0f seq_next=%llu spins=%llu\n",
	       prog, batch, chunk, rate, (unsigned long long)sent, (unsigned long long)calls, el,
	       sent / el, (unsigned long long)seq, (unsigned long long)idle);
	bpf_object__close(o);
	return err ? 1 : 0;
}

int main(int argc, char **argv)
{
	signal(SIGINT, on_sig);
	signal(SIGTERM, on_sig);
	libbpf_set_print(libbpf_print);
	if (argc > 1 && !strcmp(argv[1], "hold")) return cmd_hold(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "run")) return cmd_run(argc - 1, argv + 1);
	fprintf(stderr, "usage: gen hold DEV PROG [secs] | gen run -S smac -D dmac [-d dev] [-p prog] [-r redirdev] [-n secs] [-b batch] [-c chunk] [-R pps] [-k calls_per_clock]\n");
	return 2;
}
