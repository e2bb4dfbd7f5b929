// SPDX-License-Identifier: GPL-2.0-only
/* check --peer's rules: the rails between two nodes and what each failed probe usually means, as pure functions
 * of the two nodes' models (a check_input each: host and system sources) and the traffic probes' results
 * (model/pair.h). Nothing here reads a host or talks to a peer; cmd/check_peer.c gathers the inputs. */
#ifndef ROCE_DOCTOR_PAIR_H
#define ROCE_DOCTOR_PAIR_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/checks.h"
#include "core/findings.h"
#include "core/gid_suggest.h"
#include "model/pair.h"

#define PAIR_RAILS_MAX 64
#define PAIR_REACH_MAX 4
#define PAIR_MASTER_PORT_DEFAULT 29500

/* One node: "a" runs check --peer, "b" is the peer. in->host and the system members describe it. */
struct pair_side {
	const char *node;                 /* "a" or "b" */
	const char *hostname;             /* may be NULL: then the node letter names it */
	const struct check_input *in;
};

/* How the two ends of a rail reach each other. */
enum rail_link {
	RAIL_LINK_SAME_SUBNET,            /* both addresses in one subnet: no router needed */
	RAIL_LINK_ROUTED,                 /* different subnets: only a route joins them */
	RAIL_LINK_MISSING,                /* one side has no port for it */
};

/* One side of a rail as the rules see it (rail_end plus what the model says about the port). */
struct pair_port {
	bool present;
	struct rail_end end;              /* device, port, the GID index gid --suggest picks, its address */
	char netdev[IF_NAMESIZE];
	unsigned prefix_len;              /* of the address; 0 unknown */
	bool prefix_known;
	int netdev_mtu;                   /* 0 unknown */
	int active_mtu;                   /* 0 unknown */
	double rate_gbps;                 /* 0 unknown */
	bool usable;                      /* NCCL would open it and it has a GID of the family */
	bool down;                        /* NCCL would not open it: port or netdev down (why says which) */
	bool soft;                        /* rxe or siw: the kernel is the NIC */
	char why[800];                    /* not usable: why (down, no address, no GID of the family) */
	/* Every RoCE v2 GID of the family on the port (gid --suggest's choice first): the rail takes the one in
	 * the other end's subnet, as gid --suggest --peer would. */
	size_t cand_count;
	struct pair_candidate {
		unsigned index;
		struct in6_addr gid;
		unsigned prefix_len;          /* 0 unknown */
	} cand[1 + GID_OTHER_CANDIDATES_MAX];
};

struct pair_rail {
	struct pair_port a, b;
	enum rail_link link;
	bool crossed;                     /* A's i-th port reaches B's j-th port, j != i (cables or addresses swapped) */
	char subnet[64];                  /* "192.168.88.0/24" when the same; "" otherwise */
};

struct pair_rails {
	struct pair_rail items[PAIR_RAILS_MAX];
	size_t count;
	bool one_subnet;                  /* two or more rails share one subnet (ARP flux applies) */
};

/* The probes of one check --peer run, in the order of the rails (rdma[i], bw[i] belong to rails.items[i]). */
struct pair_probes {
	bool rdma_run;
	struct rail_rdma_probe rdma[PAIR_RAILS_MAX];
	bool bw_run;                      /* false with --no-bw */
	struct rail_bw_probe bw[PAIR_RAILS_MAX];
	struct tcp_reach_probe reach[PAIR_REACH_MAX];
	size_t reach_count;
};

/* Pair findings: each belongs to a node ('a' or 'b': the one whose fix it carries) or to the pair (0). */
struct pair_findings {
	struct findings list;
	char node[FINDINGS_MAX];
};

/* Which port of a reaches which port of b (family AF_INET or AF_INET6): every Ethernet RDMA port NCCL would
 * select (NCCL_IB_HCA applied) on either side is on exactly one rail. 0 or -ENOMEM. */
int pair_rails_build(const struct pair_side *a, const struct pair_side *b, int family, struct pair_rails *out);

/* pair.rail, pair.mtu, pair.speed, pair.gid, pair.gid_index, pair.same_subnet: what the models alone say. */
void pair_rails_check(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
		      struct pair_findings *out);

/* pair.rdma, pair.bootstrap, pair.bw: each probe's outcome, a failure with what it usually means from both
 * sides' data and the exact fix on the node that needs it. master_port: torchrun's (29500 by default). */
void pair_classify(const struct pair_side *a, const struct pair_side *b, const struct pair_rails *rails,
		   const struct pair_probes *probes, unsigned master_port, struct pair_findings *out);

/* The link-rate share below which a NIC rail's bandwidth is a warning (NVIDIA's multi-node test passes at 90%). */
#define PAIR_BW_PASS_SHARE 0.90

/* Every id the pair rules can emit, NULL-terminated (roce-doctor-checks(7)'s PAIR lists them). */
extern const char *const pair_ids[];

/* A finding of node ('a', 'b', or 0 for the pair) through finding_add (--only/--skip apply). */
void pair_add(struct pair_findings *out, char node, const char *id, enum severity severity, const char *subject,
	      const char *fix, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/* The name a node goes by in messages: "b (node-b)", or "b". */
void pair_node_name(const struct pair_side *s, char *buf, size_t size);

#endif
