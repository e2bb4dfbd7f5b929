// SPDX-License-Identifier: GPL-2.0-only
/* A PFC priority whose receive buffer cannot hold. mlx5 pauses a priority by its buffer's xoff threshold: a
 * priority mapped (mlnx_qos --prio2buffer, dcb buffer) into a buffer with no bytes, or into one the driver keeps
 * lossy (xoff 0), is dropped under load while every PFC setting reads right. The fix moves the priority into a
 * buffer that pauses, or, where there is none, gives its buffer the bytes (the driver then sets its threshold). */
#include "core/qos/pfc_buffer.h"

#include <stdio.h>
#include <string.h>

#include "util/text_append.h"

/* A buffer, other than not, that pauses: bytes and an xoff threshold; -1 when none. */
static int pausing_buffer(const struct qos_dcb *d, unsigned not)
{
	for (unsigned b = 0; b < QOS_PRIOS; b++)
		if (b != not && d->buffer_size[b] > 0 && (!d->buffer_xoff_known || d->buffer_xoff[b] > 0))
			return (int)b;
	return -1;
}

/* Whether some PFC priority lands in buffer b. */
static bool holds_pfc(const struct qos_dcb *d, unsigned b)
{
	for (unsigned p = 0; p < QOS_PRIOS; p++)
		if ((d->pfc_enabled >> p & 1) && d->prio_buffer[p] == b)
			return true;
	return false;
}

/* Bytes buffer b can be given: the spare, else what the port has beyond the buffers, else half of the largest
 * buffer no PFC priority uses (*from: that buffer, -1 when the bytes are free). 0: none. */
static uint32_t bytes_for(const struct qos_dcb *d, unsigned b, int *from)
{
	uint64_t sum = 0;
	uint32_t most = 0;

	*from = -1;
	if (d->spare_buffer_size > 0)
		return d->spare_buffer_size;
	for (unsigned i = 0; i < QOS_PRIOS; i++)
		sum += d->buffer_size[i];
	if (d->port_buffer_size > sum)
		return (uint32_t)(d->port_buffer_size - sum);
	for (unsigned i = 0; i < QOS_PRIOS; i++)
		if (i != b && !holds_pfc(d, i) && d->buffer_size[i] > most) {
			most = d->buffer_size[i];
			*from = (int)i;
		}
	return most / 2;
}

static void map_fix(const struct qos_port *p, unsigned prio, unsigned to, char *fix, size_t size)
{
	const struct qos_dcb *d = &p->dcb;

	fix[0] = '\0';
	text_append(fix, size, "mlnx_qos -i %s --prio2buffer ", p->netdev);
	for (unsigned i = 0; i < QOS_PRIOS; i++)
		text_append(fix, size, "%s%u", i ? "," : "", i == prio ? to : d->prio_buffer[i]);
	text_append(fix, size, "   # priority %u into buffer %u (%u bytes", prio, to, d->buffer_size[to]);
	if (d->buffer_xoff_known)
		text_append(fix, size, ", xoff at %u", d->buffer_xoff[to]);
	text_append(fix, size, ")\ndcb buffer set dev %s prio-buffer %u:%u   # or the same with iproute2", p->netdev, prio, to);
}

static bool size_fix(const struct qos_port *p, unsigned b, char *fix, size_t size)
{
	const struct qos_dcb *d = &p->dcb;
	uint32_t want[QOS_PRIOS];
	int from;
	uint32_t extra = bytes_for(d, b, &from);

	if (extra == 0)
		return false;
	memcpy(want, d->buffer_size, sizeof(want));
	want[b] += extra;
	if (from >= 0)
		want[from] -= extra;
	fix[0] = '\0';
	text_append(fix, size, "mlnx_qos -i %s --buffer_size ", p->netdev);
	for (unsigned i = 0; i < QOS_PRIOS; i++)
		text_append(fix, size, "%s%u", i ? "," : "", want[i]);
	text_append(fix, size, "   # buffer %u gets %u bytes", b, want[b]);
	if (from >= 0)
		text_append(fix, size, " from lossy buffer %d", from);
	text_append(fix, size, "; the driver then sets its xoff threshold\ndcb buffer set dev %s buffer-size %u:%u", p->netdev,
		    b, want[b]);
	if (from >= 0)
		text_append(fix, size, " %d:%u", from, want[from]);
	text_append(fix, size, "   # or the same with iproute2");
	return true;
}

void qos_check_pfc_buffer(const struct qos_port *p, struct findings *out)
{
	const struct qos_dcb *d = &p->dcb;
	char subject[96], fix[640], ok[256] = "";
	bool any = false;

	if (!d->known || !d->pfc_known || !d->buffer_known || !d->buffer_size_known || !d->pfc_enabled)
		return;
	snprintf(subject, sizeof(subject), "%s/%u", p->device, p->port);
	for (unsigned prio = 0; prio < QOS_PRIOS; prio++) {
		unsigned b = d->prio_buffer[prio];
		int to;

		if (!(d->pfc_enabled >> prio & 1))
			continue;
		if (qos_buffer_lossless(d, b)) {
			text_append(ok, sizeof(ok), "%spriority %u in buffer %u (%u bytes", ok[0] ? ", " : "", prio, b,
				    d->buffer_size[b]);
			if (d->buffer_xoff_known)
				text_append(ok, sizeof(ok), ", xoff at %u", d->buffer_xoff[b]);
			text_append(ok, sizeof(ok), ")");
			continue;
		}
		any = true;
		to = pausing_buffer(d, b);
		if (to >= 0)
			map_fix(p, prio, (unsigned)to, fix, sizeof(fix));
		else if (!size_fix(p, b, fix, sizeof(fix)))
			snprintf(fix, sizeof(fix), "mlnx_qos -i %s --buffer_size ...   # no bytes are free: shrink a buffer no "
				 "PFC priority uses and give them to buffer %u (sizes in /sys/class/net/%s/qos/buffer_size)",
				 p->netdev, b, p->netdev);
		finding_add(out, "qos.pfc_buffer", SEVERITY_WARN, subject, fix,
			    "%s: PFC priority %u lands in receive buffer %u, which %s: the port drops that priority's "
			    "packets instead of pausing its sender", p->netdev, prio, b,
			    d->buffer_size[b] == 0 ? "has no bytes (size 0)" : "has no xoff threshold (lossy)");
	}
	if (!any)
		finding_add(out, "qos.pfc_buffer", SEVERITY_OK, subject, NULL, "%s: %s: pauses before it overflows",
			    p->netdev, ok);
}
