# A DUT reached over SSH, made of the lab's DUT namespace: a management
# link from this namespace (198.18.255.1/29 here, .2 in the DUT, .3 nobody) and a
# throwaway sshd from Debian's openssh-server on it, with a host key and an
# authorized key made for the test in a temporary directory. Source it
# after lib.sh and `lab up --prefix $P`; ssh_dut_up sets DUT (the --dut
# value), SSHOPT (the --ssh-option words) and SSHD_DIR. Removed on exit.
SSHD=/usr/sbin/sshd
[ -x "$SSHD" ] || fail "no $SSHD (openssh-server)"
command -v ssh >/dev/null || fail "no ssh (openssh-client)"
MGMT_HOST=198.18.255.1 MGMT_DUT=198.18.255.2 MGMT_PORT=2222
ML="m$$"		# this side of the management link; the DUT's is ${ML}d

# The lab shaped to 20 kpps with its DUT behind sshd, used as cabled
# ports: sets DUT, SSHOPT, CAB (the trial options of that tester: --tx,
# --rx, --dst-mac, addresses, --dut and its ports) and db (a temporary
# directory), all removed on exit. A shaped DUT has a capacity the host's
# noise does not move, so two measurements of it can be compared (an
# unshaped DUT's NDR on this VM is set by sporadic stalls, not by it).
ssh_dut_cabled() {
	"$WR" probe --require tbf >/dev/null 2>&1 || skip "no tbf"
	"$WR" lab up --prefix "$P" --shape 20kpps >/dev/null || fail "lab up"
	trap 'ssh_dut_down; cleanup' EXIT
	ssh_dut_up
	note "DUT over ssh: $DUT"
	local dmac
	dmac=$(ip -n "${P}dut" -o link show dut0 | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
	CAB=(--tx "gen0@${P}gen" --rx "sink0@${P}sink" --dst-mac "$dmac" --src-ip 198.18.0.1 --dst-ip 198.19.0.2
	     --dut "$DUT" "${SSHOPT[@]}" --dut-ports dut0,dut1)
	db=$(mktemp -d /tmp/wr-dutssh.XXXXXX)
	trap 'rm -rf "$db"; ssh_dut_down; cleanup' EXIT
}

ssh_dut_down() {
	[ -n "${SSHD_DIR:-}" ] || return 0
	[ -f "$SSHD_DIR/sshd.pid" ] && kill "$(cat "$SSHD_DIR/sshd.pid")" 2>/dev/null
	ip link del "$ML" 2>/dev/null	# here; in another namespace it goes with it
	rm -rf "$SSHD_DIR"
	SSHD_DIR=
}

# ssh_dut_up [NS [HOSTNS]]: sshd in the namespace NS (default the lab's
# DUT, ${P}dut), its management link's other end here or in HOSTNS.
ssh_dut_up() {
	local dutns="${1:-${P}dut}" hostns="${2:-}" i
	local here=()
	SSHD_DIR=$(mktemp -d /tmp/wr-sshd.XXXXXX)
	ip link add "$ML" type veth peer name "${ML}d" || fail "management veth"
	ip link set "${ML}d" netns "$dutns" || fail "management veth into $dutns"
	if [ -n "$hostns" ]; then
		ip link set "$ML" netns "$hostns" || fail "management veth into $hostns"
		here=(ip netns exec "$hostns")
	fi
	"${here[@]}" ip addr add "$MGMT_HOST/29" dev "$ML" && "${here[@]}" ip link set "$ML" up ||
		fail "management address"
	ip -n "$dutns" addr add "$MGMT_DUT/29" dev "${ML}d" && ip -n "$dutns" link set "${ML}d" up ||
		fail "management address in the DUT"
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/host" >/dev/null || fail "host key"
	ssh-keygen -q -t ed25519 -N '' -f "$SSHD_DIR/id" >/dev/null || fail "client key"
	cp "$SSHD_DIR/id.pub" "$SSHD_DIR/authorized_keys"
	printf '[%s]:%s %s\n' "$MGMT_DUT" "$MGMT_PORT" "$(cut -d' ' -f1,2 "$SSHD_DIR/host.pub")" >"$SSHD_DIR/known_hosts"
	cat >"$SSHD_DIR/sshd_config" <<-CONF
		ListenAddress $MGMT_DUT:$MGMT_PORT
		HostKey $SSHD_DIR/host
		PidFile $SSHD_DIR/sshd.pid
		AuthorizedKeysFile $SSHD_DIR/authorized_keys
		PermitRootLogin prohibit-password
		StrictModes no
		UsePAM no
		PasswordAuthentication no
		KbdInteractiveAuthentication no
		PrintMotd no
		PrintLastLog no
	CONF
	mkdir -p /run/sshd	# its privilege separation directory
	ip netns exec "$dutns" "$SSHD" -f "$SSHD_DIR/sshd_config" -E "$SSHD_DIR/sshd.log" ||
		fail "sshd did not start: $(cat "$SSHD_DIR/sshd.log" 2>/dev/null)"
	SSHOPT=(--ssh-option "IdentityFile=$SSHD_DIR/id" --ssh-option "UserKnownHostsFile=$SSHD_DIR/known_hosts"
		--ssh-option StrictHostKeyChecking=yes --ssh-option ConnectTimeout=5 --dut-agent "$WR")
	DUT="ssh:root@$MGMT_DUT:$MGMT_PORT"
	# sshd daemonizes once it listens; the first connection may still
	# race it: up to 5 s (50 x 0.1 s).
	for i in $(seq 50); do
		"${here[@]}" ssh -o BatchMode=yes -o IdentityFile="$SSHD_DIR/id" -o UserKnownHostsFile="$SSHD_DIR/known_hosts" \
			-p "$MGMT_PORT" "root@$MGMT_DUT" true 2>/dev/null && return 0
		sleep 0.1
	done
	fail "ssh to the DUT does not work: $(tail -3 "$SSHD_DIR/sshd.log")"
}
