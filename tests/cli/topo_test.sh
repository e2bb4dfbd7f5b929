#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# roce-doctor topo on the GPU fixtures (issue 13, GPUs and rails): the GPU x NIC matrix, rails, twins, front-end
# NICs, ACS and link width, the real flat H100 VM, hosts without GPUs or NICs, cut config files, bad input.
# usage: topo_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }

D="$FIX/dgx-h100"
# ---- the DGX H100-like host: each GPU PIX to its own NIC, PXB to its neighbour's, NODE/SYS beyond ----
expect "dgx-h100: GPU2's row as nvidia-smi prints it" 0 \
	'^GPU2 +NODE +NODE +PIX +PXB +SYS +SYS +SYS +SYS +NODE +SYS +0 +0-55,112-167 +32\.0 GT/s x16 +mlx5_2 \(PIX\)$' -- --root "$D" topo
[ ! -s "$err" ]; result "dgx-h100: no warning (every bridge config is whole)" $?
grep -qE '^GPU7 +SYS +SYS +SYS +SYS +NODE +NODE +PXB +PIX +SYS +NODE +1 ' "$out"; result "dgx-h100: GPU7 on NUMA 1" $?
grep -qE '^mlx5_8 +0000:04:00\.0 +0 +32\.0 GT/s x16 +front-end \(no GPU.s nearest\)$' "$out"
result "dgx-h100: mlx5_8 is a front-end NIC" $?
grep -qE '^mlx5_5 +0000:a1:00\.0 +1 +32\.0 GT/s x8 of 32\.0 GT/s x16 \(below capability\) +rail of GPU5$' "$out"
result "dgx-h100: mlx5_5 trains at x8 of x16" $?
grep -qxF 'GPU2: ACS on bridge 0000:3b:00.0 redirects peer-to-peer traffic to its nearest NIC through the root complex; fix: setpci -s 0000:3b:00.0 ECAP_ACS+0x6.w=0000 (until reboot), or boot with pci=disable_acs_redir=0000:3b:00.0' "$out"
result "dgx-h100: ACS on GPU2's switch port, with the setpci fix and the boot parameter" $?
[ "$(grep -c 'ACS on bridge' "$out")" -eq 1 ]; result "dgx-h100: no other GPU's path has ACS redirection" $?

run --root "$D" --json topo
json_ok roce-doctor/topo/v1; result "dgx-h100 --json: one topo/v1 document" $?
py 'd["gpus"][2]["relations"][2] == {"device": "mlx5_2", "relation": "PIX"} and d["gpus"][2]["relations"][3]["relation"] == "PXB" and d["gpus"][2]["nearest"] == ["mlx5_2"] and d["gpus"][2]["acs_redirect"] == ["0000:3b:00.0"] and d["gpus"][0]["acs_redirect"] == []'
result "dgx-h100 --json: relations, nearest and ACS of GPU2" $?
py '[n["device"] for n in d["nics"] if not n["rail"]] == ["mlx5_8", "mlx5_9"] and all(n["twin"] is None for n in d["nics"])'
result "dgx-h100 --json: two front-end NICs, no twins" $?
py '[b["pci_address"] for b in d["bridges"] if b["acs"] == "redirect"] == ["0000:3b:00.0"] and [b for b in d["bridges"] if b["pci_address"] == "0000:3b:00.0"][0]["acs_ctrl"] == 0x1d'
result "dgx-h100 --json: the one redirecting bridge and its control register" $?
py '[n["link"]["degraded"] for n in d["nics"]].count(True) == 1 and d["nics"][5]["link"]["current_width"] == 8'
result "dgx-h100 --json: one NIC link degraded" $?

# ---- GB10-like: one port presented as two PCI functions ----
expect "gb10-twin: the GPU's nearest are all four functions, NODE" 0 \
	'^GPU0 +NODE +NODE +NODE +NODE +0 +0-19 +32\.0 GT/s x16 +roceP2p1s0f0,roceP2p1s0f1,rocep1s0f0,rocep1s0f1 \(NODE\)$' -- --root "$FIX/gb10-twin" topo
grep -qE '^rocep1s0f0 +0000:01:00\.0 +0 +32\.0 GT/s x4 +rail of GPU0, twin of roceP2p1s0f0$' "$out" &&
	grep -qE '^roceP2p1s0f1 +0002:01:00\.1 .*twin of rocep1s0f1$' "$out"
result "gb10-twin: each port's two functions are twins" $?

# ---- the real H100 VM: flat, no NIC; numa_node -1 with one node online (node0) is node 0, as nvidia-smi says ----
expect "h100-vm: GPU0 on the root bus, no NIC, NUMA 0 (the one node), its PCIe link" 0 \
	'^GPU0 +0 +0-15 +32\.0 GT/s x16 +-$' -- --root "$FIX/h100-vm" topo
grep -qE '^ +NUMA +CPU_AFFINITY +LINK +NEAREST_NIC$' "$out"; result "h100-vm: the matrix has a LINK column" $?
grep -qx 'no RDMA NICs' "$out" && [ ! -s "$err" ]; result "h100-vm: says there is no RDMA NIC, no warning" $?
run --root "$FIX/h100-vm" --json topo
py 'd["gpus"][0]["pci_address"] == "0000:00:06.0" and d["gpus"][0]["bridges"] == [] and d["gpus"][0]["host_bridge"] == "pci0000:00" and d["gpus"][0]["numa_node"] == 0 and d["gpus"][0]["nearest"] == [] and d["gpus"][0]["nearest_relation"] is None and d["nics"] == []'
result "h100-vm --json: flat, numa_node 0, nothing nearest" $?
# two nodes online: -1 stays unknown (which of the two is not said anywhere)
cp -a "$FIX/h100-vm" "$scratch/vm2"
mkdir "$scratch/vm2/sys/devices/system/node/node1"
expect "h100-vm with two NUMA nodes: numa_node -1 stays -" 0 '^GPU0 +- +0-15 +32\.0 GT/s x16 +-$' -- --root "$scratch/vm2" topo
# a GPU trained below its capability: the matrix flags it, and the line below says so
cp -a "$FIX/h100-vm" "$scratch/vm8"
G="$scratch/vm8/sys/devices/pci0000:00/0000:00:06.0"
chmod u+w "$G/current_link_width" "$G/current_link_speed"
echo 8 >"$G/current_link_width"
echo '16.0 GT/s PCIe' >"$G/current_link_speed"
expect "h100-vm at x8: the matrix shows the link below its capability" 0 \
	'^GPU0 +0 +0-15 +16\.0 GT/s x8 of 32\.0 GT/s x16 \(below capability\) +-$' -- --root "$scratch/vm8" topo

# ---- hosts without GPUs or without anything ----
expect "eight-hca: no GPUs, NICs listed" 0 '^no NVIDIA GPUs$' -- --root "$FIX/eight-hca" topo
grep -qE '^mlx5_9 +0000:' "$out" && [ ! -s "$err" ]; result "eight-hca: every NIC, no warning about bridges nobody needs" $?
expect "no-rdma: nothing to place" 0 '^no NVIDIA GPUs and no RDMA NICs on PCI$' -- --root "$FIX/no-rdma" topo
expect "softroce: rxe has no PCI function" 0 '^no NVIDIA GPUs and no RDMA NICs on PCI$' -- --root "$FIX/softroce" topo

# ---- a copied tree with a cut and an unreadable bridge config: unknown, a warning naming the file ----
cp -a "$D" "$scratch/dgx"
B="$scratch/dgx/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0"
head -c 256 "$B/config" > "$scratch/cut" && cat "$scratch/cut" > "$B/config"
B2="$scratch/dgx/sys/devices/pci0000:37/0000:37:01.0/0000:38:00.0/0000:39:01.0/0000:3e:00.0"
rm "$B2/config" && mkdir "$B2/config"
run --root "$scratch/dgx" topo
[ "$rc" -eq 0 ] && grep -qF "0000:18:00.0/config is 256 bytes, not 4096" "$err" &&
	grep -qF "cannot read $B2/config: Is a directory; ACS on bridge 0000:3e:00.0 unknown" "$err"
result "cut and unreadable config: a warning naming each file, exit 0" $?
grep -qxF 'GPU0: ACS on bridge 0000:18:00.0 unknown (its config space could not be read in full)' "$out" &&
	grep -qE '^GPU0 +PIX ' "$out"
result "cut config: GPU0's ACS unknown, its relations unchanged" $?
run --root "$scratch/dgx" --json topo
py 'd["gpus"][0]["acs_unknown"] == ["0000:18:00.0"] and len(d["warnings"]) == 2'
result "cut config --json: acs_unknown and the warnings in the document" $?

# ---- nccl-env on a GPU node: the rails, and the front-end NICs left out with why ----
expect "dgx-h100 nccl-env: NCCL_IB_HCA holds the eight rails only" 0 \
	"^export NCCL_IB_HCA='mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1'" -- --root "$D" nccl-env
grep -qF "left out mlx5_8/1 (enp4s0np0): front-end: no GPU's nearest NIC (the rails are mlx5_0,mlx5_1,mlx5_2,mlx5_3,mlx5_4,mlx5_5,mlx5_6,mlx5_7; roce-doctor topo), and slower than them: 200 Gb/s against 400" "$err" &&
	grep -qF "left out mlx5_9/1 (enp132s0np0): front-end" "$err" && ! grep -q 'differ in speed' "$err"
result "dgx-h100 nccl-env: mlx5_8 and mlx5_9 left out as slower front-end NICs, no speed warning left" $?
run --root "$D" nccl-env --format json
py '[l["device"] for l in d["left_out"]] == ["mlx5_8", "mlx5_9"] and "front-end" in d["left_out"][0]["reason"]'
result "dgx-h100 nccl-env --format json: left_out names them" $?
# the same front-end NICs at the rails' speed on the rails' NUMA nodes stay: nothing to gain by leaving them out
cp -a "$D" "$scratch/fast"
for nic in mlx5_8 mlx5_9; do
	echo '400 Gb/sec (4X NDR)' > "$scratch/fast/sys/class/infiniband/$nic/ports/1/rate"
done
expect "front-end NICs as fast as the rails on their NUMA nodes stay in NCCL_IB_HCA" 0 \
	"^export NCCL_IB_HCA='mlx5_0:1,.*,mlx5_8:1,mlx5_9:1'" -- --root "$scratch/fast" nccl-env
! grep -q 'left out' "$err"; result "  ... and nothing is left out" $?
expect "gb10-twin nccl-env: both functions of both ports" 0 \
	"^export NCCL_IB_HCA='roceP2p1s0f0:1,roceP2p1s0f1:1,rocep1s0f0:1,rocep1s0f1:1'" -- --root "$FIX/gb10-twin" nccl-env
run --root "$D" snapshot
cp "$out" "$scratch/dgx.json"
run --root "$D" nccl-env; cp "$out" "$scratch/root.out"; cp "$err" "$scratch/root.err"
run --from - nccl-env < "$scratch/dgx.json"
cmp -s "$out" "$scratch/root.out" && cmp -s "$err" "$scratch/root.err"
result "dgx-h100 nccl-env --from - (stdin) answers as --root: the snapshot records the placement" $?

# ---- check on the GPU hosts ----
run --root "$D" check
[ "$rc" -eq 1 ] && grep -qE '^  WARN  gpu\.acs +0000:3b:00\.0: ' "$out" && grep -qE '^  WARN  gpu\.pcie_link +0000:a1:00\.0: mlx5_5' "$out"
result "dgx-h100 check: gpu.acs and gpu.pcie_link warn, exit 1" $?
grep -qF 'fix: setpci -s 0000:3b:00.0 ECAP_ACS+0x6.w=0000   # until reboot' "$out"; result "dgx-h100 check: the setpci fix" $?
printf 'NCCL_IB_HCA=mlx5\0' > "$scratch/environ"
mkdir -p "$scratch/fast/proc/self" && cp "$scratch/environ" "$scratch/fast/proc/self/environ"
run --root "$scratch/fast" check --only gpu.rails
[ "$rc" -eq 1 ] && grep -qE '^  WARN  gpu\.rails +mlx5_8: NCCL_IB_HCA=mlx5 \(/proc/self/environ\) includes mlx5_8' "$out" &&
	grep -qF "fix: export NCCL_IB_HCA==mlx5_0:1,mlx5_1:1,mlx5_2:1,mlx5_3:1,mlx5_4:1,mlx5_5:1,mlx5_6:1,mlx5_7:1" "$out"
result "check gpu.rails: NCCL_IB_HCA=mlx5 includes the front-end NICs, the fix names the rails" $?
run --root "$FIX/check-seed000" check --only gpu.nic_distance
[ "$rc" -eq 1 ] && grep -qE '^  WARN  gpu\.nic_distance +0000:b1:00\.0: GPU1 \(NUMA 1\) has no RDMA NIC closer than SYS' "$out" &&
	grep -qF 'numactl --cpunodebind=0 --membind=0' "$out"
result "check seed000: GPU1 has no NIC closer than SYS" $?

# ---- bad input ----
bad "topo takes no argument" 64 "unexpected argument 'mlx5_0'" -- --root "$D" topo mlx5_0
bad "topo: unknown option" 64 "unrecognized option '--bogus'" -- topo --bogus
bad "topo: a root that does not exist" 3 "cannot open root directory $scratch/nope" -- --root "$scratch/nope" topo
# --from: the snapshot's PCI placement (what check --from's gpu.* findings use) gives topo's document byte for byte
for f in dgx-h100 h100-vm gb10-twin eight-hca; do
	"$BIN" --root "$FIX/$f" snapshot --output "$scratch/$f.snap.json" 2>/dev/null
	"$BIN" --root "$FIX/$f" --json topo > "$scratch/$f.root.json" 2>/dev/null
	run --from "$scratch/$f.snap.json" --json topo
	[ "$rc" -eq 0 ] && cmp -s "$out" "$scratch/$f.root.json"
	result "topo --from a snapshot of $f: the same document as --root" $?
done
bad "topo --from a file that is no snapshot: one line, exit 3" 3 "snapshot" -- --from "$scratch/none.json" topo
expect "topo --help names the relations" 0 'PIX, PXB, PHB, NODE, SYS' -- topo --help

tap_end
