/* QEMU processes; see qemu.h. */
#include "os/qemu.h"

#include <dirent.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/kvm.h>

#include "core/ns.h"
#include "os/command.h"
#include "os/fs.h"
#include "os/procstat.h"

/* A probe QEMU's child side: killed with its parent (a lab up killed
 * mid-check leaves no QEMU behind), stdio on in (or /dev/null). */
static void probe_child(int in)
{
	int null = open("/dev/null", O_RDWR);

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || null < 0 ||
	    dup2(in >= 0 ? in : null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0)
		_exit(127);
}

/* Wait for pid at most ms milliseconds: true when it exited 0; killed
 * and reaped otherwise. */
static bool wait_bounded(pid_t pid, unsigned int ms)
{
	int st;

	for (unsigned int i = 0; i < ms / 10; i++) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			return WIFEXITED(st) && WEXITSTATUS(st) == 0;
		if (w < 0 && errno != EINTR)
			return false;
		nanosleep(&(struct timespec){ .tv_nsec = 10 * 1000 * 1000 }, NULL);
	}
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return false;
}

/* QEMU with KVM and the host's CPU model, paused before the first
 * instruction: its QMP greeting comes after the vCPU is set up, so a
 * "quit" it answers with exit status 0 says the vCPU was accepted. */
static bool kvm_starts(void)
{
	static const char quit[] = "{\"execute\":\"qmp_capabilities\"}\n{\"execute\":\"quit\"}\n";
	char bin[4096];
	int in[2];
	pid_t pid;

	if (qemu_find(bin, sizeof(bin)) || socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in))
		return false;
	pid = fork();
	if (pid == 0) {
		probe_child(in[0]);
		execl(bin, QEMU_BIN, "-nodefaults", "-no-user-config", "-display", "none", "-machine", "pc",
		      "-accel", "kvm", "-cpu", "host", "-m", "64", "-S", "-monitor", "none", "-serial", "none",
		      "-qmp", "stdio", (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	if (pid < 0) {
		close(in[1]);
		return false;
	}
	/* a socket, not a pipe: a QEMU already gone is no SIGPIPE here */
	if (send(in[1], quit, sizeof(quit) - 1, MSG_NOSIGNAL) < 0) {
		/* its exit status says why */
	}
	close(in[1]);
	return wait_bounded(pid, 5000);
}

bool qemu_kvm_usable(void)
{
	/* A fact about the host for the process's life, and the check starts
	 * a QEMU: kept (a matrix of VM labs asks at each lab up). */
	static int known = -1;
	int fd, v;

	if (known >= 0)
		return known;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return (known = 0);
	v = ioctl(fd, KVM_GET_API_VERSION, 0);
	close(fd);
	known = v == KVM_API_VERSION && kvm_starts();
	return known;
}

int qemu_kvm_verdict(void)
{
	char id[64], line[128], v[16], f[64];

	if (!procstat_boot_id(NULL, id, sizeof(id)) || fs_read(NULL, QEMU_KVM_VERDICT, line, sizeof(line)) <= 0 ||
	    sscanf(line, "%63s %15s", f, v) != 2 || strcmp(f, id))
		return 0;
	return !strcmp(v, "ok") ? 1 : !strcmp(v, "hangs") ? -1 : 0;
}

/* The kernel at image booted under KVM with no initramfs: it runs its
 * whole start and panics for want of a root (panic=-1 reboots, which
 * -no-reboot makes an exit), within QEMU_KVM_BOOT_MS; its console says
 * so. Under a working KVM that takes well under a second. */
static bool kvm_boots_now(const char *image)
{
	char bin[4096], log[] = "/run/wirerate/kvm-check.XXXXXX", buf[65536], serial[64];
	bool ok = false;
	pid_t pid;
	long n;
	int fd;

	if (qemu_find(bin, sizeof(bin)) || fs_mkdir_parents(log) || (fd = mkstemp(log)) < 0)
		return false;
	/* gone from the directory at once (nothing left if we are killed);
	 * QEMU opens it again through the descriptor it inherits */
	unlink(log);
	snprintf(serial, sizeof(serial), "file:/proc/self/fd/%d", fd);
	pid = fork();
	if (pid == 0) {
		probe_child(-1);
		execl(bin, QEMU_BIN, "-nodefaults", "-no-user-config", "-display", "none", "-machine", "pc",
		      "-accel", "kvm", "-cpu", "host", "-m", "128", "-no-reboot", "-monitor", "none", "-serial", serial,
		      "-kernel", image, "-append", "console=ttyS0 earlyprintk=serial,ttyS0 panic=-1 loglevel=4",
		      (char *)NULL);
		_exit(127);
	}
	if (pid > 0) {
		wait_bounded(pid, QEMU_KVM_BOOT_MS);
		n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			ok = strstr(buf, "Kernel panic");
		}
	}
	close(fd);
	return ok;
}

bool qemu_kvm_boots(const char *image)
{
	char id[64];
	int v = qemu_kvm_verdict();
	bool ok;

	if (v)
		return v > 0;
	ok = kvm_boots_now(image);
	if (procstat_boot_id(NULL, id, sizeof(id))) {
		struct fs_out o;

		/* a reader sees the whole line or none */
		if (!fs_out_open(&o, QEMU_KVM_VERDICT)) {
			fprintf(o.f, "%s %s\n", id, ok ? "ok" : "hangs");
			fs_out_close(&o, true);
		}
	}
	return ok;
}

int qemu_find(char *buf, size_t len)
{
	const char *path = getenv("PATH");
	char dir[4096];

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");

		snprintf(dir, sizeof(dir), "%.*s/%s", (int)n, path, QEMU_BIN);
		if (n && access(dir, X_OK) == 0) {
			snprintf(buf, len, "%s", dir);
			return 0;
		}
		path += n + (path[n] == ':');
	}
	return -ENOENT;
}

struct argbuf {
	const char **argv;
	unsigned int n;
	char *store;
	size_t len, off;
	int rc;
};

static void arg(struct argbuf *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void arg(struct argbuf *a, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (a->rc)
		return;
	if (a->n + 1 >= QEMU_ARGV_MAX || a->off >= a->len) {
		a->rc = -E2BIG;
		return;
	}
	va_start(ap, fmt);
	w = vsnprintf(a->store + a->off, a->len - a->off, fmt, ap);
	va_end(ap);
	if (w < 0 || (size_t)w >= a->len - a->off) {
		a->rc = -E2BIG;
		return;
	}
	a->argv[a->n++] = a->store + a->off;
	a->argv[a->n] = NULL;
	a->off += (size_t)w + 1;
}

int qemu_argv(const struct qemu_cfg *c, const char **argv, char *store, size_t len)
{
	struct argbuf a = { .argv = argv, .store = store, .len = len };

	arg(&a, "%s", QEMU_BIN);
	arg(&a, "-name");
	arg(&a, "%s", c->name);
	/* Nothing but what is asked for: no VGA, no default NIC or disk. */
	arg(&a, "-nodefaults");
	arg(&a, "-no-user-config");
	arg(&a, "-display");
	arg(&a, "none");
	arg(&a, "-no-reboot");		/* a panic or a reboot ends it */
	arg(&a, "-machine");
	arg(&a, "pc");
	arg(&a, "-accel");
	arg(&a, c->kvm ? "kvm" : "tcg,thread=multi");
	arg(&a, "-cpu");
	arg(&a, c->kvm ? "host" : "max");
	arg(&a, "-smp");
	arg(&a, "%u", c->cpus ? c->cpus : 1);
	arg(&a, "-m");
	arg(&a, "%u", c->memory_mib);
	arg(&a, "-kernel");
	arg(&a, "%s", c->kernel);
	arg(&a, "-initrd");
	arg(&a, "%s", c->initrd);
	arg(&a, "-append");
	arg(&a, "%s", c->append);
	arg(&a, "-serial");
	arg(&a, "file:%s", c->console);
	arg(&a, "-monitor");
	arg(&a, "none");
	arg(&a, "-pidfile");
	arg(&a, "%s", c->pidfile);
	arg(&a, "-daemonize");
	for (unsigned int i = 0; i < c->nnics; i++) {
		const struct qemu_nic *n = &c->nic[i];
		char fds[TAP_QUEUES_MAX * 12] = "";
		size_t off = 0;

		for (unsigned int q = 0; q < n->queues; q++)
			off += (size_t)snprintf(fds + off, sizeof(fds) - off, "%s%d", q ? ":" : "", n->fds[q]);
		arg(&a, "-netdev");
		arg(&a, "tap,id=n%u,%s=%s", i, n->queues > 1 ? "fds" : "fd", fds);
		char dev[200], mq[32] = "";

		/* mq wants vectors for every queue pair, the config and control */
		if (n->queues > 1)
			snprintf(mq, sizeof(mq), ",mq=on,vectors=%u", 2 * n->queues + 2);
		/* romfile= : no boot ROM to load, the kernel comes with -kernel */
		snprintf(dev, sizeof(dev), "virtio-net-pci,netdev=n%u,mac=%02x:%02x:%02x:%02x:%02x:%02x,host_mtu=%u,romfile=%s",
			 i, n->mac[0], n->mac[1], n->mac[2], n->mac[3], n->mac[4], n->mac[5], n->mtu ? n->mtu : 1500, mq);
		arg(&a, "-device");
		arg(&a, "%s", dev);
	}
	if (c->nports) {
		arg(&a, "-device");
		arg(&a, "virtio-serial-pci,id=vs0");
	}
	for (unsigned int k = 0; k < c->nports; k++) {
		arg(&a, "-chardev");
		arg(&a, "socket,id=ag%u,path=%s,server=on,wait=off", k, c->port_sock[k]);
		arg(&a, "-device");
		arg(&a, "virtserialport,bus=vs0.0,chardev=ag%u,name=wirerate.agent%u", k, k);
	}
	return a.rc;
}

bool qemu_alive(pid_t pid, const char *name)
{
	char path[64], buf[8192];
	long n;

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if ((n = fs_read(NULL, path, buf, sizeof(buf))) <= 0)
		return false;
	/* arguments NUL-separated: "-name" then the name */
	for (long i = 0; i < n; i += (long)strlen(buf + i) + 1)
		if (!strcmp(buf + i, "-name") && i + 6 < n && !strcmp(buf + i + 6, name))
			return true;
	return false;
}

int qemu_vcpu_threads(pid_t pid, pid_t *tid, int max)
{
	char path[64], comm[64];
	struct dirent *e;
	int found = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return 0;
	for (int k = 0; k < max; k++)
		tid[k] = 0;
	while ((e = readdir(d))) {
		char cpath[300];
		int k;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(cpath, sizeof(cpath), "/proc/%d/task/%s/comm", (int)pid, e->d_name);
		if (fs_read(NULL, cpath, comm, sizeof(comm)) <= 0)
			continue;
		if (sscanf(comm, "CPU %d/", &k) == 1 && k >= 0 && k < max && !tid[k]) {
			tid[k] = (pid_t)atoi(e->d_name);
			found++;
		}
	}
	closedir(d);
	return found;
}

static int set_affinity(pid_t tid, const struct cpuset *cpus)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int c = cpuset_next(cpus, 0); c >= 0 && c < CPU_SETSIZE; c = cpuset_next(cpus, (unsigned)c + 1))
		CPU_SET(c, &set);
	return sched_setaffinity(tid, sizeof(set), &set) ? -errno : 0;
}

int qemu_pin(pid_t pid, const struct cpuset *cpus, const int *vcpu_cpu, int nvcpu)
{
	pid_t tid[64];
	char path[64];
	struct dirent *e;
	DIR *d;
	int rc = 0, n = nvcpu < 64 ? nvcpu : 64;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return -errno;
	while ((e = readdir(d)))
		if (e->d_name[0] >= '0' && e->d_name[0] <= '9' && !rc)
			rc = set_affinity((pid_t)atoi(e->d_name), cpus);
	closedir(d);
	if (rc)
		return rc;
	qemu_vcpu_threads(pid, tid, n);
	for (int k = 0; k < n && !rc; k++) {
		struct cpuset one;

		if (vcpu_cpu[k] < 0 || !tid[k])
			continue;
		cpuset_zero(&one);
		cpuset_add(&one, (unsigned)vcpu_cpu[k]);
		rc = set_affinity(tid[k], &one);
	}
	return rc;
}

static bool gone_within(pid_t pid, const char *name, unsigned int ms)
{
	for (unsigned int t = 0; t < ms; t += 10) {
		struct timespec ts = { 0, 10 * NSEC_PER_MSEC };

		/* our child when we started it, a zombie until reaped */
		waitpid(pid, NULL, WNOHANG);
		if (!qemu_alive(pid, name))
			return true;
		nanosleep(&ts, NULL);
	}
	return !qemu_alive(pid, name);
}

int qemu_stop(pid_t pid, const char *name, unsigned int wait_ms)
{
	if (!qemu_alive(pid, name))
		return 0;
	kill(pid, SIGTERM);
	if (gone_within(pid, name, wait_ms))
		return 0;
	kill(pid, SIGKILL);
	return gone_within(pid, name, wait_ms) ? 0 : -ETIMEDOUT;
}

int qemu_start(const struct qemu_cfg *cfg, pid_t *pid, char *err, size_t errlen)
{
	const char *argv[QEMU_ARGV_MAX];
	char store[16384];
	char buf[32], tail[300];
	int rc, status;
	pid_t child;

	*pid = 0;
	if ((rc = qemu_argv(cfg, argv, store, sizeof(store)))) {
		snprintf(err, errlen, "the QEMU command line is too long");
		return rc;
	}
	unlink(cfg->pidfile);
	fflush(NULL);
	if ((child = fork()) < 0) {
		rc = -errno;
		snprintf(err, errlen, "fork: %s", strerror(errno));
		return rc;
	}
	if (child == 0) {
		int in = open("/dev/null", O_RDONLY), out = open(cfg->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

		/* the taps' descriptors are QEMU's now: keep them across exec */
		for (unsigned int i = 0; i < cfg->nnics; i++)
			for (unsigned int q = 0; q < cfg->nic[i].queues; q++)
				fcntl(cfg->nic[i].fds[q], F_SETFD, 0);
		if (in < 0 || out < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
			_exit(126);
		/* the caller may block signals while it builds: not for the child */
		{
			sigset_t none;

			sigemptyset(&none);
			sigprocmask(SIG_SETMASK, &none, NULL);
		}
		/* a session of its own: the tester's Ctrl-C is not the VM's */
		setsid();
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
		execvp(argv[0], (char *const *)argv);
		dprintf(2, "cannot run %s: %s (install qemu-system-x86)\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* -daemonize: this child returns once the machine is made */
	while (waitpid(child, &status, 0) < 0)
		if (errno != EINTR) {
			rc = -errno;
			snprintf(err, errlen, "waiting for QEMU: %s", strerror(errno));
			return rc;
		}
	command_log_tail(cfg->log, tail, sizeof(tail));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, errlen, "QEMU did not start: %s", tail[0] ? tail : "no reason given");
		return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -ENOENT : -EIO;
	}
	if (fs_read(NULL, cfg->pidfile, buf, sizeof(buf)) <= 0 || (*pid = (pid_t)atoi(buf)) <= 0) {
		snprintf(err, errlen, "QEMU started but wrote no pid to %s", cfg->pidfile);
		return -EIO;
	}
	return 0;
}
