/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Benchmark: the memory-versus-context chart after one change, scrolled into view and focused
 * (so that it draws its readout too). Measures the recomputation (vc_estimate_flush, which runs
 * every "changed" handler: the chart samples its curve, the GPU table solves its column) plus the
 * next frame's layout and paint, for a model whose curve spans 512 to 131,072 tokens with two
 * capacity lines, then the same in training against the batch size. The wait for the frame
 * clock's tick is not work and is left out. Prints the median and the slowest; exits 1 when the
 * median is over one 60 Hz frame. Run with `meson test --benchmark`. */
#include "config.h"

#include <gtk/gtk.h>
#include <stdio.h>

#include "gui-test-util.h"
#include "vc-context-chart-private.h"
#include "vc-estimate-private.h"
#include "vc-results-view.h"
#include "vc-window.h"

#define RUNS 60
#define FRAME_US 16000

int
main (int   argc,
      char *argv[])
{
  VcWindow *window;
  VcEstimate *estimate;
  GtkWidget *chart;
  GdkFrameClock *clock;
  gint64 times[2 * RUNS], recompute_times[2 * RUNS];
  VcTestFrame frame;

  if (!gtk_init_check ())
    {
      printf ("no display: skipped\n");
      return 77;
    }

  window = vc_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 1150);
  gtk_window_present (GTK_WINDOW (window));
  estimate = vc_window_get_estimate (window);
  vc_estimate_set_preset (estimate, "llama-3.1-8b", NULL);
  g_object_set (estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (window));
  chart = vc_test_child (vc_test_window_results (window), VC_TYPE_RESULTS_VIEW, "context_chart");
  vc_test_scroll_into_view (chart);
  gtk_widget_grab_focus (chart);
  vc_test_wait_for_frame (GTK_WIDGET (window));
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (window));
  vc_test_frame_watch (clock, &frame);

  for (guint i = 0; i < 2 * RUNS; i++)
    {
      gint64 start, recomputed;

      if (i == RUNS)
        {
          vc_window_set_mode (window, VC_MODE_TRAINING);
          vc_test_wait_for_frame (GTK_WIDGET (window));
          vc_test_scroll_into_view (chart);
          gtk_widget_grab_focus (chart);
        }
      vc_test_spin_until_idle ();
      frame = (VcTestFrame) { 0, 0 };
      start = g_get_monotonic_time ();
      if (i < RUNS)
        g_object_set (estimate, "seq", 1024 + 512 * (i % 16), NULL);
      else
        g_object_set (estimate, "batch", 1 + i % 8, NULL);
      vc_estimate_flush (estimate);
      recomputed = g_get_monotonic_time ();
      while (frame.paint_end == 0)
        g_main_context_iteration (NULL, TRUE);
      times[i] = (recomputed - start) + (frame.paint_end - frame.paint_start);
      recompute_times[i] = recomputed - start;
    }

  qsort (times, 2 * RUNS, sizeof times[0], vc_test_compare_int64);
  qsort (recompute_times, 2 * RUNS, sizeof times[0], vc_test_compare_int64);
  printf ("of which recomputation: median %.2f ms\n", recompute_times[RUNS] / 1000.0);
  printf ("context chart in view: recompute, sample and redraw: median %.2f ms, slowest %.2f ms over %d changes "
          "(%u samples; goal: under %.0f ms)\n",
          times[RUNS] / 1000.0, times[2 * RUNS - 1] / 1000.0, 2 * RUNS,
          vc_context_chart_get_n_samples (VC_CONTEXT_CHART (chart)), FRAME_US / 1000.0);
  gtk_window_destroy (GTK_WINDOW (window));
  return times[RUNS] <= FRAME_US ? 0 : 1;
}
