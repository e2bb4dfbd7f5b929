// SPDX-License-Identifier: GPL-2.0-only
/* Names and lookups over the lossless chain's model. */
#include "model/qos.h"

#include <stdlib.h>

const char *qos_trust_name(enum qos_trust trust)
{
	switch (trust) {
	case QOS_TRUST_PCP: return "pcp";
	case QOS_TRUST_DSCP: return "dscp";
	default: return "unknown";
	}
}

const char *qos_trust_source_name(enum qos_trust_source src)
{
	switch (src) {
	case QOS_TRUST_FROM_APPTRUST: return "apptrust";
	case QOS_TRUST_FROM_APP_TABLE: return "app table";
	case QOS_TRUST_FROM_SYSFS: return "sysfs";
	case QOS_TRUST_FROM_MLNX_QOS: return "mlnx_qos";
	default: return "none";
	}
}

bool qos_dscp_priority(const struct qos_dcb *dcb, unsigned dscp, unsigned *prio)
{
	if (!dcb->app_known || dscp >= QOS_DSCPS || !(dcb->dscp_mapped & (UINT64_C(1) << dscp)))
		return false;
	*prio = dcb->dscp_prio[dscp];
	return true;
}

bool qos_buffer_lossless(const struct qos_dcb *dcb, unsigned b)
{
	if (b >= QOS_PRIOS || !dcb->buffer_size_known)
		return true;
	return dcb->buffer_size[b] > 0 && (!dcb->buffer_xoff_known || dcb->buffer_xoff[b] > 0);
}

void qos_host_free(struct qos_host *q)
{
	free(q->ports);
	q->ports = NULL;
	q->count = 0;
}
