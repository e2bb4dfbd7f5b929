// SPDX-License-Identifier: GPL-2.0-only
/* Known NCCL variable names: lookup, the typo a name is one or two edits from, and the split of a read
 * configuration into what NCCL reads and what it never will. */
#include "core/nccl_env_names.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/edit_distance.h"

static int compare_name(const void *key, const void *entry)
{
	return strcmp(key, *(const char *const *)entry);
}

bool nccl_env_name_known(const char *name)
{
	return bsearch(name, nccl_env_names, nccl_env_names_count, sizeof(nccl_env_names[0]), compare_name) != NULL;
}

const char *nccl_env_name_nearest(const char *name)
{
	unsigned best = ~0u, limit = strlen(name) <= 12 ? 1 : 2;
	const char *found = NULL;
	bool tie = false;

	if (strncmp(name, "NCCL_", 5) != 0 || nccl_env_name_known(name))
		return NULL;
	for (size_t i = 0; i < nccl_env_names_count; i++) {
		unsigned d = edit_distance(name, nccl_env_names[i]);

		if (d < best) {
			best = d;
			found = nccl_env_names[i];
			tie = false;
		} else if (d == best) {
			tie = true;
		}
	}
	return best <= limit && !tie ? found : NULL;
}

int nccl_conf_set_aside_unknown(struct nccl_conf *conf)
{
	size_t unknown = 0, kept = 0;
	struct nccl_setting *aside;

	for (size_t i = 0; i < conf->count; i++)
		unknown += !nccl_env_name_known(conf->items[i].name);
	if (unknown == 0)
		return 0;
	aside = realloc(conf->not_read, (conf->not_read_count + unknown) * sizeof(*aside));
	if (!aside)
		return -ENOMEM;
	conf->not_read = aside;
	for (size_t i = 0; i < conf->count; i++) {
		if (nccl_env_name_known(conf->items[i].name))
			conf->items[kept++] = conf->items[i];
		else
			conf->not_read[conf->not_read_count++] = conf->items[i];
	}
	conf->count = kept;
	return 0;
}
