# A DUT agent behind a fake ssh (a script first in PATH) that misbehaves:
# it closes its end and stays alive, or it says nothing at all. The tester
# ends the session within a stated bound, and leaves no ssh behind. No
# namespaces, no traffic: common.sh, not lib.sh.
# Bounds: the tester waits DUT_EXIT_MS (2 s) for a process whose end
# closed, then 1 s after SIGTERM, then SIGKILLs (src/dut/dut.c); a silent
# agent at hello costs the answer timeout (30 s) plus the default connect
# allowance (10 s; --ssh-option ConnectTimeout does not shorten the
# tester's own wait) and nothing after it (no bye, no 5 s). 3 s of slack
# on each for a loaded 2-vCPU host. Set WR_DUT_SILENT=1 for the silent
# case (40 s: the long tier runs it as dut_hostile_silent).
. "$(dirname "$0")/../common.sh"

D=$(mktemp -d /tmp/wr-duthostile.XXXXXX)
trap 'kill "$(cat "$D/ssh.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$D"' EXIT
mkdir "$D/bin"
# fake_ssh BODY: an ssh that writes its pid to ssh.pid, then runs BODY
fake_ssh() {
	printf '#!/bin/sh\necho $$ >%s/ssh.pid\n%s\n' "$D" "$1" >"$D/bin/ssh"
	chmod +x "$D/bin/ssh"
	rm -f "$D/ssh.pid"
}
# timed MAX CMD...: runs CMD, fails when it took more than MAX s; its
# exit status in $rc, its stderr in $err.
timed() {
	local max=$1 start end
	shift
	start=$(date +%s%N)
	err=$(PATH="$D/bin:$PATH" timeout 120 "$@" 2>&1 >/dev/null)
	rc=$?
	end=$(date +%s%N)
	took=$(( (end - start) / 1000000 ))
	note "$* -> $rc in ${took} ms: $err"
	[ "$took" -le $((max * 1000)) ] || fail "$*: took ${took} ms, the bound is ${max} s"
}
gone() { # the fake ssh no longer runs
	local pid
	pid=$(cat "$D/ssh.pid" 2>/dev/null) || fail "the fake ssh never ran"
	! kill -0 "$pid" 2>/dev/null || fail "$1: the ssh child (pid $pid) is still running"
}

if [ "${WR_DUT_SILENT:-0}" = 1 ]; then
	# Silent: reads the requests, answers nothing, never exits.
	fake_ssh 'exec 1>&2; sleep 300'
	timed $((30 + 10 + 3)) "$WR" cpu --dut ssh:root@dut1 --count 1
	[ "$rc" = 1 ] || fail "a silent agent: exit $rc, want 1"
	case "$err" in *"no answer from the agent within"*) ;; *) fail "a silent agent: $err" ;; esac
	gone "a silent agent"
	echo ok
	exit 0
fi

# 1. The agent's end closes, ssh stays alive for a minute: the tester
# says the agent ended within 2 + 1 + 3 s, not when ssh chooses to go.
fake_ssh 'exec >/dev/null </dev/null; sleep 60'
timed $((2 + 1 + 3)) "$WR" cpu --dut ssh:root@dut1 --count 1
[ "$rc" = 1 ] || fail "an agent that closed its end: exit $rc, want 1"
case "$err" in *"the agent ended"*) ;; *) fail "an agent that closed its end: $err" ;; esac
gone "an agent that closed its end"

# 2. Garbled and empty answers end the session at once, with a reason.
fake_ssh 'read -r line; echo "not json"; sleep 60'
timed $((2 + 1 + 3)) "$WR" cpu --dut ssh:root@dut1 --count 1
[ "$rc" = 1 ] || fail "a garbled answer: exit $rc, want 1"
case "$err" in *"garbled"*) ;; *) fail "a garbled answer: $err" ;; esac
gone "a garbled answer"

echo ok
