// SPDX-License-Identifier: GPL-2.0-only
/* A host tree for --root built from fuzzer bytes: the harnesses of file readers give them real files through
 * the real rootfs path logic, not a memory copy of it.
 *
 * The input is a small archive of records. A record starts with a header line, "== PATH" (a file) or
 * "== PATH -> TARGET" (a symlink); a file's content is every byte after its header line up to the next
 * header line (a line starting "== "), so it ends with that newline, as sysfs and config files do. PATH is
 * relative to the tree ("sys/class/net/eth0/mtu"); "..", "." and empty components are refused, parents are
 * created. Bytes before the first header are returned as the preamble (a harness's own choices). */
#ifndef ROCE_DOCTOR_FUZZ_TREE_H
#define ROCE_DOCTOR_FUZZ_TREE_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_TREE_RECORDS_MAX 512

/* Empties the tree (made once per process under $TMPDIR, removed at exit) and unpacks data into it. The tree's
 * directory, or NULL when it cannot be made. *preamble and *preamble_len: the bytes before the first header. */
const char *fuzz_tree_unpack(const uint8_t *data, size_t size, const uint8_t **preamble, size_t *preamble_len);

#endif
