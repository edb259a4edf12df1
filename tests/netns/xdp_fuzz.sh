# The XDP analyzer (count.bpf.c) against frame_parse on valid, mutated,
# truncated and random frames (tests/tools/xdpfuzz.c): every frame lands in
# exactly one counter, a valid test frame is always counted, and nothing
# without a valid tag is. Runs the program with BPF_PROG_RUN, attached
# nowhere: no namespace needed, but root for BPF.
. "$(dirname "$0")/../common.sh"

[ "$(id -u)" -eq 0 ] || skip "needs root (BPF programs)"
"$WR" probe --require bpf >/dev/null 2>&1 || skip "$("$WR" probe --require bpf 2>&1)"
FUZZ=$BUILD/tests/xdpfuzz
[ -x "$FUZZ" ] || fail "no $FUZZ (build first)"
# No timing: each seed is a fixed sequence of frames, so the counts are
# the same on any host. The lower bounds say each path was taken (a few
# thousand parse, hundreds pass or carry a bad tag); timeout 90 only
# bounds a hang.
for seed in 1 2 3; do
	out=$(timeout 90 "$FUZZ" 30000 "$seed") || { rc=$?; fail "seed $seed: exit $rc (probe says BPF programs load here; xdpfuzz exits 77 when the program will not load or run): $out"; }
	note "seed $seed: $out"
	[ "$(jq -r '.parse_ok > 1000 and .counted >= .parse_ok and .passed > 100 and .bad_tag > 100' <<<"$out")" = true ] ||
		fail "seed $seed did not exercise every path: $out"
done
echo ok
