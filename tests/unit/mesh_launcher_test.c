// SPDX-License-Identifier: GPL-2.0-only
/* mesh's launcher environment, each launcher from a hand-written envp: Slurm (with hostlist expansion), Open
 * MPI, PMI, torchrun and the options; the half-there environments, each one line naming the variables. */
#include <errno.h>
#include <string.h>

#include "core/mesh/hostlist.h"
#include "core/mesh/launcher.h"
#include "tap.h"

static const struct mesh_options none = { -1, -1, NULL };
static struct mesh_launch out;
static char why[400];

static int read_env(char *const *envp, const struct mesh_options *opt)
{
	int rc;

	why[0] = 0;
	notes_free(&out.warnings);
	rc = mesh_launch_read(envp, opt, &out, why, sizeof(why));
	if (rc != 0)
		printf("# %s\n", why);
	return rc;
}

/* The index-th host of list, or the error text. */
static const char *nth(const char *list, size_t index, size_t *count)
{
	static char host[HOSTLIST_HOST_MAX];
	char msg[160];

	if (hostlist_expand(list, 65536, index, host, sizeof(host), count, msg, sizeof(msg)) < 0)
		snprintf(host, sizeof(host), "error: %s", msg);
	return host;
}

static void hostlist_expands_ranges_lists_and_padding(void)
{
	size_t count;

	CHECK_STR(nth("node[01-04,07]", 0, &count), "node01");
	CHECK(count == 5);
	CHECK_STR(nth("node[01-04,07]", 3, &count), "node04");
	CHECK_STR(nth("node[01-04,07]", 4, &count), "node07");
	CHECK_STR(nth("a[1-2],b3", 2, &count), "b3");
	CHECK(count == 3);
	CHECK_STR(nth("a[1-2],b3", 1, &count), "a2");
	CHECK_STR(nth("n[8-10]", 2, &count), "n10");          /* no padding: the lower bound has none */
	CHECK_STR(nth("n[098-101]", 3, &count), "n101");      /* padding to the lower bound's width */
	CHECK_STR(nth("n[098-101]", 0, &count), "n098");
	CHECK_STR(nth("gpu-a100-7", 0, &count), "gpu-a100-7");
	CHECK(count == 1);
	CHECK_STR(nth("r[1-2]-n[01-03]", 4, &count), "r2-n02"); /* two ranges: the first outermost */
	CHECK(count == 6);
	CHECK_STR(nth("n[1-2]-ib", 1, &count), "n2-ib");        /* a suffix after the brackets */
	CHECK_STR(nth("x[5]", 0, &count), "x5");
}

static void hostlist_refuses_malformed_lists(void)
{
	size_t count;

	CHECK(strstr(nth("node[01-04", 0, &count), "without its ']'") != NULL);
	CHECK(strstr(nth("node01]", 0, &count), "without its '['") != NULL);
	CHECK(strstr(nth("n[4-2]", 0, &count), "backwards") != NULL);
	CHECK(strstr(nth("n[a-b]", 0, &count), "not NUMBER") != NULL);
	CHECK(strstr(nth("n[]", 0, &count), "empty brackets") != NULL);
	CHECK(strstr(nth("a,,b", 0, &count), "empty host name") != NULL);
	CHECK(strstr(nth("", 0, &count), "empty list") != NULL);
	CHECK(strstr(nth("n[0-999999999]", 0, &count), "more than 65536 hosts") != NULL);
}

static void slurm_rank_size_and_first_host(void)
{
	char *env[] = { "SLURM_PROCID=2", "SLURM_NTASKS=4", "SLURM_NNODES=4", "SLURM_NODELIST=node[01-03],gpu7",
			"PATH=/bin", NULL };

	CHECK(read_env(env, &none) == 0);
	CHECK(out.launcher == MESH_LAUNCHER_SLURM && out.rank == 2 && out.size == 4);
	CHECK_STR(out.rendezvous, "node01");
	CHECK_STR(out.rendezvous_from, "SLURM_NODELIST");
	CHECK_STR(out.host, "node03");
	CHECK_STR(mesh_launcher_name(out.launcher), "slurm");
}

static void slurm_half_there_and_several_tasks_per_node_refused(void)
{
	char *procid_only[] = { "SLURM_PROCID=0", "SLURM_NODELIST=n[1-2]", NULL };
	char *ntasks_only[] = { "SLURM_NTASKS=4", "SLURM_JOB_ID=7", NULL };
	char *per_node[] = { "SLURM_PROCID=0", "SLURM_NTASKS=16", "SLURM_NNODES=2", "SLURM_NODELIST=n[1-2]", NULL };
	char *short_list[] = { "SLURM_PROCID=0", "SLURM_NTASKS=4", "SLURM_NODELIST=n[1-2]", NULL };
	char *no_list[] = { "SLURM_PROCID=0", "SLURM_NTASKS=4", NULL };
	char *bad_list[] = { "SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_NODELIST=n[1-2", NULL };
	char *beyond[] = { "SLURM_PROCID=4", "SLURM_NTASKS=4", "SLURM_NODELIST=n[1-4]", NULL };
	char *alone[] = { "SLURM_PROCID=0", "SLURM_NTASKS=1", "SLURM_NODELIST=n1", NULL };
	char *word[] = { "SLURM_PROCID=zero", "SLURM_NTASKS=2", NULL };

	CHECK(read_env(procid_only, &none) == -EINVAL);
	CHECK(strstr(why, "SLURM_PROCID is set but not SLURM_NTASKS") != NULL);
	/* an allocation's shell: SLURM_NTASKS without SLURM_PROCID is not a launch at all */
	CHECK(read_env(ntasks_only, &none) == -EINVAL);
	CHECK(strstr(why, "SLURM_NTASKS is set but not SLURM_PROCID") != NULL);
	CHECK(read_env(per_node, &none) == -EINVAL);
	CHECK(strstr(why, "SLURM_NTASKS=16 ranks on SLURM_NNODES=2 nodes") != NULL);
	CHECK(read_env(short_list, &none) == -EINVAL);
	CHECK(strstr(why, "on the 2 hosts of SLURM_NODELIST 'n[1-2]'") != NULL);
	CHECK(read_env(no_list, &none) == -EINVAL);
	CHECK(strstr(why, "no SLURM_NODELIST") != NULL && strstr(why, "--rendezvous") != NULL);
	CHECK(read_env(bad_list, &none) == -EINVAL);
	CHECK(strstr(why, "bad SLURM_NODELIST 'n[1-2'") != NULL);
	CHECK(read_env(beyond, &none) == -EINVAL);
	CHECK(strstr(why, "SLURM_PROCID=4 is not below SLURM_NTASKS=4") != NULL);
	CHECK(read_env(alone, &none) == -EINVAL);
	CHECK(strstr(why, "SLURM_NTASKS=1: a mesh needs at least 2 nodes") != NULL);
	CHECK(read_env(word, &none) == -EINVAL);
	CHECK(strstr(why, "bad SLURM_PROCID 'zero'") != NULL);
}

static void openmpi_needs_a_rendezvous_unless_in_slurm(void)
{
	char *bare[] = { "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=3", "OMPI_COMM_WORLD_LOCAL_SIZE=1", NULL };
	char *in_slurm[] = { "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=3", "SLURM_NODELIST=c[7-9]",
			     "SLURM_NTASKS=1", NULL };
	char *packed[] = { "OMPI_COMM_WORLD_RANK=1", "OMPI_COMM_WORLD_SIZE=16", "OMPI_COMM_WORLD_LOCAL_SIZE=8", NULL };
	char *half[] = { "OMPI_COMM_WORLD_SIZE=3", NULL };
	struct mesh_options rv = { -1, -1, "head01" };

	CHECK(read_env(bare, &none) == -EINVAL);
	CHECK(strstr(why, "Open MPI's environment names no rank 0 host: give --rendezvous HOST") != NULL);
	CHECK(read_env(bare, &rv) == 0);
	CHECK(out.launcher == MESH_LAUNCHER_OPENMPI && out.rank == 1 && out.size == 3);
	CHECK_STR(out.rendezvous, "head01");
	CHECK_STR(out.rendezvous_from, "--rendezvous");
	/* mpirun inside an allocation: rank 0 on its first node; SLURM_NTASKS=1 (the batch step's) is noted */
	CHECK(read_env(in_slurm, &none) == 0);
	CHECK(out.launcher == MESH_LAUNCHER_OPENMPI);
	CHECK_STR(out.rendezvous, "c7");
	CHECK(out.warnings.count == 1 && strstr(out.warnings.items[0], "SLURM_NTASKS=1 is set too") != NULL);
	CHECK(read_env(packed, &rv) == -EINVAL);
	CHECK(strstr(why, "OMPI_COMM_WORLD_LOCAL_SIZE=8: 8 ranks on this node") != NULL);
	CHECK(strstr(why, "--map-by ppr:1:node") != NULL);
	CHECK(read_env(half, &rv) == -EINVAL);
	CHECK(strstr(why, "OMPI_COMM_WORLD_SIZE is set but not OMPI_COMM_WORLD_RANK") != NULL);
}

static void pmi_rank_and_size(void)
{
	char *env[] = { "PMI_RANK=0", "PMI_SIZE=2", "MPI_LOCALNRANKS=1", NULL };
	char *half[] = { "PMI_RANK=0", NULL };
	struct mesh_options rv = { -1, -1, "10.0.0.1" };

	CHECK(read_env(env, &rv) == 0);
	CHECK(out.launcher == MESH_LAUNCHER_PMI && out.rank == 0 && out.size == 2);
	CHECK_STR(mesh_launcher_name(out.launcher), "pmi");
	CHECK(read_env(env, &none) == -EINVAL);
	CHECK(strstr(why, "PMI's environment names no rank 0 host") != NULL);
	CHECK(read_env(half, &rv) == -EINVAL);
	CHECK(strstr(why, "PMI_RANK is set but not PMI_SIZE") != NULL);
}

static void torchrun_master_addr_is_the_rendezvous(void)
{
	char *env[] = { "RANK=3", "WORLD_SIZE=8", "LOCAL_WORLD_SIZE=1", "MASTER_ADDR=10.1.0.5", "MASTER_PORT=29500",
			"SLURM_PROCID=3", "SLURM_NTASKS=8", "SLURM_NODELIST=n[1-8]", NULL };
	char *no_master[] = { "RANK=0", "WORLD_SIZE=2", NULL };
	char *half[] = { "RANK=0", "MASTER_ADDR=h", NULL };
	char *per_gpu[] = { "RANK=0", "WORLD_SIZE=16", "LOCAL_WORLD_SIZE=8", "MASTER_ADDR=h", NULL };

	/* torchrun under srun: torchrun's ranks win, and the two agree, so nothing is noted */
	CHECK(read_env(env, &none) == 0);
	CHECK(out.launcher == MESH_LAUNCHER_TORCHRUN && out.rank == 3 && out.size == 8);
	CHECK_STR(out.rendezvous, "10.1.0.5");
	CHECK_STR(out.rendezvous_from, "MASTER_ADDR");
	CHECK(out.warnings.count == 0);
	CHECK(read_env(no_master, &none) == -EINVAL);
	CHECK(strstr(why, "RANK and WORLD_SIZE are set but not MASTER_ADDR") != NULL);
	CHECK(read_env(half, &none) == -EINVAL);
	CHECK(strstr(why, "RANK is set but not WORLD_SIZE") != NULL);
	CHECK(read_env(per_gpu, &none) == -EINVAL);
	CHECK(strstr(why, "LOCAL_WORLD_SIZE=8") != NULL && strstr(why, "--nproc-per-node=1") != NULL);
}

static void options_need_rank_size_and_rendezvous(void)
{
	char *empty[] = { NULL };
	char *slurm[] = { "SLURM_PROCID=0", "SLURM_NTASKS=2", "SLURM_NODELIST=n[1-2]", NULL };
	struct mesh_options all = { 5, 6, "n1" }, no_size = { 5, -1, "n1" }, no_rv = { 0, 2, NULL },
			    beyond = { 6, 6, "n1" };

	CHECK(read_env(empty, &all) == 0);
	CHECK(out.launcher == MESH_LAUNCHER_OPTIONS && out.rank == 5 && out.size == 6);
	CHECK_STR(out.rendezvous, "n1");
	CHECK(read_env(slurm, &all) == 0);   /* the options over the launcher */
	CHECK(out.launcher == MESH_LAUNCHER_OPTIONS && out.size == 6);
	CHECK(read_env(empty, &no_size) == -EINVAL);
	CHECK(strstr(why, "--rank without --size") != NULL);
	CHECK(read_env(empty, &no_rv) == -EINVAL);
	CHECK(strstr(why, "--rank/--size names no rank 0 host") != NULL);
	CHECK(read_env(empty, &beyond) == -EINVAL);
	CHECK(strstr(why, "--rank=6 is not below --size=6") != NULL);
}

static void no_launcher_at_all(void)
{
	char *empty[] = { "HOME=/root", NULL };
	char *alloc[] = { "SLURM_JOB_ID=42", NULL };

	CHECK(read_env(empty, &none) == -ENOENT);
	CHECK(strstr(why, "no launcher's environment") != NULL);
	CHECK(read_env(alloc, &none) == -ENOENT);
	CHECK(strstr(why, "srun --ntasks-per-node=1 roce-doctor mesh") != NULL);
}

int main(void)
{
	RUN(hostlist_expands_ranges_lists_and_padding);
	RUN(hostlist_refuses_malformed_lists);
	RUN(slurm_rank_size_and_first_host);
	RUN(slurm_half_there_and_several_tasks_per_node_refused);
	RUN(openmpi_needs_a_rendezvous_unless_in_slurm);
	RUN(pmi_rank_and_size);
	RUN(torchrun_master_addr_is_the_rendezvous);
	RUN(options_need_rank_size_and_rendezvous);
	RUN(no_launcher_at_all);
	notes_free(&out.warnings);
	TAP_DONE();
}
