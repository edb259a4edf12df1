#include "render/lab_print.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "core/cpuset.h"
#include "os/netns.h"

static void print_mac(struct out *o, const char *key, const uint8_t m[6])
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
	out_str(o, key, "%-18s ", buf);
}

/* Path p's two lines of the topology, its four interfaces and their
 * addresses. */
static void print_path(struct out *o, unsigned int p, bool vm)
{
	const struct lab_addr *g = lab_path_if(p, LAB_GEN0), *d0 = lab_path_if(p, LAB_DUT0);
	const struct lab_addr *d1 = lab_path_if(p, LAB_DUT1), *s = lab_path_if(p, LAB_SINK0);
	const struct lab_addr *all[] = { g, d0, d1, s };
	char v4[4][24], v6[4][INET6_ADDRSTRLEN + 4];

	for (int i = 0; i < 4; i++) {
		char a6[INET6_ADDRSTRLEN];

		snprintf(v4[i], sizeof(v4[i]), "%u.%u.%u.%u/%u", all[i]->ip[0], all[i]->ip[1], all[i]->ip[2],
			 all[i]->ip[3], all[i]->plen);
		inet_ntop(AF_INET6, all[i]->ip6, a6, sizeof(a6));
		snprintf(v6[i], sizeof(v6[i]), "%s/64", a6);
	}
	out_text(o, "  [gen] %s %s ==%s== %s %s [%s] %s %s ==%s== %s %s [sink]\n"
		    "        %-27s %-22s %-27s %s\n",
		 g->ifname, v4[0], vm ? "tap" : "veth", d0->ifname, v4[1], vm ? "VM" : "dut", d1->ifname, v4[2],
		 vm ? "tap" : "veth", s->ifname, v4[3], v6[0], v6[1], v6[2], v6[3]);
}

/* Interface k of the lab (path k / LAB_NIFS): a row of the table. */
static void if_row(struct out *o, const struct lab_status *st, unsigned int k)
{
	const struct lab_addr *a = lab_path_if(k / LAB_NIFS, (enum lab_ifx)(k % LAB_NIFS));
	const struct lab_if_status *is = &st->ifs[k];
	char ns[NETNS_NAME_MAX], buf[256], a6[INET6_ADDRSTRLEN];

	out_obj_start(o, NULL);
	lab_ns_name(st->prefix, a->role, ns, sizeof(ns));
	if (st->vm.on && a->role == LAB_DUT)
		snprintf(ns, sizeof(ns), "(the VM)");
	out_str(o, "namespace", "  %-10s ", ns);
	out_str(o, "name", "%-6s ", a->ifname);
	out_u64(o, "path", NULL, k / LAB_NIFS);
	snprintf(buf, sizeof(buf), "%u.%u.%u.%u/%u", a->ip[0], a->ip[1], a->ip[2], a->ip[3], a->plen);
	out_str(o, "address", "%-15s ", buf);
	inet_ntop(AF_INET6, a->ip6, a6, sizeof(a6));
	snprintf(buf, sizeof(buf), "%s/64", a6);
	out_str(o, "address6", NULL, buf);
	out_bool(o, "present", NULL, is->present);
	if (!is->present) {
		out_text(o, "%-18s missing\n", "-");
		out_obj_end(o);
		return;
	}
	print_mac(o, "mac", is->link.mac);
	out_str(o, "state", "%-5s ", is->link.up ? "up" : "down");
	cpuset_format_list(&is->rps, buf, sizeof(buf));
	out_str(o, "rps_cpus", NULL, is->rps_known ? buf : "?");
	out_text(o, "%-5s ", is->rps_known ? (buf[0] ? buf : "-") : "?");
	out_u64(o, "rx_packets", "%12llu ", is->link.rx_packets);
	out_u64(o, "rx_dropped", "%10llu ", is->link.rx_dropped);
	out_u64(o, "tx_packets", "%12llu ", is->link.tx_packets);
	out_u64(o, "tx_dropped", "%10llu  ", is->link.tx_dropped);
	out_u64(o, "rx_bytes", NULL, is->link.rx_bytes);
	out_u64(o, "tx_bytes", NULL, is->link.tx_bytes);
	out_u64(o, "mtu", NULL, is->link.mtu);
	out_u64(o, "xdp_prog_id", NULL, is->link.xdp_prog_id);
	if (is->offl_known) {
		out_obj_start(o, "offloads");
		out_bool(o, "gro", "gro %s ", is->offl.gro);
		out_bool(o, "gso", "gso %s ", is->offl.gso);
		out_bool(o, "tso", "tso %s", is->offl.tso);
		out_obj_end(o);
	}
	out_text(o, "\n");
	out_obj_end(o);
}

/* The DUT's receive path: NAPI mode when every DUT port has its XDP
 * pass-through, else the skb path. */
static void ingress_line(struct out *o, const struct lab_status *st)
{
	bool napi = true;

	for (unsigned int p = 0; p < st->ports; p++)
		napi = napi && st->ifs[p * LAB_NIFS + LAB_DUT0].link.xdp_prog_id &&
		       st->ifs[p * LAB_NIFS + LAB_DUT1].link.xdp_prog_id;
	out_bool(o, "napi_mode", NULL, napi);
	if (st->vm.on) {
		out_str(o, "ingress", "  ingress: %s\n", "virtio-net NICs: an overloaded guest drops from its "
			"receive ring, or QEMU leaves the frames in the tap, which drops them");
		return;
	}
	out_str(o, "ingress", "  ingress: %s\n", !napi ?
		"skb mode (no XDP on the DUT's ports: 'lab up --no-xdp', or the kernel could not)" :
		st->ports > 1 ?
		"NAPI mode (XDP pass-through on every DUT port, threaded NAPI on the DUT CPUs): "
		"an overloaded DUT drops from its receive ring" :
		"NAPI mode (XDP pass-through on dut0 and dut1, threaded NAPI on the DUT CPUs): "
		"an overloaded DUT drops from its receive ring");
}

/* The egress shaping: a tbf's rate, burst and queue, and its counts. */
static void shape_line(struct out *o, const struct lab_status *st)
{
	out_obj_start(o, "shape");
	if (!strcmp(st->shape.kind, "tbf")) {
		/* every egress port has its own bucket; the counts are dut1's */
		out_str(o, "qdisc", st->ports > 1 ? "  shaping: %s on each egress port, " : "  shaping: %s on dut1, ",
			"tbf");
		if (st->shape.pkt_size) {
			out_f64(o, "pps", "%.0f frames/s", (double)st->shape.rate / st->shape.pkt_size);
			out_u64(o, "burst_frames", ", burst %llu frames", st->shape.burst / st->shape.pkt_size);
			out_u64(o, "limit_frames", ", queue %llu frames", st->shape.limit / st->shape.pkt_size);
		} else {
			out_f64(o, "bps", "%.0f bit/s (frame + 24 B of FCS, preamble and gap)", (double)st->shape.rate * 8);
			out_u64(o, "burst_bytes", ", burst %llu B", st->shape.burst);
			out_u64(o, "limit_bytes", ", queue %llu B", st->shape.limit);
		}
		out_u64(o, "sent", st->ports > 1 ? "; dut1 sent %llu" : "; sent %llu", st->shape.packets);
		out_u64(o, "dropped", ", dropped %llu\n", st->shape.drops);
	} else {
		out_str(o, "qdisc", "  shaping: none (%s on dut1)\n", st->shape.kind[0] ? st->shape.kind : "noqueue");
	}
	out_obj_end(o);
}

/* The DUT's side: forwarding, its CPUs and placement, queues, ingress,
 * rules and shaping. */
static void dut_block(struct out *o, const struct lab_status *st)
{
	char buf[256];

	out_obj_start(o, "dut");
	out_bool(o, "forwarding", "\n  DUT: forwarding %s", st->forwarding);
	cpuset_format_list(&st->dut_cpus, buf, sizeof(buf));
	out_str(o, "cpus", ", receive work on CPU %s", buf);
	out_str(o, "placement", " (placement %s", lab_placement_name(st->placement));
	cpuset_format_list(&st->ifs[LAB_DUT0].cpus, buf, sizeof(buf));
	out_str(o, "dut0_cpus", ": dut0 -> %s", buf);
	cpuset_format_list(&st->ifs[LAB_DUT1].cpus, buf, sizeof(buf));
	out_str(o, "dut1_cpus", ", dut1 -> %s)", buf);
	cpuset_format_list(&st->tester_cpus, buf, sizeof(buf));
	out_str(o, "tester_cpus", "; tester CPUs %s\n", cpuset_count(&st->tester_cpus) ? buf : "none (shared with the DUT)");
	out_u64(o, "queues", "  queues: %llu transmit and receive queue(s) a port\n", st->queues);
	ingress_line(o, st);
	if (st->rules >= 0)
		out_i64(o, "rules", "  rules: %lld null rules in the forward path (nft table inet wirerate)\n", st->rules);
	else
		out_null(o, "rules");
	shape_line(o, st);
	out_obj_end(o);
}

/* A VM as the DUT: its kernel, how it is emulated, its CPUs. */
static void vm_block(struct out *o, const struct lab_vm *vm)
{
	char buf[256];

	if (!vm->on) {
		out_null(o, "vm");
		return;
	}
	out_obj_start(o, "vm");
	out_bool(o, "running", NULL, vm->running);
	out_str(o, "release", "  VM: kernel %s", vm->release[0] ? vm->release : "?");
	out_str(o, "kernel", NULL, vm->kernel);
	out_str(o, "image", NULL, vm->image);
	out_str(o, "source", " (%s)", vm->source);
	out_str(o, "accel", NULL, vm->accel);
	out_text(o, ", %s", !strcmp(vm->accel, "kvm") ? "KVM" : "TCG");
	out_text(o, "%s", !strcmp(vm->accel, "kvm") ? "" :
		 " (emulated: no usable KVM here, 'wirerate probe' says why; its figures compare kernels relative to each other only)");
	out_u64(o, "vcpus", "\n      %llu vCPU(s)", vm->vcpus);
	cpuset_format_list(&vm->host_cpus, buf, sizeof(buf));
	out_str(o, "host_cpus", " on host CPU %s", cpuset_count(&vm->host_cpus) ? buf : "any (not pinned: one host CPU)");
	out_u64(o, "memory_mib", ", %llu MiB", vm->memory_mib);
	out_f64(o, "boot_s", ", booted in %.1f s", vm->boot_s);
	out_i64(o, "pid", ", QEMU pid %lld", vm->pid);
	out_str(o, "cmdline", vm->cmdline[0] ? "\n      kernel command line + %s" : NULL, vm->cmdline);
	out_text(o, "%s\n", vm->running ? "" : "\n      not running: 'wirerate lab up --kernel ...' boots it again");
	out_obj_end(o);
}

void lab_print_status(struct out *o, const struct lab_status *st)
{
	const char *state = st->complete ? "up" : st->exists ? "partial" : "absent";

	out_str(o, "prefix", "lab %s: ", st->prefix);
	out_str(o, "state", "%s\n", state);
	if (st->holder[0])
		out_str(o, "in_use_by", "  in use: %s\n", st->holder);
	else
		out_null(o, "in_use_by");
	out_bool(o, "interrupted_build", st->build_died && st->exists ?
		 "  a lab up, lab down or matrix was killed before it finished: 'wirerate lab up' repairs the lab\n" : NULL,
		 st->build_died);
	/* none for a lab that is not there */
	out_u64(o, "ports", NULL, st->exists ? st->ports : 0);
	if (!st->exists) {
		/* the same keys as a lab that is there: none of its parts */
		out_text(o, "  no namespace %sgen, %sdut or %ssink: run 'wirerate lab up'\n",
			 st->prefix, st->prefix, st->prefix);
		out_arr_start(o, "interfaces");
		out_arr_end(o);
		out_null(o, "dut");
		out_null(o, "vm");
		return;
	}
	if (st->ports > 1)
		out_text(o, "  %u parallel paths through the DUT\n", st->ports);
	for (unsigned int p = 0; p < st->ports; p++)
		print_path(o, p, st->vm.on);
	out_text(o, "\n");
	out_text(o, "  %-10s %-6s %-15s %-18s %-5s %-5s %12s %10s %12s %10s  %s\n",
		 "namespace", "if", "address", "mac", "state", "rps", "rx frames", "rx drop",
		 "tx frames", "tx drop", "offloads");
	out_arr_start(o, "interfaces");
	for (unsigned int k = 0; k < st->ports * LAB_NIFS; k++)
		if_row(o, st, k);
	out_arr_end(o);
	dut_block(o, st);
	vm_block(o, &st->vm);
}

void lab_print_removed(const char *prefix)
{
	printf("lab %s: removed\n", prefix);
}
