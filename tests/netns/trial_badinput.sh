# Bad trial input: a one-line error and exit 2; no lab: exit 1.
. "$(dirname "$0")/lib.sh"

expect_exit 1 "$WR" trial --prefix "$P" --rate 1kpps --duration 1s
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
t() { expect_exit 2 "$WR" trial --prefix "$P" "$@"; }
t --duration 1s
t --rate 0 --duration 1s
t --rate -1kpps
t --rate fast
t --rate 1kpps --size 63
t --rate 1kpps --size 9019
t --rate 1kpps --size big
t --rate 1kpps --flows 0
t --rate 1kpps --flows 65536
t --rate 1kpps --duration 0
t --rate 1kpps --duration forever
t --rate 40% --duration 1s
t --rate 1kpps --line-rate 1kpps
t --rate 1kpps --tx gen0
t --rate 1kpps --tx nosuch0 --rx nosuch1 --dst-mac 02:00:00:00:00:01
t --rate 1kpps --dst-mac 02:00:00:00:00 --tx a --rx b
t --rate 1kpps --gen-cpu 4096
t --rate 1kpps --gen-cpu 999
t --rate 1kpps --gen-cpu 0-8
t --rate 1kpps --gen-cpu x
t --rate 1kpps --gen-cpu 0,
t --rate 1kpps --latency-every 3
t --rate 1kpps --latency-every 0
t --rate 1kpps --latency-every x
t --rate 1kpps --latency-every 131072
t --rate 1kpps --no-flow-control=1
t --rate 1kpps --port-type afxdp --gen-cpu 0,1
t --rate 1kpps --port-type carrier-pigeon
t --rate 1kpps --imix=64:20
t --rate 1kpps --imix=:3
t --rate 1kpps --burst 0
t --rate 1kpps --bogus
t --rate 1kpps extra
t --rate 1 --duration 0.5s
t --rate 1kpps --size 128 --imix
t --rate 1kpps --calibration ''
t --rate 1kpps --calibration /etc/passwd
t --rate 1kpps --calibration /tmp
# addresses are the lab's own; on cabled ports, one family, unicast only
t --rate 1kpps --src-ip 198.18.0.9
t --rate 1kpps --dst-mac 02:00:00:00:00:01
M=$(ip -n "${P}dut" -j link show dut0 | jq -r '.[0].address')
c() { t --rate 1kpps --tx "gen0@${P}gen" --rx "sink0@${P}sink" "$@"; }
c --dst-mac "$M" --src-ip 198.18.0.1 --dst-ip 2001:2:0:2::2
c --dst-mac "$M" --ipv6 --src-ip 198.18.0.1
c --dst-mac "$M" --dst-ip 224.0.0.1
c --dst-mac "$M" --dst-ip 255.255.255.255
c --dst-mac "$M" --src-ip 0.0.0.0
c --dst-mac ff:ff:ff:ff:ff:ff
c --dst-mac 01:00:5e:00:00:01
c --dst-mac " 2:77:72:0:0:2"
# frames over the link's MTU, on every path, before anything is stored
D=$(mktemp -d); trap 'rm -rf "$D"; cleanup' EXIT
pts=afpacket
"$WR" probe --require xdp_live_frames >/dev/null 2>&1 && pts="xdp afpacket"
for pt in $pts; do
	expect_exit 2 "$WR" trial --prefix "$P" --rate 1kpps --duration 1s --size 1600 --port-type $pt --db "$D/r.db"
done
expect_exit 2 "$WR" rfc2544 --prefix "$P" --quick --sizes 64,1600 --max-load 10kpps --db "$D/r.db"
[ ! -e "$D/r.db" ] || [ "$(sqlite3 "$D/r.db" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" = 0 ] ||
	fail "bad input stored a run"
expect_exit 2 "$WR" calibrate --prefix "$P" --size 10
expect_exit 2 "$WR" calibrate --prefix "$P" --size 1600
expect_exit 2 "$WR" rfc2544 --prefix "$P" --rate 5kpps
expect_exit 2 "$WR" rfc2544 --prefix "$P" --imix --sizes 64
echo ok
