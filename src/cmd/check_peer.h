// SPDX-License-Identifier: GPL-2.0-only
/* check --peer: this node (a) and a peer (b) judged together: both nodes' own findings, the compare findings of
 * their two snapshots, the rails between them and the traffic probes, as one roce-doctor/pair/v1 report. */
#ifndef ROCE_DOCTOR_CMD_CHECK_PEER_H
#define ROCE_DOCTOR_CMD_CHECK_PEER_H

#include <stdbool.h>

#include "cmd/common.h"
#include "cmd/compare_node.h"
#include "cmd/peer_source.h"
#include "core/pair.h"
#include "output/terminal.h"

struct check_peer_args {
	const char *peer;                 /* --peer ADDR */
	unsigned master_port;             /* --master-port, PAIR_MASTER_PORT_DEFAULT when not given */
	bool no_bw;                       /* --no-bw */
	const char *fixture;              /* --peer-fixture DIR (tests): the peer from files, no serve */
	const char *const *only, *const *skip;   /* check's --only/--skip, applied to both nodes' own findings */
	enum colour_when colour;          /* check's --color: the text's colour and width */
};

/* Both nodes' models, from this node (live, --root or --from) and the source. Exit code as check's. */
int check_peer_run(const struct app *app, const struct check_peer_args *args);

/* The two snapshots a peer command works from, with everything the rules need derived from them. */
struct peer_pair {
	struct snapshot *snap[2];                 /* a, b: identity and system sources (hosts moved to own) */
	struct compare_owned own[2];              /* the hosts, and what compare reads */
	struct compare_node nodes[2];
	struct check_input in[2];
	struct nccl_if_list hca[2];
	struct pair_side side[2];
	struct peer_source src;
	bool src_open;
};

/* Opens the source (the fixture, or says that this build has no serve client), reads a's snapshot (--from, or
 * taken here) and b's from the source, and derives the check inputs. EXIT_OK, or an exit code after one line on
 * stderr (*p is then freed). */
int peer_pair_open(const struct app *app, const char *peer, const char *fixture, struct peer_pair *p);
void peer_pair_close(struct peer_pair *p);

/* The address NCCL's bootstrap uses on side: NCCL_SOCKET_IFNAME's netdev's first address of the family, else
 * the first usable rail end's; "" when neither is known. */
void peer_bootstrap_address(const struct peer_pair *p, int side, const struct pair_rails *rails, char *buf,
			    size_t size);

#endif
