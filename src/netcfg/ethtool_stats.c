// SPDX-License-Identifier: GPL-2.0-only
/* ethtool -S through SIOCETHTOOL: the count, the names once, then the values; ethtool netlink has no request
 * for a driver's private statistics, so the ioctl is the kernel interface for them. */
#include "netcfg/ethtool_stats.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int ethtool_ioctl(int fd, const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, ifname, strlen(ifname));
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) < 0 ? -errno : 0;
}

static int stats_count(int fd, const char *ifname, size_t *count)
{
	/* the header and room for the one count its data[] carries for the one set asked */
	union {
		struct ethtool_sset_info hdr;
		char room[sizeof(struct ethtool_sset_info) + sizeof(uint32_t)];
	} info;
	uint32_t len;
	int ret;

	memset(&info, 0, sizeof(info));
	info.hdr.cmd = ETHTOOL_GSSET_INFO;
	info.hdr.sset_mask = 1ULL << ETH_SS_STATS;
	ret = ethtool_ioctl(fd, ifname, &info);
	if (ret < 0)
		return ret;
	memcpy(&len, info.room + sizeof(struct ethtool_sset_info), sizeof(len));
	if (!(info.hdr.sset_mask & (1ULL << ETH_SS_STATS)) || len == 0)
		return -EOPNOTSUPP;
	if (len > ETHTOOL_STATS_MAX)
		return -EBADMSG;
	*count = len;
	return 0;
}

int netdev_stats_read(const char *ifname, struct netdev_stats *out)
{
	struct ethtool_gstrings *names = NULL;
	struct ethtool_stats *vals = NULL;
	size_t count = 0;
	int fd, ret;

	memset(out, 0, sizeof(*out));
	if (strlen(ifname) >= IF_NAMESIZE)
		return -EINVAL;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = stats_count(fd, ifname, &count);
	if (ret < 0)
		goto out;
	names = calloc(1, sizeof(*names) + count * ETH_GSTRING_LEN);
	vals = calloc(1, sizeof(*vals) + count * sizeof(uint64_t));
	out->items = calloc(count, sizeof(*out->items));
	if (!names || !vals || !out->items) {
		ret = -ENOMEM;
		goto out;
	}
	names->cmd = ETHTOOL_GSTRINGS;
	names->string_set = ETH_SS_STATS;
	names->len = (uint32_t)count;
	ret = ethtool_ioctl(fd, ifname, names);
	if (ret < 0)
		goto out;
	vals->cmd = ETHTOOL_GSTATS;
	vals->n_stats = (uint32_t)count;
	ret = ethtool_ioctl(fd, ifname, vals);
	if (ret < 0)
		goto out;
	/* The kernel writes what the driver has now; a count that changed means the names and values may not pair. */
	if (names->len != count || vals->n_stats != count) {
		ret = -EBADMSG;
		goto out;
	}
	for (size_t i = 0; i < count; i++) {
		memcpy(out->items[i].name, (const char *)names->data + i * ETH_GSTRING_LEN, ETH_GSTRING_LEN);
		out->items[i].name[ETH_GSTRING_LEN] = '\0';
		out->items[i].value = vals->data[i];
	}
	out->count = count;
	ret = 0;
out:
	free(names);
	free(vals);
	close(fd);
	if (ret < 0)
		netdev_stats_free(out);
	return ret;
}

void netdev_stats_free(struct netdev_stats *s)
{
	free(s->items);
	s->items = NULL;
	s->count = 0;
}
