# The kernel under test as the stream's sender and receiver: a Debian 6.1
# cloud kernel booted in a VM lab, its sender started through the guest's
# agent (stream --sender dut), its egress port's counter against what the
# sink's server counted, its vCPU's CPU by /proc/stat and by the soak,
# the run stored under the guest's kernel; then the guest as the
# receiver (--receiver dut). Which kernel is faster is never asserted.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_vm.sh"

db=$(mktemp -d /tmp/wr-vmstream.XXXXXX)
trap 'rm -rf "$db"; vm_cleanup' EXIT
"$WR" lab up --prefix "$P" --kernel "$K61" >/dev/null || fail "lab up --kernel $K61"
guest() { "$WR" lab exec --prefix "$P" -- "$@"; }
# The soak's calibration, made in the guest (3% settling band: the host
# is not idle under TCG); the soak is only watched here, not judged.
guest wirerate soak --calibrate --tolerance 3 >/dev/null || fail "no soak calibration in the guest"

t0=$(guest cat /sys/class/net/dut1/statistics/tx_packets)
j=$("$WR" stream --prefix "$P" --sender dut -m 1025 -l 3 -c --json --db "$db/r.db") || fail "--sender dut: $j"
t1=$(guest cat /sys/class/net/dut1/statistics/tx_packets)
okay=$(jq -r .send.okay <<<"$j") recv=$(jq -r .receive.messages <<<"$j") drops=$(jq -r .receive.socket_drops <<<"$j")
note "guest sender: okay $okay, sink received $recv (+$drops dropped), guest dut1 tx $((t1 - t0)); $(jq -c '{kernel: .dut_kernel, busy: .send.cpu.busy_pct, demand: .dut_service_demand_us_per_kb}' <<<"$j")"
[ "$okay" -gt 1000 ] || fail "the guest sent little: $okay"
# dut1 counts every datagram sent okay, and the control connection's
# few TCP segments (at most 20); the sink counts what crossed
out=$((t1 - t0))
[ "$out" -ge "$okay" ] && [ "$out" -le $((okay + 20)) ] || fail "the guest's dut1 put out $out for $okay sent okay"
[ $((recv + drops)) -le "$okay" ] && [ "$recv" -ge $((okay * 9 / 10)) ] || fail "the sink received $recv of $okay"
k=$(jq -r .dut_kernel <<<"$j")
# shellcheck disable=SC2053
[[ $k == $K61 ]] || fail "dut_kernel '$k' is not $K61"
[ "$(sqlite3 "$db/r.db" "SELECT value FROM env WHERE key = 'dut.kernel.release'")" = "$k" ] ||
	fail "the run is not stored under the guest's kernel"
[ "$(jq -r '.send.cpu.cpus == 1 and .send.cpu.busy_pct > 0' <<<"$j")" = true ] ||
	fail "the sender's CPU is not the guest's one vCPU: $(jq -c .send.cpu <<<"$j")"
[ "$(jq -r '.dut_ports[0].port == "dut1" and .dut_ports[0].matches' <<<"$j")" = true ] ||
	fail "the agent's count of dut1: $(jq -c .dut_ports <<<"$j")"

# --irq-cpus: the IRQs of the guest's egress port (its virtio device's
# queues) placed for the run, as its agent says, and put back after it.
aff() {
	guest sh -c 'd=$(basename "$(readlink /sys/class/net/dut1/device)")
		for i in $(grep -E " $d-(input|output)" /proc/interrupts | cut -d: -f1); do
			echo "$i:$(cat /proc/irq/$i/smp_affinity_list)"; done' | tr '\n' ' '
}
a0=$(aff)
j=$("$WR" stream --prefix "$P" --sender dut -m 1025 -l 1 --irq-cpus 0 --json --no-store) || fail "--irq-cpus: $j"
note "--irq-cpus 0: $(jq -r .irq_placed <<<"$j"); dut1's IRQs before '$a0', after '$(aff)'"
n=$(wc -w <<<"$a0")
[ "$n" -ge 1 ] || fail "no IRQ of the guest's dut1 found in its /proc/interrupts"
[ "$(jq -r .irq_placed <<<"$j")" = "placement split ($n IRQs, RPS of 1 ports)" ] ||
	fail "placed: $(jq -c .irq_placed <<<"$j"), not dut1's $n IRQs"
[ "$(aff)" = "$a0" ] || fail "dut1's IRQs not put back: '$a0' then '$(aff)'"
o=$("$WR" stream --prefix "$P" --sender dut -l 1 --irq-cpus 3 --no-store 2>&1); rc=$?
[ "$rc" = 2 ] && grep -q "irq-cpus: CPU 3 is not online on the DUT" <<<"$o" || fail "--irq-cpus 3 on one vCPU: exit $rc: $o"

# The soak of the guest's vCPU, beside a control run without it.
j=$("$WR" stream --prefix "$P" --sender dut -m 1025 -l 3 -c --soak --json --no-store) || fail "--soak: $j"
note "guest sender, soaked: $(jq -c '{control_mbps, mbps: .receive.throughput_mbps, soak: [.dut_cpu.cpus[].soak], trusted: .dut_cpu.soak_trusted}' <<<"$j")"
[ "$(jq -r '.dut_cpu.source == "soak" and (.dut_cpu.cpus | length) == 1 and .dut_cpu.cpus[0].soak != null' <<<"$j")" = true ] ||
	fail "no soak of the guest's vCPU: $(jq -c .dut_cpu <<<"$j")"

# A control run without the soak went first, and the soaked run's CPU
# figure is untrusted exactly when it sent more than 25% less than the
# control (the soak then slowed what it measures).
[ "$(jq -r '.control_mbps > 0' <<<"$j")" = true ] || fail "no control run: $(jq -c .control_mbps <<<"$j")"
if [ "$(jq -r '.receive.throughput_mbps < 0.75 * .control_mbps' <<<"$j")" = true ]; then
	[ "$(jq -r '.dut_cpu.soak_trusted == false and (.dut_cpu.soak_untrusted_reason | test("the soak slowed"))' <<<"$j")" = true ] ||
		fail "a slowed soaked run not said: $(jq -c '{control_mbps, d: .dut_cpu.soak_untrusted_reason}' <<<"$j")"
else
	[ "$(jq -r '(.dut_cpu.soak_untrusted_reason // "") | test("the soak slowed") | not' <<<"$j")" = true ] ||
		fail "a soaked run that kept up said slowed: $(jq -c '{control_mbps, d: .dut_cpu.soak_untrusted_reason}' <<<"$j")"
fi

j=$("$WR" stream --prefix "$P" --receiver dut -m 1025 -l 3 -C --json --no-store) || fail "--receiver dut: $j"
note "guest receiver: $(jq -c '{okay: .send.okay, recv: .receive.messages, dut_received, cpu: .receive.cpu}' <<<"$j")"
[ "$(jq -r '.dut_end == "receiver" and .receive.messages > 1000 and .receive.cpu.cpus == 1' <<<"$j")" = true ] ||
	fail "the guest as the receiver: $(jq -c '{dut_end, m: .receive.messages, c: .receive.cpu}' <<<"$j")"
"$WR" lab down --prefix "$P" >/dev/null
vm_nothing_left "$P"

# The kernel axis on it: two kernels as the sender, two interleaved
# rounds, each run stored under the kernel that sent; the report pairs
# their rounds on the received throughput and on the DUT's service
# demand. Which kernel wins is not asserted, only that each verdict is
# one of the four and rests on both rounds.
j=$("$WR" matrix --prefix "$P" --kernel "$K61,$KRT" --repeat 2 --db "$db/m.db" --json -- \
	stream --sender dut -m 1025 -l 2 -c) || fail "matrix --kernel of streams: $(tail -c 600 <<<"$j")"
ids=$(jq -r '[.configurations[].runs[].run_id] | map(tostring) | join(" ")' <<<"$j")
[ "$(wc -w <<<"$ids")" = 4 ] || fail "not 4 runs: $ids"
for c in 0 1; do
	want=$(jq -r ".configurations[$c].label" <<<"$j")
	for id in $(jq -r ".configurations[$c].runs[].run_id" <<<"$j"); do
		k=$(sqlite3 "$db/m.db" "SELECT value FROM env WHERE run_id = $id AND key = 'dut.kernel.release'")
		e=$(sqlite3 "$db/m.db" "SELECT value FROM env WHERE run_id = $id AND key = 'run.dut_end'")
		# shellcheck disable=SC2053
		[[ $k == $want ]] && [ "$e" = sender ] || fail "run $id of $want: kernel '$k', dut_end '$e'"
	done
done
r=$(jq -c '.report.runs[1].cells[0]' <<<"$j")
note "6.1 rt against cloud, sender: $(jq -c '{verdict, paired: .paired | {diff_pct, verdict}, sd: .paired_dut_service_demand | {diff_pct, verdict}}' <<<"$r")"
[ "$(jq -r '.paired.rounds == 2 and .paired_dut_service_demand.rounds == 2 and
	(.paired_dut_service_demand.verdict | IN("noise", "better", "worse", "cannot tell"))' <<<"$r")" = true ] ||
	fail "no paired verdicts: $r"

# bisect over the two kernels by the DUT's service demand as the sender:
# a verdict of the three, in us/KB, each step's runs stored under the
# kernel its candidate names (which way it goes is not asserted).
WIRERATE_DB="$db/b.db" "$WR" bisect start --kernels "$K61,$KRT" --prefix "$P" --label kst --figure service-demand \
	--json -- stream --sender dut -m 1025 -l 1 -c >"$db/b.json" 2>"$db/b.err" || fail "bisect of streams: $(tail -3 "$db/b.err")"
note "bisect by service demand: $(jq -c '{result, unit, steps: [.steps[] | {candidate, verdict, median}]}' "$db/b.json")"
[ "$(jq -r '(.result | IN("found", "range", "no-difference")) and .unit == "us/KB"' "$db/b.json")" = true ] ||
	fail "bisect of streams: $(jq -c '{result, unit}' "$db/b.json")"
for row in $(jq -r '.steps[] | select(.runs | length > 0) | "\(.candidate)=\(.runs | map(tostring) | join(","))"' "$db/b.json"); do
	for id in $(tr ',' ' ' <<<"${row#*=}"); do
		rel=$(sqlite3 "$db/b.db" "SELECT value FROM env WHERE run_id = $id AND key = 'dut.kernel.release'")
		# shellcheck disable=SC2053
		[[ $rel == ${row%%=*} ]] || fail "bisect run $id of ${row%%=*} stored kernel '$rel'"
	done
done
vm_nothing_left "$P"
echo ok
