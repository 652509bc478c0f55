/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The estimate model object: properties, ranges, recomputation once per burst, presets,
 * breakdown model, copying, no leaks. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "vc-component-row.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-estimate-private.h"
#include "vc-formula.h"
#include "vc-solver.h"
#include "vc-units.h"

static void
count_cb (gpointer  instance,
          gpointer  user_data)
{
  (*(guint *) user_data)++;
}

static void
count_items_cb (GListModel *model,
                guint       position,
                guint       removed,
                guint       added,
                gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
count_notify_cb (GObject    *object,
                 GParamSpec *pspec,
                 gpointer    user_data)
{
  (*(guint *) user_data)++;
}

static void
test_defaults (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  double total;
  VcScenario scenario;

  /* a new estimate is the seed's 7B example */
  g_object_get (e, "total-bytes", &total, "scenario", &scenario, NULL);
  g_assert_cmpfloat (total, ==, 18.8e9);
  g_assert_cmpint (scenario, ==, VC_SCENARIO_INFERENCE_16BIT);
  g_assert_cmpstr (vc_estimate_get_preset (e), ==, "");
  g_assert_cmpuint (g_list_model_get_n_items (vc_estimate_get_breakdown (e)), ==, 4);
  g_assert_finalize_object (g_steal_pointer (&e));
}

static void
test_burst (void)
{
  VcEstimate *e = vc_estimate_new ();
  guint changed = 0, total_notifies = 0;
  double total;

  g_signal_connect (e, "changed", G_CALLBACK (count_cb), &changed);
  g_signal_connect (e, "notify::total-bytes", G_CALLBACK (count_notify_cb), &total_notifies);

  g_object_set (e, "batch", 2, "seq", 4096, "concurrency", 3, NULL);
  g_object_set (e, "parameters", 14e9, NULL);
  g_assert_cmpuint (changed, ==, 0);
  /* one recomputation for the whole burst, in the next main-loop iteration */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpuint (total_notifies, ==, 1);
  g_object_get (e, "total-bytes", &total, NULL);
  g_assert_cmpfloat (total, ==, 28e9 + 2.8e9 * 4 + 2.8e9 * 12 + 2e9);

  /* reading a result without a main loop recomputes at once */
  g_object_set (e, "parameters", 7e9, "batch", 1, "seq", 2048, "concurrency", 1, NULL);
  g_object_get (e, "total-bytes", &total, NULL);
  g_assert_cmpfloat (total, ==, 18.8e9);
  g_assert_cmpuint (changed, ==, 2);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (changed, ==, 2);

  /* setting a value it already has changes nothing */
  g_object_set (e, "batch", 1, NULL);
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (changed, ==, 2);
  g_assert_finalize_object (e);
}

static void
test_pspec_ranges (void)
{
  g_autoptr(GTypeClass) type_class = g_type_class_ref (VC_TYPE_ESTIMATE);
  GObjectClass *klass = G_OBJECT_CLASS (type_class);
  GParamSpec *p;

  p = g_object_class_find_property (klass, "batch");
  g_assert_cmpuint (G_PARAM_SPEC_UINT (p)->minimum, ==, 1);
  g_assert_cmpuint (G_PARAM_SPEC_UINT (p)->default_value, ==, 1);
  p = g_object_class_find_property (klass, "seq");
  g_assert_cmpuint (G_PARAM_SPEC_UINT (p)->maximum, >=, 10000000);
  p = g_object_class_find_property (klass, "parameters");
  g_assert_cmpfloat (G_PARAM_SPEC_DOUBLE (p)->maximum, >=, 100e12);
  g_assert_cmpfloat (G_PARAM_SPEC_DOUBLE (p)->default_value, ==, 7e9);
  p = g_object_class_find_property (klass, "layers");
  g_assert_nonnull (p);
  g_assert_cmpuint (G_PARAM_SPEC_UINT (p)->default_value, ==, 32);
  g_assert_true (p->flags & G_PARAM_EXPLICIT_NOTIFY);
  /* vLLM's profile-run sampler: the sort by default, FlashInfer's the other choice */
  p = g_object_class_find_property (klass, "vllm-sampler");
  g_assert_cmpint (G_PARAM_SPEC_ENUM (p)->default_value, ==, VC_VLLM_SAMPLER_SORT);
  g_assert_nonnull (g_enum_get_value_by_nick (G_PARAM_SPEC_ENUM (p)->enum_class, "flashinfer"));
  g_assert_cmpuint (G_PARAM_SPEC_ENUM (p)->enum_class->n_values, ==, 2);
  g_assert_true (p->flags & G_PARAM_EXPLICIT_NOTIFY);
  p = g_object_class_find_property (klass, "total-bytes");
  g_assert_false (p->flags & G_PARAM_WRITABLE);
}

static void
test_rejections (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  static const struct { const char *prop, *value, *expect; } bad[] = {
    { "batch", "0", "accepted: a whole number from 1 to" },
    { "batch", "2.5", "batch" },
    { "batch", "many", "accepted: a whole number" },
    { "seq", "-5", "seq" },
    { "parameters", "abc", "accepted: a number from" },
    { "parameters", "2000T", "out of range for parameters" },
    { "precision", "fp7", "accepted: fp32, fp16, bf16, fp8, int8, int4" },
    { "optimizer", "adagrad", "adamw-8bit" },
    { "lora-targets", "q,x", "all-linear" },
    { "flash-attention", "maybe", "true or false" },
    { "overhead-gb", "nan", "overhead-gb" },
    { "preset", "gpt-5", "unknown preset" },
    { "layers", "0", "layers" },
    { "no-such-input", "1", "unknown input" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      double before, after;

      g_object_get (e, "total-bytes", &before, NULL);
      g_assert_false (vc_estimate_set_from_string (e, bad[i].prop, bad[i].value, &error));
      g_assert_nonnull (error);
      g_test_message ("%s=%s: %s", bad[i].prop, bad[i].value, error->message);
      g_assert_nonnull (strstr (error->message, bad[i].expect));
      g_clear_error (&error);
      g_object_get (e, "total-bytes", &after, NULL);
      g_assert_cmpfloat (before, ==, after);
    }

  /* counts accept suffixes and exponents */
  g_assert_true (vc_estimate_set_from_string (e, "parameters", "1.5T", &error));
  g_assert_cmpfloat (vc_estimate_get_inputs (e)->parameters, ==, 1.5e12);
  g_assert_true (vc_estimate_set_from_string (e, "parameters", "124M", &error));
  g_assert_cmpfloat (vc_estimate_get_inputs (e)->parameters, ==, 124e6);
  g_assert_true (vc_estimate_set_from_string (e, "parameters", "7e9", &error));
  g_assert_cmpfloat (vc_estimate_get_inputs (e)->parameters, ==, 7e9);
  g_assert_true (vc_estimate_set_from_string (e, "lora-targets", "q_proj,v_proj", &error));
  g_assert_cmpuint (vc_estimate_get_inputs (e)->lora_targets, ==, VC_LORA_TARGET_Q | VC_LORA_TARGET_V);
  g_assert_no_error (error);
}

static void
test_cross_checks (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;

  /* each tab has its own precision: 4-bit inference weights leave training valid and
   * untouched (training runs in the default bf16: the seed's 7B full fine-tuning, 87.4 GB) */
  g_object_set (e, "mode", VC_MODE_TRAINING, "finetune", VC_FINETUNE_FULL, "precision", VC_PRECISION_INT4,
                "parameters", 7e9, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  g_assert_no_error (error);
  g_assert_cmpint (vc_estimate_get_inputs (e)->training_precision, ==, VC_TRAINING_PRECISION_BF16);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->total, ==, 87.4e9);
  g_assert_false (vc_estimate_set_from_string (e, "training-precision", "int4", &error));
  g_assert_nonnull (strstr (error->message, "accepted: fp32, fp16, bf16"));
  g_clear_error (&error);

  g_object_set (e, "mode", VC_MODE_INFERENCE, "model-type", VC_MODEL_TYPE_MOE,
                "parameters", 10e9, "active-parameters", 20e9, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_nonnull (strstr (error->message, "activated"));
  g_clear_error (&error);

  g_object_set (e, "active-parameters", 2e9, "method", VC_METHOD_ARCHITECTURE,
                "heads", 32, "kv-heads", 5, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_nonnull (strstr (error->message, "kv-heads"));
}

static void
test_preset (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  guint notifies = 0;
  double params;

  g_signal_connect (e, "notify::preset", G_CALLBACK (count_notify_cb), &notifies);
  g_assert_true (vc_estimate_set_preset (e, "llama-3-8b", &error));
  g_assert_cmpuint (notifies, ==, 1);
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, NULL);
  g_object_get (e, "model-parameters", &params, NULL);
  g_assert_cmpfloat (params, ==, 8030261248.0);
  g_assert_cmpfloat (vc_estimate_get_inputs (e)->parameters, ==, 8030261248.0);
  g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.n_kv_heads, ==, 8);
  g_assert_cmpstr (vc_estimate_get_model_name (e), ==, "Llama 3 8B");

  /* editing the architecture leaves the preset for a custom model */
  g_object_set (e, "layers", 40, NULL);
  g_assert_cmpstr (vc_estimate_get_preset (e), ==, "");
  g_assert_cmpuint (notifies, ==, 2);

  /* an unknown preset leaves everything as it was */
  g_assert_false (vc_estimate_set_preset (e, "nope", &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_UNKNOWN_ID);
  g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.n_layers, ==, 40);
}

static void
test_breakdown_and_selection (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  GListModel *rows = vc_estimate_get_breakdown (e);
  g_autoptr(VcComponentRow) row = NULL;
  guint items_changed = 0;

  g_signal_connect (rows, "items-changed", G_CALLBACK (count_items_cb), &items_changed);
  g_object_set (e, "mode", VC_MODE_TRAINING, NULL);
  vc_estimate_flush (e);
  /* training shows weights, activations, gradients, optimizer and overhead */
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 5);
  g_assert_cmpuint (items_changed, ==, 1);
  row = g_list_model_get_item (rows, 0);
  g_assert_cmpstr (vc_component_row_get_id (row), ==, "weights");
  g_assert_cmpfloat (vc_component_row_get_bytes (row), ==, 14e9);   /* LoRA selected */
  g_assert_cmpfloat (fabs (vc_component_row_get_share (row) - 14.0 / 18.1), <, 1e-9);
  {
    g_autofree char *formula = vc_formula_describe (e, vc_estimate_get_result (e)->selected,
                                                    vc_component_row_get_component (row), VC_UNIT_GB);
    g_assert_nonnull (strstr (formula, "bits"));
  }

  /* selecting the QLoRA 4-bit scenario updates the same rows in place */
  vc_estimate_select_scenario (e, VC_SCENARIO_QLORA_4BIT);
  vc_estimate_flush (e);
  g_assert_cmpint (vc_estimate_get_inputs (e)->finetune, ==, VC_FINETUNE_QLORA_4BIT);
  g_assert_cmpfloat (vc_component_row_get_bytes (row), ==, 3.5e9);
  g_assert_cmpuint (items_changed, ==, 1);

  /* mixed precision adds the master-weights row */
  g_object_set (e, "mixed-precision", TRUE, NULL);
  vc_estimate_flush (e);
  g_assert_cmpuint (g_list_model_get_n_items (rows), ==, 6);

  vc_estimate_select_scenario (e, VC_SCENARIO_INFERENCE_4BIT);
  g_object_set (e, "mode", VC_MODE_INFERENCE, NULL);
  vc_estimate_flush (e);
  g_assert_cmpint (vc_estimate_get_selected (e)->id, ==, VC_SCENARIO_INFERENCE_4BIT);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->total, ==, 8.3e9);
}

static void
test_copy_inputs (void)
{
  g_autoptr(VcEstimate) a = vc_estimate_new ();
  g_autoptr(VcEstimate) b = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *targets = NULL;

  g_assert_true (vc_estimate_set_preset (a, "mixtral-8x7b", &error));
  g_object_set (a, "mode", VC_MODE_TRAINING, "seq", 8192, "optimizer", VC_OPTIMIZER_SGD,
                "lora-rank", 64, NULL);
  g_assert_false (vc_estimate_inputs_equal (a, b));
  vc_estimate_copy_inputs (b, a);
  g_assert_cmpstr (vc_estimate_get_preset (b), ==, "mixtral-8x7b");
  g_assert_true (vc_estimate_inputs_equal (a, b));
  g_assert_cmpfloat (vc_estimate_get_selected (a)->total, ==, vc_estimate_get_selected (b)->total);

  /* the text form of an input reads back through vc_estimate_set_from_string() */
  g_object_set (a, "lora-targets", VC_LORA_TARGET_Q | VC_LORA_TARGET_V | VC_LORA_TARGET_DOWN, NULL);
  targets = vc_estimate_dup_input_string (a, "lora-targets");
  g_assert_cmpstr (targets, ==, "q,v,down");
  g_assert_true (vc_estimate_set_from_string (b, "lora-targets", targets, &error));
  g_assert_no_error (error);
  g_assert_true (vc_estimate_inputs_equal (a, b));
}

/* "inputs-replaced" comes once per vc_estimate_copy_inputs(), with the new values in and before
 * the notifications of what changed; a plain edit of an input does not emit it */
typedef struct
{
  guint replaced;
  guint notified;
  guint notified_at_replace;
  guint seq_at_replace;
} ReplaceLog;

static void
on_inputs_replaced (VcEstimate *e,
                    ReplaceLog *log)
{
  log->replaced++;
  log->notified_at_replace = log->notified;
  log->seq_at_replace = vc_estimate_get_inputs (e)->seq;
}

static void
on_notify_seq (VcEstimate *e,
               GParamSpec *pspec,
               ReplaceLog *log)
{
  log->notified++;
}

static void
test_inputs_replaced (void)
{
  g_autoptr(VcEstimate) a = vc_estimate_new ();
  g_autoptr(VcEstimate) b = vc_estimate_new ();
  ReplaceLog log = { 0 };

  g_signal_connect (b, "inputs-replaced", G_CALLBACK (on_inputs_replaced), &log);
  g_signal_connect (b, "notify::seq", G_CALLBACK (on_notify_seq), &log);
  g_object_set (b, "seq", 4096, NULL);
  g_assert_cmpuint (log.replaced, ==, 0);
  g_assert_cmpuint (log.notified, ==, 1);

  g_object_set (a, "seq", 8192, NULL);
  vc_estimate_copy_inputs (b, a);
  g_assert_cmpuint (log.replaced, ==, 1);
  g_assert_cmpuint (log.seq_at_replace, ==, 8192);
  g_assert_cmpuint (log.notified_at_replace, ==, 1);
  g_assert_cmpuint (log.notified, ==, 2);
  /* the same inputs again: still replaced as a whole */
  vc_estimate_copy_inputs (b, a);
  g_assert_cmpuint (log.replaced, ==, 2);
  g_assert_cmpuint (log.notified, ==, 2);
}

static void
test_gpu_fits (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  gboolean some_fit = FALSE, some_not = FALSE;

  g_assert_cmpuint (vc_estimate_get_n_gpus (e), >=, 17);
  for (guint i = 0; i < vc_estimate_get_n_gpus (e); i++)
    {
      const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, i);

      some_fit |= fit->fits;
      some_not |= !fit->fits;
      g_assert_cmpfloat (fit->count, >=, 1);
      g_assert_cmpfloat (fit->per_gpu_bytes, <=, fit->capacity_bytes);
    }
  g_assert_true (some_fit && some_not);
}

/* Sizes keep three significant digits and a unit up to yottabytes; the compact form is left
 * for what lies beyond (README, "GPU sizes") */
static void
test_size_format (void)
{
  static const struct { double bytes; VcUnit unit; const char *text; } cases[] = {
    { 999, VC_UNIT_GB, "999 bytes" },
    { 999.6e3, VC_UNIT_GB, "1.00\u00a0MB" },
    { 1341890000000, VC_UNIT_GB, "1.34\u00a0TB" },
    { 136718750000000000000.0, VC_UNIT_GB, "137\u00a0EB" },
    { 1.5e22, VC_UNIT_GB, "15.0\u00a0ZB" },
    { 6.8359375e25, VC_UNIT_GB, "68.4\u00a0YB" },
    { 999.4e24, VC_UNIT_GB, "999\u00a0YB" },
    { 1e31, VC_UNIT_GB, "1.00 × 10⁷\u00a0YB" },
    { 119.0 * 1152921504606846976.0, VC_UNIT_GIB, "119\u00a0EiB" },
    { 6.8359375e25, VC_UNIT_GIB, "56.5\u00a0YiB" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = vc_format_size (cases[i].bytes, cases[i].unit);

      g_assert_cmpstr (text, ==, cases[i].text);
    }
}

/* The check is the estimate's, answered again after every change: before the first
 * recomputation (as vramcalc asks it), after it, and once the inputs go together again */
static void
test_check_follows_inputs (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_estimate_set_preset (e, "llama-3-8b", NULL));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "tp", 3, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  g_assert_nonnull (strstr (error->message, "TP (3) must divide the attention heads (32)"));
  g_clear_error (&error);
  vc_estimate_flush (e);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_nonnull (strstr (error->message, "TP (3)"));
  g_clear_error (&error);
  /* without an error to fill */
  g_assert_false (vc_estimate_check (e, NULL));
  g_object_set (e, "tp", 2, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  g_assert_no_error (error);
  vc_estimate_flush (e);
  g_assert_true (vc_estimate_check (e, NULL));
  g_object_set (e, "pp", 40, NULL);
  vc_estimate_flush (e);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_nonnull (strstr (error->message, "PP (40) cannot exceed the layers (32)"));
}

/* The solver searches up to the largest value the property accepts: one limit for both */
static void
test_solver_limits (void)
{
  static const char *names[] = { "seq", "batch", "concurrency" };
  g_autoptr(GTypeClass) klass = g_type_class_ref (VC_TYPE_ESTIMATE);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GParamSpec *pspec = g_object_class_find_property (G_OBJECT_CLASS (klass), names[i]);

      g_assert_cmpuint (G_PARAM_SPEC_UINT (pspec)->maximum, ==, vc_solver_input_max (i));
    }
  g_assert_cmpuint (vc_solver_input_max (VC_SOLVE_VARIABLE_SEQ), ==, 100000000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/estimate/defaults", test_defaults);
  g_test_add_func ("/estimate/burst", test_burst);
  g_test_add_func ("/estimate/pspec-ranges", test_pspec_ranges);
  g_test_add_func ("/estimate/rejections", test_rejections);
  g_test_add_func ("/estimate/cross-checks", test_cross_checks);
  g_test_add_func ("/estimate/preset", test_preset);
  g_test_add_func ("/estimate/breakdown-and-selection", test_breakdown_and_selection);
  g_test_add_func ("/estimate/copy-inputs", test_copy_inputs);
  g_test_add_func ("/estimate/inputs-replaced", test_inputs_replaced);
  g_test_add_func ("/estimate/gpu-fits", test_gpu_fits);
  g_test_add_func ("/estimate/size-format", test_size_format);
  g_test_add_func ("/estimate/check-follows-inputs", test_check_follows_inputs);
  g_test_add_func ("/estimate/solver-limits", test_solver_limits);
  return g_test_run ();
}
