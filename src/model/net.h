// SPDX-License-Identifier: GPL-2.0-only
/* The routing side of two ports in one subnet, as data: arp sysctls (probe/sysctl_arp.h) and policy rules
 * (netcfg/ip_rules.h). */
#ifndef ROCE_DOCTOR_MODEL_NET_H
#define ROCE_DOCTOR_MODEL_NET_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct arp_sysctl {
	int all_ignore, dev_ignore;        /* net.ipv4.conf.{all,DEV}.arp_ignore */
	int all_announce, dev_announce;
	int ignore, announce;              /* in effect for DEV: the kernel uses max(all, DEV) for both */
};

/* arp_ignore/arp_announce of one RDMA netdev, read before the rules run. */
struct netdev_arp {
	char netdev[IF_NAMESIZE];
	bool known;
	struct arp_sysctl value;
};

struct ip_rule {
	int family;                  /* AF_INET or AF_INET6 */
	uint32_t priority;           /* 0 local, 32766 main, 32767 default on a stock host */
	struct in6_addr src;         /* IPv4 stored mapped (::ffff:a.b.c.d), like struct ip_address */
	unsigned src_len;            /* 0: from all */
	struct in6_addr dst;
	unsigned dst_len;
	uint32_t table;              /* 254 main, 255 local, 253 default */
	unsigned action;             /* FR_ACT_TO_TBL (1) for "lookup" rules */
	char iif[IF_NAMESIZE], oif[IF_NAMESIZE];
	uint32_t fwmark;
};

struct ip_rule_list {
	bool known;                  /* false under --root: rules come only from the live kernel */
	struct ip_rule *items;       /* ascending priority, as the kernel evaluates them */
	size_t count;
};


/* The first rule (by priority) with a source prefix containing addr that looks a table up, or NULL.
 * addr as in struct ip_address (IPv4 mapped). */
const struct ip_rule *ip_rule_for_source(const struct ip_rule_list *list, int family, const struct in6_addr *addr);

#endif
