# wirerate pair on a selftests pair (lib_pair.sh) whose peer is reached
# over ssh (REMOTE_TYPE=ssh): a throwaway sshd in the peer on a management
# link (198.18.255.0/29) from this host's namespace. The send, receive,
# one-port forwarding and XDP reflector tests end to end, the KTAP and
# the KCIDB document checked as in pair.sh; this host's end soaked
# (--soak, after a calibration of its own), so its CPU figures come from
# the soak and /proc/stat's are left out.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/lib_pair.sh"

# The same pair with the peer over ssh: sshd in the peer on a management
# link (198.18.255.0/29) from this host's namespace.
ssh_dut_up "$R" "$H"
sed -e 's/^REMOTE_TYPE=.*/REMOTE_TYPE=ssh/' -e "s/^REMOTE_ARGS=.*/REMOTE_ARGS=root@$MGMT_DUT/" "$T/net.config" \
	>"$T/ssh.config"
SSHP=(--ssh-option "IdentityFile=$SSHD_DIR/id" --ssh-option "UserKnownHostsFile=$SSHD_DIR/known_hosts"
      --ssh-option StrictHostKeyChecking=yes --ssh-option "Port=$MGMT_PORT" --remote-wirerate "$WR")
# The soak's calibration, loose: this test checks that the CPU figures
# come from the soak, not how close they are (cpu_soak does); under ASan
# on a busy CI host five 1 s readings within 1% did not settle in 60 s,
# readings of 0.5 s within 10% do. A calibration the host then drifts
# from marks the figures "cannot tell", which check_run counts.
export WIRERATE_STATE_DIR="$T/state"
"$WR" soak --calibrate --interval 500ms --settle 3 --tolerance 10 --timeout 30s >/dev/null || fail "soak --calibrate"
inhost "$WR" pair --soak --topology "$T/ssh.config" "${SSHP[@]}" "${PAIR_LOSS[@]}" "${PAIR_SEARCH[@]}" --duration 1s --ktap --kcidb "$T/ssh.json" \
	--origin wirerate_test >"$T/ssh.ktap" 2>"$T/ssh.err"; rc=$?
cat "$T/ssh.err"
[ "$rc" = 0 ] || fail "pair over ssh exited $rc"
check_run "$T/ssh.ktap" "$T/ssh.json" "ssh pair"
for t in send receive; do
	grep -q "wirerate.pair.$t.cpu_per_datagram: [0-9.]* ns; this host's CPU time per datagram [a-z]*, from the soak" \
		"$T/ssh.ktap" || fail "$t: no CPU figure from the soak"
done
grep -q '(/proc/stat)' "$T/ssh.ktap" && fail "/proc/stat's CPU figures beside the soak's"
grep -q 'REMOTE_TYPE=ssh' "$T/ssh.ktap" || fail "the KTAP header does not name the ssh pair"

echo ok
