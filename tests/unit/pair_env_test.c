// SPDX-License-Identifier: GPL-2.0-only
/* nccl-env --peer's decision on hand-built pairs: a common GID index when both nodes agree, otherwise no pin
 * (NCCL >= 2.21's variables) and each node's own; NCCL_IB_HCA shared only where it selects nothing a node must
 * leave out; the launch lines. */
#include <errno.h>
#include <stdlib.h>

#include "core/pair_env.h"
#include "pair_world.h"
#include "tap.h"

static struct world_node a, b;
static struct pair_rails rails;
static struct pair_env env;
static const char *const addrs[2] = { "192.168.88.1", "192.168.88.2" };

/* NAME's value among VARS, NULL when it is not there (CHECK_STR reports a NULL as a failure, where a
 * dereference would crash the test; gcc -O3 also refuses, with -Werror, to read through the NULL). */
static const char *value(const struct nccl_var *vars, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(vars[i].name, name) == 0)
			return vars[i].value;
	return NULL;
}

static int build(void)
{
	char why[256];

	CHECK(pair_rails_build(&a.side, &b.side, AF_INET, &rails) == 0);
	return pair_env_build(&a.side, &b.side, &rails, addrs, 29500, &env, why, sizeof(why));
}

static void agreeing_pair_gets_one_pinned_index_and_launch_lines(void)
{
	world_pair(&a, &b);
	CHECK(build() == 0);
	CHECK_STR(value(env.vars, env.count, "NCCL_IB_GID_INDEX"), "5");
	CHECK_STR(value(env.vars, env.count, "NCCL_IB_HCA"), "=mlx5_0:1,mlx5_1:1");
	CHECK_STR(value(env.vars, env.count, "NCCL_SOCKET_IFNAME"), "=ens19f0np0");
	CHECK(!env.unset_gid_index && env.own_count[0] == 0 && env.own_count[1] == 0);
	CHECK(strstr(env.torchrun[1], "--node-rank=1 --master-addr=192.168.88.1 --master-port=29500"));
	CHECK(strstr(env.mpirun, "-H 192.168.88.1:1,192.168.88.2:1") && strstr(env.mpirun, "-x NCCL_IB_GID_INDEX=5"));
}

static void differing_indexes_leave_it_unset_and_give_each_nodes_own(void)
{
	world_pair(&a, &b);
	world_address_first(&b, 0, "10.9.9.2", 24);
	world_address_first(&b, 1, "10.9.8.2", 24);
	CHECK(build() == 0);
	CHECK(!value(env.vars, env.count, "NCCL_IB_GID_INDEX") && env.unset_gid_index);
	CHECK_STR(value(env.vars, env.count, "NCCL_IB_ADDR_FAMILY"), "AF_INET");
	CHECK_STR(value(env.own[0], env.own_count[0], "NCCL_IB_GID_INDEX"), "5");
	CHECK_STR(value(env.own[1], env.own_count[1], "NCCL_IB_GID_INDEX"), "7");
	CHECK(!strstr(env.mpirun, "GID_INDEX"));
	/* one node whose own rails disagree: no per-node value either */
	world_pair(&a, &b);
	world_address_first(&b, 1, "10.9.8.2", 24);
	CHECK(build() == 0);
	CHECK(env.own_count[1] == 0 && env.note_count == 1 && strstr(env.notes[0], "b's rails use different indexes"));
}

static void hca_list_is_not_shared_when_it_would_select_a_port_left_out(void)
{
	world_pair(&a, &b);
	b.port[1].state = 1;       /* b's mlx5_1 down: the rail is out, and a's list must not name mlx5_1 for b */
	b.nd[1].carrier = 0;
	CHECK(build() == 0);
	CHECK_STR(value(env.vars, env.count, "NCCL_IB_HCA"), "=mlx5_0:1");
	/* no rail on both: no environment */
	world_pair(&a, &b);
	b.port[0].state = b.port[1].state = 1;
	CHECK(build() == -ENODEV);
}

int main(void)
{
	RUN(agreeing_pair_gets_one_pinned_index_and_launch_lines);
	RUN(differing_indexes_leave_it_unset_and_give_each_nodes_own);
	RUN(hca_list_is_not_shared_when_it_would_select_a_port_left_out);
	TAP_DONE();
}
