# The store end to end: a real RFC 2544 search (twice per size) on a lab
# shaped to 20 kpps, stored as it runs; 'runs' lists it, 'report' shows it
# as JSON and CSV that parse, with the figures the search found; synthetic
# runs derived from it (30% worse, 30% better) give the verdicts and the
# exit status of --fail-on-regression; --html writes a page with charts.
# With WR_STORE=pg (store_rfc2544_pg.sh) all of it on a PostgreSQL store.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
D=$(mktemp -d); trap 'store_down; rm -rf "$D"; cleanup' EXIT
. "$(dirname "$0")/lib_store.sh"
"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up"
Q="--prefix $P --quick --trial-time 1s --settle 0.1s --learn-wait 0.1s --drain 0.3s --max-load 40kpps"

j=$("$WR" rfc2544 throughput $Q --sizes 64 --repeat 2 --db "$DB" --label base --tag ci --tag "two words" --json) || fail "rfc2544"
id=$(jq -r .run_id <<<"$j")
[ "$id" -ge 1 ] 2>/dev/null || fail "no run id in the output: $(jq -c '{run_id, db}' <<<"$j")"
ntrials=$(jq '.trials | length' <<<"$j")
note "run $id, $ntrials trials, NDR $(jq -c '.rows[0].repeats' <<<"$j")"

# Every trial the command reported is in the file, with its CPU figures.
[ "$(dbq "SELECT count(*) FROM trials WHERE run_id = $id")" = "$ntrials" ] || fail "trials stored != trials run"
[ "$(dbq "SELECT count(*) FROM trial_cpu c JOIN trials t ON t.id = c.trial_id WHERE t.run_id = $id")" = "$ntrials" ] || fail "CPU figures missing"
[ "$(dbq "SELECT count(*) FROM results WHERE run_id = $id AND size = 64")" = 2 ] || fail "not two repeats stored"
[ "$(dbq "SELECT value FROM env WHERE run_id = $id AND key = 'lab.placement'")" = bound ] || fail "environment not captured"
[ -n "$(dbq "SELECT value FROM env WHERE run_id = $id AND key = 'kernel.release'")" ] || fail "no kernel release"
# RFC 9971's items: each trial's output (the forwarding rate is the load
# times one less the loss ratio), each goal's result per repeat.
[ "$(dbq "SELECT count(*) FROM trial_output o JOIN trials t ON t.id = o.trial_id WHERE t.run_id = $id AND o.effective_s = t.duration_s AND abs(o.forwarding_rate - t.load * (1 - o.loss_ratio)) <= 1e-6 * t.load AND o.traffic_s > 0")" = "$ntrials" ] || fail "trial outputs missing or wrong"
[ "$(dbq "SELECT count(*) FROM goal_results WHERE run_id = $id AND size = 64 AND rlb > 0")" = 4 ] || fail "goal results: not 2 goals x 2 repeats"
[ "$(db_whole)" = ok ] || fail "integrity"

r=$("$WR" runs --db "$DB" --json) || fail "runs"
note "runs: $(jq -c '.runs[0] | {id, "label": .label, test, sizes, status, headline, tags}' <<<"$r")"
[ "$(jq -r --argjson id "$id" '.runs[] | select(.id == $id) | .status == "complete" and .label == "base" and .sizes == "64" and (.tags | index("ci") != null) and (.tags | index("two words") != null)' <<<"$r")" = true ] || fail "runs: $r"
[ "$("$WR" runs --db "$DB" --json --tag nope | jq '.runs | length')" = 0 ] || fail "runs --tag filter"
[ "$("$WR" runs --db "$DB" --json --label base --since 1h | jq '.runs | length')" = 1 ] || fail "runs --label/--since filter"
[ "$("$WR" runs --db "$DB" --json --since 2999-01-01 | jq '.runs | length')" = 0 ] || fail "runs --since in the future"
"$WR" runs --db "$DB" | grep -q "base" || fail "runs text"

# Where the host had the CPUs when the run began, kept with it and shown.
if [ "$(nproc)" -ge 2 ]; then
	line=$(dbq "SELECT value FROM env WHERE run_id = $id AND key = 'cpu.line_ns'")
	note "cpu.line_ns: $line"
	grep -Eq '^0-1:[0-9]+\.[0-9]( |$)' <<<"$line" || fail "no cache-line figure stored with the run: '$line'"
	[ "$("$WR" report base --db "$DB" --json | jq -r '.runs[0].cpu_line_ns')" = "$line" ] || fail "report: cpu_line_ns"
fi

# The report's figures are the search's own.
rep=$("$WR" report base --db "$DB" --json) || fail "report --json"
c=$(jq -c '.runs[0].cells[0]' <<<"$rep")
note "report cell: $c"
med=$(jq -r '.rows[0].repeats.ndr_median' <<<"$j")
# The shaper's 20 kpps is the best of the two searches, within 3%: a host
# that holds the DUT's vCPU only pushes one NDR down (17083 in a noisy
# hour here), never up.
[ "$(jq -r --argjson med "$med" '.size == 64 and .repeats == 2 and .ndr_median_pps == $med and .ndr_max_pps >= 19400 and .ndr_max_pps <= 20600 and .ndr_min_pps <= .ndr_max_pps and .width_pps == 200 and .verdict == "baseline"' <<<"$c")" = true ] || fail "report cell: $c (search median $med)"
# Each goal's result over the repeats: the NDR goal's lower bound is the
# NDR the table shows.
[ "$(jq -r '[.goals[].name] == ["ndr", "pdr"] and .goals[0].rlb == .ndr_median_pps and .goals[0].rub >= .goals[0].rlb and .goals[1].rlb >= .goals[0].rlb and .goals[0].repeats == 2' <<<"$c")" = true ] || fail "report goals: $(jq -c .goals <<<"$c")"
"$WR" report base --db "$DB" | grep -Eq ' 64  ndr:1f1d0l0e' || fail "report text: no goals table"
"$WR" report base --db "$DB" --csv >"$D/r.csv" || fail "report --csv"
python3 - "$D/r.csv" "$med" <<'PY' || fail "CSV does not parse to the same figures"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1, rows
assert rows[0]["size"] == "64" and float(rows[0]["ndr_median_pps"]) == float(sys.argv[2]), rows
assert rows[0]["label"] == "base" and rows[0]["verdict"] == "baseline", rows
PY

# Synthetic runs from the real one: the same environment, NDR scaled.
RUN_COPY="started, ended, test, label, sizes, config, place, line_bps, repeats, precision, pdr_ratio, status, pid, boot_id, headline"
derive() { # label factor
	local run="SELECT started + 1, ended + 1, test, '$1', sizes, config, place, line_bps, repeats, precision, pdr_ratio, status, 0, boot_id, 'synthetic' FROM runs WHERE id = $id"
	local res="size, repeat, max_load, ndr_lower * $2, ndr_upper * $2, pdr_lower * $2, pdr_upper * $2, width_pps, 1 FROM results WHERE run_id = $id"
	local cols="run_id, size, repeat, max_load, ndr_lower, ndr_upper, pdr_lower, pdr_upper, width_pps, search_done"
	if [ "${WR_STORE:-sqlite}" = pg ]; then
		dbq "WITH n AS (INSERT INTO runs ($RUN_COPY) $run RETURNING id) INSERT INTO results ($cols) SELECT (SELECT id FROM n), $res" >/dev/null
	else
		dbq "PRAGMA foreign_keys = ON; INSERT INTO runs ($RUN_COPY) $run; INSERT INTO results ($cols) SELECT last_insert_rowid(), $res"
	fi
}
derive worse 0.7
derive better 1.3
rc=0; out=$("$WR" report base worse better --db "$DB" --fail-on-regression 5) || rc=$?
echo "$out"
[ "$rc" = 3 ] || fail "--fail-on-regression 5 on a 30% drop exited $rc, want 3"
echo "$out" | grep -q "worse" && echo "$out" | grep -q "better" || fail "verdicts not in the table"
j2=$("$WR" report base worse better --db "$DB" --json) || fail "report --json (no threshold) exited $?"
[ "$(jq -r '[.runs[].cells[0].verdict] == ["baseline", "worse", "better"] and .regression == false' <<<"$j2")" = true ] || fail "verdicts: $(jq -c '[.runs[].cells[0] | {verdict, diff_pct}]' <<<"$j2")"
[ "$(jq -r '.runs[1].cells[0].diff_pct | . > -30.5 and . < -29.5' <<<"$j2")" = true ] || fail "diff"
"$WR" report base better --db "$DB" --fail-on-regression 5 >/dev/null || fail "an improvement failed the regression check"
"$WR" report base base --db "$DB" --fail-on-regression 0 >/dev/null || fail "a run against itself failed the regression check"
"$WR" report base worse --db "$DB" --fail-on-regression 40 >/dev/null || fail "a 30% drop failed a 40% threshold"

# The HTML page: one file, with charts, and no half file on failure.
"$WR" report base worse better --db "$DB" --html "$D/r.html" >/dev/null || fail "report --html"
[ -s "$D/r.html" ] && grep -q "<svg" "$D/r.html" || fail "no chart in the HTML"
grep -q "Search goals (RFC 9971)" "$D/r.html" || fail "no goals in the HTML"
expect_exit 2 "$WR" report base --db "$DB" --html "$D/no/such/dir/r.html"
[ -z "$(ls "$D" | grep 'r.html.')" ] || fail "a temporary HTML file was left: $(ls "$D")"

# The frame loss test's steps as CSV, one line per step, with the figures
# the run printed.
jl=$("$WR" rfc2544 loss $Q --sizes 64 --db "$DB" --label lossrun --json) || fail "rfc2544 loss, stored"
"$WR" report lossrun --db "$DB" --csv-loss >"$D/loss.csv" || fail "report --csv-loss"
jq -c '[.rows[0].frame_loss[] | [.pct, .loss_pct]]' <<<"$jl" >"$D/loss.json"
python3 - "$D/loss.csv" "$D/loss.json" <<'PY' || fail "loss CSV: $(cat "$D/loss.csv")"
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
want = json.load(open(sys.argv[2]))
assert len(rows) == len(want) >= 2, (rows, want)
for i, (r, (pct, loss)) in enumerate(zip(rows, want)):
    assert r["label"] == "lossrun" and r["size"] == "64" and r["step"] == str(i + 1), r
    assert abs(float(r["offered_pct"]) - pct) < 1e-6 and abs(float(r["loss_pct"]) - loss) < 1e-4, (r, pct, loss)
    assert float(r["offered_pps"]) > 0, r
PY
note "loss CSV: $(tr '\n' ' ' <"$D/loss.csv" | cut -c1-300)"
expect_exit 2 "$WR" report lossrun --db "$DB" --csv --csv-loss

# runs rm takes everything of the run.
"$WR" runs rm 3 --db "$DB" >/dev/null || fail "runs rm"
[ "$(dbq "SELECT count(*) FROM results WHERE run_id = 3")" = 0 ] || fail "results of a deleted run left"
expect_exit 2 "$WR" runs rm 3 --db "$DB"
echo ok
