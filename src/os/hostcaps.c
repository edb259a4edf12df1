#include "os/hostcaps.h"
#include "os/qemu.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <arpa/inet.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/if_packet.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>

#include "os/fs.h"
#include "os/nl.h"
#include "os/nft.h"

#ifndef AF_XDP
#define AF_XDP 44
#endif

static const char *const names[PR_COUNT] = {
	[PR_ROOT] = "root", [PR_NETNS] = "netns", [PR_VETH] = "veth",
	[PR_PACKET_TX_RING] = "af_packet_tx_ring", [PR_PACKET_RX_RING] = "af_packet_rx_ring",
	[PR_QDISC_BYPASS] = "qdisc_bypass", [PR_AF_XDP] = "af_xdp", [PR_BPF] = "bpf",
	[PR_XDP_VETH] = "xdp_native_veth", [PR_NFTABLES] = "nftables",
	[PR_IPTABLES] = "iptables", [PR_TBF] = "tbf", [PR_RPS] = "rps",
	[PR_IRQ_TIME] = "irq_time_accounting", [PR_XDP_LIVE] = "xdp_live_frames",
	[PR_STEADY_CPU] = "steady_cpu", [PR_TUN] = "tun", [PR_QEMU] = "qemu", [PR_KVM] = "kvm",
	[PR_VM_KERNELS] = "vm_kernels",
};

void hostcaps_set(struct probe_report *r, enum probe_id id, enum probe_state s, const char *detail)
{
	r->item[id].name = names[id];
	r->item[id].state = s;
	snprintf(r->item[id].detail, sizeof(r->item[id].detail), "%s", detail);
}

int hostcaps_find(const char *name)
{
	for (int i = 0; i < PR_COUNT; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static void set(struct probe_report *r, enum probe_id id, enum probe_state s, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void set(struct probe_report *r, enum probe_id id, enum probe_state s, const char *fmt, ...)
{
	va_list ap;

	r->item[id].state = s;
	va_start(ap, fmt);
	vsnprintf(r->item[id].detail, sizeof(r->item[id].detail), fmt, ap);
	va_end(ap);
}

/* ---- checks that run inside a throw-away namespace (child process) ---- */

static int packet_socket(void)
{
	return socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
}

static void check_packet(struct probe_report *r)
{
	int v, fd = packet_socket();
	struct tpacket_req req = { .tp_block_size = 4096, .tp_block_nr = 1, .tp_frame_size = 2048, .tp_frame_nr = 2 };
	struct tpacket_req3 req3 = { .tp_block_size = 4096, .tp_block_nr = 1, .tp_frame_size = 2048,
				     .tp_frame_nr = 2, .tp_retire_blk_tov = 10 };

	if (fd < 0) {
		set(r, PR_PACKET_TX_RING, PROBE_NO, "AF_PACKET sockets: %s", strerror(errno));
		set(r, PR_PACKET_RX_RING, PROBE_NO, "AF_PACKET sockets: %s", strerror(errno));
		set(r, PR_QDISC_BYPASS, PROBE_NO, "AF_PACKET sockets: %s", strerror(errno));
		return;
	}
	v = TPACKET_V2;
	if (!setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) &&
	    !setsockopt(fd, SOL_PACKET, PACKET_TX_RING, &req, sizeof(req)))
		set(r, PR_PACKET_TX_RING, PROBE_YES, "AF_PACKET transmit ring (TPACKET_V2): frames built once, one kick per batch");
	else
		set(r, PR_PACKET_TX_RING, PROBE_NO, "no PACKET_TX_RING (%s): the generator falls back to sendmmsg", strerror(errno));
	v = 1;
	if (!setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &v, sizeof(v)))
		set(r, PR_QDISC_BYPASS, PROBE_YES, "PACKET_QDISC_BYPASS: the generator skips the qdisc layer");
	else
		set(r, PR_QDISC_BYPASS, PROBE_NO, "no PACKET_QDISC_BYPASS (%s): frames pass the qdisc, which costs rate", strerror(errno));
	close(fd);

	fd = packet_socket();
	v = TPACKET_V3;
	if (fd >= 0 && !setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v, sizeof(v)) &&
	    !setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req3, sizeof(req3)))
		set(r, PR_PACKET_RX_RING, PROBE_YES, "AF_PACKET receive block ring (TPACKET_V3) with drop counters");
	else
		set(r, PR_PACKET_RX_RING, PROBE_NO, "no TPACKET_V3 receive ring (%s)", strerror(errno));
	if (fd >= 0)
		close(fd);
}

static int load_xdp_pass(void)
{
	/* r0 = XDP_PASS; exit */
	struct bpf_insn insns[2] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = XDP_PASS },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	union bpf_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.prog_type = BPF_PROG_TYPE_XDP;
	attr.insns = (uint64_t)(uintptr_t)insns;
	attr.insn_cnt = 2;
	attr.license = (uint64_t)(uintptr_t)"GPL";
	return (int)syscall(__NR_bpf, BPF_PROG_LOAD, &attr, sizeof(attr));
}

static void check_in_netns(struct probe_report *r)
{
	static const uint8_t m0[6] = { 0x02, 0x77, 0x72, 0xff, 0, 1 }, m1[6] = { 0x02, 0x77, 0x72, 0xff, 0, 2 };
	char err[256];
	struct nl *nl;
	struct link_info li;
	int fd, rc;

	check_packet(r);

	fd = socket(AF_XDP, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (fd >= 0) {
		set(r, PR_AF_XDP, PROBE_YES, "AF_XDP sockets: the fast generator and analyzer path");
		close(fd);
	} else {
		set(r, PR_AF_XDP, PROBE_NO, "no AF_XDP (%s): the AF_PACKET path is used", strerror(errno));
	}

	if (!(nl = nl_create(-1, err, sizeof(err)))) {
		set(r, PR_VETH, PROBE_NO, "%s", err);
		return;
	}
	rc = nl_veth_add(nl, "wrprobe0", m0, "wrprobe1", m1, -1, 1);
	if (rc || nl_link_get(nl, "wrprobe0", &li)) {
		set(r, PR_VETH, PROBE_NO, "cannot create a veth pair (%s): no lab here", strerror(-rc));
		nl_destroy(nl);
		return;
	}
	set(r, PR_VETH, PROBE_YES, "veth pairs: the lab's links");

	fd = load_xdp_pass();
	if (fd < 0) {
		set(r, PR_BPF, PROBE_NO, "cannot load a BPF program (%s)", strerror(errno));
		set(r, PR_XDP_VETH, PROBE_NO, "needs BPF");
	} else {
		set(r, PR_BPF, PROBE_YES, "BPF programs load (XDP type)");
		rc = nl_xdp_set(nl, li.ifindex, fd, XDP_FLAGS_DRV_MODE);
		if (!rc) {
			set(r, PR_XDP_VETH, PROBE_YES, "native XDP on veth: the DUT can receive in NAPI mode and drop like a NIC");
			nl_xdp_set(nl, li.ifindex, -1, XDP_FLAGS_DRV_MODE);
		} else {
			set(r, PR_XDP_VETH, PROBE_NO, "native XDP on veth refused (%s)", strerror(-rc));
		}
		close(fd);
	}

	{
		struct tbf_params p = { .rate = 125000, .burst = 10000, .limit = 20000, .overhead = 24 };

		rc = nl_qdisc_tbf(nl, li.ifindex, &p);
		if (!rc)
			set(r, PR_TBF, PROBE_YES, "tbf qdisc: 'lab --shape' can give the DUT a known capacity");
		else
			set(r, PR_TBF, PROBE_NO, "no tbf qdisc (%s): 'lab --shape' is unavailable", strerror(-rc));
	}
	nl_link_del(nl, li.ifindex);
	nl_destroy(nl);

	rc = nft_null_rules_set(1, err, sizeof(err));
	if (!rc)
		set(r, PR_NFTABLES, PROBE_YES, "nftables: 'lab --rules N' can load null firewall rules");
	else
		set(r, PR_NFTABLES, PROBE_NO, "nftables unusable: %s", err);
}

/* The child writes its items back as raw structs; same binary, same layout. */
static void probe_netns(struct probe_report *r)
{
	int pfd[2], status;
	pid_t pid;

	if (pipe(pfd)) {
		set(r, PR_NETNS, PROBE_UNKNOWN, "pipe: %s", strerror(errno));
		return;
	}
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		struct probe_report c;

		close(pfd[0]);
		memset(&c, 0, sizeof(c));
		for (int i = 0; i < PR_COUNT; i++)
			c.item[i].state = PROBE_UNKNOWN;
		if (unshare(CLONE_NEWNET)) {
			set(&c, PR_NETNS, PROBE_NO, "cannot create a network namespace (%s): no lab here", strerror(errno));
		} else {
			set(&c, PR_NETNS, PROBE_YES, "network namespaces: the lab and the tests can run here");
			check_in_netns(&c);
		}
		if (write(pfd[1], &c, sizeof(c)) != (ssize_t)sizeof(c))
			_exit(1);
		_exit(0);
	}
	close(pfd[1]);
	if (pid > 0) {
		struct probe_report c;
		ssize_t n = 0, k;

		while (n < (ssize_t)sizeof(c) && (k = read(pfd[0], (char *)&c + n, sizeof(c) - (size_t)n)) > 0)
			n += k;
		waitpid(pid, &status, 0);
		if (n == (ssize_t)sizeof(c)) {
			for (int i = 0; i < PR_COUNT; i++)
				if (c.item[i].state != PROBE_UNKNOWN || c.item[i].detail[0])
					r->item[i] = c.item[i];
		} else {
			set(r, PR_NETNS, PROBE_UNKNOWN, "the probe child failed");
		}
	}
	close(pfd[0]);
}

/* ---- checks from files ---- */

static int kconfig_get(const char *root, const char *release, const char *opt)
{
	char path[512], line[512];
	size_t ol = strlen(opt);
	gzFile gz;
	int found = -1;

	snprintf(path, sizeof(path), "%s/proc/config.gz", strcmp(root, "/") ? root : "");
	gz = gzopen(path, "rb");
	if (!gz) {
		snprintf(path, sizeof(path), "%s/boot/config-%s", strcmp(root, "/") ? root : "", release);
		gz = gzopen(path, "rb"); /* reads plain files too */
	}
	if (!gz)
		return -1;
	found = 0;
	while (gzgets(gz, line, sizeof(line))) {
		if (!strncmp(line, opt, ol) && (line[ol] == '=')) {
			found = line[ol + 1] == 'y' || line[ol + 1] == 'm';
			break;
		}
	}
	gzclose(gz);
	return found;
}

static void probe_files(struct probe_report *r, const char *root)
{
	char buf[256];
	struct utsname u;
	int k;

	uname(&u);
	snprintf(r->kernel, sizeof(r->kernel), "%s", u.release);
	if (fs_read(root, "/sys/devices/system/clocksource/clocksource0/current_clocksource", buf, sizeof(buf)) > 0) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(r->clocksource, sizeof(r->clocksource), "%.60s", buf);
	} else {
		snprintf(r->clocksource, sizeof(r->clocksource), "unknown");
	}
	if (fs_read(root, "/sys/devices/system/cpu/online", buf, sizeof(buf)) > 0) {
		unsigned int a, b, n = 0;

		buf[strcspn(buf, "\n")] = '\0';
		snprintf(r->cpus_list, sizeof(r->cpus_list), "%.120s", buf);
		for (char *p = buf; *p;) {
			int used = 0;

			if (sscanf(p, "%u-%u%n", &a, &b, &used) == 2 && used)
				n += b - a + 1;
			else if (sscanf(p, "%u%n", &a, &used) == 1 && used)
				n++;
			else
				break;
			p += used;
			if (*p == ',')
				p++;
		}
		r->cpus_online = n;
	}
	k = kconfig_get(root, u.release, "CONFIG_IRQ_TIME_ACCOUNTING");
	if (k == 1)
		set(r, PR_IRQ_TIME, PROBE_YES, "CONFIG_IRQ_TIME_ACCOUNTING: /proc/stat counts irq and softirq time exactly");
	else if (k == 0)
		set(r, PR_IRQ_TIME, PROBE_NO, "no CONFIG_IRQ_TIME_ACCOUNTING: /proc/stat samples irq/softirq time at ticks and undercounts it; CPU cost comes from the soak method");
	else
		set(r, PR_IRQ_TIME, PROBE_UNKNOWN, "kernel config not readable (/proc/config.gz, /boot/config-*): irq/softirq time in /proc/stat may be undercounted");
	k = kconfig_get(root, u.release, "CONFIG_RPS");
	if (k == 0)
		set(r, PR_RPS, PROBE_NO, "no CONFIG_RPS: the lab DUT cannot get CPUs of its own");
	else if (fs_read(root, "/sys/class/net/lo/queues/rx-0/rps_cpus", buf, sizeof(buf)) > 0 || k == 1)
		set(r, PR_RPS, PROBE_YES, "RPS: the lab steers the DUT's receive work to its own CPUs");
	else
		set(r, PR_RPS, PROBE_UNKNOWN, "cannot tell whether RPS is built in");
	if (!access("/usr/sbin/iptables", X_OK) || !access("/sbin/iptables", X_OK))
		set(r, PR_IPTABLES, PROBE_YES, "iptables command present");
	else
		set(r, PR_IPTABLES, PROBE_NO, "no iptables command (wirerate uses nftables itself; only peers need it)");
}

/* What a VM lab needs: taps, QEMU, and whether KVM runs it or TCG
 * emulates it. */
static void probe_vm(struct probe_report *r)
{
	char path[512];
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);

	if (fd >= 0) {
		close(fd);
		set(r, PR_TUN, PROBE_YES, "taps (/dev/net/tun): a VM lab's NICs");
	} else {
		set(r, PR_TUN, PROBE_NO, "no /dev/net/tun (%s): no VM lab (lab up --kernel) here", strerror(errno));
	}
	if (!qemu_find(path, sizeof(path)))
		set(r, PR_QEMU, PROBE_YES, "%s: 'lab up --kernel' boots the DUT's kernel in a VM", path);
	else
		set(r, PR_QEMU, PROBE_NO, "no %s: 'lab up --kernel' needs it (apt-get install qemu-system-x86)", QEMU_BIN);
	if (qemu_kvm_usable() && qemu_kvm_verdict() < 0)
		set(r, PR_KVM, PROBE_NO, "KVM starts QEMU's vCPUs here, but a kernel booted under it hung before its "
		    "first message (lab up --kernel checked, this boot of the host): a VM lab is emulated (TCG), tens of "
		    "times slower, so its figures compare kernels only relative to each other");
	else if (qemu_kvm_usable())
		set(r, PR_KVM, PROBE_YES, "KVM: a VM lab runs at the host's speed%s",
		    qemu_kvm_verdict() > 0 ? " (a kernel booted under it)" : "");
	else
		set(r, PR_KVM, PROBE_NO, "no usable KVM (no /dev/kvm, or QEMU cannot start a vCPU on it): a VM lab is emulated (TCG), tens of times slower, so its "
		    "figures compare kernels only relative to each other");
	/* the cache lives above this layer: the command checks and sets it */
	set(r, PR_VM_KERNELS, PROBE_UNKNOWN, "not checked");
}

void hostcaps_run(struct probe_report *r, const char *sys_root, bool have_root)
{
	memset(r, 0, sizeof(*r));
	for (int i = 0; i < PR_COUNT; i++) {
		r->item[i].name = names[i];
		r->item[i].state = PROBE_UNKNOWN;
	}
	if (have_root) {
		set(r, PR_ROOT, PROBE_YES, "CAP_NET_ADMIN and CAP_SYS_ADMIN: labs, raw ports and XDP are allowed");
		probe_netns(r);
	} else {
		set(r, PR_ROOT, PROBE_NO, "not root: lab, trial and the namespace checks below need root");
		for (int i = PR_NETNS; i <= PR_TBF; i++)
			if (i != PR_IPTABLES)
				set(r, (enum probe_id)i, PROBE_UNKNOWN, "not checked: needs root");
	}
	for (int i = 0; i < PR_COUNT; i++)
		r->item[i].name = names[i];
	/* the soak lives above this layer: the command checks and sets it */
	set(r, PR_STEADY_CPU, PROBE_UNKNOWN, "not checked");
	probe_vm(r);
	probe_files(r, sys_root ? sys_root : "/");
}
