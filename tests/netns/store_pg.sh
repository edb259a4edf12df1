# The PostgreSQL store, beyond the store tests that run on it as well
# (store_kill_pg, store_rfc2544_pg), on a throwaway cluster:
# - a run is seen by another session trial by trial, and "running" while
#   its writer's session holds the run's lock, even with a pid and boot id
#   of another tester; interrupted when the writer is gone;
# - every run records the tester and the DUT it came from;
# - runs sync both ways with byte-equal reports, and report --trend over
#   a SQLite file and the server at once, a synced run counted once;
# - a matrix stores its runs there;
# - credentials only from libpq's own files: a password in the URI is
#   refused, a wrong one and an unreachable or silent server give one
#   line and exit 2 within the connect timeout;
# - a database of another program, a trigger or a rule in ours and a newer
#   schema are refused and left as they were; an older one is migrated
#   by a writer (runs upgrade) and refused by a reader.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
D=$(mktemp -d); trap 'pg_down; rm -rf "$D"; cleanup' EXIT
. "$(dirname "$0")/lib_pg.sh"
pg_up
"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up"
Q="--prefix $P --quick --trial-time 1s --settle 0.1s --learn-wait 0.1s --drain 0.3s --max-load 40kpps --sizes 64,128"
T="--prefix $P --rate 5kpps --duration 0.5s --learn-wait 0.1s --drain 0.2s"

# Trial by trial, from another session, while the search runs. The run is
# made to look like another tester's (pid 1, another boot): by pid and boot
# id it would be dead; its writer's lock says it is not.
"$WR" rfc2544 throughput $Q --db "$PGDB" --label live >/dev/null 2>&1 &
pid=$!
counts=() states=()
for _ in $(seq 150); do	# until 3 trials are in (at most 30 s)
	j=$("$WR" runs --db "$PGDB" --json --label live 2>/dev/null) || j='{}'
	n=$(jq -r '.runs[0].trials // 0' <<<"$j")
	if [ "$n" -ge 1 ] && [ "${#counts[@]}" = 0 ]; then
		pg_psql "UPDATE runs SET pid = 1, boot_id = 'another-tester' WHERE label = 'live'"
	fi
	if [ "$n" -ge 1 ]; then
		counts+=("$n")
		states+=("$(jq -r '.runs[0].status' <<<"$j")")
	fi
	[ "$n" -ge 3 ] && break
	sleep 0.2
done
note "seen while it ran: trials ${counts[*]}, status ${states[*]}"
[ "${#counts[@]}" -ge 2 ] || fail "the run was not seen trial by trial: ${counts[*]}"
for s in "${states[@]}"; do [ "$s" = running ] || fail "a running run shown as $s"; done
[ "${counts[0]}" -lt "${counts[-1]}" ] || fail "the trial count did not grow: ${counts[*]}"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ "$("$WR" runs --db "$PGDB" --json --label live | jq -r '.runs[0].status')" = interrupted ] ||
	fail "a killed writer's run is not shown interrupted"

# Where each run came from.
"$WR" trial $T --db "$PGDB" --label tr >/dev/null || fail "trial into PostgreSQL"
"$WR" trial $T --db "$PGDB" --label tr >/dev/null || fail "second trial"
r=$("$WR" runs --db "$PGDB" --json --label tr | jq -c '.runs[0] | {tester, dut, uuid}')
host=$(hostname)
[ "$(jq -r --arg h "$host" --arg d "lab $P" '.tester == $h and .dut == $d and (.uuid | test("^[0-9a-f-]{36}$"))' <<<"$r")" = true ] ||
	fail "tester and DUT of a run: $r"

# runs sync: runs from the server into a file and back; the reports agree.
out=$("$WR" runs sync "$PGDB" --db "$D/a.db" --label tr) || fail "sync from PostgreSQL: $out"
grep -q "2 run(s) copied" <<<"$out" || fail "sync said: $out"
# the same runs have other ids in the two stores
same() {
	sed -e "s#$D/a.db#STORE#g; s#$PGDB#STORE#g; s#\"time\":[0-9]*#\"time\":T#" \
	    -e 's/#[0-9][0-9]*/#N/g; s/against run [0-9]*/against run N/; s/"\(id\|run_id\|ref\)":"\?[0-9]*"\?/"\1":N/g; s/^[0-9][0-9]*,/N,/'
}
ids=$("$WR" runs --db "$PGDB" --json --label tr | jq -r '[.runs[].id] | join(" ")')
for fmt in "" --json --csv; do
	diff <("$WR" report $ids $fmt --db "$PGDB" | same) <("$WR" report 1 2 $fmt --db "$D/a.db" | same) >"$D/diff" ||
		fail "report ${fmt:-text} differs between the stores: $(head -20 "$D/diff")"
done
[ "$("$WR" runs sync "$D/a.db" --db "$PGDB" --json | jq -c '[.imported, .skipped]')" = "[0,2]" ] ||
	fail "sync back copied runs that were there"
expect_exit 2 "$WR" runs sync "$PGDB" --db "$PGDB"

# report --trend over the file and the server: two more trials in the
# file, the two synced ones once.
"$WR" trial $T --db "$D/a.db" --label tr >/dev/null || fail "trial into the file"
"$WR" trial $T --db "$D/a.db" --label tr >/dev/null || fail "trial into the file"
tj=$("$WR" report --trend --label tr --db "$PGDB" --db "$D/a.db" --json) || fail "trend over two stores"
note "trend over two stores: $(jq -c '[.points[].ref]' <<<"$tj")"
refs=$(jq -r '[.points[].ref | split(":")[0]] | join(" ")' <<<"$tj")
[ "$refs" = "1 1 2 2" ] ||
	fail "trend points: $(jq -c '[.points[] | {ref, when}]' <<<"$tj")"
/usr/bin/python3 "$(dirname "$0")/../jsoncheck.py" "$(dirname "$0")/../../docs/json/report-trend.schema.json" <(echo "$tj") ||
	fail "trend JSON against its schema"

# A matrix stores each configuration's run on the server, and its drift
# check's (the first configuration again).
"$WR" matrix --prefix "$P" --rules 0,1 --tag pgmatrix --db "$PGDB" -- trial --rate 5kpps --duration 0.5s \
	--learn-wait 0.1s --drain 0.2s >/dev/null || fail "matrix into PostgreSQL"
[ "$("$WR" runs --db "$PGDB" --json --tag pgmatrix | jq '[.runs[] | select(.status == "complete")] | length')" = 3 ] ||
	fail "matrix runs"
"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up after the matrix"

# Credentials from libpq's files only.
printf '127.0.0.1:%s:*:wr:%s\n' "$PG_PORT" "$(cat "$PG_DIR/pw")" >"$D/pgpass"
printf '127.0.0.1:%s:*:wr:wrong\n' "$PG_PORT" >"$D/badpass"
chmod 600 "$D/pgpass" "$D/badpass"
PGPASSFILE=$D/pgpass "$WR" runs --db "$PG_TCP" --label tr >/dev/null || fail "the password from PGPASSFILE"
err=$(PGPASSFILE=$D/badpass "$WR" runs --db "$PG_TCP" 2>&1 >/dev/null); rc=$?
note "wrong password: $err"
[ "$rc" = 2 ] && grep -q "password authentication failed" <<<"$err" && [ "$(wc -l <<<"$err")" = 1 ] ||
	fail "a wrong password: exit $rc, '$err'"
err=$("$WR" trial $T --db "postgresql://wr:$(cat "$PG_DIR/pw")@127.0.0.1:$PG_PORT/wirerate" 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && grep -q "pgpass" <<<"$err" || fail "a password in the URI: exit $rc, '$err'"
pw=$(cat "$PG_DIR/pw")
grep -qv "$pw" <<<"$err" || fail "the error shows the password"
[ "$(pg_psql "SELECT count(*) FROM env WHERE value LIKE '%$pw%'")" = 0 ] || fail "a password in the store"

# Unreachable: nothing listens, refused at once; or a listener that never
# answers, which the connect timeout ends (2 s here).
t0=$(date +%s%N)
expect_exit 2 "$WR" runs --db "postgresql://wr@127.0.0.1:1/wirerate"
python3 -c 'import socket, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
print(s.getsockname()[1], flush=True); time.sleep(20)' >"$D/silent" &
silent=$!
for _ in $(seq 50); do [ -s "$D/silent" ] && break; sleep 0.1; done
t0=$(date +%s%N)
err=$(PGCONNECT_TIMEOUT=2 PGPASSFILE=$D/pgpass "$WR" report 1 --db "postgresql://wr@127.0.0.1:$(cat "$D/silent")/wirerate" 2>&1); rc=$?
ms=$((($(date +%s%N) - t0) / 1000000))
kill "$silent" 2>/dev/null
note "a silent server: exit $rc after $ms ms: $err"
# 2 s of timeout; the bound leaves 4 s for a held vCPU
[ "$rc" = 2 ] && [ "$ms" -lt 6000 ] && grep -q "timeout" <<<"$err" || fail "a silent server: exit $rc after $ms ms"

# Another program's database, refused and untouched.
pg_psql "CREATE DATABASE other" >/dev/null
OTHER="postgresql:///other?host=$PG_DIR&port=$PG_PORT&user=wr"
psql -XAtq "$OTHER" -c "CREATE TABLE accounts (id int, name text); INSERT INTO accounts VALUES (1, 'x')" >/dev/null
err=$("$WR" trial $T --db "$OTHER" 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && grep -q "another program" <<<"$err" || fail "another program's database: exit $rc, '$err'"
expect_exit 2 "$WR" runs --db "$OTHER"
[ "$(psql -XAtq "$OTHER" -c "SELECT string_agg(tablename, ',') FROM pg_tables WHERE schemaname = 'public'")" = accounts ] ||
	fail "another program's database was changed"

# A trigger, a rule, a newer schema: a store of ours, made by a sync.
pg_psql "CREATE DATABASE hostile" >/dev/null
H="postgresql:///hostile?host=$PG_DIR&port=$PG_PORT&user=wr"
"$WR" runs sync "$D/a.db" --db "$H" >/dev/null || fail "sync into a new database"
psql -XAtq "$H" -c "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS 'BEGIN RETURN NEW; END';
	CREATE TRIGGER t BEFORE INSERT ON trials FOR EACH ROW EXECUTE FUNCTION f()" >/dev/null
err=$("$WR" runs --db "$H" 2>&1 >/dev/null); rc=$?
[ "$rc" = 2 ] && grep -q "trigger 't'" <<<"$err" || fail "a trigger: exit $rc, '$err'"
expect_exit 2 "$WR" trial $T --db "$H"
psql -XAtq "$H" -c "DROP TRIGGER t ON trials; CREATE RULE r AS ON INSERT TO tags DO INSTEAD NOTHING" >/dev/null
expect_exit 2 "$WR" report 1 --db "$H"
# An older schema (version 5: before the trials' profiles, the streams'
# figures and RFC 9971's outputs), as a store made by an older release would be:
# readers ask for the upgrade, a writer makes it, once.
psql -XAtq "$H" -c "DROP RULE r ON tags; DROP TABLE trial_profile; DROP TABLE stream_trial;
	DROP TABLE trial_output; DROP TABLE goal_results;
	ALTER TABLE trial_cpu DROP COLUMN profile_samples, DROP COLUMN profile_hz, DROP COLUMN profile_busy_pct,
	DROP COLUMN profile_softirq_pct; UPDATE wirerate_meta SET value = '5' WHERE key = 'schema_version'" >/dev/null
err=$("$WR" runs --db "$H" 2>&1 >/dev/null); rc=$?
[ "$rc" = 1 ] && grep -q "runs upgrade" <<<"$err" || fail "a reader of an older schema: exit $rc, '$err'"
"$WR" runs upgrade --db "$H" >/dev/null || fail "runs upgrade on PostgreSQL"
[ "$(psql -XAtq "$H" -c "SELECT value FROM wirerate_meta WHERE key = 'schema_version'")" = 8 ] || fail "not migrated to 8"
[ "$("$WR" runs --db "$H" --json | jq '.runs | length')" = 4 ] || fail "runs lost in the migration (4 synced)"
psql -XAtq "$H" -c "UPDATE wirerate_meta SET value = '99' WHERE key = 'schema_version'" >/dev/null
err=$("$WR" runs --db "$H" 2>&1 >/dev/null); rc=$?
[ "$rc" = 1 ] && grep -q "newer than this wirerate" <<<"$err" || fail "a newer schema: exit $rc, '$err'"
echo ok
