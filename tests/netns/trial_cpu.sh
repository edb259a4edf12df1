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
j=$("$WR" trial $T --rate 200kpps --duration 2s) || fail "trial"
c=$(jq -c .dut_cpu <<<"$j")
note "without soak: $(jq -c '{cpus: [.cpus[] | {cpu, soft, idle, busy, net_rx_s}], ns_per_frame, source}' <<<"$c")"
[ "$(jq -r '.cpus | length' <<<"$c")" = 1 ] || fail "want the one DUT CPU: $c"
[ "$(jq -r '.cpus[0].cpu' <<<"$c")" = "$dut" ] || fail "watched CPU is not the DUT's"
[ "$(jq -r .source <<<"$c")" = /proc/stat ] || fail "source"
# The DUT's receive work shows on its CPU: in the lab's NAPI mode as sys
# time (its NAPI threads; no RPS, so no NET_RX softirqs), in skb mode as
# NET_RX softirqs.
[ "$(jq -r '.cpus[0].sys + .cpus[0].soft > 2 or .cpus[0].net_rx_s > 1000' <<<"$c")" = true ] ||
	fail "no receive work seen on the DUT CPU: $c"
[ "$(jq -r '.ns_per_frame > 0' <<<"$c")" = true ] || fail "no cost per frame: $c"

# With the soak: calibrate the DUT CPU (short, into a file of our own).
cal=$(mktemp); trap 'rm -f "$cal"; cleanup' EXIT
if ! out=$("$WR" soak --calibrate --cpus "$dut" --interval 500ms --settle 3 --tolerance 2 --timeout 15s \
	--calibration "$cal" 2>&1); then
	case "$out" in *"did not settle"*) skip "machine too busy to calibrate the soak: $out" ;; esac
	fail "soak calibrate: $out"
fi
j=$("$WR" trial $T --rate 50kpps --duration 2s --soak --soak-calibration "$cal") || fail "trial --soak"
c=$(jq -c .dut_cpu <<<"$j")
note "with soak: $(jq -c '{cpus: [.cpus[] | {cpu, soft, busy, soak}], busy_cpu_s, soak_cpu_s, ns_per_frame, source}' <<<"$c")"
[ "$(jq -r .source <<<"$c")" = soak ] || fail "source with --soak"
[ "$(jq -r '.cpus[0].soak > 0.01' <<<"$c")" = true ] || fail "the soak saw no forwarding work: $c"
[ "$(jq -r '.ns_per_frame > 50 and .ns_per_frame < 100000' <<<"$c")" = true ] || fail "cost per frame: $c"
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 1s --soak --soak-calibration /nonexistent/x
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 1s --watch-cpus 99999
echo ok
