/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "vc-estimator.h"

G_BEGIN_DECLS

/* torchtitan's sequence divisor under context parallelism: the sequence is cut into 2 × CP
 * chunks (FORMULAS.md, "Context parallelism") */
#define VC_CP_CHUNKS_PER_RANK 2

guint    vc_training_cp                (const VcInputs *inputs);
double   vc_training_rank_tokens       (const VcInputs *inputs);
gboolean vc_training_rules_check       (const VcInputs *inputs,
                                        GError        **error);
double   vc_training_ring_bytes        (const VcInputs *inputs,
                                        double          q_dim,
                                        double          kv_dim,
                                        double          e);
double   vc_training_packing_bytes     (const VcInputs *inputs);
guint    vc_training_checkpointed_among (const VcInputs *inputs,
                                         guint           n_layers);
gboolean vc_training_layer_checkpointed (const VcInputs *inputs,
                                         guint           layer);
guint    vc_training_selective_tensors (const VcInputs *inputs,
                                        double          hidden,
                                        double          q_dim,
                                        double          kv_dim,
                                        double          inter,
                                        double          e,
                                        double         *out);

G_END_DECLS
