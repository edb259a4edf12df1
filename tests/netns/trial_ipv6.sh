# IPv6 test frames routed through the lab DUT: every frame counted, both
# directions; too small for the tag is refused; and nothing but the test
# frames crossed the DUT.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
T="--prefix $P --learn-wait 0.2s --drain 0.5s --json"
# Exact, as in trial_basic.sh: the generator catches up after a pause, and
# the DUT's ring holds 12.8 ms at 20 kpps (the latest frame seen beside a
# 20% load: 6.2 ms). The DUT's count is exact too: the lab's IPv6 is
# quiet (no ND, DAD or MLD), so one frame more is a stray.
j=$("$WR" trial $T --ipv6 --rate 20kpps --duration 2s) || fail "trial --ipv6"
d=$(jq -c '.directions[0]' <<<"$j")
note "IPv6: $(jq -c '{tx, rx, lost, not_test}' <<<"$d")"
[ "$(jq -r .family <<<"$j")" = IPv6 ] || fail "family"
[ "$(jq -r .sizes <<<"$j")" = 84 ] || fail "default IPv6 size $(jq -r .sizes <<<"$j")"
[ "$(jq -r '.tx == 40000 and .rx == 40000 and .lost == 0 and .not_test == 0' <<<"$d")" = true ] || fail "IPv6 through the DUT: $d"
# The DUT forwarded exactly the learning frame and the test frames.
[ "$(ifc "$P" dut1 tx_packets)" = 40001 ] || fail "dut1 sent $(ifc "$P" dut1 tx_packets), want 40001"
j=$("$WR" trial $T --ipv6 --rate 5kpps --duration 1s --bidir --size 1518) || fail "bidir"
[ "$(jq -r '[.directions[] | .tx == 5000 and .rx == 5000] | all' <<<"$j")" = true ] || fail "bidir IPv6: $(jq -c '[.directions[] | {tx, rx}]' <<<"$j")"
expect_exit 2 "$WR" trial --prefix "$P" --ipv6 --rate 1kpps --size 78
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --src-ip 2001:2::zz
echo ok
