// SPDX-License-Identifier: GPL-2.0-only
/* Escaping for the machine formats: one place that knows what XML and the Prometheus text format forbid. */
#include "output/machine_text.h"

#include <math.h>
#include <string.h>

void xml_put(FILE *out, const char *s, int attr)
{
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs(attr ? "&quot;" : "\"", out); break;
		/* An attribute's raw line break would be normalised to a blank by the parser. */
		case '\n': fputs(attr ? "&#10;" : "\n", out); break;
		case '\r': fputs("&#13;", out); break;
		case '\t': fputs(attr ? "&#9;" : "\t", out); break;
		default:
			/* XML 1.0 cannot carry the other C0 controls at all, not even as references. */
			if (*p < 0x20)
				fputs("\xef\xbf\xbd", out);
			else
				fputc(*p, out);
		}
	}
}

void junit_open(FILE *out, const char *name, size_t tests, size_t failures, const struct run_meta *meta)
{
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", out);
	xml_put(out, name, 1);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" time=\"%.3f\">\n", tests, failures,
		meta->duration_s);
	fputs("  <testsuite name=\"", out);
	xml_put(out, name, 1);
	fprintf(out, "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"0\" time=\"%.3f\"", tests, failures,
		meta->duration_s);
	if (meta->timestamp && *meta->timestamp) {
		fputs(" timestamp=\"", out);
		xml_put(out, meta->timestamp, 1);
		fputc('"', out);
	}
	if (meta->hostname && *meta->hostname) {
		fputs(" hostname=\"", out);
		xml_put(out, meta->hostname, 1);
		fputc('"', out);
	}
	fputs(">\n    <properties>\n      <property name=\"roce-doctor.version\" value=\"", out);
	xml_put(out, meta->version, 1);
	fputs("\"/>\n    </properties>\n", out);
}

void junit_close(FILE *out)
{
	fputs("  </testsuite>\n</testsuites>\n", out);
}

void prom_header(FILE *out, const char *name, const char *type, const char *help)
{
	fprintf(out, "# HELP %s ", name);
	/* HELP escapes only backslash and line feed; a quote stays as it is. */
	for (const char *p = help; *p; p++)
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	fprintf(out, "\n# TYPE %s %s\n", name, type);
}

void prom_label(FILE *out, const char *key, const char *value, int first)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", key);
	for (const char *p = value ? value : ""; *p; p++)
		if (*p == '\\')
			fputs("\\\\", out);
		else if (*p == '"')
			fputs("\\\"", out);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			fputc(*p, out);
	fputc('"', out);
}

void prom_info(FILE *out, const struct run_meta *meta)
{
	prom_header(out, "roce_doctor_info", "gauge", "The roce-doctor that wrote these metrics, by version; always 1.");
	fputs("roce_doctor_info{", out);
	prom_label(out, "version", meta->version, 1);
	fputs("} 1\n", out);
}

void prom_value(FILE *out, double v)
{
	if (isnan(v))
		fputs("NaN", out);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf" : "-Inf", out);
	else
		fprintf(out, "%.15g", v);
}
