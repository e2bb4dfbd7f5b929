// SPDX-License-Identifier: GPL-2.0-only
/* json_tree: what our parser accepts, jansson accepts as the same tree (jansson is the referee: the snapshot
 * reader falls back to it for everything ours declines); the plain JSON our writers produce takes the fast
 * path; and jansson's trees copy faithfully. Checked on hand-picked edges and on random mutations. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/json_tree.h"
#include "tap.h"

/* Whether our node and jansson's value are the same document (types, order of members, bytes, numbers). */
static bool same(const struct jnode *n, const json_t *v)
{
	const char *key;
	json_t *member;
	size_t i = 0;

	if (!n || !v || jnode_typeof(n) != json_typeof(v))
		return false;
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		if (n->count != json_object_size(v))
			return false;
		json_object_foreach((json_t *)v, key, member) {
			if (strcmp(n->u.items[i].key, key) != 0 || !same(&n->u.items[i], member))
				return false;
			i++;
		}
		return true;
	case JSON_ARRAY:
		if (n->count != json_array_size(v))
			return false;
		for (i = 0; i < n->count; i++)
			if (n->u.items[i].key || !same(&n->u.items[i], json_array_get(v, i)))
				return false;
		return true;
	case JSON_STRING:
		return n->count == json_string_length(v) && memcmp(n->u.string, json_string_value(v), n->count + 1) == 0;
	case JSON_INTEGER:
		return n->u.integer == json_integer_value(v);
	case JSON_REAL:
		return memcmp(&n->u.real, &(double){ json_real_value(v) }, sizeof(double)) == 0;
	default:
		return true;
	}
}

/* 1: ours took it (and jansson agrees), 0: ours declined, -1: ours took what jansson reads otherwise. Either
 * way jansson's tree, if any, must copy faithfully. */
static int judge(const char *text, size_t len)
{
	struct json_tree ours = { 0 }, copy = { 0 };
	json_error_t error;
	json_t *ref = json_loadb(text, len, JSON_REJECT_DUPLICATES, &error);
	int ret = json_tree_parse(&ours, text, len), verdict;

	if (ret == 0)
		verdict = ref && same(ours.root, ref) ? 1 : -1;
	else
		verdict = ret == -EINVAL ? 0 : -1;
	if (ref && (json_tree_from_jansson(&copy, ref) < 0 || !same(copy.root, ref)))
		verdict = -1;
	if (verdict < 0)
		printf("# disagreement on %zu bytes: %.200s\n", len, text);
	json_decref(ref);
	json_tree_free(&ours);
	json_tree_free(&copy);
	return verdict;
}

static const char sample[] =
	"{\"schema\":\"roce-doctor/snapshot/v1\",\"root\":null,\"identity\":{\"hostname\":\"b07\",\"n\":-12,"
	"\"devices\":[{\"device\":\"mlx5_0\",\"fw_ver\":\"28.39.1002\",\"rate_gbps\":400.0,\"x\":1.5e-3}],"
	"\"empty\":{},\"none\":[],\"flags\":[true,false,null]},\n  \"warnings\":[\"a \\\"quoted\\\" \\\\ \\/ "
	"\\n\\t\\r\\b\\f \\u0041\\u007f word\"], \"zero\": 0, \"neg0\": -0, \"big\": 123456789012345678}\n";

static void json_tree_takes_what_our_writers_write(void)
{
	CHECK(judge(sample, strlen(sample)) == 1);
	CHECK(judge("[]", 2) == 1);
	CHECK(judge(" \t\r\n{}\n", 7) == 1);
}

/* Each of these ours must leave to jansson (or jansson refuses it): never a tree of our own. */
static void json_tree_declines_the_edges(void)
{
	static const char *const edges[] = {
		"", " ", "1", "\"s\"", "null", "{}x", "{}{}", "[]]", "{\"a\":1,\"a\":2}", "{\"a\":1,\"\\u0061\":2}",
		"[\"\\u0000\"]", "[\"\\u00e9\"]", "[\"\\ud83d\\ude00\"]", "[\"\xc3\xa9\"]", "[\"\xff\"]", "[\"a\x01\"]",
		"[01]", "[-]", "[1.]", "[.5]", "[1e]", "[+1]", "[1e400]", "[-1e400]", "[1e-400]",
		"[1234567890123456789]", "[-9223372036854775809]", "[9223372036854775807]", "[tru]", "[truex]",
		"[nul]", "[\"\\x\"]", "[\"\\u12\"]", "[\"abc]", "{\"a\" 1}", "{\"a\":}", "{,}", "[1,]", "{\"a\":1,}",
		"[1 2]", "{1:2}", "\xef\xbb\xbf{}", "[\"a\"\x00]", "{\"a\":[}]", "[NaN]", "[Infinity]", "[0x10]",
	};

	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		size_t len = strlen(edges[i]) + (strcmp(edges[i], "[\"a\"") == 0);
		int verdict = judge(edges[i], len);

		if (verdict != 0)
			printf("# edge %zu (%s): %d\n", i, edges[i], verdict);
		CHECK(verdict == 0);
	}
}

static char *nested(size_t depth, bool objects)
{
	char *s = malloc(depth * 6 + 8), *p = s;

	for (size_t i = 0; i < depth; i++)
		p += sprintf(p, "%s", objects ? "{\"a\":" : "[");
	*p++ = '1';
	for (size_t i = 0; i < depth; i++)
		*p++ = objects ? '}' : ']';
	*p = '\0';
	return s;
}

/* 64 levels and 64 members are ours; one more goes to jansson, which reads it (so the reader still does). */
static void json_tree_bounds_depth_and_members(void)
{
	char *deep = nested(64, false), *deeper = nested(65, true), *deepest = nested(100000, false);
	char wide[2048] = "{", *p = wide + 1;

	CHECK(judge(deep, strlen(deep)) == 1);
	CHECK(judge(deeper, strlen(deeper)) == 0);
	CHECK(judge(deepest, strlen(deepest)) == 0);   /* no recursion to blow: jansson refuses past 2048 */
	for (int i = 0; i < 64; i++)
		p += sprintf(p, "%s\"m%d\":%d", i ? "," : "", i, i);
	strcpy(p, "}");
	CHECK(judge(wide, strlen(wide)) == 1);
	sprintf(p, ",\"m64\":64}");
	CHECK(judge(wide, strlen(wide)) == 0);
	free(deep);
	free(deeper);
	free(deepest);
}

/* Random byte edits of the sample: ours never accepts what jansson refuses or reads differently. */
static void json_tree_agrees_with_jansson_on_mutations(void)
{
	static const char alphabet[] = "{}[]\",:\\ -+.0123456789eEtrufalsn\x01\x7f\x80\xc3\xa9\xff\t\n/abu";
	size_t len = strlen(sample);
	char *text = malloc(len + 8);
	unsigned seed = 11;
	int took = 0, disagreed = 0;

	for (int round = 0; round < 4000; round++) {
		size_t n = len, edits = 1 + (size_t)(rand_r(&seed) % 3);

		memcpy(text, sample, len + 1);
		for (size_t e = 0; e < edits && n > 0; e++) {
			size_t at = (size_t)rand_r(&seed) % n;
			char c = alphabet[(size_t)rand_r(&seed) % (sizeof(alphabet) - 1)];

			switch (rand_r(&seed) % 4) {
			case 0:   /* replace */
				text[at] = c;
				break;
			case 1:   /* insert */
				memmove(text + at + 1, text + at, n - at + 1);
				text[at] = c;
				n++;
				break;
			case 2:   /* delete */
				memmove(text + at, text + at + 1, n - at);
				n--;
				break;
			default:  /* truncate */
				n = at;
				text[n] = '\0';
			}
		}
		switch (judge(text, n)) {
		case 1:
			took++;
			break;
		case -1:
			disagreed++;
			break;
		}
	}
	printf("# 4000 mutations: ours took %d, disagreed on %d\n", took, disagreed);
	CHECK(disagreed == 0);
	CHECK(took > 100);   /* the harmless ones (a digit, a letter in a string) stay on the fast path */
	free(text);
}

/* One tree parses document after document in the same memory. */
static void json_tree_reuses_its_memory(void)
{
	struct json_tree t = { 0 };

	CHECK(json_tree_parse(&t, sample, strlen(sample)) == 0);
	CHECK(json_tree_parse(&t, "[1,{\"a\":\"b\"}]", 13) == 0 && jnode_array_size(t.root) == 2 &&
	      strcmp(jnode_string_value(jnode_object_get(jnode_array_get(t.root, 1), "a")), "b") == 0);
	CHECK(json_tree_parse(&t, "[1,", 3) == -EINVAL);
	CHECK(json_tree_parse(&t, sample, strlen(sample)) == 0 &&
	      jnode_integer_value(jnode_object_get(t.root, "big")) == 123456789012345678LL &&
	      jnode_number_value(jnode_object_get(t.root, "neg0")) == 0 &&
	      !jnode_object_get(t.root, "missing") && !jnode_array_get(t.root, 0));
	json_tree_free(&t);
}

int main(void)
{
	RUN(json_tree_takes_what_our_writers_write);
	RUN(json_tree_declines_the_edges);
	RUN(json_tree_bounds_depth_and_members);
	RUN(json_tree_agrees_with_jansson_on_mutations);
	RUN(json_tree_reuses_its_memory);
	TAP_DONE();
}
