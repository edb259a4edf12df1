# A forged tagged frame far ahead in its stream (seqforge: a real frame of
# the trial sent again with its number 2^47 - 1 ahead, from the DUT toward
# the sink) is counted as stale by the socket analyzer; it must not make
# the frames after it late and some 1.4e14 frames lost.
. "$(dirname "$0")/lib.sh"

FORGE=$BUILD/tests/seqforge
[ -x "$FORGE" ] || fail "no $FORGE: build first"
D=$(mktemp -d)
trap 'rm -rf "$D"; cleanup' EXIT
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
# the forger waits on the DUT's port toward the sink for the first frame
# of the traffic (bounded: 20 s)
ip netns exec "${P}dut" "$FORGE" dut1 20 >"$D/forge.out" 2>&1 &
fpid=$!
sleep 0.3
j=$("$WR" trial --prefix "$P" --rate 10kpps --duration 2s --port-type afpacket --no-store --json) ||
	fail "trial: $j"
wait "$fpid" || fail "the forger sent nothing: $(cat "$D/forge.out")"
note "forged $(cat "$D/forge.out"); $(jq -c '.directions[0] | {tx, rx, lost, stale, late}' <<<"$j")"
# Every frame of the trial accounted as lib.sh's ACCOUNTED says (what a
# held vCPU costs at the DUT's ring, counted, at most 1%), the forged one
# counted as stale and not as ours (the failure this guards against is
# 1.4e14 lost), nothing late.
jq -e "$ACCOUNTED"' .directions[0] | .tx == 20000 and accounted and .stale >= 1 and .late == 0' \
	<<<"$j" >/dev/null || fail "the forged frame disturbed the count: $(jq -c '.directions[0]' <<<"$j")"
echo ok
