// SPDX-License-Identifier: GPL-2.0-only
/* Where a finished document goes, whole or not at all: stdout, or a file replaced by a rename. */
#ifndef ROCE_DOCTOR_DOCUMENT_SINK_H
#define ROCE_DOCTOR_DOCUMENT_SINK_H

#include <stddef.h>

/* Call first in main: a descriptor 0, 1 or 2 the process was started without gets /dev/null, so the first
 * file a probe opens cannot become "stdout" and receive the document. A closed stdout is remembered: writing
 * the document there then fails (EBADF) instead of vanishing into /dev/null. */
void sink_guard_std_fds(void);

/* Writes len bytes of data to path, or to stdout when path is NULL. A path is written to a temporary file in
 * its directory (".NAME.XXXXXX", which a textfile collector's *.prom glob does not match), fsynced, given the
 * mode umask allows and renamed over path, so a reader sees the old file or the whole new one; on failure the
 * temporary is removed. On stdout a short write is an error; a regular file stdout is cut back to where the
 * document began. SIGPIPE is ignored, so a closed pipe is EPIPE, not death. 0, or -errno with one line in why
 * naming what failed ("cannot write /srv/x.prom: No space left on device"). */
int sink_write(const char *path, const char *data, size_t len, char *why, size_t why_size);

#endif
