#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# check's fix blocks paste into a shell (issue 28): every fix of every fixture's check parses with bash -n and
# has no prose line that is not a '#' comment; no two findings of one report edit one line or variable
# differently; and a setting from the job's environment is fixed in the job's launcher, never in /proc.
# usage: check_fixes_test.sh ROCE_DOCTOR FIXTURES_DIR   (TAP on stdout)
set -u
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")   # absolute: the compare case runs in $scratch
FIX=$2
# shellcheck source=../lib/tap.sh
. "$(dirname "$0")/../lib/tap.sh"

# Every fixture tree, check -v in both families (and check-seed000 as its users), each report's JSON in a file.
reports="$scratch/reports"; mkdir -p "$reports"
for root in "$FIX"/*/; do
	name=$(basename "$root")
	[ -d "$root/sys" ] || [ -d "$root/etc" ] || continue
	for family in ipv4 ipv6; do
		"$BIN" --root "$root" --json check -v --family "$family" > "$reports/$name-$family.json" 2>/dev/null
	done
done
for user in tutu alice; do
	"$BIN" --root "$FIX/check-seed000" --json check -v --user "$user" > "$reports/check-seed000-$user.json" 2>/dev/null
done

# fixes REPORT: each non-empty fix, NUL-terminated, as "ID SUBJECT\n" then the fix
fixes() { python3 -c 'import json,sys
for f in json.load(open(sys.argv[1]))["findings"]:
    if f.get("fix"): sys.stdout.write("%s %s\n%s\0" % (f["id"], f["subject"], f["fix"]))' "$1"; }

n_reports=0 n_fixes=0 bad_syntax=""
for r in "$reports"/*.json; do
	n_reports=$((n_reports + 1))
	while IFS= read -r -d '' block; do
		n_fixes=$((n_fixes + 1))
		bash -n <<< "${block#*$'\n'}" 2>/dev/null || bad_syntax="$bad_syntax $(basename "$r"):${block%%$'\n'*}"
	done < <(fixes "$r")
done
[ "$n_reports" -ge 30 ] && [ "$n_fixes" -ge 100 ] && [ -z "$bad_syntax" ]
result "every fix block of every fixture's check parses with bash -n ($n_fixes blocks in $n_reports reports)${bad_syntax:+: not$bad_syntax}" $?

# A line that is not a comment and ends in ':' is a heading in prose ("or keep it and trust the RDMA interfaces:").
prose=$(for r in "$reports"/*.json; do fixes "$r" | tr '\0' '\n'; done | grep -vE '^[a-z0-9_]+\.[a-z0-9_]+ ' \
	| grep -vE '^[[:space:]]*#' | grep -E ':[[:space:]]*$' | sort -u)
[ -z "$prose" ]; result "no fix line is prose outside a '#' comment${prose:+: $prose}" $?

# Conflicting edits: within one report, two different contents for one FILE:LINE (sed -i 'Ns|.*|X|' / 'Nd') or one
# variable (export NAME=X / unset NAME), read here on their own from the fix text.
conflicts=$(python3 - "$reports"/*.json <<'PY'
import json, re, sys
out = []
for path in sys.argv[1:]:
    edits = {}
    for f in json.load(open(path))["findings"]:
        if f["severity"] == "ok" or not f.get("fix"):
            continue
        for line in f["fix"].split("\n"):
            cmd = line.split(" #")[0].strip()
            m = re.fullmatch(r"sed -i '(\d+)s\|\.\*\|(.*)\|' (\S+)", cmd) or re.fullmatch(r"sed -i '(\d+)(d)' (\S+)", cmd)
            if m:
                key, val = "%s:%s" % (m.group(3), m.group(1)), "" if m.group(2) == "d" else m.group(2)
            else:
                m = re.fullmatch(r"export ([A-Za-z_][A-Za-z0-9_]*)=(\S*)", cmd) or re.fullmatch(r"unset ([A-Za-z_][A-Za-z0-9_]*)()", cmd)
                if not m:
                    continue
                key, val = m.group(1), m.group(2)
            edits.setdefault(key, {}).setdefault(val, []).append(f["id"])
    for key, vals in edits.items():
        if len(vals) > 1:
            out.append("%s %s: %s" % (path.rsplit("/", 1)[1], key, vals))
print("\n".join(out))
PY
)
[ -z "$conflicts" ]; result "no two findings of one report edit one line or variable differently${conflicts:+: $conflicts}" $?
grep -q "NCCL_IB_HCA=mlx5_0,mlx5_1|' /etc/nccl.conf" < <(fixes "$reports/check-seed000-ipv4.json" | tr '\0' '\n') \
	&& fixes "$reports/check-seed000-ipv4.json" | tr '\0' '\n' | grep -q "^# /etc/nccl.conf:2: nccl.ib_hca's fix sets it"
result "check-seed000: nccl.ib_hca rewrites /etc/nccl.conf line 2, gpu.rails defers to it" $?

# ---- a setting from the job's environment is changed where the job starts, never in /proc ----
for t in check-env nccl-bad cx6lx-2port; do "$BIN" --root "$FIX/$t" snapshot > "$scratch/$t.json" 2>/dev/null; done
cd "$scratch" && run compare check-env.json cx6lx-2port.json nccl-bad.json; cd - >/dev/null || exit 1
! grep -qE 'delete the line [^ ]+ from /proc|in /proc/self/environ:' "$out" \
	&& grep -q 'on check-env.json: `unset NCCL_IB_DISABLE` in the job'"'"'s environment' "$out" \
	&& grep -q '`export NCCL_IB_GID_INDEX=5`' "$out"
result "compare: the capture's environment (/proc/self/environ) is fixed with unset/export, not by deleting a line" $?
run --root "$FIX/check-env" check
! grep -q '/proc/self/environ:\|sed -i .*environ' "$out" && grep -q 'unset NCCL_IB_DISABLE   # in the job'"'"'s launcher' "$out"
result "check: NCCL_IB_DISABLE from the environment is unset in the job's launcher" $?

tap_end
