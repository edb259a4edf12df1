# A selftests pair for the pair tests: this host's end (NETIF, ${P}a) in
# a namespace of the test's own (${P}host, where wirerate runs, with
# forwarding on), the peer's (${P}b) in ${P}peer, and net.config for it
# as the kernel's driver selftests write one (REMOTE_TYPE=netns). Source
# it after lib.sh; it sets H, R, T (a temporary directory) and ROOT, and
# removes all of it on exit (and a management sshd, lib_ssh.sh's).
. "$(dirname "$0")/lib_ssh.sh"

ROOT=$(cd "$(dirname "$0")/../.." && pwd)
H="${P}host" R="${P}peer"
T=$(mktemp -d /tmp/wr-pair.XXXXXX)
pair_down() {
	ssh_dut_down
	ip netns del "$H" 2>/dev/null
	ip netns del "$R" 2>/dev/null
	rm -rf "$T"
}
trap 'pair_down; cleanup' EXIT
ip netns add "$H" && ip netns add "$R" || fail "namespaces"
ip link add "${P}a" netns "$H" type veth peer name "${P}b" netns "$R" || fail "veth"
ip -n "$H" addr add 198.18.0.1/24 dev "${P}a" && ip -n "$R" addr add 198.18.0.2/24 dev "${P}b" || fail "addresses"
for ns in "$H" "$R"; do ip -n "$ns" link set lo up; done
ip -n "$H" link set "${P}a" up && ip -n "$R" link set "${P}b" up || fail "links up"
ip netns exec "$H" sysctl -qw net.ipv4.ip_forward=1 || fail "forwarding on in $H"
inhost() { ip netns exec "$H" "$@"; }

# The selftests' net.config: comments, quotes, a key of another test.
cat >"$T/net.config" <<-CONF
	# the pair: this host's end, the peer's in a namespace
	NETIF=${P}a   # the interface under test
	LOCAL_V4="198.18.0.1"
	REMOTE_V4='198.18.0.2'
	REMOTE_TYPE=netns
	REMOTE_ARGS=$R
	SOME_OTHER_TEST_KEY="ignored # not a comment"
CONF

# Each stream offers 10000 datagrams/s of 1024 bytes for 1 s: 81.92
# Mbit/s of payload. PAIR_LOSS: the tests' --max-loss, 5%: a vCPU this
# host holds for up to 30 ms (lib.sh) can overflow the receiving socket's
# 208 KiB (about 200 datagrams, 20 ms at this rate) and drop about 100
# (1%); a pair that loses datagrams for any other reason loses far more.
# The received rate within 5% of the offered (the pacing is exact to 1%,
# plus that loss and the receiver's elapsed time, which waits for the last
# datagram). The forwarding search and the reflector's each find an NDR
# far above 10 kpps (this host forwards hundreds of thousands a second
# between two veths, and reflects millions).
PAIR_LOSS=(--max-loss 5)
# The searches offer at most 500 kpps in 0.5 s trials: a short search,
# whose NDR is then that bound or what this host lost frames at.
PAIR_SEARCH=(--max-load 500kpps --trial-time 500ms)
check_run() { # ktap kcidb what
	local k=$1 j=$2 what=$3
	cat "$k"
	/usr/bin/python3 "$ROOT/tests/kcidb_check.py" "$j" || fail "$what: KCIDB schema"
	# a soaked figure whose soak the host's drift made untrusted is a
	# "cannot tell": KTAP's skip, KCIDB's DONE marked unsure
	local u
	u=$(jq '[.tests[] | select(.misc.unsure == true)] | length' "$j")
	bash "$ROOT/tests/ktap_check.sh" "$k" $((10 - u)) 0 "$u" || fail "$what: the kernel's KTAP parser disagrees"
	for t in send receive; do
		jq -e --arg p "wirerate.pair.$t.received" '.tests[] | select(.path == $p) |
			.status == "DONE" and .number.unit == "Mbit/s" and .number.value > 77.8 and .number.value < 86.1' \
			"$j" >/dev/null || fail "$what: $t received: $(jq -c --arg p "wirerate.pair.$t.received" '.tests[] | select(.path == $p)' "$j")"
		jq -e --arg p "wirerate.pair.$t.loss" '.tests[] | select(.path == $p) | .status == "PASS" and .number.value <= 5' \
			"$j" >/dev/null || fail "$what: $t lost datagrams"
		jq -e --arg p "wirerate.pair.$t.cpu_per_kb" '.tests[] | select(.path == $p) | .number.value > 0' \
			"$j" >/dev/null || fail "$what: no CPU per KB for $t"
	done
	for t in forward reflect; do
		jq -e --arg p "wirerate.pair.$t.ndr.64" '.tests[] | select(.path == $p) | .status == "DONE" and .number.value > 10000' \
			"$j" >/dev/null || fail "$what: $t NDR: $(jq -c --arg t "wirerate.pair.$t" '.tests[] | select(.path | startswith($t))' "$j")"
	done
	jq -e --arg nif "${P}a" '.tests[0].environment.misc.target | contains("NETIF=" + $nif)' "$j" >/dev/null ||
		fail "$what: the topology is not in the environment"
}

