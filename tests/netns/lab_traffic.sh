# A UDP datagram from gen reaches sink through the DUT, nothing comes back,
# and nothing else shows up in the counters during a quiet second.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
snap() { "$WR" lab status --prefix "$P" --json | jq -c '[.interfaces[] | [.rx_packets, .tx_packets, .rx_dropped, .tx_dropped]]'; }
# reach N: wait until sink0 has received N frames, polled every 0.1 s for
# at most 5 s. A datagram crosses the lab in well under a millisecond; 5 s
# is a hundred times the longest the host holds a vCPU (tens of ms), so a
# count still short then was lost. The callers check exact figures.
reach() {
	for _ in $(seq 50); do
		[ "$(ifc "$P" sink0 rx_packets)" -ge "$1" ] && return
		sleep 0.1
	done
}
before=$(snap)
sent=$(ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 1 18) || fail "udpblast"
[ "$sent" = 1 ] || fail "sent $sent"
reach 1
# A reply (port unreachable) would leave the sink in the softirq that took
# the datagram in, microseconds after it; 0.3 s more lets it show even on
# a held vCPU. One slower than that is caught by the quiet second below.
sleep 0.3
after=$(snap)
note "before $before after $after"
# gen0 tx, dut0 rx, dut1 tx, sink0 rx: exactly one more each; and no reply
# (the sink sends no port-unreachable back).
want=$(jq -c '[.[0] | [.[0], .[1] + 1, .[2], .[3]]] + [.[1] | [.[0] + 1, .[1], .[2], .[3]]] + [.[2] | [.[0], .[1] + 1, .[2], .[3]]] + [.[3] | [.[0] + 1, .[1], .[2], .[3]]]' <<<"$before")
[ "$after" = "$want" ] || fail "counters after one datagram: $after, want $want"

# 100 more, then a quiet second with no change at all.
ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 100 18 >/dev/null
reach 101
sleep 0.3	# as above: for a reply to show
q1=$(snap)
[ "$(ifc "$P" sink0 rx_packets)" = 101 ] || fail "sink got $(ifc "$P" sink0 rx_packets) of 101"
# The kernel's own chatter (ARP, IPv6 DAD, router solicitations, MLD
# reports, retransmits) comes on timers of about a second, which one
# second catches. A busy host can delay a frame but not make one: the load cannot fail
# this; at worst it pushes a stray frame past the window.
sleep 1
q2=$(snap)
[ "$q1" = "$q2" ] || fail "counters moved during a quiet second: $q1 -> $q2"
echo ok
