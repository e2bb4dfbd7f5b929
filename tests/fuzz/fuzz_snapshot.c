// SPDX-License-Identifier: GPL-2.0-only
/* Snapshot documents as another node (or a file passed around) gives them: through the one public reader,
 * snapshot_parse (--from, check --peer), and through compare's stream reader (JSON lines, pdsh's "host: "
 * prefixes, concatenated documents), both by their public entry points so the harness does not care how the
 * reader parses. A document the reader accepts must be written back by the writer and read again. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd/compare_input.h"
#include "model/snapshot_json.h"

static void parse_and_rewrite(const char *text, size_t len)
{
	struct snapshot *s = calloc(2, sizeof(*s));
	char why[512];
	json_t *doc;
	char *again;

	if (!s)
		return;
	if (snapshot_parse(text, len, &s[0], why, sizeof(why)) == 0) {
		doc = snapshot_to_json(&s[0]);
		if (!doc)
			abort();   /* the reader kept something the writer cannot say */
		again = json_dumps(doc, JSON_COMPACT);
		json_decref(doc);
		if (!again)
			abort();
		if (snapshot_parse(again, strlen(again), &s[1], why, sizeof(why)) != 0) {
			fprintf(stderr, "the written snapshot does not read back: %s\n", why);
			abort();
		}
		free(again);
		snapshot_free(&s[1]);
		snapshot_free(&s[0]);
	} else if (!memchr(why, 0, sizeof(why)) || why[0] == '\0') {
		abort();   /* a refusal always says why, in one bounded line */
	}
	free(s);
}

static void compare_stream(const uint8_t *data, size_t size)
{
	struct compare_inputs in = { 0 };
	char path[64], why[512];
	int fd = memfd_create("snapshots", MFD_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		(void)compare_inputs_add(&in, path, why, sizeof(why));
	}
	compare_inputs_free(&in);
	close(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	parse_and_rewrite((const char *)data, size);
	compare_stream(data, size);
	return 0;
}
