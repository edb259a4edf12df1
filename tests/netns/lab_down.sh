# down leaves nothing; a half-built lab is repaired by up and removed by down;
# two labs with different prefixes coexist without seeing each other.
. "$(dirname "$0")/lib.sh"

Q="u$$-"
LABS+=("$Q")
# reach LAB IF N: the received-frame count of IF in LAB once it is N or
# more, polled every 0.1 s for at most 5 s. A few datagrams cross the lab
# in well under a millisecond; 5 s is a hundred times the longest the
# host holds a vCPU (tens of ms), so a count still short then was lost.
# The caller checks the exact figure: one too many fails too.
reach() {
	local n
	for _ in $(seq 50); do
		n=$(ifc "$1" "$2" rx_packets)
		[ "$n" -ge "$3" ] && break
		sleep 0.1
	done
	echo "$n"
}
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
n=$(reach "$P" sink0 5)
[ "$n" = 5 ] || fail "repaired lab does not forward: sink0 received $n of 5"

# A second lab beside the first.
"$WR" lab up --prefix "$Q" >/dev/null || fail "second lab"
ip netns exec "${Q}gen" "$UDPBLAST" 198.19.0.2 9 7 18 >/dev/null
n=$(reach "$Q" sink0 7)
[ "$n" = 7 ] || fail "second lab: sink0 received $n of 7"
# A frame crossing into the first lab would have arrived with the 7.
[ "$(ifc "$P" sink0 rx_packets)" = 5 ] || fail "first lab saw the second's traffic"
"$WR" lab down --prefix "$Q" >/dev/null
no_namespaces_left "$Q"
[ "$(labjq "$P" .state)" = up ] || fail "removing one lab hurt the other"
"$WR" lab down --prefix "$P" >/dev/null
no_namespaces_left "$P"
echo ok
