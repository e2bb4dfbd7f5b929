// SPDX-License-Identifier: GPL-2.0-only
/* The snapshot document (model/snapshot_json.c, model/identity_json.c, probe/identity.c): every fixture's
 * snapshot round-trips byte for byte; every kind of bad input — not JSON, truncated, another schema, a newer
 * version, a member of the wrong type, oversized arrays and strings, a stream of several snapshots or one with
 * a broken line — is refused with one message naming the line or the member, and leaves nothing behind. */
#include <dirent.h>
#include <errno.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "cmd/check_probe.h"
#include "fixture_host.h"
#include "model/snapshot_json.h"
#include "probe/identity.h"
#include "tap.h"

#define FIXED_TIME 1795000000   /* 2026-11-18T11:06:40Z: the document must not depend on when the test runs */

/* A snapshot of a fixture tree, as `roce-doctor --root DIR snapshot` takes it. */
static int snapshot_of(const char *name, struct snapshot *s)
{
	char path[1024];
	struct rootfs root;
	int ret;

	memset(s, 0, sizeof(*s));
	snprintf(path, sizeof(path), "%s/%s", fixtures_dir, name);
	ret = probe_fixture(name, &s->host);
	if (ret == 0)
		ret = rootfs_open(&root, path);
	if (ret < 0)
		return ret;
	ret = identity_probe(&s->identity, &root, &s->host, FIXED_TIME, &s->warnings);
	rootfs_close(&root);
	if (ret == 0) {
		const struct findings every = { 0 };
		char why[512];

		ret = check_probe_system(path, NULL, &s->host, AF_INET, &every, &s->system, why, sizeof(why));
		s->system_known = ret == 0;
	}
	snprintf(s->root, sizeof(s->root), "%s", path);
	s->has_root = true;
	return ret;
}

static char *text_of(const struct snapshot *s, size_t flags)
{
	json_t *doc = snapshot_to_json(s);
	char *text = doc ? json_dumps(doc, JSON_PRESERVE_ORDER | flags) : NULL;

	json_decref(doc);
	return text;
}

static void every_fixture_snapshot_round_trips_byte_identical(void)
{
	DIR *dir = opendir(fixtures_dir);
	struct dirent *de;
	int hosts = 0;

	CHECK(dir != NULL);
	while (dir && (de = readdir(dir))) {
		static struct snapshot s, back;
		char path[1024], why[512] = "";
		struct stat st;
		char *a, *b = NULL;

		snprintf(path, sizeof(path), "%s/%s/sys", fixtures_dir, de->d_name);
		if (de->d_name[0] == '.' || stat(path, &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		CHECK(snapshot_of(de->d_name, &s) == 0);
		a = text_of(&s, JSON_INDENT(2));
		CHECK(a != NULL);
		if (a && snapshot_parse(a, strlen(a), &back, why, sizeof(why)) == 0) {
			b = text_of(&back, JSON_INDENT(2));
			CHECK(b && strcmp(a, b) == 0);
			CHECK(back.identity.device_count == s.host.device_count);
			snapshot_free(&back);
		} else {
			printf("# %s: refused its own snapshot: %s\n", de->d_name, why);
			CHECK(0);
		}
		free(a);
		free(b);
		snapshot_free(&s);
		hosts++;
	}
	if (dir)
		closedir(dir);
	CHECK(hosts >= 10);
}

static void identity_under_root_is_what_the_tree_holds(void)
{
	static struct snapshot s;

	CHECK(snapshot_of("cx6lx-2port", &s) == 0);
	CHECK_STR(s.identity.time, "2026-11-18T11:06:40Z");
	CHECK_STR(s.identity.devices[0].board_id, "MT_0000000531");
	CHECK_STR(s.identity.devices[0].hca_type, "MT4127");
	CHECK_STR(s.identity.devices[0].fw_ver, "26.36.1010");
	CHECK_STR(s.identity.devices[0].pci_address, "0000:39:00.0");
	/* This process's libraries and kernel say nothing of the tree's host. */
	CHECK(!s.identity.providers_known && !s.identity.libibverbs_file[0] && !s.identity.kernel_release[0]);
	snapshot_free(&s);
}

static void rdma_core_version_comes_from_the_library_file_name(void)
{
	char v[32];

	CHECK(identity_rdma_core_version("/usr/lib/x86_64-linux-gnu/libibverbs.so.1.14.44.0", v, sizeof(v)) == 0);
	CHECK_STR(v, "44.0");
	CHECK(identity_rdma_core_version("libibverbs.so.1.8.28.0", v, sizeof(v)) == 0);
	CHECK_STR(v, "28.0");
	CHECK(identity_rdma_core_version("/lib/libibverbs.so.1", v, sizeof(v)) == -EINVAL);
	CHECK(identity_rdma_core_version("/lib/libibverbs.so.1.14.", v, sizeof(v)) == -EINVAL);
	CHECK(identity_rdma_core_version("/lib/libmlx5.so.1.24.44.0", v, sizeof(v)) == -EINVAL);
}

/* A good document of the cx6lx-2port fixture, as a JSON value to break. */
static json_t *good_doc(void)
{
	static struct snapshot s;
	json_t *doc;

	if (snapshot_of("cx6lx-2port", &s) < 0)
		return json_object();
	doc = snapshot_to_json(&s);
	snapshot_free(&s);
	return doc;
}

static int snapshot_is_empty(const struct snapshot *s)
{
	static const struct snapshot empty;

	return memcmp(s, &empty, sizeof(empty)) == 0;
}

/* Parses text: -EINVAL with exactly message, nothing left in the snapshot. */
#define REFUSED_TEXT(text, message) refused_text(text, message, __LINE__)
static void refused_text(const char *text, const char *message, int line)
{
	static struct snapshot s;
	char why[768] = "";
	int ret = snapshot_parse(text, strlen(text), &s, why, sizeof(why));

	if (ret != -EINVAL || strcmp(why, message) != 0 || !snapshot_is_empty(&s)) {
		printf("# line %d: ret %d, snapshot %s\n#   got:  %s\n#   want: %s\n", line, ret,
		       snapshot_is_empty(&s) ? "empty" : "NOT EMPTY", why, message);
		tap_failed_checks++;
	}
	if (ret == 0)
		snapshot_free(&s);
}

/* Dumps doc on one line (and drops it), then as refused_text. */
#define REFUSED(doc, message) refused_doc(doc, message, __LINE__)
static void refused_doc(json_t *doc, const char *message, int line)
{
	char *text = json_dumps(doc, JSON_PRESERVE_ORDER | JSON_COMPACT);

	refused_text(text ? text : "", message, line);
	free(text);
	json_decref(doc);
}

static void text_that_is_not_json_is_refused_with_its_line(void)
{
	REFUSED_TEXT("", "line 1 column 0: not a JSON document: '[' or '{' expected near end of file");
	REFUSED_TEXT("hello", "line 1 column 5: not a JSON document: '[' or '{' expected near 'hello'");
	REFUSED_TEXT("{\n  \"schema\": \"roce-doctor/snapshot/v1\",\n  \"root\": nul",
		     "line 3 column 13: not a JSON document: invalid token near 'nul'");
}

static void truncated_document_is_refused(void)
{
	json_t *doc = good_doc();
	char *text = json_dumps(doc, JSON_PRESERVE_ORDER | JSON_INDENT(2));
	size_t lines = 0;

	CHECK(json_object_size(doc) > 0);   /* good_doc gives {} when the fixture could not be probed */

	for (char *c = text; c && *c; c++)
		lines += *c == '\n';
	/* Cut at the end of the middle line, never inside a token: a cut in "null" is an invalid token, not a
	 * truncation, and where the middle falls moves with the fixtures' path (it is in the document). */
	{
		size_t cut = strlen(text) / 2;

		while (cut > 0 && text[cut] != '\n')
			cut--;
		text[cut] = '\0';
	}
	{
		static struct snapshot s;
		char why[768] = "";

		CHECK(snapshot_parse(text, strlen(text), &s, why, sizeof(why)) == -EINVAL);
		/* jansson's own words vary with what the last line held ("premature end of input", "'}' expected near
		 * end of file"): the line and our prefix do not. */
		printf("# refused as: %s\n", why);
		CHECK(strstr(why, "not a JSON document: ") != NULL && strstr(why, "end of") != NULL);
		CHECK(strncmp(why, "line ", 5) == 0 && snapshot_is_empty(&s));
	}
	CHECK(lines > 50);
	free(text);
	json_decref(doc);
}

static void another_schema_or_a_newer_version_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(doc, "schema", json_string("roce-doctor/host/v1"));
	REFUSED(doc, "schema: expected \"roce-doctor/snapshot/v1\", got \"roce-doctor/host/v1\"");
	doc = good_doc();
	json_object_set_new(doc, "schema", json_string("roce-doctor/snapshot/v2"));
	json_object_set_new(doc, "host", json_string("a member v2 may have changed"));
	REFUSED(doc, "schema: \"roce-doctor/snapshot/v2\" is newer than this roce-doctor reads (roce-doctor/snapshot/v1)");
	doc = good_doc();
	json_object_del(doc, "schema");
	REFUSED(doc, "schema: missing: expected \"roce-doctor/snapshot/v1\"");
	REFUSED_TEXT("[1, 2]", "document: expected an object, got an array");
	/* The embedded host document keeps its own schema check, under its path. */
	doc = good_doc();
	json_object_set_new(json_object_get(doc, "host"), "schema", json_string("roce-doctor/host/v7"));
	REFUSED(doc, "host.schema: \"roce-doctor/host/v7\" is newer than this roce-doctor reads (roce-doctor/host/v1)");
}

static void member_of_wrong_type_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_set_new(json_object_get(doc, "identity"), "hostname", json_integer(7));
	REFUSED(doc, "identity.hostname: expected a string or null, got an integer");
	doc = good_doc();
	json_object_set_new(doc, "root", json_true());
	REFUSED(doc, "root: expected a directory name or null, got a boolean");
	doc = good_doc();
	json_object_set_new(doc, "system", json_true());
	REFUSED(doc, "system: expected an object, got a boolean");
	doc = good_doc();
	json_object_set_new(json_object_get(doc, "host"), "devices", json_string("mlx5_0"));
	REFUSED(doc, "host.devices: expected an array of at most 256 entries, got a string");
	doc = good_doc();
	json_object_set_new(json_array_get(json_object_get(json_object_get(doc, "identity"), "devices"), 1), "board_id",
			    json_real(1.5));
	REFUSED(doc, "identity.devices[1].board_id: expected a string or null, got a number");
	doc = good_doc();
	json_object_set_new(doc, "host", json_null());
	REFUSED(doc, "host: expected an object, got null");
	doc = good_doc();
	json_object_set_new(doc, "warnings", json_pack("[i]", 3));
	REFUSED(doc, "warnings[0]: expected a string of at most 8192 bytes (no NUL), got an integer");
}

/* The system sources are read by the system reader: what it refuses is named under system. */
static void bad_system_member_is_refused_with_its_path(void)
{
	json_t *doc = good_doc();

	json_object_set_new(doc, "system", json_object());
	REFUSED(doc, "system.schema: missing (expected \"roce-doctor/system/v1\")");
	doc = good_doc();
	json_object_set_new(json_object_get(doc, "system"), "live", json_string("yes"));
	REFUSED(doc, "system.live: expected true or false, got a string");
	doc = good_doc();
	json_object_set_new(json_object_get(json_object_get(doc, "system"), "user"), "uid", json_integer(-1));
	REFUSED(doc, "system.user.uid: expected an integer from 0 to 4294967295, got -1");
	doc = good_doc();
	json_object_set_new(json_object_get(doc, "system"), "warnings", json_pack("[s,i]", "a note", 3));
	REFUSED(doc, "system.warnings[1]: expected a string, got an integer");
	doc = good_doc();
	json_object_set_new(json_object_get(doc, "system"), "firewalld", json_null());
	REFUSED(doc, "system.firewalld: unknown member");
	doc = good_doc();
	json_object_del(json_object_get(doc, "system"), "nccl");
	REFUSED(doc, "system.nccl: missing (expected an object or null)");
}

/* A snapshot of an older roce-doctor (system null) is still read: check --from refuses it, not the reader. */
static void system_null_is_still_a_snapshot(void)
{
	static struct snapshot s;
	json_t *doc = good_doc();
	char *text, why[768] = "";

	json_object_set_new(doc, "system", json_null());
	text = json_dumps(doc, JSON_COMPACT);
	CHECK(text && snapshot_parse(text, strlen(text), &s, why, sizeof(why)) == 0);
	CHECK(!s.system_known && s.host.device_count > 0);
	snapshot_free(&s);
	free(text);
	json_decref(doc);
	doc = good_doc();
	text = json_dumps(doc, JSON_COMPACT);
	CHECK(text && snapshot_parse(text, strlen(text), &s, why, sizeof(why)) == 0);
	CHECK(s.system_known && s.system.nccl_read && !s.system.live);
	snapshot_free(&s);
	free(text);
	json_decref(doc);
}

static void missing_or_unknown_member_is_refused(void)
{
	json_t *doc = good_doc();

	json_object_del(json_object_get(doc, "identity"), "kernel_release");
	REFUSED(doc, "identity.kernel_release: missing");
	doc = good_doc();
	json_object_set_new(doc, "comment", json_string("hand-edited"));
	REFUSED(doc, "comment: unknown member");
	doc = good_doc();
	json_object_del(doc, "system");
	REFUSED(doc, "system: missing");
}

static void oversized_array_or_string_is_refused(void)
{
	json_t *doc = good_doc(), *devices = json_object_get(json_object_get(doc, "identity"), "devices");
	char big[300];

	while (json_array_size(devices) <= HOST_DEVICES_MAX)
		json_array_append(devices, json_array_get(devices, 0));
	REFUSED(doc, "identity.devices: expected at most 256 entries, got 257");
	doc = good_doc();
	memset(big, 'h', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	json_object_set_new(json_object_get(doc, "identity"), "hostname", json_string(big));
	REFUSED(doc, "identity.hostname: expected a non-empty string of at most 255 bytes (no NUL), got one of 299");
	doc = good_doc();
	json_object_set_new(json_object_get(doc, "identity"), "time", json_string(""));
	REFUSED(doc, "identity.time: expected a non-empty string of at most 31 bytes (no NUL), got one of 0");
	doc = good_doc();
	json_object_set_new(json_object_get(doc, "identity"), "providers", json_array());
	for (int i = 0; i <= IDENTITY_PROVIDERS_MAX; i++)
		json_array_append_new(json_object_get(json_object_get(doc, "identity"), "providers"),
				      json_pack("{s:s, s:s}", "name", "mlx5", "file", "/usr/lib/libmlx5-rdmav34.so"));
	REFUSED(doc, "identity.providers: expected at most 64 entries, got 65");
	doc = good_doc();
	json_object_set_new(json_array_get(json_object_get(json_object_get(doc, "host"), "devices"), 0), "fw_ver",
			    json_string(big));
	REFUSED(doc, "host.devices[0].fw_ver: expected a string of at most 63 bytes, got 299 bytes");
}

/* `--json-lines` output of several nodes merged: --from takes one document and says how to take one line. */
static void stream_of_snapshots_or_broken_line_is_refused_with_its_line(void)
{
	json_t *doc = good_doc();
	char *line = json_dumps(doc, JSON_PRESERVE_ORDER | JSON_COMPACT);
	char *stream = NULL;

	CHECK(asprintf(&stream, "%s\n%s\n", line, line) > 0);
	REFUSED_TEXT(stream, "line 2 column 1: a second document after the first: --from reads one snapshot; of a "
			     "--json-lines stream take one line (sed -n 2p FILE > node.json)");
	free(stream);
	/* The first line cut short (a node killed while writing), the next one whole: the broken line is named. */
	CHECK(asprintf(&stream, "%.40s\n%s\n", line, line) > 0);
	REFUSED_TEXT(stream, "line 1 column 40: not a JSON document: unexpected newline near '\"roo'");
	free(stream);
	free(line);
	json_decref(doc);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		fixtures_dir = argv[1];
	RUN(every_fixture_snapshot_round_trips_byte_identical);
	RUN(identity_under_root_is_what_the_tree_holds);
	RUN(rdma_core_version_comes_from_the_library_file_name);
	RUN(text_that_is_not_json_is_refused_with_its_line);
	RUN(truncated_document_is_refused);
	RUN(another_schema_or_a_newer_version_is_refused);
	RUN(member_of_wrong_type_is_refused);
	RUN(bad_system_member_is_refused_with_its_path);
	RUN(system_null_is_still_a_snapshot);
	RUN(missing_or_unknown_member_is_refused);
	RUN(oversized_array_or_string_is_refused);
	RUN(stream_of_snapshots_or_broken_line_is_refused_with_its_line);
	TAP_DONE();
}
