/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine-state.h: the pools serving engines keep for a model's per-request state beside its
 * KV cache: vLLM's hybrid KV-cache spec for linear-attention and state-space (Mamba) layers, its
 * attention block raised until a page holds a layer's state (FORMULAS.md, "Engines"). Free of
 * GObject and of allocation.
 */
#pragma once

#include <glib.h>

#include "vc-engine.h"
#include "vc-estimator.h"

G_BEGIN_DECLS

/* vLLM's KV-cache spec of a model with recurrent layers, on one GPU or one TP rank */
typedef struct
{
  gboolean known;
  double attention_layers;         /* layers with a KV cache (FullAttentionSpec) */
  double state_layers;             /* layers with a recurrent state (MambaSpec) */
  double state_page_bytes;         /* one state layer's state of one request, unpadded */
  double attention_token_bytes;    /* one attention layer's bytes of one token */
  guint block_size;                /* the attention block, raised to hold a state page */
  double page_bytes;               /* the one page size of every layer (the state's padded) */
  double group_size;               /* layers of each KV-cache group */
  double attention_groups;
  double state_groups;
} VcVllmStateSpec;

/* Whether vLLM's pools of the inputs' model are followed at `tp` × `pp` GPUs: TRUE where the
 * model has no recurrent state, or where vc_engine_state_vllm_spec() sizes it (one pipeline
 * stage; under TP, heads and groups each a multiple of tp, or Mamba-2's one group repeated on
 * every rank in unquantized weights) */
gboolean vc_engine_state_vllm_followed (const VcInputs *inputs,
                                        double          tp,
                                        double          pp);
/* The spec on one rank of `tp`, from `kv_bytes_per_token`: the KV bytes of one token in every
 * attention layer on that rank */
gboolean vc_engine_state_vllm_spec     (const VcInputs  *inputs,
                                        double           tp,
                                        double           kv_bytes_per_token,
                                        VcVllmStateSpec *spec);
/* The tokens vLLM logs ("GPU KV cache size") and the requests of inputs->seq tokens it holds
 * ("Maximum concurrency") in `available` bytes */
void     vc_engine_state_vllm_capacity (const VcInputs         *inputs,
                                        const VcVllmStateSpec  *spec,
                                        double                  available,
                                        double                 *tokens,
                                        double                 *max_concurrency);

/* The same over `pp` pipeline stages of `layers` layers each (every layer holding attention and
 * the mixer), the stages' `available` bytes: the fewest blocks of any stage's */
void     vc_engine_state_vllm_stages   (const VcInputs         *inputs,
                                        const VcVllmStateSpec  *spec,
                                        guint                   pp,
                                        const double           *attention,
                                        const double           *mixers,
                                        const double           *available,
                                        double                 *tokens,
                                        double                 *max_concurrency);

/* vc_engine_at_layout()'s figures from its available_kv_bytes and replicas, for a model with
 * recurrent state over `tp` ranks; `kv_bytes_per_token` as for vc_engine_state_vllm_spec() */
void     vc_engine_state_vllm_at_layout (const VcInputs   *inputs,
                                         double            tp,
                                         double            kv_bytes_per_token,
                                         VcEngineAtLayout *out);

/* SGLang's Mamba pool (ModelRunnerKVCacheMixin at sgl-project/sglang commit 001ccef) of a model
 * with recurrent layers, on one GPU or one TP rank */
typedef struct
{
  gboolean known;
  double per_request_bytes;        /* mamba_cache_per_req */
  double state_requests;           /* max_mamba_cache_size */
  double state_bytes;              /* the pool: state_requests × per_request_bytes */
  double tokens;                   /* max_total_num_tokens, in whole pages */
  double max_running_requests;     /* the scheduler's cap, max_mamba_cache_size // 3 at most */
  double max_concurrency;          /* requests of inputs->seq tokens at once */
} VcSglangStatePool;

/* Whether the pools of the inputs' model are followed for its engine at `tp` × `pp` GPUs:
 * vc_engine_state_vllm_followed() for vLLM, vc_engine_state_sglang_followed() for SGLang */
gboolean vc_engine_state_followed        (const VcInputs *inputs,
                                          double          tp,
                                          double          pp);
/* Whether SGLang's Mamba pool of the inputs' model is followed at `tp` × `pp` GPUs: TRUE
 * where the model has no recurrent state */
gboolean vc_engine_state_sglang_followed (const VcInputs *inputs,
                                          double          tp,
                                          double          pp);
/* One mixer's convolution and recurrent values on one rank of `tp`, as vLLM and SGLang shape
 * them (mamba2_state_shape, Mamba2StateShape.create); FALSE where that is not followed */
gboolean vc_engine_state_rank_state      (const VcInputs *in,
                                          double          tp,
                                          double         *conv,
                                          double         *ssm);
/* The weights each rank of `tp` holds beyond an even split where vLLM or SGLang repeats
 * Mamba-2's one group on every rank (MambaMixer2's widened in_proj and conv1d rows); 0
 * elsewhere and for other engines */
double   vc_engine_state_repeated_bytes  (const VcInputs *in,
                                          double          tp);
/* SGLang's pools in `rest` bytes (f × total − weights) on one rank of `tp`, from
 * `kv_bytes_per_token`: the KV bytes of one token in every attention layer on that rank */
gboolean vc_engine_state_sglang_pool     (const VcInputs    *inputs,
                                          double             tp,
                                          double             kv_bytes_per_token,
                                          double             rest,
                                          VcSglangStatePool *pool);
/* SGLang's pools over `pp` pipeline stages at commit 003fca8 (KVCacheConfigurator), on a rank
 * of `tp`: each stage's full-attention layers in `attention`, its Mamba layers in `mixers`
 * (vc_arch_stage_kinds()), `layer_bytes` the KV bytes of one token in one attention layer on a
 * rank, `rest` what every rank sizes from (f × total less the heaviest stage's weights: SGLang
 * takes the least memory any GPU has left). per_request_bytes is a rank's, of the largest
 * stage's share of the Mamba layers; the figures are the same on every rank. */
gboolean vc_engine_state_sglang_stages   (const VcInputs    *inputs,
                                          double             tp,
                                          double             layer_bytes,
                                          guint              pp,
                                          const double      *attention,
                                          const double      *mixers,
                                          double             rest,
                                          VcSglangStatePool *pool);

G_END_DECLS
