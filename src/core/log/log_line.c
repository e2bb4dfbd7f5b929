// SPDX-License-Identifier: GPL-2.0-only
/* Prefix stripping and safe text for explain. Hand-written matchers rather than regexes: they run on every
 * line of a log that may be a gigabyte, and each looks at a few bytes at the start. */
#include "core/log/log_line.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* The length of the run of bytes not in stop (nor NUL), within len. Not strchr per byte: this reads the
 * start of every line of a log. */
static size_t until(const char *s, size_t len, const char *stop)
{
	for (size_t n = 0; n < len; n++) {
		if (!s[n])
			return n;
		for (const char *t = stop; *t; t++)
			if (*t == s[n])
				return n;
	}
	return len;
}

/* The length of a host name at s[0..len) that begins with a letter: letters, digits, '-', '.', '_'. */
static size_t host_name(const char *s, size_t len)
{
	size_t n = 0;

	if (!len || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
		return 0;
	while (n < len && n < 63 && ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
				     is_digit(s[n]) || s[n] == '-' || s[n] == '.' || s[n] == '_'))
		n++;
	return n;
}

/* The number of lower-case hex digits at s[0..len), at most max. */
static size_t hex_digits(const char *s, size_t len, size_t max)
{
	size_t n = 0;

	while (n < len && n < max && (is_digit(s[n]) || (s[n] >= 'a' && s[n] <= 'f')))
		n++;
	return n;
}

/* The outermost prefix names the rank: "[1,3]<stdout>:[rank3]:" is rank 3 either way, and a launcher's
 * label is the process's own (a torchrun "[default0]:" under srun "3: " is local rank 0 of global rank 3). */
static void set_rank(struct log_origin *o, const char *digits_at)
{
	if (o && o->rank < 0)
		o->rank = strtol(digits_at, NULL, 10);
}

static void set_host(struct log_origin *o, const char *s, size_t len)
{
	if (o && !o->host[0] && len && len < sizeof(o->host)) {
		memcpy(o->host, s, len);
		o->host[len] = '\0';
	}
}

static long two(const char *s)
{
	return (s[0] - '0') * 10 + (s[1] - '0');
}

/* A time comparable within one job: seconds from the start of a 31-day-month year (no year: glog and syslog
 * have none, and a job rarely runs across New Year). hms is "HH:MM:SS" then an optional ".frac". */
static void set_time(struct log_origin *o, const char *month, const char *day, const char *hms, const char *text,
		     size_t text_len)
{
	double at;

	if (!o || o->at >= 0 || !is_digit(month[0]) || !is_digit(day[1]))
		return;
	at = (double)(((two(month) * 31 + two(day)) * 24 + two(hms)) * 3600 + two(hms + 3) * 60 + two(hms + 6));
	if ((size_t)(hms - text) + 10 < text_len && hms[8] == '.' && is_digit(hms[9]))
		at += strtod(hms + 8, NULL);
	o->at = at;
	/* the time as written: the date, "HH:MM:SS" and its fraction, not what follows in a glog bracket */
	if (text_len > (size_t)(hms - text) + 8) {
		size_t end = (size_t)(hms - text) + 8;

		while (end < text_len && (text[end] == '.' || is_digit(text[end])))
			end++;
		text_len = end;
	}
	if (text_len >= sizeof(o->time))
		text_len = sizeof(o->time) - 1;
	memcpy(o->time, text, text_len);
	o->time[text_len] = '\0';
}

/* Seconds since the epoch (secs, then f digits of fraction at frac, f may be 0), as set_time would put
 * them, UTC. */
static void set_epoch(struct log_origin *o, const char *secs, const char *frac, size_t f)
{
	char text[40];
	struct tm tm;
	time_t t;

	if (!o || o->at >= 0)
		return;
	t = (time_t)strtoll(secs, NULL, 10);
	if (!gmtime_r(&t, &tm))
		return;
	snprintf(text, sizeof(text), "%04d-%02d-%02d %02d:%02d:%02d%s%.*s", tm.tm_year + 1900, tm.tm_mon + 1,
		 tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, f ? "." : "", (int)f, frac);
	set_time(o, text + 5, text + 8, text + 11, text, strlen(text));
}

/* UCX's "[1795859452.763917]" (ucs_log: seconds since the epoch). */
static bool epoch_time(const char *s, size_t close, struct log_origin *o)
{
	size_t d = digits(s + 1, close - 1, 12), f;

	if (d < 9 || d == close - 1 || s[1 + d] != '.')
		return false;
	f = digits(s + 2 + d, close - 2 - d, 9);
	if (!f || 2 + d + f != close)
		return false;
	set_epoch(o, s + 1, s + 2 + d, f);
	return true;
}

/* "[node-b:287  :0:287]" (UCX's fatal errors and ucs_log: host, pid padded with blanks, thread index, tid),
 * "[node-b:00292]" (Open MPI's opal_output and its signal handler): a host that begins with a letter, then
 * the pid. A time such as "[09:56:16]" is not one. */
static bool host_pid(const char *s, size_t close, struct log_origin *o)
{
	size_t h = 1, p;

	if (!((s[1] >= 'a' && s[1] <= 'z') || (s[1] >= 'A' && s[1] <= 'Z')))
		return false;
	while (h < close && ((s[h] >= 'a' && s[h] <= 'z') || (s[h] >= 'A' && s[h] <= 'Z') || is_digit(s[h]) ||
			     s[h] == '-' || s[h] == '.' || s[h] == '_'))
		h++;
	if (h >= close || s[h] != ':' || !(p = digits(s + h + 1, close - h - 1, 10)))
		return false;
	for (size_t i = h + 1 + p; i < close; i++)   /* "  :0", ":0:287": blanks, colons and digits */
		if (s[i] != ' ' && s[i] != ':' && !is_digit(s[i]))
			return false;
	if (o) {
		set_host(o, s + 1, h - 1);
		if (!o->pid)
			o->pid = strtol(s + h + 1, NULL, 10);
	}
	return true;
}

/* "[rank0]:", "[default3]:", "[1,0]<stdout>:", "[2026-11-24 21:25:56] ", glog's "[E1124 21:26:16.3 x.cpp:12] ". */
static size_t bracket_prefix(const char *s, size_t len, struct log_origin *o)
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
		if (p < close && digits(s + p, close - p, 8) == close - p) {
			set_rank(o, s + p);
			return n + 1 + (n + 1 < len && s[n + 1] == ' ');
		}
		return 0;
	}
	if (len - n >= 9 && (memcmp(s + n, "<stdout>:", 9) == 0 || memcmp(s + n, "<stderr>:", 9) == 0)) {
		size_t a = digits(s + 1, close - 1, 8);

		if (a && close > 2 + a && s[1 + a] == ',' && digits(s + 2 + a, close - 2 - a, 8) == close - 2 - a) {
			set_rank(o, s + 2 + a);   /* mpirun's [jobid,rank] */
			return n + 9;
		}
		return 0;
	}
	if (is_digit(s[1])) {   /* Intel MPI's "[rank:host] " (a time such as "[18:56:16]" has no host) */
		size_t r = digits(s + 1, close - 1, 8);

		if (s[1 + r] == ':' && 2 + r < close && host_name(s + 2 + r, close - 2 - r) == close - 2 - r) {
			set_rank(o, s + 1);
			set_host(o, s + 2 + r, close - 2 - r);
			return n + (n < len && s[n] == ' ');
		}
	}
	if (iso_time(s + 1, close - 1)) {
		set_time(o, s + 6, s + 9, s + 12, s + 1, close - 1);
		return n + (n < len && s[n] == ' ');
	}
	if (epoch_time(s, close, o) || host_pid(s, close, o)) {   /* UCX, Open MPI: then blanks */
		while (n < len && s[n] == ' ')
			n++;
		return n;
	}
	if (strchr("EWIF", s[1]) && digits(s + 2, close - 2, 4) == 4 && s[6] == ' ' && memchr(s + 7, ':', close - 7)) {
		if (close > 15 && s[9] == ':' && s[12] == ':')   /* glog: MMDD HH:MM:SS */
			set_time(o, s + 2, s + 4, s + 7, s + 2, close - 2);
		return n + (n < len && s[n] == ' ');
	}
	return 0;
}

/* NCCL's "host:pid:tid [dev] " then an optional "file.cc:123 ", then "NCCL INFO " (WARN, TRACE, ABORT). */
static size_t nccl_prefix(const char *s, size_t len, struct log_origin *o)
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

		if (len - n >= l && memcmp(s + n, levels[i], l) == 0) {
			if (o) {
				size_t h = until(s, len, ":");

				set_host(o, s, h);
				o->pid = strtol(s + h + 1, NULL, 10);
			}
			return n + l;
		}
	}
	return 0;
}

/* libfabric's log lines (FI_LOG_LEVEL=warn ...): "libfabric:PID:SECONDS:PREFIX:PROV:SUBSYS:FUNC():LINE<LEVEL> "
 * (src/log.c ofi_log, 1.x and 2.x; PREFIX is FI_LOG_PREFIX, mostly empty): the pid, and the time in whole
 * seconds since the epoch. */
static size_t libfabric_prefix(const char *s, size_t len, struct log_origin *o)
{
	size_t n = 10, p, t, close;

	if (len < 16 || memcmp(s, "libfabric:", 10) != 0)
		return 0;
	p = digits(s + n, len - n, 10);
	if (!p || n + p + 1 >= len || s[n + p] != ':')
		return 0;
	t = digits(s + n + p + 1, len - n - p - 1, 12);
	if (t < 9 || n + p + 1 + t >= len || s[n + p + 1 + t] != ':')
		return 0;
	close = n + p + 1 + t + until(s + n + p + 1 + t, (len < 256 ? len : 256) - (n + p + 1 + t), "<> ");
	if (close >= len || s[close] != '<')
		return 0;
	close += until(s + close, len - close, "> ");
	if (close >= len || s[close] != '>')
		return 0;
	if (o) {
		if (!o->pid)
			o->pid = strtol(s + n, NULL, 10);
		set_epoch(o, s + n + p + 1, "", 0);
	}
	return close + 1 + (close + 1 < len && s[close + 1] == ' ');
}

/* DAPL 2.1's dapl_log() (dapl/common/dapl_debug.c): "host:PROVIDER:pid:tid: total us(delta us): ", pid and
 * tid in hex, PROVIDER "CMA", "UCM", "SCM", "MCM" or "", "!!!" after the delta when it is over half a second.
 * The time since the provider loaded is no clock: it is not read. */
static size_t dapl_prefix(const char *s, size_t len, struct log_origin *o)
{
	size_t h = host_name(s, len), n, d, pid = 0;

	if (!h || h >= len || s[h] != ':')
		return 0;
	n = h + 1;
	while (n < len && n - h <= 4 && s[n] >= 'A' && s[n] <= 'Z')
		n++;
	if (n >= len || s[n] != ':')
		return 0;
	pid = ++n;
	for (int field = 0; field < 2; field++) {   /* pid then tid */
		d = hex_digits(s + n, len - n, 16);
		if (!d || n + d >= len || s[n + d] != ':')
			return 0;
		n += d + 1;
	}
	if (n >= len || s[n] != ' ' || !(d = digits(s + n + 1, len - n - 1, 20)))
		return 0;
	n += 1 + d;
	if (len - n < 4 || memcmp(s + n, " us(", 4) != 0 || !(d = digits(s + n + 4, len - n - 4, 20)))
		return 0;
	n += 4 + d;
	if (len - n >= 6 && memcmp(s + n, " us!!!", 6) == 0)
		n += 6;
	else if (len - n >= 3 && memcmp(s + n, " us", 3) == 0)
		n += 3;
	else
		return 0;
	if (len - n < 3 || memcmp(s + n, "): ", 3) != 0)
		return 0;
	if (o) {
		set_host(o, s, h);
		o->pid = strtol(s + pid, NULL, 16);   /* hex digits, then ':' */
	}
	return n + 3;
}

/* srun --label's "  0: ", pdsh's "host: " (a lower-case host name: an exception's "torch.Error: " is not one). */
static size_t label_prefix(const char *s, size_t len, struct log_origin *o)
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
	/* srun's numeric label keeps the message's own indent ("3:   File ..."); a word needs text after it */
	if (len - n - word < 3 || s[n + word] != ':' || s[n + word + 1] != ' ' ||
	    (s[n + word + 2] == ' ' && !is_digit(s[n])))
		return 0;
	if (is_digit(s[n]))
		set_rank(o, s + n);   /* srun --label */
	else
		set_host(o, s, word);   /* pdsh */
	return n + word + 2;
}

/* ISO 8601 and syslog timestamps at the start of a line, with the space after them. */
static size_t time_prefix(const char *s, size_t len, struct log_origin *o)
{
	static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
	size_t n = iso_time(s, len);

	if (n) {
		set_time(o, s + 5, s + 8, s + 11, s, n);
		n += until(s + n, len - n, " ");
		return n < len ? n + 1 : 0;
	}
	/* mpirun --timestamp-output: ctime's "Sat Nov 28 09:56:16 2026" glued to its tag ("[1,0]<stderr>:") */
	if (len > 24 && s[3] == ' ' && s[19] == ' ' && digits(s + 20, 4, 4) == 4 && (s[24] == '[' || s[24] == ' '))
		for (size_t d = 0; d < 21; d += 3)
			if (memcmp(s, &"SunMonTueWedThuFriSat"[d], 3) == 0)
				return time_prefix(s + 4, 16, o) == 16 ? 24 + (s[24] == ' ') : 0;
	/* "Nov 24 21:25:56 " */
	if (len < 16 || s[3] != ' ' || s[6] != ' ' || s[9] != ':' || s[12] != ':' || s[15] != ' ')
		return 0;
	for (size_t m = 0; m < 36; m += 3)
		if (memcmp(s, months + m, 3) == 0) {
			if (o && (s[4] == ' ' || is_digit(s[4])) && is_digit(s[5])) {
				char mm[3] = { (char)('0' + (m / 3 + 1) / 10), (char)('0' + (m / 3 + 1) % 10), 0 };
				char dd[3] = { s[4] == ' ' ? '0' : s[4], s[5], 0 };

				set_time(o, mm, dd, s + 7, s, 15);
			}
			return 16;
		}
	return 0;
}

size_t log_line_origin(const char *line, size_t len, struct log_origin *o)
{
	size_t at = 0;

	if (o) {
		memset(o, 0, sizeof(*o));
		o->rank = -1;
		o->at = -1;
	}
	/* A few rounds: "[1,0]<stdout>:[rank0]:[2026-...] host:1:1 [0] NCCL INFO " nests four. */
	for (int round = 0; round < 8; round++) {
		size_t n = bracket_prefix(line + at, len - at, o);

		if (!n)
			n = nccl_prefix(line + at, len - at, o);
		if (!n)
			n = dapl_prefix(line + at, len - at, o);
		if (!n)
			n = libfabric_prefix(line + at, len - at, o);
		if (!n)
			n = time_prefix(line + at, len - at, o);
		if (!n)
			n = label_prefix(line + at, len - at, o);
		if (!n)
			break;
		at += n;
	}
	return at;
}

size_t log_line_message(const char *line, size_t len)
{
	return log_line_origin(line, len, NULL);
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
