# --bidir: both ports send and receive, counted per direction and in total.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
# Every frame counted, as in trial_basic.sh: the generators catch up after
# a pause, each DUT ring (256 frames) holds 25.6 ms at 10 kpps, and a held
# vCPU's ring drops are counted (lib.sh, ACCOUNTED).
j=$("$WR" trial --prefix "$P" --learn-wait 0.2s --drain 1s --json --rate 10kpps --duration 2s --bidir) || fail "trial"
[ "$(jq -r '.directions | length' <<<"$j")" = 2 ] || fail "want 2 directions"
[ "$(jq -r "$ACCOUNTED"' [.directions[] | .tx == 20000 and accounted] | all' <<<"$j")" = true ] || fail "per direction: $(jq -c '[.directions[] | {tx, rx, lost, ring_drops}]' <<<"$j")"
[ "$(jq -r '.total.tx == 40000 and .total.rx == ([.directions[].rx] | add) and .total.lost == ([.directions[].lost] | add)' <<<"$j")" = true ] || fail "total: $(jq -c .total <<<"$j")"
[ "$(jq -r '.directions[0].direction' <<<"$j")" = "gen0 -> DUT -> sink0" ] || fail "labels"
[ "$(jq -r '.directions[1].direction' <<<"$j")" = "sink0 -> DUT -> gen0" ] || fail "labels"
# The reverse direction really went through dut1 -> dut0: dut1 took in
# at least every frame that came out at gen0 (not 20000: a held vCPU's
# ring drops, which ACCOUNTED allows, never reach dut1's count).
[ "$(ifc "$P" dut1 rx_packets)" -ge "$(jq -r '.directions[1].rx' <<<"$j")" ] ||
	fail "dut1 saw $(ifc "$P" dut1 rx_packets), gen0 received $(jq -r '.directions[1].rx' <<<"$j")"
echo ok
