/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-plan.h: each engine's own plan for a set of cards (vc-gpu-set.h): which layers, experts,
 * cache and buffers each card holds, its total against what it has free, and what stays in
 * system RAM. FORMULAS.md, "Plans on a set of cards", gives each engine's rule and its source:
 *
 * - llama.cpp: layers split in proportion to --tensor-split or to each card's free
 *   memory (llama_model::load_tensors), -ngl, --split-mode layer|none, --main-gpu,
 *   --n-cpu-moe; the input layer in RAM; a compute buffer on each card;
 * - vLLM and SGLang: tensor parallelism over every card (or the layout's TP × PP), equal shards,
 *   the KV cache of the smallest card on all of them; SGLang refuses unbalanced cards;
 * - Transformers (and the generic engine): Accelerate's infer_auto_device_map over max_memory
 *   (each card's free memory, then the RAM);
 * - training: ZeRO/FSDP over equal cards; a mixed set is refused;
 * - Ollama, which picks its own split, is refused.
 *
 * The plan is plain data: the command line, the report and the window read it, and a command
 * builder can take the layer counts and split ratios from `devices`.
 */
#pragma once

#include <glib.h>

#include "vc-estimator.h"
#include "vc-gpu-set.h"
#include "vc-solver.h"

G_BEGIN_DECLS

/* The options of a plan that are not inputs of the estimate itself. */
typedef struct
{
  const double *tensor_split;     /* llama.cpp --tensor-split, one ratio per card; NULL: by
                                   * free memory */
  guint n_tensor_split;
  guint main_gpu;                 /* llama.cpp --main-gpu */
  VcSplitMode split_mode;         /* llama.cpp --split-mode */
  guint n_cpu_moe;                /* llama.cpp --n-cpu-moe: the experts of the first N layers in RAM */
  double ram_bytes;               /* system memory; 0: not given (RAM is then not checked) */
  const guint *pp_partition;      /* vLLM's VLLM_PP_LAYER_PARTITION: the layers of each stage;
                                   * NULL: vLLM's default partition */
  guint n_pp_partition;
} VcPlanOptions;

/* One card of the plan. */
typedef struct
{
  guint index;                    /* in the set */
  const char *gpu;                /* the set's id, or the card's name (borrowed from the set) */
  double memory_bytes;            /* the card's */
  double available_bytes;         /* what it has free (its memory when unknown) */
  double limit_bytes;             /* what the engine lets itself use of it */
  guint n_layers;                 /* repeating layers it holds; 0: none */
  guint first_layer;              /* the first of them, from 0 */
  gboolean output;                /* the output layer (final norm, head) */
  double split;                   /* llama.cpp: its share of the split points (0 … 1) */
  double weights;                 /* its tensors, experts included */
  double experts;                 /* of `weights`: routed experts */
  double kv;                      /* the KV cache of its layers */
  double state;                   /* recurrent state of its layers */
  double activations;             /* its compute buffer (llama.cpp) or activations */
  double overhead;                /* CUDA context and the engine's own */
  double bytes;                   /* everything it holds */
} VcPlanDevice;

typedef struct
{
  VcEngine engine;
  gboolean training;
  GArray *devices;                /* VcPlanDevice, one per card of the set */
  guint tp, pp;                   /* vLLM, SGLang, training: the degrees used */
  guint cpu_layers;               /* llama.cpp, Accelerate: repeating layers left in RAM */
  double host_bytes;              /* what system RAM holds */
  double ram_bytes;               /* as given; 0: not given */
  int fills_first;                /* the card with the least room left; -1: none */
  double kv_tokens;               /* vLLM, SGLang: the cache's tokens, bounded by the smallest
                                   * card; 0: not known */
  int bounded_by;                 /* vLLM, SGLang: the card that bounds the cache; -1 */
  guint *balanced;                /* vLLM, PP over cards that differ, default partition: the layers
                                   * each stage would take in proportion to its card's free
                                   * memory (one per stage); NULL when none is suggested */
  guint n_balanced;
  gboolean fits;                  /* every card and the RAM hold what the plan puts there */
} VcPlan;

void     vc_plan_clear    (VcPlan              *plan);
gboolean vc_plan_compute  (const VcInputs      *inputs,
                           const VcResult      *result,
                           const VcGpuSet      *set,
                           const VcPlanOptions *options,
                           VcPlan              *plan,
                           GError             **error);
/* "llama.cpp", "ollama", "vllm", "sglang", "accelerate" or "training": whose plan the inputs get */
const char *vc_plan_engine_id (const VcInputs *inputs);
const VcPlanDevice *vc_plan_get_device (const VcPlan *plan,
                                        guint         i);
/* llama.cpp's assignment alone: the device of layer il (0 … n_layer, the output being
 * n_layer) for n_gpu_layers and the split points, -1 for the CPU (llama_model::load_tensors) */
int      vc_plan_llama_layer_device (guint          n_layer,
                                     guint          n_gpu_layers,
                                     const float   *splits,
                                     guint          n_devices,
                                     guint          il);
/* The solver on the set: the largest value of `variable` (the sequence, the batch, the
 * concurrent requests) whose plan fits, at the other inputs' values; 0 when not even 1 fits.
 * FALSE with @error when the engine refuses the set. */
gboolean vc_plan_solve      (const VcInputs      *inputs,
                             const VcGpuSet      *set,
                             const VcPlanOptions *options,
                             VcSolveVariable      variable,
                             guint               *value,
                             GError             **error);
/* llama.cpp: the largest -ngl (1 … n_layer + 1, the output counted) whose plan fits; 0 when
 * not even the output layer fits. Other engines: FALSE with @error. */
gboolean vc_plan_most_gpu_layers (const VcInputs      *inputs,
                                  const VcGpuSet      *set,
                                  const VcPlanOptions *options,
                                  guint               *layers,
                                  GError             **error);
/* "20,12": vLLM's layers per pipeline stage (VLLM_PP_LAYER_PARTITION: whole numbers of 1 or
 * more, at most VC_GPU_SET_MAX); the sum is checked against the model by the plan */
guint   *vc_plan_parse_pp_partition (const char    *text,
                                     guint         *n,
                                     GError       **error);
/* "1,2.5,0": ratios for --tensor-split (at most VC_GPU_SET_MAX, none negative, not all 0) */
double  *vc_plan_parse_tensor_split (const char    *text,
                                     guint         *n,
                                     GError       **error);

G_END_DECLS
