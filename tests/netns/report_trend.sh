# report --trend on a lab series: the same trial (60 kpps for 1 s) run
# 5 times with no firewall rules, then 5 times with 1000 null rules in the
# DUT's forward chain. Without rules the DUT forwards all 60 kpps; with
# them its CPU gives out near half of that (about 31 kpps at 64 bytes on
# this kind of host), so the series steps down at the sixth run. The
# trend must find that step there, and no other before it, and name the
# rules (lab.rules 0 -> 1000, the same on each side) as what differed.
# Then its JSON against the schema, --fail-on-regression, and bad input.
. "$(dirname "$0")/lib.sh"

D=$(mktemp -d)
trap 'rm -rf "$D"; cleanup' EXIT
export WIRERATE_DB=$D/r.db
CHECK="/usr/bin/python3 $(dirname "$0")/../jsoncheck.py"
T="--prefix $P --rate 60kpps --duration 1s --learn-wait 0.1s --drain 0.3s --label trend"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
for i in 1 2 3 4 5; do "$WR" trial $T >/dev/null || fail "trial $i"; done
"$WR" lab up --prefix "$P" --rules 1000 >/dev/null || fail "lab up --rules 1000"
for i in 6 7 8 9 10; do "$WR" trial $T >/dev/null || fail "trial $i"; done

j=$("$WR" report --trend --label trend --json) || fail "report --trend: $j"
note "series: $(jq -c '[.points[].value_pps | floor]' <<<"$j"); noise $(jq -r .noise_pct <<<"$j")%"
note "changes: $(jq -c '[.changes[] | {index, pct, verdict, differed: [.differed[] | select(.steady) | .key]}]' <<<"$j")"
c=$(jq -c '[.changes[] | select(.index == 5)] | first' <<<"$j")
[ "$c" != null ] || fail "no change at the sixth run: $(jq -c .changes <<<"$j")"
[ "$(jq -r '[.changes[] | select(.index < 5)] | length' <<<"$j")" = 0 ] || fail "a change before the rules: $(jq -c .changes <<<"$j")"
jq -e '.verdict == "worse" and .pct < -20 and
	any(.differed[]; .key == "lab.rules" and .before == "0" and .after == "1000" and .steady)' <<<"$c" >/dev/null ||
	fail "the step: $c"
echo "$j" >"$D/trend.json"
$CHECK "$(dirname "$0")/../../docs/json/report-trend.schema.json" "$D/trend.json" || fail "against report-trend.schema.json"
# the text names it too
"$WR" report --trend --label trend | grep -q "what differed, the same on each side: .*lab.rules 0 -> 1000" ||
	fail "text: $("$WR" report --trend --label trend)"
# the HTML page: one chart, the change in its table with the rules in bold
"$WR" report --trend --label trend --html "$D/t.html" >/dev/null || fail "report --trend --html"
[ "$(grep -c '<svg class="chart"' "$D/t.html")" = 1 ] || fail "HTML: not one chart"
grep -q '<b>lab.rules</b>: 0 → 1000' "$D/t.html" || fail "HTML: the change's rules not named"
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
"$WR" trial $T --label short >/dev/null || fail "trial short"
err=$("$WR" report --trend --label short 2>&1); rc=$?
[ $rc = 2 ] && grep -q "a series too short to judge: 1 run(s)" <<<"$err" || fail "short series: exit $rc: $err"
echo ok
