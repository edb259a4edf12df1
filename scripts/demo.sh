#!/usr/bin/env bash
# make demo: build the lab, show what this host can do, and measure.
set -euo pipefail
WR=${1:-build/wirerate}
[ "$(id -u)" -eq 0 ] || { echo "demo: run as root (it builds network namespaces)" >&2; exit 2; }
P=${WR_DEMO_PREFIX:-wr-}

echo "== wirerate probe"
"$WR" probe
echo
echo "== wirerate lab up"
"$WR" lab up --prefix "$P"
if "$WR" help | grep -q '^  rfc2544'; then
	echo
	echo "== wirerate rfc2544 throughput --quick"
	"$WR" rfc2544 throughput --quick --prefix "$P"
elif "$WR" help | grep -q '^  trial'; then
	echo
	echo "== wirerate trial --rate 20kpps --size 64 --duration 3s"
	"$WR" trial --prefix "$P" --rate 20kpps --size 64 --duration 3s
fi
echo
echo "The lab stays up for you to try: 'wirerate lab status', 'wirerate lab down'."
