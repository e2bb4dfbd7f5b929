// SPDX-License-Identifier: GPL-2.0-only
/* Who and what a snapshot was taken of: host name, time, versions, and per RDMA device its firmware and board.
 * Types only: probe/identity.c fills them, model/identity_json.c carries them. Empty text is "unknown". */
#ifndef ROCE_DOCTOR_MODEL_IDENTITY_H
#define ROCE_DOCTOR_MODEL_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/host.h"

#define IDENTITY_PROVIDERS_MAX 64   /* rdma-core ships about 20 providers */
#define IDENTITY_PATH_MAX 512       /* a library's file name under /usr/lib */

struct identity_device {
	char device[64];             /* the RDMA device name, as in the host model */
	char fw_ver[64];
	char board_id[64];           /* sysfs board_id: the part (MT_0000000222) */
	char hca_type[64];           /* sysfs hca_type (MT4125); virtual devices have none */
	char driver[32];
	char pci_address[32];
};

struct identity_provider {
	char name[64];               /* "mlx5" from libmlx5-rdmav34.so */
	char file[IDENTITY_PATH_MAX];
};

struct identity {
	char hostname[256];
	char time[32];                       /* UTC, "2026-11-24T19:30:01Z" */
	char version[64];                    /* roce-doctor's own */
	char kernel_release[128];            /* uname -r */
	char libibverbs_file[IDENTITY_PATH_MAX];   /* the loaded library's real file */
	char rdma_core_version[32];          /* "44.0", from that file's name */
	bool providers_known;                /* the provider directory was listed (live only) */
	struct identity_provider providers[IDENTITY_PROVIDERS_MAX];
	size_t provider_count;
	struct identity_device devices[HOST_DEVICES_MAX];
	size_t device_count;
};

#endif
