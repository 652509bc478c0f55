/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vramcalc as Unix tools behave: a failed write to standard output is a failure (status 1,
 * the error named), -h is --help, and "-" reads a config.json or a profile from standard
 * input. */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "vc-test-util.h"

/* Llama 3.1 8B in bf16: 8030261248 parameters × 2 bytes (its config.json in tests/hf-config) */
#define LLAMA_3_1_8B_WEIGHTS G_GINT64_CONSTANT (16060522496)

/* vramcalc with @args, standard input from @stdin_path and standard output to @stdout_path
 * (each NULL: a pipe); messages in English */
static void
run_redirected (VcTestRun          *r,
                const char         *stdin_path,
                const char         *stdout_path,
                const char * const *args)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  GSubprocessFlags flags = G_SUBPROCESS_FLAGS_STDERR_PIPE;

  if (stdin_path == NULL)
    flags |= G_SUBPROCESS_FLAGS_STDIN_PIPE;
  if (stdout_path == NULL)
    flags |= G_SUBPROCESS_FLAGS_STDOUT_PIPE;
  launcher = g_subprocess_launcher_new (flags);
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C.UTF-8", TRUE);
  if (stdin_path != NULL)
    g_subprocess_launcher_set_stdin_file_path (launcher, stdin_path);
  if (stdout_path != NULL)
    g_subprocess_launcher_set_stdout_file_path (launcher, stdout_path);
  g_ptr_array_add (argv, (gpointer) g_getenv ("VRAMCALC"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (process, NULL, NULL, &r->out, &r->err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (process));
  r->status = g_subprocess_get_exit_status (process);
}

static char *
llama_config (void)
{
  return g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", "Llama-3.1-8B", "config.json", NULL);
}

static JsonObject *
parse_report (JsonParser *parser,
              const char *text)
{
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, text, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

/* Every output, table, JSON, CSV and the listings, ends with status 1 and the error named
 * when standard output cannot be written: never 0 with a truncated result. */
static void
test_write_error (void)
{
  static const char *const cases[][6] = {
    { "--format", "json", "--params", "7B", NULL },
    { "--format", "csv", "--preset", "llama-3-8b", NULL },
    { "--preset", "llama-3-8b", "--explain", NULL },
    { "--list-presets", NULL },
    { "--list-gpus", NULL },
    { "--help", NULL },
    { "--version", NULL },
    { "--generate", "man", NULL },
  };

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full on this system");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(VcTestRun) r = { 0 };

      run_redirected (&r, NULL, "/dev/full", cases[i]);
      g_test_message ("vramcalc %s: %s", cases[i][0], r.err);
      g_assert_cmpint (r.status, ==, 1);
      g_assert_cmpstr (r.err, ==, "vramcalc: cannot write the output: No space left on device\n");
    }
}

/* A usage error keeps its status 2 even when standard output is full (nothing was written) */
static void
test_write_error_usage (void)
{
  g_auto(VcTestRun) r = { 0 };

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full on this system");
      return;
    }
  run_redirected (&r, NULL, "/dev/full", (const char *[]) { "--batch", "0", NULL });
  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "vramcalc: --batch: 0 is out of range"));
}

static void
test_short_help (void)
{
  g_autofree char *help = NULL, *short_help = NULL;

  g_assert_cmpint (vc_test_run_vramcalc ((const char *[]) { "--help", NULL }, NULL, &help, NULL), ==, 0);
  g_assert_cmpint (vc_test_run_vramcalc ((const char *[]) { "-h", NULL }, NULL, &short_help, NULL), ==, 0);
  g_assert_cmpstr (short_help, ==, help);
  g_assert_nonnull (strstr (help, "-h, --help"));
}

/* --config -: the same estimate as the file, named after the config's model_type (standard
 * input has no folder name) */
static void
test_config_stdin (void)
{
  g_autofree char *config = llama_config ();
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_auto(VcTestRun) from_stdin = { 0 };
  g_auto(VcTestRun) from_file = { 0 };
  JsonObject *a, *b;

  run_redirected (&from_stdin, config, NULL, (const char *[]) { "--config", "-", "--format", "json", NULL });
  g_assert_cmpstr (from_stdin.err, ==, "");
  g_assert_cmpint (from_stdin.status, ==, 0);
  run_redirected (&from_file, "/dev/null", NULL, (const char *[]) { "--config", config, "--format", "json", NULL });
  g_assert_cmpint (from_file.status, ==, 0);
  a = parse_report (p1, from_stdin.out);
  b = parse_report (p2, from_file.out);
  g_assert_cmpint (vc_test_component_bytes (a, "weights"), ==, LLAMA_3_1_8B_WEIGHTS);
  g_assert_cmpint (vc_test_component_bytes (a, "weights"), ==, vc_test_component_bytes (b, "weights"));
  g_assert_cmpint (vc_test_component_bytes (a, "kv_cache"), ==, vc_test_component_bytes (b, "kv_cache"));
  g_assert_cmpint (vc_test_component_bytes (a, "kv_cache"), >, 0);

  /* "--config=-" is the same */
  vc_test_run_clear (&from_file);
  run_redirected (&from_file, config, NULL, (const char *[]) { "--config=-", "--format", "json", NULL });
  g_assert_cmpstr (from_file.out, ==, from_stdin.out);
}

/* --config - with a quantization_config: sized as from the file (DeepSeek-V3 stores its
 * 671026419200 parameters in FP8, about one byte each, though torch_dtype says bfloat16) */
static void
test_quantized_config_stdin (void)
{
  g_autofree char *config = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models", "DeepSeek-V3",
                                              "config.json", NULL);
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  g_auto(VcTestRun) from_stdin = { 0 };
  g_auto(VcTestRun) from_file = { 0 };
  gint64 weights;

  run_redirected (&from_stdin, config, NULL, (const char *[]) { "--config", "-", "--format", "json", NULL });
  g_assert_cmpint (from_stdin.status, ==, 0);
  run_redirected (&from_file, "/dev/null", NULL, (const char *[]) { "--config", config, "--format", "json", NULL });
  g_assert_cmpint (from_file.status, ==, 0);
  weights = vc_test_component_bytes (parse_report (p1, from_stdin.out), "weights");
  g_assert_cmpint (weights, ==, vc_test_component_bytes (parse_report (p2, from_file.out), "weights"));
  g_assert_cmpint (weights, >, G_GINT64_CONSTANT (671026419200));
  g_assert_cmpint (weights, <, G_GINT64_CONSTANT (671026419200) * 11 / 10);
}

/* --profile -: a saved profile piped in gives what the file gives */
static void
test_profile_stdin (void)
{
  g_autofree char *dir = vc_test_make_tmpdir ("vc-cli-unix");
  g_autofree char *path = g_build_filename (dir, "plan.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_auto(VcTestRun) save = { 0 };
  g_auto(VcTestRun) from_stdin = { 0 };
  g_auto(VcTestRun) from_file = { 0 };

  run_redirected (&save, "/dev/null", NULL,
                  (const char *[]) { "--preset", "llama-3-8b", "--seq", "8192", "--concurrency", "2",
                                     "--save-profile", path, NULL });
  g_assert_cmpint (save.status, ==, 0);
  run_redirected (&from_stdin, path, NULL, (const char *[]) { "--profile", "-", "--format", "json", NULL });
  g_assert_cmpstr (from_stdin.err, ==, "");
  g_assert_cmpint (from_stdin.status, ==, 0);
  run_redirected (&from_file, "/dev/null", NULL, (const char *[]) { "--profile", path, "--format", "json", NULL });
  g_assert_cmpstr (from_stdin.out, ==, from_file.out);
  g_assert_cmpint (vc_test_component_bytes (parse_report (parser, from_stdin.out), "weights"), ==,
                   LLAMA_3_1_8B_WEIGHTS);
  vc_test_remove_tree (dir);
}

/* What standard input cannot give: twice the input, nothing, a folder, too much */
static void
test_stdin_refused (void)
{
  g_autofree char *config = llama_config ();
  g_autofree char *dir = vc_test_make_tmpdir ("vc-cli-unix");
  g_autofree char *big = g_build_filename (dir, "big.json", NULL);
  g_autofree char *blank = g_malloc0 (5 * 1024 * 1024);
  g_autoptr(GError) error = NULL;
  g_auto(VcTestRun) r = { 0 };

  run_redirected (&r, config, NULL, (const char *[]) { "--profile", "-", "--config", "-", NULL });
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "vramcalc: --profile: standard input is read once: "
                              "give “-” to --profile or to --config, not both\n");
  vc_test_run_clear (&r);

  run_redirected (&r, "/dev/null", NULL, (const char *[]) { "--config", "-", NULL });
  g_assert_cmpint (r.status, ==, 2);
  g_assert_true (g_str_has_prefix (r.err, "vramcalc: --config: standard input"));
  vc_test_run_clear (&r);

  run_redirected (&r, dir, NULL, (const char *[]) { "--config", "-", NULL });
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "vramcalc: --config: standard input: Is a directory\n");
  vc_test_run_clear (&r);

  memset (blank, ' ', 5 * 1024 * 1024);
  g_file_set_contents (big, blank, 5 * 1024 * 1024, &error);
  g_assert_no_error (error);
  run_redirected (&r, big, NULL, (const char *[]) { "--profile", "-", NULL });
  g_assert_cmpint (r.status, ==, 2);
  g_assert_cmpstr (r.err, ==, "vramcalc: --profile: standard input: more than 4.2\u00a0MB, "
                              "the most a profile or a config.json may have\n");
  vc_test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-unix/write-error", test_write_error);
  g_test_add_func ("/cli-unix/write-error-usage", test_write_error_usage);
  g_test_add_func ("/cli-unix/short-help", test_short_help);
  g_test_add_func ("/cli-unix/config-stdin", test_config_stdin);
  g_test_add_func ("/cli-unix/quantized-config-stdin", test_quantized_config_stdin);
  g_test_add_func ("/cli-unix/profile-stdin", test_profile_stdin);
  g_test_add_func ("/cli-unix/stdin-refused", test_stdin_refused);
  return g_test_run ();
}
