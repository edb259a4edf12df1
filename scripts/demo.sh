#!/usr/bin/env bash
# make demo: build the lab, run RFC 2544 throughput on the kernel's
# forwarding path (with a firewall of 100 rules) and on a DUT shaped to a
# known capacity, and for each one trial that says where the lost frames
# went; then two Debian kernels booted in a VM lab as a UDP stream's
# sender, interleaved, and their CPU per KB compared.
set -euo pipefail
WR=${1:-build/wirerate}
[ "$(id -u)" -eq 0 ] || { echo "demo: run as root (it builds network namespaces)" >&2; exit 2; }
P=${WR_DEMO_PREFIX:-wr-}
# Two sizes and a 2% width goal keep the demo to a few minutes; the
# smallest and the largest frame say whether the DUT is bound by frames or
# by bytes.
SIZES=${WR_DEMO_SIZES:-64,1518}
# --port-type afpacket: one path on every host. Where the kernel allows
# XDP's live frames the default path is XDP, whose generator, sharing this
# host's two CPUs with the DUT, falls short of some loads the DUT still
# forwards, so a search there ends in a bound ("at least"), not the DUT's
# figure; through a DUT that pushes back, AF_PACKET's ceiling is measured
# above the DUT's rate (docs/performance.md, "The lab's reach").
PT="--port-type afpacket"
Q="--prefix $P $PT --quick --sizes $SIZES --precision 2%"

echo "== wirerate probe"
"$WR" probe
echo
# The DUT's kernel path gets a firewall of 100 rules that match nothing:
# bare, on the XDP path the lab's DUT forwards more frames than the tester, sharing this
# host's CPUs with it, can offer (docs/performance.md, "The lab's reach"),
# and its figures would be the tester's bound, not the DUT's.
echo "== wirerate lab up --rules 100 (a firewall of 100 rules in the DUT's forwarding path)"
"$WR" lab up --prefix "$P" --rules 100
echo
echo "== wirerate rfc2544 throughput --quick: the kernel's forwarding path, 100 rules"
echo "   (up to 1 Mpps: more than this DUT forwards, so every figure is the DUT's;"
echo "   where the tester falls short of a load, the trial says so)"
# --max-load 1Mpps: one top load on every host, above what this DUT
# forwards, in place of a ceiling measured before each search (which
# through a DUT that pushes back is a step above the DUT's own rate).
echo "   goals (RFC 9971): ndr and pdr fail a load on one lossy 2 s trial; tolerant passes it"
echo "   when one of its two trials there is clean (a 50% exceed ratio), so a moment's stall of"
echo "   this host's vCPU, which drops a few frames at any rate, does not set that figure;"
echo "   the three share one search and its trials, so tolerant never reads below ndr"
"$WR" rfc2544 throughput $Q --max-load 1Mpps --label demo-kernel \
	--goal ndr:2f2d0l0e --goal pdr:2f2d0.5l0e --goal tolerant:2f4d0l50e
echo
echo "== one trial at 600 kpps: where the frames the DUT did not forward went"
"$WR" trial --prefix "$P" $PT --rate 600kpps --duration 3s --no-store | grep -E "^  (received|loss|DUT CPU|cost|limit) "
echo
echo "== the lab's DUT without rules, shaped to 100 kpps (wirerate lab up --shape 100kpps)"
"$WR" lab up --prefix "$P" --shape 100kpps >/dev/null
# The shaped DUT cannot forward more than its shape: searching it up to the
# tester's ceiling (millions of frames/s) would make the 2% width goal
# wider than the shape itself.
"$WR" rfc2544 throughput $Q --max-load 300kpps --label demo-shaped-100k
echo
# 20% above the shape: a shaper that limited would drop the excess at its
# qdisc; this one's DUT runs out of CPU first (tbf costs it about 10 us a
# frame), and the trial says so. At the shape itself the DUT sometimes
# keeps up and sometimes does not, on this VM.
echo "== what limits the shaped DUT: one trial 20% above its shape, at 120 kpps"
"$WR" trial --prefix "$P" $PT --rate 120kpps --duration 3s --no-store | grep -E "^  (received|loss|DUT CPU|cost|limit) "
"$WR" lab up --prefix "$P" >/dev/null
echo
echo "== wirerate report: the two runs side by side, from the results store"
HTML=${WR_DEMO_HTML:-/tmp/wirerate-demo.html}
"$WR" report demo-kernel demo-shaped-100k --html "$HTML"
echo
# The kernel axis, which no other tool has: two Debian kernels booted in
# turn as the lab's DUT (a VM, QEMU), each the *sender* of a UDP stream
# (netperf's UDP_STREAM, 1025-byte datagrams), in three interleaved rounds
# (cloud, rt, rt, cloud, cloud, rt), and the report's verdict on their CPU per KB
# sent. The guest's CPU is read from its /proc/stat (-c): under QEMU's
# emulation the soak's busy loop slows an RT guest's own sending, so it
# would measure another workload (docs/stream.md).
K1=${WR_DEMO_KERNEL:-6.1.0-*-cloud-amd64}
K2=${WR_DEMO_KERNEL_RT:-6.1.0-*-rt-amd64}
echo "== the kernel under test as the sender: $K1 against $K2, interleaved"
echo "   (wirerate matrix --kernel K1,K2 --repeat 3 -- stream --sender dut -m 1025 -l 3 -c)"
if ! why=$("$WR" probe --require tun,qemu 2>&1 >/dev/null); then
	echo "   not run here: $why"
elif ! "$WR" matrix --prefix "$P" --kernel "$K1,$K2" --repeat 3 -- stream --sender dut -m 1025 -l 3 -c \
	>"${TMPDIR:-/tmp}/wirerate-demo-kernels.$$" 2>&1; then
	echo "   not run: $(grep -m1 "wirerate: " "${TMPDIR:-/tmp}/wirerate-demo-kernels.$$" ||
		tail -1 "${TMPDIR:-/tmp}/wirerate-demo-kernels.$$")"
	echo "   (a kernel package that cannot be fetched: 'apt-get update', or give WR_DEMO_KERNEL=...)"
else
	sed -n '/^wirerate report:/,$p' "${TMPDIR:-/tmp}/wirerate-demo-kernels.$$"
fi
rm -f "${TMPDIR:-/tmp}/wirerate-demo-kernels.$$"
"$WR" lab up --prefix "$P" >/dev/null
echo
echo "The lab stays up for you to try: 'wirerate lab status', 'wirerate trial --rate 100kpps',"
echo "'wirerate lab down'."
