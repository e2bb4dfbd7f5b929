// SPDX-License-Identifier: GPL-2.0-only
/* explain's paste reader (src/core/log/paste_scan.c) and the dcb readers behind it (src/model/qos_dcb_text.c,
 * qos_dcb_json.c): any bytes, line by line as log_scan offers them, then the model and check's lossless
 * rules on it. Everything kept stays within its bound and every value the rules read within its range. The
 * same bytes as one dcb -j document and as dcb text lines must leave a refused input's model untouched. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/log/paste_scan.h"
#include "model/qos_dcb_json.h"
#include "model/qos_dcb_text.h"

static void in_range(const struct qos_dcb *d)
{
	if (d->pfc_cap > QOS_PRIOS)
		abort();
	for (unsigned p = 0; p < QOS_PRIOS; p++)
		if (d->prio_tc[p] >= QOS_PRIOS || d->tc_bw[p] > 100 || d->prio_buffer[p] >= QOS_PRIOS)
			abort();
	for (unsigned d2 = 0; d2 < QOS_DSCPS; d2++)
		if (d->dscp_prio[d2] >= QOS_PRIOS)
			abort();
}

static void through_json(const uint8_t *data, size_t size)
{
	struct qos_dcb dcb, before;
	json_t *doc = json_loadb((const char *)data, size, JSON_DISABLE_EOF_CHECK, NULL);
	char why[160];
	int rc;

	if (!doc)
		return;
	memset(&dcb, 0, sizeof(dcb));
	dcb.pfc_enabled = 0x5a;
	before = dcb;
	rc = dcb_json_read(doc, &dcb, why, sizeof(why));
	if (rc != 0 && memcmp(&dcb, &before, sizeof(dcb)) != 0)
		abort();   /* refused: nothing of it kept */
	in_range(&dcb);
	json_decref(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct paste_scan *ps;
	struct findings found = { 0 };
	struct qos_dcb text = { 0 };
	struct qos_host q;
	const char *tc, *sl;
	char line[4097];
	size_t at = 0, n = 0;

	if (paste_scan_init(&ps) != 0)
		return 0;
	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t len = nl ? (size_t)(nl - (data + at)) : size - at, keep = len < 4096 ? len : 4096;

		/* as log_scan hands lines over: NUL made visible, bounded, blank lines not offered */
		for (size_t i = 0; i < keep; i++)
			line[i] = data[at + i] ? (char)data[at + i] : '?';
		line[keep] = '\0';
		if (keep && strspn(line, " \t") != keep) {
			paste_scan_line(ps, line, keep, ++n);
			dcb_text_line(&text, line);
		}
		at += len + 1;
	}
	paste_scan_end_file(ps);
	if (ps->port_count > PASTE_PORTS_MAX || ps->block_count > PASTE_BLOCKS_MAX || ps->note_count > PASTE_NOTES_MAX ||
	    ps->counters.count > PASTE_COUNTERS_MAX || ps->json || ps->current < 0 || (size_t)ps->current >= ps->port_count)
		abort();
	for (size_t i = 0; i < ps->counters.count; i++)
		if (ps->counters.items[i].port < 0 || (size_t)ps->counters.items[i].port >= ps->port_count)
			abort();
	in_range(&text);
	if (paste_scan_model(ps, &q, &tc, &sl) == 0) {
		for (size_t i = 0; i < q.count; i++)
			in_range(&q.ports[i].dcb);
		qos_host_free(&q);
	}
	paste_scan_judge(ps, &found);
	findings_free(&found);
	paste_scan_free(ps);
	through_json(data, size);
	return 0;
}
