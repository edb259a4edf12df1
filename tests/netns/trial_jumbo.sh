# Frames up to 9018 bytes with 'lab up --mtu 9000'; too big for the
# link's MTU is a clear error, not a trial of refused frames.
. "$(dirname "$0")/lib.sh"

"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 1s --size 9018
"$WR" lab up --prefix "$P" --mtu 9000 >/dev/null || fail "lab up --mtu 9000"
[ "$(labjq "$P" '[.interfaces[].mtu] | unique | .[0]')" = 9000 ] || fail "MTU not 9000"
j=$("$WR" trial --prefix "$P" --rate 2kpps --duration 1s --size 9018 --learn-wait 0.1s --drain 0.5s --json) || fail "jumbo trial"
[ "$(jq -r '.directions[0] | .tx == 2000 and .rx == 2000 and .lost == 0' <<<"$j")" = true ] || fail "jumbo: $(jq -c '.directions[0] | {tx, rx, tx_errors}' <<<"$j")"
j=$("$WR" trial --prefix "$P" --rate 1kpps --duration 1s --imix=64,9018 --learn-wait 0.1s --drain 0.5s --json) || fail "imix with jumbo"
[ "$(jq -r '.directions[0] | .rx == .tx' <<<"$j")" = true ] || fail "imix jumbo"
echo ok
