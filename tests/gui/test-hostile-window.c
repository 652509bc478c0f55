/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window against hostile inputs (issue 27): a pipe named *.json is refused at once rather
 * than read forever; a 200-character model name is ellipsized, whole in the tooltip, and the
 * window keeps its width; control characters of a name never reach a label raw; this
 * computer's odd card is left out and said, the others added. Runs under Xvfb with
 * G_DEBUG=fatal-warnings. */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <sys/stat.h>

#include "gui-test-util.h"
#include "vc-gpu-editor.h"
#include "vc-local-gpus.h"
#include "vc-results-view-private.h"
#include "vc-window.h"

static char *tmp_dir;

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        remove_tree (child);
      else
        g_remove (child);
    }
  g_rmdir (path);
}

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
  f->window = vc_test_new_window (1100, 1000, &f->estimate);
  vc_test_present (f->window);
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  vc_test_destroy_window (f->window);
}

/* 6. A FIFO named like a profile: said at once, as the command line says it. */
static void
test_fifo (Fixture       *f,
           gconstpointer  data)
{
  g_autofree char *path = g_build_filename (tmp_dir, "pipe.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  const char *error;

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  vc_window_open_file (f->window, file);
  vc_test_wait_while_busy (f->window);
  error = vc_window_get_error (f->window);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error, "pipe.json is not a regular file (a pipe, device or socket), so not a profile or a model’s config.json"));
  g_remove (path);
}

/* 13 and 12. A long name is ellipsized with the whole in the tooltip; controls escaped. */
static void
test_long_name (Fixture       *f,
                gconstpointer  data)
{
  GtkWidget *results = vc_test_window_results (f->window);
  GtkLabel *title = GTK_LABEL (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "title"));
  g_autofree char *name = g_strnfill (200, 'M');
  const char *tooltip;
  int width;

  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  width = gtk_widget_get_width (GTK_WIDGET (f->window));
  vc_estimate_set_model_name (f->estimate, name);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (f->window)), <=, width);
  g_assert_cmpint (gtk_label_get_ellipsize (title), ==, PANGO_ELLIPSIZE_END);
  tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (title));
  g_assert_nonnull (strstr (tooltip, name));

  vc_estimate_set_model_name (f->estimate, "evil\x1b[2J\rFITS");
  g_assert_true (g_str_has_prefix (gtk_label_get_label (title), "evil\\e[2J\\rFITS · "));
}

static VcLocalGpu *
local_gpu (const char *name,
           double      mib)
{
  VcLocalGpu *gpu = g_new0 (VcLocalGpu, 1);

  gpu->name = g_strdup (name);
  gpu->vendor = g_strdup ("AMD");
  gpu->memory_bytes = mib * 1048576.0;
  return gpu;
}

/* 14. An APU's 64 MiB carve-out is left out and said; the other card is added. */
static void
test_odd_local_card (Fixture       *f,
                     gconstpointer  data)
{
  VcGpuEditor *editor = _vc_results_view_ensure_gpu_editor (VC_RESULTS_VIEW (vc_test_window_results (f->window)));
  g_autoptr(GPtrArray) gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) vc_local_gpu_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *custom = NULL;
  GtkLabel *label;

  g_ptr_array_add (gpus, local_gpu ("AMD Radeon 780M", 64));
  g_ptr_array_add (gpus, local_gpu ("AMD Radeon RX 7900 XTX", 24560));
  g_assert_true (vc_gpu_editor_add_local (editor, gpus, &error));
  g_assert_no_error (error);
  g_object_get (f->estimate, "custom-gpus", &custom, NULL);
  g_assert_cmpstr (custom, ==, "AMD Radeon RX 7900 XTX=24560MiB");
  label = GTK_LABEL (vc_test_child (editor, VC_TYPE_GPU_EDITOR, "error_label"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (label)));
  g_assert_cmpstr (gtk_label_get_label (label), ==,
                   "“AMD Radeon 780M” is left out: its 64 MiB of memory is outside the 0.1 GB to 100000 GB a GPU may have");
}

/* 8. After a GGUF's import, an architecture edited away from the file's tensors is refused in
 * the window too: the file's figures are never shown for another model. */
static void
test_edit_after_import (Fixture       *f,
                        gconstpointer  data)
{
  g_autofree char *script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hostile", "make-hostile.py", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *dir = g_build_filename (tmp_dir, "files", NULL);
  g_autofree char *path = g_build_filename (dir, "control-name.gguf", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWidget *results = vc_test_window_results (f->window);
  GtkLabel *problem = GTK_LABEL (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "problem"));
  const char *args[] = { python, script, dir, NULL };
  int status = 0;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  vc_window_open_file (f->window, file);
  vc_test_wait_while_busy (f->window);
  g_assert_null (vc_window_get_error (f->window));
  g_assert_cmpfloat (vc_estimate_get_selected (f->estimate)->bytes[VC_COMPONENT_WEIGHTS], ==, 1107152);

  g_object_set (f->estimate, "layers", 80, NULL);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (problem)));
  g_assert_nonnull (strstr (gtk_label_get_label (problem), "the model's files 1.693e+06: the file's figures would be shown for another model"));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  tmp_dir = g_dir_make_tmp ("vc-test-hostile-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display: GUI tests need one (build-aux/test runs them under Xvfb)");
      return g_test_run ();
    }
#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/hostile-window/fifo", test_fifo);
  ADD ("/hostile-window/long-name", test_long_name);
  ADD ("/hostile-window/odd-local-card", test_odd_local_card);
  ADD ("/hostile-window/edit-after-import", test_edit_after_import);
  status = g_test_run ();
  remove_tree (tmp_dir);
  return status;
}
