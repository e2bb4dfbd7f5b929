// SPDX-License-Identifier: GPL-2.0-only
/* check's lossless audit: the qos.* rules over the RoCE ports NCCL will use, with NCCL_IB_TC and NCCL_IB_SL as
 * the job sets them (environment or nccl.conf, the one NCCL reads). */
#include "core/checks.h"
#include "core/qos/checks_qos.h"

#include <stdlib.h>
#include <string.h>

static bool port_wanted(const struct check_input *in, const struct qos_port *q)
{
	const struct rdma_device *d = host_find_device(in->host, q->device);

	for (size_t i = 0; d && i < d->port_count; i++)
		if (d->ports[i].num == q->port)
			return !in->port_selected || in->port_selected(in, d, &d->ports[i]);
	return false;
}

void check_lossless(const struct check_input *in, struct findings *out)
{
	const struct nccl_setting *tc = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_TC") : NULL;
	const struct nccl_setting *sl = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_SL") : NULL;
	struct qos_job job = { tc ? tc->value : NULL, tc ? tc->source : NULL, sl ? sl->value : NULL };
	struct qos_host view = { 0 };

	if (!in->qos || in->qos->count == 0)
		return;
	view.ports = malloc(in->qos->count * sizeof(*view.ports));
	if (!view.ports)
		return;
	for (size_t i = 0; i < in->qos->count; i++)
		if (port_wanted(in, &in->qos->ports[i]))
			view.ports[view.count++] = in->qos->ports[i];
	check_qos(&view, &job, out);
	free(view.ports);
}
