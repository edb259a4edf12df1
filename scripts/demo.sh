#!/usr/bin/env bash
# make demo: build the lab, calibrate the tester, run RFC 2544 throughput on
# the kernel's forwarding path, then on a DUT shaped to a known capacity.
set -euo pipefail
WR=${1:-build/wirerate}
[ "$(id -u)" -eq 0 ] || { echo "demo: run as root (it builds network namespaces)" >&2; exit 2; }
P=${WR_DEMO_PREFIX:-wr-}
SIZES=${WR_DEMO_SIZES:-64,512,1518}
Q="--prefix $P --quick --sizes $SIZES"

echo "== wirerate probe"
"$WR" probe
echo
echo "== wirerate lab up"
"$WR" lab up --prefix "$P"
echo
echo "== wirerate calibrate: the tester's own ceiling per size, back to back"
for s in ${SIZES//,/ }; do
	"$WR" calibrate --prefix "$P" --size "$s" --duration 2s --json |
		jq -r '"  \(.size) bytes: \(.ceiling_pps | floor) frames/s, analyzer counted every frame: \(.receiver_ok)"'
done
echo
echo "== wirerate rfc2544 throughput --quick: the kernel's forwarding path"
"$WR" rfc2544 throughput $Q --label demo-kernel
echo
echo "== the same DUT shaped to 100 kpps (wirerate lab up --shape 100kpps)"
"$WR" lab up --prefix "$P" --shape 100kpps >/dev/null
"$WR" rfc2544 throughput $Q --label demo-shaped-100k
"$WR" lab up --prefix "$P" >/dev/null
echo
echo "== wirerate report: the two runs side by side, from the results store"
HTML=${WR_DEMO_HTML:-/tmp/wirerate-demo.html}
"$WR" report demo-kernel demo-shaped-100k --html "$HTML"
echo
echo "The lab stays up for you to try: 'wirerate lab status', 'wirerate trial --rate 100kpps',"
echo "'wirerate lab down'."
