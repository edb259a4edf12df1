# The search's goal exceed ratio and goal duration sum on a lab DUT shaped
# to 20 kpps: with --exceed-ratio 0.5 --duration-sum of two trials a load
# above the shaper needs two failed full-length trials to bound the search,
# so the trial list shows the upper bound measured twice (NDR only, to keep
# it short); the goals are in the JSON, the deviations and the stored run;
# bad input exits 2.
. "$(dirname "$0")/lib.sh"

command -v sqlite3 >/dev/null || skip "no sqlite3 shell (scripts/deps.sh installs it)"
"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up"
D=$(mktemp -d); trap 'rm -rf "$D"; cleanup' EXIT
Q="--prefix $P --quick --trial-time 1s --settle 0.1s --learn-wait 0.1s --drain 0.3s --sizes 64"

goal() { "$WR" rfc2544 throughput $Q --max-load 24kpps --pdr 0 --exceed-ratio 0.5 --duration-sum 2s --db "$D/r.db" --json; }
j=$(goal) || fail "throughput"
# A frame lost at a load under the shaper's 20 kpps (less 3%) is not the
# shaper's: nothing but the host holding the DUT's vCPU loses it there (a
# noisy hour here: 3 to 417 frames a trial at 17.9-19.7 kpps). Then the
# search measured the host, and it runs once more.
if [ "$(jq -r '.rows[0].ndr.lower < 19400 and ([.trials[] | select(.load < 19400 and .rx < .tx)] | length > 0)' <<<"$j")" = true ]; then
	note "the host lost frames under the shaper's rate: $(jq -c '[.trials[] | [.load, (.tx - .rx)]]' <<<"$j")"
	j=$(goal) || fail "throughput, again"
fi
r=$(jq -c '.rows[0]' <<<"$j")
note "goals: $(jq -c '{exceed_ratio, duration_sum_s, trial_s}' <<<"$j")"
note "throughput: $(jq -c '{ndr: .ndr | [.lower, .upper, .conditional_throughput], pdr: .pdr | [.lower, .upper, .conditional_throughput], trials: .search_trials, notes}' <<<"$r")"
note "trials: $(jq -c '[.trials[] | [.load, (.tx - .rx), .tester_limited]]' <<<"$j")"
[ "$(jq -r '.exceed_ratio == 0.5 and .duration_sum_s == 2 and .trial_s == 1' <<<"$j")" = true ] || fail "goals not in the JSON"
jq -e '.deviations | any(test("judged from 2 s of 1 s trials, of which up to 50%"))' <<<"$j" >/dev/null ||
	fail "goal deviation missing: $(jq -c .deviations <<<"$j")"

# What the classification guarantees, whatever the noise: an upper bound
# has more than half of at least 2 s failed (two 1 s trials at least), a
# lower bound at least half of it passed; NDR's conditional throughput is
# its lower bound, PDR's no more than its lower bound.
for g in ndr pdr; do
	u=$(jq -r ".$g.upper" <<<"$r") l=$(jq -r ".$g.lower" <<<"$r")
	if [ "$u" != null ]; then
		n=$(jq --argjson u "$u" '[.trials[] | select(.test == "throughput" and .load == $u and .duration_s == 1 and (.tester_limited | not))] | length' <<<"$j")
		[ "$n" -ge 2 ] || fail "$g upper bound $u measured $n times, want 2 or more"
	fi
	[ "$l" != null ] || fail "no $g lower bound"
	n=$(jq --argjson l "$l" '[.trials[] | select(.test == "throughput" and .load == $l and (.tester_limited | not))] | length' <<<"$j")
	[ "$n" -ge 1 ] || fail "$g lower bound $l never measured"
done
# PDR's conditional throughput is its lower bound less its trials' loss
# (none here, with --pdr 0; 0.5% is what a default PDR allows):
# arithmetic, not timing
[ "$(jq -r '.ndr.conditional_throughput == .ndr.lower and .pdr.conditional_throughput <= .pdr.lower and .pdr.conditional_throughput >= .pdr.lower * 0.995' <<<"$r")" = true ] ||
	fail "conditional throughput: $r"
# the shaper's capacity: NDR within 3% of it (why 3%: rfc2544.sh), unless
# the tester fell short (a busy host), which caps the search below it
if jq -e '[.trials[] | .tester_limited] | any' <<<"$j" >/dev/null; then
	note "a trial was tester-limited: not checking the NDR against the shaper"
else
	[ "$(jq -r '.ndr.lower >= 19400 and .ndr.lower <= 20600' <<<"$r")" = true ] || fail "NDR $(jq -r .ndr.lower <<<"$r"), want 20000 +- 3%"
fi

# Stored with the run: in its config, so reports tell it from a plain run.
id=$(jq -r .run_id <<<"$j")
cfg=$(sqlite3 "$D/r.db" "SELECT config FROM runs WHERE id = $id")
note "stored config: $cfg"
case " $cfg " in *" exceed=0.5 duration-sum=2s "*) ;; *) fail "goals not in the stored config: $cfg" ;; esac
[ "$(sqlite3 "$D/r.db" "SELECT value FROM env WHERE run_id = $id AND key = 'run.exceed_ratio'")" = 0.5 ] || fail "run.exceed_ratio not stored"

# Without the options: one trial per load, nothing about goals in the
# config or the deviations.
j=$("$WR" rfc2544 throughput $Q --max-load 24kpps --pdr 0 --trial-time 0.5s --db "$D/r.db" --json) || fail "plain throughput"
jq -e '.exceed_ratio == 0 and .duration_sum_s == 0.5 and (.deviations | any(test("judged")) | not)' <<<"$j" >/dev/null ||
	fail "plain run shows goals: $(jq -c '{exceed_ratio, duration_sum_s, deviations}' <<<"$j")"
cfg=$(sqlite3 "$D/r.db" "SELECT config FROM runs WHERE id = $(jq -r .run_id <<<"$j")")
case "$cfg" in *exceed*|*duration-sum*) fail "plain run's config: $cfg" ;; esac

t() { expect_exit 2 "$WR" rfc2544 --prefix "$P" --no-store "$@"; }
t --exceed-ratio 1
t --exceed-ratio 100%
t --exceed-ratio -0.1
t --exceed-ratio half
t --exceed-ratio
t --duration-sum 1s --quick
t --duration-sum 1s --trial-time 2s
t --duration-sum forever
t --duration-sum 0
echo ok
