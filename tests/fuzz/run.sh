#!/bin/sh
# Build the frame_parse fuzzer with clang's libFuzzer and run it for a
# bounded time on a copy of the seed corpus. Exit 0: no crash; 77: skipped
# (clang or libFuzzer missing: on Debian, libFuzzer is in libclang-rt-14-dev);
# anything else: a crash, with the reproducer kept and its path printed.
set -u

cd "$(dirname "$0")/../.." || exit 1
CLANG=${CLANG:-clang}
SECONDS_=${FUZZ_SECONDS:-20}
FLAGS="-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -g -O1 -I. -Isrc -D_GNU_SOURCE -Wall -Wextra"

if ! "$CLANG" --version >/dev/null 2>&1; then
	echo "fuzz frame_parse: skipped: $CLANG not found (install clang)"
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
	echo "fuzz frame_parse: skipped: clang cannot link a libFuzzer target (install libclang-rt-14-dev)"
	exit 77
fi

# shellcheck disable=SC2086
if ! "$CLANG" $FLAGS tests/fuzz/fuzz_frame.c src/core/frame.c -o "$tmp/fuzz_frame" 2>"$tmp/build.log"; then
	cat "$tmp/build.log" >&2
	echo "fuzz frame_parse: build failed" >&2
	exit 2
fi
if [ -s "$tmp/build.log" ]; then
	cat "$tmp/build.log" >&2
	echo "fuzz frame_parse: build warnings" >&2
	exit 2
fi

mkdir "$tmp/corpus" "$tmp/art"
cp tests/fuzz/corpus/frame/* "$tmp/corpus/"
"$tmp/fuzz_frame" -max_total_time="$SECONDS_" -rss_limit_mb=1024 \
	-artifact_prefix="$tmp/art/" "$tmp/corpus" >"$tmp/run.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
	keep=$(mktemp -d "${TMPDIR:-/tmp}/wr-fuzz-crash.XXXXXX")
	cp "$tmp"/art/* "$tmp/run.log" "$keep/" 2>/dev/null
	tail -n 40 "$tmp/run.log" >&2
	echo "fuzz frame_parse: CRASH (exit $rc); reproducer and log in $keep" >&2
	exit 1
fi
runs=$(sed -n 's/^Done \([0-9][0-9]*\) runs.*/\1/p' "$tmp/run.log" | tail -n 1)
echo "fuzz frame_parse: ${runs:-?} runs, no crash"
exit 0
