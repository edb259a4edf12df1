#!/usr/bin/env python3
"""What the DUT agent costs the DUT: wall time per snapshot as the tester
sees it, and the agent's own CPU time per snapshot (from /proc/PID/stat),
over N snapshots of this host, pinned to one CPU. A trial takes two
snapshots (its traffic window's start and end); `cpu --dut` one per
interval: the share of a CPU is snapshots per second times the CPU time
of one.

    python3 bench/agent.py [build/wirerate] [N] [CPU] [PER_SECOND]

PER_SECOND paces the snapshots (0: back to back), so that the soak can
read what a steady stream of them takes from the CPU (bench/agent_soak.sh).
STALL=1 runs the agent's stall probe on CPU instead, for N / PER_SECOND
seconds.
"""
import json, os, statistics, subprocess, sys, time

wr = sys.argv[1] if len(sys.argv) > 1 else "build/wirerate"
n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
cpu = sys.argv[3] if len(sys.argv) > 3 else "0"
rate = float(sys.argv[4]) if len(sys.argv) > 4 else 0
p = subprocess.Popen(["taskset", "-c", cpu, wr, "agent"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
hz = os.sysconf("SC_CLK_TCK")


def ask(req):
    p.stdin.write((json.dumps(req) + "\n").encode())
    p.stdin.flush()
    ans = json.loads(p.stdout.readline())
    if not ans.get("ok"):
        sys.exit("agent: " + ans.get("error", "?"))
    return ans


def cpu_s():
    with open("/proc/%d/stat" % p.pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / hz


t0 = time.monotonic()
ask({"op": "hello", "version": 1, "ifaces": ["lo"]})
hello_ms = (time.monotonic() - t0) * 1000
if os.environ.get("STALL") == "1":
    # the stall probe on CPU instead, for as long as the snapshots would
    # have taken (bench/agent_soak.sh: what the soak sees of it)
    secs = n / rate if rate > 0 else 10
    c0 = cpu_s()
    ask({"op": "stall_start", "cpus": cpu})
    time.sleep(secs)
    a = ask({"op": "stall_read"})
    c1 = cpu_s()
    ask({"op": "bye"})
    p.wait(5)
    worst = max(a.get("cpus", [{}]), key=lambda c: c.get("max_late_ns", 0))
    print("agent: stall probe on CPU %s for %.0f s: %d wakeups, longest stall %.1f ms; agent CPU %.3f%%"
          % (cpu, secs, worst.get("wakeups", 0), worst.get("max_late_ns", 0) / 1e6, (c1 - c0) / secs * 100))
    sys.exit(0)
c0 = cpu_s()
walls = []
size = 0
start = time.monotonic()
for i in range(n):
    if rate > 0:
        time.sleep(max(0, start + i / rate - time.monotonic()))
    t = time.monotonic()
    a = ask({"op": "snapshot"})
    walls.append((time.monotonic() - t) * 1000)
    size = len(json.dumps(a))
c1 = cpu_s()
ask({"op": "bye"})
p.wait(5)
per = (c1 - c0) / n * 1000
print("agent: hello %.1f ms; snapshot median %.2f ms (p90 %.2f), %d bytes; agent CPU %.2f ms per snapshot"
      % (hello_ms, statistics.median(walls), sorted(walls)[int(0.9 * n)], size, per))
print("agent: at 1 snapshot/s (cpu --dut) that is %.3f%% of a CPU; a 10 s trial's two snapshots %.4f%%"
      % (per / 10, 2 * per / 100))
