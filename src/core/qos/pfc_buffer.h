// SPDX-License-Identifier: GPL-2.0-only
/* qos.pfc_buffer: the receive buffer a PFC-enabled priority lands in (dcbnl's, mlnx_qos's or MLNX_OFED's
 * qos/prio2buffer map) has bytes and an xoff threshold (qos/buffer_size), so the port pauses its sender before the
 * buffer overflows. Pure, over one port of the lossless chain's model. */
#ifndef ROCE_DOCTOR_CORE_QOS_PFC_BUFFER_H
#define ROCE_DOCTOR_CORE_QOS_PFC_BUFFER_H

#include "core/findings.h"
#include "model/qos.h"

/* Nothing unless the port's PFC set, its priority->buffer map and its buffers' sizes are all known. */
void qos_check_pfc_buffer(const struct qos_port *p, struct findings *out);

#endif
