/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-speed.c: decode, prefill and training speed from a card's bandwidth and matrix rate.
 * The arithmetic and its calibration are in FORMULAS.md ("Speed"). */
#define G_LOG_DOMAIN "vc-speed"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "vc-engine.h"
#include "vc-engine-comm.h"
#include "vc-layout.h"
#include "vc-speed.h"

/* Shares of the peak memory bandwidth and of the dense matrix rate that single-stream runs
 * reach, by kind of memory. Calibrated on the rows of tests/accuracy/speed.tsv marked
 * "calibration" (llama.cpp llama-bench, batch 1): each is the median of measured / predicted
 * at a share of 1 over those rows; test-speed checks the errors that FORMULAS.md states. */
static const struct
{
  double bandwidth;
  double compute;
} efficiency[] = {
  [VC_MEMORY_KIND_UNKNOWN] = { 0, 0 },
  [VC_MEMORY_KIND_GDDR] = { 0.876, 1.014 },
  [VC_MEMORY_KIND_HBM] = { 0.530, 0.178 },
  [VC_MEMORY_KIND_UNIFIED] = { 0.815, 0.785 },
};

double
vc_speed_bandwidth_efficiency (VcMemoryKind kind)
{
  return efficiency[kind].bandwidth;
}

double
vc_speed_compute_efficiency (VcMemoryKind kind)
{
  return efficiency[kind].compute;
}

/* The dense matrix rate the weights' precision computes at: FP8 weights on the card's FP8
 * units when it has them; integer weights are dequantized to 16 bits; fp32 runs at the TF32
 * rate, half the 16-bit one on the cards we list. */
double
vc_speed_matrix_flops (const VcInputs         *in,
                       const VcScenarioResult *sc,
                       const VcGpu            *gpu)
{
  if (in->mode == VC_MODE_TRAINING)
    return (in->precision == VC_PRECISION_FP32 && !in->mixed_precision && sc->id == VC_SCENARIO_FULL)
           ? gpu->bf16_flops / 2 : gpu->bf16_flops;
  if (sc->weight_bits == 8 && in->precision == VC_PRECISION_FP8 && gpu->fp8_flops > 0)
    return gpu->fp8_flops;
  if (sc->weight_bits >= 32)
    return gpu->bf16_flops / 2;
  return gpu->bf16_flops;
}

/* attention score and value products per token, averaged over a causal sequence of `seq`
 * tokens: 2 products × 2 FLOPs × layers × query width × seq / 2; unknown (0) without an
 * architecture */
static double
attention_flops_per_token (const VcInputs *in)
{
  if (in->method != VC_METHOD_ARCHITECTURE)
    return 0;
  return 2.0 * in->arch.n_layers * in->arch.n_heads * vc_arch_head_dim (&in->arch) * in->seq;
}

/* GPUs that work on the same step at once: tensor parallelism splits every layer (generic,
 * vLLM, SGLang); llama.cpp's default layer split and Transformers' device_map="auto" run the
 * layers one GPU after the other, so a step goes no faster than on one card. */
static double
parallel_gpus (const VcInputs *in,
               double          n_gpus)
{
  if (in->mode == VC_MODE_TRAINING)
    return n_gpus;
  switch (in->engine)
    {
    case VC_ENGINE_LLAMA_CPP:
    case VC_ENGINE_OLLAMA:
    case VC_ENGINE_TRANSFORMERS:
      return 1;
    case VC_ENGINE_GENERIC:
    case VC_ENGINE_VLLM:
    case VC_ENGINE_SGLANG:
    default:
      return n_gpus;
    }
}

void
vc_speed_compute (const VcInputs         *in,
                  const VcResult         *res,
                  const VcScenarioResult *sc,
                  const VcGpu            *gpu,
                  double                  n_gpus,
                  VcSpeed                *out)
{
  double P = res->parameters, A = res->active_parameters;
  double flops = vc_speed_matrix_flops (in, sc, gpu);
  double eta_bw = vc_speed_bandwidth_efficiency (gpu->memory_kind);
  double eta_c = vc_speed_compute_efficiency (gpu->memory_kind);
  double par = parallel_gpus (in, n_gpus);
  double attn = attention_flops_per_token (in);

  *out = (VcSpeed) { 0 };
  if (n_gpus < 1 || !isfinite (n_gpus) || gpu->bandwidth_bytes_per_s <= 0 || flops <= 0 ||
      eta_bw <= 0 || P <= 0 || A <= 0)
    return;
  out->known = TRUE;
  out->gpus = n_gpus;

  if (in->mode == VC_MODE_INFERENCE)
    {
      double B = (double) in->batch * in->concurrency;
      /* a MoE step reads the experts its tokens are routed to: the active share per token,
       * up to all of them */
      double weights = (sc->bytes[VC_COMPONENT_WEIGHTS] - sc->rope_table) * MIN (1.0, A / P * B);
      /* the cache holds batch × concurrency sequences of seq tokens; a step reads each one's
       * context, seq / 2 on average over a generation */
      double kv = sc->bytes[VC_COMPONENT_KV_CACHE] / 2;
      double t_mem = (weights + kv) / (par * gpu->bandwidth_bytes_per_s * eta_bw);
      double t_comp = B * (2 * A + attn) / (par * flops * eta_c);

      out->decode_step_seconds = MAX (t_mem, t_comp);
      out->decode_tokens_per_s = B / out->decode_step_seconds;
      out->prefill_tokens_per_s = par * flops * eta_c / (2 * A + attn);
    }
  else
    {
      double tokens = (double) in->batch * in->seq;
      /* forward 2 FLOPs per parameter and token, backward 4 (activation and weight
       * gradients), weight gradients skipped for frozen weights (LoRA, QLoRA); attention
       * products three times their forward cost */
      double per_param = sc->id == VC_SCENARIO_FULL ? 6 : 4;
      double model_flops = tokens * (per_param * A + 3 * attn);

      out->step_seconds = model_flops / (n_gpus * flops * in->mfu);
      out->train_tokens_per_s = tokens / out->step_seconds;
    }
}

/* The line, and where vLLM 0.17's figure on @gpu leaves its Triton sampler's buffer out (the
 * card's SM count not known), its bound (vc_estimator_vllm_triton_buffer()) */
static char *
with_triton_bound (const VcInputs *in,
                   const VcGpu    *gpu,
                   char           *line)
{
  VcInputs card;
  guint tokens, seqs;
  double bytes, bound;
  g_autofree char *size = NULL;
  g_autofree char *owned = line;

  vc_engine_on_card (in, gpu, &card);
  vc_engine_vllm_batch (&card, gpu, &tokens, &seqs);
  if (in->engine != VC_ENGINE_VLLM || in->kv_cache_memory_gb > 0 ||
      !vc_estimator_vllm_triton_buffer (&card, MIN (tokens, seqs), &bytes, &bound) || bytes > 0)
    return g_steal_pointer (&owned);
  size = g_format_size_full ((guint64) bound, G_FORMAT_SIZE_IEC_UNITS);
  /* TRANSLATORS: appended to the KV cache's line on a card whose SM count is not known; the
   * most vLLM's Triton sampler's buffer takes, "593.5 MiB" */
  return g_strdup_printf (_("%s · vLLM’s Triton top-k/top-p buffer not counted (up to %s a GPU)"), line, size);
}

/* The line, and where vLLM's or SGLang's figure leaves NCCL's buffers out, their bound
 * (vc_engine_nccl_bound_bytes()): "… · NCCL’s buffers not counted (up to 10.6 GiB a GPU)";
 * then vLLM's Triton sampler's buffer where it is left out (with_triton_bound()) */
static char *
with_nccl_bound (const VcInputs *in,
                 const VcGpu    *gpu,
                 const char     *line,
                 double          tp,
                 double          pp)
{
  double bound = vc_engine_nccl_bound_bytes (in, tp, pp);
  g_autofree char *size = NULL;

  if (bound <= 0)
    return with_triton_bound (in, gpu, g_strdup (line));
  size = g_format_size_full ((guint64) bound, G_FORMAT_SIZE_IEC_UNITS);
  /* TRANSLATORS: appended to the KV cache's line; the most NCCL's buffers take, "10.6 GiB" */
  return with_triton_bound (in, gpu, g_strdup_printf (_("%s · NCCL’s buffers not counted (up to %s a GPU)"), line, size));
}

/* The line, and where vLLM's figure on @gpu leaves the quantized MoE experts' workspace out,
 * its bound (vc_estimator_vllm_moe_uncounted_bytes()): "… · quantized MoE experts’ workspace
 * not counted (up to 639 MiB a GPU)" */
static char *
with_moe_bound (const VcInputs *in,
                const VcGpu    *gpu,
                char           *line,
                double          tp)
{
  double bound = vc_estimator_vllm_moe_uncounted_bytes (in, gpu, tp);
  g_autofree char *owned = line;
  g_autofree char *size = NULL;

  if (bound <= 0)
    return g_steal_pointer (&owned);
  size = g_format_size_full ((guint64) bound, G_FORMAT_SIZE_IEC_UNITS);
  /* TRANSLATORS: appended to the KV cache's line; the most the quantized MoE experts' workspace
   * takes, "639.0 MiB" */
  return g_strdup_printf (_("%s · quantized MoE experts’ workspace not counted (up to %s a GPU)"), owned, size);
}

/* One GPU's speed in words, for the window's GPU comparison and vramcalc's table:
 * "KV cache: 231,000 tokens · 28 requests of 8,192 tokens · 54 tokens/s" (the capacity with vLLM
 * and SGLang only), or for training "0.42 s a step"; "" when the card's figures are unknown or
 * no number of it is enough. With `layout` (the inputs' layout result), when the inputs set a
 * layout of several GPUs, the capacity is the engine's at that layout on this card
 * (vc_engine_at_layout()): "At TP 4: KV cache 441,296 tokens · 53 requests of 8,192 tokens";
 * on several GPUs, NCCL's buffers are said not counted, with their bound (with_nccl_bound()).
 * In @pool, when not NULL, SGLang's Mamba pool behind that same capacity: one request's state in
 * every layer (mamba_cache_per_req) and the requests the pool holds (max_mamba_cache_size),
 * reserved before the KV cache (vc-engine-state.c); zeros where the line gives no capacity or
 * the model has no such pool. */
char *
vc_speed_describe (const VcInputs       *in,
                   const VcResult       *r,
                   const VcLayoutResult *layout,
                   const VcGpu          *gpu,
                   const VcGpuFit       *fit,
                   VcStatePool          *pool)
{
  const VcScenarioResult *sc = &r->scenarios[r->selected];
  gboolean sglang = in->engine == VC_ENGINE_SGLANG;
  g_autofree char *rate = NULL;
  g_autofree char *line = NULL;
  VcSpeed speed;
  VcKvCapacity kv;
  VcStatePool none = { 0 };

  if (pool == NULL)
    pool = &none;
  *pool = (VcStatePool) { 0 };
  vc_speed_compute (in, r, sc, gpu, fit->count, &speed);
  if (!speed.known)
    return g_strdup ("");
  if (in->mode == VC_MODE_TRAINING)
    /* TRANSLATORS: seconds one optimizer step takes */
    return g_strdup_printf (_("%.2f s a step"), speed.step_seconds);
  /* TRANSLATORS: tokens generated per second, all requests together */
  rate = g_strdup_printf (_("%'.0f tokens/s"), speed.decode_tokens_per_s);
  if (layout != NULL && vc_layout_n_gpus (&in->layout) > 1 &&
      (in->engine == VC_ENGINE_VLLM || sglang))
    {
      VcEngineAtLayout at;
      VcLayout effective;
      g_autofree char *how = NULL;

      vc_engine_at_layout_stages (in, r, r->selected, layout, gpu, 0, &at);
      vc_layout_get_effective (in, &effective);
      how = vc_layout_describe (&effective, in->mode, in->method, TRUE);
      if (at.known)
        {
          if (sglang && at.state_request_bytes > 0)
            *pool = (VcStatePool) { at.state_request_bytes, at.state_requests };
          /* TRANSLATORS: the layout set in the Parallelism group ("TP 4"), the engine's KV cache
           * there in tokens, the requests of the sequence length it holds at once, that length */
          line = g_strdup_printf (_("At %s: KV cache %'.0f tokens · %'.0f requests of %'u tokens"),
                                  how, at.tokens, floor (at.max_concurrency), in->seq);
          return with_moe_bound (in, gpu, with_nccl_bound (in, gpu, line, MAX (1u, in->layout.tp), MAX (1u, in->layout.pp)),
                                 MAX (1u, in->layout.tp));
        }
    }
  vc_engine_kv_capacity_fit (in, r, sc, gpu, fit, &kv);
  if (!kv.known && g_strcmp0 (vc_engine_no_figure_on (in, gpu, MAX (1u, fit->layout.tp)), "mxfp4-capability") == 0)
    /* TRANSLATORS: after the generation speed, on a card whose compute capability is below
     * what vLLM's MXFP4 quantization needs */
    return g_strdup_printf (_("%s · KV cache not sized: vLLM refuses MXFP4 below compute capability 8.0"), rate);
  if (!kv.known && g_strcmp0 (vc_engine_no_figure_on (in, gpu, MAX (1u, fit->layout.tp)), "mxfp4-backend") == 0)
    /* TRANSLATORS: after the generation speed, on a card whose MXFP4 expert backend vLLM
     * picks by what is installed (FORMULAS.md, "vLLM's MXFP4 experts") */
    return g_strdup_printf (_("%s · KV cache not sized: vLLM’s MXFP4 backend on this card is not known"), rate);
  if (!kv.known)
    return g_steal_pointer (&rate);
  if (sglang && kv.state_request_bytes > 0)
    *pool = (VcStatePool) { kv.state_request_bytes, kv.state_requests };
  /* TRANSLATORS: the KV cache's capacity in tokens, how many requests of the sequence length
   * it holds at once, that length, and the generation speed */
  line = g_strdup_printf (_("KV cache: %'.0f tokens · %'.0f requests of %'u tokens · %s"),
                          kv.tokens, floor (kv.max_concurrency), in->seq, rate);
  return with_moe_bound (in, gpu, with_nccl_bound (in, gpu, line, MAX (1u, fit->layout.tp), MAX (1u, fit->layout.pp)),
                         MAX (1u, fit->layout.tp));
}
