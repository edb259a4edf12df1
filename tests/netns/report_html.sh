# The HTML report: written from synthetic models (tests/tools/htmlgen),
# self-contained (no URL, no script, no fetch), free of NaN in the SVG,
# and rendered by headless Chromium with the expected charts and rows, the
# hostile label shown as text, and no console message (the page carries a
# CSP that forbids scripts and fetches: any attempt would be logged).
# No namespaces needed: common.sh, not lib.sh. Set KEEP_HTML=DIR to keep
# the pages and screenshots.
. "$(dirname "$0")/../common.sh"
HTMLGEN=$BUILD/tests/htmlgen
[ -x "$HTMLGEN" ] || fail "no $HTMLGEN: build first"

tmp=$(mktemp -d /tmp/wr-html.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

"$HTMLGEN" "$tmp/basic.html" || fail "htmlgen (3 runs)"
"$HTMLGEN" --many "$tmp/many.html" || fail "htmlgen --many (16 runs, NaN figures)"
"$HTMLGEN" --empty "$tmp/empty.html" || fail "htmlgen --empty"
"$HTMLGEN" --one "$tmp/one.html" || fail "htmlgen --one (the baseline alone)"
"$HTMLGEN" --trials "$tmp/trials.html" || fail "htmlgen --trials (plain trials only)"
# A write error is reported, not swallowed.
if [ -w /dev/full ]; then
	err=$("$HTMLGEN" /dev/full 2>&1) && fail "writing to /dev/full succeeded"
	case "$err" in *"writing the HTML report"*) note "/dev/full: $err" ;;
		*) fail "/dev/full: unexpected error: $err" ;; esac
fi

# count PATTERN FILE: occurrences (not lines) of an extended regex
count() { grep -oiE -- "$1" "$2" | wc -l; }

for f in basic one many empty trials; do
	h=$tmp/$f.html
	for bad in 'https?://' '<script' '[[:space:]]src=' '[[:space:]]href=' 'url\(' '@import' '<link' '<iframe' '<object' '<embed' '[[:space:]]on[a-z]+='; do
		[ "$(count "$bad" "$h")" -eq 0 ] || fail "$f.html is not self-contained: $(grep -oiE -- "$bad.{0,40}" "$h" | head -1)"
	done
	# numbers in SVG attributes are finite
	[ "$(count '(x|y|x1|x2|y1|y2|cx|cy|r|width|height|points|viewBox|transform|fill-opacity|stroke-width)="[^"]*(nan|inf)' "$h")" -eq 0 ] ||
		fail "$f.html: NaN or inf in an SVG attribute"
	grep -q '^<!DOCTYPE html>' "$h" || fail "$f.html: no doctype"
	tail -1 "$h" | grep -q '</html>' || fail "$f.html: not finished"
done
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/basic.html" || fail "the label is not escaped"
grep -q 'title="the host had CPUs 0 and 1 &lt;b&gt;172&lt;/b&gt; ns &amp; &quot;apart&quot; (42 in the baseline): its figures move with that">CPUs moved</span>' "$tmp/basic.html" ||
	fail "the moved CPUs' note is not on the run, escaped: $(grep -o '.\{60\}CPUs moved.\{10\}' "$tmp/basic.html")"
# Models of random bytes (unterminated strings, counts past the arrays,
# NaN): written without a crash (with the sanitizers in build-san) and
# without a non-finite number in the SVG.
"$HTMLGEN" --garbage "$tmp/garbage.html" || fail "htmlgen --garbage"
[ "$(count '="[^"]*(nan|inf)[^"]*"' "$tmp/garbage.html")" -eq 0 ] || fail "garbage: NaN or inf in an attribute"
[ "$(count '<script' "$tmp/garbage.html")" -eq 0 ] || fail "garbage: a script tag"
grep -q 'No runs' "$tmp/empty.html" || fail "the empty report does not say so"
# Plain trials: their own table, no empty throughput table, the worse trial
# in the banner.
grep -q 'Trials by frame size' "$tmp/trials.html" || fail "trials: no trial table"
grep -q 'No run has throughput figures.</p>' "$tmp/trials.html" || fail "trials: an empty throughput table"
grep -q '<li>.*k1, 64 B: ' "$tmp/trials.html" || fail "trials: the worse cell is not in the banner"
[ "$(count '<svg' "$tmp/empty.html")" -eq 0 ] || fail "the empty report has charts"

command -v chromium >/dev/null || fail "no chromium (scripts/deps.sh installs it)"
# render FILE: the DOM after parsing into FILE.dom, the browser's log into
# FILE.log (console messages are logged at INFO as CONSOLE).
render() {
	timeout 60 chromium --headless=new --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1" >"$1.dom" 2>"$1.log" || fail "chromium --dump-dom $1 failed: $(tail -3 "$1.log")"
	[ -s "$1.dom" ] || fail "chromium dumped no DOM for $1"
}
# The log check catches what it is meant to: a page with a script logs.
printf '<!DOCTYPE html><title>x</title><script>console.error("probe")</script>\n' >"$tmp/probe.html"
render "$tmp/probe.html"
# Debian's chromium logs them (checked on 12's 120 and later): one that
# does not cannot check the page for errors, which fails this test.
grep -q 'CONSOLE.*probe' "$tmp/probe.html.log" ||
	fail "chromium logged no console message for a page that writes one: cannot check the page for errors: $(tail -3 "$tmp/probe.html.log")"

# rows TABLECLASS DOM: rows in the body of the first <table class=...>
rows() { tr -d '\n' <"$2" | grep -o "<table class=\"$1[ \"].*" | sed 's#</table>.*##' | grep -o '<tbody>.*' | grep -o '<tr>' | wc -l; }

check_page() { # name charts thr-rows cfg-rows
	local h=$tmp/$1.html
	render "$h"
	! grep -E 'CONSOLE' "$h.log" || fail "$1: console messages"
	! grep -qiE 'parsererror|This page contains the following errors' "$h.dom" || fail "$1: parser error"
	[ "$(count '<script' "$h.dom")" -eq 0 ] || fail "$1: a script element in the DOM"
	[ "$(count '<svg class="chart"' "$h.dom")" -eq "$2" ] || fail "$1: $(count '<svg class="chart"' "$h.dom") charts, want $2"
	[ "$(rows thr "$h.dom")" -eq "$3" ] || fail "$1: $(rows thr "$h.dom") rows in the throughput table, want $3"
	[ "$(rows cfg "$h.dom")" -eq "$4" ] || fail "$1: $(rows cfg "$h.dom") rows in the configuration table, want $4"
	[ "$(rows runs "$h.dom")" -eq "$4" ] || fail "$1: $(rows runs "$h.dom") rows in the runs table, want $4"
	timeout 60 chromium --headless=new --no-sandbox --disable-gpu --no-first-run --hide-scrollbars \
		--user-data-dir="$tmp/profile" --window-size=1280,4000 --screenshot="$h.png" "file://$h" \
		>/dev/null 2>&1 || fail "$1: chromium --screenshot failed"
	[ "$(stat -c %s "$h.png")" -gt 20000 ] || fail "$1: the screenshot is (nearly) blank"
	note "$1: $2 charts, $3 sizes, $4 runs, no console message, screenshot $(stat -c %s "$h.png") bytes"
}
# basic: throughput, loss for 64..1024 (5 sizes), latency, CPU = 8 charts
check_page basic 8 7 3
# the escaped label is text in the DOM, the quotes and ampersand too
grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' "$tmp/basic.html.dom" || fail "the label is not text in the DOM"
grep -q 'Regression' "$tmp/basic.html.dom" || fail "no regression banner"
grep -q '—' "$tmp/basic.html.dom" || fail "the missing cell is not marked"
# the baseline alone: the same charts, no verdicts, no banner
check_page one 8 7 1
! grep -qE 'class="badge (better|worse|noise)|class="banner' "$tmp/one.html.dom" || fail "one run: a verdict against itself"
# 16 runs, loss at every size: 1 + 7 + 1 + 1
check_page many 10 7 16
# plain trials: no charts but the CPU one, 2 rows in the trials table and
# in the configuration table's 3 runs
check_page trials 1 0 3
[ "$(rows trl "$tmp/trials.html.dom")" -eq 2 ] || fail "trials: $(rows trl "$tmp/trials.html.dom") rows in the trials table, want 2"
render "$tmp/empty.html"
! grep -E 'CONSOLE' "$tmp/empty.html.log" || fail "empty: console messages"
grep -q 'No runs' "$tmp/empty.html.dom" || fail "empty: not rendered"
if [ -n "${KEEP_HTML:-}" ]; then
	mkdir -p "$KEEP_HTML" && cp "$tmp"/*.html "$tmp"/*.png "$KEEP_HTML"/ && note "kept in $KEEP_HTML"
fi
echo ok
