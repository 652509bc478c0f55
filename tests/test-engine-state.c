/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vLLM's hybrid KV-cache spec for models with linear-attention or state-space layers
 * (vc-engine-state.c; FORMULAS.md, "Engines"), on hand-worked figures for each family the
 * reader knows: Qwen3-Next's Gated DeltaNet, Granite 4.0-H's Mamba-2 beside a few attention
 * layers, Falcon-H1's Mamba-2 beside attention in every layer. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "vc-engine.h"
#include "vc-engine-comm.h"
#include "vc-engine-mm.h"
#include "vc-engine-state.h"
#include "vc-estimate.h"
#include "vc-hf-config.h"
#include "vc-test-util.h"

static VcEstimate *
hybrid (const char *preset,
        guint       seq)
{
  VcEstimate *e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_estimate_set_preset (e, preset, &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "seq", seq, NULL);
  return e;
}

static void
spec_of (VcEstimate      *e,
         VcVllmStateSpec *spec)
{
  g_assert_true (vc_engine_state_vllm_spec (vc_estimate_get_inputs (e), 1,
                                            vc_estimate_get_result (e)->kv_bytes_per_token, spec));
}

static void
at_layout (VcEstimate       *e,
           VcEngineAtLayout *at)
{
  guint h100 = vc_test_gpu_index (e, "h100-80gb");

  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e),
                       vc_estimate_get_gpu (e, h100), 1, at);
}

/* Qwen3-Next-80B-A3B: 36 Gated DeltaNet layers, 12 attention layers of 2 KV heads of 256.
 * A DeltaNet layer keeps its convolution's last 3 inputs over 2 × 16 × 128 + 32 × 128 = 8,192
 * channels and 32 heads × 128 × 128 of state: 548,864 values, 1,097,728 bytes in bf16. An
 * attention layer's token is 2 × 2 × 256 × 2 = 2,048 bytes, so the block is 16 × cdiv(1,097,728,
 * 32,768) = 544 tokens (vLLM's "Setting attention block size to 544 tokens"), a page of
 * 1,114,112 bytes; groups of 12 layers: 1 of attention, 3 of state. */
static void
test_qwen3_next (void)
{
  g_autoptr(VcEstimate) e = hybrid ("qwen3-next-80b-a3b-instruct", 8192);
  VcVllmStateSpec spec;
  VcEngineAtLayout at;
  double tokens, concurrency;

  g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.recurrent_state, ==, 548864);
  g_assert_cmpfloat (vc_estimate_get_result (e)->kv_bytes_per_token, ==, 12 * 2048.0);
  spec_of (e, &spec);
  g_assert_cmpfloat (spec.state_page_bytes, ==, 1097728);
  g_assert_cmpfloat (spec.attention_token_bytes, ==, 2048);
  g_assert_cmpuint (spec.block_size, ==, 544);
  g_assert_cmpfloat (spec.page_bytes, ==, 1114112);
  g_assert_cmpfloat (spec.group_size, ==, 12);
  g_assert_cmpfloat (spec.attention_groups, ==, 1);
  g_assert_cmpfloat (spec.state_groups, ==, 3);

  /* 20 GB of cache: 20e9 // 1,114,112 = 17,951 pages, // 12 = 1,495 blocks; 1,495 // 4 groups ×
   * 544 = 202,912 tokens; a request of 8,192 tokens takes 16 attention blocks and 3 state
   * blocks: 1,495 / 19 at once */
  vc_engine_state_vllm_capacity (vc_estimate_get_inputs (e), &spec, 20e9, &tokens, &concurrency);
  g_assert_cmpfloat (tokens, ==, 202912);
  g_assert_cmpfloat (concurrency, ==, 1495.0 / 19);
  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  at_layout (e, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.tokens, ==, 202912);
  g_assert_cmpfloat (at.max_concurrency, ==, 1495.0 / 19);
  g_assert_cmpuint (at.block_size, ==, 544);
  g_assert_cmpfloat (at.state_page_bytes, ==, 1114112);
  g_assert_null (vc_engine_no_figure (vc_estimate_get_inputs (e)));

  /* an fp8 KV cache halves an attention token, not the state (the model's dtype): 16 ×
   * cdiv(1,097,728, 16,384) = 1,072 tokens, whose page is the state's exactly */
  g_object_set (e, "kv-precision", VC_PRECISION_FP8, NULL);
  spec_of (e, &spec);
  g_assert_cmpfloat (spec.state_page_bytes, ==, 1097728);
  g_assert_cmpuint (spec.block_size, ==, 1072);
  g_assert_cmpfloat (spec.page_bytes, ==, 1097728);
}

/* Granite 4.0-H Tiny: 36 Mamba-2 layers (48 heads of 64, state 128, one group, kernel 4) and 4
 * attention layers of 4 KV heads of 128. A Mamba layer keeps 3 × (3,072 + 2 × 128) = 9,984
 * convolution values and 48 × 64 × 128 = 393,216 state values: 806,400 bytes; an attention token
 * 2,048 bytes: a block of 16 × cdiv(806,400, 32,768) = 400 tokens, a page of 819,200 bytes (the
 * state padded by 1.59 %); groups of 4 layers, 1 of attention and 9 of state. */
static void
test_granite_4_h (void)
{
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  VcVllmStateSpec spec;
  double tokens, concurrency;

  g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.recurrent_state, ==, 403200);
  spec_of (e, &spec);
  g_assert_cmpfloat (spec.state_page_bytes, ==, 806400);
  g_assert_cmpuint (spec.block_size, ==, 400);
  g_assert_cmpfloat (spec.page_bytes, ==, 819200);
  g_assert_cmpfloat (spec.group_size, ==, 4);
  g_assert_cmpfloat (spec.attention_groups, ==, 1);
  g_assert_cmpfloat (spec.state_groups, ==, 9);
  /* 20e9 // 819,200 = 24,414 pages, // 4 = 6,103 blocks; 6,103 // 10 × 400 = 244,000 tokens;
   * a request: 21 attention blocks and 9 state blocks */
  vc_engine_state_vllm_capacity (vc_estimate_get_inputs (e), &spec, 20e9, &tokens, &concurrency);
  g_assert_cmpfloat (tokens, ==, 244000);
  g_assert_cmpfloat (concurrency, ==, 6103.0 / 30);

  /* a context shorter than the block: the state groups' block is max_model_len, the smaller */
  g_object_set (e, "seq", 256, NULL);
  spec_of (e, &spec);
  vc_engine_state_vllm_capacity (vc_estimate_get_inputs (e), &spec, 20e9, &tokens, &concurrency);
  g_assert_cmpfloat (tokens, ==, 610 * 256);
  g_assert_cmpfloat (concurrency, ==, 6103.0 / 10);

  /* a block given larger than needed is kept; fp32 weights keep the state in fp32 */
  g_object_set (e, "seq", 8192, "block-size", 1024, NULL);
  spec_of (e, &spec);
  g_assert_cmpuint (spec.block_size, ==, 1024);
  g_assert_cmpfloat (spec.page_bytes, ==, 1024 * 2048.0);
  g_object_set (e, "block-size", 16, "precision", VC_PRECISION_FP32, "kv-precision", VC_PRECISION_FP16, NULL);
  spec_of (e, &spec);
  g_assert_cmpfloat (spec.state_page_bytes, ==, 1612800);
  g_assert_cmpuint (spec.block_size, ==, 16 * 50);
}

/* Falcon-H1-Tiny-90M, read from its config.json by vramcalc: 24 layers, each with attention
 * (2 KV heads of 64: 512 bytes a token) and a Mamba-2 mixer (24 heads of 32, state 64, one
 * group, width 768, kernel 4): 3 × 896 + 49,152 = 51,840 values, 103,680 bytes; the block is
 * 16 × cdiv(103,680, 8,192) = 208 tokens, a page of 106,496 bytes, one group of each kind of 24
 * layers. 1 GB: 1e9 // 106,496 = 9,390 pages, // 24 = 391 blocks, 195 × 208 = 40,560 tokens;
 * a request of 4,096 tokens takes 20 + 1 blocks. */
static void
test_falcon_h1 (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                              "Falcon-H1-Tiny-90M-Instruct", "config.json", NULL);
  const char *args[] = { "--config", config, "--engine", "vllm", "--seq", "4096", "--kv-cache-memory", "1",
                         "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");

  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 40560);
  g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, 391.0 / 21);
  g_assert_cmpint (json_object_get_int_member (engine, "state_block_size"), ==, 208);
  g_assert_cmpint (json_object_get_int_member (engine, "state_page_bytes"), ==, 106496);
  g_assert_true (json_object_get_null_member (engine, "no_figure"));
}

/* Falcon-H1-Tiny-90M over two pipeline stages at vLLM 0.17 (FORMULAS.md, "Sliding-window layers
 * over pipeline stages" and the vLLM list above): every layer holds attention and a mixer, so
 * each stage of 12 layers holds 12 of each kind, one of the model's two groups of 24 each;
 * each worker's num_blocks = available // page // 12: 1 GB, 9,390 pages // 12 = 782 blocks,
 * 391 × 208 = 81,328 tokens, a request 20 + 1 blocks (one stage: 391 blocks, 40,560 tokens); at
 * TP 2 × PP 2, pages of 53,248: 18,780 // 12 = 1,565 blocks, 782 × 208 = 162,656 tokens. vLLM
 * 0.11 (spanning pull request #23974) and a model whose mixers sit in some layers only
 * (Granite 4.0-H) keep no figure. */
static void
test_falcon_h1_stages (void)
{
  const char *tps[] = { "1", "2" };
  const gint64 tokens[] = { 81328, 162656 };
  const double at_once[] = { 782.0 / 21, 1565.0 / 21 };
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                              "Falcon-H1-Tiny-90M-Instruct", "config.json", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (tps); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonParser) before = json_parser_new ();
      const char *args[] = { "--config", config, "--engine", "vllm", "--engine-version", "0.17", "--seq", "4096",
                             "--kv-cache-memory", "1", "--tp", tps[i], "--pp", "2", "--fit-gpu", "h100-80gb",
                             "--format", "json", NULL };
      const char *args_011[] = { "--config", config, "--engine", "vllm", "--engine-version", "0.11", "--seq", "4096",
                                 "--kv-cache-memory", "1", "--tp", tps[i], "--pp", "2", "--fit-gpu", "h100-80gb",
                                 "--format", "json", NULL };
      JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");
      JsonObject *engine_011 = json_object_get_object_member (vc_test_run_json (before, args_011), "engine");

      g_assert_true (json_object_get_null_member (engine, "no_figure"));
      g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, tokens[i]);
      g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, at_once[i]);
      g_assert_cmpint (json_object_get_int_member (engine, "state_block_size"), ==, 208);
      g_assert_cmpstr (json_object_get_string_member (engine_011, "no_figure"), ==, "state-pools");
      g_assert_true (json_object_get_null_member (engine_011, "kv_capacity_tokens"));
    }
  /* TP 8 repeats the one Mamba-2 group on every rank (2,779,392 bytes over the 24 layers, test
   * above): each stage its 12 layers' half */
  {
    g_autoptr(VcEstimate) e = vc_estimate_new ();
    g_autoptr(GError) error = NULL;
    const VcGpu *h100 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb"));
    const VcLayoutResult *lr;
    double weights;

    g_assert_true (vc_estimate_set_preset (e, "falcon-h1-tiny-90m-instruct", &error));
    g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "engine-version",
                  VC_VLLM_VERSION_0_17, "tp", 8, "pp", 2, NULL);
    g_assert_cmpfloat (vc_engine_state_repeated_bytes (vc_estimate_get_inputs (e), 8), ==, 2779392.0);
    lr = vc_estimate_get_layout_result (e);
    g_assert_true (vc_engine_rank_weights (vc_estimate_get_inputs (e), lr, h100, &weights));
    g_assert_cmpfloat (weights, ==, lr->bytes[VC_COMPONENT_WEIGHTS] + 2779392.0 / 2);
  }
}

/* Mixers in some layers only, at the places the attention-layer pattern gives, over two stages
 * of vLLM 0.17 on H100s, --seq 8192 (kv_cache_utils.py at 001cabc: the whole model's groups,
 * each stage's layers of a kind spread over them, the fewest blocks of any worker):
 *  - Granite 4.0-H Tiny (attention at 5, 15, 25, 35; a page of 819,200 bytes): groups of 4, 1
 *    of attention and 9 of Mamba; 20 GB is 24,414 pages. One stage: // 4 = 6,103 blocks, 610 ×
 *    400 = 244,000 tokens. Two stages of 2 attention and 18 Mamba layers: at most 2 in a group,
 *    12,207 blocks, 1,220 × 400 = 488,000 tokens, 12,207 / (21 + 9) requests.
 *  - Qwen3-Next-80B-A3B (attention at 3, 7, … 47; a page of 1,114,112 bytes, 557,056 at TP 2):
 *    groups of 12, 1 of attention and 3 of Gated DeltaNet; 20 GB is 17,951 pages. Two stages
 *    of 6 and 18: 6 in a group, 2,991 blocks, 747 × 544 = 406,368 tokens, 2,991 / (16 + 3)
 *    requests; at TP 2 35,902 pages, 5,983 blocks, 813,280 tokens.
 * Without --kv-cache-memory each stage its own weights and profile run. The pattern unknown,
 * or release 0.11 (which spans the pull request): no figure. */
static void
test_mixer_stages (void)
{
  static const struct
  {
    const char *preset, *tp, *kv;
    gint64 tokens, block;
    double at_once;
  } cases[] = {
    { "granite-4.0-h-tiny", "1", "20", 488000, 400, 12207.0 / 30 },
    { "granite-4.0-h-tiny", "1", NULL, 1648000, 400, 41201.0 / 30 },
    { "granite-4.0-h-tiny", "2", NULL, 3468800, 400, 86720.0 / 30 },
    { "qwen3-next-80b-a3b-instruct", "1", "20", 406368, 544, 2991.0 / 19 },
    { "qwen3-next-80b-a3b-instruct", "2", "20", 813280, 544, 5983.0 / 19 },
    { "qwen3-next-80b-a3b-instruct", "2", NULL, 1364896, 544, 10039.0 / 19 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *args[] = { "--preset", cases[i].preset, "--engine", "vllm", "--engine-version", "0.17",
                             "--seq", "8192", "--tp", cases[i].tp, "--pp", "2", "--fit-gpu", "h100-80gb",
                             "--format", "json", cases[i].kv ? "--kv-cache-memory" : NULL, cases[i].kv, NULL };
      JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");

      g_assert_true (json_object_get_null_member (engine, "no_figure"));
      g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, cases[i].tokens);
      g_assert_cmpfloat_with_epsilon (json_object_get_double_member (engine, "max_concurrency"), cases[i].at_once,
                                      1e-9);
      g_assert_cmpint (json_object_get_int_member (engine, "state_block_size"), ==, cases[i].block);
    }
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autoptr(GError) error = NULL;

      g_assert_true (vc_estimate_set_preset (e, "granite-4.0-h-tiny", &error));
      g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "engine-version",
                    i == 2 ? VC_VLLM_VERSION_0_11 : VC_VLLM_VERSION_0_17, "pp", 2, NULL);
      /* no pattern, or one that does not give the 36 Mamba layers */
      if (i < 2)
        g_object_set (e, "attention-layer-period", i == 0 ? 0 : 4, NULL);
      g_assert_cmpstr (vc_engine_no_figure (vc_estimate_get_inputs (e)), ==, "state-pools");
    }
}

/* Falcon-H1-Tiny-90M under TP, its one Mamba-2 group repeated on every rank (8 attention heads,
 * 24 Mamba heads: TP 2, 4 and 8 divide both), one KV head of 64 a rank (256 bytes a token):
 *  - TP 2: conv_dim 768 + 2 × 2 × 64 = 1,024, 512 × 3 + 12 × 32 × 64 = 26,112 values, 52,224
 *    bytes; a block of 16 × cdiv(52,224, 4,096) = 208 tokens, a page of 53,248 bytes; 1 GB:
 *    18,780 pages, // 24 = 782 blocks, 391 × 208 = 81,328 tokens, a request 20 + 1 blocks.
 *  - TP 8: conv_dim 768 + 2 × 8 × 64 = 1,792, 224 × 3 + 3 × 32 × 64 = 6,816 values, 13,632
 *    bytes; 16 × cdiv(13,632, 4,096) = 64 tokens, a page of 16,384; 1 GB: 61,035 pages, 2,543
 *    blocks, 1,271 × 64 = 81,344 tokens, a request 64 + 1 blocks.
 * A group is 2 × 64 × (512 + 4 + the convolution's bias) = 66,176 parameters: at TP 8 each rank
 * holds 24 × 7 × 66,176 / 8 × 2 = 2,779,392 bytes more than an even split. */
static void
test_falcon_h1_tensor_parallel (void)
{
  const char *tps[] = { "2", "8" };
  const gint64 tokens[] = { 81328, 81344 }, block[] = { 208, 64 }, page[] = { 53248, 16384 };
  const double at_once[] = { 782.0 / 21, 2543.0 / 65 };
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                              "Falcon-H1-Tiny-90M-Instruct", "config.json", NULL);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(VcHfConfig) hf = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (tps); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *args[] = { "--config", config, "--engine", "vllm", "--seq", "4096", "--kv-cache-memory", "1",
                             "--tp", tps[i], "--fit-gpu", "h100-80gb", "--format", "json", NULL };
      JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");

      g_assert_true (json_object_get_null_member (engine, "no_figure"));
      g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, tokens[i]);
      g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, at_once[i]);
      g_assert_cmpint (json_object_get_int_member (engine, "state_block_size"), ==, block[i]);
      g_assert_cmpint (json_object_get_int_member (engine, "state_page_bytes"), ==, page[i]);
    }
  hf = vc_hf_config_new_for_path (config, &error);
  g_assert_no_error (error);
  vc_hf_config_apply (hf, e);
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, NULL);
  g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.mamba_group_params, ==, 66176);
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (vc_estimate_get_inputs (e), 8), ==, 2779392);
}

/* The text report: the capacity, then the block and its page; at TP 2 in fp8 the reason for no
 * figure (Granite 4.0-H's one Mamba-2 group, which vLLM repeats on both ranks in unquantized
 * weights only) */
static void
test_text (void)
{
  const char *one[] = { "--preset", "granite-4.0-h-tiny", "--engine", "vllm", "--seq", "8192",
                        "--kv-cache-memory", "20", "--fit-gpu", "h100-80gb", NULL };
  const char *tp2[] = { "--preset", "granite-4.0-h-tiny", "--engine", "vllm", "--seq", "8192", "--tp", "2",
                        "--precision", "fp8", "--fit-gpu", "h100-80gb", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

  g_assert_cmpint (vc_test_run_vramcalc (one, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, ": 244000 tokens, 203.4 requests of 8192 tokens at once\n"
                                 "  Attention block of 400 tokens, so that a page (819\u00a0kB) holds one layer’s "
                                 "state of a request\n"));
  g_assert_cmpint (vc_test_run_vramcalc (tp2, NULL, &out2, &err2), ==, 0);
  g_assert_nonnull (strstr (out2, "TP 2: no KV-cache figure for this model here\n"
                                  "  vLLM’s Mamba groups are followed for releases 0.10 to 0.20 on one pipeline "
                                  "stage (PP 1) without a sliding window, under TP where it divides the mixer’s "
                                  "heads and groups, or where it divides the heads of a Mamba-2 mixer of one group "
                                  "of known state size in unquantized weights"));
}

/* SGLang's Mamba pool (vc-engine-state.c; ModelRunnerKVCacheMixin at sgl-project/sglang commit
 * 001ccef): mamba_cache_per_req is each Mamba layer's convolution state in bfloat16 and its
 * recurrent state in float32; handle_max_mamba_cache gives the pool rest × 0.9 / 1.9 in whole
 * requests, the full-attention layers' cells what it leaves; the running requests at most
 * max_mamba_cache_size // 3.
 * Qwen3-Next-80B-A3B, 20 GB of rest: a DeltaNet layer keeps 3 × 8,192 = 24,576 convolution
 * values (49,152 bytes) and 32 × 128 × 128 = 524,288 state values (2,097,152 bytes): 2,146,304
 * bytes, × 36 layers = 77,266,944 bytes a request; 20e9 × 0.9 / 1.9 = 9,473,684,210.5 bytes hold
 * 122 requests (9,426,567,168 bytes); the 10,573,432,832 left hold 430,234 tokens of 12 × 2,048
 * bytes; 122 // 3 = 40 requests at once (52.5 of 8,192 tokens fit the cells).
 * At TP 2 each rank keeps half of each state (38,633,472 bytes) and 1 KV head (12,288 bytes a
 * token): 245 requests, 857,324 tokens, 81 at once. */
static void
test_sglang_qwen3_next (void)
{
  g_autoptr(VcEstimate) e = hybrid ("qwen3-next-80b-a3b-instruct", 8192);
  VcSglangStatePool pool;

  g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);
  g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.recurrent_conv, ==, 24576);
  g_assert_true (vc_engine_state_sglang_followed (vc_estimate_get_inputs (e), 1, 1));
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 12 * 2048.0, 20e9, &pool));
  g_assert_cmpfloat (pool.per_request_bytes, ==, 77266944);
  g_assert_cmpfloat (pool.state_requests, ==, 122);
  g_assert_cmpfloat (pool.state_bytes, ==, 122 * 77266944.0);
  g_assert_cmpfloat (pool.tokens, ==, 430234);
  g_assert_cmpfloat (pool.max_running_requests, ==, 40);
  g_assert_cmpfloat (pool.max_concurrency, ==, 40);
  /* the two pools fill the rest, less a request's state and a token's cells */
  g_assert_cmpfloat (pool.state_bytes + pool.tokens * 12 * 2048.0, <=, 20e9);
  g_assert_cmpfloat (pool.state_bytes + pool.tokens * 12 * 2048.0 + 12 * 2048.0 + pool.per_request_bytes, >, 20e9);

  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 2, 12 * 1024.0, 20e9, &pool));
  g_assert_cmpfloat (pool.per_request_bytes, ==, 38633472);
  g_assert_cmpfloat (pool.state_requests, ==, 245);
  g_assert_cmpfloat (pool.tokens, ==, 857324);
  g_assert_cmpfloat (pool.max_concurrency, ==, 81);

  /* nothing left: no pool, no cells */
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 12 * 2048.0, -1e9, &pool));
  g_assert_cmpfloat (pool.state_requests, ==, 0);
  g_assert_cmpfloat (pool.tokens, ==, 0);
  g_assert_cmpfloat (pool.max_concurrency, ==, 0);
}

/* Granite 4.0-H Tiny, 20 GB of rest: a Mamba-2 layer keeps 9,984 convolution values (19,968
 * bytes) and 393,216 state values (1,572,864 bytes), × 36 layers = 57,341,952 bytes a request:
 * 165 requests (9,461,422,080 bytes); the 10,538,577,920 left hold 1,286,447 tokens of 4 × 2,048
 * bytes, 1,286,400 in pages of 64; 165 // 3 = 55 requests at once. The engine at its layout
 * takes the rest SGLang's share leaves: the same arithmetic from the JSON's available bytes. */
static void
test_sglang_granite_4_h (void)
{
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  VcSglangStatePool pool, again;
  VcEngineAtLayout at;

  g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 8192, 20e9, &pool));
  g_assert_cmpfloat (pool.per_request_bytes, ==, 57341952);
  g_assert_cmpfloat (pool.state_requests, ==, 165);
  g_assert_cmpfloat (pool.tokens, ==, 1286447);
  g_assert_cmpfloat (pool.max_concurrency, ==, 55);
  g_object_set (e, "page-size", 64, NULL);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 8192, 20e9, &pool));
  g_assert_cmpfloat (pool.tokens, ==, 1286400);

  g_object_set (e, "page-size", 1, "mem-fraction-static", 0.8, NULL);
  at_layout (e, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.available_kv_bytes, >, 0);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 8192, at.available_kv_bytes, &again));
  g_assert_cmpfloat (at.tokens, ==, again.tokens);
  g_assert_cmpfloat (at.max_concurrency, ==, again.max_concurrency);
  g_assert_cmpfloat (at.state_requests, ==, again.state_requests);
  g_assert_cmpfloat (at.state_request_bytes, ==, 57341952);
  g_assert_cmpuint (at.block_size, ==, 0);
  g_assert_null (vc_engine_no_figure (vc_estimate_get_inputs (e)));
}

/* Falcon-H1-Tiny-90M read from its config.json, 1 GB of rest: 24 layers of attention (512 bytes a
 * token) and Mamba-2 (2,688 convolution values, 49,152 state values: 201,984 bytes): 4,847,616
 * bytes a request; 1e9 × 0.9 / 1.9 = 473,684,210.5 bytes hold 97 requests, the 529,781,248 left
 * 43,113 tokens of 12,288 bytes; 97 // 3 = 32 requests of 4,096 tokens could run, 10.5 fit the
 * cells. From the CLI, the JSON's figures follow the same arithmetic from its available bytes. */
static void
test_sglang_falcon_h1 (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                              "Falcon-H1-Tiny-90M-Instruct", "config.json", NULL);
  const char *args[] = { "--config", config, "--engine", "sglang", "--no-sglang-one-stage", "--seq", "4096", "--mem-fraction", "0.8",
                         "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");
  VcSglangStatePool pool;
  g_autoptr(VcHfConfig) hf = vc_hf_config_new_for_path (config, &error);

  g_assert_no_error (error);
  vc_hf_config_apply (hf, e);
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "seq", 4096, NULL);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 12288, 1e9, &pool));
  g_assert_cmpfloat (pool.per_request_bytes, ==, 4847616);
  g_assert_cmpfloat (pool.state_requests, ==, 97);
  g_assert_cmpfloat (pool.tokens, ==, 43113);
  g_assert_cmpfloat (pool.max_running_requests, ==, 32);
  g_assert_cmpfloat (pool.max_concurrency, ==, 43113.0 / 4096);

  g_assert_cmpstr (json_object_get_string_member (engine, "version"), ==, "001ccef");
  g_assert_true (json_object_get_null_member (engine, "no_figure"));
  g_assert_cmpint (json_object_get_int_member (engine, "state_request_bytes"), ==, 4847616);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 12288,
                                              json_object_get_double_member (engine, "available_kv_bytes"), &pool));
  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, (gint64) pool.tokens);
  g_assert_cmpint (json_object_get_int_member (engine, "state_pool_requests"), ==, (gint64) pool.state_requests);
  g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, pool.max_concurrency);
}

/* SGLang's Mamba pool at commit 003fca8 (KVCacheConfigurator, kv_cache_configurator.py,
 * _handle_max_mamba_cache and resolve_max_num_reqs): max_mamba_cache_size = (budget − per_req)
 * // per_req, one padding slot more charged before the cells, the running requests at most
 * max_mamba_cache_size // 5 (the extra buffer with the overlap schedule) and token_capacity // 2.
 * Qwen3-Next-80B-A3B, 20 GB of rest: (9,473,684,210.5 − 77,266,944) // 77,266,944 = 121 slots,
 * the pool 122 × 77,266,944 = 9,426,567,168 bytes (what 001ccef keeps for 122 requests), the
 * same 430,234 tokens, 121 // 5 = 24 requests at once (40 at 001ccef). At TP 2: 244 slots,
 * 857,324 tokens, 48 at once. Granite 4.0-H Tiny: 164 slots, 1,286,447 tokens, 32 at once.
 * Falcon-H1-Tiny-90M, 1 GB: 96 slots, 43,113 tokens, 19 could run, 10.5 fit the cells. A
 * budget under two requests' state keeps no slot: SGLang refuses to start. */
static void
test_sglang_003fca8 (void)
{
  g_autoptr(VcEstimate) e = hybrid ("qwen3-next-80b-a3b-instruct", 8192);
  g_autoptr(VcEstimate) g = hybrid ("granite-4.0-h-tiny", 8192);
  g_autoptr(VcEstimate) f = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                              "Falcon-H1-Tiny-90M-Instruct", "config.json", NULL);
  g_autoptr(VcHfConfig) hf = vc_hf_config_new_for_path (config, &error);
  const VcInputs *in = vc_estimate_get_inputs (e);
  VcSglangStatePool pool, before;

  g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  g_assert_true (vc_engine_state_sglang_followed (in, 1, 1));
  g_assert_true (vc_engine_state_sglang_pool (in, 1, 12 * 2048.0, 20e9, &pool));
  g_assert_cmpfloat (pool.per_request_bytes, ==, 77266944);
  g_assert_cmpfloat (pool.state_requests, ==, 121);
  g_assert_cmpfloat (pool.state_bytes, ==, 122 * 77266944.0);
  g_assert_cmpfloat (pool.tokens, ==, 430234);
  g_assert_cmpfloat (pool.max_running_requests, ==, 24);
  g_assert_cmpfloat (pool.max_concurrency, ==, 24);
  /* the same bytes as 001ccef's pool, one slot of it padding, and a tighter request cap */
  g_object_set (e, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
  g_assert_true (vc_engine_state_sglang_pool (in, 1, 12 * 2048.0, 20e9, &before));
  g_assert_cmpfloat (before.state_bytes, ==, pool.state_bytes);
  g_assert_cmpfloat (before.tokens, ==, pool.tokens);
  g_assert_cmpfloat (before.max_concurrency, ==, 40);
  g_object_set (e, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);

  g_assert_true (vc_engine_state_sglang_pool (in, 2, 12 * 1024.0, 20e9, &pool));
  g_assert_cmpfloat (pool.state_requests, ==, 244);
  g_assert_cmpfloat (pool.tokens, ==, 857324);
  g_assert_cmpfloat (pool.max_concurrency, ==, 48);

  /* too little for a slot beside the padding one: no pool, no cells */
  g_assert_true (vc_engine_state_sglang_pool (in, 1, 12 * 2048.0, 77266944.0 * 1.9 / 0.9 * 1.5, &pool));
  g_assert_cmpfloat (pool.state_requests, ==, 0);
  g_assert_cmpfloat (pool.tokens, ==, 0);
  g_assert_cmpfloat (pool.max_concurrency, ==, 0);

  g_object_set (g, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (g), 1, 8192, 20e9, &pool));
  g_assert_cmpfloat (pool.per_request_bytes, ==, 57341952);
  g_assert_cmpfloat (pool.state_requests, ==, 164);
  g_assert_cmpfloat (pool.tokens, ==, 1286447);
  g_assert_cmpfloat (pool.max_concurrency, ==, 32);

  g_assert_no_error (error);
  vc_hf_config_apply (hf, f);
  g_object_set (f, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "seq", 4096,
                "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (f), 1, 12288, 1e9, &pool));
  g_assert_cmpfloat (pool.state_requests, ==, 96);
  g_assert_cmpfloat (pool.tokens, ==, 43113);
  g_assert_cmpfloat (pool.max_running_requests, ==, 19);
  g_assert_cmpfloat (pool.max_concurrency, ==, 43113.0 / 4096);
}

/* The CLI at 003fca8: Granite 4.0-H Tiny on an H100 gets a figure, its JSON the pool's
 * arithmetic from its own available bytes, the text its pool line */
static void
test_sglang_003fca8_cli (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *args[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--seq", "8192",
                         "--sglang-version", "003fca8", "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");
  VcSglangStatePool pool;

  g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  g_assert_cmpstr (json_object_get_string_member (engine, "version"), ==, "003fca8");
  g_assert_true (json_object_get_null_member (engine, "no_figure"));
  g_assert_cmpint (json_object_get_int_member (engine, "state_request_bytes"), ==, 57341952);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 8192,
                                              json_object_get_double_member (engine, "available_kv_bytes"), &pool));
  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, (gint64) pool.tokens);
  g_assert_cmpint (json_object_get_int_member (engine, "state_pool_requests"), ==, (gint64) pool.state_requests);
  g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, pool.max_concurrency);
  g_assert_cmpint (json_object_get_int_member (engine, "state_pool_requests"), ==, 464);
  g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, 92);
}

/* Where SGLang's Mamba pool is not followed: two pipeline stages at 001ccef (each stage caps its
 * running requests from its own token count there, and the scheduler's reconciling was not
 * read), at 003fca8 stages that PP splits unevenly (SGLang's get_pp_indices gives the leftover
 * layers to the last stages, the layout here to those before) or whose mixers' places are not
 * known; TP that does not divide Granite 4.0-H's one group (extra_groups_for_head_shards), a
 * state whose convolution share the reader did not give (the architecture set by hand), at
 * either source; each with the reason, and the CLI refuses --sglang-version with another
 * engine */
/* SGLang's classes for Qwen3-Next, Falcon-H1 and the Granite 4.0 hybrids run on one pipeline
 * stage (sglang-one-stage, FORMULAS.md): the readers set the field for those models alone,
 * --pp 2 is refused under SGLang (not under vLLM), and the GPU table keeps them on one stage
 * under SGLang; without the field, pipeline stages come back where one stage cannot hold the
 * model */
static void
test_sglang_one_stage (void)
{
  static const struct { const char *preset; gboolean one_stage; } presets[] = {
    { "qwen3-next-80b-a3b-instruct", TRUE }, { "granite-4.0-h-tiny", TRUE }, { "falcon-h1-0.5b-instruct", TRUE },
    { "falcon-h1-tiny-90m-instruct", TRUE }, { "qwen3-8b", FALSE }, { "gemma-3-27b-it", TRUE },
  };
  const char *sglang[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--pp", "2", NULL };
  const char *vllm[] = { "--preset", "granite-4.0-h-tiny", "--engine", "vllm", "--engine-version", "0.14", "--pp", "2",
                         NULL };
  const char *table[] = { "--preset", "qwen3-next-80b-a3b-instruct", "--engine", "sglang", "--format", "json", NULL };
  const char *without[] = { "--preset", "qwen3-next-80b-a3b-instruct", "--engine", "sglang", "--no-sglang-one-stage",
                            "--format", "json", NULL };
  const char *const *runs[] = { table, without };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      g_autoptr(VcEstimate) e = hybrid (presets[i].preset, 8192);

      g_assert_cmpint (vc_estimate_get_inputs (e)->arch.sglang_one_stage, ==, presets[i].one_stage);
    }
  g_assert_cmpint (vc_test_run_vramcalc (sglang, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "SGLang runs this model on one pipeline stage"));
  g_assert_nonnull (strstr (err, "set PP to 1"));
  g_assert_cmpint (vc_test_run_vramcalc (vllm, NULL, &out2, &err2), ==, 0);

  for (guint r = 0; r < G_N_ELEMENTS (runs); r++)
    {
      g_autofree char *json = NULL, *stderr_text = NULL;
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(GError) error = NULL;
      JsonArray *gpus;
      guint staged = 0, placed = 0;

      g_assert_cmpint (vc_test_run_vramcalc (runs[r], NULL, &json, &stderr_text), ==, 0);
      g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
      gpus = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "gpus");
      for (guint g = 0; g < json_array_get_length (gpus); g++)
        {
          JsonObject *row = json_array_get_object_element (gpus, g);

          if (json_object_get_null_member (row, "layout"))
            continue;
          placed++;
          staged += json_object_get_int_member (json_object_get_object_member (row, "layout"), "pp") > 1;
        }
      g_test_message ("%s: %u cards placed, %u of them over stages", r == 0 ? "one stage" : "without", placed, staged);
      g_assert_cmpuint (placed, >, 0);
      if (r == 0)
        g_assert_cmpuint (staged, ==, 0);
      else
        g_assert_cmpuint (staged, >, 0);
    }
}

/* The layouts the GPU table places in `args`' JSON: how many cards it placed, and how many of them
 * over several stages */
static guint
staged_rows (const char *const *args,
             guint             *placed)
{
  g_autofree char *json = NULL, *stderr_text = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonArray *gpus;
  guint staged = 0;

  *placed = 0;
  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &json, &stderr_text), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  gpus = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "gpus");
  for (guint g = 0; g < json_array_get_length (gpus); g++)
    {
      JsonObject *row = json_array_get_object_element (gpus, g);

      if (json_object_get_null_member (row, "layout"))
        continue;
      (*placed)++;
      staged += json_object_get_int_member (json_object_get_object_member (row, "layout"), "pp") > 1;
    }
  return staged;
}

/* SGLang's GPT-2, GPT-BigCode, Falcon, Gemma, Gemma 2, Gemma 3, Granite, Granite MoE, ERNIE 4.5
 * and Hunyuan classes take no pp_proxy_tensors (the stored versions read: gpt2.py 00b08c4,
 * gpt_bigcode.py 0b295e5, falcon.py 0bf4c98, gemma.py 01925ca, gemma2.py 00b08c4, gemma3_causal.py 038c87d,
 * gemma3_mm.py 017f5d4, granite.py 0b8c97e, granitemoe.py 0ba3cdd, ernie4.py 008b79d, hunyuan.py
 * 0818561), which SGLang's model runner asserts at PP > 1: the config reader sets
 * sglang-one-stage for those models alone (not the PP-capable Llama, Qwen, Mistral and
 * MiniMax-M2 classes, nor Mistral 3's wrapper, not read), --pp 2 is refused under SGLang and not
 * under vLLM, and the GPU table keeps Gemma 2 27B on one stage under SGLang (34 of 37 cards hold
 * it; without the field 13 of 34 placed take stages). */
static void
test_sglang_one_stage_classes (void)
{
  static const struct { const char *preset; gboolean one_stage; } presets[] = {
    { "gpt2", TRUE }, { "starcoder-15b", TRUE }, { "falcon-7b", TRUE }, { "gemma-7b", TRUE }, { "gemma-2-9b", TRUE },
    { "gemma-3-1b", TRUE }, { "gemma-3-27b-it", TRUE }, { "granite-3.3-2b-instruct", TRUE },
    { "granite-3.1-1b-a400m-instruct", TRUE }, { "ernie-4.5-0.3b-pt", TRUE }, { "ernie-4.5-21b-a3b-pt", TRUE },
    { "hunyuan-a13b-instruct", TRUE }, { "llama-3.1-8b", FALSE }, { "qwen3-8b", FALSE }, { "mistral-7b", FALSE },
    { "mistral-small-3.1-24b-instruct", FALSE }, { "qwen3-30b-a3b", FALSE }, { "minimax-m2.5", FALSE },
  };
  static const char *refused[] = { "gemma-2-9b", "granite-3.3-2b-instruct", "hunyuan-a13b-instruct" };
  const char *table[] = { "--preset", "gemma-2-27b", "--engine", "sglang", "--format", "json", NULL };
  const char *without[] = { "--preset", "gemma-2-27b", "--engine", "sglang", "--no-sglang-one-stage", "--format",
                            "json", NULL };
  guint placed;

  for (guint i = 0; i < G_N_ELEMENTS (presets); i++)
    {
      g_autoptr(VcEstimate) e = hybrid (presets[i].preset, 2048);

      g_assert_cmpint (vc_estimate_get_inputs (e)->arch.sglang_one_stage, ==, presets[i].one_stage);
    }
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const char *sglang[] = { "--preset", refused[i], "--engine", "sglang", "--pp", "2", NULL };
      const char *vllm[] = { "--preset", refused[i], "--engine", "vllm", "--engine-version", "0.14", "--pp", "2", NULL };
      g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

      g_assert_cmpint (vc_test_run_vramcalc (sglang, NULL, &out, &err), ==, 2);
      g_assert_nonnull (strstr (err, "SGLang runs this model on one pipeline stage"));
      g_assert_nonnull (strstr (err, "Gemma 3, Granite, Granite MoE, ERNIE 4.5 and Hunyuan classes"));
      g_assert_nonnull (strstr (err, "Pipeline Parallel is not compatible with this model"));
      g_assert_cmpint (vc_test_run_vramcalc (vllm, NULL, &out2, &err2), ==, 0);
    }
  g_assert_cmpuint (staged_rows (table, &placed), ==, 0);
  g_assert_cmpuint (placed, ==, 37);
  g_assert_cmpuint (staged_rows (without, &placed), ==, 13);
  g_assert_cmpuint (placed, ==, 34);
}

static void
test_sglang_refused (void)
{
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  const char *other[] = { "--preset", "granite-4.0-h-tiny", "--engine", "vllm", "--sglang-version", "001ccef",
                          "--fit-gpu", "h100-80gb", NULL };
  const char *named[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--sglang-version", "001ccef",
                          "--pp", "2", "--fit-gpu", "h100-80gb", NULL };
  const char *uneven[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--sglang-version", "003fca8",
                           "--pp", "3", "--fit-gpu", "h100-80gb", NULL };
  const char *unplaced[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--sglang-version", "003fca8",
                             "--pp", "2", "--attention-layer-period", "0", "--fit-gpu", "h100-80gb", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *out3 = NULL, *err3 = NULL;
  g_autofree char *out4 = NULL, *err4 = NULL;
  VcSglangStatePool pool;
  VcArch arch;

  g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);
  g_assert_true (vc_engine_state_sglang_followed (in, 1, 1));
  g_assert_false (vc_engine_state_sglang_followed (in, 1, 2));
  g_assert_false (vc_engine_state_sglang_followed (in, 5, 1));
  g_assert_false (vc_engine_state_sglang_pool (in, 5, 4096, 20e9, &pool));
  g_assert_false (pool.known);
  g_object_set (e, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  g_assert_true (vc_engine_state_sglang_followed (in, 1, 1));
  g_assert_true (vc_engine_state_sglang_followed (in, 1, 2));
  g_assert_true (vc_engine_state_sglang_followed (in, 1, 4));
  /* 40 layers over 3 stages: SGLang's own split (13, 13, 14), followed as an even one */
  g_assert_true (vc_engine_state_sglang_followed (in, 1, 3));
  g_assert_false (vc_engine_state_sglang_followed (in, 5, 1));
  g_assert_false (vc_engine_state_sglang_followed (in, 5, 2));
  g_assert_false (vc_engine_state_sglang_pool (in, 5, 4096, 20e9, &pool));
  g_assert_null (vc_engine_no_figure (in));
  g_object_set (e, "pp", 2, NULL);
  g_assert_null (vc_engine_no_figure (in));
  g_object_set (e, "pp", 3, NULL);
  g_assert_null (vc_engine_no_figure (in));
  g_object_set (e, "pp", 2, "attention-layer-period", 0, NULL);
  g_assert_false (vc_engine_state_sglang_followed (in, 1, 2));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");
  g_object_set (e, "pp", 1, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
  arch = in->arch;
  arch.recurrent_conv = 0;
  vc_estimate_set_architecture (e, &arch);
  g_assert_false (vc_engine_state_sglang_followed (in, 1, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");
  g_object_set (e, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  g_assert_false (vc_engine_state_sglang_followed (in, 1, 1));

  g_assert_cmpint (vc_test_run_vramcalc (other, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "--sglang-version"));
  g_assert_cmpint (vc_test_run_vramcalc (named, NULL, &out2, &err2), ==, 0);
  g_assert_nonnull (strstr (out2, "At 001ccef each stage caps its running requests from its own token count"));
  /* SGLang's split of 40 layers over 3 stages (13, 13, 14), not vLLM's (13, 14, 13): a figure */
  g_assert_cmpint (vc_test_run_vramcalc (uneven, NULL, &out3, &err3), ==, 0);
  g_assert_null (strstr (out3, "SGLang gives the layers"));
  g_assert_cmpint (vc_test_run_vramcalc (unplaced, NULL, &out4, &err4), ==, 0);
  g_assert_nonnull (strstr (out4, "which layers hold a mixer is not known here"));
}

/* SGLang's Mamba pool over pipeline stages at 003fca8 (kv_cache_configurator.py:
 * _handle_max_mamba_cache, _apply_token_constraints, resolve_max_num_reqs; pool_configurator.py:
 * DefaultPoolConfigurator). Every rank charges a request the largest stage's share of the Mamba
 * layers, int(mamba_cache_per_req × that share / all of them), sizes the pool from the same rest
 * (get_available_gpu_memory's MIN over the world group), each stage's cells from its own
 * full-attention layers, and the smallest token count is kept: usable // the largest stage's
 * cell; the slots and so the running requests are the same on every rank.
 *  - Qwen3-Next-80B-A3B at TP 2 × PP 2: 24 layers a stage, attention at 3, 7, … 23 and 27, …
 *    47: 6 attention and 18 Gated DeltaNet layers each. A rank's request over the 36 DeltaNet
 *    layers is 38,633,472 bytes (above), × 18 / 36 = 19,316,736; a stage's cells 6 × 1 KV head
 *    of 256 × 2 × 2 bytes = 6,144 a token. 20 GB of rest: (9,473,684,210.5 − 19,316,736) //
 *    19,316,736 = 489 slots, the pool 490 × 19,316,736 = 9,465,200,640 bytes, the 10,534,799,360
 *    left 1,714,648 tokens; min(4,096, 857,324, 489 // 5 = 97) = 97 running, 209.3 fit: 97.
 *  - Granite 4.0-H Tiny at PP 2: 20 layers a stage, attention at 5, 15 and 25, 35: 2 and 18
 *    each, 57,341,952 × 18 / 36 = 28,670,976 bytes a request, cells of 2 × 2,048 = 4,096 bytes:
 *    329 slots, 330 × 28,670,976 = 9,461,422,080 bytes, 10,538,577,920 left, 2,572,895 tokens,
 *    329 // 5 = 65 at once.
 *  - Granite 4.0-H Tiny at PP 8, 5 layers a stage: stages 1, 3, 5, 7 (counting from 1) hold no
 *    attention layer (cell_size 0: int64 max tokens, has_kv_on_another_pp_stage) and 5 Mamba
 *    layers, the others 1 and 4: int(57,341,952 × 5 / 36) = 7,964,160 bytes a request, one
 *    layer's 2,048 bytes a token: 1,188 slots, 1,189 × 7,964,160 = 9,469,386,240 bytes,
 *    5,141,901 tokens, 237 at once.
 *  - Granite 4.0-H Tiny at PP 3, SGLang's split of 40 layers (get_pp_indices: 13, 13, 14 from
 *    0, 13, 26; vc_layout_stage_layers()): attention at 5; 15, 25; 35: 1 and 12, 2 and 11, 1 and
 *    13 a stage. int(57,341,952 × 13 / 36) = 20,706,816 bytes a request (the last stage's 13),
 *    cells of the middle stage's 2 × 2,048 = 4,096 bytes: (9,473,684,210.5 − 20,706,816) //
 *    20,706,816 = 456 slots, 457 × 20,706,816 = 9,463,014,912 bytes, the 10,536,985,088 left
 *    2,572,506 tokens, 456 // 5 = 91 at once. (vLLM's split, 13, 14, 13, would have given 12 Mamba
 *    layers at most.)
 * On H100s (--seq 8192) each rank's rest is the budget less the heaviest stage's weights, not
 * its own: Qwen3-Next at TP 2 × PP 2 2,562,732 tokens, 732 slots, 146 at once; Granite 4.0-H
 * Tiny at PP 2 8,097,571 tokens, 1,040 slots, 208 at once; at TP 4 × PP 2 its one Mamba-2 group
 * repeated on every rank, each stage its 18 layers' half of the 21,302,784 bytes more (test
 * above), a request 14,376,960 / 2 = 7,188,480 bytes, a stage's cells 2 × 512 bytes (one KV
 * head of 128 a rank): 34,420,284 tokens, 4,410 slots, 882 at once. */
static void
test_sglang_stages (void)
{
  static const struct
  {
    const char *preset;
    guint tp, pp;
    double attention[8], mixers[8], layer, per_request, slots, tokens, at_once;
  } hand[] = {
    { "qwen3-next-80b-a3b-instruct", 2, 2, { 6, 6 }, { 18, 18 }, 1024, 19316736, 489, 1714648, 97 },
    { "granite-4.0-h-tiny", 1, 2, { 2, 2 }, { 18, 18 }, 2048, 28670976, 329, 2572895, 65 },
    { "granite-4.0-h-tiny", 1, 8, { 0, 1, 0, 1, 0, 1, 0, 1 }, { 5, 4, 5, 4, 5, 4, 5, 4 }, 2048, 7964160, 1188,
      5141901, 237 },
    { "granite-4.0-h-tiny", 1, 3, { 1, 2, 1 }, { 12, 11, 13 }, 2048, 20706816, 456, 2572506, 91 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (hand); i++)
    {
      g_autoptr(VcEstimate) e = hybrid (hand[i].preset, 8192);
      const VcInputs *in = vc_estimate_get_inputs (e);
      VcSglangStatePool pool;

      g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "sglang-version", VC_SGLANG_VERSION_003FCA8, "tp", hand[i].tp,
                    "pp", hand[i].pp, NULL);
      for (guint s = 0; s < hand[i].pp; s++)
        {
          double attention, mixers;
          guint first, n;

          vc_layout_stage_layers (in, hand[i].pp, s, &first, &n);
          g_assert_true (vc_arch_stage_kinds (&in->arch, first, n, &attention, &mixers));
          g_assert_cmpfloat (attention, ==, hand[i].attention[s]);
          g_assert_cmpfloat (mixers, ==, hand[i].mixers[s]);
        }
      g_assert_true (vc_engine_state_sglang_stages (in, hand[i].tp, hand[i].layer, hand[i].pp, hand[i].attention,
                                                    hand[i].mixers, 20e9, &pool));
      g_assert_cmpfloat (pool.per_request_bytes, ==, hand[i].per_request);
      g_assert_cmpfloat (pool.state_requests, ==, hand[i].slots);
      g_assert_cmpfloat (pool.state_bytes, ==, (hand[i].slots + 1) * hand[i].per_request);
      g_assert_cmpfloat (pool.tokens, ==, hand[i].tokens);
      g_assert_cmpfloat (pool.max_running_requests, ==, hand[i].at_once);
      g_assert_cmpfloat (pool.max_concurrency, ==, hand[i].at_once);
      /* at 001ccef, or one stage asked for through this entry: not followed */
      g_object_set (e, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
      g_assert_false (vc_engine_state_sglang_stages (in, hand[i].tp, hand[i].layer, hand[i].pp, hand[i].attention,
                                                     hand[i].mixers, 20e9, &pool));
      g_object_set (e, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
      g_assert_false (vc_engine_state_sglang_stages (in, hand[i].tp, hand[i].layer, 1, hand[i].attention,
                                                     hand[i].mixers, 20e9, &pool));
    }
}

/* The CLI over two stages on H100s (test_sglang_stages()'s figures): each rank's rest is the
 * budget less the heaviest stage's weights, each stage's own weights re-derived here
 * (vc_layout_stage_bytes_tp, with the stage's share of Mamba-2's repeated group; the last
 * stage's final norm makes it the heavier by 4,096 and 3,072 bytes). Qwen3-Next read from its
 * config.json (an upper-case name: tests/hf-config/models), Granite 4.0-H from its preset. */
static void
test_sglang_stages_cli (void)
{
  static const struct
  {
    const char *preset;
    guint tp;
    double layer, per_request, tokens, slots, at_once, repeated;
  } cases[] = {
    { "Qwen3-Next-80B-A3B-Instruct", 2, 1024, 19316736, 2562732, 732, 146, 0 },
    { "granite-4.0-h-tiny", 1, 2048, 28670976, 8097571, 1040, 208, 0 },
    { "granite-4.0-h-tiny", 4, 512, 7188480, 34420284, 4410, 882, 21302784.0 / 2 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autofree char *tp = g_strdup_printf ("%u", cases[i].tp);
      g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                                  cases[i].preset, "config.json", NULL);
      gboolean from_config = g_ascii_isupper (cases[i].preset[0]);
      const char *args[] = { from_config ? "--config" : "--preset", from_config ? config : cases[i].preset,
                             "--engine", "sglang", "--no-sglang-one-stage", "--sglang-version", "003fca8", "--seq", "8192", "--tp", tp,
                             "--pp", "2", "--fit-gpu", "h100-80gb", "--format", "json", NULL };
      JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autoptr(GError) error = NULL;
      const VcInputs *in = vc_estimate_get_inputs (e);
      const VcResult *r;
      double attention[2], mixers[2], weights[2], budget, available;
      VcSglangStatePool pool;

      if (from_config)
        {
          g_autoptr(VcHfConfig) hf = vc_hf_config_new_for_path (config, &error);

          g_assert_no_error (error);
          vc_hf_config_apply (hf, e);
        }
      else
        g_assert_true (vc_estimate_set_preset (e, cases[i].preset, &error));
      g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "sglang-version",
                    VC_SGLANG_VERSION_003FCA8, "seq", 8192, "tp", cases[i].tp, "pp", 2, NULL);
      r = vc_estimate_get_result (e);
      for (guint s = 0; s < 2; s++)
        {
          guint first, n;
          VcLayoutStage st;

          vc_layout_stage_layers (in, 2, s, &first, &n);
          vc_layout_stage_bytes_tp (in, r, r->selected, first, n, s == 0, s == 1, cases[i].tp, 1, &st);
          g_assert_true (vc_arch_stage_kinds (&in->arch, first, n, &attention[s], &mixers[s]));
          weights[s] = st.weights + cases[i].repeated;
        }
      g_assert_cmpfloat (weights[0], !=, weights[1]);
      g_assert_true (json_object_get_null_member (engine, "no_figure"));
      budget = json_object_get_double_member (engine, "budget_bytes");
      available = json_object_get_double_member (engine, "available_kv_bytes");
      g_assert_cmpfloat_with_epsilon (budget - available, MAX (weights[0], weights[1]), 1);
      g_assert_cmpint (json_object_get_int_member (engine, "state_request_bytes"), ==, (gint64) cases[i].per_request);
      g_assert_true (vc_engine_state_sglang_stages (in, cases[i].tp, cases[i].layer, 2, attention, mixers,
                                                    budget - MAX (weights[0], weights[1]), &pool));
      g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, (gint64) pool.tokens);
      g_assert_cmpint (json_object_get_int_member (engine, "state_pool_requests"), ==, (gint64) pool.state_requests);
      g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, pool.max_concurrency);
      if (cases[i].tokens > 0)
        {
          g_assert_cmpfloat (pool.tokens, ==, cases[i].tokens);
          g_assert_cmpfloat (pool.state_requests, ==, cases[i].slots);
          g_assert_cmpfloat (pool.max_concurrency, ==, cases[i].at_once);
        }
    }
}

/* Granite 4.0-H Tiny's one Mamba-2 group under TP that does not divide it (Mamba2StateShape.create,
 * extra_groups_for_head_shards; MambaMixer2): N 128, 48 heads of 64 (I 3,072), kernel 4, h 1,536,
 * a convolution bias, no in_proj bias: a group is 2 × 128 × (1,536 + 4 + 1) = 394,496 parameters.
 * At TP 4 the group is repeated to 4: conv_dim 3,072 + 2 × 4 × 128 = 4,096, a rank's 1,024 × 3
 * convolution values (6,144 bytes) and 393,216 / 4 recurrent ones (393,216 bytes) a layer, × 36 =
 * 14,376,960 bytes a request; each rank holds 36 × 3 × 394,496 / 4 × 2 = 21,302,784 bytes of
 * weights beyond an even split. 20 GB of rest, a rank's token 2,048 bytes (one KV head of 4):
 * 001ccef 9,473,684,210.5 // 14,376,960 = 658 requests (9,460,039,680 bytes), the 10,539,960,320
 * left 5,146,465 tokens, 658 // 3 = 219 at once; 003fca8 657 slots, the same tokens, 657 // 5 =
 * 131 at once. At TP 2: conv_dim 3,584, 1,792 × 3 and 196,608 values a layer, 28,698,624 bytes a
 * request, 14,201,856 bytes more, 330 requests, 2,570,667 tokens of 4,096 bytes, 110 at once. */
static void
test_sglang_groups_repeated (void)
{
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  g_autoptr(VcEstimate) q = hybrid ("qwen3-next-80b-a3b-instruct", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  VcSglangStatePool pool;
  VcPrecision precision;
  VcArch arch;

  g_assert_cmpuint (in->arch.mamba_state_size, ==, 128);
  g_assert_cmpuint (in->arch.mamba_group_params, ==, 394496);
  g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);
  for (guint v = 0; v < 2; v++)
    {
      g_object_set (e, "sglang-version", v == 0 ? VC_SGLANG_VERSION_001CCEF : VC_SGLANG_VERSION_003FCA8, NULL);
      g_assert_true (vc_engine_state_sglang_followed (in, 2, 1));
      g_assert_true (vc_engine_state_sglang_followed (in, 3, 1));
      g_assert_true (vc_engine_state_sglang_followed (in, 4, 1));
      g_assert_true (vc_engine_state_sglang_pool (in, 4, 2048, 20e9, &pool));
      g_assert_cmpfloat (pool.per_request_bytes, ==, 14376960);
      g_assert_cmpfloat (pool.tokens, ==, 5146465);
      g_assert_cmpfloat (pool.state_bytes, ==, 658 * 14376960.0);
      g_assert_cmpfloat (pool.state_requests, ==, v == 0 ? 658 : 657);
      g_assert_cmpfloat (pool.max_concurrency, ==, v == 0 ? 219 : 131);
    }
  g_object_set (e, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
  g_assert_true (vc_engine_state_sglang_pool (in, 2, 4096, 20e9, &pool));
  g_assert_cmpfloat (pool.per_request_bytes, ==, 28698624);
  g_assert_cmpfloat (pool.state_requests, ==, 330);
  g_assert_cmpfloat (pool.tokens, ==, 2570667);
  g_assert_cmpfloat (pool.max_concurrency, ==, 110);

  /* the weights each rank holds beyond an even split: none where TP divides the groups; vLLM
   * repeats the same rows (test_tensor_parallel_groups), llama.cpp has no TP ranks */
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, 1), ==, 0);
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, 2), ==, 14201856);
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, 4), ==, 21302784);
  g_object_set (e, "engine", VC_ENGINE_VLLM, NULL);
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, 4), ==, 21302784);
  g_assert_true (vc_engine_state_vllm_followed (in, 4, 1));
  g_object_set (e, "engine", VC_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, 4), ==, 0);
  g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);

  /* what SGLang does not start with: heads TP does not divide, quantized weights, two groups
   * TP does not divide; the state size unknown (an architecture set by hand) */
  g_assert_false (vc_engine_state_sglang_followed (in, 5, 1));
  precision = in->precision;
  g_object_set (e, "precision", VC_PRECISION_FP8, NULL);
  g_assert_false (vc_engine_state_sglang_followed (in, 4, 1));
  g_assert_true (vc_engine_state_sglang_followed (in, 1, 1));
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, 4), ==, 0);
  g_object_set (e, "precision", precision, "tp", 4, NULL);
  g_assert_null (vc_engine_no_figure (in));
  arch = in->arch;
  arch.recurrent_groups = 2;
  arch.recurrent_conv = 3 * (3072 + 2 * 2 * 128);
  arch.recurrent_state = arch.recurrent_conv + 393216;
  vc_estimate_set_architecture (e, &arch);
  g_assert_true (vc_engine_state_sglang_followed (in, 2, 1));
  g_assert_false (vc_engine_state_sglang_followed (in, 4, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");
  arch.recurrent_groups = 1;
  arch.recurrent_conv = 9984;
  arch.recurrent_state = 9984 + 393216;
  arch.mamba_state_size = 0;
  vc_estimate_set_architecture (e, &arch);
  g_assert_true (vc_engine_state_sglang_followed (in, 1, 1));
  g_assert_false (vc_engine_state_sglang_followed (in, 4, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");

  /* Gated DeltaNet's key heads are not repeated so: Qwen3-Next's 16 at TP 32 */
  g_object_set (q, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);
  g_assert_cmpuint (vc_estimate_get_inputs (q)->arch.mamba_state_size, ==, 0);
  g_assert_true (vc_engine_state_sglang_followed (vc_estimate_get_inputs (q), 16, 1));
  g_assert_false (vc_engine_state_sglang_followed (vc_estimate_get_inputs (q), 32, 1));
}

/* The same at the layout and on the GPU rows, from the CLI and the core: Granite 4.0-H Tiny on
 * H100s at TP 4, 8,192 tokens. At the layout each rank's weights are the layout's busiest plus
 * the repeated rows (budget − available = 3,475,603,488 + 21,302,784); 001ccef keeps 2,166
 * requests of 14,376,960 bytes and 16,898,712 tokens, 722 at once; 003fca8 2,165 slots, 433.
 * A GPU row of 4 cards: the card's rest less a quarter of the weights and the repeated rows. */
static void
test_sglang_groups_repeated_cli (void)
{
  const char *sources[] = { "001ccef", "003fca8" };
  const double requests[] = { 2166, 2165 }, at_once[] = { 722, 433 };
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  const VcResult *r;
  guint h100 = vc_test_gpu_index (e, "h100-80gb");
  const VcGpu *gpu = vc_estimate_get_gpu (e, h100);
  const char *pp2[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--tp", "4", "--pp", "2",
                        "--fit-gpu", "h100-80gb", NULL };
  const char *explain[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--seq", "8192", "--tp", "4",
                            "--fit-gpu", "h100-80gb", "--explain", NULL };
  g_autofree char *out = NULL, *err = NULL, *explained = NULL, *err_explain = NULL;
  VcSglangStatePool pool;
  VcKvCapacity kv;
  double rest;

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *args[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--seq", "8192", "--tp", "4",
                             "--sglang-version", sources[i], "--fit-gpu", "h100-80gb", "--format", "json", NULL };
      JsonObject *root = vc_test_run_json (parser, args);
      JsonObject *engine = json_object_get_object_member (root, "engine");
      JsonArray *per_gpu = json_object_get_array_member (json_object_get_object_member (root, "per_gpu"), "components");
      double weights = json_object_get_double_member (json_array_get_object_element (per_gpu, 0), "bytes");

      g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "tp", 4, "sglang-version",
                    i == 0 ? VC_SGLANG_VERSION_001CCEF : VC_SGLANG_VERSION_003FCA8, NULL);
      g_assert_true (json_object_get_null_member (engine, "no_figure"));
      g_assert_cmpfloat (weights, ==, 3475603488);
      g_assert_cmpfloat (json_object_get_double_member (engine, "budget_bytes") -
                         json_object_get_double_member (engine, "available_kv_bytes"), ==, 3475603488 + 21302784);
      g_assert_cmpint (json_object_get_int_member (engine, "state_request_bytes"), ==, 14376960);
      g_assert_true (vc_engine_state_sglang_pool (in, 4, 2048, json_object_get_double_member (engine, "available_kv_bytes"),
                                                  &pool));
      g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, (gint64) pool.tokens);
      g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 16898712);
      g_assert_cmpint (json_object_get_int_member (engine, "state_pool_requests"), ==, (gint64) requests[i]);
      g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, at_once[i]);

      /* a GPU row of 4 cards: the layout's weights at TP 4 and the repeated group */
      r = vc_estimate_get_result (e);
      vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], gpu, 4, &kv);
      g_assert_true (kv.known);
      g_assert_cmpfloat (kv.state_request_bytes, ==, 14376960);
      rest = vc_engine_sglang_fraction (in, gpu->memory_mib, 4) *
             (vc_engine_gpu_capacity (in, gpu) - r->scenarios[r->selected].bytes[VC_COMPONENT_OVERHEAD] -
              vc_engine_comm_pool_bytes (in, 4)) -
             3475603488 - 21302784;
      g_assert_cmpfloat (kv.weights_bytes, ==, 3475603488 + 21302784);
      g_assert_true (vc_engine_state_sglang_pool (in, 4, 2048, rest, &pool));
      g_assert_cmpfloat (kv.tokens, ==, pool.tokens);
      g_assert_cmpfloat (kv.state_requests, ==, pool.state_requests);
      g_assert_cmpfloat (kv.max_concurrency, ==, pool.max_concurrency);
    }

  /* --explain names the repeated group's share */
  g_assert_cmpint (vc_test_run_vramcalc (explain, NULL, &explained, &err_explain), ==, 0);
  g_assert_nonnull (strstr (explained, "at TP 4 SGLang repeats the mixer’s one group on every rank: 3072 convolution "
                                       "values a layer on each, and 21.3\u00a0MB of weights more than an even split"));

  /* two pipeline stages at 001ccef: no figure, the reason named */
  g_assert_cmpint (vc_test_run_vramcalc (pp2, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "At 001ccef each stage caps its running requests from its own token count"));
}

/* --engine-version names SGLang's source with --engine sglang, as --sglang-version does (the
 * engine given before or after it, or by a profile): the same report; a vLLM release there,
 * an SGLang source with vLLM, or two sources that disagree are refused, naming what each
 * engine accepts */
static void
test_sglang_engine_version (void)
{
  const char *alias[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--engine-version", "003fca8",
                          "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const char *after[] = { "--preset", "granite-4.0-h-tiny", "--engine-version", "003fca8", "--engine", "sglang", "--no-sglang-one-stage",
                          "--sglang-version", "003fca8", "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const char *named[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--sglang-version", "003fca8",
                          "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const char *followed[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--engine-version", "001ccef",
                             "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const char *const *same[] = { alias, after };
  static const char *const refused[][3] = {
    /* engine, --engine-version, what the message says */
    { "sglang", "0.11", "accepted with --engine vllm: 0.10, 0.11, 0.14, 0.17, 0.21; with --engine sglang: 001ccef, 003fca8" },
    { "vllm", "001ccef", "“001ccef” is not a release of vllm here" },
    { "sglang", "abc", "“abc” is not a release of sglang here" },
    { "generic", "0.11", "give --engine vllm or sglang" },
    { "llama.cpp", "001ccef", "with --engine sglang: 001ccef, 003fca8" },
  };
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) named_parser = json_parser_new ();
  g_autoptr(JsonParser) followed_parser = json_parser_new ();
  g_autofree char *expected = NULL;
  JsonObject *engine;

  vc_test_run_json (named_parser, named);
  expected = json_to_string (json_parser_get_root (named_parser), FALSE);
  for (guint i = 0; i < G_N_ELEMENTS (same); i++)
    {
      g_autofree char *got = NULL;

      vc_test_run_json (parser, same[i]);
      got = json_to_string (json_parser_get_root (parser), FALSE);
      g_assert_cmpstr (got, ==, expected);
    }
  engine = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "engine");
  g_assert_cmpstr (json_object_get_string_member (engine, "version"), ==, "003fca8");
  /* 003fca8's pool: 464 slots and 3,619,299 tokens on an H100 (test_sglang_003fca8) */
  g_assert_cmpint (json_object_get_int_member (engine, "state_pool_requests"), ==, 464);
  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 3619299);
  /* the default source, given: its pool (465 requests on an H100) */
  engine = json_object_get_object_member (vc_test_run_json (followed_parser, followed), "engine");
  g_assert_cmpstr (json_object_get_string_member (engine, "version"), ==, "001ccef");
  g_assert_cmpint (json_object_get_int_member (engine, "state_pool_requests"), ==, 465);

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const char *args[] = { "--preset", "granite-4.0-h-tiny", "--engine", refused[i][0], "--engine-version",
                             refused[i][1], NULL };
      g_auto(VcTestRun) r = { 0 };

      r.status = vc_test_run_vramcalc (args, NULL, &r.out, &r.err);
      g_test_message ("%s %s: %s", refused[i][0], refused[i][1], r.err);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_true (g_str_has_prefix (r.err, "vramcalc: --engine-version: "));
      g_assert_nonnull (strstr (r.err, refused[i][2]));
    }
  {
    const char *args[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--sglang-version", "001ccef",
                           "--engine-version", "003fca8", NULL };
    g_auto(VcTestRun) r = { 0 };

    r.status = vc_test_run_vramcalc (args, NULL, &r.out, &r.err);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_cmpstr (r.err, ==, "vramcalc: --engine-version: with --engine sglang it names SGLang’s source, as "
                     "--sglang-version does: 003fca8 and 001ccef disagree; accepted: one of them, or both the same\n");
  }
}

/* SGLang's Mamba pool in the text report and in --explain: Granite 4.0-H Tiny on an H100 keeps
 * 465 requests of 57,341,952 bytes (26.66 GB) before its cells; the state's 9,984 convolution
 * values of a layer named with their dtype */
static void
test_sglang_text (void)
{
  const char *args[] = { "--preset", "granite-4.0-h-tiny", "--engine", "sglang", "--no-sglang-one-stage", "--seq", "8192",
                         "--fit-gpu", "h100-80gb", "--explain", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\n  Mamba pool of 465 requests (26.7\u00a0GB), 57.3\u00a0MB a request, "
                                 "before the KV cache\n"));
  g_assert_nonnull (strstr (out, "; SGLang (001ccef) keeps them in a Mamba pool sized before the KV cache, "
                                 "9984 convolution values in bfloat16 and the rest in float32"));
}

/* SGLang's hybrid SWA pool by source: gpt-oss-20b (12 full and 12 sliding layers of 8 KV heads
 * of 64, 2,048 bytes a layer's token, a window of 128) on an H100 leaves 28,328,311,836 bytes
 * (its fp32 RoPE table, 131,072 × 64 × 4 bytes, taken). At commit 003fca8: 28,328,311,836 //
 * (2,048 × (12 + 0.8 × 12)) = 640,378 full tokens. At 001ccef: 28,328,311,836 // 49,152 =
 * 576,340 cells of every layer, × 49,152 / 44,236.8 = 640,377.8, int 640,377; its sliding pool
 * int(640,377 × 0.8) = 512,301 holds 3,971 windows of 129, so 640,377 / 8,192 = 78.17 requests
 * at once (pages of 1 token: the alignments change nothing). */
static void
test_sglang_swa_sources (void)
{
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  const char *mixin[] = { "--preset", "gpt-oss-20b", "--engine", "sglang", "--no-sglang-one-stage", "--seq", "8192", "--fit-gpu", "h100-80gb",
                          "--format", "json", NULL };
  const char *configurator[] = { "--preset", "gpt-oss-20b", "--engine", "sglang", "--no-sglang-one-stage", "--seq", "8192",
                                 "--sglang-version", "003fca8", "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  JsonObject *a = json_object_get_object_member (vc_test_run_json (p1, mixin), "engine");
  JsonObject *b = json_object_get_object_member (vc_test_run_json (p2, configurator), "engine");

  g_assert_cmpint (json_object_get_int_member (a, "available_kv_bytes"), ==, 28328311836);
  g_assert_cmpint (json_object_get_int_member (b, "available_kv_bytes"), ==, 28328311836);
  g_assert_cmpint (json_object_get_int_member (a, "kv_capacity_tokens"), ==, 640377);
  g_assert_cmpint (json_object_get_int_member (b, "kv_capacity_tokens"), ==, 640378);
  g_assert_cmpfloat (json_object_get_double_member (a, "max_concurrency"), ==, 640377.0 / 8192);
  g_assert_cmpstr (json_object_get_string_member (b, "version"), ==, "003fca8");
  g_assert_true (json_object_get_null_member (a, "state_request_bytes"));

  /* pages of 64: at 001ccef the 576,340 cells are first kept in whole pages, 576,320, × 49,152 /
   * 44,236.8 = 640,355.6, int 640,355, in pages 640,320; at 003fca8 640,378 in pages 640,320 */
  {
    g_autoptr(JsonParser) p3 = json_parser_new ();
    g_autoptr(JsonParser) p4 = json_parser_new ();
    const char *mixin64[] = { "--preset", "gpt-oss-20b", "--engine", "sglang", "--no-sglang-one-stage", "--seq", "8192", "--page-size", "64",
                              "--fit-gpu", "h100-80gb", "--format", "json", NULL };
    const char *configurator64[] = { "--preset", "gpt-oss-20b", "--engine", "sglang", "--no-sglang-one-stage", "--seq", "8192", "--page-size",
                                     "64", "--sglang-version", "003fca8", "--fit-gpu", "h100-80gb", "--format", "json",
                                     NULL };

    a = json_object_get_object_member (vc_test_run_json (p3, mixin64), "engine");
    b = json_object_get_object_member (vc_test_run_json (p4, configurator64), "engine");
    g_assert_cmpint (json_object_get_int_member (a, "kv_capacity_tokens"), ==, 640320);
    g_assert_cmpint (json_object_get_int_member (b, "kv_capacity_tokens"), ==, 640320);
  }
}

/* Where the pools are not followed, no figure and the reason: SGLang's Mamba pool over two
 * stages at 001ccef (followed at 003fca8), vLLM's repeated group in fp8; a model without state
 * has no state block */
static void
test_refused (void)
{
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  g_autoptr(VcEstimate) dense = hybrid ("llama-3-8b", 8192);
  VcPrecision precision = vc_estimate_get_inputs (e)->precision;
  VcEngineAtLayout at;

  g_object_set (e, "tp", 2, "precision", VC_PRECISION_FP8, NULL);
  at_layout (e, &at);
  g_assert_false (at.known);
  g_assert_cmpstr (vc_engine_no_figure (vc_estimate_get_inputs (e)), ==, "state-pools");
  g_assert_false (vc_engine_state_vllm_followed (vc_estimate_get_inputs (e), 2, 1));
  g_object_set (e, "precision", precision, "tp", 1, "pp", 2, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
  at_layout (e, &at);
  g_assert_false (at.known);
  g_assert_cmpstr (vc_engine_no_figure (vc_estimate_get_inputs (e)), ==, "state-pools");
  g_object_set (e, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  g_assert_null (vc_engine_no_figure (vc_estimate_get_inputs (e)));
  g_object_set (e, "pp", 1, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
  /* 0.10 on one GPU is followed; 0.21 and later log the cache otherwise, even eager */
  g_object_set (e, "engine", VC_ENGINE_VLLM, "engine-version", VC_VLLM_VERSION_0_10, NULL);
  at_layout (e, &at);
  g_assert_true (at.known);
  g_assert_cmpuint (at.block_size, ==, 400);
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_21, "enforce-eager", TRUE, NULL);
  at_layout (e, &at);
  g_assert_false (at.known);
  g_assert_cmpstr (vc_engine_no_figure (vc_estimate_get_inputs (e)), ==, "state-pools");

  at_layout (dense, &at);
  g_assert_true (at.known);
  g_assert_cmpuint (at.block_size, ==, 0);
  g_assert_true (vc_engine_state_vllm_followed (vc_estimate_get_inputs (dense), 4, 2));
}

/* vLLM's KV capacity of one H100 for the estimate's model */
static void
h100_capacity (VcEstimate   *e,
               VcKvCapacity *kv)
{
  guint i = vc_test_gpu_index (e, "h100-80gb");

  vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), vc_estimate_get_result (e), vc_estimate_get_selected (e),
                            vc_estimate_get_gpu (e, i), 1, kv);
}

/* vLLM's profile run for Qwen3-VL-8B (vc-engine-mm.c; FORMULAS.md, "Multimodal models") from the
 * catalog's preset, which carries Qwen's processor files (data/models/qwen3-vl-8b-instruct): the
 * architecture fields the config reader derives from them (tests/hf-config: size.longest_edge
 * 16,777,216, a 4,096² image of 65,536 patches and 16,384 tokens; the video's most 16,200) and,
 * from rope_scaling's mrope_section, MRotaryEmbedding's table of 4 × 262,144 rows */
static VcEstimate *
qwen3_vl_8b (guint seq)
{
  VcEstimate *e = hybrid ("qwen3-vl-8b-instruct", seq);
  const VcArch *a = &vc_estimate_get_inputs (e)->arch;

  g_assert_cmpuint (a->encoder_image_tokens, ==, 16384);
  g_assert_cmpuint (a->encoder_image_embeds, ==, 16384);
  g_assert_cmpuint (a->encoder_patches, ==, 65536);
  g_assert_cmpuint (a->encoder_pixel_values, ==, 65536 * 1536);
  g_assert_cmpuint (a->encoder_video_tokens, ==, 16200);
  g_assert_cmpuint (a->rope_table_rows, ==, 1048576);
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, NULL);
  return e;
}

/* Llama 4 Scout's tower through vLLM 0.10's profile run (vc-engine-mm.c, llama4_token_values;
 * FORMULAS.md, "The Llama 4 tower's pass"), the image its preprocessor_config.json's max_patches
 * 16 gives (tests/hf-config: 2,467 tokens, 17 tiles of 576 patches, 2,448 embeddings): each
 * tile's 576 patches and its class token, 9,809 tokens an image, 3 images at vLLM's H100
 * budget (8,192 // 2,467). A token of a layer past the first holds layernorm_pre's output (h =
 * 1,408), and at the rotary embedding the layer's input, input_layernorm's output, qkv and the
 * fp32 q and k, their complex products and the casts back: 3h + 13h / TP, 22,528 values at TP 1;
 * at TP 4 o_proj's point 5h + 6h / 4 + h, 9,152, sets the peak. Release 0.21 and later, data
 * mode and PP 2 are not followed (the releases from 0.11 to 0.20: test_vllm_mm_llama4_later). */
static void
test_vllm_mm_llama4_pass (void)
{
  g_autoptr(VcEstimate) e = hybrid ("llama-4-scout-17b-16e", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  double pixels = 3 * 17 * 3 * 336 * 336 * 2.0, tokens = 3 * (17 * 576 + 17);
  VcVllmMmProfile mm;

  g_assert_cmpuint (in->arch.encoder_tower, ==, VC_ENCODER_TOWER_LLAMA4);
  g_assert_cmpuint (in->arch.encoder_width, ==, 1408);
  g_assert_cmpuint (in->arch.encoder_intermediate, ==, 5632);
  /* the catalog's config.json alone: the image unknown */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_10, NULL);
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_object_set (e, "encoder-image-tokens", 2467, "encoder-image-embeds", 2448, "encoder-patches", 9792,
                "encoder-pixel-values", 17 * 3 * 336 * 336, NULL);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 3);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + tokens * 22528 * 2);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 1360409088.0);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 4, &mm));
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + tokens * 9152 * 2);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 573177984.0);
  /* at TP 2 the rotary point again: 3h + 6.5h = 13,376 values */
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 2, &mm));
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + tokens * 13376 * 2);
  /* the embeddings: 0.10 copies each image's 2,448 rows into the budget's 8,192, the text
   * model's width (5,120) */
  g_assert_cmpfloat (mm.cache_bytes, ==, pixels + 3 * 2448 * 5120 * 2.0 + 3 * 8192 * 5120 * 2.0);
  g_assert_cmpfloat (mm.cache_bytes, ==, 361406976.0);
  /* one tile an image (max_patches 1): 147 tokens, 577 through the layers */
  g_object_set (e, "encoder-image-tokens", 147, "encoder-image-embeds", 144, "encoder-patches", 576,
                "encoder-pixel-values", 3 * 336 * 336, NULL);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 55);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 55 * 3 * 336 * 336 * 2.0 + 55 * 577 * 22528 * 2.0);
  /* not followed: release 0.21 and later, data mode, two stages, tiles that do not add up */
  g_object_set (e, "encoder-image-tokens", 2467, "encoder-image-embeds", 2448, "encoder-patches", 9792,
                "encoder-pixel-values", 17 * 3 * 336 * 336, NULL);
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_21, "enforce-eager", TRUE, NULL);
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_17, "enforce-eager", FALSE, "mm-encoder-tp-mode",
                VC_MM_ENCODER_TP_MODE_DATA, NULL);
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 4, &mm));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_10, "mm-encoder-tp-mode", VC_MM_ENCODER_TP_MODE_DATA, NULL);
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_object_set (e, "mm-encoder-tp-mode", VC_MM_ENCODER_TP_MODE_WEIGHTS, "encoder-patches", 9793, NULL);
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_object_set (e, "encoder-patches", 9792, "pp", 2, NULL);
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
}

/* Llama 4 Scout's tower through the profile run of the releases after 0.10 (vc-engine-mm.c,
 * llama4_followed: the same forward through 0.20), the image of 17 tiles (2,467 tokens, 2,448
 * embeddings, 9,792 patches) at vLLM's H100 defaults (8,192 batched tokens, 1,024 requests).
 * 0.11 counts an image's 2,467 tokens against the budget, 0.14 and 0.17 its 2,448 embeddings
 * (pull request #30475): 3 images either way (vLLM 0.19.0's own log at TP 4 on H100s: "profiled
 * with 3 image items", tests/accuracy/measurements.csv, vllm019-llama4-scout-tp4-h100-kv),
 * 3 × 17 × 577 = 29,427 tokens through the layers. A token past the first layer, h = 1,408 and
 * I = 5,632 (layernorm_pre's output h held throughout): at TP 4 the rotary point holds h + 2h +
 * 13h / 4 = 8,800 values, o_proj's h + 2h + 6h / 4 + h + h = 9,152 (the peak), fc2's h + 2h +
 * I / 4 + 2h = 8,448; at TP 8 the rotary point 3h + 13h / 8 = 6,512, o_proj's 5h + 6h / 8 = 8,096
 * (the peak), fc2's 5h + I / 8 = 7,744. With the pixels, 3 × 17 × 3 × 336² values: TP 4
 * 34,546,176 + 29,427 × 9,152 × 2 = 573,177,984 bytes, TP 8 34,546,176 + 29,427 × 8,096 × 2 =
 * 511,028,160. The embeddings kept, the text model's 5,120 wide: 0.11 copies each image's 2,448
 * rows into the budget's 8,192 (34,546,176 + 3 × 2,448 × 5,120 × 2 + 3 × 8,192 × 5,120 × 2 =
 * 361,406,976 bytes); 0.14 and 0.17 keep each image's own rows (34,546,176 + 75,202,560 =
 * 109,748,736). Either way the text pass with them is the peak (its sampler's logits alone,
 * 1,024 × 202,048 × 14 bytes at 0.17, are 2.9 GB against the encoder's 0.57). */
static void
test_vllm_mm_llama4_later (void)
{
  g_autoptr(VcEstimate) e = hybrid ("llama-4-scout-17b-16e", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  const VcVllmVersion v[] = { VC_VLLM_VERSION_0_11, VC_VLLM_VERSION_0_14, VC_VLLM_VERSION_0_17 };
  double pixels = 3 * 17 * 3 * 336 * 336 * 2.0, tokens = 3 * 17 * 577.0, text;
  VcVllmMmProfile mm;

  g_object_set (e, "encoder-image-tokens", 2467, "encoder-image-embeds", 2448, "encoder-patches", 9792,
                "encoder-pixel-values", 17 * 3 * 336 * 336, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    {
      double kept = i == 0 ? 361406976.0 : 109748736.0;

      g_object_set (e, "engine-version", v[i], NULL);
      g_assert_cmpfloat (vc_engine_mm_vllm_item_tokens (in), ==, i == 0 ? 2467 : 2448);
      g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 4, &mm));
      g_assert_cmpfloat (mm.items, ==, 3);
      g_assert_cmpfloat (mm.budget_tokens, ==, 8192);
      g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + tokens * 9152 * 2);
      g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 573177984.0);
      g_assert_cmpfloat (mm.cache_bytes, ==, i == 0 ? pixels + 3 * 2448 * 5120 * 2.0 + 3 * 8192 * 5120 * 2.0
                                                   : pixels + 3 * 2448 * 5120 * 2.0);
      g_assert_cmpfloat (mm.cache_bytes, ==, kept);
      g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 8, &mm));
      g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + tokens * 8096 * 2);
      g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 511028160.0);
      g_assert_cmpfloat (mm.cache_bytes, ==, kept);
      /* the text pass (the model without its tower's profile) with the embeddings is the peak */
      g_object_set (e, "encoder-params", 0, NULL);
      text = vc_estimator_vllm_profile_bytes (in, 8192, 1024, 4) - VC_VLLM_NON_TORCH_BYTES;
      g_object_set (e, "encoder-params", 871932416, NULL);
      g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (in, 8192, 1024, 4), ==,
                         text + kept + VC_VLLM_NON_TORCH_BYTES);
      g_assert_cmpstr (vc_engine_no_figure (in), ==, NULL);
    }
  /* a budget where the two counts part: 7,344 batched tokens hold 3 images of 2,448
   * embeddings (0.14) but 2 of 2,467 tokens (0.11) */
  g_assert_true (vc_engine_mm_vllm_profile (in, 7344, 1024, 4, &mm));
  g_assert_cmpfloat (mm.items, ==, 3);
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, NULL);
  g_assert_true (vc_engine_mm_vllm_profile (in, 7344, 1024, 4, &mm));
  g_assert_cmpfloat (mm.items, ==, 2);
}

/* Llama 4 Scout Instruct's KV cache at TP 4 and TP 8 on H100s through vLLM 0.11, 0.14 and
 * 0.17 with its tower's profile (test_vllm_mm_llama4_later), from its folder
 * (tests/hf-config) with a preprocessor_config.json of max_patches 16. Each rank gets 0.9 of
 * the H100's 79.22 GiB (76,555,380,326 bytes) less its weights (57,013,554,560 bytes at TP 4,
 * 29,854,490,048 at TP 8) and the profile (the text pass, the embeddings kept and 133 MiB
 * outside PyTorch, as the in-process estimate gives it for the catalog's Scout, whose config
 * differs only in its RoPE, and at 0.17 the Triton sampler's buffer of the H100's 132 SMs); a token is 1,024 bytes a layer at TP 4 (2 KV heads of 128), 512 at
 * TP 8, so a block of 16 tokens of a group's 12 layers (36 chunked and 12 full layers: 4
 * groups) is 196,608 or 98,304 bytes, and the cache holds floor(blocks / 4) × 16 tokens. At
 * TP 4: 0.11 11,094,980,326 bytes, 56,431 blocks, 225,712 tokens; 0.14 11,178,866,406, 56,857,
 * 227,424; 0.17 16,037,716,710, 81,572, 326,288. At TP 8: 0.11 38,254,044,838, 389,140,
 * 1,556,560; 0.14 38,337,930,918, 389,993, 1,559,968; 0.17 43,196,781,222, 439,420,
 * 1,757,680. */
static void
test_vllm_mm_llama4_kv (void)
{
  g_autoptr(VcEstimate) scout = hybrid ("llama-4-scout-17b-16e", 8192);
  g_autofree char *dir = vc_test_make_tmpdir ("llama4-kv");
  g_autofree char *src = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                           "Llama-4-Scout-17B-16E-Instruct", "config.json", NULL);
  g_autofree char *dst = g_build_filename (dir, "config.json", NULL);
  g_autofree char *pre = g_build_filename (dir, "preprocessor_config.json", NULL);
  g_autofree char *text = NULL;
  const char *versions[] = { "0.11", "0.14", "0.17" }, *tps[] = { "4", "8" };
  const VcVllmVersion v[] = { VC_VLLM_VERSION_0_11, VC_VLLM_VERSION_0_14, VC_VLLM_VERSION_0_17 };
  const double weights[] = { 57013554560.0, 29854490048.0 }, block[] = { 196608.0, 98304.0 };
  const double available[2][3] = { { 11094980326.0, 11178866406.0, 16037716710.0 },
                                    { 38254044838.0, 38337930918.0, 43196781222.0 } };
  const gint64 kv_tokens[2][3] = { { 225712, 227424, 326288 }, { 1556560, 1559968, 1757680 } };
  g_autoptr(GError) error = NULL;

  g_assert_true (g_file_get_contents (src, &text, NULL, &error));
  g_assert_true (g_file_set_contents (dst, text, -1, &error));
  g_assert_true (g_file_set_contents (pre, "{\"max_patches\": 16}", -1, &error));
  g_object_set (scout, "encoder-image-tokens", 2467, "encoder-image-embeds", 2448, "encoder-patches", 9792,
                "encoder-pixel-values", 17 * 3 * 336 * 336, NULL);
  for (guint t = 0; t < G_N_ELEMENTS (tps); t++)
    for (guint i = 0; i < G_N_ELEMENTS (versions); i++)
      {
        g_autoptr(JsonParser) parser = json_parser_new ();
        const char *args[] = { "--config", dir, "--engine", "vllm", "--engine-version", versions[i], "--tp", tps[t],
                               "--seq", "8192", "--fit-gpu", "h100-80gb", "--format", "json", NULL };
        JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");
        double avail = json_object_get_double_member (engine, "available_kv_bytes");
        double profile = json_object_get_double_member (engine, "profile_bytes");

        /* 0.17's Triton top-k/top-p buffer, 132 SMs × 202,048 × 4 bytes, needs the card */
        double triton = json_object_get_null_member (engine, "vllm_triton_buffer") ? 0 : 132 * 202048 * 4.0;

        g_object_set (scout, "engine-version", v[i], NULL);
        g_assert_cmpfloat (profile, ==, triton + vc_estimator_vllm_profile_bytes (vc_estimate_get_inputs (scout), 8192,
                                                                                 1024, t == 0 ? 4 : 8));
        g_assert_cmpfloat (json_object_get_double_member (engine, "budget_bytes"), ==, 76555380326.0);
        g_assert_cmpfloat (avail, ==, 76555380326.0 - weights[t] - profile);
        g_assert_cmpfloat (avail, ==, available[t][i]);
        g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==,
                         (gint64) (floor (floor (avail / block[t]) / 4) * 16));
        g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, kv_tokens[t][i]);
        g_assert_true (json_object_get_null_member (engine, "no_figure"));
      }
  vc_test_remove_tree (dir);
}

static void
test_vllm_mm_qwen3_vl (void)
{
  g_autoptr(VcEstimate) e = qwen3_vl_8b (32768);
  const VcInputs *in = vc_estimate_get_inputs (e);
  double pixels = 65536 * 1536 * 2.0, held = 1152 + 72 + 3 * 1024, text, deepstack = 3 * 8192 * 4096 * 2.0;
  VcVllmMmProfile mm;
  VcKvCapacity kv;

  /* the tower from config.json */
  g_assert_cmpuint (in->arch.encoder_tower, ==, VC_ENCODER_TOWER_QWEN3_VL);
  g_assert_cmpuint (in->arch.encoder_patch_held, ==, held);
  g_assert_cmpuint (in->arch.encoder_embed_width, ==, 16384);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  /* the budget max(8,192, 16,384): one image */
  g_assert_cmpfloat (mm.items, ==, 1);
  g_assert_cmpfloat (mm.budget_tokens, ==, 16384);
  /* a block past the last deepstack index at the attention: the input, norm1's, qkv (3h), q and
   * k concatenated, rotated (o1, o2 and their concatenation): 11 × 1,152, beside what a patch
   * keeps: 1,152 + 72 + 3 × 1,024 */
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + 65536 * (held + 11 * 1152) * 2.0);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 2425356288.0);
  /* the embeddings of the merger and three deepstack mergers, 4 × 4,096 wide: 16,384 rows, as
   * many as the budget, so no copy */
  g_assert_cmpfloat (mm.cache_bytes, ==, pixels + 16384 * 16384 * 2.0);
  g_assert_cmpfloat (mm.cache_bytes, ==, 738197504.0);
  g_assert_cmpfloat (mm.later_cache_bytes, ==, mm.cache_bytes);
  g_assert_cmpfloat (mm.deepstack_bytes, ==, deepstack);
  /* TP 2: the gathered qkv (3h more) against the halves: 11h again */
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 2, &mm));
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 2425356288.0);
  /* 32,768 batched tokens: two images, each copied to the budget's rows at 0.11 */
  g_assert_true (vc_engine_mm_vllm_profile (in, 32768, 1024, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 2);
  g_assert_cmpfloat (mm.cache_bytes, ==, 2 * (pixels + 16384 * 16384 * 2.0 + 32768 * 16384 * 2.0));
  g_assert_cmpfloat (mm.later_cache_bytes, ==, 2 * (pixels + 16384 * 16384 * 2.0));
  g_assert_cmpfloat (mm.deepstack_bytes, ==, 4 * deepstack);
  /* the profile: the text pass with the embeddings, the deepstack buffers throughout */
  g_object_set (e, "encoder-params", 0, NULL);
  text = vc_estimator_vllm_profile_bytes (in, 8192, 1024, 1) - VC_VLLM_NON_TORCH_BYTES;
  g_object_set (e, "encoder-params", 576388336, NULL);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (in, 8192, 1024, 1), ==,
                     deepstack + MAX (mm.encoder_pass_bytes, text + mm.cache_bytes) + VC_VLLM_NON_TORCH_BYTES);
  g_assert_cmpstr (vc_engine_no_figure (in), ==, NULL);
  h100_capacity (e, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, 350560);
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_14, NULL);
  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, NULL);

  /* not followed: release 0.10, a video of more tokens than the image or of unknown tokens,
   * --mm-encoder-tp-mode data at TP 2 (at TP 1 it is the same pass), PP 2 */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_10, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, "encoder-video-tokens", 16385, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "encoder-video-tokens", 0, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "encoder-video-tokens", 16384, NULL);
  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "mm-encoder-tp-mode", VC_MM_ENCODER_TP_MODE_DATA, NULL);
  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "tp", 2, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  g_object_set (e, "mm-encoder-tp-mode", VC_MM_ENCODER_TP_MODE_WEIGHTS, NULL);
  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  g_assert_false (vc_engine_mm_vllm_followed (in, 2));
  /* 0.11.0's dummy video: 1,499 images' worth of context make it three frames, two pairs */
  g_object_set (e, "tp", 1, "encoder-image-tokens", 64, "encoder-image-embeds", 64, "encoder-video-tokens", 64,
                "seq", 1498 * 64 + 63, NULL);
  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "seq", 1499 * 64, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_14, NULL);
  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  /* the rope table: without its rows (no mrope_section) no figure */
  g_object_set (e, "rope-table-rows", 0, NULL);
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "rope-table");
  /* SGLang (server_args.py, adjust_mem_fraction_for_vlm): getattr(vision_config,
   * "num_hidden_layers", 24) layers, Qwen3VLVisionConfig having only depth, of hidden_size 1,152:
   * ratio 24 × 1,152² / (24 × 1,024²) = 1.265625, factor 0.95 × (1 − 0.1 × 0.265625) = 0.95 ×
   * 0.9734375 = 0.924765625, so 0.835 on an H100 (81,559 MiB) becomes 0.772179296875; the cache
   * then waits on SGLang's MRotaryEmbedding table, not followed */
  g_object_set (e, "rope-table-rows", 1048576, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);
  g_assert_cmpuint (in->arch.encoder_layers, ==, 24);
  g_assert_cmpuint (in->arch.encoder_width, ==, 1152);
  g_assert_cmpfloat_with_epsilon (vc_engine_sglang_vlm_factor (&in->arch), 0.924765625, 1e-15);
  g_assert_cmpfloat_with_epsilon (vc_engine_sglang_fraction (in, 81559, 1), 0.772179296875, 1e-15);
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "rope-table");
}

/* Qwen3-VL-4B from the catalog's preset with its processor files (data/models/qwen3-vl-4b-instruct,
 * the same settings as the 8B's): one 4,096² image of 65,536 patches and 16,384 tokens through a
 * tower of h = 1,024, 16 heads, I = 4,096, three deepstack levels into a text width of 2,560. A
 * patch keeps 1,024 + 64 + 3 × 2,560 / 4 = 3,008 values; a block at the attention 11h = 11,264
 * (the MLP's 2h + 2I = 10,240 below it): 65,536 × 14,272 × 2 bytes and its pixels (65,536 × 3 ×
 * 2 × 16² values, 2 bytes each) = 2,071,986,176; the embeddings 4 × 2,560 wide, 16,384 rows, with
 * the pixels 536,870,912; the deepstack buffers 3 × 8,192 × 2,560 × 2 = 125,829,120 */
static void
test_vllm_mm_qwen3_vl_4b (void)
{
  g_autoptr(VcEstimate) e = hybrid ("qwen3-vl-4b-instruct", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  double pixels = 65536 * 1536 * 2.0;
  VcVllmMmProfile mm;
  VcKvCapacity kv;

  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, NULL);
  g_assert_cmpuint (in->arch.encoder_image_tokens, ==, 16384);
  g_assert_cmpuint (in->arch.encoder_video_tokens, ==, 16200);
  g_assert_cmpuint (in->arch.encoder_patch_held, ==, 1024 + 64 + 3 * 640);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 1);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + 65536 * (3008 + 11 * 1024) * 2.0);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 2071986176.0);
  g_assert_cmpfloat (mm.cache_bytes, ==, pixels + 16384 * 10240 * 2.0);
  g_assert_cmpfloat (mm.cache_bytes, ==, 536870912.0);
  g_assert_cmpfloat (mm.deepstack_bytes, ==, 3 * 8192 * 2560 * 2.0);
  g_assert_cmpstr (vc_engine_no_figure (in), ==, NULL);
  h100_capacity (e, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, >, 0);
}

/* vLLM's multimodal profile run for Gemma 3 27B (vc-engine-mm.c; FORMULAS.md, "Multimodal
 * models"): an image is 896² pixels in 3 channels, (896 / 14)² = 4,096 SigLIP patches of 1,152
 * (MLP 4,304), 256 embeddings of the text model's 5,376 and a placeholder of 256 + 4 = 260
 * tokens; at vLLM's defaults for an H100 (8,192 batched tokens, 1,024 requests) the encoder
 * budget is 8,192 tokens, so 8,192 // 260 = 31 images, as vLLM 0.11.0rc2's own log says
 * ("profiled with 31 image items", tests/accuracy/measurements.csv) */
static void
test_vllm_mm_profile (void)
{
  g_autoptr(VcEstimate) e = hybrid ("gemma-3-27b-it", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  double pixels = 31 * 2408448.0 * 2, originals = 31 * 256 * 5376.0 * 2;
  double text = 1024 * 262144.0 * 38 + 8192 * 5376.0 * 2;
  VcVllmMmProfile mm;
  VcKvCapacity kv;

  g_assert_cmpuint (in->arch.encoder_intermediate, ==, 4304);
  g_assert_cmpuint (in->arch.encoder_patches, ==, 4096);
  g_assert_cmpuint (in->arch.encoder_pixel_values, ==, 3 * 896 * 896);
  g_assert_cmpuint (in->arch.encoder_image_tokens, ==, 260);
  g_assert_cmpuint (in->arch.encoder_image_embeds, ==, 256);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 31);
  g_assert_cmpfloat (mm.budget_tokens, ==, 8192);
  /* the MLP's activation at a layer past the first: the embeddings, the residual, layer_norm2's
   * output (3 × 1,152) and fc1's and the activation's outputs (2 × 4,304) a patch, in bf16 */
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + 31 * 4096 * (3 * 1152 + 2 * 4304) * 2.0);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 3213000704.0);
  /* 0.11.x copies each image's 256 rows into 8,192 (the budget); later releases into its 260 */
  g_assert_cmpfloat (mm.cache_bytes, ==, pixels + originals + 31 * 8192 * 5376 * 2.0);
  g_assert_cmpfloat (mm.cache_bytes, ==, 2965143552.0);
  g_assert_cmpfloat (mm.later_cache_bytes, ==, pixels + originals + 31 * 260 * 5376 * 2.0);
  g_assert_cmpfloat (mm.later_cache_bytes, ==, 321312768.0);
  /* the text pass, the sampler's logits setting it, with the embeddings kept */
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (in, 8192, 1024, 1), ==,
                     text + mm.cache_bytes + VC_VLLM_NON_TORCH_BYTES);
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (in, 8192, 1024, 1), ==, 13393231872.0);
  h100_capacity (e, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, 13808);

  /* TP 2 splits qkv, attention and the MLP: the output projection's point now holds most, the
   * embeddings, the residual, layer_norm1's, qkv and attention halved, out_proj's partial sums
   * and their all-reduce: 4 × 1,152 + 4 × 576 + 1,152 values a patch */
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 2, &mm));
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + 31 * 4096 * (4 * 1152 + 4 * 576 + 1152) * 2.0);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 2197192704.0);

  /* a smaller budget: 2,048 tokens hold 7 images */
  g_assert_true (vc_engine_mm_vllm_profile (in, 2048, 256, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 7);
  g_assert_cmpfloat (mm.cache_bytes, ==, 7 * (2408448.0 * 2 + 256 * 5376 * 2 + 2048 * 5376 * 2));
  g_assert_cmpfloat (mm.cache_bytes, ==, 207126528.0);
  /* --limit-mm-per-prompt caps them at max_num_seqs × the limit: 4 requests of 2 images */
  g_object_set (e, "limit-mm-per-prompt", 2, NULL);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 4, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 8);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 31);
  /* 0 serves text only: whether the release then loads the tower is not followed */
  g_object_set (e, "limit-mm-per-prompt", 0, NULL);
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  g_object_set (e, "limit-mm-per-prompt", 999, NULL);
  /* the requests cap the images: one request of 300 tokens holds one image */
  g_object_set (e, "seq", 300, NULL);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 1);
  /* a budget of one image and one request: the encoder's pass sets the peak */
  g_assert_true (vc_engine_mm_vllm_profile (in, 260, 1, 1, &mm));
  g_assert_cmpfloat (mm.budget_tokens, ==, 260);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 2408448.0 * 2 + 4096 * 12064 * 2.0);
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (in, 260, 1, 1), ==, mm.encoder_pass_bytes + VC_VLLM_NON_TORCH_BYTES);
  g_object_set (e, "seq", 8192, NULL);

  /* not followed: two pipeline stages, release 0.21, another engine, a tower whose image is not
   * known; --kv-cache-memory still gives the cache */
  g_object_set (e, "pp", 2, NULL);
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  g_object_set (e, "pp", 1, "engine-version", VC_VLLM_VERSION_0_21, "enforce-eager", TRUE, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  h100_capacity (e, &kv);
  g_assert_true (kv.known);
  g_object_set (e, "kv-cache-memory", 0.0, "engine-version", VC_VLLM_VERSION_0_10, "enforce-eager", FALSE, NULL);
  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "engine", VC_ENGINE_VLLM, "encoder-image-tokens", 0, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  /* without the tower, the text model's profile alone */
  g_object_set (e, "encoder-params", 0, NULL);
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (in, 8192, 1024, 1), ==, text + VC_VLLM_NON_TORCH_BYTES);
}

/* Mistral 3's images in vLLM's profile run (vc-engine-mm.c, vc-hf-config.c
 * pixtral_vllm_image): Mistral Small 3.1's dummy image is its config.json's 1,540² (vLLM 0.11's
 * mistral3.py and pixtral.py read no preprocessor_config.json), 3,080 prompt tokens (55 rows of
 * 55 [IMG] and a break), so vLLM's defaults for an H100 (8,192 batched tokens, 1,024 requests)
 * profile 8,192 // 3,080 = 2 images; a budget of 2,048 tokens grows to one image's 3,080. The
 * Pixtral tower's pass is followed (test_vllm_mm_pixtral_pass); where it is not (release 0.21),
 * vLLM's capacity stays unknown, the report saying why, unless --kv-cache-memory gives the
 * cache. */
static void
test_vllm_mm_pixtral_items (void)
{
  g_autoptr(VcEstimate) e = hybrid ("mistral-small-3.1-24b-instruct", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  double budget, items;
  VcVllmMmProfile mm;
  VcKvCapacity kv;

  g_assert_cmpuint (in->arch.encoder_tower, ==, VC_ENCODER_TOWER_PIXTRAL);
  g_assert_cmpuint (in->arch.encoder_image_tokens, ==, 3080);
  g_assert_cmpuint (in->arch.encoder_image_embeds, ==, 3025);
  g_assert_cmpuint (in->arch.encoder_patches, ==, 12100);
  g_assert_cmpuint (in->arch.encoder_pixel_values, ==, 3 * 1540 * 1540);
  g_assert_true (vc_engine_mm_vllm_items (in, 8192, 1024, &budget, &items));
  g_assert_cmpfloat (budget, ==, 8192);
  g_assert_cmpfloat (items, ==, 2);
  g_assert_true (vc_engine_mm_vllm_items (in, 2048, 256, &budget, &items));
  g_assert_cmpfloat (budget, ==, 3080);
  g_assert_cmpfloat (items, ==, 1);
  /* a context of 4,096 tokens holds one image a request: 3 requests, 3 images at most */
  g_object_set (e, "seq", 4096, NULL);
  g_assert_true (vc_engine_mm_vllm_items (in, 16384, 3, &budget, &items));
  g_assert_cmpfloat (items, ==, 3);
  g_object_set (e, "limit-mm-per-prompt", 0, NULL);
  g_assert_false (vc_engine_mm_vllm_items (in, 8192, 1024, &budget, &items));
  g_object_set (e, "limit-mm-per-prompt", 999, "seq", 8192, NULL);

  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  h100_capacity (e, &kv);
  g_assert_true (kv.known);
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_21, "enforce-eager", TRUE, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_assert_false (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  h100_capacity (e, &kv);
  g_assert_false (kv.known);
  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  h100_capacity (e, &kv);
  g_assert_true (kv.known);
  /* the widths unknown (a tower typed in without them): no pass, so no figure */
  g_object_set (e, "kv-cache-memory", 0.0, "engine-version", VC_VLLM_VERSION_0_11, "enforce-eager", FALSE,
                "encoder-width", 0, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "encoder");
  /* a SigLIP tower needs its layers as well: the Pixtral reader leaves them 0 (SGLang's
   * fraction), so the same images through SigLIP are followed once they are given */
  g_object_set (e, "encoder-tower", VC_ENCODER_TOWER_SIGLIP, "encoder-width", 1024, NULL);
  g_assert_false (vc_engine_mm_vllm_followed (in, 1));
  g_object_set (e, "encoder-layers", 24, NULL);
  g_assert_true (vc_engine_mm_vllm_followed (in, 1));
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 2);
  g_assert_cmpfloat (mm.mask_bytes, ==, 0);
}

/* Mistral Small 3.1's Pixtral tower through vLLM's profile run (vc-engine-mm.c,
 * pixtral_patch_peak_values; FORMULAS.md, "Multimodal models"): width h = 1,024, MLP I = 4,096,
 * 12,100 patches an image, 3 × 1,540² pixel values. A patch of a block past the first holds,
 * besides the patch convolution's and ln_pre's outputs (2h, held throughout), at the MLP's
 * activation the block's input, its residual and ffn_norm's output (3h) with gate_up and the
 * activation's (3I / TP): 5 × 1,024 + 3 × 4,096 = 17,408 values at TP 1, in bf16; at TP 2 the
 * MLP halved and down_proj's all-reduce: 6 × 1,024 + 6,144 = 12,288. The attention point
 * (11h at TP 1) stays below. vLLM's defaults for an H100 profile 2 images, 24,200 patches.
 * With xformers (0.10) the mask is a BlockDiagonalMask, nothing held; without (0.11, counted
 * as 0.13, and 0.14, 0.17) a dense mask of 24,200² bf16 values for the whole pass. One image
 * is 12,100 patches, not a multiple of 8: PyTorch's memory-efficient attention pads the mask
 * into a new 12,100 × 12,104 tensor at each call, which then sets the peak at the attention. */
static void
test_vllm_mm_pixtral_pass (void)
{
  g_autoptr(VcEstimate) e = hybrid ("mistral-small-3.1-24b-instruct", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  double pixels = 2 * 3 * 1540 * 1540 * 2.0, n = 24200, mask = n * n * 2;
  double text = 1024 * 131072.0 * 38 + 8192 * 5120.0 * 2;
  VcVllmMmProfile mm;

  g_assert_cmpuint (in->arch.encoder_width, ==, 1024);
  g_assert_cmpuint (in->arch.encoder_intermediate, ==, 4096);
  g_assert_cmpuint (in->arch.encoder_layers, ==, 0);
  /* 0.10: xformers */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_10, NULL);
  g_assert_false (vc_engine_mm_vllm_dense_mask (in));
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 2);
  g_assert_cmpfloat (mm.mask_bytes, ==, 0);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + n * 17408 * 2);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 871006400.0);
  g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 2, &mm));
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + n * 12288 * 2);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 623198400.0);
  /* the embeddings kept: 0.10 and 0.11.x copy each image's 3,025 rows into the 8,192 of the
   * budget, beside the originals and the pixels */
  g_assert_cmpfloat (mm.cache_bytes, ==, pixels + 2 * 3025 * 5120 * 2.0 + 2 * 8192 * 5120 * 2.0);
  g_assert_cmpfloat (mm.cache_bytes, ==, 258183360.0);
  /* the peak: the text pass (the sort's 38 bytes a logit) with them, above the encoder's */
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (in, 8192, 1024, 1), ==,
                     text + 258183360.0 + VC_VLLM_NON_TORCH_BYTES);

  /* 0.11 (to 0.13), 0.14 and 0.17: the dense mask, the same pass, and from 0.14 each image's
   * own 3,025 rows kept (pull request #30475), 8,192 // 3,025 = 2 images counted by their
   * embeddings */
  for (guint i = 0; i < 3; i++)
    {
      const VcVllmVersion v[] = { VC_VLLM_VERSION_0_11, VC_VLLM_VERSION_0_14, VC_VLLM_VERSION_0_17 };

      g_object_set (e, "engine-version", v[i], NULL);
      g_assert_true (vc_engine_mm_vllm_dense_mask (in));
      g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 1, &mm));
      g_assert_cmpfloat (mm.mask_bytes, ==, mask);
      g_assert_cmpfloat (mm.mask_bytes, ==, 1171280000.0);
      g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels + mask + n * 17408 * 2);
      g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 2042286400.0);
      g_assert_cmpfloat (mm.items, ==, 2);
      g_assert_cmpfloat (mm.cache_bytes, ==, i == 0 ? 258183360.0 : pixels + 2 * 3025 * 5120 * 2.0);
      g_assert_true (vc_engine_mm_vllm_profile (in, 8192, 1024, 2, &mm));
      g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 1794478400.0);
      /* (0.17's sampler is another's: its figure is checked with the sampler's tests) */
      if (i < 2)
        g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (in, 8192, 1024, 1), ==,
                           text + (i == 0 ? 258183360.0 : 90411200.0) + VC_VLLM_NON_TORCH_BYTES);
    }

  /* one image, one request: the padded copy at the attention (11h a patch) sets the peak */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, NULL);
  g_assert_true (vc_engine_mm_vllm_profile (in, 3080, 1, 1, &mm));
  g_assert_cmpfloat (mm.items, ==, 1);
  g_assert_cmpfloat (mm.mask_bytes, ==, 12100.0 * 12100 * 2);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==,
                     pixels / 2 + 12100.0 * 12100 * 2 + 12100.0 * 11264 * 2 + 12100.0 * 12104 * 2);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 872555200.0);
  /* with xformers, the MLP's point: 12,100 × 17,408 values */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_10, NULL);
  g_assert_true (vc_engine_mm_vllm_profile (in, 3080, 1, 1, &mm));
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, pixels / 2 + 12100.0 * 17408 * 2);
  g_assert_cmpfloat (mm.encoder_pass_bytes, ==, 435503200.0);

  /* the same figures from Mistral Small 3.1's config.json as from the preset, at TP 1 and 2 */
  for (guint tp = 1; tp <= 2; tp++)
    {
      g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "..", "data", "models",
                                                  "mistral-small-3.1-24b-instruct", "config.json", NULL);
      g_autofree char *tps = g_strdup_printf ("%u", tp);
      const char *sources[][2] = { { "--preset", "mistral-small-3.1-24b-instruct" }, { "--config", config } };
      gint64 pass[2], kept[2], tokens[2];

      for (guint k = 0; k < 2; k++)
        {
          g_autoptr(JsonParser) parser = json_parser_new ();
          const char *args[] = { sources[k][0], sources[k][1], "--engine", "vllm", "--seq", "16000", "--tp", tps,
                                 "--fit-gpu", "h100-80gb", "--format", "json", NULL };
          JsonObject *engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");
          JsonObject *profile = json_object_get_object_member (engine, "vllm_mm_profile");

          pass[k] = json_object_get_int_member (profile, "encoder_pass_bytes");
          kept[k] = json_object_get_int_member (profile, "embeddings_bytes");
          tokens[k] = json_object_get_int_member (engine, "kv_capacity_tokens");
          g_assert_cmpint (json_object_get_int_member (profile, "attention_mask_bytes"), ==, 1171280000);
        }
      g_assert_cmpint (pass[0], ==, tp == 1 ? 2042286400 : 1794478400);
      g_assert_cmpint (pass[1], ==, pass[0]);
      g_assert_cmpint (kept[1], ==, kept[0]);
      g_assert_cmpint (tokens[1], ==, tokens[0]);
      g_assert_cmpint (tokens[0], >, 0);
    }
}

/* The catalog's multimodal models whose vision encoder the reader counts (Qwen3-VL, Llama 4,
 * Gemma 3): vLLM's profile run passes its dummy items through the encoder (FORMULAS.md,
 * "Multimodal models"), followed for Gemma 3, whose image follows from config.json (its
 * sliding-window groups then followed for each card, not at a layout), and for the Qwen3-VL
 * presets that carry Qwen's processor files (4B and 8B); for the others the tokens of an image
 * are the processor's, so no figure unless --kv-cache-memory gives the cache. SGLang serves
 * Gemma 3 and Llama 4 without images by default (mm_disabled_models), their towers loaded all
 * the same: its text-model fraction, the encoder in the weights, so a figure. Qwen3-VL is
 * served with images, its fraction lowered by getattr(vision_config, "num_hidden_layers", 24):
 * Qwen3VLVisionConfig has depth and no num_hidden_layers, so 24 layers of its hidden_size; its
 * cache then waits on SGLang's multimodal rope table, not followed ("rope-table"). */
static void
test_encoder_refused (void)
{
  static const struct
  {
    const char *id;
    guint layers, width;
    gboolean off;      /* SGLang serves it without images by default */
    guint gpus;        /* H100s that hold its weights in 16 bits (0: not compared) */
    gboolean vllm;     /* vLLM's profile run followed */
  } counted[] = {
    { "qwen3-vl-2b-instruct", 24, 1024, FALSE, 1, FALSE },
    { "qwen3-vl-4b-instruct", 24, 1024, FALSE, 1, TRUE },
    { "qwen3-vl-8b-instruct", 24, 1152, FALSE, 1, TRUE },
    { "qwen3-vl-30b-a3b-instruct", 24, 1152, FALSE, 1, FALSE },
    { "llama-4-scout-17b-16e", 34, 1408, TRUE, 8, FALSE },
    { "llama-4-maverick-17b-128e", 34, 1408, TRUE, 0, FALSE },
    { "gemma-3-4b-it", 27, 1152, TRUE, 1, TRUE },
    { "gemma-3-12b-it", 27, 1152, TRUE, 1, TRUE },
    { "gemma-3-27b-it", 27, 1152, TRUE, 1, TRUE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (counted); i++)
    {
      g_autoptr(VcEstimate) e = hybrid (counted[i].id, 8192);
      const VcInputs *in = vc_estimate_get_inputs (e);
      guint h100 = vc_test_gpu_index (e, "h100-80gb");
      VcKvCapacity kv, given;
      /* adjust_mem_fraction_for_vlm: 0.95 × clamp(1 − 0.1 × (L·w² / (24 × 1024²) − 1), 0.8, 1.05) */
      double factor = 0.95 * CLAMP (1 - 0.1 * ((double) counted[i].layers * counted[i].width * counted[i].width /
                                               (24.0 * 1024 * 1024) - 1), 0.8, 1.05);

      g_test_message ("%s", counted[i].id);
      g_assert_cmpuint (in->arch.encoder_params, >, 0);
      g_assert_cmpuint (in->arch.encoder_layers, ==, counted[i].layers);
      g_assert_cmpuint (in->arch.encoder_width, ==, counted[i].width);
      g_assert_cmpint (in->arch.sglang_multimodal_off, ==, counted[i].off);
      g_assert_cmpint (vc_engine_mm_vllm_followed (in, 1), ==, counted[i].vllm);
      g_assert_cmpstr (vc_engine_no_figure (in), ==, counted[i].vllm ? NULL : "encoder");
      g_object_set (e, "engine", VC_ENGINE_SGLANG, "sglang-one-stage", FALSE, NULL);
      if (!counted[i].off)
        {
          g_assert_cmpfloat (vc_engine_sglang_fraction (in, 81559, 1), ==, 0.835 * factor);
          g_assert_cmpstr (vc_engine_no_figure (in), ==, "rope-table");
        }
      else
        {
          double n = counted[i].gpus;

          g_assert_cmpfloat (vc_engine_sglang_fraction (in, 81559, 1), ==, 0.835);
          g_assert_cmpstr (vc_engine_no_figure (in), ==, NULL);
          /* with images (--enable-multimodal, not an input here) SGLang would lower it */
          g_object_set (e, "sglang-multimodal-off", FALSE, NULL);
          g_assert_cmpfloat_with_epsilon (vc_engine_sglang_fraction (in, 81559, 1), 0.835 * factor, 1e-15);
          g_assert_cmpstr (vc_engine_no_figure (in), ==, NULL);
          g_object_set (e, "sglang-multimodal-off", TRUE, NULL);
          if (n > 0)
            {
              /* the cache at the text model's default, the tower among the weights */
              vc_engine_kv_capacity_on (in, vc_estimate_get_result (e), vc_estimate_get_selected (e),
                                        vc_estimate_get_gpu (e, h100), n, &kv);
              g_assert_true (kv.known);
              g_assert_cmpfloat (kv.tokens, >, 0);
              g_object_set (e, "mem-fraction-static", vc_engine_sglang_fraction (in, 81559, n), NULL);
              vc_engine_kv_capacity_on (in, vc_estimate_get_result (e), vc_estimate_get_selected (e),
                                        vc_estimate_get_gpu (e, h100), n, &given);
              g_assert_cmpfloat (given.tokens, ==, kv.tokens);
              /* and smaller than without the tower's weights */
              g_object_set (e, "mem-fraction-static", 0.0, NULL);
              g_object_set (e, "encoder-params", 0, NULL);
              vc_engine_kv_capacity_on (in, vc_estimate_get_result (e), vc_estimate_get_selected (e),
                                        vc_estimate_get_gpu (e, h100), n, &given);
              g_assert_cmpfloat (given.tokens, >, kv.tokens);
            }
        }
      g_object_set (e, "mem-fraction-static", 0.8, NULL);
      g_assert_cmpstr (vc_engine_no_figure (in), !=, "encoder");
      g_object_set (e, "engine", VC_ENGINE_VLLM, "kv-cache-memory", 20.0, NULL);
      g_assert_cmpstr (vc_engine_no_figure (in), !=, "encoder");
    }
}

/* Qwen3-Next-80B-A3B over TP ranks (vc-engine-state.c, splits_evenly): its 16 key heads and 32
 * value heads divide by 2 and 4, so a rank keeps half or a quarter of each DeltaNet layer's
 * state: 548,864 / 2 = 274,432 values (3 × 4,096 channels + 16 × 128 × 128), 548,864 bytes; its
 * 2 KV heads leave 1 a rank (replicated at TP 4), 1,024 bytes a token in a layer.
 * TP 2: a block of 16 × cdiv(548,864, 16,384) = 544 tokens, a page of 557,056 bytes (the state
 * padded by 1.49 %); 20 GB a rank: 20e9 // 557,056 = 35,903 pages, // 12 = 2,991 blocks,
 * 2,991 // 4 × 544 = 406,368 tokens; a request of 8,192 tokens: 16 + 3 blocks.
 * TP 4: 274,432 bytes of state, a block of 16 × cdiv(274,432, 16,384) = 272 tokens, a page of
 * 278,528 bytes; 20e9 // 278,528 = 71,806 pages, // 12 = 5,983 blocks, 1,495 × 272 = 406,640 tokens; a
 * request: 31 + 3 blocks. */
static void
test_tensor_parallel (void)
{
  g_autoptr(VcEstimate) e = hybrid ("qwen3-next-80b-a3b-instruct", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  VcVllmStateSpec spec;
  VcEngineAtLayout at;

  g_assert_cmpuint (in->arch.recurrent_heads, ==, 32);
  g_assert_cmpuint (in->arch.recurrent_groups, ==, 16);
  g_assert_true (vc_engine_state_vllm_spec (in, 2, 12 * 1024.0, &spec));
  g_assert_cmpfloat (spec.state_page_bytes, ==, 548864);
  g_assert_cmpfloat (spec.attention_token_bytes, ==, 1024);
  g_assert_cmpuint (spec.block_size, ==, 544);
  g_assert_cmpfloat (spec.page_bytes, ==, 557056);
  g_assert_cmpfloat (spec.group_size, ==, 12);

  g_object_set (e, "kv-cache-memory", 20.0, "tp", 2, NULL);
  at_layout (e, &at);
  g_assert_true (at.known);
  g_assert_cmpuint (at.block_size, ==, 544);
  g_assert_cmpfloat (at.state_page_bytes, ==, 557056);
  g_assert_cmpfloat (at.tokens, ==, 406368);
  g_assert_cmpfloat (at.max_concurrency, ==, 2991.0 / 19);
  g_assert_null (vc_engine_no_figure (in));

  g_object_set (e, "tp", 4, NULL);
  at_layout (e, &at);
  g_assert_true (at.known);
  g_assert_cmpuint (at.block_size, ==, 272);
  g_assert_cmpfloat (at.state_page_bytes, ==, 278528);
  g_assert_cmpfloat (at.tokens, ==, 406640);
  g_assert_cmpfloat (at.max_concurrency, ==, 5983.0 / 34);

  /* two replicas of TP 2 on 4 GPUs serve twice the requests of one */
  g_object_set (e, "tp", 2, "dp", 2, NULL);
  at_layout (e, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.tokens, ==, 406368);
  g_assert_cmpfloat (at.max_concurrency, ==, 2 * 2991.0 / 19);
  g_object_set (e, "dp", 1, NULL);

  /* TP 3 divides neither count; pipeline stages, and heads or groups unknown, are not followed */
  g_assert_false (vc_engine_state_vllm_followed (in, 3, 1));
  g_assert_false (vc_engine_state_vllm_followed (in, 2, 2));
  g_object_set (e, "tp", 1, "pp", 2, NULL);
  at_layout (e, &at);
  g_assert_false (at.known);
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");
  g_object_set (e, "pp", 1, "tp", 2, "recurrent-groups", 0, NULL);
  at_layout (e, &at);
  g_assert_false (at.known);
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");
  g_object_set (e, "tp", 1, NULL);
  at_layout (e, &at);
  g_assert_true (at.known);
  g_assert_cmpuint (at.block_size, ==, 544);
}

/* The GPU table's path (vc_engine_kv_capacity_on at n GPUs) gives the layout's figures at TP n:
 * the same rank, block and pages; and vramcalc's JSON for Qwen3-Next at TP 2 */
static void
test_tensor_parallel_paths (void)
{
  g_autoptr(VcEstimate) e = hybrid ("qwen3-next-80b-a3b-instruct", 8192);
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *args[] = { "--preset", "qwen3-next-80b-a3b-instruct", "--engine", "vllm", "--seq", "8192",
                         "--tp", "2", "--kv-cache-memory", "20", "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  JsonObject *engine;
  const VcResult *r;
  VcKvCapacity kv;
  guint h100;

  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  h100 = vc_test_gpu_index (e, "h100-80gb");
  r = vc_estimate_get_result (e);
  for (guint n = 1; n <= 4; n *= 2)
    {
      VcEngineAtLayout at;

      vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected],
                                vc_estimate_get_gpu (e, h100), n, &kv);
      g_object_set (e, "tp", n, NULL);
      at_layout (e, &at);
      g_assert_true (kv.known);
      g_assert_true (at.known);
      g_assert_cmpfloat (kv.tokens, ==, at.tokens);
      g_assert_cmpfloat (kv.max_concurrency, ==, at.max_concurrency);
      g_object_set (e, "tp", 1, NULL);
      r = vc_estimate_get_result (e);
    }
  /* three GPUs divide neither the 16 key heads nor the 32 value heads */
  vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected],
                            vc_estimate_get_gpu (e, h100), 3, &kv);
  g_assert_false (kv.known);

  engine = json_object_get_object_member (vc_test_run_json (parser, args), "engine");
  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 406368);
  g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, 2991.0 / 19);
  g_assert_cmpint (json_object_get_int_member (engine, "state_block_size"), ==, 544);
  g_assert_cmpint (json_object_get_int_member (engine, "state_page_bytes"), ==, 557056);
  g_assert_true (json_object_get_null_member (engine, "no_figure"));
}

/* Granite 4.0-H Tiny's Mamba-2 has one group, which vLLM repeats on each rank under TP
 * (MambaStateShapeCalculator.mamba2_state_shape, extra_groups_for_head_shards; MambaMixer2's
 * mamba_v2_sharded_weight_loader): N 128, 48 heads of 64 (I 3,072), kernel 4, one KV head of 128
 * on a rank of 4 or more (512 bytes a token in each of the 4 attention layers), 1,024 at TP 2.
 *  - TP 2: conv_dim 3,072 + 2 × 2 × 128 = 3,584, 1,792 × 3 + 196,608 values, 403,968 bytes; a
 *    block of 16 × cdiv(403,968, 16,384) = 400 tokens, a page of 409,600 bytes.
 *  - TP 4: 4,096 / 4 × 3 + 98,304 values, 202,752 bytes; 16 × cdiv(202,752, 8,192) = 400 tokens,
 *    a page of 204,800; 20 GB: 20e9 // 204,800 = 97,656 pages, // 4 = 24,414 blocks, 2,441 × 400
 *    = 976,400 tokens, a request 21 + 9 blocks.
 *  - TP 8 (the mixer's arithmetic: the 12 attention heads keep vLLM and vramcalc from TP 8; see
 *    Falcon-H1 below for a model that runs there): 5,120 / 8 × 3 + 49,152 values, 102,144 bytes;
 *    16 × cdiv(102,144, 8,192) = 208 tokens,
 *    a page of 106,496; 20 GB: 187,800 pages, 46,950 blocks, 4,695 × 208 = 976,560 tokens, a
 *    request 40 + 9 blocks.
 * Each rank holds (TP − 1) / TP of a group's 394,496 parameters more in each of the 36 Mamba
 * layers, in bf16: 14,201,856, 21,302,784 and 24,853,248 bytes. */
static void
test_tensor_parallel_groups (void)
{
  const guint tps[] = { 2, 4, 8 };
  const double state[] = { 403968, 202752, 102144 }, page[] = { 409600, 204800, 106496 };
  const double token[] = { 1024, 512, 512 }, repeated[] = { 14201856, 21302784, 24853248 };
  const guint block[] = { 400, 400, 208 };
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  VcVllmStateSpec spec;
  double tokens, concurrency, conv, ssm;
  VcPrecision precision;
  VcArch arch;

  g_assert_cmpuint (in->arch.recurrent_heads, ==, 48);
  g_assert_cmpuint (in->arch.recurrent_groups, ==, 1);
  for (guint t = 0; t < G_N_ELEMENTS (tps); t++)
    {
      g_object_set (e, "tp", tps[t], NULL);
      g_assert_true (vc_engine_state_vllm_followed (in, tps[t], 1));
      g_assert_null (vc_engine_no_figure (in));
      g_assert_true (vc_engine_state_vllm_spec (in, tps[t], 4 * token[t], &spec));
      g_assert_cmpfloat (spec.state_page_bytes, ==, state[t]);
      g_assert_cmpfloat (spec.attention_token_bytes, ==, token[t]);
      g_assert_cmpuint (spec.block_size, ==, block[t]);
      g_assert_cmpfloat (spec.page_bytes, ==, page[t]);
      g_assert_cmpfloat (spec.group_size, ==, 4);
      g_assert_cmpfloat (spec.attention_groups, ==, 1);
      g_assert_cmpfloat (spec.state_groups, ==, 9);
      g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, tps[t]), ==, repeated[t]);
      /* the same shape as SGLang's, only its dtypes differ */
      g_assert_true (vc_engine_state_rank_state (in, tps[t], &conv, &ssm));
      g_assert_cmpfloat ((conv + ssm) * 2, ==, state[t]);
    }
  g_assert_true (vc_engine_state_vllm_spec (in, 4, 2048, &spec));
  vc_engine_state_vllm_capacity (in, &spec, 20e9, &tokens, &concurrency);
  g_assert_cmpfloat (tokens, ==, 976400);
  g_assert_cmpfloat (concurrency, ==, 24414.0 / 30);
  g_assert_true (vc_engine_state_vllm_spec (in, 8, 2048, &spec));
  vc_engine_state_vllm_capacity (in, &spec, 20e9, &tokens, &concurrency);
  g_assert_cmpfloat (tokens, ==, 976560);
  g_assert_cmpfloat (concurrency, ==, 46950.0 / 49);

  /* what vLLM does not start with: heads TP does not divide (48 over 5), quantized weights with
   * the group repeated, two groups TP does not divide; the state size unknown */
  g_object_set (e, "tp", 5, NULL);
  g_assert_false (vc_engine_state_vllm_followed (in, 5, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");
  precision = in->precision;
  g_object_set (e, "tp", 4, "precision", VC_PRECISION_FP8, NULL);
  g_assert_false (vc_engine_state_vllm_followed (in, 4, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, 4), ==, 0);
  g_assert_true (vc_engine_state_vllm_followed (in, 1, 1));
  g_object_set (e, "precision", precision, NULL);
  arch = in->arch;
  arch.recurrent_groups = 2;
  arch.recurrent_conv = 3 * (3072 + 2 * 2 * 128);
  arch.recurrent_state = arch.recurrent_conv + 393216;
  vc_estimate_set_architecture (e, &arch);
  g_assert_true (vc_engine_state_vllm_followed (in, 2, 1));
  g_assert_false (vc_engine_state_vllm_followed (in, 4, 1));
  arch.recurrent_groups = 1;
  arch.recurrent_conv = 9984;
  arch.recurrent_state = 9984 + 393216;
  arch.mamba_state_size = 0;
  vc_estimate_set_architecture (e, &arch);
  g_assert_false (vc_engine_state_vllm_followed (in, 4, 1));
  g_assert_cmpstr (vc_engine_no_figure (in), ==, "state-pools");

  /* with groups as many as the ranks, each rank keeps its share: a quarter at TP 4 */
  g_object_set (e, "recurrent-groups", 4, NULL);
  g_assert_true (vc_engine_state_vllm_followed (in, 4, 1));
  g_assert_true (vc_engine_state_vllm_followed (in, 2, 1));
  g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, 4), ==, 0);
}

/* The same from the CLI, at the layout and on a GPU row: Granite 4.0-H Tiny on H100s at TP 4,
 * 8,192 tokens. At the layout a rank's request less its cache is the layout's busiest weights
 * (3,475,603,488 bytes, SGLang's), the repeated rows (21,302,784) and the profile run at TP 4;
 * the cache follows the TP-4 spec above; a GPU row of 4 cards gives the same figures; --explain
 * names the repeated group's share */
static void
test_tensor_parallel_groups_cli (void)
{
  g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *args[] = { "--preset", "granite-4.0-h-tiny", "--engine", "vllm", "--seq", "8192", "--tp", "4",
                         "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const char *explain[] = { "--preset", "granite-4.0-h-tiny", "--engine", "vllm", "--seq", "8192", "--tp", "4",
                            "--fit-gpu", "h100-80gb", "--explain", NULL };
  const VcInputs *in = vc_estimate_get_inputs (e);
  guint h100 = vc_test_gpu_index (e, "h100-80gb");
  const VcGpu *gpu = vc_estimate_get_gpu (e, h100);
  g_autofree char *explained = NULL, *err = NULL;
  JsonObject *root, *engine;
  JsonArray *per_gpu;
  VcVllmStateSpec spec;
  VcEngineAtLayout at;
  VcKvCapacity kv;
  const VcResult *r;
  guint batch_tokens, seqs;
  double tokens, concurrency, available;

  root = vc_test_run_json (parser, args);
  engine = json_object_get_object_member (root, "engine");
  per_gpu = json_object_get_array_member (json_object_get_object_member (root, "per_gpu"), "components");
  g_assert_true (json_object_get_null_member (engine, "no_figure"));
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (per_gpu, 0), "bytes"), ==,
                     3475603488);
  g_object_set (e, "tp", 4, NULL);
  vc_engine_vllm_batch (in, gpu, &batch_tokens, &seqs);
  available = json_object_get_double_member (engine, "available_kv_bytes");
  g_assert_cmpfloat (json_object_get_double_member (engine, "budget_bytes") - available, ==,
                     3475603488 + 21302784 + vc_estimator_vllm_profile_bytes (in, batch_tokens, seqs, 4));
  g_assert_cmpint (json_object_get_int_member (engine, "state_block_size"), ==, 400);
  g_assert_cmpint (json_object_get_int_member (engine, "state_page_bytes"), ==, 204800);
  /* the core at the layout, whose bytes the JSON gives in whole bytes */
  at_layout (e, &at);
  g_assert_true (at.known);
  g_assert_cmpint (llround (at.available_kv_bytes), ==, (gint64) available);
  g_assert_true (vc_engine_state_vllm_spec (in, 4, 2048, &spec));
  vc_engine_state_vllm_capacity (in, &spec, at.available_kv_bytes, &tokens, &concurrency);
  g_assert_cmpfloat (at.tokens, ==, tokens);
  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, (gint64) tokens);
  g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, concurrency);
  g_assert_cmpfloat (tokens, >, 976400 * 2);

  /* a GPU row of 4 cards: the busiest GPU of the layout at TP 4 with the repeated rows, as the
   * layout above; an even split of the weights would hold one block more */
  g_object_set (e, "tp", 1, NULL);
  r = vc_estimate_get_result (e);
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], gpu, 4, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.weights_bytes, ==, at.weights_bytes);
  g_assert_cmpfloat (kv.tokens, ==, at.tokens);
  g_assert_cmpfloat (kv.tokens, ==, 3368400);
  g_assert_cmpfloat (kv.max_concurrency, ==, at.max_concurrency);

  g_assert_cmpint (vc_test_run_vramcalc (explain, NULL, &explained, &err), ==, 0);
  g_assert_nonnull (strstr (explained, "at TP 4 vLLM repeats the mixer’s one group on every rank: 3072 convolution "
                                       "values a layer on each, and 21.3\u00a0MB of weights more than an even split"));
}

/* More memory never holds fewer tokens or requests, whatever the model, release or context */
static void
test_invariants (void)
{
  const char *presets[] = { "qwen3-next-80b-a3b-instruct", "granite-4.0-h-tiny" };
  const VcVllmVersion versions[] = { VC_VLLM_VERSION_0_10, VC_VLLM_VERSION_0_11 };
  const guint seqs[] = { 128, 4096, 32768 };

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    for (guint v = 0; v < G_N_ELEMENTS (versions); v++)
      for (guint q = 0; q < G_N_ELEMENTS (seqs); q++)
        {
          g_autoptr(VcEstimate) e = hybrid (presets[p], seqs[q]);
          double last_tokens = -1, last_requests = -1;

          g_object_set (e, "engine-version", versions[v], NULL);
          for (double gb = 1; gb <= 64; gb *= 2)
            {
              VcEngineAtLayout at;

              g_object_set (e, "kv-cache-memory", gb, NULL);
              at_layout (e, &at);
              g_assert_true (at.known);
              g_assert_cmpfloat (at.tokens, >=, last_tokens);
              g_assert_cmpfloat (at.max_concurrency, >=, last_requests);
              g_assert_true (isfinite (at.max_concurrency));
              /* whole blocks: the tokens are a multiple of min(block, seq) */
              g_assert_cmpfloat (fmod (at.tokens, MIN ((double) at.block_size, seqs[q])), ==, 0);
              g_assert_cmpfloat (at.block_size % 16, ==, 0);
              last_tokens = at.tokens;
              last_requests = at.max_concurrency;
            }
          g_assert_cmpfloat (last_tokens, >, 0);
        }
}

/* Under TP, a rank's state page is the one-GPU page divided by TP, the block never larger than
 * on one GPU's attention with as many KV heads, the tokens whole blocks; more memory never
 * fewer tokens or requests (vLLM 0.11, where TP is sized); with Mamba-2's one group repeated,
 * more than the share */
static void
test_tp_invariants (void)
{
  const guint seqs[] = { 128, 4096, 32768 };
  const guint tps[] = { 1, 2, 4, 8 };

  for (guint q = 0; q < G_N_ELEMENTS (seqs); q++)
    for (guint t = 0; t < G_N_ELEMENTS (tps); t++)
      {
        g_autoptr(VcEstimate) e = hybrid ("qwen3-next-80b-a3b-instruct", seqs[q]);
        const VcInputs *in = vc_estimate_get_inputs (e);
        double last_tokens = -1, last_requests = -1;
        VcVllmStateSpec one, rank;

        g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, "tp", tps[t], NULL);
        g_assert_true (vc_engine_state_vllm_spec (in, 1, 12 * 2048.0, &one));
        g_assert_true (vc_engine_state_vllm_spec (in, tps[t], 12 * 2048.0, &rank));
        g_assert_cmpfloat (rank.state_page_bytes * tps[t], ==, one.state_page_bytes);
        g_assert_cmpuint (rank.block_size, <=, one.block_size);
        g_assert_cmpfloat (rank.page_bytes, >=, rank.state_page_bytes);
        for (double gb = 1; gb <= 64; gb *= 2)
          {
            VcEngineAtLayout at;

            g_object_set (e, "kv-cache-memory", gb, NULL);
            at_layout (e, &at);
            g_assert_true (at.known);
            g_assert_null (vc_engine_no_figure (in));
            g_assert_cmpfloat (at.tokens, >=, last_tokens);
            g_assert_cmpfloat (at.max_concurrency, >=, last_requests);
            g_assert_true (isfinite (at.max_concurrency));
            g_assert_cmpfloat (fmod (at.tokens, MIN ((double) at.block_size, seqs[q])), ==, 0);
            g_assert_cmpfloat (at.block_size % 16, ==, 0);
            last_tokens = at.tokens;
            last_requests = at.max_concurrency;
          }
        g_assert_cmpfloat (last_tokens, >, 0);
      }

  /* Granite 4.0-H Tiny's one group repeated on every rank: a rank's page holds more than its
   * share of the one-GPU state (the repeated group's channels), never more than the whole;
   * more memory never fewer tokens or requests */
  for (guint t = 0; t < 3; t++)
    {
      g_autoptr(VcEstimate) e = hybrid ("granite-4.0-h-tiny", 8192);
      const VcInputs *in = vc_estimate_get_inputs (e);
      double last_tokens = -1, last_requests = -1;
      VcVllmStateSpec one, rank;

      g_object_set (e, "tp", tps[t], NULL);
      g_assert_true (vc_engine_state_vllm_spec (in, 1, 4 * 2048.0, &one));
      g_assert_true (vc_engine_state_vllm_spec (in, tps[t], 4 * 2048.0 / tps[t], &rank));
      g_assert_cmpfloat (rank.state_page_bytes * tps[t], >=, one.state_page_bytes);
      g_assert_cmpfloat (rank.state_page_bytes, <=, one.state_page_bytes);
      g_assert_cmpfloat (rank.page_bytes, >=, rank.state_page_bytes);
      g_assert_cmpfloat (vc_engine_state_repeated_bytes (in, tps[t]), ==,
                         tps[t] == 1 ? 0 : 36 * (tps[t] - 1) * 394496.0 / tps[t] * 2);
      for (double gb = 1; gb <= 64; gb *= 2)
        {
          VcEngineAtLayout at;

          g_object_set (e, "kv-cache-memory", gb, NULL);
          at_layout (e, &at);
          g_assert_true (at.known);
          g_assert_null (vc_engine_no_figure (in));
          g_assert_cmpfloat (at.tokens, >=, last_tokens);
          g_assert_cmpfloat (at.max_concurrency, >=, last_requests);
          g_assert_cmpfloat (fmod (at.tokens, at.block_size), ==, 0);
          last_tokens = at.tokens;
          last_requests = at.max_concurrency;
        }
      g_assert_cmpfloat (last_tokens, >, 0);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine-state/qwen3-next", test_qwen3_next);
  g_test_add_func ("/engine-state/granite-4-h", test_granite_4_h);
  g_test_add_func ("/engine-state/falcon-h1", test_falcon_h1);
  g_test_add_func ("/engine-state/falcon-h1-tensor-parallel", test_falcon_h1_tensor_parallel);
  g_test_add_func ("/engine-state/falcon-h1-stages", test_falcon_h1_stages);
  g_test_add_func ("/engine-state/mixer-stages", test_mixer_stages);
  g_test_add_func ("/engine-state/text", test_text);
  g_test_add_func ("/engine-state/refused", test_refused);
  g_test_add_func ("/engine-state/sglang-qwen3-next", test_sglang_qwen3_next);
  g_test_add_func ("/engine-state/sglang-granite-4-h", test_sglang_granite_4_h);
  g_test_add_func ("/engine-state/sglang-falcon-h1", test_sglang_falcon_h1);
  g_test_add_func ("/engine-state/sglang-003fca8", test_sglang_003fca8);
  g_test_add_func ("/engine-state/sglang-003fca8-cli", test_sglang_003fca8_cli);
  g_test_add_func ("/engine-state/sglang-refused", test_sglang_refused);
  g_test_add_func ("/engine-state/sglang-one-stage", test_sglang_one_stage);
  g_test_add_func ("/engine-state/sglang-one-stage-classes", test_sglang_one_stage_classes);
  g_test_add_func ("/engine-state/sglang-stages", test_sglang_stages);
  g_test_add_func ("/engine-state/sglang-stages-cli", test_sglang_stages_cli);
  g_test_add_func ("/engine-state/sglang-groups-repeated", test_sglang_groups_repeated);
  g_test_add_func ("/engine-state/sglang-groups-repeated-cli", test_sglang_groups_repeated_cli);
  g_test_add_func ("/engine-state/sglang-engine-version", test_sglang_engine_version);
  g_test_add_func ("/engine-state/sglang-text", test_sglang_text);
  g_test_add_func ("/engine-state/sglang-swa-sources", test_sglang_swa_sources);
  g_test_add_func ("/engine-state/encoder-refused", test_encoder_refused);
  g_test_add_func ("/engine-state/tensor-parallel", test_tensor_parallel);
  g_test_add_func ("/engine-state/tensor-parallel-paths", test_tensor_parallel_paths);
  g_test_add_func ("/engine-state/tensor-parallel-groups", test_tensor_parallel_groups);
  g_test_add_func ("/engine-state/tensor-parallel-groups-cli", test_tensor_parallel_groups_cli);
  g_test_add_func ("/engine-state/invariants", test_invariants);
  g_test_add_func ("/engine-state/tp-invariants", test_tp_invariants);
  g_test_add_func ("/engine-state/vllm-mm-profile", test_vllm_mm_profile);
  g_test_add_func ("/engine-state/vllm-mm-qwen3-vl", test_vllm_mm_qwen3_vl);
  g_test_add_func ("/engine-state/vllm-mm-qwen3-vl-4b", test_vllm_mm_qwen3_vl_4b);
  g_test_add_func ("/engine-state/vllm-mm-pixtral-pass", test_vllm_mm_pixtral_pass);
  g_test_add_func ("/engine-state/vllm-mm-llama4-pass", test_vllm_mm_llama4_pass);
  g_test_add_func ("/engine-state/vllm-mm-llama4-later", test_vllm_mm_llama4_later);
  g_test_add_func ("/engine-state/vllm-mm-llama4-kv", test_vllm_mm_llama4_kv);
  g_test_add_func ("/engine-state/vllm-mm-pixtral-items", test_vllm_mm_pixtral_items);
  return g_test_run ();
}
