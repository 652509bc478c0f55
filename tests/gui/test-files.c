/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's files through its real actions: profiles saved, reopened (by Open, the recent
 * menu and a drop), the unsaved-changes mark and question, CSV export, config.json import (a
 * file, a folder, an unknown family), failures shown in the window with the inputs untouched,
 * and GPUs of one's own in the chart. The file dialogs and the question are replaced by hooks
 * that answer as a user would; everything after them is the window's own code. Runs with
 * G_DEBUG=fatal-warnings. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-drop-down.h"
#include "vc-catalog.h"
#include "vc-csv.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-gpu-chart-private.h"
#include "vc-gpu-editor.h"
#include "vc-hf-config.h"
#include "vc-model-file.h"
#include "vc-model-section.h"
#include "vc-model-section-private.h"
#include "vc-profile.h"
#include "vc-results-view-private.h"
#include "vc-units.h"
#include "vc-window.h"

static char *tmp_dir;

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  VcProfile *profile;
  GFile *next_file;            /* what the next file dialog returns */
  guint n_chosen;
  VcWindowAnswer answer;       /* what the unsaved-changes question gets */
  guint n_asked;
} Fixture;

static GFile *
choose (VcWindow   *window,
        VcFileMode  mode,
        gpointer    data)
{
  Fixture *f = data;

  f->n_chosen++;
  return g_steal_pointer (&f->next_file);
}

static VcWindowAnswer
ask (VcWindow *window,
     gpointer  data)
{
  Fixture *f = data;

  f->n_asked++;
  return f->answer;
}

static void
open_window (Fixture *f)
{
  f->window = vc_test_new_window (1100, 1000, &f->estimate);
  f->profile = vc_window_get_profile (f->window);
  vc_window_set_dialog_hooks (f->window, choose, ask, f);
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  vc_test_reset_stored_state ();
  open_window (f);
  vc_test_present (f->window);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_assert_null (f->next_file);
  vc_test_destroy_window (f->window);
  g_assert_null (f->estimate);
}

static GFile *
tmp_file (const char *name)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  return g_file_new_for_path (path);
}

static void
activate (Fixture    *f,
          const char *action,
          GFile      *file)
{
  g_clear_object (&f->next_file);
  f->next_file = file;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), action, NULL));
  g_assert_null (f->next_file);
  vc_test_wait_while_busy (f->window);
}

static const char *
title (Fixture *f)
{
  return gtk_window_get_title (GTK_WINDOW (f->window));
}

static gboolean
recent_menu_has (Fixture    *f,
                 const char *uri)
{
  GMenuModel *menu = G_MENU_MODEL (gtk_widget_get_template_child (GTK_WIDGET (f->window), VC_TYPE_WINDOW, "recent_menu"));

  for (int i = 0; i < g_menu_model_get_n_items (menu); i++)
    {
      g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (menu, i, G_MENU_ATTRIBUTE_TARGET,
                                                                         G_VARIANT_TYPE_STRING);
      if (target != NULL && g_str_equal (g_variant_get_string (target, NULL), uri))
        return TRUE;
    }
  return FALSE;
}

/* New with unsaved changes answered Save, then the recent menu's item of that profile */
static void
new_then_recent (Fixture    *f,
                 const char *uri)
{
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);

  /* New with unsaved changes and Save: saved first, then a fresh untitled profile */
  g_object_set (f->estimate, "batch", 3, NULL);
  f->answer = VC_WINDOW_ANSWER_SAVE;
  activate (f, "win.new", NULL);
  g_assert_cmpuint (f->n_asked, ==, 3);
  g_assert_cmpuint (in->batch, ==, 1);
  g_assert_cmpint (vc_profile_get_unit (f->profile), ==, VC_UNIT_GB);
  g_assert_cmpstr (title (f), ==, "Untitled profile — VRAM Calculator");
  g_assert_null (vc_profile_get_file (f->profile));

  /* the recent menu's item reopens it, with the batch saved by the question */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open-recent", "s", uri));
  vc_test_wait_while_busy (f->window);
  g_assert_cmpuint (f->n_asked, ==, 3);
  g_assert_cmpuint (in->batch, ==, 3);
  g_assert_cmpuint (in->seq, ==, 8192);
  g_assert_cmpstr (title (f), ==, "Cluster plan — VRAM Calculator");
}

static void
test_save_and_reopen (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GFile) file = tmp_file ("plan.json");
  g_autofree char *uri = g_file_get_uri (file);
  GtkWidget *batch = vc_test_window_input (f->window, VC_MODE_INFERENCE, "batch");
  GtkWidget *compile = vc_test_window_input (f->window, VC_MODE_TRAINING, "compile");
  GtkWidget *embeddings = vc_test_window_input (f->window, VC_MODE_TRAINING, "train-embeddings");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autofree char *contents = NULL;
  gint64 deadline;

  g_assert_cmpstr (title (f), ==, "Untitled profile — VRAM Calculator");
  g_assert_false (vc_profile_get_modified (f->profile));

  /* inputs through the widgets, the new training switches included */
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (batch), 6);
  gtk_switch_set_active (GTK_SWITCH (compile), TRUE);
  g_assert_true (in->compile);
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "finetune", VC_FINETUNE_LORA, NULL);
  g_assert_true (gtk_widget_get_sensitive (embeddings));
  gtk_switch_set_active (GTK_SWITCH (embeddings), TRUE);
  g_assert_true (in->train_embeddings);
  vc_profile_set_name (f->profile, "Cluster plan");
  vc_profile_set_notes (f->profile, "two nodes");
  /* the unit, from the menu, is the profile's */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.unit", "s", "gib"));
  g_assert_cmpint (vc_profile_get_unit (f->profile), ==, VC_UNIT_GIB);
  g_assert_true (vc_profile_get_modified (f->profile));
  g_assert_cmpstr (title (f), ==, "• Cluster plan — VRAM Calculator");

  /* Save on an untitled profile asks where, then saves */
  activate (f, "win.save", g_object_ref (file));
  g_assert_cmpuint (f->n_chosen, ==, 1);
  g_assert_null (vc_window_get_error (f->window));
  g_assert_true (g_file_query_exists (file, NULL));
  g_assert_false (vc_profile_get_modified (f->profile));
  g_assert_cmpstr (title (f), ==, "Cluster plan — VRAM Calculator");
  deadline = g_get_monotonic_time () + 3 * G_USEC_PER_SEC;
  while (!recent_menu_has (f, uri) && g_get_monotonic_time () < deadline)
    vc_test_iterate ();
  g_assert_true (recent_menu_has (f, uri));

  /* changes: the mark comes back */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (batch), 2);
  g_assert_true (vc_estimate_set_preset (f->estimate, "mistral-7b", NULL));
  gtk_switch_set_active (GTK_SWITCH (compile), FALSE);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.unit", "s", "gb"));
  g_assert_cmpstr (title (f), ==, "• Cluster plan — VRAM Calculator");

  /* Open with unsaved changes: Cancel keeps everything */
  f->answer = VC_WINDOW_ANSWER_CANCEL;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open", NULL));
  g_assert_cmpuint (f->n_asked, ==, 1);
  g_assert_cmpuint (f->n_chosen, ==, 1);
  g_assert_cmpuint (in->batch, ==, 2);

  /* Discard, then the file: the saved state is back, unmodified */
  f->answer = VC_WINDOW_ANSWER_DISCARD;
  activate (f, "win.open", g_object_ref (file));
  g_assert_cmpuint (f->n_asked, ==, 2);
  g_assert_null (vc_window_get_error (f->window));
  g_assert_cmpuint (in->batch, ==, 6);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (batch)), ==, 6);
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "llama-3-8b");
  g_assert_true (in->compile);
  g_assert_true (gtk_switch_get_active (GTK_SWITCH (compile)));
  g_assert_true (in->train_embeddings);
  g_assert_cmpstr (vc_profile_get_notes (f->profile), ==, "two nodes");
  g_assert_cmpint (vc_profile_get_unit (f->profile), ==, VC_UNIT_GIB);
  {
    g_autoptr(GVariant) state = g_action_group_get_action_state (G_ACTION_GROUP (f->window), "unit");
    g_assert_cmpstr (g_variant_get_string (state, NULL), ==, "gib");
  }
  g_assert_false (vc_profile_get_modified (f->profile));
  g_assert_cmpstr (title (f), ==, "Cluster plan — VRAM Calculator");

  /* Save on a profile with a file writes there without asking */
  g_object_set (f->estimate, "seq", 8192, NULL);
  g_assert_true (vc_profile_get_modified (f->profile));
  activate (f, "win.save", NULL);
  g_assert_cmpuint (f->n_chosen, ==, 2);
  g_assert_false (vc_profile_get_modified (f->profile));
  g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"seq\" : 8192"));
  g_assert_nonnull (strstr (contents, "\"unit\" : \"gib\""));

  new_then_recent (f, uri);
}

static void
test_failures_leave_state (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GFile) newer = tmp_file ("newer.json");
  g_autoptr(GFile) garbage = tmp_file ("garbage.json");
  g_autoptr(GFile) nowhere = tmp_file ("no-such-folder/plan.json");
  const char *newer_text = "{ \"format\": \"vram-calculator-profile\", \"version\": 99, \"inputs\": {} }";
  const char *bad_batch = "{ \"format\": \"vram-calculator-profile\", \"version\": 1, \"inputs\": { \"batch\": \"lots\" } }";
  g_autoptr(GFile) wrong = tmp_file ("wrong-type.json");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  const char *error;

  g_assert_true (g_file_replace_contents (newer, newer_text, strlen (newer_text), NULL, FALSE, 0, NULL, NULL, NULL));
  g_assert_true (g_file_replace_contents (garbage, "\x01\x02garbage{", 10, NULL, FALSE, 0, NULL, NULL, NULL));
  g_assert_true (g_file_replace_contents (wrong, bad_batch, strlen (bad_batch), NULL, FALSE, 0, NULL, NULL, NULL));

  g_object_set (f->estimate, "batch", 5, NULL);
  f->answer = VC_WINDOW_ANSWER_DISCARD;
  activate (f, "win.open", g_object_ref (wrong));
  error = vc_window_get_error (f->window);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "wrong-type.json"));
  g_assert_nonnull (strstr (error, "batch"));
  g_assert_cmpuint (in->batch, ==, 5);
  g_assert_true (vc_profile_get_modified (f->profile));
  g_assert_cmpstr (title (f), ==, "• Untitled profile — VRAM Calculator");

  activate (f, "win.open", g_object_ref (newer));
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "newer.json"));
  activate (f, "win.open", g_object_ref (garbage));
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "garbage.json"));
  g_assert_cmpuint (in->batch, ==, 5);
  g_assert_null (vc_profile_get_file (f->profile));

  /* a save that cannot happen says so and keeps the profile as it was */
  activate (f, "win.save-as", g_object_ref (nowhere));
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "Could not save"));
  g_assert_null (vc_profile_get_file (f->profile));
  g_assert_true (vc_profile_get_modified (f->profile));

  /* a cancelled dialog does nothing */
  activate (f, "win.save-as", NULL);
  g_assert_null (vc_profile_get_file (f->profile));
}

static void
test_export_csv (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GFile) file = tmp_file ("plan.csv");
  g_autoptr(GFile) nowhere = tmp_file ("no-such-folder/plan.csv");
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *weights_row = NULL;
  g_auto(GStrv) lines = NULL;
  const VcScenarioResult *sc;

  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  g_object_set (f->estimate, "batch", 2, NULL);
  activate (f, "win.export", g_object_ref (file));
  g_assert_null (vc_window_get_error (f->window));
  g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, NULL));

  /* the same bytes as vramcalc's --format csv, which uses the same function */
  expected = vc_csv_export (f->estimate, VC_UNIT_GB, NULL);
  g_assert_cmpstr (contents, ==, expected);
  lines = g_strsplit (contents, "\r\n", -1);
  g_assert_cmpstr (lines[0], ==, "Section,Scenario,Item,Name,Bytes,Value,Unit");
  sc = vc_estimate_get_selected (f->estimate);
  weights_row = g_strdup_printf ("result,inference-16bit,weights,Weights,%.0f,", sc->bytes[VC_COMPONENT_WEIGHTS]);
  g_assert_true (g_str_has_prefix (lines[1], weights_row));
  g_assert_true (g_str_has_suffix (lines[1], ",GB"));
  /* per scenario and card: the memory a program can use on it (RTX 4090: 24,564 MiB), how
   * many it takes and whether one holds it; Llama 3 8B at 16 bits (17.5 GB) fits one, not a
   * T4 (15,360 MiB) */
  g_assert_true (g_strv_contains ((const char * const *) lines,
                                  "gpu,inference-16bit,rtx-4090,RTX 4090,25757220864,1,fits"));
  g_assert_true (g_strv_contains ((const char * const *) lines,
                                  "gpu,inference-16bit,t4,T4,16106127360,2,several"));
  g_assert_true (g_strv_contains ((const char * const *) lines,
                                  "gpu,inference-4bit,t4,T4,16106127360,1,fits"));
  /* exporting does not count as saving */
  g_assert_true (vc_profile_get_modified (f->profile));

  activate (f, "win.export", g_object_ref (nowhere));
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "Could not export"));
}

/* Profiles of a typed-in architecture through the window's Open: one of format version 3 with
 * rope-table-kind 5 reopens as typed, its table the maximum context's rows × the head (4,096 ×
 * 128 in bf16 under vLLM) and the model note naming it; one of version 3 with kind 0 keeps no
 * table and no note; one of version 2 of an edited Granite 4.0-H Tiny (a preset without
 * rotary positions, its kind 0 then meaning "no table" as much as "typed in") reopens with the
 * assumed table, and the note says how to say it has none (--rope-table-kind 0). The note was
 * once cleared after the profile's inputs had raised it, so a typed-in profile reopened
 * without it */
static void
test_open_typed_in (Fixture       *f,
                    gconstpointer  data)
{
  VcModelSection *section = VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_INFERENCE));
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  static const struct { const char *file; guint version, kind; } cases[] = {
    { "typed-in-3.json", 3, VC_ROPE_TABLE_NOT_GIVEN },
    { "typed-in-3-none.json", 3, VC_ROPE_TABLE_PLAIN },
    { "granite-2.json", 2, VC_ROPE_TABLE_NOT_GIVEN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcEstimate) source = vc_estimate_new ();
      g_autoptr(GFile) file = tmp_file (cases[i].file);
      g_autofree char *text = NULL;
      g_autofree char *written = NULL;
      const char *note;

      if (i < 2)
        g_object_set (source, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "layers", 30,
                      "max-context", 4096, "rope-table-kind", cases[i].kind, NULL);
      else
        {
          g_assert_true (vc_estimate_set_preset (source, "granite-4.0-h-tiny", NULL));
          g_object_set (source, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "max-context", 4096, NULL);
          g_assert_cmpstr (vc_estimate_get_preset (source), ==, "");
          g_assert_cmpuint (vc_estimate_get_inputs (source)->arch.rope_table_kind, ==, VC_ROPE_TABLE_PLAIN);
          g_assert_cmpuint (vc_estimate_get_inputs (source)->arch.rope_table_rows, ==, 0);
        }
      text = vc_profile_serialize (source, "Typed in", "", VC_UNIT_GB, NULL);
      g_assert_nonnull (strstr (text, "\"version\" : 3,"));
      /* what format version 2 wrote: the same keys, kind 0 its only way to say "no table" */
      {
        g_auto(GStrv) parts = g_strsplit (text, "\"version\" : 3,", 2);

        written = cases[i].version == 3 ? g_strdup (text) : g_strjoinv ("\"version\" : 2,", parts);
      }
      g_assert_true (g_file_set_contents (g_file_peek_path (file), written, -1, NULL));

      activate (f, "win.open", g_object_ref (file));
      g_assert_null (vc_window_get_error (f->window));
      vc_test_wait_for_frame (GTK_WIDGET (f->window));
      g_assert_cmpstr (title (f), ==, "Typed in — VRAM Calculator");
      g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "");
      g_assert_cmpint (in->engine, ==, VC_ENGINE_VLLM);
      g_assert_cmpuint (in->arch.max_context, ==, 4096);
      g_assert_cmpuint (in->arch.rope_table_kind, ==, cases[i].kind);
      note = vc_model_section_get_note (section);
      g_test_message ("%s: %s", cases[i].file, note ? note : "(no note)");
      if (cases[i].kind == VC_ROPE_TABLE_PLAIN)
        {
          g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->rope_table, ==, 0);
          g_assert_true (note == NULL || strstr (note, "RoPE") == NULL);
        }
      else
        {
          g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->rope_table, ==, 4096 * 128 * 2.0);
          g_assert_nonnull (note);
          g_assert_nonnull (strstr (note, "one plain table of 4096 positions × 128 rotary dimensions"));
          g_assert_nonnull (strstr (note, "or --rope-table-kind 0 if it has no rotary positions"));
        }
      if (i < 2)
        g_assert_cmpuint (in->arch.n_layers, ==, 30);
      g_assert_false (vc_profile_get_modified (f->profile));
    }
}

static GFile *
fixture_file (const char *model)
{
  g_autofree char *path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", model,
                                            "config.json", NULL);
  return g_file_new_for_path (path);
}

static void
test_import_config (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GFile) mistral = fixture_file ("Mistral-7B-v0.1");
  g_autoptr(GFile) qwen_moe = fixture_file ("Qwen3-30B-A3B");
  g_autoptr(GFile) qwen_dir = g_file_get_parent (qwen_moe);
  g_autoptr(VcHfConfig) expected = vc_hf_config_new_for_file (mistral, NULL, NULL);
  g_autoptr(GFile) bad = tmp_file ("bad-config.json");
  const char *bad_text = "{ \"model_type\": \"llama\", \"hidden_size\": -4096, \"num_hidden_layers\": 2,"
                         "  \"num_attention_heads\": 2, \"vocab_size\": 10, \"intermediate_size\": 10 }";
  VcModelSection *section = VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_INFERENCE));
  GtkWidget *name = vc_test_window_input (f->window, VC_MODE_INFERENCE, "model-name");
  GtkWidget *preset = vc_test_window_input (f->window, VC_MODE_INFERENCE, "preset");
  GtkWidget *method = vc_test_window_input (f->window, VC_MODE_INFERENCE, "method");
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  double parameters, active;

  g_assert_nonnull (expected);
  activate (f, "win.import-config", g_object_ref (mistral));
  vc_test_wait_while_busy (f->window);
  g_assert_null (vc_window_get_error (f->window));
  g_object_get (f->estimate, "model-parameters", &parameters, NULL);
  /* mistralai/Mistral-7B-v0.1: 7,241,732,096 parameters (its safetensors index) */
  g_assert_cmpfloat (parameters, ==, 7241732096.0);
  g_assert_cmpint (in->method, ==, VC_METHOD_ARCHITECTURE);
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "");
  g_assert_cmpstr (gtk_string_object_get_string (vc_drop_down_get_selected_item (VC_DROP_DOWN (preset))), ==, "Custom");
  g_assert_cmpstr (gtk_string_object_get_string (vc_drop_down_get_selected_item (VC_DROP_DOWN (method))), ==, "Architecture");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (name)), ==, vc_hf_config_get_name (expected));
  g_assert_cmpstr (vc_model_section_get_note (section), ==, vc_hf_config_get_description (expected));
  /* one note for the window: the Training tab, made now, shows it too */
  g_assert_cmpstr (vc_model_section_get_note (VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_TRAINING))),
                   ==, vc_hf_config_get_description (expected));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (vc_test_find_label (GTK_WIDGET (section), "Counted from the architecture: 7.24B parameters"));

  /* a folder holding a config.json, an MoE: both counts */
  activate (f, "win.import-folder", g_object_ref (qwen_dir));
  vc_test_wait_while_busy (f->window);
  g_object_get (f->estimate, "model-parameters", &parameters, "model-active-parameters", &active, NULL);
  /* Qwen/Qwen3-30B-A3B: 30,532,122,624 total, 3.3B activated (model card) */
  g_assert_cmpfloat (parameters, ==, 30532122624.0);
  g_assert_cmpfloat (active, <, 3.4e9);
  g_assert_cmpfloat (active, >, 3.2e9);

  /* a bad config: the message names the field, nothing changes */
  g_assert_true (g_file_replace_contents (bad, bad_text, strlen (bad_text), NULL, FALSE, 0, NULL, NULL, NULL));
  activate (f, "win.import-config", g_object_ref (bad));
  vc_test_wait_while_busy (f->window);
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "hidden_size"));
  g_object_get (f->estimate, "model-parameters", &parameters, NULL);
  g_assert_cmpfloat (parameters, ==, 30532122624.0);

  /* choosing a preset ends the note about the imported model */
  g_assert_nonnull (vc_model_section_get_note (section));
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  g_assert_null (vc_model_section_get_note (section));
  g_assert_null (vc_model_section_get_note (VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_TRAINING))));
  g_assert_false (gtk_widget_get_sensitive (name));
}

static void remove_tree (GFile *file);

/* Gemma 3 4B's GGUF imported, then its projector file chosen with the llama.cpp engine's
 * "Multimodal projector" button (make-fixtures.py: 840,434,112 bytes): the weights grow by
 * exactly those bytes, the button names the file, the model note trades the "not in this GGUF"
 * warning for the projector's compute buffer one; a model file is refused above the inputs with
 * nothing changed; the switch keeps the projector off the GPU; the clear button takes it away. */
static void
test_mmproj (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("vc-gui-mmproj-XXXXXX", NULL);
  g_autofree char *script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "model-files", "make-fixtures.py", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *gguf_path = g_build_filename (dir, "gemma3", "gemma-3-4b-it-BF16.gguf", NULL);
  g_autofree char *mmproj_path = g_build_filename (dir, "gemma3", "mmproj-gemma-3-4b-it-F16.gguf", NULL);
  g_autofree char *model_path = g_build_filename (dir, "mmproj", "a-model.gguf", NULL);
  g_autoptr(GFile) root = g_file_new_for_path (dir);
  VcModelSection *section = VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_INFERENCE));
  GtkWidget *choose = vc_test_window_input (f->window, VC_MODE_INFERENCE, "mmproj_choose");
  GtkWidget *clear = vc_test_window_input (f->window, VC_MODE_INFERENCE, "mmproj_clear");
  GtkWidget *offload = vc_test_window_input (f->window, VC_MODE_INFERENCE, "mmproj_offload");
  GtkWidget *label = vc_test_window_input (f->window, VC_MODE_INFERENCE, "mmproj_label");
  const char *args[] = { python, script, dir, NULL };
  int status = 0;
  double text_weights;

  g_assert_nonnull (python);
  g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  activate (f, "win.import-config", g_file_new_for_path (gguf_path));
  g_assert_null (vc_window_get_error (f->window));
  g_object_set (f->estimate, "engine", VC_ENGINE_LLAMA_CPP, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (choose));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, "None");
  g_assert_nonnull (strstr (vc_model_section_get_note (section), "is not in this GGUF"));
  text_weights = vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS];

  /* the button asks for the file (the dialog's answer is the test's) */
  f->next_file = g_file_new_for_path (mmproj_path);
  g_signal_emit_by_name (choose, "clicked");
  g_assert_null (f->next_file);
  g_assert_null (vc_window_get_error (f->window));
  /* its weights and clip.cpp's compute buffer (flash attention: 127,139,840 bytes), nothing left out */
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, text_weights + 840434112 + 127139840);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, "mmproj-gemma-3-4b-it-F16.gguf");
  g_assert_null (vc_model_section_get_note (section));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (offload));

  /* a model is not a projector: said, nothing changes */
  activate (f, "win.choose-mmproj", g_file_new_for_path (model_path));
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "is not a multimodal projector"));
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, text_weights + 840434112 + 127139840);

  /* in system RAM: the text model's weights on the GPU, and nothing left out to say (a GGUF has
   * no description) */
  gtk_switch_set_active (GTK_SWITCH (offload), FALSE);
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, text_weights);
  g_assert_null (vc_model_section_get_note (section));
  gtk_switch_set_active (GTK_SWITCH (offload), TRUE);

  /* taken away: the text model and its warning again */
  g_assert_true (gtk_widget_get_sensitive (clear));
  g_signal_emit_by_name (clear, "clicked");
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, text_weights);
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (label)), ==, "None");
  g_assert_nonnull (strstr (vc_model_section_get_note (section), "is not in this GGUF"));
  remove_tree (root);
}

static void
remove_tree (GFile *file)
{
  g_autoptr(GFileEnumerator) e = g_file_enumerate_children (file, G_FILE_ATTRIBUTE_STANDARD_NAME,
                                                            G_FILE_QUERY_INFO_NOFOLLOW_SYMLINKS, NULL, NULL);
  GFileInfo *info;

  while (e && (info = g_file_enumerator_next_file (e, NULL, NULL)) != NULL)
    {
      g_autoptr(GFile) child = g_file_get_child (file, g_file_info_get_name (info));

      remove_tree (child);
      g_object_unref (info);
    }
  g_file_delete (file, NULL, NULL);
}

static GtkDropTarget *find_drop_target (GtkWidget *widget);
static void drop (Fixture *f, GFile *file);

/* A .gguf file chosen in Import, a safetensors folder dropped, a bad GGUF refused: the model
 * section shows what the files held. The files are those tests/model-files/make-fixtures.py
 * writes (its tiny Llama: 1,692,928 parameters, 1,107,152 bytes in Q4_K_M, 3,385,856 in BF16,
 * 21 tensors, a context of 4,096). */
static void
test_import_model (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("vc-gui-models-XXXXXX", NULL);
  g_autofree char *script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "model-files", "make-fixtures.py", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *gguf_path = g_build_filename (dir, "gguf", "tiny-llama-Q4_K_M.gguf", NULL);
  g_autofree char *st_path = g_build_filename (dir, "safetensors", "sharded", NULL);
  g_autofree char *bad_path = g_build_filename (dir, "gguf", "bad", "overlap.gguf", NULL);
  g_autoptr(GFile) root = g_file_new_for_path (dir);
  g_autoptr(GFile) gguf = g_file_new_for_path (gguf_path);
  g_autoptr(GFile) st = g_file_new_for_path (st_path);
  g_autoptr(GFile) bad = g_file_new_for_path (bad_path);
  VcModelSection *section = VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_INFERENCE));
  const char *args[] = { python, script, dir, NULL };
  int status = 0;

  g_assert_nonnull (python);
  g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  activate (f, "win.import-config", g_object_ref (gguf));
  vc_test_wait_while_busy (f->window);
  g_assert_null (vc_window_get_error (f->window));
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, 1107152);
  g_assert_cmpstr (vc_estimate_get_model_name (f->estimate), ==, "tiny-llama");
  g_assert_nonnull (strstr (vc_model_section_get_source_text (section), "Read from: GGUF, stored as Q4_K_M"));
  g_assert_nonnull (strstr (vc_model_section_get_source_text (section), "21 tensors"));
  g_assert_nonnull (strstr (vc_model_section_get_source_text (section), "Maximum context: 4096 tokens"));
  /* the unit and the files are the window's: both tabs show the same, in the unit chosen */
  {
    VcModelSection *training = VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_TRAINING));

    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.unit", "s", "gib"));
    g_assert_nonnull (strstr (vc_model_section_get_source_text (section), "iB on disk"));
    g_assert_cmpstr (vc_model_section_get_source_text (training), ==, vc_model_section_get_source_text (section));
    g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.unit", "s", "gb"));
    g_assert_null (strstr (vc_model_section_get_source_text (section), "iB on disk"));
    g_assert_cmpstr (vc_model_section_get_source_text (training), ==, vc_model_section_get_source_text (section));
  }
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (vc_test_find_label (GTK_WIDGET (section), "In the model's files: 1.7M parameters"));

  /* a bad file: said, and nothing changes */
  drop (f, bad);
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "overlaps"));
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, 1107152);

  /* a safetensors folder dropped: its bf16 bytes */
  drop (f, st);
  g_assert_null (vc_window_get_error (f->window));
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, 3385856);
  g_assert_nonnull (strstr (vc_model_section_get_source_text (section), "Read from: safetensors, stored as BF16"));

  /* the user chooses another precision: the architecture's count at it */
  g_object_set (f->estimate, "precision", VC_PRECISION_FP32, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, 4.0 * 1692928);

  /* a preset: the files are no longer the model */
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  g_assert_null (vc_model_section_get_source_text (section));
  remove_tree (root);
}

static GtkDropTarget *
find_drop_target (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, i);
      if (GTK_IS_DROP_TARGET (c))
        return GTK_DROP_TARGET (c);
    }
  return NULL;
}

static void
drop (Fixture *f,
      GFile   *file)
{
  GtkDropTarget *target = find_drop_target (GTK_WIDGET (f->window));
  g_auto(GValue) value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  g_assert_nonnull (target);
  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_array ((GFile *[]) { file }, 1));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_assert_true (accepted);
  vc_test_wait_while_busy (f->window);
}

static void
test_drop (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(GFile) profile = tmp_file ("dropped.json");
  g_autoptr(GFile) unknown_dir = tmp_file ("my-model");
  g_autoptr(GFile) unknown = g_file_get_child (unknown_dir, "config.json");
  g_autoptr(GFile) gemma3 = fixture_file ("gemma-3-4b-it");
  const char *unknown_text =
    "{ \"model_type\": \"my_llama\", \"hidden_size\": 2048, \"intermediate_size\": 5632,"
    "  \"num_hidden_layers\": 22, \"num_attention_heads\": 32, \"num_key_value_heads\": 4,"
    "  \"vocab_size\": 32000 }";
  VcModelSection *section = VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_TRAINING));
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autofree char *saved = NULL;
  g_autofree char *before = NULL;
  GtkWidget *approximate;

  /* a profile file (any name) opens */
  g_object_set (f->estimate, "batch", 7, "mode", VC_MODE_TRAINING, NULL);
  saved = vc_profile_serialize (f->estimate, "Dropped", "", VC_UNIT_GB, NULL);
  g_assert_true (g_file_replace_contents (profile, saved, strlen (saved), NULL, FALSE, 0, NULL, NULL, NULL));
  vc_profile_reset (f->profile);
  g_assert_cmpint (in->mode, ==, VC_MODE_INFERENCE);
  drop (f, profile);
  g_assert_cmpuint (in->batch, ==, 7);
  g_assert_cmpstr (title (f), ==, "Dropped — VRAM Calculator");
  /* the tab follows the mode the profile holds */
  g_assert_cmpint (in->mode, ==, VC_MODE_TRAINING);
  g_assert_true (gtk_widget_get_mapped (vc_test_window_page (f->window, VC_MODE_TRAINING)));

  /* a folder with a config.json of an unknown family: refused, naming what is not understood,
   * and the model stays as it was */
  g_assert_cmpint (g_mkdir_with_parents (g_file_peek_path (unknown_dir), 0700), ==, 0);
  g_assert_true (g_file_replace_contents (unknown, unknown_text, strlen (unknown_text), NULL, FALSE, 0, NULL, NULL, NULL));
  before = g_strdup (vc_estimate_get_model_name (f->estimate));
  drop (f, unknown_dir);
  g_assert_nonnull (vc_window_get_error (f->window));
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "model_type “my_llama”"));
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "Import approximately"));
  g_assert_cmpstr (vc_estimate_get_model_name (f->estimate), ==, before);

  /* with "Import approximately" checked in one tab (both follow), it is estimated the Llama
   * way, and the note names what was not understood */
  approximate = GTK_WIDGET (gtk_widget_get_template_child (vc_window_get_model_section (f->window, VC_MODE_INFERENCE),
                                                           VC_TYPE_MODEL_SECTION, "approximate_check"));
  gtk_widget_activate (approximate);
  g_assert_true (vc_model_section_get_approximate (section));
  g_assert_true (vc_model_section_get_approximate (VC_MODEL_SECTION (vc_window_get_model_section (f->window, VC_MODE_TRAINING))));
  drop (f, unknown_dir);
  g_assert_null (vc_window_get_error (f->window));
  g_assert_nonnull (strstr (vc_model_section_get_note (section), "Llama way"));
  g_assert_nonnull (strstr (vc_model_section_get_note (section), "model_type “my_llama”"));
  g_assert_cmpstr (vc_estimate_get_model_name (f->estimate), ==, "my-model");
  g_assert_cmpstr (vc_estimate_get_model_not_understood (f->estimate)[0], ==, "model_type “my_llama”");
  gtk_widget_activate (approximate);
  g_assert_false (vc_model_section_get_approximate (section));

  /* a multimodal config.json: its vision tower counted with the text model, and said so */
  drop (f, gemma3);
  g_assert_nonnull (strstr (vc_model_section_get_note (section), "vision encoder and projector are counted"));
  g_assert_null (strstr (vc_model_section_get_note (section), "only its text model"));
  g_assert_cmpuint (vc_estimate_get_inputs (f->estimate)->arch.encoder_params, ==, 419816304);
}

static void
test_custom_gpus (Fixture       *f,
                  gconstpointer  data)
{
  VcResultsView *results = VC_RESULTS_VIEW (vc_test_window_results (f->window));
  VcGpuEditor *editor = _vc_results_view_ensure_gpu_editor (VC_RESULTS_VIEW (results));
  VcGpuChart *chart = VC_GPU_CHART (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "gpu_chart"));
  g_autoptr(GError) error = NULL;
  g_autofree char *custom = NULL;
  graphene_rect_t bar;
  GdkRGBA color;
  guint n_catalog;
  int height_before, height_after;

  vc_gpus_get_all (&n_catalog);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  height_before = gtk_widget_get_height (GTK_WIDGET (chart));

  /* through the editor's own widgets, as typed */
  gtk_editable_set_text (GTK_EDITABLE (vc_test_child (editor, VC_TYPE_GPU_EDITOR, "name_entry")), "Lab card");
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (vc_test_child (editor, VC_TYPE_GPU_EDITOR, "size_spin")), 48);
  g_signal_emit_by_name (gtk_widget_get_last_child (gtk_widget_get_first_child (GTK_WIDGET (editor))), "clicked");
  g_object_get (f->estimate, "custom-gpus", &custom, NULL);
  g_assert_cmpstr (custom, ==, "Lab card=48GB");
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n_catalog + 1);
  g_assert_cmpstr (vc_estimate_get_gpu (f->estimate, n_catalog)->name, ==, "Lab card");
  g_assert_true (vc_profile_get_modified (f->profile));

  /* the chart draws it after the catalog: a bar, a row more, its figures */
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (vc_gpu_chart_get_bar (chart, n_catalog, &bar, &color));
  g_assert_cmpfloat (bar.size.width, >, 4);
  height_after = gtk_widget_get_height (GTK_WIDGET (chart));
  g_assert_cmpint (height_after, >, height_before);
  {
    g_autofree char *text = vc_gpu_chart_describe (chart, n_catalog);
    g_autofree char *size = vc_format_size (48e9, VC_UNIT_GB);
    g_autofree char *of_size = g_strdup_printf ("of %s", size);

    g_assert_nonnull (strstr (text, of_size));
    g_assert_nonnull (strstr (text, "1 GPU"));
  }

  /* refused names and sizes leave the list as it was, with a message */
  g_assert_false (vc_gpu_editor_add (editor, "a;b", 24, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (vc_gpu_editor_add (editor, "Tiny", 0.01, &error));
  g_assert_nonnull (strstr (error->message, "Tiny"));
  g_clear_error (&error);
  gtk_editable_set_text (GTK_EDITABLE (vc_test_child (editor, VC_TYPE_GPU_EDITOR, "name_entry")), "  ");
  g_signal_emit_by_name (gtk_widget_get_last_child (gtk_widget_get_first_child (GTK_WIDGET (editor))), "clicked");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (vc_test_child (editor, VC_TYPE_GPU_EDITOR, "error_label"))));
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n_catalog + 1);

  g_assert_true (vc_gpu_editor_add (editor, "Second", 96, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n_catalog + 2);
  g_assert_nonnull (gtk_list_box_get_row_at_index (GTK_LIST_BOX (vc_test_child (editor, VC_TYPE_GPU_EDITOR, "list")), 1));
  g_assert_true (vc_gpu_editor_remove (editor, 0, &error));
  g_assert_cmpstr (vc_estimate_get_gpu (f->estimate, n_catalog)->name, ==, "Second");
  g_assert_true (vc_gpu_editor_remove (editor, 0, &error));
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n_catalog);
  g_assert_null (gtk_list_box_get_row_at_index (GTK_LIST_BOX (vc_test_child (editor, VC_TYPE_GPU_EDITOR, "list")), 0));
}

static void
test_close_asks (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(GFile) file = tmp_file ("close.json");

  /* Save in the question on an untitled profile asks where first, then goes on */
  g_object_set (f->estimate, "batch", 9, NULL);
  f->answer = VC_WINDOW_ANSWER_SAVE;
  activate (f, "win.new", g_object_ref (file));
  g_assert_cmpuint (f->n_asked, ==, 1);
  g_assert_cmpuint (f->n_chosen, ==, 1);
  g_assert_cmpuint (vc_estimate_get_inputs (f->estimate)->batch, ==, 1);
  g_assert_null (vc_profile_get_file (f->profile));
  f->answer = VC_WINDOW_ANSWER_DISCARD;
  activate (f, "win.open", g_object_ref (file));
  g_assert_cmpuint (vc_estimate_get_inputs (f->estimate)->batch, ==, 9);
  f->n_asked = 0;

  /* a saved profile with changes asks before closing (an untitled one does not: its inputs
   * are kept for the next start) */
  g_object_set (f->estimate, "batch", 4, NULL);

  f->answer = VC_WINDOW_ANSWER_CANCEL;
  gtk_window_close (GTK_WINDOW (f->window));
  vc_test_spin_until_idle ();
  g_assert_cmpuint (f->n_asked, ==, 1);
  g_assert_nonnull (f->estimate);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (f->window)));

  /* Discard closes it: the window is destroyed and lets go of the estimate */
  f->answer = VC_WINDOW_ANSWER_DISCARD;
  gtk_window_close (GTK_WINDOW (f->window));
  g_assert_cmpuint (f->n_asked, ==, 2);
  vc_test_wait_gone ((gpointer *) &f->estimate, 2);

  /* for the teardown */
  open_window (f);
}

/* Saving runs in a thread: the profile actions wait for it, and closing the window waits until
 * the file is written, so nothing the user saved is lost. */
static void
test_close_while_saving (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(GFile) file = tmp_file ("while-saving.json");
  g_autofree char *contents = NULL;
  gint64 deadline;

  activate (f, "win.save-as", g_object_ref (file));
  g_assert_true (g_file_query_exists (file, NULL));
  g_object_set (f->estimate, "batch", 7, NULL);

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.save", NULL));
  g_assert_true (vc_window_is_busy (f->window));
  /* Open waits: its action is disabled and asks nothing */
  g_assert_cmpuint (f->n_chosen, ==, 1);
  gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open", NULL);
  g_assert_cmpuint (f->n_chosen, ==, 1);
  gtk_window_close (GTK_WINDOW (f->window));
  g_assert_nonnull (f->estimate);

  deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;
  while (f->estimate != NULL && g_get_monotonic_time () < deadline)
    vc_test_iterate ();
  g_assert_null (f->estimate);
  /* the question was not asked: the profile was saved when the window closed */
  g_assert_cmpuint (f->n_asked, ==, 0);
  g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, NULL));
  g_assert_nonnull (strstr (contents, "\"batch\" : 7"));

  /* for the teardown */
  open_window (f);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  /* the recent files list goes to a folder of our own, not the user's */
  tmp_dir = g_dir_make_tmp ("vc-test-files-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  data_home = g_build_filename (tmp_dir, "data", NULL);
  g_setenv ("XDG_DATA_HOME", data_home, TRUE);

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display: GUI tests need one (build-aux/test runs them under Xvfb)");
      return g_test_run ();
    }

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/files/save-and-reopen", test_save_and_reopen);
  ADD ("/files/failures-leave-state", test_failures_leave_state);
  ADD ("/files/export-csv", test_export_csv);
  ADD ("/files/import-config", test_import_config);
  ADD ("/files/drop", test_drop);
  ADD ("/files/import-model", test_import_model);
  ADD ("/files/mmproj", test_mmproj);
  ADD ("/files/custom-gpus", test_custom_gpus);
  ADD ("/files/close-asks", test_close_asks);
  ADD ("/files/close-while-saving", test_close_while_saving);
  ADD ("/files/open-typed-in", test_open_typed_in);
  status = g_test_run ();
  {
    const char *names[] = { "plan.json", "plan.csv", "newer.json", "garbage.json", "wrong-type.json",
                            "bad-config.json", "dropped.json", "close.json", "while-saving.json",
                            "typed-in-3.json", "typed-in-3-none.json", "granite-2.json", "my-model/config.json",
                            "my-model", "data/recently-used.xbel", "data", NULL };

    for (guint i = 0; names[i] != NULL; i++)
      {
        g_autofree char *path = g_build_filename (tmp_dir, names[i], NULL);
        g_remove (path);
      }
    g_rmdir (tmp_dir);
  }
  return status;
}
