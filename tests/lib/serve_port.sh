# SPDX-License-Identifier: GPL-2.0-only
# A test's serve listens on a port the kernel picks (serve --port 0), never on one the test guesses: tests
# that run side by side (meson's parallel run, the package build) then never race each other, or a client's
# ephemeral port, for it.
#   serve_port LOG PID   waits for the serve's "listening" line in LOG, for at most 60 s and no longer than
#                        PID lives, and prints the port it names; status 1 when none came
serve_port() {
	local log=$1 pid=$2 p alive=0
	for _ in $(seq 600); do
		kill -0 "$pid" 2>/dev/null; alive=$?
		p=$(sed -n 's/.*listening[": ]*on [^"]* port \([1-9][0-9]*\).*/\1/p' "$log" 2>/dev/null | head -1)
		if [ -n "$p" ]; then echo "$p"; return 0; fi
		[ "$alive" -eq 0 ] || return 1
		sleep 0.1
	done
	return 1
}
#   free_port            prints a TCP port of 127.0.0.1 that was free a moment ago (the kernel's pick), for a
#                        request that must name one; the kernel hands its ports out in a scattered order, and
#                        the test retries where another process took it in between
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
