# --rules N loads N null rules into the DUT's forward path; --shape caps the
# DUT so that an overload drops frames; a later up without them removes both.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require nftables,tbf >/dev/null 2>&1 || skip "$("$WR" probe --require nftables,tbf 2>&1)"
"$WR" lab up --prefix "$P" --rules 1000 --shape 10kpps >/dev/null || fail "lab up"
[ "$(labjq "$P" .dut.rules)" = 1000 ] || fail "status rules $(labjq "$P" .dut.rules)"
n=$(ip netns exec "${P}dut" nft list chain inet wirerate forward | grep -c ' drop$')
[ "$n" = 1000 ] || fail "kernel has $n rules"
# The rules match nothing: traffic still flows.
ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 10 18 >/dev/null
sleep 0.3
[ "$(ifc "$P" sink0 rx_packets)" = 10 ] || fail "null rules dropped traffic"

s=$("$WR" lab status --prefix "$P" --json)
[ "$(jq -r .dut.shape.qdisc <<<"$s")" = tbf ] || fail "no tbf: $s"
[ "$(jq -r .dut.shape.pps <<<"$s")" = 10000 ] || fail "tbf rate: $s"

# Offer 20000 frames as fast as the generator can (far above 10 kpps):
# most must be dropped by the DUT's shaper, and every frame is accounted.
sent=$(ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 20000 18)
sleep 1
rx=$(( $(ifc "$P" sink0 rx_packets) - 10 ))
s=$("$WR" lab status --prefix "$P" --json)
drops=$(jq -r .dut.shape.dropped <<<"$s")
dut_in=$(( $(jq -r '.interfaces[] | select(.name=="dut0") | .rx_packets' <<<"$s") - 10 ))
note "sent $sent, DUT received $dut_in, shaper dropped $drops, sink received $rx"
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
