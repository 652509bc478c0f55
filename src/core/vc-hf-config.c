/* vc-hf-config.c: reading a Hugging Face config.json into an exact architecture.
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
 *   layer_types      when present, says which layers are "sliding_attention" for any family
 *
 * Any other model_type with the standard llama-style keys is estimated the Llama way (plus
 * num_local_experts|num_experts and num_experts_per_tok when present), and says so.
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

typedef enum
{
  FAMILY_LLAMA,
  FAMILY_MISTRAL,
  FAMILY_MIXTRAL,
  FAMILY_QWEN2,
  FAMILY_QWEN2_MOE,
  FAMILY_QWEN3,
  FAMILY_QWEN3_MOE,
  FAMILY_GEMMA,
  FAMILY_GEMMA2,
  FAMILY_GEMMA3,
  FAMILY_PHI3,
  FAMILY_GPT2,
  FAMILY_GPT_NEOX,
  FAMILY_FALCON,
  FAMILY_DEEPSEEK_V2,
  FAMILY_DEEPSEEK_V3,
} Family;

/* The defaults of each configuration class, for keys a file leaves out. */
typedef struct
{
  const char *id;
  const char *name;
  guint vocab;
  guint hidden;
  guint intermediate;
  guint layers;
  guint heads;
  guint kv_heads;          /* 0: = heads */
  guint head_dim;          /* 0: hidden / heads */
  gboolean tied;
  guint sliding_window;    /* when the key is absent; 0: none */
} FamilyInfo;

static const FamilyInfo families[] = {
  [FAMILY_LLAMA] = { "llama", "Llama", 32000, 4096, 11008, 32, 32, 0, 0, FALSE, 0 },
  [FAMILY_MISTRAL] = { "mistral", "Mistral", 32000, 4096, 14336, 32, 32, 8, 0, FALSE, 4096 },
  [FAMILY_MIXTRAL] = { "mixtral", "Mixtral", 32000, 4096, 14336, 32, 32, 8, 0, FALSE, 0 },
  [FAMILY_QWEN2] = { "qwen2", "Qwen2", 151936, 4096, 22016, 32, 32, 32, 0, FALSE, 4096 },
  [FAMILY_QWEN2_MOE] = { "qwen2_moe", "Qwen2-MoE", 151936, 2048, 5632, 24, 16, 16, 0, FALSE, 4096 },
  [FAMILY_QWEN3] = { "qwen3", "Qwen3", 151936, 4096, 22016, 32, 32, 32, 128, FALSE, 4096 },
  [FAMILY_QWEN3_MOE] = { "qwen3_moe", "Qwen3-MoE", 151936, 2048, 6144, 24, 32, 4, 0, FALSE, 4096 },
  [FAMILY_GEMMA] = { "gemma", "Gemma", 256000, 3072, 24576, 28, 16, 16, 256, TRUE, 0 },
  [FAMILY_GEMMA2] = { "gemma2", "Gemma 2", 256000, 2304, 9216, 26, 8, 4, 256, TRUE, 4096 },
  [FAMILY_GEMMA3] = { "gemma3", "Gemma 3", 262208, 2304, 9216, 26, 8, 4, 256, TRUE, 4096 },
  [FAMILY_PHI3] = { "phi3", "Phi-3", 32064, 3072, 8192, 32, 32, 0, 0, FALSE, 0 },
  [FAMILY_GPT2] = { "gpt2", "GPT-2", 50257, 768, 0, 12, 12, 0, 0, TRUE, 0 },
  [FAMILY_GPT_NEOX] = { "gpt_neox", "GPT-NeoX", 50432, 6144, 24576, 44, 64, 0, 0, FALSE, 0 },
  [FAMILY_FALCON] = { "falcon", "Falcon", 65024, 4544, 0, 32, 71, 0, 0, TRUE, 0 },
  [FAMILY_DEEPSEEK_V2] = { "deepseek_v2", "DeepSeek-V2", 102400, 5120, 12288, 60, 128, 0, 0, FALSE, 0 },
  [FAMILY_DEEPSEEK_V3] = { "deepseek_v3", "DeepSeek-V3", 129280, 7168, 18432, 61, 128, 0, 0, FALSE, 0 },
};

static const struct
{
  const char *model_type;
  Family family;
} model_types[] = {
  { "llama", FAMILY_LLAMA },
  { "mistral", FAMILY_MISTRAL },
  { "mixtral", FAMILY_MIXTRAL },
  { "qwen2", FAMILY_QWEN2 },
  { "qwen2_moe", FAMILY_QWEN2_MOE },
  { "qwen3", FAMILY_QWEN3 },
  { "qwen3_moe", FAMILY_QWEN3_MOE },
  { "gemma", FAMILY_GEMMA },
  { "gemma2", FAMILY_GEMMA2 },
  { "gemma3", FAMILY_GEMMA3 },
  { "gemma3_text", FAMILY_GEMMA3 },
  { "phi3", FAMILY_PHI3 },
  { "gpt2", FAMILY_GPT2 },
  { "gpt_neox", FAMILY_GPT_NEOX },
  { "falcon", FAMILY_FALCON },
  { "RefinedWeb", FAMILY_FALCON },
  { "RefinedWebModel", FAMILY_FALCON },
  { "deepseek_v2", FAMILY_DEEPSEEK_V2 },
  { "deepseek_v3", FAMILY_DEEPSEEK_V3 },
};

/* Multimodal wrappers whose text_config may leave out model_type: the text model's type. */
static const struct
{
  const char *wrapper;
  const char *text_model_type;
} wrappers[] = {
  { "gemma3", "gemma3_text" },
  { "llava", "llama" },
  { "llava_next", "llama" },
  { "mistral3", "mistral" },
  { "paligemma", "gemma" },
};

struct _VcHfConfig
{
  GObject parent_instance;

  VcArch arch;
  VcParamCounts counts;
  char *name;
  char *model_type;          /* as the file gives it ("" when it gives none) */
  char *family;              /* the family counted: "llama" also for unknown types */
  char *torch_dtype;         /* NULL when not given */
  char *quant_method;        /* quantization_config.quant_method, NULL when none */
  guint quant_bits;
  gboolean known;
  gboolean text_only;
  char *text_model_type;
  guint mtp_layers;
  Family family_id;
  gboolean hub_name;         /* the name is a Hub id's (org/name) */
  char *description;
  char *warning;
  guint max_context;         /* max_position_embeddings with rope scaling; 0 when not given */
};

G_DEFINE_FINAL_TYPE (VcHfConfig, vc_hf_config, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_NAME,
  PROP_MODEL_TYPE,
  PROP_FAMILY,
  PROP_KNOWN_FAMILY,
  PROP_TEXT_ONLY,
  PROP_TORCH_DTYPE,
  PROP_PARAMETERS,
  PROP_ACTIVE_PARAMETERS,
  PROP_DESCRIPTION,
  PROP_WARNING,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
vc_hf_config_finalize (GObject *object)
{
  VcHfConfig *self = VC_HF_CONFIG (object);

  g_free (self->name);
  g_free (self->model_type);
  g_free (self->family);
  g_free (self->torch_dtype);
  g_free (self->quant_method);
  g_free (self->text_model_type);
  g_free (self->description);
  g_free (self->warning);
  G_OBJECT_CLASS (vc_hf_config_parent_class)->finalize (object);
}

static void
vc_hf_config_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  VcHfConfig *self = VC_HF_CONFIG (object);

  switch (prop_id)
    {
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_MODEL_TYPE: g_value_set_string (value, self->model_type); break;
    case PROP_FAMILY: g_value_set_string (value, self->family); break;
    case PROP_KNOWN_FAMILY: g_value_set_boolean (value, self->known); break;
    case PROP_TEXT_ONLY: g_value_set_boolean (value, self->text_only); break;
    case PROP_TORCH_DTYPE: g_value_set_string (value, self->torch_dtype); break;
    case PROP_PARAMETERS: g_value_set_double (value, self->counts.total); break;
    case PROP_ACTIVE_PARAMETERS: g_value_set_double (value, self->counts.active); break;
    case PROP_DESCRIPTION: g_value_set_string (value, self->description); break;
    case PROP_WARNING: g_value_set_string (value, self->warning); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_hf_config_class_init (VcHfConfigClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  const GParamFlags RO = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = vc_hf_config_finalize;
  object_class->get_property = vc_hf_config_get_property;

  properties[PROP_NAME] =
    g_param_spec_string ("name", "Name", "The model's display name", "", RO);
  properties[PROP_MODEL_TYPE] =
    g_param_spec_string ("model-type", "Model type", "model_type as config.json gives it", "", RO);
  properties[PROP_FAMILY] =
    g_param_spec_string ("family", "Family", "The family whose module list is counted", "llama", RO);
  properties[PROP_KNOWN_FAMILY] =
    g_param_spec_boolean ("known-family", "Known family",
                          "FALSE when an unknown model_type was estimated the Llama way", TRUE, RO);
  properties[PROP_TEXT_ONLY] =
    g_param_spec_boolean ("text-only", "Text model only",
                          "A multimodal wrapper: only its text model is counted", FALSE, RO);
  properties[PROP_TORCH_DTYPE] =
    g_param_spec_string ("torch-dtype", "Stored dtype", "torch_dtype as config.json gives it", NULL, RO);
  properties[PROP_PARAMETERS] =
    g_param_spec_double ("parameters", "Parameters", "Total parameters", 0, G_MAXDOUBLE, 0, RO);
  properties[PROP_ACTIVE_PARAMETERS] =
    g_param_spec_double ("active-parameters", "Activated parameters",
                         "Parameters used per token", 0, G_MAXDOUBLE, 0, RO);
  properties[PROP_DESCRIPTION] =
    g_param_spec_string ("description", "Description", "What was read, for people", "", RO);
  properties[PROP_WARNING] =
    g_param_spec_string ("warning", "Warning",
                         "What to check (unknown family, text model only); NULL when nothing", NULL, RO);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
vc_hf_config_init (VcHfConfig *self)
{
}

/* ---- reading keys -------------------------------------------------------------------------- */

typedef struct
{
  const char *file;          /* names the data in messages */
  const char *prefix;        /* "" or "text_config." */
  JsonObject *object;        /* the config read */
  GHashTable *huge;          /* key → integer literal beyond 64 bits */
  gboolean nested;           /* a sub-config: missing keys take the class defaults */
} Reader;

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

static JsonNode *
lookup (Reader      *r,
        const char  *key,
        const char  *alias,
        const char **found)
{
  *found = key;
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
               _("%s: \"%s%s\" must be a whole number from %u to %u, got %s"),
               r->file, r->prefix, key, min, max, got);
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
                   _("%s: \"%s%s\" is missing; it must be a whole number from %u to %u"),
                   r->file, r->prefix, key, min, max);
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
  JsonNode *node = json_object_get_member (r->object, key);

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    {
      *out = def;
      return TRUE;
    }
  if (JSON_NODE_TYPE (node) != JSON_NODE_VALUE || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    {
      g_autofree char *got = describe_node (node);
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("%s: \"%s%s\" must be true or false, got %s"), r->file, r->prefix, key, got);
      return FALSE;
    }
  *out = json_node_get_boolean (node);
  return TRUE;
}

/* A string or null; *out is NULL when absent or null. */
static gboolean
opt_string (Reader      *r,
            JsonObject  *object,
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
                   _("%s: \"%s%s\" must be text, got %s"), r->file, prefix, key, got);
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

/* How many of n_layers layers use the window, from layer_types when the file lists them. */
static gboolean
read_layer_types (Reader    *r,
                  guint      n_layers,
                  gboolean  *given,
                  guint     *n_sliding,
                  GError   **error)
{
  JsonNode *node = json_object_get_member (r->object, "layer_types");
  JsonArray *array;

  *given = FALSE;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_ARRAY (node) || json_array_get_length (json_node_get_array (node)) != n_layers)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("%s: \"%slayer_types\" must list one attention type per layer (%u)"),
                   r->file, r->prefix, n_layers);
      return FALSE;
    }
  array = json_node_get_array (node);
  *n_sliding = 0;
  for (guint i = 0; i < n_layers; i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      const char *type = NULL;

      if (JSON_NODE_TYPE (item) == JSON_NODE_VALUE && json_node_get_value_type (item) == G_TYPE_STRING)
        type = json_node_get_string (item);
      if (g_strcmp0 (type, "sliding_attention") == 0)
        (*n_sliding)++;
      else if (g_strcmp0 (type, "full_attention") != 0)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("%s: \"%slayer_types\" may hold only \"full_attention\" and \"sliding_attention\""),
                       r->file, r->prefix);
          return FALSE;
        }
    }
  *given = TRUE;
  return TRUE;
}

/* Qwen's mlp_only_layers: indices of layers with a dense MLP. Fills is_dense. */
static gboolean
read_mlp_only_layers (Reader    *r,
                      guint      n_layers,
                      gboolean  *is_dense,
                      GError   **error)
{
  JsonNode *node = json_object_get_member (r->object, "mlp_only_layers");
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
      is_dense[v] = TRUE;
    }
  return TRUE;

bad:
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
               _("%s: \"%smlp_only_layers\" must be a list of layer numbers from 0 to %u"),
               r->file, r->prefix, n_layers - 1);
  return FALSE;
}

#define TRY(x) G_STMT_START { if (!(x)) return FALSE; } G_STMT_END

/* The attention and MLP shape shared by the llama-style families. */
static gboolean
read_llama_style (Reader             *r,
                  const FamilyInfo   *fi,
                  gboolean            read_head_dim,
                  VcArch             *arch,
                  GError            **error)
{
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

static gboolean
read_experts (Reader      *r,
              const char  *experts_key,
              guint        experts_default,
              guint        k_default,
              VcArch      *arch,
              const char **k_key,
              GError     **error)
{
  TRY (need_uint (r, experts_key, NULL, experts_default, 1, field_max ("experts"), &arch->n_experts, error));
  *k_key = "num_experts_per_tok";
  return need_uint (r, "num_experts_per_tok", NULL, k_default, 1, arch->n_experts,
                    &arch->experts_per_token, error);
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

static gboolean
read_qwen_moe_layers (Reader   *r,
                      VcArch   *arch,
                      GError  **error)
{
  g_autofree gboolean *dense = g_new0 (gboolean, arch->n_layers);
  guint step = 1;

  TRY (opt_uint (r, "decoder_sparse_step", NULL, 1, 1, 1, field_max ("layers"), &step, error));
  TRY (read_mlp_only_layers (r, arch->n_layers, dense, error));
  arch->dense_layers = 0;
  for (guint i = 0; i < arch->n_layers; i++)
    if (dense[i] || (i + 1) % step != 0)
      arch->dense_layers++;
  return TRUE;
}

static gboolean
read_deepseek (Reader    *r,
               Family     family,
               VcArch    *arch,
               guint     *mtp_layers,
               GError   **error)
{
  const FamilyInfo *fi = &families[family];
  guint first_dense = 0, freq = 1;
  const char *topk_method = NULL;
  gboolean bias = FALSE;

  TRY (read_llama_style (r, fi, FALSE, arch, error));
  TRY (opt_bool (r, "attention_bias", FALSE, &bias, error));
  if (bias)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("%s: \"%sattention_bias\": true is not supported with multi-head latent attention"),
                   r->file, r->prefix);
      return FALSE;
    }
  TRY (opt_uint (r, "q_lora_rank", NULL, family == FAMILY_DEEPSEEK_V3 ? 1536 : 0, 0, 1,
                 field_max ("q-lora-rank"), &arch->q_lora_rank, error));
  TRY (need_uint (r, "kv_lora_rank", NULL, 512, 1, field_max ("kv-lora-rank"), &arch->kv_lora_rank, error));
  TRY (need_uint (r, "qk_rope_head_dim", NULL, 64, 1, field_max ("qk-rope-head-dim"), &arch->qk_rope_head_dim, error));
  TRY (need_uint (r, "qk_nope_head_dim", NULL, 128, 1, field_max ("qk-nope-head-dim"), &arch->qk_nope_head_dim, error));
  TRY (need_uint (r, "v_head_dim", NULL, 128, 1, field_max ("v-head-dim"), &arch->v_head_dim, error));

  TRY (opt_uint (r, "n_routed_experts", NULL, 0, 0, 1, field_max ("experts"), &arch->n_experts, error));
  if (arch->n_experts > 0)
    {
      guint n_moe = 0;

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
      TRY (opt_string (r, r->object, r->prefix, "topk_method", &topk_method, error));
      arch->router_bias = family == FAMILY_DEEPSEEK_V3 || g_strcmp0 (topk_method, "noaux_tc") == 0;
    }
  TRY (opt_uint (r, "num_nextn_predict_layers", NULL, 0, 0, 0, field_max ("layers"), mtp_layers, error));
  return TRUE;
}

static gboolean
read_family (Reader   *r,
             Family    family,
             gboolean  known,
             VcArch   *arch,
             guint    *mtp_layers,
             GError  **error)
{
  const FamilyInfo *fi = &families[family];
  gboolean tied = fi->tied, bias = FALSE, sliding_given = FALSE;
  guint window = 0, n_sliding = 0;
  const char *k_key = NULL;

  memset (arch, 0, sizeof *arch);
  *mtp_layers = 0;

  switch (family)
    {
    case FAMILY_GPT2:
      TRY (need_uint (r, "n_layer", "num_hidden_layers", fi->layers, 1, field_max ("layers"), &arch->n_layers, error));
      TRY (need_uint (r, "n_embd", "hidden_size", fi->hidden, 1, field_max ("hidden-size"), &arch->hidden_size, error));
      TRY (need_uint (r, "n_head", "num_attention_heads", fi->heads, 1, field_max ("heads"), &arch->n_heads, error));
      TRY (need_uint (r, "n_positions", "max_position_embeddings", 1024, 1, field_max ("learned-positions"),
                      &arch->max_positions, error));
      TRY (need_uint (r, "vocab_size", NULL, fi->vocab, 1, field_max ("vocab-size"), &arch->vocab_size, error));
      {
        guint inner_default = (guint) MIN ((guint64) arch->hidden_size * 4, field_max ("intermediate-size"));
        TRY (opt_uint (r, "n_inner", NULL, inner_default, inner_default, 1, field_max ("intermediate-size"),
                       &arch->intermediate_size, error));
      }
      arch->n_kv_heads = arch->n_heads;
      arch->norm = VC_NORM_LAYER;
      arch->norms_per_layer = 2;
      arch->qkv_bias = arch->o_bias = arch->mlp_bias = TRUE;
      break;

    case FAMILY_GPT_NEOX:
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
      break;

    case FAMILY_FALCON:
      {
        gboolean new_arch = FALSE, multi_query = TRUE, parallel = TRUE;
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
      }
      break;

    case FAMILY_DEEPSEEK_V2:
    case FAMILY_DEEPSEEK_V3:
      TRY (read_deepseek (r, family, arch, mtp_layers, error));
      break;

    case FAMILY_PHI3:
      TRY (read_llama_style (r, fi, FALSE, arch, error));
      break;

    case FAMILY_LLAMA:
    case FAMILY_MISTRAL:
    case FAMILY_MIXTRAL:
    case FAMILY_QWEN2:
    case FAMILY_QWEN2_MOE:
    case FAMILY_QWEN3:
    case FAMILY_QWEN3_MOE:
    case FAMILY_GEMMA:
    case FAMILY_GEMMA2:
    case FAMILY_GEMMA3:
    default:
      TRY (read_llama_style (r, fi, TRUE, arch, error));
      break;
    }

  /* biases, norms and experts by family */
  switch (family)
    {
    case FAMILY_LLAMA:
      TRY (opt_bool (r, "attention_bias", FALSE, &bias, error));
      arch->qkv_bias = arch->o_bias = bias;
      TRY (opt_bool (r, "mlp_bias", FALSE, &arch->mlp_bias, error));
      if (!known)
        {
          /* the standard MoE keys, when an unknown family has them */
          const char *experts_key = json_object_has_member (r->object, "num_local_experts")
                                    ? "num_local_experts" : "num_experts";
          JsonNode *node = json_object_get_member (r->object, experts_key);

          if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
            {
              TRY (read_experts (r, experts_key, 8, 2, arch, &k_key, error));
              TRY (opt_uint (r, "moe_intermediate_size", NULL, 0, 0, 1, field_max ("expert-intermediate-size"),
                             &arch->expert_intermediate_size, error));
            }
        }
      break;
    case FAMILY_MIXTRAL:
      TRY (read_experts (r, "num_local_experts", 8, 2, arch, &k_key, error));
      break;
    case FAMILY_QWEN2:
    case FAMILY_QWEN2_MOE:
      arch->qkv_bias = TRUE;
      if (family == FAMILY_QWEN2_MOE)
        {
          guint shared = 0;

          TRY (read_experts (r, "num_experts", 60, 4, arch, &k_key, error));
          TRY (need_uint (r, "moe_intermediate_size", NULL, 1408, 1, field_max ("expert-intermediate-size"),
                          &arch->expert_intermediate_size, error));
          TRY (opt_uint (r, "shared_expert_intermediate_size", NULL, 5632, 0, 0,
                         field_max ("shared-intermediate-size"), &shared, error));
          arch->shared_intermediate_size = shared;
          arch->n_shared_experts = shared > 0 ? 1 : 0;
          arch->shared_expert_gate = TRUE;
          TRY (read_qwen_moe_layers (r, arch, error));
        }
      TRY (read_qwen_window (r, arch, error));
      break;
    case FAMILY_QWEN3:
    case FAMILY_QWEN3_MOE:
      TRY (opt_bool (r, "attention_bias", FALSE, &bias, error));
      arch->qkv_bias = arch->o_bias = bias;
      arch->qk_norm = TRUE;
      if (family == FAMILY_QWEN3_MOE)
        {
          TRY (read_experts (r, "num_experts", 128, 8, arch, &k_key, error));
          TRY (need_uint (r, "moe_intermediate_size", NULL, 768, 1, field_max ("expert-intermediate-size"),
                          &arch->expert_intermediate_size, error));
          TRY (read_qwen_moe_layers (r, arch, error));
        }
      TRY (read_qwen_window (r, arch, error));
      break;
    case FAMILY_GEMMA:
    case FAMILY_GEMMA2:
    case FAMILY_GEMMA3:
      TRY (opt_bool (r, "attention_bias", FALSE, &bias, error));
      arch->qkv_bias = arch->o_bias = bias;
      if (family != FAMILY_GEMMA)
        arch->norms_per_layer = 4;
      arch->qk_norm = family == FAMILY_GEMMA3;
      break;
    default:
      break;
    }

  /* tied output head */
  TRY (opt_bool (r, "tie_word_embeddings", fi->tied, &tied, error));
  arch->tied_embeddings = tied;

  /* sliding windows */
  switch (family)
    {
    case FAMILY_LLAMA:
    case FAMILY_MISTRAL:
    case FAMILY_MIXTRAL:
    case FAMILY_PHI3:
    case FAMILY_GEMMA2:
    case FAMILY_GEMMA3:
      /* an unknown family with a window is taken to use it on every layer, as Mistral does */
      if (family == FAMILY_LLAMA && known)
        break;
      if (family == FAMILY_LLAMA)
        {
          gboolean use = TRUE;

          TRY (opt_bool (r, "use_sliding_window", TRUE, &use, error));
          if (!use)
            break;
        }
      TRY (opt_uint (r, "sliding_window", NULL, fi->sliding_window, 0, 1, field_max ("sliding-window"),
                     &window, error));
      if (window == 0)
        break;
      arch->sliding_window = window;
      if (family == FAMILY_GEMMA2)
        arch->sliding_window_layers = (arch->n_layers + 1) / 2;
      else if (family == FAMILY_GEMMA3)
        {
          guint pattern = 6;

          TRY (opt_uint (r, "sliding_window_pattern", "_sliding_window_pattern", 6, 6, 1, field_max ("layers"),
                         &pattern, error));
          arch->sliding_window_layers = arch->n_layers - arch->n_layers / pattern;
        }
      else
        arch->sliding_window_layers = arch->n_layers;
      break;
    default:
      break;
    }
  TRY (read_layer_types (r, arch->n_layers, &sliding_given, &n_sliding, error));
  if (sliding_given)
    arch->sliding_window_layers = arch->sliding_window > 0 ? n_sliding : 0;

  /* shapes that must agree */
  if (!vc_arch_is_mla (arch))
    {
      if (arch->head_dim == 0 && arch->hidden_size % arch->n_heads != 0)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                       _("%s: \"%shidden_size\" (%u) is not a multiple of the number of attention heads (%u), "
                         "and no \"head_dim\" is given"),
                       r->file, r->prefix, arch->hidden_size, arch->n_heads);
          return FALSE;
        }
      if (arch->n_heads % arch->n_kv_heads != 0)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                       _("%s: the number of attention heads (%u) is not a multiple of \"%snum_key_value_heads\" (%u)"),
                       r->file, arch->n_heads, r->prefix, arch->n_kv_heads);
          return FALSE;
        }
    }
  return TRUE;
}

/* ---- the scan for integers json-glib cannot hold --------------------------------------------- */

/* json-glib wraps integer literals beyond 64 bits silently (99999999999999999999 reads as -1),
 * so find them in the text first: the key before each such literal → the literal. */
static GHashTable *
scan_huge_integers (const char *data,
                    gsize       length)
{
  GHashTable *huge = NULL;
  const char *key = NULL;
  gsize key_len = 0;

  for (gsize i = 0; i < length; i++)
    {
      char c = data[i];

      if (c == '"')
        {
          gsize start = ++i;

          while (i < length && data[i] != '"')
            i += data[i] == '\\' ? 2 : 1;
          key = data + start;
          key_len = MIN (i, length) - start;
        }
      else if (c == '-' || g_ascii_isdigit (c))
        {
          gsize start = i;
          gboolean integer = TRUE;
          g_autofree char *literal = NULL;
          gint64 v;

          while (i < length && data[i] != '\0' && (g_ascii_isdigit (data[i]) || strchr ("+-.eE", data[i]) != NULL))
            {
              if (data[i] == '.' || data[i] == 'e' || data[i] == 'E')
                integer = FALSE;
              i++;
            }
          literal = g_strndup (data + start, i - start);
          i--;
          if (integer && !g_ascii_string_to_signed (literal, 10, G_MININT64, G_MAXINT64, &v, NULL) && key)
            {
              if (huge == NULL)
                huge = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
              g_hash_table_replace (huge, g_strndup (key, key_len), g_steal_pointer (&literal));
            }
        }
    }
  return huge;
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

static Family
family_for (const char *model_type,
            gboolean   *known)
{
  for (guint i = 0; i < G_N_ELEMENTS (model_types); i++)
    if (g_strcmp0 (model_types[i].model_type, model_type) == 0)
      {
        *known = TRUE;
        return model_types[i].family;
      }
  *known = FALSE;
  return FAMILY_LLAMA;
}

static void
build_texts (VcHfConfig *self)
{
  g_autoptr(GString) d = g_string_new (NULL);
  g_autoptr(GString) w = g_string_new (NULL);
  g_autofree char *total = g_strdup_printf ("%'.0f", self->counts.total);
  const VcArch *a = &self->arch;

  if (self->known)
    g_string_append_printf (d, _("%s architecture (model_type “%s”): %s parameters"),
                            families[self->family_id].name,
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
  if (a->sliding_window > 0 && a->sliding_window_layers > 0)
    {
      g_string_append_c (d, '\n');
      g_string_append_printf (d, _("%u of %u layers attend to a window of %u tokens."),
                              a->sliding_window_layers, a->n_layers, a->sliding_window);
    }
  if (self->mtp_layers > 0)
    {
      g_string_append_c (d, '\n');
      g_string_append_printf (d, _("The multi-token prediction module (%u layer) is not counted: "
                                   "inference does not load it."), self->mtp_layers);
    }

  if (!self->known)
    {
      if (*self->model_type)
        g_string_append_printf (w, _("model_type “%s” is not a known family: estimated the Llama way "
                                     "(RMSNorm, gated MLP, no biases). Check the result."),
                                self->text_only ? self->text_model_type : self->model_type);
      else
        g_string_append (w, _("config.json gives no model_type: estimated the Llama way "
                              "(RMSNorm, gated MLP, no biases). Check the result."));
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

/* The longest context the model takes: max_position_embeddings (n_positions for GPT-2), or
 * the original length times the rope scaling factor when that is longer (a config that adds
 * YaRN scaling to a 32,768-token base keeps max_position_embeddings at 32,768). 0 when the
 * file gives neither. Only the warning past it uses this: a bad value is not an error. */
static guint
read_max_context (JsonObject *object)
{
  static const char *const keys[] = { "max_position_embeddings", "n_positions", "max_sequence_length" };
  double max = 0;
  JsonNode *rope;

  for (guint i = 0; i < G_N_ELEMENTS (keys) && max == 0; i++)
    {
      JsonNode *node = json_object_get_member (object, keys[i]);

      if (node != NULL && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
        max = MAX (0, json_node_get_int (node));
    }
  rope = json_object_get_member (object, "rope_scaling");
  if (rope != NULL && JSON_NODE_HOLDS_OBJECT (rope))
    {
      JsonObject *r = json_node_get_object (rope);
      JsonNode *factor = json_object_get_member (r, "factor");
      JsonNode *original = json_object_get_member (r, "original_max_position_embeddings");

      if (factor != NULL && original != NULL && JSON_NODE_HOLDS_VALUE (factor) &&
          JSON_NODE_HOLDS_VALUE (original) && json_node_get_value_type (original) == G_TYPE_INT64 &&
          (json_node_get_value_type (factor) == G_TYPE_DOUBLE || json_node_get_value_type (factor) == G_TYPE_INT64))
        max = MAX (max, json_node_get_double (factor) * json_node_get_int (original));
    }
  return (guint) CLAMP (max, 0, 100000000);
}

VcHfConfig *
vc_hf_config_new_from_data (const char  *data,
                            gsize        length,
                            const char  *file_name,
                            const char  *display_name,
                            GError     **error)
{
  g_autoptr(VcHfConfig) self = NULL;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GHashTable) huge = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root_node;
  JsonObject *root, *object;
  JsonNode *text_node;
  const char *model_type = NULL, *dtype = NULL, *name_or_path = NULL;
  Reader r = { 0 };
  Family family;
  gboolean known;

  g_return_val_if_fail (data != NULL || length == 0, NULL);

  if (file_name == NULL)
    file_name = "config.json";
  if (length > VC_HF_CONFIG_MAX_SIZE)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_TOO_LARGE,
                   _("%s is %lu bytes; a config.json is at most %d bytes"),
                   file_name, (unsigned long) length, VC_HF_CONFIG_MAX_SIZE);
      return NULL;
    }
  if (!g_utf8_validate_len (data, length, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s is not UTF-8 text, so not a config.json"), file_name);
      return NULL;
    }
  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, length, &local_error))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE, _("%s is not valid JSON: %s"), file_name, local_error->message);
      return NULL;
    }
  root_node = json_parser_get_root (parser);
  if (root_node == NULL || !JSON_NODE_HOLDS_OBJECT (root_node))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_PARSE,
                   _("%s does not hold a JSON object with the model's settings"), file_name);
      return NULL;
    }
  root = json_node_get_object (root_node);
  huge = scan_huge_integers (data, length);

  self = g_object_new (VC_TYPE_HF_CONFIG, NULL);
  r.file = file_name;
  r.prefix = "";
  r.object = root;
  r.huge = huge;

  if (!opt_string (&r, root, "", "model_type", &model_type, error))
    return NULL;
  self->model_type = g_strdup (model_type ? model_type : "");
  if (!opt_string (&r, root, "", "torch_dtype", &dtype, error))
    return NULL;
  if (dtype == NULL && !opt_string (&r, root, "", "dtype", &dtype, error))
    return NULL;
  if (!opt_string (&r, root, "", "_name_or_path", &name_or_path, error))
    return NULL;

  object = root;
  text_node = json_object_get_member (root, "text_config");
  if (text_node != NULL && !JSON_NODE_HOLDS_NULL (text_node))
    {
      const char *text_type = NULL, *text_dtype = NULL;

      if (!JSON_NODE_HOLDS_OBJECT (text_node))
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("%s: \"text_config\" must be an object with the text model's settings"), file_name);
          return NULL;
        }
      object = json_node_get_object (text_node);
      if (!opt_string (&r, object, "text_config.", "model_type", &text_type, error) ||
          !opt_string (&r, object, "text_config.", "torch_dtype", &text_dtype, error))
        return NULL;
      if (text_type == NULL)
        for (guint i = 0; i < G_N_ELEMENTS (wrappers); i++)
          if (g_strcmp0 (wrappers[i].wrapper, self->model_type) == 0)
            text_type = wrappers[i].text_model_type;
      self->text_model_type = g_strdup (text_type ? text_type : "");
      self->text_only = TRUE;
      if (text_dtype)
        dtype = text_dtype;
      r.object = object;
      r.prefix = "text_config.";
      r.nested = TRUE;
      family = family_for (self->text_model_type, &known);
    }
  else
    family = family_for (self->model_type, &known);

  self->max_context = read_max_context (object);
  self->known = known;
  self->family_id = family;
  self->family = g_strdup (families[family].id);
  self->torch_dtype = g_strdup (dtype);

  {
    JsonNode *q = json_object_get_member (root, "quantization_config");

    if (q != NULL && JSON_NODE_HOLDS_OBJECT (q))
      {
        JsonObject *qo = json_node_get_object (q);
        JsonNode *bits = json_object_get_member (qo, "bits");
        const char *method = NULL;

        if (!opt_string (&r, qo, "quantization_config.", "quant_method", &method, error))
          return NULL;
        self->quant_method = g_strdup (method);
        if (bits && JSON_NODE_TYPE (bits) == JSON_NODE_VALUE && json_node_get_value_type (bits) == G_TYPE_INT64)
          self->quant_bits = (guint) CLAMP (json_node_get_int (bits), 0, 64);
        if (is_true (qo, "load_in_4bit"))
          self->quant_bits = 4;
        else if (is_true (qo, "load_in_8bit"))
          self->quant_bits = 8;
      }
  }

  if (!read_family (&r, family, known, &self->arch, &self->mtp_layers, error))
    return NULL;
  if (!vc_arch_validate (&self->arch, &local_error))
    {
      g_set_error (error, VC_ERROR, local_error->code, "%s: %s", file_name, local_error->message);
      return NULL;
    }
  vc_arch_count_params (&self->arch, &self->counts);
  /* each key within its range can still multiply into a model no estimate accepts */
  if (!(self->counts.total <= VC_HF_CONFIG_MAX_PARAMETERS))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_TOO_LARGE,
                   _("%s describes a model of %.3g parameters; accepted: up to %.0e"),
                   file_name, self->counts.total, VC_HF_CONFIG_MAX_PARAMETERS);
      return NULL;
    }

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

  build_texts (self);
  return g_steal_pointer (&self);
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

VcHfConfig *
vc_hf_config_new_for_file (GFile         *file,
                           GCancellable  *cancellable,
                           GError       **error)
{
  g_autoptr(GFile) target = NULL;
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GError) local_error = NULL;
  g_autofree char *shown = NULL;
  g_autofree char *base = NULL;
  g_autofree char *name = NULL;
  VcHfConfig *config;
  guint8 buffer[65536];

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

  base = g_file_get_basename (target);
  stream = g_file_read (target, cancellable, &local_error);
  if (stream == NULL)
    {
      g_autofree char *target_shown = g_file_get_parse_name (target);
      g_set_error (error, local_error->domain, local_error->code, _("cannot read %s: %s"),
                   target_shown, local_error->message);
      return NULL;
    }
  /* read at most one byte more than allowed, so that neither a huge file nor an endless
   * device is read whole */
  for (;;)
    {
      gssize n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, sizeof buffer, cancellable, &local_error);

      if (n < 0)
        {
          g_set_error (error, local_error->domain, local_error->code, _("cannot read %s: %s"),
                       base, local_error->message);
          return NULL;
        }
      if (n == 0)
        break;
      g_byte_array_append (bytes, buffer, n);
      if (bytes->len > VC_HF_CONFIG_MAX_SIZE)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_TOO_LARGE,
                       _("%s is over %d bytes: too large for a config.json"), base, VC_HF_CONFIG_MAX_SIZE);
          return NULL;
        }
    }

  config = vc_hf_config_new_from_data ((const char *) bytes->data, bytes->len, base, NULL, error);
  if (config == NULL)
    return NULL;
  /* the place of the file names the model better than _name_or_path, which is often a path on
   * the machine that saved it, unless it is a Hub id (org/name) */
  name = name_from_location (target);
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
  file = g_file_new_for_commandline_arg (path);
  return vc_hf_config_new_for_file (file, NULL, error);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  VcHfConfig *config = vc_hf_config_new_for_file (task_data, cancellable, &error);

  if (config)
    g_task_return_pointer (task, config, g_object_unref);
  else
    g_task_return_error (task, error);
}

void
vc_hf_config_load_async (GFile               *file,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, vc_hf_config_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

VcHfConfig *
vc_hf_config_load_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
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
  return self->family;
}

gboolean
vc_hf_config_get_known_family (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), FALSE);
  return self->known;
}

/**
 * vc_hf_config_get_max_context:
 *
 * Returns: the longest context the model takes, in tokens; 0 when the file does not say
 */
guint
vc_hf_config_get_max_context (VcHfConfig *self)
{
  g_return_val_if_fail (VC_IS_HF_CONFIG (self), 0);
  return self->max_context;
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

static double
clamp_to_pspec (GObject    *object,
                const char *property,
                double      value)
{
  GParamSpecDouble *pspec = G_PARAM_SPEC_DOUBLE (g_object_class_find_property (G_OBJECT_GET_CLASS (object),
                                                                             property));
  return CLAMP (value, pspec->minimum, pspec->maximum);
}

/* Like choosing a preset: the architecture, the rule-of-thumb sizes that match it (so that
 * switching method keeps the same model), the model's name, and the architecture method. */
void
vc_hf_config_apply (VcHfConfig *self,
                    VcEstimate *estimate)
{
  gboolean moe;

  g_return_if_fail (VC_IS_HF_CONFIG (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));

  moe = vc_arch_is_moe (&self->arch);
  g_object_freeze_notify (G_OBJECT (estimate));
  vc_estimate_set_preset (estimate, "", NULL);
  vc_estimate_set_architecture (estimate, &self->arch);
  g_object_set (estimate,
                "parameters", clamp_to_pspec (G_OBJECT (estimate), "parameters", self->counts.total),
                "active-parameters", moe ? clamp_to_pspec (G_OBJECT (estimate), "active-parameters",
                                                           self->counts.active) : 0.0,
                "model-type", moe ? VC_MODEL_TYPE_MOE : VC_MODEL_TYPE_DENSE,
                "method", VC_METHOD_ARCHITECTURE,
                "max-context", self->max_context,
                NULL);
  vc_estimate_set_model_name (estimate, self->name);
  g_object_thaw_notify (G_OBJECT (estimate));
}
