// SPDX-License-Identifier: GPL-2.0-only
/* What explain is given, before it is read as lines: plain text, or gzip, xz or zstd (a log rotated or
 * collected by a cluster's tooling), decompressed as it streams; and whether the text is a log at all
 * (binary data is refused, not matched). Bytes are pushed in chunks of any size, with no I/O here, so the
 * fuzzer and the command drive the same code; memory stays bounded whatever the size of the input. */
#ifndef ROCE_DOCTOR_LOG_INPUT_H
#define ROCE_DOCTOR_LOG_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/log/log_scan.h"

#define LOG_INPUT_SAMPLE (64 * 1024)   /* decoded bytes looked at before deciding text or binary */

enum log_format { LOG_FORMAT_PLAIN, LOG_FORMAT_GZIP, LOG_FORMAT_XZ, LOG_FORMAT_ZSTD, LOG_FORMAT_BZIP2 };

struct log_input {
	struct log_scan *scan;       /* where decoded text goes */
	enum log_format format;
	bool format_known;
	unsigned char head[6];       /* the first bytes, held until the format is known */
	size_t head_len;
	void *codec;                 /* z_stream, lzma_stream or ZSTD_DStream, by format */
	bool member_end;             /* the last gzip member, xz stream or zstd frame ended */
	unsigned char *out;          /* one buffer of decoded bytes */
	char *sample;                /* the first LOG_INPUT_SAMPLE decoded bytes, until classified */
	size_t sample_len;
	bool classified;
	bool binary;                 /* the sample is not text: nothing reaches the scan */
	size_t sample_bad;           /* bytes of the sample that are NUL, control bytes or not UTF-8 */
	unsigned long long decoded;  /* bytes of text after decompression */
	char why[200];               /* what is wrong with the data, when feed or finish returned -EBADMSG */
};

/* 0 or -ENOMEM. */
int log_input_init(struct log_input *in, struct log_scan *scan);
/* Pushes raw bytes: 0, -ENOMEM, or -EBADMSG (corrupt or unsupported compressed data: in->why says what).
 * Once in->binary is set the rest need not be fed. */
int log_input_feed(struct log_input *in, const void *buf, size_t len);
/* The input ended: 0, or -EBADMSG (a compressed stream cut short), -ENOMEM. Ends the scan's last line. */
int log_input_finish(struct log_input *in);
void log_input_free(struct log_input *in);

/* "gzip", "xz", "zstd", "bzip2"; NULL for plain text. */
const char *log_format_name(enum log_format format);

/* Whether buf[0..len) is not text: more than a quarter of its bytes are NUL, control bytes other than the
 * ones terminals and progress bars print, or not UTF-8. *bad gets their count. */
bool log_text_is_binary(const char *buf, size_t len, size_t *bad);

#endif
