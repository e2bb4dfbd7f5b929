// SPDX-License-Identifier: GPL-2.0-only
/* The NCCL versions behind gid --suggest's and nccl-env's GID advice (see nccl_versions.h). */
#include "cmd/nccl_versions.h"

#include <argp.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "cmd/check_probe.h"
#include "probe/nccl_conf.h"

int nccl_version_option(struct argp_state *state, const char *arg)
{
	struct nccl_version v;

	if (nccl_version_parse(arg, &v) < 0)
		argp_error(state, "bad --nccl-version '%s': expected X.Y or X.Y.Z (2.18, 2.21.5)", arg);
	return 0;
}

static const char *setting(const struct system_state *s, const char *name)
{
	const struct nccl_setting *set = s->nccl_read ? nccl_conf_get(&s->nccl, name) : NULL;

	return set ? set->value : NULL;
}

/* Live and --root: the system sources as check's gid.env reads them. false: not read. */
static bool read_system(const struct app *app, const struct host *host, struct system_state *s, int *err)
{
	const char *const only[] = { "gid.env", NULL };
	const struct findings wanted = { .only = only };
	char why[512];

	*err = 0;
	if (check_probe_system(app->root_dir, NULL, host, AF_INET, &wanted, s, why, sizeof(why)) == 0)
		return true;
	if (strstr(why, "out of memory"))
		*err = -ENOMEM;
	return false;
}

int nccl_versions_advise(const struct app *app, const struct host *host, const struct system_state *recorded,
			 const char *override, struct nccl_advice *out)
{
	static const struct nccl_libs none;
	struct system_state own;
	const struct system_state *s = recorded;
	struct nccl_gid_env env;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	memset(&own, 0, sizeof(own));
	if (!app->from_file)
		s = read_system(app, host, &own, &ret) ? &own : NULL;
	if (ret < 0)
		return ret;
	if (!s && !override)
		return 0;
	env = (struct nccl_gid_env){ NULL, s ? setting(s, "NCCL_IB_ADDR_FAMILY") : NULL,
				     s ? setting(s, "NCCL_IB_ADDR_RANGE") : NULL,
				     s ? setting(s, "NCCL_IB_ROCE_VERSION_NUM") : NULL };
	ret = nccl_advice_build(host, s && s->nccl_libs_read ? &s->nccl_libs : &none, &env, override, out);
	/* The advice points into the libraries: our own copy moves into it, to be freed with it. */
	if (ret == 0 && s == &own && own.nccl_libs_read) {
		out->libs = own.nccl_libs;
		memset(&own.nccl_libs, 0, sizeof(own.nccl_libs));
	}
	if (s == &own)
		system_free(&own);
	return ret;
}

json_t *nccl_versions_json(const struct nccl_advice *a)
{
	json_t *rows = json_array();

	for (size_t k = 0; k < a->count; k++) {
		const struct nccl_version_advice *va = &a->versions[k];
		char line[768], name[1200];
		int pin;

		nccl_advice_line(va, line, sizeof(line), &pin);
		nccl_advice_name(va, name, sizeof(name));
		json_array_append_new(rows, json_pack("{s:s, s:o, s:o, s:s, s:s, s:o}", "version", va->version,
			"path", va->first ? json_string(va->first->real_path) : json_null(),
			"where", va->first ? json_string(va->first->places[0].where) : json_null(),
			"name", name, "advice", line, "gid_index", pin >= 0 ? json_integer(pin) : json_null()));
	}
	return rows;
}
