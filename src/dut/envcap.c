#include "dut/envcap.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>

#include "os/cpulat.h"
#include "os/ethtool.h"
#include "os/fs.h"
#include "lab/lab.h"
#include "os/netns.h"
#include "wr_config.h"
#include "wr_revision.h"

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

void envcap_host(struct envcap *e, const char *root)
{
	char buf[4096];
	long n;

	if (fs_read(root, "/proc/sys/kernel/osrelease", buf, sizeof(buf)) > 0) {
		trim(buf);
		envcap_kv_set(e, "kernel.release", "%s", buf);
	}
	if (fs_read(root, "/proc/cmdline", buf, sizeof(buf)) > 0) {
		trim(buf);
		envcap_kv_set(e, "kernel.cmdline", "%s", buf);
	}
	if (fs_read(root, "/sys/devices/system/cpu/online", buf, sizeof(buf)) > 0) {
		trim(buf);
		envcap_kv_set(e, "cpu.online", "%s", buf);
	}
	/* /proc/cpuinfo is larger than one read buffer on big hosts: count
	 * processors line by line. */
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root && *root ? root : "");
	if ((f = fopen(path, "re"))) {
		unsigned int cpus = 0;
		bool model = false;

		while (fgets(buf, sizeof(buf), f)) {
			char *colon = strchr(buf, ':');

			if (!strncmp(buf, "processor", 9))
				cpus++;
			if (!model && colon && (!strncmp(buf, "model name", 10) || !strncmp(buf, "Model", 5) ||
						!strncmp(buf, "cpu model", 9))) {
				char *v = colon + 1;

				while (*v == ' ' || *v == '\t')
					v++;
				trim(v);
				envcap_kv_set(e, "cpu.model", "%s", v);
				model = true;
			}
		}
		fclose(f);
		if (cpus)
			envcap_kv_set(e, "cpu.count", "%u", cpus);
	}
	/* How far apart the host has the CPUs now (this host only, never a
	 * fixture's): on a VM it moves them, and the figures with them. */
	if (!root || !*root || !strcmp(root, "/")) {
		struct cpulat_pair p[ENVCAP_LINE_PAIRS];
		int np = cpulat_from_first(p, ENVCAP_LINE_PAIRS);

		cpulat_format(p, np, buf, sizeof(buf));
		if (buf[0])
			envcap_kv_set(e, "cpu.line_ns", "%s", buf);
	}
	envcap_kv_set(e, "wirerate.version", "%s", WR_VERSION);
	envcap_kv_set(e, "wirerate.revision", "%s", WR_REVISION);
	n = gethostname(buf, sizeof(buf) - 1);
	if (n == 0) {
		buf[sizeof(buf) - 1] = '\0';
		envcap_kv_set(e, "host.name", "%s", buf);
	}
}

static int eth_cmd(int sock, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(sock, SIOCETHTOOL, &ifr) ? -errno : 0;
}

/* Does the action column of an /proc/interrupts line name ifname, as
 * "eth0" or "eth0-TxRx-3"? */
static bool irq_names(const char *line, const char *ifname)
{
	size_t n = strlen(ifname);

	for (const char *p = strstr(line, ifname); p; p = strstr(p + 1, ifname)) {
		bool start = p == line || isspace((unsigned char)p[-1]) || p[-1] == ',';
		char end = p[n];

		if (start && (end == '\0' || end == '\n' || end == '-' || end == ' ' || end == ','))
			return true;
	}
	return false;
}

/* The name a port's IRQs go by when it is not the port's own: a virtio
 * NIC's are its virtio device's ("virtio1-input.0", "virtio1-output.0";
 * its "-config" one is no queue's), "" otherwise. */
static void irq_device(const char *root, const char *ifname, char *dev, size_t len)
{
	char path[4096], link[4096];
	const char *base;
	ssize_t n;

	dev[0] = '\0';
	snprintf(path, sizeof(path), "%s/sys/class/net/%s/device", root && *root ? root : "", ifname);
	if ((n = readlink(path, link, sizeof(link) - 1)) <= 0)
		return;
	link[n] = '\0';
	base = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	if (!strncmp(base, "virtio", 6) && base[6] >= '0' && base[6] <= '9' && strlen(base) < len)
		memcpy(dev, base, strlen(base) + 1);
}

/* Is an /proc/interrupts line's action column one of the port's IRQs? */
static bool irq_of(const char *action, const char *ifname, const char *dev)
{
	return irq_names(action, ifname) || (dev[0] && irq_names(action, dev) && !strstr(action, "-config"));
}

int envcap_irqs_of(const char *root, const char *ifname, long *irqs, unsigned int max)
{
	char path[4096], line[4096], dev[256];
	unsigned int n = 0;
	FILE *f;

	irq_device(root, ifname, dev, sizeof(dev));
	snprintf(path, sizeof(path), "%s/proc/interrupts", root && *root ? root : "");
	if (!(f = fopen(path, "re")))
		return -errno;
	while (fgets(line, sizeof(line), f) && n < max) {
		char *colon = strchr(line, ':');
		char *end;
		long irq = strtol(line, &end, 10);

		if (colon && end != line && end <= colon && irq_of(colon + 1, ifname, dev))
			irqs[n++] = irq;
	}
	fclose(f);
	return (int)n;
}

/* "25:0-1 26:1" — the port's IRQs and where each may run. */
static void port_irqs(const char *root, const char *ifname, char *out, size_t len)
{
	char path[4096], line[4096], aff[256], dev[256];
	size_t off = 0;
	FILE *f;

	out[0] = '\0';
	irq_device(root, ifname, dev, sizeof(dev));
	snprintf(path, sizeof(path), "%s/proc/interrupts", root && *root ? root : "");
	if (!(f = fopen(path, "re"))) {
		snprintf(out, len, "unreadable");
		return;
	}
	while (fgets(line, sizeof(line), f) && off < len) {
		char *colon = strchr(line, ':');
		char *end;
		long irq = strtol(line, &end, 10);

		if (!colon || end == line || end > colon || !irq_of(colon + 1, ifname, dev))
			continue;
		snprintf(path, sizeof(path), "/proc/irq/%ld/smp_affinity_list", irq);
		if (fs_read(root, path, aff, sizeof(aff)) > 0)
			trim(aff);
		else
			snprintf(aff, sizeof(aff), "?");
		off += (size_t)snprintf(out + off, len - off, "%s%ld:%s", off ? " " : "", irq, aff);
	}
	fclose(f);
	if (!out[0])
		snprintf(out, len, "none");
}

void envcap_port(struct envcap *e, const char *name, int nsfd, const char *ifname,
		 const char *root, bool sys_rps)
{
	char key[ENVCAP_KEY], buf[1024];
	int saved = -1, sock = -1;

	envcap_kv_set(e, (snprintf(key, sizeof(key), "port.%s.name", name), key), "%s", ifname);
	if (nsfd < 0 || !netns_enter(nsfd, &saved)) {
		sock = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (nsfd >= 0)
			netns_leave(&saved);
	}
	if (sock >= 0) {
		struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
		struct ethtool_ringparam rp = { .cmd = ETHTOOL_GRINGPARAM };
		struct offloads o;
		unsigned int mbps = 0;

		snprintf(key, sizeof(key), "port.%s.driver", name);
		if (!eth_cmd(sock, ifname, &di))
			envcap_kv_set(e, key, "%s%s%s", di.driver, di.version[0] ? " " : "", di.version);
		else
			envcap_kv_set(e, key, "unknown");
		if (di.fw_version[0]) {
			snprintf(key, sizeof(key), "port.%s.firmware", name);
			envcap_kv_set(e, key, "%.*s", (int)sizeof(di.fw_version), di.fw_version);
		}
		snprintf(key, sizeof(key), "port.%s.queues", name);
		{
			unsigned int rxq = 0, txq = 0;

			if (!ethtool_queues(sock, ifname, &rxq, &txq))
				envcap_kv_set(e, key, "rx=%u tx=%u", rxq, txq);
		}
		snprintf(key, sizeof(key), "port.%s.speed", name);
		if (!ethtool_speed(sock, ifname, &mbps) && mbps)
			envcap_kv_set(e, key, "%u Mb/s", mbps);
		else
			envcap_kv_set(e, key, "unknown");
		snprintf(key, sizeof(key), "port.%s.offloads", name);
		if (!ethtool_offloads_get(sock, ifname, &o))
			envcap_kv_set(e, key, "gro=%s gso=%s tso=%s", o.gro ? "on" : "off", o.gso ? "on" : "off",
				   o.tso ? "on" : "off");
		else
			envcap_kv_set(e, key, "unknown");
		snprintf(key, sizeof(key), "port.%s.rings", name);
		if (!eth_cmd(sock, ifname, &rp))
			envcap_kv_set(e, key, "rx=%u/%u tx=%u/%u", rp.rx_pending, rp.rx_max_pending, rp.tx_pending,
				   rp.tx_max_pending);
		else
			envcap_kv_set(e, key, "not readable");
		close(sock);
	}
	port_irqs(root, ifname, buf, sizeof(buf));
	snprintf(key, sizeof(key), "port.%s.driver", name);
	const char *drv = envcap_kv_get(e, key);

	snprintf(key, sizeof(key), "port.%s.irqs", name);
	if (!strcmp(buf, "none") && drv && !strncmp(drv, "veth", 4))
		envcap_kv_set(e, key, "none (veth has no IRQs: its receive work runs where RPS puts it)");
	else
		envcap_kv_set(e, key, "%s", buf);
	if (sys_rps) {
		char path[256];

		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/rx-0/rps_cpus", ifname);
		if (fs_read(root, path, buf, sizeof(buf)) > 0) {
			trim(buf);
			snprintf(key, sizeof(key), "port.%s.rps", name);
			envcap_kv_set(e, key, "%s", buf);
		}
	}
}

int envcap_lab(struct envcap *e, const char *prefix, char *err, size_t errlen)
{
	struct lab_status *st = calloc(1, sizeof(*st));
	char list[256];
	int rc;

	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if ((rc = lab_status(prefix, st, err, errlen)))
		goto out;
	envcap_kv_set(e, "lab.prefix", "%s", prefix);
	envcap_kv_set(e, "lab.placement", "%s", lab_placement_name(st->placement));
	if (st->rules >= 0)
		envcap_kv_set(e, "lab.rules", "%d", st->rules);
	cpuset_format_list(&st->dut_cpus, list, sizeof(list));
	envcap_kv_set(e, "lab.dut_cpus", "%s", list[0] ? list : "none");
	envcap_kv_set(e, "lab.dut_cpu_count", "%u", st->vm.on ? st->vm.vcpus : cpuset_count(&st->dut_cpus));
	/* A VM's kernel is what the run measures; how it was emulated says
	 * what the figures compare with (TCG: kernels relative to each other) */
	envcap_kv_set(e, "lab.kind", "%s", st->vm.on ? "vm" : "netns");
	if (st->vm.on) {
		envcap_kv_set(e, "lab.vm.kernel", "%s", st->vm.kernel);
		envcap_kv_set(e, "lab.vm.release", "%s", st->vm.release);
		envcap_kv_set(e, "lab.vm.source", "%s", st->vm.source);
		envcap_kv_set(e, "lab.vm.accel", "%s", st->vm.accel);
		envcap_kv_set(e, "lab.vm.vcpus", "%u", st->vm.vcpus);
		envcap_kv_set(e, "lab.vm.memory_mib", "%u", st->vm.memory_mib);
		envcap_kv_set(e, "lab.vm.cmdline", "%s", st->vm.cmdline[0] ? st->vm.cmdline : "none");
		cpuset_format_list(&st->vm.host_cpus, list, sizeof(list));
		envcap_kv_set(e, "lab.vm.host_cpus", "%s", list[0] ? list : "unpinned");
	}
	if (st->ifs[LAB_DUT0].present)
		envcap_kv_set(e, "lab.mtu", "%u", st->ifs[LAB_DUT0].link.mtu);
	/* NAPI mode (XDP on the DUT's ports) or plain skb mode: where an
	 * overloaded DUT drops, so it belongs with the configuration. */
	{
		bool napi = true;

		for (unsigned int p = 0; p < st->ports; p++)
			napi = napi && st->ifs[p * LAB_NIFS + LAB_DUT0].link.xdp_prog_id &&
			       st->ifs[p * LAB_NIFS + LAB_DUT1].link.xdp_prog_id;
		envcap_kv_set(e, "lab.ingress", "%s", st->vm.on ? "virtio" : napi ? "napi" : "skb");
	}
	envcap_kv_set(e, "lab.queues", "%u", st->queues);
	envcap_kv_set(e, "lab.ports", "%u", st->ports);
	if (!strcmp(st->shape.kind, "tbf")) {
		if (st->shape.pkt_size)
			envcap_kv_set(e, "lab.shape", "%.0fpps", (double)st->shape.rate / st->shape.pkt_size);
		else
			envcap_kv_set(e, "lab.shape", "%.0fbit", (double)st->shape.rate * 8);
	} else {
		envcap_kv_set(e, "lab.shape", "none");
	}
	for (unsigned int i = 0; i < st->ports * LAB_NIFS; i++) {
		const struct lab_addr *a = lab_path_if(i / LAB_NIFS, (enum lab_ifx)(i % LAB_NIFS));
		char ns[NETNS_NAME_MAX], key[ENVCAP_KEY];
		int fd;

		if (!st->ifs[i].present)
			continue;
		if (st->ifs[i].rps_known) {
			cpuset_format_list(&st->ifs[i].rps, list, sizeof(list));
			snprintf(key, sizeof(key), "lab.%s.rps", a->ifname);
			envcap_kv_set(e, key, "%s", list[0] ? list : "none");
		}
		lab_ns_name(prefix, a->role, ns, sizeof(ns));
		if (st->vm.on && a->role == LAB_DUT)
			continue;	/* the guest's: its agent reports them */
		if ((fd = netns_open(ns)) >= 0) {
			envcap_port(e, a->ifname, fd, a->ifname, NULL, false);
			close(fd);
		}
	}
out:
	free(st);
	return rc;
}

void envcap_config(const struct envcap *e, char *buf, size_t len)
{
	/* dflt: a value left out, so that runs stored before the part was
	 * recorded (when it could only be that) read the same */
	static const struct {
		const char *key, *name, *dflt;
	} parts[] = {
		{ "lab.vm.release", "kernel", NULL }, { "lab.vm.cmdline", "cmdline", "none" },
		{ "lab.vm.accel", "accel", NULL },
		{ "lab.placement", "placement", NULL }, { "lab.rules", "rules", NULL },
		{ "dut.placement", "placement", NULL }, { "dut.rules", "rules", NULL },
		{ "lab.dut_cpu_count", "dut-cpus", NULL }, { "lab.mtu", "mtu", NULL }, { "lab.shape", "shape", NULL },
		{ "lab.queues", "queues", "1" }, { "lab.ports", "ports", "1" }, { "lab.ingress", "ingress", "napi" }, { "run.flows", "flows", NULL },
		{ "run.directions", "dirs", NULL }, { "run.port_type", "port", NULL },
		{ "run.exceed_ratio", "exceed", "0" }, { "run.duration_sum", "duration-sum", NULL },
	};
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]) && off < len; i++) {
		const char *v = envcap_kv_get(e, parts[i].key);

		if (v && parts[i].dflt && !strcmp(v, parts[i].dflt))
			continue;
		if (v && *v)
			off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", off ? " " : "", parts[i].name, v);
	}
}
