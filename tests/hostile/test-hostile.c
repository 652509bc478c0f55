/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hostile files and inputs (issue 27): each one below once stalled the program, took gigabytes,
 * faked a figure or wrote to the terminal. Each is now refused with a message naming the limit,
 * or read as it should be. How long each takes is measured by build-aux/bench-hostile. */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "vc-error.h"
#include "vc-gguf.h"
#include "vc-model-file.h"
#include "vc-safetensors.h"
#include "vc-test-util.h"

static char *scratch;
static char *files;               /* what make-hostile.py wrote */

static char *
hostile (const char *relative)
{
  return g_build_filename (files, relative, NULL);
}

static gboolean
read_gguf (const char  *relative,
           VcGguf      *g,
           GError     **error)
{
  g_autofree char *path = hostile (relative);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  vc_gguf_init (g);
  return vc_gguf_read (g, file, NULL, error);
}

static char *
model_config (const char *name)
{
  const char *srcdir = g_getenv ("VC_TESTS_SRCDIR");
  g_autofree char *path = g_build_filename (srcdir, "hf-config", "models", name, "config.json", NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* name's config.json with quantization_config set to `quant` (a JSON text), in a folder of its
 * own; returns the folder */
static char *
write_quantized (const char *name,
                 const char *folder,
                 const char *quant,
                 const char *layers)
{
  g_autofree char *text = model_config (name);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonParser) qparser = json_parser_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autofree char *dir = g_build_filename (scratch, folder, NULL);
  g_autofree char *path = g_build_filename (dir, "config.json", NULL);
  JsonObject *root;

  g_assert_true (json_parser_load_from_data (parser, text, -1, NULL));
  g_assert_true (json_parser_load_from_data (qparser, quant, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  json_object_set_member (root, "quantization_config", json_node_copy (json_parser_get_root (qparser)));
  if (layers)
    json_object_set_int_member (root, "num_hidden_layers", g_ascii_strtoll (layers, NULL, 10));
  json_generator_set_root (gen, json_parser_get_root (parser));
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (json_generator_to_file (gen, path, NULL));
  return g_steal_pointer (&dir);
}

static double
quantized_bytes (const char  *folder,
                 GError     **error)
{
  g_autoptr(VcModelFile) model = vc_model_file_new_for_path (folder, error);

  return model ? vc_model_file_get_weights_bytes (model) : -1;
}

/* 1. A pattern that backtracks without end is refused after a bounded number of steps; a long
 * skip list over many layers is refused by its count; plain patterns still match as before. */
static void
test_quant_regex (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *bad = write_quantized ("Llama-3.1-8B", "regex-stall",
                                          "{\"quant_method\": \"compressed-tensors\", \"format\": \"float-quantized\","
                                          " \"config_groups\": {\"group_0\": {\"targets\": [\"Linear\"],"
                                          " \"weights\": {\"num_bits\": 8, \"type\": \"float\"}}},"
                                          " \"ignore\": [\"lm_head\", \"re:(.*)*(.*)*(.*)*(.*)*mlp\\\\.gate$\"]}", NULL);
  g_autoptr(GString) many = g_string_new ("{\"quant_method\": \"fp8\", \"modules_to_not_convert\": [");
  g_autofree char *wide = NULL;
  g_autofree char *plain = NULL, *pattern = NULL;
  double plain_bytes, pattern_bytes;

  g_assert_cmpfloat (quantized_bytes (bad, &error), <, 0);
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "takes more than 2000 steps to match"));
  g_clear_error (&error);

  for (guint i = 0; i < 50; i++)
    g_string_append_printf (many, "%s\"model.layers.*.mlp.x%u*\"", i ? ", " : "", i);
  g_string_append (many, "]}");
  wide = write_quantized ("Llama-3.1-8B", "regex-wide", many->str, "20000");
  g_assert_cmpfloat (quantized_bytes (wide, &error), <, 0);
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "accepted: at most 4000000 checks, 100000 of them patterns"));
  g_clear_error (&error);

  /* a pattern and the substring it stands for skip the same modules */
  plain = write_quantized ("Llama-3.1-8B", "regex-plain",
                           "{\"quant_method\": \"fp8\", \"modules_to_not_convert\": [\"lm_head\", \"mlp.down_proj\"]}", NULL);
  pattern = write_quantized ("Llama-3.1-8B", "regex-pattern",
                             "{\"quant_method\": \"fp8\", \"modules_to_not_convert\": [\"lm_head\", \"re:.*mlp\\\\.down_pr[o]j$\"]}", NULL);
  plain_bytes = quantized_bytes (plain, &error);
  g_assert_no_error (error);
  pattern_bytes = quantized_bytes (pattern, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (plain_bytes, >, 8e9);
  g_assert_cmpfloat (pattern_bytes, ==, plain_bytes);
}

/* 2. An index whose size reads 0 and never ends is read no further than its cap. */
static void
test_index_capped (void)
{
  g_autofree char *folder = hostile ("pagemap");
  g_autoptr(GFile) file = g_file_new_for_path (folder);
  g_autoptr(GError) error = NULL;
  VcSafetensors st;

  if (!g_file_test ("/proc/self/pagemap", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /proc/self/pagemap");
      return;
    }
  vc_safetensors_init (&st);
  g_assert_false (vc_safetensors_read_folder (&st, file, NULL, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_PARSE);
  g_assert_true (g_str_has_suffix (error->message, "model.safetensors.index.json: the index is larger than 64 MiB"));
  vc_safetensors_clear (&st);
}

/* 3. Arrays too long to be per-layer are skipped, not kept; arrays that could be per-layer are
 * kept, up to 64 MiB a header. The model itself reads as it did. */
static void
test_gguf_arrays (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(VcGguf) g = { 0 };
  g_auto(VcGguf) kept = { 0 };
  const VcGgufValue *v;

  g_assert_true (read_gguf ("arrays-long.gguf", &g, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g.n_tensors, ==, 3 + 2 * 9);
  g_assert_cmpuint (g.elements, ==, 1692928);
  g_assert_cmpuint (g.tensor_bytes, ==, 1107152);
  v = vc_gguf_get (&g, "junk.479");
  g_assert_nonnull (v);
  g_assert_cmpint (v->kind, ==, VC_GGUF_VALUE_ARRAY);
  g_assert_cmpuint (v->length, ==, 1 << 20);
  g_assert_null (v->values);

  g_assert_false (read_gguf ("arrays-kept.gguf", &kept, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_PARSE);
  g_assert_true (g_str_has_suffix (error->message, "arrays-kept.gguf: the header's keys, values and tensor names take more than 64 MiB"));
}

/* 4 and 7. A split model's parts each say their place, and no tensor is in two of them: a
 * part repeated (a link to the first) or tensors repeated are refused, as llama.cpp does. */
static void
test_gguf_split (void)
{
  g_autoptr(GError) error = NULL;
  g_auto(VcGguf) repeat = { 0 };
  g_auto(VcGguf) dup = { 0 };

  g_assert_false (read_gguf ("split-repeat/tiny-00001-of-00003.gguf", &repeat, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_PARSE);
  g_assert_true (g_str_has_suffix (error->message,
                                   "tiny-00002-of-00003.gguf: this file says it is not part 2 of the split model (its split.no is not 1)"));
  g_clear_error (&error);

  g_assert_false (read_gguf ("split-dup/tiny-00001-of-00002.gguf", &dup, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_PARSE);
  g_assert_true (g_str_has_suffix (error->message,
                                   "tiny-00001-of-00002.gguf: tensor “token_embd.weight” is in two parts of the split model"));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  scratch = vc_test_make_tmpdir ("hostile");
  files = g_build_filename (scratch, "files", NULL);
  g_assert_cmpint (g_mkdir_with_parents (files, 0755), ==, 0);
  {
    g_autofree char *script = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hostile", "make-hostile.py", NULL);
    g_autofree char *python = g_find_program_in_path ("python3");
    const char *args[] = { python, script, files, NULL };
    int wait_status = 0;

    g_assert_nonnull (python);
    g_assert_true (g_spawn_sync (NULL, (char **) args, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &wait_status, NULL));
    g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  }
  g_test_add_func ("/hostile/quant-regex", test_quant_regex);
  g_test_add_func ("/hostile/index-capped", test_index_capped);
  g_test_add_func ("/hostile/gguf-arrays", test_gguf_arrays);
  g_test_add_func ("/hostile/gguf-split", test_gguf_split);
  status = g_test_run ();
  vc_test_remove_tree (scratch);
  g_free (scratch);
  g_free (files);
  return status;
}
