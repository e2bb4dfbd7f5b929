// SPDX-License-Identifier: GPL-2.0-only
/* Terminal detection for the text renderers, kept apart so a renderer stays a pure function of its style. */
#include "output/terminal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int colour_when_parse(const char *word, enum colour_when *when)
{
	static const char *const words[] = { "auto", "always", "never" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(word, words[i]) == 0) {
			*when = (enum colour_when)i;
			return 0;
		}
	return -EINVAL;
}

/* $COLUMNS when it is a sane width, else 0. */
static unsigned columns_env(void)
{
	const char *v = getenv("COLUMNS");
	char *end;
	unsigned long n;

	if (!v || !*v)
		return 0;
	n = strtoul(v, &end, 10);
	return *end || n < 20 || n > 1000 ? 0 : (unsigned)n;
}

void text_style_resolve(struct text_style *style, enum colour_when when, int fd)
{
	const char *no_colour = getenv("NO_COLOR"), *term = getenv("TERM");
	bool tty = isatty(fd) == 1;
	struct winsize ws;

	if (when == COLOUR_AUTO)
		style->colour = tty && !(no_colour && *no_colour) && !(term && strcmp(term, "dumb") == 0);
	else
		style->colour = when == COLOUR_ALWAYS;
	style->width = 0;
	if (tty && ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		style->width = ws.ws_col;
	else if (tty || when == COLOUR_ALWAYS)
		style->width = columns_env();
}

void text_print_wrapped(FILE *out, const char *text, size_t at, size_t indent, const struct text_style *st)
{
	size_t col = at;

	if (!st->width || at + strlen(text) <= st->width || indent + 20 > st->width) {
		fprintf(out, "%s\n", text);
		return;
	}
	while (*text) {
		size_t word = strcspn(text, " ");

		if (col > at && col + 1 + word > st->width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > at && col > indent) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", (int)word, text);
		col += word;
		text += word;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}
