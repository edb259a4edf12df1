# A results file that someone else wrote: a start time with no date, a
# planted trigger, an older schema, labels with terminal escapes and bytes
# that are not UTF-8. runs and report never crash, never write, never let
# the file's SQL run, and print nothing that drives the terminal. No
# namespaces: common.sh, not lib.sh. No timing is involved.
. "$(dirname "$0")/../common.sh"

command -v sqlite3 >/dev/null || fail "no sqlite3 shell (scripts/deps.sh installs it)"
command -v jq >/dev/null || fail "no jq (scripts/deps.sh installs it)"
command -v sha256sum >/dev/null || fail "no sha256sum (coreutils)"
D=$(mktemp -d /tmp/wr-hostile.XXXXXX)
trap 'rm -rf "$D"' EXIT
export WIRERATE_DB=$D/unused.db	# every command below names its --db

# new_store FILE: an empty file given wirerate's schema by the one 'runs'
# command that writes.
new_store() {
	: >"$1"
	"$WR" runs upgrade --db "$1" >/dev/null || fail "runs upgrade on an empty file"
}
# exit_of CMD...: its exit status, stdout and stderr dropped.
exit_of() { "$@" >/dev/null 2>&1; echo $?; }

# 1. A start time whose year does not fit struct tm: localtime_r fails.
# The gate still answers 3 (regression) or 0, never a crash.
DB=$D/time.db
new_store "$DB"
sqlite3 "$DB" "INSERT INTO runs (id, started, test, label, status) VALUES
	(1, 9000000000000000000, 'rfc2544 throughput', 'far', 'complete'),
	(2, 1700000000, 'rfc2544 throughput', 'now', 'complete'),
	(3, -9000000000000000000, 'rfc2544 throughput', 'past', 'complete');
	INSERT INTO results (run_id, size, repeat, ndr_lower, search_done, search_trials, width_pps) VALUES
	(1, 64, 0, 1000, 1, 5, 10), (2, 64, 0, 500, 1, 5, 10), (3, 64, 0, 1000, 1, 5, 10);" ||
	fail "sqlite3: planting the times"
out=$("$WR" runs --db "$DB") || fail "runs with started = 9e18 exited $?"
printf '%s\n' "$out" | grep -q '^ *1  ?  ' || fail "runs: no '?' for the time out of range: $out"
# (run 3, before 1970, is not listed: the listing starts at --since 0)
for id in 1 3; do
	out=$("$WR" runs show "$id" --db "$DB") || fail "runs show $id with its start time out of range exited $?"
	printf '%s\n' "$out" | grep -q '^  started    ?$' || fail "runs show $id: no '?' for the time: $out"
done
t=$("$WR" runs --db "$DB" --json | jq -c '[.runs[] | [.id, (.time | type)]]')
[ "$t" = '[[2,"string"],[1,"null"]]' ] ||
	fail "runs --json: the times are $t"
"$WR" report 1 2 3 --db "$DB" >"$D/out" || fail "report with started = 9e18 exited $?"
grep -q 'far  *rfc2544 throughput, ?, ' "$D/out" || fail "report: no '?' for the time: $(cat "$D/out")"
[ "$("$WR" report 1 2 --db "$DB" --json | jq -c '[.runs[].when == null]')" = '[true,false]' ] ||
	fail "report --json: when is not null for the time out of range"
"$WR" report 1 2 --db "$DB" --csv | grep -q '^1,far,,' || fail "report --csv: the time out of range is not empty"
rc=$(exit_of "$WR" report 1 2 --db "$DB" --fail-on-regression 5)
[ "$rc" = 3 ] || fail "report 1 2 --fail-on-regression 5 exited $rc, want 3 (run 2 is 50% worse)"
rc=$(exit_of "$WR" report 1 3 --db "$DB" --fail-on-regression 5)
[ "$rc" = 0 ] || fail "report 1 3 --fail-on-regression 5 exited $rc, want 0"

# 2. A trigger planted in a store of ours: every command refuses the file
# (bad input, exit 2, one line naming it) and the trigger never fires.
DB=$D/trigger.db
new_store "$DB"
sqlite3 "$DB" "INSERT INTO runs (id, started, test, label, status) VALUES (1, 1700000000, 'trial', 'a', 'complete');
	CREATE TABLE spy (what TEXT);
	CREATE TRIGGER spy_rm BEFORE DELETE ON runs BEGIN INSERT INTO spy VALUES ('deleted ' || old.id); END;
	CREATE TRIGGER spy_up AFTER UPDATE ON runs BEGIN INSERT INTO spy VALUES ('updated'); END;
	PRAGMA journal_mode = DELETE;" >/dev/null || fail "sqlite3: planting the trigger"
sum=$(sha256sum <"$DB")
expect_exit 2 "$WR" runs --db "$DB"
expect_exit 2 "$WR" runs rm 1 --db "$DB"
expect_exit 2 "$WR" report 1 --db "$DB"
expect_exit 2 "$WR" report 1 --db "$DB" --fail-on-regression 5
expect_exit 2 "$WR" runs upgrade --db "$DB"
err=$("$WR" runs rm 1 --db "$DB" 2>&1)
case "$err" in *"$DB"*"'spy'"*) ;; *) fail "runs rm on a planted file: the error does not name it: $err" ;; esac
[ "$(sqlite3 "$DB" "SELECT count(*) FROM spy")" = 0 ] || fail "the planted trigger fired: $(sqlite3 "$DB" "SELECT * FROM spy")"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs")" = 1 ] || fail "runs rm deleted from a refused file"
[ "$(sha256sum <"$DB")" = "$sum" ] || fail "a refused file was changed"
# An index of ours made again with the same name but not unique (two runs
# could then share a UUID) is refused the same way.
DB=$D/index.db
new_store "$DB"
sqlite3 "$DB" "DROP INDEX runs_uuid; CREATE INDEX runs_uuid ON runs(uuid);" || fail "sqlite3: remaking runs_uuid"
expect_exit 2 "$WR" runs --db "$DB"
case "$("$WR" runs --db "$DB" 2>&1)" in *"index 'runs_uuid'"*) ;; *) fail "runs on a non-unique runs_uuid: no word of it" ;; esac
sqlite3 "$DB" "DROP INDEX runs_uuid; CREATE UNIQUE INDEX runs_uuid ON runs(uuid, label);" || fail "sqlite3: remaking runs_uuid"
expect_exit 2 "$WR" runs --db "$DB"
sqlite3 "$DB" "DROP INDEX runs_uuid; CREATE UNIQUE INDEX runs_uuid ON runs(uuid) WHERE uuid = 'x';" ||
	fail "sqlite3: remaking runs_uuid"
expect_exit 2 "$WR" runs --db "$DB"
# A view is refused the same way.
DB=$D/view.db
new_store "$DB"
sqlite3 "$DB" "CREATE VIEW v AS SELECT * FROM runs" || fail "sqlite3: planting the view"
expect_exit 2 "$WR" runs --db "$DB"

# 3. An older schema (version 1, as wirerate wrote before tags and
# per-size results; made here with the sqlite3 shell as tests/unit/test_db.c
# makes it with db_schema_v1): runs and report leave the file as it is,
# make no -wal, and say how to upgrade; 'runs upgrade' does it.
DB=$D/v1.db
sqlite3 "$DB" "CREATE TABLE runs (id INTEGER PRIMARY KEY, started INTEGER NOT NULL, test TEXT NOT NULL,
		sizes TEXT NOT NULL DEFAULT '', config TEXT NOT NULL DEFAULT '', status TEXT NOT NULL DEFAULT 'running');
	CREATE TABLE trials (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
		size INTEGER NOT NULL, test TEXT NOT NULL, load REAL NOT NULL, duration_s REAL NOT NULL,
		tx INTEGER NOT NULL, rx INTEGER NOT NULL, tester_limited INTEGER NOT NULL DEFAULT 0,
		cpu_busy_pct REAL, ns_per_frame REAL);
	CREATE INDEX trials_run ON trials(run_id);
	PRAGMA application_id = $((0x57527274)); PRAGMA user_version = 1;
	INSERT INTO runs (id, started, test, sizes, status) VALUES (7, 1700000000, 'rfc2544 throughput', '64', 'complete');
	INSERT INTO trials (run_id, size, test, load, duration_s, tx, rx) VALUES (7, 64, 't', 30000, 2, 60000, 60000);" ||
	fail "sqlite3: making a version 1 file"
sum=$(sha256sum <"$DB")
expect_exit 1 "$WR" runs --db "$DB"
expect_exit 1 "$WR" runs --db "$DB" --json
expect_exit 1 "$WR" report 7 --db "$DB"
expect_exit 1 "$WR" report 7 --db "$DB" --fail-on-regression 5
err=$("$WR" runs --db "$DB" 2>&1)
case "$err" in *"schema version 1"*"wirerate runs upgrade"*) ;; *) fail "runs on a version 1 file: $err" ;; esac
[ "$(sha256sum <"$DB")" = "$sum" ] || fail "runs or report changed a version 1 file"
[ "$(cd "$D" && ls v1.db*)" = v1.db ] || fail "runs or report made files beside a version 1 file: $(cd "$D" && ls v1.db*)"
[ "$(sqlite3 "$DB" "PRAGMA user_version")" = 1 ] || fail "the file was migrated"
"$WR" runs upgrade --db "$DB" | grep -q "upgraded from 1" || fail "runs upgrade on a version 1 file"
[ "$(sqlite3 "$DB" "PRAGMA user_version")" = 8 ] || fail "runs upgrade did not migrate"
[ "$("$WR" runs --db "$DB" --json | jq -c '[.runs[].id]')" = '[7]' ] || fail "runs after the upgrade"
[ "$("$WR" runs upgrade --db "$DB" --json | jq -c '[.schema_version, .was]')" = '[8,8]' ] ||
	fail "runs upgrade --json on a current file"
# An empty file is listed as nothing stored, and left empty.
: >"$D/empty.db"
[ "$("$WR" runs --db "$D/empty.db" --json | jq '.runs | length')" = 0 ] || fail "runs on an empty file"
[ ! -s "$D/empty.db" ] || fail "runs wrote into an empty file"

# 4. Labels, tags and config with terminal escapes, a newline, DEL and
# bytes that are not UTF-8 (\xff, an overlong '/', a surrogate, a cut
# sequence): text output has no raw ESC, \xff or other control byte; the
# JSON parses and holds U+FFFD where the bytes were not UTF-8.
DB=$D/esc.db
new_store "$DB"
label="X'1b5b324a1b5d303b70776e6564071b5b33316dff0ac0afeda0807fe29c'"	# ESC[2J ESC]0;pwned BEL ESC[31m \xff \n ...
sqlite3 "$DB" "INSERT INTO runs (id, started, test, label, config, status, headline) VALUES
	(1, 1700000000, 'trial', CAST($label AS TEXT), CAST(X'613d31201b5b3041ff' AS TEXT), 'complete',
	 CAST(X'4e4452201b5b313b3331ff' AS TEXT));
	INSERT INTO tags VALUES (1, CAST(X'7467ff1b' AS TEXT));
	INSERT INTO results (run_id, size, repeat, ndr_lower, search_done, search_trials, width_pps) VALUES
	(1, 64, 0, 1000, 1, 5, 10);" || fail "sqlite3: planting the label"
clean() { # FILE WHAT: no control byte but newline, and valid UTF-8
	! LC_ALL=C grep -q -P '[\x00-\x09\x0b-\x1f\x7f]' "$1" || fail "$2: a raw control byte: $(od -c "$1" | head -5)"
	iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1 || fail "$2: not valid UTF-8: $(od -c "$1" | head -5)"
}
"$WR" runs --db "$DB" >"$D/t1" || fail "runs on the escapes"
clean "$D/t1" "runs"
grep -q '\\x1b\[2J\\x1b\]0;pwned\\x07' "$D/t1" || fail "runs: the escape is not shown as \\x1b: $(cat "$D/t1")"
grep -q '\\xff\\x0a' "$D/t1" || fail "runs: \\xff and the newline not shown as \\xNN: $(cat "$D/t1")"
[ "$(wc -l <"$D/t1")" = 2 ] || fail "runs: the label's newline broke the table: $(cat "$D/t1")"
"$WR" report 1 --db "$DB" >"$D/t2" || fail "report on the escapes"
clean "$D/t2" "report"
"$WR" report 1 --db "$DB" --csv >"$D/t3" || fail "report --csv on the escapes"
clean "$D/t3" "report --csv"
"$WR" report "$(printf 'no\033[2Jsuch\377')" --db "$DB" 2>"$D/t4" >/dev/null
clean "$D/t4" "report's error naming a bad run"
"$WR" runs --db "$DB" --json >"$D/j1" || fail "runs --json on the escapes"
"$WR" report 1 --db "$DB" --json >"$D/j2" || fail "report --json on the escapes"
"$WR" runs show 1 --db "$DB" --json >"$D/j3" || fail "runs show --json on the escapes"
"$WR" runs export 1 --db "$DB" >"$D/j4" || fail "runs export on the escapes"
"$WR" runs show 1 --db "$DB" >"$D/t5" || fail "runs show on the escapes"
clean "$D/t5" "runs show"
for j in "$D/j1" "$D/j2" "$D/j3" "$D/j4"; do
	jq . "$j" >/dev/null || fail "$(basename "$j"): not JSON: $(od -c "$j" | head -5)"
	clean "$j" "$(basename "$j")"
done
l=$(jq -r '.runs[0].label' "$D/j1")
[ "$l" = "$(printf '\033[2J\033]0;pwned\a\033[31m\357\277\275\n\357\277\275\357\277\275\357\277\275\357\277\275\357\277\275\177\357\277\275\357\277\275')" ] ||
	fail "runs --json: the label decodes to $(printf '%s' "$l" | od -c | head -3)"
[ "$(jq -r '.runs[0].tags[0]' "$D/j1")" = "$(printf 'tg\357\277\275\033')" ] || fail "runs --json: the tag"
[ "$(jq -r '.runs[0].label' "$D/j2")" = "$l" ] || fail "report --json: the label differs from runs --json"
[ "$(jq -r '.runs[0].run.label' "$D/j3")" = "$l" ] || fail "runs show --json: the label differs from runs --json"
[ "$(jq -r '.runs[0].run.label' "$D/j4")" = "$l" ] || fail "runs export: the label differs from runs --json"


# 5. Import files that lie: a "uuid" that is a label, a text with a NUL
# in it, a run "running" for ever. The uuid and the NUL are refused (exit
# 2, one line, nothing stored); the running run is stored as interrupted,
# and a status the schema does not know is refused.
DB=$D/imp.db
new_store "$DB"
sqlite3 "$DB" "INSERT INTO runs (id, started, test, label, status) VALUES (1, 1700000000, 'trial', 'baseline', 'complete')" ||
	fail "sqlite3: the labelled run"
doc() { # RUN-OBJECT-FIELDS (JSON, merged into a plain run)
	printf '{"wirerate":{"export":1},"runs":[{"run":%s}]}' \
		"$(jq -c -n "{started:1700000000,test:\"trial\",label:\"x\",status:\"complete\"} + $1")"
}
doc '{uuid:"baseline"}' >"$D/i1.json"
expect_exit 2 "$WR" runs import "$D/i1.json" --db "$DB"
err=$("$WR" runs import "$D/i1.json" --db "$DB" 2>&1)
case "$err" in *"not a UUID"*) ;; *) fail "import of uuid 'baseline': $err" ;; esac
[ "$(echo "$err" | wc -l)" = 1 ] || fail "import of uuid 'baseline': more than one line: $err"
doc '{uuid:42}' >"$D/i2.json"
expect_exit 2 "$WR" runs import "$D/i2.json" --db "$DB"
printf '{"wirerate":{"export":1},"runs":[{"run":{"started":1,"test":"rfc2544\\u0000 forged","status":"complete"}}]}' >"$D/i3.json"
expect_exit 2 "$WR" runs import "$D/i3.json" --db "$DB"
case "$("$WR" runs import "$D/i3.json" --db "$DB" 2>&1)" in *"NUL"*) ;; *) fail "import of a NUL: no word of it" ;; esac
[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs")" = 1 ] || fail "a refused import stored a run"
[ "$("$WR" report baseline --db "$DB" --json | jq -c '[.runs[].id]')" = '[1]' ] || fail "report baseline is not run 1"
doc '{status:"running",pid:0,uuid:"0123abcd-0000-4000-8000-00000000beef"}' >"$D/i4.json"
"$WR" runs import "$D/i4.json" --db "$DB" >/dev/null || fail "import of a running run"
[ "$(sqlite3 "$DB" "SELECT status FROM runs WHERE uuid = '0123abcd-0000-4000-8000-00000000beef'")" = interrupted ] ||
	fail "an imported running run is stored as $(sqlite3 "$DB" "SELECT status FROM runs WHERE id > 1")"
[ "$("$WR" runs --db "$DB" --json | jq -r '.runs[] | select(.id != 1) | .status')" = interrupted ] ||
	fail "runs shows the imported running run as $("$WR" runs --db "$DB" --json | jq -c .runs)"
doc '{status:"pwned"}' >"$D/i5.json"
expect_exit 2 "$WR" runs import "$D/i5.json" --db "$DB"
[ "$(sqlite3 "$DB" "SELECT count(*) FROM runs")" = 2 ] || fail "an unknown status was stored"


# 6. An import file of 900 KB of {} (json-c: some 700 bytes an object, so
# 231 MB once parsed): refused on its bytes, exit 2, before the parser
# builds it. With GNU time, its peak RSS is under 64 MB (9.7 MB measured;
# the bound is generous for a slow libc, not a timing).
python3 -c 'import sys; sys.stdout.write("{\"wirerate\":{\"export\":1},\"runs\":[" + ",".join(["{}"] * 300000) + "]}")' \
	>"$D/amp.json" || fail "python3: the {} file"
expect_exit 2 "$WR" runs import "$D/amp.json" --db "$DB"
case "$("$WR" runs import "$D/amp.json" --db "$DB" 2>&1)" in *"objects and arrays"*) ;; *) fail "import of {}: no reason" ;; esac
if [ -x /usr/bin/time ]; then
	rss=$(/usr/bin/time -f %M "$WR" runs import "$D/amp.json" --db "$DB" 2>&1 >/dev/null | tail -1)
	[ "$rss" -lt 65536 ] || fail "import of {}: peak RSS $rss kB"
fi
"$WR" runs export 1 --db "$DB" >"$D/real.json" || fail "runs export 1"
"$WR" runs import "$D/real.json" --db "$D/time.db" >/dev/null || fail "a real export no longer imports"

echo ok
