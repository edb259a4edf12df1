#!/usr/bin/env bash
# The manual pages and the shell completion made from the option
# declarations (scripts/manpages.py, at build time): one page per command
# of the binary, each rendering without a warning and naming every option
# the command has; the completion completes commands, options and file
# names in bash, and zsh loads its own; `make install` puts them where
# man, bash-completion and zsh look. No root needed.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${WR_BUILD_DIR:-build}
WR=${WR:-$B/wirerate}
M=$B/man
fail() { echo "FAIL: $*"; exit 1; }
TMPD=$(mktemp -d); trap 'rm -rf "$TMPD"' EXIT

h=$("$WR" help --json) || fail "help --json"
cmds=$(jq -r '.commands[].name' <<<"$h" | sort)
pages=$(cd "$M" && ls wirerate-*.1 | sed 's/^wirerate-//; s/\.1$//' | sort)
[ "$cmds" = "$pages" ] || fail "pages ($(echo $pages)) are not the commands ($(echo $cmds)): man/meson.build's list"
for f in "$M"/wirerate.1 "$M"/wirerate-*.1; do
	w=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$f" 2>&1 >"$TMPD/out")
	[ -z "$w" ] || fail "$(basename "$f"): $w"
	[ "$(wc -l <"$TMPD/out")" -gt 8 ] || fail "$(basename "$f") renders to almost nothing"
	# mandoc's lint, the stricter reader (its dates, its macros)
	w=$(mandoc -Tlint -W warning "$f" 2>&1)
	[ -z "$w" ] || fail "$(basename "$f"): mandoc: $w"
done
# every option of every command is on its page, as the usage has it
for c in $cmds; do
	MANWIDTH=200 man -l "$M/wirerate-$c.1" 2>/dev/null >"$TMPD/page"
	for o in $(jq -r --arg c "$c" '.commands[] | select(.name == $c) | .options[].name' <<<"$h"); do
		grep -q -- "--$o\b" "$TMPD/page" || fail "wirerate-$c(1) lacks --$o"
	done
	grep -q "^NAME" "$TMPD/page" && grep -q "^SYNOPSIS" "$TMPD/page" || fail "wirerate-$c(1): no NAME or SYNOPSIS"
done
MANWIDTH=200 man -l "$M/wirerate.1" >"$TMPD/page" 2>/dev/null
for c in $cmds; do grep -q "wirerate-$c(1)" "$TMPD/page" || fail "wirerate(1) does not point to wirerate-$c(1)"; done
echo "ok pages: $(echo $pages | wc -w) commands and wirerate(1), no warnings"

# bash: what a user gets on TAB
complete_at() { # words...: the candidates for the last word
	bash -c '
		. "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
		COMPREPLY=(); _wirerate
		printf "%s\n" "${COMPREPLY[@]}"' "$M/wirerate.bash" "$@"
}
[ "$(complete_at wirerate rf)" = rfc2544 ] || fail "bash: 'wirerate rf' gives '$(complete_at wirerate rf)'"
[ "$(complete_at wirerate trial --ra)" = --rate ] || fail "bash: 'trial --ra' gives '$(complete_at wirerate trial --ra)'"
[ "$(complete_at wirerate --json rfc2544 --exceed)" = --exceed-ratio ] || fail "bash: after --json: '$(complete_at wirerate --json rfc2544 --exceed)'"
complete_at wirerate stream - | grep -qx -- --client || fail "bash: stream's options lack --client"
complete_at wirerate stream - | grep -qx -- -m || fail "bash: stream's options lack -m"
[ -z "$(complete_at wirerate stream -m -)" ] || fail "bash: -m's value was completed as an option"
[ -z "$(complete_at wirerate trial --rate 1)" ] || fail "bash: a value was completed as an option"
touch "$TMPD/results-x.db"
[ "$(complete_at wirerate runs --db "$TMPD/results-")" = "$TMPD/results-x.db" ] || fail "bash: --db does not complete a file name"
echo "ok bash completion"

# zsh: the file parses and defines the function compinit would call
zsh -n "$M/_wirerate" || fail "zsh: _wirerate does not parse"
zsh -f -c 'autoload -U compinit; compinit -u -D; fpath=("$1" $fpath); autoload -U _wirerate; whence -w _wirerate' "$M" \
	| grep -q "function" || fail "zsh: _wirerate does not load"
[ "$(head -1 "$M/_wirerate")" = "#compdef wirerate" ] || fail "zsh: no #compdef line"
echo "ok zsh completion"

# make install: where man, bash-completion and zsh look
meson install -C "$B" --no-rebuild --destdir "$TMPD/root" >/dev/null 2>&1 || fail "meson install"
pfx=$(meson introspect "$B" --buildoptions | jq -r '.[] | select(.name == "prefix") | .value')
for f in share/man/man1/wirerate.1 share/man/man1/wirerate-trial.1 share/bash-completion/completions/wirerate.bash \
	share/zsh/vendor-completions/_wirerate bin/wirerate; do
	[ -f "$TMPD/root$pfx/$f" ] || fail "make install: no $pfx/$f"
done
MANPATH="$TMPD/root$pfx/share/man" man -w wirerate-rfc2544 >/dev/null 2>&1 || fail "man cannot find wirerate-rfc2544 under the installed tree"
echo ok
