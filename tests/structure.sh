#!/usr/bin/env bash
# The source tree's structure as scripts/layers.py checks it in every
# build: the real tree passes; a tree with each kind of break (an upward
# include, a function not named after its file, a stem in two layers, a
# file name that is not lower-case words) fails, naming the file and the
# break; and docs/architecture.md's concept table is the one the tree
# gives today. No root needed.
set -u
cd "$(dirname "$0")/.." || exit 1
fail() { echo "FAIL: $*"; exit 1; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT

python3 scripts/layers.py src 2>"$T/err" || fail "the tree breaks its structure: $(head -5 "$T/err")"

# A small tree of two layers that passes, then one break at a time.
mk() { # dir: a clean fixture tree
	rm -rf "$1"; mkdir -p "$1/core" "$1/app"
	printf '#include "core/units.h"\nint units_parse(void) { return 0; }\n' >"$1/core/units.c"
	printf 'int units_parse(void);\nstatic inline int units_zero(void) { return 0; }\n' >"$1/core/units.h"
	printf '#include "core/units.h"\nint app_trial_run_go(void) { return units_parse(); }\n' >"$1/app/trial_run.c"
	printf 'static int helper(void) { return 1; }\nint app_trial_plan_make(void) { return helper(); }\n' \
		>"$1/app/trial_plan.c"
}
expect() { # what, pattern: the check fails on $T/s and says pattern
	if python3 scripts/layers.py "$T/s" 2>"$T/err"; then
		fail "$1 passed the check"
	fi
	grep -q -- "$2" "$T/err" || fail "$1: the check said $(cat "$T/err"), not /$2/"
}
mk "$T/s"
python3 scripts/layers.py "$T/s" 2>"$T/err" || fail "the clean fixture failed: $(cat "$T/err")"

mk "$T/s"; printf '#include "app/trial_run.h"\nint units_more(void) { return 0; }\n' >>"$T/s/core/units.c"
expect "an upward include" 'core/units.c:3: core may not include app/trial_run.h'
mk "$T/s"; printf 'int rate_parse(void) { return 0; }\n' >>"$T/s/core/units.c"
expect "a function not named after its file" 'core/units.c: rate_parse() reads as no file'
mk "$T/s"; printf 'int app_trial_plan_other(void) { return 0; }\n' >>"$T/s/app/trial_run.c"
expect "an app function named after another file" 'trial_run.c: app_trial_plan_other() reads as the file of trial_plan'
mk "$T/s"; printf 'int trial_go(void) { return 0; }\n' >>"$T/s/app/trial_run.c"
expect "an app function without app_" 'trial_run.c: trial_go() reads as no file: name it app_trial_run_'
mk "$T/s"; printf 'static inline int other(void) { return 0; }\n' >>"$T/s/core/units.h"
expect "a header's inline function" 'core/units.h: other() reads as no file'
mk "$T/s"; printf 'int app_units_x(void) { return 0; }\n' >"$T/s/app/units.c"
expect "a stem in two layers" 'units.c: the name units is also .*/units.c (one name, one file)'
mk "$T/s"; printf 'int trialRun(void) { return 0; }\n' >"$T/s/core/trialRun.c"
expect "a file name in camel case" 'core/trialRun.c: a file name is lower case words'
mk "$T/s"; mkdir "$T/s/misc"; : >"$T/s/misc/x.c"
expect "a folder that is no layer" 'misc: a folder that is no layer'

# The docs' table of concepts and their files is today's.
python3 scripts/layers.py --concepts src >"$T/table" || fail "layers.py --concepts"
sed -n '/^<!-- concepts: /,/^<!-- end of concepts -->/p' docs/architecture.md | sed '1d;$d' >"$T/doc"
[ -s "$T/doc" ] || fail "docs/architecture.md has no concept table between its markers"
diff -u "$T/doc" "$T/table" >"$T/diff" ||
	fail "docs/architecture.md's concept table is not the tree's (python3 scripts/layers.py --concepts src): $(head -20 "$T/diff")"
echo ok
