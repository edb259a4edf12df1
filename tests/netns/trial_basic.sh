# 20 kpps for 3 s through the lab: rx == tx, loss 0, offered within 0.5%;
# flows, IMIX and the mmsg port type count the same way.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require af_packet_tx_ring,af_packet_rx_ring >/dev/null 2>&1 || skip "$("$WR" probe --require af_packet_tx_ring,af_packet_rx_ring 2>&1)"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
T="--prefix $P --learn-wait 0.2s --drain 1s --json"
TMPD=$(mktemp -d); trap 'rm -rf "$TMPD"; cleanup' EXIT

# Exact counts. The generator paces from the clock and catches up after a
# pause (slack: 5% of the duration, 150 ms here), so it sends every frame
# and offers the rate exactly: tx is 60000 and offered 20000, and 0.5% is
# the tool's own tester-limited line. Every frame counted: the DUT's
# receive ring (256 frames) holds 12.8 ms at 20 kpps, and its NAPI thread
# runs SCHED_FIFO, out of a background load's reach. Measured beside a 20%
# load (15 trials like this one): no loss, the generator at most 64
# frames (3.2 ms) behind, the latest frame 6.2 ms late. A vCPU the
# hypervisor holds longer than the ring lasts drops frames there, and
# those are counted (ACCOUNTED in lib.sh). Once, though, a
# generator fell 170 ms short (trial_interrupt.sh), past its slack: the
# trial marks that tester-limited, and it is run again, each logged,
# three at most; a short trial not so marked fails at once.
for attempt in 1 2 3; do
	j=$("$WR" trial $T -r 20kpps -s 64 -t 3s --label basic \
		--latency-histogram "$TMPD/h.csv" --openmetrics "$TMPD/m.prom") || fail "trial"	# -r -s -t: --rate --size --duration
	jq -e '.directions[0] | .tx < 60000 and .tester_limited' <<<"$j" >/dev/null || break
	note "trial $attempt: the generator fell short: $(jq -r '.directions[0].tester_reason' <<<"$j")"
	[ $attempt -lt 3 ] || fail "the generator fell short in three trials"
done
note "$(jq -c '.directions[0] | {tx, rx, lost, offered_pps, largest_burst, tester_limited}' <<<"$j")"
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r .wirerate.command <<<"$j")" = trial ] || fail "no JSON header: $(jq -c .wirerate <<<"$j")"
# One shape whatever the options: one trial is repeats[0] too, with a
# summary of one, and the top level is that trial.
[ "$(jq -r '(.repeats | length) == 1 and .summary.trials == 1 and .summary.median_repeat == 0
	and del(.wirerate, .repeats, .summary, .run_id) == .repeats[0]' <<<"$j")" = true ] ||
	fail "one trial's shape: $(jq -c '{summary, n: (.repeats | length)}' <<<"$j")"
[ "$(jq -r .tx <<<"$d")" = 60000 ] || fail "tx $(jq -r .tx <<<"$d"), want 60000"
[ "$(jq -r "$ACCOUNTED"' accounted and .late == 0' <<<"$d")" = true ] || fail "not every frame counted: $d"
[ "$(jq -r '(.offered_pps - 20000 | fabs) / 20000 <= 0.005' <<<"$d")" = true ] || fail "offered $(jq -r .offered_pps <<<"$d") not within 0.5% of 20000"
[ "$(jq -r .tester_limited <<<"$d")" = false ] || fail "tester-limited: $d"
[ "$(jq -r '.latency_ns.frames == .rx and .latency_ns.min > 0 and .latency_ns.max >= .latency_ns.p99' <<<"$d")" = true ] || fail "latency: $d"
# The latency histogram: every timed frame in it, buckets in order, and
# the JSON's p99 inside the bucket where the CSV's cumulative share
# reaches 0.99 (the JSON gives that bucket's midpoint).
[ "$(head -1 "$TMPD/h.csv")" = "repeat,direction,lo_ns,hi_ns,count,cumulative" ] || fail "histogram header: $(head -1 "$TMPD/h.csv")"
hs=$(awk -F, -v p99="$(jq -r .latency_ns.p99 <<<"$d")" 'NR > 1 {
	n += $5; if ($3 > $4 || $3 <= last) bad = NR; last = $4
	if (!hit && $6 >= 0.99) { hit = 1; if (p99 < $3 || p99 > $4) bad = "p99 " p99 " not in " $3 ".." $4 }
	cum = $6 }
	END { printf "%d %s %s", n, cum, bad }' "$TMPD/h.csv")
note "histogram: $(($(wc -l <"$TMPD/h.csv") - 1)) buckets; frames, last cumulative, bad: $hs"
read -r hn hcum hbad <<<"$hs"
[ "$hn" = "$(jq -r .latency_ns.frames <<<"$d")" ] && [ "$hcum" = 1.000000000 ] && [ -z "$hbad" ] ||
	fail "histogram: $hs against $(jq -c .latency_ns <<<"$d")"
# OpenMetrics, read by the Prometheus client's own parser
# Debian's own python3: the parser is its package (a PATH may put another first)
/usr/bin/python3 - "$TMPD/m.prom" "$(jq -c '{tx, offered_pps, frames: .latency_ns.frames}' <<<"$d")" <<'PY' || fail "openmetrics: $(head -20 "$TMPD/m.prom")"
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
want = json.loads(sys.argv[2])
got = {}
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        assert s.labels["label"] == "basic" and s.labels["size"] == "64", s
        got[s.name, s.labels.get("quantile", "")] = s.value
assert got["wirerate_trial_sent_frames", ""] == want["tx"], got
assert abs(got["wirerate_trial_offered_frames_per_second", ""] - want["offered_pps"]) < 1e-6, got
assert got["wirerate_trial_latency_seconds_count", ""] == want["frames"], got
assert 0 < got["wirerate_trial_latency_seconds", "0.5"] <= got["wirerate_trial_latency_seconds", "0.99"], got
print("# openmetrics: %d samples parsed" % len(got))
PY
# The kernel agrees: the sink interface saw at least the learning and
# test frames the analyzer counted (read after the trial). Not 60000 and
# more: a held DUT vCPU may drop a few on the way, as ACCOUNTED allows
# (CI saw 20 of 60000).
sink_rx=$(ifc "$P" sink0 rx_packets)
[ "$sink_rx" -ge "$(jq -r '.rx + .learning_rx' <<<"$d")" ] ||
	fail "sink0 counted $sink_rx, the analyzer $(jq -c '{rx, learning_rx}' <<<"$d")"

# 16 flows, IMIX sizes, the sendmmsg port: still every frame (at half the
# rate: 25.6 ms of the DUT's ring). sendmmsg is the slowest sender, and a
# full run saw it fall behind here once: then the trial says the tester
# was the limit, why, and every frame it lost is its own or the DUT
# ring's, counted.
j=$("$WR" trial $T --rate 10kpps --imix --flows 16 --duration 2s --port-type mmsg) || fail "imix trial"
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r .sizes <<<"$j")" = "64,570,1518,64,570,64,570,64,570,64,64,64" ] || fail "imix pattern $(jq -r .sizes <<<"$j")"
note "imix/flows/mmsg: $(jq -c '{tx, rx, lost, ring_drops, tester_refused, tester_limited, offered_pps}' <<<"$d")"
[ "$(jq -r "$ACCOUNTED"' .tx == 20000 and .learning_tx == 16 and (accounted or
	(.tester_limited and (.tester_reason | length) > 0 and .rx + .lost == .tx and .duplicated == 0 and
	 .reordered == 0 and .lost == .ring_drops + .tester_refused and .lost * 100 <= .tx))' <<<"$d")" = true ] ||
	fail "imix/flows/mmsg: $d"
[ "$(jq -r .port_type <<<"$j")" = afpacket-mmsg ] || fail "port type"

# --repeat 2: two whole trials with their own ids, then the median of the
# two (forwarded is received frames over the set duration), and the
# report shows that median; the top level is the trial nearest it.
j=$("$WR" trial $T --rate 10kpps --duration 1s --repeat 2 --label basic-repeat) || fail "--repeat 2"
note "--repeat 2: $(jq -c '{summary, ids: [.repeats[].trial_id]}' <<<"$j")"
[ "$(jq -r "$ACCOUNTED"' .summary.trials == 2 and (.repeats | length) == 2 and .repeats[0].trial_id != .repeats[1].trial_id
	and all(.repeats[]; .directions[0] | .tx == 10000 and accounted)
	and .summary.forwarded_pps_median == ([.repeats[].directions[0].forwarded_pps] | add / 2)
	and del(.wirerate, .repeats, .summary, .run_id) == .repeats[.summary.median_repeat]' <<<"$j")" = true ] ||
	fail "--repeat 2: $j"
med=$(jq -r .summary.forwarded_pps_median <<<"$j")
"$WR" report basic-repeat --json | jq -e --argjson m "$med" '.runs[0].cells[0].trial | .trials == 2 and .forwarded_pps == $m' \
	>/dev/null || fail "report of --repeat 2 (median $med): $("$WR" report basic-repeat --json)"
expect_exit 2 "$WR" trial --prefix "$P" --rate 10kpps --repeat 0
expect_exit 2 "$WR" trial --prefix "$P" --rate 10kpps --repeat 17

# The human-readable block.
out=$("$WR" trial --prefix "$P" --learn-wait 0.2s --drain 1s --rate 5kpps --duration 1s) || fail "text trial"
grep -q '^  Result: [0-9]*pps [0-9]*Mb/sec' <<<"$out" || fail "no pktgen-style result line: $out"
grep -q 'received   5000 frames, lost 0' <<<"$out" || fail "text block: $out"
echo ok
