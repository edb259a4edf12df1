#!/usr/bin/env bash
# The CPU the DUT agent itself takes, as the soak sees it: the soaker's
# loop rate on one CPU idle, then with the agent pinned to that CPU
# answering PER_SECOND snapshots a second (10: ten times what `cpu --dut`
# asks at its default interval, several times what a quick search asks),
# then idle again, RUNS times. Each run gives the agent's share as
# 1 - busy / mean(idle before, idle after) loop rate (side by side, so the
# host's drift cancels); the median of the runs is the figure. Needs root (the soak
# pins SCHED_IDLE threads).
#
#   bash bench/agent_soak.sh [build/wirerate]      CPU=1 TESTER=0 RUNS=5 SECS=8 PER_SECOND=10 TOL=5
#
# STALL=1: the agent runs its stall probe on CPU instead of answering
# snapshots (a SCHED_FIFO thread waking every 20 ms): the probe's cost.
#
# TOL: the tolerance in % of the calibration the soak needs to run; the
# figure is a ratio of loop rates and does not depend on it. CONTROL=1
# runs the same pairs without the agent: what the method reads by itself
# (the second reading of a pair may be systematically slower), to
# subtract.
set -uo pipefail
WR=${1:-build/wirerate}
CPU=${CPU:-1} RUNS=${RUNS:-5} SECS=${SECS:-8} PER_SECOND=${PER_SECOND:-10}
TESTER=${TESTER:-0}	# the CPU the asking side (bench/agent.py) runs on, off CPU
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cal="$tmp/soak-calibration"
"$WR" soak --calibrate --cpus "$CPU" --calibration "$cal" --tolerance "${TOL:-5}" >/dev/null || { echo "bench: the soak did not calibrate" >&2; exit 1; }
rate() { "$WR" soak --cpus "$CPU" --duration "${SECS}s" --calibration "$cal" --json | jq -r '.summary.cpus[0].loops_per_s'; }
shares=()
for r in $(seq "$RUNS"); do
	i1=$(rate)
	if [ "${CONTROL:-0}" = 1 ]; then
		sleep $((SECS + 2)) & a=$!	# the same readings without the agent: the method's own noise
	else
		taskset -c "$TESTER" python3 "$(dirname "$0")/agent.py" "$WR" $((SECS * PER_SECOND + 2 * PER_SECOND)) "$CPU" "$PER_SECOND" >"$tmp/agent.out" &
		a=$!
	fi
	sleep 1
	b=$(rate)
	wait "$a"
	i2=$(rate)
	# against the mean of the idle readings on either side: a host that
	# drifts steadily cancels out
	s=$(echo "100 * (1 - 2 * $b / ($i1 + $i2))" | bc -l)
	shares+=("$s")
	printf 'run %s: idle %.0f and %.0f loops/s, with the agent %.0f: %.2f%%\n' "$r" "$i1" "$i2" "$b" "$s"
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
line=$(head -1 "$tmp/agent.out" 2>/dev/null || echo "control: no agent")
printf 'the agent at %s snapshots/s took %.2f%% of CPU %s by the soak (median of %s runs); %s\n' \
	"$PER_SECOND" "$(med "${shares[@]}")" "$CPU" "$RUNS" "$line"
