#!/usr/bin/env bash
# Benchmark: total trial time of wirerate's MLRsearch-style throughput
# search against plain RFC 2544 bisection, on simulated DUTs (sharp, soft,
# noisy). No root, no traffic: the trials are computed, so it takes well
# under a second.
#
#   bash bench/search.sh [BUILD_DIR] [-v]        (default BUILD_DIR: build)
set -euo pipefail
B=${1:-build}
shift || true
bin=$B/bench/search_bench
if [ ! -x "$bin" ]; then
	echo "bench: $bin missing: build with 'ninja -C $B' (meson.build needs subdir('bench'))" >&2
	exit 2
fi
exec "$bin" "$@"
