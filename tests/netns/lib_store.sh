# The store a test writes: a SQLite file in $D by default, or with
# WR_STORE=pg a database on a throwaway PostgreSQL cluster (lib_pg.sh), so
# that one store test runs on both backends. Source it after lib.sh, once
# $D exists; it sets DB (the --db value) and defines dbq SQL (one query's
# rows, unaligned), db_whole (prints "ok" when the store is consistent)
# and store_down (for the EXIT trap).
if [ "${WR_STORE:-sqlite}" = pg ]; then
	. "$(dirname "${BASH_SOURCE[0]}")/lib_pg.sh"
	pg_up
	DB=$PGDB
	dbq() { pg_psql "$1"; }
	# The server keeps its pages whole; what a killed writer could break
	# is the rows: no trial without its run, no CPU row without its trial.
	db_whole() {
		[ "$(pg_psql "SELECT (SELECT count(*) FROM trials t WHERE NOT EXISTS (SELECT 1 FROM runs r WHERE r.id = t.run_id))
			+ (SELECT count(*) FROM trial_cpu c WHERE NOT EXISTS (SELECT 1 FROM trials t WHERE t.id = c.trial_id))")" = 0 ] &&
			echo ok
	}
	store_down() { pg_down; }
else
	command -v sqlite3 >/dev/null || skip "no sqlite3 shell (scripts/deps.sh installs it)"
	DB=$D/results.db
	dbq() { sqlite3 "$DB" "$1"; }
	db_whole() { sqlite3 "$DB" "PRAGMA integrity_check"; }
	store_down() { :; }
fi
