#!/usr/bin/env bash
# The whole suite under a fixed light background load: one process that
# keeps a CPU busy for LOAD_FRACTION (default 0.2) of every 10 ms, not
# pinned, so the scheduler puts it wherever the tests are. The suite must
# pass as it does on a quiet host, and take at most twice as long.
#   bash tests/loaded.sh            (make check-loaded)
# Environment: WR_BUILD (build dir), LOAD_FRACTION, and what tests/run
# takes (WR_TESTS ...). Prints the suite's own lines, then its time.
set -u
cd "$(dirname "$0")/.." || exit 1
build=${WR_BUILD:-build}
frac=${LOAD_FRACTION:-0.2}
busy=$build/tests/busyload
[ -x "$busy" ] || { echo "tests/loaded.sh: no $busy: build first (make)" >&2; exit 2; }

# Bounded like every load here: an hour at most, and stopped on any exit.
"$busy" --fraction "$frac" --period 10ms --duration 3600s >/dev/null &
bl=$!
trap 'kill "$bl" 2>/dev/null; wait "$bl" 2>/dev/null' EXIT
echo "loaded: a background process busy ${frac} of each 10 ms (pid $bl) for the whole run"
start=$SECONDS
bash tests/run
rc=$?
echo "loaded: the suite took $((SECONDS - start)) s under the load (exit $rc)"
exit $rc
