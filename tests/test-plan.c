/* SPDX-License-Identifier: GPL-3.0-or-later */
/* "My GPUs" and each engine's plan for them (vc-gpu-set.c, vc-plan.c), hand-worked from each
 * engine's placement code:
 *
 * - llama.cpp, src/llama-model.cpp, llama_model::load_tensors: splits[i] = the running sum of
 *   --tensor-split (or of each device's free memory) over its total; i_gpu_start =
 *   max(n_layer + 1 − ngl, 0), act_gpu_layers = min(ngl, n_layer + 1); layer il (the output
 *   being il = n_layer) goes to the CPU below i_gpu_start, else to the device
 *   std::upper_bound(splits, float(il − i_gpu_start) / act_gpu_layers) points at; the input
 *   layer always to the CPU;
 * - Accelerate, src/accelerate/utils/modeling.py, infer_auto_device_map: each module on the
 *   current device while it fits under max_memory, less the largest module still to place on
 *   GPU 0 (main_devices), else the next device;
 * - vLLM: every TP rank allocates the KV-cache blocks of the smallest (the minimum over the
 *   workers in get_kv_cache_configs).
 *
 * Shapes (presets, from each model's config.json):
 *   Llama 3 8B:   L = 32, h = 4096, a = 32, a_kv = 8, d = 128, I = 14336, V = 128256, untied
 *   Llama 3.2 1B: L = 16, h = 2048, a = 32, a_kv = 8, d = 64, I = 8192, V = 128256, tied
 *   Mixtral 8x7B: L = 32, h = 4096, 8 experts of I = 14336
 */
#include "config.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#include "vc-command.h"
#include "vc-engine.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-gpu-set.h"
#include "vc-plan.h"
#include "vc-profile.h"
#include "vc-solver.h"
#include "vc-test-util.h"

#include <json-glib/json-glib.h>

/* one Llama 3.2 1B decoder layer: q, o (h·h), k, v (h·512), gate, up, down (3·h·I), 2 norms */
#define L1_LAYER_BYTES (2.0 * (2 * 2048 * 2048 + 2 * 2048 * 512 + 3 * 2048 * 8192 + 2 * 2048))
#define L1_EMBED_BYTES (2.0 * 128256 * 2048)
/* one Mixtral layer's routed experts: 8 × gate, up, down (3·h·I), in 16 bits */
#define MIXTRAL_EXPERTS_LAYER (2.0 * 8 * 3 * 4096 * 14336)

static void
plan_of (VcEstimate *e,
         VcPlan     *plan)
{
  g_autoptr(GError) error = NULL;

  if (!vc_estimate_compute_plan (e, plan, &error))
    g_error ("%s", error->message);
}

static void
assert_layers (const VcPlan *plan,
               guint         i,
               guint         first,
               guint         n,
               gboolean      output)
{
  const VcPlanDevice *d = vc_plan_get_device (plan, i);

  g_assert_cmpuint (d->n_layers, ==, n);
  if (n > 0)
    g_assert_cmpuint (d->first_layer, ==, first);
  g_assert_cmpint (d->output, ==, output);
}

static void
test_set_parse (void)
{
  struct { const char *text, *normal; guint n; } good[] = {
    { "rtx-3090,rtx-3060-12gb", "rtx-3090,rtx-3060-12gb", 2 },
    { "h100-80gb:8", "h100-80gb:8", 8 },
    { "h100-80gb, h100-80gb", "h100-80gb:2", 2 },
    { "My card=23028MiB/20000MiB:2,rtx-3090", "My card=23028MiB/20000MiB:2,rtx-3090", 3 },
    { "A=24GB", "A=24GB", 1 },
    { "", "", 0 },
  };
  struct { const char *text, *says; } bad[] = {
    { "rtx-9999", "not a GPU of the catalog" },
    { "h100-80gb:0", "whole number from 1 to 256" },
    { "h100-80gb:257", "whole number from 1 to 256" },
    { "h100-80gb:200,h100-80gb:57", "at most 256 cards" },
    { "A=0.01GB", "between 0.1 GB and 100000 GB" },
    { "=24GB", "name of 1 to 64" },
    { "A=24GB/30GB", "free memory exceeds" },
    { "rtx-3090,,rtx-3090", "empty item" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(VcGpuSet) set = vc_gpu_set_parse (good[i].text, &error);
      g_autofree char *text = NULL;

      g_assert_no_error (error);
      g_assert_cmpuint (vc_gpu_set_get_n (set), ==, good[i].n);
      text = vc_gpu_set_format (set);
      g_assert_cmpstr (text, ==, good[i].normal);
    }
  {
    g_autoptr(VcGpuSet) set = vc_gpu_set_parse ("My card=23028MiB/20000MiB", NULL);

    g_assert_cmpfloat (vc_gpu_set_get (set, 0)->memory_bytes, ==, 23028.0 * 1048576);
    g_assert_cmpfloat (vc_gpu_set_available (set, 0), ==, 20000.0 * 1048576);
    g_assert_null (vc_gpu_set_get (set, 0)->id);
  }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(VcGpuSet) set = vc_gpu_set_parse (bad[i].text, &error);

      g_assert_null (set);
      g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
      g_assert_nonnull (strstr (error->message, bad[i].says));
      g_assert_nonnull (strstr (error->message, "accepted"));
    }
}

/* The assignment alone, 33 slots (32 layers and the output) */
static void
test_llama_assignment (void)
{
  const float two[] = { 0.75f, 1.0f };          /* --tensor-split 3,1 */
  const float three[] = { 0.5f, 0.75f, 1.0f };  /* --tensor-split 2,1,1 */
  guint count[3] = { 0 };

  /* 3,1: float(il)/33 < 0.75 up to il = 24 */
  for (guint il = 0; il <= 32; il++)
    count[vc_plan_llama_layer_device (32, 33, two, 2, il)]++;
  g_assert_cmpuint (count[0], ==, 25);
  g_assert_cmpuint (count[1], ==, 8);
  /* -ngl 20: i_gpu_start 13; (il − 13)/20 < 0.75 up to il = 27 */
  g_assert_cmpint (vc_plan_llama_layer_device (32, 20, two, 2, 12), ==, -1);
  g_assert_cmpint (vc_plan_llama_layer_device (32, 20, two, 2, 13), ==, 0);
  g_assert_cmpint (vc_plan_llama_layer_device (32, 20, two, 2, 27), ==, 0);
  g_assert_cmpint (vc_plan_llama_layer_device (32, 20, two, 2, 28), ==, 1);
  g_assert_cmpint (vc_plan_llama_layer_device (32, 20, two, 2, 32), ==, 1);
  /* 2,1,1: il/33 < 0.5 up to 16, < 0.75 up to 24 */
  g_assert_cmpint (vc_plan_llama_layer_device (32, 33, three, 3, 16), ==, 0);
  g_assert_cmpint (vc_plan_llama_layer_device (32, 33, three, 3, 17), ==, 1);
  g_assert_cmpint (vc_plan_llama_layer_device (32, 33, three, 3, 24), ==, 1);
  g_assert_cmpint (vc_plan_llama_layer_device (32, 33, three, 3, 25), ==, 2);
}

static void
test_llama_two_cards (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "engine", "llama.cpp", "precision", "fp16",
                                          "gpu-set", "rtx-3090,rtx-3060-12gb", "tensor-split", "3,1",
                                          "host-ram", "64GB", NULL);
  VcPlan plan;

  plan_of (e, &plan);
  g_assert_cmpuint (plan.devices->len, ==, 2);
  /* layers 0 … 24 on the 3090, 25 … 31 and the output on the 3060 */
  assert_layers (&plan, 0, 0, 25, FALSE);
  assert_layers (&plan, 1, 25, 7, TRUE);
  g_assert_cmpuint (plan.cpu_layers, ==, 0);
  /* the input layer in RAM: the 16-bit token embedding, V·h·2 */
  g_assert_cmpfloat (plan.host_bytes, ==, 2.0 * 128256 * 4096);
  g_assert_cmpfloat (vc_plan_get_device (&plan, 0)->split, ==, 0.75);
  /* what the first card holds of the weights: 25 layers of 16-bit tensors */
  g_assert_cmpfloat (vc_plan_get_device (&plan, 0)->weights, ==,
                     25 * 2.0 * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096));
  /* the output on the second: 7 layers, the final norm and the untied head */
  g_assert_cmpfloat (vc_plan_get_device (&plan, 1)->weights, ==,
                     7 * 2.0 * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096) +
                     2.0 * 4096 + 2.0 * 128256 * 4096);
  vc_plan_clear (&plan);

  /* by free memory: 21 GB and 9 GB free split at 0.7, layers 0 … 23 (il/33 < 0.7) on the first */
  g_assert_true (vc_estimate_set_from_string (e, "gpu-set", "A=24GB/21GB,B=12GB/9GB", NULL));
  g_assert_true (vc_estimate_set_from_string (e, "tensor-split", "", NULL));
  plan_of (e, &plan);
  assert_layers (&plan, 0, 0, 24, FALSE);
  assert_layers (&plan, 1, 24, 8, TRUE);
  vc_plan_clear (&plan);

  /* -ngl 20 (partial offload): layers 0 … 12 in RAM with their cache */
  g_assert_true (vc_estimate_set_from_string (e, "gpu-set", "rtx-3090,rtx-3060-12gb", NULL));
  g_assert_true (vc_estimate_set_from_string (e, "tensor-split", "3,1", NULL));
  g_assert_true (vc_estimate_set_from_string (e, "gpu-layers", "20", NULL));
  plan_of (e, &plan);
  g_assert_cmpuint (plan.cpu_layers, ==, 13);
  assert_layers (&plan, 0, 13, 15, FALSE);
  assert_layers (&plan, 1, 28, 4, TRUE);
  vc_plan_clear (&plan);

  /* --split-mode none: the main GPU alone */
  g_assert_true (vc_estimate_set_from_string (e, "gpu-layers", "0", NULL));
  g_assert_true (vc_estimate_set_from_string (e, "split-mode", "none", NULL));
  g_assert_true (vc_estimate_set_from_string (e, "main-gpu", "1", NULL));
  plan_of (e, &plan);
  assert_layers (&plan, 0, 0, 0, FALSE);
  assert_layers (&plan, 1, 0, 32, TRUE);
  g_assert_cmpfloat (vc_plan_get_device (&plan, 0)->bytes, ==, 0);
  g_assert_false (plan.fits);            /* 16 GB of weights on a 12 GB card */
  g_assert_cmpint (plan.fills_first, ==, 1);
  vc_plan_clear (&plan);
}

static void
test_llama_three_cards_experts (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("mixtral-8x7b", "mode", "inference", "engine", "llama.cpp", "precision", "fp16",
                                          "gpu-set", "h100-80gb,a100-40gb,rtx-3090", "tensor-split", "2,1,1",
                                          "n-cpu-moe", "10", NULL);
  VcPlan plan;
  const VcPlanDevice *d0;

  plan_of (e, &plan);
  assert_layers (&plan, 0, 0, 17, FALSE);
  assert_layers (&plan, 1, 17, 8, FALSE);
  assert_layers (&plan, 2, 25, 7, TRUE);
  d0 = vc_plan_get_device (&plan, 0);
  /* --n-cpu-moe 10: the experts of layers 0 … 9 leave the first card, 7 of its 17 stay */
  g_assert_cmpfloat (d0->experts, ==, 7 * MIXTRAL_EXPERTS_LAYER);
  g_assert_cmpfloat (vc_plan_get_device (&plan, 1)->experts, ==, 8 * MIXTRAL_EXPERTS_LAYER);
  g_assert_cmpfloat (plan.host_bytes, ==, 10 * MIXTRAL_EXPERTS_LAYER + 2.0 * 32000 * 4096);
  vc_plan_clear (&plan);

  /* with -ngl 20 as well: the CPU's 13 layers keep their experts, and layers 10 … 12 are among them */
  g_assert_true (vc_estimate_set_from_string (e, "gpu-layers", "20", NULL));
  plan_of (e, &plan);
  g_assert_cmpuint (plan.cpu_layers, ==, 13);
  /* (il − 13)/20 < 0.5 up to il = 22, < 0.75 up to 27 */
  assert_layers (&plan, 0, 13, 10, FALSE);
  assert_layers (&plan, 1, 23, 5, FALSE);
  assert_layers (&plan, 2, 28, 4, TRUE);
  g_assert_cmpfloat (vc_plan_get_device (&plan, 0)->experts, ==, 10 * MIXTRAL_EXPERTS_LAYER);
  vc_plan_clear (&plan);
}

static void
test_accelerate (void)
{
  /* max_memory {0: 1 GB, 1: 2 GB, "cpu": 8 GB}; balancing caps GPU 0 at 1,387,868,160 B (below),
   * above its 1 GB, so it keeps 1 GB. GPU 0 keeps room for the largest module left:
   * the embedding (525,336,576 B) fits under 1 GB − one layer (121,643,008 B), then layers 0
   * and 1 (768,622,592 B in all); layer 2 would make 890,265,600 B > 878,356,992 B. GPU 1 takes
   * the 14 other layers (1,703,002,112 B), the final norm and, tied, nothing for the head. */
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3.2-1b", "engine", "transformers", "precision", "fp16",
                                          "gpu-set", "A=1GB,B=2GB", "host-ram", "8GB", NULL);
  VcPlan plan;

  plan_of (e, &plan);
  assert_layers (&plan, 0, 0, 2, TRUE);   /* the tied head goes with the embedding */
  assert_layers (&plan, 1, 2, 14, FALSE);
  g_assert_cmpfloat (vc_plan_get_device (&plan, 0)->weights, ==, L1_EMBED_BYTES + 2 * L1_LAYER_BYTES);
  g_assert_cmpfloat (vc_plan_get_device (&plan, 1)->weights, ==, 14 * L1_LAYER_BYTES + 2.0 * 2048);
  g_assert_cmpuint (plan.cpu_layers, ==, 0);
  g_assert_cmpfloat (plan.host_bytes, ==, 0);
  vc_plan_clear (&plan);

  /* two cards of 2 GB: device_map="auto" balances first (get_balanced_memory): GPU 0 is capped
   * at 2,471,628,800 B (the model) ÷ 2 + 1.25 × one layer (152,053,760 B) = 1,387,868,160 B,
   * less the layer it keeps room for: the embedding and 6 layers (1,255,194,624 B ≤
   * 1,266,225,152 B), a seventh would pass it; GPU 1, the last, keeps its 2 GB for the other 10 */
  g_assert_true (vc_estimate_set_from_string (e, "gpu-set", "A=2GB,B=2GB", NULL));
  plan_of (e, &plan);
  assert_layers (&plan, 0, 0, 6, TRUE);
  assert_layers (&plan, 1, 6, 10, FALSE);
  vc_plan_clear (&plan);

  /* a second card of 1 GB: GPU 1 holds 8 layers (973,144,064 B), the rest goes to the CPU */
  g_assert_true (vc_estimate_set_from_string (e, "gpu-set", "A=1GB,B=1GB", NULL));
  plan_of (e, &plan);
  assert_layers (&plan, 1, 2, 8, FALSE);
  g_assert_cmpuint (plan.cpu_layers, ==, 6);
  g_assert_cmpfloat (plan.host_bytes, ==, 6 * L1_LAYER_BYTES + 2.0 * 2048);
  vc_plan_clear (&plan);
}

static void
test_vllm_bounded (void)
{
  g_autoptr(VcEstimate) mixed = vc_test_estimate_new ("llama-3-8b", "engine", "vllm", "precision", "fp16",
                                              "gpu-set", "rtx-3090,rtx-3060-12gb", NULL);
  g_autoptr(VcEstimate) small = vc_test_estimate_new ("llama-3-8b", "engine", "vllm", "precision", "fp16",
                                              "gpu-set", "rtx-3060-12gb:2", NULL);
  VcPlan a, b;
  /* TP 2: every tensor halved but the norms (2h a layer and the final h) */
  double norms = 2.0 * (32 * 2 * 4096 + 4096);
  double sharded = 2.0 * (32.0 * (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336) + 2.0 * 128256 * 4096) / 2;

  plan_of (mixed, &a);
  plan_of (small, &b);
  g_assert_cmpuint (a.tp, ==, 2);
  g_assert_cmpint (a.bounded_by, ==, 1);
  /* and vLLM's RoPE table whole on each: 8,192 positions × 128 in fp16 */
  double rope = 8192 * 128 * 2.0;

  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->weights, ==, sharded + norms + rope);
  g_assert_cmpfloat (vc_plan_get_device (&a, 1)->weights, ==, sharded + norms + rope);
  /* the 24 GB card holds no more cache than the 12 GB one: the pair is two 12 GB cards */
  g_assert_cmpfloat (a.kv_tokens, >, 0);
  g_assert_cmpfloat (a.kv_tokens, ==, b.kv_tokens);
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->kv, ==, vc_plan_get_device (&b, 0)->kv);
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->bytes, ==, vc_plan_get_device (&a, 1)->bytes);
  /* vLLM takes its whole budget of the smallest card on each: 0.9 of the 3060's 12 GiB, and the
   * CUDA context beside it; the 2,048 tokens asked for fit in the cache */
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->bytes, ==,
                     round (0.9 * 12.0 * 1073741824) + vc_plan_get_device (&a, 0)->overhead);
  g_assert_true (a.fits);
  vc_plan_clear (&a);
  vc_plan_clear (&b);
}

/* vLLM's batch defaults are each card's (vllm/engine/arg_utils.py, EngineArgs.get_batch_defaults:
 * 8,192 tokens and 1,024 sequences from 70 GiB of torch's total but on an A100, else 2,048 and
 * 256), in its fit as in its cache, and a set's are its first card's (device 0). Llama 3.1 8B
 * at 20,000 tokens, bf16: weights 16,060,522,496 bytes, KV 131,072 bytes a token. The profile
 * run's peak is the sampler's: 256 × 128,256 logits × 38 bytes + 2,048 × 4,096 × 2 of hidden
 * states = 1,264,428,032 on an RTX 3090, 1,024 × 128,256 × 38 + 8,192 × 4,096 × 2 =
 * 5,057,712,128 on an H100 (each with 11.5 bytes a batched token the estimate keeps beside it:
 * 23,552 and 94,208), and vLLM's RoPE table of 33,554,432; so the 3090 holds it (20,979,968,512
 * bytes of its 23,787,024,486 usable), where the H100's batch (24,773,323,264) would need two. */
static void
test_vllm_card_defaults (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3.1-8b", "engine", "vllm", "seq", "20000", NULL);
  g_autoptr(VcEstimate) large = vc_test_estimate_new ("llama-3.1-8b", "engine", "vllm", "seq", "20000",
                                                      "max-num-batched-tokens", "8192", "max-num-seqs", "1024", NULL);
  g_autoptr(VcEstimate) small = vc_test_estimate_new ("llama-3.1-8b", "engine", "vllm", "seq", "20000",
                                                      "max-num-batched-tokens", "2048", "max-num-seqs", "256", NULL);
  g_autoptr(VcEstimate) first_small = vc_test_estimate_new ("llama-3.1-8b", "engine", "vllm", "seq", "20000",
                                                            "gpu-set", "rtx-3090,h100-80gb", NULL);
  g_autoptr(VcEstimate) first_large = vc_test_estimate_new ("llama-3.1-8b", "engine", "vllm", "seq", "20000",
                                                            "gpu-set", "h100-80gb,rtx-3090", NULL);
  guint rtx = vc_test_gpu_index (e, "rtx-3090"), h100 = vc_test_gpu_index (e, "h100-80gb");
  const VcGpuFit *fit;
  VcInputs on;
  VcPlan a, b;

  vc_engine_on_card (vc_estimate_get_inputs (e), vc_estimate_get_gpu (e, rtx), &on);
  g_assert_cmpuint (on.max_num_batched_tokens, ==, 2048);
  g_assert_cmpuint (on.max_num_seqs, ==, 256);
  vc_engine_on_card (vc_estimate_get_inputs (e), vc_estimate_get_gpu (e, h100), &on);
  g_assert_cmpuint (on.max_num_batched_tokens, ==, 8192);
  g_assert_cmpuint (on.max_num_seqs, ==, 1024);

  /* the table: each card its own batch */
  fit = vc_estimate_get_gpu_fit (e, rtx);
  g_assert_true (fit->fits);
  g_assert_cmpfloat (fit->count, ==, 1);
  g_assert_cmpfloat (fit->per_gpu_bytes, ==, 21119429120.0);
  fit = vc_estimate_get_gpu_fit (e, h100);
  g_assert_cmpfloat (fit->count, ==, 1);
  g_assert_cmpfloat (fit->per_gpu_bytes, ==, 24912783872.0);
  g_assert_cmpfloat (24912783872.0 - 21119429120.0, ==, 5057712128.0 - 1264428032.0 + 94208 - 23552);
  /* the user's batch wins on every card */
  fit = vc_estimate_get_gpu_fit (large, rtx);
  g_assert_false (fit->fits);
  g_assert_cmpfloat (fit->count, ==, 2);
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (small, h100)->per_gpu_bytes, ==, 21119429120.0);
  g_assert_cmpfloat (vc_estimate_get_gpu_fit (small, rtx)->per_gpu_bytes, ==, 21119429120.0);

  /* the solver on the card (--solve seq --fit-gpu rtx-3090): its own batch, or the user's */
  {
    const VcGpu *card = vc_estimate_get_gpu (e, rtx);
    double capacity = vc_engine_gpu_capacity (vc_estimate_get_inputs (e), card);
    VcSolution own, given;

    vc_solver_solve_memo (NULL, card, vc_estimate_get_inputs (e), VC_SOLVE_VARIABLE_SEQ, capacity, 1, &own);
    vc_solver_solve_memo (NULL, card, vc_estimate_get_inputs (large), VC_SOLVE_VARIABLE_SEQ, capacity, 1, &given);
    g_assert_true (own.found);
    g_assert_cmpuint (own.value, ==, 40352);
    g_assert_true (given.found);
    /* the cache left beside the H100's batch holds 11,411 tokens and a part: 713 whole blocks
     * of 16, and vLLM gives a request of 11,409 tokens and more a 714th
     * (FullAttentionSpec.max_memory_usage_bytes: cdiv(max_model_len, block_size) pages) */
    g_assert_cmpuint (given.value, ==, 11408);
  }

  /* a mixed set: its first card's batch on both ranks (TP 2); each rank's cache is what
   * 0.9 × the 3090's 25,318,916,096 bytes leaves after its half of the weights, its own 32 MiB RoPE
   * table and the profile run, in blocks of 16 tokens of 65,536 bytes a rank */
  plan_of (first_small, &a);
  plan_of (first_large, &b);
  g_assert_cmpuint (a.tp, ==, 2);
  g_assert_cmpuint (b.tp, ==, 2);
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->activations, ==, 1264428032.0 + 23552 + 139460608);
  g_assert_cmpfloat (vc_plan_get_device (&a, 1)->activations, ==, 1264428032.0 + 23552 + 139460608);
  g_assert_cmpfloat (vc_plan_get_device (&b, 0)->activations, ==, 5057712128.0 + 94208 + 139460608);
  g_assert_cmpfloat (vc_plan_get_device (&b, 1)->activations, ==, 5057712128.0 + 94208 + 139460608);
  g_assert_cmpfloat (a.kv_tokens, ==, 203232);
  g_assert_cmpfloat (b.kv_tokens, ==, 145344);
  g_assert_cmpfloat (a.kv_tokens - b.kv_tokens, ==,
                     16 * (floor ((0.9 * 25318916096.0 - 8030527488.0 - 33554432.0 - 1264451584.0 - 139460608) / (16 * 65536.0)) -
                           floor ((0.9 * 25318916096.0 - 8030527488.0 - 33554432.0 - 5057806336.0 - 139460608) / (16 * 65536.0))));
  g_assert_true (a.fits);
  g_assert_true (b.fits);
  vc_plan_clear (&a);
  vc_plan_clear (&b);
}

/* vLLM 0.17's Triton sampler's buffer on a set (FORMULAS.md, "the profile run's sampler"):
 * Llama 3 8B at TP 2 over two H100s keeps 132 SMs x 128,256 x 4 bytes on each card at the
 * profile run, which comes out of each card's cache; over two cards typed in, whose SM count
 * is not known, it is not counted */
static void
test_vllm_triton_buffer (void)
{
  g_autoptr(VcEstimate) h100 = vc_test_estimate_new ("llama-3-8b", "engine", "vllm", "engine-version", "0.17",
                                                      "gpu-set", "h100-80gb:2", NULL);
  g_autoptr(VcEstimate) typed = vc_test_estimate_new ("llama-3-8b", "engine", "vllm", "engine-version", "0.17",
                                                       "gpu-set", "A=81121MiB:2", NULL);
  VcInputs at = *vc_estimate_get_inputs (h100);
  VcPlan a, b;
  double profile, without;

  plan_of (h100, &a);
  plan_of (typed, &b);
  g_assert_cmpuint (a.tp, ==, 2);
  at.gpu_sm_count = 132;
  profile = vc_estimator_vllm_profile_bytes (&at, 8192, 1024, 2);
  at.gpu_sm_count = 0;
  without = vc_estimator_vllm_profile_bytes (&at, 8192, 1024, 2);
  g_assert_cmpfloat (profile - without, ==, 132 * 128256 * 4.0);
  /* the typed cards have the H100's CUDA total, so the same batch and weights: their cache is
   * larger by the buffer */
  g_assert_cmpfloat (vc_engine_gpu_capacity (&at, vc_gpus_lookup ("h100-80gb")), ==, 81121 * 1048576.0);
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->weights, ==, vc_plan_get_device (&b, 0)->weights);
  g_assert_cmpfloat (vc_plan_get_device (&b, 0)->kv - vc_plan_get_device (&a, 0)->kv, ==, 132 * 128256 * 4.0);
  g_assert_cmpfloat (vc_plan_get_device (&b, 1)->kv - vc_plan_get_device (&a, 1)->kv, ==, 132 * 128256 * 4.0);
  vc_plan_clear (&a);
  vc_plan_clear (&b);
}

/* vLLM's MXFP4 experts on a set (FORMULAS.md, "vLLM's MXFP4 experts"): Mixtral 8x7B at mxfp4
 * over two A100s (TP 2) loses the bf16 biases vLLM allocates for every expert, 8 × (2 × 7,168 +
 * 4,096) × 2 bytes a layer and rank, 32 layers: 9,437,184 bytes of each card's cache; a set with
 * an H100, whose backend is not followed, has no cache figure */
static void
test_vllm_mxfp4 (void)
{
  g_autoptr(VcEstimate) a100 = vc_test_estimate_new ("mixtral-8x7b", "engine", "vllm", "precision", "mxfp4",
                                                     "gpu-set", "a100-80gb:2", NULL);
  g_autoptr(VcEstimate) mixed = vc_test_estimate_new ("mixtral-8x7b", "engine", "vllm", "precision", "mxfp4",
                                                      "gpu-set", "a100-80gb,h100-80gb", NULL);
  g_autoptr(VcEstimate) free60 = vc_test_estimate_new ("mixtral-8x7b", "engine", "vllm", "precision", "mxfp4",
                                                       "gpu-set", "a100-80gb/60GiB:2", NULL);
  const VcInputs *in = vc_estimate_get_inputs (a100);
  double extra;
  VcPlan a, m, f;

  g_assert_true (vc_engine_vllm_mxfp4_extra (in, vc_gpus_lookup ("a100-80gb"), 2, &extra));
  g_assert_cmpfloat (extra, ==, 9437184.0);
  plan_of (a100, &a);
  plan_of (mixed, &m);
  plan_of (free60, &f);
  g_assert_cmpuint (a.tp, ==, 2);
  g_assert_cmpfloat (a.kv_tokens, >, 0);
  /* each card's cache: 0.9 of the A100 (CUDA's total, 81,050 MiB) less its weights, the
   * padding among them (in its experts), and the profile run at the A100's defaults (2,048
   * tokens, 256 requests) */
  {
    VcLayoutStage st;
    const VcResult *r = vc_estimate_get_result (a100);

    vc_layout_stage_bytes_tp (in, r, r->selected, 0, in->arch.n_layers, TRUE, TRUE, 2, 1, &st);
    g_assert_cmpfloat (vc_plan_get_device (&a, 0)->weights, ==, round (st.weights + extra));
    g_assert_cmpfloat (vc_plan_get_device (&a, 0)->experts, ==, round (st.experts + extra));
  }
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->kv, ==,
                     0.9 * 81050 * 1048576.0 - vc_plan_get_device (&a, 0)->weights -
                     vc_estimator_vllm_profile_bytes (in, 2048, 256, 2));
  g_assert_cmpfloat (m.kv_tokens, ==, 0);
  /* an A100 with less free is still an A100: its backend is Marlin */
  g_assert_cmpfloat (f.kv_tokens, >, 0);
  /* one card a stage: each stage pads its own layers, which the engine's figures count
   * (tests/test-engine.c) but a plan's cards do not: refused, named, never a cache without the
   * padding */
  {
    g_autoptr(VcEstimate) staged = vc_test_estimate_new ("mixtral-8x7b", "engine", "vllm", "precision", "mxfp4",
                                                         "gpu-set", "a100-80gb:2", "pp", "2", NULL);
    g_autoptr(GError) error = NULL;
    VcPlan s = { 0 };

    g_assert_false (vc_estimate_compute_plan (staged, &s, &error));
    g_assert_nonnull (error);
    g_assert_nonnull (strstr (error->message, "MXFP4"));
    vc_plan_clear (&s);
  }
  vc_plan_clear (&a);
  vc_plan_clear (&m);
  vc_plan_clear (&f);
}

/* vLLM's pipeline stages on a 24 GB + 12 GB pair, one card a stage (vllm/distributed/utils.py,
 * get_pp_indices; VLLM_PP_LAYER_PARTITION). Llama 3 8B in 16 bits: a layer is
 * 2·(2·4096² + 2·4096·1024 + 3·4096·14336 + 2·4096) = 436,224,000 bytes, the embedding and the
 * head 2·128256·4096 = 1,050,673,152 each, the final norm 8,192. A token's K and V of one layer:
 * 2·1024·2 = 4,096 bytes, a block of 16 tokens 65,536. Each card: 0.9 of it, less its weights
 * and the profile run P, in blocks of its layers; every stage takes the fewest blocks. */
/* PP alone over a set: TP is the cards per stage (4 H100s at PP 2: TP 2 × PP 2), on vLLM and
 * SGLang; it was once replaced by TP 4 × PP 1 without a word */
static void
test_set_pp (void)
{
  static const char *const engines[] = { "vllm", "sglang" };

  for (guint i = 0; i < G_N_ELEMENTS (engines); i++)
    {
      g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "mode", "inference", "engine", engines[i],
                                                      "gpu-set", "h100-80gb:4", "pp", "2", NULL);
      VcPlan plan;

      plan_of (e, &plan);
      g_assert_cmpuint (plan.tp, ==, 2);
      g_assert_cmpuint (plan.pp, ==, 2);
      g_assert_cmpuint (plan.devices->len, ==, 4);
      /* layers 0–15 on the first stage's two cards, 16–31 on the second's */
      assert_layers (&plan, 1, 0, 16, FALSE);
      assert_layers (&plan, 2, 16, 16, TRUE);
      vc_plan_clear (&plan);
    }
}

static void
test_vllm_pp_partition (void)
{
  g_autoptr(VcEstimate) even = vc_test_estimate_new ("llama-3-8b", "mode", "inference", "engine", "vllm",
                                             "precision", "fp16", "gpu-set", "A=24GB,B=12GB", "pp", "2", NULL);
  g_autoptr(VcEstimate) uneven = vc_test_estimate_new ("llama-3-8b", "mode", "inference", "engine", "vllm",
                                               "precision", "fp16", "gpu-set", "A=24GB,B=12GB", "pp", "2",
                                               "pp-partition", "22,10", NULL);
  const double layer = 436224000, embed = 1050673152, norm = 8192, block = 16 * 4096.0;
  /* vLLM's RoPE table on each card: 8,192 positions × 128 in fp16 */
  const double rope = 8192 * 128 * 2.0;
  VcPlan a, b;
  double profile;

  plan_of (even, &a);
  plan_of (uneven, &b);
  profile = vc_plan_get_device (&a, 0)->activations;
  /* the default 16,16: the first card the embedding and 16 layers, the second 16 layers, the
   * norm and the head, each its RoPE table */
  assert_layers (&a, 0, 0, 16, FALSE);
  assert_layers (&a, 1, 16, 16, TRUE);
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->weights, ==, 8030257152.0 + rope);
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->weights, ==, embed + 16 * layer + rope);
  g_assert_cmpfloat (vc_plan_get_device (&a, 1)->weights, ==, 8030265344.0 + rope);
  g_assert_cmpfloat (vc_plan_get_device (&a, 1)->weights, ==, embed + norm + 16 * layer + rope);
  /* 10.8e9 − 8,032,362,496 − P over 16 layers' blocks: 1,300 blocks on the 12 GB card against
   * 11,600 on the 24 GB one: 1,300 × 16 = 20,800 tokens on both */
  g_assert_cmpfloat (floor ((10.8e9 - 8030265344.0 - rope - profile) / (16 * block)), ==, 1300);
  g_assert_cmpfloat (floor ((21.6e9 - 8030257152.0 - rope - profile) / (16 * block)), ==, 11600);
  g_assert_cmpfloat (a.kv_tokens, ==, 20800);
  g_assert_cmpint (a.bounded_by, ==, 1);
  g_assert_cmpfloat (vc_plan_get_device (&a, 0)->kv, ==, 20800 * 16 * 4096.0);
  g_assert_cmpfloat (vc_plan_get_device (&a, 1)->kv, ==, 1363148800.0);
  g_assert_cmpfloat (vc_plan_get_device (&a, 1)->bytes, ==, 8030265344.0 + rope + 1363148800.0 + profile +
                     vc_plan_get_device (&a, 1)->overhead);
  g_assert_true (a.fits);
  /* the cards differ: 32 layers in proportion to 24 and 12 GB are 21 and 11 */
  g_assert_cmpuint (a.n_balanced, ==, 2);
  g_assert_cmpuint (a.balanced[0], ==, 21);
  g_assert_cmpuint (a.balanced[1], ==, 11);

  /* 22,10: the 12 GB card keeps 10.8e9 − 5,415,018,496 − P for 10 layers: 6,074 blocks; the 24 GB
   * one 21.6e9 − 10,649,698,304 − P for 22 layers: 6,621; 6,074 × 16 = 97,184 tokens */
  assert_layers (&b, 0, 0, 22, FALSE);
  assert_layers (&b, 1, 22, 10, TRUE);
  g_assert_cmpfloat (vc_plan_get_device (&b, 0)->weights, ==, 10647601152.0 + rope);
  g_assert_cmpfloat (vc_plan_get_device (&b, 0)->weights, ==, embed + 22 * layer + rope);
  g_assert_cmpfloat (vc_plan_get_device (&b, 1)->weights, ==, 5412921344.0 + rope);
  g_assert_cmpfloat (vc_plan_get_device (&b, 1)->weights, ==, embed + norm + 10 * layer + rope);
  g_assert_cmpfloat (floor ((10.8e9 - 5412921344.0 - rope - profile) / (10 * block)), ==, 6074);
  g_assert_cmpfloat (floor ((21.6e9 - 10647601152.0 - rope - profile) / (22 * block)), ==, 6621);
  g_assert_cmpfloat (b.kv_tokens, ==, 97184);
  g_assert_cmpint (b.bounded_by, ==, 1);
  g_assert_cmpfloat (vc_plan_get_device (&b, 0)->kv, ==, 8757444608.0);
  g_assert_cmpfloat (vc_plan_get_device (&b, 1)->kv, ==, 3980656640.0);
  g_assert_cmpfloat (vc_plan_get_device (&b, 0)->bytes, ==, 10647601152.0 + rope + 8757444608.0 + profile +
                     vc_plan_get_device (&b, 0)->overhead);
  g_assert_null (b.balanced);
  g_assert_true (b.fits);
  /* the profile run is vLLM's for one GPU, the same on both cards */
  g_assert_cmpfloat (profile, >, 0);
  g_assert_cmpfloat (vc_plan_get_device (&b, 1)->activations, ==, profile);
  vc_plan_clear (&a);
  vc_plan_clear (&b);
}

static void
test_refusals (void)
{
  struct { const char *preset; const char *const *settings; const char *says; } cases[] = {
    { "llama-3-8b", (const char *const[]) { "mode", "training", "gpu-set", "rtx-3090,rtx-3060-12gb", NULL }, "mixed set" },
    { "llama-3-8b", (const char *const[]) { "engine", "sglang", "gpu-set", "rtx-3090,rtx-3060-12gb", NULL }, "unbalanced" },
    { "llama-3-8b", (const char *const[]) { "engine", "llama.cpp", "gpu-set", "rtx-3090:2", "split-mode", "row", NULL }, "row" },
    { "llama-3-8b", (const char *const[]) { "engine", "llama.cpp", "gpu-set", "rtx-3090:2", "main-gpu", "2", NULL }, "--main-gpu" },
    { "llama-3-8b", (const char *const[]) { "engine", "llama.cpp", "gpu-set", "rtx-3090:2", "tensor-split", "1,1,1", NULL }, "3 ratios" },
    { "llama-3-8b", (const char *const[]) { "engine", "llama.cpp", "gpu-set", "rtx-3090:2", "n-cpu-moe", "2", NULL }, "dense" },
    { "llama-3-8b", (const char *const[]) { "engine", "llama.cpp", NULL }, "empty" },
    { "llama-3-8b", (const char *const[]) { "engine", "ollama", "gpu-set", "rtx-3090:2", NULL }, "llm/memory.go" },
    { "llama-3-8b", (const char *const[]) { "engine", "transformers", "gpu-set", "A=1GB", "host-ram", "1GB", NULL }, "disk" },
    { "llama-3-8b", (const char *const[]) { "engine", "sglang", "gpu-set", "A=24GB,B=23GB", "pp", "2", "pp-partition", "22,10", NULL },
      "accepted: --engine vllm" },
    { "llama-3-8b", (const char *const[]) { "engine", "llama.cpp", "gpu-set", "A=24GB,B=12GB", "pp-partition", "22,10", NULL },
      "accepted: --engine vllm" },
    { "llama-3-8b", (const char *const[]) { "engine", "vllm", "gpu-set", "A=24GB,B=12GB", "tp", "2", "pp-partition", "22,10", NULL },
      "accepted: --pp 2 with --tp 1" },
    { "llama-3-8b", (const char *const[]) { "engine", "vllm", "gpu-set", "A=24GB,B=12GB", "pp", "2", "pp-partition", "20,8,4", NULL },
      "3 layer counts for 2 pipeline stages" },
    { "llama-3-8b", (const char *const[]) { "engine", "vllm", "gpu-set", "A=24GB,B=12GB", "pp", "2", "pp-partition", "20,10", NULL },
      "sums to 30 layers, the model has 32; accepted: counts summing to 32" },
    /* the layout asked for is kept or refused, never replaced by TP over the whole set */
    { "llama-3-8b", (const char *const[]) { "engine", "vllm", "gpu-set", "h100-80gb:4", "tp", "2", NULL },
      "TP 2 × PP 1 makes 2 GPUs, and the set has 4 cards" },
    { "llama-3-8b", (const char *const[]) { "engine", "sglang", "gpu-set", "h100-80gb:4", "pp", "3", NULL },
      "TP 1 × PP 3 makes 3 GPUs, and the set has 4 cards" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcEstimate) e = vc_test_estimate_new (cases[i].preset, NULL);
      g_autoptr(GError) error = NULL;
      VcPlan plan;

      for (guint k = 0; cases[i].settings[k]; k += 2)
        g_assert_true (vc_estimate_set_from_string (e, cases[i].settings[k], cases[i].settings[k + 1], NULL));
      g_assert_false (vc_estimate_compute_plan (e, &plan, &error));
      g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
      if (strstr (error->message, cases[i].says) == NULL)
        g_error ("case %u: %s", i, error->message);
      g_assert_null (plan.devices);
    }
  {
    g_autoptr(VcEstimate) e = vc_estimate_new ();
    g_autoptr(GError) error = NULL;

    g_assert_false (vc_estimate_set_from_string (e, "tensor-split", "1,-1", &error));
    g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
    g_clear_error (&error);
    g_assert_false (vc_estimate_set_from_string (e, "host-ram", "lots", &error));
    g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
    g_clear_error (&error);
    g_assert_false (vc_estimate_set_from_string (e, "gpu-set", "rtx-9999", &error));
    g_assert_nonnull (strstr (error->message, "rtx-9999"));
    g_clear_error (&error);
    g_assert_false (vc_estimate_set_from_string (e, "pp-partition", "20,0", &error));
    g_assert_nonnull (strstr (error->message, "“0” in --pp-partition is not a layer count; accepted: whole numbers of 1 or more"));
    g_clear_error (&error);
    g_assert_false (vc_estimate_set_from_string (e, "pp-partition", "20.5,12", &error));
    g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE);
  }
}

static void
test_training_uniform (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "mode", "training", "sharding", "zero-3",
                                          "gpu-set", "h100-80gb:4", NULL);
  g_autoptr(VcEstimate) same = vc_test_estimate_new ("llama-3-8b", "mode", "training", "sharding", "zero-3",
                                             "dp", "4", NULL);
  const VcLayoutResult *lr;
  VcPlan plan;

  plan_of (e, &plan);
  lr = vc_estimate_get_layout_result (same);
  g_assert_nonnull (lr);
  g_assert_cmpuint (plan.devices->len, ==, 4);
  /* each rank as the layout of DP 4 computes it */
  for (guint i = 0; i < 4; i++)
    g_assert_cmpfloat (vc_plan_get_device (&plan, i)->bytes, ==, lr->reserved);
  vc_plan_clear (&plan);
}

static void
test_profile_round_trip (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "gpu-set", "rtx-3090,My card=23028MiB/20000MiB:2",
                                          "host-ram", "64GB", "tensor-split", "3,1,1", "split-mode", "none",
                                          "main-gpu", "2", "n-cpu-moe", "4", "pp-partition", "20,12", NULL);
  g_autoptr(VcEstimate) back = vc_estimate_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *data = vc_profile_serialize (e, "p", "", VC_UNIT_GB, NULL);
  const char *props[] = { "gpu-set", "host-ram", "tensor-split", "split-mode", "main-gpu", "n-cpu-moe", "pp-partition" };

  g_assert_true (vc_profile_parse (data, strlen (data), back, NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < G_N_ELEMENTS (props); i++)
    {
      g_autofree char *x = vc_estimate_dup_input_string (e, props[i]);
      g_autofree char *y = vc_estimate_dup_input_string (back, props[i]);

      g_assert_cmpstr (x, ==, y);
    }
  g_assert_cmpuint (vc_gpu_set_get_n (vc_estimate_get_gpu_set (back)), ==, 3);
  /* a profile of an earlier version, without the keys, keeps the defaults */
  {
    g_autoptr(VcEstimate) old = vc_estimate_new ();
    const char *v1 = "{\"format\": \"vramcalc-profile\", \"version\": 1, \"inputs\": {\"parameters\": 7000000000}}";
    g_autofree char *text = NULL;

    if (vc_profile_parse (v1, strlen (v1), old, NULL, NULL, NULL, NULL))
      {
        text = vc_estimate_dup_input_string (old, "gpu-set");
        g_assert_cmpstr (text, ==, "");
      }
  }
}


static int
vramcalc (char      **out,
          char      **err,
          const char *first,
          ...) G_GNUC_NULL_TERMINATED;

static int
vramcalc (char      **out,
          char      **err,
          const char *first,
          ...)
{
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  va_start (ap, first);
  for (const char *a = first; a; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  return vc_test_run_vramcalc ((const char * const *) args->pdata, NULL, out, err);
}

/* The command line: --gpus, --ram, --tensor-split into the JSON plan and the table; the plan's
 * options refused without a set and for another engine; --solve on the set */
/* --solve on the set, from the command line */
static void
check_cli_solve (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *plan;

  /* --solve on the set: the longest sequence whose plan fits. On two 36 GB cards the model's own
   * context (8192) stops it; on 8.5 GB + 9 GB, memory does: the value fits, one more does not */
  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--engine", "llama.cpp", "--precision", "fp16",
                             "--gpus", "A=36GB:2", "--solve", "seq", "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  plan = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "plan");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (plan, "solve"), "value"), ==, 8192);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--engine", "llama.cpp", "--precision", "fp16",
                             "--gpus", "A=8.5GB,B=9GB", "--solve", "seq", "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  plan = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "plan");
  {
    JsonObject *solve = json_object_get_object_member (plan, "solve");
    g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "engine", "llama.cpp", "precision", "fp16",
                                            "gpu-set", "A=8.5GB,B=9GB", NULL);
    VcPlan p;
    gint64 value = json_object_get_int_member (solve, "value");
    g_autofree char *at = g_strdup_printf ("%" G_GINT64_FORMAT, value);
    g_autofree char *past = g_strdup_printf ("%" G_GINT64_FORMAT, value + 1);

    g_assert_cmpstr (json_object_get_string_member (solve, "variable"), ==, "seq");
    g_assert_cmpint (value, >, 0);
    g_assert_cmpint (value, <, 8192);
    g_assert_true (vc_estimate_set_from_string (e, "seq", at, NULL));
    plan_of (e, &p);
    g_assert_true (p.fits);
    vc_plan_clear (&p);
    g_assert_true (vc_estimate_set_from_string (e, "seq", past, NULL));
    plan_of (e, &p);
    g_assert_false (p.fits);
    vc_plan_clear (&p);
  }
}

/* --pp-partition from the command line: the plan's tokens and layers in the JSON, the balanced
 * partition named without it, and the option refused without a set */
static void
test_cli_pp_partition (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *plan;
  JsonArray *layers;

  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--method", "architecture", "--engine", "vllm",
                             "--precision", "fp16", "--gpus", "A=24GB,B=12GB", "--pp", "2", "--pp-partition", "22,10",
                             "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  plan = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "plan");
  g_assert_cmpint (json_object_get_int_member (plan, "kv_capacity_tokens"), ==, 97184);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (plan, "uncounted"), "bytes_bound"), ==,
                   7168 * 1048576LL);
  g_assert_false (json_object_has_member (plan, "balanced_pp_partition"));
  layers = json_object_get_array_member (json_array_get_object_element (json_object_get_array_member (plan, "devices"), 1),
                                         "layers");
  g_assert_cmpint (json_array_get_int_element (layers, 0), ==, 22);
  g_assert_cmpint (json_array_get_int_element (layers, 1), ==, 31);
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--method", "architecture", "--engine", "vllm",
                             "--precision", "fp16", "--gpus", "A=24GB,B=12GB", "--pp", "2", NULL), ==, 0);
  /* NCCL's buffers at PP 2, not counted: the PP group's two communicators with their send/recv
   * buffers, 2 × (1,920 + 512 + 2 × 64) MiB, and the world's, 1,920 + 2 × 64 MiB (FORMULAS.md) */
  g_assert_nonnull (strstr (out, "KV cache: 20800 tokens on each card, bounded by B\n"
                                 "  NCCL’s buffers are not counted: up to 7.0\u00a0GiB less for the KV cache on each GPU "
                                 "(NCCL’s channel count follows its topology search on the machine)\n"
                                 "  Layers in proportion to each card’s free memory: --pp-partition 21,11\n"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--engine", "vllm", "--pp-partition", "20,12", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--pp-partition: this option shapes the plan on My GPUs"));
}

static void
test_cli (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL, *err = NULL;
  JsonObject *plan, *d0, *d1;
  JsonArray *devices, *components;
  gint64 sum = 0;

  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--engine", "llama.cpp", "--precision", "fp16",
                             "--gpus", "rtx-3090,rtx-3060-12gb", "--ram", "64GB", "--tensor-split", "3,1",
                             "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  plan = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "plan");
  g_assert_cmpstr (json_object_get_string_member (plan, "engine"), ==, "llama.cpp");
  devices = json_object_get_array_member (plan, "devices");
  g_assert_cmpuint (json_array_get_length (devices), ==, 2);
  d0 = json_array_get_object_element (devices, 0);
  d1 = json_array_get_object_element (devices, 1);
  g_assert_cmpstr (json_object_get_string_member (d0, "gpu"), ==, "rtx-3090");
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (d0, "layers"), 0), ==, 0);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (d0, "layers"), 1), ==, 24);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (d1, "layers"), 0), ==, 25);
  g_assert_cmpint (json_array_get_int_element (json_object_get_array_member (d1, "layers"), 1), ==, 31);
  g_assert_true (json_object_get_boolean_member (d1, "output"));
  g_assert_cmpfloat (json_object_get_double_member (d0, "split"), ==, 0.75);
  g_assert_cmpint (json_object_get_int_member (plan, "host_bytes"), ==, 2 * 128256 * 4096);
  g_assert_cmpint (json_object_get_int_member (plan, "ram_bytes"), ==, 64000000000);
  /* the components add up to the card's bytes */
  components = json_object_get_array_member (d0, "components");
  for (guint i = 0; i < json_array_get_length (components); i++)
    sum += json_object_get_int_member (json_array_get_object_element (components, i), "bytes");
  g_assert_cmpint (sum, ==, json_object_get_int_member (d0, "bytes"));
  /* 33 slots fit on 36 GB in 16 bits */
  g_assert_cmpint (json_object_get_int_member (plan, "most_gpu_layers"), ==, 33);
  g_assert_true (json_object_get_boolean_member (plan, "fits"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* the table */
  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--engine", "llama.cpp", "--precision", "fp16",
                             "--gpus", "rtx-3090,rtx-3060-12gb", "--tensor-split", "3,1", NULL), ==, 0);
  g_assert_nonnull (strstr (out, "Plan on My GPUs (llama.cpp): fits"));
  g_assert_nonnull (strstr (out, "  0  rtx-3090: layers 0–24, "));
  g_assert_nonnull (strstr (out, "  1  rtx-3060-12gb: layers 25–31 and the output, "));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* refused, in words: a plan option without a set, another engine's, a wrong card */
  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--engine", "llama.cpp", "--tensor-split", "3,1", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "--gpus"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--engine", "vllm", "--gpus", "rtx-3090:2",
                             "--n-cpu-moe", "2", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "llama.cpp"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  g_assert_cmpint (vramcalc (&out, &err, "--gpus", "rtx-9999", NULL), ==, 2);
  g_assert_nonnull (strstr (err, "not a GPU of the catalog"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);

  /* a refused plan is said in the report, the estimate kept */
  g_assert_cmpint (vramcalc (&out, &err, "--preset", "llama-3-8b", "--mode", "training", "--gpus", "rtx-3090,rtx-3060-12gb",
                             "--format", "json", NULL), ==, 0);
  g_assert_true (json_parser_load_from_data (parser, out, -1, &error));
  plan = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "plan");
  g_assert_nonnull (strstr (json_object_get_string_member (plan, "refused"), "mixed set"));
  g_clear_pointer (&out, g_free);
  g_clear_pointer (&err, g_free);
  check_cli_solve ();
}

/* The command of a plan: what the plan decided, stated. llama.cpp's split as it assigned the
 * layers (3:1 given), the experts kept in RAM; vLLM over the two equal cards at TP 2; Accelerate's
 * map from each card's limit and the RAM given. */
static char *
command_text (VcEstimate      *e,
              VcCommandEngine  engine,
              const char      *model)
{
  g_auto(VcCommandRequest) req;
  g_autoptr(VcCommand) command = NULL;
  g_autoptr(GError) error = NULL;

  vc_command_request_from_estimate (&req, e);
  g_assert_true (vc_command_request_set_model (&req, model, &error));
  command = vc_command_build (engine, &req, &error);
  g_assert_no_error (error);
  return g_strdup (command->text);
}

static void
test_command (void)
{
  g_autoptr(VcEstimate) llama = vc_test_estimate_new ("llama-3-8b", "mode", "inference", "engine", "llama.cpp",
                                              "precision", "fp16", "gpu-set", "rtx-3090,rtx-3060-12gb",
                                              "tensor-split", "3,1", NULL);
  g_autoptr(VcEstimate) moe = vc_test_estimate_new ("mixtral-8x7b", "mode", "inference", "engine", "llama.cpp", "precision", "fp16",
                                            "gpu-set", "rtx-3090,rtx-3090,rtx-4090", "tensor-split", "2,1,1",
                                            "n-cpu-moe", "10", NULL);
  g_autoptr(VcEstimate) vllm = vc_test_estimate_new ("llama-3-8b", "mode", "inference", "engine", "vllm", "gpu-set", "rtx-3090:2", NULL);
  g_autoptr(VcEstimate) staged = vc_test_estimate_new ("llama-3-8b", "mode", "inference", "engine", "vllm", "precision", "fp16",
                                               "gpu-set", "A=24GB,B=12GB", "pp", "2", "pp-partition", "22,10", NULL);
  g_autofree char *s = command_text (staged, VC_COMMAND_VLLM, "hf:meta-llama/Meta-Llama-3-8B");
  g_autoptr(VcEstimate) hf = vc_test_estimate_new ("llama-3.2-1b", "mode", "inference", "gpu-set", "rtx-3090,rtx-3060-12gb", "host-ram", "64GB", NULL);
  g_autofree char *a = command_text (llama, VC_COMMAND_LLAMA_CPP, "hf:org/llama-3-8b-GGUF:model-f16.gguf");
  g_autofree char *b = command_text (moe, VC_COMMAND_LLAMA_CPP, "hf:org/mixtral-GGUF:model-f16.gguf");
  g_autofree char *c = command_text (vllm, VC_COMMAND_VLLM, "hf:meta-llama/Meta-Llama-3-8B");
  g_autofree char *d = command_text (hf, VC_COMMAND_ACCELERATE, "hf:meta-llama/Llama-3.2-1B");

  g_assert_cmpstr (a, ==, "llama-server -hf org/llama-3-8b-GGUF -hff model-f16.gguf -ngl all -ts 25,8 -c 2048 "
                          "-np 1 -fa on");
  g_assert_cmpstr (b, ==, "llama-server -hf org/mixtral-GGUF -hff model-f16.gguf -ngl all -ts 17,8,8 -c 2048 "
                          "-np 1 -fa on --n-cpu-moe 10");
  g_assert_cmpstr (c, ==, "vllm serve meta-llama/Meta-Llama-3-8B --tensor-parallel-size 2 --max-model-len 2048 "
                          "--gpu-memory-utilization 0.9");
  g_assert_cmpstr (s, ==, "VLLM_PP_LAYER_PARTITION=22,10 vllm serve meta-llama/Meta-Llama-3-8B --pipeline-parallel-size 2 "
                          "--max-model-len 2048 --gpu-memory-utilization 0.9 --dtype float16");
  g_assert_nonnull (strstr (d, "max_memory={0: \"24576MiB\", 1: \"12288MiB\", \"cpu\": \"61036MiB\"}"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/plan/set-parse", test_set_parse);
  g_test_add_func ("/plan/llama-assignment", test_llama_assignment);
  g_test_add_func ("/plan/llama-two-cards", test_llama_two_cards);
  g_test_add_func ("/plan/llama-three-cards-experts", test_llama_three_cards_experts);
  g_test_add_func ("/plan/accelerate", test_accelerate);
  g_test_add_func ("/plan/vllm-bounded", test_vllm_bounded);
  g_test_add_func ("/plan/vllm-mxfp4", test_vllm_mxfp4);
  g_test_add_func ("/plan/vllm-triton-buffer", test_vllm_triton_buffer);
  g_test_add_func ("/plan/vllm-card-defaults", test_vllm_card_defaults);
  g_test_add_func ("/plan/vllm-pp-partition", test_vllm_pp_partition);
  g_test_add_func ("/plan/set-pp", test_set_pp);
  g_test_add_func ("/plan/refusals", test_refusals);
  g_test_add_func ("/plan/training-uniform", test_training_uniform);
  g_test_add_func ("/plan/profile-round-trip", test_profile_round_trip);
  g_test_add_func ("/plan/cli", test_cli);
  g_test_add_func ("/plan/cli-pp-partition", test_cli_pp_partition);
  g_test_add_func ("/plan/command", test_command);
  return g_test_run ();
}
