// SPDX-License-Identifier: GPL-2.0-only
/* Whether we run inside a container, and which kind: the memlock ulimit and /dev/infiniband then come from
 * the container runtime (--ulimit memlock=-1:-1, --device), not from the host's PAM or systemd. */
#ifndef ROCE_DOCTOR_CONTAINER_H
#define ROCE_DOCTOR_CONTAINER_H

#include "model/container.h"
#include "util/rootfs.h"

/* Looks at, in order: container= in /proc/1/environ (set by podman, systemd-nspawn, lxc), /run/.containerenv
 * (podman), /.dockerenv (docker), then /proc/1/cgroup and /proc/self/cgroup paths naming kubepods, docker,
 * libpod or containerd (cgroup v1, or v2 without a cgroup namespace). 0 or -errno. */
int container_detect(const struct rootfs *root, struct container_info *out);

#endif
