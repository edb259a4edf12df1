# wirerate stream (netperf's UDP_STREAM): lab mode through the DUT, a
# server and a client in the lab's namespaces, bad input, Ctrl-C on the
# client, sessions at once and their bound, and Ctrl-C on a server with a
# session in progress. Traffic only inside the lab (to 198.19.0.2) or on
# loopback.
. "$(dirname "$0")/lib.sh"
command -v jq >/dev/null || fail "no jq (scripts/deps.sh installs it)"

D=$(mktemp -d /tmp/wr-stream.XXXXXX)
trap 'for p in $(jobs -p); do kill "$p" 2>/dev/null; done; rm -rf "$D"; cleanup' EXIT
# wait_bounded PID SECS: wait for PID, at most SECS; its exit status
wait_bounded() {
	local pid=$1 n=$(( $2 * 10 ))
	while kill -0 "$pid" 2>/dev/null && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
	kill -0 "$pid" 2>/dev/null && { kill -9 "$pid"; fail "pid $pid still running after $2 s"; }
	wait "$pid"
}
# listening [NETNS]: wait until the server listens on $PORT (5 s at most:
# a server built with sanitizers on a loaded host took over 0.3 s)
listening() {
	local n=50
	while [ $n -gt 0 ]; do
		[ -n "$(${1:+ip netns exec "$1"} ss -Hlnt "sport = :$PORT")" ] && return 0
		sleep 0.1
		n=$((n - 1))
	done
	fail "no server listening on port $PORT after 5 s"
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
t --server --max-sessions 0
t --server --max-sessions 257
t --server --max-sessions x
t --server --once --max-sessions 2
t --client 127.0.0.1 --max-sessions 2
t --max-sessions 2
t --client 127.0.0.1 --prefix "$P"
t --server --dut local
t --server --soak
t --client 127.0.0.1 --soak
t --client 127.0.0.1 --watch-cpus 0
t --client 127.0.0.1 --dut ssh:
t --client 127.0.0.1 --dut lab --ssh-option BatchMode=yes
t --watch-cpus x
t --prefix bad/x
t -m
# -I and -i: netperf's values only
t --client 127.0.0.1 -I 90
t --client 127.0.0.1 -I 99,0
t --client 127.0.0.1 -I 99,51
t --client 127.0.0.1 -I x
t --client 127.0.0.1 -I 95 -i 31
t --client 127.0.0.1 -I 95 -i 5,6
t --client 127.0.0.1 -I 95 -i 0
t --client 127.0.0.1 -i 5
t --server -I 95
# -c, -C and -T (netperf's): the client's; CPU numbers that are online
t --server -c
t --server -T 0
t --client 127.0.0.1 -T x
t --client 127.0.0.1 -T 0,x
t --client 127.0.0.1 -T 0,1,1
t --client 127.0.0.1 -T ,
t --client 127.0.0.1 -T ''
t --client 127.0.0.1 -T -1
t --client 127.0.0.1 -T 4096
t --client 127.0.0.1 -T "$(nproc)"
t --prefix "$P" -T 0,"$(nproc)"
# --threads and --cpus: one sender per CPU, the client's
t --client 127.0.0.1 --threads 0
t --client 127.0.0.1 --threads 65
t --client 127.0.0.1 --threads x
t --client 127.0.0.1 --cpus "$(nproc)"
t --client 127.0.0.1 --cpus x
t --client 127.0.0.1 --threads 3 --cpus 0,1
t --client 127.0.0.1 --cpus 0 -T 0
t --server --threads 2
t --server --cpus 0
t --prefix "$P" --threads 2 --port 5000
t --server --profile
t --server --db "$D/no.db"
t --server --label x
t --server --no-store
t --client 127.0.0.1 --profile
t --prefix "$P" --profile-hz 100
t --prefix "$P" --profile --profile-hz 0
t --prefix "$P" --profile --profile-top 21
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
# Each end's CPU (netperf's -c/-C figures, always in JSON): unpinned, all
# of the host's CPUs, busy 0..100%, and netperf's service demand from it:
# busy x CPUs x elapsed us / KB moved, within 1% (rounding of busy_ppm).
note "CPU: $(jq -c '{send: .send.cpu, receive: .receive.cpu}' <<<"$j")"
[ "$(jq -r --argjson n "$(nproc)" '
	def sd(c; ns; b): c.busy_pct / 100 * c.cpus * ns / 1000 / (b / 1024);
	def near(a; b): (a - b | fabs) <= 0.01 * b;
	[.send.cpu, .receive.cpu] | all(.cpu == null and .cpus == $n and .busy_pct > 0 and .busy_pct <= 100)' <<<"$j")" = true ] &&
[ "$(jq -r '
	def sd(c; ns; b): c.busy_pct / 100 * c.cpus * ns / 1000 / (b / 1024);
	def near(a; b): (a - b | fabs) <= 0.01 * b;
	near(.send.cpu.service_demand_us_per_kb; sd(.send.cpu; .send.elapsed_ns; .send.bytes))
	and near(.receive.cpu.service_demand_us_per_kb; sd(.receive.cpu; .receive.elapsed_ns; .receive.bytes))' <<<"$j")" = true ] ||
	fail "the ends' CPU: $(jq -c '{send, receive}' <<<"$j")"
# What it cost the lab's DUT: its CPUs over the sending window, per
# datagram it forwarded (received, or dropped by the receiving socket; one
# frame each at 1025 bytes), and netperf's service demand from the same
# CPU time: ns per datagram / 1000 x 1024 / 1025 us per KB, within 1%.
note "DUT: $(jq -c '{cpus: [.dut_cpu.cpus[].cpu], ns_per_frame: .dut_cpu.ns_per_frame, sd: .dut_service_demand_us_per_kb}' <<<"$j")"
dut_cpus=$(labjq "$P" '.dut.cpus')
[ "$(jq -r --arg c "$dut_cpus" '[.dut_cpu.cpus[].cpu | tostring] | join(",") == $c' <<<"$j")" = true ] ||
	fail "the DUT CPUs read are not the lab's ($dut_cpus): $(jq -c .dut_cpu <<<"$j")"
[ "$(jq -r '.dut_forwarded == .receive.messages + .receive.socket_drops
	and .dut_cpu.ns_per_frame > 0 and .dut_cpu.seconds > 1.5 and .dut_cpu.seconds < 2.5
	and (.dut_service_demand_us_per_kb - .dut_cpu.ns_per_frame / 1000 * 1024 / 1025 | fabs)
	    <= 0.01 * .dut_service_demand_us_per_kb' <<<"$j")" = true ] ||
	fail "the DUT's cost: $(jq -c '{dut_cpu, dut_service_demand_us_per_kb}' <<<"$j")"
# -I: runs until the mean's interval is narrow enough, or -i's most. The
# verdict must follow from the runs it lists: the t-interval of their
# mean (Student's t at 95%, n - 1 degrees of freedom) recomputed here,
# achieved only within the width asked and then after at least -i's
# least, and all -i's runs when not achieved. A generous width (50%:
# +-25%) stops early where the lab's runs agree within about 10%.
timeout 40 "$WR" stream --prefix "$P" -l 0.5 -I 95,50 -i 6,3 --json >"$D/ci" 2>"$D/ci.err" || fail "-I exit $?"
note "-I 95,50 -i 6,3: $(jq -c .confidence "$D/ci")"
/usr/bin/python3 - "$D/ci" <<'PY' || fail "-I: $(jq -c .confidence "$D/ci")"
import json, math, sys
c = json.load(open(sys.argv[1]))["confidence"]
v = c["runs_mbps"]; n = len(v)
t95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447]
assert c["runs"] == n and 1 <= n <= 6, c
assert c["level_pct"] == 95 and c["width_pct"] == 50, c
mean = sum(v) / n
assert abs(c["mean_mbps"] - mean) <= 1e-6 * mean, (c["mean_mbps"], mean)
if n >= 2:
    sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1))
    hw = t95[n - 2] * sd / math.sqrt(n) / mean * 100
    assert abs(c["interval_pct"] - hw) <= 1e-6 * max(hw, 1), (c["interval_pct"], hw)
if c["achieved"]:
    assert n >= 3 and c["interval_pct"] <= 25, c
else:
    assert n == 6 and (c["interval_pct"] is None or c["interval_pct"] > 25), c
PY
[ "$(grep -c '^stream: run [0-9]*: ' "$D/ci.err")" = "$(jq -r .confidence.runs "$D/ci")" ] || fail "-I: a line per run: $(cat "$D/ci.err")"
[ "$(jq -r .confidence "$D/j")" = null ] || fail "without -I, confidence is not null"
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
listening "${P}sink"
timeout 10 ip netns exec "${P}gen" "$WR" stream -H 198.19.0.2 -p $PORT -l 1 --dut "lab:$P" --json >"$D/cli" ||
	fail "client exit $?"
wait_bounded $sp 3 || fail "server exit $?"
note "server: $(jq -c . "$D/srv")"
note "client: $(jq -c '{send, receive}' "$D/cli")"
[ "$(jq -r '.send.okay > 0 and .receive.messages > 0 and .receive.messages <= .send.okay' "$D/cli")" = true ] ||
	fail "client figures: $(cat "$D/cli")"
# a client names the DUT it crosses with --dut, and reads it as lab mode does
[ "$(jq -r '.dut_cpu.ns_per_frame > 0 and .dut_service_demand_us_per_kb > 0' "$D/cli")" = true ] ||
	fail "client --dut lab: $(jq -c '{dut_cpu, dut_service_demand_us_per_kb}' "$D/cli")"
[ "$(jq -r --slurpfile c "$D/cli" '.sessions | length == 1 and .[0].ok and .[0].messages == $c[0].receive.messages
	and .[0].client_sent == $c[0].send.okay and .[0].client == "198.18.0.1"' "$D/srv")" = true ] ||
	fail "server's session: $(cat "$D/srv")"

# -T 0,1 -c -C across the lab's namespaces: the sender runs on CPU 0 and
# the server's session (a process of its own) on CPU 1, as /proc says
# while they run, and each end's figure is of that one CPU. Text: the
# block gains netperf's two columns and a line saying whose CPU each is.
ip netns exec "${P}sink" "$WR" stream --server --port $PORT >"$D/srv" 2>&1 &
sp=$!
listening "${P}sink"
ip netns exec "${P}gen" "$WR" stream -H 198.19.0.2 -p $PORT -l 2 -T 0,1 -c -C >"$D/cli" 2>&1 &
cp=$!
sleep 1
allowed() { sed -n 's/^Cpus_allowed_list:\t*//p' /proc/"$1"/task/*/status 2>/dev/null | sort -u | tr '\n' ' '; }
send_on=$(allowed $cp)
sess_on=$(for p in $(pgrep -f "wirerate stream --server --port $PORT"); do [ "$p" = $sp ] || allowed "$p"; done)
wait_bounded $cp 8 || fail "-T 0,1 client exit $?: $(cat "$D/cli")"
kill -INT $sp; wait_bounded $sp 8 || fail "server exit $? after Ctrl-C"
cat "$D/cli"
note "-T 0,1: the sender's threads allowed on '$send_on', the session's on '$sess_on'"
[ "$send_on" = "0 " ] || fail "-T 0,1: the sender runs on '$send_on', want 0"
[ "$sess_on" = "1 " ] || fail "-T 0,1: the server's session runs on '$sess_on', want 1"
grep -q '^Socket  Message  Elapsed      Messages                   CPU      Service$' "$D/cli" || fail "-c -C header 1"
grep -q '^bytes   bytes    secs            #      #   10^6bits/sec % S      us/KB$' "$D/cli" || fail "-c -C header 3"
grep -Eq '^ *[0-9]+ +1025 +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$D/cli" || fail "-c -C: the sender's line"
grep -q "the sender's is CPU 0, the receiver's CPU 1$" "$D/cli" || fail "-c -C: whose CPU"

# --profile: where the lab DUT's CPU went over the stream, sampled on the
# DUT as a trial's is (trial_profile.sh tests what it names).
timeout 15 "$WR" stream --prefix "$P" -l 1 --profile --json >"$D/prof" || fail "--profile exit $?"
note "profile: $(jq -c '.dut_cpu.profile | {samples, busy_pct, softirq_pct, top: [.top[0:3][] | .symbol]}' "$D/prof")"
[ "$(jq -r '.dut_cpu.profile | .samples >= 100 and .hz == 999 and (.top | length) >= 3' "$D/prof")" = true ] ||
	fail "--profile: $(jq -c .dut_cpu.profile "$D/prof")"

# Stored runs: each stream is a run of its own (test "stream", one trial
# per run of -I), and report compares two with what each end's and the
# DUT's service demand did; the report's figures are the stored ones.
S="$D/s.db"
timeout 15 "$WR" stream --prefix "$P" -l 1 -T 0,1 --db "$S" --label s-one --json >"$D/s1" || fail "stored stream exit $?"
timeout 30 "$WR" stream --prefix "$P" -l 0.5 -T 0,1 -I 95,50 -i 3,2 --db "$S" --label s-two --json >"$D/s2" 2>/dev/null ||
	fail "stored stream -I exit $?"
timeout 15 "$WR" stream --prefix "$P" -l 0.5 --no-store --db "$S" --json >/dev/null || fail "--no-store exit $?"
runs=$("$WR" runs --db "$S" --json)
note "runs: $(jq -c '[.runs[] | {id, label, test: .test, status, headline}]' <<<"$runs")"
[ "$(jq -r '.runs | length == 2 and all(.test == "stream" and .status == "complete")
	and (.[0].headline | test("^[0-9.]+ Mb/s received of [0-9.]+ sent \\(1025 B\\), loss [0-9.]+%$"))' <<<"$runs")" = true ] ||
	fail "stored streams: $runs"
[ "$(jq -r .run_id "$D/s1")" = "$(jq -r '.runs[] | select(.label == "s-one") | .id' <<<"$runs")" ] ||
	fail "stream --json's run_id is not the stored run's"
rep=$("$WR" report s-one s-two --db "$S" --json)
note "report: $(jq -c '[.runs[].cells[0] | {verdict, stream}]' <<<"$rep")"
[ "$(jq -r --slurpfile a "$D/s1" --slurpfile b "$D/s2" '
	def near(x; y): (x - y | fabs) <= 0.001 * y;
	.runs[0].cells[0].stream as $x | .runs[1].cells[0].stream as $y
	| $x.runs == 1 and $y.runs == $b[0].confidence.runs and $x.senders == 1
	and near($x.received_mbps; $a[0].receive.throughput_mbps)
	and near($x.receive_service_demand_us_per_kb; $a[0].receive.cpu.service_demand_us_per_kb)
	and near($x.send_service_demand_us_per_kb; $a[0].send.cpu.service_demand_us_per_kb)
	and near($x.dut_service_demand_us_per_kb; $a[0].dut_service_demand_us_per_kb)
	and ($y.received_min_mbps <= $y.received_mbps and $y.received_mbps <= $y.received_max_mbps)
	and .runs[0].cells[0].verdict == "baseline"
	and (.runs[1].cells[0].verdict | IN("better", "worse", "noise"))' <<<"$rep")" = true ] ||
	fail "report of two streams: $(jq -c '[.runs[].cells[0]]' <<<"$rep")"
"$WR" report s-one s-two --db "$S" >"$D/rep"
grep -q '^  stream (10^6 bits/s received' "$D/rep" || fail "report: no stream table: $(cat "$D/rep")"
grep -q "s-two, 1025 B: the receiver's service demand went from [0-9.]* to [0-9.]* us/KB" "$D/rep" ||
	fail "report: no service demand line: $(cat "$D/rep")"
# the same figures in the HTML page's stream table and in the CSV
"$WR" report s-one s-two --db "$S" --html "$D/rep.html" >/dev/null || fail "report --html"
grep -q '<h2>Streams by message size</h2>' "$D/rep.html" || fail "report --html: no stream table"
want=$(jq -r '.runs[0].cells[0].stream.received_mbps * 10 | round / 10 | tostring' <<<"$rep")
grep -q ">$want Mb/s<" "$D/rep.html" || grep -q ">$want.0 Mb/s<" "$D/rep.html" ||
	fail "report --html: the baseline's $want Mb/s is not in its stream table"
"$WR" report s-one s-two --db "$S" --csv >"$D/rep.csv" || fail "report --csv"
[ "$(/usr/bin/python3 - "$D/rep.csv" "$(jq .confidence.runs "$D/s2")" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows) == 2 and all(float(r["stream_received_mbps"]) > 0 and r["stream_receive_sd_us_per_kb"] != ""
                             for r in rows) and rows[1]["stream_runs"] == sys.argv[2])
PY
)" = True ] || fail "report --csv: stream columns: $(cat "$D/rep.csv")"

# Several senders: --cpus 0,1 in lab mode, a sender (a thread, a socket
# and a server of its own) on each CPU; the total is their sum, its
# elapsed time the longest, and the lab's DUT read once over them all.
timeout 15 "$WR" stream --prefix "$P" -l 2 --cpus 0,1 --json >"$D/two" || fail "--cpus 0,1 exit $?"
note "two senders: $(jq -c '[.senders[] | {cpu, okay, messages, send_busy_pct}]' "$D/two"), total $(jq -c '{sent: .send.okay, recv: .receive.messages}' "$D/two")"
[ "$(jq -r '(.senders | length == 2 and map(.cpu) == [0, 1] and all(.okay > 0 and .messages > 0 and .messages <= .okay))
	and .send.okay == (.senders | map(.okay) | add) and .receive.messages == (.senders | map(.messages) | add)
	and .send.bytes == (.senders | map(.sent_bytes) | add)
	and .send.elapsed_ns == (.senders | map(.send_elapsed_ns) | max)
	and .send.cpu.cpus == 2 and .send.cpu.cpu == null
	and .dut_forwarded == .receive.messages + .receive.socket_drops and .dut_cpu.ns_per_frame > 0' "$D/two")" = true ] ||
	fail "--cpus 0,1: $(jq -c '{senders, send, receive}' "$D/two")"
[ "$(jq -r '.senders | length == 1 and .[0].cpu == null' "$D/j")" = true ] || fail "one sender: senders $(jq -c .senders "$D/j")"
# ... and against a server, each sender's thread on its CPU as /proc says
# while they run (the main thread where it may).
ip netns exec "${P}sink" "$WR" stream --server --port $PORT >"$D/srv" 2>&1 &
sp=$!
listening "${P}sink"
ip netns exec "${P}gen" "$WR" stream -H 198.19.0.2 -p $PORT -l 2 --cpus 0,1 >"$D/cli" 2>&1 &
cp=$!
sleep 1
threads_on=$(sed -n 's/^Cpus_allowed_list:\t*//p' /proc/$cp/task/*/status 2>/dev/null | sort | tr '\n' ' ')
wait_bounded $cp 8 || fail "--cpus 0,1 client exit $?: $(cat "$D/cli")"
kill -INT $sp; wait_bounded $sp 8 || fail "server exit $? after Ctrl-C"
cat "$D/cli"
note "--cpus 0,1: the client's threads allowed on '$threads_on'"
[ "$threads_on" = "0 0-$(( $(nproc) - 1 )) 1 " ] || fail "--cpus 0,1: threads allowed on '$threads_on', want one on 0, one on 1 and the main thread"
grep -Eq '^ +0 +0 +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9.]+$' "$D/cli" || fail "--cpus: sender 0's line"
grep -Eq '^ +1 +1 +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9.]+$' "$D/cli" || fail "--cpus: sender 1's line"
grep -q '^total of 2 senders:$' "$D/cli" || fail "--cpus: the total's line"

# Loopback, plain text, no namespaces of the lab.
"$WR" stream --server --once --port $PORT >"$D/srv" 2>&1 &
sp=$!
listening
timeout 10 "$WR" stream --client 127.0.0.1 --port $PORT -l 0.5 -m 64 >"$D/cli" || fail "loopback client exit $?"
wait_bounded $sp 3 || fail "loopback server exit $?"
grep -q '^session from 127.0.0.1: ' "$D/srv" || fail "server's line: $(cat "$D/srv")"
# A CPU the server cannot run on: its session refuses in one line, the
# client exits 1 saying so.
"$WR" stream --server --once --port $PORT >"$D/srv" 2>&1 &
sp=$!
listening
err=$(timeout 10 "$WR" stream --client 127.0.0.1 --port $PORT -l 0.5 -T ,4000 2>&1 >/dev/null)
rc=$?
note "-T ,4000 -> $rc: $err"
[ $rc = 1 ] && grep -q "cannot serve on CPU 4000" <<<"$err" || fail "-T ,4000: exit $rc: $err"
wait_bounded $sp 3 || :

# Ctrl-C on the client: it stops sending, still gets the server's counts,
# prints the block marked interrupted and exits 130; the server ends too.
ip netns exec "${P}sink" "$WR" stream --server --once --port $PORT >"$D/srv" 2>&1 &
sp=$!
listening "${P}sink"
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

# Sessions at once: two clients started together both complete, each with
# counts of its own, in about the time of one; the server then serves a
# third.
srv_procs() { pgrep -f "wirerate stream --server --port $PORT" | wc -l; }
ip netns exec "${P}sink" "$WR" stream --server --port $PORT --json >"$D/srv" 2>&1 &
sp=$!
listening "${P}sink"
t0=$(date +%s%N)
ip netns exec "${P}gen" "$WR" stream --client 198.19.0.2 --port $PORT -l 2 -m 500 --json >"$D/c1" 2>&1 &
c1=$!
ip netns exec "${P}gen" "$WR" stream --client 198.19.0.2 --port $PORT -l 2 -m 500 --json >"$D/c2" 2>&1 &
c2=$!
wait_bounded $c1 10 || fail "first client at once: exit $?: $(cat "$D/c1")"
wait_bounded $c2 10 || fail "second client at once: exit $?: $(cat "$D/c2")"
ms=$(( ($(date +%s%N) - t0) / 1000000 ))
note "two clients at once: done in $ms ms"
[ $ms -lt 4000 ] || fail "two 2-second clients took $ms ms: served one after the other?"
for c in c1 c2; do
	note "$c: $(jq -c '{send: .send.okay, recv: .receive.messages}' "$D/$c")"
	[ "$(jq -r '.send.okay > 0 and .receive.messages > 0 and .receive.messages <= .send.okay' "$D/$c")" = true ] ||
		fail "$c figures: $(cat "$D/$c")"
done
timeout 10 ip netns exec "${P}gen" "$WR" stream --client 198.19.0.2 --port $PORT -l 0.5 --json >"$D/c3" ||
	fail "third client exit $?"
kill -0 $sp 2>/dev/null || fail "the server died: $(cat "$D/srv")"
kill -INT $sp
wait_bounded $sp 3 || fail "server exit $? after Ctrl-C"
note "server: $(jq -c '[.sessions[] | {ok, messages, client_sent}]' "$D/srv")"
[ "$(jq -r --slurpfile a "$D/c1" --slurpfile b "$D/c2" --slurpfile c "$D/c3" '
	.sessions | length == 3 and all(.ok)
	and ([.[0].messages, .[1].messages] | sort) == ([$a[0].receive.messages, $b[0].receive.messages] | sort)
	and ([.[0].client_sent, .[1].client_sent] | sort) == ([$a[0].send.okay, $b[0].send.okay] | sort)
	and .[2].messages == $c[0].receive.messages' "$D/srv")" = true ] ||
	fail "server's sessions: $(cat "$D/srv")"
[ "$(srv_procs)" = 0 ] || fail "server processes left: $(pgrep -af "stream --server --port $PORT")"

# The bound: with --max-sessions 1, a second client while one is served is
# refused with one line, exit 1; the first is not disturbed.
ip netns exec "${P}sink" "$WR" stream --server --port $PORT --max-sessions 1 >"$D/srv" 2>&1 &
sp=$!
listening "${P}sink"
ip netns exec "${P}gen" "$WR" stream --client 198.19.0.2 --port $PORT -l 2 >"$D/c1" 2>&1 &
c1=$!
sleep 0.5
err=$(timeout 10 ip netns exec "${P}gen" "$WR" stream --client 198.19.0.2 --port $PORT -l 1 2>&1 >/dev/null)
rc=$?
note "beyond the bound -> $rc: $err"
[ $rc = 1 ] || fail "client beyond the bound exit $rc, want 1: $err"
[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "refusal not one line: $err"
grep -q '^wirerate: stream: the server is busy: it serves at most 1 session at once' <<<"$err" ||
	fail "refusal message: $err"
wait_bounded $c1 6 || fail "the client served beside a refusal: exit $?: $(cat "$D/c1")"
grep -q '^session from 198.18.0.1: refused: already serving 1 session, the most at once$' "$D/srv" ||
	fail "server's refusal line: $(cat "$D/srv")"

# Ctrl-C on the server with a session in progress: the session's process
# ends too, nothing is left listening or counting, the server exits 0.
ip netns exec "${P}gen" "$WR" stream --client 198.19.0.2 --port $PORT -l 3 >"$D/c1" 2>&1 &
c1=$!
n=30
while [ "$(srv_procs)" -lt 2 ] && [ $n -gt 0 ]; do sleep 0.1; n=$((n - 1)); done
[ "$(srv_procs)" = 2 ] || fail "no session's process beside the server: $(pgrep -af "stream --server --port $PORT")"
kill -INT $sp
rc=0; wait_bounded $sp 8 || rc=$?
cat "$D/srv"
[ $rc = 0 ] || fail "server exit $rc after Ctrl-C mid-session, want 0"
[ "$(srv_procs)" = 0 ] || fail "left after the server's Ctrl-C: $(pgrep -af "stream --server --port $PORT")"
grep -q '^session from 198.18.0.1: the server was stopped mid-session$' "$D/srv" || fail "no stopped session line"
[ -z "$(ip netns exec "${P}sink" ss -Hlnt "sport = :$PORT")" ] || fail "still listening on $PORT"
[ -z "$(ip netns exec "${P}sink" ss -Huan)" ] || fail "UDP sockets left in sink: $(ip netns exec "${P}sink" ss -Huan)"
rc=0; wait_bounded $c1 6 || rc=$?
[ $rc = 1 ] || fail "client of a stopped server exit $rc, want 1: $(cat "$D/c1")"

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
