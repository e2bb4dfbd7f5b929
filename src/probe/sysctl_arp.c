// SPDX-License-Identifier: GPL-2.0-only
/* The four sysctl files behind a netdev's effective ARP behaviour. */
#include "probe/sysctl_arp.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int read_int(const struct rootfs *root, const char *dev, const char *key, int *out)
{
	char text[32], *end;
	long v;
	int ret;

	if (strchr(dev, '/') || !strcmp(dev, ".") || !strcmp(dev, ".."))
		return -EINVAL;
	ret = rootfs_read(root, text, sizeof(text), "proc/sys/net/ipv4/conf/%s/%s", dev, key);
	if (ret < 0)
		return ret;
	v = strtol(text, &end, 10);
	if (end == text || *end || v < 0 || v > 255)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

int arp_sysctl_read(const struct rootfs *root, const char *netdev, struct arp_sysctl *out)
{
	int ret;

	memset(out, 0, sizeof(*out));
	if ((ret = read_int(root, "all", "arp_ignore", &out->all_ignore)) < 0 ||
	    (ret = read_int(root, "all", "arp_announce", &out->all_announce)) < 0 ||
	    (ret = read_int(root, netdev, "arp_ignore", &out->dev_ignore)) < 0 ||
	    (ret = read_int(root, netdev, "arp_announce", &out->dev_announce)) < 0)
		return ret;
	out->ignore = out->all_ignore > out->dev_ignore ? out->all_ignore : out->dev_ignore;
	out->announce = out->all_announce > out->dev_announce ? out->all_announce : out->dev_announce;
	return 0;
}
