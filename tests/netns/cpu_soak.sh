# wirerate soak against a known load, and wirerate cpu. Needs no
# namespaces, but root for the known load's cgroup. About 40 s.
set -u
WR=${WR:-$PWD/build/wirerate}
. "$(dirname "$0")/../common.sh"
BUSYLOAD=$BUILD/tests/busyload
TOL=${CPU_SOAK_TOL:-5}	# percentage points

# within A B TOL: |A - B| <= TOL
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (soaks CPU 1 while CPU 0 runs the test), have $(nproc)"
[ -x "$BUSYLOAD" ] || fail "no $BUSYLOAD: build first"
command -v jq >/dev/null || fail "no jq (scripts/deps.sh installs it)"
tmp=$(mktemp -d /tmp/wr-cpu-soak.XXXXXX)
bl_pid=
trap '[ -n "$bl_pid" ] && kill "$bl_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
cal=$tmp/state/soak-calibration	# its directory is made by the calibration

# --- bad input, before anything slow ---
expect_exit 2 "$WR" cpu --interval 0
expect_exit 2 "$WR" cpu --count 0
expect_exit 2 "$WR" cpu --cpus 999
expect_exit 2 "$WR" cpu --cpus x
expect_exit 2 "$WR" cpu --bogus
expect_exit 2 "$WR" cpu --irq no-such-irq-line --count 1
expect_exit 2 "$WR" soak --interval 0 --calibration "$cal"
expect_exit 2 "$WR" soak --calibrate --interval 0 --calibration "$cal"
expect_exit 2 "$WR" soak --calibration "$cal"			# none yet
expect_exit 2 "$WR" soak --calibrate --cpus 999 --calibration "$cal"
expect_exit 2 "$WR" soak --duration 1x
expect_exit 2 "$WR" soak --tolerance 90
expect_exit 2 "$WR" soak extra

# --- wirerate cpu: rows, JSON, the average block ---
j=$("$WR" cpu --interval 200ms --count 2 --json) || fail "cpu --json"
[ "$(jq '.samples | length' <<<"$j")" = 2 ] || fail "cpu: want 2 samples: $j"
[ "$(jq '.samples[0].cpus | length' <<<"$j")" = "$(nproc)" ] || fail "cpu: a row per CPU"
[ "$(jq '.average.intervals' <<<"$j")" = 2 ] || fail "cpu: no average"
jq -e '.average.all.idle + .average.all.usr + .average.all.sys + .average.all.soft + .average.all.irq
       + .average.all.nice + .average.all.iowait + .average.all.steal + .average.all.guest
       | . > 99.5 and . < 100.5' <<<"$j" >/dev/null || fail "cpu: columns do not add to 100"
"$WR" cpu --interval 100ms --count 1 --cpus 1 | grep -q '^Average: *1 ' || fail "cpu: text Average row"

# --- calibration (short stable mode), under a umask that hides files ---
# The calibration counts loops per second of CPU time the soaker got, so
# another process on CPU 1 (a light background load) does not move it;
# what it cannot hide is the host changing speed. 3 readings within 3%
# (a 3% error is at most 3 points of an idle reading, 1.5 of a 50% one)
# and 30 s to find them: on this VM readings settle within 2% in 3-10 s
# quiet, within 4% in 5-15 s with a 20% load beside them.
if ! out=$(umask 077; "$WR" soak --calibrate --cpus 1 --interval 500ms --settle 3 --tolerance 3 --timeout 30s \
		--calibration "$cal" 2>&1); then
	fail "calibrate: $out"
fi
note "$(tail -1 <<<"$out")"
grep -q '^kernel ' "$cal" || fail "calibration file has no kernel"
# wirerate sets its own umask (022): its files and directories are
# readable whatever the shell's was
[ "$(stat -c %a "$tmp/state")" = 755 ] || fail "state directory made $(stat -c %a "$tmp/state"), want 755"
[ "$(stat -c %a "$cal")" = 644 ] || fail "calibration file made $(stat -c %a "$cal"), want 644"

# --- calibrating one CPU keeps the other CPUs of the file, line for line
# (CPU 0 is online, CPU 7 need not be) ---
{ cat "$cal"; echo "cpu 0 1234.500 0.00250"; echo "cpu 7 1234.000 0.00100"; } >"$tmp/merge"
out=$("$WR" soak --calibrate --cpus 1 --interval 500ms --settle 3 --tolerance 5 --timeout 30s \
	--calibration "$tmp/merge" 2>&1) || fail "calibrate over a file with CPUs 0 and 7: $out"
grep -qx 'cpu 0 1234.500 0.00250' "$tmp/merge" || fail "CPU 0's calibration changed: $(cat "$tmp/merge")"
grep -qx 'cpu 7 1234.000 0.00100' "$tmp/merge" || fail "CPU 7's calibration changed: $(cat "$tmp/merge")"
[ "$(grep -c '^cpu 1 ' "$tmp/merge")" = 1 ] || fail "CPU 1 not replaced once: $(cat "$tmp/merge")"
grep -q 'with 2 CPU(s) kept from before' <<<"$out" || fail "calibrate does not say it kept CPUs 0 and 7: $out"

# --- refused calibrations ---
sed 's/^kernel .*/kernel 2.6.26-other/' "$cal" >"$tmp/other-kernel"
expect_exit 2 "$WR" soak --cpus 1 --duration 1s --calibration "$tmp/other-kernel"
"$WR" soak --cpus 1 --duration 1s --calibration "$tmp/other-kernel" 2>&1 | grep -q 'kernel 2.6.26-other' \
	|| fail "refusal does not name the kernel"
sed 's/^cpu_model .*/cpu_model Pentium II (Deschutes)/' "$cal" >"$tmp/other-cpu"
expect_exit 2 "$WR" soak --cpus 1 --duration 1s --calibration "$tmp/other-cpu"
printf 'wirerate-soak-calibration 1\nkernel x\ncpu 1 banana\n' >"$tmp/corrupt"
expect_exit 2 "$WR" soak --cpus 1 --duration 1s --calibration "$tmp/corrupt"
head -c 300 /dev/urandom >"$tmp/random"
expect_exit 2 "$WR" soak --cpus 1 --duration 1s --calibration "$tmp/random"
expect_exit 2 "$WR" soak --cpus 0 --duration 1s --calibration "$cal"	# CPU 0 not calibrated

# An idle reading is held against the part of the same seconds that the
# soaker did not run, from the scheduler's own account of its CPU time
# (the summary's soaker_ran; /proc/stat is no help here: on this VM its
# columns for a soaked CPU add up to 1.6 times the wall time). The reading
# is loops counted against the calibrated speed, so the two agree when the
# calibration holds: within its spread (3%) and the reading's own noise;
# TOL (5 points) covers both. A light background load on CPU 1 counts in
# both, so the check holds on a busy host as on a quiet one.
# soak_reading NAME: "soak% not-soaker%" of CPU 1 over 4 s
soak_reading() {
	"$WR" soak --cpus 1 --duration 4s --json --calibration "$cal" >"$tmp/$1.json" || fail "soak $1"
	jq -r '"\(.summary.load) \(100 - .summary.cpus[0].soaker_ran)"' "$tmp/$1.json"
}

# The host's speed drifts (an idle CPU's loop rate moved 17% within an
# hour here), so a calibration a minute old can be a few percent off: a
# check that misses runs once more on a fresh calibration, each attempt
# logged. A soak that is wrong is wrong both times.
recalibrate() {
	"$WR" soak --calibrate --cpus 1 --interval 500ms --settle 3 --tolerance 3 --timeout 30s \
		--calibration "$cal" >/dev/null 2>&1 || fail "calibrate again"
}

# --- idle (whatever else runs on CPU 1) ---
# One more try on a fresh calibration at most; a second miss fails, on
# any host (a CPU that is not steady is what the soak's idle check and
# its UNTRUSTED mark are for, not a reason for this test to pass).
for attempt in 1 2; do
	read -r idle others < <(soak_reading idle)
	note "idle, try $attempt: soak $(printf %.2f "$idle")%, the soaker did not run $(printf %.2f "$others")%"
	within "$idle" "$others" "$TOL" && break
	[ $attempt = 2 ] && fail "idle soak read $idle%, the soaker did not run $others%; want +- $TOL twice"
	recalibrate
done

# --- a known load on CPU 1 that the kernel holds at 35% ---
# A busy loop (busyload --fraction 1: it spins all the time) in a cgroup
# of its own whose CPU bandwidth is capped at 3.5 ms of every 10 ms
# (cgroup v2 cpu.max "3500 10000"; v1 cpu.cfs_quota_us 3500 of
# cpu.cfs_period_us 10000), pinned to CPU 1. The kernel's CFS bandwidth
# control, not the loop's own timing, holds it to 35%: a soak that reads
# the share by luck, or reads the calibration instead of the CPU, cannot
# land near it. busyload reports the CPU time it got (its own clock,
# CLOCK_PROCESS_CPUTIME_ID) over the wall time: 0.35 less what the host
# took. The soak reads that share, plus what else ran on CPU 1 (the idle
# reading just before), within TOL_KNOWN = 5 points: the calibration's
# spread (3%: at most 3 points of the other 65%) and the readings' noise
# (5 runs here on 2026-12-07 read within 2 points of it: docs/cpu.md).
# One more try on a fresh calibration at most; a second miss fails.
TOL_KNOWN=5
CG=""
cg_up() {
	if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		grep -qw cpu /sys/fs/cgroup/cgroup.controllers || fail "cgroup v2 without its cpu controller"
		grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control ||
			echo +cpu >/sys/fs/cgroup/cgroup.subtree_control || fail "cannot enable the cpu controller"
		CG=/sys/fs/cgroup/wr-soak-$$
		mkdir "$CG" && echo "3500 10000" >"$CG/cpu.max" || fail "cgroup $CG with cpu.max"
	elif [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
		CG=/sys/fs/cgroup/cpu/wr-soak-$$
		mkdir "$CG" && echo 10000 >"$CG/cpu.cfs_period_us" && echo 3500 >"$CG/cpu.cfs_quota_us" ||
			fail "cgroup $CG with a CPU quota"
	else
		fail "no cgroup CPU bandwidth control (v2 cpu.max or v1 cpu.cfs_quota_us)"
	fi
}
cg_down() { [ -n "$CG" ] && rmdir "$CG" 2>/dev/null; CG=""; }
trap '[ -n "$bl_pid" ] && { kill "$bl_pid"; wait "$bl_pid"; }; cg_down; rm -rf "$tmp"' EXIT
[ "$(id -u)" = 0 ] || fail "the known load needs root (a cgroup of its own)"
cg_up
procs=$CG/cgroup.procs
for attempt in 1 2; do
	# It runs until the soak is over (SIGTERM ends it, 60 s at most).
	bash -c 'echo $$ >"$1" && exec "$2" --cpu 1 --fraction 1 --period 10ms --duration 60s' _ "$procs" "$BUSYLOAD" \
		>"$tmp/busyload.out" &
	bl_pid=$!
	sleep 0.3
	read -r load lothers < <(soak_reading known)
	kill -TERM "$bl_pid"; wait "$bl_pid"; bl_pid=
	got=$(sed -n 's/.*: got \([0-9.]*\) of the CPU.*/\1/p' "$tmp/busyload.out")
	note "cgroup-held load, try $attempt: soak $(printf %.2f "$load")%, idle before $(printf %.2f "$idle")% ($(cat "$tmp/busyload.out"))"
	awk -v g="$got" 'BEGIN { exit !(g >= 0.30 && g <= 0.36) }' ||
		fail "the cgroup did not hold the loop near 35%: it got $got of the CPU"
	awk -v l="$load" -v g="$got" -v i="$idle" -v t="$TOL_KNOWN" \
		'BEGIN { exit !(l >= 100 * g - t && l <= 100 * g + i + t) }' && break
	[ $attempt = 2 ] &&
		fail "soak read $load% under a load the kernel held at $got of the CPU (idle read $idle%); want within $TOL_KNOWN points, twice"
	recalibrate
done
cg_down
[ "$(jq '.readings | length' "$tmp/known.json")" -ge 3 ] || fail "soak: readings missing"
jq -e '.readings[0].cpus[0].cpu == 1' "$tmp/known.json" >/dev/null || fail "soak: per-CPU reading"

# --- text output and Ctrl-C: stops cleanly with the summary ---
"$WR" soak --cpus 1 --calibration "$cal" --per-cpu --interval 500ms >"$tmp/int.out" 2>&1 &
pid=$!
# Once its first reading is out: the idle check before it takes a second
# or more on a slow host (a fixed 2.3 s once caught it before any); at
# most 10 s.
for _ in $(seq 100); do
	[ "$(wc -l <"$tmp/int.out")" -ge 3 ] && break
	sleep 0.1
done
sleep 0.3
kill -INT "$pid"
wait "$pid"; rc=$?
[ "$rc" -eq 0 ] || fail "soak after SIGINT exited $rc: $(cat "$tmp/int.out")"
grep -q '^System load: *[0-9.]*%' "$tmp/int.out" || fail "no 'System load:' line: $(cat "$tmp/int.out")"
grep -q '^Summary: ' "$tmp/int.out" || fail "no summary after SIGINT: $(cat "$tmp/int.out")"
grep -q 'cpu1: load' "$tmp/int.out" || fail "no per-CPU summary"
echo ok
