# The tester on a known kernel: a VM lab boots a Debian kernel (6.1 cloud
# here; guest_paths_612 the 6.12 one) and the whole tester runs inside the
# guest: a namespace lab of its own, the XDP generator and analyzer, AF_XDP
# and AF_PACKET ports. So the XDP paths are checked, and can fail, on every
# host that runs a VM lab, also one whose own kernel refuses BPF_PROG_RUN
# live frames, and on the kernels our users run rather than the host's.
# Rates are low (5-20 kpps): TCG runs the guest's one vCPU, which carries
# generator, DUT and analyzer together.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_vm.sh"
K=${WR_GUEST_KERNEL:-$K61}

"$WR" lab up --prefix "$P" --kernel "$K" >/dev/null || fail "lab up --kernel $K"
g() { "$WR" lab exec --prefix "$P" -- "$@"; }
rel=$("$WR" lab status --prefix "$P" --json | jq -r .vm.release)
note "guest kernel $rel"

# 1. What a Debian kernel has, the guest's probe says yes to: a "no" here
# is the guest (its initramfs, its modules) or probe failing, not a host
# that lacks something.
pj=$(g wirerate probe --json) || fail "probe in the guest: $pj"
for c in netns veth bpf xdp_native_veth af_xdp xdp_live_frames af_packet_tx_ring af_packet_rx_ring nftables tbf; do
	[ "$(jq -r ".features.$c.ok" <<<"$pj")" = true ] ||
		fail "the guest ($rel) has no $c: $(jq -r ".features.$c.detail" <<<"$pj")"
done

# 2. A namespace lab inside the guest, its DUT in NAPI mode (XDP on veth).
g wirerate lab up --prefix g- >/dev/null || fail "lab up in the guest"
g wirerate lab status --prefix g- --json | jq -e '.dut.napi_mode == true' >/dev/null ||
	fail "the guest's lab DUT is not in NAPI mode"

# One trial in the guest; prints its JSON. Every frame accounted (rx +
# lost == tx, none duplicated or reordered, every lost one the DUT ring's
# or the tester's, at most 1%: lib.sh says why a held vCPU can cost a few
# frames at a ring), tx exactly rate x duration, the path the one asked
# for, the offered rate within 1% of the target (the generators pace to
# 0.5% on the host; TCG's timer adds jitter, never a missing frame).
T="--prefix g- --learn-wait 0.2s --drain 1s --no-store --json"
trial_ok() { # path, rate (pps), seconds, extra options...
	local path=$1 rate=$2 secs=$3 j bad
	shift 3
	j=$(g wirerate trial $T --port-type "$path" --rate "$rate" --duration "${secs}s" "$@") ||
		fail "trial on $path ($*) in the guest: $j"
	note >&2 "$path $*: $(jq -c '[.directions[] | {tx, rx, lost, ring_drops, tester_refused, offered_pps}]' <<<"$j")"
	[ "$(jq -r .path <<<"$j")" = "$path" ] || fail "path $(jq -r .path <<<"$j"), want $path"
	bad=$(jq -c --argjson n $((rate * secs)) --argjson r "$rate" '[.directions[] | select((.tx == $n and
		.rx + .lost == .tx and .duplicated == 0 and .reordered == 0 and
		.lost == .ring_drops + .tester_refused and .lost * 100 <= .tx and
		((.offered_pps - $r) | fabs) * 100 <= $r) | not)]' <<<"$j")
	[ "$bad" = "[]" ] || fail "$path $*: frames unaccounted for, or not at the rate: $bad"
	echo "$j"
}

# 3. Each port path, one direction, IPv4; the XDP one's latency (every
# frame timed at this rate) in order.
j=$(trial_ok xdp 5000 2)
[ "$(jq -r '.directions[0].latency_ns | .frames == 10000 and .min > 0 and .min <= .median and .median <= .max' <<<"$j")" = true ] ||
	fail "latency: $(jq -c '.directions[0].latency_ns' <<<"$j")"
for path in afxdp afpacket; do trial_ok "$path" 5000 2 >/dev/null; done
# 4. XDP both ways with 16 flows, and IPv6 on XDP.
j=$(trial_ok xdp 5000 2 --bidir --flows 16)
[ "$(jq '.directions | length' <<<"$j")" = 2 ] || fail "--bidir: $(jq -c .directions <<<"$j")"
trial_ok xdp 5000 2 --ipv6 --size 128 >/dev/null

# 5. The XDP analyzer's capture (its ring buffer program, which 6.1's
# verifier refused until count.bpf.c bounded the copy from below): three
# pings from the generator's namespace to the sink during the trial reach
# the analyzer, which writes them to the file as not the trial's frames
# and counts none of them as ours.
# The pings start once the analyzer's program is on sink0 (polled, 10 s
# at most): a guest under TCG takes a second or two to set the trial up.
j=$(g sh -c "(i=0; while [ \$i -lt 100 ] && ! /usr/sbin/ip -n g-sink -d link show sink0 | grep -q prog/xdp; do
		sleep 0.1; i=\$((i + 1)); done
	/usr/sbin/ip netns exec g-gen busybox ping -c 3 -W 1 198.19.0.2 >/dev/null 2>&1) &
	wirerate trial $T --port-type xdp --rate 5000 --duration 4s --capture /tmp/c.pcapng") ||
	fail "trial with --capture in the guest: $j"
note "capture: $(jq -c .capture <<<"$j")"
jq -e '.directions[0] | .tx == 20000 and .rx + .lost == .tx' <<<"$j" >/dev/null ||
	fail "capture trial: $(jq -c .directions <<<"$j")"
jq -e '.capture | .frames >= 3 and .frames <= 100 and .reasons["not-test"] >= 3 and ([.reasons[]] | add) == .frames' \
	<<<"$j" >/dev/null || fail "capture: $(jq -c .capture <<<"$j")"
sz=$(g busybox stat -c %s /tmp/c.pcapng) || fail "no capture file in the guest"
[ "$sz" -gt 200 ] || fail "capture file of $sz bytes"

# 6. Killed mid-run (AF_XDP sockets and XDP programs on both ends): the
# kernel releases everything; nothing of the trial stays on the ports.
# (/usr/sbin/ip by its path: the guest's busybox sh runs its own applet
# for a bare "ip".)
out=$(g sh -c 'wirerate trial --prefix g- --no-store --rate 5kpps --duration 20s --port-type afxdp >/dev/null 2>&1 &
	pid=$!
	i=0; while [ $i -lt 50 ] && ! /usr/sbin/ip -n g-sink -d link show sink0 | grep -q prog/xdp; do sleep 0.1; i=$((i + 1)); done
	/usr/sbin/ip -n g-sink -d link show sink0 | grep -q prog/xdp || { kill -9 $pid; echo "never attached"; exit 1; }
	sleep 1; kill -9 $pid; wait $pid
	i=0; while [ $i -lt 50 ]; do
		left=""
		/usr/sbin/ip -n g-gen -d link show gen0 | grep -q prog/xdp && left="$left gen0"
		/usr/sbin/ip -n g-sink -d link show sink0 | grep -q prog/xdp && left="$left sink0"
		[ -z "$left" ] && { echo clean; exit 0; }
		sleep 0.1; i=$((i + 1))
	done
	echo "left:$left"; exit 1') || fail "a killed trial in the guest: $out"

g wirerate lab down --prefix g- >/dev/null || fail "lab down in the guest"
"$WR" lab down --prefix "$P" >/dev/null || fail "lab down"
vm_nothing_left "$P"
echo "ok: the XDP, AF_XDP and AF_PACKET paths on $rel"
