# RFC 2544 on a lab DUT shaped to a known capacity (20 kpps): the search
# finds NDR and PDR just under it, back-to-back finds a burst the shaper's
# bucket and queue can hold; Ctrl-C leaves a marked, partial result; bad
# input exits 2. The frame loss and latency tests: rfc2544_loss (long
# tier).
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "$("$WR" probe --require tbf 2>&1)"
"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up"
Q="--prefix $P --quick --trial-time 1s --settle 0.1s --learn-wait 0.1s --drain 0.3s --sizes 64"

# The shaper counts every frame alike (lab --shape in frames/s), so the
# capacity is 20000 frames/s for every size: NDR within 3% of it. The
# search stops 0.5% of the 40 kpps maximum (200 frames/s) wide, and a 1 s
# trial passes the shaper's bucket and queue (448 frames) on top: 20448
# at 40 kpps offered. Noise only pushes the NDR down: a trial below
# capacity fails when the generator falls 22 ms behind (its catch-up
# burst overflows the bucket and queue) or the DUT's vCPU is held over
# 12.8 ms (its receive ring, 256 frames, overflows). Beside a 20% load the generator was at most 3.2
# ms behind in 15 trials of 3 s, and this search found 19894; a trial
# the generator fell short in is tester-limited, which the search does
# not take for the DUT's loss. A shaper at another rate, or a search
# that stops early, lands outside.
# One search again when a row missed and the search itself said the host
# interfered (a load that both passed and failed: NOISY, or the noise
# floor): a noisy hour here held the DUT's vCPU 9-16 ms several times a
# second, past the shaper's queue, and cost whole searches their NDR.
search() { "$WR" rfc2544 throughput $Q --sizes 64,512 --max-load 40kpps --json; }
j=$(search) || fail "throughput"
if [ "$(jq -r '[.rows[] | (.ndr.lower < 19400 or .ndr.lower > 20600) and
	((.notes | test("NOISY|SPORADIC")) or .noise_floor.ndr_limited)] | any' <<<"$j")" = true ]; then
	note "a row missed where the search saw the host interfere: $(jq -c '[.rows[] | {size, ndr: .ndr.lower, notes}]' <<<"$j")"
	j=$(search) || fail "throughput, again"
fi
for i in 0 1; do
	r=$(jq -c ".rows[$i]" <<<"$j")
	note "throughput: $(jq -c '{size, ndr: .ndr | [.lower, .upper], pdr: .pdr | [.lower, .upper], trials: .search_trials, t: .search_time_s, notes}' <<<"$r")"
	[ "$(jq -r '.ndr.lower >= 19400 and .ndr.lower <= 20600' <<<"$r")" = true ] || fail "NDR $(jq -r .ndr.lower <<<"$r"), want 20000 +- 3%"
	[ "$(jq -r '.pdr.lower >= .ndr.lower and .pdr.lower <= 21000' <<<"$r")" = true ] || fail "PDR $(jq -r .pdr.lower <<<"$r")"
	[ "$(jq -r '.ndr.upper >= .ndr.lower and .pdr.upper >= .pdr.lower' <<<"$r")" = true ] || fail "bounds out of order: $r"
	[ "$(jq -r '.ns_per_frame_ndr > 0 and .cpu_source == "/proc/stat"' <<<"$r")" = true ] || fail "no DUT CPU cost: $r"
	# the cost is the NDR trial's, not a pass above it at a noisy load
	[ "$(jq -r '.ns_per_frame_load == .ndr.lower' <<<"$r")" = true ] || fail "DUT CPU cost at $(jq -r .ns_per_frame_load <<<"$r"), NDR $(jq -r .ndr.lower <<<"$r")"
done
# Shaped in frames, the two sizes forward the same frames/s: their ranges
# meet, or where a held vCPU set one lower, the trial that failed above it
# says where its frames went (rfc2544_sizes.sh has sizes that differ).
note "sizes: $(jq -c '.sizes | map_values({agree, explained, lo, hi})' <<<"$j")"
[ "$(jq -r '.sizes | (.ndr.agree or .ndr.explained) and (.pdr.agree or .pdr.explained)' <<<"$j")" = true ] ||
	fail "the sizes neither agree nor say why: $(jq -c .sizes <<<"$j")"
[ "$(jq -r '[.trials[] | .cpu_source == "/proc/stat" and .dut_cpu_busy_pct >= 0] | all' <<<"$j")" = true ] || fail "trials without DUT CPU figures"
[ "$(jq -r '.deviations | length > 0' <<<"$j")" = true ] || fail "quick mode deviations not listed"
[ "$(jq -r '.trials | length > 2' <<<"$j")" = true ] || fail "trials not listed"

j=$("$WR" rfc2544 b2b $Q --max-load 40kpps --b2b-runs 1 --json) || fail "b2b"
b=$(jq -c '.rows[0].back_to_back' <<<"$j")
note "back-to-back: $b"
# The burst the shaper holds, from its size: 40 kpps into 20 kpps lets
# half of a burst through as it arrives, and the bucket and queue (448
# frames) take the other half, so N/2 <= 448: 896 frames (890 seen).
# Within 400..1000: the search's resolution and the tbf's own rounding
# move it by tens of frames; a vCPU held by the host during a burst only
# costs frames, so a held trial lowers the figure, never by over half
# when the search retries the size (the 448 of the bucket alone is at
# most 48 frames over the bound). An unshaped DUT would give the whole
# range (tens of thousands), a bucket or rate read wrong 448 or 1344.
[ "$(jq -r '.avg_frames >= 400 and .avg_frames <= 1000' <<<"$b")" = true ] || fail "burst $(jq -r .avg_frames <<<"$b"), want 896 (400..1000)"
[ "$(jq -r '.corrected_buffer_s <= .implied_buffer_s' <<<"$b")" = true ] || fail "correction"

# Ctrl-C mid-search: partial, marked, exit 130.
out=$(mktemp); trap 'rm -f "$out"; cleanup' EXIT
"$WR" rfc2544 throughput $Q --max-load 40kpps --sizes 64,128,256 --json >"$out" &
pid=$!
# mid-search: it starts in a fraction of a second and the first size's
# search alone takes about 10 trials of 1.5 s, so 4 s lands inside it
# with seconds to spare either side
sleep 4
kill -INT "$pid"
rc=0; wait "$pid" || rc=$?
[ "$rc" = 130 ] || fail "exit $rc after SIGINT, want 130"
[ "$(jq -r .interrupted "$out")" = true ] || fail "not marked interrupted"

t() { expect_exit 2 "$WR" rfc2544 --prefix "$P" "$@"; }
t --sizes 63
t --sizes 64,abc
t --pdr 2
t --pdr x
t --precision 0
t --max-load 0
t --duration 5s
t sideways
t --trial-time 0
t --latency-runs 0
echo ok
