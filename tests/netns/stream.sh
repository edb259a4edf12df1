# wirerate stream (netperf's UDP_STREAM): lab mode through the DUT, a
# server and a client in the lab's namespaces, bad input, and Ctrl-C on the
# client. Traffic only inside the lab (to 198.19.0.2) or on loopback.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || skip "no jq"

D=$(mktemp -d /tmp/wr-stream.XXXXXX)
trap 'for p in $(jobs -p); do kill "$p" 2>/dev/null; done; rm -rf "$D"; cleanup' EXIT
# wait_bounded PID SECS: wait for PID, at most SECS; its exit status
wait_bounded() {
	local pid=$1 n=$(( $2 * 10 ))
	while kill -0 "$pid" 2>/dev/null && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; fail "pid $pid still running after $2 s"; }
	wait "$pid"
}
no_stream_left() {
	! pgrep -f "wirerate stream.*(--port $1|--prefix $P)" >/dev/null || fail "a stream process is left: $(pgrep -af 'wirerate stream')"
}

# Bad input: one line, exit 2, before anything is sent.
t() { expect_exit 2 "$WR" stream "$@"; }
t --server --client 127.0.0.1
t --client nosuch.invalid -l 1
t --client 127.0.0.1 -m 0
t --client 127.0.0.1 -m 65508
t --client 127.0.0.1 -m big
t --client 127.0.0.1 -l 0
t --client 127.0.0.1 -l forever
t --client 127.0.0.1 --port 0
t --client 127.0.0.1 --port 65536
t --client 127.0.0.1 --port x
t --client 127.0.0.1 --bogus
t --client 127.0.0.1 extra
t --client ''
t --once
t --server -m 100
t --client 127.0.0.1 --prefix "$P"
t --prefix bad/x
t -m
# No server there, no lab: one line, exit 1.
expect_exit 1 "$WR" stream --client 127.0.0.1 --port 1 -l 1
expect_exit 1 "$WR" stream --prefix "$P" -l 1
"$WR" stream --help | grep -q -- '--message-size' || fail "--help"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"

# Lab mode: the figures are consistent with one another.
timeout 10 "$WR" stream --prefix "$P" -l 2 -m 1025 --json >"$D/j" || fail "lab mode exit $?"
j=$(cat "$D/j")
note "$(jq -c '{send, receive, lost, lost_pct}' <<<"$j")"
ok=$(jq -r '
	def near(a; b): (a - b | fabs) <= 0.01 * b;
	.send.okay > 0 and .receive.messages > 0 and .receive.messages <= .send.okay
	and .send.message_size == 1025 and .send.bytes == .send.okay * 1025
	and .receive.bytes == .receive.messages * 1025
	and (.send.elapsed_s > 1.9 and .send.elapsed_s < 2.2) and .receive.elapsed_s > 1.5
	and near(.send.throughput_mbps; .send.okay * 1025 * 8 / .send.elapsed_s / 1e6)
	and near(.receive.throughput_mbps; .receive.messages * 1025 * 8 / .receive.elapsed_s / 1e6)
	and .lost == .send.okay - .receive.messages and .receive.socket_drops <= .lost and .interrupted == false
	and .lab == "'"$P"'" and .address == "198.19.0.2"' <<<"$j")
[ "$ok" = true ] || fail "lab mode figures: $j"
timeout 10 "$WR" stream --prefix "$P" -l 1 -m 200 >"$D/t" || fail "lab mode (text) exit $?"
cat "$D/t"
grep -q '^UDP UNIDIRECTIONAL SEND TEST from 0.0.0.0 (0.0.0.0) port 0 AF_INET to 198.19.0.2 (198.19.0.2) port 0 AF_INET$' "$D/t" || fail "title"
grep -q '^Socket  Message  Elapsed      Messages$' "$D/t" || fail "header 1"
grep -q '^Size    Size     Time         Okay Errors   Throughput$' "$D/t" || fail "header 2"
grep -q '^bytes   bytes    secs            #      #   10^6bits/sec$' "$D/t" || fail "header 3"
grep -Eq '^ *[0-9]+ +200 +1\.0[0-9] +[0-9]+ +[0-9]+ +[0-9.]+$' "$D/t" || fail "the sender's line"
grep -Eq '^lost [0-9]+ \([0-9.]+%\) of the messages sent okay; the receiving socket dropped [0-9]+ ' "$D/t" || fail "the lost line"
# The lab is held during the run: a second user is refused.
timeout 10 "$WR" stream --prefix "$P" -l 2 >/dev/null &
lp=$!
sleep 0.5
expect_exit 1 "$WR" stream --prefix "$P" -l 1
wait_bounded $lp 5 || fail "the first lab run failed"

# Server and client across the lab's namespaces; the server ends by itself.
PORT=$((20000 + $$ % 20000))
ip netns exec "${P}sink" "$WR" stream --server --once --port $PORT --json >"$D/srv" 2>&1 &
sp=$!
sleep 0.3
timeout 10 ip netns exec "${P}gen" "$WR" stream --client 198.19.0.2 --port $PORT -l 1 --json >"$D/cli" ||
	fail "client exit $?"
wait_bounded $sp 3 || fail "server exit $?"
note "server: $(jq -c . "$D/srv")"
note "client: $(jq -c '{send, receive}' "$D/cli")"
[ "$(jq -r '.send.okay > 0 and .receive.messages > 0 and .receive.messages <= .send.okay' "$D/cli")" = true ] ||
	fail "client figures: $(cat "$D/cli")"
[ "$(jq -r --slurpfile c "$D/cli" '.sessions | length == 1 and .[0].ok and .[0].messages == $c[0].receive.messages
	and .[0].client_sent == $c[0].send.okay and .[0].client == "198.18.0.1"' "$D/srv")" = true ] ||
	fail "server's session: $(cat "$D/srv")"

# Loopback, plain text, no namespaces of the lab.
"$WR" stream --server --once --port $PORT >"$D/srv" 2>&1 &
sp=$!
sleep 0.3
timeout 10 "$WR" stream --client 127.0.0.1 --port $PORT -l 0.5 -m 64 >"$D/cli" || fail "loopback client exit $?"
wait_bounded $sp 3 || fail "loopback server exit $?"
grep -q '^session from 127.0.0.1: ' "$D/srv" || fail "server's line: $(cat "$D/srv")"

# Ctrl-C on the client: it stops sending, still gets the server's counts,
# prints the block marked interrupted and exits 130; the server ends too.
ip netns exec "${P}sink" "$WR" stream --server --once --port $PORT >"$D/srv" 2>&1 &
sp=$!
sleep 0.3
ip netns exec "${P}gen" "$WR" stream --client 198.19.0.2 --port $PORT -l 30 >"$D/cli" 2>&1 &
cp=$!
sleep 1
kill -INT $cp
rc=0; wait_bounded $cp 3 || rc=$?
cat "$D/cli"
[ $rc = 130 ] || fail "client exit $rc after SIGINT, want 130"
grep -Eq '^interrupted after [01]\.[0-9]+ s of 30\.00 s$' "$D/cli" || fail "not marked interrupted"
grep -Eq '^ *[0-9]+ +1025 +[01]\.[0-9]+ +[1-9][0-9]* +[0-9]+ +[0-9.]+$' "$D/cli" || fail "no sender's line"
wait_bounded $sp 3 || fail "server exit $? after the client's Ctrl-C"

# Ctrl-C in lab mode: the same, with --json.
"$WR" stream --prefix "$P" -l 30 --json >"$D/j" &
cp=$!
sleep 1
kill -INT $cp
rc=0; wait_bounded $cp 3 || rc=$?
[ $rc = 130 ] || fail "lab mode exit $rc after SIGINT, want 130"
[ "$(jq -r '.interrupted and .send.elapsed_s < 2 and .send.okay > 0 and .receive.messages > 0' "$D/j")" = true ] ||
	fail "lab mode interrupted: $(cat "$D/j")"

# Nothing left: no stream process, the lab free and up.
sleep 0.2
no_stream_left $PORT
[ "$(labjq "$P" .state)" = up ] || fail "lab hurt"
[ "$(labjq "$P" '.in_use_by // ""')" = "" ] || fail "the lab is still held: $(labjq "$P" .in_use_by)"
echo ok
