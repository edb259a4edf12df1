# wirerate matrix: bad input is refused before any lab is built or run
# stored; two configurations (null rules 0 and 1) each get a lab of their
# own, a stored run labelled with the configuration and the matrix's tag,
# and the report's by-configuration table; --json carries the runs and the
# report; a lab that was up is rebuilt and none is left at the end; a stop
# (SIGINT to the matrix) ends the running test, keeps its run, starts no
# further configuration and takes the lab down.
. "$(dirname "$0")/lib.sh"

D=$(mktemp -d); trap 'rm -rf "$D"; cleanup' EXIT
DB=$D/results.db
T="trial --rate 20kpps --duration 1s --learn-wait 0.1s --drain 0.3s"

# Bad input: one line, exit 2, no lab, no database.
expect_exit 2 "$WR" matrix --prefix "$P" -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 -- iperf3 -c x
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 -- $T --prefix other
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 -- $T --no-store
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1x -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,,1 -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --placement bound,sideways -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --dut-cpus 0 --dut-cpus 4096 -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1,2,3,4,5,6,7 --mtu 1500,1600,1700,1800,1900,2000,2100,2200,2300 -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 stray -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --frobnicate -- $T
no_namespaces_left "$P"
[ ! -e "$DB" ] || fail "bad input created the database"
expect_exit 2 "$WR" matrix --prefix "$P" --placement bound,free -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 -- $T --js
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --tag '' -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --fail-on-regression abc -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --html "$D/no/such/r.html" -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1,2 --label aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa \
	--shape 50kpps,100kpps --mtu 1500,1600 -- $T
# The test's own options are checked by the test, parsing only, before any
# lab is built: a lab already up is left as it was.
"$WR" lab up --prefix "$P" --rules 3 >/dev/null || fail "lab up"
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --db "$DB" -- trial --rate 12parsecs
[ "$(labjq "$P" '.state + " " + (.dut.rules | tostring)')" = "up 3" ] || fail "a bad test option touched the lab"
"$WR" lab down --prefix "$P" >/dev/null
no_namespaces_left "$P"

# Two configurations; a lab already up with the prefix is rebuilt.
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
out=$("$WR" matrix --prefix "$P" --rules 0,1 --label m --tag mine --db "$DB" -- $T 2>&1) || fail "matrix: $out"
note "$(printf '%s\n' "$out" | grep -A4 'by configuration')"
no_namespaces_left "$P"
XX
printf '%s\n' "$out" | grep -q 'through lab '"$P"' (.* 1 rules' || fail "configuration 2 did not run with 1 rule"
printf '%s\n' "$out" | grep -A3 'by configuration' | grep -q 'rules=1 ' || fail "no by-configuration table"
runs=$("$WR" runs --db "$DB" --json --tag mine)
[ "$(jq '.runs | length' <<<"$runs")" = 3 ] || fail "want 3 runs: $runs"
[ "$(jq -r '[.runs[].label] | sort | join("/")' <<<"$runs")" = "m rules=0/m rules=0/m rules=1" ] || fail "labels: $runs"
[ "$(jq -r '[.runs[].status] | unique | join(",")' <<<"$runs")" = complete ] || fail "status: $runs"
jq -e '[.runs[].tags | any(test("^matrix-"))] | all' <<<"$runs" >/dev/null || fail "no matrix tag: $runs"

# --json: the configurations with their runs, and the report.
j=$("$WR" matrix --json --prefix "$P" --rules 0,2 --db "$DB" -- $T 2>/dev/null) || fail "matrix --json"
jq -e . >/dev/null <<<"$j" || fail "not JSON: $j"
[ "$(jq '.configurations | length' <<<"$j")" = 2 ] || fail "configurations: $j"
[ "$(jq -r '.configurations[1].lab.rules' <<<"$j")" = 2 ] || fail "lab of configuration 2: $j"
[ "$(jq -r '[.configurations[].run_id] | map(tostring) | join(",")' <<<"$j")" = \
  "$(jq -r '[.report.runs[].id] | map(tostring) | join(",")' <<<"$j")" ] || fail "report's runs are not the matrix's: $j"
no_namespaces_left "$P"

# in_traffic: wait until the matrix's lab has carried 1000 of its trial's
# frames (50 ms of traffic at 20 kpps), polled every 0.1 s for at most
# 20 s, room for a lab build (1-3 s) on a busy host many times over. The
# signals below go then, when the trial is under way and handles them,
# not after a fixed sleep that a slow build would outlast, nor when the
# run is first stored (the trial takes its signals a moment later).
in_traffic() {
	local n
	for _ in $(seq 200); do
		n=$(ifc "$P" sink0 rx_packets 2>/dev/null)
		[ -n "$n" ] && [ "$n" != null ] && [ "$n" -ge 1000 ] && return 0
		sleep 0.1
	done
	fail "$1: the first configuration's trial never got traffic through"
}

# A stop while the first configuration's test runs.
"$WR" matrix --prefix "$P" --rules 0,1,2 --label stop --db "$DB" -- \
	trial --rate 20kpps --duration 4s --learn-wait 0.1s --drain 0.3s >"$D/stop.out" 2>&1 &
pid=$!
in_traffic "stop"
kill -INT "$pid"
wait "$pid"; rc=$?
note "$(tail -1 "$D/stop.out")"
[ "$rc" = 130 ] || fail "a stopped matrix exited $rc, want 130: $(cat "$D/stop.out")"
grep -q 'stopped in test 1 of 4' "$D/stop.out" || fail "no stop message: $(cat "$D/stop.out")"
! grep -q '^matrix 2/4' "$D/stop.out" || fail "a configuration started after the stop"
no_namespaces_left "$P"
n=$("$WR" runs --db "$DB" --json --label "stop rules=1" | jq '.runs | length')
[ "$n" = 0 ] || fail "configuration 2 ran after the stop"
s=$("$WR" runs --db "$DB" --json --label "stop rules=0" | jq -r '.runs[0].status')
[ "$s" = interrupted ] || fail "the stopped test's run shows as '$s', want interrupted"

# A matrix killed outright: its test stops (and is stored interrupted), and
# keeps the lab's lock until it has: lab down is refused meanwhile; then the
# lab reads partial (its builder died) until lab up repairs it. The test
# drains 2 s once stopped: the refusal must land inside that, and a
# 'lab down' starts in milliseconds; with a 0.3 s drain a held vCPU or a
# slow exec could miss it. 2 s changes nothing else the test checks.
"$WR" matrix --prefix "$P" --rules 0,1 --label killed --db "$DB" -- \
	trial --rate 20kpps --duration 4s --learn-wait 0.1s --drain 2s >/dev/null 2>&1 &
pid=$!
in_traffic "killed"
kill -KILL "$pid"; wait "$pid" 2>/dev/null
expect_exit 1 "$WR" lab down --prefix "$P"
# until the orphaned test has stopped: its 2 s drain, then storing; polled
# every 0.1 s for at most 10 s, and the checks below fail if it has not
for _ in $(seq 100); do
	[ "$(labjq "$P" .in_use_by)" = null ] && break
	sleep 0.1
done
s=$("$WR" runs --db "$DB" --json --label "killed rules=0" | jq -r '.runs[0].status')
[ "$s" = interrupted ] || fail "the killed matrix's test shows as '$s'"
[ "$(labjq "$P" '.state + " " + (.interrupted_build | tostring)')" = "partial true" ] ||
	fail "after a killed matrix: $(labjq "$P" '{state, interrupted_build}')"
"$WR" lab up --prefix "$P" >/dev/null || fail "repair"
"$WR" lab down --prefix "$P" >/dev/null
no_namespaces_left "$P"
echo ok
