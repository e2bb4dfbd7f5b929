// SPDX-License-Identifier: GPL-2.0-only
/* The fix commands of one link of the lossless chain, in iproute2's dcb and MLNX_OFED's mlnx_qos. */
#include "core/qos/fixes.h"

#include <stdio.h>

#include "util/text_append.h"

void qos_pfc_list(uint8_t mask, char *buf, size_t size)
{
	buf[0] = '\0';
	for (unsigned p = 0; p < QOS_PRIOS; p++)
		if ((mask >> p) & 1)
			text_append(buf, size, "%s%u", buf[0] ? "," : "", p);
	if (!buf[0])
		snprintf(buf, size, "none");
}

void qos_fix_pfc(const char *netdev, uint8_t have, uint8_t want, struct qos_fix *fix)
{
	/* only the priorities that change: dcb leaves the others as they are */
	snprintf(fix->cmd, sizeof(fix->cmd), "dcb pfc set dev %s prio-pfc", netdev);
	for (unsigned p = 0; p < QOS_PRIOS; p++)
		if (((have ^ want) >> p) & 1)
			text_append(fix->cmd, sizeof(fix->cmd), " %u:%s", p, (want >> p) & 1 ? "on" : "off");
	snprintf(fix->alt, sizeof(fix->alt), "mlnx_qos -i %s --pfc ", netdev);
	for (unsigned p = 0; p < QOS_PRIOS; p++)
		text_append(fix->alt, sizeof(fix->alt), "%s%u", p ? "," : "", (want >> p) & 1);
}

void qos_fix_trust(const char *netdev, enum qos_trust want, unsigned prio, struct qos_fix *fix)
{
	if (want == QOS_TRUST_DSCP) {
		snprintf(fix->cmd, sizeof(fix->cmd), "mlnx_qos -i %s --trust dscp", netdev);
		snprintf(fix->alt, sizeof(fix->alt), "dcb app add dev %s dscp-prio 26:%u", netdev, prio);
	} else {
		snprintf(fix->cmd, sizeof(fix->cmd), "mlnx_qos -i %s --trust pcp", netdev);
		snprintf(fix->alt, sizeof(fix->alt), "dcb app flush dev %s dscp-prio", netdev);
	}
}

void qos_fix_dscp(const char *netdev, unsigned dscp, unsigned prio, struct qos_fix *fix)
{
	snprintf(fix->cmd, sizeof(fix->cmd), "dcb app replace dev %s dscp-prio %u:%u", netdev, dscp, prio);
	snprintf(fix->alt, sizeof(fix->alt), "mlnx_qos -i %s --dscp2prio set,%u,%u", netdev, dscp, prio);
}

void qos_fix_class(const char *device, unsigned port, int forced, int tc, struct qos_fix *fix)
{
	if (forced >= 0)
		snprintf(fix->cmd, sizeof(fix->cmd), "echo %d > /sys/class/infiniband/%s/tc/%u/traffic_class", tc, device,
			 port);
	else
		snprintf(fix->cmd, sizeof(fix->cmd), "export NCCL_IB_TC=%d", tc);
	fix->alt[0] = '\0';
}

void qos_fix_roce_tos(const char *device, unsigned port, int tos, struct qos_fix *fix)
{
	snprintf(fix->cmd, sizeof(fix->cmd), "cma_roce_tos -d %s -p %u -t %d", device, port, tos);
	snprintf(fix->alt, sizeof(fix->alt), "mkdir -p /sys/kernel/config/rdma_cm/%s && echo %d > "
		 "/sys/kernel/config/rdma_cm/%s/ports/%u/default_roce_tos", device, tos, device, port);
}

void qos_fix_forced_tc(const char *device, unsigned port, int tc, struct qos_fix *fix)
{
	snprintf(fix->cmd, sizeof(fix->cmd), "echo %d > /sys/class/infiniband/%s/tc/%u/traffic_class", tc < 0 ? -1 : tc,
		 device, port);
	fix->alt[0] = '\0';
}

void qos_fix_fifo_tc(const char *value, struct qos_fix *fix)
{
	if (value)
		snprintf(fix->cmd, sizeof(fix->cmd), "export NCCL_IB_FIFO_TC=%s", value);
	else
		snprintf(fix->cmd, sizeof(fix->cmd), "unset NCCL_IB_FIFO_TC");
	fix->alt[0] = '\0';
}
