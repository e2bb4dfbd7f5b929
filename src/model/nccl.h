// SPDX-License-Identifier: GPL-2.0-only
/* NCCL's settings with their sources, as data (probe/nccl_conf.h reads them the way NCCL does). */
#ifndef ROCE_DOCTOR_MODEL_NCCL_H
#define ROCE_DOCTOR_MODEL_NCCL_H

#include <stdbool.h>
#include <stddef.h>

#define NCCL_SETTINGS_MAX 256

enum nccl_origin { NCCL_FROM_ENV, NCCL_FROM_FILE };

struct nccl_setting {
	char name[128];              /* NCCL_... */
	char value[1024];            /* exactly what NCCL gets */
	enum nccl_origin origin;
	char file[256];              /* host path when from a file */
	unsigned line;
	char source[300];            /* "environment" or "/etc/nccl.conf:3" */
	bool effective;              /* the one NCCL uses for this name; the others are shadowed */
};

struct nccl_conf {
	struct nccl_setting *items;  /* environment, then the user file, then /etc/nccl.conf, each in order */
	size_t count;
	/* NCCL_* names no NCCL reads (an image's NCCL_VERSION label, a typo), in the same order: moved here from
	 * items by core/nccl_env_names.h; NULL when none */
	struct nccl_setting *not_read;
	size_t not_read_count;
	char user_file[256];         /* NCCL_CONF_FILE, or $HOME/.nccl.conf; empty when neither applies */
	bool user_file_read, system_file_read;
};

/* The effective setting for name, or NULL when NCCL would see it unset. */
const struct nccl_setting *nccl_conf_get(const struct nccl_conf *conf, const char *name);

#endif
