// SPDX-License-Identifier: GPL-2.0-only
/* The lossless chain of one RoCE port: from the traffic class NCCL's QPs carry to the priority their packets
 * travel on, and whether that priority is lossless (PFC) or congestion-controlled (ECN). A pure function. */
#ifndef ROCE_DOCTOR_CORE_QOS_CHAIN_H
#define ROCE_DOCTOR_CORE_QOS_CHAIN_H

#include <stdbool.h>
#include <stddef.h>

#include "model/qos.h"

struct qos_port_input {
	const struct qos_dcb *dcb;
	int forced_tc;               /* the port's forced traffic class (tc/N/traffic_class); -1 none */
	const char *nccl_tc;         /* NCCL_IB_TC as NCCL reads it; NULL unset (NCCL's default, 0) */
	const char *nccl_sl;         /* NCCL_IB_SL; NULL unset (0) */
	const char *class_from;      /* non-NULL: follow class instead of NCCL_IB_TC's ("rdma_cm's default_roce_tos") */
	int class;
	bool sl_from_tos;            /* rdma_cm: the kernel takes the SL (the PCP) from the ToS through the VLAN's map */
	const uint8_t *vlan_egress;  /* the VLAN's egress map, skb priority -> PCP; NULL not read */
	bool vlan;                   /* the RoCE netdev is a VLAN (its frames carry a PCP) */
	enum qos_tristate ecn[QOS_PRIOS];   /* ECN (DCQCN reaction point) per priority */
};

struct qos_chain {
	int tc;                      /* the traffic class the packets carry; -1 when NCCL_IB_TC is not a number */
	const char *tc_from;         /* "NCCL_IB_TC", "forced", "default", or the input's class_from */
	unsigned dscp;               /* tc >> 2 */
	bool prio_known;
	unsigned prio;
	const char *prio_from;       /* "dscp map", "default dscp map", "pcp (VLAN, NCCL_IB_SL)", "pcp (VLAN egress map)",
				      * "untagged" */
	unsigned skb_prio;           /* with "pcp (VLAN egress map)": the ToS's skb priority the map was read at */
	enum qos_tristate pfc;       /* PFC on that priority */
	enum qos_tristate ecn;
};

/* The chain's input for one port of the model, with the job's NCCL_IB_TC and NCCL_IB_SL (NULL: unset). */
void qos_port_input_of(const struct qos_port *p, const char *nccl_tc, const char *nccl_sl, struct qos_port_input *in);

/* NCCL_IB_TC as NCCL reads it into the GRH's traffic class: 0..255, -1 when it is not one. */
int qos_parse_class(const char *s);

/* The priority DSCP d lands on under trust dscp: the APP table's entry, else mlx5's default map (d / 8). */
unsigned qos_dscp_lands_on(const struct qos_dcb *dcb, unsigned dscp);

/* The skb priority the kernel gives a ToS (rt_tos2priority: 0, 2, 4 or 6), as rdma_cm does before the VLAN map. */
unsigned qos_tos_skb_priority(int tos);

/* Follows the chain; never fails: what is not known stays unknown in the result. */
void qos_chain_follow(const struct qos_port_input *in, struct qos_chain *out);

/* The chain in one line for people, step by step ("traffic class 0 (NCCL_IB_TC unset) -> DSCP 0 -> ..."). */
void qos_chain_describe(const struct qos_port_input *in, const struct qos_chain *c, char *buf, size_t len);

/* The NCCL_IB_TC that lands on priority prio under this port's settings (DSCP's six bits then ECT(0), as
 * NCCL_IB_TC=106 for DSCP 26); -1 when no DSCP reaches it (trust pcp, or nothing mapped to it). */
int qos_tc_for_priority(const struct qos_dcb *dcb, unsigned prio);

/* The lowest PFC-enabled priority, -1 when none. */
int qos_lossless_priority(const struct qos_dcb *dcb);

#endif
