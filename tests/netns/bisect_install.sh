# bisect on a cabled DUT (the lab's DUT namespace behind a throwaway
# sshd, measured through its ports as a separate box): --install runs for
# each candidate, then bisect waits for the measurement's --dut to answer
# with the kernel release --release names. Commit 1 names a release the
# DUT never comes back with: after --dut-wait it is a skip with that
# reason. Commit 2's --apply drops half the frames in the DUT. So the
# first bad is one of 1..2 (a range: the skip lies between), the drop
# measured, and the wait bounded. The drop is random, learning frames
# included: with one learning frame the trial would lose it half the time
# and rightly call itself tester-limited ("none of the learning frames
# arrived", on the XDP path), so the measurement sends 32 (all 32 lost:
# a chance of 2^-32). 2 kpps for 1 s: under a light background load (make
# check-loaded) the tester once fell short at 10 kpps in 0.5 s trials and
# bisect rightly refused the bad end's figure as the tester's bound; a
# 20 ms hold of the generator is 40 frames at 2 kpps, which it catches up
# within the trial, and the DUT forwards hundreds of times that.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_ssh.sh"
command -v git >/dev/null || fail "no git (scripts/deps.sh installs it)"

ssh_dut_cabled
G=$db/cfg
git init -q -b main "$G"
git -C "$G" config user.email t@example.invalid
git -C "$G" config user.name test
cat >"$G/apply.sh" <<'A'
ip netns exec "$DUTNS" nft delete table inet wrbisect 2>/dev/null
[ -e drop ] || exit 0
ip netns exec "$DUTNS" nft -f - <<'N'
table inet wrbisect {
	chain forward_rules {
		type filter hook forward priority 0; policy accept
		numgen random mod 2 0 drop
	}
}
N
A
for i in 0 1 2 3; do
	uname -r >"$G/release"
	[ "$i" = 1 ] && echo "9.9.9-never" >"$G/release"
	[ "$i" -ge 2 ] && echo yes >"$G/drop"
	git -C "$G" add -A && git -C "$G" commit -q -m "c$i"
	eval "C$i=$(git -C "$G" rev-parse HEAD)"
done
export DUTNS="${P}dut"
t0=$SECONDS
"$WR" bisect start --tree "$G" --good "$C0" --bad "$C3" --install "echo installed \$WR_BISECT_CANDIDATE" \
	--release "cat release" --dut-wait 4 --apply "sh apply.sh" --label cabled --db "$db/r.db" --json -- \
	trial "${CAB[@]}" --rate 2kpps --duration 1s --learn-frames 32 --learn-wait 0.2s --drain 0.5s >"$db/b.json" 2>"$db/b.err" ||
	fail "bisect: $(tail -3 "$db/b.err")"
note "cabled: $((SECONDS - t0)) s: $(jq -c '{result, first_bad, last_good, measured, last_good_median, first_bad_median}' "$db/b.json")"
jq -r '.steps[] | "  \(.index) \(.verdict) \(.median) \(.reason // "")"' "$db/b.json" | while read -r l; do note "$l"; done
[ "$(jq -r '.result' "$db/b.json")" = range ] || fail "not a range: $(jq -c . "$db/b.json")"
[ "$(jq -r '"\(.last_good) \(.range_from) \(.first_bad)"' "$db/b.json")" = "0 1 2" ] ||
	fail "range not 1..2: $(jq -c '{last_good, range_from, first_bad}' "$db/b.json")"
jq -e '.steps[] | select(.index == 1) | .verdict == "skip" and (.reason | test("answered with kernel .*, not 9.9.9-never, for 4 s"))' \
	"$db/b.json" >/dev/null || fail "commit 1: $(jq -c '.steps[] | select(.index == 1)' "$db/b.json")"
# half dropped: the bad end forwards about half of what the good one does
jq -e '.first_bad_median < .last_good_median * 0.7' "$db/b.json" >/dev/null || fail "no drop measured"
grep -q "installed $C2" "$(jq -r '.logs // empty' "$db/b.json" 2>/dev/null || echo /nonexistent)/install-2.log" 2>/dev/null ||
	grep -rq "installed $C2" "$db"/bisect-*/install-2.log || fail "--install did not run for commit 2"
echo ok
