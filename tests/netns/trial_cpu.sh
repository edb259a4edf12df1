# Every lab trial records what it cost the DUT's CPU: the /proc/stat
# breakdown and, with --soak, the soak reading; the cost per forwarded
# frame says which source it came from. The soak sees forwarding work.
. "$(dirname "$0")/lib.sh"

[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
dut=$(labjq "$P" .dut.cpus)
T="--prefix $P --learn-wait 0.2s --drain 0.5s --json"

# 200 kpps, about a fifth of the DUT's CPU: at 50 kpps (about 5%), tick
# sampling without IRQ time accounting once saw 1% of it
# seen: the receive work shows on the DUT's CPU (the test below)
seen() { [ "$(jq -r '.cpus[0].sys + .cpus[0].soft > 2 or .cpus[0].net_rx_s > 1000' <<<"$1")" = true ]; }
j=$("$WR" trial $T --rate 200kpps --duration 2s) || fail "trial"
c=$(jq -c .dut_cpu <<<"$j")
# Without IRQ time accounting the kernel charges a tick to what runs when
# it fires; a trial in which this host held the DUT's vCPU so that its
# ticks missed the NAPI work (seen once: busy 41% by wall minus idle, sys
# 1.7%) is measured once more. A watch of the wrong CPU misses it twice.
if ! seen "$c"; then
	note "the ticks missed the receive work once: $c"
	j=$("$WR" trial $T --rate 200kpps --duration 2s) || fail "trial, again"
	c=$(jq -c .dut_cpu <<<"$j")
fi
note "without soak: $(jq -c '{cpus: [.cpus[] | {cpu, soft, idle, busy, net_rx_s}], ns_per_frame, source}' <<<"$c")"
[ "$(jq -r '.cpus | length' <<<"$c")" = 1 ] || fail "want the one DUT CPU: $c"
[ "$(jq -r '.cpus[0].cpu' <<<"$c")" = "$dut" ] || fail "watched CPU is not the DUT's"
[ "$(jq -r .source <<<"$c")" = /proc/stat ] || fail "source"
# The DUT's receive work shows on its CPU: in the lab's NAPI mode as sys
# time (its NAPI threads; no RPS, so no NET_RX softirqs), in skb mode as
# NET_RX softirqs. 2% or 1000 softirqs/s, where the DUT CPU reads 60-100%
# busy at this rate (quiet and beside a 20% load): tick sampling's error
# (the 1% seen once) and a background load (which only adds to the busy
# time, and cannot take the FIFO NAPI threads' time) leave it far
# inside; a watch of the wrong CPU, or one that misses the work, reads
# near 0.
seen "$c" || fail "no receive work seen on the DUT CPU, twice: $c"
[ "$(jq -r '.ns_per_frame > 0' <<<"$c")" = true ] || fail "no cost per frame: $c"

# With the soak: calibrate the DUT CPU (short, into a file of our own).
# As cpu_soak.sh does: 3 readings within 3% and 30 s to find them. The
# calibration counts loops per second of the soaker's own CPU time, so a
# background load does not move it; readings settle within 2% in 3-10 s
# quiet, 5-15 s beside a 20% load. A 3% error is 3 points of the DUT
# CPU, which the checks below leave room for. Not settling fails: a
# test that skips when the host is busy tests nothing when it matters.
cal=$(mktemp); trap 'rm -f "$cal"; cleanup' EXIT
out=$("$WR" soak --calibrate --cpus "$dut" --interval 500ms --settle 3 --tolerance 3 --timeout 30s \
	--calibration "$cal" 2>&1) || fail "soak calibrate: $out"
j=$("$WR" trial $T --rate 50kpps --duration 2s --soak --soak-calibration "$cal") || fail "trial --soak"
c=$(jq -c .dut_cpu <<<"$j")
note "with soak: $(jq -c '{cpus: [.cpus[] | {cpu, soft, busy, soak}], busy_cpu_s, soak_cpu_s, ns_per_frame, source}' <<<"$c")"
[ "$(jq -r .source <<<"$c")" = soak ] || fail "source with --soak"
# 50 kpps takes the DUT over half its CPU on this VM (the soak read 58%
# quiet, 70% beside a 20% load: 12-14 us a frame), far above 1% even
# with the calibration 3 points off; a background load on the DUT CPU
# only reads higher. The cost per frame, 50 ns to 100 us, is the range
# any forwarding here falls in, whatever else runs (all of a 20% load on
# the DUT CPU adds 4 us a frame): a soak that saw nothing, or counted the
# wrong thing, gives 0 or a figure off by orders of magnitude.
[ "$(jq -r '.cpus[0].soak > 0.01' <<<"$c")" = true ] || fail "the soak saw no forwarding work: $c"
[ "$(jq -r '.ns_per_frame > 50 and .ns_per_frame < 100000' <<<"$c")" = true ] || fail "cost per frame: $c"
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 1s --soak --soak-calibration /nonexistent/x
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 1s --watch-cpus 99999
echo ok
