/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: the layouts of one estimate — the inputs' own layout and the smallest valid layout
 * of every GPU of the catalog (vc-layout.c) — for Llama 3.1 405B and Llama 3 70B inference
 * (TP × PP searched per card) and Llama 3 8B full fine-tuning (ZeRO group searched). Prints the
 * median per estimate as layout_us_median=N; the goal is under 2 ms, an eighth of a frame, since
 * the window recomputes on every change. Run with `meson test --benchmark`. */
#include "config.h"

#include "vc-catalog.h"
#include "vc-layout.h"

#include "bench-util.h"

#define ROUNDS 31

static volatile double sink;

static double
time_layouts (const VcInputs *in,
              const VcGpu    *gpus,
              guint           n_gpus)
{
  double samples[ROUNDS];
  g_autofree double *capacities = g_new (double, n_gpus);
  g_autofree VcLayout *layouts = g_new (VcLayout, n_gpus);
  g_autofree VcLayoutResult *outs = g_new (VcLayoutResult, n_gpus);
  g_autofree gboolean *found = g_new (gboolean, n_gpus);
  g_autofree const VcGpu **cards = g_new (const VcGpu *, n_gpus);
  VcResult r;

  for (guint g = 0; g < n_gpus; g++)
    {
      capacities[g] = gpus[g].capacity_bytes;
      cards[g] = &gpus[g];
    }
  vc_estimator_compute (in, &r);
  for (guint round = 0; round < ROUNDS; round++)
    {
      gint64 start = g_get_monotonic_time ();
      VcLayoutResult lr;

      /* as the estimate model recomputes: its own layout, then every card's smallest */
      vc_layout_compute (in, &r, r.selected, &lr, NULL);
      sink += lr.total;
      vc_layout_smallest_each (in, &r, r.selected, capacities, cards, n_gpus, layouts, outs, found);
      for (guint g = 0; g < n_gpus; g++)
        sink += found[g] ? outs[g].total : 0;
      samples[round] = (double) (g_get_monotonic_time () - start);
    }
  return bench_sort_median (samples, ROUNDS);
}

int
main (void)
{
  static const char *inference[] = { "llama-3.1-405b", "llama-3-70b", "deepseek-r1" };
  VcInputs in;
  guint n_gpus;
  const VcGpu *gpus = vc_gpus_get_all (&n_gpus);
  double worst = 0, us;

  for (guint i = 0; i < G_N_ELEMENTS (inference); i++)
    {
      vc_inputs_init_default (&in);
      in.method = VC_METHOD_ARCHITECTURE;
      in.arch = vc_presets_lookup (inference[i])->arch;
      us = time_layouts (&in, gpus, n_gpus);
      g_print ("%s_inference_us_median=%.0f\n", inference[i], us);
      worst = MAX (worst, us);
    }
  vc_inputs_init_default (&in);
  in.method = VC_METHOD_ARCHITECTURE;
  in.mode = VC_MODE_TRAINING;
  in.finetune = VC_FINETUNE_FULL;
  in.arch = vc_presets_lookup ("llama-3-8b")->arch;
  us = time_layouts (&in, gpus, n_gpus);
  g_print ("llama-3-8b_training_us_median=%.0f\n", us);
  worst = MAX (worst, us);
  g_print ("gpus=%u\n", n_gpus);
  g_print ("layout_us_median=%.0f\n", worst);
  return worst < 2000 ? 0 : 1;
}
