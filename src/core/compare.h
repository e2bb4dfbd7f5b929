// SPDX-License-Identifier: GPL-2.0-only
/* compare: findings across N nodes, naming the odd nodes out against the majority. Pure functions of the node
 * models below; the command that reads snapshots fills them (nothing here reads a file). */
#ifndef ROCE_DOCTOR_COMPARE_H
#define ROCE_DOCTOR_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/findings.h"
#include "model/host.h"
#include "model/qos.h"

/* A name=value pair with where it came from: a provider and its version (source NULL), or an NCCL setting
 * ("NCCL_IB_HCA", "mlx5", "environment" or the nccl.conf that set it, as model/nccl.h's source). */
struct compare_setting {
	const char *name;
	const char *value;
	const char *source;
};

/* The board id (PSID, "MT_0000000222") of one device: what "the same HCA model" means for firmware. */
struct compare_board {
	const char *device;
	const char *board_id;
};

/* One NCCL library a job on the node could load: the path it is loaded by (the libnccl.so.2 name where it has
 * one: a new release behind the same name is the same library in another version), its version ("" unknown),
 * and what installed it (package manager and name, "" none) or where it was found ("venv /opt/torch/.venv"). */
struct compare_nccl_lib {
	const char *path;
	const char *version;
	const char *package_manager;   /* "dpkg", "pip", "" */
	const char *package_name;      /* "libnccl2", "nvidia-nccl-cu13", "" */
	const char *package_version;   /* "2.28.3-1+cuda13.0", "" */
	const char *where;             /* "venv /opt/torch/.venv", "the linker's cache (/etc/ld.so.cache)" */
	bool net_plugin;
};

/* One finding of the node's own check. */
struct compare_check {
	const char *id;
	enum severity severity;
};

enum compare_memlock_kind { COMPARE_MEMLOCK_UNKNOWN, COMPARE_MEMLOCK_UNLIMITED, COMPARE_MEMLOCK_BYTES };

/* One node. Every pointer may be NULL and every list empty with its *_known false: unknown, never counted
 * as different. */
struct compare_node {
	const char *hostname;
	const char *file;                      /* the snapshot's file name: names the node when hostnames collide */
	const struct host *host;               /* may be shared between nodes */
	const char *kernel;                    /* uname -r */
	const char *rdma_core;                 /* rdma-core (libibverbs) version */
	const struct compare_setting *providers;   /* libibverbs providers, name=version */
	size_t provider_count;
	bool providers_known;
	const struct compare_board *boards;
	size_t board_count;
	const struct compare_nccl_lib *nccl_libs;   /* every NCCL (and net plugin) a job could load */
	size_t nccl_lib_count;
	bool nccl_libs_known;
	const char *gid_index_pinned;          /* NCCL_IB_GID_INDEX as set, NULL when not set */
	const char *gid_index_source;          /* "environment" or the nccl.conf that set it */
	const struct compare_setting *nccl;    /* the NCCL_* settings the job would see: the effective one per name */
	size_t nccl_count;
	bool nccl_known;
	enum compare_memlock_kind memlock_kind;
	unsigned long long memlock_bytes;      /* when COMPARE_MEMLOCK_BYTES */
	const char *firewall;                  /* "none", "firewalld", "nftables: 12 rules", ...; NULL unknown */
	const struct qos_host *qos;            /* each RoCE port's lossless chain (DCB, forced class); NULL unknown */
	const struct compare_check *checks;    /* the node's own check findings (ok ones may be left out) */
	size_t check_count;
	bool checks_known;
};

/* Every id compare_nodes can emit, in report order, NULL-terminated (roce-doctor-checks(7)'s COMPARE lists them). */
extern const char *const compare_ids[];

/* That a finding is about a node: every node of a finding's odd values, also those its message leaves to
 * "(+N more)", so a report on 10,000 nodes still names each odd one where a program can read it. */
struct compare_concern {
	size_t finding;              /* index into the findings the rules added to */
	size_t node;                 /* index into the nodes */
};

struct compare_concerns {
	struct compare_concern *items;   /* in the order found: findings ascending */
	size_t count, capacity;
	bool failed;                 /* out of memory while recording */
};

void compare_concerns_free(struct compare_concerns *c);

/* Adds the compare.* findings for n nodes to out. family: AF_INET or AF_INET6 (the GID and the rails' address
 * family). 0 or -ENOMEM. Linear in the nodes up to a sort per attribute. */
int compare_nodes(const struct compare_node *nodes, size_t n, int family, struct findings *out);

/* The same, and the nodes each finding concerns into concerns (NULL: not wanted). */
int compare_nodes_concerned(const struct compare_node *nodes, size_t n, int family, struct findings *out,
			    struct compare_concerns *concerns);

#endif
