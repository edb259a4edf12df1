# Bad input to the commands that need no lab (runs, report, probe,
# version, help, whole numbers, store labels): a one-line error, exit 2,
# and nothing done. No namespaces: common.sh, not lib.sh.
. "$(dirname "$0")/../common.sh"

command -v sqlite3 >/dev/null || fail "no sqlite3 shell (scripts/deps.sh installs it)"
command -v jq >/dev/null || fail "no jq (scripts/deps.sh installs it)"
D=$(mktemp -d /tmp/wr-cli.XXXXXX)
trap 'rm -rf "$D"' EXIT
export WIRERATE_DB=$D/results.db

# Whole numbers are decimal: 010 is ten, hex is refused.
n=$("$WR" cpu --count 010 --interval 10ms --json | jq '.samples | length')
[ "$n" = 10 ] || fail "cpu --count 010 took $n samples, want 10 (not octal)"
expect_exit 2 "$WR" cpu --count 0x2 --interval 10ms
expect_exit 2 "$WR" cpu --count ' 2' --interval 10ms

# mpstat's habit, cpu [INTERVAL [COUNT]]: a bare number is seconds; each
# once, as an argument or as its option.
n=$("$WR" cpu 0.01 3 -j | jq -r '[(.samples | length), .interval_s] | @csv')
[ "$n" = 3,0.01 ] || fail "cpu 0.01 3: samples,interval $n, want 3,0.01"
n=$("$WR" cpu 10ms --count 2 --json | jq -c '[(.samples | length), .samples[0].time, .samples[0].unix_time - now]')
[[ "$n" =~ ^\[2,\"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}[+-][0-9]{4}\",-?[0-9.e-]+\]$ ]] ||
	fail "cpu 10ms --count 2: [samples, time, unix_time - now] $n"
expect_exit 2 "$WR" cpu 1 2 --count 3
expect_exit 2 "$WR" cpu --interval 1s 2
expect_exit 2 "$WR" cpu abc
expect_exit 2 "$WR" cpu 0.001
expect_exit 2 "$WR" cpu 1 2 3

# --db in a directory that does not exist: an error naming it, not an
# empty store made somewhere new (or an empty list).
for c in "runs" "runs rm 1" "report 1" "trial --rate 1kpps" "rfc2544 --quick"; do
	err=$("$WR" $c --db "$D/no/such/r.db" 2>&1)
	[ $? = 2 ] || fail "$c --db in a missing directory: exit not 2: $err"
	grep -q "no directory $D/no/such" <<<"$err" || fail "$c --db in a missing directory: $err"
done
[ ! -e "$D/no" ] || fail "a missing --db directory was made"
expect_exit 2 "$WR" runs --db /etc/passwd/r.db
# -j is --json everywhere, and every JSON document starts with the same
# header: what wrote it, its JSON schema, the command, the time.
"$WR" runs -j | jq -e .runs >/dev/null || fail "runs -j is not JSON"
for c in help version runs probe "cpu --count 1 --interval 10ms"; do
	out=$("$WR" $c --json) || fail "$c --json"
	jq -e --arg c "${c%% *}" '.wirerate | .command == $c and .schema == 1 and (.version | type) == "string" and
		(.revision | length) > 0 and (.time | type) == "number" and (.time - now | fabs) < 600' <<<"$out" >/dev/null ||
		fail "$c --json: header $(jq -c .wirerate <<<"$out")"
	[ "$(jq -r 'keys_unsorted[0]' <<<"$out")" = wirerate ] || fail "$c --json: the header is not first"
done

# runs --since: an age past 1970 is out of range, not every run.
expect_exit 2 "$WR" runs --since 99999999999999999999d
expect_exit 2 "$WR" runs --since 1e308s
expect_exit 2 "$WR" runs --since infs
expect_exit 2 "$WR" runs --since 0x10s
"$WR" runs --since 7d >/dev/null || fail "runs --since 7d"

# Stored runs without a lab: an empty file is listed as empty and left
# so (runs only reads); 'runs upgrade' gives it wirerate's schema; the
# rows are made with the sqlite3 shell.
: >"$WIRERATE_DB"
"$WR" runs >/dev/null || fail "runs on an empty file"
[ ! -s "$WIRERATE_DB" ] || fail "runs wrote into an empty file"
"$WR" runs upgrade >/dev/null || fail "runs upgrade on an empty file"
expect_exit 2 "$WR" runs upgrade extra
expect_exit 2 "$WR" runs upgrade --label x
for l in l1 l2 l3 l4 ''; do	# the last one unlabelled
	sqlite3 "$WIRERATE_DB" "INSERT INTO runs (started, test, label, status) VALUES (strftime('%s','now'), 'trial', '$l', 'complete')" ||
		fail "sqlite3 insert"
done
ids() { "$WR" runs --json | jq -c '[.runs[].id]'; }
[ "$(ids)" = "[1,2,3,4,5]" ] || fail "stored runs: $(ids)"

# runs rm: all the runs or none; ids that cannot be runs; options of the
# listing refused; --json honoured.
expect_exit 2 "$WR" runs rm 3 999
[ "$(ids)" = "[1,2,3,4,5]" ] || fail "runs rm 3 999 deleted something: $(ids)"
err=$("$WR" runs rm 99999999999999999999 2>&1 >/dev/null)
case "$err" in *"not a valid run id"*) ;; *) fail "runs rm 99999999999999999999: $err" ;; esac
expect_exit 2 "$WR" runs rm 99999999999999999999
expect_exit 2 "$WR" runs rm 0x2
expect_exit 2 "$WR" runs rm 0
expect_exit 2 "$WR" runs rm 2 --label l2
expect_exit 2 "$WR" runs rm 2 --tag x
expect_exit 2 "$WR" runs --since 1d rm 2
[ "$(ids)" = "[1,2,3,4,5]" ] || fail "a refused runs rm deleted something: $(ids)"
[ "$("$WR" runs rm 1 --json | jq -c 'del(.wirerate)')" = '{"removed":[1]}' ] || fail "runs rm --json"
[ "$("$WR" runs rm 2 02)" = "deleted run 2" ] || fail "runs rm 2 02"
[ "$(ids)" = "[3,4,5]" ] || fail "after runs rm: $(ids)"

# Empty values are refused, not taken as nothing.
expect_exit 2 "$WR" runs --db ""
expect_exit 2 "$WR" report --db "" 4
expect_exit 2 "$WR" report ""	# not the label of the unlabelled runs
expect_exit 2 "$WR" report 4 ""
expect_exit 2 "$WR" probe --require ""
expect_exit 2 "$WR" probe --require veth,
expect_exit 2 "$WR" probe --require veth,,netns
expect_exit 2 "$WR" probe --root ""

# report --html: the path is checked before the report is worked out.
expect_exit 2 "$WR" report 4 --html ""
expect_exit 2 "$WR" report 4 --html "$D"
expect_exit 2 "$WR" report 4 --html "$D/nonexistent/x.html"
mkfifo "$D/fifo"
expect_exit 2 "$WR" report 4 --html "$D/fifo"
[ -p "$D/fifo" ] || fail "report --html replaced a fifo"
out=$("$WR" report 4 --html "$D/nonexistent/x.html" 2>/dev/null)
[ -z "$out" ] || fail "report printed a report before refusing --html: $out"
"$WR" report 4 --html "$D/r.html" >/dev/null || fail "report --html"
[ -s "$D/r.html" ] || fail "no page written"

# version and help take no arguments; --json after the command counts.
expect_exit 2 "$WR" version extra
expect_exit 2 "$WR" version --bogus
expect_exit 2 "$WR" --version extra
expect_exit 2 "$WR" help extra
expect_exit 2 "$WR" --help extra
[ "$("$WR" version --json | jq -r 'has("version")')" = true ] || fail "version --json: $("$WR" version --json)"
[ "$("$WR" --version --json | jq -r 'has("version")')" = true ] || fail "--version --json"
"$WR" help >/dev/null || fail "help"
"$WR" version >/dev/null || fail "version"

# A store in a place this user cannot write: listed and reported from as
# it is; deleting says read-only (a host failure: exit 1).
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
	mkdir "$D/ro" && cp "$WIRERATE_DB" "$D/ro/r.db" && chmod 711 "$D" && chmod 755 "$D/ro" && chmod 644 "$D/ro/r.db"
	n=$(nobody "$WR" runs --db "$D/ro/r.db" --json | jq '.runs | length')
	[ "$n" = 3 ] || fail "runs on a read-only store: $n runs, want 3 ($(nobody "$WR" runs --db "$D/ro/r.db" 2>&1))"
	nobody "$WR" report 4 --db "$D/ro/r.db" >/dev/null || fail "report on a read-only store"
	expect_exit 1 nobody "$WR" runs rm 4 --db "$D/ro/r.db"
	err=$(nobody "$WR" runs rm 4 --db "$D/ro/r.db" 2>&1)
	case "$err" in *read-only*) ;; *) fail "runs rm on a read-only store: $err" ;; esac
	[ "$(ls "$D/ro")" = r.db ] || fail "files made in the read-only place: $(ls "$D/ro")"
else
	note "not root or no setpriv: the read-only store is not tried"
fi

# Labels and tags with control characters would break the text tables;
# refused before anything else (no lab is needed to see it).
if [ "$(id -u)" -eq 0 ]; then
	expect_exit 2 "$WR" trial --prefix "nolab$$-" --rate 1kpps --label $'a\nb'
	expect_exit 2 "$WR" trial --prefix "nolab$$-" --rate 1kpps --tag $'a\tb'
	expect_exit 2 "$WR" trial --prefix "nolab$$-" --rate 1kpps --label=$'\e[31mred'
	expect_exit 2 "$WR" rfc2544 --prefix "nolab$$-" --tag $'x\ry'
else
	note "not root: trial and rfc2544 are refused before their --label is read"
fi

echo ok
