/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-types.h: the enumerations shared by the estimator, the estimate model, the CLI and the UI.
 *
 * The GEnum nicks generated from these names ("rule-of-thumb", "qlora-8bit", "adamw-8bit", …)
 * are the identifiers used on the command line, in profiles and in JSON output, so renaming a
 * value changes the file formats.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  VC_MODE_INFERENCE,
  VC_MODE_TRAINING,
} VcMode;

typedef enum
{
  VC_METHOD_RULE_OF_THUMB,
  VC_METHOD_ARCHITECTURE,
} VcMethod;

typedef enum
{
  VC_MODEL_TYPE_DENSE,
  VC_MODEL_TYPE_MOE,
} VcModelType;

typedef enum
{
  VC_PRECISION_FP32,
  VC_PRECISION_FP16,
  VC_PRECISION_BF16,
  VC_PRECISION_FP8,
  VC_PRECISION_INT8,
  VC_PRECISION_INT4,
  /* Weight formats (not KV cache precisions): llama.cpp's GGUF file types, then 4-bit
   * checkpoint formats. Their nicks are those of the command line. */
  VC_PRECISION_Q8_0,          /*< nick=q8_0 >*/
  VC_PRECISION_Q6_K,          /*< nick=q6_k >*/
  VC_PRECISION_Q5_K_M,        /*< nick=q5_k_m >*/
  VC_PRECISION_Q4_K_M,        /*< nick=q4_k_m >*/
  VC_PRECISION_Q3_K_M,        /*< nick=q3_k_m >*/
  VC_PRECISION_Q2_K,          /*< nick=q2_k >*/
  VC_PRECISION_IQ4_XS,        /*< nick=iq4_xs >*/
  VC_PRECISION_GPTQ_INT4,     /*< nick=gptq-int4 >*/
  VC_PRECISION_AWQ_INT4,      /*< nick=awq-int4 >*/
  VC_PRECISION_MXFP4,         /*< nick=mxfp4 >*/
  VC_PRECISION_NF4,           /*< nick=nf4 >*/
} VcPrecision;

/* What a training run keeps its parameters in: floating point only (the QLoRA scenarios
 * quantize the base model themselves). The same values as VcPrecision's. */
typedef enum
{
  VC_TRAINING_PRECISION_FP32 = VC_PRECISION_FP32,
  VC_TRAINING_PRECISION_FP16 = VC_PRECISION_FP16,
  VC_TRAINING_PRECISION_BF16 = VC_PRECISION_BF16,
} VcTrainingPrecision;

typedef enum
{
  VC_FINETUNE_FULL,
  VC_FINETUNE_LORA,
  VC_FINETUNE_QLORA_8BIT,
  VC_FINETUNE_QLORA_4BIT,
} VcFinetune;

typedef enum
{
  VC_OPTIMIZER_ADAMW,
  VC_OPTIMIZER_ADAM,
  VC_OPTIMIZER_SGD,
  VC_OPTIMIZER_SGD_MOMENTUM,
  VC_OPTIMIZER_RMSPROP,
  VC_OPTIMIZER_ADAMW_8BIT,
  VC_OPTIMIZER_PAGED_ADAMW_8BIT, /* bitsandbytes PagedAdamW8bit: large states in CUDA unified memory */
} VcOptimizer;

typedef enum
{
  VC_STATE_PRECISION_FP32,
  VC_STATE_PRECISION_BF16,
} VcStatePrecision;

typedef enum
{
  VC_CHECKPOINTING_NONE,
  VC_CHECKPOINTING_SQRT,
  VC_CHECKPOINTING_FULL,
  VC_CHECKPOINTING_SELECTIVE,  /* torchtitan's selective per-op checkpointing (op mode) */
  VC_CHECKPOINTING_SELECTIVE_LAYERS, /* torchtitan's selective per layer: every N-th layer */
} VcCheckpointing;

typedef enum
{
  VC_LOSS_FULL,
  VC_LOSS_CHUNKED,
  VC_LOSS_FUSED,   /* Liger's fused linear cross-entropy: one chunk of logits at a time */
  VC_LOSS_CCE,     /* Apple's cut cross-entropy: no logits stored */
  VC_LOSS_AUTO,    /* the trainer's own default (vc_trainer_loss) */
} VcLoss;

/* How torch.optim steps Adam, AdamW and RMSprop: foreach (_multi_tensor_*: a state-sized
 * temporary list) or fused (_fused_adam: none); auto: the trainer's own
 * (vc_trainer_optimizer_impl) */
typedef enum
{
  VC_OPTIMIZER_IMPL_AUTO,
  VC_OPTIMIZER_IMPL_FOREACH,
  VC_OPTIMIZER_IMPL_FUSED,
} VcOptimizerImpl;

typedef enum
{
  VC_SCENARIO_INFERENCE_32BIT,
  VC_SCENARIO_INFERENCE_16BIT,
  VC_SCENARIO_INFERENCE_8BIT,
  VC_SCENARIO_INFERENCE_4BIT,
  VC_SCENARIO_FULL,
  VC_SCENARIO_LORA,
  VC_SCENARIO_QLORA_8BIT,
  VC_SCENARIO_QLORA_4BIT,
} VcScenario;

typedef enum
{
  VC_COMPONENT_WEIGHTS,
  VC_COMPONENT_KV_CACHE,
  VC_COMPONENT_SEQUENCE_STATE,     /* linear-attention / SSM state: per sequence, not per token */
  VC_COMPONENT_ACTIVATIONS,
  VC_COMPONENT_GRADIENTS,
  VC_COMPONENT_OPTIMIZER,
  VC_COMPONENT_MASTER_WEIGHTS,
  VC_COMPONENT_OVERHEAD,
} VcComponent;

#define VC_N_COMPONENTS (VC_COMPONENT_OVERHEAD + 1)

typedef enum
{
  VC_PHASE_NONE,
  VC_PHASE_FORWARD,
  VC_PHASE_BACKWARD,
  VC_PHASE_STEP,      /* the optimizer step: every gradient and the step's temporary */
} VcPhase;

typedef enum
{
  VC_UNIT_GB,
  VC_UNIT_GIB,
} VcUnit;

typedef enum /*< flags >*/
{
  VC_LORA_TARGET_Q    = 1 << 0,
  VC_LORA_TARGET_K    = 1 << 1,
  VC_LORA_TARGET_V    = 1 << 2,
  VC_LORA_TARGET_O    = 1 << 3,
  VC_LORA_TARGET_GATE = 1 << 4,
  VC_LORA_TARGET_UP   = 1 << 5,
  VC_LORA_TARGET_DOWN = 1 << 6,
} VcLoraTargets;

#define VC_LORA_TARGETS_ALL_LINEAR (VC_LORA_TARGET_Q | VC_LORA_TARGET_K | VC_LORA_TARGET_V | \
                                    VC_LORA_TARGET_O | VC_LORA_TARGET_GATE | VC_LORA_TARGET_UP | \
                                    VC_LORA_TARGET_DOWN)

/* The serving or training stack whose memory arithmetic is followed (FORMULAS.md, "Engines"). */
typedef enum
{
  VC_ENGINE_GENERIC,
  VC_ENGINE_VLLM,
  VC_ENGINE_SGLANG,
  VC_ENGINE_LLAMA_CPP,   /*< nick=llama.cpp >*/
  VC_ENGINE_TRANSFORMERS,
  VC_ENGINE_OLLAMA,      /* llama.cpp as Ollama launches llama-server */
} VcEngine;

/* llama.cpp's KV cache types (--cache-type-k/-v, common/arg.cpp kv_cache_types); auto: the
 * KV precision's (f16, bf16, f32; int8 is q8_0 and int4 q4_0) */
typedef enum
{
  VC_CACHE_TYPE_AUTO,
  VC_CACHE_TYPE_F32,
  VC_CACHE_TYPE_F16,
  VC_CACHE_TYPE_BF16,
  VC_CACHE_TYPE_Q8_0,   /*< nick=q8_0 >*/
  VC_CACHE_TYPE_Q4_0,   /*< nick=q4_0 >*/
  VC_CACHE_TYPE_Q4_1,   /*< nick=q4_1 >*/
  VC_CACHE_TYPE_IQ4_NL, /*< nick=iq4_nl >*/
  VC_CACHE_TYPE_Q5_0,   /*< nick=q5_0 >*/
  VC_CACHE_TYPE_Q5_1,   /*< nick=q5_1 >*/
} VcCacheType;

/* The vLLM release whose arithmetic is followed (--engine-version; FORMULAS.md, "vLLM's
 * releases"): 0.10 before pull request #25359 (NCCL set up after the memory snapshot), 0.11 for
 * 0.11.0 to 0.13 (the default; the sorting sampler), 0.14 for 0.14.0 to 0.16 (16-bit MoE
 * experts through the modular kernel of pull request #31052, whose workspace stays allocated;
 * an upper bound for 0.20), 0.17 for 0.17.0 to 0.19 (the Triton top-k/top-p kernel of pull
 * request #33538: no sort at the profile run), 0.21 for 0.21.0 and later (the CUDA graphs
 * measured before the cache is sized). The values are not in release order: saved profiles
 * keep their nicks, and vc_engine_vllm_minor() orders them. */
typedef enum
{
  VC_VLLM_VERSION_0_11, /*< nick=0.11 >*/
  VC_VLLM_VERSION_0_10, /*< nick=0.10 >*/
  VC_VLLM_VERSION_0_21, /*< nick=0.21 >*/
  VC_VLLM_VERSION_0_17, /*< nick=0.17 >*/
  VC_VLLM_VERSION_0_14, /*< nick=0.14 >*/
} VcVllmVersion;

/* vLLM's MXFP4 expert backend (--mxfp4-backend; FORMULAS.md, "vLLM's MXFP4 experts"): auto is
 * the one get_mxfp4_backend picks from the card, marlin the Marlin kernel that
 * VLLM_MXFP4_USE_MARLIN=1 forces, triton the Triton kernels get_mxfp4_backend takes on compute
 * capability 9.x wherever triton_kernels is installed */
typedef enum
{
  VC_MXFP4_BACKEND_AUTO,   /*< nick=auto >*/
  VC_MXFP4_BACKEND_MARLIN, /*< nick=marlin >*/
  VC_MXFP4_BACKEND_TRITON, /*< nick=triton >*/
} VcMxfp4Backend;

/* The sampler of vLLM's profile run (--vllm-sampler; FORMULAS.md, "the profile run's
 * sampler"): sort is PyTorch's top-k/top-p, which sorts the vocabulary (from 0.17, 8 requests
 * or more go to a Triton kernel that does not: --engine-version 0.17)
 * (VLLM_USE_FLASHINFER_SAMPLER=0, or FlashInfer absent), flashinfer FlashInfer's rejection
 * sampling (VLLM_USE_FLASHINFER_SAMPLER=1, the default of 0.11.0 and earlier wherever FlashInfer
 * is installed, as in vLLM's container images) */
typedef enum
{
  VC_VLLM_SAMPLER_SORT,       /*< nick=sort >*/
  VC_VLLM_SAMPLER_FLASHINFER, /*< nick=flashinfer >*/
} VcVllmSampler;

/* vLLM's --mm-encoder-tp-mode (vllm/config/multimodal.py, MultiModalConfig.mm_encoder_tp_mode;
 * FORMULAS.md, "One inventory of tensors"): weights, the default, divides the vision encoder's
 * parallel layers over the TP ranks; data replicates it on every rank and splits the images */
typedef enum
{
  VC_MM_ENCODER_TP_MODE_WEIGHTS, /*< nick=weights >*/
  VC_MM_ENCODER_TP_MODE_DATA,    /*< nick=data >*/
} VcMmEncoderTpMode;

/* The SGLang source whose pool rules are followed (--sglang-version; FORMULAS.md, "Engines"):
 * the state stored at sgl-project/sglang commit 001ccef (ModelRunnerKVCacheMixin, the default)
 * or at commit 003fca8 (KVCacheConfigurator) */
typedef enum
{
  VC_SGLANG_VERSION_001CCEF, /*< nick=001ccef >*/
  VC_SGLANG_VERSION_003FCA8, /*< nick=003fca8 >*/
} VcSglangVersion;

/* The fine-tuning framework whose own memory habits are followed (FORMULAS.md, "Trainers").
 * generic: the estimate's own inputs alone. */
typedef enum
{
  VC_TRAINER_GENERIC,
  VC_TRAINER_HF,
  VC_TRAINER_TRL,
  VC_TRAINER_AXOLOTL,
  VC_TRAINER_TORCHTUNE,
  VC_TRAINER_TORCHTITAN,
  VC_TRAINER_LLAMAFACTORY,
  VC_TRAINER_UNSLOTH,
} VcTrainer;

typedef enum
{
  VC_NORM_RMS,
  VC_NORM_LAYER,
} VcNorm;

/* What the solver looks for: the longest sequence, the largest batch, the most requests. */
typedef enum
{
  VC_SOLVE_VARIABLE_SEQ,
  VC_SOLVE_VARIABLE_BATCH,
  VC_SOLVE_VARIABLE_CONCURRENCY,
} VcSolveVariable;

/* What stops the solved value from growing: the GPU's memory, the model's maximum context, or
 * nothing below the largest value the input accepts; ENGINE: nothing runs, the engine does
 * not start on the card (vLLM's MXFP4 below compute capability 8.0). */
typedef enum
{
  VC_SOLVE_LIMIT_MEMORY,
  VC_SOLVE_LIMIT_MODEL_CONTEXT,
  VC_SOLVE_LIMIT_NONE,
  VC_SOLVE_LIMIT_ENGINE,
} VcSolveLimit;

/* Parallel layouts (vc-layout.c): how training state is sharded across data-parallel GPUs.
 * DeepSpeed's ZeRO stages and FSDP's sharding strategies; HSDP shards inside a node. */
typedef enum
{
  VC_SHARDING_NONE,
  VC_SHARDING_ZERO_1,
  VC_SHARDING_ZERO_2,
  VC_SHARDING_ZERO_3,
  VC_SHARDING_FSDP_GRAD_OP,
  VC_SHARDING_FSDP_FULL,
  VC_SHARDING_FSDP_HYBRID,
} VcSharding;

/* What training moves to host memory (ZeRO-Offload, FSDP cpu_offload). */
typedef enum
{
  VC_OFFLOAD_NONE,
  VC_OFFLOAD_OPTIMIZER,
  VC_OFFLOAD_OPTIMIZER_PARAMS, /*< nick=optimizer+params >*/
} VcOffload;

/* How an estimate is spread over GPUs and host memory: the inputs of vc-layout.c. */
typedef struct
{
  guint tp;                       /* tensor parallel degree */
  guint pp;                       /* pipeline stages */
  guint ep;                       /* expert parallel degree (MoE) */
  guint dp;                       /* data-parallel replicas (training: the ZeRO/FSDP group) */
  VcSharding sharding;
  VcOffload offload;
  guint grad_accum;               /* gradient accumulation steps */
  guint gpu_layers;               /* llama.cpp -ngl: layers on the GPU; 0: all, engine-neutral */
  gboolean experts_on_cpu;        /* MoE routed experts kept in system RAM */
  guint gpus_per_node;
  gboolean layer_split;           /* not an input: the engine is llama.cpp, whose PP stages are
                                   * its layer split (vc-layout.c) */
  guint cp;                       /* training: context-parallel degree (ring attention); 0 is 1 */
} VcLayout;

/* llama.cpp's --split-mode over several GPUs (vc-plan.c) */
typedef enum
{
  VC_SPLIT_MODE_LAYER,
  VC_SPLIT_MODE_ROW,
  VC_SPLIT_MODE_NONE,
} VcSplitMode;

G_END_DECLS
