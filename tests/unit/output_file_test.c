// SPDX-License-Identifier: GPL-2.0-only
/* --output FILE through app_emit(): a report is written whole by a rename; a run with nothing to report (the
 * text of a bw or lat that never started is empty: stderr said why) neither creates FILE nor truncates the
 * report already there, and leaves no temporary file beside it. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/common.h"
#include "tap.h"

static char dir[] = "/tmp/roce-doctor-output-XXXXXX";

static void nothing(FILE *out, const json_t *doc)
{
	(void)out;
	(void)doc;
}

static void one_line(FILE *out, const json_t *doc)
{
	(void)doc;
	fputs("a report\n", out);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The whole file into buf ("" when it cannot be read). */
static const char *file_text(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;

	if (f) {
		n = fread(buf, 1, size - 1, f);
		fclose(f);
	}
	buf[n] = '\0';
	return buf;
}

static size_t entries(void)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d)))
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

static void empty_text_keeps_the_last_report(void)
{
	char path[512], text[256];
	struct app app = { .output_file = path };
	json_t *doc = json_object();

	snprintf(path, sizeof(path), "%s/report.txt", dir);
	put_file(path, "the last report\n");
	CHECK(app_emit(&app, doc, NULL, nothing, EXIT_CANNOT_RUN) == EXIT_CANNOT_RUN);
	CHECK_STR(file_text(path, text, sizeof(text)), "the last report\n");
	CHECK(entries() == 1);
	json_decref(doc);
	unlink(path);
}

static void empty_text_creates_no_file(void)
{
	char path[512];
	struct app app = { .output_file = path };
	json_t *doc = json_object();

	snprintf(path, sizeof(path), "%s/new.txt", dir);
	CHECK(app_emit(&app, doc, NULL, nothing, EXIT_CANNOT_RUN) == EXIT_CANNOT_RUN);
	CHECK(access(path, F_OK) != 0 && entries() == 0);
	json_decref(doc);
}

static void a_report_replaces_the_file(void)
{
	char path[512], text[256];
	struct app app = { .output_file = path };
	json_t *doc = json_object();

	snprintf(path, sizeof(path), "%s/report.txt", dir);
	put_file(path, "the last report\n");
	CHECK(app_emit(&app, doc, NULL, one_line, EXIT_OK) == EXIT_OK);
	CHECK_STR(file_text(path, text, sizeof(text)), "a report\n");
	CHECK(entries() == 1);
	json_decref(doc);
	unlink(path);
}

/* JSON always has a document: a failed run's, with its error, is what --output gets (as stdout would). */
static void a_json_document_is_written_whole(void)
{
	char path[512], text[256];
	struct app app = { .json = true, .output_file = path };
	json_t *doc = json_pack("{s:{s:s}}", "error", "kind", "connect");

	snprintf(path, sizeof(path), "%s/report.json", dir);
	CHECK(app_emit(&app, doc, NULL, nothing, EXIT_CANNOT_RUN) == EXIT_CANNOT_RUN);
	CHECK(strstr(file_text(path, text, sizeof(text)), "\"kind\": \"connect\"") ||
	      strstr(text, "\"kind\":\"connect\""));
	json_decref(doc);
	unlink(path);
}

int main(void)
{
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	RUN(empty_text_keeps_the_last_report);
	RUN(empty_text_creates_no_file);
	RUN(a_report_replaces_the_file);
	RUN(a_json_document_is_written_whole);
	rmdir(dir);
	TAP_DONE();
}
