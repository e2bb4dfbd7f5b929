// SPDX-License-Identifier: GPL-2.0-only
/* The text `mlnx_qos -i IF` prints (MLNX_OFED and mstflint's mlnx-tools), read back into the lossless chain's
 * model: a host nobody can log in to is judged from its paste, and a --root capture carries it. */
#ifndef ROCE_DOCTOR_MODEL_QOS_MLNX_TEXT_H
#define ROCE_DOCTOR_MODEL_QOS_MLNX_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/qos.h"

/* Line-at-a-time reader: feed every line (without its newline), then finish. */
struct mlnx_qos_reader {
	struct qos_dcb dcb;
	int tc;                 /* the "tc: N" block the next "priority:" line belongs to; -1 none */
	bool any;               /* a line of mlnx_qos's was recognised */
	bool pfc_header;        /* inside "PFC configuration:" */
};

void mlnx_qos_begin(struct mlnx_qos_reader *r);
/* Whether the line was one of mlnx_qos's (so a mixed paste can tell which lines it used). */
bool mlnx_qos_line(struct mlnx_qos_reader *r, const char *line);
/* The model read, known when trust and PFC were both seen; false when the text was not mlnx_qos's. */
bool mlnx_qos_finish(struct mlnx_qos_reader *r, struct qos_dcb *out);

#endif
