/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-model-file.c: a config.json, a safetensors folder or a GGUF file, read into an estimate.
 *
 * safetensors: the architecture comes from config.json (vc-hf-config.c), the weights from the
 * tensors' headers. A parameter is a weight element: packed tensors count the values they
 * pack, scales and zero points count as bytes but not as parameters:
 *   gptq, awq        *.qweight and *.qzeros are I32 holding 32/bits values each; *.scales,
 *                    *.qzeros and *.g_idx are not parameters
 *   mxfp4 (gpt-oss)  *_blocks are U8 holding two 4-bit values; *_scales are not parameters
 *   fp8              *.weight_scale, *.weight_scale_inv, *.input_scale are not parameters
 *   bitsandbytes     4-bit: the U8 weight holds two values; absmax, quant_map, nested_* and
 *                    quant_state.* are not parameters; 8-bit: SCB and weight_format are not
 *   compressed-tensors  *.weight_packed are I32 holding 32/num_bits values; weight_scale,
 *                    weight_zero_point, weight_shape and weight_g_idx are not parameters
 * Any other quant_method with tensors of integer dtypes is refused: its parameters would be a
 * guess.
 *
 * GGUF: the architecture from the metadata keys llama.cpp writes (llama-arch.cpp):
 * {arch}.block_count, embedding_length, feed_forward_length, attention.head_count,
 * attention.head_count_kv, attention.key_length, attention.value_length, context_length,
 * expert_count, expert_used_count, expert_feed_forward_length, expert_shared_count,
 * leading_dense_block_count, attention.sliding_window; the vocabulary from the token list.
 * Keys for state that llama.cpp keeps outside the KV cache (SSM, RWKV, linear attention) or for
 * multi-head latent attention are refused by name: their memory is not modelled here, except
 * Granite 4.0-H's and Falcon-H1's Mamba-2 mixers ("granitehybrid", "falcon-h1":
 * read_gguf_mamba2_hybrid()) and Qwen3-Next's Gated DeltaNet ("qwen3next":
 * read_gguf_gated_deltanet()).
 */
#define G_LOG_DOMAIN "vc-model-file"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "vc-error.h"
#include "vc-gguf.h"
#include "vc-json-input.h"
#include "vc-model-file.h"
#include "vc-quant.h"

/* 64-bit sizes in messages: %llu, which gettext checks, rather than G_GUINT64_FORMAT */
#define U(x) ((unsigned long long) (x))
#include "vc-safetensors.h"

struct _VcModelFile
{
  GObject parent_instance;

  char *format;
  char *quantization;
  char *name;
  char *warning;
  gboolean encoder_in_mmproj;      /* a Gemma 3 GGUF: its vision encoder is an mmproj file */
  VcHfConfig *config;
  VcArch arch;
  guint64 n_tensors;
  guint64 file_bytes;
  double weights_bytes;
  double parameters;
  double active_parameters;
  guint64 max_context;
  gboolean has_precision;
  VcPrecision precision;
  VcInventory *inventory;          /* the tensors read; NULL: none (a bare config.json) */
};

G_DEFINE_FINAL_TYPE (VcModelFile, vc_model_file, G_TYPE_OBJECT)

enum
{
  PROP_0,
  PROP_FORMAT,
  PROP_QUANTIZATION,
  PROP_NAME,
  PROP_N_TENSORS,
  PROP_FILE_BYTES,
  PROP_WEIGHTS_BYTES,
  PROP_PARAMETERS,
  PROP_ACTIVE_PARAMETERS,
  PROP_MAX_CONTEXT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
vc_model_file_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  VcModelFile *self = VC_MODEL_FILE (object);

  switch (prop_id)
    {
    case PROP_FORMAT: g_value_set_string (value, self->format); break;
    case PROP_QUANTIZATION: g_value_set_string (value, self->quantization); break;
    case PROP_NAME: g_value_set_string (value, self->name); break;
    case PROP_N_TENSORS: g_value_set_uint64 (value, self->n_tensors); break;
    case PROP_FILE_BYTES: g_value_set_uint64 (value, self->file_bytes); break;
    case PROP_WEIGHTS_BYTES: g_value_set_double (value, self->weights_bytes); break;
    case PROP_PARAMETERS: g_value_set_double (value, self->parameters); break;
    case PROP_ACTIVE_PARAMETERS: g_value_set_double (value, self->active_parameters); break;
    case PROP_MAX_CONTEXT: g_value_set_uint64 (value, self->max_context); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_model_file_finalize (GObject *object)
{
  VcModelFile *self = VC_MODEL_FILE (object);

  g_free (self->format);
  g_free (self->quantization);
  g_free (self->name);
  g_free (self->warning);
  g_clear_object (&self->config);
  g_clear_pointer (&self->inventory, vc_inventory_unref);
  G_OBJECT_CLASS (vc_model_file_parent_class)->finalize (object);
}

#define RO (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)

static void
vc_model_file_class_init (VcModelFileClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = vc_model_file_finalize;
  object_class->get_property = vc_model_file_get_property;

  properties[PROP_FORMAT] =
    g_param_spec_string ("format", NULL, "config, safetensors or gguf", NULL, RO);
  properties[PROP_QUANTIZATION] =
    g_param_spec_string ("quantization", NULL, "How the files store the weights", NULL, RO);
  properties[PROP_NAME] =
    g_param_spec_string ("name", NULL, "The model's name", NULL, RO);
  properties[PROP_N_TENSORS] =
    g_param_spec_uint64 ("n-tensors", NULL, "Tensors read (0 for a config.json)", 0, G_MAXUINT64, 0, RO);
  properties[PROP_FILE_BYTES] =
    g_param_spec_uint64 ("file-bytes", NULL, "Size of the files on disk", 0, G_MAXUINT64, 0, RO);
  properties[PROP_WEIGHTS_BYTES] =
    g_param_spec_double ("weights-bytes", NULL, "The weights' bytes (< 0: unknown)", -1, G_MAXDOUBLE, -1, RO);
  properties[PROP_PARAMETERS] =
    g_param_spec_double ("parameters", NULL, "Parameters", 0, G_MAXDOUBLE, 0, RO);
  properties[PROP_ACTIVE_PARAMETERS] =
    g_param_spec_double ("active-parameters", NULL, "Parameters a token goes through", 0, G_MAXDOUBLE, 0, RO);
  properties[PROP_MAX_CONTEXT] =
    g_param_spec_uint64 ("max-context", NULL, "Longest context (0: not said)", 0, G_MAXUINT64, 0, RO);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
vc_model_file_init (VcModelFile *self)
{
  self->weights_bytes = -1;
}

#define fail(error, file_name, ...) vc_error_in_file ((error), VC_ERROR_PARSE, (file_name), __VA_ARGS__)

/* The precision whose scenario a checkpoint's bytes stand for, from its bits per parameter:
 * above 24 fp32, above 12 16-bit, above 6 the 8-bit scenario, else the 4-bit one. */
static VcPrecision
precision_for_bits (double   bits,
                    gboolean bf16)
{
  if (bits > 24)
    return VC_PRECISION_FP32;
  if (bits > 12)
    return bf16 ? VC_PRECISION_BF16 : VC_PRECISION_FP16;
  if (bits > 6)
    return VC_PRECISION_INT8;
  return VC_PRECISION_INT4;
}

/* ---- safetensors ----------------------------------------------------------------------------- */

typedef struct
{
  char *method;                    /* NULL: not quantized */
  guint bits;
  gboolean nf4;                    /* bitsandbytes 4-bit: bnb_4bit_quant_type "nf4" */
} Quant;

static void
quant_clear (Quant *q)
{
  g_clear_pointer (&q->method, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Quant, quant_clear)

/* A config.json's JSON, through the one guarded way in (vc-json-input.c) */
static JsonNode *
load_config_json (GFile       *config_file,
                  const char  *shown,
                  GError     **error)
{
  g_autoptr(GBytes) bytes = vc_json_input_read_file (config_file, shown, _("a config.json"), NULL, error);
  const char *data;
  gsize length;

  if (bytes == NULL)
    return NULL;
  data = g_bytes_get_data (bytes, &length);
  return vc_json_input_parse (data ? data : "", length, shown, _("a config.json"), NULL, error);
}

static gboolean
read_quant (GFile   *config_file,
            Quant   *q,
            GError **error)
{
  g_autofree char *shown = g_file_get_parse_name (config_file);
  g_autoptr(JsonNode) root_owner = NULL;
  JsonNode *root, *qnode, *node;
  JsonObject *qo;

  root_owner = load_config_json (config_file, shown, error);
  if (root_owner == NULL)
    return FALSE;
  root = root_owner;
  if (!JSON_NODE_HOLDS_OBJECT (root))
    return TRUE;
  qnode = json_object_get_member (json_node_get_object (root), "quantization_config");
  if (qnode == NULL || !JSON_NODE_HOLDS_OBJECT (qnode))
    return TRUE;
  qo = json_node_get_object (qnode);
  node = json_object_get_member (qo, "quant_method");
  q->method = g_strdup (node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
                        ? json_node_get_string (node) : "unknown");
  node = json_object_get_member (qo, "bits");
  if (node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_INT64)
    q->bits = (guint) CLAMP (json_node_get_int (node), 0, 64);
  if (g_str_equal (q->method, "bitsandbytes"))
    {
      node = json_object_get_member (qo, "load_in_4bit");
      q->bits = node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_boolean (node) ? 4 : 8;
      node = json_object_get_member (qo, "bnb_4bit_quant_type");
      q->nf4 = node && JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING &&
               g_str_equal (json_node_get_string (node), "nf4");
    }
  if (g_str_equal (q->method, "compressed-tensors"))
    {
      /* config_groups.*.weights.num_bits: one width for every group, else refused */
      JsonNode *groups = json_object_get_member (qo, "config_groups");

      if (groups && JSON_NODE_HOLDS_OBJECT (groups))
        {
          g_autoptr(GList) members = json_object_get_members (json_node_get_object (groups));

          for (GList *l = members; l; l = l->next)
            {
              JsonNode *g = json_object_get_member (json_node_get_object (groups), l->data);
              JsonNode *w, *nb;

              if (!JSON_NODE_HOLDS_OBJECT (g) ||
                  (w = json_object_get_member (json_node_get_object (g), "weights")) == NULL ||
                  !JSON_NODE_HOLDS_OBJECT (w) ||
                  (nb = json_object_get_member (json_node_get_object (w), "num_bits")) == NULL ||
                  !JSON_NODE_HOLDS_VALUE (nb) || json_node_get_value_type (nb) != G_TYPE_INT64)
                continue;
              if (q->bits != 0 && q->bits != json_node_get_int (nb))
                return fail (error, shown, _("quantization_config.config_groups use several weight widths; one is read"));
              q->bits = (guint) CLAMP (json_node_get_int (nb), 0, 64);
            }
        }
    }
  return TRUE;
}

static gboolean
name_ends (const char *name,
           const char *suffix)
{
  return g_str_has_suffix (name, suffix);
}

/* How many parameters a tensor holds (0: scales and other quantization state), or -1 when the
 * checkpoint's packing is not known. */
static double
tensor_parameters (const char       *name,
                   const VcStTensor *t,
                   const Quant      *q)
{
  gboolean integer = t->dtype == VC_ST_DTYPE_I32 || t->dtype == VC_ST_DTYPE_U32 ||
                     t->dtype == VC_ST_DTYPE_U8 || t->dtype == VC_ST_DTYPE_I8 ||
                     t->dtype == VC_ST_DTYPE_I64 || t->dtype == VC_ST_DTYPE_I16 ||
                     t->dtype == VC_ST_DTYPE_U16;
  const char *m = q->method;

  if (m == NULL)
    return (double) t->elements;
  if (g_str_equal (m, "gptq") || g_str_equal (m, "awq"))
    {
      if (name_ends (name, ".qweight"))
        return q->bits > 0 && 32 % q->bits == 0 ? (double) t->elements * (32 / q->bits) : -1;
      if (name_ends (name, ".qzeros") || name_ends (name, ".scales") || name_ends (name, ".g_idx"))
        return 0;
    }
  else if (g_str_equal (m, "mxfp4"))
    {
      if (name_ends (name, "_blocks"))
        return (double) t->elements * 2;
      if (name_ends (name, "_scales"))
        return 0;
    }
  else if (g_str_equal (m, "fp8") || g_str_equal (m, "fbgemm_fp8"))
    {
      if (name_ends (name, ".weight_scale") || name_ends (name, ".weight_scale_inv") ||
          name_ends (name, ".input_scale") || name_ends (name, ".input_scale_ub"))
        return 0;
      if (t->dtype == VC_ST_DTYPE_F8_E4M3 || t->dtype == VC_ST_DTYPE_F8_E5M2)
        return (double) t->elements;
    }
  else if (g_str_equal (m, "bitsandbytes"))
    {
      if (strstr (name, ".absmax") || strstr (name, ".quant_map") || strstr (name, ".nested_") ||
          strstr (name, ".quant_state.") || name_ends (name, ".SCB") || name_ends (name, ".weight_format"))
        return 0;
      if (q->bits == 4 && t->dtype == VC_ST_DTYPE_U8 && name_ends (name, ".weight"))
        return (double) t->elements * 2;
      if (q->bits == 8 && t->dtype == VC_ST_DTYPE_I8)
        return (double) t->elements;
    }
  else if (g_str_equal (m, "compressed-tensors"))
    {
      if (name_ends (name, ".weight_packed"))
        return q->bits > 0 && 32 % q->bits == 0 ? (double) t->elements * (32 / q->bits) : -1;
      if (name_ends (name, ".weight_scale") || name_ends (name, ".weight_zero_point") ||
          name_ends (name, ".weight_shape") || name_ends (name, ".weight_g_idx") ||
          name_ends (name, ".input_scale") || name_ends (name, ".weight_global_scale") ||
          name_ends (name, ".input_global_scale"))
        return 0;
      if (!integer || t->dtype == VC_ST_DTYPE_I8)
        return (double) t->elements;
    }
  /* floating-point tensors are weights kept unquantized (norms, embeddings, skipped modules) */
  return integer ? -1 : (double) t->elements;
}

static gboolean
is_expert_tensor (const char *name)
{
  /* Mixtral block_sparse_moe.experts.N, Qwen/DeepSeek mlp.experts.N, gpt-oss mlp.experts.*; not
   * shared experts */
  return strstr (name, ".experts.") != NULL && strstr (name, "shared_expert") == NULL;
}

static gboolean
load_safetensors (VcModelFile   *self,
                  GFile         *folder,
                  GCancellable  *cancellable,
                  GError       **error)
{
  g_auto(VcSafetensors) st = { 0 };
  g_auto(Quant) q = { 0 };
  g_autoptr(GFile) config_file = g_file_get_child (folder, "config.json");
  g_autofree char *shown = g_file_get_parse_name (folder);
  GHashTableIter iter;
  gpointer key, value;
  double params = 0, expert_params = 0, encoder_params = 0;
  guint64 dominant = 0;
  VcStDtype dominant_dtype = VC_ST_DTYPE_BF16;
  g_autoptr(VcInventory) inv = NULL;
  const VcArch *arch;

  self->config = vc_hf_config_new_for_file (config_file, cancellable, error);
  if (self->config == NULL)
    return FALSE;
  if (!read_quant (config_file, &q, error))
    return FALSE;
  vc_safetensors_init (&st);
  if (!vc_safetensors_read_folder (&st, folder, cancellable, error))
    return FALSE;

  arch = vc_hf_config_get_arch (self->config);
  inv = vc_inventory_new (arch);
  g_hash_table_iter_init (&iter, st.tensors);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const VcStTensor *t = value;
      double p = tensor_parameters (key, t, &q);
      int layer;
      VcTensorRole role;

      if (p < 0)
        return fail (error, shown, _("tensor “%s” is %s, packed in a way quantization_config (quant_method “%s”) does not describe"),
                     (char *) key, vc_st_dtype_name (t->dtype), q.method ? q.method : "none");
      role = vc_tensor_role_for_hf_name (key, arch->n_layers, &layer);
      vc_inventory_add (inv, role, layer, p, (double) t->bytes);
      params += p;
      if (role == VC_TENSOR_ENCODER)
        encoder_params += p;
      if (is_expert_tensor (key))
        expert_params += p;
    }
  for (guint d = 0; d < VC_ST_N_DTYPES; d++)
    if (st.dtype_bytes[d] > dominant)
      {
        dominant = st.dtype_bytes[d];
        dominant_dtype = d;
      }
  if (params <= 0)
    return fail (error, shown, _("the safetensors files hold no weights"));

  self->format = g_strdup ("safetensors");
  self->arch = *vc_hf_config_get_arch (self->config);
  self->max_context = self->arch.max_context;
  self->name = g_strdup (vc_hf_config_get_name (self->config));
  self->n_tensors = st.n_tensors;
  self->file_bytes = st.file_bytes;
  self->weights_bytes = (double) st.tensor_bytes;
  vc_inventory_seal (inv);
  self->inventory = g_steal_pointer (&inv);
  self->parameters = params;
  self->active_parameters = params - encoder_params;
  if (vc_arch_is_moe (&self->arch) && self->arch.n_experts > 0)
    self->active_parameters = params - expert_params * (1.0 - (double) self->arch.experts_per_token / self->arch.n_experts);
  if (q.method)
    self->quantization = q.bits ? g_strdup_printf ("%s %u-bit", q.method, q.bits) : g_strdup (q.method);
  else
    self->quantization = g_strdup (vc_st_dtype_name (dominant_dtype));
  self->has_precision = TRUE;
  if (q.method && (g_str_has_prefix (q.method, "fp8") || g_str_equal (q.method, "fbgemm_fp8")))
    self->precision = VC_PRECISION_FP8;
  else if (q.method && g_str_equal (q.method, "mxfp4"))
    self->precision = VC_PRECISION_MXFP4;
  else if (q.method && q.bits == 4 && g_str_equal (q.method, "gptq"))
    self->precision = VC_PRECISION_GPTQ_INT4;
  else if (q.method && q.bits == 4 && g_str_equal (q.method, "awq"))
    self->precision = VC_PRECISION_AWQ_INT4;
  else if (q.method && q.bits == 4 && g_str_equal (q.method, "bitsandbytes") && q.nf4)
    self->precision = VC_PRECISION_NF4;
  else if (q.method && q.bits > 0)
    /* the quantized linear layers decide the scenario, whatever stays in 16 bits */
    self->precision = q.bits <= 4 ? VC_PRECISION_INT4 : VC_PRECISION_INT8;
  else
    self->precision = precision_for_bits (self->weights_bytes * 8.0 / params,
                                          dominant_dtype == VC_ST_DTYPE_BF16);
  if (dominant_dtype == VC_ST_DTYPE_F32 && !q.method)
    self->precision = VC_PRECISION_FP32;
  if (vc_hf_config_get_warning (self->config))
    self->warning = g_strdup (vc_hf_config_get_warning (self->config));
  return TRUE;
}

/* ---- GGUF --------------------------------------------------------------------------------------- */

static const char *
ftype_name (guint64 ftype)
{
  /* llama.h enum llama_ftype */
  static const char *names[] = {
    [0] = "F32", [1] = "F16", [2] = "Q4_0", [3] = "Q4_1", [7] = "Q8_0", [8] = "Q5_0",
    [9] = "Q5_1", [10] = "Q2_K", [11] = "Q3_K_S", [12] = "Q3_K_M", [13] = "Q3_K_L",
    [14] = "Q4_K_S", [15] = "Q4_K_M", [16] = "Q5_K_S", [17] = "Q5_K_M", [18] = "Q6_K",
    [19] = "IQ2_XXS", [20] = "IQ2_XS", [21] = "Q2_K_S", [22] = "IQ3_XS", [23] = "IQ3_XXS",
    [24] = "IQ1_S", [25] = "IQ4_NL", [26] = "IQ3_S", [27] = "IQ3_M", [28] = "IQ2_S",
    [29] = "IQ2_M", [30] = "IQ4_XS", [31] = "IQ1_M", [32] = "BF16", [36] = "TQ1_0",
    [37] = "TQ2_0", [38] = "MXFP4_MOE",
  };

  return ftype < G_N_ELEMENTS (names) ? names[ftype] : NULL;
}

/* A GGUF file's metadata, with its architecture's name (the prefix of its keys) and the file's
 * name for messages. */
typedef struct
{
  VcGguf     *g;
  const char *arch;
  const char *shown;
} GgufMeta;

/* An integer key, scalar or per-layer array; per-layer arrays must hold one value. */
static gboolean
gguf_uint (const GgufMeta *m,
           const char     *suffix,
           gboolean        required,
           guint64         fallback,
           guint64        *out,
           GError        **error)
{
  g_autofree char *key = g_strdup_printf ("%s.%s", m->arch, suffix);
  const VcGgufValue *v = vc_gguf_get (m->g, key);

  if (v == NULL)
    {
      if (required)
        return fail (error, m->shown, _("the metadata has no %s"), key);
      *out = fallback;
      return TRUE;
    }
  if (v->kind == VC_GGUF_VALUE_ARRAY && v->values && v->values->len > 0)
    {
      gint64 first = g_array_index (v->values, gint64, 0);

      for (guint i = 1; i < v->values->len; i++)
        if (g_array_index (v->values, gint64, i) != first)
          return fail (error, m->shown, _("%s differs from layer to layer, which is not modelled"), key);
      if (first < 0)
        return fail (error, m->shown, _("%s is negative"), key);
      *out = (guint64) first;
      return TRUE;
    }
  if (!vc_gguf_get_uint (m->g, key, out))
    return fail (error, m->shown, _("%s is not a whole number"), key);
  return TRUE;
}

/* gguf_uint() into a guint, at most G_MAXUINT. */
static gboolean
gguf_guint (const GgufMeta *m,
            const char     *suffix,
            gboolean        required,
            guint64         fallback,
            guint          *out,
            GError        **error)
{
  guint64 v;

  if (!gguf_uint (m, suffix, required, fallback, &v, error))
    return FALSE;
  *out = (guint) MIN (v, G_MAXUINT);
  return TRUE;
}

static gboolean
has_tensor (GHashTable *names,
            const char *name)
{
  return g_hash_table_contains (names, name);
}

/* Layers with a sliding window when the file gives a window but no per-layer pattern: the
 * patterns llama.cpp's llama-model.cpp sets per architecture (every n-th layer global). */
static guint
swa_pattern_for (const char *arch)
{
  if (g_str_equal (arch, "gemma2") || g_str_equal (arch, "gpt-oss") || g_str_equal (arch, "openai-moe"))
    return 2;
  if (g_str_equal (arch, "gemma3") || g_str_equal (arch, "gemma3n"))
    return 6;
  if (g_str_equal (arch, "cohere2"))
    return 4;
  return 0;
}

/* Granite 4.0-H's and Falcon-H1's GGUF (llama.cpp's convert_hf_to_gguf.py, GraniteHybridModel.
 * and Mamba2Model.set_gguf_parameters, FalconH1Model's on top): their Mamba-2 mixers are read
 * from these ssm keys */
#define GGUF_MAMBA2_HYBRID "granitehybrid"
#define GGUF_MAMBA2_PARALLEL "falcon-h1"
static const char *const mamba2_keys[] = {
  "ssm.conv_kernel", "ssm.inner_size", "ssm.state_size", "ssm.time_step_rank", "ssm.group_count",
};

static gboolean
mamba2_arch (const GgufMeta *m)
{
  return g_str_equal (m->arch, GGUF_MAMBA2_HYBRID) || g_str_equal (m->arch, GGUF_MAMBA2_PARALLEL);
}

/* Qwen3-Next's GGUF (llama.cpp's conversion/qwen.py, Qwen3NextModel.set_gguf_parameters): its
 * Gated DeltaNet mixers from the same ssm keys and full_attention_interval */
#define GGUF_GATED_DELTANET "qwen3next"

static gboolean
mamba2_key (const GgufMeta *m,
            const char     *key)
{
  gboolean deltanet = g_str_equal (m->arch, GGUF_GATED_DELTANET);

  if ((!mamba2_arch (m) && !deltanet) || !g_str_has_prefix (key, m->arch) ||
      key[strlen (m->arch)] != '.')
    return FALSE;
  if (deltanet && g_str_equal (key + strlen (m->arch) + 1, "full_attention_interval"))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (mamba2_keys); i++)
    if (g_str_equal (key + strlen (m->arch) + 1, mamba2_keys[i]))
      return TRUE;
  return FALSE;
}

/* Keys for memory this estimate does not model (state outside the KV cache, latent
 * attention) are refused by name, but for the Mamba-2 and Gated DeltaNet keys read below. */
static gboolean
refuse_unmodelled_keys (const GgufMeta *m,
                        GError        **error)
{
  static const char *const unmodelled[] = {
    ".ssm.", ".wkv.", ".time_mix", ".token_shift", ".rescale_every_n_layers",
    ".attention.kv_lora_rank", ".attention.q_lora_rank", ".full_attention_interval",
    ".shortconv.", ".linear_attention", ".attention.chunk_size", ".n_deepstack_layers",
    ".attention.recurrent_layers",
  };
  g_autoptr(GList) keys = g_hash_table_get_keys (m->g->metadata);

  for (GList *l = keys; l; l = l->next)
    for (guint i = 0; i < G_N_ELEMENTS (unmodelled); i++)
      if (g_str_has_prefix (l->data, m->arch) && strstr (l->data, unmodelled[i]) && !mamba2_key (m, l->data))
        return fail (error, m->shown, _("%s describes memory that is not modelled (architecture “%s”); it cannot be estimated exactly"),
                     (char *) l->data, m->arch);
  return TRUE;
}

/* Granite 4.0-H's attention.head_count_kv: one value a layer, 0 for its Mamba-2 layers
 * (llama.cpp's llama-model.cpp: recurrent_layer_arr[i] = n_head_kv(i) == 0), the others' one
 * count; the Mamba-2 layers in @recurrent */
static gboolean
gguf_hybrid_kv_heads (const GgufMeta *m,
                      VcArch         *a,
                      guint          *recurrent,
                      GError        **error)
{
  g_autofree char *key = g_strdup_printf ("%s.attention.head_count_kv", m->arch);
  const VcGgufValue *v = vc_gguf_get (m->g, key);
  g_autofree gboolean *attends = NULL;
  gint64 heads = 0;

  *recurrent = 0;
  if (v == NULL || v->kind != VC_GGUF_VALUE_ARRAY || v->values == NULL || v->values->len != a->n_layers)
    return fail (error, m->shown, _("%s must give each of the %u layers its KV heads (0 for a Mamba-2 layer)"),
                 key, a->n_layers);
  attends = g_new0 (gboolean, a->n_layers);
  for (guint i = 0; i < v->values->len; i++)
    {
      gint64 n = g_array_index (v->values, gint64, i);

      if (n < 0 || (n > 0 && heads > 0 && n != heads))
        return fail (error, m->shown, _("%s differs from layer to layer, which is not modelled"), key);
      if (n == 0)
        (*recurrent)++;
      else
        heads = n;
      attends[i] = n > 0;
    }
  if (heads == 0 || heads > G_MAXUINT)
    return fail (error, m->shown, _("%s gives no attention layer"), key);
  a->n_kv_heads = (guint) heads;
  /* which layers attend, where periodic (the architecture field attention-layer-period) */
  vc_arch_attention_pattern (attends, a->n_layers, &a->attention_layer_period, &a->attention_layer_offset);
  return TRUE;
}

/* The layers, hidden size and attention heads; keys and values of one length. */
static gboolean
read_gguf_attention (const GgufMeta *m,
                     VcArch         *a,
                     GError        **error)
{
  guint64 key_length, value_length;
  guint recurrent = 0;

  if (!gguf_guint (m, "block_count", TRUE, 0, &a->n_layers, error) ||
      !gguf_guint (m, "embedding_length", TRUE, 0, &a->hidden_size, error) ||
      !gguf_guint (m, "attention.head_count", TRUE, 0, &a->n_heads, error))
    return FALSE;
  if (g_str_equal (m->arch, GGUF_MAMBA2_HYBRID))
    {
      if (!gguf_hybrid_kv_heads (m, a, &recurrent, error))
        return FALSE;
      a->recurrent_layers = recurrent;
    }
  else if (!gguf_guint (m, "attention.head_count_kv", FALSE, a->n_heads, &a->n_kv_heads, error))
    return FALSE;
  /* Falcon-H1: a Mamba-2 mixer beside attention in every layer (llm_build_falcon_h1) */
  if (g_str_equal (m->arch, GGUF_MAMBA2_PARALLEL))
    {
      a->recurrent_layers = a->n_layers;
      a->recurrent_with_attention = TRUE;
    }
  if (a->n_heads == 0)
    return fail (error, m->shown, _("%s.attention.head_count is 0"), m->arch);
  if (!gguf_uint (m, "attention.key_length", FALSE, a->hidden_size / a->n_heads, &key_length, error) ||
      !gguf_uint (m, "attention.value_length", FALSE, key_length, &value_length, error))
    return FALSE;
  if (key_length != value_length)
    return fail (error, m->shown, _("keys (%llu) and values (%llu) of different lengths are not modelled"),
                 U(key_length), U(value_length));
  a->head_dim = (guint) MIN (key_length, G_MAXUINT);
  return TRUE;
}

/* The feed-forward sizes, and the experts of a mixture of experts. */
static gboolean
read_gguf_mlp (const GgufMeta *m,
               VcArch         *a,
               GError        **error)
{
  guint64 v;

  if (!gguf_guint (m, "feed_forward_length", FALSE, 0, &a->intermediate_size, error) ||
      !gguf_guint (m, "expert_count", FALSE, 0, &a->n_experts, error))
    return FALSE;
  if (a->n_experts > 0)
    {
      if (!gguf_guint (m, "expert_used_count", TRUE, 0, &a->experts_per_token, error) ||
          !gguf_guint (m, "expert_feed_forward_length", FALSE, a->intermediate_size, &a->expert_intermediate_size, error) ||
          !gguf_guint (m, "expert_shared_count", FALSE, 0, &a->n_shared_experts, error) ||
          !gguf_uint (m, "leading_dense_block_count", FALSE, 0, &v, error))
        return FALSE;
      a->dense_layers = (guint) MIN (v, a->n_layers);
    }
  if (a->intermediate_size == 0)
    a->intermediate_size = a->expert_intermediate_size ? a->expert_intermediate_size : 1;
  return TRUE;
}

/* Granite 4.0-H's and Falcon-H1's Mamba-2 mixers from the keys llama.cpp writes
 * (convert_hf_to_gguf.py, GraniteHybridModel and Mamba2Model.set_gguf_parameters, time_step_rank
 * the heads, d_inner // head_dim; read by llama-model.cpp as ssm_d_conv, ssm_d_inner,
 * ssm_d_state, ssm_dt_rank, ssm_n_group): kernel K, width I = H heads × head, state N, groups G.
 * As the config reader gives them (vc-hf-config.c, mamba2_apply): the convolution's last K − 1
 * inputs over I + 2·G·N channels and an H × head × N state per sequence; a mixer's parameters,
 * the elements of a Mamba-2 layer's ssm_* tensors. Its shared expert: expert_shared_feed_
 * forward_length (GraniteMoeModel.set_gguf_parameters). */
static gboolean
read_gguf_mamba2_hybrid (const GgufMeta *m,
                         VcArch         *a,
                         GError        **error)
{
  g_autofree char *key = g_strdup_printf ("%s.attention.head_count_kv", m->arch);
  const VcGgufValue *kv = vc_gguf_get (m->g, key);
  guint64 kernel, width, state, heads, groups, shared, conv, params = 0, group_biases = 0;
  gint layer = g_str_equal (m->arch, GGUF_MAMBA2_PARALLEL) ? 0 : -1;

  if (!gguf_uint (m, "ssm.conv_kernel", TRUE, 0, &kernel, error) ||
      !gguf_uint (m, "ssm.inner_size", TRUE, 0, &width, error) ||
      !gguf_uint (m, "ssm.state_size", TRUE, 0, &state, error) ||
      !gguf_uint (m, "ssm.time_step_rank", TRUE, 0, &heads, error) ||
      !gguf_uint (m, "ssm.group_count", TRUE, 0, &groups, error) ||
      !gguf_uint (m, "expert_shared_feed_forward_length", FALSE, 0, &shared, error))
    return FALSE;
  if (kernel < 2 || kernel > 1024 || width == 0 || width > G_MAXUINT32 || state == 0 || state > G_MAXUINT32 ||
      heads == 0 || width % heads != 0 || groups == 0 || groups > heads)
    return fail (error, m->shown, _("%s.ssm.* do not describe a Mamba-2 mixer (kernel %llu, width %llu, "
                                    "state %llu, heads %llu, groups %llu)"),
                 m->arch, U(kernel), U(width), U(state), U(heads), U(groups));
  /* in doubles first: 2·G·N of two 32-bit counts can pass 64 bits */
  if ((double) width + 2.0 * groups * state > G_MAXUINT ||
      ((double) width + 2.0 * groups * state) * (kernel - 1) + (double) width * state > G_MAXUINT)
    return fail (error, m->shown, _("%s.ssm.* give a state too large to model"), m->arch);
  conv = width + 2 * groups * state;
  /* SGLang's GraniteMoeHybrid and FalconH1 classes run on one stage (VcArch.sglang_one_stage) */
  a->sglang_one_stage = TRUE;
  a->recurrent_heads = (guint) heads;
  a->recurrent_groups = (guint) groups;
  a->recurrent_conv = (guint) (conv * (kernel - 1));
  a->recurrent_state = (guint) (conv * (kernel - 1) + width * state);

  for (guint i = 0; kv != NULL && kv->kind == VC_GGUF_VALUE_ARRAY && kv->values != NULL && i < kv->values->len &&
                  layer < 0; i++)
    if (g_array_index (kv->values, gint64, i) == 0)
      layer = (gint) i;
  if (layer >= 0)
    {
      g_autofree char *prefix = g_strdup_printf ("blk.%d.ssm_", layer);

      for (guint i = 0; i < m->g->tensors->len; i++)
        {
          const VcGgufTensor *t = m->g->tensors->pdata[i];

          if (g_str_has_prefix (t->name, prefix))
            {
              params += t->elements;
              /* the biases of in_proj and of the convolution, which a group's rows carry too */
              if (g_str_equal (t->name + strlen (prefix), "in.bias") || g_str_equal (t->name + strlen (prefix), "conv1d.bias"))
                group_biases++;
            }
        }
    }
  if (params == 0 || params > G_MAXUINT)
    return fail (error, m->shown, _("the Mamba-2 layers have no ssm tensors to count"));
  a->recurrent_params = (guint) params;
  /* as the config reader: one group's 2·N rows of in_proj (h wide) and of the convolution (K
   * wide), with their biases */
  if (2.0 * state * ((double) a->hidden_size + kernel + group_biases) > G_MAXUINT)
    return fail (error, m->shown, _("%s.ssm.* give a state too large to model"), m->arch);
  a->mamba_state_size = (guint) state;
  a->mamba_group_params = (guint) (2 * state * (a->hidden_size + kernel + group_biases));
  /* as the config reader: the shared MLP beside the experts, or alone without them */
  if (shared > 0 && shared <= G_MAXUINT && a->n_experts > 0)
    {
      a->shared_intermediate_size = (guint) shared;
      a->n_shared_experts = 1;
    }
  else if (shared > 0 && shared <= G_MAXUINT)
    a->intermediate_size = (guint) shared;
  return TRUE;
}

/* Qwen3-Next's Gated DeltaNet mixers from the keys llama.cpp writes (conversion/qwen.py,
 * Qwen3NextModel.set_gguf_parameters: ssm.conv_kernel linear_conv_kernel_dim, ssm.state_size
 * linear_key_head_dim, ssm.group_count linear_num_key_heads, ssm.time_step_rank
 * linear_num_value_heads, ssm.inner_size linear_value_head_dim × linear_num_value_heads,
 * full_attention_interval; its shared expert expert_shared_feed_forward_length, by
 * Qwen2MoeModel) and as src/models/qwen3next.cpp loads them: a layer is recurrent unless
 * (i + 1) % full_attention_interval is 0 (4 without the key), its value heads as wide as its key
 * heads (ssm_norm and ssm_out take head_v_dim = ssm_d_state), the shared expert n_ff without
 * expert_shared_feed_forward_length; attention gated (attn_q h → 2 × heads × head) with q and k
 * norms. As the config reader gives them (read_qwen3_next): recurrent-conv (2·Kd + Vd) × (K − 1),
 * recurrent-state that + Hv × key × value; recurrent-params the elements of a recurrent layer's
 * attn_qkv, attn_gate and ssm_* tensors. */
static gboolean
read_gguf_gated_deltanet (const GgufMeta *m,
                          GHashTable     *names,
                          VcArch         *a,
                          GError        **error)
{
  guint64 kernel, inner, key, v_heads, k_heads, interval, shared, conv, params = 0;
  g_autofree char *q_norm = NULL;

  if (!gguf_uint (m, "ssm.conv_kernel", TRUE, 0, &kernel, error) ||
      !gguf_uint (m, "ssm.inner_size", TRUE, 0, &inner, error) ||
      !gguf_uint (m, "ssm.state_size", TRUE, 0, &key, error) ||
      !gguf_uint (m, "ssm.time_step_rank", TRUE, 0, &v_heads, error) ||
      !gguf_uint (m, "ssm.group_count", TRUE, 0, &k_heads, error) ||
      !gguf_uint (m, "full_attention_interval", FALSE, 4, &interval, error) ||
      !gguf_uint (m, "expert_shared_feed_forward_length", FALSE, 0, &shared, error))
    return FALSE;
  if (kernel < 2 || kernel > 1024 || key == 0 || key > G_MAXUINT32 || v_heads == 0 || v_heads > G_MAXUINT32 ||
      k_heads == 0 || k_heads > v_heads || v_heads % k_heads != 0 || interval < 2 || interval > a->n_layers)
    return fail (error, m->shown, _("%s.ssm.* and %s.full_attention_interval do not describe Gated DeltaNet "
                                    "layers (kernel %llu, key head %llu, key heads %llu, value heads %llu, "
                                    "full attention every %llu layers)"),
                 m->arch, m->arch, U(kernel), U(key), U(k_heads), U(v_heads), U(interval));
  if (inner != key * v_heads)
    return fail (error, m->shown, _("%s.ssm.inner_size (%llu) is not ssm.state_size × ssm.time_step_rank (%llu), "
                                    "the only value heads llama.cpp loads"),
                 m->arch, U(inner), U(key * v_heads));
  /* in doubles first: the state of two 32-bit counts can pass 64 bits */
  if (((double) 2 * k_heads * key + inner) * (kernel - 1) + (double) inner * key > G_MAXUINT)
    return fail (error, m->shown, _("%s.ssm.* give a state too large to model"), m->arch);
  conv = 2 * k_heads * key + inner;
  a->sglang_one_stage = TRUE;
  a->recurrent_layers = a->n_layers - a->n_layers / (guint) interval;
  /* src/models/qwen3next.cpp: attention where (i + 1) % interval == 0 */
  a->attention_layer_period = (guint) interval;
  a->attention_layer_offset = (guint) interval - 1;
  a->recurrent_heads = (guint) v_heads;
  a->recurrent_groups = (guint) k_heads;
  a->recurrent_conv = (guint) (conv * (kernel - 1));
  a->recurrent_state = (guint) (conv * (kernel - 1) + inner * key);
  a->gated_attention = TRUE;
  q_norm = g_strdup_printf ("blk.%u.attn_q_norm.weight", (guint) interval - 1);
  a->qk_norm = has_tensor (names, q_norm);
  /* layer 0 is recurrent ((0 + 1) % interval != 0) */
  for (guint i = 0; i < m->g->tensors->len; i++)
    {
      const VcGgufTensor *t = m->g->tensors->pdata[i];

      if (g_str_has_prefix (t->name, "blk.0.ssm_") || g_str_has_prefix (t->name, "blk.0.attn_qkv.") ||
          g_str_has_prefix (t->name, "blk.0.attn_gate."))
        params += t->elements;
    }
  if (params == 0 || params > G_MAXUINT)
    return fail (error, m->shown, _("the Gated DeltaNet layers have no tensors to count"));
  a->recurrent_params = (guint) params;
  if (shared == 0)
    shared = a->intermediate_size;
  if (a->n_experts == 0 || shared > G_MAXUINT)
    return fail (error, m->shown, _("%s has no experts, which llama.cpp does not load"), m->arch);
  a->shared_intermediate_size = (guint) shared;
  a->n_shared_experts = 1;
  a->shared_expert_gate = TRUE;
  return TRUE;
}

/* The vocabulary: the token list's length, else {arch}.vocab_size. */
static gboolean
read_gguf_vocab (const GgufMeta *m,
                 VcArch         *a,
                 GError        **error)
{
  const VcGgufValue *tokens = vc_gguf_get (m->g, "tokenizer.ggml.tokens");

  if (tokens && tokens->kind == VC_GGUF_VALUE_ARRAY)
    {
      a->vocab_size = (guint) MIN (tokens->length, G_MAXUINT);
      return TRUE;
    }
  return gguf_guint (m, "vocab_size", TRUE, 0, &a->vocab_size, error);
}

/* What the first layer's tensors say: tied embeddings, gated MLP, norms and biases. */
static void
arch_from_tensor_names (GHashTable *names,
                        VcArch     *a)
{
  a->tied_embeddings = !has_tensor (names, "output.weight");
  a->gated_mlp = has_tensor (names, "blk.0.ffn_gate.weight") || has_tensor (names, "blk.0.ffn_gate_exps.weight") ||
                 !has_tensor (names, "blk.0.ffn_up.weight");
  a->norm = has_tensor (names, "blk.0.attn_norm.bias") ? VC_NORM_LAYER : VC_NORM_RMS;
  a->norms_per_layer = has_tensor (names, "blk.0.attn_norm.weight") + has_tensor (names, "blk.0.ffn_norm.weight") +
                       has_tensor (names, "blk.0.post_attention_norm.weight") + has_tensor (names, "blk.0.post_ffw_norm.weight");
  a->qk_norm = has_tensor (names, "blk.0.attn_q_norm.weight");
  a->qkv_bias = has_tensor (names, "blk.0.attn_q.bias") || has_tensor (names, "blk.0.attn_qkv.bias");
  a->o_bias = has_tensor (names, "blk.0.attn_output.bias");
  a->mlp_bias = has_tensor (names, "blk.0.ffn_up.bias");
}

/* The sliding window and the layers that use it: a per-layer pattern, a period, or the
 * architecture's own pattern. */
static gboolean
read_gguf_sliding_window (const GgufMeta *m,
                          VcArch         *a,
                          GError        **error)
{
  g_autofree char *pattern_key = NULL;
  const VcGgufValue *pattern;
  guint64 window = 0, v;
  guint n = 0, period = 0;

  if (!gguf_uint (m, "attention.sliding_window", FALSE, 0, &window, error))
    return FALSE;
  if (window == 0)
    return TRUE;
  pattern_key = g_strdup_printf ("%s.attention.sliding_window_pattern", m->arch);
  pattern = vc_gguf_get (m->g, pattern_key);
  if (pattern && pattern->kind == VC_GGUF_VALUE_ARRAY && pattern->values)
    {
      gboolean periodic = TRUE;

      /* nonzero: a windowed layer; the period where every Pth layer alone is full */
      for (guint i = 0; i < pattern->values->len && i < a->n_layers; i++)
        {
          gboolean sliding = g_array_index (pattern->values, gint64, i) != 0;

          n += sliding;
          if (!sliding && period == 0)
            period = i + 1;
          periodic = periodic && (period == 0 || sliding == ((i + 1) % period != 0));
        }
      period = periodic && pattern->values->len >= a->n_layers ? period : 0;
    }
  else if (pattern && vc_gguf_get_uint (m->g, pattern_key, &v) && v > 0)
    {
      /* llama.cpp's set_swa_pattern: layer il windowed when il % P < P − 1 */
      period = (guint) MIN (v, G_MAXUINT);
      n = a->n_layers - a->n_layers / period;
    }
  else if (swa_pattern_for (m->arch) > 0)
    {
      period = swa_pattern_for (m->arch);
      n = a->n_layers - a->n_layers / period;
    }
  else
    return fail (error, m->shown, _("%s.attention.sliding_window is given without the layers that use it"), m->arch);
  a->sliding_window = (guint) MIN (window, G_MAXUINT);
  a->sliding_window_layers = n;
  a->sliding_window_pattern = n < a->n_layers ? period : 0;
  return TRUE;
}

/* The RoPE table vLLM or SGLang would build for the model (FORMULAS.md, "vLLM's and SGLang's
 * RoPE tables"; llama.cpp keeps none): context_length is max_position_embeddings as
 * convert_hf_to_gguf.py writes it, rope.dimension_count the rotary dimension (absent: the key
 * length). Without rope scaling (or llama3's, which the converter turns into a rope_freqs
 * tensor) the rows are context_length; another rope.scaling.type is not followed. */
static gboolean
read_gguf_rope (const GgufMeta *m,
                VcArch         *a,
                GError        **error)
{
  g_autofree char *type_key = g_strdup_printf ("%s.rope.scaling.type", m->arch);
  const char *type = vc_gguf_get_string (m->g, type_key);
  guint rotary, positions;

  a->rope_table_rows = a->rotary_dim = 0;
  a->rope_table_kind = VC_ROPE_TABLE_PLAIN;
  if (a->max_positions > 0 || vc_arch_attention_layers (a) == 0)
    return TRUE;
  if (!gguf_guint (m, "rope.dimension_count", FALSE, vc_arch_is_mla (a) ? a->qk_rope_head_dim : vc_arch_head_dim (a),
                   &rotary, error) ||
      !gguf_guint (m, "context_length", FALSE, 0, &positions, error))
    return FALSE;
  a->rotary_dim = MIN (rotary, 100000u);
  if (positions == 0)
    a->rope_table_kind = VC_ROPE_TABLE_NO_POSITIONS;
  else if (g_str_equal (m->arch, "gemma3"))
    /* two ropes in vLLM (local and global), whose scaling the GGUF does not keep apart */
    a->rope_table_kind = VC_ROPE_TABLE_UNKNOWN_TYPE;
  else if (type != NULL && !g_str_equal (type, "none"))
    a->rope_table_kind = VC_ROPE_TABLE_UNKNOWN_TYPE;
  else
    a->rope_table_rows = MIN (positions, 2000000000u);
  return TRUE;
}

/* llama.cpp's architecture names (src/llama-arch.cpp, LLM_ARCH_NAMES) of the models whose SGLang
 * class takes no pp_proxy_tensors, which SGLang's model runner asserts at PP > 1: the same
 * classes as the config reader's (vc-hf-config.c, sglang_one_stage_class) */
static const char *const sglang_one_stage_archs[] = {
  "gpt2", "starcoder", "falcon", "gemma", "gemma2", "gemma3", "granite", "granitemoe", "ernie4_5", "ernie4_5-moe",
  "hunyuan-moe", NULL,
};

/* The architecture from the metadata and the tensors' names (`names`). */
static gboolean
read_gguf_arch (const GgufMeta *m,
                GHashTable     *names,
                VcArch         *a,
                GError        **error)
{
  g_autoptr(GError) local = NULL;

  if (!read_gguf_attention (m, a, error) ||
      !read_gguf_mlp (m, a, error) ||
      !read_gguf_vocab (m, a, error))
    return FALSE;
  arch_from_tensor_names (names, a);
  a->sglang_one_stage = g_strv_contains (sglang_one_stage_archs, m->arch);
  if (mamba2_arch (m) && !read_gguf_mamba2_hybrid (m, a, error))
    return FALSE;
  if (g_str_equal (m->arch, GGUF_GATED_DELTANET) && !read_gguf_gated_deltanet (m, names, a, error))
    return FALSE;
  if (has_tensor (names, "position_embd.weight") &&
      !gguf_guint (m, "context_length", TRUE, 0, &a->max_positions, error))
    return FALSE;
  if (!read_gguf_sliding_window (m, a, error) || !read_gguf_rope (m, a, error))
    return FALSE;
  if (!vc_arch_validate (a, &local))
    return fail (error, m->shown, "%s", local->message);
  return TRUE;
}

/* The file type's name (Q4_K_M, …), else the ggml type holding the most bytes. */
static char *
gguf_quantization (VcGguf *g)
{
  guint64 ftype, most = 0;
  guint32 type = 0;

  if (vc_gguf_get_uint (g, "general.file_type", &ftype) && ftype_name (ftype))
    return g_strdup (ftype_name (ftype));
  for (guint32 t = 0; t < VC_GGML_N_TYPES; t++)
    if (g->type_bytes[t] > most)
      {
        most = g->type_bytes[t];
        type = t;
      }
  return g_strdup (vc_ggml_type_name (type));
}

/* The file's sizes, counts and precision; `expert_elements`: the routed experts' parameters. */
static gboolean
set_from_gguf (VcModelFile    *self,
               const GgufMeta *m,
               const VcArch   *a,
               double          expert_elements,
               GError        **error)
{
  VcGguf *g = m->g;
  guint64 ftype;

  self->format = g_strdup ("gguf");
  self->arch = *a;
  self->name = g_strdup (vc_gguf_get_string (g, "general.name") ? vc_gguf_get_string (g, "general.name")
                                                                   : m->arch);
  self->n_tensors = g->n_tensors;
  self->file_bytes = g->file_bytes;
  self->weights_bytes = (double) g->tensor_bytes;
  self->parameters = (double) g->elements;
  self->active_parameters = self->parameters;
  if (a->n_experts > 0)
    self->active_parameters -= expert_elements * (1.0 - (double) a->experts_per_token / a->n_experts);
  gguf_uint (m, "context_length", FALSE, 0, &self->max_context, NULL);
  /* the longest context the solver may report; beyond the input's range it is unknown */
  self->arch.max_context = self->max_context <= vc_arch_field_find ("max-context")->max ? (guint) self->max_context : 0;
  if (g->elements == 0)
    return fail (error, m->shown, _("the file holds no tensors"));

  self->quantization = gguf_quantization (g);
  self->has_precision = TRUE;
  /* a file type with a recipe of its own (Q4_K_M, …) is that precision; others by their bits */
  if (!(vc_gguf_get_uint (g, "general.file_type", &ftype) &&
        vc_precision_from_gguf_ftype (ftype, &self->precision)))
    self->precision = precision_for_bits (self->weights_bytes * 8.0 / self->parameters,
                                          g->type_bytes[30] > g->type_bytes[1]);
  return TRUE;
}

static gboolean
load_gguf (VcModelFile   *self,
           GFile         *file,
           GCancellable  *cancellable,
           GError       **error)
{
  g_auto(VcGguf) g = { 0 };
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *shown = g_file_get_parse_name (file);
  GgufMeta m = { &g, NULL, shown };
  VcArch a = { 0 };
  double expert_elements = 0;

  vc_gguf_init (&g);
  if (!vc_gguf_read (&g, file, cancellable, error))
    return FALSE;

  m.arch = vc_gguf_get_string (&g, "general.architecture");
  if (m.arch == NULL)
    return fail (error, shown, _("the metadata has no general.architecture"));
  if (!refuse_unmodelled_keys (&m, error))
    return FALSE;
  for (guint i = 0; i < g.tensors->len; i++)
    {
      VcGgufTensor *t = g.tensors->pdata[i];

      g_hash_table_add (names, t->name);
      if (strstr (t->name, "_exps.") != NULL)
        expert_elements += (double) t->elements;
    }
  if (!read_gguf_arch (&m, names, &a, error) || !set_from_gguf (self, &m, &a, expert_elements, error))
    return FALSE;
  /* llama.cpp's converter writes Gemma 3's text model alone (Gemma3Model.modify_tensors skips
   * the vision tower and projector) and the vision encoder to a separate mmproj file
   * (Gemma3VisionModel), which llama-server loads only when given --mmproj: not read here */
  self->encoder_in_mmproj = g_str_equal (m.arch, "gemma3");
  if (self->encoder_in_mmproj)
    self->warning = g_strdup (_("Gemma 3’s vision encoder, where the model has one, is not in this GGUF: llama.cpp keeps it "
                                "in a separate mmproj file, loaded with --mmproj, which is not read. The estimate counts "
                                "the text model only"));
  self->inventory = vc_inventory_new (&self->arch);
  for (guint i = 0; i < g.tensors->len; i++)
    {
      VcGgufTensor *t = g.tensors->pdata[i];
      int layer;
      VcTensorRole role = vc_tensor_role_for_gguf_name (t->name, self->arch.n_layers, &layer);
      const char *in_layer = layer >= 0 ? strchr (t->name + 4, '.') : NULL;

      /* Qwen3-Next: a Gated DeltaNet layer's projections, as its config's linear_attn.* */
      if (g_str_equal (m.arch, GGUF_GATED_DELTANET) && role == VC_TENSOR_ATTENTION && in_layer != NULL &&
          (g_str_has_prefix (in_layer, ".attn_qkv.") || g_str_has_prefix (in_layer, ".attn_gate.")))
        role = VC_TENSOR_RECURRENT;

      vc_inventory_add (self->inventory, role, layer, (double) t->elements, (double) t->bytes);
    }
  vc_inventory_seal (self->inventory);
  return TRUE;
}

/* ---- a config.json's quantization_config --------------------------------------------------------- */

/* A quantized checkpoint's config.json alone: its weights as quantization_config stores them
 * (vc-quant.c), which become the weights at the checkpoint's own precision. */
static gboolean
size_quantization_root (VcModelFile   *self,
                        JsonNode      *root,
                        const char    *shown,
                        GError       **error)
{
  g_autofree char *label = NULL;
  const char *dtype = vc_hf_config_get_torch_dtype (self->config);
  g_autoptr(VcInventory) inv = NULL;
  JsonNode *q;
  double bytes;
  VcPrecision precision;

  q = JSON_NODE_HOLDS_OBJECT (root) ? json_object_get_member (json_node_get_object (root), "quantization_config") : NULL;
  if (q == NULL || !JSON_NODE_HOLDS_OBJECT (q))
    return TRUE;
  /* one that cannot be sized is among what the config reader did not understand: refused
   * unless an approximate estimate is asked for, which then leaves it out */
  if (!vc_quant_config_check (json_node_get_object (q), NULL, NULL))
    return TRUE;
  if (!vc_quant_config_weights (json_node_get_object (q), &self->arch, vc_hf_config_get_model_type (self->config),
                                g_strcmp0 (dtype, "float32") == 0 ? 4.0 : 2.0,
                                shown, &bytes, &precision, &label, &inv, error))
    return FALSE;
  self->weights_bytes = bytes;
  g_clear_pointer (&self->inventory, vc_inventory_unref);
  self->inventory = g_steal_pointer (&inv);
  self->has_precision = TRUE;
  self->precision = precision;
  g_free (self->quantization);
  self->quantization = g_steal_pointer (&label);
  return TRUE;
}

static gboolean
size_quantization_config (VcModelFile   *self,
                          GFile         *file,
                          GError       **error)
{
  g_autoptr(GFile) config_file = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *shown = NULL;

  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) == G_FILE_TYPE_DIRECTORY)
    config_file = g_file_get_child (file, "config.json");
  else
    config_file = g_object_ref (file);
  shown = g_file_get_basename (config_file);
  /* vc_hf_config_new_for_file() read this file a moment ago: read it the same guarded way */
  root = load_config_json (config_file, shown, error);
  if (root == NULL)
    return FALSE;
  return size_quantization_root (self, root, shown, error);
}

/* ---- loading ------------------------------------------------------------------------------------ */

static gboolean
is_gguf_file (GFile *file)
{
  g_autoptr(GFileInputStream) in = NULL;
  guint8 magic[4];
  gsize got = 0;

  /* a FIFO would block the open */
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, NULL) != G_FILE_TYPE_REGULAR)
    return FALSE;
  in = g_file_read (file, NULL, NULL);
  if (in == NULL)
    return FALSE;
  return g_input_stream_read_all (G_INPUT_STREAM (in), magic, 4, &got, NULL, NULL) && got == 4 &&
         memcmp (magic, "GGUF", 4) == 0;
}

static gboolean load_config (VcModelFile   *self,
                             GFile         *file,
                             GCancellable  *cancellable,
                             GError       **error);

VcModelFile *
vc_model_file_new_for_file (GFile         *file,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(VcModelFile) self = g_object_new (VC_TYPE_MODEL_FILE, NULL);
  g_autofree char *shown = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  shown = g_file_get_parse_name (file);
  if (g_file_query_file_type (file, G_FILE_QUERY_INFO_NONE, cancellable) == G_FILE_TYPE_DIRECTORY)
    {
      g_autoptr(GFile) config = g_file_get_child (file, "config.json");
      gboolean has_config = g_file_query_exists (config, cancellable);

      if (has_config && vc_safetensors_folder_has (file))
        {
          if (!load_safetensors (self, file, cancellable, error))
            return NULL;
          return g_steal_pointer (&self);
        }
      if (has_config)
        {
          /* config.json beside a GGUF: the GGUF is the model that runs */
          g_autoptr(GFile) gguf = vc_gguf_find_in_folder (file, cancellable, NULL);

          if (gguf != NULL)
            {
              if (!load_gguf (self, gguf, cancellable, error))
                return NULL;
              return g_steal_pointer (&self);
            }
        }
      else if (vc_safetensors_folder_has (file))
        {
          /* the architecture (layers, heads, a Mamba or linear-attention mixer) is
           * config.json's: the tensors' names and shapes do not say it whole */
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("%s holds safetensors but no config.json: the architecture is read from the model’s "
                         "config.json; put it beside the safetensors, or choose a GGUF file"),
                       shown);
          return NULL;
        }
      else
        {
          g_autoptr(GError) local = NULL;
          g_autoptr(GFile) gguf = vc_gguf_find_in_folder (file, cancellable, &local);

          if (gguf == NULL && g_error_matches (local, VC_ERROR, VC_ERROR_INVALID_COMBINATION))
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return NULL;
            }
          if (gguf == NULL)
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                           _("%s holds no config.json, no safetensors and no .gguf file; choose a model's folder, its config.json or a .gguf file"),
                           shown);
              return NULL;
            }
          if (!load_gguf (self, gguf, cancellable, error))
            return NULL;
          return g_steal_pointer (&self);
        }
    }
  else if (is_gguf_file (file))
    {
      if (!load_gguf (self, file, cancellable, error))
        return NULL;
      return g_steal_pointer (&self);
    }
  else
    {
      g_autofree char *base = g_file_get_basename (file);

      if (base && g_str_has_suffix (base, ".gguf"))
        {
          /* a pipe, a device or a link to nothing is said to be one, not to begin wrongly */
          if (vc_file_check_regular (file, shown, _("a GGUF file"), cancellable, error))
            fail (error, shown, _("not a GGUF file (it does not begin with “GGUF”)"));
          return NULL;
        }
      if (base && g_str_has_suffix (base, ".safetensors"))
        {
          /* one shard stands for its folder: config.json and every shard */
          g_autoptr(GFile) folder = g_file_get_parent (file);

          return folder ? vc_model_file_new_for_file (folder, cancellable, error) : NULL;
        }
    }

  /* a config.json alone, or a folder with no weights */
  if (!load_config (self, file, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

/**
 * vc_model_file_new_for_config:
 * @file: a config.json (any name) or a folder holding config.json
 *
 * Reads the config.json only, never the weights beside it (vramcalc --config).
 */
VcModelFile *
vc_model_file_new_for_config (GFile         *file,
                              GCancellable  *cancellable,
                              GError       **error)
{
  g_autoptr(VcModelFile) self = g_object_new (VC_TYPE_MODEL_FILE, NULL);

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  if (!load_config (self, file, cancellable, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* what a model file takes from its config.json, read into self->config */
static void
take_config (VcModelFile *self)
{
  self->format = g_strdup ("config");
  self->arch = *vc_hf_config_get_arch (self->config);
  self->max_context = self->arch.max_context;
  self->name = g_strdup (vc_hf_config_get_name (self->config));
  self->parameters = vc_hf_config_get_counts (self->config)->total;
  self->active_parameters = vc_hf_config_get_counts (self->config)->active;
  self->has_precision = vc_hf_config_get_precision (self->config, &self->precision);
  self->quantization = g_strdup (vc_hf_config_get_torch_dtype (self->config)
                                 ? vc_hf_config_get_torch_dtype (self->config) : "");
  if (vc_hf_config_get_warning (self->config))
    self->warning = g_strdup (vc_hf_config_get_warning (self->config));
}

static gboolean
load_config (VcModelFile   *self,
             GFile         *file,
             GCancellable  *cancellable,
             GError       **error)
{
  self->config = vc_hf_config_new_for_file (file, cancellable, error);
  if (self->config == NULL)
    return FALSE;
  take_config (self);
  return size_quantization_config (self, file, error);
}

/**
 * vc_model_file_new_for_config_data:
 * @name: how messages name the data ("standard input")
 *
 * vc_model_file_new_for_config() for a config.json already read (vramcalc --config -).
 */
VcModelFile *
vc_model_file_new_for_config_data (const char  *data,
                                   gsize        length,
                                   const char  *name,
                                   GError     **error)
{
  g_autoptr(VcModelFile) self = g_object_new (VC_TYPE_MODEL_FILE, NULL);
  g_autoptr(JsonNode) root = NULL;

  self->config = vc_hf_config_new_from_data (data, length, name, NULL, error);
  if (self->config == NULL)
    return NULL;
  take_config (self);
  root = vc_json_input_parse (data, length, name, _("a config.json"), NULL, error);
  if (root == NULL || !size_quantization_root (self, root, name, error))
    return NULL;
  return g_steal_pointer (&self);
}

/* "" would name the current folder */
static gboolean
path_given (const char  *path,
            GError     **error)
{
  if (*path != '\0')
    return TRUE;
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
               _("no file given; accepted: a model's config.json or the folder holding it"));
  return FALSE;
}

typedef VcModelFile *(*OpenFileFunc) (GFile *file, GCancellable *cancellable, GError **error);

/* a path given on a command line, opened by @open */
static VcModelFile *
open_path (const char    *path,
           OpenFileFunc   open,
           GError       **error)
{
  g_autoptr(GFile) file = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  if (!path_given (path, error))
    return NULL;
  file = g_file_new_for_commandline_arg (path);
  return open (file, NULL, error);
}

VcModelFile *
vc_model_file_new_for_path (const char  *path,
                            GError     **error)
{
  return open_path (path, vc_model_file_new_for_file, error);
}

/**
 * vc_model_file_new_for_config_path:
 *
 * vc_model_file_new_for_config() for a path given on a command line.
 */
VcModelFile *
vc_model_file_new_for_config_path (const char  *path,
                                   GError     **error)
{
  return open_path (path, vc_model_file_new_for_config, error);
}

static void
load_thread (GTask        *task,
             gpointer      source_object,
             gpointer      task_data,
             GCancellable *cancellable)
{
  GError *error = NULL;
  VcModelFile *model = vc_model_file_new_for_file (task_data, cancellable, &error);

  if (model)
    g_task_return_pointer (task, model, g_object_unref);
  else
    g_task_return_error (task, error);
}

void
vc_model_file_load_async (GFile               *file,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (G_IS_FILE (file));
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, vc_model_file_load_async);
  g_task_set_task_data (task, g_object_ref (file), g_object_unref);
  g_task_run_in_thread (task, load_thread);
}

VcModelFile *
vc_model_file_load_finish (GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- reading the result ------------------------------------------------------------------------- */

const char *
vc_model_file_get_format (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), NULL);
  return self->format;
}

const char *
vc_model_file_get_quantization (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), NULL);
  return self->quantization;
}

const char *
vc_model_file_get_name (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), NULL);
  return self->name;
}

const VcArch *
vc_model_file_get_arch (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), NULL);
  return &self->arch;
}

VcHfConfig *
vc_model_file_get_config (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), NULL);
  return self->config;
}

guint64
vc_model_file_get_n_tensors (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), 0);
  return self->n_tensors;
}

guint64
vc_model_file_get_file_bytes (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), 0);
  return self->file_bytes;
}

double
vc_model_file_get_weights_bytes (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), -1);
  return self->weights_bytes;
}

double
vc_model_file_get_parameters (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), 0);
  return self->parameters;
}

double
vc_model_file_get_active_parameters (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), 0);
  return self->active_parameters;
}

const char *
vc_model_file_get_warning (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), NULL);
  return self->warning;
}


guint64
vc_model_file_get_max_context (VcModelFile *self)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), 0);
  return self->max_context;
}

gboolean
vc_model_file_get_precision (VcModelFile *self,
                             VcPrecision *precision)
{
  g_return_val_if_fail (VC_IS_MODEL_FILE (self), FALSE);
  if (self->has_precision)
    *precision = self->precision;
  return self->has_precision;
}

/* Like choosing a preset: the architecture, the parameter counts, the name, the architecture
 * method; the weights at the checkpoint's own precision, which becomes the selected one (the
 * user can still choose another); llama.cpp's default f16 KV cache for a GGUF. */
void
vc_model_file_apply (VcModelFile *self,
                     VcEstimate  *estimate)
{
  gboolean tensors;

  g_return_if_fail (VC_IS_MODEL_FILE (self));
  g_return_if_fail (VC_IS_ESTIMATE (estimate));

  tensors = self->weights_bytes > 0;
  g_object_freeze_notify (G_OBJECT (estimate));
  if (self->config)
    vc_hf_config_apply (self->config, estimate);
  else
    vc_estimate_set_model (estimate, &self->arch, self->parameters, self->active_parameters, self->name);
  g_object_set (estimate,
                "source-format", self->format,
                "source-quantization", self->quantization ? self->quantization : "",
                "source-weights-bytes",
                tensors ? vc_estimate_clamp_to_range (estimate, "source-weights-bytes", self->weights_bytes) : 0.0,
                "source-parameters",
                tensors ? vc_estimate_clamp_to_range (estimate, "source-parameters", self->parameters) : 0.0,
                "source-active-parameters",
                tensors ? vc_estimate_clamp_to_range (estimate, "source-active-parameters", self->active_parameters) : 0.0,
                NULL);
  if (self->has_precision && tensors)
    g_object_set (estimate, "source-precision", self->precision, "precision", self->precision, NULL);
  vc_estimate_set_source_inventory (estimate, tensors ? self->inventory : NULL);
  g_object_set (estimate, "model-warning", self->warning ? self->warning : "",
                "encoder-in-mmproj", self->encoder_in_mmproj, NULL);
  if (g_str_equal (self->format, "gguf"))
    g_object_set (estimate, "kv-precision", VC_PRECISION_FP16, NULL);
  g_object_thaw_notify (G_OBJECT (estimate));
}
