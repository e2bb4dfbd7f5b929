// SPDX-License-Identifier: GPL-2.0-only
/* Which RDMA devices nccl-env leaves out on a GPU node, and NCCL_IB_HCA spelt for the real host afterwards. */
#include "core/nccl_rails.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/topo.h"

static double device_gbps(const struct rdma_device *d)
{
	double best = 0;

	for (size_t p = 0; p < d->port_count; p++)
		best = d->ports[p].rate_gbps > best ? d->ports[p].rate_gbps : best;
	return best;
}

static long function_of(const struct pci_topology *t, const char *device)
{
	for (size_t i = 0; i < t->count; i++)
		if (t->functions[i].role == PCI_ROLE_NIC && strcmp(t->functions[i].rdma_device, device) == 0)
			return (long)i;
	return -1;
}

int nccl_rails_view(const struct host *host, const struct pci_topology *t, struct host *view,
		    struct nccl_left_out *lo, size_t max, size_t *count)
{
	double slowest_rail = 0;
	bool rail_numa[256] = { false }, any_rail = false, numa_unknown = false;
	char rails[256] = "";
	size_t len = 0;

	*view = *host;
	*count = 0;
	for (size_t i = 0; t && i < t->count; i++) {
		const struct rdma_device *d;
		double gbps;

		if (t->functions[i].role != PCI_ROLE_NIC || !topo_is_rail(t, i) ||
		    !(d = host_find_device(host, t->functions[i].rdma_device)))
			continue;
		gbps = device_gbps(d);
		slowest_rail = !any_rail || (gbps > 0 && gbps < slowest_rail) ? gbps : slowest_rail;
		any_rail = true;
		if (t->functions[i].numa_node >= 0 && t->functions[i].numa_node < 256)
			rail_numa[t->functions[i].numa_node] = true;
		else
			numa_unknown = true;
		if (len < sizeof(rails))
			len += (size_t)snprintf(rails + len, sizeof(rails) - len, "%s%s", len ? "," : "", d->name);
	}
	if (!any_rail)
		return 0;
	view->devices = calloc(host->device_count ? host->device_count : 1, sizeof(*view->devices));
	if (!view->devices)
		return -ENOMEM;
	view->device_count = 0;
	for (size_t k = 0; k < host->device_count; k++) {
		const struct rdma_device *d = &host->devices[k];
		long i = function_of(t, d->name);
		const struct pci_function *f = i >= 0 ? &t->functions[i] : NULL;
		double gbps = device_gbps(d);
		bool slower, elsewhere;
		char why[400];

		if (!f || topo_is_rail(t, (size_t)i)) {
			view->devices[view->device_count++] = *d;
			continue;
		}
		slower = gbps > 0 && slowest_rail > 0 && gbps < slowest_rail;
		elsewhere = !numa_unknown && f->numa_node >= 0 && (f->numa_node >= 256 || !rail_numa[f->numa_node]);
		if (!slower && !elsewhere) {
			view->devices[view->device_count++] = *d;
			continue;
		}
		snprintf(why, sizeof(why), "front-end: no GPU's nearest NIC (the rails are %s; roce-doctor topo)%s%s", rails,
			 slower ? ", and slower than them" : "", elsewhere ? ", on a NUMA node none of them is on" : "");
		for (size_t p = 0; p < d->port_count && *count < max; p++) {
			struct nccl_left_out *o = &lo[(*count)++];

			memset(o, 0, sizeof(*o));
			snprintf(o->device, sizeof(o->device), "%s", d->name);
			o->port = d->ports[p].num;
			snprintf(o->netdev, sizeof(o->netdev), "%s", d->ports[p].netdev);
			if (slower)
				snprintf(o->reason, sizeof(o->reason), "%s: %g Gb/s against %g", why, d->ports[p].rate_gbps,
					 slowest_rail);
			else
				snprintf(o->reason, sizeof(o->reason), "%s: NUMA %d", why, f->numa_node);
		}
	}
	return 0;
}

void nccl_rails_finish(const struct host *host, const struct nccl_left_out *lo, size_t count, struct nccl_env *env)
{
	struct nccl_port_ref refs[NCCL_LEFT_OUT_MAX];
	char names[NCCL_LEFT_OUT_MAX][64];
	size_t n = 0;

	if (count == 0)
		return;
	for (size_t v = 0; v < env->count; v++) {
		char *value = env->vars[v].value, *save = NULL, *entry, copy[sizeof(env->vars[v].value)];

		if (strcmp(env->vars[v].name, "NCCL_IB_HCA") != 0)
			continue;
		snprintf(copy, sizeof(copy), "%s", value[0] == '=' ? value + 1 : value);
		for (entry = strtok_r(copy, ",", &save); entry && n < NCCL_LEFT_OUT_MAX; entry = strtok_r(NULL, ",", &save)) {
			char *colon = strrchr(entry, ':');

			snprintf(names[n], sizeof(names[n]), "%.*s", colon ? (int)(colon - entry) : (int)strlen(entry), entry);
			refs[n] = (struct nccl_port_ref){ names[n], colon ? (unsigned)strtoul(colon + 1, NULL, 10) : 1 };
			n++;
		}
		nccl_hca_value(host, refs, n, false, value, sizeof(env->vars[v].value));
	}
	for (size_t i = 0; i < count; i++) {
		if (env->left_out_count < NCCL_LEFT_OUT_MAX)
			env->left_out[env->left_out_count++] = lo[i];
		else
			env->left_out_dropped++;
	}
}
