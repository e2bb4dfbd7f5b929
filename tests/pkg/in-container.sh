#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# Runs as a unit inside the systemd-nspawn container deb_test.sh boots (systemd as PID 1, the .deb installed):
# the packaged roce-doctor-serve.service under the real systemd. Writes KEY=VALUE lines and logs into /out,
# then powers the container off.
set -u
exec >/out/log 2>&1
say() { echo "$1=$2" >>/out/results; }
show() { systemctl show -P "$1" roce-doctor-serve.service; }
until_true() { # SECS CMD...: poll CMD every 0.2 s (bounded)
	local end=$((SECONDS + $1)); shift
	until "$@"; do [ $SECONDS -lt "$end" ] || return 1; sleep 0.2; done
}
listening() { ss -Hltn 'sport = :18516' | grep -q .; }

systemd-analyze verify --man=no /lib/systemd/system/roce-doctor-serve.service >/out/verify 2>&1; say verify_rc $?
systemctl enable --now roce-doctor-serve.service; say enable_rc $?
until_true 30 listening; say listening $?
say active "$(show ActiveState)"
pid1=$(show MainPID)
# the service as the unit confines it: rlimit and its device policy, from the kernel's view of the process
# (no awk: the container's /etc has no alternatives)
say memlock "$(sed -n 's/^Max locked memory  *\([^ ]*\)  *\([^ ]*\) .*/\1 \2/p' /proc/"$pid1"/limits)"
say memlock_unit "$(show LimitMEMLOCK)"
say nonewprivs "$(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /proc/"$pid1"/status)"
# check --peer asks the serve for its snapshot over TCP: the serve reads /sys, /proc and netlink inside the
# sandbox and answers; no RDMA device here, so the rails cannot be probed (no bw). Node a is read with --root /
# (a tree, not the live host): check --peer refuses this host's own address as the peer of the live host.
timeout 60 roce-doctor --root / check --peer 127.0.0.1 --no-bw --json >/out/peer.json 2>/out/peer.err; say peer_rc $?
# Restart=on-failure: a crash (SIGKILL) brings it back
kill -KILL "$pid1"
until_true 30 eval '[ "$(show NRestarts)" = 1 ] && [ "$(show ActiveState)" = active ] && listening'; say restarted $?
# stop: SIGTERM, and serve exits 0 (a clean stop, not a failure)
systemctl stop roce-doctor-serve.service; say stop_rc $?
say result "$(show Result)"
say exit_status "$(show ExecMainStatus)"
systemd-analyze security --no-pager roce-doctor-serve.service >/out/security 2>&1
journalctl --no-pager -u roce-doctor-serve.service >/out/journal 2>&1
say done 1
systemctl poweroff --no-block
