#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# Machine formats and output that cannot be half-written: check/bw/lat --format junit|prometheus against an XSD,
# promtool and a real node_exporter; --output FILE by a rename; a full disk, a closed or broken stdout: exit 3,
# one line, no document; JSON indented on a terminal, one line otherwise, --pretty/--compact.
#   formats_test.sh ROCE_DOCTOR FIXTURES RENDER_DOC
set -u
BIN=$1 FIX=$2 RENDER=$3
here=$(cd "$(dirname "$0")" && pwd)
data=$here/formats_data
. "$here/../lib/tap.sh"

skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
lines() { wc -l < "$1" | tr -d ' '; }
xsd_ok() { xmllint --noout --schema "$data/junit.xsd" "$1" 2>>"$err"; }

# ---- 1. check --format junit: schema-valid, one testcase per finding, failures carry message and fix ----
env_root=$FIX/check-env          # 2 fail, 1 warn, 3 info, 8 ok
run --root "$env_root" check --json; cp "$out" "$scratch/check.json"
run --root "$env_root" check --format junit
cp "$out" "$scratch/check.xml"
[ "$rc" -eq 2 ] && xsd_ok "$scratch/check.xml"; result "check --format junit: exit as check (2), valid against junit.xsd" $?
python3 - "$scratch/check.json" "$scratch/check.xml" >"$err" 2>&1 << 'PY'
import json, sys, xml.etree.ElementTree as ET
doc = json.load(open(sys.argv[1])); suite = ET.parse(sys.argv[2]).getroot().find("testsuite")
cases = suite.findall("testcase"); findings = doc["findings"]
assert len(cases) == len(findings) == int(suite.get("tests")), (len(cases), len(findings), suite.get("tests"))
bad = [f for f in findings if f["severity"] in ("warn", "fail")]
assert int(suite.get("failures")) == len(bad) == len(suite.findall("testcase/failure")), suite.get("failures")
for f, c in zip(findings, cases):
    assert c.get("classname") == f["area"] and c.get("name") == f["id"] + " " + f["subject"], (c.attrib, f["id"])
    failure, out = c.find("failure"), c.find("system-out")
    if f["severity"] in ("warn", "fail"):
        assert failure is not None and failure.get("type") == f["severity"] and failure.get("message") == f["message"]
        assert all(line in failure.text for line in f["fix_lines"]) and f["message"] in failure.text, f["id"]
    elif f["severity"] == "info":
        assert failure is None and f["message"] in out.text, f["id"]
    else:
        assert failure is None and out is None, f["id"]
PY
result "check --format junit: a testcase per finding (area, id subject); warn/fail failures with message and fix" $?
sed -E 's/ tests="[0-9]+"/ tests="fourteen"/' "$scratch/check.xml" >"$scratch/broken.xml"
xsd_ok "$scratch/check.xml" && ! xmllint --noout --schema "$data/junit.xsd" "$scratch/broken.xml" 2>/dev/null
result "junit.xsd rejects a report whose count is not a number (the schema can fail)" $?

# ---- 2. check --format prometheus: promtool, the series, a real node_exporter ----
run --root "$env_root" check --format prometheus; cp "$out" "$scratch/check.prom"
[ "$rc" -eq 2 ] && [ -s "$out" ] && promtool check metrics < "$out" 2>>"$err"
result "check --format prometheus: promtool check metrics accepts it" $?
python3 - "$scratch/check.json" "$scratch/check.prom" >"$err" 2>&1 << 'PY'
import json, re, sys
doc = json.load(open(sys.argv[1])); text = open(sys.argv[2]).read()
series = re.findall(r'^roce_doctor_check_findings\{id="([^"]*)",severity="([^"]*)",subject="([^"]*)"\} 1$', text, re.M)
want = [(f["id"], f["severity"], f["subject"]) for f in doc["findings"] if f["severity"] != "ok"]
assert series == want, (series, want)
assert re.search(r'^roce_doctor_check_verdict 2$', text, re.M)
assert re.search(r'^roce_doctor_check_duration_seconds [0-9.e-]+$', text, re.M)
assert re.search(r'^roce_doctor_info\{version="[0-9.]+"\} 1$', text, re.M)
for s in ("ok", "info", "warn", "fail"):
    assert re.search(r'^roce_doctor_check_findings_by_severity\{severity="%s"\} %d$' % (s, doc["counts"][s]), text, re.M), s
for name in ("roce_doctor_check_findings", "roce_doctor_check_verdict", "roce_doctor_info"):
    assert "# HELP %s " % name in text and "# TYPE %s gauge" % name in text, name
PY
result "check --format prometheus: a findings series per finding that is not ok, verdict 2, counts, duration, info" $?
run --root "$FIX/eight-hca" check --format prometheus
[ "$rc" -eq 0 ] && grep -qx 'roce_doctor_check_verdict 0' "$out"; result "prometheus: verdict 0 for a host with info at worst" $?

if command -v prometheus-node-exporter >/dev/null && command -v curl >/dev/null; then
	mkdir "$scratch/textfile"
	run --root "$env_root" check --format prometheus --output "$scratch/textfile/roce-doctor.prom"
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	prometheus-node-exporter --collector.disable-defaults --collector.textfile \
		--collector.textfile.directory "$scratch/textfile" --web.listen-address "127.0.0.1:$port" \
		>"$scratch/exporter.log" 2>&1 &
	exporter=$!
	# ready when it accepts a connection: polled every 20 ms for at most 10 s, no fixed sleep
	python3 - "$port" << 'PY'
import socket, sys, time
end = time.time() + 10
while time.time() < end:
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.2).close(); sys.exit(0)
    except OSError:
        time.sleep(0.02)
sys.exit(1)
PY
	curl -sf "http://127.0.0.1:$port/metrics" >"$scratch/metrics" 2>>"$err"
	kill "$exporter"; wait "$exporter" 2>/dev/null
	grep -q '^roce_doctor_check_verdict 2$' "$scratch/metrics" &&
		grep -q '^roce_doctor_check_findings{id="[a-z_.]*",severity="fail",subject=' "$scratch/metrics" &&
		grep -q '^node_textfile_scrape_error 0$' "$scratch/metrics"
	result "a real prometheus-node-exporter serves check's textfile on /metrics with no scrape error" $?
else
	skip "a real prometheus-node-exporter serves check's textfile" "prometheus-node-exporter or curl not installed"
fi

# ---- 3. bw and lat: rendered from real runs' recorded documents (the VM pair's), as bw and lat render them ----
for f in bw_sweep bw_bidir bw_data_check bw_bad_rkey lat; do
	"$RENDER" junit "$data/$f.json" >"$scratch/$f.xml" 2>"$err" && xsd_ok "$scratch/$f.xml"
	result "$f: junit valid against junit.xsd" $?
	"$RENDER" prometheus "$data/$f.json" >"$scratch/$f.prom" 2>"$err"
done
# promtool takes ~0.5 s to start: the three shapes (rows with --bidir's extra gauge, no rows, lat's summary)
for f in bw_bidir bw_bad_rkey lat; do
	[ -s "$scratch/$f.prom" ] && promtool check metrics < "$scratch/$f.prom" 2>"$err"
	result "$f: promtool check metrics accepts the prometheus text" $?
done
python3 - "$data" "$scratch" >"$err" 2>&1 << 'PY'
import json, re, sys, xml.etree.ElementTree as ET
data, tmp = sys.argv[1], sys.argv[2]
sweep = json.load(open(data + "/bw_sweep.json")); text = open(tmp + "/bw_sweep.prom").read()
gauges = dict(re.findall(r'^roce_doctor_bw_gbps\{op="write",size="(\d+)",peer="10\.88\.0\.2",device="rxe0",port="1"\} (\S+)$', text, re.M))
assert sorted(int(s) for s in gauges) == [r["bytes"] for r in sweep["results"]], gauges
assert all(abs(float(gauges[str(r["bytes"])]) - r["avg_gbps"]) < 1e-9 * max(1, r["avg_gbps"]) for r in sweep["results"])
assert re.search(r'^roce_doctor_bw_ok\{peer="10.88.0.2",device="rxe0",port="1"\} 1$', text, re.M)
lat = json.load(open(data + "/lat.json"))["results"][0]; text = open(tmp + "/lat.prom").read()
assert "# TYPE roce_doctor_lat_seconds summary" in text
p99 = re.search(r'^roce_doctor_lat_seconds\{size="2",.*quantile="0.99"\} (\S+)$', text, re.M)
assert p99 and abs(float(p99.group(1)) - lat["p99_us"] / 1e6) < 1e-12, p99
assert re.search(r'^roce_doctor_lat_seconds_count\{size="2",[^}]*\} 300$', text, re.M)
for name, kind in (("bw_data_check", "data-check"), ("bw_bad_rkey", "completion")):
    suite = ET.parse("%s/%s.xml" % (tmp, name)).getroot().find("testsuite")
    fails = suite.findall("testcase/failure")
    assert len(fails) == 1 == int(suite.get("failures")) and fails[0].get("type") == kind, (name, suite.attrib)
    assert re.search(r'^roce_doctor_bw_ok\{[^}]*\} 0$', open("%s/%s.prom" % (tmp, name)).read(), re.M), name
suite = ET.parse(tmp + "/bw_sweep.xml").getroot().find("testsuite")
assert int(suite.get("tests")) == len(sweep["results"]) and suite.get("failures") == "0"
PY
result "bw/lat: a gauge per size equal to avg_gbps, lat's summary with p99 and count; a failed run is one failure and bw_ok 0" $?

# ---- 4. --format usage errors ----
bad "check --format yaml" 64 "^roce-doctor check: bad --format 'yaml': expected text, json, junit or prometheus$" -- check --format yaml
bad "--json and --format junit exclude each other" 64 "^roce-doctor check: --json and --format junit exclude each other$" -- --root "$env_root" --json check --format junit
bad "check --format junit --peer" 64 "--format junit cannot be used with --peer" -- check --format junit --peer 127.0.0.1
bad "bw --format csv" 64 "bad --format 'csv'" -- bw 127.0.0.1 --format csv
bad "lat --json --format prometheus" 64 "--json and --format prometheus exclude each other" -- lat 127.0.0.1 --json --format prometheus
bad "--compact with a format that is not JSON" 64 "--compact shapes JSON: it needs --json or --format json" -- --root "$env_root" check --format junit --compact
# the commands without --format: a layout option on their text output is a mistake, said as one
for c in devices gid nccl topo; do
	bad "$c --pretty on text output" 64 "^roce-doctor $c: --pretty shapes JSON: it needs --json$" -- --root "$env_root" $c --pretty
done
bad "nccl-env --compact on sh output" 64 "^roce-doctor nccl-env: --compact shapes JSON: it needs --json or --format json$" -- --root "$env_root" nccl-env --compact
bad "explain --list --compact on text output" 64 "^roce-doctor explain: --compact shapes JSON: it needs --json$" -- explain --list --compact
bad "compare --pretty on text output" 64 "^roce-doctor compare: --pretty shapes JSON: it needs --json$" -- compare --pretty "$scratch/none-a.json" "$scratch/none-b.json"
run --root "$env_root" nccl-env --format json --compact
[ "$rc" -eq 0 ] && [ "$(lines "$out")" -eq 1 ] && json_ok roce-doctor/nccl-env/v1; result "nccl-env --format json --compact: one line" $?
bad "--pretty and --compact together" 64 "--pretty and --compact exclude each other" -- --root "$env_root" --json check --pretty --compact
bad "serve --output" 64 "--output cannot be used with serve: it writes an event log" -- serve --output "$scratch/serve.log"
run --root "$env_root" --json check --format json
[ "$rc" -eq 2 ] && json_ok roce-doctor/check/v1; result "--json with --format json agree" $?

# ---- 5. JSON layout: one line when not on a terminal; --pretty, --compact ----
run --root "$env_root" check --json
[ "$(lines "$out")" -eq 1 ] && json_ok roce-doctor/check/v1; result "check --json into a pipe: one line that parses" $?
run --root "$env_root" check --format json --pretty
[ "$(lines "$out")" -gt 20 ] && json_ok roce-doctor/check/v1 && grep -q '^  "verdict": "fail",$' "$out"
result "--pretty indents it (two spaces)" $?
if command -v script >/dev/null; then
	script -qec "$BIN --root $env_root devices --json" /dev/null >"$out" 2>&1 </dev/null
	[ "$(grep -c '"device"' "$out")" -gt 1 ]; result "on a terminal (script(1)) --json is indented" $?
	script -qec "$BIN --root $env_root devices --json --compact" /dev/null >"$out" 2>&1 </dev/null
	[ "$(grep -c . "$out")" -eq 1 ]; result "on a terminal --compact gives one line" $?
else
	skip "on a terminal --json is indented" "script(1) not installed"; skip "on a terminal --compact" "no script(1)"
fi
run --root "$env_root" snapshot --compact
[ "$(lines "$out")" -eq 1 ] && json_ok roce-doctor/snapshot/v1; result "snapshot --compact: one line" $?
run --root "$env_root" snapshot
[ "$(lines "$out")" -gt 20 ]; result "snapshot stays indented by default (compare and --from read either)" $?

# ---- 6. --output FILE: by a rename, the mode umask allows, nothing on stdout ----
echo old >"$scratch/report.json"
run --root "$env_root" check --json --output "$scratch/report.json"
[ "$rc" -eq 2 ] && [ ! -s "$out" ] && python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$scratch/report.json" &&
	[ "$(stat -c %a "$scratch/report.json")" = "$(printf '%o' $((0666 & ~$(umask))))" ] &&
	[ -z "$(find "$scratch" -maxdepth 1 -name '.report.json.*')" ]
result "--output FILE: replaced whole, mode 0666 less umask, no temporary left, stdout empty, exit as check" $?
run --root "$env_root" --output "$scratch/devices.txt" devices
[ "$rc" -eq 0 ] && [ ! -s "$out" ] && grep -q mlx5 "$scratch/devices.txt"; result "--output before the command, text format" $?
bad "--output into a missing directory" 3 "^roce-doctor: cannot create a temporary file for $scratch/nodir/x.prom: No such file or directory$" -- --root "$env_root" check --format prometheus --output "$scratch/nodir/x.prom"

# ---- 7. a stdout that cannot take the document: exit 3, one line, nothing that parses ----
"$BIN" --root "$env_root" check --json >/dev/full 2>"$err"; rc=$?
[ "$rc" -eq 3 ] && [ "$(lines "$err")" -eq 1 ] && grep -qx 'roce-doctor: cannot write the output to stdout: No space left on device' "$err"
result "stdout on a full device (/dev/full): exit 3, one line" $?
"$BIN" --root "$env_root" check --format prometheus >&- 2>"$err"; rc=$?
[ "$rc" -eq 3 ] && grep -qx 'roce-doctor: cannot write the output: stdout is closed' "$err" && [ "$(lines "$err")" -eq 1 ]
result "closed stdout (>&-): exit 3, one line, the document not written into a file the probes opened" $?
# head -c 10 on a pipe of one page: the reader takes 10 bytes and goes while the writer still has most of it
python3 - "$BIN" --root "$env_root" snapshot >"$out" 2>"$err" << 'PY'
import fcntl, os, subprocess, sys
r, w = os.pipe()
fcntl.fcntl(w, 1031, 4096)                      # F_SETPIPE_SZ: one page, smaller than the document
p = subprocess.Popen(sys.argv[1:], stdout=w, stderr=subprocess.PIPE)   # SIGPIPE default in the child
os.close(w)
head = os.read(r, 10); os.close(r)
_, stderr = p.communicate()
sys.stdout.write("rc=%d head=%d\n%s" % (p.returncode, len(head), stderr.decode()))
PY
grep -qx 'rc=3 head=10' "$out" && grep -qx 'roce-doctor: cannot write the output to stdout: Broken pipe' "$out" &&
	[ "$(lines "$out")" -eq 2 ]
result "stdout a pipe whose reader left after 10 bytes (head -c 10): EPIPE is exit 3 and one line, not SIGPIPE" $?
"$BIN" --root "$env_root" check --json 2>"$err" | head -c 10 >"$scratch/head"; rc=${PIPESTATUS[0]}
{ [ "$rc" -eq 2 ] || { [ "$rc" -eq 3 ] && grep -q 'Broken pipe' "$err"; }; } &&
	! python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$scratch/head" 2>/dev/null
result "check --json | head -c 10: check's 2 (the pipe took it all) or 3, never a signal; 10 bytes do not parse" $?

# ---- 8. a full disk: a 16 KiB tmpfs in a private mount namespace ----
if [ "$(id -u)" -eq 0 ] && unshare -m true 2>/dev/null; then
	mkdir "$scratch/full"
	unshare -m bash -c '
		bin=$1 root=$2 dir=$3
		mount -t tmpfs -o size=16k tmpfs "$dir" || exit 99
		"$bin" --root "$root" check --format prometheus --output "$dir/roce-doctor.prom" 2>/dev/null
		cp "$dir/roce-doctor.prom" "$dir/../before.prom"
		cat /dev/zero > "$dir/filler" 2>/dev/null
		"$bin" --root "$root" check --format prometheus --output "$dir/roce-doctor.prom" 2>"$dir/../err1"
		echo "rc1=$?"
		cmp -s "$dir/roce-doctor.prom" "$dir/../before.prom" && echo "old file kept"
		ls -A "$dir" | grep -v "^filler$\|^roce-doctor.prom$" | sed "s/^/left: /"
		rm -f "$dir/roce-doctor.prom"; cat /dev/zero > "$dir/filler2" 2>/dev/null
		"$bin" --root "$root" check --json > "$dir/stdout.json" 2>"$dir/../err2"
		echo "rc2=$? size2=$(stat -c %s "$dir/stdout.json")"
	' _ "$BIN" "$env_root" "$scratch/full" >"$out" 2>"$err"
	cp "$scratch/err1" "$err" 2>/dev/null
	grep -qx 'rc1=3' "$out" && grep -qx 'old file kept' "$out" && ! grep -q '^left: ' "$out" &&
		grep -qx "roce-doctor: cannot write $scratch/full/roce-doctor.prom: No space left on device" "$scratch/err1" &&
		[ "$(lines "$scratch/err1")" -eq 1 ]
	result "--output on a full tmpfs: exit 3, one line, the old file untouched, no temporary left" $?
	grep -qx 'rc2=3 size2=0' "$out" && grep -qx 'roce-doctor: cannot write the output to stdout: No space left on device' "$scratch/err2"
	result "stdout a file on a full tmpfs: exit 3, the part written cut off again (0 bytes)" $?
else
	skip "--output on a full tmpfs" "needs root and unshare -m"
	skip "stdout a file on a full tmpfs" "needs root and unshare -m"
fi

tap_end
