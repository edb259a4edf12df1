# A run killed with SIGKILL mid-search keeps every trial that finished:
# the file opens, integrity_check is ok, 'runs' shows the run interrupted;
# Ctrl-C marks it interrupted in the file; two runs at once both land.
# Bad input: an unknown run, a bad threshold, a text file or an unwritable
# path as the database. With WR_STORE=pg (store_kill_pg.sh) the same on a
# PostgreSQL store, where a killed run's connection drops its run lock.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
D=$(mktemp -d); trap 'store_down; rm -rf "$D"; cleanup' EXIT
. "$(dirname "$0")/lib_store.sh"
"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up"
Q="--prefix $P --quick --trial-time 1s --settle 0.1s --learn-wait 0.1s --drain 0.3s --max-load 40kpps --sizes 64,128,256"

# SIGKILL: no chance to clean up.
"$WR" rfc2544 throughput $Q --db "$DB" --label killed >/dev/null 2>&1 &
pid=$!
for _ in $(seq 50); do	# until at least three trials are in the file (at most 10 s)
	n=$(dbq "SELECT count(*) FROM trials" 2>/dev/null || echo 0)
	[ "${n:-0}" -ge 3 ] && break
	sleep 0.2
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
before=$n
[ "$(db_whole)" = ok ] || fail "integrity_check after SIGKILL"
n=$(dbq "SELECT count(*) FROM trials t JOIN runs r ON r.id = t.run_id WHERE r.label = 'killed'")
note "SIGKILL: $n trials kept (at least $before were seen before the kill)"
[ "$n" -ge "$before" ] && [ "$n" -ge 3 ] || fail "trials lost: $n, saw $before"
[ "$(dbq "SELECT status FROM runs WHERE label = 'killed'")" = running ] || fail "status in the file"
s=$("$WR" runs --db "$DB" --json --label killed | jq -r '.runs[0].status')
[ "$s" = interrupted ] || fail "a killed run shows as '$s', want interrupted"
# Every stored trial is whole: counts and CPU figures of a finished trial.
[ "$(dbq "SELECT count(*) FROM trials WHERE tx = 0 OR duration_s <= 0")" = 0 ] || fail "a half trial"

# Ctrl-C: stops, stores what finished, marks the run.
"$WR" rfc2544 throughput $Q --db "$DB" --label stopped >/dev/null 2>&1 &
pid=$!
sleep 3
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" = 130 ] || fail "exit $rc after SIGINT"
[ "$(dbq "SELECT status FROM runs WHERE label = 'stopped'")" = interrupted ] || fail "Ctrl-C not marked in the file"
[ "$(dbq "SELECT count(*) FROM trials t JOIN runs r ON r.id = t.run_id WHERE r.label = 'stopped'")" -ge 1 ] || fail "no trial kept after Ctrl-C"

# Two writers at once: a trial each, on labs of their own (two trials on
# one lab's ports would be a test of the ports, not of the store), one file.
P2="t$$b-"
LABS+=("$P2")
"$WR" lab up --prefix "$P2" --shape 20kpps >/dev/null || fail "second lab up"
"$WR" trial --prefix "$P" --rate 5kpps --duration 1s --drain 0.2s --learn-wait 0.1s --db "$DB" --label twin >/dev/null &
a=$!
"$WR" trial --prefix "$P2" --rate 5kpps --duration 1s --drain 0.2s --learn-wait 0.1s --db "$DB" --label twin >/dev/null &
b=$!
wait "$a" || fail "first concurrent writer failed"
wait "$b" || fail "second concurrent writer failed"
[ "$(dbq "SELECT count(*) FROM runs WHERE label = 'twin' AND status = 'complete'")" = 2 ] || fail "concurrent runs"
[ "$(db_whole)" = ok ] || fail "integrity after concurrent writers"
"$WR" trial --prefix "$P" --rate 5kpps --duration 0.2s --drain 0.1s --learn-wait 0.1s --db "$DB" --no-store --label none >/dev/null || fail "--no-store"
[ "$(dbq "SELECT count(*) FROM runs WHERE label = 'none'")" = 0 ] || fail "--no-store stored"

[ "${WR_STORE:-sqlite}" = pg ] && { echo ok; exit 0; }	# the file's bad input below

# Bad input.
echo "not a database" >"$D/notes.txt"
cp "$D/notes.txt" "$D/notes.orig"
expect_exit 2 "$WR" report 999 --db "$DB"
expect_exit 2 "$WR" report nosuchlabel --db "$DB"
expect_exit 2 "$WR" report killed --db "$DB" --fail-on-regression x
expect_exit 2 "$WR" report killed --db "$DB" --fail-on-regression -5
expect_exit 2 "$WR" report --db "$DB"
expect_exit 2 "$WR" report 1 --db "$D/notes.txt"
expect_exit 2 "$WR" runs --db "$D/notes.txt"
expect_exit 2 "$WR" runs --db "$DB" --since yesterday
# nothing stored yet is an empty list, not an error (and creates nothing)
[ "$("$WR" runs --db "$D/none.db" --json | jq -c .runs)" = "[]" ] || fail "runs on a missing database"
[ ! -e "$D/none.db" ] || fail "runs created a database"
expect_exit 2 "$WR" runs rm x --db "$DB"
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 0.1s --db "$D/notes.txt"
expect_exit 2 "$WR" rfc2544 $Q --repeat 0 --db "$DB"
expect_exit 2 "$WR" rfc2544 $Q --db "$D/notes.txt"
cmp -s "$D/notes.txt" "$D/notes.orig" || fail "the text file was modified"
# a directory that does not exist: bad input; one where the host makes no
# file: the host's failure
expect_exit 2 "$WR" rfc2544 $Q --db /proc/wirerate/results.db
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 0.1s --db /proc/wirerate/results.db
expect_exit 1 "$WR" rfc2544 $Q --db /proc/results.db
expect_exit 1 "$WR" trial --prefix "$P" --rate 1kpps --duration 0.1s --db /proc/results.db
echo ok
