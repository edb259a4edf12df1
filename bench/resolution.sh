#!/usr/bin/env bash
# Benchmark: the resolution an interleaved matrix buys on this host. One
# configuration is made slower by a known share (null firewall rules
# added to a base of BASE, calibrated here to cost DELTAS percent of the
# forwarding rate), and an interleaved matrix of the two (ROUNDS rounds)
# is run TRIES times per share: how many of its verdicts were right
# (worse), wrong (better, or "noise": no change of 1%, when there was
# one), "cannot tell" or none (the tester fell short), and the minutes
# each matrix took. The smallest share called right in 19 of 20
# tries is the resolution. LAB=netns builds the namespace lab, LAB=vm a VM
# lab of KERNEL (lab up --kernel).
#
#   bash bench/resolution.sh [build/wirerate]
#        LAB=netns|vm TRIES=20 ROUNDS=5 DELTAS="2 5 10" KERNEL='6.1.0-*-cloud-amd64'
#        RATE=...    (default: 100kpps on netns, 80kpps on a VM)
set -uo pipefail
WR=${1:-build/wirerate}
LAB=${LAB:-netns}
TRIES=${TRIES:-20}
ROUNDS=${ROUNDS:-5}
DELTAS=${DELTAS:-2 5 10}
KERNEL=${KERNEL:-6.1.0-*-cloud-amd64}
P=wrr-
[ "$(id -u)" -eq 0 ] || { echo "bench: run as root" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench: jq missing (make bench installs it)" >&2; exit 2; }
case $LAB in
# the base: rules enough that the DUT, not the offered load, bounds
# what it forwards (netns: 60-100 kpps with 1000 rules, against 150)
netns) LABOPT=(--dut-cpus 1); RATE=${RATE:-150kpps}; CAL=1000; BASE=${BASE:-1000}
	# AF_PACKET's generator is held back by the DUT's full queue: what it
	# sends is what the DUT took, on every host
	T=(trial --rate "$RATE" --duration 1s --learn-wait 0.2s --drain 0.5s --port-type afpacket) ;;
vm) LABOPT=(--kernel "$KERNEL"); RATE=${RATE:-80kpps}; CAL=200; BASE=${BASE:-0}
	T=(trial --rate "$RATE" --duration 3s --learn-frames 32) ;;
*) echo "bench: LAB is netns or vm" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
export WIRERATE_DB=$tmp/r.db
trap '"$WR" lab down --prefix "$P" >/dev/null 2>&1; rm -rf "$tmp"' EXIT

# What the DUT forwards with N rules: a trial's forwarded frames/s, on
# a lab built afresh.
rate_with() {
	"$WR" lab up --prefix "$P" "${LABOPT[@]}" --rules "$1" >/dev/null || exit 1
	"$WR" "${T[@]}" --prefix "$P" --no-store --json 2>/dev/null | jq '[.directions[].forwarded_pps] | add'
}

# Calibration: BASE and BASE + CAL rules, interleaved (B C C B B C),
# medians; then the rules to add for a share d are
# d/(1-d) * CAL * r(C) / (r(B) - r(C)), for a cost of 1/r(N) = c0 + N c1
# per frame.
declare -a r0 rk
for n in "$BASE" $((BASE + CAL)) $((BASE + CAL)) "$BASE" "$BASE" $((BASE + CAL)); do
	v=$(rate_with "$n")
	[ "$n" = "$BASE" ] && r0+=("$v") || rk+=("$v")
done
"$WR" lab down --prefix "$P" >/dev/null
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
R0=$(med "${r0[@]}") RK=$(med "${rk[@]}")
echo "calibration on $LAB ($(date -u +%FT%TZ)): $BASE rules ${r0[*]} -> median $R0 frames/s;" \
	"$((BASE + CAL)) rules ${rk[*]} -> median $RK"
# the base must be the DUT's bound, not the load's
awk -v a="$R0" -v r="$RATE" 'BEGIN { r += 0; if (r < 1000) r *= 1000; exit !(a < 0.97 * r) }' ||
	{ echo "bench: with $BASE rules the DUT forwards all of $RATE: raise RATE or BASE" >&2; exit 1; }
awk -v a="$R0" -v b="$RK" 'BEGIN { exit !(a > b && b > 0) }' ||
	{ echo "bench: $CAL rules cost nothing measurable here ($R0 against $RK)" >&2; exit 1; }

printf '\n%-6s %-6s %-6s %-6s %-7s %-6s %-12s %-5s %-11s %s\n' share rules tries worse better noise "cannot tell" none \
	"min/matrix" "paired diffs (%)"
for d in $DELTAS; do
	rules=$(awk -v d="$d" -v k="$CAL" -v a="$R0" -v b="$RK" \
		'BEGIN { f = d / 100; printf "%d", f / (1 - f) * k * b / (a - b) + 0.5 }')
	worse=0 better=0 noise=0 unsure=0 none=0 diffs="" t0=$SECONDS
	for _ in $(seq "$TRIES"); do
		j=$("$WR" matrix --prefix "$P" "${LABOPT[@]}" --rules "$BASE,$((BASE + rules))" --repeat "$ROUNDS" --json \
			-- "${T[@]}" 2>/dev/null) || { echo "bench: a matrix failed" >&2; exit 1; }
		v=$(jq -r '.report.runs[1].cells[0].verdict' <<<"$j")
		diffs+="$(jq -r '.report.runs[1].cells[0].diff_pct | . * 10 | round / 10' <<<"$j") "
		case $v in
		worse) worse=$((worse + 1)) ;;
		better) better=$((better + 1)) ;;
		noise) noise=$((noise + 1)) ;;
		"cannot tell") unsure=$((unsure + 1)) ;;
		*) none=$((none + 1)) ;;
		esac
	done
	printf '%-6s %-6s %-6s %-6s %-7s %-6s %-12s %-5s %-11s %s\n' "$d%" "+$rules" "$TRIES" "$worse" "$better" "$noise" \
		"$unsure" "$none" "$(awk -v s=$((SECONDS - t0)) -v n="$TRIES" 'BEGIN { printf "%.1f", s / 60 / n }')" "$diffs"
done
