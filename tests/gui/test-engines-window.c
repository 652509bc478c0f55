/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's engine and speed parts, in the real window under a display: the engine and its
 * memory share in the Inference tab, the MFU in the Training tab, the speed and the vLLM-style
 * capacity beside each GPU's fit, the GPU comparison grouped by vendor and narrowed to one. */
#include "config.h"

#include <math.h>
#include <string.h>

#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-drop-down.h"
#include "vc-catalog.h"
#include "vc-engine.h"
#include "vc-formula.h"
#include "vc-model-section.h"
#include "vc-model-section-private.h"
#include "vc-units.h"
#include "vc-gpu-chart-private.h"
#include "vc-gpu-editor.h"
#include "vc-local-gpus.h"
#include "vc-results-view-private.h"
#include "vc-window.h"
#include "vc-test-util.h"

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  VcResultsView *results;
  VcGpuChart *chart;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);

  g_settings_reset (settings, "last-inputs");
  g_settings_reset (settings, "tab");
  f->window = vc_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1400, 1150);
  f->estimate = vc_window_get_estimate (f->window);
  f->results = VC_RESULTS_VIEW (vc_test_window_results (f->window));
  f->chart = VC_GPU_CHART (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "gpu_chart"));
  gtk_window_present (GTK_WINDOW (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  vc_test_destroy_window (f->window);
}

static void
test_engine_inputs (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *engine = vc_test_window_input (f->window, VC_MODE_INFERENCE, "engine");
  GtkWidget *fraction = vc_test_window_input (f->window, VC_MODE_INFERENCE, "memory-fraction");
  GtkWidget *block = vc_test_window_input (f->window, VC_MODE_INFERENCE, "block-size");
  GtkWidget *batched = vc_test_window_input (f->window, VC_MODE_INFERENCE, "max-num-batched-tokens");
  GtkWidget *seqs = vc_test_window_input (f->window, VC_MODE_INFERENCE, "max-num-seqs");
  GtkWidget *kv_memory = vc_test_window_input (f->window, VC_MODE_INFERENCE, "kv-cache-memory");
  GtkWidget *fraction_static = vc_test_window_input (f->window, VC_MODE_INFERENCE, "mem-fraction-static");
  GtkWidget *page = vc_test_window_input (f->window, VC_MODE_INFERENCE, "page-size");
  GtkWidget *version = vc_test_window_input (f->window, VC_MODE_INFERENCE, "engine-version");
  GtkWidget *sglang_version = vc_test_window_input (f->window, VC_MODE_INFERENCE, "sglang-version");
  GtkWidget *eager = vc_test_window_input (f->window, VC_MODE_INFERENCE, "enforce-eager");
  GtkWidget *no_custom_ar = vc_test_window_input (f->window, VC_MODE_INFERENCE, "disable-custom-all-reduce");
  GtkWidget *mfu = vc_test_window_input (f->window, VC_MODE_TRAINING, "mfu");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);

  /* the share and the block size only for the engines that have them: hidden otherwise */
  g_assert_cmpint (in->engine, ==, VC_ENGINE_GENERIC);
  g_assert_false (gtk_widget_get_visible (fraction));
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "vLLM"));
  g_assert_cmpint (in->engine, ==, VC_ENGINE_VLLM);
  g_assert_true (gtk_widget_get_visible (fraction));
  g_assert_true (gtk_widget_get_visible (block));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (fraction), 0.85);
  g_assert_cmpfloat (in->memory_fraction, ==, 0.85);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (block), 32);
  g_assert_cmpuint (in->block_size, ==, 32);
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "llama.cpp"));
  g_assert_cmpint (in->engine, ==, VC_ENGINE_LLAMA_CPP);
  g_assert_false (gtk_widget_get_visible (block));
  g_assert_false (gtk_widget_get_visible (no_custom_ar));

  /* vLLM's profile run and cache inputs; 0 is vLLM's default, shown as a word */
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "vLLM"));
  g_assert_true (gtk_widget_get_visible (batched));
  g_assert_true (gtk_widget_get_visible (seqs));
  g_assert_true (gtk_widget_get_visible (kv_memory));
  g_assert_false (gtk_widget_get_visible (fraction_static));
  g_assert_false (gtk_widget_get_visible (page));
  g_assert_false (gtk_widget_get_visible (sglang_version));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (batched)), ==, "Default");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (kv_memory)), ==, "Profiled");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (batched), 4096);
  g_assert_cmpuint (in->max_num_batched_tokens, ==, 4096);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (seqs), 128);
  g_assert_cmpuint (in->max_num_seqs, ==, 128);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (kv_memory), 30);
  g_assert_cmpfloat (in->kv_cache_memory_gb, ==, 30);
  /* vLLM's release, 0.11 to 0.13 by default, 0.14 to 0.16, 0.17 to 0.19, and eager mode */
  g_assert_true (gtk_widget_get_visible (version) && gtk_widget_get_visible (eager));
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (version)), ==, vc_test_choice_position (version, "0.11 to 0.13"));
  vc_drop_down_set_selected (VC_DROP_DOWN (version), vc_test_choice_position (version, "0.14 to 0.16"));
  g_assert_cmpint (in->vllm_version, ==, VC_VLLM_VERSION_0_14);
  vc_drop_down_set_selected (VC_DROP_DOWN (version), vc_test_choice_position (version, "0.17 to 0.19"));
  g_assert_cmpint (in->vllm_version, ==, VC_VLLM_VERSION_0_17);
  gtk_switch_set_active (GTK_SWITCH (eager), TRUE);
  g_assert_true (in->enforce_eager);
  vc_drop_down_set_selected (VC_DROP_DOWN (version), vc_test_choice_position (version, "0.21 and later"));
  g_assert_cmpint (in->vllm_version, ==, VC_VLLM_VERSION_0_21);
  g_object_set (f->estimate, "engine-version", VC_VLLM_VERSION_0_10, "enforce-eager", FALSE, NULL);
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (version)), ==, vc_test_choice_position (version, "0.10 and earlier"));
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (eager)));
  g_object_set (f->estimate, "engine-version", VC_VLLM_VERSION_0_11, NULL);
  /* the custom all-reduce, vLLM's and SGLang's both */
  g_assert_true (gtk_widget_get_visible (no_custom_ar));
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (no_custom_ar)));
  gtk_switch_set_active (GTK_SWITCH (no_custom_ar), TRUE);
  g_assert_true (in->disable_custom_all_reduce);

  /* the model drives the widget too; SGLang has its own share and pages */
  g_object_set (f->estimate, "engine", VC_ENGINE_SGLANG, NULL);
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (engine)), ==, vc_test_choice_position (engine, "SGLang"));
  g_assert_false (gtk_widget_get_visible (fraction));
  g_assert_false (gtk_widget_get_visible (batched));
  g_assert_false (gtk_widget_get_visible (version));
  g_assert_false (gtk_widget_get_visible (eager));
  g_assert_true (gtk_widget_get_visible (fraction_static));
  g_assert_true (gtk_widget_get_visible (page));
  g_assert_true (gtk_widget_get_visible (no_custom_ar));
  /* SGLang's source of its pool rules: commit 001ccef by default */
  g_assert_true (gtk_widget_get_visible (sglang_version));
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (sglang_version)), ==,
                    vc_test_choice_position (sglang_version, "Commit 001ccef (model runner mixin)"));
  vc_drop_down_set_selected (VC_DROP_DOWN (sglang_version),
                             vc_test_choice_position (sglang_version, "Commit 003fca8 (KV-cache configurator)"));
  g_assert_cmpint (in->sglang_version, ==, VC_SGLANG_VERSION_003FCA8);
  g_object_set (f->estimate, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (sglang_version)), ==,
                    vc_test_choice_position (sglang_version, "Commit 001ccef (model runner mixin)"));
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (no_custom_ar)));
  g_object_set (f->estimate, "disable-custom-all-reduce", FALSE, NULL);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (no_custom_ar)));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (fraction_static), 0.8);
  g_assert_cmpfloat (in->mem_fraction_static, ==, 0.8);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (page), 64);
  g_assert_cmpuint (in->page_size, ==, 64);

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (mfu), 0.55);
  g_assert_cmpfloat (in->mfu, ==, 0.55);
}

/* llama.cpp's micro-batch, logical batch, unified cache and cache types: shown with llama.cpp
 * and Ollama (architecture method), bound to the estimate, hidden with the other engines */
static void
test_llama_cpp_inputs (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *engine = vc_test_window_input (f->window, VC_MODE_INFERENCE, "engine");
  GtkWidget *ubatch = vc_test_window_input (f->window, VC_MODE_INFERENCE, "n-ubatch");
  GtkWidget *batch = vc_test_window_input (f->window, VC_MODE_INFERENCE, "n-batch");
  GtkWidget *unified = vc_test_window_input (f->window, VC_MODE_INFERENCE, "kv-unified");
  GtkWidget *type_v = vc_test_window_input (f->window, VC_MODE_INFERENCE, "cache-type-v");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autoptr(GError) error = NULL;

  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  g_assert_false (gtk_widget_get_visible (ubatch));
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "llama.cpp"));
  g_assert_true (gtk_widget_get_visible (ubatch));
  g_assert_true (gtk_widget_get_visible (batch));
  g_assert_true (gtk_widget_get_visible (unified));
  g_assert_true (gtk_widget_get_visible (type_v));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (ubatch), 1024);
  g_assert_cmpuint (in->n_ubatch, ==, 1024);
  gtk_switch_set_active (GTK_SWITCH (unified), TRUE);
  g_assert_true (in->kv_unified);
  vc_drop_down_set_selected (VC_DROP_DOWN (type_v), vc_test_choice_position (type_v, "q8_0"));
  g_assert_cmpint (in->cache_type_v, ==, VC_CACHE_TYPE_Q8_0);
  /* a quantized value cache without flash attention: refused, as llama.cpp refuses it */
  g_object_set (f->estimate, "flash-attention", FALSE, NULL);
  g_assert_false (vc_estimate_check (f->estimate, &error));
  g_assert_nonnull (strstr (error->message, "quantized V cache"));
  g_object_set (f->estimate, "flash-attention", TRUE, NULL);

  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "Ollama"));
  g_assert_cmpint (in->engine, ==, VC_ENGINE_OLLAMA);
  g_assert_true (gtk_widget_get_visible (ubatch));
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "vLLM"));
  g_assert_false (gtk_widget_get_visible (ubatch));
  g_assert_false (gtk_widget_get_visible (type_v));
}

static void
test_speed_and_capacity (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  g_autofree char *speed = NULL, *capacity = NULL, *training = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  speed = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_nonnull (strstr (speed, "tokens/s"));
  g_assert_null (strstr (speed, "KV cache"));

  /* with vLLM, its capacity line: blocks of tokens and requests of the sequence length */
  g_object_set (f->estimate, "engine", VC_ENGINE_VLLM, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  capacity = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_true (g_str_has_prefix (capacity, "KV cache: "));
  g_assert_nonnull (strstr (capacity, " requests of 8192 tokens · "));

  /* a layout set in the Parallelism group: each row gives the engine's cache at that layout,
   * as vramcalc --engine vllm --tp 2 --fit-gpu ID does */
  g_object_set (f->estimate, "tp", 2, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  {
    g_autofree char *at_tp2 = vc_gpu_chart_describe_speed (f->chart, h100);
    VcEngineAtLayout at;
    g_autofree char *expected = NULL;

    vc_engine_at_layout (vc_estimate_get_inputs (f->estimate), vc_estimate_get_layout_result (f->estimate),
                         vc_estimate_get_gpu (f->estimate, h100), 0, &at);
    g_assert_true (at.known);
    /* NCCL's buffers, not counted, with their bound: 5 communicators × (1,920 MiB + NVLS 2 × 64 MiB) */
    expected = g_strdup_printf ("At TP 2: KV cache %.0f tokens · %.0f requests of 8192 tokens"
                                " · NCCL’s buffers not counted (up to 10.0\u00a0GiB a GPU)",
                                at.tokens, floor (at.max_concurrency));
    g_assert_cmpstr (at_tp2, ==, expected);
  }
  g_object_set (f->estimate, "tp", 1, NULL);

  /* vLLM 0.17 on a card whose SM count is not known (GB200 here): its Triton sampler's buffer
   * is not counted, and the row says so with its bound; on an H100 (132 SMs) it is counted */
  g_object_set (f->estimate, "engine-version", VC_VLLM_VERSION_0_17, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  {
    g_autofree char *unknown = vc_gpu_chart_describe_speed (f->chart, vc_test_gpu_index (f->estimate, "gb200"));
    g_autofree char *known = vc_gpu_chart_describe_speed (f->chart, h100);

    g_assert_true (g_str_has_prefix (unknown, "KV cache: "));
    g_assert_nonnull (strstr (unknown, " · vLLM’s Triton top-k/top-p buffer not counted (up to "));
    g_assert_true (g_str_has_prefix (known, "KV cache: "));
    g_assert_null (strstr (known, "Triton"));
  }
  g_object_set (f->estimate, "engine-version", VC_VLLM_VERSION_0_11, NULL);
  /* FP8 MoE experts: their workspace is not counted, the line gives its bound (Qwen3-30B-A3B at
   * an H100's 8,192 tokens: 81,792 rows of 2,048, twice, vc_estimator_vllm_moe_workspace_bound_bytes) */
  g_assert_true (vc_estimate_set_preset (f->estimate, "qwen3-30b-a3b", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "precision", VC_PRECISION_FP8, "seq", 8192, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  {
    g_autofree char *moe = vc_gpu_chart_describe_speed (f->chart, h100);

    g_assert_true (g_str_has_prefix (moe, "KV cache: "));
    g_assert_true (g_str_has_suffix (moe, " · quantized MoE experts’ workspace not counted (up to 639.0\u00a0MiB a GPU)"));
  }
  g_object_set (f->estimate, "precision", VC_PRECISION_BF16, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  {
    g_autofree char *bf16 = vc_gpu_chart_describe_speed (f->chart, h100);

    g_assert_null (strstr (bf16, "workspace"));
  }

  /* training: the time of a step */
  g_object_set (f->estimate, "mode", VC_MODE_TRAINING, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  training = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_nonnull (strstr (training, " s a step"));
}

/* A model with state-space layers under vLLM: the window gives the cache of its Mamba groups
 * on one card (vc-engine-state.c), the same as the core's */
static void
test_state_capacity (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  const VcResult *r;
  VcKvCapacity kv;
  g_autofree char *capacity = NULL, *expected = NULL, *at_tp2 = NULL, *expected_tp2 = NULL;
  VcEngineAtLayout at;
  VcPrecision precision;

  g_assert_true (vc_estimate_set_preset (f->estimate, "granite-4.0-h-tiny", &error));
  precision = vc_estimate_get_inputs (f->estimate)->precision;
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_VLLM, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  r = vc_estimate_get_result (f->estimate);
  vc_engine_kv_capacity_on (vc_estimate_get_inputs (f->estimate), r, &r->scenarios[r->selected],
                            vc_estimate_get_gpu (f->estimate, h100), 1, &kv);
  g_assert_true (kv.known);
  /* whole blocks of 400 tokens (the block raised to hold a Mamba layer's state) */
  g_assert_cmpfloat (fmod (kv.tokens, 400), ==, 0);
  g_assert_cmpfloat (kv.tokens, >, 500000);
  capacity = vc_gpu_chart_describe_speed (f->chart, h100);
  expected = g_strdup_printf ("KV cache: %.0f tokens · %.0f requests of 8192 tokens · ", kv.tokens,
                              floor (kv.max_concurrency));
  g_assert_true (g_str_has_prefix (capacity, expected));

  /* at TP 2 vLLM repeats the mixer's one group on both ranks: the row gives the core's figure
   * at that layout */
  g_object_set (f->estimate, "tp", 2, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  at_tp2 = vc_gpu_chart_describe_speed (f->chart, h100);
  vc_engine_at_layout (vc_estimate_get_inputs (f->estimate), vc_estimate_get_layout_result (f->estimate),
                       vc_estimate_get_gpu (f->estimate, h100), 0, &at);
  g_assert_true (at.known);
  g_assert_cmpuint (at.block_size, ==, 400);
  expected_tp2 = g_strdup_printf ("At TP 2: KV cache %.0f tokens · %.0f requests of 8192 tokens", at.tokens,
                                  floor (at.max_concurrency));
  g_assert_true (g_str_has_prefix (at_tp2, expected_tp2));

  /* in fp8 vLLM does not start with the group repeated: the row keeps the card's own figure,
   * not one at the layout */
  g_object_set (f->estimate, "precision", VC_PRECISION_FP8, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_clear_pointer (&at_tp2, g_free);
  at_tp2 = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_null (strstr (at_tp2, "At TP 2"));
  g_assert_true (g_str_has_prefix (at_tp2, "KV cache: "));
  g_object_set (f->estimate, "tp", 1, "precision", precision, NULL);
}

/* A vision model under SGLang: Gemma 3 4B's tower counted (419,816,304 parameters in the
 * weights), served without images by default so at the text model's fraction (FORMULAS.md,
 * "Multimodal models"): the H100 row gives the core's cache; under vLLM too, its profile run
 * through the encoder followed, but not once served without images */
static void
test_vision_capacity (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  const VcResult *r;
  VcKvCapacity kv;
  g_autofree char *sglang = NULL, *expected = NULL, *vllm = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "gemma-3-4b-it", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_SGLANG, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpuint (vc_estimate_get_inputs (f->estimate)->arch.encoder_params, ==, 419816304);
  g_assert_cmpfloat (vc_engine_sglang_fraction (vc_estimate_get_inputs (f->estimate), 81559, 1), ==, 0.835);
  r = vc_estimate_get_result (f->estimate);
  vc_engine_kv_capacity_on (vc_estimate_get_inputs (f->estimate), r, &r->scenarios[r->selected],
                            vc_estimate_get_gpu (f->estimate, h100), 1, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, >, 0);
  sglang = vc_gpu_chart_describe_speed (f->chart, h100);
  expected = g_strdup_printf ("KV cache: %.0f tokens · %.0f requests of 8192 tokens · ", kv.tokens,
                              floor (kv.max_concurrency));
  g_assert_true (g_str_has_prefix (sglang, expected));

  /* vLLM's profile run through Gemma 3's tower is followed (vc-engine-mm.c): the core's cache */
  g_object_set (f->estimate, "engine", VC_ENGINE_VLLM, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  r = vc_estimate_get_result (f->estimate);
  vc_engine_kv_capacity_on (vc_estimate_get_inputs (f->estimate), r, &r->scenarios[r->selected],
                            vc_estimate_get_gpu (f->estimate, h100), 1, &kv);
  g_assert_true (kv.known);
  vllm = vc_gpu_chart_describe_speed (f->chart, h100);
  g_free (expected);
  expected = g_strdup_printf ("KV cache: %.0f tokens · %.0f requests of 8192 tokens · ", kv.tokens,
                              floor (kv.max_concurrency));
  g_assert_true (g_str_has_prefix (vllm, expected));
  /* served without images (--limit-mm-per-prompt 0), whether the tower loads is not followed:
   * the row gives none */
  g_object_set (f->estimate, "limit-mm-per-prompt", 0, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_free (vllm);
  vllm = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_null (strstr (vllm, "KV cache: "));
  g_object_set (f->estimate, "limit-mm-per-prompt", 999, NULL);
}

/* Qwen3-VL-8B under vLLM from the catalog's preset, which carries its processor files (the image
 * and video known) and rope_scaling's mrope_section (MRotaryEmbedding's rows): the H100 row shows
 * the core's cache, 350,560 tokens at 32,768; without the video's tokens, none */
static void
test_qwen3_vl_capacity (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  g_autofree char *row = NULL, *none = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "qwen3-vl-8b-instruct", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 32768, "engine", VC_ENGINE_VLLM, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  row = vc_gpu_chart_describe_speed (f->chart, h100);
  g_test_message ("%s", row);
  g_assert_true (g_str_has_prefix (row, "KV cache: 350560 tokens · 10 requests of 32768 tokens · "));
  g_object_set (f->estimate, "encoder-video-tokens", 0, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  none = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_null (strstr (none, "KV cache: "));
}

/* The H100's row in words for assistive technologies: its speed column and its pool line, as
 * the chart's accessible description gives them at every width (the speed's column is left out
 * of a narrow chart, never out of the description) */
static void
assert_h100_described (Fixture    *f,
                       const char *speed)
{
  g_autofree char *text = vc_gpu_chart_dup_description (f->chart);
  g_autofree char *row = g_strdup_printf ("H100 80 GB: %s", speed);
  g_autofree char *message = NULL;

  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, ". Speed on each row's GPUs: "));
  g_assert_nonnull (strstr (text, row));
  message = gtk_test_accessible_check_property (GTK_ACCESSIBLE (f->chart), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text);
  g_assert_null (message);
}

/* SGLang's Mamba pool beside its capacity, as vramcalc's report gives it ("Mamba pool of 465
 * requests (26.7 GB), 57.3 MB a request"): Granite 4.0-H Tiny on one H100, Qwen3-Next at TP 4
 * (the row's figures at the layout); none under vLLM, nor where the pool is not followed */
static void
test_sglang_state_pool (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  const VcResult *r;
  VcKvCapacity kv;
  VcEngineAtLayout at;
  g_autofree char *one = NULL, *tp4 = NULL, *vllm = NULL, *configurator = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "granite-4.0-h-tiny", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_SGLANG, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  r = vc_estimate_get_result (f->estimate);
  vc_engine_kv_capacity_on (vc_estimate_get_inputs (f->estimate), r, &r->scenarios[r->selected],
                            vc_estimate_get_gpu (f->estimate, h100), 1, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, 3619299);
  g_assert_cmpfloat (kv.state_request_bytes, ==, 57341952);
  g_assert_cmpfloat (kv.state_requests, ==, 465);
  one = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_true (g_str_has_prefix (one, "KV cache: 3619299 tokens · 155 requests of 8192 tokens · "));
  g_assert_true (g_str_has_suffix (one, " tokens/s · Mamba pool of 465 requests (26.7\u00a0GB), 57.3\u00a0MB a request"));
  /* the pool at every width, on its row's second line (the speed's column is left out first
   * when the chart narrows): whole, inside the chart, from the window's widest to below its
   * least width; the chart is never narrower than the line */
  {
    static const int widths[] = { 1600, 1100, 800, 300 };
    guint a100 = vc_test_gpu_index (f->estimate, "a100-80gb");

    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        g_autofree char *pool = NULL, *other = NULL;
        g_autoptr(PangoLayout) layout = NULL;
        graphene_rect_t where, bar;
        GdkRGBA color;
        int chart_w, minimum, text_w, text_h;

        gtk_window_set_default_size (GTK_WINDOW (f->window), widths[w], 1150);
        vc_test_wait_for_frame (GTK_WIDGET (f->window));
        vc_test_wait_for_frame (GTK_WIDGET (f->window));
        chart_w = gtk_widget_get_width (GTK_WIDGET (f->chart));
        gtk_widget_measure (GTK_WIDGET (f->chart), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
        pool = vc_gpu_chart_get_pool_line (f->chart, h100, &where);
        g_test_message ("window %d: chart %d px (least %d), pool line from %g, %g px wide", widths[w], chart_w,
                        minimum, where.origin.x, where.size.width);
        g_assert_cmpstr (pool, ==, "Mamba pool of 465 requests (26.7\u00a0GB), 57.3\u00a0MB a request");
        assert_h100_described (f, one);
        layout = gtk_widget_create_pango_layout (GTK_WIDGET (f->chart), pool);
        pango_layout_get_pixel_size (layout, &text_w, &text_h);
        g_assert_cmpint (chart_w, >=, minimum);
        g_assert_cmpfloat (where.origin.x + where.size.width, <=, chart_w);
        g_assert_cmpfloat (where.size.width, >=, text_w);
        /* under the name and the bar, in the same row */
        g_assert_true (vc_gpu_chart_get_bar (f->chart, h100, &bar, &color));
        g_assert_cmpfloat (where.origin.x, ==, 0);
        g_assert_cmpfloat (where.origin.y, >=, bar.origin.y + bar.size.height);
        other = vc_gpu_chart_get_pool_line (f->chart, a100, &where);
        g_assert_nonnull (other);
        g_assert_true (g_str_has_prefix (other, "Mamba pool of "));
      }
    gtk_window_set_default_size (GTK_WINDOW (f->window), 1400, 1150);
    vc_test_wait_for_frame (GTK_WIDGET (f->window));
  }

  /* the same model under vLLM: its Mamba groups, no pool apart */
  g_object_set (f->estimate, "engine", VC_ENGINE_VLLM, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vllm = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_true (g_str_has_prefix (vllm, "KV cache: "));
  g_assert_null (strstr (vllm, "Mamba pool"));
  {
    graphene_rect_t where;

    g_assert_null (vc_gpu_chart_get_pool_line (f->chart, h100, &where));
  }

  /* SGLang's source at commit 003fca8: the same bytes, one of the 465 slots a padding one, the
   * running requests at most 464 // 5 = 92 */
  g_object_set (f->estimate, "engine", VC_ENGINE_SGLANG, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  configurator = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_true (g_str_has_prefix (configurator, "KV cache: 3619299 tokens · 92 requests of 8192 tokens · "));
  g_assert_true (g_str_has_suffix (configurator, " · Mamba pool of 464 requests (26.6\u00a0GB), 57.3\u00a0MB a request"));
  g_object_set (f->estimate, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);

  /* at TP 4 set in the Parallelism group: the pool of each rank at that layout */
  g_assert_true (vc_estimate_set_preset (f->estimate, "qwen3-next-80b-a3b-instruct", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_SGLANG,
                "tp", 4, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vc_engine_at_layout (vc_estimate_get_inputs (f->estimate), vc_estimate_get_layout_result (f->estimate),
                       vc_estimate_get_gpu (f->estimate, h100), 0, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.tokens, ==, 1253501);
  g_assert_cmpfloat (at.state_requests, ==, 717);
  tp4 = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_true (g_str_has_prefix (tp4, "At TP 4: KV cache 1253501 tokens · 153 requests of 8192 tokens · "));
  g_assert_true (g_str_has_suffix (tp4, " · Mamba pool of 717 requests (13.9\u00a0GB), 19.3\u00a0MB a request"));
  g_object_set (f->estimate, "tp", 1, NULL);
}

/* The GPU row of @gpu once the properties given are set on the estimate and a frame is drawn */
static char *
row_once_set (Fixture    *f,
              guint       gpu,
              const char *first_property,
              ...)
{
  va_list args;

  va_start (args, first_property);
  g_object_set_valist (G_OBJECT (f->estimate), first_property, args);
  va_end (args);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  return vc_gpu_chart_describe_speed (f->chart, gpu);
}

/* Granite 4.0-H Tiny at TP 4 set in the Parallelism group, which does not divide its one Mamba-2
 * group: SGLang repeats it on every rank (tests/test-engine-state.c, sglang-groups-repeated-cli),
 * and the row gives the pool at that layout at either source; at PP 2 the pool over the stages
 * at 003fca8 (sglang-stages-cli: a request the busiest stage's 18 of 36 Mamba layers), none at
 * 001ccef, the row keeping the card's own (one H100, a request's whole state) */
static void
test_sglang_repeated_group (Fixture       *f,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  g_autofree char *repeated = NULL, *repeated_003fca8 = NULL, *staged = NULL, *staged_001ccef = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "granite-4.0-h-tiny", &error));
  repeated = row_once_set (f, h100, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_SGLANG,
                           "tp", 4, NULL);
  g_assert_true (g_str_has_prefix (repeated, "At TP 4: KV cache 16898712 tokens · 722 requests of 8192 tokens · "));
  g_assert_true (g_str_has_suffix (repeated, " · Mamba pool of 2166 requests (31.1\u00a0GB), 14.4\u00a0MB a request"));
  repeated_003fca8 = row_once_set (f, h100, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  g_assert_true (g_str_has_prefix (repeated_003fca8, "At TP 4: KV cache 16898712 tokens · 433 requests of 8192 tokens · "));
  g_assert_true (g_str_has_suffix (repeated_003fca8, " · Mamba pool of 2165 requests (31.1\u00a0GB), 14.4\u00a0MB a request"));
  /* SGLang's Granite 4.0 hybrid class runs on one stage (sglang-one-stage): PP 2 refused, the
   * pool over stages for the model described without the field */
  g_free (row_once_set (f, h100, "pp", 2, NULL));
  g_assert_false (vc_estimate_check (f->estimate, &error));
  g_assert_nonnull (strstr (error->message, "SGLang runs this model on one pipeline stage"));
  g_clear_error (&error);
  staged = row_once_set (f, h100, "sglang-one-stage", FALSE, NULL);
  g_assert_true (g_str_has_prefix (staged, "At TP 4 × PP 2: KV cache 34420284 tokens · 882 requests of 8192 tokens · "));
  g_assert_true (g_str_has_suffix (staged, ", 7.19\u00a0MB a request"));
  staged_001ccef = row_once_set (f, h100, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
  g_assert_null (strstr (staged_001ccef, "At TP 4"));
  g_assert_true (g_str_has_prefix (staged_001ccef, "KV cache: "));
  g_assert_true (g_str_has_suffix (staged_001ccef, ", 57.3\u00a0MB a request"));
  g_object_set (f->estimate, "tp", 1, "pp", 1, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
}

/* A model with sliding-window layers over two pipeline stages (FORMULAS.md, "Sliding-window
 * layers over pipeline stages"): the H100 row gives the engine's figure of each stage's pools at
 * that layout, as the core computes it (tests/test-engine.c, vllm-sliding-stages and
 * sglang-sliding-stages); vLLM 0.11 and SGLang 001ccef give none at the layout, the row keeping
 * the card's own */
static void
test_sliding_stages (Fixture       *f,
                     gconstpointer  data)
{
  static const struct { VcEngine engine; const char *property; int version, before; double tokens; } cases[] = {
    { VC_ENGINE_VLLM, "engine-version", VC_VLLM_VERSION_0_17, VC_VLLM_VERSION_0_11, 2691616 },
    { VC_ENGINE_SGLANG, "sglang-version", VC_SGLANG_VERSION_003FCA8, VC_SGLANG_VERSION_001CCEF, 1428519 },
  };
  g_autoptr(GError) error = NULL;
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");

  g_assert_true (vc_estimate_set_preset (f->estimate, "gpt-oss-20b", &error));
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const VcResult *r;
      double tokens, max_concurrency;
      g_autofree char *staged = NULL, *expected = NULL, *before = NULL;

      staged = row_once_set (f, h100, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", cases[i].engine,
                             "precision", VC_PRECISION_MXFP4, cases[i].property, cases[i].version, "pp", 2, NULL);
      r = vc_estimate_get_result (f->estimate);
      g_assert_true (vc_engine_sliding_stages (vc_estimate_get_inputs (f->estimate), r, r->selected,
                                               vc_estimate_get_gpu (f->estimate, h100),
                                               vc_estimate_get_layout_result (f->estimate)->bytes[VC_COMPONENT_OVERHEAD],
                                               &tokens, &max_concurrency));
      g_assert_cmpfloat (tokens, ==, cases[i].tokens);
      expected = g_strdup_printf ("At PP 2: KV cache %.0f tokens · %.0f requests of 8192 tokens · ", tokens,
                                  floor (max_concurrency));
      g_test_message ("%s", staged);
      g_assert_true (g_str_has_prefix (staged, expected));
      /* the release or source before: the card's own figure, not the layout's */
      before = row_once_set (f, h100, cases[i].property, cases[i].before, NULL);
      g_assert_null (strstr (before, "At PP 2"));
      g_object_set (f->estimate, "pp", 1, NULL);
    }
}

/* Granite 4.0-H Tiny over two pipeline stages under vLLM 0.17: the attention-layer pattern
 * (attention at layers 5, 15, 25, 35) places its Mamba layers, and the H100 row gives each
 * stage's groups at that layout (tests/test-engine-state.c, mixer-stages: 1,648,000 tokens,
 * 41,201 / 30 requests); without the pattern, or at 0.11, none at the layout */
static void
test_mixer_stages (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  g_autofree char *staged = NULL, *unplaced = NULL, *before = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "granite-4.0-h-tiny", &error));
  staged = row_once_set (f, h100, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_VLLM,
                         "engine-version", VC_VLLM_VERSION_0_17, "pp", 2, NULL);
  g_test_message ("%s", staged);
  g_assert_true (g_str_has_prefix (staged, "At PP 2: KV cache 1648000 tokens · 1373 requests of 8192 tokens · "));
  unplaced = row_once_set (f, h100, "attention-layer-period", 0, NULL);
  g_assert_null (strstr (unplaced, "At PP 2"));
  before = row_once_set (f, h100, "attention-layer-period", 10, "engine-version", VC_VLLM_VERSION_0_11, NULL);
  g_assert_null (strstr (before, "At PP 2"));
  g_object_set (f->estimate, "pp", 1, "engine-version", VC_VLLM_VERSION_0_17, NULL);
}

/* vLLM's MXFP4 experts in the window (FORMULAS.md, "vLLM's MXFP4 experts"): an A100 row gives
 * the cache less the Marlin backend's padding, as the core does; an H100 row says why it gives
 * none */
static void
test_mxfp4_capacity (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  guint a100 = vc_test_gpu_index (f->estimate, "a100-80gb");
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  const VcResult *r;
  VcKvCapacity kv;
  double extra;
  g_autofree char *on_a100 = NULL, *on_h100 = NULL, *expected = NULL, *row_a100 = NULL, *row_h100 = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "gpt-oss-20b", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_VLLM,
                "precision", VC_PRECISION_MXFP4, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (vc_engine_vllm_mxfp4_extra (vc_estimate_get_inputs (f->estimate),
                                             vc_estimate_get_gpu (f->estimate, a100), 1, &extra));
  g_assert_cmpfloat (extra, ==, 917962752.0);
  r = vc_estimate_get_result (f->estimate);
  vc_engine_kv_capacity_on (vc_estimate_get_inputs (f->estimate), r, &r->scenarios[r->selected],
                            vc_estimate_get_gpu (f->estimate, a100), 1, &kv);
  g_assert_true (kv.known);
  on_a100 = vc_gpu_chart_describe_speed (f->chart, a100);
  expected = g_strdup_printf ("KV cache: %.0f tokens · %.0f requests of 8192 tokens · ", kv.tokens,
                              floor (kv.max_concurrency));
  g_assert_true (g_str_has_prefix (on_a100, expected));
  on_h100 = vc_gpu_chart_describe_speed (f->chart, h100);
  g_assert_true (g_str_has_suffix (on_h100, " tokens/s · KV cache not sized: vLLM’s MXFP4 backend on this card is not known"));

  /* the rows' counts: Marlin's padding on the A100 (17,073,175,168 bytes as stored with the
   * A100's own vLLM batch of 2,048 tokens and 256 sequences and the 133 MiB outside PyTorch,
   * and vLLM's fp32 RoPE table of 33,554,432), the experts as stored on the H100 (with its
   * 8,192 and 1,024), said */
  row_a100 = vc_gpu_chart_describe (f->chart, a100);
  row_h100 = vc_gpu_chart_describe (f->chart, h100);
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (f->estimate, a100)->per_gpu_bytes, ==, 17073175168.0 + 33554432.0 + extra);
  g_assert_cmpstr (row_a100, ==, "18.0\302\240" "GB of 85.0\302\240" "GB usable · 1 GPU");
  g_assert_cmpstr (row_h100, ==, "23.0\302\240" "GB of 85.1\302\240" "GB usable · 1 GPU · MXFP4 experts as stored: vLLM’s backend on this card is not known");

  /* a V100: vLLM refuses MXFP4 below compute capability 8.0, and its row says that in place
   * of a count: vLLM does not start there, whatever the memory */
  {
    guint v100 = vc_test_gpu_index (f->estimate, "v100-32gb");
    g_autofree char *row_v100 = vc_gpu_chart_describe (f->chart, v100);
    g_autofree char *speed_v100 = vc_gpu_chart_describe_speed (f->chart, v100);
    const VcGpuFit *fit = vc_estimate_get_gpu_fit (f->estimate, v100);

    g_assert_true (fit->refused);
    g_assert_false (fit->fits);
    g_assert_cmpfloat (fit->count, ==, 0);
    g_assert_false (fit->experts_as_stored);
    g_assert_false (vc_estimate_get_gpu_fit (f->estimate, a100)->refused);
    g_assert_true (g_str_has_suffix (row_v100, " usable · vLLM refuses MXFP4 below compute capability 8.0: it does not start on this card"));
    /* nothing runs there: no speed either */
    g_assert_cmpstr (speed_v100, ==, "");
  }

  /* vLLM 0.17 to 0.19 chosen in the window: its wheel carries triton_kernels, so the H100 takes
   * Triton's kernels by itself, and its row counts their layout (823,680 bytes an expert more
   * than stored, 24 × 32 experts) and gives a cache, no longer "as stored" */
  {
    GtkWidget *version = vc_test_window_input (f->window, VC_MODE_INFERENCE, "engine-version");
    g_autofree char *speed = NULL, *row = NULL;
    double triton;

    vc_drop_down_set_selected (VC_DROP_DOWN (version), vc_test_choice_position (version, "0.17 to 0.19"));
    vc_test_wait_for_frame (GTK_WIDGET (f->window));
    g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->vllm_version, ==, VC_VLLM_VERSION_0_17);
    g_assert_true (vc_engine_vllm_mxfp4_extra (vc_estimate_get_inputs (f->estimate),
                                               vc_estimate_get_gpu (f->estimate, h100), 1, &triton));
    g_assert_cmpfloat (triton, ==, 768.0 * 823680.0);
    g_assert_false (vc_estimate_get_gpu_fit (f->estimate, h100)->experts_as_stored);
    r = vc_estimate_get_result (f->estimate);
    vc_engine_kv_capacity_on (vc_estimate_get_inputs (f->estimate), r, &r->scenarios[r->selected],
                              vc_estimate_get_gpu (f->estimate, h100), 1, &kv);
    g_assert_true (kv.known);
    speed = vc_gpu_chart_describe_speed (f->chart, h100);
    g_clear_pointer (&expected, g_free);
    expected = g_strdup_printf ("KV cache: %.0f tokens · %.0f requests of 8192 tokens · ", kv.tokens,
                                floor (kv.max_concurrency));
    g_assert_true (g_str_has_prefix (speed, expected));
    row = vc_gpu_chart_describe (f->chart, h100);
    g_assert_null (strstr (row, "as stored"));
  }
}

/* vLLM's encoder TP mode: shown for vLLM with a vision encoder; data chosen there counts Llama
 * 4's and Qwen3-VL's towers whole on each GPU; kept in view while set, so that its refusal (another engine) can
 * be undone where it is shown */
static void
test_mm_encoder_tp_mode_input (Fixture       *f,
                               gconstpointer  data)
{
  GtkWidget *mode = vc_test_window_input (f->window, VC_MODE_INFERENCE, "mm-encoder-tp-mode");
  GtkWidget *engine = vc_test_window_input (f->window, VC_MODE_INFERENCE, "engine");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autoptr(GError) error = NULL;
  double divided;

  g_assert_false (gtk_widget_get_visible (mode));
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-4-scout-17b-16e", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "tp", 2, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (mode));
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (mode)), ==,
                    vc_test_choice_position (mode, "Weights divided (vLLM’s default)"));
  divided = vc_estimate_get_layout_result (f->estimate)->bytes[VC_COMPONENT_WEIGHTS];
  vc_drop_down_set_selected (VC_DROP_DOWN (mode), vc_test_choice_position (mode, "Whole on each GPU, images split (data)"));
  g_assert_cmpint (in->mm_encoder_tp_mode, ==, VC_MM_ENCODER_TP_MODE_DATA);
  /* the tower whole on each of the 2 GPUs: 849,854,208 bytes more a GPU */
  g_assert_cmpfloat (vc_estimate_get_layout_result (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, divided + 849854208.0);

  /* SGLang with data asked for: refused, and the input stays in view to be set back */
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "SGLang"));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (mode));
  g_assert_false (vc_estimate_check (f->estimate, &error));
  g_assert_nonnull (strstr (error->message, "the encoder TP mode data is vLLM’s"));
  vc_drop_down_set_selected (VC_DROP_DOWN (mode), vc_test_choice_position (mode, "Weights divided (vLLM’s default)"));
  g_assert_cmpint (in->mm_encoder_tp_mode, ==, VC_MM_ENCODER_TP_MODE_WEIGHTS);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (mode));
  g_assert_true (vc_estimate_check (f->estimate, NULL));

  /* Qwen3-VL 8B: data replicates the whole tower, mergers included: 571,730,544 bytes more a GPU */
  g_assert_true (vc_estimate_set_preset (f->estimate, "qwen3-vl-8b-instruct", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "tp", 2, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (mode));
  divided = vc_estimate_get_layout_result (f->estimate)->bytes[VC_COMPONENT_WEIGHTS];
  vc_drop_down_set_selected (VC_DROP_DOWN (mode), vc_test_choice_position (mode, "Whole on each GPU, images split (data)"));
  g_assert_cmpint (in->mm_encoder_tp_mode, ==, VC_MM_ENCODER_TP_MODE_DATA);
  g_assert_true (vc_estimate_check (f->estimate, NULL));
  g_assert_cmpfloat (vc_estimate_get_layout_result (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, divided + 571730544.0);
}

/* The MXFP4 backend input: shown for vLLM with MXFP4 experts; Marlin chosen there makes the
 * H100's row count Marlin's padding and size its cache as on an A100; kept in view while it is
 * set, so that a refusal it causes (another engine) can be undone where it is shown */
static void
test_mxfp4_backend_input (Fixture       *f,
                          gconstpointer  data)
{
  GtkWidget *backend = vc_test_window_input (f->window, VC_MODE_INFERENCE, "mxfp4-backend");
  GtkWidget *engine = vc_test_window_input (f->window, VC_MODE_INFERENCE, "engine");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
  g_autoptr(GError) error = NULL;
  g_autofree char *row = NULL, *speed = NULL, *expected = NULL;
  const VcResult *r;
  VcKvCapacity kv;

  g_assert_false (gtk_widget_get_visible (backend));
  g_assert_true (vc_estimate_set_preset (f->estimate, "gpt-oss-20b", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_VLLM,
                "precision", VC_PRECISION_MXFP4, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (backend));
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (backend)), ==,
                    vc_test_choice_position (backend, "vLLM’s choice for the card"));
  vc_drop_down_set_selected (VC_DROP_DOWN (backend), vc_test_choice_position (backend, "Marlin (VLLM_MXFP4_USE_MARLIN=1)"));
  g_assert_cmpint (in->mxfp4_backend, ==, VC_MXFP4_BACKEND_MARLIN);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));

  /* the H100 row: 22,977,116,800 bytes stored + 917,962,752 of Marlin’s + the 32 MiB RoPE table, and a cache */
  row = vc_gpu_chart_describe (f->chart, h100);
  g_assert_cmpstr (row, ==, "23.9\302\240" "GB of 85.1\302\240" "GB usable · 1 GPU");
  r = vc_estimate_get_result (f->estimate);
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], vc_estimate_get_gpu (f->estimate, h100), 1, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, 1095184);
  speed = vc_gpu_chart_describe_speed (f->chart, h100);
  expected = g_strdup_printf ("KV cache: %.0f tokens · %.0f requests of 8192 tokens · ", kv.tokens,
                              floor (kv.max_concurrency));
  g_assert_true (g_str_has_prefix (speed, expected));

  /* SGLang with Marlin asked for: refused, and the input stays in view to be set back */
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "SGLang"));
  g_assert_true (gtk_widget_get_visible (backend));
  g_assert_false (vc_estimate_check (f->estimate, &error));
  g_assert_nonnull (strstr (error->message, "the MXFP4 backend marlin is vLLM’s"));
  vc_drop_down_set_selected (VC_DROP_DOWN (backend), vc_test_choice_position (backend, "vLLM’s choice for the card"));
  g_assert_cmpint (in->mxfp4_backend, ==, VC_MXFP4_BACKEND_AUTO);
  g_assert_false (gtk_widget_get_visible (backend));
  g_assert_true (vc_estimate_check (f->estimate, NULL));
  /* a model without MXFP4 experts under vLLM: hidden */
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "vLLM"));
  g_assert_true (gtk_widget_get_visible (backend));
  g_object_set (f->estimate, "precision", VC_PRECISION_BF16, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (backend));
}

/* The vLLM sampler input: shown for vLLM; FlashInfer's chosen there makes the profile run's
 * sampler hold 14 bytes a logit rather than the sort's 38; kept in view while it is set, so that
 * a refusal it causes (another engine) can be undone where it is shown */
static void
test_vllm_sampler_input (Fixture       *f,
                         gconstpointer  data)
{
  GtkWidget *sampler = vc_test_window_input (f->window, VC_MODE_INFERENCE, "vllm-sampler");
  GtkWidget *engine = vc_test_window_input (f->window, VC_MODE_INFERENCE, "engine");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autoptr(GError) error = NULL;
  double sorted, flashinfer;

  g_assert_false (gtk_widget_get_visible (sampler));
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3.1-8b-instruct", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (sampler));
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (sampler)), ==,
                    vc_test_choice_position (sampler, "PyTorch’s sort (VLLM_USE_FLASHINFER_SAMPLER=0)"));
  sorted = vc_estimate_get_layout_result (f->estimate)->bytes[VC_COMPONENT_ACTIVATIONS];
  vc_drop_down_set_selected (VC_DROP_DOWN (sampler),
                             vc_test_choice_position (sampler, "FlashInfer’s (VLLM_USE_FLASHINFER_SAMPLER=1)"));
  g_assert_cmpint (in->vllm_sampler, ==, VC_VLLM_SAMPLER_FLASHINFER);
  flashinfer = vc_estimate_get_layout_result (f->estimate)->bytes[VC_COMPONENT_ACTIVATIONS];
  /* 1,024 requests × 128,256 logits × (38 − 14) bytes */
  g_assert_cmpfloat (sorted - flashinfer, ==, 1024.0 * 128256 * 24);

  /* SGLang with FlashInfer's sampler asked for: refused, and the input stays in view */
  vc_drop_down_set_selected (VC_DROP_DOWN (engine), vc_test_choice_position (engine, "SGLang"));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (sampler));
  g_assert_false (vc_estimate_check (f->estimate, &error));
  g_assert_nonnull (strstr (error->message, "the sampler flashinfer is vLLM’s"));
  g_clear_error (&error);
  vc_drop_down_set_selected (VC_DROP_DOWN (sampler),
                             vc_test_choice_position (sampler, "PyTorch’s sort (VLLM_USE_FLASHINFER_SAMPLER=0)"));
  g_assert_cmpint (in->vllm_sampler, ==, VC_VLLM_SAMPLER_SORT);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (sampler));
  g_assert_true (vc_estimate_check (f->estimate, NULL));
}

static void
test_vendor_groups (Fixture       *f,
                    gconstpointer  data)
{
  VcDropDown *filter = VC_DROP_DOWN (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "vendor_filter"));
  guint n = vc_estimate_get_n_gpus (f->estimate);
  int all_height, amd_height;
  graphene_rect_t bar;
  GdkRGBA color;

  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  all_height = gtk_widget_get_height (GTK_WIDGET (f->chart));
  for (guint i = 0; i < n; i++)
    g_assert_true (vc_gpu_chart_get_bar (f->chart, i, &bar, &color));

  /* NVIDIA's cards come first, under their heading, before AMD's */
  {
    graphene_rect_t nvidia, amd;

    g_assert_true (vc_gpu_chart_get_bar (f->chart, vc_test_gpu_index (f->estimate, "h200"), &nvidia, &color));
    g_assert_true (vc_gpu_chart_get_bar (f->chart, vc_test_gpu_index (f->estimate, "rx-7900-xtx"), &amd, &color));
    g_assert_cmpfloat (nvidia.origin.y, <, amd.origin.y);
    g_assert_cmpfloat (nvidia.origin.y, >, 0);
  }

  /* one vendor: only its bars, and a shorter chart */
  vc_drop_down_set_selected (filter, vc_test_choice_position (GTK_WIDGET (filter), "AMD"));
  g_assert_cmpstr (vc_gpu_chart_get_vendor_filter (f->chart), ==, "AMD");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  amd_height = gtk_widget_get_height (GTK_WIDGET (f->chart));
  g_assert_cmpint (amd_height, <, all_height);
  for (guint i = 0; i < n; i++)
    g_assert_true (vc_gpu_chart_get_bar (f->chart, i, &bar, &color) ==
                   g_str_equal (vc_estimate_get_gpu (f->estimate, i)->vendor, "AMD"));

  /* a view setting, not an input: the estimate does not change */
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n);
  vc_drop_down_set_selected (filter, 0);
  g_assert_null (vc_gpu_chart_get_vendor_filter (f->chart));
}

/* cards read from this computer become the user's own, once, under their heading */
static void
test_this_computer (Fixture       *f,
                    gconstpointer  data)
{
  GtkMenuButton *button = GTK_MENU_BUTTON (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "gpu_editor_button"));
  VcGpuEditor *editor;
  g_autoptr(GPtrArray) gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) vc_local_gpu_free);
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *custom = NULL;
  VcLocalGpu *g = g_new0 (VcLocalGpu, 1);
  guint n_catalog;
  graphene_rect_t bar;
  GdkRGBA color;

  g->name = g_strdup ("NVIDIA GeForce RTX 4090");
  g->vendor = g_strdup ("NVIDIA");
  g->memory_bytes = 24564.0 * 1048576;
  g_ptr_array_add (gpus, g);
  vc_gpus_get_all (&n_catalog);

  /* "Your GPUs…" makes its popover and the editor in it when it first opens */
  g_assert_null (gtk_menu_button_get_popover (button));
  gtk_menu_button_popup (button);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (button))));
  editor = _vc_results_view_ensure_gpu_editor (VC_RESULTS_VIEW (f->results));
  g_assert_true (gtk_widget_is_ancestor (GTK_WIDGET (editor), GTK_WIDGET (gtk_menu_button_get_popover (button))));
  gtk_menu_button_popdown (button);

  g_assert_false (vc_gpu_editor_add_local (editor, none, &error));
  g_assert_nonnull (strstr (error->message, "No GPU found"));
  g_clear_error (&error);

  g_assert_true (vc_gpu_editor_add_local (editor, gpus, &error));
  g_assert_no_error (error);
  g_assert_true (vc_gpu_editor_add_local (editor, gpus, &error));
  g_object_get (f->estimate, "custom-gpus", &custom, NULL);
  g_assert_cmpstr (custom, ==, "NVIDIA GeForce RTX 4090=24564MiB");
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n_catalog + 1);

  /* shown with the user's cards: the filter's last choice */
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vc_gpu_chart_set_vendor_filter (f->chart, "");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (vc_gpu_chart_get_bar (f->chart, n_catalog, &bar, &color));
  g_assert_false (vc_gpu_chart_get_bar (f->chart, 0, &bar, &color));
}

/* vLLM's RoPE tables in the window: Gemma 3 27B's two (163,840 and 1,310,720 positions of 128
 * in bf16, 377,487,360 bytes) inside the weights row, whose tooltip formula names them */
static void
test_rope_table (Fixture       *f,
                 gconstpointer  data)
{
  GtkColumnView *view = GTK_COLUMN_VIEW (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "breakdown_view"));
  g_autoptr(GError) error = NULL;
  g_autofree char *weights_text = NULL, *generic_text = NULL, *formula = NULL;
  const VcScenarioResult *sc;
  GtkWidget *cell;

  g_assert_true (vc_estimate_set_preset (f->estimate, "gemma-3-27b-it", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_GENERIC, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  generic_text = vc_format_size (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], VC_UNIT_GB);
  g_object_set (f->estimate, "engine", VC_ENGINE_VLLM, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  sc = vc_estimate_get_selected (f->estimate);
  g_assert_cmpfloat (sc->rope_table, ==, 377487360.0);
  weights_text = vc_format_size (sc->bytes[VC_COMPONENT_WEIGHTS], VC_UNIT_GB);
  g_assert_cmpstr (weights_text, !=, generic_text);
  cell = vc_test_find_label (GTK_WIDGET (view), weights_text);
  g_assert_nonnull (cell);
  g_assert_null (vc_test_find_label (GTK_WIDGET (view), generic_text));
  {
    GtkTooltip *tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
    gboolean shown = FALSE;

    g_signal_emit_by_name (cell, "query-tooltip", 1, 1, FALSE, tooltip, &shown);
    g_assert_true (shown);
    g_object_unref (tooltip);
  }
  formula = vc_formula_describe (f->estimate, vc_estimate_get_result (f->estimate)->selected,
                                 VC_COMPONENT_WEIGHTS, VC_UNIT_GB);
  g_assert_nonnull (strstr (formula, "; plus the RoPE cos/sin tables vLLM builds on each GPU: 1474560 positions × "
                                     "128 rotary dimensions × 2 bytes = 377\u00a0MB; in all "));
}

/* A typed-in architecture under vLLM: the window's model note says which RoPE table it takes
 * (max-context rows × the head dimension), follows the context typed, and goes with a preset */
static void
test_typed_in_rope_note (Fixture       *f,
                         gconstpointer  data)
{
  VcModelSection *section = VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_INFERENCE));

  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "max-context", 4096, NULL);
  g_object_set (f->estimate, "layers", 30, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "");
  g_assert_nonnull (vc_model_section_get_note (section));
  g_assert_nonnull (strstr (vc_model_section_get_note (section), "one plain table of 4096 positions × 128 rotary dimensions"));
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->rope_table, ==, 4096 * 128 * 2.0);
  g_object_set (f->estimate, "max-context", 8192, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (strstr (vc_model_section_get_note (section), "one plain table of 8192 positions"));
  g_object_set (f->estimate, "engine", VC_ENGINE_GENERIC, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_null (vc_model_section_get_note (section));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display: GUI tests need one (build-aux/test runs them under Xvfb)");
      return g_test_run ();
    }

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/engines-window/llama-cpp-inputs", test_llama_cpp_inputs);
  ADD ("/engines-window/engine-inputs", test_engine_inputs);
  ADD ("/engines-window/speed-and-capacity", test_speed_and_capacity);
  ADD ("/engines-window/state-capacity", test_state_capacity);
  ADD ("/engines-window/sglang-state-pool", test_sglang_state_pool);
  ADD ("/engines-window/sglang-repeated-group", test_sglang_repeated_group);
  ADD ("/engines-window/vision-capacity", test_vision_capacity);
  ADD ("/engines-window/qwen3-vl-capacity", test_qwen3_vl_capacity);
  ADD ("/engines-window/mxfp4-capacity", test_mxfp4_capacity);
  ADD ("/engines-window/sliding-stages", test_sliding_stages);
  ADD ("/engines-window/mixer-stages", test_mixer_stages);
  ADD ("/engines-window/mxfp4-backend-input", test_mxfp4_backend_input);
  ADD ("/engines-window/vllm-sampler-input", test_vllm_sampler_input);
  ADD ("/engines-window/mm-encoder-tp-mode-input", test_mm_encoder_tp_mode_input);
  ADD ("/engines-window/vendor-groups", test_vendor_groups);
  ADD ("/engines-window/rope-table", test_rope_table);
  ADD ("/engines-window/typed-in-rope-note", test_typed_in_rope_note);
  ADD ("/engines-window/this-computer", test_this_computer);
  return g_test_run ();
}
