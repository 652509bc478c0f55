/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The real window in French: translated tabs, labels, scenario names and dropdown choices,
 * sizes with a decimal comma and "Go", GPU counts without a plural s, and a parameter count
 * shown as "46,70 Md" that reads back. Skips without a display or without the fr_FR.UTF-8 locale
 * (build-aux/test provides both).
 *
 * With VC_SCREENSHOT_DIR set, /i18n/window/screenshot also saves the Inference tab, as the
 * README shows it in English, to $VC_SCREENSHOT_DIR/inference-fr.png. */
#include "config.h"

#include <glib/gi18n.h>
#include <gtk/gtk.h>
#include <locale.h>

#include "gui-test-util.h"
#include "vc-catalog.h"
#include "vc-drop-down.h"
#include "vc-estimate.h"
#include "vc-gpu-chart-private.h"
#include "vc-results-view-private.h"
#include "vc-units.h"
#include "vc-window.h"

#define NBSP "\u00a0"
#define STYLE_RESOURCE "/io/github/vramcalc/VramCalculator/style.css"

static const char *skip_reason;

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  if (skip_reason)
    return;
  vc_test_reset_stored_state ();
  f->window = vc_test_new_window (1280, 1000, &f->estimate);
  vc_test_present (f->window);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  if (f->window == NULL)
    return;
  vc_test_destroy_window (f->window);
  g_assert_null (f->estimate);
}

#define SKIP_IF_NEEDED()                  \
  G_STMT_START {                          \
    if (skip_reason)                      \
      {                                   \
        g_test_skip (skip_reason);        \
        return;                           \
      }                                   \
  } G_STMT_END

/* Every label drawn now, in tree order. */
static void
collect_labels (GtkWidget *widget,
                GPtrArray *texts)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_is_drawable (widget))
    g_ptr_array_add (texts, (gpointer) gtk_label_get_label (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_labels (child, texts);
}

static void
collect_widgets (GtkWidget *widget,
                 GType      type,
                 GPtrArray *found)
{
  if (g_type_is_a (G_OBJECT_TYPE (widget), type) && gtk_widget_is_drawable (widget))
    g_ptr_array_add (found, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_widgets (child, type, found);
}

static void
show_labels (GtkWidget *root)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();

  collect_labels (root, texts);
  for (guint i = 0; i < texts->len; i++)
    g_test_message ("label: %s", (const char *) texts->pdata[i]);
}

static void
assert_label (GtkWidget  *root,
              const char *text)
{
  if (vc_test_find_label (root, text) == NULL)
    {
      show_labels (root);
      g_test_message ("no label “%s” drawn", text);
      g_test_fail ();
    }
}

/* How many labels drawn match the pattern. */
static guint
count_labels_matching (GtkWidget  *root,
                       const char *pattern)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autoptr(GRegex) regex = g_regex_new (pattern, 0, 0, NULL);
  guint n = 0;

  collect_labels (root, texts);
  for (guint i = 0; i < texts->len; i++)
    if (g_regex_match (regex, texts->pdata[i], 0, NULL))
      n++;
  return n;
}

/* labels that show a GPU of the catalog by its name */
static guint
count_gpu_names (GtkWidget *root)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  guint n_gpus, n = 0;
  const VcGpu *gpus = vc_gpus_get_all (&n_gpus);

  collect_labels (root, texts);
  for (guint i = 0; i < texts->len; i++)
    for (guint k = 0; k < n_gpus; k++)
      if (g_str_equal (texts->pdata[i], gpus[k].name))
        {
          n++;
          break;
        }
  return n;
}

static gboolean
dropdown_offers (GtkWidget  *root,
                 const char *choice)
{
  g_autoptr(GPtrArray) dropdowns = g_ptr_array_new ();

  collect_widgets (root, VC_TYPE_DROP_DOWN, dropdowns);
  for (guint i = 0; i < dropdowns->len; i++)
    {
      GListModel *model = vc_drop_down_get_model (dropdowns->pdata[i]);

      for (guint k = 0; model && k < g_list_model_get_n_items (model); k++)
        {
          g_autoptr(GObject) item = g_list_model_get_item (model, k);

          if (GTK_IS_STRING_OBJECT (item) &&
              g_str_equal (gtk_string_object_get_string (GTK_STRING_OBJECT (item)), choice))
            return TRUE;
        }
    }
  return FALSE;
}

static void
test_inference_tab (Fixture       *f,
                    gconstpointer  data)
{
  GtkWidget *root;

  SKIP_IF_NEEDED ();
  root = GTK_WIDGET (f->window);
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, "parameters", 7e9, NULL);
  vc_test_wait_for_frame (root);

  /* French words are longer, yet the window still narrows to 600 pixels or less (the inputs
   * and results stack), on both tabs */
  for (VcMode mode = VC_MODE_TRAINING; mode != (VcMode) -1; mode--)
    {
      int min = 0;

      vc_window_set_mode (f->window, mode);
      vc_test_wait_for_frame (root);
      gtk_widget_measure (root, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
      g_test_message ("minimum width in French, tab %d: %d px", mode, min);
      g_assert_cmpint (min, <=, 600);
    }

  /* tabs (the stack switcher's buttons), section headings, mnemonic labels */
  assert_label (root, "Inférence");
  assert_label (root, "Entraînement");
  assert_label (root, "Modèle");
  assert_label (root, "Charge de travail");
  assert_label (root, "Taille _de lot");
  assert_label (root, "_Longueur de séquence");
  assert_label (root, "Requêtes _concurrentes");
  assert_label (root, "Scénarios");
  /* names from the core, translated in its own domain */
  assert_label (root, "Inférence (16" NBSP "bits)");
  assert_label (root, "Inférence (4" NBSP "bits)");
  assert_label (root, "Cache KV");
  assert_label (root, "Surcoût");
  /* dropdown choices */
  g_assert_true (dropdown_offers (root, "Bfloat 16" NBSP "bits (bf16)"));
  g_assert_true (dropdown_offers (root, "Par nombre de paramètres"));
  g_assert_false (dropdown_offers (root, "By parameter count"));

  /* sizes: decimal comma, "Go" after a no-break space, never the English form */
  assert_label (root, "18,8" NBSP "Go");
  assert_label (root, "14,0" NBSP "Go");
  g_assert_cmpuint (count_labels_matching (root, "^[0-9]+,[0-9]+" NBSP "Go$"), >=, 5);
  g_assert_cmpuint (count_labels_matching (root, "[0-9]\\.[0-9]" NBSP "?G"), ==, 0);
  /* a card's catalog name ("RTX 3060 12 GB", in My GPUs' card list) is the product's own name */
  g_assert_cmpuint (count_labels_matching (root, "\\bGB\\b|\\bGiB\\b"), ==, count_gpu_names (root));
  g_assert_cmpuint (count_labels_matching (root, "^Inference|^Weights|^Workload"), ==, 0);
}

static void
test_binary_units (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *root;

  SKIP_IF_NEEDED ();
  root = GTK_WIDGET (f->window);
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, "parameters", 7e9, NULL);
  vc_profile_set_unit (vc_window_get_profile (f->window), VC_UNIT_GIB);
  vc_test_wait_for_frame (root);
  assert_label (root, "17,5" NBSP "Gio");
  g_assert_cmpuint (count_labels_matching (root, "GiB"), ==, 0);
}

static void
test_training_tab (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *root;

  SKIP_IF_NEEDED ();
  root = GTK_WIDGET (f->window);
  g_object_set (f->estimate, "mode", VC_MODE_TRAINING, "method", VC_METHOD_RULE_OF_THUMB,
                "parameters", 7e9, NULL);
  vc_test_wait_for_frame (root);

  assert_label (root, "Affinage");
  assert_label (root, "Mét_hode d’affinage");
  assert_label (root, "Points de contrôle des _gradients");
  assert_label (root, "Précision mi_xte");
  assert_label (root, "Affinage complet");
  assert_label (root, "Affinage QLoRA (4" NBSP "bits)");
  assert_label (root, "État de l’optimiseur");
  assert_label (root, "Gradients");
  g_assert_true (dropdown_offers (root, "SGD avec inertie (momentum)"));
  g_assert_true (dropdown_offers (root, "QLoRA, base en 4" NBSP "bits"));
  g_assert_cmpuint (count_labels_matching (root, "fine-tuning"), ==, 0);
}

/* the window's minimum width in French, at most 600 pixels (test_inference_tab) */
static void
assert_narrows (GtkWidget  *root,
                const char *what)
{
  int min = 0;

  vc_test_wait_for_frame (root);
  gtk_widget_measure (root, GTK_ORIENTATION_HORIZONTAL, -1, &min, NULL, NULL, NULL);
  g_test_message ("minimum width in French, %s: %d px", what, min);
  g_assert_cmpint (min, <=, 600);
}

/* The window's strings added with SGLang's source and Mamba pool, the method notes (the
 * architecture's, each tab's) and the optimizer step counted, each shown in French, and the window still narrows to 600 pixels
 * with each: a drop-down's choice or a label that does not wrap would widen it */
static void
test_new_strings_width (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  GtkWidget *root, *chart, *note;
  guint h100 = 0;

  SKIP_IF_NEEDED ();
  root = GTK_WIDGET (f->window);
  chart = vc_test_child (vc_test_window_results (f->window), VC_TYPE_RESULTS_VIEW, "gpu_chart");
  while (!g_str_equal (vc_estimate_get_gpu (f->estimate, h100)->id, "h100-80gb"))
    h100++;

  /* a custom architecture's fields kept under the method by parameter count */
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "");
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "layers", 80, NULL);
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  assert_narrows (root, "architecture note");
  assert_label (root, "Les champs d’architecture réglés ici sont conservés mais inutilisés par l’estimation par "
                      "nombre de paramètres. Choisissez la méthode Architecture pour les compter.");

  /* SGLang's source, each choice selected, and its Mamba pool beside the capacity */
  g_assert_true (vc_estimate_set_preset (f->estimate, "granite-4.0-h-tiny", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "engine", VC_ENGINE_SGLANG, NULL);
  assert_narrows (root, "SGLang commit 001ccef");
  assert_label (root, "_Source de SGLang");
  assert_label (root, "Commit 001ccef (mixin du model runner)");
  g_assert_true (dropdown_offers (root, "Commit 003fca8 (configurateur du cache KV)"));
  {
    g_autofree char *speed = vc_gpu_chart_describe_speed (VC_GPU_CHART (chart), h100);

    g_assert_true (g_str_has_suffix (speed, " · pool Mamba de 465 requêtes (26,7" NBSP "Go), 57,3" NBSP "Mo par requête"));
  }
  g_object_set (f->estimate, "sglang-version", VC_SGLANG_VERSION_003FCA8, NULL);
  assert_narrows (root, "SGLang commit 003fca8");
  assert_label (root, "Commit 003fca8 (configurateur du cache KV)");

  /* the Inference tab's note under the method by parameter count */
  g_object_set (f->estimate, "engine", VC_ENGINE_LLAMA_CPP, "flash-attention", FALSE,
                "kv-precision", VC_PRECISION_FP8, "cache-type-k", VC_CACHE_TYPE_Q8_0, NULL);
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  assert_narrows (root, "Inference tab's method note");
  note = vc_test_window_input (f->window, VC_MODE_INFERENCE, "method-note");
  g_assert_true (gtk_widget_is_drawable (note));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (note)), ==,
                   "Réglés mais inutilisés par l’estimation par nombre de paramètres : Précision du cache KV, "
                   "Attention flash, Type du cache des clés. Choisissez la méthode Architecture pour les compter.");

  /* the Training tab's note and the longest optimizer step counted */
  g_object_set (f->estimate, "mode", VC_MODE_TRAINING, "method", VC_METHOD_ARCHITECTURE,
                "optimizer", VC_OPTIMIZER_ADAMW, "optimizer-in-backward", TRUE, NULL);
  vc_window_set_mode (f->window, VC_MODE_TRAINING);
  assert_narrows (root, "optimizer step counted");
  assert_label (root, "Comptée : le pas d’un paramètre à la fois, dans la rétropropagation (aucun temporaire)");
  g_object_set (f->estimate, "optimizer-in-backward", FALSE, "compile", TRUE, NULL);
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  assert_narrows (root, "Training tab's method note");
  note = vc_test_window_input (f->window, VC_MODE_TRAINING, "method-note");
  g_assert_true (gtk_widget_is_drawable (note));
}

/* "46,70 Md" (milliards) in the entry reads back as 46.7e9, not as an error. */
static void
test_count_reads_back (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  GtkWidget *entry = NULL;
  GtkWidget *root;
  double parameters;

  SKIP_IF_NEEDED ();
  root = GTK_WIDGET (f->window);
  g_object_set (f->estimate, "method", VC_METHOD_RULE_OF_THUMB, "parameters", 46.7e9, NULL);
  vc_test_wait_for_frame (root);

  collect_widgets (root, GTK_TYPE_ENTRY, entries);
  for (guint i = 0; i < entries->len; i++)
    if (g_str_equal (gtk_editable_get_text (entries->pdata[i]), "46,70" NBSP "Md"))
      entry = entries->pdata[i];
  g_assert_nonnull (entry);

  g_signal_emit_by_name (entry, "activate");
  vc_test_wait_for_frame (root);
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_object_get (f->estimate, "parameters", &parameters, NULL);
  g_assert_cmpfloat (parameters, ==, 46.7e9);

  /* typed the French way */
  gtk_editable_set_text (GTK_EDITABLE (entry), "1,5T");
  g_signal_emit_by_name (entry, "activate");
  vc_test_wait_for_frame (root);
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_object_get (f->estimate, "parameters", &parameters, NULL);
  g_assert_cmpfloat (parameters, ==, 1.5e12);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "1,50" NBSP "T");

  /* French milliards, as the window writes them: Qwen3 8B's 8.19 billion */
  gtk_editable_set_text (GTK_EDITABLE (entry), "8,19 Md");
  g_signal_emit_by_name (entry, "activate");
  vc_test_wait_for_frame (root);
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  g_object_get (f->estimate, "parameters", &parameters, NULL);
  g_assert_cmpfloat_with_epsilon (parameters, 8.19e9, 1);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "8,19" NBSP "Md");

  /* cards' names say "Go" in French */
  {
    g_autofree char *name = vc_localize_gpu_name ("RTX 4060 Ti 16 GB");
    g_assert_cmpstr (name, ==, "RTX 4060 Ti 16" NBSP "Go");
  }
}

/* Llama 3 8B, 8192-token sequences, 4 concurrent requests: the README's English screenshot. */
static void
test_screenshot (Fixture       *f,
                 gconstpointer  data)
{
  const char *dir = g_getenv ("VC_SCREENSHOT_DIR");
  GtkWidget *root;

  SKIP_IF_NEEDED ();
  root = GTK_WIDGET (f->window);
  g_object_set (f->estimate, "preset", "llama-3-8b", NULL);
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "seq", 8192, "concurrency", 4, NULL);
  vc_test_wait_for_frame (root);
  assert_label (root, "22,2" NBSP "Go");
  assert_label (root, "Llama 3 8B · Inférence (16" NBSP "bits)");

  if (dir != NULL)
    {
      g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (root);
      g_autoptr(GtkSnapshot) snapshot = gtk_snapshot_new ();
      g_autoptr(GskRenderNode) node = NULL;
      g_autoptr(GdkTexture) texture = NULL;
      g_autofree char *path = g_build_filename (dir, "inference-fr.png", NULL);
      int width = gtk_widget_get_width (root);
      int height = gtk_widget_get_height (root);

      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), width, height);
      node = gtk_snapshot_free_to_node (g_steal_pointer (&snapshot));
      texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (root)), node,
                                             &GRAPHENE_RECT_INIT (0, 0, width, height));
      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("saved %s (%d × %d)", path, width, height);
    }
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
      /* GTK warns about a locale the C library lacks */
      g_setenv ("LC_ALL", "C.UTF-8", TRUE);
      setlocale (LC_ALL, "");
    }
  bindtextdomain (GETTEXT_PACKAGE, localedir ? localedir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  if (!gtk_init_check ())
    skip_reason = "no display: GUI tests need one (build-aux/test runs them under Xvfb)";
  else if (g_resources_get_info (STYLE_RESOURCE, 0, NULL, NULL, NULL))
    {
      /* the application's style sheet, which VcApplication loads at start-up */
      g_autoptr(GtkCssProvider) css = gtk_css_provider_new ();

      gtk_css_provider_load_from_resource (css, STYLE_RESOURCE);
      gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (css),
                                                  GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
    }

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/i18n/window/inference-tab", test_inference_tab);
  ADD ("/i18n/window/binary-units", test_binary_units);
  ADD ("/i18n/window/training-tab", test_training_tab);
  ADD ("/i18n/window/count-reads-back", test_count_reads_back);
  ADD ("/i18n/window/new-strings-width", test_new_strings_width);
  ADD ("/i18n/window/screenshot", test_screenshot);
  return g_test_run ();
}
