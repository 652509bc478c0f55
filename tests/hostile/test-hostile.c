/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hostile files and inputs (issue 27): each one below once stalled the program, took gigabytes,
 * faked a figure or wrote to the terminal. Each is now refused with a message naming the limit,
 * or read as it should be. How long each takes is measured by build-aux/bench-hostile. */
#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>
#include <unistd.h>

#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-gguf.h"
#include "vc-local-gpus.h"
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
  g_assert_nonnull (strstr (error->message, "takes more than 200 steps to match"));
  g_clear_error (&error);

  for (guint i = 0; i < 50; i++)
    g_string_append_printf (many, "%s\"model.layers.*.mlp.x%u*\"", i ? ", " : "", i);
  g_string_append (many, "]}");
  wide = write_quantized ("Llama-3.1-8B", "regex-wide", many->str, "20000");
  g_assert_cmpfloat (quantized_bytes (wide, &error), <, 0);
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_nonnull (strstr (error->message, "accepted: at most 4000000 checks, 5000 of them patterns"));
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

  /* strings skipped straight from the reader's buffer, across its chunks */
  {
    g_auto(VcGguf) strings = { 0 };

    g_assert_true (read_gguf ("many-strings.gguf", &strings, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (vc_gguf_get (&strings, "junk.tokens")->length, ==, 150000);
    g_assert_cmpstr (vc_gguf_get_string (&strings, "llama.attention.head_count") , ==, NULL);
    g_assert_cmpuint (strings.tensor_bytes, ==, 1107152);
  }

  g_assert_false (read_gguf ("arrays-kept.gguf", &kept, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_PARSE);
  g_assert_true (g_str_has_suffix (error->message, "arrays-kept.gguf: the header's keys, values and tensor names take more than 64 MiB"));
}

/* Found by fuzz-gguf: an empty integer array, read as a block of no bytes (a NULL block passed to
 * memcpy, which UBSan refuses). Read, as an empty array. */
static void
test_gguf_empty_array (void)
{
  static const char crash[] =
    "R0dVRgMAAAABAAAAAAAAAAEAAAAAAAAAFAAAAAAAAABnZW5lAAAAAAAAAAAAAAAAAAAAAAkAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
    "AAAAAAAAcmFsKWFyY2hpdGVjdHVyZQgAAAAEAAAAAAAAAGNsaXATAAAAAAAAAHYucGF0Y2hfZW1iZC53ZWlnaHQCAAAA////////"
    "//////////////////8oAAAA//////////////////////////////////8gAAAAAAAAACDv778ABQAAAAAAAABAAGwA";
  gsize length;
  g_autofree guint8 *data = g_base64_decode (crash, &length);
  g_autoptr(GError) error = NULL;
  g_auto(VcGguf) g = { 0 };
  gboolean ok;
  const VcGgufValue *v;

  vc_gguf_init (&g);
  ok = vc_gguf_parse (&g, data, length, "fuzz.gguf", &error);
  g_assert_true (ok == (error == NULL));
  /* the array of no values is kept as such before any later fault */
  vc_gguf_clear (&g);
  vc_gguf_init (&g);
  {
    static const guint8 empty[] = {
      'G', 'G', 'U', 'F', 3, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,  1, 0, 0, 0, 0, 0, 0, 0,
      1, 0, 0, 0, 0, 0, 0, 0, 'k',  9, 0, 0, 0,  4, 0, 0, 0,  0, 0, 0, 0, 0, 0, 0, 0,
      /* padding to the data area, at 64 */
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    };

    g_clear_error (&error);
    g_assert_true (vc_gguf_parse (&g, empty, sizeof empty, "empty.gguf", &error));
    g_assert_no_error (error);
    v = vc_gguf_get (&g, "k");
    g_assert_nonnull (v);
    g_assert_cmpint (v->kind, ==, VC_GGUF_VALUE_ARRAY);
    g_assert_nonnull (v->values);
    g_assert_cmpuint (v->values->len, ==, 0);
  }
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

/* 5. A profile with 75,000 GPUs of one's own is refused at once, naming the limit; 256 are
 * accepted. Smaller: a name twice, or a name of the catalog, is refused. */
static void
test_custom_gpus_cap (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GString) many = g_string_new (NULL);
  g_autoptr(GString) most = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *profile = g_build_filename (scratch, "many-gpus.json", NULL);
  g_autofree char *text = NULL;
  g_autofree char *out = NULL, *err = NULL;
  const char *args[] = { "--profile", profile, NULL };

  for (guint i = 0; i < 75000; i++)
    g_string_append_printf (many, "%sCard %u=24GB", i ? "; " : "", i);
  for (guint i = 0; i < 256; i++)
    g_string_append_printf (most, "%sCard %u=24GB", i ? "; " : "", i);
  g_assert_false (vc_estimate_set_custom_gpus (e, many->str, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_cmpstr (error->message, ==, "the GPU list holds 75000 GPUs; accepted: at most 256 GPUs of one's own");
  g_clear_error (&error);
  g_assert_true (vc_estimate_set_custom_gpus (e, most->str, &error));
  g_assert_no_error (error);

  text = g_strdup_printf ("{\"format\": \"vram-calculator-profile\", \"version\": 1, \"name\": \"many\","
                          " \"inputs\": {\"custom-gpus\": \"%s\"}}", many->str);
  g_assert_true (g_file_set_contents (profile, text, -1, NULL));
  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "the GPU list holds 75000 GPUs; accepted: at most 256 GPUs of one's own"));

  g_assert_false (vc_estimate_set_custom_gpus (e, "Lab=24GB; lab=48GB", &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_cmpstr (error->message, ==, "the GPU name “lab” is already taken (by the catalog or an earlier GPU); accepted: a name of its own");
  g_clear_error (&error);
  g_assert_false (vc_estimate_set_custom_gpus (e, "H100 80 GB=24GB", &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  g_assert_false (vc_estimate_set_custom_gpus (e, "rtx-4090=24GB", &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_clear_error (&error);
  /* the catalog's names and ids in any case, once the list has been parsed before */
  g_assert_false (vc_estimate_set_custom_gpus (e, "Lab=24GB; h100 80 gb=24GB", &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  g_assert_cmpstr (error->message, ==, "the GPU name “h100 80 gb” is already taken (by the catalog or an earlier GPU); accepted: a name of its own");
  g_clear_error (&error);
  g_assert_false (vc_estimate_set_custom_gpus (e, "RTX-4090=24GB", &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
}

/* 12. Control characters of a model's name and of a tensor's name reach the terminal escaped, in
 * the table and in messages. */
static void
test_controls_escaped (void)
{
  g_autofree char *model = hostile ("control-name.gguf");
  g_autofree char *evil = hostile ("control-tensor.gguf");
  g_autofree char *out = NULL, *err = NULL;
  const char *table[] = { "--model", model, NULL };
  const char *refused[] = { "--model", evil, NULL };

  g_assert_cmpint (vc_test_run_vramcalc (table, NULL, &out, &err), ==, 0);
  g_assert_true (g_str_has_prefix (out, "Model: evil\\e[2J\\rFITS \\u009B31m\n"));
  g_assert_null (strchr (out, '\x1b'));
  g_assert_null (strchr (out, '\r'));
  g_assert_null (strstr (out, "\xc2\x9b"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (vc_test_run_vramcalc (refused, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "tensor “evil\\e[2J\\r.weight” has the ggml type 31, which is not known"));
  g_assert_null (strchr (err, '\x1b'));
  g_assert_null (strchr (err, '\r'));
}

static VcLocalGpu *
local_gpu (const char *name,
           const char *vendor,
           double      mib)
{
  VcLocalGpu *gpu = g_new0 (VcLocalGpu, 1);

  gpu->name = g_strdup (name);
  gpu->vendor = g_strdup (vendor);
  gpu->memory_bytes = mib * 1048576.0;
  return gpu;
}

/* 14. One odd card (an APU's 64 MiB carve-out) is left out and said; names with separators or
 * control characters are cleared; the others are kept and the estimate takes them. */
static void
test_local_odd_card (void)
{
  g_autoptr(GPtrArray) gpus = g_ptr_array_new_with_free_func ((GDestroyNotify) vc_local_gpu_free);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) notes = NULL;
  g_autofree char *text = NULL;

  g_ptr_array_add (gpus, local_gpu ("NVIDIA GeForce RTX 4090", "NVIDIA", 24564));
  g_ptr_array_add (gpus, local_gpu ("AMD Radeon 780M", "AMD", 64));
  g_ptr_array_add (gpus, local_gpu ("Lab;card=2\x1b[2J\xc2\x9b", "AMD", 49152));
  g_ptr_array_add (gpus, local_gpu ("NVIDIA GeForce RTX 4090", "NVIDIA", 24564));
  g_ptr_array_add (gpus, local_gpu ("NVIDIA GeForce RTX 4090", "NVIDIA", 24000));
  g_ptr_array_add (gpus, local_gpu (";;", "AMD", 16384));
  text = vc_local_gpus_to_custom_full (gpus, &notes);
  g_assert_cmpstr (text, ==, "NVIDIA GeForce RTX 4090=24564MiB; Lab card 2 [2J=49152MiB; "
                             "NVIDIA GeForce RTX 4090 (2)=24000MiB; AMD GPU=16384MiB");
  g_assert_cmpuint (g_strv_length (notes), ==, 1);
  g_assert_cmpstr (notes[0], ==, "“AMD Radeon 780M” is left out: its 64 MiB of memory is outside the 0.1 GB to 100000 GB a GPU may have");
  g_assert_true (vc_estimate_set_custom_gpus (e, text, &error));
  g_assert_no_error (error);
}

/* 9. When nothing fits, the need is compared with what the engine may use, never with a larger
 * figure it would fit in. 10. A negative overhead other than -1 (the default) is refused. */
static void
test_solver_message_and_overhead (void)
{
  g_autofree char *model = hostile ("control-name.gguf");
  g_autofree char *out = NULL, *err = NULL;
  /* vLLM's request of 5 % beside the CUDA context, a profile run of a million tokens */
  const char *solve[] = { "--model", model, "--solve", "seq", "--fit-gpu", "rtx-4060-8gb", "--engine", "vllm",
                          "--gpu-memory-utilization", "0.05", "--max-num-batched-tokens", "1048576", NULL };
  const char *overhead[] = { "--params", "7B", "--overhead=-0.1", NULL };
  const char *fallback[] = { "--params", "7B", "--overhead=-1", "--format", "json", NULL };

  g_assert_cmpint (vc_test_run_vramcalc (solve, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "Not even a sequence of 1 token fits on 1 × RTX 4060 8 GB: it needs 5.44\u00a0GB per GPU, of 1.43\u00a0GB usable\n"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (vc_test_run_vramcalc (overhead, NULL, &out, &err), ==, 2);
  g_assert_cmpstr (err, ==, "vramcalc: --overhead: -0.1 is out of range for overhead-gb; accepted: -1 (the method's default) or 0 to 10000\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (vc_test_run_vramcalc (fallback, NULL, &out, &err), ==, 0);
}

/* 8. Architecture options after a model file that contradict its tensors are refused; a
 * profile's hand-edited source-* fields are checked like every other input. */
static void
test_file_figures_kept_honest (void)
{
  static const struct { const char *inputs; const char *message; } profiles[] = {
    { "\"method\": \"architecture\", \"layers\": 80, \"source-format\": \"gguf\", \"source-weights-bytes\": 1107152, \"source-parameters\": 1692928",
      "the architecture describes 1.645e+10 parameters, the model's files 1.693e+06: the file's figures would be shown for another model" },
    { "\"source-format\": \"zip\"", "source-format “zip” is not known; accepted: config, safetensors, gguf, or empty" },
    { "\"source-weights-bytes\": 1107152, \"source-parameters\": 1692928",
      "source-weights-bytes and source-parameters go together, with a source-format" },
    { "\"source-format\": \"gguf\", \"source-weights-bytes\": 1, \"source-parameters\": 1692928",
      "source-weights-bytes (1) for 1.69293e+06 parameters is not 1 to 64 bits a parameter" },
  };
  g_autofree char *model = hostile ("control-name.gguf");
  g_autofree char *out = NULL, *err = NULL;
  const char *layers[] = { "--model", model, "--layers", "80", NULL };
  const char *same[] = { "--model", model, "--layers", "2", "--format", "json", NULL };

  g_assert_cmpint (vc_test_run_vramcalc (layers, NULL, &out, &err), ==, 2);
  g_assert_cmpstr (err, ==, "vramcalc: --layers: the model file's tensors say layers is 2; an option that changes the model "
                            "would leave the file's weights and parameters describing another one; accepted: 2, or --config to describe a model\n");
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (vc_test_run_vramcalc (same, NULL, &out, &err), ==, 0);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    {
      g_autofree char *path = g_build_filename (scratch, "edited.json", NULL);
      g_autofree char *text = g_strdup_printf ("{\"format\": \"vram-calculator-profile\", \"version\": 1, \"name\": \"edited\", \"inputs\": {%s}}",
                                               profiles[i].inputs);
      const char *args[] = { "--profile", path, NULL };

      g_assert_true (g_file_set_contents (path, text, -1, NULL));
      g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), !=, 0);
      g_assert_nonnull (strstr (err, profiles[i].message));
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
    }
}

/* 11. Saving never replaces a file made read-only, never parts hard links, writes through a
 * link (dangling or not) to its target; smaller: a name of 255 bytes is saved. */
static void
test_save_safely (void)
{
  g_autofree char *dir = g_build_filename (scratch, "save", NULL);
  g_autofree char *ro = g_build_filename (dir, "read-only.json", NULL);
  g_autofree char *linked = g_build_filename (dir, "linked.json", NULL);
  g_autofree char *other = g_build_filename (dir, "other-name.json", NULL);
  g_autofree char *symbolic = g_build_filename (dir, "link.json", NULL);
  g_autofree char *target = g_build_filename (dir, "target.json", NULL);
  g_autofree char *longname = NULL;
  g_autofree char *out = NULL, *err = NULL;
  g_autofree char *before = NULL, *after = NULL;
  g_autofree char *base = g_strnfill (250, 'p');
  GStatBuf st;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  {
    const char *args[] = { "--params", "7B", "--save-profile", ro, NULL };
    const char *again[] = { "--params", "8B", "--save-profile", ro, NULL };

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
    g_assert_cmpint (g_chmod (ro, 0444), ==, 0);
    g_assert_true (g_file_get_contents (ro, &before, NULL, NULL));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (vc_test_run_vramcalc (again, NULL, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "read-only.json: the file is read-only; it was left as it was (make it writable, or save under another name)"));
    g_assert_true (g_file_get_contents (ro, &after, NULL, NULL));
    g_assert_cmpstr (after, ==, before);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "--params", "7B", "--save-profile", linked, NULL };
    const char *again[] = { "--params", "8B", "--save-profile", linked, NULL };

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
    g_assert_cmpint (link (linked, other), ==, 0);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (vc_test_run_vramcalc (again, NULL, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "the file has other names (hard links)"));
    g_assert_cmpint (g_stat (linked, &st), ==, 0);
    g_assert_cmpuint (st.st_nlink, ==, 2);
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    const char *args[] = { "--params", "7B", "--save-profile", symbolic, NULL };

    g_assert_cmpint (symlink ("target.json", symbolic), ==, 0);
    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
    g_assert_true (g_file_test (symbolic, G_FILE_TEST_IS_SYMLINK));
    g_assert_true (g_file_test (target, G_FILE_TEST_IS_REGULAR));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
  }
  {
    longname = g_strdup_printf ("%s/%s.json", dir, base);
    const char *args[] = { "--params", "7B", "--save-profile", longname, NULL };

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
    g_assert_true (g_file_test (longname, G_FILE_TEST_IS_REGULAR));
  }
}

/* The smaller items: each message says what the input is. */
static void
test_smaller (void)
{
  static const struct { const char *args[8]; const char *message; } cases[] = {
    { { "--model", "two-models" }, "two-models: several GGUF models (a.gguf, b.gguf): open one of them" },
    { { "--model", "pipe.gguf" }, "pipe.gguf is not a regular file (a pipe, device or socket), so not a GGUF file" },
    { { "--model", "dangling.gguf" }, "dangling.gguf is a link to a file that does not exist" },
  };
  g_autofree char *bits = write_quantized ("Llama-3.1-8B", "bits-wide",
                                           "{\"quant_method\": \"awq\", \"bits\": 4294967300, \"group_size\": 128}", NULL);
  g_autofree char *config = g_build_filename (bits, "config.json", NULL);
  const char *bits_args[] = { "--config", config, NULL };
  const char *count_args[] = { "--preset", "llama-3.1-8b", "--solve", "seq", "--fit-gpu", "t4", "--gpu-count", "1k", NULL };
  g_autofree char *out = NULL, *err = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = hostile (cases[i].args[1]);
      const char *args[] = { cases[i].args[0], path, NULL };

      g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
      g_test_message ("%s", err);
      g_assert_nonnull (strstr (err, cases[i].message));
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
    }

  g_assert_cmpint (vc_test_run_vramcalc (bits_args, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "quantization_config.bits is 4294967300;"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  g_assert_cmpint (vc_test_run_vramcalc (count_args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, "fits on 1000 × T4"));

  /* safetensors headers are plain JSON, as the format's own reader takes them */
  for (guint i = 0; i < 2; i++)
    {
      g_autofree char *path = hostile (i == 0 ? "st-comment.safetensors" : "st-hex.safetensors");
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      VcSafetensors st;

      vc_safetensors_init (&st);
      g_assert_false (vc_safetensors_read_file (&st, file, NULL, &error));
      g_assert_error (error, VC_ERROR, VC_ERROR_PARSE);
      g_assert_true (g_str_has_suffix (error->message, i == 0 ? "the header is not plain JSON at byte 14 (comments, single quotes and hex numbers are not taken)"
                                                              : "the header is not plain JSON at byte 42 (comments, single quotes and hex numbers are not taken)"));
      vc_safetensors_clear (&st);
    }
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
  g_test_add_func ("/hostile/gguf-empty-array", test_gguf_empty_array);
  g_test_add_func ("/hostile/custom-gpus-cap", test_custom_gpus_cap);
  g_test_add_func ("/hostile/controls-escaped", test_controls_escaped);
  g_test_add_func ("/hostile/local-odd-card", test_local_odd_card);
  g_test_add_func ("/hostile/solver-message-overhead", test_solver_message_and_overhead);
  g_test_add_func ("/hostile/file-figures", test_file_figures_kept_honest);
  g_test_add_func ("/hostile/save-safely", test_save_safely);
  g_test_add_func ("/hostile/smaller", test_smaller);
  status = g_test_run ();
  vc_test_remove_tree (scratch);
  g_free (scratch);
  g_free (files);
  return status;
}
