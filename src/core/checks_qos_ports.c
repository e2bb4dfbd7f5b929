// SPDX-License-Identifier: GPL-2.0-only
/* check's lossless audit: the qos.* rules over the RoCE ports NCCL will use, with NCCL_IB_TC and NCCL_IB_SL as
 * the job sets them (environment or nccl.conf, the one NCCL reads). */
#include "core/checks.h"
#include "core/qos/checks_qos.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/nccl_gid_choice.h"

static bool port_wanted(const struct check_input *in, const struct qos_port *q)
{
	const struct rdma_device *d = host_find_device(in->host, q->device);

	for (size_t i = 0; d && i < d->port_count; i++)
		if (d->ports[i].num == q->port)
			return !in->port_selected || in->port_selected(in, d, &d->ports[i]);
	return false;
}

/* How the newest NCCL found reads NCCL_IB_FIFO_TC (NCCL's net_ib: IB_FIFO_TC from 2.22.3, default 0 there
 * and -1 from 2.24.3); its version into version. */
static enum qos_fifo_reader fifo_reader(const struct nccl_libs *libs, char *version, size_t size)
{
	struct nccl_version best = { 0 }, v;
	bool any = false;

	for (size_t i = 0; libs && i < libs->count; i++) {
		char text[32];

		if (libs->items[i].kind != NCCL_LIB_CORE)
			continue;
		/* "2.28.3", or a package's "2.28.3-1+cuda13.0": the leading X.Y.Z */
		snprintf(text, sizeof(text), "%.*s", (int)strspn(libs->items[i].version, "0123456789."),
			 libs->items[i].version);
		if (nccl_version_parse(text, &v) < 0)
			continue;
		if (!any || v.major > best.major || (v.major == best.major && (v.minor > best.minor ||
		    (v.minor == best.minor && v.patch > best.patch))))
			best = v;
		any = true;
	}
	if (!any)
		return QOS_FIFO_ANY;
	nccl_version_format(&best, version, size);
	if (best.major != 2)
		return best.major > 2 ? QOS_FIFO_MINUS1_UNSET : QOS_FIFO_NONE;
	return best.minor < 22 ? QOS_FIFO_NONE : best.minor < 24 ? QOS_FIFO_ZERO_UNSET : QOS_FIFO_MINUS1_UNSET;
}

void check_lossless(const struct check_input *in, struct findings *out)
{
	const struct nccl_setting *tc = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_TC") : NULL;
	const struct nccl_setting *sl = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_SL") : NULL;
	const struct nccl_setting *fifo = in->nccl ? nccl_conf_get(in->nccl, "NCCL_IB_FIFO_TC") : NULL;
	struct qos_job job = { tc ? tc->value : NULL, tc ? tc->source : NULL, sl ? sl->value : NULL,
			       fifo ? fifo->value : NULL, fifo ? fifo->source : NULL, QOS_FIFO_ANY, NULL };
	struct qos_host view = { 0 };
	char version[32] = "";

	if (!in->qos || in->qos->count == 0)
		return;
	job.fifo_reader = fifo_reader(in->nccl_libs, version, sizeof(version));
	job.nccl_version = version[0] ? version : NULL;
	view.ports = malloc(in->qos->count * sizeof(*view.ports));
	if (!view.ports)
		return;
	for (size_t i = 0; i < in->qos->count; i++)
		if (port_wanted(in, &in->qos->ports[i]))
			view.ports[view.count++] = in->qos->ports[i];
	check_qos(&view, &job, out);
	free(view.ports);
}
