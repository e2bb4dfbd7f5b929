#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# The Debian package end to end: dpkg-buildpackage from a clean copy of the tree with its tests on, as Debian
# builds it (dh_auto_test runs the unit suite there, in parallel, as root, from a tree without
# .git), lintian, dpkg -i into a throwaway root (maintainer scripts run there, under a static busybox sh), the installed binary's --version
# and check, the unit through systemd-analyze, then a systemd-nspawn container booting the real systemd
# over that root, where roce-doctor-serve.service is enabled, started, answers, restarts and stops.
#   deb_test.sh SOURCE_ROOT FIXTURES     (root; skips what a missing tool cannot do)
set -u
src=$1 fixtures=$2
n=0 failed=0
judge() { # NAME STATUS [DETAIL-FILE]
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then echo "ok $n - $1"; else
		failed=$((failed + 1)); echo "not ok $n - $1"; [ -z "${3:-}" ] || tail -20 "$3" | sed 's/^/# /'
	fi
}
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
finish() { echo "1..$n"; [ "$failed" -eq 0 ]; exit; }
tmp=$(mktemp -d /tmp/roce-pkg.XXXXXX); trap 'rm -rf "$tmp"' EXIT

for tool in dpkg-buildpackage dh; do
	command -v $tool >/dev/null || { skip "package build" "$tool missing (apt-get install debhelper)"; finish; }
done
[ "$(id -u)" -eq 0 ] || { skip "package build" "not root (dpkg --root)"; finish; }

# 1. the clean copy: what git archive of the working tree would hold, tracked files and new ones not ignored,
# nothing of build/ or obj-*/ and no .git: a release tarball. In a clean clone that is git archive HEAD; on a
# developer's tree it includes the edits about to be committed, which are what the run should test.
git -C "$src" rev-parse --git-dir >/dev/null 2>&1 ||
	{ skip "package build" "$src is not a git checkout: no list of the files a clean copy holds"; finish; }
mkdir "$tmp/src"
git -C "$src" ls-files -z -co --exclude-standard | (cd "$src" && tar --null -T - -cf -) | tar -C "$tmp/src" -xf -
# Built once, tests on; the one .deb then serves every case below.
start=$SECONDS
(cd "$tmp/src" && DEB_BUILD_OPTIONS="parallel=2" dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1
rc=$?
deb=$(ls "$tmp"/roce-doctor_*_*.deb 2>/dev/null | head -1)
judge "dpkg-buildpackage -us -uc -b, tests on, builds roce-doctor_*.deb ($((SECONDS - start)) s)" \
	"$([ $rc -eq 0 ] && [ -n "$deb" ]; echo $?)" "$tmp/build.log"
awk '/^Summary of Failures:/ { f = 1 } f && /roce-doctor:/ { print "# failed in the package build: " $0 }' "$tmp/build.log"
ran=$(sed -n 's/^Ok: *\([0-9]*\).*/\1/p' "$tmp/build.log" | tail -1)
judge "the package build ran the unit suite, none failed (${ran:-no} tests passed)" \
	"$([ -n "$ran" ] && [ "$ran" -gt 0 ] && grep -qE '^Fail: +0 *$' "$tmp/build.log" &&
		grep -qE '^Timeout: +0 *$' "$tmp/build.log"; echo $?)" "$tmp/build.log"
[ -n "$deb" ] || finish
dpkg-deb -c "$deb" >"$tmp/contents"
for f in ./usr/bin/roce-doctor ./usr/share/man/man1/roce-doctor.1.gz ./lib/systemd/system/roce-doctor-serve.service \
	./etc/default/roce-doctor-serve ./usr/share/bash-completion/completions/roce-doctor \
	./usr/share/doc/roce-doctor/copyright ./usr/share/doc/roce-doctor/README.md.gz \
	./usr/share/doc/roce-doctor/schemas/check.json ./usr/share/doc/roce-doctor/schemas/snapshot.json; do
	judge "the package holds $f" "$(grep -q " $f\$" "$tmp/contents"; echo $?)" "$tmp/contents"
done

# 2. lintian: no error (its warnings are printed; the ones we cannot fix are overridden in debian/)
if command -v lintian >/dev/null; then
	lintian --tag-display-limit 0 "$deb" >"$tmp/lintian" 2>&1
	sed -n 's/^\([EW]\): /# lintian \1: /p' "$tmp/lintian"
	judge "lintian reports no error" "$(! grep -q '^E: ' "$tmp/lintian"; echo $?)" "$tmp/lintian"
else skip "lintian" "lintian missing"; fi

# 3. dpkg -i into a throwaway root: dpkg chroots there for the maintainer scripts, so it gets a /bin/sh
root=$tmp/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/usr/bin" "$root/usr/lib" "$root/etc" "$root/tmp"
for l in bin sbin lib lib64; do ln -s usr/$l "$root/$l"; done
: >"$root/var/lib/dpkg/status"
if [ -x /bin/busybox ]; then cp /bin/busybox "$root/usr/bin/sh"; else skip "maintainer scripts" "busybox-static missing"; fi
dpkg --root="$root" --force-depends -i "$deb" >"$tmp/dpkg" 2>&1
judge "dpkg --root -i installs it, maintainer scripts included" $? "$tmp/dpkg"
judge "dpkg records it installed, /etc/default/roce-doctor-serve as a conffile" \
	"$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Status} ${Conffiles}\n' roce-doctor |
		grep -q '^install ok installed  /etc/default/roce-doctor-serve '; echo $?)" "$tmp/dpkg"
rd=$root/usr/bin/roce-doctor
"$rd" --version >"$tmp/out" 2>&1
judge "the installed roce-doctor --version names 0.1.0" "$(grep -qx 'roce-doctor 0.1.0' "$tmp/out"; echo $?)" "$tmp/out"
"$rd" check --root "$fixtures/softroce" >"$tmp/out" 2>&1; rc=$?
judge "the installed roce-doctor check --root fixtures/softroce runs (exit 0-2, a verdict)" \
	"$([ $rc -le 2 ] && grep -qiE 'verdict|pass|warn|fail' "$tmp/out"; echo $?)" "$tmp/out"
MANPATH=$root/usr/share/man man -w roce-doctor >"$tmp/out" 2>&1
judge "man finds roce-doctor in section 1" "$(grep -q 'man1/roce-doctor.1.gz$' "$tmp/out"; echo $?)" "$tmp/out"

# 4. the unit, as installed: systemd's own verifier and its exposure score (the sandbox applied)
unit=$root/lib/systemd/system/roce-doctor-serve.service
judge "the unit runs the installed binary with the options file" \
	"$(grep -qx 'ExecStart=/usr/bin/roce-doctor serve $ROCE_DOCTOR_SERVE_OPTS' "$unit" &&
		grep -qx 'EnvironmentFile=-/etc/default/roce-doctor-serve' "$unit"; echo $?)" "$unit"
systemd-analyze security --offline=true --root="$root" roce-doctor-serve.service >"$tmp/sec" 2>&1
score=$(sed -n 's/.*Overall exposure level for roce-doctor-serve.service: \([0-9.]*\) \([A-Z]*\).*/\1 \2/p' "$tmp/sec")
echo "# systemd-analyze security: $score"
judge "systemd-analyze security: exposure OK (below 4.0)" \
	"$(awk -v s="${score%% *}" 'BEGIN { exit !(s != "" && s < 4.0) }'; echo $?)" "$tmp/sec"

# 5. the real systemd: nspawn boots it over the installed root (the host's /usr under the package's)
if ! command -v systemd-nspawn >/dev/null; then skip "roce-doctor-serve.service under systemd" "systemd-nspawn missing"; finish; fi
mkdir -p "$tmp/out.d" "$root/etc/systemd/system/multi-user.target.wants" "$root/root" "$root/var/tmp"
cp /etc/os-release "$root/etc/os-release"
cp "$(dirname "$0")/in-container.sh" "$root/etc/roce-pkg-test"
systemd-id128 new >"$root/etc/machine-id"   # not a first boot: no presets, no firstboot questions
printf '[Service]\nType=oneshot\nExecStart=/etc/roce-pkg-test\n[Install]\nWantedBy=multi-user.target\n' \
	>"$root/etc/systemd/system/roce-pkg-test.service"
ln -s ../roce-pkg-test.service "$root/etc/systemd/system/multi-user.target.wants/"
rm "$root/usr/bin/sh"     # the host's /usr (dash, bash, systemd, ss) shows through from here on
start=$SECONDS
timeout 120 systemd-nspawn -q -D "$root" --register=no --keep-unit --private-network \
	--overlay-ro=/usr:"$root/usr":/usr --bind="$tmp/out.d":/out -b systemd.firstboot=off systemd.unit=multi-user.target </dev/null >"$tmp/boot" 2>&1
echo "# container booted, ran and powered off in $((SECONDS - start)) s"
get() { sed -n "s/^$1=//p" "$tmp/out.d/results" 2>/dev/null; }
cat "$tmp/out.d/results" >>"$tmp/boot" 2>/dev/null; cat "$tmp/out.d/log" >>"$tmp/boot" 2>/dev/null
judge "systemd-analyze verify (in the container, over the installed files): no complaint" \
	"$([ "$(get verify_rc)" = 0 ] && [ ! -s "$tmp/out.d/verify" ]; echo $?)" "$tmp/out.d/verify"
judge "under systemd: enable --now starts it and it listens on 18516" \
	"$([ "$(get enable_rc)" = 0 ] && [ "$(get listening)" = 0 ] && [ "$(get active)" = active ]; echo $?)" "$tmp/boot"
# Where this machine itself lacks CAP_SYS_RESOURCE (a container), nothing in it can lift the hard memlock
# limit: systemd then sets the closest it can, the ceiling, for soft and hard alike
want_memlock="unlimited unlimited"
if [ $(( 0x$(sed -n 's/^CapBnd:[[:space:]]*//p' /proc/self/status) >> 24 & 1 )) -eq 0 ]; then
	hard=$(ulimit -Hl); [ "$hard" = unlimited ] || want_memlock="$((hard * 1024)) $((hard * 1024))"
	echo "# no CAP_SYS_RESOURCE here: the memlock ceiling is $hard KiB, the most LimitMEMLOCK=infinity can give"
fi
judge "under systemd: LimitMEMLOCK=infinity and NoNewPrivileges reach the process" \
	"$([ "$(get memlock_unit)" = infinity ] && [ "$(get memlock)" = "$want_memlock" ] && [ "$(get nonewprivs)" = 1 ]; echo $?)" "$tmp/boot"
cat "$tmp/out.d/peer.err" >>"$tmp/boot" 2>/dev/null
judge "under systemd: the sandboxed serve answers check --peer with its snapshot, reading all it reads unconfined" \
	"$(! grep -qE 'Permission denied|Operation not permitted' "$tmp/out.d/peer.err" && python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d.get("schema")!="roce-doctor/pair/v1")' \
		"$tmp/out.d/peer.json" 2>/dev/null; echo $?)" "$tmp/boot"
judge "under systemd: SIGKILLed, it is restarted (Restart=on-failure)" "$([ "$(get restarted)" = 0 ]; echo $?)" "$tmp/boot"
judge "under systemd: stop sends SIGTERM and serve exits 0 (Result=success)" \
	"$([ "$(get stop_rc)" = 0 ] && [ "$(get result)" = success ] && [ "$(get exit_status)" = 0 ]; echo $?)" "$tmp/boot"
finish
