#include "lab/lab.h"
#include "lab/lab_impl.h"
#include "lab/lab_xdp.h"
#include "lab/vm_lab.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "os/fs.h"
#include "os/netns.h"
#include "os/nft.h"
#include "os/procstat.h"

static const char *const role_suffix[LAB_NROLES] = { "gen", "dut", "sink" };

/* 2001:2:0:<net>::<host> */
#define V6(net, host) { 0x20, 0x01, 0, 0x02, 0, 0, 0, net, 0, 0, 0, 0, 0, 0, 0, host }

/* Locally administered MACs: 02 then "wr", then path, pair and end.
 * Path p's networks are 198.18.p.0/24 and 198.19.p.0/24, and IPv6 nets
 * 1 + 2p and 2 + 2p; its DUT ports are dut<2p> (ingress) and dut<2p+1>. */
#define LAB_PATH(p, din, dout) { \
	[LAB_GEN0]  = { "gen",  "gen" #p,     LAB_GEN,  { 0x02, 0x77, 0x72, p, 0, 1 }, { 198, 18, p, 1 }, 24, \
			V6(1 + 2 * (p), 1) }, \
	[LAB_DUT0]  = { "dut",  "dut" #din,   LAB_DUT,  { 0x02, 0x77, 0x72, p, 0, 2 }, { 198, 18, p, 2 }, 24, \
			V6(1 + 2 * (p), 2) }, \
	[LAB_DUT1]  = { "dut",  "dut" #dout,  LAB_DUT,  { 0x02, 0x77, 0x72, p, 1, 1 }, { 198, 19, p, 1 }, 24, \
			V6(2 + 2 * (p), 1) }, \
	[LAB_SINK0] = { "sink", "sink" #p,    LAB_SINK, { 0x02, 0x77, 0x72, p, 1, 2 }, { 198, 19, p, 2 }, 24, \
			V6(2 + 2 * (p), 2) }, \
}

static const struct lab_addr lab_paths[LAB_PORTS_MAX][LAB_NIFS] = {
	LAB_PATH(0, 0, 1), LAB_PATH(1, 2, 3), LAB_PATH(2, 4, 5), LAB_PATH(3, 6, 7),
};
_Static_assert(LAB_PORTS_MAX == 4, "one LAB_PATH line per path");

/* Frames of a packet-rate shaper count as this many bytes each. */
#define SHAPE_PKT_BYTES 1000
#define SHAPE_BURST_FRAMES 32
/* A packet-rate shaper is a DUT of known capacity even on a host that
 * holds its CPU for moments. Its queue takes what the DUT's receive ring
 * (256 frames in NAPI mode) hands it at once after such a hold, and its
 * bucket the tokens of the time the CPU was away (6.4 ms at 20 kpps):
 * with a bucket of 32 and a queue of 64, a 20 kpps shape passed 18.5
 * kframes/s and lost 19% at 18.5 kpps while the host held the DUT's vCPU
 * for up to 12 ms. A trial of T seconds can pass (bucket + queue) / T
 * above the shape: 448 frames/s in 1 s trials, 2.2% of 20 kpps. */
#define SHAPE_PPS_BURST_FRAMES 128
#define SHAPE_PPS_LIMIT_FRAMES 320
/* A bit-rate shaper's bucket and queue: 32 and 64 frames of the largest size. */
#define SHAPE_LIMIT_FRAMES 64
#define SHAPE_MAX_FRAME 1538	/* 1518 + preamble and gap */

const struct lab_addr *lab_if(enum lab_ifx i)
{
	return &lab_paths[0][i];
}

const struct lab_addr *lab_path_if(unsigned int p, enum lab_ifx i)
{
	return p < LAB_PORTS_MAX && (unsigned int)i < LAB_NIFS ? &lab_paths[p][i] : NULL;
}

/* Path p's interface i in the flat per-interface arrays. */
#define PIX(p, i) ((p) * LAB_NIFS + (i))

void lab_ns_name(const char *prefix, enum lab_role r, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s", prefix, role_suffix[r]);
}

static const char *const placement_names[] = { "bound", "split", "free", "other" };

const char *lab_placement_name(enum lab_placement p)
{
	return placement_names[p];
}

int lab_placement_parse(const char *s, enum lab_placement *p)
{
	for (int i = PLACE_BOUND; i <= PLACE_FREE; i++)
		if (!strcmp(s, placement_names[i])) {
			*p = (enum lab_placement)i;
			return 0;
		}
	return -EINVAL;
}

int lab_prefix_check(const char *prefix, char *err, size_t errlen)
{
	size_t n = strlen(prefix);
	const char *p = prefix;

	for (; n && n <= LAB_PREFIX_MAX && *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
			break;
	if (n && n <= LAB_PREFIX_MAX && !*p)
		return 0;
	snprintf(err, errlen, "--prefix '%.40s': use 1 to %d letters, digits, '-', '_' or '.'", prefix, LAB_PREFIX_MAX);
	return -EINVAL;
}

const char *lab_prefix_arg(const char *prefix, char *buf, size_t len)
{
	if (!strcmp(prefix, LAB_PREFIX_DEFAULT))
		return "";
	snprintf(buf, len, " --prefix %s", prefix);
	return buf;
}


int lab_spec_check(struct lab_spec *s, char *err, size_t errlen)
{
	struct cpuset online;
	char list[256];
	int rc;

	if ((rc = lab_prefix_check(s->prefix, err, errlen)))
		return rc;
	if ((rc = procstat_online(NULL, &online, err, errlen)))
		return rc;
	cpuset_format_list(&online, list, sizeof(list));
	if (s->kernel[0]) {
		unsigned int n = s->vcpus ? s->vcpus : 1;

		/* The VM's own CPUs, 0..n-1, are the DUT's; the host's are QEMU's. */
		if (s->placement != PLACE_BOUND && n < 2) {
			snprintf(err, errlen, "--placement %s needs a VM of two vCPUs or more: give --dut-cpus 2",
				 lab_placement_name(s->placement));
			return -EINVAL;
		}
		if (s->no_xdp) {
			snprintf(err, errlen, "--no-xdp is the namespace lab's: a VM's NICs are virtio-net, whose "
				 "driver drops from its own receive ring");
			return -EINVAL;
		}
		cpuset_zero(&s->dut_cpus);
		for (unsigned int k = 0; k < n; k++)
			cpuset_add(&s->dut_cpus, k);
	} else if (!cpuset_count(&s->dut_cpus)) {
		int last = -1;

		for (int c = cpuset_next(&online, 0); c >= 0; c = cpuset_next(&online, (unsigned)c + 1))
			last = c;
		cpuset_add(&s->dut_cpus, (unsigned)last);
	} else if (!cpuset_subset(&s->dut_cpus, &online)) {
		struct cpuset bad;

		cpuset_diff(&bad, &s->dut_cpus, &online);
		snprintf(err, errlen, "--dut-cpus: CPU %d is not online (online: %s)",
			 cpuset_next(&bad, 0), list);
		return -EINVAL;
	}
	if (s->placement == PLACE_FREE && cpuset_count(&s->dut_cpus) < 2) {
		snprintf(err, errlen, "--placement free spreads over several DUT CPUs: give --dut-cpus with two or more "
			 "(online: %s); on one it is bound", list);
		return -EINVAL;
	}
	if (s->placement == PLACE_SPLIT && cpuset_count(&s->dut_cpus) < 2) {
		snprintf(err, errlen, "--placement split needs two DUT CPUs, one per direction: give --dut-cpus (online: %s)", list);
		return -EINVAL;
	}
	if (s->mtu && (s->mtu < LAB_MTU_MIN || s->mtu > LAB_MTU_MAX)) {
		snprintf(err, errlen, "--mtu %u: must be %d..%d (9000 carries 9018-byte frames)", s->mtu,
			 LAB_MTU_MIN, LAB_MTU_MAX);
		return -EINVAL;
	}
	if (!s->ports)
		s->ports = 1;
	if (s->ports > LAB_PORTS_MAX) {
		snprintf(err, errlen, "--ports %u: must be 1..%d", s->ports, LAB_PORTS_MAX);
		return -EINVAL;
	}
	if (s->queues > LAB_QUEUES_MAX) {
		snprintf(err, errlen, "--queues %u: must be 1..%d", s->queues, LAB_QUEUES_MAX);
		return -EINVAL;
	}
	if (s->rules > NFT_RULES_MAX) {
		snprintf(err, errlen, "--rules %u: must be 0..%d", s->rules, NFT_RULES_MAX);
		return -EINVAL;
	}
	if (s->shape && s->shape_rate.kind == RATE_PCT) {
		snprintf(err, errlen, "--shape: give the DUT's capacity in pps or bit/s (e.g. 50kpps, 100Mbit), not %% of a line rate the lab does not have");
		return -EINVAL;
	}
	if (s->shape && s->shape_rate.kind == RATE_PPS &&
	    (s->shape_rate.value < 1 || s->shape_rate.value * SHAPE_PKT_BYTES > 1e15)) {
		snprintf(err, errlen, "--shape: a frame rate must be 1 pps to 1 Tpps");
		return -EINVAL;
	}
	if (s->shape && s->shape_rate.kind == RATE_BPS && s->shape_rate.value < 8000) {
		snprintf(err, errlen, "--shape: a bit rate must be at least 8 kbit");
		return -EINVAL;
	}
	return 0;
}

/* ---- building ---- */

void lab_ctx_close(struct lab_ctx *c)
{
	for (int r = 0; r < LAB_NROLES; r++) {
		nl_destroy(c->nl[r]);
		c->nl[r] = NULL;
		if (c->nsfd[r] >= 0)
			close(c->nsfd[r]);
		c->nsfd[r] = -1;
	}
}

int lab_ctx_open(struct lab_ctx *c, const char *prefix, bool all, char *err, size_t errlen)
{
	char name[NETNS_NAME_MAX];

	for (int r = 0; r < LAB_NROLES; r++) {
		c->nsfd[r] = -1;
		c->nl[r] = NULL;
	}
	for (int r = 0; r < LAB_NROLES; r++) {
		lab_ns_name(prefix, (enum lab_role)r, name, sizeof(name));
		c->nsfd[r] = netns_open(name);
		if (c->nsfd[r] < 0) {
			if (!all)
				continue;
			snprintf(err, errlen, "network namespace %s is missing", name);
			return -ENOENT;
		}
		c->nl[r] = nl_create(c->nsfd[r], err, errlen);
		if (!c->nl[r])
			return -EIO;
	}
	return 0;
}

int lab_nl_err(int rc, const char *what, const char *ifname, char *err, size_t errlen)
{
	if (rc)
		snprintf(err, errlen, "%s %s: %s", what, ifname, strerror(-rc));
	return rc;
}

/* A veth pair a (in a's namespace) <-> b: keep it when whole, else rebuild. */
static int ensure_pair(struct lab_ctx *c, const struct lab_addr *A, const struct lab_addr *B, char *err, size_t errlen)
{
	struct nl *na = c->nl[A->role], *nb = c->nl[B->role];
	struct link_info la, lb;
	unsigned int queues = c->spec->queues ? c->spec->queues : 1;
	bool ha = nl_link_get(na, A->ifname, &la) == 0;
	bool hb = nl_link_get(nb, B->ifname, &lb) == 0;
	int rc;

	if (ha && hb && !strcmp(la.kind, "veth") && !strcmp(lb.kind, "veth") &&
	    la.peer_ifindex == lb.ifindex && lb.peer_ifindex == la.ifindex &&
	    !memcmp(la.mac, A->mac, 6) && !memcmp(lb.mac, B->mac, 6) &&
	    la.num_rx_queues == queues && lb.num_rx_queues == queues &&
	    la.num_tx_queues == queues && lb.num_tx_queues == queues)
		return 0;
	/* A link born where IPv6 forwarding is on joins the all-routers group
	 * at once, before its multicast flag can be cleared, and reports it
	 * with MLD ever after: create the links with forwarding off. */
	for (int k = 0; k < 2; k++) {
		int saved;

		if (!netns_enter(c->nsfd[k ? B->role : A->role], &saved)) {
			fs_write(NULL, "/proc/sys/net/ipv6/conf/default/forwarding", "0");
			netns_leave(&saved);
		}
	}
	if (ha && (rc = nl_link_del(na, la.ifindex)))
		return lab_nl_err(rc, "cannot delete stale link", A->ifname, err, errlen);
	if (hb && (rc = nl_link_del(nb, lb.ifindex)))
		return lab_nl_err(rc, "cannot delete stale link", B->ifname, err, errlen);
	rc = nl_veth_add(na, A->ifname, A->mac, B->ifname, B->mac, c->nsfd[B->role], queues);
	return lab_nl_err(rc, "cannot create veth pair", A->ifname, err, errlen);
}

int lab_write_cpus(const char *ifname, const struct cpuset *cpus, char *err, size_t errlen)
{
	char dirpath[256], path[600], mask[300];
	struct dirent *e;
	DIR *d;
	int rc = 0;

	cpuset_format_mask(cpus, mask, sizeof(mask));
	snprintf(dirpath, sizeof(dirpath), "/sys/class/net/%s/queues", ifname);
	d = opendir(dirpath);
	if (!d) {
		snprintf(err, errlen, "cannot open %s: %s", dirpath, strerror(errno));
		return -errno;
	}
	while (!rc && (e = readdir(d))) {
		if (strncmp(e->d_name, "rx-", 3))
			continue;
		snprintf(path, sizeof(path), "%s/%s/rps_cpus", dirpath, e->d_name);
		rc = fs_write_err(path, mask, err, errlen);
	}
	closedir(d);
	return rc;
}

int lab_write_napi_cpus(const char *ifname, const struct cpuset *cpus, char *err, size_t errlen)
{
	char path[256], alias[300] = "";

	if (cpus) {
		snprintf(alias, sizeof(alias), NAPI_ALIAS);
		cpuset_format_mask(cpus, alias + strlen(alias), sizeof(alias) - strlen(alias));
	}
	snprintf(path, sizeof(path), "/sys/class/net/%s/ifalias", ifname);
	return fs_write_err(path, cpus ? alias : "\n", err, errlen);
}

/* Each path is "<path>", with "IF" replaced by ifname. */
int lab_write_sysctls(const struct sysctl_kv *kv, size_t n, const char *ifname, char *err, size_t errlen)
{
	char path[256];
	int rc;

	for (size_t i = 0; i < n; i++) {
		const char *at = strstr(kv[i].path, "/IF/");

		if (at)
			snprintf(path, sizeof(path), "/proc/sys/net/%.*s/%s/%s",
				 (int)(at - kv[i].path), kv[i].path, ifname, at + 4);
		else
			snprintf(path, sizeof(path), "/proc/sys/net/%s", kv[i].path);
		rc = fs_write(NULL, path, kv[i].value);
		if (rc == -ENOENT && kv[i].optional)
			continue;
		if (rc)
			return fs_write_err(path, kv[i].value, err, errlen);
	}
	return 0;
}

struct ns_job {
	struct lab_ctx *ctx;
	enum lab_role role;
};

/* Runs inside one lab namespace: sysctls, RPS masks, firewall rules. */
static int ns_configure(void *arg, char *err, size_t errlen)
{
	static const struct sysctl_kv common[] = {
		{ "ipv6/conf/all/disable_ipv6", "1", true },
		{ "ipv6/conf/default/disable_ipv6", "1", true },
		{ "ipv4/conf/all/rp_filter", "0", false },
		{ "ipv4/conf/default/rp_filter", "0", false },
		{ "ipv4/conf/all/send_redirects", "0", false },
		{ "ipv4/conf/all/accept_redirects", "0", false },
	};
	/* Endpoints never answer test frames: no port-unreachable flood
	 * travelling back through the DUT into the counters. */
	static const struct sysctl_kv endpoint[] = {
		{ "ipv4/icmp_msgs_per_sec", "0", false },
		{ "ipv4/icmp_msgs_burst", "0", false },
		{ "ipv4/ip_forward", "0", false },
	};
	static const struct sysctl_kv router[] = {
		{ "ipv4/ip_forward", "1", false },
	};
	/* IPv6 on the lab's links only, and quiet: no link-local address, no
	 * DAD, no router solicitations or advertisements taken. */
	static const struct sysctl_kv per_if[] = {
		{ "ipv6/conf/IF/addr_gen_mode", "1", true },
		{ "ipv6/conf/IF/accept_dad", "0", true },
		{ "ipv6/conf/IF/dad_transmits", "0", true },
		{ "ipv6/conf/IF/accept_ra", "0", true },
		{ "ipv6/conf/IF/router_solicitations", "0", true },
		{ "ipv6/conf/IF/disable_ipv6", "0", true },
		{ "ipv4/conf/IF/rp_filter", "0", false },
		{ "ipv4/conf/IF/send_redirects", "0", false },
	};
	static const struct sysctl_kv router6[] = {
		{ "ipv6/conf/all/forwarding", "1", true },
	};
	struct ns_job *j = arg;
	int rc;

	if ((rc = lab_write_sysctls(common, sizeof(common) / sizeof(common[0]), "", err, errlen)))
		return rc;
	if (j->role == LAB_DUT)
		rc = lab_write_sysctls(router, sizeof(router) / sizeof(router[0]), "", err, errlen);
	else
		rc = lab_write_sysctls(endpoint, sizeof(endpoint) / sizeof(endpoint[0]), "", err, errlen);
	if (rc)
		return rc;
	for (unsigned int p = 0; p < j->ctx->ports; p++)
		for (int i = 0; i < LAB_NIFS; i++) {
			const struct lab_addr *a = &lab_paths[p][i];

			if (a->role != j->role)
				continue;
			if ((rc = lab_write_sysctls(per_if, sizeof(per_if) / sizeof(per_if[0]), a->ifname, err, errlen)))
				return rc;
			if ((rc = lab_write_cpus(a->ifname, &j->ctx->rps[PIX(p, i)], err, errlen)))
				return rc;
			/* skb mode until dut_xdp says otherwise */
			if (j->role == LAB_DUT && (rc = lab_write_napi_cpus(a->ifname, NULL, err, errlen)))
				return rc;
		}
	/* After the links lost IFF_MULTICAST, or the router would join the
	 * all-routers groups and report them with MLD. */
	if (j->role == LAB_DUT &&
	    (rc = lab_write_sysctls(router6, sizeof(router6) / sizeof(router6[0]), "", err, errlen)))
		return rc;
	if (j->role == LAB_DUT) {
		rc = nft_null_rules_set(j->ctx->spec->rules, err, errlen);
		if (rc == -EIO && !j->ctx->spec->rules)
			rc = 0; /* no nftables here and none wanted */
	}
	return rc;
}

/* Every path alike: the endpoints on the tester's CPUs; bound puts every
 * DUT port on the first DUT CPU, split every ingress port on the first
 * and every egress port on the second, free every port on all of them. */
static void plan_rps(struct lab_ctx *c)
{
	const struct lab_spec *s = c->spec;
	struct cpuset online, tester, first, second;
	char e[64];

	if (procstat_online(NULL, &online, e, sizeof(e)))
		cpuset_zero(&online);
	cpuset_diff(&tester, &online, &s->dut_cpus);
	if (!cpuset_count(&tester))
		tester = online;
	cpuset_zero(&first);
	cpuset_add(&first, (unsigned)cpuset_nth(&s->dut_cpus, 0));
	second = first;
	if (s->placement == PLACE_SPLIT) {
		cpuset_zero(&second);
		cpuset_add(&second, (unsigned)cpuset_nth(&s->dut_cpus, 1));
	}
	for (unsigned int p = 0; p < LAB_PORTS_MAX; p++) {
		c->rps[PIX(p, LAB_GEN0)] = tester;
		c->rps[PIX(p, LAB_SINK0)] = tester;
		c->rps[PIX(p, LAB_DUT0)] = s->placement == PLACE_FREE ? s->dut_cpus : first;
		c->rps[PIX(p, LAB_DUT1)] = s->placement == PLACE_FREE ? s->dut_cpus : second;
	}
}

static int offloads_off(struct lab_ctx *c, const struct lab_addr *a, char *err, size_t errlen)
{
	int saved = -1, sock, rc;

	if (c->nsfd[a->role] >= 0 && (rc = netns_enter(c->nsfd[a->role], &saved)))
		return lab_nl_err(rc, "cannot enter namespace of", a->ifname, err, errlen);
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (saved >= 0)
		netns_leave(&saved);
	if (sock < 0)
		return lab_nl_err(-errno, "cannot open socket for", a->ifname, err, errlen);
	rc = ethtool_offloads_off(sock, a->ifname);
	close(sock);
	return lab_nl_err(rc, "cannot turn offloads off on", a->ifname, err, errlen);
}

/* NOARP and no multicast: with permanent neighbours nothing needs ARP or
 * neighbour discovery, and without multicast no MLD report is ever sent. */
static int quiet_links(struct lab_ctx *c, char *err, size_t errlen)
{
	for (unsigned int k = 0; k < c->ports * LAB_NIFS; k++) {
		const struct lab_addr *a = &lab_paths[k / LAB_NIFS][k % LAB_NIFS];
		struct nl *nl = c->nl[a->role];
		struct link_info li;
		int rc;

		if (!(c->roles & LAB_ROLE(a->role)))
			continue;
		if ((rc = nl_link_get(nl, a->ifname, &li)) ||
		    (rc = nl_link_flags(nl, li.ifindex, IFF_NOARP, IFF_MULTICAST)))
			return lab_nl_err(rc, "cannot set the flags of", a->ifname, err, errlen);
	}
	return 0;
}

/* Path p's static routes and permanent neighbours (its links up, their
 * indexes in li): no ARP during a trial. */
static int path_routes(struct lab_ctx *c, unsigned int p, const struct link_info *li, char *err, size_t errlen)
{
	const struct lab_addr *P = lab_paths[p];
	uint8_t net_gen[4] = { 198, 18, (uint8_t)p, 0 }, net_sink[4] = { 198, 19, (uint8_t)p, 0 };
	uint8_t net6_gen[16], net6_sink[16];
	int rc;

	/* the /64s: the addresses with the host part cleared */
	memcpy(net6_gen, P[LAB_GEN0].ip6, 16);
	memcpy(net6_sink, P[LAB_SINK0].ip6, 16);
	net6_gen[15] = net6_sink[15] = 0;
	rc = 0;
	if (c->roles & LAB_ROLE(LAB_GEN)) {
		rc = nl_route_add(c->nl[LAB_GEN], AF_INET, net_sink, 24, P[LAB_DUT0].ip, li[LAB_GEN0].ifindex);
		if (!rc)
			rc = nl_route_add(c->nl[LAB_GEN], AF_INET6, net6_sink, 64, P[LAB_DUT0].ip6, li[LAB_GEN0].ifindex);
	}
	if (!rc && (c->roles & LAB_ROLE(LAB_SINK))) {
		rc = nl_route_add(c->nl[LAB_SINK], AF_INET, net_gen, 24, P[LAB_DUT1].ip, li[LAB_SINK0].ifindex);
		if (!rc)
			rc = nl_route_add(c->nl[LAB_SINK], AF_INET6, net6_gen, 64, P[LAB_DUT1].ip6, li[LAB_SINK0].ifindex);
	}
	if (rc)
		return lab_nl_err(rc, "cannot add route", "in the lab", err, errlen);

	static const struct { enum lab_ifx on, to; } neigh[] = {
		{ LAB_GEN0, LAB_DUT0 }, { LAB_DUT0, LAB_GEN0 },
		{ LAB_DUT1, LAB_SINK0 }, { LAB_SINK0, LAB_DUT1 },
	};

	for (size_t k = 0; k < sizeof(neigh) / sizeof(neigh[0]); k++) {
		const struct lab_addr *on = &P[neigh[k].on], *to = &P[neigh[k].to];

		if (!(c->roles & LAB_ROLE(on->role)))
			continue;
		rc = nl_neigh_add(c->nl[on->role], li[neigh[k].on].ifindex, AF_INET, to->ip, to->mac);
		if (!rc)
			rc = nl_neigh_add(c->nl[on->role], li[neigh[k].on].ifindex, AF_INET6, to->ip6, to->mac);
		if (rc)
			return lab_nl_err(rc, "cannot add neighbour on", on->ifname, err, errlen);
	}
	return 0;
}

static int configure_links(struct lab_ctx *c, char *err, size_t errlen)
{
	struct link_info li[LAB_PORTS_MAX * LAB_NIFS];
	unsigned int n = c->ports * LAB_NIFS;
	int rc;

	for (unsigned int k = 0; k < n; k++) {
		const struct lab_addr *a = &lab_paths[k / LAB_NIFS][k % LAB_NIFS];
		struct nl *nl = c->nl[a->role];

		if (!(c->roles & LAB_ROLE(a->role)))
			continue;
		if ((rc = nl_link_get(nl, a->ifname, &li[k])))
			return lab_nl_err(rc, "cannot find", a->ifname, err, errlen);
		if ((rc = offloads_off(c, a, err, errlen)))
			return rc;
		if ((rc = nl_link_mtu(nl, li[k].ifindex, c->spec->mtu ? c->spec->mtu : 1500)))
			return lab_nl_err(rc, "cannot set MTU of", a->ifname, err, errlen);
		if ((rc = nl_addr_add(nl, li[k].ifindex, AF_INET, a->ip, a->plen, false)) ||
		    (rc = nl_addr_add(nl, li[k].ifindex, AF_INET6, a->ip6, 64, true)))
			return lab_nl_err(rc, "cannot add address to", a->ifname, err, errlen);
	}
	for (int r = 0; r < LAB_NROLES; r++)
		if ((c->roles & LAB_ROLE(r)) && (rc = nl_link_up(c->nl[r], 1, true)))
			return lab_nl_err(rc, "cannot bring up", "lo", err, errlen);
	for (unsigned int k = 0; k < n; k++) {
		const struct lab_addr *a = &lab_paths[k / LAB_NIFS][k % LAB_NIFS];

		if (!(c->roles & LAB_ROLE(a->role)))
			continue;
		if ((rc = nl_link_up(c->nl[a->role], li[k].ifindex, true)))
			return lab_nl_err(rc, "cannot bring up", a->ifname, err, errlen);
	}
	for (unsigned int p = 0; p < c->ports; p++)
		if ((rc = path_routes(c, p, &li[PIX(p, 0)], err, errlen)))
			return rc;
	return 0;
}

/* The token bucket on every egress port (dut<2p+1>): each path is capped
 * at the rate on its own. */
static int configure_shape(struct lab_ctx *c, char *err, size_t errlen)
{
	const struct lab_spec *s = c->spec;
	struct nl *nl = c->nl[LAB_DUT];
	struct link_info li;
	struct tbf_params p = { 0 };
	int rc;

	if (!(c->roles & LAB_ROLE(LAB_DUT)))
		return 0;
	if (s->shape_rate.kind == RATE_PPS) {
		p.pkt_size = SHAPE_PKT_BYTES;
		p.rate = (uint64_t)(s->shape_rate.value * SHAPE_PKT_BYTES + 0.5);
		p.burst = SHAPE_PPS_BURST_FRAMES * SHAPE_PKT_BYTES;
		p.limit = SHAPE_PPS_LIMIT_FRAMES * SHAPE_PKT_BYTES;
	} else {
		/* Count what the wire would carry: frame + FCS + preamble + gap. */
		p.overhead = 24;
		p.rate = (uint64_t)(s->shape_rate.value / 8 + 0.5);
		p.burst = SHAPE_BURST_FRAMES * SHAPE_MAX_FRAME;
		p.limit = SHAPE_LIMIT_FRAMES * SHAPE_MAX_FRAME;
	}
	for (unsigned int k = 0; k < c->ports; k++) {
		const char *ifname = lab_paths[k][LAB_DUT1].ifname;

		if ((rc = nl_link_get(nl, ifname, &li)))
			return lab_nl_err(rc, "cannot find", ifname, err, errlen);
		if (!s->shape)
			rc = lab_nl_err(nl_qdisc_del_root(nl, li.ifindex), "cannot remove shaper from", ifname, err, errlen);
		else
			rc = lab_nl_err(nl_qdisc_tbf(nl, li.ifindex, &p), "cannot add token bucket to", ifname, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

/* Runs inside the DUT's namespace: every DUT port in NAPI mode (lab_xdp.h).
 * A kernel that cannot leaves them as they were: the lab still works, in
 * skb mode, and 'lab status' says which. A port whose NAPI thread is
 * pinned to one CPU then needs no RPS: its receive work runs on that CPU
 * already, and RPS would only add a hop through the backlog queue (about
 * 100 ns of DUT CPU a frame at 200 kpps, 3.85 against 3.75 us). The
 * port's alias records the CPUs for 'lab status'. */
static int dut_xdp(void *arg, char *err, size_t errlen)
{
	const struct lab_ctx *c = arg;
	struct nl *nl = nl_create(-1, err, errlen);
	struct cpuset none;
	int rc = 0;

	if (!nl)
		return -EIO;
	cpuset_zero(&none);
	for (unsigned int p = 0; p < c->ports; p++)
		for (int i = LAB_DUT0; i <= LAB_DUT1 && !rc; i++)
			rc = lab_xdp_setup(nl, lab_paths[p][i].ifname, &c->rps[PIX(p, i)], err, errlen);
	for (unsigned int p = 0; p < c->ports; p++)
		for (int i = LAB_DUT0; i <= LAB_DUT1 && !rc; i++) {
			const struct cpuset *cpus = &c->rps[PIX(p, i)];
			const char *ifname = lab_paths[p][i].ifname;

			if (!(rc = lab_write_napi_cpus(ifname, cpus, err, errlen)) && cpuset_count(cpus) == 1)
				rc = lab_write_cpus(ifname, &none, err, errlen);
		}
	nl_destroy(nl);
	return rc;
}

int lab_configure(struct lab_ctx *c, char *err, size_t errlen)
{
	char name[NETNS_NAME_MAX];
	int rc = quiet_links(c, err, errlen);

	if (!rc)
		plan_rps(c);
	for (int r = 0; r < LAB_NROLES && !rc; r++) {
		struct ns_job j = { c, (enum lab_role)r };

		if (!(c->roles & LAB_ROLE(r)))
			continue;
		lab_ns_name(c->spec->prefix, (enum lab_role)r, name, sizeof(name));
		rc = c->nsfd[r] >= 0 ? netns_run(name, ns_configure, &j, err, errlen) : ns_configure(&j, err, errlen);
	}
	if (!rc)
		rc = configure_links(c, err, errlen);
	if (!rc)
		rc = configure_shape(c, err, errlen);
	return rc;
}

/* Delete path p's links (a veth's peer goes with it), whatever is left
 * of them. */
static void del_path(struct lab_ctx *c, unsigned int p)
{
	for (int i = 0; i < LAB_NIFS; i++) {
		const struct lab_addr *a = &lab_paths[p][i];
		struct nl *nl = c->nl[a->role];
		struct link_info li;

		if (nl && nl_link_get(nl, a->ifname, &li) == 0)
			nl_link_del(nl, li.ifindex);
	}
}

int lab_up(const struct lab_spec *s, char *err, size_t errlen)
{
	struct lab_ctx c = { .spec = s, .ports = s->ports ? s->ports : 1, .roles = LAB_ALL_ROLES };
	char name[NETNS_NAME_MAX], e2[256];
	sigset_t old;
	int rc = 0;

	if (c.ports > LAB_PORTS_MAX) {
		snprintf(err, errlen, "--ports %u: must be 1..%d", s->ports, LAB_PORTS_MAX);
		return -EINVAL;
	}
	if (s->kernel[0])
		return vm_lab_up(s, err, errlen);
	/* Building is short; finish it rather than leave half a lab. */
	stop_hold(&old);
	/* a VM lab of this prefix goes first: its taps hold the names */
	if (vm_lab_present(s->prefix))
		rc = vm_lab_down(s->prefix, err, errlen);
	for (int r = 0; r < LAB_NROLES && !rc; r++) {
		lab_ns_name(s->prefix, (enum lab_role)r, name, sizeof(name));
		rc = netns_add(name, err, errlen);
	}
	if (!rc)
		rc = lab_ctx_open(&c, s->prefix, true, err, errlen);
	/* a calibration's pair left by a killed calibrate (its user holds
	 * the lab's lock, so none runs now) */
	if (!rc)
		lab_direct_del(s->prefix, e2, sizeof(e2));
	/* the paths beyond the spec's, from a lab built with more ports */
	for (unsigned int p = c.ports; !rc && p < LAB_PORTS_MAX; p++)
		del_path(&c, p);
	for (unsigned int p = 0; !rc && p < c.ports; p++) {
		rc = ensure_pair(&c, &lab_paths[p][LAB_GEN0], &lab_paths[p][LAB_DUT0], err, errlen);
		if (!rc)
			rc = ensure_pair(&c, &lab_paths[p][LAB_DUT1], &lab_paths[p][LAB_SINK0], err, errlen);
	}
	/* The DUT's XDP programs come off for --no-xdp, and while the MTU
	 * changes (an older program may not allow the new one); they go back
	 * on after. Otherwise a second 'lab up' leaves them as they are. */
	for (unsigned int k = 0; !rc && k < c.ports * 2; k++) {
		const struct lab_addr *a = &lab_paths[k / 2][LAB_DUT0 + (int)(k % 2)];
		unsigned int mtu = s->mtu ? s->mtu : 1500;
		struct link_info li;

		if (!nl_link_get(c.nl[LAB_DUT], a->ifname, &li) && li.xdp_prog_id &&
		    (s->no_xdp || li.mtu != mtu))
			nl_xdp_set(c.nl[LAB_DUT], li.ifindex, -1, 0);
	}
	if (!rc)
		rc = lab_configure(&c, err, errlen);
	if (!rc && !s->no_xdp) {
		char e3[256];

		lab_ns_name(s->prefix, LAB_DUT, name, sizeof(name));
		netns_run(name, dut_xdp, &c, e3, sizeof(e3));
	}
	lab_ctx_close(&c);
	if (rc)
		lab_down(s->prefix, e2, sizeof(e2));
	stop_let_go(&old);
	return rc;
}

int lab_down(const char *prefix, char *err, size_t errlen)
{
	struct lab_ctx c;
	char name[NETNS_NAME_MAX];
	sigset_t old;
	int rc = 0;

	/* never a name outside the lab's own (a prefix is not a path) */
	if ((rc = lab_prefix_check(prefix, err, errlen)))
		return rc;
	stop_hold(&old);
	/* a VM lab's QEMU first: its taps go with it */
	if (vm_lab_present(prefix))
		rc = vm_lab_down(prefix, err, errlen);
	/* Delete the links first so that nothing lingers while a namespace
	 * is kept alive by a process still inside it. */
	lab_ctx_open(&c, prefix, false, err, errlen);
	for (unsigned int p = 0; p < LAB_PORTS_MAX; p++)
		del_path(&c, p);
	lab_ctx_close(&c);
	for (int r = 0; r < LAB_NROLES; r++) {
		int e;

		lab_ns_name(prefix, (enum lab_role)r, name, sizeof(name));
		if ((e = netns_del(name, err, errlen)) && !rc)
			rc = e;
	}
	stop_let_go(&old);
	return rc;
}
