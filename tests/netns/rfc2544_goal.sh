# An RFC 9971 goal run: RFC 2544's goal (preset rfc2544, 60f60d0l0e) with
# its trial time shortened to 1 s as a goal attribute (1f1d0l0e), on a lab
# DUT shaped to 20 kpps: one loss-free goal, so the PDR is the NDR, found
# within 3% of the shaper's rate (the tolerance of rfc2544.sh, same lab),
# and never above the max load.
. "$(dirname "$0")/lib.sh"

"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up"
j=$("$WR" rfc2544 throughput --prefix "$P" --goal rfc2544:1f1d0l0e --settle 0.1s --learn-wait 0.1s \
	--drain 0.3s --sizes 64 --max-load 40kpps --json) || fail "rfc2544 --goal"
r=$(printf '%s' "$j" | jq -c '.rows[0] | [.ndr.lower, .ndr.upper, .pdr.lower]')
printf '%s' "$r" | jq -e '.[0] >= 19400 and .[0] <= 20600 and .[1] <= 40000 and .[2] == .[0]' >/dev/null ||
	fail "--goal rfc2544:1f1d0l0e: [NDR lower, upper, PDR lower] $r, want NDR within 3% of 20000 and PDR = NDR"
note "rfc2544:1f1d0l0e: $r"
echo ok
