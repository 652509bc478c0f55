/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exact parameter counts, activated parameters, KV bytes per token and LoRA trainable counts
 * computed from each preset's architecture, against published figures. */
#include "config.h"

#include <math.h>

#include "vc-arch.h"
#include "vc-error.h"
#include "vc-catalog.h"
#include "vc-estimator.h"

static const char *required_presets[] = {
  "gpt2", "llama-3.2-1b", "llama-3.2-3b", "mistral-7b", "llama-3-8b", "llama-2-13b",
  "mixtral-8x7b", "llama-3-70b", "llama-3.1-405b", "qwen2.5-7b", "deepseek-r1",
};

static void
test_required_presets (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (required_presets); i++)
    g_assert_nonnull (vc_presets_lookup (required_presets[i]));
}

/* every preset's count from its architecture equals the count its publisher states
 * (data/models/index.json: published_parameters and published_source) */
static void
test_preset_counts (void)
{
  guint n;
  const VcPreset *p = vc_presets_get_all (&n);

  g_assert_cmpuint (n, >=, G_N_ELEMENTS (required_presets));
  for (guint i = 0; i < n; i++)
    {
      VcParamCounts c;
      g_autoptr(GError) error = NULL;

      g_test_message ("%s", p[i].id);
      g_assert_true (vc_arch_validate (&p[i].arch, &error));
      g_assert_no_error (error);
      vc_arch_count_params (&p[i].arch, &c);
      g_assert_cmpfloat (c.total, ==, p[i].published_parameters);
      g_assert_cmpfloat (c.total, ==, c.embedding + c.head + c.linear + c.other);
      /* a dense model activates all but its vision encoder (Qwen3-VL's), which runs once an image */
      if (!vc_arch_is_moe (&p[i].arch))
        g_assert_cmpfloat (c.active, ==, c.total - p[i].arch.encoder_params);
    }
}

static void
test_exact_counts (void)
{
  /* the figures estimator.md quotes */
  static const struct { const char *id; double total; } known[] = {
    { "llama-3-8b", 8030261248.0 },
    { "mistral-7b", 7241732096.0 },
    { "gpt2", 124439808.0 },
    { "mixtral-8x7b", 46702792704.0 },
    { "llama-3.1-405b", 405853388800.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (known); i++)
    {
      VcParamCounts c;

      vc_arch_count_params (&vc_presets_lookup (known[i].id)->arch, &c);
      g_assert_cmpfloat (c.total, ==, known[i].total);
    }
}

static void
test_moe_active (void)
{
  VcParamCounts c;

  /* Mixtral 8x7B: 12.9B active (2 of 8 experts) */
  vc_arch_count_params (&vc_presets_lookup ("mixtral-8x7b")->arch, &c);
  g_assert_cmpfloat (c.active, ==, 12879925248.0);

  /* Qwen3-30B-A3B: 3.3B activated (8 of 128 experts) */
  vc_arch_count_params (&vc_presets_lookup ("qwen3-30b-a3b")->arch, &c);
  g_assert_cmpfloat (c.active, ==, 3353032704.0);
  g_assert_cmpfloat (c.active, ==, vc_presets_lookup ("qwen3-30b-a3b")->published_active_parameters);

  /* DeepSeek-R1: 671B total of which 37B activated (8 of 256 routed experts and 1 shared):
   * the publisher rounds; ours is the exact count of the tensors a token goes through */
  vc_arch_count_params (&vc_presets_lookup ("deepseek-r1")->arch, &c);
  g_assert_cmpfloat (c.total, ==, 671026419200.0);
  g_assert_cmpfloat (c.active, ==, 37552297472.0);
  g_assert_cmpfloat (fabs (c.active - 37e9) / 37e9, <, 0.02);
}

static void
test_kv_bytes_per_token (void)
{
  /* 2 × a_kv × d × L × 2 bytes; MLA: (kv_lora_rank + qk_rope_head_dim) × L × 2 bytes */
  static const struct { const char *id; double bytes; } kv[] = {
    { "llama-3-8b", 131072 },          /* 128 KiB: 2 × 8 × 128 × 32 × 2 */
    { "llama-2-7b", 524288 },          /* MHA: 4 times Llama 3 8B's */
    { "mistral-7b", 131072 },
    { "llama-3-70b", 327680 },
    { "qwen2.5-7b", 57344 },           /* 4 KV heads */
    { "falcon-7b", 8192 },             /* multi-query */
    { "gemma-2-9b", 344064 },          /* head_dim 256 */
    { "deepseek-r1", 70272 },          /* (512 + 64) × 61 × 2 */
    { "gpt2", 36864 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (kv); i++)
    g_assert_cmpfloat (vc_arch_kv_bytes_per_token (&vc_presets_lookup (kv[i].id)->arch, 2.0), ==, kv[i].bytes);
}

static void
test_lora_params (void)
{
  /* PEFT's print_trainable_parameters for these well-known configurations */
  g_assert_cmpfloat (vc_arch_lora_params (&vc_presets_lookup ("llama-2-7b")->arch, 8,
                                          VC_LORA_TARGET_Q | VC_LORA_TARGET_V), ==, 4194304);
  g_assert_cmpfloat (vc_arch_lora_params (&vc_presets_lookup ("llama-3.2-3b")->arch, 64,
                                          VC_LORA_TARGET_Q | VC_LORA_TARGET_V), ==, 18350080);
  g_assert_cmpfloat (vc_arch_lora_params (&vc_presets_lookup ("llama-3.2-3b")->arch, 10,
                                          VC_LORA_TARGET_GATE | VC_LORA_TARGET_UP | VC_LORA_TARGET_DOWN),
                     ==, 9461760);
  /* Llama 3 8B, r = 16 on all linear layers: 41,943,040 */
  g_assert_cmpfloat (vc_arch_lora_params (&vc_presets_lookup ("llama-3-8b")->arch, 16,
                                          VC_LORA_TARGETS_ALL_LINEAR), ==, 41943040);
}

static void
test_sliding_window_cap (void)
{
  VcInputs in;
  VcResult r;
  double kv_8k, kv_32k;

  vc_inputs_init_default (&in);
  in.method = VC_METHOD_ARCHITECTURE;
  in.arch = vc_presets_lookup ("mistral-7b")->arch;    /* window 4096 on every layer */
  in.seq = 8192;
  vc_estimator_compute (&in, &r);
  kv_8k = r.scenarios[r.selected].bytes[VC_COMPONENT_KV_CACHE];
  g_assert_cmpfloat (kv_8k, ==, 131072.0 * 4096);
  in.seq = 32768;
  vc_estimator_compute (&in, &r);
  kv_32k = r.scenarios[r.selected].bytes[VC_COMPONENT_KV_CACHE];
  g_assert_cmpfloat (kv_32k, ==, kv_8k);
  /* kv_bytes_per_token is reported before the cap */
  g_assert_cmpfloat (r.kv_bytes_per_token, ==, 131072);

  /* Gemma 2: half the layers slide */
  in.arch = vc_presets_lookup ("gemma-2-9b")->arch;
  in.seq = 8192;
  vc_estimator_compute (&in, &r);
  g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_KV_CACHE], ==,
                     (344064.0 / 42) * (21 * 8192.0 + 21 * 4096.0));
}

static void
test_kv_precision (void)
{
  VcInputs in;
  VcResult r;

  vc_inputs_init_default (&in);
  in.method = VC_METHOD_ARCHITECTURE;
  in.arch = vc_presets_lookup ("llama-3-8b")->arch;
  in.seq = 1000;
  in.concurrency = 3;
  in.kv_precision = VC_PRECISION_FP8;
  vc_estimator_compute (&in, &r);
  g_assert_cmpfloat (r.kv_bytes_per_token, ==, 65536);
  g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_KV_CACHE], ==, 65536.0 * 3000);
}

static void
test_quantized_weights (void)
{
  VcInputs in;
  VcResult r;
  VcParamCounts c;
  const VcScenarioResult *sc4 = NULL;

  vc_inputs_init_default (&in);
  in.method = VC_METHOD_ARCHITECTURE;
  in.arch = vc_presets_lookup ("llama-3-8b")->arch;
  vc_arch_count_params (&in.arch, &c);
  vc_estimator_compute (&in, &r);
  for (guint i = 0; i < r.n_scenarios; i++)
    if (r.scenarios[i].id == VC_SCENARIO_INFERENCE_4BIT)
      sc4 = &r.scenarios[i];
  g_assert_nonnull (sc4);
  /* linear layers at 4.5 bits (block-64 absmax), embeddings, head and norms in 16 bits */
  g_assert_cmpfloat (sc4->bytes[VC_COMPONENT_WEIGHTS], ==,
                     round (c.linear * 4.5 / 8 + (c.embedding + c.head + c.other) * 2));
  g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_WEIGHTS], ==, 8030261248.0 * 2);
}

static void
test_validate (void)
{
  VcArch a = vc_arch_default;
  g_autoptr(GError) error = NULL;

  a.n_kv_heads = 3;
  g_assert_false (vc_arch_validate (&a, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  g_assert_nonnull (strstr (error->message, "kv-heads"));
  g_clear_error (&error);

  a = vc_arch_default;
  a.n_layers = 0;
  g_assert_false (vc_arch_validate (&a, &error));
  g_assert_nonnull (strstr (error->message, "layers"));
  g_clear_error (&error);

  a = vc_arch_default;
  a.n_experts = 8;
  a.experts_per_token = 9;
  g_assert_false (vc_arch_validate (&a, &error));
  g_assert_nonnull (strstr (error->message, "experts-per-token"));
}

/* The layer patterns against the counts: Qwen3-Next's 48 layers, attention at 3, 7 … 47
 * (period 4, offset 3) and the 36 others Gated DeltaNet; Gemma 3 27B's 62 layers, every 6th
 * full, 52 windowed */
static void
test_validate_patterns (void)
{
  VcArch a = vc_arch_default;
  g_autoptr(GError) error = NULL;

  a.n_layers = 48;
  a.recurrent_layers = 36;
  a.attention_layer_period = 4;
  a.attention_layer_offset = 3;
  g_assert_true (vc_arch_validate (&a, &error));
  g_assert_no_error (error);

  a.attention_layer_offset = 4;
  g_assert_false (vc_arch_validate (&a, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  g_assert_cmpstr (error->message, ==, "attention-layer-offset (4) must be below attention-layer-period (4)");
  g_clear_error (&error);

  /* offset 1: attention at 1, 5 … 45, still 12; offset 0 with 37 mixers does not add up */
  a.attention_layer_offset = 1;
  g_assert_true (vc_arch_validate (&a, NULL));
  a.attention_layer_offset = 0;
  a.recurrent_layers = 37;
  g_assert_false (vc_arch_validate (&a, &error));
  g_assert_cmpstr (error->message, ==, "attention-layer-period 4 and offset 0 leave 36 of the 48 layers with a "
                                       "mixer instead of attention, but recurrent-layers is 37");
  g_clear_error (&error);

  /* no period: which layers hold a mixer is not known, whatever the offset */
  a.attention_layer_period = 0;
  a.attention_layer_offset = 3;
  g_assert_true (vc_arch_validate (&a, NULL));

  a = vc_arch_default;
  a.n_layers = 62;
  a.sliding_window = 1024;
  a.sliding_window_layers = 52;
  a.sliding_window_pattern = 6;
  g_assert_true (vc_arch_validate (&a, NULL));
  a.sliding_window_pattern = 5;
  g_assert_false (vc_arch_validate (&a, &error));
  g_assert_cmpstr (error->message, ==, "sliding-window-pattern 5 gives 50 sliding-window layers of 62, but "
                                       "sliding-window-layers is 52");
  g_clear_error (&error);
  /* the window on every layer: the pattern is not read */
  a.sliding_window_layers = 62;
  g_assert_true (vc_arch_validate (&a, NULL));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/arch/required-presets", test_required_presets);
  g_test_add_func ("/arch/preset-counts", test_preset_counts);
  g_test_add_func ("/arch/exact-counts", test_exact_counts);
  g_test_add_func ("/arch/moe-active", test_moe_active);
  g_test_add_func ("/arch/kv-bytes-per-token", test_kv_bytes_per_token);
  g_test_add_func ("/arch/lora-params", test_lora_params);
  g_test_add_func ("/arch/sliding-window-cap", test_sliding_window_cap);
  g_test_add_func ("/arch/kv-precision", test_kv_precision);
  g_test_add_func ("/arch/quantized-weights", test_quantized_weights);
  g_test_add_func ("/arch/validate", test_validate);
  g_test_add_func ("/arch/validate-patterns", test_validate_patterns);
  return g_test_run ();
}
