/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vramcalc --solve, --fit-gpu, --gpu-count end to end: the table's sentence, the JSON "solve"
 * object and each GPU's max_* fields, the CSV rows, and the promise the issue makes: given back
 * as an input, the value fits the GPU(s), and one more does not unless the model's context
 * stops it. */
#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "vc-test-util.h"

static char *
run_ok (const char * const *args)
{
  g_autofree char *out = NULL, *err = NULL;
  int status = vc_test_run_vramcalc (args, NULL, &out, &err);

  if (status != 0)
    g_error ("vramcalc %s: status %d: %s", args[0], status, err);
  return g_steal_pointer (&out);
}

static JsonObject *
gpu_entry (JsonObject *root,
           const char *id)
{
  JsonArray *gpus = json_object_get_array_member (root, "gpus");

  for (guint i = 0; i < json_array_get_length (gpus); i++)
    {
      JsonObject *o = json_array_get_object_element (gpus, i);

      if (g_str_equal (json_object_get_string_member (o, "id"), id) ||
          g_str_equal (json_object_get_string_member (o, "name"), id))
        return o;
    }
  g_assert_not_reached ();
}

/* The value given back as --VARIABLE: on `count` GPUs it fits, as the GPU table counts them */
static gboolean
fits_with (const char *preset,
           const char *mode,
           const char *variable,
           gint64      value,
           const char *gpu,
           gint64      count)
{
  g_autoptr(JsonParser) p = json_parser_new ();
  g_autofree char *v = g_strdup_printf ("%" G_GINT64_FORMAT, value);
  g_autofree char *option = g_strconcat ("--", variable, NULL);
  const char *args[] = { "--preset", preset, "--mode", mode, option, v, "--format", "json", NULL };
  JsonObject *root = vc_test_run_json (p, args);
  JsonObject *entry = gpu_entry (root, gpu);

  if (count == 1)
    return json_object_get_boolean_member (entry, "fits");
  return !json_object_get_null_member (entry, "count") && json_object_get_int_member (entry, "count") <= count;
}

static void
test_round_trip (void)
{
  static const struct { const char *preset, *mode, *variable, *gpu, *count; } cases[] = {
    { "llama-3.1-8b", "inference", "seq", "rtx-4090", "1" },
    { "llama-3.1-8b", "inference", "concurrency", "h100-80gb", "1" },
    { "llama-3.1-8b", "inference", "batch", "l4", "1" },
    { "mixtral-8x7b", "inference", "concurrency", "a100-80gb", "2" },
    { "deepseek-r1", "inference", "concurrency", "h200", "16" },
    { "llama-3.1-70b", "inference", "seq", "a100-40gb", "4" },
    { "gemma-2-9b", "inference", "seq", "l4", "1" },
    { "qwen3-30b-a3b", "training", "batch", "h100-80gb", "1" },
    { "llama-3-8b", "training", "seq", "a100-80gb", "1" },
    { "llama-2-70b", "training", "batch", "h200", "4" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonParser) p = json_parser_new ();
      const char *args[] = { "--preset", cases[i].preset, "--mode", cases[i].mode, "--solve", cases[i].variable,
                             "--fit-gpu", cases[i].gpu, "--gpu-count", cases[i].count, "--format", "json", NULL };
      JsonObject *root = vc_test_run_json (p, args);
      JsonObject *solve = json_object_get_object_member (root, "solve");
      gint64 count = g_ascii_strtoll (cases[i].count, NULL, 10);
      const char *limit;
      gint64 value;

      g_test_message ("%s %s %s on %s × %s", cases[i].preset, cases[i].mode, cases[i].variable,
                      cases[i].count, cases[i].gpu);
      g_assert_nonnull (solve);
      g_assert_cmpstr (json_object_get_string_member (solve, "variable"), ==, cases[i].variable);
      g_assert_cmpstr (json_object_get_string_member (solve, "gpu"), ==, cases[i].gpu);
      g_assert_cmpint (json_object_get_int_member (solve, "gpu_count"), ==, count);
      g_assert_cmpint (json_object_get_int_member (solve, "capacity_bytes"), ==,
                       json_object_get_int_member (gpu_entry (root, cases[i].gpu), "memory_bytes"));
      g_assert_cmpint (json_object_get_int_member (solve, "total_bytes"), <=,
                       json_object_get_int_member (solve, "capacity_bytes"));
      g_assert_false (json_object_get_null_member (solve, "value"));
      value = json_object_get_int_member (solve, "value");
      limit = json_object_get_string_member (solve, "limit");
      g_test_message ("value %" G_GINT64_FORMAT ", limit %s", value, limit);

      g_assert_true (fits_with (cases[i].preset, cases[i].mode, cases[i].variable, value, cases[i].gpu, count));
      if (g_str_equal (limit, "memory"))
        g_assert_false (fits_with (cases[i].preset, cases[i].mode, cases[i].variable, value + 1, cases[i].gpu, count));
      else
        g_assert_cmpstr (limit, ==, "model-context");
    }
}

/* vLLM's MXFP4 experts as Marlin pads them on an A100 at each TP degree (test-engine.c has
 * the figures): with the large cards' batch given (8,192 tokens, 1,024 sequences) gpt-oss-120b
 * fits no A100 80 GB alone, two at TP 2 serve 206 requests of 8,192 tokens, and the table's row
 * needs two; with the A100's own defaults (2,048 and 256) one card holds it and serves 12, two
 * serve 245; on an H100, whose backend is not followed, the count and the answer say that they
 * count the experts as stored. */
static void
test_mxfp4_padding (void)
{
  g_autoptr(JsonParser) p = json_parser_new ();
  const char *one[] = { "--preset", "gpt-oss-120b", "--method", "architecture", "--engine", "vllm", "--precision", "mxfp4",
                        "--seq", "8192", "--solve", "concurrency", "--fit-gpu", "a100-80gb",
                        "--max-num-batched-tokens", "8192", "--max-num-seqs", "1024", NULL };
  const char *two[] = { "--preset", "gpt-oss-120b", "--method", "architecture", "--engine", "vllm", "--precision", "mxfp4",
                        "--seq", "8192", "--solve", "concurrency", "--fit-gpu", "a100-80gb", "--gpu-count", "2",
                        "--max-num-batched-tokens", "8192", "--max-num-seqs", "1024", "--format", "json", NULL };
  const char *one_own[] = { "--preset", "gpt-oss-120b", "--method", "architecture", "--engine", "vllm", "--precision",
                            "mxfp4", "--seq", "8192", "--solve", "concurrency", "--fit-gpu", "a100-80gb", NULL };
  const char *two_own[] = { "--preset", "gpt-oss-120b", "--method", "architecture", "--engine", "vllm", "--precision",
                            "mxfp4", "--seq", "8192", "--solve", "concurrency", "--fit-gpu", "a100-80gb", "--gpu-count",
                            "2", "--format", "json", NULL };
  const char *h100[] = { "--preset", "gpt-oss-20b", "--method", "architecture", "--engine", "vllm", "--precision", "mxfp4",
                         "--seq", "8192", "--solve", "concurrency", "--fit-gpu", "h100-80gb", NULL };
  g_autofree char *table = run_ok (one);
  g_autofree char *on_h100 = NULL;
  JsonObject *root, *entry;

  g_assert_nonnull (strstr (table, "\n  A100 80 GB (85.0\302\240" "GB usable)                    needs 2 GPUs · TP 2 (46.0\302\240" "GB each)\n"));
  g_assert_true (g_str_has_suffix (table, "\nNot even 1 request fits on 1 × A100 80 GB: it needs 80.1\302\240" "GB per GPU, "
                                          "of 77.5\302\240" "GB usable\n"));
  root = vc_test_run_json (p, two);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "solve"), "value"), ==, 206);
  entry = gpu_entry (root, "a100-80gb");
  g_assert_cmpint (json_object_get_int_member (entry, "count"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (entry, "per_gpu_bytes"), ==, 46049399424);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (entry, "layout"), "tp"), ==, 2);
  {
    g_autofree char *own = run_ok (one_own);
    g_autoptr(JsonParser) po = json_parser_new ();
    JsonObject *own_root = vc_test_run_json (po, two_own);

    g_assert_nonnull (strstr (own, "\n  A100 80 GB (85.0\302\240" "GB usable)                    fits on 1\n"));
    g_assert_true (g_str_has_suffix (own, "\nMost concurrent requests that fit on 1 × A100 80 GB: 11 requests "
                                          "(limit: memory)\n"));
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (own_root, "solve"), "value"), ==, 244);
    entry = gpu_entry (own_root, "a100-80gb");
    g_assert_cmpint (json_object_get_int_member (entry, "count"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (entry, "per_gpu_bytes"), ==, 74204291712);
  }
  on_h100 = run_ok (h100);
  g_assert_nonnull (strstr (on_h100, "\n  H100 80 GB (85.1\302\240" "GB usable)                    fits on 1 · MXFP4 experts as stored: "
                                     "vLLM’s backend on this card is not known\n"));
  g_assert_nonnull (strstr (on_h100, "\n  A100 80 GB (85.0\302\240" "GB usable)                    fits on 1\n"));
  g_assert_true (g_str_has_suffix (on_h100, "\nMost concurrent requests that fit on 1 × H100 80 GB: 267 requests "
                                            "(limit: memory)\nMXFP4 experts counted as stored: vLLM’s backend on "
                                            "this card is not known.\n"));
  /* below compute capability 8.0 vLLM refuses MXFP4: the engine's line, the row and the answer
   * say so, not that the backend is unknown, and none of them gives a figure: the 13 GB of
   * gpt-oss-20b would fit a V100 32 GB, but vLLM does not start there */
  {
    const char *v100[] = { "--preset", "gpt-oss-20b", "--method", "architecture", "--engine", "vllm", "--precision", "mxfp4",
                           "--seq", "8192", "--solve", "concurrency", "--fit-gpu", "v100-32gb", NULL };
    const char *v100_json[] = { "--preset", "gpt-oss-20b", "--method", "architecture", "--engine", "vllm", "--precision",
                                "mxfp4", "--seq", "8192", "--solve", "concurrency", "--fit-gpu", "v100-32gb", "--gpu-count",
                                "2", "--format", "json", NULL };
    g_autofree char *on_v100 = run_ok (v100);
    g_autoptr(JsonParser) pv = json_parser_new ();
    JsonObject *v100_root = vc_test_run_json (pv, v100_json);
    JsonObject *solve = json_object_get_object_member (v100_root, "solve");
    JsonObject *row;

    g_assert_true (json_object_get_null_member (solve, "value"));
    g_assert_cmpstr (json_object_get_string_member (solve, "limit"), ==, "engine");
    g_assert_cmpint (json_object_get_int_member (solve, "gpu_count"), ==, 2);
    row = gpu_entry (v100_root, "v100-32gb");
    g_assert_false (json_object_get_boolean_member (row, "fits"));
    g_assert_true (json_object_get_null_member (row, "count"));
    g_assert_cmpstr (json_object_get_string_member (row, "refused"), ==, "mxfp4-capability");
    g_assert_false (json_object_get_boolean_member (row, "experts_as_stored"));
    g_assert_true (json_object_get_null_member (row, "max_concurrency"));
    /* the A100 beside it keeps its figure */
    row = gpu_entry (v100_root, "a100-80gb");
    g_assert_true (json_object_get_boolean_member (row, "fits"));
    g_assert_true (json_object_get_null_member (row, "refused"));

    g_assert_nonnull (strstr (on_v100, "  vLLM refuses MXFP4 on this card: its compute capability is below 8.0, the "
                                       "minimum of vLLM’s MXFP4 quantization (Mxfp4Config.get_min_capability), so vLLM "
                                       "does not start, whatever the memory.\n"));
    g_assert_nonnull (strstr (on_v100, "GB usable)                    vLLM refuses MXFP4 below compute capability 8.0: "
                                       "it does not start on this card\n"));
    g_assert_null (strstr (on_v100, "MXFP4 experts as stored: vLLM refuses"));
    g_assert_true (g_str_has_suffix (on_v100, "\nNothing runs on 1 × V100 32 GB: vLLM refuses MXFP4 below compute "
                                              "capability 8.0 (Mxfp4Config.get_min_capability), so it does not start "
                                              "there\n"));
  }
}

/* Exact figures (see test-solver.c for their derivation from the formulas) */
static void
test_table_and_json (void)
{
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *root, *solve, *entry;
  g_autofree char *table = NULL;
  const char *table_args[] = { "--preset", "llama-3.1-8b", "--solve", "seq", "--fit-gpu", "rtx-4090", NULL };
  const char *json_args[] = { "--preset", "llama-3.1-8b", "--solve", "seq", "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const char *training_args[] = { "--preset", "llama-3.1-8b", "--mode", "training", "--format", "json", NULL };

  table = run_ok (table_args);
  g_assert_true (g_str_has_suffix (table, "\nLongest sequence that fits on 1 × RTX 4090: 59944 tokens (limit: memory)\n"));
  /* Falcon's config.json gives no context length: the table says nothing else caps it */
  {
    const char *falcon[] = { "--preset", "falcon-7b", "--solve", "seq", "--fit-gpu", "h100-80gb", NULL };
    g_autofree char *out = run_ok (falcon);

    g_assert_true (g_str_has_suffix (out, " tokens (limit: memory)\nThe model's maximum context is not known here "
                                          "(--max-context N with the architecture method), so nothing but the "
                                          "input's range caps the sequence.\n"));
  }

  root = vc_test_run_json (p, json_args);
  solve = json_object_get_object_member (root, "solve");
  g_assert_cmpint (json_object_get_int_member (solve, "value"), ==, 131072);
  g_assert_cmpstr (json_object_get_string_member (solve, "limit"), ==, "model-context");
  g_assert_cmpint (json_object_get_int_member (solve, "capacity_bytes"), ==, 85520809984);
  /* each GPU says what fits on one of it */
  entry = gpu_entry (root, "rtx-4090");
  g_assert_cmpint (json_object_get_int_member (entry, "max_seq"), ==, 59944);
  entry = gpu_entry (root, "h100-80gb");
  g_assert_cmpint (json_object_get_int_member (entry, "max_seq"), ==, 131072);
  g_assert_cmpint (json_object_get_int_member (entry, "max_concurrency"), ==, 251);
  g_assert_false (json_object_has_member (entry, "max_batch"));
  /* a row of several cards answers for them, as --solve with --gpu-count does: two T4s */
  entry = gpu_entry (root, "t4");
  g_assert_cmpint (json_object_get_int_member (entry, "count"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (entry, "max_seq"), ==, 100529);

  /* without --solve there is no "solve"; training has max_batch and max_seq */
  root = vc_test_run_json (p, training_args);
  g_assert_false (json_object_has_member (root, "solve"));
  entry = gpu_entry (root, "h100-80gb");
  g_assert_true (json_object_has_member (entry, "max_batch"));
  g_assert_true (json_object_has_member (entry, "max_seq"));
  g_assert_false (json_object_has_member (entry, "max_concurrency"));
  g_assert_cmpint (json_object_get_int_member (entry, "max_batch"), >, 1);
}

static void
test_nothing_fits (void)
{
  g_autoptr(JsonParser) p = json_parser_new ();
  const char *args[] = { "--preset", "llama-3.1-405b", "--solve", "concurrency", "--fit-gpu", "rtx-4090", "--format", "json", NULL };
  const char *table_args[] = { "--preset", "llama-3.1-405b", "--solve", "seq", "--fit-gpu", "rtx-4090", NULL };
  JsonObject *root = vc_test_run_json (p, args);
  JsonObject *solve = json_object_get_object_member (root, "solve");
  g_autofree char *table = NULL;

  g_assert_true (json_object_get_null_member (solve, "value"));
  g_assert_cmpstr (json_object_get_string_member (solve, "limit"), ==, "memory");
  g_assert_cmpint (json_object_get_int_member (solve, "total_bytes"), >, json_object_get_int_member (solve, "capacity_bytes"));
  table = run_ok (table_args);
  g_assert_nonnull (strstr (table, "\nNot even a sequence of 1 token fits on 1 × RTX 4090: it needs "));
}

/* a GPU of one's own, named with --gpu NAME=SIZE: 24,564 MiB is the RTX 4090's capacity */
static void
test_custom_gpu (void)
{
  g_autoptr(JsonParser) p = json_parser_new ();
  const char *args[] = { "--preset", "llama-3.1-8b", "--gpu", "My card=24564MiB", "--solve", "seq",
                         "--fit-gpu", "My card", "--format", "json", NULL };
  JsonObject *root = vc_test_run_json (p, args);
  JsonObject *solve = json_object_get_object_member (root, "solve");

  g_assert_cmpstr (json_object_get_string_member (solve, "gpu"), ==, "My card");
  g_assert_cmpint (json_object_get_int_member (solve, "value"), ==, 59944);
  g_assert_cmpint (json_object_get_int_member (gpu_entry (root, "My card"), "max_seq"), ==, 59944);
}

static void
test_csv (void)
{
  const char *args[] = { "--preset", "llama-3.1-8b", "--solve", "seq", "--fit-gpu", "rtx-4090", "--format", "csv", NULL };
  g_autofree char *csv = run_ok (args);

  g_assert_nonnull (strstr (csv, "\r\nsolve,inference-16bit,rtx-4090/seq,Longest sequence that fits on 1 × RTX 4090: 59944 tokens (limit: memory),"));
  g_assert_nonnull (strstr (csv, ",59944,tokens\r\n"));
  g_assert_nonnull (strstr (csv, "\r\nfit,inference-16bit,h100-80gb/max_concurrency,"));
  /* each row answers for its count of cards */
  g_assert_nonnull (strstr (csv, "\r\nfit,inference-16bit,t4/max_seq,Longest sequence that fits on 2 × T4: 100529 tokens (limit: memory),"));
}

static void
test_rejections (void)
{
  static const struct { const char *args[9]; const char *expect; } bad[] = {
    { { "--solve", "seq" }, "--solve: --fit-gpu ID is required" },
    { { "--fit-gpu", "t4" }, "--fit-gpu: it goes with --solve" },
    { { "--gpu-count", "2" }, "--gpu-count: it goes with --solve" },
    { { "--solve", "tokens", "--fit-gpu", "t4" }, "--solve: “tokens” is not something to solve for; accepted: seq, batch, concurrency" },
    { { "--solve", "seq", "--fit-gpu", "t5" }, "--fit-gpu: “t5” is no GPU" },
    { { "--solve", "seq", "--fit-gpu", "t4", "--gpu-count", "0" }, "--gpu-count: “0” is not a GPU count" },
    { { "--solve", "seq", "--fit-gpu", "t4", "--gpu-count", "2.5" }, "--gpu-count: “2.5” is not a GPU count" },
    { { "--mode", "training", "--solve", "concurrency", "--fit-gpu", "t4" }, "--solve: concurrency is a serving input" },
    { { "--chart-gpus", "h100-80gb;nope" }, "“nope” is not a GPU" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *out = NULL, *err = NULL;
      int status = vc_test_run_vramcalc (bad[i].args, NULL, &out, &err);

      g_test_message ("%s → %s", bad[i].args[0], err);
      g_assert_cmpint (status, ==, 2);
      g_assert_cmpstr (out, ==, "");
      g_assert_nonnull (strstr (err, bad[i].expect));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/cli-solve/round-trip", test_round_trip);
  g_test_add_func ("/cli-solve/table-and-json", test_table_and_json);
  g_test_add_func ("/cli-solve/mxfp4-padding", test_mxfp4_padding);
  g_test_add_func ("/cli-solve/nothing-fits", test_nothing_fits);
  g_test_add_func ("/cli-solve/custom-gpu", test_custom_gpu);
  g_test_add_func ("/cli-solve/csv", test_csv);
  g_test_add_func ("/cli-solve/rejections", test_rejections);

  return g_test_run ();
}
