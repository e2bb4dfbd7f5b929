// SPDX-License-Identifier: GPL-2.0-only
/* How text output should look where it goes: colour or not, and the width to wrap to. */
#ifndef ROCE_DOCTOR_TERMINAL_H
#define ROCE_DOCTOR_TERMINAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum colour_when { COLOUR_AUTO, COLOUR_ALWAYS, COLOUR_NEVER };

struct text_style {
	bool colour;
	unsigned width;     /* wrap prose to this many columns; 0: never wrap */
	bool verbose;       /* -v: show what the default folds away */
};

/* "auto", "always", "never" -> 0 and *when; -EINVAL otherwise. */
int colour_when_parse(const char *word, enum colour_when *when);

/* Colour: never; always; auto = fd is a terminal, NO_COLOR unset or empty, TERM not "dumb".
 * Width: on a terminal its width (TIOCGWINSZ), else $COLUMNS; not on a terminal only with --color=always
 * (which asks for terminal output: how tests drive it) and $COLUMNS set; otherwise 0. */
void text_style_resolve(struct text_style *style, enum colour_when when, int fd);

/* Words of text (a line printed from column `at` on) wrapped to style->width, later lines indented by `indent`,
 * ending with a newline; as it is when the style has no width or the text fits. */
void text_print_wrapped(FILE *out, const char *text, size_t at, size_t indent, const struct text_style *style);

#endif
