# A throwaway PostgreSQL cluster from Debian's postgresql package, for the
# store tests: initdb and pg_ctl in a temporary directory, run as the
# package's unprivileged user 'postgres', listening on a Unix socket in
# that directory and on a loopback port. Source it after lib.sh (or
# common.sh); pg_up sets PGDB (a --db URI on the socket, trusted), PG_TCP
# (a URI on the loopback port, where a password is asked) and PG_DIR.
# pg_down stops the cluster and removes the directory; call it from the
# test's EXIT trap.
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] || fail "no PostgreSQL server (scripts/deps.sh installs postgresql)"
command -v psql >/dev/null || fail "no psql (postgresql-client)"
id postgres >/dev/null 2>&1 || fail "no 'postgres' user to run the server as (the postgresql package makes it)"

pg_down() {
	[ -n "${PG_DIR:-}" ] || return 0
	runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PG_DIR/data" -m immediate -w stop >/dev/null 2>&1
	rm -rf "$PG_DIR"
	PG_DIR=
}

# pg_psql SQL: one statement's rows, unaligned, from the test database.
pg_psql() { psql -XAtq -v ON_ERROR_STOP=1 "$PGDB" -c "$1"; }

pg_up() {
	local port tries=0
	PG_DIR=$(mktemp -d /tmp/wr-pg.XXXXXX)
	chmod 755 "$PG_DIR"
	chown postgres "$PG_DIR"
	printf 'wr-secret-%s\n' "$$" >"$PG_DIR/pw"
	chown postgres "$PG_DIR/pw"
	runuser -u postgres -- "$PGBIN/initdb" -D "$PG_DIR/data" -U wr --pwfile="$PG_DIR/pw" -E UTF8 --locale=C \
		--auth-local=trust --auth-host=scram-sha-256 >"$PG_DIR/initdb.log" 2>&1 ||
		fail "initdb: $(tail -n 3 "$PG_DIR/initdb.log")"
	# A free loopback port: try a few at random (one taken fails at once).
	while :; do
		port=$((20000 + RANDOM % 20000))
		runuser -u postgres -- "$PGBIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
			-o "-k $PG_DIR -p $port -h 127.0.0.1" start >/dev/null 2>&1 && break
		tries=$((tries + 1))
		[ "$tries" -lt 5 ] || fail "the PostgreSQL server did not start: $(tail -n 3 "$PG_DIR/server.log")"
	done
	PG_PORT=$port
	PGDB="postgresql:///wirerate?host=$PG_DIR&port=$port&user=wr"
	PG_TCP="postgresql://wr@127.0.0.1:$port/wirerate"
	psql -XAtq "postgresql:///postgres?host=$PG_DIR&port=$port&user=wr" -c "CREATE DATABASE wirerate" >/dev/null ||
		fail "createdb"
}
