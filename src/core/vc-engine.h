/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine.h: what serving engines do with a GPU's memory, following each engine's source
 * (FORMULAS.md, "Engines"): vLLM reserves gpu_memory_utilization of the card and SGLang
 * mem_fraction_static, and both fill what the model leaves with KV-cache blocks; llama.cpp pads
 * its context to 256 cells. Free of GObject and of allocation.
 */
#pragma once

#include <glib.h>

#include "vc-catalog.h"
#include "vc-estimator.h"
#include "vc-layout.h"

G_BEGIN_DECLS

typedef struct
{
  gboolean known;                  /* an engine that sizes its cache, and a model it can size */
  double tokens;                   /* KV-cache capacity of the n GPUs, in tokens */
  double max_concurrency;          /* requests of seq tokens the cache holds at once */
  double state_request_bytes;      /* SGLang with recurrent state: one request's state in every
                                    * layer (mamba_cache_per_req); 0 otherwise */
  double state_requests;           /* and the requests its Mamba pool holds (max_mamba_cache_size) */
  double weights_bytes;            /* the weights each GPU holds beside the cache: the busiest
                                    * GPU's of the layout of TP n (vc_engine_rank_weights()) */
} VcKvCapacity;

/* A card's memory as the engine sees it: vLLM and SGLang the total CUDA reports, where known */
double vc_engine_gpu_capacity (const VcInputs *inputs,
                               const VcGpu    *gpu);
double vc_engine_usable_bytes (const VcInputs *inputs,
                               double          capacity_bytes,
                               double          overhead_bytes);
/* llama.cpp's context as llama_context's constructor sizes it (src/llama-context.cpp), for the
 * batch × concurrency sequences of seq tokens each; FORMULAS.md, "llama.cpp" */
typedef struct
{
  double n_seq;                    /* n_seq_max: -np, one slot per sequence */
  double n_ctx_requested;          /* -c: seq × n_seq */
  double n_ctx;                    /* padded to 256, a whole number of n_ctx_seq */
  double n_ctx_seq;                /* the context of one stream (every sequence's when unified) */
  double n_stream;                 /* KV streams: n_seq, or 1 with --kv-unified */
  double n_batch;                  /* min(n_ctx requested, -b) */
  double n_ubatch;                 /* min(n_batch, -ub): the tokens of the reserved graph */
  double swa_cells;                /* cells of one stream of the sliding-window cache */
  double k_bytes;                  /* bytes of one cached key value, one value value */
  double v_bytes;
  double output_bytes;             /* the f32 logits of one output per sequence (host) */
} VcLlamaCpp;

gboolean vc_engine_is_llama_cpp (const VcInputs *inputs);
void   vc_engine_llama_cpp    (const VcInputs *inputs,
                               VcLlamaCpp     *llama);
guint  vc_engine_default_ubatch (const VcInputs *inputs);
guint  vc_engine_default_batch  (const VcInputs *inputs);
double vc_engine_cache_type_bytes (VcCacheType type,
                                   VcPrecision kv_precision);
const char *vc_engine_cache_type_name (VcCacheType type,
                                       VcPrecision kv_precision);
gboolean vc_engine_kv_dtype_served (const VcInputs *in);
const char *vc_engine_ollama_kv_type (const VcInputs *in);
const char *vc_engine_ollama_cache_name (VcCacheType type,
                                         VcPrecision kv_precision);
gboolean vc_engine_cache_type_is_quantized (VcCacheType type,
                                            VcPrecision kv_precision);
guint  vc_engine_context_tokens (const VcInputs *inputs);
guint  vc_engine_page_tokens (const VcInputs *inputs);
gboolean vc_engine_vllm_given_cache (const VcInputs *inputs,
                                     double          cache,
                                     double         *extra);
double vc_engine_paged_requests (const VcInputs *inputs,
                                 double          tokens);
double vc_engine_transient_bytes (const VcInputs *inputs,
                                  double          kv_cache_bytes);
/* vLLM's batch of the profile run: max_num_batched_tokens and max_num_seqs as given, or vLLM's
 * defaults for the card (gpu NULL: a card of 70 GiB or more, such as the H100) */
void   vc_engine_vllm_batch   (const VcInputs *inputs,
                               const VcGpu    *gpu,
                               guint          *tokens,
                               guint          *seqs);
void   vc_engine_on_card      (const VcInputs *inputs,
                               const VcGpu    *gpu,
                               VcInputs       *out);
guint    vc_engine_vllm_minor (const VcInputs *inputs);
gboolean vc_engine_vllm_version_sized (const VcInputs *inputs,
                                       double          n_gpus);
/* Why vLLM or SGLang has no KV-cache figure for the inputs' model where it is one of these, as a
 * stable name ("state-pools", "encoder", "layout-groups"); NULL for any other reason or none */
const char *vc_engine_no_figure (const VcInputs *inputs);
/* the same on `gpu` at `tp` ranks: "mxfp4-capability" where vLLM refuses MXFP4 on that card
 * (compute capability below 8.0), "mxfp4-backend" where its MXFP4 expert backend there is not
 * followed */
const char *vc_engine_no_figure_on (const VcInputs *inputs,
                                    const VcGpu    *gpu,
                                    double          tp);
/* vLLM's MXFP4 experts on `gpu`: the bytes each of `tp` ranks allocates beyond its share of the
 * checkpoint's (0 where it does not apply); FALSE where the card's backend is not followed */
gboolean vc_engine_vllm_experts_as_stored (const VcInputs *inputs,
                                           const VcGpu    *gpu,
                                           double          tp);
/* Whether vLLM refuses MXFP4 experts on `gpu`: compute capability below 8.0 */
gboolean vc_engine_vllm_mxfp4_refused (const VcInputs *inputs,
                                       const VcGpu    *gpu);
gboolean vc_engine_vllm_mxfp4_extra (const VcInputs *inputs,
                                     const VcGpu    *gpu,
                                     double          tp,
                                     double         *extra);
/* Of `padding` (vc_engine_vllm_mxfp4_extra), what pipeline stage `stage` of vLLM's default
 * partition holds: all of it on one stage */
double vc_engine_vllm_mxfp4_stage_share (const VcInputs *inputs,
                                         double          padding,
                                         guint           stage);
/* The cos/sin tables for rotary positions that vLLM and SGLang build on every GPU when they make
 * the model (FORMULAS.md, "vLLM's and SGLang's RoPE tables"), for weights at @precision: vLLM in
 * the model's dtype (fp32 where the model asks for it), SGLang in fp32 on CUDA; 0 for the other
 * engines, training, the rule of thumb, a model without such a table, or one not sized */
double vc_engine_rope_table_bytes (const VcInputs *inputs,
                                   VcPrecision     precision);
/* Why that table is not sized, as the rope type's name ("mrope", "longrope" for SGLang,
 * "rope-type", "no-positions" for a config without max_position_embeddings, "typed-in" for an
 * architecture typed in without its context or the table's rows); NULL when it is sized or there
 * is none */
const char *vc_engine_rope_table_unsized (const VcInputs *inputs);
/* The table's rows and width, a typed-in architecture's taken as a plain Llama rope */
gboolean vc_engine_rope_table_shape (const VcInputs *inputs,
                                     guint          *rows,
                                     guint          *dim);
gboolean vc_engine_rope_table_assumed (const VcInputs *inputs);
/* What SGLang multiplies its default mem_fraction_static by for a vision model
 * (adjust_mem_fraction_for_vlm) of the encoder's layers and width; 1 when they are unknown or
 * SGLang serves the model without images by default */
double vc_engine_sglang_vlm_factor (const VcArch *arch);
/* SGLang's mem_fraction_static: as given, or SGLang's default for a card of `gpu_mib` MiB as
 * nvidia-smi reports it and `tp` GPUs, lowered for a vision model */
double vc_engine_sglang_fraction (const VcInputs *inputs,
                                  double          gpu_mib,
                                  double          tp);
/* The weights the busiest GPU of a layout holds as the engine loads them: the layout's (@layout,
 * computed for the inputs' layout), with vLLM's MXFP4 experts as @gpu's backend pads them and
 * SGLang's repeated Mamba-2 group rows; FALSE where vLLM's padding there is not followed. The
 * one figure both vc_engine_kv_capacity_on() and vc_engine_at_layout() size the cache beside. */
gboolean vc_engine_rank_weights (const VcInputs       *inputs,
                                 const VcLayoutResult *layout,
                                 const VcGpu          *gpu,
                                 double               *weights);
/* The KV-cache capacity on `n_gpus` of `gpu` (its memory, name and vLLM's defaults for it), the
 * model at TP `n_gpus`: each GPU's weights are that layout's (vc_layout_compute_tp()); no figure
 * where the model refuses that TP */
void   vc_engine_kv_capacity_on (const VcInputs         *inputs,
                                 const VcResult         *result,
                                 const VcScenarioResult *scenario,
                                 const VcGpu            *gpu,
                                 double                  n_gpus,
                                 VcKvCapacity           *capacity);
/* vLLM over the inputs' pipeline stages (TP ranks each, vLLM's default partition) on @gpu: the
 * tokens of the fewest blocks any stage's ranks hold (each the request less its stage's weights
 * and the profile run, in blocks of its own layers), which every worker allocates
 * (get_kv_cache_configs, the minimum over the workers); models without recurrent state */
double vc_engine_vllm_stages_tokens (const VcInputs *inputs,
                                     const VcResult *result,
                                     guint           scenario_index,
                                     const VcGpu    *gpu);
/* The KV-cache capacity of a GPU table row: `fit`'s count of `gpu` at `fit`'s layout. On one
 * pipeline stage it is vc_engine_kv_capacity_on() at TP count; with several, the engine at that
 * layout (vc_engine_at_layout()), its busiest GPU's weights and cache */
void   vc_engine_kv_capacity_fit (const VcInputs         *inputs,
                                  const VcResult         *result,
                                  const VcScenarioResult *scenario,
                                  const VcGpu            *gpu,
                                  const VcGpuFit         *fit,
                                  VcKvCapacity           *capacity);
void   vc_engine_kv_capacity  (const VcInputs         *inputs,
                               const VcResult         *result,
                               const VcScenarioResult *scenario,
                               double                  capacity_bytes,
                               double                  n_gpus,
                               VcKvCapacity           *capacity);

typedef struct
{
  gboolean known;                  /* a model whose cache per token the layout gives */
  guint n_gpus;                    /* TP × PP × DP, or more when asked */
  guint replicas;                  /* n_gpus / (TP × PP): each a whole model with its own cache */
  double budget_bytes;             /* what the engine takes of each GPU */
  double available_kv_bytes;       /* what the busiest GPU leaves of it for the KV cache */
  double tokens;                   /* KV-cache capacity of one replica, in tokens */
  double max_concurrency;          /* requests of seq tokens all replicas hold at once */
  guint block_size;                /* vLLM with recurrent state: the attention block raised to
                                    * hold a layer's state; 0 otherwise */
  double state_page_bytes;         /* and the page of one layer's state of one request, padded */
  double state_request_bytes;      /* SGLang with recurrent state: one request's state in every
                                    * layer (mamba_cache_per_req); 0 otherwise */
  double state_requests;           /* and the requests its Mamba pool holds (max_mamba_cache_size) */
  double weights_bytes;            /* the busiest GPU's weights beside its cache
                                    * (vc_engine_rank_weights()) */
} VcEngineAtLayout;

void   vc_engine_at_layout    (const VcInputs         *inputs,
                               const VcLayoutResult   *layout,
                               const VcGpu            *gpu,
                               guint                   n_gpus,
                               VcEngineAtLayout       *out);
/* The cache of a model with sliding-window layers over the inputs' pipeline stages of TP ranks
 * (more than one) on `gpu`, each stage's pools from its own layers and memory, as vLLM (from
 * release 0.14) and SGLang (at commit 003fca8) size them: the tokens and the requests of seq
 * tokens one replica holds. `overhead`: a GPU's CUDA context (the layout's overhead). FALSE
 * where not followed (FORMULAS.md, "Sliding-window layers over pipeline stages"). */
gboolean vc_engine_sliding_stages (const VcInputs *inputs,
                                   const VcResult *result,
                                   guint           scenario_index,
                                   const VcGpu    *gpu,
                                   double          overhead,
                                   double         *tokens,
                                   double         *max_concurrency);
/* vc_engine_at_layout() with vLLM's cache over several pipeline stages its fewest blocks over
 * the stages (vc_engine_vllm_stages_tokens()), and a model with sliding-window layers each
 * stage's pools (vc_engine_sliding_stages()) */
void   vc_engine_at_layout_stages (const VcInputs       *inputs,
                                   const VcResult       *result,
                                   guint                 scenario_index,
                                   const VcLayoutResult *layout,
                                   const VcGpu          *gpu,
                                   guint                 n_gpus,
                                   VcEngineAtLayout     *out);

G_END_DECLS
