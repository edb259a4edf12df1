# 20 kpps for 3 s through the lab: rx == tx, loss 0, offered within 0.5%;
# flows, IMIX and the mmsg port type count the same way.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require af_packet_tx_ring,af_packet_rx_ring >/dev/null 2>&1 || skip "$("$WR" probe --require af_packet_tx_ring,af_packet_rx_ring 2>&1)"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
T="--prefix $P --learn-wait 0.2s --drain 1s --json"

# Exact counts. The generator paces from the clock and catches up after a
# pause (slack: 5% of the duration, 150 ms here), so it sends every frame
# and offers the rate exactly: tx is 60000 and offered 20000, and 0.5% is
# the tool's own tester-limited line. Lossless: the DUT's receive ring
# (256 frames) holds 12.8 ms at 20 kpps, and its NAPI thread runs
# SCHED_FIFO, out of a background load's reach. Measured beside a 20%
# load (15 trials like this one): no loss, the generator at most 64
# frames (3.2 ms) behind, the latest frame 6.2 ms late. Once, though, a
# generator fell 170 ms short (trial_interrupt.sh), past its slack: the
# trial marks that tester-limited, and it is run again, each logged,
# three at most; a short trial not so marked fails at once.
for attempt in 1 2 3; do
	j=$("$WR" trial $T --rate 20kpps --size 64 --duration 3s) || fail "trial"
	jq -e '.directions[0] | .tx < 60000 and .tester_limited' <<<"$j" >/dev/null || break
	note "trial $attempt: the generator fell short: $(jq -r '.directions[0].tester_reason' <<<"$j")"
	[ $attempt -lt 3 ] || fail "the generator fell short in three trials"
done
note "$(jq -c '.directions[0] | {tx, rx, lost, offered_pps, largest_burst, tester_limited}' <<<"$j")"
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r .tx <<<"$d")" = 60000 ] || fail "tx $(jq -r .tx <<<"$d"), want 60000"
[ "$(jq -r '.rx == .tx and .lost == 0 and .reordered == 0 and .duplicated == 0 and .late == 0' <<<"$d")" = true ] || fail "not clean: $d"
[ "$(jq -r '(.offered_pps - 20000 | fabs) / 20000 <= 0.005' <<<"$d")" = true ] || fail "offered $(jq -r .offered_pps <<<"$d") not within 0.5% of 20000"
[ "$(jq -r .tester_limited <<<"$d")" = false ] || fail "tester-limited: $d"
[ "$(jq -r '.latency_ns.frames == .rx and .latency_ns.min > 0 and .latency_ns.max >= .latency_ns.p99' <<<"$d")" = true ] || fail "latency: $d"
# The kernel agrees: the sink interface saw at least the learning + test
# frames (read after the trial, whose analyzer had them all).
sink_rx=$(ifc "$P" sink0 rx_packets)
[ "$sink_rx" -ge 60001 ] || fail "sink0 counted $sink_rx"

# 16 flows, IMIX sizes, the sendmmsg port: still every frame (at half the
# rate: 25.6 ms of the DUT's ring).
j=$("$WR" trial $T --rate 10kpps --imix --flows 16 --duration 2s --port-type mmsg) || fail "imix trial"
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r .sizes <<<"$j")" = "64,570,1518,64,570,64,570,64,570,64,64,64" ] || fail "imix pattern $(jq -r .sizes <<<"$j")"
[ "$(jq -r '.tx == 20000 and .rx == .tx and .lost == 0 and .learning_tx == 16' <<<"$d")" = true ] || fail "imix/flows/mmsg: $d"
[ "$(jq -r .port_type <<<"$j")" = afpacket-mmsg ] || fail "port type"

# --repeat 2: two whole trials with their own ids, then the median: exact,
# as forwarded is received frames over the set duration.
j=$("$WR" trial $T --rate 10kpps --duration 1s --repeat 2 --label basic-repeat) || fail "--repeat 2"
note "--repeat 2: $(jq -c '{trials, forwarded_pps_median, ids: [.repeats[].trial_id]}' <<<"$j")"
[ "$(jq -r '.trials == 2 and (.repeats | length) == 2 and .repeats[0].trial_id != .repeats[1].trial_id
	and all(.repeats[]; .directions[0].tx == 10000 and .directions[0].rx == 10000)
	and .forwarded_pps_median == 10000' <<<"$j")" = true ] || fail "--repeat 2: $j"
"$WR" report basic-repeat --json | jq -e '.runs[0].cells[0].trial | .trials == 2 and .forwarded_pps == 10000' \
	>/dev/null || fail "report of --repeat 2: $("$WR" report basic-repeat --json)"
expect_exit 2 "$WR" trial --prefix "$P" --rate 10kpps --repeat 0
expect_exit 2 "$WR" trial --prefix "$P" --rate 10kpps --repeat 17

# The human-readable block.
out=$("$WR" trial --prefix "$P" --learn-wait 0.2s --drain 1s --rate 5kpps --duration 1s) || fail "text trial"
grep -q '^  Result: [0-9]*pps [0-9]*Mb/sec' <<<"$out" || fail "no pktgen-style result line: $out"
grep -q 'received   5000 frames, lost 0' <<<"$out" || fail "text block: $out"
echo ok
