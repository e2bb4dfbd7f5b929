// SPDX-License-Identifier: GPL-2.0-only
/* The launcher's environment read into rank, size and rank 0's host. Each launcher is a row: the variables
 * that give the rank, the size and the ranks on this node, and how to ask it for one rank per node. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/mesh/launcher.h"
#include "util/env_list.h"
#include "core/mesh/plan.h"

struct source {
	enum mesh_launcher id;
	const char *rank, *size;
	const char *local;         /* ranks on this node, when the launcher says; more than one is refused */
	const char *one_per_node;  /* the launcher's way to start one rank per node */
};

/* Innermost first: torchrun under srun, or mpirun inside an allocation, leaves the outer one's variables too. */
static const struct source sources[] = {
	{ MESH_LAUNCHER_TORCHRUN, "RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "torchrun --nproc-per-node=1" },
	{ MESH_LAUNCHER_OPENMPI, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE", "OMPI_COMM_WORLD_LOCAL_SIZE",
	  "mpirun --map-by ppr:1:node" },
	{ MESH_LAUNCHER_PMI, "PMI_RANK", "PMI_SIZE", "MPI_LOCALNRANKS", "mpiexec -ppn 1" },
	{ MESH_LAUNCHER_SLURM, "SLURM_PROCID", "SLURM_NTASKS", NULL, "srun --ntasks-per-node=1" },
};

static const char *const launcher_names[] = { "options", "torchrun", "openmpi", "pmi", "slurm" };

const char *mesh_launcher_name(enum mesh_launcher l)
{
	return (unsigned)l < sizeof(launcher_names) / sizeof(launcher_names[0]) ? launcher_names[l] : "?";
}

/* A whole number of at most 9 digits (ranks and sizes), or false. */
static bool whole(const char *s, unsigned long *v)
{
	char *end;

	if (!s || s[0] < '0' || s[0] > '9' || strlen(s) > 9)
		return false;
	*v = strtoul(s, &end, 10);
	return *end == 0;
}

static int refuse(char *why, size_t why_size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refuse(char *why, size_t why_size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, why_size, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* The rank and size a source gives, checked against each other. rank_name and size_name for messages. */
static int rank_and_size(unsigned long rank, unsigned long size, const char *rank_name, const char *rank_text,
			 const char *size_name, const char *size_text, struct mesh_launch *out, char *why,
			 size_t why_size)
{
	if (size < 2)
		return refuse(why, why_size, "%s=%s: a mesh needs at least 2 nodes", size_name, size_text);
	if (size > MESH_NODES_MAX)
		return refuse(why, why_size, "%s=%s: at most %d nodes", size_name, size_text, MESH_NODES_MAX);
	if (rank >= size)
		return refuse(why, why_size, "%s=%s is not below %s=%s: ranks run from 0 to size - 1", rank_name,
			      rank_text, size_name, size_text);
	out->rank = (unsigned)rank;
	out->size = (unsigned)size;
	return 0;
}

static int from_options(const struct mesh_options *opt, struct mesh_launch *out, char *why, size_t why_size)
{
	char rank_text[24], size_text[24];

	if (opt->rank < 0 || opt->size < 0)
		return refuse(why, why_size, "%s without %s: give both (and --rendezvous HOST, rank 0's host)",
			      opt->rank < 0 ? "--size" : "--rank", opt->rank < 0 ? "--rank" : "--size");
	snprintf(rank_text, sizeof(rank_text), "%ld", opt->rank);
	snprintf(size_text, sizeof(size_text), "%ld", opt->size);
	out->launcher = MESH_LAUNCHER_OPTIONS;
	return rank_and_size((unsigned long)opt->rank, (unsigned long)opt->size, "--rank", rank_text, "--size",
			     size_text, out, why, why_size);
}

/* SLURM_NODELIST: rank 0's host (the first: one task per node, block distribution) and this rank's; the
 * list must have a host for every task. */
static int slurm_hosts(char *const *envp, const char *size_name, struct mesh_launch *out, char *why, size_t why_size)
{
	const char *name = "SLURM_NODELIST", *list = env_list_get(envp, name), *nodes_name = "SLURM_STEP_NUM_NODES";
	const char *nodes_text = env_list_get(envp, nodes_name);
	char msg[160];
	unsigned long nodes;
	size_t count;

	if (!nodes_text)
		nodes_text = env_list_get(envp, nodes_name = "SLURM_NNODES");
	if (nodes_text && whole(nodes_text, &nodes) && nodes < out->size)
		return refuse(why, why_size, "%s=%u ranks on %s=%s nodes: mesh runs one rank per node "
			      "(srun --ntasks-per-node=1)", size_name, out->size, nodes_name, nodes_text);
	if (!list)
		list = env_list_get(envp, name = "SLURM_JOB_NODELIST");
	if (!list)
		return 1;   /* no list: the caller decides */
	if (hostlist_expand(list, MESH_NODES_MAX, out->rank, out->host, sizeof(out->host), &count, msg,
			    sizeof(msg)) < 0)
		return refuse(why, why_size, "bad %s '%.200s': %s", name, list, msg);
	if (count < out->size)
		return refuse(why, why_size, "%s=%u ranks on the %zu hosts of %s '%.200s': mesh runs one rank per node "
			      "(srun --ntasks-per-node=1)", size_name, out->size, count, name, list);
	hostlist_expand(list, MESH_NODES_MAX, 0, out->rendezvous, sizeof(out->rendezvous), &count, msg, sizeof(msg));
	out->rendezvous_from = name;
	return 0;
}

/* Another launcher's variables that tell a different size: an outer one, named so a surprise is visible. */
static void note_outer(char *const *envp, const struct source *chosen, struct mesh_launch *out)
{
	for (size_t i = 0; i < sizeof(sources) / sizeof(sources[0]); i++) {
		const char *size = env_list_get(envp, sources[i].size);
		unsigned long v;

		if (&sources[i] == chosen || !size || (whole(size, &v) && v == out->size))
			continue;
		notes_add(&out->warnings, "%s=%s is set too (an outer launcher's): the ranks are %s's, %u of them",
			  sources[i].size, size, mesh_launcher_name(out->launcher), out->size);
	}
}

static int from_source(char *const *envp, const struct source *s, struct mesh_launch *out, char *why,
		       size_t why_size)
{
	const char *rank = env_list_get(envp, s->rank), *size = env_list_get(envp, s->size);
	const char *local = s->local ? env_list_get(envp, s->local) : NULL;
	unsigned long r, n, l;
	int rc;

	out->launcher = s->id;
	if (!rank || !size)
		return refuse(why, why_size, "%s is set but not %s: the launcher's environment is half there (start "
			      "mesh through the launcher itself, or give --rank, --size and --rendezvous)",
			      rank ? s->rank : s->size, rank ? s->size : s->rank);
	if (!whole(rank, &r))
		return refuse(why, why_size, "bad %s '%.60s': expected a whole number", s->rank, rank);
	if (!whole(size, &n))
		return refuse(why, why_size, "bad %s '%.60s': expected a whole number", s->size, size);
	rc = rank_and_size(r, n, s->rank, rank, s->size, size, out, why, why_size);
	if (rc < 0)
		return rc;
	if (local && whole(local, &l) && l > 1)
		return refuse(why, why_size, "%s=%s: %lu ranks on this node; mesh runs one rank per node (%s)", s->local,
			      local, l, s->one_per_node);
	return 0;
}

int mesh_launch_read(char *const *envp, const struct mesh_options *opt, struct mesh_launch *out, char *why,
		     size_t why_size)
{
	const struct source *s = NULL;
	int rc;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; !s && i < sizeof(sources) / sizeof(sources[0]); i++)
		if (env_list_get(envp, sources[i].rank) || env_list_get(envp, sources[i].size))
			s = &sources[i];
	if (opt->rank >= 0 || opt->size >= 0)
		rc = from_options(opt, out, why, why_size);
	else if (s)
		rc = from_source(envp, s, out, why, why_size);
	else {
		snprintf(why, why_size, "no launcher's environment: none of SLURM_PROCID, OMPI_COMM_WORLD_RANK, PMI_RANK "
			 "and RANK is set%s; start mesh once per node with srun, mpirun or torchrun, or give --rank, "
			 "--size and --rendezvous", env_list_get(envp, "SLURM_JOB_ID") ? " (this is a Slurm allocation's "
			 "shell: run it as srun --ntasks-per-node=1 roce-doctor mesh)" : "");
		return -ENOENT;
	}
	if (rc < 0)
		return rc;
	if (out->launcher == MESH_LAUNCHER_SLURM) {
		rc = slurm_hosts(envp, "SLURM_NTASKS", out, why, why_size);
		if (rc < 0)
			return rc;
	}
	if (opt->rendezvous) {
		if (!opt->rendezvous[0] || strlen(opt->rendezvous) >= sizeof(out->rendezvous))
			return refuse(why, why_size, "bad --rendezvous '%.60s': expected rank 0's host name or address",
				      opt->rendezvous);
		snprintf(out->rendezvous, sizeof(out->rendezvous), "%s", opt->rendezvous);
		out->rendezvous_from = "--rendezvous";
	} else if (out->launcher == MESH_LAUNCHER_TORCHRUN) {
		const char *addr = env_list_get(envp, "MASTER_ADDR");

		if (!addr || !addr[0] || strlen(addr) >= sizeof(out->rendezvous))
			return refuse(why, why_size, "RANK and WORLD_SIZE are set but %s MASTER_ADDR: rank 0's host is "
				      "unknown (torchrun sets it; or give --rendezvous HOST)", addr ? "a bad" : "not");
		snprintf(out->rendezvous, sizeof(out->rendezvous), "%s", addr);
		out->rendezvous_from = "MASTER_ADDR";
	} else if (!out->rendezvous_from) {
		/* MPI names no rank 0 host; inside a Slurm allocation rank 0 sits on its first node. */
		rc = out->launcher == MESH_LAUNCHER_OPTIONS ? 1 : slurm_hosts(envp, s->size, out, why, why_size);
		if (rc < 0)
			return rc;
		if (rc > 0)
			return refuse(why, why_size, "%s names no rank 0 host: give --rendezvous HOST (the host rank 0 "
				      "runs on)", out->launcher == MESH_LAUNCHER_OPTIONS ? "--rank/--size" :
				      out->launcher == MESH_LAUNCHER_SLURM ? "Slurm's environment (no SLURM_NODELIST)" :
				      out->launcher == MESH_LAUNCHER_OPENMPI ? "Open MPI's environment" :
				      "PMI's environment");
	}
	if (s && out->launcher != MESH_LAUNCHER_OPTIONS)
		note_outer(envp, s, out);
	return 0;
}
