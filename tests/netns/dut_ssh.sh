# A DUT reached only over SSH and through its two ports: the lab's DUT
# namespace with an sshd on a management link, measured by a tester that
# uses the lab's endpoints as cabled ports. Its side (CPU, kernel, env)
# comes from `wirerate agent` started by ssh, its profile too (--profile);
# what the run changes on the DUT is put back after a normal end, a
# SIGKILL of the tester and a cut connection. That the same DUT measured
# as the lab gives the same NDR is dut_ssh_agree.sh.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_ssh.sh"

ssh_dut_cabled

# One trial: the DUT's CPUs, kernel and ports come from the agent.
j=$("$WR" trial "${CAB[@]}" --rate 10kpps --duration 2s --learn-wait 0.2s --drain 0.5s --profile --json --db "$db/r.db") ||
	fail "trial through the ssh DUT"
# sampled by the agent on the DUT, over ssh
note "profile over ssh: $(jq -c '.dut_cpu.profile | {samples, softirq_pct, top: [.top[0:3][] | .symbol]}' <<<"$j")"
[ "$(jq -r '.dut_cpu.profile.samples > 0 and (.dut_cpu.profile.top | length) > 0' <<<"$j")" = true ] ||
	fail "no profile from the DUT over ssh: $(jq -c .dut_cpu.profile <<<"$j")"
note "where: $(jq -r .where <<<"$j")"
note "dut_cpu: $(jq -c '.dut_cpu | {source, ns_per_frame, cpus: [.cpus[].cpu]}' <<<"$j")"
case "$(jq -r .where <<<"$j")" in *"DUT $DUT"*"kernel $(uname -r)"*) ;; *) fail "where does not name the DUT and its kernel" ;; esac
# Every CPU the DUT has is watched when --watch-cpus is not given.
[ "$(jq -r '.dut_cpu.cpus | length' <<<"$j")" = "$(nproc)" ] || fail "not every DUT CPU watched"
[ "$(jq -r '.directions[0].rx > 15000' <<<"$j")" = true ] || fail "frames did not cross the DUT: $(jq -c .directions[0] <<<"$j")"
k=$(sqlite3 "$db/r.db" "SELECT value FROM env WHERE key = 'dut.kernel.release'")
[ "$k" = "$(uname -r)" ] || fail "DUT kernel not stored: '$k'"
[ -n "$(sqlite3 "$db/r.db" "SELECT value FROM env WHERE key = 'dut.port.dut0.driver'")" ] || fail "DUT port not in the env"
[ -n "$(sqlite3 "$db/r.db" "SELECT value FROM env WHERE key = 'dut.kernel.config_hash' OR key = 'dut.nft.ruleset_hash'")" ] ||
	fail "no config or ruleset hash"
"$WR" report 1 --db "$db/r.db" | grep -q "kernel $(uname -r)" || fail "report does not show the DUT's kernel"

# Loss is attributed from the DUT's own counters over ssh as in the lab:
# offered 40 kpps into the 20 kpps shaper, the drops are the qdisc's on
# the DUT's egress. 90% of the loss there: the rest is the DUT's ingress
# ring when its vCPU stalls (tens of frames in 2 s here).
j=$("$WR" trial "${CAB[@]}" --rate 40kpps --duration 2s --learn-wait 0.2s --drain 0.5s --json --no-store) ||
	fail "overloaded trial through the ssh DUT"
d=$(jq -c '.directions[0]' <<<"$j")
note "over ssh: $(jq -r .loss.text <<<"$d")"
[ "$(jq -r '[.loss.places[] | select(.place == "qdisc" and (.detail | test("tbf on dut1"))) | .frames] | add // 0 |
	. * 10 >= 9 * ('"$(jq -r .lost <<<"$d")"')' <<<"$d")" = true ] || fail "loss not put on the DUT's qdisc: $d"

# What a run changes on the DUT, and that it comes back: RPS of the
# DUT's ports (veth has no IRQs) and the null rules.
rps() { ip netns exec "${P}dut" cat /sys/class/net/dut0/queues/rx-0/rps_cpus | tr -d '0,\n'; }
rules() { ip netns exec "${P}dut" nft list chain inet wirerate forward 2>/dev/null | grep -c ' drop'; }
rps0=$(rps); rules0=$(rules)
note "before: rps '$rps0', rules $rules0"
wait_restored() { # what: up to 30 s, the agent's ssh noticing a dead peer within 15 s
	for i in $(seq 300); do
		[ "$(rps)" = "$rps0" ] && [ "$(rules)" = "$rules0" ] && return 0
		sleep 0.1
	done
	fail "$1: not restored (rps '$(rps)', rules $(rules))"
}
wait_applied() {
	for i in $(seq 200); do
		[ "$(rules)" = 40 ] && [ "$(rps)" = 1 ] && return 0
		sleep 0.1
	done
	fail "$1: placement and rules not applied (rps '$(rps)', rules $(rules))"
}
A=(--dut-placement bound --watch-cpus 0 --dut-rules 40 --rate 5kpps --learn-wait 0.2s --drain 0.2s)
"$WR" trial "${CAB[@]}" "${A[@]}" --duration 6s --db "$db/r.db" >"$db/t.out" 2>&1 & pid=$!
wait_applied "normal run: $(cat "$db/t.out")"
wait "$pid" || fail "trial with placement and rules: $(cat "$db/t.out")"
grep -q "placement bound" "$db/t.out" || fail "what was applied is not said: $(cat "$db/t.out")"
wait_restored "after a normal run"
[ "$(sqlite3 "$db/r.db" "SELECT value FROM env WHERE key = 'dut.placement' ORDER BY run_id DESC LIMIT 1")" = bound ] ||
	fail "placement not stored with the run"

"$WR" trial "${CAB[@]}" "${A[@]}" --duration 20s --db "$db/r.db" >/dev/null 2>&1 & pid=$!
wait_applied "before SIGKILL"
kill -KILL "$pid"; wait "$pid" 2>/dev/null
wait_restored "after SIGKILL of the tester"

"$WR" trial "${CAB[@]}" "${A[@]}" --duration 20s --db "$db/r.db" >/dev/null 2>&1 & pid=$!
wait_applied "before the connection is cut"
pkill -KILL -f "ssh .*$MGMT_DUT" || fail "no ssh client to kill"
wait_restored "after the SSH connection was cut"
kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null

# A matrix over the DUT's own configurations: the agent applies each one
# for its test, no lab is built, and each run records what it was; the
# first configuration again at the end (the drift check).
j=$("$WR" matrix --placement bound,free --rules 0,10 --db "$db/m.db" --json -- trial "${CAB[@]}" --watch-cpus 0 \
	--rate 5kpps --duration 1s --learn-wait 0.1s --drain 0.2s) || fail "matrix over the ssh DUT"
[ "$(jq -r '.configurations | length' <<<"$j")" = 4 ] || fail "matrix: $(jq -c . <<<"$j" | cut -c1-300)"
[ "$(sqlite3 "$db/m.db" "SELECT group_concat(value, ' ') FROM (SELECT value FROM env WHERE key = 'dut.placement' ORDER BY run_id)")" = \
	"bound free bound free bound" ] || fail "matrix: placements not applied in order"
[ "$(sqlite3 "$db/m.db" "SELECT group_concat(value, ' ') FROM (SELECT value FROM env WHERE key = 'dut.rules' ORDER BY run_id)")" = \
	"0 0 10 10 0" ] || fail "matrix: rules not applied in order"
wait_restored "after the matrix"
expect_exit 2 "$WR" matrix --mtu 1500,9000 -- trial "${CAB[@]}" --rate 1kpps
expect_exit 2 "$WR" matrix --placement bound -- trial "${CAB[@]}" --dut-rules 5 --rate 1kpps

# Failures that name their cause, in bounded time.
cat >"$db/old-agent" <<'SH'
#!/bin/sh
read line
echo '{"ok":false,"error":"protocol version 1 is not spoken here","version":7}'
SH
chmod +x "$db/old-agent"
T=(--rate 1kpps --duration 0.5s)
out=$("$WR" trial "${CAB[@]}" --dut-agent "$db/old-agent" "${T[@]}" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "protocol version 7" <<<"$out" || fail "another protocol version: exit $rc: $out"
out=$("$WR" trial "${CAB[@]}" --dut-agent /nonexistent/wirerate "${T[@]}" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "install wirerate" <<<"$out" || fail "no agent on the DUT: exit $rc: $out"
start=$SECONDS
# 198.18.255.3 is on the management link and nobody answers there: ssh
# gives up after the test's ConnectTimeout of 5 s (ssh keeps the first
# value given); 15 s covers ssh's start on a loaded host.
out=$("$WR" trial "${CAB[@]/$MGMT_DUT/198.18.255.3}" "${T[@]}" 2>&1); rc=$?
[ $rc = 1 ] && grep -q "could not reach" <<<"$out" && [ $((SECONDS - start)) -lt 15 ] ||
	fail "unreachable DUT: exit $rc after $((SECONDS - start)) s: $out"
note "unreachable: $out"

# Bad input: exit 2, one line.
expect_exit 2 "$WR" trial --dut ssh: "${T[@]}"
expect_exit 2 "$WR" trial --dut telnet:x "${T[@]}"
expect_exit 2 "$WR" trial --dut "$DUT" "${T[@]}"
expect_exit 2 "$WR" trial "${CAB[@]}" --prefix "$P" "${T[@]}"
expect_exit 2 "$WR" trial --prefix "$P" --dut-placement bound "${T[@]}"
expect_exit 2 "$WR" trial --prefix "$P" --dut-rules 5 "${T[@]}"
expect_exit 2 "$WR" trial --prefix "$P" --ssh-option IdentityFile=x "${T[@]}"
expect_exit 2 "$WR" trial --dut "lab:$P" --tx x --rx y "${T[@]}"
expect_exit 2 "$WR" trial "${CAB[@]}" --dut-placement sideways "${T[@]}"
exit 0
