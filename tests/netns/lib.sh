# Shared by the namespace tests: a lab prefix of our own, cleanup on any
# exit, and small assertions. Source it; it sets P (the prefix).
. "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
UDPBLAST=$BUILD/tests/udpblast

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

# jqs PREFIX FILTER: a value from 'lab status --json'
labjq() { "$WR" lab status --prefix "$1" --json | jq -r "$2"; }

# Frames counted by an interface: labjq's rx/tx counters.
ifc() { labjq "$1" ".interfaces[] | select(.name == \"$2\") | .$3"; }

no_namespaces_left() {
	local p=$1
	! ip netns list | grep -q "^${p}\(gen\|dut\|sink\)\b" || fail "namespaces of $p left behind: $(ip netns list | grep "^$p")"
}
