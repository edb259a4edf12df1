# trial --capture: the frames a trial received and did not count go to a
# pcapng file that tcpdump reads, each with why. Planted during the trial:
# five foreign UDP datagrams from the generator's namespace to the sink
# (not test frames: on the socket path the parser's reason, such as
# "bad-udp-csum" for a checksum veth left to offload; "not-test" on the
# XDP path) and
# one forged test frame far ahead in its stream (seqforge: "stale"). The
# socket analyzer and, where the host has it, the XDP analyzer; then the
# count's limit, and bad input leaving no file behind.
. "$(dirname "$0")/lib.sh"

FORGE=$BUILD/tests/seqforge
[ -x "$FORGE" ] || fail "no $FORGE: build first"
command -v tcpdump >/dev/null || fail "no tcpdump (scripts/deps.sh installs it)"
D=$(mktemp -d)
trap 'rm -rf "$D"; cleanup' EXIT
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
T="--prefix $P --rate 5kpps --duration 3s --learn-wait 0.2s --drain 0.5s --no-store --json"

# plant PATH-TYPE: the forger waits for the trial's first frame, the
# datagrams go a second into it (both bounded)
plant() {
	ip netns exec "${P}dut" "$FORGE" dut1 20 >"$D/forge.out" 2>&1 &
	fpid=$!
	(sleep 1.2; ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 5 18 >/dev/null) &
	bpid=$!
	sleep 0.3
}

# check NAME JSON FILE: the JSON's capture against the file
check() {
	local name=$1 j=$2 f=$3 n lines
	note "$name: $(jq -c '.capture' <<<"$j"); forged $(cat "$D/forge.out")"
	[ -s "$f" ] || fail "$name: no capture file"
	ls "$D" | grep -q '\.tmp\.' && fail "$name: a temporary file left: $(ls "$D")"
	n=$(jq -r '.capture.frames' <<<"$j")
	# what the analyzer did not count: the datagrams and the forged frame,
	# and maybe the lab's own ARP/ND (at most the count's 100)
	jq -e '.capture | .frames >= 6 and .frames <= 100 and .reasons.stale >= 1 and
		([.reasons | to_entries[] | select(.key | IN("stale", "late", "duplicate") | not) | .value] | add) >= 5 and
		([.reasons[]] | add) == .frames' <<<"$j" >/dev/null ||
		fail "$name: capture $(jq -c .capture <<<"$j")"
	[ "$(jq -r '.directions[0].stale' <<<"$j")" -ge 1 ] || fail "$name: the forged frame was not stale"
	lines=$(tcpdump -nn -r "$f" 2>"$D/tcpdump.err") || fail "$name: tcpdump: $(cat "$D/tcpdump.err")"
	[ "$(wc -l <<<"$lines")" = "$n" ] || fail "$name: tcpdump read $(wc -l <<<"$lines") frames, want $n: $lines"
	# the datagrams come from an ephemeral port, the test frames from 1024
	[ "$(grep -v ' 198.18.0.1.1024 > ' <<<"$lines" | grep -c ' > 198.19.0.2.9: UDP, length 18$')" = 5 ] ||
		fail "$name: not the 5 datagrams: $lines"
	# each frame says why: the forged one names its trial and stream
	grep -aq "stale: trial [0-9]* stream [0-9]* seq [0-9]*; the trial counted is" "$f" ||
		fail "$name: no comment on the stale frame"
}

# 1. The socket analyzer
plant
j=$("$WR" trial $T --port-type afpacket --capture "$D/a.pcapng") || fail "trial --capture (afpacket): $j"
wait "$fpid" || fail "the forger sent nothing: $(cat "$D/forge.out")"
wait "$bpid"
check afpacket "$j" "$D/a.pcapng"
"$WR" trial --prefix "$P" --rate 5kpps --duration 0.5s --no-store --port-type afpacket --capture "$D/t.pcapng" |
	grep -q "^  capture    $D/t.pcapng: [0-9]* frame(s) received and not counted" || fail "no capture line in the text"

# 2. The XDP analyzer: the frames are copied out of the kernel at the end
if "$WR" probe --require xdp_native_veth,xdp_live_frames >/dev/null 2>&1; then
	plant
	j=$("$WR" trial $T --port-type xdp --capture "$D/x.pcapng") || fail "trial --capture (xdp): $j"
	wait "$fpid" || fail "the forger sent nothing: $(cat "$D/forge.out")"
	wait "$bpid"
	[ "$(jq -r .analyzer <<<"$j")" = xdp ] || fail "not the XDP analyzer: $(jq -r .analyzer <<<"$j")"
	check xdp "$j" "$D/x.pcapng"
	[ "$(jq -r '.capture.reasons["not-test"]' <<<"$j")" -ge 5 ] || fail "xdp: not-test $(jq -c .capture <<<"$j")"
else
	skip_part "the XDP analyzer's capture: $("$WR" probe --require xdp_native_veth,xdp_live_frames 2>&1)"
fi

# 3. --capture-count caps it: two of the six or more
(sleep 1.2; ip netns exec "${P}gen" "$UDPBLAST" 198.19.0.2 9 5 18 >/dev/null) &
j=$("$WR" trial $T --port-type afpacket --capture "$D/c.pcapng" --capture-count 2) || fail "trial --capture-count 2"
wait $!
[ "$(jq -r .capture.frames <<<"$j")" = 2 ] || fail "--capture-count 2: $(jq -c .capture <<<"$j")"
[ "$(tcpdump -nn -r "$D/c.pcapng" 2>/dev/null | wc -l)" = 2 ] || fail "--capture-count 2: the file holds more"

# 4. Bad input: exit 2, one line, no file
rm -f "$D"/*.pcapng
expect_exit 2 "$WR" trial --prefix "$P" --rate 5kpps --capture "$D/b.pcapng" --capture-count 0
expect_exit 2 "$WR" trial --prefix "$P" --rate 5kpps --capture "$D/b.pcapng" --capture-count 10001
expect_exit 2 "$WR" trial --prefix "$P" --rate 5kpps --capture-count 5
expect_exit 2 "$WR" trial --prefix "$P" --rate 5kpps --capture "$D/no/such/dir/b.pcapng"
# a trial that fails leaves nothing behind
"$WR" trial --prefix "${P}none-" --rate 5kpps --duration 0.5s --no-store --capture "$D/f.pcapng" >/dev/null 2>&1 &&
	fail "a trial without its lab passed"
[ -z "$(ls "$D" | grep -E 'pcapng|\.tmp\.')" ] || fail "a failed trial left $(ls "$D")"
echo ok
