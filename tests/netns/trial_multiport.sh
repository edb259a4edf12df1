# Several port pairs at once: a lab of two paths (lab up --ports 2), one
# trial over both, each port counted on its own (rx == tx per port at a
# low rate) and the total their sum; both ways with --bidir (four
# directions); the same ports given by hand as --tx A,B --rx C,D; and
# the bad inputs of lists.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require af_packet_tx_ring,af_packet_rx_ring >/dev/null 2>&1 || skip "$("$WR" probe --require af_packet_tx_ring,af_packet_rx_ring 2>&1)"
"$WR" lab up --prefix "$P" --ports 2 >/dev/null || fail "lab up --ports 2"
T="--prefix $P --learn-wait 0.2s --drain 1s --json"
TMPD=$(mktemp -d); trap 'rm -rf "$TMPD"; cleanup' EXIT

# 5 kpps a port for 2 s: 10000 frames each. The DUT's receive ring (256
# frames) holds 51 ms of one port at this rate; a vCPU held longer drops
# frames there, and those are counted as the DUT's ring drops
# (ACCOUNTED in lib.sh), so "every frame counted" is exact either way.
# A trial the tester fell short in is run again, each logged, three at most.
run_trial() {	# ARGS...: the trial's JSON in $j
	for attempt in 1 2 3; do
		j=$("$WR" trial $T -r 5kpps -s 128 -t 2s --no-store "$@") || fail "trial $*"
		jq -e '[.directions[] | .tester_limited] | any' <<<"$j" >/dev/null || return 0
		note "trial $attempt: the tester fell short: $(jq -c '[.directions[] | .tester_reason]' <<<"$j")"
	done
	fail "the tester fell short in three trials"
}

run_trial
note "two ports: $(jq -c '[.directions[] | {direction, port, tx, rx, lost, ring_drops}], .total' <<<"$j")"
[ "$(jq -r '.directions | length' <<<"$j")" = 2 ] || fail "two directions, one a port: $(jq -c '.directions | length' <<<"$j")"
[ "$(jq -r '[.directions[] | .port] == [0, 1] and ([.directions[] | .back] | any | not)' <<<"$j")" = true ] ||
	fail "ports: $(jq -c '[.directions[] | {port, back}]' <<<"$j")"
[ "$(jq -r '[.directions[] | .direction] == ["gen0 -> DUT -> sink0", "gen1 -> DUT -> sink1"]' <<<"$j")" = true ] ||
	fail "labels: $(jq -c '[.directions[] | .direction]' <<<"$j")"
for p in 0 1; do
	d=$(jq -c ".directions[$p]" <<<"$j")
	[ "$(jq -r .tx <<<"$d")" = 10000 ] || fail "port $p: tx $(jq -r .tx <<<"$d"), want 10000"
	[ "$(jq -r "$ACCOUNTED"' accounted and .late == 0 and .stale == 0 and .not_test == 0' <<<"$d")" = true ] ||
		fail "port $p: not every frame counted, or another port's frames counted here: $d"
done
# Each port's loss is attributed with the DUT's counters of its own ports.
[ "$(jq -r '[.directions[] | .loss.dut_counters] | all' <<<"$j")" = true ] ||
	fail "no DUT counters per port: $(jq -c '[.directions[] | .loss]' <<<"$j")"
[ "$(jq -r '.total.tx == ([.directions[] | .tx] | add) and .total.rx == ([.directions[] | .rx] | add)' <<<"$j")" = true ] ||
	fail "total is not the ports' sum: $(jq -c .total <<<"$j")"
[ "$(jq -r '.direction_count' <<<"$j")" = 2 ] || fail "direction_count $(jq -r .direction_count <<<"$j")"
jq -r .where <<<"$j" | grep -q ", 2 ports)" || fail "where: $(jq -r .where <<<"$j")"

# Both ways through both paths: four directions, each its own streams.
run_trial --bidir
note "bidir: $(jq -c '[.directions[] | {direction, tx, rx, lost}]' <<<"$j")"
[ "$(jq -r '[.directions[] | [.port, .back]] == [[0, false], [0, true], [1, false], [1, true]]' <<<"$j")" = true ] ||
	fail "bidir order: $(jq -c '[.directions[] | [.port, .back]]' <<<"$j")"
[ "$(jq -r "$ACCOUNTED"' [.directions[] | .tx == 10000 and accounted and .stale == 0] | all' <<<"$j")" = true ] ||
	fail "bidir: not every frame counted on its own port: $(jq -c '.directions' <<<"$j")"

# The same two pairs by hand, in the lab's namespaces: MACs and addresses
# one each, as for a cabled DUT with two ports a side.
mac() { ip -n "$2" -j link show "$1" | jq -r ".[0].address"; }
G="${P}gen" D="${P}dut" S="${P}sink"
run_trial --tx "gen0@$G,gen1@$G" --rx "sink0@$S,sink1@$S" \
	--dst-mac "$(mac dut0 "$D"),$(mac dut2 "$D")" --src-ip 198.18.0.1,198.18.1.1 --dst-ip 198.19.0.2,198.19.1.2
note "by hand: $(jq -c '[.directions[] | {direction, tx, rx, lost}]' <<<"$j")"
[ "$(jq -r "$ACCOUNTED"' ([.directions[] | .tx == 10000 and accounted and .stale == 0] | all) and (.directions | length) == 2' <<<"$j")" = true ] ||
	fail "by hand: $(jq -c '.directions' <<<"$j")"

# Bad input: one line, exit 2, nothing sent.
bad() {	# WANT ARGS...
	local want=$1; shift
	"$WR" trial --prefix "$P" -r 1kpps -t 1s --no-store "$@" >"$TMPD/out" 2>"$TMPD/err"; rc=$?
	[ $rc = 2 ] || fail "trial $*: exit $rc, want 2 ($(cat "$TMPD/err"))"
	[ "$(wc -l <"$TMPD/err")" = 1 ] && grep -q -- "$want" "$TMPD/err" || fail "trial $*: $(cat "$TMPD/err")"
}
bad "names 2 ports and --rx 1" --tx a,b --rx c --dst-mac 02:00:00:00:00:01,02:00:00:00:00:02
bad "an empty item" --tx a,,b --rx c,d,e
bad "4 port pairs at most" --tx a,b,c,d,e --rx f,g,h,i,j
bad "gives 1 MAC for 2 port pairs" --tx a,b --rx c,d --dst-mac 02:00:00:00:00:01
bad "gives 3 addresses for 2 port pairs" --tx a,b --rx c,d --dst-mac 02:00:00:00:00:01,02:00:00:00:00:02 \
	--src-ip 198.18.0.1,198.18.1.1,198.18.2.1
bad "with several port pairs give --dst-mac" --tx a,b --rx c,d --next-hop 198.18.0.2 --src-ip 198.18.0.1
bad "expected a unicast MAC" --tx a,b --rx c,d --dst-mac 02:00:00:00:00:01,zz
bad "--tx b: no such interface" --tx "gen0@$G,b" --rx "sink0@$S,sink1@$S" \
	--dst-mac 02:00:00:00:00:01,02:00:00:00:00:02
echo ok
