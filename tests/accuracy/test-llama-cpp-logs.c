/* SPDX-License-Identifier: GPL-3.0-or-later */
/* llama.cpp's published CUDA buffer lines (llama-cpp-cuda.tsv) against the estimate for the same
 * settings: each row's error is reported; the rows marked "yes" must be within 2 %. */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-test-util.h"

#define MIB 1048576.0

static double
estimate (const char *metric,
          const char *options)
{
  g_auto(GStrv) opts = NULL;
  g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autofree char *out = NULL;

  g_assert_true (g_shell_parse_argv (options, NULL, &opts, &error));
  g_ptr_array_add (args, g_strdup ("--format=json"));
  g_ptr_array_add (args, g_strdup ("--engine=llama.cpp"));
  for (guint i = 0; opts[i]; i++)
    g_ptr_array_add (args, g_strdup (opts[i]));
  g_ptr_array_add (args, NULL);
  g_assert_cmpint (vc_test_run_vramcalc ((const char * const *) args->pdata, NULL, &out, NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  return (double) vc_test_component_bytes (json_node_get_object (json_parser_get_root (parser)),
                                           g_str_equal (metric, "kv") ? "kv_cache" : "activations");
}

static void
test_logs (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "accuracy", "llama-cpp-cuda.tsv", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  guint checked = 0, rows = 0;

  g_assert_true (g_file_get_contents (path, &text, NULL, &error));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i]; i++)
    {
      g_auto(GStrv) f = NULL;
      double measured, est, err;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      f = g_strsplit (lines[i], "\t", -1);
      g_assert_cmpuint (g_strv_length (f), ==, 6);
      g_assert_true (g_str_equal (f[2], "kv") || g_str_equal (f[2], "compute"));
      g_assert_true (g_str_equal (f[3], "yes") || g_str_has_prefix (f[3], "no: "));
      /* every row names where it is published */
      g_assert_nonnull (strchr (f[4], '#'));
      measured = g_ascii_strtod (f[1], NULL) * MIB;
      est = estimate (f[2], f[5]);
      err = (est - measured) / measured;
      g_test_message ("%-28s %-7s logged %9.2f MiB  estimate %9.2f MiB  error %+6.2f %%  %s", f[0], f[2],
                      measured / MIB, est / MIB, 100 * err, g_str_equal (f[3], "yes") ? "checked" : "not checked");
      g_assert_true (isfinite (est) && est > 0);
      rows++;
      if (g_str_equal (f[3], "yes"))
        {
          /* within 2 %, or the 0.005 MiB the log rounds to */
          g_assert_cmpfloat (fabs (est - measured), <=, MAX (0.02 * measured, 0.005 * MIB));
          checked++;
        }
    }
  g_assert_cmpuint (rows, >=, 8);
  g_assert_cmpuint (checked, >=, 1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/accuracy/llama.cpp-cuda-logs", test_logs);
  return g_test_run ();
}
