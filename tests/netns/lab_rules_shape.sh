# --rules N loads N null rules into the DUT's forward path; --shape caps the
# DUT so that an overload drops frames; a later up without them removes both.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require nftables,tbf >/dev/null 2>&1 || skip "$("$WR" probe --require nftables,tbf 2>&1)"
"$WR" lab up --prefix "$P" --rules 1000 --shape 10kpps >/dev/null || fail "lab up"
[ "$(labjq "$P" .dut.rules)" = 1000 ] || fail "status rules $(labjq "$P" .dut.rules)"
n=$(ip netns exec "${P}dut" nft list chain inet wirerate forward | grep -c ' drop$')
[ "$n" = 1000 ] || fail "kernel has $n rules"
# The rules match nothing: traffic still flows. Polled every 0.1 s for at
# most 5 s: ten datagrams cross in a millisecond, and 5 s is a hundred
# times the longest the host holds a vCPU (tens of ms), so a count still
# short then was dropped; the exact count is checked after.
ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 10 18 >/dev/null
for _ in $(seq 50); do [ "$(ifc "$P" sink0 rx_packets)" -ge 10 ] && break; sleep 0.1; done
[ "$(ifc "$P" sink0 rx_packets)" = 10 ] || fail "null rules dropped traffic: sink0 received $(ifc "$P" sink0 rx_packets) of 10"

s=$("$WR" lab status --prefix "$P" --json)
[ "$(jq -r .dut.shape.qdisc <<<"$s")" = tbf ] || fail "no tbf: $s"
[ "$(jq -r .dut.shape.pps <<<"$s")" = 10000 ] || fail "tbf rate: $s"

# Offer 20000 frames as fast as the generator can (far above 10 kpps):
# most must be dropped by the DUT's shaper, and every frame is accounted.
# Less than half may pass: the shaper lets 10 kpps through after its
# bucket (128 frames) and queue (320), so passing half would take the blast
# about 1 s, and it takes tens of ms (the note shows it), a margin no
# light background load comes near. A shaper that does not shape passes
# nearly all.
t0=$EPOCHREALTIME
sent=$(ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 20000 18)
took=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.3f", b - a }')
# Every frame accounted once the shaper's queue has drained (320 frames at
# 10 kpps, under 10 ms): polled every 0.1 s for at most 5 s, not a fixed
# wait, so a held vCPU only delays the check; unbalanced after 5 s fails.
for _ in $(seq 50); do
	s=$("$WR" lab status --prefix "$P" --json)	# one reading for all three
	rx=$(( $(jq -r '.interfaces[] | select(.name=="sink0") | .rx_packets' <<<"$s") - 10 ))
	drops=$(jq -r .dut.shape.dropped <<<"$s")
	dut_in=$(( $(jq -r '.interfaces[] | select(.name=="dut0") | .rx_packets' <<<"$s") - 10 ))
	[ $((rx + drops)) -eq "$dut_in" ] && break
	sleep 0.1
done
note "sent $sent in $took s, DUT received $dut_in, shaper dropped $drops, sink received $rx"
[ "$rx" -lt $((sent / 2)) ] || fail "shaper let $rx of $sent through"
[ "$drops" -gt 0 ] || fail "no drops counted at the shaper"
[ $((rx + drops)) -eq "$dut_in" ] || fail "rx $rx + drops $drops != DUT input $dut_in"

# Reconfigure in place: no rules, no shaper.
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up again"
[ "$(labjq "$P" .dut.rules)" = 0 ] || fail "rules left"
[ "$(labjq "$P" .dut.shape.qdisc)" != tbf ] || fail "shaper left"
ip netns exec "${P}dut" nft list tables | grep -q wirerate && fail "nft table left"
# A bit-rate shaper counts the wire overhead.
"$WR" lab up --prefix "$P" --shape 100Mbit >/dev/null || fail "bit-rate shape"
[ "$(labjq "$P" .dut.shape.bps)" = 100000000 ] || fail "bps: $(labjq "$P" .dut.shape)"
echo ok
