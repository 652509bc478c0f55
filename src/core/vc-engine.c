/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-engine.c: engine reservations and KV-cache capacity. The arithmetic, and the engine source
 * each part follows, are in FORMULAS.md ("Engines"). */
#define G_LOG_DOMAIN "vc-engine"

#include "config.h"

#include <math.h>
#include <string.h>

#include "vc-engine.h"
#include "vc-engine-comm.h"
#include "vc-engine-mm.h"
#include "vc-engine-state.h"
#include "vc-layout.h"

/* llama.cpp pads each sequence's context to 256 cells (src/llama-context.cpp:
 * cparams.n_ctx = GGML_PAD(cparams.n_ctx, 256), and n_ctx_seq likewise) */
#define LLAMA_CPP_CTX_PAD 256

/* python/sglang/srt/server_args.py: ServerArgs.swa_full_tokens_ratio, the sliding-window pool's
 * tokens for each token of the full pool */
#define SGLANG_SWA_FULL_TOKENS_RATIO 0.8

#define GIB 1073741824.0
#define MIB 1048576.0

/* vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults (the usage context of `vllm serve`):
 * a device of 70 GiB or more (torch's total, current_platform.get_device_total_memory(), of
 * device 0) whose name has no "a100" gets 8192 batched tokens and 1024 sequences, any other 2048
 * and 256; _set_default_max_num_seqs_and_batched_tokens_args then caps max_num_seqs at
 * max_num_batched_tokens. From 0.12 (pull request #28665, commit 511a6b611) the default
 * batched tokens are first capped at max_num_seqs (given, or the default) × max_model_len:
 * followed for --engine-version 0.14 and later; 0.11.x has no such cap. */
void
vc_engine_vllm_batch (const VcInputs *in,
                      const VcGpu    *gpu,
                      guint          *tokens,
                      guint          *seqs)
{
  gboolean large = TRUE;
  guint default_seqs;

  if (gpu != NULL)
    {
      g_autofree char *name = g_ascii_strdown (gpu->name ? gpu->name : "", -1);
      g_autofree char *id = g_ascii_strdown (gpu->id ? gpu->id : "", -1);

      large = vc_engine_gpu_capacity (in, gpu) >= 70 * GIB && strstr (name, "a100") == NULL && strstr (id, "a100") == NULL;
    }
  default_seqs = large ? 1024u : 256u;
  *tokens = in->max_num_batched_tokens > 0 ? in->max_num_batched_tokens : large ? 8192 : 2048;
  if (in->max_num_batched_tokens == 0 && vc_engine_vllm_minor (in) >= 14)
    *tokens = (guint) MIN ((guint64) *tokens,
                           (guint64) (in->max_num_seqs > 0 ? in->max_num_seqs : default_seqs) * MAX (1u, in->seq));
  *seqs = in->max_num_seqs > 0 ? in->max_num_seqs : MIN (default_seqs, *tokens);
}

/* vLLM's KV-cache block on @gpu: for a model with MLA (and no state layers, whose block
 * HybridAttentionMambaModelConfig sets) on a card of compute capability 9.x, vLLM's platform
 * picks FlashMLA and forces blocks of 64 tokens unless --block-size is a multiple of 64
 * (vllm/platforms/cuda.py, CudaPlatform.check_and_update_config: "Forcing kv cache block size
 * to 64 for FlashMLA backend", is_flashmla_dense_supported being Hopper's alone in
 * vllm/attention/ops/flashmla.py); elsewhere the block as given (FORMULAS.md) */
static guint
vllm_block_size (const VcInputs *in,
                 const VcGpu    *gpu)
{
  if (gpu == NULL || in->engine != VC_ENGINE_VLLM || !vc_arch_is_mla (&in->arch) ||
      vc_arch_state_elements (&in->arch) > 0 || gpu->cc_major != 9 || in->block_size % 64 == 0)
    return in->block_size;
  return 64;
}

/* What vLLM's figures on @gpu take from the card, into @out: its block (vllm_block_size()), its
 * SM count and its compute capability (kept as @in has them without a card) */
static void
vllm_card_fields (const VcInputs *in,
                  const VcGpu    *gpu,
                  VcInputs       *out)
{
  out->block_size = vllm_block_size (in, gpu);
  out->gpu_sm_count = gpu != NULL ? gpu->sm_count : 0;
  if (gpu != NULL && in->engine == VC_ENGINE_VLLM)
    out->vllm_card_cc = gpu->cc_major * 10 + gpu->cc_minor;
}

/* @inputs with vLLM's block on @gpu (vllm_block_size()), its SM count (the Triton sampler's
 * buffer, vc_estimator_vllm_triton_buffer()) and its compute capability (vllm_card_cc: which
 * experts class FP8 MoE takes, vc-estimator.c), in @copy where they differ */
static const VcInputs *
vllm_block_on (const VcInputs *inputs,
               const VcGpu    *gpu,
               VcInputs       *copy)
{
  VcInputs on = *inputs;

  vllm_card_fields (inputs, gpu, &on);
  if (on.block_size == inputs->block_size && on.gpu_sm_count == inputs->gpu_sm_count &&
      on.vllm_card_cc == inputs->vllm_card_cc)
    return inputs;
  *copy = on;
  return copy;
}

/* The inputs as vLLM runs them with @gpu as its device 0: the batch of its profile run made
 * explicit, as given or that card's defaults (vc_engine_vllm_batch()). One scheduler
 * configuration serves every rank, taken from device 0 by EngineArgs.get_batch_defaults; every
 * figure of a card (its fit, its layouts, its cache, the solver's answers on it) and of a set
 * (its first card's) is computed from these inputs. @out may be @in. */
void
vc_engine_on_card (const VcInputs *in,
                   const VcGpu    *gpu,
                   VcInputs       *out)
{
  guint tokens, seqs;

  if (out != in)
    *out = *in;
  if (gpu == NULL || in->mode != VC_MODE_INFERENCE || in->engine != VC_ENGINE_VLLM)
    return;
  vc_engine_vllm_batch (in, gpu, &tokens, &seqs);
  vllm_card_fields (in, gpu, out);
  out->max_num_batched_tokens = tokens;
  out->max_num_seqs = seqs;
}

/* Whether vLLM serves MXFP4 experts with Marlin on @gpu (FORMULAS.md, "vLLM's MXFP4 experts"):
 * on 8.x always, Marlin being the only CUDA backend get_mxfp4_backend has there; from 9.0 on
 * only with --mxfp4-backend marlin (VLLM_MXFP4_USE_MARLIN=1), which get_mxfp4_backend (stored
 * commit 007d500) honours on 9.0 and 11.x/12.x but, on 10.x, only after FlashInfer's backends
 * (taken whenever FlashInfer is installed), and which the kernel oracle of pull request #37128
 * (select_mxfp4_moe_backend in vllm/model_executor/layers/fused_moe/oracle/mxfp4.py, stored
 * commit 001eda3) honours ahead of every automatic choice: on 10.x Marlin is known only for
 * --engine-version 0.21, whose releases all have the oracle. MarlinExpertsBase runs on any CUDA
 * card of capability 8.0 or more. A card of unknown capability: not known. */
static gboolean
vllm_marlin_on (const VcInputs *in,
                const VcGpu    *gpu)
{
  if (gpu == NULL || gpu->cc_major < 8)
    return FALSE;
  if (gpu->cc_major == 8)
    return TRUE;
  if (in->mxfp4_backend != VC_MXFP4_BACKEND_MARLIN)
    return FALSE;
  return gpu->cc_major != 10 || in->vllm_version == VC_VLLM_VERSION_0_21;
}

/* Whether vLLM serves MXFP4 experts with Triton's kernels on @gpu, as followed here: on compute
 * capability 9.x, where get_mxfp4_backend (stored commit 007d500) takes them, FlashInfer's SM90
 * backend aside, whenever triton_kernels imports ((9, 0) <= capability < (11, 0)), as the kernel
 * oracle of pull request #37128 does after FlashInfer's TRT-LLM experts (compute capability
 * family 100 only: TrtLlmMxfp4ExpertsBase._supports_current_device) and AITER's (ROCm). With
 * --mxfp4-backend triton; and with auto from release 0.14 (--engine-version 0.14, 0.17, 0.21),
 * whose wheels carry triton_kernels (pull request #28788 copies it into
 * vllm/third_party/triton_kernels, which has_triton_kernels finds; vLLM 0.14.1's log "Using
 * Triton backend" on an H100, issue #33155; 0.19.0's "Using 'TRITON' Mxfp4 MoE backend",
 * llm-d-planner pull request #205): before, the package was the machine's (0.10.1 on an H100
 * without it took Marlin, issue #23278). On 10.x FlashInfer's backends come first and Triton's
 * Blackwell layouts are not followed. Not with expert parallelism, which changes the swizzle's
 * warps (num_warps 4 or 8 by VLLM_MOE_DP_CHUNK_SIZE). */
static gboolean
vllm_triton_on (const VcInputs *in,
                const VcGpu    *gpu)
{
  gboolean chosen = in->mxfp4_backend == VC_MXFP4_BACKEND_TRITON ||
                    (in->mxfp4_backend == VC_MXFP4_BACKEND_AUTO && vc_engine_vllm_minor (in) >= 14);

  return gpu != NULL && gpu->cc_major == 9 && chosen && in->layout.ep <= 1;
}

/* The bytes Triton's backend allocates for one expert on one rank (FORMULAS.md, "vLLM's MXFP4
 * experts"): Mxfp4MoEMethod.create_weights rounds the rank's intermediate size up to 64 and
 * keeps the hidden size; process_weights_after_loading then turns the biases to fp32, swizzles
 * the packed weights into triton_kernels' HopperMXValueLayout (a permutation, (M, K) to
 * (M / 4, K × 4), no padding) and the scales into HopperMXScaleLayout (rows padded to
 * 2 × num_warps × 2 × 8 = 256, columns to 2: swizzle_data), deletes the unswizzled weights but
 * keeps the unswizzled scales (layer.w13_weight_scale, layer.w2_weight_scale). */
static double
vllm_triton_expert_bytes (double inter_pad,
                          double h)
{
  double values_and_scales = 3 * inter_pad * h * 17.0 / 32.0;
  double biases = 4.0 * (2 * inter_pad + h);
  double swizzled_w13 = ceil (2 * inter_pad / 256) * 256 * ceil (h / 32 / 2) * 2;
  double swizzled_w2 = ceil (h / 256) * 256 * ceil (inter_pad / 32 / 2) * 2;

  return values_and_scales + biases + swizzled_w13 + swizzled_w2;
}

/* vLLM's MXFP4 routed experts on @gpu, one of @tp tensor-parallel ranks (FORMULAS.md, "vLLM's
 * MXFP4 experts"): the bytes a rank allocates beyond its share of the checkpoint's, in @extra
 * (0 where the estimate is not vLLM serving MXFP4 experts). Mxfp4MoEMethod.create_weights
 * (vllm/model_executor/layers/quantization/mxfp4.py) allocates w13 (E × 2I' × H'/2 bytes and
 * E × 2I' × H'/32 E8M0 scales), w2 (E × H' × I'/2 and E × H' × I'/32) and bf16 biases
 * E × 2I' and E × H', I' and H' padded by the backend: get_mxfp4_backend (stored commit 007d500)
 * gives Marlin on CUDA below compute capability 9, which rounds the rank's intermediate size
 * I/TP up to 128 and the hidden size up to 256 (the Marlin kernel wants n % 256 and k % 128).
 * Mxfp4Config.get_min_capability is 80: vLLM refuses MXFP4 below 8.0. From 9.0 on the backend
 * (Triton, FlashInfer's, or Marlin again) depends on the kernels installed and the release:
 * followed where Triton's layout is known (vllm_triton_on(): 9.x from release 0.14, or
 * --mxfp4-backend triton) or --mxfp4-backend marlin forces Marlin (vllm_marlin_on()); FALSE
 * elsewhere, as for a card whose capability is unknown. */
gboolean
vc_engine_vllm_mxfp4_extra (const VcInputs *in,
                            const VcGpu    *gpu,
                            double          tp,
                            double         *extra)
{
  const VcArch *arch = &in->arch;
  double e, h, inter, inter_pad, hidden_pad, layers, stored, allocated;

  *extra = 0;
  /* a GGUF's experts go through GGUFMoEMethod (GGUFConfig.get_quant_method), as stored */
  if (in->mode != VC_MODE_INFERENCE || in->engine != VC_ENGINE_VLLM || in->method != VC_METHOD_ARCHITECTURE ||
      in->precision != VC_PRECISION_MXFP4 || !vc_arch_is_moe (arch) || in->llama_cpp)
    return TRUE;
  if ((!vllm_marlin_on (in, gpu) && !vllm_triton_on (in, gpu)) || !arch->gated_mlp || !(tp >= 1))
    return FALSE;
  e = arch->n_experts;
  h = arch->hidden_size;
  inter = arch->expert_intermediate_size ? arch->expert_intermediate_size : arch->intermediate_size;
  /* FusedMoE divides the intermediate size by TP with divide(), which asserts */
  if (fmod (inter, tp) != 0)
    return FALSE;
  layers = arch->n_layers - MIN (arch->dense_layers, arch->n_layers);
  /* the estimate's share of one rank: 17 bytes for 32 weights, the biases in 16 bits where the
   * model has them (vc-quant.c) */
  stored = e * (3 * inter * h * 17.0 / 32.0 + (arch->mlp_bias ? 2.0 * (2 * inter + h) : 0)) / tp;
  if (!vllm_marlin_on (in, gpu))
    {
      /* Triton's scales come in groups of 32 along both sizes (fmod: the swizzle's shapes) */
      inter_pad = ceil (inter / tp / 64) * 64;
      if (fmod (h, 32) != 0)
        return FALSE;
      *extra = layers * MAX (0.0, e * vllm_triton_expert_bytes (inter_pad, h) - stored);
      return TRUE;
    }
  inter_pad = ceil (inter / tp / 128) * 128;
  hidden_pad = ceil (h / 256) * 256;
  allocated = e * (3 * inter_pad * hidden_pad * 17.0 / 32.0 + 2.0 * (2 * inter_pad + hidden_pad));
  *extra = layers * MAX (0.0, allocated - stored);
  return TRUE;
}

/* Whether vLLM refuses the inputs' MXFP4 experts on @gpu: VllmConfig._get_quantization_config
 * (vllm/config/vllm.py) raises "The quantization method mxfp4 is not supported for the current
 * GPU. Minimum capability: 80" when the card's compute capability is below
 * Mxfp4Config.get_min_capability() (80, vllm/model_executor/layers/quantization/mxfp4.py):
 * vLLM does not start there, whatever the memory. FALSE on a card of unknown capability. */
gboolean
vc_engine_vllm_mxfp4_refused (const VcInputs *in,
                              const VcGpu    *gpu)
{
  return in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_VLLM && in->method == VC_METHOD_ARCHITECTURE &&
         in->precision == VC_PRECISION_MXFP4 && vc_arch_is_moe (&in->arch) &&
         gpu != NULL && gpu->cc_major > 0 && gpu->cc_major < 8;
}

/* Whether vLLM serves MXFP4 experts on @gpu at @tp ranks with a backend not followed here
 * (vc_engine_vllm_mxfp4_extra() FALSE: 9.0 and later, unknown capability, below 8.0): what
 * counts the experts there counts them as stored */
gboolean
vc_engine_vllm_experts_as_stored (const VcInputs *in,
                                  const VcGpu    *gpu,
                                  double          tp)
{
  double padding;

  return !vc_engine_vllm_mxfp4_extra (in, gpu, tp, &padding);
}

/* The first minor release of 0.x that --engine-version stands for: 10, 11, 14, 17 or 21 (the
 * enumeration's values keep the order they were added in) */
guint
vc_engine_vllm_minor (const VcInputs *in)
{
  switch (in->vllm_version)
    {
    case VC_VLLM_VERSION_0_10: return 10;
    case VC_VLLM_VERSION_0_14: return 14;
    case VC_VLLM_VERSION_0_17: return 17;
    case VC_VLLM_VERSION_0_21: return 21;
    case VC_VLLM_VERSION_0_11:
    default: return 11;
    }
}

/* Whether vLLM's release sizes its cache by arithmetic followed here, on `n_gpus` GPUs a model
 * (FORMULAS.md, "vLLM's releases"): 0.21 and later subtract the CUDA graphs they measure on the
 * card unless --enforce-eager leaves none or --kv-cache-memory gives the cache; before 0.11 (pull request #25359) NCCL's buffers,
 * set up after the memory snapshot, come out of the cache whenever a model spans several GPUs.
 * Any other engine: TRUE. */
gboolean
vc_engine_vllm_version_sized (const VcInputs *in,
                              double          n_gpus)
{
  if (in->engine != VC_ENGINE_VLLM)
    return TRUE;
  switch (in->vllm_version)
    {
    case VC_VLLM_VERSION_0_21:
      /* --kv-cache-memory returns before the graphs are measured */
      return in->enforce_eager || in->kv_cache_memory_gb > 0;
    case VC_VLLM_VERSION_0_10:
      return n_gpus <= 1;
    case VC_VLLM_VERSION_0_11:
    case VC_VLLM_VERSION_0_14:
    case VC_VLLM_VERSION_0_17:
    default:
      return TRUE;
    }
}

/* python/sglang/srt/server_args.py, ServerArgs._handle_gpu_memory_settings (CUDA devices):
 * the card's memory gpu_mem (MiB, as nvidia-smi reports it) sets chunked_prefill_size and
 * cuda_graph_max_bs, and they the memory kept out of the static pool: reserved = 512 +
 * max(chunked_prefill_size, 2048) × 1.5 + cuda_graph_max_bs × 2 + tp × pp / 8 × 1024 MiB, at
 * least 10 GiB above 60 GiB; mem_fraction_static = round((gpu_mem − reserved) / gpu_mem, 3).
 * For a multimodal model (configs/model_config.py, is_multimodal: its class in
 * multimodal_model_archs and multimodal not turned off, as it is by default for the Gemma 3 and
 * Llama 4 classes, mm_disabled_models) it then calls adjust_mem_fraction_for_vlm: the fraction
 * times 0.95 × clamp(1 − 0.1 × (L·w² / (24 × 1024²) − 1), 0.8, 1.05), L and w the
 * vision_config's num_hidden_layers and hidden_size as its getattr reads them, 24 and 1,024 where
 * the config has none (Qwen3-VL's vision_config says depth: 24), unrounded
 * (vc_engine_sglang_vlm_factor).
 * Speculative decoding and DP attention are not followed. */
double
vc_engine_sglang_vlm_factor (const VcArch *arch)
{
  double ratio, adjust;

  if (arch->sglang_multimodal_off || arch->encoder_layers == 0 || arch->encoder_width == 0)
    return 1;
  ratio = (double) arch->encoder_layers * arch->encoder_width * arch->encoder_width / (24.0 * 1024 * 1024);
  adjust = CLAMP (1.0 - 0.1 * (ratio - 1.0), 0.8, 1.05);
  return 0.95 * adjust;
}

double
vc_engine_sglang_fraction (const VcInputs *in,
                           double          gpu_mem,
                           double          tp)
{
  double chunk, graph_bs, reserved;

  if (in->mem_fraction_static > 0)
    return in->mem_fraction_static;
  if (gpu_mem < 20 * 1024)
    chunk = 2048, graph_bs = 8;
  else if (gpu_mem < 35 * 1024)
    chunk = 2048, graph_bs = tp < 4 ? 24 : 80;
  else if (gpu_mem < 60 * 1024)
    chunk = 4096, graph_bs = tp < 4 ? 32 : 160;
  else if (gpu_mem < 160 * 1024)
    chunk = 8192, graph_bs = tp < 4 ? 256 : 512;
  else
    chunk = 16384, graph_bs = 512;
  reserved = 512 + MAX (chunk, 2048) * 1.5 + graph_bs * 2 + tp * MAX (1u, in->layout.pp) / 8.0 * 1024;
  if (gpu_mem > 60 * 1024)
    reserved = MAX (reserved, 10 * 1024);
  return round ((gpu_mem - reserved) / gpu_mem * 1000) / 1000 * vc_engine_sglang_vlm_factor (&in->arch);
}

/* vLLM sizes its request from torch's total (MemorySnapshot.total_memory, from
 * torch.cuda.mem_get_info) and SGLang its pool from the free memory torch reports: both see the
 * total CUDA reports, less than nvidia-smi's, where the catalog knows it. */
double
vc_engine_gpu_capacity (const VcInputs *in,
                        const VcGpu    *gpu)
{
  if (in->mode == VC_MODE_INFERENCE && (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG) &&
      gpu->cuda_mib > 0)
    return gpu->cuda_mib * MIB;
  return gpu->capacity_bytes;
}

/* vLLM with --kv-cache-memory: each GPU allocates the cache given (kv_cache_memory_bytes),
 * whatever the requests hold of it, and holds the requests only where they fit in it in whole
 * blocks (vc_engine_context_tokens(): @cache, the requests' cache and state on a GPU, is then
 * whole blocks), as vLLM refuses a max_model_len beyond it
 * (vllm/v1/core/kv_cache_utils.py, check_enough_kv_cache_memory). What the GPU holds beyond
 * @cache, in @extra; FALSE where @cache exceeds the cache given. TRUE with 0 elsewhere. */
gboolean
vc_engine_vllm_given_cache (const VcInputs *in,
                            double          cache,
                            double         *extra)
{
  double given = in->kv_cache_memory_gb * 1e9;

  *extra = 0;
  if (in->engine != VC_ENGINE_VLLM || in->mode != VC_MODE_INFERENCE || in->method != VC_METHOD_ARCHITECTURE ||
      !(in->kv_cache_memory_gb > 0))
    return TRUE;
  if (cache > given)
    return FALSE;
  *extra = given - cache;
  return TRUE;
}

/* What of one GPU the engine lets the model, its cache and its activations use: vLLM requests
 * gpu_memory_utilization of the total, the CUDA context outside the request; SGLang's
 * mem_fraction_static applies to the memory left
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
      /* a --kv-cache-memory given "does not respect the gpu_memory_utilization config"; else
       * the request, with the CUDA context beside it (it is in the snapshot the request is
       * taken from, in the share left out) */
      if (in->kv_cache_memory_gb > 0)
        return capacity;
      return in->memory_fraction * capacity + MIN (overhead, (1 - in->memory_fraction) * capacity);
    case VC_ENGINE_SGLANG:
      {
        double f = vc_engine_sglang_fraction (in, capacity / 1048576.0, MAX (1u, in->layout.tp));
        double comm = vc_engine_comm_pool_bytes (in, MAX (1u, in->layout.tp));

        return f * MAX (0.0, capacity - overhead - comm) + MIN (capacity, overhead);
      }
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

/* A cache type as Ollama would be asked for it: a 16-bit precision left to the cache type's
 * default is its f16, any other llama.cpp's name */
const char *
vc_engine_ollama_cache_name (VcCacheType type,
                             VcPrecision kv_precision)
{
  if (type == VC_CACHE_TYPE_AUTO && (kv_precision == VC_PRECISION_BF16 || kv_precision == VC_PRECISION_FP16))
    return "f16";
  return vc_engine_cache_type_name (type, kv_precision);
}

/* The KV cache type Ollama runs for @in, or NULL where it cannot be told it:
 * OLLAMA_KV_CACHE_TYPE sets keys and values alike, and Ollama's kvCacheTypeFromStr
 * (llama/llama.go) knows q8_0 and q4_0 and takes f16 for anything else */
const char *
vc_engine_ollama_kv_type (const VcInputs *in)
{
  const char *k = vc_engine_ollama_cache_name (in->cache_type_k, in->kv_precision);
  static const char *const served[] = { "f16", "q8_0", "q4_0", NULL };

  if (k == NULL || g_strcmp0 (k, vc_engine_ollama_cache_name (in->cache_type_v, in->kv_precision)) != 0 ||
      !g_strv_contains (served, k))
    return NULL;
  return k;
}

/* Whether vLLM's or SGLang's KV cache of @in's precision is followed: 16 bits (the model's own
 * dtype, "auto", or vLLM's "bfloat16" beside fp32 weights, vllm/config/cache.py CacheDType from
 * commit fa7e254a7), fp8, or fp32 as an fp32 model's own (neither has a "float32" cache dtype).
 * Their quantized caches of other kinds (vLLM's int8_per_token_head of pull request #38378 and
 * nvfp4, SGLang's fp4_e2m1) are laid out otherwise than the int8 and int4 sized here, which are
 * llama.cpp's q8_0 and q4_0. */
gboolean
vc_engine_kv_dtype_served (const VcInputs *in)
{
  switch (in->kv_precision)
    {
    case VC_PRECISION_BF16:
    case VC_PRECISION_FP16:
    case VC_PRECISION_FP8:
      return TRUE;
    case VC_PRECISION_FP32:
      return in->precision == VC_PRECISION_FP32;
    default:
      return FALSE;
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
  /* vLLM's paged cache gives a request whole blocks, cdiv(seq, block) of them: what it checks
   * max_model_len against (vllm/v1/kv_cache_interface.py, FullAttentionSpec.max_memory_usage_bytes:
   * cdiv(max_model_len, block_size) × page_size_bytes), in the block of the inputs (the card's
   * once vc_engine_on_card() set it: FlashMLA's 64 tokens for an MLA model on Hopper); not where
   * state layers raise it (vc-engine-state.c): there the estimate counts the tokens alone. The
   * engine's figures read a token's bytes from an estimate at the block of the inputs it was
   * made from, not at the card's (vllm_block_on()). SGLang's paged allocator
   * likewise gives a request whole pages (python/sglang/srt/mem_cache/allocator.py, alloc_extend:
   * get_num_new_pages). */
  if (in->mode == VC_MODE_INFERENCE && in->method == VC_METHOD_ARCHITECTURE && vc_arch_state_elements (&in->arch) <= 0 &&
      (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG))
    {
      guint64 unit = MAX (1u, vc_engine_page_tokens (in));

      return (guint) ((in->seq + unit - 1) / unit * unit);
    }
  return in->seq;
}

/* The tokens of one block of vLLM's cache (--block-size) or one page of SGLang's (--page-size) */
guint
vc_engine_page_tokens (const VcInputs *in)
{
  return in->engine == VC_ENGINE_SGLANG ? in->page_size : in->block_size;
}

/* The requests of in->seq tokens that @tokens (whole blocks or pages) hold, each taking
 * cdiv(seq, block) of them: vLLM's "Maximum concurrency for N tokens per request"
 * (vllm/v1/core/kv_cache_utils.py at commit 001cabc, get_max_concurrency_for_kv_cache_config:
 * num_blocks / cdiv(max_model_len, block_size)), for a cache of one group of every layer;
 * SGLang's pages alike */
double
vc_engine_paged_requests (const VcInputs *in,
                          double          tokens)
{
  double unit = MAX (1u, vc_engine_page_tokens (in));

  return floor (tokens / unit) / ceil ((double) in->seq / unit);
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
  /* a card known by its memory alone */
  VcGpu gpu = { .id = (char *) "", .name = (char *) "", .capacity_bytes = capacity,
                .memory_mib = capacity / MIB };

  vc_engine_kv_capacity_on (in, res, sc, &gpu, n, out);
}

/* vLLM's cache for a model with both full and sliding-window attention layers: the tokens it
 * logs and the requests of in->seq tokens it holds in @available bytes. */
static void
vllm_hybrid_capacity (const VcInputs *in,
                      double          attention,
                      double          sliding,
                      double          per_token,
                      guint           batch_tokens,
                      double          available,
                      double         *tokens,
                      double         *max_concurrency)
{
  const VcArch *arch = &in->arch;

  /* The hybrid allocator (vllm/v1/core/kv_cache_utils.py at commit 001cabc):
   * _get_kv_cache_groups_uniform_page_size groups the full and the sliding-window
   * layers in groups of group_size layers, the smaller count of the two (the larger
   * when it is under 1.5 times the smaller), the last group of a kind padded;
   * get_kv_cache_config_from_groups makes group_size tensors each shared by one layer
   * of every group, so get_num_blocks = available // page // group_size, page = block
   * × a layer's bytes of a token; _report_kv_cache_config logs num_blocks // groups ×
   * block tokens. A request takes cdiv(seq, block) blocks in each full group and, in
   * each sliding one, cdiv(min(window − 1 + max_num_batched_tokens, seq), block) + 1
   * (kv_cache_interface.py, SlidingWindowSpec.max_memory_usage_bytes). */
  double full = attention - sliding;
  double lo = MIN (full, sliding), hi = MAX (full, sliding);
  double group_size = hi < lo * 1.5 ? hi : lo;
  double full_groups = ceil (full / group_size), sliding_groups = ceil (sliding / group_size);
  double page = in->block_size * per_token / attention;
  double blocks = floor (floor (available / page) / group_size);
  double window_tokens = MIN ((double) arch->sliding_window - 1 + batch_tokens, (double) in->seq);
  double per_request = full_groups * ceil ((double) in->seq / in->block_size) +
                       sliding_groups * (ceil (window_tokens / in->block_size) + 1);

  *tokens = floor (blocks / (full_groups + sliding_groups)) * in->block_size;
  *max_concurrency = blocks / per_request;
}

/* vLLM's blocks in @available bytes for a model without state layers, a token taking
 * @per_token bytes over its @attention layers on one GPU, @sliding of them windowed: the
 * tokens it logs and the requests of in->seq tokens it holds */
static void
vllm_blocks_capacity (const VcInputs *in,
                      double          attention,
                      double          sliding,
                      double          per_token,
                      guint           batch_tokens,
                      double          available,
                      double         *tokens,
                      double         *max_concurrency)
{
  /* one group of every layer; a request of seq tokens takes cdiv(seq, block) blocks
   * (get_max_concurrency_for_kv_cache_config), or with every layer windowed those of
   * its window (below) */
  double blocks = floor (available / (in->block_size * per_token));
  double window_tokens = MIN ((double) in->arch.sliding_window - 1 + batch_tokens, (double) in->seq);

  if (sliding > 0 && sliding < attention)
    {
      vllm_hybrid_capacity (in, attention, sliding, per_token, batch_tokens, available, tokens, max_concurrency);
      return;
    }
  *tokens = blocks * in->block_size;
  *max_concurrency = blocks / (sliding > 0 ? ceil (window_tokens / in->block_size) + 1
                                           : ceil ((double) in->seq / in->block_size));
}

/* SGLang's full-attention pool of a model with sliding-window layers beside full ones, in
 * @rest bytes, one layer's token taking @layer bytes, before the page alignment. At commit
 * 003fca8 (python/sglang/srt/model_executor/pool_configurator.py, HybridSWAPoolConfigurator):
 * rest // (full × F + ratio × sliding × S). At commit 001ccef
 * (model_runner_kv_cache_mixin.py): profile_max_num_token first takes max_total_num_tokens =
 * rest // (full × F + sliding × S), init_memory keeps it in whole pages, and
 * set_num_tokens_hybrid_swa then int(max_total_num_tokens × (full × F + sliding × S) / (full × F +
 * ratio × sliding × S)): the same share, rounded twice */
static double
sglang_swa_full_tokens (const VcInputs *in,
                        double          rest,
                        double          layer,
                        double          full,
                        double          sliding)
{
  double denominator = layer * (full + SGLANG_SWA_FULL_TOKENS_RATIO * sliding);
  double every = layer * (full + sliding);

  if (!(rest > 0))
    return 0;
  /* init_memory aligns max_total_num_tokens to whole pages before set_num_tokens_hybrid_swa */
  if (in->sglang_version == VC_SGLANG_VERSION_001CCEF)
    return floor (floor (floor (rest / every) / in->page_size) * in->page_size * every / denominator);
  return floor (rest / denominator);
}

/* SGLang's sliding-window pool, int(full tokens × ratio) in whole pages: at commit 001ccef
 * (set_num_tokens_hybrid_swa) from the full tokens before their page alignment, at commit
 * 003fca8 (HybridSWAPoolConfigurator) from the aligned full pool */
static double
sglang_swa_tokens (const VcInputs *in,
                   double          full_unaligned,
                   double          full_aligned)
{
  double from = in->sglang_version == VC_SGLANG_VERSION_001CCEF ? full_unaligned : full_aligned;

  return floor (floor (from * SGLANG_SWA_FULL_TOKENS_RATIO) / in->page_size) * in->page_size;
}

/* SGLang's pool on one card of @capacity bytes: the tokens it holds and the requests of in->seq
 * tokens, and with recurrent state its Mamba pool, in @out */
static gboolean
sglang_capacity (const VcInputs *in,
                 const VcGpu    *gpu,
                 double          n,
                 double          capacity,
                 double          overhead,
                 double          weights,
                 double          per_token,
                 double          attention,
                 double          sliding,
                 gboolean        hybrid,
                 VcKvCapacity   *out)
{
  const VcArch *arch = &in->arch;
  double tokens, max_concurrency;

  /* sglang model_runner profile_max_num_token: rest_memory = available after loading the
   * weights − total × (1 − mem_fraction_static), total being the memory free after the CUDA
   * context and the tensor-parallel groups (their custom all-reduce: vc-engine-comm.c);
   * max_num_token = rest_memory // cell_size; init_memory_pool keeps whole pages:
   * max_total_num_tokens // page_size × page_size */
  double total = capacity - overhead - vc_engine_comm_pool_bytes (in, n);
  double gpu_mib = gpu->memory_mib > 0 ? gpu->memory_mib : capacity / MIB;
  double rest = vc_engine_sglang_fraction (in, gpu_mib, n) * total - weights;

  if (vc_arch_state_elements (arch) > 0)
    {
      /* the Mamba pool first, the full-attention cells from what it leaves (vc-engine-state.c) */
      VcSglangStatePool pool;

      if (!vc_engine_state_sglang_pool (in, n, per_token, rest, &pool))
        return FALSE;
      tokens = pool.tokens;
      max_concurrency = pool.max_concurrency;
      out->state_request_bytes = pool.per_request_bytes;
      out->state_requests = pool.state_requests;
    }
  else if (!hybrid)
    {
      tokens = rest > 0 ? floor (floor (rest / per_token) / in->page_size) * in->page_size : 0;
      max_concurrency = vc_engine_paged_requests (in, tokens);
    }
  else
    {
      /* python/sglang/srt/model_executor/pool_configurator.py, HybridSWAPoolConfigurator:
       * a full pool for the full-attention layers and a sliding-window pool of
       * swa_full_tokens_ratio (0.8 by default, server_args.py) as many tokens for the
       * others; cell_size = full × F + ratio × sliding × S bytes, max_total_num_tokens =
       * available // cell_size, full_tokens = that in whole pages, swa_tokens =
       * int(full_tokens × ratio) in whole pages; a pool that cannot hold the window and a
       * page is refused ("SWA pool ... cannot hold even one request") */
      double layer = per_token / attention;
      double full = attention - sliding;
      double max_total = sglang_swa_full_tokens (in, rest, layer, full, sliding);
      double swa_tokens;

      tokens = floor (max_total / in->page_size) * in->page_size;
      swa_tokens = sglang_swa_tokens (in, max_total, tokens);
      if ((double) arch->sliding_window + in->page_size >= swa_tokens)
        tokens = 0, max_concurrency = 0;
      else
        /* each request: seq tokens in the full pool, its window in the sliding one */
        max_concurrency = MIN (tokens / in->seq, swa_tokens / MIN ((double) in->seq,
                                                                    (double) arch->sliding_window + in->page_size));
    }
  out->tokens = tokens;
  out->max_concurrency = max_concurrency;
  return TRUE;
}

static gboolean
rope_table_engine (const VcInputs *in)
{
  return in->mode == VC_MODE_INFERENCE && in->method == VC_METHOD_ARCHITECTURE &&
         (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG);
}

/* The rows and width of the engine's RoPE tables on each GPU (FORMULAS.md, "vLLM's and SGLang's
 * RoPE tables"): as the config reader derived them, or, for an architecture typed in
 * (VC_ROPE_TABLE_NOT_GIVEN), what vLLM and SGLang build for a Llama-shaped model: LlamaAttention
 * (vllm/model_executor/models/llama.py, python/sglang/srt/models/llama.py) calls get_rope with
 * rotary_dim = head_dim and max_position = config.max_position_embeddings, one plain
 * RotaryEmbedding of max_position rows. The rows are --rope-table-rows where given, else the
 * maximum context (--max-context); the width --rotary-dim where given, else the head dimension
 * (MLA: qk_rope_head_dim). Learned positions and models without attention have none. FALSE with
 * *rows 0 where the typed-in model names neither rows nor context. */
gboolean
vc_engine_rope_table_shape (const VcInputs *in,
                            guint          *rows,
                            guint          *dim)
{
  const VcArch *arch = &in->arch;

  *rows = arch->rope_table_rows;
  *dim = arch->rotary_dim;
  if (arch->rope_table_kind != VC_ROPE_TABLE_NOT_GIVEN)
    return TRUE;
  if (arch->max_positions > 0 || vc_arch_attention_layers (arch) == 0)
    {
      *rows = *dim = 0;
      return TRUE;
    }
  if (*dim == 0)
    *dim = vc_arch_is_mla (arch) ? arch->qk_rope_head_dim : vc_arch_head_dim (arch);
  if (*rows == 0)
    *rows = arch->max_context;
  return *rows > 0 || *dim == 0;
}

/* Whether the table is the one vc_engine_rope_table_shape() takes for a typed-in architecture,
 * which the estimate's warnings name */
gboolean
vc_engine_rope_table_assumed (const VcInputs *in)
{
  guint rows, dim;

  return rope_table_engine (in) && in->arch.rope_table_kind == VC_ROPE_TABLE_NOT_GIVEN &&
         vc_engine_rope_table_shape (in, &rows, &dim) && rows > 0 && dim > 0;
}

const char *
vc_engine_rope_table_unsized (const VcInputs *in)
{
  guint rows, dim;

  if (!rope_table_engine (in))
    return NULL;
  if (!vc_engine_rope_table_shape (in, &rows, &dim))
    return "typed-in";
  if (dim == 0)
    return NULL;
  switch ((VcRopeTableKind) in->arch.rope_table_kind)
    {
    case VC_ROPE_TABLE_PLAIN:
    case VC_ROPE_TABLE_NOT_GIVEN:
      return NULL;
    case VC_ROPE_TABLE_LONGROPE:
      /* SGLang's Phi3LongRoPEScaledRotaryEmbedding is not read */
      return in->engine == VC_ENGINE_SGLANG ? "longrope" : NULL;
    case VC_ROPE_TABLE_MROPE:
      /* vLLM's MRotaryEmbedding of the default type (its rows known); SGLang's is not read */
      return in->engine == VC_ENGINE_VLLM && rows > 0 ? NULL : "mrope";
    case VC_ROPE_TABLE_NO_POSITIONS:
      return "no-positions";
    case VC_ROPE_TABLE_UNKNOWN_TYPE:
    default:
      return "rope-type";
    }
}

/* vLLM: RotaryEmbedding.__init__ (vllm/model_executor/layers/rotary_embedding/base.py) computes
 * the table in fp32 and keeps cache.to(dtype), dtype being the model's (get_rope's default,
 * torch's default dtype while the model is made) or the one the model passes (gpt-oss: fp32);
 * Phi3LongRoPEScaledRotaryEmbedding the same for its two tables. SGLang: RotaryEmbedding.__init__
 * (python/sglang/srt/layers/rotary_embedding/base.py) keeps the fp32 table on CUDA ("cache needs
 * to be in FP32 for numerical stability"). Rows × rotary_dim values (cos and sin, rotary_dim / 2
 * each), on every GPU: each rank makes its own model. */
double
vc_engine_rope_table_bytes (const VcInputs *in,
                            VcPrecision     precision)
{
  const VcArch *arch = &in->arch;
  double bytes;
  guint rows, dim;

  if (!rope_table_engine (in) || vc_engine_rope_table_unsized (in) != NULL ||
      !vc_engine_rope_table_shape (in, &rows, &dim) || rows == 0 || dim == 0)
    return 0;
  if (in->engine == VC_ENGINE_SGLANG || arch->rope_table_fp32 || precision == VC_PRECISION_FP32)
    bytes = 4.0;
  else
    bytes = 2.0;
  return (double) rows * dim * bytes;
}

/* Whether a model's vision encoder (counted, `encoder_params`) moves the engine's cache by what
 * is not sized here (FORMULAS.md, "Engines"): vLLM's profile run (vllm/v1/worker/
 * gpu_model_runner.py, profile_run) passes a batch of dummy items of the largest size through
 * the encoder and keeps their embeddings (encoder_cache) while the text model's dummy batch
 * runs, followed where the image the encoder takes is known (vc-engine-mm.c); otherwise only a
 * --kv-cache-memory given leaves the cache as given. SGLang lowers its default mem_fraction_static for a model with a
 * vision_config (python/sglang/srt/server_args.py, adjust_mem_fraction_for_vlm), followed where
 * the encoder's layers and width are known (vc_engine_sglang_vlm_factor), not at all for a
 * model it serves without images by default (sglang_multimodal_off: Gemma 3, Llama 4, whose
 * towers it loads all the same); a fraction given is taken as given. */
static gboolean
encoder_unsized (const VcInputs *in)
{
  if (in->arch.encoder_params == 0)
    return FALSE;
  if (in->engine == VC_ENGINE_VLLM)
    return !(in->kv_cache_memory_gb > 0) && !vc_engine_mm_vllm_followed (in, MAX (1u, in->layout.pp));
  if (in->engine == VC_ENGINE_SGLANG)
    return !(in->mem_fraction_static > 0) && !in->arch.sglang_multimodal_off &&
           (in->arch.encoder_layers == 0 || in->arch.encoder_width == 0);
  return FALSE;
}

/* Whether the engine's cache of a model with sliding-window layers is followed over several
 * pipeline stages: which layers slide known; vLLM from release 0.14 (--engine-version 0.14,
 * 0.17, 0.21), whose get_kv_cache_configs groups the layers of the whole model
 * (vllm/v1/core/kv_cache_utils.py at commit 001cabc, from pull request #23974: before it each
 * worker grouped its own layers, and 0.11 spans releases on both sides); SGLang at commit
 * 003fca8 (pool_configurator.py, HybridSWAPoolConfigurator; kv_cache_configurator.py,
 * _apply_token_constraints), its source read for this */
static gboolean
sliding_stages_followed (const VcInputs *in)
{
  double full, sliding;

  if (!vc_arch_stage_windows (&in->arch, 0, in->arch.n_layers, &full, &sliding) ||
      vc_arch_state_elements (&in->arch) > 0)
    return FALSE;
  if (in->engine == VC_ENGINE_VLLM)
    return vc_engine_vllm_minor (in) >= 14;
  if (in->engine == VC_ENGINE_SGLANG)
    return in->sglang_version == VC_SGLANG_VERSION_003FCA8;
  return TRUE;
}

const char *
vc_engine_no_figure (const VcInputs *in)
{
  const VcArch *arch = &in->arch;

  if (in->mode != VC_MODE_INFERENCE || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG) ||
      in->method != VC_METHOD_ARCHITECTURE)
    return NULL;
  if (!vc_engine_state_followed (in, MAX (1u, in->layout.tp), MAX (1u, in->layout.pp)))
    return "state-pools";
  if (encoder_unsized (in))
    return "encoder";
  if (vc_engine_rope_table_unsized (in) != NULL)
    return "rope-table";
  /* vc_engine_at_layout_stages: vLLM's groups and SGLang's pools with PP > 1, where followed */
  if (arch->sliding_window > 0 && arch->sliding_window_layers > 0 && MAX (1u, in->layout.pp) > 1 &&
      !sliding_stages_followed (in))
    return "layout-groups";
  return NULL;
}

/* Whether vLLM's cache on @gpu is sized with its MXFP4 experts, their padding in @extra: where
 * the backend is not followed a --kv-cache-memory given is still the cache, whatever the
 * weights, but below compute capability 8.0 vLLM refuses MXFP4 and starts with none */
static gboolean
vllm_mxfp4_sized (const VcInputs *in,
                  const VcGpu    *gpu,
                  double          tp,
                  double         *extra)
{
  if (vc_engine_vllm_mxfp4_extra (in, gpu, tp, extra))
    return TRUE;
  *extra = 0;
  return in->kv_cache_memory_gb > 0 && !vc_engine_vllm_mxfp4_refused (in, gpu);
}

/* Whether vLLM's MXFP4 experts, padded by @padding bytes a rank, are beyond what is followed at
 * the inputs' layout: expert parallelism (FusedMoE then gives each rank whole experts at the
 * full intermediate size, vllm/model_executor/layers/fused_moe/config.py,
 * FusedMoEParallelConfig.make), unless --kv-cache-memory gives the cache whatever the weights.
 * Several pipeline stages are followed: each stage pads its own MoE layers (stage_padding()). */
static gboolean
vllm_padded_layout_unfollowed (const VcInputs *in,
                               double          padding)
{
  return padding > 0 && !(in->kv_cache_memory_gb > 0) && MAX (1u, in->layout.ep) > 1;
}

/* Of @padding, the MXFP4 padding of every MoE layer on a rank, what a pipeline stage of the
 * layers [first, first + n) holds: each layer's FusedMoE pads its own experts alike
 * (Mxfp4MoEMethod.create_weights, one layer at a time), the leading dense layers none */
static double
stage_padding (const VcArch *arch,
               double        padding,
               guint         first,
               guint         n)
{
  guint dense = vc_arch_is_moe (arch) ? MIN (arch->dense_layers, arch->n_layers) : 0;
  guint lo = MAX (first, dense), hi = MIN (first + n, arch->n_layers);
  guint moe = arch->n_layers - dense;

  if (padding <= 0 || moe == 0 || hi <= lo)
    return 0;
  return padding * (hi - lo) / moe;
}

double
vc_engine_vllm_mxfp4_stage_share (const VcInputs *in,
                                  double          padding,
                                  guint           stage)
{
  guint pp = MAX (1u, in->layout.pp);

  if (pp == 1)
    return padding;
  stage = MIN (stage, pp - 1);
  return stage_padding (&in->arch, padding, vc_layout_stage_first (in, pp, stage), vc_layout_stage_size (in, pp, stage));
}

/* vLLM's MXFP4 experts padded by this card's backend (vc_engine_vllm_mxfp4_extra) added to the
 * busiest GPU's @weights, its stage's share with several pipeline stages (@lr's busiest stage of
 * vLLM's default partition), without expert parallelism; FALSE where that is not followed */
static gboolean
vllm_padded_at_layout (const VcInputs       *in,
                       const VcLayoutResult *lr,
                       const VcGpu          *gpu,
                       double                tp,
                       double               *weights)
{
  double padding;

  if (!vllm_mxfp4_sized (in, gpu, tp, &padding) || vllm_padded_layout_unfollowed (in, padding))
    return FALSE;
  *weights += vc_engine_vllm_mxfp4_stage_share (in, padding, lr->busiest_stage);
  return TRUE;
}

/* Of @repeated, the repeated Mamba-2 group's bytes of every mixer, what stage @stage holds (all
 * of it where which layers hold a mixer is not known) */
static double
stage_repeated (const VcInputs *in,
                double          repeated,
                guint           stage)
{
  guint rec = MIN (in->arch.recurrent_layers, in->arch.n_layers);
  guint first, n;
  double attention, mixers;

  vc_layout_stage_layers (in, in->layout.pp, stage, &first, &n);
  if (rec == 0 || !vc_arch_stage_kinds (&in->arch, first, n, &attention, &mixers))
    return repeated;
  return repeated * mixers / rec;
}

gboolean
vc_engine_rank_weights (const VcInputs       *in,
                        const VcLayoutResult *lr,
                        const VcGpu          *gpu,
                        double               *weights)
{
  double tp = MAX (1u, in->layout.tp), repeated;

  *weights = lr->bytes[VC_COMPONENT_WEIGHTS];
  if (in->mode != VC_MODE_INFERENCE || in->method != VC_METHOD_ARCHITECTURE)
    return TRUE;
  if (in->engine == VC_ENGINE_VLLM && !vllm_padded_at_layout (in, lr, gpu, tp, weights))
    return FALSE;
  /* each rank's copy of Mamba-2's one group where TP does not divide it, in both engines
   * (vc-engine-state.c): over several stages, where which layers hold a mixer is known
   * (vc_arch_stage_kinds(): Falcon-H1's every layer, or the attention-layer pattern), the
   * busiest stage's mixers' share, as its Mamba groups are sized (stage_pools()) */
  repeated = vc_engine_state_repeated_bytes (in, tp);
  if (MAX (1u, in->layout.pp) > 1 && repeated > 0)
    repeated = stage_repeated (in, repeated, MIN (lr->busiest_stage, in->layout.pp - 1));
  *weights += repeated;
  return TRUE;
}

const char *
vc_engine_no_figure_on (const VcInputs *in,
                        const VcGpu    *gpu,
                        double          tp)
{
  double padding;

  if (vc_engine_vllm_mxfp4_refused (in, gpu))
    return "mxfp4-capability";
  if (in->engine == VC_ENGINE_VLLM && !vllm_mxfp4_sized (in, gpu, tp, &padding))
    return "mxfp4-backend";
  if (in->engine == VC_ENGINE_VLLM && vllm_padded_layout_unfollowed (in, padding))
    return "mxfp4-layout";
  return vc_engine_no_figure (in);
}

void
vc_engine_kv_capacity_on (const VcInputs         *inputs,
                          const VcResult         *res,
                          const VcScenarioResult *sc,
                          const VcGpu            *gpu,
                          double                  n,
                          VcKvCapacity           *out)
{
  VcInputs copy;
  const VcInputs *in = vllm_block_on (inputs, gpu, &copy);
  const VcArch *arch = &in->arch;
  double capacity = vc_engine_gpu_capacity (in, gpu);
  double attention = vc_arch_attention_layers (arch);
  double sliding = arch->sliding_window > 0 ? MIN (arch->sliding_window_layers, attention) : 0;
  gboolean hybrid = sliding > 0 && sliding < attention;
  double per_token, weights, overhead, tokens, max_concurrency;
  guint index = (guint) (sc - res->scenarios);
  VcLayoutResult lr;
  VcInputs at;

  g_return_if_fail (sc >= res->scenarios && index < res->n_scenarios);
  *out = (VcKvCapacity) { 0 };
  /* the block arithmetic needs the KV bytes of a token; the pools of models with
   * linear-attention or state-space layers are followed on one stage (vc-engine-state.c) */
  if (in->mode != VC_MODE_INFERENCE || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG) ||
      in->method != VC_METHOD_ARCHITECTURE || res->kv_bytes_per_token <= 0 || attention <= 0 ||
      !vc_engine_state_followed (in, n, 1) || encoder_unsized (in) || vc_engine_rope_table_unsized (in) != NULL ||
      !(n >= 1) || n > G_MAXUINT || n != floor (n) || !vc_engine_vllm_version_sized (in, n))
    return;
  /* each GPU's weights are the busiest GPU's of the layout of TP n (vc-layout.c: each tensor
   * split by its own rule, the RoPE tables whole on each), as the engine loads them */
  at = *in;
  at.layout.tp = (guint) n;
  at.layout.pp = at.layout.ep = at.layout.dp = 1;
  if (!vc_layout_compute_tp (in, res, index, (guint) n, &lr, NULL) || !vc_engine_rank_weights (&at, &lr, gpu, &weights))
    return;

  /* per GPU of n with tensor parallelism: each keeps a_kv / n KV heads (one at least), MLA's
   * latent cache is whole on every GPU */
  per_token = res->kv_bytes_per_token;
  if (!vc_arch_is_mla (arch) && arch->n_kv_heads > 0)
    per_token *= MAX (1.0, floor (arch->n_kv_heads / n)) / arch->n_kv_heads;
  overhead = sc->bytes[VC_COMPONENT_OVERHEAD];

  if (in->engine == VC_ENGINE_VLLM)
    {
      /* vllm/v1/worker/gpu_worker.py: init_device takes a memory snapshot once the CUDA context
       * and NCCL are up (NCCL first since pull request #25359) and requests total × gpu_memory_utilization of it;
       * determine_available_memory gives the cache requested_memory − non_kv_cache_memory
       * (vllm/utils/mem_utils.py, memory_profiling: the weights, the torch peak of profile_run
       * and the non-torch memory allocated since the snapshot), or --kv-cache-memory as
       * given, the profile run still made; CUDA graphs are captured after the cache is sized
       * (compile_or_warm_up_model) and take nothing from it. Then
       * vllm/v1/core/kv_cache_utils.py: num_blocks = available // page_size // num_layers. */
      guint batch_tokens, seqs;
      double available;

      vc_engine_vllm_batch (in, gpu, &batch_tokens, &seqs);
      if (in->kv_cache_memory_gb > 0)
        available = in->kv_cache_memory_gb * 1e9;
      else
        available = in->memory_fraction * capacity - weights -
                    vc_estimator_vllm_profile_bytes (in, batch_tokens, seqs, n);
      available = MAX (0.0, available);
      if (vc_arch_state_elements (arch) > 0)
        {
          VcVllmStateSpec state;

          if (!vc_engine_state_vllm_spec (in, n, per_token, &state))
            return;
          vc_engine_state_vllm_capacity (in, &state, available, &tokens, &max_concurrency);
        }
      else
        vllm_blocks_capacity (in, attention, sliding, per_token, batch_tokens, available,
                              &tokens, &max_concurrency);
    }
  else
    {
      if (!sglang_capacity (in, gpu, n, capacity, overhead, weights, per_token, attention, sliding, hybrid, out))
        *out = (VcKvCapacity) { 0 };
      else
        out->known = TRUE, out->weights_bytes = weights;
      return;
    }
  out->known = TRUE;
  out->weights_bytes = weights;
  out->tokens = tokens;
  /* vLLM's "Maximum concurrency for N tokens per request" */
  out->max_concurrency = max_concurrency;
}


/* Stage @s of the inputs' pipeline as their engine splits the layers (vc_layout_stage_layers()):
 * its first layer and count, and what one of its GPUs holds at the inputs' TP and EP */
static void
engine_stage (const VcInputs *in,
              const VcResult *res,
              guint           index,
              guint           s,
              guint          *first,
              guint          *n,
              VcLayoutStage  *st)
{
  guint pp = MAX (1u, in->layout.pp);

  vc_layout_stage_layers (in, pp, s, first, n);
  vc_layout_stage_bytes_tp (in, res, index, *first, *n, s == 0, s == pp - 1, MAX (1u, in->layout.tp),
                            MAX (1u, in->layout.ep), st);
}
/* vLLM over several pipeline stages, TP ranks each: every stage's ranks size their cache from
 * their own memory (the request less their weights, the stage's, and the profile run at TP),
 * in blocks of their own layers, and every worker then allocates the fewest blocks of any
 * (vllm/v1/core/kv_cache_utils.py: unify_kv_cache_configs in 0.10, get_kv_cache_configs in
 * 0.11, the minimum over the workers' num_blocks), which need not be the busiest stage's: the
 * tokens of that many blocks. The stages are vLLM's default partition (get_pp_indices). */
double
vc_engine_vllm_stages_tokens (const VcInputs *inputs,
                              const VcResult *res,
                              guint           index,
                              const VcGpu    *gpu)
{
  VcInputs copy;
  const VcInputs *in = vllm_block_on (inputs, gpu, &copy);
  guint pp = MAX (1u, in->layout.pp), tp = MAX (1u, in->layout.tp), batch_tokens, seqs;
  double cached = (double) vc_engine_context_tokens (inputs) * in->batch * in->concurrency;
  double capacity = vc_engine_gpu_capacity (in, gpu), blocks = G_MAXDOUBLE, profile, padding;

  vc_engine_vllm_batch (in, gpu, &batch_tokens, &seqs);
  profile = vc_estimator_vllm_profile_bytes (in, batch_tokens, seqs, tp);
  /* the MXFP4 padding of every MoE layer on a rank, each stage its share (stage_padding()) */
  if (!vc_engine_vllm_mxfp4_extra (in, gpu, tp, &padding))
    padding = 0;
  for (guint s = 0; s < pp; s++)
    {
      guint first, n;
      VcLayoutStage st;
      double space, per_token;

      engine_stage (in, res, index, s, &first, &n, &st);
      space = in->kv_cache_memory_gb > 0 ? in->kv_cache_memory_gb * 1e9
              : MAX (0.0, in->memory_fraction * capacity - st.weights - stage_padding (&in->arch, padding, first, n) -
                          profile);
      per_token = st.kv / cached;
      if (per_token > 0)
        blocks = MIN (blocks, floor (space / (in->block_size * per_token)));
    }
  return blocks < G_MAXDOUBLE ? blocks * in->block_size : 0;
}

void
vc_engine_kv_capacity_fit (const VcInputs         *in,
                           const VcResult         *res,
                           const VcScenarioResult *sc,
                           const VcGpu            *gpu,
                           const VcGpuFit         *fit,
                           VcKvCapacity           *out)
{
  guint index = (guint) (sc - res->scenarios);
  VcLayoutResult lr;
  VcEngineAtLayout at_layout;
  VcInputs at = *in;

  g_return_if_fail (sc >= res->scenarios && index < res->n_scenarios);
  *out = (VcKvCapacity) { 0 };
  if (fit->count <= 0)
    return;
  if (MAX (1u, fit->layout.pp) == 1)
    {
      vc_engine_kv_capacity_on (in, res, sc, gpu, fit->count, out);
      return;
    }
  at.layout = fit->layout;
  at.layout.dp = at.layout.ep = 1;
  if (in->mode != VC_MODE_INFERENCE || !vc_layout_compute (&at, res, index, &lr, NULL))
    return;
  /* the engine over the stages: vLLM's fewest blocks of any stage, the sliding-window pools of
   * every stage (vc_engine_at_layout_stages()) */
  vc_engine_at_layout_stages (&at, res, index, &lr, gpu, 0, &at_layout);
  if (!at_layout.known || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG))
    return;
  out->known = TRUE;
  out->tokens = at_layout.tokens;
  out->max_concurrency = at_layout.max_concurrency;
  out->state_request_bytes = at_layout.state_request_bytes;
  out->state_requests = at_layout.state_requests;
  out->weights_bytes = at_layout.weights_bytes;
}

/* SGLang's Mamba pool and the cells it leaves in @rest bytes (vc-engine-state.c) */
static void
sglang_state_at_layout (const VcInputs   *in,
                        double            tp,
                        double            per_token,
                        double            rest,
                        VcEngineAtLayout *out)
{
  VcSglangStatePool pool;

  if (!vc_engine_state_sglang_pool (in, tp, per_token, rest, &pool))
    return;
  out->known = TRUE;
  out->tokens = pool.tokens;
  out->max_concurrency = pool.max_concurrency * out->replicas;
  out->state_request_bytes = pool.per_request_bytes;
  out->state_requests = pool.state_requests;
}

/* Which of the engines' separate pools the model at this layout has: @state, vLLM's Mamba
 * groups or SGLang's Mamba pool on one pipeline stage (vc-engine-state.c); @pools, a pool
 * apart from the KV cache that is not followed there; @swa_pool, SGLang's sliding-window pool
 * on one pipeline stage (whose layers are all of the model's) */
static void
layout_pools (const VcInputs *in,
              double          tp,
              gboolean       *state,
              gboolean       *pools,
              gboolean       *swa_pool,
              gboolean       *stage_pools)
{
  const VcArch *arch = &in->arch;
  gboolean sliding = arch->sliding_window > 0 && arch->sliding_window_layers > 0;

  gboolean staged = MAX (1u, in->layout.pp) > 1;

  *state = vc_arch_state_elements (arch) > 0 && !staged && vc_engine_state_followed (in, tp, 1);
  *pools = sliding || (vc_arch_state_elements (arch) > 0 && !*state);
  *swa_pool = (in->engine == VC_ENGINE_SGLANG || in->engine == VC_ENGINE_VLLM) && sliding &&
              vc_arch_state_elements (arch) <= 0 && !staged;
  /* the same pools over several stages, each stage's own (vc_engine_at_layout_stages()):
   * sliding-window layers, or vLLM's Mamba groups and SGLang's Mamba pool where each stage's
   * layers of either kind are known */
  *stage_pools = (in->engine == VC_ENGINE_SGLANG || in->engine == VC_ENGINE_VLLM) && staged &&
                 ((sliding && sliding_stages_followed (in)) ||
                  (vc_arch_state_elements (arch) > 0 && vc_engine_state_followed (in, tp, MAX (1u, in->layout.pp))));
}

/* vLLM's groups of full and sliding-window layers (vllm_blocks_capacity()) on one pipeline
 * stage, from one layer's KV bytes of a token on the busiest GPU: its @kv holds every full
 * layer's seq tokens and every sliding layer's window of each of @per_replica sequences. TP
 * divides each layer's KV heads alike, so the groups are those of one GPU (vLLM's
 * KVCacheConfig is made from every rank's specs, which are the same, and the smallest rank's
 * memory: vllm/v1/core/kv_cache_utils.py, get_kv_cache_configs) */
static void
vllm_groups_at_layout (const VcInputs   *in,
                       double            kv,
                       double            per_replica,
                       double            s,
                       guint             batch_tokens,
                       VcEngineAtLayout *out)
{
  const VcArch *arch = &in->arch;
  double attention = vc_arch_attention_layers (arch);
  double sliding = MIN ((double) arch->sliding_window_layers, attention);
  double layer = kv / (per_replica * ((attention - sliding) * s + sliding * MIN (s, (double) arch->sliding_window)));
  double tokens, max_concurrency;

  vllm_blocks_capacity (in, attention, sliding, layer * attention, batch_tokens, out->available_kv_bytes,
                        &tokens, &max_concurrency);
  out->known = TRUE;
  out->tokens = tokens;
  out->max_concurrency = max_concurrency * out->replicas;
}

/* The requests of in->seq tokens @tokens hold: vLLM's and SGLang's in whole blocks or pages
 * (vc_engine_paged_requests()), the others' as tokens */
static double
layout_requests (const VcInputs *in,
                 double          tokens)
{
  return in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG ? vc_engine_paged_requests (in, tokens)
                                                                        : tokens / in->seq;
}

/* The engine at the layout of the inputs (TP, PP, EP, DP), on `n_gpus` of `gpu`: its budget
 * and what is left for the KV cache on the busiest GPU, the tokens each replica's cache holds,
 * and the requests of seq tokens all replicas serve at once. The busiest GPU's cache gives the
 * bytes of a token there (its KV heads and its stage's layers); the budget and what it must
 * keep beside the cache are each engine's, as vc_engine_kv_capacity_on() takes them: vLLM's
 * request and profile run (or --kv-cache-memory), SGLang's static share of what the CUDA context
 * leaves, the whole card for llama.cpp and the others, less the GPU's activations. SGLang's
 * sliding-window pool, vLLM's sliding-window groups, vLLM's Mamba groups and SGLang's Mamba pool
 * are followed on one pipeline stage; over several, the sliding-window pools and the Mamba
 * groups and pool where followed are each stage's (vc_engine_at_layout_stages(), which gives the
 * tokens: here only the budget and weights). */
void
vc_engine_at_layout (const VcInputs       *inputs,
                     const VcLayoutResult *lr,
                     const VcGpu          *gpu,
                     guint                 n_gpus,
                     VcEngineAtLayout     *out)
{
  VcInputs copy;
  const VcInputs *in = vllm_block_on (inputs, gpu, &copy);
  const VcArch *arch = &in->arch;
  double per_replica = (double) in->batch * ((in->concurrency + in->layout.dp - 1) / MAX (1u, in->layout.dp));
  double cached = (double) vc_engine_context_tokens (inputs) * per_replica;
  double kv = lr->bytes[VC_COMPONENT_KV_CACHE];
  double weights, overhead = lr->bytes[VC_COMPONENT_OVERHEAD];
  double capacity = vc_engine_gpu_capacity (in, gpu);
  double tp = MAX (1u, in->layout.tp);
  double per_token, tokens;
  guint stage_gpus = MAX (1u, in->layout.tp) * MAX (1u, in->layout.pp);
  gboolean state, pools, swa_pool, stage_pools;

  layout_pools (in, tp, &state, &pools, &swa_pool, &stage_pools);
  *out = (VcEngineAtLayout) { 0 };
  out->n_gpus = MAX (n_gpus, vc_layout_n_gpus (&in->layout));
  out->replicas = out->n_gpus / stage_gpus;
  if (in->mode != VC_MODE_INFERENCE || in->method != VC_METHOD_ARCHITECTURE || kv <= 0 || cached <= 0 ||
      (pools && !swa_pool && !stage_pools && (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG)) ||
      encoder_unsized (in) || vc_engine_rope_table_unsized (in) != NULL ||
      !vc_engine_vllm_version_sized (in, stage_gpus) || !vc_engine_rank_weights (in, lr, gpu, &weights))
    return;
  out->weights_bytes = weights;
  per_token = kv / cached;
  if (in->engine == VC_ENGINE_VLLM)
    {
      guint batch_tokens, seqs;

      vc_engine_vllm_batch (in, gpu, &batch_tokens, &seqs);
      out->budget_bytes = in->memory_fraction * capacity;
      out->available_kv_bytes = in->kv_cache_memory_gb > 0 ? in->kv_cache_memory_gb * 1e9
                                : out->budget_bytes - weights - vc_estimator_vllm_profile_bytes (in, batch_tokens, seqs, tp);
      out->available_kv_bytes = MAX (0.0, out->available_kv_bytes);
      if (state)
        vc_engine_state_vllm_at_layout (in, tp, per_token, out);
      else if (swa_pool)
        vllm_groups_at_layout (in, kv, per_replica, cached / per_replica, batch_tokens, out);
      if (state || swa_pool || stage_pools)
        return;
      tokens = floor (out->available_kv_bytes / (in->block_size * per_token)) * in->block_size;
    }
  else if (in->engine == VC_ENGINE_SGLANG)
    {
      double gpu_mib = gpu->memory_mib > 0 ? gpu->memory_mib : capacity / 1048576.0;

      out->budget_bytes = vc_engine_sglang_fraction (in, gpu_mib, tp) *
                          MAX (0.0, capacity - overhead - vc_engine_comm_pool_bytes (in, tp));
      out->available_kv_bytes = MAX (0.0, out->budget_bytes - weights);
      if (stage_pools)
        return;
      if (state)
        {
          sglang_state_at_layout (in, tp, per_token, out->budget_bytes - weights, out);
          return;
        }
      if (swa_pool)
        {
          /* the pools of vc_engine_kv_capacity_on(), from one layer's KV bytes of a token on
           * this GPU: the cache holds every full layer's seq tokens and every sliding layer's
           * window of each sequence */
          double attention = vc_arch_attention_layers (arch);
          double sliding = MIN ((double) arch->sliding_window_layers, attention);
          double full = attention - sliding;
          double s = cached / per_replica;
          double window = arch->sliding_window;
          double layer = kv / (per_replica * (full * s + sliding * MIN (s, window)));
          double unaligned = full > 0 ? sglang_swa_full_tokens (in, out->available_kv_bytes, layer, full, sliding)
                                      : floor (out->available_kv_bytes / (layer * attention));
          double swa_tokens;

          tokens = floor (unaligned / in->page_size) * in->page_size;
          if (full > 0)
            {
              swa_tokens = sglang_swa_tokens (in, unaligned, tokens);
              if (window + in->page_size >= swa_tokens)
                tokens = 0;
              out->known = TRUE;
              out->tokens = tokens;
              out->max_concurrency = tokens > 0 ? MIN (tokens / in->seq, swa_tokens / MIN ((double) in->seq,
                                                                                          window + in->page_size)) *
                                                  out->replicas
                                                : 0;
              return;
            }
        }
      else
        tokens = floor (floor (out->available_kv_bytes / per_token) / in->page_size) * in->page_size;
    }
  else
    {
      /* llama.cpp and the others allocate the context asked for: the room is the card's */
      out->budget_bytes = capacity;
      out->available_kv_bytes = MAX (0.0, capacity - (lr->total - kv));
      tokens = floor (out->available_kv_bytes / per_token);
    }
  out->known = TRUE;
  out->tokens = tokens;
  out->max_concurrency = layout_requests (in, tokens) * out->replicas;
}

static gboolean stage_pools (const VcInputs   *inputs,
                             const VcResult   *res,
                             guint             index,
                             const VcGpu      *gpu,
                             double            overhead,
                             double           *tokens,
                             double           *max_concurrency,
                             VcEngineAtLayout *out);

/* SGLang's plain pool over several pipeline stages (stored sgl-project/sglang at commit
 * 003fca8027387a3d6565b2c08e497e3020ac6211): KVCacheConfigurator._profile_available_bytes
 * (python/sglang/srt/mem_cache/kv_cache_configurator.py) takes the memory free after the weights
 * with get_available_gpu_memory(distributed=True), the MIN over the world group, so every rank's
 * rest is the budget less the HEAVIEST stage's weights; each rank's DefaultPoolConfigurator
 * (python/sglang/srt/model_executor/pool_configurator.py) divides it by its own stage's cell
 * (layer_info.num_effective_layers: its own layers) in whole pages, and _apply_token_constraints
 * keeps the smallest over the ranks ("Sync across PP ranks"): rest // the largest stage's cell.
 * The heaviest stage and the one with the most KV layers need not be the same, nor the busiest
 * GPU's. The stages are SGLang's split (vc_layout_stage_layers()). At commit 001ccef, the
 * default source, the same: ModelRunnerKVCacheMixin.profile_max_num_token
 * (model_executor/model_runner_kv_cache_mixin.py) takes get_available_gpu_memory with
 * distributed=True over the world group, divides by its own num_effective_layers' cell, and
 * init_memory rounds to whole pages and all_reduces the MIN over the ranks ("different pp rank
 * may have different num of layers"). */
static void
sglang_stages_plain (const VcInputs   *in,
                     const VcResult   *res,
                     guint             index,
                     VcEngineAtLayout *out)
{
  guint pp = MAX (1u, in->layout.pp);
  double cached = (double) vc_engine_context_tokens (in) * in->batch * in->concurrency;
  double heaviest = 0, per_token = 0, rest;

  for (guint s = 0; s < pp; s++)
    {
      guint first, n;
      VcLayoutStage st;

      engine_stage (in, res, index, s, &first, &n, &st);
      heaviest = MAX (heaviest, st.weights);
      per_token = MAX (per_token, st.kv / cached);
    }
  if (!(per_token > 0) || !(cached > 0))
    return;
  rest = MAX (0.0, out->budget_bytes - heaviest);
  out->weights_bytes = heaviest;
  out->available_kv_bytes = rest;
  out->tokens = floor (floor (rest / per_token) / in->page_size) * in->page_size;
  out->max_concurrency = layout_requests (in, out->tokens) * out->replicas;
}

/* vc_engine_at_layout() with vLLM's cache over several pipeline stages as vLLM sizes it: the
 * fewest blocks over the stages (vc_engine_vllm_stages_tokens()), not the busiest stage's; the
 * figures of --fit-gpu, the JSON report and the speed line at the inputs' layout, as the GPU
 * table's rows and the plans on a set take them */
void
vc_engine_at_layout_stages (const VcInputs       *in,
                            const VcResult       *res,
                            guint                 index,
                            const VcLayoutResult *lr,
                            const VcGpu          *gpu,
                            guint                 n_gpus,
                            VcEngineAtLayout     *out)
{
  double tokens, max_concurrency;
  VcInputs on;

  vc_engine_at_layout (in, lr, gpu, n_gpus, out);
  /* sliding-window layers or vLLM's Mamba groups over several stages: each stage's pools
   * (stage_pools()), from what vc_engine_at_layout() gave of the busiest GPU's budget and
   * weights */
  if (((in->arch.sliding_window > 0 && in->arch.sliding_window_layers > 0) || vc_arch_state_elements (&in->arch) > 0) &&
      MAX (1u, in->layout.pp) > 1)
    {
      if (out->weights_bytes > 0 && !out->known &&
          stage_pools (in, res, index, gpu, lr->bytes[VC_COMPONENT_OVERHEAD], &tokens, &max_concurrency, out))
        {
          out->known = TRUE;
          out->tokens = tokens;
          out->max_concurrency = max_concurrency * out->replicas;
        }
      return;
    }
  if (MAX (1u, in->layout.pp) <= 1 || !out->known || out->block_size != 0 || vc_arch_state_elements (&in->arch) > 0)
    return;
  if (in->engine == VC_ENGINE_SGLANG)
    {
      sglang_stages_plain (in, res, index, out);
      return;
    }
  if (in->engine != VC_ENGINE_VLLM)
    return;
  out->tokens = vc_engine_vllm_stages_tokens (in, res, index, gpu);
  /* in the card's block (vllm_block_on()), as the tokens */
  out->max_concurrency = vc_engine_paged_requests (vllm_block_on (in, gpu, &on), out->tokens) * out->replicas;
}

/* vLLM's groups over several pipeline stages (vllm/v1/core/kv_cache_utils.py at commit 001cabc):
 * get_kv_cache_configs merges every worker's layers and groups the whole model's
 * (_get_kv_cache_groups_uniform_page_size: group_size g the smaller count of full and
 * sliding layers, the larger under 1.5 times it; a kind of L layers in G = cdiv(L, g) groups,
 * the i-th holding layers[i::G], "to avoid memory waste" in the PP case of pull request
 * #23974); _project_kv_cache_groups_to_worker keeps each group's layers on the worker, so a
 * stage holding c layers of a kind (consecutive in that kind's list) has at most cdiv(c, G) in
 * one group; get_kv_cache_config_from_groups: group_size = the largest projected group,
 * num_blocks = available // page // group_size; every worker then takes the smallest
 * num_blocks. _report_kv_cache_config logs num_blocks // len(groups) × block tokens, the
 * groups the whole model's (a projected group may be empty), and
 * get_max_concurrency_for_kv_cache_config num_blocks / the blocks of one request in every
 * group. A model whose every layer is windowed makes one group (the stage's layers). @full,
 * @sliding: the stages' layers of each kind; @available: each stage's bytes for the cache;
 * @layer: one layer's KV bytes of a token on a rank. */
static void
vllm_stage_groups (const VcInputs *in,
                   guint           pp,
                   const double   *full,
                   const double   *sliding,
                   const double   *available,
                   double          layer,
                   guint           batch_tokens,
                   double         *tokens,
                   double         *max_concurrency)
{
  double all_full = 0, all_sliding = 0, groups_full, groups_sliding, blocks = G_MAXDOUBLE;
  double page = in->block_size * layer;
  double window_tokens = MIN ((double) in->arch.sliding_window - 1 + batch_tokens, (double) in->seq);

  for (guint s = 0; s < pp; s++)
    all_full += full[s], all_sliding += sliding[s];
  if (all_full > 0 && all_sliding > 0)
    {
      double lo = MIN (all_full, all_sliding), hi = MAX (all_full, all_sliding);
      double g = hi < lo * 1.5 ? hi : lo;

      groups_full = ceil (all_full / g);
      groups_sliding = ceil (all_sliding / g);
    }
  else
    groups_full = all_full > 0, groups_sliding = all_sliding > 0;
  for (guint s = 0; s < pp; s++)
    {
      double group_size = MAX (groups_full > 0 ? ceil (full[s] / groups_full) : 0,
                               groups_sliding > 0 ? ceil (sliding[s] / groups_sliding) : 0);

      if (group_size > 0)
        blocks = MIN (blocks, floor (floor (available[s] / page) / group_size));
    }
  if (blocks == G_MAXDOUBLE)
    blocks = 0;
  *tokens = floor (blocks / (groups_full + groups_sliding)) * in->block_size;
  /* a request: cdiv(seq, block) blocks in each full group, in each sliding one those of its
   * window (SlidingWindowSpec.max_memory_usage_bytes) */
  *max_concurrency = blocks / (groups_full * ceil ((double) in->seq / in->block_size) +
                               groups_sliding * (ceil (window_tokens / in->block_size) + 1));
}

/* SGLang's sliding-window pools over several pipeline stages, at commit 003fca8: each rank's
 * HybridSWAPoolConfigurator (python/sglang/srt/model_executor/pool_configurator.py) counts the
 * whole model's layers (model_config.full_attention_layer_ids and swa_attention_layer_ids, not
 * the stage's), cell_size = F·n_full + r·S·n_sliding, its full pool = rest // cell_size in
 * whole pages; KVCacheConfigurator.config_from_budget then takes the smallest over the ranks
 * (_apply_token_constraints: all_reduce MIN over the world group, "Sync across PP ranks") and
 * solves the pools again from it: the sliding pool int(full × r) in whole pages, refused when
 * it cannot hold the window and a page. A model whose every layer is windowed: one pool of
 * rest // (S·n_sliding) tokens. @rest: each stage's bytes after its weights. */
static void
sglang_stage_pools (const VcInputs *in,
                    guint           pp,
                    double          all_full,
                    double          all_sliding,
                    const double   *rest,
                    double          layer,
                    double         *tokens,
                    double         *max_concurrency)
{
  double cell = layer * (all_full > 0 ? all_full + SGLANG_SWA_FULL_TOKENS_RATIO * all_sliding : all_sliding);
  double full = G_MAXDOUBLE, window = in->arch.sliding_window, swa_tokens;

  for (guint s = 0; s < pp; s++)
    full = MIN (full, rest[s] > 0 ? floor (floor (rest[s] / cell) / in->page_size) * in->page_size : 0);
  *tokens = full;
  *max_concurrency = full / in->seq;
  if (all_full <= 0)
    return;
  swa_tokens = floor (floor (full * SGLANG_SWA_FULL_TOKENS_RATIO) / in->page_size) * in->page_size;
  if (window + in->page_size >= swa_tokens)
    *tokens = 0, *max_concurrency = 0;
  else
    *max_concurrency = MIN (full / in->seq, swa_tokens / MIN ((double) in->seq, window + in->page_size));
}

/* vLLM's Mamba groups over the stages (vc_engine_state_vllm_stages()), a token's KV bytes on a
 * rank @per_token, each stage of @attention and @mixers layers with @space bytes; the block and
 * page in @out */
static gboolean
vllm_state_stages (const VcInputs   *in,
                   guint             pp,
                   double            per_token,
                   const double     *attention,
                   const double     *mixers,
                   const double     *space,
                   double           *tokens,
                   double           *max_concurrency,
                   VcEngineAtLayout *out)
{
  VcVllmStateSpec spec;

  if (!vc_engine_state_vllm_spec (in, MAX (1u, in->layout.tp), per_token, &spec))
    return FALSE;
  vc_engine_state_vllm_stages (in, &spec, pp, attention, mixers, space, tokens, max_concurrency);
  if (out != NULL)
    out->block_size = spec.block_size, out->state_page_bytes = spec.page_bytes;
  return TRUE;
}

/* SGLang's Mamba pool over the stages at commit 003fca8 (vc_engine_state_sglang_stages()): every
 * rank sizes it from the least memory any GPU has left after its weights
 * (KVCacheConfigurator._profile_available_bytes, get_available_gpu_memory with distributed=True:
 * an all-reduce MIN over the world group), the heaviest stage's @space; each stage of @attention
 * and @mixers layers; a request's state and the pool's slots in @out */
static gboolean
sglang_state_stages (const VcInputs   *in,
                     guint             pp,
                     double            tp,
                     double            layer,
                     const double     *attention,
                     const double     *mixers,
                     const double     *space,
                     double           *tokens,
                     double           *max_concurrency,
                     VcEngineAtLayout *out)
{
  VcSglangStatePool pool;
  double rest = G_MAXDOUBLE;

  for (guint s = 0; s < pp; s++)
    rest = MIN (rest, space[s]);
  if (!vc_engine_state_sglang_stages (in, tp, layer, pp, attention, mixers, rest, &pool))
    return FALSE;
  *tokens = pool.tokens;
  *max_concurrency = pool.max_concurrency;
  if (out != NULL)
    {
      out->available_kv_bytes = MAX (0.0, rest);
      out->state_request_bytes = pool.per_request_bytes;
      out->state_requests = pool.state_requests;
    }
  return TRUE;
}

gboolean
vc_engine_sliding_stages (const VcInputs *inputs,
                          const VcResult *res,
                          guint           index,
                          const VcGpu    *gpu,
                          double          overhead,
                          double         *tokens,
                          double         *max_concurrency)
{
  *tokens = *max_concurrency = 0;
  return vc_arch_state_elements (&inputs->arch) <= 0 &&
         stage_pools (inputs, res, index, gpu, overhead, tokens, max_concurrency, NULL);
}

/* vc_engine_sliding_stages(), and vLLM's Mamba groups and SGLang's Mamba pool over several
 * stages where each stage's layers of either kind are known (vc-engine-state.c); with @out, the
 * state's block and page in it (vLLM), or a request's state, the pool's slots and the rest every
 * rank sizes them from (SGLang) */
static gboolean
stage_pools (const VcInputs   *inputs,
             const VcResult   *res,
             guint             index,
             const VcGpu      *gpu,
             double            overhead,
             double           *tokens,
             double           *max_concurrency,
             VcEngineAtLayout *out)
{
  VcInputs copy;
  const VcInputs *in = vllm_block_on (inputs, gpu, &copy);
  const VcArch *arch = &in->arch;
  guint pp = MAX (1u, in->layout.pp), tp = MAX (1u, in->layout.tp), batch_tokens = 0, seqs;
  double capacity = vc_engine_gpu_capacity (in, gpu), attention = vc_arch_attention_layers (arch);
  gboolean state = vc_arch_state_elements (arch) > 0;
  double layer, padding = 0, profile = 0, budget = 0, all_full = 0, all_sliding = 0;
  g_autofree double *full = g_new0 (double, pp);
  g_autofree double *sliding = g_new0 (double, pp);
  g_autofree double *space = g_new0 (double, pp);
  g_autofree double *layers = g_new0 (double, pp);

  *tokens = *max_concurrency = 0;
  if (in->mode != VC_MODE_INFERENCE || in->method != VC_METHOD_ARCHITECTURE || pp <= 1 || attention <= 0 ||
      res->kv_bytes_per_token <= 0 || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG) ||
      (state ? !vc_engine_state_followed (in, tp, pp) : !sliding_stages_followed (in)))
    return FALSE;
  /* one layer's KV bytes of a token on a rank: its KV heads / TP, one at least */
  layer = res->kv_bytes_per_token / attention;
  if (!vc_arch_is_mla (arch) && arch->n_kv_heads > 0)
    layer *= MAX (1.0, floor ((double) arch->n_kv_heads / tp)) / arch->n_kv_heads;
  if (in->engine == VC_ENGINE_VLLM)
    {
      vc_engine_vllm_batch (in, gpu, &batch_tokens, &seqs);
      profile = vc_estimator_vllm_profile_bytes (in, batch_tokens, seqs, tp);
      if (!vc_engine_vllm_mxfp4_extra (in, gpu, tp, &padding))
        padding = 0;
    }
  else
    budget = vc_engine_sglang_fraction (in, gpu->memory_mib > 0 ? gpu->memory_mib : capacity / MIB, tp) *
             (capacity - overhead - vc_engine_comm_pool_bytes (in, tp));
  for (guint s = 0; s < pp; s++)
    {
      guint first, n;
      VcLayoutStage st;
      double weights;

      engine_stage (in, res, index, s, &first, &n, &st);
      /* a state model's layers of each kind in full[] and layers[] (vc_arch_stage_kinds()) */
      if (!state)
        vc_arch_stage_windows (arch, first, n, &full[s], &sliding[s]);
      else
        vc_arch_stage_kinds (arch, first, n, &full[s], &layers[s]);
      all_full += full[s], all_sliding += sliding[s];
      /* its share of the MXFP4 padding, and of Mamba-2's group repeated on every rank (its
       * mixers' share) */
      weights = st.weights + stage_padding (arch, padding, first, n) +
                (state ? vc_engine_state_repeated_bytes (in, tp) * layers[s] / MIN (arch->recurrent_layers,
                                                                                   arch->n_layers) : 0);
      if (in->engine == VC_ENGINE_SGLANG)
        space[s] = budget - weights;
      else
        space[s] = in->kv_cache_memory_gb > 0 ? in->kv_cache_memory_gb * 1e9
                   : MAX (0.0, in->memory_fraction * capacity - weights - profile);
    }
  if (state && in->engine == VC_ENGINE_SGLANG)
    return sglang_state_stages (in, pp, tp, layer, full, layers, space, tokens, max_concurrency, out);
  if (state)
    return vllm_state_stages (in, pp, layer * attention, full, layers, space, tokens, max_concurrency, out);
  if (in->engine == VC_ENGINE_VLLM)
    vllm_stage_groups (in, pp, full, sliding, space, layer, batch_tokens, tokens, max_concurrency);
  else
    sglang_stage_pools (in, pp, all_full, all_sliding, space, layer, tokens, max_concurrency);
  return TRUE;
}
