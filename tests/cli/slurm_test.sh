#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# contrib/slurm/roce-doctor-healthcheck over fixtures that pass, warn and fail, with a fake scontrol (and
# logger) on PATH that records its arguments: Slurm itself is not something CI can run, so this holds the
# commands the script gives it, not what slurmctld makes of them.
#   slurm_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$(realpath "$1") fixtures=$(realpath "$2")
. "$(dirname "$0")/../lib/tap.sh"
hc=$(dirname "$fixtures")/../contrib/slurm/roce-doctor-healthcheck
calls=$scratch/calls logs=$scratch/logs
mkdir "$scratch/bin"
# scontrol: one line per call, each argument in <>; `show node` prints FAKE_NODE_RECORD
cat > "$scratch/bin/scontrol" << 'EOF'
#!/bin/sh
{ printf '<%s>' "$@"; echo; } >> "$CALLS"
case "$*" in *show\ node*) echo "${FAKE_NODE_RECORD:-NodeName=node07 State=IDLE}" ;; esac
EOF
cat > "$scratch/bin/logger" << 'EOF'
#!/bin/sh
echo "$*" >> "$LOGS"
EOF
# a roce-doctor whose fail finding ids hold what scontrol's reason must not: quotes, =, ; and length
cat > "$scratch/bin/hostile-doctor" << 'EOF'
#!/bin/sh
echo 'verdict: fail (9 fail, 0 warn, 0 info, 0 ok)'
for i in 1 2 3 4 5 6 7 8 9; do echo "  FAIL  a\"b=c;d'e\$(f)_$i.long_check_name  x: y"; done
exit 2
EOF
chmod +x "$scratch/bin/"*
export PATH=$scratch/bin:$PATH CALLS=$calls LOGS=$logs SLURMD_NODENAME=node07 \
	ROCE_DOCTOR_SLURM_CONF=$scratch/none ROCE_DOCTOR=$BIN

# healthcheck FIXTURE [ARG...]: runs the script on the fixture tree; calls and logs start empty
healthcheck() {
	local fixture=$1
	shift
	: > "$calls"; : > "$logs"
	ROCE_DOCTOR_ARGS="--root $fixtures/$fixture" "$hc" "$@" > "$out" 2> "$err"
	rc=$?
}
called() { grep -qxF -- "$1" "$calls"; }
drains=0
drained() { grep -q '<state=drain>' "$calls"; }

healthcheck cx6lx-2port
[ $rc -eq 0 ] && [ "$(cat "$calls")" = "<-o><show><node><node07>" ] && [ ! -s "$out" ]
result "pass: exit 0, only asks scontrol about node07, drains nothing" $?

FAKE_NODE_RECORD='NodeName=node07 State=IDLE+DRAIN Reason=roce-doctor fail: gid.env [root@2026-11-25]' healthcheck cx6lx-2port
[ $rc -eq 0 ] && called "<update><nodename=node07><state=resume>"
result "pass on a node roce-doctor drained: resumes it" $?

FAKE_NODE_RECORD='NodeName=node07 State=IDLE+DRAIN Reason=bad DIMM [admin@2026-11-25]' healthcheck cx6lx-2port
[ $rc -eq 0 ] && ! grep -q update "$calls"
result "pass on a node an admin drained: leaves it drained" $?

RESUME=no FAKE_NODE_RECORD='NodeName=node07 Reason=roce-doctor fail: x' healthcheck cx6lx-2port
[ $rc -eq 0 ] && [ ! -s "$calls" ]
result "RESUME=no: pass asks scontrol nothing" $?

healthcheck dgx-h100
[ $rc -eq 0 ] && [ ! -s "$calls" ] && grep -q 'daemon.warning -- roce-doctor warn: [a-z]' "$logs" &&
	grep -q 'roce-doctor warn: ' "$err"
result "warn: logged (syslog and stderr), not drained" $?

ON_WARN=drain healthcheck dgx-h100
[ $rc -eq 0 ] && grep -qE '^<update><nodename=node07><state=drain><reason=roce-doctor warn: [a-z0-9_.,]+>$' "$calls"
result "ON_WARN=drain: warn drains with the warn ids as reason" $?

echo 'ON_WARN=drain' > "$scratch/conf"
ROCE_DOCTOR_SLURM_CONF=$scratch/conf healthcheck dgx-h100
[ $rc -eq 0 ] && drained
result "ON_WARN=drain from the settings file drains" $?

healthcheck check-env
[ $rc -eq 0 ] && called "<update><nodename=node07><state=drain><reason=roce-doctor fail: gid.env,nccl.socket_ifname>" &&
	grep -q 'draining node07: roce-doctor fail: gid.env,nccl.socket_ifname' "$logs"
result "fail: drains node07 with the failing check ids as reason" $?

healthcheck check-env --prolog
[ $rc -eq 1 ] && drained
result "fail as Prolog: drains and exits 1 (Slurm requeues the job)" $?

healthcheck cx6lx-2port --prolog
[ $rc -eq 0 ]
result "pass as Prolog: exits 0" $?

healthcheck no-such-tree
[ $rc -eq 0 ] && ! drained && grep -q 'roce-doctor: check could not run, exit 3' "$logs"
result "check cannot run: logged, not drained" $?

ON_ERROR=drain healthcheck no-such-tree
[ $rc -eq 0 ] && called "<update><nodename=node07><state=drain><reason=roce-doctor: check could not run, exit 3>"
result "ON_ERROR=drain: drains when check cannot run" $?

ROCE_DOCTOR=$scratch/none healthcheck cx6lx-2port
[ $rc -eq 0 ] && ! drained && grep -q 'not found or not executable' "$logs"
result "roce-doctor missing: logged, not drained" $?

ROCE_DOCTOR=hostile-doctor healthcheck cx6lx-2port
reason=$(sed -n 's/.*<reason=\(.*\)>$/\1/p' "$calls")
[ $rc -eq 0 ] && [ -n "$reason" ] && [ ${#reason} -le 80 ] && [[ $reason == "roce-doctor fail: a b c d e"* ]] &&
	[[ $reason != *[\"\'=\;\$\(\)]* ]]
result "reason: no quotes, =, ;, \$( and at most 80 characters ($reason)" $?

SLURMD_NODENAME='' healthcheck check-env
called "<update><nodename=$(hostname -s)><state=drain><reason=roce-doctor fail: gid.env,nccl.socket_ifname>"
result "no SLURMD_NODENAME (HealthCheckProgram): hostname -s names the node" $?

healthcheck cx6lx-2port --bogus
[ $rc -eq 64 ] && [ ! -s "$out" ] && grep -q "unknown argument '--bogus'" "$err" && [ ! -s "$calls" ]
result "unknown argument: exit 64, one line on stderr, nothing run" $?
tap_end
