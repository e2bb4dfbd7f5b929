/* check's rules: pure functions from the probed host to findings, testable on a fixture with no I/O. */
#ifndef ROCE_DOCTOR_CHECKS_H
#define ROCE_DOCTOR_CHECKS_H

#include <stdbool.h>

#include "core/findings.h"
#include "probe/host.h"

struct check_input {
	const struct host *host;
	int family;                 /* AF_INET or AF_INET6: the GID family NCCL will use */
	/* Ports NCCL would use (NCCL_IB_HCA applied); parallel to host devices/ports, NULL = every port. */
	bool (*port_selected)(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p);
	const void *selection;      /* state for port_selected */
	const char *gid_index_value;   /* NCCL_IB_GID_INDEX as NCCL will see it, NULL when unset */
	const char *gid_index_source;  /* "environment", "/etc/nccl.conf:3" */
};

/* Every check, in report order. */
void checks_run(const struct check_input *in, struct findings *out);

/* Individual areas (each adds only findings of its own ids). */
void check_rdma_devices(const struct check_input *in, struct findings *out);
void check_ports(const struct check_input *in, struct findings *out);
void check_netdevs(const struct check_input *in, struct findings *out);
void check_gids(const struct check_input *in, struct findings *out);

/* A RoCE port NCCL can use: Ethernet, ACTIVE, and a RoCE v2 GID of the family. */
bool port_usable(const struct check_input *in, const struct rdma_port *p);
bool input_port_selected(const struct check_input *in, const struct rdma_device *d, const struct rdma_port *p);

/* The netdev MTU below which a RoCE port cannot run a 4096-byte path MTU (4096 + RoCE v2 headers). */
#define ROCE_MTU_4096_MIN_NETDEV_MTU 4200

#endif
