# Shared by every shell test: skip, skip_part, fail, note and expect_exit. Source it.
set -u
WR=${WR:-$PWD/build/wirerate}
BUILD=${WR_BUILD_DIR:-$PWD/build}

skip() { echo "skip: $*"; exit 77; }
# skip_part WHAT: part of this test's checks cannot run here (a capability
# probe shows missing, checked before that part starts). The test goes on
# with the rest, and tests/run counts it as skipped (in part), not passed,
# naming the part in its closing summary.
skip_part() {
	echo "skip (part): $*"
	[ -n "${WR_PARTS:-}" ] && echo "$*" >>"$WR_PARTS"
	return 0
}
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

# expect_exit CODE CMD...: run CMD, check its exit status and that stderr
# is one line starting with "wirerate:".
expect_exit() {
	local want=$1; shift
	local err rc
	err=$("$@" 2>&1 >/dev/null); rc=$?
	[ "$rc" -eq "$want" ] || fail "'$*' exited $rc, want $want (stderr: $err)"
	if [ "$want" -ne 0 ]; then
		[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || fail "'$*': error is not one line: $err"
		case "$err" in wirerate:*) ;; *) fail "'$*': error does not start with 'wirerate:': $err" ;; esac
	fi
	note "$* -> $rc: $err"
}
