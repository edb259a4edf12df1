# guest_paths on Debian's 6.12 cloud kernel (the next release after 6.1,
# Debian 13's): the same checks of the XDP, AF_XDP and AF_PACKET paths
# with the tester inside the guest.
export WR_GUEST_KERNEL=${WR_VM_KERNEL2:-6.12.*-cloud-amd64}
. "$(dirname "$0")/guest_paths.sh"
