/* Who may use a lab and what state it is in: the lock file that lets one
 * user at a time build or run on a lab, and 'lab status' (what is built,
 * on which CPUs, and whether a build died half way). */
#include "lab/lab.h"
#include "lab/lab_impl.h"
#include "lab/vm_lab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/socket.h>

#include "core/text.h"
#include "os/fs.h"
#include "os/netns.h"
#include "os/nft.h"
#include "os/procstat.h"

/* The lock file names its holder; one that died leaves its name in the
 * free file. A lab up, lab down or matrix that died may have left the lab
 * half built: only a rebuilder may take such a lab. */
static bool died_mid_build(const char *who)
{
	return strstr(who, ", lab up") || strstr(who, ", lab down") || strstr(who, ", matrix");
}

/* The holder's line of the lock file fd ("" when it cannot be read). */
static void holder_read(int fd, char *who, size_t len)
{
	ssize_t n = fd >= 0 ? pread(fd, who, len - 1, 0) : -1;

	who[n > 0 ? n : 0] = '\0';
	who[strcspn(who, "\n")] = '\0';
}

int lab_status_lock(const char *prefix, const char *what, bool rebuilds, int *fd, char *err, size_t errlen)
{
	const char *held = getenv(LAB_LOCK_ENV);
	char path[128], who[128] = "", pa[LAB_PREFIX_MAX + 12];
	int rc, tries = 0;

	*fd = -1;
	if ((rc = lab_prefix_check(prefix, err, errlen)))
		return rc;
	snprintf(path, sizeof(path), "%s/lab-%s.lock", LAB_LOCK_DIR, prefix);
	/* "PREFIX:FD" from a parent (the matrix) that holds the lock: this
	 * process shares it when FD is an open description of the lock file
	 * itself, so the lock lasts while either lives */
	if (held) {
		char hp[LAB_PREFIX_MAX + 1];
		struct stat a, b;
		int hfd;

		if (sscanf(held, "%24[^:]:%d", hp, &hfd) == 2 && !strcmp(hp, prefix) && hfd > 2 &&
		    !fstat(hfd, &a) && !stat(path, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
			fcntl(hfd, F_SETFD, FD_CLOEXEC);
			return 0;
		}
	}
	if (mkdir(LAB_LOCK_DIR, 0755) && errno != EEXIST) {
		snprintf(err, errlen, "cannot create %s: %s", LAB_LOCK_DIR, strerror(errno));
		return -errno;
	}
again:
	if ((*fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) < 0) {
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
		return -errno;
	}
	if (!flock(*fd, LOCK_EX | LOCK_NB)) {
		struct stat a, b;

		/* lab down removes the file under its lock: one locked after
		 * that removal holds a name no longer there */
		if (fstat(*fd, &a) || stat(path, &b) || a.st_ino != b.st_ino || a.st_dev != b.st_dev) {
			close(*fd);
			if (++tries < 5)
				goto again;
			snprintf(err, errlen, "cannot lock %s: it keeps being replaced", path);
			*fd = -1;
			return -EBUSY;
		}
	} else {
		int e = errno;

		rc = e == EWOULDBLOCK ? -EBUSY : -e;
		holder_read(e == EWOULDBLOCK ? *fd : -1, who, sizeof(who));
		if (rc == -EBUSY)
			snprintf(err, errlen, "lab %s is in use (%s): wait for it to end, or stop it", prefix,
				 who[0] ? who : "by another process");
		else
			snprintf(err, errlen, "cannot lock %s: %s", path, strerror(-rc));
		close(*fd);
		*fd = -1;
		return rc;
	}
	holder_read(*fd, who, sizeof(who));
	if (!rebuilds && died_mid_build(who)) {
		snprintf(err, errlen, "lab %s may be half built (%s was killed before it finished): "
			 "run 'wirerate lab up%s' first", prefix, who, lab_prefix_arg(prefix, pa, sizeof(pa)));
		close(*fd);	/* the name stays for lab status and the next user */
		*fd = -1;
		return -EBUSY;
	}
	int len = snprintf(who, sizeof(who), "pid %d, %s\n", (int)getpid(), what);

	if (ftruncate(*fd, 0) || pwrite(*fd, who, (size_t)len, 0) != len) {
		/* the lock holds all the same; only the message would lack the holder */
	}
	return 0;
}

void lab_status_unlock(int *fd, const char *remove_prefix)
{
	char path[128];

	if (*fd < 0)
		return;
	/* an empty file: its last holder ended (one killed leaves its name) */
	if (ftruncate(*fd, 0)) {
		/* the lock goes all the same */
	}
	if (remove_prefix) {
		snprintf(path, sizeof(path), "%s/lab-%s.lock", LAB_LOCK_DIR, remove_prefix);
		unlink(path);
	}
	close(*fd);
	*fd = -1;
}

/* ---- status ---- */

/* One namespace's part of one path: the role's interfaces of path p, and
 * for the DUT's path 0 its forwarding and rules too. Small enough for
 * netns_run's message, which is why a path at a time. */
struct report_job {
	enum lab_role role;
	unsigned int path;
};

/* Runs inside one namespace; reports "key=value" lines in err. */
static int ns_report(void *arg, char *out, size_t outlen)
{
	const struct report_job *j = arg;
	size_t off = 0;
	char buf[256], path[256];

	out[0] = '\0';
	for (int i = 0; i < LAB_NIFS; i++) {
		const struct lab_addr *a = lab_path_if(j->path, (enum lab_ifx)i);

		if (a->role != j->role)
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-0/rps_cpus", a->ifname);
		if (fs_read(NULL, path, buf, sizeof(buf)) > 0)
			off += (size_t)snprintf(out + off, outlen - off, "rps.%s=%s", a->ifname, buf);
		if (off >= outlen)
			return 0;
		snprintf(path, sizeof(path), "/sys/class/net/%s/ifalias", a->ifname);
		if (fs_read(NULL, path, buf, sizeof(buf)) > (int)strlen(NAPI_ALIAS) &&
		    !strncmp(buf, NAPI_ALIAS, strlen(NAPI_ALIAS)))
			off += (size_t)snprintf(out + off, outlen - off, "napi.%s=%s", a->ifname,
						buf + strlen(NAPI_ALIAS));
		if (off >= outlen)
			return 0;
	}
	if (j->role == LAB_DUT && j->path == 0) {
		char e[128];
		int n;

		if (fs_read(NULL, "/proc/sys/net/ipv4/ip_forward", buf, sizeof(buf)) > 0)
			off += (size_t)snprintf(out + off, outlen - off, "forwarding=%s", buf);
		n = nft_null_rules_count(e, sizeof(e));
		if (off < outlen)
			snprintf(out + off, outlen - off, "rules=%d\n", n);
	}
	return 0;
}

/* The lock file's word on the lab: who holds it now, or whether its last
 * holder was a lab up or down that died before it finished. */
static void lock_report(const char *prefix, struct lab_status *st)
{
	char path[128], who[128];
	int fd;

	snprintf(path, sizeof(path), "%s/lab-%s.lock", LAB_LOCK_DIR, prefix);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	holder_read(fd, who, sizeof(who));
	if (flock(fd, LOCK_SH | LOCK_NB)) {
		int pid = 0;

		/* not this process itself (lab up reports the lab it built) */
		if (sscanf(who, "pid %d", &pid) != 1 || pid != (int)getpid())
			snprintf(st->holder, sizeof(st->holder), "%s", who[0] ? who : "another process");
	}
	else if (died_mid_build(who))
		st->build_died = true;
	close(fd);
}

/* One interface's RPS and NAPI CPUs from its namespace's report, and its
 * offloads (and, for gen0, the lab's queues) read in that namespace. */
static void if_report(struct lab_ctx *c, enum lab_role r, const struct lab_addr *a, const char *rep,
		      struct lab_if_status *is, unsigned int *queues)
{
	char val[300], key[64], e[64];
	unsigned int rxq, txq;
	int saved, sock;

	snprintf(key, sizeof(key), "rps.%s", a->ifname);
	if (text_kv_get(rep, key, val, sizeof(val)) && !cpuset_parse_mask(val, &is->rps, e, sizeof(e)))
		is->rps_known = true;
	is->cpus = is->rps;
	is->cpus_known = is->rps_known;
	snprintf(key, sizeof(key), "napi.%s", a->ifname);
	if (text_kv_get(rep, key, val, sizeof(val)) && !cpuset_parse_mask(val, &is->cpus, e, sizeof(e)))
		is->cpus_known = true;
	if (netns_enter(c->nsfd[r], &saved))
		return;
	sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	netns_leave(&saved);
	if (sock < 0)
		return;
	is->offl_known = !ethtool_offloads_get(sock, a->ifname, &is->offl);
	if (queues && !ethtool_queues(sock, a->ifname, &rxq, &txq))
		*queues = rxq;
	close(sock);
}

/* One role's interfaces of path p: present (and up, for path 0, into
 * st->complete), then what its namespace reports of them. */
static void path_report(struct lab_ctx *c, const char *prefix, enum lab_role role, unsigned int p,
			struct lab_status *st)
{
	struct report_job j = { role, p };
	char name[NETNS_NAME_MAX], rep[1024] = "", val[300];
	bool any = false;

	for (int i = 0; i < LAB_NIFS; i++) {
		const struct lab_addr *a = lab_path_if(p, (enum lab_ifx)i);
		struct lab_if_status *is = &st->ifs[p * LAB_NIFS + i];

		if (a->role != role)
			continue;
		is->present = nl_link_get(c->nl[role], a->ifname, &is->link) == 0;
		any |= is->present;
		/* path 0 always counts; the others once any of their links is
		 * found (lab_status) */
		if (p == 0 && (!is->present || !is->link.up))
			st->complete = false;
	}
	if (p && !any)
		return;
	lab_ns_name(prefix, role, name, sizeof(name));
	netns_run(name, ns_report, &j, rep, sizeof(rep));
	for (int i = 0; i < LAB_NIFS; i++) {
		const struct lab_addr *a = lab_path_if(p, (enum lab_ifx)i);
		struct lab_if_status *is = &st->ifs[p * LAB_NIFS + i];

		if (a->role == role && is->present)
			if_report(c, role, a, rep, is, p == 0 && i == LAB_GEN0 ? &st->queues : NULL);
	}
	if (role == LAB_DUT && p == 0) {
		if (text_kv_get(rep, "forwarding", val, sizeof(val)))
			st->forwarding = val[0] == '1';
		if (text_kv_get(rep, "rules", val, sizeof(val)))
			st->rules = atoi(val);
		if (st->ifs[LAB_DUT1].present)
			nl_qdisc_get_root(c->nl[role], st->ifs[LAB_DUT1].link.ifindex, &st->shape);
	}
}

/* The DUT's CPUs (every path's ports'), and the placement: path 0's,
 * when every path has it. */
static void placement(struct lab_status *st)
{
	const struct lab_if_status *d0 = &st->ifs[LAB_DUT0], *d1 = &st->ifs[LAB_DUT1];

	for (unsigned int p = 0; p < st->ports; p++) {
		const struct lab_if_status *in = &st->ifs[p * LAB_NIFS + LAB_DUT0];
		const struct lab_if_status *eg = &st->ifs[p * LAB_NIFS + LAB_DUT1];

		for (size_t w = 0; w < CPUSET_MAX / 64; w++)
			st->dut_cpus.bits[w] |= in->cpus.bits[w] | eg->cpus.bits[w];
	}
	st->placement = PLACE_OTHER;
	if (d0->cpus_known && d1->cpus_known) {
		unsigned n0 = cpuset_count(&d0->cpus), n1 = cpuset_count(&d1->cpus);

		if (cpuset_equal(&d0->cpus, &d1->cpus) && n0 == 1)
			st->placement = PLACE_BOUND;
		else if (n0 == 1 && n1 == 1)
			st->placement = PLACE_SPLIT;
		else if (cpuset_equal(&d0->cpus, &d1->cpus) && n0 > 1)
			st->placement = PLACE_FREE;
	}
	for (unsigned int p = 1; p < st->ports; p++) {
		const struct lab_if_status *in = &st->ifs[p * LAB_NIFS + LAB_DUT0];
		const struct lab_if_status *eg = &st->ifs[p * LAB_NIFS + LAB_DUT1];

		if (!in->cpus_known || !eg->cpus_known ||
		    !cpuset_equal(&in->cpus, &d0->cpus) || !cpuset_equal(&eg->cpus, &d1->cpus))
			st->placement = PLACE_OTHER;
	}
}

/* A VM lab's DUT, as it was booted: its ports are the guest's NICs, its
 * CPUs the guest's, numbered from 0, and the tester's all the host's but
 * those QEMU was pinned to. */
static void vm_dut(struct lab_status *st, const struct lab_spec *b)
{
	unsigned int ports = b->ports ? b->ports : 1;

	st->exists = true;
	st->ns_present[LAB_DUT] = st->vm.running;
	st->forwarding = st->vm.running;
	st->rules = st->vm.running ? (int)b->rules : -1;
	st->queues = b->queues ? b->queues : 1;
	if (b->shape) {
		snprintf(st->shape.kind, sizeof(st->shape.kind), "tbf");
		if (b->shape_rate.kind == RATE_PPS) {
			st->shape.pkt_size = 1000;
			st->shape.rate = (uint64_t)(b->shape_rate.value * 1000);
		} else {
			st->shape.rate = (uint64_t)(b->shape_rate.value / 8);
		}
	}
	for (unsigned int p = 0; p < ports && p < LAB_PORTS_MAX; p++)
		for (int i = LAB_DUT0; i <= LAB_DUT1; i++) {
			const struct lab_addr *a = lab_path_if(p, (enum lab_ifx)i);
			struct lab_if_status *is = &st->ifs[p * LAB_NIFS + i];

			is->present = st->vm.running;
			snprintf(is->link.name, sizeof(is->link.name), "%s", a->ifname);
			snprintf(is->link.kind, sizeof(is->link.kind), "virtio_net");
			memcpy(is->link.mac, a->mac, 6);
			is->link.up = is->link.running = st->vm.running;
			is->link.mtu = b->mtu ? b->mtu : 1500;
			/* where the guest put the port's IRQs (vm_guest_setup) */
			cpuset_zero(&is->cpus);
			if (b->placement == PLACE_FREE)
				is->cpus = b->dut_cpus;
			else
				cpuset_add(&is->cpus, (unsigned int)cpuset_nth(&b->dut_cpus,
									  b->placement == PLACE_SPLIT && i == LAB_DUT1 ? 1 : 0));
			is->cpus_known = st->vm.running && cpuset_count(&b->dut_cpus) > 0;
		}
	if (!st->vm.running)
		st->complete = false;
}

int lab_status(const char *prefix, struct lab_status *st, char *err, size_t errlen)
{
	struct lab_spec booted;
	struct lab_ctx c;
	struct cpuset online;
	int rc;

	memset(st, 0, sizeof(*st));
	snprintf(st->prefix, sizeof(st->prefix), "%s", prefix);
	st->rules = -1;
	if ((rc = lab_ctx_open(&c, prefix, false, err, errlen))) {
		lab_ctx_close(&c);
		return rc;
	}
	st->complete = true;
	vm_lab_read(prefix, &st->vm, &booted);
	for (int r = 0; r < LAB_NROLES; r++) {
		st->ns_present[r] = c.nsfd[r] >= 0;
		st->exists |= st->ns_present[r];
		if (r == LAB_DUT && st->vm.on) {
			vm_dut(st, &booted);
			continue;
		}
		if (!st->ns_present[r]) {
			st->complete = false;
			continue;
		}
		for (unsigned int p = 0; p < LAB_PORTS_MAX; p++)
			path_report(&c, prefix, (enum lab_role)r, p, st);
	}
	lab_ctx_close(&c);

	/* The paths present: up to the last one with any link left (a lab
	 * built with --ports N has gen0..gen<N-1>); every link of each must
	 * be there and up. */
	st->ports = 1;
	for (unsigned int k = LAB_NIFS; k < LAB_PORTS_MAX * LAB_NIFS; k++)
		if (st->ifs[k].present)
			st->ports = k / LAB_NIFS + 1;
	for (unsigned int k = LAB_NIFS; k < st->ports * LAB_NIFS; k++)
		if (!st->ifs[k].present || !st->ifs[k].link.up)
			st->complete = false;
	placement(st);
	lock_report(prefix, st);
	if (st->build_died)
		st->complete = false;
	if (!procstat_online(NULL, &online, err, errlen))
		cpuset_diff(&st->tester_cpus, &online, st->vm.on ? &st->vm.host_cpus : &st->dut_cpus);
	if (!st->queues)
		st->queues = 1;
	if (!st->forwarding)
		st->complete = false;
	return 0;
}
