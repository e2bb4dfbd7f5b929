// SPDX-License-Identifier: GPL-2.0-only
/* One reading of a port selection for every command, so "mlx5_0:1", "mlx5_0/1" and "eth3" mean the same
 * everywhere, and one message, listing what exists, when it names nothing. */
#include "core/port_selection.h"
#include "util/text_append.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int port_selection_parse(const char *text, struct port_selection *sel)
{
	size_t len = strcspn(text, ":/");
	const char *num = text + len;

	memset(sel, 0, sizeof(*sel));
	/* Device and netdev names hold no blanks, '/' or ':' (the kernel refuses them in a netdev name). */
	if (len == 0 || len >= sizeof(sel->name) || strcspn(text, " \t\n") < len)
		return -EINVAL;
	if (*num) {
		unsigned v = 0;
		size_t digits = 0;

		for (num++; num[digits] >= '0' && num[digits] <= '9' && digits < 4; digits++)
			v = v * 10 + (unsigned)(num[digits] - '0');
		if (digits == 0 || num[digits] || num[0] == '0' || v > 255)
			return -EINVAL;
		sel->port = v;
	}
	memcpy(sel->name, text, len);
	return 0;
}

bool port_selection_matches(const struct port_selection *sel, const struct rdma_device *d,
			    const struct rdma_port *p)
{
	if (!sel || !sel->name[0])
		return true;
	if (strcmp(sel->name, d->name) != 0 && (!p->netdev[0] || strcmp(sel->name, p->netdev) != 0))
		return false;
	return !sel->port || p->num == sel->port;
}

/* Whether an earlier port of the host already sits on this netdev (so the list names it once). */
static bool netdev_listed_before(const struct host *host, size_t dev, size_t port)
{
	const char *name = host->devices[dev].ports[port].netdev;

	for (size_t i = 0; i <= dev; i++)
		for (size_t j = 0; j < host->devices[i].port_count && (i < dev || j < port); j++)
			if (strcmp(host->devices[i].ports[j].netdev, name) == 0)
				return true;
	return false;
}

int port_selection_check(const struct host *host, const struct port_selection *sel, char *why, size_t size)
{
	struct port_selection any_port;
	size_t named = 0;

	if (!sel || !sel->name[0])
		return 0;
	if (size)
		why[0] = '\0';
	any_port = *sel;
	any_port.port = 0;
	for (size_t i = 0; i < host->device_count; i++)
		for (size_t j = 0; j < host->devices[i].port_count; j++) {
			if (port_selection_matches(sel, &host->devices[i], &host->devices[i].ports[j]))
				return 0;
			named += port_selection_matches(&any_port, &host->devices[i], &host->devices[i].ports[j]);
		}
	if (size)
		why[0] = '\0';
	if (named) {
		text_append(why, size, "%s has no port %u (ports:", sel->name, sel->port);
		for (size_t i = 0; i < host->device_count; i++)
			for (size_t j = 0; j < host->devices[i].port_count; j++)
				if (port_selection_matches(&any_port, &host->devices[i], &host->devices[i].ports[j]))
					text_append(why, size, " %s/%u", host->devices[i].name,
					       host->devices[i].ports[j].num);
		text_append(why, size, ")");
		return -ENOENT;
	}
	text_append(why, size, "no RDMA device or netdev %s (devices:", sel->name);
	if (host->device_count == 0)
		text_append(why, size, " none");
	for (size_t i = 0; i < host->device_count; i++)
		text_append(why, size, "%s %s", i ? "," : "", host->devices[i].name);
	named = 0;
	for (size_t i = 0; i < host->device_count; i++)
		for (size_t j = 0; j < host->devices[i].port_count; j++) {
			const char *nd = host->devices[i].ports[j].netdev;

			if (!nd[0] || netdev_listed_before(host, i, j))
				continue;
			text_append(why, size, "%s %s", named++ ? "," : "; netdevs:", nd);
		}
	text_append(why, size, ")");
	return -ENOENT;
}
