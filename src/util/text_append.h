// SPDX-License-Identifier: GPL-2.0-only
/* Appending formatted text to a fixed buffer: reasons and messages that are built piece by piece. */
#ifndef ROCE_DOCTOR_TEXT_APPEND_H
#define ROCE_DOCTOR_TEXT_APPEND_H

#include <stddef.h>

/* printf at the end of the NUL-terminated text in buf; text that does not fit is cut, never overrun. */
void text_append(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
