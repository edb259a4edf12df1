#!/usr/bin/env bash
# Check a KTAP file with the kernel's own parser, KUnit's
# tools/testing/kunit/kunit.py parse (Linux 6.12, from Debian's
# linux-source-6.12: scripts/deps.sh), and with the counts of the
# kselftest "# Totals" line the file ends with.
#
#   bash tests/ktap_check.sh FILE.ktap PASS FAIL SKIP
#
# PASS, FAIL and SKIP are the numbers of results kunit.py must count as
# passed ("ok"), failed ("not ok") and skipped ("# SKIP"). It fails unless
# the parser reads the file without an error (a missing or misnumbered
# result, a nested test the file did not mean, a crashed test), its
# summary ("Testing complete. Ran N tests: passed: P, failed: F, skipped:
# S") and its --json output both give the numbers asked for, and the
# file's own "# Totals: pass:P fail:F' xfail:0 xpass:0 skip:S error:E"
# line, when it has one, agrees (kselftest counts "not ok" as fail or
# error). A plan of no test ("1..0 # SKIP reason", kselftest's whole
# skip), which kunit.py reports as the error "0 tests run!", passes only
# when 0 0 0 is asked for.
#
# kunit.py needs python3 alone. The kunit directory is taken from the
# source tarball once into ${XDG_CACHE_HOME:-$HOME/.cache}/wirerate/
# kunit-6.12 (extracted beside it, then moved into place).
#
# Exit 0: accepted; 1: not accepted or no parser, one line on stderr
# saying why; 2: usage.
set -u

say() { echo "ktap_check: $*" >&2; }

if [ $# -ne 4 ]; then
	say "usage: bash tests/ktap_check.sh FILE.ktap PASS FAIL SKIP"
	exit 2
fi
file=$1 want_pass=$2 want_fail=$3 want_skip=$4
for n in "$want_pass" "$want_fail" "$want_skip"; do
	case "$n" in '' | *[!0-9]*) say "usage: PASS, FAIL and SKIP are numbers, not '$n'"; exit 2 ;; esac
done
if [ ! -r "$file" ]; then
	say "$file: cannot read it"
	exit 1
fi
# kunit.py changes to the kernel tree's root: the file by its full path.
file=$(cd "$(dirname "$file")" && pwd)/$(basename "$file")

src=${WR_LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/wirerate/kunit-6.12
kunit=$cache/tools/testing/kunit/kunit.py
if [ ! -f "$kunit" ]; then
	if [ ! -r "$src" ]; then
		say "no kernel source $src to take kunit.py from: install linux-source-6.12 (scripts/deps.sh)"
		exit 1
	fi
	mkdir -p "$(dirname "$cache")" || { say "cannot make $(dirname "$cache")"; exit 1; }
	tmp=$(mktemp -d "$cache.XXXXXX") || { say "cannot make a directory beside $cache"; exit 1; }
	if ! tar -xJf "$src" -C "$tmp" --strip-components=1 --wildcards '*/tools/testing/kunit/*' ||
		[ ! -f "$tmp/tools/testing/kunit/kunit.py" ]; then
		rm -rf "$tmp"
		say "cannot take tools/testing/kunit from $src"
		exit 1
	fi
	# Another check may have put it in place meanwhile: then use that one.
	mv -T "$tmp" "$cache" 2>/dev/null || rm -rf "$tmp"
	if [ ! -f "$kunit" ]; then
		say "cannot put kunit.py into $cache"
		exit 1
	fi
fi

work=$(mktemp -d) || { say "cannot make a temporary directory"; exit 1; }
trap 'rm -rf "$work"' EXIT

# Its exit status is 1 for any test that did not pass: the counts say
# more. A Python error (a traceback) is the parser's own failure.
python3 "$kunit" parse --json="$work/parsed.json" "$file" >"$work/out" 2>&1
if grep -q '^Traceback' "$work/out"; then
	say "$file: kunit.py parse failed: $(grep -v '^ ' "$work/out" | tail -n 1)"
	exit 1
fi
sed -E 's/^\[[0-9:]+\] //' "$work/out" >"$work/log"

summary=$(grep -E '^Testing complete\. ' "$work/log" | tail -n 1)
if [ -z "$summary" ]; then
	say "$file: kunit.py printed no summary"
	exit 1
fi
count() { # the summary's count of $1 ("passed", "errors", ...), 0 when absent
	local n
	n=$(printf '%s\n' "$summary" | grep -oE "[ ,]$1: [0-9]+" | grep -oE '[0-9]+$')
	echo "${n:-0}"
}
passed=$(count passed) failed=$(count failed) skipped=$(count skipped)
crashed=$(count crashed) errors=$(count errors)
parsed=${summary#Testing complete. }

first_error=$(grep -m 1 -F '[ERROR]' "$work/log")
none=$((want_pass + want_fail + want_skip == 0))
if [ "$none" = 1 ] && [ "$passed$failed$skipped$crashed$errors" = 00001 ] &&
	[ "$first_error" = "[ERROR] Test: main: 0 tests run!" ] && grep -qE '^1\.\.0( |$)' "$file"; then
	: # kselftest's plan of no test, which kunit.py counts as an error
elif [ -n "$first_error" ] || [ "$errors" != 0 ]; then
	say "$file: kunit.py: ${first_error:-$errors errors} ($parsed)"
	exit 1
fi
if [ "$crashed" != 0 ]; then
	say "$file: kunit.py: $crashed tests crashed ($parsed)"
	exit 1
fi
if [ "$passed $failed $skipped" != "$want_pass $want_fail $want_skip" ]; then
	say "$file: kunit.py counted passed $passed, failed $failed, skipped $skipped; expected $want_pass, $want_fail, $want_skip"
	exit 1
fi

# The same from its --json output: flat, and each status counted.
# shellcheck disable=SC2016
if ! json=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
if d.get("sub_groups"):
    print("nested tests: %s" % ", ".join(g.get("name", "?") for g in d["sub_groups"]))
    sys.exit(0)
c = {}
for t in d.get("test_cases", []):
    c[t.get("status")] = c.get(t.get("status"), 0) + 1
print(c.get("PASS", 0), c.get("FAIL", 0), c.get("SKIP", 0), sum(c.values()) - c.get("PASS", 0) - c.get("FAIL", 0) - c.get("SKIP", 0))
' "$work/parsed.json" 2>&1); then
	say "$file: kunit.py --json gave no readable document: $json"
	exit 1
fi
if [ "$json" != "$want_pass $want_fail $want_skip 0" ]; then
	say "$file: kunit.py --json: $json (passed failed skipped other), expected $want_pass $want_fail $want_skip 0"
	exit 1
fi

# kselftest's own totals: "not ok" is a fail or an error there.
totals=$(grep -E '^# Totals: ' "$file" | tail -n 1)
if [ -n "$totals" ]; then
	if [[ ! "$totals" =~ ^#\ Totals:\ pass:([0-9]+)\ fail:([0-9]+)\ xfail:([0-9]+)\ xpass:([0-9]+)\ skip:([0-9]+)\ error:([0-9]+)$ ]]; then
		say "$file: a # Totals line that is not kselftest's: $totals"
		exit 1
	fi
	t=("${BASH_REMATCH[@]}")
	if [ "${t[1]} $((t[2] + t[6])) ${t[5]} ${t[3]} ${t[4]}" != "$want_pass $want_fail $want_skip 0 0" ]; then
		say "$file: its $totals does not give passed $want_pass, failed $want_fail, skipped $want_skip"
		exit 1
	fi
fi
echo "ktap_check: $file: kunit.py: $parsed"
exit 0
