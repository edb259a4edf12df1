# Ctrl-C mid-trial stops traffic, drains, prints what was counted (every
# frame sent was received), exits 130, and leaves nothing behind.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
out=$(mktemp); trap 'rm -f "$out"; cleanup' EXIT
# until SINK: wait until sink0 has received SINK frames in all, polling
# every 0.1 s for at most 20 s; the time that took, in s. Each stop below
# is sent when the sink shows the trial is where the stop is meant to
# land, not after a fixed sleep that a slow start on a busy host would
# throw off. 20 s is several times the slowest step waited for here.
until_sink() {
	local t0=$EPOCHREALTIME
	for _ in $(seq 200); do
		[ "$(ifc "$P" sink0 rx_packets)" -ge "$1" ] && { awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { print b - a }'; return 0; }
		sleep 0.1
	done
	return 1
}
base=$(ifc "$P" sink0 rx_packets)
"$WR" trial --prefix "$P" --rate 20kpps --duration 30s --learn-wait 0.2s --drain 1s --json >"$out" &
pid=$!
# a stop mid-traffic: once 10000 test frames (and the learning frame) are in
until_sink $((base + 10001)) >/dev/null || fail "the trial's first 10000 frames never reached the sink"
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" = 130 ] || fail "exit $rc after SIGINT, want 130"
j=$(cat "$out")
note "$(jq -c '{interrupted, d: .directions[0] | {tx, rx, lost}}' <<<"$j")"
[ "$(jq -r .interrupted <<<"$j")" = true ] || fail "not marked interrupted"
# The sink had 10000 when the stop was sent, and the trial would send
# 600000 in its 30 s: either bound missed means the stop was counted
# wrong. Every frame counted at 20 kpps: the DUT's 256-frame ring holds
# 12.8 ms of it, and what a held vCPU drops there is counted (lib.sh).
[ "$(jq -r "$ACCOUNTED"' .directions[0] | .tx >= 10000 and .tx < 600000 and accounted' <<<"$j")" = true ] || fail "counts: $(jq -c .directions[0] <<<"$j")"
# Nothing left: no wirerate process, the lab is as it was. ('wait' has
# reaped the trial; kill -0 would find a process that took its pid.)
! kill -0 "$pid" 2>/dev/null || fail "trial still running"
[ "$(labjq "$P" .state)" = up ] || fail "lab hurt"
# The tester's ends carry no XDP program (the DUT's ports keep the lab's own).
[ "$(labjq "$P" '[.interfaces[] | select(.name == "gen0" or .name == "sink0") | .xdp_prog_id] | add')" = 0 ] ||
	fail "an XDP program is left on the tester's ports"
[ "$(labjq "$P" '.dut.napi_mode')" = true ] || fail "the lab's DUT lost its NAPI mode"

# --repeat: Ctrl-C in the second of three trials ends the run there; the
# first is whole, both are printed and stored, the run is interrupted.
# The stop goes once the sink has the first trial's 40001 frames and 4000
# of the second's: 0.2 s into its 2 s of traffic, polled 0.1 s apart, so
# it lands in that trial with over a second to spare, however long the
# first took to start (a first trial that fell short only moves it later
# into the second).
# The first trial must be whole, every one of its 40000 frames sent. Beside
# a 20% load the generator once fell 8.5% short (170 ms of frames, past
# its 100 ms of slack to catch up), which the trial marks tester-limited:
# such a run says nothing of the stop, and is run again, each run logged,
# three at most. A first trial short and not so marked fails at once.
for attempt in 1 2 3; do
	base=$(ifc "$P" sink0 rx_packets)
	"$WR" trial --prefix "$P" --rate 20kpps --duration 2s --learn-wait 0.2s --drain 0.5s --repeat 3 --json \
		--label "int-repeat-$attempt" >"$out" &
	pid=$!
	until_sink $((base + 40001 + 1 + 4000)) >/dev/null || fail "--repeat: the second trial's frames never reached the sink"
	kill -INT "$pid"
	rc=0; wait "$pid" || rc=$?
	[ "$rc" = 130 ] || fail "--repeat: exit $rc after SIGINT, want 130"
	j=$(cat "$out")
	note "--repeat, run $attempt: $(jq -c '{s: .summary, r: [.repeats[] | {interrupted, tx: .directions[0].tx, tester_limited}]}' <<<"$j")"
	jq -e '.repeats[0].directions[0] | .tx < 40000 and .tester_limited' <<<"$j" >/dev/null || break
	note "the first trial's generator fell short: $(jq -r '.repeats[0].directions[0].tester_reason' <<<"$j")"
	[ $attempt -lt 3 ] || fail "--repeat: the generator fell short in three runs"
done
[ "$(jq -r '.summary | .trials == 2 and .interrupted' <<<"$j")" = true ] && [ "$(jq -r '(.repeats | length) == 2 and (.repeats[0].interrupted | not)
	and .repeats[0].directions[0].tx == 40000 and .repeats[1].interrupted' <<<"$j")" = true ] ||
	fail "--repeat interrupted: $j"
[ "$("$WR" runs --label "int-repeat-$attempt" --json | jq -r '.runs[0] | "\(.status) \(.trials)"')" = "interrupted 2" ] ||
	fail "--repeat: stored $("$WR" runs --label "int-repeat-$attempt" --json | jq -c .runs)"

# Ctrl-C in the drain, after every frame was sent: the trial is whole, not
# interrupted, and ends when its drain was due to (not a drain later).
# The stop goes 2 s into the 4 s drain (counted from when the sink had
# every frame, at most 0.1 s and one status call after the drain began):
# the trial must end with the 2 s left (it took 2.1 s, quiet and beside a
# 20% load: the analyzer reads on 150 ms past the drain), a restarted
# drain takes 4 s more. The bound, 3 s after the stop, leaves 0.9 s for
# a busy host and is 1 s short of a restarted drain. A generator that fell short
# (as above: marked tester-limited) never fills the sink; that trial ends
# by itself and is run again, three at most.
for attempt in 1 2 3; do
	base=$(ifc "$P" sink0 rx_packets)
	"$WR" trial --prefix "$P" --rate 20kpps --duration 1s --learn-wait 0.2s --drain 4s --no-store --json >"$out" &
	pid=$!
	if ! until_sink $((base + 20001)) >/dev/null; then
		wait "$pid"
		jq -e '.directions[0] | .tx < 20000 and .tester_limited' "$out" >/dev/null ||
			fail "drain: the trial's 20000 frames never reached the sink: $(jq -c .directions[0] "$out")"
		note "drain, run $attempt: the generator fell short: $(jq -r '.directions[0].tester_reason' "$out")"
		[ $attempt -lt 3 ] || fail "drain: the generator fell short in three trials"
		continue
	fi
	sleep 2
	t0=$EPOCHREALTIME
	kill -INT "$pid"
	rc=0; wait "$pid" || rc=$?
	took=$(echo "$EPOCHREALTIME - $t0" | bc -l)
	break
done
j=$(cat "$out")
note "drain: exit $rc $took s after the stop: $(jq -c '{interrupted, d: .directions[0] | {tx, rx, lost, offered_pps}}' <<<"$j")"
[ "$rc" = 0 ] || fail "a stop in the drain: exit $rc, want 0"
[ "$(jq -r '.interrupted == false and (.directions[0] | .tx == 20000 and .rx == 20000 and .offered_pps == 20000)' <<<"$j")" = true ] ||
	fail "a stop in the drain: $(jq -c '{interrupted, d: .directions[0]}' <<<"$j")"
[ "$(echo "$took < 3" | bc -l)" = 1 ] || fail "a stop in the drain restarted it: the trial ended $took s after it"
# A stop as soon as the run is stored, before any frame: the run is marked
# interrupted, never left 'running' (the handlers are in place before the
# run's row is written). Polled every 10 ms for the row, at most 10 s.
sdb=$(mktemp /tmp/wr-int-db.XXXXXX); rm -f "$sdb"
"$WR" trial --prefix "$P" --rate 20kpps --duration 5s --learn-wait 1s --drain 0.3s --db "$sdb" \
	--label early-stop >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1000); do
	[ -n "$(sqlite3 "$sdb" "SELECT id FROM runs WHERE label = 'early-stop'" 2>/dev/null)" ] && break
	sleep 0.01
done
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
st=$(sqlite3 "$sdb" "SELECT status FROM runs WHERE label = 'early-stop'")
rm -f "$sdb" "$sdb"-*
note "stopped right after its run was stored: exit $rc, status $st"
[ "$rc" = 130 ] && [ "$st" = interrupted ] || fail "an early stop: exit $rc, run $st; want 130, interrupted"
echo ok
