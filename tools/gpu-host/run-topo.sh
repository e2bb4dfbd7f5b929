#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Compare roce-doctor's PCIe view (topo, check --only gpu) with what the GPU machine itself says.
# usage: run-topo.sh [DIR]   DIR holds the carried roce-doctor binary and its lib/ (default: this script's dir)
# Prints every command before its output and its exit status after; changes nothing on the machine.
set -u
DIR=${1:-$(cd "$(dirname "$0")" && pwd)}
RD="$DIR/roce-doctor"
export LD_LIBRARY_PATH="$DIR/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
show() { printf '\n=== %s\n' "$*"; "$@" 2>&1; printf -- '--- rc=%s\n' "$?"; }

show uname -r
show ldd "$RD"                                   # every library resolves from $DIR/lib or the system
show "$RD" --version
show "$RD" topo                                  # the matrix, NUMA, CPUs, nearest NIC, link, ACS lines
show "$RD" --json topo
show "$RD" check --only gpu -v                   # gpu.peermem, gpu.pcie_link (and rails/acs/distance with NICs)
show nvidia-smi topo -m                          # compare: GPU rows, NUMA/CPU affinity, NIC columns if any
show nvidia-smi --query-gpu=index,pci.bus_id,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max --format=csv
# what roce-doctor read, raw: the GPUs' sysfs paths and attributes, and how much of each config is readable
for d in /sys/bus/pci/devices/*; do
	[ "$(cat "$d/vendor" 2>/dev/null)" = 0x10de ] || continue
	case $(cat "$d/class" 2>/dev/null) in 0x0300*|0x0302*) ;; *) continue ;; esac
	printf '\n=== %s\n' "$d"
	printf 'realpath %s\n' "$(readlink -f "$d")"
	for a in numa_node local_cpulist current_link_speed current_link_width max_link_speed max_link_width; do
		printf '%s %s\n' "$a" "$(cat "$d/$a" 2>&1)"
	done
	printf 'config bytes readable: %s\n' "$(wc -c < "$d/config" 2>&1)"
done
show ls /sys/class/infiniband
show grep -E '^(nvidia|nvidia_peermem|nv_peer_mem) ' /proc/modules
