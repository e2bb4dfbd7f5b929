// SPDX-License-Identifier: GPL-2.0-only
/* SHA-256 against the FIPS 180-4 examples (NIST CSRC "SHA256.pdf", "SHA2_Additional") and HMAC-SHA256 against
 * RFC 4231's test cases. */
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "util/sha256.h"

static void hex(const uint8_t *d, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void digest_of(const void *m, size_t len, char *out)
{
	uint8_t d[SHA256_DIGEST_LEN];
	struct sha256 c;

	sha256_init(&c);
	sha256_update(&c, m, len);
	sha256_final(&c, d);
	hex(d, sizeof(d), out);
}

static void sha256_matches_fips_180_4_examples(void)
{
	char out[65];

	digest_of("abc", 3, out);
	CHECK_STR(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	digest_of("", 0, out);
	CHECK_STR(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	/* 448 bits: the padding spills into a second block */
	digest_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, out);
	CHECK_STR(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void sha256_of_a_million_a_fed_in_odd_pieces(void)
{
	uint8_t d[SHA256_DIGEST_LEN];
	char *a = malloc(1000000), out[65];
	struct sha256 c;
	size_t off = 0, step = 1;

	CHECK(a != NULL);
	if (!a)
		return;
	memset(a, 'a', 1000000);
	sha256_init(&c);
	/* pieces of 1, 2, 3 ... bytes: every offset within a block is crossed */
	while (off < 1000000) {
		size_t take = step < 1000000 - off ? step : 1000000 - off;

		sha256_update(&c, a + off, take);
		off += take;
		step = step % 97 + 1;
	}
	sha256_final(&c, d);
	hex(d, sizeof(d), out);
	CHECK_STR(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	free(a);
}

static void hmac_of(const void *key, size_t key_len, const void *m, size_t len, char *out)
{
	struct hmac_part part = { m, len };
	uint8_t d[SHA256_DIGEST_LEN];

	hmac_sha256(key, key_len, &part, 1, d);
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
	uint8_t d[SHA256_DIGEST_LEN];
	char out[65];

	hmac_sha256("Jefe", 4, parts, 3, d);
	hex(d, sizeof(d), out);
	CHECK_STR(out, "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
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
	RUN(sha256_matches_fips_180_4_examples);
	RUN(sha256_of_a_million_a_fed_in_odd_pieces);
	RUN(hmac_matches_rfc_4231);
	RUN(hmac_over_parts_equals_hmac_over_their_concatenation);
	RUN(constant_time_compare_finds_any_difference);
	TAP_DONE();
}
