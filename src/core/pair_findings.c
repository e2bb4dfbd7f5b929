// SPDX-License-Identifier: GPL-2.0-only
/* The pair findings list: check's findings, each tagged with the node whose fix it carries. */
#include <stdarg.h>
#include <stdio.h>

#include "core/pair.h"

const char *const pair_ids[] = {
	"pair.rail", "pair.mtu", "pair.speed", "pair.gid", "pair.gid_index", "pair.same_subnet",
	"pair.rdma", "pair.bootstrap", "pair.bw", "pair.pfc", "pair.trust", "pair.dscp_map", "pair.traffic_class",
	"pair.roce_tos", "pair.forced_tc", "pair.fifo_tc", NULL,
};

void pair_add(struct pair_findings *out, char node, const char *id, enum severity severity, const char *subject,
	      const char *fix, const char *fmt, ...)
{
	size_t before = out->list.count;
	char message[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(message, sizeof(message), fmt, ap);
	va_end(ap);
	finding_add(&out->list, id, severity, subject, fix, "%s", message);
	if (out->list.count > before)
		out->node[before] = node;
}

void pair_node_name(const struct pair_side *s, char *buf, size_t size)
{
	if (s->hostname && *s->hostname)
		snprintf(buf, size, "%s (%s)", s->node, s->hostname);
	else
		snprintf(buf, size, "%s", s->node);
}
