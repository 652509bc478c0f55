/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-layout.h: an estimate spread over several GPUs and host memory.
 *
 * Inference: tensor parallel (TP), pipeline parallel (PP), expert parallel (EP) and data-parallel
 * replicas (DP), as vLLM and Megatron place the tensors; llama.cpp's partial offload (-ngl N,
 * experts in system RAM). Training: DDP, DeepSpeed ZeRO 1/2/3 and FSDP (HSDP inside a node), with
 * their buckets and gathered layers, gradient accumulation and CPU offload. The answer is the
 * busiest GPU's breakdown, the sum over every GPU, and the host memory offload needs.
 * FORMULAS.md beside this file gives each rule and its source.
 *
 * An estimate holds the layout inputs of both modes; each mode uses its own (TP, PP, EP,
 * --gpu-layers and experts in RAM for inference; sharding, offload and accumulation for
 * training; DP and the GPUs per node for both).
 */
#pragma once

#include <glib.h>

#include "vc-catalog.h"
#include "vc-estimator.h"

G_BEGIN_DECLS

typedef struct
{
  double bytes[VC_N_COMPONENTS];      /* the busiest GPU, by component */
  double buffers;                     /* its communication buckets and gathered layers */
  double total;                       /* the busiest GPU, everything */
  double reserved;                    /* what PyTorch's caching allocator reserves on it, with
                                       * the overhead (training, architecture method; else
                                       * the total): what meets the card's capacity */
  double all_bytes[VC_N_COMPONENTS];  /* summed over every GPU */
  double all_buffers;
  double all_total;
  double host_bytes;                  /* system RAM the busiest node needs for what is offloaded */
  guint n_gpus;                       /* TP × PP × DP */
  guint busiest_stage;                /* pipeline stage of the busiest GPU, from 0 */
  VcPhase peak_phase;
  double step_temporary;              /* training: the busiest GPU's share of the optimizer
                                       * step's temporary, in its optimizer component when the
                                       * step is the peak */
} VcLayoutResult;

guint    vc_layout_n_gpus        (const VcLayout *layout);
guint    vc_layout_zero_stage    (VcSharding      sharding);
gboolean vc_layout_is_default    (const VcLayout *layout);
guint    vc_layout_pp_stage_size (guint           n_layers,
                                  guint           pp,
                                  guint           stage);
guint    vc_layout_pp_stage_first (guint          n_layers,
                                   guint          pp,
                                   guint          stage);
void     vc_layout_stage_layers  (const VcInputs *inputs,
                                  guint           pp,
                                  guint           stage,
                                  guint          *first_layer,
                                  guint          *n_layers);
guint    vc_layout_stage_size    (const VcInputs *inputs,
                                  guint           pp,
                                  guint           stage);
guint    vc_layout_stage_first   (const VcInputs *inputs,
                                  guint           pp,
                                  guint           stage);
void     vc_layout_get_effective (const VcInputs *inputs,
                                  VcLayout       *layout);
gboolean vc_layout_check         (const VcInputs *inputs,
                                  GError        **error);
gboolean vc_layout_input_applies (const char     *property,
                                  VcMode          mode,
                                  GError        **error);
gboolean vc_layout_compute       (const VcInputs *inputs,
                                  const VcResult *result,
                                  guint           scenario_index,
                                  VcLayoutResult *out,
                                  GError        **error);
/* The layout of `tp` GPUs of tensor parallelism alone (PP, EP and DP 1, nothing offloaded), as
 * vc_layout_compute() computes any: what the engines' KV capacity on `tp` GPUs holds beside its
 * cache (vc_engine_kv_capacity_on()). FALSE where the model refuses that TP (its heads, KV heads
 * or feed-forward sizes), @error set. */
gboolean vc_layout_compute_tp    (const VcInputs *inputs,
                                  const VcResult *result,
                                  guint           scenario_index,
                                  guint           tp,
                                  VcLayoutResult *out,
                                  GError        **error);
gboolean vc_layout_smallest      (const VcInputs *inputs,
                                  const VcResult *result,
                                  guint           scenario_index,
                                  double          capacity_bytes,
                                  VcLayout       *layout,
                                  VcLayoutResult *out);
void     vc_layout_smallest_each (const VcInputs     *inputs,
                                  const VcResult     *result,
                                  guint               scenario_index,
                                  const double       *capacities,
                                  const VcGpu *const *gpus,
                                  guint               n,
                                  VcLayout           *layouts,
                                  VcLayoutResult     *outs,
                                  gboolean           *found);
/* The layouts a search computed for one estimate (its inputs without their layout, and its
 * result): what a layout computes does not depend on the card, so searches over several
 * capacities of the same estimate share it (vc_layout_smallest_memo()). */
typedef struct _VcLayoutMemo VcLayoutMemo;
VcLayoutMemo *vc_layout_memo_new     (void);
void     vc_layout_memo_free         (VcLayoutMemo   *memo);
gboolean vc_layout_smallest_memo     (VcLayoutMemo   *memo,
                                      const VcInputs *inputs,
                                      const VcResult *result,
                                      guint           scenario_index,
                                      double          capacity_bytes,
                                      const VcGpu    *gpu,
                                      VcLayout       *layout,
                                      VcLayoutResult *out);
/* What one GPU holding the layers [first_layer, first_layer + n_layers) of the whole model holds
 * (TP 1), for a plan over cards of different sizes (vc-plan.c): its tensors (the token embedding
 * when `input`, the final norm and head when `output`, a tied embedding's copy as the head with
 * it), the routed experts among them, the cache of its layers and the activations (llama.cpp:
 * its compute buffer) of a stage of that many layers, logits only with the head. */
typedef struct
{
  double weights;
  double experts;                     /* of `weights`: the routed experts */
  double experts_per_layer;           /* the routed experts of one MoE layer */
  double kv;
  double state;
  double activations;
} VcLayoutStage;

void     vc_layout_stage_bytes   (const VcInputs *inputs,
                                  const VcResult *result,
                                  guint           scenario_index,
                                  guint           first_layer,
                                  guint           n_layers,
                                  gboolean        input,
                                  gboolean        output,
                                  VcLayoutStage  *out);
/* The same for one GPU of a stage split over `tp` GPUs (the experts over `ep`): vLLM's and
 * SGLang's pipeline stages */
void     vc_layout_stage_bytes_tp (const VcInputs *inputs,
                                   const VcResult *result,
                                   guint           scenario_index,
                                   guint           first_layer,
                                   guint           n_layers,
                                   gboolean        input,
                                   gboolean        output,
                                   guint           tp,
                                   guint           ep,
                                   VcLayoutStage  *out);
/* The bytes of the tensor roles in `roles` (VC_TENSOR_ROLE_BIT; 0: all) in the layers
 * [first_layer, first_layer + n_layers), with those of the first stage when `input` and of the
 * last when `output` */
double   vc_layout_role_bytes    (const VcInputs *inputs,
                                  const VcResult *result,
                                  guint           scenario_index,
                                  guint32         roles,
                                  guint           first_layer,
                                  guint           n_layers,
                                  gboolean        input,
                                  gboolean        output);
/* Of the encoder's bytes, the share the inputs' engine divides over its tensor-parallel ranks
 * (0: whole on every rank) */
double   vc_layout_encoder_split (const VcInputs *inputs);
char    *vc_layout_describe      (const VcLayout *layout,
                                  VcMode          mode,
                                  VcMethod        method,
                                  gboolean        translate);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VcLayoutMemo, vc_layout_memo_free)

G_END_DECLS
