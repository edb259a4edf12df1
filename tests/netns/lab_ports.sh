# lab up --ports N: N parallel paths through the DUT, each forwarding on
# its own networks; fewer ports on a second lab up removes the rest; lab
# down leaves nothing; a bad count is a one-line error.
. "$(dirname "$0")/lib.sh"

expect_exit 2 "$WR" lab up --prefix "$P" --ports 0
expect_exit 2 "$WR" lab up --prefix "$P" --ports 5
expect_exit 2 "$WR" lab up --prefix "$P" --ports x
expect_exit 2 "$WR" lab status --prefix "$P" --ports 2
no_namespaces_left "$P"

"$WR" lab up --prefix "$P" --ports 3 >/dev/null || fail "lab up --ports 3"
first=$("$WR" lab status --prefix "$P" --json | jq -c "del(.wirerate.time)")
"$WR" lab up --prefix "$P" --ports 3 >/dev/null || fail "second lab up --ports 3"
s=$("$WR" lab status --prefix "$P" --json | jq -c "del(.wirerate.time)")
[ "$first" = "$s" ] || fail "second up changed the lab: $first vs $s"
[ "$(jq -r .state <<<"$s")" = up ] || fail "state not up: $s"
[ "$(jq -r .ports <<<"$s")" = 3 ] || fail "ports not 3: $s"
[ "$(jq -r '.interfaces | length' <<<"$s")" = 12 ] || fail "want 12 interfaces"

# has NS IF ADDR: the kernel and lab status agree on the address
has() {
	ip -n "$P$1" -o addr show dev "$2" | grep -q "inet6\? $3 " || fail "kernel: $2 in $P$1 has no $3"
	[ "$(jq -r ".interfaces[] | select(.name == \"$2\") | .namespace" <<<"$s")" = "$P$1" ] ||
		fail "status: $2 not in $P$1"
}
for p in 0 1 2; do
	d0=$((2 * p)) d1=$((2 * p + 1)) n0=$((1 + 2 * p)) n1=$((2 + 2 * p))
	has gen "gen$p" "198.18.$p.1/24"
	has gen "gen$p" "2001:2:0:$n0::1/64"
	has dut "dut$d0" "198.18.$p.2/24"
	has dut "dut$d0" "2001:2:0:$n0::2/64"
	has dut "dut$d1" "198.19.$p.1/24"
	has dut "dut$d1" "2001:2:0:$n1::1/64"
	has sink "sink$p" "198.19.$p.2/24"
	has sink "sink$p" "2001:2:0:$n1::2/64"
	ip -n "${P}gen" link show dev "gen$p" | grep -q "link/ether 02:77:72:0$p:00:01" || fail "gen$p mac"
	ip -n "${P}sink" link show dev "sink$p" | grep -q "link/ether 02:77:72:0$p:01:02" || fail "sink$p mac"
	ip -n "${P}dut" link show dev "dut$d0" | grep -q NOARP || fail "dut$d0 not NOARP"
	ip -n "${P}gen" route get "198.19.$p.2" | grep -q "via 198.18.$p.2 dev gen$p" || fail "gen: no route over path $p"
	ip -n "${P}sink" route get "198.18.$p.1" | grep -q "via 198.19.$p.1 dev sink$p" || fail "sink: no route over path $p"
	ip -n "${P}dut" neigh show "198.19.$p.2" | grep -q PERMANENT || fail "DUT: neighbour 198.19.$p.2 not permanent"
	[ "$(jq -r ".interfaces[] | select(.name == \"dut$d0\") | .path" <<<"$s")" = "$p" ] || fail "status: dut$d0 path"
	[ "$(jq -r ".interfaces[] | select(.name == \"dut$d1\") | .xdp_prog_id > 0" <<<"$s")" = true ] ||
		fail "dut$d1 not in NAPI mode"
done

# Each path forwards: datagrams sent into path p arrive at sink<p> and
# nowhere else (the endpoints never answer, so counters, not replies).
rx() { ip netns exec "${P}sink" cat "/sys/class/net/sink$1/statistics/rx_packets"; }
for p in 0 1 2; do
	before=("$(rx 0)" "$(rx 1)" "$(rx 2)")
	for _ in 1 2 3 4 5; do
		ip netns exec "${P}gen" bash -c "echo x >/dev/udp/198.19.$p.2/9" || fail "cannot send over path $p"
	done
	ip netns exec "${P}gen" bash -c "echo x >/dev/udp/2001:2:0:$((2 + 2 * p))::2/9" || fail "cannot send IPv6 over path $p"
	for _ in 1 2 3 4 5 6 7 8 9 10; do
		[ "$(rx "$p")" -ge "$((before[p] + 6))" ] && break
		sleep 0.1
	done
	for q in 0 1 2; do
		got=$(($(rx "$q") - before[q]))
		if [ "$q" = "$p" ]; then
			[ "$got" = 6 ] || fail "path $p: sink$p received $got of 6"
		else
			[ "$got" = 0 ] || fail "path $p: sink$q received $got"
		fi
	done
	note "path $p forwards"
done

# Placement over every path: split puts every ingress port on the first
# DUT CPU and every egress port on the second.
ncpu=$(nproc)
if [ "$ncpu" -ge 2 ]; then
	"$WR" lab up --prefix "$P" --ports 3 --dut-cpus 0,1 --placement split --shape 10kpps >/dev/null ||
		fail "lab up --placement split"
	s=$("$WR" lab status --prefix "$P" --json)
	[ "$(jq -r .dut.placement <<<"$s")" = split ] || fail "placement not split: $(jq -c .dut <<<"$s")"
	for p in 0 1 2; do
		a0=$(ip netns exec "${P}dut" cat "/sys/class/net/dut$((2 * p))/ifalias")
		a1=$(ip netns exec "${P}dut" cat "/sys/class/net/dut$((2 * p + 1))/ifalias")
		if [ -n "$a0$a1" ]; then
			[ "${a0##* }" = 00000001 ] && [ "${a1##* }" = 00000002 ] || fail "path $p: CPUs $a0 / $a1"
		fi
		tc -n "${P}dut" qdisc show dev "dut$((2 * p + 1))" | grep -q tbf || fail "dut$((2 * p + 1)) not shaped"
	done
fi

# Fewer ports: the paths beyond go, path 0 stays as it was.
"$WR" lab up --prefix "$P" --ports 1 >/dev/null || fail "lab up --ports 1"
s=$("$WR" lab status --prefix "$P" --json)
[ "$(jq -r .ports <<<"$s")" = 1 ] || fail "ports not 1 after --ports 1: $(jq -c .ports <<<"$s")"
[ "$(jq -r .state <<<"$s")" = up ] || fail "state not up after --ports 1"
[ "$(jq -r '.interfaces | length' <<<"$s")" = 4 ] || fail "want 4 interfaces after --ports 1"
for x in "gen gen1" "gen gen2" "dut dut2" "dut dut5" "sink sink1" "sink sink2"; do
	set -- $x
	! ip -n "$P$1" link show dev "$2" >/dev/null 2>&1 || fail "$2 left in $P$1 after --ports 1"
done
! ip -n "${P}gen" route | grep -q 198.19.1 || fail "a route of path 1 left"
[ "$(ip -n "${P}dut" -o link show | grep -c ' dut[0-9]')" = 2 ] || fail "DUT ports: $(ip -n "${P}dut" -br link)"

# A lab half built with more paths goes entirely with lab down.
"$WR" lab up --prefix "$P" --ports 4 >/dev/null || fail "lab up --ports 4"
ip -n "${P}dut" link del dut5 || fail "cannot break path 2"
s=$("$WR" lab status --prefix "$P" --json)
[ "$(jq -r .state <<<"$s")" = partial ] || fail "a missing dut5 is not partial: $(jq -r .state <<<"$s")"
[ "$(jq -r .ports <<<"$s")" = 4 ] || fail "ports of the broken lab: $(jq -r .ports <<<"$s")"
"$WR" lab down --prefix "$P" >/dev/null || fail "lab down"
no_namespaces_left "$P"
[ "$(labjq "$P" .ports)" = 0 ] || fail "ports of an absent lab"
echo ok
