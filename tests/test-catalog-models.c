/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model catalog (data/models): every model is its config.json, read exactly by the reader of
 * an imported config.json, and its count is within the rounding of the published count its
 * index entry names (the total, rounded, or cut where the index says so; the activated
 * parameters without the input embedding, as model cards count them); the search finds models by any part of their name, family, size, "moe",
 * "dense" and "vision". */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "vc-catalog.h"
#include "vc-hf-config.h"

/* the seed's presets keep their ids */
static const char *seed_ids[] = {
  "gpt2", "llama-3.2-1b", "llama-3.2-3b", "phi-3-mini", "llama-2-7b", "mistral-7b", "mistral-7b-v0.2",
  "qwen2.5-7b", "falcon-7b", "qwen3-8b", "llama-3-8b", "llama-3.1-8b", "gemma-2-9b", "llama-2-13b",
  "starcoder-15b", "qwen3-30b-a3b", "yi-34b", "mixtral-8x7b", "llama-2-70b", "llama-3-70b",
  "llama-3.1-70b", "llama-3.1-405b", "deepseek-r1",
};

static void
test_every_model_published (void)
{
  guint n, n_recent = 0;
  const VcPreset *p = vc_presets_get_all (&n);
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_cmpuint (n, >=, 152);
  for (guint i = 0; i < n; i++)
    {
      const VcPreset *m = &p[i];
      VcParamCounts c;
      double embedding = (double) m->arch.vocab_size * m->arch.hidden_size;

      g_test_message ("%s", m->id);
      g_assert_true (g_hash_table_add (ids, m->id));
      g_assert_true (vc_arch_validate (&m->arch, NULL));
      vc_arch_count_params (&m->arch, &c);
      g_assert_cmpfloat (c.total, ==, m->published_parameters);
      g_assert_cmpfloat (m->published_unit, >=, 1);
      if (m->published_truncated)
        {
          /* "14.7B" for 14,770,033,664: the count cut to the published digit */
          g_assert_cmpfloat (c.total, >=, m->published_total);
          g_assert_cmpfloat (c.total, <, m->published_total + m->published_unit);
        }
      else
        /* with what the published count holds that is not loaded (GLM-4.5's multi-token
         * prediction layer, as tests/hf-config/test-hf-config.c counts it) */
        g_assert_cmpfloat (fabs (c.total + m->published_uncounted - m->published_total), <=, m->published_unit / 2);
      if (m->published_active > 0)
        {
          g_assert_true (vc_arch_is_moe (&m->arch));
          g_assert_cmpfloat (fabs (c.active - embedding - m->published_active), <=, m->published_active_unit / 2);
          g_assert_cmpstr (m->active_source, !=, "");
        }
      if (vc_arch_is_moe (&m->arch))
        g_assert_cmpfloat (m->published_active_parameters, >, 0);
      else
        g_assert_cmpfloat (m->published_active_parameters, ==, 0);
      /* where each figure was read */
      g_assert_cmpuint (strlen (m->source), >=, 20);
      g_assert_cmpuint (strlen (m->config_source), >=, 20);
      g_assert_nonnull (strchr (m->repository, '/'));
      g_assert_cmpuint (strlen (m->released), ==, 7);
      g_assert_true (g_ascii_isdigit (m->released[0]) && m->released[4] == '-');
      g_assert_cmpstr (m->family_name, !=, "");
      n_recent += strcmp (m->released, "2024-01") >= 0;
    }
  g_test_message ("%u models, %u of 2024 or later", n, n_recent);
  g_assert_cmpuint (n_recent, >=, 141);
  for (guint i = 0; i < G_N_ELEMENTS (seed_ids); i++)
    g_assert_nonnull (vc_presets_lookup (seed_ids[i]));
}

/* counts as the sources name them (data/models/index.json) */
static void
test_values (void)
{
  const VcPreset *oss = vc_presets_lookup ("gpt-oss-120b");
  const VcPreset *coder = vc_presets_lookup ("qwen3-coder-480b-a35b-instruct");
  const VcPreset *r1 = vc_presets_lookup ("deepseek-r1");
  const VcPreset *smol = vc_presets_lookup ("smollm3-3b");

  g_assert_cmpfloat (oss->published_parameters, ==, 116829156672.0);
  g_assert_cmpfloat (oss->published_active_parameters, ==, 5711982912.0);
  g_assert_cmpuint (oss->max_context, ==, 131072);
  g_assert_cmpstr (oss->released, ==, "2025-08");
  g_assert_cmpfloat (coder->published_parameters, ==, 480154875392.0);
  g_assert_cmpuint (coder->max_context, ==, 262144);
  /* the seed's DeepSeek-R1 keeps its published 37B activated for the estimate */
  g_assert_cmpfloat (r1->published_active_parameters, ==, 37e9);
  g_assert_cmpfloat (r1->published_parameters, ==, 671026419200.0);
  /* SmolLM3, refused before its reader: transformers' modules, tied (Keras Hub counts 2,304 more) */
  g_assert_nonnull (smol);
  g_assert_cmpfloat (smol->published_parameters, ==, 3075098624.0);
}

/* models added with their sources: the module counts, what the estimate takes as activated and
 * the longest context, as each one's config.json gives them */
static void
test_added_values (void)
{
  static const struct
  {
    const char *id;
    double      total;
    double      active;
    guint       context;
    const char *released;
  } rows[] = {
    /* 36 Gated DeltaNet layers, 12 with gated attention, 512 experts; the multi-token prediction
     * module that the Hub's 81,324,862,720 holds is not loaded */
    { "qwen3-next-80b-a3b-instruct", 79674391296.0, 3874929408.0, 262144, "2025-09" },
    /* 36 Mamba-2 layers and 4 of attention, 6 of 64 experts and a shared MLP in each */
    { "granite-4.0-h-tiny", 6939037248.0, 1465470528.0, 131072, "2025-10" },
    { "qwen3-235b-a22b", 235093634560.0, 22190763520.0, 40960, "2025-04" },
    { "kimi-k2-instruct", 1026408232448.0, 32861500928.0, 131072, "2025-07" },
    { "qwen3-30b-a3b-base", 30532122624.0, 3353032704.0, 32768, "2025-04" },
    { "qwen2.5-7b-instruct", 7615616512.0, 0, 32768, "2024-09" },
    { "llama-3.2-1b-instruct", 1235814400.0, 0, 131072, "2024-09" },
    { "mistral-nemo-base-2407", 12247782400.0, 0, 128000, "2024-07" },
    { "smollm2-135m", 134515008.0, 0, 8192, "2024-11" },
    { "dolphin-2.9.1-yi-1.5-34b", 34388917248.0, 0, 8192, "2024-05" },
    /* OLMo 2: q_norm and k_norm over the whole projections, the float32 index's 13,716,198,400 */
    { "olmo-2-1124-13b", 13716198400.0, 0, 4096, "2024-11" },
    { "olmo-2-1124-13b-instruct", 13716198400.0, 0, 4096, "2024-11" },
    { "olmo-2-1124-7b", 7298617344.0, 0, 4096, "2024-11" },
    { "olmo-2-0325-32b", 32234279936.0, 0, 4096, "2025-03" },
    { "gemma-7b", 8537680896.0, 0, 8192, "2024-02" },
    { "gemma-2-9b-it", 9241705984.0, 0, 8192, "2024-06" },
    { "qwq-32b-preview", 32763876352.0, 0, 32768, "2024-11" },
    /* ERNIE 4.5 0.3B: 18 × 14,157,824 + tied embeddings 105,906,176 + final norm 1,024 */
    { "ernie-4.5-0.3b-pt", 360748032.0, 0, 131072, "2025-06" },
    /* Ernie4_5_MoeConfig's defaults: ERNIE-4.5-21B-A3B-Thinking's sizes and count */
    { "ernie-4.5-21b-a3b-pt", 21825437888.0, 3352150208.0, 131072, "2025-06" },
    { "llama-3.3-70b-instruct", 70553706496.0, 0, 131072, "2024-12" },
    /* Qwen2.5-Math-7B's sizes, untied; rope_theta 10000 and a 131,072 context of its own */
    { "deepseek-r1-distill-qwen-7b", 7615616512.0, 0, 131072, "2025-01" },
    /* Qwen2.5-Math-1.5B's sizes with an untied head: 1,543,714,304 + 151,936 × 1,536 */
    { "deepseek-r1-distill-qwen-1.5b", 1777088000.0, 0, 131072, "2025-01" },
    /* Mistral3ForConditionalGeneration (Magistral Small's too): the text model, the Pixtral
     * encoder and the multimodal projector */
    { "mistral-small-3.1-24b-instruct", 24011361280.0, 0, 131072, "2025-03" },
    { "magistral-small-2509", 24011361280.0, 0, 131072, "2025-09" },
    /* Mistral Small 3.2: 3.1's shapes, encoder and projector counted (KerasHub's mistral3 preset) */
    { "mistral-small-3.2-24b-instruct-2506", 24011361280.0, 0, 131072, "2025-06" },
    /* Command R: CohereConfig's defaults, 40 layers of 822,091,776 (attention 4 × 8192², MLP
     * 3 × 8192 × 22528, one weight-only LayerNorm) + the tied embedding 256000 × 8192 + the final
     * norm; 8,192 positions as the class and the checkpoint's config.json give them */
    { "c4ai-command-r-v01", 34980831232.0, 0, 8192, "2024-03" },
    /* Hunyuan-A13B, Tencent's own config.json: 64 experts of 3072 (8 routed) and a shared MLP
     * in each of 32 layers; 32,768 positions as the file gives them */
    { "hunyuan-a13b-instruct", 80393183232.0, 12747448320.0, 32768, "2025-06" },
    /* Falcon-H1 0.5B: 36 layers of attention (8 heads, 2 key/value heads of 64) 1,310,720, a
     * Mamba-2 mixer of 24 heads of 64 (state 128, one group) 5,014,344, the MLP 6,291,456 and two
     * norms; untied 32,784 × 1,024 embeddings and head */
    { "falcon-h1-0.5b-instruct", 521411104.0, 0, 16384, "2025-05" },
    /* params.json under the config.json keys: no sliding window, no context given (0) */
    { "devstral-small-2507", 23572403200.0, 0, 0, "2025-07" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const VcPreset *p = vc_presets_lookup (rows[i].id);

      g_test_message ("%s", rows[i].id);
      g_assert_nonnull (p);
      g_assert_cmpfloat (p->published_parameters, ==, rows[i].total);
      g_assert_cmpfloat (p->published_active_parameters, ==, rows[i].active);
      g_assert_cmpuint (p->max_context, ==, rows[i].context);
      g_assert_cmpstr (p->released, ==, rows[i].released);
    }
  /* params.json gives no window, which convert_mistral_weights_to_hf.py writes as null (none, not
   * MistralConfig's 4096), and Devstral's lm_head is its own matrix */
  g_assert_cmpuint (vc_presets_lookup ("devstral-small-2507")->arch.sliding_window, ==, 0);
  g_assert_false (vc_presets_lookup ("devstral-small-2507")->arch.tied_embeddings);
  /* "1.23B" for Llama 3.2 1B is its count cut, not rounded */
  g_assert_true (vc_presets_lookup ("llama-3.2-1b-instruct")->published_truncated);
}

static guint
member_uint (JsonObject *o,
             const char *name)
{
  g_assert_true (json_object_has_member (o, name));
  return (guint) json_object_get_int_member (o, name);
}

/* Mistral Small 3.1's own published count (KerasHub's mistral3 preset) holds its Pixtral encoder
 * and multimodal projector, which the catalog counts: exactly what the entry's config.json sizes
 * them to (transformers' PixtralVisionModel and Mistral3MultiModalProjector, no biases with
 * multimodal_projector_bias false), the architecture's encoder_params */
static void
test_vision_counted (void)
{
  const VcPreset *p = vc_presets_lookup ("mistral-small-3.1-24b-instruct");
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = g_resources_lookup_data ("/io/github/vramcalc/VramCalculator/core/models/"
                                                     "mistral-small-3.1-24b-instruct/config.json",
                                                     0, &error);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root, *vision, *text;
  double d, f, layers, merge, text_hidden, layer, encoder, projector;

  g_assert_no_error (error);
  g_assert_nonnull (p);
  g_assert_true (p->vision);
  g_assert_true (json_parser_load_from_data (parser, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes), &error));
  g_assert_no_error (error);
  root = json_node_get_object (json_parser_get_root (parser));
  vision = json_object_get_object_member (root, "vision_config");
  text = json_object_get_object_member (root, "text_config");
  g_assert_false (json_object_get_boolean_member (root, "multimodal_projector_bias"));
  d = member_uint (vision, "hidden_size");
  f = member_uint (vision, "intermediate_size");
  layers = member_uint (vision, "num_hidden_layers");
  merge = member_uint (root, "spatial_merge_size");
  text_hidden = member_uint (text, "hidden_size");
  /* q, k, v and o of heads × head_dim = hidden_size */
  g_assert_cmpuint (member_uint (vision, "num_attention_heads") * member_uint (vision, "head_dim"), ==, (guint) d);
  /* attention, gated MLP, attention_norm and ffn_norm */
  layer = 4 * d * d + 3 * d * f + 2 * d;
  /* the layers, patch_conv (channels × patch × patch → hidden) and ln_pre */
  encoder = layers * layer + member_uint (vision, "num_channels") * member_uint (vision, "patch_size")
            * member_uint (vision, "patch_size") * d + d;
  /* norm, patch_merger (merge² × hidden → hidden), linear_1 and linear_2 */
  projector = d + merge * merge * d * d + d * text_hidden + text_hidden * text_hidden;
  g_assert_cmpfloat (encoder, ==, 403305472.0);
  g_assert_cmpfloat (projector, ==, 35652608.0);
  g_assert_cmpfloat (p->arch.encoder_params, ==, encoder + projector);
  g_assert_cmpuint (p->arch.encoder_layers, ==, 0);
  g_assert_cmpfloat (p->published_uncounted, ==, 0);
  g_assert_cmpfloat (p->published_total, ==, 24011361280.0);
  g_assert_cmpfloat (p->published_parameters, ==, p->published_total);
}

/* OLMo 2's q_norm and k_norm span the whole q and k projections: heads × d and kv heads × d wide,
 * with grouped-query attention too (OLMo 2 32B: 40 heads, 8 key/value heads) */
static void
test_olmo2 (void)
{
  static const char mha[] =
    "{\"model_type\": \"olmo2\", \"hidden_size\": 5120, \"intermediate_size\": 13824, "
    "\"num_attention_heads\": 40, \"num_hidden_layers\": 40, \"num_key_value_heads\": 40, "
    "\"vocab_size\": 100352}";
  static const char gqa[] =
    "{\"model_type\": \"olmo2\", \"hidden_size\": 5120, \"intermediate_size\": 27648, "
    "\"num_attention_heads\": 40, \"num_hidden_layers\": 64, \"num_key_value_heads\": 8, "
    "\"vocab_size\": 100352}";
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) a = vc_hf_config_new_from_data (mha, strlen (mha), "config.json", NULL, &error);
  g_autoptr(VcHfConfig) b = NULL;
  VcArch per_head;
  VcParamCounts c;

  g_assert_no_error (error);
  g_assert_true (vc_hf_config_is_exact (a));
  g_assert_cmpuint (vc_hf_config_get_arch (a)->norms_per_layer, ==, 2);
  g_assert_true (vc_hf_config_get_arch (a)->qk_norm && vc_hf_config_get_arch (a)->qk_norm_full);
  g_assert_cmpfloat (vc_hf_config_get_counts (a)->total, ==, 13716198400.0);
  b = vc_hf_config_new_from_data (gqa, strlen (gqa), "config.json", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (vc_hf_config_is_exact (b));
  /* 64 layers × (q_norm 5,120 + k_norm 1,024) */
  g_assert_cmpfloat (vc_hf_config_get_counts (b)->total, ==, 32234279936.0);
  per_head = *vc_hf_config_get_arch (b);
  per_head.qk_norm_full = FALSE;
  vc_arch_count_params (&per_head, &c);
  g_assert_cmpfloat (vc_hf_config_get_counts (b)->total - c.total, ==, 64.0 * (5120 + 1024 - 2 * 128));
}

/* Qwen3-VL: the text model (Qwen3's, or Qwen3-MoE's experts) and the vision tower, counted from
 * vision_config; the wrapper's tie_word_embeddings where text_config has none */
static void
test_qwen3_vl (void)
{
  static const char mismatch[] =
    "{\"model_type\": \"qwen3_vl\", \"tie_word_embeddings\": false, \"text_config\": {"
    "\"model_type\": \"qwen3_vl_text\", \"hidden_size\": 2048, \"intermediate_size\": 6144, "
    "\"num_attention_heads\": 16, \"num_hidden_layers\": 28, \"num_key_value_heads\": 8, "
    "\"head_dim\": 128, \"vocab_size\": 151936}, \"vision_config\": {\"depth\": 24, "
    "\"hidden_size\": 1024, \"intermediate_size\": 4096, \"num_heads\": 16, \"in_channels\": 3, "
    "\"patch_size\": 16, \"temporal_patch_size\": 2, \"spatial_merge_size\": 2, "
    "\"out_hidden_size\": 2560, \"num_position_embeddings\": 2304, "
    "\"deepstack_visual_indexes\": [5, 11, 17]}}";
  const VcPreset *vl8 = vc_presets_lookup ("qwen3-vl-8b-instruct");
  const VcPreset *vl2 = vc_presets_lookup ("qwen3-vl-2b-instruct");
  const VcPreset *moe = vc_presets_lookup ("qwen3-vl-30b-a3b-instruct");
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) bad = NULL;
  g_autofree char *untied = NULL, *tied = NULL;
  g_autoptr(VcHfConfig) a = NULL;
  g_autoptr(VcHfConfig) b = NULL;
  char *at;

  /* patch 1,770,624, positions 2,654,208, 27 blocks of 15,239,504, merger 40,119,040 and three
   * deepstack mergers of 40,125,952 */
  g_assert_cmpuint (vl8->arch.encoder_params, ==, 576388336);
  g_assert_cmpfloat (vl8->published_parameters, ==, 8190735360.0 + 576388336.0);
  g_assert_false (vl8->arch.tied_embeddings);
  g_assert_true (vl2->arch.tied_embeddings);
  g_assert_cmpuint (vl2->arch.encoder_params, ==, 406957056);
  /* the MoE: Qwen3-30B-A3B's text model, untied as the wrapper says */
  g_assert_true (vc_arch_is_moe (&moe->arch));
  g_assert_false (moe->arch.tied_embeddings);
  g_assert_cmpfloat (moe->published_parameters, ==, 30532122624.0 + 538631408.0);
  g_assert_cmpfloat (moe->published_active_parameters, ==, 3353032704.0);
  g_assert_true (moe->vision);

  /* the mergers project to the text model's width, or the file is refused */
  bad = vc_hf_config_new_from_data (mismatch, strlen (mismatch), "config.json", NULL, &error);
  g_assert_null (bad);
  g_assert_nonnull (strstr (error->message, "\"vision_config.out_hidden_size\" (2560) must equal"));
  g_clear_error (&error);

  /* text_config's own tie_word_embeddings comes first; without it, the wrapper's */
  untied = g_strdup (mismatch);
  at = strstr (untied, "2560");
  memcpy (at, "2048", 4);
  a = vc_hf_config_new_from_data (untied, strlen (untied), "config.json", NULL, &error);
  g_assert_no_error (error);
  g_assert_false (vc_hf_config_get_arch (a)->tied_embeddings);
  g_assert_cmpuint (vc_hf_config_get_arch (a)->encoder_params, ==, 406957056);
  at = strstr (untied, "\"vocab_size\": 151936}");
  g_assert_nonnull (at);
  tied = g_strdup_printf ("%.*s\"vocab_size\": 151936, \"tie_word_embeddings\": true}%s",
                          (int) (at - untied), untied, at + strlen ("\"vocab_size\": 151936}"));
  b = vc_hf_config_new_from_data (tied, strlen (tied), "config.json", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (vc_hf_config_get_arch (b)->tied_embeddings);
  g_assert_cmpfloat (vc_hf_config_get_counts (a)->total - vc_hf_config_get_counts (b)->total, ==,
                     151936.0 * 2048);
}

/* MiniMax-M2.5: 62 layers of 256 experts of 1,536 with the router's correction bias, q_norm and
 * k_norm over the whole projections; what MiniMaxM2Config does not build is not understood */
static void
test_minimax_m2 (void)
{
  static const char shared[] =
    "{\"model_type\": \"minimax_m2\", \"hidden_size\": 3072, \"intermediate_size\": 1536, "
    "\"num_attention_heads\": 48, \"num_hidden_layers\": 62, \"num_key_value_heads\": 8, "
    "\"head_dim\": 128, \"vocab_size\": 200064, \"num_local_experts\": 256, "
    "\"num_experts_per_tok\": 8, \"shared_intermediate_size\": 1536}";
  const VcPreset *m = vc_presets_lookup ("minimax-m2.5");
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) c = vc_hf_config_new_from_data (shared, strlen (shared), "config.json", NULL, &error);

  g_assert_nonnull (m);
  g_assert_true (m->arch.router_bias && m->arch.qk_norm_full);
  g_assert_cmpuint (m->arch.n_experts, ==, 256);
  g_assert_cmpuint (m->arch.dense_layers, ==, 0);
  /* 62 × (attention 44,040,192 + q/k norms 7,168 + 2 norms 6,144 + experts 3,623,878,656 +
   * router 786,432 + bias 256) + embeddings and head 1,229,193,216 + final norm 3,072 */
  g_assert_cmpfloat (m->published_parameters, ==, 228689764864.0);
  g_assert_no_error (error);
  g_assert_false (vc_hf_config_is_exact (c));
  g_assert_false (vc_hf_config_check_exact (c, &error));
  g_assert_nonnull (strstr (error->message, "shared_intermediate_size"));
}

static char *
search_ids (const char *text)
{
  guint found[200];
  guint n_presets, n = vc_presets_search (text, found, G_N_ELEMENTS (found));
  const VcPreset *p = vc_presets_get_all (&n_presets);
  GString *s = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "%s%s", i ? " " : "", p[found[i]].id);
  return g_string_free (s, FALSE);
}

/* Seed-OSS 36B: Llama's layer with q, k and v biases (attention_bias, true by default), an o
 * bias only with attention_out_bias, untied */
static void
test_seed_oss (void)
{
  static const char out_bias[] =
    "{\"model_type\": \"seed_oss\", \"hidden_size\": 5120, \"intermediate_size\": 27648, "
    "\"num_attention_heads\": 80, \"num_hidden_layers\": 64, \"vocab_size\": 155136, "
    "\"attention_out_bias\": true}";
  const VcPreset *m = vc_presets_lookup ("seed-oss-36b-instruct");
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) c = vc_hf_config_new_from_data (out_bias, strlen (out_bias), "config.json", NULL, &error);

  g_assert_nonnull (m);
  g_assert_true (m->arch.qkv_bias && !m->arch.o_bias && !m->arch.mlp_bias && !m->arch.tied_embeddings);
  g_assert_cmpuint (m->arch.head_dim, ==, 128);
  g_assert_cmpuint (m->max_context, ==, 524288);
  /* 64 × (q 52,428,800 + 10,240, k and v 10,485,760 + 2,048, o 52,428,800, MLP 424,673,280,
   * 2 norms 10,240) + embeddings and head 2 × 155,136 × 5,120 + final norm 5,120 */
  g_assert_cmpfloat (m->published_parameters, ==, 36151104512.0);
  /* 8 key/value heads and head_dim 128 by default; attention_out_bias adds o_proj's 5,120 a layer */
  g_assert_no_error (error);
  g_assert_true (vc_hf_config_get_arch (c)->o_bias);
  g_assert_cmpfloat (vc_hf_config_get_counts (c)->total - m->published_parameters, ==, 64.0 * 5120);
}

/* ERNIE 4.5 dense: use_bias puts a bias on q, k, v, o and the three MLP projections */
static void
test_ernie4_5 (void)
{
  static const char bias[] =
    "{\"model_type\": \"ernie4_5\", \"hidden_size\": 1024, \"intermediate_size\": 3072, "
    "\"num_attention_heads\": 16, \"num_hidden_layers\": 18, \"vocab_size\": 103424, "
    "\"use_bias\": true}";
  const VcPreset *m = vc_presets_lookup ("ernie-4.5-0.3b-pt");
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) c = vc_hf_config_new_from_data (bias, strlen (bias), "config.json", NULL, &error);

  g_assert_nonnull (m);
  g_assert_true (m->arch.tied_embeddings && !m->arch.qkv_bias && !m->arch.mlp_bias);
  g_assert_cmpuint (m->arch.n_kv_heads, ==, 2);
  g_assert_cmpuint (m->arch.head_dim, ==, 128);
  g_assert_no_error (error);
  g_assert_true (vc_hf_config_is_exact (c));
  /* 18 × (q 2,048 + k and v 2 × 256 + o 1,024 + gate and up 2 × 3,072 + down 1,024) */
  g_assert_cmpfloat (vc_hf_config_get_counts (c)->total - m->published_parameters, ==, 18.0 * 10752);
}

static void
test_search (void)
{
  guint found[200];
  guint n_presets, n;
  const VcPreset *p = vc_presets_get_all (&n_presets);
  g_autofree char *b70 = search_ids ("70b");
  g_autofree char *oss = search_ids ("GPT-OSS");
  g_autofree char *coder = search_ids ("qwen3 coder");
  g_autofree char *none = search_ids ("no such model");
  g_autofree char *suggested = search_ids ("");
  g_autofree char *words = search_ids ("  llama   405b ");
  g_autofree char *distill = search_ids ("distill qwen");
  g_autofree char *small = search_ids ("24b vision");

  /* suggested models first, then the catalog's order */
  g_assert_cmpstr (b70, ==, "llama-3.1-70b llama-2-70b llama-3-70b llama-3.3-70b-instruct deepseek-r1-distill-llama-70b");
  g_assert_cmpstr (oss, ==, "gpt-oss-20b gpt-oss-120b");
  g_assert_cmpstr (coder, ==, "qwen3-coder-480b-a35b-instruct");
  g_assert_cmpstr (none, ==, "");
  g_assert_cmpstr (words, ==, "llama-3.1-405b");
  /* the R1 distills on Qwen2.5 at each size, the catalog's order */
  g_assert_cmpstr (distill, ==, "deepseek-r1-distill-qwen-32b deepseek-r1-distill-qwen-7b deepseek-r1-distill-qwen-1.5b");
  g_assert_cmpstr (small, ==, "mistral-small-3.1-24b-instruct mistral-small-3.2-24b-instruct-2506");
  g_assert_true (g_str_has_prefix (suggested, "llama-3.1-8b gpt-oss-20b qwen3-8b qwen3-30b-a3b llama-3.1-70b"));

  /* "moe" and "dense" part the catalog; "vision" finds the models that also read images */
  n = vc_presets_search ("moe", found, G_N_ELEMENTS (found));
  g_assert_cmpuint (n, >=, 12);
  for (guint i = 0; i < n; i++)
    g_assert_true (vc_arch_is_moe (&p[found[i]].arch));
  g_assert_cmpuint (n + vc_presets_search ("dense", NULL, G_N_ELEMENTS (found)), ==, n_presets);
  n = vc_presets_search ("vision", found, G_N_ELEMENTS (found));
  g_assert_cmpuint (n, >=, 3);
  for (guint i = 0; i < n; i++)
    g_assert_true (p[found[i]].vision);
  /* a family by its name, and the most asked for */
  g_assert_cmpuint (vc_presets_search ("qwen3 moe", NULL, 200), >=, 4);
  g_assert_cmpuint (vc_presets_search ("gemma", NULL, 200), >=, 6);
  g_assert_cmpuint (vc_presets_search ("moe", found, 2), ==, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/catalog-models/every-model-published", test_every_model_published);
  g_test_add_func ("/catalog-models/values", test_values);
  g_test_add_func ("/catalog-models/added-values", test_added_values);
  g_test_add_func ("/catalog-models/vision-counted", test_vision_counted);
  g_test_add_func ("/catalog-models/olmo2", test_olmo2);
  g_test_add_func ("/catalog-models/qwen3-vl", test_qwen3_vl);
  g_test_add_func ("/catalog-models/minimax-m2", test_minimax_m2);
  g_test_add_func ("/catalog-models/seed-oss", test_seed_oss);
  g_test_add_func ("/catalog-models/ernie4_5", test_ernie4_5);
  g_test_add_func ("/catalog-models/search", test_search);
  return g_test_run ();
}
