// SPDX-License-Identifier: GPL-2.0-only
/* Every id check can emit, in report order, with what its rule looks at. */
#include "core/check_catalog.h"

#include <stdio.h>
#include <string.h>

const struct check_id check_catalog[] = {
	{ "rdma.devices", "/sys/class/infiniband: is there an RDMA device" },
	{ "rdma.uverbs", "each device's uverbs node in /dev/infiniband (read-write when live), and rdma_cm" },
	{ "kernel.modules", "/proc/modules and /sys/module: ib_uverbs, rdma_ucm and each device's provider" },
	{ "verbs.provider", "/etc/libibverbs.d: a libibverbs provider for each RDMA device's driver (mlx5, rxe, ...)" },
	{ "gpu.peermem", "NVIDIA GPUs on PCI and their GPUDirect RDMA path: nvidia_peermem (or nv_peer_mem), or dma-buf" },
	{ "gpu.pcie_link", "each GPU's and RDMA NIC's current_link_width/speed against max_link_* (GPUs: width)" },
	{ "gpu.nic_distance", "each GPU's nearest RDMA NIC on PCIe (as topo): SYS, across NUMA nodes, is too far" },
	{ "gpu.rails", "NCCL_IB_HCA, when set, against the rails (each GPU's nearest NICs) and front-end NICs" },
	{ "gpu.acs", "ACS control of the bridges between each GPU and its nearest NIC (config space, as root)" },
	{ "memlock.limit", "this process's RLIMIT_MEMLOCK (/proc/self/limits) against NCCL's 256 MiB" },
	{ "memlock.pam", "the memlock lines of /etc/security/limits.conf and limits.d that apply to --user" },
	{ "memlock.systemd", "DefaultLimitMEMLOCK in systemd's system.conf and its drop-ins" },
	{ "memlock.register", "live: an ibv_reg_mr of 256 MiB on the first usable port's device" },
	{ "firewall.firewalld", "a running firewalld process, or its nftables table" },
	{ "firewall.rules", "nftables input chains (live) and legacy iptables tables: drops of TCP or udp 4791" },
	{ "port.state", "each selected port's state and physical state" },
	{ "port.speed", "live: the netdev's speed against its fastest supported link mode (ethtool netlink)" },
	{ "port.rail_speed", "the usable ports' rates against each other: NCCL stripes a job over all of them" },
	{ "port.link_layer", "the port's link layer: InfiniBand where RoCE is expected" },
	{ "port.active_mtu", "live: the port's active MTU against 4096 (ibv_query_port)" },
	{ "netdev.state", "the Ethernet port's netdev, its operstate" },
	{ "netdev.ipv4", "--family ipv4: an IPv4 address on the netdev (under --root: an IPv4-mapped GID)" },
	{ "netdev.ipv6", "--family ipv6: a global IPv6 address on the netdev (under --root: a global IPv6 GID)" },
	{ "netdev.mtu", "the netdev's MTU against 4200 (a 4096-byte RoCE MTU)" },
	{ "gid.rocev2", "each Ethernet port's GID table: a RoCE v2 GID of --family" },
	{ "gid.env", "NCCL_IB_GID_INDEX as NCCL will see it, against each Ethernet port's GID table; unset, what each "
	  "NCCL version on the node will pick" },
	{ "net.same_subnet", "selected netdevs sharing a subnet: arp_ignore/arp_announce, or ip rules per source" },
	{ "qos.lossless", "each RoCE port NCCL uses: NCCL_IB_TC (or the port's forced class) -> DSCP -> priority by the "
	  "trust mode and DSCP map -> PFC or ECN on it (dcbnl live; a captured mlnx_qos -i under --root)" },
	{ "qos.pfc_unmapped", "trust dscp: a PFC-enabled priority that no DSCP maps to" },
	{ "qos.pfc_buffer", "a PFC-enabled priority's receive buffer (prio2buffer) without bytes or xoff threshold "
	  "(MLNX_OFED's /sys/class/net/IF/qos/buffer_size, or dcbnl's buffer sizes)" },
	{ "qos.trust_pcp_untagged", "trust pcp on a netdev without VLAN, PFC on a priority above 0: untagged frames land on 0" },
	{ "qos.vlan_egress", "trust pcp on a VLAN: the PCP rdma_cm's RoCE frames leave with (the VLAN's egress QoS map at "
	  "the ToS's skb priority) against the PFC priority" },
	{ "qos.tc_forced", "the port forces a traffic class (tc/PORT/traffic_class) and NCCL_IB_TC asks another" },
	{ "qos.fifo_tc", "NCCL_IB_FIFO_TC (NCCL 2.22+: its CTS messages) lands on another priority than NCCL_IB_TC" },
	{ "qos.roce_tos", "rdma_cm's default_roce_tos (perftest -R, rping, UCX) lands on another priority than NCCL_IB_TC" },
	{ "qos.pause_storm", "each RoCE netdev's pause frames per lossless priority (ethtool statistics; a captured ethtool -S "
	  "under --root): sent or received as 1% or more of the packets on it, or the NIC's pause-storm watchdog" },
	{ "qos.discards", "packets dropped on a lossless priority (rx_prioN_buf_discard), or the port's rx_discards_phy "
	  "above 100 per million received while PFC is on" },
	{ "nccl.ib_hca", "NCCL_IB_HCA, matched as NCCL does, against the HCAs here" },
	{ "nccl.socket_ifname", "NCCL_SOCKET_IFNAME, when set, against the netdevs that are up with an address" },
	{ "nccl.ib_disable", "NCCL_IB_DISABLE, when set, against the usable RoCE ports" },
	{ "nccl.net_plugin", "NCCL_NET_PLUGIN, when set, against the net plugins found (NCCL's names: NAME, "
	  "libnccl-net-NAME.so)" },
	{ "nccl.unknown_name", "NCCL_* names NCCL does not read, one or two edits from one it does (a typo)" },
};

const size_t check_catalog_count = sizeof(check_catalog) / sizeof(check_catalog[0]);

const char *check_area(const char *id, char *buf, size_t size)
{
	snprintf(buf, size, "%.*s", (int)strcspn(id, "."), id);
	return buf;
}

static int is_area(const char *name)
{
	size_t len = strlen(name);

	for (size_t i = 0; i < check_catalog_count; i++)
		if (strncmp(check_catalog[i].id, name, len) == 0 && check_catalog[i].id[len] == '.')
			return 1;
	return 0;
}

int check_id_selected(const char *id, const char *prefix)
{
	size_t len = strlen(prefix);

	if (strncmp(id, prefix, len) != 0)
		return 0;
	return id[len] == '.' || id[len] == '\0' || !is_area(prefix);
}

size_t check_catalog_prefix_matches(const char *prefix)
{
	size_t n = 0;

	for (size_t i = 0; i < check_catalog_count; i++)
		n += check_id_selected(check_catalog[i].id, prefix) != 0;
	return n;
}

int check_catalog_has(const char *id)
{
	for (size_t i = 0; i < check_catalog_count; i++)
		if (strcmp(check_catalog[i].id, id) == 0)
			return 1;
	return 0;
}

void check_catalog_ids(char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (size_t i = 0; i < check_catalog_count && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", check_catalog[i].id);
}
