/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine-state.c: vLLM's hybrid KV-cache spec for models with linear-attention or
 * state-space layers. The arithmetic, and the vLLM source each part follows, are in FORMULAS.md
 * ("Engines"). */
#define G_LOG_DOMAIN "vc-engine"

#include "config.h"

#include <math.h>

#include "vc-engine-state.h"

/* vllm/model_executor/models/config.py, HybridAttentionMambaModelConfig: the attention block is
 * suggested in multiples of 16 tokens, what every attention backend takes */
#define VLLM_STATE_BLOCK_ALIGN 16

/* Whether tp ranks split every mixer's state in equal parts: MambaStateShapeCalculator
 * (vllm/model_executor/layers/mamba/mamba_utils.py) divides the convolution's channels and the
 * state's heads by tp (divide(), which asserts), Gated DeltaNet's (gated_delta_net_state_shape)
 * 2 × key heads × key + value heads × value channels, Mamba-2's (mamba2_state_shape) heads ×
 * head + 2 × groups × state channels; with the heads and the groups each a multiple of tp, a
 * rank keeps state / tp. Mamba-2 groups that tp does not divide are repeated on every rank
 * (extra_groups_for_head_shards: tp − groups more): rank_state() below */
static gboolean
splits_evenly (const VcArch *arch,
               double        tp)
{
  if (tp == 1)
    return TRUE;
  return tp > 1 && arch->recurrent_heads > 0 && arch->recurrent_groups > 0 &&
         fmod (arch->recurrent_heads, tp) == 0 && fmod (arch->recurrent_groups, tp) == 0 &&
         fmod (arch->recurrent_state, tp) == 0;
}

/* Whether the engine loads the weights unquantized: MambaMixer2 asserts, in SGLang
 * (python/sglang/srt/layers/attention/mamba/mamba.py) and in vLLM
 * (vllm/model_executor/layers/mamba/mamba_mixer2.py), "Tensor parallel currently supported for
 * quantized models only if tensor parallel world size divides num groups" (vLLM before that
 * refused every quantized model under TP: "Tensor parallel currently not supported for quantized
 * models") */
static gboolean
unquantized (const VcInputs *in)
{
  return in->precision == VC_PRECISION_FP32 || in->precision == VC_PRECISION_FP16 ||
         in->precision == VC_PRECISION_BF16;
}

/* Whether the engines widen the inputs' Mamba-2 groups at `tp`: both shape the state
 * (MambaStateShapeCalculator.mamba2_state_shape in vLLM's mamba_utils.py, Mamba2StateShape.create
 * in SGLang's python/sglang/srt/configs/mamba_utils.py) with extra_groups_for_head_shards (tp −
 * groups where tp does not divide them) added before dividing the convolution's channels by tp,
 * and MambaMixer2 repeats the groups so on every rank (mamba_v2_sharded_weight_loader); both
 * assert "If tensor parallel world size does not divide num_groups, then num_groups must equal
 * 1" */
static gboolean
widens_groups (const VcArch *arch,
               double        tp)
{
  return tp > 1 && arch->recurrent_groups > 0 && fmod (arch->recurrent_groups, tp) != 0;
}

/* One mixer's state on one rank of `tp` as both engines shape it: the convolution's conv_dim /
 * tp channels × (kernel − 1) and the recurrent state's heads / tp × head × N. Where tp divides
 * the heads and the groups, state / tp of each part (splits_evenly); where it divides the heads
 * but not Mamba-2's one group, the group repeated to tp groups: conv_dim = I + 2·tp·N, I = the
 * recurrent values / N (heads × head), kernel − 1 = the convolution values / (I + 2·groups·N) */
static gboolean
rank_state (const VcInputs *in,
            double          tp,
            double         *conv,
            double         *ssm)
{
  const VcArch *arch = &in->arch;
  double all_conv = arch->recurrent_conv, all_ssm = (double) arch->recurrent_state - arch->recurrent_conv;
  double n = arch->mamba_state_size, width, kernel_1, widened;

  if (!(all_conv > 0 && all_ssm > 0))
    return FALSE;
  if (!widens_groups (arch, tp))
    {
      if (!splits_evenly (arch, tp) || fmod (all_conv, tp) != 0)
        return FALSE;
      *conv = all_conv / tp;
      *ssm = all_ssm / tp;
      return TRUE;
    }
  if (n <= 0 || arch->recurrent_groups != 1 || arch->recurrent_heads == 0 ||
      fmod (arch->recurrent_heads, tp) != 0 || arch->mamba_group_params == 0 || !unquantized (in))
    return FALSE;
  width = all_ssm / n;
  if (width != floor (width))
    return FALSE;
  kernel_1 = all_conv / (width + 2.0 * arch->recurrent_groups * n);
  widened = width + 2.0 * tp * n;
  if (kernel_1 != floor (kernel_1) || fmod (widened, tp) != 0)
    return FALSE;
  *conv = widened / tp * kernel_1;
  *ssm = all_ssm / tp;
  return TRUE;
}

gboolean
vc_engine_state_rank_state (const VcInputs *in,
                            double          tp,
                            double         *conv,
                            double         *ssm)
{
  return rank_state (in, tp, conv, ssm);
}

double
vc_engine_state_repeated_bytes (const VcInputs *in,
                                double          tp)
{
  const VcArch *arch = &in->arch;
  double conv, ssm;

  /* MambaMixer2's in_proj and conv1d, ColumnParallelLinear over the widened channels in both
   * engines: each rank holds (tp − groups) / tp groups' rows more than an even split, in the
   * weights' dtype */
  if ((in->engine != VC_ENGINE_SGLANG && in->engine != VC_ENGINE_VLLM) || vc_arch_state_elements (arch) <= 0 ||
      !widens_groups (arch, tp) || !rank_state (in, tp, &conv, &ssm))
    return 0;
  return MIN (arch->recurrent_layers, arch->n_layers) * (tp - arch->recurrent_groups) *
         arch->mamba_group_params / tp * (in->precision == VC_PRECISION_FP32 ? 4.0 : 2.0);
}

/* Whether vLLM's state on a rank of `tp` is Mamba-2's one group repeated (rank_state) */
static gboolean
vllm_widened (const VcInputs *in,
              double          tp)
{
  double conv, ssm;

  return widens_groups (&in->arch, tp) && rank_state (in, tp, &conv, &ssm);
}

/* Whether a pipeline stage's layers of either kind are known: every layer holding both
 * attention and the mixer (Falcon-H1: a stage's count of each is its layer count), or, for a
 * model of separate layers (Qwen3-Next, Granite 4.0-H), the attention-layer pattern saying which
 * layers hold a mixer (vc_arch_stage_kinds()) */
static gboolean
stage_kinds_known (const VcArch *arch)
{
  double attention, mixers;

  if (arch->recurrent_with_attention)
    return arch->recurrent_layers >= arch->n_layers && vc_arch_attention_layers (arch) == arch->n_layers;
  return vc_arch_stage_kinds (arch, 0, arch->n_layers, &attention, &mixers);
}

gboolean
vc_engine_state_vllm_followed (const VcInputs *in,
                               double          tp,
                               double          pp)
{
  const VcArch *arch = &in->arch;

  if (vc_arch_state_elements (arch) <= 0)
    return TRUE;
  /* each rank of tp holds its part of every layer's state (splits_evenly), or Mamba-2's one
   * group repeated with its share of the heads (vllm_widened); pipeline stages hold
   * layers of either kind in numbers the stage split gives, followed where every layer holds
   * both or the attention-layer pattern places the mixers (vc_engine_state_vllm_stages()) from
   * release 0.14; a window beside the
   * state would make a third kind of group; releases after 0.20 log the cache as
   * max_concurrency × max_model_len (vllm-project/vllm issue #40691), not followed */
  return in->engine == VC_ENGINE_VLLM && in->mode == VC_MODE_INFERENCE &&
         in->vllm_version != VC_VLLM_VERSION_0_21 &&
         in->method == VC_METHOD_ARCHITECTURE &&
         (pp == 1 || (stage_kinds_known (arch) && vc_engine_vllm_minor (in) >= 14)) &&
         (splits_evenly (arch, tp) || vllm_widened (in, tp)) &&
         arch->recurrent_state > 0 &&
         vc_arch_attention_layers (arch) > 0 && !vc_arch_is_mla (arch) &&
         !(arch->sliding_window > 0 && arch->sliding_window_layers > 0);
}

gboolean
vc_engine_state_vllm_spec (const VcInputs  *in,
                           double           tp,
                           double           kv_bytes_per_token,
                           VcVllmStateSpec *spec)
{
  const VcArch *arch = &in->arch;
  double attention = vc_arch_attention_layers (arch);
  double state = MIN (arch->recurrent_layers, arch->n_layers);
  /* MambaStateDtypeCalculator (vllm/model_executor/layers/mamba/mamba_utils.py): with
   * --mamba-cache-dtype and --mamba-ssm-cache-dtype at "auto", the convolution and the
   * recurrent state are both in the model's dtype, whatever --kv-cache-dtype says */
  double value_bytes = in->precision == VC_PRECISION_FP32 ? 4.0 : 2.0;
  double lo, hi, aligned, conv, ssm;

  *spec = (VcVllmStateSpec) { 0 };
  if (!vc_engine_state_vllm_followed (in, tp, 1) || vc_arch_state_elements (arch) <= 0 ||
      !(kv_bytes_per_token > 0) || !isfinite (kv_bytes_per_token) || state <= 0)
    return FALSE;
  spec->attention_layers = attention;
  spec->state_layers = state;
  /* MambaSpec.page_size_bytes (vllm/v1/kv_cache_interface.py): each state's shape times its
   * dtype's size, summed: a request's whole state in one page, a rank's part of it under TP
   * (splits_evenly), with Mamba-2's one group repeated on each rank its widened convolution
   * (mamba2_state_shape, rank_state) */
  if (vllm_widened (in, tp) && rank_state (in, tp, &conv, &ssm))
    spec->state_page_bytes = (conv + ssm) * value_bytes;
  else
    spec->state_page_bytes = (double) arch->recurrent_state / tp * value_bytes;
  /* FullAttentionSpec(block_size=1).page_size_bytes: K and V of one token in one layer, with
   * the KV heads of one rank (model_config.get_num_kv_heads(parallel_config), as
   * kv_bytes_per_token counts them) */
  spec->attention_token_bytes = kv_bytes_per_token / attention;
  /* HybridAttentionMambaModelConfig.verify_and_update_config: attn_block_size = 16 ×
   * cdiv(mamba_page_size, 16 × attn_page_size_1_token), taken when the block size is unset
   * or smaller; the Mamba page is then padded to the attention page (mamba_page_size_padded) */
  aligned = VLLM_STATE_BLOCK_ALIGN * ceil (spec->state_page_bytes /
                                           (VLLM_STATE_BLOCK_ALIGN * spec->attention_token_bytes));
  /* a state too large for any block vLLM could take */
  if (!(aligned <= VC_MAX_SEQ))
    return FALSE;
  spec->block_size = (guint) MAX ((double) in->block_size, aligned);
  spec->page_bytes = spec->block_size * spec->attention_token_bytes;
  /* vllm/v1/core/kv_cache_utils.py, _get_kv_cache_groups_uniform_page_size: groups of
   * group_size layers, the smaller count of the two kinds (the larger when it is under 1.5
   * times the smaller), the last group of a kind padded */
  lo = MIN (attention, state);
  hi = MAX (attention, state);
  spec->group_size = hi < lo * 1.5 ? hi : lo;
  spec->attention_groups = ceil (attention / spec->group_size);
  spec->state_groups = ceil (state / spec->group_size);
  spec->known = TRUE;
  return TRUE;
}

void
vc_engine_state_vllm_capacity (const VcInputs        *in,
                               const VcVllmStateSpec *spec,
                               double                 available,
                               double                *tokens,
                               double                *max_concurrency)
{
  /* get_kv_cache_config_from_groups: group_size tensors, each shared by one layer of every
   * group, num_blocks = available // page_size // group_size (get_num_blocks) */
  double blocks = floor (floor (MAX (0.0, available) / spec->page_bytes) / spec->group_size);
  /* the Mamba groups' block_size is max_model_len (cache_config.mamba_block_size without
   * prefix caching), so _report_kv_cache_config logs num_blocks // groups × min(block, seq) */
  double min_block = MIN ((double) spec->block_size, (double) in->seq);
  /* get_max_concurrency_for_kv_cache_config: each attention group takes cdiv(seq, block)
   * pages a request, each Mamba group one page (MambaSpec.max_memory_usage_bytes) */
  double per_request = spec->attention_groups * ceil ((double) in->seq / spec->block_size) + spec->state_groups;

  *tokens = floor (blocks / (spec->attention_groups + spec->state_groups)) * min_block;
  *max_concurrency = blocks / per_request;
}

/* Over several pipeline stages (vllm/v1/core/kv_cache_utils.py at commit 001cabc, pull request
 * #23974): the whole model's groups (@spec), each stage's layers of a kind spread over that
 * kind's groups (layers[i::G]), so a stage of c layers of a kind, consecutive in that kind's
 * list, holds at most cdiv(c, G) in one; each worker's num_blocks = its available // page // its
 * largest group, the fewest of any worker; the log and the requests as on one stage
 * (vc_engine_state_vllm_capacity()). A stage's counts of each kind in @attention and @mixers
 * (stage_kinds_known()). */
void
vc_engine_state_vllm_stages (const VcInputs        *in,
                             const VcVllmStateSpec *spec,
                             guint                  pp,
                             const double          *attention,
                             const double          *mixers,
                             const double          *available,
                             double                *tokens,
                             double                *max_concurrency)
{
  double blocks = G_MAXDOUBLE, min_block = MIN ((double) spec->block_size, (double) in->seq);

  for (guint s = 0; s < pp; s++)
    {
      double group = MAX (ceil (attention[s] / spec->attention_groups), ceil (mixers[s] / spec->state_groups));

      if (group > 0)
        blocks = MIN (blocks, floor (floor (MAX (0.0, available[s]) / spec->page_bytes) / group));
    }
  if (blocks == G_MAXDOUBLE)
    blocks = 0;
  *tokens = floor (blocks / (spec->attention_groups + spec->state_groups)) * min_block;
  *max_concurrency = blocks / (spec->attention_groups * ceil ((double) in->seq / spec->block_size) +
                               spec->state_groups);
}

void
vc_engine_state_vllm_at_layout (const VcInputs   *in,
                                double            tp,
                                double            kv_bytes_per_token,
                                VcEngineAtLayout *out)
{
  VcVllmStateSpec spec;
  double tokens, max_concurrency;

  if (!vc_engine_state_vllm_spec (in, tp, kv_bytes_per_token, &spec))
    return;
  vc_engine_state_vllm_capacity (in, &spec, out->available_kv_bytes, &tokens, &max_concurrency);
  out->known = TRUE;
  out->tokens = tokens;
  out->max_concurrency = max_concurrency * out->replicas;
  out->block_size = spec.block_size;
  out->state_page_bytes = spec.page_bytes;
}

/* python/sglang/srt/model_executor/model_runner_kv_cache_mixin.py (sgl-project/sglang at commit
 * 001ccef): MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO, the Mamba slots kept for each running
 * request with the radix cache on and no extra buffer (calculate_mamba_ratio) */
#define SGLANG_MAMBA_RUNNING_RATIO 3
/* python/sglang/srt/mem_cache/kv_cache_configurator.py (commit 003fca8), _calculate_mamba_ratio:
 * MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO (3) + MAMBA_CACHE_V2_ADDITIONAL_RATIO_OVERLAP (2),
 * the extra buffer's ping-pong slots with the overlap schedule on: the radix-cache strategy
 * "auto" resolves to extra_buffer for Qwen3-Next, Falcon-H1 and Granite 4.0-H with the triton
 * linear-attention backend and the overlap schedule, SGLang's defaults
 * (python/sglang/srt/arg_groups/overrides.py, _mamba_radix_cache_resolution,
 * supports_mamba_cache_extra_buffer); SGLANG_OPT_MAMBA_SKIP_DECODE_LOCK unset */
#define SGLANG_003FCA8_RUNNING_RATIO 5
/* python/sglang/srt/server_args.py: ServerArgs.mamba_full_memory_ratio (0.9 since pull request
 * #11679), the Mamba pool's bytes for each byte of the full-attention cache */
#define SGLANG_MAMBA_FULL_MEMORY_RATIO 0.9
/* python/sglang/srt/configs/mamba_utils.py, mamba2_state_dtype: the convolution state in
 * bfloat16 (SGLANG_MAMBA_CONV_DTYPE unset), the recurrent state in float32 (server_args'
 * mamba_ssm_dtype, SGLANG_MAMBA_SSM_DTYPE unset) */
#define SGLANG_CONV_BYTES 2.0
#define SGLANG_SSM_BYTES 4.0

/* Whether SGLang's pools over `pp` pipeline stages are followed: at commit 003fca8, where each
 * stage's layers of either kind are known (stage_kinds_known()). The stages are SGLang's own
 * split (vc_layout_stage_layers(): get_pp_indices, the extra layers to the last stages), which
 * _handle_max_mamba_cache also walks for the largest stage's Mamba layers; the rest is the MIN
 * over the ranks (the heaviest stage's weights) and each stage's cells its own layers', so a PP
 * that does not divide the layers follows the same rules. At 001ccef
 * (model_runner_kv_cache_mixin.py, init_memory) each rank caps its running requests from its
 * own token count before the MIN over the stages, and how the scheduler reconciles the stages'
 * caps there (tp_worker.py, not stored at that commit) was not read. */
static gboolean
sglang_stages_followed (const VcInputs *in,
                        double          pp)
{
  return pp == 1 || (in->sglang_version == VC_SGLANG_VERSION_003FCA8 && stage_kinds_known (&in->arch) &&
                     pp > 1 && pp <= in->arch.n_layers);
}

gboolean
vc_engine_state_sglang_followed (const VcInputs *in,
                                 double          tp,
                                 double          pp)
{
  const VcArch *arch = &in->arch;
  double conv, ssm;

  if (vc_arch_state_elements (arch) <= 0)
    return TRUE;
  /* the pool rules read at commit 001ccef or 003fca8, on one pipeline stage, and at 003fca8
   * over several (sglang_stages_followed()), under TP where each rank's share of both parts of
   * the state is known (rank_state: heads and groups split evenly, or Mamba-2's one group
   * repeated); the convolution's share known (its dtype differs from the recurrent state's); no
   * window beside the state (a third pool) */
  return in->engine == VC_ENGINE_SGLANG && in->mode == VC_MODE_INFERENCE &&
         in->method == VC_METHOD_ARCHITECTURE && sglang_stages_followed (in, pp) && arch->recurrent_state > 0 &&
         arch->recurrent_conv > 0 && arch->recurrent_conv < arch->recurrent_state &&
         rank_state (in, tp, &conv, &ssm) &&
         vc_arch_attention_layers (arch) > 0 && !vc_arch_is_mla (arch) &&
         !(arch->sliding_window > 0 && arch->sliding_window_layers > 0);
}

gboolean
vc_engine_state_followed (const VcInputs *in,
                          double          tp,
                          double          pp)
{
  if (in->engine == VC_ENGINE_SGLANG)
    return vc_engine_state_sglang_followed (in, tp, pp);
  return vc_engine_state_vllm_followed (in, tp, pp);
}

/* KVCacheConfigurator at sgl-project/sglang commit 003fca8 (python/sglang/srt/mem_cache/
 * kv_cache_configurator.py): `budget` = the rest × ratio / (1 + ratio) */
static void
sglang_pool_003fca8 (const VcInputs    *in,
                     double             kv_bytes_per_token,
                     double             rest,
                     double             budget,
                     VcSglangStatePool *pool)
{
  double per_req = pool->per_request_bytes;
  double slots, kv_rest, tokens, estimated, reqs;

  /* _handle_max_mamba_cache, ratio-based: max_mamba_cache_size = int((budget − per_req) //
   * per_req), the pool one padding slot more ((K + 1) × per_req, memory_pool.py's padding
   * slot); K <= 0 is refused at start ("Not enough GPU memory for hybrid ... state cache") */
  slots = floor ((budget - per_req) / per_req);
  if (!(slots > 0))
    return;
  pool->state_requests = slots;
  pool->state_bytes = (slots + 1) * per_req;
  /* _profile_available_bytes returns the rest less the pool; DefaultPoolConfigurator
   * (python/sglang/srt/model_executor/pool_configurator.py, the same commit) gives the
   * full-attention layers' cells: usable // cell_size in whole pages; nothing left is refused
   * ("Loaded weights leave no GPU memory for the KV cache") */
  kv_rest = rest - pool->state_bytes;
  if (!(kv_rest > 0))
    {
      pool->state_requests = 0;
      pool->state_bytes = 0;
      return;
    }
  tokens = floor (floor (kv_rest / kv_bytes_per_token) / in->page_size) * in->page_size;
  pool->tokens = tokens;
  /* resolve_max_num_reqs: int(token_capacity / context_len × 512) within [2048, 4096], at most
   * token_capacity // 2, then at most max_mamba_cache_size // ratio (context_len taken as seq,
   * as vLLM's --max-model-len) */
  estimated = MIN (MAX (floor (tokens / in->seq * 512), 2048.0), 4096.0);
  reqs = MIN (estimated, floor (tokens / 2));
  pool->max_running_requests = MIN (reqs, floor (slots / SGLANG_003FCA8_RUNNING_RATIO));
  pool->max_concurrency = MIN (tokens / in->seq, pool->max_running_requests);
}

/* BaseLinearStateParams.mamba_cache_per_req (configs/mamba_utils.py): per layer, the
 * convolution's conv_dim / tp × (kernel − 1) values and the recurrent state's heads / tp × head ×
 * state (rank_state), each in its dtype, times the model's Mamba layers, in @bytes */
static gboolean
sglang_per_request (const VcInputs *in,
                    double          tp,
                    double         *bytes)
{
  double layers = MIN (in->arch.recurrent_layers, in->arch.n_layers), conv, ssm;

  if (layers <= 0 || !rank_state (in, tp, &conv, &ssm))
    return FALSE;
  *bytes = layers * (conv * SGLANG_CONV_BYTES + ssm * SGLANG_SSM_BYTES);
  return TRUE;
}

gboolean
vc_engine_state_sglang_stages (const VcInputs    *in,
                               double             tp,
                               double             layer_bytes,
                               guint              pp,
                               const double      *attention,
                               const double      *mixers,
                               double             rest,
                               VcSglangStatePool *pool)
{
  double layers = MIN (in->arch.recurrent_layers, in->arch.n_layers);
  double all, most_mixers = 0, most_attention = 0;

  *pool = (VcSglangStatePool) { 0 };
  if (vc_arch_state_elements (&in->arch) <= 0 || pp <= 1 || !vc_engine_state_sglang_followed (in, tp, pp) ||
      !(layer_bytes > 0) || !isfinite (layer_bytes) || !isfinite (rest) || !sglang_per_request (in, tp, &all))
    return FALSE;
  for (guint s = 0; s < pp; s++)
    {
      most_mixers = MAX (most_mixers, mixers[s]);
      most_attention = MAX (most_attention, attention[s]);
    }
  /* _handle_max_mamba_cache (kv_cache_configurator.py at 003fca8): pp_layer_scale = the largest
   * stage's Mamba layers (get_pp_indices over every rank) / the model's, stage_per_req =
   * int(mamba_cache_per_req × pp_layer_scale), "so every rank derives the same pool without a
   * collective"; the slots and the rest as on one stage (sglang_pool_003fca8) */
  pool->per_request_bytes = floor (all * (most_mixers / layers));
  if (!(pool->per_request_bytes > 0) || !(most_attention > 0))
    return FALSE;
  /* each stage's DefaultPoolConfigurator counts its own full-attention layers, usable //
   * cell_size in whole pages (a stage of none takes int64 max, has_kv_on_another_pp_stage), and
   * _apply_token_constraints keeps the smallest over the ranks (all_reduce MIN): usable // the
   * largest stage's cell. The rest, the pool and so the running requests (resolve_max_num_reqs,
   * from that smallest count and the same slots) are the same on every rank. */
  rest = MAX (0.0, rest);
  sglang_pool_003fca8 (in, most_attention * layer_bytes, rest,
                       rest * SGLANG_MAMBA_FULL_MEMORY_RATIO / (1 + SGLANG_MAMBA_FULL_MEMORY_RATIO), pool);
  pool->known = TRUE;
  return TRUE;
}

gboolean
vc_engine_state_sglang_pool (const VcInputs    *in,
                             double             tp,
                             double             kv_bytes_per_token,
                             double             rest,
                             VcSglangStatePool *pool)
{
  const VcArch *arch = &in->arch;
  double mamba_raw, kv_rest, tokens, default_reqs;

  *pool = (VcSglangStatePool) { 0 };
  if (vc_arch_state_elements (arch) <= 0 || !vc_engine_state_sglang_followed (in, tp, 1) ||
      !(kv_bytes_per_token > 0) || !isfinite (kv_bytes_per_token) || !isfinite (rest) ||
      !sglang_per_request (in, tp, &pool->per_request_bytes))
    return FALSE;
  /* handle_max_mamba_cache: mamba_state_memory_raw = rest × ratio / (1 + ratio),
   * max_mamba_cache_size = int(that // mamba_cache_per_req), and the rest less the pool goes to
   * the full-attention layers' cells (profile_max_num_token: num_layers = the full-attention
   * layers, rest // cell_size); init_memory_pool keeps whole pages */
  rest = MAX (0.0, rest);
  mamba_raw = rest * SGLANG_MAMBA_FULL_MEMORY_RATIO / (1 + SGLANG_MAMBA_FULL_MEMORY_RATIO);
  if (in->sglang_version == VC_SGLANG_VERSION_003FCA8)
    {
      sglang_pool_003fca8 (in, kv_bytes_per_token, rest, mamba_raw, pool);
      pool->known = TRUE;
      return TRUE;
    }
  pool->state_requests = floor (mamba_raw / pool->per_request_bytes);
  pool->state_bytes = pool->state_requests * pool->per_request_bytes;
  kv_rest = rest - pool->state_bytes;
  tokens = floor (MAX (0.0, kv_rest) / kv_bytes_per_token);
  pool->tokens = floor (tokens / in->page_size) * in->page_size;
  /* init_memory: max_running_requests, when not given, min(max(int(max_total_num_tokens /
   * context_len × 512), 2048), 4096) (context_len taken as seq, as vLLM's --max-model-len), then
   * at most max_mamba_cache_size // 3 */
  default_reqs = MIN (MAX (floor (tokens / in->seq * 512), 2048.0), 4096.0);
  pool->max_running_requests = MIN (default_reqs, floor (pool->state_requests / SGLANG_MAMBA_RUNNING_RATIO));
  pool->max_concurrency = MIN (pool->tokens / in->seq, pool->max_running_requests);
  pool->known = TRUE;
  return TRUE;
}
