/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hf-config: config.json import, through the API and through vramcalc --config.
 *
 * Each model below has its config.json in models/<name>/ with the values of the published
 * file; the total the architecture gives must equal the published exact count. Where a figure
 * comes from a safetensors index, total_size is in bytes: divide by 2 for bfloat16/float16, by 4
 * for float32.
 */
#include <glib.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-arch.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-hf-config.h"
#include "vc-test-util.h"

typedef struct
{
  const char *dir;
  const char *family;
  double total;            /* published exact total */
  double active;           /* MoE: activated per token (module count); 0 for dense */
  double kv_bytes;         /* KV cache per token in 16 bits, before any window */
  guint window;
  guint window_layers;
  const char *dtype;
  gboolean text_only;
} ModelCase;

static const ModelCase models[] = {
  /* meta-llama/Llama-3.1-8B: 8,030,261,248 (model card 8.03B; safetensors index total_size
   * 16,060,522,496 bytes in bfloat16) */
  { "Llama-3.1-8B", "llama", 8030261248, 0, 131072, 0, 0, "bfloat16", FALSE },
  /* mistralai/Mistral-7B-v0.1: 7,241,732,096 (safetensors index total_size 14,483,464,192
   * bytes, bfloat16); the 4096-token window on all 32 layers */
  { "Mistral-7B-v0.1", "mistral", 7241732096, 0, 131072, 4096, 32, "bfloat16", FALSE },
  /* mistralai/Mixtral-8x7B-v0.1: 46,702,792,704 total (safetensors index total_size
   * 93,405,585,408 bytes), 12.9B active (Mistral's announcement; the module count gives
   * 12,879,925,248: 2 of 8 experts) */
  { "Mixtral-8x7B-v0.1", "mixtral", 46702792704, 12879925248, 131072, 0, 0, "bfloat16", FALSE },
  /* Qwen/Qwen2.5-7B: 7,615,616,512 (model card 7.61B; safetensors total_size 15,231,233,024
   * bytes); use_sliding_window false */
  { "Qwen2.5-7B", "qwen2", 7615616512, 0, 57344, 0, 0, "bfloat16", FALSE },
  /* Qwen/Qwen3-8B: 8,190,735,360 (model card 8.2B; safetensors total_size 16,381,470,720 bytes) */
  { "Qwen3-8B", "qwen3", 8190735360, 0, 147456, 0, 0, "bfloat16", FALSE },
  /* Qwen/Qwen3-30B-A3B: 30,532,122,624 total (model card 30.5B, 3.3B activated; safetensors
   * total_size 61,064,245,248 bytes); 8 of 128 experts: 3,353,032,704 */
  { "Qwen3-30B-A3B", "qwen3_moe", 30532122624, 3353032704, 98304, 0, 0, "bfloat16", FALSE },
  /* Qwen/Qwen1.5-MoE-A2.7B: 14,315,784,192 total (model card 14.3B, 2.7B activated;
   * safetensors total_size 28,631,568,384 bytes); 4 of 60 experts + the shared one */
  { "Qwen1.5-MoE-A2.7B", "qwen2_moe", 14315784192, 2689173504, 196608, 0, 0, "bfloat16", FALSE },
  /* google/gemma-2b: 2,506,172,416 (model card 2.51B; safetensors total_size 5,012,344,832
   * bytes in bfloat16) */
  { "gemma-2b", "gemma", 2506172416, 0, 18432, 0, 0, "bfloat16", FALSE },
  /* google/gemma-2-9b: 9,241,705,984 (model card 9.24B; safetensors total_size 36,966,823,936
   * bytes in float32); even layers use the window: 21 of 42 */
  { "gemma-2-9b", "gemma2", 9241705984, 0, 344064, 4096, 21, "float32", FALSE },
  /* google/gemma-3-1b-pt: 999,885,952 (safetensors total_size 1,999,771,904 bytes, bfloat16);
   * five local layers to one global: 22 of 26 */
  { "gemma-3-1b-pt", "gemma3", 999885952, 0, 26624, 512, 22, "bfloat16", FALSE },
  /* google/gemma-3-4b-it: 4,300,079,472 parameters in its safetensors (total_size 8,600,158,944
   * bytes, bfloat16), of which the SigLIP vision tower holds 416,866,032 (27 layers of width
   * 1152, MLP 4304, 4096 positions at 896 px) and the projector 2,950,272 (1152 × 2560 and a
   * norm): the text model is 3,880,263,168. Its text_config gives only what differs from
   * Gemma3TextConfig (heads 8, KV heads 4, head_dim 256, vocabulary 262,208 are defaults). */
  { "gemma-3-4b-it", "gemma3", 3880263168, 0, 139264, 1024, 29, "bfloat16", TRUE },
  /* microsoft/Phi-3-mini-4k-instruct: 3,821,079,552 (model card 3.8B; safetensors total_size
   * 7,642,159,104 bytes); window 2047 on every layer */
  { "Phi-3-mini-4k-instruct", "phi3", 3821079552, 0, 393216, 2047, 32, "bfloat16", FALSE },
  /* openai-community/gpt2: 124,439,808 (model.safetensors: 124,439,808 float32 values) */
  { "gpt2", "gpt2", 124439808, 0, 36864, 0, 0, NULL, FALSE },
  /* EleutherAI/pythia-160m: 162,322,944 total parameters (the Pythia paper's table and the
   * model card: 85,056,000 non-embedding) */
  { "pythia-160m", "gpt_neox", 162322944, 0, 36864, 0, 0, "float16", FALSE },
  /* tiiuae/falcon-7b: 6,921,720,704 (safetensors total_size 13,843,441,408 bytes, bfloat16);
   * multi-query: one KV head of 64 */
  { "falcon-7b", "falcon", 6921720704, 0, 8192, 0, 0, "bfloat16", FALSE },
  /* deepseek-ai/DeepSeek-V2-Lite: 15,706,484,224 total (model card 15.7B total, 2.4B activated;
   * safetensors total_size 31,412,968,448 bytes). The module count of activated parameters,
   * 2,661,150,208, includes the 209,715,200 of the input embedding, which DeepSeek's 2.4B
   * leaves out (2,451,435,008). KV cache: the 512 latent + 64 rotary values a layer. */
  { "DeepSeek-V2-Lite", "deepseek_v2", 15706484224, 2661150208, 31104, 0, 0, "bfloat16", FALSE },
  /* deepseek-ai/DeepSeek-V3: 671B main model + 14B multi-token prediction module = 685B
   * (README_WEIGHTS.md). The Hub's safetensors hold 684,531,386,000 values: the main model's
   * 671,026,419,200, the MTP layer's 13,463,426,304 and 41,540,496 FP8 block scales
   * (weight_scale_inv, one per 128 × 128 block of each linear weight). 37B activated; the
   * module count 37,552,297,472 includes the 926,679,040 of the input embedding. */
  { "DeepSeek-V3", "deepseek_v3", 671026419200, 37552297472, 70272, 0, 0, "bfloat16", FALSE },
};

static char *
model_path (const char *dir)
{
  return g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", dir, NULL);
}

static VcHfConfig *
load_model (const char *dir)
{
  g_autofree char *path = model_path (dir);
  g_autoptr(GError) error = NULL;
  VcHfConfig *config = vc_hf_config_new_for_path (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (config);
  return config;
}

static void
test_model (gconstpointer data)
{
  const ModelCase *m = data;
  g_autoptr(VcHfConfig) config = load_model (m->dir);
  const VcArch *arch = vc_hf_config_get_arch (config);
  const VcParamCounts *counts = vc_hf_config_get_counts (config);
  VcParamCounts again;

  g_assert_cmpstr (vc_hf_config_get_family (config), ==, m->family);
  g_assert_true (vc_hf_config_get_known_family (config));
  g_assert_cmpstr (vc_hf_config_get_name (config), ==, m->dir);
  g_assert_cmpstr (vc_hf_config_get_torch_dtype (config), ==, m->dtype);
  g_assert_cmpint (vc_hf_config_get_text_only (config), ==, m->text_only);

  vc_arch_count_params (arch, &again);
  g_assert_cmpfloat (again.total, ==, m->total);
  g_assert_cmpfloat (counts->total, ==, m->total);
  if (m->active > 0)
    {
      g_assert_true (vc_arch_is_moe (arch));
      g_assert_cmpfloat (counts->active, ==, m->active);
    }
  else
    {
      g_assert_false (vc_arch_is_moe (arch));
      g_assert_cmpfloat (counts->active, ==, m->total);
    }
  g_assert_cmpfloat (vc_arch_kv_bytes_per_token (arch, 2), ==, m->kv_bytes);
  g_assert_cmpuint (arch->sliding_window, ==, m->window);
  g_assert_cmpuint (arch->sliding_window_layers, ==, m->window_layers);
  g_assert_true (vc_arch_validate (arch, NULL));
  g_assert_nonnull (vc_hf_config_get_description (config));
  if (m->text_only)
    g_assert_nonnull (strstr (vc_hf_config_get_warning (config), "text model"));
  else
    g_assert_null (vc_hf_config_get_warning (config));
}

static void
test_family_details (void)
{
  g_autoptr(VcHfConfig) falcon = load_model ("falcon-7b");
  g_autoptr(VcHfConfig) gpt2 = load_model ("gpt2");
  g_autoptr(VcHfConfig) neox = load_model ("pythia-160m");
  g_autoptr(VcHfConfig) qwen = load_model ("Qwen1.5-MoE-A2.7B");
  g_autoptr(VcHfConfig) v2 = load_model ("DeepSeek-V2-Lite");
  g_autoptr(VcHfConfig) v3 = load_model ("DeepSeek-V3");
  g_autoptr(VcHfConfig) gemma3 = load_model ("gemma-3-1b-pt");
  VcPrecision precision;

  g_assert_cmpuint (vc_hf_config_get_arch (falcon)->n_kv_heads, ==, 1);
  g_assert_cmpuint (vc_hf_config_get_arch (falcon)->norms_per_layer, ==, 1);
  g_assert_true (vc_hf_config_get_arch (falcon)->tied_embeddings);
  g_assert_cmpuint (vc_hf_config_get_arch (gpt2)->max_positions, ==, 1024);
  g_assert_true (vc_hf_config_get_arch (gpt2)->tied_embeddings);
  g_assert_false (vc_hf_config_get_arch (neox)->tied_embeddings);
  g_assert_true (vc_hf_config_get_arch (neox)->qkv_bias);
  g_assert_true (vc_hf_config_get_arch (qwen)->shared_expert_gate);
  g_assert_true (vc_hf_config_get_arch (qwen)->qkv_bias);
  g_assert_false (vc_hf_config_get_arch (v2)->router_bias);
  g_assert_cmpuint (vc_hf_config_get_arch (v2)->q_lora_rank, ==, 0);
  g_assert_cmpuint (vc_hf_config_get_arch (v2)->dense_layers, ==, 1);
  g_assert_true (vc_hf_config_get_arch (v3)->router_bias);
  g_assert_cmpuint (vc_hf_config_get_arch (v3)->dense_layers, ==, 3);
  g_assert_nonnull (strstr (vc_hf_config_get_description (v3), "multi-token"));
  g_assert_true (vc_hf_config_get_arch (gemma3)->qk_norm);
  g_assert_cmpuint (vc_hf_config_get_arch (gemma3)->norms_per_layer, ==, 4);

  /* stored precision: DeepSeek-V3's weights are FP8 although torch_dtype says bfloat16 */
  g_assert_true (vc_hf_config_get_precision (v3, &precision));
  g_assert_cmpint (precision, ==, VC_PRECISION_FP8);
  g_assert_true (vc_hf_config_get_precision (neox, &precision));
  g_assert_cmpint (precision, ==, VC_PRECISION_FP16);
  g_assert_false (vc_hf_config_get_precision (gpt2, &precision));
}

/* ---- variants written from a real file ------------------------------------------------------ */

/* The config of dir with key set to the raw JSON text value (NULL: removed). The raw text goes
 * in by replacing a sentinel, so that literals json-glib cannot hold can be written too. */
static char *
variant (const char *dir,
         const char *key,
         const char *value)
{
  g_autofree char *path = model_path (dir);
  g_autofree char *file = g_build_filename (path, "config.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  JsonObject *root;
  g_auto(GStrv) parts = NULL;
  JsonObject *target;

  json_parser_load_from_file (parser, file, &error);
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  target = root;
  parts = g_strsplit (key, ".", 2);
  if (parts[1] != NULL)
    {
      target = json_object_get_object_member (root, parts[0]);
      key = parts[1];
    }
  if (value == NULL)
    json_object_remove_member (target, key);
  else
    json_object_set_int_member (target, key, 987654321987);
  json_generator_set_root (generator, json_parser_get_root (parser));
  text = json_generator_to_data (generator, NULL);
  if (value != NULL)
    {
      g_autoptr(GString) s = g_string_new (text);
      g_string_replace (s, "987654321987", value, 1);
      return g_string_free (g_steal_pointer (&s), FALSE);
    }
  return g_steal_pointer (&text);
}

static VcHfConfig *
load_variant (const char  *dir,
              const char  *key,
              const char  *value,
              GError     **error)
{
  g_autofree char *text = variant (dir, key, value);
  return vc_hf_config_new_from_data (text, strlen (text), "config.json", NULL, error);
}

typedef struct
{
  const char *dir;
  const char *key;
  const char *value;
  const char *message;     /* the whole message, or a part of it after '~' */
} BadCase;

static const BadCase bad_cases[] = {
  { "Llama-3.1-8B", "num_hidden_layers", "-3",
    "config.json: \"num_hidden_layers\" must be a whole number from 1 to 100000, got -3" },
  { "Llama-3.1-8B", "num_hidden_layers", "0", "~\"num_hidden_layers\" must be a whole number from 1 to 100000, got 0" },
  { "Llama-3.1-8B", "num_hidden_layers", "1000000", "~\"num_hidden_layers\" must be a whole number from 1 to 100000, got 1000000" },
  { "Llama-3.1-8B", "num_hidden_layers", "32.5", "~\"num_hidden_layers\" must be a whole number from 1 to 100000, got 32.5" },
  { "Llama-3.1-8B", "num_hidden_layers", "32.0", "~\"num_hidden_layers\" must be a whole number from 1 to 100000, got 32" },
  { "Llama-3.1-8B", "hidden_size", "\"4096\"", "~\"hidden_size\" must be a whole number from 1 to 1000000, got the text \"4096\"" },
  { "Llama-3.1-8B", "hidden_size", NULL, "config.json: \"hidden_size\" is missing; it must be a whole number from 1 to 1000000" },
  { "Llama-3.1-8B", "hidden_size", "null", "~\"hidden_size\" must be a whole number from 1 to 1000000, got null" },
  { "Llama-3.1-8B", "intermediate_size", "1e30", "~\"intermediate_size\" must be a whole number from 1 to 10000000, got 1e+30" },
  { "Llama-3.1-8B", "intermediate_size", "1e400", "~\"intermediate_size\" must be a whole number from 1 to 10000000, got a number too large" },
  { "Llama-3.1-8B", "vocab_size", "99999999999999999999", "~\"vocab_size\" must be a whole number from 1 to 100000000, got 99999999999999999999" },
  { "Llama-3.1-8B", "vocab_size", "-18446744073709547520", "~\"vocab_size\" must be a whole number from 1 to 100000000, got -18446744073709547520" },
  { "Llama-3.1-8B", "vocab_size", "9223372036854775807", "~\"vocab_size\" must be a whole number from 1 to 100000000, got 9223372036854775807" },
  { "Llama-3.1-8B", "num_attention_heads", "true", "~\"num_attention_heads\" must be a whole number from 1 to 100000, got true" },
  { "Llama-3.1-8B", "num_attention_heads", "[32]", "~\"num_attention_heads\" must be a whole number from 1 to 100000, got a list" },
  { "Llama-3.1-8B", "num_attention_heads", "{}", "~\"num_attention_heads\" must be a whole number from 1 to 100000, got an object" },
  { "Llama-3.1-8B", "num_attention_heads", "24", "~\"hidden_size\" (4096) is not a multiple of the number of attention heads (24)" },
  { "Llama-3.1-8B", "num_key_value_heads", "5", "~is not a multiple of \"num_key_value_heads\" (5)" },
  { "Llama-3.1-8B", "num_key_value_heads", "64", "~is not a multiple of \"num_key_value_heads\" (64)" },
  { "Llama-3.1-8B", "num_key_value_heads", "0", "~\"num_key_value_heads\" must be a whole number from 1 to 100000, got 0" },
  { "Llama-3.1-8B", "head_dim", "0", "~\"head_dim\" must be a whole number from 1 to 100000, got 0" },
  { "Llama-3.1-8B", "tie_word_embeddings", "\"no\"", "~\"tie_word_embeddings\" must be true or false, got the text \"no\"" },
  { "Llama-3.1-8B", "tie_word_embeddings", "1", "~\"tie_word_embeddings\" must be true or false, got 1" },
  { "Llama-3.1-8B", "model_type", "7", "~\"model_type\" must be text, got 7" },
  { "Llama-3.1-8B", "torch_dtype", "16", "~\"torch_dtype\" must be text, got 16" },
  { "Mistral-7B-v0.1", "sliding_window", "-4096", "~\"sliding_window\" must be a whole number from 1 to 100000000, got -4096" },
  { "Mixtral-8x7B-v0.1", "num_experts_per_tok", "10", "~\"num_experts_per_tok\" must be a whole number from 1 to 8, got 10" },
  { "Mixtral-8x7B-v0.1", "num_local_experts", "0", "~\"num_local_experts\" must be a whole number from 1 to 100000, got 0" },
  { "Qwen3-30B-A3B", "mlp_only_layers", "[0, 48]", "~\"mlp_only_layers\" must be a list of layer numbers from 0 to 47" },
  { "Qwen3-30B-A3B", "decoder_sparse_step", "0", "~\"decoder_sparse_step\" must be a whole number" },
  { "gemma-3-1b-pt", "layer_types", "[\"sliding_attention\"]", "~\"layer_types\" must list one attention type per layer (26)" },
  { "gemma-3-4b-it", "text_config.num_hidden_layers", "-1", "~\"text_config.num_hidden_layers\" must be a whole number from 1 to 100000, got -1" },
  { "gemma-3-4b-it", "text_config", "3", "~\"text_config\" must be an object" },
  { "DeepSeek-V3", "kv_lora_rank", NULL, "~\"kv_lora_rank\" is missing" },
  { "DeepSeek-V3", "first_k_dense_replace", "62", "~\"first_k_dense_replace\" must be a whole number from 0 to 61, got 62" },
  { "DeepSeek-V3", "q_lora_rank", "\"1536\"", "~\"q_lora_rank\" must be a whole number" },
  { "gpt2", "n_embd", "768.5", "~\"n_embd\" must be a whole number from 1 to 1000000, got 768.5" },
  { "gpt2", "n_positions", NULL, "~\"n_positions\" is missing" },
  { "falcon-7b", "bias", "\"false\"", "~\"bias\" must be true or false" },
  { "pythia-160m", "num_attention_heads", "7", "~\"hidden_size\" (768) is not a multiple" },
};

static void
check_message (const char *message,
               const char *expected)
{
  if (expected[0] == '~')
    {
      if (strstr (message, expected + 1) == NULL)
        g_error ("message “%s” does not contain “%s”", message, expected + 1);
    }
  else
    g_assert_cmpstr (message, ==, expected);
}

static void
test_bad_values (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      const BadCase *c = &bad_cases[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(VcHfConfig) config = load_variant (c->dir, c->key, c->value, &error);

      g_test_message ("%s: %s = %s", c->dir, c->key, c->value ? c->value : "(removed)");
      g_assert_null (config);
      g_assert_error (error, VC_ERROR, error->code);
      check_message (error->message, c->message);
      g_assert_true (g_str_has_prefix (error->message, "config.json"));
    }
}

static void
test_bad_files (void)
{
  static const struct { const char *data; const char *message; } files[] = {
    { "{ \"model_type\": \"llama\", ", "~config.json is not valid JSON" },
    { "", "~config.json does not hold a JSON object" },
    { "[1, 2, 3]", "~config.json does not hold a JSON object" },
    { "\"llama\"", "~config.json does not hold a JSON object" },
    { "{\"a\": NaN}", "~is not valid JSON" },
    { "{\"model_type\": \"llama\"\xff}", "~is not UTF-8 text" },
    { "{\"model_type\": \"llama\"}", "~\"num_hidden_layers\" is missing" },
    { "{}", "~\"num_hidden_layers\" is missing" },
    /* every key within its range, a model beyond what an estimate takes */
    { "{\"model_type\": \"llama\", \"hidden_size\": 1000000, \"num_hidden_layers\": 100000, "
      "\"num_attention_heads\": 1000, \"intermediate_size\": 10000000, \"vocab_size\": 100000000}",
      "config.json describes a model of 3.4e+18 parameters; accepted: up to 1e+15" },
  };
  g_autofree char *big = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GError) e = NULL;
      g_autoptr(VcHfConfig) c = vc_hf_config_new_from_data (files[i].data, strlen (files[i].data),
                                                            "config.json", NULL, &e);
      g_assert_null (c);
      g_assert_nonnull (e);
      check_message (e->message, files[i].message);
    }

  big = g_strnfill (VC_HF_CONFIG_MAX_SIZE + 10, ' ');
  config = vc_hf_config_new_from_data (big, VC_HF_CONFIG_MAX_SIZE + 10, "config.json", NULL, &error);
  g_assert_null (config);
  g_assert_error (error, VC_ERROR, VC_ERROR_TOO_LARGE);
}

static void
write_file (const char *path,
            const char *text,
            gssize      length)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_path_get_dirname (path);

  g_mkdir_with_parents (dir, 0755);
  g_file_set_contents (path, text, length, &error);
  g_assert_no_error (error);
}

static void
test_files_and_folders (void)
{
  g_autofree char *tmp = vc_test_make_tmpdir ("vc-hf-config");
  g_autofree char *empty = g_build_filename (tmp, "empty", NULL);
  g_autofree char *huge = g_build_filename (tmp, "huge.json", NULL);
  g_autofree char *named = g_build_filename (tmp, "my-llama.json", NULL);
  g_autofree char *cache = g_build_filename (tmp, "models--meta-llama--Llama-3.1-8B", "snapshots",
                                             "0e9e39f249a16976918f6564b8830bc894c89659", "config.json", NULL);
  g_autofree char *missing = g_build_filename (tmp, "absent", "config.json", NULL);
  g_autofree char *llama = variant ("Llama-3.1-8B", "rope_theta", "500000.0");
  g_autofree char *big = g_strnfill (VC_HF_CONFIG_MAX_SIZE + 1, ' ');
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = NULL;

  g_mkdir_with_parents (empty, 0755);
  config = vc_hf_config_new_for_path (empty, &error);
  g_assert_null (config);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, "holds no config.json"));
  g_clear_error (&error);

  config = vc_hf_config_new_for_path (missing, &error);
  g_assert_null (config);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  write_file (huge, big, -1);
  config = vc_hf_config_new_for_path (huge, &error);
  g_assert_null (config);
  g_assert_error (error, VC_ERROR, VC_ERROR_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "huge.json"));
  g_clear_error (&error);

  /* names: a file named after the model, the Hugging Face cache's layout */
  write_file (named, llama, -1);
  config = vc_hf_config_new_for_path (named, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (vc_hf_config_get_name (config), ==, "my-llama");
  g_clear_object (&config);

  write_file (cache, llama, -1);
  config = vc_hf_config_new_for_path (cache, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (vc_hf_config_get_name (config), ==, "Llama-3.1-8B");
  g_assert_cmpfloat (vc_hf_config_get_counts (config)->total, ==, 8030261248);
  g_clear_object (&config);

  /* a Hub id in _name_or_path wins over a file name */
  {
    g_autofree char *named_hub = variant ("Llama-3.1-8B", "_name_or_path", "\"meta-llama/Meta-Llama-3-8B\"");
    write_file (named, named_hub, -1);
    config = vc_hf_config_new_for_path (named, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (vc_hf_config_get_name (config), ==, "Meta-Llama-3-8B");
    g_clear_object (&config);
  }

  vc_test_remove_tree (tmp);
}

static void
loaded_cb (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  VcHfConfig **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = vc_hf_config_load_finish (result, &error);
  g_assert_no_error (error);
}

static void
test_async (void)
{
  g_autofree char *path = model_path ("Mixtral-8x7B-v0.1");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  VcHfConfig *config = NULL;

  vc_hf_config_load_async (file, NULL, loaded_cb, &config);
  while (config == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpfloat (vc_hf_config_get_counts (config)->total, ==, 46702792704);
  g_assert_finalize_object (config);
}

static void
test_unknown_family (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) config = load_variant ("Llama-3.1-8B", "model_type", "\"my_new_llm\"", &error);
  g_autoptr(VcHfConfig) none = load_variant ("Llama-3.1-8B", "model_type", NULL, &error);
  g_autoptr(VcHfConfig) moe = load_variant ("Mixtral-8x7B-v0.1", "model_type", "\"some_moe\"", &error);

  g_assert_no_error (error);
  g_assert_false (vc_hf_config_get_known_family (config));
  g_assert_cmpstr (vc_hf_config_get_family (config), ==, "llama");
  g_assert_cmpstr (vc_hf_config_get_model_type (config), ==, "my_new_llm");
  g_assert_nonnull (strstr (vc_hf_config_get_warning (config), "my_new_llm"));
  g_assert_nonnull (strstr (vc_hf_config_get_warning (config), "Llama way"));
  g_assert_cmpfloat (vc_hf_config_get_counts (config)->total, ==, 8030261248);

  g_assert_false (vc_hf_config_get_known_family (none));
  g_assert_nonnull (strstr (vc_hf_config_get_warning (none), "no model_type"));

  /* the standard MoE keys are read for an unknown family too */
  g_assert_false (vc_hf_config_get_known_family (moe));
  g_assert_cmpfloat (vc_hf_config_get_counts (moe)->total, ==, 46702792704);
  g_assert_cmpfloat (vc_hf_config_get_counts (moe)->active, ==, 12879925248);
}

static void
test_windows_and_layers (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) qwen = NULL;
  g_autoptr(VcHfConfig) gemma = NULL;
  g_autoptr(VcHfConfig) moe = NULL;
  g_autoptr(VcHfConfig) falcon = NULL;
  g_autoptr(VcHfConfig) mistral = NULL;
  g_autoptr(GString) types = g_string_new ("[");
  g_autofree char *qwen_text = variant ("Qwen2.5-7B", "use_sliding_window", "true");
  g_autofree char *qwen_text2 = NULL;

  /* Qwen: layers from max_window_layers on use the window */
  {
    g_autoptr(JsonParser) p = json_parser_new ();
    g_autoptr(JsonGenerator) g = json_generator_new ();

    json_parser_load_from_data (p, qwen_text, -1, &error);
    g_assert_no_error (error);
    json_object_set_int_member (json_node_get_object (json_parser_get_root (p)), "max_window_layers", 21);
    json_object_set_int_member (json_node_get_object (json_parser_get_root (p)), "sliding_window", 4096);
    json_generator_set_root (g, json_parser_get_root (p));
    qwen_text2 = json_generator_to_data (g, NULL);
  }
  qwen = vc_hf_config_new_from_data (qwen_text2, strlen (qwen_text2), "config.json", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (qwen)->sliding_window, ==, 4096);
  g_assert_cmpuint (vc_hf_config_get_arch (qwen)->sliding_window_layers, ==, 7);

  /* layer_types, when given, says which layers slide */
  for (guint i = 0; i < 26; i++)
    g_string_append_printf (types, "%s\"%s\"", i ? ", " : "", i % 2 ? "full_attention" : "sliding_attention");
  g_string_append (types, "]");
  gemma = load_variant ("gemma-3-1b-pt", "layer_types", types->str, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (gemma)->sliding_window_layers, ==, 13);
  g_assert_cmpfloat (vc_hf_config_get_counts (gemma)->total, ==, 999885952);

  /* Qwen MoE: dense layers from decoder_sparse_step and mlp_only_layers */
  moe = load_variant ("Qwen3-30B-A3B", "decoder_sparse_step", "2", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (moe)->dense_layers, ==, 24);
  g_clear_object (&moe);
  moe = load_variant ("Qwen3-30B-A3B", "mlp_only_layers", "[0, 1, 47]", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (moe)->dense_layers, ==, 3);

  /* Falcon's new decoder architecture: grouped KV heads, two LayerNorms a layer */
  {
    g_autofree char *text = variant ("falcon-7b", "new_decoder_architecture", "true");
    g_autoptr(GString) s = g_string_new (text);

    g_string_replace (s, "\"num_attention_heads\"", "\"num_kv_heads\" : 1, \"num_attention_heads\"", 1);
    falcon = vc_hf_config_new_from_data (s->str, s->len, "config.json", NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (vc_hf_config_get_arch (falcon)->norms_per_layer, ==, 2);
    g_assert_cmpuint (vc_hf_config_get_arch (falcon)->n_kv_heads, ==, 1);
  }

  /* Mistral v0.2 has no window */
  mistral = load_variant ("Mistral-7B-v0.1", "sliding_window", "null", &error);
  g_assert_no_error (error);
  g_assert_cmpuint (vc_hf_config_get_arch (mistral)->sliding_window, ==, 0);
  g_assert_cmpfloat (vc_hf_config_get_counts (mistral)->total, ==, 7241732096);
}

static void
test_apply (void)
{
  g_autoptr(VcHfConfig) config = load_model ("Qwen3-30B-A3B");
  VcEstimate *estimate = vc_estimate_new ();
  g_autofree char *preset = NULL;
  g_autofree char *name = NULL;
  VcMethod method;
  VcModelType model_type;
  double parameters, active, kv;
  guint layers, experts;

  vc_estimate_set_preset (estimate, "llama-3-8b", NULL);
  vc_hf_config_apply (config, estimate);
  g_object_get (estimate,
                "preset", &preset,
                "model-name", &name,
                "method", &method,
                "model-type", &model_type,
                "model-parameters", &parameters,
                "model-active-parameters", &active,
                "kv-bytes-per-token", &kv,
                "layers", &layers,
                "experts", &experts,
                NULL);
  g_assert_cmpstr (preset, ==, "");
  g_assert_cmpstr (name, ==, "Qwen3-30B-A3B");
  g_assert_cmpstr (vc_estimate_get_model_name (estimate), ==, "Qwen3-30B-A3B");
  g_assert_cmpint (method, ==, VC_METHOD_ARCHITECTURE);
  g_assert_cmpint (model_type, ==, VC_MODEL_TYPE_MOE);
  g_assert_cmpfloat (parameters, ==, 30532122624);
  g_assert_cmpfloat (active, ==, 3353032704);
  g_assert_cmpfloat (kv, ==, 98304);
  g_assert_cmpuint (layers, ==, 48);
  g_assert_cmpuint (experts, ==, 128);
  g_assert_finalize_object (estimate);
}

/* ---- vramcalc --config ----------------------------------------------------------------------- */

static JsonObject *
run_json (JsonParser        *parser,
          const char *const *args)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int code = vc_test_run_vramcalc (args, NULL, &out, &err);

  if (code != 0)
    g_error ("vramcalc exited %d: %s", code, err);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

static void
test_cli_models (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *path = model_path (models[i].dir);
      const char *args[] = { "--config", path, "--format", "json", NULL };
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *o = run_json (parser, args);

      g_test_message ("%s", models[i].dir);
      g_assert_cmpstr (json_object_get_string_member (o, "method"), ==, "architecture");
      g_assert_true (json_node_is_null (json_object_get_member (o, "preset")));
      g_assert_cmpstr (json_object_get_string_member (o, "model"), ==, models[i].dir);
      g_assert_cmpint (json_object_get_int_member (o, "parameters"), ==, (gint64) models[i].total);
      g_assert_cmpint (json_object_get_int_member (o, "active_parameters"), ==,
                       (gint64) (models[i].active > 0 ? models[i].active : models[i].total));
      g_assert_cmpint (json_object_get_int_member (o, "kv_bytes_per_token"), ==, (gint64) models[i].kv_bytes);
    }
}

static void
test_cli_overrides (void)
{
  g_autofree char *path = model_path ("Llama-3.1-8B");
  const char *layers[] = { "--config", path, "--layers", "16", "--format", "json", NULL };
  const char *before[] = { "--layers", "16", "--config", path, "--format", "json", NULL };
  const char *fp8[] = { "--config", path, "--kv-precision", "fp8", "--format", "json", NULL };
  const char *rule[] = { "--config", path, "--method", "rule-of-thumb", "--format", "json", NULL };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  g_autoptr(JsonParser) p4 = json_parser_new ();
  /* 16 layers of 218,112,000 fewer */
  gint64 sixteen = 8030261248 - 16 * (gint64) 218112000;

  g_assert_cmpint (json_object_get_int_member (run_json (p1, layers), "parameters"), ==, sixteen);
  g_assert_cmpint (json_object_get_int_member (run_json (p2, before), "parameters"), ==, sixteen);
  g_assert_cmpint (json_object_get_int_member (run_json (p3, fp8), "kv_bytes_per_token"), ==, 65536);
  g_assert_cmpstr (json_object_get_string_member (run_json (p4, rule), "method"), ==, "rule-of-thumb");
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json_parser_get_root (p4)), "parameters"),
                   ==, 8030261248);
}

static void
test_cli_errors (void)
{
  g_autofree char *tmp = vc_test_make_tmpdir ("vc-hf-config");
  g_autofree char *bad = g_build_filename (tmp, "config.json", NULL);
  g_autofree char *text = variant ("Llama-3.1-8B", "num_hidden_layers", "-3");
  g_autofree char *empty = g_build_filename (tmp, "empty", NULL);
  g_autofree char *llama = model_path ("Llama-3.1-8B");
  g_autofree char *unknown = g_build_filename (tmp, "unknown", "config.json", NULL);
  g_autofree char *unknown_text = variant ("Llama-3.1-8B", "model_type", "\"my_new_llm\"");
  struct { const char *args[6]; const char *message; } cases[] = {
    { { "--config", bad, NULL }, "config.json: \"num_hidden_layers\" must be a whole number from 1 to 100000, got -3" },
    { { "--config", tmp, NULL }, "config.json: \"num_hidden_layers\" must be a whole number" },
    { { "--config", empty, NULL }, "holds no config.json" },
    { { "--config", llama, "--preset", "llama-3-8b", NULL }, "--preset" },
    { { "--config", NULL }, "a value is required" },
  };

  write_file (bad, text, -1);
  g_mkdir_with_parents (empty, 0755);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL;
      g_autofree char *err = NULL;

      g_assert_cmpint (vc_test_run_vramcalc (cases[i].args, NULL, &out, &err), ==, 2);
      if (strstr (err, cases[i].message) == NULL)
        g_error ("stderr “%s” does not contain “%s”", err, cases[i].message);
      g_assert_cmpstr (out, ==, "");
    }

  /* an unknown family is estimated, and vramcalc says so */
  write_file (unknown, unknown_text, -1);
  {
    g_autofree char *dir = g_path_get_dirname (unknown);
    const char *args[] = { "--config", dir, "--format", "json", NULL };
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;

    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(GError) error = NULL;

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
    g_assert_nonnull (strstr (err, "my_new_llm"));
    json_parser_load_from_data (parser, out, -1, &error);
    g_assert_no_error (error);
    g_assert_cmpint (json_object_get_int_member (json_node_get_object (json_parser_get_root (parser)),
                                                 "parameters"), ==, 8030261248);
  }
  vc_test_remove_tree (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      g_autofree char *name = g_strdup_printf ("/hf-config/model/%s", models[i].dir);
      g_test_add_data_func (name, &models[i], test_model);
    }
  g_test_add_func ("/hf-config/family-details", test_family_details);
  g_test_add_func ("/hf-config/unknown-family", test_unknown_family);
  g_test_add_func ("/hf-config/windows-and-layers", test_windows_and_layers);
  g_test_add_func ("/hf-config/bad-values", test_bad_values);
  g_test_add_func ("/hf-config/bad-files", test_bad_files);
  g_test_add_func ("/hf-config/files-and-folders", test_files_and_folders);
  g_test_add_func ("/hf-config/async", test_async);
  g_test_add_func ("/hf-config/apply", test_apply);
  g_test_add_func ("/hf-config/cli/models", test_cli_models);
  g_test_add_func ("/hf-config/cli/overrides", test_cli_overrides);
  g_test_add_func ("/hf-config/cli/errors", test_cli_errors);
  return g_test_run ();
}
