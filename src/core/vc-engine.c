/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine.c: engine reservations and KV-cache capacity. The arithmetic, and the engine source
 * each part follows, are in FORMULAS.md ("Engines"). */
#define G_LOG_DOMAIN "vc-engine"

#include "config.h"

#include <math.h>

#include "vc-engine.h"
#include "vc-layout.h"

/* llama.cpp pads each sequence's context to 256 cells (src/llama-context.cpp:
 * cparams.n_ctx = GGML_PAD(cparams.n_ctx, 256), and n_ctx_seq likewise) */
#define LLAMA_CPP_CTX_PAD 256

/* What of one GPU the engine lets the model, its cache and its activations use: vLLM requests
 * gpu_memory_utilization of the total; SGLang's mem_fraction_static applies to the memory left
 * once the CUDA context and NCCL are up (total_gpu_memory in its model runner), the rest being
 * kept for activations and CUDA graphs; the others use the whole card. */
double
vc_engine_usable_bytes (const VcInputs *in,
                        double          capacity,
                        double          overhead)
{
  /* serving engines: training takes the whole card */
  if (in->mode != VC_MODE_INFERENCE)
    return capacity;
  switch (in->engine)
    {
    case VC_ENGINE_VLLM:
      return in->memory_fraction * capacity;
    case VC_ENGINE_SGLANG:
      return in->memory_fraction * MAX (0.0, capacity - overhead) + MIN (capacity, overhead);
    case VC_ENGINE_GENERIC:
    case VC_ENGINE_LLAMA_CPP:
    case VC_ENGINE_TRANSFORMERS:
    default:
      return capacity;
    }
}

/* Whether the model runs in llama.cpp: chosen as the engine, or a GGUF file read with no
 * engine chosen (generic); vLLM or another engine chosen for a GGUF is taken at its word. */
gboolean
vc_engine_is_llama_cpp (const VcInputs *in)
{
  return in->mode == VC_MODE_INFERENCE &&
         (in->engine == VC_ENGINE_LLAMA_CPP || (in->engine == VC_ENGINE_GENERIC && in->llama_cpp));
}

/* the context each sequence's cache is allocated for */
guint
vc_engine_context_tokens (const VcInputs *in)
{
  if (vc_engine_is_llama_cpp (in))
    return (in->seq + LLAMA_CPP_CTX_PAD - 1) / LLAMA_CPP_CTX_PAD * LLAMA_CPP_CTX_PAD;
  return in->seq;
}

/* Transformers' DynamicCache appends each token with torch.cat (transformers/cache_utils.py,
 * DynamicLayer.update: self.keys = torch.cat([self.keys, key_states], dim=-2), the same for the
 * values): the grown copy of one layer's keys and values exists beside the old one for a moment,
 * at the full length, on top of the cache. */
double
vc_engine_transient_bytes (const VcInputs *in,
                           double          kv_cache_bytes)
{
  if (in->mode != VC_MODE_INFERENCE || in->engine != VC_ENGINE_TRANSFORMERS ||
      in->method != VC_METHOD_ARCHITECTURE || in->arch.n_layers == 0)
    return 0;
  return kv_cache_bytes / in->arch.n_layers;
}

/* What one GPU gives the KV cache: the engine's budget of `capacity` and what is left of it
 * beside the GPU's weights, activations and overhead, in bytes and in tokens of `per_token`
 * bytes (whole blocks). The budget is vLLM's gpu_memory_utilization, SGLang's
 * mem_fraction_static, or the whole card for llama.cpp and the others. */
static void
kv_room (const VcInputs *in,
         double          capacity,
         double          weights,
         double          activations,
         double          overhead,
         double          per_token,
         double         *budget,
         double         *available,
         double         *tokens)
{
  if (in->engine == VC_ENGINE_VLLM)
    {
      /* vllm/v1/worker/gpu_worker.py determine_available_memory: requested_memory (total ×
       * gpu_memory_utilization) less the non-KV memory (weights, the profiled activation
       * peak and non-torch memory: here the overhead; CUDA graphs are captured after the
       * cache is sized and count only when VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS is set,
       * src/core/FORMULAS.md "Engines"); then
       * vllm/v1/core/kv_cache_utils.py: num_blocks = available // page_size // num_layers */
      double block = (double) in->block_size * per_token;

      *budget = in->memory_fraction * capacity;
      *available = *budget - weights - activations - overhead;
      *tokens = *available > 0 ? floor (*available / block) * in->block_size : 0;
    }
  else if (in->engine == VC_ENGINE_SGLANG)
    {
      /* sglang model_runner profile_max_num_token: rest_memory = available after loading the
       * weights − total × (1 − mem_fraction_static), total being the memory free after the CUDA
       * context; max_num_token = rest_memory // cell_size; whole pages of block-size tokens */
      *budget = in->memory_fraction * (capacity - overhead);
      *available = *budget - weights;
      *tokens = *available > 0 ? floor (floor (*available / per_token) / in->block_size) * in->block_size : 0;
    }
  else
    {
      /* llama.cpp and the others allocate the context asked for: the room is the card's */
      *budget = capacity;
      *available = capacity - weights - activations - overhead;
      *tokens = *available > 0 ? floor (*available / per_token) : 0;
    }
  *available = MAX (0.0, *available);
}

void
vc_engine_kv_capacity (const VcInputs         *in,
                       const VcResult         *res,
                       const VcScenarioResult *sc,
                       double                  capacity,
                       double                  n,
                       VcKvCapacity           *out)
{
  const VcArch *arch = &in->arch;
  double per_token, budget, available, tokens;

  *out = (VcKvCapacity) { 0 };
  /* the block arithmetic needs the KV bytes of a token; sliding-window layers go to vLLM's
   * hybrid allocator and SGLang's SWA pool, which are not followed here */
  if (in->mode != VC_MODE_INFERENCE || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG) ||
      in->method != VC_METHOD_ARCHITECTURE || res->kv_bytes_per_token <= 0 ||
      (arch->sliding_window > 0 && arch->sliding_window_layers > 0) || !(n >= 1) || !isfinite (n))
    return;

  /* per GPU of n with tensor parallelism: each keeps a_kv / n KV heads (one at least), MLA's
   * latent cache is whole on every GPU */
  per_token = res->kv_bytes_per_token;
  if (!vc_arch_is_mla (arch) && arch->n_kv_heads > 0)
    per_token *= MAX (1.0, floor (arch->n_kv_heads / n)) / arch->n_kv_heads;
  kv_room (in, capacity, sc->bytes[VC_COMPONENT_WEIGHTS] / n, sc->bytes[VC_COMPONENT_ACTIVATIONS] / n,
           sc->bytes[VC_COMPONENT_OVERHEAD], per_token, &budget, &available, &tokens);
  out->known = TRUE;
  out->tokens = tokens;
  /* "Maximum concurrency for N tokens per request": num_blocks × block_size / max_model_len */
  out->max_concurrency = tokens / in->seq;
}

/* The engine at the layout of the inputs (TP, PP, EP, DP), on `n_gpus` GPUs of `capacity`
 * bytes: its budget and what is left for the KV cache on the busiest GPU, the tokens each
 * replica's cache holds, and the requests of seq tokens all replicas serve at once. The busiest
 * GPU's cache gives the bytes of a token there (its KV heads and its stage's layers). */
void
vc_engine_at_layout (const VcInputs       *in,
                     const VcLayoutResult *lr,
                     double                capacity,
                     guint                 n_gpus,
                     VcEngineAtLayout     *out)
{
  double per_replica = (double) in->batch * ((in->concurrency + in->layout.dp - 1) / MAX (1u, in->layout.dp));
  double cached = (double) vc_engine_context_tokens (in) * per_replica;
  double kv = lr->bytes[VC_COMPONENT_KV_CACHE];
  double per_token, tokens;
  guint stage_gpus = MAX (1u, in->layout.tp) * MAX (1u, in->layout.pp);

  *out = (VcEngineAtLayout) { 0 };
  out->n_gpus = MAX (n_gpus, vc_layout_n_gpus (&in->layout));
  out->replicas = out->n_gpus / stage_gpus;
  if (in->mode != VC_MODE_INFERENCE || in->method != VC_METHOD_ARCHITECTURE || kv <= 0 || cached <= 0 ||
      (in->arch.sliding_window > 0 && in->arch.sliding_window_layers > 0 && !vc_engine_is_llama_cpp (in)))
    return;
  per_token = kv / cached;
  kv_room (in, capacity, lr->bytes[VC_COMPONENT_WEIGHTS],
           lr->total - lr->bytes[VC_COMPONENT_WEIGHTS] - kv - lr->bytes[VC_COMPONENT_OVERHEAD],
           lr->bytes[VC_COMPONENT_OVERHEAD], per_token, &out->budget_bytes, &out->available_kv_bytes, &tokens);
  out->known = TRUE;
  out->tokens = tokens;
  out->max_concurrency = tokens / in->seq * out->replicas;
}
