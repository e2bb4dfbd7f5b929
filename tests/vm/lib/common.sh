# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the scripts that source it
# Host-side settings and small helpers shared by roce-vm, run-cases and meson-vm-test.

# The cache holds the unpacked kernel and the initramfs. It must not be under /tmp, /run or /var/tmp:
# inside the VM those are fresh tmpfs mounts over the host's (read-only) root, so the guest could not
# load modules from a cache there.
ROCE_VM_CACHE=${ROCE_VM_CACHE:-/var/cache/roce-doctor-vm}
ROCE_VM_MEM=${ROCE_VM_MEM:-768}             # MiB per VM
ROCE_VM_BOOT_TIMEOUT=${ROCE_VM_BOOT_TIMEOUT:-120}   # s from qemu start until the guest says it is up
VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)   # tests/vm
VM_REPO=$(cd "$VM_DIR/../.." && pwd)

# Paths inside the guest: the share is mounted over the guest's tmpfs /tmp.
GUEST_SHARE=/tmp/roce-vm
GUEST_TMPFS_DIRS="/tmp /run /var/tmp"

# Debian packages the harness needs on the host (and therefore inside the guest, which runs the host's root).
VM_PACKAGES=(qemu-system-x86 busybox-static kmod cpio rdma-core ibverbs-providers ibverbs-utils perftest
	iproute2 nftables python3)

log() { echo "roce-vm: $*" >&2; }
die() { log "$*"; exit 125; }

# The kernel version unpacked in the cache, or nothing.
kver() {
	local f
	for f in "$ROCE_VM_CACHE"/kern/boot/vmlinuz-*; do
		[ -e "$f" ] && { echo "${f##*/vmlinuz-}"; return; }
	done
}

# The kernel to boot: the unpacked vmlinux when setup made one, else Debian's bzImage.
kernel_image() {
	local v; v=$(kver)
	if [ -s "$ROCE_VM_CACHE/vmlinux-$v" ]; then echo "$ROCE_VM_CACHE/vmlinux-$v"; else echo "$ROCE_VM_CACHE/kern/boot/vmlinuz-$v"; fi
}

is_set_up() { [ -n "$(kver)" ] && [ -s "$ROCE_VM_CACHE/initrd.gz" ]; }
need_setup() { is_set_up || die "the VM cache $ROCE_VM_CACHE is not set up: run '$VM_DIR/roce-vm setup' first"; }

# True when PATH would be hidden inside the guest (under one of its tmpfs mounts).
hidden_in_guest() {
	local p d
	p=$(realpath -m "$1")
	for d in $GUEST_TMPFS_DIRS; do
		case $p/ in "$d"/*) return 0 ;; esac
	done
	return 1
}

# A UDP port on 127.0.0.1 nobody is bound to (node A alone: its NIC's socket). Random rather than bind-to-0,
# so no python is needed; the tiny race with another process is harmless (qemu then fails to start and the
# run says so).
free_udp_port() {
	local p i
	for i in $(seq 1 50); do
		p=$((20000 + RANDOM % 40000))
		ss -Hnul "sport = :$p" 2>/dev/null | grep -q . || { echo "$p"; return; }
	done
	die "no free UDP port on 127.0.0.1"
}

# Time in milliseconds from bash's own clock: the run-cases poll loop reads it several times a tick and must
# not fork for it (two TCG guests already use both cores).
now_ms() { echo $((${EPOCHREALTIME/./} / 1000)); }
ms_to_s() { printf '%d.%d' $(($1 / 1000)) $((($1 % 1000) / 100)); }   # 12345 -> 12.3
elapsed() { ms_to_s $(($(now_ms) - $1)); }                         # seconds since a now_ms value
