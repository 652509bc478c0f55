/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-test-util.c: running vramcalc ($VRAMCALC, set by the test environment) and scratch folders
 * for the core and command-line tests. */
#include "config.h"

#include <glib/gstdio.h>
#include <sys/wait.h>

#include "vc-catalog.h"
#include "vc-test-util.h"

/**
 * vc_test_run_vramcalc:
 * @args: the arguments after the program name, NULL-terminated
 * @env: (nullable): "NAME", "VALUE" pairs to set in the child's environment, NULL-terminated
 * @out: (out) (optional): standard output
 * @err: (out) (optional): standard error
 *
 * Output is always captured, so that the child never writes into the test's TAP stream.
 *
 * Returns: the exit status (the test fails if the program did not exit normally)
 */
int
vc_test_run_vramcalc (const char * const *args,
                      const char * const *env,
                      char              **out,
                      char              **err)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *child_out = NULL;
  g_autofree char *child_err = NULL;
  const char *exe = g_getenv ("VRAMCALC");
  int status = 0;

  g_assert_nonnull (exe);
  g_ptr_array_add (argv, (gpointer) exe);
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (gpointer) args[i]);
  g_ptr_array_add (argv, NULL);
  for (guint i = 0; env != NULL && env[i] != NULL && env[i + 1] != NULL; i += 2)
    envp = g_environ_setenv (envp, env[i], env[i + 1], TRUE);

  g_spawn_sync (NULL, (char **) argv->pdata, envp, G_SPAWN_DEFAULT, NULL, NULL,
                &child_out, &child_err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (status));
  if (out != NULL)
    *out = g_steal_pointer (&child_out);
  if (err != NULL)
    *err = g_steal_pointer (&child_err);
  return WEXITSTATUS (status);
}

void
vc_test_run_clear (VcTestRun *run)
{
  g_clear_pointer (&run->out, g_free);
  g_clear_pointer (&run->err, g_free);
}

JsonObject *
vc_test_run_json (JsonParser         *parser,
                  const char * const *args)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = vc_test_run_vramcalc (args, NULL, &out, &err);

  if (status != 0)
    g_error ("vramcalc %s: status %d: %s", args[0], status, err);
  json_parser_load_from_data (parser, out, -1, &error);
  g_assert_no_error (error);
  return json_node_get_object (json_parser_get_root (parser));
}

guint
vc_test_gpu_index (VcEstimate *estimate,
                   const char *id)
{
  for (guint i = 0; i < vc_estimate_get_n_gpus (estimate); i++)
    if (g_str_equal (vc_estimate_get_gpu (estimate, i)->id, id))
      return i;
  g_error ("no GPU %s", id);
}

char *
vc_test_make_tmpdir (const char *prefix)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmpl = g_strconcat (prefix, "-XXXXXX", NULL);
  char *dir = g_dir_make_tmp (tmpl, &error);

  g_assert_no_error (error);
  return dir;
}

void
vc_test_remove_tree (const char *path)
{
  GDir *dir;
  const char *name;

  /* folders a test made read-only must be emptied too */
  g_chmod (path, 0755);
  dir = g_dir_open (path, 0, NULL);
  if (dir != NULL)
    {
      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
            vc_test_remove_tree (child);
          else
            g_unlink (child);
        }
      g_dir_close (dir);
    }
  g_rmdir (path);
}

/* The bytes of one component in vramcalc's JSON (the selected scenario's); -1 when the report
 * has no such component. */
gint64
vc_test_component_bytes (JsonObject *report,
                         const char *id)
{
  JsonArray *components = json_object_get_array_member (report, "components");

  for (guint i = 0; i < json_array_get_length (components); i++)
    {
      JsonObject *c = json_array_get_object_element (components, i);

      if (g_str_equal (json_object_get_string_member (c, "id"), id))
        return json_object_get_int_member (c, "bytes");
    }
  return -1;
}

/* The sparse GGUF and safetensors fixtures of tests/model-files, written by make-fixtures.py
 * into a new scratch folder (the caller removes it). */
char *
vc_test_make_model_fixtures (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "model-files", "make-fixtures.py", NULL);
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *err = NULL;
  char *fixtures = vc_test_make_tmpdir ("vc-model-files");
  const char *args[] = { python, script, fixtures, NULL };
  int status = 0;

  g_assert_nonnull (python);
  g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("make-fixtures.py failed: %s", err);
  return fixtures;
}

/* Kimi K2 is DeepSeek-V3's architecture (DeepseekV3ForCausalLM) under its own model_type */
static const char *
shape_of (const VcPreset *p)
{
  return g_str_equal (p->family, "kimi_k2") ? "deepseek_v3" : p->family;
}

gboolean
vc_test_first_of_family (guint index)
{
  guint n;
  const VcPreset *p = vc_presets_get_all (&n);

  g_assert_cmpuint (index, <, n);
  /* the smallest of its family and kind, the first of equals */
  for (guint i = 0; i < n; i++)
    if (i != index && g_str_equal (shape_of (&p[i]), shape_of (&p[index])) &&
        vc_arch_is_moe (&p[i].arch) == vc_arch_is_moe (&p[index].arch) &&
        (p[i].published_parameters < p[index].published_parameters ||
         (p[i].published_parameters == p[index].published_parameters && i < index)))
      return FALSE;
  return TRUE;
}

gboolean
vc_test_sampled (guint index,
                 guint round)
{
  static guint stride;

  if (stride == 0)
    {
      const char *env = g_getenv ("VC_TEST_SAMPLE");
      guint64 n = env != NULL ? g_ascii_strtoull (env, NULL, 10) : 1;

      stride = n >= 1 && n <= 1000 ? (guint) n : 1;
    }
  return (index + round) % stride == 0;
}

VcEstimate *
vc_test_estimate_new (const char *preset,
                      ...)
{
  VcEstimate *e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const char *name;
  va_list args;

  if (!vc_estimate_set_preset (e, preset, &error) ||
      !vc_estimate_set_from_string (e, "method", "architecture", &error))
    g_error ("%s: %s", preset, error->message);
  va_start (args, preset);
  while ((name = va_arg (args, const char *)) != NULL)
    {
      const char *value = va_arg (args, const char *);

      if (!vc_estimate_set_from_string (e, name, value, &error))
        g_error ("%s=%s: %s", name, value, error->message);
    }
  va_end (args);
  return e;
}
