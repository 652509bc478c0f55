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
#include "vc-command-view.h"
#include "vc-drop-down.h"
#include "vc-local-gpus.h"
#include "vc-my-gpus.h"
#include "vc-results-view-private.h"
#include "vc-test-util.h"
#include "vc-units.h"
#include "vc-window.h"

static const char *fake_nvml;

typedef struct
{
  VcWindow *window;
  VcEstimate *estimate;
  VcMyGpus *my_gpus;
  VcCommandView *command_view;
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
  f->command_view = VC_COMMAND_VIEW (vc_test_child (results, VC_TYPE_RESULTS_VIEW, "command_view"));
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

static void
write_file (const char *root,
            const char *path,
            const char *text)
{
  g_autofree char *file = g_build_filename (root, path, NULL);
  g_autofree char *dir = g_path_get_dirname (file);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (file, text, -1, NULL));
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
  {
    g_autofree char *custom = NULL;

    g_object_get (f->estimate, "custom-gpus", &custom, NULL);
    g_assert_cmpstr (custom, ==, "NVIDIA GeForce RTX 4090=24564MiB");
  }
  g_assert_cmpfloat (vc_gpu_set_available (vc_estimate_get_gpu_set (f->estimate), 0), ==, 12282.0 * 1048576);
}

/* llama.cpp's own options of the plan: --split-mode, --main-gpu and --n-cpu-moe, from their
 * controls to the estimate, the rows per card and the command. Qwen3 30B-A3B in fp16: 48 layers,
 * 128 experts of 3 × 2048 × 768 weights each per layer, so --n-cpu-moe 10 moves
 * 10 × 128 × 3 × 2048 × 768 × 2 bytes = 12,079,595,520 of experts to RAM (common/arg.cpp's
 * override of blk.0 … blk.9 ffn_(up|down|gate)_exps to the CPU). */
/* Another engine: llama.cpp's options (--n-cpu-moe 10 here) are hidden, and set aside, so
 * vLLM's plan is not refused over a setting the window no longer shows (it once was:
 * "--n-cpu-moe is llama.cpp's", with no control to clear it); back with llama.cpp */
static void
set_aside_and_back (Fixture *f,
                    double   host_before)
{
  VcPlan plan;
  guint n_cpu_moe;

  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "vllm", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (part (f, "llama_grid")));
  g_object_get (f->estimate, "n-cpu-moe", &n_cpu_moe, NULL);
  g_assert_cmpuint (n_cpu_moe, ==, 0);
  g_assert_true (g_str_has_prefix (vc_my_gpus_get_status (f->my_gpus), "Plan (vllm): "));
  g_assert_null (strstr (vc_my_gpus_get_status (f->my_gpus), "refused"));
  g_assert_cmpuint (vc_my_gpus_get_n_rows (f->my_gpus), ==, 3);
  /* and back: llama.cpp's options as they were, in the controls and the plan */
  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "llama.cpp", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (part (f, "llama_grid")));
  g_object_get (f->estimate, "n-cpu-moe", &n_cpu_moe, NULL);
  g_assert_cmpuint (n_cpu_moe, ==, 10);
  g_assert_cmpint (gtk_spin_button_get_value_as_int (GTK_SPIN_BUTTON (part (f, "n_cpu_moe_spin"))), ==, 10);
  g_assert_true (vc_estimate_compute_plan (f->estimate, &plan, NULL));
  g_assert_cmpfloat (plan.host_bytes - host_before, ==, 10.0 * 128 * 3 * 2048 * 768 * 2);
  vc_plan_clear (&plan);
  /* a split typed for llama.cpp, then training (whose plan has no split): set aside too */
  type_into (f, "split_entry", "3,1");
  g_assert_true (vc_estimate_set_from_string (f->estimate, "mode", "training", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  {
    g_autofree char *split = NULL;

    g_object_get (f->estimate, "tensor-split", &split, "n-cpu-moe", &n_cpu_moe, NULL);
    g_assert_cmpstr (split, ==, "");
    g_assert_cmpuint (n_cpu_moe, ==, 0);
    g_assert_null (strstr (vc_my_gpus_get_status (f->my_gpus), "llama.cpp’s"));
    g_assert_true (vc_estimate_set_from_string (f->estimate, "mode", "inference", NULL));
    vc_test_wait_for_frame (GTK_WIDGET (f->window));
    g_clear_pointer (&split, g_free);
    g_object_get (f->estimate, "tensor-split", &split, "n-cpu-moe", &n_cpu_moe, NULL);
    g_assert_cmpstr (split, ==, "3,1");
    g_assert_cmpuint (n_cpu_moe, ==, 10);
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (part (f, "split_entry"))), ==, "3,1");
  }
  /* set aside again, then other inputs as a whole (a profile opened: vc_profile_load() copies
   * them in), on llama.cpp: what was kept belongs to the old inputs and stays out of them */
  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "vllm", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  {
    g_autoptr(VcEstimate) opened = vc_estimate_new ();
    g_autofree char *split = NULL;

    g_assert_true (vc_estimate_set_from_string (opened, "engine", "llama.cpp", NULL));
    vc_estimate_copy_inputs (f->estimate, opened);
    vc_test_wait_for_frame (GTK_WIDGET (f->window));
    g_object_get (f->estimate, "tensor-split", &split, "n-cpu-moe", &n_cpu_moe, NULL);
    g_assert_cmpstr (split, ==, "");
    g_assert_cmpuint (n_cpu_moe, ==, 0);
    g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (part (f, "split_entry"))), ==, "");
  }
}

static void
test_llama_options (Fixture       *f,
                    gconstpointer  data)
{
  VcPlan plan;
  double host_before;
  guint split_mode, main_gpu, n_cpu_moe;

  gtk_expander_set_expanded (GTK_EXPANDER (part (f, "expander")), TRUE);
  g_assert_true (vc_estimate_set_preset (f->estimate, "qwen3-30b-a3b", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "method", "architecture", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "llama.cpp", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "precision", "fp16", NULL));
  add_from_catalog (f, "rtx-3090", 1);
  add_from_catalog (f, "rtx-3060-12gb", 1);
  type_into (f, "ram_entry", "128GB");
  /* llama.cpp loads a GGUF file: the command names one */
  vc_command_view_set_model (f->command_view, "hf:Qwen/Qwen3-30B-A3B-GGUF:Qwen3-30B-A3B-F16.gguf");
  vc_command_view_set_engine (f->command_view, VC_COMMAND_LLAMA_CPP);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));

  /* shown for llama.cpp, each named by its label */
  g_assert_true (gtk_widget_get_visible (part (f, "llama_grid")));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (part (f, "split_mode_drop")),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (part (f, "main_gpu_spin")),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (part (f, "n_cpu_moe_spin")),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  g_assert_cmpstr (vc_command_view_get_text (f->command_view), ==,
                   "llama-server -hf Qwen/Qwen3-30B-A3B-GGUF -hff Qwen3-30B-A3B-F16.gguf -ngl all "
                   "-ts 33,16 -c 2048 -np 1 -fa on");
  g_assert_true (vc_estimate_compute_plan (f->estimate, &plan, NULL));
  host_before = plan.host_bytes;
  vc_plan_clear (&plan);

  /* --n-cpu-moe 10: the experts of layers 0 … 9 leave the first card for the RAM */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (part (f, "n_cpu_moe_spin")), 10);
  g_object_get (f->estimate, "n-cpu-moe", &n_cpu_moe, NULL);
  g_assert_cmpuint (n_cpu_moe, ==, 10);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (vc_estimate_compute_plan (f->estimate, &plan, NULL));
  g_assert_cmpfloat (plan.host_bytes - host_before, ==, 10.0 * 128 * 3 * 2048 * 768 * 2);
  {
    g_autofree char *row = vc_my_gpus_dup_row_text (f->my_gpus, 2);
    g_autofree char *holds = size_text (plan.host_bytes);
    g_autofree char *ram_text = size_text (128e9);
    g_autofree char *want = g_strdup_printf ("System RAM | 0 layers | %s | %s", holds, ram_text);

    g_assert_cmpstr (row, ==, want);
  }
  vc_plan_clear (&plan);
  g_assert_cmpstr (vc_command_view_get_text (f->command_view), ==,
                   "llama-server -hf Qwen/Qwen3-30B-A3B-GGUF -hff Qwen3-30B-A3B-F16.gguf -ngl all "
                   "-ts 33,16 -c 2048 -np 1 -fa on --n-cpu-moe 10");

  /* --split-mode none with --main-gpu 1: the second card alone holds every layer */
  vc_drop_down_set_selected (VC_DROP_DOWN (part (f, "split_mode_drop")), 2);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (part (f, "main_gpu_spin")), 1);
  g_object_get (f->estimate, "split-mode", &split_mode, "main-gpu", &main_gpu, NULL);
  g_assert_cmpuint (split_mode, ==, VC_SPLIT_MODE_NONE);
  g_assert_cmpuint (main_gpu, ==, 1);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  {
    g_autofree char *row0 = vc_my_gpus_dup_row_text (f->my_gpus, 0);
    g_autofree char *row1 = vc_my_gpus_dup_row_text (f->my_gpus, 1);

    g_assert_true (g_str_has_prefix (row0, "RTX 3090 | none | "));
    g_assert_true (g_str_has_prefix (row1, "RTX 3060 12 GB | 0–47 and the output | "));
  }
  g_assert_nonnull (strstr (vc_my_gpus_get_status (f->my_gpus), "does not fit"));
  g_assert_cmpstr (vc_command_view_get_text (f->command_view), ==,
                   "llama-server -hf Qwen/Qwen3-30B-A3B-GGUF -hff Qwen3-30B-A3B-F16.gguf -ngl all "
                   "-sm none -mg 1 -c 2048 -np 1 -fa on --n-cpu-moe 10");

  /* --main-gpu past the set: refused in words */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (part (f, "main_gpu_spin")), 2);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (strstr (vc_my_gpus_get_status (f->my_gpus), "--main-gpu 2: the set has 2 cards"));
  g_assert_cmpuint (vc_my_gpus_get_n_rows (f->my_gpus), ==, 0);

  /* row split is offered and refused by the plan, its reason shown */
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (part (f, "main_gpu_spin")), 0);
  vc_drop_down_set_selected (VC_DROP_DOWN (part (f, "split_mode_drop")), 1);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (strstr (vc_my_gpus_get_status (f->my_gpus),
                            "Plan (llama.cpp) refused: llama.cpp's --split-mode row splits every weight matrix"));
  g_assert_cmpuint (vc_my_gpus_get_n_rows (f->my_gpus), ==, 0);

  /* back to layers: both cards hold layers again */
  vc_drop_down_set_selected (VC_DROP_DOWN (part (f, "split_mode_drop")), 0);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_cmpuint (vc_my_gpus_get_n_rows (f->my_gpus), ==, 3);

  set_aside_and_back (f, host_before);
}

/* "Detect This Computer" on fake trees: the stand-in libnvidia-ml's two cards and a /sys with
 * two AMD cards become My GPUs with what each has free, the GPU table's own cards as well (as
 * --this-computer adds them), and /proc/meminfo the RAM */
static void
test_detect (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *sysfs = vc_test_make_tmpdir ("sysfs");
  g_autofree char *procfs = vc_test_make_tmpdir ("procfs");
  g_autofree char *set = NULL, *ram = NULL, *custom = NULL;
  g_autoptr(GError) error = NULL;
  guint n_catalog;

  if (fake_nvml == NULL)
    {
      g_test_skip ("the stand-in libnvidia-ml is given as the first argument");
      return;
    }
  write_file (sysfs, "class/drm/card0/device/vendor", "0x1002\n");
  write_file (sysfs, "class/drm/card0/device/mem_info_vram_total", "25753026560\n");
  write_file (sysfs, "class/drm/card0/device/product_name", "AMD Radeon RX 7900 XTX\n");
  write_file (sysfs, "class/drm/card0/device/mem_info_vram_used", "4294967296\n");
  write_file (procfs, "meminfo", "MemTotal:       65536000 kB\n");
  /* a card of the user's own already in the table stays first */
  g_assert_true (vc_estimate_set_custom_gpus (f->estimate, "Old card=8GB", NULL));

  g_assert_true (vc_my_gpus_detect (f->my_gpus, sysfs, fake_nvml, procfs, &error));
  g_assert_no_error (error);
  g_object_get (f->estimate, "gpu-set", &set, "host-ram", &ram, "custom-gpus", &custom, NULL);
  g_assert_cmpstr (set, ==, "NVIDIA GeForce RTX 4090=24564MiB/12282MiB,NVIDIA GPU 1=81559MiB/40779MiB,"
                            "AMD Radeon RX 7900 XTX=24560MiB/20464MiB");
  g_assert_cmpstr (ram, ==, "67108864000B");
  g_assert_cmpstr (custom, ==, "Old card=8GB; NVIDIA GeForce RTX 4090=24564MiB; NVIDIA GPU 1=81559MiB; "
                               "AMD Radeon RX 7900 XTX=24560MiB");
  vc_gpus_get_all (&n_catalog);
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n_catalog + 4);
  g_assert_cmpfloat (vc_estimate_get_gpu (f->estimate, n_catalog + 1)->capacity_bytes, ==, 24564.0 * 1048576);
  g_assert_false (gtk_widget_get_visible (part (f, "error_label")));

  /* detected again: the table keeps one of each card */
  g_assert_true (vc_my_gpus_detect (f->my_gpus, sysfs, fake_nvml, procfs, &error));
  g_clear_pointer (&custom, g_free);
  g_object_get (f->estimate, "custom-gpus", &custom, NULL);
  g_assert_cmpuint (vc_estimate_get_n_gpus (f->estimate), ==, n_catalog + 4);

  /* nothing found: said, and the set kept */
  g_assert_false (vc_my_gpus_detect (f->my_gpus, "/nonexistent-sysfs", "libdoes-not-exist-nvml.so.1", procfs, &error));
  g_assert_nonnull (strstr (error->message, "No GPU found"));
  g_clear_pointer (&set, g_free);
  g_object_get (f->estimate, "gpu-set", &set, NULL);
  g_assert_true (g_str_has_prefix (set, "NVIDIA GeForce RTX 4090="));
  vc_test_remove_tree (sysfs);
  vc_test_remove_tree (procfs);
}

/* vLLM's layers per pipeline stage: shown for vLLM alone, named by its label; 22,10 on a 24 GB
 * + 12 GB pair puts layers 22 … 31 on the second card; a sum other than the model's layers is
 * refused in the plan's words, a text that is no list in the error line */
static void
test_vllm_stages (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *stages = NULL;
  g_autofree char *row = NULL;

  gtk_expander_set_expanded (GTK_EXPANDER (part (f, "expander")), TRUE);
  g_assert_true (vc_estimate_set_preset (f->estimate, "llama-3-8b", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "method", "architecture", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "mode", "inference", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "llama.cpp", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_false (gtk_widget_get_visible (part (f, "vllm_grid")));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "vllm", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "precision", "fp16", NULL));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "pp", "2", NULL));
  type_into (f, "set_entry", "A=24GB,B=12GB");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (gtk_widget_get_visible (part (f, "vllm_grid")));
  g_assert_false (gtk_widget_get_visible (part (f, "llama_grid")));
  g_assert_true (gtk_test_accessible_has_relation (GTK_ACCESSIBLE (part (f, "pp_entry")),
                                                   GTK_ACCESSIBLE_RELATION_LABELLED_BY));
  row = vc_my_gpus_dup_row_text (f->my_gpus, 1);
  g_assert_true (g_str_has_prefix (row, "B | 16–31 and the output | "));
  g_assert_cmpstr (vc_my_gpus_get_status (f->my_gpus), ==,
                   "Plan (vllm): fits; B fills first. Layers in proportion to each card’s free memory: 21,11");

  type_into (f, "pp_entry", "22,10");
  g_object_get (f->estimate, "pp-partition", &stages, NULL);
  g_assert_cmpstr (stages, ==, "22,10");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_clear_pointer (&row, g_free);
  row = vc_my_gpus_dup_row_text (f->my_gpus, 1);
  g_assert_true (g_str_has_prefix (row, "B | 22–31 and the output | "));
  /* the Command area states the partition */
  vc_command_view_set_engine (f->command_view, VC_COMMAND_VLLM);
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_true (g_str_has_prefix (vc_command_view_get_text (f->command_view),
                                   "VLLM_PP_LAYER_PARTITION=22,10 vllm serve meta-llama/Meta-Llama-3-8B "
                                   "--pipeline-parallel-size 2 "));
  g_assert_false (gtk_widget_get_visible (part (f, "error_label")));

  /* llama.cpp reads no stage partition: it is set aside, and back with vLLM */
  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "llama.cpp", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_clear_pointer (&stages, g_free);
  g_object_get (f->estimate, "pp-partition", &stages, NULL);
  g_assert_cmpstr (stages, ==, "");
  /* (llama.cpp's plan refuses the layout's PP 2, a control the window shows, not the partition) */
  g_assert_true (g_str_has_prefix (vc_my_gpus_get_status (f->my_gpus), "Plan (llama.cpp)"));
  g_assert_null (strstr (vc_my_gpus_get_status (f->my_gpus), "--pp-partition"));
  g_assert_true (vc_estimate_set_from_string (f->estimate, "engine", "vllm", NULL));
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_clear_pointer (&stages, g_free);
  g_object_get (f->estimate, "pp-partition", &stages, NULL);
  g_assert_cmpstr (stages, ==, "22,10");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (part (f, "pp_entry"))), ==, "22,10");
  g_clear_pointer (&row, g_free);
  row = vc_my_gpus_dup_row_text (f->my_gpus, 1);
  g_assert_true (g_str_has_prefix (row, "B | 22–31 and the output | "));

  type_into (f, "pp_entry", "20,10");
  vc_test_wait_for_frame (GTK_WIDGET (f->window));
  g_assert_nonnull (strstr (vc_my_gpus_get_status (f->my_gpus), "sums to 30 layers, the model has 32"));
  type_into (f, "pp_entry", "20,x");
  g_assert_true (gtk_widget_get_visible (part (f, "error_label")));
  g_assert_nonnull (strstr (gtk_label_get_text (GTK_LABEL (part (f, "error_label"))), "--pp-partition"));
  type_into (f, "pp_entry", "");
  g_assert_false (gtk_widget_get_visible (part (f, "error_label")));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  fake_nvml = argc >= 2 ? argv[1] : NULL;
  if (!gtk_init_check ())
    {
      g_test_skip ("no display: GUI tests need one (build-aux/test runs them under Xvfb)");
      return g_test_run ();
    }

#define ADD(name, func) g_test_add (name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("/my-gpus/set-and-plan", test_set_and_plan);
  ADD ("/my-gpus/this-computer", test_this_computer);
  ADD ("/my-gpus/llama-options", test_llama_options);
  ADD ("/my-gpus/vllm-stages", test_vllm_stages);
  ADD ("/my-gpus/detect", test_detect);
  return g_test_run ();
}
