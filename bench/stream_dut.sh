#!/usr/bin/env bash
# Benchmark: the DUT's sender started by wirerate (stream --sender dut,
# through the guest's agent) against the same guest's sender started by
# hand with lab exec (wirerate stream -H 198.19.0.2, to a server started
# by hand in the sink namespace), in a VM lab of KERNEL, alternating the
# two ROUNDS times (hand, agent, agent, hand, ...). Prints each run's
# received throughput and the ratio of the medians (agent / hand): the
# DUT's end must not be the limit, so about 1 or above.
#
#   bash bench/stream_dut.sh [build/wirerate]
#        KERNEL='6.1.0-*-cloud-amd64' ROUNDS=4 LEN=3
set -uo pipefail
WR=${1:-build/wirerate}
KERNEL=${KERNEL:-6.1.0-*-cloud-amd64}
ROUNDS=${ROUNDS:-4}
LEN=${LEN:-3}
P=wrs-
PORT=12999
[ "$(id -u)" -eq 0 ] || { echo "bench: run as root" >&2; exit 2; }
command -v jq >/dev/null || { echo "bench: jq missing (make bench installs it)" >&2; exit 2; }
trap '"$WR" lab down --prefix "$P" >/dev/null 2>&1' EXIT
"$WR" lab up --prefix "$P" --kernel "$KERNEL" >/dev/null || { echo "bench: lab up --kernel $KERNEL failed" >&2; exit 1; }
hand() {
	ip netns exec "${P}sink" "$WR" stream --server --once --port $PORT >/dev/null 2>&1 & local s=$!
	sleep 0.3
	"$WR" lab exec --prefix "$P" -- wirerate stream -H 198.19.0.2 -p $PORT -m 1025 -l "$LEN" --json 2>/dev/null |
		jq -r .receive.throughput_mbps
	wait "$s"
}
agent() {
	"$WR" stream --prefix "$P" --sender dut -m 1025 -l "$LEN" --json --no-store | jq -r .receive.throughput_mbps
}
H=() A=()
for r in $(seq "$ROUNDS"); do
	if [ $((r % 2)) = 1 ]; then H+=("$(hand)"); A+=("$(agent)"); else A+=("$(agent)"); H+=("$(hand)"); fi
done
med() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}'; }
mh=$(med "${H[@]}") ma=$(med "${A[@]}")
echo "stream_dut: guest $KERNEL, 1025 B for ${LEN} s, $ROUNDS rounds alternating"
echo "  by hand, lab exec:     ${H[*]} Mb/s, median $mh"
echo "  --sender dut, agent:   ${A[*]} Mb/s, median $ma"
awk -v a="$ma" -v h="$mh" 'BEGIN {printf "  ratio agent/hand: %.2f\n", (h > 0 ? a / h : 0)}'
