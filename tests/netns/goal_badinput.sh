# RFC 9971 goals on rfc2544's command line: every malformed --goal or
# --preset, two goals of one name and more goals than a run takes give
# one line and exit 2 before any traffic; --help says which options the goals set.
# No namespaces: common.sh, not lib.sh.
. "$(dirname "$0")/../common.sh"

for g in '' 60f60d0l 60f60d0e0l 60d60f0l0e 60f30d0l0e 0f0d0l0e 60f60d100l0e 60f60d0l100e \
	60f60d0l0e0w 60f60d0l0e61i 1e3f1e3d0l0e 60f60d0l0ex 'bad name:60f60d0l0e' :60f60d0l0e; do
	expect_exit 2 "$WR" rfc2544 throughput --goal "$g"
done
expect_exit 2 "$WR" rfc2544 throughput --preset nope
expect_exit 2 "$WR" rfc2544 throughput --preset ''
# two goals of one name: which is which in the results?
expect_exit 2 "$WR" rfc2544 throughput --goal a:1f1d0l0e --goal a:1f2d0l50e
expect_exit 2 "$WR" rfc2544 throughput --preset rfc2544 --goal rfc2544:1f1d0l0e
# nine goals: more than GOAL_MAX
args=(); for i in 1 2 3 4 5 6 7 8 9; do args+=(--goal "g$i:1f1d0l0e"); done
expect_exit 2 "$WR" rfc2544 throughput "${args[@]}"

h=$("$WR" rfc2544 --help)
for w in "--goal GOAL" "--preset NAME" "60f60d0l0e" "60f120d0l50e" "--trial-time" "--exceed-ratio"; do
	case "$h" in *"$w"*) ;; *) fail "rfc2544 --help does not mention '$w'" ;; esac
done
echo ok
