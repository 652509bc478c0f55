/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: one full estimate — every scenario of the mode (the GPU table's counts are the
 * layout search's, timed by bench-layout) — by the architecture method on Llama 3 8B in training mode (the longest path) and
 * by the rule of thumb. Prints the median per estimate as estimate_ns_median=N; the goal is
 * under 1 µs. Run with `meson test --benchmark`. */
#include "config.h"

#include "vc-catalog.h"
#include "vc-estimator.h"

#include "bench-util.h"

#define BATCH 2000
#define ROUNDS 101

static volatile double sink;

static double
time_one_estimate (const VcInputs *in)
{
  double samples[ROUNDS];

  for (guint round = 0; round < ROUNDS; round++)
    {
      gint64 start = g_get_monotonic_time ();

      for (guint i = 0; i < BATCH; i++)
        {
          VcResult r;

          vc_estimator_compute (in, &r);
          sink += r.scenarios[r.selected].total;
        }
      samples[round] = (g_get_monotonic_time () - start) * 1000.0 / BATCH;
    }
  return bench_sort_median (samples, ROUNDS);
}

int
main (void)
{
  VcInputs in;
  double arch_ns, rot_ns;

  vc_inputs_init_default (&in);
  in.method = VC_METHOD_ARCHITECTURE;
  in.mode = VC_MODE_TRAINING;
  in.arch = vc_presets_lookup ("llama-3-8b")->arch;
  arch_ns = time_one_estimate (&in);

  vc_inputs_init_default (&in);
  rot_ns = time_one_estimate (&in);

  g_print ("architecture_training_ns_median=%.0f\n", arch_ns);
  g_print ("rule_of_thumb_inference_ns_median=%.0f\n", rot_ns);
  g_print ("estimate_ns_median=%.0f\n", MAX (arch_ns, rot_ns));
  return 0;
}
