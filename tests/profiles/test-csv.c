/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-csv.c: the CSV export: golden files byte for byte (from the API and from vramcalc),
 * RFC 4180 structure, formula neutralisation, '.' decimals in a French locale, atomic save. */
#include "config.h"

#include <errno.h>
#include <locale.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <sys/resource.h>

#include "vc-csv.h"
#include "vc-enums.h"
#include "vc-estimator.h"
#include "vc-profile.h"
#include "vc-report.h"
#include "vc-test-util.h"
#include "vc-units.h"

/* ---- helpers ------------------------------------------------------------------------------- */

static void
set (VcEstimate *e,
     const char *property,
     const char *value)
{
  g_autoptr(GError) error = NULL;

  vc_estimate_set_from_string (e, property, value, &error);
  g_assert_no_error (error);
}

static VcEstimate *
make_rule_of_thumb (void)
{
  return vc_estimate_new ();
}

static VcEstimate *
make_architecture_training (void)
{
  VcEstimate *e = vc_estimate_new ();
  static const char *settings[][2] = {
    { "method", "architecture" }, { "layers", "40" }, { "hidden-size", "5120" }, { "heads", "40" },
    { "kv-heads", "40" }, { "intermediate-size", "13824" }, { "vocab-size", "32000" },
    { "mode", "training" }, { "finetune", "qlora-4bit" }, { "mixed-precision", "true" },
    { "checkpointing", "sqrt" }, { "batch", "4" }, { "seq", "4096" },
    { "lora-targets", "q,v" }, { "model-name", "Custom 13B, \"v2\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    set (e, settings[i][0], settings[i][1]);
  return e;
}

static VcEstimate *
make_moe_inference (void)
{
  VcEstimate *e = vc_estimate_new ();
  static const char *settings[][2] = {
    { "model-type", "moe" }, { "parameters", "46.7B" }, { "active-parameters", "12.9B" },
    { "seq", "32768" }, { "concurrency", "8" }, { "precision", "int4" }, { "kv-precision", "int8" },
    { "model-name", "=SUM(A1:A9)" }, { "overhead-gb", "1.5" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    set (e, settings[i][0], settings[i][1]);
  return e;
}

typedef struct
{
  const char *golden;
  VcEstimate *(*make) (void);
  VcUnit unit;                 /* a view setting: the profile's, not the estimate's */
} GoldenCase;

static const GoldenCase golden_cases[] = {
  { "rule-of-thumb-7b.csv", make_rule_of_thumb, VC_UNIT_GB },
  { "architecture-training-gib.csv", make_architecture_training, VC_UNIT_GIB },
  { "moe-inference.csv", make_moe_inference, VC_UNIT_GB },
};

static char *
golden_path (const char *name)
{
  const char *srcdir = g_getenv ("VC_TESTS_SRCDIR");

  g_assert_nonnull (srcdir);
  return g_build_filename (srcdir, "profiles", "golden", name, NULL);
}

/* Compares with the golden file, showing the first line that differs. VC_UPDATE_GOLDEN=1
 * rewrites the golden file instead (then review the diff before committing it). */
static void
assert_golden (const char *name,
               const char *data,
               gsize       length)
{
  g_autofree char *path = golden_path (name);
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  gsize expected_length;

  if (g_getenv ("VC_UPDATE_GOLDEN"))
    {
      g_file_set_contents (path, data, length, &error);
      g_assert_no_error (error);
      g_test_message ("rewrote %s", path);
      return;
    }
  g_file_get_contents (path, &expected, &expected_length, &error);
  g_assert_no_error (error);
  if (expected_length != length || memcmp (expected, data, length) != 0)
    {
      g_auto(GStrv) want = g_strsplit (expected, "\r\n", -1);
      g_auto(GStrv) got = g_strsplit (data, "\r\n", -1);

      for (guint i = 0; want[i] || got[i]; i++)
        if (g_strcmp0 (want[i], got[i]) != 0)
          g_error ("%s, line %u:\nexpected: %s\n     got: %s", name, i + 1,
                   want[i] ? want[i] : "(end)", got[i] ? got[i] : "(end)");
      g_error ("%s differs in its line ends", name);
    }
}

/* A strict RFC 4180 reader: every record ends with CRLF, quotes only around whole fields. */
static GPtrArray *
parse_csv (const char *data)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) field = g_string_new (NULL);
  const char *p = data;

  while (*p)
    {
      if (*p == '"')
        {
          p++;
          for (;;)
            {
              g_assert_true (*p != '\0');
              if (p[0] == '"' && p[1] == '"')
                {
                  g_string_append_c (field, '"');
                  p += 2;
                }
              else if (p[0] == '"')
                {
                  p++;
                  break;
                }
              else
                g_string_append_c (field, *p++);
            }
          g_assert_true (*p == ',' || *p == '\r');
        }
      else
        while (*p && *p != ',' && *p != '\r')
          {
            g_assert_true (*p != '\n' && *p != '"');
            g_string_append_c (field, *p++);
          }
      g_ptr_array_add (fields, g_strdup (field->str));
      g_string_truncate (field, 0);
      if (*p == ',')
        p++;
      else
        {
          g_assert_true (p[0] == '\r' && p[1] == '\n');
          p += 2;
          g_ptr_array_add (fields, NULL);
          g_ptr_array_add (rows, g_ptr_array_steal (fields, NULL));
          g_ptr_array_set_free_func (fields, g_free);
        }
    }
  g_assert_cmpuint (fields->len, ==, 0);
  return rows;
}

/* ---- tests --------------------------------------------------------------------------------- */

static void
test_golden (gconstpointer data)
{
  const GoldenCase *c = data;
  g_autoptr(VcEstimate) e = c->make ();
  g_autofree char *csv = NULL;
  gsize length;

  csv = vc_csv_export (e, c->unit, &length);
  g_assert_cmpuint (length, ==, strlen (csv));
  assert_golden (c->golden, csv, length);
}

/* vramcalc writes the same bytes, from options and from a profile */
static void
test_golden_cli (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("vc-csv-XXXXXX", &error);

  g_assert_no_error (error);
  {
    const char *args[] = { "--params", "7B", "--format", "csv", NULL };
    g_autofree char *out = NULL;

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, NULL), ==, 0);
    assert_golden ("rule-of-thumb-7b.csv", out, strlen (out));
  }
  for (guint i = 0; i < G_N_ELEMENTS (golden_cases); i++)
    {
      g_autoptr(VcEstimate) e = golden_cases[i].make ();
      g_autofree char *path = g_build_filename (dir, "p.json", NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      const char *args[] = { "--profile", path, "--format", "csv", NULL };
      g_autofree char *out = NULL;

      g_assert_true (vc_profile_write_file (file, e, NULL, NULL, golden_cases[i].unit, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, NULL), ==, 0);
      if (!g_getenv ("VC_UPDATE_GOLDEN"))
        assert_golden (golden_cases[i].golden, out, strlen (out));
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* what fits on each row's cards: two rows a GPU, in GPU order, the value empty when none */
static void
check_fit_row (VcEstimate  *e,
               char       **row,
               GRegex      *integer,
               guint        n_fit)
{
  const VcInputs *in = vc_estimate_get_inputs (e);
  guint gpu = n_fit / 2;
  const VcSolution *sol = vc_estimate_get_row_solution (e, gpu, vc_report_fit_variables (in->mode)[n_fit % 2]);
  g_autofree char *item = g_strdup_printf ("%s/%s", vc_estimate_get_gpu_key (e, gpu),
                                           vc_report_fit_key (sol->variable));
  g_autofree char *value = sol->found ? g_strdup_printf ("%u", sol->value) : g_strdup ("");

  g_assert_cmpstr (row[1], ==, vc_scenario_id (vc_estimate_get_selected (e)->id));
  g_assert_cmpstr (row[2], ==, item);
  g_assert_true (g_regex_match (integer, row[4], 0, NULL));
  g_assert_cmpstr (row[5], ==, value);
}

/* usable bytes, GPUs needed (empty: none is enough), and fits, several or none; a scenario's
 * cards in catalog order, and for the selected scenario the count of the window's GPU table */
static void
check_gpu_row (VcEstimate  *e,
               char       **row,
               GRegex      *integer,
               guint        n_gpu)
{
  guint gpu = n_gpu % vc_estimate_get_n_gpus (e);

  g_assert_cmpstr (row[2], ==, vc_estimate_get_gpu (e, gpu)->id);
  if (g_str_equal (row[1], vc_scenario_id (vc_estimate_get_selected (e)->id)))
    {
      const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, gpu);
      g_autofree char *count = fit->count > 0 ? g_strdup_printf ("%.0f", fit->count) : g_strdup ("");

      g_assert_cmpstr (row[5], ==, count);
    }
  g_assert_true (g_regex_match (integer, row[4], 0, NULL));
  g_assert_true (*row[5] == '\0' || g_regex_match (integer, row[5], 0, NULL));
  g_assert_true (g_str_equal (row[6], "fits") ? g_str_equal (row[5], "1")
                 : g_str_equal (row[6], "several") ? g_ascii_strtod (row[5], NULL) >= 2
                 : (g_str_equal (row[6], "none") || g_str_equal (row[6], "refused")) && *row[5] == '\0');
}

static void
check_structure (VcEstimate *e,
                 VcUnit      unit)
{
  g_autofree char *csv = vc_csv_export (e, unit, NULL);
  g_autoptr(GPtrArray) rows = parse_csv (csv);
  g_autofree GParamSpec **inputs = NULL;
  const VcResult *r = vc_estimate_get_result (e);
  const VcInputs *in = vc_estimate_get_inputs (e);
  double divisor = vc_unit_divisor (unit);
  g_autoptr(GRegex) integer = g_regex_new ("^[0-9]+$", 0, 0, NULL);
  g_autoptr(GRegex) decimal = g_regex_new ("^[0-9]+\\.[0-9]{3}$", 0, 0, NULL);
  guint n_inputs, n_unit = 0, n_result = 0, n_input = 0, n_gpu = 0, n_components = 0, n_fit = 0;

  g_assert_true (g_utf8_validate (csv, -1, NULL));
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    n_components += c == VC_COMPONENT_KV_CACHE ? in->mode == VC_MODE_INFERENCE
                  : c == VC_COMPONENT_SEQUENCE_STATE ? in->mode == VC_MODE_INFERENCE &&
                                                      in->method == VC_METHOD_ARCHITECTURE &&
                                                      vc_arch_state_elements (&in->arch) > 0
                  : c == VC_COMPONENT_GRADIENTS || c == VC_COMPONENT_OPTIMIZER ? in->mode == VC_MODE_TRAINING
                  : c == VC_COMPONENT_MASTER_WEIGHTS ? in->mode == VC_MODE_TRAINING && in->mixed_precision
                  : 1;
  inputs = vc_estimate_list_inputs (&n_inputs);

  for (guint i = 0; i < rows->len; i++)
    {
      char **row = rows->pdata[i];

      g_assert_cmpuint (g_strv_length (row), ==, VC_CSV_N_COLUMNS);
      if (i == 0)
        continue;
      if (g_str_equal (row[0], "result"))
        {
          double bytes = g_ascii_strtod (row[4], NULL);
          double value = g_ascii_strtod (row[5], NULL);

          n_result++;
          g_assert_true (g_regex_match (integer, row[4], 0, NULL));
          g_assert_true (g_regex_match (decimal, row[5], 0, NULL));
          g_assert_cmpfloat_with_epsilon (value, bytes / divisor, 0.0005);
          g_assert_cmpstr (row[6], ==, unit == VC_UNIT_GIB ? "GiB" : "GB");
        }
      else if (g_str_equal (row[0], "fit"))
        check_fit_row (e, row, integer, n_fit++);
      else if (g_str_equal (row[0], "gpu"))
        check_gpu_row (e, row, integer, n_gpu++);
      else if (g_str_equal (row[0], "experts_as_stored"))
        {
          /* a card of the selected scenario whose count keeps vLLM's MXFP4 experts as stored */
          g_assert_cmpstr (row[1], ==, vc_scenario_id (vc_estimate_get_selected (e)->id));
          g_assert_cmpstr (row[4], ==, "");
          g_assert_cmpstr (row[5], ==, "");
          g_assert_cmpstr (row[6], ==, "");
        }
      else
        {
          g_assert_cmpstr (row[0], ==, "input");
          /* the unit among the inputs, where profiles keep it */
          if (n_input > 0 && g_str_equal (inputs[n_input - 1]->name, "chart-gpus") &&
              g_str_equal (row[2], "unit"))
            {
              g_assert_cmpstr (row[5], ==, unit == VC_UNIT_GIB ? "gib" : "gb");
              n_unit++;
              continue;
            }
          g_assert_cmpstr (row[2], ==, inputs[n_input]->name);
          n_input++;
        }
    }
  g_assert_cmpuint (n_result, ==, r->n_scenarios * (n_components + 1));
  g_assert_cmpuint (n_input, ==, n_inputs);
  g_assert_cmpuint (n_unit, ==, 1);
  g_assert_cmpuint (n_fit, ==, 2 * vc_estimate_get_n_gpus (e));
  g_assert_cmpuint (n_gpu, ==, r->n_scenarios * vc_estimate_get_n_gpus (e));
  /* the selected scenario's total matches the estimate's */
  {
    g_autofree char *total = vc_format_bytes_machine (vc_estimate_get_selected (e)->total);
    gboolean found = FALSE;

    for (guint i = 1; i < rows->len; i++)
      {
        char **row = rows->pdata[i];
        found |= g_str_equal (row[1], vc_scenario_id (vc_estimate_get_selected (e)->id)) &&
                 g_str_equal (row[2], "total") && g_str_equal (row[4], total);
      }
    g_assert_true (found);
  }
}

static void
test_structure (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (golden_cases); i++)
    {
      g_autoptr(VcEstimate) e = golden_cases[i].make ();
      check_structure (e, golden_cases[i].unit);
    }
}

/* The cards whose count keeps vLLM's MXFP4 experts as stored (JSON gpus[].experts_as_stored):
 * one experts_as_stored row each, saying why; none for the Marlin cards (compute capability
 * 8.x), whose padding is counted, nor for an estimate that is not vLLM serving MXFP4 experts */
static void
test_experts_as_stored (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  guint n_rows = 0, n_stored = 0;
  gboolean v100 = FALSE, h100 = FALSE;

  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-20b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 8192, NULL);
  check_structure (e, VC_UNIT_GB);
  csv = vc_csv_export (e, VC_UNIT_GB, NULL);
  rows = parse_csv (csv);
  for (guint i = 0; i < vc_estimate_get_n_gpus (e); i++)
    n_stored += vc_estimate_get_gpu_fit (e, i)->experts_as_stored;
  for (guint i = 1; i < rows->len; i++)
    {
      char **row = rows->pdata[i];
      guint g;

      if (!g_str_equal (row[0], "experts_as_stored"))
        continue;
      n_rows++;
      g = vc_test_gpu_index (e, row[2]);
      g_assert_true (vc_estimate_get_gpu_fit (e, g)->experts_as_stored);
      g_assert_cmpstr (row[2], !=, "a100-80gb");
      g_assert_cmpstr (row[2], !=, "l40s");
      /* vLLM refuses MXFP4 on a V100: no count there, nothing kept as stored */
      g_assert_cmpstr (row[2], !=, "v100-32gb");
      if (g_str_equal (row[2], "h100-80gb"))
        {
          h100 = TRUE;
          g_assert_cmpstr (row[3], ==, "MXFP4 experts as stored: vLLM’s backend on this card is not known");
        }
    }
  g_assert_cmpuint (n_stored, >, 0);
  g_assert_cmpuint (n_rows, ==, n_stored);
  g_assert_true (h100);
  /* its gpu row says the engine refuses it, with no count; the A100 beside it fits */
  for (guint i = 1; i < rows->len; i++)
    {
      char **row = rows->pdata[i];

      if (!g_str_equal (row[0], "gpu") || !g_str_equal (row[1], vc_scenario_id (vc_estimate_get_selected (e)->id)))
        continue;
      /* the V100s and the T4, below compute capability 8.0 */
      g_assert_cmpint (g_str_equal (row[6], "refused"), ==, vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, row[2]))->refused);
      if (g_str_equal (row[2], "v100-32gb"))
        {
          v100 = TRUE;
          g_assert_cmpstr (row[5], ==, "");
          g_assert_cmpstr (row[6], ==, "refused");
        }
      if (g_str_equal (row[2], "a100-80gb"))
        g_assert_cmpstr (row[6], ==, "fits");
    }
  g_assert_true (v100);

  /* SGLang: nothing padded, no such row */
  g_object_set (e, "engine", VC_ENGINE_SGLANG, NULL);
  g_clear_pointer (&csv, g_free);
  csv = vc_csv_export (e, VC_UNIT_GB, NULL);
  g_assert_null (strstr (csv, "experts_as_stored"));
}

/* Every scenario's count of a card is what the window's GPU table shows once that scenario is
 * the one chosen (the weight precision chooses it): Llama 3.1 405B, whose cards need pipeline
 * stages, and a model with a dense MLP in its first MoE layers. */
static void
test_gpu_counts_per_scenario (void)
{
  static const char *presets[] = { "llama-3.1-405b", "deepseek-r1" };
  static const VcPrecision precisions[] = { VC_PRECISION_BF16, VC_PRECISION_INT8, VC_PRECISION_INT4 };

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    {
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autofree guint *counts = NULL;
      guint n_gpus;

      g_object_set (e, "preset", presets[p], "method", VC_METHOD_ARCHITECTURE, "seq", 8192, NULL);
      n_gpus = vc_estimate_get_n_gpus (e);
      counts = g_new (guint, n_gpus);
      for (guint s = 0; s < vc_estimate_get_result (e)->n_scenarios; s++)
        {
          g_autoptr(VcEstimate) chosen = vc_estimate_new ();
          VcScenario id = vc_estimate_get_result (e)->scenarios[s].id;
          guint differ = 0;

          vc_estimate_count_gpus (e, s, counts);
          vc_estimate_copy_inputs (chosen, e);
          for (guint k = 0; k < G_N_ELEMENTS (precisions); k++)
            if (vc_precision_inference_scenario (precisions[k]) == id)
              g_object_set (chosen, "precision", precisions[k], NULL);
          g_assert_cmpint (vc_estimate_get_selected (chosen)->id, ==, id);
          for (guint g = 0; g < n_gpus; g++)
            {
              g_assert_cmpfloat (counts[g], ==, vc_estimate_get_gpu_fit (chosen, g)->count);
              differ += counts[g] != vc_estimate_get_gpu_fit (e, g)->count;
            }
          /* the scenarios do take other counts: the check is not of one scenario thrice */
          if (s != vc_estimate_get_result (e)->selected)
            g_assert_cmpuint (differ, >, 0);
        }
    }
}

static void
test_header_and_quoting (void)
{
  g_autoptr(VcEstimate) e = make_architecture_training ();
  g_autofree char *csv = vc_csv_export (e, VC_UNIT_GB, NULL);

  g_assert_true (g_str_has_prefix (csv, "Section,Scenario,Item,Name,Bytes,Value,Unit\r\n"));
  g_assert_true (g_str_has_suffix (csv, "\r\n"));
  /* a comma and quotes in the model's name; a comma in the list of targets */
  g_assert_nonnull (strstr (csv, "\r\ninput,,model-name,Model name,,\"Custom 13B, \"\"v2\"\"\",\r\n"));
  g_assert_nonnull (strstr (csv, "\r\ninput,,lora-targets,LoRA target modules,,\"q,v\",\r\n"));
  /* no bare LF anywhere */
  for (const char *p = csv; *p; p++)
    if (*p == '\n')
      g_assert_true (p > csv && p[-1] == '\r');
}

static void
test_injection (void)
{
  static const char *cases[][2] = {
    { "plain", "plain" },
    { "", "" },
    { "=1+2", "'=1+2" },
    { "+1", "'+1" },
    { "-1", "'-1" },
    { "@SUM(A1)", "'@SUM(A1)" },
    { "\tx", "'\tx" },
    { "\rx", "\"'\rx\"" },
    { "=HYPERLINK(\"http://evil\",\"x\")", "\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\"" },
    { "=cmd|' /C calc'!A0", "'=cmd|' /C calc'!A0" },
    { "a,b", "\"a,b\"" },
    { "say \"hi\"", "\"say \"\"hi\"\"\"" },
    { "two\nlines", "\"two\nlines\"" },
    { "a=b", "a=b" },
    { " =1", " =1" },
    { "Modèle «7B»", "Modèle «7B»" },
  };
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autofree char *csv = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *cell = vc_csv_text_cell (cases[i][0]);
      g_assert_cmpstr (cell, ==, cases[i][1]);
    }

  /* in an export: the user's text is neutralised, our numbers (-1: default overhead) are not */
  set (e, "model-name", "@IMPORT(\"x\")");
  csv = vc_csv_export (e, VC_UNIT_GB, NULL);
  g_assert_nonnull (strstr (csv, "\r\ninput,,model-name,Model name,,\"'@IMPORT(\"\"x\"\")\",\r\n"));
  g_assert_nonnull (strstr (csv, "\r\ninput,,overhead-gb,Overhead (GB),,-1,GB\r\n"));
  {
    g_autoptr(GPtrArray) rows = parse_csv (csv);

    for (guint i = 0; i < rows->len; i++)
      {
        char **row = rows->pdata[i];

        for (guint k = 0; row[k]; k++)
          if (k != 5 || !g_str_equal (row[2], "overhead-gb"))
            g_assert_false (row[k][0] == '=' || row[k][0] == '+' || row[k][0] == '-' ||
                            row[k][0] == '@' || row[k][0] == '\t' || row[k][0] == '\r');
      }
  }
}

static void
test_french_locale (void)
{
  g_autoptr(VcEstimate) e = make_moe_inference ();
  g_autofree char *c_csv = vc_csv_export (e, VC_UNIT_GB, NULL);
  g_autofree char *fr_csv = NULL;
  g_autofree char *probe = NULL;
  g_autoptr(GPtrArray) c_rows = NULL, fr_rows = NULL;

  if (setlocale (LC_ALL, "fr_FR.UTF-8") == NULL)
    {
      g_test_skip ("the fr_FR.UTF-8 locale is not installed (build-aux/test generates it)");
      return;
    }
  probe = g_strdup_printf ("%.1f", 1.5);
  fr_csv = vc_csv_export (e, VC_UNIT_GB, NULL);
  setlocale (LC_ALL, "C.UTF-8");
  /* the locale really writes decimal commas, so the test means something */
  g_assert_cmpstr (probe, ==, "1,5");

  c_rows = parse_csv (c_csv);
  fr_rows = parse_csv (fr_csv);
  g_assert_cmpuint (c_rows->len, ==, fr_rows->len);
  for (guint i = 1; i < c_rows->len; i++)
    {
      char **c_row = c_rows->pdata[i], **fr_row = fr_rows->pdata[i];

      g_assert_cmpuint (g_strv_length (fr_row), ==, VC_CSV_N_COLUMNS);
      /* ids, bytes, values and units do not depend on the language; names may */
      for (guint k = 0; k < VC_CSV_N_COLUMNS; k++)
        if (k != 3)
          g_assert_cmpstr (c_row[k], ==, fr_row[k]);
    }
  g_assert_nonnull (strstr (fr_csv, ",1.5,GB\r\n"));
}

static void
test_save_atomic (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("vc-csv-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "export.csv", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autofree char *expected = vc_csv_export (e, VC_UNIT_GB, NULL);
  g_autofree char *written = NULL;
  struct rlimit saved, limit;
  gboolean ok;

  g_assert_true (vc_csv_write_file (file, e, VC_UNIT_GB, NULL, &error));
  g_assert_no_error (error);
  g_file_get_contents (path, &written, NULL, &error);
  g_assert_cmpstr (written, ==, expected);

  /* a write that fails half-way keeps the previous export */
  g_file_set_contents (path, "previous\r\n", -1, &error);
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  limit = saved;
  limit.rlim_cur = 512;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  ok = vc_csv_write_file (file, e, VC_UNIT_GB, NULL, &error);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &saved), ==, 0);
  signal (SIGXFSZ, SIG_DFL);
  g_assert_false (ok);
  g_assert_error (error, G_IO_ERROR, (int) g_io_error_from_errno (EFBIG));
  g_clear_pointer (&written, g_free);
  g_file_get_contents (path, &written, NULL, NULL);
  g_assert_cmpstr (written, ==, "previous\r\n");

  g_unlink (path);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (golden_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/csv/golden/%s", golden_cases[i].golden);
      g_test_add_data_func (name, &golden_cases[i], test_golden);
    }
  g_test_add_func ("/csv/golden/cli", test_golden_cli);
  g_test_add_func ("/csv/structure", test_structure);
  g_test_add_func ("/csv/gpu-counts-per-scenario", test_gpu_counts_per_scenario);
  g_test_add_func ("/csv/experts-as-stored", test_experts_as_stored);
  g_test_add_func ("/csv/header-and-quoting", test_header_and_quoting);
  g_test_add_func ("/csv/injection", test_injection);
  g_test_add_func ("/csv/locale/fr", test_french_locale);
  g_test_add_func ("/csv/save/atomic", test_save_atomic);
  return g_test_run ();
}
