/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Model files read from their headers: GGUF and safetensors, good and bad, through the core
 * API and vramcalc --model. The files are written by make-fixtures.py beside this test into a
 * scratch folder (headers only; the data areas are holes).
 *
 * The tiny Llama both formats hold: 2 layers, hidden 256, 4 heads of 64, 2 KV heads, MLP 512,
 * vocabulary 1000, untied. Its elements, counted by hand:
 *   token embedding 256 × 1000 = 256,000; output 256,000; final norm 256;
 *   a layer: norms 2 × 256, q 65,536, k 32,768, v 32,768, o 65,536, gate, up and down
 *   3 × 131,072 = 590,336; two layers 1,180,672;  total 1,692,928.
 * Its GGUF bytes (Q4_K: 144 bytes a block of 256; Q6_K: 210; F32: 4 a value):
 *   token_embd Q4_K 1000 rows × 144 = 144,000; output Q6_K 1000 × 210 = 210,000; output_norm
 *   1,024; a layer: norms 2,048, q Q4_K 256 × 144 = 36,864, k Q4_K 128 × 144 = 18,432, v Q6_K
 *   128 × 210 = 26,880, o 36,864, gate and up Q4_K 512 × 144 = 73,728 each, down Q6_K 256 rows
 *   of 2 blocks × 210 = 107,520: 376,064;  total 144,000 + 210,000 + 1,024 + 2 × 376,064
 *   = 1,107,152 bytes.
 * KV cache per token at f16: 2 layers × (K and V) × 2 heads × 64 × 2 bytes = 1,024. */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-engine-state.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-gguf.h"
#include "vc-catalog.h"
#include "vc-mmproj.h"
#include "vc-model-file.h"
#include "vc-profile.h"
#include "vc-quant.h"
#include "vc-safetensors.h"
#include "vc-test-util.h"

#define TINY_ELEMENTS 1692928
#define TINY_GGUF_BYTES 1107152
#define TINY_BF16_BYTES (2 * TINY_ELEMENTS)

static char *fixtures;

static char *
fixture (const char *relative)
{
  return g_build_filename (fixtures, relative, NULL);
}

static VcModelFile *
load (const char *relative)
{
  g_autofree char *path = fixture (relative);
  g_autoptr(GError) error = NULL;
  VcModelFile *model = vc_model_file_new_for_path (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (model);
  return model;
}

static void
test_gguf_exact (void)
{
  g_autofree char *path = fixture ("gguf/tiny-llama-Q4_K_M.gguf");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_auto(VcGguf) g = { 0 };
  guint64 v = 0;

  vc_gguf_init (&g);
  g_assert_true (vc_gguf_read (&g, file, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (g.version, ==, 3);
  g_assert_cmpuint (g.n_files, ==, 1);
  g_assert_cmpuint (g.n_tensors, ==, 3 + 2 * 9);
  g_assert_cmpuint (g.elements, ==, TINY_ELEMENTS);
  g_assert_cmpuint (g.tensor_bytes, ==, TINY_GGUF_BYTES);
  /* Q4_K: token_embd 144,000 + per layer q 36,864, k 18,432, o 36,864, gate and up 73,728 */
  g_assert_cmpuint (g.type_bytes[12], ==, 144000 + 2 * (36864 + 18432 + 36864 + 2 * 73728));
  /* Q6_K: output 210,000 + per layer v 26,880 and down 107,520 */
  g_assert_cmpuint (g.type_bytes[14], ==, 210000 + 2 * (26880 + 107520));
  g_assert_cmpuint (g.type_bytes[0], ==, 4 * (256 + 2 * 512));
  g_assert_cmpstr (vc_gguf_get_string (&g, "general.architecture"), ==, "llama");
  g_assert_true (vc_gguf_get_uint (&g, "llama.block_count", &v));
  g_assert_cmpuint (v, ==, 2);
  g_assert_cmpuint (vc_gguf_get (&g, "tokenizer.ggml.tokens")->length, ==, 1000);

  /* the type table: block size and bytes, as ggml's block structures give them */
  g_assert_cmpuint (vc_ggml_type_block (12), ==, 256);
  g_assert_cmpuint (vc_ggml_type_size (12), ==, 144);
  g_assert_cmpuint (vc_ggml_type_size (8), ==, 34);     /* Q8_0: fp16 scale + 32 int8 */
  g_assert_cmpuint (vc_ggml_type_size (39), ==, 17);    /* MXFP4: E8M0 scale + 16 bytes */
  g_assert_cmpuint (vc_ggml_type_size (34), ==, 54);    /* TQ1_0 */
  g_assert_cmpuint (vc_ggml_type_size (23), ==, 136);   /* IQ4_XS */
  g_assert_cmpuint (vc_ggml_type_size (19), ==, 50);    /* IQ1_S */
  g_assert_null (vc_ggml_type_name (31));               /* removed Q4_0_4_4 */
  g_assert_null (vc_ggml_type_name (100));
}

static void
check_tiny_gguf (VcModelFile *m)
{
  const VcArch *a = vc_model_file_get_arch (m);
  VcPrecision p;

  g_assert_cmpstr (vc_model_file_get_format (m), ==, "gguf");
  g_assert_cmpstr (vc_model_file_get_quantization (m), ==, "Q4_K_M");
  g_assert_cmpstr (vc_model_file_get_name (m), ==, "tiny-llama");
  g_assert_cmpuint (vc_model_file_get_n_tensors (m), ==, 21);
  g_assert_cmpfloat (vc_model_file_get_weights_bytes (m), ==, TINY_GGUF_BYTES);
  g_assert_cmpfloat (vc_model_file_get_parameters (m), ==, TINY_ELEMENTS);
  g_assert_cmpfloat (vc_model_file_get_active_parameters (m), ==, TINY_ELEMENTS);
  g_assert_cmpuint (vc_model_file_get_max_context (m), ==, 4096);
  g_assert_true (vc_model_file_get_precision (m, &p));
  g_assert_cmpint (p, ==, VC_PRECISION_Q4_K_M);   /* general.file_type 15 */
  g_assert_cmpuint (a->n_layers, ==, 2);
  g_assert_cmpuint (a->hidden_size, ==, 256);
  g_assert_cmpuint (a->n_heads, ==, 4);
  g_assert_cmpuint (a->n_kv_heads, ==, 2);
  g_assert_cmpuint (vc_arch_head_dim (a), ==, 64);
  g_assert_cmpuint (a->intermediate_size, ==, 512);
  g_assert_cmpuint (a->vocab_size, ==, 1000);
  g_assert_false (a->tied_embeddings);
  g_assert_true (a->gated_mlp);
  g_assert_cmpfloat (vc_arch_kv_bytes_per_token (a, 2), ==, 1024);
  /* the architecture's own count agrees with the tensors */
  {
    VcParamCounts c;
    vc_arch_count_params (a, &c);
    g_assert_cmpfloat (c.total, ==, TINY_ELEMENTS);
  }
}

static void
test_gguf_model (void)
{
  g_autoptr(VcModelFile) file = load ("gguf/tiny-llama-Q4_K_M.gguf");
  g_autoptr(VcModelFile) folder = load ("gguf/folder");
  g_autoptr(VcModelFile) split = load ("gguf/split/tiny-llama-00001-of-00002.gguf");
  g_autoptr(VcModelFile) split_folder = load ("gguf/split");
  g_autofree char *path = fixture ("gguf/tiny-llama-Q4_K_M.gguf");
  g_autoptr(GFile) gfile = g_file_new_for_path (path);
  g_autoptr(GFileInfo) info = g_file_query_info (gfile, G_FILE_ATTRIBUTE_STANDARD_SIZE, 0, NULL, NULL);

  check_tiny_gguf (file);
  g_assert_cmpuint (vc_model_file_get_file_bytes (file), ==, g_file_info_get_size (info));
  check_tiny_gguf (folder);
  check_tiny_gguf (split);
  check_tiny_gguf (split_folder);
  {
    g_autoptr(VcModelFile) with_config = load ("gguf/with-config");
    g_autoptr(VcModelFile) shard = load ("safetensors/sharded/model-00002-of-00002.safetensors");

    check_tiny_gguf (with_config);
    /* one shard stands for its folder */
    g_assert_cmpstr (vc_model_file_get_format (shard), ==, "safetensors");
    g_assert_cmpfloat (vc_model_file_get_weights_bytes (shard), ==, TINY_BF16_BYTES);
  }
}

static void
test_gguf_moe (void)
{
  g_autoptr(VcModelFile) m = load ("gguf/tiny-moe.gguf");
  const VcArch *a = vc_model_file_get_arch (m);

  /* token_embd Q8_0 256 × 1000 / 32 × 34 = 272,000; output_norm 1,024; a layer: norms 2,048,
   * q Q8_0 256 × 256 / 32 × 34 = 69,632, k and v 34,816 each, o 69,632, router F32 8,192,
   * three MXFP4 expert tensors of 256 × 128 × 8 / 32 × 17 = 139,264 each (417,792):
   * 636,928; tied (no output.weight): 272,000 + 1,024 + 2 × 636,928 = 1,546,880 */
  g_assert_cmpfloat (vc_model_file_get_weights_bytes (m), ==, 1546880);
  /* 256,000 + 256 + 2 × (512 + 65,536 + 2 × 32,768 + 65,536 + 2,048 + 3 × 262,144) */
  g_assert_cmpfloat (vc_model_file_get_parameters (m), ==, 2227456);
  /* 2 of 8 experts: the expert tensors' 1,572,864 count a quarter */
  g_assert_cmpfloat (vc_model_file_get_active_parameters (m), ==, 2227456 - 1572864 * 3 / 4);
  g_assert_cmpuint (a->n_experts, ==, 8);
  g_assert_cmpuint (a->experts_per_token, ==, 2);
  g_assert_cmpuint (a->expert_intermediate_size, ==, 128);
  g_assert_true (a->tied_embeddings);
  g_assert_cmpuint (vc_model_file_get_max_context (m), ==, 32768);
  g_assert_cmpstr (vc_model_file_get_quantization (m), ==, "MXFP4");
}

static void
test_safetensors (void)
{
  g_autoptr(VcModelFile) single = load ("safetensors/single");
  g_autoptr(VcModelFile) sharded = load ("safetensors/sharded");
  VcPrecision p;

  for (guint i = 0; i < 2; i++)
    {
      VcModelFile *m = i == 0 ? single : sharded;

      g_assert_cmpstr (vc_model_file_get_format (m), ==, "safetensors");
      g_assert_cmpstr (vc_model_file_get_quantization (m), ==, "BF16");
      g_assert_cmpuint (vc_model_file_get_n_tensors (m), ==, 21);
      g_assert_cmpfloat (vc_model_file_get_weights_bytes (m), ==, TINY_BF16_BYTES);
      g_assert_cmpfloat (vc_model_file_get_parameters (m), ==, TINY_ELEMENTS);
      g_assert_true (vc_model_file_get_precision (m, &p));
      g_assert_cmpint (p, ==, VC_PRECISION_BF16);
    }
  g_assert_cmpuint (vc_model_file_get_file_bytes (sharded), >, TINY_BF16_BYTES);

  {
    g_autofree char *path = fixture ("safetensors/sharded");
    g_autoptr(GFile) folder = g_file_new_for_path (path);
    g_autoptr(GError) error = NULL;
    g_auto(VcSafetensors) st = { 0 };

    vc_safetensors_init (&st);
    g_assert_true (vc_safetensors_read_folder (&st, folder, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (st.n_files, ==, 2);
    g_assert_cmpuint (st.dtype_elements[VC_ST_DTYPE_BF16], ==, TINY_ELEMENTS);
    g_assert_cmpuint (st.dtype_bytes[VC_ST_DTYPE_BF16], ==, TINY_BF16_BYTES);
  }
}

static void
test_safetensors_gptq (void)
{
  g_autoptr(VcModelFile) m = load ("safetensors/gptq");
  VcPrecision p;

  /* 4-bit, group 128: a linear layer of in × out stores qweight in/8 × out I32, qzeros
   * in/128 × out/8 I32, scales in/128 × out F16, g_idx in I32. The layer's linears:
   * q 35,072, k 18,048, v 18,048, o 35,072, gate and up 69,120 each, down 70,144, with the
   * norms' 1,024 in F16: 315,648; embedding, head and final norm in F16: 1,024,512;
   * total 1,024,512 + 2 × 315,648 = 1,655,808. Parameters unpack to the same 1,692,928. */
  g_assert_cmpfloat (vc_model_file_get_weights_bytes (m), ==, 1655808);
  g_assert_cmpfloat (vc_model_file_get_parameters (m), ==, TINY_ELEMENTS);
  g_assert_cmpstr (vc_model_file_get_quantization (m), ==, "gptq 4-bit");
  g_assert_true (vc_model_file_get_precision (m, &p));
  g_assert_cmpint (p, ==, VC_PRECISION_GPTQ_INT4);
  /* the same format computed from the architecture alone gives the file's bytes */
  g_assert_cmpfloat (vc_quant_format_weights (vc_model_file_get_arch (m), VC_PRECISION_GPTQ_INT4), ==, 1655808);
}

typedef struct
{
  const char *path;
  const char *fault;
} BadCase;

static const BadCase bad_cases[] = {
  { "gguf/bad/magic.gguf", "not a GGUF file" },
  { "gguf/bad/empty.gguf", "not a GGUF file" },
  { "gguf/bad/version.gguf", "GGUF version 99 is not known" },
  { "gguf/bad/truncated.gguf", "past the end of the file" },
  { "gguf/bad/tensor-count.gguf", "1152921504606846976 tensors, more than the file can hold" },
  { "gguf/bad/string-length.gguf", "has a length of 1099511627776 bytes, past the end of the file" },
  { "gguf/bad/dims-overflow.gguf", "multiply past 63 bits" },
  { "gguf/bad/overlap.gguf", "“blk.0.attn_q.weight” overlaps tensor “blk.0.attn_norm.weight”" },
  { "gguf/bad/past-end.gguf", "runs past the end of the file" },
  { "gguf/bad/unknown-type.gguf", "ggml type 31, which is not known" },
  { "gguf/bad/ssm.gguf", "llama.ssm.state_size describes memory that is not modelled" },
  { "hybrid/granite-unknown-ssm-key.gguf", "granitehybrid.ssm.dt_b_c_rms describes memory that is not modelled" },
  { "hybrid/qwen3-next-inner-size.gguf", "qwen3next.ssm.inner_size (8192) is not ssm.state_size × ssm.time_step_rank (4096)" },
  { "gguf/split/tiny-llama-00002-of-00002.gguf", "open the first part" },
  /* a hybrid's safetensors alone: its Mamba-2 layers are config.json's to say, not guessed */
  { "hybrid/granite-4.0-h-tiny-no-config", "holds safetensors but no config.json" },
  { "safetensors/bad/header-too-large", "over the 100 MB" },
  { "safetensors/bad/header-past-end", "runs past the end of the file" },
  { "safetensors/bad/short", "shorter than the 8-byte header length" },
  { "safetensors/bad/overlap", "overlaps tensor" },
  { "safetensors/bad/past-end", "runs past the end of the file" },
  { "safetensors/bad/size-mismatch", "holds 512 bytes but its dtype and shape need 600" },
  { "safetensors/bad/not-json", "not valid JSON" },
  { "safetensors/bad/dtype", "dtype “Q9”, which is not known" },
  { "safetensors/bad/deep", "nests lists or objects too deeply" },
  { "safetensors/bad/huge-number", "number too large" },
  { "safetensors/bad/index-escape", "not the name of a .safetensors file" },
};

static void
test_bad (gconstpointer data)
{
  const BadCase *c = data;
  g_autofree char *path = fixture (c->path);
  g_autoptr(GError) error = NULL;
  g_autoptr(VcModelFile) m = vc_model_file_new_for_path (path, &error);
  g_autofree char *base = g_path_get_basename (path);

  g_assert_null (m);
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  /* the message names the file (or its folder) and the fault */
  g_assert_nonnull (strstr (error->message, base));
  g_assert_nonnull (strstr (error->message, c->fault));
}

/* The same bad files given whole to the in-memory parser the fuzz target uses. */
static void
test_bad_in_memory (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *path = fixture (bad_cases[i].path);
      g_autofree char *contents = NULL;
      gsize length;

      /* ssm.gguf is a well-formed file whose model is refused, not its format */
      if (g_str_has_prefix (bad_cases[i].path, "gguf/bad/") && !strstr (bad_cases[i].path, "ssm") &&
          g_file_get_contents (path, &contents, &length, NULL))
        {
          g_auto(VcGguf) g = { 0 };
          g_autoptr(GError) error = NULL;

          vc_gguf_init (&g);
          g_assert_false (vc_gguf_parse (&g, (const guint8 *) contents, length, "x.gguf", &error));
          g_assert_error (error, VC_ERROR, VC_ERROR_PARSE);
        }
    }
}

static gint64
component (JsonObject *root,
           const char *id)
{
  JsonArray *a = json_object_get_array_member (root, "components");

  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonObject *c = json_array_get_object_element (a, i);
      if (g_str_equal (json_object_get_string_member (c, "id"), id))
        return json_object_get_int_member (c, "bytes");
    }
  g_assert_not_reached ();
}

static void
test_cli_model (void)
{
  g_autofree char *gguf = fixture ("gguf/tiny-llama-Q4_K_M.gguf");
  g_autofree char *st = fixture ("safetensors/sharded");
  g_autofree char *config = fixture ("safetensors/single/config.json");

  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    const char *args[] = { "--model", gguf, "--format", "json", "--seq", "1000", NULL };
    JsonObject *root = vc_test_run_json (parser, args);
    JsonObject *source = json_object_get_object_member (root, "source");

    g_assert_cmpstr (json_object_get_string_member (source, "format"), ==, "gguf");
    g_assert_cmpint (json_object_get_int_member (source, "weights_bytes"), ==, TINY_GGUF_BYTES);
    g_assert_cmpstr (json_object_get_string_member (source, "quantization"), ==, "Q4_K_M");
    g_assert_cmpint (component (root, "weights"), ==, TINY_GGUF_BYTES);
    g_assert_cmpint (json_object_get_int_member (root, "parameters"), ==, TINY_ELEMENTS);
    g_assert_cmpint (json_object_get_int_member (root, "kv_bytes_per_token"), ==, 1024);
    /* llama.cpp's default f16 cache: 1,000 tokens padded to 1,024 cells (GGML_PAD (n_ctx,
     * 256)) of 1,024 bytes */
    g_assert_cmpint (component (root, "kv_cache"), ==, 1048576);
    g_assert_cmpstr (json_object_get_string_member (root, "model"), ==, "tiny-llama");
  }
  {
    /* another precision chosen: the architecture's count at that precision */
    g_autoptr(JsonParser) parser = json_parser_new ();
    const char *args[] = { "--model", gguf, "--precision", "bf16", "--format", "json", NULL };
    JsonObject *root = vc_test_run_json (parser, args);

    g_assert_cmpint (component (root, "weights"), ==, TINY_BF16_BYTES);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (root, "source"), "weights_bytes"),
                     ==, TINY_GGUF_BYTES);
  }
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    const char *args[] = { "--model", st, "--format", "json", "--kv-precision", "bf16", NULL };
    JsonObject *root = vc_test_run_json (parser, args);

    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "source"), "format"),
                     ==, "safetensors");
    g_assert_cmpint (component (root, "weights"), ==, TINY_BF16_BYTES);
    g_assert_cmpstr (json_object_get_string_member (root, "scenario"), ==, "inference-16bit");
    g_assert_cmpint (json_object_get_int_member (root, "kv_bytes_per_token"), ==, 1024);
  }
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    const char *args[] = { "--model", config, "--format", "json", NULL };
    JsonObject *root = vc_test_run_json (parser, args);
    JsonObject *source = json_object_get_object_member (root, "source");

    g_assert_cmpstr (json_object_get_string_member (source, "format"), ==, "config");
    g_assert_true (json_object_get_null_member (source, "weights_bytes"));
    g_assert_cmpint (json_object_get_int_member (root, "parameters"), ==, TINY_ELEMENTS);
  }
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    const char *args[] = { "--config", config, "--format", "json", NULL };
    JsonObject *root = vc_test_run_json (parser, args);

    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "source"), "format"),
                     ==, "config");
  }
  {
    g_autoptr(JsonParser) parser = json_parser_new ();
    const char *args[] = { "--preset", "llama-3-8b", "--format", "json", NULL };
    JsonObject *root = vc_test_run_json (parser, args);

    g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (root, "source")));
  }
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    g_autofree char *bad = fixture ("gguf/bad/overlap.gguf");
    const char *args[] = { "--model", bad, NULL };
    const char *both[] = { "--model", gguf, "--preset", "llama-3-8b", NULL };

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "--model"));
    g_assert_nonnull (strstr (err, "overlap.gguf"));
    g_clear_pointer (&out, g_free);
    g_clear_pointer (&err, g_free);
    g_assert_cmpint (vc_test_run_vramcalc (both, NULL, &out, &err), ==, 2);
  }
}

/* llama.cpp's Q4_K_M recipe over Llama 3.1 8B (32 layers, 4096 wide, 8 KV heads of 128, MLP
 * 14336, vocabulary 128256, untied). Published: its Q4_K_M GGUF holds 193 q4_K, 33 q6_K and 66
 * f32 tensors (llama.cpp's loader log in abetlen/llama-cpp-python#1693; the 66th f32 tensor is
 * rope_freqs, 64 values that Llama 3.1's converter adds, not a weight of the architecture).
 * Bytes, from the block sizes: token_embd Q4_K 128256 × 16 × 144 = 295,501,824; output Q6_K
 * 128256 × 16 × 210 = 430,940,160; a layer's q and o 9,437,184 each, k 2,359,296, gate and up
 * 33,030,144 each, norms 32,768; attn_v Q6_K 3,440,640 on the 16 use_more_bits layers, else
 * Q4_K 2,359,296; ffn_down Q6_K 48,168,960 on those 16, else 33,030,144; output_norm 16,384:
 * 4,912,898,048 bytes, 4.58 GiB at 4.89 bits a weight. */
static void
test_recipe_llama3 (void)
{
  const VcPreset *preset = vc_presets_lookup ("llama-3-8b");
  VcParamCounts counts;
  VcGgufRecipe r;

  g_assert_nonnull (preset);
  vc_quant_gguf_recipe (&preset->arch, VC_PRECISION_Q4_K_M, &r);
  g_assert_cmpuint (r.n_tensors[12], ==, 193);
  g_assert_cmpuint (r.n_tensors[14], ==, 33);
  g_assert_cmpuint (r.n_tensors[0], ==, 65);
  g_assert_cmpfloat (r.bytes, ==, 4912898048.0);
  vc_arch_count_params (&preset->arch, &counts);
  g_assert_cmpfloat (r.elements, ==, counts.total);
  g_assert_cmpfloat (fabs (r.bytes * 8 / counts.total - 4.89), <, 0.005);

  /* every recipe keeps every element */
  for (VcPrecision p = VC_PRECISION_Q8_0; p <= VC_PRECISION_IQ4_XS; p++)
    {
      vc_quant_gguf_recipe (&preset->arch, p, &r);
      g_assert_cmpfloat (r.elements, ==, counts.total);
    }
  /* Q8_0: every 2-D tensor in Q8_0, 34 bytes per 32: 8.5 bits on all but the norms */
  vc_quant_gguf_recipe (&preset->arch, VC_PRECISION_Q8_0, &r);
  g_assert_cmpuint (r.n_tensors[8], ==, 2 + 32 * 7);
  g_assert_cmpfloat (r.bytes, ==, (counts.total - 65 * 4096.0) / 32 * 34 + 65 * 4096.0 * 4);
}

/* Mistral Large 2 (88 layers, 12288 wide, 96 heads, 8 KV heads, MLP 28672, vocabulary 32768,
 * untied) in Q4_K_M: 529 q4_K and 89 q6_K tensors (llama.cpp's loader log in
 * oobabooga/textgen#6398): use_more_bits picks 44 of 88 layers for attn_v and ffn_down. */
static void
test_recipe_mistral_large (void)
{
  VcArch a = vc_arch_default;
  VcGgufRecipe r;

  a.n_layers = 88;
  a.hidden_size = 12288;
  a.n_heads = 96;
  a.n_kv_heads = 8;
  a.head_dim = 128;
  a.intermediate_size = 28672;
  a.vocab_size = 32768;
  vc_quant_gguf_recipe (&a, VC_PRECISION_Q4_K_M, &r);
  g_assert_cmpuint (r.n_tensors[12], ==, 529);
  g_assert_cmpuint (r.n_tensors[14], ==, 89);
  g_assert_cmpuint (r.n_tensors[0], ==, 1 + 88 * 2);
}

/* --precision takes the formats; KV precision does not */
static void
test_cli_formats (void)
{
  static const struct { const char *nick; gint64 weights; const char *scenario; } cases[] = {
    { "q4_k_m", 4912898048, "inference-4bit" },
    { "q8_0", 8532934656, "inference-8bit" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *args[] = { "--preset", "llama-3-8b", "--precision", cases[i].nick, "--format", "json", NULL };
      JsonObject *root = vc_test_run_json (parser, args);

      g_assert_cmpint (component (root, "weights"), ==, cases[i].weights);
      g_assert_cmpstr (json_object_get_string_member (root, "scenario"), ==, cases[i].scenario);
    }
  for (guint i = 0; i < 11; i++)
    {
      static const char *nicks[] = { "q8_0", "q6_k", "q5_k_m", "q4_k_m", "q3_k_m", "q2_k", "iq4_xs",
                                     "gptq-int4", "awq-int4", "mxfp4", "nf4" };
      g_autoptr(JsonParser) parser = json_parser_new ();
      const char *args[] = { "--preset", "llama-3-8b", "--precision", nicks[i], "--format", "json", NULL };
      JsonObject *root = vc_test_run_json (parser, args);
      gint64 w = component (root, "weights");

      /* between 2 and 9 bits a weight for 8.03B parameters */
      g_assert_cmpint (w, >, 2e9);
      g_assert_cmpint (w, <, 9.1e9);
    }
  {
    g_autofree char *out = NULL;
    g_autofree char *err = NULL;
    const char *args[] = { "--preset", "llama-3-8b", "--kv-precision", "q4_k_m", NULL };

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "not a KV cache precision"));
  }
}

/* A config.json alone, with its quantization_config: the weights as the checkpoint stores them,
 * for the tiny Llama. Its linear layers hold 589,824 elements a layer (q 256→256, k and v
 * 256→128, o 256→256, gate and up 256→512, down 512→256), 1,179,648 in all; the rest (embedding,
 * head, norms) 513,280 elements, 1,026,560 bytes in bf16. */
typedef struct
{
  const char *name;
  double weights;
  VcPrecision precision;
  const char *refusal;
} QuantCase;

static const QuantCase quant_cases[] = {
  /* fp8 with 128 × 128 block scales (DeepSeek-V3's layout): a layer's 36 blocks (q 4, k 2, v 2,
   * o 4, gate 8, up 8, down 8) keep an fp32 scale: 1,179,648 + 72 × 4 + 1,026,560 */
  { "fp8-block", 1179648 + 288 + 1026560, VC_PRECISION_FP8, NULL },
  /* fbgemm_fp8 as Meta's Llama 3.1 405B FP8 config has it: attention, the first layer's MLP
   * and the head left in bf16; layer 1's gate, up and down (393,216 elements) in fp8 with an
   * fp32 scale per output row (512 + 512 + 256): 393,216 + 5,120, the other 786,432 linear
   * elements in bf16 */
  { "fbgemm-fp8", 393216 + 5120 + 786432 * 2 + 1026560, VC_PRECISION_FP8, NULL },
  /* bitsandbytes NF4 without double quantization: 4 bits, an fp32 absmax per 64, a 16-value
   * fp32 quant map a module: per layer 294,912 + 36,864 + 7 × 64 */
  { "bnb-nf4", 2 * (294912 + 36864 + 448) + 1026560, VC_PRECISION_NF4, NULL },
  /* AWQ 4-bit, group 128, zero points: GPTQ's bytes without g_idx (16,384 bytes) */
  { "awq", 1655808 - 16384, VC_PRECISION_AWQ_INT4, NULL },
  /* GPTQ from the config alone: the bytes of the GPTQ safetensors fixture */
  { "gptq", 1655808, VC_PRECISION_GPTQ_INT4, NULL },
  { "unknown-method", 0, 0, "quant_method “hqq” is not understood" },
  { "mxfp4-dense", 0, 0, "quantizes routed experts, and this model has none" },
  { "unknown-module", 0, 0, "“model.layers.0.block_sparse_moe.experts.0.w1”, which is not one this architecture has" },
  { "gptq-5bit", 0, 0, "bits is 5" },
};

static void
test_quant_config (gconstpointer data)
{
  const QuantCase *c = data;
  g_autofree char *relative = g_build_filename ("configs", c->name, "config.json", NULL);
  g_autofree char *path = fixture (relative);
  g_autoptr(GError) error = NULL;
  g_autoptr(VcModelFile) m = vc_model_file_new_for_path (path, &error);
  VcPrecision p;

  /* refused: at once when the config cannot apply to the model, or as not understood (which
   * an approximate estimate alone takes) when quantization_config cannot be sized */
  if (c->refusal)
    {
      if (m != NULL)
        {
          g_assert_false (vc_hf_config_check_exact (vc_model_file_get_config (m), &error));
          g_assert_error (error, VC_ERROR, VC_ERROR_NOT_UNDERSTOOD);
        }
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, "config.json"));
      g_assert_nonnull (strstr (error->message, c->refusal));
      return;
    }
  g_assert_no_error (error);
  g_assert_cmpstr (vc_model_file_get_format (m), ==, "config");
  g_assert_cmpfloat (vc_model_file_get_weights_bytes (m), ==, c->weights);
  g_assert_true (vc_model_file_get_precision (m, &p));
  g_assert_cmpint (p, ==, c->precision);
  {
    g_autoptr(VcEstimate) e = vc_estimate_new ();

    vc_model_file_apply (m, e);
    g_assert_cmpint (vc_estimate_get_inputs (e)->precision, ==, c->precision);
    g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_WEIGHTS], ==, c->weights);
    /* the user can still choose another precision */
    g_object_set (e, "precision", VC_PRECISION_BF16, NULL);
    g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_WEIGHTS], ==, 2.0 * TINY_ELEMENTS);
  }
}

/* llama.cpp's compute buffer and f16 KV cache for Llama 3.2 1B Q4_K_M at an 8192-token context:
 * llama.cpp reports "KV self size = 256.00 MiB" and "compute buffer size = 544.00 MiB"
 * (mozilla-ai/llamafile#577, Metal, no flash attention). 16 layers × K and V × 8 KV heads × 64
 * × 2 bytes × 8192 = 268,435,456; the compute buffer as ggml-alloc places the worst-case graph
 * (vc-llama-graph.c): the f32 scores of 32 heads over 8192 cells for 512 tokens (512 MiB), the
 * f32 mask (16 MiB) and the layer's other tensors where they were placed, 576,727,040 bytes
 * (550.01 MiB), 1.1 % above that older build's figure. */
static void
test_llama_cpp_buffers (void)
{
  VcInputs in;
  VcResult r;
  const VcScenarioResult *sc;

  vc_inputs_init_default (&in);
  in.method = VC_METHOD_ARCHITECTURE;
  in.arch = vc_arch_default;
  in.arch.n_layers = 16;
  in.arch.hidden_size = 2048;
  in.arch.n_heads = 32;
  in.arch.n_kv_heads = 8;
  in.arch.head_dim = 64;
  in.arch.intermediate_size = 8192;
  in.arch.vocab_size = 128256;
  in.arch.tied_embeddings = TRUE;
  in.seq = 8192;
  in.precision = VC_PRECISION_Q4_K_M;
  in.kv_precision = VC_PRECISION_FP16;
  in.flash_attention = FALSE;
  in.llama_cpp = TRUE;
  vc_estimator_compute (&in, &r);
  sc = &r.scenarios[r.selected];
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, 268435456.0);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_ACTIVATIONS], ==, 576727040.0);
  g_assert_cmpfloat (fabs (sc->bytes[VC_COMPONENT_ACTIVATIONS] / (544.0 * 1048576) - 1), <, 0.02);
  /* with flash attention the scores are not stored: the f32 logits of 512 tokens above the
   * last hidden state, normed (an output), the embeddings input and one int32 input of 512
   * tokens */
  in.flash_attention = TRUE;
  vc_estimator_compute (&in, &r);
  g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==, 4.0 * 512 * (2 * 2048 + 128256) + 2048);
  /* sliding-window layers: llama.cpp keeps pad256(min(n_ctx, window + 512)) cells for them.
   * Gemma 3 1B's layout: 26 layers, 22 with a 512-token window, one KV head of 256, at 8192
   * tokens: 4 full layers × 8192 + 22 × 1024 cells, 1,024 bytes a cell and layer in f16 */
  {
    VcInputs g = in;

    g.arch.n_layers = 26;
    g.arch.hidden_size = 1152;
    g.arch.n_heads = 4;
    g.arch.n_kv_heads = 1;
    g.arch.head_dim = 256;
    g.arch.sliding_window = 512;
    g.arch.sliding_window_layers = 22;
    g.seq = 8192;
    vc_estimator_compute (&g, &r);
    g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_KV_CACHE], ==,
                       1024.0 * (4 * 8192 + 22 * 1024));
    /* a window bigger than the context: the context, padded to 256 in every layer
     * (GGML_PAD (n_ctx, 256)) */
    g.seq = 300;
    g.arch.sliding_window = 4096;
    vc_estimator_compute (&g, &r);
    g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_KV_CACHE], ==,
                       1024.0 * (4 * 512 + 22 * 512));
  }
  /* a context under 512 tokens is one micro-batch of its own size (n_batch = min(n_ctx, -b)
   * before the context is padded to 256 cells); the int32 input of 100 tokens is 416 bytes
   * aligned to 32 */
  in.flash_attention = FALSE;
  in.seq = 100;
  vc_estimator_compute (&in, &r);
  g_assert_cmpfloat (r.scenarios[r.selected].bytes[VC_COMPONENT_ACTIVATIONS], ==, 4.0 * 100 * (2 * 2048 + 128256) + 416);
}

/* A preset replaces the model read from files; a profile keeps it. */
static void
test_estimate_source (void)
{
  g_autoptr(VcModelFile) m = load ("gguf/tiny-llama-Q4_K_M.gguf");
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(VcEstimate) copy = vc_estimate_new ();
  g_autofree char *format = NULL;

  vc_model_file_apply (m, e);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_WEIGHTS], ==, TINY_GGUF_BYTES);
  vc_estimate_copy_inputs (copy, e);
  g_assert_cmpfloat (vc_estimate_get_selected (copy)->bytes[VC_COMPONENT_WEIGHTS], ==, TINY_GGUF_BYTES);
  /* a profile keeps the exact weights and the llama.cpp compute buffer */
  {
    g_autoptr(VcEstimate) loaded = vc_estimate_new ();
    g_autoptr(GError) error = NULL;
    g_autofree char *saved = vc_profile_serialize (e, "GGUF", "", VC_UNIT_GB, NULL);

    g_assert_true (vc_profile_parse (saved, strlen (saved), loaded, NULL, NULL, NULL, &error));
    g_assert_no_error (error);
    g_assert_cmpfloat (vc_estimate_get_selected (loaded)->bytes[VC_COMPONENT_WEIGHTS], ==, TINY_GGUF_BYTES);
    g_assert_true (vc_estimate_get_inputs (loaded)->llama_cpp);
    g_assert_cmpfloat (vc_estimate_get_selected (loaded)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                       vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS]);
  }
  g_assert_true (vc_estimate_set_preset (e, "llama-3-8b", NULL));
  g_object_get (e, "source-format", &format, NULL);
  g_assert_cmpstr (format, ==, "");
  g_assert_cmpfloat (vc_estimate_get_inputs (e)->source_weights_bytes, ==, 0);
}

/* --config sizes a quantization_config as an import does */
static void
test_cli_config_quantization (void)
{
  {
    /* --config sizes a quantization_config as an import does: DeepSeek-V3's fp8 with
     * 128 × 128 block scales is the default precision, and bf16 can still be asked for */
    g_autofree char *deepseek = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "hf-config", "models",
                                                  "DeepSeek-V3", NULL);
    g_autoptr(JsonParser) parser = json_parser_new ();
    g_autoptr(JsonParser) parser16 = json_parser_new ();
    const char *args[] = { "--config", deepseek, "--format", "json", NULL };
    const char *args16[] = { "--config", deepseek, "--precision", "bf16", "--format", "json", NULL };
    JsonObject *root = vc_test_run_json (parser, args);
    JsonObject *root16 = vc_test_run_json (parser16, args16);

    g_assert_cmpstr (json_object_get_string_member (root, "scenario"), ==, "inference-8bit");
    g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (root, "source"), "quantization"),
                     ==, "fp8 128×128 blocks");
    /* one byte a linear weight plus its scales, the rest in bf16: about half the bf16 bytes */
    g_assert_cmpint (component (root, "weights"), <, component (root16, "weights") * 0.51);
    g_assert_cmpint (component (root16, "weights"), ==, 2 * (gint64) 671026419200);
  }
}

/* A hybrid model's GGUF and its config.json read as one architecture, field by field */
static void
assert_same_hybrid_arch (const VcArch *a,
                         const VcArch *b)
{
  g_assert_cmpuint (a->n_layers, ==, b->n_layers);
  g_assert_cmpuint (a->hidden_size, ==, b->hidden_size);
  g_assert_cmpuint (a->n_heads, ==, b->n_heads);
  g_assert_cmpuint (a->n_kv_heads, ==, b->n_kv_heads);
  g_assert_cmpfloat (vc_arch_head_dim (a), ==, vc_arch_head_dim (b));
  g_assert_cmpuint (a->vocab_size, ==, b->vocab_size);
  g_assert_true (a->tied_embeddings == b->tied_embeddings);
  g_assert_true (a->gated_mlp == b->gated_mlp);
  g_assert_cmpuint (a->norms_per_layer, ==, b->norms_per_layer);
  g_assert_true (a->qk_norm == b->qk_norm);
  g_assert_true (a->gated_attention == b->gated_attention);
  g_assert_cmpuint (a->recurrent_layers, ==, b->recurrent_layers);
  g_assert_true (a->recurrent_with_attention == b->recurrent_with_attention);
  g_assert_cmpuint (a->attention_layer_period, ==, b->attention_layer_period);
  g_assert_cmpuint (a->attention_layer_offset, ==, b->attention_layer_offset);
  g_assert_cmpuint (a->recurrent_params, ==, b->recurrent_params);
  g_assert_cmpuint (a->recurrent_state, ==, b->recurrent_state);
  g_assert_cmpuint (a->recurrent_conv, ==, b->recurrent_conv);
  g_assert_cmpuint (a->recurrent_heads, ==, b->recurrent_heads);
  g_assert_cmpuint (a->recurrent_groups, ==, b->recurrent_groups);
  g_assert_cmpuint (a->mamba_state_size, ==, b->mamba_state_size);
  g_assert_cmpuint (a->mamba_group_params, ==, b->mamba_group_params);
  g_assert_cmpuint (a->n_experts, ==, b->n_experts);
  g_assert_cmpuint (a->experts_per_token, ==, b->experts_per_token);
  g_assert_cmpuint (a->expert_intermediate_size, ==, b->expert_intermediate_size);
  g_assert_cmpuint (a->n_shared_experts, ==, b->n_shared_experts);
  g_assert_cmpuint (a->shared_intermediate_size, ==, b->shared_intermediate_size);
  g_assert_true (a->shared_expert_gate == b->shared_expert_gate);
  g_assert_cmpuint (a->dense_layers, ==, b->dense_layers);
}

/* The opening of the hybrid GGUF tests: the GGUF fixture read (its path in *gguf_path) and the
 * config.json of data/models/@model read (its path in *config_path, the file in *from_config) */
static VcModelFile *
load_gguf_and_config (const char   *gguf,
                      const char   *model,
                      char        **gguf_path,
                      char        **config_path,
                      VcModelFile **from_config)
{
  g_autoptr(GError) error = NULL;
  VcModelFile *file = load (gguf);

  *gguf_path = fixture (gguf);
  *config_path = g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), "..", "data", "models", model, "config.json", NULL);
  *from_config = vc_model_file_new_for_config_path (*config_path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (vc_model_file_get_format (file), ==, "gguf");
  return file;
}

/* Granite 4.0-H Tiny's GGUF (make-fixtures.py, make_hybrid: the keys llama.cpp's converter
 * writes) and its config.json give one architecture: 40 layers, 36 of them Mamba-2 (the layers
 * whose attention.head_count_kv is 0), the mixer's 48 heads and 1 group, 9,984 convolution
 * values (3 × (3,072 + 2 × 128)) and 393,216 state values (3,072 × 128), 6,939,037,248
 * parameters, 8,192 KV bytes a token. SGLang's Mamba pool from the GGUF is the config's pool
 * in the same rest, at either source: 57,341,952 bytes a request; the GGUF's weights are
 * larger (llama.cpp keeps norms, the router and the convolution in F32), so its rest is less. */
static void
test_gguf_hybrid (void)
{
  g_autofree char *path = NULL;
  g_autofree char *config = NULL;
  g_autoptr(VcModelFile) from_config = NULL;
  g_autoptr(VcModelFile) file = load_gguf_and_config ("hybrid/granite-4.0-h-tiny-BF16.gguf", "granite-4.0-h-tiny",
                                                      &path, &config, &from_config);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  const VcArch *a = vc_model_file_get_arch (file);
  const VcArch *b = vc_model_file_get_arch (from_config);
  const char *sources[] = { "001ccef", "003fca8" };

  g_assert_cmpuint (a->n_layers, ==, 40);
  g_assert_cmpuint (a->recurrent_layers, ==, 36);
  g_assert_cmpuint (a->n_kv_heads, ==, 4);
  /* head_count_kv 0 but at layers 5, 15, 25 and 35 */
  g_assert_cmpuint (a->attention_layer_period, ==, 10);
  g_assert_cmpuint (a->attention_layer_offset, ==, 5);
  g_assert_cmpuint (a->recurrent_heads, ==, 48);
  g_assert_cmpuint (a->recurrent_groups, ==, 1);
  g_assert_cmpuint (a->recurrent_conv, ==, 9984);
  g_assert_cmpuint (a->recurrent_state, ==, 9984 + 393216);
  g_assert_cmpuint (a->n_shared_experts, ==, 1);
  g_assert_cmpuint (a->shared_intermediate_size, ==, 1024);
  assert_same_hybrid_arch (a, b);
  g_assert_cmpfloat (vc_model_file_get_parameters (file), ==, 6939037248.0);

  vc_model_file_apply (from_config, e);
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_SGLANG, "seq", 8192, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autoptr(JsonParser) p1 = json_parser_new ();
      g_autoptr(JsonParser) p2 = json_parser_new ();
      const char *gguf_args[] = { "--model", path, "--engine", "sglang", "--seq", "8192", "--sglang-version",
                                  sources[i], "--fit-gpu", "h100-80gb", "--format", "json", NULL };
      const char *config_args[] = { "--config", config, "--engine", "sglang", "--seq", "8192", "--sglang-version",
                                    sources[i], "--fit-gpu", "h100-80gb", "--format", "json", NULL };
      JsonObject *r1 = vc_test_run_json (p1, gguf_args);
      JsonObject *r2 = vc_test_run_json (p2, config_args);
      JsonObject *g1 = json_object_get_object_member (r1, "engine");
      JsonObject *g2 = json_object_get_object_member (r2, "engine");
      VcSglangStatePool pool;

      g_object_set (e, "sglang-version", i == 0 ? VC_SGLANG_VERSION_001CCEF : VC_SGLANG_VERSION_003FCA8, NULL);
      g_assert_cmpint (json_object_get_int_member (r1, "parameters"), ==, json_object_get_int_member (r2, "parameters"));
      g_assert_cmpint (json_object_get_int_member (r1, "kv_bytes_per_token"), ==, 8192);
      g_assert_cmpint (json_object_get_int_member (r2, "kv_bytes_per_token"), ==, 8192);
      g_assert_true (json_object_get_null_member (g1, "no_figure"));
      g_assert_cmpint (json_object_get_int_member (g1, "state_request_bytes"), ==, 57341952);
      g_assert_cmpint (json_object_get_int_member (g2, "state_request_bytes"), ==, 57341952);
      /* the GGUF's figure is the config's pool in the GGUF's rest */
      g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 8192,
                                                  json_object_get_double_member (g1, "available_kv_bytes"), &pool));
      g_assert_cmpint (json_object_get_int_member (g1, "kv_capacity_tokens"), ==, (gint64) pool.tokens);
      g_assert_cmpint (json_object_get_int_member (g1, "state_pool_requests"), ==, (gint64) pool.state_requests);
      g_assert_cmpfloat (json_object_get_double_member (g1, "max_concurrency"), ==, pool.max_concurrency);
      g_assert_cmpfloat (json_object_get_double_member (g1, "available_kv_bytes"), <,
                         json_object_get_double_member (g2, "available_kv_bytes"));
    }
}

/* Granite 4.0-H Tiny's safetensors in BF16 beside its config.json (make_hybrid), under SGLang's
 * source at commit 003fca8 (--engine-version): the config's 6,939,037,248 parameters and its
 * figures exactly, the BF16 tensors being the config's bytes: 57,341,952 bytes a request, 464
 * requests in the pool (465 slots, one a padding one), 3,619,299 tokens, 92 running requests */
static void
test_safetensors_hybrid (void)
{
  g_autofree char *folder = fixture ("hybrid/granite-4.0-h-tiny-safetensors");
  g_autoptr(VcModelFile) file = load ("hybrid/granite-4.0-h-tiny-safetensors");
  g_autofree char *config = g_build_filename (folder, "config.json", NULL);
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  const char *st_args[] = { "--model", folder, "--engine", "sglang", "--engine-version", "003fca8", "--seq", "8192",
                            "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const char *config_args[] = { "--config", config, "--engine", "sglang", "--engine-version", "003fca8", "--seq",
                                "8192", "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  JsonObject *r1, *r2, *g1, *g2;

  g_assert_cmpstr (vc_model_file_get_format (file), ==, "safetensors");
  g_assert_cmpuint (vc_model_file_get_arch (file)->recurrent_layers, ==, 36);
  g_assert_cmpfloat (vc_model_file_get_parameters (file), ==, 6939037248.0);
  r1 = vc_test_run_json (p1, st_args);
  r2 = vc_test_run_json (p2, config_args);
  g1 = json_object_get_object_member (r1, "engine");
  g2 = json_object_get_object_member (r2, "engine");
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (r1, "source"), "format"), ==,
                   "safetensors");
  g_assert_cmpint (json_object_get_int_member (r1, "parameters"), ==, 6939037248);
  g_assert_cmpint (component (r1, "weights"), ==, component (r2, "weights"));
  g_assert_true (json_object_get_null_member (g1, "no_figure"));
  g_assert_cmpint (json_object_get_int_member (g1, "state_request_bytes"), ==, 57341952);
  g_assert_cmpint (json_object_get_int_member (g1, "state_pool_requests"), ==, 464);
  g_assert_cmpint (json_object_get_int_member (g1, "kv_capacity_tokens"), ==, 3619299);
  g_assert_cmpfloat (json_object_get_double_member (g1, "max_concurrency"), ==, 92);
  g_assert_cmpfloat (json_object_get_double_member (g1, "available_kv_bytes"), ==,
                     json_object_get_double_member (g2, "available_kv_bytes"));
  g_assert_cmpint (json_object_get_int_member (g2, "kv_capacity_tokens"), ==, 3619299);

  /* the same tensors without config.json, as a folder or one shard: refused, config.json named */
  {
    g_autofree char *shard = fixture ("hybrid/granite-4.0-h-tiny-no-config/model.safetensors");
    const char *args[] = { "--model", shard, "--engine", "sglang", "--engine-version", "003fca8", NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "granite-4.0-h-tiny-no-config holds safetensors but no config.json"));
  }
}

/* Gemma 3 4B's GGUF (make_gemma3_gguf), found in its folder beside an mmproj file: the text
 * model alone, 3,880,263,168 parameters (34 layers of 94,382,592, the tied embedding of
 * 671,252,480 and the final norm), and a warning that the vision encoder is not counted, which
 * vramcalc prints */
static void
test_gguf_gemma3 (void)
{
  g_autofree char *folder = fixture ("gemma3");
  g_autoptr(VcModelFile) file = load ("gemma3");
  const VcArch *a = vc_model_file_get_arch (file);
  const char *args[] = { "--model", folder, "--engine", "llama.cpp", "--seq", "8192", "--format", "json", NULL };
  g_autofree char *out = NULL, *err = NULL;

  g_assert_cmpstr (vc_model_file_get_format (file), ==, "gguf");
  g_assert_cmpuint (a->n_layers, ==, 34);
  g_assert_cmpuint (a->encoder_params, ==, 0);
  g_assert_cmpfloat (vc_model_file_get_parameters (file), ==, 3880263168.0);
  g_assert_nonnull (vc_model_file_get_warning (file));
  g_assert_nonnull (strstr (vc_model_file_get_warning (file), "vision encoder"));
  g_assert_nonnull (strstr (vc_model_file_get_warning (file), "mmproj"));
  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (err, "is not in this GGUF: llama.cpp keeps it in a separate mmproj file"));
  g_assert_nonnull (strstr (out, "\"parameters\" : 3880263168"));
}

/* Gemma 3 4B's projector file (make-fixtures.py, gemma3_mmproj_tensors): SigLIP's 27 blocks and
 * the projector, 419,816,304 parameters, the published vision+text total less the text model
 * (keras-hub, FORMULAS.md); 419,415,552 matrix elements in F16 and 400,752 vector elements in
 * F32: 838,831,104 + 1,603,008 = 840,434,112 bytes */
#define GEMMA3_MMPROJ_BYTES 840434112
/* clip.cpp's compute buffer for the 896 × 896 warm-up image, as llama.cpp logs it for Gemma 3's
 * projector: 1132.00 MiB without flash attention (ggml-org/llama.cpp#16837, "before"), 121.25 MiB
 * with it (ggml-org/llama.cpp#22790, gemma-3-4b-it on CUDA0) */
#define GEMMA3_CLIP_BYTES 1186988032
#define GEMMA3_CLIP_FA_BYTES 127139840
#define GEMMA3_MMPROJ_PARAMETERS 419816304

static void
test_mmproj_read (void)
{
  g_autofree char *path = fixture ("gemma3/mmproj-gemma-3-4b-it-F16.gguf");
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_auto(VcMmproj) m = { 0 };

  g_assert_true (vc_mmproj_read (&m, file, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (m.projector, ==, "gemma3");
  g_assert_cmpuint (m.bytes, ==, GEMMA3_MMPROJ_BYTES);
  g_assert_cmpuint (m.compute_bytes, ==, GEMMA3_CLIP_BYTES);
  g_assert_cmpuint (m.compute_bytes_fa, ==, GEMMA3_CLIP_FA_BYTES);
  g_assert_cmpuint (m.elements, ==, GEMMA3_MMPROJ_PARAMETERS);
  g_assert_cmpuint (m.n_tensors, ==, 3 + 27 * 16 + 4);
  g_assert_true (m.vision);
  g_assert_false (m.audio);
  g_assert_true (vc_mmproj_projector_known ("gemma3"));
  g_assert_true (vc_mmproj_projector_known ("qwen2.5o+qwen2a"));
  g_assert_false (vc_mmproj_projector_known ("gemma9"));
  g_assert_false (vc_mmproj_projector_known (""));
}

/* Files --mmproj refuses, each naming the file and what is wrong */
static void
test_mmproj_refused (void)
{
  static const struct { const char *path; const char *fault; } cases[] = {
    { "mmproj/a-model.gguf", "is not a multimodal projector (general.type “”, general.architecture “llama”)" },
    { "mmproj/unknown-projector.gguf", "clip.projector_type “gemma9” is not a projector type llama.cpp knows; accepted: mlp," },
    { "mmproj/no-encoder.gguf", "neither a vision nor an audio encoder" },
    { "mmproj", "this is a folder; a projector is one .gguf file" },
    { "gemma3/gemma-3-4b-it-BF16.gguf", "general.architecture “gemma3”" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = fixture (cases[i].path);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_auto(VcMmproj) m = { 0 };
      g_autofree char *folder = fixture ("gemma3");
      const char *args[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", path, NULL };
      g_autofree char *out = NULL, *err = NULL;

      g_assert_false (vc_mmproj_read (&m, file, NULL, &error));
      g_assert_nonnull (error);
      g_test_message ("%s", error->message);
      g_assert_nonnull (strstr (error->message, cases[i].fault));
      g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 2);
      g_assert_nonnull (strstr (err, "vramcalc: --mmproj: "));
      g_assert_nonnull (strstr (err, cases[i].fault));
    }
}

/* A projector type whose compute graph is not followed: its weights counted, and the warning
 * naming the type */
static void
test_mmproj_not_followed (void)
{
  g_autofree char *folder = fixture ("gemma3");
  g_autofree char *mlp = fixture ("mmproj/mlp.gguf");
  const char *args[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", mlp, "--format", "json", NULL };
  g_autoptr(JsonParser) p = json_parser_new ();
  JsonObject *r = vc_test_run_json (p, args), *m = json_object_get_object_member (r, "mmproj");
  JsonArray *w = json_object_get_array_member (r, "warnings");

  g_assert_false (json_object_get_boolean_member (m, "compute_buffer_counted"));
  g_assert_true (json_object_get_null_member (m, "compute_buffer_bytes"));
  g_assert_cmpuint (json_array_get_length (w), ==, 1);
  g_assert_nonnull (strstr (json_array_get_string_element (w, 0), "the graph of the projector type “mlp” is not followed here"));
  {
    /* kept in system memory (--no-mmproj-offload): the same warning, for system memory */
    const char *ram[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", mlp, "--no-mmproj-offload",
                          "--format", "json", NULL };
    g_autoptr(JsonParser) q = json_parser_new ();
    JsonObject *o = vc_test_run_json (q, ram);
    JsonArray *v = json_object_get_array_member (o, "warnings");

    g_assert_cmpuint (json_array_get_length (v), ==, 1);
    g_assert_nonnull (strstr (json_array_get_string_element (v, 0), "counted in system memory, but not its compute buffer"));
    g_assert_nonnull (strstr (json_array_get_string_element (v, 0), "projector type “mlp”"));
  }
}

/* The other projectors built on SigLIP (make-fixtures.py, make_siglip_mmprojs), their
 * warm-up graphs (clip.cpp build_inp and build_vit, siglip.cpp's idefics3 pixel shuffle,
 * janus_pro aligner, lfm2's resized positions, shuffle, LayerNorm and feed-forward block)
 * placed as ggml-alloc places them, without and with flash attention, and counted by vramcalc
 * as Gemma 3's is. lfm2's 28,311,552 bytes with flash attention are its mm.1 product
 * (256 · 24576 · 4) beside that product's input (256 · 3072 · 4). Files clip.cpp would not
 * load as that graph (lfm2 with F16 positions to resize, idefics3 without its scale factor,
 * janus_pro without an aligner bias) keep the warning naming their type. Qwen2-VL's and
 * Qwen2.5-VL's towers (qwen2vl.cpp, warm-up image 1288 × 1288): 4,821,636,096 and 280,056,832
 * bytes, 5,108,210,240 and 739,025,728 (clip.cpp of that llama.cpp, built for the CPU backend
 * and run on these files, logs the same bytes); a qwen2.5vl file without n_wa_pattern and a
 * qwen2vl one with a patch bias are not followed. Qwen3-VL-8B's tower (qwen3vl.cpp, deepstack
 * after blocks 8, 16 and 24, whose mergers run after the main one): 5,001,072,896 and
 * 390,156,544; without deepstack (4 blocks) 4,884,066,560 and 260,149,504, both as llama.cpp
 * logs them; F16 positions to resize (ggml_interpolate asserts f32) are not followed. pixtral
 * (pixtral.cpp, warm-up 16 · patch · n_merge): Pixtral's shape 16,844,800 and 17,369,088,
 * Mistral 3's (patch merger) 90,824,704 and 67,756,032, as llama.cpp logs them */
static void
test_mmproj_siglip (void)
{
  static const struct { const char *path, *type; gint64 bytes, fa; } cases[] = {
    { "mmproj/idefics3-512.gguf", "idefics3", 62914560, 22020096 },
    { "mmproj/idefics3-384.gguf", "idefics3", 47449152, 22628160 },
    { "mmproj/janus-pro.gguf", "janus_pro", 30670848, 21233664 },
    { "mmproj/lfm2.gguf", "lfm2", 62914560, 28311552 },
    { "mmproj/lfm2-f16-positions.gguf", "lfm2", 0, 0 },
    { "mmproj/idefics3-no-scale.gguf", "idefics3", 0, 0 },
    { "mmproj/janus-pro-no-bias.gguf", "janus_pro", 0, 0 },
    { "mmproj/qwen2vl.gguf", "qwen2vl_merger", 4821636096, 280056832 },
    { "mmproj/qwen2.5vl.gguf", "qwen2.5vl_merger", 5108210240, 739025728 },
    { "mmproj/qwen2.5vl-no-pattern.gguf", "qwen2.5vl_merger", 0, 0 },
    { "mmproj/qwen2vl-patch-bias.gguf", "qwen2vl_merger", 0, 0 },
    { "mmproj/qwen3vl.gguf", "qwen3vl_merger", 5001072896, 390156544 },
    { "mmproj/qwen3vl-no-deepstack.gguf", "qwen3vl_merger", 4884066560, 260149504 },
    { "mmproj/qwen3vl-f16-positions.gguf", "qwen3vl_merger", 0, 0 },
    { "mmproj/pixtral.gguf", "pixtral", 16844800, 17369088 },
    { "mmproj/mistral3.gguf", "pixtral", 90824704, 67756032 },
  };
  g_autofree char *folder = fixture ("gemma3");

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = fixture (cases[i].path);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_auto(VcMmproj) m = { 0 };
      const char *args[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", path, "--no-flash-attention",
                             "--format", "json", NULL };
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonObject *r, *o;
      JsonArray *w;

      g_assert_true (vc_mmproj_read (&m, file, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (m.projector, ==, cases[i].type);
      g_assert_cmpint (m.compute_bytes, ==, cases[i].bytes);
      g_assert_cmpint (m.compute_bytes_fa, ==, cases[i].fa);
      r = vc_test_run_json (parser, args);
      o = json_object_get_object_member (r, "mmproj");
      w = json_object_get_array_member (r, "warnings");
      g_assert_cmpstr (json_object_get_string_member (o, "projector"), ==, cases[i].type);
      if (cases[i].bytes > 0)
        {
          g_assert_true (json_object_get_boolean_member (o, "compute_buffer_counted"));
          g_assert_cmpint (json_object_get_int_member (o, "compute_buffer_bytes"), ==, cases[i].bytes);
          g_assert_cmpuint (json_array_get_length (w), ==, 0);
        }
      else
        {
          g_autofree char *named = g_strdup_printf ("the graph of the projector type “%s” is not followed here", cases[i].type);

          g_assert_false (json_object_get_boolean_member (o, "compute_buffer_counted"));
          g_assert_true (json_object_get_null_member (o, "compute_buffer_bytes"));
          g_assert_cmpuint (json_array_get_length (w), ==, 1);
          g_assert_nonnull (strstr (json_array_get_string_element (w, 0), named));
        }
    }
}

/* Gemma 3 4B's GGUF with its projector file, as `llama-server -m … --mmproj …` runs it: the
 * projector's 840,434,112 bytes are weights on the GPU with clip.cpp's compute buffer for its
 * warm-up image (127,139,840 bytes with flash attention, 1,186,988,032 without), and the text
 * model's warning goes; --no-mmproj-offload keeps them off the GPU; other engines and training
 * are refused; the command carries it. */
static void
test_mmproj_gemma3 (void)
{
  g_autofree char *folder = fixture ("gemma3");
  g_autofree char *mmproj = fixture ("gemma3/mmproj-gemma-3-4b-it-F16.gguf");
  g_autoptr(JsonParser) p0 = json_parser_new ();
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  const char *text_args[] = { "--model", folder, "--engine", "llama.cpp", "--seq", "8192", "--format", "json", NULL };
  const char *mm_args[] = { "--model", folder, "--engine", "llama.cpp", "--seq", "8192", "--mmproj", mmproj,
                            "--format", "json", NULL };
  const char *cpu_args[] = { "--model", folder, "--engine", "llama.cpp", "--seq", "8192", "--mmproj", mmproj,
                             "--no-mmproj-offload", "--format", "json", NULL };
  const char *eager_text[] = { "--model", folder, "--engine", "llama.cpp", "--seq", "8192", "--no-flash-attention",
                               "--format", "json", NULL };
  const char *eager_mm[] = { "--model", folder, "--engine", "llama.cpp", "--seq", "8192", "--no-flash-attention",
                             "--mmproj", mmproj, "--format", "json", NULL };
  g_autoptr(JsonParser) p3 = json_parser_new ();
  g_autoptr(JsonParser) p4 = json_parser_new ();
  JsonObject *r0, *r1, *r2, *r3, *r4, *m1;
  JsonArray *w0, *w1, *w2;

  r0 = vc_test_run_json (p0, text_args);
  r1 = vc_test_run_json (p1, mm_args);
  r2 = vc_test_run_json (p2, cpu_args);
  r3 = vc_test_run_json (p3, eager_text);
  r4 = vc_test_run_json (p4, eager_mm);
  g_assert_cmpint (component (r1, "weights"), ==, component (r0, "weights") + GEMMA3_MMPROJ_BYTES + GEMMA3_CLIP_FA_BYTES);
  g_assert_cmpint (component (r4, "weights"), ==, component (r3, "weights") + GEMMA3_MMPROJ_BYTES + GEMMA3_CLIP_BYTES);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (r4, "mmproj"), "compute_buffer_bytes"), ==,
                   GEMMA3_CLIP_BYTES);
  g_assert_cmpint (component (r2, "weights"), ==, component (r0, "weights"));
  g_assert_cmpint (component (r1, "kv_cache"), ==, component (r0, "kv_cache"));
  g_assert_true (json_object_get_null_member (r0, "mmproj"));
  m1 = json_object_get_object_member (r1, "mmproj");
  g_assert_cmpstr (json_object_get_string_member (m1, "projector"), ==, "gemma3");
  g_assert_cmpstr (json_object_get_string_member (m1, "file"), ==, mmproj);
  g_assert_cmpint (json_object_get_int_member (m1, "weights_bytes"), ==, GEMMA3_MMPROJ_BYTES);
  g_assert_cmpint (json_object_get_int_member (m1, "parameters"), ==, GEMMA3_MMPROJ_PARAMETERS);
  g_assert_true (json_object_get_boolean_member (m1, "on_gpu"));
  g_assert_true (json_object_get_boolean_member (m1, "compute_buffer_counted"));
  g_assert_cmpint (json_object_get_int_member (m1, "compute_buffer_bytes"), ==, GEMMA3_CLIP_FA_BYTES);
  g_assert_true (json_object_get_null_member (json_object_get_object_member (r2, "mmproj"), "compute_buffer_bytes"));
  g_assert_false (json_object_get_boolean_member (json_object_get_object_member (r2, "mmproj"), "on_gpu"));
  /* the text model's parameters, the projector's apart */
  g_assert_cmpint (json_object_get_int_member (r1, "parameters"), ==, 3880263168);
  w0 = json_object_get_array_member (r0, "warnings");
  w1 = json_object_get_array_member (r1, "warnings");
  w2 = json_object_get_array_member (r2, "warnings");
  g_assert_cmpuint (json_array_get_length (w0), ==, 1);
  g_assert_nonnull (strstr (json_array_get_string_element (w0, 0), "is not in this GGUF"));
  g_assert_cmpuint (json_array_get_length (w1), ==, 0);
  g_assert_cmpuint (json_array_get_length (w2), ==, 0);

  {
    /* nothing left out on stderr; --explain names the projector's bytes and its compute buffer */
    const char *args[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", mmproj, "--explain", NULL };
    g_autofree char *out = NULL, *err = NULL;

    g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
    g_assert_null (strstr (err, "but not its compute buffer"));
    g_assert_null (strstr (err, "is not in this GGUF"));
    {
      /* the explanation as one line, however the table wraps it */
      g_autoptr(GRegex) space = g_regex_new ("\\s+", 0, 0, NULL);
      g_autofree char *flat = g_regex_replace_literal (space, out, -1, 0, " ", 0, NULL);

      g_test_message ("%s", flat);
      g_assert_nonnull (strstr (flat, "including the multimodal projector file’s tensors, 840 MB, and its compute buffer, 127 MB "
                                      "(llama.cpp --mmproj, on the first GPU; the encoder’s graph of its warm-up image)"));
    }
  }
  {
    /* other engines and training: refused, naming what is accepted */
    const char *vllm[] = { "--model", folder, "--engine", "vllm", "--mmproj", mmproj, NULL };
    const char *train[] = { "--model", folder, "--mode", "training", "--mmproj", mmproj, NULL };
    g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

    g_assert_cmpint (vc_test_run_vramcalc (vllm, NULL, &out, &err), ==, 2);
    g_assert_nonnull (strstr (err, "vramcalc: --mmproj is llama.cpp’s multimodal projector file: accepted with the engines llama.cpp and ollama, not vllm"));
    g_assert_cmpint (vc_test_run_vramcalc (train, NULL, &out2, &err2), ==, 2);
    g_assert_nonnull (strstr (err2, "accepted with the engines llama.cpp and ollama, not generic"));
  }
}

/* A GGUF of an architecture whose SGLang class takes no pp_proxy_tensors (Gemma 3's) sets
 * sglang-one-stage as its config would, and SGLang at --pp 2 is refused; Llama's does not */
static void
test_gguf_sglang_one_stage (void)
{
  g_autoptr(VcModelFile) gemma = load ("gemma3/gemma-3-4b-it-BF16.gguf");
  g_autoptr(VcModelFile) llama = load ("gguf/tiny-llama-Q4_K_M.gguf");
  g_autofree char *gguf = fixture ("gemma3/gemma-3-4b-it-BF16.gguf");
  const char *sglang[] = { "--model", gguf, "--engine", "sglang", "--pp", "2", NULL };
  const char *vllm[] = { "--model", gguf, "--engine", "vllm", "--engine-version", "0.14", "--pp", "2", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL;

  g_assert_true (vc_model_file_get_arch (gemma)->sglang_one_stage);
  g_assert_false (vc_model_file_get_arch (llama)->sglang_one_stage);
  g_assert_cmpint (vc_test_run_vramcalc (sglang, NULL, &out, &err), ==, 2);
  g_assert_nonnull (strstr (err, "SGLang runs this model on one pipeline stage"));
  g_assert_cmpint (vc_test_run_vramcalc (vllm, NULL, &out2, &err2), ==, 0);
}

/* The projector in the commands: llama-server's carries it; Ollama's Modelfile names the
 * projector file in a second FROM line (parser/parser.go gathers every FROM's files,
 * server/create.go keeps a projector GGUF as the projector layer), but cannot say
 * --no-mmproj-offload (Ollama decides it) nor add a projector to an Ollama model */
static void
test_mmproj_commands (void)
{
  g_autofree char *mmproj = fixture ("gemma3/mmproj-gemma-3-4b-it-F16.gguf");
  g_autofree char *gguf = fixture ("gemma3/gemma-3-4b-it-BF16.gguf");
  const char *args[] = { "--model", gguf, "--engine", "llama.cpp", "--mmproj", mmproj, "--no-mmproj-offload",
                         "--print-command", "llama.cpp", NULL };
  const char *ollama[] = { "--model", gguf, "--engine", "ollama", "--mmproj", mmproj, "--print-command", "ollama", NULL };
  const char *ollama_cpu[] = { "--model", gguf, "--engine", "ollama", "--mmproj", mmproj, "--no-mmproj-offload",
                               "--print-command", "ollama", NULL };
  g_autofree char *out = NULL, *err = NULL, *out2 = NULL, *err2 = NULL, *out3 = NULL, *err3 = NULL;
  g_autofree char *flag = g_strdup_printf (" --mmproj %s --no-mmproj-offload", mmproj);
  g_autofree char *froms = g_strdup_printf ("FROM %s\nFROM %s\nPARAMETER num_ctx ", gguf, mmproj);

  g_assert_cmpint (vc_test_run_vramcalc (args, NULL, &out, &err), ==, 0);
  g_assert_nonnull (strstr (out, flag));
  g_assert_cmpint (vc_test_run_vramcalc (ollama, NULL, &out2, &err2), ==, 0);
  g_test_message ("%s", out2);
  g_assert_nonnull (strstr (out2, froms));
  g_assert_cmpint (vc_test_run_vramcalc (ollama_cpu, NULL, &out3, &err3), ==, 2);
  g_assert_nonnull (strstr (err3, "--no-mmproj-offload cannot be written in a Modelfile"));
}

/* --no-mmproj-offload: Gemma 3 4B's projector, 840,434,112 bytes, in system RAM beside what the
 * layout keeps there, in JSON host_bytes and in the plan on a set of cards */
static void
test_mmproj_ram (void)
{
  g_autofree char *folder = fixture ("gemma3");
  g_autofree char *mmproj = fixture ("gemma3/mmproj-gemma-3-4b-it-F16.gguf");

  {
    g_autoptr(JsonParser) q1 = json_parser_new ();
    g_autoptr(JsonParser) q2 = json_parser_new ();
    const char *gpu_args[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", mmproj, "--format", "json", NULL };
    const char *ram_args[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", mmproj, "--no-mmproj-offload",
                               "--format", "json", NULL };
    const char *plan_args[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", mmproj, "--no-mmproj-offload",
                                "--gpus", "rtx-4090", NULL };
    const char *plan_gpu_args[] = { "--model", folder, "--engine", "llama.cpp", "--mmproj", mmproj,
                                    "--gpus", "rtx-4090", NULL };
    JsonObject *on_gpu = vc_test_run_json (q1, gpu_args);
    JsonObject *in_ram = vc_test_run_json (q2, ram_args);
    g_autofree char *out5 = NULL, *err5 = NULL, *out6 = NULL, *err6 = NULL;

    /* the projector and its compute buffer (flash attention on) */
    g_assert_cmpint (json_object_get_int_member (in_ram, "host_bytes"), ==,
                     json_object_get_int_member (on_gpu, "host_bytes") + GEMMA3_MMPROJ_BYTES + GEMMA3_CLIP_FA_BYTES);
    g_assert_cmpint (vc_test_run_vramcalc (plan_args, NULL, &out5, &err5), ==, 0);
    g_assert_cmpint (vc_test_run_vramcalc (plan_gpu_args, NULL, &out6, &err6), ==, 0);
    g_test_message ("%s\n%s", out5, out6);
    g_assert_cmpstr (out5, !=, out6);
  }
}

/* A profile keeps the projector's figures: the same estimate, its compute buffer included, without
 * the file */
static void
test_mmproj_profile (void)
{
  g_autofree char *folder = fixture ("gemma3");
  g_autofree char *mmproj = fixture ("gemma3/mmproj-gemma-3-4b-it-F16.gguf");
  const char *mm_args[] = { "--model", folder, "--engine", "llama.cpp", "--seq", "8192", "--mmproj", mmproj,
                            "--format", "json", NULL };
  g_autoptr(JsonParser) p1 = json_parser_new ();
  JsonObject *r1 = vc_test_run_json (p1, mm_args);

  {
    /* a profile keeps the projector's figures: the same estimate without the file */
    g_autofree char *dir = vc_test_make_tmpdir ("mmproj");
    g_autofree char *profile = g_build_filename (dir, "p.json", NULL);
    const char *save[] = { "--model", folder, "--engine", "llama.cpp", "--seq", "8192", "--mmproj", mmproj,
                           "--save-profile", profile, NULL };
    const char *again[] = { "--profile", profile, "--format", "json", NULL };
    g_autoptr(JsonParser) p3 = json_parser_new ();
    g_autofree char *out = NULL, *err = NULL;
    JsonObject *r3;

    g_assert_cmpint (vc_test_run_vramcalc (save, NULL, &out, &err), ==, 0);
    r3 = vc_test_run_json (p3, again);
    g_assert_cmpint (component (r3, "weights"), ==, component (r1, "weights"));
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (r3, "mmproj"), "weights_bytes"), ==,
                     GEMMA3_MMPROJ_BYTES);
    g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (r3, "mmproj"), "compute_buffer_bytes"), ==,
                     GEMMA3_CLIP_FA_BYTES);
    g_assert_cmpuint (json_array_get_length (json_object_get_array_member (r3, "warnings")), ==, 0);
    vc_test_remove_tree (dir);
  }
}

/* Falcon-H1-Tiny-90M's GGUF (make_hybrid: attention and a Mamba-2 mixer in every layer) and its
 * config.json: 24 layers each with a mixer beside attention, 24 heads of 32 and 1 group, 2,688
 * convolution values (3 × (768 + 2 × 64)) and 49,152 state values (768 × 64); the same
 * parameters, KV bytes a token and SGLang's pool (4,847,616 bytes a request) in the GGUF's rest */
static void
test_gguf_falcon_h1 (void)
{
  g_autofree char *path = NULL;
  g_autofree char *config = NULL;
  g_autoptr(VcModelFile) from_config = NULL;
  g_autoptr(VcModelFile) file = load_gguf_and_config ("hybrid/falcon-h1-tiny-90m-BF16.gguf",
                                                      "falcon-h1-tiny-90m-instruct", &path, &config, &from_config);
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(JsonParser) p1 = json_parser_new ();
  g_autoptr(JsonParser) p2 = json_parser_new ();
  const char *gguf_args[] = { "--model", path, "--engine", "sglang", "--seq", "4096", "--mem-fraction", "0.8",
                              "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const char *config_args[] = { "--config", config, "--engine", "sglang", "--seq", "4096", "--mem-fraction", "0.8",
                                "--fit-gpu", "h100-80gb", "--format", "json", NULL };
  const VcArch *a = vc_model_file_get_arch (file);
  const VcArch *b = vc_model_file_get_arch (from_config);
  JsonObject *r1, *r2, *g1;
  VcSglangStatePool pool;

  g_assert_cmpuint (a->recurrent_layers, ==, 24);
  g_assert_true (a->recurrent_with_attention);
  g_assert_cmpuint (a->recurrent_heads, ==, 24);
  g_assert_cmpuint (a->recurrent_conv, ==, 2688);
  g_assert_cmpuint (a->recurrent_state, ==, 2688 + 49152);
  assert_same_hybrid_arch (a, b);

  r1 = vc_test_run_json (p1, gguf_args);
  r2 = vc_test_run_json (p2, config_args);
  g1 = json_object_get_object_member (r1, "engine");
  g_assert_cmpint (json_object_get_int_member (r1, "parameters"), ==, json_object_get_int_member (r2, "parameters"));
  g_assert_cmpint (json_object_get_int_member (r1, "kv_bytes_per_token"), ==,
                   json_object_get_int_member (r2, "kv_bytes_per_token"));
  g_assert_true (json_object_get_null_member (g1, "no_figure"));
  g_assert_cmpint (json_object_get_int_member (g1, "state_request_bytes"), ==, 4847616);
  vc_model_file_apply (from_config, e);
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_SGLANG, "seq", 4096, NULL);
  g_assert_true (vc_engine_state_sglang_pool (vc_estimate_get_inputs (e), 1, 12288,
                                              json_object_get_double_member (g1, "available_kv_bytes"), &pool));
  g_assert_cmpint (json_object_get_int_member (g1, "kv_capacity_tokens"), ==, (gint64) pool.tokens);
  g_assert_cmpint (json_object_get_int_member (g1, "state_pool_requests"), ==, (gint64) pool.state_requests);
}

/* Qwen3-Next-80B-A3B's GGUF (make-fixtures.py, make_qwen3_next_gguf: the keys llama.cpp's
 * converter writes) and its config.json give one architecture: 48 layers, 36 of them Gated
 * DeltaNet (all but every 4th), 32 value heads and 16 key heads, 24,576 convolution values
 * (3 × (2 × 2,048 + 4,096)) and 524,288 state values (32 × 128 × 128), a gated shared expert of
 * 512, 79,674,391,296 parameters and 24,576 KV bytes a token (12 attention layers × 2,048). At
 * TP 4 on H100s each rank keeps a quarter of each state (274,432 bytes) and one KV head (1,024
 * bytes a token a layer): vLLM's blocks of 16 × cdiv(274,432, 16 × 1,024) = 272 tokens, a page
 * of 278,528 bytes, and SGLang's 19,316,736 bytes a request (77,266,944 / 4), from either. */
static void
test_gguf_qwen3_next (void)
{
  g_autofree char *path = NULL;
  g_autofree char *config = NULL;
  g_autoptr(VcModelFile) from_config = NULL;
  g_autoptr(VcModelFile) file = load_gguf_and_config ("hybrid/qwen3-next-80b-a3b-BF16.gguf",
                                                      "qwen3-next-80b-a3b-instruct", &path, &config, &from_config);
  const VcArch *a = vc_model_file_get_arch (file);
  const VcArch *b = vc_model_file_get_arch (from_config);
  const char *engines[] = { "vllm", "sglang" };

  g_assert_cmpuint (a->n_layers, ==, 48);
  g_assert_cmpuint (a->recurrent_layers, ==, 36);
  g_assert_false (a->recurrent_with_attention);
  g_assert_cmpuint (a->n_kv_heads, ==, 2);
  g_assert_cmpfloat (vc_arch_head_dim (a), ==, 256);
  g_assert_cmpuint (a->recurrent_heads, ==, 32);
  g_assert_cmpuint (a->recurrent_groups, ==, 16);
  g_assert_cmpuint (a->recurrent_conv, ==, 24576);
  g_assert_cmpuint (a->recurrent_state, ==, 24576 + 524288);
  g_assert_cmpuint (a->n_experts, ==, 512);
  g_assert_cmpuint (a->experts_per_token, ==, 10);
  g_assert_cmpuint (a->n_shared_experts, ==, 1);
  g_assert_cmpuint (a->shared_intermediate_size, ==, 512);
  g_assert_true (a->shared_expert_gate);
  g_assert_true (a->gated_attention);
  g_assert_true (a->qk_norm);
  g_assert_cmpfloat (vc_model_file_get_parameters (file), ==, 79674391296.0);
  assert_same_hybrid_arch (a, b);

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    {
      g_autoptr(JsonParser) p1 = json_parser_new ();
      g_autoptr(JsonParser) p2 = json_parser_new ();
      const char *gguf_args[] = { "--model", path, "--engine", engines[i], "--seq", "8192", "--tp", "4",
                                  "--fit-gpu", "h100-80gb", "--format", "json", NULL };
      const char *config_args[] = { "--config", config, "--engine", engines[i], "--seq", "8192", "--tp", "4",
                                    "--fit-gpu", "h100-80gb", "--format", "json", NULL };
      JsonObject *r1 = vc_test_run_json (p1, gguf_args);
      JsonObject *r2 = vc_test_run_json (p2, config_args);
      JsonObject *g1 = json_object_get_object_member (r1, "engine");
      JsonObject *g2 = json_object_get_object_member (r2, "engine");

      g_assert_cmpint (json_object_get_int_member (r1, "parameters"), ==, 79674391296);
      g_assert_cmpint (json_object_get_int_member (r2, "parameters"), ==, 79674391296);
      g_assert_cmpint (json_object_get_int_member (r1, "kv_bytes_per_token"), ==, 24576);
      g_assert_cmpint (json_object_get_int_member (r2, "kv_bytes_per_token"), ==, 24576);
      g_assert_true (json_object_get_null_member (g1, "no_figure"));
      if (i == 0)
        {
          g_assert_cmpint (json_object_get_int_member (g1, "state_page_bytes"), ==, 278528);
          g_assert_cmpint (json_object_get_int_member (g2, "state_page_bytes"), ==, 278528);
          g_assert_cmpint (json_object_get_int_member (g1, "state_block_size"), ==, 272);
          g_assert_cmpint (json_object_get_int_member (g2, "state_block_size"), ==, 272);
        }
      else
        {
          g_assert_cmpint (json_object_get_int_member (g1, "state_request_bytes"), ==, 77266944 / 4);
          g_assert_cmpint (json_object_get_int_member (g2, "state_request_bytes"), ==, 77266944 / 4);
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  int result;

  g_test_init (&argc, &argv, NULL);

  fixtures = vc_test_make_model_fixtures ();

  g_test_add_func ("/model-files/gguf/exact", test_gguf_exact);
  g_test_add_func ("/model-files/gguf/model", test_gguf_model);
  g_test_add_func ("/model-files/gguf/moe", test_gguf_moe);
  g_test_add_func ("/model-files/gguf/hybrid", test_gguf_hybrid);
  g_test_add_func ("/model-files/gguf/falcon-h1", test_gguf_falcon_h1);
  g_test_add_func ("/model-files/gguf/sglang-one-stage", test_gguf_sglang_one_stage);
  g_test_add_func ("/model-files/gguf/qwen3-next", test_gguf_qwen3_next);
  g_test_add_func ("/model-files/gguf/gemma3", test_gguf_gemma3);
  g_test_add_func ("/model-files/mmproj/read", test_mmproj_read);
  g_test_add_func ("/model-files/mmproj/refused", test_mmproj_refused);
  g_test_add_func ("/model-files/mmproj/gemma3", test_mmproj_gemma3);
  g_test_add_func ("/model-files/mmproj/ram", test_mmproj_ram);
  g_test_add_func ("/model-files/mmproj/commands", test_mmproj_commands);
  g_test_add_func ("/model-files/mmproj/not-followed", test_mmproj_not_followed);
  g_test_add_func ("/model-files/mmproj/siglip", test_mmproj_siglip);
  g_test_add_func ("/model-files/mmproj/profile", test_mmproj_profile);
  g_test_add_func ("/model-files/safetensors/hybrid", test_safetensors_hybrid);
  g_test_add_func ("/model-files/safetensors/exact", test_safetensors);
  g_test_add_func ("/model-files/safetensors/gptq", test_safetensors_gptq);
  for (guint i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/model-files/bad/%s", bad_cases[i].path);
      g_test_add_data_func (name, &bad_cases[i], test_bad);
    }
  g_test_add_func ("/model-files/bad-in-memory", test_bad_in_memory);
  g_test_add_func ("/model-files/cli", test_cli_model);
  g_test_add_func ("/model-files/cli-config-quantization", test_cli_config_quantization);
  g_test_add_func ("/model-files/estimate-source", test_estimate_source);
  g_test_add_func ("/quant/recipe-llama-3-8b", test_recipe_llama3);
  g_test_add_func ("/quant/recipe-mistral-large", test_recipe_mistral_large);
  g_test_add_func ("/quant/cli-formats", test_cli_formats);
  g_test_add_func ("/model-files/llama-cpp-buffers", test_llama_cpp_buffers);
  for (guint i = 0; i < G_N_ELEMENTS (quant_cases); i++)
    {
      g_autofree char *name = g_strdup_printf ("/quant/config/%s", quant_cases[i].name);
      g_test_add_data_func (name, &quant_cases[i], test_quant_config);
    }

  result = g_test_run ();
  vc_test_remove_tree (fixtures);
  return result;
}
