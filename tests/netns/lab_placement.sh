# The default placement puts the DUT's receive work on a CPU other than the
# generator's, and the work really runs there, in NAPI mode (pinned NAPI
# threads, no RPS) and in skb mode (RPS); --placement and --dut-cpus are in
# force, and 'lab status' reads them back in either mode.
. "$(dirname "$0")/lib.sh"

ncpu=$(nproc)
[ "$ncpu" -ge 2 ] || skip "needs 2 CPUs (has $ncpu)"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
s=$("$WR" lab status --prefix "$P" --json)
dut=$(jq -r .dut.cpus <<<"$s")
tester=$(jq -r .dut.tester_cpus <<<"$s")
last=$((ncpu - 1))
[ "$dut" = "$last" ] || fail "default DUT CPU $dut, want the last one ($last)"
[ "$(jq -r .dut.placement <<<"$s")" = bound ] || fail "default placement not bound"
gencpu=${tester%%[-,]*}
[ "$gencpu" != "$dut" ] || fail "tester CPU $gencpu is the DUT's"

# Send from the generator pinned to a tester CPU; the DUT's receive work
# must run on the DUT CPU. In the default NAPI mode it runs in the DUT
# ports' NAPI threads, pinned there (and no RPS hop): their CPU time rises.
[ "$(jq -r '.dut.napi_mode' <<<"$s")" = true ] || fail "lab not in NAPI mode: $s"
[ "$(jq -r '.interfaces[] | select(.name == "dut0") | .rps_cpus' <<<"$s")" = "" ] || fail "RPS left on dut0 in NAPI mode: $s"
napi_ticks() {	# utime + stime of the dut0 NAPI threads that last ran on CPU $1
	local t=0 p
	for p in $(pgrep '^napi/dut0-'); do
		[ "$(ps -o psr= -p "$p" | tr -d ' ')" = "$1" ] || continue
		t=$((t + $(awk '{ print $14 + $15 }' "/proc/$p/stat")))
	done
	echo $t
}
t0=$(napi_ticks "$dut")
ip netns exec "${P}gen" taskset -c "$gencpu" "$UDPBLAST" 198.19.0.2 9 200000 18 >/dev/null || fail "udpblast"
sleep 0.5
t1=$(napi_ticks "$dut")
rx=$(ifc "$P" sink0 rx_packets)
note "NAPI mode: dut0's NAPI threads on CPU $dut ran $((t1 - t0)) ticks for $rx frames forwarded"
[ "$rx" -ge 150000 ] || fail "only $rx of 200000 reached the sink"
[ $((t1 - t0)) -ge 2 ] || fail "dut0's NAPI threads on CPU $dut ran $((t1 - t0)) ticks: the DUT's work is elsewhere"

# In skb mode RPS steers it there: the DUT CPU's NET_RX softirqs must rise
# by much more than the generator CPU's would explain.
"$WR" lab up --prefix "$P" --no-xdp >/dev/null || fail "lab up --no-xdp"
[ "$(ip netns exec "${P}dut" cat /sys/class/net/dut0/queues/rx-0/rps_cpus | tr -d ',0\n')" = "$(printf '%x' $((1 << dut)))" ] ||
	fail "skb mode: dut0's RPS mask is not CPU $dut"
netrx() { awk -v c=$(( $1 + 2 )) '$1 == "NET_RX:" { print $c }' /proc/softirqs; }
d0=$(netrx "$dut")
r0=$(ifc "$P" sink0 rx_packets)
ip netns exec "${P}gen" taskset -c "$gencpu" "$UDPBLAST" 198.19.0.2 9 50000 18 >/dev/null || fail "udpblast"
sleep 0.5
d1=$(netrx "$dut")
rx=$(( $(ifc "$P" sink0 rx_packets) - r0 ))
note "skb mode: DUT CPU $dut NET_RX softirqs +$((d1 - d0)) for $rx frames forwarded"
[ "$rx" -ge 40000 ] || fail "only $rx of 50000 reached the sink"
[ $((d1 - d0)) -ge 50 ] || fail "DUT CPU $dut ran only $((d1 - d0)) NET_RX softirqs: its work is elsewhere"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up (back to NAPI mode)"
[ "$(labjq "$P" .dut.napi_mode)" = true ] || fail "not back in NAPI mode"
[ "$(labjq "$P" .dut.cpus)" = "$dut" ] || fail "NAPI mode again: DUT CPUs $(labjq "$P" .dut.cpus), want $dut"

# Other placements, read back from the kernel.
"$WR" lab up --prefix "$P" --dut-cpus 0,1 --placement split >/dev/null || fail "split"
s=$("$WR" lab status --prefix "$P" --json)
[ "$(jq -r .dut.placement <<<"$s")" = split ] || fail "placement not split: $s"
[ "$(jq -r .dut.dut0_cpus <<<"$s")/$(jq -r .dut.dut1_cpus <<<"$s")" = 0/1 ] || fail "split masks: $s"
"$WR" lab up --prefix "$P" --dut-cpus 0-1 --placement free >/dev/null || fail "free"
s=$("$WR" lab status --prefix "$P" --json)
[ "$(jq -r .dut.placement <<<"$s")" = free ] || fail "placement not free: $s"
[ "$(ip netns exec "${P}dut" cat /sys/class/net/dut0/queues/rx-0/rps_cpus | tr -d ',0\n' )" = 3 ] || fail "kernel rps mask for free"
"$WR" lab up --prefix "$P" --dut-cpus 0 >/dev/null || fail "dut-cpus 0"
[ "$(labjq "$P" .dut.cpus)" = 0 ] || fail "dut cpus not 0"
echo ok
