/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine.c: engine reservations and KV-cache capacity. The arithmetic, and the engine source
 * each part follows, are in FORMULAS.md ("Engines"). */
#define G_LOG_DOMAIN "vc-engine"

#include "config.h"

#include <math.h>

#include "vc-engine.h"

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

void
vc_engine_kv_capacity (const VcInputs         *in,
                       const VcResult         *res,
                       const VcScenarioResult *sc,
                       double                  capacity,
                       double                  n,
                       VcKvCapacity           *out)
{
  const VcArch *arch = &in->arch;
  double per_token, weights, activations, overhead, tokens;

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
  weights = sc->bytes[VC_COMPONENT_WEIGHTS] / n;
  activations = sc->bytes[VC_COMPONENT_ACTIVATIONS] / n;
  overhead = sc->bytes[VC_COMPONENT_OVERHEAD];

  if (in->engine == VC_ENGINE_VLLM)
    {
      /* vllm/v1/worker/gpu_worker.py determine_available_memory: requested_memory (total ×
       * gpu_memory_utilization) less the non-KV memory (weights, the profiled activation
       * peak and non-torch memory: here the overhead; CUDA graphs are captured after the
       * cache is sized and count only when VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS is set,
       * src/core/FORMULAS.md "Engines"); then
       * vllm/v1/core/kv_cache_utils.py: num_blocks = available // page_size // num_layers */
      double available = in->memory_fraction * capacity - weights - activations - overhead;
      double block = (double) in->block_size * per_token;

      tokens = available > 0 ? floor (available / block) * in->block_size : 0;
    }
  else
    {
      /* sglang model_runner profile_max_num_token: rest_memory = available after loading the
       * weights − total × (1 − mem_fraction_static), total being the memory free after the CUDA
       * context; max_num_token = rest_memory // cell_size; whole pages of block-size tokens */
      double total = capacity - overhead;
      double rest = in->memory_fraction * total - weights;

      tokens = rest > 0 ? floor (floor (rest / per_token) / in->block_size) * in->block_size : 0;
    }
  out->known = TRUE;
  out->tokens = tokens;
  /* "Maximum concurrency for N tokens per request": num_blocks × block_size / max_model_len */
  out->max_concurrency = tokens / in->seq;
}
