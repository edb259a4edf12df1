# A cabled tester made of namespaces: a tester namespace with two veth
# ports (no address, no neighbour entry on them) and a DUT namespace that
# routes between 198.18.0.0/24 (and 2001:2:0:1::/64) on its first port and
# 198.19.0.0/24 (2001:2:0:2::/64) on its second. --next-hop finds the DUT
# port's MAC by ARP and by ND on the tester port itself; frames forwarded
# by the DUT are counted on the other port. A next hop that does not
# answer fails with exit 1 in bounded time; bad input exits 2. probe --tx
# reports native XDP on veth, and auto takes the XDP path once the DUT's
# port takes XDP frames (GRO on it gives a veth NAPI, as a NIC has).
. "$(dirname "$0")/lib.sh"

T="${P}nht"; U="${P}nhd"
D=$(mktemp -d)
export WIRERATE_DB="$D/r.db"
trap 'ip netns del "$T" 2>/dev/null; ip netns del "$U" 2>/dev/null; rm -rf "$D"; cleanup' EXIT
ip netns add "$T" && ip netns add "$U" || fail "cannot make namespaces"
ip -n "$T" link add A type veth peer name dA netns "$U" || fail "veth A"
ip -n "$T" link add B type veth peer name dB netns "$U" || fail "veth B"
ip -n "$T" link set A up && ip -n "$T" link set B up || fail "tester ports up"
ip netns exec "$U" sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1 || fail "forwarding"
ip -n "$U" addr add 198.18.0.2/24 dev dA && ip -n "$U" addr add 198.19.0.1/24 dev dB || fail "DUT v4"
# nodad: a tentative address answers no solicitation
ip -n "$U" addr add 2001:2:0:1::2/64 dev dA nodad && ip -n "$U" addr add 2001:2:0:2::1/64 dev dB nodad ||
	fail "DUT v6"
ip -n "$U" link set dA up && ip -n "$U" link set dB up || fail "DUT ports up"
# GRO off, as veth has it by default: the DUT's port takes no XDP frames
# until the XDP part below turns it on.
ip netns exec "$U" ethtool -K dA gro off >/dev/null || fail "GRO off on dA"
# The far side: --dst-ip lives behind the DUT's second port, on the
# tester's port B, which answers no ARP (no address): a permanent entry.
BMAC=$(ip -n "$T" -j link show B | jq -r '.[0].address')
ip -n "$U" neigh replace 198.19.0.2 lladdr "$BMAC" dev dB nud permanent || fail "neigh v4"
ip -n "$U" neigh replace 2001:2:0:2::2 lladdr "$BMAC" dev dB nud permanent || fail "neigh v6"
DUTMAC=$(ip -n "$U" -j link show dA | jq -r '.[0].address')

tr() { "$WR" trial --tx "A@$T" --rx "B@$T" --rate 5kpps --duration 1s --learn-wait 0.2s --drain 0.5s --json "$@"; }

# --- IPv4: ARP on A from 198.18.0.1, the DUT forwards to B ---
j=$(tr --next-hop 198.18.0.2 --src-ip 198.18.0.1 --dst-ip 198.19.0.2) || fail "v4 trial: $j"
nh=$(jq -c '.next_hops[0]' <<<"$j")
[ "$(jq -r .mac <<<"$nh")" = "$DUTMAC" ] || fail "ARP resolved $(jq -r .mac <<<"$nh"), the DUT's port is $DUTMAC"
[ "$(jq -r '.protocol + " " + .address + " " + .port' <<<"$nh")" = "ARP 198.18.0.2 A@$T" ] || fail "next hop: $nh"
[ "$(jq -r '.ms < 3000 and .tries >= 1' <<<"$nh")" = true ] || fail "resolution time: $nh"
# The DUT's kernel only forwards: every frame offered arrives (5 kpps is
# far below what a veth DUT forwards; the learning frame set up nothing).
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r '.tx == 5000 and .rx == 5000' <<<"$d")" = true ] || fail "v4 forwarding: $d"
# The DUT's port takes no XDP frames yet (no XDP, GRO off): auto keeps
# AF_PACKET and says why (or that this host runs no XDP generator at all:
# then auto is AF_PACKET below too).
LIVE=false
"$WR" probe --require xdp_live_frames >/dev/null 2>&1 && LIVE=true
AUTO=afpacket
$LIVE && AUTO=xdp
[ "$(jq -r .port_type <<<"$j")" = afpacket ] || fail "auto took $(jq -r .port_type <<<"$j")"
if $LIVE; then
	jq -r .path_reason <<<"$j" | grep -q "takes no XDP frames" || fail "reason: $(jq -r .path_reason <<<"$j")"
else
	jq -r .path_reason <<<"$j" | grep -q "XDP generator does not run here" || fail "reason: $(jq -r .path_reason <<<"$j")"
fi
# The text says what was resolved.
"$WR" trial --tx "A@$T" --rx "B@$T" --rate 1kpps --duration 0.2s --learn-wait 0.1s --drain 0.2s \
	--next-hop 198.18.0.2 --src-ip 198.18.0.1 --dst-ip 198.19.0.2 >"$D/out" || fail "text trial"
grep -q "^  next hop   198.18.0.2 is $DUTMAC on A@$T (ARP, [0-9.]* ms" "$D/out" || fail "text: $(cat "$D/out")"
grep -q "^  port path  afpacket (auto: " "$D/out" || fail "text path: $(cat "$D/out")"
# The tester's kernel stayed out: no neighbour entry appeared on its ports.
[ -z "$(ip -n "$T" neigh show)" ] || fail "neighbour entries on the tester: $(ip -n "$T" neigh show)"

# --- probe --tx: native XDP on veth; once the DUT's port runs GRO (NAPI,
# so it takes XDP frames as a NIC takes frames from the wire) auto picks
# the XDP path ---
ip netns exec "$U" ethtool -K dA gro on >/dev/null || fail "GRO on dA"
p=$("$WR" probe --tx "A@$T" --tx "B@$T" --json) || fail "probe --tx"
a=$(jq -c '.interfaces[0]' <<<"$p")
[ "$(jq -r '.driver + " " + (.native_xdp | tostring) + " " + .auto.path' <<<"$a")" = "veth true $AUTO" ] ||
	fail "probe A: $a"
[ "$(jq -r .afxdp_zerocopy <<<"$a")" = false ] || fail "veth has no AF_XDP zero-copy: $a"
[ "$(jq -r '.interfaces[1].auto.path' <<<"$p")" = afpacket ] || fail "probe B: $(jq -c '.interfaces[1]' <<<"$p")"
# The probe detached what it attached.
[ "$(ip -n "$T" -j link show A | jq -r '.[0].xdp // empty')" = "" ] || fail "XDP left on A"
if $LIVE; then
	"$WR" probe --tx "A@$T" | grep -q "^  auto picks xdp (driver veth has native XDP" || fail "probe text"
fi
expect_exit 1 "$WR" probe --tx "nosuch0@$T"

# --- IPv6: ND from 2001:2:0:1::1, now on the XDP path ---
j=$(tr --next-hop 2001:2:0:1::2 --src-ip 2001:2:0:1::1 --dst-ip 2001:2:0:2::2) || fail "v6 trial: $j"
nh=$(jq -c '.next_hops[0]' <<<"$j")
[ "$(jq -r '.mac + " " + .protocol' <<<"$nh")" = "$DUTMAC ND" ] || fail "ND: $nh, the DUT's port is $DUTMAC"
[ "$(jq -r .port_type <<<"$j")" = "$AUTO" ] || fail "auto took $(jq -r '.port_type + ": " + .path_reason' <<<"$j")"
d=$(jq -c '.directions[0]' <<<"$j")
[ "$(jq -r '.tx == 5000 and .rx == 5000' <<<"$d")" = true ] || fail "v6 forwarding: $d"
[ "$(ip -n "$T" -j link show A | jq -r '.[0].xdp // empty')" = "" ] || fail "XDP left on A after the trial"
[ -z "$(ip -n "$T" neigh show)" ] || fail "neighbour entries on the tester after ND: $(ip -n "$T" neigh show)"

# --- both directions: --rx-next-hop on B from --dst-ip ---
ip -n "$U" neigh replace 198.18.0.1 lladdr "$(ip -n "$T" -j link show A | jq -r '.[0].address')" dev dA \
	nud permanent || fail "neigh back"
j=$(tr --bidir --next-hop 198.18.0.2 --rx-next-hop 198.19.0.1 --src-ip 198.18.0.1 --dst-ip 198.19.0.2 \
	--port-type afpacket) || fail "bidir: $j"
[ "$(jq -r '.next_hops[1].mac' <<<"$j")" = "$(ip -n "$U" -j link show dB | jq -r '.[0].address')" ] ||
	fail "rx next hop: $(jq -c .next_hops <<<"$j")"
[ "$(jq -r '[.directions[] | .rx == 5000] | all' <<<"$j")" = true ] || fail "bidir: $(jq -c .directions <<<"$j")"

# --- nobody answers: exit 1, one line naming the address and the port,
# within the bounded wait (3 tries 1 s apart; 10 s leaves room for a
# loaded host) ---
start=$(date +%s%N)
expect_exit 1 tr --next-hop 198.18.0.9 --src-ip 198.18.0.1 --dst-ip 198.19.0.2
ms=$(( ($(date +%s%N) - start) / 1000000 ))
[ "$ms" -lt 10000 ] || fail "an unanswered next hop took $ms ms"
tr --next-hop 198.18.0.9 --src-ip 198.18.0.1 --dst-ip 198.19.0.2 2>&1 >/dev/null |
	grep -q "198.18.0.9: no answer on A@$T" || fail "the error names neither address nor port"
expect_exit 1 tr --next-hop 2001:2:0:1::9 --src-ip 2001:2:0:1::1 --dst-ip 2001:2:0:2::2

# --- bad input: exit 2 ---
expect_exit 2 tr --next-hop dut --src-ip 198.18.0.1
expect_exit 2 tr --next-hop 198.18.0.2 --dst-mac "$DUTMAC" --src-ip 198.18.0.1
expect_exit 2 "$WR" trial --rate 1kpps --next-hop 198.18.0.2
expect_exit 2 "$WR" trial --rate 1kpps --bidir --rx-next-hop 198.19.0.1
expect_exit 2 tr --next-hop 198.18.0.2
expect_exit 2 tr --next-hop 2001:2:0:1::2 --src-ip 198.18.0.1
expect_exit 2 tr --next-hop 10.0.0.1 --src-ip 198.18.0.1
expect_exit 2 tr --rx-next-hop 198.19.0.1 --next-hop 198.18.0.2 --src-ip 198.18.0.1 --dst-ip 198.19.0.2
expect_exit 2 "$WR" rfc2544 --quick --next-hop 198.18.0.2
expect_exit 2 "$WR" calibrate --tx "A@$T" --rx "B@$T" --next-hop 198.18.0.2 --src-ip 198.18.0.1
echo ok
