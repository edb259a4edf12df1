# 20 kpps for 3 s through the lab: rx == tx, loss 0, offered within 0.5%;
# flows, IMIX and the mmsg port type count the same way.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require af_packet_tx_ring,af_packet_rx_ring >/dev/null 2>&1 || skip "$("$WR" probe --require af_packet_tx_ring,af_packet_rx_ring 2>&1)"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
T="--prefix $P --learn-wait 0.2s --drain 1s --json"

j=$("$WR" trial $T --rate 20kpps --size 64 --duration 3s) || fail "trial"
note "$(jq -c '.directions[0] | {tx, rx, lost, offered_pps, largest_burst, tester_limited}' <<<"$j")"
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r .tx <<<"$d")" = 60000 ] || fail "tx $(jq -r .tx <<<"$d"), want 60000"
[ "$(jq -r '.rx == .tx and .lost == 0 and .reordered == 0 and .duplicated == 0 and .late == 0' <<<"$d")" = true ] || fail "not clean: $d"
[ "$(jq -r '(.offered_pps - 20000 | fabs) / 20000 <= 0.005' <<<"$d")" = true ] || fail "offered $(jq -r .offered_pps <<<"$d") not within 0.5% of 20000"
[ "$(jq -r .tester_limited <<<"$d")" = false ] || fail "tester-limited: $d"
[ "$(jq -r '.latency_ns.frames == .rx and .latency_ns.min > 0 and .latency_ns.max >= .latency_ns.p99' <<<"$d")" = true ] || fail "latency: $d"
# The kernel agrees: the sink interface saw at least the learning + test frames.
sink_rx=$(ifc "$P" sink0 rx_packets)
[ "$sink_rx" -ge 60001 ] || fail "sink0 counted $sink_rx"

# 16 flows, IMIX sizes, the sendmmsg port: still every frame.
j=$("$WR" trial $T --rate 10kpps --imix --flows 16 --duration 2s --port-type mmsg) || fail "imix trial"
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r .sizes <<<"$j")" = "64,570,1518,64,570,64,570,64,570,64,64,64" ] || fail "imix pattern $(jq -r .sizes <<<"$j")"
[ "$(jq -r '.tx == 20000 and .rx == .tx and .lost == 0 and .learning_tx == 16' <<<"$d")" = true ] || fail "imix/flows/mmsg: $d"
[ "$(jq -r .port_type <<<"$j")" = afpacket-mmsg ] || fail "port type"

# --repeat 2: two whole trials with their own ids, then the median.
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
