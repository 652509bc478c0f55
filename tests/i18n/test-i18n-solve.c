/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What fits, in French: vramcalc --solve's sentence (the locale's digit grouping, "jetons",
 * non-breaking spaces before colons), and in the window the GPU table's column and the memory
 * chart's accessible description. Skips without the fr_FR.UTF-8 locale; the window part skips
 * without a display (build-aux/test provides both). */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>

#include "gui-test-util.h"
#include "vc-catalog.h"
#include "vc-context-chart-private.h"
#include "vc-gpu-chart-private.h"
#include "vc-results-view.h"
#include "vc-test-util.h"
#include "vc-window.h"

#define NBSP "\u00a0"
#define NNBSP "\u202f"

static const char *skip_reason;
static gboolean no_display;

static void
test_cli (void)
{
  const char *args[] = { "--preset", "llama-3.1-8b", "--solve", "seq", "--fit-gpu", "rtx-4090", NULL };
  const char *nothing[] = { "--preset", "llama-3.1-405b", "--mode", "training", "--solve", "batch", "--fit-gpu", "rtx-4090", NULL };
  const char *env[] = { "LC_ALL", "fr_FR.UTF-8", "LANGUAGE", "fr", "VC_LOCALEDIR", g_getenv ("VC_LOCALEDIR"), NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *last = NULL;
  char *nl;

  if (skip_reason)
    {
      g_test_skip (skip_reason);
      return;
    }
  g_assert_cmpint (vc_test_run_vramcalc (args, env, &out, &err), ==, 0);
  /* the last line; grouping is a narrow or ordinary no-break space depending on the C library */
  g_strchomp (out);
  nl = strrchr (out, '\n');
  last = g_strdup (nl ? nl + 1 : out);
  g_test_message ("%s", last);
  g_assert_true (g_str_equal (last, "Plus longue séquence qui tient sur 1" NBSP "×" NBSP "RTX 4090" NBSP ": 59" NNBSP "944" NBSP "jetons (limite" NBSP ": mémoire)") ||
                 g_str_equal (last, "Plus longue séquence qui tient sur 1" NBSP "×" NBSP "RTX 4090" NBSP ": 59" NBSP "944" NBSP "jetons (limite" NBSP ": mémoire)"));

  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (vc_test_run_vramcalc (nothing, env, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "\nMême un lot de 1 ne tient pas sur 1" NBSP "×" NBSP "RTX 4090" NBSP ": il faut "));
  g_assert_nonnull (strstr (out, " par GPU, sur 25,8" NBSP "Go utilisables\n"));
}

static void
test_window (void)
{
  VcWindow *window;
  VcEstimate *estimate;
  VcResultsView *results;
  g_autofree char *description = NULL, *fit = NULL;
  guint n, rtx = 0;
  const VcGpu *catalog = vc_gpus_get_all (&n);

  if (skip_reason || no_display)
    {
      g_test_skip (skip_reason ? skip_reason : "no display");
      return;
    }
  for (guint i = 0; i < n; i++)
    if (g_str_equal (catalog[i].id, "rtx-4090"))
      rtx = i;

  vc_test_reset_stored_state ();
  window = vc_test_new_window (1280, 1000, &estimate);
  results = VC_RESULTS_VIEW (vc_test_window_results (window));
  vc_test_present (window);
  g_assert_true (vc_estimate_set_preset (estimate, "llama-3.1-8b", NULL));
  g_object_set (estimate, "method", VC_METHOD_ARCHITECTURE, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (window));

  fit = vc_gpu_chart_describe_fit (VC_GPU_CHART (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "gpu_chart")), rtx);
  g_test_message ("%s", fit);
  g_assert_true (g_str_has_prefix (fit, "jusqu’à 59"));
  g_assert_true (g_str_has_suffix (fit, "944" NBSP "jetons"));

  description = vc_context_chart_dup_description (VC_CONTEXT_CHART (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "context_chart")));
  g_test_message ("%s", description);
  g_assert_true (g_str_has_prefix (description, "Mémoire d’un GPU selon la longueur de séquence, de 512" NBSP "jetons à 131"));
  g_assert_nonnull (strstr (description, " RTX 4090 (25,8" NBSP "Go)" NBSP ": jusqu’à 59"));
  g_assert_nonnull (strstr (description, " (limite" NBSP ": mémoire)."));
  g_assert_nonnull (strstr (description, " (limite" NBSP ": le contexte maximal du modèle)."));
  vc_test_destroy_window (window);
}

int
main (int   argc,
      char *argv[])
{
  const char *localedir = g_getenv ("VC_LOCALEDIR");

  g_test_init (&argc, &argv, NULL);

  /* French before GTK starts, which sets the locale from the environment once */
  g_setenv ("LANGUAGE", "fr", TRUE);
  g_setenv ("LC_ALL", "fr_FR.UTF-8", TRUE);
  if (setlocale (LC_ALL, "") == NULL)
    {
      skip_reason = "the fr_FR.UTF-8 locale is not installed";
      g_setenv ("LC_ALL", "C.UTF-8", TRUE);
      setlocale (LC_ALL, "");
    }
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
  no_display = !gtk_init_check ();

  g_test_add_func ("/i18n/solve/cli", test_cli);
  g_test_add_func ("/i18n/solve/window", test_window);
  return g_test_run ();
}
