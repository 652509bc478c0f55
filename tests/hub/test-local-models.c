/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-local-models.c: the models on this computer, in a fake home folder written by
 * make-hub-fixtures.py: Ollama's manifests and blobs (a broken manifest, a missing blob, a
 * manifest with no model layer, links looping onto themselves), LM Studio's folders and the
 * Hugging Face cache; vramcalc --list-local-models and --model ollama:NAME. */
#include "config.h"

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "vc-local-model.h"
#include "vc-model-file.h"
#include "vc-test-util.h"

#define TINY_ELEMENTS 1692928
#define TINY_GGUF_BYTES 1107152

static char *fixtures;
static char *home;

static gboolean
has_line (GPtrArray  *lines,
          const char *words)
{
  for (guint i = 0; i < lines->len; i++)
    if (strstr (lines->pdata[i], words))
      return TRUE;
  return FALSE;
}

static void
test_list (void)
{
  g_autoptr(GPtrArray) skipped = NULL;
  g_autoptr(GPtrArray) models = vc_local_models_list (&skipped, NULL);
  static const struct { const char *source, *name, *format; } expected[] = {
    { "hf-cache", "tiny/llama", "safetensors" },
    { "lmstudio", "lmstudio-community/Tiny-GGUF/Tiny-Q4_K_M", "gguf" },
    { "ollama", "qwen3:30b-a3b", "gguf" },
    { "ollama", "qwen3:latest", "gguf" },
    { "ollama", "someone/tiny:q4", "gguf" },
  };

  for (guint i = 0; i < models->len; i++)
    g_test_message ("%s %s", vc_local_model_get_source (models->pdata[i]), vc_local_model_get_name (models->pdata[i]));
  for (guint i = 0; i < skipped->len; i++)
    g_test_message ("left out: %s", (char *) skipped->pdata[i]);
  g_assert_cmpuint (models->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      VcLocalModel *m = models->pdata[i];
      g_autoptr(GError) error = NULL;
      g_autoptr(VcModelFile) file = NULL;

      g_assert_cmpstr (vc_local_model_get_source (m), ==, expected[i].source);
      g_assert_cmpstr (vc_local_model_get_name (m), ==, expected[i].name);
      g_assert_cmpstr (vc_local_model_get_format (m), ==, expected[i].format);
      g_assert_cmpuint (vc_local_model_get_bytes (m), >, 0);
      /* each opens as a file chosen by hand would */
      file = vc_model_file_new_for_file (vc_local_model_get_file (m), NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (vc_model_file_get_parameters (file), ==, TINY_ELEMENTS);
    }
  /* what cannot be read is said, not listed */
  g_assert_true (has_line (skipped, "broken/latest"));
  g_assert_true (has_line (skipped, "blob sha256-cccc"));
  g_assert_true (has_line (skipped, "template-only/latest"));
  g_assert_true (has_line (skipped, "self-link"));
  g_assert_true (has_line (skipped, "models--tiny--looping"));
  g_assert_cmpuint (skipped->len, ==, 5);
}

static void
test_find_ollama (void)
{
  static const char *names[] = { "qwen3:30b-a3b", "qwen3", "library/qwen3:latest",
                                 "registry.ollama.ai/library/qwen3:30b-a3b", "someone/tiny:q4" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(VcLocalModel) m = vc_local_models_find_ollama (names[i], &error);
      g_autoptr(VcModelFile) file = NULL;

      g_assert_no_error (error);
      file = vc_model_file_new_for_file (vc_local_model_get_file (m), NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (vc_model_file_get_name (file), ==, "qwen3-tiny");
      g_assert_cmpfloat (vc_model_file_get_weights_bytes (file), ==, TINY_GGUF_BYTES);
    }
  {
    g_autoptr(GError) error = NULL;

    g_assert_null (vc_local_models_find_ollama ("gone", &error));
    g_assert_nonnull (strstr (error->message, "missing"));
    g_clear_error (&error);
    g_assert_null (vc_local_models_find_ollama ("nothing:7b", &error));
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
    g_assert_nonnull (strstr (error->message, "--list-local-models"));
    g_clear_error (&error);
    g_assert_null (vc_local_models_find_ollama ("../../etc:passwd", &error));
    g_assert_nonnull (strstr (error->message, "NAME:TAG"));
    g_clear_error (&error);
    g_assert_null (vc_local_models_find_ollama ("broken", &error));
    g_assert_nonnull (strstr (error->message, "broken/latest"));
  }
}

static void
test_cli (void)
{
  const char *env[] = { "HOME", home, NULL };
  g_autofree char *out = NULL, *err = NULL;

  {
    const char *args[] = { "--list-local-models", NULL };

    g_assert_cmpint (vc_test_run_vramcalc (args, env, &out, &err), ==, 0);
    g_assert_nonnull (strstr (out, "qwen3:30b-a3b"));
    g_assert_nonnull (strstr (out, "lmstudio-community/Tiny-GGUF/Tiny-Q4_K_M"));
    g_assert_nonnull (strstr (out, "tiny/llama"));
    g_assert_nonnull (strstr (err, "missing"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "--model", "ollama:qwen3:30b-a3b", "--format", "json", NULL };
    g_autoptr(JsonParser) parser = json_parser_new ();
    JsonObject *root;

    g_assert_cmpint (vc_test_run_vramcalc (args, env, &out, &err), ==, 0);
    g_assert_true (json_parser_load_from_data (parser, out, -1, NULL));
    root = json_node_get_object (json_parser_get_root (parser));
    g_assert_cmpint (json_object_get_int_member (root, "parameters"), ==, TINY_ELEMENTS);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "source"), "weights_bytes"),
                     ==, TINY_GGUF_BYTES);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "--model", "ollama:gone", NULL };

    g_assert_cmpint (vc_test_run_vramcalc (args, env, &out, &err), !=, 0);
    g_assert_nonnull (strstr (err, "sha256-cccc"));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *python = g_find_program_in_path ("python3");
  g_autofree char *script = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0, ret;

  fixtures = vc_test_make_tmpdir ("local-models");
  script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hub", "make-hub-fixtures.py", NULL);
  g_assert_nonnull (python);
  {
    const char *args[] = { python, script, fixtures, NULL };

    g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, &err, &status, &error));
    if (!g_spawn_check_wait_status (status, NULL))
      g_error ("make-hub-fixtures.py failed: %s", err);
  }
  home = g_build_filename (fixtures, "home", NULL);
  /* before GLib reads them: the home folder is the fake one, its tools' settings unset */
  g_setenv ("HOME", home, TRUE);
  g_unsetenv ("XDG_CACHE_HOME");
  g_unsetenv ("OLLAMA_MODELS");
  g_unsetenv ("HF_HOME");
  g_unsetenv ("HF_HUB_CACHE");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/local-models/list", test_list);
  g_test_add_func ("/local-models/find-ollama", test_find_ollama);
  g_test_add_func ("/local-models/cli", test_cli);
  ret = g_test_run ();

  vc_test_remove_tree (fixtures);
  g_free (home);
  g_free (fixtures);
  return ret;
}
