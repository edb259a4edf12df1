#!/usr/bin/env bash
# Build each libFuzzer target with clang and run it for a bounded time on a
# copy of its seed corpus: frame_parse (frames from the wire),
# stream_proto (the stream server's control lines, from the network),
# agent_proto (the DUT agent's messages, from another host),
# neigh_reply (ARP and ND answers on a tester port), runs_import
# (an export file from another tester, stored in a real SQLite store),
# kernel_image (a --kernel file's header), net_config (the selftests'
# net.config, whose values reach command lines) and ktap (points and
# run strings from a store or a peer, printed as KTAP).
# FUZZ_SECONDS (default 20) is split between the targets, at least 5 s
# each; as many targets build and run at once as the host has CPUs (each
# still gets its seconds of its own CPU). Exit 0: no crash; 77: skipped (clang or libFuzzer missing: on
# Debian, libFuzzer is in libclang-rt-14-dev); anything else: a crash or a
# failed build, the reproducer kept and its path printed.
set -u

cd "$(dirname "$0")/../.." || exit 1
CLANG=${CLANG:-clang}
TARGETS="frame_parse stream_proto agent_proto neigh_reply runs_import kernel_image net_config ktap"
per=$(( ${FUZZ_SECONDS:-20} / 8 ))
[ "$per" -ge 5 ] || per=5
FLAGS="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1 -I. -Isrc -D_GNU_SOURCE -Wall -Wextra"

if ! "$CLANG" --version >/dev/null 2>&1; then
	echo "fuzz: skipped: $CLANG not found (install clang)"
	exit 77
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/wr-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

cat >"$tmp/probe.c" <<'PROBE'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
PROBE
# shellcheck disable=SC2086
if ! "$CLANG" $FLAGS "$tmp/probe.c" -o "$tmp/probe" >"$tmp/probe.log" 2>&1; then
	echo "fuzz: skipped: clang cannot link a libFuzzer target (install libclang-rt-14-dev)"
	exit 77
fi

# fuzz_one NAME CORPUS SOURCES...: build, run, say; 0, or 1 on a crash or
# a failed build
fuzz_one() {
	name=$1 corpus=$2
	shift 2
	d="$tmp/$name"
	mkdir "$d" "$d/corpus" "$d/art"
	# shellcheck disable=SC2086
	if ! "$CLANG" $FLAGS "$@" -o "$d/fuzz" 2>"$d/build.log"; then
		cat "$d/build.log" >&2
		echo "fuzz $name: build failed" >&2
		return 1
	fi
	if [ -s "$d/build.log" ]; then
		cat "$d/build.log" >&2
		echo "fuzz $name: build warnings" >&2
		return 1
	fi
	cp "tests/fuzz/corpus/$corpus"/* "$d/corpus/"
	"$d/fuzz" -max_total_time="$per" -rss_limit_mb=1024 \
		-artifact_prefix="$d/art/" "$d/corpus" >"$d/run.log" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		keep=$(mktemp -d "${TMPDIR:-/tmp}/wr-fuzz-crash.XXXXXX")
		cp "$d"/art/* "$d/run.log" "$keep/" 2>/dev/null
		tail -n 40 "$d/run.log" >&2
		echo "fuzz $name: CRASH (exit $rc); reproducer and log in $keep" >&2
		return 1
	fi
	runs=$(sed -n 's/^Done \([0-9][0-9]*\) runs.*/\1/p' "$d/run.log" | tail -n 1)
	echo "fuzz $name: ${runs:-?} runs in ${per}s, no crash"
	return 0
}

one() {
	case $1 in
	frame_parse) fuzz_one frame_parse frame tests/fuzz/fuzz_frame.c src/core/frame.c ;;
	stream_proto) fuzz_one stream_proto stream tests/fuzz/fuzz_stream.c src/engine/stream_proto.c ;;
	agent_proto) fuzz_one agent_proto agent tests/fuzz/fuzz_agent.c src/dut/agent_proto.c src/dut/envcap_kv.c src/core/json_bound.c \
		src/core/dutsnap.c -ljson-c -lm ;;
	kernel_image) fuzz_one kernel_image kimage tests/fuzz/fuzz_kimage.c src/core/kimage.c ;;
	neigh_reply) fuzz_one neigh_reply neigh tests/fuzz/fuzz_neigh.c src/core/neigh.c ;;
	net_config) fuzz_one net_config topology tests/fuzz/fuzz_topology.c src/core/topology.c src/core/errmsg.c ;;
	ktap) fuzz_one ktap ktap tests/fuzz/fuzz_ktap.c src/render/ktap_print.c src/render/out.c src/os/timefmt.c \
		src/core/testpoint.c -ljson-c -lm ;;
	runs_import) fuzz_one runs_import import tests/fuzz/fuzz_import.c src/store/db_export.c src/store/db.c \
		src/store/db_open.c src/store/db_schema.c src/store/db_pg.c src/store/sql.c src/os/fs.c src/os/procstat.c \
		src/core/lossattr.c src/core/cpuset.c \
		src/core/dutsnap.c src/core/cpustat.c src/core/goal.c src/core/text.c $(pkg-config --cflags --libs libpq) -ljson-c -lsqlite3 -lm ;;
	esac
}

failed=0 running=0
jobs_max=$(nproc 2>/dev/null || echo 1)
for t in $TARGETS; do
	if [ "$running" -ge "$jobs_max" ]; then
		wait -n || failed=1
		running=$((running - 1))
	fi
	one "$t" &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n || failed=1
	running=$((running - 1))
done
exit $failed
