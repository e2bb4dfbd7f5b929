// SPDX-License-Identifier: GPL-2.0-only
/* Policy routing rules (`ip rule`): with two RoCE ports in one subnet, "from <port address> lookup <table>"
 * per port is the alternative to arp_ignore/arp_announce that keeps replies on the right port (seed 003). */
#ifndef ROCE_DOCTOR_IP_RULES_H
#define ROCE_DOCTOR_IP_RULES_H

#include "model/net.h"
#include "util/rootfs.h"

/* RTM_GETRULE dump for IPv4 and IPv6 when root->live. 0 or -errno. */
int ip_rules_read(const struct rootfs *root, struct ip_rule_list *out);
void ip_rule_list_free(struct ip_rule_list *list);

#endif
