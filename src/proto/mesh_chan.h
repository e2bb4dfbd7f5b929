// SPDX-License-Identifier: GPL-2.0-only
/* mesh's control messages over a TCP socket (one per node, to rank 0), every wait bounded by a deadline. */
#ifndef ROCE_DOCTOR_MESH_CHAN_H
#define ROCE_DOCTOR_MESH_CHAN_H

#include "core/mesh/message.h"

/* One message within timeout_ms. 0, -ETIMEDOUT, -EPIPE (the peer is gone), -EINVAL (not encodable). */
int mesh_chan_send(int fd, const struct mesh_msg *m, int timeout_ms);

/* One message within timeout_ms. 0; -ETIMEDOUT; -ECONNRESET (closed, also mid-frame); -EPROTO / -EMSGSIZE for
 * a frame that is not one or does not decode. why says which. */
int mesh_chan_recv(int fd, struct mesh_msg *m, int timeout_ms, char *why, size_t why_size);

#endif
