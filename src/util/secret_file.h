// SPDX-License-Identifier: GPL-2.0-only
/* The shared secret of serve and its clients (--secret-file): read once, checked for who else may read it,
 * wiped when freed. Its bytes are never printed. */
#ifndef ROCE_DOCTOR_SECRET_FILE_H
#define ROCE_DOCTOR_SECRET_FILE_H

#include <stddef.h>
#include <stdint.h>

#define SECRET_MIN 16      /* bytes: below this a secret is guessable */
#define SECRET_MAX 4096

struct secret {
	size_t len;
	uint8_t bytes[SECRET_MAX];
};

/* Reads path whole (the exact bytes, a trailing newline included: both nodes use the same file). Refuses a
 * file that group or others may read or write (-EPERM, why says the mode and the chmod), one that is not a
 * regular file, shorter than SECRET_MIN or longer than SECRET_MAX bytes (-EINVAL). 0, or -errno with why. */
int secret_read(const char *path, struct secret *out, char *why, size_t why_size);

/* A secret given as text (an environment variable's value, named name in why): the same bounds as a file's.
 * 0, or -EINVAL with why. */
int secret_from_text(const char *name, const char *text, struct secret *out, char *why, size_t why_size);

/* Wipes the bytes. */
void secret_clear(struct secret *s);

#endif
