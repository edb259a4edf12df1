# wirerate matrix in interleaved rounds: two configurations that are the
# same (--rules 1000 twice) and one that costs the DUT more (3000 rules),
# 5 rounds in alternating order, while a busy loop takes the DUT's CPU
# from the third round on (the host changing under the matrix). The
# report pairs each configuration's rounds with the first's: the A/A pair
# is never "worse" or "better" (noise, or cannot tell), the 3000 rules
# are worse. With --no-interleave the repeats run back to back, then the
# drift check: the first configuration again. Bad round options are
# refused before anything is built.
. "$(dirname "$0")/lib.sh"

D=$(mktemp -d)
LOAD=
trap '[ -z "$LOAD" ] || kill "$LOAD" 2>/dev/null; rm -rf "$D"; cleanup' EXIT
DB=$D/results.db
# 100 kpps is above what the DUT forwards with 1000 rules (60-100 kpps
# here) and far above 3000 (about 25-35 kpps): every configuration's
# figure is the DUT's, not the offered load's. AF_PACKET: the same on
# every host; its generator is held back by the DUT's full queue, so what
# it sends is what the DUT took. From one 1 s trial to the next that moves
# by 10-25% on this 2-vCPU VM (the tester shares the DUT's host): 5
# rounds, for with 3 the 99% interval of a paired difference is 9.9 of
# its standard errors wide on each side (t with 2 degrees of freedom) and
# even 3000 rules against 1000 are "cannot tell" (measured).
T="trial --rate 100kpps --duration 1s --learn-wait 0.2s --drain 0.5s --port-type afpacket"

expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --repeat 3 -- $T --repeat 2
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --repeat 3 --no-interleave -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --order sideways -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 --repeat 17 -- $T
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 -- $T --repeat 0
expect_exit 2 "$WR" matrix --prefix "$P" --rules 0,1 -- $T --round 2
no_namespaces_left "$P"
[ ! -e "$DB" ] || fail "bad input created the database"

# The DUT's CPU is 1 (--dut-cpus 1): the busy loop goes there from the
# start of round 2 to the end, bounded at 120 s whatever happens.
"$WR" matrix --prefix "$P" --dut-cpus 1 --rules 1000,1000,3000 --db "$DB" --json -- $T --repeat 5 \
	>"$D/m.json" 2>"$D/m.err" &
pid=$!
# round 3 has begun when a seventh run is stored (polled every 0.2 s, for
# at most 120 s: two rounds take about 40 s)
for _ in $(seq 600); do
	n=$("$WR" runs --db "$DB" --json 2>/dev/null | jq '.runs | length' 2>/dev/null)
	[ "${n:-0}" -ge 7 ] && break
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.2
done
taskset -c 1 timeout 120 sh -c 'while :; do :; done' &
LOAD=$!
wait "$pid" || fail "matrix: $(tail -5 "$D/m.err")"
kill "$LOAD" 2>/dev/null
wait "$LOAD" 2>/dev/null
LOAD=
no_namespaces_left "$P"
j=$(cat "$D/m.json")
jq -e '.rounds == 5 and .interleaved and .order == "alternate"' <<<"$j" >/dev/null ||
	fail "not 5 interleaved rounds: $(jq -c '{rounds, interleaved, order}' <<<"$j")"
# each configuration's runs: rounds 1 to 5; round 2 in the reverse order
[ "$(jq -c '[.configurations[] | [.runs[].round]]' <<<"$j")" = '[[1,2,3,4,5],[1,2,3,4,5],[1,2,3,4,5]]' ] ||
	fail "rounds: $(jq -c '[.configurations[].runs]' <<<"$j")"
[ "$(jq -c '[.configurations[].runs[1].run_id] | . == (sort | reverse)' <<<"$j")" = true ] ||
	fail "round 2 did not run in reverse order: $(jq -c '[.configurations[].runs]' <<<"$j")"
# the report: three columns of five rounds, each paired with the first
r=$(jq -c '.report.runs' <<<"$j")
[ "$(jq 'length' <<<"$r")" = 3 ] || fail "report columns: $(jq -c '[.[].label]' <<<"$r")"
[ "$(jq -c '[.[].rounds | length]' <<<"$r")" = '[5,5,5]' ] || fail "rounds per column"
for k in 0 1 2; do
	note "$(jq -r ".[$k] | .label + \": \" + ([.rounds[].run_id] | map(tostring) | join(\",\")) + \" \" +
		(.cells[0].trial.forwarded_pps // 0 | tostring)" <<<"$r")"
done
aa=$(jq -c '.[1].cells[0] | {verdict, diff_pct, paired}' <<<"$r")
heavy=$(jq -c '.[2].cells[0] | {verdict, diff_pct, paired}' <<<"$r")
note "A/A: $aa"
note "3000 rules: $heavy"
jq -e '.paired.rounds == 5' <<<"$aa" >/dev/null || fail "the A/A pair was not paired: $aa"
jq -e '.verdict == "noise" or .verdict == "cannot tell"' <<<"$aa" >/dev/null ||
	fail "two equal configurations got a verdict: $aa"
jq -e '.verdict == "worse" and .paired.verdict == "worse" and .paired.hi_pct < 0' <<<"$heavy" >/dev/null ||
	fail "3000 rules against 1000 not worse: $heavy"
"$WR" report --db "$DB" $(jq -r '[.configurations[].runs[].run_id] | map(tostring) | join(" ")' <<<"$j") \
	>"$D/report" || fail "report"
grep -q '^  rounds (docs/confidence.md)' "$D/report" || fail "no rounds lines: $(cat "$D/report")"
grep -q '^wirerate report: 3 configurations in rounds against run ' "$D/report" || fail "title: $(head -1 "$D/report")"
# the same report from the matrix's tag
"$WR" report --db "$DB" --tag "$(jq -r .tag <<<"$j")" >"$D/bytag" || fail "report --tag"
diff "$D/report" "$D/bytag" >/dev/null || fail "report --tag differs: $(diff "$D/report" "$D/bytag" | head -5)"
grep -q 'rules=3000, 64 B: .* (99%, 5 rounds): worse; the host drifted' "$D/report" ||
	fail "no paired line: $(grep -A3 rounds "$D/report")"

# Back to back: each configuration's repeats in one run, then the drift
# check, the first configuration's round 2.
out=$("$WR" matrix --prefix "$P" --dut-cpus 1 --rules 1000,1000 --no-interleave --db "$DB" -- $T --repeat 2 2>&1) ||
	fail "matrix --no-interleave: $(tail -5 <<<"$out")"
grep -q '^matrix: each configuration once (its test.s repeats back to back), then the first again: the drift check$' \
	<<<"$out" || fail "no order line: $(head -3 <<<"$out")"
grep -q '^matrix 3/3: rules=1000 (again: the drift check)$' <<<"$out" || fail "no drift check"
grep -q '^  *2 rounds: runs ' <<<"$out" || fail "the drift check is not the first's round 2"
v=$(grep -A3 '^   size' <<<"$out" | awk '$1 == 64' | head -1)
note "back to back: $v"
# Which verdict back to back gives, nothing here promises: it is the
# order that cannot tell two equal configurations from a move of the host
# or of one lab build (CI under ASan saw rules=1000 twice read "-2.5%
# worse", its baseline 0.5% apart from its drift check), which is why
# rounds are the default. What it must give is checked above: the drift
# check, stored as the baseline's round 2, and the report of both.
no_namespaces_left "$P"
echo ok
