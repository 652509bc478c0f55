/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-arch.h: a transformer's architecture, and what follows from it exactly: parameter counts,
 * the shapes of the layers LoRA can adapt, and the KV cache per token.
 *
 * VcArch is a plain struct so the estimator stays allocation-free. Its fields are described once
 * in a table (vc_arch_fields) which the estimate model turns into GObject properties and which
 * profiles and config import use to name and range-check each field.
 */
#pragma once

#include <glib.h>

#include "vc-types.h"

G_BEGIN_DECLS

typedef struct
{
  guint n_layers;
  guint hidden_size;
  guint n_heads;
  guint n_kv_heads;
  guint head_dim;                 /* 0: hidden_size / n_heads */
  guint intermediate_size;
  guint vocab_size;
  gboolean tied_embeddings;
  gboolean gated_mlp;             /* SwiGLU/GeGLU: gate, up and down projections */
  guint max_positions;            /* learned absolute positions (GPT-2); 0 with rotary */
  VcNorm norm;                    /* RMSNorm (weight) or LayerNorm (weight and bias) */
  guint norms_per_layer;          /* 2 pre-norm, 1 parallel (Falcon), 4 sandwich (Gemma 2/3) */
  gboolean qk_norm;               /* per-head RMSNorm on q and k (Qwen 3, Gemma 3) */
  gboolean qk_norm_full;          /* with qk_norm: the norms span the whole q and k projections,
                                   * heads × d and kv heads × d wide (OLMo 2), not one head */
  gboolean qkv_bias;
  gboolean o_bias;
  gboolean mlp_bias;
  gboolean attention_sinks;       /* gpt-oss: a learned sink logit per attention head */
  /* Mixture of experts */
  guint n_experts;                /* routed experts; 0 for a dense model */
  guint experts_per_token;
  guint expert_intermediate_size;
  guint n_shared_experts;
  guint shared_intermediate_size; /* 0: n_shared_experts × expert_intermediate_size */
  gboolean shared_expert_gate;    /* Qwen2-MoE: a sigmoid gate h → 1 on the shared expert */
  gboolean router_bias;           /* DeepSeek-V3: e_score_correction_bias, one per expert */
  guint dense_layers;             /* leading layers with a dense MLP (DeepSeek: first_k_dense_replace) */
  /* Multi-head latent attention (DeepSeek V2/V3); kv_lora_rank 0 means ordinary attention */
  guint q_lora_rank;
  guint kv_lora_rank;
  guint qk_rope_head_dim;
  guint qk_nope_head_dim;
  guint v_head_dim;
  /* Sliding-window attention */
  guint sliding_window;           /* 0: none */
  guint sliding_window_layers;    /* how many layers use the window */
  guint sliding_window_pattern;   /* P: layer i (from 0) has full attention when (i + 1) % P == 0,
                                   * every other layer the window; 0 when not known or not so */
  gboolean gated_attention;       /* q_proj also produces a sigmoid output gate (Qwen3-Next) */
  /* Linear attention (Gated DeltaNet) and state-space (Mamba) mixers: a state per sequence that
   * does not grow with the context, instead of (or beside) a KV cache */
  guint recurrent_layers;         /* layers with such a mixer */
  gboolean recurrent_with_attention; /* the mixer runs beside attention (Falcon-H1), not instead */
  /* Which layers hold a mixer where only some do: layer i (from 0) has attention and no mixer
   * when i % attention_layer_period == attention_layer_offset, every other layer a mixer
   * (Qwen3-Next: 4 and 3; Granite 4.0-H Tiny: 10 and 5); period 0 when not known or not so */
  guint attention_layer_period;
  guint attention_layer_offset;
  guint recurrent_params;         /* parameters of one mixer */
  guint recurrent_state;          /* values one mixer keeps per sequence: convolution + recurrent */
  guint encoder_params;           /* a vision (or audio) encoder and its projector, loaded with it */
  /* The vision encoder's layers and width (its config's num_hidden_layers and hidden_size), by
   * which SGLang lowers its default mem_fraction_static; 0: unknown */
  guint encoder_layers;
  guint encoder_width;
  /* SGLang serves the model without images unless --enable-multimodal is given
   * (configs/model_config.py, mm_disabled_models: Gemma 3's and Llama 4's classes), its
   * default mem_fraction_static then not lowered */
  gboolean sglang_multimodal_off;
  /* SGLang's class for the model runs on one pipeline stage only (python/sglang/srt/models/
   * qwen3_next.py at commit 0201bc8 and falcon_h1.py at 008b79d assert it; granitemoehybrid.py
   * at 008b79d ties the output head of every stage to an embedding only the first holds and
   * loads every stage's layers); its GPT-2, GPT-BigCode, Falcon, Gemma, Gemma 2, Gemma 3,
   * Granite, Granite MoE, ERNIE 4.5 and Hunyuan classes take no pp_proxy_tensors, which its model runner
   * asserts at PP > 1 (vc-hf-config.c, sglang_one_stage_class): SGLang with PP > 1 is refused */
  gboolean sglang_one_stage;
  /* The longest context the model takes (max_position_embeddings with its rope scaling);
   * 0: unknown. Counts nothing: it caps the longest sequence the solver reports. */
  guint max_context;
  /* How a mixer's state splits over tensor-parallel ranks: the heads its recurrent state is kept
   * in (Gated DeltaNet value heads, Mamba-2 heads) and the groups its keys come in (Gated DeltaNet
   * key heads, Mamba-2 groups); 0: unknown */
  guint recurrent_heads;
  guint recurrent_groups;
  /* Mamba-2 mixers: the state size N of each group (d_state), and the parameters one group adds
   * to a mixer (2·N rows of in_proj and of the convolution, with their biases); SGLang repeats
   * groups that tensor parallelism does not divide on every rank. 0: unknown, or not Mamba-2
   * (Gated DeltaNet's key heads are not repeated). */
  guint mamba_state_size;
  guint mamba_group_params;
  /* Of recurrent_state, the values of the convolution's last inputs (the rest being the recurrent
   * state), as the config reader derives them; 0: unknown. SGLang keeps the two parts in
   * different dtypes. */
  guint recurrent_conv;
  /* The cos/sin tables vLLM and SGLang build for rotary positions when the model is made, one
   * per distinct rope (vLLM's get_rope and its _ROPE_DICT): their rows together and their width
   * (the rotary dimension), as the config reader derives them from max_position_embeddings,
   * rope_scaling and the rotary part of a head; 0: no table (learned or no positions, or not
   * given). rope_table_kind says which construction gave the rows (VcRopeTableKind). */
  guint rope_table_rows;
  guint rotary_dim;
  gboolean rope_table_fp32;       /* vLLM builds it in fp32, not the model's dtype (gpt-oss) */
  guint rope_table_kind;
  /* Of encoder_params, those each serving engine divides over its tensor-parallel ranks (the
   * tower's QKVParallelLinear, ColumnParallelLinear and RowParallelLinear weights, the biases
   * of the column-parallel ones, vocabulary-parallel positions), the rest held whole by every
   * rank: vLLM's and SGLang's model classes differ (Llama 4's projector). 0: none, or not
   * followed (the encoder then whole on every rank). */
  guint encoder_vllm_tp_params;
  guint encoder_sglang_tp_params;
  /* vLLM's --mm-encoder-tp-mode data: whether its model class replicates the encoder on every
   * rank (supports_encoder_tp_data; otherwise vLLM falls back to weights), and of the encoder
   * parameters those it still divides then (Llama 4's projector) */
  gboolean encoder_vllm_data;
  guint encoder_vllm_data_tp_params;
  /* What vLLM's profile run passes through the vision encoder for one image (the dummy item of
   * the largest size, FORMULAS.md "Multimodal models"), as the config reader derives it where the
   * tower and the image's tokens follow from config.json (Gemma 3's SigLIP): the tower's MLP
   * width, the patches of an image, the pixel values it takes, the prompt tokens vLLM's encoder
   * budget counts for it (its placeholder with the markers around the embeddings) and the
   * embeddings the encoder returns. 0: unknown (vLLM's capacity then needs --kv-cache-memory). */
  guint encoder_intermediate;
  guint encoder_patches;
  guint encoder_pixel_values;
  guint encoder_image_tokens;
  guint encoder_image_embeds;
  /* Which tower those images pass through (VcEncoderTower): its forward pass is what vLLM's
   * profile run peaks at, followed for SigLIP, Pixtral and Qwen3-VL */
  guint encoder_tower;
  /* Qwen3-VL's tower (VC_ENCODER_TOWER_QWEN3_VL), as the config reader derives it: the width of
   * each embedding it returns (out_hidden_size times one plus the deepstack levels; 0: the text
   * model's width), the values one patch keeps through its blocks (positions, rotary tables,
   * deepstack features), and the most tokens a dummy video gives in vLLM's profile (from
   * video_preprocessor_config.json); 0: unknown */
  guint encoder_embed_width;
  guint encoder_patch_held;
  guint encoder_video_tokens;
} VcArch;

/* The vision tower vLLM's profile run passes the dummy images through (VcArch.encoder_tower) */
typedef enum
{
  VC_ENCODER_TOWER_SIGLIP,        /* SigLIP (Gemma 3's): its pass followed (vc-engine-mm.c) */
  VC_ENCODER_TOWER_PIXTRAL,       /* Pixtral (Mistral 3's): the images known, its pass not followed */
  VC_ENCODER_TOWER_LLAMA4,        /* Llama 4's tiles: the images known from preprocessor_config.json,
                                   * its pass not followed */
  VC_ENCODER_TOWER_QWEN3_VL,      /* Qwen3-VL's: the images known from preprocessor_config.json, its
                                   * pass followed */
} VcEncoderTower;

/* How the engines' rotary tables were derived (VcArch.rope_table_kind) */
typedef enum
{
  VC_ROPE_TABLE_PLAIN,            /* RotaryEmbedding and its scaled subclasses, or no table */
  VC_ROPE_TABLE_LONGROPE,         /* Phi-3's longrope: a short and a long table */
  VC_ROPE_TABLE_MROPE,            /* multimodal rope (mrope_section): not followed */
  VC_ROPE_TABLE_UNKNOWN_TYPE,     /* a rope_scaling type the engines' factory is not read for */
  VC_ROPE_TABLE_NO_POSITIONS,     /* max_position_embeddings not given */
  VC_ROPE_TABLE_NOT_GIVEN,        /* an architecture typed in: no config described the rope;
                                   * the engines take a plain Llama rope (vc_engine_rope_table_shape) */
} VcRopeTableKind;

typedef enum
{
  VC_ARCH_FIELD_UINT,
  VC_ARCH_FIELD_BOOL,
  VC_ARCH_FIELD_NORM,
} VcArchFieldType;

typedef struct
{
  const char *name;        /* property and profile key */
  const char *nick;        /* short label */
  const char *blurb;
  VcArchFieldType type;
  gsize offset;
  guint min;
  guint max;
  guint default_value;
} VcArchField;

/* Llama-2-7B: the architecture a new estimate starts with. */
extern const VcArch vc_arch_default;

const VcArchField *vc_arch_fields   (guint *n_fields);
const VcArchField *vc_arch_field_find (const char *name);
guint    vc_arch_field_get          (const VcArch *arch, const VcArchField *field);
void     vc_arch_field_set          (VcArch *arch, const VcArchField *field, guint value);

typedef struct
{
  double total;            /* every stored parameter */
  double active;           /* parameters used per token (MoE: routed experts only k of E) */
  double embedding;        /* token (and position) embeddings */
  double head;             /* untied output projection; 0 when tied */
  double linear;           /* 2-D weights inside the layers: what 4/8-bit quantization stores */
  double other;            /* norms, biases, routers: kept in 16 bits when quantized */
} VcParamCounts;

gboolean vc_arch_is_moe             (const VcArch *arch);
gboolean vc_arch_is_mla             (const VcArch *arch);
guint    vc_arch_head_dim           (const VcArch *arch);
guint    vc_arch_attention_layers   (const VcArch *arch);
double   vc_arch_state_elements     (const VcArch *arch);
gboolean vc_arch_stage_kinds        (const VcArch *arch,
                                     guint         first,
                                     guint         n,
                                     double       *attention,
                                     double       *mixers);
gboolean vc_arch_stage_windows      (const VcArch *arch,
                                     guint         first,
                                     guint         n,
                                     double       *full,
                                     double       *sliding);
void     vc_arch_attention_pattern  (const gboolean *attends,
                                     guint           n_layers,
                                     guint          *period,
                                     guint          *offset);
void     vc_arch_count_params       (const VcArch *arch, VcParamCounts *counts);
double   vc_arch_lora_params        (const VcArch *arch, guint rank, VcLoraTargets targets);
double   vc_arch_kv_elements_per_token_layer (const VcArch *arch);
double   vc_arch_kv_bytes_per_token (const VcArch *arch, double bytes_per_value);
gboolean vc_arch_validate           (const VcArch *arch, GError **error);

G_END_DECLS
