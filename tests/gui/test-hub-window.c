/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-hub-window.c: the window's "Open from Hugging Face or This Computer" dialog against the
 * test Hub (tests/hub/hub-test-server.c) and a fake home folder: a model opened by name, a GGUF
 * quantization chosen from the list, a model on this computer, a fetch cancelled mid-way, and
 * what the dialog says offline; and the model section's search, which lists the models on this
 * computer under their own heading and opens one as the dialog does. */
#include "config.h"

#include <glib/gstdio.h>

#include "gui-test-util.h"
#include "hub-test-server.h"
#include "vc-hub-dialog-private.h"
#include "vc-inference-page.h"
#include "vc-model-search.h"
#include "vc-model-section.h"

#define TINY_ELEMENTS 1692928
#define TINY_BF16_BYTES 3385856
#define TINY_GGUF_BYTES 1107152

static char *fixtures;
static HubTestServer *server;

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  vc_test_reset_stored_state ();
  f->window = vc_test_new_window (1000, 800, &f->estimate);
  vc_test_present (f->window);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  vc_test_destroy_window (f->window);
  g_assert_null (f->estimate);
}

static VcHubDialog *
open_dialog (Fixture *f)
{
  GtkWidget *dialog;

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->window), "win.open-hub", NULL));
  dialog = vc_window_get_hub_dialog (f->window);
  g_assert_true (VC_IS_HUB_DIALOG (dialog));
  g_assert_true (gtk_widget_get_visible (dialog));
  return VC_HUB_DIALOG (dialog);
}

static void
wait_dialog (VcHubDialog *dialog)
{
  gint64 deadline = g_get_monotonic_time () + 20 * G_USEC_PER_SEC;

  while (vc_hub_dialog_is_busy (dialog) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_false (vc_hub_dialog_is_busy (dialog));
}

static double
weights (Fixture *f)
{
  return vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS];
}

static void
test_by_name (Fixture       *f,
              gconstpointer  data)
{
  VcHubDialog *dialog = open_dialog (f);
  GListModel *quants = vc_hub_dialog_get_quantizations (dialog);
  double params = 0;

  /* the network only when asked: nothing was fetched by opening the window or the dialog */
  g_assert_cmpuint (hub_test_server_n_hub (server), ==, 0);

  /* typed, then Fetch */
  gtk_editable_set_text (GTK_EDITABLE (vc_test_child (dialog, VC_TYPE_HUB_DIALOG, "entry")), "tiny/llama-4shard");
  g_signal_emit_by_name (vc_test_child (dialog, VC_TYPE_HUB_DIALOG, "fetch_button"), "clicked");
  g_assert_true (vc_hub_dialog_is_busy (dialog));
  g_assert_false (gtk_widget_get_sensitive (vc_test_child (dialog, VC_TYPE_HUB_DIALOG, "fetch_button")));
  wait_dialog (dialog);
  vc_test_wait_while_busy (f->window);
  g_assert_cmpstr (vc_hub_dialog_get_status (dialog), ==, "Opened tiny/llama-4shard.");
  g_assert_null (vc_window_get_error (f->window));
  g_object_get (f->estimate, "source-parameters", &params, NULL);
  g_assert_cmpfloat (params, ==, TINY_ELEMENTS);
  g_assert_cmpfloat (weights (f), ==, TINY_BF16_BYTES);

  /* a GGUF repository: its quantizations to choose from */
  vc_hub_dialog_fetch (dialog, "https://huggingface.co/tiny/llama-gguf");
  wait_dialog (dialog);
  g_assert_cmpuint (g_list_model_get_n_items (quants), ==, 3);
  {
    g_autoptr(GtkStringObject) first = g_list_model_get_item (quants, 0);

    g_assert_true (g_str_has_prefix (gtk_string_object_get_string (first), "tiny-llama-Q4_K_M — "));
  }
  g_assert_nonnull (strstr (vc_hub_dialog_get_status (dialog), "choose one"));
  g_assert_cmpfloat (weights (f), ==, TINY_BF16_BYTES);
  vc_hub_dialog_choose_quantization (dialog, 0);
  wait_dialog (dialog);
  vc_test_wait_while_busy (f->window);
  g_assert_null (vc_window_get_error (f->window));
  g_assert_cmpfloat (weights (f), ==, TINY_GGUF_BYTES);

  /* a model on this computer: Ollama's qwen3:30b-a3b in the fake home */
  {
    GListModel *locals = vc_hub_dialog_get_local_models (dialog);
    guint found = G_MAXUINT;

    for (guint i = 0; i < g_list_model_get_n_items (locals); i++)
      {
        g_autoptr(GtkStringObject) s = g_list_model_get_item (locals, i);

        if (g_str_has_prefix (gtk_string_object_get_string (s), "qwen3:30b-a3b — Ollama"))
          found = i;
      }
    g_assert_cmpuint (g_list_model_get_n_items (locals), ==, 5);
    g_assert_cmpuint (found, !=, G_MAXUINT);
    vc_hub_dialog_choose_local (dialog, found);
    vc_test_wait_while_busy (f->window);
    g_assert_cmpstr (vc_estimate_get_model_name (f->estimate), ==, "qwen3-tiny");
    g_assert_cmpfloat (weights (f), ==, TINY_GGUF_BYTES);
  }

  /* a bad name: said in the dialog, nothing asked for */
  vc_hub_dialog_fetch (dialog, "not a model");
  g_assert_false (vc_hub_dialog_is_busy (dialog));
  g_assert_nonnull (strstr (vc_hub_dialog_get_status (dialog), "org/name"));
}

/* the headings of the model search's list, and the names of this computer's models listed */
static char *
search_listed (GtkWidget *list,
               char     **local_names)
{
  GString *headings = g_string_new (NULL);
  GString *names = g_string_new (NULL);

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkWidget *child = gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row));

      if (vc_model_search_row_file (GTK_LIST_BOX_ROW (row)) != NULL)
        g_string_append_printf (names, "%s%s", names->len ? " " : "",
                                gtk_label_get_label (GTK_LABEL (gtk_widget_get_first_child (child))));
      else if (vc_model_search_row_id (GTK_LIST_BOX_ROW (row)) == NULL && GTK_IS_LABEL (child))
        g_string_append_printf (headings, "%s%s", headings->len ? " | " : "", gtk_label_get_label (GTK_LABEL (child)));
    }
  *local_names = g_string_free (names, FALSE);
  return g_string_free (headings, FALSE);
}

static GtkListBoxRow *
local_row_named (GtkWidget  *list,
                 const char *name)
{
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    if (vc_model_search_row_file (GTK_LIST_BOX_ROW (row)) != NULL &&
        g_str_equal (gtk_label_get_label (GTK_LABEL (gtk_widget_get_first_child (
          gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row))))), name))
      return GTK_LIST_BOX_ROW (row);
  g_assert_not_reached ();
}

/* The model section's search: the models of the fake home that match, under "On this computer"
 * after the catalog's, with where they were found, their format and size; one picked opens as
 * the dialog opens it. */
static void
test_search_local (Fixture       *f,
                   gconstpointer  data)
{
  GtkWidget *page = vc_test_window_page (f->window, VC_MODE_INFERENCE);
  VcModelSearch *search = VC_MODEL_SEARCH (vc_model_section_get_search (
    VC_MODEL_SECTION (vc_test_child (page, VC_TYPE_INFERENCE_PAGE, "model_section"))));
  GtkWidget *entry = vc_model_search_get_entry (search);
  GtkWidget *list = vc_model_search_get_list (search);
  g_autofree char *names = NULL, *headings = NULL, *names2 = NULL, *headings2 = NULL;
  GtkListBoxRow *row;

  gtk_editable_set_text (GTK_EDITABLE (entry), "tiny");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  headings = search_listed (list, &names);
  g_assert_cmpstr (headings, ==, "Built-in models | On this computer");
  /* sorted by where they were found, then by name; the broken ones are left out */
  g_assert_cmpstr (names, ==, "tiny/llama lmstudio-community/Tiny-GGUF/Tiny-Q4_K_M someone/tiny:q4");
  row = local_row_named (list, "tiny/llama");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (gtk_widget_get_last_child (gtk_list_box_row_get_child (row)))), ==,
                   "Hugging Face cache · safetensors · 3.4\u00a0MB");
  row = local_row_named (list, "someone/tiny:q4");
  g_assert_cmpstr (gtk_label_get_label (GTK_LABEL (gtk_widget_get_last_child (gtk_list_box_row_get_child (row)))), ==,
                   "Ollama · GGUF · 1.1\u00a0MB");

  /* every word counts, the place a model was found too */
  gtk_editable_set_text (GTK_EDITABLE (entry), "qwen3 ollama");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  headings2 = search_listed (list, &names2);
  g_assert_cmpstr (headings2, ==, "No built-in model matches. Import config.json… reads any other model. | On this computer");
  g_assert_cmpstr (names2, ==, "qwen3:30b-a3b qwen3:latest");

  /* picked: read from its GGUF blob, as the dialog's choice is; the search empties */
  g_signal_emit_by_name (list, "row-activated", local_row_named (list, "qwen3:30b-a3b"));
  vc_test_wait_while_busy (f->window);
  g_assert_null (vc_window_get_error (f->window));
  g_assert_cmpstr (vc_estimate_get_model_name (f->estimate), ==, "qwen3-tiny");
  g_assert_cmpfloat (weights (f), ==, TINY_GGUF_BYTES);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "");
  g_assert_null (vc_window_get_hub_dialog (f->window));
}

static void
test_cancel (Fixture       *f,
             gconstpointer  data)
{
  VcHubDialog *dialog = open_dialog (f);
  GtkWidget *cancel = vc_test_child (dialog, VC_TYPE_HUB_DIALOG, "cancel_button");
  double before = weights (f);
  gint64 until = g_get_monotonic_time () + G_USEC_PER_SEC / 5;

  vc_hub_dialog_fetch (dialog, "tiny/stall");
  g_assert_true (gtk_widget_get_visible (cancel));
  while (g_get_monotonic_time () < until)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (vc_hub_dialog_is_busy (dialog));
  g_signal_emit_by_name (cancel, "clicked");
  wait_dialog (dialog);
  g_assert_cmpstr (vc_hub_dialog_get_status (dialog), ==, "Cancelled.");
  g_assert_false (gtk_widget_get_visible (cancel));
  g_assert_cmpfloat (weights (f), ==, before);
  g_assert_null (vc_window_get_error (f->window));

  /* closed while a fetch runs: the fetch ends, nothing is applied */
  vc_hub_dialog_fetch (dialog, "tiny/stall");
  gtk_window_destroy (GTK_WINDOW (dialog));
  {
    gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

    while (vc_window_get_hub_dialog (f->window) != NULL && g_get_monotonic_time () < deadline)
      g_main_context_iteration (NULL, FALSE);
  }
  g_assert_null (vc_window_get_hub_dialog (f->window));
  g_assert_cmpfloat (weights (f), ==, before);
}

static void
test_offline (Fixture       *f,
              gconstpointer  data)
{
  VcHubDialog *dialog;

  /* fetched once, then offline: the cached copy, and a line saying so */
  dialog = open_dialog (f);
  vc_hub_dialog_fetch (dialog, "tiny/llama-single");
  wait_dialog (dialog);
  gtk_window_destroy (GTK_WINDOW (dialog));
  vc_test_spin_until_idle ();

  g_setenv ("HF_HUB_OFFLINE", "1", TRUE);
  hub_test_server_reset (server);
  dialog = open_dialog (f);
  vc_hub_dialog_fetch (dialog, "tiny/llama-4shard-never");
  wait_dialog (dialog);
  g_assert_nonnull (strstr (vc_hub_dialog_get_status (dialog), "HF_HUB_OFFLINE is set"));
  g_assert_nonnull (strstr (vc_hub_dialog_get_status (dialog), "not in the cache"));
  vc_hub_dialog_fetch (dialog, "tiny/llama-single");
  wait_dialog (dialog);
  vc_test_wait_while_busy (f->window);
  g_assert_nonnull (strstr (vc_hub_dialog_get_status (dialog), "the cached copy of tiny/llama-single"));
  g_assert_cmpfloat (weights (f), ==, TINY_BF16_BYTES);
  g_assert_cmpuint (hub_test_server_n_hub (server), ==, 0);
  g_unsetenv ("HF_HUB_OFFLINE");
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *script = NULL;
  g_autofree char *repos = NULL;
  g_autofree char *home = NULL;
  g_autofree char *cache = NULL;
  int status = 0, ret;

  fixtures = g_dir_make_tmp ("vc-test-hub-window-XXXXXX", NULL);
  g_assert_nonnull (fixtures);
  script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hub", "make-hub-fixtures.py", NULL);
  {
    const char *args[] = { python, script, fixtures, NULL };

    g_assert_nonnull (python);
    g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }
  repos = g_build_filename (fixtures, "repos", NULL);
  home = g_build_filename (fixtures, "home", NULL);
  /* the Hub's own cache folder is there too (huggingface_hub: $XDG_CACHE_HOME/huggingface) */
  cache = g_build_filename (home, ".cache", NULL);
  server = hub_test_server_start (repos);
  /* before GLib and GTK read them: the test Hub, a cache and a home folder of the test's own */
  g_setenv ("HF_ENDPOINT", hub_test_server_url (server), TRUE);
  g_setenv ("HOME", home, TRUE);
  g_setenv ("XDG_CACHE_HOME", cache, TRUE);
  g_unsetenv ("HF_HUB_OFFLINE");
  g_unsetenv ("HF_TOKEN");
  g_unsetenv ("HF_HOME");
  g_unsetenv ("HF_HUB_CACHE");
  g_unsetenv ("OLLAMA_MODELS");
  g_setenv ("no_proxy", "127.0.0.1,localhost", TRUE);
  g_unsetenv ("http_proxy");
  g_unsetenv ("HTTP_PROXY");

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display: GUI tests need one (build-aux/test runs them under Xvfb)");
      ret = g_test_run ();
    }
  else
    {
#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
      ADD ("/hub-window/by-name", test_by_name);
      ADD ("/hub-window/cancel", test_cancel);
      ADD ("/hub-window/offline", test_offline);
      ADD ("/hub-window/search-local", test_search_local);
      ret = g_test_run ();
    }
  hub_test_server_stop (server);
  {
    const char *args[] = { "rm", "-rf", fixtures, NULL };

    g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
  }
  g_free (fixtures);
  return ret;
}
