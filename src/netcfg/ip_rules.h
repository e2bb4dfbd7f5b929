/* Policy routing rules (`ip rule`): with two RoCE ports in one subnet, "from <port address> lookup <table>"
 * per port is the alternative to arp_ignore/arp_announce that keeps replies on the right port (seed 003). */
#ifndef ROCE_DOCTOR_IP_RULES_H
#define ROCE_DOCTOR_IP_RULES_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/rootfs.h"

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

/* RTM_GETRULE dump for IPv4 and IPv6 when root->live. 0 or -errno. */
int ip_rules_read(const struct rootfs *root, struct ip_rule_list *out);
void ip_rule_list_free(struct ip_rule_list *list);

/* The first rule (by priority) with a source prefix containing addr that looks a table up, or NULL.
 * addr as in struct ip_address (IPv4 mapped). */
const struct ip_rule *ip_rule_for_source(const struct ip_rule_list *list, int family, const struct in6_addr *addr);

#endif
