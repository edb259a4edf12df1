# Shared by the namespace tests: a lab prefix of our own, cleanup on any
# exit, and small assertions. Source it; it sets P (the prefix).
set -u
WR=${WR:-$PWD/build/wirerate}
BUILD=${WR_BUILD_DIR:-$PWD/build}
UDPBLAST=$BUILD/tests/udpblast

skip() { echo "skip: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
note() { echo "# $*"; }

[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
"$WR" probe --require netns,veth >/dev/null 2>&1 || skip "$("$WR" probe --require netns,veth 2>&1)"

# A unique prefix per test run: t<pid>- ; every lab made here is removed
# on exit, pass or fail.
P="t$$-"
LABS=("$P")
cleanup() {
	for p in "${LABS[@]}"; do "$WR" lab down --prefix "$p" >/dev/null 2>&1; done
}
trap cleanup EXIT

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

# jqs PREFIX FILTER: a value from 'lab status --json'
labjq() { "$WR" lab status --prefix "$1" --json | jq -r "$2"; }

# Frames counted by an interface: labjq's rx/tx counters.
ifc() { labjq "$1" ".interfaces[] | select(.name == \"$2\") | .$3"; }

no_namespaces_left() {
	local p=$1
	! ip netns list | grep -q "^${p}\(gen\|dut\|sink\)\b" || fail "namespaces of $p left behind: $(ip netns list | grep "^$p")"
}
