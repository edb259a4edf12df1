# Results that travel: real runs (two trials, one with repeats, and an
# RFC 2544 search) exported from one store and imported into another give
# the same report, byte for byte, and the same 'runs show'; imported
# again, each is known by its UUID and skipped. An import file is
# untrusted: a column the store does not have, a value that is not a
# number or a string, a status the store refuses, or text that is not
# JSON stores nothing at all (exit 2), and what it holds cannot drive
# the terminal.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up"
D=$(mktemp -d /tmp/wr-travel.XXXXXX)
trap 'rm -rf "$D"; cleanup' EXIT
A=$D/a.db B=$D/b.db
T="--prefix $P --learn-wait 0.1s --drain 0.3s --db $A"
"$WR" trial $T -r 10kpps -t 1s --label tr-a >/dev/null || fail "trial a"
"$WR" trial $T -r 30kpps -t 1s --repeat 2 --label tr-b >/dev/null || fail "trial b"
"$WR" rfc2544 throughput $T --quick --trial-time 0.5s --settle 0.1s --sizes 64 --max-load 40kpps --precision 2% \
	--label search >/dev/null 2>&1 || fail "rfc2544"
ids=$("$WR" runs --db "$A" --json | jq -r '[.runs[].id] | join(" ")')
[ "$ids" = "1 2 3" ] || fail "stored runs: $ids"

"$WR" runs export $ids --db "$A" >"$D/e.json" || fail "export"
jq -e '.wirerate.export == 1 and .wirerate.schema >= 5 and (.runs | length) == 3 and
	all(.runs[]; (.run.uuid | test("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")))' \
	"$D/e.json" >/dev/null || fail "export: $(head -c 400 "$D/e.json")"
note "export: $(wc -c <"$D/e.json") bytes, trials $(jq -c '[.runs[] | .trials | length]' "$D/e.json"), loss rows $(jq '[.runs[].trials[].loss[]] | length' "$D/e.json")"
[ "$(jq '[.runs[].trials[].loss_dir[]] | length' "$D/e.json")" -gt 0 ] || fail "export: no loss attribution rows"

out=$("$WR" runs import "$D/e.json" --db "$B") || fail "import: $out"
note "$out"
grep -q "^imported 3 run(s) as 1-3 into $B; 0 already there" <<<"$out" || fail "import said: $out"
# a report, less what says where and when it was made: the store's path
# (JSON and CSV name it) and the JSON header's time
same() { sed -e "s#$A#STORE#g; s#$B#STORE#g; s#$D/c.db#STORE#g; s#\"time\":[0-9]*#\"time\":T#"; }
for r in "tr-a tr-b" "search" "1 2 3"; do
	for fmt in "" --json --csv; do
		diff <("$WR" report $r $fmt --db "$A" | same) <("$WR" report $r $fmt --db "$B" | same) >"$D/diff" ||
			fail "report $r $fmt differs after the journey: $(head -20 "$D/diff")"
	done
done
# One report over both stores: run 1 is in each (ambiguous, both named),
# K:ID is the K-th --db's run, and the cells are those each store gives.
err=$("$WR" report 1 --db "$A" --db "$B" 2>&1); rc=$?
[ $rc = 2 ] && grep -q "^wirerate: report: run 1 is in 2 stores (1: $A, 2: $B)" <<<"$err" || fail "ambiguous id: exit $rc: $err"
j=$("$WR" report 1:2 2:2 --db "$A" --db "$B" --json) || fail "report over two stores"
jq -e --arg a "$A" --arg b "$B" '[.runs[] | {ref, store}] == [{ref: "1:2", store: $a}, {ref: "2:2", store: $b}]
	and .runs[0].cells == (.runs[1].cells | map(.verdict = "baseline" | .diff_pct = 0))' <<<"$j" >/dev/null ||
	fail "two stores: $(jq -c '[.runs[] | {ref, store, cells: [.cells[] | {verdict, diff_pct}]}]' <<<"$j")"
"$WR" report 1:2 2:2 --db "$A" --db "$B" | grep -q "#2:2 tr-b" || fail "text: run 2:2 not named: $("$WR" report 1:2 2:2 --db "$A" --db "$B")"
# a label: the latest over both (here an equal copy), with a note; a UUID
# finds its run in either
err=$("$WR" report tr-b --db "$A" --db "$B" 2>&1 >/dev/null) || fail "label over two stores: $err"
grep -q "^wirerate: report: label 'tr-b' names 2 runs in 2 stores; using the latest, run [12]:2$" <<<"$err" || fail "label note: $err"
uuid=$(jq -r '.runs[2].run.uuid' "$D/e.json")
[ "$("$WR" report "$uuid" search --db "$B" --db "$A" --json | jq -r '[.runs[].ref] | join(" ")')" = "1:3 1:3" ] ||
	fail "by UUID: $("$WR" report "$uuid" search --db "$B" --db "$A" --json | jq -c '[.runs[] | {ref, label}]')"
# runs sync: A's runs into a new store, then again (all there already),
# and with a filter only those it lets through
out=$("$WR" runs sync "$A" --db "$D/c.db") || fail "sync: $out"
grep -q "^synced $A into $D/c.db: 3 run(s) copied as 1-3, 0 already there" <<<"$out" || fail "sync said: $out"
diff <("$WR" report 1 2 3 --json --db "$A" | same) <("$WR" report 1 2 3 --json --db "$D/c.db" | same) >"$D/diff" ||
	fail "report differs after sync: $(head -20 "$D/diff")"
"$WR" runs sync "$A" --db "$D/c.db" --json >"$D/sync.json" || fail "sync again"
[ "$(jq -c '[.imported, .skipped]' "$D/sync.json")" = "[0,3]" ] || fail "sync again copied: $(cat "$D/sync.json")"
/usr/bin/python3 "$(dirname "$0")/../jsoncheck.py" "$(dirname "$0")/../../docs/json/runs-sync.schema.json" "$D/sync.json" ||
	fail "sync --json against its schema"
[ "$("$WR" runs sync "$A" --label tr-a --db "$D/d.db" --json | jq -c '[.imported, .skipped]')" = "[1,0]" ] ||
	fail "sync --label tr-a"
expect_exit 2 "$WR" runs sync "$D/none.db" --db "$D/c.db"
expect_exit 2 "$WR" runs sync "$A" --db "$A"
expect_exit 2 "$WR" runs sync --db "$D/c.db"
expect_exit 2 "$WR" report 1 --db "$A" --db "$D/no/such/dir.db"
expect_exit 2 "$WR" report 1 $(for i in 1 2 3 4 5 6 7 8 9; do printf -- "--db %s " "$A"; done)
diff <("$WR" runs show 3 --db "$A") <("$WR" runs show 3 --db "$B") >"$D/diff" || fail "runs show differs: $(cat "$D/diff")"
[ "$("$WR" runs show 2 --db "$B" | grep -cE '^ +[0-9]+ +64 x ')" = 2 ] || fail "runs show 2: not its two trials: $("$WR" runs show 2 --db "$B")"
"$WR" runs show 3 --db "$B" --json | jq -e '.runs[0].run.label == "search" and (.runs[0].results | length) == 1' >/dev/null ||
	fail "runs show --json"
# once only
out=$("$WR" runs import "$D/e.json" --db "$B" --json) || fail "import again"
[ "$(jq -c '[.imported, .skipped]' <<<"$out")" = "[0,3]" ] || fail "import again: $out"
[ "$("$WR" runs --db "$B" --json | jq '.runs | length')" = 3 ] || fail "a run stored twice"

# Hostile files: nothing stored, exit 2, one line.
count() { sqlite3 "$B" "SELECT (SELECT count(*) FROM runs) || ' ' || (SELECT count(*) FROM trials)"; }
before=$(count)
bad() { # name, jq program turning the export into a bad one
	jq -c "$2" "$D/e.json" >"$D/bad.json"
	sqlite3 "$B" "DELETE FROM runs WHERE label = 'fresh'"
	err=$("$WR" runs import "$D/bad.json" --db "$B" 2>&1)
	rc=$?
	note "$1: exit $rc: $err"
	[ $rc = 2 ] && [ "$(wc -l <<<"$err")" = 1 ] || fail "$1: exit $rc: $err"
	[ "$(count)" = "$before" ] || fail "$1: the store changed: $(count), was $before"
}
# fresh UUIDs, so that only the bad part stops them
fresh='.runs |= map(.run.uuid = "" | .run.label = "fresh")'
bad "an unknown column" "$fresh"' | .runs[1].run["x\"); DROP TABLE runs; --"] = 1'
bad "an unknown trial column" "$fresh"' | .runs[2].trials[0].bogus = 1'
bad "an object as a value" "$fresh"' | .runs[0].run.label = {"a": 1}'
bad "a status the store refuses" "$fresh"' | .runs[2].run.status = "hacked"'
bad "a huge text" "$fresh"' | .runs[0].run.headline = ("x" * 70000)'
bad "another format" '.wirerate.export = 2'
bad "not an export" '{"runs": []}'
printf '{"wirerate": {"export": 1}, "runs": [' >"$D/cut.json"
expect_exit 2 "$WR" runs import "$D/cut.json" --db "$B"
{ cat "$D/e.json"; printf '\0{}'; } >"$D/tail.json"	# a document, then more
expect_exit 2 "$WR" runs import "$D/tail.json" --db "$B"
expect_exit 2 "$WR" runs import "$D/none.json" --db "$B"
expect_exit 2 "$WR" runs import "$D" --db "$B"
expect_exit 2 "$WR" runs import --db "$B"
expect_exit 2 "$WR" runs export 99 --db "$A"
expect_exit 2 "$WR" runs export x --db "$A"
expect_exit 2 "$WR" runs show 1 2 --db "$A"
expect_exit 2 "$WR" runs show --label x 1 --db "$A"
[ "$(count)" = "$before" ] || fail "the store changed: $(count)"
# Text from a file is shown escaped: an escape sequence in a label
jq -c "$fresh"' | .runs |= [.[0] | .run.label = "\u001b[31mred"]' "$D/e.json" >"$D/esc.json"
"$WR" runs import "$D/esc.json" --db "$B" >/dev/null || fail "import of an escaped label"
! "$WR" runs --db "$B" | grep -q $'\e' || fail "runs printed an escape byte"
! "$WR" runs show 4 --db "$B" | grep -q $'\e' || fail "runs show printed an escape byte"
echo ok
