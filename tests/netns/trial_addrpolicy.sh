# Where a trial may send without --allow-any-address: only to the
# benchmarking ranges (198.18.0.0/15, 2001:2::/48), and not out of an
# interface that holds a default route. Otherwise a one-line error and
# exit 2; with the flag, past the check. Two namespaces of our own joined
# by a veth pair: every frame sent stays in them, to 198.19.0.2.
. "$(dirname "$0")/lib.sh"

A="${P}apa"; B="${P}apb"
D=$(mktemp -d)
trap 'ip netns del "$A" 2>/dev/null; ip netns del "$B" 2>/dev/null; rm -rf "$D"; cleanup' EXIT
ip netns add "$A" && ip netns add "$B" || fail "cannot make namespaces"
ip -n "$A" link add a0 type veth peer name b0 netns "$B" || fail "veth"
ip -n "$A" link set a0 up && ip -n "$B" link set b0 up || fail "links up"
ip -n "$A" addr add 198.18.200.1/24 dev a0 && ip -n "$B" addr add 198.18.200.2/24 dev b0 || fail "addresses"
M=$(ip -n "$B" -j link show b0 | jq -r '.[0].address')
run() { "$WR" trial --tx "a0@$A" --rx "a0@$A" --dst-mac "$M" --rate 1kpps --duration 1s --drain 200ms \
	--learn-frames 0 --port-type afpacket --json "$@"; }
# errs CMD...: exit 2 and the one-line error, kept in $D/err
errs() { expect_exit 2 "$@"; "$@" 2>"$D/err" >/dev/null; }

# --- addresses: refused at parse time, before any port is opened ---
errs run --dst-ip 10.0.0.2
grep -q -- "--dst-ip 10.0.0.2 is outside the benchmarking ranges 198.18.0.0/15 and 2001:2::/48: give --allow-any-address" "$D/err" ||
	fail "no clear refusal: $(cat "$D/err")"
errs run --src-ip 192.0.2.1
grep -q -- "--src-ip 192.0.2.1 is outside" "$D/err" || fail "src not refused by name: $(cat "$D/err")"
expect_exit 2 run --dst-ip 198.20.0.0
expect_exit 2 run --dst-ip 198.17.255.255
expect_exit 2 run --ipv6 --dst-ip 2001:db8::2
expect_exit 2 run --ipv6 --dst-ip 2001:2:1::2
expect_exit 2 run --ipv6 --dst-ip ::ffff:10.0.0.2
expect_exit 2 "$WR" rfc2544 --tx "a0@$A" --rx "a0@$A" --dst-mac "$M" --dst-ip 10.0.0.2 --quick
# the flag lets the addresses through (the frames stay in A and B); the
# range's edges pass without it
expect_exit 0 run --dst-ip 10.0.0.2 --allow-any-address
expect_exit 0 run --src-ip 198.18.0.0 --dst-ip 198.19.255.255
expect_exit 0 run --ipv6 --dst-ip 2001:2:0:ffff::2

# --- the interface: no default route in A yet, so a trial runs ---
j=$(run) || fail "trial without a default route: $j"
[ "$(jq '.directions[0].tx > 0' <<<"$j")" = true ] || fail "nothing sent: $j"

# a default route by a0: refused, also when it is IPv6 only
ip -n "$A" route add default via 198.18.200.2 dev a0 || fail "default route"
errs run
grep -q -- "--tx a0@$A holds the IPv4 default route: give --allow-any-address" "$D/err" ||
	fail "no clear refusal: $(cat "$D/err")"
j=$(run --allow-any-address) || fail "--allow-any-address did not let the trial run: $j"
[ "$(jq '.directions[0].tx > 0' <<<"$j")" = true ] || fail "nothing sent with --allow-any-address: $j"
ip -n "$A" route del default || fail "del default"
if ip -n "$A" -6 addr add 2001:2:0:c8::1/64 dev a0 nodad 2>/dev/null &&
   ip -n "$A" -6 route add default via 2001:2:0:c8::2 dev a0 2>/dev/null; then
	errs run
	grep -q "holds the IPv6 default route" "$D/err" || fail "IPv6 default not seen: $(cat "$D/err")"
	ip -n "$A" -6 route del default || fail "del default6"
else
	note "no IPv6 here: the IPv6 default route is not checked"
fi
# with --bidir the return traffic leaves by --rx: b0 gets a route in B
ip -n "$B" route add default via 198.18.200.1 dev b0 || fail "default route in B"
expect_exit 2 "$WR" trial --tx "a0@$A" --rx "b0@$B" --dst-mac "$M" --rx-dst-mac 02:00:00:00:00:01 --bidir \
	--rate 1kpps --duration 1s
echo ok
