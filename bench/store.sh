#!/usr/bin/env bash
# Benchmark: the time to store an rfc2544 run (7 sizes, 98 trials, each
# committed as wirerate commits it) on a SQLite file and on a PostgreSQL
# server, side by side in one run, as the median of RUNS runs each and
# their ratio. The server is a throwaway cluster from Debian's postgresql
# package on a Unix socket (tests/netns/lib_pg.sh); the file is in /tmp.
# Both with their default durability: SQLite synchronous=FULL in WAL,
# PostgreSQL fsync on with synchronous_commit on.
#
#   bash bench/store.sh [BUILD_DIR] [RUNS]     (as root: the server runs as 'postgres')
set -euo pipefail
B=${1:-build}
RUNS=${2:-5}
bin=$B/bench/store_bench
[ -x "$bin" ] || { echo "bench: $bin missing: build with 'ninja -C $B'" >&2; exit 2; }
skip() { echo "bench store: skipped: $*" >&2; exit 0; }
fail() { echo "bench store: $*" >&2; exit 1; }
D=$(mktemp -d)
trap 'pg_down; rm -rf "$D"' EXIT
. "$(dirname "$0")/../tests/netns/lib_pg.sh"
pg_up
lite=$("$bin" "$D/results.db" "$RUNS")
pg=$("$bin" "$PGDB" "$RUNS")
echo "$lite"
echo "$pg"
python3 - "$lite" "$pg" <<'PY'
import json, sys
l, p = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print("store an rfc2544 run (%d trials, %d commits): SQLite %.0f ms (%.2f ms a commit), PostgreSQL %.0f ms (%.2f ms a commit); "
      "PostgreSQL/SQLite %.2f" % (l["trials"], l["trials"] + 9, l["median_ms"], l["per_trial_ms"], p["median_ms"],
                                 p["per_trial_ms"], p["median_ms"] / l["median_ms"]))
PY
