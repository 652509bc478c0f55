/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Engine profiles (FORMULAS.md, "Engines") on hand-worked examples from each engine's own
 * arithmetic: Llama 3 8B keeps 32 layers × 8 KV heads × 128 × 2 (K and V) × 2 bytes =
 * 131,072 bytes of KV cache a token at bf16. */
#include "config.h"

#include <math.h>

#include "vc-engine.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-formula.h"

#define KV_PER_TOKEN 131072.0

static guint
gpu_index (VcEstimate *e,
           const char *id)
{
  for (guint i = 0; i < vc_estimate_get_n_gpus (e); i++)
    if (g_str_equal (vc_estimate_get_gpu (e, i)->id, id))
      return i;
  g_assert_not_reached ();
}

static VcEstimate *
llama3 (VcEngine engine,
        guint    seq)
{
  VcEstimate *e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_estimate_set_preset (e, "llama-3-8b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", engine, "seq", seq, NULL);
  return e;
}

static void
capacity_on (VcEstimate   *e,
             const char   *id,
             VcKvCapacity *kv)
{
  guint i = gpu_index (e, id);
  const VcResult *r = vc_estimate_get_result (e);
  const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, i);

  vc_engine_kv_capacity (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected],
                         fit->capacity_bytes, fit->count, kv);
}

static void
test_vllm (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_VLLM, 8192);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  double C = 81559 * 1048576.0;    /* H100 80 GB as nvidia-smi shows it */
  double W = sc->bytes[VC_COMPONENT_WEIGHTS], A = sc->bytes[VC_COMPONENT_ACTIVATIONS];
  double O = sc->bytes[VC_COMPONENT_OVERHEAD];
  double blocks;
  VcKvCapacity kv;

  g_assert_cmpfloat (vc_estimate_get_result (e)->kv_bytes_per_token, ==, KV_PER_TOKEN);
  g_assert_cmpfloat (W, ==, 8030261248.0 * 2);
  g_assert_cmpfloat (O, ==, 1e9);
  /* requested 0.9 × C; the KV cache gets what weights, activations and overhead leave, in
   * blocks of 16 tokens × 131,072 bytes */
  blocks = floor ((0.9 * C - W - A - O) / (16 * KV_PER_TOKEN));
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, blocks * 16);
  g_assert_cmpfloat (kv.max_concurrency, ==, blocks * 16 / 8192);
  g_assert_cmpfloat (kv.tokens, >, 400000);
  g_assert_cmpfloat (kv.tokens, <, 500000);

  /* a lower utilization leaves fewer blocks; bigger blocks round down further */
  g_object_set (e, "memory-fraction", 0.5, "block-size", 32, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.5 * C - W - A - O) / (32 * KV_PER_TOKEN)) * 32);

  /* two GPUs with tensor parallelism: 4 KV heads each, half the weights and activations */
  g_object_set (e, "memory-fraction", 0.9, "block-size", 16, "seq", 131072, "concurrency", 4, NULL);
  {
    guint i = gpu_index (e, "l40s");
    const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, i);
    double n = fit->count;

    sc = vc_estimate_get_selected (e);
    g_assert_cmpfloat (n, >=, 2);
    capacity_on (e, "l40s", &kv);
    g_assert_cmpfloat (kv.tokens, ==,
                       floor ((0.9 * fit->capacity_bytes - sc->bytes[VC_COMPONENT_WEIGHTS] / n -
                               sc->bytes[VC_COMPONENT_ACTIVATIONS] / n - O) /
                              (16 * KV_PER_TOKEN * MAX (1.0, floor (8 / n)) / 8)) * 16);
  }
}

static void
test_vllm_reserves (void)
{
  g_autoptr(VcEstimate) generic = llama3 (VC_ENGINE_GENERIC, 53248);
  g_autoptr(VcEstimate) vllm = llama3 (VC_ENGINE_VLLM, 53248);
  guint i = gpu_index (generic, "rtx-4090");
  double total = vc_estimate_get_selected (generic)->total;
  double C = 24564 * 1048576.0;

  /* the same estimate; a 24 GB card holds it whole, but not within vLLM's 0.9 of it */
  g_assert_cmpfloat (vc_estimate_get_selected (vllm)->total, ==, total);
  g_assert_cmpfloat (total, <=, C);
  g_assert_cmpfloat (total, >, 0.9 * C);
  g_assert_true (vc_estimate_get_gpu_fit (generic, i)->fits);
  g_assert_false (vc_estimate_get_gpu_fit (vllm, i)->fits);
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (vllm, i)->capacity_bytes, ==, C);
}

static void
test_sglang (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_SGLANG, 8192);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  double C = 81559 * 1048576.0;
  double W = sc->bytes[VC_COMPONENT_WEIGHTS], O = sc->bytes[VC_COMPONENT_OVERHEAD];
  VcKvCapacity kv;

  /* rest = (total − weights) − total × (1 − 0.85), total = C − the CUDA context; cells of
   * 131,072 bytes; pages of 1 token */
  g_object_set (e, "memory-fraction", 0.85, "block-size", 1, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.85 * (C - O) - W) / KV_PER_TOKEN));
  g_assert_cmpfloat (kv.max_concurrency, ==, kv.tokens / 8192);
}

static void
test_llama_cpp_and_others (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_LLAMA_CPP, 1000);
  VcKvCapacity kv;

  /* each slot's context is padded to 256 cells: 1000 tokens take 1024, for 3 slots */
  g_object_set (e, "concurrency", 3, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==, 3 * 1024 * KV_PER_TOKEN);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
  g_object_set (e, "engine", VC_ENGINE_GENERIC, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==, 3 * 1000 * KV_PER_TOKEN);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);

  /* Transformers: one layer's keys and values copied beside the cache as generate() appends
   * (32 layers), on top of the generic activations */
  {
    g_autoptr(VcEstimate) generic = llama3 (VC_ENGINE_GENERIC, 4096);
    g_autoptr(VcEstimate) hf = llama3 (VC_ENGINE_TRANSFORMERS, 4096);
    const VcScenarioResult *g = vc_estimate_get_selected (generic);
    const VcScenarioResult *t = vc_estimate_get_selected (hf);
    g_autofree char *text = vc_formula_describe (hf, vc_estimate_get_result (hf)->selected,
                                                            VC_COMPONENT_ACTIVATIONS, VC_UNIT_GB);

    g_assert_cmpfloat (t->bytes[VC_COMPONENT_KV_CACHE], ==, 4096 * KV_PER_TOKEN);
    g_assert_cmpfloat (t->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                       g->bytes[VC_COMPONENT_ACTIVATIONS] + 4096 * KV_PER_TOKEN / 32);
    g_assert_nonnull (strstr (text, "Transformers"));
  }
  {
    g_autofree char *text = NULL;

    g_object_set (e, "engine", VC_ENGINE_LLAMA_CPP, NULL);
    text = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_KV_CACHE, VC_UNIT_GB);
    g_assert_nonnull (strstr (text, "padded to 256"));
  }

  /* the rule of thumb has no KV bytes per token: no capacity */
  g_object_set (e, "engine", VC_ENGINE_VLLM, "method", VC_METHOD_RULE_OF_THUMB, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
}

/* llama.cpp's context as llama_context's constructor sizes it (src/llama-context.cpp), worked
 * by hand for Llama 3 8B (32 heads, 4096 hidden, 14336 MLP, 128256 vocabulary) */
static void
test_llama_cpp_context (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_LLAMA_CPP, 1000);
  g_autoptr(GError) error = NULL;
  const VcInputs *in = vc_estimate_get_inputs (e);
  VcLlamaCpp l;

  /* 4 sequences of 1000: -c 4000 padded to 4096, 1024 cells a stream; -b 2048, -ub 512 */
  g_object_set (e, "concurrency", 4, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_ctx, ==, 4096);
  g_assert_cmpfloat (l.n_ctx_seq, ==, 1024);
  g_assert_cmpfloat (l.n_stream, ==, 4);
  g_assert_cmpfloat (l.n_batch, ==, 2048);
  g_assert_cmpfloat (l.n_ubatch, ==, 512);
  /* the logits of one token a sequence, in host memory */
  g_assert_cmpfloat (l.output_bytes, ==, 4.0 * 128256 * 4);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==, 4096 * KV_PER_TOKEN);
  /* flash attention: the f32 logits of 512 tokens and two hidden states outweigh the
   * feed-forward block (f16 masks over 1024 cells, 4h + 3 × 14336) */
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     4.0 * 512 * (128256 + 2 * 4096));
  /* without it: each stream's 128 tokens against its 1024 cells, 32 heads, f32 scores and mask,
   * beside 3h + 2 q + 2 kv (1024 each), 115 MB: still under the logits */
  g_object_set (e, "flash-attention", FALSE, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     4.0 * 512 * (128256 + 2 * 4096));
  /* unified: one stream of 4096 cells, the scores of every token span all of them */
  g_object_set (e, "kv-unified", TRUE, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_stream, ==, 1);
  g_assert_cmpfloat (l.n_ctx_seq, ==, 4096);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==, 4096 * KV_PER_TOKEN);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     4.0 * 512 * 4096 * 33 + 4.0 * 512 * (3 * 4096 + 2 * 4096 + 2 * 1024));
  g_object_set (e, "kv-unified", FALSE, "flash-attention", TRUE, NULL);

  /* a sliding window of 1024 on 24 of the layers: each of the 4 streams keeps
   * pad256(min(1024, 1024 + 512)) = 1024 cells; unified, one of pad256(min(4096, 4 × 1024 +
   * 512)) = 4096 */
  g_object_set (e, "seq", 4096, "sliding-window", 1024, "sliding-window-layers", 24, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==,
                     KV_PER_TOKEN / 32 * (8 * 16384 + 24 * 4 * 1536));
  g_object_set (e, "kv-unified", TRUE, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==,
                     KV_PER_TOKEN / 32 * (8 * 16384 + 24 * 4608));
  g_object_set (e, "kv-unified", FALSE, "sliding-window", 0, "sliding-window-layers", 0, NULL);

  /* cache types: q8_0 keys (34 bytes for 32 values), f16 values */
  g_object_set (e, "cache-type-k", VC_CACHE_TYPE_Q8_0, "cache-type-v", VC_CACHE_TYPE_F16, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==,
                     16384 * KV_PER_TOKEN / 2 * (34.0 / 32 + 2) / 2);
  g_assert_true (vc_estimate_check (e, &error));
  /* a quantized V cache without flash attention is refused, as llama.cpp refuses it */
  g_object_set (e, "cache-type-v", VC_CACHE_TYPE_Q4_0, "flash-attention", FALSE, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  g_assert_nonnull (strstr (error->message, "quantized V cache without flash attention"));
  g_clear_error (&error);
  g_object_set (e, "cache-type-v", VC_CACHE_TYPE_AUTO, "kv-precision", VC_PRECISION_INT8, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_clear_error (&error);
  /* no fp8 cache in llama.cpp */
  g_object_set (e, "flash-attention", TRUE, "cache-type-k", VC_CACHE_TYPE_AUTO, "kv-precision", VC_PRECISION_FP8, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_nonnull (strstr (error->message, "no fp8 KV cache"));
  g_clear_error (&error);
  g_object_set (e, "kv-precision", VC_PRECISION_BF16, NULL);

  /* llama.cpp's LLAMA_MAX_SEQ: 256 sequences at most */
  g_object_set (e, "concurrency", 257, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_nonnull (strstr (error->message, "at most 256 sequences"));
  g_clear_error (&error);
  g_object_set (e, "concurrency", 256, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  g_object_set (e, "concurrency", 4, NULL);

  /* -ub and -b: the micro-batch is at most the logical batch and the context asked for */
  g_object_set (e, "n-ubatch", 4096, "n-batch", 1024, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_ubatch, ==, 1024);
  g_object_set (e, "seq", 300, "concurrency", 1, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_ubatch, ==, 300);
  g_assert_cmpfloat (l.n_ctx, ==, 512);
}

/* Ollama: llama-server with -c num_ctx × num_parallel and -b = -ub by the context of all slots
 * (server/sched.go generationBatchForContext) */
static void
test_ollama (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_OLLAMA, 4096);
  const VcInputs *in = vc_estimate_get_inputs (e);
  VcLlamaCpp l;

  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_ubatch, ==, 512);
  g_assert_cmpfloat (l.n_batch, ==, 512);
  g_object_set (e, "seq", 8192, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_ubatch, ==, 1024);
  g_assert_cmpfloat (l.n_batch, ==, 1024);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     4.0 * 1024 * (128256 + 2 * 4096));
  g_object_set (e, "seq", 16384, "concurrency", 4, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_ubatch, ==, 2048);
  /* flash attention off: 512; num_batch given: that */
  g_object_set (e, "flash-attention", FALSE, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_ubatch, ==, 512);
  g_object_set (e, "n-ubatch", 256, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_ubatch, ==, 256);
  g_assert_cmpfloat (l.n_batch, ==, 256);
  /* the same cache as llama.cpp's, one stream a sequence */
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==, 4 * 16384 * KV_PER_TOKEN);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/vllm", test_vllm);
  g_test_add_func ("/engine/vllm-reserves", test_vllm_reserves);
  g_test_add_func ("/engine/sglang", test_sglang);
  g_test_add_func ("/engine/llama.cpp-and-others", test_llama_cpp_and_others);
  g_test_add_func ("/engine/llama.cpp-context", test_llama_cpp_context);
  g_test_add_func ("/engine/ollama", test_ollama);
  return g_test_run ();
}
