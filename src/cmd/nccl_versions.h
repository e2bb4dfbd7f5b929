// SPDX-License-Identifier: GPL-2.0-only
/* For gid --suggest and nccl-env: what each NCCL on the node (or --nccl-version's) will do with the GID index
 * left unset, from the NCCL settings and libraries as check reads them, or as the --from snapshot recorded
 * them. */
#ifndef ROCE_DOCTOR_CMD_NCCL_VERSIONS_H
#define ROCE_DOCTOR_CMD_NCCL_VERSIONS_H

#include <jansson.h>

#include "cmd/common.h"
#include "core/nccl_advice.h"

/* The --nccl-version option's key and its check, shared by the commands that take it. */
#define OPT_NCCL_VERSION_KEY 0x310
#define NCCL_VERSION_OPTION { "nccl-version", OPT_NCCL_VERSION_KEY, "X.Y[.Z]", 0, \
	"Advise for this NCCL version instead of the ones found on the node", 0 }
/* 0, or calls argp_error(). */
int nccl_version_option(struct argp_state *state, const char *arg);

/* The advice over host's ports (none known: out->count 0). Live and --root read the NCCL settings and
 * libraries here; --from takes recorded, the system the caller read with the snapshot (NULL: an older
 * snapshot without it), which must outlive the advice. 0 or -ENOMEM. Nothing is printed: a source that cannot
 * be read leaves the advice empty, as no NCCL found does. */
int nccl_versions_advise(const struct app *app, const struct host *host, const struct system_state *recorded,
			 const char *override, struct nccl_advice *out);

/* [{version, path, where, advice, gid_index}] for the JSON document; text printers read it back. */
json_t *nccl_versions_json(const struct nccl_advice *a);

#endif
