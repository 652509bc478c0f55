/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: the catalog's search as the window runs it at each keystroke. Queries are typed one
 * character at a time, each prefix searched over the whole catalog (the window lists the first
 * 9). Prints the median and the slowest keystroke in µs; exits 1 when the slowest is over the
 * goal of 16 ms (one frame at 60 Hz). Run with `meson test --benchmark`. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "vc-catalog.h"

#include "bench-util.h"

#define ROUNDS 20
#define GOAL_US 16000.0

static const char *queries[] = {
  "llama 3.1 70b", "qwen3 coder", "gpt-oss", "deepseek r1", "moe", "vision", "gemma 3 27b",
  "mistral small", "no such model at all",
};

static volatile guint sink;

int
main (void)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_presets, found[9];
  gint64 start;
  double median, slowest, load_us;

  start = g_get_monotonic_time ();
  vc_presets_get_all (&n_presets);
  load_us = g_get_monotonic_time () - start;
  for (guint round = 0; round < ROUNDS; round++)
    for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
      for (gsize len = 0; len <= strlen (queries[q]); len++)
        {
          g_autofree char *typed = g_strndup (queries[q], len);
          double us;

          start = g_get_monotonic_time ();
          sink += vc_presets_search (typed, found, G_N_ELEMENTS (found));
          us = g_get_monotonic_time () - start;
          g_array_append_val (times, us);
        }
  median = bench_sort_median ((double *) times->data, times->len);
  slowest = g_array_index (times, double, times->len - 1);
  printf ("catalog_models=%u\n", n_presets);
  printf ("catalog_load_us=%.0f\n", load_us);
  printf ("search_keystroke_us_median=%.1f\n", median);
  printf ("search_keystroke_us_slowest=%.1f\n", slowest);
  printf ("goal: slowest keystroke under %.0f us\n", GOAL_US);
  return slowest <= GOAL_US ? 0 : 1;
}
