#!/usr/bin/env bash
# Every program that the build, the tests, the demo or CI run must come
# from a Debian package that scripts/deps.sh installs, or from one that
# every Debian system has (Essential, or Priority required). A program
# that is only here because someone installed it by hand passes on the
# developer's machine and fails on a fresh one; this test finds it.
#
# The list of programs is derived from the scripts themselves: the first
# word of every simple command (after assignments, keywords and wrappers
# such as timeout, env, ip netns exec, flock, chrt), in every shell script
# the suite, the demo and CI run, plus the programs meson's build files
# look up with find_program. Shell functions and builtins are skipped.
# bench/ scripts are checked against the packages of 'deps.sh --bench' as
# well, since 'make bench' installs both lists.
#
# Exit 0: all listed; 1: a program whose package deps.sh does not install
# (each one named, with its package).
set -u
cd "$(dirname "$0")/.." || exit 1

# The packages of a deps.sh invocation, as deps.sh itself lists them.
deps_pkgs() { WR_DEPS_LIST=1 bash scripts/deps.sh "$@" | tr '\n' ' '; }

# Command words of a shell script: one per line. A small scanner that
# knows quotes: text in single quotes (awk and jq programs) and in double
# quotes (messages) is not run, except a $( ) inside double quotes; the
# bodies of here-documents are skipped; comments are dropped.
command_words() {
	awk '
	BEGIN {
		split("if then else elif fi do done while until for in case esac function select time ! { } [[ ]] [ return local export declare readonly unset set shift trap wait exit break continue eval source . cd echo printf read true false test type command builtin let pushd popd umask exec kill mapfile getopts hash", k, " ")
		for (i in k) skipw[k[i]] = 1
		# wrappers followed by a command: how many words (options
		# aside) stand between them and it
		wrap["timeout"] = 1; wrap["env"] = 0; wrap["nice"] = 0; wrap["nohup"] = 0
		wrap["setsid"] = 0; wrap["stdbuf"] = 0; wrap["xargs"] = 0; wrap["flock"] = 1
		wrap["taskset"] = 1; wrap["chrt"] = 1; wrap["unshare"] = 0; wrap["sudo"] = 0
		wrap["exec"] = 0; wrap["command"] = 0; wrap["time"] = 0
		depth = 0; ctx[0] = "n"; heredoc = ""
	}
	function flush(   m, w, i, x, skipn) {
		m = split(cur[depth], w, /[[:space:]]+/)
		cur[depth] = ""
		i = 1; skipn = 0
		while (i <= m) {
			x = w[i]
			if (x == "" || x ~ /^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=/) { i++; continue }
			if (skipn > 0) { if (x !~ /^-/) skipn--; i++; continue }
			if (x == "ip" && w[i+1] == "netns" && w[i+2] == "exec") { print "ip"; i += 4; continue }
			if (x in wrap) { print x; skipn = wrap[x]; i++; continue }
			break
		}
		if (i > m) return
		x = w[i]
		if (x in skipw) return
		if (x ~ /^[a-z][a-z0-9_.+-]*$/) print x
	}
	# A command substitution: its own command, the outer one resumes after.
	function enter(kind) { ctx[++depth] = kind; cur[depth] = ""; paren[depth] = 0 }
	function leave() { flush(); depth--; cur[depth] = cur[depth] "Q" }
	{
		line = $0
		if (heredoc != "") {
			t = line; sub(/^\t+/, "", t)
			if (t == heredoc) heredoc = ""
			next
		}
		hl = line; gsub(/\$\(\([^)]*\)\)/, "", hl)	# not an arithmetic shift
		if (match(hl, /<<-?[[:space:]]*["\047]?[A-Za-z_][A-Za-z0-9_]*/)) {
			line = hl
			h = substr(hl, RSTART, RLENGTH); sub(/<<-?[[:space:]]*["\047]?/, "", h)
			heredoc = h
		}
		n = length(line)
		cont = 0
		for (i = 1; i <= n; i++) {
			c = substr(line, i, 1); st = ctx[depth]
			if (st == "s") { if (c == "\047") depth--; continue }
			if (st == "d") {
				if (c == "\\") { i++; continue }
				if (c == "\"") { depth--; continue }
				if (c == "$" && substr(line, i + 1, 1) == "(" && substr(line, i + 2, 1) != "(") {
					enter("n"); i++; continue
				}
				if (c == "`") { enter("b"); continue }
				continue
			}
			# code: at the top, in $( ) or in backquotes
			if (c == "\\") { if (i == n) cont = 1; i++; cur[depth] = cur[depth] " "; continue }
			if (c == "#" && (i == 1 || substr(line, i - 1, 1) ~ /[[:space:];]/)) break
			if (c == "\047") { ctx[++depth] = "s"; cur[depth - 1] = cur[depth - 1] "Q"; continue }
			if (c == "\"") { ctx[++depth] = "d"; cur[depth - 1] = cur[depth - 1] "Q"; continue }
			if (c == "$" && substr(line, i + 1, 1) == "(" && substr(line, i + 2, 1) != "(") {
				enter("n"); i++; continue
			}
			if (c == "$" && substr(line, i + 1, 1) == "{") {
				# a parameter expansion is part of its word
				j = index(substr(line, i), "}"); if (j) { i += j - 1; cur[depth] = cur[depth] "Q"; continue }
			}
			if (c == "$" && substr(line, i + 1, 2) == "((") {
				j = index(substr(line, i), "))"); if (j) { i += j; cur[depth] = cur[depth] "Q"; continue }
			}
			if (c == "(" && substr(line, i - 1, 1) == "=") {
				# the elements of an array are words, not a command
				j = index(substr(line, i), ")"); if (j) { i += j - 1; cur[depth] = cur[depth] "Q"; continue }
			}
			if (c == "`") { if (st == "b") leave(); else enter("b"); continue }
			if (c == ")" && depth > 0 && st == "n" && !paren[depth]) { leave(); continue }
			if (c == "(") { flush(); paren[depth]++; continue }
			if (c == ")") {
				# closes a subshell, or ends the pattern of a case arm
				if (paren[depth]) { flush(); paren[depth]--; } else cur[depth] = ""
				continue
			}
			if (c == ";" || c == "|" || c == "&" || c == "{" || c == "}") { flush(); continue }
			cur[depth] = cur[depth] c
		}
		if (!cont && (ctx[depth] == "n" || ctx[depth] == "b")) flush()
		else cur[depth] = cur[depth] " "
	}
	END { flush() }' "$1"
}

scripts=(tests/run tests/*.sh tests/netns/*.sh tests/fuzz/*.sh scripts/demo.sh .ci/run)
bench_scripts=(bench/*.sh)

# Functions the scripts define are not programs.
funcs=$(grep -ohE '^[[:space:]]*(function[[:space:]]+)?[A-Za-z_][A-Za-z0-9_]*[[:space:]]*\(\)' \
	"${scripts[@]}" "${bench_scripts[@]}" | sed -E 's/^[[:space:]]*(function[[:space:]]+)?//; s/[[:space:]]*\(\)//' | sort -u)

declare -A FUNCS
for f in $funcs; do FUNCS[$f]=1; done

programs() { # files...
	local f
	for f in "$@"; do [ -f "$f" ] && command_words "$f" | sed "s|\$| $f|"; done
	# meson's find_program('x'): the build's own programs.
	grep -ohE "find_program\('[^']+'" meson.build src/*/meson.build src/*/*/meson.build tests/meson.build bench/meson.build 2>/dev/null |
		sed -E "s/find_program\('([^']+)'/\1 meson.build/"
	# The build itself.
	printf '%s\n' "meson Makefile" "ninja Makefile" "cc meson.build" "pkg-config meson.build"
}

# Which package installed each file under a bin directory, read once from
# dpkg's own file lists (one dpkg -S per program took most of a minute).
declare -A OWNER
while read -r path pkg; do OWNER[$path]=$pkg; done < <(
	awk '$0 ~ /^(\/usr)?\/s?bin\/[^\/]+$/ { f = FILENAME; sub(/.*\//, "", f); sub(/\.list$/, "", f);
		sub(/:.*/, "", f); print $0, f }' /var/lib/dpkg/info/*.list)

# The Debian package that owns program $1, or nothing. /bin and /usr/bin
# are one directory on a merged-/usr system, so both names are asked, and
# for an alternatives link (cc, awk) the file it leads to.
owner() {
	local d path p
	for d in /usr/sbin /usr/bin /sbin /bin; do
		[ -x "$d/$1" ] || continue
		path=$d/$1
		[ -L "$path" ] && path="$path $(readlink -f "$path")"
		for path in $path; do
			for p in "$path" "${path#/usr}" "/usr${path}"; do
				[ -n "${OWNER[$p]:-}" ] && { echo "${OWNER[$p]}"; return 0; }
			done
		done
	done
	return 1
}

# Every installed package once: Essential, Priority, Status and Depends.
declare -A BASE DEPENDS INSTALLED
while IFS=$'\t' read -r pkg ess prio st dep; do
	case "$ess $prio" in yes*|*required) BASE[$pkg]=1 ;; esac
	[ "$st" = "install ok installed" ] && INSTALLED[$pkg]=1
	DEPENDS[$pkg]=$dep
done < <(dpkg-query -W -f='${Package}\t${Essential}\t${Priority}\t${Status}\t${Depends},${Pre-Depends}\n')

base_pkg() { [ -n "${BASE[$1]:-}" ]; }	# Essential or Priority required: on every Debian system

check() { # label, allowed packages (space-separated), program-file pairs on stdin
	local label=$1 allowed=" $2 " prog file pkg bad=0 seen=" "
	while read -r prog file; do
		case "$seen" in *" $prog "*) continue ;; esac
		seen="$seen$prog "
		[ -n "${FUNCS[$prog]:-}" ] && continue
		[ "$(type -t "$prog")" = builtin ] && continue
		if ! pkg=$(owner "$prog"); then
			if [ "$label" = "make bench" ] && [ -z "${BENCH_INSTALLED:-}" ]; then
				echo "note: '$prog' (run by $file) not checked: the bench's packages are not installed (scripts/deps.sh --bench)"
				continue
			fi
			echo "FAIL: $label: '$prog' (run by $file) is not a program from any Debian package here: install it from scripts/deps.sh, or do not call it"
			bad=1; continue
		fi
		case "$allowed" in *" $pkg "*) continue ;; esac
		base_pkg "$pkg" && continue
		echo "FAIL: $label: '$prog' (run by $file) comes from package $pkg, which scripts/deps.sh does not install"
		bad=1
	done
	return $bad
}

# A listed package and what it depends on directly: pkg-config is
# pkgconf, gcc is gcc-12, python3 brings python3-minimal's python3.
with_depends() {
	local p
	for p in $1; do
		echo "$p"
		printf '%s\n' "${DEPENDS[$p]:-}" | tr ',|' '\n\n' | sed -E 's/\(.*\)//; s/:any//; s/[[:space:]]//g' | grep .
	done | sort -u | tr '\n' ' '
}

main_pkgs=$(deps_pkgs) || { echo "FAIL: cannot list scripts/deps.sh's packages"; exit 1; }
bench_pkgs=$(deps_pkgs --bench) || { echo "FAIL: cannot list scripts/deps.sh --bench's packages"; exit 1; }
[ -n "$main_pkgs" ] || { echo "FAIL: scripts/deps.sh lists no package"; exit 1; }

BENCH_INSTALLED=1
for p in $bench_pkgs; do
	[ -n "${INSTALLED[$p]:-}" ] || BENCH_INSTALLED=
done
main_pkgs=$(with_depends "$main_pkgs") bench_pkgs=$(with_depends "$bench_pkgs")
rc=0
main_progs=$(programs "${scripts[@]}" | sort -u -k1,1)
bench_progs=$(programs "${bench_scripts[@]}" | sort -u -k1,1)
check "make check/demo" "$main_pkgs" <<<"$main_progs" || rc=1
check "make bench" "$main_pkgs $bench_pkgs" <<<"$bench_progs" || rc=1
n=$(printf '%s\n%s\n' "$main_progs" "$bench_progs" | awk '{print $1}' | sort -u | wc -l)
[ $rc -eq 0 ] && echo "deps: the $n programs the scripts and the build run all come from packages scripts/deps.sh installs or every Debian system has"
exit $rc
