# Shared by the VM lab tests (lab up --kernel): what they need of the
# host, the kernel they boot, and the checks that a VM lab left nothing.
# Source it after lib.sh.
"$WR" probe --require tun,qemu >/dev/null 2>&1 || skip "$("$WR" probe --require tun,qemu 2>&1)"
command -v busybox >/dev/null || fail "no busybox (scripts/deps.sh installs busybox-static)"
# The newest 6.1 cloud kernel Debian has: fetched with apt-get into the
# cache the first time, as 'lab up --kernel' does for a user.
K61=${WR_VM_KERNEL:-6.1.0-*-cloud-amd64}
# The kernels the contrasts set against it: the next release, and 6.1's
# PREEMPT_RT build.
# shellcheck disable=SC2034
K612=${WR_VM_KERNEL2:-6.12.*-cloud-amd64}
# shellcheck disable=SC2034
KRT=${WR_VM_KERNEL_RT:-6.1.0-*-rt-amd64}

# No QEMU of this test's labs, no tap, no namespace, no VM directory.
vm_nothing_left() {
	local p=$1 q
	q=$(pgrep -f -- "-name wirerate-lab-$p( |$)" || true)
	[ -z "$q" ] || fail "QEMU of lab $p left running: pid $q"
	[ ! -e "/run/wirerate/vm-$p" ] || fail "/run/wirerate/vm-$p left behind: $(ls "/run/wirerate/vm-$p")"
	no_namespaces_left "$p"
}

vm_cleanup() {
	for p in "${LABS[@]}"; do
		"$WR" lab down --prefix "$p" >/dev/null 2>&1
		pkill -KILL -f -- "-name wirerate-lab-$p( |$)" 2>/dev/null
	done
}
trap vm_cleanup EXIT
