/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rule-of-thumb method against the seed's worked examples, to the last digit. */
#include "config.h"

#include <math.h>

#include "vc-catalog.h"
#include "vc-estimate.h"
#include "vc-estimator.h"
#include "vc-inventory.h"
#include "vc-test-util.h"

static void
seed_inputs (VcInputs *in)
{
  vc_inputs_init_default (in);
  in->method = VC_METHOD_RULE_OF_THUMB;
  in->parameters = 7e9;
  in->batch = 1;
  in->seq = 2048;
  in->concurrency = 1;
}

static const VcScenarioResult *
find (const VcResult *r,
      VcScenario      id)
{
  for (guint i = 0; i < r->n_scenarios; i++)
    if (r->scenarios[i].id == id)
      return &r->scenarios[i];
  g_assert_not_reached ();
}

static void
test_seed_inference (void)
{
  VcInputs in;
  VcResult r;
  static const struct { VcScenario id; double weights, total; } rows[] = {
    { VC_SCENARIO_INFERENCE_16BIT, 14e9, 18.8e9 },
    { VC_SCENARIO_INFERENCE_8BIT, 7e9, 11.8e9 },
    { VC_SCENARIO_INFERENCE_4BIT, 3.5e9, 8.3e9 },
  };

  seed_inputs (&in);
  vc_estimator_compute (&in, &r);
  g_assert_cmpuint (r.n_scenarios, ==, 3);
  g_assert_cmpint (r.scenarios[r.selected].id, ==, VC_SCENARIO_INFERENCE_16BIT);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const VcScenarioResult *sc = find (&r, rows[i].id);

      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_WEIGHTS], ==, rows[i].weights);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_ACTIVATIONS], ==, 1.4e9);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, 1.4e9);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_OVERHEAD], ==, 2e9);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_GRADIENTS], ==, 0);
      g_assert_cmpfloat (sc->total, ==, rows[i].total);
    }
}

static void
test_seed_training (void)
{
  VcInputs in;
  VcResult r;
  static const struct { VcScenario id; double weights, grads, opt, total; } rows[] = {
    { VC_SCENARIO_FULL, 14e9, 14e9, 56e9, 87.4e9 },
    { VC_SCENARIO_LORA, 14e9, 0.14e9, 0.56e9, 18.1e9 },
    { VC_SCENARIO_QLORA_8BIT, 7e9, 0.14e9, 0.56e9, 11.1e9 },
    { VC_SCENARIO_QLORA_4BIT, 3.5e9, 0.14e9, 0.56e9, 7.6e9 },
  };

  seed_inputs (&in);
  in.mode = VC_MODE_TRAINING;
  vc_estimator_compute (&in, &r);
  g_assert_cmpuint (r.n_scenarios, ==, 4);
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      const VcScenarioResult *sc = find (&r, rows[i].id);

      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_WEIGHTS], ==, rows[i].weights);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_GRADIENTS], ==, rows[i].grads);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_OPTIMIZER], ==, rows[i].opt);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_ACTIVATIONS], ==, 1.4e9);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, 0);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_MASTER_WEIGHTS], ==, 0);
      g_assert_cmpfloat (sc->bytes[VC_COMPONENT_OVERHEAD], ==, 2e9);
      /* the seed rounds the LoRA rows to 0.1 GB: 18.1 is 18.1e9, 11.1 is 11.1e9, 7.6 is 7.6e9 */
      g_assert_cmpfloat (sc->total, ==, rows[i].total);
    }
}

static void
test_seed_optimizers (void)
{
  static const struct { VcOptimizer opt; double full, lora; } rows[] = {
    { VC_OPTIMIZER_SGD, 0, 0 },
    { VC_OPTIMIZER_SGD_MOMENTUM, 28e9, 0.28e9 },
    { VC_OPTIMIZER_RMSPROP, 28e9, 0.28e9 },
    { VC_OPTIMIZER_ADAM, 56e9, 0.56e9 },
    { VC_OPTIMIZER_ADAMW, 56e9, 0.56e9 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    {
      VcInputs in;
      VcResult r;

      seed_inputs (&in);
      in.mode = VC_MODE_TRAINING;
      in.optimizer = rows[i].opt;
      vc_estimator_compute (&in, &r);
      g_assert_cmpfloat (find (&r, VC_SCENARIO_FULL)->bytes[VC_COMPONENT_OPTIMIZER], ==, rows[i].full);
      g_assert_cmpfloat (find (&r, VC_SCENARIO_LORA)->bytes[VC_COMPONENT_OPTIMIZER], ==, rows[i].lora);
      g_assert_cmpfloat (find (&r, VC_SCENARIO_QLORA_4BIT)->bytes[VC_COMPONENT_OPTIMIZER], ==, rows[i].lora);
    }
}

static void
test_optimizer_variants (void)
{
  VcInputs in;
  VcResult r;

  seed_inputs (&in);
  in.mode = VC_MODE_TRAINING;
  in.optimizer_precision = VC_STATE_PRECISION_BF16;
  vc_estimator_compute (&in, &r);
  /* pure-bf16 trainers: 2 states × 2 bytes */
  g_assert_cmpfloat (find (&r, VC_SCENARIO_FULL)->bytes[VC_COMPONENT_OPTIMIZER], ==, 28e9);

  in.optimizer = VC_OPTIMIZER_ADAMW_8BIT;
  vc_estimator_compute (&in, &r);
  /* bitsandbytes: 2 × 1 byte plus an fp32 absmax per 2048 values */
  g_assert_cmpfloat (find (&r, VC_SCENARIO_FULL)->bytes[VC_COMPONENT_OPTIMIZER], ==, 14e9 + 14e9 * 4 / 2048);
}

static void
test_moe_activated (void)
{
  VcInputs in;
  VcResult r;
  const VcScenarioResult *sc;

  /* seed 000: DeepSeek-R1 loads 671B but activations follow the 37B activated */
  seed_inputs (&in);
  in.model_type = VC_MODEL_TYPE_MOE;
  in.parameters = 671e9;
  in.active_parameters = 37e9;
  vc_estimator_compute (&in, &r);
  sc = find (&r, VC_SCENARIO_INFERENCE_16BIT);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_WEIGHTS], ==, 1342e9);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_ACTIVATIONS], ==, 7.4e9);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, 7.4e9);
  g_assert_cmpfloat (sc->total, ==, 1342e9 + 7.4e9 + 7.4e9 + 2e9);
}

static void
test_scaling_and_options (void)
{
  VcInputs in;
  VcResult r;
  const VcScenarioResult *sc;

  seed_inputs (&in);
  in.batch = 2;
  in.seq = 4096;
  in.concurrency = 3;
  vc_estimator_compute (&in, &r);
  sc = find (&r, VC_SCENARIO_INFERENCE_16BIT);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_ACTIVATIONS], ==, 1.4e9 * 4);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, 1.4e9 * 12);

  /* seed 003: mixed precision adds 4 bytes per trainable parameter; √L checkpointing */
  seed_inputs (&in);
  in.mode = VC_MODE_TRAINING;
  in.mixed_precision = TRUE;
  in.checkpointing = VC_CHECKPOINTING_SQRT;
  in.arch.n_layers = 16;
  vc_estimator_compute (&in, &r);
  sc = find (&r, VC_SCENARIO_FULL);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_MASTER_WEIGHTS], ==, 28e9);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_ACTIVATIONS], ==, 1.4e9 / 4);

  /* the overhead is an input */
  seed_inputs (&in);
  in.overhead_gb = 0.5;
  vc_estimator_compute (&in, &r);
  g_assert_cmpfloat (find (&r, VC_SCENARIO_INFERENCE_16BIT)->total, ==, 17.3e9);

  /* fp32 inference gets its own scenario, selected */
  seed_inputs (&in);
  in.precision = VC_PRECISION_FP32;
  vc_estimator_compute (&in, &r);
  g_assert_cmpuint (r.n_scenarios, ==, 4);
  g_assert_cmpint (r.scenarios[r.selected].id, ==, VC_SCENARIO_INFERENCE_32BIT);
  g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_WEIGHTS], ==, 28e9);

  /* training inputs leave inference alone: the seed's 7B serves in 18.8 / 11.8 / 8.3 GB with
   * any gradient checkpointing and any training precision */
  seed_inputs (&in);
  in.checkpointing = VC_CHECKPOINTING_FULL;
  in.training_precision = VC_TRAINING_PRECISION_FP32;
  vc_estimator_compute (&in, &r);
  g_assert_cmpfloat (find (&r, VC_SCENARIO_INFERENCE_16BIT)->total, ==, 18.8e9);
  g_assert_cmpfloat (find (&r, VC_SCENARIO_INFERENCE_8BIT)->total, ==, 11.8e9);
  g_assert_cmpfloat (find (&r, VC_SCENARIO_INFERENCE_4BIT)->total, ==, 8.3e9);

  /* and the inference weight precision leaves training alone: 87.4 GB for full fine-tuning */
  seed_inputs (&in);
  in.mode = VC_MODE_TRAINING;
  in.precision = VC_PRECISION_INT4;
  vc_estimator_compute (&in, &r);
  g_assert_cmpfloat (find (&r, VC_SCENARIO_FULL)->total, ==, 87.4e9);
}

static void
test_extremes_finite (void)
{
  VcInputs in;
  VcResult r;

  for (int method = 0; method < 2; method++)
    for (int mode = 0; mode < 2; mode++)
      {
        seed_inputs (&in);
        in.method = method;
        in.mode = mode;
        in.parameters = 100e12;
        in.seq = 10000000;
        in.batch = 1000000;
        in.concurrency = 1000000;
        in.arch.n_layers = 100000;
        in.arch.hidden_size = 1000000;
        in.arch.n_heads = 100000;
        in.arch.n_kv_heads = 100000;
        in.arch.vocab_size = 100000000;
        in.arch.intermediate_size = 10000000;
        in.flash_attention = FALSE;
        vc_estimator_compute (&in, &r);
        for (guint i = 0; i < r.n_scenarios; i++)
          {
            g_assert_true (isfinite (r.scenarios[i].total));
            g_assert_cmpfloat (r.scenarios[i].total, >, 0);
            for (guint c = 0; c < VC_N_COMPONENTS; c++)
              {
                g_assert_true (isfinite (r.scenarios[i].bytes[c]));
                g_assert_cmpfloat (r.scenarios[i].bytes[c], >=, 0);
              }
          }
      }
}

/* The GPU table's count is the layout search's (vc_layout_smallest_each): the seed's 7B by the
 * rule of thumb, 18.8 GB of which 2 GB overhead, on cards of one's own */
static void
test_gpu_count (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  const VcGpuFit *fit;

  g_assert_true (vc_estimate_set_custom_gpus (e, "A=24; B=16; C=18.8; D=10; E=2", NULL));
  fit = vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "custom-1"));
  g_assert_true (fit->fits);
  g_assert_cmpfloat (fit->count, ==, 1);

  /* 16.8 GB split over GPUs of 16 GB that each keep 2 GB: 16.8 / 14 → 2 */
  fit = vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "custom-2"));
  g_assert_false (fit->fits);
  g_assert_cmpfloat (fit->count, ==, 2);
  g_assert_cmpfloat (fit->per_gpu_bytes, ==, 16.8e9 / 2 + 2e9);

  /* exactly full still fits */
  fit = vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "custom-3"));
  g_assert_true (fit->fits);
  g_assert_cmpfloat (fit->count, ==, 1);

  /* 10 GB cards: 16.8 / 8 = 2.1 → 3 (plain total ÷ capacity would say 2) */
  fit = vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "custom-4"));
  g_assert_cmpfloat (fit->count, ==, 3);

  /* a card no bigger than the overhead never holds anything */
  fit = vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "custom-5"));
  g_assert_false (fit->fits);
  g_assert_cmpfloat (fit->count, ==, 0);
}

static void
test_gpu_count_kv_replicated (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  const VcScenarioResult *sc;
  const VcGpuFit *fit;

  /* a model with 2 KV heads: past 2 GPUs the KV cache no longer splits */
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "kv-heads", 2, "seq", 200000,
                "overhead-gb", 1.0, NULL);
  g_assert_true (vc_estimate_set_custom_gpus (e, "X=16", NULL));
  sc = vc_estimate_get_selected (e);
  fit = vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "custom-1"));
  {
    double K = sc->bytes[VC_COMPONENT_KV_CACHE];
    double S = sc->total - K - 1e9;
    double cap = 16e9;

    g_assert_cmpfloat (K / 2 + 1e9, <, cap);
    g_test_message ("count %g, closed form %g", fit->count, ceil (S / (cap - 1e9 - K / 2)));
    g_assert_cmpfloat (fit->count, ==, ceil (S / (cap - 1e9 - K / 2)));
    g_assert_cmpfloat (fit->per_gpu_bytes, <=, cap);
  }
}

/* The weights' bytes are remembered per architecture and precision (inventory_bytes()): an
 * inference estimate's weights equal those of its inventory built afresh, tensor by tensor, for
 * every shape of model and every weight format, asked twice over in turn (the second round from
 * what is remembered) and with the architecture changed in between. */
static void
test_weights_memo (void)
{
  guint n_presets;
  const VcPreset *presets = vc_presets_get_all (&n_presets);
  guint n_checked = 0;

  for (guint round = 0; round < 2; round++)
    for (guint p = 0; p < n_presets; p++)
      for (VcPrecision precision = VC_PRECISION_FP32; vc_test_first_of_family (p) && precision <= VC_PRECISION_NF4; precision++)
        for (guint deeper = 0; deeper < 2; deeper++)
          {
            g_autoptr(VcEstimate) e = vc_estimate_new ();
            VcInputs in;
            VcResult res;

            g_assert_true (vc_estimate_set_preset (e, presets[p].id, NULL));
            g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "mode", VC_MODE_INFERENCE, NULL);
            in = *vc_estimate_get_inputs (e);
            in.precision = precision;
            in.arch.n_layers += deeper;
            vc_estimator_compute (&in, &res);
            for (guint i = 0; i < res.n_scenarios; i++)
              {
                g_autoptr(VcInventory) inv = vc_estimator_inventory (&in, res.scenarios[i].id);

                g_assert_cmpfloat (res.scenarios[i].bytes[VC_COMPONENT_WEIGHTS], ==, vc_inventory_bytes (inv));
                n_checked++;
              }
          }
  g_assert_cmpuint (n_checked, >, 100);
}

/* vc_estimator_compute_scenario(), which the layouts' stage estimates take, is the full estimate's
 * scenario, every field of it, over every shape of model × engine × precision × mode × layout;
 * and in inference the cache, the sequence state and the activations are the same in every
 * scenario (vc_estimator_compute() counts them once for all the weights' precisions). */
static void
assert_scenarios_equal (const VcScenarioResult *a,
                        const VcScenarioResult *b)
{
  g_assert_cmpint (a->id, ==, b->id);
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    g_assert_cmpfloat (a->bytes[c], ==, b->bytes[c]);
  g_assert_cmpfloat (a->total, ==, b->total);
  g_assert_cmpint (a->peak_phase, ==, b->peak_phase);
  g_assert_cmpfloat (a->trainable_parameters, ==, b->trainable_parameters);
  g_assert_cmpfloat (a->weight_bits, ==, b->weight_bits);
  g_assert_cmpint (a->weights_from_source, ==, b->weights_from_source);
  g_assert_cmpfloat (a->forward_activations, ==, b->forward_activations);
  g_assert_cmpfloat (a->backward_activations, ==, b->backward_activations);
  g_assert_cmpfloat (a->gradient_bytes, ==, b->gradient_bytes);
  g_assert_cmpfloat (a->step_temporary, ==, b->step_temporary);
  g_assert_cmpfloat (a->paged_optimizer, ==, b->paged_optimizer);
  g_assert_cmpfloat (a->reserved, ==, b->reserved);
}

static void
test_one_scenario_exact (void)
{
  static const struct
  {
    VcMode mode;
    VcEngine engine;
    VcPrecision precision;
    VcFinetune finetune;
    guint tp, concurrency;
  } cases[] = {
    { VC_MODE_INFERENCE, VC_ENGINE_GENERIC, VC_PRECISION_FP16, 0, 1, 1 },
    { VC_MODE_INFERENCE, VC_ENGINE_GENERIC, VC_PRECISION_FP32, 0, 2, 3 },
    { VC_MODE_INFERENCE, VC_ENGINE_VLLM, VC_PRECISION_BF16, 0, 1, 8 },
    { VC_MODE_INFERENCE, VC_ENGINE_VLLM, VC_PRECISION_INT4, 0, 2, 1 },
    { VC_MODE_INFERENCE, VC_ENGINE_SGLANG, VC_PRECISION_FP8, 0, 1, 4 },
    { VC_MODE_INFERENCE, VC_ENGINE_LLAMA_CPP, VC_PRECISION_Q4_K_M, 0, 1, 2 },
    { VC_MODE_INFERENCE, VC_ENGINE_OLLAMA, VC_PRECISION_Q8_0, 0, 1, 1 },
    { VC_MODE_INFERENCE, VC_ENGINE_TRANSFORMERS, VC_PRECISION_BF16, 0, 1, 2 },
    { VC_MODE_TRAINING, VC_ENGINE_GENERIC, VC_PRECISION_BF16, VC_FINETUNE_FULL, 1, 1 },
    { VC_MODE_TRAINING, VC_ENGINE_GENERIC, VC_PRECISION_BF16, VC_FINETUNE_LORA, 1, 1 },
    { VC_MODE_TRAINING, VC_ENGINE_GENERIC, VC_PRECISION_FP16, VC_FINETUNE_QLORA_4BIT, 2, 1 },
  };
  guint n_presets, n_compared = 0;
  const VcPreset *presets = vc_presets_get_all (&n_presets);

  for (guint p = 0; p < n_presets; p++)
    for (guint k = 0; vc_test_first_of_family (p) && k < G_N_ELEMENTS (cases); k++)
      for (VcMethod method = VC_METHOD_RULE_OF_THUMB; method <= VC_METHOD_ARCHITECTURE; method++)
        {
          g_autoptr(VcEstimate) e = vc_estimate_new ();
          VcScenarioResult one;
          const VcInputs *in;
          VcResult res;

          g_assert_true (vc_estimate_set_preset (e, presets[p].id, NULL));
          g_object_set (e, "method", method, "mode", cases[k].mode, "engine", cases[k].engine, "tp", cases[k].tp,
                        "concurrency", cases[k].concurrency, NULL);
          if (cases[k].mode == VC_MODE_TRAINING)
            g_object_set (e, "finetune", cases[k].finetune, "training-precision", cases[k].precision, NULL);
          else
            g_object_set (e, "precision", cases[k].precision, NULL);
          if (!vc_estimate_check (e, NULL))
            continue;
          in = vc_estimate_get_inputs (e);
          vc_estimator_compute (in, &res);
          for (guint i = 0; i < res.n_scenarios; i++)
            {
              g_assert_true (vc_estimator_compute_scenario (in, res.scenarios[i].id, &one));
              assert_scenarios_equal (&one, &res.scenarios[i]);
              n_compared++;
              if (cases[k].mode == VC_MODE_INFERENCE)
                for (guint c = VC_COMPONENT_KV_CACHE; c <= VC_COMPONENT_ACTIVATIONS; c++)
                  g_assert_cmpfloat (res.scenarios[i].bytes[c], ==, res.scenarios[0].bytes[c]);
            }
          /* a scenario of the other mode is none of this estimate's */
          g_assert_false (vc_estimator_compute_scenario (in, cases[k].mode == VC_MODE_TRAINING ? VC_SCENARIO_INFERENCE_16BIT
                                                                                                : VC_SCENARIO_FULL, &one));
          g_assert_cmpfloat (one.total, ==, 0);
        }
  g_assert_cmpuint (n_compared, >, 500);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/estimator/seed/inference", test_seed_inference);
  g_test_add_func ("/estimator/seed/training", test_seed_training);
  g_test_add_func ("/estimator/seed/optimizers", test_seed_optimizers);
  g_test_add_func ("/estimator/optimizer-variants", test_optimizer_variants);
  g_test_add_func ("/estimator/seed/moe", test_moe_activated);
  g_test_add_func ("/estimator/scaling-and-options", test_scaling_and_options);
  g_test_add_func ("/estimator/extremes-finite", test_extremes_finite);
  g_test_add_func ("/estimator/gpu-count", test_gpu_count);
  g_test_add_func ("/estimator/weights-memo", test_weights_memo);
  g_test_add_func ("/estimator/gpu-count-kv-replicated", test_gpu_count_kv_replicated);
  g_test_add_func ("/estimator/one-scenario-exact", test_one_scenario_exact);
  return g_test_run ();
}
