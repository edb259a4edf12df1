# The AF_XDP port between two namespaces joined by a veth pair (copy mode):
# every tagged frame reaches the socket with no tester drop, IPv4 and IPv6;
# other traffic (ARP, a UDP echo) still reaches the stack while the port is open; the
# port refuses an interface that already has someone's XDP program; every
# frame the XDP generator builds passes frame_parse's checks; and
# neither a clean exit nor a kill -9 mid-run leaves an XDP program or an
# AF_XDP socket behind.
. "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
XSK=$BUILD/tests/xskcheck
PASS_OBJ=$BUILD/src/io/bpf/pass.bpf.o

[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces, AF_XDP)"
[ -x "$XSK" ] || fail "no $XSK (build first)"
"$WR" probe --require af_xdp >/dev/null 2>&1 || skip "$("$WR" probe --require af_xdp 2>&1)"
command -v jq >/dev/null || fail "no jq (scripts/deps.sh installs it)"

A="t$$-xa" B="t$$-xb"
cleanup() {
	[ -n "${bg:-}" ] && kill -9 "$bg" 2>/dev/null
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
}
trap cleanup EXIT

ip netns add "$A" && ip netns add "$B" || fail "netns add"
ip link add xa netns "$A" type veth peer name xb netns "$B" || fail "veth add"
ip -n "$A" addr add 198.18.0.1/30 dev xa && ip -n "$B" addr add 198.18.0.2/30 dev xb || fail "addresses"
ip -n "$A" link set xa up && ip -n "$B" link set xb up || fail "link up"

# probe showed AF_XDP sockets work here: a first run that fails is a
# failure of the port, not a host without it. Every 'timeout' here bounds a hung run, not a measurement: 20-60 s against runs of at
# most 2.5 s of frames (40000 at 20 kpps) plus xskcheck's 1 s drain, room
# for any pause a loaded host makes.
out=$(timeout 20 "$XSK" --tx xa --tx-ns "$A" --rx xb --rx-ns "$B" -n 10 --rate 1000 2>&1) ||
	fail "the first AF_XDP run (10 frames): $out"

xdp_on() { ip -n "$1" -d link show "$2" | grep -Eq '(^| )(xdp|xdpgeneric|xdpdrv|prog/xdp)( |$)'; }
xsk_sockets() { ip netns exec "$1" awk '$1 == "XDP" { print $3 }' /proc/net/protocols; }
# Both waits poll every 0.1 s for at most 5 s: the kernel releases a
# closed socket's pool from a work queue, and attaching takes xskcheck
# milliseconds; 5 s is a hundred times the longest the host holds a vCPU
# (tens of ms), so what has not happened by then is not going to.
no_leftovers() {
	for _ in $(seq 50); do
		! xdp_on "$B" xb && [ "$(xsk_sockets "$A")" = 0 ] && [ "$(xsk_sockets "$B")" = 0 ] && return 0
		sleep 0.1
	done
	fail "$1: left behind: xdp on xb: $(xdp_on "$B" xb && echo yes || echo no), AF_XDP sockets: $(xsk_sockets "$A") + $(xsk_sockets "$B")"
}
wait_attached() {
	for _ in $(seq 50); do
		xdp_on "$B" xb && [ "$(xsk_sockets "$B")" -gt 0 ] && return 0
		sleep 0.1
	done
	fail "the receive program never attached"
}
# check JSON N: every frame received once, no tester drop. Exact, with no
# retry: the sender paces from the clock and catches up after a pause
# (xskcheck sends all N within N/rate + 5 s), the frames cross the pair
# in the softirq of the sender's own CPU (no threaded NAPI here), so a
# held vCPU holds sender and receiver alike, and the socket's receive
# ring (2048 frames or more, 100 ms at 20 kpps) outlasts a hold of the
# reader. A frame missing is the port's fault.
check() {
	local j=$1 n=$2
	note "$(jq -c '{sent, received, duplicates, not_test, bad_tag, latency_us, rx: .rx_stats | {rx_drops, rx_if_drops, rx_freezes}, tx_refused: .tx_stats.tx_if_refused}' <<<"$j")"
	[ "$(jq -r "
		.sent == $n and .received == $n and .duplicates == 0 and .bad_tag == 0 and .other_trial == 0 and
		.rx_stats.rx_drops == 0 and .rx_stats.rx_frames == $n and .tx_stats.tx_errors == 0 and
		.latency_bad == 0" <<<"$j")" = true ] || fail "not clean: $j"
}

# 1. 40000 frames at 20 kpps while a UDP echo crosses the pair.
tmp=$(mktemp); trap 'rm -f "$tmp"; cleanup' EXIT
timeout 30 "$XSK" --tx xa --tx-ns "$A" --rx xb --rx-ns "$B" -n 40000 --rate 20000 >"$tmp" &
bg=$!
wait_attached
# Plain UDP (ARP first) both ways through the stack: an echo in B. No ping
# here (iputils is not a dependency), so python3's sockets.
echo_out=$(ip netns exec "$B" timeout 10 python3 -c '
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("198.18.0.2", 7777)); s.settimeout(5)
for _ in range(3):
    d, a = s.recvfrom(100); s.sendto(d, a)
' 2>&1 &
# the client only once the echo is bound (port 7777 is 1E61 in
# /proc/net/udp), not after a fixed wait that a slow python start on a
# busy host could outlast; polled every 0.1 s for at most 5 s
for _ in $(seq 50); do ip netns exec "$B" grep -q ':1E61 ' /proc/net/udp && break; sleep 0.1; done
ip netns exec "$A" timeout 10 python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.settimeout(2)
for i in range(3):
    s.sendto(b"hello %d" % i, ("198.18.0.2", 7777)); print(s.recvfrom(100)[0].decode())
' 2>&1) || fail "UDP echo across the pair while the port is open: $echo_out"
note "echo through the stack: $(tr '\n' ' ' <<<"$echo_out")"
# and it was while the port was open: the run sends for 2 s after it
# attached, and the echo takes a few ms (2 s each at most, then it fails)
xdp_on "$B" xb || fail "the UDP echo ended after the port closed: it tested nothing"
wait "$bg" || fail "xskcheck exited $?"
bg=
j=$(cat "$tmp")
check "$j" 40000
# ARP and the echo went to the stack, not to the socket.
[ "$(jq -r .not_test <<<"$j")" = 0 ] || fail "non-test frames reached the socket: $j"
[ "$(jq -r '.ts_changes == .frames' <<<"$j")" = true ] || note "timestamps per batch, not per frame: $(jq -c '{ts_changes, frames}' <<<"$j")"
no_leftovers "after a clean exit"

# 2. IPv6, 84-byte frames (the smallest that carry a tag).
j=$(timeout 30 "$XSK" --tx xa --tx-ns "$A" --rx xb --rx-ns "$B" --ipv6 --size 84 -n 10000 --rate 20000) || fail "ipv6 run"
check "$j" 10000
no_leftovers "after the IPv6 run"

# 3. The XDP live-frames generator's frames, checked one by one by
# frame_parse on the AF_XDP side (headers, IPv4 and UDP checksums, tag):
# the XDP analyzer leaves the UDP checksum to this test.
if "$BUILD/wirerate" probe --require xdp_live_frames >/dev/null 2>&1; then
	for a in "--size 64 --flows 16" "--ipv6 --size 84" "--vlan --size 68 --flows 100" "--ipv6 --vlan --size 1518 --flows 7"; do
		j=$(timeout 30 "$XSK" --xdpgen --tx xa --tx-ns "$A" --rx xb --rx-ns "$B" $a -n 20000 --rate 50000) ||
			fail "xdpgen $a"
		note "xdpgen $a: $(jq -c '{sent, received, not_test, bad_tag}' <<<"$j")"
		[ "$(jq -r '.sent == 20000 and .received == 20000 and .frames == 20000 and .not_test == 0 and
			.bad_tag == 0 and .duplicates == 0 and .latency_bad == 0' <<<"$j")" = true ] ||
			fail "xdpgen $a: not every frame valid: $j"
	done
	no_leftovers "after the XDP generator runs"
	err=$(timeout 20 "$XSK" --xdpgen --tx xa --tx-ns "$A" --rx xb --rx-ns "$B" --ipv6 --size 78 -n 10 2>&1) &&
		fail "xdpgen sent a 78-byte IPv6 frame, which has no room for the tag"
	grep -q "no room for the tag" <<<"$err" || fail "xdpgen, 78-byte IPv6: $err"
else
	skip_part "part 3, the XDP generator's frames: $("$BUILD/wirerate" probe --require xdp_live_frames 2>&1 | tail -1)"
fi

# 4. Someone else's program on the interface: refused, named, left in place.
ip -n "$B" link set xb xdp obj "$PASS_OBJ" sec xdp.frags || fail "attach a foreign program"
err=$(timeout 20 "$XSK" --tx xa --tx-ns "$A" --rx xb --rx-ns "$B" -n 10 --rate 1000 2>&1 >/dev/null) && fail "opened over a foreign program"
note "refused: $err"
grep -q "already has an XDP program attached ('wr_pass'" <<<"$err" || fail "refusal does not name the program: $err"
ip -n "$B" -d link show xb | grep -q 'name wr_pass' || fail "the foreign program was touched"
ip -n "$B" link set xb xdp off || fail "detach the foreign program"
no_leftovers "after the refusal"

# 5. kill -9 mid-run: the kernel drops the link and the sockets with the fds.
timeout 60 "$XSK" --tx xa --tx-ns "$A" --rx xb --rx-ns "$B" -n 1000000 --rate 20000 >/dev/null &
bg=$!
wait_attached
sleep 0.5	# mid-run: frames in flight (the run lasts 50 s), not a bound
pid=$(pgrep -P "$bg" -x xskcheck) || fail "no xskcheck under timeout $bg"
kill -9 "$pid"
wait "$bg" 2>/dev/null
bg=
no_leftovers "after kill -9"
echo ok
