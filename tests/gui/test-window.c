/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The real window under a display: model → widgets, widgets → model, the scenario table driving
 * the breakdown, the GPU chart's bars in pixels, inputs kept in GSettings. Runs with
 * G_DEBUG=fatal-warnings, so a GLib warning or critical fails the test. */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-drop-down.h"
#include "vc-breakdown-bar.h"
#include "vc-catalog.h"
#include "vc-component-row.h"
#include "vc-enums.h"
#include "vc-gpu-chart-private.h"
#include "vc-model-section.h"
#include "vc-results-view.h"
#include "vc-units.h"
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
  vc_test_reset_stored_state ();
  f->window = vc_test_new_window (1100, 1150, &f->estimate);
  f->results = VC_RESULTS_VIEW (vc_test_window_results (f->window));
  vc_test_present (f->window);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  /* nothing keeps the window or the model alive once the window is gone */
  vc_test_destroy_window (f->window);
  g_assert_null (f->estimate);
}

static const char *
selected_label (GtkWidget *dropdown)
{
  GtkStringObject *s = vc_drop_down_get_selected_item (VC_DROP_DOWN (dropdown));
  return s ? gtk_string_object_get_string (s) : NULL;
}

static void
test_model_updates_widgets (Fixture       *f,
                            gconstpointer  data)
{
  GtkWidget *batch = vc_test_window_input (f->window, VC_MODE_INFERENCE, "batch");
  GtkWidget *precision = vc_test_window_input (f->window, VC_MODE_INFERENCE, "precision");
  GtkWidget *preset = vc_test_window_input (f->window, VC_MODE_INFERENCE, "preset");
  GtkWidget *parameters = vc_test_window_input (f->window, VC_MODE_INFERENCE, "parameters");
  GtkWidget *training_preset = vc_test_window_input (f->window, VC_MODE_TRAINING, "preset");
  GtkColumnView *view = GTK_COLUMN_VIEW (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "breakdown_view"));
  GListModel *rows;
  g_autofree char *weights_text = NULL;
  g_autofree char *total_text = NULL;
  const VcScenarioResult *sc;

  g_object_set (f->estimate, "batch", 4, "precision", VC_PRECISION_INT8, NULL);
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));

  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (batch)), ==, 4);
  g_assert_cmpstr (selected_label (precision), ==, "8-bit integer (int8)");
  g_assert_cmpstr (selected_label (preset), ==, vc_presets_lookup ("llama-3-8b")->name);
  g_assert_cmpstr (selected_label (training_preset), ==, vc_presets_lookup ("llama-3-8b")->name);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (parameters)), ==, "8.03B");

  /* the column view shows the model's rows, with the sizes the model computed */
  rows = G_LIST_MODEL (gtk_column_view_get_model (view));
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==,
                    g_list_model_get_n_items (vc_estimate_get_breakdown (f->estimate)));
  sc = vc_estimate_get_selected (f->estimate);
  weights_text = vc_format_size (sc->bytes[VC_COMPONENT_WEIGHTS], VC_UNIT_GB);
  g_assert_nonnull (vc_test_find_label (GTK_WIDGET (view), weights_text));
  total_text = vc_format_size (sc->total, VC_UNIT_GB);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "total"))), ==, total_text);
  /* each cell's tooltip gives the formula, formatted when it is asked for */
  {
    GtkWidget *cell = vc_test_find_label (GTK_WIDGET (view), weights_text);
    GtkTooltip *tooltip = g_object_new (GTK_TYPE_TOOLTIP, NULL);
    gboolean shown = FALSE;

    g_assert_true (gtk_widget_get_has_tooltip (cell));
    g_signal_emit_by_name (cell, "query-tooltip", 1, 1, FALSE, tooltip, &shown);
    g_assert_true (shown);
    g_object_unref (tooltip);
  }

  /* training adds gradients, optimizer state and, with mixed precision, the master weights */
  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  g_object_set (f->estimate, "mixed-precision", TRUE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->mode, ==, VC_MODE_TRAINING);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 6);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (vc_test_window_input (f->window, VC_MODE_TRAINING, "mixed-precision"))));
  g_assert_nonnull (vc_test_find_label (GTK_WIDGET (view), "Master weights"));
  /* the loss left to the trainer, and the one counted beside it */
  {
    GtkLabel *counted = GTK_LABEL (vc_test_window_input (f->window, VC_MODE_TRAINING, "effective-loss"));

    g_assert_cmpstr (selected_label (vc_test_window_input (f->window, VC_MODE_TRAINING, "loss")), ==,
                     "The trainer’s default");
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: Full logits");
    g_object_set (f->estimate, "trainer", VC_TRAINER_TORCHTUNE, NULL);
    vc_test_wait_for_frame (GTK_WIDGET (f->window));
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: Chunked");
    g_object_set (f->estimate, "loss", VC_LOSS_CCE, NULL);
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: Cut cross-entropy");
    g_object_set (f->estimate, "trainer", VC_TRAINER_GENERIC, "loss", VC_LOSS_AUTO, NULL);
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: Full logits");
  }
  /* the optimizer step's implementation, chosen in the window, reaches the estimate */
  {
    GtkWidget *impl = vc_test_window_input (f->window, VC_MODE_TRAINING, "optimizer-impl");

    g_assert_cmpstr (selected_label (impl), ==, "The trainer’s default");
    vc_drop_down_set_selected (VC_DROP_DOWN (impl), vc_test_choice_position (impl, "fused (no temporary)"));
    g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->optimizer_impl, ==, VC_OPTIMIZER_IMPL_FUSED);
    g_object_set (f->estimate, "optimizer-impl", VC_OPTIMIZER_IMPL_AUTO, NULL);
    g_assert_cmpstr (selected_label (impl), ==, "The trainer’s default");
  }

  /* the unit, from the menu's action, switches every size shown, rows included */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.unit", "s", "gib"));
  g_assert_cmpint (vc_profile_get_unit (vc_window_get_profile (f->window)), ==, VC_UNIT_GIB);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  {
    g_autofree char *gib = vc_format_size (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS],
                                           VC_UNIT_GIB);
    g_assert_nonnull (g_strstr_len (gib, -1, "GiB"));
    g_assert_nonnull (vc_test_find_label (GTK_WIDGET (view), gib));
  }
}

/* Beside the optimizer implementation, the step counted; under the method by parameter count,
 * the inputs it does not use that were set */
static void
test_training_notes (Fixture       *f,
                     gconstpointer  data)
{
  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->mode, ==, VC_MODE_TRAINING);
  /* the step counted beside it: the trainer's default resolved, and what steps without
   * torch.optim's two implementations */
  {
    GtkLabel *counted = GTK_LABEL (vc_test_window_input (f->window, VC_MODE_TRAINING, "effective-optimizer-impl"));

    g_assert_true (gtk_widget_get_visible (GTK_WIDGET (counted)));
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: foreach (one state-sized temporary)");
    g_object_set (f->estimate, "trainer", VC_TRAINER_AXOLOTL, NULL);
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: fused (no temporary)");
    g_object_set (f->estimate, "optimizer-impl", VC_OPTIMIZER_IMPL_FOREACH, NULL);
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: foreach (one state-sized temporary)");
    g_object_set (f->estimate, "optimizer", VC_OPTIMIZER_SGD, NULL);
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: foreach, in place (no temporary)");
    g_object_set (f->estimate, "optimizer", VC_OPTIMIZER_ADAMW_8BIT, "optimizer-impl", VC_OPTIMIZER_IMPL_AUTO, NULL);
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: bitsandbytes’ own 8-bit step (no temporary)");
    g_object_set (f->estimate, "optimizer", VC_OPTIMIZER_ADAMW, "optimizer-in-backward", TRUE, NULL);
    g_assert_cmpstr (gtk_label_get_label (counted), ==,
                     "Counted: one parameter’s step at a time, in the backward pass (no temporary)");
    g_object_set (f->estimate, "optimizer-in-backward", FALSE, "trainer", VC_TRAINER_GENERIC, NULL);
    g_assert_cmpstr (gtk_label_get_label (counted), ==, "Counted: foreach (one state-sized temporary)");
  }
  /* inputs the estimate by parameter count does not use, set before switching to it, are named
   * under the method; the adapters' own only with adapters */
  {
    GtkWidget *note = vc_test_window_input (f->window, VC_MODE_TRAINING, "method-note");
    VcFinetune finetune = vc_estimate_get_inputs (f->estimate)->finetune;
    VcMethod method = vc_estimate_get_inputs (f->estimate)->method;
    guint rank = vc_estimate_get_inputs (f->estimate)->lora_rank;

    g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "finetune", VC_FINETUNE_FULL, "loss", VC_LOSS_CHUNKED,
                  "compile", TRUE, "lora-rank", rank + 8, NULL);
    g_assert_false (gtk_widget_get_visible (note));
    g_assert_true (gtk_widget_get_sensitive (vc_test_window_input (f->window, VC_MODE_TRAINING, "compile")));
    g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
    g_assert_true (gtk_widget_get_visible (note));
    g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (note)), ==,
                     "Set but not used by the estimate by parameter count: Loss, torch.compile. "
                     "Choose the Architecture method to count them.");
    g_assert_false (gtk_widget_get_sensitive (vc_test_window_input (f->window, VC_MODE_TRAINING, "compile")));
    g_object_set (f->estimate, "finetune", VC_FINETUNE_LORA, "flash-attention", FALSE, NULL);
    g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (note)), ==,
                     "Set but not used by the estimate by parameter count: LoRA rank, Loss, Flash attention, "
                     "torch.compile. Choose the Architecture method to count them.");
    g_object_set (f->estimate, "loss", VC_LOSS_AUTO, "compile", FALSE, "lora-rank", rank, "flash-attention", TRUE, NULL);
    g_assert_false (gtk_widget_get_visible (note));
    g_object_set (f->estimate, "finetune", finetune, "method", method, NULL);
  }
}

/* The Inference tab's note: the inputs the estimate by parameter count does not use (the KV
 * precision, flash attention, llama.cpp's batches, streams and cache types), set in the window
 * under the architecture method and kept after switching, are named; none, no note */
static void
test_inference_method_note (Fixture       *f,
                            gconstpointer  data)
{
  GtkWidget *note = vc_test_window_input (f->window, VC_MODE_INFERENCE, "method-note");
  GtkWidget *flash = vc_test_window_input (f->window, VC_MODE_INFERENCE, "flash-attention");
  GtkWidget *kv = vc_test_window_input (f->window, VC_MODE_INFERENCE, "kv-precision");
  GtkWidget *type_k = vc_test_window_input (f->window, VC_MODE_INFERENCE, "cache-type-k");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_LLAMA_CPP, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (note));
  /* set in the window, under the architecture method: no note */
  gtk_switch_set_active (GTK_SWITCH (flash), FALSE);
  g_assert_false (in->flash_attention);
  vc_drop_down_set_selected (VC_DROP_DOWN (type_k), vc_test_choice_position (type_k, "q8_0"));
  g_assert_cmpint (in->cache_type_k, ==, VC_CACHE_TYPE_Q8_0);
  g_assert_false (gtk_widget_get_visible (note));
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  /* the rows are hidden; the note names them, in the grid's order */
  g_assert_false (gtk_widget_get_visible (flash));
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (note)), ==,
                   "Set but not used by the estimate by parameter count: Flash attention, Key cache type. "
                   "Choose the Architecture method to count them.");
  /* the KV precision stays in view and is not used either */
  vc_drop_down_set_selected (VC_DROP_DOWN (kv), vc_test_choice_position (kv, "8-bit float (fp8)"));
  g_assert_cmpint (in->kv_precision, ==, VC_PRECISION_FP8);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (note)), ==,
                   "Set but not used by the estimate by parameter count: KV cache precision, Flash attention, "
                   "Key cache type. Choose the Architecture method to count them.");
  /* back to the defaults: no note */
  g_object_set (f->estimate, "flash-attention", TRUE, "cache-type-k", VC_CACHE_TYPE_AUTO,
                "kv-precision", VC_PRECISION_BF16, NULL);
  g_assert_false (gtk_widget_get_visible (note));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (note)), ==, "");
  /* and under the architecture method a value away from its default is used: no note */
  g_object_set (f->estimate, "flash-attention", FALSE, NULL);
  g_assert_true (gtk_widget_get_visible (note));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  g_assert_false (gtk_widget_get_visible (note));
  g_object_set (f->estimate, "flash-attention", TRUE, "engine", VC_ENGINE_GENERIC, NULL);
}

/* A custom architecture kept under the method by parameter count is said to be unused; the
 * layer count is used by training's checkpointed activations; a preset's architecture is the
 * preset's */
static void
test_arch_note (Fixture       *f,
                gconstpointer  data)
{
  GtkWidget *page = vc_test_window_page (f->window, VC_MODE_INFERENCE);
  GtkWidget *section = vc_test_child (page, G_OBJECT_TYPE (page), "model_section");
  GtkWidget *note = vc_test_child (section, VC_TYPE_MODEL_SECTION, "arch_note");

  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "");
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "layers", 80, NULL);
  g_assert_false (gtk_widget_get_visible (note));
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (note)), ==,
                   "The architecture’s fields set here are kept but not used by the estimate by parameter "
                   "count. Choose the Architecture method to count them.");
  g_object_set (f->estimate, "mode", VC_MODE_TRAINING, "checkpointing", VC_CHECKPOINTING_FULL, NULL);
  g_assert_false (gtk_widget_get_visible (note));
  g_object_set (f->estimate, "hidden-size", 1024, NULL);
  g_assert_true (gtk_widget_get_visible (note));
  g_assert_true (vc_estimate_set_preset (f->estimate, "qwen3-8b", NULL));
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  g_assert_false (gtk_widget_get_visible (note));
}

static void
test_widgets_update_model (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *batch = vc_test_window_input (f->window, VC_MODE_INFERENCE, "batch");
  GtkWidget *kv = vc_test_window_input (f->window, VC_MODE_INFERENCE, "kv-precision");
  GtkWidget *parameters = vc_test_window_input (f->window, VC_MODE_INFERENCE, "parameters");
  GtkWidget *method = vc_test_window_input (f->window, VC_MODE_INFERENCE, "method");
  GtkWidget *layers = vc_test_window_input (f->window, VC_MODE_INFERENCE, "layers");
  GtkWidget *preset = vc_test_window_input (f->window, VC_MODE_INFERENCE, "preset");
  GtkWidget *lora_rank = vc_test_window_input (f->window, VC_MODE_TRAINING, "lora-rank");
  GtkWidget *lora_percent = vc_test_window_input (f->window, VC_MODE_TRAINING, "lora-percent");
  GtkWidget *finetune = vc_test_window_input (f->window, VC_MODE_TRAINING, "finetune");
  GtkWidget *training_precision = vc_test_window_input (f->window, VC_MODE_TRAINING, "training-precision");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  double before;

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (batch), 8);
  g_assert_cmpuint (in->batch, ==, 8);
  vc_drop_down_set_selected (VC_DROP_DOWN (kv), vc_test_choice_position (kv, "4-bit integer (int4)"));
  g_assert_cmpint (in->kv_precision, ==, VC_PRECISION_INT4);

  gtk_editable_set_text (GTK_EDITABLE (parameters), "13B");
  g_signal_emit_by_name (parameters, "activate");
  g_assert_cmpfloat (in->parameters, ==, 13e9);
  g_assert_false (gtk_widget_has_css_class (parameters, "error"));

  /* a bad count is refused with the core's message and marks the entry */
  before = in->parameters;
  gtk_editable_set_text (GTK_EDITABLE (parameters), "lots");
  g_signal_emit_by_name (parameters, "activate");
  g_assert_cmpfloat (in->parameters, ==, before);
  g_assert_true (gtk_widget_has_css_class (parameters, "error"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (parameters), "lots"));

  /* the architecture fields only with the architecture method, editable only for Custom */
  g_assert_false (gtk_widget_is_drawable (layers));
  vc_drop_down_set_selected (VC_DROP_DOWN (method), vc_test_choice_position (method, "Architecture"));
  g_assert_cmpint (in->method, ==, VC_METHOD_ARCHITECTURE);
  g_assert_false (gtk_widget_get_sensitive (parameters));
  g_assert_true (gtk_widget_is_sensitive (layers));
  vc_drop_down_set_selected (VC_DROP_DOWN (preset), vc_test_choice_position (preset, vc_presets_lookup ("mistral-7b")->name));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "mistral-7b");
  g_assert_false (gtk_widget_is_sensitive (layers));
  vc_drop_down_set_selected (VC_DROP_DOWN (preset), 0);
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "");
  g_assert_true (gtk_widget_is_sensitive (layers));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (layers), 40);
  g_assert_cmpuint (in->arch.n_layers, ==, 40);

  /* LoRA: the rank with the architecture, the share with the rule of thumb; neither for full */
  g_assert_true (gtk_widget_get_sensitive (lora_rank));
  g_assert_false (gtk_widget_get_sensitive (lora_percent));
  vc_drop_down_set_selected (VC_DROP_DOWN (finetune), vc_test_choice_position (finetune, "Full fine-tuning"));
  g_assert_cmpint (in->finetune, ==, VC_FINETUNE_FULL);
  g_assert_false (gtk_widget_get_sensitive (lora_rank));

  /* the training tab offers float precisions only */
  g_assert_cmpuint (g_list_model_get_n_items (vc_drop_down_get_model (VC_DROP_DOWN (training_precision))), ==, 3);
  vc_drop_down_set_selected (VC_DROP_DOWN (training_precision),
                              vc_test_choice_position (training_precision, "32-bit float (fp32)"));
  g_assert_cmpint (in->training_precision, ==, VC_TRAINING_PRECISION_FP32);
  g_assert_cmpint (in->precision, ==, VC_PRECISION_BF16);

  /* the visible tab is the estimate's mode */
  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  g_assert_cmpint (in->mode, ==, VC_MODE_TRAINING);
  vc_window_set_mode (f->window, VC_MODE_INFERENCE);
  g_assert_cmpint (in->mode, ==, VC_MODE_INFERENCE);
}

static void
test_scenario_drives_breakdown (Fixture       *f,
                                gconstpointer  data)
{
  GtkListBox *scenarios = GTK_LIST_BOX (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "scenarios"));
  GtkColumnView *view = GTK_COLUMN_VIEW (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "breakdown_view"));
  GListModel *rows = G_LIST_MODEL (gtk_column_view_get_model (view));
  const VcResult *r;
  double weights = -1;

  /* 16, 8 and 4 bits; selecting the last row picks 4-bit weights */
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (gtk_list_box_get_row_at_index (scenarios, 2));
  g_assert_null (gtk_list_box_get_row_at_index (scenarios, 3));
  /* Enter or Space on a row, or a click, activates it */
  gtk_widget_activate (GTK_WIDGET (gtk_list_box_get_row_at_index (scenarios, 2)));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));

  r = vc_estimate_get_result (f->estimate);
  g_assert_cmpint (r->scenarios[r->selected].id, ==, VC_SCENARIO_INFERENCE_4BIT);
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->precision, ==, VC_PRECISION_INT4);
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (gtk_list_box_get_row_at_index (scenarios, 2)), "vc-chosen"));

  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(VcComponentRow) row = g_list_model_get_item (rows, i);
      if (vc_component_row_get_component (row) == VC_COMPONENT_WEIGHTS)
        weights = vc_component_row_get_bytes (row);
    }
  g_assert_cmpfloat (weights, ==, r->scenarios[r->selected].bytes[VC_COMPONENT_WEIGHTS]);
  g_assert_cmpfloat (weights, ==, 3.5e9);

  /* sorting by size puts the largest component first */
  {
    g_autoptr(GtkColumnViewColumn) size = g_list_model_get_item (gtk_column_view_get_columns (view), 1);

    gtk_column_view_sort_by_column (view, size, GTK_SORT_DESCENDING);
  }
  vc_test_spin_until_idle ();
  for (guint i = 1; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(VcComponentRow) a = g_list_model_get_item (rows, i - 1);
      g_autoptr(VcComponentRow) b = g_list_model_get_item (rows, i);
      g_assert_cmpfloat (vc_component_row_get_bytes (a), >=, vc_component_row_get_bytes (b));
    }

  /* a training scenario through the model: the table follows */
  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  vc_estimate_select_scenario (f->estimate, VC_SCENARIO_QLORA_4BIT);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (gtk_list_box_get_row_at_index (scenarios, 3));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (gtk_list_box_get_row_at_index (scenarios, 3)), "vc-chosen"));
}

static gboolean
near (const GdkRGBA *a,
      const GdkRGBA *b)
{
  return fabs (a->red - b->red) < 0.03 && fabs (a->green - b->green) < 0.03 &&
         fabs (a->blue - b->blue) < 0.03 && a->alpha > 0.97;
}

static void
test_gpu_chart_pixels (Fixture       *f,
                       gconstpointer  data)
{
  GtkWidget *chart = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "gpu_chart");
  g_autofree guint8 *pixels = NULL;
  int width, height;
  gsize stride;
  guint n, kinds[3] = { 0, 0, 0 };

  /* the seed's 7B at 16 bits, 18.8 GB: needs two 16 GB cards, fits one 80 GB card */
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  pixels = vc_test_render (chart, &width, &height, &stride);
  vc_gpus_get_all (&n);
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n);

  for (guint i = 0; i < n; i++)
    {
      graphene_rect_t bar;
      GdkRGBA expected, seen;
      VcGpuFitKind kind = vc_gpu_chart_get_fit_kind (VC_GPU_CHART (chart), i);
      int x, y;

      g_assert_true (vc_gpu_chart_get_bar (VC_GPU_CHART (chart), i, &bar, &expected));
      g_assert_cmpfloat (bar.size.width, >, 4);
      g_assert_cmpfloat (bar.origin.y + bar.size.height, <=, height);
      kinds[kind]++;
      x = bar.origin.x + bar.size.width / 2;
      y = bar.origin.y + bar.size.height / 2;
      vc_test_pixel (pixels, stride, x, y, &seen);
      if (!near (&seen, &expected))
        g_error ("GPU %u: pixel (%d, %d) is %s, expected the bar's %s", i, x, y,
                 gdk_rgba_to_string (&seen), gdk_rgba_to_string (&expected));
      /* beyond a bar that fits, the empty capacity is not painted as the bar */
      if (kind == VC_GPU_FIT_ONE)
        {
          vc_test_pixel (pixels, stride, bar.origin.x + bar.size.width + 3, y, &seen);
          g_assert_false (near (&seen, &expected));
        }
    }
  g_assert_cmpuint (kinds[VC_GPU_FIT_ONE], >, 0);
  g_assert_cmpuint (kinds[VC_GPU_FIT_SEVERAL], >, 0);

  /* the labels carry the count, not only the colours: two 16 GB T4 cards, three 8 GB cards */
  for (guint i = 0; i < n; i++)
    {
      const char *id = vc_estimate_get_gpu (f->estimate, i)->id;
      g_autofree char *label = vc_gpu_chart_describe (VC_GPU_CHART (chart), i);

      if (g_str_equal (id, "t4"))
        g_assert_nonnull (strstr (label, "2 GPUs"));
      else if (g_str_equal (id, "rtx-4060-8gb"))
        g_assert_nonnull (strstr (label, "3 GPUs"));
    }

  /* an overhead per GPU larger than any GPU: no number of them is enough */
  g_object_set (f->estimate, "overhead-gb", 500.0, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  for (guint i = 0; i < n; i++)
    g_assert_cmpint (vc_gpu_chart_get_fit_kind (VC_GPU_CHART (chart), i), ==, VC_GPU_FIT_NONE);
  {
    g_autofree char *first = vc_gpu_chart_describe (VC_GPU_CHART (chart), 0);
    g_assert_nonnull (strstr (first, "does not fit"));
  }
}

static void
test_breakdown_bar_pixels (Fixture       *f,
                           gconstpointer  data)
{
  GtkWidget *bar = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "breakdown_bar");
  g_autofree guint8 *pixels = NULL;
  int width, height;
  gsize stride;
  GdkRGBA weights, seen;

  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  pixels = vc_test_render (bar, &width, &height, &stride);
  /* weights come first and are 74 % of the seed's 7B: the bar's first quarter is theirs */
  vc_component_color (VC_COMPONENT_WEIGHTS, vc_widget_is_dark (bar), &weights);
  vc_test_pixel (pixels, stride, width / 4, 14, &seen);
  g_assert_true (near (&seen, &weights));
}

static void
test_inputs_kept (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);
  g_autoptr(GVariant) saved = NULL;
  g_autoptr(GVariant) bad = NULL;
  GVariantDict dict;
  VcWindow *second;
  const VcInputs *in;

  g_assert_true (vc_estimate_set_preset (f->estimate, "mixtral-8x7b", NULL));
  g_object_set (f->estimate, "seq", 4096, "kv-precision", VC_PRECISION_FP8,
                "lora-targets", VC_LORA_TARGET_Q | VC_LORA_TARGET_V, NULL);
  vc_profile_set_unit (vc_window_get_profile (f->window), VC_UNIT_GIB);
  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  gtk_window_close (GTK_WINDOW (f->window));
  /* closing destroyed it: make the teardown's destroy a no-op on a fresh window */
  saved = g_settings_get_value (settings, "last-inputs");
  {
    g_autofree char *tab = g_settings_get_string (settings, "tab");
    g_assert_cmpstr (tab, ==, "training");
  }

  second = vc_window_new (NULL);
  in = vc_estimate_get_inputs (vc_window_get_estimate (second));
  g_assert_cmpstr (vc_estimate_get_preset (vc_window_get_estimate (second)), ==, "mixtral-8x7b");
  g_assert_cmpuint (in->seq, ==, 4096);
  g_assert_cmpint (in->kv_precision, ==, VC_PRECISION_FP8);
  g_assert_cmpuint (in->lora_targets, ==, VC_LORA_TARGET_Q | VC_LORA_TARGET_V);
  g_assert_cmpint (in->mode, ==, VC_MODE_TRAINING);
  g_assert_cmpint (vc_profile_get_unit (vc_window_get_profile (second)), ==, VC_UNIT_GIB);
  g_assert_false (vc_profile_get_modified (vc_window_get_profile (second)));
  vc_test_destroy_window (second);

  /* stored values that are out of range or unknown are skipped without a warning */
  g_variant_dict_init (&dict, saved);
  g_variant_dict_insert (&dict, "batch", "u", 0);
  g_variant_dict_insert (&dict, "precision", "s", "fp7");
  g_variant_dict_insert (&dict, "preset", "s", "no-such-model");
  g_variant_dict_insert (&dict, "no-such-input", "u", 3);
  g_variant_dict_insert (&dict, "seq", "s", "long");
  bad = g_variant_ref_sink (g_variant_dict_end (&dict));
  second = vc_window_new (NULL);
  vc_window_restore_inputs (second, bad);
  in = vc_estimate_get_inputs (vc_window_get_estimate (second));
  g_assert_cmpuint (in->batch, ==, 1);
  g_assert_cmpuint (in->seq, ==, 4096);
  g_assert_cmpint (in->kv_precision, ==, VC_PRECISION_FP8);
  vc_test_destroy_window (second);

  /* numbers and booleans stored typed, as versions before the text form did, still restore */
  g_variant_dict_init (&dict, NULL);
  g_variant_dict_insert (&dict, "batch", "u", 7);
  g_variant_dict_insert (&dict, "overhead-gb", "d", 1.5);
  g_variant_dict_insert (&dict, "flash-attention", "b", FALSE);
  g_clear_pointer (&bad, g_variant_unref);
  bad = g_variant_ref_sink (g_variant_dict_end (&dict));
  second = vc_window_new (NULL);
  vc_window_restore_inputs (second, bad);
  in = vc_estimate_get_inputs (vc_window_get_estimate (second));
  g_assert_cmpuint (in->batch, ==, 7);
  g_assert_cmpfloat (in->overhead_gb, ==, 1.5);
  g_assert_false (in->flash_attention);
  vc_test_destroy_window (second);

  /* inputs kept before profile format 3 stored a typed-in architecture's RoPE table as kind 0:
   * restored as one typed in now (kind 5); kept with the format version, 0 stays 0 */
  {
    const char *version = NULL;

    g_assert_true (g_variant_lookup (saved, "profile-version", "&s", &version));
    g_assert_cmpstr (version, ==, "3");
  }
  for (guint i = 0; i < 2; i++)
    {
      g_variant_dict_init (&dict, NULL);
      if (i == 1)
        g_variant_dict_insert (&dict, "profile-version", "s", "3");
      /* a typed-in architecture: no preset (the window starts from the Mixtral kept above) */
      g_variant_dict_insert (&dict, "preset", "s", "");
      g_variant_dict_insert (&dict, "engine", "s", "vllm");
      g_variant_dict_insert (&dict, "rope-table-kind", "s", "0");
      g_variant_dict_insert (&dict, "rope-table-rows", "s", "0");
      g_variant_dict_insert (&dict, "rotary-dim", "s", "0");
      g_variant_dict_insert (&dict, "max-context", "s", "8192");
      g_clear_pointer (&bad, g_variant_unref);
      bad = g_variant_ref_sink (g_variant_dict_end (&dict));
      second = vc_window_new (NULL);
      vc_window_restore_inputs (second, bad);
      in = vc_estimate_get_inputs (vc_window_get_estimate (second));
      g_assert_cmpuint (in->arch.rope_table_kind, ==, (i == 0 ? VC_ROPE_TABLE_NOT_GIVEN : VC_ROPE_TABLE_PLAIN));
      g_assert_cmpuint (in->arch.max_context, ==, 8192);
      vc_test_destroy_window (second);
    }

  /* for the teardown */
  f->window = vc_test_new_window (1100, 1150, &f->estimate);
}

/* an input that vramcalc sets too shows its property's blurb, the text of vramcalc's help */
static void
test_tooltips_are_blurbs (Fixture       *f,
                          gconstpointer  data)
{
  static const struct { VcMode mode; const char *property; } inputs[] = {
    { VC_MODE_INFERENCE, "batch" }, { VC_MODE_INFERENCE, "engine" },
    { VC_MODE_INFERENCE, "memory-fraction" }, { VC_MODE_INFERENCE, "max-num-seqs" },
    { VC_MODE_INFERENCE, "engine-version" }, { VC_MODE_INFERENCE, "mem-fraction-static" },
    { VC_MODE_INFERENCE, "sglang-version" },
    { VC_MODE_INFERENCE, "n-ubatch" }, { VC_MODE_INFERENCE, "cache-type-v" },
    { VC_MODE_INFERENCE, "tp" }, { VC_MODE_INFERENCE, "dp" }, { VC_MODE_INFERENCE, "gpus-per-node" },
    { VC_MODE_TRAINING, "trainer" }, { VC_MODE_TRAINING, "mfu" }, { VC_MODE_TRAINING, "dp" },
    { VC_MODE_TRAINING, "grad-accum" }, { VC_MODE_TRAINING, "gpus-per-node" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
    {
      GtkWidget *input = vc_test_window_input (f->window, inputs[i].mode, inputs[i].property);
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (f->estimate), inputs[i].property);

      g_test_message ("%s", inputs[i].property);
      g_assert_nonnull (pspec);
      g_assert_cmpstr (gtk_widget_get_tooltip_text (input), ==, _(g_param_spec_get_blurb (pspec)));
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
  ADD ("/window/model-updates-widgets", test_model_updates_widgets);
  ADD ("/window/training-notes", test_training_notes);
  ADD ("/window/inference-method-note", test_inference_method_note);
  ADD ("/window/arch-note", test_arch_note);
  ADD ("/window/widgets-update-model", test_widgets_update_model);
  ADD ("/window/scenario-drives-breakdown", test_scenario_drives_breakdown);
  ADD ("/window/gpu-chart-pixels", test_gpu_chart_pixels);
  ADD ("/window/breakdown-bar-pixels", test_breakdown_bar_pixels);
  ADD ("/window/inputs-kept", test_inputs_kept);
  ADD ("/window/tooltips-are-blurbs", test_tooltips_are_blurbs);
  return g_test_run ();
}
