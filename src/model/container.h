// SPDX-License-Identifier: GPL-2.0-only
/* Which container we run in, as data (probe/container.h detects it). */
#ifndef ROCE_DOCTOR_MODEL_CONTAINER_H
#define ROCE_DOCTOR_MODEL_CONTAINER_H


struct container_info {
	char kind[32];       /* "docker", "podman", "kubernetes", "containerd", "lxc", "systemd-nspawn", or
	                        another value of container=; empty when nothing says we are in one */
	char evidence[64];   /* where it was seen: "/.dockerenv", "/proc/1/cgroup", "/proc/1/environ" */
};

#endif
