/* The VM lab's host side; see vm_lab.h. */
#include "lab/vm_lab.h"
#include "lab/lab_impl.h"
#include "lab/vm_initrd.h"
#include "lab/vm_kernel.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "core/ns.h"
#include "core/text.h"
#include "os/clock.h"
#include "os/command.h"
#include "os/fs.h"
#include "os/netns.h"
#include "os/procstat.h"
#include "os/qemu.h"
#include "os/tap.h"

#define STOP_WAIT_MS 3000	/* QEMU's SIGTERM, then as long after SIGKILL */

static void vm_path(const char *prefix, const char *file, char *buf, size_t len)
{
	snprintf(buf, len, "%s/vm-%s%s%s", LAB_LOCK_DIR, prefix, file ? "/" : "", file ? file : "");
}

/* -name: how ps, qemu_alive and a later lab down know this lab's QEMU. */
static void vm_name(const char *prefix, char *buf, size_t len)
{
	snprintf(buf, len, "wirerate-lab-%s", prefix);
}

bool vm_lab_present(const char *prefix)
{
	char d[256];
	struct stat st;

	vm_path(prefix, NULL, d, sizeof(d));
	return !stat(d, &st) && S_ISDIR(st.st_mode);
}

/* ---- key=value text: the guest's settings and the state file ---- */

static int kv_uint(const char *text, const char *key, unsigned int max, unsigned int *out, char *err, size_t errlen)
{
	char v[64], *end;
	unsigned long n;

	if (!text_kv_get(text, key, v, sizeof(v)))
		return 0;
	errno = 0;
	n = strtoul(v, &end, 10);
	if (errno || end == v || *end || n > max) {
		snprintf(err, errlen, "lab.conf: %s=%.20s: a number 0..%u", key, v, max);
		return -EINVAL;
	}
	*out = (unsigned int)n;
	return 0;
}

int vm_lab_conf_format(const struct lab_spec *s, char *buf, size_t len)
{
	char cpus[256];
	int n;

	cpuset_format_list(&s->dut_cpus, cpus, sizeof(cpus));
	n = snprintf(buf, len,
		     "prefix=%s\nports=%u\nqueues=%u\nmtu=%u\nrules=%u\nplacement=%s\ndut_cpus=%s\n"
		     "shape=%s\nshape_value=%.17g\nsoak_calibrate=%d\n",
		     s->prefix, s->ports ? s->ports : 1, s->queues ? s->queues : 1, s->mtu ? s->mtu : 1500, s->rules,
		     lab_placement_name(s->placement), cpus,
		     !s->shape ? "none" : s->shape_rate.kind == RATE_PPS ? "pps" : "bps", s->shape ? s->shape_rate.value : 0,
		     s->soak_calibrate);
	return n < 0 || (size_t)n >= len ? -E2BIG : 0;
}

int vm_lab_conf_parse(const char *text, struct lab_spec *s, char *err, size_t errlen)
{
	char v[300];
	int rc = 0;

	memset(s, 0, sizeof(*s));
	snprintf(s->prefix, sizeof(s->prefix), "%s", LAB_PREFIX_DEFAULT);
	if (text_kv_get(text, "prefix", v, sizeof(v)) && !lab_prefix_check(v, err, errlen))
		snprintf(s->prefix, sizeof(s->prefix), "%.*s", LAB_PREFIX_MAX, v);
	if ((rc = kv_uint(text, "ports", LAB_PORTS_MAX, &s->ports, err, errlen)) ||
	    (rc = kv_uint(text, "queues", LAB_QUEUES_MAX, &s->queues, err, errlen)) ||
	    (rc = kv_uint(text, "mtu", LAB_MTU_MAX, &s->mtu, err, errlen)) ||
	    (rc = kv_uint(text, "rules", 100000, &s->rules, err, errlen)))
		return rc;
	if (text_kv_get(text, "placement", v, sizeof(v)) && lab_placement_parse(v, &s->placement)) {
		snprintf(err, errlen, "lab.conf: placement=%.20s", v);
		return -EINVAL;
	}
	if (text_kv_get(text, "dut_cpus", v, sizeof(v)) && v[0] && cpuset_parse_list(v, &s->dut_cpus, err, errlen))
		return -EINVAL;
	if (text_kv_get(text, "shape", v, sizeof(v)) && strcmp(v, "none")) {
		char n[64];

		s->shape = true;
		s->shape_rate.kind = !strcmp(v, "pps") ? RATE_PPS : RATE_BPS;
		s->shape_rate.value = text_kv_get(text, "shape_value", n, sizeof(n)) ? strtod(n, NULL) : 0;
		if (!(s->shape_rate.value >= 1 && s->shape_rate.value < 1e15)) {
			snprintf(err, errlen, "lab.conf: shape_value out of range");
			return -EINVAL;
		}
	}
	if (!s->ports || s->mtu < LAB_MTU_MIN) {
		snprintf(err, errlen, "lab.conf: ports and mtu are needed");
		return -EINVAL;
	}
	return 0;
}

/* ---- state ---- */

static void state_write(const char *prefix, const struct lab_vm *vm, const char *conf, bool ready)
{
	char path[256], cpus[256], text[8192];
	int fd;

	cpuset_format_list(&vm->host_cpus, cpus, sizeof(cpus));
	snprintf(text, sizeof(text),
		 "pid=%d\nready=%d\nkernel=%s\nimage=%s\nsource=%s\nrelease=%s\naccel=%s\nvcpus=%u\nmemory=%u\n"
		 "cmdline=%s\nhost_cpus=%s\nboot_ms=%.0f\nkey=%s\n%s",
		 vm->pid, ready, vm->kernel, vm->image, vm->source, vm->release, vm->accel, vm->vcpus, vm->memory_mib,
		 vm->cmdline, cpus, vm->boot_s * 1000, vm->key, conf);
	vm_path(prefix, "state", path, sizeof(path));
	{
		char tmp[300];

		if ((fd = fs_tmp_open(path, tmp, sizeof(tmp))) < 0)
			return;
		if (write(fd, text, strlen(text)) != (ssize_t)strlen(text) || fsync(fd) || close(fd)) {
			unlink(tmp);
			return;
		}
		rename(tmp, path);
	}
}

void vm_lab_read(const char *prefix, struct lab_vm *vm, struct lab_spec *booted)
{
	char path[256], name[64], v[LAB_PATH_MAX + 1], e[128];
	char text[8192];
	unsigned int ready = 0, ms = 0, pid = 0;

	memset(vm, 0, sizeof(*vm));
	if (booted)
		memset(booted, 0, sizeof(*booted));
	if (!vm_lab_present(prefix))
		return;
	vm->on = true;
	vm_path(prefix, "state", path, sizeof(path));
	if (fs_read(NULL, path, text, sizeof(text)) <= 0) {
		/* no state yet: a lab up killed before QEMU ran, or while it booted */
		vm_path(prefix, "qemu.pid", path, sizeof(path));
		if (fs_read(NULL, path, v, sizeof(v)) > 0)
			vm->pid = atoi(v);
		return;
	}
	kv_uint(text, "pid", 1u << 22, &pid, e, sizeof(e));
	vm->pid = (int)pid;
	kv_uint(text, "ready", 1, &ready, e, sizeof(e));
	kv_uint(text, "vcpus", LAB_VCPUS_MAX, &vm->vcpus, e, sizeof(e));
	kv_uint(text, "memory", LAB_VM_MEMORY_MAX, &vm->memory_mib, e, sizeof(e));
	kv_uint(text, "boot_ms", 1u << 30, &ms, e, sizeof(e));
	vm->boot_s = ms / 1000.0;
#define STR(k, f) if (text_kv_get(text, k, v, sizeof(v))) snprintf(vm->f, sizeof(vm->f), "%.*s", (int)sizeof(vm->f) - 1, v)
	STR("kernel", kernel);
	STR("image", image);
	STR("source", source);
	STR("release", release);
	STR("accel", accel);
	STR("cmdline", cmdline);
	STR("key", key);
#undef STR
	if (text_kv_get(text, "host_cpus", v, sizeof(v)) && v[0])
		cpuset_parse_list(v, &vm->host_cpus, e, sizeof(e));
	vm_name(prefix, name, sizeof(name));
	vm->running = ready && qemu_alive(vm->pid, name);
	if (booted)
		vm_lab_conf_parse(text, booted, e, sizeof(e));
}

/* ---- the agent's sockets ---- */

int vm_lab_agent_connect(const char *prefix, int *fd, int *lock, char *err, size_t errlen)
{
	struct lab_vm vm;
	int rc = -EBUSY;

	*fd = *lock = -1;
	vm_lab_read(prefix, &vm, NULL);
	if (!vm.running) {
		snprintf(err, errlen, "the VM of lab %s is not running: run 'wirerate lab up --kernel ...'", prefix);
		return -ENOENT;
	}
	for (int k = 0; k < LABVM_AGENTS; k++) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		char lp[256], sp[256], f[32];

		snprintf(f, sizeof(f), "agent%d.lock", k);
		vm_path(prefix, f, lp, sizeof(lp));
		snprintf(f, sizeof(f), "agent%d.sock", k);
		vm_path(prefix, f, sp, sizeof(sp));
		if ((*lock = open(lp, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0)
			continue;
		if (flock(*lock, LOCK_EX | LOCK_NB)) {
			close(*lock);
			*lock = -1;
			continue;
		}
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%.*s", (int)sizeof(sa.sun_path) - 1, sp);
		if ((*fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) >= 0 &&
		    !connect(*fd, (struct sockaddr *)&sa, sizeof(sa)))
			return 0;
		rc = -errno;
		snprintf(err, errlen, "cannot reach the VM's agent at %s: %s", sp, strerror(errno));
		if (*fd >= 0)
			close(*fd);
		close(*lock);
		*fd = *lock = -1;
		return rc;
	}
	snprintf(err, errlen, "all %d agent ports of the VM of lab %s are in use", LABVM_AGENTS, prefix);
	return rc;
}

/* ---- down ---- */

static void rm_dir(const char *d)
{
	char *argv[] = { "rm", "-rf", (char *)d, NULL }, e[100];

	command_run(argv, NULL, NULL, 60000, NULL, e, sizeof(e));
}

int vm_lab_down(const char *prefix, char *err, size_t errlen)
{
	struct lab_vm vm;
	char name[64], d[256];
	int rc = 0;

	if (!vm_lab_present(prefix))
		return 0;
	vm_lab_read(prefix, &vm, NULL);
	vm_name(prefix, name, sizeof(name));
	if (vm.pid > 0 && (rc = qemu_stop(vm.pid, name, STOP_WAIT_MS)))
		snprintf(err, errlen, "QEMU (pid %d) of lab %s did not end", vm.pid, prefix);
	if (!rc) {
		vm_path(prefix, NULL, d, sizeof(d));
		rm_dir(d);
	}
	return rc;
}

/* ---- up ---- */

/* FNV-1a over what makes the VM: same key, same machine. */
static void key_of(const struct lab_spec *s, const struct vm_kernel *k, const char *conf, char *out, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	char buf[16384], exe[4096];
	struct stat st;
	ssize_t n;
	size_t w;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	w = (size_t)snprintf(buf, sizeof(buf), "%s|%s|%s|%u|%u|%s|%s", k->image, k->modules, s->cmdline,
			     s->vcpus, s->memory_mib, conf, exe);
	if (!stat(k->image, &st))
		w += (size_t)snprintf(buf + w, sizeof(buf) - w, "|%lld|%lld", (long long)st.st_size,
				      (long long)st.st_mtime);
	/* a rebuilt wirerate is another guest */
	if (!stat(exe, &st) && w < sizeof(buf))
		snprintf(buf + w, sizeof(buf) - w, "|%lld|%lld", (long long)st.st_size, (long long)st.st_mtime);
	for (const char *p = buf; *p; p++)
		h = (h ^ (unsigned char)*p) * 0x100000001b3ULL;
	snprintf(out, len, "%016llx", (unsigned long long)h);
}

/* The last lines of the console, each control byte '?', joined by " | ". */
static void console_tail(const char *path, char *out, size_t len)
{
	char buf[4096];
	int lines = 0;

	out[0] = '\0';
	if (fs_read_tail(path, buf, sizeof(buf)) < 0)
		return;
	for (char *p = buf; *p; p++)
		if (*p == '\r' || (*p != '\n' && ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)))
			*p = '?';
	{
		char *end = buf + strlen(buf), *p = end;

		while (p > buf && lines < 4) {
			p--;
			if (*p == '\n' && p + 1 < end && p[1] != '\n')
				lines++;
		}
		if (*p == '\n')
			p++;
		for (size_t o = 0; *p && o + 4 < len; p++) {
			if (*p == '\n') {
				if (o && p[1]) {
					out[o++] = ' ';
					out[o++] = '|';
					out[o++] = ' ';
				}
			} else {
				out[o++] = *p;
			}
			out[o] = '\0';
		}
	}
}

/* The console's verdict: 1 ready (line copied), -1 failed (reason), 0 not yet. */
static int console_state(const char *path, char *line, size_t len)
{
	const size_t size = 1 << 16;
	char *buf = malloc(size), *p = NULL;
	int st = 0;

	if (buf && fs_read(NULL, path, buf, size) > 0) {
		if ((p = strstr(buf, LABVM_READY))) {
			st = 1;
		} else if ((p = strstr(buf, LABVM_FAILED))) {
			p += strlen(LABVM_FAILED);
			st = -1;
		} else if ((p = strstr(buf, "Kernel panic"))) {
			st = -1;
		}
	}
	if (st)
		snprintf(line, len, "%.*s", (int)strcspn(p, "\r\n"), p);
	free(buf);
	return st;
}

/* Where QEMU runs: every online CPU but the tester's first, each vCPU on
 * one of them in turn (several on one when there are more vCPUs than
 * CPUs to spare); a host of one CPU pins nothing. */
static void plan_pinning(unsigned int vcpus, struct cpuset *host, int *vcpu_cpu)
{
	struct cpuset online;
	char e[64];

	cpuset_zero(host);
	for (unsigned int k = 0; k < vcpus; k++)
		vcpu_cpu[k] = -1;
	if (procstat_online(NULL, &online, e, sizeof(e)) || cpuset_count(&online) < 2)
		return;
	{
		struct cpuset first;

		cpuset_zero(&first);
		cpuset_add(&first, (unsigned int)cpuset_nth(&online, 0));
		cpuset_diff(host, &online, &first);
	}
	for (unsigned int k = 0; k < vcpus; k++)
		vcpu_cpu[k] = cpuset_nth(host, k % cpuset_count(host));
}

/* The taps of every path, made in the generator's and the sink's
 * namespaces (fds[p][0] gen<p>, [1] sink<p>), with the tester's MACs. */
static int make_taps(struct lab_ctx *c, int fds[][2][TAP_QUEUES_MAX], char *err, size_t errlen)
{
	unsigned int q = c->spec->queues ? c->spec->queues : 1;

	for (unsigned int p = 0; p < c->ports; p++)
		for (int side = 0; side < 2; side++) {
			const struct lab_addr *a = lab_path_if(p, side ? LAB_SINK0 : LAB_GEN0);
			struct link_info li;
			int rc;

			/* a veth or a tap left by a lab of another kind */
			if (!nl_link_get(c->nl[a->role], a->ifname, &li))
				nl_link_del(c->nl[a->role], li.ifindex);
			if ((rc = tap_create(c->nsfd[a->role], a->ifname, q, fds[p][side], err, errlen)))
				return rc;
			if ((rc = nl_link_get(c->nl[a->role], a->ifname, &li)) ||
			    (rc = nl_link_mac(c->nl[a->role], li.ifindex, a->mac)))
				return lab_nl_err(rc, "cannot set the MAC of", a->ifname, err, errlen);
		}
	return 0;
}

static void close_taps(int fds[][2][TAP_QUEUES_MAX], unsigned int ports, unsigned int queues)
{
	for (unsigned int p = 0; p < ports; p++)
		for (int side = 0; side < 2; side++)
			for (unsigned int k = 0; k < queues; k++)
				if (fds[p][side][k] >= 0) {
					close(fds[p][side][k]);
					fds[p][side][k] = -1;
				}
}

struct boot {
	const struct lab_spec *s;
	struct vm_kernel k;
	char conf[1024];
	struct lab_vm vm;
};

/* QEMU started on the taps, pinned, and the guest waited for. */
static int boot(struct boot *b, int fds[][2][TAP_QUEUES_MAX], char *err, size_t errlen)
{
	const struct lab_spec *s = b->s;
	unsigned int ports = s->ports ? s->ports : 1, queues = s->queues ? s->queues : 1;
	char dir[256], initrd[300], console[300], pidf[300], log[300], name[64], append[LAB_CMDLINE_MAX + 128];
	char socks[LABVM_AGENTS][300], line[512], tail[600];
	struct qemu_cfg q = { 0 };
	int vcpu_cpu[LAB_VCPUS_MAX], rc, st;
	double t0, deadline;
	pid_t pid;

	vm_path(s->prefix, NULL, dir, sizeof(dir));
	vm_path(s->prefix, "initrd", initrd, sizeof(initrd));
	vm_path(s->prefix, "console.log", console, sizeof(console));
	vm_path(s->prefix, "qemu.pid", pidf, sizeof(pidf));
	vm_path(s->prefix, "qemu.log", log, sizeof(log));
	vm_name(s->prefix, name, sizeof(name));
	if ((rc = vm_initrd_build(initrd, &b->k, b->conf, err, errlen)))
		return rc;
	unlink(console);
	snprintf(append, sizeof(append), "console=ttyS0 panic=-1 quiet loglevel=4%s%s", s->cmdline[0] ? " " : "",
		 s->cmdline);
	q = (struct qemu_cfg){ .name = name, .kernel = b->k.image, .initrd = initrd, .append = append,
			       .cpus = b->vm.vcpus, .memory_mib = b->vm.memory_mib, .kvm = !strcmp(b->vm.accel, "kvm"),
			       .console = console, .pidfile = pidf, .log = log, .nports = LABVM_AGENTS };
	/* per path: the ingress NIC (dut<2p>, on gen<p>'s tap), then the egress */
	for (unsigned int p = 0; p < ports; p++)
		for (int side = 0; side < 2; side++) {
			struct qemu_nic *n = &q.nic[q.nnics++];

			memcpy(n->fds, fds[p][side], sizeof(n->fds));
			n->queues = queues;
			memcpy(n->mac, lab_path_if(p, side ? LAB_DUT1 : LAB_DUT0)->mac, 6);
			n->mtu = s->mtu ? s->mtu : 1500;
		}
	for (int k = 0; k < LABVM_AGENTS; k++) {
		char f[32];

		snprintf(f, sizeof(f), "agent%d.sock", k);
		vm_path(s->prefix, f, socks[k], sizeof(socks[k]));
		unlink(socks[k]);
		q.port_sock[k] = socks[k];
	}
	t0 = ns_to_s((double)clock_mono_ns());
	if ((rc = qemu_start(&q, &pid, err, errlen)))
		return rc == -ENOENT ? -EINVAL : rc;
	b->vm.pid = (int)pid;
	close_taps(fds, ports, queues);
	state_write(s->prefix, &b->vm, b->conf, false);
	plan_pinning(b->vm.vcpus, &b->vm.host_cpus, vcpu_cpu);
	if (cpuset_count(&b->vm.host_cpus))
		qemu_pin(pid, &b->vm.host_cpus, vcpu_cpu, (int)b->vm.vcpus);
	deadline = t0 + (s->boot_timeout_s ? s->boot_timeout_s : LAB_VM_BOOT_TIMEOUT);
	for (;;) {
		struct timespec ts = { 0, 50 * NSEC_PER_MSEC };

		if ((st = console_state(console, line, sizeof(line))))
			break;
		if (!qemu_alive(pid, name)) {
			console_tail(console, tail, sizeof(tail));
			snprintf(err, errlen, "the VM ended while it booted%s%s", tail[0] ? ": " : "", tail);
			return -EIO;
		}
		/* taken here, so that the caller says so and cleans up */
		if (stop_take()) {
			snprintf(err, errlen, "interrupted while the VM booted");
			return -EINTR;
		}
		if (ns_to_s((double)clock_mono_ns()) > deadline) {
			console_tail(console, tail, sizeof(tail));
			snprintf(err, errlen, "the VM's agent did not come up within %u s (--boot-timeout)%s%s",
				 s->boot_timeout_s ? s->boot_timeout_s : LAB_VM_BOOT_TIMEOUT, tail[0] ? "; its console: " : "",
				 tail);
			return -ETIMEDOUT;
		}
		nanosleep(&ts, NULL);
	}
	if (st < 0) {
		snprintf(err, errlen, "the VM's guest failed: %s", line);
		/* its own words on what it lacked: the user's kernel is bad input */
		return strstr(line, "no NIC") || strstr(line, "modules") ? -EINVAL : -EIO;
	}
	b->vm.boot_s = ns_to_s((double)clock_mono_ns()) - t0;
	{
		char v[80];

		/* "wirerate-guest: ready release=R cpus=N" */
		for (char *p = strtok(line, " "); p; p = strtok(NULL, " "))
			if (sscanf(p, "release=%71s", v) == 1)
				snprintf(b->vm.release, sizeof(b->vm.release), "%.*s", (int)sizeof(b->vm.release) - 1, v);
	}
	state_write(s->prefix, &b->vm, b->conf, true);
	return 0;
}

int vm_lab_up(const struct lab_spec *s, char *err, size_t errlen)
{
	struct lab_ctx c = { .spec = s, .ports = s->ports ? s->ports : 1,
			     .roles = LAB_ROLE(LAB_GEN) | LAB_ROLE(LAB_SINK) };
	unsigned int queues = s->queues ? s->queues : 1;
	int fds[LAB_PORTS_MAX][2][TAP_QUEUES_MAX];
	struct boot *b = calloc(1, sizeof(*b));
	struct lab_spec guest;
	struct lab_vm old;
	char name[NETNS_NAME_MAX], qbin[512], dir[256], e2[256];
	sigset_t sigs;
	int rc;

	if (!b) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memset(fds, -1, sizeof(fds));
	b->s = s;
	if (qemu_find(qbin, sizeof(qbin))) {
		snprintf(err, errlen, "--kernel needs QEMU, and %s is not in PATH: apt-get install qemu-system-x86",
			 QEMU_BIN);
		free(b);
		return -EINVAL;
	}
	stop_hold(&sigs);
	if ((rc = vm_kernel_resolve(s->kernel, s->modules, true, &b->k, err, errlen)))
		goto done;
	/* the guest's own view: its vCPUs are its DUT CPUs, numbered from 0 */
	guest = *s;
	cpuset_zero(&guest.dut_cpus);
	for (unsigned int k = 0; k < (s->vcpus ? s->vcpus : 1); k++)
		cpuset_add(&guest.dut_cpus, k);
	if ((rc = vm_lab_conf_format(&guest, b->conf, sizeof(b->conf)))) {
		snprintf(err, errlen, "the guest's settings do not fit");
		goto done;
	}
	b->vm.on = true;
	snprintf(b->vm.kernel, sizeof(b->vm.kernel), "%s", s->kernel);
	snprintf(b->vm.image, sizeof(b->vm.image), "%s", b->k.image);
	snprintf(b->vm.source, sizeof(b->vm.source), "%s", b->k.source);
	snprintf(b->vm.release, sizeof(b->vm.release), "%s", b->k.release);
	snprintf(b->vm.accel, sizeof(b->vm.accel), "%s", qemu_kvm_usable() && qemu_kvm_boots(b->k.image) ? "kvm" : "tcg");
	snprintf(b->vm.cmdline, sizeof(b->vm.cmdline), "%s", s->cmdline);
	b->vm.vcpus = s->vcpus ? s->vcpus : 1;
	b->vm.memory_mib = s->memory_mib ? s->memory_mib : LAB_VM_MEMORY_DEFAULT;
	key_of(s, &b->k, b->conf, b->vm.key, sizeof(b->vm.key));

	/* the same machine running: repair the tester's side, keep it */
	vm_lab_read(s->prefix, &old, NULL);
	if (old.running && !strcmp(old.key, b->vm.key)) {
		for (int r = 0; r < LAB_NROLES && !rc; r++)
			if (r != LAB_DUT) {
				lab_ns_name(s->prefix, (enum lab_role)r, name, sizeof(name));
				rc = netns_add(name, err, errlen);
			}
		if (!rc && !(rc = lab_ctx_open(&c, s->prefix, false, err, errlen)))
			rc = lab_configure(&c, err, errlen);
		lab_ctx_close(&c);
		goto done;
	}
	if ((rc = vm_lab_down(s->prefix, err, errlen)))
		goto done;
	/* a namespace lab's DUT goes: the VM is the DUT now */
	lab_ns_name(s->prefix, LAB_DUT, name, sizeof(name));
	if (netns_exists(name) && (rc = netns_del(name, err, errlen)))
		goto done;
	for (int r = 0; r < LAB_NROLES && !rc; r++)
		if (r != LAB_DUT) {
			lab_ns_name(s->prefix, (enum lab_role)r, name, sizeof(name));
			rc = netns_add(name, err, errlen);
		}
	vm_path(s->prefix, NULL, dir, sizeof(dir));
	if (!rc && ((mkdir(LAB_LOCK_DIR, 0755) && errno != EEXIST) || (mkdir(dir, 0700) && errno != EEXIST))) {
		rc = -errno;
		snprintf(err, errlen, "cannot make %s: %s", dir, strerror(errno));
	}
	if (!rc)
		rc = lab_ctx_open(&c, s->prefix, false, err, errlen);
	/* the paths beyond the spec's, from a lab built with more ports */
	for (unsigned int p = c.ports; !rc && p < LAB_PORTS_MAX; p++)
		for (int side = 0; side < 2; side++) {
			const struct lab_addr *a = lab_path_if(p, side ? LAB_SINK0 : LAB_GEN0);
			struct link_info li;

			if (!nl_link_get(c.nl[a->role], a->ifname, &li))
				nl_link_del(c.nl[a->role], li.ifindex);
		}
	if (!rc)
		rc = make_taps(&c, fds, err, errlen);
	if (!rc)
		rc = lab_configure(&c, err, errlen);
	lab_ctx_close(&c);
	if (!rc)
		rc = boot(b, fds, err, errlen);
	close_taps(fds, c.ports, queues);
	if (rc) {
		/* nothing half-built: the VM, its taps and the namespaces */
		vm_lab_down(s->prefix, e2, sizeof(e2));
		for (int r = 0; r < LAB_NROLES; r++) {
			lab_ns_name(s->prefix, (enum lab_role)r, name, sizeof(name));
			netns_del(name, e2, sizeof(e2));
		}
	}
done:
	stop_let_go(&sigs);
	free(b);
	return rc;
}
