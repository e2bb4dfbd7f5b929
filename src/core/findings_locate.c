// SPDX-License-Identifier: GPL-2.0-only
/* Structured subjects for check's JSON: one place that knows the subject forms the rules use. */
#include "core/findings_locate.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct rdma_port *find_port(const struct host *h, const char *dev, unsigned num)
{
	const struct rdma_device *d = host_find_device(h, dev);

	for (size_t j = 0; d && j < d->port_count; j++)
		if (d->ports[j].num == num)
			return &d->ports[j];
	return NULL;
}

static void set_port(struct finding *it, const char *dev, const struct rdma_port *p)
{
	snprintf(it->device, sizeof(it->device), "%s", dev);
	it->port = p->num;
	snprintf(it->netdev, sizeof(it->netdev), "%s", p->netdev);
}

/* "mlx5_0/1" naming a port of this host. */
static bool locate_port(struct finding *it, const struct host *h)
{
	const char *slash = strrchr(it->subject, '/');
	char dev[64], *end;
	unsigned long num;

	if (!slash || slash == it->subject || (size_t)(slash - it->subject) >= sizeof(dev) || !isdigit((unsigned char)slash[1]))
		return false;
	num = strtoul(slash + 1, &end, 10);
	if (*end || num == 0 || num > 255)
		return false;
	snprintf(dev, sizeof(dev), "%.*s", (int)(slash - it->subject), it->subject);
	if (!find_port(h, dev, (unsigned)num))
		return false;
	set_port(it, dev, find_port(h, dev, (unsigned)num));
	return true;
}

/* A netdev of this host; device and port too when an RDMA port sits on it. */
static bool locate_netdev(struct finding *it, const struct host *h)
{
	if (!host_find_netdev(h, it->subject))
		return false;
	snprintf(it->netdev, sizeof(it->netdev), "%.*s", (int)sizeof(it->netdev) - 1, it->subject);
	for (size_t i = 0; i < h->device_count; i++)
		for (size_t j = 0; j < h->devices[i].port_count; j++)
			if (strcmp(h->devices[i].ports[j].netdev, it->subject) == 0) {
				set_port(it, h->devices[i].name, &h->devices[i].ports[j]);
				return true;
			}
	return true;
}

/* A bare RDMA device name ("mlx5_2": rules about a whole device, a provider or a GID table): the device, no
 * port. */
static bool locate_device(struct finding *it, const struct host *h)
{
	if (!host_find_device(h, it->subject))
		return false;
	snprintf(it->device, sizeof(it->device), "%.*s", (int)sizeof(it->device) - 1, it->subject);
	return true;
}

/* "/a/b:12" -> "/a/b"; a path in parentheses after a variable name counts as well. */
static void locate_file(struct finding *it)
{
	const char *path = it->subject[0] == '/' ? it->subject : strstr(it->subject, " (/");
	size_t len;

	if (!path)
		return;
	if (path[0] == ' ')
		path += 2;
	len = strcspn(path, ")");
	if (path != it->subject && path[len] != ')')
		return;                         /* "NAME (/path" without its parenthesis: not the form we know */
	for (size_t k = len; k > 0; k--) {      /* drop a trailing ":LINE" */
		if (isdigit((unsigned char)path[k - 1]))
			continue;
		if (path[k - 1] == ':' && k < len)
			len = k - 1;
		break;
	}
	snprintf(it->file, sizeof(it->file), "%.*s", (int)len, path);
}

void findings_locate(struct findings *f, const struct host *host)
{
	for (size_t i = 0; i < f->count; i++) {
		struct finding *it = &f->items[i];

		it->device[0] = it->netdev[0] = it->file[0] = '\0';
		it->port = 0;
		if (!locate_port(it, host) && !locate_netdev(it, host) && !locate_device(it, host))
			locate_file(it);
	}
}
