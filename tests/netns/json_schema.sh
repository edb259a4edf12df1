# The JSON contract (docs/json.md): every command's --json output is
# checked against its published schema (docs/json/*.schema.json), and no
# object in it repeats a key. Real outputs of a lab: a trial, a trial
# with --repeat, an RFC 2544 run with latency, its --json-stream lines,
# runs, runs import, report, cpu, soak and its calibration, probe, help,
# version, calibrate, stream, matrix, and lab up, status and down.
. "$(dirname "$0")/lib.sh"

CHECK="/usr/bin/python3 $(dirname "$0")/../jsoncheck.py"
S=$(dirname "$0")/../../docs/json
/usr/bin/python3 -c 'import jsonschema' 2>/dev/null || skip "no python3-jsonschema (scripts/deps.sh installs it)"
D=$(mktemp -d /tmp/wr-json.XXXXXX)
trap 'rm -rf "$D"; cleanup' EXIT
export WIRERATE_DB=$D/r.db
T="--prefix $P --learn-wait 0.1s --drain 0.3s"
n=0
check() { # schema file [last-schema]
	[ -n "${WR_TIMING:-}" ] && echo "# $SECONDS s: $1" >&2
	$CHECK "$S/$1.schema.json" "$2" ${3:+"$S/$3.schema.json"} || fail "$(basename "$2") against $1.schema.json"
	n=$((n + 1))
}

"$WR" lab up --prefix "$P" --shape 20kpps --json >"$D/lab-up" || fail "lab up"
check lab "$D/lab-up"
"$WR" lab status --prefix "$P" -j >"$D/lab-status" || fail "lab status"
check lab "$D/lab-status"
"$WR" trial $T -r 5kpps -t 1s --label j1 -j >"$D/trial" || fail "trial"
check trial "$D/trial"
"$WR" trial $T -r 5kpps -t 0.5s --repeat 2 --bidir --label j2 -j --capture "$D/c.pcapng" >"$D/trial-repeat" ||
	fail "trial --repeat"
check trial "$D/trial-repeat"
jq -e '.capture.file and (.repeats | length) == 2' "$D/trial-repeat" >/dev/null || fail "trial --repeat --capture: no capture"
R="$T --quick --trial-time 0.5s --settle 0.1s --sizes 64,128 --max-load 40kpps --precision 10%"
"$WR" rfc2544 latency $R --sizes 64 --latency-runs 1 --label j3 -j >"$D/rfc2544" 2>/dev/null || fail "rfc2544 latency"
check rfc2544 "$D/rfc2544"
# two sizes: the sizes' verdict is in the result
"$WR" rfc2544 throughput $R --json-stream --no-store >"$D/stream-lines" 2>/dev/null || fail "--json-stream"
check rfc2544-event "$D/stream-lines" rfc2544
"$WR" runs -j >"$D/runs" || fail "runs"
check runs "$D/runs"
"$WR" runs export 1 2 3 >"$D/export" || fail "runs export"
"$WR" runs import "$D/export" --db "$D/other.db" -j >"$D/import" || fail "runs import"
check runs-import "$D/import"
"$WR" report j1 j2 -j >"$D/report-trials" || fail "report of trials"
check report "$D/report-trials"
"$WR" report j3 -j >"$D/report-rfc2544" || fail "report of rfc2544"
check report "$D/report-rfc2544"
"$WR" cpu 0.05 2 -j >"$D/cpu" || fail "cpu"
check cpu "$D/cpu"
"$WR" probe -j >"$D/probe" || fail "probe"
check probe "$D/probe"
"$WR" help -j >"$D/help" || fail "help"
check help "$D/help"
"$WR" version -j >"$D/version" || fail "version"
check version "$D/version"
"$WR" calibrate $T --duration 0.5s --calibration "$D/cal" -j >"$D/calibrate" 2>/dev/null || fail "calibrate"
check calibrate "$D/calibrate"
"$WR" stream --prefix "$P" -l 0.5 -j >"$D/stream" || fail "stream"
check stream "$D/stream"
# a calibration that settles on a busy CI host: 30% is loose on purpose,
# only the document's shape is checked here
"$WR" soak --calibrate --cpus 0 --settle 2 --tolerance 30 --timeout 30s --calibration "$D/soak" -j >"$D/soak-cal" 2>/dev/null ||
	fail "soak --calibrate"
check soak "$D/soak-cal"
"$WR" soak --cpus 0 --duration 0.5s --interval 0.25s --calibration "$D/soak" -j >"$D/soak-run" || fail "soak"
check soak "$D/soak-run"
"$WR" matrix --prefix "$P" --shape 20kpps,30kpps -j -- trial --rate 5kpps --duration 0.3s --learn-wait 0.1s \
	--drain 0.2s >"$D/matrix" 2>/dev/null || fail "matrix"
check matrix "$D/matrix"
"$WR" lab down --prefix "$P" -j >"$D/lab-down" || fail "lab down"
check lab "$D/lab-down"
# one shape for up and down: the lab gone has no parts
jq -e '.state == "absent" and .interfaces == [] and .dut == null' "$D/lab-down" >/dev/null || fail "lab down: $(cat "$D/lab-down")"
note "$n documents valid against docs/json/"
# and a broken one is not: the checker can fail
jq -c 'del(.directions)' "$D/trial" >"$D/bad"
! $CHECK "$S/trial.schema.json" "$D/bad" >/dev/null || fail "a trial without directions passed its schema"
jq -c '.wirerate.schema = 2' "$D/runs" >"$D/bad"
! $CHECK "$S/runs.schema.json" "$D/bad" >/dev/null || fail "schema 2 passed as 1"
printf '{"wirerate":{"version":"x","revision":"y","schema":1,"command":"version","time":1},"version":"a","version":"b","revision":"c"}\n' >"$D/bad"
! $CHECK "$S/version.schema.json" "$D/bad" >/dev/null || fail "a repeated key passed"
echo ok
