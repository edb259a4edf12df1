# wirerate soak against a known load, and wirerate cpu. Needs no namespaces
# or root: it lives here because the runner runs this folder. About 25 s.
set -u
WR=${WR:-$PWD/build/wirerate}
. "$(dirname "$0")/../common.sh"
BUSYLOAD=$BUILD/tests/busyload
TOL=${CPU_SOAK_TOL:-5}	# percentage points

# within A B TOL: |A - B| <= TOL
within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }'; }

[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (soaks CPU 1 while CPU 0 runs the test), have $(nproc)"
[ -x "$BUSYLOAD" ] || fail "no $BUSYLOAD: build first"
command -v jq >/dev/null || skip "needs jq"
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
for attempt in 1 2; do
	read -r idle others < <(soak_reading idle)
	note "idle, try $attempt: soak $(printf %.2f "$idle")%, the soaker did not run $(printf %.2f "$others")%"
	within "$idle" "$others" "$TOL" && break
	if [ $attempt = 2 ]; then
		# a steady CPU is what the method needs (docs/cpu.md): see below
		steady=$("$WR" probe --require steady_cpu 2>&1) &&
			fail "idle soak read $idle%, the soaker did not run $others%; want +- $TOL"
		note "the idle soak read $idle% (the soaker did not run $others%) on a host without a steady CPU: $steady"
		break
	fi
	recalibrate
done

# --- a known 50% load on CPU 1: the soak sees it ---
# busyload spins 50 ms of every 100 ms of wall time and reports the share
# it got (got). The soak must read that within TOL_KNOWN (8 points) below
# and that plus what else ran (the idle reading just before) plus
# TOL_KNOWN above: the calibration's spread (3%), the host's drift
# between calibration and reading, and the reading's noise. Measured
# here on 2026-12-02: 50.7, 51.5 and 51.5% for got 0.500, 0.500, 0.493.
# A miss is tried once more on a fresh calibration; a second miss fails
# unless 'probe' says the host has no steady CPU, which the method needs
# (docs/cpu.md): then it is noted with probe's reason.
TOL_KNOWN=8
for attempt in 1 2; do
	# It runs until the soak is over (SIGTERM ends it, 60 s at most):
	# the soak's own checks before its first reading take a time of
	# their own, and a busyload of fixed length once ended before the
	# soak's second reading.
	"$BUSYLOAD" --cpu 1 --fraction 0.5 --period 100ms --duration 60s >"$tmp/busyload.out" &
	bl_pid=$!
	sleep 0.3
	read -r load lothers < <(soak_reading known)
	kill -TERM "$bl_pid"; wait "$bl_pid"; bl_pid=
	got=$(sed -n 's/.*: got \([0-9.]*\) of the CPU.*/\1/p' "$tmp/busyload.out")
	note "busyload 50%, try $attempt: soak $(printf %.2f "$load")%, idle before $(printf %.2f "$idle")% ($(cat "$tmp/busyload.out"))"
	awk -v l="$load" -v g="$got" -v i="$idle" -v t="$TOL_KNOWN" \
		'BEGIN { exit !(l >= 100 * g - t && l <= 100 * g + i + t) }' && break
	if [ $attempt = 2 ]; then
		# The method needs a steady CPU (docs/cpu.md), which probe
		# checks: where it has one, a miss is the soak's; where it has
		# not, the miss is said and blamed on the host.
		steady=$("$WR" probe --require steady_cpu 2>&1) &&
			fail "soak read $load% under a load that had $got of the CPU (idle read $idle%); want within $TOL_KNOWN points of it"
		note "the soak read $load% of a known ${got} load on a host without a steady CPU, which the method needs: $steady"
		break
	fi
	recalibrate
done
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
