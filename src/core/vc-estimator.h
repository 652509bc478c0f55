/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-estimator.h: the arithmetic of GPU memory, free of GObject and of allocation.
 *
 * vc_estimator_compute() fills a VcResult from VcInputs: every scenario of the selected mode
 * side by side (as the seed tables show them), each split in components, and the fit of each GPU
 * of a catalog. The formulas and their sources are in FORMULAS.md beside this file.
 */
#pragma once

#include <glib.h>

#include "vc-arch.h"
#include "vc-catalog.h"
#include "vc-inventory.h"
#include "vc-llama-graph.h"
#include "vc-types.h"

G_BEGIN_DECLS

#define VC_MAX_SCENARIOS 4

/* The largest sequence length, batch and concurrency accepted: the estimate's property specs
 * and the solver's searches share them */
#define VC_MAX_SEQ 100000000u
#define VC_MAX_BATCH 1000000u
#define VC_MAX_CONCURRENCY 1000000u

typedef struct
{
  VcMode mode;
  VcMethod method;
  VcModelType model_type;          /* rule of thumb: dense or MoE */
  double parameters;               /* rule of thumb: total parameters P */
  double active_parameters;        /* rule of thumb, MoE: activated parameters A (0: P) */
  VcArch arch;                     /* architecture method */
  VcPrecision precision;           /* inference: the weights */
  VcTrainingPrecision training_precision; /* training: parameters, gradients, activations */
  VcPrecision kv_precision;
  VcFinetune finetune;
  VcOptimizer optimizer;
  VcStatePrecision optimizer_precision;
  guint batch;
  guint seq;
  guint concurrency;
  guint lora_rank;
  double lora_percent;             /* rule of thumb: trainable share of P, in percent */
  VcLoraTargets lora_targets;
  gboolean mixed_precision;
  VcCheckpointing checkpointing;
  gboolean flash_attention;
  VcLoss loss;
  VcOptimizerImpl optimizer_impl; /* training: torch.optim's foreach or fused step; auto: the trainer's */
  gboolean compile;                /* torch.compile: fused elementwise ops save fewer tensors */
  gboolean train_embeddings;       /* LoRA/QLoRA: the token embedding trains too */
  gboolean expandable_segments;    /* PyTorch's allocator grows one segment per pool */
  VcTrainer trainer;               /* whose habits: compile scope, optimizer state precision */
  gboolean optimizer_in_backward;  /* each parameter's optimizer step in its gradient hook */
  gboolean packing;                /* samples packed to the sequence length (the trainer's mask) */
  guint checkpoint_every;          /* selective per layer: every N-th layer checkpointed */
  double overhead_gb;              /* per GPU; < 0: the method's default */
  /* serving engine and speed */
  VcEngine engine;
  double memory_fraction;          /* vLLM gpu_memory_utilization */
  guint block_size;                /* vLLM KV-cache block, in tokens */
  guint max_num_batched_tokens;    /* vLLM: tokens of the profile run; 0: vLLM's default for the card */
  guint max_num_seqs;              /* vLLM: requests the profile run samples; 0: the card's default */
  guint gpu_sm_count;              /* vLLM: the card's SMs (data/gpus.json), set with its batch by
                                   * vc_engine_on_card(); 0: no card, or its count unknown */
  guint limit_mm_per_prompt;       /* vLLM --limit-mm-per-prompt: images a prompt may hold (999 by default) */
  double kv_cache_memory_gb;       /* vLLM --kv-cache-memory, per GPU in GB; 0: profiled */
  VcVllmVersion vllm_version;      /* vLLM --engine-version: whose arithmetic */
  guint vllm_card_cc;              /* vLLM: the compute capability of the card a KV-cache figure
                                    * is for, major × 10 + minor (86 for an RTX 3090), set by
                                    * vc-engine.c on each card's figures; 0: not known */
  gboolean enforce_eager;          /* vLLM --enforce-eager: no CUDA graphs */
  VcMxfp4Backend mxfp4_backend;    /* vLLM --mxfp4-backend: MXFP4 experts' backend */
  VcVllmSampler vllm_sampler;      /* vLLM --vllm-sampler: the profile run's top-k/top-p sampler */
  VcMmEncoderTpMode mm_encoder_tp_mode; /* vLLM --mm-encoder-tp-mode: the encoder split or replicated */
  gboolean disable_custom_all_reduce; /* vLLM and SGLang --disable-custom-all-reduce */
  double mem_fraction_static;      /* SGLang; 0: SGLang's default for the card and TP degree */
  VcSglangVersion sglang_version;  /* SGLang --sglang-version: whose pool rules */
  guint page_size;                 /* SGLang: tokens per KV-cache page */
  /* llama.cpp (and Ollama): 0 takes the engine's default (FORMULAS.md, "llama.cpp") */
  guint n_ubatch;                  /* -ub: tokens of one micro-batch */
  guint n_batch;                   /* -b: tokens of one logical batch */
  gboolean kv_unified;             /* --kv-unified: one KV stream for every sequence */
  VcCacheType cache_type_k;        /* --cache-type-k */
  VcCacheType cache_type_v;        /* --cache-type-v */
  /* --mmproj: a multimodal projector file's tensors (vc-mmproj.h); 0: none given */
  double mmproj_bytes;
  double mmproj_parameters;
  gboolean mmproj_offload;         /* on the GPU, llama.cpp's default; --no-mmproj-offload: FALSE */
  /* clip.cpp's compute buffer for its warm-up image, without and with flash attention (vc-mmproj.h);
   * 0: the projector type's graph is not followed */
  double mmproj_compute_bytes;
  double mmproj_compute_bytes_fa;
  double mfu;                      /* training: model FLOPs utilization */
  /* Architecture method, inference: the model's own tensors (safetensors or GGUF headers).
   * When the weight precision is source_precision, the weights are their exact bytes and the
   * parameters their element count. source_weights_bytes 0: no files were read. */
  double source_weights_bytes;
  double source_parameters;
  double source_active_parameters;
  VcPrecision source_precision;
  /* the model files' tensors (borrowed from the estimate; NULL: none were read, or a profile
   * kept their bytes only); used when their total is source_weights_bytes */
  VcInventory *source_inventory;
  gboolean llama_cpp;              /* the model runs in llama.cpp (a GGUF): its compute buffer
                                    * stands for the activations; follows the source format */
  VcLayout layout;                 /* GPUs and host memory: applied by vc-layout.c */
} VcInputs;

typedef struct
{
  VcScenario id;
  double bytes[VC_N_COMPONENTS];
  double total;
  VcPhase peak_phase;              /* training, architecture method: which phase sets the peak */
  double trainable_parameters;
  double weight_bits;              /* effective bits per quantized weight */
  gboolean weights_from_source;    /* the weights are the model files' tensors */
  /* training, architecture method: both phases, whichever wins (for vc-layout.c) */
  double forward_activations;      /* saved activations and logits at the start of backward */
  double backward_activations;     /* one layer's transient at the end of backward */
  double gradient_bytes;           /* every gradient, held or not at the peak; with the optimizer
                                    * step in the backward pass, the largest alone */
  double step_temporary;           /* the optimizer step's temporary (foreach: one state list),
                                    * in the optimizer component when the step is the peak */
  double paged_optimizer;          /* optimizer state in CUDA unified memory (paged optimizers),
                                    * outside the components and the total */
  /* what PyTorch's caching allocator reserves at the peak, with the overhead: the figure to
   * hold a card's capacity against (training, architecture method, the selected scenario,
   * once vc_estimator_add_reserve() has run); else the total */
  double reserved;
  /* vLLM and SGLang serving: the rotary cos/sin tables each GPU builds when the model is made,
   * counted in the weights (vc_engine_rope_table_bytes); 0 otherwise */
  double rope_table;
} VcScenarioResult;

typedef struct
{
  double parameters;
  double active_parameters;
  double kv_bytes_per_token;       /* selected KV precision, before any window; < 0: unknown */
  double overhead_bytes;           /* per GPU, as used */
  guint n_scenarios;
  guint selected;                  /* index into scenarios */
  VcScenarioResult scenarios[VC_MAX_SCENARIOS];
} VcResult;

typedef struct
{
  double capacity_bytes;           /* usable memory of one GPU */
  gboolean fits;                   /* one GPU holds the whole estimate */
  double count;                    /* GPUs needed; 0 when no number of them is enough */
  double per_gpu_bytes;            /* what each of `count` GPUs holds */
  VcLayout layout;                 /* the smallest valid layout of `count` GPUs (vc-layout.c) */
  gboolean experts_as_stored;      /* `count` counts vLLM's MXFP4 experts as stored: this card's
                                    * backend is not followed (vc_engine_vllm_experts_as_stored) */
  gboolean refused;                /* the engine does not start on this card whatever the memory
                                    * (vLLM's MXFP4 below compute capability 8.0,
                                    * vc_engine_vllm_mxfp4_refused): `count` is 0 */
} VcGpuFit;

/* What one GPU holds of a training scenario, for the allocator's reserve around it. */
typedef struct
{
  double weights, optimizer, master, gradients;
  double step;                     /* the optimizer step's temporary (foreach) */
  double buffers;                  /* communication buffers held through the step */
  gboolean held_gradients;         /* gradient accumulation keeps them between micro-batches */
} VcReserveShare;

double   vc_precision_bytes       (VcPrecision precision);
double   vc_precision_bits        (VcPrecision precision);
gboolean vc_precision_is_float    (VcPrecision precision);
/* the inference scenario (16-, 8- or 4-bit column) a weight precision belongs to */
VcScenario vc_precision_inference_scenario (VcPrecision precision);

void     vc_inputs_init_default   (VcInputs *inputs);
gboolean vc_component_applies     (const VcInputs *inputs,
                                   VcComponent     component);
double   vc_inputs_overhead_bytes (const VcInputs *inputs);
/* whether the --mmproj file's weights are on the GPU: given, offloaded, for llama.cpp or Ollama */
gboolean vc_inputs_mmproj_on_gpu  (const VcInputs *inputs);
double   vc_inputs_mmproj_host_bytes (const VcInputs *inputs);
/* the projector's compute buffer on the GPU at the estimate's flash-attention setting; 0 when its
 * weights are not on the GPU or its graph is not followed */
double   vc_inputs_mmproj_compute_bytes (const VcInputs *inputs);
/* vLLM's memory outside PyTorch that its profile run finds on each GPU (FORMULAS.md, "vLLM's
 * memory outside PyTorch"): 0.13 GiB as vLLM's own logs of single-GPU runs give it, 133 MiB */
#define VC_VLLM_NON_TORCH_BYTES (133.0 * 1048576.0)
/* vLLM's profile run on each of n GPUs with tensor parallelism, with the memory outside
 * PyTorch it finds (FORMULAS.md, "Engines") */
double   vc_estimator_vllm_profile_bytes (const VcInputs *inputs,
                                          double          tokens,
                                          double          seqs,
                                          double          n_gpus);
/* bytes a logit vLLM's profile-run sampler holds for `requests` requests: 38 with the sort, 14
 * with FlashInfer's (--vllm-sampler) or 0.17's Triton kernel at 8 requests or more
 * (--engine-version 0.17; FORMULAS.md, "the profile run's sampler") */
double   vc_estimator_vllm_sampler_bytes_per_logit (const VcInputs *inputs,
                                                    double          requests);
/* vLLM 0.17's Triton top-k/top-p kernel's buffer (FORMULAS.md, "the profile run's sampler"):
 * TRUE where the profile run takes that kernel, with the buffer on the inputs' card (their
 * gpu_sm_count; 0 where unknown) and its bound on any card */
gboolean vc_estimator_vllm_triton_buffer (const VcInputs *inputs,
                                          double          requests,
                                          double         *bytes,
                                          double         *bound);
/* the MoE experts' workspace vLLM 0.14 and later keep allocated, per GPU of n_gpus, for
 * `tokens` tokens: 16-bit experts', and FP8 experts' through Marlin on a card of compute
 * capability 8.0 to 8.8 (vllm_card_cc); 0 where there is none or it is not known (FORMULAS.md,
 * "vLLM's MoE workspace") */
double   vc_estimator_vllm_moe_workspace_bytes (const VcInputs *inputs,
                                                double          tokens,
                                                double          n_gpus);
/* what the workspace vLLM keeps for quantized MoE experts takes at most, per GPU of n_gpus, for
 * `tokens` tokens: the experts class, and so its workspace, depends on the kernels installed;
 * not counted in the profile run; 0 where none is left out (FORMULAS.md, "vLLM's MoE
 * workspace") */
double   vc_estimator_vllm_moe_workspace_bound_bytes (const VcInputs *inputs,
                                                      double          tokens,
                                                      double          n_gpus);
/* that bound where vLLM's KV-cache figure on @gpu (NULL: a card of 70 GiB or more) at TP
 * `tp` leaves it out; 0 elsewhere (another engine, --kv-cache-memory) */
double   vc_estimator_vllm_moe_uncounted_bytes (const VcInputs *inputs,
                                                const VcGpu    *gpu,
                                                double          tp);
/* llama.cpp's worst-case graph for these inputs (FORMULAS.md, "llama.cpp's context"); FALSE
 * where the architecture's graph is not rebuilt (the compute buffer is then bounded by its
 * largest moment) */
gboolean vc_estimator_llama_cpp_graph (const VcInputs *inputs,
                                       VcLlamaGraph   *graph);
void     vc_estimator_compute     (const VcInputs *inputs,
                                   VcResult       *result);
gboolean vc_estimator_compute_scenario (const VcInputs   *inputs,
                                        VcScenario        scenario,
                                        VcScenarioResult *result);
void     vc_estimator_inference_memory (const VcInputs *inputs,
                                        double         *kv,
                                        double         *state,
                                        double         *activations);
double   vc_estimator_rope_table  (const VcInputs *inputs,
                                   VcScenario      scenario);
VcInventory *vc_estimator_inventory (const VcInputs *inputs,
                                     VcScenario      scenario);

void     vc_estimator_add_reserve (const VcInputs *inputs,
                                   VcResult       *result);
gboolean vc_estimator_models_reserve (const VcInputs *inputs);
/* empties the process-wide memos (allocator replays, weights' bytes, llama.cpp graphs) */
void     vc_estimator_forget_memos (void);
gboolean vc_trainer_compiles_loss (const VcInputs *inputs);
VcLoss   vc_trainer_loss          (const VcInputs *inputs);
VcOptimizerImpl vc_trainer_optimizer_impl (const VcInputs *inputs);
double   vc_estimator_step_temporary (const VcInputs *inputs,
                                      double          trainable);
gboolean vc_trainer_bf16_state   (const VcInputs *inputs);
gboolean vc_trainer_offloads_checkpoints (const VcInputs *inputs);
gboolean vc_trainer_frees_logits  (const VcInputs *inputs);
double   vc_estimator_ring_bytes   (const VcInputs *inputs);
double   vc_estimator_fused_loss_chunk (double tokens,
                                        double vocab,
                                        double hidden);
double   vc_estimator_training_cache_bytes (const VcInputs         *inputs,
                                            const VcScenarioResult *scenario,
                                            const VcReserveShare   *share);

G_END_DECLS
