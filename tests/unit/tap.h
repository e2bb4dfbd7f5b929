// SPDX-License-Identifier: GPL-2.0-only
/* A minimal TAP producer for unit tests: CHECK records a failure and goes on. */
#ifndef ROCE_DOCTOR_TAP_H
#define ROCE_DOCTOR_TAP_H

#include <stdio.h>

static int tap_failed_checks;
static int tap_test_number;
static int tap_failed_tests;

#define CHECK(cond)                                                                                 \
	do {                                                                                        \
		if (!(cond)) {                                                                      \
			printf("# %s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);           \
			tap_failed_checks++;                                                        \
		}                                                                                   \
	} while (0)

#define CHECK_STR(a, b)                                                                             \
	do {                                                                                        \
		const char *a_ = (a), *b_ = (b);                                                    \
		if (!a_ || !b_ || strcmp(a_, b_) != 0) {                                            \
			printf("# %s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, a_ ? a_ : "(null)",   \
			       b_ ? b_ : "(null)");                                                 \
			tap_failed_checks++;                                                        \
		}                                                                                   \
	} while (0)

#define RUN(test)                                                                                   \
	do {                                                                                        \
		int before_ = tap_failed_checks;                                                    \
		test();                                                                             \
		tap_test_number++;                                                                  \
		if (tap_failed_checks != before_)                                                   \
			tap_failed_tests++;                                                         \
		printf("%s %d - %s\n", tap_failed_checks == before_ ? "ok" : "not ok", tap_test_number, \
		       #test);                                                                      \
	} while (0)

#define TAP_DONE()                                                                                  \
	do {                                                                                        \
		printf("1..%d\n", tap_test_number);                                                 \
		return tap_failed_tests ? 1 : 0;                                                    \
	} while (0)

#endif
