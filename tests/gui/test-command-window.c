/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The "Command" area of the real window: it follows the estimate and its engine, the chooser
 * shows each engine's command or its refusal, and Copy puts the command on the clipboard,
 * read back here. */
#include "config.h"

#include <gtk/gtk.h>
#include <string.h>

#include "gui-test-util.h"
#include "vc-command-view.h"
#include "vc-drop-down.h"
#include "vc-results-view.h"
#include "vc-window.h"

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  VcCommandView *view;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);

  g_settings_reset (settings, "last-inputs");
  g_settings_reset (settings, "tab");
  f->window = vc_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 1150);
  f->estimate = vc_window_get_estimate (f->window);
  g_object_add_weak_pointer (G_OBJECT (f->estimate), (gpointer *) &f->estimate);
  f->view = VC_COMMAND_VIEW (vc_test_child (vc_test_window_results (f->window), VC_TYPE_RESULTS_VIEW, "command_view"));
  gtk_window_present (GTK_WINDOW (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  vc_test_destroy_window (f->window);
  vc_test_wait_gone ((gpointer *) &f->estimate, 2);
}

static void
text_read (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  char **text = user_data;
  g_autoptr(GError) error = NULL;

  *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (*text);
}

/* Presses Copy and reads the clipboard back */
static char *
copy_and_read (Fixture *f)
{
  GtkWidget *copy = vc_test_child (f->view, VC_TYPE_COMMAND_VIEW, "copy_button");
  GdkClipboard *clipboard = gtk_widget_get_clipboard (GTK_WIDGET (f->view));
  char *text = NULL;
  gint64 deadline = g_get_monotonic_time () + 5 * G_USEC_PER_SEC;

  g_assert_true (gtk_widget_is_sensitive (copy));
  g_signal_emit_by_name (copy, "clicked");
  gdk_clipboard_read_text_async (clipboard, NULL, text_read, &text);
  while (text == NULL && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_nonnull (text);
  return text;
}

static void
test_copy (Fixture       *f,
           gconstpointer  data)
{
  GtkLabel *text = GTK_LABEL (vc_test_child (f->view, VC_TYPE_COMMAND_VIEW, "command_text"));
  GtkLabel *note = GTK_LABEL (vc_test_child (f->view, VC_TYPE_COMMAND_VIEW, "note"));
  GtkWidget *chooser = vc_test_child (f->view, VC_TYPE_COMMAND_VIEW, "engine_chooser");
  GtkWidget *copy = vc_test_child (f->view, VC_TYPE_COMMAND_VIEW, "copy_button");
  g_autoptr(GError) error = NULL;
  g_autofree char *copied = NULL;
  const char *vllm = "vllm serve Qwen/Qwen3-8B --tensor-parallel-size 2 --max-model-len 8192 "
                     "--gpu-memory-utilization 0.9";

  g_assert_true (vc_estimate_set_preset (f->estimate, "qwen3-8b", &error));
  g_object_set (f->estimate, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "tp", 2, "seq", 8192, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  /* the estimate's engine is chosen, its command shown, selectable and in monospace */
  g_assert_cmpuint (vc_drop_down_get_selected (VC_DROP_DOWN (chooser)), ==, VC_COMMAND_VLLM);
  g_assert_cmpstr (gtk_label_get_text (text), ==, vllm);
  g_assert_true (gtk_label_get_selectable (text));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (text), "monospace"));
  g_assert_cmpstr (gtk_label_get_text (note), ==,
                   "Flags as of vLLM 002f10e (vllm/engine/arg_utils.py, vllm/config/cache.py).");
  copied = copy_and_read (f);
  g_assert_cmpstr (copied, ==, vllm);
  g_clear_pointer (&copied, g_free);

  /* it follows the estimate */
  g_object_set (f->estimate, "seq", 4096, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (strstr (gtk_label_get_text (text), "--max-model-len 4096"));

  /* another engine of the chooser, copied in its turn */
  vc_drop_down_set_selected (VC_DROP_DOWN (chooser), VC_COMMAND_SGLANG);
  g_assert_cmpstr (gtk_label_get_text (text), ==,
                   "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2 --context-length 4096");
  copied = copy_and_read (f);
  g_assert_cmpstr (copied, ==, "python -m sglang.launch_server --model-path Qwen/Qwen3-8B --tp-size 2 --context-length 4096");
  g_clear_pointer (&copied, g_free);

  /* an engine that cannot be told what the estimate assumes: the refusal, nothing to copy */
  vc_drop_down_set_selected (VC_DROP_DOWN (chooser), VC_COMMAND_LLAMA_CPP);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (text)));
  g_assert_false (gtk_widget_is_sensitive (copy));
  g_assert_nonnull (strstr (gtk_label_get_text (note), "llama.cpp splits layers across GPUs"));

  /* a model read from its files names it; a training estimate brings its framework forward */
  vc_command_view_set_model (f->view, "hf:Qwen/Qwen3-8B-GGUF:Qwen3-8B-Q4_K_M.gguf");
  g_object_set (f->estimate, "tp", 1, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (vc_command_view_get_text (f->view), ==,
                   "llama-server -hf Qwen/Qwen3-8B-GGUF -hff Qwen3-8B-Q4_K_M.gguf -ngl all -c 4096 -np 1 -fa on");
  g_object_set (f->estimate, "mode", VC_MODE_TRAINING, "sharding", VC_SHARDING_ZERO_3, "dp", 4, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpuint (vc_command_view_get_engine (f->view), ==, VC_COMMAND_DEEPSPEED);
  copied = copy_and_read (f);
  g_assert_true (g_str_has_prefix (copied, "cat > ds_config.json <<'EOF'\n"));
  g_assert_nonnull (strstr (copied, "    \"stage\": 3\n"));
  g_assert_true (g_str_has_suffix (copied, "torchrun --nproc_per_node=4 train.py --deepspeed ds_config.json "
                                           "--per_device_train_batch_size 1 --gradient_accumulation_steps 1 --bf16\n"));
  g_clear_pointer (&copied, g_free);

  /* a trainer with a config of its own brings it forward: LLaMA-Factory's YAML on the built-in model */
  vc_command_view_set_model (f->view, NULL);
  g_object_set (f->estimate, "trainer", VC_TRAINER_LLAMAFACTORY, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpuint (vc_command_view_get_engine (f->view), ==, VC_COMMAND_LLAMAFACTORY);
  copied = copy_and_read (f);
  g_assert_true (g_str_has_prefix (copied, "cat > train.yaml <<'EOF'\nmodel_name_or_path: Qwen/Qwen3-8B\n"));
  g_assert_nonnull (strstr (copied, "deepspeed: examples/deepspeed/ds_z3_config.json\n"));
  g_assert_true (g_str_has_suffix (copied, "FORCE_TORCHRUN=1 NPROC_PER_NODE=4 llamafactory-cli train train.yaml\n"));
}

/* A model imported from its files: the command names them */
static void
test_imported_model (Fixture       *f,
                     gconstpointer  data)
{
  g_autofree char *dir = g_dir_make_tmp ("vc-gui-command-XXXXXX", NULL);
  g_autofree char *script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "model-files", "make-fixtures.py", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *gguf_path = g_build_filename (dir, "gguf", "tiny-llama-Q4_K_M.gguf", NULL);
  g_autofree char *st_path = g_build_filename (dir, "safetensors", "sharded", NULL);
  g_autoptr(GFile) gguf = g_file_new_for_path (gguf_path);
  g_autoptr(GFile) st = g_file_new_for_path (st_path);
  g_autoptr(GFile) root = g_file_new_for_path (dir);
  g_autofree char *expected = NULL;
  const char *args[] = { python, script, dir, NULL };
  int status = 0;

  g_assert_nonnull (python);
  g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));

  _vc_window_import (f->window, gguf);
  vc_test_wait_while_busy (f->window);
  g_object_set (f->estimate, "seq", 4096, NULL);
  vc_command_view_set_engine (f->view, VC_COMMAND_LLAMA_CPP);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  expected = g_strdup_printf ("llama-server -m %s -ngl all -c 4096 -np 1 -fa on", gguf_path);
  g_assert_cmpstr (vc_command_view_get_text (f->view), ==, expected);

  _vc_window_import (f->window, st);
  vc_test_wait_while_busy (f->window);
  vc_command_view_set_engine (f->view, VC_COMMAND_VLLM);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_clear_pointer (&expected, g_free);
  expected = g_strdup_printf ("vllm serve %s --max-model-len 4096 --gpu-memory-utilization 0.9", st_path);
  g_assert_cmpstr (vc_command_view_get_text (f->view), ==, expected);

  /* a built-in model chosen afterwards: its repository again */
  g_assert_true (vc_estimate_set_preset (f->estimate, "qwen3-8b", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpstr (vc_command_view_get_text (f->view), ==,
                   "vllm serve Qwen/Qwen3-8B --max-model-len 4096 --gpu-memory-utilization 0.9");
  g_assert_true (g_file_query_exists (root, NULL));
  {
    g_autofree char *rm_args_dir = g_strdup (dir);
    const char *rm[] = { "rm", "-rf", rm_args_dir, NULL };

    g_spawn_sync (NULL, (char **) rm, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, NULL, NULL);
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
  g_test_add ("/command-window/copy", Fixture, NULL, fixture_setup, test_copy, fixture_teardown);
  g_test_add ("/command-window/imported-model", Fixture, NULL, fixture_setup, test_imported_model, fixture_teardown);
  return g_test_run ();
}
