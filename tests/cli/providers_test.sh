#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# verbs.provider: a device the kernel lists ACTIVE whose libibverbs provider is not configured
# (/etc/libibverbs.d/NAME.driver missing: Debian's ibverbs-providers not installed, a container image without the
# directory) fails check, naming the device and the package, instead of a clean check and then serve/bw failing
# with "cannot open RDMA device rxe0: No such device". Fixtures: softroce (rxe.driver), softroce-no-provider (an
# etc/ without libibverbs.d). Also: the config read as libibverbs reads it, the snapshot member and an older
# snapshot without it, quiet without RDMA devices or without a captured etc/.
# usage: providers_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout; about 35 runs and 2 pythons)
set -u
BIN=$1
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"
NOPROV=$FIX/softroce-no-provider
py() { python3 -c "$1" "$out" "${@:2}"; }

# ---- the finding ----
run --root "$NOPROV" check
[ "$rc" -eq 2 ] && grep -q "FAIL  verbs.provider  *rxe0: libibverbs has no provider for rxe0 (Soft-RoCE needs 'rxe'): /etc/libibverbs.d does not exist, so ibv_get_device_list() leaves rxe0 out" "$out" &&
	grep -qx '        fix: apt-get install ibverbs-providers   # Debian, Ubuntu: /etc/libibverbs.d/rxe.driver and librxe-rdmav\*.so' "$out" &&
	grep -qx '             dnf install libibverbs   # RHEL, Fedora' "$out"
result "softroce without /etc/libibverbs.d: verbs.provider fails for rxe0 with the package to install, exit 2" $?
run --root "$NOPROV" --json check --only verbs.provider
[ "$rc" -eq 2 ] && py 'import json,sys
d=json.load(open(sys.argv[1])); f=d["findings"]
assert [(x["id"], x["severity"], x["subject"]) for x in f] == [("verbs.provider", "fail", "rxe0")], f
assert f[0]["fix_lines"][0].startswith("apt-get install ibverbs-providers"), f'
result "check --json --only verbs.provider: one fail, subject rxe0" $?
run --root "$FIX/softroce" check -v --only verbs.provider
[ "$rc" -eq 0 ] && grep -q 'OK    verbs.provider  *rxe0: libibverbs provider rxe is configured' "$out"
result "softroce with rxe.driver: ok, exit 0" $?

# every fixture with RDMA devices is configured (their answers did not change), the others say nothing
st=0
for f in "$FIX"/*/; do
	f=${f%/}
	[ "$f" = "$NOPROV" ] && continue
	run --root "$f" check -v --only verbs.provider
	if [ -d "$f/sys/class/infiniband" ]; then
		[ "$rc" -eq 0 ] && grep -q '^  OK    verbs.provider ' "$out" && ! grep -qE '^  (INFO|WARN|FAIL)  verbs' "$out"
	else
		! grep -q 'verbs.provider' "$out"
	fi || { echo "# $(basename "$f")"; st=1; }
done
result "every other fixture: ok for each device, nothing without RDMA devices" $st

# ---- what the rule says in other trees ----
t=$scratch/t
# a docker container: its cgroup path names docker (cgroup v1, or v2 without a namespace); /.dockerenv beside it
cp -a "$NOPROV" "$t" && touch "$t/.dockerenv" && mkdir -p "$t/proc/1" &&
	echo '0::/system.slice/docker-4c1f0a7e2b9d.scope' >"$t/proc/1/cgroup"
run --root "$t" check --only verbs.provider
[ "$rc" -eq 2 ] && grep -q 'fix: apt-get install ibverbs-providers   # in the docker image' "$out" &&
	grep -q '^              *docker run -v /etc/libibverbs.d:/etc/libibverbs.d:ro \.\.\.   # or the host' "$out"
result "in a container: install in the image, or bind-mount the host's /etc/libibverbs.d" $?
rm -f "$t/.dockerenv" && mkdir -p "$t/etc/libibverbs.d" && printf 'driver mlx5\n' >"$t/etc/libibverbs.d/mlx5.driver"
run --root "$t" check --only verbs.provider
[ "$rc" -eq 2 ] && grep -q '/etc/libibverbs.d has no rxe.driver, so' "$out"
result "a directory with other providers only: names the missing rxe.driver" $?
# as libibverbs' read_config_file: blanks, comments, a path to the library; any file name; a bad line warned
printf '# Soft-RoCE\n\n  \tdriver\t/usr/lib/x86_64-linux-gnu/libibverbs/librxe  \n' >"$t/etc/libibverbs.d/local.conf"
printf 'drivers rxe\n' >"$t/etc/libibverbs.d/typo.driver"
run --root "$t" check -v --only verbs.provider
[ "$rc" -eq 0 ] && grep -q 'OK    verbs.provider  *rxe0: libibverbs provider rxe is configured' "$out" &&
	grep -q "warning: /etc/libibverbs.d/typo.driver:1: 'drivers' is not 'driver NAME': libibverbs ignores the line" "$err"
result "config read as libibverbs reads it: comments, blanks, a library path; a bad directive warned" $?
rm -r "$t/etc"
run --root "$t" check -v --only verbs.provider
[ "$rc" -eq 0 ] && ! grep -q 'verbs.provider' "$out"
result "a tree with no etc/ at all did not capture the config: nothing said" $?

# ---- snapshots carry it; an older one without the member still reads ----
run --root "$NOPROV" snapshot
cp "$out" "$scratch/snap.json"
# one python for the member and the two edited copies: an older snapshot without it, a bad one
python3 -c 'import json,sys
d=json.load(open(sys.argv[1])); v=d["system"]["verbs_providers"]
assert v == {"dir_exists": False, "providers": []}, v
del d["system"]["verbs_providers"]; json.dump(d, open(sys.argv[2], "w"))
d["system"]["verbs_providers"] = {"dir_exists": True, "providers": ["rxe", "rxe"]}; json.dump(d, open(sys.argv[3], "w"))' \
	"$scratch/snap.json" "$scratch/old.json" "$scratch/bad.json"
result "snapshot: system.verbs_providers {dir_exists, providers}" $?
run --from "$scratch/snap.json" check --only verbs.provider
[ "$rc" -eq 2 ] && grep -q 'FAIL  verbs.provider  *rxe0: libibverbs has no provider for rxe0' "$out"
result "check --from the snapshot: the same fail" $?
run --from "$scratch/old.json" check -v --only verbs.provider
[ "$rc" -eq 0 ] && ! grep -q 'verbs.provider' "$out"
result "check --from a snapshot taken before providers were read: unknown, nothing said" $?
bad "a snapshot naming a provider twice is refused by its path" 3 \
	'system\.verbs_providers\.providers\[1\]: expected each provider once, got "rxe" again' -- --from "$scratch/bad.json" check

tap_end
