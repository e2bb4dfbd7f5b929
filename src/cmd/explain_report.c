// SPDX-License-Identifier: GPL-2.0-only
/* explain's scan, and check's findings on this host, as one JSON document; the text layout renders it. */
#include "cmd/explain_report.h"

#include <string.h>

#include "cmd/check_report.h"
#include "cmd/explain_pastes.h"
#include "core/log/log_causes.h"
#include "core/log/log_ranks.h"
#include "output/render.h"

/* Whether id is one of the comma list ids. */
static bool listed(const char *ids, const char *id)
{
	size_t n = strlen(id);

	for (const char *p = ids; p && *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && strncmp(p, id, n) == 0)
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

/* The host's findings, worse than ok, whose id the problem names: the join --with-check makes. */
static json_t *host_findings(const struct log_hit *hit, const struct findings *host)
{
	json_t *list = json_array();

	for (size_t i = 0; i < host->count; i++)
		if (host->items[i].severity > SEVERITY_OK && listed(hit->pattern->checks, host->items[i].id))
			json_array_append_new(list, finding_json(&host->items[i]));
	return list;
}

/* A rank as the report names it: host and rank (null when no line said), NCCL's pid, its file, a name. */
static json_t *rank_ref(const struct log_rank *r)
{
	char name[256];

	log_rank_name(r, name, sizeof(name));
	return json_pack("{s:o, s:o, s:o, s:s, s:s}", "host", r->host[0] ? json_string(r->host) : json_null(), "rank",
			 r->rank >= 0 ? json_integer(r->rank) : json_null(), "pid", r->pid ? json_integer(r->pid) :
			 json_null(), "file", r->file_name, "name", name);
}

/* A rank's first failure: its id, the failure after it that it explains (a warning's), file and line there,
 * time (null when the log has none), the peer and HCA. */
static json_t *failure_json(const struct log_rank *r)
{
	if (!r->failure || r->failure->severity <= SEVERITY_INFO)
		return json_null();
	return json_pack("{s:s, s:s, s:b, s:o, s:s, s:I, s:o, s:o, s:o}", "id", r->failure->id, "severity",
			 severity_name(r->failure->severity), "effect", r->failure_effect, "explains",
			 r->failure_explains ? json_string(r->failure_explains->id) : json_null(), "file",
			 r->failure_file[0] ? r->failure_file : r->file_name, "line", (json_int_t)r->failure_line,
			 "time", r->failure_time[0] ? json_string(r->failure_time) : json_null(), "peer",
			 r->peer[0] ? json_string(r->peer) : json_null(), "hca",
			 r->hca[0] ? json_string(r->hca) : json_null());
}

static json_t *ranks_json(const struct log_ranks *ranks)
{
	json_t *list = json_array();

	for (size_t i = 0; ranks && i < ranks->count; i++) {
		const struct log_rank *r = &ranks->items[i];
		json_t *one = rank_ref(r);

		json_object_set_new(one, "lines", json_integer((json_int_t)r->lines));
		json_object_set_new(one, "first_failure", failure_json(r));
		json_array_append_new(list, one);
	}
	return list;
}

/* The job's first failure: the rank, and what failed there. */
static json_t *first_failure_json(const struct log_ranks *ranks)
{
	json_t *one, *failure;

	if (!ranks || ranks->first < 0)
		return json_null();
	one = rank_ref(&ranks->items[ranks->first]);
	failure = failure_json(&ranks->items[ranks->first]);
	json_object_update(one, failure);
	json_decref(failure);
	return one;
}

static json_t *hit_json(const struct log_hit *hit, const struct findings *host, const struct log_ranks *ranks)
{
	json_t *lines = json_array(), *doc, *who = json_array();

	for (size_t i = 0; ranks && i < hit->rank_count; i++)
		json_array_append_new(who, rank_ref(&ranks->items[hit->ranks[i]]));

	for (size_t i = 0; i < hit->line_count; i++)
		json_array_append_new(lines, json_integer((json_int_t)hit->lines[i]));
	doc = json_pack("{s:s, s:s, s:o, s:I, s:s, s:s, s:s, s:o, s:s, s:o, s:o}", "id", hit->pattern->id, "severity",
			 severity_name(hit->pattern->severity), "lines", lines, "count", (json_int_t)hit->count,
			 "quote", hit->quote, "message", hit->message, "source", hit->pattern->source, "checks",
			 split_json(hit->pattern->checks, ','), "fix", hit->fix, "fix_lines", split_json(hit->fix, '\n'), "host",
			 host ? host_findings(hit, host) : json_null());
	json_object_set_new(doc, "ranks", who);
	json_object_set_new(doc, "ranks_more", json_integer((json_int_t)hit->ranks_more));
	return doc;
}

json_t *explain_report_doc(const struct log_scan *scan, const char *input, const char *compression,
			   const struct findings *host, const struct findings *pasted)
{
	enum severity worst = log_scan_worst(scan);
	json_t *doc = doc_new("explain"), *facts = json_array(), *problems = json_array(), *summary;
	size_t counts[4] = { 0 };

	if (!doc || !facts || !problems)
		goto fail;
	for (size_t i = 0; i < scan->fact_count; i++) {
		const struct log_fact *f = &scan->facts[i];

		if (json_array_append_new(facts, json_pack("{s:s, s:s, s:I, s:I}", "fact", f->name, "value", f->value,
							   "line", (json_int_t)f->line, "count",
							   (json_int_t)f->count)) < 0)
			goto fail;
	}
	for (size_t i = 0; i < scan->hit_count; i++) {
		counts[scan->hits[i].pattern->severity]++;
		if (json_array_append_new(problems, hit_json(&scan->hits[i], host, scan->ranks)) < 0)
			goto fail;
	}
	summary = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "lines", (json_int_t)scan->lines, "blank",
			    (json_int_t)scan->blank, "recognised", (json_int_t)scan->recognised, "truncated",
			    (json_int_t)scan->truncated, "binary", (json_int_t)scan->binary, "facts_dropped",
			    (json_int_t)scan->facts_dropped);
	if (!summary)
		goto fail;
	json_object_set_new(doc, "input", json_string(input));
	json_object_set_new(doc, "compression", json_str_or_null(compression));
	if (pasted && findings_worst(pasted) > worst)
		worst = findings_worst(pasted);
	json_object_set_new(doc, "verdict", json_string(severity_name(worst)));
	json_object_set_new(doc, "with_check", json_boolean(host != NULL));
	json_object_set_new(doc, "counts", severity_counts_json(counts));
	json_object_set_new(doc, "summary", summary);
	json_object_set_new(doc, "facts", facts);
	json_object_set_new(doc, "findings", problems);
	json_object_set_new(doc, "first_failure", first_failure_json(scan->ranks));
	json_object_set_new(doc, "ranks", ranks_json(scan->ranks));
	json_object_set_new(doc, "ranks_cut_lines", json_integer(scan->ranks ? (json_int_t)scan->ranks->cut_lines : 0));
	json_object_set_new(doc, "pastes", explain_pastes_json(scan->pastes, pasted));
	return doc;
fail:
	json_decref(facts);
	json_decref(problems);
	json_decref(doc);
	return NULL;
}

json_t *explain_list_doc(void)
{
	json_t *doc = doc_new("explain-patterns"), *rows = json_array();

	if (!doc || !rows) {
		json_decref(doc);
		json_decref(rows);
		return NULL;
	}
	for (size_t i = 0; i < log_pattern_count + log_cause_count; i++) {
		const struct log_pattern *p = i < log_pattern_count ? &log_patterns[i] : &log_cause_patterns[i - log_pattern_count];

		json_array_append_new(rows, json_pack("{s:s, s:s, s:s, s:o, s:s, s:o, s:o, s:o}", "id", p->id,
						      "severity", severity_name(p->severity), "needle", p->needle,
						      "regex", json_str_or_null(p->regex), "source", p->source, "checks",
						      split_json(p->checks, ','), "fact", json_str_or_null(p->fact),
						      "until", json_str_or_null(p->until)));
	}
	json_object_set_new(doc, "patterns", rows);
	return doc;
}
