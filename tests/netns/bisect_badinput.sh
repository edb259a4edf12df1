# bisect's bad input: one line and exit 2 before anything is built or
# measured; nothing stored. good equal to bad, an unknown commit, a range
# that is not one line of history, a figure the test does not give, a
# tree with uncommitted changes or not a git tree, no measurement, an
# option of the measurement that bisect sets, kernels that are not a
# series, and nothing that changes between candidates.
. "$(dirname "$0")/lib.sh"
command -v git >/dev/null || fail "no git (scripts/deps.sh installs it)"

D=$(mktemp -d); trap 'rm -rf "$D"; cleanup' EXIT
export WIRERATE_DB=$D/r.db
G=$D/g
git init -q -b main "$G"
git -C "$G" config user.email t@example.invalid
git -C "$G" config user.name test
for i in 0 1 2; do echo $i >"$G/f"; git -C "$G" add f; git -C "$G" commit -q -m "c$i"; done
A=$(git -C "$G" rev-parse HEAD~2) C=$(git -C "$G" rev-parse HEAD)
git -C "$G" checkout -q -b side "$A"; echo s >"$G/s"; git -C "$G" add s; git -C "$G" commit -q -m side
S=$(git -C "$G" rev-parse HEAD); git -C "$G" checkout -q main
M="-- trial --rate 10kpps --duration 0.5s"
bad() {
	local want=$1; shift
	out=$("$WR" bisect "$@" 2>&1); rc=$?
	note "bisect $* -> $rc: $out"
	[ "$rc" = 2 ] || fail "exit $rc, want 2: bisect $*: $out"
	[ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || fail "not one line: $out"
	grep -q -- "$want" <<<"$out" || fail "want '$want': $out"
}
O=(--tree "$G" --apply true)
bad "same commit" start "${O[@]}" --good "$C" --bad main $M
bad "is not a commit" start "${O[@]}" --good nosuchcommit --bad "$C" $M
bad "not an ancestor" start "${O[@]}" --good "$S" --bad "$C" $M
bad "not an ancestor" start "${O[@]}" --good "$C" --bad "$A" $M
bad "figure ndr is an rfc2544" start "${O[@]}" --good "$A" --bad "$C" --figure ndr $M
bad "forwarded is a trial" start "${O[@]}" --good "$A" --bad "$C" --figure forwarded -- rfc2544 throughput --sizes 64
bad "figure 'speed'" start "${O[@]}" --good "$A" --bad "$C" --figure speed $M
bad "give the measurement" start "${O[@]}" --good "$A" --bad "$C"
bad "is bisect's to set" start "${O[@]}" --good "$A" --bad "$C" -- trial --rate 10kpps --label x
bad "is bisect's to set" start "${O[@]}" --good "$A" --bad "$C" -- trial --rate 10kpps --repeat=2
bad "throughput test only" start "${O[@]}" --good "$A" --bad "$C" -- rfc2544 latency
bad "nothing would change" start --tree "$G" --good "$A" --bad "$C" $M
bad "at least two" start --kernels 6.1.0-1-cloud-amd64 $M
bad "given twice" start --kernels a.img,a.img $M
bad "series of its own" start --kernels a,b --good "$A" $M
bad "give --good REV and --bad REV" start "${O[@]}" --good "$A" $M
bad "is not a git work tree" start --tree "$D" --apply true --good "$A" --bad "$C" $M
bad "rate" start "${O[@]}" --good "$A" --bad "$C" -- trial --rate 0
bad "--repeat" start "${O[@]}" --good "$A" --bad "$C" --repeat 0 $M
bad "unexpected 'sideways'" sideways
bad "the measurement is given to 'bisect start' only" resume $M
echo dirty >>"$G/f"
bad "uncommitted changes" start "${O[@]}" --good "$A" --bad "$C" $M
git -C "$G" checkout -q -- f
bad "no database at .* (nothing stored yet)" resume
[ "$("$WR" runs --json 2>/dev/null | jq '.runs | length')" = 0 ] || fail "a run was stored: $("$WR" runs)"
echo ok
