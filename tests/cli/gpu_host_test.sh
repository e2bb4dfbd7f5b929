#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# What a real GPU host without RDMA showed (issue 28, "On a real GPU host"; tests/fixtures/README.md, h100-vm):
# a net plugin named but absent, NCCL settings judged with no RDMA device, names NCCL does not read, and a VM
# whose root came from a docker image. The job's environment is the survey's, written into copies of the trees.
# usage: gpu_host_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
py() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$out"; }
# with_env TREE VAR=VALUE...: a copy of TREE whose captured job environment (proc/self/environ) is the arguments
with_env() {
	local tree=$1 copy
	shift
	copy="$scratch/$(basename "$tree")-$((++copies))"
	cp -a "$tree" "$copy"
	mkdir -p "$copy/proc/self"
	printf '%s\0' "$@" >"$copy/proc/self/environ"
	echo "$copy"
}
copies=0
# the survey's variables: NVIDIA's image sets NCCL_VERSION (a label), the job the rest
VM=$(with_env "$FIX/h100-vm" HOME=/root NCCL_IB_HCA=mlx5_0 NCCL_SOCKET_IFNAME=eth0 NCCL_NET_PLUGIN=aws-ofi \
	NCCL_VERSION=2.28.3-1 NCCL_NVLS_ENABLE=0)

# ---- NCCL_NET_PLUGIN names a plugin that is not on the node ----
expect "plugin absent: check warns nccl.net_plugin, NCCL's two names" 1 \
	'WARN  nccl\.net_plugin +NCCL_NET_PLUGIN \(/proc/self/environ\): NCCL_NET_PLUGIN=aws-ofi: the plugin aws-ofi is not on this node \(NCCL tries aws-ofi libnccl-net-aws-ofi\.so' \
	-- --root "$VM" check --only nccl.net_plugin
grep -qF 'fix: unset NCCL_NET_PLUGIN   # in the job'"'"'s launcher or shell; or install libnccl-net-aws-ofi.so where the loader finds it' "$out"
result "plugin absent: the fix unsets it in the launcher, or installs libnccl-net-aws-ofi.so" $?
run --root "$VM" nccl
grep -qF '(NCCL_NET_PLUGIN=aws-ofi; NCCL_DEBUG=INFO' "$out" && ! grep -q 'NCCL_NET_PLUGIN =' "$out"
result "nccl: NCCL_NET_PLUGIN=aws-ofi written without a stray space" $?
grep -qE '^warn  nccl\.net_plugin  NCCL_NET_PLUGIN=aws-ofi: the plugin aws-ofi is not on this node' "$out"
result "nccl: says the plugin named is not on the node" $?
# a plugin of that name beside an NCCL (nccl-libs' conda env): found, ok
P=$(with_env "$FIX/nccl-libs" HOME=/root NCCL_NET_PLUGIN=aws-ofi)
cp "$P/opt/conda/envs/train/lib/libnccl-net.so" "$P/opt/conda/envs/train/lib/libnccl-net-aws-ofi.so"
expect "plugin present as libnccl-net-aws-ofi.so: ok, its path" 0 \
	'OK    nccl\.net_plugin +.*NCCL_NET_PLUGIN=aws-ofi: found /opt/conda/envs/train/lib/libnccl-net-aws-ofi\.so' \
	-- --root "$P" check -v --only nccl.net_plugin
P=$(with_env "$FIX/nccl-libs" HOME=/root NCCL_NET_PLUGIN=none)
expect "NCCL_NET_PLUGIN=none loads nothing: ok" 0 'OK    nccl\.net_plugin' -- --root "$P" check -v --only nccl.net_plugin

# ---- no RDMA device: the NCCL rules that need none still run ----
expect "no RDMA: NCCL_IB_HCA naming HCAs is a warning, NCCL falls back to sockets" 2 \
	'WARN  nccl\.ib_hca +NCCL_IB_HCA \(/proc/self/environ\): NCCL_IB_HCA=mlx5_0 names HCAs, but this node has no RDMA device' \
	-- --root "$VM" check
grep -qE 'nccl\.net_plugin' "$out"; result "no RDMA: nccl.net_plugin runs too" $?
N=$(with_env "$FIX/no-rdma" NCCL_SOCKET_IFNAME=eth9 NCCL_IB_HCA=mlx5_0)
expect "no-rdma: NCCL_SOCKET_IFNAME naming no interface fails, eth0 suggested" 2 \
	'FAIL  nccl\.socket_ifname +NCCL_SOCKET_IFNAME \(/proc/self/environ\): NCCL_SOCKET_IFNAME=eth9 matches no interface of this node' \
	-- --root "$N" check
grep -qF 'fix: export NCCL_SOCKET_IFNAME==eth0' "$out"; result "no-rdma: the fix names eth0" $?
N=$(with_env "$FIX/no-rdma" NCCL_SOCKET_IFNAME=eth0)
expect "no-rdma: NCCL_SOCKET_IFNAME=eth0 matches eth0" 0 'INFO  nccl\.socket_ifname .*matches eth0 \(up\)' \
	-- --root "$N" check --only nccl
run --root "$FIX/no-rdma" check -v
! grep -q 'nccl\.' "$out"; result "no-rdma without NCCL settings: no nccl line (no 'unset: NCCL uses every HCA')" $?

# ---- names NCCL does not read ----
run --root "$VM" snapshot
py '[s["name"] for s in d["system"]["nccl"]["settings"]] == ["NCCL_IB_HCA", "NCCL_SOCKET_IFNAME", "NCCL_NET_PLUGIN", "NCCL_NVLS_ENABLE"]'
result "snapshot: NCCL_VERSION (an image's label) is no NCCL setting" $?
py '[(s["name"], s["value"]) for s in d["system"]["nccl"]["not_read"]] == [("NCCL_VERSION", "2.28.3-1")]'
result "snapshot: NCCL_VERSION is listed under not_read" $?
T=$(with_env "$FIX/h100-vm" NCCL_IB_GID_INDX=3 NCCL_VERSION=2.28.3-1)
expect "a typo: nccl.unknown_name warns with NCCL's name" 1 \
	'WARN  nccl\.unknown_name +NCCL_IB_GID_INDX \(/proc/self/environ\): NCCL_IB_GID_INDX=3 is not a variable NCCL reads .*did you mean NCCL_IB_GID_INDEX\?' \
	-- --root "$T" check --only nccl
grep -qF 'fix: unset NCCL_IB_GID_INDX; export NCCL_IB_GID_INDEX=3' "$out"; result "a typo: the fix renames it" $?
! grep -q 'NCCL_VERSION' "$out"; result "NCCL_VERSION is no typo: no finding" $?
run --root "$T" snapshot
cp "$out" "$scratch/typo.json"
expect "check --from a snapshot: the same nccl.unknown_name" 1 'WARN  nccl\.unknown_name +NCCL_IB_GID_INDX' \
	-- --from "$scratch/typo.json" check --only nccl
mkdir -p "$T/etc" && printf '# site settings\nNCCL_SOCKET_IFNAM=eth0\n' >"$T/etc/nccl.conf"
expect "a typo in /etc/nccl.conf: the fix edits its line" 1 \
	"fix: sed -i '2s\\|\\^NCCL_SOCKET_IFNAM=\\|NCCL_SOCKET_IFNAME=\\|' /etc/nccl.conf" -- --root "$T" check --only nccl.unknown_name

# ---- container evidence ----
run --root "$FIX/h100-vm" snapshot
py 'd["system"]["container"]["kind"] is None and d["system"]["container"]["evidence"].startswith("/.dockerenv alone")'
result "h100-vm: /.dockerenv alone (cgroup /process_api/core, ext4 root, PID 1 process_api) is no container" $?
run --root "$FIX/check-fresh" snapshot
py 'd["system"]["container"] == {"kind": "docker", "evidence": "/proc/1/mountinfo (overlay root in /var/lib/docker/), /.dockerenv"}'
result "check-fresh: docker, from its overlay root in /var/lib/docker, /.dockerenv beside it" $?
tap_end
