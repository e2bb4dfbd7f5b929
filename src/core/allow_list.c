// SPDX-License-Identifier: GPL-2.0-only
/* serve's allow list: every network kept as an IPv6 prefix (IPv4 mapped), so one comparison serves both
 * families and a dual-stack socket's ::ffff:a.b.c.d clients match their IPv4 networks. */
#include "core/allow_list.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool is_mapped(const struct in6_addr *a)
{
	static const uint8_t prefix[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };

	return memcmp(a->s6_addr, prefix, sizeof(prefix)) == 0;
}

static void map_ipv4(const struct in_addr *v4, struct in6_addr *out)
{
	memset(out, 0, sizeof(*out));
	out->s6_addr[10] = out->s6_addr[11] = 0xff;
	memcpy(&out->s6_addr[12], v4, 4);
}

static void clear_host_bits(struct in6_addr *a, unsigned prefix)
{
	for (unsigned bit = prefix; bit < 128; bit++)
		a->s6_addr[bit / 8] &= (uint8_t)~(0x80u >> (bit % 8));
}

static bool in_net(const struct allow_net *net, const struct in6_addr *a)
{
	struct in6_addr masked = *a;

	clear_host_bits(&masked, net->prefix);
	return memcmp(&masked, &net->addr, sizeof(masked)) == 0;
}

int allow_parse(const char *text, struct allow_net *out, bool *any, char *why, size_t why_size)
{
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(text, '/');
	size_t len = slash ? (size_t)(slash - text) : strlen(text);
	struct in_addr v4;
	unsigned long prefix;
	unsigned max;
	char *end;

	*any = false;
	memset(out, 0, sizeof(*out));
	if (strcmp(text, "any") == 0) {
		*any = true;
		return 0;
	}
	if (len == 0 || len >= sizeof(addr))
		goto bad;
	memcpy(addr, text, len);
	addr[len] = 0;
	if (inet_pton(AF_INET, addr, &v4) == 1) {
		map_ipv4(&v4, &out->addr);
		max = 32;
	} else if (inet_pton(AF_INET6, addr, &out->addr) == 1 && !is_mapped(&out->addr)) {
		max = 128;
	} else {
		goto bad;
	}
	prefix = max;
	if (slash) {
		errno = 0;
		prefix = strtoul(slash + 1, &end, 10);
		if (!slash[1] || *end || errno || prefix > max || slash[1] == '-' || slash[1] == '+') {
			snprintf(why, why_size, "bad --allow '%s': the prefix length must be 0..%u", text, max);
			return -EINVAL;
		}
	}
	out->prefix = (unsigned)prefix + (max == 32 ? 96 : 0);
	clear_host_bits(&out->addr, out->prefix);
	/* 0.0.0.0/0 and ::/0 say "everyone" as clearly as "any" does */
	*any = prefix == 0;
	return 0;
bad:
	snprintf(why, why_size, "bad --allow '%s': expected any, an address, or ADDRESS/PREFIX (10.88.0.0/24, "
		 "fd00::/64)", text);
	return -EINVAL;
}

int allow_add(struct allow_list *list, const struct allow_net *net)
{
	for (size_t i = 0; i < list->count; i++)
		if (list->nets[i].prefix == net->prefix && memcmp(&list->nets[i].addr, &net->addr, 16) == 0)
			return 0;
	if (list->count == ALLOW_MAX)
		return -ENOSPC;
	list->nets[list->count++] = *net;
	return 0;
}

void allow_default(struct allow_list *list, const struct host *host)
{
	struct allow_net loop4 = { .prefix = 96 + 8 }, loop6 = { .prefix = 128 };

	memset(list, 0, sizeof(*list));
	loop4.addr.s6_addr[10] = loop4.addr.s6_addr[11] = 0xff;
	loop4.addr.s6_addr[12] = 127;
	loop6.addr.s6_addr[15] = 1;
	allow_add(list, &loop4);
	allow_add(list, &loop6);
	for (size_t d = 0; d < host->device_count; d++) {
		const struct rdma_device *dev = &host->devices[d];

		for (size_t p = 0; p < dev->port_count; p++) {
			const char *name = dev->ports[p].netdev[0] ? dev->ports[p].netdev : dev->parent;
			const struct netdev *nd = name[0] ? host_find_netdev(host, name) : NULL;

			for (size_t a = 0; nd && a < nd->addr_count; a++) {
				const struct ip_address *ip = &nd->addrs[a];
				struct allow_net net = { .addr = ip->addr,
							 .prefix = ip->prefix_len + (ip->family == AF_INET ? 96 : 0) };

				if (net.prefix > 128)
					continue;
				clear_host_bits(&net.addr, net.prefix);
				allow_add(list, &net);
			}
		}
	}
}

bool allow_match(const struct allow_list *list, const struct sockaddr_storage *addr)
{
	struct in6_addr a;

	if (list->any)
		return true;
	if (addr->ss_family == AF_INET)
		map_ipv4(&((const struct sockaddr_in *)addr)->sin_addr, &a);
	else if (addr->ss_family == AF_INET6)
		a = ((const struct sockaddr_in6 *)addr)->sin6_addr;
	else
		return false;
	for (size_t i = 0; i < list->count; i++)
		if (in_net(&list->nets[i], &a))
			return true;
	return false;
}

void allow_net_text(const struct allow_net *net, char *buf, size_t size)
{
	char text[INET6_ADDRSTRLEN];

	if (is_mapped(&net->addr) && net->prefix >= 96) {
		inet_ntop(AF_INET, &net->addr.s6_addr[12], text, sizeof(text));
		snprintf(buf, size, "%s/%u", text, net->prefix - 96);
	} else {
		inet_ntop(AF_INET6, &net->addr, text, sizeof(text));
		snprintf(buf, size, "%s/%u", text, net->prefix);
	}
}

void allow_list_text(const struct allow_list *list, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = 0;
	if (list->any) {
		snprintf(buf, size, "any address");
		return;
	}
	for (size_t i = 0; i < list->count && used + 1 < size; i++) {
		char net[INET6_ADDRSTRLEN + 8];

		allow_net_text(&list->nets[i], net, sizeof(net));
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", net);
	}
}
