/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Engine profiles (FORMULAS.md, "Engines") on hand-worked examples from each engine's own
 * arithmetic: Llama 3 8B keeps 32 layers × 8 KV heads × 128 × 2 (K and V) × 2 bytes =
 * 131,072 bytes of KV cache a token at bf16. */
#include "config.h"

#include <math.h>

#include "vc-engine.h"
#include "vc-engine-comm.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-formula.h"
#include "vc-layout.h"
#include "vc-llama-graph.h"
#include "vc-plan.h"
#include "vc-estimator.h"
#include "vc-solver.h"
#include "vc-test-util.h"

#define KV_PER_TOKEN 131072.0
#define GIB 1073741824.0

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
  guint i = vc_test_gpu_index (e, id);
  const VcResult *r = vc_estimate_get_result (e);
  const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, i);

  vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected],
                            vc_estimate_get_gpu (e, i), fit->count, kv);
}

/* vLLM's profile run with Llama 3 8B (vocabulary 128,256, hidden 4,096): the sampler's
 * 38 bytes a logit for `seqs` requests and the hidden states of `tokens` tokens outweigh the
 * forward pass; the 133 MiB outside PyTorch vLLM logs on one GPU come on top */
static double
llama3_profile (double tokens,
                double seqs)
{
  return seqs * 128256 * 38.0 + tokens * 4096 * 2.0 + 133.0 * 1048576;
}

static void
test_vllm (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_VLLM, 8192);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  double C = 81121 * 1048576.0;    /* H100 80 GB as CUDA reports it (torch's total) */
  double W = sc->bytes[VC_COMPONENT_WEIGHTS], A = sc->bytes[VC_COMPONENT_ACTIVATIONS];
  double blocks;
  VcKvCapacity kv;

  g_assert_cmpfloat (vc_estimate_get_result (e)->kv_bytes_per_token, ==, KV_PER_TOKEN);
  /* the weights and vLLM's RoPE table on each GPU: 8,192 positions × 128 rotary dimensions in
   * bf16 (Llama 3 8B: max_position_embeddings 8192, no rope scaling) */
  g_assert_cmpfloat (sc->rope_table, ==, 8192 * 128 * 2.0);
  g_assert_cmpfloat (W, ==, 8030261248.0 * 2 + 8192 * 128 * 2.0);
  /* vLLM's defaults on a card of 70 GiB or more: 8192 batched tokens, 1024 sequences */
  g_assert_cmpfloat (A, ==, llama3_profile (8192, 1024));
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->capacity_bytes, ==, C);
  /* requested 0.9 × C; the KV cache gets what the weights and the profile run's peak leave
   * (the CUDA context is in the snapshot vLLM takes before), in blocks of 16 tokens ×
   * 131,072 bytes */
  blocks = floor ((0.9 * C - W - A) / (16 * KV_PER_TOKEN));
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, blocks * 16);
  g_assert_cmpfloat (kv.max_concurrency, ==, blocks * 16 / 8192);
  g_assert_cmpfloat (kv.tokens, >, 400000);
  g_assert_cmpfloat (kv.tokens, <, 500000);

  /* the fit agrees with the cache: as many requests of 8192 tokens as it holds fit on one
   * H100 (the CUDA context beside the request), one more does not */
  {
    double c = floor (kv.tokens / 8192);

    g_object_set (e, "concurrency", (guint) c, NULL);
    g_assert_true (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->fits);
    g_object_set (e, "concurrency", (guint) c + 1, NULL);
    g_assert_false (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->fits);
    g_object_set (e, "concurrency", 1, NULL);
  }

  /* an A100 80 GB, whatever its size, gets vLLM's smaller defaults: 2048 tokens, 256
   * sequences; of CUDA's total, 81,050 MiB (vLLM's log, the catalog's source) */
  capacity_on (e, "a100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==,
                     floor ((0.9 * 81050 * 1048576.0 - W - llama3_profile (2048, 256)) / (16 * KV_PER_TOKEN)) * 16);

  /* the profile run's batch as given: max_num_seqs is at most max_num_batched_tokens */
  g_object_set (e, "max-num-batched-tokens", 512, "max-num-seqs", 4096, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==, llama3_profile (512, 512));
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.9 * C - W - llama3_profile (512, 512)) / (16 * KV_PER_TOKEN)) * 16);
  g_object_set (e, "max-num-batched-tokens", 0, "max-num-seqs", 0, NULL);

  /* --kv-cache-memory: the cache vLLM is given, whatever the utilization */
  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor (20e9 / (16 * KV_PER_TOKEN)) * 16);
  g_object_set (e, "kv-cache-memory", 0.0, NULL);

  /* a lower utilization leaves fewer blocks; bigger blocks round down further */
  g_object_set (e, "memory-fraction", 0.5, "block-size", 32, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.5 * C - W - A) / (32 * KV_PER_TOKEN)) * 32);

}

/* vLLM gives a request whole blocks, cdiv(seq, block) of them (vllm/v1/kv_cache_interface.py,
 * FullAttentionSpec.max_memory_usage_bytes: cdiv(max_model_len, block_size) pages), and logs
 * "Maximum concurrency" as its blocks over those (vllm/v1/core/kv_cache_utils.py at commit
 * 001cabc, get_max_concurrency_for_kv_cache_config). Llama 3 8B at 4,017 tokens on an H100:
 * 26,366 blocks of 16 tokens (as in test_vllm(), the profile run does not follow the sequence),
 * 252 a request: 104.6 requests, not the 105.0 that 421,856 tokens / 4,017 make, so 104 fit. */
static void
test_vllm_whole_blocks (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_VLLM, 4017);
  g_autoptr(VcEstimate) mla = vc_test_estimate_new ("deepseek-v2-lite", "engine", "vllm", "seq", "65", NULL);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  guint h100 = vc_test_gpu_index (e, "h100-80gb");
  const VcGpu *gpu = vc_estimate_get_gpu (e, h100);
  double C = 81121 * 1048576.0;
  double blocks = floor ((0.9 * C - sc->bytes[VC_COMPONENT_WEIGHTS] - sc->bytes[VC_COMPONENT_ACTIVATIONS]) /
                         (16 * KV_PER_TOKEN));
  VcEngineAtLayout at;
  VcKvCapacity kv;
  VcSolution sol;

  g_assert_cmpfloat (blocks, ==, 26366);
  /* the estimate's cache: the request's 252 blocks, 4,032 tokens */
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, 4032 * KV_PER_TOKEN);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, blocks * 16);
  g_assert_cmpfloat (kv.max_concurrency, ==, blocks / 252);
  /* the engine's figures at the layout (--fit-gpu) count the same */
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e), gpu, 1, &at);
  g_assert_cmpfloat (at.tokens, ==, blocks * 16);
  g_assert_cmpfloat (at.max_concurrency, ==, blocks / 252);
  /* the fit and the solver: 104 requests, not 105; one request up to 263 blocks at 100 */
  g_object_set (e, "concurrency", 104, NULL);
  g_assert_true (vc_estimate_get_gpu_fit (e, h100)->fits);
  g_object_set (e, "concurrency", 105, NULL);
  g_assert_false (vc_estimate_get_gpu_fit (e, h100)->fits);
  vc_solver_solve_memo (NULL, gpu, vc_estimate_get_inputs (e), VC_SOLVE_VARIABLE_CONCURRENCY, C, 1, &sol);
  g_assert_cmpuint (sol.value, ==, 104);
  g_object_set (e, "concurrency", 100, NULL);
  vc_solver_solve_memo (NULL, gpu, vc_estimate_get_inputs (e), VC_SOLVE_VARIABLE_SEQ, C, 1, &sol);
  g_assert_cmpuint (sol.value, ==, 263 * 16);

  /* an MLA model on Hopper: FlashMLA's blocks of 64 tokens, two a request of 65 tokens;
   * 1,316,992 tokens are 20,578 blocks, 10,289 requests (not 20,261.4) */
  gpu = vc_estimate_get_gpu (mla, vc_test_gpu_index (mla, "h100-80gb"));
  vc_engine_at_layout (vc_estimate_get_inputs (mla), vc_estimate_get_layout_result (mla), gpu, 1, &at);
  g_assert_cmpfloat (at.tokens, ==, 1316992);
  g_assert_cmpfloat (at.max_concurrency, ==, 20578.0 / 2);
  /* the estimate without a card: blocks of 16, 80 tokens of 27 × 576 × 2 bytes; the card's
   * row and its solver count the H100's blocks of 64: 10,289 requests */
  g_assert_cmpfloat (vc_estimate_get_selected (mla)->bytes[VC_COMPONENT_KV_CACHE], ==, 80 * 27 * 576 * 2.0);
  vc_solver_solve_memo (NULL, gpu, vc_estimate_get_inputs (mla), VC_SOLVE_VARIABLE_CONCURRENCY,
                        vc_engine_gpu_capacity (vc_estimate_get_inputs (mla), gpu), 1, &sol);
  g_assert_cmpuint (sol.value, ==, 10289);
  /* a plan on two H100s at TP 2: 1,820,800 tokens, 28,450 blocks of 64, 14,225 requests */
  {
    g_autoptr(VcEstimate) set = vc_test_estimate_new ("deepseek-v2-lite", "engine", "vllm", "seq", "65",
                                                      "gpu-set", "h100-80gb:2", "concurrency", "14225", NULL);
    VcPlan plan;

    g_assert_true (vc_estimate_compute_plan (set, &plan, NULL));
    g_assert_cmpfloat (plan.kv_tokens, ==, 28450 * 64);
    g_assert_true (plan.fits);
    vc_plan_clear (&plan);
    g_object_set (set, "concurrency", 14226, NULL);
    g_assert_true (vc_estimate_compute_plan (set, &plan, NULL));
    g_assert_false (plan.fits);
    vc_plan_clear (&plan);
  }

  /* SGLang's paged allocator gives a request whole pages too (python/sglang/srt/mem_cache/
   * allocator.py, alloc_extend: get_num_new_pages): with --page-size 16 its pool on the H100,
   * 412,953.7 tokens' room in 25,809 pages, holds 25,809 / 252 requests, not 412,944 / 4,017 */
  g_object_set (e, "engine", VC_ENGINE_SGLANG, "page-size", 16, "concurrency", 1, NULL);
  sc = vc_estimate_get_selected (e);
  gpu = vc_estimate_get_gpu (e, h100);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_KV_CACHE], ==, 4032 * KV_PER_TOKEN);
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e), gpu, 1, &at);
  g_assert_cmpfloat (at.tokens, ==, 25809 * 16);
  g_assert_cmpfloat (at.max_concurrency, ==, 25809.0 / 252);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.max_concurrency, ==, at.max_concurrency);
}

/* vLLM with --kv-cache-memory allocates that cache on every GPU, whatever the requests hold of
 * it, and refuses a max_model_len beyond it (vllm/v1/core/kv_cache_utils.py,
 * check_enough_kv_cache_memory): Llama 3 8B with 1 GB, ⌊10⁹ / (16 × 131,072)⌋ = 476 blocks,
 * 7,616 tokens on one GPU. A request of 8,192 tokens (512 blocks) needs two GPUs, each holding
 * half its KV heads: TP 2, each GPU its weights' half, the profile run, the overhead and the 1 GB
 * cache (not the 0.54 GB its share of the request takes). On one H100 the longest sequence is the
 * cache's 7,616 tokens, and requests of 2,048 tokens (128 blocks) are 3 at once, of 4,096 one. */
static void
test_vllm_given_cache (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_VLLM, 8192);
  guint h100 = vc_test_gpu_index (e, "h100-80gb");
  const VcGpu *gpu = vc_estimate_get_gpu (e, h100);
  double C = vc_engine_gpu_capacity (vc_estimate_get_inputs (e), gpu);
  const VcGpuFit *fit;
  VcLayoutResult lr;
  VcInputs two;
  VcSolution sol;

  g_object_set (e, "kv-cache-memory", 1.0, NULL);
  fit = vc_estimate_get_gpu_fit (e, h100);
  g_assert_false (fit->fits);
  g_assert_cmpfloat (fit->count, ==, 2);
  g_assert_cmpuint (fit->layout.tp, ==, 2);
  two = *vc_estimate_get_inputs (e);
  two.layout.tp = 2;
  g_assert_true (vc_layout_compute (&two, vc_estimate_get_result (e), vc_estimate_get_result (e)->selected, &lr, NULL));
  g_assert_cmpfloat (lr.bytes[VC_COMPONENT_KV_CACHE], ==, 8192 * KV_PER_TOKEN / 2);
  g_assert_cmpfloat (fit->per_gpu_bytes, ==, lr.total - lr.bytes[VC_COMPONENT_KV_CACHE] + 1e9);
  vc_solver_solve_memo (NULL, gpu, vc_estimate_get_inputs (e), VC_SOLVE_VARIABLE_SEQ, C, 1, &sol);
  g_assert_cmpuint (sol.value, ==, 476 * 16);
  g_object_set (e, "seq", 2048, NULL);
  vc_solver_solve_memo (NULL, gpu, vc_estimate_get_inputs (e), VC_SOLVE_VARIABLE_CONCURRENCY, C, 1, &sol);
  g_assert_cmpuint (sol.value, ==, 3);
  g_object_set (e, "seq", 4096, NULL);
  vc_solver_solve_memo (NULL, gpu, vc_estimate_get_inputs (e), VC_SOLVE_VARIABLE_CONCURRENCY, C, 1, &sol);
  g_assert_cmpuint (sol.value, ==, 1);
  /* one request fits the cache: one H100 holds it */
  g_assert_true (vc_estimate_get_gpu_fit (e, h100)->fits);

  /* over pipeline stages every GPU holds the cache given: the busiest is the stage with the most
   * weights and activations, whatever its share of the requests. OLMo 2 7B, 10 GB, 4 requests:
   * three RTX 4080s a stage each hold the same at 2,011 tokens as at 8,044 (the first stage's
   * weights, its profile run, the overhead and 10 GB), and that is more than a V100 16 GB has,
   * which takes TP 4 at both */
  {
    g_autoptr(VcEstimate) olmo = vc_test_estimate_new ("olmo-2-1124-7b", "engine", "vllm", "seq", "2011",
                                                       "concurrency", "4", "kv-cache-memory", "10", NULL);
    guint rtx = vc_test_gpu_index (olmo, "rtx-4080-16gb"), v100 = vc_test_gpu_index (olmo, "v100-16gb");
    double held = vc_estimate_get_gpu_fit (olmo, rtx)->per_gpu_bytes;

    g_assert_cmpuint (vc_estimate_get_gpu_fit (olmo, rtx)->layout.pp, ==, 3);
    g_assert_cmpfloat (vc_estimate_get_gpu_fit (olmo, v100)->count, ==, 4);
    g_assert_cmpfloat (held, >, vc_estimate_get_gpu (olmo, v100)->capacity_bytes);
    g_object_set (olmo, "seq", 8044, NULL);
    g_assert_cmpuint (vc_estimate_get_gpu_fit (olmo, rtx)->layout.pp, ==, 3);
    g_assert_cmpfloat (vc_estimate_get_gpu_fit (olmo, rtx)->per_gpu_bytes, ==, held);
    g_assert_cmpfloat (vc_estimate_get_gpu_fit (olmo, v100)->count, ==, 4);
  }
}

/* Over a small matrix of models (dense GQA, MoE, MLA), engines (vLLM, SGLang with pages of 16)
 * and sequences (whole blocks or not): on every card that holds the model alone, the table's
 * answers agree with the engine's cache, as it counts whole blocks (test_vllm_whole_blocks()):
 * the most requests its row gives are whole requests of its cache, the longest sequence fits
 * in it, and the figures at the layout are those of the card's capacity. */
static void
test_paged_rows_agree (void)
{
  static const char *presets[] = { "llama-3-8b", "qwen3-30b-a3b", "deepseek-v2-lite" };
  static const char *seqs[] = { "65", "2011", "4096" };
  static const char *cards[] = { "l4", "a100-80gb", "h100-80gb", "rtx-4090" };
  guint checked = 0;

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    for (guint k = 0; k < 2 * G_N_ELEMENTS (seqs); k++)
      {
        g_autoptr(VcEstimate) e = vc_test_estimate_new (presets[p], "engine", k % 2 ? "sglang" : "vllm",
                                                        "seq", seqs[k / 2], NULL);

        if (k % 2)
          g_object_set (e, "page-size", 16, NULL);
        for (guint c = 0; c < G_N_ELEMENTS (cards); c++)
          {
            guint g = vc_test_gpu_index (e, cards[c]);
            const VcGpu *gpu = vc_estimate_get_gpu (e, g);
            const VcSolution *most = vc_estimate_get_row_solution (e, g, VC_SOLVE_VARIABLE_CONCURRENCY);
            const VcSolution *longest = vc_estimate_get_row_solution (e, g, VC_SOLVE_VARIABLE_SEQ);
            VcEngineAtLayout at;
            VcKvCapacity kv;

            if (vc_estimate_get_gpu_fit (e, g)->count != 1)
              continue;
            capacity_on (e, cards[c], &kv);
            g_assert_true (kv.known);
            vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e), gpu, 1, &at);
            g_assert_cmpfloat (at.tokens, ==, kv.tokens);
            g_assert_cmpfloat (at.max_concurrency, ==, kv.max_concurrency);
            g_assert_true (most->found);
            g_assert_cmpfloat (most->value, <=, floor (kv.max_concurrency));
            g_assert_true (longest->found);
            g_assert_cmpfloat (longest->value, <=, kv.tokens);
            checked++;
          }
      }
  g_test_message ("%u cells", checked);
  /* most cells hold the model on one card */
  g_assert_cmpuint (checked, >=, 40);
}

/* GPUs with tensor parallelism and pipeline stages: Llama 3 8B at 131,072 tokens × 4 */
static void
test_vllm_layouts (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_VLLM, 8192);
  double C = 81121 * 1048576.0;    /* H100 80 GB as CUDA reports it (torch's total) */
  VcKvCapacity kv;

  /* GPUs with tensor parallelism: a_kv / n KV heads each, the forward pass split, the
   * sampler's logits of the whole vocabulary on every GPU; each GPU's weights are the layout's
   * at TP n: every tensor split but the 65 norms of 4,096 (two a layer and the final one),
   * replicated, and the RoPE table whole. Two H100s at 131,072 tokens × 4 */
  g_object_set (e, "memory-fraction", 0.9, "block-size", 16, "seq", 131072, "concurrency", 4, NULL);
  {
    guint i = vc_test_gpu_index (e, "h100-80gb");
    const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, i);
    double n = fit->count;
    double peak, rank_weights = ((8030261248.0 - 65 * 4096) / 2 + 65 * 4096) * 2 + 8192 * 128 * 2.0;

    g_assert_cmpfloat (n, ==, 2);
    g_assert_cmpuint (fit->layout.tp, ==, 2);
    peak = vc_estimator_vllm_profile_bytes (vc_estimate_get_inputs (e), 8192, 1024, n);
    g_assert_cmpfloat (peak, ==, llama3_profile (8192, 1024));
    capacity_on (e, "h100-80gb", &kv);
    g_assert_true (kv.known);
    g_assert_cmpfloat (kv.weights_bytes, ==, rank_weights);
    g_assert_cmpfloat (kv.tokens, ==, floor ((0.9 * C - rank_weights - peak) / (16 * KV_PER_TOKEN / 2)) * 16);
  }
  /* an L40S (48 GB, vLLM's smaller defaults) needs three, as three pipeline stages: vLLM refuses
   * TP 3 (32 heads), so there is no figure at TP 3; the row's is the engine's at PP 3, the
   * fewest blocks over the stages (11, 11 and 10 layers): the first's, whose embedding and one
   * layer more leave fewer than the last stage's, the busiest by bytes (its head and the
   * sampler's logits); the plan over three L40S the same */
  {
    guint i = vc_test_gpu_index (e, "l40s");
    const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, i);
    const VcResult *r = vc_estimate_get_result (e);
    VcInputs at = *vc_estimate_get_inputs (e);
    VcLayoutResult lr;
    VcEngineAtLayout at_layout;

    g_assert_cmpfloat (fit->count, ==, 3);
    g_assert_cmpuint (fit->layout.tp, ==, 1);
    g_assert_cmpuint (fit->layout.pp, ==, 3);
    capacity_on (e, "l40s", &kv);
    g_assert_false (kv.known);
    vc_engine_kv_capacity_fit (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected], vc_estimate_get_gpu (e, i),
                               fit, &kv);
    at.layout = fit->layout;
    g_assert_true (vc_layout_compute (&at, r, r->selected, &lr, NULL));
    vc_engine_at_layout (&at, &lr, vc_estimate_get_gpu (e, i), 0, &at_layout);
    g_assert_true (kv.known);
    g_assert_true (at_layout.known);
    g_assert_cmpuint (lr.busiest_stage, ==, 2);
    g_assert_cmpfloat (at_layout.tokens, ==, 881056);
    g_assert_cmpfloat (kv.tokens, ==, vc_engine_vllm_stages_tokens (&at, r, r->selected, vc_estimate_get_gpu (e, i)));
    g_assert_cmpfloat (kv.tokens, ==, 791280);
    g_assert_cmpfloat (kv.weights_bytes, ==, lr.bytes[VC_COMPONENT_WEIGHTS]);
    {
      g_autoptr(VcEstimate) set = llama3 (VC_ENGINE_VLLM, 131072);
      g_autoptr(GError) error = NULL;
      VcPlan plan;

      g_object_set (set, "memory-fraction", 0.9, "block-size", 16, "concurrency", 4, "pp", 3, "gpu-set", "l40s:3", NULL);
      g_assert_true (vc_estimate_compute_plan (set, &plan, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (plan.kv_tokens, ==, 791280);
      g_assert_cmpint (plan.bounded_by, ==, 0);
      vc_plan_clear (&plan);
    }
  }
}

/* vLLM's hybrid allocator: 8 full and 24 sliding-window layers make groups of 8 layers (1 full,
 * 3 sliding), pages of 16 tokens × 4,096 bytes (one layer's share of a token) shared by one
 * layer of each group; state-space layers raise the block (tests/test-engine-state.c) */
static void
test_vllm_hybrid (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_VLLM, 8192);
  double C = 81121 * 1048576.0;
  double W, A, blocks;
  VcKvCapacity kv;

  g_object_set (e, "sliding-window", 4096, "sliding-window-layers", 24, NULL);
  W = vc_estimate_get_selected (e)->bytes[VC_COMPONENT_WEIGHTS];
  A = vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS];
  g_assert_cmpfloat (A, ==, llama3_profile (8192, 1024));
  blocks = floor (floor ((0.9 * C - W - A) / (16 * 4096.0)) / 8);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor (blocks / 4) * 16);
  /* a request of 8192 tokens: 512 blocks in the full group, min(4095 + 8192, 8192) tokens in
   * 512 blocks + 1 in each sliding group */
  g_assert_cmpfloat (kv.max_concurrency, ==, blocks / (512 + 3 * 513));

  /* 16 and 16: groups of 16, one of each */
  g_object_set (e, "sliding-window-layers", 16, NULL);
  blocks = floor (floor ((0.9 * C - W - A) / (16 * 4096.0)) / 16);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor (blocks / 2) * 16);

  /* SGLang sizes its own hybrid SWA pool (test_sglang) */
  g_object_set (e, "engine", VC_ENGINE_SGLANG, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_object_set (e, "engine", VC_ENGINE_VLLM, "sliding-window", 0, "sliding-window-layers", 0,
                "recurrent-layers", 8, "recurrent-state", 100000, NULL);
  /* 24 attention layers of 4,096 bytes a token and 8 state layers of 100,000 values at 2 bytes:
   * the attention block is raised to 16 × cdiv(200,000, 16 × 4,096) = 64 tokens, a page of
   * 262,144 bytes; groups of 8 layers, 3 of attention and 1 of state; a request of 8192 tokens
   * takes 3 × 128 pages and 1 */
  W = vc_estimate_get_selected (e)->bytes[VC_COMPONENT_WEIGHTS];
  A = vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS];
  blocks = floor (floor ((0.9 * C - W - A) / 262144.0) / 8);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor (blocks / 4) * 64);
  g_assert_cmpfloat (kv.max_concurrency, ==, blocks / (3 * 128 + 1));
  /* SGLang's Mamba pool is not followed */
  g_object_set (e, "engine", VC_ENGINE_SGLANG, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
}

/* vLLM's releases (FORMULAS.md, "vLLM's releases"): 0.11 by default; 0.21 subtracts the CUDA
 * graphs it measures, so only --enforce-eager (none) is sized; 0.10 takes NCCL's buffers from
 * the cache, so only one GPU a model is sized */
/* vLLM 0.14 and later keep the 16-bit MoE experts' workspace (TritonExperts' shapes from the
 * workspace manager) through the profile run's sampler: Qwen3-30B-A3B (8 experts of 768 a
 * token, hidden 2,048) and Llama 4 Scout's shape (1 of 8,192, hidden 5,120) at 8,192 tokens */
static void
test_vllm_moe_workspace (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  VcInputs in;
  double before, after;
  g_autofree char *explain = NULL;

  g_assert_true (vc_estimate_set_preset (e, "qwen3-30b-a3b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "seq", 8192, NULL);
  in = *vc_estimate_get_inputs (e);
  g_assert_cmpint (in.vllm_version, ==, VC_VLLM_VERSION_0_11);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 0);
  before = vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1);
  in.vllm_version = VC_VLLM_VERSION_0_14;
  /* workspace13 (8,192 x 8 x 2,048, the output inside it) and workspace2 (8,192 x 8 x 2,048) */
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 536870912);
  after = vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1);
  g_assert_cmpfloat (after - before, ==, 536870912);
  in.vllm_version = VC_VLLM_VERSION_0_17;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 536870912);
  /* the hidden size is the wider: TP 4 changes nothing, nor does a chunk of 32,768 tokens */
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 4), ==, 536870912);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 65536, 1), ==,
                     2.0 * 32768 * 8 * 2048 * 2);
  /* other experts' kernels are not TritonExperts': quantized ones, and a GGUF's in any type */
  in.precision = VC_PRECISION_FP8;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 0);
  in.precision = VC_PRECISION_BF16;
  in.llama_cpp = TRUE;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 0);
  in.llama_cpp = FALSE;

  /* an expert wider than the hidden size: w1's 2 x 8,192 columns, then 2 x 2,048 at TP 4 */
  in.arch.n_experts = 16;
  in.arch.experts_per_token = 1;
  in.arch.expert_intermediate_size = 8192;
  in.arch.hidden_size = 5120;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==,
                     8192.0 * 8192 * 2 + 8192.0 * 16384 * 2);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 4), ==,
                     8192.0 * 5120 * 2 + 8192.0 * 5120 * 2);
  /* under expert parallelism each rank holds whole experts */
  in.layout.ep = 4;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 4), ==,
                     8192.0 * 8192 * 2 + 8192.0 * 16384 * 2);

  /* the formula says so */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_17, NULL);
  explain = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_ACTIVATIONS, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "the MoE experts’ workspace (537\u00a0MB), still held at the sampler"));
}

/* vLLM 0.17's Triton top-k/top-p kernel keeps min(next_power_of_2(min(SMs, requests)), SMs)
 * rows of the vocabulary in fp32 (topk_topp_triton.py): Qwen3-14B (151,936 tokens) at 1,024
 * requests on an H100 (132 SMs), fewer requests than SMs, a card without a count, and the
 * releases and samplers that do not take the kernel */
static void
test_vllm_triton_buffer (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const double row = 151936 * 4.0;
  struct { guint seqs; double rows; } cases[] = {
    { 1024, 132 }, { 132, 132 }, { 130, 132 }, { 100, 128 }, { 64, 64 }, { 9, 16 }, { 8, 8 },
  };
  VcInputs in;
  double bytes, bound, off_card, tokens_h100, tokens_a100;
  VcKvCapacity kv;
  g_autofree char *explain = NULL;

  g_assert_true (vc_estimate_set_preset (e, "qwen3-14b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "seq", 8192,
                "engine-version", VC_VLLM_VERSION_0_17, NULL);
  g_assert_cmpuint (vc_gpus_lookup ("h100-80gb")->sm_count, ==, 132);
  g_assert_cmpuint (vc_gpus_lookup ("a100-80gb")->sm_count, ==, 108);
  vc_engine_on_card (vc_estimate_get_inputs (e), vc_gpus_lookup ("h100-80gb"), &in);
  g_assert_cmpuint (in.gpu_sm_count, ==, 132);
  g_assert_true (vc_estimator_vllm_triton_buffer (&in, 1024, &bytes, &bound));
  g_assert_cmpfloat (bytes, ==, 132 * 151936 * 4.0);
  g_assert_cmpfloat (bytes, ==, 80222208);
  g_assert_cmpfloat (bound, ==, 1024 * row);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_assert_true (vc_estimator_vllm_triton_buffer (&in, cases[i].seqs, &bytes, &bound));
      g_assert_cmpfloat (bytes, ==, cases[i].rows * row);
    }
  /* the profile run's sampler holds it: the peak on the card is the one without a card plus it */
  off_card = vc_estimator_vllm_profile_bytes (vc_estimate_get_inputs (e), 8192, 1024, 1);
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1) - off_card, ==, 80222208);
  /* below 8 requests the sort, no kernel */
  g_assert_false (vc_estimator_vllm_triton_buffer (&in, 7, &bytes, &bound));
  g_assert_cmpfloat (bytes, ==, 0);
  /* a card without a count: not counted, its bound said */
  in.gpu_sm_count = 0;
  g_assert_true (vc_estimator_vllm_triton_buffer (&in, 1024, &bytes, &bound));
  g_assert_cmpfloat (bytes, ==, 0);
  g_assert_cmpfloat (bound, ==, 1024 * row);
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1), ==, off_card);
  g_assert_cmpuint (vc_gpus_lookup ("a10g")->sm_count, ==, 0);
  g_assert_cmpuint (vc_gpus_lookup ("rtx-3060-12gb")->sm_count, ==, 28);
  g_assert_cmpuint (vc_gpus_lookup ("l4")->sm_count, ==, 58);
  g_assert_cmpuint (vc_gpus_lookup ("mi300x")->sm_count, ==, 0);
  /* 0.14, 0.21 and FlashInfer's sampler do not take the kernel */
  in.gpu_sm_count = 132;
  in.vllm_version = VC_VLLM_VERSION_0_14;
  g_assert_false (vc_estimator_vllm_triton_buffer (&in, 1024, &bytes, &bound));
  g_assert_cmpfloat (bound, ==, 0);
  in.vllm_version = VC_VLLM_VERSION_0_21;
  g_assert_false (vc_estimator_vllm_triton_buffer (&in, 1024, &bytes, &bound));
  in.vllm_version = VC_VLLM_VERSION_0_17;
  in.vllm_sampler = VC_VLLM_SAMPLER_FLASHINFER;
  g_assert_false (vc_estimator_vllm_triton_buffer (&in, 1024, &bytes, &bound));
  bytes = vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1);
  in.gpu_sm_count = 0;
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1), ==, bytes);

  /* the GPU table's rows: each card its own SMs (H100 132, A100 108) */
  capacity_on (e, "h100-80gb", &kv);
  tokens_h100 = kv.tokens;
  capacity_on (e, "a100-80gb", &kv);
  tokens_a100 = kv.tokens;
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_14, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (tokens_h100, >, kv.tokens);   /* 0.14 sorts: 38 bytes a logit */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_17, "vllm-sampler", VC_VLLM_SAMPLER_FLASHINFER, NULL);
  /* FlashInfer's 14 bytes without the buffer: 80,222,208 bytes more for the cache, 30 or 31
   * blocks of 16 tokens at 163,840 bytes a token (40 layers x 8 KV heads x 128 x 2 x 2 bytes) */
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens - tokens_h100, >=, floor (80222208.0 / (16 * 163840)) * 16);
  g_assert_cmpfloat (kv.tokens - tokens_h100, <=, ceil (80222208.0 / (16 * 163840)) * 16);
  capacity_on (e, "a100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, >, tokens_a100);

  /* without a card the formula names the buffer and its bound */
  g_object_set (e, "vllm-sampler", VC_VLLM_SAMPLER_SORT, NULL);
  explain = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_ACTIVATIONS, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "not counted without a card’s SM count (up to 622\u00a0MB)"));
}

/* Quantized experts: their experts class, and so the workspace vLLM keeps (the workspace
 * manager from 0.14, the modular kernel's shared buffers before), follows the kernels
 * installed, so it is not counted but bounded by the largest class's workspace_shapes,
 * DeepGemmExperts' (rows M·k + 127 a local expert, rounded up to 128): Qwen3-30B-A3B (128
 * experts, 8 of 768 a token, hidden 2,048) at 8,192 tokens */
static void
test_vllm_moe_workspace_bound (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcGpu *h100, *rtx4090;
  VcInputs in;
  double before;
  g_autofree char *explain = NULL;
  /* 8,192 x 8 + 128 x 127 = 81,792 rows (639 x 128) of 2,048, twice, in 16 bits */
  const double qwen = 2.0 * 81792 * 2048 * 2;

  g_assert_true (vc_estimate_set_preset (e, "qwen3-30b-a3b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "seq", 8192, "precision",
                VC_PRECISION_FP8, NULL);
  h100 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb"));
  rtx4090 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "rtx-4090"));
  in = *vc_estimate_get_inputs (e);
  g_assert_cmpint (in.vllm_version, ==, VC_VLLM_VERSION_0_11);
  before = vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1);
  for (guint v = 0; v < 5; v++)
    {
      static const VcVllmVersion versions[] = { VC_VLLM_VERSION_0_10, VC_VLLM_VERSION_0_11, VC_VLLM_VERSION_0_14,
                                                VC_VLLM_VERSION_0_17, VC_VLLM_VERSION_0_21 };

      in.vllm_version = versions[v];
      g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, qwen);
      /* not counted: the profile run is the one without a workspace */
      g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 0);
    }
  in.vllm_version = VC_VLLM_VERSION_0_14;
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1), ==, before);
  /* 65,536 tokens, taken whole (540,544 rows); before 0.14 a chunked run kept its output apart */
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 65536, 1), ==, 2.0 * 540544 * 2048 * 2);
  in.vllm_version = VC_VLLM_VERSION_0_11;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 65536, 1), ==,
                     2.0 * 540544 * 2048 * 2 + 65536.0 * 2048 * 2);
  /* one chunk of 32,768 tokens (278,400 rows): the output inside workspace13 */
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 32768, 1), ==, 2.0 * 278400 * 2048 * 2);
  in.vllm_version = VC_VLLM_VERSION_0_14;
  /* the hidden size is the wider at TP 2 and 4 too */
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 4), ==, qwen);
  /* 4-bit and MXFP4 experts alike; 16-bit ones are counted instead, a GGUF's keep none */
  in.precision = VC_PRECISION_GPTQ_INT4;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, qwen);
  in.precision = VC_PRECISION_MXFP4;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, qwen);
  in.precision = VC_PRECISION_BF16;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, 0);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 536870912);
  in.precision = VC_PRECISION_Q4_K_M;
  in.llama_cpp = TRUE;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, 0);
  in.llama_cpp = FALSE;
  in.precision = VC_PRECISION_FP8;
  /* expert parallelism over 4: 32 local experts, 65,536 + 32 x 127 rounded up to 69,632 rows */
  in.layout.ep = 4;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 4), ==, 2.0 * 69632 * 2048 * 2);
  in.layout.ep = 1;

  /* by card: vLLM's default batch, 8,192 tokens on an H100, 2,048 on an RTX 4090 (16,384 +
   * 16,256 = 32,640 rows); none with --kv-cache-memory or another engine */
  g_assert_cmpfloat (vc_estimator_vllm_moe_uncounted_bytes (&in, h100, 1), ==, qwen);
  g_assert_cmpfloat (vc_estimator_vllm_moe_uncounted_bytes (&in, NULL, 1), ==, qwen);
  g_assert_cmpfloat (vc_estimator_vllm_moe_uncounted_bytes (&in, rtx4090, 2), ==, 2.0 * 32640 * 2048 * 2);
  in.kv_cache_memory_gb = 20;
  g_assert_cmpfloat (vc_estimator_vllm_moe_uncounted_bytes (&in, h100, 1), ==, 0);
  in.kv_cache_memory_gb = 0;
  in.engine = VC_ENGINE_SGLANG;
  g_assert_cmpfloat (vc_estimator_vllm_moe_uncounted_bytes (&in, h100, 1), ==, 0);
  in.engine = VC_ENGINE_VLLM;

  /* an expert wider than the hidden size (16 of 8,192, 1 a token, hidden 5,120): 8,192 + 16 x
   * 127 rounded up to 10,240 rows of 8,192 and of 16,384 */
  in.arch.n_experts = 16;
  in.arch.experts_per_token = 1;
  in.arch.expert_intermediate_size = 8192;
  in.arch.hidden_size = 5120;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==,
                     10240.0 * 8192 * 2 + 10240.0 * 16384 * 2);

  /* the formula says so */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_17, NULL);
  explain = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_ACTIVATIONS, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, ", not counting the quantized MoE experts’ workspace (up to 670\u00a0MB), whose "
                                     "kernel vLLM picks by the kernels installed and the card"));
  g_assert_null (strstr (explain, "still held at the sampler"));
}

/* FP8 experts on a card without FP8 arithmetic (8.0 to 8.8): Marlin is the only class from
 * 0.14, MarlinExperts' workspace TritonExperts' bytes, counted; Qwen3-30B-A3B as above */
static void
test_vllm_moe_workspace_marlin (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcGpu *a100;
  VcInputs in;
  double before;
  const double qwen = 2.0 * 81792 * 2048 * 2;

  g_assert_true (vc_estimate_set_preset (e, "qwen3-30b-a3b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "seq", 8192, "precision",
                VC_PRECISION_FP8, "engine-version", VC_VLLM_VERSION_0_14, NULL);
  a100 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "a100-80gb"));
  in = *vc_estimate_get_inputs (e);
  g_assert_cmpuint (in.vllm_card_cc, ==, 0);
  before = vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1);
  /* counted at 8.0 and 8.6; not at 8.9, under expert parallelism, past one chunk or before 0.14 */
  in.vllm_card_cc = 80;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 536870912);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, 0);
  g_assert_cmpfloat (vc_estimator_vllm_profile_bytes (&in, 8192, 1024, 1), ==, before + 536870912);
  in.vllm_card_cc = 86;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 2048, 2), ==, 2.0 * 2048 * 8 * 2048 * 2);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 65536, 1), ==, 0);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 65536, 1), ==, 2.0 * 540544 * 2048 * 2);
  in.layout.ep = 2;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 2), ==, 0);
  /* bounded: 64 local experts, 65,536 + 64 x 127 rounded up to 73,728 rows */
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 2), ==, 2.0 * 73728 * 2048 * 2);
  in.layout.ep = 1;
  in.vllm_card_cc = 89;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 0);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, qwen);
  in.vllm_card_cc = 80;
  in.vllm_version = VC_VLLM_VERSION_0_11;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 0);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, qwen);
  in.vllm_version = VC_VLLM_VERSION_0_14;
  /* 4-bit experts on that card stay bounded */
  in.precision = VC_PRECISION_AWQ_INT4;
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bytes (&in, 8192, 1), ==, 0);
  g_assert_cmpfloat (vc_estimator_vllm_moe_workspace_bound_bytes (&in, 8192, 1), ==, qwen);
  in.precision = VC_PRECISION_FP8;
  in.vllm_card_cc = 0;
  /* by card, the card's own capability: none left out on an A100 (2,048 tokens) */
  g_assert_cmpfloat (vc_estimator_vllm_moe_uncounted_bytes (&in, a100, 1), ==, 0);
}

/* Over presets x TP degrees on an H100: vLLM 0.14's cache is 0.11's for a dense model, and
 * smaller by whole blocks for one with 16-bit MoE experts, whose workspace 0.14 keeps; a figure
 * in one release is a figure in the other */
static void
test_vllm_moe_workspace_layouts (void)
{
  static const struct { const char *preset; gboolean moe; } presets[] = {
    { "qwen3-8b", FALSE }, { "llama-3.1-70b", FALSE }, { "mixtral-8x7b", TRUE },
    { "qwen3-30b-a3b", TRUE }, { "deepseek-v2-lite", TRUE }, { "qwen1.5-moe-a2.7b", TRUE },
  };
  static const guint tps[] = { 1, 2, 4 };
  guint compared = 0;

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    for (guint t = 0; t < G_N_ELEMENTS (tps); t++)
      {
        g_autoptr(VcEstimate) e = vc_estimate_new ();
        g_autoptr(GError) error = NULL;
        VcKvCapacity before, after;

        g_assert_true (vc_estimate_set_preset (e, presets[p].preset, &error));
        g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "tp", tps[t], "seq", 8192, NULL);
        capacity_on (e, "h100-80gb", &before);
        g_object_set (e, "engine-version", VC_VLLM_VERSION_0_14, NULL);
        capacity_on (e, "h100-80gb", &after);
        g_assert_cmpint (before.known, ==, after.known);
        if (!before.known)
          continue;
        compared++;
        if (presets[p].moe)
          g_assert_cmpfloat (after.tokens, <, before.tokens);
        else
          g_assert_cmpfloat (after.tokens, ==, before.tokens);
        g_assert_cmpfloat (fmod (after.tokens, 16), ==, 0);
      }
  g_assert_cmpuint (compared, >=, 12);
}

static void
test_vllm_versions (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_VLLM, 8192);
  g_autoptr(GError) error = NULL;
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  double C = 81121 * 1048576.0;
  double W = sc->bytes[VC_COMPONENT_WEIGHTS];
  double tokens = floor ((0.9 * C - W - llama3_profile (8192, 1024)) / (16 * KV_PER_TOKEN)) * 16;
  guint version;
  gboolean eager;
  VcKvCapacity kv;
  g_autofree char *explain = NULL;

  g_object_get (e, "engine-version", &version, "enforce-eager", &eager, NULL);
  g_assert_cmpuint (version, ==, VC_VLLM_VERSION_0_11);
  g_assert_false (eager);
  g_assert_true (vc_estimate_check (e, &error));
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, tokens);
  g_assert_cmpfloat (tokens, ==, 421856);

  /* eager mode changes nothing in 0.11: the graphs were outside the request */
  g_object_set (e, "enforce-eager", TRUE, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, tokens);
  explain = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_ACTIVATIONS, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "vLLM 0.11: eager, no CUDA graphs"));
  g_clear_pointer (&explain, g_free);

  /* 0.21 with eager mode: nothing measured, the same cache */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_21, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, tokens);
  /* 0.21 with CUDA graphs: refused, and no capacity */
  g_object_set (e, "enforce-eager", FALSE, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  g_assert_nonnull (strstr (error->message, "--enforce-eager"));
  g_clear_error (&error);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
  /* ... unless --kv-cache-memory gives the cache, returned before the graphs are measured */
  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor (20e9 / (16 * KV_PER_TOKEN)) * 16);
  g_object_set (e, "kv-cache-memory", 0.0, NULL);
  /* 0.17 (0.17.0 to 0.19): the Triton top-k/top-p kernel masks 8 requests or more in place, no
   * sort: 14 bytes a logit, and on an H100 its buffer, 132 SMs x the vocabulary in fp32 */
  {
    guint default_seqs;
    double profile17 = 1024 * 128256 * 14.0 + 8192 * 4096 * 2.0 + 133.0 * 1048576, buffer = 132 * 128256 * 4.0;

    g_object_get (e, "max-num-seqs", &default_seqs, NULL);
    g_object_set (e, "engine-version", VC_VLLM_VERSION_0_17, NULL);
    g_assert_true (vc_estimate_check (e, &error));
    g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==, profile17);
    capacity_on (e, "h100-80gb", &kv);
    g_assert_true (kv.known);
    g_assert_cmpfloat (kv.tokens, ==, floor ((0.9 * C - W - profile17 - buffer) / (16 * KV_PER_TOKEN)) * 16);
    g_assert_cmpfloat (kv.tokens, ==, 445392);
    g_clear_pointer (&explain, g_free);
    explain = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_ACTIVATIONS, VC_UNIT_GB);
    g_assert_nonnull (strstr (explain, "× 128256 vocabulary at 14 bytes each"));
    g_assert_nonnull (strstr (explain, "vLLM 0.17:"));
    /* below 8 requests apply_top_k_top_p still sorts: 38 bytes a logit, as 0.11 */
    g_object_set (e, "max-num-seqs", 4, NULL);
    g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                       MAX (llama3_profile (8192, 4), 2 * 8192 * 4096 * 2.0 + 8192 * 14336 * 3 * 2.0 + 133.0 * 1048576));
    g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, NULL);
    g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                       MAX (llama3_profile (8192, 4), 2 * 8192 * 4096 * 2.0 + 8192 * 14336 * 3 * 2.0 + 133.0 * 1048576));
    g_object_set (e, "max-num-seqs", default_seqs, NULL);
  }

  /* 0.10: one GPU a model as 0.11; TP 2 refused, naming the degree */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_10, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, tokens);
  g_clear_pointer (&explain, g_free);
  explain = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_ACTIVATIONS, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "vLLM 0.10: CUDA graphs captured after the cache is sized, NCCL set up after"));
  g_object_set (e, "tp", 2, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  g_assert_nonnull (strstr (error->message, "TP × PP = 2"));
  g_clear_error (&error);
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, NULL);
  g_assert_true (vc_estimate_check (e, &error));

  /* another engine ignores neither option silently: the properties stay vLLM's, and SGLang's
   * figures do not move with them */
  g_object_set (e, "tp", 1, "engine", VC_ENGINE_SGLANG, "engine-version", VC_VLLM_VERSION_0_21, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
}

static void
test_vllm_reserves (void)
{
  g_autoptr(VcEstimate) generic = llama3 (VC_ENGINE_GENERIC, 53248);
  g_autoptr(VcEstimate) vllm = llama3 (VC_ENGINE_VLLM, 53248);
  guint i = vc_test_gpu_index (generic, "rtx-4090");
  double total = vc_estimate_get_selected (generic)->total;
  double C = 24564 * 1048576.0;
  /* what vLLM requests its fraction of: CUDA's total on the card, 23.64 GiB (data/gpus.json) */
  double cuda = 24207 * 1048576.0;

  /* the generic estimate fits a 24 GB card whole; vLLM's, with its profile run's peak, not
   * within 0.9 of CUDA's total */
  g_assert_cmpfloat (total, <=, C);
  g_assert_cmpfloat (vc_estimate_get_selected (vllm)->total, >, 0.9 * cuda);
  g_assert_true (vc_estimate_get_gpu_fit (generic, i)->fits);
  g_assert_false (vc_estimate_get_gpu_fit (vllm, i)->fits);
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (generic, i)->capacity_bytes, ==, C);
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (vllm, i)->capacity_bytes, ==, cuda);
}

/* vLLM's MXFP4 padding refused at @tp ranks on @gpu, leaving 0 */
static void
assert_no_padding (const VcInputs *in,
                   const VcGpu    *gpu,
                   double          tp)
{
  double extra = -1;

  g_assert_false (vc_engine_vllm_mxfp4_extra (in, gpu, tp, &extra));
  g_assert_cmpfloat (extra, ==, 0);
}

/* A vision encoder counted with the model (400 M parameters, 16 bits): vLLM's profile run
 * passes dummy images through it and holds their embeddings, SGLang lowers its default fraction
 * for a vision model; neither is sized, so no figure, except where the engine is told its cache
 * (vLLM's --kv-cache-memory) or its fraction (SGLang's --mem-fraction-static) */
/* vLLM's MXFP4 experts (FORMULAS.md, "vLLM's MXFP4 experts"): padded by the Marlin backend on
 * compute capability 8.x, not followed from 9.0 on, refused below 8.0 */
static void
test_vllm_mxfp4 (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in;
  guint a100 = vc_test_gpu_index (e, "a100-80gb");
  guint h100 = vc_test_gpu_index (e, "h100-80gb");
  double extra = -1, budget;
  VcEngineAtLayout at;
  VcKvCapacity kv, kv_bf16;

  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-20b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 8192, NULL);
  in = vc_estimate_get_inputs (e);
  g_assert_cmpuint (vc_estimate_get_gpu (e, a100)->cc_major, ==, 8);
  g_assert_cmpuint (vc_estimate_get_gpu (e, a100)->cc_minor, ==, 0);
  g_assert_cmpuint (vc_estimate_get_gpu (e, vc_test_gpu_index (e, "rtx-5090"))->cc_major, ==, 12);
  g_assert_cmpuint (vc_estimate_get_gpu (e, vc_test_gpu_index (e, "mi300x"))->cc_major, ==, 0);

  /* 24 layers of 32 experts, I = H = 2,880: 2,944 × 3,072 shapes, 38,248,448 bytes a layer
   * beyond the 17 bytes for 32 weights and the biases stored */
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, a100), 1, &extra));
  g_assert_cmpfloat (extra, ==, 24 * 38248448.0);
  g_assert_cmpfloat (extra, ==, 917962752.0);
  /* TP 2: the rank's 1,440 rounded up to 1,536 */
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, a100), 2, &extra));
  g_assert_cmpfloat (extra, ==, 702185472.0);
  /* TP 7 does not divide 2,880: vLLM's divide() asserts; a refusal leaves no padding behind
   * (the layout search counts the experts as stored then) */
  assert_no_padding (in, vc_estimate_get_gpu (e, a100), 7);
  /* Ada and the other Ampere cards too; not on Hopper, Blackwell, Volta, Turing or AMD */
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "l40s")), 1, &extra));
  g_assert_cmpfloat (extra, ==, 917962752.0);
  assert_no_padding (in, vc_estimate_get_gpu (e, h100), 1);
  g_assert_false (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "b200")), 1, &extra));
  g_assert_false (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "v100-32gb")), 1, &extra));
  g_assert_false (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "mi300x")), 1, &extra));
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, h100), 1), ==, "mxfp4-backend");
  /* on an A100 the layout has its figure (test_vllm_sliding_layout) */
  g_assert_null (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 1));

  /* the cache on an A100 loses the padding; none on an H100 */
  capacity_on (e, "a100-80gb", &kv);
  g_assert_true (kv.known);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
  /* --kv-cache-memory gives the cache whatever the weights: a figure on the H100 too */
  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, h100), 1), !=, "mxfp4-backend");
  /* but not on a V100, where vLLM refuses MXFP4 (Mxfp4Config.get_min_capability, 80) */
  capacity_on (e, "v100-32gb", &kv);
  g_assert_false (kv.known);
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "v100-32gb")), 1), ==,
                   "mxfp4-capability");
  g_object_set (e, "kv-cache-memory", 0.0, NULL);

  /* bf16 experts: nothing padded, a figure on every card */
  g_object_set (e, "precision", VC_PRECISION_BF16, NULL);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, h100), 1, &extra));
  g_assert_cmpfloat (extra, ==, 0);
  capacity_on (e, "h100-80gb", &kv_bf16);
  g_assert_true (kv_bf16.known);
  /* nor with another engine */
  g_object_set (e, "precision", VC_PRECISION_MXFP4, "engine", VC_ENGINE_SGLANG, NULL);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, h100), 1, &extra));
  g_assert_cmpfloat (extra, ==, 0);

  /* gpt-oss-120b, 36 layers of 128 experts: 1,195,264 bytes an expert and layer; with the
   * checkpoint's 65,248,811,136 bytes, 65.90 GiB, where vLLM 0.10.1 running Marlin (its
   * marlin_utils_fp4 warning) logged "Model loading took 65.9651 GiB" (vllm-project/vllm issue
   * #23278) */
  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-120b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4, NULL);
  in = vc_estimate_get_inputs (e);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, a100), 1, &extra));
  g_assert_cmpfloat (extra, ==, 36 * 128 * 1195264.0);
  /* and vLLM's fp32 RoPE table, ⌈4,096 × 32⌉ × 64 (gpt_oss.py), in its loading figure too: 65.93 GiB */
  g_assert_cmpfloat (fabs ((vc_estimate_get_selected (e)->bytes[VC_COMPONENT_WEIGHTS] + extra) / GIB - 65.9651), <, 0.05);

  /* Mixtral 8x7B at mxfp4 (I = 14,336 and H = 4,096 already aligned): the bf16 biases vLLM
   * allocates for every expert, 8 × (2 × 14,336 + 4,096) × 2 bytes a layer, 32 layers; at the
   * layout on one A100 the cache (0.9 of CUDA's total, 81,050 MiB) loses them */
  g_assert_true (vc_estimate_set_preset (e, "mixtral-8x7b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 8192, NULL);
  in = vc_estimate_get_inputs (e);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, a100), 1, &extra));
  g_assert_cmpfloat (extra, ==, 16777216.0);
  vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, a100), 1, &at);
  g_assert_true (at.known);
  budget = 0.9 * 81050 * 1048576.0;
  g_assert_cmpfloat (at.budget_bytes, ==, budget);
  g_assert_cmpfloat (at.available_kv_bytes, ==,
                     budget - vc_estimate_get_layout_result (e)->bytes[VC_COMPONENT_WEIGHTS] - 16777216.0 -
                     vc_estimator_vllm_profile_bytes (in, 2048, 256, 1));
  vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, h100), 1, &at);
  g_assert_false (at.known);
}

/* vLLM's sliding-window groups at a layout of one pipeline stage (vc_engine_at_layout): TP
 * divides every layer's KV heads alike, so the groups are those of one GPU. gpt-oss-120b at TP 4
 * as vLLM 0.10.1.1 logged it on four A100 80 GB (tests/accuracy, vllm-gptoss120b-tp4-a100-kv):
 * 18 full and 18 sliding layers (window 128) make 2 groups of 18; a layer's token on a rank is
 * 2 KV heads × 64 × 2 × 2 bytes = 512, a page of 16 tokens 8,192 bytes; 45.32 GiB
 * (48.662 GB) make ⌊⌊48,662,000,000 / 8,192⌋ / 18⌋ = 330,010 blocks, ⌊330,010 / 2⌋ × 16 =
 * 2,640,080 tokens (the log: 2,640,144), and a request of 16,384 tokens takes 1,024 blocks in
 * the full group and, at the A100's batch of 2,048 tokens, cdiv(127 + 2,048, 16) + 1 = 137 in
 * the sliding one: 330,010 / 1,161 = 284.25 requests, as logged. The same figures as the card's
 * own at four GPUs (vc_engine_kv_capacity_on()). */
static void
test_vllm_sliding_layout (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in;
  guint a100 = vc_test_gpu_index (e, "a100-80gb");
  const VcResult *r;
  VcEngineAtLayout at;
  VcKvCapacity kv;

  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-120b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 16384, "tp", 4, "kv-cache-memory", 48.662, NULL);
  in = vc_estimate_get_inputs (e);
  r = vc_estimate_get_result (e);
  g_assert_null (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 4));
  vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, a100), 4, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.tokens, ==, 2640080.0);
  g_assert_cmpfloat (at.max_concurrency, ==, 330010.0 / (1024 + 137));
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], vc_estimate_get_gpu (e, a100), 4, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, at.tokens);
  g_assert_cmpfloat (kv.max_concurrency, ==, at.max_concurrency);
  /* a batch of 8,192 tokens: cdiv(127 + 8,192, 16) + 1 = 521 blocks a sliding group */
  g_object_set (e, "max-num-batched-tokens", 8192, NULL);
  vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, a100), 4, &at);
  g_assert_cmpfloat (at.tokens, ==, 2640080.0);
  g_assert_cmpfloat (at.max_concurrency, ==, 330010.0 / (1024 + 521));
  /* two pipeline stages at the default release (0.11 to 0.13, spanning pull request #23974):
   * each stage's groups are not followed there, and the reason is named; from 0.14 they are:
   * 9 full and 9 sliding layers a stage, 2 groups of 18 over the model, 9 layers of a stage in
   * each, a layer's token 4 KV heads × 64 × 2 × 2 = 1,024 bytes at TP 2: ⌊⌊48,662,000,000 /
   * 16,384⌋ / 9⌋ = 330,010 blocks, 2,640,080 tokens, as at TP 4 on one stage */
  g_object_set (e, "tp", 2, "pp", 2, NULL);
  vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, a100), 4, &at);
  g_assert_false (at.known);
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 2), ==, "layout-groups");
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_14, NULL);
  g_assert_null (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 2));
  vc_engine_at_layout_stages (in, r, r->selected, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, a100), 4,
                              &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.tokens, ==, 2640080.0);
  g_assert_cmpfloat (at.max_concurrency, ==, 330010.0 / (1024 + 521));
}

/* vLLM's groups over several pipeline stages (FORMULAS.md, "Sliding-window layers over
 * pipeline stages"; vllm/v1/core/kv_cache_utils.py at commit 001cabc): the whole model's groups,
 * each stage's layers spread over them (layers[i::G]), each worker's num_blocks = available //
 * page // its largest group, the fewest of any worker. With --kv-cache-memory every stage has the
 * same bytes, so the figure is the arithmetic alone:
 * - gpt-oss-20b (12 full, 12 sliding layers, window 128; a layer's token 8 KV heads × 64 × 2 ×
 *   2 = 2,048 bytes, a page 32,768): one stage, 2 groups of 12, ⌊⌊20e9 / 32,768⌋ / 12⌋ =
 *   50,862 blocks, 406,896 tokens; two, 6 of each kind a stage: ⌊610,351 / 6⌋ = 101,725 blocks,
 *   ⌊101,725 / 2⌋ × 16 = 813,792 tokens, and a request of 8,192 tokens takes 512 blocks in the
 *   full group and, with the H100's batch of 8,192, cdiv(min(127 + 8,192, 8,192), 16) + 1 = 513
 *   in the sliding one.
 * - Gemma 3 27B (10 full, 52 sliding layers, every sixth full; a layer's token 16 × 128 × 2 × 2
 *   = 8,192 bytes, a page 131,072): groups of 10, 1 full and 6 sliding; one stage ⌊152,587 /
 *   10⌋ = 15,258 blocks, ⌊15,258 / 7⌋ × 16 = 34,864 tokens; two stages of 31 layers hold 5 full
 *   and 26 sliding each, at most cdiv(26, 6) = 5 in a sliding group: ⌊152,587 / 5⌋ = 30,517
 *   blocks, ⌊30,517 / 7⌋ × 16 = 69,744 tokens (a chunked split, layers[i·g:(i+1)·g], would
 *   have kept 10 a stage, as one stage). */
static void
test_vllm_sliding_stages (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in;
  const VcGpu *h100;
  const VcResult *r;
  VcEngineAtLayout at;
  VcKvCapacity kv;
  double tokens, max_concurrency;

  h100 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb"));
  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-20b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "engine-version", VC_VLLM_VERSION_0_17,
                "precision", VC_PRECISION_MXFP4, "seq", 8192, "kv-cache-memory", 20.0, NULL);
  in = vc_estimate_get_inputs (e);
  r = vc_estimate_get_result (e);
  g_assert_cmpuint (in->arch.sliding_window_pattern, ==, 2);
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], h100, 1, &kv);
  g_assert_cmpfloat (kv.tokens, ==, 406896.0);
  /* one stage: not this path, the figure above unchanged */
  g_assert_false (vc_engine_sliding_stages (in, r, r->selected, h100, 0, &tokens, &max_concurrency));
  g_object_set (e, "pp", 2, NULL);
  g_assert_null (vc_engine_no_figure_on (in, h100, 1));
  g_assert_true (vc_engine_sliding_stages (in, r, r->selected, h100, 0, &tokens, &max_concurrency));
  g_assert_cmpfloat (tokens, ==, 813792.0);
  g_assert_cmpfloat (max_concurrency, ==, 101725.0 / (512 + 513));
  vc_engine_at_layout_stages (in, r, r->selected, vc_estimate_get_layout_result (e), h100, 0, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.tokens, ==, tokens);
  g_assert_cmpfloat (at.max_concurrency, ==, max_concurrency);
  /* four GPUs over two stages: two replicas, each that figure */
  vc_engine_at_layout_stages (in, r, r->selected, vc_estimate_get_layout_result (e), h100, 4, &at);
  g_assert_cmpfloat (at.tokens, ==, tokens);
  g_assert_cmpfloat (at.max_concurrency, ==, 2 * max_concurrency);

  /* from each stage's memory: 0.92 of the card less the stage's weights, its half of the Triton
   * backend's padding (24 MoE layers, 12 a stage) and the profile run; the fewest blocks of the
   * two stages */
  g_object_set (e, "kv-cache-memory", 0.0, NULL);
  {
    const VcLayoutResult *lr = vc_estimate_get_layout_result (e);
    guint batch_tokens, seqs;
    double padding, profile, blocks = G_MAXDOUBLE;
    VcInputs on_card;

    g_assert_true (vc_engine_vllm_mxfp4_extra (in, h100, 1, &padding));
    g_assert_cmpfloat (padding, ==, 768.0 * 823680.0);
    /* the profile run with the card's own batch and SMs (the Triton sampler's buffer) */
    vc_engine_on_card (in, h100, &on_card);
    vc_engine_vllm_batch (&on_card, h100, &batch_tokens, &seqs);
    profile = vc_estimator_vllm_profile_bytes (&on_card, batch_tokens, seqs, 1);
    for (guint s = 0; s < 2; s++)
      {
        VcLayoutStage st;

        vc_layout_stage_bytes_tp (in, r, r->selected, 12 * s, 12, s == 0, s == 1, 1, 1, &st);
        blocks = MIN (blocks, floor (floor ((in->memory_fraction * vc_engine_gpu_capacity (in, h100) - st.weights -
                                             padding / 2 - profile) / 32768) / 6));
      }
    g_assert_true (vc_engine_sliding_stages (in, r, r->selected, h100, lr->bytes[VC_COMPONENT_OVERHEAD], &tokens,
                                             &max_concurrency));
    g_assert_cmpfloat (tokens, ==, floor (blocks / 2) * 16);
    g_assert_cmpfloat (max_concurrency, ==, blocks / 1025);
    g_assert_cmpfloat (blocks, ==, 336452.0);
    g_assert_cmpfloat (tokens, ==, 2691616.0);
    /* the busiest GPU's weights: its stage's half of the padding */
    vc_engine_at_layout_stages (in, r, r->selected, lr, h100, 0, &at);
    g_assert_true (at.known);
    g_assert_cmpfloat (at.tokens, ==, 2691616.0);
    g_assert_cmpfloat (at.weights_bytes, ==, lr->bytes[VC_COMPONENT_WEIGHTS] + padding / 2);
  }
  /* 0.11 spans releases before and after the whole model's groups: named, no figure (bf16
   * experts, whose backend is not in question) */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, "precision", VC_PRECISION_BF16, NULL);
  g_assert_cmpstr (vc_engine_no_figure_on (in, h100, 1), ==, "layout-groups");
  g_assert_false (vc_engine_sliding_stages (in, r, r->selected, h100, 0, &tokens, &max_concurrency));
  vc_engine_at_layout_stages (in, r, r->selected, vc_estimate_get_layout_result (e), h100, 0, &at);
  g_assert_false (at.known);
  /* which layers slide not known (the pattern cleared): named, no figure */
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_14, "sliding-window-pattern", 0, NULL);
  g_assert_cmpuint (in->arch.sliding_window_pattern, ==, 0);
  g_assert_cmpstr (vc_engine_no_figure_on (in, h100, 1), ==, "layout-groups");
  vc_engine_at_layout_stages (in, r, r->selected, vc_estimate_get_layout_result (e), h100, 0, &at);
  g_assert_false (at.known);

}

/* Gemma 3 27B's groups over two stages (test_vllm_sliding_stages()) */
static void
test_vllm_sliding_stages_gemma3 (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcGpu *h100 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb"));
  const VcInputs *in;
  const VcResult *r;
  VcKvCapacity kv;
  double tokens, max_concurrency;

  g_assert_true (vc_estimate_set_preset (e, "gemma-3-27b-it", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "engine-version", VC_VLLM_VERSION_0_17,
                "precision", VC_PRECISION_BF16, "seq", 8192, "kv-cache-memory", 20.0, "pp", 1, NULL);
  in = vc_estimate_get_inputs (e);
  r = vc_estimate_get_result (e);
  g_assert_cmpuint (in->arch.sliding_window_pattern, ==, 6);
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], h100, 1, &kv);
  g_assert_cmpfloat (kv.tokens, ==, 34864.0);
  g_object_set (e, "pp", 2, NULL);
  g_assert_true (vc_engine_sliding_stages (in, r, r->selected, h100, 0, &tokens, &max_concurrency));
  g_assert_cmpfloat (tokens, ==, 69744.0);
  /* a request: 512 blocks in the full group, cdiv(min(1,023 + 8,192, 8,192), 16) + 1 = 513 in
   * each of the 6 sliding ones */
  g_assert_cmpfloat (max_concurrency, ==, 30517.0 / (512 + 6 * 513));
  /* stages of other sizes (get_pp_indices: 21, 21, 20 and 15, 16, 16, 15 layers): PP 3 holds
   * 3, 4 and 3 full layers (5, 11, 17 | 23 … 41 | 47, 53, 59), its largest group 4:
   * ⌊152,587 / 4⌋ = 38,146 blocks, 87,184 tokens; PP 4 2, 3, 2, 3 full and 13, 13, 14, 12
   * sliding, at most 3 a group: ⌊152,587 / 3⌋ = 50,862 blocks, 116,256 tokens */
  g_object_set (e, "pp", 3, NULL);
  g_assert_true (vc_engine_sliding_stages (in, r, r->selected, h100, 0, &tokens, &max_concurrency));
  g_assert_cmpfloat (tokens, ==, 87184.0);
  g_object_set (e, "pp", 4, NULL);
  g_assert_true (vc_engine_sliding_stages (in, r, r->selected, h100, 0, &tokens, &max_concurrency));
  g_assert_cmpfloat (tokens, ==, 116256.0);
  g_assert_cmpfloat (max_concurrency, ==, 50862.0 / (512 + 6 * 513));
  /* without --kv-cache-memory the vision tower's profile run at PP > 1 is not followed */
  g_object_set (e, "kv-cache-memory", 0.0, "pp", 2, NULL);
  g_assert_cmpstr (vc_engine_no_figure_on (in, h100, 1), ==, "encoder");

  /* Mistral 7B, the window on every layer (no pattern needed): one group of a stage's 16
   * layers, a layer's token 8 × 128 × 2 × 2 = 4,096 bytes: ⌊⌊20e9 / 65,536⌋ / 16⌋ = 19,073
   * blocks, 305,168 tokens (one stage: 9,536 blocks, 152,576); a request its window's
   * cdiv(min(4,095 + 8,192, 8,192), 16) + 1 = 513 blocks */
  g_assert_true (vc_estimate_set_preset (e, "mistral-7b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "engine-version", VC_VLLM_VERSION_0_17,
                "seq", 8192, "kv-cache-memory", 20.0, "pp", 2, NULL);
  in = vc_estimate_get_inputs (e);
  r = vc_estimate_get_result (e);
  g_assert_cmpuint (in->arch.sliding_window_layers, ==, in->arch.n_layers);
  g_assert_cmpuint (in->arch.sliding_window_pattern, ==, 0);
  g_assert_true (vc_engine_sliding_stages (in, r, r->selected, h100, 0, &tokens, &max_concurrency));
  g_assert_cmpfloat (tokens, ==, 305168.0);
  g_assert_cmpfloat (max_concurrency, ==, 19073.0 / 513);
}

/* SGLang's pools over several pipeline stages at commit 003fca8 (FORMULAS.md, "Sliding-window
 * layers over pipeline stages"): each rank's HybridSWAPoolConfigurator counts the whole model's
 * layers, so a token costs F·n_full + 0.8·S·n_sliding on every stage, and the ranks keep the
 * smallest full pool of any (_apply_token_constraints). gpt-oss-20b on H100s: 2,048 × (12 + 0.8
 * × 12) = 44,236.8 bytes a token; Gemma 3 27B: 8,192 × (10 + 0.8 × 52) = 422,707.2. At commit
 * 001ccef the stages are not followed (named). */
static void
test_sglang_sliding_stages (void)
{
  static const struct { const char *preset; VcPrecision precision; double cell; guint layers; double tokens; } cases[] = {
    { "gpt-oss-20b", VC_PRECISION_MXFP4, 2048 * (12 + 0.8 * 12), 24, 1428519 },
    { "gemma-3-27b-it", VC_PRECISION_BF16, 8192 * (10 + 0.8 * 52), 62, 94836 },
  };
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  const VcGpu *h100 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb"));

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      const VcInputs *in;
      const VcResult *r;
      const VcLayoutResult *lr;
      VcEngineAtLayout at;
      double tokens, max_concurrency, full = G_MAXDOUBLE, swa;
      guint first = 0;

      g_assert_true (vc_estimate_set_preset (e, cases[i].preset, &error));
      /* Gemma 3's SGLang class runs on one stage (sglang-one-stage): its pools over stages are
       * those of the model described without the field */
      g_object_set (e, "sglang-one-stage", FALSE, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_SGLANG,
                    "seq", 8192, "pp", 2, "precision", cases[i].precision, "sglang-version",
                    VC_SGLANG_VERSION_003FCA8, NULL);
      in = vc_estimate_get_inputs (e);
      r = vc_estimate_get_result (e);
      lr = vc_estimate_get_layout_result (e);
      g_assert_null (vc_engine_no_figure_on (in, h100, 1));
      /* each stage's rest: the static share less its own weights */
      vc_engine_at_layout (in, lr, h100, 0, &at);
      g_assert_false (at.known);
      g_assert_cmpfloat (at.budget_bytes, >, 0);
      for (guint s = 0; s < 2; s++)
        {
          guint n = vc_layout_stage_size (in, 2, s);
          VcLayoutStage st;

          vc_layout_stage_bytes_tp (in, r, r->selected, first, n, s == 0, s == 1, 1, 1, &st);
          first += n;
          full = MIN (full, floor ((at.budget_bytes - st.weights) / cases[i].cell));
        }
      swa = floor (full * 0.8);
      g_assert_true (vc_engine_sliding_stages (in, r, r->selected, h100, lr->bytes[VC_COMPONENT_OVERHEAD], &tokens,
                                               &max_concurrency));
      g_assert_cmpfloat (tokens, ==, full);
      g_assert_cmpfloat (tokens, ==, cases[i].tokens);
      g_assert_cmpfloat (max_concurrency, ==, MIN (full / 8192, swa / MIN (8192.0, in->arch.sliding_window + 1.0)));
      vc_engine_at_layout_stages (in, r, r->selected, lr, h100, 0, &at);
      g_assert_true (at.known);
      g_assert_cmpfloat (at.tokens, ==, tokens);
      g_assert_cmpfloat (at.max_concurrency, ==, max_concurrency);
      /* 001ccef: not read for several stages */
      g_object_set (e, "sglang-version", VC_SGLANG_VERSION_001CCEF, NULL);
      g_assert_cmpstr (vc_engine_no_figure_on (in, h100, 1), ==, "layout-groups");
      vc_engine_at_layout_stages (in, r, r->selected, lr, h100, 0, &at);
      g_assert_false (at.known);
    }
}

/* vLLM's MLA cache on Hopper: FlashMLA's blocks of 64 tokens, which vLLM's platform forces
 * unless --block-size is a multiple of 64 (vllm/platforms/cuda.py); elsewhere the block given.
 * Kimi K2 Thinking at TP 8 on H200 (tests/accuracy, vllm-kimi-k2-thinking-tp8-h200-kv):
 * 61 layers × 576 latent values × 2 bytes = 70,272 bytes a token on every rank; 46.80 GiB
 * (50.2511 GB) make ⌊50,251,100,000 / (64 × 70,272)⌋ = 11,173 blocks, 715,072 tokens as
 * logged; blocks of 16 on an A100 make 715,088 */
static void
test_vllm_mla_block (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  guint h200 = vc_test_gpu_index (e, "h200"), a100 = vc_test_gpu_index (e, "a100-80gb");
  VcEngineAtLayout at;
  VcKvCapacity kv;
  VcInputs on_card;

  g_assert_true (vc_estimate_set_preset (e, "kimi-k2-instruct", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "seq", 131072, "tp", 8,
                "kv-cache-memory", 50.2511, NULL);
  g_assert_cmpfloat (vc_estimate_get_result (e)->kv_bytes_per_token, ==, 70272);
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, h200), 8,
                       &at);
  g_assert_cmpfloat (at.tokens, ==, 715072);
  vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), vc_estimate_get_result (e), vc_estimate_get_selected (e),
                            vc_estimate_get_gpu (e, h200), 8, &kv);
  g_assert_cmpfloat (kv.tokens, ==, 715072);
  vc_engine_on_card (vc_estimate_get_inputs (e), vc_estimate_get_gpu (e, h200), &on_card);
  g_assert_cmpuint (on_card.block_size, ==, 64);
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, a100), 8,
                       &at);
  g_assert_cmpfloat (at.tokens, ==, 715088);
  vc_engine_on_card (vc_estimate_get_inputs (e), vc_estimate_get_gpu (e, a100), &on_card);
  g_assert_cmpuint (on_card.block_size, ==, 16);
  /* a block of 128 is a multiple of 64: kept; 715,008 tokens in 5,586 blocks */
  g_object_set (e, "block-size", 128, NULL);
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, h200), 8,
                       &at);
  g_assert_cmpfloat (at.tokens, ==, 5586 * 128.0);
  /* SGLang keeps its page */
  g_object_set (e, "block-size", 16, "engine", VC_ENGINE_SGLANG, NULL);
  vc_engine_on_card (vc_estimate_get_inputs (e), vc_estimate_get_gpu (e, h200), &on_card);
  g_assert_cmpuint (on_card.block_size, ==, 16);
}

/* The engine's cache at a layout of TP n (vc_engine_at_layout, from the layout's busiest GPU)
 * and a card's own at n GPUs (vc_engine_kv_capacity_on, from the model's bytes a token) are one
 * block arithmetic: with the cache given (--kv-cache-memory), the same tokens and requests for
 * dense, MoE, MLA, sliding-window (gpt-oss, Gemma 3 with its encoder) and chunked-attention
 * (Llama 4) models, at every TP the model takes, on Ampere, Hopper and Blackwell cards */
static void
test_vllm_layout_matches_card (void)
{
  static const char *presets[] = { "qwen3-32b", "qwen3-30b-a3b", "gpt-oss-20b", "gpt-oss-120b", "gemma-3-27b-it",
                                   "kimi-k2-instruct", "llama-4-scout-17b-16e", "mistral-7b" };
  static const char *gpus[] = { "a100-80gb", "h100-80gb", "b200" };
  static const guint tps[] = { 1, 2, 4, 8 };
  guint compared = 0;

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    for (guint t = 0; t < G_N_ELEMENTS (tps); t++)
      {
        g_autoptr(VcEstimate) e = vc_estimate_new ();
        g_autoptr(GError) error = NULL;
        const VcResult *r;

        if (!vc_estimate_set_preset (e, presets[p], &error))
          g_error ("%s: %s", presets[p], error->message);
        g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "seq", 8192, "tp", tps[t],
                      "kv-cache-memory", 30.0, NULL);
        r = vc_estimate_get_result (e);
        if (vc_estimate_get_layout_result (e) == NULL)
          continue;
        for (guint g = 0; g < G_N_ELEMENTS (gpus); g++)
          {
            const VcGpu *gpu = vc_estimate_get_gpu (e, vc_test_gpu_index (e, gpus[g]));
            VcEngineAtLayout at;
            VcKvCapacity kv;

            vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e), gpu, tps[t], &at);
            vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected], gpu, tps[t], &kv);
            g_assert_cmpint (at.known, ==, kv.known);
            if (!at.known)
              continue;
            if (at.tokens != kv.tokens || fabs (at.max_concurrency - kv.max_concurrency) > 1e-9 * kv.max_concurrency)
              g_error ("%s TP %u on %s: %.0f tokens, %.6f requests at the layout; %.0f, %.6f on the card", presets[p],
                       tps[t], gpus[g], at.tokens, at.max_concurrency, kv.tokens, kv.max_concurrency);
            g_assert_cmpfloat (at.tokens, >, 0);
            compared++;
          }
      }
  g_assert_cmpuint (compared, >=, 40);
}

/* A GGUF's MXFP4 experts under vLLM go through GGUFMoEMethod, as stored: no backend's layout
 * on an A100 (Marlin) or an H100 at 0.17 (Triton), where the architecture's are padded */
static void
test_vllm_mxfp4_gguf (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  VcInputs in;
  double extra;

  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-20b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "engine-version", VC_VLLM_VERSION_0_17, NULL);
  in = *vc_estimate_get_inputs (e);
  g_assert_true (vc_engine_vllm_mxfp4_extra (&in, vc_gpus_lookup ("h100-80gb"), 1, &extra));
  g_assert_cmpfloat (extra, ==, 768.0 * 823680);
  g_assert_true (vc_engine_vllm_mxfp4_extra (&in, vc_gpus_lookup ("a100-80gb"), 1, &extra));
  g_assert_cmpfloat (extra, ==, 917962752);
  in.llama_cpp = TRUE;
  g_assert_true (vc_engine_vllm_mxfp4_extra (&in, vc_gpus_lookup ("h100-80gb"), 1, &extra));
  g_assert_cmpfloat (extra, ==, 0);
  g_assert_true (vc_engine_vllm_mxfp4_extra (&in, vc_gpus_lookup ("a100-80gb"), 1, &extra));
  g_assert_cmpfloat (extra, ==, 0);
}

/* --mxfp4-backend marlin (VLLM_MXFP4_USE_MARLIN=1): Marlin's padding on cards of compute
 * capability 9.0 and later as on 8.x (get_mxfp4_backend at vLLM 007d500; the kernel oracle's
 * select_mxfp4_moe_backend after pull request #37128), 10.x only at --engine-version 0.21 (the
 * older selector puts FlashInfer's backends first there); refused where it means nothing */
static void
test_vllm_mxfp4_marlin (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in;
  const VcGpu *h100, *b200, *rtx5090, *a100;
  double extra = -1, marlin_a100 = -1;
  VcKvCapacity kv;

  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-20b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 8192, NULL);
  in = vc_estimate_get_inputs (e);
  h100 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb"));
  b200 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "b200"));
  rtx5090 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "rtx-5090"));
  a100 = vc_estimate_get_gpu (e, vc_test_gpu_index (e, "a100-80gb"));
  g_assert_cmpint (in->mxfp4_backend, ==, VC_MXFP4_BACKEND_AUTO);
  /* auto: today's refusal naming the backend from 9.0 on */
  assert_no_padding (in, h100, 1);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, a100, 1, &marlin_a100));

  g_object_set (e, "mxfp4-backend", VC_MXFP4_BACKEND_MARLIN, NULL);
  g_assert_true (vc_estimate_check (e, &error));
  g_assert_no_error (error);
  /* the H100 pads as the A100 does: 2,944 × 3,072 shapes, 917,962,752 bytes at TP 1, the rank's
   * 1,440 rounded up to 1,536 at TP 2 */
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, h100, 1, &extra));
  g_assert_cmpfloat (extra, ==, 917962752.0);
  g_assert_cmpfloat (extra, ==, marlin_a100);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, h100, 2, &extra));
  g_assert_cmpfloat (extra, ==, 702185472.0);
  /* TP 7 still does not divide 2,880 */
  assert_no_padding (in, h100, 7);
  /* RTX 50 series (12.0): Marlin too */
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, rtx5090, 1, &extra));
  g_assert_cmpfloat (extra, ==, 917962752.0);
  /* B200 (10.0): FlashInfer's backends come first before the oracle, so 0.11 to 0.20 does not
   * know it; 0.21 does */
  assert_no_padding (in, b200, 1);
  g_assert_cmpstr (vc_engine_no_figure_on (in, b200, 1), ==, "mxfp4-backend");
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_21, "enforce-eager", TRUE, NULL);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, b200, 1, &extra));
  g_assert_cmpfloat (extra, ==, 917962752.0);
  g_object_set (e, "engine-version", VC_VLLM_VERSION_0_11, "enforce-eager", FALSE, NULL);
  /* still refused below 8.0, and still unknown on a card of unknown capability */
  g_assert_true (vc_engine_vllm_mxfp4_refused (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "v100-32gb"))));
  assert_no_padding (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "mi300x")), 1);
  assert_no_padding (in, NULL, 1);

  /* --explain names the backend beside the weights, which the breakdown (no card) keeps as
   * stored */
  {
    g_autofree char *explain = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_WEIGHTS,
                                                    VC_UNIT_GB);

    g_assert_true (g_str_has_suffix (explain, "; vLLM’s MXFP4 expert backend: Marlin (VLLM_MXFP4_USE_MARLIN=1) on "
                                     "compute capability 8.0 and later, 10.x from release 0.21, whose padding "
                                     "(Marlin: the intermediate size a GPU rounded up to 128, the hidden size to 256) "
                                     "each card’s GPU count and KV capacity add"));
    g_object_set (e, "mxfp4-backend", VC_MXFP4_BACKEND_AUTO, NULL);
    g_clear_pointer (&explain, g_free);
    explain = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_WEIGHTS, VC_UNIT_GB);
    g_assert_nonnull (strstr (explain, "backend: vLLM’s choice for the card, Marlin on compute capability 8.x, "
                                       "Triton’s kernels on 9.x from release 0.14, not known otherwise"));
    g_object_set (e, "mxfp4-backend", VC_MXFP4_BACKEND_MARLIN, NULL);
  }

  /* the H100's cache with Marlin: one card, 1,095,184 tokens of 8,192-token requests (the 32 MiB fp32 RoPE table taken) */
  g_assert_cmpuint (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->count, ==, 1);
  g_assert_false (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->experts_as_stored);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, 1095184);

  /* gpt-oss-120b: 36 × 128 × 1,195,264 bytes at TP 1, which one H100 no longer holds with the
   * request: two at TP 2, 858,800 tokens with the RoPE table on each (each rank's weights the
   * layout's at TP 2: 32,671,549,568 bytes, 13,589,568 more than half of the rest beside the
   * table, for the router, norms, sinks and row-parallel biases each rank holds whole) */
  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-120b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 8192, NULL);
  in = vc_estimate_get_inputs (e);
  g_assert_cmpint (in->mxfp4_backend, ==, VC_MXFP4_BACKEND_MARLIN);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, h100, 1, &extra));
  g_assert_cmpfloat (extra, ==, 5507776512.0);
  g_assert_cmpuint (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->count, ==, 2);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, 858800);
  g_assert_true (vc_engine_vllm_mxfp4_extra (in, h100, 2, &extra));
  g_assert_cmpfloat (kv.weights_bytes, ==, 32671549568.0 + extra);
  g_object_set (e, "mxfp4-backend", VC_MXFP4_BACKEND_AUTO, NULL);
  g_assert_cmpuint (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->count, ==, 1);
  g_assert_true (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->experts_as_stored);
}

/* --mxfp4-backend marlin refused, never ignored: another engine, a model without MXFP4 experts;
 * not read in training, which has no serving engine */
static void
test_vllm_mxfp4_marlin_refused (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;

  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-120b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "mxfp4-backend", VC_MXFP4_BACKEND_MARLIN, NULL);
  g_assert_true (vc_estimate_check (e, NULL));
  g_object_set (e, "engine", VC_ENGINE_SGLANG, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_cmpstr (error->message, ==, "the MXFP4 backend marlin is vLLM’s (VLLM_MXFP4_USE_MARLIN=1); the engine is "
                   "sglang: give the engine vllm, or the MXFP4 backend auto");
  g_clear_error (&error);
  g_object_set (e, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_BF16, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_cmpstr (error->message, ==, "the MXFP4 backend marlin applies to routed experts stored in MXFP4 (the "
                   "architecture method at precision mxfp4, as gpt-oss); here the architecture method is at precision "
                   "bf16: give the MXFP4 backend auto");
  g_clear_error (&error);
  g_assert_true (vc_estimate_set_preset (e, "llama-3-8b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "precision", VC_PRECISION_MXFP4, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_cmpstr (error->message, ==, "the MXFP4 backend marlin applies to routed experts stored in MXFP4; this model "
                   "has no routed experts (a dense model): give the MXFP4 backend auto");
  g_clear_error (&error);
  g_object_set (e, "mode", VC_MODE_TRAINING, NULL);
  g_assert_true (vc_estimate_check (e, NULL));
}

/* Below compute capability 8.0 the reason is vLLM's refusal (VllmConfig._get_quantization_config
 * against Mxfp4Config.get_min_capability, 80), not the backend; a card of unknown capability
 * is not refused, its backend is not known */
static void
test_vllm_mxfp4_capability (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in;
  VcKvCapacity kv;

  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-20b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 8192, NULL);
  in = vc_estimate_get_inputs (e);
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "v100-32gb")), 1), ==,
                   "mxfp4-capability");
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "t4")), 1), ==,
                   "mxfp4-capability");
  g_assert_true (vc_engine_vllm_mxfp4_refused (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "t4"))));
  g_assert_false (vc_engine_vllm_mxfp4_refused (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "a100-80gb"))));
  g_assert_false (vc_engine_vllm_mxfp4_refused (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb"))));
  g_assert_false (vc_engine_vllm_mxfp4_refused (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "mi300x"))));
  g_assert_false (vc_engine_vllm_mxfp4_refused (in, NULL));
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "mi300x")), 1), ==,
                   "mxfp4-backend");
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "rtx-5090")), 1), ==,
                   "mxfp4-backend");
  /* --kv-cache-memory gives no figure there either: vLLM does not start */
  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  capacity_on (e, "v100-32gb", &kv);
  g_assert_false (kv.known);
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "v100-32gb")), 1), ==,
                   "mxfp4-capability");
  /* nor with bf16 experts, which vLLM serves on a V100 */
  g_object_set (e, "kv-cache-memory", 0.0, "precision", VC_PRECISION_BF16, NULL);
  g_assert_false (vc_engine_vllm_mxfp4_refused (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "v100-32gb"))));
}

/* Exact or refused: where vLLM refuses MXFP4 (a V100, a T4) no number of the card holds the
 * model, the solver finds no value there (limit "engine") and the row says why, whatever the
 * memory: gpt-oss-20b's 13 GB would fit a V100 32 GB. Only vLLM with MXFP4 experts; the cards
 * beside them keep their counts. */
static void
test_vllm_mxfp4_refused_fit (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in;
  static const char *refused[] = { "v100-32gb", "t4" };
  static const VcEngine engines[] = { VC_ENGINE_GENERIC, VC_ENGINE_VLLM, VC_ENGINE_SGLANG, VC_ENGINE_LLAMA_CPP };

  g_assert_true (vc_estimate_set_preset (e, "gpt-oss-20b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 8192, NULL);
  in = vc_estimate_get_inputs (e);
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      guint g = vc_test_gpu_index (e, refused[i]);
      const VcGpu *gpu = vc_estimate_get_gpu (e, g);
      const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, g);
      g_autoptr(VcSolverMemo) memo = vc_solver_memo_new ();
      VcSolution sol;
      double bytes;

      g_assert_true (fit->refused);
      g_assert_false (fit->fits);
      g_assert_cmpfloat (fit->count, ==, 0);
      g_assert_false (fit->experts_as_stored);
      vc_solver_solve_memo (memo, gpu, in, VC_SOLVE_VARIABLE_CONCURRENCY, gpu->capacity_bytes, 1, &sol);
      g_assert_false (sol.found);
      g_assert_cmpuint (sol.value, ==, 0);
      g_assert_cmpint (sol.limit, ==, VC_SOLVE_LIMIT_ENGINE);
      g_assert_false (vc_solver_fits_at_memo (memo, gpu, in, VC_SOLVE_VARIABLE_SEQ, 1, gpu->capacity_bytes, 8, &bytes));
      g_assert_false (vc_estimate_get_row_solution (e, g, VC_SOLVE_VARIABLE_SEQ)->found);
      /* the same capacity without the card: the memory alone of a V100 32 GB holds it (not a
       * T4's 16 GB) */
      vc_solver_solve_memo (memo, NULL, in, VC_SOLVE_VARIABLE_CONCURRENCY, gpu->capacity_bytes, 1, &sol);
      g_assert_cmpint (sol.found, ==, i == 0);
      g_assert_cmpint (sol.limit, !=, VC_SOLVE_LIMIT_ENGINE);
    }
  /* an A100 and an H100 keep their counts: one card each */
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "a100-80gb"))->count, ==, 1);
  g_assert_false (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "a100-80gb"))->refused);
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "h100-80gb"))->count, ==, 1);
  /* any other engine, or bf16 experts, or training: the V100 holds it, not refused */
  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    for (guint bf16 = 0; bf16 < 2; bf16++)
      {
        gboolean refuses = engines[i] == VC_ENGINE_VLLM && !bf16;
        const VcGpuFit *fit;

        g_object_set (e, "engine", engines[i], "precision", bf16 ? VC_PRECISION_BF16 : VC_PRECISION_MXFP4, NULL);
        fit = vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "v100-32gb"));
        g_assert_cmpint (fit->refused, ==, refuses);
        g_assert_cmpint (fit->count == 0, ==, refuses);
      }
  g_object_set (e, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4, "mode", VC_MODE_TRAINING, NULL);
  g_assert_false (vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, "v100-32gb"))->refused);
}

/* Mixtral 8x7B at mxfp4 on an A100 (Marlin): two pipeline stages, or expert parallelism, leave
 * the padded experts not followed, and the reason is named; --kv-cache-memory gives the cache
 * whatever the weights */
static void
test_vllm_mxfp4_layout (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  const VcInputs *in;
  guint a100 = vc_test_gpu_index (e, "a100-80gb");
  VcEngineAtLayout at;

  g_assert_true (vc_estimate_set_preset (e, "mixtral-8x7b", &error));
  g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                "seq", 8192, NULL);
  in = vc_estimate_get_inputs (e);
  g_assert_null (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 1));
  /* two pipeline stages: each pads its own 16 MoE layers, half of Marlin's 32 × 8 experts ×
   * bf16 biases of 2 × 14,336 + 4,096 (16,777,216 bytes): the busiest GPU holds its stage's
   * share */
  g_object_set (e, "pp", 2, NULL);
  {
    const VcLayoutResult *lr = vc_estimate_get_layout_result (e);
    double padding;

    g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_estimate_get_gpu (e, a100), 1, &padding));
    g_assert_cmpfloat (padding, ==, 16777216.0);
    vc_engine_at_layout (in, lr, vc_estimate_get_gpu (e, a100), 2, &at);
    g_assert_true (at.known);
    g_assert_cmpfloat (at.weights_bytes, ==, lr->bytes[VC_COMPONENT_WEIGHTS] + 8388608.0);
    g_assert_null (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 1));
  }
  /* expert parallelism: not followed there, and the reason is named; --kv-cache-memory gives
   * the cache whatever the weights */
  g_object_set (e, "kv-cache-memory", 20.0, "pp", 1, "tp", 2, "ep", 2, NULL);
  vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, a100), 2, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.available_kv_bytes, ==, 20e9);
  g_assert_null (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 2));
  g_object_set (e, "kv-cache-memory", 0.0, NULL);
  vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, a100), 2, &at);
  g_assert_false (at.known);
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 2), ==, "mxfp4-layout");
  /* on a V100 the refusal comes first, whatever the layout */
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, vc_test_gpu_index (e, "v100-32gb")), 2), ==,
                   "mxfp4-capability");
  /* bf16 experts are not padded: the layout is followed */
  g_object_set (e, "precision", VC_PRECISION_BF16, NULL);
  g_assert_cmpstr (vc_engine_no_figure_on (in, vc_estimate_get_gpu (e, a100), 2), ==, NULL);
}

/* The GPU table's count and the solver (--solve, --fit-gpu) count vLLM's MXFP4 experts as
 * Marlin pads them on compute capability 8.x, at the TP degree of each layout they try
 * (FORMULAS.md, "vLLM's MXFP4 experts"): the busiest GPU holds its layout's bytes plus the
 * padding of that TP degree. gpt-oss-20b (24 layers of 32 experts): 917,962,752 bytes at TP 1,
 * 702,185,472 at TP 2 (I/TP = 1,440 → 1,536), 353,452,032 at TP 4 (720 → 768); gpt-oss-120b
 * (36 layers of 128 experts): 5,507,776,512, 4,213,112,832 and 2,120,712,192. The solver's
 * answers on n cards are compared with the same capacity given alone (no card, no padding), with
 * the card's vLLM batch (vc_engine_on_card()); a layout of pipeline stages holds each stage's own
 * full-attention layers (every other layer, sliding-window-pattern 2). */
static void
test_vllm_mxfp4_fit (void)
{
  static const struct
  {
    const char *preset;
    const char *gpu;
    guint count;            /* the GPU table's count, all of it TP */
    double per_gpu;         /* its busiest GPU, vLLM's fp32 RoPE table (32 MiB) included */
    double padding[3];      /* at TP 1, 2, 4 */
    guint solved[3];        /* most requests of 8,192 tokens on 1, 2, 4 cards; 0: none */
    guint plain[3];         /* the same capacity without the card */
  } cases[] = {
    { "gpt-oss-20b", "a100-40gb", 1, 18024692352.0, { 917962752.0, 702185472.0, 353452032.0 },
      { 103, 277, 628 }, { 108, 284, 635 } },
    { "gpt-oss-20b", "a100-80gb", 1, 18024692352.0, { 917962752.0, 702185472.0, 353452032.0 },
      { 291, 653, 1380 }, { 296, 659, 1387 } },
    /* three stages of PP would hold the stored weights; the padding is followed on one stage */
    { "gpt-oss-120b", "a100-40gb", 4, 21670972032.0, { 5507776512.0, 4213112832.0, 2120712192.0 },
      { 0, 0, 227 }, { 0, 21, 255 } },
    /* one card holds the padded experts beside the A100's profile run of 2,048 tokens and 256
     * sequences (68,696,515,200 bytes stored, 74,204,291,712 padded, RoPE table included, within 0.9 × its CUDA total of
     * 81,050 MiB and the CUDA context); the large cards' 8,192 and 1,024 would have taken 5.9 GB more: two cards */
    { "gpt-oss-120b", "a100-80gb", 1, 74204291712.0, { 5507776512.0, 4213112832.0, 2120712192.0 },
      { 11, 244, 728 }, { 29, 272, 756 } },
  };
  static const guint counts[] = { 1, 2, 4 };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(VcEstimate) e = vc_estimate_new ();
      g_autoptr(GError) error = NULL;
      const VcInputs *in;
      const VcGpu *gpu;
      const VcGpuFit *fit;
      const VcResult *r;
      VcInputs at, on;
      VcLayoutResult plain;
      double capacity, extra = -1, bytes;
      guint i;

      g_assert_true (vc_estimate_set_preset (e, cases[c].preset, &error));
      g_object_set (e, "method", VC_METHOD_ARCHITECTURE, "engine", VC_ENGINE_VLLM, "precision", VC_PRECISION_MXFP4,
                    "seq", 8192, NULL);
      in = vc_estimate_get_inputs (e);
      i = vc_test_gpu_index (e, cases[c].gpu);
      gpu = vc_estimate_get_gpu (e, i);
      capacity = vc_engine_gpu_capacity (in, gpu);
      for (guint t = 0; t < 3; t++)
        {
          g_assert_true (vc_engine_vllm_mxfp4_extra (in, gpu, counts[t], &extra));
          g_assert_cmpfloat (extra, ==, cases[c].padding[t]);
        }

      /* the table: the smallest layout with its padding, whose busiest GPU holds it */
      fit = vc_estimate_get_gpu_fit (e, i);
      g_assert_cmpfloat (fit->count, ==, cases[c].count);
      g_assert_cmpuint (fit->layout.tp, ==, cases[c].count);
      g_assert_cmpuint (fit->layout.pp, ==, 1);
      g_assert_cmpfloat (fit->per_gpu_bytes, ==, cases[c].per_gpu);
      g_assert_true (fit->fits == (cases[c].count == 1));
      r = vc_estimate_get_result (e);
      /* an A100 takes vLLM's small-card batch (2,048 tokens, 256 sequences) */
      vc_engine_on_card (in, gpu, &on);
      g_assert_cmpuint (on.max_num_batched_tokens, ==, 2048);
      g_assert_cmpuint (on.max_num_seqs, ==, 256);
      at = on;
      at.layout = fit->layout;
      g_assert_true (vc_layout_compute (&at, r, r->selected, &plain, NULL));
      g_assert_true (vc_engine_vllm_mxfp4_extra (in, gpu, fit->layout.tp, &extra));
      g_assert_cmpfloat (fit->per_gpu_bytes, ==, plain.reserved + extra);

      /* the solver on 1, 2 and 4 cards: fewer requests than the capacity alone allows */
      for (guint t = 0; t < 3; t++)
        {
          VcSolution with_card, alone;

          vc_solver_solve_memo (NULL, gpu, in, VC_SOLVE_VARIABLE_CONCURRENCY, capacity, counts[t], &with_card);
          vc_solver_solve_memo (NULL, NULL, &on, VC_SOLVE_VARIABLE_CONCURRENCY, capacity, counts[t], &alone);
          g_assert_true (with_card.found == (cases[c].solved[t] > 0));
          g_assert_cmpuint (with_card.value, ==, cases[c].solved[t]);
          g_assert_true (alone.found == (cases[c].plain[t] > 0));
          g_assert_cmpuint (alone.value, ==, cases[c].plain[t]);
          if (with_card.found)
            {
              g_assert_true (vc_solver_fits_at_memo (NULL, gpu, in, VC_SOLVE_VARIABLE_CONCURRENCY, with_card.value,
                                                     capacity, counts[t], &bytes));
              g_assert_cmpfloat (bytes, <=, vc_engine_usable_bytes (in, capacity, vc_estimate_get_selected (e)->bytes[VC_COMPONENT_OVERHEAD]));
            }
          /* where the stored weights fit and the padded ones do not, the card is refused */
          g_assert_false (vc_solver_fits_at_memo (NULL, gpu, in, VC_SOLVE_VARIABLE_CONCURRENCY, with_card.value + 1,
                                                  capacity, counts[t], &bytes));
        }
    }
}

/* A vision encoder under tensor parallelism (FORMULAS.md, "One inventory of tensors"): vLLM and
 * SGLang divide the tower's parallel layers over the ranks and keep the rest whole; llama.cpp
 * and the breakdown without an engine keep it all whole on every GPU. */
static double
rank_weights (const char *preset,
              const char *engine,
              const char *tp)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new (preset, "engine", engine, "tp", tp, NULL);

  /* the busiest GPU's */
  return vc_estimate_get_layout_result (e)->bytes[VC_COMPONENT_WEIGHTS];
}

static void
test_encoder_tp (void)
{
  g_autoptr(VcEstimate) gemma = vc_test_estimate_new ("gemma-3-27b-it", NULL);
  g_autoptr(VcEstimate) scout = vc_test_estimate_new ("llama-4-scout-17b-16e", NULL);
  const VcArch *g = &vc_estimate_get_inputs (gemma)->arch;
  const VcArch *s = &vc_estimate_get_inputs (scout)->arch;
  double whole;

  /* Gemma 3 27B's SigLIP tower and projector: 27 layers of 4h² + 3h + 2hI + I (h 1,152, I 4,304)
   * and the 4,096 positions divided, the same in both engines' siglip.py */
  g_assert_cmpuint (g->encoder_params, ==, 423060336);
  g_assert_cmpuint (g->encoder_vllm_tp_params, ==, 27u * 15232592 + 4096 * 1152);
  g_assert_cmpuint (g->encoder_vllm_tp_params, ==, 415998576);
  g_assert_cmpuint (g->encoder_sglang_tp_params, ==, 415998576);
  /* Llama 4 Scout's: the projector (4,096 → 5,120) divided by vLLM only */
  g_assert_cmpuint (s->encoder_params, ==, 871932416);
  g_assert_cmpuint (s->encoder_vllm_tp_params, ==, 870825728);
  g_assert_cmpuint (s->encoder_sglang_tp_params, ==, 870825728 - 4096 * 5120);

  /* Gemma 3 27B at TP 4: a rank holds 415,998,576 / 4 + 7,061,760 of the encoder's parameters,
   * 623,997,864 bytes fewer than whole (the published row vllm-gemma3-27b-tp4-weights), beside
   * the engine's RoPE tables on every rank: 377,487,360 bytes in bf16 (vLLM), twice that in fp32
   * (SGLang) */
  whole = rank_weights ("gemma-3-27b-it", "generic", "4");
  g_assert_cmpfloat (whole, ==, 14352653536.0);
  g_assert_cmpfloat (rank_weights ("gemma-3-27b-it", "transformers", "4"), ==, whole);
  g_assert_cmpfloat (rank_weights ("gemma-3-27b-it", "vllm", "4"), ==, 13728655672.0 + 377487360.0);
  g_assert_cmpfloat (rank_weights ("gemma-3-27b-it", "vllm", "4"), ==,
                     whole - 2.0 * (423060336 - (415998576 / 4 + 7061760)) + 377487360.0);
  g_assert_cmpfloat (rank_weights ("gemma-3-27b-it", "sglang", "4"), ==, 13728655672.0 + 754974720.0);
  /* at TP 1 nothing is divided */
  g_assert_cmpfloat (rank_weights ("gemma-3-27b-it", "vllm", "1"), ==,
                     rank_weights ("gemma-3-27b-it", "generic", "1") + 377487360.0);

  /* Llama 4 Scout at TP 2: vLLM 870,825,728 bytes fewer than whole a rank, SGLang its
   * projector's 20,971,520 parameters (41,943,040 bytes) fewer less than that; the base
   * checkpoint's 262,144 positions give RoPE tables of 67,108,864 bytes (vLLM) and 134,217,728
   * (SGLang) a rank */
  whole = rank_weights ("llama-4-scout-17b-16e", "generic", "2");
  g_assert_cmpfloat (whole, ==, 109518154752.0);
  g_assert_cmpfloat (rank_weights ("llama-4-scout-17b-16e", "vllm", "2"), ==, 108647329024.0 + 67108864.0);
  g_assert_cmpfloat (rank_weights ("llama-4-scout-17b-16e", "vllm", "2"), ==, whole - 870825728.0 + 67108864.0);
  g_assert_cmpfloat (rank_weights ("llama-4-scout-17b-16e", "sglang", "2"), ==, 108668300544.0 + 134217728.0);
  g_assert_cmpfloat (rank_weights ("llama-4-scout-17b-16e", "sglang", "2"), ==, whole - 849854208.0 + 134217728.0);

  /* --explain says it */
  {
    g_autoptr(VcEstimate) e = vc_test_estimate_new ("gemma-3-27b-it", "engine", "vllm", "tp", "4", NULL);
    g_autofree char *text = vc_formula_describe (e, vc_estimate_get_result (e)->selected, VC_COMPONENT_WEIGHTS,
                                                 VC_UNIT_GB);

    g_assert_nonnull (strstr (text, "; of the vision encoder’s 423.1M parameters, the 416.0M of vLLM’s parallel "
                                    "layers divided over the 4 tensor-parallel ranks, the rest whole on each"));
  }

  /* the split cannot exceed the encoder */
  {
    g_autoptr(GError) error = NULL;

    g_assert_true (vc_estimate_set_from_string (gemma, "encoder-params", "1000", &error));
    g_assert_false (vc_estimate_check (gemma, &error));
    g_assert_cmpstr (error->message, ==, "encoder-vllm-tp-params (415998576) and encoder-sglang-tp-params "
                                         "(415998576) cannot exceed encoder-params (1000)");
  }
}

/* Mistral Small 3.1's Pixtral tower (h 1,024, I 4,096, 24 layers) and projector (text width
 * 5,120): both engines divide each layer's 4h² + 3hI, vLLM its projector's linear_1 and
 * linear_2 too (mistral3.py), SGLang none of transformers' projector */
static void
test_encoder_tp_pixtral (void)
{
  g_autoptr(VcEstimate) m = vc_test_estimate_new ("mistral-small-3.1-24b-instruct", NULL);
  const VcArch *a = &vc_estimate_get_inputs (m)->arch;
  double rope_vllm, rope_sglang, whole;

  g_assert_cmpuint (a->encoder_params, ==, 438958080);
  g_assert_cmpuint (a->encoder_sglang_tp_params, ==, 24u * (4 * 1024 * 1024 + 3 * 1024 * 4096));
  g_assert_cmpuint (a->encoder_sglang_tp_params, ==, 402653184);
  g_assert_cmpuint (a->encoder_vllm_tp_params, ==, 402653184 + 1024 * 5120 + 5120 * 5120);
  g_assert_cmpuint (a->encoder_vllm_tp_params, ==, 434110464);
  rope_vllm = rank_weights ("mistral-small-3.1-24b-instruct", "vllm", "1")
              - rank_weights ("mistral-small-3.1-24b-instruct", "generic", "1");
  rope_sglang = rank_weights ("mistral-small-3.1-24b-instruct", "sglang", "1")
                - rank_weights ("mistral-small-3.1-24b-instruct", "generic", "1");
  g_assert_cmpfloat (rope_vllm, ==, 33554432.0);
  g_assert_cmpfloat (rope_sglang, ==, 67108864.0);
  /* a rank at TP 2 holds the divided share's half: 434,110,464 bytes (vLLM) and 402,653,184
   * (SGLang) fewer than whole; at TP 4 three quarters of it fewer */
  whole = rank_weights ("mistral-small-3.1-24b-instruct", "generic", "2");
  g_assert_cmpfloat (whole, ==, 24450734080.0);
  g_assert_cmpfloat (rank_weights ("mistral-small-3.1-24b-instruct", "vllm", "2"), ==,
                     whole - 434110464.0 + rope_vllm);
  g_assert_cmpfloat (rank_weights ("mistral-small-3.1-24b-instruct", "sglang", "2"), ==,
                     whole - 402653184.0 + rope_sglang);
  whole = rank_weights ("mistral-small-3.1-24b-instruct", "generic", "4");
  g_assert_cmpfloat (whole, ==, 12664739840.0);
  g_assert_cmpfloat (rank_weights ("mistral-small-3.1-24b-instruct", "vllm", "4"), ==,
                     whole - 651165696.0 + rope_vllm);
  g_assert_cmpfloat (rank_weights ("mistral-small-3.1-24b-instruct", "sglang", "4"), ==,
                     whole - 603979776.0 + rope_sglang);
  /* Transformers keeps the encoder whole */
  g_assert_cmpfloat (rank_weights ("mistral-small-3.1-24b-instruct", "transformers", "4"), ==, whole);
}

/* Qwen3-VL's tower: both engines divide each block's qkv with its bias, proj, fc1 with its bias
 * and fc2 (4h² + 3h + 2hI + I) and, in the merger and the three deepstack mergers, fc1 with its
 * bias and fc2's weight (M² + M + M·out, M = 4h); the patch embedding, the positions, the
 * LayerNorms and the row-parallel biases stay whole (vLLM and SGLang qwen3_vl.py). vLLM's
 * --mm-encoder-tp-mode data replicates all of it. The 4B and 8B presets carry rope_scaling's
 * mrope_section, so vLLM's MRotaryEmbedding table (max_position_embeddings × 4 = 1,048,576 rows
 * of 128 bf16 values, 268,435,456 bytes) is on each of its ranks; SGLang's is not followed (no
 * bytes), nor any table of the 2B and 30B-A3B presets, which have none. */
static void
test_encoder_tp_qwen3_vl (void)
{
  static const struct {
    const char *preset;
    guint params, split;
    double whole2, whole4, rope;
  } models[] = {
    { "qwen3-vl-2b-instruct", 406957056, 24u * 12590080 + 4u * 25169920, 2534612992.0, 1674387456.0, 0 },
    { "qwen3-vl-4b-instruct", 415347712, 24u * 12590080 + 4u * 27267072, 4853359616.0, 2842223616.0,
      1048576 * 128 * 2.0 },
    { "qwen3-vl-8b-instruct", 576388336, 27u * 15232592 + 4u * 40112640, 9343820256.0, 5248606688.0,
      1048576 * 128 * 2.0 },
    { "qwen3-vl-30b-a3b-instruct", 538631408, 27u * 15232592 + 4u * 30675456, 31622179296.0, 16362514912.0, 0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (models); i++)
    {
      const char *p = models[i].preset;
      g_autoptr(VcEstimate) m = vc_test_estimate_new (p, NULL);
      g_autoptr(VcEstimate) data = vc_test_estimate_new (p, "engine", "vllm", "tp", "2", "mm-encoder-tp-mode", "data",
                                                         NULL);
      const VcArch *a = &vc_estimate_get_inputs (m)->arch;
      g_autoptr(GError) error = NULL;
      double split = models[i].split;

      g_assert_cmpuint (a->encoder_params, ==, models[i].params);
      g_assert_cmpuint (a->encoder_vllm_tp_params, ==, models[i].split);
      g_assert_cmpuint (a->encoder_sglang_tp_params, ==, models[i].split);
      g_assert_true (a->encoder_vllm_data);
      g_assert_cmpuint (a->encoder_vllm_data_tp_params, ==, 0);
      /* beside vLLM's table, the engines differ from the breakdown by the encoder's split alone:
       * 16-bit bytes, half of them fewer a rank at TP 2, three quarters at TP 4 */
      g_assert_cmpfloat (rank_weights (p, "vllm", "1"), ==, rank_weights (p, "generic", "1") + models[i].rope);
      g_assert_cmpfloat (rank_weights (p, "generic", "2"), ==, models[i].whole2);
      g_assert_cmpfloat (rank_weights (p, "generic", "4"), ==, models[i].whole4);
      g_assert_cmpfloat (rank_weights (p, "vllm", "2"), ==, models[i].whole2 - split + models[i].rope);
      g_assert_cmpfloat (rank_weights (p, "sglang", "2"), ==, models[i].whole2 - split);
      g_assert_cmpfloat (rank_weights (p, "vllm", "4"), ==, models[i].whole4 - 1.5 * split + models[i].rope);
      g_assert_cmpfloat (rank_weights (p, "sglang", "4"), ==, models[i].whole4 - 1.5 * split);
      g_assert_cmpfloat (rank_weights (p, "transformers", "4"), ==, models[i].whole4);
      /* data: the tower whole on each rank again, beside vLLM's table */
      g_assert_true (vc_estimate_check (data, &error));
      g_assert_no_error (error);
      g_assert_cmpfloat (vc_estimate_get_layout_result (data)->bytes[VC_COMPONENT_WEIGHTS], ==,
                         models[i].whole2 + models[i].rope);
      if (i == 2)
        {
          g_autofree char *text = vc_formula_describe (data, vc_estimate_get_result (data)->selected,
                                                       VC_COMPONENT_WEIGHTS, VC_UNIT_GB);

          g_assert_nonnull (strstr (text, "; of the vision encoder’s 576.4M parameters, with vLLM’s "
                                          "--mm-encoder-tp-mode data all whole on each of the 2 tensor-parallel ranks"));
        }
    }
}

/* vLLM's --mm-encoder-tp-mode data: Llama 4's tower replicated on every rank, its projector's
 * linear_1 (4,096 → 5,120, a ColumnParallelLinear whatever the mode) still divided; refused
 * for another engine, a model without an encoder, and one whose vLLM class falls back to
 * weights (Gemma 3, Mistral 3) */
static void
test_encoder_tp_data (void)
{
  g_autoptr(VcEstimate) scout = vc_test_estimate_new ("llama-4-scout-17b-16e", "engine", "vllm", "tp", "2",
                                                      "mm-encoder-tp-mode", "data", NULL);
  const VcArch *s = &vc_estimate_get_inputs (scout)->arch;
  g_autoptr(GError) error = NULL;
  double whole = rank_weights ("llama-4-scout-17b-16e", "generic", "2");

  g_assert_true (s->encoder_vllm_data);
  g_assert_cmpuint (s->encoder_vllm_data_tp_params, ==, 4096 * 5120);
  /* a rank holds 871,932,416 − 20,971,520 / 2 parameters of the encoder: 20,971,520 bytes fewer
   * than whole, and 849,854,208 more than with the weights divided; the 67,108,864-byte RoPE
   * table beside */
  g_assert_cmpfloat (vc_estimate_get_layout_result (scout)->bytes[VC_COMPONENT_WEIGHTS], ==,
                     whole - 20971520.0 + 67108864.0);
  g_assert_cmpfloat (vc_estimate_get_layout_result (scout)->bytes[VC_COMPONENT_WEIGHTS], ==,
                     rank_weights ("llama-4-scout-17b-16e", "vllm", "2") + 849854208.0);
  {
    g_autofree char *text = vc_formula_describe (scout, vc_estimate_get_result (scout)->selected,
                                                 VC_COMPONENT_WEIGHTS, VC_UNIT_GB);

    g_assert_nonnull (strstr (text, "; of the vision encoder’s 871.9M parameters, with vLLM’s --mm-encoder-tp-mode "
                                    "data the tower whole on each of the 2 tensor-parallel ranks and the 21.0M of its "
                                    "projector’s parallel layers divided over them"));
  }

  g_assert_true (vc_estimate_set_from_string (scout, "engine", "sglang", &error));
  g_assert_false (vc_estimate_check (scout, &error));
  g_assert_cmpstr (error->message, ==, "the encoder TP mode data is vLLM’s (--mm-encoder-tp-mode data); the engine "
                                       "is sglang: give the engine vllm, or the encoder TP mode weights");
  g_clear_error (&error);
  {
    g_autoptr(VcEstimate) gemma = vc_test_estimate_new ("gemma-3-27b-it", "engine", "vllm", "tp", "2",
                                                        "mm-encoder-tp-mode", "data", NULL);
    g_autoptr(VcEstimate) mistral = vc_test_estimate_new ("mistral-small-3.1-24b-instruct", "engine", "vllm", "tp", "2",
                                                          "mm-encoder-tp-mode", "data", NULL);
    g_autoptr(VcEstimate) llama = vc_test_estimate_new ("llama-3-8b", "engine", "vllm", "tp", "2",
                                                        "mm-encoder-tp-mode", "data", NULL);

    g_assert_false (vc_estimate_check (gemma, &error));
    g_assert_cmpstr (error->message, ==, "the encoder TP mode data is followed for Llama 4 and Qwen3-VL, whose vLLM "
                                         "classes replicate the tower (supports_encoder_tp_data); for Gemma 3 and "
                                         "Mistral 3 "
                                         "vLLM falls back to --mm-encoder-tp-mode weights, and other classes are not "
                                         "read here: give the encoder TP mode weights");
    g_clear_error (&error);
    g_assert_false (vc_estimate_check (mistral, &error));
    g_assert_true (g_str_has_prefix (error->message, "the encoder TP mode data is followed for Llama 4 and Qwen3-VL"));
    g_clear_error (&error);
    g_assert_false (vc_estimate_check (llama, &error));
    g_assert_cmpstr (error->message, ==, "the encoder TP mode data replicates a vision encoder, and this model has "
                                         "none counted; give the encoder TP mode weights");
  }
}

static void
test_encoder (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_VLLM, 8192);
  double C = 81121 * 1048576.0;
  guint h100 = vc_test_gpu_index (e, "h100-80gb");
  const VcScenarioResult *sc;
  VcEngineAtLayout at;
  VcKvCapacity kv;

  g_object_set (e, "encoder-params", 400000000, NULL);
  sc = vc_estimate_get_selected (e);
  g_assert_cmpfloat (sc->bytes[VC_COMPONENT_WEIGHTS], ==, 8030261248.0 * 2 + 400000000.0 * 2 + sc->rope_table);
  g_assert_cmpfloat (sc->rope_table, ==, 8192 * 128 * 2.0);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e),
                       vc_estimate_get_gpu (e, h100), 1, &at);
  g_assert_false (at.known);

  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor (20e9 / (16 * KV_PER_TOKEN)) * 16);
  g_assert_cmpfloat (kv.tokens, ==, 152576);
  g_object_set (e, "kv-cache-memory", 0.0, NULL);

  g_object_set (e, "engine", VC_ENGINE_SGLANG, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
  g_object_set (e, "mem-fraction-static", 0.85, NULL);
  sc = vc_estimate_get_selected (e);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.85 * (C - sc->bytes[VC_COMPONENT_OVERHEAD]) -
                                            sc->bytes[VC_COMPONENT_WEIGHTS]) / KV_PER_TOKEN));
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e),
                       vc_estimate_get_gpu (e, h100), 1, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.tokens, ==, kv.tokens);

  /* SGLang's own fraction lowered for a vision model (adjust_mem_fraction_for_vlm, FORMULAS.md,
   * "Multimodal models"), once the encoder's layers and width are known: Gemma 3's 27 layers of
   * 1,152 are 27 × 1,152² / (24 × 1,024²) = 1.423828125 ViT-L/14s, so 0.95 × (1 − 0.1 ×
   * 0.423828125) = 0.909736328125 of the H100's 0.835; one of them alone leaves it unknown */
  g_object_set (e, "mem-fraction-static", 0.0, "encoder-layers", 27, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_false (kv.known);
  g_assert_cmpfloat (vc_engine_sglang_vlm_factor (&vc_estimate_get_inputs (e)->arch), ==, 1);
  g_object_set (e, "encoder-width", 1152, NULL);
  g_assert_cmpfloat_with_epsilon (vc_engine_sglang_vlm_factor (&vc_estimate_get_inputs (e)->arch),
                                  0.909736328125, 1e-15);
  g_assert_cmpfloat_with_epsilon (vc_engine_sglang_fraction (vc_estimate_get_inputs (e), 81559, 1),
                                  0.759629833984375, 1e-15);
  sc = vc_estimate_get_selected (e);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.835 * 0.909736328125 * (C - sc->bytes[VC_COMPONENT_OVERHEAD]) -
                                            sc->bytes[VC_COMPONENT_WEIGHTS]) / KV_PER_TOKEN));
  g_assert_cmpfloat (kv.tokens, ==, 358512);
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e),
                       vc_estimate_get_gpu (e, h100), 1, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.tokens, ==, kv.tokens);
  /* the clamp: Llama 4's 34 layers of 1,408 (2.678 ViT-L/14s) take 0.95 × 0.8321614583…; a
   * tower of 80 layers of 4,096 would go below 0.8 and takes 0.95 × 0.8; a small one above 1.05
   * takes 0.95 × 1.05 */
  g_object_set (e, "encoder-layers", 34, "encoder-width", 1408, NULL);
  g_assert_cmpfloat_with_epsilon (vc_engine_sglang_vlm_factor (&vc_estimate_get_inputs (e)->arch),
                                  0.95 * (1 - 0.1 * (34.0 * 1408 * 1408 / (24.0 * 1024 * 1024) - 1)), 1e-15);
  g_assert_cmpfloat_with_epsilon (vc_engine_sglang_vlm_factor (&vc_estimate_get_inputs (e)->arch),
                                  0.790553385416667, 1e-12);
  g_object_set (e, "encoder-layers", 80, "encoder-width", 4096, NULL);
  g_assert_cmpfloat_with_epsilon (vc_engine_sglang_vlm_factor (&vc_estimate_get_inputs (e)->arch), 0.76, 1e-15);
  g_object_set (e, "encoder-layers", 1, "encoder-width", 64, NULL);
  g_assert_cmpfloat_with_epsilon (vc_engine_sglang_vlm_factor (&vc_estimate_get_inputs (e)->arch), 0.9975, 1e-15);
  /* a model SGLang serves without images by default (its Gemma 3 and Llama 4 classes) keeps
   * the text model's default, its encoder's weights counted all the same */
  g_object_set (e, "encoder-layers", 27, "encoder-width", 1152, "sglang-multimodal-off", TRUE, NULL);
  g_assert_cmpfloat (vc_engine_sglang_vlm_factor (&vc_estimate_get_inputs (e)->arch), ==, 1);
  g_assert_cmpfloat (vc_engine_sglang_fraction (vc_estimate_get_inputs (e), 81559, 1), ==, 0.835);
  sc = vc_estimate_get_selected (e);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.835 * (C - sc->bytes[VC_COMPONENT_OVERHEAD]) -
                                            sc->bytes[VC_COMPONENT_WEIGHTS]) / KV_PER_TOKEN));
  g_object_set (e, "encoder-layers", 0, "encoder-width", 0, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_object_set (e, "sglang-multimodal-off", FALSE, NULL);
  /* a fraction given is taken as given */
  g_object_set (e, "mem-fraction-static", 0.85, NULL);
  g_assert_cmpfloat (vc_engine_sglang_fraction (vc_estimate_get_inputs (e), 81559, 1), ==, 0.85);
  g_object_set (e, "encoder-layers", 0, "encoder-width", 0, NULL);

  /* llama.cpp allocates the context asked for: the encoder is one more weight */
  g_object_set (e, "engine", VC_ENGINE_LLAMA_CPP, NULL);
  vc_engine_at_layout (vc_estimate_get_inputs (e), vc_estimate_get_layout_result (e),
                       vc_estimate_get_gpu (e, h100), 1, &at);
  g_assert_true (at.known);
}

static void
test_sglang (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_SGLANG, 8192);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  const VcInputs *in = vc_estimate_get_inputs (e);
  double C = 81121 * 1048576.0;
  double W = sc->bytes[VC_COMPONENT_WEIGHTS], O = sc->bytes[VC_COMPONENT_OVERHEAD];
  VcKvCapacity kv;

  /* SGLang's own mem_fraction_static from the card's memory (nvidia-smi's MiB) and TP: an
   * H100 (81,559 MiB) keeps 512 + 8192 × 1.5 + 256 × 2 + 1024 / 8 = 13,440 MiB out at TP 1,
   * 512 + 12,288 + 512 × 2 + 512 = 14,336 at TP 4; an RTX 4090 (24,564 MiB) 512 + 2048 × 1.5
   * + 24 × 2 + 128 = 3,760; a B200 (over 160 GiB) 512 + 16384 × 1.5 + 512 × 2 + 128 */
  g_assert_cmpfloat (vc_engine_sglang_fraction (in, 81559, 1), ==, 0.835);
  g_assert_cmpfloat (vc_engine_sglang_fraction (in, 81559, 4), ==, 0.824);
  g_assert_cmpfloat (vc_engine_sglang_fraction (in, 24564, 1), ==, 0.847);
  g_assert_cmpfloat (vc_engine_sglang_fraction (in, 183359, 1), ==,
                     round ((183359 - 26240.0) / 183359 * 1000) / 1000);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.835 * (C - O) - W) / KV_PER_TOKEN));

  /* rest = (total − weights) − total × (1 − 0.85), total = C − the CUDA context; cells of
   * 131,072 bytes; pages of 1 token, then of 64 */
  g_object_set (e, "mem-fraction-static", 0.85, NULL);
  g_assert_cmpfloat (vc_engine_sglang_fraction (in, 81559, 1), ==, 0.85);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor ((0.85 * (C - O) - W) / KV_PER_TOKEN));
  g_assert_cmpfloat (kv.max_concurrency, ==, kv.tokens / 8192);
  g_object_set (e, "page-size", 64, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor (floor ((0.85 * (C - O) - W) / KV_PER_TOKEN) / 64) * 64);

  /* half the layers windowed (4096 tokens): SGLang's hybrid SWA pool, the sliding layers'
   * pool 0.8 times the full one; a cell of 16 full layers and 0.8 × 16 sliding ones of
   * 4,096 bytes a token each; both pools in whole pages; a request holds its window (and a
   * page) in the sliding pool */
  g_object_set (e, "sliding-window", 4096, "sliding-window-layers", 16, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  {
    /* SGLang 001ccef (the default) aligns the tokens of every layer to whole pages first */
    double every = 4096.0 * 32, rest = 0.85 * (C - O) - W;
    double full = floor (floor (floor (floor (rest / every) / 64) * 64 * every / (4096.0 * (16 + 0.8 * 16))) / 64) * 64;
    double swa = floor (floor (full * 0.8) / 64) * 64;

    g_assert_cmpfloat (kv.tokens, ==, full);
    g_assert_cmpfloat (kv.max_concurrency, ==, MIN (full / 8192, swa / (4096 + 64)));
    g_assert_cmpfloat (kv.tokens, ==, 469440);
  }
  /* the same pools at the layout of the inputs (one GPU); a pipeline's stages are not followed */
  {
    VcEngineAtLayout at;
    guint h100 = vc_test_gpu_index (e, "h100-80gb");

    vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, h100), 1, &at);
    g_assert_true (at.known);
    g_assert_cmpfloat (at.tokens, ==, 469440);
    g_assert_cmpfloat (at.available_kv_bytes, ==, 0.85 * (C - O) - W);
    g_object_set (e, "pp", 2, NULL);
    in = vc_estimate_get_inputs (e);
    vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, h100), 2, &at);
    g_assert_false (at.known);
    g_object_set (e, "pp", 1, NULL);
    in = vc_estimate_get_inputs (e);
  }
  /* every layer windowed: one pool, as without windows */
  g_object_set (e, "sliding-window-layers", 32, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_cmpfloat (kv.tokens, ==, floor (floor ((0.85 * (C - O) - W) / KV_PER_TOKEN) / 64) * 64);
  /* a pool too small for one window and a page holds nothing */
  g_object_set (e, "sliding-window-layers", 16, "sliding-window", 1000000, NULL);
  capacity_on (e, "h100-80gb", &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, 0);
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

/* Over presets × engines × TP degrees × cards: each card's row (its count at its layout) has a
 * capacity in whole blocks or pages, never negative or NaN, that does not grow with a larger
 * profile run or shrink with a larger share; a row of several pipeline stages has none for a
 * model with sliding-window layers (the engines' groups and pools are followed on one stage) */
static void
test_kv_capacity_invariants (void)
{
  static const char *const presets[] = { "llama-3.2-1b", "qwen3-8b", "mistral-7b", "gemma-2-9b", "mixtral-8x7b",
                                          "llama-3.1-70b", "deepseek-r1" };
  static const VcEngine engines[] = { VC_ENGINE_VLLM, VC_ENGINE_SGLANG };
  static const guint tps[] = { 1, 2, 8 };

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    for (guint e = 0; e < G_N_ELEMENTS (engines); e++)
      for (guint t = 0; t < G_N_ELEMENTS (tps); t++)
        {
          g_autoptr(VcEstimate) est = vc_estimate_new ();
          g_autoptr(GError) error = NULL;
          const VcInputs *in;
          const VcResult *r;

          g_assert_true (vc_estimate_set_preset (est, presets[p], &error));
          g_object_set (est, "method", VC_METHOD_ARCHITECTURE, "engine", engines[e], "tp", tps[t],
                        "seq", 4096, "block-size", 32, "page-size", 16, NULL);
          in = vc_estimate_get_inputs (est);
          r = vc_estimate_get_result (est);
          for (guint g = 0; g < vc_estimate_get_n_gpus (est); g++)
            {
              const VcGpu *gpu = vc_estimate_get_gpu (est, g);
              VcGpuFit fit = *vc_estimate_get_gpu_fit (est, g);
              gboolean sliding = in->arch.sliding_window > 0 && in->arch.sliding_window_layers > 0;
              VcKvCapacity kv, more_seqs, more_share, less_share;
              guint unit = engines[e] == VC_ENGINE_VLLM ? 32 : 16;
              const char *share = engines[e] == VC_ENGINE_VLLM ? "memory-fraction" : "mem-fraction-static";

              if (fit.count <= 0)
                fit.count = 1, fit.layout.tp = fit.layout.pp = 1;
              vc_engine_kv_capacity_fit (in, r, &r->scenarios[r->selected], gpu, &fit, &kv);
              /* both engines size models with sliding-window layers beside full ones (vLLM's
               * hybrid allocator, SGLang's SWA pool) on one stage */
              if (sliding && fit.layout.pp > 1)
                {
                  g_assert_false (kv.known);
                  continue;
                }
              g_assert_true (kv.known);
              g_assert_true (isfinite (kv.tokens) && kv.tokens >= 0);
              g_assert_cmpfloat (fmod (kv.tokens, unit), ==, 0);
              g_assert_true (isfinite (kv.max_concurrency) && kv.max_concurrency >= 0);
              if (in->arch.sliding_window == 0 || in->arch.sliding_window_layers == 0)
                g_assert_cmpfloat (kv.max_concurrency, ==, kv.tokens / 4096);

              g_object_set (est, "max-num-seqs", engines[e] == VC_ENGINE_VLLM ? 4096 : 0,
                            "memory-fraction", 0.9, NULL);
              in = vc_estimate_get_inputs (est);
              r = vc_estimate_get_result (est);
              vc_engine_kv_capacity_fit (in, r, &r->scenarios[r->selected], gpu, &fit, &more_seqs);
              /* with pipeline stages too: vLLM's fewest blocks over the stages, each stage
               * counting the same profile run (once the busiest stage's, which a larger profile
               * run could make another) */
              g_assert_cmpfloat (more_seqs.tokens, <=, kv.tokens);
              g_object_set (est, "max-num-seqs", 0, share, 0.6, NULL);
              in = vc_estimate_get_inputs (est);
              r = vc_estimate_get_result (est);
              vc_engine_kv_capacity_fit (in, r, &r->scenarios[r->selected], gpu, &fit, &more_share);
              g_object_set (est, share, 0.4, NULL);
              in = vc_estimate_get_inputs (est);
              r = vc_estimate_get_result (est);
              vc_engine_kv_capacity_fit (in, r, &r->scenarios[r->selected], gpu, &fit, &less_share);
              g_assert_cmpfloat (less_share.tokens, <=, more_share.tokens);
              g_object_set (est, "memory-fraction", 0.9, "mem-fraction-static", 0.0, NULL);
              in = vc_estimate_get_inputs (est);
              r = vc_estimate_get_result (est);
            }
        }
}

/* The GPU table's rows of several pipeline stages, as the engines size them. SGLang: the
 * search holds each layout against SGLang's share at that layout (its default
 * mem_fraction_static keeps tp × pp / 8 GiB more out of its pool, server_args.py), so every row
 * of the large models on every catalog card that fits holds the sequence asked for (once some
 * rows "fit" with a pool of 0 tokens: the share of the inputs' TP 1 × PP 1) */
static void
test_multi_stage_rows (void)
{
  static const char *const presets[] = { "llama-3.1-70b", "llama-3.1-405b", "qwen3-235b-a22b", "deepseek-v3" };
  guint rows = 0, staged = 0;

  for (guint p = 0; p < G_N_ELEMENTS (presets); p++)
    {
      g_autoptr(VcEstimate) e = vc_test_estimate_new (presets[p], "engine", "sglang", "seq", "8192", NULL);
      const VcInputs *in = vc_estimate_get_inputs (e);
      const VcResult *r = vc_estimate_get_result (e);

      for (guint g = 0; g < vc_estimate_get_n_gpus (e); g++)
        {
          const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, g);
          VcKvCapacity kv;

          if (fit->count <= 0)
            continue;
          vc_engine_kv_capacity_fit (in, r, &r->scenarios[r->selected], vc_estimate_get_gpu (e, g), fit, &kv);
          if (!kv.known)
            continue;
          rows++;
          staged += fit->layout.pp > 1;
          if (kv.tokens < 8192)
            g_error ("%s on %.0f × %s (TP %u × PP %u): the row fits, its pool holds %.0f tokens", presets[p], fit->count,
                     vc_estimate_get_gpu (e, g)->name, fit->layout.tp, fit->layout.pp, kv.tokens);
        }
    }
  g_test_message ("SGLang: %u rows, %u of several stages", rows, staged);
  g_assert_cmpuint (staged, >, 0);
}

/* vLLM's rows of several stages: every worker
 * allocates the fewest blocks of any stage (get_kv_cache_configs), computed here stage by stage
 * from vc_layout_stage_bytes_tp(); on equal cards one a stage it is the plan's figure
 * (plan_vllm_stages); Qwen3-32B's 64 layers over 3 stages (21, 22, 21 with vLLM's partition)
 * on H100s: the middle stage, one layer more and no embedding, holds fewer blocks than the
 * last, the busiest by bytes (its head and the sampler's logits), whose figure the row once
 * took; the same at TP 2 × PP 3, the row's and the plan's on six */
static void
test_multi_stage_rows_vllm (void)
{
  {
    g_autoptr(VcEstimate) e = vc_test_estimate_new ("qwen3-32b", "engine", "vllm", "seq", "8192", NULL);
    g_autoptr(VcEstimate) set = vc_test_estimate_new ("qwen3-32b", "engine", "vllm", "seq", "8192",
                                                      "gpu-set", "h100-80gb:3", "pp", "3", NULL);
    const VcInputs *in = vc_estimate_get_inputs (e);
    const VcResult *r = vc_estimate_get_result (e);
    const VcGpu *h100 = vc_gpus_lookup ("h100-80gb");
    VcGpuFit fit = { 0 };
    VcKvCapacity kv;
    VcInputs at = *in;
    VcLayoutResult lr;
    VcEngineAtLayout busiest;
    g_autoptr(GError) error = NULL;
    VcPlan plan;
    double blocks = G_MAXDOUBLE, stage_blocks[3];
    guint batch_tokens, seqs, first = 0, fewest = 0;

    fit.count = 3;
    fit.layout = in->layout;
    fit.layout.pp = 3;
    vc_engine_kv_capacity_fit (in, r, &r->scenarios[r->selected], h100, &fit, &kv);
    g_assert_true (kv.known);

    /* the stages by hand: the request less the stage's weights and the profile run, in blocks of
     * 16 tokens of the stage's layers */
    vc_engine_on_card (&at, h100, &at);
    at.layout = fit.layout;
    vc_engine_vllm_batch (&at, h100, &batch_tokens, &seqs);
    for (guint st = 0; st < 3; st++)
      {
        guint n = vc_layout_pp_stage_size (64, 3, st);
        VcLayoutStage bytes;
        double b;

        vc_layout_stage_bytes_tp (&at, r, r->selected, first, n, st == 0, st == 2, 1, 1, &bytes);
        first += n;
        b = floor ((0.9 * vc_engine_gpu_capacity (&at, h100) - bytes.weights -
                    vc_estimator_vllm_profile_bytes (&at, batch_tokens, seqs, 1)) / (16 * bytes.kv / 8192));
        stage_blocks[st] = b;
        if (b < blocks)
          blocks = b, fewest = st;
      }
    g_assert_cmpuint (vc_layout_pp_stage_size (64, 3, 1), ==, 22);
    g_assert_cmpuint (fewest, ==, 1);
    g_assert_cmpfloat (kv.tokens, ==, blocks * 16);
    g_assert_cmpfloat (kv.max_concurrency, ==, blocks * 16 / 8192);
    g_test_message ("vLLM, Qwen3-32B on 3 × H100 at PP 3: blocks %.0f, %.0f, %.0f", stage_blocks[0], stage_blocks[1],
                    stage_blocks[2]);

    /* the busiest stage by bytes is the last (its head and the logits), whose figure is larger */
    g_assert_true (vc_layout_compute (&at, r, r->selected, &lr, NULL));
    g_assert_cmpuint (lr.busiest_stage, ==, 2);
    vc_engine_at_layout (&at, &lr, h100, 0, &busiest);
    g_assert_cmpfloat (busiest.tokens, ==, stage_blocks[2] * 16);
    g_assert_cmpfloat (kv.tokens, <, busiest.tokens);

    /* the plan over three equal cards, one a stage, gives the same cache */
    g_assert_true (vc_estimate_compute_plan (set, &plan, &error));
    g_assert_no_error (error);
    g_assert_cmpfloat (plan.kv_tokens, ==, kv.tokens);
    g_assert_cmpint (plan.bounded_by, ==, 1);
    vc_plan_clear (&plan);

    /* at TP 2 × PP 3 on six: the row and the plan both the fewest blocks over the stages */
    fit.count = 6;
    fit.layout.tp = 2;
    vc_engine_kv_capacity_fit (in, r, &r->scenarios[r->selected], h100, &fit, &kv);
    at.layout = fit.layout;
    g_assert_true (kv.known);
    g_assert_cmpfloat (kv.tokens, ==, vc_engine_vllm_stages_tokens (&at, r, r->selected, h100));
    g_assert_true (vc_layout_compute (&at, r, r->selected, &lr, NULL));
    vc_engine_at_layout (&at, &lr, h100, 0, &busiest);
    g_assert_cmpfloat (kv.tokens, <, busiest.tokens);
    g_object_set (set, "gpu-set", "h100-80gb:6", "tp", 2, NULL);
    g_assert_true (vc_estimate_compute_plan (set, &plan, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (plan.tp, ==, 2);
    g_assert_cmpuint (plan.pp, ==, 3);
    g_assert_cmpfloat (plan.kv_tokens, ==, kv.tokens);
    g_test_message ("vLLM, Qwen3-32B on 6 × H100 at TP 2 × PP 3: %.0f tokens (the busiest stage's %.0f)", kv.tokens,
                    busiest.tokens);
    vc_plan_clear (&plan);
  }
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
  /* flash attention: ggml-alloc's high-water mark is where it places the f32 logits of the 512
   * tokens, above the final norm (an output, kept) and the embedding input the token path
   * leaves unused (a graph input, allocated first): 4 × 512 × (128256 + 2 × 4096) and the
   * 2048 bytes of one int32 input of 512 tokens below them */
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     4.0 * 512 * (128256 + 2 * 4096) + 2048);
  /* without it: each stream's 128 tokens against its 1024 cells, 32 heads, f32 scores, 64 MiB:
   * still under the logits */
  g_object_set (e, "flash-attention", FALSE, NULL);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==,
                     4.0 * 512 * (128256 + 2 * 4096) + 2048);
  /* unified: one stream of 4096 cells, the scores of every token span all of them
   * (4 × 512 × 4096 × 32 = 256 MiB) with the f32 mask (8 MiB), the value indices (512 × 1024
   * int64, 4 MiB) and the layer's other tensors where they were placed: 308.01 MiB */
  g_object_set (e, "kv-unified", TRUE, NULL);
  vc_engine_llama_cpp (in, &l);
  g_assert_cmpfloat (l.n_stream, ==, 1);
  g_assert_cmpfloat (l.n_ctx_seq, ==, 4096);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE], ==, 4096 * KV_PER_TOKEN);
  g_assert_cmpfloat (vc_estimate_get_selected (e)->bytes[VC_COMPONENT_ACTIVATIONS], ==, 322971648);
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

/* The compute buffer as ggml-alloc places llama.cpp's worst-case graph, for the models and
 * contexts of tests/engines/ (gguf-models.mjs), against the size llama.cpp 3.21.1's CPU backend
 * logged for each ("CPU compute buffer size", MiB to two decimals) */
static void
test_llama_cpp_graph (void)
{
  const VcLlamaGraph dense = { .n_embd = 512, .n_head = 8, .n_head_kv = 2, .head_dim = 128, .n_ff = 1536,
                               .n_layer = 4, .n_vocab = 8192, .n_stream = 1, .alignment = 32 };
  const VcLlamaGraph bias = { .n_embd = 256, .n_head = 4, .n_head_kv = 4, .head_dim = 64, .n_ff = 768,
                              .n_layer = 3, .n_vocab = 4096, .qkv_bias = TRUE, .n_stream = 1, .alignment = 32 };
  const VcLlamaGraph swa = { .n_embd = 256, .n_head = 4, .n_head_kv = 2, .head_dim = 64, .n_ff = 768,
                             .n_layer = 4, .n_vocab = 4096, .swa = TRUE, .n_swa_pattern = 2, .n_stream = 1,
                             .alignment = 32 };
  const VcLlamaGraph moe = { .n_embd = 256, .n_head = 4, .n_head_kv = 2, .head_dim = 64, .n_ff = 256,
                             .n_layer = 2, .n_vocab = 4096, .n_expert = 8, .n_expert_used = 2, .n_ff_exp = 256,
                             .n_stream = 1, .alignment = 32 };
  struct
  {
    const VcLlamaGraph *model;
    guint n_tokens, n_stream;
    double n_kv, n_kv_swa;
    gboolean fa, k_rot, v_rot;
    double bytes, logged_mib;
  } cases[] = {
    /* -c 512, flash attention */
    { &dense, 512, 1, 512, 0, TRUE, FALSE, FALSE, 23607296, 22.51 },
    /* 4 sequences of 2500: 2560 cells a stream, -ub 2048 */
    { &dense, 2048, 4, 2560, 0, TRUE, FALSE, FALSE, 102817792, 98.05 },
    /* -c 4096 without flash attention, q8_0 keys: q and k rotated */
    { &dense, 512, 1, 4096, 0, FALSE, TRUE, FALSE, 81864704, 78.07 },
    { &bias, 512, 1, 512, 0, FALSE, FALSE, FALSE, 9963520, 9.50 },
    /* 4 sequences of 1000, -ub 2048: 1024 cells a stream in both caches */
    { &swa, 2048, 4, 1024, 1024, FALSE, FALSE, FALSE, 65069056, 62.05 },
    /* -c 4096, flash attention, q4_0 keys and values: 1536 cells of window */
    { &swa, 512, 1, 4096, 1536, TRUE, TRUE, TRUE, 12146688, 11.58 },
    { &moe, 512, 1, 512, 0, FALSE, FALSE, FALSE, 9963520, 9.50 },
    { &moe, 512, 4, 1024, 0, FALSE, TRUE, FALSE, 13133824, 12.53 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      VcLlamaGraph g = *cases[i].model;
      double bytes;

      g.n_tokens = g.n_outputs = cases[i].n_tokens;
      g.n_stream = cases[i].n_stream;
      g.n_kv = cases[i].n_kv;
      g.n_kv_swa = cases[i].n_kv_swa;
      g.flash_attn = cases[i].fa;
      g.k_rot = cases[i].k_rot;
      g.v_rot = cases[i].v_rot;
      bytes = vc_llama_graph_compute_bytes (&g);
      g_assert_cmpfloat (bytes, ==, cases[i].bytes);
      g_assert_cmpfloat (fabs (bytes - cases[i].logged_mib * 1048576.0), <=, 0.005 * 1048576.0);
    }
  /* no graph: no buffer */
  {
    VcLlamaGraph g = dense;

    g.n_tokens = 0;
    g_assert_cmpfloat (vc_llama_graph_compute_bytes (&g), ==, 0);
    g.n_tokens = 6;
    g.n_stream = 4;
    g_assert_cmpfloat (vc_llama_graph_compute_bytes (&g), ==, 0);
  }
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
                     4.0 * 1024 * (128256 + 2 * 4096) + 4096);
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

/* The custom all-reduce under TP (FORMULAS.md, "Tensor parallelism and memory outside torch"):
 * on each GPU of a group of 2, 4, 6 or 8, two cudaMalloc'd buffers of 8 MiB (the first with
 * 3,456 bytes of signals) and 8 MiB of registered pointers; SGLang reads the total its fraction
 * applies to after setting it up, vLLM 0.11 takes its snapshot after it */
static void
test_custom_all_reduce (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_SGLANG, 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  const VcResult *r;
  double C = 81121 * 1048576.0, AR = 3 * 8388608.0 + 3456;
  double W, T, O, with, without;
  guint h100;
  VcKvCapacity kv;
  VcEngineAtLayout at;
  g_autofree char *explain = NULL;

  g_assert_cmpfloat (AR, ==, 25169280);
  for (guint tp = 1; tp <= 9; tp++)
    g_assert_cmpfloat (vc_engine_custom_ar_bytes (in, tp), ==, tp == 2 || tp == 4 || tp == 6 || tp == 8 ? AR : 0);

  /* SGLang at TP 4: total = C − O − AR; 8 KV heads, 2 a GPU; a quarter of the weights */
  g_object_set (e, "tp", 4, "mem-fraction-static", 0.85, NULL);
  in = vc_estimate_get_inputs (e);
  r = vc_estimate_get_result (e);
  /* the weights split four ways but the 65 norms of 4,096 (each GPU holds them whole: three
   * quarters of their bytes more than a quarter), SGLang's fp32 RoPE table whole on each GPU */
  T = r->scenarios[r->selected].rope_table;
  g_assert_cmpfloat (T, ==, 8192 * 128 * 4.0);
  W = r->scenarios[r->selected].bytes[VC_COMPONENT_WEIGHTS] - T + 3 * 65 * 4096 * 2.0;
  O = r->scenarios[r->selected].bytes[VC_COMPONENT_OVERHEAD];
  h100 = vc_test_gpu_index (e, "h100-80gb");
  g_assert_cmpfloat (vc_engine_comm_pool_bytes (in, 4), ==, AR);
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], vc_estimate_get_gpu (e, h100), 4, &kv);
  g_assert_true (kv.known);
  with = kv.tokens;
  g_assert_cmpfloat (with, ==, floor ((0.85 * (C - O - AR) - W / 4 - T) / (KV_PER_TOKEN / 4)));
  vc_engine_at_layout (in, vc_estimate_get_layout_result (e), vc_estimate_get_gpu (e, h100), 4, &at);
  g_assert_true (at.known);
  g_assert_cmpfloat (at.budget_bytes, ==,
                     0.85 * (C - vc_estimate_get_layout_result (e)->bytes[VC_COMPONENT_OVERHEAD] - AR));
  explain = vc_formula_describe (e, r->selected, VC_COMPONENT_OVERHEAD, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "custom all-reduce at TP 4"));
  {
    /* 24.0 MiB, as GLib writes it */
    g_autofree char *size = g_format_size_full (25169280, G_FORMAT_SIZE_IEC_UNITS);
    g_autofree char *clause = g_strdup_printf ("= %s a GPU, allocated before SGLang measures", size);

    g_assert_cmpstr (size, ==, "24.0\u00a0MiB");
    g_assert_nonnull (strstr (explain, clause));
  }
  g_clear_pointer (&explain, g_free);

  /* --disable-custom-all-reduce: NCCL alone, the whole total */
  g_object_set (e, "disable-custom-all-reduce", TRUE, NULL);
  in = vc_estimate_get_inputs (e);
  r = vc_estimate_get_result (e);
  g_assert_cmpfloat (vc_engine_custom_ar_bytes (in, 4), ==, 0);
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], vc_estimate_get_gpu (e, h100), 4, &kv);
  without = kv.tokens;
  g_assert_cmpfloat (without, ==, floor ((0.85 * (C - O) - W / 4 - T) / (KV_PER_TOKEN / 4)));
  g_assert_cmpfloat (without - with, ==, 653);
  explain = vc_formula_describe (e, r->selected, VC_COMPONENT_OVERHEAD, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "no custom all-reduce (--disable-custom-all-reduce)"));
  g_clear_pointer (&explain, g_free);

  /* vLLM 0.11 allocates it before its snapshot, outside the request: the same cache either way */
  g_object_set (e, "engine", VC_ENGINE_VLLM, NULL);
  in = vc_estimate_get_inputs (e);
  r = vc_estimate_get_result (e);
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], vc_estimate_get_gpu (e, h100), 4, &kv);
  without = kv.tokens;
  g_object_set (e, "disable-custom-all-reduce", FALSE, NULL);
  in = vc_estimate_get_inputs (e);
  r = vc_estimate_get_result (e);
  g_assert_cmpfloat (vc_engine_custom_ar_bytes (in, 4), ==, AR);
  g_assert_cmpfloat (vc_engine_comm_pool_bytes (in, 4), ==, 0);
  vc_engine_kv_capacity_on (in, r, &r->scenarios[r->selected], vc_estimate_get_gpu (e, h100), 4, &kv);
  g_assert_true (kv.known);
  g_assert_cmpfloat (kv.tokens, ==, without);
  explain = vc_formula_describe (e, r->selected, VC_COMPONENT_OVERHEAD, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "before vLLM’s memory snapshot, outside the requested share"));
  /* NCCL's own buffers are said not to be counted */
  g_assert_nonnull (strstr (explain, "NCCL’s own buffers, which follow its topology search on the machine, are not counted"));
  g_clear_pointer (&explain, g_free);

  /* other engines have none, at any TP; one GPU needs none */
  g_object_set (e, "engine", VC_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpfloat (vc_engine_custom_ar_bytes (vc_estimate_get_inputs (e), 4), ==, 0);
  g_object_set (e, "engine", VC_ENGINE_SGLANG, "tp", 1, NULL);
  r = vc_estimate_get_result (e);
  explain = vc_formula_describe (e, r->selected, VC_COMPONENT_OVERHEAD, VC_UNIT_GB);
  g_assert_null (strstr (explain, "all-reduce"));
}

/* NCCL's buffers under TP and PP (FORMULAS.md, "Tensor parallelism and memory outside torch"):
 * not counted, bounded from NCCL's limits. One communicator on one GPU of a group on one
 * machine: 64 channels × 3 connections (the ring's, the tree's chain up and down) × (LL 512 KiB
 * + LL128 4,800 KiB rounded up to 6 MiB, Simple 4 MiB) = 1,920 MiB; NVLS under vLLM 0.11 and
 * later: 32 channels × 2 × 128 KiB × 8 steps = 64 MiB for each head; two communicators for each
 * of the TP and expert groups, two for the PP group with its send/recv buffers (64 channels × 2
 * × 4 MiB), one for the world */
static void
test_nccl_bound (void)
{
  g_autoptr(VcEstimate) e = llama3 (VC_ENGINE_SGLANG, 8192);
  const VcInputs *in = vc_estimate_get_inputs (e);
  const VcResult *r;
  double MiB = 1048576.0, comm = 1920 * MiB, nvls = 64 * MiB, p2p = 512 * MiB;
  g_autofree char *explain = NULL;
  g_autofree char *text = NULL;

  /* one GPU, or another engine: nothing uncounted */
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (in, 1, 1), ==, 0);
  g_assert_null (vc_engine_nccl_uncounted_text (in, 1, 1));
  /* SGLang (NCCL_NVLS_ENABLE=0): TP 4 = 5 communicators, 9.4 GiB; TP 2 × PP 2 adds the PP group */
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (in, 4, 1), ==, 5 * comm);
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (in, 2, 2), ==, 7 * comm + 2 * p2p);
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (in, 1, 2), ==, 3 * comm + 2 * p2p);
  text = vc_engine_nccl_uncounted_text (in, 4, 1);
  g_assert_cmpstr (text, ==, "NCCL’s buffers are not counted: up to 9.4\u00a0GiB less for the KV cache on each GPU "
                             "(NCCL’s channel count follows its topology search on the machine)");
  g_object_set (e, "tp", 4, NULL);
  r = vc_estimate_get_result (e);
  explain = vc_formula_describe (e, r->selected, VC_COMPONENT_OVERHEAD, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "(SGLang measures its total after them): up to 9.4\u00a0GiB a GPU"));
  g_clear_pointer (&explain, g_free);

  /* vLLM 0.11 and later add NVLS, one head per GPU of each communicator: TP 4 = 10.6 GiB */
  g_object_set (e, "engine", VC_ENGINE_VLLM, NULL);
  in = vc_estimate_get_inputs (e);
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (in, 4, 1), ==, 5 * comm + 5 * 4 * nvls);
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (in, 4, 1), ==, 11408506880.0);
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (in, 2, 2), ==, 7 * comm + 2 * p2p + (4 * 2 + 2 * 2 + 4) * nvls);
  r = vc_estimate_get_result (e);
  explain = vc_formula_describe (e, r->selected, VC_COMPONENT_OVERHEAD, VC_UNIT_GB);
  g_assert_nonnull (strstr (explain, "come out of vLLM’s cache): up to 10.6\u00a0GiB a GPU"));
  g_clear_pointer (&explain, g_free);
  /* with --kv-cache-memory the cache is as given: NCCL moves no figure */
  g_object_set (e, "kv-cache-memory", 20.0, NULL);
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (vc_estimate_get_inputs (e), 4, 1), ==, 0);
  g_object_set (e, "kv-cache-memory", 0.0, NULL);
  /* pipeline stages alone: the formula text names NCCL's buffers without a custom all-reduce */
  g_object_set (e, "tp", 1, "pp", 2, NULL);
  r = vc_estimate_get_result (e);
  explain = vc_formula_describe (e, r->selected, VC_COMPONENT_OVERHEAD, VC_UNIT_GB);
  g_assert_null (strstr (explain, "all-reduce"));
  g_assert_nonnull (strstr (explain, "NCCL’s own buffers"));
  g_clear_pointer (&explain, g_free);
  g_object_set (e, "pp", 1, NULL);
  /* other engines and training: none */
  g_object_set (e, "engine", VC_ENGINE_LLAMA_CPP, NULL);
  g_assert_cmpfloat (vc_engine_nccl_bound_bytes (vc_estimate_get_inputs (e), 4, 1), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/engine/vllm", test_vllm);
  g_test_add_func ("/engine/vllm-versions", test_vllm_versions);
  g_test_add_func ("/engine/vllm-triton-buffer", test_vllm_triton_buffer);
  g_test_add_func ("/engine/vllm-mxfp4-gguf", test_vllm_mxfp4_gguf);
  g_test_add_func ("/engine/vllm-reserves", test_vllm_reserves);
  g_test_add_func ("/engine/vllm-hybrid", test_vllm_hybrid);
  g_test_add_func ("/engine/vllm-sliding-layout", test_vllm_sliding_layout);
  g_test_add_func ("/engine/vllm-sliding-stages", test_vllm_sliding_stages);
  g_test_add_func ("/engine/vllm-sliding-stages-gemma3", test_vllm_sliding_stages_gemma3);
  g_test_add_func ("/engine/sglang-sliding-stages", test_sglang_sliding_stages);
  g_test_add_func ("/engine/vllm-mla-block", test_vllm_mla_block);
  g_test_add_func ("/engine/vllm-layout-matches-card", test_vllm_layout_matches_card);
  g_test_add_func ("/engine/sglang", test_sglang);
  g_test_add_func ("/engine/custom-all-reduce", test_custom_all_reduce);
  g_test_add_func ("/engine/nccl-bound", test_nccl_bound);
  g_test_add_func ("/engine/vllm-mxfp4", test_vllm_mxfp4);
  g_test_add_func ("/engine/vllm-mxfp4-capability", test_vllm_mxfp4_capability);
  g_test_add_func ("/engine/vllm-mxfp4-marlin", test_vllm_mxfp4_marlin);
  g_test_add_func ("/engine/vllm-mxfp4-marlin-refused", test_vllm_mxfp4_marlin_refused);
  g_test_add_func ("/engine/vllm-mxfp4-refused-fit", test_vllm_mxfp4_refused_fit);
  g_test_add_func ("/engine/vllm-moe-workspace", test_vllm_moe_workspace);
  g_test_add_func ("/engine/vllm-moe-workspace-bound", test_vllm_moe_workspace_bound);
  g_test_add_func ("/engine/vllm-moe-workspace-marlin", test_vllm_moe_workspace_marlin);
  g_test_add_func ("/engine/vllm-moe-workspace-layouts", test_vllm_moe_workspace_layouts);
  g_test_add_func ("/engine/vllm-mxfp4-layout", test_vllm_mxfp4_layout);
  g_test_add_func ("/engine/vllm-mxfp4-fit", test_vllm_mxfp4_fit);
  g_test_add_func ("/engine/encoder", test_encoder);
  g_test_add_func ("/engine/encoder-tp", test_encoder_tp);
  g_test_add_func ("/engine/encoder-tp-pixtral", test_encoder_tp_pixtral);
  g_test_add_func ("/engine/encoder-tp-data", test_encoder_tp_data);
  g_test_add_func ("/engine/encoder-tp-qwen3-vl", test_encoder_tp_qwen3_vl);
  g_test_add_func ("/engine/kv-capacity-invariants", test_kv_capacity_invariants);
  g_test_add_func ("/engine/vllm-whole-blocks", test_vllm_whole_blocks);
  g_test_add_func ("/engine/paged-rows-agree", test_paged_rows_agree);
  g_test_add_func ("/engine/vllm-given-cache", test_vllm_given_cache);
  g_test_add_func ("/engine/vllm-layouts", test_vllm_layouts);
  g_test_add_func ("/engine/multi-stage-rows", test_multi_stage_rows);
  g_test_add_func ("/engine/multi-stage-rows-vllm", test_multi_stage_rows_vllm);
  g_test_add_func ("/engine/llama.cpp-and-others", test_llama_cpp_and_others);
  g_test_add_func ("/engine/llama.cpp-context", test_llama_cpp_context);
  g_test_add_func ("/engine/llama.cpp-graph", test_llama_cpp_graph);
  g_test_add_func ("/engine/ollama", test_ollama);
  return g_test_run ();
}
