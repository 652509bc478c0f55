/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-inventory.h: a model's weights as one list of tensors, whatever described the model.
 *
 * A preset at a precision, a config.json with or without a quantization_config, a GGUF file
 * and a safetensors folder all give the same thing: tensors (or runs of identical tensors over
 * consecutive layers), each with its role, its layers, its elements and its exact bytes, block
 * scales and zero points included. How a tensor splits under tensor, pipeline and expert
 * parallelism, and where llama.cpp places it, follows from its role alone; every per-GPU and
 * host weight figure is a partition of the inventory (vc_inventory_shard_bytes()). A new source
 * or a new layout then composes with all the others. FORMULAS.md, "One inventory of tensors",
 * gives each rule and its source.
 *
 * An inventory is immutable once built and reference counted, so an estimate can share its
 * model files' inventory with every computation.
 */
#pragma once

#include <glib.h>

#include "vc-arch.h"

G_BEGIN_DECLS

typedef enum
{
  VC_TENSOR_EMBEDDING,      /* token embedding: vocabulary-parallel; llama.cpp keeps it in RAM */
  VC_TENSOR_POSITIONS,      /* learned positions, token types: replicated, with the embedding */
  VC_TENSOR_ENCODER,        /* vision or audio encoder and projector: replicated, first stage */
  VC_TENSOR_ATTENTION,      /* q, o, MLA's up-projections, sinks: split by heads */
  VC_TENSOR_ATTENTION_KV,   /* k and v: whole KV heads on each GPU */
  VC_TENSOR_LATENT,         /* MLA's down-projections and their norms: replicated */
  VC_TENSOR_MLP,            /* dense MLP and shared experts: column and row parallel */
  VC_TENSOR_EXPERTS,        /* routed experts: expert parallel, or column/row parallel */
  VC_TENSOR_ROUTER,         /* router, its bias, the shared expert's gate: replicated */
  VC_TENSOR_NORM,           /* norms and the biases added after a reduction: replicated */
  VC_TENSOR_RECURRENT,      /* linear-attention or state-space mixer: column/row parallel */
  VC_TENSOR_OUTPUT_NORM,    /* final norm: replicated, last stage */
  VC_TENSOR_HEAD,           /* untied output projection: vocabulary-parallel, last stage */
  VC_TENSOR_MTP,            /* multi-token prediction layers past the model's: last stage */
  VC_TENSOR_OTHER,          /* a tensor outside the layers no rule names: replicated, first stage */
} VcTensorRole;

#define VC_N_TENSOR_ROLES (VC_TENSOR_OTHER + 1)

/* How a role's tensors divide among the GPUs of a stage. */
typedef enum
{
  VC_SPLIT_REPLICATED,
  VC_SPLIT_TP,              /* ÷ TP */
  VC_SPLIT_KV_HEADS,        /* ÷ min(TP, KV heads) */
  VC_SPLIT_VOCAB,           /* ⌈V / TP⌉ rows of V */
  VC_SPLIT_EXPERTS,         /* ÷ EP when EP > 1, else ÷ TP */
} VcTensorSplit;

typedef struct
{
  VcTensorRole role;
  guint first_layer;        /* the layers [first_layer, first_layer + n_layers) */
  guint n_layers;           /* 0: not in a layer */
  double elements;          /* of one layer's tensor (or of the tensor outside the layers) */
  double bytes;
} VcTensorGroup;

typedef struct _VcInventory VcInventory;

VcInventory   *vc_inventory_new             (const VcArch   *arch);
VcInventory   *vc_inventory_ref             (VcInventory    *inv);
void           vc_inventory_unref           (VcInventory    *inv);

/* layer < 0: outside the layers; a role outside the layers given a layer keeps it */
void           vc_inventory_add             (VcInventory    *inv,
                                             VcTensorRole    role,
                                             int             layer,
                                             double          elements,
                                             double          bytes);
void           vc_inventory_add_layers      (VcInventory    *inv,
                                             VcTensorRole    role,
                                             guint           first_layer,
                                             guint           n_layers,
                                             double          elements,
                                             double          bytes);

/* Once a file's tensors are added, in any order: one group per role and run of layers. */
void           vc_inventory_seal            (VcInventory    *inv);

guint          vc_inventory_get_n_groups    (const VcInventory *inv);
const VcTensorGroup *vc_inventory_get_group (const VcInventory *inv,
                                             guint              i);
guint          vc_inventory_get_n_layers    (const VcInventory *inv);
double         vc_inventory_bytes           (const VcInventory *inv);
double         vc_inventory_elements        (const VcInventory *inv);
double         vc_inventory_role_bytes      (const VcInventory *inv,
                                             VcTensorRole       role);
VcTensorSplit  vc_tensor_role_split         (VcTensorRole       role);
const char    *vc_tensor_role_id            (VcTensorRole       role);

/* An architecture's tensors with linear weights at linear_bytes each and everything else
 * (embeddings, head, norms, biases, encoder) at other_bytes: the floating-point precisions and
 * the plain 8- and 4-bit ones. */
VcInventory   *vc_inventory_new_for_arch    (const VcArch   *arch,
                                             double          linear_bytes,
                                             double          other_bytes);
double         vc_inventory_arch_bytes      (const VcArch   *arch,
                                             double          linear_bytes,
                                             double          other_bytes);
/* The same inventory with every group's bytes multiplied by `factor`. */
VcInventory   *vc_inventory_new_scaled      (const VcInventory *inv,
                                             double             factor);

/* The role and layer (-1: none) of a tensor by its name in a GGUF file or in a checkpoint
 * (safetensors, Hugging Face names). n_layers: the model's; later layers are MTP layers. */
VcTensorRole   vc_tensor_role_for_gguf_name (const char     *name,
                                             guint           n_layers,
                                             int            *layer);
VcTensorRole   vc_tensor_role_for_hf_name   (const char     *name,
                                             guint           n_layers,
                                             int            *layer);

#define VC_TENSOR_ROLE_BIT(role) (1u << (role))

/* One GPU's share (or the host's) of the inventory. */
typedef struct
{
  guint tp;
  guint ep;                 /* 1: no expert parallelism */
  guint first_layer;
  guint n_layers;
  gboolean input;           /* embedding, positions, encoder, other: the first stage */
  gboolean output;          /* final norm, head, MTP: the last stage */
  gboolean embedding_copy;  /* a tied embedding's copy as the head (a last stage without the
                             * embedding, or llama.cpp's output on the GPU) */
  guint32 roles;            /* VC_TENSOR_ROLE_BIT() of the roles counted; 0: every role */
  double encoder_split;     /* of the encoder's bytes, the share the engine divides by TP (its
                             * tower's parallel layers); the rest whole on every GPU */
} VcShard;

double         vc_inventory_shard_bytes     (const VcInventory *inv,
                                             const VcShard     *shard);
double         vc_inventory_shard_bytes_experts (const VcInventory *inv,
                                                 const VcShard     *shard,
                                                 double            *experts);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (VcInventory, vc_inventory_unref)

G_END_DECLS
