# Ctrl-C mid-trial stops traffic, drains, prints what was counted (every
# frame sent was received), exits 130, and leaves nothing behind.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
out=$(mktemp); trap 'rm -f "$out"; cleanup' EXIT
"$WR" trial --prefix "$P" --rate 20kpps --duration 30s --learn-wait 0.2s --drain 1s --json >"$out" &
pid=$!
sleep 2
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" = 130 ] || fail "exit $rc after SIGINT, want 130"
j=$(cat "$out")
note "$(jq -c '{interrupted, d: .directions[0] | {tx, rx, lost}}' <<<"$j")"
[ "$(jq -r .interrupted <<<"$j")" = true ] || fail "not marked interrupted"
[ "$(jq -r '.directions[0] | .tx > 10000 and .tx < 600000 and .rx == .tx and .lost == 0' <<<"$j")" = true ] || fail "counts: $(jq -c .directions[0] <<<"$j")"
# Nothing left: no wirerate process, the lab is as it was.
sleep 0.2
! kill -0 "$pid" 2>/dev/null || fail "trial still running"
[ "$(labjq "$P" .state)" = up ] || fail "lab hurt"
# The tester's ends carry no XDP program (the DUT's ports keep the lab's own).
[ "$(labjq "$P" '[.interfaces[] | select(.name == "gen0" or .name == "sink0") | .xdp_prog_id] | add')" = 0 ] ||
	fail "an XDP program is left on the tester's ports"
[ "$(labjq "$P" '.dut.napi_mode')" = true ] || fail "the lab's DUT lost its NAPI mode"

# --repeat: Ctrl-C in the second of three trials ends the run there; the
# first is whole, both are printed and stored, the run is interrupted.
"$WR" trial --prefix "$P" --rate 20kpps --duration 2s --learn-wait 0.2s --drain 0.5s --repeat 3 --json \
	--label int-repeat >"$out" &
pid=$!
sleep 4.3
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" = 130 ] || fail "--repeat: exit $rc after SIGINT, want 130"
j=$(cat "$out")
note "--repeat: $(jq -c '{trials, interrupted, r: [.repeats[] | {interrupted, tx: .directions[0].tx}]}' <<<"$j")"
[ "$(jq -r '.trials == 2 and .interrupted and (.repeats | length) == 2 and (.repeats[0].interrupted | not)
	and .repeats[0].directions[0].tx == 40000 and .repeats[1].interrupted' <<<"$j")" = true ] ||
	fail "--repeat interrupted: $j"
[ "$("$WR" runs --label int-repeat --json | jq -r '.runs[0] | "\(.status) \(.trials)"')" = "interrupted 2" ] ||
	fail "--repeat: stored $("$WR" runs --label int-repeat --json | jq -c .runs)"

# Ctrl-C in the drain, after every frame was sent: the trial is whole, not
# interrupted, and ends when its drain was due to (not a drain later).
"$WR" trial --prefix "$P" --rate 20kpps --duration 1s --learn-wait 0.2s --drain 3s --no-store --json >"$out" &
pid=$!
t0=$EPOCHREALTIME
sleep 4
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
took=$(echo "$EPOCHREALTIME - $t0" | bc -l)
j=$(cat "$out")
note "drain: exit $rc after $took s: $(jq -c '{interrupted, d: .directions[0] | {tx, rx, lost, offered_pps}}' <<<"$j")"
[ "$rc" = 0 ] || fail "a stop in the drain: exit $rc, want 0"
[ "$(jq -r '.interrupted == false and (.directions[0] | .tx == 20000 and .rx == 20000 and .offered_pps == 20000)' <<<"$j")" = true ] ||
	fail "a stop in the drain: $(jq -c '{interrupted, d: .directions[0]}' <<<"$j")"
[ "$(echo "$took < 6.5" | bc -l)" = 1 ] || fail "a stop in the drain restarted it: $took s"
echo ok
