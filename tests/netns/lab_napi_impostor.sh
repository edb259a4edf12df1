# lab up gives the DUT ports' NAPI threads SCHED_FIFO: only kernel threads,
# never a user process that took the name "napi/dut0-...". The impostor is
# up before the lab (a race with the threads' birth cannot be won on
# purpose: tests/unit/test_kthread.c covers the check itself); here the
# real threads must still be found and pinned, and the impostor left alone.
. "$(dirname "$0")/lib.sh"

[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (NAPI threads are pinned to a DUT CPU)"
command -v chrt >/dev/null || fail "no chrt (util-linux)"
# NAPI mode is XDP on the DUT's veth ports
"$WR" probe --require xdp_native_veth >/dev/null 2>&1 || skip "$("$WR" probe --require xdp_native_veth 2>&1)"
as_user=()
command -v setpriv >/dev/null && as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
# bash keeps the name it gives itself (sleep is a child; exec would rename)
"${as_user[@]}" bash -c 'printf "napi/dut0-9999" >/proc/$$/comm; sleep 60; :' &
imp=$!
trap 'kill "$imp" 2>/dev/null; cleanup' EXIT
for _ in $(seq 50); do [ "$(cat "/proc/$imp/comm" 2>/dev/null)" = napi/dut0-9999 ] && break; sleep 0.05; done
[ "$(cat "/proc/$imp/comm")" = napi/dut0-9999 ] || fail "impostor did not take the name"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
[ "$(labjq "$P" .dut.napi_mode)" = true ] || fail "the lab is not in NAPI mode, where probe says veth runs native XDP"
pol=$(chrt -p "$imp") || fail "impostor gone"
note "impostor: $pol"
grep -q 'policy: SCHED_OTHER' <<<"$pol" || fail "the impostor was given $pol"
# the kernel's own threads were pinned (another lab's may be too: any one)
fifo=0
for p in $(pgrep '^napi/dut0-'); do
	[ "$(awk '{ print $4 }' "/proc/$p/stat")" = 2 ] || continue
	chrt -p "$p" | grep -q 'policy: SCHED_FIFO' && fifo=$((fifo + 1))
done
[ "$fifo" -ge 1 ] || fail "no NAPI kernel thread of dut0 runs SCHED_FIFO"
echo ok
