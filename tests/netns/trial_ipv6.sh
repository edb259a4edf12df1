# IPv6 test frames routed through the lab DUT: every frame counted, both
# directions; too small for the tag is refused; and nothing but the test
# frames crossed the DUT.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
T="--prefix $P --learn-wait 0.2s --drain 0.5s --json"
# Every frame counted, as in trial_basic.sh (lib.sh, ACCOUNTED). The DUT's
# count is exact too: the lab's IPv6 is quiet (no ND, DAD or MLD), so
# dut1 sent the learning frame and what the sink received; one more is a
# stray.
j=$("$WR" trial $T --ipv6 --rate 20kpps --duration 2s) || fail "trial --ipv6"
d=$(jq -c '.directions[0]' <<<"$j")
note "IPv6: $(jq -c '{tx, rx, lost, not_test}' <<<"$d")"
[ "$(jq -r .family <<<"$j")" = IPv6 ] || fail "family"
[ "$(jq -r .sizes <<<"$j")" = 84 ] || fail "default IPv6 size $(jq -r .sizes <<<"$j")"
[ "$(jq -r "$ACCOUNTED"' .tx == 40000 and accounted and .not_test == 0' <<<"$d")" = true ] || fail "IPv6 through the DUT: $d"
want=$(( $(jq -r .rx <<<"$d") + 1 ))
[ "$(ifc "$P" dut1 tx_packets)" = "$want" ] || fail "dut1 sent $(ifc "$P" dut1 tx_packets), want $want"
j=$("$WR" trial $T --ipv6 --rate 5kpps --duration 1s --bidir --size 1518) || fail "bidir"
[ "$(jq -r "$ACCOUNTED"' [.directions[] | .tx == 5000 and accounted] | all' <<<"$j")" = true ] || fail "bidir IPv6: $(jq -c '[.directions[] | {tx, rx}]' <<<"$j")"
expect_exit 2 "$WR" trial --prefix "$P" --ipv6 --rate 1kpps --size 78
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --src-ip 2001:2::zz
echo ok
