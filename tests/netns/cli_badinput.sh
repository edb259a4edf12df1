# Bad input to the commands that need no lab (runs, report, probe,
# version, help, whole numbers, store labels): a one-line error, exit 2,
# and nothing done. No namespaces: common.sh, not lib.sh.
. "$(dirname "$0")/../common.sh"

command -v sqlite3 >/dev/null || skip "no sqlite3 shell (scripts/deps.sh installs it)"
command -v jq >/dev/null || skip "no jq"
D=$(mktemp -d /tmp/wr-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT
export WIRERATE_DB=$D/results.db

# Whole numbers are decimal: 010 is ten, hex is refused.
n=$("$WR" cpu --count 010 --interval 10ms --json | jq '.samples | length')
[ "$n" = 10 ] || fail "cpu --count 010 took $n samples, want 10 (not octal)"
expect_exit 2 "$WR" cpu --count 0x2 --interval 10ms
expect_exit 2 "$WR" cpu --count ' 2' --interval 10ms

# runs --since: an age past 1970 is out of range, not every run.
expect_exit 2 "$WR" runs --since 99999999999999999999d
expect_exit 2 "$WR" runs --since 1e308s
expect_exit 2 "$WR" runs --since infs
expect_exit 2 "$WR" runs --since 0x10s
"$WR" runs --since 7d >/dev/null || fail "runs --since 7d"

echo ok
