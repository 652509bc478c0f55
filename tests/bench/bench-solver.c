/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: the GPU table with the solver's columns. One input changes; the estimate is
 * recomputed and, for every GPU of the catalog, what fits on one of it is solved: the longest
 * sequence and the most concurrent requests in inference, the largest batch and the longest
 * sequence in training (what the window's column, the JSON's max_* fields and the CSV's fit
 * rows read). Over every preset, in both modes, by the architecture method. Prints the median
 * and the slowest in µs; exits 1 when the median is over the goal of 1 ms. Run with
 * `meson test --benchmark`. */
#include "config.h"

#include <stdio.h>

#include "vc-catalog.h"
#include "vc-estimate-private.h"
#include "vc-report.h"

#include "bench-util.h"

#define ROUNDS 5
#define GOAL_US 1000.0

static volatile double sink;

int
main (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_presets, n_evaluations = 0, n_tables = 0;
  const VcPreset *presets = vc_presets_get_all (&n_presets);
  double median, slowest;

  for (guint round = 0; round < ROUNDS; round++)
    for (guint p = 0; p < n_presets; p++)
      for (VcMode mode = VC_MODE_INFERENCE; mode <= VC_MODE_TRAINING; mode++)
        {
          gint64 start;
          double us;
          guint n_gpus;

          vc_estimate_set_preset (e, presets[p].id, NULL);
          g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "mode", mode, NULL);
          vc_estimate_flush (e);
          /* the change being measured: the sequence length, which moves every figure */
          start = g_get_monotonic_time ();
          g_object_set (e, "seq", 1024 + 512 * (round + p % 7), NULL);
          vc_estimate_flush (e);
          n_gpus = vc_estimate_get_n_gpus (e);
          for (guint g = 0; g < n_gpus; g++)
            for (guint v = 0; v < 2; v++)
              {
                const VcSolution *sol = vc_estimate_get_row_solution (e, g, vc_report_fit_variables (mode)[v]);

                sink += sol->value + vc_estimate_get_gpu_fit (e, g)->count;
                n_evaluations += sol->n_evaluations;
              }
          us = g_get_monotonic_time () - start;
          g_array_append_val (times, us);
          n_tables++;
        }

  median = bench_sort_median ((double *) times->data, times->len);
  slowest = g_array_index (times, double, times->len - 1);
  printf ("gpu_table_with_solver_us_median=%.0f\n", median);
  printf ("gpu_table_with_solver_us_slowest=%.0f\n", slowest);
  printf ("estimates_per_solve_mean=%.1f\n", (double) n_evaluations / (n_tables * 2.0 * vc_estimate_get_n_gpus (e)));
  printf ("goal: median under %.0f us\n", GOAL_US);
  return median <= GOAL_US ? 0 : 1;
}
