# Do the sizes agree? A lab DUT shaped in bits (lab --shape 20Mbit, tbf
# counting what the wire carries) forwards 29762 frames/s of 64 bytes
# (84 on the wire) but only 4699 of 512 (532): the sizes differ, and the
# 512-byte figure is explained by the trial that failed above it, at the
# qdisc. A DUT shaped in frames (rfc2544.sh) is the case where they agree.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
"$WR" lab up --prefix "$P" --shape 20Mbit >/dev/null || fail "lab up --shape 20Mbit"
Q="--prefix $P --quick --trial-time 1s --settle 0.1s --learn-wait 0.1s --drain 0.3s --sizes 64,512 --max-load 40kpps --precision 1%"

# --json-stream: one object per trial as it ends, then the result; without
# a terminal the plan and one line per trial go to stderr.
TMPD=$(mktemp -d); trap 'rm -rf "$TMPD"; cleanup' EXIT
"$WR" rfc2544 throughput $Q --json-stream --label sizes --openmetrics "$TMPD/r.prom" >"$TMPD/out" 2>"$TMPD/err" ||
	fail "throughput: $(cat "$TMPD/err")"
jq -e . "$TMPD/out" >/dev/null || fail "--json-stream: a line is not JSON: $(head -c 300 "$TMPD/out")"
j=$(tail -1 "$TMPD/out")
n=$(jq '.trials | length' <<<"$j")
[ "$(jq -s '[.[] | select(.event == "trial")] | length' "$TMPD/out")" = "$n" ] && [ "$(wc -l <"$TMPD/out")" = $((n + 1)) ] ||
	fail "--json-stream: $(grep -c '"event":"trial"' "$TMPD/out") trial lines and $(wc -l <"$TMPD/out") in all, for $n trials"
# each line is a document of its own, with the header
jq -se 'all(.[]; .wirerate.command == "rfc2544" and .wirerate.schema == 1)' "$TMPD/out" >/dev/null ||
	fail "--json-stream: a line without the \"wirerate\" header"
[ "$(jq -sc '[.[] | select(.event == "trial") | .load]' "$TMPD/out")" = "$(jq -c '[.trials[].load]' <<<"$j")" ] ||
	fail "--json-stream: the trial lines are not the result's trials"
jq -se '[.[] | select(.event == "trial")] | all(.limit.by | type == "string")' "$TMPD/out" >/dev/null ||
	fail "--json-stream: a trial without its limit"
grep -q "^rfc2544: planned: about [0-9]* trials, [0-9]* \(s\|min\)" "$TMPD/err" || fail "no plan on stderr: $(head -3 "$TMPD/err")"
[ "$(grep -cE '^ +(64|512) B  throughput +trial [0-9]+ +load' "$TMPD/err")" = "$n" ] ||
	fail "not one progress line per trial on stderr: $(head -5 "$TMPD/err")"
note "plan: $(head -1 "$TMPD/err"); ran $n trials"
# the same figures as OpenMetrics, read by the Prometheus client's parser
/usr/bin/python3 - "$TMPD/r.prom" "$(jq -c '[.rows[] | {size, ndr: .ndr.lower, pdr: .pdr.lower}]' <<<"$j")" <<'PY' ||
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
got = {}
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        assert s.labels["label"] == "sizes", s
        got[s.name, int(s.labels["size"])] = s.value
for r in json.loads(sys.argv[2]):
    assert got["wirerate_rfc2544_ndr_frames_per_second", r["size"]] == r["ndr"], (got, r)
    assert got["wirerate_rfc2544_pdr_frames_per_second", r["size"]] == r["pdr"], (got, r)
    assert got["wirerate_rfc2544_pdr_at_least", r["size"]] == 0, got
PY
	fail "openmetrics: $(cat "$TMPD/r.prom")"
note "rows: $(jq -c '[.rows[] | {size, ndr: .ndr | [.lower, .upper], pdr: .pdr | [.lower, .upper]}]' <<<"$j")"
note "sizes: $(jq -c '.sizes | map_values({agree, explained, lo, hi, below: [.rows[] | select(.below) | {size, failed_load, limit}]})' <<<"$j")"
# The shaper's rates, so that the check below means something: a 1 s
# trial also passes tbf's bucket (32 frames of 1538 bytes) and the queue
# it drains after the traffic (64), 147 KB on top of 2.5 MB, and the PDR
# allows 0.5% more: 31515 and 4976 were found here, 6% above the rates.
# Allowed: -6% to +16%, far apart from each other either way.
[ "$(jq -r '.rows[0].pdr.lower > 28000 and .rows[0].pdr.lower < 34500 and
	.rows[1].pdr.lower > 4400 and .rows[1].pdr.lower < 5450' <<<"$j")" = true ] ||
	fail "PDRs not at the shaper's rates: $(jq -c '[.rows[].pdr.lower]' <<<"$j")"
# PDR: 512 bytes ends below 64's start, and the qdisc says why.
[ "$(jq -r '.sizes.pdr | .agree == false and .explained and
	([.rows[] | select(.below) | .size] == [512]) and
	(.rows[] | select(.below) | .limit == "qdisc" and .failed_load > .lo - 1 and (.limit_text | test("tbf")))' <<<"$j")" = true ] ||
	fail "PDR: not 512 B below, explained by the qdisc: $(jq -c .sizes.pdr <<<"$j")"
# NDR: the same two sizes differ; whatever failed above 512's figure
# names a place (a held vCPU may lose first, at the DUT's ring).
[ "$(jq -r '.sizes.ndr | .agree == false and .explained and ([.rows[] | select(.below) | .size] == [512])' <<<"$j")" = true ] ||
	fail "NDR: $(jq -c .sizes.ndr <<<"$j")"
# The text says the same, one line each and one under it for 512 bytes.
# the text's shape: a coarser search will do
t=$("$WR" rfc2544 throughput ${Q/--precision 1%/--precision 5%} --no-store) || fail "throughput, text"
grep -q '^  sizes      PDR differ: not every size.s range reaches [0-9]* frames/s' <<<"$t" || fail "text: $t"
grep -qE '^             512 B [0-9]+-[0-9]+: its failed trial at [0-9]+ frames/s: a qdisc: tbf on dut1 dropped [0-9]+ frames' <<<"$t" ||
	fail "text, the 512-byte line: $(grep -A2 '^  sizes' <<<"$t")"

# A single size has nothing to agree with: no "sizes" at all (a coarse,
# short search is enough to say so).
S=${Q/--sizes 64,512/--sizes 64}
j=$("$WR" rfc2544 throughput ${S/--precision 1%/--precision 10%} --trial-time 0.5s --no-store --json) || fail "one size"
[ "$(jq -r 'has("sizes")' <<<"$j")" = false ] || fail "one size, yet sizes: $(jq -c .sizes <<<"$j")"
echo ok
