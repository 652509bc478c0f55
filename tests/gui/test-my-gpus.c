/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "My GPUs" in the real window under a display: cards added from the catalog, the RAM typed,
 * the plan read back card by card (llama.cpp's layer split, src/llama-model.cpp,
 * llama_model::load_tensors: by free memory, 24 GiB and 12 GiB split at 2/3, so layers 0 … 21
 * on the first card since float(il)/33 < 2/3 up to il = 21), a wrong card refused in words,
 * a mixed set refused for training, and this computer's cards with what each has free. */
#include "config.h"

#include <string.h>

#include <gtk/gtk.h>

#include "gui-test-util.h"
#include "vc-catalog.h"
#include "vc-local-gpus.h"
#include "vc-my-gpus.h"
#include "vc-results-view-private.h"
#include "vc-units.h"
#include "vc-window.h"

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  VcMyGpus *my_gpus;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GSettings) settings = g_settings_new (VC_SCHEMA_ID);
  GtkWidget *results;

  g_settings_reset (settings, "last-inputs");
  g_settings_reset (settings, "tab");
  f->window = vc_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1400, 1150);
  f->estimate = vc_window_get_estimate (f->window);
  results = vc_test_window_results (f->window);
  f->my_gpus = VC_MY_GPUS (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "my_gpus"));
  gtk_window_present (GTK_WINDOW (f->window));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  vc_test_destroy_window (f->window);
}

static GtkWidget *
part (Fixture    *f,
      const char *name)
{
  return vc_test_child (f->my_gpus, VC_TYPE_MY_GPUS, name);
}

static void
add_from_catalog (Fixture    *f,
                  const char *id,
                  guint       count)
{
  guint n;
  const VcGpu *all = vc_gpus_get_all (&n);
  guint i = 0;

  while (i < n && !g_str_equal (all[i].id, id))
    i++;
  g_assert_cmpuint (i, <, n);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (part (f, "catalog_drop")), i);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (part (f, "count_spin")), count);
  g_signal_emit_by_name (part (f, "add_button"), "clicked");
}

static void
type_into (Fixture    *f,
           const char *entry,
           const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (part (f, entry)), text);
  g_signal_emit_by_name (part (f, entry), "activate");
}

static char *
size_text (double bytes)
{
  return vc_format_size (bytes, VC_UNIT_GB);
}

static void
test_set_and_plan (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *set = NULL, *ram = NULL;
  g_autofree char *row0 = NULL, *row1 = NULL, *row2 = NULL;
  g_autofree char *want0 = NULL, *want1 = NULL, *want2 = NULL;
  g_autofree char *cap0 = NULL, *cap1 = NULL, *ram_text = NULL;
  VcPlan plan;

  gtk_expander_set_expanded (GTK_EXPANDER (part (f, "expander")), TRUE);
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "method", "architecture", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "llama.cpp", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "precision", "fp16", NULL));
  g_assert_cmpstr (vc_my_gpus_get_status (f->my_gpus), ==,
                   "No cards yet: add them from the catalog, type them, or detect this computer.");

  add_from_catalog (f, "rtx-3090", 1);
  add_from_catalog (f, "rtx-3060-12gb", 1);
  type_into (f, "ram_entry", "64GB");
  g_object_get (f->estimate, "gpu-set", &set, "host-ram", &ram, NULL);
  g_assert_cmpstr (set, ==, "rtx-3090,rtx-3060-12gb");
  g_assert_cmpstr (ram, ==, "64GB");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (part (f, "set_entry"))), ==, "rtx-3090,rtx-3060-12gb");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));

  /* the rows shown are the core's plan */
  g_assert_true (vc_estimate_compute_plan (f->estimate, &plan, NULL));
  g_assert_cmpuint (vc_my_gpus_get_n_rows (f->my_gpus), ==, 3);
  row0 = vc_my_gpus_dup_row_text (f->my_gpus, 0);
  row1 = vc_my_gpus_dup_row_text (f->my_gpus, 1);
  row2 = vc_my_gpus_dup_row_text (f->my_gpus, 2);
  want0 = size_text (vc_plan_get_device (&plan, 0)->bytes);
  want1 = size_text (vc_plan_get_device (&plan, 1)->bytes);
  want2 = size_text (plan.host_bytes);
  cap0 = size_text (24.0 * 1073741824);
  cap1 = size_text (12.0 * 1073741824);
  ram_text = size_text (64e9);
  {
    g_autofree char *e0 = g_strdup_printf ("RTX 3090 | 0–21 | %s | %s", want0, cap0);
    g_autofree char *e1 = g_strdup_printf ("RTX 3060 12 GB | 22–31 and the output | %s | %s", want1, cap1);
    g_autofree char *e2 = g_strdup_printf ("System RAM | 0 layers | %s | %s", want2, ram_text);

    g_assert_cmpstr (row0, ==, e0);
    g_assert_cmpstr (row1, ==, e1);
    g_assert_cmpstr (row2, ==, e2);
  }
  /* the input layer in RAM: the 16-bit token embedding, V·h·2 */
  g_assert_cmpfloat (plan.host_bytes, ==, 2.0 * 128256 * 4096);
  g_assert_true (plan.fits);
  g_assert_nonnull (strstr (vc_my_gpus_get_status (f->my_gpus), "Plan (llama.cpp): fits"));
  vc_plan_clear (&plan);

  /* llama.cpp's --tensor-split typed: 3,1 puts layers 0 … 24 on the first card (il/33 < 0.75) */
  type_into (f, "split_entry", "3,1");
  {
    g_autofree char *split = NULL;
    g_autofree char *row = NULL;

    g_object_get (f->estimate, "tensor-split", &split, NULL);
    g_assert_cmpstr (split, ==, "3,1");
    row = vc_my_gpus_dup_row_text (f->my_gpus, 0);
    g_assert_true (g_str_has_prefix (row, "RTX 3090 | 0–24 | "));
  }
  type_into (f, "split_entry", "3,-1");
  g_assert_true (gtk_widget_get_visible (part (f, "error_label")));
  type_into (f, "split_entry", "");
  g_assert_false (gtk_widget_get_visible (part (f, "error_label")));

  /* a card the catalog lacks: said, and the set kept */
  type_into (f, "set_entry", "rtx-3090,rtx-9999");
  g_assert_true (gtk_widget_get_visible (part (f, "error_label")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (part (f, "error_label"))), "rtx-9999"));
  g_clear_pointer (&set, g_free);
  g_object_get (f->estimate, "gpu-set", &set, NULL);
  g_assert_cmpstr (set, ==, "rtx-3090,rtx-3060-12gb");

  /* two of a card at once */
  add_from_catalog (f, "h100-80gb", 2);
  g_assert_false (gtk_widget_get_visible (part (f, "error_label")));
  g_clear_pointer (&set, g_free);
  g_object_get (f->estimate, "gpu-set", &set, NULL);
  g_assert_cmpstr (set, ==, "rtx-3090,rtx-3060-12gb,h100-80gb:2");
  g_assert_cmpuint (vc_my_gpus_get_n_rows (f->my_gpus), ==, 5);

  /* training refuses a mixed set, in words */
  g_assert_true (vc_estimate_set_from_string (f->estimate, "mode", "training", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (strstr (vc_my_gpus_get_status (f->my_gpus), "Plan (training) refused"));
  g_assert_nonnull (strstr (vc_my_gpus_get_status (f->my_gpus), "mixed set"));
  g_assert_cmpuint (vc_my_gpus_get_n_rows (f->my_gpus), ==, 0);

  g_signal_emit_by_name (part (f, "clear_button"), "clicked");
  g_clear_pointer (&set, g_free);
  g_object_get (f->estimate, "gpu-set", &set, NULL);
  g_assert_cmpstr (set, ==, "");
}

/* this computer's cards become the set, with what each has free, and its memory the RAM */
static void
test_this_computer (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) vc_local_gpu_free);
  g_autoptr(GPtrArray) none = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *set = NULL, *ram = NULL;
  VcLocalGpu *g = g_new0 (VcLocalGpu, 1);

  g->name = g_strdup ("NVIDIA GeForce RTX 4090");
  g->vendor = g_strdup ("NVIDIA");
  g->memory_bytes = 24564.0 * 1048576;
  g->free_bytes = 12282.0 * 1048576;
  g_ptr_array_add (gpus, g);

  g_assert_false (vc_my_gpus_add_local (f->my_gpus, none, 0, &error));
  g_assert_nonnull (strstr (error->message, "No GPU found"));
  g_clear_error (&error);
  g_assert_true (vc_my_gpus_add_local (f->my_gpus, gpus, 68719476736.0, &error));
  g_assert_no_error (error);
  g_object_get (f->estimate, "gpu-set", &set, "host-ram", &ram, NULL);
  g_assert_cmpstr (set, ==, "NVIDIA GeForce RTX 4090=24564MiB/12282MiB");
  g_assert_cmpstr (ram, ==, "68719476736B");
  g_assert_cmpfloat (vc_gpu_set_available (vc_estimate_get_gpu_set (f->estimate), 0), ==, 12282.0 * 1048576);
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
  ADD ("/my-gpus/set-and-plan", test_set_and_plan);
  ADD ("/my-gpus/this-computer", test_this_computer);
  return g_test_run ();
}
