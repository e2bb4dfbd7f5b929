// SPDX-License-Identifier: GPL-2.0-only
/* Which device, port, netdev and file each finding is about, read off its subject against the host model. */
#ifndef ROCE_DOCTOR_FINDINGS_LOCATE_H
#define ROCE_DOCTOR_FINDINGS_LOCATE_H

#include "core/findings.h"
#include "model/host.h"

/* Fills device, port, netdev and file of every finding (left empty where the subject names none):
 *   "mlx5_0/1"                      device mlx5_0, port 1, netdev the port's
 *   "ens19f0np0"                    netdev, and the RDMA port it sits under
 *   "/etc/security/limits.conf:11"  file /etc/security/limits.conf
 *   "NCCL_IB_HCA (/etc/nccl.conf:2)" file /etc/nccl.conf
 * A subject only counts as a port or netdev when the host has it, so "ibv_reg_mr" or "firewalld" stay empty. */
void findings_locate(struct findings *f, const struct host *host);

#endif
