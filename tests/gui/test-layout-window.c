/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parallelism groups of the real window: their widgets drive the layout inputs, the results
 * show the busiest GPU, all GPUs and system RAM, the GPU chart each card's layout, and a saved
 * profile keeps it all. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-drop-down.h"
#include "vc-catalog.h"
#include "vc-gpu-chart-private.h"
#include "vc-profile.h"
#include "vc-results-view.h"
#include "vc-units.h"
#include "vc-test-util.h"
#include "vc-window.h"

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  VcResultsView *results;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);

  g_settings_reset (settings, "last-inputs");
  g_settings_reset (settings, "tab");
  f->window = vc_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 1150);
  f->estimate = vc_window_get_estimate (f->window);
  g_object_add_weak_pointer (G_OBJECT (f->estimate), (gpointer *) &f->estimate);
  f->results = VC_RESULTS_VIEW (vc_test_window_results (f->window));
  gtk_window_present (GTK_WINDOW (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  vc_test_destroy_window (f->window);
  vc_test_wait_gone ((gpointer *) &f->estimate, 2);
}

static void
test_inference_group (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *tp = vc_test_window_input (f->window, VC_MODE_INFERENCE, "tp");
  GtkWidget *pp = vc_test_window_input (f->window, VC_MODE_INFERENCE, "pp");
  GtkWidget *ep = vc_test_window_input (f->window, VC_MODE_INFERENCE, "ep");
  GtkWidget *layers = vc_test_window_input (f->window, VC_MODE_INFERENCE, "gpu-layers");
  GtkLabel *layout = GTK_LABEL (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "layout"));
  GtkWidget *chart = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "gpu_chart");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autoptr(GError) error = NULL;

  /* one plain GPU: nothing more to say */
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (layout)));

  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-70b", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  /* a dense model has no experts to split or keep in system RAM */
  g_assert_false (gtk_widget_get_visible (ep));
  g_assert_true (gtk_widget_get_visible (layers));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (layers)), ==, "All");

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (tp), 4);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (pp), 2);
  g_assert_cmpuint (in->layout.tp, ==, 4);
  g_assert_cmpuint (in->layout.pp, ==, 2);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (layout)));
  {
    const VcLayoutResult *lr = vc_estimate_get_layout_result (f->estimate);
    g_autofree char *per_gpu = vc_format_size (lr->total, VC_UNIT_GB);
    g_autofree char *expected = g_strdup_printf ("%s on the busiest of 8 GPUs (TP 4 × PP 2)", per_gpu);

    g_assert_nonnull (strstr (gtk_label_get_label (layout), expected));
  }

  /* the chart names each card's smallest layout and what one GPU of it holds */
  {
    guint h100 = vc_test_gpu_index (f->estimate, "h100-80gb");
    const VcGpuFit *fit = vc_estimate_get_gpu_fit (f->estimate, h100);
    g_autofree char *text = vc_gpu_chart_describe (VC_GPU_CHART (chart), h100);
    g_autofree char *each = vc_format_size (fit->per_gpu_bytes, VC_UNIT_GB);

    g_assert_nonnull (strstr (text, "2 GPUs · TP 2"));
    g_assert_true (g_str_has_prefix (text, each));
  }

  /* an impossible layout says which constraint it breaks */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (tp), 3);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (layout)));
  g_assert_false (vc_estimate_check (f->estimate, &error));
  g_assert_nonnull (strstr (error->message, "TP (3) must divide the attention heads (64)"));
  g_clear_error (&error);

  /* llama.cpp offload on one GPU: system RAM shown beside it */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (tp), 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (pp), 1);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (layers), 40);
  g_assert_cmpuint (in->layout.gpu_layers, ==, 40);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (strstr (gtk_label_get_label (layout), "40 layers on the GPU"));
  g_assert_nonnull (strstr (gtk_label_get_label (layout), "of system RAM"));
}

static void
test_training_group (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *dp, *sharding, *offload;
  GtkLabel *layout = GTK_LABEL (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "layout"));
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autofree char *dir = g_dir_make_tmp ("layout-window-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "plan.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  dp = vc_test_window_input (f->window, VC_MODE_TRAINING, "dp");
  sharding = vc_test_window_input (f->window, VC_MODE_TRAINING, "sharding");
  offload = vc_test_window_input (f->window, VC_MODE_TRAINING, "offload");

  /* offload needs sharding */
  g_assert_false (gtk_widget_get_sensitive (offload));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (dp), 8);
  vc_drop_down_set_selected (VC_DROP_DOWN (sharding), vc_test_choice_position (sharding, "ZeRO-3: and parameters"));
  g_assert_cmpint (in->layout.sharding, ==, VC_SHARDING_ZERO_3);
  g_assert_true (gtk_widget_get_sensitive (offload));
  vc_drop_down_set_selected (VC_DROP_DOWN (offload), vc_test_choice_position (offload, "Optimizer state"));
  g_assert_cmpint (in->layout.offload, ==, VC_OFFLOAD_OPTIMIZER);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (layout)));
  g_assert_nonnull (strstr (gtk_label_get_label (layout), "busiest of 8 GPUs (ZeRO-3 · optimizer offload)"));
  g_assert_nonnull (strstr (gtk_label_get_label (layout), "of system RAM"));

  /* the profile keeps the layout, and loading it brings it back into the widgets */
  g_assert_true (vc_profile_save (vc_window_get_profile (f->window), file, NULL, &error));
  g_assert_no_error (error);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (dp), 1);
  vc_drop_down_set_selected (VC_DROP_DOWN (sharding), 0);
  g_assert_cmpint (in->layout.offload, ==, VC_OFFLOAD_OPTIMIZER);
  g_assert_true (vc_profile_load (vc_window_get_profile (f->window), file, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (in->layout.dp, ==, 8);
  g_assert_cmpint (in->layout.sharding, ==, VC_SHARDING_ZERO_3);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (dp)), ==, 8);
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (sharding)), ==,
                    vc_test_choice_position (sharding, "ZeRO-3: and parameters"));
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
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
  g_test_add ("/layout-window/inference", Fixture, NULL, fixture_setup, test_inference_group, fixture_teardown);
  g_test_add ("/layout-window/training", Fixture, NULL, fixture_setup, test_training_group, fixture_teardown);
  return g_test_run ();
}
