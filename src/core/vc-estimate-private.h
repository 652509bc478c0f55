/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-estimate-private.h: what only the tests and the benchmarks use of VcEstimate: running a
 * recomputation that is waiting now, instead of from the main loop. */
#pragma once

#include "vc-estimate.h"

G_BEGIN_DECLS

void vc_estimate_flush (VcEstimate *self);

G_END_DECLS
