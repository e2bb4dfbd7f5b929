// SPDX-License-Identifier: GPL-2.0-only
/* Which container we run in, as data (probe/container.h detects it). */
#ifndef ROCE_DOCTOR_MODEL_CONTAINER_H
#define ROCE_DOCTOR_MODEL_CONTAINER_H


struct container_info {
	char kind[32];       /* "docker", "podman", "kubernetes", "containerd", "lxc", "systemd-nspawn", another value
	                        of container=, or "container"; empty when nothing a runtime sets up says we are in one */
	char evidence[192];  /* what said so, comma-separated: "/proc/1/cgroup (docker)", "/proc/1/mountinfo (overlay
	                        root in /var/lib/docker/)", "/.dockerenv"; with kind empty, "/.dockerenv alone (...)"
	                        or empty */
};

#endif
