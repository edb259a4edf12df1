# A UDP datagram from gen reaches sink through the DUT, nothing comes back,
# and nothing else shows up in the counters during a quiet second.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
snap() { "$WR" lab status --prefix "$P" --json | jq -c '[.interfaces[] | [.rx_packets, .tx_packets, .rx_dropped, .tx_dropped]]'; }
before=$(snap)
sent=$(ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 1 18) || fail "udpblast"
[ "$sent" = 1 ] || fail "sent $sent"
sleep 0.3
after=$(snap)
note "before $before after $after"
# gen0 tx, dut0 rx, dut1 tx, sink0 rx: exactly one more each; and no reply
# (the sink sends no port-unreachable back).
want=$(jq -c '[.[0] | [.[0], .[1] + 1, .[2], .[3]]] + [.[1] | [.[0] + 1, .[1], .[2], .[3]]] + [.[2] | [.[0], .[1] + 1, .[2], .[3]]] + [.[3] | [.[0] + 1, .[1], .[2], .[3]]]' <<<"$before")
[ "$after" = "$want" ] || fail "counters after one datagram: $after, want $want"

# 100 more, then a quiet second with no change at all.
ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 100 18 >/dev/null
sleep 0.3
q1=$(snap)
[ "$(ifc "$P" sink0 rx_packets)" = 101 ] || fail "sink got $(ifc "$P" sink0 rx_packets) of 101"
sleep 1
q2=$(snap)
[ "$q1" = "$q2" ] || fail "counters moved during a quiet second: $q1 -> $q2"
echo ok
