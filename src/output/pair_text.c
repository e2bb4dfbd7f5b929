// SPDX-License-Identifier: GPL-2.0-only
/* pair/v1 as text. The verdict leads (the answer to "will NCCL run between these two nodes"), then the rails,
 * then what is wrong, each finding marked [a] or [b] with its fix on that node. */
#include "output/pair_text.h"

#include <string.h>

#include "output/render.h"

static const struct column rail_columns[] = {
	{ "rail", "RAIL" }, { "a", "A_PORT" }, { "b", "B_PORT" }, { "subnet", "SUBNET" }, { "mtu", "MTU A/B" },
	{ "gid", "GID A/B" }, { "rdma", "RDMA" }, { "bw", "BW Gb/s" }, { "link", "LINK %" },
};

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

static void end_text(const json_t *end, char *buf, size_t size)
{
	if (!json_is_object(end)) {
		snprintf(buf, size, "-");
		return;
	}
	snprintf(buf, size, "%s/%lld %s %s", str(end, "device"), json_integer_value(json_object_get(end, "port")),
		 str(end, "netdev"), json_is_string(json_object_get(end, "address")) ? str(end, "address") : "-");
}

/* "9000/1500": both ends' value of member, "-" where unknown. */
static void both(const json_t *rail, const char *member, char *buf, size_t size)
{
	char x[32], y[32];

	render_cell(json_object_get(json_object_get(rail, "a"), member), x, sizeof(x));
	render_cell(json_object_get(json_object_get(rail, "b"), member), y, sizeof(y));
	snprintf(buf, size, "%s/%s", x, y);
}

static void print_rails(FILE *out, const json_t *rails)
{
	json_t *rows = json_array(), *rail;
	size_t i;

	json_array_foreach(rails, i, rail) {
		char a[160], b[160], mtu[64], gid[64], rdma[48], bw[32] = "-", link[32] = "-";
		const json_t *g = json_object_get(rail, "bw_gbps"), *l = json_object_get(rail, "link_percent");

		end_text(json_object_get(rail, "a"), a, sizeof(a));
		end_text(json_object_get(rail, "b"), b, sizeof(b));
		both(rail, "netdev_mtu", mtu, sizeof(mtu));
		both(rail, "gid_index", gid, sizeof(gid));
		snprintf(rdma, sizeof(rdma), "%s%s", json_is_string(json_object_get(rail, "rdma")) ? str(rail, "rdma") : "-",
			 json_is_true(json_object_get(rail, "crossed")) ? " (crossed)" : "");
		if (json_is_number(g))
			snprintf(bw, sizeof(bw), "%.2f", json_number_value(g));
		if (json_is_number(l))
			snprintf(link, sizeof(link), "%.0f", json_number_value(l));
		json_array_append_new(rows, json_pack("{s:I, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "rail",
						      (json_int_t)(i + 1), "a", a, "b", b, "subnet",
						      json_is_string(json_object_get(rail, "subnet")) ? str(rail, "subnet") :
						      str(rail, "link"), "mtu", mtu, "gid", gid, "rdma", rdma, "bw", bw,
						      "link", link));
	}
	render_table(out, rows, rail_columns, sizeof(rail_columns) / sizeof(rail_columns[0]));
	json_decref(rows);
}

static void print_bootstrap(FILE *out, const json_t *boot)
{
	const json_t *t;
	size_t i;

	json_array_foreach(boot, i, t)
		fprintf(out, "%s %s -> %s:%lld (%s): %s\n", i ? "          " : "bootstrap:", str(t, "local_address"),
			str(t, "remote_address"), json_integer_value(json_object_get(t, "port")), str(t, "purpose"),
			str(t, "outcome"));
}

/* "pair.mtu [b]": a finding as covers and covered_by name it; with its subject when another of the list has
 * the same id and node (two compare.check_summary). */
static void ref_text(const json_t *list, const json_t *ref, char *buf, size_t size)
{
	const json_t *other;
	bool twin = false;
	size_t i;
	int len;

	json_array_foreach(list, i, other)
		twin = twin || (other != ref && strcmp(str(other, "id"), str(ref, "id")) == 0 &&
				strcmp(str(other, "node"), str(ref, "node")) == 0);
	len = snprintf(buf, size, "%s", str(ref, "id"));
	if (json_is_string(json_object_get(ref, "node")) && len >= 0 && (size_t)len < size)
		len += snprintf(buf + len, size - (size_t)len, " [%s]", str(ref, "node"));
	if (twin && len >= 0 && (size_t)len < size)
		snprintf(buf + len, size - (size_t)len, " (%s)", str(ref, "subject"));
}

static void print_finding(FILE *out, const json_t *it, const struct text_style *st)
{
	const json_t *covers = json_object_get(it, "covers"), *by = json_object_get(it, "covered_by"), *line;
	char tag[8], mark[8] = "", ref[256], text[4096], list[4096];
	size_t k, len = 0;
	int at;

	snprintf(tag, sizeof(tag), "%s", str(it, "severity"));
	for (char *c = tag; *c; c++)
		*c = (char)(*c - 32 * (*c >= 'a' && *c <= 'z'));
	if (json_is_string(json_object_get(it, "node")))
		snprintf(mark, sizeof(mark), "[%s] ", str(it, "node"));
	at = fprintf(out, "  %-4s  %s%-22s ", tag, mark, str(it, "id"));
	snprintf(text, sizeof(text), "%s: %s", str(it, "subject"), str(it, "message"));
	text_print_wrapped(out, text, at > 0 ? (size_t)at : 0, at > 0 ? (size_t)at : 0, st);
	json_array_foreach(json_object_get(it, "fix_lines"), k, line)   /* never wrapped: pasted as printed */
		fprintf(out, "        %s %s\n", k == 0 ? "fix:" : "    ", json_string_value(line));
	list[0] = '\0';
	json_array_foreach(covers, k, line) {
		ref_text(covers, line, ref, sizeof(ref));
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s", k == 0 ? "" : ", ", ref);
	}
	if (json_array_size(covers)) {
		fprintf(out, "        covers: ");
		text_print_wrapped(out, list, 16, 16, st);
	}
	if (json_is_object(by)) {
		ref_text(NULL, by, ref, sizeof(ref));
		fprintf(out, "        covered by: %s\n", ref);
	}
}

/* The findings of one origin (and node, for check's), not ok ones unless verbose; the covered ones only when
 * verbose. Returns how many were left out. */
static size_t print_group(FILE *out, const json_t *doc, const char *origin, const char *node,
			  const struct text_style *st, const char *title)
{
	const char *const lists[2] = { "findings", "covered" };
	size_t folded = 0;
	bool titled = false;

	for (int l = 0; l < 2; l++) {
		const json_t *it;
		size_t i;

		json_array_foreach(json_object_get(doc, lists[l]), i, it) {
			if (strcmp(str(it, "origin"), origin) != 0 || (node && strcmp(str(it, "node"), node) != 0))
				continue;
			if (!st->verbose && (l == 1 || strcmp(str(it, "severity"), "ok") == 0)) {
				folded++;
				continue;
			}
			if (!titled) {
				fprintf(out, "\n%s\n", title);
				titled = true;
			}
			print_finding(out, it, st);
		}
	}
	return folded;
}

void pair_text_print(FILE *out, const json_t *doc, const struct text_style *style)
{
	const json_t *counts = json_object_get(doc, "counts"), *nodes = json_object_get(doc, "nodes");
	char title[256];
	size_t folded = 0;

	fprintf(out, "verdict: %s (a: %s, b: %s; %lld fail, %lld warn, %lld info)\n\n", str(doc, "verdict"),
		json_is_string(json_object_get(json_array_get(nodes, 0), "hostname")) ?
		str(json_array_get(nodes, 0), "hostname") : "this node",
		json_is_string(json_object_get(json_array_get(nodes, 1), "hostname")) ?
		str(json_array_get(nodes, 1), "hostname") : str(doc, "peer"),
		json_integer_value(json_object_get(counts, "fail")), json_integer_value(json_object_get(counts, "warn")),
		json_integer_value(json_object_get(counts, "info")));
	print_rails(out, json_object_get(doc, "rails"));
	print_bootstrap(out, json_object_get(doc, "bootstrap"));
	for (size_t n = 0; n < 2; n++) {
		const json_t *node = json_array_get(nodes, n);

		snprintf(title, sizeof(title), "[%s] %s: its own check (verdict %s)", str(node, "node"),
			 json_is_string(json_object_get(node, "hostname")) ? str(node, "hostname") : "-", str(node, "verdict"));
		folded += print_group(out, doc, "check", str(node, "node"), style, title);
	}
	folded += print_group(out, doc, "compare", NULL, style, "compare (the two snapshots):");
	folded += print_group(out, doc, "pair", NULL, style, "pair (between the two nodes):");
	if (folded)
		fprintf(out, "\n  %zu ok or covered finding(s) not shown: -v shows them\n", folded);
}
