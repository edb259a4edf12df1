# Frames up to 9018 bytes with 'lab up --mtu 9000'; too big for the
# link's MTU is a clear error, not a trial of refused frames.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 1s --size 9018
"$WR" lab up --prefix "$P" --mtu 9000 >/dev/null || fail "lab up --mtu 9000"
[ "$(labjq "$P" '[.interfaces[].mtu] | unique | .[0]')" = 9000 ] || fail "MTU not 9000"
# The XDP generator's largest frame (one page), and one byte more: auto
# takes AF_PACKET for it, and asked for by name XDP refuses it.
if "$WR" probe --require xdp_live_frames >/dev/null 2>&1; then
	j=$("$WR" trial --prefix "$P" --rate 1kpps --duration 0.5s --size 3412 --learn-wait 0.1s --drain 0.3s --no-store --json) ||
		fail "3412 bytes on the XDP path"
	[ "$(jq -r "$ACCOUNTED"' .path + " " + (.directions[0] | accounted | tostring)' <<<"$j")" = "xdp true" ] ||
		fail "3412 bytes: $(jq -c '{path, d: .directions[0] | {tx, rx, lost}}' <<<"$j")"
	j=$("$WR" trial --prefix "$P" --rate 1kpps --duration 0.5s --size 3413 --learn-wait 0.1s --drain 0.3s --no-store --json) ||
		fail "3413 bytes on auto"
	[ "$(jq -r .path <<<"$j")" = afpacket ] || fail "3413 bytes took $(jq -r .path <<<"$j")"
	expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 0.5s --size 3413 --port-type xdp
else
	skip_part "the XDP generator's largest frame: $("$WR" probe --require xdp_live_frames 2>&1)"
fi
# Exact counts at 1-2 kpps: the DUT's 256-frame ring holds 128 ms or more,
# far beyond any pause the host makes.
j=$("$WR" trial --prefix "$P" --rate 2kpps --duration 1s --size 9018 --learn-wait 0.1s --drain 0.5s --json) || fail "jumbo trial"
[ "$(jq -r '.directions[0] | .tx == 2000 and .rx == 2000 and .lost == 0' <<<"$j")" = true ] || fail "jumbo: $(jq -c '.directions[0] | {tx, rx, tx_errors}' <<<"$j")"
j=$("$WR" trial --prefix "$P" --rate 1kpps --duration 1s --imix=64,9018 --learn-wait 0.1s --drain 0.5s --json) || fail "imix with jumbo"
[ "$(jq -r '.directions[0] | .tx == 1000 and .rx == .tx and .lost == 0' <<<"$j")" = true ] ||
	fail "imix jumbo: $(jq -c '.directions[0] | {tx, rx, lost}' <<<"$j")"
echo ok
