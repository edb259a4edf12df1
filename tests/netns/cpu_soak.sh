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
if ! out=$(umask 077; "$WR" soak --calibrate --cpus 1 --interval 500ms --settle 3 --tolerance 2 --timeout 15s \
		--calibration "$cal" 2>&1); then
	case "$out" in *"did not settle"*) skip "machine too busy to calibrate: $out" ;; esac
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
out=$("$WR" soak --calibrate --cpus 1 --interval 500ms --settle 3 --tolerance 5 --timeout 15s \
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

# soak_reading FILE-PREFIX: overall load of CPU 1 over 4 s, in percent.
soak_reading() {
	"$WR" soak --cpus 1 --duration 4s --json --calibration "$cal" >"$tmp/$1.json" || fail "soak $1"
	jq -r '.summary.load' "$tmp/$1.json"
}

# --- idle: within TOL of 0 (one retry: the machine is shared) ---
idle=$(soak_reading idle)
if ! within "$idle" 0 "$TOL"; then
	note "idle reading $idle% looks disturbed; again"
	idle=$(soak_reading idle)
fi
note "idle: $(printf %.2f "$idle")%"
within "$idle" 0 "$TOL" || fail "idle soak read $idle%, want 0 +- $TOL"

# --- a known 50% load on CPU 1: within TOL of 50 ---
known() {
	"$BUSYLOAD" --cpu 1 --fraction 0.5 --period 10ms --duration 5s >"$tmp/busyload.out" &
	bl_pid=$!
	sleep 0.3
	soak_reading known
	wait "$bl_pid"; bl_pid=
}
load=$(known)
if ! within "$load" 50 "$TOL"; then
	note "known-load reading $load% looks disturbed; again"
	load=$(known)
fi
note "busyload 50%: soak $(printf %.2f "$load")% ($(cat "$tmp/busyload.out"))"
within "$load" 50 "$TOL" || fail "soak read $load% under a 50% load, want 50 +- $TOL"
[ "$(jq '.readings | length' "$tmp/known.json")" -ge 3 ] || fail "soak: readings missing"
jq -e '.readings[0].cpus[0].cpu == 1' "$tmp/known.json" >/dev/null || fail "soak: per-CPU reading"

# --- text output and Ctrl-C: stops cleanly with the summary ---
"$WR" soak --cpus 1 --calibration "$cal" --per-cpu >"$tmp/int.out" 2>&1 &
pid=$!
sleep 2.3
kill -INT "$pid"
wait "$pid"; rc=$?
[ "$rc" -eq 0 ] || fail "soak after SIGINT exited $rc: $(cat "$tmp/int.out")"
grep -q '^System load: *[0-9.]*%' "$tmp/int.out" || fail "no 'System load:' line: $(cat "$tmp/int.out")"
grep -q '^Summary: ' "$tmp/int.out" || fail "no summary after SIGINT: $(cat "$tmp/int.out")"
grep -q 'cpu1: load' "$tmp/int.out" || fail "no per-CPU summary"
echo ok
