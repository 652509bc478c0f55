/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine-comm.h: what the serving engines' tensor-parallel communication keeps on each GPU
 * beside the model: vLLM's and SGLang's custom all-reduce buffers, and where each engine counts
 * them against its KV cache (FORMULAS.md, "Tensor parallelism and memory outside torch"). Free
 * of GObject and of allocation.
 */
#pragma once

#include <glib.h>

#include "vc-estimator.h"

G_BEGIN_DECLS

/* Whether vLLM's or SGLang's custom all-reduce is set up on a tensor-parallel group of `tp`
 * GPUs: not turned off (--disable-custom-all-reduce), and a group size it supports */
gboolean vc_engine_custom_ar_enabled (const VcInputs *inputs,
                                      double          tp);
/* Its buffers on each GPU, in bytes (0 where it is not set up) */
double   vc_engine_custom_ar_bytes   (const VcInputs *inputs,
                                      double          tp);
/* What of the communication's memory the engine measures before it sizes its pool, and so
 * takes from the memory its share applies to: SGLang's custom all-reduce (0 for vLLM, whose
 * releases followed here allocate it before their memory snapshot, outside the request) */
double   vc_engine_comm_pool_bytes   (const VcInputs *inputs,
                                      double          tp);
/* NCCL's buffers on each GPU are not counted (FORMULAS.md, "Tensor parallelism and memory
 * outside torch"): at TP × PP > 1 with vLLM or SGLang, the most they take on one GPU of a group
 * on one machine, from NCCL's limits (64 channels, the per-protocol buffers of each connection,
 * NVLS where vLLM leaves it on), in bytes; 0 where there is no NCCL group */
double   vc_engine_nccl_bound_bytes  (const VcInputs *inputs,
                                      double          tp,
                                      double          pp);
/* "NCCL's buffers are not counted: up to 8 GiB less KV cache per GPU (…)", or NULL where
 * vc_engine_nccl_bound_bytes() is 0 */
char    *vc_engine_nccl_uncounted_text (const VcInputs *inputs,
                                        double          tp,
                                        double          pp);
/* A clause for the formula text of the overhead at `tp` GPUs (empty where nothing applies) */
char    *vc_engine_comm_describe     (const VcInputs *inputs,
                                      double          tp);

G_END_DECLS
