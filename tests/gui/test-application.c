/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The application: its actions and accelerators, the shortcuts window loaded from the resources,
 * and Ctrl+Q's action closing the windows (so that they save their state). */
#include "config.h"

#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-application.h"
#include "vc-window.h"

static void
test_actions_and_accels (void)
{
  g_autoptr(VcApplication) app = vc_application_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);
  g_auto(GStrv) quit = NULL;
  g_auto(GStrv) help = NULL;
  VcWindow *window;

  /* a second instance of the suite must not find this one on the bus */
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);

  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "about"));
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app), "quit"));
  quit = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "app.quit");
  g_assert_cmpstr (quit[0], ==, "<Control>q");

  g_application_activate (G_APPLICATION (app));
  window = VC_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_true (VC_IS_WINDOW (window));
  vc_test_wait_for_frame (GTK_WIDGET (window));

  /* the shortcuts window (gtk/help-overlay.ui) is loaded after the first frame */
  vc_test_spin_until_idle ();
  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (window), "show-help-overlay"));
  help = gtk_application_get_accels_for_action (GTK_APPLICATION (app), "win.show-help-overlay");
  g_assert_nonnull (help[0]);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.show-training", NULL));
  g_assert_cmpint (vc_estimate_get_inputs (vc_window_get_estimate (window))->mode, ==, VC_MODE_TRAINING);

  /* quitting closes the window, which keeps its tab and inputs */
  g_object_set (vc_window_get_estimate (window), "batch", 3, NULL);
  g_action_group_activate_action (G_ACTION_GROUP (app), "quit", NULL);
  vc_test_spin_until_idle ();
  g_assert_null (gtk_application_get_windows (GTK_APPLICATION (app)));
  {
    g_autofree char *tab = g_settings_get_string (settings, "tab");
    g_assert_cmpstr (tab, ==, "training");
  }
  {
    g_autoptr(GVariant) inputs = g_settings_get_value (settings, "last-inputs");
    const char *batch = NULL;

    /* every input in its text form, as in profiles and on the command line */
    g_assert_true (g_variant_lookup (inputs, "batch", "&s", &batch));
    g_assert_cmpstr (batch, ==, "3");
  }
}

/* `vram-calculator FILE` goes through GApplication's open: a config.json is imported into the
 * window it presents. */
static void
test_open_file (void)
{
  g_autoptr(VcApplication) app = vc_application_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                            "Mistral-7B-v0.1", "config.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  VcWindow *window;
  double params = 0;

  /* an id of its own: the first test's application stays exported on this bus */
  g_application_set_application_id (G_APPLICATION (app), "io.github.vramcalc.VramCalculator.TestOpen");
  g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_OPEN);
  g_assert_true (g_application_register (G_APPLICATION (app), NULL, &error));
  g_assert_no_error (error);
  g_application_open (G_APPLICATION (app), &file, 1, "");
  window = VC_WINDOW (gtk_application_get_active_window (GTK_APPLICATION (app)));
  g_assert_true (VC_IS_WINDOW (window));
  vc_test_wait_while_busy (window);
  g_object_get (vc_window_get_estimate (window), "model-parameters", &params, NULL);
  g_assert_cmpfloat (params, ==, 7241732096.0);
  g_assert_cmpstr (vc_estimate_get_model_name (vc_window_get_estimate (window)), !=, "");
  gtk_window_destroy (GTK_WINDOW (window));
  vc_test_spin_until_idle ();
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
  g_test_add_func ("/application/actions-and-accels", test_actions_and_accels);
  g_test_add_func ("/application/open-file", test_open_file);
  return g_test_run ();
}
