/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The memory-versus-context chart and the GPU table's "what fits" column, in the real window:
 * the chart's pixels (stacked components, capacity lines, the current point) in light and dark
 * style, its accessible description, the readout by keyboard, the cards picked in its popover,
 * training against the batch size; and the column's text for each card. Figures are those of
 * tests/test-solver.c (Llama 3.1 8B in bf16: 59,944 tokens on an RTX 4090, the model's
 * 131,072 on an H100). Runs with G_DEBUG=fatal-warnings. */
#include "config.h"

#include <gtk/gtk.h>
#include <math.h>

#include "gui-test-util.h"
#include "vc-card-picker.h"
#include "vc-catalog.h"
#include "vc-chart.h"
#include "vc-compat.h"
#include "vc-context-chart-private.h"
#include "vc-gpu-chart-private.h"
#include "vc-results-view-private.h"
#include "vc-window.h"

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  VcResultsView *results;
  VcContextChart *chart;
} Fixture;

/* A GPU of the catalog by its id */
static const VcGpu *
gpu_lookup (const char *id)
{
  guint n;
  const VcGpu *gpus = vc_gpus_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (gpus[i].id, id))
      return &gpus[i];
  g_assert_not_reached ();
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  vc_test_reset_stored_state ();
  f->window = vc_test_new_window (1100, 1150, &f->estimate);
  f->results = VC_RESULTS_VIEW (vc_test_window_results (f->window));
  f->chart = VC_CONTEXT_CHART (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "context_chart"));
  vc_test_present (f->window);
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3.1-8b", NULL));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vc_test_scroll_into_view (GTK_WIDGET (f->chart));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", FALSE, NULL);
  vc_test_destroy_window (f->window);
  g_assert_null (f->estimate);
}

static gboolean
near (const GdkRGBA *a,
      const GdkRGBA *b)
{
  return fabs (a->red - b->red) < 0.03 && fabs (a->green - b->green) < 0.03 &&
         fabs (a->blue - b->blue) < 0.03 && a->alpha > 0.97;
}

static void
expect_pixel (const guint8  *pixels,
              gsize          stride,
              double         x,
              double         y,
              const GdkRGBA *expected,
              const char    *what)
{
  GdkRGBA seen;

  vc_test_pixel (pixels, stride, (int) x, (int) y, &seen);
  if (!near (&seen, expected))
    {
      g_autofree char *s = gdk_rgba_to_string (&seen);
      g_autofree char *e = gdk_rgba_to_string (expected);
      g_error ("%s: pixel (%d, %d) is %s, expected %s", what, (int) x, (int) y, s, e);
    }
}

/* The index of the sample nearest `value` */
static guint
sample_at (VcContextChart *chart,
           guint           value)
{
  guint best = 0;

  for (guint i = 0; i < vc_context_chart_get_n_samples (chart); i++)
    if (fabs (log2 (vc_context_chart_get_sample (chart, i, NULL)) - log2 (value)) <
        fabs (log2 (vc_context_chart_get_sample (chart, best, NULL)) - log2 (value)))
      best = i;
  return best;
}

static void
check_pixels (Fixture *f)
{
  g_autofree guint8 *pixels = NULL;
  double bytes[VC_N_COMPONENTS];
  gboolean dark = vc_widget_is_dark (GTK_WIDGET (f->chart));
  GdkRGBA weights, kv, fg;
  const VcGpu *rtx = gpu_lookup ("rtx-4090");
  int width, height;
  gsize stride;
  guint i8k, last = vc_context_chart_get_n_samples (f->chart) - 1;
  double x, y;

  pixels = vc_test_render (GTK_WIDGET (f->chart), &width, &height, &stride);
  vc_component_color (VC_COMPONENT_WEIGHTS, dark, &weights);
  vc_component_color (VC_COMPONENT_KV_CACHE, dark, &kv);
  vc_widget_get_color (GTK_WIDGET (f->chart), &fg);
  fg.alpha = 1;

  /* at 8K tokens: the weights fill the bottom of the stack */
  i8k = sample_at (f->chart, 8192);
  vc_context_chart_get_sample (f->chart, i8k, bytes);
  x = vc_context_chart_value_to_x (f->chart, 8192) + 1;
  expect_pixel (pixels, stride, x, vc_context_chart_bytes_to_y (f->chart, bytes[VC_COMPONENT_WEIGHTS] / 2),
                &weights, "weights at 8K");
  /* at the model's 131,072 tokens the KV cache sits on them, about as large */
  vc_context_chart_get_sample (f->chart, last, bytes);
  g_assert_cmpuint (vc_context_chart_get_sample (f->chart, last, NULL), ==, 131072);
  x = vc_context_chart_value_to_x (f->chart, 131072) - 3;
  expect_pixel (pixels, stride, x,
                vc_context_chart_bytes_to_y (f->chart, bytes[VC_COMPONENT_WEIGHTS] + bytes[VC_COMPONENT_KV_CACHE] / 2),
                &kv, "KV cache at 128K");
  /* the RTX 4090's capacity line crosses the plot in the text colour, 2 pixels thick; just
   * above the stack at 8K there is no component colour */
  y = round (vc_context_chart_bytes_to_y (f->chart, rtx->capacity_bytes));
  x = vc_context_chart_value_to_x (f->chart, 8192) + 1;
  expect_pixel (pixels, stride, x, y - 0.5, &fg, "RTX 4090 line");
  {
    GdkRGBA seen;
    double top = 0;

    vc_context_chart_get_sample (f->chart, i8k, bytes);
    for (guint c = 0; c < VC_N_COMPONENTS; c++)
      top += bytes[c];
    vc_test_pixel (pixels, stride, x + 4, vc_context_chart_bytes_to_y (f->chart, top) - 6, &seen);
    g_assert_false (near (&seen, &weights));
    g_assert_false (near (&seen, &kv));
  }
  /* the current point: a dot in the text colour at 2,048 tokens on the total */
  x = vc_context_chart_value_to_x (f->chart, 2048);
  y = vc_context_chart_bytes_to_y (f->chart, vc_estimate_get_selected (f->estimate)->total);
  expect_pixel (pixels, stride, x, y, &fg, "current point");
}

static void
test_pixels (Fixture       *f,
             gconstpointer  data)
{
  guint first, last;

  g_assert_cmpint (vc_context_chart_get_variable (f->chart), ==, VC_SOLVE_VARIABLE_SEQ);
  vc_context_chart_get_range (f->chart, &first, &last);
  g_assert_cmpuint (first, ==, 512);
  g_assert_cmpuint (last, ==, 131072);
  g_assert_cmpuint (vc_context_chart_get_n_cards (f->chart), ==, 2);
  g_assert_false (vc_widget_is_dark (GTK_WIDGET (f->chart)));
  check_pixels (f);

  /* dark style: the dark palette and light text */
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", TRUE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (vc_widget_is_dark (GTK_WIDGET (f->chart)));
  check_pixels (f);
}

static void
test_description (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *text = vc_context_chart_dup_description (f->chart);
  g_autofree char *message = NULL;

  g_test_message ("%s", text);
  g_assert_true (g_str_has_prefix (text, "Memory of one GPU against the sequence length, from 512 tokens to 131072 tokens, "
                                         "on a logarithmic scale: "));
  g_assert_nonnull (strstr (text, "Now: 2048 tokens, "));
  g_assert_nonnull (strstr (text, " RTX 4090 (25.8\u00a0GB): up to 59944 tokens (limit: memory)."));
  g_assert_nonnull (strstr (text, " H100 80 GB (85.5\u00a0GB): up to 131072 tokens (limit: the model's maximum context)."));
  /* it is what assistive technologies get */
  message = gtk_test_accessible_check_property (GTK_ACCESSIBLE (f->chart), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text);
  g_assert_null (message);

  /* nothing fits a 16 GB card: said in words */
  g_assert_true (vc_estimate_set_chart_gpus (f->estimate, "t4", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_free (text);
  text = vc_context_chart_dup_description (f->chart);
  g_assert_nonnull (strstr (text, " T4 (16.1\u00a0GB): nothing fits."));
  g_assert_cmpuint (vc_context_chart_get_n_cards (f->chart), ==, 1);
}

static gboolean
press (GtkWidget *widget,
       guint      keyval)
{
  gboolean handled = FALSE;
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (c))
        g_signal_emit_by_name (c, "key-pressed", keyval, 0, 0, &handled);
    }
  return handled;
}

/* Keyboard focus reads out values: focusing starts at the current point, arrows move */
static void
test_keyboard_readout (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *readout = NULL, *description = NULL;
  int start;

  g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (f->chart)));
  g_assert_cmpint (vc_context_chart_get_cursor (f->chart), ==, -1);
  g_assert_null (vc_context_chart_dup_readout (f->chart));
  g_assert_true (gtk_widget_grab_focus (GTK_WIDGET (f->chart)));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  start = vc_context_chart_get_cursor (f->chart);
  g_assert_cmpint (start, ==, sample_at (f->chart, 2048));
  readout = vc_context_chart_dup_readout (f->chart);
  g_assert_true (g_str_has_prefix (readout, "2048 tokens: "));
  g_assert_nonnull (strstr (readout, "Weights 16.1\u00a0GB"));

  g_assert_true (press (GTK_WIDGET (f->chart), GDK_KEY_Right));
  g_assert_cmpint (vc_context_chart_get_cursor (f->chart), ==, start + 1);
  g_assert_true (press (GTK_WIDGET (f->chart), GDK_KEY_End));
  g_assert_cmpint (vc_context_chart_get_cursor (f->chart), ==, vc_context_chart_get_n_samples (f->chart) - 1);
  g_free (readout);
  readout = vc_context_chart_dup_readout (f->chart);
  g_assert_true (g_str_has_prefix (readout, "131072 tokens: "));
  /* the readout is in the description too */
  description = vc_context_chart_dup_description (f->chart);
  g_assert_true (g_str_has_suffix (description, readout));
  g_assert_true (press (GTK_WIDGET (f->chart), GDK_KEY_Home));
  g_assert_cmpint (vc_context_chart_get_cursor (f->chart), ==, 0);
  g_assert_false (press (GTK_WIDGET (f->chart), GDK_KEY_a));
}

/* Hovering reads out the point under the pointer, and leaving clears it */
static void
test_hover_readout (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (f->chart));
  GtkEventController *motion = NULL;
  g_autofree char *readout = NULL;
  double bytes[VC_N_COMPONENTS], total = 0;
  guint i8k = sample_at (f->chart, 8192);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) c = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (c))
        motion = c;
    }
  g_assert_nonnull (motion);
  g_signal_emit_by_name (motion, "motion", vc_context_chart_value_to_x (f->chart, 8192), 50.0);
  g_assert_cmpint (vc_context_chart_get_cursor (f->chart), ==, i8k);
  readout = vc_context_chart_dup_readout (f->chart);
  g_test_message ("%s", readout);
  vc_context_chart_get_sample (f->chart, i8k, bytes);
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    total += bytes[c];
  {
    g_autofree char *value = g_strdup_printf ("%u tokens: ", vc_context_chart_get_sample (f->chart, i8k, NULL));
    g_autofree char *size = g_format_size ((guint64) total);

    g_assert_true (g_str_has_prefix (readout, value));
    g_assert_nonnull (strstr (readout, size));
  }
  g_signal_emit_by_name (motion, "leave");
  g_assert_cmpint (vc_context_chart_get_cursor (f->chart), ==, -1);
}

/* Training: against the batch size, from 1 to 1,024 */
static void
test_training (Fixture       *f,
               gconstpointer  data)
{
  g_autofree char *text = NULL;
  guint first, last;

  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpint (vc_context_chart_get_variable (f->chart), ==, VC_SOLVE_VARIABLE_BATCH);
  vc_context_chart_get_range (f->chart, &first, &last);
  g_assert_cmpuint (first, ==, 1);
  g_assert_cmpuint (last, ==, 1024);
  text = vc_context_chart_dup_description (f->chart);
  g_assert_true (g_str_has_prefix (text, "Memory of one GPU against the batch size, from batch of 1 to batch of 1024"));
  g_assert_nonnull (strstr (text, "Now: batch of 1, "));
  /* gradients or optimizer state are drawn: the legend has them */
  {
    double bytes[VC_N_COMPONENTS];

    vc_context_chart_get_sample (f->chart, 0, bytes);
    g_assert_cmpfloat (bytes[VC_COMPONENT_OPTIMIZER], >, 0);
  }
}

/* The popover's check boxes choose the cards; the estimate keeps them, so the profile does */
static void
test_card_picker (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *button = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "card_picker_button");
  GtkWidget *picker;
  guint n_catalog;
  const VcGpu *catalog = vc_gpus_get_all (&n_catalog);
  guint h200 = 0, rtx = 0;
  g_autofree char *chosen = NULL;

  for (guint i = 0; i < n_catalog; i++)
    {
      if (g_str_equal (catalog[i].id, "h200"))
        h200 = i;
      if (g_str_equal (catalog[i].id, "rtx-4090"))
        rtx = i;
    }
  /* the popover and its check boxes are made when the button first opens it */
  g_assert_null (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  gtk_menu_button_popup (GTK_MENU_BUTTON (button));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)))));
  picker = GTK_WIDGET (_vc_results_view_ensure_card_picker (VC_RESULTS_VIEW (f->results)));
  g_assert_true (gtk_widget_is_ancestor (picker, GTK_WIDGET (gtk_menu_button_get_popover (GTK_MENU_BUTTON (button)))));
  g_assert_true (gtk_check_button_get_active (GTK_CHECK_BUTTON (vc_card_picker_get_check (VC_CARD_PICKER (picker), rtx))));
  g_assert_false (gtk_check_button_get_active (GTK_CHECK_BUTTON (vc_card_picker_get_check (VC_CARD_PICKER (picker), h200))));

  gtk_check_button_set_active (GTK_CHECK_BUTTON (vc_card_picker_get_check (VC_CARD_PICKER (picker), h200)), TRUE);
  gtk_check_button_set_active (GTK_CHECK_BUTTON (vc_card_picker_get_check (VC_CARD_PICKER (picker), rtx)), FALSE);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_object_get (f->estimate, "chart-gpus", &chosen, NULL);
  g_assert_cmpstr (chosen, ==, "h100-80gb;h200");
  g_assert_cmpuint (vc_context_chart_get_n_cards (f->chart), ==, 2);

  /* a card of one's own can be chosen, and leaves the chart when it is removed */
  g_assert_true (vc_estimate_set_custom_gpus (f->estimate, "Lab card=24GB", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  gtk_check_button_set_active (GTK_CHECK_BUTTON (vc_card_picker_get_check (VC_CARD_PICKER (picker), n_catalog)), TRUE);
  g_free (chosen);
  g_object_get (f->estimate, "chart-gpus", &chosen, NULL);
  g_assert_cmpstr (chosen, ==, "h100-80gb;h200;Lab card");
  g_assert_true (vc_estimate_set_custom_gpus (f->estimate, "", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_free (chosen);
  g_object_get (f->estimate, "chart-gpus", &chosen, NULL);
  g_assert_cmpstr (chosen, ==, "h100-80gb;h200");
}

/* The GPU table's column: the longest context on one card, or the largest batch in training */
static void
test_gpu_table_column (Fixture       *f,
                       gconstpointer  data)
{
  VcGpuChart *table = VC_GPU_CHART (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "gpu_chart"));
  guint n_catalog, rtx = 0, h100 = 0, t4 = 0;
  const VcGpu *catalog = vc_gpus_get_all (&n_catalog);
  g_autofree char *text = NULL;
  graphene_rect_t bar;
  GdkRGBA color;

  /* wide enough for every column (the count, what fits, the speed) beside a bar: a narrower
   * table leaves the speed out, then what fits */
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1800, 1150);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  for (guint i = 0; i < n_catalog; i++)
    {
      if (g_str_equal (catalog[i].id, "rtx-4090"))
        rtx = i;
      if (g_str_equal (catalog[i].id, "h100-80gb"))
        h100 = i;
      if (g_str_equal (catalog[i].id, "t4"))
        t4 = i;
    }
  text = vc_gpu_chart_describe_fit (table, rtx);
  g_assert_cmpstr (text, ==, "up to 59944 tokens");
  g_free (text);
  text = vc_gpu_chart_describe_fit (table, h100);
  g_assert_cmpstr (text, ==, "up to 131072 tokens (the model's maximum)");
  g_free (text);
  /* a row of several cards says what fits on them: two T4s, at TP 2 */
  text = vc_gpu_chart_describe_fit (table, t4);
  g_assert_cmpstr (text, ==, "up to 100529 tokens");

  /* the column has its room: the bars end before it */
  g_assert_true (vc_gpu_chart_get_bar (table, rtx, &bar, &color));
  {
    g_autoptr(PangoLayout) layout = gtk_widget_create_pango_layout (GTK_WIDGET (table), "up to 131072 tokens (the model's maximum)");
    int w, h;

    pango_layout_get_pixel_size (layout, &w, &h);
    g_assert_cmpfloat (bar.origin.x + bar.size.width, <, gtk_widget_get_width (GTK_WIDGET (table)) - w);
  }

  /* training: the largest batch */
  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_free (text);
  text = vc_gpu_chart_describe_fit (table, h100);
  g_assert_true (g_str_has_prefix (text, "batch up to "));
  {
    const VcSolution *sol = vc_estimate_get_gpu_solution (f->estimate, h100, VC_SOLVE_VARIABLE_BATCH);
    g_autofree char *expected = g_strdup_printf ("batch up to %u", sol->value);

    g_assert_true (sol->found);
    g_assert_cmpstr (text, ==, expected);
  }
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

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/context-chart/pixels", test_pixels);
  ADD ("/context-chart/description", test_description);
  ADD ("/context-chart/keyboard-readout", test_keyboard_readout);
  ADD ("/context-chart/hover-readout", test_hover_readout);
  ADD ("/context-chart/training", test_training);
  ADD ("/context-chart/card-picker", test_card_picker);
  ADD ("/gpu-table/fit-column", test_gpu_table_column);
  return g_test_run ();
}
