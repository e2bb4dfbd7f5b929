# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash disable=SC2034  # sourced: the variables are used by the scripts that source it
# Host-side settings and small helpers shared by roce-vm, run-cases and meson-vm-test.

# The cache holds the unpacked kernel and the initramfs. It may be anywhere, /tmp included: a path the
# guest's own tmpfs mounts would hide is shared into the guest explicitly (guest_exports).
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

# Nodes are named a, b, c, ... (rank 0, 1, 2, ...): two are cabled back to back, more hang off one switch
# (lib/switch.py). VM_NODES is a property of the boot, as VM_RAILS is.
VM_NODES=${VM_NODES:-2}
VM_MAX_NODES=8
node_names() { local n=${1:-$VM_NODES} names=(a b c d e f g h); echo "${names[@]:0:$n}"; }   # N -> "a b c ..."
node_index() { local letters=abcdefgh; local p=${letters%%"$1"*}; echo "${#p}"; }           # c -> 2
# The boot timeout for this boot's nodes: ROCE_VM_BOOT_TIMEOUT is for a pair; N nodes share the same cores,
# so each boots about N/2 times slower.
boot_timeout() { echo $((ROCE_VM_BOOT_TIMEOUT * (VM_NODES > 2 ? VM_NODES : 2) / 2)); }

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

# guest_exports PATH...: the directories the guest needs (the checkout, the build directory, the cache,
# the caller's directory) that its tmpfs mounts would hide, one per line, each at most once and none
# inside another. The host's root reaches the guest whole over 9p, but the guest mounts fresh tmpfs over
# /tmp, /run and /var/tmp (its own scratch space, and no host sockets or locks leaking in), so a checkout
# cloned under /tmp would be invisible there: boot.sh shares each of these as one more read-only 9p export
# and stage2.sh mounts it at the same path, over the tmpfs. A whole tmpfs directory (/tmp itself) is refused:
# mounting it would hide the guest's scratch space and its share at /tmp/roce-vm.
guest_exports() {
	local p d q keep out=()
	for p in "$@"; do
		[ -n "$p" ] || continue
		p=$(realpath -m "$p")
		hidden_in_guest "$p" || continue
		for d in $GUEST_TMPFS_DIRS; do
			[ "$p" != "$d" ] || die "$p cannot be shared into the VM: it is the guest's own $d; use a directory below it"
		done
		case $p/ in "$GUEST_SHARE"/*) die "$p cannot be shared into the VM: the guest mounts its node share at $GUEST_SHARE" ;; esac
		out+=("$p")
	done
	for p in "${out[@]}"; do
		keep=1
		for q in "${out[@]}"; do
			[ "$q" != "$p" ] || continue
			case $p/ in "$q"/*) keep="" ;; esac   # inside another export: already visible
		done
		[ -z "$keep" ] || echo "$p"
	done | awk '!seen[$0]++'
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
