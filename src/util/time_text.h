// SPDX-License-Identifier: GPL-2.0-only
/* Time as every output writes it: RFC 3339 in UTC with a Z, so snapshots, serve's events and JUnit reports
 * taken on nodes in different time zones sort and compare as they are. */
#ifndef ROCE_DOCTOR_TIME_TEXT_H
#define ROCE_DOCTOR_TIME_TEXT_H

#include <stddef.h>
#include <time.h>

#define TIME_TEXT_SIZE 21   /* "2026-11-28T03:26:11Z" and its NUL */

/* "2026-11-28T03:26:11Z" into buf; "" when t cannot be broken down or buf is too small. */
void time_text(time_t t, char *buf, size_t size);

#endif
