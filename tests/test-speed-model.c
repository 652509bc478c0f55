/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The speed arithmetic of FORMULAS.md ("Speed") on hand-worked examples: the rule of thumb's
 * 7B model (weights and KV cache in closed form) on an H100 80 GB (3,350 GB/s, 989 dense bf16
 * TFLOPS, HBM: 0.530 of the bandwidth and 0.178 of the matrix rate, from the calibration). */
#include "config.h"

#include <math.h>

#include "vc-estimate.h"
#include "vc-speed.h"
#include "vc-test-util.h"

#define H100_BW 3350e9
#define H100_BF16 989e12
#define HBM_BW 0.530
#define HBM_C 0.178

static void
speed_for (VcEstimate *e,
           const char *id,
           VcSpeed    *speed)
{
  guint i = vc_test_gpu_index (e, id);
  const VcResult *r = vc_estimate_get_result (e);

  vc_speed_compute (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected], vc_estimate_get_gpu (e, i),
                    vc_estimate_get_gpu_fit (e, i)->count, speed);
}

static void
assert_close (double a,
              double b)
{
  g_assert_cmpfloat (fabs (a - b), <=, 1e-9 * fabs (b));
}

static void
test_decode_prefill (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  VcSpeed s;

  g_assert_cmpfloat (vc_speed_bandwidth_efficiency (VC_MEMORY_KIND_HBM), ==, HBM_BW);
  g_assert_cmpfloat (vc_speed_compute_efficiency (VC_MEMORY_KIND_HBM), ==, HBM_C);
  /* 7B at bf16: 14 GB of weights; KV 7e9 × 2 × 2048 / 20480 = 1.4 GB, half read on average */
  speed_for (e, "h100-80gb", &s);
  g_assert_true (s.known);
  g_assert_cmpfloat (s.gpus, ==, 1);
  assert_close (s.decode_step_seconds, 14.7e9 / (H100_BW * HBM_BW));
  assert_close (s.decode_tokens_per_s, H100_BW * HBM_BW / 14.7e9);          /* 120.78 */
  assert_close (s.prefill_tokens_per_s, H100_BF16 * HBM_C / (2 * 7e9));      /* 12,574 */

  /* 8 sequences: weights read once a step for all, the cache of each */
  g_object_set (e, "concurrency", 8, NULL);
  speed_for (e, "h100-80gb", &s);
  assert_close (s.decode_tokens_per_s, 8 * H100_BW * HBM_BW / (14e9 + 8 * 1.4e9 / 2));

  /* FP8 weights: half the bytes, and the card's FP8 rate for prefill */
  g_object_set (e, "concurrency", 1, "precision", VC_PRECISION_FP8, NULL);
  speed_for (e, "h100-80gb", &s);
  assert_close (s.decode_tokens_per_s, H100_BW * HBM_BW / (7e9 + 0.7e9));
  assert_close (s.prefill_tokens_per_s, 1979e12 * HBM_C / (2 * 7e9));
  /* no FP8 units on an A100: 16-bit rate */
  speed_for (e, "a100-80gb", &s);
  assert_close (s.prefill_tokens_per_s, 312e12 * HBM_C / (2 * 7e9));
}

static void
test_moe_and_engines (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  VcSpeed s;

  /* MoE: 47B total, 13B active: a step reads 13/47 of the weights */
  g_object_set (e, "model-type", VC_MODEL_TYPE_MOE, "parameters", 47e9, "active-parameters", 13e9, NULL);
  speed_for (e, "h200", &s);
  assert_close (s.decode_tokens_per_s,
                4800e9 * HBM_BW / (94e9 * 13 / 47 + 13e9 * 2 * 2048 / 20480 / 2));

  /* two 48 GB L40S for 94 GB: tensor parallel doubles the rate; llama.cpp's layer split does not */
  speed_for (e, "l40s", &s);
  g_assert_cmpfloat (s.gpus, >=, 2);
  {
    double tp = s.decode_tokens_per_s;

    g_object_set (e, "engine", VC_ENGINE_LLAMA_CPP, NULL);
    speed_for (e, "l40s", &s);
    assert_close (s.decode_tokens_per_s * s.gpus, tp);
  }
}

static void
test_training (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  VcSpeed s;

  /* LoRA (the default): 4 FLOPs per parameter and token, 2048 tokens a step, at 40 % MFU */
  g_object_set (e, "mode", VC_MODE_TRAINING, NULL);
  speed_for (e, "h100-80gb", &s);
  g_assert_cmpfloat (s.gpus, ==, 1);
  assert_close (s.step_seconds, 4 * 7e9 * 2048 / (H100_BF16 * 0.4));       /* 0.145 s */
  assert_close (s.train_tokens_per_s, H100_BF16 * 0.4 / (4 * 7e9));
  /* full fine-tuning: 6 FLOPs; MFU 0.5 */
  g_object_set (e, "finetune", VC_FINETUNE_FULL, "mfu", 0.5, NULL);
  speed_for (e, "b200", &s);
  assert_close (s.step_seconds, 6 * 7e9 * 2048 / (s.gpus * 2250e12 * 0.5));
}

static void
test_unknown_card (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  VcSpeed s;
  guint n = vc_estimate_get_n_gpus (e);

  g_assert_true (vc_estimate_set_custom_gpus (e, "Lab card=24GB", &error));
  {
    const VcResult *r = vc_estimate_get_result (e);

    vc_speed_compute (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected],
                      vc_estimate_get_gpu (e, n), vc_estimate_get_gpu_fit (e, n)->count, &s);
  }
  g_assert_false (s.known);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/speed-model/decode-prefill", test_decode_prefill);
  g_test_add_func ("/speed-model/moe-and-engines", test_moe_and_engines);
  g_test_add_func ("/speed-model/training", test_training);
  g_test_add_func ("/speed-model/unknown-card", test_unknown_card);
  return g_test_run ();
}
