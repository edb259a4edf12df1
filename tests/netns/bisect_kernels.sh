# bisect over three Debian kernels on a VM lab (--kernels; each booted,
# fetched into the cache the first time): it runs to a verdict, whatever
# it is, and every step is stored with the guest's kernel, the one its
# candidate names. This proves the mechanism; bisect.sh proves the logic.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_vm.sh"

D=$(mktemp -d); trap 'rm -rf "$D"; vm_cleanup' EXIT
export WIRERATE_DB="$D/results.db"
t0=$SECONDS
"$WR" bisect start --kernels "$K61,$KRT,$K612" --prefix "$P" --label kern --json -- \
	trial --rate 20kpps --duration 0.5s --learn-wait 0.2s --drain 0.5s >"$D/b.json" 2>"$D/b.err" ||
	fail "bisect --kernels: $(tail -3 "$D/b.err")"
note "kernels: $((SECONDS - t0)) s: $(jq -c '{result, measured, noise}' "$D/b.json")"
jq -r '.steps[] | "  \(.index) \(.candidate) \(.verdict) \(.median) \(.values)"' "$D/b.json" | while read -r l; do note "$l"; done
verdict=$(jq -r .result "$D/b.json")
grep -qxE '(found|range|no-difference)' <<<"$verdict" || fail "no verdict: $(jq -c . "$D/b.json")"
# each measured step's runs: stored with the guest kernel its candidate names
n=0
for row in $(jq -r '.steps[] | select(.runs | length > 0) | "\(.candidate)=\(.runs | map(tostring) | join(","))"' "$D/b.json"); do
	cand=${row%%=*}
	for id in $(tr ',' ' ' <<<"${row#*=}"); do
		rel=$("$WR" runs show "$id" --json | jq -r '.runs[0].env | from_entries | ."dut.kernel.release"')
		# shellcheck disable=SC2053
		[[ $rel == $cand ]] || fail "run $id of candidate $cand stored guest kernel '$rel'"
		"$WR" runs show "$id" --json | jq -e --arg c "$cand" '.runs[0].tags | map(.tag? // .) | index("bisect-candidate:" + $c) != null' \
			>/dev/null || fail "run $id not tagged with its candidate"
		n=$((n + 1))
	done
done
note "$n step runs, each under its guest's kernel"
[ "$n" -ge 4 ] || fail "only $n step runs"
vm_nothing_left "$P"
echo ok
