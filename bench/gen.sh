#!/usr/bin/env bash
# Benchmark: wirerate's generator against trafgen (netsniff-ng) and iperf3
# in one run, on one lab, 64-byte frames (60 bytes on veth), one core.
# Back to back (a veth pair straight from gen to sink) and through the lab
# DUT; medians of RUNS runs of SECS seconds; ratios. Then pacing: wirerate
# at fixed targets against trafgen's own --rate.
#
#   bash bench/gen.sh [build/wirerate]      RUNS=3 SECS=5 CPU=0
set -uo pipefail
WR=${1:-build/wirerate}
RUNS=${RUNS:-3}
SECS=${SECS:-5}
[ "$(echo "$SECS >= 2" | bc -l)" = 1 ] || { echo "bench/gen.sh: SECS must be 2 or more (trafgen is counted over SECS - 1)" >&2; exit 2; }
CPU=${CPU:-0}
P=wrb-
for t in trafgen iperf3 jq; do
	command -v $t >/dev/null || { echo "bench: $t missing (make bench installs it)" >&2; exit 2; }
done
[ "$(id -u)" -eq 0 ] || { echo "bench: run as root" >&2; exit 2; }

tmp=$(mktemp -d)
# trafgen raises the socket memory limits itself (4 MiB default, 100 MiB
# max) but cannot from inside a namespace, where they are read-only: set
# them for it here, as it would, and put them back afterwards.
old_wdef=$(cat /proc/sys/net/core/wmem_default) old_wmax=$(cat /proc/sys/net/core/wmem_max)
cleanup() {
	"$WR" lab down --prefix "$P" >/dev/null 2>&1
	echo "$old_wdef" >/proc/sys/net/core/wmem_default
	echo "$old_wmax" >/proc/sys/net/core/wmem_max
	rm -rf "$tmp"
}
trap cleanup EXIT
"$WR" lab up --prefix "$P" >/dev/null || exit 1
# The XDP generator needs BPF_PROG_RUN's live frames; a kernel that
# refuses them (probe says why) leaves its rows n/a, and the rest (AF_PACKET
# against trafgen and iperf3) is measured as ever.
XDP=1
if ! why=$("$WR" probe --require xdp_live_frames 2>&1 >/dev/null); then
	XDP=0
	echo "bench: the XDP rows are n/a: $why" >&2
fi
G=${P}gen S=${P}sink

# A direct pair for back to back: bb0 (gen) -- bb1 (sink), addressed from
# the benchmarking range so iperf3 can use it too.
ip -n "$G" link add bb0 type veth peer name bb1 netns "$S"
ip -n "$G" addr add 198.18.1.1/24 dev bb0
ip -n "$S" addr add 198.18.1.2/24 dev bb1
ip -n "$G" link set bb0 up
ip -n "$S" link set bb1 up
# Back to back, the receiving side (kernel and analyzer) runs on the other
# CPU, so that the generating core does nothing but generate, for every tool.
OTHER=$(( CPU == 0 ? 1 : 0 ))
ip netns exec "$S" sh -c "for q in /sys/class/net/bb1/queues/rx-*; do printf '%x' $((1 << OTHER)) > \$q/rps_cpus; done"
for d in "$G bb0" "$S bb1"; do set -- $d; ip netns exec "$1" ethtool -K "$2" gro off gso off tso off 2>/dev/null; done
BB1_MAC=$(ip -n "$S" -j link show bb1 | jq -r '.[0].address')
# Two cores: a pair with two queues each side (mq0 -- mq1), a generator
# thread or process on each CPU. Each CPU's frames land in its own queue,
# and with no receive thread pinned, that CPU counts them too.
NCPU=$(nproc)
if [ "$NCPU" -ge 2 ]; then
	ip -n "$G" link add mq0 numtxqueues 2 numrxqueues 2 type veth peer name mq1 netns "$S" numtxqueues 2 numrxqueues 2
	ip -n "$G" addr add 198.18.2.1/24 dev mq0
	ip -n "$S" addr add 198.18.2.2/24 dev mq1
	ip -n "$G" link set mq0 up
	ip -n "$S" link set mq1 up
	for d in "$G mq0" "$S mq1"; do set -- $d; ip netns exec "$1" ethtool -K "$2" gro off gso off tso off 2>/dev/null; done
	MQ1_MAC=$(ip -n "$S" -j link show mq1 | jq -r '.[0].address')
fi
DUT0_MAC=02:77:72:00:00:02

rxcount() { ip -n "$1" -j -s link show "$2" | jq -r '.[0].stats64.rx.packets'; }
# Frames received and when (the middle of the read, in s): the counter
# read alone, so that the time is known to a few ms.
rxcount_at() {
	local t0=$EPOCHREALTIME v
	v=$(ip netns exec "$1" cat "/sys/class/net/$2/statistics/rx_packets")
	echo "$v $(echo "($t0 + $EPOCHREALTIME) / 2" | bc -l)"
}
median() { sort -g | awk '{a[NR]=$1} END {if (NR) printf "%.15g\n", NR % 2 ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# trafgen: one 60-byte UDP frame to dst MAC/IP, counted at the receiver.
trafgen_conf() { # dst_mac dst_ip src_ip
	local m=${1//:/, 0x}
	cat >"$tmp/tg.cfg" <<CFG
{
  0x${m},  0x02, 0x77, 0x72, 0x00, 0x00, 0x01,  0x08, 0x00,
  0x45, 0x00, 0x00, 0x2e, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11, csumip(14, 33),
  $(echo "$3" | tr . ' ' | awk '{printf "%d, %d, %d, %d,", $1, $2, $3, $4}')
  $(echo "$2" | tr . ' ' | awk '{printf "%d, %d, %d, %d,", $1, $2, $3, $4}')
  0x04, 0x00, 0x00, 0x09, 0x00, 0x1a, 0x00, 0x00,
  fill(0x00, 18)
}
CFG
}
run_trafgen() { # dev rx_ns rx_dev [extra args]: frames/s received while it runs
	# Flat out, counted from 0.5 s after the start to 0.5 s before the end,
	# so that trafgen's start (its ring and threads) is not charged to its
	# rate, as wirerate's and iperf3's are not. With TG_WHOLE=1 (its
	# --rate), the frames of the whole run over SECS: it keeps to its
	# schedule from its first frame, and the count is exact where the
	# window's ends are known to a few ms only.
	local dev=$1 rns=$2 rdev=$3; shift 3
	local a b ta tb pid a0
	a0=$(rxcount "$rns" "$rdev")
	echo 104857600 >/proc/sys/net/core/wmem_max
	echo 4194304 >/proc/sys/net/core/wmem_default
	timeout -s INT "$SECS" ip netns exec "$G" taskset -c "${TG_CPUS:-$CPU}" trafgen --dev "$dev" --conf "$tmp/tg.cfg" \
		--cpus "${TG_N:-1}" "$@" >/dev/null 2>&1 &
	pid=$!
	sleep 0.5
	read -r a ta < <(rxcount_at "$rns" "$rdev")
	sleep "$(echo "$SECS - 1" | bc -l)"
	read -r b tb < <(rxcount_at "$rns" "$rdev")
	wait "$pid"
	echo "$old_wdef" >/proc/sys/net/core/wmem_default
	echo "$old_wmax" >/proc/sys/net/core/wmem_max
	if [ "${TG_WHOLE:-0}" = 1 ]; then
		sleep 0.5
		echo "($(rxcount "$rns" "$rdev") - $a0) / $SECS" | bc -l
	else
		echo "($b - $a) / ($tb - $ta)" | bc -l
	fi
}
run_iperf3() { # server_ip: datagrams/s received
	ip netns exec "$S" iperf3 -s -1 -p 5201 -D -I "$tmp/iperf.pid" >/dev/null 2>&1
	sleep 0.3
	ip netns exec "$G" iperf3 -c "$1" -p 5201 -u -l 18 -b 0 -t "$SECS" -A "$CPU" -J >"$tmp/ip.json" 2>/dev/null
	sleep 0.3
	kill "$(cat "$tmp/iperf.pid" 2>/dev/null)" 2>/dev/null
	jq -r '(.end.sum.packets - .end.sum.lost_packets) / .end.sum.seconds' "$tmp/ip.json" 2>/dev/null || echo 0
}
run_wr_dut() { # [--port-type T]
	"$WR" trial --prefix "$P" "$@" --no-store --rate 20Mpps --duration "${SECS}s" --gen-cpu "$CPU" --rx-cpu "$CPU" \
		--learn-wait 0.2s --drain 1s --calibration "$tmp/cal" --json | jq -r '.directions[0] | .offered_pps * .rx / .tx'
}
run_wr_b2b() { # RXCPU [--port-type T]
	local rxcpu=$1; shift
	"$WR" trial --tx "bb0@$G" --rx "bb1@$S" --dst-mac "$BB1_MAC" "$@" --no-store --rate 20Mpps --duration "${SECS}s" \
		--gen-cpu "$CPU" --rx-cpu "$rxcpu" --learn-wait 0.2s --drain 1s --calibration "$tmp/cal" --json |
		jq -r '.directions[0] | "\(.offered_pps * .rx / .tx) \(.offered_pps)"'
}

run_wr_cal() { # back to back flat out (calibrate's first step), analyzer on the other CPU [extra]:
	# counted/s, sent/s, lost, one cache line from CPU to OTHER before:after the step (ns)
	"$WR" calibrate --tx "bb0@$G" --rx "bb1@$S" --port-type xdp "$@" --duration "${SECS}s" --gen-cpu "$CPU" \
		--rx-cpu "$OTHER" --drain 1s --calibration "$tmp/cal-bb" --json |
		jq -r '"\(.flat_out | .offered_pps * .rx / .tx) \(.flat_out.offered_pps) \(.flat_out.lost)" +
			" \(.cpu_line.before_ns // 0):\(.cpu_line.between_ns // 0)"'
}
# One cache line from the first CPU to the other of the pair (wirerate
# probe measures from the first CPU): where the host has the two now.
LK="0-$(( CPU > OTHER ? CPU : OTHER ))"
line_ns() { "$WR" probe --json 2>/dev/null | jq -r --arg k "$LK" '.cpu_line_ns[$k] // 0'; }

run_wr_mq() { # generator threads on CPUs 0 and 1, each counting its own frames
	"$WR" trial --tx "mq0@$G" --rx "mq1@$S" --dst-mac "$MQ1_MAC" --src-ip 198.18.2.1 --dst-ip 198.18.2.2 \
		--port-type xdp --no-store --rate 30Mpps --duration "${SECS}s" --gen-cpu 0,1 --learn-wait 0.2s --drain 1s \
		--calibration "$tmp/cal" --json | jq -r '.directions[0] | "\(.offered_pps * .rx / .tx) \(.lost)"'
}

declare -A R
for i in $(seq "$RUNS"); do
	if [ "$NCPU" -ge 2 ]; then
		[ $XDP = 1 ] && { set -- $(run_wr_mq); R[wx2_b2b]+="$1 "; R[wx2_lost]+="$2 "; }
		trafgen_conf "$MQ1_MAC" 198.18.2.2 198.18.2.1
		R[tg2_b2b]+="$(TG_CPUS=0,1 TG_N=2 run_trafgen mq0 "$S" mq1) "
	fi
	if [ $XDP = 1 ]; then
		set -- $(run_wr_cal); R[wx_b2b]+="$1 "; R[wx_lost]+="$3 "; R[wx_line]+="$4 "
		set -- $(run_wr_cal --no-flow-control); R[wn_b2b]+="$1 "; R[wx_sent]+="$2 "; R[wn_lost]+="$3 "
		set -- $(run_wr_b2b "$CPU" --port-type xdp); R[w1_b2b]+="$1 "
	fi
	set -- $(run_wr_b2b "$OTHER" --port-type afpacket); R[wr_b2b]+="$1 "
	trafgen_conf "$BB1_MAC" 198.18.1.2 198.18.1.1
	a=$(line_ns)
	R[tg_b2b]+="$(run_trafgen bb0 "$S" bb1) "
	R[tg_line]+="$a:$(line_ns) "
	R[ip_b2b]+="$(run_iperf3 198.18.1.2) "
	[ $XDP = 1 ] && R[wx_dut]+="$(run_wr_dut --port-type xdp) "
	R[wr_dut]+="$(run_wr_dut --port-type afpacket) "
	trafgen_conf "$DUT0_MAC" 198.19.0.2 198.18.0.1
	R[tg_dut]+="$(run_trafgen gen0 "$S" sink0) "
	R[ip_dut]+="$(run_iperf3 198.19.0.2) "
done
med() { tr ' ' '\n' <<<"${R[$1]:-}" | grep . | median; }
medn() { local v; v=$(med "$1"); echo "${v:-n/a}"; }	# a count, n/a where not measured
# a figure not measured (the XDP rows where the kernel refuses XDP) is n/a
kpps() { if [ -n "$1" ]; then printf '%8.0f kpps' "$(echo "$1 / 1000" | bc -l)"; else printf '%13s' n/a; fi; }
ratio() { if [ -n "$1" ] && [ -n "$2" ]; then printf '%6.2fx' "$(echo "$1 / $2" | bc -l)"; else printf '%7s' n/a; fi; }

echo "wirerate bench: 64-byte frames (60 B on veth), generator on one core (CPU $CPU), frames/s"
echo "received, median of $RUNS runs of $SECS s each; kernel $(uname -r), $(nproc) CPUs."
echo "Back to back the receiver (kernel and wirerate's analyzer) is on CPU $OTHER, and"
echo "wirerate XDP is 'calibrate' flat out: the generator keeps a window of frames to the"
echo "analyzer (flow control), so every frame sent is counted; through the DUT (CPU $OTHER)"
echo "the analyzer shares CPU $CPU with the generator and counts every frame, while the"
echo "peers are counted by interface counters."
echo
printf '%-34s %18s %22s\n' "" "back to back" "through the lab DUT"
for t in "wx:wirerate XDP" "wr:wirerate AF_PACKET" "tg:trafgen (netsniff-ng)" "ip:iperf3 -u -l 18"; do
	k=${t%%:*}
	printf '%-34s %18s %22s\n' "${t#*:}" "$(kpps "$(med ${k}_b2b)")" "$(kpps "$(med ${k}_dut)")"
done
printf '%-34s %18s\n' "wirerate XDP, analyzer on CPU $CPU" "$(kpps "$(med w1_b2b)")"
printf '%-34s %18s  (lost %s, median)\n' "wirerate XDP, no flow control" "$(kpps "$(med wn_b2b)")" "$(medn wn_lost)"
printf '%-34s %18s %22s\n' "wirerate XDP / trafgen" "$(ratio "$(med wx_b2b)" "$(med tg_b2b)")" "$(ratio "$(med wx_dut)" "$(med tg_dut)")"
printf '%-34s %18s\n' "wirerate XDP lost (flow control)" "$(medn wx_lost)"
printf '%-34s %18s\n' "  with the analyzer on CPU $CPU" "$(ratio "$(med w1_b2b)" "$(med tg_b2b)")"
printf '%-34s %18s %22s\n' "wirerate XDP / iperf3" "$(ratio "$(med wx_b2b)" "$(med ip_b2b)")" "$(ratio "$(med wx_dut)" "$(med ip_dut)")"
printf '%-34s %18s %22s\n' "wirerate XDP / AF_PACKET" "$(ratio "$(med wx_b2b)" "$(med wr_b2b)")" "$(ratio "$(med wx_dut)" "$(med wr_dut)")"
printf '%-34s %18s %22s\n' "wirerate AF_PACKET / trafgen" "$(ratio "$(med wr_b2b)" "$(med tg_b2b)")" "$(ratio "$(med wr_dut)" "$(med tg_dut)")"
printf '%-34s %18s\n' "wirerate XDP sent, no flow control" "$(kpps "$(med wx_sent)")"
[ $XDP = 1 ] && printf '%-34s %15.0f ns\n' "XDP generator CPU per frame" "$(echo "1000000000 / $(med wx_sent)" | bc -l)"
echo "  (its core does nothing else: 1 s / frames sent per second)"
if [ "$NCPU" -ge 2 ]; then
	echo
	echo "two cores, back to back on a pair with two queues a side (CPUs 0 and 1 each generate, and"
	echo "each counts its own queue's frames; nothing else runs there):"
	printf '%-34s %18s\n' "wirerate XDP, --gen-cpu 0,1" "$(kpps "$(med wx2_b2b)")"
	printf '%-34s %18s\n' "trafgen --cpus 2" "$(kpps "$(med tg2_b2b)")"
	printf '%-34s %18s\n' "wirerate XDP / trafgen, two cores" "$(ratio "$(med wx2_b2b)" "$(med tg2_b2b)")"
	printf '%-34s %18s\n' "wirerate XDP lost (frames, median)" "$(medn wx2_lost)"
fi

# The same back-to-back figures by where the host had the two CPUs: on a
# VM it may place them close (tens of ns for a cache line) or far apart
# (hundreds), and move them between runs; the XDP path hands every frame
# across and slows down far more than trafgen does (docs/measurement.md).
# near: before and after the run under twice the lowest figure seen; far:
# both at or above it; a run during which they moved is left out.
place() { # before:after lowest -> near|far|moved
	awk -v s="$1" -v l="$2" 'BEGIN { split(s, a, ":"); n = f = 0
		for (i = 1; i <= 2; i++) { if (a[i] > 0 && a[i] < 2 * l) n++; if (a[i] >= 2 * l) f++ }
		print n == 2 ? "near" : f == 2 ? "far" : "moved" }'
}
sel() { # values-key lines-key placement: the values of the runs placed so
	local v=(${R[$1]:-}) l=(${R[$2]:-}) i
	for i in "${!v[@]}"; do [ "$(place "${l[$i]}" "$L0")" = "$3" ] && echo "${v[$i]}"; done
}
L0=$(tr ' :' '\n\n' <<<"${R[wx_line]:-} ${R[tg_line]:-}" | awk '$1 > 0' | sort -g | head -1)
if [ -n "$L0" ]; then
	echo
	printf 'back to back by where the host had CPUs %s and %s (one cache line between them, measured\n' "$CPU" "$OTHER"
	printf 'before and after each run; near: under %.0f ns, twice the lowest seen; runs that moved left out):\n' \
		"$(echo "2 * $L0" | bc -l)"
	printf '%-34s %18s %22s\n' "" "near" "far"
	for t in "wx:wirerate XDP (flow control)" "tg:trafgen (netsniff-ng)"; do
		k=${t%%:*} cells=()
		for pl in near far; do
			v=$(sel "${k}_b2b" "${k}_line" $pl)
			n=$(grep -c . <<<"$v")
			cells+=("$( [ "$n" -gt 0 ] && printf '%s (%d)' "$(kpps "$(median <<<"$v")")" "$n" || echo -)")
		done
		printf '%-34s %18s %22s\n' "${t#*:}" "${cells[0]}" "${cells[1]}"
	done
	cells=()
	for pl in near far; do
		a=$(sel wx_b2b wx_line $pl | median) b=$(sel tg_b2b tg_line $pl | median)
		cells+=("$( [ -n "$a" ] && [ -n "$b" ] && ratio "$a" "$b" || echo -)")
	done
	printf '%-34s %18s %22s\n' "wirerate XDP / trafgen" "${cells[0]}" "${cells[1]}"
fi
echo
echo "runs (frames/s):"
for k in wx_b2b wx_lost wx_line wn_b2b wn_lost wx_sent w1_b2b wr_b2b tg_b2b tg_line ip_b2b wx_dut wr_dut tg_dut ip_dut wx2_b2b wx2_lost tg2_b2b; do
	printf '  %-7s %s\n' "$k" "${R[$k]:-}"
done

# Pacing, XDP path: back to back (where the ceiling is measured), at 10%,
# 50% and 90% of the calibrated ceiling; the analyzer counts every frame.
pace_line() { # label rate json
	set -- "$1" "$2" $(jq -r '.directions[0] | "\(.offered_pps) \(.lost) \(.tester_limited)"' <<<"$3")
	printf '  %-9s %9d f/s  %12.1f  %+7.3f%%  lost %s, tester-limited %s\n' "$1" "$2" "$3" \
		"$(echo "($3 - $2) * 100 / $2" | bc -l)" "$4" "$5"
}
if [ $XDP = 1 ]; then
	ceiling=$("$WR" calibrate --tx "bb0@$G" --rx "bb1@$S" --port-type xdp --duration "${SECS}s" \
		--gen-cpu "$CPU" --rx-cpu "$CPU" --drain 1s --calibration "$tmp/cal" --json | jq -r .ceiling_pps)
	echo
	echo "tester ceiling, XDP path (wirerate calibrate back to back, generator and analyzer on CPU $CPU,"
	echo "every frame counted): $(kpps "$ceiling")"
	echo
	echo "pacing back to back, XDP path (${SECS} s each): target, achieved, error"
	for f in 0.1 0.5 0.9; do
		r=$(printf '%.0f' "$(echo "$ceiling * $f" | bc -l)")
		pace_line "$f" "$r" "$("$WR" trial --tx "bb0@$G" --rx "bb1@$S" --dst-mac "$BB1_MAC" --port-type xdp --no-store \
			--rate "$r" --duration "${SECS}s" --gen-cpu "$CPU" --rx-cpu "$CPU" --learn-wait 0.2s --drain 1s \
			--calibration "$tmp/cal" --json)"
	done
else
	echo
	echo "tester ceiling and pacing, XDP path: n/a ($why)"
fi
echo
echo "pacing through the lab DUT (${SECS} s each; default path): target, achieved, error"
for r in 1000 10000 100000; do
	pace_line wirerate "$r" "$("$WR" trial --prefix "$P" --no-store --rate "$r" --duration "${SECS}s" \
		--gen-cpu "$CPU" --rx-cpu "$CPU" --learn-wait 0.2s --drain 1s --calibration "$tmp/cal" --json)"
done
trafgen_conf "$DUT0_MAC" 198.19.0.2 198.18.0.1
for r in 10000 100000; do
	a=$(TG_WHOLE=1 run_trafgen gen0 "$S" sink0 --rate "${r}pps")
	printf '  trafgen  %9d f/s  %12.1f  %+7.3f%%  (--rate %dpps)\n' "$r" "$a" "$(echo "($a - $r) * 100 / $r" | bc -l)" "$r"
done
