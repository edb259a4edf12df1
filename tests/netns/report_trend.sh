# report --trend on a lab series: the same trial (80 kpps for 1 s, the
# XDP path or AF_PACKET) run with no firewall rules, then with 3000 null
# rules in the DUT's forward chain. Without rules the DUT forwards all 80
# kpps; with them its CPU gives out near 12-15 kpps at 64 bytes on the XDP
# path of this kind of host, and at 23-36 kpps on the AF_PACKET path (the
# DUT pushes back instead of dropping, so it spends nothing on frames it
# drops; at 40 kpps that step was within the group's 16% noise), so
# the series steps down at the first trial after the rules. The trend
# must find that step there, and no other before it, and name the rules
# (lab.rules 0 -> 3000, the same on each side) as what differed. Then its
# JSON against the schema, --dut, the HTML page, --fail-on-regression and
# bad input.
. "$(dirname "$0")/lib.sh"

D=$(mktemp -d)
trap 'rm -rf "$D"; cleanup' EXIT
export WIRERATE_DB=$D/r.db
CHECK="/usr/bin/python3 $(dirname "$0")/../jsoncheck.py"
T="--prefix $P --rate 80kpps --duration 1s --learn-wait 0.1s --drain 0.3s --label trend --json"
# A trial the tester limited (on this host the sink's XDP ring overflows
# when the tester's vCPU is held: 1 trial in 4 at 40 kpps in a noisy
# hour) says nothing of the DUT and is left out of the series; each group
# gets 4 trials the tester did not limit, in at most 8 tries. FIRST: the
# run id of the group's first such trial.
clean_runs() {
	local n=0 tries=0 j
	FIRST=
	while [ $n -lt 4 ] && [ $tries -lt 8 ]; do
		tries=$((tries + 1))
		j=$("$WR" trial $T) || fail "trial"
		[ "$(jq -r .tester_limited <<<"$j")" = true ] && continue
		n=$((n + 1))
		[ -n "$FIRST" ] || FIRST=$(jq -r .run_id <<<"$j")
	done
	[ $n = 4 ] || fail "the tester limited $((tries - n)) of $tries trials"
	note "$1: $tries trial(s) for 4 the tester did not limit"
}
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
clean_runs "no rules"
"$WR" lab up --prefix "$P" --rules 3000 >/dev/null || fail "lab up --rules 3000"
clean_runs "3000 rules"
STEP=$FIRST

j=$("$WR" report --trend --label trend --json) || fail "report --trend: $j"
note "series: $(jq -c '[.points[] | [.id, (.value_pps | floor)]]' <<<"$j"); noise $(jq -r .noise_pct <<<"$j")%; left out $(jq -r .skipped <<<"$j")"
note "changes: $(jq -c '[.changes[] | {index, pct, verdict, differed: [.differed[] | select(.steady) | .key]}]' <<<"$j")"
c=$(jq -c --argjson s "$STEP" '[.changes[] | select(.run_id == $s)] | first' <<<"$j")
[ "$c" != null ] || fail "no change at run $STEP, the first with the rules: $(jq -c .changes <<<"$j")"
[ "$(jq -r --argjson s "$STEP" '[.changes[] | select(.run_id < $s)] | length' <<<"$j")" = 0 ] ||
	fail "a change before the rules: $(jq -c .changes <<<"$j")"
jq -e '.verdict == "worse" and .pct < -20 and
	any(.differed[]; .key == "lab.rules" and .before == "0" and .after == "3000" and .steady)' <<<"$c" >/dev/null ||
	fail "the step: $c"
echo "$j" >"$D/trend.json"
$CHECK "$(dirname "$0")/../../docs/json/report-trend.schema.json" "$D/trend.json" || fail "against report-trend.schema.json"
# the text names it too
"$WR" report --trend --label trend | grep -q "what differed, the same on each side: .*lab.rules 0 -> 3000" ||
	fail "text: $("$WR" report --trend --label trend)"
# --dut: the same series by the DUT it ran through (the lab, named as
# trial's --dut names it), and none through another DUT
[ "$("$WR" report --trend --label trend --dut "lab:$P" --json | jq -r '.runs')" = "$(jq -r .runs <<<"$j")" ] ||
	fail "--dut lab:$P: $("$WR" report --trend --label trend --dut "lab:$P" 2>&1 | head -3)"
expect_exit 2 "$WR" report --trend --label trend --dut ssh:nobody@198.18.0.9
expect_exit 2 "$WR" report --trend --label trend --dut bogus:x
# the HTML page: one chart, the change in its table with the rules in bold
"$WR" report --trend --label trend --html "$D/t.html" >/dev/null || fail "report --trend --html"
[ "$(grep -c '<svg class="chart"' "$D/t.html")" = 1 ] || fail "HTML: not one chart"
grep -q '<b>lab.rules</b>: 0 → 3000' "$D/t.html" || fail "HTML: the change's rules not named"
! grep -qi '<script' "$D/t.html" || fail "HTML: a script"
# the last change is worse by more than 5%: exit 3
"$WR" report --trend --label trend --fail-on-regression 5 >/dev/null
[ $? = 3 ] || fail "--fail-on-regression 5 did not exit 3"

# Bad input: exit 2, one line
expect_exit 2 "$WR" report --trend --label nosuch
expect_exit 2 "$WR" report --trend 1
expect_exit 2 "$WR" report --trend --label trend --csv
expect_exit 2 "$WR" report --trend --label trend --html "$D/no/such/dir/t.html"
expect_exit 2 "$WR" report --trend --label trend --size 512
expect_exit 2 "$WR" report 1 --label trend
"$WR" trial ${T/--label trend/--label short} >/dev/null || fail "trial short"
err=$("$WR" report --trend --label short 2>&1); rc=$?
[ $rc = 2 ] && grep -q "a series too short to judge: [01] run(s)" <<<"$err" || fail "short series: exit $rc: $err"
echo ok
