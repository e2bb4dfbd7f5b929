// SPDX-License-Identifier: GPL-2.0-only
/* mesh's control messages to and from bytes: the writer and the checking reader side by side. */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mesh/message.h"

static const char *const type_names[] = { "register", "welcome", "refuse", "round", "result", "done", "challenge" };
static const uint8_t magic[4] = { 'R', 'D', 'M', '1' };

/* ---- writing ---- */

static json_t *register_json(const struct mesh_register *r)
{
	json_t *rails = json_array();

	for (unsigned i = 0; i < r->rail_count && i < MESH_RAILS_MAX; i++)
		json_array_append_new(rails, json_pack("{s:s, s:I, s:s, s:s, s:f}", "device", r->rails[i].device, "port",
						       (json_int_t)r->rails[i].port, "netdev", r->rails[i].netdev,
						       "address", r->rails[i].address, "link_gbps", r->rails[i].link_gbps));
	return json_pack("{s:I, s:I, s:I, s:s, s:I, s:s, s:s, s:I, s:o}", "version", (json_int_t)r->version, "rank",
			 (json_int_t)r->rank, "size", (json_int_t)r->size, "host", r->host, "serve_port",
			 (json_int_t)r->serve_port, "serve_error", r->serve_error, "tool_version", r->tool_version,
			 "devices", (json_int_t)r->devices, "rails", rails);
}

static json_t *round_json(const struct mesh_round *r)
{
	json_t *orders = json_array();

	for (unsigned i = 0; i < r->count && i < MESH_RAILS_MAX; i++)
		json_array_append_new(orders, json_pack("{s:i, s:I, s:s, s:I}", "rail", r->orders[i].rail, "peer",
							(json_int_t)r->orders[i].peer, "address", r->orders[i].address,
							"serve_port", (json_int_t)r->orders[i].serve_port));
	return json_pack("{s:I, s:I, s:f, s:I, s:b, s:o}", "round", (json_int_t)r->round, "rounds",
			 (json_int_t)r->rounds, "seconds", r->seconds, "bytes", (json_int_t)r->bytes, "together", r->together,
			 "orders", orders);
}

static json_t *report_json(const struct mesh_report *r)
{
	json_t *list = json_array();

	for (unsigned i = 0; i < r->count && i < MESH_RAILS_MAX; i++) {
		const struct mesh_outcome *o = &r->outcomes[i];

		json_array_append_new(list, json_pack("{s:i, s:I, s:b, s:f, s:f, s:I, s:s}", "rail", o->rail, "peer",
						      (json_int_t)o->peer, "measured", o->measured, "gbps", o->gbps,
						      "link_gbps", o->link_gbps, "attempts", (json_int_t)o->attempts,
						      "why", o->why));
	}
	return json_pack("{s:I, s:o}", "round", (json_int_t)r->round, "outcomes", list);
}

static json_t *hex_json(const uint8_t *bytes, size_t len)
{
	char text[2 * 64 + 1];

	for (size_t i = 0; i < len && i < 64; i++)
		snprintf(text + 2 * i, 3, "%02x", bytes[i]);
	return json_string(text);
}

static json_t *proof_json(const struct mesh_proof *p)
{
	return p->given ? json_pack("{s:o, s:o}", "nonce", hex_json(p->nonce, sizeof(p->nonce)), "mac",
				    hex_json(p->mac, sizeof(p->mac))) : json_null();
}

int mesh_msg_encode(const struct mesh_msg *m, uint8_t **frame, size_t *len)
{
	json_t *body;
	char *text;
	size_t n;

	if ((unsigned)m->type >= sizeof(type_names) / sizeof(type_names[0]))
		return -EINVAL;
	body = m->type == MESH_MSG_REGISTER ? register_json(&m->u.reg) : m->type == MESH_MSG_ROUND ?
	       round_json(&m->u.round) : m->type == MESH_MSG_RESULT ? report_json(&m->u.report) :
	       m->type == MESH_MSG_REFUSE ? json_pack("{s:s}", "why", m->u.refuse) :
	       m->type == MESH_MSG_CHALLENGE ? json_pack("{s:o, s:b}", "nonce", hex_json(m->u.challenge.nonce,
			       MESH_NONCE_LEN), "token", m->u.challenge.token) : json_object();
	if (!body)
		return -EINVAL;   /* a string that is not UTF-8 */
	if (m->type == MESH_MSG_REGISTER || m->type == MESH_MSG_WELCOME)
		json_object_set_new(body, "proof", proof_json(&m->proof));
	json_object_set_new(body, "type", json_string(type_names[m->type]));
	text = json_dumps(body, JSON_COMPACT);
	json_decref(body);
	if (!text)
		return -ENOMEM;
	n = strlen(text);
	if (n > MESH_FRAME_MAX) {
		free(text);
		return -EINVAL;
	}
	*frame = malloc(MESH_HEADER_LEN + n);
	if (!*frame) {
		free(text);
		return -ENOMEM;
	}
	memcpy(*frame, magic, 4);
	(*frame)[4] = (uint8_t)(n >> 24);
	(*frame)[5] = (uint8_t)(n >> 16);
	(*frame)[6] = (uint8_t)(n >> 8);
	(*frame)[7] = (uint8_t)n;
	memcpy(*frame + MESH_HEADER_LEN, text, n);
	free(text);
	*len = MESH_HEADER_LEN + n;
	return 0;
}

/* ---- reading ---- */

int mesh_msg_header(const uint8_t header[MESH_HEADER_LEN], uint32_t *len, char *why, size_t why_size)
{
	uint32_t n = (uint32_t)header[4] << 24 | (uint32_t)header[5] << 16 | (uint32_t)header[6] << 8 | header[7];

	if (memcmp(header, magic, 4) != 0) {
		snprintf(why, why_size, "not a roce-doctor mesh frame (another program on the port, or another "
			 "roce-doctor version)");
		return -EPROTO;
	}
	if (n == 0 || n > MESH_FRAME_MAX) {
		snprintf(why, why_size, "a frame of %u bytes: expected 1 to %d", n, MESH_FRAME_MAX);
		return -EMSGSIZE;
	}
	*len = n;
	return 0;
}

static int bad(char *why, size_t why_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(char *why, size_t why_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	return -EPROTO;
}

/* The reader's context: the message and the index of the array element being read, for the path in why. */
struct reader {
	const char *type;
	const char *array;   /* NULL at the top level */
	size_t index;
	char *why;
	size_t why_size;
};

static void path(const struct reader *r, const char *key, char *buf, size_t size)
{
	if (r->array)
		snprintf(buf, size, "%s.%s[%zu].%s", r->type, r->array, r->index, key);
	else
		snprintf(buf, size, "%s.%s", r->type, key);
}

static int get_uint(const struct reader *r, const json_t *o, const char *key, json_int_t min, json_int_t max,
		    unsigned *out)
{
	const json_t *v = json_object_get(o, key);
	char p[96];

	path(r, key, p, sizeof(p));
	if (!json_is_integer(v) || json_integer_value(v) < min || json_integer_value(v) > max)
		return bad(r->why, r->why_size, "%s: expected a whole number from %lld to %lld", p, (long long)min,
			   (long long)max);
	*out = (unsigned)json_integer_value(v);
	return 0;
}

static int get_number(const struct reader *r, const json_t *o, const char *key, double min, double max, double *out)
{
	const json_t *v = json_object_get(o, key);
	char p[96];

	path(r, key, p, sizeof(p));
	if (!json_is_number(v) || !(json_number_value(v) >= min) || !(json_number_value(v) <= max))
		return bad(r->why, r->why_size, "%s: expected a number from %g to %g", p, min, max);
	*out = json_number_value(v);
	return 0;
}

/* A string of at most size - 1 bytes, without control characters (they would reach a terminal). */
static int get_text(const struct reader *r, const json_t *o, const char *key, char *out, size_t size)
{
	const json_t *v = json_object_get(o, key);
	const char *s = json_string_value(v);
	char p[96];

	path(r, key, p, sizeof(p));
	if (!json_is_string(v) || json_string_length(v) >= size || strlen(s) != json_string_length(v))
		return bad(r->why, r->why_size, "%s: expected a string of at most %zu bytes", p, size - 1);
	for (const char *c = s; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			return bad(r->why, r->why_size, "%s: a control character in the string", p);
	memcpy(out, s, json_string_length(v) + 1);
	return 0;
}

static int get_array(const struct reader *r, const json_t *o, const char *key, size_t max, const json_t **out)
{
	const json_t *v = json_object_get(o, key);
	char p[96];

	path(r, key, p, sizeof(p));
	if (!json_is_array(v) || json_array_size(v) > max)
		return bad(r->why, r->why_size, "%s: expected an array of at most %zu members", p, max);
	*out = v;
	return 0;
}

static int element(struct reader *r, const json_t *list, size_t i, const char *array, const json_t **out)
{
	r->array = array;
	r->index = i;
	*out = json_array_get(list, i);
	if (!json_is_object(*out))
		return bad(r->why, r->why_size, "%s.%s[%zu]: expected an object", r->type, array, i);
	return 0;
}

/* Exactly len bytes as 2 * len lower-case hex digits. */
static int get_hex(const struct reader *r, const json_t *o, const char *key, uint8_t *out, size_t len)
{
	const char *s = json_string_value(json_object_get(o, key));
	char p[96];

	path(r, key, p, sizeof(p));
	if (!s || strlen(s) != 2 * len || strspn(s, "0123456789abcdef") != 2 * len)
		return bad(r->why, r->why_size, "%s: expected %zu hex digits", p, 2 * len);
	for (size_t i = 0; i < len; i++) {
		unsigned v;

		sscanf(s + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
	return 0;
}

/* "proof": null or absent (none), or { "nonce", "mac" }. */
static int read_proof(struct reader *r, const json_t *o, struct mesh_proof *p)
{
	const json_t *v = json_object_get(o, "proof");

	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return bad(r->why, r->why_size, "%s.proof: expected null or an object", r->type);
	r->array = NULL;
	if (get_hex(r, v, "nonce", p->nonce, sizeof(p->nonce)) || get_hex(r, v, "mac", p->mac, sizeof(p->mac)))
		return -EPROTO;
	p->given = true;
	return 0;
}

static int read_challenge(struct reader *r, const json_t *o, struct mesh_challenge *c)
{
	if (get_hex(r, o, "nonce", c->nonce, sizeof(c->nonce)))
		return -EPROTO;
	if (!json_is_boolean(json_object_get(o, "token")))
		return bad(r->why, r->why_size, "challenge.token: expected true or false");
	c->token = json_is_true(json_object_get(o, "token"));
	return 0;
}

static int read_register(struct reader *r, const json_t *o, struct mesh_register *g)
{
	const json_t *rails, *e;

	if (get_uint(r, o, "version", 1, 65535, &g->version) || get_uint(r, o, "rank", 0, MESH_NODES_MAX - 1, &g->rank) ||
	    get_uint(r, o, "size", 2, MESH_NODES_MAX, &g->size) || get_text(r, o, "host", g->host, sizeof(g->host)) ||
	    get_uint(r, o, "serve_port", 1, 65535, &g->serve_port) ||
	    get_text(r, o, "serve_error", g->serve_error, sizeof(g->serve_error)) ||
	    get_text(r, o, "tool_version", g->tool_version, sizeof(g->tool_version)) ||
	    get_uint(r, o, "devices", 0, 65535, &g->devices) || get_array(r, o, "rails", MESH_RAILS_MAX, &rails))
		return -EPROTO;
	g->rail_count = (unsigned)json_array_size(rails);
	for (size_t i = 0; i < g->rail_count; i++) {
		struct mesh_reg_rail *x = &g->rails[i];

		if (element(r, rails, i, "rails", &e) || get_text(r, e, "device", x->device, sizeof(x->device)) ||
		    get_uint(r, e, "port", 1, 255, &x->port) || get_text(r, e, "netdev", x->netdev, sizeof(x->netdev)) ||
		    get_text(r, e, "address", x->address, sizeof(x->address)) ||
		    get_number(r, e, "link_gbps", 0, 1e5, &x->link_gbps))
			return -EPROTO;
	}
	return 0;
}

static int read_round(struct reader *r, const json_t *o, struct mesh_round *d)
{
	const json_t *list, *e;
	unsigned bytes;

	if (get_uint(r, o, "round", 1, MESH_NODES_MAX, &d->round) ||
	    get_uint(r, o, "rounds", 1, MESH_NODES_MAX, &d->rounds) || get_number(r, o, "seconds", 0.001, 600, &d->seconds) ||
	    get_uint(r, o, "bytes", 1, 8u << 20, &bytes) || get_array(r, o, "orders", MESH_RAILS_MAX, &list))
		return -EPROTO;
	if (!json_is_boolean(json_object_get(o, "together")))
		return bad(r->why, r->why_size, "round.together: expected true or false");
	d->bytes = bytes;
	d->together = json_is_true(json_object_get(o, "together"));
	d->count = (unsigned)json_array_size(list);
	for (size_t i = 0; i < d->count; i++) {
		struct mesh_order *x = &d->orders[i];
		unsigned rail;

		if (element(r, list, i, "orders", &e) || get_uint(r, e, "rail", 0, MESH_RAILS_MAX - 1, &rail) ||
		    get_uint(r, e, "peer", 0, MESH_NODES_MAX - 1, &x->peer) ||
		    get_text(r, e, "address", x->address, sizeof(x->address)) ||
		    get_uint(r, e, "serve_port", 1, 65535, &x->serve_port))
			return -EPROTO;
		x->rail = (int)rail;
	}
	return 0;
}

static int read_report(struct reader *r, const json_t *o, struct mesh_report *d)
{
	const json_t *list, *e;

	if (get_uint(r, o, "round", 1, MESH_NODES_MAX, &d->round) || get_array(r, o, "outcomes", MESH_RAILS_MAX, &list))
		return -EPROTO;
	d->count = (unsigned)json_array_size(list);
	for (size_t i = 0; i < d->count; i++) {
		struct mesh_outcome *x = &d->outcomes[i];
		unsigned rail;

		if (element(r, list, i, "outcomes", &e) || get_uint(r, e, "rail", 0, MESH_RAILS_MAX - 1, &rail) ||
		    get_uint(r, e, "peer", 0, MESH_NODES_MAX - 1, &x->peer) ||
		    get_number(r, e, "gbps", 0, 1e5, &x->gbps) || get_number(r, e, "link_gbps", 0, 1e5, &x->link_gbps) ||
		    get_uint(r, e, "attempts", 1, 2, &x->attempts) || get_text(r, e, "why", x->why, sizeof(x->why)))
			return -EPROTO;
		if (!json_is_boolean(json_object_get(e, "measured")))
			return bad(r->why, r->why_size, "result.outcomes[%zu].measured: expected true or false", i);
		x->rail = (int)rail;
		x->measured = json_is_true(json_object_get(e, "measured"));
	}
	return 0;
}

int mesh_msg_decode(const uint8_t *payload, size_t len, struct mesh_msg *m, char *why, size_t why_size)
{
	json_error_t err;
	json_t *o = json_loadb((const char *)payload, len, JSON_REJECT_DUPLICATES, &err);
	const char *type = json_string_value(json_object_get(o, "type"));
	struct reader r = { type, NULL, 0, why, why_size };
	int ret = -EPROTO;
	size_t t;

	memset(m, 0, sizeof(*m));
	if (!json_is_object(o)) {
		bad(why, why_size, "not a JSON object: %s", o ? "another JSON value" : err.text);
		goto out;
	}
	for (t = 0; type && t < sizeof(type_names) / sizeof(type_names[0]); t++)
		if (strcmp(type, type_names[t]) == 0)
			break;
	if (!type || t == sizeof(type_names) / sizeof(type_names[0])) {
		bad(why, why_size, "type: expected register, welcome, refuse, round, result, done or challenge");
		goto out;
	}
	m->type = (enum mesh_msg_type)t;
	switch (m->type) {
	case MESH_MSG_REGISTER:
		ret = read_register(&r, o, &m->u.reg);
		if (ret == 0)
			ret = read_proof(&r, o, &m->proof);
		break;
	case MESH_MSG_WELCOME:
		ret = read_proof(&r, o, &m->proof);
		break;
	case MESH_MSG_CHALLENGE:
		ret = read_challenge(&r, o, &m->u.challenge);
		break;
	case MESH_MSG_REFUSE:
		ret = get_text(&r, o, "why", m->u.refuse, sizeof(m->u.refuse));
		break;
	case MESH_MSG_ROUND:
		ret = read_round(&r, o, &m->u.round);
		break;
	case MESH_MSG_RESULT:
		ret = read_report(&r, o, &m->u.report);
		break;
	default:
		ret = 0;
	}
out:
	json_decref(o);
	return ret;
}
