// SPDX-License-Identifier: GPL-2.0-only
/* mesh's control messages: each type round-trips through a frame; a hostile peer's frames are refused with
 * the member named: another magic, a length over the limit, a string too long or with a control character,
 * too many rails, a number out of range, a missing member, a duplicate key, an unknown type, a proof that is not
 * 64 hex digits. The proofs of the job's token (src/proto/mesh_auth.c) hold for the rank and nonces they were
 * made for only. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/mesh/message.h"
#include "proto/mesh_auth.h"
#include "tap.h"

static char why[300];

/* Encodes m and decodes the frame back into out. */
static int round_trip(const struct mesh_msg *m, struct mesh_msg *out)
{
	uint8_t *frame = NULL;
	uint32_t len = 0;
	size_t n = 0;
	int ret = mesh_msg_encode(m, &frame, &n);

	if (ret == 0)
		ret = mesh_msg_header(frame, &len, why, sizeof(why));
	if (ret == 0 && len + MESH_HEADER_LEN != n)
		ret = -EBADMSG;
	if (ret == 0)
		ret = mesh_msg_decode(frame + MESH_HEADER_LEN, len, out, why, sizeof(why));
	free(frame);
	return ret;
}

static int decode_text(const char *text, struct mesh_msg *out)
{
	return mesh_msg_decode((const uint8_t *)text, strlen(text), out, why, sizeof(why));
}

static struct mesh_msg m, back;

static void register_round_trips(void)
{
	memset(&m, 0, sizeof(m));
	m.type = MESH_MSG_REGISTER;
	m.u.reg = (struct mesh_register){ .version = 1, .rank = 3, .size = 16, .serve_port = 18516, .devices = 2,
					  .rail_count = 2 };
	strcpy(m.u.reg.host, "gpu03");
	strcpy(m.u.reg.tool_version, "0.1.0");
	strcpy(m.u.reg.rails[1].device, "mlx5_1");
	m.u.reg.rails[1].port = 1;
	strcpy(m.u.reg.rails[1].address, "10.1.1.3");
	m.u.reg.rails[1].link_gbps = 400;
	strcpy(m.u.reg.rails[0].device, "mlx5_0");
	m.u.reg.rails[0].port = 1;
	CHECK(round_trip(&m, &back) == 0);
	CHECK(back.type == MESH_MSG_REGISTER && back.u.reg.rank == 3 && back.u.reg.size == 16 &&
	      back.u.reg.rail_count == 2 && back.u.reg.rails[1].link_gbps == 400);
	CHECK_STR(back.u.reg.rails[1].address, "10.1.1.3");
	CHECK_STR(back.u.reg.host, "gpu03");
}

static void round_and_result_round_trip(void)
{
	memset(&m, 0, sizeof(m));
	m.type = MESH_MSG_ROUND;
	m.u.round = (struct mesh_round){ .round = 2, .rounds = 7, .seconds = 2, .bytes = 65536, .together = true,
					 .count = 1 };
	m.u.round.orders[0] = (struct mesh_order){ .rail = 1, .peer = 5, .serve_port = 18600 };
	strcpy(m.u.round.orders[0].address, "10.1.1.5");
	CHECK(round_trip(&m, &back) == 0);
	CHECK(back.u.round.round == 2 && back.u.round.count == 1 && back.u.round.orders[0].peer == 5 &&
	      back.u.round.orders[0].rail == 1 && back.u.round.bytes == 65536 && back.u.round.together);
	memset(&m, 0, sizeof(m));
	m.type = MESH_MSG_RESULT;
	m.u.report = (struct mesh_report){ .round = 2, .count = 1 };
	m.u.report.outcomes[0] = (struct mesh_outcome){ .rail = 0, .peer = 5, .measured = false, .attempts = 2 };
	strcpy(m.u.report.outcomes[0].why, "no RDMA devices on this host");
	CHECK(round_trip(&m, &back) == 0);
	CHECK(back.type == MESH_MSG_RESULT && !back.u.report.outcomes[0].measured && back.u.report.outcomes[0].attempts == 2);
	CHECK_STR(back.u.report.outcomes[0].why, "no RDMA devices on this host");
	m.type = MESH_MSG_DONE;
	CHECK(round_trip(&m, &back) == 0 && back.type == MESH_MSG_DONE);
}

static void headers_refused(void)
{
	uint8_t http[8] = { 'G', 'E', 'T', ' ', '/', ' ', 'H', 'T' }, big[8] = { 'R', 'D', 'M', '1', 0, 4, 0, 1 };
	uint8_t empty[8] = { 'R', 'D', 'M', '1', 0, 0, 0, 0 };
	uint32_t len;

	CHECK(mesh_msg_header(http, &len, why, sizeof(why)) == -EPROTO && strstr(why, "not a roce-doctor mesh frame"));
	CHECK(mesh_msg_header(big, &len, why, sizeof(why)) == -EMSGSIZE && strstr(why, "262145 bytes"));
	CHECK(mesh_msg_header(empty, &len, why, sizeof(why)) == -EMSGSIZE);
}

static void hostile_payloads_refused(void)
{
	char long_host[600] = "{\"type\":\"refuse\",\"why\":\"";

	memset(long_host + strlen(long_host), 'x', 300);
	strcat(long_host, "\"}");
	CHECK(decode_text(long_host, &back) == -EPROTO && strstr(why, "refuse.why: expected a string of at most 255"));
	CHECK(decode_text("{\"type\":\"refuse\",\"why\":\"a\\u001b[2Jb\"}", &back) == -EPROTO && strstr(why, "control"));
	CHECK(decode_text("{\"type\":\"result\",\"round\":1,\"outcomes\":[{\"rail\":0,\"peer\":1,\"measured\":true,"
			  "\"gbps\":-1,\"link_gbps\":0,\"attempts\":1,\"why\":\"\"}]}", &back) == -EPROTO &&
	      strstr(why, "result.outcomes[0].gbps"));
	CHECK(decode_text("{\"type\":\"result\",\"round\":1,\"outcomes\":[{\"rail\":0,\"peer\":1,\"measured\":1,"
			  "\"gbps\":1,\"link_gbps\":0,\"attempts\":1,\"why\":\"\"}]}", &back) == -EPROTO &&
	      strstr(why, "measured"));
	CHECK(decode_text("{\"type\":\"round\",\"round\":1,\"rounds\":1,\"seconds\":2,\"bytes\":65536}", &back) == -EPROTO &&
	      strstr(why, "round.orders: expected an array"));
	CHECK(decode_text("{\"type\":\"round\",\"round\":1,\"rounds\":1,\"seconds\":2,\"bytes\":65536,\"orders\":[]}",
			  &back) == -EPROTO && strstr(why, "round.together"));
	CHECK(decode_text("{\"type\":\"done\",\"type\":\"done\"}", &back) == -EPROTO);
	CHECK(decode_text("{\"type\":\"shutdown\"}", &back) == -EPROTO && strstr(why, "type: expected"));
	CHECK(decode_text("[1,2]", &back) == -EPROTO && strstr(why, "not a JSON object"));
	CHECK(decode_text("{\"type\":", &back) == -EPROTO);
}

static void challenge_and_proofs_round_trip(void)
{
	memset(&m, 0, sizeof(m));
	m.type = MESH_MSG_CHALLENGE;
	m.u.challenge.token = true;
	for (int i = 0; i < MESH_NONCE_LEN; i++)
		m.u.challenge.nonce[i] = (uint8_t)(i * 7 + 1);
	CHECK(round_trip(&m, &back) == 0);
	CHECK(back.type == MESH_MSG_CHALLENGE && back.u.challenge.token &&
	      memcmp(back.u.challenge.nonce, m.u.challenge.nonce, MESH_NONCE_LEN) == 0);
	memset(&m, 0, sizeof(m));
	m.type = MESH_MSG_WELCOME;
	m.proof.given = true;
	memset(m.proof.nonce, 0xab, sizeof(m.proof.nonce));
	memset(m.proof.mac, 0x0f, sizeof(m.proof.mac));
	CHECK(round_trip(&m, &back) == 0);
	CHECK(back.type == MESH_MSG_WELCOME && back.proof.given && memcmp(back.proof.mac, m.proof.mac, MESH_MAC_LEN) == 0);
	m.proof.given = false;
	CHECK(round_trip(&m, &back) == 0 && !back.proof.given);
	CHECK(decode_text("{\"type\":\"welcome\",\"proof\":{\"nonce\":\"00\",\"mac\":\"11\"}}", &back) == -EPROTO &&
	      strstr(why, "nonce: expected 64 hex digits"));
	CHECK(decode_text("{\"type\":\"challenge\",\"nonce\":\"zz\",\"token\":true}", &back) == -EPROTO &&
	      strstr(why, "challenge.nonce"));
	CHECK(decode_text("{\"type\":\"welcome\",\"proof\":7}", &back) == -EPROTO && strstr(why, "proof"));
}

static void proofs_bind_rank_role_and_nonces(void)
{
	struct secret token = { .len = 20 }, other = { .len = 20 };
	uint8_t c[MESH_NONCE_LEN] = { 1 }, a[MESH_NONCE_LEN] = { 2 }, mac[MESH_MAC_LEN];

	memcpy(token.bytes, "job-4242-token-bytes", 20);
	memcpy(other.bytes, "job-4242-token-bytez", 20);
	mesh_auth_mac(&token, false, c, a, 3, 16, mac);
	CHECK(mesh_auth_check(&token, false, c, a, 3, 16, mac));
	CHECK(!mesh_auth_check(&other, false, c, a, 3, 16, mac));   /* another token */
	CHECK(!mesh_auth_check(&token, true, c, a, 3, 16, mac));    /* sent back as rank 0's */
	CHECK(!mesh_auth_check(&token, false, c, a, 4, 16, mac));   /* for another rank */
	CHECK(!mesh_auth_check(&token, false, a, c, 3, 16, mac));   /* nonces swapped */
	c[5] ^= 1;
	CHECK(!mesh_auth_check(&token, false, c, a, 3, 16, mac));   /* another connection's challenge */
}

static void too_many_rails_refused(void)
{
	char *text = malloc(MESH_FRAME_MAX);
	size_t n;

	strcpy(text, "{\"type\":\"register\",\"version\":1,\"rank\":1,\"size\":2,\"host\":\"h\",\"serve_port\":1,"
		     "\"serve_error\":\"\",\"tool_version\":\"\",\"devices\":0,\"rails\":[");
	for (int i = 0; i < MESH_RAILS_MAX + 1; i++) {
		n = strlen(text);
		snprintf(text + n, MESH_FRAME_MAX - n, "%s{\"device\":\"d\",\"port\":1,\"netdev\":\"\",\"address\":\"\","
			 "\"link_gbps\":0}", i ? "," : "");
	}
	strcat(text, "]}");
	CHECK(decode_text(text, &back) == -EPROTO && strstr(why, "register.rails: expected an array of at most 64"));
	free(text);
	CHECK(decode_text("{\"type\":\"register\",\"version\":1,\"rank\":70000,\"size\":2}", &back) == -EPROTO &&
	      strstr(why, "register.rank"));
}

int main(void)
{
	RUN(register_round_trips);
	RUN(round_and_result_round_trip);
	RUN(headers_refused);
	RUN(hostile_payloads_refused);
	RUN(too_many_rails_refused);
	RUN(challenge_and_proofs_round_trip);
	RUN(proofs_bind_rank_role_and_nonces);
	TAP_DONE();
}
