// SPDX-License-Identifier: GPL-2.0-only
/* HMAC-SHA256 (nettle, through src/util/hmac.c) against RFC 4231's test cases, over parts as over one buffer;
 * the proofs of protocol 2 against values computed apart (Python's hmac), so the wire format stays; the
 * constant-time comparison. */
#include <stdlib.h>
#include <string.h>

#include "proto/auth.h"
#include "tap.h"
#include "util/hmac.h"

static void hex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void hmac_of(const void *key, size_t key_len, const void *m, size_t len, char *out)
{
	struct hmac_part part = { m, len };
	uint8_t d[HMAC_SHA256_LEN];

	hmac_sha256_parts(key, key_len, &part, 1, d);
	hex(d, sizeof(d), out);
}

static void hmac_matches_rfc_4231(void)
{
	uint8_t key[131], data[50];
	char out[65];

	memset(key, 0x0b, 20);
	hmac_of(key, 20, "Hi There", 8, out);   /* test case 1 */
	CHECK_STR(out, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
	hmac_of("Jefe", 4, "what do ya want for nothing?", 28, out);   /* 2 */
	CHECK_STR(out, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
	memset(key, 0xaa, 20);
	memset(data, 0xdd, 50);
	hmac_of(key, 20, data, 50, out);   /* 3 */
	CHECK_STR(out, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe");
	for (int i = 0; i < 25; i++)
		key[i] = (uint8_t)(i + 1);
	memset(data, 0xcd, 50);
	hmac_of(key, 25, data, 50, out);   /* 4 */
	CHECK_STR(out, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b");
	memset(key, 0xaa, 131);   /* 6 and 7: a key longer than a block is hashed first */
	hmac_of(key, 131, "Test Using Larger Than Block-Size Key - Hash Key First", 54, out);
	CHECK_STR(out, "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54");
	hmac_of(key, 131, "This is a test using a larger than block-size key and a larger than block-size data. The key "
		"needs to be hashed before being used by the HMAC algorithm.", 152, out);
	CHECK_STR(out, "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2");
}

static void hmac_over_parts_equals_hmac_over_their_concatenation(void)
{
	struct hmac_part parts[3] = { { "what do ", 8 }, { "ya want ", 8 }, { "for nothing?", 12 } };
	uint8_t d[HMAC_SHA256_LEN];
	char out[65];

	hmac_sha256_parts("Jefe", 4, parts, 3, d);
	hex(d, sizeof(d), out);
	CHECK_STR(out, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

/* The proofs as docs/bw-protocol.md has them: HMAC-SHA256(secret, Ns || Nc || "... client proof") and
 * HMAC-SHA256(secret, Nc || Ns || "... serve proof"). The expected values come from Python:
 *   hmac.new(key, a + b + b"roce-doctor serve protocol 2: client proof", hashlib.sha256).hexdigest()
 * with a = bytes(range(32)), b = bytes(range(0x80, 0xa0)); the serve's with b + a and "serve proof". */
static void auth_proofs_keep_protocol_2(void)
{
	static const char key[] = "the shared secret of this test\n";
	struct secret *secret = calloc(1, sizeof(*secret));
	uint8_t a[PROTO_NONCE_LEN], b[PROTO_NONCE_LEN], mac[PROTO_MAC_LEN];
	char out[65];

	CHECK(secret != NULL);
	if (!secret)
		return;
	secret->len = strlen(key);
	memcpy(secret->bytes, key, secret->len);
	for (int i = 0; i < PROTO_NONCE_LEN; i++) {
		a[i] = (uint8_t)i;
		b[i] = (uint8_t)(0x80 + i);
	}
	auth_mac(secret, false, a, b, mac);
	hex(mac, sizeof(mac), out);
	CHECK_STR(out, "8ca5da3d3592da7f9513cca10d63d9fe5118d6d0b2aa93ac980c583ac560a8cd");
	auth_mac(secret, true, b, a, mac);
	hex(mac, sizeof(mac), out);
	CHECK_STR(out, "d8f7da913614642c4e57bc42a553d9b18aadf0d639c5bd5422e748aa224634a4");
	free(secret);
}

static void constant_time_compare_finds_any_difference(void)
{
	uint8_t a[32] = { 0 }, b[32] = { 0 };

	CHECK(equal_constant_time(a, b, 32));
	b[31] = 1;
	CHECK(!equal_constant_time(a, b, 32));
	b[31] = 0;
	b[0] = 0x80;
	CHECK(!equal_constant_time(a, b, 32));
}

int main(void)
{
	RUN(hmac_matches_rfc_4231);
	RUN(hmac_over_parts_equals_hmac_over_their_concatenation);
	RUN(auth_proofs_keep_protocol_2);
	RUN(constant_time_compare_finds_any_difference);
	TAP_DONE();
}
