/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-training-rules.c: context parallelism, sequence packing and selective per-op activation
 * checkpointing, each as the trainer that runs it does (FORMULAS.md, "Context parallelism",
 * "Sequence packing", "Selective per-op checkpointing").
 */
#define G_LOG_DOMAIN "vc-training-rules"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "vc-arch.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-training-rules.h"

/* a refusal: @error set, %FALSE returned */
#define refuse(error, ...) vc_error_set ((error), VC_ERROR_INVALID_COMBINATION, __VA_ARGS__)

/* the most GPUs a layout may have (vc-layout.c's MAX_LAYOUT_GPUS) */
#define MAX_WORLD 1000000

/* torch.nn.attention.flex_attention's _DEFAULT_SPARSE_BLOCK_SIZE */
#define FLEX_BLOCK 128.0

/* The context-parallel degree a training estimate splits its sequence over; 1 in inference. */
guint
vc_training_cp (const VcInputs *in)
{
  if (in->mode != VC_MODE_TRAINING)
    return 1;
  return MAX (1u, in->layout.cp);
}

/* The tokens one GPU computes: each of the CP ranks holds 2 of the 2·CP chunks of every
 * sequence (torch.distributed.tensor.experimental context_parallel, its head-tail load
 * balancer), so b·s / CP. */
double
vc_training_rank_tokens (const VcInputs *in)
{
  return (double) in->batch * in->seq / vc_training_cp (in);
}

static const char *
trainer_nick (VcTrainer trainer)
{
  GEnumClass *klass = g_type_class_ref (VC_TYPE_TRAINER);
  GEnumValue *value = g_enum_get_value (klass, trainer);
  const char *nick = value != NULL ? value->value_nick : "?";

  g_type_class_unref (klass);
  return nick;
}

static gboolean
check_cp (const VcInputs *in,
          GError        **error)
{
  guint cp = vc_training_cp (in);
  const VcArch *a = &in->arch;

  if (cp <= 1)
    return TRUE;
  if (in->trainer != VC_TRAINER_GENERIC && in->trainer != VC_TRAINER_TORCHTITAN)
    return refuse (error, _("context parallelism (CP %u) follows torchtitan’s ring attention: the %s trainer’s is not "
                            "modelled; accepted: --trainer torchtitan or generic, or --cp 1"),
                   cp, trainer_nick (in->trainer));
  if (in->method == VC_METHOD_RULE_OF_THUMB)
    return refuse (error, _("context parallelism needs the architecture method: ring attention exchanges each "
                            "layer’s keys and values"));
  if ((guint64) in->layout.dp * cp > MAX_WORLD)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) in->layout.dp * cp);

      return refuse (error, _("DP × CP is %s GPUs; accepted: at most %u"), count, (guint) MAX_WORLD);
    }
  if (in->seq % (VC_CP_CHUNKS_PER_RANK * cp) != 0)
    return refuse (error, _("with CP %u the sequence (%u tokens) must be a multiple of 2 × CP = %u: each rank "
                            "takes two of its 2 × CP chunks"),
                   cp, in->seq, VC_CP_CHUNKS_PER_RANK * cp);
  if (!in->flash_attention)
    return refuse (error, _("ring attention runs the flash or memory-efficient attention kernels: turn flash "
                            "attention on, or set --cp 1"));
  if (a->sliding_window > 0 || a->recurrent_layers > 0)
    return refuse (error, _("ring attention is causal attention over the whole sequence: this model’s "
                            "sliding-window or recurrent layers cannot be split by CP"));
  if (in->optimizer_in_backward || in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT)
    return refuse (error, _("the optimizer step in the backward pass and paged optimizers are modelled on one "
                            "GPU: set --cp 1"));
  return TRUE;
}

static gboolean
check_selective (const VcInputs *in,
                 GError        **error)
{
  if (in->checkpointing != VC_CHECKPOINTING_SELECTIVE)
    return TRUE;
  if (in->trainer != VC_TRAINER_GENERIC && in->trainer != VC_TRAINER_TORCHTITAN)
    return refuse (error, _("selective per-op checkpointing follows torchtitan’s: the %s trainer has none "
                            "modelled; accepted: --trainer torchtitan or generic"),
                   trainer_nick (in->trainer));
  if (in->method == VC_METHOD_RULE_OF_THUMB)
    return refuse (error, _("selective per-op checkpointing needs the architecture method: it keeps the outputs "
                            "of given operators"));
  if (in->finetune != VC_FINETUNE_FULL)
    return refuse (error, _("selective per-op checkpointing is modelled for full fine-tuning, as torchtitan "
                            "trains: adapters’ matrix products would change which outputs it keeps"));
  if (vc_arch_is_moe (&in->arch) || vc_arch_is_mla (&in->arch) || in->arch.recurrent_layers > 0)
    return refuse (error, _("selective per-op checkpointing is modelled for dense decoders with multi-head or "
                            "grouped-query attention; this model’s experts, latent attention or recurrent "
                            "layers are not"));
  if (!in->flash_attention)
    return refuse (error, _("selective per-op checkpointing keeps the flash or memory-efficient attention "
                            "output: turn flash attention on"));
  return TRUE;
}

static gboolean
check_selective_layers (const VcInputs *in,
                        GError        **error)
{
  if (in->checkpointing != VC_CHECKPOINTING_SELECTIVE_LAYERS)
    return TRUE;
  if (in->trainer != VC_TRAINER_GENERIC && in->trainer != VC_TRAINER_TORCHTITAN)
    return refuse (error, _("checkpointing every N-th layer follows torchtitan’s selective option: the %s "
                            "trainer has none modelled; accepted: --trainer torchtitan or generic"),
                   trainer_nick (in->trainer));
  if (in->method == VC_METHOD_RULE_OF_THUMB)
    return refuse (error, _("checkpointing every N-th layer needs the architecture method: it knows no layers"));
  return TRUE;
}

static gboolean
check_packing (const VcInputs *in,
               GError        **error)
{
  if (!in->packing)
    return TRUE;
  switch (in->trainer)
    {
    case VC_TRAINER_GENERIC:
    case VC_TRAINER_TORCHTITAN:
      return TRUE;
    case VC_TRAINER_TORCHTUNE:
      if (in->method == VC_METHOD_RULE_OF_THUMB)
        return refuse (error, _("torchtune’s packed batches need the architecture method: their block mask "
                                "is sized by the sequence"));
      if (vc_training_cp (in) > 1)
        return refuse (error, _("--packing with CP is not modelled: set --cp 1"));
      return TRUE;
    case VC_TRAINER_HF:
    case VC_TRAINER_TRL:
    case VC_TRAINER_AXOLOTL:
    case VC_TRAINER_LLAMAFACTORY:
    case VC_TRAINER_UNSLOTH:
    default:
      return refuse (error, _("--packing is modelled for torchtune (its block-causal mask and positions) and "
                              "torchtitan (which always packs): the %s trainer’s packed batches are not"),
                     trainer_nick (in->trainer));
    }
}

/* The refusals of the rules of this file, for a training estimate. */
gboolean
vc_training_rules_check (const VcInputs *in,
                         GError        **error)
{
  if (in->mode != VC_MODE_TRAINING)
    return TRUE;
  return check_cp (in, error) && check_selective (in, error) && check_selective_layers (in, error) &&
         check_packing (in, error);
}

/* Ring attention's exchange buffers at the peak of one layer's attention, per GPU: PyTorch's
 * context_parallel (torch/distributed/tensor/experimental/_attention.py), whose keys and values
 * torchtitan all-gathers (context_parallel_rotate_method "allgather", _AllGatherRotater) and
 * whose key and value gradients go round the ring by all-to-all. The backward pass
 * (_templated_ring_attention_backward) holds more than the forward: for the t = b·s/CP local
 * tokens, q of width q and keys and values of width k each,
 *  - the fp32 accumulators grad_query, grad_key, grad_value: 4·t·(q + 2k);
 *  - the contiguous keys and values and their concatenation sent round: 2 × e·t·2k;
 *  - the all-gathered keys and values of the whole sequence: e·t·2k·CP;
 *  - one step's gradients from the attention kernel: e·t·(q + 2k);
 *  - the fp32 concatenated key and value gradients sent, and those received: 2 × 4·t·2k.
 * torchtitan's Llama repeats the key and value heads to the query heads before the attention
 * (repeat_kv), so k = q there; the generic trainer passes the model's own key and value heads. */
double
vc_training_ring_bytes (const VcInputs *in,
                        double          q_dim,
                        double          kv_dim,
                        double          e)
{
  double cp = vc_training_cp (in);
  double t = vc_training_rank_tokens (in);
  double k = in->trainer == VC_TRAINER_TORCHTITAN ? q_dim : kv_dim;

  if (cp <= 1)
    return 0;
  return t * (4.0 * (q_dim + 2.0 * k) + 2.0 * e * 2.0 * k + e * 2.0 * k * cp + e * (q_dim + 2.0 * k) +
              2.0 * 4.0 * 2.0 * k);
}

/* What packing adds, for the whole step. torchtune (torchtune/data/_collate.py,
 * padded_collate_packed; torchtune/modules/attention_utils.py, packed_block_causal_mask) sends
 * each sample's positions within its documents (input_pos, int64) and, on a GPU of compute
 * capability 7.5 or more, a flex-attention BlockMask built from per-token document ids (int64,
 * kept on the GPU by the mask function): with n = ⌈s/128⌉ blocks a side, kv_num_blocks,
 * full_kv_num_blocks and their transposes q_num_blocks, full_q_num_blocks (b × n int32 each),
 * and kv_indices, full_kv_indices, q_indices, full_q_indices (b × n × n int32 each;
 * BlockMask.from_kv_blocks). torchtitan's datasets always pack (its HuggingFaceDataset
 * concatenates documents into seq_len + 1 tokens) under one causal mask: nothing changes; nor
 * for the generic trainer, whose estimate already counts full sequences of s tokens. */
double
vc_training_packing_bytes (const VcInputs *in)
{
  double b = in->batch;
  double n = ceil (in->seq / FLEX_BLOCK);

  if (!in->packing || in->mode != VC_MODE_TRAINING || in->trainer != VC_TRAINER_TORCHTUNE)
    return 0;
  return b * in->seq * (8.0 + 8.0) + 4.0 * b * n * 4.0 + 4.0 * b * n * n * 4.0;
}

/* torchtitan's selective checkpointing per layer (activation_checkpoint.mode = "selective",
 * selective_ac_option = "N"; _apply_ac_to_transformer_block at the same commit): a counter on
 * ptd_checkpoint_wrapper counts the blocks from 1 and wraps those whose count is a multiple of N,
 * the others kept whole. Of the first `n_layers` layers, how many are checkpointed; every one
 * with full or √L checkpointing as the replay sees them, none without. */
guint
vc_training_checkpointed_among (const VcInputs *in,
                                guint           n_layers)
{
  switch (in->checkpointing)
    {
    case VC_CHECKPOINTING_NONE:
      return 0;
    case VC_CHECKPOINTING_SELECTIVE_LAYERS:
      return n_layers / MAX (1u, in->checkpoint_every);
    case VC_CHECKPOINTING_SQRT:
    case VC_CHECKPOINTING_FULL:
    case VC_CHECKPOINTING_SELECTIVE:
    default:
      return n_layers;
    }
}

/* Whether layer `layer` (from 0) is checkpointed (above). */
gboolean
vc_training_layer_checkpointed (const VcInputs *in,
                                guint           layer)
{
  return vc_training_checkpointed_among (in, layer + 1) > vc_training_checkpointed_among (in, layer);
}

/* torchtitan's selective per-op checkpointing (activation_checkpoint.mode = "selective",
 * selective_ac_option = "op"; torchtitan/parallelisms/parallelize_llama.py at the benchmarks of
 * docs/performance.md, _apply_ac_to_transformer_block and _save_list, the same policy as
 * torchtitan/distributed/activation_checkpoint.py's SelectiveAC today): each block keeps the
 * outputs of the operators of _save_list (aten.mm, the flash and memory-efficient attention),
 * except every second matrix product of the block (a count from 1, those of even rank
 * recomputed). A block's products run q, k, v, o, then the MLP's gate (w1), up (w3) and down
 * (w2), or up and down: kept are q, v, the gate (the up projection without a gate) and the down
 * projection with a gate; the attention's output and its fp32 log-sum-exp (one per head); and
 * the block's input, which the checkpoint keeps. Bytes per token of one layer, one value per
 * tensor in `out`; returns how many. */
guint
vc_training_selective_tensors (const VcInputs *in,
                               double          hidden,
                               double          q_dim,
                               double          kv_dim,
                               double          inter,
                               double          e,
                               double         *out)
{
  double products[7];
  guint n_products = 0, n = 0;

  products[n_products++] = q_dim;
  products[n_products++] = kv_dim;
  products[n_products++] = kv_dim;
  products[n_products++] = hidden;
  if (in->arch.gated_mlp)
    products[n_products++] = inter;
  products[n_products++] = inter;
  products[n_products++] = hidden;

  out[n++] = e * hidden;
  for (guint i = 0; i < n_products; i += 2)
    out[n++] = e * products[i];
  out[n++] = e * q_dim;
  out[n++] = 4.0 * in->arch.n_heads;
  return n;
}
