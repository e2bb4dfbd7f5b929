// SPDX-License-Identifier: GPL-2.0-only
/* Prefix stripping and safe text for explain. Hand-written matchers rather than regexes: they run on every
 * line of a log that may be a gigabyte, and each looks at a few bytes at the start. */
#include "core/log/log_line.h"

#include <string.h>

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* The number of digits at s[0..len), at most max. */
static size_t digits(const char *s, size_t len, size_t max)
{
	size_t n = 0;

	while (n < len && n < max && is_digit(s[n]))
		n++;
	return n;
}

/* "YYYY-MM-DD" then ' ' or 'T' then "HH:MM:SS": the length of that much, or 0. */
static size_t iso_time(const char *s, size_t len)
{
	static const char shape[] = "dddd-dd-dd_dd:dd:dd";
	size_t n = sizeof(shape) - 1;

	if (len < n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char want = shape[i], c = s[i];

		if (want == 'd' ? !is_digit(c) : want == '_' ? c != ' ' && c != 'T' : c != want)
			return 0;
	}
	return n;
}

/* The length of the run of bytes not in stop, within len. */
static size_t until(const char *s, size_t len, const char *stop)
{
	size_t n = 0;

	while (n < len && !strchr(stop, s[n]))
		n++;
	return n;
}

/* "[rank0]:", "[default3]:", "[1,0]<stdout>:", "[2026-11-24 21:25:56] ", glog's "[E1124 21:26:16.3 x.cpp:12] ". */
static size_t bracket_prefix(const char *s, size_t len)
{
	size_t close, n;

	if (len < 3 || s[0] != '[')
		return 0;
	close = until(s, len < 96 ? len : 96, "]");
	if (close >= len || close >= 96 || s[close] != ']')
		return 0;
	n = close + 1;
	if (n < len && s[n] == ':') {   /* [rank0]: [default0]: [0]: */
		size_t p = 1;

		if (close > 5 && memcmp(s + 1, "rank", 4) == 0)
			p = 5;
		else if (close > 8 && memcmp(s + 1, "default", 7) == 0)
			p = 8;
		if (p < close && digits(s + p, close - p, 8) == close - p)
			return n + 1 + (n + 1 < len && s[n + 1] == ' ');
		return 0;
	}
	if (len - n >= 9 && (memcmp(s + n, "<stdout>:", 9) == 0 || memcmp(s + n, "<stderr>:", 9) == 0)) {
		size_t a = digits(s + 1, close - 1, 8);

		if (a && close > 2 + a && s[1 + a] == ',' && digits(s + 2 + a, close - 2 - a, 8) == close - 2 - a)
			return n + 9;
		return 0;
	}
	if (iso_time(s + 1, close - 1) ||
	    (strchr("EWIF", s[1]) && digits(s + 2, close - 2, 4) == 4 && s[6] == ' ' && memchr(s + 7, ':', close - 7)))
		return n + (n < len && s[n] == ' ');
	return 0;
}

/* NCCL's "host:pid:tid [dev] " then an optional "file.cc:123 ", then "NCCL INFO " (WARN, TRACE, ABORT). */
static size_t nccl_prefix(const char *s, size_t len)
{
	static const char *const levels[] = { "INFO ", "WARN ", "TRACE ", "ABORT " };
	size_t n = until(s, len < 256 ? len : 256, ": []"), d;

	if (n == 0 || n >= len || s[n] != ':')
		return 0;
	n++;
	for (int field = 0; field < 2; field++) {   /* pid then tid */
		d = digits(s + n, len - n, 12);
		if (!d)
			return 0;
		n += d;
		if (n >= len || s[n] != (field == 0 ? ':' : ' '))
			return 0;
		n++;
	}
	if (n >= len || s[n] != '[')
		return 0;
	d = digits(s + n + 1, len - n - 1, 6);
	if (!d || n + 1 + d + 1 >= len || s[n + 1 + d] != ']' || s[n + 2 + d] != ' ')
		return 0;
	n += d + 3;
	if (len - n < 5 || memcmp(s + n, "NCCL ", 5) != 0) {   /* a WARN's "file.cc:123 " */
		size_t word = until(s + n, len - n, " ");

		if (!memchr(s + n, ':', word) || n + word >= len)
			return 0;
		n += word + 1;
	}
	if (len - n < 5 || memcmp(s + n, "NCCL ", 5) != 0)
		return 0;
	n += 5;
	for (size_t i = 0; i < sizeof(levels) / sizeof(levels[0]); i++) {
		size_t l = strlen(levels[i]);

		if (len - n >= l && memcmp(s + n, levels[i], l) == 0)
			return n + l;
	}
	return 0;
}

/* srun --label's "  0: ", pdsh's "host: " (a lower-case host name: an exception's "torch.Error: " is not one). */
static size_t label_prefix(const char *s, size_t len)
{
	size_t n = 0, word;

	while (n < len && n < 8 && s[n] == ' ')
		n++;
	word = digits(s + n, len - n, 8);
	if (!word) {
		if (n)
			return 0;
		while (word < len && word < 64 && ((s[word] >= 'a' && s[word] <= 'z') || is_digit(s[word]) ||
						  s[word] == '-' || s[word] == '.'))
			word++;
		if (!word || s[0] == '.' || s[0] == '-')
			return 0;
	}
	n += word;
	return len - n >= 3 && s[n] == ':' && s[n + 1] == ' ' && s[n + 2] != ' ' ? n + 2 : 0;
}

/* ISO 8601 and syslog timestamps at the start of a line, with the space after them. */
static size_t time_prefix(const char *s, size_t len)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t n = iso_time(s, len);

	if (n) {
		n += until(s + n, len - n, " ");
		return n < len ? n + 1 : 0;
	}
	/* "Nov 24 21:25:56 " */
	if (len < 16 || s[3] != ' ' || s[6] != ' ' || s[9] != ':' || s[12] != ':' || s[15] != ' ')
		return 0;
	for (size_t m = 0; m < 36; m += 3)
		if (memcmp(s, months + m, 3) == 0)
			return 16;
	return 0;
}

size_t log_line_message(const char *line, size_t len)
{
	size_t at = 0;

	/* A few rounds: "[1,0]<stdout>:[rank0]:[2026-...] host:1:1 [0] NCCL INFO " nests four. */
	for (int round = 0; round < 8; round++) {
		size_t n = bracket_prefix(line + at, len - at);

		if (!n)
			n = nccl_prefix(line + at, len - at);
		if (!n)
			n = time_prefix(line + at, len - at);
		if (!n)
			n = label_prefix(line + at, len - at);
		if (!n)
			break;
		at += n;
	}
	return at;
}

/* The length of the well-formed UTF-8 sequence at s (1-4), or 0 (RFC 3629: no overlongs, no surrogates,
 * nothing past U+10FFFF), as jansson demands. */
size_t log_utf8_sequence(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	size_t need;
	unsigned char lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		need = 2;
	else if (c >= 0xe0 && c <= 0xef) {
		need = 3;
		lo = c == 0xe0 ? 0xa0 : 0x80;
		hi = c == 0xed ? 0x9f : 0xbf;
	} else if (c >= 0xf0 && c <= 0xf4) {
		need = 4;
		lo = c == 0xf0 ? 0x90 : 0x80;
		hi = c == 0xf4 ? 0x8f : 0xbf;
	} else
		return 0;
	if (len < need || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < need; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return need;
}

bool log_text_clean(char *dst, size_t size, const char *src, size_t len)
{
	const unsigned char *s = (const unsigned char *)src;
	bool replaced = false;
	size_t i = 0, o = 0;

	while (i < len) {
		size_t n = log_utf8_sequence(s + i, len - i);

		if (n == 0 || (n == 1 && ((s[i] < 0x20 && s[i] != '\t') || s[i] == 0x7f))) {
			if (o + 1 >= size)
				break;
			dst[o++] = '?';
			replaced = true;
			i++;
			continue;
		}
		if (o + n >= size)
			break;
		memcpy(dst + o, s + i, n);
		o += n;
		i += n;
	}
	dst[o] = '\0';
	return replaced;
}
