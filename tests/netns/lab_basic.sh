# lab up twice is idempotent; status --json matches the topology.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
first=$("$WR" lab status --prefix "$P" --json | jq -c "del(.wirerate.time)")
"$WR" lab up --prefix "$P" >/dev/null || fail "second lab up"
second=$("$WR" lab status --prefix "$P" --json | jq -c "del(.wirerate.time)")
[ "$first" = "$second" ] || fail "second up changed the lab: $first vs $second"

s=$second
[ "$(jq -r .state <<<"$s")" = up ] || fail "state not up: $s"
[ "$(jq -r '.interfaces | length' <<<"$s")" = 4 ] || fail "want 4 interfaces"
check_if() { # name ns addr mac
	local i
	i=$(jq -c ".interfaces[] | select(.name == \"$1\")" <<<"$s")
	[ -n "$i" ] || fail "no interface $1"
	[ "$(jq -r .namespace <<<"$i")" = "$P$2" ] || fail "$1 not in $P$2: $i"
	[ "$(jq -r .address <<<"$i")" = "$3" ] || fail "$1 address: $i"
	[ "$(jq -r .mac <<<"$i")" = "$4" ] || fail "$1 mac: $i"
	[ "$(jq -r .state <<<"$i")" = up ] || fail "$1 not up: $i"
	[ "$(jq -r '.offloads | [.gro,.gso,.tso] | any' <<<"$i")" = false ] || fail "$1 offloads on: $i"
	[ "$(jq -r .mtu <<<"$i")" = 1500 ] || fail "$1 mtu: $i"
	# and the kernel agrees
	ip -n "$P$2" -4 -o addr show dev "$1" | grep -q "inet $3 " || fail "kernel: $1 has no $3"
	ip -n "$P$2" link show dev "$1" | grep -q "link/ether $4" || fail "kernel: $1 mac"
}
check_if gen0 gen 198.18.0.1/24 02:77:72:00:00:01
check_if dut0 dut 198.18.0.2/24 02:77:72:00:00:02
check_if dut1 dut 198.19.0.1/24 02:77:72:00:01:01
check_if sink0 sink 198.19.0.2/24 02:77:72:00:01:02
[ "$(jq -r .dut.forwarding <<<"$s")" = true ] || fail "DUT does not forward"
[ "$(ip netns exec "${P}dut" cat /proc/sys/net/ipv4/ip_forward)" = 1 ] || fail "kernel: ip_forward"
[ "$(jq -r .dut.rules <<<"$s")" = 0 ] || fail "rules not 0"
[ "$(jq -r .dut.shape.qdisc <<<"$s")" != tbf ] || fail "shaped without --shape"

# Static routes and permanent neighbours: nothing left to ARP for.
ip -n "${P}gen" route get 198.19.0.2 | grep -q "via 198.18.0.2 dev gen0" || fail "gen has no route to sink"
ip -n "${P}sink" route get 198.18.0.1 | grep -q "via 198.19.0.1 dev sink0" || fail "sink has no route to gen"
for x in "gen 198.18.0.2" "dut 198.18.0.1" "dut 198.19.0.2" "sink 198.19.0.1"; do
	set -- $x
	ip -n "$P$1" neigh show "$2" | grep -q PERMANENT || fail "$P$1: neighbour $2 not permanent"
done
# IPv6 from 2001:2::/48 on the lab's links only, quiet: no link-local
# address (so no DAD or RS), NOARP and no multicast (no ND, no MLD),
# permanent neighbours, the DUT forwarding.
for x in "gen gen0 2001:2:0:1::1" "dut dut0 2001:2:0:1::2" "dut dut1 2001:2:0:2::1" "sink sink0 2001:2:0:2::2"; do
	set -- $x
	[ "$(ip -n "$P$1" -6 -o addr show dev "$2" | awk '{print $4}')" = "$3/64" ] || fail "$2: IPv6 addresses $(ip -n "$P$1" -6 -o addr show dev "$2")"
	ip -n "$P$1" link show dev "$2" | grep -q 'NOARP' || fail "$2 not NOARP"
	! ip -n "$P$1" link show dev "$2" | grep -q 'MULTICAST' || fail "$2 has multicast on"
	! ip -n "$P$1" maddr show dev "$2" | grep -q 'ff02::2' || fail "$2 joined all-routers (MLD reports)"
	[ "$(jq -r ".interfaces[] | select(.name == \"$2\") | .address6" <<<"$s")" = "$3/64" ] || fail "status address6 of $2"
done
[ "$(ip netns exec "${P}dut" cat /proc/sys/net/ipv6/conf/all/forwarding)" = 1 ] || fail "DUT does not forward IPv6"
ip -n "${P}gen" -6 route get 2001:2:0:2::2 | grep -q "via 2001:2:0:1::2 dev gen0" || fail "gen has no IPv6 route to sink"
ip -n "${P}dut" -6 neigh show 2001:2:0:2::2 | grep -q PERMANENT || fail "DUT IPv6 neighbour not permanent"
for n in gen dut sink; do
	[ -z "$(ip -n "$P$n" -6 addr show scope link)" ] || fail "link-local addresses in $P$n"
done
echo ok
