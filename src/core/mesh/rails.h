// SPDX-License-Identifier: GPL-2.0-only
/* A node's rails as mesh counts them: its RoCE ports (Ethernet link layer), rail i the i-th in the order of
 * device name, then port number, so two nodes built alike number their NICs alike. */
#ifndef ROCE_DOCTOR_MESH_RAILS_H
#define ROCE_DOCTOR_MESH_RAILS_H

#include <stddef.h>

#include "model/host.h"

struct mesh_rail {
	char device[64];
	unsigned port;
	char netdev[IF_NAMESIZE];   /* "" when the model names none */
	char address[64];           /* the netdev's first IPv4 address, else its first IPv6 one; "" none known */
	double link_gbps;           /* 0 unknown */
};

/* The host's rails into out (room for max), in rail order; returns how many (at most max). */
size_t mesh_rails_of_host(const struct host *host, struct mesh_rail *out, size_t max);

#endif
