# The gate must not flip on noise: ten runs of one configuration, each
# judged against the same baseline (a lab with no rules, 100 kpps offered
# for 1 s, three times), and not one is called a regression (exit 3). Each
# must be exit 0: at 100 kpps the lab forwards every frame it is offered,
# so the figure's noise is the few frames a held vCPU costs (at most 1%,
# tests/netns/lib.sh), well within the 5% threshold; a run that lost more
# than 5% of the frames in all three of its trials would be a real loss.
. "$(dirname "$0")/lib.sh"

T=$(mktemp -d /tmp/wr-gate.XXXXXX)
trap 'cleanup; rm -rf "$T"' EXIT
export WIRERATE_DB=$T/results.db

trial() { "$WR" trial --prefix "$P" --rate 100kpps --duration 1s --learn-wait 0.2s --drain 0.5s --repeat 3 --label "$1" >/dev/null || fail "trial $1"; }
"$WR" lab up --prefix "$P" >/dev/null || fail "lab up"
trial base
codes=""
for i in $(seq 10); do
	trial "again$i"
	"$WR" gate --baseline base "again$i" >"$T/g$i.txt"; rc=$?
	codes="$codes $rc"
	[ "$rc" = 3 ] && { cat "$T/g$i.txt"; fail "repeat $i of the same configuration called a regression"; }
	[ "$rc" = 0 ] || { cat "$T/g$i.txt"; fail "repeat $i: gate exited $rc, want 0"; }
done
note "gate exit codes of 10 repeats:$codes"
echo ok
