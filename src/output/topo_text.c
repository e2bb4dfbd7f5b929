// SPDX-License-Identifier: GPL-2.0-only
/* The topo document as text. The matrix keeps nvidia-smi's words so the two can be read side by side. */
#include "output/topo_text.h"

#include <stdlib.h>
#include <string.h>

#include "output/render.h"

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "-";
}

/* "mlx5_0,mlx5_1" */
static void join(const json_t *list, char *buf, size_t size)
{
	size_t i, len = 0;
	json_t *v;

	buf[0] = '\0';
	json_array_foreach(list, i, v) {
		int n = snprintf(buf + len, size - len, "%s%s", i ? "," : "", json_string_value(v));

		if (n < 0 || (size_t)n >= size - len)
			break;
		len += (size_t)n;
	}
}

/* "32.0 GT/s PCIe" as "32.0 GT/s": how long the speed is without the kernel's " PCIe". */
static int speed_len(const char *s)
{
	const char *pcie = strstr(s, " PCIe");

	return pcie ? (int)(pcie - s) : (int)strlen(s);
}

static void link_text(const json_t *link, char *buf, size_t size)
{
	const json_t *cw = json_object_get(link, "current_width"), *mw = json_object_get(link, "max_width");
	const char *cs = json_string_value(json_object_get(link, "current_speed"));
	const char *ms = json_string_value(json_object_get(link, "max_speed"));

	if (!cs || !json_is_integer(cw)) {
		snprintf(buf, size, "-");
		return;
	}
	if (json_is_true(json_object_get(link, "degraded")))
		snprintf(buf, size, "%.*s x%lld of %.*s x%lld (below capability)", speed_len(cs), cs,
			 json_integer_value(cw), ms ? speed_len(ms) : 1, ms ? ms : "-", json_integer_value(mw));
	else
		snprintf(buf, size, "%.*s x%lld", speed_len(cs), cs, json_integer_value(cw));
}

static void print_matrix(FILE *out, const json_t *gpus, const json_t *nics)
{
	size_t ncols = json_array_size(nics) + 5, c = 0, i;
	struct column *cols = calloc(ncols, sizeof(*cols));
	char (*keys)[80] = calloc(json_array_size(nics), sizeof(*keys));
	json_t *rows = json_array(), *g, *n;

	if (!cols || !keys || !rows)
		goto out;
	cols[c++] = (struct column){ "gpu", "" };
	json_array_foreach(nics, i, n) {
		snprintf(keys[i], sizeof(keys[i]), "nic:%s", str(n, "device"));
		cols[c++] = (struct column){ keys[i], str(n, "device") };
	}
	cols[c++] = (struct column){ "numa_node", "NUMA" };
	cols[c++] = (struct column){ "cpulist", "CPU_AFFINITY" };
	cols[c++] = (struct column){ "link_text", "LINK" };
	cols[c++] = (struct column){ "nearest_text", "NEAREST_NIC" };
	json_array_foreach(gpus, i, g) {
		const json_t *rel = json_object_get(g, "relations");
		json_t *row = json_object();
		char text[512];
		size_t k;

		json_object_set(row, "gpu", json_object_get(g, "gpu"));
		/* relations lists the NICs in the document's order, the columns' */
		json_array_foreach(nics, k, n)
			json_object_set(row, keys[k], json_object_get(json_array_get(rel, k), "relation"));
		json_object_set(row, "numa_node", json_object_get(g, "numa_node"));
		json_object_set(row, "cpulist", json_object_get(g, "cpulist"));
		link_text(json_object_get(g, "link"), text, sizeof(text));
		json_object_set_new(row, "link_text", json_string(text));
		join(json_object_get(g, "nearest"), text, sizeof(text));
		if (text[0])
			json_object_set_new(row, "nearest_text", json_sprintf("%s (%s)", text, str(g, "nearest_relation")));
		json_array_append_new(rows, row);
	}
	render_table(out, rows, cols, c);
out:
	json_decref(rows);
	free(keys);
	free(cols);
}

static const struct column nic_columns[] = {
	{ "device", "NIC" }, { "pci_address", "PCI" }, { "numa_node", "NUMA" }, { "link_text", "LINK" },
	{ "role", "ROLE" },
};

static void print_nics(FILE *out, const json_t *gpus, const json_t *nics)
{
	json_t *rows = json_array(), *n;
	size_t i;

	json_array_foreach(nics, i, n) {
		json_t *row = json_object(), *twin = json_object_get(n, "twin");
		char link[128], used_by[256] = "", role[400];
		size_t k, len = 0;
		json_t *g;

		json_object_set(row, "device", json_object_get(n, "device"));
		json_object_set(row, "pci_address", json_object_get(n, "pci_address"));
		json_object_set(row, "numa_node", json_object_get(n, "numa_node"));
		link_text(json_object_get(n, "link"), link, sizeof(link));
		json_object_set_new(row, "link_text", json_string(link));
		json_array_foreach(gpus, k, g) {
			size_t m;
			json_t *v;

			json_array_foreach(json_object_get(g, "nearest"), m, v)
				if (strcmp(json_string_value(v), str(n, "device")) == 0 && len < sizeof(used_by) - 16)
					len += (size_t)snprintf(used_by + len, sizeof(used_by) - len, "%s%s", len ? "," : "",
								str(g, "gpu"));
		}
		if (json_is_true(json_object_get(n, "rail")))
			snprintf(role, sizeof(role), "rail of %s%s%s", used_by, json_is_string(twin) ? ", twin of " : "",
				 json_is_string(twin) ? json_string_value(twin) : "");
		else
			snprintf(role, sizeof(role), json_array_size(gpus) ? "front-end (no GPU's nearest)" : "-");
		json_object_set_new(row, "role", json_string(role));
		json_array_append_new(rows, row);
	}
	render_table(out, rows, nic_columns, sizeof(nic_columns) / sizeof(nic_columns[0]));
	json_decref(rows);
}

static void print_trouble(FILE *out, const json_t *doc)
{
	const json_t *gpus = json_object_get(doc, "gpus");
	size_t i, k;
	json_t *g, *b;

	json_array_foreach(gpus, i, g) {
		json_array_foreach(json_object_get(g, "acs_redirect"), k, b)
			fprintf(out, "%s: ACS on bridge %s redirects peer-to-peer traffic to its nearest NIC through the "
				"root complex; fix: setpci -s %s ECAP_ACS+0x6.w=0000 (until reboot), or boot with "
				"pci=disable_acs_redir=%s\n", str(g, "gpu"), json_string_value(b), json_string_value(b),
				json_string_value(b));
		json_array_foreach(json_object_get(g, "acs_unknown"), k, b)
			fprintf(out, "%s: ACS on bridge %s unknown (its config space could not be read in full)\n",
				str(g, "gpu"), json_string_value(b));
		if (json_is_true(json_object_get(json_object_get(g, "link"), "degraded"))) {
			char link[128];

			link_text(json_object_get(g, "link"), link, sizeof(link));
			fprintf(out, "%s (%s): PCIe link %s\n", str(g, "gpu"), str(g, "pci_address"), link);
		}
	}
}

void topo_print_text(FILE *out, const json_t *doc)
{
	const json_t *gpus = json_object_get(doc, "gpus"), *nics = json_object_get(doc, "nics");

	if (json_array_size(gpus) == 0 && json_array_size(nics) == 0) {
		fprintf(out, "no NVIDIA GPUs and no RDMA NICs on PCI\n");
		return;
	}
	if (json_array_size(gpus) == 0)
		fprintf(out, "no NVIDIA GPUs\n");
	else
		print_matrix(out, gpus, nics);
	if (json_array_size(nics) == 0) {
		fprintf(out, "\nno RDMA NICs\n");
	} else {
		fprintf(out, "\n");
		print_nics(out, gpus, nics);
	}
	print_trouble(out, doc);
	if (json_array_size(gpus) && json_array_size(nics))
		fprintf(out, "\nLegend: PIX = at most one PCIe switch between them, PXB = several switches, PHB = through "
			"a PCIe host bridge (the CPU), NODE = between host bridges of one NUMA node, SYS = across NUMA "
			"nodes\n");
}
