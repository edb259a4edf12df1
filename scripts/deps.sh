#!/usr/bin/env bash
# Install the Debian packages that wirerate's build, tests and demo need.
# Only the missing ones, non-interactively; nothing comes from anywhere but
# the distribution's archive. Safe to run any number of times.
set -euo pipefail

pkgs=(
	# build (make for the Makefile, git for the revision stamp, python3
	# for the BPF objects' embedding)
	gcc make meson ninja-build pkgconf git python3
	libmnl-dev libnftables-dev zlib1g-dev libsqlite3-dev
	# the PostgreSQL store's client library
	libpq-dev
	# nft's JSON listing (the firewall's drop counters)
	libjson-c-dev
	# the XDP paths: libxdp + libbpf, BPF programs built with clang
	libxdp-dev libbpf-dev
	# tests; ethtool (channels, offloads), procps (ps, pgrep), bc for the
	# scripts' arithmetic. tests/deps_check.sh fails when a script runs a
	# program whose package is not in this list.
	libcmocka-dev jq iproute2 ethtool procps bc
	# the SSH DUT test: a throwaway sshd, and the client wirerate runs
	openssh-server openssh-client
	# the store tests look into the database with the sqlite3 shell, and
	# run again on a throwaway PostgreSQL cluster (initdb, pg_ctl, psql)
	sqlite3 postgresql postgresql-client-common
	# the fuzz run of the frame parser (libFuzzer)
	clang libclang-rt-14-dev
	# the lab's firewall rules (nft command for users who look at them)
	nftables
	# the HTML report test renders the page in headless Chromium
	chromium
	# the manual pages' test renders them (man -l), lints them (mandoc)
	# and loads the completion in bash and zsh
	man-db groff-base mandoc zsh bash-completion
	# the OpenMetrics files are checked with the Prometheus client's
	# parser, the JSON output against its schemas (tests/jsoncheck.py),
	# the KernelCI documents against KCIDB's (tests/kcidb_check.py)
	python3-prometheus-client python3-jsonschema
	# the kernel's own KTAP parser (kunit.py) checks --ktap output
	# (tests/ktap_check.sh takes tools/testing/kunit from its tarball)
	linux-source-6.12
	# trial --capture's file is read back with tcpdump
	tcpdump
	# the VM lab (lab up --kernel): QEMU, the guest's busybox, and the
	# Debian kernel packages' modules decompressed (xz, zstd)
	qemu-system-x86 busybox-static xz-utils zstd
)

# make bench: the peer tools it measures against.
if [ "${1:-}" = "--bench" ]; then
	pkgs=(netsniff-ng iperf3 bc jq ethtool)
fi

# WR_DEPS_LIST=1: print the list and install nothing (tests/deps_check.sh
# checks every program the scripts run against it).
if [ -n "${WR_DEPS_LIST:-}" ]; then
	printf '%s\n' "${pkgs[@]}"
	exit 0
fi

missing=()
for p in "${pkgs[@]}"; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$st" = "install ok installed" ] || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing Debian packages: ${missing[*]}; run as root (or: apt-get install ${missing[*]})" >&2
	exit 1
fi

echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# The package lists may be empty or stale on a fresh machine: refresh once,
# then install; if install fails on a stale list, refresh and retry once.
if ! ls /var/lib/apt/lists/*_Packages >/dev/null 2>&1; then
	apt-get update -qq
fi
if ! apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null; then
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
