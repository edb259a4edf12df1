# Every bad input: a one-line error, exit 2, and nothing built.
. "$(dirname "$0")/lib.sh"

expect_exit 2 "$WR" lab
expect_exit 2 "$WR" lab frob --prefix "$P"
expect_exit 2 "$WR" lab up down --prefix "$P"
expect_exit 2 "$WR" lab up --prefix "$P" --bogus
expect_exit 2 "$WR" lab up --prefix "$P" --rules
expect_exit 2 "$WR" lab up --prefix "$P" --rules -1
expect_exit 2 "$WR" lab up --prefix "$P" --rules 100001
expect_exit 2 "$WR" lab up --prefix "$P" --rules lots
expect_exit 2 "$WR" lab up --prefix "$P" --dut-cpus 999
expect_exit 2 "$WR" lab up --prefix "$P" --dut-cpus 1-0
expect_exit 2 "$WR" lab up --prefix "$P" --dut-cpus ""
expect_exit 2 "$WR" lab up --prefix "$P" --placement sideways
expect_exit 2 "$WR" lab up --prefix "$P" --dut-cpus 0 --placement split
expect_exit 2 "$WR" lab up --prefix "$P" --shape 0
expect_exit 2 "$WR" lab up --prefix "$P" --shape -5kpps
expect_exit 2 "$WR" lab up --prefix "$P" --shape 50%
expect_exit 2 "$WR" lab up --prefix "$P" --shape fast
expect_exit 2 "$WR" lab up --prefix "$P" --mtu 100
expect_exit 2 "$WR" lab up --prefix "$P" --mtu 9001
expect_exit 2 "$WR" lab up --prefix "$P" --queues 0
expect_exit 2 "$WR" lab up --prefix "$P" --queues 9
expect_exit 2 "$WR" lab up --prefix "$P" --queues many
expect_exit 2 "$WR" lab up --prefix 'bad/prefix'
expect_exit 2 "$WR" lab up --prefix 'a-prefix-that-is-far-too-long-'
expect_exit 2 "$WR" lab status --prefix "$P" --rules 5
expect_exit 2 "$WR" lab down --prefix "$P" --shape 1kpps
expect_exit 2 "$WR" frobnicate
expect_exit 2 "$WR" --frob
no_namespaces_left "$P"
if command -v setpriv >/dev/null; then
	expect_exit 1 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$WR" lab up --prefix "$P"
	no_namespaces_left "$P"
fi
echo ok
