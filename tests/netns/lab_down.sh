# down leaves nothing; a half-built lab is repaired by up and removed by down;
# two labs with different prefixes coexist without seeing each other.
. "$(dirname "$0")/lib.sh"

Q="u$$-"
LABS+=("$Q")
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
"$WR" lab down --prefix "$P" >/dev/null || fail "lab down"
no_namespaces_left "$P"
[ "$(labjq "$P" .state)" = absent ] || fail "status after down"
"$WR" lab down --prefix "$P" >/dev/null || fail "down of an absent lab"

# Half-built: a namespace without links, and a lab missing one link.
ip netns add "${P}gen"
[ "$(labjq "$P" .state)" = partial ] || fail "not partial"
"$WR" lab down --prefix "$P" >/dev/null || fail "down of half a lab"
no_namespaces_left "$P"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
ip -n "${P}dut" link del dut1
[ "$(labjq "$P" .state)" = partial ] || fail "missing link not seen"
"$WR" lab up --prefix "$P" >/dev/null || fail "repair"
[ "$(labjq "$P" .state)" = up ] || fail "not repaired"
ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 5 18 >/dev/null
sleep 0.2
[ "$(ifc "$P" sink0 rx_packets)" = 5 ] || fail "repaired lab does not forward"

# A second lab beside the first.
"$WR" lab up --prefix "$Q" >/dev/null || fail "second lab"
ip netns exec "${Q}gen" "$UDPBLAST" 198.19.0.2 9 7 18 >/dev/null
sleep 0.2
[ "$(ifc "$Q" sink0 rx_packets)" = 7 ] || fail "second lab: $(ifc "$Q" sink0 rx_packets)"
[ "$(ifc "$P" sink0 rx_packets)" = 5 ] || fail "first lab saw the second's traffic"
"$WR" lab down --prefix "$Q" >/dev/null
no_namespaces_left "$Q"
[ "$(labjq "$P" .state)" = up ] || fail "removing one lab hurt the other"
"$WR" lab down --prefix "$P" >/dev/null
no_namespaces_left "$P"
echo ok
