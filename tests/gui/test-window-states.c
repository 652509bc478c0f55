/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window as a new user finds it: inputs change only when the user changes them, each tab
 * has its own inputs and results, and what is only looked at is no edit. Drives the real
 * window under a display, with G_DEBUG=fatal-warnings. */
#include "config.h"

#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-drop-down.h"
#include "vc-catalog.h"
#include "vc-component-row.h"
#include "vc-gpu-chart-private.h"
#include "vc-hf-config.h"
#include "vc-profile.h"
#include "vc-split-view.h"
#include "vc-units.h"
#include "vc-test-util.h"

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
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 900);
  f->estimate = vc_window_get_estimate (f->window);
  f->results = VC_RESULTS_VIEW (vc_test_window_results (f->window));
  gtk_window_present (GTK_WINDOW (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  vc_test_destroy_window (f->window);
}

static const char *
selected_label (GtkWidget *dropdown)
{
  GtkStringObject *s = vc_drop_down_get_selected_item (VC_DROP_DOWN (dropdown));
  return s ? gtk_string_object_get_string (s) : NULL;
}

/* No label drawn in the window says something is wrong next to figures. */
static void
assert_no_error_shown (GtkWidget *widget)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (!gtk_widget_get_visible (child))
        continue;
      if (GTK_IS_LABEL (child) && gtk_widget_has_css_class (child, "error") &&
          *gtk_label_get_label (GTK_LABEL (child)) != '\0')
        g_error ("an error is shown next to figures: %s", gtk_label_get_label (GTK_LABEL (child)));
      assert_no_error_shown (child);
    }
}

static const char *
total_text (Fixture *f)
{
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  return gtk_label_get_label (GTK_LABEL (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "total")));
}

/* Item 1: tabbing through every focusable control, the scenario rows included, changes no
 * input; a scenario is chosen by activating its row (what a click, Enter and Space do). */
static void
test_focus_changes_nothing (Fixture       *f,
                            gconstpointer  data)
{
  GtkListBox *scenarios = GTK_LIST_BOX (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "scenarios"));
  VcProfile *profile = vc_window_get_profile (f->window);
  GtkWidget *first_row;
  g_autofree char *before = NULL, *after = NULL;
  gboolean visited_rows = FALSE;

  before = vc_profile_serialize (f->estimate, "", "", VC_UNIT_GB, NULL);
  g_assert_false (vc_profile_get_modified (profile));

  /* Tab forward through the whole window, then back */
  for (guint i = 0; i < 120; i++)
    {
      GtkWidget *focus;

      if (!gtk_widget_child_focus (GTK_WIDGET (f->window), GTK_DIR_TAB_FORWARD))
        gtk_widget_child_focus (GTK_WIDGET (f->window), GTK_DIR_TAB_FORWARD);
      focus = gtk_root_get_focus (GTK_ROOT (f->window));
      if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (scenarios)))
        {
          visited_rows = TRUE;
          /* arrows move the focus between rows: still nothing changes */
          gtk_widget_child_focus (GTK_WIDGET (scenarios), GTK_DIR_DOWN);
          gtk_widget_child_focus (GTK_WIDGET (scenarios), GTK_DIR_DOWN);
        }
      vc_test_spin_until_idle ();
    }
  for (guint i = 0; i < 60; i++)
    gtk_widget_child_focus (GTK_WIDGET (f->window), GTK_DIR_TAB_BACKWARD);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (visited_rows);

  after = vc_profile_serialize (f->estimate, "", "", VC_UNIT_GB, NULL);
  g_assert_cmpstr (after, ==, before);
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->precision, ==, VC_PRECISION_BF16);
  g_assert_false (vc_profile_get_modified (profile));
  /* the seed's 7B in 16 bits is still the scenario shown */
  g_assert_cmpstr (total_text (f), ==, "18.8\u00a0GB");
  first_row = GTK_WIDGET (gtk_list_box_get_row_at_index (scenarios, 0));
  g_assert_true (gtk_widget_has_css_class (first_row, "vc-chosen"));

  /* Enter or Space on the 4-bit row (the row's activate keybinding), or a click, choose it */
  gtk_widget_grab_focus (GTK_WIDGET (gtk_list_box_get_row_at_index (scenarios, 2)));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->precision, ==, VC_PRECISION_BF16);
  gtk_widget_activate (GTK_WIDGET (gtk_list_box_get_row_at_index (scenarios, 2)));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->precision, ==, VC_PRECISION_INT4);
  g_assert_cmpstr (total_text (f), ==, "8.30\u00a0GB");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (gtk_list_box_get_row_at_index (scenarios, 2)), "vc-chosen"));
  g_assert_false (gtk_widget_has_css_class (first_row, "vc-chosen"));
  g_assert_true (vc_profile_get_modified (profile));
}

/* Item 2: inference weight precision and training parameter precision are two inputs. */
static void
test_two_precisions (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *weights = vc_test_window_input (f->window, VC_MODE_INFERENCE, "precision");
  GtkWidget *training = vc_test_window_input (f->window, VC_MODE_TRAINING, "training-precision");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  const char *quantized[] = { "4-bit integer (int4)", "8-bit integer (int8)", "8-bit float (fp8)" };

  for (guint i = 0; i < G_N_ELEMENTS (quantized); i++)
    {
      vc_window_set_mode (f->window, VC_MODE_INFERENCE);
      vc_drop_down_set_selected (VC_DROP_DOWN (weights), vc_test_choice_position (weights, quantized[i]));
      vc_window_set_mode (f->window, VC_MODE_TRAINING);
      vc_test_wait_for_frame (GTK_WIDGET (f->window));
      /* the Training tab keeps its own precision, never "(None)", and no error */
      g_assert_cmpstr (selected_label (training), ==, "16-bit bfloat (bf16)");
      g_assert_cmpint (in->training_precision, ==, VC_TRAINING_PRECISION_BF16);
      g_assert_true (vc_estimate_check (f->estimate, NULL));
      assert_no_error_shown (GTK_WIDGET (f->window));
      g_assert_cmpstr (selected_label (weights), ==, quantized[i]);
    }

  /* the seed's 7B, LoRA, then full fine-tuning in fp32: the inference precision stays */
  vc_drop_down_set_selected (VC_DROP_DOWN (training), vc_test_choice_position (training, "32-bit float (fp32)"));
  g_assert_cmpint (in->training_precision, ==, VC_TRAINING_PRECISION_FP32);
  g_assert_cmpint (in->precision, ==, VC_PRECISION_FP8);
  vc_window_set_mode (f->window, VC_MODE_INFERENCE);
  g_assert_cmpstr (selected_label (weights), ==, "8-bit float (fp8)");
  g_assert_cmpstr (total_text (f), ==, "11.8\u00a0GB");

  /* inputs kept by a version with one precision: a float one was both, a quantized one was
   * the weights' only (the Training tab then starts from bf16, not from "(None)") */
  {
    VcWindow *restored = vc_window_new (NULL);
    const VcInputs *rin = vc_estimate_get_inputs (vc_window_get_estimate (restored));
    GVariantDict dict;
    g_autoptr(GVariant) fp32 = NULL, int4 = NULL;

    g_variant_dict_init (&dict, NULL);
    g_variant_dict_insert (&dict, "mode", "s", "training");
    g_variant_dict_insert (&dict, "precision", "s", "fp32");
    fp32 = g_variant_ref_sink (g_variant_dict_end (&dict));
    vc_window_restore_inputs (restored, fp32);
    g_assert_cmpint (rin->precision, ==, VC_PRECISION_FP32);
    g_assert_cmpint (rin->training_precision, ==, VC_TRAINING_PRECISION_FP32);

    g_variant_dict_init (&dict, NULL);
    g_variant_dict_insert (&dict, "precision", "s", "int4");
    g_variant_dict_insert (&dict, "training-precision", "s", "fp16");
    int4 = g_variant_ref_sink (g_variant_dict_end (&dict));
    vc_window_restore_inputs (restored, int4);
    g_assert_cmpint (rin->precision, ==, VC_PRECISION_INT4);
    g_assert_cmpint (rin->training_precision, ==, VC_TRAINING_PRECISION_FP16);
    g_assert_true (vc_estimate_check (vc_window_get_estimate (restored), NULL));
    vc_test_destroy_window (restored);
  }
}

/* Item 3: the Inference results use only the Inference tab's inputs. */
static void
test_modes_independent (Fixture       *f,
                        gconstpointer  data)
{
  GtkWidget *checkpointing = vc_test_window_input (f->window, VC_MODE_TRAINING, "checkpointing");
  GtkWidget *training = vc_test_window_input (f->window, VC_MODE_TRAINING, "training-precision");
  GtkWidget *mixed = vc_test_window_input (f->window, VC_MODE_TRAINING, "mixed-precision");
  GtkListBox *scenarios = GTK_LIST_BOX (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "scenarios"));
  const char *expected[] = { "18.8\u00a0GB", "11.8\u00a0GB", "8.30\u00a0GB" };

  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  vc_drop_down_set_selected (VC_DROP_DOWN (checkpointing),
                              vc_test_choice_position (checkpointing, "Every layer"));
  vc_drop_down_set_selected (VC_DROP_DOWN (training), vc_test_choice_position (training, "32-bit float (fp32)"));
  gtk_switch_set_active (GTK_SWITCH (mixed), TRUE);
  vc_window_set_mode (f->window, VC_MODE_INFERENCE);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));

  /* the seed's 7B inference table: 18.8 / 11.8 / 8.3 GB, whatever the Training tab says */
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      GtkWidget *row = GTK_WIDGET (gtk_list_box_get_row_at_index (scenarios, i));
      g_assert_nonnull (vc_test_find_label (row, expected[i]));
    }
}

/* Item 4: a preset chosen selects the architecture method; the user can switch back. */
static void
test_preset_selects_architecture (Fixture       *f,
                                  gconstpointer  data)
{
  GtkWidget *preset = vc_test_window_input (f->window, VC_MODE_INFERENCE, "preset");
  GtkWidget *method = vc_test_window_input (f->window, VC_MODE_INFERENCE, "method");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  const VcScenarioResult *sc;

  g_assert_cmpint (in->method, ==, VC_METHOD_RULE_OF_THUMB);
  vc_drop_down_set_selected (VC_DROP_DOWN (preset),
                              vc_test_choice_position (preset, vc_presets_lookup ("llama-3-8b")->name));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "llama-3-8b");
  g_assert_cmpint (in->method, ==, VC_METHOD_ARCHITECTURE);
  g_assert_cmpstr (selected_label (method), ==, "Architecture");
  /* 8 KV heads × 128 × 32 layers × 2 (K and V) × 2 bytes × 2048 tokens = 268,435,456 bytes */
  sc = vc_estimate_get_selected (f->estimate);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, 268435456.0);

  /* back to the rule of thumb: it stays, the preset too */
  vc_drop_down_set_selected (VC_DROP_DOWN (method), vc_test_choice_position (method, "By parameter count"));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpint (in->method, ==, VC_METHOD_RULE_OF_THUMB);
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "llama-3-8b");

  /* a preset set from the model (a profile opened, inputs restored) keeps its method */
  g_assert_true (vc_estimate_set_preset (f->estimate, "mistral-7b", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (selected_label (preset), ==, vc_presets_lookup ("mistral-7b")->name);
  g_assert_cmpint (in->method, ==, VC_METHOD_RULE_OF_THUMB);
}

/* Item 5: the tab shown is view state; each tab keeps its scroll position. */
static void
test_tab_is_view_state (Fixture       *f,
                        gconstpointer  data)
{
  VcProfile *profile = vc_window_get_profile (f->window);
  GtkWidget *inference = vc_test_window_page (f->window, VC_MODE_INFERENCE);
  GtkWidget *training = vc_test_window_page (f->window, VC_MODE_TRAINING);
  GtkAdjustment *inference_scroll, *training_scroll;
  double lower;

  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 500);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-training", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->mode, ==, VC_MODE_TRAINING);
  g_assert_false (vc_profile_get_modified (profile));
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-inference", NULL));
  g_assert_false (vc_profile_get_modified (profile));

  inference_scroll = gtk_scrolled_window_get_vadjustment (
    GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (inference, GTK_TYPE_SCROLLED_WINDOW)));
  training_scroll = gtk_scrolled_window_get_vadjustment (
    GTK_SCROLLED_WINDOW (gtk_widget_get_ancestor (training, GTK_TYPE_SCROLLED_WINDOW)));
  g_assert_true (inference_scroll != training_scroll);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  lower = gtk_adjustment_get_upper (inference_scroll) - gtk_adjustment_get_page_size (inference_scroll);
  g_assert_cmpfloat (lower, >, 40);
  gtk_adjustment_set_value (inference_scroll, 40);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-training", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpfloat (gtk_adjustment_get_value (training_scroll), ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.show-inference", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpfloat (gtk_adjustment_get_value (inference_scroll), ==, 40);

  /* an edit still counts */
  g_object_set (f->estimate, "batch", 2, NULL);
  g_assert_true (vc_profile_get_modified (profile));
}

static GtkWidget *
find_descendant (GtkWidget *widget,
                 GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = find_descendant (child, type)) != NULL)
        return found;
    }
  return NULL;
}

/* What the open list shows for a search typed in its entry. */
static GListModel *
search_list (GtkWidget  *dropdown,
             const char *text,
             guint       expected)
{
  GtkWidget *popover = find_descendant (dropdown, GTK_TYPE_POPOVER);
  GtkWidget *entry = find_descendant (popover, GTK_TYPE_SEARCH_ENTRY);
  GtkWidget *list = find_descendant (popover, GTK_TYPE_LIST_VIEW);
  GListModel *shown = G_LIST_MODEL (gtk_list_view_get_model (GTK_LIST_VIEW (list)));
  gint64 deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;

  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  /* the entry reports a search after a short delay */
  while (g_list_model_get_n_items (shown) != expected && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  return shown;
}

static const char *
item_string (GListModel *model,
             guint       position)
{
  g_autoptr(GtkStringObject) s = g_list_model_get_item (model, position);
  static char buffer[256];

  g_strlcpy (buffer, gtk_string_object_get_string (s), sizeof buffer);
  return buffer;
}

/* Item 13: the preset search matches any part of the name, id and size; Enter picks the
 * first match; one Escape closes the list. */
static void
test_preset_search (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *preset = vc_test_window_input (f->window, VC_MODE_INFERENCE, "preset");
  GtkWidget *popover, *entry;
  GListModel *shown;
  guint n_presets, n_sized;
  const VcPreset *presets = vc_presets_get_all (&n_presets);

  /* the list is made when it first opens, and the search entry has the focus */
  g_assert_null (find_descendant (preset, GTK_TYPE_POPOVER));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find_descendant (preset, GTK_TYPE_TOGGLE_BUTTON)), TRUE);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  popover = find_descendant (preset, GTK_TYPE_POPOVER);
  entry = find_descendant (popover, GTK_TYPE_SEARCH_ENTRY);
  g_assert_true (gtk_widget_get_visible (popover));
  g_assert_true (gtk_widget_has_focus (find_descendant (entry, GTK_TYPE_TEXT)));

  /* inside the name */
  shown = search_list (preset, "405", 1);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  g_assert_cmpstr (item_string (shown, 0), ==, "Llama 3.1 405B");
  shown = search_list (preset, "DeepSeek-R1 (", 1);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 1);
  g_assert_cmpstr (item_string (shown, 0), ==, vc_presets_lookup ("deepseek-r1")->name);
  /* the id: "qwen3-30b-a3b" is written "Qwen3 30B-A3B" (and its Thinking 2507, Base and Instruct
   * 2507 follow) */
  shown = search_list (preset, "qwen3-30b-a3b", 4);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 4);
  g_assert_cmpstr (item_string (shown, 0), ==, vc_presets_lookup ("qwen3-30b-a3b")->name);
  /* the size, as the parameter field shows it: Llama 3 8B and 3.1 8B have 8.03B, as other
   * models of the catalog (R1's Llama distill, Aya 23 8B) */
  n_sized = 0;
  for (guint i = 0; i < n_presets; i++)
    {
      g_autofree char *size = vc_format_count (presets[i].published_parameters);

      n_sized += g_str_equal (size, "8.03B");
    }
  g_assert_cmpuint (n_sized, >=, 2);
  shown = search_list (preset, "8.03B", n_sized);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, n_sized);
  g_assert_cmpstr (item_string (shown, 0), ==, "Llama 3 8B");

  /* Enter picks the first match and closes the list */
  g_signal_emit_by_name (entry, "activate");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "llama-3-8b");
  g_assert_false (gtk_widget_get_visible (popover));

  /* one Escape closes the list, with a search typed */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (find_descendant (preset, GTK_TYPE_TOGGLE_BUTTON)), TRUE);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  /* five 70B models (Llama 2, 3, 3.1, 3.3 and the R1 distill), and Mixtral 8x7B for its
   * 46.70B parameters */
  shown = search_list (preset, "70B", 6);
  g_assert_cmpuint (g_list_model_get_n_items (shown), ==, 6);
  g_signal_emit_by_name (entry, "stop-search");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (popover));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "llama-3-8b");
}

/* A drop-down makes its list when it first opens (nothing of it is in the first frame), puts
 * the focus on the chosen item, marks it, and sets the input when an item is activated. */
static void
test_drop_down_list (Fixture       *f,
                     gconstpointer  data)
{
  GtkWidget *weights = vc_test_window_input (f->window, VC_MODE_INFERENCE, "precision");
  GtkWidget *toggle = find_descendant (weights, GTK_TYPE_TOGGLE_BUTTON);
  guint int8 = vc_test_choice_position (weights, "8-bit integer (int8)");
  GtkWidget *popover, *list, *focus;
  gint64 deadline;

  g_assert_null (find_descendant (weights, GTK_TYPE_POPOVER));
  g_assert_cmpstr (selected_label (weights), ==, "16-bit bfloat (bf16)");
  deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  /* as its label's mnemonic does: the button, pressed, opens the list a moment later */
  gtk_widget_mnemonic_activate (weights, FALSE);
  while ((popover = find_descendant (weights, GTK_TYPE_POPOVER)) == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_nonnull (popover);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  list = find_descendant (popover, GTK_TYPE_LIST_VIEW);
  g_assert_true (gtk_widget_get_visible (popover));
  g_assert_true (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  /* the focus is on the chosen item's row, inside the list */
  focus = gtk_root_get_focus (GTK_ROOT (f->window));
  g_assert_nonnull (focus);
  g_assert_true (gtk_widget_is_ancestor (focus, list));
  g_assert_nonnull (find_descendant (focus, GTK_TYPE_LABEL));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (find_descendant (focus, GTK_TYPE_LABEL))), ==, "16-bit bfloat (bf16)");
  /* and it carries the check mark, which the others keep room for */
  g_assert_cmpfloat (gtk_widget_get_opacity (find_descendant (focus, GTK_TYPE_IMAGE)), ==, 1);
  g_assert_cmpfloat (gtk_widget_get_opacity (find_descendant (gtk_widget_get_first_child (list), GTK_TYPE_IMAGE)), ==, 0);
  g_assert_true (gtk_selection_model_is_selected (gtk_list_view_get_model (GTK_LIST_VIEW (list)),
                                                  vc_test_choice_position (weights, "16-bit bfloat (bf16)")));

  /* an item activated (click, Enter) is chosen, and the list closes */
  g_signal_emit_by_name (list, "activate", int8);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (popover));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->precision, ==, VC_PRECISION_INT8);
  g_assert_cmpstr (selected_label (weights), ==, "8-bit integer (int8)");

  /* opened again, the same list; closing it (Escape) changes nothing */
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (toggle), TRUE);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (find_descendant (weights, GTK_TYPE_POPOVER) == popover);
  g_assert_true (gtk_selection_model_is_selected (gtk_list_view_get_model (GTK_LIST_VIEW (list)), int8));
  gtk_popover_popdown (GTK_POPOVER (popover));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (toggle)));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->precision, ==, VC_PRECISION_INT8);
}

/* The window's own shortcut for a key, as GTK runs it on a key press. */
static void
press_shortcut (GtkWidget  *widget,
                const char *accel)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
          g_autofree char *trigger = gtk_shortcut_trigger_to_string (gtk_shortcut_get_trigger (shortcut));

          if (g_str_equal (trigger, accel))
            {
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                                           gtk_shortcut_get_arguments (shortcut)));
              return;
            }
        }
    }
  g_error ("no shortcut %s on %s", accel, G_OBJECT_TYPE_NAME (widget));
}

static GtkWidget *
find_help_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);
      if (g_str_equal (G_OBJECT_TYPE_NAME (w), "VcHelpWindow") && gtk_widget_get_visible (w))
        return w;
    }
  return NULL;
}

static gboolean
menu_has_action (GMenuModel *menu,
                 const char *action)
{
  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autofree char *name = NULL;
      GMenuModel *link;

      if (g_menu_model_get_item_attribute (menu, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) &&
          g_str_equal (name, action))
        return TRUE;
      if ((link = g_menu_model_get_item_link (menu, i, G_MENU_LINK_SECTION)) != NULL)
        {
          gboolean found = menu_has_action (link, action);
          g_object_unref (link);
          if (found)
            return TRUE;
        }
    }
  return FALSE;
}

static gboolean
has_label_starting (GtkWidget  *widget,
                    const char *start)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if ((GTK_IS_LABEL (child) && g_str_has_prefix (gtk_label_get_label (GTK_LABEL (child)), start)) ||
        has_label_starting (child, start))
      return TRUE;
  return FALSE;
}

/* Item 15: F1 and the main menu open the offline help; Ctrl+W closes the window. */
static void
test_help_and_close (Fixture       *f,
                     gconstpointer  data)
{
  GtkMenuButton *menu = GTK_MENU_BUTTON (vc_test_child (f->window, VC_TYPE_WINDOW, "menu_button"));
  GtkWidget *help;

  g_assert_true (menu_has_action (gtk_menu_button_get_menu_model (menu), "win.help"));
  g_assert_null (find_help_window ());
  press_shortcut (GTK_WIDGET (f->window), "F1");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  help = find_help_window ();
  g_assert_nonnull (help);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (help)) == GTK_WINDOW (f->window));
  /* what each method does, the components, the GPU counts, the sources */
  g_assert_true (has_label_starting (help, "By parameter count needs only the parameter count"));
  g_assert_true (has_label_starting (help, "Architecture counts every tensor"));
  g_assert_true (has_label_starting (help, "KV cache (inference): per token and layer"));
  g_assert_true (has_label_starting (help, "vLLM and SGLang take a share of each card"));
  g_assert_true (has_label_starting (help, "Weights, KV cache, activations, gradients and optimizer state are split"));
  g_assert_true (has_label_starting (help, "By parameter count follows the classic calculator"));
  /* the menu's item and F1 again show the same window; Escape closes it */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.help", NULL));
  g_assert_true (find_help_window () == help);
  press_shortcut (help, "Escape");
  vc_test_spin_until_idle ();
  g_assert_null (find_help_window ());

  /* Ctrl+W closes the main window */
  g_object_add_weak_pointer (G_OBJECT (f->window), (gpointer *) &f->window);
  press_shortcut (GTK_WIDGET (f->window), "<Control>w");
  vc_test_spin_until_idle ();
  g_assert_null (f->window);
  f->window = vc_window_new (NULL);
  f->estimate = vc_window_get_estimate (f->window);
}

/* Room around the window in a screenshot, for its shadow: a window of about 1152 × 612 makes
 * a 1280 × 720 picture (16:9). */
#define SHOT_SIDE 64
#define SHOT_TOP 40
#define SHOT_BOTTOM 68
#define SHOT_RADIUS 12

/* With VC_SCREENSHOT_DIR set, saves the window to that folder as it looks on a GNOME desktop:
 * GNOME's default button layout (close only), rounded corners and a drop shadow. Xvfb has no
 * compositing manager, so GTK draws neither the corners nor the shadow there: the window is
 * drawn by GTK, then clipped to its rounded outline over the shadow that GNOME's theme gives a
 * window (its box-shadow layers, from the outline). */
static void
save_screenshot (Fixture    *f,
                 const char *name,
                 gboolean    wide)
{
  static const struct { float dy, blur, spread, alpha; } shadows[] = {
    { 2, 8, 2, 0.13f }, { 3, 20, 10, 0.09f }, { 6, 32, 16, 0.03f },
  };
  const char *dir = g_getenv ("VC_SCREENSHOT_DIR");
  GtkWidget *root = GTK_WIDGET (f->window);
  GskRenderer *renderer;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GtkSnapshot) snapshot = NULL;
  g_autoptr(GskRenderNode) window_node = NULL;
  g_autoptr(GskRenderNode) picture = NULL;
  g_autoptr(GdkTexture) window_texture = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = NULL;
  g_autofree char *layout = NULL;
  GskRenderNode *nodes[G_N_ELEMENTS (shadows) + 1];
  GskRoundedRect outline;
  int width, height, canvas_width, canvas_height, x, y;

  if (dir == NULL)
    return;
  g_object_get (gtk_settings_get_default (), "gtk-decoration-layout", &layout, NULL);
  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", "appmenu:close", NULL);
  vc_test_wait_for_frame (root);
  vc_test_wait_for_frame (root);
  width = gtk_widget_get_width (root);
  height = gtk_widget_get_height (root);
  renderer = gtk_native_get_renderer (GTK_NATIVE (root));
  paintable = gtk_widget_paintable_new (root);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
  window_node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
  window_texture = gsk_renderer_render_texture (renderer, window_node, &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* wide: 16:9, the window centred across and the room split as SHOT_TOP to SHOT_BOTTOM */
  canvas_width = width + 2 * SHOT_SIDE;
  canvas_height = height + SHOT_TOP + SHOT_BOTTOM;
  if (wide)
    {
      canvas_width = (canvas_width + 15) / 16 * 16;
      canvas_height = MAX (canvas_width * 9 / 16, canvas_height);
      canvas_width = MAX (canvas_width, (canvas_height + 8) / 9 * 16);
      canvas_height = canvas_width * 9 / 16;
    }
  x = (canvas_width - width) / 2;
  y = (canvas_height - height) * SHOT_TOP / (SHOT_TOP + SHOT_BOTTOM);
  gsk_rounded_rect_init_from_rect (&outline, &GRAPHENE_RECT_INIT (x, y, width, height), SHOT_RADIUS);
  for (guint i = 0; i < G_N_ELEMENTS (shadows); i++)
    nodes[i] = gsk_outset_shadow_node_new (&outline, &(GdkRGBA) { 0, 0, 0.02f, shadows[i].alpha }, 0,
                                           shadows[i].dy, shadows[i].spread, shadows[i].blur);
  {
    g_autoptr(GskRenderNode) content = gsk_texture_node_new (window_texture, &outline.bounds);

    nodes[G_N_ELEMENTS (shadows)] = gsk_rounded_clip_node_new (content, &outline);
  }
  picture = gsk_container_node_new (nodes, G_N_ELEMENTS (nodes));
  for (guint i = 0; i < G_N_ELEMENTS (nodes); i++)
    gsk_render_node_unref (nodes[i]);
  texture = gsk_renderer_render_texture (renderer, picture,
                                         &GRAPHENE_RECT_INIT (0, 0, canvas_width, canvas_height));
  path = g_build_filename (dir, name, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_object_set (gtk_settings_get_default (), "gtk-decoration-layout", layout, NULL);
}

static int
min_width (GtkWidget *widget)
{
  int min = 0;

  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  return min;
}

/* Whether a widget lies inside the window, as drawn. */
static void
assert_inside_window (Fixture    *f,
                      GtkWidget  *widget,
                      const char *what)
{
  graphene_rect_t bounds;

  g_assert_true (gtk_widget_get_mapped (widget));
  g_assert_true (gtk_widget_compute_bounds (widget, GTK_WIDGET (f->window), &bounds));
  if (bounds.origin.x < 0 || bounds.origin.x + bounds.size.width > gtk_widget_get_width (GTK_WIDGET (f->window)) + 0.5)
    g_error ("%s spans x = %g to %g, outside the window's %d pixels", what, bounds.origin.x,
             bounds.origin.x + bounds.size.width, gtk_widget_get_width (GTK_WIDGET (f->window)));
}

static void
resize (Fixture *f,
        int      width,
        int      height)
{
  gtk_window_set_default_size (GTK_WINDOW (f->window), width, height);
  for (guint i = 0; i < 4; i++)
    vc_test_wait_for_frame (GTK_WIDGET (f->window));
}

/* Item 11: complete at 800 × 600; narrower, down to 600 pixels and less, the inputs and the
 * results stack and scroll; content never widens the window. */
static void
test_small_screens (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *split = vc_test_child (f->window, VC_TYPE_WINDOW, "split");
  GtkWidget *menu = vc_test_child (f->window, VC_TYPE_WINDOW, "menu_button");
  GtkWidget *total = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "total");
  int min;

  min = min_width (GTK_WIDGET (f->window));
  g_test_message ("minimum width %d px; inputs %d, results %d", min,
                  min_width (vc_test_window_page (f->window, VC_MODE_INFERENCE)),
                  min_width (GTK_WIDGET (f->results)));
  g_assert_cmpint (min, <=, 600);

  /* wide: side by side */
  resize (f, 1280, 900);
  g_assert_cmpint (vc_split_view_get_orientation (VC_SPLIT_VIEW (split)), ==, GTK_ORIENTATION_HORIZONTAL);

  /* 800 × 600: everything inside the window, the menu and the total included */
  resize (f, 800, 600);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, 800);
  assert_inside_window (f, menu, "the main menu button");
  assert_inside_window (f, total, "the total");
  assert_inside_window (f, vc_test_window_input (f->window, VC_MODE_INFERENCE, "preset"), "the preset");

  /* 600 pixels: stacked, still inside */
  resize (f, 600, 600);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, 600);
  g_assert_cmpint (vc_split_view_get_orientation (VC_SPLIT_VIEW (split)), ==, GTK_ORIENTATION_VERTICAL);
  assert_inside_window (f, menu, "the main menu button");
  assert_inside_window (f, total, "the total");
  assert_inside_window (f, vc_test_window_input (f->window, VC_MODE_INFERENCE, "preset"), "the preset");
  save_screenshot (f, "narrow.png", FALSE);

  /* and back: side by side again */
  resize (f, 1280, 900);
  g_assert_cmpint (vc_split_view_get_orientation (VC_SPLIT_VIEW (split)), ==, GTK_ORIENTATION_HORIZONTAL);
}

/* Item 6: one truth for a card in the window and vramcalc: sold in GiB, shown in the user's
 * unit as the memory a program can use on it. */
static void
test_gpu_sizes (Fixture       *f,
                gconstpointer  data)
{
  VcGpuChart *chart = VC_GPU_CHART (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "gpu_chart"));
  g_autofree char *rtx = NULL, *h100 = NULL, *gib = NULL;
  g_autofree char *out = NULL;
  const char *vramcalc = g_getenv ("VRAMCALC");

  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  /* RTX 4090: 24 GiB sold, 24,564 MiB usable (nvidia-smi) = 25.8 GB; H100 80 GB: 81,559 MiB */
  rtx = vc_gpu_chart_describe (chart, vc_test_gpu_index (f->estimate, "rtx-4090"));
  h100 = vc_gpu_chart_describe (chart, vc_test_gpu_index (f->estimate, "h100-80gb"));
  g_assert_nonnull (strstr (rtx, "of 25.8\u00a0GB usable"));
  g_assert_nonnull (strstr (h100, "of 85.5\u00a0GB usable"));
  g_assert_true (has_label_starting (GTK_WIDGET (f->results), "Each card's smallest valid layout"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (chart)));

  /* vramcalc says the same */
  if (vramcalc != NULL)
    {
      g_autofree char *cmd = g_strdup_printf ("%s --params 7B", vramcalc);
      g_assert_true (g_spawn_command_line_sync (cmd, &out, NULL, NULL, NULL));
      g_assert_nonnull (strstr (out, "RTX 4090 (25.8\u00a0GB usable)"));
      g_assert_nonnull (strstr (out, "H100 80 GB (85.5\u00a0GB usable)"));
      g_assert_nonnull (strstr (out, "Cards are sold in GiB"));
    }

  /* in GiB, the card's own 24 GiB (less what the driver keeps) */
  vc_profile_set_unit (vc_window_get_profile (f->window), VC_UNIT_GIB);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  gib = vc_gpu_chart_describe (chart, vc_test_gpu_index (f->estimate, "rtx-4090"));
  g_assert_nonnull (strstr (gib, "of 24.0\u00a0GiB usable"));
}

/* Item 7: three significant digits; huge figures in a compact form that never widens the
 * window. */
static void
test_figures_digits (Fixture       *f,
                     gconstpointer  data)
{
  GtkLabel *total = GTK_LABEL (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "total"));
  VcGpuChart *chart = VC_GPU_CHART (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "gpu_chart"));
  g_autofree char *h200 = NULL, *huge = NULL;
  int width;

  /* DeepSeek-R1 in 16 bits: 1,341,890,… bytes = 1.34 TB, not "1.4 TB" */
  g_assert_true (vc_estimate_set_preset (f->estimate, "deepseek-r1", NULL));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (gtk_label_get_label (total), ==, "1.34\u00a0TB");
  /* the H200 row: what each GPU of its smallest layout holds, 139,529,410,048 bytes */
  h200 = vc_gpu_chart_describe (chart, vc_test_gpu_index (f->estimate, "h200"));
  g_assert_nonnull (g_str_has_prefix (h200, "140\u00a0GB of 151\u00a0GB usable · 11 GPUs · PP 11") ? h200 : NULL);

  /* batch 10⁶, sequence 10⁸, 10⁶ requests: short figures, and the window keeps its width */
  resize (f, 1100, 800);
  width = gtk_widget_get_width (GTK_WIDGET (f->window));
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, "batch", 1000000, "seq", 100000000,
                "concurrency", 1000000, NULL);
  for (guint i = 0; i < 4; i++)
    vc_test_wait_for_frame (GTK_WIDGET (f->window));
  /* 361 yottabytes, not "3.61 × 10¹¹ PB" */
  g_assert_cmpstr (gtk_label_get_label (total), ==, "361\u00a0YB");
  huge = vc_gpu_chart_describe (chart, 0);
  g_assert_cmpstr (huge, ==, "361\u00a0YB of 8.59\u00a0GB usable · does not fit");
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), ==, width);
  g_assert_cmpint (min_width (GTK_WIDGET (f->window)), <=, 600);
}

/* Item 9: a warning past the model's maximum context, from its preset or its config.json. */
static void
test_context_warning (Fixture       *f,
                      gconstpointer  data)
{
  GtkWidget *warning = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "context_warning");
  GtkWidget *seq = vc_test_window_input (f->window, VC_MODE_INFERENCE, "seq");
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                              "Llama-3.1-8B", "config.json", NULL);
  g_autoptr(VcHfConfig) imported = NULL;
  g_autoptr(GError) error = NULL;
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);

  /* Llama 3 8B takes 8,192 tokens (its config.json) */
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  g_assert_cmpuint (in->arch.max_context, ==, 8192);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (seq), 8192);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (warning));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (seq), 131072);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (warning));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (warning)), "maximum context of 8192 tokens"));
  /* a warning, not an error next to figures */
  g_assert_true (gtk_widget_has_css_class (warning, "warning"));
  assert_no_error_shown (GTK_WIDGET (f->window));

  /* 10⁸ tokens too */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (seq), 100000000);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (warning));

  /* an import records it, rope scaling included: Llama 3.1 8B, 8192 × 8 = 131,072 */
  imported = vc_hf_config_new_for_path (config, &error);
  g_assert_no_error (error);
  vc_hf_config_apply (imported, f->estimate);
  g_assert_cmpuint (in->arch.max_context, ==, 131072);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (seq), 131072);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (warning));

  /* unknown (a custom model): no claim either way */
  g_object_set (f->estimate, "max-context", 0, "seq", 100000000, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (warning));
}

/* Item 8: no stale or puzzling value: rows that do not apply are hidden, not greyed with a
 * meaningless value; the header follows the model; no bare 0-byte gradients. */
/* Context parallelism from its spin button, packing from its switch, torchtitan's selective
 * checkpointing (per operator, every N layers) from the checkpointing drop-down; CP needs the
 * architecture method. */
static void
check_training_rules_controls (Fixture *f)
{
  GtkWidget *cp = vc_test_window_input (f->window, VC_MODE_TRAINING, "cp");
  GtkWidget *packing = vc_test_window_input (f->window, VC_MODE_TRAINING, "packing");
  GtkWidget *checkpointing = vc_test_window_input (f->window, VC_MODE_TRAINING, "checkpointing");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);

  g_object_set (f->estimate, "optimizer", VC_OPTIMIZER_ADAMW, "finetune", VC_FINETUNE_FULL,
                "trainer", VC_TRAINER_TORCHTITAN, NULL);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (cp), 2);
  g_assert_cmpuint (in->layout.cp, ==, 2);
  gtk_switch_set_active (GTK_SWITCH (packing), TRUE);
  g_assert_true (in->packing);
  vc_drop_down_set_selected (VC_DROP_DOWN (checkpointing),
                             vc_test_choice_position (checkpointing, "Selective, per operator"));
  g_assert_cmpint (in->checkpointing, ==, VC_CHECKPOINTING_SELECTIVE);
  /* every N-th layer: its count shown with it alone */
  {
    GtkWidget *every = vc_test_window_input (f->window, VC_MODE_TRAINING, "checkpoint-every");

    g_assert_false (gtk_widget_get_visible (every));
    vc_drop_down_set_selected (VC_DROP_DOWN (checkpointing),
                               vc_test_choice_position (checkpointing, "Selective, every N layers"));
    g_assert_cmpint (in->checkpointing, ==, VC_CHECKPOINTING_SELECTIVE_LAYERS);
    g_assert_true (gtk_widget_get_visible (every));
    gtk_spin_button_set_value (GTK_SPIN_BUTTON (every), 4);
    g_assert_cmpuint (in->checkpoint_every, ==, 4);
    g_object_set (f->estimate, "checkpointing", VC_CHECKPOINTING_SELECTIVE, NULL);
    g_assert_false (gtk_widget_get_visible (every));
  }
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (vc_estimate_check (f->estimate, NULL));
  g_assert_cmpuint (vc_estimate_get_layout_result (f->estimate)->n_gpus, ==, 2);
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, "cp", 1, "checkpointing", VC_CHECKPOINTING_NONE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_sensitive (cp));
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (cp)), ==, 1);
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "packing", FALSE, "trainer", VC_TRAINER_GENERIC, NULL);
  g_assert_false (gtk_switch_get_active (GTK_SWITCH (packing)));
}

static void
test_no_puzzling_values (Fixture       *f,
                         gconstpointer  data)
{
  GtkWidget *optimizer = vc_test_window_input (f->window, VC_MODE_TRAINING, "optimizer");
  GtkWidget *state = vc_test_window_input (f->window, VC_MODE_TRAINING, "optimizer-precision");
  GtkWidget *active = vc_test_window_input (f->window, VC_MODE_INFERENCE, "active-parameters");
  GtkWidget *parameters = vc_test_window_input (f->window, VC_MODE_INFERENCE, "parameters");
  GtkWidget *flash = vc_test_window_input (f->window, VC_MODE_INFERENCE, "flash-attention");
  GtkWidget *gpu_layers = vc_test_window_input (f->window, VC_MODE_INFERENCE, "gpu-layers");
  GtkWidget *training_flash = vc_test_window_input (f->window, VC_MODE_TRAINING, "flash-attention");
  GtkLabel *title = GTK_LABEL (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "title"));
  GtkLabel *summary = GTK_LABEL (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "summary"));
  GtkColumnView *view = GTK_COLUMN_VIEW (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "breakdown_view"));

  /* a dense model has no activated count; the rule of thumb no attention to fuse */
  g_assert_false (gtk_widget_get_visible (active));
  g_assert_false (gtk_widget_get_visible (flash));
  g_assert_false (gtk_widget_get_visible (training_flash));
  g_object_set (f->estimate, "model-type", VC_MODEL_TYPE_MOE, NULL);
  g_assert_true (gtk_widget_get_visible (active));
  g_object_set (f->estimate, "model-type", VC_MODEL_TYPE_DENSE, NULL);

  /* editing a preset's parameter count makes a custom model: the header says so */
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (strstr (gtk_label_get_label (title), "Llama 3 8B"));
  gtk_editable_set_text (GTK_EDITABLE (parameters), "9B");
  g_signal_emit_by_name (parameters, "activate");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_null (strstr (gtk_label_get_label (title), "Llama 3 8B"));
  g_assert_true (g_str_has_prefix (gtk_label_get_label (title), "Custom model"));

  /* DeepSeek-R1 by its architecture: the published 37B are not shown beside the counted 37.55B */
  g_assert_true (vc_estimate_set_preset (f->estimate, "deepseek-r1", NULL));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (parameters));
  g_assert_false (gtk_widget_get_visible (active));
  g_assert_true (gtk_widget_get_visible (flash));
  /* vLLM picks its attention kernel itself: no switch for it; nor llama.cpp's offload, refused
   * under vLLM, but where it is given, so that it can be taken back */
  g_object_set (f->estimate, "engine", VC_ENGINE_VLLM, NULL);
  g_assert_false (gtk_widget_get_visible (flash));
  g_assert_false (gtk_widget_get_visible (gpu_layers));
  g_object_set (f->estimate, "gpu-layers", 10, NULL);
  g_assert_true (gtk_widget_get_visible (gpu_layers));
  g_assert_false (vc_estimate_check (f->estimate, NULL));
  g_object_set (f->estimate, "gpu-layers", 0, "engine", VC_ENGINE_GENERIC, NULL);
  g_assert_true (gtk_widget_get_visible (flash));
  g_assert_true (gtk_widget_get_visible (gpu_layers));
  g_assert_true (has_label_starting (vc_test_window_page (f->window, VC_MODE_INFERENCE),
                                     "Counted from the architecture: 671.03B parameters, 37.55B activated"));

  /* training at the start-of-backward peak: no "Gradients 0 bytes" row, the summary says why */
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  g_object_set (f->estimate, "finetune", VC_FINETUNE_LORA, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpint (vc_estimate_get_selected (f->estimate)->peak_phase, ==, VC_PHASE_FORWARD);
  g_assert_null (vc_test_find_label (GTK_WIDGET (view), "Gradients"));
  g_assert_nonnull (strstr (gtk_label_get_label (summary), "before any gradient is allocated"));
  g_assert_true (gtk_widget_get_visible (training_flash));

  /* AdamW 8-bit keeps 8-bit state: no fp32 / bf16 choice is shown for it */
  g_assert_true (gtk_widget_get_visible (state));
  vc_drop_down_set_selected (VC_DROP_DOWN (optimizer), vc_test_choice_position (optimizer, "AdamW 8-bit"));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->optimizer, ==, VC_OPTIMIZER_ADAMW_8BIT);
  g_assert_false (gtk_widget_get_visible (state));
  /* paged AdamW 8-bit too; the optimizer step in the backward pass from its switch, which the
   * rule of thumb (no tensors to know the largest gradient) leaves insensitive */
  vc_drop_down_set_selected (VC_DROP_DOWN (optimizer), vc_test_choice_position (optimizer, "Paged AdamW 8-bit"));
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->optimizer, ==, VC_OPTIMIZER_PAGED_ADAMW_8BIT);
  g_assert_false (gtk_widget_get_visible (state));
  {
    GtkWidget *in_backward = vc_test_window_input (f->window, VC_MODE_TRAINING, "optimizer-in-backward");

    g_assert_true (gtk_widget_get_sensitive (in_backward));
    gtk_switch_set_active (GTK_SWITCH (in_backward), TRUE);
    g_assert_true (vc_estimate_get_inputs (f->estimate)->optimizer_in_backward);
    g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
    vc_test_wait_for_frame (GTK_WIDGET (f->window));
    g_assert_false (gtk_widget_get_sensitive (in_backward));
    g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "optimizer-in-backward", FALSE, NULL);
    g_assert_false (gtk_switch_get_active (GTK_SWITCH (in_backward)));
  }
  check_training_rules_controls (f);
}

/* The README's screenshots: Llama 3 8B with 8192-token sequences and 4 concurrent requests on
 * the Inference tab, LoRA on the Training tab, and the window at 800 × 600. Saved with
 * VC_SCREENSHOT_DIR set; the scene is checked either way. */
static void
test_screenshots (Fixture       *f,
                  gconstpointer  data)
{
  GtkLabel *total = GTK_LABEL (vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "total"));

  resize (f, 1280 - 2 * SHOT_SIDE, 720 - SHOT_TOP - SHOT_BOTTOM);
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "concurrency", 4, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  /* 16.1 GB of weights, 4.29 GB of KV cache (131,072 bytes a token × 32,768 tokens), … */
  g_assert_cmpstr (gtk_label_get_label (total), ==, "22.2\u00a0GB");
  save_screenshot (f, "inference.png", TRUE);

  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  g_object_set (f->estimate, "finetune", VC_FINETUNE_LORA, "seq", 2048, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  save_screenshot (f, "training.png", TRUE);

  vc_window_set_mode (f->window, VC_MODE_INFERENCE);
  g_object_set (f->estimate, "seq", 8192, NULL);
  resize (f, 800, 600);
  save_screenshot (f, "small-screen.png", FALSE);
}

/* Item 2: no reachable state shows an error next to figures: inputs that do not go together
 * (a custom architecture with 32 heads over 5 KV heads) show the message instead of figures. */
static void
test_no_error_beside_figures (Fixture       *f,
                              gconstpointer  data)
{
  GtkWidget *problem = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "problem");
  GtkWidget *total = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "total");
  GtkWidget *scenarios = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "scenarios");
  GtkWidget *chart = vc_test_child (f->results, VC_TYPE_RESULTS_VIEW, "gpu_chart");

  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_is_drawable (total));
  g_assert_true (gtk_widget_get_visible (chart));
  g_assert_false (gtk_widget_get_visible (problem));

  g_object_set (f->estimate, "heads", 32, "kv-heads", 5, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_is_drawable (problem));
  g_assert_nonnull (strstr (gtk_label_get_label (GTK_LABEL (problem)), "kv-heads"));
  g_assert_false (gtk_widget_is_drawable (total));
  g_assert_false (gtk_widget_is_drawable (scenarios));
  g_assert_false (gtk_widget_is_drawable (chart));

  g_object_set (f->estimate, "kv-heads", 8, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (problem));
  g_assert_true (gtk_widget_is_drawable (total));
  g_assert_true (gtk_widget_get_visible (chart));
  assert_no_error_shown (GTK_WIDGET (f->window));
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

  /* the application's style sheet, as VcApplication loads it: headings and the total as users
   * see them in the screenshots */
  {
    g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

    gtk_css_provider_load_from_resource (css, "/io/github/vramcalc/VramCalculator/style.css");
    gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  }

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/window-states/focus-changes-nothing", test_focus_changes_nothing);
  ADD ("/window-states/two-precisions", test_two_precisions);
  ADD ("/window-states/modes-independent", test_modes_independent);
  ADD ("/window-states/preset-selects-architecture", test_preset_selects_architecture);
  ADD ("/window-states/tab-is-view-state", test_tab_is_view_state);
  ADD ("/window-states/preset-search", test_preset_search);
  ADD ("/window-states/drop-down-list", test_drop_down_list);
  ADD ("/window-states/help-and-close", test_help_and_close);
  ADD ("/window-states/small-screens", test_small_screens);
  ADD ("/window-states/gpu-sizes", test_gpu_sizes);
  ADD ("/window-states/figures-digits", test_figures_digits);
  ADD ("/window-states/context-warning", test_context_warning);
  ADD ("/window-states/no-puzzling-values", test_no_puzzling_values);
  ADD ("/window-states/no-error-beside-figures", test_no_error_beside_figures);
  ADD ("/window-states/screenshots", test_screenshots);
  return g_test_run ();
}
