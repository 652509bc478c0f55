/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: exporting one estimate to CSV (every scenario's components and every card's count,
 * each count a smallest-layout search) and to JSON, as File → Export and `vramcalc --format`
 * do. Goals: under 10 ms for the largest presets (Llama 3.1 405B, DeepSeek-R1), and under
 * 250 ms for a model of 100,000 layers, the most `--layers` accepts, where a layout of
 * thousands of pipeline stages is summed stage by stage. Prints each median, then
 * export_ms_median=N (presets) and export_extreme_ms_median=N. Run with `meson test
 * --benchmark`. */
#include "config.h"

#include "vc-catalog.h"
#include "vc-csv.h"
#include "vc-estimate-private.h"
#include "vc-report.h"

#include "bench-util.h"

#define ROUNDS 9

typedef char *(*Export) (VcEstimate *estimate);

static char *
export_csv (VcEstimate *estimate)
{
  return vc_csv_export (estimate, VC_UNIT_GB, NULL);
}

/* the export of a new estimate, computed beforehand: nothing an earlier export cached */
static double
time_export (const char *preset,
             guint       layers,
             Export      export)
{
  double samples[ROUNDS];

  for (guint round = 0; round < ROUNDS; round++)
    {
      g_autoptr(VcEstimate) estimate = vc_estimate_new ();
      g_autofree char *text = NULL;
      gint64 start;

      g_object_set (estimate, "preset", preset, "method", VC_METHOD_ARCHITECTURE, NULL);
      if (layers > 0)
        g_object_set (estimate, "layers", layers, NULL);
      vc_estimate_flush (estimate);
      start = g_get_monotonic_time ();
      text = export (estimate);
      samples[round] = (g_get_monotonic_time () - start) / 1000.0;
      g_assert_nonnull (text);
    }
  return bench_sort_median (samples, ROUNDS);
}

int
main (void)
{
  static const struct
  {
    const char *name;
    guint layers;                  /* 0: the preset's own */
  } cases[] = {
    { "llama-3.1-405b", 0 },
    { "deepseek-r1", 0 },
    { "llama-3.1-405b", 100000 },
  };
  double worst = 0, extreme = 0;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double csv = time_export (cases[i].name, cases[i].layers, export_csv);
      double json = time_export (cases[i].name, cases[i].layers, vc_report_json);
      guint layers = cases[i].layers ? cases[i].layers : vc_presets_lookup (cases[i].name)->arch.n_layers;

      g_print ("%s_%u_layers_csv_ms_median=%.1f\n", cases[i].name, layers, csv);
      g_print ("%s_%u_layers_json_ms_median=%.1f\n", cases[i].name, layers, json);
      if (cases[i].layers > 0)
        extreme = MAX (extreme, MAX (csv, json));
      else
        worst = MAX (worst, MAX (csv, json));
    }
  g_print ("export_ms_median=%.1f\n", worst);
  g_print ("export_extreme_ms_median=%.1f\n", extreme);
  return worst < 10 && extreme < 250 ? 0 : 1;
}
