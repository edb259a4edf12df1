# Flow control back to back (issue 7): calibrating on the XDP path, the
# generator keeps a window of frames to the analyzer, so an analyzer that
# falls behind costs rate, never frames. A busy loop shares the analyzer's
# CPU: since Linux 6.12 the fair server runs it for up to 50 ms a second
# ahead of the analyzer's SCHED_FIFO receive thread, a hold-up like the
# host's. With flow control every frame is counted and the generator was
# held; without it the analyzer's ring overflows, and that is the tester's
# loss. Then the analyzer's latency from 1 frame in a power of two at high
# rates.
. "$(dirname "$0")/lib.sh"

need="af_xdp,xdp_native_veth,xdp_live_frames"
"$WR" probe --require "$need" >/dev/null 2>&1 || skip "$("$WR" probe --require "$need" 2>&1)"
[ "$(nproc)" -ge 2 ] || skip "needs 2 CPUs (generator and analyzer apart)"
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
TMPD=$(mktemp -d)
hog=
trap '[ -n "$hog" ] && kill "$hog" 2>/dev/null; rm -rf "$TMPD"; cleanup' EXIT
# bounded: it ends by itself after 30 s, and is killed once the two
# flow-control cases are done (three calibrations at most, of a few
# seconds each; were it gone early, the no-flow-control check would
# fail, not pass)
timeout 30 taskset -c 1 sh -c 'while :; do :; done' &
hog=$!
C="--prefix $P --port-type xdp --gen-cpu 0 --rx-cpu 1 --duration 1s --drain 0.5s --calibration $TMPD/cal --json"

for attempt in 1 2; do
	c=$("$WR" calibrate $C) || fail "calibrate"
	f=$(jq -c .flat_out <<<"$c")
	note "flow control, trial $attempt: $(jq -c '{tx, rx, lost, flow_control, flow_waits, offered_pps}' <<<"$f")"
	[ "$(jq -r '.flow_control and .tx > 0' <<<"$f")" = true ] || fail "no flow control back to back: $f"
	[ "$(jq -r '.paced.flow_control' <<<"$c")" = true ] || fail "no flow control in the paced step"
	# the only way to lose one: the analyzer saw nothing for 200 ms (a host stall)
	[ "$(jq -r '.lost == 0 and .rx == .tx and .rx_drops == 0' <<<"$f")" = true ] && break
	[ $attempt -lt 2 ] || fail "frames lost with flow control: $f"
done
# the hog takes the analyzer's CPU for up to 50 ms a second, hundreds of
# times the window at millions of frames/s: it must wait
[ "$(jq -r '.flow_waits > 0' <<<"$f")" = true ] || fail "an analyzer sharing its CPU never held the generator: $f"
[ "$(jq -r .receiver_ok <<<"$c")" = true ] || fail "receiver not ok: $c"
# under flow control, the analyzer on another CPU, the generator's batches
# (and its page pool's ring) are 256 runs, enough for the window's pages;
# otherwise 64, or 16 below 1 Mpps
[ "$(jq -r '.flat_out.xdp_batch == 256 and .paced.xdp_batch == 256' <<<"$c")" = true ] ||
	fail "not 256 runs a batch under flow control: $c"

c=$("$WR" calibrate $C --no-flow-control) || fail "calibrate --no-flow-control"
f=$(jq -c .flat_out <<<"$c")
note "no flow control: $(jq -c '{tx, rx, lost, flow_control, flow_waits, offered_pps}' <<<"$f")"
[ "$(jq -r '.flow_control == false and .flow_waits == 0 and .xdp_batch == 64' <<<"$f")" = true ] ||
	fail "--no-flow-control held the generator, or its batch was not 64: $f"
[ "$(jq -r '.lost > 0 and .rx + .lost == .tx' <<<"$f")" = true ] ||
	fail "no frame lost flat out without flow control, the analyzer sharing its CPU: $f"
kill "$hog" 2>/dev/null; wait "$hog" 2>/dev/null; hog=

# the analyzer on the generator's CPU runs between its batches: 64 runs
f=$("$WR" calibrate ${C/--rx-cpu 1/--rx-cpu 0} | jq -c .flat_out) || fail "calibrate on one CPU"
note "one CPU: $(jq -c '{tx, rx, lost, flow_waits, xdp_batch, offered_pps}' <<<"$f")"
[ "$(jq -r '.flow_control and .xdp_batch == 64 and .tx > 0' <<<"$f")" = true ] ||
	fail "not 64 runs a batch with the analyzer on the generator's CPU: $f"

# Above 1 Mpps a stream the analyzer reads the clock for 1 frame in a power
# of two (a clock read is a sixth of its time here): at 4 Mpps, 1 in 4,
# and the latency covers the received frames with a sequence number that
# is a multiple of 4, about a quarter. At 100 kpps, every frame. The
# generator's batches, paced through a DUT: 64 runs, 16 below 1 Mpps.
# Which frames are timed is fixed by the rate and the sequence number, not
# by timing: 1 in 4 of those received, within 5% and 8 frames (a burst
# dropped at a ring takes its share of the timed ones, give or take one
# at each end). A wrong stride is off by 25% or more.
T="--prefix $P --port-type xdp --learn-wait 0.2s --drain 1s --no-store --json"
d=$("$WR" trial $T --rate 4Mpps --duration 1s | jq -c .directions[0]) || fail "trial at 4 Mpps"
note "4 Mpps through the DUT: $(jq -c '{tx, rx, lost, latency_frames: .latency_ns.frames, every: .latency_ns.every}' <<<"$d")"
[ "$(jq -r '.latency_ns.every == 4 and .rx > 1000 and
	(.latency_ns.frames * 4 - .rx | fabs) <= .rx * 0.05 + 8' <<<"$d")" = true ] || fail "latency not from 1 frame in 4: $d"
[ "$(jq -r .xdp_batch <<<"$d")" = 64 ] || fail "not 64 runs a batch at 4 Mpps: $d"
d=$("$WR" trial $T --rate 100kpps --duration 1s | jq -c .directions[0]) || fail "trial at 100 kpps"
[ "$(jq -r '.latency_ns.every == 1 and .latency_ns.frames == .rx and .rx > 0' <<<"$d")" = true ] ||
	fail "latency not from every frame at 100 kpps: $d"
[ "$(jq -r .xdp_batch <<<"$d")" = 16 ] || fail "not 16 runs a batch at 100 kpps: $d"
echo ok
