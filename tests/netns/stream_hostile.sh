# wirerate stream --server against hostile clients, in two namespaces of
# its own joined by a veth pair (server 198.18.100.1, 2001:2:0:100::1 and
# 2001:2:0:101::1; clients 198.18.100.2-.5, 2001:2:0:100::2 and ::10-17,
# and 2001:2:0:101::2): idle connections, long sessions that never send,
# a slow request and wrong tokens do not keep a real client out or wait;
# connections that never ask give up their slots to one that does; IPv6
# peers are counted by their /64; a third party's datagrams are not
# counted; a count out of range is refused; runs longer than
# --max-duration are refused, and a session without its END is cut;
# --bind listens on that address only; a server open to anyone says so;
# root is dropped; a peer's bytes never reach the output raw; bad input
# for each option exits 2.
. "$(dirname "${BASH_SOURCE[0]}")/../common.sh"
PEER="python3 $(dirname "${BASH_SOURCE[0]}")/../tools/stream_peer.py"

[ "$(id -u)" -eq 0 ] || skip "needs root (network namespaces)"
command -v jq >/dev/null || fail "no jq (scripts/deps.sh installs it)"
command -v python3 >/dev/null || fail "no python3 (scripts/deps.sh installs it)"

S="t$$-hs" C="t$$-hc"
D=$(mktemp -d /tmp/wr-hostile.XXXXXX)
cleanup() {
	for p in $(jobs -p); do kill -9 "$p" 2>/dev/null; done
	ip netns del "$S" 2>/dev/null
	ip netns del "$C" 2>/dev/null
	rm -rf "$D"
}
trap cleanup EXIT
ip netns add "$S" && ip netns add "$C" || fail "netns add"
ip link add hs netns "$S" type veth peer name hc netns "$C" || fail "veth add"
ip -n "$S" addr add 198.18.100.1/24 dev hs && ip -n "$S" addr add 2001:2:0:100::1/64 dev hs nodad || fail "server addresses"
for a in 2 3 4 5; do ip -n "$C" addr add 198.18.100.$a/24 dev hc || fail "client address .$a"; done
ip -n "$C" addr add 2001:2:0:100::2/64 dev hc nodad || fail "client IPv6 address"
for x in 10 11 12 13 14 15 16 17; do ip -n "$C" addr add 2001:2:0:100::$x/64 dev hc nodad || fail "client ::$x"; done
ip -n "$S" addr add 2001:2:0:101::1/64 dev hs nodad && ip -n "$C" addr add 2001:2:0:101::2/64 dev hc nodad ||
	fail "the second /64"
for n in "$S" "$C"; do ip -n "$n" link set lo up; done
ip -n "$S" link set hs up && ip -n "$C" link set hc up || fail "link up"

PORT=$((20000 + $$ % 20000))
SRV=198.18.100.1
# wait_bounded PID SECS: wait for PID, at most SECS; its exit status
wait_bounded() {
	local pid=$1 n=$(( $2 * 10 ))
	while kill -0 "$pid" 2>/dev/null && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; fail "pid $pid still running after $2 s"; }
	wait "$pid"
}
# start_server ARGS...: a server in S on PORT, listening when this returns
start_server() {
	ip netns exec "$S" "$WR" stream --server --port $PORT "$@" >"$D/srv" 2>"$D/srv.err" &
	sp=$!
	for _ in $(seq 50); do
		[ -n "$(ip netns exec "$S" ss -Hltn "sport = :$PORT")" ] && return 0
		sleep 0.1
	done
	fail "the server did not listen: $(cat "$D/srv.err")"
}
stop_server() {
	kill -INT $sp
	wait_bounded $sp 8 || fail "server exit $? after Ctrl-C: $(cat "$D/srv.err")"
}
client() { timeout 10 ip netns exec "$C" "$WR" stream --client "$@"; }
peer() { ip netns exec "$C" timeout 40 $PEER "$1" "$SRV" $PORT "${@:2}"; }
ms_since() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }

# Bad input: one line, exit 2, before anything is served.
umask 077
printf 's3cret-T0ken\n' >"$D/tok"
printf 'other-token\n' >"$D/tok2"
: >"$D/empty"
printf 'open\n' >"$D/open"; chmod 644 "$D/open"
t() { expect_exit 2 "$WR" stream "$@"; }
t -H 192.0.2.1 -l 1	# netperf's -H: the same address rule as --client
t --server --port $PORT --bind 300.1.1.1
t --server --port $PORT --bind example.com
t --server --port $PORT --bind ''
t --server --port $PORT --bind 198.18.100.99	# not an address of this host
t --server --port $PORT --max-per-peer 0
t --server --port $PORT --max-per-peer 257
t --server --port $PORT --max-per-peer x
t --server --port $PORT --peer-prefix6 0
t --server --port $PORT --peer-prefix6 129
t --client 127.0.0.1 --peer-prefix6 64
t --server --port $PORT --max-duration 0
t --server --port $PORT --max-duration 25h
t --server --port $PORT --max-duration x
t --server --port $PORT --token-file "$D/nonexistent"
t --server --port $PORT --token-file "$D/empty"
t --server --port $PORT --token-file "$D/open"
t --server --port $PORT --token-file "$D"
t --server --port $PORT --user ''
t --server --port $PORT --user nosuchuser-wr
t --client 127.0.0.1 --token-file "$D/open"
t --client 127.0.0.1 --bind 127.0.0.1
t --client 127.0.0.1 --max-duration 10
t --client 127.0.0.1 --max-per-peer 1
t --client 127.0.0.1 --user nobody
t --token-file "$D/tok"
# Where a client may send: the benchmarking ranges and loopback. 0.0.0.0
# is neither, and connecting to it reaches this host only, so the way out
# can be shown without a frame leaving the machine: with the option, it is
# past the check and fails to connect (exit 1, nothing listens on port 1).
t --client 0.0.0.0 --port 1 -l 1
t --client 192.0.2.1 --port 1 -l 1
t --server --port $PORT --allow-any-address
t --allow-any-address
"$WR" stream --client 0.0.0.0 --port 1 -l 1 2>&1 | grep -q 'give --allow-any-address' || fail "no way out named"
expect_exit 1 timeout 20 "$WR" stream --client 0.0.0.0 --port 1 -l 1 --allow-any-address
grep -q "open" <<<"$("$WR" stream --server --token-file "$D/open" 2>&1)" || fail "no reason for the open token file"
"$WR" stream --help | grep -q -- '--max-per-peer' || fail "--help"

# --bind: that address only, IPv4 and IPv6.
start_server --bind $SRV --json
ss_out=$(ip netns exec "$S" ss -Hltn "sport = :$PORT")
note "listening: $ss_out"
[ "$(awk '{print $4}' <<<"$ss_out")" = "$SRV:$PORT" ] || fail "--bind $SRV listens on: $ss_out"
expect_exit 1 ip netns exec "$S" "$WR" stream --client 127.0.0.1 --port $PORT -l 0.2
client $SRV --port $PORT -l 0.3 --json >"$D/c" || fail "client to the bound address: exit $?"
# Root was dropped after listening: the server and its sessions run as
# nobody (Uid: real, effective, saved, filesystem).
uid=$(awk '/^Uid:/ {print $2 $3 $4 $5}' /proc/$sp/status)
nobody=$(id -u nobody)
[ "$uid" = "$nobody$nobody$nobody$nobody" ] || fail "the server's Uid line is $(grep Uid /proc/$sp/status), want $nobody"
grep -q '^Groups:[[:space:]]*$' /proc/$sp/status || fail "supplementary groups kept: $(grep Groups /proc/$sp/status)"
stop_server
[ "$(jq -r '.bind == "'$SRV'" and .user == "nobody" and .open and (.sessions | length) == 1 and .sessions[0].ok' "$D/srv")" = true ] ||
	fail "server output: $(cat "$D/srv")"
# loopback only, or a token: not open
start_server --bind 127.0.0.1 --json
stop_server
jq -e '.open == false' "$D/srv" >/dev/null || fail "a loopback server said open: $(cat "$D/srv")"
start_server --bind 2001:2:0:100::1
client 2001:2:0:100::1 --port $PORT -l 0.3 >/dev/null || fail "client over IPv6 to the bound address: exit $?"
[ -z "$(ip netns exec "$S" ss -Hltn "sport = :$PORT" | grep -v '\[2001:2:0:100::1\]')" ] || fail "--bind IPv6 listens elsewhere too"
expect_exit 1 ip netns exec "$S" "$WR" stream --client $SRV --port $PORT -l 0.2
stop_server

# Hostile clients do not keep a real one out. With 3 sessions at once:
# .3 opens 10 idle connections (2 awaited, 8 turned away at once), .4 takes
# its 2 sessions of 60 s and sends nothing (a third is refused), .5 sends a
# request a byte every 0.3 s, another asks for 24 h. The real client (.2)
# then gets the third slot and its 0.5 s run takes under 3 s: 0.5 s of
# sending, 0.5 s of the server's grace, the rest slack for a loaded host
# (refused clients held the loop 1 s each: 5 idle ones cost 5 s).
start_server --max-sessions 3 --json
peer hold 198.18.100.4 3 >"$D/hold" &
hp=$!
peer idle 198.18.100.3 10 20 >"$D/idle" &
ip=$!
peer slow 198.18.100.5 >"$D/slow" &
slp=$!
for _ in $(seq 50); do [ "$(wc -l <"$D/hold")" = 3 ] && grep -q connected "$D/idle" && break; sleep 0.1; done
note "hold: $(tr '\n' '|' <"$D/hold") idle: $(cat "$D/idle")"
[ "$(head -2 "$D/hold" | grep -c '^OK port=')" = 2 ] || fail "the first two sessions from .4 were not served: $(cat "$D/hold")"
[ "$(sed -n 3p "$D/hold")" = "ERR busy per_peer=2" ] || fail "a third session from .4: $(sed -n 3p "$D/hold")"
t0=$(date +%s%N)
err=$(timeout 10 ip netns exec "$C" "$WR" stream --client $SRV --port $PORT -l 24h 2>&1 >/dev/null)
rc=$? ms=$(ms_since $t0)
note "24 h asked for -> $rc in $ms ms: $err"
[ $rc = 1 ] && grep -q 'allows runs of at most 60 s' <<<"$err" || fail "a 24 h run: exit $rc: $err"
[ $ms -lt 2000 ] || fail "the 24 h refusal took $ms ms"	# at once: ~0.1 s, the rest slack for load
t0=$(date +%s%N)
client $SRV --port $PORT -l 0.5 --json >"$D/real" || fail "the real client among hostile ones: exit $?"
ms=$(ms_since $t0)
note "the real client's 0.5 s run among hostile ones: $ms ms"
[ $ms -lt 3000 ] || fail "the real client took $ms ms among hostile ones"
[ "$(jq -r '.receive.messages > 0' "$D/real")" = true ] || fail "real client's counts: $(cat "$D/real")"
# cut 2 s after its connect; the helper reads the answer after its next
# byte (0.3 s on), so 2-4 s allows for a loaded host
wait_bounded $slp 15
note "slow request: $(cat "$D/slow")"
grep -Eq '^ERR no request in time [23]\.[0-9]$' "$D/slow" || fail "the slow request was not cut at 2 s: $(cat "$D/slow")"
kill $hp $ip 2>/dev/null; wait $hp $ip 2>/dev/null
stop_server
note "server: $(jq -c '[.sessions[] | .error // "ok"] | group_by(.) | map({(.[0]): length}) | add' "$D/srv")"
[ "$(jq '[.sessions[] | select(.error == "refused: 2 connections from this address awaited already")] | length' "$D/srv")" = 8 ] ||
	fail "idle connections beyond 2 were not turned away: $(cat "$D/srv")"

# Connections that never ask cannot keep out a client that does: 64
# idle ones from .3 (--max-per-peer 64 lets one address take every
# awaited slot), and a client with the token is still served at once,
# the oldest idle connection turned away for it.
start_server --max-per-peer 64 --token-file "$D/tok" --json
peer idle 198.18.100.3 64 5 >"$D/idle64" &
ip=$!
for _ in $(seq 50); do grep -q connected "$D/idle64" && break; sleep 0.1; done
client $SRV --port $PORT -l 0.3 --token-file "$D/tok" >"$D/c" 2>&1 ||
	fail "a client with the token among 64 idle connections: exit $?: $(cat "$D/c")"
kill $ip 2>/dev/null; wait $ip 2>/dev/null
stop_server
note "idle: $(cat "$D/idle64"); server: $(jq -c '[.sessions[] | .error // "ok" | sub("[0-9.]+ s"; "N s")] | group_by(.) | map({(.[0]): length}) | add' "$D/srv")"
grep -q '^connected 64$' "$D/idle64" || fail "the 64 idle connections: $(cat "$D/idle64")"
jq -e '[.sessions[] | select(.ok)] | length == 1' "$D/srv" >/dev/null || fail "the client was not served: $(cat "$D/srv")"
jq -e '[.sessions[] | select((.error // "") | startswith("turned away: no request in"))] | length >= 1' "$D/srv" >/dev/null ||
	fail "no idle connection turned away for the client: $(cat "$D/srv")"

# IPv6 peers are one peer per /64: eight addresses of one /64 hold two
# sessions between them (six refused as that peer's), and a client from
# another /64 is served; with --peer-prefix6 128, each address alone.
start_server --max-sessions 4 --json
hps=()
for x in 10 11 12 13 14 15 16 17; do
	ip netns exec "$C" timeout 40 $PEER hold 2001:2:0:100::1 $PORT 2001:2:0:100::$x 1 >"$D/h6-$x" &
	hps+=($!)
done
for _ in $(seq 100); do [ "$(cat "$D"/h6-* | wc -l)" = 8 ] && break; sleep 0.1; done
h6=$(cat "$D"/h6-*)
note "eight addresses of one /64: $(sed 's/port=[0-9]*.*/port=N/' <<<"$h6" | sort | uniq -c | tr -s ' \n' ' ')"
[ "$(grep -c '^OK port=' <<<"$h6")" = 2 ] || fail "one /64 held more or fewer than 2 sessions: $h6"
[ "$(grep -c '^ERR busy per_peer=2$' <<<"$h6")" = 6 ] || fail "one /64's other addresses not refused as its: $h6"
client 2001:2:0:101::1 --port $PORT -l 0.3 >"$D/c" 2>&1 || fail "a client of another /64 among them: exit $?: $(cat "$D/c")"
kill "${hps[@]}" 2>/dev/null; wait "${hps[@]}" 2>/dev/null
stop_server
jq -e '[.sessions[] | select((.error // "") | test("from this address.s /64"))] | length == 6' "$D/srv" >/dev/null ||
	fail "the refusals do not name the /64: $(cat "$D/srv")"
start_server --max-sessions 4 --peer-prefix6 128
hps=()
for x in 10 11 12; do
	ip netns exec "$C" timeout 40 $PEER hold 2001:2:0:100::1 $PORT 2001:2:0:100::$x 1 >"$D/h6-$x" &
	hps+=($!)
done
for _ in $(seq 100); do [ "$(cat "$D"/h6-1[012] | wc -l)" = 3 ] && break; sleep 0.1; done
[ "$(cat "$D"/h6-1[012] | grep -c '^OK port=')" = 3 ] || fail "--peer-prefix6 128: $(cat "$D"/h6-1[012])"
kill "${hps[@]}" 2>/dev/null; wait "${hps[@]}" 2>/dev/null
stop_server

# A third party's datagrams are not counted: the client sends 10; 1000
# more come from another socket on its address and 1000 from another
# address. A version 1 client (no data port in HELLO) is filtered by its
# address only.
start_server
# no token, every address: the start line says it is open
head -1 "$D/srv" | grep -q '; open: no token, so anyone who reaches it may run sessions' ||
	fail "an open server's start line: $(head -1 "$D/srv")"
r2=$(peer count 198.18.100.2 2 198.18.100.3)
r1=$(peer count 198.18.100.2 1 198.18.100.3)
note "version 2: $r2; version 1: $r1"
grep -q '^RESULT msgs=10 bytes=1000 ' <<<"$r2" || fail "version 2 session counted others' datagrams: $r2"
grep -q '^RESULT msgs=10 bytes=1000 ' <<<"$r1" || fail "version 1 session counted another address's datagrams: $r1"

# A session without its END is cut 5 s past its run (1 s here), whatever
# it asked for; the bound allows 2 s for a loaded host.
r=$(peer noend 198.18.100.2 1000)
note "no END: $r"
grep -Eq '^ERR no end of the run in time [5-7]\.[0-9]$' <<<"$(tail -1 <<<"$r")" || fail "a session without END: $r"
stop_server
grep -q '^session from 198.18.100.2: no end of the run from the client in time$' "$D/srv" || fail "server's line: $(cat "$D/srv")"

# --max-duration: longer runs are refused with one line.
start_server --max-duration 2
err=$(timeout 10 ip netns exec "$C" "$WR" stream --client $SRV --port $PORT -l 3 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] && [ "$(wc -l <<<"$err")" = 1 ] && grep -q 'allows runs of at most 2 s' <<<"$err" ||
	fail "-l 3 against --max-duration 2: exit $rc: $err"
client $SRV --port $PORT -l 2 >/dev/null || fail "-l 2 against --max-duration 2: exit $?"
stop_server

# The token: none or another is refused, the server's is served; it is
# printed nowhere. A version 1 request gets ERR auth.
start_server --token-file "$D/tok" --json
err=$(timeout 10 ip netns exec "$C" "$WR" stream --client $SRV --port $PORT -l 0.3 2>&1 >/dev/null); rc=$?
[ $rc = 1 ] && grep -q 'refused the token' <<<"$err" || fail "no token: exit $rc: $err"
err=$(timeout 10 ip netns exec "$C" "$WR" stream --client $SRV --port $PORT -l 0.3 --token-file "$D/tok2" 2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] && grep -q 'refused the token' <<<"$err" || fail "another token: exit $rc: $err"
[ "$(peer line 198.18.100.2 'HELLO size=100 duration_ms=100')" = "ERR auth" ] || fail "version 1 request to a token server"
client $SRV --port $PORT -l 0.3 --token-file "$D/tok" >"$D/c" 2>&1 || fail "the server's token: exit $?: $(cat "$D/c")"
stop_server
note "token server: $(jq -c '[.sessions[] | .error // "ok"]' "$D/srv")"
[ "$(jq -r '.token and (.open | not) and ([.sessions[] | .ok] == [false, false, false, true])' "$D/srv")" = true ] ||
	fail "token server's sessions: $(cat "$D/srv")"
! grep -rq 's3cret' "$D/srv" "$D/srv.err" "$D/c" || fail "the token was printed"

# A peer's bytes never reach the output raw: escape sequences and a byte
# that is not UTF-8, in a request, in an END, and from a server to the
# client. The server's text and JSON output and the client's error are
# plain ASCII, and the JSON parses.
bad='HELLO size=100 duration_ms=100 \x1b]0;pwned\x07\x1b[31m\xff'
for mode in text json; do
	start_server $([ $mode = json ] && echo --json)
	peer line 198.18.100.2 "$bad" >/dev/null
	peer badend 198.18.100.2 'END \x1b]0;pwned\x07\x1b[31m\xff' >/dev/null
	peer line 198.18.100.2 '\xff\xfe\x1b[2J' >/dev/null
	stop_server
	note "$mode: $(tr -c '[:print:]\n' '?' <"$D/srv" | tail -3 | tr '\n' '|')"
	LC_ALL=C grep -q '[^[:print:][:space:]]' "$D/srv" "$D/srv.err" && fail "raw bytes in the server's $mode output: $(od -c "$D/srv" | head)"
	[ $mode = text ] || jq -e '.sessions | length == 3' "$D/srv" >/dev/null || fail "the server's JSON: $(cat "$D/srv")"
	want="unexpected from the client: 'END \\x1b]0;pwned\\x07\\x1b[31m\\xff'"
	if [ $mode = json ]; then
		[ "$(jq -r '.sessions[1].error' "$D/srv")" = "$want" ] || fail "the END not quoted: $(cat "$D/srv")"
	else
		grep -Fq "$want" "$D/srv" || fail "the END not quoted: $(cat "$D/srv")"
	fi
done
ip netns exec "$S" timeout 15 $PEER server 127.0.0.1 $PORT 198.18.100.1 'ERR \x1b]0;pwned\x07\xff' >"$D/fake" &
fp=$!
for _ in $(seq 50); do grep -q listening "$D/fake" && break; sleep 0.1; done
err=$(timeout 10 ip netns exec "$C" "$WR" stream --client $SRV --port $PORT -l 0.2 2>&1 >/dev/null); rc=$?
wait_bounded $fp 5
note "from a hostile server -> $rc: $(tr -c '[:print:]\n' '?' <<<"$err")"
[ $rc = 1 ] || fail "client of a hostile server: exit $rc"
LC_ALL=C grep -q '[^[:print:]]' <<<"$err" && fail "raw bytes in the client's error: $(od -c <<<"$err" | head)"
grep -Fq "the server refused: '\\x1b]0;pwned\\x07\\xff'" <<<"$err" || fail "the server's text not quoted: $err"
# A server's count beyond what the store holds (2^64-1, a -1 as a signed
# count) is refused, never stored wrapped.
ip netns exec "$S" timeout 15 $PEER result 127.0.0.1 $PORT 198.18.100.1 \
	'RESULT msgs=18446744073709551615 bytes=100 elapsed_ns=1000 rcvbuf=212992 drops=0' >"$D/fake" &
fp=$!
for _ in $(seq 50); do grep -q listening "$D/fake" && break; sleep 0.1; done
err=$(timeout 10 ip netns exec "$C" "$WR" stream --client $SRV --port $PORT -l 0.2 2>&1 >/dev/null); rc=$?
wait_bounded $fp 5
note "a count of 2^64-1 -> $rc: $err"
[ $rc = 1 ] && grep -q "the server's counts do not read" <<<"$err" || fail "a count out of range: exit $rc: $err"
echo ok
