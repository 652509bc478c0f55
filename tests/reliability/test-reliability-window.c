/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-reliability-window.c: the window's side of the defects that once crashed it or changed
 * the model behind the user's back: an empty or deep config.json through Import, drop and
 * opening a file; leaving a field without typing; "128k" in a spin button; a GPU count beyond
 * 2^64 in the chart. Runs with G_DEBUG=fatal-warnings under Xvfb. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-catalog.h"
#include "vc-enums.h"
#include "vc-gpu-chart-private.h"
#include "vc-input-bind.h"
#include "vc-window.h"

static char *tmp_dir;

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  GFile *next_file;
} Fixture;

static GFile *
choose (VcWindow   *window,
        VcFileMode  mode,
        gpointer    data)
{
  Fixture *f = data;
  return g_steal_pointer (&f->next_file);
}

static VcWindowAnswer
ask (VcWindow *window,
     gpointer  data)
{
  return VC_WINDOW_ANSWER_DISCARD;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);

  g_settings_reset (settings, "last-inputs");
  g_settings_reset (settings, "tab");
  f->window = vc_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 1000);
  f->estimate = vc_window_get_estimate (f->window);
  vc_window_set_dialog_hooks (f->window, choose, ask, f);
  gtk_window_present (GTK_WINDOW (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->next_file);
  gtk_window_destroy (GTK_WINDOW (f->window));
  vc_test_spin_until_idle ();
}

static void
wait_until_idle (Fixture *f)
{
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  while (vc_window_is_busy (f->window) && g_get_monotonic_time () < deadline)
    vc_test_iterate ();
  g_assert_false (vc_window_is_busy (f->window));
  vc_test_spin_until_idle ();
}

static GFile *
tmp_file (const char *name,
          const char *text,
          gssize      length)
{
  g_autofree char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  if (text != NULL)
    {
      g_file_set_contents (path, text, length, &error);
      g_assert_no_error (error);
    }
  return g_file_new_for_path (path);
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

/* Every way a file comes into the window: Import, the folder import, a drop, opening it (as
 * from the command line). The window shows an error and the inputs stay as they were. */
static void
assert_refused_everywhere (Fixture    *f,
                           GFile      *file,
                           GFile      *folder)
{
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  GtkDropTarget *target = find_drop_target (GTK_WIDGET (f->window));
  const char *actions[] = { "win.import-config", "win.import-folder" };

  g_assert_nonnull (target);
  g_object_set (f->estimate, "batch", 5, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (actions); i++)
    {
      f->next_file = g_object_ref (i == 0 ? file : folder);
      g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), actions[i], NULL));
      wait_until_idle (f);
      g_assert_nonnull (vc_window_get_error (f->window));
      g_test_message ("%s: %s", actions[i], vc_window_get_error (f->window));
      g_assert_cmpuint (in->batch, ==, 5);
    }
  {
    g_auto(GValue) value = G_VALUE_INIT;
    gboolean accepted = FALSE;

    g_value_init (&value, GDK_TYPE_FILE_LIST);
    g_value_take_boxed (&value, gdk_file_list_new_from_array ((GFile *[]) { folder }, 1));
    g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
    wait_until_idle (f);
    g_assert_nonnull (vc_window_get_error (f->window));
    g_assert_cmpuint (in->batch, ==, 5);
  }
  vc_window_open_file (f->window, file);
  wait_until_idle (f);
  g_assert_nonnull (vc_window_get_error (f->window));
  g_assert_cmpuint (in->batch, ==, 5);
}

/* 1. An empty config.json crashed the window and lost its inputs. */
static void
test_empty_config (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "empty-model", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GFile) file = NULL;

  g_mkdir (dir, 0755);
  file = tmp_file ("empty-model/config.json", "", 0);
  assert_refused_everywhere (f, file, folder);
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "empty"));
}

/* 2, 3. A deep config.json, or a profile hiding its depth behind a comment, overflowed the
 * stack. */
static void
test_deep_files (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *dir = g_build_filename (tmp_dir, "deep-model", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) profile = NULL;
  g_autoptr(GString) text = g_string_new ("/* \" */");

  for (guint i = 0; i < 80000; i++)
    g_string_append_c (text, '[');
  g_mkdir (dir, 0755);
  file = tmp_file ("deep-model/config.json", text->str, text->len);
  assert_refused_everywhere (f, file, folder);
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "too deeply"));

  profile = tmp_file ("deep-profile.json", text->str, text->len);
  f->next_file = g_object_ref (profile);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open", NULL));
  wait_until_idle (f);
  g_assert_nonnull (strstr (vc_window_get_error (f->window), "too deeply"));
}

/* 7. Tabbing through "Total parameters" re-read "7.24B" as 7,240,000,000: the preset became
 * Custom and the profile modified. A field the user did not edit never changes the model. */
static void
test_tab_through_parameters (Fixture       *f,
                             gconstpointer  data)
{
  GtkWidget *parameters = vc_test_window_input (f->window, VC_MODE_INFERENCE, "parameters");
  GtkWidget *batch = vc_test_window_input (f->window, VC_MODE_INFERENCE, "batch");
  VcProfile *profile = vc_window_get_profile (f->window);
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_estimate_set_preset (f->estimate, "mistral-7b", &error));
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  vc_profile_mark_saved (profile);
  vc_test_spin_until_idle ();
  g_assert_cmpfloat (in->parameters, ==, 7241732096.0);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (parameters)), ==, "7.24B");

  g_assert_true (gtk_widget_grab_focus (parameters));
  vc_test_spin_until_idle ();
  g_assert_true (gtk_widget_grab_focus (batch));
  vc_test_spin_until_idle ();
  g_signal_emit_by_name (parameters, "activate");
  vc_test_spin_until_idle ();

  g_assert_cmpfloat (in->parameters, ==, 7241732096.0);
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "mistral-7b");
  g_assert_false (vc_profile_get_modified (profile));

  /* typing still works */
  gtk_editable_set_text (GTK_EDITABLE (parameters), "13B");
  g_signal_emit_by_name (parameters, "activate");
  g_assert_cmpfloat (in->parameters, ==, 13e9);
  g_assert_true (vc_profile_get_modified (profile));
}

/* 7. "128k" typed as a sequence length became 128; a rounded spin re-read its display. */
static void
test_spin_text (Fixture       *f,
                gconstpointer  data)
{
  GtkWidget *seq = vc_test_window_input (f->window, VC_MODE_INFERENCE, "seq");
  VcProfile *profile = vc_window_get_profile (f->window);
  const VcInputs *in = vc_estimate_get_inputs (f->estimate);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *spin = gtk_spin_button_new (NULL, 1, 0);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  double percent;

  g_assert_true (GTK_IS_SPIN_BUTTON (seq));
  gtk_editable_set_text (GTK_EDITABLE (seq), "128k");
  gtk_spin_button_update (GTK_SPIN_BUTTON (seq));
  g_assert_cmpuint (in->seq, ==, 128000);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (seq)), ==, "128000");
  gtk_editable_set_text (GTK_EDITABLE (seq), "4K");
  gtk_spin_button_update (GTK_SPIN_BUTTON (seq));
  g_assert_cmpuint (in->seq, ==, 4000);
  /* what is not a count is refused: the value stays */
  gtk_editable_set_text (GTK_EDITABLE (seq), "12 tokens");
  gtk_spin_button_update (GTK_SPIN_BUTTON (seq));
  g_assert_cmpuint (in->seq, ==, 4000);

  /* a value finer than the spin shows: leaving it untouched keeps it */
  gtk_window_set_child (GTK_WINDOW (window), spin);
  g_object_set (e, "lora-percent", 0.12345, NULL);
  vc_bind_spin (GTK_SPIN_BUTTON (spin), e, "lora-percent", 0.1, 3);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, "0.123");
  gtk_spin_button_update (GTK_SPIN_BUTTON (spin));
  g_object_get (e, "lora-percent", &percent, NULL);
  g_assert_cmpfloat (percent, ==, 0.12345);
  gtk_window_destroy (GTK_WINDOW (window));
  (void) profile;
}

/* 10. A GPU count beyond 2^64 was converted to unsigned long for the plural form (undefined
 * behaviour; the sanitizer run sees it). */
static void
test_chart_huge_count (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GObject) chart = g_object_ref_sink (g_object_new (VC_TYPE_GPU_CHART, NULL));
  g_autofree char *text = NULL;
  guint n_catalog;
  const VcGpuFit *fit;

  vc_gpus_get_all (&n_catalog);
  g_object_set (f->estimate, "parameters", 1e15, "batch", 1000000, "concurrency", 1000000,
                "seq", 100000000, "overhead-gb", 0.0, NULL);
  g_assert_true (vc_estimate_set_custom_gpus (f->estimate, "tiny=0.1", &error));
  g_assert_no_error (error);
  vc_chart_set_estimate (VC_CHART (chart), f->estimate);
  /* an even split would take over 2^64 such cards; no layout the GPU table searches (up to
   * 65,536 GPUs) holds it, and the row says so */
  fit = vc_estimate_get_gpu_fit (f->estimate, n_catalog);
  g_assert_cmpfloat (fit->count, ==, 0);
  text = vc_gpu_chart_describe (VC_GPU_CHART (chart), n_catalog);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "does not fit"));
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_home = NULL;
  int status;

  tmp_dir = g_dir_make_tmp ("vc-test-reliability-XXXXXX", NULL);
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
  ADD ("/reliability-window/empty-config", test_empty_config);
  ADD ("/reliability-window/deep-files", test_deep_files);
  ADD ("/reliability-window/tab-through-parameters", test_tab_through_parameters);
  ADD ("/reliability-window/spin-text", test_spin_text);
  ADD ("/reliability-window/chart-huge-count", test_chart_huge_count);
  status = g_test_run ();
  {
    const char *names[] = { "empty-model/config.json", "empty-model", "deep-model/config.json", "deep-model",
                            "deep-profile.json", "data/recently-used.xbel", "data", NULL };

    for (guint i = 0; names[i] != NULL; i++)
      {
        g_autofree char *path = g_build_filename (tmp_dir, names[i], NULL);
        g_remove (path);
      }
    g_rmdir (tmp_dir);
  }
  return status;
}
