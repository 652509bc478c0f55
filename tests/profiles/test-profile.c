/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-profile.c: estimate profiles: round trips of every input (API, the open-profile object
 * and vramcalc), the bad-profile corpus (each rejected with its message, the current estimate
 * untouched), unknown keys, and saves that fail without harming the previous file. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include "vc-arch.h"
#include "vc-catalog.h"
#include "vc-engine.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-profile.h"
#include "vc-test-util.h"

/* ---- helpers ------------------------------------------------------------------------------- */

static char *
corpus_path (const char *name)
{
  const char *srcdir = g_getenv ("VC_TESTS_SRCDIR");

  g_assert_nonnull (srcdir);
  return g_build_filename (srcdir, "profiles", name, NULL);
}

static guint
count_entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

static char *
value_text (VcEstimate *estimate,
            GParamSpec *pspec)
{
  g_auto(GValue) v = G_VALUE_INIT;

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (estimate), pspec->name, &v);
  if (G_VALUE_HOLDS_DOUBLE (&v))
    return g_strdup_printf ("%.17g", g_value_get_double (&v));
  return g_strdup_value_contents (&v);
}

/* Compares every input, naming the first that differs. */
static void
assert_inputs_equal (VcEstimate *expected,
                     VcEstimate *actual)
{
  g_autofree GParamSpec **inputs = NULL;
  guint n;

  inputs = vc_estimate_list_inputs (&n);
  g_assert_cmpuint (n, >, 40);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *a = value_text (expected, inputs[i]);
      g_autofree char *b = value_text (actual, inputs[i]);

      if (g_strcmp0 (a, b) != 0)
        g_error ("input %s: expected %s, got %s", inputs[i]->name, a, b);
    }
  g_assert_true (vc_estimate_inputs_equal (expected, actual));
}

/* The inputs every_input_estimate() leaves at their defaults: the optimizer step in the
 * backward pass is refused with the gradient accumulation and the GPUs set there, context
 * parallelism and packing with the trainer set there (their own round trips below), a
 * projector file's figures with the engine set there, not llama.cpp (their round trip through a
 * profile: tests/model-files, /model-files/mmproj/profile), and the model file's warning, which
 * vramcalc prints on stderr (a Gemma 3 GGUF's, in the same test). */
static gboolean
kept_default (const char *name)
{
  static const char *const names[] = { "preset", "optimizer-in-backward", "cp", "packing", "mmproj",
                                       "mmproj-projector", "mmproj-bytes", "mmproj-parameters", "model-warning",
                                       NULL };

  return g_strv_contains (names, name);
}

/* The inputs that must agree with others, set once those are: the sliding-window pattern with
 * the count of windowed layers (every other layer slides), and the model file's figures with
 * the architecture */
static void
set_agreeing_inputs (VcEstimate *e)
{
  VcParamCounts counts;
  guint layers;

  g_object_get (e, "layers", &layers, NULL);
  g_object_set (e, "sliding-window-pattern", 2u, "sliding-window-layers", layers - layers / 2, NULL);
  vc_arch_count_params (&vc_estimate_get_inputs (e)->arch, &counts);
  g_object_set (e, "source-format", "gguf", "source-quantization", "Modèle « 8×7B », \"v2\"\nsecond line",
                "source-parameters", counts.total, "source-active-parameters", counts.total / 3,
                "source-weights-bytes", counts.total * 2 / 3, "source-precision", VC_PRECISION_FP16, NULL);
}

/* An estimate in which every input but the preset differs from its default, passing
 * vc_estimate_check() so that vramcalc accepts it too. */
static VcEstimate *
every_input_estimate (void)
{
  VcEstimate *e = vc_estimate_new ();
  g_autofree GParamSpec **inputs = NULL;
  g_autoptr(GError) error = NULL;
  guint n;

  inputs = vc_estimate_list_inputs (&n);
  for (guint i = 0; i < n; i++)
    {
      GParamSpec *p = inputs[i];
      g_auto(GValue) v = G_VALUE_INIT;

      /* the model file's figures agree with each other and with the architecture: set last */
      if (kept_default (p->name) || g_str_has_prefix (p->name, "source-"))
        continue;
      g_value_init (&v, p->value_type);
      if (G_IS_PARAM_SPEC_ENUM (p))
        {
          GEnumClass *klass = G_PARAM_SPEC_ENUM (p)->enum_class;
          guint k = 0;

          while (klass->values[k].value != G_PARAM_SPEC_ENUM (p)->default_value)
            k++;
          g_value_set_enum (&v, klass->values[(k + 1) % klass->n_values].value);
        }
      else if (G_IS_PARAM_SPEC_FLAGS (p))
        {
          guint flags = VC_LORA_TARGET_Q | VC_LORA_TARGET_V | VC_LORA_TARGET_DOWN;

          if (flags == G_PARAM_SPEC_FLAGS (p)->default_value)
            flags = VC_LORA_TARGET_Q;
          g_value_set_flags (&v, flags);
        }
      else if (G_IS_PARAM_SPEC_BOOLEAN (p))
        g_value_set_boolean (&v, !G_PARAM_SPEC_BOOLEAN (p)->default_value);
      else if (g_str_equal (p->name, "max-context"))
        /* off its default, and longer than the sequence: no warning on the way */
        g_value_set_uint (&v, 1000000);
      else if (g_str_equal (p->name, "attention-layer-period"))
        /* the offset (default + 1) below it; the mixers run beside attention: not counted */
        g_value_set_uint (&v, 2);
      else if (G_IS_PARAM_SPEC_UINT (p))
        {
          GParamSpecUInt *u = G_PARAM_SPEC_UINT (p);
          g_value_set_uint (&v, u->default_value < u->maximum ? u->default_value + 1 : u->default_value - 1);
        }
      else if (G_IS_PARAM_SPEC_DOUBLE (p) && g_str_equal (p->name, "overhead-gb"))
        /* -1 is the default and other negatives are refused: a third of a GB */
        g_value_set_double (&v, 1.0 / 3);
      else if (G_IS_PARAM_SPEC_DOUBLE (p))
        {
          /* a third: no short decimal form, so only an exact round trip keeps it */
          GParamSpecDouble *d = G_PARAM_SPEC_DOUBLE (p);
          g_value_set_double (&v, d->default_value + 1.0 / 3 <= d->maximum ? d->default_value + 1.0 / 3
                                                                            : d->default_value - 1.0 / 3);
        }
      else if (G_IS_PARAM_SPEC_STRING (p) && g_str_equal (p->name, "custom-gpus"))
        g_value_set_string (&v, "Lab card «A», rev 2=24GB;Old card=11.5GiB");
      else if (G_IS_PARAM_SPEC_STRING (p) && g_str_equal (p->name, "chart-gpus"))
        g_value_set_string (&v, "Lab card «A», rev 2;h200");
      else if (G_IS_PARAM_SPEC_STRING (p) && g_str_equal (p->name, "gpu-set"))
        g_value_set_string (&v, "rtx-3090,Lab card «A» rev 2=24GB/20GB:2");
      else if (G_IS_PARAM_SPEC_STRING (p) && g_str_equal (p->name, "host-ram"))
        g_value_set_string (&v, "59.6GiB");
      else if (G_IS_PARAM_SPEC_STRING (p) && g_str_equal (p->name, "tensor-split"))
        g_value_set_string (&v, "3,1.5,1");
      else if (G_IS_PARAM_SPEC_STRING (p) && g_str_equal (p->name, "pp-partition"))
        g_value_set_string (&v, "20,8,4");
      else if (G_IS_PARAM_SPEC_STRING (p))
        g_value_set_string (&v, "Modèle « 8×7B », \"v2\"\nsecond line");
      else
        g_assert_not_reached ();
      vc_estimate_set_value (e, p->name, &v, &error);
      g_assert_no_error (error);
    }
  set_agreeing_inputs (e);

  for (guint i = 0; i < n; i++)
    {
      g_auto(GValue) v = G_VALUE_INIT;

      if (kept_default (inputs[i]->name))
        continue;
      g_value_init (&v, inputs[i]->value_type);
      g_object_get_property (G_OBJECT (e), inputs[i]->name, &v);
      if (g_param_value_defaults (inputs[i], &v))
        g_error ("input %s still has its default", inputs[i]->name);
    }
  vc_estimate_check (e, &error);
  g_assert_no_error (error);
  return e;
}

static char *
read_text (const char *path)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
count_changed (VcEstimate *estimate,
               guint      *count)
{
  (*count)++;
}

/* ---- round trips --------------------------------------------------------------------------- */

static void
test_round_trip_api (void)
{
  g_autoptr(VcEstimate) source = every_input_estimate ();
  g_autoptr(VcEstimate) target = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL, *name = NULL, *notes = NULL, *again = NULL;
  const char *odd_name = "Plan « A », \"quoted\" \\ / \t tab";
  const char *odd_notes = "line 1\nline 2\r\nemoji \360\237\232\200 and NUL-free UTF-8";
  VcUnit unit = VC_UNIT_GB;
  gsize length;

  data = vc_profile_serialize (source, odd_name, odd_notes, VC_UNIT_GIB, &length);
  g_assert_cmpuint (length, ==, strlen (data));
  g_assert_true (g_str_has_suffix (data, "}\n"));
  g_assert_true (vc_profile_parse (data, length, target, &name, &notes, &unit, &error));
  g_assert_no_error (error);
  assert_inputs_equal (source, target);
  g_assert_cmpstr (name, ==, odd_name);
  g_assert_cmpstr (notes, ==, odd_notes);
  g_assert_cmpint (unit, ==, VC_UNIT_GIB);

  /* writing what was read gives the same bytes */
  again = vc_profile_serialize (target, name, notes, unit, NULL);
  g_assert_cmpstr (again, ==, data);
}

/* The input every_input_estimate() leaves at its default: kept too. */
static void
test_round_trip_optimizer_in_backward (void)
{
  g_autoptr(VcEstimate) source = vc_estimate_new ();
  g_autoptr(VcEstimate) target = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gboolean in_backward = FALSE;
  gsize length;

  g_object_set (source, "mode", VC_MODE_TRAINING, "optimizer-in-backward", TRUE, NULL);
  data = vc_profile_serialize (source, "p", "", VC_UNIT_GB, &length);
  g_assert_nonnull (strstr (data, "\"optimizer-in-backward\" : true"));
  g_assert_true (vc_profile_parse (data, length, target, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_object_get (target, "optimizer-in-backward", &in_backward, NULL);
  g_assert_true (in_backward);
}

/* vLLM's MXFP4 backend (--mxfp4-backend): kept, and the estimate read back pads an H100 as the
 * saved one did */
static void
test_round_trip_mxfp4_backend (void)
{
  g_autoptr(VcEstimate) source = vc_estimate_new ();
  g_autoptr(VcEstimate) target = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  VcMxfp4Backend backend = VC_MXFP4_BACKEND_AUTO;
  const char *bad = "{\"format\": \"vram-calculator-profile\", \"version\": 2, \"inputs\": {\"mxfp4-backend\": \"cutlass\"}}";
  gsize length;

  g_assert_true (vc_estimate_set_preset (source, "gpt-oss-20b", &error));
  g_object_set (source, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "mxfp4-backend", VC_MXFP4_BACKEND_MARLIN, NULL);
  g_assert_true (vc_estimate_check (source, NULL));
  data = vc_profile_serialize (source, "p", "", VC_UNIT_GB, &length);
  g_assert_nonnull (strstr (data, "\"mxfp4-backend\" : \"marlin\""));
  g_assert_true (vc_profile_parse (data, length, target, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_object_get (target, "mxfp4-backend", &backend, NULL);
  g_assert_cmpint (backend, ==, VC_MXFP4_BACKEND_MARLIN);
  g_assert_true (vc_estimate_check (target, NULL));
  g_assert_false (vc_estimate_get_gpu_fit (target, vc_test_gpu_index (target, "h100-80gb"))->experts_as_stored);
  g_assert_true (vc_estimate_get_gpu_fit (source, vc_test_gpu_index (source, "h100-80gb"))->count ==
                 vc_estimate_get_gpu_fit (target, vc_test_gpu_index (target, "h100-80gb"))->count);

  /* an unknown backend in a profile is named */
  g_clear_object (&target);
  target = vc_estimate_new ();
  g_assert_false (vc_profile_parse (bad, strlen (bad), target, NULL, NULL, NULL, &error));
  g_assert_cmpstr (error->message, ==, "inputs.mxfp4-backend: “cutlass” is not valid for mxfp4-backend; accepted: auto, marlin, triton");
}

/* vLLM's profile-run sampler (--vllm-sampler): kept, the estimate read back has the same profile
 * peak, a profile without the key takes the sort, and an unknown sampler is named */
static void
test_round_trip_vllm_sampler (void)
{
  g_autoptr(VcEstimate) source = vc_estimate_new ();
  g_autoptr(VcEstimate) target = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  VcVllmSampler sampler = VC_VLLM_SAMPLER_SORT;
  const char *bad = "{\"format\": \"vram-calculator-profile\", \"version\": 3, \"inputs\": {\"vllm-sampler\": \"triton\"}}";
  const char *old = "{\"format\": \"vram-calculator-profile\", \"version\": 3, \"inputs\": {\"engine\": \"vllm\"}}";
  gsize length;

  g_assert_true (vc_estimate_set_preset (source, "llama-3.1-8b-instruct", &error));
  g_object_set (source, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM,
                "vllm-sampler", VC_VLLM_SAMPLER_FLASHINFER, NULL);
  g_assert_true (vc_estimate_check (source, NULL));
  data = vc_profile_serialize (source, "p", "", VC_UNIT_GB, &length);
  g_assert_nonnull (strstr (data, "\"vllm-sampler\" : \"flashinfer\""));
  g_assert_true (vc_profile_parse (data, length, target, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_object_get (target, "vllm-sampler", &sampler, NULL);
  g_assert_cmpint (sampler, ==, VC_VLLM_SAMPLER_FLASHINFER);
  g_assert_true (vc_estimate_check (target, NULL));
  g_assert_cmpfloat (vc_estimate_get_layout_result (target)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     vc_estimate_get_layout_result (source)->bytes[VC_COMPONENT_ACTIVATIONS]);

  /* a profile that does not name it: the sort */
  g_clear_object (&target);
  target = vc_estimate_new ();
  g_object_set (target, "vllm-sampler", VC_VLLM_SAMPLER_FLASHINFER, NULL);
  g_assert_true (vc_profile_parse (old, strlen (old), target, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_object_get (target, "vllm-sampler", &sampler, NULL);
  g_assert_cmpint (sampler, ==, VC_VLLM_SAMPLER_SORT);

  /* an unknown sampler in a profile is named */
  g_clear_object (&target);
  target = vc_estimate_new ();
  g_assert_false (vc_profile_parse (bad, strlen (bad), target, NULL, NULL, NULL, &error));
  g_assert_cmpstr (error->message, ==, "inputs.vllm-sampler: “triton” is not valid for vllm-sampler; accepted: sort, flashinfer");
}

/* Context parallelism, packing and selective checkpointing with the trainer that runs them: kept. */
static void
test_round_trip_training_rules (void)
{
  g_autoptr(VcEstimate) source = vc_estimate_new ();
  g_autoptr(VcEstimate) target = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gboolean packing = FALSE;
  guint cp = 0;
  VcCheckpointing checkpointing = VC_CHECKPOINTING_NONE;
  gsize length;

  g_object_set (source, "mode", VC_MODE_TRAINING, "method", VC_METHOD_ARCHITECTURE, "finetune", VC_FINETUNE_FULL,
                "trainer", VC_TRAINER_TORCHTITAN, "cp", 4, "packing", TRUE,
                "checkpointing", VC_CHECKPOINTING_SELECTIVE, NULL);
  g_assert_true (vc_estimate_check (source, NULL));
  data = vc_profile_serialize (source, "p", "", VC_UNIT_GB, &length);
  g_assert_nonnull (strstr (data, "\"cp\" : 4"));
  g_assert_nonnull (strstr (data, "\"packing\" : true"));
  g_assert_nonnull (strstr (data, "\"checkpointing\" : \"selective\""));
  g_assert_true (vc_profile_parse (data, length, target, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_object_get (target, "cp", &cp, "packing", &packing, "checkpointing", &checkpointing, NULL);
  g_assert_cmpuint (cp, ==, 4);
  g_assert_true (packing);
  g_assert_cmpint (checkpointing, ==, VC_CHECKPOINTING_SELECTIVE);
  g_assert_true (vc_estimate_check (target, NULL));
}

/* The display unit is the profile's, not the estimate's: written under inputs, after
 * "chart-gpus", read back, and a change to it is a change to the profile. */
static void
test_unit (void)
{
  g_autoptr(GTypeClass) klass = g_type_class_ref (VC_TYPE_ESTIMATE);
  g_autoptr(VcEstimate) estimate = vc_estimate_new ();
  g_autoptr(VcEstimate) target = vc_estimate_new ();
  g_autoptr(VcProfile) profile = vc_profile_new (estimate);
  g_autoptr(GError) error = NULL;
  g_autofree char *gib = NULL, *gb = NULL;
  VcUnit unit = VC_UNIT_GB;
  guint changes = 0;

  g_assert_null (g_object_class_find_property (G_OBJECT_CLASS (klass), "unit"));
  g_signal_connect (estimate, "changed", G_CALLBACK (count_changed), &changes);

  g_assert_cmpint (vc_profile_get_unit (profile), ==, VC_UNIT_GB);
  vc_profile_set_unit (profile, VC_UNIT_GIB);
  g_assert_true (vc_profile_get_modified (profile));
  g_assert_cmpuint (changes, ==, 0);

  gib = vc_profile_serialize (estimate, "", "", VC_UNIT_GIB, NULL);
  g_assert_nonnull (strstr (gib, "\n    \"unit\" : \"gib\",\n"));
  g_assert_true (strstr (gib, "\"chart-gpus\"") < strstr (gib, "\"unit\""));
  g_assert_true (vc_profile_parse (gib, strlen (gib), target, NULL, NULL, &unit, &error));
  g_assert_no_error (error);
  g_assert_cmpint (unit, ==, VC_UNIT_GIB);

  /* a profile that names no unit is in GB; a bad one is refused, naming it */
  gb = vc_profile_serialize (estimate, "", "", VC_UNIT_GB, NULL);
  g_assert_nonnull (strstr (gb, "\"unit\" : \"gb\""));
  g_assert_true (vc_profile_parse ("{\"format\": \"vram-calculator-profile\", \"version\": 2, \"inputs\": {}}",
                                   -1 + sizeof "{\"format\": \"vram-calculator-profile\", \"version\": 2, \"inputs\": {}}",
                                   target, NULL, NULL, &unit, &error));
  g_assert_no_error (error);
  g_assert_cmpint (unit, ==, VC_UNIT_GB);
  g_assert_false (vc_profile_parse ("{\"format\": \"vram-calculator-profile\", \"version\": 2, \"inputs\": {\"unit\": \"tb\"}}",
                                    -1 + sizeof "{\"format\": \"vram-calculator-profile\", \"version\": 2, \"inputs\": {\"unit\": \"tb\"}}",
                                    target, NULL, NULL, &unit, &error));
  g_assert_cmpstr (error->message, ==, "inputs.unit: “tb” is not valid for unit; accepted: gb, gib");
  g_assert_cmpint (unit, ==, VC_UNIT_GB);
}

static void
test_round_trip_preset (void)
{
  g_autoptr(VcEstimate) source = vc_estimate_new ();
  g_autoptr(VcEstimate) target = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize length;

  g_assert_true (vc_estimate_set_preset (source, "mixtral-8x7b", &error));
  g_assert_true (vc_estimate_set_from_string (source, "seq", "32768", &error));
  g_assert_true (vc_estimate_set_from_string (source, "kv-precision", "int8", &error));
  g_assert_no_error (error);
  data = vc_profile_serialize (source, NULL, NULL, VC_UNIT_GB, &length);
  g_assert_true (vc_profile_parse (data, length, target, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_inputs_equal (source, target);
  g_assert_cmpstr (vc_estimate_get_preset (target), ==, "mixtral-8x7b");
}

static void
test_round_trip_object (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *path = g_build_filename (dir, "plan-a.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  VcEstimate *estimate = every_input_estimate ();
  VcEstimate *other = vc_estimate_new ();
  VcProfile *profile = vc_profile_new (estimate);
  VcProfile *opened = vc_profile_new (other);
  g_autofree char *title = NULL;
  guint modified_notifies = 0;

  g_signal_connect (profile, "notify::modified", G_CALLBACK (count_notify), &modified_notifies);
  g_assert_true (vc_profile_get_estimate (profile) == estimate);
  g_assert_false (vc_profile_get_modified (profile));
  g_assert_null (vc_profile_get_file (profile));
  title = vc_profile_dup_title (profile);
  g_assert_cmpstr (title, ==, "Untitled profile");

  vc_profile_set_name (profile, "Plan A");
  g_assert_true (vc_profile_get_modified (profile));
  g_assert_cmpuint (modified_notifies, ==, 1);
  vc_profile_set_notes (profile, "two 80 GB cards");
  g_assert_cmpuint (modified_notifies, ==, 1);
  vc_profile_set_unit (profile, VC_UNIT_GIB);
  g_assert_cmpuint (modified_notifies, ==, 1);

  g_assert_true (vc_profile_save (profile, file, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (vc_profile_get_modified (profile));
  g_assert_cmpuint (modified_notifies, ==, 2);
  g_assert_true (g_file_equal (vc_profile_get_file (profile), file));

  /* an input edit, then its undoing */
  g_object_set (estimate, "batch", 7u, NULL);
  g_assert_true (vc_profile_get_modified (profile));
  g_object_set (estimate, "batch", 2u, NULL);
  g_assert_false (vc_profile_get_modified (profile));
  vc_profile_set_unit (profile, VC_UNIT_GB);
  g_assert_true (vc_profile_get_modified (profile));
  g_object_set (profile, "unit", VC_UNIT_GIB, NULL);
  g_assert_false (vc_profile_get_modified (profile));

  g_assert_true (vc_profile_load (opened, file, NULL, &error));
  g_assert_no_error (error);
  assert_inputs_equal (estimate, other);
  g_assert_cmpstr (vc_profile_get_name (opened), ==, "Plan A");
  g_assert_cmpstr (vc_profile_get_notes (opened), ==, "two 80 GB cards");
  g_assert_cmpint (vc_profile_get_unit (opened), ==, VC_UNIT_GIB);
  g_assert_true (g_file_equal (vc_profile_get_file (opened), file));
  g_assert_false (vc_profile_get_modified (opened));

  /* without a name, the title is the file's name */
  vc_profile_set_name (opened, "");
  g_clear_pointer (&title, g_free);
  title = vc_profile_dup_title (opened);
  g_assert_cmpstr (title, ==, "plan-a.json");
  g_assert_true (vc_profile_get_modified (opened));

  /* Save (no file given) writes to the profile's own file */
  g_assert_true (vc_profile_save (opened, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (vc_profile_get_modified (opened));
  g_assert_true (vc_profile_load (profile, file, NULL, &error));
  g_assert_cmpstr (vc_profile_get_name (profile), ==, "");

  /* New */
  vc_profile_reset (opened);
  {
    g_autoptr(VcEstimate) defaults = vc_estimate_new ();
    assert_inputs_equal (defaults, other);
  }
  g_assert_null (vc_profile_get_file (opened));
  g_assert_false (vc_profile_get_modified (opened));

  g_assert_finalize_object (profile);
  g_assert_finalize_object (opened);
  g_assert_finalize_object (estimate);
  g_assert_finalize_object (other);
  vc_test_remove_tree (dir);
}

static void
test_round_trip_cli (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *every = g_build_filename (dir, "every.json", NULL);
  g_autofree char *saved = g_build_filename (dir, "saved.json", NULL);
  g_autofree char *out1 = NULL, *out2 = NULL, *err = NULL, *name = NULL;
  g_autoptr(VcEstimate) source = every_input_estimate ();
  g_autoptr(VcEstimate) back = vc_estimate_new ();
  g_autoptr(GFile) every_file = g_file_new_for_path (every);
  g_autoptr(GFile) saved_file = g_file_new_for_path (saved);
  g_autoptr(GError) error = NULL;

  /* every input through vramcalc: profile in, profile out */
  g_assert_true (vc_profile_write_file (every_file, source, "From the API", NULL, VC_UNIT_GB, NULL, &error));
  g_assert_no_error (error);
  {
    const char *args[] = { "--profile", every, "--save-profile", saved, "--format", "json", NULL };
    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out1, &err), ==, 0);
    g_assert_cmpstr (err, ==, "");
  }
  g_assert_true (vc_profile_read_file (saved_file, back, &name, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  assert_inputs_equal (source, back);
  g_assert_cmpstr (name, ==, "From the API");

  /* and the estimate it gives is the same when read back */
  {
    const char *args[] = { "--profile", saved, "--format", "json", NULL };
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out2, &err), ==, 0);
  }
  g_assert_cmpstr (out1, ==, out2);

  /* options to profile to options: --save-profile then --profile --format json */
  {
    const char *args1[] = { "--preset", "llama-3-8b", "--mode", "training", "--finetune", "qlora-4bit",
                            "--lora-rank", "64", "--seq", "4096", "--unit", "gib", "--checkpointing", "full",
                            "--save-profile", saved, "--format", "json", NULL };
    const char *args2[] = { "--profile", saved, "--format", "json", NULL };
    g_clear_pointer (&out1, g_free);
    g_clear_pointer (&out2, g_free);
    g_assert_cmpint (vc_test_run_vramcalc (args1, NULL, &out1, NULL), ==, 0);
    g_assert_cmpint (vc_test_run_vramcalc (args2, NULL, &out2, NULL), ==, 0);
    g_assert_cmpstr (out1, ==, out2);
    g_assert_nonnull (strstr (out2, "\"preset\" : \"llama-3-8b\""));
  }
  vc_test_remove_tree (dir);
}

static void
test_cli_override_order (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *base = g_build_filename (dir, "base.json", NULL);
  g_autofree char *a = g_build_filename (dir, "a.json", NULL);
  g_autofree char *b = g_build_filename (dir, "b.json", NULL);
  g_autofree char *text_a = NULL, *text_b = NULL;
  g_autoptr(VcEstimate) source = every_input_estimate ();
  g_autoptr(VcEstimate) loaded = vc_estimate_new ();
  g_autoptr(GFile) base_file = g_file_new_for_path (base);
  g_autoptr(GFile) a_file = g_file_new_for_path (a);
  g_autoptr(GError) error = NULL;
  const VcPreset *preset = vc_presets_lookup ("llama-2-13b");
  VcUnit unit = VC_UNIT_GB;

  g_assert_nonnull (preset);
  g_assert_true (vc_profile_write_file (base_file, source, "Base", "kept", VC_UNIT_GIB, NULL, &error));
  {
    const char *before[] = { "--batch", "3", "--preset", "llama-2-13b", "--no-flash-attention", "--profile", base,
                             "--save-profile", a, NULL };
    const char *after[] = { "--profile", base, "--batch", "3", "--preset", "llama-2-13b", "--no-flash-attention",
                            "--save-profile", b, NULL };
    g_assert_cmpint (vc_test_run_vramcalc (before, NULL, NULL, NULL), ==, 0);
    g_assert_cmpint (vc_test_run_vramcalc (after, NULL, NULL, NULL), ==, 0);
  }
  text_a = read_text (a);
  text_b = read_text (b);
  g_assert_cmpstr (text_a, ==, text_b);

  g_assert_true (vc_profile_read_file (a_file, loaded, NULL, NULL, &unit, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (vc_estimate_get_inputs (loaded)->batch, ==, 3);
  g_assert_false (vc_estimate_get_inputs (loaded)->flash_attention);
  g_assert_cmpstr (vc_estimate_get_preset (loaded), ==, "llama-2-13b");
  g_assert_cmpfloat (vc_estimate_get_inputs (loaded)->parameters, ==, preset->published_parameters);
  /* what no option touched comes from the profile, the method included */
  g_assert_cmpuint (vc_estimate_get_inputs (loaded)->seq, ==, vc_estimate_get_inputs (source)->seq);
  g_assert_cmpint (vc_estimate_get_inputs (loaded)->method, ==, vc_estimate_get_inputs (source)->method);
  g_assert_cmpint (unit, ==, VC_UNIT_GIB);
  g_assert_nonnull (strstr (text_a, "\"notes\" : \"kept\""));
  vc_test_remove_tree (dir);
}

static void
test_cli_errors (void)
{
  g_autofree char *bad = corpus_path ("bad/out-of-range-batch.json");
  g_autofree char *newer = corpus_path ("bad/newer-version.json");
  g_autofree char *good = corpus_path ("good/extra-keys.json");
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *missing = g_build_filename (dir, "no-such.json", NULL);
  g_autofree char *unwritable = g_build_filename (dir, "no-such-folder", "p.json", NULL);

  struct { const char *option; const char *file; const char *field; } cases[] = {
    { "--profile", bad, "inputs.batch: 0 is out of range" },
    { "--profile", newer, "version: the profile has format version 4" },
    { "--profile", missing, "No such file" },
    { "--save-profile", unwritable, "No such file" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      const char *args[] = { "--profile", good, cases[i].option, cases[i].file, NULL };

      g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_test_message ("%s", err);
      g_assert_true (g_str_has_prefix (err, "vramcalc: "));
      g_assert_nonnull (strstr (err, cases[i].option));
      g_assert_nonnull (strstr (err, cases[i].file));
      g_assert_nonnull (strstr (err, cases[i].field));
    }
  g_assert_false (g_file_test (unwritable, G_FILE_TEST_EXISTS));
  vc_test_remove_tree (dir);
}

/* ---- the bad-profile corpus ---------------------------------------------------------------- */

typedef struct
{
  const char *file;
  int code;
  const char *message;      /* a part of the message: the field and what is wrong */
} BadCase;

static const BadCase bad_cases[] = {
  { "truncated.json", VC_ERROR_PARSE, "not valid JSON" },
  { "empty.json", VC_ERROR_PARSE, "the file is empty; a profile is a JSON object" },
  { "garbage.bin", VC_ERROR_PARSE, "not UTF-8 text" },
  { "not-an-object.json", VC_ERROR_PARSE, "must hold a JSON object" },
  { "missing-format.json", VC_ERROR_PARSE, "format: missing" },
  { "other-format.json", VC_ERROR_PARSE, "format: this is not a VRAM Calculator profile" },
  { "missing-version.json", VC_ERROR_PARSE, "version: missing" },
  { "version-as-text.json", VC_ERROR_INVALID_VALUE, "version: expected a whole number, found text" },
  { "newer-version.json", VC_ERROR_VERSION, "version: the profile has format version 4, from a newer" },
  { "missing-inputs.json", VC_ERROR_PARSE, "inputs: missing" },
  { "inputs-not-object.json", VC_ERROR_INVALID_VALUE, "inputs: expected an object, found a list" },
  { "name-not-text.json", VC_ERROR_INVALID_VALUE, "name: expected text, found a number" },
  { "model-name-not-text.json", VC_ERROR_INVALID_VALUE, "inputs.model-name: expected text, found a list" },
  { "wrong-type-batch.json", VC_ERROR_INVALID_VALUE, "inputs.batch: expected a whole number, found text" },
  { "wrong-type-flash-attention.json", VC_ERROR_INVALID_VALUE,
    "inputs.flash-attention: expected true or false, found a number" },
  { "wrong-type-precision.json", VC_ERROR_INVALID_VALUE, "inputs.precision: expected text, found a number" },
  { "wrong-type-lora-targets.json", VC_ERROR_INVALID_VALUE,
    "inputs.lora-targets: expected a list of names, found an object" },
  { "unknown-precision.json", VC_ERROR_INVALID_VALUE, "inputs.precision: “fp7” is not valid for precision" },
  { "out-of-range-batch.json", VC_ERROR_INVALID_VALUE,
    "inputs.batch: 0 is out of range for batch; accepted: a whole number from 1 to" },
  { "out-of-range-layers.json", VC_ERROR_INVALID_VALUE, "inputs.layers: 4294967297 is out of range" },
  { "out-of-range-parameters.json", VC_ERROR_INVALID_VALUE, "inputs.parameters: 1e+20 is out of range" },
  { "out-of-range-overhead.json", VC_ERROR_INVALID_VALUE, "inputs.overhead-gb: -5 is out of range" },
  { "fractional-seq.json", VC_ERROR_INVALID_VALUE, "inputs.seq: 2048.5 is out of range" },
  { "unknown-lora-target.json", VC_ERROR_INVALID_VALUE, "inputs.lora-targets: “q,x_proj” is not valid" },
  { "empty-lora-targets.json", VC_ERROR_INVALID_VALUE, "inputs.lora-targets: “” is not valid" },
  { "unknown-preset.json", VC_ERROR_UNKNOWN_ID, "inputs.preset: unknown preset “gpt-17-1t”" },
  /* the chart's cards name GPUs of the catalog or of custom-gpus, which has none here */
  { "unknown-chart-gpu.json", VC_ERROR_UNKNOWN_ID, "inputs.chart-gpus: “My card” is not a GPU of the catalog nor one of your own" },
};

/* Loads @file into a profile whose estimate has every input changed, and checks that the
 * load fails with @code and @message while nothing at all changes. */
static void
assert_rejected (GFile      *file,
                 int         code,
                 const char *message)
{
  g_autoptr(VcEstimate) estimate = every_input_estimate ();
  g_autoptr(VcEstimate) before = vc_estimate_new ();
  g_autoptr(VcProfile) profile = vc_profile_new (estimate);
  g_autoptr(GError) error = NULL;
  guint notifies = 0, profile_notifies = 0;

  vc_profile_set_name (profile, "Current");
  vc_estimate_copy_inputs (before, estimate);
  g_signal_connect (estimate, "notify", G_CALLBACK (count_notify), &notifies);
  g_signal_connect (profile, "notify", G_CALLBACK (count_notify), &profile_notifies);

  g_assert_false (vc_profile_load (profile, file, NULL, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_error (error, VC_ERROR, code);
  if (strstr (error->message, message) == NULL)
    g_error ("message “%s” lacks “%s”", error->message, message);

  assert_inputs_equal (before, estimate);
  g_assert_cmpuint (notifies, ==, 0);
  g_assert_cmpuint (profile_notifies, ==, 0);
  g_assert_cmpstr (vc_profile_get_name (profile), ==, "Current");
  g_assert_null (vc_profile_get_file (profile));
  g_assert_true (vc_profile_get_modified (profile));
}

static void
test_bad_corpus (gconstpointer data)
{
  const BadCase *c = data;
  g_autofree char *relative = g_build_filename ("bad", c->file, NULL);
  g_autofree char *path = corpus_path (relative);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  assert_rejected (file, c->code, c->message);
}

static void
test_bad_huge (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *sparse = g_build_filename (dir, "sparse.json", NULL);
  g_autofree char *just_over = g_build_filename (dir, "just-over.json", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GString) text = g_string_new ("{\"format\": \"vram-calculator-profile\", \"version\": 1, "
                                          "\"notes\": \"");
  g_autoptr(GError) error = NULL;
  gint64 start;
  int fd;

  /* 8 GiB that take no room: reading it whole would take seconds and the memory */
  fd = g_open (sparse, O_CREAT | O_WRONLY, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, G_GINT64_CONSTANT (8) << 30), ==, 0);
  close (fd);
  file = g_file_new_for_path (sparse);
  start = g_get_monotonic_time ();
  assert_rejected (file, VC_ERROR_TOO_LARGE, "the file is too large for a profile: 8.6\302\240GB (8589934592 bytes), "
                  "the limit is 4.2\302\240MB (4194304 bytes)");
  g_assert_cmpint (g_get_monotonic_time () - start, <, 2 * G_USEC_PER_SEC);

  /* a valid profile one byte over the limit */
  while (text->len < VC_PROFILE_MAX_SIZE - 20)
    g_string_append (text, "0123456789abcdef");
  g_string_append (text, "\", \"inputs\": {}}");
  while (text->len < VC_PROFILE_MAX_SIZE + 1)
    g_string_append_c (text, ' ');
  g_file_set_contents (just_over, text->str, text->len, &error);
  g_assert_no_error (error);
  g_clear_object (&file);
  file = g_file_new_for_path (just_over);
  assert_rejected (file, VC_ERROR_TOO_LARGE, "(4194305 bytes), the limit is 4.2\302\240MB (4194304 bytes)");

  /* and the same one byte shorter is accepted */
  g_string_truncate (text, VC_PROFILE_MAX_SIZE);
  g_file_set_contents (just_over, text->str, text->len, &error);
  g_assert_no_error (error);
  {
    g_autoptr(VcEstimate) e = vc_estimate_new ();
    g_autofree char *notes = NULL;

    vc_profile_read_file (file, e, NULL, &notes, NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (strlen (notes), >, VC_PROFILE_MAX_SIZE - 100);
  }
  vc_test_remove_tree (dir);
}

static void
test_bad_deep (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *path = g_build_filename (dir, "deep.json", NULL);
  g_autoptr(GString) text = g_string_new ("{\"format\": \"vram-calculator-profile\", \"version\": 1, "
                                          "\"inputs\": {\"x\": ");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;

  /* nesting that would overflow a recursive parser's stack */
  for (guint i = 0; i < 500000; i++)
    g_string_append_c (text, '[');
  g_file_set_contents (path, text->str, text->len, &error);
  g_assert_no_error (error);
  assert_rejected (file, VC_ERROR_PARSE, "nests lists or objects too deeply");
  vc_test_remove_tree (dir);
}

static void
test_bad_folder (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autoptr(GFile) file = g_file_new_for_path (dir);

  assert_rejected (file, VC_ERROR_PARSE, "folder");
  vc_test_remove_tree (dir);
}

static void
test_good_extra_keys (void)
{
  g_autofree char *path = corpus_path ("good/extra-keys.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) e = every_input_estimate ();
  g_autoptr(VcEstimate) defaults = vc_estimate_new ();
  g_autoptr(VcProfile) profile = vc_profile_new (e);
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_profile_load (profile, file, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (vc_profile_get_name (profile), ==, "Llama on two cards");
  g_assert_cmpuint (vc_estimate_get_inputs (e)->seq, ==, 8192);
  /* the corpus keeps the loss of the profiles saved before "auto" became the default */
  g_object_set (defaults, "seq", 8192u, "loss", VC_LOSS_FULL, NULL);
  assert_inputs_equal (defaults, e);
}

static void
test_good_partial (void)
{
  g_autofree char *path = corpus_path ("good/partial.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) e = every_input_estimate ();
  g_autoptr(VcEstimate) expected = vc_estimate_new ();
  g_autofree char *name = NULL;
  g_autoptr(GError) error = NULL;

  /* what a profile leaves out takes its default (after the preset), not the current value */
  g_assert_true (vc_profile_read_file (file, e, &name, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (name, ==, "");
  g_assert_true (vc_estimate_set_preset (expected, "mistral-7b", &error));
  g_object_set (expected, "seq", 4096u, "mode", VC_MODE_TRAINING, NULL);
  assert_inputs_equal (expected, e);
}

/* "engine-version" names SGLang's source in a profile serving with SGLang, as vramcalc's
 * --engine-version does with --engine sglang; a vLLM release there stays vLLM's (saved profiles
 * hold both inputs); two sources that disagree are refused */
static void
test_sglang_engine_version (void)
{
  static const char alias[] = "{\"format\": \"vram-calculator-profile\", \"version\": 1, \"inputs\": "
                              "{\"engine\": \"sglang\", \"engine-version\": \"003fca8\"}}";
  static const char saved[] = "{\"format\": \"vram-calculator-profile\", \"version\": 1, \"inputs\": "
                              "{\"engine\": \"sglang\", \"engine-version\": \"0.21\", \"sglang-version\": \"003fca8\"}}";
  static const char both[] = "{\"format\": \"vram-calculator-profile\", \"version\": 1, \"inputs\": "
                             "{\"engine\": \"sglang\", \"engine-version\": \"003fca8\", \"sglang-version\": \"001ccef\"}}";
  static const char vllm[] = "{\"format\": \"vram-calculator-profile\", \"version\": 1, \"inputs\": "
                             "{\"engine\": \"vllm\", \"engine-version\": \"003fca8\"}}";
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  const VcInputs *in = vc_estimate_get_inputs (e);
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_profile_parse (alias, strlen (alias), e, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpint (in->engine, ==, VC_ENGINE_SGLANG);
  g_assert_cmpint (in->sglang_version, ==, VC_SGLANG_VERSION_003FCA8);
  g_assert_cmpint (in->vllm_version, ==, VC_VLLM_VERSION_0_11);
  g_assert_true (vc_profile_parse (saved, strlen (saved), e, NULL, NULL, NULL, &error));
  g_assert_cmpint (in->sglang_version, ==, VC_SGLANG_VERSION_003FCA8);
  g_assert_cmpint (in->vllm_version, ==, VC_VLLM_VERSION_0_21);
  g_assert_false (vc_profile_parse (both, strlen (both), e, NULL, NULL, NULL, &error));
  g_assert_cmpstr (error->message, ==, "inputs.engine-version: with the engine sglang it names SGLang’s source, as "
                   "sglang-version does: 003fca8 and 001ccef disagree; accepted: one of them, or both the same");
  g_clear_error (&error);
  g_assert_false (vc_profile_parse (vllm, strlen (vllm), e, NULL, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "inputs.engine-version: "));
  g_assert_nonnull (strstr (error->message, "0.21"));
}

/* ---- failed saves -------------------------------------------------------------------------- */

static void
assert_save_fails (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) e = every_input_estimate ();
  g_autoptr(VcProfile) profile = vc_profile_new (e);
  g_autoptr(GError) error = NULL;

  vc_profile_set_name (profile, "Unsaved");
  g_assert_false (vc_profile_save (profile, file, NULL, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_true (error->domain == G_IO_ERROR);
  /* still unsaved, still without a file */
  g_assert_true (vc_profile_get_modified (profile));
  g_assert_null (vc_profile_get_file (profile));
}

static void
test_save_missing_folder (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *missing = g_build_filename (dir, "missing", "p.json", NULL);
  g_autofree char *blocker = g_build_filename (dir, "file", NULL);
  g_autofree char *under_file = g_build_filename (blocker, "p.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  assert_save_fails (missing);
  g_file_set_contents (blocker, "not a folder\n", -1, &error);
  g_assert_no_error (error);
  assert_save_fails (under_file);
  text = read_text (blocker);
  g_assert_cmpstr (text, ==, "not a folder\n");
  g_assert_cmpuint (count_entries (dir), ==, 1);
  vc_test_remove_tree (dir);
}

static void
test_save_read_only_folder (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *path = g_build_filename (dir, "p.json", NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GFile) file = g_file_new_for_path (path);

  g_assert_true (vc_profile_write_file (file, e, "Old", NULL, VC_UNIT_GB, NULL, &error));
  before = read_text (path);
  g_assert_cmpint (g_chmod (dir, 0555), ==, 0);
  if (access (dir, W_OK) == 0)
    {
      /* root writes anyway; the size-limit test covers the failed write for it */
      vc_test_remove_tree (dir);
      g_test_skip ("permissions are not enforced for this user");
      return;
    }
  assert_save_fails (path);
  after = read_text (path);
  g_assert_cmpstr (before, ==, after);
  g_assert_cmpuint (count_entries (dir), ==, 1);
  vc_test_remove_tree (dir);
}

static void
test_save_write_fails (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-profile");
  g_autofree char *path = g_build_filename (dir, "p.json", NULL);
  g_autofree char *before = NULL, *after = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) e = every_input_estimate ();
  g_autoptr(VcProfile) profile = vc_profile_new (e);
  g_autoptr(GString) notes = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  struct rlimit saved, limit;
  gboolean ok;

  g_assert_true (vc_profile_save (profile, file, NULL, &error));
  before = read_text (path);
  g_assert_cmpuint (strlen (before), <, 8192);

  /* A write that fails half-way, whoever runs the test: files may not grow past 8 KiB
   * and the profile is 64 KiB. */
  while (notes->len < 65536)
    g_string_append (notes, "notes that make the profile larger than the limit\n");
  vc_profile_set_notes (profile, notes->str);
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = saved;
  limit.rlim_cur = 8192;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  ok = vc_profile_save (profile, NULL, NULL, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, SIG_DFL);

  g_assert_false (ok);
  g_test_message ("%s", error->message);
  g_assert_error (error, G_IO_ERROR, (int) g_io_error_from_errno (EFBIG));
  after = read_text (path);
  g_assert_cmpstr (before, ==, after);
  /* no temporary file left behind */
  g_assert_cmpuint (count_entries (dir), ==, 1);
  g_assert_true (vc_profile_get_modified (profile));
  vc_test_remove_tree (dir);
}

/* Version 1 had one precision for both tabs; version 2 gives training its own. A version 1
 * file reads as it meant: its floating-point precision for both, a quantized one for
 * inference only (training then keeps the default bf16). */
static void
test_version_1 (void)
{
  static const struct { const char *precision; VcPrecision weights; VcTrainingPrecision training; } cases[] = {
    { "fp32", VC_PRECISION_FP32, VC_TRAINING_PRECISION_FP32 },
    { "fp16", VC_PRECISION_FP16, VC_TRAINING_PRECISION_FP16 },
    { "int4", VC_PRECISION_INT4, VC_TRAINING_PRECISION_BF16 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *json = g_strdup_printf ("{\"format\": \"vram-calculator-profile\", \"version\": 1, "
                                               "\"inputs\": {\"mode\": \"training\", \"precision\": \"%s\"}}",
                                               cases[i].precision);

      g_assert_true (vc_profile_parse (json, strlen (json), e, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (vc_estimate_get_inputs (e)->precision, ==, cases[i].weights);
      g_assert_cmpint (vc_estimate_get_inputs (e)->training_precision, ==, cases[i].training);
      g_assert_true (vc_estimate_check (e, NULL));
    }

  /* version 2 keeps both as written */
  {
    g_autoptr(VcEstimate) e = vc_estimate_new ();
    g_autoptr(VcEstimate) back = vc_estimate_new ();
    g_autofree char *text = NULL;

    g_object_set (e, "precision", VC_PRECISION_INT8, "training-precision", VC_TRAINING_PRECISION_FP32, NULL);
    text = vc_profile_serialize (e, "", "", VC_UNIT_GB, NULL);
    g_assert_nonnull (strstr (text, "\"version\" : 3"));
    g_assert_true (vc_profile_parse (text, strlen (text), back, NULL, NULL, NULL, NULL));
    g_assert_cmpint (vc_estimate_get_inputs (back)->precision, ==, VC_PRECISION_INT8);
    g_assert_cmpint (vc_estimate_get_inputs (back)->training_precision, ==, VC_TRAINING_PRECISION_FP32);
  }
}

/* Format version 2 had no rope-table-kind 5: an architecture typed in was written with kind 0
 * and no table rows or width, which read today would mean "no RoPE table", 0 bytes under vLLM
 * and SGLang. good/typed-in-version-2.json is what the version of format 2 wrote (vramcalc
 * --save-profile with --layers 32 --hidden-size 4096 --heads 32 --kv-heads 8
 * --intermediate-size 14336 --vocab-size 128256 --max-context 8192, vLLM): it reads as a
 * typed-in architecture, the table 8192 positions × 128 (the head) in bf16 under vLLM, fp32
 * under SGLang. */
static void
test_old_typed_in_rope_table (void)
{
  g_autofree char *path = corpus_path ("good/typed-in-version-2.json");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in = vc_estimate_get_inputs (e);

  g_assert_true (vc_profile_read_file (file, e, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (in->arch.rope_table_kind, ==, VC_ROPE_TABLE_NOT_GIVEN);
  g_assert_cmpuint (in->arch.rope_table_rows, ==, 0);
  g_assert_cmpuint (in->arch.rotary_dim, ==, 0);
  g_assert_cmpint (in->engine, ==, VC_ENGINE_VLLM);
  g_assert_true (vc_engine_rope_table_assumed (in));
  g_assert_cmpfloat (vc_engine_rope_table_bytes (in, VC_PRECISION_BF16), ==, 8192.0 * 128 * 2);
  g_object_set (e, "engine", VC_ENGINE_SGLANG, NULL);
  g_assert_cmpfloat (vc_engine_rope_table_bytes (in, VC_PRECISION_BF16), ==, 8192.0 * 128 * 4);
}

/* Read from a format 2 profile: kind 0 becomes 5 only where nothing but the typing describes the
 * architecture and the plain table's rows and width were not both given; a current profile's
 * kind 0 stays 0 (no table) */
static void
test_old_rope_table_kept (void)
{
  static const struct { const char *inputs; guint version; guint kind; } cases[] = {
    { "\"rope-table-kind\": 0", 2, VC_ROPE_TABLE_NOT_GIVEN },
    { "\"rope-table-kind\": 0", 1, VC_ROPE_TABLE_NOT_GIVEN },
    { "\"rope-table-kind\": 0, \"rope-table-rows\": 4096", 2, VC_ROPE_TABLE_NOT_GIVEN },
    { "\"rope-table-kind\": 0, \"rotary-dim\": 64", 2, VC_ROPE_TABLE_NOT_GIVEN },
    /* both given: the plain table as written */
    { "\"rope-table-kind\": 0, \"rope-table-rows\": 4096, \"rotary-dim\": 64", 2, VC_ROPE_TABLE_PLAIN },
    /* a model read from its files, a preset: the kind they gave */
    { "\"rope-table-kind\": 0, \"source-format\": \"config\"", 2, VC_ROPE_TABLE_PLAIN },
    { "\"preset\": \"granite-4.0-h-tiny\"", 2, VC_ROPE_TABLE_PLAIN },
    /* other kinds as written; none written: a new architecture's */
    { "\"rope-table-kind\": 4", 2, VC_ROPE_TABLE_NO_POSITIONS },
    { "\"layers\": 40", 2, VC_ROPE_TABLE_NOT_GIVEN },
    /* the current format: 0 is no table */
    { "\"rope-table-kind\": 0", 3, VC_ROPE_TABLE_PLAIN },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autoptr(GError) error = NULL;
      g_autofree char *json = g_strdup_printf ("{\"format\": \"vram-calculator-profile\", \"version\": %u, "
                                               "\"inputs\": {\"engine\": \"vllm\", %s}}",
                                               cases[i].version, cases[i].inputs);

      g_test_message ("%s", json);
      g_assert_true (vc_profile_parse (json, strlen (json), e, NULL, NULL, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (vc_estimate_get_inputs (e)->arch.rope_table_kind, ==, cases[i].kind);
    }

  /* a typed-in architecture saved now with kind 0 reopens with kind 0 */
  {
    g_autoptr(VcEstimate) e = vc_estimate_new ();
    g_autoptr(VcEstimate) back = vc_estimate_new ();
    g_autofree char *text = NULL;

    g_object_set (e, "rope-table-kind", (guint) VC_ROPE_TABLE_PLAIN, "max-context", 8192u, NULL);
    text = vc_profile_serialize (e, "", "", VC_UNIT_GB, NULL);
    g_assert_true (vc_profile_parse (text, strlen (text), back, NULL, NULL, NULL, NULL));
    g_assert_cmpuint (vc_estimate_get_inputs (back)->arch.rope_table_kind, ==, VC_ROPE_TABLE_PLAIN);
    g_assert_cmpfloat (vc_engine_rope_table_bytes (vc_estimate_get_inputs (back), VC_PRECISION_BF16), ==, 0);
  }
}

/* vramcalc --profile with the format 2 file: the table counted and its assumption named */
static void
test_old_typed_in_cli (void)
{
  g_autofree char *path = corpus_path ("good/typed-in-version-2.json");
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *args[] = { "--profile", path, "--format", "json", NULL };
  JsonObject *root;

  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  g_assert_nonnull (strstr (out, "The architecture is typed in: the RoPE cos/sin table"));
  g_assert_nonnull (strstr (out, "8192 positions × 128 rotary dimensions"));
  g_assert_true (json_object_has_member (root, "warnings"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/profile/version-1", test_version_1);
  g_test_add_func ("/profile/round-trip/api", test_round_trip_api);
  g_test_add_func ("/profile/round-trip/optimizer-in-backward", test_round_trip_optimizer_in_backward);
  g_test_add_func ("/profile/round-trip/training-rules", test_round_trip_training_rules);
  g_test_add_func ("/profile/round-trip/mxfp4-backend", test_round_trip_mxfp4_backend);
  g_test_add_func ("/profile/round-trip/vllm-sampler", test_round_trip_vllm_sampler);
  g_test_add_func ("/profile/round-trip/preset", test_round_trip_preset);
  g_test_add_func ("/profile/unit", test_unit);
  g_test_add_func ("/profile/round-trip/object", test_round_trip_object);
  g_test_add_func ("/profile/round-trip/cli", test_round_trip_cli);
  g_test_add_func ("/profile/cli/override-order", test_cli_override_order);
  g_test_add_func ("/profile/cli/errors", test_cli_errors);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/profile/bad/%s", bad_cases[i].file);
      g_test_add_data_func (name, &bad_cases[i], test_bad_corpus);
    }
  g_test_add_func ("/profile/bad/huge", test_bad_huge);
  g_test_add_func ("/profile/bad/deep", test_bad_deep);
  g_test_add_func ("/profile/bad/folder", test_bad_folder);
  g_test_add_func ("/profile/good/extra-keys", test_good_extra_keys);
  g_test_add_func ("/profile/good/partial", test_good_partial);
  g_test_add_func ("/profile/old/typed-in-rope-table", test_old_typed_in_rope_table);
  g_test_add_func ("/profile/old/rope-table-kept", test_old_rope_table_kept);
  g_test_add_func ("/profile/old/typed-in-cli", test_old_typed_in_cli);
  g_test_add_func ("/profile/sglang-engine-version", test_sglang_engine_version);
  g_test_add_func ("/profile/save/missing-folder", test_save_missing_folder);
  g_test_add_func ("/profile/save/read-only-folder", test_save_read_only_folder);
  g_test_add_func ("/profile/save/write-fails", test_save_write_fails);
  return g_test_run ();
}
