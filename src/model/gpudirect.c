// SPDX-License-Identifier: GPL-2.0-only
/* Questions about the GPUDirect facts that the rules ask: pure functions of the model. */
#include "model/gpudirect.h"

#include <errno.h>

bool dmabuf_nic_supported(const struct dmabuf_nic *n)
{
	return n->step == DMABUF_STEP_REG && n->err != EOPNOTSUPP && n->err != EPROTONOSUPPORT;
}
