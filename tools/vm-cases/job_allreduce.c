// SPDX-License-Identifier: GPL-2.0-only
// A training job's shape, reduced to its collective: every rank allreduces a 4 KiB gradient once per step
// and prints the step, as a training script logs it. 4 KiB is above a 1500-byte frame and under the openib
// BTL's eager limit, so each step sends a 4 KiB RoCE packet each way (what job_mpi_rail.case breaks on B).
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	enum { N = 512 };
	static double grad[N], sum[N];
	int rank, size, step, steps = argc > 1 ? atoi(argv[1]) : 60;
	char host[MPI_MAX_PROCESSOR_NAME];
	int len;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &rank);
	MPI_Comm_size(MPI_COMM_WORLD, &size);
	MPI_Get_processor_name(host, &len);
	printf("rank %d of %d on %s: start\n", rank, size, host);
	fflush(stdout);
	for (step = 1; step <= steps; step++) {
		for (int i = 0; i < N; i++)
			grad[i] = rank + step + i;
		MPI_Allreduce(grad, sum, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
		printf("rank %d step %d: allreduce ok, sum[0] = %.0f\n", rank, step, sum[0]);
		fflush(stdout);
		usleep(500000);
	}
	MPI_Finalize();
	return 0;
}
