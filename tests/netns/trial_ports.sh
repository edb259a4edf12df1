# Cabled ports instead of the lab: a veth pair in a namespace of the
# test's own, --tx on one end, --rx on the other, back to back; and the
# same interface for both (output device = input device).
. "$(dirname "$0")/lib.sh"

N="${P}ports"
ip netns add "$N" || fail "netns add"
trap 'ip netns del "$N" 2>/dev/null; cleanup' EXIT
ip -n "$N" link add tA type veth peer name tB || fail "veth"
ip -n "$N" link set tA up && ip -n "$N" link set tB up
mac=$(ip -n "$N" -j link show tB | jq -r '.[0].address')
# Exact: 5 kpps over a bare veth pair, whose receive backlog (1000 frames)
# holds 200 ms, and the generator catches up after a pause.
j=$(ip netns exec "$N" "$WR" trial --tx tA --rx tB --dst-mac "$mac" --rate 5kpps --duration 1s \
	--learn-wait 0.1s --drain 0.5s --line-rate 1G --json) || fail "trial on ports"
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r '.tx == 5000 and .rx == 5000' <<<"$d")" = true ] || fail "ports: $d"
[ "$(jq -r .line_rate_bps <<<"$j")" = 1000000000 ] || fail "line rate"
# 0.1% of 1G with 64-byte frames (84 on the wire) is 1488.1 frames/s:
# arithmetic, no timing in it.
j=$(ip netns exec "$N" "$WR" trial --tx tA --rx tB --dst-mac "$mac" --rate 0.1% --line-rate 1G \
	--duration 1s --learn-wait 0.1s --drain 0.5s --json) || fail "percent rate"
[ "$(jq -r '.rate_pps | floor' <<<"$j")" = 1488 ] || fail "0.1% of 1G = 1488 f/s, got $(jq -r .rate_pps <<<"$j")"
expect_exit 2 ip netns exec "$N" "$WR" trial --tx tA --rx tB --rate 1kpps --duration 1s
expect_exit 2 ip netns exec "$N" "$WR" trial --tx nosuch0 --rx tB --dst-mac "$mac" --rate 1kpps
echo ok
