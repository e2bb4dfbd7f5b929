// SPDX-License-Identifier: GPL-2.0-only
/* The host model: RDMA devices, their ports and GID tables, and the netdevs under them. Types and pure
 * accessors only: probe, netcfg and verbs fill it, core and output read it, host_json carries it. */
#ifndef ROCE_DOCTOR_MODEL_HOST_H
#define ROCE_DOCTOR_MODEL_HOST_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#include "util/notes.h"

/* Bounds shared by the probes that fill the model and the JSON reader that accepts it, so whatever a probe
 * stores a snapshot can carry back. Real hosts stay far below each (mlx5 has 255 GID slots, rxe 1024). */
#define HOST_DEVICES_MAX 256
#define HOST_PORTS_MAX 64        /* per device */
#define HOST_GIDS_MAX 4096       /* GID slots per port */
#define HOST_NETDEVS_MAX 1024
#define HOST_ADDRS_MAX 64        /* addresses per netdev */

enum gid_type { GID_TYPE_UNKNOWN, GID_TYPE_IB_ROCE_V1, GID_TYPE_ROCE_V2 };
enum link_layer { LINK_LAYER_UNKNOWN, LINK_LAYER_ETHERNET, LINK_LAYER_INFINIBAND };

struct gid_entry {
	unsigned index;
	struct in6_addr gid;
	enum gid_type type;
	char netdev[IF_NAMESIZE];   /* empty when the kernel names none (InfiniBand) */
};

struct rdma_port {
	unsigned num;
	int state;                   /* IB port state number, -1 unknown (4 = ACTIVE) */
	char state_name[24];         /* "ACTIVE" */
	int phys_state;              /* 5 = LinkUp */
	char phys_state_name[24];
	char rate[64];               /* "25 Gb/sec (1X EDR)" */
	double rate_gbps;            /* 0 unknown */
	enum link_layer link_layer;
	char netdev[IF_NAMESIZE];    /* from sysfs; empty if none */
	char netdev_source[16];      /* which sysfs file told us: "gid_attrs", "parent", "dev_port" */
	bool netlink_known;          /* RDMA netlink answered for this port */
	char netdev_netlink[IF_NAMESIZE];
	unsigned netdev_netlink_index;
	int active_mtu, max_mtu;     /* bytes from ibv_query_port; 0 when unknown */
	/* InfiniBand ports only (RoCE has no LID: the kernel shows 0x0 there): the port's LID and its subnet
	 * manager's, which NCCL addresses IB peers by; 0 means the SM has assigned none. */
	bool lid_known, sm_lid_known;
	unsigned lid, sm_lid;
	struct gid_entry *gids;      /* non-empty entries only, ascending index */
	size_t gid_count;
};

struct rdma_device {
	char name[64];
	char fw_ver[64];
	char node_guid[24];
	char pci_address[32];        /* empty for virtual devices (rxe, siw) */
	bool numa_known;
	int numa_node;
	char driver[32];             /* kernel driver of the PCI function */
	char parent[IF_NAMESIZE];    /* virtual devices name their netdev here */
	struct rdma_port *ports;
	size_t port_count;
};

struct ip_address {
	int family;                  /* AF_INET or AF_INET6 */
	struct in6_addr addr;        /* IPv4 stored mapped (::ffff:a.b.c.d) */
	unsigned prefix_len;         /* in the family's own terms (24 for a /24 IPv4) */
};

struct netdev {
	char name[IF_NAMESIZE];
	int ifindex;
	int mtu;                     /* 0 unknown */
	char operstate[16];
	int carrier;                 /* 1 up, 0 down (or unreadable: the link is down), -1 no carrier file */
	int speed_mbps;              /* sysfs speed; -1 unknown (virtio, link down) */
	bool modes_known;            /* ethtool netlink answered (live only) */
	unsigned max_supported_mbps; /* fastest supported link mode; 0 when the driver lists none */
	char max_supported_mode[48];
	bool addrs_known;            /* addresses come only from netlink: unknown under --root */
	struct ip_address *addrs;
	size_t addr_count;
};

struct host {
	struct rdma_device *devices;
	size_t device_count;
	struct netdev *netdevs;
	size_t netdev_count;
	bool live;                   /* netlink and verbs were asked */
	struct notes warnings;
};

/* Frees every array and warning and leaves the host empty. */
void host_free(struct host *host);

const struct rdma_device *host_find_device(const struct host *host, const char *name);
const struct netdev *host_find_netdev(const struct host *host, const char *name);

const char *gid_type_name(enum gid_type type, enum link_layer ll);   /* "v1", "v2", "IB" */
const char *link_layer_name(enum link_layer ll);                     /* "Ethernet", "InfiniBand" */

/* The port's rate as every output spells it: "100 Gb/s (4X EDR)", the number as Gb/s (ip, ethtool, our own
 * findings) and the kernel's width and speed kept in parentheses; "100 Gb/s" when sysfs gave none, "" when
 * the rate is unknown. The model keeps sysfs's own text ("100 Gb/sec (4X EDR)") as the snapshot records it. */
void port_rate_text(const struct rdma_port *p, char *buf, size_t size);

#endif
