// SPDX-License-Identifier: GPL-2.0-only
/* Message sizes as people write them: 4096, 64K, 64KB, 64KiB, 1m, 1MiB ... */
#ifndef ROCE_DOCTOR_BYTE_SIZE_H
#define ROCE_DOCTOR_BYTE_SIZE_H

#include <stdint.h>

/* The forms byte_size_parse accepts, for the one message that refuses the others. */
#define BYTE_SIZE_FORMS "a whole number of bytes, alone or with K, KB, KiB, M, MB or MiB (any case; powers of 1024)"

/* text -> bytes. K, KB and KiB are 1024 and M, MB and MiB 1024 * 1024, in any case, as ib_write_bw and
 * perftest users write them; a B alone is bytes. 0, -EINVAL (not a size), -ERANGE (over max). */
int byte_size_parse(const char *text, uint64_t max, uint64_t *bytes);

#endif
