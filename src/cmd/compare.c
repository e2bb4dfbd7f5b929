// SPDX-License-Identifier: GPL-2.0-only
/* roce-doctor compare SNAPSHOT...: the nodes of a job side by side, the odd ones out named with their fixes. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/check_report.h"
#include "cmd/commands.h"
#include "cmd/compare_input.h"
#include "core/compare.h"
#include "output/compare_text.h"
#include "output/render.h"

#define ARGS_MAX 4096

struct compare_args {
	const char *sources[ARGS_MAX];
	size_t count;
};

static error_t parse_compare(int key, char *arg, struct argp_state *state)
{
	struct compare_args *a = state->input;

	switch (key) {
	case ARGP_KEY_ARG:
		if (a->count >= ARGS_MAX)
			argp_error(state, "too many SNAPSHOT arguments (at most %d): give a directory or -", ARGS_MAX);
		a->sources[a->count++] = arg;
		return 0;
	case ARGP_KEY_END:
		if (a->count == 0)
			argp_error(state, "no SNAPSHOT given: files, directories, or - for stdin");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const struct argp compare_argp = {
	NULL, parse_compare, "SNAPSHOT...",
	"Compare the snapshots of a job's nodes (`roce-doctor snapshot --json-lines` on each) and name the odd nodes "
	"out against the majority: kernel, rdma-core, HCAs, firmware, MTUs, GID index, rails, NCCL settings, memlock, "
	"firewall. SNAPSHOT is a file (one or more documents, or JSON lines), a directory (every *.json and *.jsonl "
	"in it), or - for stdin (pdsh's \"host: \" line prefix is accepted). Prints the verdict, the rows of the node x "
	"attribute table with an odd cell (ending in !) and a count of the others, then the findings that are not ok "
	"with their fixes; -v prints every row and the ok findings too. A file given twice is one node. At most 100000 snapshots and 4 GiB of input.\vExit status: 0 when nothing is worse than info, 1 when "
	"the worst is warn, 2 when the worst is fail, 3 when a snapshot cannot be read or is not valid (one line "
	"naming the file, line and member; no report), 64 for usage errors.",
	NULL, NULL, NULL,
};

/* The name compare_nodes gives a node: its hostname, or its file where hostnames collide. */
static int cmp_host(const void *a, const void *b, void *arg)
{
	const struct compare_node *n = arg;
	const char *x = n[*(const size_t *)a].hostname, *y = n[*(const size_t *)b].hostname;

	return strcmp(x ? x : "", y ? y : "");
}

static int node_names(const struct compare_inputs *in, const char **names)
{
	size_t *order = malloc((in->count ? in->count : 1) * sizeof(*order));

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < in->count; i++) {
		order[i] = i;
		names[i] = in->nodes[i].hostname ? in->nodes[i].hostname : in->nodes[i].file;
	}
	qsort_r(order, in->count, sizeof(*order), cmp_host, in->nodes);
	for (size_t i = 0; i + 1 < in->count; i++) {
		const char *h = in->nodes[order[i]].hostname;

		if (h && in->nodes[order[i + 1]].hostname && strcmp(h, in->nodes[order[i + 1]].hostname) == 0) {
			names[order[i]] = in->nodes[order[i]].file;
			names[order[i + 1]] = in->nodes[order[i + 1]].file;
		}
	}
	free(order);
	return 0;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' ||
	       c == '.' || c == '/' || c == ':';
}

/* Whether text names name as a whole word (node lists are "b07,b12 (+3 more)"). */
static bool names_node(const char *text, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = text ? strstr(text, name) : NULL; p; p = strstr(p + 1, name)) {
		const char *end = p + len;

		/* a trailing '.' or ':' ends a sentence, not the name */
		if ((p == text || !name_char(p[-1])) &&
		    (!name_char(*end) || ((*end == '.' || *end == ':') && !name_char(end[1]))))
			return true;
	}
	return false;
}

/* Appends value to list unless an equal one is there: the distinct values in first-seen order. */
static void append_distinct(json_t *list, json_t *value)
{
	size_t i;
	json_t *it;

	json_array_foreach(list, i, it)
		if (json_equal(it, value)) {
			json_decref(value);
			return;
		}
	json_array_append_new(list, value);
}

/* The table's cells are the distinct firmware versions and MTUs (render_cell joins an array); the JSON keeps
 * MTUs as integers and each device's own firmware in devices. */
static json_t *node_json(const struct compare_node *n, const char *name)
{
	const struct host *h = n->host;
	json_t *fw = json_array(), *mtu = json_array(), *devices = json_array(), *nccl = json_array();

	for (size_t d = 0; h && d < h->device_count; d++) {
		const struct rdma_device *dev = &h->devices[d];

		json_array_append_new(devices, json_pack("{s:s, s:o}", "device", dev->name, "fw_ver",
							  json_str_or_null(dev->fw_ver)));
		if (*dev->fw_ver)
			append_distinct(fw, json_string(dev->fw_ver));
		for (size_t p = 0; p < dev->port_count; p++) {
			const struct netdev *nd = *dev->ports[p].netdev ? host_find_netdev(h, dev->ports[p].netdev) : NULL;

			if (nd && nd->mtu > 0)
				append_distinct(mtu, json_integer(nd->mtu));
		}
	}
	/* the NCCL versions a job could load, in the snapshot's order (compare.nccl_version says where) */
	for (size_t i = 0; n->nccl_libs_known && i < n->nccl_lib_count; i++)
		if (!n->nccl_libs[i].net_plugin)
			append_distinct(nccl, json_string(*n->nccl_libs[i].version ? n->nccl_libs[i].version : "?"));
	if (n->nccl_libs_known && json_array_size(nccl) == 0)
		json_array_append_new(nccl, json_string("none"));
	return json_pack("{s:s, s:o, s:o, s:o, s:o, s:I, s:o, s:o, s:o, s:o, s:o}", "name", name, "hostname",
			 json_str_or_null(n->hostname), "file", json_str_or_null(n->file), "kernel",
			 json_str_or_null(n->kernel), "rdma_core", json_str_or_null(n->rdma_core), "hcas",
			 (json_int_t)(h ? h->device_count : 0), "firmware", fw, "mtu", mtu, "devices", devices,
			 "nccl", n->nccl_libs_known ? nccl : (json_decref(nccl), json_null()), "gid_index_pinned",
			 json_str_or_null(n->gid_index_pinned));
}

static const char *const table_members[] = { "kernel", "rdma_core", "hcas", "firmware", "mtu", "nccl",
					     "gid_index_pinned" };

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Marks the cells of a column that differ from its most common value: what the table ends in '!'. */
static int mark_column(json_t *nodes, const char *member)
{
	size_t n = json_array_size(nodes), best = 0, run = 0;
	char **cells = calloc(n ? n : 1, sizeof(*cells));
	const char *majority = NULL;
	json_t *it;
	size_t i;

	if (!cells)
		return -ENOMEM;
	json_array_foreach(nodes, i, it) {
		char buf[256];

		render_cell(json_object_get(it, member), buf, sizeof(buf));
		cells[i] = strdup(buf);
		if (!cells[i]) {
			for (size_t k = 0; k < i; k++)
				free(cells[k]);
			free(cells);
			return -ENOMEM;
		}
	}
	{
		char **sorted = malloc((n ? n : 1) * sizeof(*sorted));

		if (!sorted) {
			for (size_t k = 0; k < n; k++)
				free(cells[k]);
			free(cells);
			return -ENOMEM;
		}
		memcpy(sorted, cells, n * sizeof(*sorted));
		qsort(sorted, n, sizeof(*sorted), cmp_str);
		for (size_t k = 0; k < n; k++) {
			run = k && strcmp(sorted[k], sorted[k - 1]) == 0 ? run + 1 : 1;
			if (run > best) {
				best = run;
				majority = sorted[k];
			}
		}
		json_array_foreach(nodes, i, it)
			if (majority && strcmp(cells[i], majority) != 0 && strcmp(cells[i], "-") != 0)
				json_object_set_new(json_object_get(it, "marked"), member, json_true());
		free(sorted);
	}
	for (size_t k = 0; k < n; k++)
		free(cells[k]);
	free(cells);
	return 0;
}

/* A finding's `nodes`: those its text names, and every node the rules recorded for it (the text lists the first
 * few of a value's nodes and a count), in input order. */
static json_t *finding_nodes(const struct compare_inputs *in, const struct finding *it, size_t k,
			     const struct compare_concerns *cc, size_t *next, const char **names, unsigned char *mark)
{
	json_t *named = json_array();

	memset(mark, 0, in->count);
	for (size_t i = 0; it->severity != SEVERITY_OK && i < in->count; i++)
		mark[i] = names_node(it->message, names[i]) || names_node(it->subject, names[i]);
	for (; *next < cc->count && cc->items[*next].finding <= k; (*next)++)
		if (cc->items[*next].finding == k && it->severity != SEVERITY_OK)
			mark[cc->items[*next].node] = 1;
	for (size_t i = 0; named && i < in->count; i++)
		if (mark[i] && json_array_append_new(named, json_string(names[i])) < 0) {
			json_decref(named);
			return NULL;
		}
	return named;
}

static json_t *compare_doc(const struct compare_inputs *in, const struct findings *f,
			   const struct compare_concerns *cc, const char **names)
{
	json_t *doc = doc_new("compare"), *nodes = json_array(), *list = json_array();
	unsigned char *mark = malloc(in->count ? in->count : 1);
	size_t counts[4] = { 0 }, next = 0;

	if (!doc || !nodes || !list || !mark)
		goto fail;
	for (size_t i = 0; i < in->count; i++) {
		json_t *node = node_json(&in->nodes[i], names[i]);

		if (!node || json_object_set_new(node, "marked", json_object()) < 0 ||
		    json_array_append_new(nodes, node) < 0)
			goto fail;
	}
	for (size_t c = 0; c < sizeof(table_members) / sizeof(table_members[0]); c++)
		if (mark_column(nodes, table_members[c]) < 0)
			goto fail;
	for (size_t k = 0; k < f->count; k++) {
		const struct finding *it = &f->items[k];
		json_t *obj = finding_json(it), *named = finding_nodes(in, it, k, cc, &next, names, mark);

		counts[it->severity]++;
		if (!obj || !named || json_object_set_new(obj, "nodes", named) < 0 || json_array_append_new(list, obj) < 0) {
			json_decref(obj);
			json_decref(named);
			goto fail;
		}
	}
	json_object_set_new(doc, "verdict", json_string(severity_name(findings_worst(f))));
	json_object_set_new(doc, "counts", json_pack("{s:I, s:I, s:I, s:I, s:I}", "nodes", (json_int_t)in->count,
						     "ok", (json_int_t)counts[0], "info", (json_int_t)counts[1],
						     "warn", (json_int_t)counts[2], "fail", (json_int_t)counts[3]));
	json_object_set_new(doc, "nodes", nodes);
	json_object_set_new(doc, "findings", list);
	free(mark);
	return doc;
fail:
	free(mark);
	json_decref(doc);
	json_decref(nodes);
	json_decref(list);
	return NULL;
}

static bool verbose_text;

static void print_compare(FILE *out, const json_t *doc)
{
	compare_text_print(out, doc, verbose_text);
}

int cmd_compare(struct app *app, int argc, char **argv)
{
	struct compare_args args = { 0 };
	struct compare_inputs in = { 0 };
	struct findings findings = { 0 };
	struct compare_concerns concerns = { 0 };
	const char **names = NULL;
	char why[1024];
	json_t *doc = NULL;
	int code = EXIT_CANNOT_RUN, ret = 0;

	if (command_parse(&compare_argp, COMMON_FAMILY, argc, argv, &args, app) != 0)
		return EXIT_USAGE;
	if (app_layout_needs_json(app, "compare", app->json, false) != EXIT_OK)
		return EXIT_USAGE;
	for (size_t i = 0; ret == 0 && i < args.count; i++)
		ret = compare_inputs_add(&in, args.sources[i], why, sizeof(why));
	if (ret == -ENOMEM)
		snprintf(why, sizeof(why), "cannot read the snapshots: %s", strerror(ENOMEM));
	if (ret < 0) {
		fprintf(stderr, "roce-doctor: %s\n", why);
		goto out;
	}
	names = calloc(in.count ? in.count : 1, sizeof(*names));
	if (names && node_names(&in, names) == 0 &&
	    compare_nodes_concerned(in.nodes, in.count, app->family ? app->family : AF_INET, &findings, &concerns) == 0)
		doc = compare_doc(&in, &findings, &concerns, names);
	if (!doc) {
		fprintf(stderr, "roce-doctor: cannot build the report: %s\n", strerror(ENOMEM));
		goto out;
	}
	verbose_text = app->verbose > 0;
	{
		enum severity worst = findings_worst(&findings);

		code = app_emit(app, doc, NULL, print_compare,
				worst == SEVERITY_FAIL ? 2 : worst == SEVERITY_WARN ? 1 : 0);
	}
	json_decref(doc);
out:
	free(names);
	compare_concerns_free(&concerns);
	findings_free(&findings);
	compare_inputs_free(&in);
	return code;
}
