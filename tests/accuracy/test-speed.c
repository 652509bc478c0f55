/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Speed against published llama.cpp measurements (speed.tsv): each row runs vramcalc with the
 * options that express the run and reads the decode and prefill tokens/s of its GPU. The rows
 * marked "calibration" set the efficiencies of src/core/vc-speed.c; the "check" rows are kept
 * aside. The errors stated in src/core/FORMULAS.md ("Speed") are the goals checked here.
 *
 * With --markdown FILE it also writes tests/accuracy/speed-results.md (regenerate it with
 * build-aux/accuracy-report).
 */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-test-util.h"

typedef struct
{
  char *id;
  char *role;
  char *gpu;
  double tg, pp;          /* measured tokens/s */
  char *options;
  char *source;
  double decode, prefill; /* estimated */
  double decode_error, prefill_error;
} Row;

static GPtrArray *rows;
static char *markdown_path;

static void
row_free (gpointer data)
{
  Row *r = data;

  g_free (r->id);
  g_free (r->role);
  g_free (r->gpu);
  g_free (r->options);
  g_free (r->source);
  g_free (r);
}

static void
load_rows (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "accuracy", "speed.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;

  rows = g_ptr_array_new_with_free_func (row_free);
  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = NULL;
      Row *r;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (f), >=, 7);
      r = g_new0 (Row, 1);
      r->id = g_strdup (f[0]);
      r->role = g_strdup (f[1]);
      r->gpu = g_strdup (f[2]);
      r->tg = g_ascii_strtod (f[3], NULL);
      r->pp = g_ascii_strtod (f[4], NULL);
      r->options = g_strdup (f[5]);
      r->source = g_strdup (f[6]);
      g_assert_true (g_str_equal (r->role, "calibration") || g_str_equal (r->role, "check"));
      g_assert_cmpfloat (r->tg, >, 0);
      g_assert_cmpfloat (r->pp, >, 0);
      g_assert_cmpuint (strlen (r->source), >, 20);
      g_ptr_array_add (rows, r);
    }
}

static void
run_row (Row *r)
{
  g_auto(GStrv) opts = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;
  JsonArray *gpus;
  JsonObject *gpu = NULL;

  g_assert_true (g_shell_parse_argv (r->options, NULL, &opts, &error));
  g_ptr_array_add (args, "--format=json");
  for (guint i = 0; opts[i]; i++)
    g_ptr_array_add (args, opts[i]);
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (vc_test_run_vramcalc ((const char * const *) args->pdata, NULL, &out, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  gpus = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)), "gpus");
  for (guint i = 0; i < json_array_get_length (gpus); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (gpus, i), "id"), r->gpu))
      gpu = json_array_get_object_element (gpus, i);
  g_assert_nonnull (gpu);
  r->decode = json_object_get_double_member (gpu, "decode_tokens_per_s");
  r->prefill = json_object_get_double_member (gpu, "prefill_tokens_per_s");
  r->decode_error = r->decode / r->tg - 1;
  r->prefill_error = r->prefill / r->pp - 1;
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

typedef struct
{
  guint n;
  double decode_median, decode_worst, prefill_median, prefill_worst;
} Summary;

static double
median_of (GArray *a)
{
  g_array_sort (a, compare_double);
  return a->len % 2 ? g_array_index (a, double, a->len / 2)
                    : (g_array_index (a, double, a->len / 2 - 1) + g_array_index (a, double, a->len / 2)) / 2;
}

static void
summarize (const char *role,
           Summary    *s)
{
  g_autoptr(GArray) d = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) p = g_array_new (FALSE, FALSE, sizeof (double));

  *s = (Summary) { 0 };
  for (guint i = 0; i < rows->len; i++)
    {
      Row *r = rows->pdata[i];
      double de = fabs (r->decode_error), pe = fabs (r->prefill_error);

      if (!g_str_equal (r->role, role))
        continue;
      g_array_append_val (d, de);
      g_array_append_val (p, pe);
      s->decode_worst = MAX (s->decode_worst, de);
      s->prefill_worst = MAX (s->prefill_worst, pe);
    }
  s->n = d->len;
  s->decode_median = median_of (d);
  s->prefill_median = median_of (p);
}

static void
write_markdown (const Summary *cal,
                const Summary *chk)
{
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  g_string_append (s, "# Speed against published measurements\n\n"
                      "Generated by `build-aux/accuracy-report` from `tests/accuracy/speed.tsv`: llama.cpp "
                      "`llama-bench` runs (single stream, the whole model on one GPU), each with its source, and "
                      "the `vramcalc` options that express it. The efficiencies of `src/core/vc-speed.c` are the "
                      "medians over the *calibration* rows; the *check* rows are kept aside.\n\n");
  g_string_append_printf (s, "| rows | decode: median, largest error | prefill: median, largest error |\n"
                             "|---|---:|---:|\n"
                             "| calibration (%u) | %.1f %%, %.1f %% | %.1f %%, %.1f %% |\n"
                             "| check (%u) | %.1f %%, %.1f %% | %.1f %%, %.1f %% |\n\n",
                          cal->n, 100 * cal->decode_median, 100 * cal->decode_worst,
                          100 * cal->prefill_median, 100 * cal->prefill_worst,
                          chk->n, 100 * chk->decode_median, 100 * chk->decode_worst,
                          100 * chk->prefill_median, 100 * chk->prefill_worst);
  g_string_append (s, "Goals (the test `speed` fails when one is missed): calibration rows, decode within 10 % and "
                      "prefill within 35 % each; check rows, median decode error within 20 % and median prefill "
                      "error within 40 %.\n\n"
                      "| run | role | GPU | decode measured | estimate | error | prefill measured | estimate | error | vramcalc options |\n"
                      "|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
  for (guint i = 0; i < rows->len; i++)
    {
      Row *r = rows->pdata[i];

      g_string_append_printf (s, "| %s | %s | %s | %.2f | %.2f | %+.1f %% | %.1f | %.1f | %+.1f %% | `%s` |\n",
                              r->id, r->role, r->gpu, r->tg, r->decode, 100 * r->decode_error,
                              r->pp, r->prefill, 100 * r->prefill_error, r->options);
    }
  g_assert_true (g_file_set_contents (markdown_path, s->str, s->len, &error));
}

static void
test_speed (void)
{
  Summary cal, chk;

  for (guint i = 0; i < rows->len; i++)
    {
      Row *r = rows->pdata[i];

      run_row (r);
      g_test_message ("%-22s %-11s decode %7.2f / %7.2f (%+6.1f %%)  prefill %8.1f / %8.1f (%+6.1f %%)",
                      r->id, r->role, r->decode, r->tg, 100 * r->decode_error,
                      r->prefill, r->pp, 100 * r->prefill_error);
    }
  summarize ("calibration", &cal);
  summarize ("check", &chk);
  g_test_message ("calibration: decode median %.1f %% largest %.1f %%; prefill median %.1f %% largest %.1f %%",
                  100 * cal.decode_median, 100 * cal.decode_worst, 100 * cal.prefill_median, 100 * cal.prefill_worst);
  g_test_message ("check: decode median %.1f %% largest %.1f %%; prefill median %.1f %% largest %.1f %%",
                  100 * chk.decode_median, 100 * chk.decode_worst, 100 * chk.prefill_median, 100 * chk.prefill_worst);
  if (markdown_path)
    write_markdown (&cal, &chk);

  g_assert_cmpuint (cal.n, >=, 6);
  g_assert_cmpuint (chk.n, >=, 15);
  g_assert_cmpfloat (cal.decode_worst, <=, 0.10);
  g_assert_cmpfloat (cal.prefill_worst, <=, 0.35);
  g_assert_cmpfloat (chk.decode_median, <=, 0.20);
  g_assert_cmpfloat (chk.prefill_median, <=, 0.40);
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
  load_rows ();
  g_test_add_func ("/speed/measurements", test_speed);
  status = g_test_run ();
  g_ptr_array_unref (rows);
  g_free (markdown_path);
  return status;
}
