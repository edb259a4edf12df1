# The host under test as the stream's sender or receiver (stream --sender
# dut, --receiver dut): in the namespace lab's DUT (the host's kernel),
# and on a DUT reached over ssh through the agent ssh starts there. The
# DUT's egress interface counts what its sender sent; its CPU figures are
# its own; the run is stored with the DUT's kernel; an older agent, bad
# CPUs and a missing DUT are refused as bad input; a tester killed
# mid-run leaves no agent and no sender on the DUT.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_ssh.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
db=$(mktemp -d /tmp/wr-streamdut.XXXXXX)
trap 'rm -rf "$db"; ssh_dut_down; cleanup' EXIT
dutcpu=$(labjq "$P" '.dut.cpus')
txp() { ip -n "${P}dut" -j -s link show "$1" | jq ".[0].stats64.tx.$2"; }

# --sender dut in the lab: the DUT namespace's sender, on the lab's DUT
# CPU, to the sink's server. dut1 counts every datagram sent okay, plus
# the control connection's few TCP segments (at most 20 here: connect,
# HELLO, END, RESULT, their ACKs and FINs).
t0=$(txp dut1 packets); d0=$(txp dut1 dropped)
j=$("$WR" stream --prefix "$P" --sender dut -l 2 -c -C --json --db "$db/r.db") || fail "--sender dut: $j"
t1=$(txp dut1 packets); d1=$(txp dut1 dropped)
okay=$(jq -r .send.okay <<<"$j"); recv=$(jq -r .receive.messages <<<"$j"); drops=$(jq -r .receive.socket_drops <<<"$j")
note "--sender dut: okay $okay, received $recv, socket drops $drops; dut1 tx $((t1 - t0)), dropped $((d1 - d0))"
[ "$okay" -gt 10000 ] || fail "the DUT sent little: $okay"
[ "$recv" -gt 1000 ] && [ $((recv + drops)) -le "$okay" ] || fail "received $recv + $drops of $okay"
out=$((t1 - t0 + d1 - d0))
[ "$out" -ge "$okay" ] && [ "$out" -le $((okay + 20)) ] || fail "dut1 put out $out for $okay sent okay"
[ "$(jq -r .dut_end <<<"$j")" = sender ] || fail "dut_end: $(jq -c .dut_end <<<"$j")"
[ "$(jq -r '.dut_ports | length == 1 and .[0].port == "dut1" and .[0].matches' <<<"$j")" = true ] ||
	fail "dut1's count: $(jq -c .dut_ports <<<"$j")"
[ "$(jq -r .dut_kernel <<<"$j")" = "$(uname -r)" ] || fail "dut_kernel: $(jq -r .dut_kernel <<<"$j")"
# the sender ran on the lab's DUT CPU and measured it there
[ "$(jq -r .send.cpu.cpu <<<"$j")" = "$dutcpu" ] || fail "sender's CPU $(jq -c .send.cpu <<<"$j"), not the DUT's $dutcpu"
[ "$(jq -r '.send.cpu.busy_pct > 0 and .receive.cpu.busy_pct > 0' <<<"$j")" = true ] ||
	fail "CPU figures: $(jq -c '[.send.cpu, .receive.cpu]' <<<"$j")"
# the host under test's CPU over the run, per datagram it sent
[ "$(jq -r '.dut_sent == .send.okay and .dut_cpu.ns_per_frame > 0 and .dut_service_demand_us_per_kb > 0' <<<"$j")" = true ] ||
	fail "the DUT's cost: $(jq -c '{dut_sent, ns: .dut_cpu.ns_per_frame, d: .dut_service_demand_us_per_kb}' <<<"$j")"
[ "$(sqlite3 "$db/r.db" "SELECT value FROM env WHERE key = 'run.dut_end'")" = sender ] || fail "run.dut_end not stored"
[ "$(sqlite3 "$db/r.db" "SELECT value FROM env WHERE key = 'dut.kernel.release'")" = "$(uname -r)" ] ||
	fail "the DUT's kernel not stored"
"$WR" stream --prefix "$P" --sender dut -l 1 --no-store | grep -q "^from the DUT of lab $P (kernel $(uname -r)) -> sink0" ||
	fail "the text does not say the DUT sent"

# --receiver dut: the gen namespace's sender to the DUT's own address, the
# DUT's server's session on the DUT's CPU (its agent runs off them).
j=$("$WR" stream --prefix "$P" --receiver dut -l 2 -C --json --no-store) || fail "--receiver dut: $j"
note "--receiver dut: $(jq -c '{okay: .send.okay, recv: .receive.messages, cpu: .receive.cpu}' <<<"$j")"
[ "$(jq -r '.dut_end == "receiver" and .receive.messages > 1000 and .dut_received >= .receive.messages' <<<"$j")" = true ] ||
	fail "receiver: $(jq -c '{dut_end, dut_received, m: .receive.messages}' <<<"$j")"
[ "$(jq -r .receive.cpu.cpu <<<"$j")" = "$dutcpu" ] || fail "the DUT's server not on its CPU: $(jq -c .receive.cpu <<<"$j")"

# Two senders, each on a CPU named: per-sender figures, their total.
j=$("$WR" stream --prefix "$P" --sender dut --cpus 0,1 -l 1 --json --no-store) || fail "two senders: $j"
[ "$(jq -r '[.senders[].cpu] == [0,1] and ([.senders[].okay] | add) == .send.okay and all(.senders[]; .okay > 0)' <<<"$j")" = true ] ||
	fail "two senders: $(jq -c .senders <<<"$j")"

# A lab of two paths: two senders pinned to CPUs 0 and 1, one out of
# each path's egress port; each port put out what its sender sent okay
# plus its control connection's segments (at most 20 a sender), and the
# DUT's per-CPU table has a row for each CPU watched.
P2="t$$b-"; LABS+=("$P2")
"$WR" lab up --prefix "$P2" --ports 2 >/dev/null || fail "lab up --ports 2"
j=$("$WR" stream --prefix "$P2" --sender dut --cpus 0,1 --watch-cpus 0,1 -l 2 --json --no-store) || fail "two paths: $j"
note "two paths: $(jq -c '[.dut_ports[] | {port, datagrams, counted}]' <<<"$j")"
[ "$(jq -r '[.dut_ports[].port] == ["dut1", "dut3"] and all(.dut_ports[]; .matches and .datagrams > 1000
	and .counted >= .datagrams and .counted <= .datagrams + 20)' <<<"$j")" = true ] ||
	fail "per-port counts: $(jq -c .dut_ports <<<"$j")"
[ "$(jq -r '[.senders[].okay] == [.dut_ports[].datagrams]' <<<"$j")" = true ] || fail "each sender on its own path"
[ "$(jq -r '[.dut_cpu.cpus[].cpu] == [0, 1] and all(.dut_cpu.cpus[]; .usr != null and .sys != null and .irq != null
	and .soft != null and .idle != null and .intr_s != null)' <<<"$j")" = true ] ||
	fail "the per-CPU table: $(jq -c '.dut_cpu.cpus' <<<"$j")"
j=$("$WR" stream --prefix "$P2" --receiver dut --threads 2 -l 1 --json --no-store) || fail "two paths received: $j"
[ "$(jq -r '[.dut_ports[].port] == ["dut0", "dut2"] and all(.dut_ports[]; .matches)' <<<"$j")" = true ] ||
	fail "per-port counts received: $(jq -c .dut_ports <<<"$j")"
"$WR" lab down --prefix "$P2" >/dev/null

# Bad input: a clear line and exit 2, before anything runs.
bad() { # expected-text args...
	local want=$1 o rc; shift
	o=$("$WR" stream "$@" 2>&1); rc=$?
	[ "$rc" = 2 ] || fail "stream $*: exit $rc, not 2: $o"
	[ "$(wc -l <<<"$o")" = 1 ] && grep -q -- "$want" <<<"$o" || fail "stream $*: '$o' does not say '$want'"
}
bad "name the DUT with --dut" --sender dut -H 198.19.0.2
bad "cannot both be the DUT" --prefix "$P" --sender dut --receiver dut
bad "give tester or dut" --prefix "$P" --sender router
bad "are the client's" --server --sender dut
bad "CPU 7 is not online on the DUT" --prefix "$P" --sender dut --cpus 0,7 --no-store
bad "-T ,REMOTE: CPU 9 is not online on the DUT" --prefix "$P" --receiver dut -T ,9 --no-store
bad "need none" --sender dut --dut local -H 127.0.0.1 --token-file /etc/hostname
# --irq-cpus: a lab's DUT end only; veth ports have no IRQ to place
bad "give --sender dut or --receiver dut through a lab" --prefix "$P" --irq-cpus 1 --no-store
bad "give --sender dut or --receiver dut through a lab" --sender dut --dut local -H 127.0.0.1 --irq-cpus 0
bad "--irq-cpus: CPU 9 is not online on the DUT" --prefix "$P" --sender dut --irq-cpus 9 --no-store
bad "have no IRQ to place" --prefix "$P" --sender dut --irq-cpus 1 --no-store

# Over ssh: the agent ssh starts on the DUT sends to this host's end of
# the management link, and serves at its own.
ssh_dut_up
j=$("$WR" stream --sender dut --dut "$DUT" "${SSHOPT[@]}" -H "$MGMT_HOST" -l 2 -c --json --no-store) || fail "ssh sender: $j"
note "ssh --sender dut: $(jq -c '{okay: .send.okay, recv: .receive.messages, w: .dut_cpu.source}' <<<"$j")"
[ "$(jq -r '.dut_end == "sender" and .receive.messages > 1000 and (.dut_cpu.cpus | length) == '"$(nproc)" <<<"$j")" = true ] ||
	fail "ssh sender: $(jq -c '{dut_end, m: .receive.messages, cpus: .dut_cpu.cpus}' <<<"$j")"
j=$("$WR" stream --receiver dut --dut "$DUT" "${SSHOPT[@]}" -H "$MGMT_DUT" -l 2 --json --no-store) || fail "ssh receiver: $j"
[ "$(jq -r '.dut_end == "receiver" and .receive.messages > 1000' <<<"$j")" = true ] || fail "ssh receiver: $j"

# A box of two ports (two more links from here into the DUT's
# namespace): --dut-ports names them, -H one address of this host behind
# each; sender i leaves by port i, each port's count checked; the veth
# ports have no IRQ for --irq-cpus to place.
A="a$$" B="b$$"
trap 'ip link del "$A" 2>/dev/null; ip link del "$B" 2>/dev/null; rm -rf "$db"; ssh_dut_down; cleanup' EXIT
for l in "$A:254" "$B:253"; do
	n=${l%%:*} k=${l#*:}
	ip link add "$n" type veth peer name "${n}d" && ip link set "${n}d" netns "${P}dut" &&
		ip addr add "198.18.$k.1/30" dev "$n" && ip link set "$n" up &&
		ip -n "${P}dut" addr add "198.18.$k.2/30" dev "${n}d" && ip -n "${P}dut" link set "${n}d" up ||
		fail "link $n into the DUT"
done
BOX=(--dut "$DUT" "${SSHOPT[@]}" --dut-ports "${A}d,${B}d" -H 198.18.254.1,198.18.253.1)
j=$("$WR" stream --sender dut "${BOX[@]}" --cpus 0,1 -l 1 --json --no-store) || fail "a box's two ports: $j"
note "box, two ports: $(jq -c '[.dut_ports[] | {port, datagrams, counted}]' <<<"$j")"
[ "$(jq -r --arg a "${A}d" --arg b "${B}d" '[.dut_ports[].port] == [$a, $b] and all(.dut_ports[]; .matches and .datagrams > 1000)
	and [.senders[].okay] == [.dut_ports[].datagrams]' <<<"$j")" = true ] || fail "a box's ports: $(jq -c .dut_ports <<<"$j")"
# received: -H the box's own address behind each port
j=$("$WR" stream --receiver dut --dut "$DUT" "${SSHOPT[@]}" --dut-ports "${A}d,${B}d" -H 198.18.254.2,198.18.253.2 \
	--threads 2 -l 1 --json --no-store) || fail "a box's two ports received: $j"
[ "$(jq -r 'all(.dut_ports[]; .matches and .datagrams > 1000)' <<<"$j")" = true ] ||
	fail "a box's ports received: $(jq -c .dut_ports <<<"$j")"
bad "have no IRQ to place" --sender dut "${BOX[@]}" --irq-cpus 0,1 -l 1 --no-store
bad "names 2 ports and -H one address" --sender dut --dut "$DUT" "${SSHOPT[@]}" --dut-ports "${A}d,${B}d" -H 198.18.254.1
bad "names the ports a DUT of its own" --prefix "$P" --sender dut --dut-ports dut1

# An older agent, whose hello says nothing of a stream end: its version
# said, exit 2. (This one is today's with that word taken out.)
cat >"$db/old-agent" <<-SH
	#!/bin/sh
	exec "$WR" "\$@" | sed -u 's/,"stream":true//'
SH
chmod +x "$db/old-agent"
OLD=("${SSHOPT[@]}")
OLD[${#OLD[@]}-1]="$db/old-agent"
o=$("$WR" stream --sender dut --dut "$DUT" "${OLD[@]}" -H "$MGMT_HOST" -l 1 --no-store 2>&1); rc=$?
[ "$rc" = 2 ] && grep -q "its agent (wirerate .*) has no stream end: install this wirerate" <<<"$o" ||
	fail "older agent: exit $rc: $o"
# One whose figures do not add up (no sender's figures at the end): the
# run fails (exit 1) saying so, nothing made up.
cat >"$db/short-agent" <<-SH
	#!/bin/sh
	exec "$WR" "\$@" | sed -u 's/"senders":\[.*\]/"senders":[]/'
SH
chmod +x "$db/short-agent"
OLD[${#OLD[@]}-1]="$db/short-agent"
o=$("$WR" stream --sender dut --dut "$DUT" "${OLD[@]}" -H "$MGMT_HOST" -l 1 --no-store 2>&1); rc=$?
[ "$rc" = 1 ] && grep -q "the agent sent the figures of 0 sender(s) for 1" <<<"$o" || fail "short figures: exit $rc: $o"

# The tester killed mid-run: the agent sees its input end, stops its
# sender and exits: none left in the DUT's namespace within 20 s (the
# ssh session's end reaching sshd is the slow part).
agents() { ip netns pids "${P}dut" | xargs -r ps -o args= -p 2>/dev/null | grep -c "[w]irerate agent"; }
"$WR" stream --sender dut --dut "$DUT" "${SSHOPT[@]}" -H "$MGMT_HOST" -l 30 --no-store >/dev/null 2>&1 & pid=$!
for i in $(seq 100); do [ "$(agents)" -ge 1 ] && break; sleep 0.1; done
[ "$(agents)" -ge 1 ] || fail "no agent on the DUT"
sleep 1
kill -KILL "$pid"; wait "$pid" 2>/dev/null
for i in $(seq 200); do [ "$(agents)" = 0 ] && break; sleep 0.1; done
[ "$(agents)" = 0 ] || fail "an agent left on the DUT after the tester's SIGKILL"
echo ok
