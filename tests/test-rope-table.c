/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-rope-table.c: the cos/sin tables for rotary positions that vLLM and SGLang build on
 * every GPU (FORMULAS.md, "vLLM's and SGLang's RoPE tables"), in exact bytes, from presets and
 * config files: their rows and width as the config reader derives them, the JSON key, the
 * weights' formula text, each rank of a layout holding the whole table, and the rope types
 * whose table is not followed refused with their reason. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "vc-engine.h"
#include "vc-estimate.h"
#include "vc-test-util.h"

/* vramcalc's JSON for `args` (NULL-terminated), the model given by `how` ("--preset" or
 * "--config", a config folder under tests/hf-config/models) */
static JsonObject *
run_json (JsonParser  *parser,
          const char  *how,
          const char  *model,
          const char  *engine,
          const char  *extra1,
          const char  *extra2)
{
  g_autofree char *path = g_str_equal (how, "--config")
                          ? g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", model, NULL)
                          : g_strdup (model);
  const char *args[] = { how, path, "--engine", engine, "--seq", "8192", "--format", "json",
                         extra1, extra2, NULL };

  return vc_test_run_json (parser, args);
}

static gint64
rope_bytes (const char *how,
            const char *model,
            const char *engine)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonObject *root = run_json (parser, how, model, engine, NULL, NULL);

  g_assert_false (json_object_get_null_member (root, "rope_table_bytes"));
  return json_object_get_int_member (root, "rope_table_bytes");
}

/* The figures of FORMULAS.md: vLLM in the model's 16-bit dtype (gpt-oss's in fp32), SGLang in
 * fp32 on CUDA */
static void
test_exact_bytes (void)
{
  /* Llama 3.1 8B: llama3 rope, max_position_embeddings 131,072 rows × 128 (32 MiB) */
  g_assert_cmpint (rope_bytes ("--config", "Llama-3.1-8B", "vllm"), ==, 131072 * 128 * 2);
  g_assert_cmpint (rope_bytes ("--config", "Llama-3.1-8B", "vllm"), ==, 33554432);
  g_assert_cmpint (rope_bytes ("--config", "Llama-3.1-8B", "sglang"), ==, 131072 * 128 * 4);
  /* DeepSeek-V3: DeepseekScalingRotaryEmbedding, ⌈4,096 × 40⌉ rows × qk_rope_head_dim 64 (20 MiB) */
  g_assert_cmpint (rope_bytes ("--config", "DeepSeek-V3", "vllm"), ==, 163840 * 64 * 2);
  g_assert_cmpint (rope_bytes ("--config", "DeepSeek-V3", "vllm"), ==, 20971520);
  g_assert_cmpint (rope_bytes ("--config", "DeepSeek-V3", "sglang"), ==, 163840 * 64 * 4);
  /* Llama 4 Scout Instruct: 10,485,760 positions × 128 (2.5 GiB); the base model 262,144 */
  g_assert_cmpint (rope_bytes ("--config", "Llama-4-Scout-17B-16E-Instruct", "vllm"), ==, 10485760LL * 128 * 2);
  g_assert_cmpint (rope_bytes ("--config", "Llama-4-Scout-17B-16E-Instruct", "vllm"), ==, 2684354560LL);
  g_assert_cmpint (rope_bytes ("--config", "Llama-4-Scout-17B-16E", "vllm"), ==, 262144 * 128 * 2);
  /* partial rotary: Qwen3-Next's 0.25 of 256 (64) over 262,144 positions; GLM-4.5's 0.5 of 128 */
  g_assert_cmpint (rope_bytes ("--config", "Qwen3-Next-80B-A3B-Instruct", "vllm"), ==, 262144 * 64 * 2);
  g_assert_cmpint (rope_bytes ("--config", "GLM-4.5", "vllm"), ==, 131072 * 64 * 2);
  /* gpt-oss: YaRN, ⌈4,096 × 32⌉ rows × 64, in fp32 in both engines */
  g_assert_cmpint (rope_bytes ("--config", "gpt-oss-20b", "vllm"), ==, 131072 * 64 * 4);
  g_assert_cmpint (rope_bytes ("--config", "gpt-oss-20b", "sglang"), ==, 131072 * 64 * 4);
  /* Gemma 3 27B: the local table (163,840 rows) and the global one (linear × 8) of 128 */
  g_assert_cmpint (rope_bytes ("--preset", "gemma-3-27b-it", "vllm"), ==, (163840 + 163840 * 8) * 128 * 2);
  /* Phi-3.5-mini: longrope's short (4,096) and long (131,072) tables of 96 */
  g_assert_cmpint (rope_bytes ("--preset", "phi-3.5-mini-instruct", "vllm"), ==, (4096 + 131072) * 96 * 2);
  /* Qwen3-VL 4B and 8B, whose presets carry rope_scaling's mrope_section (data/models/index.json):
   * vLLM's MRotaryEmbedding, max_position_embeddings × 4 = 1,048,576 rows of 128 (256 MiB) */
  g_assert_cmpint (rope_bytes ("--preset", "qwen3-vl-8b-instruct", "vllm"), ==, 262144 * 4 * 128 * 2);
  g_assert_cmpint (rope_bytes ("--preset", "qwen3-vl-8b-instruct", "vllm"), ==, 268435456);
  g_assert_cmpint (rope_bytes ("--preset", "qwen3-vl-4b-instruct", "vllm"), ==, 268435456);
  /* no rotary positions: Granite 4.0-H (nope), GPT-2 (learned) */
  g_assert_cmpint (rope_bytes ("--config", "granite-4.0-h-tiny", "vllm"), ==, 0);
  g_assert_cmpint (rope_bytes ("--config", "gpt2", "vllm"), ==, 0);
}

/* The fields the config reader leaves, on the model object */
static void
test_arch_fields (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("qwen3-next-80b-a3b-instruct", "engine", "vllm", NULL);
  const VcArch *a = &vc_estimate_get_inputs (e)->arch;
  guint rows, dim, kind;
  gboolean fp32;

  g_assert_cmpuint (a->rope_table_rows, ==, 262144);
  g_assert_cmpuint (a->rotary_dim, ==, 64);
  g_assert_false (a->rope_table_fp32);
  g_assert_cmpuint (a->rope_table_kind, ==, VC_ROPE_TABLE_PLAIN);
  g_object_get (e, "rope-table-rows", &rows, "rotary-dim", &dim, "rope-table-fp32", &fp32, "rope-table-kind", &kind, NULL);
  g_assert_cmpuint (rows, ==, 262144);
  g_assert_cmpuint (dim, ==, 64);
  g_assert_false (fp32);
  g_assert_cmpuint (kind, ==, 0);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->rope_table, ==, 262144 * 64 * 2.0);

  /* other engines and training build no table: the weights are the checkpoint's alone */
  g_object_set (e, "engine", VC_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->rope_table, ==, 0);
  g_object_set (e, "engine", VC_ENGINE_TRANSFORMERS, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->rope_table, ==, 0);
  g_object_set (e, "engine", VC_ENGINE_VLLM, "mode", VC_MODE_TRAINING, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->rope_table, ==, 0);

  /* gpt-oss-120b at MXFP4: its 65,248,811,136 bytes of checkpoint and vLLM's fp32 table */
  g_autoptr(VcEstimate) oss = vc_test_estimate_new ("gpt-oss-120b", "method", "architecture", "engine", "vllm",
                                                    "precision", "mxfp4", NULL);
  g_assert_true (vc_estimate_get_inputs (oss)->arch.rope_table_fp32);
  g_assert_cmpuint (vc_estimate_get_inputs (oss)->arch.rope_table_rows, ==, 131072);
  g_assert_cmpfloat (vc_estimate_get_selected (oss)->bytes[VC_COMPONENT_WEIGHTS], ==, 65248811136.0 + 131072 * 64 * 4.0);
}

/* The weights hold the table once; each of the TP ranks holds its share of the checkpoint and
 * the whole table, in the breakdown at a layout, the KV capacity and the explained formula */
static void
test_per_rank (void)
{
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  JsonObject *one = run_json (p1, "--config", "Llama-4-Scout-17B-16E-Instruct", "vllm", NULL, NULL);
  JsonObject *tp2 = run_json (p2, "--config", "Llama-4-Scout-17B-16E-Instruct", "vllm", "--tp", "2");
  JsonObject *generic = run_json (p3, "--config", "Llama-4-Scout-17B-16E-Instruct", "generic", "--tp", "2");
  double table = 2684354560.0;
  double w = vc_test_component_bytes (one, "weights");
  double w_tp2 = vc_test_component_bytes (json_object_get_object_member (tp2, "per_gpu"), "weights");
  double w_generic = vc_test_component_bytes (json_object_get_object_member (generic, "per_gpu"), "weights");

  g_assert_true (json_object_get_null_member (generic, "rope_table_bytes"));
  /* the breakdown: the checkpoint and one table; a rank at TP 2: its 109,518,154,752 bytes of
   * checkpoint as the breakdown without an engine keeps it (the vision tower whole on each), less
   * the 870,825,728 bytes of the tower vLLM divides over the ranks, and the whole table:
   * 111,331,683,584 bytes, 103.69 GiB */
  g_assert_cmpint (json_object_get_int_member (one, "rope_table_bytes"), ==, (gint64) table);
  g_assert_cmpfloat (w, >, table);
  g_assert_cmpfloat (w_generic, ==, 109518154752.0);
  g_assert_cmpfloat (w_tp2, ==, w_generic - 870825728.0 + table);
  g_assert_cmpfloat (w_tp2, ==, 111331683584.0);
  /* two stages: each holds the table, so the GPUs together hold it twice */
  {
    g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3.1-8b", "engine", "vllm", "pp", "2", NULL);
    const VcLayoutResult *lr = vc_estimate_get_layout_result (e);
    const VcScenarioResult *sc = vc_estimate_get_selected (e);

    g_assert_cmpfloat (sc->rope_table, ==, 33554432.0);
    g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], ==, sc->bytes[VC_COMPONENT_WEIGHTS] + sc->rope_table);
  }
}

/* The KV cache loses the table on each GPU: Llama 3.1 8B on one H100 under vLLM, the budget less
 * the checkpoint, the table and the profile run, in blocks of 16 tokens */
static void
test_kv_capacity (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3.1-8b", "engine", "vllm", "seq", "8192", NULL);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  const VcInputs *in = vc_estimate_get_inputs (e);
  const VcResult *r = vc_estimate_get_result (e);
  guint h100 = vc_test_gpu_index (e, "h100-80gb");
  double C = 81121 * 1048576.0;
  double checkpoint = 8030261248.0 * 2;
  VcKvCapacity kv, kv2;

  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_WEIGHTS], ==, checkpoint + 33554432.0);
  vc_engine_kv_capacity_on (in, r, sc, vc_estimate_get_gpu (e, h100), 1, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.9 * C - checkpoint - 33554432.0 -
                                            vc_estimator_vllm_profile_bytes (in, 8192, 1024, 1)) /
                                           (16 * 131072.0)) * 16);
  /* on 2 GPUs: half the checkpoint, the other half of its 65 replicated norms of 4,096 (two a
   * layer and the final one), and the whole table on each */
  vc_engine_kv_capacity_on (in, r, sc, vc_estimate_get_gpu (e, h100), 2, &kv2);
  g_assert_cmpfloat (kv2.weights_bytes, ==, checkpoint / 2 + 65 * 4096.0 + 33554432.0);
  g_assert_cmpfloat (kv2.tokens, ==, floor ((0.9 * C - checkpoint / 2 - 65 * 4096.0 - 33554432.0 -
                                             vc_estimator_vllm_profile_bytes (in, 8192, 1024, 2)) /
                                            (16 * 65536.0)) * 16);
}

/* --explain names the table under the weights */
static void
test_explain (void)
{
  const char *args[] = { "--preset", "llama-3.1-8b", "--engine", "vllm", "--explain", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "8.03B parameters counted from the architecture × 16 bits = 16.1\u00a0GB; plus the RoPE "
                                 "cos/sin tables vLLM builds on each GPU: 131072 positions × 128 rotary dimensions × "
                                 "2 bytes = 33.6\u00a0MB; in all 16.1\u00a0GB"));
}

/* Exact or refused: a table not followed leaves no KV figure, the reason named */
static void
test_refused (void)
{
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  JsonObject *longrope = run_json (p1, "--preset", "phi-3.5-mini-instruct", "sglang", "--fit-gpu", "h100-80gb");
  const char *mrope_args[] = { "--preset", "qwen3-vl-2b-instruct", "--engine", "vllm", "--kv-cache-memory", "20",
                               "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  JsonObject *mrope = vc_test_run_json (p2, mrope_args);
  JsonObject *followed = run_json (p3, "--preset", "phi-3.5-mini-instruct", "vllm", "--fit-gpu", "h100-80gb");
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("qwen3-vl-2b-instruct", "engine", "vllm", "kv-cache-memory", "20",
                                                  NULL);
  const char *text_args[] = { "--preset", "phi-3.5-mini-instruct", "--engine", "sglang", "--fit-gpu", "h100-80gb", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_true (json_object_get_null_member (longrope, "rope_table_bytes"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (longrope, "engine"), "no_figure"),
                   ==, "rope-table");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (mrope, "engine"), "no_figure"),
                   ==, "rope-table");
  /* vLLM's longrope table is followed: no refusal for it, a figure at the layout (its windowed
   * layers on one pipeline stage), and the cache on one H100 has a figure */
  g_assert_true (json_object_get_null_member (json_object_get_object_member (followed, "engine"), "no_figure"));
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (followed, "engine"), "kv_capacity_tokens"),
                   >, 0);
  g_assert_cmpint (json_object_get_int_member (followed, "rope_table_bytes"), ==, (4096 + 131072) * 96 * 2);
  {
    g_autoptr(VcEstimate) phi = vc_test_estimate_new ("phi-3.5-mini-instruct", "engine", "vllm", NULL);
    const VcResult *r = vc_estimate_get_result (phi);
    VcKvCapacity kv;

    vc_engine_kv_capacity_on (vc_estimate_get_inputs (phi), r, &r->scenarios[r->selected],
                              vc_estimate_get_gpu (phi, vc_test_gpu_index (phi, "h100-80gb")), 1, &kv);
    g_assert_true (kv.known);
    g_object_set (phi, "engine", VC_ENGINE_SGLANG, NULL);
    r = vc_estimate_get_result (phi);
    vc_engine_kv_capacity_on (vc_estimate_get_inputs (phi), r, &r->scenarios[r->selected],
                              vc_estimate_get_gpu (phi, vc_test_gpu_index (phi, "h100-80gb")), 1, &kv);
    g_assert_false (kv.known);
  }
  g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.rope_table_kind, ==, VC_ROPE_TABLE_MROPE);
  g_assert_cmpstr (vc_engine_rope_table_unsized (vc_estimate_get_inputs (e)), ==, "mrope");
  g_assert_cmpint (vc_test_run_vramcalc (text_args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "The model’s rotary positions are longrope: SGLang’s short and long cos/sin tables"));
}

/* vramcalc's JSON for a typed-in architecture (Llama 2 7B's shape, no preset) with @extra options */
static JsonObject *
typed_json (JsonParser         *parser,
            const char         *engine,
            const char * const *extra)
{
  const char *args[24] = { "--method", "architecture", "--layers", "32", "--engine", engine,
                           "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  guint n = 10;

  for (guint i = 0; extra != NULL && extra[i] != NULL; i++)
    args[n++] = extra[i];
  args[n] = NULL;
  return vc_test_run_json (parser, args);
}

static const char *
no_figure_of (JsonObject *root)
{
  JsonObject *engine = json_object_get_object_member (root, "engine");

  return json_object_get_null_member (engine, "no_figure") ? NULL : json_object_get_string_member (engine, "no_figure");
}

/* A typed-in architecture: the engines' table as a Llama-shaped model's (LlamaAttention's
 * get_rope: max_position_embeddings rows × head_dim), named in the warnings, or refused
 * without the context, the options to give named */
static void
test_typed_in (void)
{
  static const char *const context[] = { "--max-context", "4096", NULL };
  static const char *const shape[] = { "--rope-table-rows", "1000", "--rotary-dim", "64", NULL };
  static const char *const none[] = { "--rope-table-kind", "0", NULL };
  static const char *const mla[] = { "--kv-lora-rank", "512", "--qk-rope-head-dim", "64", "--qk-nope-head-dim", "128",
                                     "--v-head-dim", "128", "--max-context", "163840", NULL };
  static const char *const text_args[] = { "--method", "architecture", "--layers", "32", "--engine", "vllm",
                                           "--fit-gpu", "h100-80gb", NULL };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_autoptr(JsonParser) p3 = json_parser_new ();
  g_autoptr(JsonParser) p4 = json_parser_new ();
  g_autoptr(JsonParser) p5 = json_parser_new ();
  g_autoptr(JsonParser) p6 = json_parser_new ();
  JsonObject *refused = typed_json (p1, "vllm", NULL);
  JsonObject *vllm = typed_json (p2, "vllm", context);
  JsonObject *sglang = typed_json (p3, "sglang", context);
  JsonObject *given = typed_json (p4, "vllm", shape);
  JsonObject *no_table = typed_json (p5, "vllm", none);
  JsonObject *latent = typed_json (p6, "vllm", mla);
  JsonArray *warnings = json_object_get_array_member (vllm, "warnings");
  g_autofree char *out = NULL, *err = NULL;

  /* no context: no figure, no table counted, the options named */
  g_assert_cmpstr (no_figure_of (refused), ==, "rope-table");
  g_assert_true (json_object_get_null_member (refused, "rope_table_bytes"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (refused, "warnings")), ==, 0);
  g_assert_cmpint (vc_test_run_vramcalc (text_args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "The architecture is typed in without its context"));
  g_assert_nonnull (strstr (out, "Give --max-context"));
  /* --max-context 4096: 4,096 rows × the head dimension 128, 2 bytes under vLLM, 4 under SGLang */
  g_assert_null (no_figure_of (vllm));
  g_assert_cmpint (json_object_get_int_member (vllm, "rope_table_bytes"), ==, 4096 * 128 * 2);
  g_assert_cmpint (json_object_get_int_member (sglang, "rope_table_bytes"), ==, 4096 * 128 * 4);
  g_assert_false (json_object_get_null_member (json_object_get_object_member (vllm, "engine"), "kv_capacity_tokens"));
  g_assert_cmpuint (json_array_get_length (warnings), ==, 1);
  g_assert_cmpstr (json_array_get_string_element (warnings, 0), ==,
                   "The architecture is typed in: the RoPE cos/sin table the engine builds on each GPU is taken as "
                   "a Llama-shaped model’s, one plain table of 4096 positions × 128 rotary dimensions; give "
                   "--rope-table-rows and --rotary-dim if the model’s differs, or --rope-table-kind 0 if it has no "
                   "rotary positions (position_embedding_type “nope”, as Granite 4.0-H’s)");
  /* the rows and width given win */
  g_assert_cmpint (json_object_get_int_member (given, "rope_table_bytes"), ==, 1000 * 64 * 2);
  g_assert_null (no_figure_of (given));
  /* rope-table-kind 0 with no rows: no rotary table (ALiBi, NoPE), no warning */
  g_assert_cmpint (json_object_get_int_member (no_table, "rope_table_bytes"), ==, 0);
  g_assert_null (no_figure_of (no_table));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (no_table, "warnings")), ==, 0);
  /* latent attention: the rotary part of a head, qk_rope_head_dim */
  g_assert_cmpint (json_object_get_int_member (latent, "rope_table_bytes"), ==, 163840 * 64 * 2);

  /* the model object: a new architecture is typed in; learned positions have no table */
  {
    g_autoptr(VcEstimate) e = vc_estimate_new ();
    guint rows, dim;

    g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, NULL);
    g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.rope_table_kind, ==, VC_ROPE_TABLE_NOT_GIVEN);
    g_assert_false (vc_engine_rope_table_shape (vc_estimate_get_inputs (e), &rows, &dim));
    g_assert_cmpstr (vc_engine_rope_table_unsized (vc_estimate_get_inputs (e)), ==, "typed-in");
    g_object_set (e, "max-context", 8192, NULL);
    g_assert_true (vc_engine_rope_table_shape (vc_estimate_get_inputs (e), &rows, &dim));
    g_assert_cmpuint (rows, ==, 8192);
    g_assert_cmpuint (dim, ==, 128);
    g_assert_cmpfloat (vc_estimate_get_selected (e)->rope_table, ==, 8192 * 128 * 2.0);
    g_object_set (e, "learned-positions", 1024, NULL);
    g_assert_cmpfloat (vc_estimate_get_selected (e)->rope_table, ==, 0);
    g_assert_null (vc_engine_rope_table_unsized (vc_estimate_get_inputs (e)));
  }
}

/* Configs without max_position_embeddings where the engines' config class has a default:
 * FalconConfig's 2,048 (vLLM's falcon.py; SGLang's passes 2,048), GemmaConfig's 8,192 (both
 * engines' gemma.py); Kimi K2's (remote code) and Devstral's (params.json) are not followed */
static void
test_class_defaults (void)
{
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();

  /* falcon-7b: head dimension 4,544 / 71 = 64 */
  g_assert_cmpint (rope_bytes ("--preset", "falcon-7b", "vllm"), ==, 2048 * 64 * 2);
  g_assert_cmpint (rope_bytes ("--preset", "falcon-7b", "sglang"), ==, 2048 * 64 * 4);
  g_assert_cmpint (rope_bytes ("--config", "falcon-7b", "vllm"), ==, 262144);
  /* Gemma 7B IT, 2B IT, CodeGemma 7B IT: head dimension 256 */
  g_assert_cmpint (rope_bytes ("--preset", "gemma-7b-it", "vllm"), ==, 8192 * 256 * 2);
  g_assert_cmpint (rope_bytes ("--preset", "gemma-7b-it", "sglang"), ==, 8192 * 256 * 4);
  g_assert_cmpint (rope_bytes ("--preset", "gemma-2b-it", "vllm"), ==, 8192 * 256 * 2);
  g_assert_cmpint (rope_bytes ("--preset", "codegemma-7b-it", "vllm"), ==, 8192 * 256 * 2);
  /* the same as gemma-7b, whose config gives its 8,192 */
  g_assert_cmpint (rope_bytes ("--preset", "gemma-7b", "vllm"), ==, rope_bytes ("--preset", "gemma-7b-it", "vllm"));
  g_assert_null (no_figure_of (run_json (p1, "--preset", "falcon-7b", "vllm", "--fit-gpu", "h100-80gb")));
  g_assert_cmpstr (no_figure_of (run_json (p2, "--preset", "kimi-k2-base", "vllm", "--fit-gpu", "h200")),
                   ==, "rope-table");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rope-table/exact-bytes", test_exact_bytes);
  g_test_add_func ("/rope-table/arch-fields", test_arch_fields);
  g_test_add_func ("/rope-table/per-rank", test_per_rank);
  g_test_add_func ("/rope-table/kv-capacity", test_kv_capacity);
  g_test_add_func ("/rope-table/explain", test_explain);
  g_test_add_func ("/rope-table/refused", test_refused);
  g_test_add_func ("/rope-table/typed-in", test_typed_in);
  g_test_add_func ("/rope-table/class-defaults", test_class_defaults);
  return g_test_run ();
}
