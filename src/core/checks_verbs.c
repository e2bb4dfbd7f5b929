// SPDX-License-Identifier: GPL-2.0-only
/* verbs.provider: the userspace half of a device. The kernel can list a device ACTIVE while libibverbs has no
 * provider for its driver (Debian's ibverbs-providers not installed, a container image without
 * /etc/libibverbs.d): ibv_get_device_list() then leaves the device out and every verbs program fails to open
 * it, "no userspace device-specific driver found" in ibv_devices. */
#include <stdio.h>
#include <string.h>

#include "core/checks.h"
#include "core/rdma_drivers.h"

static void provider_missing(const struct check_input *in, const struct rdma_device *d, const struct rdma_driver *r,
			     struct findings *out)
{
	const struct verbs_providers *v = in->verbs_providers;
	char fix[512], where[96];

	if (in->container && in->container->kind[0])
		snprintf(fix, sizeof(fix), "apt-get install ibverbs-providers   # in the %s image (Dockerfile: RUN "
			 "apt-get install -y ibverbs-providers; RHEL-based: dnf install libibverbs)\n"
			 "docker run -v /etc/libibverbs.d:/etc/libibverbs.d:ro ...   # or the host's config, with the "
			 "provider libraries it names (lib%s-rdmav*.so) mounted too", in->container->kind, r->provider);
	else
		snprintf(fix, sizeof(fix), "apt-get install ibverbs-providers   # Debian, Ubuntu: "
			 "/etc/libibverbs.d/%s.driver and lib%s-rdmav*.so\n"
			 "dnf install libibverbs   # RHEL, Fedora", r->provider, r->provider);
	if (v->dir_exists)
		snprintf(where, sizeof(where), "/etc/libibverbs.d has no %s.driver", r->provider);
	else
		snprintf(where, sizeof(where), "/etc/libibverbs.d does not exist");
	finding_add(out, "verbs.provider", SEVERITY_FAIL, d->name, fix,
		    "libibverbs has no provider for %s (%s needs '%s'): %s, so ibv_get_device_list() leaves %s out and "
		    "serve, bw, lat and NCCL cannot open it", d->name, r->nic, r->provider, where, d->name);
}

void check_verbs_providers(const struct check_input *in, struct findings *out)
{
	const struct host *h = in->host;

	/* Not read (--only, a tree without etc/, an older snapshot): unknown, and nothing to say. */
	if (!in->verbs_providers || !findings_wanted(out, "verbs.provider"))
		return;
	for (size_t i = 0; i < h->device_count; i++) {
		const struct rdma_device *d = &h->devices[i];
		const struct rdma_driver *r = rdma_driver_of(d);

		if (!r)
			continue;   /* a driver this table does not know: which provider it needs is unknown */
		if (verbs_provider_listed(in->verbs_providers, r->provider))
			finding_add(out, "verbs.provider", SEVERITY_OK, d->name, NULL,
				    "%s: libibverbs provider %s is configured (/etc/libibverbs.d)", d->name, r->provider);
		else
			provider_missing(in, d, r, out);
	}
}
