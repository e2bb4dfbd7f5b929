// SPDX-License-Identifier: GPL-2.0-only
/* Whether we run inside a container, and which kind: the memlock ulimit and /dev/infiniband then come from
 * the container runtime (--ulimit memlock=-1:-1, --device), not from the host's PAM or systemd. */
#ifndef ROCE_DOCTOR_CONTAINER_H
#define ROCE_DOCTOR_CONTAINER_H

#include "model/container.h"
#include "util/rootfs.h"

/* Evidence a runtime leaves when it starts a container, each listed in out->evidence: container= in
 * /proc/1/environ (podman, systemd-nspawn, lxc), /run/.containerenv (podman), /proc/1/cgroup or /proc/self/cgroup
 * paths naming kubepods, libpod, docker or containerd (cgroup v1, or v2 without a cgroup namespace), an overlay
 * root in /proc/1/mountinfo whose layers are in a runtime's storage (/var/lib/docker/, containerd's, podman's
 * containers/storage), and PID 1 being a container init (docker-init, catatonit, tini, dumb-init). The first that
 * names a kind sets it ("container" when none does). /.dockerenv only adds to other evidence: alone it is a file
 * the image carried (a VM booted from an exported docker image), and kind stays empty with evidence saying so.
 * 0 or -errno. */
int container_detect(const struct rootfs *root, struct container_info *out);

#endif
