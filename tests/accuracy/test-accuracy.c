/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The architecture method against published peak memory of real runs (cases.tsv, taken from
 * measurements.csv): each row runs vramcalc with the options that express the run and compares.
 * The goal: a median error within 10 % and no row beyond 25 % over the rows marked "check: yes".
 *
 * With --markdown FILE it also writes the comparison table the README links (tests/accuracy/results.md;
 * regenerate it with build-aux/accuracy-report).
 */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-test-util.h"

typedef struct
{
  char *id;
  double measured;       /* bytes */
  char *unit;
  double shown;          /* as published */
  char *metric;
  char *check;
  char *options;
  double estimate;       /* bytes, on the measurement's basis */
  double error;
} Case;

static GPtrArray *cases;

/* bytes in one unit as published: GB, GiB, MiB */
static double
unit_bytes (const char *unit)
{
  if (g_str_equal (unit, "GiB"))
    return 1073741824.0;
  if (g_str_equal (unit, "MiB"))
    return 1048576.0;
  return 1e9;
}
static char *markdown_path;

static void
case_free (gpointer data)
{
  Case *c = data;

  g_free (c->id);
  g_free (c->unit);
  g_free (c->metric);
  g_free (c->check);
  g_free (c->options);
  g_free (c);
}

static void
load_cases (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "accuracy", "cases.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  cases = g_ptr_array_new_with_free_func (case_free);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = NULL;
      Case *c;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 6);
      c = g_new0 (Case, 1);
      c->id = g_strdup (f[0]);
      c->shown = g_ascii_strtod (f[1], NULL);
      c->unit = g_strdup (f[2]);
      c->measured = c->shown * unit_bytes (f[2]);
      c->metric = g_strdup (f[3]);
      c->check = g_strdup (f[4]);
      c->options = g_strdup (f[5]);
      g_ptr_array_add (cases, c);
    }
  g_assert_cmpuint (cases->len, >=, 10);
}

static double
component (JsonObject *root,
           const char *id)
{
  JsonArray *a = json_object_get_array_member (root, "components");



  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *o = json_array_get_object_element (a, i);
      if (g_str_equal (json_object_get_string_member (o, "id"), id))
        return json_object_get_double_member (o, "bytes");
    }
  g_assert_not_reached ();
}

static void
run_case (Case *c)
{
  g_auto(GStrv) opts = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *root;

  g_assert_true (g_shell_parse_argv (c->options, NULL, &opts, &error));
  g_ptr_array_add (args, "--format=json");
  for (guint i = 0; opts[i]; i++)
    g_ptr_array_add (args, opts[i]);
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (vc_test_run_vramcalc ((const char * const *) args->pdata, NULL, &out, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));

  if (g_str_has_prefix (c->metric, "gpu-") || g_str_equal (c->metric, "model-states"))
    {
      /* the busiest GPU of the layout the options give */
      JsonObject *gpu = json_object_get_object_member (root, "per_gpu");

      if (g_str_equal (c->metric, "gpu-weights"))
        c->estimate = component (gpu, "weights");
      else if (g_str_equal (c->metric, "gpu-allocator"))
        c->estimate = json_object_get_double_member (gpu, "total_bytes") - component (gpu, "overhead");
      else if (g_str_equal (c->metric, "gpu-reserved"))
        c->estimate = json_object_get_double_member (gpu, "reserved_bytes") - component (gpu, "overhead");
      else
        {
          /* DeepSpeed's estimators count parameters, gradients and optimizer state, and with
           * ZeRO-3 the gathered largest layer, but no reduce bucket */
          JsonObject *layout = json_object_get_object_member (root, "layout");

          c->estimate = json_object_get_double_member (gpu, "total_bytes") - component (gpu, "overhead")
                        - component (gpu, "activations");
          if (json_object_get_int_member (layout, "zero") < 3)
            c->estimate -= component (gpu, "buffers");
        }
    }
  else if (g_str_equal (c->metric, "weights"))
    c->estimate = component (root, "weights");
  else if (g_str_equal (c->metric, "allocator"))
    c->estimate = json_object_get_double_member (root, "total_bytes") - component (root, "overhead");
  else if (g_str_equal (c->metric, "reserved"))
    c->estimate = json_object_get_double_member (root, "reserved_bytes") - component (root, "overhead");
  else if (g_str_equal (c->metric, "capacity"))
    /* the card on which the run's longest sequence just fits: what it must hold */
    c->estimate = json_object_get_double_member (root, "reserved_bytes");
  else
    c->estimate = json_object_get_double_member (root, "total_bytes");
  c->error = (c->estimate - c->measured) / c->measured;
}

static int
compare_abs (gconstpointer a,
             gconstpointer b)
{
  double x = fabs (*(const double *) a), y = fabs (*(const double *) b);
  return x < y ? -1 : x > y;
}

/* The trainer a row follows: its --trainer option, else the generic estimate */
static char *
case_trainer (const Case *c)
{
  const char *t = strstr (c->options, "--trainer ");

  if (t == NULL)
    return g_strdup ("generic");
  t += strlen ("--trainer ");
  return g_strndup (t, strcspn (t, " "));
}

static double
median_abs (GArray *errors)
{
  guint n = errors->len;

  if (n == 0)
    return 0;
  g_array_sort (errors, compare_abs);
  return n % 2 ? fabs (g_array_index (errors, double, n / 2))
               : (fabs (g_array_index (errors, double, n / 2 - 1)) + fabs (g_array_index (errors, double, n / 2))) / 2;
}

/* Median and largest error of the checked rows of each trainer, as a Markdown table */
static char *
per_trainer_summary (void)
{
  g_autoptr(GHashTable) groups = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) g_array_unref);
  g_autoptr(GString) md = g_string_new ("| trainer | rows checked | median error | largest error |\n"
                                        "|---|---:|---:|---:|\n");
  g_autoptr(GList) keys = NULL;

  for (guint i = 0; i < cases->len; i++)
    {
      Case *c = cases->pdata[i];
      g_autofree char *trainer = NULL;
      GArray *errors;

      if (!g_str_equal (c->check, "yes"))
        continue;
      trainer = case_trainer (c);
      errors = g_hash_table_lookup (groups, trainer);
      if (errors == NULL)
        {
          errors = g_array_new (FALSE, FALSE, sizeof (double));
          g_hash_table_insert (groups, g_strdup (trainer), errors);
        }
      g_array_append_val (errors, c->error);
    }
  keys = g_list_sort (g_hash_table_get_keys (groups), (GCompareFunc) g_strcmp0);
  for (GList *l = keys; l != NULL; l = l->next)
    {
      GArray *errors = g_hash_table_lookup (groups, l->data);
      double worst = 0;

      for (guint i = 0; i < errors->len; i++)
        worst = MAX (worst, fabs (g_array_index (errors, double, i)));
      g_string_append_printf (md, "| %s | %u | %.1f %% | %.1f %% |\n", (char *) l->data, errors->len,
                              100 * median_abs (errors), 100 * worst);
      g_test_message ("trainer %-12s %2u rows checked: median |error| %.1f %%, largest %.1f %%", (char *) l->data,
                      errors->len, 100 * median_abs (errors), 100 * worst);
    }
  return g_string_free (g_steal_pointer (&md), FALSE);
}

static void
write_markdown (double      median,
                double      worst,
                guint       n_checked,
                const char *by_trainer)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_string_append (s, "# Accuracy against real runs\n\n"
                      "Generated by `build-aux/accuracy-report` from `tests/accuracy/cases.tsv`: each row is a "
                      "published peak memory measurement (`tests/accuracy/measurements.csv` gives its source, "
                      "settings and caveats) and the `vramcalc` options that express the run. Rows measured with "
                      "PyTorch's counters are compared with the estimate less its per-GPU overhead (the counters "
                      "never include the CUDA context); rows of max_memory_reserved (`reserved`, `gpu-reserved`) with "
                      "the allocator's reserve less the overhead; weights-only rows with the weights component; "
                      "rows giving the card on which the longest sequence fits (`capacity`) with the whole "
                      "reserved figure. Rows of "
                      "several GPUs compare the busiest GPU of the layout: `gpu-allocator` and `gpu-weights` as "
                      "above, `model-states` its weights, gradients, optimizer state and master weights, with the "
                      "gathered layer under ZeRO-3 (what DeepSpeed's estimators count; not the reduce bucket).\n\n");
  g_string_append_printf (s, "Over the %u rows checked: **median absolute error %.1f %%, largest %.1f %%** "
                             "(goal: median within 10 %%, none beyond 25 %%). The test `accuracy` fails when the goal "
                             "is missed.\n\n", n_checked, 100 * median, 100 * worst);
  g_string_append_printf (s, "By trainer (the rows' `--trainer`; generic where none is given):\n\n%s\n", by_trainer);
  g_string_append (s, "| run | measured | estimate | error | checked | vramcalc options |\n"
                      "|---|---:|---:|---:|---|---|\n");
  for (guint i = 0; i < cases->len; i++)
    {
      Case *c = cases->pdata[i];
      double div = unit_bytes (c->unit);

      g_string_append_printf (s, "| %s | %.2f %s | %.2f %s | %+.1f %% | %s | `%s` |\n",
                              c->id, c->shown, c->unit, c->estimate / div, c->unit, 100 * c->error,
                              c->check, c->options);
    }
  g_assert_true (g_file_set_contents (markdown_path, s->str, s->len, &error));
}

static void
test_accuracy (void)
{
  g_autoptr(GArray) errors = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *by_trainer = NULL;
  double median, worst = 0;

  for (guint i = 0; i < cases->len; i++)
    {
      Case *c = cases->pdata[i];

      run_case (c);
      g_test_message ("%-30s measured %7.2f %s  estimate %7.2f  error %+6.1f %%  %s", c->id, c->shown,
                      c->unit, c->estimate / unit_bytes (c->unit),
                      100 * c->error, c->check);
      g_assert_true (isfinite (c->estimate) && c->estimate > 0);
      if (g_str_equal (c->check, "yes"))
        {
          g_array_append_val (errors, c->error);
          worst = MAX (worst, fabs (c->error));
        }
    }
  g_array_sort (errors, compare_abs);
  median = errors->len % 2
           ? fabs (g_array_index (errors, double, errors->len / 2))
           : (fabs (g_array_index (errors, double, errors->len / 2 - 1)) +
              fabs (g_array_index (errors, double, errors->len / 2))) / 2;
  g_test_message ("%u rows checked: median |error| %.1f %%, largest %.1f %%", errors->len,
                  100 * median, 100 * worst);
  by_trainer = per_trainer_summary ();
  if (markdown_path)
    write_markdown (median, worst, errors->len, by_trainer);

  g_assert_cmpuint (errors->len, >=, 10);
  g_assert_cmpfloat (median, <=, 0.10);
  g_assert_cmpfloat (worst, <=, 0.25);
}

/* Serving engines against their own start-up logs (engines.tsv): each "yes" row within 5 %. */

/* The line of measurements.csv whose id is @id (one row a line), or NULL */
static const char *
measurement_line (char * const *lines,
                  const char   *id)
{
  g_autofree char *prefix = g_strconcat (id, ",", NULL);

  for (guint i = 0; lines[i]; i++)
    if (g_str_has_prefix (lines[i], prefix))
      return lines[i];
  return NULL;
}

static double
engine_estimate (const char *metric,
                 const char *options)
{
  g_auto(GStrv) opts = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonObject *root;

  g_assert_true (g_shell_parse_argv (options, NULL, &opts, &error));
  g_ptr_array_add (args, g_strdup ("--format=json"));
  for (guint i = 0; opts[i]; i++)
    /* a model's config.json, relative to the tests folder */
    g_ptr_array_add (args, i > 0 && g_str_equal (opts[i - 1], "--config")
                           ? g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), opts[i], NULL)
                           : g_strdup (opts[i]));
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (vc_test_run_vramcalc ((const char * const *) args->pdata, NULL, &out, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));

  if (g_str_has_prefix (metric, "kv-tokens:"))
    {
      JsonArray *gpus = json_object_get_array_member (root, "gpus");

      for (guint i = 0; i < json_array_get_length (gpus); i++)
        {
          JsonObject *g = json_array_get_object_element (gpus, i);

          if (g_str_equal (json_object_get_string_member (g, "id"), metric + strlen ("kv-tokens:")))
            return json_object_get_double_member (g, "kv_capacity_tokens");
        }
      g_assert_not_reached ();
    }
  if (g_str_equal (metric, "layout-kv-tokens"))
    {
      /* the engine's cache at the options' layout on the card of their --fit-gpu */
      JsonObject *engine = json_object_get_object_member (root, "engine");

      g_assert_nonnull (engine);
      g_assert_false (json_object_get_null_member (engine, "kv_capacity_tokens"));
      return json_object_get_double_member (engine, "kv_capacity_tokens");
    }
  if (g_str_equal (metric, "available-kv"))
    {
      /* the engine's own figures on the card of the options' --fit-gpu */
      JsonObject *engine = json_object_get_object_member (root, "engine");

      g_assert_nonnull (engine);
      g_assert_false (json_object_get_null_member (engine, "available_kv_bytes"));
      return json_object_get_double_member (engine, "available_kv_bytes");
    }
  if (g_str_equal (metric, "profile-peak"))
    {
      /* vLLM's profile-run peak on the card of the options' --fit-gpu (its SMs: the Triton
       * sampler's buffer), with its memory outside PyTorch */
      JsonObject *engine = json_object_get_object_member (root, "engine");

      g_assert_nonnull (engine);
      g_assert_false (json_object_get_null_member (engine, "profile_bytes"));
      return json_object_get_double_member (engine, "profile_bytes");
    }
  if (g_str_equal (metric, "gpu-weights"))
    return component (json_object_get_object_member (root, "per_gpu"), "weights");
  if (g_str_equal (metric, "card-weights"))
    {
      /* a rank's weights as the engine lays them out on the card of the options' --fit-gpu:
       * the busiest GPU's, plus the padding of vLLM's MXFP4 backend on that card */
      JsonObject *engine = json_object_get_object_member (root, "engine");

      g_assert_nonnull (engine);
      g_assert_false (json_object_get_null_member (engine, "mxfp4_padding_bytes"));
      return component (json_object_get_object_member (root, "per_gpu"), "weights") +
             json_object_get_double_member (engine, "mxfp4_padding_bytes");
    }
  if (g_str_equal (metric, "gpu-kv"))
    return component (json_object_get_object_member (root, "per_gpu"), "kv_cache");
  g_assert_cmpstr (metric, ==, "gpu-activations");
  return component (json_object_get_object_member (root, "per_gpu"), "activations");
}

static void
test_engines (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "accuracy", "engines.tsv", NULL);
  g_autofree char *sources_path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "accuracy", "measurements.csv", NULL);
  g_autofree char *text = NULL;
  g_autofree char *sources_text = NULL;
  g_auto(GStrv) lines = NULL;
  g_auto(GStrv) sources = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) md = g_string_new ("\n## Serving engines against their start-up logs\n\n"
                                         "From `tests/accuracy/engines.tsv` (sources in `measurements.csv`): "
                                         "vLLM's and SGLang's KV capacity in tokens on the logged card and layout, "
                                         "vLLM's \"Available KV cache memory\" on the logged card, "
                                         "vLLM's profile-run peak as its log implies it, a rank's weights as the "
                                         "engine logs them, or the size SGLang logs for a KV pool of a given number "
                                         "of tokens. Rows checked must be within 5 %.\n\n"
                                         "| run | measured | estimate | error | checked | vramcalc options |\n"
                                         "|---|---:|---:|---:|---|---|\n");
  guint checked = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  g_assert_true (g_file_get_contents (sources_path, &sources_text, NULL, &error));
  sources = g_strsplit (sources_text, "\n", -1);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = NULL;
      double measured, estimate, err;
      const char *source;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 6);
      /* every published figure carries its source: an issue, a pull request, a page or a
       * repository's file ("github owner/name at commit, path") */
      source = measurement_line (sources, f[0]);
      if (source == NULL)
        g_error ("engines.tsv: %s has no row in measurements.csv", f[0]);
      g_assert_true (strstr (source, "issue #") || strstr (source, "pull request #") ||
                     strstr (source, "http://") || strstr (source, "https://") || strstr (source, "github "));
      measured = g_ascii_strtod (f[1], NULL) * (g_str_equal (f[2], "tokens") ? 1.0 : unit_bytes (f[2]));
      estimate = engine_estimate (f[3], f[5]);
      err = (estimate - measured) / measured;
      g_test_message ("%-32s measured %12.2f %s  estimate %12.2f  error %+6.1f %%  %s", f[0],
                      g_ascii_strtod (f[1], NULL), f[2],
                      estimate / (g_str_equal (f[2], "tokens") ? 1.0 : unit_bytes (f[2])), 100 * err, f[4]);
      g_string_append_printf (md, "| %s | %s %s | %.2f %s | %+.1f %% | %s | `%s` |\n", f[0], f[1], f[2],
                              estimate / (g_str_equal (f[2], "tokens") ? 1.0 : unit_bytes (f[2])), f[2],
                              100 * err, f[4], f[5]);
      g_assert_true (isfinite (estimate) && estimate > 0);
      if (g_str_equal (f[4], "yes"))
        {
          g_assert_cmpfloat (fabs (err), <=, 0.05);
          checked++;
        }
    }
  g_assert_cmpuint (checked, >=, 1);
  if (markdown_path)
    {
      g_autofree char *written = NULL;
      g_autofree char *all = NULL;

      g_assert_true (g_file_get_contents (markdown_path, &written, NULL, &error));
      all = g_strconcat (written, md->str, NULL);
      g_assert_true (g_file_set_contents (markdown_path, all, -1, &error));
    }
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  for (int i = 1; i < argc - 1; i++)
    if (g_str_equal (argv[i], "--markdown"))
      markdown_path = g_strdup (argv[i + 1]);
  load_cases ();
  g_test_add_func ("/accuracy/measurements", test_accuracy);
  g_test_add_func ("/accuracy/engines", test_engines);
  status = g_test_run ();
  g_ptr_array_unref (cases);
  g_free (markdown_path);
  return status;
}
