/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-arch.c: exact parameter counts and KV cache sizes from a transformer's architecture.
 *
 * Counts follow the module lists of the Hugging Face implementations (modeling_llama.py,
 * modeling_mixtral.py, modeling_gpt2.py, modeling_deepseek_v3.py, …): embeddings, q/k/v/o
 * projections with a and a_kv heads, gated or plain MLP, norms, biases where the family has them,
 * untied output head, experts with their router. Checked against published exact totals in
 * tests/test-arch.c (Llama 3 8B: 8,030,261,248; Mistral 7B: 7,241,732,096; GPT-2: 124,439,808; …).
 */
#define G_LOG_DOMAIN "vc-arch"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <stddef.h>

#include "vc-arch.h"
#include "vc-error.h"

const VcArch vc_arch_default = {
  .n_layers = 32,
  .hidden_size = 4096,
  .n_heads = 32,
  .n_kv_heads = 32,
  .head_dim = 0,
  .intermediate_size = 11008,
  .vocab_size = 32000,
  .tied_embeddings = FALSE,
  .gated_mlp = TRUE,
  .norm = VC_NORM_RMS,
  .norms_per_layer = 2,
  /* typed in: no config says how the model rotates its positions */
  .rope_table_kind = VC_ROPE_TABLE_NOT_GIVEN,
};

#define UINT_FIELD(field, name, nick, blurb, min, max) \
  { name, nick, blurb, VC_ARCH_FIELD_UINT, offsetof (VcArch, field), min, max, 0 }
#define BOOL_FIELD(field, name, nick, blurb) \
  { name, nick, blurb, VC_ARCH_FIELD_BOOL, offsetof (VcArch, field), 0, 1, 0 }

/* Ranges are wide enough for any published model and a good margin beyond (the largest models
 * have ~130 layers, hidden 16–25k, vocabularies of 256k), narrow enough that nothing overflows. */
static VcArchField fields[] = {
  UINT_FIELD (n_layers, "layers", N_("Layers"), N_("Number of transformer layers (L)"), 1, 100000),
  UINT_FIELD (hidden_size, "hidden-size", N_("Hidden size"), N_("Hidden size (h)"), 1, 1000000),
  UINT_FIELD (n_heads, "heads", N_("Attention heads"), N_("Attention heads (a)"), 1, 100000),
  UINT_FIELD (n_kv_heads, "kv-heads", N_("KV heads"), N_("Key/value heads (a_kv): a for MHA, 1 for MQA, between for GQA"), 1, 100000),
  UINT_FIELD (head_dim, "head-dim", N_("Head dimension"), N_("Dimension of one attention head (d); 0 means hidden size / heads"), 0, 100000),
  UINT_FIELD (intermediate_size, "intermediate-size", N_("Feed-forward size"), N_("Feed-forward (MLP) size of a dense layer (I)"), 1, 10000000),
  UINT_FIELD (vocab_size, "vocab-size", N_("Vocabulary"), N_("Vocabulary size (V)"), 1, 100000000),
  BOOL_FIELD (tied_embeddings, "tied-embeddings", N_("Tied embeddings"), N_("The output head shares the embedding matrix")),
  BOOL_FIELD (gated_mlp, "gated-mlp", N_("Gated MLP"), N_("Gated MLP (SwiGLU/GeGLU: gate, up and down projections)")),
  UINT_FIELD (max_positions, "learned-positions", N_("Learned positions"), N_("Learned absolute position embeddings (GPT-2); 0 for rotary"), 0, 100000000),
  { "norm", N_("Norm"), N_("Normalization: rms or layer (LayerNorm has a bias)"), VC_ARCH_FIELD_NORM, offsetof (VcArch, norm), 0, 1, VC_NORM_RMS },
  UINT_FIELD (norms_per_layer, "norms-per-layer", N_("Norms per layer"), N_("Norms per layer: 2 pre-norm, 1 parallel attention, 4 sandwich"), 0, 16),
  BOOL_FIELD (qk_norm, "qk-norm", N_("Q/K norm"), N_("Per-head norm on queries and keys")),
  BOOL_FIELD (qk_norm_full, "qk-norm-full", N_("Whole-width Q/K norm"), N_("With the Q/K norm: one norm over all query heads and one over all key heads (OLMo 2), not one head wide")),
  BOOL_FIELD (qkv_bias, "qkv-bias", N_("QKV bias"), N_("Bias on the query, key and value projections")),
  BOOL_FIELD (o_bias, "o-bias", N_("Output bias"), N_("Bias on the attention output projection")),
  BOOL_FIELD (mlp_bias, "mlp-bias", N_("MLP bias"), N_("Bias on the MLP projections")),
  BOOL_FIELD (attention_sinks, "attention-sinks", N_("Attention sinks"), N_("A learned sink logit per attention head (gpt-oss)")),
  UINT_FIELD (n_experts, "experts", N_("Experts"), N_("Routed experts per MoE layer; 0 for a dense model"), 0, 100000),
  UINT_FIELD (experts_per_token, "experts-per-token", N_("Experts per token"), N_("Routed experts active per token (k)"), 0, 100000),
  UINT_FIELD (expert_intermediate_size, "expert-intermediate-size", N_("Expert feed-forward size"), N_("Feed-forward size of one expert; 0 means the dense size"), 0, 10000000),
  UINT_FIELD (n_shared_experts, "shared-experts", N_("Shared experts"), N_("Experts every token goes through"), 0, 100000),
  UINT_FIELD (shared_intermediate_size, "shared-intermediate-size", N_("Shared expert size"), N_("Feed-forward size of the shared experts together; 0 means shared experts × expert size"), 0, 10000000),
  BOOL_FIELD (shared_expert_gate, "shared-expert-gate", N_("Shared expert gate"), N_("A learned gate on the shared expert (Qwen-MoE)")),
  BOOL_FIELD (router_bias, "router-bias", N_("Router bias"), N_("One routing bias per expert (DeepSeek-V3)")),
  UINT_FIELD (dense_layers, "dense-layers", N_("Dense layers"), N_("Leading layers with a dense MLP in a MoE model"), 0, 100000),
  UINT_FIELD (q_lora_rank, "q-lora-rank", N_("Query LoRA rank"), N_("Multi-head latent attention: query compression rank (0: none)"), 0, 1000000),
  UINT_FIELD (kv_lora_rank, "kv-lora-rank", N_("KV LoRA rank"), N_("Multi-head latent attention: cached latent size (0: ordinary attention)"), 0, 1000000),
  UINT_FIELD (qk_rope_head_dim, "qk-rope-head-dim", N_("RoPE head dimension"), N_("Multi-head latent attention: rotary part of each query/key head"), 0, 100000),
  UINT_FIELD (qk_nope_head_dim, "qk-nope-head-dim", N_("No-RoPE head dimension"), N_("Multi-head latent attention: non-rotary part of each query/key head"), 0, 100000),
  UINT_FIELD (v_head_dim, "v-head-dim", N_("Value head dimension"), N_("Multi-head latent attention: dimension of each value head"), 0, 100000),
  UINT_FIELD (sliding_window, "sliding-window", N_("Sliding window"), N_("Attention window in tokens of the sliding-window layers; 0 for none"), 0, 100000000),
  UINT_FIELD (sliding_window_layers, "sliding-window-layers", N_("Sliding-window layers"), N_("How many layers use the sliding window"), 0, 100000),
  UINT_FIELD (sliding_window_pattern, "sliding-window-pattern", N_("Sliding-window pattern"), N_("Which layers use the window: with P, every Pth layer (the Pth, the 2Pth…) has full attention and the others the window (Gemma 3: 6, gpt-oss and Gemma 2: 2); 0 when not known, or when the window is on every layer; vLLM and SGLang need it with several pipeline stages"), 0, 100000),
  BOOL_FIELD (gated_attention, "gated-attention", N_("Gated attention"), N_("The query projection also produces an output gate (Qwen3-Next)")),
  UINT_FIELD (recurrent_layers, "recurrent-layers", N_("Recurrent layers"), N_("Layers with a linear-attention or state-space (Mamba) mixer, which keeps a per-sequence state instead of a KV cache"), 0, 100000),
  BOOL_FIELD (recurrent_with_attention, "recurrent-with-attention", N_("Mixer beside attention"), N_("The recurrent mixer runs beside attention in its layers (Falcon-H1) instead of replacing it")),
  UINT_FIELD (attention_layer_period, "attention-layer-period", N_("Attention layer period"), N_("Where only some layers hold a mixer, which: with period P and offset O, layer i (from 0) has attention and no mixer when i mod P = O, every other layer a mixer (Qwen3-Next: 4 and 3, Granite 4.0-H Tiny: 10 and 5); 0 when not known; vLLM needs it with several pipeline stages"), 0, 100000),
  UINT_FIELD (attention_layer_offset, "attention-layer-offset", N_("Attention layer offset"), N_("The first attention layer (from 0) where only some layers hold a mixer; see the attention layer period"), 0, 100000),
  UINT_FIELD (recurrent_params, "recurrent-params", N_("Mixer parameters"), N_("Parameters of one linear-attention or state-space mixer"), 0, 2000000000),
  UINT_FIELD (recurrent_state, "recurrent-state", N_("Mixer state"), N_("Values one mixer keeps per sequence (convolution and recurrent state), whatever the context length"), 0, 2000000000),
  UINT_FIELD (encoder_params, "encoder-params", N_("Encoder parameters"), N_("Parameters of a vision or audio encoder and its projector, loaded with the language model (kept in 16 bits)"), 0, 4000000000u),
  UINT_FIELD (encoder_layers, "encoder-layers", N_("Encoder layers"), N_("Layers of the vision encoder as SGLang reads them (num_hidden_layers of its vision_config, 24 where it has none, as for Qwen3-VL, whose blocks are its depth), by which SGLang lowers its default static memory fraction; 0 when unknown"), 0, 100000),
  UINT_FIELD (encoder_width, "encoder-width", N_("Encoder width"), N_("Hidden size of the vision encoder (hidden_size of its vision_config), by which SGLang lowers its default static memory fraction and vLLM’s profile run sizes the encoder’s pass; 0 when unknown"), 0, 1000000),
  BOOL_FIELD (sglang_multimodal_off, "sglang-multimodal-off", N_("SGLang without images"), N_("SGLang serves the model without images unless --enable-multimodal is given (its Gemma 3 and Llama 4 classes), so its default static memory fraction is not lowered for the vision encoder")),
  BOOL_FIELD (sglang_one_stage, "sglang-one-stage", N_("SGLang on one stage"), N_("SGLang’s class for the model runs on one pipeline stage only (its Qwen3-Next, Falcon-H1 and Granite 4.0 hybrid classes, and its GPT-2, GPT-BigCode, Falcon, Gemma, Gemma 2, Gemma 3, Granite, Granite MoE, ERNIE 4.5 and Hunyuan classes, which take no pipeline tensors), so SGLang with PP > 1 is refused")),
  UINT_FIELD (max_context, "max-context", N_("Maximum context"), N_("Longest context the model takes, in tokens (max_position_embeddings with its rope scaling); 0 when unknown"), 0, 100000000),
  UINT_FIELD (recurrent_heads, "recurrent-heads", N_("Mixer heads"), N_("Heads a linear-attention or state-space mixer keeps its state in (Gated DeltaNet value heads, Mamba-2 heads), split by tensor parallelism; 0 when unknown"), 0, 100000),
  UINT_FIELD (recurrent_groups, "recurrent-groups", N_("Mixer groups"), N_("Groups a linear-attention or state-space mixer takes its keys from (Gated DeltaNet key heads, Mamba-2 groups); 0 when unknown"), 0, 100000),
  UINT_FIELD (mamba_state_size, "mamba-state-size", N_("Mamba-2 state size"), N_("Mamba-2 mixers: the state size (d_state) of each group, by which SGLang widens the groups that tensor parallelism does not divide; 0 when unknown or not Mamba-2"), 0, 1000000),
  UINT_FIELD (mamba_group_params, "mamba-group-params", N_("Mamba-2 group parameters"), N_("Mamba-2 mixers: the parameters one group adds to a mixer (its rows of in_proj and of the convolution, with their biases), which each tensor-parallel rank repeats where the groups are fewer than the ranks; 0 when unknown or not Mamba-2"), 0, 2000000000),
  UINT_FIELD (recurrent_conv, "recurrent-conv", N_("Mixer convolution state"), N_("Of the mixer state, the values of the convolution’s last inputs (kept in another dtype than the recurrent state by SGLang); 0 when unknown"), 0, 2000000000),
  UINT_FIELD (rope_table_rows, "rope-table-rows", N_("RoPE table rows"), N_("Rows of the cos/sin tables vLLM and SGLang build for rotary positions, all distinct tables together (max_position_embeddings, times the scaling factor for some rope types); 0 for none"), 0, 2000000000u),
  UINT_FIELD (rotary_dim, "rotary-dim", N_("Rotary dimension"), N_("The rotated part of a query/key head, the width of the RoPE table; 0 for no table"), 0, 100000),
  BOOL_FIELD (rope_table_fp32, "rope-table-fp32", N_("RoPE table in fp32"), N_("vLLM builds the RoPE table in fp32 rather than the model’s dtype (gpt-oss)")),
  UINT_FIELD (rope_table_kind, "rope-table-kind", N_("RoPE table kind"), N_("How the RoPE table was derived: 0 plain, 1 longrope (short and long tables), 2 multimodal rope (not followed), 3 a rope type not followed, 4 positions not given, 5 typed in (a plain rope of the maximum context’s rows and the head dimension, unless the rows and rotary dimension are given)"), 0, 5),
  UINT_FIELD (encoder_vllm_tp_params, "encoder-vllm-tp-params", N_("Encoder parameters split by vLLM"), N_("Of the encoder parameters, those vLLM divides over its tensor-parallel ranks (its tower’s and projector’s parallel layers); the rest is whole on every rank; 0 when none or not followed"), 0, 4000000000u),
  BOOL_FIELD (encoder_vllm_data, "encoder-vllm-data", N_("vLLM encoder data mode"), N_("vLLM’s model class replicates the vision encoder on every rank and splits the images with --mm-encoder-tp-mode data (supports_encoder_tp_data); otherwise vLLM falls back to weights")),
  UINT_FIELD (encoder_vllm_data_tp_params, "encoder-vllm-data-tp-params", N_("Encoder parameters split by vLLM in data mode"), N_("Of the encoder parameters, those vLLM still divides over its tensor-parallel ranks with --mm-encoder-tp-mode data (layers outside the replicated tower); 0 when none"), 0, 4000000000u),
  UINT_FIELD (encoder_sglang_tp_params, "encoder-sglang-tp-params", N_("Encoder parameters split by SGLang"), N_("Of the encoder parameters, those SGLang divides over its tensor-parallel ranks (its tower’s and projector’s parallel layers); the rest is whole on every rank; 0 when none or not followed"), 0, 4000000000u),
  UINT_FIELD (encoder_intermediate, "encoder-intermediate", N_("Encoder feed-forward size"), N_("Feed-forward size of the vision encoder’s layers (intermediate_size of its vision_config), for vLLM’s profile run; 0 when unknown"), 0, 10000000),
  UINT_FIELD (encoder_patches, "encoder-patches", N_("Encoder patches per image"), N_("Patches one image passes through the vision encoder, for vLLM’s profile run; 0 when unknown"), 0, 100000000),
  UINT_FIELD (encoder_pixel_values, "encoder-pixel-values", N_("Pixel values per image"), N_("Values of one image as the vision encoder takes it (channels × height × width), for vLLM’s profile run; 0 when unknown"), 0, 2000000000),
  UINT_FIELD (encoder_image_tokens, "encoder-image-tokens", N_("Prompt tokens per image"), N_("Prompt tokens of one image as vLLM’s encoder budget counts them (the embeddings and the markers around them), for its profile run; 0 when unknown"), 0, 100000000),
  UINT_FIELD (encoder_image_embeds, "encoder-image-embeds", N_("Embeddings per image"), N_("Embeddings the vision encoder returns for one image (Gemma 3’s mm_tokens_per_image), for vLLM’s profile run; 0 when unknown"), 0, 100000000),
  UINT_FIELD (encoder_tower, "encoder-tower", N_("Encoder tower"), N_("The vision tower vLLM’s profile run passes the images through: 0 SigLIP (Gemma 3’s), 1 Pixtral (Mistral 3’s), both followed, 2 Llama 4’s (its pass not followed), 3 Qwen3-VL’s (followed)"), 0, 3),
  UINT_FIELD (encoder_embed_width, "encoder-embed-width", N_("Embedding width"), N_("Width of each embedding the vision encoder returns (Qwen3-VL’s: the text width times one plus its deepstack levels), for vLLM’s profile run; 0 means the text model’s hidden size"), 0, 10000000),
  UINT_FIELD (encoder_patch_held, "encoder-patch-held", N_("Values a patch keeps"), N_("Values one patch keeps through the vision encoder’s layers besides a layer’s own (Qwen3-VL’s positions, rotary tables and deepstack features), for vLLM’s profile run; 0 when unknown"), 0, 10000000),
  UINT_FIELD (encoder_video_tokens, "encoder-video-tokens", N_("Tokens per video"), N_("The most tokens a dummy video of Qwen3-VL gives in vLLM’s profile run (from its video_preprocessor_config.json), which must not exceed an image’s for the profile to take images; 0 when unknown"), 0, 100000000),
};

static void
init_defaults (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
        fields[i].default_value = vc_arch_field_get (&vc_arch_default, &fields[i]);
      g_once_init_leave (&initialized, 1);
    }
}

const VcArchField *
vc_arch_fields (guint *n_fields)
{
  init_defaults ();
  *n_fields = G_N_ELEMENTS (fields);
  return fields;
}

const VcArchField *
vc_arch_field_find (const char *name)
{
  init_defaults ();
  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    if (g_strcmp0 (fields[i].name, name) == 0)
      return &fields[i];
  return NULL;
}

guint
vc_arch_field_get (const VcArch    *arch,
                   const VcArchField *field)
{
  const char *p = (const char *) arch + field->offset;

  switch (field->type)
    {
    case VC_ARCH_FIELD_BOOL:
      return *(const gboolean *) p ? 1 : 0;
    case VC_ARCH_FIELD_NORM:
      return *(const VcNorm *) p;
    case VC_ARCH_FIELD_UINT:
    default:
      return *(const guint *) p;
    }
}

void
vc_arch_field_set (VcArch            *arch,
                   const VcArchField *field,
                   guint              value)
{
  char *p = (char *) arch + field->offset;

  switch (field->type)
    {
    case VC_ARCH_FIELD_BOOL:
      *(gboolean *) p = value != 0;
      break;
    case VC_ARCH_FIELD_NORM:
      *(VcNorm *) p = value;
      break;
    case VC_ARCH_FIELD_UINT:
    default:
      *(guint *) p = value;
      break;
    }
}

gboolean
vc_arch_is_moe (const VcArch *arch)
{
  return arch->n_experts > 0 && arch->experts_per_token > 0;
}

gboolean
vc_arch_is_mla (const VcArch *arch)
{
  return arch->kv_lora_rank > 0;
}

guint
vc_arch_head_dim (const VcArch *arch)
{
  if (arch->head_dim > 0)
    return arch->head_dim;
  return MAX (1u, arch->hidden_size / MAX (1u, arch->n_heads));
}

/* Layers with attention, and so with a KV cache: all but the recurrent layers that replace it */
guint
vc_arch_attention_layers (const VcArch *arch)
{
  if (arch->recurrent_with_attention)
    return arch->n_layers;
  return arch->n_layers - MIN (arch->n_layers, arch->recurrent_layers);
}

/* Values of recurrent state one sequence holds, in all layers */
double
vc_arch_state_elements (const VcArch *arch)
{
  return (double) MIN (arch->recurrent_layers, arch->n_layers) * arch->recurrent_state;
}

/* How many of the layers below @x have attention alone under the attention-layer pattern */
static guint
pattern_attention_below (const VcArch *arch,
                         guint         x)
{
  guint p = arch->attention_layer_period, o = arch->attention_layer_offset;

  return x > o ? (x - o - 1) / p + 1 : 0;
}

/* The layers with attention and those with a mixer among [first, first + n): every layer
 * holding both (Falcon-H1), none a mixer, or the attention-layer pattern where it gives the
 * model's count of mixers; FALSE where which layers hold one is not known */
gboolean
vc_arch_stage_kinds (const VcArch *arch,
                     guint         first,
                     guint         n,
                     double       *attention,
                     double       *mixers)
{
  guint rec = MIN (arch->recurrent_layers, arch->n_layers), p = arch->attention_layer_period;

  if (rec == 0 || (arch->recurrent_with_attention && rec >= arch->n_layers))
    {
      *attention = n;
      *mixers = rec == 0 ? 0 : n;
      return TRUE;
    }
  if (arch->recurrent_with_attention || p == 0 || arch->attention_layer_offset >= p ||
      arch->n_layers - pattern_attention_below (arch, arch->n_layers) != rec)
    return FALSE;
  *attention = pattern_attention_below (arch, first + n) - pattern_attention_below (arch, first);
  *mixers = n - *attention;
  return TRUE;
}

/* The full-attention and sliding-window layers among [first, first + n) (FORMULAS.md,
 * "Sliding-window layers over pipeline stages"): every layer windowed, or every
 * sliding_window_pattern-th layer full (its reader: Gemma 2, Gemma 3, Cohere 2, gpt-oss, a
 * periodic layer_types); FALSE where which layers slide is not known (a pattern that does not
 * give the model's count, none given, or recurrent layers beside them) */
gboolean
vc_arch_stage_windows (const VcArch *arch,
                       guint         first,
                       guint         n,
                       double       *full,
                       double       *sliding)
{
  guint p = arch->sliding_window_pattern;

  if (arch->recurrent_layers > 0 || arch->sliding_window == 0 || arch->sliding_window_layers == 0)
    return FALSE;
  if (arch->sliding_window_layers >= arch->n_layers)
    {
      *full = 0;
      *sliding = n;
      return TRUE;
    }
  if (p == 0 || arch->sliding_window_layers != arch->n_layers - arch->n_layers / p)
    return FALSE;
  *full = (double) ((first + n) / p - first / p);
  *sliding = n - *full;
  return TRUE;
}

/* The pattern (attention-layer-period and -offset) of a per-layer list, @attends TRUE for a
 * layer with attention and no mixer: the attention layers at O, O + P, O + 2P… to the end; a
 * single one at O gives P = the layer count; 0 and 0 where the list is not of that form */
void
vc_arch_attention_pattern (const gboolean *attends,
                           guint           n_layers,
                           guint          *period,
                           guint          *offset)
{
  guint first = G_MAXUINT, second = G_MAXUINT, p;

  *period = *offset = 0;
  for (guint i = 0; i < n_layers && second == G_MAXUINT; i++)
    if (attends[i])
      {
        if (first == G_MAXUINT)
          first = i;
        else
          second = i;
      }
  if (first == G_MAXUINT)
    return;
  p = second == G_MAXUINT ? n_layers : second - first;
  if (first >= p)
    return;
  for (guint i = 0; i < n_layers; i++)
    if (attends[i] != (i % p == first))
      return;
  *period = p;
  *offset = first;
}

static double
norm_params (const VcArch *arch,
             double        width)
{
  return arch->norm == VC_NORM_LAYER ? 2.0 * width : width;
}

static double
mlp_linear (const VcArch *arch,
            double        inter)
{
  return (arch->gated_mlp ? 3.0 : 2.0) * arch->hidden_size * inter;
}

static double
mlp_bias (const VcArch *arch,
          double        inter)
{
  if (!arch->mlp_bias)
    return 0;
  return (arch->gated_mlp ? 2.0 : 1.0) * inter + arch->hidden_size;
}

static guint
expert_size (const VcArch *arch)
{
  return arch->expert_intermediate_size ? arch->expert_intermediate_size : arch->intermediate_size;
}

static double
shared_size (const VcArch *arch)
{
  if (arch->shared_intermediate_size)
    return arch->shared_intermediate_size;
  return (double) arch->n_shared_experts * expert_size (arch);
}

void
vc_arch_count_params (const VcArch  *arch,
                      VcParamCounts *counts)
{
  double h = arch->hidden_size;
  double a = arch->n_heads;
  double kv = arch->n_kv_heads;
  double d = vc_arch_head_dim (arch);
  double L = arch->n_layers;
  double L_attn = vc_arch_attention_layers (arch);
  double L_rec = MIN (arch->recurrent_layers, arch->n_layers);
  double attn_linear, attn_other;
  double layer_norms;
  double dense_linear, dense_other;
  double moe_linear = 0, moe_other = 0, moe_active_linear = 0;
  double n_moe_layers = 0, n_dense_layers = L;

  if (vc_arch_is_mla (arch))
    {
      double qk_head = (double) arch->qk_nope_head_dim + arch->qk_rope_head_dim;

      if (arch->q_lora_rank > 0)
        {
          attn_linear = h * arch->q_lora_rank + (double) arch->q_lora_rank * a * qk_head;
          attn_other = arch->q_lora_rank;
        }
      else
        {
          attn_linear = h * a * qk_head;
          attn_other = 0;
        }
      attn_linear += h * ((double) arch->kv_lora_rank + arch->qk_rope_head_dim);
      attn_linear += (double) arch->kv_lora_rank * a * ((double) arch->qk_nope_head_dim + arch->v_head_dim);
      attn_linear += a * arch->v_head_dim * h;
      attn_other += arch->kv_lora_rank;
    }
  else
    {
      attn_linear = h * a * d + 2.0 * h * kv * d + a * d * h;
      if (arch->gated_attention)
        attn_linear += h * a * d;
      attn_other = 0;
      if (arch->qkv_bias)
        attn_other += a * d + 2.0 * kv * d;
      if (arch->o_bias)
        attn_other += h;
      if (arch->qk_norm)
        attn_other += arch->qk_norm_full ? (a + kv) * d : 2.0 * d;
      if (arch->attention_sinks)
        attn_other += a;
    }

  layer_norms = arch->norms_per_layer * norm_params (arch, h);
  dense_linear = mlp_linear (arch, arch->intermediate_size);
  dense_other = mlp_bias (arch, arch->intermediate_size);

  if (vc_arch_is_moe (arch))
    {
      double e = expert_size (arch);
      double shared = shared_size (arch);
      double one_expert = mlp_linear (arch, e);
      double router = h * arch->n_experts;

      n_dense_layers = MIN (L, arch->dense_layers);
      n_moe_layers = L - n_dense_layers;
      moe_linear = arch->n_experts * one_expert + router;
      moe_other = arch->n_experts * mlp_bias (arch, e);
      if (shared > 0)
        {
          moe_linear += mlp_linear (arch, shared);
          moe_other += mlp_bias (arch, shared);
        }
      if (arch->shared_expert_gate)
        moe_linear += h;
      if (arch->router_bias)
        moe_other += arch->n_experts;
      moe_active_linear = MIN (arch->experts_per_token, arch->n_experts) * one_expert + router;
      if (shared > 0)
        moe_active_linear += mlp_linear (arch, shared);
      if (arch->shared_expert_gate)
        moe_active_linear += h;
    }

  counts->embedding = (double) arch->vocab_size * h + (double) arch->max_positions * h;
  counts->head = arch->tied_embeddings ? 0 : (double) arch->vocab_size * h;
  counts->linear = L_attn * attn_linear + L_rec * arch->recurrent_params
                   + n_dense_layers * dense_linear + n_moe_layers * moe_linear;
  counts->other = L_attn * attn_other + L * layer_norms + n_dense_layers * dense_other
                  + n_moe_layers * moe_other + norm_params (arch, h) + arch->encoder_params;
  counts->total = counts->embedding + counts->head + counts->linear + counts->other;
  /* what one decoded token reads: not the vision or audio encoder, which runs on an image's
   * prefill (it stays in the weights and the total) */
  counts->active = counts->total - arch->encoder_params;
  if (vc_arch_is_moe (arch))
    {
      double idle = arch->n_experts - MIN (arch->experts_per_token, arch->n_experts);

      counts->active -= n_moe_layers * (moe_linear - moe_active_linear);
      /* the biases of the experts a token does not go through */
      counts->active -= n_moe_layers * idle * mlp_bias (arch, expert_size (arch));
    }
}

double
vc_arch_lora_params (const VcArch  *arch,
                     guint          rank,
                     VcLoraTargets  targets)
{
  double r = rank;
  double h = arch->hidden_size;
  double d = vc_arch_head_dim (arch);
  double q_out, kv_out, o_in;
  double per_layer_attn = 0;
  double dense_mlp = 0, moe_mlp = 0;
  double n_dense = arch->n_layers, n_moe = 0;

  if (vc_arch_is_mla (arch))
    {
      q_out = (double) arch->n_heads * (arch->qk_nope_head_dim + arch->qk_rope_head_dim);
      kv_out = (double) arch->kv_lora_rank + arch->qk_rope_head_dim;
      o_in = (double) arch->n_heads * arch->v_head_dim;
    }
  else
    {
      q_out = arch->n_heads * d;
      kv_out = arch->n_kv_heads * d;
      o_in = arch->n_heads * d;
    }

  if (targets & VC_LORA_TARGET_Q)
    per_layer_attn += r * (h + q_out);
  if (targets & VC_LORA_TARGET_K)
    per_layer_attn += r * (h + kv_out);
  if (targets & VC_LORA_TARGET_V)
    per_layer_attn += r * (h + kv_out);
  if (targets & VC_LORA_TARGET_O)
    per_layer_attn += r * (o_in + h);

#define MLP_LORA(inter) \
  ((((targets & VC_LORA_TARGET_GATE) && arch->gated_mlp) ? r * (h + (inter)) : 0) + \
   ((targets & VC_LORA_TARGET_UP) ? r * (h + (inter)) : 0) + \
   ((targets & VC_LORA_TARGET_DOWN) ? r * ((inter) + h) : 0))

  dense_mlp = MLP_LORA ((double) arch->intermediate_size);
  if (vc_arch_is_moe (arch))
    {
      double e = expert_size (arch);
      double shared = shared_size (arch);

      n_dense = MIN (arch->n_layers, arch->dense_layers);
      n_moe = arch->n_layers - n_dense;
      moe_mlp = arch->n_experts * MLP_LORA (e);
      if (shared > 0)
        moe_mlp += MLP_LORA (shared);
    }
#undef MLP_LORA

  return vc_arch_attention_layers (arch) * per_layer_attn + n_dense * dense_mlp + n_moe * moe_mlp;
}

double
vc_arch_kv_elements_per_token_layer (const VcArch *arch)
{
  if (vc_arch_is_mla (arch))
    return (double) arch->kv_lora_rank + arch->qk_rope_head_dim;
  return 2.0 * arch->n_kv_heads * vc_arch_head_dim (arch);
}

double
vc_arch_kv_bytes_per_token (const VcArch *arch,
                            double        bytes_per_value)
{
  return vc_arch_attention_layers (arch) * vc_arch_kv_elements_per_token_layer (arch) * bytes_per_value;
}

/* The two layer patterns against the counts they must give: the attention-layer pattern's offset
 * below its period (without a period, 0: not known, the offset is not read) and, where the mixers replace attention, its mixers as many as
 * recurrent-layers (beside attention, recurrent-with-attention, it is not read); the
 * sliding-window pattern's windowed layers as many as
 * sliding-window-layers where some but not all layers slide */
static gboolean
validate_layer_patterns (const VcArch  *arch,
                         GError       **error)
{
  guint p = arch->attention_layer_period, o = arch->attention_layer_offset, w = arch->sliding_window_pattern;

  if (p > 0 && o >= p)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("attention-layer-offset (%u) must be below attention-layer-period (%u)"), o, p);
      return FALSE;
    }
  if (p > 0 && !arch->recurrent_with_attention &&
      arch->n_layers - pattern_attention_below (arch, arch->n_layers) != arch->recurrent_layers)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("attention-layer-period %u and offset %u leave %u of the %u layers with a mixer instead of "
                     "attention, but recurrent-layers is %u"),
                   p, o, arch->n_layers - pattern_attention_below (arch, arch->n_layers), arch->n_layers,
                   arch->recurrent_layers);
      return FALSE;
    }
  if (w > 0 && arch->sliding_window_layers > 0 && arch->sliding_window_layers < arch->n_layers &&
      arch->sliding_window_layers != arch->n_layers - arch->n_layers / w)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("sliding-window-pattern %u gives %u sliding-window layers of %u, but sliding-window-layers is %u"),
                   w, arch->n_layers - arch->n_layers / w, arch->n_layers, arch->sliding_window_layers);
      return FALSE;
    }
  return TRUE;
}

gboolean
vc_arch_validate (const VcArch  *arch,
                  GError       **error)
{
  guint n;
  const VcArchField *f = vc_arch_fields (&n);

  for (guint i = 0; i < n; i++)
    {
      guint v = vc_arch_field_get (arch, &f[i]);

      if (v < f[i].min || v > f[i].max)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("%s is %u; accepted: %u to %u"), f[i].name, v, f[i].min, f[i].max);
          return FALSE;
        }
    }
  if (arch->encoder_vllm_data_tp_params > arch->encoder_params)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("encoder-vllm-data-tp-params (%u) cannot exceed encoder-params (%u)"),
                   arch->encoder_vllm_data_tp_params, arch->encoder_params);
      return FALSE;
    }
  if (arch->encoder_vllm_tp_params > arch->encoder_params || arch->encoder_sglang_tp_params > arch->encoder_params)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("encoder-vllm-tp-params (%u) and encoder-sglang-tp-params (%u) cannot exceed encoder-params (%u)"),
                   arch->encoder_vllm_tp_params, arch->encoder_sglang_tp_params, arch->encoder_params);
      return FALSE;
    }
  if (arch->n_kv_heads > arch->n_heads)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("kv-heads (%u) cannot exceed heads (%u)"), arch->n_kv_heads, arch->n_heads);
      return FALSE;
    }
  if (arch->n_heads % arch->n_kv_heads != 0)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("heads (%u) must be a multiple of kv-heads (%u)"), arch->n_heads, arch->n_kv_heads);
      return FALSE;
    }
  if (arch->n_experts > 0 && (arch->experts_per_token == 0 || arch->experts_per_token > arch->n_experts))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("experts-per-token (%u) must be between 1 and experts (%u)"),
                   arch->experts_per_token, arch->n_experts);
      return FALSE;
    }
  if (arch->dense_layers > arch->n_layers)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("dense-layers (%u) cannot exceed layers (%u)"), arch->dense_layers, arch->n_layers);
      return FALSE;
    }
  if (arch->recurrent_layers > arch->n_layers)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("recurrent-layers (%u) cannot exceed layers (%u)"), arch->recurrent_layers, arch->n_layers);
      return FALSE;
    }
  if (arch->sliding_window_layers > arch->n_layers)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("sliding-window-layers (%u) cannot exceed layers (%u)"),
                   arch->sliding_window_layers, arch->n_layers);
      return FALSE;
    }
  if (arch->sliding_window_layers > vc_arch_attention_layers (arch))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("sliding-window-layers (%u) cannot exceed the layers with attention (%u)"),
                   arch->sliding_window_layers, vc_arch_attention_layers (arch));
      return FALSE;
    }
  return validate_layer_patterns (arch, error);
}
