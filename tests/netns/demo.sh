# make demo, whole, as a user's first screen: it runs to the end, and no
# figure in it is the tester's bound ("at least", ">=") instead of the
# DUT's: the kernel DUT has a firewall the tester can overload and the
# shaped DUT a shape below the search's maximum load. One size keeps it
# to about two minutes (the long tier's); the demo's own two sizes are
# the same searches twice over.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
D=$(mktemp -d); trap 'rm -rf "$D"; cleanup' EXIT
export WIRERATE_DB="$D/results.db"
WR_DEMO_PREFIX=$P WR_DEMO_SIZES=${WR_DEMO_SIZES:-64} WR_DEMO_HTML="$D/demo.html" \
	bash "$(dirname "$0")/../../scripts/demo.sh" "$WR" >"$D/out" 2>&1 || fail "demo: $(tail -5 "$D/out")"
sed -n '/rfc2544 throughput/,$p' "$D/out" | sed 's/^/  | /' | head -80 >&2
# each search's rows: a number for NDR and PDR, no bound
grep -n "at least\|>=" "$D/out" && fail "the demo shows a bound, not the DUT's figure"
[ "$(grep -c "^== " "$D/out")" -ge 7 ] || fail "the demo stopped early"
[ -s "$D/demo.html" ] || fail "no HTML report"
# both runs stored and reported side by side
grep -q "#1 demo-kernel" "$D/out" && grep -q "#2 demo-shaped-100k" "$D/out" || fail "the report lacks a run"
# the kernel axis: two kernels as the sender, their rounds paired on the
# DUT's CPU per KB; or, on a host without QEMU, a line saying so
if "$WR" probe --require tun,qemu >/dev/null 2>&1; then
	grep -q "the DUT's service demand (us of CPU per KB): .* (99%, 3 rounds): " "$D/out" &&
		grep -q "^  #[0-9]* 6.1.0-\*-rt-amd64 .*kernel 6.1.0-[0-9]*-rt-amd64" "$D/out" ||
		fail "the kernel part: $(sed -n '/kernel under test as the sender/,$p' "$D/out" | head -30)"
else
	grep -q "^   not run here: " "$D/out" || fail "the kernel part neither ran nor said why"
fi
echo ok
