// SPDX-License-Identifier: GPL-2.0-only
/* Which launcher started this mesh process, and the rank, size and rendezvous (rank 0's host) it gives: read
 * from an environment array handed in (envp), so the reading is a pure function. */
#ifndef ROCE_DOCTOR_MESH_LAUNCHER_H
#define ROCE_DOCTOR_MESH_LAUNCHER_H

#include <stddef.h>

#include "core/mesh/hostlist.h"
#include "util/notes.h"

enum mesh_launcher {
	MESH_LAUNCHER_OPTIONS,    /* --rank, --size (pdsh, or anything that gives no environment) */
	MESH_LAUNCHER_TORCHRUN,   /* RANK, WORLD_SIZE, MASTER_ADDR */
	MESH_LAUNCHER_OPENMPI,    /* OMPI_COMM_WORLD_RANK, OMPI_COMM_WORLD_SIZE */
	MESH_LAUNCHER_PMI,        /* PMI_RANK, PMI_SIZE: MPICH's Hydra, Intel MPI */
	MESH_LAUNCHER_SLURM,      /* SLURM_PROCID, SLURM_NTASKS, SLURM_NODELIST */
};

/* What the command line said; rank and size -1 when not given. */
struct mesh_options {
	long rank, size;
	const char *rendezvous;
};

struct mesh_launch {
	enum mesh_launcher launcher;
	unsigned rank, size;
	char rendezvous[HOSTLIST_HOST_MAX];
	const char *rendezvous_from;   /* "MASTER_ADDR", "SLURM_NODELIST" or "--rendezvous" */
	char host[HOSTLIST_HOST_MAX];  /* this rank's host in SLURM_NODELIST; "" when the launcher names none */
	struct notes warnings;         /* another launcher's variables that disagree, and the like */
};

/* "options", "torchrun", "openmpi", "pmi", "slurm" */
const char *mesh_launcher_name(enum mesh_launcher l);

/* Reads envp (NULL-terminated "NAME=value") and the options into *out. The innermost launcher wins where
 * several left variables (torchrun in srun, mpirun in an allocation): torchrun, then Open MPI, PMI, Slurm;
 * --rank/--size over all, --rendezvous over what the launcher names. 0; -ENOENT when no launcher is there;
 * -EINVAL for one that is half there (a rank without its size, rank >= size, a size under 2, several ranks
 * per node, no rank 0 address). why[] names the variables and what to do. Free out->warnings with
 * notes_free. */
int mesh_launch_read(char *const *envp, const struct mesh_options *opt, struct mesh_launch *out, char *why,
		     size_t why_size);

#endif
