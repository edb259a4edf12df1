# probe reports every feature with a meaning; --require works for tests.
. "$(dirname "$0")/lib.sh"

j=$("$WR" probe --json) || fail "probe --json"
for k in root netns veth af_packet_tx_ring af_packet_rx_ring qdisc_bypass af_xdp bpf \
	 xdp_native_veth nftables iptables tbf rps irq_time_accounting; do
	[ "$(jq -r ".features.$k.detail | length > 10" <<<"$j")" = true ] || fail "no detail for $k"
done
[ "$(jq -r .features.root.ok <<<"$j")" = true ] || fail "root not seen"
# steady_cpu is yes or no with what was seen (this VM is often not steady:
# either answer holds, never an unchecked one on a real root)
jq -e '.features.steady_cpu.ok != null' <<<"$j" >/dev/null || fail "steady_cpu not checked: $(jq -c .features.steady_cpu <<<"$j")"
# the detail says what was seen: the two readings, or the steal time
# that made it unsteady whatever the readings said
jq -r .features.steady_cpu.detail <<<"$j" | grep -qE "200 ms readings|stole [0-9]+ ticks" ||
	fail "steady_cpu: $(jq -c .features.steady_cpu <<<"$j")"
[ "$(jq -r .cpus <<<"$j")" = "$(nproc)" ] || fail "cpus $(jq -r .cpus <<<"$j") vs nproc $(nproc)"
# One cache line from the first CPU to each other one, measured here:
# under 100 us, as in cpu_line.sh (a median of 7 batches, which a pause
# or a background load cannot move that far).
if [ "$(nproc)" -ge 2 ]; then
	note "cpu_line_ns: $(jq -c .cpu_line_ns <<<"$j")"
	[ "$(jq -r '.cpu_line_ns["0-1"] > 0 and .cpu_line_ns["0-1"] < 100000' <<<"$j")" = true ] ||
		fail "no cache-line figure for CPUs 0 and 1: $(jq -c .cpu_line_ns <<<"$j")"
	"$WR" probe | grep -q 'one cache line from CPU 0 to: CPU 1 [0-9]* ns' || fail "text: no cache-line figure"
fi
"$WR" probe | grep -q 'irq_time_accounting' || fail "text output"
"$WR" probe --require netns,veth || fail "--require present"
expect_exit 2 "$WR" probe --require warp_drive
expect_exit 2 "$WR" probe extra
# IRQ time accounting from a fixture kernel config.
fx=$(mktemp -d); trap 'rm -rf "$fx"; cleanup' EXIT
mkdir -p "$fx/proc" "$fx/sys/devices/system/cpu" "$fx/sys/devices/system/clocksource/clocksource0"
echo "0-3" >"$fx/sys/devices/system/cpu/online"
echo "hpet" >"$fx/sys/devices/system/clocksource/clocksource0/current_clocksource"
printf 'CONFIG_RPS=y\nCONFIG_IRQ_TIME_ACCOUNTING=y\n' | gzip >"$fx/proc/config.gz"
j=$("$WR" probe --json --root "$fx")
[ "$(jq -r .features.irq_time_accounting.ok <<<"$j")" = true ] || fail "fixture: irq time"
[ "$(jq -r .cpus <<<"$j")" = 4 ] || fail "fixture: cpus"
[ "$(jq -r .clocksource <<<"$j")" = hpet ] || fail "fixture: clocksource"
[ "$(jq -r 'has("cpu_line_ns")' <<<"$j")" = false ] || fail "fixture: measured this host's CPUs"
printf '# CONFIG_IRQ_TIME_ACCOUNTING is not set\n' | gzip >"$fx/proc/config.gz"
[ "$("$WR" probe --json --root "$fx" | jq -r .features.irq_time_accounting.ok)" = false ] || fail "fixture: no irq time"
rm "$fx/proc/config.gz"
[ "$("$WR" probe --json --root "$fx" | jq -r .features.irq_time_accounting.ok)" = null ] || fail "fixture: unknown"
if command -v setpriv >/dev/null; then
	[ "$(setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$WR" probe --json | jq -r .features.root.ok)" = false ] || fail "non-root seen as root"
fi
echo ok
