# A noise floor under the NDR: an nft rule in the lab's DUT drops one
# frame in 5000 at random (200 ppm) at every load. The search must say
# the NDR is limited by sporadic loss, with a ppm range that holds the
# rule's 200 ppm, mark the row (text and JSON) without hiding it, store
# it so that 'report' shows it, and never call the NDR "at least".
# Bad --repeat exits 2.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require nftables >/dev/null 2>&1 || skip "$("$WR" probe --require nftables 2>&1)"
command -v nft >/dev/null || fail "no nft (scripts/deps.sh installs nftables)"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
D=$(mktemp -d); trap 'rm -rf "$D"; cleanup' EXIT

# The test's own table, in the DUT's forward path beside the lab's.
ip netns exec "${P}dut" nft -f - <<'NFT' || fail "nft table"
table inet wrnoise {
	chain forward {
		type filter hook forward priority 10; policy accept;
		numgen random mod 5000 == 0 counter drop
	}
}
NFT

# 1.9 s trials at up to 30 kpps: the whole search is one phase of 1.9 s
# trials (about 2.4 s each with the short waits), some 18 trials, 45-50 s
# here. 30 kpps is a fourteenth of what the lab forwards on this kind of
# host (docs: ~420 kpps): the PDR passes at the max load, and the NDR
# search walks down through loads that each lose ~200 ppm until a trial
# happens to be clean (a trial of N frames is clean with probability
# exp(-N/5000)). The region read (up to 0.8 of the PDR, 24 kpps) holds
# some 80k frames, 16 lost expected: the reading wants 5 in each half.
# The host's own loss must stay small: a stall of the DUT's vCPU loses
# frames only once the load fills the DUT's ring during it (1000 frames:
# 33 ms at 30 kpps), and that loss rises with load. Beside other builds
# at 50 kpps it added 150-700 ppm, once rising with load (e = 2.0), which
# is rightly not read as a floor but is no test of the rule; at 30 kpps
# the pooled readings were 157 and 180 ppm.
Q="--prefix $P --quick --trial-time 1.9s --settle 0.1s --learn-wait 0.1s --drain 0.3s --sizes 64 --max-load 30kpps"
# Up to three searches, each one's verdict checked. A search that reads
# no floor passes on to the next only when its own figures say why, and
# the reason is not the product's: (a) the rule hit the search's least
# loads (a few hundred frames lose one 5% of the time), which ends the
# search with no region to read a floor from, and the NDR is then not
# called "at least"; or (b) the host's own loss rose with load (a held
# vCPU fills the DUT's ring only at the higher loads; under ASan in CI on
# 2026-12-02 it did): elasticity above 1.5, which the noise-floor reading
# rightly refuses as a floor, and must. Any other miss fails.
for attempt in 1 2 3; do
	t0=$SECONDS
	j=$("$WR" rfc2544 throughput $Q --db "$D/r.db" --json) || fail "throughput, search $attempt"
	r=$(jq -c '.rows[0]' <<<"$j")
	[ "$(jq -r '.noise_floor.ndr_limited' <<<"$r")" = true ] && break
	if [ "$(jq -r '.ndr.lower <= 300 and .ndr.at_least == false' <<<"$r")" = true ]; then
		note "search $attempt: the rule hit the search's least loads: $(jq -c '{ndr: .ndr.lower, nf: .noise_floor.trials}' <<<"$r")"
	elif [ "$(jq -r '(.noise_floor.elasticity // 0) > 1.5' <<<"$r")" = true ]; then
		note "search $attempt: no floor read, the host's loss rose with load: $(jq -c '.noise_floor | {ppm, elasticity, loads}' <<<"$r")"
	else
		fail "search $attempt: NDR not flagged as limited by sporadic loss, and its figures do not say why: $r"
	fi
	[ $attempt -lt 3 ] || fail "no floor read in three searches: $r"
done
took=$((SECONDS - t0))
r=$(jq -c '.rows[0]' <<<"$j")
dropped=$(ip netns exec "${P}dut" nft list table inet wrnoise | sed -n 's/.*counter packets \([0-9]*\).*/\1/p')
note "search in ${took}s, the rule dropped $dropped: $(jq -c '{ndr: .ndr | [.lower, .upper, .at_least], pdr: .pdr | [.lower, .upper, .at_least, .bound_note], notes, nf: .noise_floor}' <<<"$r")"
[ "${dropped:-0}" -gt 0 ] || fail "the nft rule dropped nothing"
# The range holds the rule's 200 ppm. Its low end is the pooled ratio's
# 99% lower bound (or a lower trial's): at or under the truth, which is
# 200 ppm plus whatever the host itself loses at these loads (little at
# 30 kpps; 150-700 ppm at 50 kpps beside other builds; the issue measured
# 330-5000 ppm at 300-700 kpps): 500 allows 300 of it. Its high
# end is at least the pooled 99% upper bound, so at least 200 unless the
# pooled reading is 2.6 deviations low.
[ "$(jq -r '.noise_floor | .ppm_lo <= 500 and .ppm_hi >= 200 and .ppm >= 100 and .ppm <= 1500' <<<"$r")" = true ] ||
	fail "ppm range does not hold ~200: $(jq -c .noise_floor <<<"$r")"
# marked, not hidden: the NDR is still there (none at all when even the
# search's least load, 150 frames, lost one: 3% of searches), and it is
# no bound
[ "$(jq -r '(.ndr.lower > 0 or .ndr.upper <= 100) and .ndr.at_least == false and (.notes | test("NDR SPORADIC LOSS"))' <<<"$r")" = true ] ||
	fail "row not marked, or NDR hidden or called 'at least': $r"
[ "$(jq -r '.noise_floor.text | test("^NDR limited by sporadic loss of [0-9]+-[0-9]+ ppm, seen at [0-9]+ loads from .*use the PDR")' <<<"$r")" = true ] ||
	fail "text: $(jq -r .noise_floor.text <<<"$r")"
# Where that sporadic loss went: the test's own drop rule (counted in the
# DUT's stack), which takes the ~200 ppm, ahead of what the host itself
# loses at these loads.
[ "$(jq -r '.noise_floor.where | test("^dut-stack nft ")' <<<"$r")" = true ] ||
	fail "the floor's loss is not put on the drop rule: $(jq -r .noise_floor.where <<<"$r")"
# The PDR is "at least" exactly when nothing failed it, and then says
# where (at --max-load, or where the tester fell short). Near 50 kpps a
# busy host may lose 0.5% now and then, so it need not be a bound.
[ "$(jq -r '((.pdr.upper == null) == .pdr.at_least) and ((.pdr.at_least | not) or (.pdr.bound_note | test("at 64 B")))' <<<"$r")" = true ] ||
	fail "PDR bound: $(jq -c .pdr <<<"$r")"
# Stored with the run: report shows it, text and JSON.
id=$(jq -r .run_id <<<"$j")
rj=$("$WR" report "$id" --db "$D/r.db" --json) || fail "report --json"
[ "$(jq -r '.runs[0].cells[0].noise_floor.ndr_limited and .runs[0].cells[0].at_least == false' <<<"$rj")" = true ] ||
	fail "report: $(jq -c '.runs[0].cells[0]' <<<"$rj")"
"$WR" report "$id" --db "$D/r.db" | grep -q "64 B: NDR limited by sporadic loss of" || fail "report text without the noise floor"

# --repeat out of its range: one line, exit 2.
expect_exit 2 "$WR" rfc2544 --prefix "$P" --repeat 0
expect_exit 2 "$WR" rfc2544 --prefix "$P" --repeat 17
expect_exit 2 "$WR" rfc2544 --prefix "$P" --repeat x
echo ok
