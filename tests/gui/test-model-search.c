/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The model search of the real window: focused on a first start with the most-run models under
 * it; typing narrows the list at each key; Enter or a click picks a model, and the estimate is
 * that model's, counted from its architecture; a long list shows its first matches and a row
 * that shows them all. Runs with G_DEBUG=fatal-warnings. */
#include "config.h"

#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-catalog.h"
#include "vc-enums.h"
#include "vc-estimate-private.h"
#include "vc-inference-page.h"
#include "vc-model-search.h"
#include "vc-model-section.h"
#include "vc-window.h"

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  VcModelSearch *search;
  GtkWidget *entry;
  GtkWidget *list;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  GtkWidget *page;

  vc_test_reset_stored_state ();
  f->window = vc_test_new_window (1100, 1150, &f->estimate);
  vc_test_present (f->window);
  page = vc_test_window_page (f->window, VC_MODE_INFERENCE);
  f->search = VC_MODEL_SEARCH (vc_model_section_get_search (
    VC_MODEL_SECTION (vc_test_child (page, VC_TYPE_INFERENCE_PAGE, "model_section"))));
  f->entry = vc_model_search_get_entry (f->search);
  f->list = vc_model_search_get_list (f->search);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  vc_test_destroy_window (f->window);
  g_assert_null (f->estimate);
}

/* the ids of the models listed, and the heading of their group */
static char *
listed (Fixture     *f,
        const char **heading)
{
  GString *ids = g_string_new (NULL);

  *heading = NULL;
  for (GtkWidget *row = gtk_widget_get_first_child (f->list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      const char *id = vc_model_search_row_id (GTK_LIST_BOX_ROW (row));

      if (id != NULL)
        g_string_append_printf (ids, "%s%s", ids->len ? " " : "", id);
      else if (*heading == NULL)
        *heading = gtk_label_get_label (GTK_LABEL (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row))));
    }
  return g_string_free (ids, FALSE);
}

static GtkListBoxRow *
row_of (Fixture    *f,
        const char *id)
{
  for (GtkWidget *row = gtk_widget_get_first_child (f->list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (g_strcmp0 (vc_model_search_row_id (GTK_LIST_BOX_ROW (row)), id) == 0)
      return GTK_LIST_BOX_ROW (row);
  g_assert_not_reached ();
}

/* one key at a time, at the end of what is there */
static void
type (Fixture    *f,
      const char *text)
{
  for (const char *c = text; *c != '\0'; c++)
    {
      int pos = -1;

      gtk_editable_insert_text (GTK_EDITABLE (f->entry), c, 1, &pos);
      g_assert_true (gtk_widget_get_visible (f->list));
    }
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
}

static void
test_first_start (Fixture       *f,
                  gconstpointer  data)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (f->window));
  const char *heading;
  g_autofree char *ids = listed (f, &heading);

  /* the first question is which model: typing goes to the search */
  g_assert_nonnull (focus);
  g_assert_true (focus == f->entry || gtk_widget_is_ancestor (focus, f->entry));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "");
  g_assert_true (gtk_widget_get_visible (f->list));
  g_assert_cmpstr (heading, ==, "Most run models");
  g_assert_true (g_str_has_prefix (ids, "llama-3.1-8b gpt-oss-20b qwen3-8b "));
}

static void
test_type_and_pick (Fixture       *f,
                    gconstpointer  data)
{
  const char *heading;
  g_autofree char *qwen = NULL, *oss = NULL, *none = NULL;
  GtkWidget *details;
  const VcScenarioResult *sel;
  double total, active;

  type (f, "qwen3 32");
  qwen = listed (f, &heading);
  g_assert_cmpstr (qwen, ==, "qwen3-32b");
  g_assert_cmpstr (heading, ==, "Built-in models");
  /* its parameters, context and release date */
  details = gtk_widget_get_last_child (gtk_list_box_row_get_child (row_of (f, "qwen3-32b")));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (details)), ==, "32.76B parameters · 40K context · 2025-04");

  /* Enter picks it: the architecture is counted, the list goes */
  g_signal_emit_by_name (f->entry, "activate");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "qwen3-32b");
  g_assert_cmpint (vc_estimate_get_inputs (f->estimate)->method, ==, VC_METHOD_ARCHITECTURE);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (f->entry)), ==, "");
  g_assert_false (gtk_widget_get_visible (f->list));
  vc_estimate_flush (f->estimate);
  sel = vc_estimate_get_selected (f->estimate);
  /* 16-bit weights 2 × 32,762,123,264; KV cache 64 layers × 8 heads × 128 × 2 × 2 bytes × 2,048 */
  g_assert_cmpfloat (sel->bytes[VC_COMPONENT_WEIGHTS], ==, 65524246528.0);
  g_assert_cmpfloat (sel->bytes[VC_COMPONENT_KV_CACHE], ==, 536870912.0);
  g_assert_cmpfloat (sel->total, ==, 67418544896.0);

  /* a mixture of experts, picked with the pointer */
  type (f, "GPT-OSS 120");
  oss = listed (f, &heading);
  g_assert_cmpstr (oss, ==, "gpt-oss-120b");
  details = gtk_widget_get_last_child (gtk_list_box_row_get_child (row_of (f, "gpt-oss-120b")));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (details)), ==,
                   "116.83B parameters · 5.71B activated · 128K context · 2025-08");
  g_signal_emit_by_name (f->list, "row-activated", row_of (f, "gpt-oss-120b"));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "gpt-oss-120b");
  g_object_get (f->estimate, "model-parameters", &total, "model-active-parameters", &active, NULL);
  g_assert_cmpfloat (total, ==, 116829156672.0);
  g_assert_cmpfloat (active, ==, 5711982912.0);

  /* nothing found says where else a model comes from; Escape empties the search */
  type (f, "no such model");
  none = listed (f, &heading);
  g_assert_cmpstr (none, ==, "");
  g_assert_cmpstr (heading, ==, "No built-in model matches. Import config.json… reads any other model.");
  g_signal_emit_by_name (f->entry, "stop-search");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (f->entry)), ==, "");
  g_assert_false (gtk_widget_get_visible (f->list));
  g_assert_cmpstr (vc_estimate_get_preset (f->estimate), ==, "gpt-oss-120b");
}

/* "moe", "vision" and a size narrow the list as the core's search does */
static void
test_words (Fixture       *f,
            gconstpointer  data)
{
  const char *heading;
  g_autofree char *b70 = NULL, *vision = NULL;

  type (f, "70b");
  b70 = listed (f, &heading);
  g_assert_cmpstr (b70, ==, "llama-3.1-70b llama-2-70b llama-3-70b llama-3.3-70b-instruct deepseek-r1-distill-llama-70b");
  gtk_editable_set_text (GTK_EDITABLE (f->entry), "");
  type (f, "llama vision");
  vision = listed (f, &heading);
  g_assert_cmpstr (vision, ==, "llama-4-scout-17b-16e llama-4-maverick-17b-128e");
}

/* A long list: its first matches, then a row that shows them all, until the text changes */
static void
test_show_all (Fixture       *f,
               gconstpointer  data)
{
  const char *heading;
  guint n = vc_presets_search ("qwen", NULL, 1000);
  g_autofree char *first = NULL, *all = NULL, *narrowed = NULL;
  g_autofree char *label = g_strdup_printf ("Show all %u matches", n);
  GtkWidget *last;
  guint n_all = 0;

  g_assert_cmpuint (n, >, 8);
  type (f, "qwen");
  first = listed (f, &heading);
  g_assert_cmpstr (heading, ==, "Built-in models (first matches; type more to narrow)");
  {
    g_auto(GStrv) ids = g_strsplit (first, " ", -1);

    g_assert_cmpuint (g_strv_length (ids), ==, 8);
  }
  last = gtk_widget_get_last_child (f->list);
  g_assert_true (vc_model_search_row_shows_all (GTK_LIST_BOX_ROW (last)));
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (last)))), ==, label);

  g_signal_emit_by_name (f->list, "row-activated", last);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  all = listed (f, &heading);
  {
    g_auto(GStrv) ids = g_strsplit (all, " ", -1);

    n_all = g_strv_length (ids);
  }
  g_assert_cmpuint (n_all, ==, n);
  g_assert_true (g_str_has_prefix (all, first));
  for (GtkWidget *row = gtk_widget_get_first_child (f->list); row != NULL; row = gtk_widget_get_next_sibling (row))
    g_assert_false (vc_model_search_row_shows_all (GTK_LIST_BOX_ROW (row)));

  /* more keys: the first matches of the new text again, all of them */
  type (f, "3 moe a3b");
  narrowed = listed (f, &heading);
  g_assert_cmpstr (heading, ==, "Built-in models");
  g_assert_cmpstr (narrowed, ==, "qwen3-30b-a3b qwen3-30b-a3b-thinking-2507 tongyi-deepresearch-30b-a3b "
                   "qwen3-next-80b-a3b-instruct qwen3-30b-a3b-base qwen3-vl-30b-a3b-instruct "
                   "qwen3-30b-a3b-instruct-2507");
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
  ADD ("/model-search/first-start", test_first_start);
  ADD ("/model-search/type-and-pick", test_type_and_pick);
  ADD ("/model-search/words", test_words);
  ADD ("/model-search/show-all", test_show_all);
  return g_test_run ();
}
