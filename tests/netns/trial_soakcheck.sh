# A soak figure is only as good as its calibration: before each soaked
# trial an idle check holds the DUT CPU's speed against it. A calibration
# made for a faster CPU (its rate edited up 30%) marks the trial's soak
# untrusted, with the reason, in text, JSON and the store; an honest fresh
# one does not. The stall probe's figures come out and are stored too.
. "$(dirname "$0")/lib.sh"

[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
command -v sqlite3 >/dev/null || fail "no sqlite3 shell (scripts/deps.sh installs it)"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
dut=$(labjq "$P" .dut.cpus)
tmp=$(mktemp -d /tmp/wr-soakcheck.XXXXXX); trap 'rm -rf "$tmp"; cleanup' EXIT
cal=$tmp/soak-calibration db=$tmp/results.db
T="--prefix $P --rate 20kpps --duration 1s --learn-wait 0.2s --drain 0.3s --db $db --soak --soak-calibration"

# As cpu_soak.sh does: 3 readings within 3% and 30 s to find them (on this
# VM they settle in 3-15 s, quiet or beside a 20% load). A calibration
# that does not settle fails the test: it is the host's noise, said so.
calibrate() {
	"$WR" soak --calibrate --cpus "$dut" --interval 500ms --settle 3 --tolerance 3 --timeout 30s \
		--calibration "$cal" >"$tmp/cal.out" 2>&1 || fail "soak calibrate: $(tail -2 "$tmp/cal.out")"
}
calibrate
# verdict_holds JSON: on every try, whatever the host did, the verdict is
# the one the reading calls for: trusted exactly when the idle speed is
# within the 5% tolerance of the calibration and the check had the CPU
# (a check that lost its CPU reads -100%, says "was busy", untrusted).
verdict_holds() {
	jq -e 'if .soak_trusted then (.soak_idle_off_pct | fabs) <= 5 and .soak_untrusted_reason == null
		else ((.soak_idle_off_pct | fabs) > 5 or (.soak_untrusted_reason | test("was busy")))
			and (.soak_untrusted_reason | length) > 0 end' <<<"$1" >/dev/null ||
		fail "the soak check's verdict is not its reading's: $1"
}

# --- a calibration for a CPU 30% faster: untrusted ---
# The idle check's tolerance is 5%; a 30% faster calibration reads the
# CPU 23% slow (1/1.3), which no drift of this host within a minute has
# come near (its worst, 17% in an hour). The idle check's slices left
# out when the CPU was busy with something else say so instead, which
# is untrusted too.
# The host's speed swings too (an idle check read a calibration made a
# minute before 16% slow, beside other tests' traffic): a fast
# calibration that passes is made again from a fresh one, each try
# logged; trusted three times is a failure.
for attempt in 1 2 3; do
	awk '$1 == "cpu" { printf "cpu %s %.3f %s\n", $2, $3 * 1.3, $4; next } { print }' "$cal" >"$tmp/fast"
	j=$("$WR" trial $T "$tmp/fast" --json) || fail "trial with the fast calibration"
	c=$(jq -c .dut_cpu <<<"$j")
	note "fast calibration, try $attempt: $(jq -c '{soak_trusted, soak_idle_off_pct, soak_untrusted_reason}' <<<"$c")"
	verdict_holds "$c"
	"$WR" trial $T "$tmp/fast" >"$tmp/fast.txt" || fail "trial with the fast calibration (text)"
	[ "$(jq -r .soak_trusted <<<"$c")" = false ] && grep -q 'soak check UNTRUSTED' "$tmp/fast.txt" && break
	[ $attempt = 3 ] && fail "a calibration 30% fast was trusted 3 times: $c $(grep 'soak check' "$tmp/fast.txt")"
	calibrate
done
jq -r .soak_untrusted_reason <<<"$c" | grep -q "recalibrate with wirerate soak --calibrate\|was busy" ||
	fail "no reason given: $c"
jq -r .soak_untrusted_reason <<<"$c" | grep -q "CPU $dut" || fail "the reason does not name CPU $dut: $c"
n=$(sqlite3 "$db" "SELECT count(*) FROM trial_cpu WHERE soak_trusted = 0 AND soak_note LIKE '%CPU $dut%'")
[ "$n" -ge 2 ] || fail "the store holds $n untrusted trials, want 2 or more"

# --- an honest fresh calibration: trusted ---
# This host drifts: with other developers' tests on it, idle checks of a
# calibration made seconds before read it 7% slow and 9% fast before one
# came within 5%. So a check that misses runs again on a fresh
# calibration, each try logged and its verdict checked against its
# reading, up to 3 tries; untrusted 3 times is a failure, never a skip (a
# check that always says untrusted fails here).
for attempt in 1 2 3; do
	j=$("$WR" trial $T "$cal" --json) || fail "trial with a fresh calibration"
	c=$(jq -c .dut_cpu <<<"$j")
	note "fresh calibration, try $attempt: $(jq -c '{soak_trusted, soak_idle_off_pct, soak_untrusted_reason}' <<<"$c")"
	verdict_holds "$c"
	[ "$(jq -r .soak_trusted <<<"$c")" = true ] && break
	[ $attempt = 3 ] && fail "a fresh calibration was untrusted 3 times: $c"
	calibrate
done
[ "$(jq -r .soak_untrusted_reason <<<"$c")" = null ] || fail "a trusted soak has a reason: $c"
last=$(sqlite3 "$db" "SELECT soak_trusted FROM trial_cpu ORDER BY trial_id DESC LIMIT 1")
[ "$last" = 1 ] || fail "the trusted trial is stored as soak_trusted=$last"

# --- without a soak, no check: nothing claimed either way ---
j=$("$WR" trial --prefix "$P" --rate 20kpps --duration 1s --learn-wait 0.2s --drain 0.3s --db "$db" --json) ||
	fail "trial without soak"
[ "$(jq -r .dut_cpu.soak_trusted <<<"$j")" = null ] || fail "no soak, yet a soak check: $(jq -c .dut_cpu <<<"$j")"

# --- the stall probe over a 2 s trial ---
# It wakes every 20 ms: about 100 times in 2 s. At least 50 (half) holds
# when the host takes the CPU away for long stretches (the longest seen
# here was 22 ms, in a 3 s window); more than 2 s / 20 ms + 10 would be a
# probe outside the window.
j=$("$WR" trial --prefix "$P" --rate 20kpps --duration 2s --learn-wait 0.2s --drain 0.3s --db "$db" \
	--stall-probe --json) || fail "trial --stall-probe"
s=$(jq -c .dut_cpu.stall <<<"$j")
note "stall probe: $s"
[ "$(jq -r '.cpus | length' <<<"$s")" = 1 ] || fail "want the one DUT CPU: $s"
[ "$(jq -r '.cpus[0].cpu' <<<"$s")" = "$dut" ] || fail "probed the wrong CPU: $s"
jq -e '.cpus[0].wakeups >= 50 and .cpus[0].wakeups <= 110' <<<"$s" >/dev/null || fail "wakeups: $s"
jq -e '.cpus[0].longest_stall_ns >= 0 and .cpus[0].stalls >= 0 and .cpus[0].stalls <= .cpus[0].wakeups' \
	<<<"$s" >/dev/null || fail "stall figures: $s"
# root may use SCHED_FIFO; a host that refuses it says so
[ "$(jq -r .fifo <<<"$s")" = true ] || jq -r .note <<<"$s" | grep -q "SCHED_FIFO refused" || fail "fifo: $s"
"$WR" trial --prefix "$P" --rate 20kpps --duration 1s --learn-wait 0.2s --drain 0.3s --db "$db" --stall-probe |
	grep -q "DUT CPU $dut *longest stall [0-9.]* ms, [0-9]* stalls > 1 ms" || fail "no stall line in the text"
row=$(sqlite3 "$db" "SELECT stall_cpu, stall_max_ns IS NOT NULL, stalls IS NOT NULL, stall_threshold_ns
	FROM trial_cpu ORDER BY trial_id DESC LIMIT 1")
[ "$row" = "$dut|1|1|1000000.0" ] || fail "stored stall figures: $row"
echo ok
