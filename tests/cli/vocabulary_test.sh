#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# One vocabulary (issue 28): every command's text and JSON on every fixture host, scanned for the spellings
# that were retired (DEV and DEVICE, IPV4 and IPv4, "Gb/sec" and "Gb/s", local time and UTC's Z, MTUs as
# strings, one firmware string for several HCAs); every JSON document with schema and warnings; devices'
# table within the terminal's width; --timeout and -v as --help and the man page say; --skip and --only
# taking the same items.
#   vocabulary_test.sh ROCE_DOCTOR FIXTURES
set -u
BIN=$(realpath "$1") FIX=$(realpath "$2")
src=$(dirname "$FIX")/..
. "$(dirname "$0")/../lib/tap.sh"
# python3 may be a slow shim (pyenv): ask it once for the interpreter itself
py=$(python3 -c 'import sys; print(sys.executable)')
o=$scratch/o
mkdir "$o"

# ---- every command's output, text and JSON: $o/NAME.txt and $o/NAME.json (stderr left out) ----
# emit NAME ARGS...: "$BIN" ARGS... > $o/NAME
emit() { local name=$1; shift; "$BIN" "$@" > "$o/$name" 2>/dev/null; }
hosts=()
for d in "$FIX"/*/; do [ -d "$d/sys" ] && hosts+=("$(basename "$d")"); done
for h in "${hosts[@]}"; do
	r=(--root "$FIX/$h")
	emit "$h.snapshot.json" "${r[@]}" snapshot
	for c in devices gid "gid --suggest" check nccl-env nccl topo; do
		# shellcheck disable=SC2086   # the command and its options, split on purpose
		emit "$h.${c// /_}.txt" "${r[@]}" $c
		# shellcheck disable=SC2086
		emit "$h.${c// /_}.json" "${r[@]}" $c --json
	done
	emit "$h.devices_from.json" --from "$o/$h.snapshot.json" devices --json
	emit "$h.check.xml" "${r[@]}" check --format junit
	emit "$h.check.prom" "${r[@]}" check --format prometheus
	for f in env docker k8s; do emit "$h.nccl-env_$f.txt" "${r[@]}" nccl-env --format "$f"; done
done
emit check_list.txt check --list
emit check_list.json check --list --json
emit explain_list.txt explain --list
emit explain_list.json explain --list --json
log=$src/tests/logs/from-source/nccl-2.18-retry-exceeded.log
emit explain_log.txt explain "$log"
emit explain_log.json explain --json "$log"
snaps=("$o/eight-hca.snapshot.json" "$o/cx6lx-2port.snapshot.json" "$o/dgx-h100.snapshot.json")
emit compare.txt compare -v "${snaps[@]}"
emit compare.json compare --json "${snaps[@]}"
"$py" "$(dirname "$0")/pair_fixtures.py" "$BIN" "$FIX" "$scratch/pairs" > /dev/null || echo "Bail out! pair fixtures"
for c in clean b-mtu-1500; do
	p=(--from "$scratch/pairs/$c/a.json")
	q=(--peer 192.168.88.2 --peer-fixture "$scratch/pairs/$c/peer")
	emit "pair_$c.txt" "${p[@]}" check -v "${q[@]}"
	emit "pair_$c.json" "${p[@]}" check --json "${q[@]}"
	emit "env_peer_$c.txt" "${p[@]}" nccl-env "${q[@]}"
	emit "env_peer_$c.json" "${p[@]}" nccl-env --json "${q[@]}"
done
# serve's event log, text and JSON lines: a port in use is tried again on the next
port=$((21000 + ($$ * 17) % 20000))
for fmt in txt json; do
	for try in 1 2 3 4 5; do
		args=(serve --bind 127.0.0.1 --port $((port + try)))
		[ "$fmt" = json ] && args+=(--json)
		timeout -s TERM 1 "$BIN" "${args[@]}" > "$o/serve.$fmt" 2>/dev/null
		grep -q listening "$o/serve.$fmt" && break
	done
done
port=$((port + 10))
[ "$(find "$o" -type f -size +0 | wc -l)" -gt $((${#hosts[@]} * 10)) ]
result "every command printed its output on the ${#hosts[@]} fixture hosts" $?

# ---- one name per column: the table headings people grep for ----
retired='(^|  )(DEV|IPV4|SPEED|RDMA-CORE|GID-INDEX|LOOKS AT|CPU AFFINITY|NEAREST NIC|A PORT|B PORT)(  |$)'
: > "$out"
grep -HnE "$retired" "$o"/*.txt >> "$out"
[ ! -s "$out" ]; result "table headings: DEVICE, IPv4, RATE, LINK_LAYER, words joined by _ (none of the retired ones)" $?
# the headings devices and gid share are spelled alike
head -1 "$o/eight-hca.devices.txt" | grep -qE '^DEVICE +PORT +NETDEV +LINK_LAYER .* RATE +IPv4 ' &&
	head -1 "$o/eight-hca.gid.txt" | grep -qE '^DEVICE +PORT +INDEX +GID +IPv4 '
result "devices and gid: DEVICE, PORT and IPv4 alike" $?

# ---- rates: "100 Gb/s (4X EDR)" everywhere; only the snapshot keeps sysfs's own text, as documented ----
grep -l 'Gb/sec' "$o"/* | grep -v '\.snapshot\.json$' > "$out"
[ ! -s "$out" ]; result "no 'Gb/sec' in any output but the snapshot's recorded sysfs text" $?
grep -qE '^mlx5_0 +1 +eth0 +Ethernet +ACTIVE +LinkUp +100 Gb/s \(4X EDR\) ' "$o/eight-hca.devices.txt" &&
	"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["ports"][1]["rate"] != "200 Gb/s (4X HDR)")' \
		"$o/eight-hca.devices.json" &&
	"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d["ports"][1]["rate"] != "200 Gb/s (4X HDR)")' \
		"$o/eight-hca.devices_from.json" &&
	grep -qE 'ACTIVE, LinkUp, 200 Gb/s \(4X HDR\)' "$o/eight-hca.check.json"
result "the rate: N Gb/s with the width and speed, in devices (live and --from) and check alike" $?

# ---- timestamps: RFC 3339 in UTC with a Z (explain's own output quotes the log's lines: not scanned) ----
"$py" - "$o" > "$out" <<'EOF'
import os, re, sys
stamp = re.compile(r'\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?!\.?\d*Z)')
for name in sorted(os.listdir(sys.argv[1])):
    if name.startswith('explain_log'):
        continue
    text = open(os.path.join(sys.argv[1], name), errors='replace').read()
    for m in stamp.finditer(text):
        print(name, repr(text[max(0, m.start() - 20):m.end() + 5]))
EOF
[ ! -s "$out" ] && grep -qE 'timestamp="[0-9-]{10}T[0-9:]{8}Z"' "$o/eight-hca.check.xml" &&
	grep -qE '^[0-9-]{10}T[0-9:]{8}Z serve listening' "$o/serve.txt" &&
	grep -qE '"time":"[0-9-]{10}T[0-9:]{8}Z"' "$o/serve.json"
result "timestamps: RFC 3339 UTC with Z in snapshots, JUnit and serve's events" $?

# ---- JSON: MTUs are integers, firmware is per device, every document has schema and warnings ----
"$py" - "$o" > "$out" <<'EOF'
import json, os, sys
def walk(v, path, name, docs):
    if isinstance(v, dict):
        for k, x in v.items():
            p = path + '.' + k
            if (k == 'mtu' or k.endswith('_mtu')) and not (x is None or type(x) is int or
                                                             (isinstance(x, list) and all(type(i) is int for i in x))):
                print(name, p, 'is not an integer:', repr(x))
            if k in ('firmware', 'fw_ver') and isinstance(x, str) and ',' in x:
                print(name, p, 'joins the firmware of several devices:', repr(x))
            walk(x, p, name, docs)
    elif isinstance(v, list):
        for i, x in enumerate(v):
            walk(x, '%s[%d]' % (path, i), name, docs)
for name in sorted(os.listdir(sys.argv[1])):
    if not name.endswith('.json') or os.path.getsize(os.path.join(sys.argv[1], name)) == 0:
        continue
    text = open(os.path.join(sys.argv[1], name)).read()
    docs = [json.loads(l) for l in text.splitlines() if l.strip()] if name == 'serve.json' else [json.loads(text)]
    for d in docs:
        walk(d, '', name, docs)
        if 'schema' not in d:
            print(name, 'has no schema')
        if name != 'serve.json' and not isinstance(d.get('warnings'), list):
            print(name, d.get('schema'), 'has no warnings array')
EOF
grep -v 'warnings array\|no schema' "$out" > "$scratch/types"
[ ! -s "$scratch/types" ]; result "JSON: every mtu an integer, every firmware one device's" $?
grep 'warnings array\|no schema' "$out" > "$scratch/members"
n_json=$(find "$o" -name '*.json' -size +0 | wc -l)
[ ! -s "$scratch/members" ] && [ "$n_json" -gt 100 ]
result "every JSON document ($n_json: compare, explain --list, nccl-env --peer ...) has schema and warnings" $?
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); n=d["nodes"][0]
sys.exit(not (n["mtu"] == [9000] and all(set(x) == {"device", "fw_ver"} for x in n["devices"]) and isinstance(n["firmware"], list)))' \
	"$o/compare.json"
result "compare's nodes: mtu as integers, firmware per device" $?

# ---- devices fits the terminal: columns are left out, the narrowest first ----
if command -v script > /dev/null; then
	tty_devices() { script -qec "stty cols $1 2>/dev/null; '$BIN' --root '$FIX/eight-hca' devices" /dev/null | tr -d '\r' > "$out"; }
	tty_devices 80
	[ "$(awk '{ print length }' "$out" | sort -n | tail -1)" -le 80 ] && grep -qE '^DEVICE +PORT +NETDEV +STATE +RATE ' "$out" &&
		grep -qE '^mlx5_9 +1 +eth9 +ACTIVE +100 Gb/s \(4X EDR\)' "$out" && grep -q 'NODE_GUID' "$out" &&
		grep -q -- '--json has them' "$out"
	result "devices on an 80-column terminal: every line fits, the columns left out named" $?
	tty_devices 250
	head -1 "$out" | grep -qE '^DEVICE .* FIRMWARE +NODE_GUID +PCI +NUMA +DRIVER$' && ! grep -q 'not shown' "$out"
	result "devices on a 250-column terminal: every column" $?
	# a terminal that does not know its size (script's pty, 0 x 0): $COLUMNS tells it
	script -qec "COLUMNS=80 '$BIN' --root '$FIX/eight-hca' devices" /dev/null < /dev/null | tr -d '\r' > "$out"
	[ "$(awk '{ print length }' "$out" | sort -n | tail -1)" -le 80 ] && grep -q 'not shown' "$out"
	result "devices on a terminal of unknown size with COLUMNS=80: every line fits" $?
else
	for t in 80 250 COLUMNS=80; do n=$((n + 1)); echo "ok $n - devices on a $t-column terminal # SKIP no script(1)"; done
fi
COLUMNS=80 run --root "$FIX/eight-hca" devices
head -1 "$out" | grep -qE ' DRIVER$'
result "devices into a pipe: every column, whatever COLUMNS says (as check)" $?

# ---- --timeout: one default per kind, the same in --help, the man page and the code ----
man=$src/man/roce-doctor.1
help_default() { "$BIN" "$@" --help | tr -s ' \n' ' ' | grep -oP -- '--timeout=S .*?\(default \K[0-9]+'; }
check_help=$(help_default check) env_help=$(help_default nccl-env) bw_help=$(help_default bw)
# the man page's check section: "With --peer: each probe and each answer of the peer (default N)"
check_man=$(sed -n '/^\.B check /,/^\.B nccl/p' "$man" | grep -A1 'BI \\-\\-timeout' | grep -oE 'default [0-9]+' | grep -oE '[0-9]+')
common_man=$(sed -n '/^\.SH COMMON OPTIONS/,/^\.SH COMMANDS/p' "$man" | grep -A3 'BI \\-\\-timeout' | tr '\n' ' ' |
	grep -oE 'default [0-9]+' | grep -oE '[0-9]+' | tr '\n' ' ')
echo "# --help: check $check_help, nccl-env $env_help, bw $bw_help; man: check $check_man, common $common_man"
[ -n "$check_help" ] && [ "$check_help" = "$check_man" ] && [ "$env_help" = "$check_help" ] &&
	[ "$common_man" = "$bw_help $check_help " ] && [ "$bw_help" != "" ]
result "--timeout's default: one value per kind in check/nccl-env/bw --help and the man page" $?
run --from "$scratch/pairs/clean/a.json" nccl-env --peer 192.168.88.2 --peer-fixture "$scratch/pairs/clean/peer" --timeout 5
[ "$rc" -eq 0 ] && grep -q '^export NCCL_IB_HCA=' "$out"
result "nccl-env --peer ... --timeout 5 is accepted" $?
bad "nccl-env --timeout without --peer is refused, as check's" 64 'nccl-env: --timeout needs --peer' \
	-- --root "$FIX/eight-hca" nccl-env --timeout 5

# ---- -v: each command's --help says what it adds; where it adds nothing it is refused ----
vdoc() { "$BIN" "$@" --help | tr -s ' \n' ' ' | grep -oE -- '-v, --verbose [^-]*'; }
vdoc compare | grep -q 'ok findings' && vdoc check | grep -q 'ok findings' && vdoc devices | grep -q 'source answered' &&
	vdoc bw | grep -q 'local port' && ! vdoc topo && ! vdoc explain
result "-v in --help: compare and check the ok findings, devices and bw the sources; topo and explain not at all" $?
bad "topo -v is refused: it adds nothing" 64 '-v adds nothing to topo' -- --root "$FIX/dgx-h100" topo -v
bad "explain -v is refused: it adds nothing" 64 '-v adds nothing to explain' -- -v explain "$log"
run -v --root "$FIX/eight-hca" devices
[ "$rc" -eq 0 ] && grep -q 'mlx5_0/1: netdev eth0' "$err"
result "-v before devices still says the sources" $?

# ---- --skip and --only take the same items: ids and areas ----
run --root "$FIX/check-seed000" check -v --skip memlock
[ "$rc" -ne 64 ] && ! grep -q 'memlock\.' "$out" && grep -q 'port\.state' "$out"
result "check --skip memlock (an area) leaves out every memlock.* finding" $?
run --root "$FIX/check-seed000" check -v --skip port.state,netd
[ "$rc" -ne 64 ] && ! grep -qE ' (port\.state|netdev\.[a-z_]+) ' "$out" && grep -q 'memlock\.' "$out"
result "check --skip takes ids and prefixes in one list, as --only" $?
items=$("$BIN" check --list | awk 'NR > 1 { print $1; print $2 }' | sort -u)
refused=
for i in $items; do
	"$BIN" check --list --only "$i" > /dev/null 2>&1 || refused+=" --only $i"
	"$BIN" check --list --skip "$i" > /dev/null 2>&1 || refused+=" --skip $i"
done
: > "$out"; echo "$refused" > "$err"
[ -z "$refused" ]; result "every id and area of check --list is taken by --only and --skip alike" $?
bad "check --skip nope: exit 64, the message --only gives" 64 "--skip 'nope' matches no check id \(known ids:" \
	-- --root "$FIX/cx6lx-2port" check --skip nope

tap_end
