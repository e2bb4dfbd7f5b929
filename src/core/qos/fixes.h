// SPDX-License-Identifier: GPL-2.0-only
/* The commands that change one link of a port's lossless chain to another node's value, shared by compare and
 * the pair rules so that both say the same command (check --peer groups findings by their fix's command). */
#ifndef ROCE_DOCTOR_CORE_QOS_FIXES_H
#define ROCE_DOCTOR_CORE_QOS_FIXES_H

#include <stddef.h>
#include <stdint.h>

#include "model/qos.h"

/* One fix: the command, and the same change in the other tool (or "" when none). */
struct qos_fix {
	char cmd[256];
	char alt[256];
};

/* The PFC-enabled priorities as a list: "3", "3,4", "none". */
void qos_pfc_list(uint8_t mask, char *buf, size_t size);

/* PFC from have to want: `dcb pfc set dev IF prio-pfc 3:on 4:off`; alt: `mlnx_qos -i IF --pfc 0,0,0,1,...`. */
void qos_fix_pfc(const char *netdev, uint8_t have, uint8_t want, struct qos_fix *fix);

/* Trust want (pcp or dscp): mlnx_qos's --trust; alt: iproute2's way on mlx5, where the APP table's DSCP entries
 * turn trust dscp on and off; prio is where DSCP 26 should land (trust dscp). */
void qos_fix_trust(const char *netdev, enum qos_trust want, unsigned prio, struct qos_fix *fix);

/* DSCP dscp to priority prio: `dcb app replace dev IF dscp-prio D:P`; alt: mlnx_qos's --dscp2prio. */
void qos_fix_dscp(const char *netdev, unsigned dscp, unsigned prio, struct qos_fix *fix);

/* The traffic class tc on a port: `export NCCL_IB_TC=TC` in the job, or, where the port forces its class
 * (forced >= 0), the class file its packets take it from. No alt. */
void qos_fix_class(const char *device, unsigned port, int forced, int tc, struct qos_fix *fix);

/* rdma_cm's default ToS on DEV/PORT: `cma_roce_tos -d DEV -p PORT -t TOS`; alt: the configfs file itself, its
 * directory made first (rdma_cm lists a device there only once someone made it). */
void qos_fix_roce_tos(const char *device, unsigned port, int tos, struct qos_fix *fix);

/* The class a port forces on every QP: tc >= 0 forces it, -1 lifts it (NCCL_IB_TC decides again). No alt. */
void qos_fix_forced_tc(const char *device, unsigned port, int tc, struct qos_fix *fix);

/* NCCL_IB_FIFO_TC to value in the job's environment; NULL: unset it. No alt. */
void qos_fix_fifo_tc(const char *value, struct qos_fix *fix);

#endif
