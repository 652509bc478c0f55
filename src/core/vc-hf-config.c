/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-hf-config.c: reading a Hugging Face config.json into an exact architecture.
 *
 * One reader per family, in the families table (as a modeline parser keeps one parser per
 * dialect): a new family is a row and a function. Messages name the key; the file's name is put
 * in front of them where reading fails (g_propagate_prefixed_error).
 *
 * Which keys each family reads (aliases after "|"), and the module list the count follows. The
 * counting rules are those of vc_arch_count_params(); this file decides, per family, which
 * modules exist, from the Hugging Face transformers implementations (modeling_<family>.py and
 * the defaults of configuration_<family>.py):
 *
 *   every family     model_type, torch_dtype|dtype, tie_word_embeddings (family default when
 *                    absent), quantization_config.quant_method/bits (stored precision only),
 *                    _name_or_path (display name), text_config (multimodal wrappers: only the
 *                    text model is read; its missing keys take the text config class defaults)
 *   llama-style      hidden_size, num_hidden_layers, num_attention_heads, num_key_value_heads
 *                    (absent: = heads), head_dim (absent: hidden / heads), intermediate_size,
 *                    vocab_size; RMSNorm, two norms a layer, SwiGLU/GeGLU MLP, final norm
 *     llama          attention_bias (q, k, v and o), mlp_bias (gate, up, down); untied
 *     mistral        sliding_window on every layer (class default 4096, null: none); no biases
 *     mixtral        num_local_experts, num_experts_per_tok, sliding_window; experts of
 *                    intermediate_size, a bias-free router h → E
 *     qwen2          q, k and v always have a bias, o none; use_sliding_window, sliding_window,
 *                    max_window_layers (layers from max_window_layers on use the window)
 *     qwen2_moe      as qwen2, plus num_experts, num_experts_per_tok, moe_intermediate_size,
 *                    shared_expert_intermediate_size, the shared expert's sigmoid gate h → 1,
 *                    decoder_sparse_step, mlp_only_layers (dense layers)
 *     qwen3          attention_bias, per-head q_norm and k_norm, head_dim (class default 128),
 *                    use_sliding_window, sliding_window, max_window_layers
 *     qwen3_moe      as qwen3 with num_experts, num_experts_per_tok, moe_intermediate_size,
 *                    decoder_sparse_step, mlp_only_layers; no shared expert
 *     gemma          head_dim (default 256), attention_bias; tied by default
 *     gemma2         four norms a layer (pre/post attention, pre/post feed-forward);
 *                    sliding_window on even layers (is_sliding = not layer_idx % 2)
 *     gemma3         (gemma3_text; gemma3 wraps it in text_config) as gemma2 with q_norm and
 *                    k_norm; sliding_window on all layers but every sliding_window_pattern-th
 *                    (default 6: five local, one global)
 *     phi3           fused qkv_proj and gate_up_proj (same count as separate ones), no biases,
 *                    sliding_window on every layer (default none)
 *     deepseek_v2/v3 multi-head latent attention: q_lora_rank (null: a plain q_proj),
 *                    kv_lora_rank, qk_rope_head_dim, qk_nope_head_dim, v_head_dim, with
 *                    q_a_layernorm and kv_a_layernorm; n_routed_experts, num_experts_per_tok,
 *                    moe_intermediate_size, n_shared_experts, first_k_dense_replace,
 *                    moe_layer_freq; the router has e_score_correction_bias in V3 (and in V2
 *                    with topk_method "noaux_tc"); num_nextn_predict_layers (the multi-token
 *                    prediction module) is not loaded by transformers and not counted
 *   gpt2             n_embd|hidden_size, n_layer|num_hidden_layers, n_head|num_attention_heads,
 *                    n_positions|max_position_embeddings (learned positions), n_inner (absent:
 *                    4 × n_embd), vocab_size; LayerNorm, biases everywhere, plain MLP, tied
 *   gpt_neox         hidden_size, num_hidden_layers, num_attention_heads, intermediate_size,
 *                    vocab_size, attention_bias (default true), untied embed_out; LayerNorm,
 *                    MLP biases, plain MLP; the parallel residual changes no count
 *   falcon           hidden_size, num_hidden_layers|n_layer, num_attention_heads|n_head,
 *                    vocab_size, ffn_hidden_size (absent: 4 × hidden), bias (every linear
 *                    layer), new_decoder_architecture with num_kv_heads, else multi_query (one
 *                    KV head); parallel_attn and num_ln_in_parallel_attn give one or two
 *                    LayerNorms a layer; tied
 *   gpt_bigcode      as gpt2, with multi_query (default true): one key and value head
 *   smollm3          as llama (tied by default); no_rope_layers and no_rope_layer_interval
 *                    change no size; use_sliding_window, sliding_window, max_window_layers as qwen2
 *   ernie4_5         llama-style with head_dim (class default 128), use_bias (q, k, v, o and the
 *                    MLP), tied by default
 *   ernie4_5_moe     llama-style with use_bias, moe_num_experts, moe_k, moe_intermediate_size,
 *                    moe_num_shared_experts, moe_layer_start_index (leading dense layers),
 *                    the router's correction bias: see read_ernie4_5_moe()
 *   cohere           llama-style without head_dim, one weight-only LayerNorm a layer (parallel
 *                    attention and MLP), attention_bias, tied; use_qk_norm not understood
 *   olmo2            llama-style without head_dim, attention_bias (q, k, v and o), untied; a norm
 *                    after attention and one after the MLP instead of before them (the same two
 *                    weights), and q_norm and k_norm over the whole q and k projections (heads ×
 *                    head_dim and kv heads × head_dim: qk_norm_full), not per head
 *   kimi_k2          DeepSeek-V3's layout (DeepseekV3ForCausalLM) under its own model_type
 *   granite          as llama; the four multipliers scale activations, not what is stored
 *   granitemoe       as llama with num_local_experts experts of intermediate_size
 *                    (input_linear h → 2I, output_linear I → h) and a bias-free router
 *   gpt_oss          attention_bias (default true: q, k, v and o), a sink logit per head,
 *                    num_local_experts experts of intermediate_size with biases on both
 *                    projections, a router with a bias, num_experts_per_tok (= experts_per_token),
 *                    sliding_window on every other layer from the first (or as layer_types says)
 *   qwen3_next       as qwen3_moe with a gated shared expert; full attention (with an output
 *                    gate) every full_attention_interval-th layer, Gated DeltaNet in the others
 *                    (linear_num_key_heads, linear_num_value_heads, linear_key_head_dim,
 *                    linear_value_head_dim, linear_conv_kernel_dim): see read_qwen3_next()
 *   falcon_h1        llama-style attention and MLP, with a Mamba-2 mixer beside attention in
 *                    every layer (mamba_d_ssm, mamba_n_heads, mamba_d_head, mamba_n_groups,
 *                    mamba_d_state, mamba_d_conv, biases, mamba_rms_norm): see read_falcon_h1()
 *   llama4           (llama4_text; llama4 wraps it in text_config with a vision_config that is
 *                    counted too) MoE layers with a shared expert (moe_layers or
 *                    interleave_moe_layer_step), dense layers of intermediate_size_mlp, chunked
 *                    attention (attention_chunk_size) in the layers no_rope_layers marks 1:
 *                    see read_llama4() and read_llama4_vision()
 *   granitemoehybrid layer_types "mamba" (a Mamba-2 mixer, Bamba's) or "attention" per layer,
 *                    num_local_experts experts of intermediate_size and a shared MLP of
 *                    shared_intermediate_size in every layer: see read_granitemoehybrid()
 *   glm4_moe         llama-style grouped-query attention with head_dim, attention_bias (q, k and
 *                    v only), use_qk_norm; n_routed_experts|num_local_experts, num_experts_per_tok,
 *                    moe_intermediate_size, n_shared_experts, first_k_dense_replace, the router's
 *                    e_score_correction_bias; num_nextn_predict_layers not counted: see
 *                    read_glm4_moe()
 *   glm4_moe_lite    DeepSeek-V3's multi-head latent attention (keys as deepseek_v2/v3) with
 *                    glm4_moe's experts; mlp_layer_types says which layers are dense (absent:
 *                    the first), first_k_dense_replace must agree: see read_glm4_moe_lite()
 *   qwen3_vl         (qwen3_vl_text, in text_config) Qwen3's layers without a window; the
 *                    vision_config is counted: see read_qwen3_vl_vision(); tie_word_embeddings
 *                    from the wrapper where text_config has none
 *   qwen3_vl_moe     (qwen3_vl_moe_text) as qwen3_vl with qwen3_moe's experts
 *   minimax_m2       num_local_experts experts of intermediate_size in every layer with the
 *                    router's correction bias, q_norm and k_norm over the whole projections,
 *                    use_qk_norm, qk_norm_type, use_routing_bias, shared_intermediate_size,
 *                    use_mtp, num_mtp_modules, mtp_transformer_layers: see read_minimax_m2()
 *   seed_oss         llama-style with head_dim (class default 128), q, k and v biases
 *                    (attention_bias, default true), an o bias only with attention_out_bias
 *                    (default false), mlp_bias; untied: see read_seed_oss()
 *   cohere2          as cohere, head_dim = hidden / heads (another head_dim not understood),
 *                    sliding_window (default 4096) on the layers sliding_window_pattern (default
 *                    4) or layer_types gives; no q/k norm: see read_cohere2()
 *   hunyuan_v1_dense llama-style with head_dim, attention_bias, per-head query_layernorm and
 *                    key_layernorm; use_qk_norm, use_cla, attention_head_dim checked, and
 *                    num_experts 1: see read_hunyuan_attention(), read_hunyuan_dense()
 *   hunyuan_v1_moe   as hunyuan_v1_dense with num_experts experts (a number or one per layer) and
 *                    a shared MLP, all of intermediate_size, moe_topk; moe_intermediate_size,
 *                    num_shared_expert, use_mixed_mlp_moe checked: see read_hunyuan_moe()
 *   hunyuan          (Tencent's own files) hunyuan_v1_dense or hunyuan_v1_moe by architectures
 *                    (HunYuanDenseV1ForCausalLM, HunYuanMoEV1ForCausalLM): see remote_types[]
 *   layer_types      when present, says which layers are "sliding_attention" for any family
 *                    (and "linear_attention" for qwen3_next, "mamba" and "attention" for
 *                    granitemoehybrid)
 *   every family     max_position_embeddings|n_positions and rope_scaling (type, factor): the
 *                    longest context, shown with what was read
 *
 * Exact or refused: what changes memory and is not understood — another model_type, a memory
 * key (memory_keys, memory_prefixes) the family's reader did not read, a layer type other than
 * full and sliding attention, a quantization_config that quantizes something — is listed
 * (vc_hf_config_get_not_understood); whoever imports the config refuses it
 * (vc_hf_config_check_exact) unless the user asks for an approximate estimate. That estimate
 * counts another model_type the Llama way (plus num_local_experts|num_experts and
 * num_experts_per_tok when present), leaves the other parts out, and names them.
 *
 * Integers are checked against the ranges of the architecture fields (vc-arch.c): a value that is
 * missing, null where a number is needed, negative, zero, a string, a fraction or out of range is
 * refused with a message naming the key. Integer literals beyond 64 bits, which json-glib would
 * silently wrap, are found by scanning the text before parsing.
 */
#define G_LOG_DOMAIN "vc-hf-config"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-enums.h"
#include "vc-error.h"
#include "vc-hf-config.h"
#include "vc-quant.h"
#include "vc-json-input.h"


typedef struct _Family Family;

/* What a config is read with: the object read (the root, or text_config for a multimodal
 * wrapper) and what the readers leave for the description. Messages name keys with prefix;
 * the file's name is put in front of them once, where the reading fails. */
typedef struct
{
  const char *prefix;        /* "" or "text_config." */
  JsonObject *object;        /* the config read */
  GHashTable *huge;          /* key → integer literal beyond 64 bits */
  gboolean nested;           /* a sub-config: missing keys take the class defaults */
  JsonObject *wrapper;       /* the multimodal wrapper around a nested text_config, else NULL */
  const Family *family;
  guint mtp_layers;          /* multi-token prediction layers, which are not counted */
  const char *recurrent_type; /* the layer_types value of a recurrent layer ("linear_attention") */
  const char *attention_type; /* another name of "full_attention" in layer_types */
  const char *window_type;    /* another name of "sliding_attention" ("chunked_attention") */
  guint max_context;         /* max_position_embeddings (n_positions); 0 when not given */
  char *rope_scaling;        /* "yarn ×4" when rope_scaling is given, else NULL */
  GHashTable *read;          /* the keys of object the family's reader looked at */
  GPtrArray *not_understood; /* what the reader met and does not understand, for people */
} Reader;

/* One reader per family: it fills the architecture from the keys its configuration class has.
 * The tied head, layer_types and the shape checks every family shares come after it. */
typedef gboolean (*FamilyRead) (Reader   *r,
                                VcArch   *arch,
                                GError  **error);

/* A family: its reader, and the defaults of its configuration class for keys a file leaves out. */
struct _Family
{
  const char *id;
  const char *name;
  FamilyRead read;
  guint vocab;
  guint hidden;
  guint intermediate;
  guint layers;
  guint heads;
  guint kv_heads;          /* 0: = heads */
  guint head_dim;          /* 0: hidden / heads */
  gboolean tied;
  guint sliding_window;    /* when the key is absent; 0: none */
};

static gboolean read_llama       (Reader *r, VcArch *arch, GError **error);
static gboolean read_llama_way   (Reader *r, VcArch *arch, GError **error);
static gboolean read_mistral     (Reader *r, VcArch *arch, GError **error);
static gboolean read_mixtral     (Reader *r, VcArch *arch, GError **error);
static gboolean read_qwen2       (Reader *r, VcArch *arch, GError **error);
static gboolean read_qwen2_moe   (Reader *r, VcArch *arch, GError **error);
static gboolean read_qwen3       (Reader *r, VcArch *arch, GError **error);
static gboolean read_qwen3_moe   (Reader *r, VcArch *arch, GError **error);
static gboolean read_gemma       (Reader *r, VcArch *arch, GError **error);
static gboolean read_gemma2      (Reader *r, VcArch *arch, GError **error);
static gboolean read_gemma3      (Reader *r, VcArch *arch, GError **error);
static gboolean read_phi3        (Reader *r, VcArch *arch, GError **error);
static gboolean read_gpt2        (Reader *r, VcArch *arch, GError **error);
static gboolean read_gpt_neox    (Reader *r, VcArch *arch, GError **error);
static gboolean read_falcon      (Reader *r, VcArch *arch, GError **error);
static gboolean read_deepseek_v2 (Reader *r, VcArch *arch, GError **error);
static gboolean read_deepseek_v3 (Reader *r, VcArch *arch, GError **error);
static gboolean read_granite     (Reader *r, VcArch *arch, GError **error);
static gboolean read_granitemoe  (Reader *r, VcArch *arch, GError **error);
static gboolean read_gpt_oss     (Reader *r, VcArch *arch, GError **error);
static gboolean read_qwen3_next  (Reader *r, VcArch *arch, GError **error);
static gboolean read_falcon_h1   (Reader *r, VcArch *arch, GError **error);
static gboolean read_granitemoehybrid (Reader *r, VcArch *arch, GError **error);
static gboolean read_llama4      (Reader *r, VcArch *arch, GError **error);
static gboolean read_glm4_moe    (Reader *r, VcArch *arch, GError **error);
static gboolean read_glm4_moe_lite (Reader *r, VcArch *arch, GError **error);
static gboolean read_gpt_bigcode (Reader *r, VcArch *arch, GError **error);
static gboolean read_smollm3     (Reader *r, VcArch *arch, GError **error);
static gboolean read_ernie4_5    (Reader *r, VcArch *arch, GError **error);
static gboolean read_ernie4_5_moe (Reader *r, VcArch *arch, GError **error);
static gboolean read_cohere      (Reader *r, VcArch *arch, GError **error);
static gboolean read_olmo2       (Reader *r, VcArch *arch, GError **error);
static gboolean read_qwen3_vl_text (Reader *r, VcArch *arch, GError **error);
static gboolean read_minimax_m2  (Reader *r, VcArch *arch, GError **error);
static gboolean read_qwen3_vl_moe_text (Reader *r, VcArch *arch, GError **error);
static gboolean read_seed_oss    (Reader *r, VcArch *arch, GError **error);
static gboolean read_cohere2     (Reader *r, VcArch *arch, GError **error);
static gboolean read_hunyuan_dense (Reader *r, VcArch *arch, GError **error);
static gboolean read_hunyuan_moe (Reader *r, VcArch *arch, GError **error);

static const Family families[] = {
  { "llama", "Llama", read_llama, 32000, 4096, 11008, 32, 32, 0, 0, FALSE, 0 },
  { "mistral", "Mistral", read_mistral, 32000, 4096, 14336, 32, 32, 8, 0, FALSE, 4096 },
  { "mixtral", "Mixtral", read_mixtral, 32000, 4096, 14336, 32, 32, 8, 0, FALSE, 0 },
  { "qwen2", "Qwen2", read_qwen2, 151936, 4096, 22016, 32, 32, 32, 0, FALSE, 4096 },
  { "qwen2_moe", "Qwen2-MoE", read_qwen2_moe, 151936, 2048, 5632, 24, 16, 16, 0, FALSE, 4096 },
  { "qwen3", "Qwen3", read_qwen3, 151936, 4096, 22016, 32, 32, 32, 128, FALSE, 4096 },
  { "qwen3_moe", "Qwen3-MoE", read_qwen3_moe, 151936, 2048, 6144, 24, 32, 4, 0, FALSE, 4096 },
  { "gemma", "Gemma", read_gemma, 256000, 3072, 24576, 28, 16, 16, 256, TRUE, 0 },
  { "gemma2", "Gemma 2", read_gemma2, 256000, 2304, 9216, 26, 8, 4, 256, TRUE, 4096 },
  { "gemma3", "Gemma 3", read_gemma3, 262208, 2304, 9216, 26, 8, 4, 256, TRUE, 4096 },
  { "phi3", "Phi-3", read_phi3, 32064, 3072, 8192, 32, 32, 0, 0, FALSE, 0 },
  { "gpt2", "GPT-2", read_gpt2, 50257, 768, 0, 12, 12, 0, 0, TRUE, 0 },
  { "gpt_neox", "GPT-NeoX", read_gpt_neox, 50432, 6144, 24576, 44, 64, 0, 0, FALSE, 0 },
  { "falcon", "Falcon", read_falcon, 65024, 4544, 0, 32, 71, 0, 0, TRUE, 0 },
  { "deepseek_v2", "DeepSeek-V2", read_deepseek_v2, 102400, 5120, 12288, 60, 128, 0, 0, FALSE, 0 },
  { "deepseek_v3", "DeepSeek-V3", read_deepseek_v3, 129280, 7168, 18432, 61, 128, 0, 0, FALSE, 0 },
  /* Kimi K2: DeepSeek-V3's layout and configuration class under its own model_type */
  { "kimi_k2", "Kimi K2", read_deepseek_v3, 129280, 7168, 18432, 61, 128, 0, 0, FALSE, 0 },
  { "granite", "Granite", read_granite, 32000, 4096, 11008, 32, 32, 0, 0, FALSE, 0 },
  { "granitemoe", "Granite MoE", read_granitemoe, 32000, 4096, 11008, 32, 32, 0, 0, FALSE, 0 },
  { "llama4_text", "Llama 4", read_llama4, 202048, 4096, 8192, 48, 40, 8, 128, FALSE, 0 },
  { "granitemoehybrid", "Granite 4.0 hybrid", read_granitemoehybrid, 32000, 4096, 11008, 32, 32, 0, 0, FALSE, 0 },
  { "falcon_h1", "Falcon-H1", read_falcon_h1, 128000, 4096, 14336, 32, 32, 8, 0, FALSE, 0 },
  { "qwen3_next", "Qwen3-Next", read_qwen3_next, 151936, 2048, 5632, 48, 16, 2, 256, FALSE, 0 },
  { "gpt_oss", "gpt-oss", read_gpt_oss, 201088, 2880, 2880, 36, 64, 8, 64, FALSE, 128 },
  /* GLM-4.5, GLM-4.5-Air (and GLM-4.6, GLM-4.7): Glm4MoeConfig's defaults */
  { "glm4_moe", "GLM-4 MoE", read_glm4_moe, 151552, 4096, 10944, 46, 96, 8, 0, FALSE, 0 },
  /* GLM-4.7-Flash: DeepSeek-V3's latent attention with GLM-4.5's experts */
  { "glm4_moe_lite", "GLM-4 MoE Lite", read_glm4_moe_lite, 154880, 2048, 10240, 47, 20, 20, 0, FALSE, 0 },
  { "gpt_bigcode", "GPT-BigCode", read_gpt_bigcode, 50257, 768, 0, 12, 12, 0, 0, TRUE, 0 },
  { "smollm3", "SmolLM3", read_smollm3, 128256, 2048, 11008, 36, 16, 4, 0, TRUE, 0 },
  /* ERNIE 4.5 dense (0.3B): Ernie4_5Config's defaults */
  { "ernie4_5", "ERNIE 4.5", read_ernie4_5, 103424, 1024, 3072, 18, 16, 2, 128, TRUE, 0 },
  { "ernie4_5_moe", "ERNIE 4.5 MoE", read_ernie4_5_moe, 103424, 2560, 12288, 28, 20, 4, 0, TRUE, 0 },
  { "cohere", "Cohere (Command R)", read_cohere, 256000, 8192, 22528, 40, 64, 0, 0, TRUE, 0 },
  /* OLMo 2: Olmo2Config's defaults */
  { "olmo2", "OLMo 2", read_olmo2, 50304, 4096, 11008, 32, 32, 0, 0, FALSE, 0 },
  /* Qwen3-VL's text models: Qwen3VLTextConfig's and Qwen3VLMoeTextConfig's defaults */
  { "qwen3_vl_text", "Qwen3-VL", read_qwen3_vl_text, 151936, 4096, 22016, 32, 32, 32, 128, FALSE, 0 },
  { "qwen3_vl_moe_text", "Qwen3-VL MoE", read_qwen3_vl_moe_text, 151936, 2048, 5632, 24, 16, 16, 0, TRUE, 0 },
  /* MiniMax-M2 (and M2.5, M2.7): MiniMaxM2Config's defaults */
  { "minimax_m2", "MiniMax-M2", read_minimax_m2, 200064, 3072, 1536, 62, 48, 8, 128, FALSE, 0 },
  /* Seed-OSS: SeedOssConfig's defaults */
  { "seed_oss", "Seed-OSS", read_seed_oss, 155136, 4096, 27648, 64, 80, 8, 128, FALSE, 0 },
  /* Command R7B, Command A: Cohere2Config's defaults */
  { "cohere2", "Cohere 2 (Command R7B, Command A)", read_cohere2, 256000, 8192, 22528, 40, 64, 0, 0, TRUE, 4096 },
  /* Hunyuan dense and MoE (Hunyuan-A13B): HunYuanDenseV1Config's and HunYuanMoEV1Config's defaults */
  { "hunyuan_v1_dense", "Hunyuan", read_hunyuan_dense, 290943, 4096, 11008, 32, 32, 0, 0, FALSE, 0 },
  { "hunyuan_v1_moe", "Hunyuan MoE", read_hunyuan_moe, 290943, 4096, 11008, 32, 32, 0, 0, FALSE, 0 },
};

/* A model_type no family reads: the Llama way, with Llama's defaults. */
static const Family llama_way = {
  "llama", "Llama", read_llama_way, 32000, 4096, 11008, 32, 32, 0, 0, FALSE, 0
};

/* model_type → family id, for the types that are not a family's own id */
static const struct
{
  const char *model_type;
  const char *family;
} aliases[] = {
  { "gemma3_text", "gemma3" },
  { "RefinedWeb", "falcon" },
  { "RefinedWebModel", "falcon" },
};

/* model_type of a model's own (trust_remote_code) release that several families share: the
 * family by the file's architectures. Tencent's Hunyuan files say "hunyuan" for dense and MoE
 * models alike (Tencent-Hunyuan/Hunyuan-A13B, models/config.json: HunYuanMoEV1ForCausalLM);
 * transformers' classes read them as hunyuan_v1_dense and hunyuan_v1_moe. */
static const struct
{
  const char *model_type;
  const char *architecture;
  const char *family;
} remote_types[] = {
  { "hunyuan", "HunYuanDenseV1ForCausalLM", "hunyuan_v1_dense" },
  { "hunyuan", "HunYuanMoEV1ForCausalLM", "hunyuan_v1_moe" },
};

/* Multimodal wrappers whose text_config may leave out model_type: the text model's type. */
static const struct
{
  const char *wrapper;
  const char *text_model_type;
} wrappers[] = {
  { "gemma3", "gemma3_text" },
  { "llama4", "llama4_text" },
  { "llava", "llama" },
  { "llava_next", "llama" },
  { "mistral3", "mistral" },
  { "paligemma", "gemma" },
  { "qwen3_vl", "qwen3_vl_text" },
  { "qwen3_vl_moe", "qwen3_vl_moe_text" },
};

struct _VcHfConfig
{
  GObject parent_instance;

  VcArch arch;
  VcParamCounts counts;
  char *name;
  char *model_type;          /* as the file gives it ("" when it gives none) */
  char *torch_dtype;         /* NULL when not given */
  char *quant_method;        /* quantization_config.quant_method, NULL when none */
  guint quant_bits;
  gboolean text_only;         /* a multimodal wrapper of which only the text model is counted */
  gboolean encoder_counted;   /* a multimodal wrapper whose encoder (vision_config) is counted */
  char *text_model_type;
  guint mtp_layers;
  const Family *family;      /* llama_way for a model_type no family reads */
  gboolean hub_name;         /* the name is a Hub id's (org/name) */
  char *file_name;           /* how messages name the file */
  guint max_context;         /* the longest context the model was made for; 0: not given */
  char *rope_scaling;        /* how its rotary positions are scaled ("yarn ×4"), or NULL */
  GPtrArray *not_understood; /* NULL-terminated: what the estimate is not exact about */
  char *description;
  char *warning;
  /* Llama 4's tiles, for its preprocessor_config.json (vc_hf_config_read_preprocessor): the
   * vision_config's image_size and patch_size, the pixel shuffle's downsampling
   * round(1 / pixel_shuffle_ratio²) and the channels; 0: not a Llama 4 tower */
  guint tile_side, tile_patch, tile_shuffle, tile_channels;
  /* Qwen3-VL's patches, for its preprocessor_config.json and video_preprocessor_config.json:
   * the vision_config's patch_size, spatial_merge_size, temporal_patch_size and in_channels;
   * 0: not a Qwen3-VL tower whose pass is followed */
  guint qv_patch, qv_merge, qv_temporal, qv_channels;
  guint qv_side;             /* the dummy image's side, once preprocessor_config.json is read */
};

G_DEFINE_FINAL_TYPE (VcHfConfig, vc_hf_config, G_TYPE_OBJECT)

static void
vc_hf_config_finalize (GObject *object)
{
  VcHfConfig *self = VC_HF_CONFIG (object);

  g_free (self->name);
  g_free (self->model_type);
  g_free (self->torch_dtype);
  g_free (self->quant_method);
  g_free (self->text_model_type);
  g_free (self->file_name);
  g_free (self->rope_scaling);
  g_clear_pointer (&self->not_understood, g_ptr_array_unref);
  g_free (self->description);
  g_free (self->warning);
  G_OBJECT_CLASS (vc_hf_config_parent_class)->finalize (object);
}

static void
vc_hf_config_class_init (VcHfConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = vc_hf_config_finalize;
}

static void
vc_hf_config_init (VcHfConfig *self)
{
}

/* ---- reading keys -------------------------------------------------------------------------- */

static char *
describe_node (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL:
      return g_strdup ("null");
    case JSON_NODE_ARRAY:
      return g_strdup (_("a list"));
    case JSON_NODE_OBJECT:
      return g_strdup (_("an object"));
    case JSON_NODE_VALUE:
    default:
      break;
    }

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
    case G_TYPE_DOUBLE:
      {
        double d = json_node_get_double (node);
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        if (!isfinite (d))
          return g_strdup (_("a number too large to represent"));
        return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.15g", d));
      }
    case G_TYPE_BOOLEAN:
      return g_strdup (json_node_get_boolean (node) ? "true" : "false");
    case G_TYPE_STRING:
      {
        const char *s = json_node_get_string (node);
        g_autofree char *shown = g_utf8_substring (s, 0, MIN (g_utf8_strlen (s, -1), 40));

        return g_strdup_printf (_("the text \"%s\""), shown);
      }
    default:
      return g_strdup (_("a value of another kind"));
    }
}

/* A member of the config read, which the reader understands; NULL when absent. */
static JsonNode *
member (Reader     *r,
        const char *key)
{
  g_hash_table_add (r->read, (gpointer) key);
  return json_object_get_member (r->object, key);
}

static JsonNode *
lookup (Reader      *r,
        const char  *key,
        const char  *alias,
        const char **found)
{
  *found = key;
  g_hash_table_add (r->read, (gpointer) key);
  if (alias)
    g_hash_table_add (r->read, (gpointer) alias);
  if (json_object_has_member (r->object, key))
    return json_object_get_member (r->object, key);
  if (alias && json_object_has_member (r->object, alias))
    {
      *found = alias;
      return json_object_get_member (r->object, alias);
    }
  return NULL;
}

static gboolean
range_error (Reader      *r,
             const char  *key,
             const char  *got,
             guint        min,
             guint        max,
             GError     **error)
{
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
               _("\"%s%s\" must be a whole number from %u to %u, got %s"),
               r->prefix, key, min, max, got);
  return FALSE;
}

/* Reads an integer node into [min, max]; node is not NULL nor null. */
static gboolean
node_uint (Reader      *r,
           const char  *key,
           JsonNode    *node,
           guint        min,
           guint        max,
           guint       *out,
           GError     **error)
{
  const char *literal = r->huge ? g_hash_table_lookup (r->huge, key) : NULL;
  gint64 v;

  if (literal != NULL)
    return range_error (r, key, literal, min, max, error);
  if (JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_INT64)
    {
      g_autofree char *got = describe_node (node);
      return range_error (r, key, got, min, max, error);
    }
  v = json_node_get_int (node);
  if (v < min || v > max)
    {
      g_autofree char *got = describe_node (node);
      return range_error (r, key, got, min, max, error);
    }
  *out = (guint) v;
  return TRUE;
}

/* A key the model cannot do without. Missing at the top level is an error; a nested
 * sub-config (text_config) takes the class default, because transformers writes only the
 * values that differ from it there. */
static gboolean
need_uint (Reader      *r,
           const char  *key,
           const char  *alias,
           guint        def,
           guint        min,
           guint        max,
           guint       *out,
           GError     **error)
{
  const char *found;
  JsonNode *node = lookup (r, key, alias, &found);

  if (node == NULL && r->nested && def >= min && def <= max)
    {
      *out = def;
      return TRUE;
    }
  if (node == NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%s%s\" is missing; it must be a whole number from %u to %u"),
                   r->prefix, key, min, max);
      return FALSE;
    }
  return node_uint (r, found, node, min, max, out, error);
}

/* A key with a default when absent; null gives null_value (e.g. 0 for "no window"). */
static gboolean
opt_uint (Reader      *r,
          const char  *key,
          const char  *alias,
          guint        def,
          guint        null_value,
          guint        min,
          guint        max,
          guint       *out,
          GError     **error)
{
  const char *found;
  JsonNode *node = lookup (r, key, alias, &found);

  if (node == NULL)
    {
      *out = def;
      return TRUE;
    }
  if (JSON_NODE_HOLDS_NULL (node))
    {
      *out = null_value;
      return TRUE;
    }
  return node_uint (r, found, node, min, max, out, error);
}

static gboolean
opt_bool (Reader      *r,
          const char  *key,
          gboolean     def,
          gboolean    *out,
          GError     **error)
{
  JsonNode *node = member (r, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *out = def;
      return TRUE;
    }
  if (JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_autofree char *got = describe_node (node);
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%s%s\" must be true or false, got %s"), r->prefix, key, got);
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* A string or null in object, whose keys messages name with prefix; *out is NULL when absent
 * or null. */
static gboolean
opt_string (JsonObject  *object,
            const char  *prefix,
            const char  *key,
            const char **out,
            GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_STRING)
    {
      g_autofree char *got = describe_node (node);
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%s%s\" must be text, got %s"), prefix, key, got);
      return FALSE;
    }
  *out = json_node_get_string (node);
  return TRUE;
}

static guint
field_max (const char *name)
{
  const VcArchField *f = vc_arch_field_find (name);

  g_assert (f != NULL);
  return f->max;
}

/* A part of the config the reader does not understand, named for people (once). */
static void
not_understood (Reader     *r,
                const char *part)
{
  for (guint i = 0; i < r->not_understood->len; i++)
    if (g_str_equal (r->not_understood->pdata[i], part))
      return;
  g_ptr_array_add (r->not_understood, g_strdup (part));
}

/* How many of n_layers layers use the window, from layer_types when the file lists them. A type
 * other than full and sliding attention is not understood: its layers count as full attention.
 * @pattern: P where the list is every Pth layer full and the others sliding (the architecture
 * field sliding-window-pattern), else 0. */
static gboolean
read_layer_types (Reader    *r,
                  guint      n_layers,
                  gboolean  *given,
                  guint     *n_sliding,
                  guint     *n_linear,
                  guint     *pattern,
                  GError   **error)
{
  JsonNode *node = member (r, "layer_types");
  JsonArray *array;
  guint first_full = G_MAXUINT;
  gboolean periodic = TRUE;

  *given = FALSE;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != n_layers)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%slayer_types\" must list one attention type per layer (%u)"), r->prefix, n_layers);
      return FALSE;
    }
  array = json_node_get_array (node);
  *n_sliding = 0;
  *n_linear = 0;
  for (guint i = 0; i < n_layers; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      const char *type = NULL;

      if (JSON_NODE_TYPE (item) == JSON_NODE_VALUE && json_node_get_value_type (item) == G_TYPE_STRING)
        type = json_node_get_string (item);
      if (type == NULL)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("\"%slayer_types\" must list one attention type per layer (%u)"), r->prefix, n_layers);
          return FALSE;
        }
      if (g_str_equal (type, "sliding_attention") || (r->window_type && g_str_equal (type, r->window_type)))
        {
          (*n_sliding)++;
          /* a sliding layer where the pattern from the first full one puts a full one */
          periodic = periodic && (first_full == G_MAXUINT || (i + 1) % (first_full + 1) != 0);
          continue;
        }
      if (first_full == G_MAXUINT)
        first_full = i;
      /* a full layer, or another type, where the pattern puts a sliding one */
      periodic = periodic && (i + 1) % (first_full + 1) == 0;
      if (r->recurrent_type && g_str_equal (type, r->recurrent_type))
        (*n_linear)++;
      else if (r->attention_type && g_str_equal (type, r->attention_type))
        ;
      else if (!g_str_equal (type, "full_attention"))
        {
          g_autofree char *part = g_strdup_printf ("%slayer_types “%s”", r->prefix, type);
          not_understood (r, part);
        }
    }
  *given = TRUE;
  *pattern = periodic && *n_linear == 0 && first_full != G_MAXUINT ? first_full + 1 : 0;
  return TRUE;
}

/* Which layers of a layer_types read_layer_types() accepted hold no mixer (Granite 4.0-H's
 * "attention", Qwen3-Next's "full_attention"): the architecture fields attention-layer-period
 * and -offset where they are periodic, else 0 (then vLLM has no figure over several stages) */
static void
layer_types_attention_pattern (Reader *r,
                               VcArch *arch)
{
  JsonArray *array = json_node_get_array (member (r, "layer_types"));
  g_autofree gboolean *attends = g_new0 (gboolean, arch->n_layers);

  for (guint i = 0; i < arch->n_layers; i++)
    attends[i] = !g_str_equal (json_array_get_string_element (array, i), r->recurrent_type);
  vc_arch_attention_pattern (attends, arch->n_layers, &arch->attention_layer_period,
                             &arch->attention_layer_offset);
}

/* A list of layer numbers (Qwen's mlp_only_layers, Llama 4's moe_layers). Fills in_list. */
static gboolean
read_index_list (Reader      *r,
                 const char  *key,
                 guint        n_layers,
                 gboolean    *in_list,
                 GError     **error)
{
  JsonNode *node = member (r, key);
  JsonArray *array;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    goto bad;
  array = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      gint64 v;

      if (JSON_NODE_TYPE (item) != JSON_NODE_VALUE || json_node_get_value_type (item) != G_TYPE_INT64)
        goto bad;
      v = json_node_get_int (item);
      if (v < 0 || v >= n_layers)
        goto bad;
      in_list[v] = TRUE;
    }
  return TRUE;

bad:
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
               _("\"%s%s\" must be a list of layer numbers from 0 to %u"),
               r->prefix, key, n_layers - 1);
  return FALSE;
}

/* One 0 or 1 per layer (Llama 4's no_rope_layers: 1 where the layer uses rotary positions). */
static gboolean
read_flag_list (Reader      *r,
                const char  *key,
                guint        n_layers,
                gboolean    *flags,
                GError     **error)
{
  JsonNode *node = member (r, key);
  JsonArray *array;

  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != n_layers)
    goto bad;
  array = json_node_get_array (node);
  for (guint i = 0; i < n_layers; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      gint64 v;

      if (JSON_NODE_TYPE (item) != JSON_NODE_VALUE || json_node_get_value_type (item) != G_TYPE_INT64)
        goto bad;
      v = json_node_get_int (item);
      if (v != 0 && v != 1)
        goto bad;
      flags[i] = v == 1;
    }
  return TRUE;

bad:
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
               _("\"%s%s\" must list 0 or 1 for each of the %u layers"), r->prefix, key, n_layers);
  return FALSE;
}

#define TRY(x) G_STMT_START { if (!(x)) return FALSE; } G_STMT_END

/* ---- pieces the families share --------------------------------------------------------------- */

/* The attention and MLP shape of the llama-style families: RMSNorm, two norms a layer, a gated
 * MLP. */
static gboolean
read_llama_style (Reader   *r,
                  gboolean  read_head_dim,
                  VcArch   *arch,
                  GError  **error)
{
  const Family *fi = r->family;
  guint kv_default;

  TRY (need_uint (r, "num_hidden_layers", NULL, fi->layers, 1, field_max ("layers"), &arch->n_layers, error));
  TRY (need_uint (r, "hidden_size", NULL, fi->hidden, 1, field_max ("hidden-size"), &arch->hidden_size, error));
  TRY (need_uint (r, "num_attention_heads", NULL, fi->heads, 1, field_max ("heads"), &arch->n_heads, error));
  kv_default = fi->kv_heads ? fi->kv_heads : arch->n_heads;
  TRY (opt_uint (r, "num_key_value_heads", NULL, kv_default, arch->n_heads, 1, field_max ("kv-heads"),
                 &arch->n_kv_heads, error));
  if (read_head_dim)
    TRY (opt_uint (r, "head_dim", NULL, fi->head_dim, 0, 1, field_max ("head-dim"), &arch->head_dim, error));
  TRY (need_uint (r, "intermediate_size", NULL, fi->intermediate, 1, field_max ("intermediate-size"),
                  &arch->intermediate_size, error));
  TRY (need_uint (r, "vocab_size", NULL, fi->vocab, 1, field_max ("vocab-size"), &arch->vocab_size, error));
  arch->gated_mlp = TRUE;
  arch->norm = VC_NORM_RMS;
  arch->norms_per_layer = 2;
  return TRUE;
}

/* attention_bias: a bias on q, k, v and o */
static gboolean
read_attention_bias_default (Reader   *r,
                             gboolean  def,
                             VcArch   *arch,
                             GError  **error)
{
  gboolean bias = def;

  TRY (opt_bool (r, "attention_bias", def, &bias, error));
  arch->qkv_bias = arch->o_bias = bias;
  return TRUE;
}

static gboolean
read_attention_bias (Reader   *r,
                     VcArch   *arch,
                     GError  **error)
{
  return read_attention_bias_default (r, FALSE, arch, error);
}

static gboolean
read_experts (Reader      *r,
              const char  *experts_key,
              guint        experts_default,
              guint        k_default,
              VcArch      *arch,
              GError     **error)
{
  TRY (need_uint (r, experts_key, NULL, experts_default, 1, field_max ("experts"), &arch->n_experts, error));
  return need_uint (r, "num_experts_per_tok", NULL, k_default, 1, arch->n_experts,
                    &arch->experts_per_token, error);
}

/* sliding_window (the family's default when absent, null: none) on every layer */
static gboolean
read_window_all_layers (Reader   *r,
                        VcArch   *arch,
                        GError  **error)
{
  guint window = 0;

  TRY (opt_uint (r, "sliding_window", NULL, r->family->sliding_window, 0, 1, field_max ("sliding-window"),
                 &window, error));
  arch->sliding_window = window;
  arch->sliding_window_layers = window > 0 ? arch->n_layers : 0;
  return TRUE;
}

/* Qwen2/Qwen3: the window applies from layer max_window_layers on, when use_sliding_window. */
static gboolean
read_qwen_window (Reader   *r,
                  VcArch   *arch,
                  GError  **error)
{
  gboolean use = FALSE;
  guint window = 0, max_window_layers = 28;

  TRY (opt_bool (r, "use_sliding_window", FALSE, &use, error));
  TRY (opt_uint (r, "sliding_window", NULL, 4096, 0, 1, field_max ("sliding-window"), &window, error));
  TRY (opt_uint (r, "max_window_layers", NULL, 28, 28, 0, field_max ("layers"), &max_window_layers, error));
  if (use && window > 0)
    {
      arch->sliding_window = window;
      arch->sliding_window_layers = arch->n_layers - MIN (arch->n_layers, max_window_layers);
    }
  return TRUE;
}

/* Qwen MoE: dense layers from decoder_sparse_step and mlp_only_layers */
static gboolean
read_qwen_moe_layers (Reader   *r,
                      VcArch   *arch,
                      GError  **error)
{
  g_autofree gboolean *dense = g_new0 (gboolean, arch->n_layers);
  guint step = 1;

  TRY (opt_uint (r, "decoder_sparse_step", NULL, 1, 1, 1, field_max ("layers"), &step, error));
  TRY (read_index_list (r, "mlp_only_layers", arch->n_layers, dense, error));
  arch->dense_layers = 0;
  for (guint i = 0; i < arch->n_layers; i++)
    if (dense[i] || (i + 1) % step != 0)
      arch->dense_layers++;
  return TRUE;
}

/* ---- one reader per family --------------------------------------------------------------------- */

static gboolean
read_llama (Reader   *r,
            VcArch   *arch,
            GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  return opt_bool (r, "mlp_bias", FALSE, &arch->mlp_bias, error);
}

/* An unknown model_type: Llama's modules, plus the standard MoE keys and a window on every
 * layer when the file has them. */
static gboolean
read_llama_way (Reader   *r,
                VcArch   *arch,
                GError  **error)
{
  const char *experts_key = member (r, "num_local_experts") ? "num_local_experts" : "num_experts";
  JsonNode *node = member (r, experts_key);
  gboolean use = TRUE;

  TRY (read_llama (r, arch, error));
  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      TRY (read_experts (r, experts_key, 8, 2, arch, error));
      TRY (opt_uint (r, "moe_intermediate_size", NULL, 0, 0, 1, field_max ("expert-intermediate-size"),
                     &arch->expert_intermediate_size, error));
    }
  TRY (opt_bool (r, "use_sliding_window", TRUE, &use, error));
  return !use || read_window_all_layers (r, arch, error);
}

static gboolean
read_mistral (Reader   *r,
              VcArch   *arch,
              GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  return read_window_all_layers (r, arch, error);
}

static gboolean
read_mixtral (Reader   *r,
              VcArch   *arch,
              GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_experts (r, "num_local_experts", 8, 2, arch, error));
  return read_window_all_layers (r, arch, error);
}

static gboolean
read_qwen2 (Reader   *r,
            VcArch   *arch,
            GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  arch->qkv_bias = TRUE;
  return read_qwen_window (r, arch, error);
}

static gboolean
read_qwen2_moe (Reader   *r,
                VcArch   *arch,
                GError  **error)
{
  guint shared = 0;

  TRY (read_llama_style (r, TRUE, arch, error));
  arch->qkv_bias = TRUE;
  TRY (read_experts (r, "num_experts", 60, 4, arch, error));
  TRY (need_uint (r, "moe_intermediate_size", NULL, 1408, 1, field_max ("expert-intermediate-size"),
                  &arch->expert_intermediate_size, error));
  TRY (opt_uint (r, "shared_expert_intermediate_size", NULL, 5632, 0, 0,
                 field_max ("shared-intermediate-size"), &shared, error));
  arch->shared_intermediate_size = shared;
  arch->n_shared_experts = shared > 0 ? 1 : 0;
  arch->shared_expert_gate = TRUE;
  TRY (read_qwen_moe_layers (r, arch, error));
  return read_qwen_window (r, arch, error);
}

static gboolean
read_qwen3 (Reader   *r,
            VcArch   *arch,
            GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->qk_norm = TRUE;
  return read_qwen_window (r, arch, error);
}

static gboolean
read_qwen3_moe (Reader   *r,
                VcArch   *arch,
                GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->qk_norm = TRUE;
  TRY (read_experts (r, "num_experts", 128, 8, arch, error));
  TRY (need_uint (r, "moe_intermediate_size", NULL, 768, 1, field_max ("expert-intermediate-size"),
                  &arch->expert_intermediate_size, error));
  /* Qwen3-Coder's config.json also writes qkv_bias, use_qk_norm and
   * shared_expert_intermediate_size, which Qwen3MoeConfig and Qwen3MoeModel never read: the
   * biases follow attention_bias, every layer has its q/k norms and no shared expert */
  (void) member (r, "qkv_bias");
  (void) member (r, "use_qk_norm");
  (void) member (r, "shared_expert_intermediate_size");
  TRY (read_qwen_moe_layers (r, arch, error));
  return read_qwen_window (r, arch, error);
}

static gboolean
read_gemma (Reader   *r,
            VcArch   *arch,
            GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  return read_attention_bias (r, arch, error);
}

/* Gemma 2: four norms a layer, the window on even layers (is_sliding = not layer_idx % 2) */
static gboolean
read_gemma2 (Reader   *r,
             VcArch   *arch,
             GError  **error)
{
  TRY (read_gemma (r, arch, error));
  arch->norms_per_layer = 4;
  TRY (read_window_all_layers (r, arch, error));
  /* Google's files repeat the window as sliding_window_size, which Gemma2Config does not read */
  member (r, "sliding_window_size");
  if (arch->sliding_window > 0)
    {
      /* Gemma2DecoderLayer: is_sliding = not bool(layer_idx % 2), layer 0 windowed */
      arch->sliding_window_layers = (arch->n_layers + 1) / 2;
      arch->sliding_window_pattern = 2;
    }
  return TRUE;
}

/* Gemma 3: as Gemma 2 with q_norm and k_norm; the window on all layers but every
 * sliding_window_pattern-th */
static gboolean
read_gemma3 (Reader   *r,
             VcArch   *arch,
             GError  **error)
{
  guint pattern = 6;

  TRY (read_gemma (r, arch, error));
  arch->norms_per_layer = 4;
  arch->qk_norm = TRUE;
  TRY (read_window_all_layers (r, arch, error));
  if (arch->sliding_window == 0)
    return TRUE;
  TRY (opt_uint (r, "sliding_window_pattern", "_sliding_window_pattern", 6, 6, 1, field_max ("layers"),
                 &pattern, error));
  arch->sliding_window_layers = arch->n_layers - arch->n_layers / pattern;
  /* Gemma3DecoderLayer: is_sliding = bool((layer_idx + 1) % sliding_window_pattern) */
  arch->sliding_window_pattern = pattern;
  return TRUE;
}

/* Phi-3: fused qkv_proj and gate_up_proj count as separate ones; no head_dim key */
static gboolean
read_phi3 (Reader   *r,
           VcArch   *arch,
           GError  **error)
{
  TRY (read_llama_style (r, FALSE, arch, error));
  return read_window_all_layers (r, arch, error);
}

static gboolean
read_gpt2 (Reader   *r,
           VcArch   *arch,
           GError  **error)
{
  const Family *fi = r->family;
  guint inner_default;

  TRY (need_uint (r, "n_layer", "num_hidden_layers", fi->layers, 1, field_max ("layers"), &arch->n_layers, error));
  TRY (need_uint (r, "n_embd", "hidden_size", fi->hidden, 1, field_max ("hidden-size"), &arch->hidden_size, error));
  TRY (need_uint (r, "n_head", "num_attention_heads", fi->heads, 1, field_max ("heads"), &arch->n_heads, error));
  TRY (need_uint (r, "n_positions", "max_position_embeddings", 1024, 1, field_max ("learned-positions"),
                  &arch->max_positions, error));
  TRY (need_uint (r, "vocab_size", NULL, fi->vocab, 1, field_max ("vocab-size"), &arch->vocab_size, error));
  inner_default = (guint) MIN ((guint64) arch->hidden_size * 4, field_max ("intermediate-size"));
  TRY (opt_uint (r, "n_inner", NULL, inner_default, inner_default, 1, field_max ("intermediate-size"),
                 &arch->intermediate_size, error));
  arch->n_kv_heads = arch->n_heads;
  arch->norm = VC_NORM_LAYER;
  arch->norms_per_layer = 2;
  arch->qkv_bias = arch->o_bias = arch->mlp_bias = TRUE;
  return TRUE;
}

/* GPTBigCodeModel (StarCoder): GPT-2's modules with one shared key and value head when
 * multi_query (the class default), c_attn h → h + 2 × head_dim */
static gboolean
read_gpt_bigcode (Reader   *r,
                  VcArch   *arch,
                  GError  **error)
{
  gboolean multi_query = TRUE;

  TRY (read_gpt2 (r, arch, error));
  TRY (opt_bool (r, "multi_query", TRUE, &multi_query, error));
  arch->n_kv_heads = multi_query ? 1 : arch->n_heads;
  return TRUE;
}

/* SmolLM3Model: Llama's modules (attention_bias, mlp_bias), tied by default; no_rope_layers
 * and no_rope_layer_interval only say which layers rotate positions, which stores nothing;
 * a window as Qwen2's (use_sliding_window, sliding_window, max_window_layers) */
static gboolean
read_smollm3 (Reader   *r,
              VcArch   *arch,
              GError  **error)
{
  TRY (read_llama (r, arch, error));
  (void) member (r, "no_rope_layers");
  (void) member (r, "no_rope_layer_interval");
  return read_qwen_window (r, arch, error);
}

/* Ernie4_5Model (transformers models/ernie4_5/modeling_ernie4_5.py, ERNIE 4.5 0.3B): Llama's
 * layer, with a bias on q, k, v, o and the three MLP projections when use_bias (default false);
 * head_dim read (class default 128); tied by default. */
static gboolean
read_ernie4_5 (Reader   *r,
               VcArch   *arch,
               GError  **error)
{
  gboolean bias = FALSE;

  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (opt_bool (r, "use_bias", FALSE, &bias, error));
  arch->qkv_bias = arch->o_bias = arch->mlp_bias = bias;
  return TRUE;
}

/* Ernie4_5_MoeModel (ERNIE 4.5 MoE): Llama's attention, with biases on q, k, v, o and the MLPs
 * when use_bias; the layers from moe_layer_start_index on, every moe_layer_interval-th up to
 * moe_layer_end_index, hold moe_num_experts experts of moe_intermediate_size (moe_k a token), a
 * bias-free router h → E, the shared experts as one MLP of moe_num_shared_experts ×
 * moe_intermediate_size, and the router's correction bias (Ernie4_5_MoeStatics, E values); the
 * others a dense MLP of intermediate_size. Tied by default. Only the leading dense layers are
 * counted exactly: another interval or an earlier end is not understood. */
static gboolean
read_ernie4_5_moe (Reader   *r,
                   VcArch   *arch,
                   GError  **error)
{
  gboolean bias = FALSE, aux_free = TRUE;
  guint start = 1, interval = 1, shared = 0;
  JsonNode *end;

  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (opt_bool (r, "use_bias", FALSE, &bias, error));
  arch->qkv_bias = arch->o_bias = arch->mlp_bias = bias;
  TRY (need_uint (r, "moe_num_experts", NULL, 64, 1, field_max ("experts"), &arch->n_experts, error));
  TRY (need_uint (r, "moe_k", NULL, 6, 1, arch->n_experts, &arch->experts_per_token, error));
  TRY (need_uint (r, "moe_intermediate_size", NULL, 1536, 1, field_max ("expert-intermediate-size"),
                  &arch->expert_intermediate_size, error));
  TRY (opt_uint (r, "moe_num_shared_experts", NULL, 0, 0, 0, field_max ("shared-experts"), &shared, error));
  arch->n_shared_experts = shared;
  TRY (opt_uint (r, "moe_layer_start_index", NULL, 1, 0, 0, arch->n_layers, &start, error));
  arch->dense_layers = start;
  TRY (opt_uint (r, "moe_layer_interval", NULL, 1, 1, 1, arch->n_layers, &interval, error));
  if (interval != 1)
    not_understood (r, "moe_layer_interval");
  end = member (r, "moe_layer_end_index");
  if (end != NULL && !JSON_NODE_HOLDS_NULL (end) &&
      !(JSON_NODE_HOLDS_VALUE (end) && (json_node_get_int (end) == -1 ||
                                        json_node_get_int (end) == (gint64) arch->n_layers - 1)))
    not_understood (r, "moe_layer_end_index");
  TRY (opt_bool (r, "moe_use_aux_free", TRUE, &aux_free, error));
  arch->router_bias = TRUE;
  if (!aux_free)
    not_understood (r, "moe_use_aux_free");
  return TRUE;
}

/* CohereModel (Command R, Aya 23): one CohereLayerNorm a layer, before attention and MLP run
 * side by side, a weight without a bias (as many values as an RMSNorm); head_dim is hidden /
 * heads; attention_bias on q, k, v and o; tied by default. use_qk_norm adds norms of shape
 * (heads, head_dim), which the architecture does not hold: not understood. */
static gboolean
read_cohere (Reader   *r,
             VcArch   *arch,
             GError  **error)
{
  gboolean qk_norm = FALSE;

  TRY (read_llama_style (r, FALSE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->norms_per_layer = 1;
  TRY (opt_bool (r, "use_qk_norm", FALSE, &qk_norm, error));
  if (qk_norm)
    not_understood (r, "use_qk_norm");
  return TRUE;
}

/* A key that must hold the value the implementation hard-codes: keys of the original release
 * that transformers does not read. Another value is not understood. */
static gboolean
expect_bool (Reader      *r,
             const char  *key,
             gboolean     want,
             GError     **error)
{
  gboolean value = want;

  TRY (opt_bool (r, key, want, &value, error));
  if (value != want)
    not_understood (r, key);
  return TRUE;
}

/* Cohere2Model (transformers models/cohere2/modeling_cohere2.py, Command R7B and Command A):
 * Cohere's layer, one weight-only LayerNorm before attention and the MLP run side by side, q, k,
 * v and o with a bias when attention_bias, no q/k norm, tied by default; the window on three
 * layers of four. Cohere2Config (configuration_cohere2.py) builds layer_types, when the file has
 * none, from sliding_window_pattern (default 4): layer i slides when (i + 1) % pattern != 0; and
 * it sets head_dim to hidden / heads whatever the file says, so a head_dim that disagrees is not
 * understood. Keys of Cohere's own release that transformers does not read must describe the
 * graph it builds: use_parallel_block and use_gated_activation true, use_embedding_sharing as
 * tie_word_embeddings, order_of_interleaved_layers "local_attn_first". */
static gboolean
read_cohere2 (Reader   *r,
              VcArch   *arch,
              GError  **error)
{
  guint pattern = 4, head_dim = 0;
  gboolean sharing = TRUE, tied = TRUE;
  const char *order = NULL;

  TRY (read_llama_style (r, FALSE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->norms_per_layer = 1;
  TRY (opt_uint (r, "head_dim", NULL, 0, 0, 1, field_max ("head-dim"), &head_dim, error));
  if (head_dim != 0 && head_dim != arch->hidden_size / arch->n_heads)
    not_understood (r, "head_dim");
  TRY (read_window_all_layers (r, arch, error));
  TRY (opt_uint (r, "sliding_window_pattern", NULL, 4, 4, 1, field_max ("layers"), &pattern, error));
  if (arch->sliding_window > 0)
    {
      arch->sliding_window_layers = arch->n_layers - arch->n_layers / pattern;
      arch->sliding_window_pattern = pattern;
    }
  TRY (expect_bool (r, "use_parallel_block", TRUE, error));
  TRY (expect_bool (r, "use_gated_activation", TRUE, error));
  TRY (opt_bool (r, "tie_word_embeddings", TRUE, &tied, error));
  TRY (opt_bool (r, "use_embedding_sharing", tied, &sharing, error));
  if (sharing != tied)
    not_understood (r, "use_embedding_sharing");
  (void) member (r, "order_of_interleaved_layers");
  TRY (opt_string (r->object, r->prefix, "order_of_interleaved_layers", &order, error));
  if (order != NULL && !g_str_equal (order, "local_attn_first"))
    not_understood (r, "order_of_interleaved_layers");
  return TRUE;
}

/* An integer, or a list of one per layer (Hunyuan's num_experts, moe_topk, ...). *uniform says
 * whether every layer has the same value, which *out then holds (else the first layer's). */
static gboolean
per_layer_uint (Reader      *r,
                const char  *key,
                guint        n_layers,
                guint        def,
                guint        min,
                guint        max,
                guint       *out,
                gboolean    *uniform,
                GError     **error)
{
  JsonNode *node = member (r, key);
  JsonArray *array;

  *uniform = TRUE;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *out = def;
      return TRUE;
    }
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return node_uint (r, key, node, min, max, out, error);
  array = json_node_get_array (node);
  if (json_array_get_length (array) != n_layers)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%s%s\" must be a whole number or a list of one per layer (%u)"),
                   r->prefix, key, n_layers);
      return FALSE;
    }
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      guint v;

      TRY (node_uint (r, key, json_array_get_element (array, i), min, max, &v, error));
      if (i == 0)
        *out = v;
      else if (v != *out)
        *uniform = FALSE;
    }
  return TRUE;
}

/* Hunyuan's attention (transformers models/hunyuan_v1_dense/modular_hunyuan_v1_dense.py and
 * models/hunyuan_v1_moe/modular_hunyuan_v1_moe.py): Llama's projections with a bias when
 * attention_bias, and query_layernorm and key_layernorm, RMSNorms of one head, in every layer;
 * head_dim read (absent: hidden / heads); the MLP has no bias; untied by default. The keys of
 * Tencent's config.json that transformers does not read must describe that: use_qk_norm true,
 * use_cla (cross-layer attention, which shares keys and values between layers) false,
 * attention_head_dim equal to the head size. */
static gboolean
read_hunyuan_attention (Reader   *r,
                        VcArch   *arch,
                        GError  **error)
{
  guint head_dim = 0;

  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->qk_norm = TRUE;
  TRY (expect_bool (r, "use_qk_norm", TRUE, error));
  TRY (expect_bool (r, "use_cla", FALSE, error));
  (void) member (r, "cla_share_factor");
  TRY (opt_uint (r, "attention_head_dim", NULL, 0, 0, 1, field_max ("head-dim"), &head_dim, error));
  if (head_dim != 0 && head_dim != vc_arch_head_dim (arch))
    not_understood (r, "attention_head_dim");
  return TRUE;
}

/* Hunyuan dense: every layer has Llama's MLP of intermediate_size. HunYuanDenseV1Config does not
 * read the MoE keys Tencent's files may carry; they say nothing when num_experts is 1 (or
 * absent), and describe experts the dense model does not build otherwise. */
static gboolean
read_hunyuan_dense (Reader   *r,
                    VcArch   *arch,
                    GError  **error)
{
  static const char *const moe_keys[] = {
    "moe_topk", "moe_intermediate_size", "num_shared_expert", "use_mixed_mlp_moe",
  };
  guint experts = 1;
  gboolean uniform = TRUE;

  TRY (read_hunyuan_attention (r, arch, error));
  TRY (per_layer_uint (r, "num_experts", arch->n_layers, 1, 1, field_max ("experts"), &experts,
                       &uniform, error));
  if (!uniform || experts > 1)
    not_understood (r, "num_experts");
  for (guint i = 0; i < G_N_ELEMENTS (moe_keys); i++)
    (void) member (r, moe_keys[i]);
  return TRUE;
}

/* Hunyuan MoE (Hunyuan-A13B; modeling_hunyuan_v1_moe.py, HunYuanMoEV1Moe): in every layer
 * num_experts experts and one shared_mlp, all HunYuanMoEV1MLP of intermediate_size, and a
 * bias-free router wg h → E; num_experts and moe_topk are a number or one per layer. The keys
 * transformers does not read must agree with what it builds: every layer's
 * moe_intermediate_size equal to intermediate_size, num_shared_expert 1, use_mixed_mlp_moe
 * true (the shared MLP beside the experts), moe_layer_num_skipped 0; experts or a top-k that
 * change from layer to layer are not understood. */
static gboolean
read_hunyuan_moe (Reader   *r,
                  VcArch   *arch,
                  GError  **error)
{
  guint experts = 1, k = 1, size = 0, shared = 1, skipped = 0;
  gboolean uniform = TRUE, mixed = TRUE;

  TRY (read_hunyuan_attention (r, arch, error));
  TRY (per_layer_uint (r, "num_experts", arch->n_layers, 1, 1, field_max ("experts"), &experts,
                       &uniform, error));
  if (!uniform)
    not_understood (r, "num_experts");
  TRY (per_layer_uint (r, "moe_topk", arch->n_layers, 1, 1, experts, &k, &uniform, error));
  if (!uniform)
    not_understood (r, "moe_topk");
  TRY (per_layer_uint (r, "moe_intermediate_size", arch->n_layers, arch->intermediate_size, 1,
                       field_max ("expert-intermediate-size"), &size, &uniform, error));
  if (!uniform || size != arch->intermediate_size)
    not_understood (r, "moe_intermediate_size");
  TRY (per_layer_uint (r, "num_shared_expert", arch->n_layers, 1, 0, field_max ("experts"), &shared,
                       &uniform, error));
  if (!uniform || shared != 1)
    not_understood (r, "num_shared_expert");
  TRY (opt_bool (r, "use_mixed_mlp_moe", FALSE, &mixed, error));
  if (!mixed)
    not_understood (r, "use_mixed_mlp_moe");
  TRY (opt_uint (r, "moe_layer_num_skipped", NULL, 0, 0, 0, field_max ("layers"), &skipped, error));
  if (skipped != 0)
    not_understood (r, "moe_layer_num_skipped");
  arch->n_experts = experts;
  arch->experts_per_token = k;
  arch->n_shared_experts = 1;
  return TRUE;
}

/* Seed-OSS (transformers models/seed_oss/modular_seed_oss.py): Llama's decoder layer and model;
 * SeedOssAttention gives q_proj, k_proj and v_proj a bias when attention_bias (SeedOssConfig's
 * default: true) and o_proj one only when attention_out_bias (default false); SeedOssMLP's three
 * projections a bias when mlp_bias. head_dim is read (class default 128); untied by default. */
static gboolean
read_seed_oss (Reader   *r,
               VcArch   *arch,
               GError  **error)
{
  gboolean qkv_bias = TRUE, o_bias = FALSE;

  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (opt_bool (r, "attention_bias", TRUE, &qkv_bias, error));
  TRY (opt_bool (r, "attention_out_bias", FALSE, &o_bias, error));
  arch->qkv_bias = qkv_bias;
  arch->o_bias = o_bias;
  return opt_bool (r, "mlp_bias", FALSE, &arch->mlp_bias, error);
}

/* OLMo 2 (modeling_olmo2.py): Olmo2Attention's q_norm is an RMSNorm of heads × head_dim and
 * k_norm one of kv heads × head_dim, over the whole projection; the block's two norms come after
 * attention and after the MLP (post_attention_layernorm, post_feedforward_layernorm), as many
 * weights as two pre-norms. Olmo2Config has no head_dim (hidden / heads). */
static gboolean
read_olmo2 (Reader   *r,
            VcArch   *arch,
            GError  **error)
{
  TRY (read_llama_style (r, FALSE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->qk_norm = TRUE;
  arch->qk_norm_full = TRUE;
  return TRUE;
}

/* MiniMax-M2 (transformers models/minimax_m2/modular_minimax_m2.py): in every layer Mixtral's
 * experts (num_local_experts of intermediate_size, a bias-free router h → E) with the router's
 * e_score_correction_bias (a buffer of E values, saved with the weights), and FlexOlmo's
 * attention: q, k, v and o without biases, q_norm and k_norm RMSNorms over the whole projections
 * (heads × head_dim, kv heads × head_dim); no sliding window. The keys of the config.json that
 * MiniMaxM2Config does not read describe that model (use_qk_norm true, qk_norm_type "per_layer",
 * use_routing_bias true, shared_intermediate_size 0): another value is not understood. The
 * multi-token prediction modules (use_mtp: num_mtp_modules × mtp_transformer_layers) are not
 * loaded and not counted; rotary_dim (rotation of part of each head) holds no weights. */
static gboolean
read_minimax_m2 (Reader   *r,
                 VcArch   *arch,
                 GError  **error)
{
  gboolean qk_norm = TRUE, routing_bias = TRUE, mtp = FALSE;
  const char *norm_type = NULL;
  guint shared = 0, modules = 0, mtp_layers = 1;

  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_experts (r, "num_local_experts", 256, 8, arch, error));
  arch->router_bias = TRUE;
  arch->qk_norm = TRUE;
  arch->qk_norm_full = TRUE;
  TRY (opt_bool (r, "use_qk_norm", TRUE, &qk_norm, error));
  member (r, "qk_norm_type");
  TRY (opt_string (r->object, r->prefix, "qk_norm_type", &norm_type, error));
  if (!qk_norm || (norm_type != NULL && !g_str_equal (norm_type, "per_layer")))
    not_understood (r, "use_qk_norm, qk_norm_type");
  TRY (opt_bool (r, "use_routing_bias", TRUE, &routing_bias, error));
  if (!routing_bias)
    not_understood (r, "use_routing_bias");
  TRY (opt_uint (r, "shared_intermediate_size", NULL, 0, 0, 0, field_max ("shared-intermediate-size"),
                 &shared, error));
  if (shared > 0)
    not_understood (r, "shared_intermediate_size");
  member (r, "scoring_func");
  member (r, "rotary_dim");
  TRY (opt_bool (r, "use_mtp", FALSE, &mtp, error));
  TRY (opt_uint (r, "num_mtp_modules", NULL, 0, 0, 0, field_max ("layers"), &modules, error));
  TRY (opt_uint (r, "mtp_transformer_layers", NULL, 1, 1, 0, field_max ("layers"), &mtp_layers, error));
  r->mtp_layers = mtp ? modules * mtp_layers : 0;
  return TRUE;
}

/* Qwen3-VL's text model (modeling_qwen3_vl.py, Qwen3VLTextModel): Qwen3's layers, q, k, v and o
 * with attention_bias, per-head q_norm and k_norm, a gated MLP; Qwen3VLTextConfig has no sliding
 * window. The interleaved multimodal rotary positions (rope_scaling's mrope_section) and the
 * DeepStack additions of visual features to the first layers' hidden states hold no weights. */
static gboolean
read_qwen3_vl_text (Reader   *r,
                    VcArch   *arch,
                    GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->qk_norm = TRUE;
  return TRUE;
}

/* Qwen3-VL-MoE's text model (modeling_qwen3_vl_moe.py): the attention of Qwen3-VL, and in the
 * sparse layers Qwen3VLMoeTextSparseMoeBlock: num_experts experts of moe_intermediate_size
 * (gate_up_proj E × 2I × h, down_proj E × h × I) and a bias-free router h → E, as Qwen3-MoE;
 * decoder_sparse_step and mlp_only_layers give the dense layers (MLP of intermediate_size). */
static gboolean
read_qwen3_vl_moe_text (Reader   *r,
                        VcArch   *arch,
                        GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->qk_norm = TRUE;
  TRY (read_experts (r, "num_experts", 60, 4, arch, error));
  TRY (need_uint (r, "moe_intermediate_size", NULL, 1408, 1, field_max ("expert-intermediate-size"),
                  &arch->expert_intermediate_size, error));
  return read_qwen_moe_layers (r, arch, error);
}

static gboolean
read_gpt_neox (Reader   *r,
               VcArch   *arch,
               GError  **error)
{
  const Family *fi = r->family;
  gboolean bias = TRUE;

  TRY (need_uint (r, "num_hidden_layers", NULL, fi->layers, 1, field_max ("layers"), &arch->n_layers, error));
  TRY (need_uint (r, "hidden_size", NULL, fi->hidden, 1, field_max ("hidden-size"), &arch->hidden_size, error));
  TRY (need_uint (r, "num_attention_heads", NULL, fi->heads, 1, field_max ("heads"), &arch->n_heads, error));
  TRY (need_uint (r, "intermediate_size", NULL, fi->intermediate, 1, field_max ("intermediate-size"),
                  &arch->intermediate_size, error));
  TRY (need_uint (r, "vocab_size", NULL, fi->vocab, 1, field_max ("vocab-size"), &arch->vocab_size, error));
  TRY (opt_bool (r, "attention_bias", TRUE, &bias, error));
  arch->n_kv_heads = arch->n_heads;
  arch->norm = VC_NORM_LAYER;
  arch->norms_per_layer = 2;
  arch->qkv_bias = arch->o_bias = bias;
  arch->mlp_bias = TRUE;
  return TRUE;
}

static gboolean
read_falcon (Reader   *r,
             VcArch   *arch,
             GError  **error)
{
  const Family *fi = r->family;
  gboolean bias = FALSE, new_arch = FALSE, multi_query = TRUE, parallel = TRUE;
  guint n_ln = 0, ffn_default;

  TRY (need_uint (r, "num_hidden_layers", "n_layer", fi->layers, 1, field_max ("layers"), &arch->n_layers, error));
  TRY (need_uint (r, "hidden_size", "n_embd", fi->hidden, 1, field_max ("hidden-size"), &arch->hidden_size, error));
  TRY (need_uint (r, "num_attention_heads", "n_head", fi->heads, 1, field_max ("heads"), &arch->n_heads, error));
  TRY (need_uint (r, "vocab_size", NULL, fi->vocab, 1, field_max ("vocab-size"), &arch->vocab_size, error));
  ffn_default = (guint) MIN ((guint64) arch->hidden_size * 4, field_max ("intermediate-size"));
  TRY (opt_uint (r, "ffn_hidden_size", NULL, ffn_default, ffn_default, 1, field_max ("intermediate-size"),
                 &arch->intermediate_size, error));
  TRY (opt_bool (r, "bias", FALSE, &bias, error));
  TRY (opt_bool (r, "new_decoder_architecture", FALSE, &new_arch, error));
  TRY (opt_bool (r, "multi_query", TRUE, &multi_query, error));
  TRY (opt_bool (r, "parallel_attn", TRUE, &parallel, error));
  if (new_arch)
    TRY (opt_uint (r, "num_kv_heads", NULL, arch->n_heads, arch->n_heads, 1, field_max ("kv-heads"),
                   &arch->n_kv_heads, error));
  else
    arch->n_kv_heads = multi_query ? 1 : arch->n_heads;
  TRY (opt_uint (r, "num_ln_in_parallel_attn", NULL, new_arch ? 2 : 1, new_arch ? 2 : 1, 1, 2, &n_ln, error));
  arch->norm = VC_NORM_LAYER;
  arch->norms_per_layer = !parallel ? 2 : n_ln;
  arch->qkv_bias = arch->o_bias = arch->mlp_bias = bias;
  return TRUE;
}

/* Multi-head latent attention: q_lora_rank (null: a plain q_proj; q_lora_default when absent),
 * kv_lora_rank and the head dimensions, with q_a_layernorm and kv_a_layernorm. */
static gboolean
read_mla (Reader   *r,
          guint     q_lora_default,
          VcArch   *arch,
          GError  **error)
{
  gboolean bias = FALSE;

  TRY (opt_bool (r, "attention_bias", FALSE, &bias, error));
  if (bias)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%sattention_bias\": true is not supported with multi-head latent attention"), r->prefix);
      return FALSE;
    }
  TRY (opt_uint (r, "q_lora_rank", NULL, q_lora_default, 0, 1, field_max ("q-lora-rank"), &arch->q_lora_rank, error));
  TRY (need_uint (r, "kv_lora_rank", NULL, 512, 1, field_max ("kv-lora-rank"), &arch->kv_lora_rank, error));
  TRY (need_uint (r, "qk_rope_head_dim", NULL, 64, 1, field_max ("qk-rope-head-dim"), &arch->qk_rope_head_dim, error));
  TRY (need_uint (r, "qk_nope_head_dim", NULL, 128, 1, field_max ("qk-nope-head-dim"), &arch->qk_nope_head_dim, error));
  return need_uint (r, "v_head_dim", NULL, 128, 1, field_max ("v-head-dim"), &arch->v_head_dim, error);
}

/* DeepSeek's MoE: n_routed_experts (absent: a dense model), num_experts_per_tok,
 * moe_intermediate_size, n_shared_experts, first_k_dense_replace and moe_layer_freq; the router
 * has e_score_correction_bias when router_bias. */
static gboolean
read_deepseek_moe (Reader   *r,
                   gboolean  router_bias,
                   VcArch   *arch,
                   GError  **error)
{
  guint first_dense = 0, freq = 1, n_moe = 0;

  TRY (opt_uint (r, "n_routed_experts", NULL, 0, 0, 1, field_max ("experts"), &arch->n_experts, error));
  if (arch->n_experts == 0)
    return TRUE;
  TRY (need_uint (r, "num_experts_per_tok", NULL, 8, 1, arch->n_experts, &arch->experts_per_token, error));
  TRY (need_uint (r, "moe_intermediate_size", NULL, 2048, 1, field_max ("expert-intermediate-size"),
                  &arch->expert_intermediate_size, error));
  TRY (opt_uint (r, "n_shared_experts", NULL, 0, 0, 0, field_max ("shared-experts"), &arch->n_shared_experts, error));
  TRY (opt_uint (r, "first_k_dense_replace", NULL, 0, 0, 0, arch->n_layers, &first_dense, error));
  TRY (opt_uint (r, "moe_layer_freq", NULL, 1, 1, 1, field_max ("layers"), &freq, error));
  for (guint i = first_dense; i < arch->n_layers; i++)
    if (i % freq == 0)
      n_moe++;
  arch->dense_layers = arch->n_layers - n_moe;
  arch->router_bias = router_bias;
  return TRUE;
}

/* num_nextn_predict_layers: the multi-token prediction module, which transformers does not
 * load and which is not counted */
static gboolean
read_mtp_layers (Reader   *r,
                 GError  **error)
{
  return opt_uint (r, "num_nextn_predict_layers", NULL, 0, 0, 0, field_max ("layers"), &r->mtp_layers, error);
}

/* DeepSeek-V2: the router bias only with topk_method "noaux_tc" */
static gboolean
read_deepseek_v2 (Reader   *r,
                  VcArch   *arch,
                  GError  **error)
{
  const char *topk_method = NULL;

  TRY (read_llama_style (r, FALSE, arch, error));
  TRY (read_mla (r, 0, arch, error));
  member (r, "topk_method");
  TRY (opt_string (r->object, r->prefix, "topk_method", &topk_method, error));
  TRY (read_deepseek_moe (r, g_strcmp0 (topk_method, "noaux_tc") == 0, arch, error));
  return read_mtp_layers (r, error);
}

static gboolean
read_deepseek_v3 (Reader   *r,
                  VcArch   *arch,
                  GError  **error)
{
  TRY (read_llama_style (r, FALSE, arch, error));
  TRY (read_mla (r, 1536, arch, error));
  TRY (read_deepseek_moe (r, TRUE, arch, error));
  return read_mtp_layers (r, error);
}

/* Granite (3.x): Llama's modules; embedding_multiplier, attention_multiplier,
 * residual_multiplier and logits_scaling scale activations, not what is stored */
static gboolean
read_granite (Reader   *r,
              VcArch   *arch,
              GError  **error)
{
  return read_llama (r, arch, error);
}

/* Granite MoE: every layer's MLP is num_local_experts experts of intermediate_size (input_linear
 * h → 2I, output_linear I → h) with a bias-free router; no shared expert, no bias in the MLP */
static gboolean
read_granitemoe (Reader   *r,
                 VcArch   *arch,
                 GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  return read_experts (r, "num_local_experts", 8, 2, arch, error);
}

/* gpt-oss: biases on q, k, v and o (attention_bias, true by default), a sink logit per head,
 * every layer an MoE of num_local_experts experts of intermediate_size with biases on their
 * projections and a router with a bias; the window on the layers layer_types names (by default
 * every other one, from the first). experts_per_token repeats num_experts_per_tok. */
static gboolean
read_gpt_oss (Reader   *r,
              VcArch   *arch,
              GError  **error)
{
  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias_default (r, TRUE, arch, error));
  arch->attention_sinks = TRUE;
  TRY (read_experts (r, "num_local_experts", 128, 4, arch, error));
  member (r, "experts_per_token");
  arch->mlp_bias = TRUE;
  arch->router_bias = TRUE;
  TRY (read_window_all_layers (r, arch, error));
  if (arch->sliding_window > 0)
    {
      /* GptOssConfig's default layer_types: "sliding_attention" on even layers */
      arch->sliding_window_layers = (arch->n_layers + 1) / 2;
      arch->sliding_window_pattern = 2;
    }
  return TRUE;
}

/* A count or size a config multiplies out of its keys, checked against the field it goes to. */
static gboolean
derived_uint (Reader      *r,
              const char  *what,
              guint64      value,
              const char  *field,
              guint       *out,
              GError     **error)
{
  if (value > field_max (field))
    {
      g_autofree char *got = g_strdup_printf ("%" G_GUINT64_FORMAT, value);

      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("%s come to %s; accepted: up to %u"), what, got, field_max (field));
      return FALSE;
    }
  *out = (guint) value;
  return TRUE;
}

/* Qwen3-Next: as Qwen3-MoE (q_norm, k_norm, experts with a gated shared expert), with an output
 * gate on attention (q_proj gives queries and gate) in the full-attention layers, every
 * full_attention_interval-th (or as layer_types says); the others are Gated DeltaNet:
 * in_proj_qkvz h → 2·Kd + 2·Vd, in_proj_ba h → 2·Hv, a depthwise conv1d over 2·Kd + Vd channels
 * (kernel linear_conv_kernel_dim, no bias), dt_bias and A_log (Hv each), a gated RMSNorm of
 * linear_value_head_dim and out_proj Vd → h, where Kd = linear_num_key_heads ×
 * linear_key_head_dim and Vd = linear_num_value_heads × linear_value_head_dim. Per sequence such
 * a layer keeps its convolution's last kernel − 1 inputs and an Hv × key × value recurrent
 * state, as vLLM caches them. */
static gboolean
read_qwen3_next (Reader   *r,
                 VcArch   *arch,
                 GError  **error)
{
  guint interval = 4, kernel = 4, k_dim = 128, v_dim = 128, k_heads = 16, v_heads = 32, shared = 0;
  guint64 key, value, conv, h;

  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->qk_norm = TRUE;
  arch->gated_attention = TRUE;
  arch->sglang_one_stage = TRUE;
  TRY (read_experts (r, "num_experts", 512, 10, arch, error));
  TRY (need_uint (r, "moe_intermediate_size", NULL, 512, 1, field_max ("expert-intermediate-size"),
                  &arch->expert_intermediate_size, error));
  TRY (opt_uint (r, "shared_expert_intermediate_size", NULL, 512, 0, 0,
                 field_max ("shared-intermediate-size"), &shared, error));
  arch->shared_intermediate_size = shared;
  arch->n_shared_experts = shared > 0 ? 1 : 0;
  arch->shared_expert_gate = shared > 0;
  TRY (read_qwen_moe_layers (r, arch, error));

  TRY (opt_uint (r, "full_attention_interval", NULL, 4, 4, 1, field_max ("layers"), &interval, error));
  TRY (opt_uint (r, "linear_conv_kernel_dim", NULL, 4, 4, 1, 1024, &kernel, error));
  TRY (opt_uint (r, "linear_key_head_dim", NULL, 128, 128, 1, field_max ("head-dim"), &k_dim, error));
  TRY (opt_uint (r, "linear_value_head_dim", NULL, 128, 128, 1, field_max ("head-dim"), &v_dim, error));
  TRY (opt_uint (r, "linear_num_key_heads", NULL, 16, 16, 1, field_max ("heads"), &k_heads, error));
  TRY (opt_uint (r, "linear_num_value_heads", NULL, 32, 32, 1, field_max ("heads"), &v_heads, error));
  r->recurrent_type = "linear_attention";
  arch->recurrent_layers = arch->n_layers - arch->n_layers / interval;
  /* Qwen3NextConfig's layer_types: "full_attention" where (i + 1) % interval == 0 */
  arch->attention_layer_period = interval;
  arch->attention_layer_offset = interval - 1;
  arch->recurrent_heads = v_heads;
  arch->recurrent_groups = k_heads;

  h = arch->hidden_size;
  key = (guint64) k_heads * k_dim;
  value = (guint64) v_heads * v_dim;
  conv = 2 * key + value;
  TRY (derived_uint (r, _("the Gated DeltaNet weights"), h * (2 * key + 2 * value) + h * 2 * v_heads + conv * kernel
                     + 2 * (guint64) v_heads + v_dim + value * h, "recurrent-params", &arch->recurrent_params, error));
  TRY (derived_uint (r, _("the Gated DeltaNet state"), conv * (kernel - 1) + (guint64) v_heads * k_dim * v_dim,
                      "recurrent-state", &arch->recurrent_state, error));
  arch->recurrent_conv = (guint) (conv * (kernel - 1));
  return TRUE;
}

/* A Mamba-2 mixer (Bamba's, Falcon-H1's): in_proj h → I + (I + 2·G·N) + H, a depthwise conv1d
 * over the I + 2·G·N channels of x, B and C (kernel K), dt_bias, A_log and D (H each), an
 * optional gated RMSNorm of I, out_proj I → h. Per sequence it keeps the convolution's last
 * K − 1 inputs and an H × head × N state. */
typedef struct
{
  guint64 intermediate;      /* I: H × head dimension */
  guint64 heads;             /* H */
  guint64 head_dim;
  guint64 groups;            /* G */
  guint64 state;             /* N */
  guint64 kernel;            /* K */
  gboolean conv_bias;
  gboolean proj_bias;        /* in_proj */
  gboolean out_bias;         /* out_proj */
  gboolean norm;
} Mamba2;

static gboolean
mamba2_apply (Reader        *r,
              const Mamba2  *m,
              VcArch        *arch,
              GError       **error)
{
  guint64 h = arch->hidden_size;
  guint64 conv = m->intermediate + 2 * m->groups * m->state;
  guint64 proj = m->intermediate + conv + m->heads;
  guint64 params = h * proj + (m->proj_bias ? proj : 0) + conv * m->kernel + (m->conv_bias ? conv : 0)
                   + 3 * m->heads + (m->norm ? m->intermediate : 0) + m->intermediate * h + (m->out_bias ? h : 0);

  TRY (derived_uint (r, _("the Mamba-2 weights"), params, "recurrent-params", &arch->recurrent_params, error));
  arch->recurrent_heads = (guint) m->heads;
  arch->recurrent_groups = (guint) m->groups;
  TRY (derived_uint (r, _("the Mamba-2 state"), conv * (m->kernel - 1) + m->heads * m->head_dim * m->state,
                      "recurrent-state", &arch->recurrent_state, error));
  arch->recurrent_conv = (guint) (conv * (m->kernel - 1));
  /* one group: its B and C rows of in_proj (with its bias) and of the convolution (with its
   * bias), 2·N channels each */
  arch->mamba_state_size = (guint) m->state;
  TRY (derived_uint (r, _("the Mamba-2 weights of one group"),
                     2 * m->state * (h + (m->proj_bias ? 1 : 0) + m->kernel + (m->conv_bias ? 1 : 0)),
                     "mamba-group-params", &arch->mamba_group_params, error));
  return TRUE;
}

/* The mamba_* keys Falcon-H1 and Granite 4.0 share, for a mixer of the given width: heads of
 * mamba_d_head ("auto": width / heads), groups, state, kernel, the convolution's and in_proj's
 * biases. The scan's chunk changes nothing stored. */
static gboolean
read_mamba2 (Reader   *r,
             guint     width,
             Mamba2   *m,
             GError  **error)
{
  guint heads = 128, groups = 1, state = 256, kernel = 4, head_dim = 0;
  JsonNode *node;

  TRY (opt_uint (r, "mamba_n_heads", NULL, 128, 128, 1, field_max ("heads"), &heads, error));
  TRY (opt_uint (r, "mamba_n_groups", NULL, 1, 1, 1, field_max ("heads"), &groups, error));
  TRY (opt_uint (r, "mamba_d_state", NULL, 256, 256, 1, field_max ("head-dim"), &state, error));
  TRY (opt_uint (r, "mamba_d_conv", NULL, 4, 4, 1, 1024, &kernel, error));
  node = member (r, "mamba_d_head");
  if (node == NULL || JSON_NODE_HOLDS_NULL (node) ||
      (JSON_NODE_TYPE (node) == JSON_NODE_VALUE && json_node_get_value_type (node) == G_TYPE_STRING &&
       g_str_equal (json_node_get_string (node), "auto")))
    head_dim = width / heads;
  else
    TRY (node_uint (r, "mamba_d_head", node, 1, field_max ("head-dim"), &head_dim, error));
  if ((guint64) head_dim * heads != width)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("\"%smamba_d_head\" (%u) × \"%smamba_n_heads\" (%u) must equal the Mamba width (%u)"),
                   r->prefix, head_dim, r->prefix, heads, width);
      return FALSE;
    }
  *m = (Mamba2) { width, heads, head_dim, groups, state, kernel };
  TRY (opt_bool (r, "mamba_conv_bias", TRUE, &m->conv_bias, error));
  TRY (opt_bool (r, "mamba_proj_bias", FALSE, &m->proj_bias, error));
  member (r, "mamba_chunk_size");
  return TRUE;
}

/* Falcon-H1: attention and a Mamba-2 mixer side by side in every layer, then a gated MLP. The
 * mixer's width is mamba_d_ssm (null: mamba_expand × hidden_size; absent: the class default,
 * 1024), in mamba_n_heads heads of mamba_d_head ("auto": width / heads); its norm only with
 * mamba_rms_norm; biases mamba_conv_bias, mamba_proj_bias (in_proj) and projectors_bias
 * (out_proj). The multipliers scale activations, not what is stored; mamba_use_mlp is not read
 * by transformers. */
static gboolean
read_falcon_h1 (Reader   *r,
                VcArch   *arch,
                GError  **error)
{
  Mamba2 m = { 0 };
  guint d_ssm = 1024, expand = 2;

  TRY (read_llama (r, arch, error));
  TRY (opt_uint (r, "mamba_expand", NULL, 2, 2, 1, 1024, &expand, error));
  TRY (opt_uint (r, "mamba_d_ssm", NULL, 1024, 0, 1, field_max ("intermediate-size"), &d_ssm, error));
  if (d_ssm == 0)
    TRY (derived_uint (r, _("mamba_expand × hidden_size"), (guint64) expand * arch->hidden_size,
                       "intermediate-size", &d_ssm, error));
  TRY (read_mamba2 (r, d_ssm, &m, error));
  TRY (opt_bool (r, "projectors_bias", FALSE, &m.out_bias, error));
  TRY (opt_bool (r, "mamba_rms_norm", FALSE, &m.norm, error));
  /* where the norm sits changes nothing stored; mamba_use_mlp is not read by transformers */
  member (r, "mamba_use_mlp");
  member (r, "mamba_norm_before_gate");
  arch->recurrent_layers = arch->n_layers;
  arch->recurrent_with_attention = TRUE;
  arch->sglang_one_stage = TRUE;
  return mamba2_apply (r, &m, arch, error);
}

/* Granite 4.0 hybrids: layer_types names each layer "mamba" (a Mamba-2 mixer of mamba_expand ×
 * hidden_size, Bamba's: its gated norm always, mamba_proj_bias on in_proj and out_proj) or
 * "attention" (no positions: position_embedding_type "nope"); every layer then has
 * num_local_experts experts of intermediate_size with a bias-free router, and a shared MLP of
 * shared_intermediate_size (alone when there are no experts). */
static gboolean
read_granitemoehybrid (Reader   *r,
                       VcArch   *arch,
                       GError  **error)
{
  Mamba2 m = { 0 };
  guint expand = 2, shared = 1024, width = 0;

  TRY (read_llama_style (r, FALSE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  arch->sglang_one_stage = TRUE;
  TRY (opt_uint (r, "shared_intermediate_size", NULL, 1024, 0, 0, field_max ("shared-intermediate-size"), &shared, error));
  TRY (opt_uint (r, "num_local_experts", NULL, 8, 0, 0, field_max ("experts"), &arch->n_experts, error));
  if (arch->n_experts > 0)
    {
      TRY (need_uint (r, "num_experts_per_tok", NULL, 2, 1, arch->n_experts, &arch->experts_per_token, error));
      arch->expert_intermediate_size = arch->intermediate_size;
      arch->shared_intermediate_size = shared;
      arch->n_shared_experts = shared > 0 ? 1 : 0;
    }
  else if (shared > 0)
    arch->intermediate_size = shared;
  member (r, "num_experts_per_tok");

  if (member (r, "layer_types") == NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%slayer_types\" is missing; it must say for each layer \"mamba\" or \"attention\""),
                   r->prefix);
      return FALSE;
    }
  r->recurrent_type = "mamba";
  r->attention_type = "attention";

  TRY (opt_uint (r, "mamba_expand", NULL, 2, 2, 1, 1024, &expand, error));
  TRY (derived_uint (r, _("mamba_expand × hidden_size"), (guint64) expand * arch->hidden_size,
                     "intermediate-size", &width, error));
  TRY (read_mamba2 (r, width, &m, error));
  m.out_bias = m.proj_bias;
  m.norm = TRUE;
  return mamba2_apply (r, &m, arch, error);
}

/* The experts Glm4MoeMoE builds (GLM-4.5's and GLM-4.7-Flash's): n_routed_experts (or
 * num_local_experts, its other name) experts of moe_intermediate_size, a shared expert of
 * n_shared_experts × moe_intermediate_size, and a router h → E with its e_score_correction_bias
 * (E values, kept in the checkpoint). n_group and topk_group only restrict the routing. */
static gboolean
read_glm4_experts (Reader   *r,
                   guint     experts_default,
                   guint     k_default,
                   guint     size_default,
                   VcArch   *arch,
                   GError  **error)
{
  TRY (need_uint (r, "n_routed_experts", "num_local_experts", experts_default, 1, field_max ("experts"),
                  &arch->n_experts, error));
  TRY (need_uint (r, "num_experts_per_tok", NULL, k_default, 1, arch->n_experts, &arch->experts_per_token, error));
  TRY (need_uint (r, "moe_intermediate_size", NULL, size_default, 1, field_max ("expert-intermediate-size"),
                  &arch->expert_intermediate_size, error));
  TRY (opt_uint (r, "n_shared_experts", NULL, 1, 0, 0, field_max ("shared-experts"), &arch->n_shared_experts, error));
  arch->router_bias = TRUE;
  member (r, "n_group");
  member (r, "topk_group");
  return TRUE;
}

/* GLM-4.5 (glm4_moe; GLM-4.5-Air, GLM-4.6 and GLM-4.7 too), as Glm4MoeModel builds it:
 * grouped-query attention of head_dim (absent: hidden / heads) whose q, k and v have a bias when
 * attention_bias (o_proj never has one), with per-head q_norm and k_norm when use_qk_norm; the
 * first first_k_dense_replace layers have a gated MLP of intermediate_size, the others
 * Glm4MoeMoE's experts (read_glm4_experts). partial_rotary_factor rotates part of each head:
 * it changes nothing stored or cached. The multi-token prediction layer
 * (num_nextn_predict_layers, stored as layer num_hidden_layers) is not loaded by transformers
 * and not counted. */
static gboolean
read_glm4_moe (Reader   *r,
               VcArch   *arch,
               GError  **error)
{
  gboolean bias = FALSE, qk_norm = FALSE;
  guint first_dense = 1;

  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (opt_bool (r, "attention_bias", FALSE, &bias, error));
  arch->qkv_bias = bias;
  arch->o_bias = FALSE;
  TRY (opt_bool (r, "use_qk_norm", FALSE, &qk_norm, error));
  arch->qk_norm = qk_norm;
  TRY (read_glm4_experts (r, 128, 8, 1408, arch, error));
  TRY (opt_uint (r, "first_k_dense_replace", NULL, 1, 0, 0, arch->n_layers, &first_dense, error));
  arch->dense_layers = first_dense;
  member (r, "partial_rotary_factor");
  return read_mtp_layers (r, error);
}

/* GLM-4.7-Flash (glm4_moe_lite), as Glm4MoeLiteModel builds it: DeepSeek-V3's multi-head latent
 * attention (read_mla; q_lora_rank 768 when absent) and Glm4MoeMoE's experts in the layers
 * mlp_layer_types calls "sparse" ("dense": a gated MLP of intermediate_size; absent: the first
 * layer dense, the others sparse). transformers does not read first_k_dense_replace, vLLM does:
 * where it says otherwise than mlp_layer_types, it is not understood. The multi-token
 * prediction layer is not counted. */
static gboolean
read_glm4_moe_lite (Reader   *r,
                    VcArch   *arch,
                    GError  **error)
{
  g_autofree gboolean *dense = NULL;
  JsonNode *types, *first;

  TRY (read_llama_style (r, FALSE, arch, error));
  TRY (read_mla (r, 768, arch, error));
  TRY (read_glm4_experts (r, 64, 4, 1536, arch, error));

  dense = g_new0 (gboolean, arch->n_layers);
  types = member (r, "mlp_layer_types");
  if (types == NULL || JSON_NODE_HOLDS_NULL (types))
    dense[0] = TRUE;
  else
    {
      JsonArray *array = JSON_NODE_HOLDS_ARRAY (types) ? json_node_get_array (types) : NULL;

      for (guint i = 0; array != NULL && i < json_array_get_length (array) && i < arch->n_layers; i++)
        {
          JsonNode *item = json_array_get_element (array, i);
          const char *type = JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING
                             ? json_node_get_string (item) : "";

          if (g_str_equal (type, "dense"))
            dense[i] = TRUE;
          else if (!g_str_equal (type, "sparse"))
            array = NULL;
        }
      if (array == NULL || json_array_get_length (array) != arch->n_layers)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("\"%smlp_layer_types\" must list \"dense\" or \"sparse\" for each of the %u layers"),
                       r->prefix, arch->n_layers);
          return FALSE;
        }
    }
  arch->dense_layers = 0;
  for (guint i = 0; i < arch->n_layers; i++)
    arch->dense_layers += dense[i];

  first = member (r, "first_k_dense_replace");
  if (first != NULL && !JSON_NODE_HOLDS_NULL (first))
    {
      guint first_dense = 0;

      TRY (node_uint (r, "first_k_dense_replace", first, 0, arch->n_layers, &first_dense, error));
      for (guint i = 0; i < arch->n_layers; i++)
        if (dense[i] != (i < first_dense))
          {
            g_autofree char *part = g_strconcat (r->prefix, "first_k_dense_replace", NULL);
            not_understood (r, part);
            break;
          }
    }
  member (r, "partial_rotary_factor");
  return read_mtp_layers (r, error);
}

/* Llama 4 (text): attention_bias, q/k L2 norms without weights (use_qk_norm); MoE layers (moe_layers,
 * else every interleave_moe_layer_step-th) of num_local_experts experts of intermediate_size
 * with a bias-free router and a shared expert of intermediate_size, dense layers of
 * intermediate_size_mlp. The layers with rotary positions (no_rope_layers 1, else three in four)
 * attend within chunks of attention_chunk_size tokens, so their KV cache holds at most a chunk;
 * the NoPE layers attend to the whole context. */
static gboolean
read_llama4 (Reader   *r,
             VcArch   *arch,
             GError  **error)
{
  guint step = 1, chunk = 8192, n_moe = 0, n_rope = 0;
  JsonNode *layers, *rope;

  TRY (read_llama_style (r, TRUE, arch, error));
  TRY (read_attention_bias (r, arch, error));
  member (r, "use_qk_norm");
  arch->expert_intermediate_size = arch->intermediate_size;
  TRY (need_uint (r, "intermediate_size_mlp", NULL, 16384, 1, field_max ("intermediate-size"),
                  &arch->intermediate_size, error));
  TRY (read_experts (r, "num_local_experts", 16, 1, arch, error));
  arch->n_shared_experts = 1;
  arch->shared_intermediate_size = arch->expert_intermediate_size;

  TRY (opt_uint (r, "interleave_moe_layer_step", NULL, 1, 1, 1, field_max ("layers"), &step, error));
  layers = member (r, "moe_layers");
  if (layers != NULL && !JSON_NODE_HOLDS_NULL (layers))
    {
      g_autofree gboolean *sparse = g_new0 (gboolean, arch->n_layers);

      /* the same list as Qwen's mlp_only_layers, read the other way round */
      TRY (read_index_list (r, "moe_layers", arch->n_layers, sparse, error));
      for (guint i = 0; i < arch->n_layers; i++)
        n_moe += sparse[i];
    }
  else
    n_moe = arch->n_layers / step;
  arch->dense_layers = arch->n_layers - n_moe;

  TRY (opt_uint (r, "attention_chunk_size", NULL, 8192, 0, 1, field_max ("sliding-window"), &chunk, error));
  rope = member (r, "no_rope_layers");
  if (rope != NULL && !JSON_NODE_HOLDS_NULL (rope))
    {
      g_autofree gboolean *uses_rope = g_new0 (gboolean, arch->n_layers);

      TRY (read_flag_list (r, "no_rope_layers", arch->n_layers, uses_rope, error));
      for (guint i = 0; i < arch->n_layers; i++)
        n_rope += uses_rope[i];
    }
  else
    n_rope = arch->n_layers - arch->n_layers / 4;
  member (r, "no_rope_layer_interval");
  arch->sliding_window = chunk;
  arch->sliding_window_layers = chunk > 0 ? n_rope : 0;
  r->window_type = "chunked_attention";
  return TRUE;
}

/* Llama 4's vision tower (vision_config) and projector, as transformers builds them: an unfolded
 * patch projection (channels × patch² → h, no bias), a class embedding, a position per patch and
 * one for the class, LayerNorms before and after, num_hidden_layers encoder layers (q, k, v, o and
 * a two-layer MLP of intermediate_size, all with biases, two LayerNorms), the pixel-shuffle
 * adapter (intermediate_size → projector_input_dim, projector_output_dim squared, no bias) and the
 * projector vision_output_dim → the text model's width. */
static gboolean
read_llama4_vision (Reader   *r,
                    VcArch   *arch,
                    GError  **error)
{
  guint h = 1408, layers = 34, inter = 5632, image = 336, patch = 14, channels = 3;
  guint proj_in = 4096, proj_out = 4096, out = 4096;
  gboolean proj_bias = FALSE;
  guint64 side, params, layer, split;

  TRY (need_uint (r, "hidden_size", NULL, h, 1, field_max ("hidden-size"), &h, error));
  TRY (need_uint (r, "num_hidden_layers", NULL, layers, 1, field_max ("layers"), &layers, error));
  TRY (need_uint (r, "intermediate_size", NULL, inter, 1, field_max ("intermediate-size"), &inter, error));
  TRY (need_uint (r, "image_size", NULL, image, 1, 100000, &image, error));
  TRY (need_uint (r, "patch_size", NULL, patch, 1, image, &patch, error));
  TRY (opt_uint (r, "num_channels", NULL, 3, 3, 1, 64, &channels, error));
  TRY (need_uint (r, "projector_input_dim", NULL, proj_in, 1, field_max ("hidden-size"), &proj_in, error));
  TRY (need_uint (r, "projector_output_dim", NULL, proj_out, 1, field_max ("hidden-size"), &proj_out, error));
  TRY (need_uint (r, "vision_output_dim", NULL, out, 1, field_max ("hidden-size"), &out, error));
  TRY (opt_bool (r, "multi_modal_projector_bias", FALSE, &proj_bias, error));
  arch->encoder_layers = layers;
  arch->encoder_width = h;
  arch->sglang_multimodal_off = TRUE;
  side = image / patch;
  layer = 4 * ((guint64) h * h + h) + ((guint64) h * inter + inter) + ((guint64) inter * h + h) + 4 * (guint64) h;
  params = (guint64) channels * patch * patch * h + h + (side * side + 1) * h + 4 * (guint64) h
           + layers * layer + (guint64) inter * proj_in + (guint64) proj_out * proj_out
           + (guint64) out * arch->hidden_size + (proj_bias ? arch->hidden_size : 0);
  /* split over TP ranks (vLLM mllama4.py and SGLang mllama4.py, Llama4VisionModel): the unfolded
   * patch projection (ColumnParallelLinear), each layer's q, k, v with their biases
   * (QKVParallelLinear), o and fc2 weights (RowParallelLinear: their biases whole), fc1 with its
   * bias (ColumnParallelLinear), the adapter's fc1 and fc2 weights; whole: the class and position
   * embeddings, the LayerNorms, the row-parallel biases. The projector's linear_1 is a
   * ColumnParallelLinear in vLLM (Llama4MultiModalProjector), transformers' nn.Linear in SGLang. */
  split = (guint64) channels * patch * patch * h
          + layers * (4 * (guint64) h * h + 3 * (guint64) h + 2 * (guint64) h * inter + inter)
          + (guint64) inter * proj_in + (guint64) proj_out * proj_out;
  TRY (derived_uint (r, _("the vision encoder's parameters"), params, "encoder-params", &arch->encoder_params, error));
  TRY (derived_uint (r, _("the vision encoder's parameters"), split + (guint64) out * arch->hidden_size,
                     "encoder-vllm-tp-params", &arch->encoder_vllm_tp_params, error));
  /* vLLM's --mm-encoder-tp-mode data (Llama4ForConditionalGeneration.supports_encoder_tp_data):
   * the tower's layers become ReplicatedLinear, the projector's linear_1 stays a
   * ColumnParallelLinear (Llama4MultiModalProjector takes no use_data_parallel) */
  arch->encoder_vllm_data = TRUE;
  TRY (derived_uint (r, _("the vision encoder's parameters"), (guint64) out * arch->hidden_size,
                     "encoder-vllm-data-tp-params", &arch->encoder_vllm_data_tp_params, error));
  return derived_uint (r, _("the vision encoder's parameters"), split, "encoder-sglang-tp-params",
                       &arch->encoder_sglang_tp_params, error);
}

/* What vLLM's profile run passes through Gemma 3's tower for one image (vllm/model_executor/
 * models/gemma3_mm.py): the dummy image resized to image_size², (image_size / patch_size)²
 * patches through the SigLIP layers (MLP width @inter), average-pooled by
 * Gemma3MultiModalProjector to mm_tokens_per_image embeddings (a square whose side divides the
 * patch grid's, or the pooling leaves another count: not followed). The tokens vLLM's encoder
 * budget counts for the image (registry.py, get_max_tokens_per_item_by_modality →
 * profiling.py, get_mm_max_contiguous_tokens: the placeholder's length, not only its
 * embeddings) are those of Gemma3Processor's full_image_sequence, "\n\n", <start_of_image>, the
 * image tokens, <end_of_image>, "\n\n", each "\n\n" one token of Gemma 3's vocabulary (the
 * model file's own _apply_token_matches reads vocab["\n\n"]): mm_tokens_per_image + 4. */
static gboolean
gemma3_vllm_image (Reader   *r,
                   VcArch   *arch,
                   guint     image,
                   guint     patch,
                   guint     channels,
                   guint     inter,
                   guint     mm_tokens,
                   GError  **error)
{
  guint64 grid = image / patch, pooled = (guint64) floor (sqrt ((double) mm_tokens) + 0.5);

  arch->encoder_intermediate = arch->encoder_patches = arch->encoder_pixel_values = 0;
  arch->encoder_image_tokens = arch->encoder_image_embeds = 0;
  if (pooled * pooled != mm_tokens || grid % pooled != 0)
    return TRUE;
  arch->encoder_intermediate = inter;
  arch->encoder_image_embeds = mm_tokens;
  TRY (derived_uint (r, _("an image's patches and tokens"), grid * grid, "encoder-patches",
                     &arch->encoder_patches, error));
  TRY (derived_uint (r, _("an image's patches and tokens"), (guint64) channels * image * image,
                     "encoder-pixel-values", &arch->encoder_pixel_values, error));
  return derived_uint (r, _("an image's patches and tokens"), (guint64) mm_tokens + 4, "encoder-image-tokens",
                       &arch->encoder_image_tokens, error);
}

/* Gemma 3's vision tower (vision_config, a siglip_vision_model) and projector, as transformers
 * builds them (modeling_siglip.py, SiglipVisionTransformer; modeling_gemma3.py,
 * Gemma3MultiModalProjector): a patch Conv2d with a bias (channels × patch² → h), a learned
 * position per patch of the (image / patch)² grid, num_hidden_layers encoder layers (two
 * LayerNorms with biases, q, k, v and out projections with biases, an MLP h → I → h with
 * biases), the post-LayerNorm, no pooling head (vision_use_head false: SiglipVisionConfig's
 * default is true, whose head is not counted here, so the key is required); the projector is
 * an RMSNorm of h and a matrix h → the text model's width, no bias (its average pooling to
 * mm_tokens_per_image has no weights). */
static gboolean
read_gemma3_vision (Reader   *r,
                    VcArch   *arch,
                    GError  **error)
{
  g_autoptr(GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);
  Reader w = { .prefix = "", .object = r->wrapper, .huge = r->huge, .nested = TRUE, .family = r->family,
               .read = read, .not_understood = r->not_understood };
  guint h = 1152, layers = 27, inter = 4304, heads = 16, image = 896, patch = 14, channels = 3, mm_tokens = 256;
  gboolean head = TRUE;
  guint64 side, layer, params, split;

  TRY (need_uint (r, "hidden_size", NULL, h, 1, field_max ("hidden-size"), &h, error));
  TRY (need_uint (r, "num_hidden_layers", NULL, layers, 1, field_max ("layers"), &layers, error));
  TRY (need_uint (r, "intermediate_size", NULL, inter, 1, field_max ("intermediate-size"), &inter, error));
  TRY (need_uint (r, "num_attention_heads", NULL, heads, 1, h, &heads, error));
  TRY (need_uint (r, "image_size", NULL, image, 1, 100000, &image, error));
  TRY (need_uint (r, "patch_size", NULL, patch, 1, image, &patch, error));
  TRY (opt_uint (r, "num_channels", NULL, 3, 3, 1, 64, &channels, error));
  TRY (opt_bool (r, "vision_use_head", TRUE, &head, error));
  TRY (opt_uint (&w, "mm_tokens_per_image", NULL, 256, 256, 1, 100000000, &mm_tokens, error));
  member (r, "model_type");
  if (h % heads != 0)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("\"%shidden_size\" (%u) is not a multiple of \"%snum_attention_heads\" (%u)"),
                   r->prefix, h, r->prefix, heads);
      return FALSE;
    }
  if (head)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%svision_use_head\" must be false (Gemma 3’s vision tower has no pooling head); "
                     "a tower with one is not counted here"), r->prefix);
      return FALSE;
    }
  arch->encoder_layers = layers;
  arch->encoder_width = h;
  arch->sglang_multimodal_off = TRUE;
  side = image / patch;
  layer = 2 * 2 * (guint64) h + 4 * ((guint64) h * h + h) + ((guint64) h * inter + inter) + ((guint64) inter * h + h);
  params = (guint64) channels * patch * patch * h + h + side * side * h + layers * layer + 2 * (guint64) h
           + (guint64) h + (guint64) h * arch->hidden_size;
  /* split over TP ranks, the same in vLLM and SGLang (their siglip.py, SiglipVisionEmbeddings,
   * SiglipAttention / VisionAttention, SiglipMLP): the positions (VocabParallelEmbedding), each
   * layer's q, k, v with their biases (QKVParallelLinear), out_proj and fc2 weights
   * (RowParallelLinear: their biases whole), fc1 with its bias (ColumnParallelLinear); whole: the
   * patch Conv2d, the LayerNorms and Gemma3MultiModalProjector (an nn.Parameter and an RMSNorm). */
  split = side * side * h + layers * (4 * (guint64) h * h + 3 * (guint64) h + 2 * (guint64) h * inter + inter);
  TRY (derived_uint (r, _("the vision encoder's parameters"), params, "encoder-params", &arch->encoder_params, error));
  TRY (derived_uint (r, _("the vision encoder's parameters"), split, "encoder-vllm-tp-params",
                     &arch->encoder_vllm_tp_params, error));
  TRY (derived_uint (r, _("the vision encoder's parameters"), split, "encoder-sglang-tp-params",
                     &arch->encoder_sglang_tp_params, error));
  return gemma3_vllm_image (r, arch, image, patch, channels, inter, mm_tokens, error);
}

/* What vLLM's profile run needs of Qwen3-VL's tower beside its image (vc-engine-mm.c; vLLM
 * qwen3_vl.py, Qwen3_VisionTransformer.forward): its MLP width (its width the reader keeps for
 * SGLang's fraction too); the width of what it
 * returns, out_hidden_size for the merger and for each deepstack merger (torch.cat of the
 * merger's output and deepstack_feature_lists); and what a patch keeps while the blocks run:
 * pos_embeds (h, a local of forward), the rotary tables (rot_pos_emb: head_dim / 2 values in fp32
 * at 0.11, cos and sin of head_dim / 2 each in the model's dtype later, head_dim bf16 values
 * either way) and the deepstack features made so far, out / m² a patch each. The features the
 * last blocks hold are all of them only where every deepstack index comes before the last block:
 * otherwise, or where out / m² is not whole, the pass is left unknown. */
static void
qwen3_vl_tower (VcArch    *arch,
                JsonArray *indexes,
                guint      depth,
                guint      h,
                guint      inter,
                guint      heads,
                guint      merge,
                guint      out)
{
  guint n = json_array_get_length (indexes);
  guint64 m2 = (guint64) merge * merge, held, width;

  arch->encoder_tower = VC_ENCODER_TOWER_QWEN3_VL;
  for (guint i = 0; i < n; i++)
    {
      JsonNode *node = json_array_get_element (indexes, i);

      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
          json_node_get_int (node) < 0 || json_node_get_int (node) + 1 >= (gint64) depth)
        return;
    }
  if (out % m2 != 0)
    return;
  held = (guint64) h + h / heads + (guint64) n * (out / m2);
  width = (guint64) out * (1 + n);
  if (held > 10000000 || width > 10000000 || inter > 10000000)
    return;
  arch->encoder_intermediate = inter;
  arch->encoder_patch_held = (guint) held;
  arch->encoder_embed_width = (guint) width;
}

/* Qwen3-VL's vision tower (modeling_qwen3_vl.py, Qwen3VLVisionModel; the same in
 * modeling_qwen3_vl_moe.py), every key required: a Conv3d patch embedding with a bias (in_channels
 * × temporal_patch_size × patch_size² → h), a learned grid of num_position_embeddings positions,
 * depth blocks (two LayerNorms with biases, qkv h → 3h and proj h → h with biases, an MLP h → I →
 * h with biases), the merger (a LayerNorm of h, then h·m² → h·m² → out_hidden_size with biases,
 * m the spatial_merge_size) and one more merger per deepstack_visual_indexes entry, whose
 * LayerNorm is over h·m². out_hidden_size is the text model's width. */
static gboolean
read_qwen3_vl_vision (Reader   *r,
                      VcArch   *arch,
                      GError  **error)
{
  guint depth = 27, h = 1152, inter = 4304, heads = 16, channels = 3, patch = 16, temporal = 2;
  guint merge = 2, out = 3584, positions = 2304, sglang_layers = 24;
  guint64 merged, block, merger, deepstack_merger, params, deepstack, split;
  JsonNode *node;

  TRY (need_uint (r, "depth", NULL, depth, 1, field_max ("layers"), &depth, error));
  /* SGLang's adjust_mem_fraction_for_vlm takes getattr(vision_config, "num_hidden_layers", 24)
   * and its hidden_size: Qwen3VLVisionConfig (transformers' configuration_qwen3_vl.py at
   * 000c33fd; SGLang's configs/qwen3_vl.py at 1200c6eb) names its blocks depth and has no
   * num_hidden_layers nor attribute_map, so without that key SGLang takes ViT-L's 24 whatever
   * depth says (null would fail there: left unknown) */
  TRY (opt_uint (r, "num_hidden_layers", NULL, sglang_layers, 0, 1, field_max ("layers"), &sglang_layers, error));
  TRY (need_uint (r, "hidden_size", NULL, h, 1, field_max ("hidden-size"), &h, error));
  TRY (need_uint (r, "intermediate_size", NULL, inter, 1, field_max ("intermediate-size"), &inter, error));
  TRY (need_uint (r, "num_heads", NULL, heads, 1, h, &heads, error));
  TRY (need_uint (r, "in_channels", NULL, channels, 1, 64, &channels, error));
  TRY (need_uint (r, "patch_size", NULL, patch, 1, 1024, &patch, error));
  TRY (need_uint (r, "temporal_patch_size", NULL, temporal, 1, 64, &temporal, error));
  TRY (need_uint (r, "spatial_merge_size", NULL, merge, 1, 64, &merge, error));
  TRY (need_uint (r, "out_hidden_size", NULL, out, 1, field_max ("hidden-size"), &out, error));
  TRY (need_uint (r, "num_position_embeddings", NULL, positions, 1, 1048576, &positions, error));
  if (h % heads != 0)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("\"%shidden_size\" (%u) is not a multiple of \"%snum_heads\" (%u)"),
                   r->prefix, h, r->prefix, heads);
      return FALSE;
    }
  if (out != arch->hidden_size)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("\"%sout_hidden_size\" (%u) must equal the text model's \"hidden_size\" (%u)"),
                   r->prefix, out, arch->hidden_size);
      return FALSE;
    }
  node = member (r, "deepstack_visual_indexes");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%sdeepstack_visual_indexes\" must list the vision layers whose features are added "
                     "to the text model"), r->prefix);
      return FALSE;
    }
  deepstack = json_array_get_length (json_node_get_array (node));
  if (deepstack > depth)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("\"%sdeepstack_visual_indexes\" lists more layers than \"%sdepth\" (%u)"),
                   r->prefix, r->prefix, depth);
      return FALSE;
    }
  merged = (guint64) h * merge * merge;
  block = 4 * (guint64) h + ((guint64) h * 3 * h + 3 * (guint64) h) + ((guint64) h * h + h)
          + ((guint64) h * inter + inter) + ((guint64) inter * h + h);
  merger = (merged * merged + merged) + (merged * out + out);
  deepstack_merger = 2 * merged + merger;
  merger += 2 * (guint64) h;
  params = (guint64) channels * temporal * patch * patch * h + h + (guint64) positions * h
           + depth * block + merger + deepstack * deepstack_merger;
  /* split over TP ranks, the same in vLLM (qwen3_vl.py, Qwen3_VisionTransformer, its blocks'
   * Qwen2_5_VisionAttention of qwen2_5_vl.py and Qwen3_VisionMLP, Qwen3_VisionPatchMerger) and
   * SGLang (qwen3_vl.py, Qwen3VLMoeVisionModel, VisionAttention(use_qkv_parallel=True),
   * Qwen3_VisionMLP, Qwen3VLMoeVisionPatchMerger): each block's qkv with its bias
   * (QKVParallelLinear), proj and linear_fc2 weights (RowParallelLinear: their biases whole),
   * linear_fc1 with its bias (ColumnParallelLinear), and in the merger and every deepstack
   * merger linear_fc1 with its bias (ColumnParallelLinear) and linear_fc2's weight
   * (RowParallelLinear); whole: the Conv3d patch embedding, pos_embed (an nn.Embedding), the
   * LayerNorms and the row-parallel biases */
  split = depth * (4 * (guint64) h * h + 3 * (guint64) h + 2 * (guint64) h * inter + inter)
          + (1 + deepstack) * (merged * merged + merged + merged * out);
  TRY (derived_uint (r, _("the vision encoder's parameters"), params, "encoder-params", &arch->encoder_params, error));
  TRY (derived_uint (r, _("the vision encoder's parameters"), split, "encoder-vllm-tp-params",
                     &arch->encoder_vllm_tp_params, error));
  /* vLLM's --mm-encoder-tp-mode data (Qwen3VLForConditionalGeneration.supports_encoder_tp_data,
   * inherited by Qwen3VLMoeForConditionalGeneration): every layer of Qwen3_VisionTransformer,
   * the mergers included, is built with disable_tp, so nothing stays divided */
  arch->encoder_vllm_data = TRUE;
  arch->encoder_vllm_data_tp_params = 0;
  TRY (derived_uint (r, _("the vision encoder's parameters"), split, "encoder-sglang-tp-params",
                     &arch->encoder_sglang_tp_params, error));
  arch->encoder_layers = sglang_layers;
  arch->encoder_width = h;
  qwen3_vl_tower (arch, json_node_get_array (node), depth, h, inter, heads, merge, out);
  return TRUE;
}

/* What vLLM's profile run passes through Mistral 3's Pixtral tower for one image, as vLLM 0.11's
 * mistral3.py and pixtral.py derive it from config.json alone (preprocessor_config.json is not
 * read there): BaseLlavaProcessingInfo.get_image_size_with_most_features takes
 * PixtralHFEncoderInfo.get_image_size, vision_config's image_size, a side; get_patch_size is
 * patch_size × the wrapper's spatial_merge_size, and get_patch_grid_size counts
 * (side − 1) // that + 1 columns and rows (transformers' _num_image_tokens). The prompt
 * replacement (Mistral3MultiModalProcessor._get_prompt_updates) is ([IMG] × columns +
 * [IMG_BREAK]) × rows, the last [IMG_END]: with no get_mm_max_tokens_per_item the encoder budget
 * counts that whole placeholder, (columns + 1) × rows. The tower's Conv2d (PixtralHFVisionModel)
 * takes the image's (side / patch_size)² patches. Where the side is no multiple of patch_size ×
 * merge, the processor's resizing (its own settings) would decide the pixels: left unknown. The
 * tower's pass (vc-engine-mm.c) takes its width and MLP width (encoder-width,
 * encoder-intermediate), known only with the image, so that an image left unknown keeps the
 * pass unknown too. */
static gboolean
pixtral_vllm_image (Reader   *r,
                    VcArch   *arch,
                    guint     width,
                    guint     image,
                    guint     patch,
                    guint     merge,
                    guint     channels,
                    guint     inter,
                    GError  **error)
{
  guint64 merged = (guint64) patch * merge, side, grid;

  arch->encoder_tower = VC_ENCODER_TOWER_PIXTRAL;
  if (image % merged != 0)
    return TRUE;
  side = (image - 1) / merged + 1;
  grid = image / patch;
  arch->encoder_width = width;
  arch->encoder_intermediate = inter;
  TRY (derived_uint (r, _("an image's patches and tokens"), grid * grid, "encoder-patches",
                     &arch->encoder_patches, error));
  TRY (derived_uint (r, _("an image's patches and tokens"), (guint64) channels * image * image,
                     "encoder-pixel-values", &arch->encoder_pixel_values, error));
  TRY (derived_uint (r, _("an image's patches and tokens"), side * side, "encoder-image-embeds",
                     &arch->encoder_image_embeds, error));
  return derived_uint (r, _("an image's patches and tokens"), (side + 1) * side, "encoder-image-tokens",
                       &arch->encoder_image_tokens, error);
}

/* Mistral 3's Pixtral vision tower (vision_config, model_type "pixtral") and its projector, as
 * transformers builds them (modeling_pixtral.py, PixtralVisionModel; modeling_mistral3.py,
 * Mistral3MultiModalProjector and Mistral3PatchMerger), no bias anywhere but the projector's
 * two linears with multimodal_projector_bias: a patch Conv2d (channels × patch² → h), ln_pre (an
 * RMSNorm of h), num_hidden_layers layers (q, k, v and o of h → h, a gated MLP h → I → h,
 * attention_norm and ffn_norm), then the projector's RMSNorm of h, the patch merger's
 * h·m² → h (m the wrapper's spatial_merge_size), linear_1 of h · (the vision_feature_layer
 * layers concatenated, one for a number) → the text model's width and linear_2 of that width
 * squared. The rotary positions have no weights. */
static gboolean
read_pixtral_vision (Reader   *r,
                     VcArch   *arch,
                     GError  **error)
{
  g_autoptr(GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);
  Reader w = { .prefix = "", .object = r->wrapper, .huge = r->huge, .nested = TRUE, .family = r->family,
               .read = read, .not_understood = r->not_understood };
  guint h = 1024, layers = 24, inter = 4096, patch = 16, channels = 3, merge = 2, image = 1024;
  gboolean bias = FALSE;
  guint64 features = 1, layer, text = arch->hidden_size, params, split;
  JsonNode *node;

  TRY (need_uint (r, "hidden_size", NULL, h, 1, field_max ("hidden-size"), &h, error));
  TRY (need_uint (r, "num_hidden_layers", NULL, layers, 1, field_max ("layers"), &layers, error));
  TRY (need_uint (r, "intermediate_size", NULL, inter, 1, field_max ("intermediate-size"), &inter, error));
  TRY (need_uint (r, "patch_size", NULL, patch, 1, 100000, &patch, error));
  TRY (opt_uint (r, "num_channels", NULL, 3, 3, 1, 64, &channels, error));
  TRY (opt_uint (r, "image_size", NULL, 1024, 1024, 1, 100000, &image, error));
  TRY (opt_uint (&w, "spatial_merge_size", NULL, 2, 2, 1, 64, &merge, error));
  TRY (opt_bool (&w, "multimodal_projector_bias", FALSE, &bias, error));
  node = member (&w, "vision_feature_layer");
  if (node != NULL && JSON_NODE_HOLDS_ARRAY (node))
    features = MAX (1u, json_array_get_length (json_node_get_array (node)));
  /* encoder_layers stays 0: whether SGLang lowers its fraction for
   * Mistral3ForConditionalGeneration depends on its release's multimodal_model_archs, which is
   * not followed (as for Qwen3-VL's), so SGLang's capacity needs --mem-fraction (its rule takes
   * the layers and the width together); the width is vLLM's profile pass's (pixtral_vllm_image) */
  layer = 4 * (guint64) h * h + 3 * (guint64) h * inter + 2 * (guint64) h;
  params = (guint64) channels * patch * patch * h + h + layers * layer
           + h + (guint64) merge * merge * h * h + features * h * text + text * text + (bias ? 2 * text : 0);
  /* split over TP ranks, the same tower in both engines (vLLM pixtral.py, PixtralHFVisionModel;
   * SGLang pixtral.py, PixtralHFVisionModel, which SGLang's LlavaForConditionalGeneration builds
   * for a "pixtral" vision_config): each layer's q, k, v (QKVParallelLinear), o and the MLP's
   * down projection (RowParallelLinear), gate and up (MergedColumnParallelLinear), none with a
   * bias; whole: the patch Conv2d, ln_pre, the layers' two RMSNorms. The projector: vLLM's
   * Mistral3MultiModalProjector (mistral3.py) divides linear_1 with its bias
   * (ColumnParallelLinear) and linear_2's weight (RowParallelLinear, its bias whole), its norm
   * and patch merger (an nn.Linear) whole; SGLang's Mistral3ForConditionalGeneration (mistral.py)
   * takes transformers' Mistral3MultiModalProjector, all nn.Linear, whole. */
  split = layers * (4 * (guint64) h * h + 3 * (guint64) h * inter);
  TRY (derived_uint (r, _("the vision encoder's parameters"), params, "encoder-params", &arch->encoder_params, error));
  TRY (derived_uint (r, _("the vision encoder's parameters"), split + features * h * text + (bias ? text : 0) + text * text,
                     "encoder-vllm-tp-params", &arch->encoder_vllm_tp_params, error));
  TRY (derived_uint (r, _("the vision encoder's parameters"), split, "encoder-sglang-tp-params",
                     &arch->encoder_sglang_tp_params, error));
  return pixtral_vllm_image (r, arch, h, image, patch, merge, channels, inter, error);
}

/* ---- what every family shares ------------------------------------------------------------------ */

/* The longest context: max_position_embeddings (GPT-2: n_positions), and rope_scaling's type
 * and factor as the file gives them, for the model's description; neither changes what the model
 * holds. The context the model takes is derived as vLLM does (vllm/config.py,
 * _get_and_verify_max_len): the positions times the scaling factor, except for the llama3,
 * longrope and su types, which write the extended length already; yarn scales
 * original_max_position_embeddings. Gemma 3 writes the scaled length. Absent: 0, unknown. */
static gboolean
read_context (Reader   *r,
              VcArch   *arch,
              GError  **error)
{
  JsonNode *scaling = member (r, "rope_scaling");
  guint max_context = field_max ("max-context");
  JsonObject *o;
  JsonNode *factor_node;
  const char *type = NULL;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  double factor = 1.0, length;

  TRY (opt_uint (r, "max_position_embeddings", "n_positions", 0, 0, 1, max_context, &r->max_context, error));
  arch->max_context = r->max_context;
  if (scaling == NULL || JSON_NODE_HOLDS_NULL (scaling))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (scaling))
    {
      g_autofree char *got = describe_node (scaling);
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%srope_scaling\" must be an object or null, got %s"), r->prefix, got);
      return FALSE;
    }
  o = json_node_get_object (scaling);
  factor_node = json_object_get_member (o, "factor");
  TRY (opt_string (o, "rope_scaling.", "rope_type", &type, error));
  if (type == NULL)
    TRY (opt_string (o, "rope_scaling.", "type", &type, error));
  if (factor_node != NULL && !JSON_NODE_HOLDS_NULL (factor_node))
    {
      if (JSON_NODE_TYPE (factor_node) != JSON_NODE_VALUE ||
          (json_node_get_value_type (factor_node) != G_TYPE_DOUBLE &&
           json_node_get_value_type (factor_node) != G_TYPE_INT64) ||
          !(json_node_get_double (factor_node) >= 1.0 && json_node_get_double (factor_node) <= 1e6))
        {
          g_autofree char *got = describe_node (factor_node);
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("\"%srope_scaling.factor\" must be a number from 1 to 1000000, got %s"),
                       r->prefix, got);
          return FALSE;
        }
      factor = json_node_get_double (factor_node);
      r->rope_scaling = g_strdup_printf ("%s ×%s", type ? type : "",
                                         g_ascii_formatd (buf, sizeof buf, "%g", factor));
    }
  else if (type != NULL)
    r->rope_scaling = g_strdup (type);

  if (r->max_context == 0 || g_str_equal (r->family->id, "gemma3") ||
      g_strcmp0 (type, "llama3") == 0 || g_strcmp0 (type, "longrope") == 0 || g_strcmp0 (type, "su") == 0)
    return TRUE;
  length = r->max_context;
  if (g_strcmp0 (type, "yarn") == 0)
    {
      Reader sub = *r;
      guint original = 0;
      g_autofree char *prefix = g_strconcat (r->prefix, "rope_scaling.", NULL);

      sub.object = o;
      sub.prefix = prefix;
      sub.nested = FALSE;
      TRY (need_uint (&sub, "original_max_position_embeddings", NULL, 0, 1, G_MAXINT32, &original, error));
      length = original;
    }
  length = floor (length * factor);
  if (length > max_context)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the context the rope scaling gives (%.0f tokens) is beyond %u"), length, max_context);
      return FALSE;
    }
  arch->max_context = (guint) length;
  return TRUE;
}

/* A number of the config in (0, 1] (partial_rotary_factor, rotary_pct); absent or null: 1 */
static gboolean
opt_fraction (Reader      *r,
              const char  *key,
              double      *out,
              GError     **error)
{
  JsonNode *node = member (r, key);

  *out = 1.0;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (JSON_NODE_TYPE (node) != JSON_NODE_VALUE ||
      (json_node_get_value_type (node) != G_TYPE_DOUBLE && json_node_get_value_type (node) != G_TYPE_INT64) ||
      !(json_node_get_double (node) > 0.0 && json_node_get_double (node) <= 1.0))
    {
      g_autofree char *got = describe_node (node);
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%s%s\" must be a number above 0 and at most 1, got %s"), r->prefix, key, got);
      return FALSE;
    }
  *out = json_node_get_double (node);
  return TRUE;
}

/* The rows of one table of get_rope's class for rope_scaling's @type (NULL: none), the config's
 * max_position_embeddings @positions, its original_max_position_embeddings (0: not given) and
 * factor (read_rope_table()); FALSE where that table is not followed, @kind saying why */
static gboolean
rope_rows (const char *type,
           JsonObject *o,
           double      positions,
           guint       original,
           double      factor,
           double     *rows,
           guint      *kind)
{
  *kind = VC_ROPE_TABLE_PLAIN;
  if (type == NULL || g_str_equal (type, "default") || g_str_equal (type, "llama3"))
    *rows = positions;
  else if ((g_str_equal (type, "linear") || g_str_equal (type, "dynamic")) &&
           o != NULL && json_object_has_member (o, "factor") && !json_object_has_member (o, "alpha"))
    *rows = ceil (positions * factor);
  else if (g_str_equal (type, "yarn") && original > 0)
    *rows = ceil (original * factor);
  else if ((g_str_equal (type, "longrope") || g_str_equal (type, "su")) && original > 0)
    {
      *rows = (double) original + positions;
      *kind = VC_ROPE_TABLE_LONGROPE;
    }
  else
    {
      *kind = g_str_equal (type, "mrope") ? VC_ROPE_TABLE_MROPE : VC_ROPE_TABLE_UNKNOWN_TYPE;
      return FALSE;
    }
  return TRUE;
}

/* rope_scaling's type, factor (checked by read_context()) and original_max_position_embeddings
 * (0: not given) */
static gboolean
read_rope_scaling (Reader       *r,
                   JsonObject   *o,
                   const char  **type,
                   double       *factor,
                   guint        *original,
                   GError      **error)
{
  JsonNode *f = json_object_get_member (o, "factor");

  TRY (opt_string (o, "rope_scaling.", "rope_type", type, error));
  if (*type == NULL)
    TRY (opt_string (o, "rope_scaling.", "type", type, error));
  if (f != NULL && JSON_NODE_TYPE (f) == JSON_NODE_VALUE)
    *factor = json_node_get_double (f);
  if (json_object_has_member (o, "original_max_position_embeddings"))
    {
      Reader sub = *r;
      g_autofree char *prefix = g_strconcat (r->prefix, "rope_scaling.", NULL);

      sub.object = o;
      sub.prefix = prefix;
      sub.nested = FALSE;
      TRY (need_uint (&sub, "original_max_position_embeddings", NULL, 0, 1, G_MAXINT32, original, error));
    }
  return TRUE;
}

/* The positions of the engines' RoPE table for a config without max_position_embeddings, where
 * the engines have a default of their own (FORMULAS.md, "vLLM's and SGLang's RoPE tables"):
 * both read the config through its transformers class, whose default then holds.
 * Falcon (model_type "falcon"): FalconConfig's max_position_embeddings=2048 (transformers,
 * configuration_falcon.py at 5fd8edad), which vLLM's falcon.py passes to get_rope (its
 * getattr(config, "max_position_embeddings", 8192) meets the attribute) and SGLang's falcon.py
 * (FalconAttention: max_position=2048, whatever the config says); the RefinedWeb types are read
 * by vLLM's own RWConfig, without the attribute (8192 in vLLM): not followed. Gemma: GemmaConfig's
 * 8192 (transformers, configuration_gemma.py at 008e5743), which vLLM's and SGLang's gemma.py
 * (GemmaDecoderLayer) pass as config.max_position_embeddings. 0: none known. */
static guint
class_default_positions (Reader *r)
{
  const char *type = NULL;

  if (json_object_has_member (r->object, "model_type") &&
      JSON_NODE_HOLDS_VALUE (json_object_get_member (r->object, "model_type")) &&
      json_node_get_value_type (json_object_get_member (r->object, "model_type")) == G_TYPE_STRING)
    type = json_object_get_string_member (r->object, "model_type");
  if (g_str_equal (r->family->id, "falcon") && g_strcmp0 (type, "falcon") == 0)
    return 2048;
  if (g_str_equal (r->family->id, "gemma"))
    return 8192;
  return 0;
}

/* The cos/sin tables vLLM builds when it makes the model (FORMULAS.md, "vLLM's and SGLang's
 * RoPE tables"): vllm/model_executor/layers/rotary_embedding/__init__.py, get_rope, one table
 * per distinct rope (_ROPE_DICT), each class's _compute_cos_sin_cache giving its rows:
 * RotaryEmbedding and Llama3RotaryEmbedding max_position_embeddings, Linear- and
 * DynamicNTKScalingRotaryEmbedding max_position_embeddings × factor, YaRNScalingRotaryEmbedding
 * and DeepseekScalingRotaryEmbedding ⌈original_max_position_embeddings × factor⌉,
 * Phi3LongRoPEScaledRotaryEmbedding original_max_position_embeddings + max_position_embeddings
 * (its short and long tables); rotary_dim columns (cos and sin, rotary_dim / 2 each), the
 * head's rotary part: int (head_dim × partial_rotary_factor), MLA's qk_rope_head_dim, GPT-NeoX's
 * rotary_pct, MiniMax-M2's rotary_dim. Gemma 3 has two ropes (gemma3.py, Gemma3Attention: the
 * sliding layers' rope_local_base_freq with no scaling, the global layers' rope_scaling);
 * gpt-oss builds its table in fp32 (gpt_oss.py, OAIAttention). Learned positions (GPT-2,
 * GPT-BigCode), position_embedding_type "nope" (Granite 4.0 hybrids) and models without
 * attention have none. Multimodal rope (mrope_section) and types not read are named in
 * rope_table_kind, for the engines to refuse. */
static gboolean
read_rope_table (Reader   *r,
                 VcArch   *arch,
                 GError  **error)
{
  JsonNode *scaling = json_object_get_member (r->object, "rope_scaling");
  JsonObject *o = NULL;
  const char *type = NULL, *positions = NULL;
  double factor = 1.0, partial = 1.0, rows = 0, positions_max = r->max_context;
  guint head, original = 0, rotary = 0, kind;
  gboolean local = FALSE, global = TRUE, is_gemma3 = g_str_equal (r->family->id, "gemma3");

  arch->rope_table_rows = 0;
  arch->rotary_dim = 0;
  arch->rope_table_fp32 = FALSE;
  arch->rope_table_kind = VC_ROPE_TABLE_PLAIN;
  TRY (opt_string (r->object, r->prefix, "position_embedding_type", &positions, error));
  (void) member (r, "position_embedding_type");
  /* GraniteMoeHybridConfig's default is "nope" (configuration_granitemoehybrid.py) */
  if (positions == NULL && g_str_equal (r->family->id, "granitemoehybrid"))
    positions = "nope";
  if (arch->max_positions > 0 || g_strcmp0 (positions, "nope") == 0 || vc_arch_attention_layers (arch) == 0)
    return TRUE;
  if (g_str_equal (r->family->id, "gpt_neox"))
    TRY (opt_fraction (r, "rotary_pct", &partial, error));
  else
    TRY (opt_fraction (r, "partial_rotary_factor", &partial, error));
  head = vc_arch_is_mla (arch) ? arch->qk_rope_head_dim : vc_arch_head_dim (arch);
  if (g_str_equal (r->family->id, "minimax_m2"))
    TRY (opt_uint (r, "rotary_dim", NULL, head, head, 1, head, &rotary, error));
  else
    rotary = (guint) floor (head * partial);
  if (rotary == 0)
    return TRUE;
  arch->rotary_dim = rotary;
  arch->rope_table_fp32 = g_str_equal (r->family->id, "gpt_oss");
  /* a nested text_config leaves out what equals its class default: Gemma3TextConfig's
   * max_position_embeddings is 131072 (configuration_gemma3.py) */
  if (r->max_context == 0 && r->nested && is_gemma3)
    positions_max = 131072;
  if (positions_max == 0)
    positions_max = class_default_positions (r);
  /* Qwen3-VL's text model rotates by image, height and width positions: without mrope_section
   * in rope_scaling, which table vLLM builds is not followed */
  if (g_str_has_prefix (r->family->id, "qwen3_vl") &&
      !(scaling != NULL && JSON_NODE_HOLDS_OBJECT (scaling) &&
        json_object_has_member (json_node_get_object (scaling), "mrope_section")))
    {
      arch->rope_table_kind = VC_ROPE_TABLE_MROPE;
      return TRUE;
    }
  if (positions_max == 0)
    {
      arch->rope_table_kind = VC_ROPE_TABLE_NO_POSITIONS;
      return TRUE;
    }
  if (scaling != NULL && JSON_NODE_HOLDS_OBJECT (scaling))
    {
      o = json_node_get_object (scaling);
      TRY (read_rope_scaling (r, o, &type, &factor, &original, error));
      if (json_object_has_member (o, "mrope_section"))
        {
          /* vLLM's get_rope builds an MRotaryEmbedding for the default rope type with
           * mrope_section, whose table has max_position_embeddings × 4 rows ("In Qwen2.5-VL, the
           * maximum index value is related to the duration of the input video":
           * rotary_embedding/mrope.py, cache_max_position_num); other types are not followed */
          arch->rope_table_kind = VC_ROPE_TABLE_MROPE;
          if ((type == NULL || g_str_equal (type, "default")) && json_object_get_member (o, "factor") == NULL &&
              positions_max * 4 <= field_max ("rope-table-rows"))
            arch->rope_table_rows = (guint) (positions_max * 4);
          return TRUE;
        }
    }
  if (original == 0)
    TRY (opt_uint (r, "original_max_position_embeddings", NULL, 0, 0, 0, G_MAXINT32, &original, error));
  if (is_gemma3)
    {
      /* the sliding layers' table beside the global layers' */
      local = arch->sliding_window > 0 && arch->sliding_window_layers > 0;
      global = arch->sliding_window_layers < vc_arch_attention_layers (arch);
    }

  if (!rope_rows (type, o, positions_max, original, factor, &rows, &kind))
    {
      arch->rope_table_kind = kind;
      return TRUE;
    }
  arch->rope_table_kind = kind;
  rows = (global ? rows : 0) + (local ? positions_max : 0);
  if (rows > field_max ("rope-table-rows"))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the rotary table the rope scaling gives (%.0f positions) is beyond %u"),
                   rows, field_max ("rope-table-rows"));
      return FALSE;
    }
  arch->rope_table_rows = (guint) rows;
  return TRUE;
}

/* The families whose checkpoints follow the wrapper's tie_word_embeddings where text_config has
 * none: Qwen3-VL-30B-A3B's config.json says false at the top only (its checkpoint has an
 * lm_head), where Qwen3VLMoeTextConfig's default is true. */
static gboolean
wrapper_ties (const Family *family)
{
  return g_str_equal (family->id, "qwen3_vl_text") || g_str_equal (family->id, "qwen3_vl_moe_text");
}

/* The tied head, layer_types, the context, and the shapes that must agree. */
static gboolean
read_common (Reader   *r,
             VcArch   *arch,
             GError  **error)
{
  gboolean tied = r->family->tied, sliding_given = FALSE;
  guint n_sliding = 0, n_linear = 0, pattern = 0;

  TRY (read_context (r, arch, error));
  if (r->wrapper != NULL && member (r, "tie_word_embeddings") == NULL && wrapper_ties (r->family))
    {
      /* Qwen3-VL: the wrapper's tie_word_embeddings where the text model's config has none */
      Reader w = *r;

      w.object = r->wrapper;
      w.prefix = "";
      w.nested = FALSE;
      TRY (opt_bool (&w, "tie_word_embeddings", r->family->tied, &tied, error));
    }
  else
    TRY (opt_bool (r, "tie_word_embeddings", r->family->tied, &tied, error));
  arch->tied_embeddings = tied;
  TRY (read_layer_types (r, arch->n_layers, &sliding_given, &n_sliding, &n_linear, &pattern, error));
  if (sliding_given)
    {
      arch->sliding_window_layers = arch->sliding_window > 0 ? n_sliding : 0;
      arch->sliding_window_pattern = arch->sliding_window > 0 && n_sliding < arch->n_layers ? pattern : 0;
    }
  if (sliding_given && r->recurrent_type)
    {
      arch->recurrent_layers = n_linear;
      layer_types_attention_pattern (r, arch);
    }
  TRY (read_rope_table (r, arch, error));
  if (vc_arch_is_mla (arch))
    return TRUE;
  if (arch->head_dim == 0 && arch->hidden_size % arch->n_heads != 0)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("\"%shidden_size\" (%u) is not a multiple of the number of attention heads (%u), "
                     "and no \"head_dim\" is given"),
                   r->prefix, arch->hidden_size, arch->n_heads);
      return FALSE;
    }
  if (arch->n_heads % arch->n_kv_heads != 0)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("the number of attention heads (%u) is not a multiple of \"%snum_key_value_heads\" (%u)"),
                   arch->n_heads, r->prefix, arch->n_kv_heads);
      return FALSE;
    }
  return TRUE;
}

/* Keys that change what a model holds in memory: its shape, its experts, its attention and what
 * it caches, a state kept per sequence. When a family's reader does not read one of them and the
 * file gives it a value (other than null, false, 0 or an empty list), the estimate would not be
 * exact: the key is named as not understood. Keys of training, routing, rotary scaling and
 * token ids change nothing in memory and are not listed. */
static const char *const memory_keys[] = {
  /* shape */
  "num_key_value_heads", "num_kv_heads", "head_dim", "intermediate_size", "n_inner",
  "ffn_hidden_size", "intermediate_size_mlp", "attention_bias", "mlp_bias", "qkv_bias", "bias",
  "use_qk_norm", "multi_query", "new_decoder_architecture", "num_ln_in_parallel_attn",
  /* experts */
  "num_experts", "num_local_experts", "n_routed_experts", "num_experts_per_tok",
  "moe_intermediate_size", "n_shared_experts", "num_shared_experts", "shared_expert_intermediate_size",
  "first_k_dense_replace", "moe_layer_freq", "decoder_sparse_step", "mlp_only_layers",
  "mlp_layer_types", "interleave_moe_layer_step", "moe_layers", "expert_layer_period",
  "expert_layer_offset", "num_nextn_predict_layers",
  /* multi-head latent attention, and DeepSeek's sparse attention indexer */
  "q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim",
  "index_n_heads", "index_head_dim", "indexer_types",
  /* which layers attend how far */
  "sliding_window", "sliding_window_size", "sliding_window_pattern", "_sliding_window_pattern",
  "use_sliding_window", "max_window_layers", "layer_types", "attention_chunk_size",
  "no_rope_layers", "attn_layer_indices", "attn_layer_period", "attn_layer_offset",
  "full_attention_interval", "global_attn_every_n_layers", "num_kv_shared_layers",
  "layers_block_type", "hybrid_override_pattern",
  /* state-space layers named without a prefix below */
  "ssm_state_size", "ssm_cfg", "expand", "n_groups",
};

/* Prefixes of the keys of state-space (Mamba) and linear-attention layers. */
static const char *const memory_prefixes[] = {
  "mamba", "linear_", "conv_", "d_state", "d_conv", "state_size", "use_mamba",
};

static gboolean
is_memory_key (const char *key)
{
  for (guint i = 0; i < G_N_ELEMENTS (memory_keys); i++)
    if (g_str_equal (memory_keys[i], key))
      return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (memory_prefixes); i++)
    if (g_str_has_prefix (key, memory_prefixes[i]))
      return TRUE;
  return FALSE;
}

/* null, false, 0, "", an empty list or object: says "none" */
static gboolean
is_neutral (JsonNode *node)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_NULL:
      return TRUE;
    case JSON_NODE_ARRAY:
      return json_array_get_length (json_node_get_array (node)) == 0;
    case JSON_NODE_OBJECT:
      return json_object_get_size (json_node_get_object (node)) == 0;
    case JSON_NODE_VALUE:
    default:
      break;
    }
  switch (json_node_get_value_type (node))
    {
    case G_TYPE_BOOLEAN:
      return !json_node_get_boolean (node);
    case G_TYPE_INT64:
      return json_node_get_int (node) == 0;
    case G_TYPE_DOUBLE:
      return json_node_get_double (node) == 0;
    case G_TYPE_STRING:
      return *json_node_get_string (node) == '\0';
    default:
      return FALSE;
    }
}

/* The memory keys of the config read that its family's reader left unread. */
static void
find_unread_keys (Reader *r)
{
  g_autoptr(GList) keys = json_object_get_members (r->object);

  keys = g_list_sort (keys, (GCompareFunc) g_strcmp0);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      const char *key = l->data;

      if (is_memory_key (key) && !g_hash_table_contains (r->read, key) &&
          !is_neutral (json_object_get_member (r->object, key)))
        {
          g_autofree char *part = g_strconcat (r->prefix, key, NULL);
          not_understood (r, part);
        }
    }
}

/* The family a remote_types[] model_type names with the file's one architecture, else the
 * model_type itself. */
static const char *
remote_type_family (JsonObject *root,
                    const char *model_type)
{
  JsonNode *node = json_object_get_member (root, "architectures");
  JsonArray *list;
  const char *architecture;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return model_type;
  list = json_node_get_array (node);
  if (json_array_get_length (list) != 1 ||
      json_node_get_value_type (json_array_get_element (list, 0)) != G_TYPE_STRING)
    return model_type;
  architecture = json_array_get_string_element (list, 0);
  for (guint i = 0; i < G_N_ELEMENTS (remote_types); i++)
    if (g_strcmp0 (remote_types[i].model_type, model_type) == 0 &&
        g_strcmp0 (remote_types[i].architecture, architecture) == 0)
      return remote_types[i].family;
  return model_type;
}

static const Family *
family_for (const char *model_type)
{
  for (guint i = 0; i < G_N_ELEMENTS (aliases); i++)
    if (g_strcmp0 (aliases[i].model_type, model_type) == 0)
      model_type = aliases[i].family;
  for (guint i = 0; i < G_N_ELEMENTS (families); i++)
    if (g_strcmp0 (families[i].id, model_type) == 0)
      return &families[i];
  return &llama_way;
}

/* ---- loading ------------------------------------------------------------------------------- */

static char *
name_from_hub_id (const char *id)
{
  g_autofree char *trimmed = g_strdup (id);
  const char *slash;

  g_strstrip (trimmed);
  while (g_str_has_suffix (trimmed, "/"))
    trimmed[strlen (trimmed) - 1] = '\0';
  slash = strrchr (trimmed, '/');
  return g_strdup (slash ? slash + 1 : trimmed);
}

static gboolean
is_true (JsonObject *object,
         const char *key)
{
  JsonNode *node = json_object_get_member (object, key);

  return node != NULL && JSON_NODE_TYPE (node) == JSON_NODE_VALUE &&
         json_node_get_value_type (node) == G_TYPE_BOOLEAN && json_node_get_boolean (node);
}


static gboolean
known_family (VcHfConfig *self)
{
  return self->family != &llama_way;
}

static char *
join_parts (VcHfConfig *self)
{
  g_autoptr(GString) s = g_string_new (NULL);

  for (guint i = 0; i < self->not_understood->len && self->not_understood->pdata[i]; i++)
    g_string_append_printf (s, "%s%s", i ? ", " : "", (const char *) self->not_understood->pdata[i]);
  return g_string_free (g_steal_pointer (&s), FALSE);
}

static void
build_texts (VcHfConfig *self)
{
  g_autoptr(GString) d = g_string_new (NULL);
  g_autoptr(GString) w = g_string_new (NULL);
  g_autofree char *total = g_strdup_printf ("%'.0f", self->counts.total);
  const VcArch *a = &self->arch;

  if (known_family (self))
    g_string_append_printf (d, _("%s architecture (model_type “%s”): %s parameters"),
                            self->family->name,
                            self->text_only ? self->text_model_type : self->model_type, total);
  else
    g_string_append_printf (d, _("Estimated as a Llama-style model: %s parameters"), total);
  if (vc_arch_is_moe (a))
    {
      g_autofree char *active = g_strdup_printf ("%'.0f", self->counts.active);
      g_string_append_printf (d, _(", %s activated per token (%u of %u experts)"),
                              active, a->experts_per_token, a->n_experts);
    }
  g_string_append (d, ".");
  if (a->sliding_window > 0 && a->sliding_window_layers > 0 && g_str_equal (self->family->id, "llama4_text"))
    {
      g_string_append_c (d, '\n');
      g_string_append_printf (d, _("%u of %u layers attend within chunks of %u tokens (chunked attention), "
                                   "the other %u, without rotary positions, to the whole context."),
                              a->sliding_window_layers, a->n_layers, a->sliding_window,
                              vc_arch_attention_layers (a) - a->sliding_window_layers);
    }
  else if (a->sliding_window > 0 && a->sliding_window_layers > 0)
    {
      g_string_append_c (d, '\n');
      g_string_append_printf (d, _("%u of %u layers attend to a window of %u tokens."),
                              a->sliding_window_layers, a->n_layers, a->sliding_window);
    }
  if (self->encoder_counted)
    {
      g_autofree char *encoder = g_strdup_printf ("%'u", a->encoder_params);

      g_string_append_c (d, '\n');
      g_string_append_printf (d, _("Multimodal model (“%s”): its vision encoder and projector are counted, "
                                   "%s parameters."), self->model_type, encoder);
    }
  if (self->max_context > 0)
    {
      g_autofree char *tokens = g_strdup_printf ("%'u", self->max_context);

      g_string_append_c (d, '\n');
      if (self->rope_scaling != NULL)
        g_string_append_printf (d, _("Maximum context: %s tokens (rope scaling %s)."), tokens, self->rope_scaling);
      else
        g_string_append_printf (d, _("Maximum context: %s tokens."), tokens);
    }
  if (self->mtp_layers > 0)
    {
      g_string_append_c (d, '\n');
      g_string_append_printf (d, _("The multi-token prediction module (%u layer) is not counted: "
                                   "inference does not load it."), self->mtp_layers);
    }

  if (self->not_understood->len > 0)
    {
      g_autofree char *parts = join_parts (self);

      if (w->len)
        g_string_append_c (w, '\n');
      g_string_append_printf (w, _("Approximate: not understood, so left out or estimated the Llama way: %s."),
                              parts);
    }
  if (self->text_only)
    {
      if (w->len)
        g_string_append_c (w, '\n');
      g_string_append_printf (w, _("Multimodal model (“%s”): only its text model is counted, "
                                   "not the vision or audio encoder."), self->model_type);
    }
  self->description = g_string_free (g_steal_pointer (&d), FALSE);
  self->warning = w->len ? g_string_free (g_steal_pointer (&w), FALSE) : NULL;
}

/* The JSON object of data, checked to be a config.json's; NULL with error otherwise. Through
 * the one guarded way in: size, UTF-8, nesting depth, a single value; the integers beyond 64
 * bits (which json-glib would wrap around) are listed in huge. */
static JsonNode *
parse_config (const char   *data,
              gsize         length,
              const char   *file_name,
              GHashTable  **huge,
              GError      **error)
{
  g_autoptr(JsonNode) root = vc_json_input_parse (data, length, file_name, _("a config.json"), huge, error);

  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("%s does not hold a JSON object with the model's settings"), file_name);
      return NULL;
    }
  return g_steal_pointer (&root);
}

/* text_config: a multimodal wrapper's text model, which is what is read. */
static gboolean
read_text_config (VcHfConfig  *self,
                  Reader      *r,
                  JsonNode    *text_node,
                  const char **dtype,
                  GError     **error)
{
  const char *text_type = NULL, *text_dtype = NULL;
  JsonObject *object;

  if (!JSON_NODE_HOLDS_OBJECT (text_node))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"text_config\" must be an object with the text model's settings"));
      return FALSE;
    }
  object = json_node_get_object (text_node);
  TRY (opt_string (object, "text_config.", "model_type", &text_type, error));
  TRY (opt_string (object, "text_config.", "torch_dtype", &text_dtype, error));
  if (text_type == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (wrappers); i++)
      if (g_strcmp0 (wrappers[i].wrapper, self->model_type) == 0)
        text_type = wrappers[i].text_model_type;
  self->text_model_type = g_strdup (text_type ? text_type : "");
  self->text_only = TRUE;
  if (text_dtype)
    *dtype = text_dtype;
  r->object = object;
  r->prefix = "text_config.";
  r->nested = TRUE;
  return TRUE;
}

/* quantization_config: the stored precision (quant_method, bits, load_in_4bit/8bit). How the
 * checkpoint's quantized weights are sized is not known here: a quantization_config is not
 * understood, unless it quantizes nothing (bitsandbytes with neither 4- nor 8-bit loading). */
static gboolean
read_quantization (VcHfConfig  *self,
                   Reader      *r,
                   JsonObject  *root,
                   GError     **error)
{
  JsonNode *q = json_object_get_member (root, "quantization_config");
  JsonObject *qo;
  JsonNode *bits;
  const char *method = NULL;
  g_autoptr(GError) unsized = NULL;

  if (q == NULL || !JSON_NODE_HOLDS_OBJECT (q))
    return TRUE;
  qo = json_node_get_object (q);
  bits = json_object_get_member (qo, "bits");
  TRY (opt_string (qo, "quantization_config.", "quant_method", &method, error));
  self->quant_method = g_strdup (method);
  if (bits && JSON_NODE_TYPE (bits) == JSON_NODE_VALUE && json_node_get_value_type (bits) == G_TYPE_INT64)
    self->quant_bits = (guint) CLAMP (json_node_get_int (bits), 0, 64);
  if (is_true (qo, "load_in_4bit"))
    self->quant_bits = 4;
  else if (is_true (qo, "load_in_8bit"))
    self->quant_bits = 8;
  if (json_object_get_size (qo) == 0 ||
      (self->quant_bits == 0 && bits == NULL && (method == NULL || g_str_equal (method, "bitsandbytes"))))
    return TRUE;
  /* what vc-quant.c can size is understood; what it cannot, it names */
  if (vc_quant_config_check (qo, NULL, &unsized))
    return TRUE;
  if (unsized != NULL)
    {
      not_understood (r, unsized->message);
      return TRUE;
    }
  if (method != NULL)
    {
      g_autofree char *part = g_strdup_printf ("quantization_config (quant_method “%s”)", method);
      not_understood (r, part);
    }
  else
    not_understood (r, "quantization_config");
  return TRUE;
}

/* The encoders read with their language model: the family, the wrapper's model_type and the
 * vision_config's where the family's text model comes with other encoders too (NULL: any), and
 * how its vision_config is counted. A Mistral text model under llava_next has a CLIP tower,
 * which stays uncounted. */
static const struct
{
  const char *family;
  const char *wrapper;
  const char *vision;
  FamilyRead read;
} encoders[] = {
  { "gemma3", NULL, NULL, read_gemma3_vision },
  { "llama4_text", NULL, NULL, read_llama4_vision },
  { "qwen3_vl_text", NULL, NULL, read_qwen3_vl_vision },
  { "qwen3_vl_moe_text", NULL, NULL, read_qwen3_vl_vision },
  { "mistral", "mistral3", "pixtral", read_pixtral_vision },
};

/* Llama 4's tower pass in vLLM's profile run, releases 0.10 to 0.20 (vc-engine-mm.c,
 * llama4_token_values, llama4_followed), kept as encoder-intermediate where what runs before and
 * after the encoder layers stays below their peak, at least 5h values a token at any TP (vLLM
 * mllama4.py at commit 00dd549, Llama4VisionModel.forward, the same forward through 0.20;
 * FORMULAS.md, "The Llama 4 tower's pass"): the adapter's fc1 takes
 * intermediate_size inputs, the pixel shuffle's rows h × ds wide, and the projector the adapter's
 * output (vision_output_dim = projector_output_dim), else the model does not run; the patch
 * embedding (the unfolded patch, C × p², the ColumnParallelLinear's share and its gathered copy
 * and reshape, 2h) at most 5h, so C × p² ≤ 2h; the adapter (post-LayerNorm's h a token, the
 * shuffled h a patch, fc1's and GELU's projector_input_dim / TP, fc2's, its all-reduce's and
 * GELU's projector_output_dim, an embedding of ds patches) so 2 (in + out) ≤ 3h × ds; the
 * projector (the adapter's output, linear_1's share, the gather's buffer and reshape, the text
 * width H each) so out + 3H ≤ 5h × ds */
static gboolean
keep_llama4_pass (VcHfConfig  *self,
                  Reader      *r,
                  guint        unfolded,
                  guint        ds,
                  GError     **error)
{
  VcArch *a = &self->arch;
  guint inter = 5632, proj_in = 4096, proj_out = 4096, out = 4096;
  guint64 h = a->encoder_width, text = a->hidden_size;

  TRY (need_uint (r, "intermediate_size", NULL, inter, 1, field_max ("intermediate-size"), &inter, error));
  TRY (need_uint (r, "projector_input_dim", NULL, proj_in, 1, field_max ("hidden-size"), &proj_in, error));
  TRY (need_uint (r, "projector_output_dim", NULL, proj_out, 1, field_max ("hidden-size"), &proj_out, error));
  TRY (need_uint (r, "vision_output_dim", NULL, out, 1, field_max ("hidden-size"), &out, error));
  a->encoder_intermediate = 0;
  if (h == 0 || (guint64) inter != h * ds || out != proj_out || unfolded > 2 * h ||
      2 * ((guint64) proj_in + proj_out) > 3 * h * ds || (guint64) proj_out + 3 * text > 5 * h * ds)
    return TRUE;
  a->encoder_intermediate = inter;
  return TRUE;
}

/* Llama 4's tile shape, kept for its preprocessor_config.json (vc_hf_config_read_preprocessor):
 * read_llama4_vision checked image_size, patch_size and num_channels; pixel_shuffle_ratio
 * (Llama4VisionConfig's default 0.5) must leave a whole downsampling that divides a tile's
 * patches (vLLM mllama4.py, Mllama4ProcessingInfo.get_patch_per_chunk) */
static gboolean
keep_llama4_tiles (VcHfConfig  *self,
                   Reader      *r,
                   GError     **error)
{
  JsonNode *node = member (r, "pixel_shuffle_ratio");
  double ratio = 0.5, ds;
  guint side = 336, patch = 14, channels = 3;

  TRY (need_uint (r, "image_size", NULL, side, 1, 100000, &side, error));
  TRY (need_uint (r, "patch_size", NULL, patch, 1, side, &patch, error));
  TRY (opt_uint (r, "num_channels", NULL, 3, 3, 1, 64, &channels, error));
  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      (json_node_get_value_type (node) == G_TYPE_DOUBLE || json_node_get_value_type (node) == G_TYPE_INT64))
    ratio = json_node_get_double (node);
  else if (node != NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%spixel_shuffle_ratio\" must be a number above 0 and at most 1"), r->prefix);
      return FALSE;
    }
  if (!(ratio > 0 && ratio <= 1))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("\"%spixel_shuffle_ratio\" must be a number above 0 and at most 1"), r->prefix);
      return FALSE;
    }
  ds = round (1.0 / (ratio * ratio));
  self->tile_side = self->tile_patch = self->tile_shuffle = self->tile_channels = 0;
  if (side % patch != 0 || ds > 1e6 || ((guint64) (side / patch) * (side / patch)) % (guint64) ds != 0)
    return TRUE;
  self->tile_side = side;
  self->tile_patch = patch;
  self->tile_shuffle = (guint) ds;
  self->tile_channels = channels;
  self->arch.encoder_tower = VC_ENCODER_TOWER_LLAMA4;
  return keep_llama4_pass (self, r, channels * patch * patch, (guint) ds, error);
}

/* Qwen3-VL's patch shape, kept for its processor files (vc_hf_config_read_preprocessor):
 * read_qwen3_vl_vision checked the keys */
static gboolean
keep_qwen3_vl_patches (VcHfConfig  *self,
                       Reader      *r,
                       GError     **error)
{
  TRY (need_uint (r, "patch_size", NULL, 16, 1, 1024, &self->qv_patch, error));
  TRY (need_uint (r, "spatial_merge_size", NULL, 2, 1, 64, &self->qv_merge, error));
  TRY (need_uint (r, "temporal_patch_size", NULL, 2, 1, 64, &self->qv_temporal, error));
  return need_uint (r, "in_channels", NULL, 3, 1, 64, &self->qv_channels, error);
}

/* A multimodal wrapper's vision_config, counted when its family's encoder is known; else only
 * the text model is, and the warning says so. */
static gboolean
read_encoder (VcHfConfig  *self,
              Reader      *text,
              JsonObject  *root,
              GError     **error)
{
  JsonNode *node = json_object_get_member (root, "vision_config");
  g_autoptr(GHashTable) read = NULL;
  const char *vision_type = NULL;
  Reader r;

  if (!self->text_only || node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return TRUE;
  TRY (opt_string (json_node_get_object (node), "vision_config.", "model_type", &vision_type, error));
  for (guint i = 0; i < G_N_ELEMENTS (encoders); i++)
    if (g_str_equal (encoders[i].family, self->family->id) &&
        (encoders[i].wrapper == NULL || g_strcmp0 (encoders[i].wrapper, self->model_type) == 0) &&
        (encoders[i].vision == NULL || g_strcmp0 (encoders[i].vision, vision_type) == 0))
      {
        read = g_hash_table_new (g_str_hash, g_str_equal);
        r = (Reader) { .prefix = "vision_config.", .object = json_node_get_object (node), .huge = text->huge,
                       .read = read, .not_understood = text->not_understood, .family = self->family,
                       .wrapper = root };
        TRY (encoders[i].read (&r, &self->arch, error));
        self->text_only = FALSE;
        self->encoder_counted = TRUE;
        if (g_str_equal (self->family->id, "llama4_text"))
          TRY (keep_llama4_tiles (self, &r, error));
        if (g_str_has_prefix (self->family->id, "qwen3_vl") && self->arch.encoder_patch_held > 0)
          TRY (keep_qwen3_vl_patches (self, &r, error));
      }
  return TRUE;
}

/* Models whose SGLang class runs on one pipeline stage only (VcArch.sglang_one_stage): in the
 * stored versions read, the class's forward takes no pp_proxy_tensors, and SGLang's model runner
 * asserts it does at PP > 1 ("Pipeline Parallel is not compatible with this model.",
 * python/sglang/srt/model_executor/model_runner.py, ModelRunner.__init__). By family, for a
 * config of the family's own model_type (python/sglang/srt/models/): GPT2LMHeadModel (gpt2.py,
 * commit 00b08c4), GPTBigCodeForCausalLM (gpt_bigcode.py, 0b295e5), FalconForCausalLM (falcon.py,
 * 0bf4c98), GemmaForCausalLM (gemma.py, 01925ca), Gemma2ForCausalLM (gemma2.py, 00b08c4),
 * Gemma3ForCausalLM (gemma3_causal.py, 038c87d: **kwargs only), GraniteForCausalLM (granite.py, 0b8c97e), GraniteMoeForCausalLM
 * (granitemoe.py, 0ba3cdd), Ernie4_5_ForCausalLM and Ernie4_5_MoeForCausalLM (ernie4.py,
 * 008b79d), HunYuanMoEV1ForCausalLM and HunYuanDenseV1ForCausalLM (hunyuan.py, 0818561); by
 * multimodal wrapper: Gemma3ForConditionalGeneration (gemma3_mm.py, 017f5d4: **kwargs only).
 * Other wrappers' classes (PaliGemma's around Gemma) were not read. */
static const char *const sglang_one_stage_families[] = {
  "gpt2", "gpt_bigcode", "falcon", "gemma", "gemma2", "gemma3", "granite", "granitemoe", "ernie4_5",
  "ernie4_5_moe", "hunyuan_v1_dense", "hunyuan_v1_moe",
};
static const char *const sglang_one_stage_wrappers[] = { "gemma3", NULL };

static gboolean
sglang_one_stage_class (const VcHfConfig *self,
                        const Reader     *r)
{
  if (r->wrapper != NULL)
    return g_strv_contains ((const char *const *) sglang_one_stage_wrappers, self->model_type);
  for (guint i = 0; i < G_N_ELEMENTS (sglang_one_stage_families); i++)
    if (g_str_equal (r->family->id, sglang_one_stage_families[i]))
      return TRUE;
  return FALSE;
}

/* Everything the config says about the model, into self; errors name keys, not the file. */
static gboolean
read_config (VcHfConfig   *self,
             JsonObject   *root,
             GHashTable   *huge,
             const char  **name_or_path,
             GError      **error)
{
  g_autoptr(GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);
  Reader r = { .prefix = "", .object = root, .huge = huge, .read = read, .not_understood = self->not_understood };
  const char *model_type = NULL, *dtype = NULL, *type;
  JsonNode *text_node;
  gboolean ok;

  TRY (opt_string (root, "", "model_type", &model_type, error));
  self->model_type = g_strdup (model_type ? model_type : "");
  TRY (opt_string (root, "", "torch_dtype", &dtype, error));
  if (dtype == NULL)
    TRY (opt_string (root, "", "dtype", &dtype, error));
  TRY (opt_string (root, "", "_name_or_path", name_or_path, error));

  text_node = json_object_get_member (root, "text_config");
  if (text_node != NULL && !JSON_NODE_HOLDS_NULL (text_node))
    {
      TRY (read_text_config (self, &r, text_node, &dtype, error));
      r.wrapper = root;
    }
  type = self->text_only ? self->text_model_type : remote_type_family (root, self->model_type);
  self->family = family_for (type);
  if (self->family == &llama_way)
    {
      g_autofree char *part = *type ? g_strdup_printf ("%smodel_type “%s”", r.prefix, type)
                                    : g_strdup_printf ("%smodel_type", r.prefix);
      not_understood (&r, part);
    }
  self->torch_dtype = g_strdup (dtype);
  TRY (read_quantization (self, &r, root, error));

  r.family = self->family;
  memset (&self->arch, 0, sizeof self->arch);
  TRY (self->family->read (&r, &self->arch, error));
  if (sglang_one_stage_class (self, &r))
    self->arch.sglang_one_stage = TRUE;
  ok = read_common (&r, &self->arch, error);
  /* read_common reads the context first: what it found is kept, also when it fails later */
  self->rope_scaling = g_steal_pointer (&r.rope_scaling);
  if (!ok)
    return FALSE;
  find_unread_keys (&r);
  TRY (read_encoder (self, &r, root, error));
  self->mtp_layers = r.mtp_layers;
  self->max_context = self->arch.max_context;
  return vc_arch_validate (&self->arch, error);
}

/* The name shown: the caller's, else the Hub id's last part in _name_or_path, else the
 * model_type or the file's name. */
static void
set_name (VcHfConfig *self,
          const char *display_name,
          const char *name_or_path,
          const char *file_name)
{
  if (display_name && *display_name)
    self->name = g_strdup (display_name);
  else if (name_or_path && *name_or_path)
    {
      /* "org/name" names the model; a path names the machine that saved it */
      g_auto(GStrv) parts = g_strsplit (name_or_path, "/", -1);

      self->name = name_from_hub_id (name_or_path);
      self->hub_name = g_strv_length (parts) == 2 && *parts[0] && *parts[1] && parts[0][0] != '.';
    }
  else
    self->name = g_strdup (*self->model_type ? self->model_type : file_name);
}

VcHfConfig *
vc_hf_config_new_from_data (const char  *data,
                            gsize        length,
                            const char  *file_name,
                            const char  *display_name,
                            GError     **error)
{
  g_autoptr(VcHfConfig) self = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) huge = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *name_or_path = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (file_name == NULL)
    file_name = "config.json";
  root = parse_config (data, length, file_name, &huge, error);
  if (root == NULL)
    return NULL;

  self = g_object_new (VC_TYPE_HF_CONFIG, NULL);
  self->file_name = g_strdup (file_name);
  self->not_understood = g_ptr_array_new_with_free_func (g_free);
  if (!read_config (self, json_node_get_object (root), huge, &name_or_path, &local_error))
    {
      /* TRANSLATORS: the file's name in front of what is wrong in it */
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error), _("%s: "), file_name);
      return NULL;
    }
  vc_arch_count_params (&self->arch, &self->counts);
  /* each key within its range can still multiply into a model no estimate accepts */
  if (!(self->counts.total <= VC_MAX_PARAMETERS))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_TOO_LARGE,
                   _("%s describes a model of %.3g parameters; accepted: up to %.0e"),
                   file_name, self->counts.total, VC_MAX_PARAMETERS);
      return NULL;
    }
  set_name (self, display_name, name_or_path, file_name);
  build_texts (self);
  g_ptr_array_add (self->not_understood, NULL);
  return g_steal_pointer (&self);
}

/* Llama 4's dummy image in vLLM's profile run from its processor's max_patches P (vLLM
 * mllama4.py, Mllama4ProcessingInfo: get_max_num_tiles is the image processor's max_patches,
 * get_image_size_with_most_features P tiles high and one wide, "h:w = 16:1"): the processor's best
 * fit for it is P × 1 tiles, one more global tile when P > 1 (Mllama4MultiModalProcessor:
 * patches_per_image); each tile (image_size / patch_size)² patches, k = that // round(1 /
 * pixel_shuffle_ratio²) embeddings (get_patch_per_chunk); the placeholder (transformers
 * Llama4Processor._prompt_split_image) <|image_start|>, per row k <|patch|> and
 * <|tile_y_separator|>, then <|image|>, k <|patch|>, <|image_end|>: P(k + 1) + k + 3 tokens,
 * k + 3 for one tile; Mllama4ProcessingInfo defines no get_mm_max_tokens_per_item, so the
 * encoder budget counts them all until release 0.14, which counts the (P + 1)k embeddings
 * (PromptUpdateDetails.select_text marks the <|patch|> tokens; vc-engine-mm.c,
 * vc_engine_mm_vllm_item_tokens). */
static gboolean
llama4_vllm_image (VcHfConfig  *self,
                   guint        max_patches,
                   GError     **error)
{
  VcArch *a = &self->arch;
  guint64 grid = (guint64) (self->tile_side / self->tile_patch) * (self->tile_side / self->tile_patch);
  guint64 k = grid / self->tile_shuffle, tiles = max_patches > 1 ? max_patches + 1u : 1u;
  guint64 tokens = max_patches > 1 ? (guint64) max_patches * (k + 1) + k + 3 : k + 3;
  guint64 pixels = tiles * self->tile_channels * self->tile_side * self->tile_side;

  if (tiles * grid > G_MAXUINT32 || pixels > 2000000000 || tokens > 100000000)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_TOO_LARGE,
                   _("\"max_patches\" (%u) makes an image of more patches or tokens than are accepted"),
                   max_patches);
      return FALSE;
    }
  a->encoder_patches = (guint) (tiles * grid);
  a->encoder_pixel_values = (guint) pixels;
  a->encoder_image_embeds = (guint) (tiles * k);
  a->encoder_image_tokens = (guint) tokens;
  return TRUE;
}

/* transformers' smart_resize (image_processing_qwen2_vl.py; video_processing_qwen3_vl.py with
 * frames > 1, its budget over t_bar frames rounded to the temporal factor) of a square of side
 * `side`, as Python computes it in doubles: the side both edges are resized to */
static double
qwen3_vl_resize (double side,
                 double frames,
                 double temporal,
                 double factor,
                 double min_pixels,
                 double max_pixels)
{
  double bar = nearbyint (side / factor) * factor;
  double t_bar = frames > 1 ? nearbyint (frames / temporal) * temporal : 1;
  double area = (frames > 1 ? frames : 1) * side * side, beta;

  if (t_bar * bar * bar > max_pixels)
    {
      beta = sqrt (area / max_pixels);
      return MAX (factor, floor (side / beta / factor) * factor);
    }
  if (t_bar * bar * bar < min_pixels)
    {
      beta = sqrt (min_pixels / area);
      return ceil (side * beta / factor) * factor;
    }
  return bar;
}

/* The most tokens one dummy video gives in vLLM's profile from 0.13 on (qwen3_vl.py at commit
 * 4f5768c: Qwen3VLProcessingInfo._get_vision_info takes the video processor's size for more
 * than one frame, get_num_frames_with_most_features at most _MAX_FRAMES_PER_VIDEO = 24,576
 * frames of the image's side; one frame takes the image processor's, the image's tokens) */
static guint64
qwen3_vl_video_tokens (VcHfConfig *self,
                       double      min_pixels,
                       double      max_pixels)
{
  double factor = (double) self->qv_patch * self->qv_merge, most = 0;

  for (guint f = 2; f <= 24576; f++)
    {
      double side = qwen3_vl_resize (self->qv_side, f, self->qv_temporal, factor, min_pixels, max_pixels);
      double grid = floor (side / self->qv_patch);
      double t = (f + f % self->qv_temporal) / self->qv_temporal;

      most = MAX (most, floor (MAX (1.0, t) * grid * grid / ((double) self->qv_merge * self->qv_merge)));
    }
  return (guint64) MIN (most, 1e9);
}

/* A Qwen3-VL processor file's size {shortest_edge, longest_edge}, and patch_size, merge_size and
 * temporal_patch_size where given, which must be the vision_config's (vLLM's _get_vision_info
 * takes the vision_config's, the processor lays the pixels out by its own). FALSE, without an
 * error, where the settings are not those followed. */
static gboolean
qwen3_vl_settings (VcHfConfig  *self,
                   Reader      *r,
                   guint       *min_pixels,
                   guint       *max_pixels,
                   gboolean    *known,
                   GError     **error)
{
  JsonNode *size = json_object_get_member (r->object, "size");
  guint patch, merge, temporal, min_alt, max_alt;
  Reader sr;

  *known = FALSE;
  TRY (opt_uint (r, "patch_size", NULL, self->qv_patch, self->qv_patch, 1, 100000, &patch, error));
  TRY (opt_uint (r, "merge_size", NULL, self->qv_merge, self->qv_merge, 1, 100000, &merge, error));
  TRY (opt_uint (r, "temporal_patch_size", NULL, self->qv_temporal, self->qv_temporal, 1, 100000, &temporal, error));
  if (size == NULL || !JSON_NODE_HOLDS_OBJECT (size))
    return TRUE;
  sr = (Reader) { .prefix = "size.", .object = json_node_get_object (size), .read = r->read, .huge = r->huge };
  TRY (need_uint (&sr, "shortest_edge", NULL, 0, 1, 2000000000, min_pixels, error));
  TRY (need_uint (&sr, "longest_edge", NULL, 0, 1, 2000000000, max_pixels, error));
  /* min_pixels and max_pixels beside size: which wins is not followed unless they agree */
  TRY (opt_uint (r, "min_pixels", NULL, *min_pixels, *min_pixels, 1, 2000000000, &min_alt, error));
  TRY (opt_uint (r, "max_pixels", NULL, *max_pixels, *max_pixels, 1, 2000000000, &max_alt, error));
  *known = patch == self->qv_patch && merge == self->qv_merge && temporal == self->qv_temporal &&
           min_alt == *min_pixels && max_alt == *max_pixels && *min_pixels <= *max_pixels;
  return TRUE;
}

/* Qwen3-VL's dummy image in vLLM's profile run (qwen3_vl.py at commit 002d7b9 and 4f5768c,
 * Qwen3VLProcessingInfo._get_vision_info; qwen2_vl.py, Qwen2VLProcessingInfo.
 * get_image_size_with_most_features: a 9,999,999-pixel square resized by smart_resize with the
 * image processor's size, factor patch_size × spatial_merge_size), one frame padded to
 * temporal_patch_size (grid_t 1): (side / patch)² patches, their quarter (merge²) tokens, all of
 * them image_pad tokens (get_mm_max_tokens_per_item), C × temporal × patch² pixel values a patch.
 * From the video processor's file (is_video), the most tokens a dummy video gives. */
static gboolean
qwen3_vl_processor (VcHfConfig  *self,
                    Reader      *r,
                    const char  *file_name,
                    gboolean     is_video,
                    GError     **error)
{
  VcArch *a = &self->arch;
  g_autoptr(GError) local = NULL;
  guint min_pixels = 0, max_pixels = 0;
  double factor = (double) self->qv_patch * self->qv_merge, side, grid, patches, tokens, pixels;
  gboolean known;

  if (!qwen3_vl_settings (self, r, &min_pixels, &max_pixels, &known, &local))
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), _("%s: "), file_name);
      return FALSE;
    }
  if (!known)
    return TRUE;
  if (is_video)
    {
      if (self->qv_side > 0)
        a->encoder_video_tokens = (guint) qwen3_vl_video_tokens (self, min_pixels, max_pixels);
      return TRUE;
    }
  side = qwen3_vl_resize (9999999, 1, self->qv_temporal, factor, min_pixels, max_pixels);
  grid = floor (side / self->qv_patch);
  patches = grid * grid;
  tokens = floor (patches / ((double) self->qv_merge * self->qv_merge));
  pixels = patches * self->qv_channels * self->qv_temporal * self->qv_patch * self->qv_patch;
  if (patches > G_MAXUINT32 || pixels > 2000000000 || tokens > 100000000)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_TOO_LARGE,
                   _("%s: \"longest_edge\" (%u) makes an image of more patches or tokens than are accepted"),
                   file_name, max_pixels);
      return FALSE;
    }
  self->qv_side = (guint) side;
  a->encoder_patches = (guint) patches;
  a->encoder_pixel_values = (guint) pixels;
  a->encoder_image_embeds = a->encoder_image_tokens = (guint) tokens;
  return TRUE;
}

/* A processor file's root object, or NULL with @error set: the file's JSON parsed under the
 * input limits (vc_json_input_parse, @what naming the file in its messages), its oversized
 * members in @huge for the Reader */
static JsonNode *
processor_root (const char  *data,
                gsize        length,
                const char  *file_name,
                const char  *what,
                GHashTable **huge,
                GError     **error)
{
  g_autoptr(JsonNode) root = vc_json_input_parse (data, length, file_name, what, huge, error);

  if (root == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s does not hold a JSON object with the processor's settings"),
                   file_name);
      return NULL;
    }
  return g_steal_pointer (&root);
}

gboolean
vc_hf_config_read_video_preprocessor (VcHfConfig  *self,
                                      const char  *data,
                                      gsize        length,
                                      const char  *file_name,
                                      GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) huge = NULL;
  Reader r = { .prefix = "", .read = read, .nested = TRUE };

  g_return_val_if_fail (VC_IS_HF_CONFIG (self), FALSE);
  root = processor_root (data, length, file_name, _("a video_preprocessor_config.json"), &huge, error);
  r.huge = huge;
  if (root == NULL)
    return FALSE;
  if (self->qv_patch == 0)
    return TRUE;
  r.object = json_node_get_object (root);
  return qwen3_vl_processor (self, &r, file_name, TRUE, error);
}

gboolean
vc_hf_config_read_preprocessor (VcHfConfig  *self,
                                const char  *data,
                                gsize        length,
                                const char  *file_name,
                                GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) read = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) huge = NULL;
  g_autoptr(GError) local = NULL;
  Reader r = { .prefix = "", .read = read, .nested = TRUE };
  guint max_patches = 16, height = 0, width = 0;
  gboolean canvas = FALSE;
  JsonNode *size;

  g_return_val_if_fail (VC_IS_HF_CONFIG (self), FALSE);
  root = processor_root (data, length, file_name, _("a preprocessor_config.json"), &huge, error);
  r.huge = huge;
  if (root == NULL)
    return FALSE;
  r.object = json_node_get_object (root);
  if (self->qv_patch > 0)
    return qwen3_vl_processor (self, &r, file_name, FALSE, error);
  if (self->tile_side == 0)
    return TRUE;
  size = json_object_get_member (r.object, "size");
  /* Llama4ImageProcessorFast: max_patches 16 and resize_to_max_canvas false by default; a tile
   * size other than the tower's would resize every tile, which is not followed */
  if (!opt_uint (&r, "max_patches", NULL, 16, 16, 1, 1024, &max_patches, &local) ||
      !opt_bool (&r, "resize_to_max_canvas", FALSE, &canvas, &local))
    {
      g_propagate_prefixed_error (error, g_steal_pointer (&local), _("%s: "), file_name);
      return FALSE;
    }
  if (size != NULL && JSON_NODE_HOLDS_OBJECT (size))
    {
      Reader sr = { .prefix = "size.", .object = json_node_get_object (size), .read = read, .huge = huge,
                    .nested = TRUE };

      if (!opt_uint (&sr, "height", NULL, 0, 0, 0, 1000000, &height, &local) ||
          !opt_uint (&sr, "width", NULL, 0, 0, 0, 1000000, &width, &local))
        {
          g_propagate_prefixed_error (error, g_steal_pointer (&local), _("%s: "), file_name);
          return FALSE;
        }
    }
  if ((size != NULL && (height != self->tile_side || width != self->tile_side)) || canvas)
    return TRUE;
  return llama4_vllm_image (self, max_patches, error);
}

/* The name a person knows the model by, from where its config.json lies: the Hugging Face
 * cache (models--org--name/snapshots/<hash>/config.json), a folder named after the model, or
 * a file named after it. NULL when the file's place says nothing. */
static char *
name_from_location (GFile *file)
{
  g_autofree char *base = g_file_get_basename (file);
  g_autoptr(GFile) parent = g_file_get_parent (file);
  g_autofree char *parent_name = parent ? g_file_get_basename (parent) : NULL;

  if (base == NULL)
    return NULL;
  if (g_strcmp0 (base, "config.json") != 0)
    {
      if (g_str_has_suffix (base, ".json"))
        base[strlen (base) - 5] = '\0';
      return g_steal_pointer (&base);
    }
  if (parent_name == NULL || g_str_equal (parent_name, "/") || g_str_equal (parent_name, "."))
    return NULL;
  if (parent)
    {
      g_autoptr(GFile) snapshots = g_file_get_parent (parent);
      g_autoptr(GFile) repo = snapshots ? g_file_get_parent (snapshots) : NULL;
      g_autofree char *snapshots_name = snapshots ? g_file_get_basename (snapshots) : NULL;
      g_autofree char *repo_name = repo ? g_file_get_basename (repo) : NULL;

      if (g_strcmp0 (snapshots_name, "snapshots") == 0 && repo_name && g_str_has_prefix (repo_name, "models--"))
        {
          const char *last = g_strrstr (repo_name, "--");
          return g_strdup (last + 2);
        }
    }
  return g_steal_pointer (&parent_name);
}

/* The processor's settings beside a config.json (preprocessor_config.json in its folder), read
 * where the model's images depend on them (Llama 4's tiles); none there leaves them unknown */
static gboolean
read_preprocessor_beside (VcHfConfig    *self,
                          GFile         *config,
                          GCancellable  *cancellable,
                          GError       **error)
{
  g_autoptr(GFile) parent = g_file_get_parent (config);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GBytes) bytes = NULL;
  const char *data;
  gsize length;

  if ((self->tile_side == 0 && self->qv_patch == 0) || parent == NULL)
    return TRUE;
  file = g_file_get_child (parent, "preprocessor_config.json");
  if (!g_file_query_exists (file, cancellable))
    return TRUE;
  bytes = vc_json_input_read_file (file, "preprocessor_config.json", _("a preprocessor_config.json"), cancellable, error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &length);
  if (!vc_hf_config_read_preprocessor (self, data ? data : "", length, "preprocessor_config.json", error))
    return FALSE;
  if (self->qv_patch == 0)
    return TRUE;
  /* Qwen3-VL's video processor, whose dummy video vLLM's profile weighs against the image */
  g_clear_object (&file);
  g_clear_pointer (&bytes, g_bytes_unref);
  file = g_file_get_child (parent, "video_preprocessor_config.json");
  if (!g_file_query_exists (file, cancellable))
    return TRUE;
  bytes = vc_json_input_read_file (file, "video_preprocessor_config.json", _("a video_preprocessor_config.json"),
                                   cancellable, error);
  if (bytes == NULL)
    return FALSE;
  data = g_bytes_get_data (bytes, &length);
  return vc_hf_config_read_video_preprocessor (self, data ? data : "", length, "video_preprocessor_config.json",
                                               error);
}

VcHfConfig *
vc_hf_config_new_for_file (GFile         *file,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autoptr(GFile) target = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *raw_base = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  VcHfConfig *config;
  const char *data;
  gsize length;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  shown = g_file_get_parse_name (file);
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_DIRECTORY)
    {
      target = g_file_get_child (file, "config.json");
      if (!g_file_query_exists (target, cancellable))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("%s holds no config.json; choose a model's config.json or the folder holding it"), shown);
          return NULL;
        }
    }
  else
    target = g_object_ref (file);

  /* file names are bytes: shown as UTF-8 whatever they hold */
  raw_base = g_file_get_basename (target);
  base = raw_base ? g_filename_display_name (raw_base) : g_strdup ("config.json");
  /* regular files only: a FIFO or a device is refused before it is read */
  bytes = vc_json_input_read_file (target, base, _("a config.json"), cancellable, error);
  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &length);
  config = vc_hf_config_new_from_data (data ? data : "", length, base, NULL, error);
  if (config == NULL)
    return NULL;
  if (!read_preprocessor_beside (config, target, cancellable, error))
    {
      g_object_unref (config);
      return NULL;
    }
  /* the place of the file names the model better than _name_or_path, which is often a path on
   * the machine that saved it, unless it is a Hub id (org/name) */
  name = name_from_location (target);
  if (name != NULL && !g_utf8_validate (name, -1, NULL))
    {
      /* a folder whose name is not UTF-8: its name as the file system would show it */
      g_autofree char *raw = g_steal_pointer (&name);
      name = g_filename_display_name (raw);
    }
  if (name != NULL && !config->hub_name)
    {
      g_free (config->name);
      config->name = g_steal_pointer (&name);
    }
  return config;
}

VcHfConfig *
vc_hf_config_new_for_path (const char  *path,
                           GError     **error)
{
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  /* "" would name the current folder */
  if (*path == '\0')
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("no file given; accepted: a model's config.json or the folder holding it"));
      return NULL;
    }
  file = g_file_new_for_commandline_arg (path);
  return vc_hf_config_new_for_file (file, NULL, error);
}

/* ---- reading the result -------------------------------------------------------------------- */

const VcArch *
vc_hf_config_get_arch (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return &self->arch;
}

const VcParamCounts *
vc_hf_config_get_counts (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return &self->counts;
}

const char *
vc_hf_config_get_name (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return self->name;
}

const char *
vc_hf_config_get_model_type (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return self->model_type;
}

const char *
vc_hf_config_get_family (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return self->family->id;
}

gboolean
vc_hf_config_get_known_family (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), FALSE);
  return known_family (self);
}

gboolean
vc_hf_config_get_text_only (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), FALSE);
  return self->text_only;
}

const char *
vc_hf_config_get_torch_dtype (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return self->torch_dtype;
}

/* The precision the weights are stored in: the quantization when there is one, else torch_dtype.
 * FALSE when the file does not say (or says "auto"). */
gboolean
vc_hf_config_get_precision (VcHfConfig  *self,
                            VcPrecision *precision)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), FALSE);

  if (g_strcmp0 (self->quant_method, "fp8") == 0)
    *precision = VC_PRECISION_FP8;
  else if (self->quant_bits == 4)
    *precision = VC_PRECISION_INT4;
  else if (self->quant_bits == 8)
    *precision = VC_PRECISION_INT8;
  else if (g_strcmp0 (self->torch_dtype, "float32") == 0)
    *precision = VC_PRECISION_FP32;
  else if (g_strcmp0 (self->torch_dtype, "float16") == 0)
    *precision = VC_PRECISION_FP16;
  else if (g_strcmp0 (self->torch_dtype, "bfloat16") == 0)
    *precision = VC_PRECISION_BF16;
  else
    return FALSE;
  return TRUE;
}

/**
 * vc_hf_config_get_not_understood:
 *
 * What the config holds that changes memory and that the reader does not understand: an
 * unknown model_type, keys its family does not have, layer types, a quantization_config. The
 * estimate of such a config is approximate: those parts are left out, or the model is counted
 * the Llama way.
 *
 * Returns: (transfer none): a %NULL-terminated list of parts, empty when the estimate is exact
 */
const char * const *
vc_hf_config_get_not_understood (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return (const char * const *) self->not_understood->pdata;
}

gboolean
vc_hf_config_is_exact (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), FALSE);
  return self->not_understood->pdata[0] == NULL;
}

/**
 * vc_hf_config_check_exact:
 *
 * Exact or refused: sets @error naming what is not understood when the estimate would not be
 * exact. Whoever imports the config refuses it then, unless the user asked for an approximate
 * estimate.
 */
gboolean
vc_hf_config_check_exact (VcHfConfig  *self,
                          GError     **error)
{
  g_autofree char *parts = NULL;

  g_return_val_if_fail (VC_IS_HF_CONFIG (self), FALSE);
  if (vc_hf_config_is_exact (self))
    return TRUE;
  parts = join_parts (self);
  g_set_error (error, VC_ERROR, VC_ERROR_NOT_UNDERSTOOD,
               _("%s: not understood, so the estimate would not be exact: %s"), self->file_name, parts);
  return FALSE;
}

/* The longest context the model takes, in tokens, as vLLM derives it from
 * max_position_embeddings and rope_scaling; 0 when the file does not say */
guint
vc_hf_config_get_max_context (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), 0);
  return self->max_context;
}

/* rope_scaling's type and factor ("yarn ×4"), or NULL */
const char *
vc_hf_config_get_rope_scaling (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return self->rope_scaling;
}

const char *
vc_hf_config_get_description (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return self->description;
}

const char *
vc_hf_config_get_warning (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), NULL);
  return self->warning;
}

/* Like choosing a preset: the architecture, the rule-of-thumb sizes that match it (so that
 * switching method keeps the same model), the model's name, and the architecture method. */
void
vc_hf_config_apply (VcHfConfig *self,
                    VcEstimate *estimate)
{
  g_return_if_fail (VC_IS_HF_CONFIG (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));

  g_object_freeze_notify (G_OBJECT (estimate));
  vc_estimate_set_model (estimate, &self->arch, self->counts.total, self->counts.active, self->name);
  vc_estimate_set_model_not_understood (estimate, vc_hf_config_get_not_understood (self));
  g_object_thaw_notify (G_OBJECT (estimate));
}
