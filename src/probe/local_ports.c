// SPDX-License-Identifier: GPL-2.0-only
/* net.ipv4.ip_local_port_range from procfs. */
#include "probe/local_ports.h"

#include <errno.h>
#include <stdio.h>

int local_port_range_read(const struct rootfs *root, unsigned *low, unsigned *high)
{
	char text[64], tail;
	int len = rootfs_read(root, text, sizeof(text), "proc/sys/net/ipv4/ip_local_port_range");

	if (len < 0)
		return len;
	if (sscanf(text, "%u %u %c", low, high, &tail) != 2 || *low > *high || *high > 65535)
		return -EINVAL;
	return 0;
}
