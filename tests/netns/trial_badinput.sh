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
expect_exit 2 "$WR" calibrate --prefix "$P" --size 10
echo ok
