# wirerate pair on a selftests pair (lib_pair.sh), its peer in a network
# namespace (REMOTE_TYPE=netns): the send, receive, one-port forwarding
# and XDP reflector tests end to end, the KTAP through the kernel's own KTAP
# parser (kunit.py), the KCIDB document through the published schema;
# the variables from the environment; forwarding off (the forward test
# skips, exit 4); a SIGKILL; the bad pairs. pair_ssh.sh: the peer over ssh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_pair.sh"
inhost "$WR" pair --topology "$T/net.config" "${PAIR_LOSS[@]}" "${PAIR_SEARCH[@]}" --duration 1s --ktap --kcidb "$T/netns.json" --origin wirerate_test \
	>"$T/netns.ktap" 2>"$T/netns.err"; rc=$?
cat "$T/netns.err"
[ "$rc" = 0 ] || fail "pair over netns exited $rc"
check_run "$T/netns.ktap" "$T/netns.json" "netns pair"
# the reflector's program went with the run: a link that dies with it
ip -n "$H" -d link show "${P}a" | grep -q 'prog/xdp' && fail "the XDP reflector is still attached"
grep -q 'the reflector sent back [1-9][0-9]* frames' "$T/netns.err" || fail "the reflector sent nothing back"

# The variables in the environment, no file; --json.
inhost env NETIF="${P}a" LOCAL_V4=198.18.0.1 REMOTE_V4=198.18.0.2 REMOTE_TYPE=netns REMOTE_ARGS="$R" \
	"$WR" pair --test send "${PAIR_LOSS[@]}" --duration 500ms --json >"$T/env.json" 2>/dev/null || fail "pair from the environment"
jq -e '[.points[] | select(.path == "wirerate.pair.send.loss")][0].status == "pass" and .failed == 0' "$T/env.json" \
	>/dev/null || fail "pair --json: $(cat "$T/env.json")"

# Forwarding off: the forward test skips, and a run of it alone exits 4.
ip netns exec "$H" sysctl -qw net.ipv4.ip_forward=0
inhost "$WR" pair --topology "$T/net.config" --test forward --ktap >"$T/skip.ktap" 2>/dev/null; rc=$?
cat "$T/skip.ktap"
[ "$rc" = 4 ] || fail "forward with forwarding off exited $rc, want 4"
grep -q '^ok 1 wirerate.pair.forward # SKIP forwarding is off' "$T/skip.ktap" || fail "no SKIP line"
bash "$ROOT/tests/ktap_check.sh" "$T/skip.ktap" 0 0 1 || fail "the kernel's KTAP parser disagrees (skip)"
ip netns exec "$H" sysctl -qw net.ipv4.ip_forward=1

# SIGKILL in the middle of a stream: the children it ran (the stream and
# the agent in the peer) end with it, within 5 s (polled every 0.1 s).
ip netns exec "$H" "$WR" pair --topology "$T/net.config" --test send --duration 4s >/dev/null 2>&1 &
kpid=$!
for _ in $(seq 50); do pgrep -f "stream --receiver dut --dut netns:$R" >/dev/null && break; sleep 0.1; done
pgrep -f "stream --receiver dut --dut netns:$R" >/dev/null || fail "the stream did not start"
kill -9 "$kpid"
wait "$kpid" 2>/dev/null
for _ in $(seq 50); do
	if ! pgrep -f "stream --receiver dut --dut netns:$R" >/dev/null && [ -z "$(ip netns pids "$R")" ]; then break; fi
	sleep 0.1
done
! pgrep -f "stream --receiver dut --dut netns:$R" >/dev/null || fail "the stream outlived a SIGKILLed pair"
[ -z "$(ip netns pids "$R")" ] || fail "processes left in the peer: $(ip netns pids "$R" | xargs -r ps -o pid,args -p)"

# Bad pairs: one line, exit 2.
bad() { # name, config lines...
	local f="$T/bad.config"
	shift
	printf '%s\n' "$@" >"$f"
	expect_exit 2 inhost "$WR" pair --topology "$f"
}
bad nonetif LOCAL_V4=198.18.0.1 REMOTE_V4=198.18.0.2 REMOTE_TYPE=netns "REMOTE_ARGS=$R"
bad type "NETIF=${P}a" LOCAL_V4=198.18.0.1 REMOTE_V4=198.18.0.2 REMOTE_TYPE=telnet "REMOTE_ARGS=$R"
bad notlocal "NETIF=${P}a" LOCAL_V4=198.18.0.9 REMOTE_V4=198.18.0.2 REMOTE_TYPE=netns "REMOTE_ARGS=$R"
bad notpeer "NETIF=${P}a" LOCAL_V4=198.18.0.1 REMOTE_V4=198.18.0.7 REMOTE_TYPE=netns "REMOTE_ARGS=$R"
bad noif "NETIF=${P}zz" LOCAL_V4=198.18.0.1 REMOTE_V4=198.18.0.2 REMOTE_TYPE=netns "REMOTE_ARGS=$R"
bad oneend "NETIF=${P}a" LOCAL_V4=198.18.0.1 REMOTE_TYPE=netns "REMOTE_ARGS=$R"
bad quote "NETIF=\"${P}a" LOCAL_V4=198.18.0.1 REMOTE_V4=198.18.0.2 REMOTE_TYPE=netns "REMOTE_ARGS=$R"
bad nopeer "NETIF=${P}a" LOCAL_V4=198.18.0.1 REMOTE_V4=198.18.0.2 REMOTE_TYPE=netns REMOTE_ARGS=no-such-ns-$$
# addresses outside the benchmarking ranges: refused unless allowed
ip -n "$H" addr add 192.0.2.1/24 dev "${P}a" || fail "a documentation address"
bad range "NETIF=${P}a" LOCAL_V4=192.0.2.1 REMOTE_V4=192.0.2.2 REMOTE_TYPE=netns "REMOTE_ARGS=$R"
expect_exit 2 inhost "$WR" pair --topology "$T/no-such-file"
expect_exit 2 inhost "$WR" pair --topology "$T/net.config" --test nosuch
expect_exit 2 inhost "$WR" pair --topology "$T/net.config" --ktap --json
expect_exit 2 inhost "$WR" pair --topology "$T/net.config" --ssh-option Port=22
expect_exit 2 inhost env -u NETIF "$WR" pair
expect_exit 2 env WIRERATE_STATE_DIR="$T/nostate" ip netns exec "$H" "$WR" pair --topology "$T/net.config" --soak
# stream --soak-here soaks this host's end against a server elsewhere only
expect_exit 2 "$WR" stream --soak-here -l 1
echo ok
