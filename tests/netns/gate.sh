# The baseline gate a CI runs: a lab with no rules as the baseline, then the
# same lab with 3000 null firewall rules (each frame walks them all: this
# host forwards about 24 kpps through them, against the 100 kpps offered and
# forwarded without them), then the same configuration again. The gate
# says regression (exit 3, "not ok" in KTAP, FAIL in KCIDB) for the rules
# and no regression (exit 0) for the same configuration; the KTAP output
# goes through the kernel's own KTAP parser (kunit.py) and the KCIDB
# document through the published KCIDB schema.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require nftables >/dev/null 2>&1 || skip "$("$WR" probe --require nftables 2>&1)"
T=$(mktemp -d /tmp/wr-gate.XXXXXX)
trap 'cleanup; rm -rf "$T"' EXIT
export WIRERATE_DB=$T/results.db
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# 100 kpps for 0.5 s, three times: the forwarded rate is the figure judged,
# its noise the spread of the three.
trial() { "$WR" trial --prefix "$P" --rate 100kpps --duration 500ms --learn-wait 0.2s --drain 0.5s --repeat 3 --label "$1" >/dev/null || fail "trial $1"; }

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
trial base
"$WR" lab up --prefix "$P" --rules 3000 >/dev/null || fail "lab up --rules 3000"
trial rules
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up without rules"
trial same

# 3000 rules: a regression, and every output says so.
"$WR" gate --baseline base rules >"$T/rules.txt"; rc=$?
cat "$T/rules.txt"
[ "$rc" = 3 ] || fail "gate on 3000 rules exited $rc, want 3"
grep -q '^verdict: regression' "$T/rules.txt" || fail "no regression verdict"
grep -q 'wirerate.trial.forwarded.64 *FAIL' "$T/rules.txt" || fail "the figure is not FAIL"
"$WR" gate --baseline base rules --ktap --kcidb "$T/rules.kcidb.json" --origin wirerate_test >"$T/rules.ktap"; rc=$?
[ "$rc" = 3 ] || fail "gate --ktap exited $rc, want 3"
grep -q '^not ok 1 wirerate.trial.forwarded.64$' "$T/rules.ktap" || fail "KTAP: $(cat "$T/rules.ktap")"
bash "$ROOT/tests/ktap_check.sh" "$T/rules.ktap" 0 1 0 || fail "the kernel's KTAP parser disagrees"
/usr/bin/python3 "$ROOT/tests/kcidb_check.py" "$T/rules.kcidb.json" || fail "KCIDB schema"
[ "$(jq -r '.tests[0].status' "$T/rules.kcidb.json")" = FAIL ] || fail "KCIDB status $(jq -c '.tests[0]' "$T/rules.kcidb.json")"
[ "$(jq -r '.tests[0].path' "$T/rules.kcidb.json")" = wirerate.trial.forwarded.64 ] || fail "KCIDB path"
[ "$(jq -r '.tests[0].number.unit' "$T/rules.kcidb.json")" = frames/s ] || fail "KCIDB unit"
v=$(jq -r '.tests[0].number.value' "$T/rules.kcidb.json")
# the figure is the stored run's: runs show's median of the three
jq -e --argjson v "$v" '.tests[0].misc.run_uuid != null and $v > 0 and $v < 90000' "$T/rules.kcidb.json" >/dev/null ||
	fail "KCIDB number $v: 3000 rules forward far less than 100 kpps"

# The same configuration again: no regression.
"$WR" gate --baseline base same --ktap --kcidb "$T/same.kcidb.json" --origin wirerate_test >"$T/same.ktap"; rc=$?
cat "$T/same.ktap"
[ "$rc" = 0 ] || fail "gate on the same configuration exited $rc, want 0"
bash "$ROOT/tests/ktap_check.sh" "$T/same.ktap" 1 0 0 || fail "the kernel's KTAP parser disagrees"
/usr/bin/python3 "$ROOT/tests/kcidb_check.py" "$T/same.kcidb.json" || fail "KCIDB schema"
[ "$(jq -r '.tests[0].status' "$T/same.kcidb.json")" = PASS ] || fail "KCIDB status"

# A run alone, exported for KernelCI: measured (DONE), not judged.
"$WR" runs export same --kcidb "$T/run.kcidb.json" --origin wirerate_test >/dev/null || fail "runs export --kcidb"
/usr/bin/python3 "$ROOT/tests/kcidb_check.py" "$T/run.kcidb.json" || fail "KCIDB schema (export)"
[ "$(jq -r '.tests[0].status' "$T/run.kcidb.json")" = DONE ] || fail "export status"

# A threshold wider than the change: no regression. A threshold of 0:
# every trial's figure has a noise band of at least 0.5% of the load
# (the pacing's tolerance), wider than 0%, so the gate cannot tell: 4.
"$WR" gate --baseline base rules --threshold 100 >/dev/null; rc=$?
[ "$rc" = 0 ] || fail "--threshold 100 exited $rc"
"$WR" gate --baseline base same --threshold 0 >"$T/zero.txt"; rc=$?
cat "$T/zero.txt"
[ "$rc" = 4 ] || fail "--threshold 0 exited $rc, want 4 (noise wider than 0%)"
grep -q 'cannot tell: the noise' "$T/zero.txt" || fail "no reason given"
"$WR" gate --baseline base same --threshold 0 --ktap >"$T/zero.ktap"; rc=$?
[ "$rc" = 4 ] || fail "--threshold 0 --ktap exited $rc"
bash "$ROOT/tests/ktap_check.sh" "$T/zero.ktap" 0 0 1 || fail "the kernel's KTAP parser disagrees (cannot tell is a skip)"

# Bad input: one line, exit 2, nothing written.
expect_exit 2 "$WR" gate --baseline base
expect_exit 2 "$WR" gate --baseline base nosuchrun
expect_exit 2 "$WR" gate --baseline base same same
expect_exit 2 "$WR" gate --baseline base base
expect_exit 2 "$WR" gate --baseline base same --threshold 101
expect_exit 2 "$WR" gate --baseline base same --ktap --json
expect_exit 2 "$WR" gate --baseline base same --kcidb "$T/x.json"
expect_exit 2 "$WR" gate --baseline base same --kcidb "$T/x.json" --origin 'Not_Valid'
expect_exit 2 "$WR" gate --baseline base same --kcidb "$T/x.json" --origin ci --kcidb-build other:1
expect_exit 2 "$WR" gate --baseline base same --kcidb "$T/nodir/x.json" --origin ci
expect_exit 2 "$WR" gate --baseline base same --origin ci
expect_exit 2 "$WR" runs export same base --kcidb "$T/x.json" --origin ci
[ ! -e "$T/x.json" ] || fail "a refused gate wrote its file"
echo ok
