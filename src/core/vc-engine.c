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
    case VC_ENGINE_OLLAMA:
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
         (in->engine == VC_ENGINE_LLAMA_CPP || in->engine == VC_ENGINE_OLLAMA ||
          (in->engine == VC_ENGINE_GENERIC && in->llama_cpp));
}

static double
pad_cells (double n)
{
  return ceil (n / LLAMA_CPP_CTX_PAD) * LLAMA_CPP_CTX_PAD;
}

/* -ub when not given: llama.cpp's common_params n_ubatch 512 (common/common.h); Ollama passes
 * -b N -ub N (llm/llama_server.go appendBatchArgs) with N its automatic generation batch for
 * the context of every slot, num_ctx × num_parallel (server/sched.go generationBatchForContext:
 * 512 up to 4096 tokens, 1024 up to 32768, 2048 beyond; 512 with flash attention off), which
 * it lowers only when the model leaves the card little headroom */
guint
vc_engine_default_ubatch (const VcInputs *in)
{
  double ctx = (double) in->seq * in->batch * in->concurrency;

  if (in->n_ubatch > 0)
    return in->n_ubatch;
  if (in->engine != VC_ENGINE_OLLAMA || !in->flash_attention || ctx <= 4096)
    return 512;
  return ctx <= 32768 ? 1024 : 2048;
}

/* -b when not given: llama.cpp's n_batch 2048 (common/common.h); Ollama's the same as -ub */
guint
vc_engine_default_batch (const VcInputs *in)
{
  if (in->n_batch > 0)
    return in->n_batch;
  if (in->engine == VC_ENGINE_OLLAMA)
    return vc_engine_default_ubatch (in);
  return 2048;
}

/* Bytes of one cached value: ggml's type_traits (ggml/src/ggml.c), a block of 32 values and its
 * fp16 scale (and minimum) for the quantized types; auto follows the KV precision. */
double
vc_engine_cache_type_bytes (VcCacheType type,
                            VcPrecision kv_precision)
{
  switch (type)
    {
    case VC_CACHE_TYPE_F32: return 4;
    case VC_CACHE_TYPE_F16:
    case VC_CACHE_TYPE_BF16: return 2;
    case VC_CACHE_TYPE_Q8_0: return 34.0 / 32.0;
    case VC_CACHE_TYPE_Q4_0:
    case VC_CACHE_TYPE_IQ4_NL: return 18.0 / 32.0;
    case VC_CACHE_TYPE_Q4_1: return 20.0 / 32.0;
    case VC_CACHE_TYPE_Q5_0: return 22.0 / 32.0;
    case VC_CACHE_TYPE_Q5_1: return 24.0 / 32.0;
    case VC_CACHE_TYPE_AUTO:
    default:
      switch (kv_precision)
        {
        case VC_PRECISION_INT8: return 34.0 / 32.0;
        case VC_PRECISION_INT4: return 18.0 / 32.0;
        case VC_PRECISION_FP32: return 4;
        case VC_PRECISION_FP8: return 1;
        default: return 2;
        }
    }
}

/* llama.cpp's name of the cache type: auto resolved from the KV precision; NULL for fp8, which
 * llama.cpp has no cache type for */
const char *
vc_engine_cache_type_name (VcCacheType type,
                           VcPrecision kv_precision)
{
  static const char *names[] = {
    [VC_CACHE_TYPE_F32] = "f32", [VC_CACHE_TYPE_F16] = "f16", [VC_CACHE_TYPE_BF16] = "bf16",
    [VC_CACHE_TYPE_Q8_0] = "q8_0", [VC_CACHE_TYPE_Q4_0] = "q4_0", [VC_CACHE_TYPE_Q4_1] = "q4_1",
    [VC_CACHE_TYPE_IQ4_NL] = "iq4_nl", [VC_CACHE_TYPE_Q5_0] = "q5_0", [VC_CACHE_TYPE_Q5_1] = "q5_1",
  };

  if (type != VC_CACHE_TYPE_AUTO && type < G_N_ELEMENTS (names))
    return names[type];
  switch (kv_precision)
    {
    case VC_PRECISION_FP32: return "f32";
    case VC_PRECISION_FP16: return "f16";
    case VC_PRECISION_BF16: return "bf16";
    case VC_PRECISION_INT8: return "q8_0";
    case VC_PRECISION_INT4: return "q4_0";
    default: return NULL;
    }
}

gboolean
vc_engine_cache_type_is_quantized (VcCacheType type,
                                   VcPrecision kv_precision)
{
  if (type == VC_CACHE_TYPE_AUTO)
    return kv_precision == VC_PRECISION_INT8 || kv_precision == VC_PRECISION_INT4;
  return type != VC_CACHE_TYPE_F32 && type != VC_CACHE_TYPE_F16 && type != VC_CACHE_TYPE_BF16;
}

/* llama_context's constructor (src/llama-context.cpp): n_batch = min(n_ctx, -b) and
 * n_ubatch = min(n_batch, -ub), both from the context as requested; n_ctx padded to 256;
 * without --kv-unified each of the n_seq_max streams gets n_ctx_seq = pad256(n_ctx / n_seq)
 * cells and n_ctx becomes n_ctx_seq × n_seq; with it one stream of n_ctx cells. The
 * sliding-window cache (src/llama-kv-cache-iswa.cpp) has pad256(min(size, n_swa × (unified ?
 * n_seq : 1) + n_ubatch)) cells a stream. The output buffer (llama_context::output_reserve)
 * holds n_vocab f32 logits for each of the n_seq_max sequences. */
void
vc_engine_llama_cpp (const VcInputs *in,
                     VcLlamaCpp     *l)
{
  const VcArch *arch = &in->arch;

  *l = (VcLlamaCpp) { 0 };
  l->n_seq = MAX (1.0, (double) in->batch * in->concurrency);
  l->n_ctx_requested = (double) in->seq * l->n_seq;
  l->n_ctx = pad_cells (l->n_ctx_requested);
  if (in->kv_unified)
    {
      l->n_ctx_seq = l->n_ctx;
      l->n_stream = 1;
    }
  else
    {
      l->n_ctx_seq = pad_cells (floor (l->n_ctx / l->n_seq));
      l->n_ctx = l->n_ctx_seq * l->n_seq;
      l->n_stream = l->n_seq;
    }
  l->n_batch = MIN (l->n_ctx_requested, (double) vc_engine_default_batch (in));
  l->n_ubatch = MIN (l->n_batch, (double) vc_engine_default_ubatch (in));
  if (arch->sliding_window > 0)
    l->swa_cells = pad_cells (MIN (l->n_ctx_seq, (double) arch->sliding_window * (in->kv_unified ? l->n_seq : 1) +
                                                 l->n_ubatch));
  l->k_bytes = vc_engine_cache_type_bytes (in->cache_type_k, in->kv_precision);
  l->v_bytes = vc_engine_cache_type_bytes (in->cache_type_v, in->kv_precision);
  l->output_bytes = 4.0 * arch->vocab_size * l->n_seq;
}

/* the context each sequence's cache is allocated for */
guint
vc_engine_context_tokens (const VcInputs *in)
{
  if (vc_engine_is_llama_cpp (in))
    {
      VcLlamaCpp l;

      vc_engine_llama_cpp (in, &l);
      return (guint) MIN (l.n_ctx / l.n_seq, (double) G_MAXUINT);
    }
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
