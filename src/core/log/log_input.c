// SPDX-License-Identifier: GPL-2.0-only
/* explain's input decoder. Compressed logs are read through Debian's own libraries (zlib, liblzma,
 * libzstd) rather than by running zcat / xzcat / zstdcat in a child: no fork, no PATH lookup, no tool that
 * may be missing in a container, and a corrupt stream comes back as the library's own reason, said once,
 * instead of a child's exit status and stderr to interpret. Each library decodes into one fixed buffer
 * and is given memory limits (xz's memlimit, zstd's window) so that a crafted header cannot make explain
 * allocate more than a few MiB. */
#include "core/log/log_input.h"

#include <errno.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "core/log/log_line.h"

#define OUT_SIZE (64 * 1024)
#define XZ_MEMLIMIT (24u << 20)   /* xz -6 (the default) needs 9 MiB; -9 needs 65 MiB */
#define ZSTD_WINDOW_LOG_MAX 24    /* 16 MiB: every zstd level up to 19; --long and --ultra need more */
#define ZLIB_SLICE (1u << 30)     /* zlib counts its input in unsigned int */

static const struct {
	enum log_format format;
	const unsigned char magic[6];
	size_t len;
} magics[] = {
	{ LOG_FORMAT_GZIP, { 0x1f, 0x8b }, 2 },
	{ LOG_FORMAT_XZ, { 0xfd, '7', 'z', 'X', 'Z', 0x00 }, 6 },
	{ LOG_FORMAT_ZSTD, { 0x28, 0xb5, 0x2f, 0xfd }, 4 },
	{ LOG_FORMAT_BZIP2, { 'B', 'Z', 'h' }, 3 },
};

const char *log_format_name(enum log_format format)
{
	switch (format) {
	case LOG_FORMAT_GZIP:
		return "gzip";
	case LOG_FORMAT_XZ:
		return "xz";
	case LOG_FORMAT_ZSTD:
		return "zstd";
	case LOG_FORMAT_BZIP2:
		return "bzip2";
	default:
		return NULL;
	}
}

bool log_text_is_binary(const char *buf, size_t len, size_t *bad)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t n = 0;

	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t step = 1;

		if (c >= 0x80) {
			step = log_utf8_sequence(s + i, len - i);
			if (!step) {
				step = 1;
				n++;
			}
		} else if (c == 0 || c == 0x7f || (c < 0x20 && !strchr("\t\n\r\b\f\v\x1b", c)))
			n++;
		i += step;
	}
	*bad = n;
	/* Logs carry a few such bytes (a NUL run where a crash cut the file, Latin-1 names, colour codes);
	 * random or compressed data has more than half. */
	return n * 4 > len;
}

/* Moves what fits of *buf (*len bytes) onto the end of dst (*have of cap bytes used); whether dst is full. */
static bool fill(char *dst, size_t *have, size_t cap, const char **buf, size_t *len)
{
	size_t take = cap - *have;

	if (take > *len)
		take = *len;
	memcpy(dst + *have, *buf, take);
	*have += take;
	*buf += take;
	*len -= take;
	return *have == cap;
}

/* Decoded text: held in the sample until it is judged, then handed to the scan. */
static void emit(struct log_input *in, const void *buf, size_t len)
{
	const char *b = buf;

	in->decoded += len;
	if (!in->classified) {
		if (!fill(in->sample, &in->sample_len, LOG_INPUT_SAMPLE, &b, &len))
			return;
		in->classified = true;
		in->binary = log_text_is_binary(in->sample, in->sample_len, &in->sample_bad);
		if (!in->binary)
			log_scan_feed(in->scan, in->sample, in->sample_len);
	}
	if (!in->binary && len)
		log_scan_feed(in->scan, b, len);
}

static int bad_data(struct log_input *in, const char *what, const char *detail)
{
	snprintf(in->why, sizeof(in->why), "%s%s%s%s", what, detail ? " (" : "", detail ? detail : "",
		 detail ? ")" : "");
	return -EBADMSG;
}


/* One inflate into the output buffer, handed on as text; a member's end is noted for the next call to reset. */
static int inflate_once(struct log_input *in, z_stream *z)
{
	int rc;

	z->next_out = in->out;
	z->avail_out = OUT_SIZE;
	rc = inflate(z, Z_NO_FLUSH);
	emit(in, in->out, OUT_SIZE - z->avail_out);
	if (rc == Z_STREAM_END)
		in->member_end = true;
	return rc;
}
static int gzip_feed(struct log_input *in, const unsigned char *buf, size_t len)
{
	z_stream *z = in->codec;

	while (len) {
		size_t slice = len < ZLIB_SLICE ? len : ZLIB_SLICE;

		z->next_in = (unsigned char *)buf;
		z->avail_in = (unsigned int)slice;
		while (z->avail_in) {
			int rc;

			/* gzip -c a b > ab.gz and logrotate's appends make several members: each is read in turn */
			if (in->member_end && inflateReset(z) != Z_OK)
				return bad_data(in, "corrupt gzip data", NULL);
			in->member_end = false;
			rc = inflate_once(in, z);
			if (rc == Z_MEM_ERROR)
				return -ENOMEM;
			if (rc != Z_STREAM_END && rc != Z_OK && rc != Z_BUF_ERROR)
				return bad_data(in, "corrupt gzip data", z->msg);
			if (rc == Z_BUF_ERROR)
				break;
			if (in->binary)
				return 0;
		}
		/* output that inflate still holds for this input */
		while (!in->member_end) {
			int rc = inflate_once(in, z);

			if (rc != Z_STREAM_END && (rc != Z_OK || z->avail_out))
				break;
		}
		buf += slice;
		len -= slice;
	}
	return 0;
}

static int xz_run(struct log_input *in, const unsigned char *buf, size_t len, lzma_action action)
{
	lzma_stream *x = in->codec;

	x->next_in = buf;
	x->avail_in = len;
	for (;;) {
		lzma_ret rc;

		x->next_out = in->out;
		x->avail_out = OUT_SIZE;
		rc = lzma_code(x, action);
		emit(in, in->out, OUT_SIZE - x->avail_out);
		if (rc == LZMA_STREAM_END) {
			in->member_end = true;
			return 0;
		}
		if (rc == LZMA_MEM_ERROR)
			return -ENOMEM;
		if (rc == LZMA_MEMLIMIT_ERROR)
			return bad_data(in, "xz data that needs more than 24 MiB to decompress (xz -7 or higher)",
					"decompress it first: xz -dc FILE | roce-doctor explain -");
		if (rc == LZMA_BUF_ERROR && action == LZMA_FINISH)
			return bad_data(in, "xz data that ends early", "the file was cut short");
		if (rc == LZMA_FORMAT_ERROR || rc == LZMA_OPTIONS_ERROR)
			return bad_data(in, "corrupt xz data", "not an xz stream this liblzma reads");
		if (rc == LZMA_DATA_ERROR || rc == LZMA_BUF_ERROR)
			return bad_data(in, "corrupt xz data", rc == LZMA_DATA_ERROR ? "the compressed data is damaged" :
					"no progress");
		if (rc != LZMA_OK)
			return bad_data(in, "corrupt xz data", NULL);
		if (in->binary || (x->avail_in == 0 && x->avail_out != 0 && action == LZMA_RUN))
			return 0;
	}
}

static int zstd_feed(struct log_input *in, const unsigned char *buf, size_t len)
{
	ZSTD_inBuffer src = { buf, len, 0 };

	for (;;) {
		ZSTD_outBuffer dst = { in->out, OUT_SIZE, 0 };
		size_t rc = ZSTD_decompressStream(in->codec, &dst, &src);

		if (ZSTD_isError(rc)) {
			if (ZSTD_getErrorCode(rc) == ZSTD_error_frameParameter_windowTooLarge)
				return bad_data(in, "zstd data that needs a window over 16 MiB (zstd --long or --ultra)",
						"decompress it first: zstd -dc --long=31 FILE | roce-doctor explain -");
			return bad_data(in, "corrupt zstd data", ZSTD_getErrorName(rc));
		}
		emit(in, in->out, dst.pos);
		/* 0: a frame ended; the next bytes, if any, start another (zstd -c a b > ab.zst) */
		in->member_end = rc == 0;
		if (in->binary || (src.pos == src.size && dst.pos < dst.size))
			return 0;
	}
}

/* The first bytes decide the format; the codec starts then. */
static int start(struct log_input *in)
{
	in->format = LOG_FORMAT_PLAIN;
	for (size_t i = 0; i < sizeof(magics) / sizeof(magics[0]); i++)
		if (in->head_len >= magics[i].len && memcmp(in->head, magics[i].magic, magics[i].len) == 0)
			in->format = magics[i].format;
	/* "BZh" could start a line of text: bzip2 has a block size digit, then its block magic 0x314159 */
	if (in->format == LOG_FORMAT_BZIP2 &&
	    (in->head_len < 6 || in->head[3] < '1' || in->head[3] > '9' || in->head[4] != 0x31 || in->head[5] != 0x41))
		in->format = LOG_FORMAT_PLAIN;
	in->format_known = true;
	switch (in->format) {
	case LOG_FORMAT_GZIP: {
		z_stream *z = calloc(1, sizeof(*z));

		if (!z || inflateInit2(z, 16 + MAX_WBITS) != Z_OK) {
			free(z);
			return -ENOMEM;
		}
		in->codec = z;
		break;
	}
	case LOG_FORMAT_XZ: {
		lzma_stream *x = calloc(1, sizeof(*x));

		if (x)
			*x = (lzma_stream)LZMA_STREAM_INIT;
		/* LZMA_CONCATENATED: xz -c a b > ab.xz is two streams, read as one text */
		if (!x || lzma_stream_decoder(x, XZ_MEMLIMIT, LZMA_CONCATENATED) != LZMA_OK) {
			free(x);
			return -ENOMEM;
		}
		in->codec = x;
		break;
	}
	case LOG_FORMAT_ZSTD: {
		ZSTD_DStream *d = ZSTD_createDStream();

		if (!d)
			return -ENOMEM;
		in->codec = d;
		if (ZSTD_isError(ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, ZSTD_WINDOW_LOG_MAX)))
			return -ENOMEM;
		break;
	}
	case LOG_FORMAT_BZIP2:
		return bad_data(in, "bzip2-compressed, which explain does not read",
				"bzcat FILE | roce-doctor explain -");
	default:
		break;
	}
	return 0;
}

static int decode(struct log_input *in, const unsigned char *buf, size_t len)
{
	if (!len || in->binary)
		return 0;
	switch (in->format) {
	case LOG_FORMAT_GZIP:
		return gzip_feed(in, buf, len);
	case LOG_FORMAT_XZ:
		return xz_run(in, buf, len, LZMA_RUN);
	case LOG_FORMAT_ZSTD:
		return zstd_feed(in, buf, len);
	default:
		emit(in, buf, len);
		return 0;
	}
}

int log_input_init(struct log_input *in, struct log_scan *scan)
{
	memset(in, 0, sizeof(*in));
	in->scan = scan;
	in->out = malloc(OUT_SIZE);
	in->sample = malloc(LOG_INPUT_SAMPLE);
	if (!in->out || !in->sample) {
		log_input_free(in);
		return -ENOMEM;
	}
	return 0;
}

int log_input_feed(struct log_input *in, const void *buf, size_t len)
{
	const char *b = buf;
	int rc;

	if (!in->format_known) {
		if (!fill((char *)in->head, &in->head_len, sizeof(in->head), &b, &len))
			return 0;
		rc = start(in);
		if (rc == 0)
			rc = decode(in, in->head, in->head_len);
		if (rc < 0)
			return rc;
	}
	return decode(in, (const unsigned char *)b, len);
}

int log_input_finish(struct log_input *in)
{
	int rc = 0;

	if (!in->format_known) {   /* shorter than any magic: plain text, or nothing */
		rc = start(in);
		if (rc == 0)
			rc = decode(in, in->head, in->head_len);
	}
	if (rc == 0 && in->format == LOG_FORMAT_XZ && !in->member_end && !in->binary)
		rc = xz_run(in, NULL, 0, LZMA_FINISH);
	else if (rc == 0 && (in->format == LOG_FORMAT_GZIP || in->format == LOG_FORMAT_ZSTD) && !in->member_end &&
		 !in->binary)
		rc = bad_data(in, in->format == LOG_FORMAT_GZIP ? "gzip data that ends early" :
			      "zstd data that ends early", "the file was cut short: a copy still being written?");
	if (rc < 0)
		return rc;
	if (!in->classified) {
		in->classified = true;
		in->binary = log_text_is_binary(in->sample, in->sample_len, &in->sample_bad);
		if (!in->binary)
			log_scan_feed(in->scan, in->sample, in->sample_len);
	}
	if (!in->binary && in->scan->ranks)
		log_scan_end_file(in->scan);   /* a job's file: the job ends after its last file */
	else if (!in->binary)
		log_scan_finish(in->scan);
	return 0;
}

void log_input_free(struct log_input *in)
{
	if (in->codec) {
		switch (in->format) {
		case LOG_FORMAT_GZIP:
			inflateEnd(in->codec);
			free(in->codec);
			break;
		case LOG_FORMAT_XZ:
			lzma_end(in->codec);
			free(in->codec);
			break;
		case LOG_FORMAT_ZSTD:
			ZSTD_freeDStream(in->codec);
			break;
		default:
			break;
		}
	}
	free(in->out);
	free(in->sample);
	in->codec = NULL;
	in->out = NULL;
	in->sample = NULL;
}
