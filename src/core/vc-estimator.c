/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-estimator.c: GPU memory for LLM inference and fine-tuning.
 *
 * Two methods. The rule of thumb reproduces seed 000 (a cloud vendor's calculator) to the last
 * digit. The architecture method counts every tensor from the model's shapes and models the peak
 * of PyTorch's allocator phase by phase; FORMULAS.md beside this file gives each formula's source.
 * Bytes are doubles: exact for integers below 2^53 (9 PB) and finite far beyond, so 100T
 * parameters or 10M-token contexts never overflow.
 */
#define G_LOG_DOMAIN "vc-estimator"

#include "config.h"

#include <math.h>
#include <string.h>

#include "vc-allocator.h"
#include "vc-engine.h"
#include "vc-engine-mm.h"
#include "vc-estimator.h"
#include "vc-quant.h"
#include "vc-training-rules.h"

#define GB 1e9

/* Seed 000: "other" (CUDA kernels, framework, batch data) is 1 to 2 GB; its tables use 2 GB. */
#define RULE_OF_THUMB_OVERHEAD_GB 2.0
/* CUDA context with cuBLAS/cuDNN workspaces (0.3 to 1 GB) and allocator slack, per GPU. */
#define ARCHITECTURE_OVERHEAD_GB 1.0
/* Inference engines run prefill in chunks (vLLM max_num_batched_tokens, llama.cpp n_batch). */
#define PREFILL_CHUNK_TOKENS 8192.0

/* bitsandbytes NF4/FP4 with block 64 and an fp32 absmax per block: 4 + 32/64 bits (GGUF Q4_0
 * is also 4.5). QLoRA uses double quantization (absmax in 8 bits, block 256): 4 + 8/64 +
 * 32/(64·256) ≈ 4.127 bits (Dettmers et al. 2023, section 3). */
#define INT4_BITS 4.5
#define QLORA_NF4_BITS (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0))
/* LLM.int8() and fp8 keep one scale per output row: negligible beside 8 bits a weight. */
#define INT8_BITS 8.0
/* GGUF-style quantized KV cache: q8_0 and q4_0 carry an fp16 scale per 32 values. */
#define KV_INT8_BITS 8.5
#define KV_INT4_BITS 4.5

double
vc_precision_bytes (VcPrecision precision)
{
  return vc_precision_bits (precision) / 8.0;
}

double
vc_precision_bits (VcPrecision precision)
{
  switch (precision)
    {
    case VC_PRECISION_FP32: return 32;
    case VC_PRECISION_FP16:
    case VC_PRECISION_BF16: return 16;
    case VC_PRECISION_FP8:
    case VC_PRECISION_INT8: return 8;
    case VC_PRECISION_INT4: return 4;
    default:
      /* the weight formats: their nominal bits with scales */
      if (vc_precision_is_format (precision))
        return vc_quant_format_bits (precision);
      return 16;
    }
}

gboolean
vc_precision_is_float (VcPrecision precision)
{
  return precision == VC_PRECISION_FP32 || precision == VC_PRECISION_FP16 ||
         precision == VC_PRECISION_BF16;
}

/* Which components a mode has: the KV cache only for inference, gradients and optimizer state
 * only for training, master weights only with mixed precision. */
gboolean
vc_component_applies (const VcInputs *in,
                      VcComponent     c)
{
  switch (c)
    {
    case VC_COMPONENT_KV_CACHE:
      return in->mode == VC_MODE_INFERENCE;
    case VC_COMPONENT_SEQUENCE_STATE:
      return in->mode == VC_MODE_INFERENCE && in->method == VC_METHOD_ARCHITECTURE &&
             vc_arch_state_elements (&in->arch) > 0;
    case VC_COMPONENT_GRADIENTS:
    case VC_COMPONENT_OPTIMIZER:
      return in->mode == VC_MODE_TRAINING;
    case VC_COMPONENT_MASTER_WEIGHTS:
      return in->mode == VC_MODE_TRAINING && in->mixed_precision;
    default:
      return TRUE;
    }
}

void
vc_inputs_init_default (VcInputs *in)
{
  *in = (VcInputs) {
    .mode = VC_MODE_INFERENCE,
    .method = VC_METHOD_RULE_OF_THUMB,
    .model_type = VC_MODEL_TYPE_DENSE,
    .parameters = 7e9,
    .active_parameters = 0,
    .arch = vc_arch_default,
    .precision = VC_PRECISION_BF16,
    .training_precision = VC_TRAINING_PRECISION_BF16,
    .kv_precision = VC_PRECISION_BF16,
    .finetune = VC_FINETUNE_LORA,
    .optimizer = VC_OPTIMIZER_ADAMW,
    .optimizer_precision = VC_STATE_PRECISION_FP32,
    .batch = 1,
    .seq = 2048,
    .concurrency = 1,
    .lora_rank = 16,
    .lora_percent = 1.0,
    .lora_targets = VC_LORA_TARGETS_ALL_LINEAR,
    .mixed_precision = FALSE,
    .checkpointing = VC_CHECKPOINTING_NONE,
    .flash_attention = TRUE,
    .loss = VC_LOSS_AUTO,
    .optimizer_impl = VC_OPTIMIZER_IMPL_AUTO,
    .compile = FALSE,
    .train_embeddings = FALSE,
    .expandable_segments = FALSE,
    .trainer = VC_TRAINER_GENERIC,
    .optimizer_in_backward = FALSE,
    .packing = FALSE,
    .checkpoint_every = 2,
    .overhead_gb = -1,
    .engine = VC_ENGINE_GENERIC,
    .memory_fraction = 0.9,
    .block_size = 16,
    .max_num_batched_tokens = 0,
    .max_num_seqs = 0,
    .limit_mm_per_prompt = 999,
    .kv_cache_memory_gb = 0,
    .vllm_version = VC_VLLM_VERSION_0_11,
    .enforce_eager = FALSE,
    .mxfp4_backend = VC_MXFP4_BACKEND_AUTO,
    .mm_encoder_tp_mode = VC_MM_ENCODER_TP_MODE_WEIGHTS,
    .disable_custom_all_reduce = FALSE,
    .mem_fraction_static = 0,
    .sglang_version = VC_SGLANG_VERSION_001CCEF,
    .page_size = 1,
    .n_ubatch = 0,
    .n_batch = 0,
    .kv_unified = FALSE,
    .cache_type_k = VC_CACHE_TYPE_AUTO,
    .cache_type_v = VC_CACHE_TYPE_AUTO,
    .mmproj_bytes = 0,
    .mmproj_parameters = 0,
    .mmproj_offload = TRUE,
    .mmproj_compute_bytes = 0,
    .mmproj_compute_bytes_fa = 0,
    .mfu = 0.4,
    .source_weights_bytes = 0,
    .source_parameters = 0,
    .source_active_parameters = 0,
    .source_precision = VC_PRECISION_BF16,
    .llama_cpp = FALSE,
    .layout = { .tp = 1, .pp = 1, .ep = 1, .dp = 1, .grad_accum = 1, .gpus_per_node = 8, .cp = 1 },
  };
}

/* llama.cpp loads the projector file on the GPU unless --no-mmproj-offload (common/arg.cpp sets
 * mmproj_use_gpu = false; tools/mtmd/mtmd.cpp passes it to clip_init as use_gpu): its tensors
 * are the encoder's, on the first stage (vc-inventory.h, VC_TENSOR_ENCODER). Inference only:
 * the projector is refused for training and for other engines (vc-estimate.c). */
gboolean
vc_inputs_mmproj_on_gpu (const VcInputs *in)
{
  return in->mmproj_bytes > 0 && in->mmproj_offload && in->mode == VC_MODE_INFERENCE &&
         (in->engine == VC_ENGINE_LLAMA_CPP || in->engine == VC_ENGINE_OLLAMA);
}

/* With --no-mmproj-offload the projector in system RAM: clip_init with use_gpu false leaves
 * its tensors in a CPU buffer (tools/mtmd/clip.cpp, clip_model_loader load_tensors on the CPU
 * backend) and the warm-up reserves the encoder's graph there, the same graph placed with the
 * CPU buffer type's 32-byte alignment (ggml-impl.h TENSOR_ALIGNMENT, ggml-backend.cpp), where
 * that graph is followed (its bytes 0 where not); 0 otherwise */
double
vc_inputs_mmproj_host_bytes (const VcInputs *in)
{
  if (in->mmproj_bytes > 0 && !in->mmproj_offload && in->mode == VC_MODE_INFERENCE &&
      (in->engine == VC_ENGINE_LLAMA_CPP || in->engine == VC_ENGINE_OLLAMA))
    return in->mmproj_bytes + (in->flash_attention ? in->mmproj_compute_bytes_fa : in->mmproj_compute_bytes);
  return 0;
}

/* llama-server passes its --flash-attn setting to the projector (tools/server/server-context.cpp:
 * mparams.flash_attn_type; tools/mtmd/mtmd.cpp, mtmd_get_clip_flash_attn_type), and clip.cpp's
 * warm-up reserves the encoder's graph with it (clip_model_loader::warmup) */
double
vc_inputs_mmproj_compute_bytes (const VcInputs *in)
{
  if (!vc_inputs_mmproj_on_gpu (in))
    return 0;
  return in->flash_attention ? in->mmproj_compute_bytes_fa : in->mmproj_compute_bytes;
}

double
vc_inputs_overhead_bytes (const VcInputs *in)
{
  if (in->overhead_gb >= 0)
    return in->overhead_gb * GB;
  if (in->method == VC_METHOD_RULE_OF_THUMB)
    return RULE_OF_THUMB_OVERHEAD_GB * GB;
  return ARCHITECTURE_OVERHEAD_GB * GB;
}

/* With --compile, whether the loss is compiled with the model: the Hugging Face Trainer
 * (and TRL, Axolotl, LLaMA-Factory, which run it) compiles the whole model, whose forward
 * computes the loss from the labels; torchtune compiles its loss on its own (compile_loss).
 * Otherwise (generic, torchtitan) the decoder blocks are compiled one by one and the loss runs
 * eagerly. */
gboolean
vc_trainer_compiles_loss (const VcInputs *in)
{
  if (!in->compile)
    return FALSE;
  /* torchtune's own default, LinearCrossEntropyLoss, turns compile_loss down
   * (apply_compile_strategy: "Skipping compile loss, as it is not supported at this time") */
  if (in->trainer == VC_TRAINER_TORCHTUNE && in->loss == VC_LOSS_AUTO)
    return FALSE;
  switch (in->trainer)
    {
    case VC_TRAINER_HF:
    case VC_TRAINER_TRL:
    case VC_TRAINER_AXOLOTL:
    case VC_TRAINER_LLAMAFACTORY:
    case VC_TRAINER_TORCHTUNE:
      return TRUE;
    case VC_TRAINER_GENERIC:
    case VC_TRAINER_TORCHTITAN:
    default:
      return FALSE;
    }
}

/* The loss the trainer runs when none is chosen (FORMULAS.md, "Trainers"): torchtune's recipe
 * configs name a chunked cross-entropy (LinearCrossEntropyLoss, CEWithChunkedOutputLoss before
 * it); torchtitan's cross_entropy_loss and the Hugging Face Trainer's loss (TRL, Axolotl,
 * LLaMA-Factory) take the full logits unless Liger or cut cross-entropy is switched on; Unsloth's
 * fused cross-entropy sizes its chunks from the GPU memory free at run time, which the estimate
 * cannot know, so it keeps the full logits unless --loss names one. */
VcLoss
vc_trainer_loss (const VcInputs *in)
{
  if (in->loss != VC_LOSS_AUTO)
    return in->loss;
  return in->trainer == VC_TRAINER_TORCHTUNE ? VC_LOSS_CHUNKED : VC_LOSS_FULL;
}

/* How the trainer's torch.optim optimizer steps when none is chosen (FORMULAS.md, "The optimizer
 * step"): Axolotl (adamw_torch_fused), torchtitan (implementation "fused") and torchtune's recipe
 * configs (torch.optim.AdamW, fused: True) fuse it; the Hugging Face Trainer's adamw_torch (TRL,
 * LLaMA-Factory, Unsloth) and a bare torch.optim optimizer take PyTorch's default, foreach. */
VcOptimizerImpl
vc_trainer_optimizer_impl (const VcInputs *in)
{
  if (in->optimizer_impl != VC_OPTIMIZER_IMPL_AUTO)
    return in->optimizer_impl;
  switch (in->trainer)
    {
    case VC_TRAINER_AXOLOTL:
    case VC_TRAINER_TORCHTITAN:
    case VC_TRAINER_TORCHTUNE:
      return VC_OPTIMIZER_IMPL_FUSED;
    default:
      return VC_OPTIMIZER_IMPL_FOREACH;
    }
}

/* torchtune trains in pure bf16: the model is loaded in its dtype and torch.optim creates the
 * optimizer state like the parameters, so bf16 parameters have bf16 state. */
gboolean
vc_trainer_bf16_state (const VcInputs *in)
{
  if (in->optimizer_precision == VC_STATE_PRECISION_BF16)
    return TRUE;
  return in->trainer == VC_TRAINER_TORCHTUNE && !in->mixed_precision &&
         in->training_precision == VC_TRAINING_PRECISION_BF16;
}

/* Unsloth's gradient checkpointing (use_gradient_checkpointing="unsloth") sends each layer's
 * saved input to host memory in the forward pass and brings it back for the layer's
 * recomputation (unsloth_zoo/gradient_checkpointing.py, Unsloth_Offloaded_Gradient_Checkpointer:
 * hidden_states.to("cpu", non_blocking = True)). */
gboolean
vc_trainer_offloads_checkpoints (const VcInputs *in)
{
  return in->trainer == VC_TRAINER_UNSLOTH && in->checkpointing == VC_CHECKPOINTING_FULL;
}

/* bitsandbytes' 8-bit optimizers (bitsandbytes/optim/optimizer.py, Optimizer2State.init_state
 * and Optimizer8bit.get_state_buffer): a tensor of fewer than min_8bit_size = 4096 elements keeps
 * fp32 state; a larger one two uint8 states and an fp32 absmax per block of 256 for each. A paged
 * optimizer allocates the two states of a tensor of 1e5 elements or more with F.get_paged (CUDA
 * unified memory, outside PyTorch's caching allocator, which the driver moves to system RAM when
 * the GPU runs short); the absmax and smaller tensors' state are ordinary tensors. */
#define BNB_OPTIM_BLOCK 256.0
#define BNB_MIN_8BIT_SIZE 4096.0
#define BNB_PAGED_MIN_ELEMENTS 1e5

/* Bytes per optimizer state value and number of state values per trainable parameter. */
static double
optimizer_bytes_per_param (const VcInputs *in)
{
  double state_bytes = vc_trainer_bf16_state (in) ? 2 : 4;

  switch (in->optimizer)
    {
    case VC_OPTIMIZER_SGD:
      return 0;
    case VC_OPTIMIZER_SGD_MOMENTUM:
    case VC_OPTIMIZER_RMSPROP:
      return state_bytes;
    case VC_OPTIMIZER_ADAMW_8BIT:
      /* bitsandbytes: two uint8 states and one fp32 absmax per block of 2048 */
      return 2.0 * (1.0 + 4.0 / 2048.0);
    case VC_OPTIMIZER_PAGED_ADAMW_8BIT:
      /* counted tensor by tensor in training_architecture() (trainable_tensors()); this is a
       * large tensor's (the rule of thumb has no tensors: vc-layout.c refuses it there) */
      return 2.0 * (1.0 + 4.0 / BNB_OPTIM_BLOCK);
    case VC_OPTIMIZER_ADAM:
    case VC_OPTIMIZER_ADAMW:
    default:
      return 2 * state_bytes;
    }
}

/* The optimizer step's temporary: torch.optim's foreach Adam and AdamW (_multi_tensor_adam,
 * exp_avg_sq_sqrt = torch._foreach_sqrt(device_exp_avg_sqs)) and RMSprop (_multi_tensor_rmsprop,
 * avg = torch._foreach_sqrt(grouped_square_avgs)) allocate one state-sized tensor a parameter,
 * all alive at once; the fused step (_fused_adam), SGD's in-place step, bitsandbytes' 8-bit
 * kernels and the step in the backward pass (one parameter at a time) allocate none that counts. */
double
vc_estimator_step_temporary (const VcInputs *in,
                             double          trainable)
{
  double state_bytes = vc_trainer_bf16_state (in) ? 2 : 4;

  if (in->optimizer_in_backward || vc_trainer_optimizer_impl (in) != VC_OPTIMIZER_IMPL_FOREACH)
    return 0;
  switch (in->optimizer)
    {
    case VC_OPTIMIZER_ADAM:
    case VC_OPTIMIZER_ADAMW:
    case VC_OPTIMIZER_RMSPROP:
      return trainable * state_bytes;
    default:
      return 0;
    }
}

/* The precision a training run keeps its trainable parameters, gradients and activations in:
 * the training precision, never the inference tab's weight precision. */
static double
training_bytes (const VcInputs *in)
{
  return vc_precision_bytes ((VcPrecision) in->training_precision);
}

/* Gradient checkpointing is a training input: inference never sees it. */
static double
checkpoint_factor (const VcInputs *in)
{
  double L = MAX (1u, in->arch.n_layers);

  if (in->mode != VC_MODE_TRAINING)
    return 1.0;
  switch (in->checkpointing)
    {
    case VC_CHECKPOINTING_SQRT:
      return 1.0 / sqrt (L);
    case VC_CHECKPOINTING_FULL:
      return MIN (1.0, 2.0 / L);
    case VC_CHECKPOINTING_NONE:
    default:
      return 1.0;
    }
}

static void
scenario_total (VcScenarioResult *sc)
{
  sc->total = 0;
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    {
      sc->bytes[c] = round (MAX (0.0, sc->bytes[c]));
      sc->total += sc->bytes[c];
    }
}

static VcScenario
inference_scenario_for (VcPrecision precision)
{
  switch (precision)
    {
    case VC_PRECISION_FP32: return VC_SCENARIO_INFERENCE_32BIT;
    case VC_PRECISION_FP8:
    case VC_PRECISION_INT8:
    case VC_PRECISION_Q8_0:
    case VC_PRECISION_Q6_K: return VC_SCENARIO_INFERENCE_8BIT;
    case VC_PRECISION_INT4:
    case VC_PRECISION_Q5_K_M:
    case VC_PRECISION_Q4_K_M:
    case VC_PRECISION_Q3_K_M:
    case VC_PRECISION_Q2_K:
    case VC_PRECISION_IQ4_XS:
    case VC_PRECISION_GPTQ_INT4:
    case VC_PRECISION_AWQ_INT4:
    case VC_PRECISION_MXFP4:
    case VC_PRECISION_NF4: return VC_SCENARIO_INFERENCE_4BIT;
    case VC_PRECISION_FP16:
    case VC_PRECISION_BF16:
    default: return VC_SCENARIO_INFERENCE_16BIT;
    }
}

VcScenario
vc_precision_inference_scenario (VcPrecision precision)
{
  return inference_scenario_for (precision);
}

/* The weight precision each inference scenario stands for: the selected one when it belongs to
 * the scenario (fp8 or int8 for 8 bits, fp16 or bf16 for 16), else the usual one. */
static VcPrecision
inference_precision_of (VcScenario scenario,
                        VcPrecision selected)
{
  if (inference_scenario_for (selected) == scenario)
    return selected;
  switch (scenario)
    {
    case VC_SCENARIO_INFERENCE_32BIT: return VC_PRECISION_FP32;
    case VC_SCENARIO_INFERENCE_8BIT: return VC_PRECISION_INT8;
    case VC_SCENARIO_INFERENCE_4BIT: return VC_PRECISION_INT4;
    case VC_SCENARIO_INFERENCE_16BIT:
    default: return VC_PRECISION_BF16;
    }
}

/* ---- Rule of thumb (seed 000) ---------------------------------------------------------- */

static void
rule_of_thumb (const VcInputs *in,
               VcResult       *res)
{
  double P = in->parameters;
  double A = (in->model_type == VC_MODEL_TYPE_MOE && in->active_parameters > 0)
             ? in->active_parameters : P;
  double overhead = vc_inputs_overhead_bytes (in);
  /* "about 10 % of a 16-bit model's footprint at b = 1, s = 2048", scaled by b·s (and C for
   * the KV cache); divided last so the seed's figures come out exactly. */
  double activations = A * 2.0 * in->batch * in->seq / 20480.0 * checkpoint_factor (in);

  res->parameters = P;
  res->active_parameters = A;
  res->kv_bytes_per_token = -1;

  if (in->mode == VC_MODE_INFERENCE)
    {
      double kv = A * 2.0 * in->batch * in->seq * in->concurrency / 20480.0;

      for (guint i = 0; i < res->n_scenarios; i++)
        {
          VcScenarioResult *sc = &res->scenarios[i];
          VcPrecision p = inference_precision_of (sc->id, in->precision);

          sc->weight_bits = vc_precision_bits (p);
          sc->bytes[VC_COMPONENT_WEIGHTS] = P * vc_precision_bytes (p);
          sc->bytes[VC_COMPONENT_KV_CACHE] = kv;
          sc->bytes[VC_COMPONENT_ACTIVATIONS] = activations;
          sc->bytes[VC_COMPONENT_OVERHEAD] = overhead;
        }
      return;
    }

  for (guint i = 0; i < res->n_scenarios; i++)
    {
      VcScenarioResult *sc = &res->scenarios[i];
      double T = sc->id == VC_SCENARIO_FULL ? P : P * in->lora_percent / 100.0;
      double weight_bytes;

      switch (sc->id)
        {
        case VC_SCENARIO_QLORA_8BIT: weight_bytes = 1.0; break;
        case VC_SCENARIO_QLORA_4BIT: weight_bytes = 0.5; break;
        default: weight_bytes = training_bytes (in); break;
        }
      sc->weight_bits = weight_bytes * 8;
      sc->trainable_parameters = T;
      sc->bytes[VC_COMPONENT_WEIGHTS] = P * weight_bytes;
      /* the seed: gradients in 16 bits, optimizer state in 32 */
      sc->bytes[VC_COMPONENT_GRADIENTS] = T * training_bytes (in);
      sc->bytes[VC_COMPONENT_OPTIMIZER] = T * optimizer_bytes_per_param (in);
      sc->bytes[VC_COMPONENT_MASTER_WEIGHTS] = in->mixed_precision ? T * 4.0 : 0;
      sc->bytes[VC_COMPONENT_ACTIVATIONS] = activations;
      sc->bytes[VC_COMPONENT_OVERHEAD] = overhead;
    }
}

/* ---- Architecture ------------------------------------------------------------------------ */

typedef struct
{
  VcParamCounts counts;
  double h, q_dim, kv_dim, V, L;
  double n_dense, n_moe;          /* layers with a dense MLP, with a MoE block */
  double dense_inter;             /* feed-forward width a token goes through */
  double moe_inter;               /* routed experts × expert size + shared */
} Shapes;

/* The widths and layer counts alone, without the parameter counts (left at zero): what an
 * inference estimate's memory besides its weights reads (vc_estimator_inference_memory()) */
static void
shapes_init_dims (const VcArch *arch,
                  Shapes       *s)
{
  double d = vc_arch_head_dim (arch);

  memset (&s->counts, 0, sizeof s->counts);
  s->h = arch->hidden_size;
  s->V = arch->vocab_size;
  s->L = arch->n_layers;
  if (vc_arch_is_mla (arch))
    {
      /* in training the latent is expanded to full keys and values */
      s->q_dim = (double) arch->n_heads * (arch->qk_nope_head_dim + arch->qk_rope_head_dim);
      s->kv_dim = (s->q_dim + (double) arch->n_heads * arch->v_head_dim) / 2.0;
    }
  else
    {
      s->q_dim = arch->n_heads * d;
      s->kv_dim = arch->n_kv_heads * d;
    }
  s->dense_inter = arch->intermediate_size;
  s->n_dense = s->L;
  s->n_moe = 0;
  s->moe_inter = 0;
  if (vc_arch_is_moe (arch))
    {
      double e = arch->expert_intermediate_size ? arch->expert_intermediate_size
                                                : arch->intermediate_size;
      double shared = arch->shared_intermediate_size ? arch->shared_intermediate_size
                                                     : arch->n_shared_experts * e;

      s->n_dense = MIN (s->L, arch->dense_layers);
      s->n_moe = s->L - s->n_dense;
      s->moe_inter = arch->experts_per_token * e + shared;
    }
}

static void
shapes_init (const VcArch *arch,
             Shapes       *s)
{
  shapes_init_dims (arch, s);
  vc_arch_count_params (arch, &s->counts);
}

/* Weights stored for inference at `p`, or for a quantized training base: 8/4-bit formats
 * quantize the linear layers only, keeping embeddings, head, norms and biases in 16 bits
 * (bitsandbytes, GPTQ/AWQ, vLLM fp8 and QLoRA all do). */
static double
stored_weights (const Shapes *s,
                double        linear_bits,
                gboolean      quantized,
                double        float_bytes)
{
  const VcParamCounts *c = &s->counts;

  if (!quantized)
    return c->total * float_bytes;
  return c->linear * linear_bits / 8.0 + (c->embedding + c->head + c->other) * 2.0;
}

static double
kv_cache_bytes (const VcInputs *in,
                double          kv_value_bytes)
{
  const VcArch *arch = &in->arch;
  double per_layer = vc_arch_kv_elements_per_token_layer (arch) * kv_value_bytes;
  double sliding = arch->sliding_window > 0 ? arch->sliding_window_layers : 0;
  double full = vc_arch_attention_layers (arch) - sliding;
  double s = vc_engine_context_tokens (in);
  double windowed = arch->sliding_window > 0 ? MIN (s, (double) arch->sliding_window) : s;
  double n_seq = (double) in->batch * in->concurrency;

  if (vc_engine_is_llama_cpp (in))
    {
      /* llama.cpp: n_ctx cells for the full-attention layers, whatever the streams; each
       * stream's own window for the sliding-window layers; keys and values at their types */
      VcLlamaCpp l;

      vc_engine_llama_cpp (in, &l);
      per_layer = vc_arch_kv_elements_per_token_layer (arch) * (l.k_bytes + l.v_bytes) / 2.0;
      return per_layer * (full * l.n_ctx + sliding * l.swa_cells * l.n_stream);
    }
  return n_seq * per_layer * (full * s + sliding * windowed);
}

/* Linear-attention and SSM layers keep one state per sequence, whatever its length: b × C
 * sequences × layers × values, at the KV cache's precision (vLLM's default keeps it in the
 * model's dtype). */
static double
sequence_state_bytes (const VcInputs *in,
                      double          kv_value_bytes)
{
  return (double) in->batch * in->concurrency * vc_arch_state_elements (&in->arch) * kv_value_bytes;
}

static double
kv_value_bytes (VcPrecision p)
{
  switch (p)
    {
    case VC_PRECISION_INT8: return KV_INT8_BITS / 8.0;
    case VC_PRECISION_INT4: return KV_INT4_BITS / 8.0;
    default: return vc_precision_bytes (p);
    }
}

/* The worst-case graph of llama_context::sched_reserve (src/llama-context.cpp) for the
 * architectures whose graph vc-llama-graph.c rebuilds: pre-norm (or Gemma's sandwich-norm)
 * decoders with gated feed-forward blocks, grouped-query attention with optional q/k/v and
 * output biases and q/k norms, a sliding window on all but every n-th layer, softmax-routed
 * experts without shared ones. graph_reserve: n_tokens = min(n_ctx, n_ubatch) rounded up to a
 * multiple of the sequences, n_outputs = min(n_ubatch, n_batch); the mask spans each stream's
 * cells; a quantized K (or V) cache with heads of a multiple of 64 rotates q and k (v and the
 * output) by a Hadamard matrix (llama_kv_cache's attn_rot_k, attn_rot_v). */
gboolean
vc_estimator_llama_cpp_graph (const VcInputs *in,
                              VcLlamaGraph   *g)
{
  const VcArch *arch = &in->arch;
  VcLlamaCpp lc, *l = &lc;
  double attention = vc_arch_attention_layers (arch);
  double sliding = arch->sliding_window > 0 ? MIN (arch->sliding_window_layers, attention) : 0;
  guint hd = vc_arch_head_dim (arch);
  double n_tokens;

  *g = (VcLlamaGraph) { 0 };
  if (!vc_engine_is_llama_cpp (in) || in->method != VC_METHOD_ARCHITECTURE)
    return FALSE;
  vc_engine_llama_cpp (in, l);
  n_tokens = MIN (l->n_ctx, l->n_ubatch);
  if (!arch->gated_mlp || vc_arch_is_mla (arch) || arch->recurrent_layers > 0 || arch->n_shared_experts > 0 ||
      arch->gated_attention || arch->dense_layers > 0 || arch->router_bias || arch->max_positions > 0 ||
      arch->norm != VC_NORM_RMS || (arch->norms_per_layer != 2 && arch->norms_per_layer != 4) ||
      arch->n_layers == 0 || attention != arch->n_layers || hd == 0 || arch->n_kv_heads == 0 ||
      (sliding > 0 && (sliding >= attention || fmod (attention, attention - sliding) != 0)) ||
      n_tokens < 1 || n_tokens > 65536 || l->n_seq > 256 || arch->n_layers > 1000)
    return FALSE;
  g->n_embd = arch->hidden_size;
  g->n_head = arch->n_heads;
  g->n_head_kv = arch->n_kv_heads;
  g->head_dim = hd;
  g->n_ff = arch->intermediate_size;
  g->n_layer = arch->n_layers;
  g->n_vocab = arch->vocab_size;
  g->n_expert = arch->n_experts;
  g->n_expert_used = arch->experts_per_token;
  g->n_ff_exp = arch->expert_intermediate_size > 0 ? arch->expert_intermediate_size : arch->intermediate_size;
  g->qkv_bias = arch->qkv_bias;
  g->o_bias = arch->o_bias;
  g->qk_norm = arch->qk_norm;
  g->swa = sliding > 0;
  g->n_swa_pattern = sliding > 0 ? (guint) (attention / (attention - sliding)) : 0;
  g->n_stream = (guint) l->n_stream;
  g->n_tokens = (guint) (ceil (n_tokens / l->n_seq) * l->n_seq);
  g->n_outputs = (guint) MIN (n_tokens, l->n_batch);
  g->n_kv = l->n_ctx_seq;
  g->n_kv_swa = l->swa_cells;
  g->flash_attn = in->flash_attention;
  g->k_rot = vc_engine_cache_type_is_quantized (in->cache_type_k, in->kv_precision) && hd % 64 == 0;
  g->v_rot = vc_engine_cache_type_is_quantized (in->cache_type_v, in->kv_precision) && hd % 64 == 0;
  g->alignment = 32;
  if (g->n_expert > 0 && (g->n_expert_used == 0 || g->n_expert_used > g->n_expert))
    return FALSE;
  return TRUE;
}

/* llama.cpp's compute buffer: what the ggml graph allocator reserves for the worst-case graph
 * (llama_context::sched_reserve, src/llama-context.cpp) of b = n_ubatch tokens spread over the
 * streams, each against its n_ctx_seq cells, with logits for all b tokens (n_outputs_max is
 * n_batch). The largest of three moments, each with the attention masks, which live from the
 * first layer to the last (one per cache: f32, f16 with flash attention):
 *  - attention without flash attention: the f32 scores of the a heads, softmaxed in place,
 *    4·b·a·n_kv, beside the residual stream, the normed input and the attention output (3h),
 *    q and its rotated copy (2·q_dim), k and v (2·kv_dim), 4 bytes each a token;
 *  - the feed-forward block: the residual, its input, the normed input and the output (4h),
 *    gate, up and their product (3 × the width a token goes through);
 *  - the output: f32 logits and the last hidden state, normed: 4·b·(V + 2h).
 * Measured against llama.cpp on the CPU backend (tests/engines/). */
static double
llama_cpp_compute_buffer (const VcInputs *in,
                          const Shapes   *s)
{
  const VcArch *arch = &in->arch;
  VcLlamaCpp l;
  VcLlamaGraph graph;
  double b, n_kv, masks, mask_bytes, attention, ffn, logits, inter;
  gboolean swa = arch->sliding_window > 0 && arch->sliding_window_layers > 0;
  gboolean full = vc_arch_attention_layers (arch) > (swa ? arch->sliding_window_layers : 0);

  vc_engine_llama_cpp (in, &l);
  if (vc_estimator_llama_cpp_graph (in, &graph))
    return vc_llama_graph_compute_bytes (&graph);
  b = l.n_ubatch;
  /* the cells each stream's scores span: its whole context, or the window's cache */
  n_kv = full ? l.n_ctx_seq : l.swa_cells;
  masks = (full ? l.n_ctx_seq : 0) + (swa ? l.swa_cells : 0);
  mask_bytes = in->flash_attention ? 2.0 : 4.0;
  attention = b * masks * mask_bytes + 4.0 * b * (3.0 * s->h + 2.0 * s->q_dim + 2.0 * s->kv_dim);
  if (!in->flash_attention)
    attention += 4.0 * b * arch->n_heads * n_kv;
  inter = MAX (s->n_dense > 0 ? s->dense_inter : 0, s->n_moe > 0 ? s->moe_inter : 0);
  ffn = b * masks * mask_bytes + 4.0 * b * (4.0 * s->h + 3.0 * inter);
  logits = 4.0 * b * (s->V + 2.0 * s->h);
  return MAX (attention, MAX (ffn, logits));
}

/* vLLM's sampler at the profile run (vllm/v1/worker/gpu_model_runner.py, _dummy_sampler_run;
 * vllm/v1/sample/sampler.py, Sampler.forward; vllm/v1/sample/ops/topk_topp_sampler.py,
 * apply_top_k_top_p, the native path): bytes held per logit while the sort of the dummy top-k /
 * top-p runs: the model's 16-bit logits (2), their fp32 copy (4), the sorted values (4) and
 * int64 indices (8), the int64 positions the sort pairs with the keys (8) and the sort's
 * temporary keys and values (4 + 8). */
#define VLLM_SAMPLER_BYTES_PER_LOGIT (2.0 + 4.0 + 4.0 + 8.0 + 8.0 + 12.0)

/* With FlashInfer's sampler (--vllm-sampler flashinfer: TopKTopPSampler.forward_cuda, then
 * flashinfer_sample in vllm/v1/sample/ops/topk_topp_sampler.py, the dummy run setting both
 * top-k and top-p): flashinfer.sampling.top_k_top_p_sampling_from_logits, filter_apply_order
 * "top_k_first", masks the fp32 logits into a new tensor (top_k_mask_logits, empty_like: 4),
 * takes its softmax (4) and samples from it by rejection, sorting nothing: with the model's
 * 16-bit logits (2) and their fp32 copy (4), 14 bytes a logit. */
#define VLLM_FLASHINFER_SAMPLER_BYTES_PER_LOGIT (2.0 + 4.0 + 4.0 + 4.0)

/* vLLM 0.17.0 to 0.19 (--engine-version 0.17; FORMULAS.md, "The sampler by --engine-version"):
 * apply_top_k_top_p (topk_topp_sampler.py) masks 8 requests or more in place with the Triton
 * kernel of pull request #33538 (topk_topp_triton.py, apply_top_k_top_p_triton) when Triton is
 * present, and FlashInfer's sampler is off unless VLLM_USE_FLASHINFER_SAMPLER=1. No sort:
 * forward_native then holds the 16-bit logits (2), their fp32 copy masked in place (4), the
 * fp32 softmax (4) and random_sample's exponential noise of its shape (4), and the kernel's own
 * buffer (vc_estimator_vllm_triton_buffer()). Below 8 requests apply_top_k_top_p still sorts
 * (apply_top_k_top_p_pytorch). */
#define VLLM_TRITON_SAMPLER_BYTES_PER_LOGIT (2.0 + 4.0 + 4.0 + 4.0)
#define VLLM_TRITON_SAMPLER_MIN_REQUESTS 8.0

/* Bytes per logit of vLLM's dummy sampler run with `requests` requests, by sampler and release */
double
vc_estimator_vllm_sampler_bytes_per_logit (const VcInputs *in,
                                           double          requests)
{
  if (in->vllm_sampler == VC_VLLM_SAMPLER_FLASHINFER)
    return VLLM_FLASHINFER_SAMPLER_BYTES_PER_LOGIT;
  if (in->vllm_version == VC_VLLM_VERSION_0_17 && requests >= VLLM_TRITON_SAMPLER_MIN_REQUESTS)
    return VLLM_TRITON_SAMPLER_BYTES_PER_LOGIT;
  return VLLM_SAMPLER_BYTES_PER_LOGIT;
}

/* next_power_of_2 of vllm/utils/math_utils.py: 1 << (n - 1).bit_length(), 1 below 1 */
static double
vllm_next_power_of_2 (double n)
{
  double p = 1;

  while (p < n)
    p *= 2;
  return p;
}

/* The buffer of vLLM 0.17 to 0.19's Triton top-k/top-p kernel (pull request #33538;
 * apply_top_k_top_p_triton in vllm/v1/sample/ops/topk_topp_triton.py, stored commit 08a5723):
 * NUM_PROGRAMS = min(num_sm, batch) programs, num_sm being num_compute_units() of the logits'
 * device (vllm/utils/platform_utils.py: current_platform.num_compute_units, torch's
 * multi_processor_count on CUDA), each gathering its row's outliers in a row of a
 * [rows, vocabulary] tensor in the logits' dtype (fp32), rows = min(next_power_of_2(NUM_PROGRAMS),
 * num_sm), allocated at the first call and kept in _TRITON_BUFFER_CACHE, never freed: held
 * through the profile run's sampler. TRUE where the profile run takes that kernel (the sampler
 * bytes of vc_estimator_vllm_sampler_bytes_per_logit() are the Triton path's); then @bytes is
 * the buffer on the card of the inputs (vc_engine_on_card(): its SM count), 0 where the count
 * is not known, and @bound its most on any card, next_power_of_2(requests) rows. */
gboolean
vc_estimator_vllm_triton_buffer (const VcInputs *in,
                                 double          requests,
                                 double         *bytes,
                                 double         *bound)
{
  double row = 4.0 * in->arch.vocab_size, sms = in->gpu_sm_count;

  *bytes = *bound = 0;
  if (in->vllm_sampler == VC_VLLM_SAMPLER_FLASHINFER || in->vllm_version != VC_VLLM_VERSION_0_17 ||
      requests < VLLM_TRITON_SAMPLER_MIN_REQUESTS)
    return FALSE;
  *bound = vllm_next_power_of_2 (requests) * row;
  if (sms > 0)
    *bytes = MIN (vllm_next_power_of_2 (MIN (sms, requests)), sms) * row;
  return TRUE;
}

/* vLLM's fused-MoE chunk (envs.py, VLLM_FUSED_MOE_CHUNK_SIZE, default 32768 tokens) */
#define VLLM_FUSED_MOE_CHUNK_TOKENS 32768.0

/* FP8 experts on a card without FP8 arithmetic (compute capability 8.0 to 8.8, an A100 or an RTX
 * 3090), from 0.14, without expert parallelism, one chunk: vLLM serves them weight-only through
 * Marlin, MarlinExperts in the modular kernel (pull request #31036, "[MoE Refactor][4/N] Marlin
 * Fp8 Mk", opened 2025-12-19 beside #31052), every other class refusing the card
 * (TritonExperts._supports_quant_scheme wants FP8 from 8.9, DeepGEMM and FlashInfer's from 9.0;
 * before the oracle, get_fp8_moe_backend's "weight-only path for older GPUs without native FP8",
 * use_marlin = not has_device_capability(89)). MarlinExperts.workspace_shapes
 * (experts/marlin_moe.py): workspace1 (M·k, max(N, K)), workspace2 (M·k·max(2N, K)), N the
 * rank's expert width, the output (M, K) in the common buffer: TritonExperts' bytes. */
static gboolean
vllm_fp8_marlin (const VcInputs *in,
                 double          tokens)
{
  return in->precision == VC_PRECISION_FP8 && vc_engine_vllm_minor (in) >= 14 && in->vllm_card_cc >= 80 &&
         in->vllm_card_cc < 89 && in->layout.ep <= 1 && tokens <= VLLM_FUSED_MOE_CHUNK_TOKENS;
}

/* From 0.14.0 (--engine-version 0.14 and later), vLLM runs 16-bit MoE experts through the
 * modular kernel (pull request #31052, merged after 0.13.0; "Using TRITON backend for
 * Unquantized MoE" in the logs): FusedMoEModularKernel._allocate_buffers takes TritonExperts'
 * workspace_shapes (fused_moe.py) from the workspace manager (vllm/v1/worker/workspace.py),
 * one buffer that grows to the largest request and is never freed, so that it is still held
 * when the profile run's sampler runs. For M tokens (max_num_batched_tokens, in chunks of
 * VLLM_FUSED_MOE_CHUNK_TOKENS), k experts a token, hidden size K and w1's N = 2 × the rank's
 * expert width I (gated; I alone otherwise): workspace13 (M, k, max(N/2, K)), sharing its
 * storage with the output (M, K), and workspace2 (M, k, max(N, K)), in the activations' dtype,
 * each rounded up to 256 bytes (get_simultaneous). The rank's expert width is I/TP, or I whole
 * under expert parallelism. FP8 experts on a card without FP8 arithmetic take MarlinExperts,
 * the same bytes (vllm_fp8_marlin); other quantized experts' classes follow the machine and are
 * bounded instead (vc_estimator_vllm_moe_workspace_bound_bytes); a GGUF's experts, even in 16
 * bits, go through GGUFMoEMethod (quantization/gguf.py, GGUFConfig.get_quant_method), which
 * keeps no workspace. */
double
vc_estimator_vllm_moe_workspace_bytes (const VcInputs *in,
                                       double          tokens,
                                       double          n)
{
  const VcArch *a = &in->arch;
  double e = 2.0, inter, width, m, k, ws13, ws2;

  if (vc_engine_vllm_minor (in) < 14 || !vc_arch_is_moe (a) || a->experts_per_token == 0 || in->llama_cpp ||
      (in->precision != VC_PRECISION_BF16 && in->precision != VC_PRECISION_FP16 && !vllm_fp8_marlin (in, tokens)))
    return 0;
  inter = a->expert_intermediate_size ? a->expert_intermediate_size : a->intermediate_size;
  width = in->layout.ep > 1 ? inter : inter / n;
  m = MIN (tokens, VLLM_FUSED_MOE_CHUNK_TOKENS);
  k = a->experts_per_token;
  ws13 = MAX (m * k * MAX (width, a->hidden_size), tokens * a->hidden_size) * e;
  ws2 = m * k * MAX ((a->gated_mlp ? 2.0 : 1.0) * width, a->hidden_size) * e;
  return ceil (ws13 / 256) * 256 + ceil (ws2 / 256) * 256;
}

/* DeepGEMM's contiguous layout aligns each local expert's rows to 128
 * (get_mk_alignment_for_contiguous_layout) */
#define VLLM_DEEPGEMM_M_ALIGNMENT 128.0

/* Quantized experts (FP8, INT8, 4-bit, MXFP4, NF4): vLLM picks their experts class by release,
 * card, the kernels installed (DeepGEMM, FlashInfer) and environment variables
 * (select_fp8_moe_backend, vllm/model_executor/layers/fused_moe/oracle/fp8.py, and its
 * siblings), so whether a workspace stays allocated, and how large, is the machine's. From 0.14
 * the modular kernel takes it from the workspace manager; before, the classes that ran through
 * FusedMoEModularKernel (DeepGEMM, CUTLASS, FlashInfer) kept it in the class's SharedBuffers
 * (SharedResizableBuffer, never freed either), the Triton path's fused_experts freeing its
 * caches after each call. Each class's workspace_shapes, in the activations' dtype
 * (workspace_dtype: 16 bits; CutlassExpertsFp8 its out_dtype, the same), is at most
 * DeepGemmExperts' (experts/deep_gemm_moe.py): M_sum rows, M·k plus 127 for each of the rank's
 * experts rounded up to 128 (compute_aligned_M, deep_gemm_utils.py), of max(N/2, K) for
 * workspace13 (the output (M, K) inside it) and max(N, K) for workspace2; TritonExperts,
 * CutlassExpertsFp8 and MarlinExperts take the same widths over M·k rows, FlashInferExperts
 * (M, K) alone, TritonOrDeepGemmExperts the larger of its two. M is taken whole (a class that
 * does not chunk); before 0.14 a chunked run kept its output (M, K) apart. That bound, per GPU
 * of n; 0 for 16-bit experts (counted above from 0.14, freed before) and a GGUF's
 * (GGUFMoEMethod). */
double
vc_estimator_vllm_moe_workspace_bound_bytes (const VcInputs *in,
                                             double          tokens,
                                             double          n)
{
  const VcArch *a = &in->arch;
  double e = 2.0, inter, width, local, rows, ws13, ws2, out;

  if (!vc_arch_is_moe (a) || a->experts_per_token == 0 || in->llama_cpp || vllm_fp8_marlin (in, tokens))
    return 0;
  switch (in->precision)
    {
    case VC_PRECISION_FP8:
    case VC_PRECISION_INT8:
    case VC_PRECISION_INT4:
    case VC_PRECISION_GPTQ_INT4:
    case VC_PRECISION_AWQ_INT4:
    case VC_PRECISION_MXFP4:
    case VC_PRECISION_NF4:
      break;
    default:
      return 0;
    }
  inter = a->expert_intermediate_size ? a->expert_intermediate_size : a->intermediate_size;
  width = in->layout.ep > 1 ? inter : inter / MAX (1.0, n);
  local = in->layout.ep > 1 ? ceil ((double) a->n_experts / in->layout.ep) : a->n_experts;
  rows = ceil ((tokens * a->experts_per_token + local * (VLLM_DEEPGEMM_M_ALIGNMENT - 1)) / VLLM_DEEPGEMM_M_ALIGNMENT) *
         VLLM_DEEPGEMM_M_ALIGNMENT;
  ws13 = MAX (rows * MAX (width, a->hidden_size), tokens * a->hidden_size) * e;
  ws2 = rows * MAX ((a->gated_mlp ? 2.0 : 1.0) * width, a->hidden_size) * e;
  out = vc_engine_vllm_minor (in) < 14 && tokens > VLLM_FUSED_MOE_CHUNK_TOKENS ? tokens * a->hidden_size * e : 0;
  return ceil (ws13 / 256) * 256 + ceil (ws2 / 256) * 256 + out;
}

/* That bound where vLLM's figure on @gpu (NULL: a card of 70 GiB or more, of unknown compute
 * capability) at TP `tp` leaves the workspace out: the profile run's batch for the card; 0 for
 * another engine or mode, with --kv-cache-memory, which takes the cache as given, and where the
 * card's figure counts it (vllm_fp8_marlin) */
double
vc_estimator_vllm_moe_uncounted_bytes (const VcInputs *in,
                                       const VcGpu    *gpu,
                                       double          tp)
{
  guint tokens, seqs;
  VcInputs at;

  if (in->engine != VC_ENGINE_VLLM || in->mode != VC_MODE_INFERENCE || in->kv_cache_memory_gb > 0)
    return 0;
  /* the card's batch and compute capability */
  vc_engine_on_card (in, gpu, &at);
  vc_engine_vllm_batch (&at, gpu, &tokens, &seqs);
  return vc_estimator_vllm_moe_workspace_bound_bytes (&at, tokens, tp);
}

/* vLLM's profile run (gpu_model_runner.py, profile_run): a forward pass of `tokens` tokens
 * (max_num_batched_tokens) with attention skipped, then the sampler on `seqs` requests
 * (min(max_num_seqs, tokens)), each logit of the full vocabulary, which every GPU gathers under
 * tensor parallelism; the forward's hidden states are still held. The peak is the larger of
 * the two, per GPU of n. To it comes what memory_profiling (vllm/utils/__init__.py, 0.10 and
 * 0.11; vllm/utils/mem_utils.py later) counts as non_torch_increase, the device memory outside
 * PyTorch's allocator allocated since init_device's snapshot: the handles cuBLAS and cuBLASLt
 * create at the first matmul and the kernels CUDA loads lazily on first use (PyTorch's own
 * cuBLAS workspaces come from its caching allocator, CublasHandlePool.cpp, and are torch
 * memory). Nothing in vLLM sizes it: VC_VLLM_NON_TORCH_BYTES is what vLLM logs on one GPU. */
double
vc_estimator_vllm_profile_bytes (const VcInputs *in,
                                 double          tokens,
                                 double          seqs,
                                 double          n)
{
  Shapes s;
  double e = 2.0, inter, attn, mlp, forward, sampler, triton, bound;
  VcVllmMmProfile mm;

  shapes_init_dims (&in->arch, &s);
  n = MAX (1.0, n);
  inter = MAX (s.n_dense > 0 ? s.dense_inter : 0, s.n_moe > 0 ? s.moe_inter : 0);
  attn = tokens * (2.0 * s.q_dim + 2.0 * s.kv_dim) * e / n;
  mlp = tokens * inter * (in->arch.gated_mlp ? 3.0 : 2.0) * e / n;
  forward = 2.0 * tokens * s.h * e + MAX (attn, mlp);
  vc_estimator_vllm_triton_buffer (in, MIN (seqs, tokens), &triton, &bound);
  sampler = MIN (seqs, tokens) * s.V * vc_estimator_vllm_sampler_bytes_per_logit (in, MIN (seqs, tokens)) +
            tokens * s.h * e + vc_estimator_vllm_moe_workspace_bytes (in, tokens, n) + triton;
  /* a multimodal model's encoder pass first, its embeddings kept through the text pass
   * (vc-engine-mm.c), where followed */
  if (vc_engine_mm_vllm_profile (in, tokens, seqs, n, &mm))
    return vc_engine_mm_vllm_peak (&mm, MAX (forward, sampler)) + VC_VLLM_NON_TORCH_BYTES;
  return MAX (forward, sampler) + VC_VLLM_NON_TORCH_BYTES;
}

/* Inference: the largest transient of one layer for the tokens processed at once, the residual
 * stream, attention scores without flash attention, and the last position's logits. */
static double
inference_activations (const VcInputs *in,
                       const Shapes   *s)
{
  if (in->engine == VC_ENGINE_VLLM)
    {
      /* the profile run vLLM reserves, with its defaults for a card of 70 GiB or more when
       * the batch is not given (each card’s own in its GPU count, fit and KV capacity, vc_engine_on_card) */
      guint tokens, seqs;

      vc_engine_vllm_batch (in, NULL, &tokens, &seqs);
      return vc_estimator_vllm_profile_bytes (in, tokens, seqs, 1);
    }
  double e = 2.0;
  double seqs = (double) in->batch * in->concurrency;
  double chunk = MIN ((double) in->seq, PREFILL_CHUNK_TOKENS);
  double t = MIN (seqs * in->seq, PREFILL_CHUNK_TOKENS);
  double inter = MAX (s->n_dense > 0 ? s->dense_inter : 0, s->n_moe > 0 ? s->moe_inter : 0);
  double attn = t * (2.0 * s->q_dim + 2.0 * s->kv_dim) * e;
  double mlp = t * inter * (in->arch.gated_mlp ? 3.0 : 2.0) * e;
  double residual = 2.0 * t * s->h * e;
  double logits = seqs * s->V * (e + 4.0);

  if (!in->flash_attention)
    {
      /* eager attention: bf16 scores and their fp32 softmax, for the sequences in the chunk */
      double seqs_in_chunk = MAX (1.0, t / chunk);
      attn += seqs_in_chunk * in->arch.n_heads * chunk * in->seq * (e + 4.0);
    }
  return residual + MAX (attn, mlp) + logits;
}

typedef struct
{
  gboolean full;                  /* every weight trained: each linear keeps its input */
  gboolean quantized_base;        /* bitsandbytes' 4/8-bit matmul keeps its input for the
                                   * input gradient even when the weight is frozen */
  VcLoraTargets targets;          /* LoRA: adapted modules */
  double rank;
} TrainedSet;

/* Bytes autograd keeps per token for one layer, for a MLP width `inter`.
 * Derived like Korthikanti et al. 2022 (34·h + 5·a·s per token for a GPT layer), for what
 * today's fine-tunes run: pre-norm RMSNorm computed in fp32, rotary attention with a_kv
 * key/value heads, gated MLP, no dropout:
 *  - a norm keeps an fp32 copy of its input (4h); with a trained weight also the normalized
 *    value (e·h); its output is kept when a consumer needs it for a weight gradient (e·h);
 *  - flash/SDPA attention keeps q, k, v and its output; eager attention adds the a·s
 *    probabilities per token, fp32 softmax output and bf16 copy (6 bytes each);
 *  - the gated MLP keeps gate and up outputs and the activation (3·e·I), and the product when
 *    the down projection needs it (e·I);
 *  - a frozen linear keeps nothing; a LoRA adapter keeps its rank-r intermediate. */
#define MAX_LAYER_TENSORS 24

/* The tensors of layer_saved_bytes(), one value per tensor (bytes per token), in `out`; returns
 * how many. */
static guint
layer_saved_tensors (const VcInputs   *in,
                     const Shapes     *s,
                     const TrainedSet *tr,
                     double            inter,
                     double            e,
                     double           *out)
{
  const VcArch *arch = &in->arch;
  gboolean keep = tr->full || tr->quantized_base;
  gboolean qkv_grad = keep || (tr->targets & (VC_LORA_TARGET_Q | VC_LORA_TARGET_K | VC_LORA_TARGET_V));
  gboolean up_grad = keep || (tr->targets & (VC_LORA_TARGET_GATE | VC_LORA_TARGET_UP));
  gboolean down_grad = keep || (tr->targets & VC_LORA_TARGET_DOWN);
  /* compiled (Inductor) norms keep their 16-bit input and recompute the rest */
  double norm_fp32 = in->compile ? e * s->h : 4.0 * s->h;
  guint n_norms = MIN (arch->norms_per_layer, 4u);
  guint n = 0;

  /* norms: fp32 input copy each, normalized value when the norm weight trains */
  for (guint i = 0; i < n_norms; i++)
    {
      out[n++] = norm_fp32;
      if (tr->full)
        out[n++] = e * s->h;
    }
  /* norm outputs feeding attention and MLP, when their linears need the input */
  if (qkv_grad)
    out[n++] = e * s->h;
  if (up_grad && arch->norms_per_layer != 1)
    out[n++] = e * s->h;

  /* attention: q, k, v, output, log-sum-exp */
  out[n++] = e * s->q_dim;
  out[n++] = e * s->kv_dim;
  out[n++] = e * s->kv_dim;
  out[n++] = e * s->q_dim;
  out[n++] = 4.0 * arch->n_heads;
  if (!in->flash_attention)
    out[n++] = (double) arch->n_heads * in->seq * (4.0 + e);

  /* MLP; compiled, the activation is recomputed from the gate output */
  out[n++] = e * inter;
  if (arch->gated_mlp)
    {
      out[n++] = e * inter;
      if (!in->compile)
        out[n++] = e * inter;
    }
  if (down_grad)
    out[n++] = e * inter;

  if (!tr->full)
    {
      guint n_adapted = 0;

      for (guint bit = 0; bit < 7; bit++)
        if (tr->targets & (1u << bit))
          n_adapted++;
      if (n_adapted > 0)
        out[n++] = n_adapted * e * tr->rank;
    }
  g_assert (n <= MAX_LAYER_TENSORS);
  return n;
}

static double
layer_saved_bytes (const VcInputs   *in,
                   const Shapes     *s,
                   const TrainedSet *tr,
                   double            inter,
                   double            e)
{
  double t[MAX_LAYER_TENSORS];
  guint n = layer_saved_tensors (in, s, tr, inter, e, t);
  double bytes = 0;

  for (guint i = 0; i < n; i++)
    bytes += t[i];
  return bytes;
}

/* The weights a scenario holds; its trainable parameters in *trainable. */
static double
training_weights (const VcInputs   *in,
                  const Shapes     *s,
                  const TrainedSet *tr,
                  VcScenarioResult *sc,
                  double           *trainable)
{
  double e_w = training_bytes (in);
  const VcParamCounts *c = &s->counts;
  double adapters, weights;

  if (tr->full)
    {
      *trainable = c->total;
      sc->weight_bits = e_w * 8;
      return c->total * e_w;
    }
  adapters = vc_arch_lora_params (&in->arch, in->lora_rank, in->lora_targets);
  *trainable = adapters;
  /* a trained embedding (PEFT's modules_to_save, LitGPT's QLoRA, which swaps in a
   * trainable StableEmbedding) adds V·h trainable parameters; its 16-bit weights are
   * already counted in the base */
  if (in->train_embeddings)
    *trainable += (double) in->arch.vocab_size * in->arch.hidden_size;
  switch (sc->id)
    {
    case VC_SCENARIO_QLORA_8BIT:
      sc->weight_bits = INT8_BITS;
      weights = stored_weights (s, INT8_BITS, TRUE, 2.0);
      break;
    case VC_SCENARIO_QLORA_4BIT:
      sc->weight_bits = QLORA_NF4_BITS;
      weights = stored_weights (s, QLORA_NF4_BITS, TRUE, 2.0);
      break;
    case VC_SCENARIO_LORA:
    default:
      sc->weight_bits = e_w * 8;
      weights = c->total * e_w;
      break;
    }
  return weights + adapters * e_w;
}

/* What the layers save for the backward pass, for all b·s tokens, with checkpointing. */
static double
saved_activations (const VcInputs   *in,
                   const Shapes     *s,
                   const TrainedSet *tr,
                   double            e,
                   double            dense_layer,
                   double            moe_layer,
                   double            per_layer_total,
                   double            per_layer_max)
{
  double t = vc_training_rank_tokens (in);
  double layer_input = e * s->h;
  double saved;

  switch (in->checkpointing)
    {
    case VC_CHECKPOINTING_SELECTIVE:
      {
        /* torchtitan's selective per-op checkpointing: each layer's input and the operator
         * outputs it keeps (vc_training_selective_tensors()), and one layer recomputed */
        double kept[MAX_LAYER_TENSORS], layer = 0;
        guint n = vc_training_selective_tensors (in, s->h, s->q_dim, s->kv_dim, s->dense_inter, e, kept);

        for (guint i = 0; i < n; i++)
          layer += kept[i];
        saved = s->L * layer + per_layer_max;
      }
      break;
    case VC_CHECKPOINTING_SELECTIVE_LAYERS:
      {
        /* torchtitan's every N-th layer (vc_training_checkpointed_among()): those keep their
         * input, the others all they save; one checkpointed layer recomputed */
        double c_all = vc_training_checkpointed_among (in, (guint) s->L);
        double c_dense = vc_training_checkpointed_among (in, (guint) s->n_dense);
        double c_moe = c_all - c_dense;

        saved = (s->n_dense - c_dense) * dense_layer + (s->n_moe - c_moe) * moe_layer + c_all * layer_input +
                (c_all > 0 ? per_layer_max : 0);
      }
      break;
    case VC_CHECKPOINTING_FULL:
      /* each layer's input, and one layer recomputed during the backward pass; offloaded
       * (Unsloth), the input of the layer being recomputed alone is back on the GPU */
      saved = (vc_trainer_offloads_checkpoints (in) ? 1.0 : s->L) * layer_input + per_layer_max;
      break;
    case VC_CHECKPOINTING_SQRT:
      /* √L segments: their inputs, and one segment of √L layers recomputed */
      saved = sqrt (s->L) * (layer_input + per_layer_max);
      break;
    case VC_CHECKPOINTING_NONE:
    default:
      saved = per_layer_total;
      break;
    }
  /* the final norm, and the head's input when the head trains */
  saved += 4.0 * s->h + (tr->full ? 2.0 * e * s->h : 0);
  return saved * t;
}

/* Liger's fused linear cross-entropy (liger_kernel/ops/fused_linear_cross_entropy.py,
 * fused_linear_cross_entropy_forward) computes the logits of chunk_size tokens at a time:
 * inc_factor = ⌈V/H⌉, chunk_size = next_power_of_2(⌈BT/inc_factor⌉), never more than BT. */
double
vc_estimator_fused_loss_chunk (double tokens,
                               double vocab,
                               double hidden)
{
  double inc = ceil (vocab / MAX (1.0, hidden));
  double chunk = exp2 (ceil (log2 (MAX (1.0, ceil (tokens / inc)))));

  return MIN (chunk, tokens);
}

/* torchtitan drops its reference to the model's 16-bit logits before the backward pass
 * (torchtitan/trainer.py, forward_backward_step: "del pred", "need to free pred before bwd to
 * avoid peaking memory"; train.py at the benchmarks of docs/performance.md), and
 * cross_entropy_loss's fp32 copy (pred.float()) is not saved by log_softmax, whose backward
 * reads its output alone: the peak is log_softmax's backward, with its fp32 output, the fp32
 * gradient arriving and the fp32 gradient it computes, 12 bytes a logit. */
#define TITAN_LOGIT_BYTES 12.0

gboolean
vc_trainer_frees_logits (const VcInputs *in)
{
  return in->trainer == VC_TRAINER_TORCHTITAN && vc_trainer_loss (in) == VC_LOSS_FULL &&
         !vc_trainer_compiles_loss (in);
}

/* logits: b·s·V values. Unchunked (Hugging Face, torchtune's plain cross-entropy), at the
 * start of the backward pass the 16-bit logits, their fp32 copy, the saved fp32 log-softmax
 * and the fp32 gradient coexist: e + 12 bytes a value. A chunked loss upcasts one chunk at a
 * time and keeps one fp32 log-softmax value per logit. */
static double
logits_bytes (const VcInputs *in,
              const Shapes   *s,
              gboolean        head_trains,
              double          e)
{
  double t = vc_training_rank_tokens (in);
  VcLoss loss = vc_trainer_loss (in);

  if (loss == VC_LOSS_FUSED)
    /* Liger computes the gradients in the forward pass and keeps them for the backward: one
     * chunk's logits in the compute dtype, grad_input (BT × H), the fp32 loss_1d (BT) and, when
     * the head trains, grad_weight (V × H, like the weight) */
    return vc_estimator_fused_loss_chunk (t, s->V, s->h) * s->V * e + t * s->h * e + t * 4.0 +
           (head_trains ? s->V * s->h * training_bytes (in) : 0);
  if (loss == VC_LOSS_CCE)
    /* cut cross-entropy (apple/ml-cross-entropy, cut_cross_entropy/cce.py,
     * LinearCrossEntropyFunction) stores no logits: the forward pass keeps the fp32 log-sum-exp
     * of each token, the backward pass recomputes the logits block by block */
    return t * 4.0;
  if (vc_trainer_compiles_loss (in))
    /* a compiled cross-entropy keeps its input logits and one log-sum-exp per token,
     * recomputing the softmax in the backward pass: 16-bit chunks when chunked; unchunked,
     * the logits arrive upcast to fp32 (torchtune's model output, Hugging Face's loss) and
     * their fp32 gradient joins them */
    return t * s->V * (loss == VC_LOSS_CHUNKED ? e : 8.0);
  if (vc_trainer_frees_logits (in))
    return t * s->V * TITAN_LOGIT_BYTES;
  return t * s->V * (loss == VC_LOSS_CHUNKED ? 4.0 : e + 12.0);
}

/* Ring attention's exchange buffers in one layer (context parallelism), for --explain. */
double
vc_estimator_ring_bytes (const VcInputs *in)
{
  Shapes s;

  shapes_init (&in->arch, &s);
  return vc_training_ring_bytes (in, s.q_dim, s.kv_dim, in->mixed_precision ? 2.0 : training_bytes (in));
}

/* bitsandbytes computes the input gradient of a frozen 8- or 4-bit linear from a 16-bit copy of
 * its weight (bitsandbytes/autograd/_functions.py: MatMul4Bit.backward,
 * F.dequantize_4bit(B, ctx.state).to(grad_output.dtype); MatMul8bitLt.backward,
 * state.CB.to(ctx.dtype_A, copy=True)), one linear at a time: the largest's, 2 bytes a weight,
 * beside the layer's transient in the backward pass. */
static double
dequantized_weight_bytes (const VcInputs   *in,
                          const Shapes     *s,
                          const TrainedSet *tr)
{
  double largest = MAX (s->h * s->q_dim, s->h * s->kv_dim);

  if (!tr->quantized_base)
    return 0;
  if (s->n_dense > 0)
    largest = MAX (largest, s->h * s->dense_inter);
  if (s->n_moe > 0)
    largest = MAX (largest, s->h * (in->arch.expert_intermediate_size ? in->arch.expert_intermediate_size
                                                                      : in->arch.intermediate_size));
  return 2.0 * largest;
}

/* Of the trainable tensors (trainable_tensors() below, after the replay's tensor list): the
 * largest, in elements; the paged optimizer's state in unified memory and in the allocator. */
typedef struct
{
  double largest;
  double paged, allocated;
} TrainableStats;

static void trainable_tensors (const VcInputs         *in,
                               const Shapes           *s,
                               const TrainedSet       *tr,
                               const VcScenarioResult *sc,
                               TrainableStats         *stats);

static void
training_architecture (const VcInputs   *in,
                       const Shapes     *s,
                       VcScenarioResult *sc)
{
  double e_w = training_bytes (in);
  /* mixed precision computes in 16 bits whatever the stored precision */
  double e = in->mixed_precision ? 2.0 : e_w;
  /* context parallelism: each GPU holds its share of the sequence */
  double t = vc_training_rank_tokens (in);
  /* ring attention's exchange buffers in one layer's attention; the packed batch's mask */
  double ring = vc_training_ring_bytes (in, s->q_dim, s->kv_dim, e);
  double packing = vc_training_packing_bytes (in);
  TrainedSet tr = {
    .full = sc->id == VC_SCENARIO_FULL,
    .quantized_base = sc->id == VC_SCENARIO_QLORA_8BIT || sc->id == VC_SCENARIO_QLORA_4BIT,
    .targets = in->lora_targets,
    .rank = in->lora_rank,
  };
  double T, weights, grads, opt, master;
  double dense_layer, moe_layer, per_layer_total, per_layer_max;
  double fwd, bwd;
  TrainableStats stats;

  weights = training_weights (in, s, &tr, sc, &T);
  sc->trainable_parameters = T;
  /* tensor by tensor only when a rule needs it: the solver computes estimates by the thousand */
  memset (&stats, 0, sizeof stats);
  if (in->optimizer_in_backward || in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT)
    trainable_tensors (in, s, &tr, sc, &stats);
  grads = T * e_w;
  /* the optimizer step inside the backward pass (torchtune's optimizer_in_bwd,
   * training.register_optim_in_bwd_hooks): each parameter's post-accumulate-grad hook steps its
   * own optimizer and sets its gradient to None, so one gradient at most is alive, the largest */
  if (in->optimizer_in_backward)
    grads = stats.largest * e_w;
  opt = T * optimizer_bytes_per_param (in);
  sc->paged_optimizer = 0;
  if (in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT)
    {
      opt = stats.allocated;
      sc->paged_optimizer = round (stats.paged);
    }
  master = in->mixed_precision ? T * 4.0 : 0;

  dense_layer = s->n_dense > 0 ? layer_saved_bytes (in, s, &tr, s->dense_inter, e) : 0;
  moe_layer = s->n_moe > 0 ? layer_saved_bytes (in, s, &tr, s->moe_inter, e) : 0;
  per_layer_total = s->n_dense * dense_layer + s->n_moe * moe_layer;
  per_layer_max = MAX (dense_layer, moe_layer);

  /* Start of backward: all saved activations and the logits, gradients not yet allocated
   * (trainers free them with zero_grad(set_to_none=True)). End of backward: every gradient,
   * activations freed, with one layer's transient still alive. */
  fwd = saved_activations (in, s, &tr, e, dense_layer, moe_layer, per_layer_total, per_layer_max) +
        MAX (logits_bytes (in, s, tr.full, e), ring) + packing;
  bwd = grads + t * per_layer_max + dequantized_weight_bytes (in, s, &tr) + ring + packing;
  sc->forward_activations = fwd;
  sc->backward_activations = t * per_layer_max + dequantized_weight_bytes (in, s, &tr) + ring + packing;
  sc->gradient_bytes = grads;
  /* the optimizer step: every gradient, the state and the step's temporary, no activation but
   * the packed batch, which the trainer's loop keeps until the next batch replaces it */
  sc->step_temporary = vc_estimator_step_temporary (in, T);
  if (fwd >= bwd && fwd >= grads + sc->step_temporary + packing)
    {
      sc->peak_phase = VC_PHASE_FORWARD;
      sc->bytes[VC_COMPONENT_ACTIVATIONS] = fwd;
      sc->bytes[VC_COMPONENT_GRADIENTS] = 0;
    }
  else if (bwd >= grads + sc->step_temporary + packing)
    {
      sc->peak_phase = VC_PHASE_BACKWARD;
      sc->bytes[VC_COMPONENT_ACTIVATIONS] = sc->backward_activations;
      sc->bytes[VC_COMPONENT_GRADIENTS] = grads;
    }
  else
    {
      sc->peak_phase = VC_PHASE_STEP;
      sc->bytes[VC_COMPONENT_ACTIVATIONS] = packing;
      sc->bytes[VC_COMPONENT_GRADIENTS] = grads;
      opt += sc->step_temporary;
    }
  sc->bytes[VC_COMPONENT_WEIGHTS] = weights;
  sc->bytes[VC_COMPONENT_OPTIMIZER] = opt;
  sc->bytes[VC_COMPONENT_MASTER_WEIGHTS] = master;
}

/* ---- Reserved by PyTorch's caching allocator ----------------------------------------------- */

/* The tensors of one training step, in the order a trainer allocates and frees them, replayed
 * through the caching allocator (vc-allocator.c). Sizes come from the same terms as the
 * allocated estimate; each list is scaled so that it sums to what the GPU holds of it. */
#define MAX_LAYER_WEIGHTS 16
#define MAX_LAYER_TRAINED 16
/* layers replayed whole: every model of the catalog (Llama 3.1 405B has 126). The cache does
 * not grow in a line (0.12 GB a layer from 16 to 28 of Llama 3.2 3B's layers, 0.18 to 0.22
 * beyond), so a line through two short replays undercounted deep models (2.23 GB at 80 layers,
 * FORMULAS.md); deeper models are extrapolated from REPLAY_LAYERS / 2 and REPLAY_LAYERS */
#define REPLAY_LAYERS 128

typedef struct
{
  double layer_weights[MAX_LAYER_WEIGHTS];   /* bytes of one layer's weight tensors */
  double layer_trained[MAX_LAYER_TRAINED];   /* elements of one layer's trainable tensors */
  guint n_layer_weights, n_layer_trained;
  double other_weights[3];                   /* embedding, head, the rest */
  double other_trained[3];
  guint n_other_trained;
  double dense[MAX_LAYER_TENSORS], moe[MAX_LAYER_TENSORS]; /* saved per token, one layer */
  guint n_dense_tensors, n_moe_tensors;
  double head_saved;               /* final norm and head input, all tokens */
  double transient_dense, transient_moe; /* one layer's backward transient, per token */
  double dequantized;              /* a frozen 8/4-bit weight in 16 bits, in the backward pass */
  double logits[8];                /* logits tensors alive at the start of the backward pass */
  guint n_logits;
  double selective[MAX_LAYER_TENSORS]; /* selective per-op checkpointing: kept per token, one layer */
  guint n_selective;
  double ring;                     /* ring attention's exchange buffers in one layer (CP) */
  double packing;                  /* the packed batch's positions and mask, through the step */
  double weights_sum, trained_sum; /* over the whole model */
} StepTensors;

static void
add_to (double *list,
        guint  *n,
        guint   max,
        double  v)
{
  if (v > 0 && *n < max)
    list[(*n)++] = v;
}

/* logits_bytes(), tensor by tensor: the 16-bit logits, fp32 copy, fp32 log-softmax and
 * gradient; a chunked loss in 8 chunks */
static void
step_logits (const VcInputs   *in,
             const Shapes     *s,
             const TrainedSet *tr,
             double            e,
             StepTensors      *st)
{
  double t = vc_training_rank_tokens (in);
  double logit_values = t * s->V;
  double per_value = logits_bytes (in, s, tr->full, e) / MAX (1.0, logit_values);

  if (vc_trainer_loss (in) == VC_LOSS_FUSED)
    {
      st->logits[st->n_logits++] = vc_estimator_fused_loss_chunk (t, s->V, s->h) * s->V * e;
      st->logits[st->n_logits++] = t * s->h * e;
      st->logits[st->n_logits++] = t * 4.0;
      if (tr->full)
        st->logits[st->n_logits++] = s->V * s->h * training_bytes (in);
    }
  else if (vc_trainer_loss (in) == VC_LOSS_CCE)
    st->logits[st->n_logits++] = t * 4.0;
  else if (vc_trainer_loss (in) == VC_LOSS_CHUNKED)
    for (guint i = 0; i < 8; i++)
      st->logits[st->n_logits++] = logit_values / 8.0 * per_value;
  else if (vc_trainer_compiles_loss (in))
    {
      st->logits[st->n_logits++] = logit_values * 4.0;
      st->logits[st->n_logits++] = logit_values * (per_value - 4.0);
    }
  else if (vc_trainer_frees_logits (in))
    for (guint i = 0; i < 3; i++)
      st->logits[st->n_logits++] = logit_values * TITAN_LOGIT_BYTES / 3.0;
  else
    {
      st->logits[st->n_logits++] = logit_values * e;
      for (guint i = 0; i < 3; i++)
        st->logits[st->n_logits++] = logit_values * (per_value - e) / 3.0;
    }
}

static void
step_tensors_init (const VcInputs         *in,
                   const Shapes           *s,
                   const TrainedSet       *tr,
                   const VcScenarioResult *sc,
                   double                  e,
                   StepTensors            *st)
{
  const VcArch *arch = &in->arch;
  const VcParamCounts *c = &s->counts;
  double t = vc_training_rank_tokens (in);
  double lb = tr->quantized_base ? sc->weight_bits / 8.0 : training_bytes (in);
  double ob = tr->quantized_base ? 2.0 : training_bytes (in);
  double attn = s->h * (2.0 * s->q_dim + 2.0 * s->kv_dim);
  double mlp = s->L > 0 ? MAX (0.0, c->linear / s->L - attn) : 0;
  guint n_mlp = vc_arch_is_moe (arch) ? 2 : (arch->gated_mlp ? 3 : 2);
  double w[] = { s->h * s->q_dim, s->h * s->kv_dim, s->h * s->kv_dim, s->q_dim * s->h };
  double layer_params = attn + mlp + MIN (arch->norms_per_layer, 4u) * s->h;
  double layer_w = 0, layer_t = 0;

  memset (st, 0, sizeof *st);
  /* one layer's weights as the checkpoint stores them: q, k, v, o, the MLP's projections (a
   * MoE layer's experts fused in two tensors, as transformers keeps them) and the norms */
  for (guint i = 0; i < G_N_ELEMENTS (w); i++)
    add_to (st->layer_weights, &st->n_layer_weights, MAX_LAYER_WEIGHTS, w[i] * lb);
  for (guint i = 0; i < n_mlp; i++)
    add_to (st->layer_weights, &st->n_layer_weights, MAX_LAYER_WEIGHTS, mlp / n_mlp * lb);
  for (guint i = 0; i < MIN (arch->norms_per_layer, 4u); i++)
    add_to (st->layer_weights, &st->n_layer_weights, MAX_LAYER_WEIGHTS, s->h * ob);
  st->other_weights[0] = c->embedding * ob;
  st->other_weights[1] = c->head * ob;
  st->other_weights[2] = MAX (0.0, c->total - s->L * layer_params - c->embedding - c->head) * ob;

  if (tr->full)
    {
      /* each trainable tensor as large as its weight */
      for (guint i = 0; i < st->n_layer_weights; i++)
        st->layer_trained[i] = st->layer_weights[i];
      st->n_layer_trained = st->n_layer_weights;
      for (guint i = 0; i < 3; i++)
        st->other_trained[i] = st->other_weights[i];
      st->n_other_trained = 3;
    }
  else
    {
      /* a LoRA adapter's two matrices, r × d_in and d_out × r */
      static const VcLoraTargets targets[] = {
        VC_LORA_TARGET_Q, VC_LORA_TARGET_K, VC_LORA_TARGET_V, VC_LORA_TARGET_O,
        VC_LORA_TARGET_GATE, VC_LORA_TARGET_UP, VC_LORA_TARGET_DOWN,
      };
      double d_in[] = { s->h, s->h, s->h, s->q_dim, s->h, s->h, s->dense_inter };
      double d_out[] = { s->q_dim, s->kv_dim, s->kv_dim, s->h, s->dense_inter, s->dense_inter, s->h };

      for (guint i = 0; i < G_N_ELEMENTS (targets); i++)
        if (tr->targets & targets[i])
          {
            add_to (st->layer_trained, &st->n_layer_trained, MAX_LAYER_TRAINED, tr->rank * d_in[i]);
            add_to (st->layer_trained, &st->n_layer_trained, MAX_LAYER_TRAINED, tr->rank * d_out[i]);
          }
      if (in->train_embeddings)
        st->other_trained[st->n_other_trained++] = (double) arch->vocab_size * arch->hidden_size;
    }
  for (guint i = 0; i < st->n_layer_weights; i++)
    layer_w += st->layer_weights[i];
  for (guint i = 0; i < st->n_layer_trained; i++)
    layer_t += st->layer_trained[i];
  st->weights_sum = s->L * layer_w + st->other_weights[0] + st->other_weights[1] + st->other_weights[2];
  st->trained_sum = s->L * layer_t;
  for (guint i = 0; i < st->n_other_trained; i++)
    st->trained_sum += st->other_trained[i];

  st->n_dense_tensors = s->n_dense > 0 ? layer_saved_tensors (in, s, tr, s->dense_inter, e, st->dense) : 0;
  st->n_moe_tensors = s->n_moe > 0 ? layer_saved_tensors (in, s, tr, s->moe_inter, e, st->moe) : 0;
  st->head_saved = t * (4.0 * s->h + (tr->full ? 2.0 * e * s->h : 0));
  st->transient_dense = e * s->dense_inter;
  st->transient_moe = e * s->moe_inter;
  st->dequantized = dequantized_weight_bytes (in, s, tr);
  if (in->checkpointing == VC_CHECKPOINTING_SELECTIVE)
    st->n_selective = vc_training_selective_tensors (in, s->h, s->q_dim, s->kv_dim, s->dense_inter, e,
                                                     st->selective);
  st->ring = vc_training_ring_bytes (in, s->q_dim, s->kv_dim, e);
  st->packing = vc_training_packing_bytes (in);

  step_logits (in, s, tr, e, st);
}

/* Each trainable tensor once, in elements: the replay's list. */
static void
trainable_tensors (const VcInputs         *in,
                   const Shapes           *s,
                   const TrainedSet       *tr,
                   const VcScenarioResult *sc,
                   TrainableStats         *stats)
{
  StepTensors st;
  double unit = tr->full ? training_bytes (in) : 1.0;
  double n[MAX_LAYER_TRAINED + 3], count[MAX_LAYER_TRAINED + 3];
  guint k = 0;

  memset (stats, 0, sizeof *stats);
  step_tensors_init (in, s, tr, sc, training_bytes (in), &st);
  for (guint i = 0; i < st.n_layer_trained; i++, k++)
    {
      n[k] = st.layer_trained[i] / unit;
      count[k] = s->L;
    }
  for (guint i = 0; i < st.n_other_trained; i++, k++)
    {
      n[k] = st.other_trained[i] / unit;
      count[k] = 1;
    }
  for (guint i = 0; i < k; i++)
    {
      double absmax = 2.0 * 4.0 * ceil (n[i] / BNB_OPTIM_BLOCK);

      stats->largest = MAX (stats->largest, n[i]);
      if (n[i] < BNB_MIN_8BIT_SIZE)
        stats->allocated += count[i] * 8.0 * n[i];
      else if (n[i] < BNB_PAGED_MIN_ELEMENTS)
        stats->allocated += count[i] * (2.0 * n[i] + absmax);
      else
        {
          stats->paged += count[i] * 2.0 * n[i];
          stats->allocated += count[i] * absmax;
        }
    }
}

static void
hold (VcAllocator *a,
      GArray      *handles,
      double       bytes)
{
  guint h;

  if (bytes <= 0)
    return;
  h = vc_allocator_malloc (a, bytes);
  g_array_append_val (handles, h);
}

static void
release_all (VcAllocator *a,
             GArray      *handles)
{
  for (guint i = 0; i < handles->len; i++)
    vc_allocator_release (a, g_array_index (handles, guint, i));
  g_array_set_size (handles, 0);
}

static void
release_last (VcAllocator *a,
              GArray      *handles,
              guint        n)
{
  for (guint i = 0; i < n && handles->len > 0; i++)
    {
      vc_allocator_release (a, g_array_index (handles, guint, handles->len - 1));
      g_array_set_size (handles, handles->len - 1);
    }
}

static guint
optimizer_states (const VcInputs *in)
{
  switch (in->optimizer)
    {
    case VC_OPTIMIZER_SGD: return 0;
    case VC_OPTIMIZER_SGD_MOMENTUM:
    case VC_OPTIMIZER_RMSPROP: return 1;
    default: return 2;
    }
}

typedef struct
{
  double weights, trained;          /* bytes per listed byte or element */
  double gradients, optimizer, master;
  double step;                      /* the foreach step's temporary, per element */
} ReplayScale;

/* A trainable tensor's gradient arrives; with the optimizer step in the backward pass its hook
 * creates the tensor's state at the first step and frees the gradient at once. */
static void
gradient_arrives (const VcInputs    *in,
                  VcAllocator       *a,
                  GArray            *grads,
                  GArray            *persistent,
                  const ReplayScale *k,
                  guint              n_states,
                  guint              step,
                  double             size)
{
  hold (a, grads, size * k->gradients);
  if (!in->optimizer_in_backward)
    return;
  if (step == 0)
    for (guint i = 0; i < n_states; i++)
      hold (a, persistent, size * k->optimizer);
  release_all (a, grads);
}

/* The forward pass: each layer's saved tensors, with checkpointing its input alone (selective
 * per op: and the outputs it keeps). */
static void
replay_forward (const VcInputs    *in,
                const StepTensors *st,
                VcAllocator       *a,
                GArray            *saved,
                double             e,
                double             h,
                guint              n_layers,
                guint              n_dense)
{
  double t = vc_training_rank_tokens (in);

  for (guint l = 0; l < n_layers; l++)
    {
      const double *tensors = l >= n_dense ? st->moe : st->dense;
      guint n = l >= n_dense ? st->n_moe_tensors : st->n_dense_tensors;
      gboolean checkpointed = vc_training_layer_checkpointed (in, l);

      if (checkpointed && vc_trainer_offloads_checkpoints (in))
        continue;
      if (in->checkpointing == VC_CHECKPOINTING_SELECTIVE)
        for (guint i = 0; i < st->n_selective; i++)
          hold (a, saved, t * st->selective[i]);
      else if (checkpointed)
        hold (a, saved, t * e * h);
      else
        for (guint i = 0; i < n; i++)
          hold (a, saved, t * tensors[i]);
    }
}

/* One tensor of @scale bytes a trained parameter for each trainable tensor, every layer's then
 * the others', kept in @handles: the master copy, an optimizer state, the step's temporary */
static void
hold_trained (VcAllocator       *a,
              GArray            *handles,
              const StepTensors *st,
              guint              n_layers,
              double             scale)
{
  for (guint l = 0; l < n_layers; l++)
    for (guint i = 0; i < st->n_layer_trained; i++)
      hold (a, handles, st->layer_trained[i] * scale);
  for (guint i = 0; i < st->n_other_trained; i++)
    hold (a, handles, st->other_trained[i] * scale);
}

/* Loading: the weights, the fp32 master copy, the communication buffers, kept in @persistent */
static void
load (VcAllocator          *a,
      GArray               *persistent,
      const StepTensors    *st,
      const ReplayScale    *k,
      const VcReserveShare *share,
      guint                 n_layers)
{
  for (guint l = 0; l < n_layers; l++)
    for (guint i = 0; i < st->n_layer_weights; i++)
      hold (a, persistent, st->layer_weights[i] * k->weights);
  for (guint i = 0; i < 3; i++)
    hold (a, persistent, st->other_weights[i] * k->weights);
  if (k->master > 0)
    hold_trained (a, persistent, st, n_layers, k->master);
  hold (a, persistent, share->buffers);
}

/* Two steps of a model of `n_layers` layers (the first `n_dense` dense): what the allocator
 * caches beyond the bytes its tensors asked for at their peak. */
static double
replay (const VcInputs       *in,
        const StepTensors    *st,
        const ReplayScale    *k,
        const VcReserveShare *share,
        double                e,
        double                h,
        guint                 n_layers,
        guint                 n_dense)
{
  double t = vc_training_rank_tokens (in);
  g_autoptr(VcAllocator) a = vc_allocator_new (in->expandable_segments);
  g_autoptr(GArray) persistent = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) grads = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) layer = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) saved = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) logits = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) temporary = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) batch = g_array_new (FALSE, FALSE, sizeof (guint));
  guint n_states = optimizer_states (in);
  gboolean selective = in->checkpointing == VC_CHECKPOINTING_SELECTIVE;

  load (a, persistent, st, k, share, n_layers);

  /* two steps: the optimizer state appears at the first one (torch.optim creates it in step()),
   * in what the first backward pass freed; the second forward pass finds the cache as the first
   * step left it */
  for (guint step = 0; step < 2; step++)
    {
      gboolean have_grads = grads->len > 0;

      /* the packed batch's positions and mask, until the step's end: torchtune's loop keeps the
       * batch through backward(), optimizer.step() and zero_grad(), until the next batch
       * replaces it (recipes/full_finetune_single_device.py, train()) */
      hold (a, batch, st->packing);
      replay_forward (in, st, a, saved, e, h, n_layers, n_dense);
      hold (a, saved, st->head_saved);
      for (guint i = 0; i < st->n_logits; i++)
        hold (a, logits, st->logits[i]);
      /* backward: the loss frees the logits; the head's input goes with the head */
      release_all (a, logits);
      release_last (a, saved, 1);
      if (!have_grads)
        for (guint i = 0; i < st->n_other_trained; i++)
          gradient_arrives (in, a, grads, persistent, k, n_states, step, st->other_trained[i]);
      /* each layer from the last: its recomputed tensors (checkpointing) or its transient, its
       * gradients, then its saved tensors freed */
      for (guint l = n_layers; l-- > 0;)
        {
          const double *tensors = l >= n_dense ? st->moe : st->dense;
          guint n = l >= n_dense ? st->n_moe_tensors : st->n_dense_tensors;
          gboolean checkpointed = vc_training_layer_checkpointed (in, l);

          if (checkpointed)
            for (guint i = 0; i < n; i++)
              hold (a, layer, t * tensors[i]);
          else
            hold (a, layer, t * (l >= n_dense ? st->transient_moe : st->transient_dense));
          if (!have_grads)
            for (guint i = 0; i < st->n_layer_trained; i++)
              gradient_arrives (in, a, grads, persistent, k, n_states, step, st->layer_trained[i]);
          hold (a, layer, st->dequantized);
          hold (a, layer, st->ring);
          release_all (a, layer);
          release_last (a, saved, vc_trainer_offloads_checkpoints (in) ? 0 : selective ? st->n_selective
                                  : checkpointed ? 1 : n);
        }
      release_all (a, saved);
      /* the optimizer's step: its state at the first one */
      if (step == 0 && n_states > 0 && k->optimizer > 0 && !in->optimizer_in_backward)
        for (guint s = 0; s < n_states; s++)
          hold_trained (a, persistent, st, n_layers, k->optimizer);
      /* the foreach step's temporary: one tensor like a state for each trainable tensor, all
       * alive until the step ends */
      if (k->step > 0)
        {
          hold_trained (a, temporary, st, n_layers, k->step);
          release_all (a, temporary);
        }
      /* zero_grad(set_to_none=True), unless the gradients accumulate over micro-batches */
      if (!share->held_gradients)
        release_all (a, grads);
      release_all (a, batch);
    }
  /* beyond the tensors' own bytes, which the allocated estimate counts: the blocks' rounding and
   * the whole blocks the large pool hands out are held as the cached segments are */
  return MAX (0.0, vc_allocator_peak_reserved (a) - vc_allocator_peak_requested (a));
}

/* The allocator's reserve is modelled for training with the architecture: the trainers' own
 * figures are PyTorch's; an inference engine sizes its memory itself (vc-engine.c). */
gboolean
vc_estimator_models_reserve (const VcInputs *in)
{
  return in->mode == VC_MODE_TRAINING && in->method == VC_METHOD_ARCHITECTURE;
}

/* Replays are remembered: the GPU table, its layouts and the solver ask for the same ones
 * card after card. The key is every byte the replay reads (the inputs without their layout,
 * which the share stands for). */
typedef struct
{
  VcInputs in;
  VcScenario id;
  double weight_bits;
  VcReserveShare share;
} ReplayKey;

#define REPLAY_CACHE_MAX 4096

G_LOCK_DEFINE_STATIC (replay_cache);
static GHashTable *replay_cache;

static double replay_model (const VcInputs         *in,
                            const VcScenarioResult *sc,
                            const VcReserveShare   *share);

/* What the caching allocator keeps beyond the allocated peak of one GPU holding `share`. */
double
vc_estimator_training_cache_bytes (const VcInputs         *in,
                                   const VcScenarioResult *sc,
                                   const VcReserveShare   *share)
{
  ReplayKey key;
  g_autoptr(GBytes) bytes = NULL;
  double *found;
  double value = 0;

  if (!vc_estimator_models_reserve (in))
    return 0;
  memset (&key, 0, sizeof key);
  memcpy (&key.in, in, sizeof *in);
  memset (&key.in.layout, 0, sizeof key.in.layout);
  key.in.layout.cp = vc_training_cp (in);
  key.id = sc->id;
  key.weight_bits = sc->weight_bits;
  memcpy (&key.share, share, sizeof *share);
  /* VcInputs has padding (a double after an odd count of 32-bit fields), and a copy made by
   * assignment leaves it as the stack had it (vc-layout.c's effective inputs): hashed as is,
   * equal inputs missed each other and replayed again. Never a wrong hit: every byte of every
   * field is in the key. */
#if defined(__has_builtin)
#if __has_builtin(__builtin_clear_padding)
  __builtin_clear_padding (&key);
#endif
#endif
  bytes = g_bytes_new (&key, sizeof key);

  G_LOCK (replay_cache);
  if (replay_cache == NULL)
    replay_cache = g_hash_table_new_full (g_bytes_hash, g_bytes_equal, (GDestroyNotify) g_bytes_unref, g_free);
  /* the value is read under the lock: once it is released, another thread may replace the
   * entry (it replayed the same key meanwhile) or empty the table, freeing what it pointed to */
  found = g_hash_table_lookup (replay_cache, bytes);
  if (found != NULL)
    value = *found;
  G_UNLOCK (replay_cache);
  if (found != NULL)
    return value;

  value = replay_model (in, sc, share);
  G_LOCK (replay_cache);
  if (g_hash_table_size (replay_cache) >= REPLAY_CACHE_MAX)
    g_hash_table_remove_all (replay_cache);
  g_hash_table_replace (replay_cache, g_bytes_ref (bytes), g_memdup2 (&value, sizeof value));
  G_UNLOCK (replay_cache);
  return value;
}

/* A model of up to REPLAY_LAYERS layers is replayed whole; a deeper one at REPLAY_LAYERS / 2
 * and REPLAY_LAYERS layers, with the whole model's tensor sizes, and the cache extrapolated
 * linearly in the layers. */
static double
replay_model (const VcInputs         *in,
              const VcScenarioResult *sc,
              const VcReserveShare   *share)
{
  Shapes s;
  TrainedSet tr = {
    .full = sc->id == VC_SCENARIO_FULL,
    .quantized_base = sc->id == VC_SCENARIO_QLORA_8BIT || sc->id == VC_SCENARIO_QLORA_4BIT,
    .targets = in->lora_targets,
    .rank = in->lora_rank,
  };
  double e = in->mixed_precision ? 2.0 : training_bytes (in);
  guint n_states = optimizer_states (in);
  guint L = in->arch.n_layers;
  StepTensors st;
  ReplayScale k = { 0 };
  double few, many;

  shapes_init (&in->arch, &s);
  step_tensors_init (in, &s, &tr, sc, e, &st);
  k.weights = st.weights_sum > 0 ? share->weights / st.weights_sum : 0;
  if (st.trained_sum > 0)
    {
      k.gradients = share->gradients / st.trained_sum;
      /* one gradient at a time: each at its own size */
      if (in->optimizer_in_backward)
        k.gradients = tr.full ? 1.0 : training_bytes (in);
      k.optimizer = n_states > 0 ? share->optimizer / n_states / st.trained_sum : 0;
      k.master = share->master / st.trained_sum;
      k.step = share->step / st.trained_sum;
    }
  if (L <= REPLAY_LAYERS)
    return replay (in, &st, &k, share, e, s.h, L, (guint) s.n_dense);
  few = replay (in, &st, &k, share, e, s.h, REPLAY_LAYERS / 2,
                (guint) round (s.n_dense * (REPLAY_LAYERS / 2) / s.L));
  many = replay (in, &st, &k, share, e, s.h, REPLAY_LAYERS,
                 (guint) round (s.n_dense * REPLAY_LAYERS / s.L));
  return MAX (0.0, many + (many - few) * (L - REPLAY_LAYERS) / (REPLAY_LAYERS / 2.0));
}

/* Inference with the model's own tensors read from its files. */
static gboolean
from_source (const VcInputs *in)
{
  return in->mode == VC_MODE_INFERENCE && in->source_weights_bytes > 0 && in->source_parameters > 0;
}

/* How a precision's weights are laid out, the one dispatch that both the inventory and its
 * bytes follow: llama.cpp's recipe for a GGUF format, the weight formats' own layout, or the
 * architecture's tensors at `linear` bytes a parameter for the linear layers and `other` for
 * the rest (both the precision's when it is a float; 16 bits for the rest when quantized, int4
 * counting its block scales). */
typedef enum
{
  WEIGHTS_GGUF_RECIPE,
  WEIGHTS_FORMAT,
  WEIGHTS_ARCH,
} WeightsLayout;

static double
weight_bits (VcPrecision p)
{
  return p == VC_PRECISION_INT4 ? INT4_BITS : vc_precision_bits (p);
}

static WeightsLayout
weights_layout (VcPrecision p,
                double     *linear,
                double     *other)
{
  *linear = *other = 0;
  if (vc_precision_is_gguf (p))
    return WEIGHTS_GGUF_RECIPE;
  if (vc_precision_is_format (p))
    return WEIGHTS_FORMAT;
  if (vc_precision_is_float (p))
    *linear = *other = vc_precision_bytes (p);
  else
    {
      *linear = weight_bits (p) / 8.0;
      *other = 2.0;
    }
  return WEIGHTS_ARCH;
}

/* The weights' bytes of the architectures and precisions asked for: the solver's and the
 * layouts' estimates change the sequence, the batch or the concurrency, never the weights, and
 * walking the architecture's tensors was a tenth of an inference estimate. A layout search asks
 * for a few hundred stage architectures (each layer count, TP degree, first and last stage),
 * again at each of the solver's guesses, so the memo is a table indexed by a hash of the fields
 * that tell them apart, shared by the threads under a lock, and an entry is taken only when its
 * architecture's bytes are equal. VcArch is integers only (no padding, no pointers), so its
 * bytes are its identity. */
#define WEIGHTS_MEMO_SIZE 1024

typedef struct
{
  VcArch arch;
  VcPrecision precision;
  guint hash;
  gboolean valid;
  double bytes;
} WeightsMemo;

G_LOCK_DEFINE_STATIC (weights_memo);
static WeightsMemo weights_memo[WEIGHTS_MEMO_SIZE];

/* straight-line: a loop over the fields would cost as much as the comparison it saves */
static guint
weights_memo_hash (const VcArch *a,
                   VcPrecision   p)
{
  guint h = (guint) p;

  h = h * 31 + a->n_layers;
  h = h * 31 + a->hidden_size;
  h = h * 31 + a->n_heads;
  h = h * 31 + a->n_kv_heads;
  h = h * 31 + a->intermediate_size;
  h = h * 31 + a->vocab_size;
  h = h * 31 + a->n_experts;
  h = h * 31 + a->expert_intermediate_size;
  h = h * 31 + a->shared_intermediate_size;
  h = h * 31 + a->dense_layers;
  h = h * 31 + a->sliding_window_layers;
  h = h * 31 + a->recurrent_layers;
  return h ^ (h >> 15);
}

static double
weights_bytes_uncached (const VcArch *arch,
                        VcPrecision   p)
{
  double linear, other;
  VcGgufRecipe recipe;

  switch (weights_layout (p, &linear, &other))
    {
    case WEIGHTS_GGUF_RECIPE:
      vc_quant_gguf_recipe (arch, p, &recipe);
      return recipe.bytes;
    case WEIGHTS_FORMAT:
      return vc_quant_format_weights (arch, p);
    case WEIGHTS_ARCH:
    default:
      return vc_inventory_arch_bytes (arch, linear, other);
    }
}

/* Forgets what the process-wide memos hold: the allocator's replays, the weights' bytes and
 * llama.cpp's graphs. Each computes again what it held, to the same value: the tests check
 * that a remembered value is the one a fresh computation gives, from several threads at once. */
void
vc_estimator_forget_memos (void)
{
  G_LOCK (replay_cache);
  if (replay_cache != NULL)
    g_hash_table_remove_all (replay_cache);
  G_UNLOCK (replay_cache);
  G_LOCK (weights_memo);
  for (guint i = 0; i < WEIGHTS_MEMO_SIZE; i++)
    weights_memo[i].valid = FALSE;
  G_UNLOCK (weights_memo);
  vc_llama_graph_forget ();
}

/* The bytes of vc_estimator_inventory() for a precision, from the same builders, without
 * allocating (the solver computes estimates by the thousand). */
static double
model_inventory_bytes (const VcInputs *in,
                       VcPrecision     p)
{
  WeightsMemo *m;
  guint hash;
  double bytes;

  if (from_source (in) && p == in->source_precision)
    return in->source_weights_bytes;
  hash = weights_memo_hash (&in->arch, p);
  m = &weights_memo[hash % WEIGHTS_MEMO_SIZE];
  G_LOCK (weights_memo);
  if (m->valid && m->hash == hash && m->precision == p && memcmp (&m->arch, &in->arch, sizeof (VcArch)) == 0)
    {
      bytes = m->bytes;
      G_UNLOCK (weights_memo);
      return bytes;
    }
  G_UNLOCK (weights_memo);
  bytes = weights_bytes_uncached (&in->arch, p);
  G_LOCK (weights_memo);
  m->arch = in->arch;
  m->precision = p;
  m->hash = hash;
  m->bytes = bytes;
  m->valid = TRUE;
  G_UNLOCK (weights_memo);
  return bytes;
}

/* The same with the --mmproj file's tensors, at their own bytes whatever the model's precision,
 * and its compute buffer */
static double
inventory_bytes (const VcInputs *in,
                 VcPrecision     p)
{
  return model_inventory_bytes (in, p) + (vc_inputs_mmproj_on_gpu (in) ? in->mmproj_bytes : 0) +
         vc_inputs_mmproj_compute_bytes (in);
}

/* The weights of one inference scenario, tensor by tensor (a new reference): the model files'
 * tensors at their own precision, llama.cpp's recipe for a GGUF format, the 4-bit formats'
 * layout, or the architecture's tensors at the precision's bytes (linear layers at 8 or 4 bits,
 * the rest in 16, when quantized). A profile keeps the files' bytes but not their tensors:
 * the architecture's tensors then stand for them, scaled to those bytes exactly. */
static VcInventory *
model_inventory (const VcInputs *in,
                 VcScenario      id)
{
  VcPrecision p = inference_precision_of (id, in->precision);
  double linear, other;
  VcInventory *inv;

  if (from_source (in) && p == in->source_precision)
    {
      VcInventory *src = in->source_inventory;

      if (src != NULL && vc_inventory_bytes (src) == in->source_weights_bytes &&
          vc_inventory_get_n_layers (src) == in->arch.n_layers)
        return vc_inventory_ref (src);
    }
  switch (weights_layout (p, &linear, &other))
    {
    case WEIGHTS_GGUF_RECIPE:
      inv = vc_quant_gguf_inventory (&in->arch, p);
      break;
    case WEIGHTS_FORMAT:
      inv = vc_quant_format_inventory (&in->arch, p);
      break;
    case WEIGHTS_ARCH:
    default:
      inv = vc_inventory_new_for_arch (&in->arch, linear, other);
      break;
    }
  if (from_source (in) && p == in->source_precision && vc_inventory_bytes (inv) > 0)
    {
      VcInventory *scaled = vc_inventory_new_scaled (inv, in->source_weights_bytes / vc_inventory_bytes (inv));

      vc_inventory_unref (inv);
      inv = scaled;
    }
  return inv;
}

/* ... and the --mmproj file's tensors as the encoder's, on the first stage's GPU: llama.cpp's
 * clip_init loads them on one backend, the first GPU device (tools/mtmd/clip.cpp), with the
 * compute buffer its warm-up reserves there */
VcInventory *
vc_estimator_inventory (const VcInputs *in,
                        VcScenario      id)
{
  VcInventory *inv = model_inventory (in, id), *with;

  if (!vc_inputs_mmproj_on_gpu (in))
    return inv;
  with = vc_inventory_new_scaled (inv, 1.0);
  vc_inventory_unref (inv);
  vc_inventory_add (with, VC_TENSOR_ENCODER, -1, in->mmproj_parameters, in->mmproj_bytes);
  /* clip.cpp's compute buffer is reserved on the same backend when the projector loads */
  if (vc_inputs_mmproj_compute_bytes (in) > 0)
    vc_inventory_add (with, VC_TENSOR_ENCODER, -1, 0, vc_inputs_mmproj_compute_bytes (in));
  vc_inventory_seal (with);
  return with;
}

/* An inference estimate's KV cache, sequence state and activations: the same in each of its
 * scenarios, which differ in their weights alone */
static void
inference_memory (const VcInputs *in,
                  const Shapes   *s,
                  double         *kv,
                  double         *state,
                  double         *activations)
{
  *kv = kv_cache_bytes (in, kv_value_bytes (in->kv_precision));
  *state = sequence_state_bytes (in, kv_value_bytes (in->kv_precision));
  *activations = (vc_engine_is_llama_cpp (in) ? llama_cpp_compute_buffer (in, s) : inference_activations (in, s)) +
                 vc_engine_transient_bytes (in, *kv);
}

/* What vc_estimator_compute() gives an inference estimate by the architecture for its KV
 * cache, sequence state and activations, rounded as scenario_total() rounds them, without its
 * weights: a layout's stages read these alone (vc-layout.c), several per layout of a search.
 * Inference mode only. */
void
vc_estimator_inference_memory (const VcInputs *in,
                               double         *kv,
                               double         *state,
                               double         *activations)
{
  Shapes s;

  g_return_if_fail (in->mode == VC_MODE_INFERENCE);
  shapes_init_dims (&in->arch, &s);
  inference_memory (in, &s, kv, state, activations);
  *kv = round (MAX (0.0, *kv));
  *state = round (MAX (0.0, *state));
  *activations = round (MAX (0.0, *activations));
}

/* `only`: the one scenario to count (the others are left at zero), or -1 for all of them */
/* The engine's RoPE tables on each GPU for an inference scenario (vc_engine_rope_table_bytes()
 * at the scenario's precision), as vc_estimator_compute() adds them to its weights */
double
vc_estimator_rope_table (const VcInputs *in,
                         VcScenario      id)
{
  return vc_engine_rope_table_bytes (in, inference_precision_of (id, in->precision));
}

static void
architecture (const VcInputs *in,
              VcResult       *res,
              int             only)
{
  Shapes s;
  double overhead = vc_inputs_overhead_bytes (in);
  double kv = 0, state = 0, activations = 0;

  shapes_init (&in->arch, &s);
  /* the cache, the sequence state and the activations are the same at every precision of the
   * weights: counted once for the scenarios (the layout search and the solver compute estimates
   * by the thousand, and these were most of an inference estimate) */
  if (in->mode == VC_MODE_INFERENCE)
    inference_memory (in, &s, &kv, &state, &activations);
  res->parameters = s.counts.total;
  res->active_parameters = s.counts.active;
  if (from_source (in))
    {
      /* what the model's files hold, rather than what the architecture counts */
      res->parameters = in->source_parameters;
      res->active_parameters = in->source_active_parameters > 0 ? in->source_active_parameters
                                                                : in->source_parameters;
    }
  res->kv_bytes_per_token = vc_arch_kv_bytes_per_token (&in->arch, kv_value_bytes (in->kv_precision));
  for (guint i = 0; i < res->n_scenarios; i++)
    {
      VcScenarioResult *sc = &res->scenarios[i];

      if (only >= 0 && sc->id != (VcScenario) only)
        continue;
      if (in->mode == VC_MODE_INFERENCE)
        {
          VcPrecision p = inference_precision_of (sc->id, in->precision);
          double bits = weight_bits (p);

          /* the inventory's total, without building it (vc_estimator_inventory()) */
          sc->bytes[VC_COMPONENT_WEIGHTS] = inventory_bytes (in, p);
          sc->weight_bits = bits;
          if (vc_precision_is_format (p))
            sc->weight_bits = model_inventory_bytes (in, p) * 8.0 / s.counts.total;
          sc->weights_from_source = FALSE;
          if (from_source (in) && p == in->source_precision)
            {
              /* the checkpoint's own precision: its tensors' bytes, exactly */
              sc->weight_bits = in->source_weights_bytes * 8.0 / in->source_parameters;
              sc->weights_from_source = TRUE;
            }
          /* the engine's RoPE tables, on each GPU beside its share of the weights */
          sc->rope_table = vc_engine_rope_table_bytes (in, p);
          sc->bytes[VC_COMPONENT_WEIGHTS] += sc->rope_table;
          sc->bytes[VC_COMPONENT_KV_CACHE] = kv;
          sc->bytes[VC_COMPONENT_SEQUENCE_STATE] = state;
          sc->bytes[VC_COMPONENT_ACTIVATIONS] = activations;
        }
      else
        training_architecture (in, &s, sc);
      sc->bytes[VC_COMPONENT_OVERHEAD] = overhead;
    }
}

static void
compute (const VcInputs *in,
         VcResult       *res,
         int             only)
{
  static const VcScenario inference[] = {
    VC_SCENARIO_INFERENCE_16BIT, VC_SCENARIO_INFERENCE_8BIT, VC_SCENARIO_INFERENCE_4BIT,
  };
  static const VcScenario training[] = {
    VC_SCENARIO_FULL, VC_SCENARIO_LORA, VC_SCENARIO_QLORA_8BIT, VC_SCENARIO_QLORA_4BIT,
  };
  VcScenario selected;

  memset (res, 0, sizeof *res);
  if (in->mode == VC_MODE_INFERENCE)
    {
      selected = inference_scenario_for (in->precision);
      /* fp32 has no column in the seed's table: it is shown first when chosen */
      if (selected == VC_SCENARIO_INFERENCE_32BIT)
        res->scenarios[res->n_scenarios++].id = selected;
      for (guint i = 0; i < G_N_ELEMENTS (inference); i++)
        res->scenarios[res->n_scenarios++].id = inference[i];
    }
  else
    {
      selected = (VcScenario) (VC_SCENARIO_FULL + in->finetune);
      for (guint i = 0; i < G_N_ELEMENTS (training); i++)
        res->scenarios[res->n_scenarios++].id = training[i];
    }
  for (guint i = 0; i < res->n_scenarios; i++)
    if (res->scenarios[i].id == selected)
      res->selected = i;

  if (in->method == VC_METHOD_RULE_OF_THUMB)
    rule_of_thumb (in, res);
  else
    architecture (in, res, only);

  res->overhead_bytes = round (vc_inputs_overhead_bytes (in));
  for (guint i = 0; i < res->n_scenarios; i++)
    {
      VcScenarioResult *sc = &res->scenarios[i];

      scenario_total (sc);
      sc->reserved = sc->total;
    }
}

void
vc_estimator_compute (const VcInputs *in,
                      VcResult       *res)
{
  compute (in, res, -1);
}

/* One scenario of vc_estimator_compute(), the same bytes, without counting the others: the
 * layouts' stage estimates want one each, by the thousand. FALSE when the inputs' mode has no
 * such scenario. */
gboolean
vc_estimator_compute_scenario (const VcInputs   *in,
                               VcScenario        id,
                               VcScenarioResult *out)
{
  VcResult r;

  compute (in, &r, (int) id);
  for (guint i = 0; i < r.n_scenarios; i++)
    if (r.scenarios[i].id == id)
      {
        *out = r.scenarios[i];
        return TRUE;
      }
  memset (out, 0, sizeof *out);
  return FALSE;
}

/* The selected scenario's reserve (vc_estimator_compute() leaves it at the total): replaying a
 * step costs more than all the rest of an estimate, so callers ask for it when they need it. */
void
vc_estimator_add_reserve (const VcInputs *in,
                          VcResult       *res)
{
  VcScenarioResult *sc = &res->scenarios[res->selected];
  VcReserveShare one = {
    .weights = sc->bytes[VC_COMPONENT_WEIGHTS],
    .optimizer = sc->bytes[VC_COMPONENT_OPTIMIZER] - (sc->peak_phase == VC_PHASE_STEP ? sc->step_temporary : 0),
    .master = sc->bytes[VC_COMPONENT_MASTER_WEIGHTS],
    .gradients = sc->gradient_bytes,
    .step = sc->step_temporary,
  };

  sc->reserved = sc->total;
  if (vc_estimator_models_reserve (in))
    sc->reserved += round (vc_estimator_training_cache_bytes (in, sc, &one));
}
