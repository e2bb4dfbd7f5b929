// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL libraries model to JSON and back: the "nccl_libs" member of roce-doctor/system/v1. */
#ifndef ROCE_DOCTOR_MODEL_NCCL_LIBS_JSON_H
#define ROCE_DOCTOR_MODEL_NCCL_LIBS_JSON_H

#include <jansson.h>
#include <stdbool.h>

#include "model/json_tree.h"
#include "model/nccl_libs.h"

struct reader;

/* null when !read (a source not looked at), else the object. NULL only for memory. */
json_t *nccl_libs_to_json(const struct nccl_libs *libs, bool read);

/* [{program, where, needed, by, path, real_path}]: which library each program's loader takes. NULL for memory. */
json_t *nccl_loads_to_json(const struct nccl_libs *libs);

/* doc's member "nccl_libs": null or absent (*read false) or the object, validated member by member (while r validates,
 * nothing is allocated and libs is scratch). 0 or the reader's -errno, its path naming the member. */
int nccl_libs_read_member(struct reader *r, const struct jnode *doc, struct nccl_libs *libs, bool *read);

#endif
