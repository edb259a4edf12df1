# A DUT shaped to half the offered rate shows about 50% loss, counted as
# DUT loss (not tester-limited); asking beyond the tester's calibrated
# ceiling is flagged tester-limited.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
"$WR" lab up --prefix "$P" --shape 10kpps >/dev/null || fail "lab up"
T="--prefix $P --learn-wait 0.2s --drain 1s --json"
j=$("$WR" trial $T --rate 20kpps --duration 3s) || fail "trial"
d=$(jq -c '.directions[0]' <<<"$j")
note "shaped to 10 kpps, offered 20 kpps: $(jq -c '{tx, rx, lost, loss_pct, tester_limited}' <<<"$d")"
# 40-60%: the shaper passes 10 kpps plus its bucket and queue (448
# frames, 0.7 points), so 49.8% is due. Noise moves it little: the
# generator catches up after a pause (the same frames in the same 3 s),
# and a hold of the DUT's vCPU of t ms adds about t/60 points (10 frames
# a ms that the shaper would have passed are dropped instead): 10 points
# is 600 ms of holds in 3 s. An unshaped DUT loses 0%, a shaper at the wrong rate far more
# or less than 10 points off.
[ "$(jq -r '.loss_pct > 40 and .loss_pct < 60' <<<"$d")" = true ] || fail "loss $(jq -r .loss_pct <<<"$d")%, want about 50%"
[ "$(jq -r '.tx == .rx + .lost' <<<"$d")" = true ] || fail "tx != rx + lost: $d"
[ "$(jq -r .tester_limited <<<"$d")" = false ] || fail "DUT loss reported as tester-limited: $d"

# Calibrate (a short run), then ask for 5x the ceiling: a load can only
# lower what the tester reaches, so 5x is never reached. A ceiling over
# 1000 frames/s is any working tester's (this VM's: hundreds of kpps).
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up unshaped"
cal=$(mktemp); trap 'rm -f "$cal"; cleanup' EXIT
c=$("$WR" calibrate --prefix "$P" --duration 1s --drain 0.5s --calibration "$cal" --json) || fail "calibrate"
note "calibrate: $(jq -c '{ceiling_pps, receiver_ok, pacing_error_pct}' <<<"$c")"
ceiling=$(jq -r .ceiling_pps <<<"$c")
[ "$(jq -r '.ceiling_pps > 1000' <<<"$c")" = true ] || fail "ceiling $ceiling"
grep -q "^$(jq -r .port_type <<<"$c") 64 " "$cal" || fail "calibration not stored: $(cat "$cal")"
[ "$(ip -n "${P}gen" -o link show | grep -c cal0)" = 0 ] || fail "calibrate left its veth pair behind"
rate=$(jq -r '.ceiling_pps * 5 | floor' <<<"$c")
j=$("$WR" trial $T --rate "$rate" --duration 1s --calibration "$cal") || fail "trial beyond the ceiling"
d=$(jq -c '.directions[0]' <<<"$j")
note "at $rate: $(jq -c '{offered_pps, tester_limited, tester_reason}' <<<"$d")"
[ "$(jq -r .tester_limited <<<"$d")" = true ] || fail "beyond the ceiling not flagged: $d"
[ "$(jq -r .tester_ceiling_pps <<<"$j")" != null ] || fail "ceiling not reported"
# The ceiling is per number of generator threads: a two-thread trial is
# not judged by the one-thread ceiling, and has one of its own once
# calibrated with two.
pt=$(jq -r .port_type <<<"$c")
[ "$("$WR" trial $T --rate 1kpps --duration 0.5s --calibration "$cal" | jq -r .tester_ceiling_pps)" = "$ceiling" ] ||
	fail "one thread: not checked against the ceiling $ceiling"
[ "$("$WR" trial $T --rate 1kpps --duration 0.5s --calibration "$cal" --gen-cpu 0,1 | jq -r .tester_ceiling_pps)" = null ] ||
	fail "two threads checked against the one-thread ceiling"
c2=$("$WR" calibrate --prefix "$P" --duration 1s --drain 0.5s --calibration "$cal" --gen-cpu 0,1 --json) ||
	fail "calibrate with two threads"
note "calibrate, two threads: $(jq -c '{ceiling_pps, gen_threads, key, receiver_ok}' <<<"$c2")"
[ "$(jq -r .key <<<"$c2")" = "$pt*2" ] && grep -q "^$pt\*2 64 " "$cal" && grep -q "^$pt 64 " "$cal" ||
	fail "two-thread ceiling not stored beside the one-thread one: $(cat "$cal")"
[ "$("$WR" trial $T --rate 1kpps --duration 0.5s --calibration "$cal" --gen-cpu 0,1 | jq -r .tester_ceiling_pps)" = \
	"$(jq -r .ceiling_pps <<<"$c2")" ] || fail "two threads: not checked against their own ceiling"
# A file that is not a calibration is refused before anything runs (a trial
# without its ceiling could take the tester's limit for the DUT's loss),
# and calibrate never writes over it.
echo "garbage" >"$cal"
expect_exit 2 "$WR" trial $T --rate 1kpps --duration 0.5s --calibration "$cal"
expect_exit 2 "$WR" calibrate --prefix "$P" --duration 0.5s --calibration "$cal"
[ "$(cat "$cal")" = garbage ] || fail "calibrate wrote over a file that is not a calibration"
echo ok
