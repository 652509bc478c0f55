/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Layouts over several GPUs and host memory (vc-layout.c): per-GPU parts that add up to the
 * whole, replication counted exactly, every constraint refused with its message, the smallest
 * valid layout of a card, ZeRO/FSDP sharding, offload, and the command line and profiles.
 *
 * Shapes used below (presets, from each model's config.json):
 *   Llama 3 8B:   L = 32, h = 4096, a = 32, a_kv = 8, d = 128, I = 14336, V = 128256, untied
 *   Llama 3.2 1B: L = 16, h = 2048, V = 128256, tied embeddings
 *   Mixtral 8x7B: L = 32, h = 4096, 8 experts of I = 14336, 2 per token
 */
#include "config.h"

#include <gio/gio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "vc-catalog.h"
#include "vc-error.h"
#include "vc-estimate.h"
#include "vc-layout.h"
#include "vc-profile.h"
#include "vc-test-util.h"

/* Llama 3 8B, by hand: one decoder layer holds q and o (h·a·d each), k and v (h·a_kv·d each),
 * gate, up and down (3·h·I) and two RMSNorms (2h) */
#define L8_LAYER ((double) (2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096))
#define L8_VOCAB ((double) 128256 * 4096)
/* what TP replicates: every norm, 2h a layer and the final h, in 16 bits */
#define L8_NORM_BYTES ((32.0 * 2 * 4096 + 4096) * 2)
/* KV cache per layer for 2048 tokens: 2 × 8 heads × 128 × 2 bytes × 2048 */
#define L8_KV_LAYER (2.0 * 8 * 128 * 2 * 2048)

static const VcLayoutResult *
layout_of (VcEstimate *e)
{
  g_autoptr(GError) error = NULL;
  const VcLayoutResult *lr;

  vc_estimate_check (e, &error);
  g_assert_no_error (error);
  lr = vc_estimate_get_layout_result (e);
  g_assert_nonnull (lr);
  return lr;
}

static double
whole (VcEstimate *e,
       VcComponent c)
{
  return vc_estimate_get_selected (e)->bytes[c];
}

static void
test_pp_partition (void)
{
  static const struct
  {
    guint layers, pp, sizes[5];
  } cases[] = {
    { 32, 4, { 8, 8, 8, 8 } },
    { 32, 3, { 11, 11, 10 } },
    { 22, 4, { 5, 6, 6, 5 } },
    { 61, 4, { 15, 15, 16, 15 } },
    { 126, 5, { 25, 25, 25, 26, 25 } },
  };

  /* vLLM's get_pp_indices: the remainder goes to the stages before the last, backwards */
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    for (guint i = 0; i < cases[c].pp; i++)
      g_assert_cmpuint (vc_layout_pp_stage_size (cases[c].layers, cases[c].pp, i), ==, cases[c].sizes[i]);
}

/* Under PP nothing is replicated in an untied model: stages add up to the whole exactly */
static void
test_pp_adds_up (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "pp", "4", NULL);
  const VcLayoutResult *lr = layout_of (e);

  g_assert_cmpuint (lr->n_gpus, ==, 4);
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], ==, whole (e, VC_COMPONENT_WEIGHTS));
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_KV_CACHE], ==, whole (e, VC_COMPONENT_KV_CACHE));
  /* the last stage is the busiest: 8 layers, the final norm and the head */
  g_assert_cmpuint (lr->busiest_stage, ==, 3);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, (8 * L8_LAYER + 4096 + L8_VOCAB) * 2);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, 8 * L8_KV_LAYER);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_OVERHEAD], ==, 1e9);
  g_assert_cmpfloat (lr->total, ==, lr->bytes[VC_COMPONENT_WEIGHTS] + lr->bytes[VC_COMPONENT_KV_CACHE] +
                                    lr->bytes[VC_COMPONENT_ACTIVATIONS] + 1e9);
}

/* TP: norms replicated, KV heads split while TP ≤ a_kv and replicated beyond */
static void
test_tp_replication (void)
{
  g_autoptr(VcEstimate) tp2 = vc_test_estimate_new ("llama-3-8b", "tp", "2", NULL);
  g_autoptr(VcEstimate) tp16 = vc_test_estimate_new ("llama-3-8b", "tp", "16", NULL);
  const VcLayoutResult *lr;
  double W = whole (tp2, VC_COMPONENT_WEIGHTS);
  double K = whole (tp2, VC_COMPONENT_KV_CACHE);

  lr = layout_of (tp2);
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], ==, W + L8_NORM_BYTES);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, (W + L8_NORM_BYTES) / 2);
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_KV_CACHE], ==, K);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, K / 2);

  /* TP 16 over 8 KV heads: each GPU keeps one whole KV head, so K and V (projections and
   * cache) exist twice: 8 more heads' k and v weights, h × d each, in every layer */
  lr = layout_of (tp16);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, K / 8);
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_KV_CACHE], ==, 2 * K);
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], ==,
                     W + 15 * L8_NORM_BYTES + 32.0 * 8 * 2 * 4096 * 128 * 2);
}

/* A tied embedding has a copy on the last stage, as vLLM and Megatron place it */
static void
test_tied_embedding_under_pp (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3.2-1b", "pp", "2", NULL);
  const VcLayoutResult *lr = layout_of (e);

  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], ==,
                     whole (e, VC_COMPONENT_WEIGHTS) + 128256.0 * 2048 * 2);
}

/* EP 8 over 8 GPUs: each holds one of the 8 experts of every layer; attention, norms, router
 * and embeddings are replicated on all 8 */
static void
test_expert_parallel (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("mixtral-8x7b", "ep", "8", "dp", "8", NULL);
  const VcLayoutResult *lr = layout_of (e);
  double experts = 32.0 * 8 * 3 * 4096 * 14336 * 2;
  double W = whole (e, VC_COMPONENT_WEIGHTS);

  g_assert_cmpuint (lr->n_gpus, ==, 8);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, W - experts * 7 / 8);
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], ==, W + 7 * (W - experts));
}

static void
assert_refused (VcEstimate *e,
                const char *message)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (vc_estimate_check (e, &error));
  g_assert_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION);
  if (strstr (error->message, message) == NULL)
    g_error ("expected “%s” in “%s”", message, error->message);
  g_assert_null (vc_estimate_get_layout_result (e));
}

static void
test_constraints (void)
{
  struct { const char *preset; const char *props[14]; const char *message; } cases[] = {
    { "llama-3-8b", { "tp", "3" }, "TP (3) must divide the attention heads (32)" },
    { "llama-3-8b", { "pp", "33" }, "PP (33) cannot exceed the layers (32)" },
    { "llama-3-8b", { "ep", "2", "dp", "2" }, "EP (2) needs a mixture-of-experts model" },
    { "mixtral-8x7b", { "ep", "3", "dp", "3" }, "EP (3) must divide the experts (8)" },
    { "mixtral-8x7b", { "ep", "8", "tp", "2" }, "EP (8) is larger than the GPUs of a pipeline stage, TP × DP = 2" },
    { "mixtral-8x7b", { "ep", "4", "tp", "2", "dp", "3" }, "EP (4) must divide the GPUs of a pipeline stage, TP × DP = 6" },
    { "llama-3-8b", { "tp", "1024", "heads", "1024", "kv-heads", "1024", "intermediate-size", "1024", "hidden-size", "1024",
                      "dp", "100000" }, "TP × PP × DP is 102400000 GPUs; accepted: at most 1000000" },
    { "llama-3-8b", { "kv-heads", "4", "heads", "32", "tp", "8", "intermediate-size", "14336" }, NULL },
    { "llama-3-8b", { "heads", "24", "kv-heads", "6", "tp", "4" }, "TP (4) and the KV heads (6) must divide one another" },
    { "llama-3-8b", { "intermediate-size", "14000", "tp", "32" }, "TP (32) must divide the feed-forward size (14000)" },
    { "llama-3-8b", { "gpu-layers", "8", "tp", "2" }, "modelled on one GPU" },
    { "llama-3-8b", { "experts-on-cpu", "true" }, "needs a mixture-of-experts model" },
    { "llama-3-8b", { "mode", "training", "dp", "4", "offload", "optimizer" }, "--offload needs ZeRO 1, 2 or 3" },
    { "llama-3-8b", { "mode", "training", "sharding", "zero-2", "offload", "optimizer+params" },
      "parameter offload needs ZeRO-3" },
    { "llama-3-8b", { "mode", "training", "sharding", "fsdp-hybrid", "dp", "12" },
      "the data-parallel GPUs (12) must be a multiple of the GPUs per node (8)" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcEstimate) e = vc_test_estimate_new (cases[i].preset, NULL);
      g_autoptr(GError) error = NULL;

      for (guint k = 0; cases[i].props[k]; k += 2)
        {
          g_assert_true (vc_estimate_set_from_string (e, cases[i].props[k], cases[i].props[k + 1], &error));
          g_assert_no_error (error);
        }
      if (cases[i].message == NULL)
        {
          /* TP 8 over 4 KV heads: allowed, each KV head on two GPUs */
          g_assert_true (vc_estimate_check (e, &error));
          g_assert_no_error (error);
          continue;
        }
      assert_refused (e, cases[i].message);
    }

  /* one estimate holds both tabs' layouts: each mode uses its own and leaves the other's */
  {
    g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "tp", "2", "sharding", "zero-3", "dp", "2", NULL);
    const VcLayoutResult *lr = layout_of (e);

    g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, whole (e, VC_COMPONENT_KV_CACHE) / 2);
    g_object_set (e, "mode", VC_MODE_TRAINING, NULL);
    lr = layout_of (e);
    g_assert_cmpuint (lr->n_gpus, ==, 2);
    g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, whole (e, VC_COMPONENT_WEIGHTS) / 2);
  }

  /* the rule of thumb knows no experts or layers to place */
  {
    g_autoptr(VcEstimate) e = vc_estimate_new ();
    g_object_set (e, "ep", 2, "dp", 2, NULL);
    assert_refused (e, "EP (2) needs the architecture method");
    g_object_set (e, "ep", 1, "gpu-layers", 10, NULL);
    assert_refused (e, "--gpu-layers needs the architecture method");
  }
}

static const char *
smallest_layout (VcEstimate *e,
                 const char *gpu_id)
{
  static char text[128];

  for (guint i = 0; i < vc_estimate_get_n_gpus (e); i++)
    {
      const VcGpu *gpu = vc_estimate_get_gpu (e, i);
      const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, i);
      const VcInputs *in = vc_estimate_get_inputs (e);
      g_autofree char *how = NULL;

      if (!g_str_equal (gpu->id, gpu_id))
        continue;
      if (fit->count <= 0)
        return "none";
      how = vc_layout_describe (&fit->layout, in->mode, in->method, FALSE);
      g_snprintf (text, sizeof text, "%.0f × %s%s%s", fit->count, gpu->name, *how ? " · " : "", how);
      return text;
    }
  g_assert_not_reached ();
}

/* The smallest valid layout of a card, worked out by hand (bf16, s = 2048, C = 1, 1 GB
 * overhead a GPU; H100 80 GB = 81559 MiB = 85.52 GB, L4 = 23034 MiB = 24.15 GB,
 * RTX 4090 = 24564 MiB = 25.76 GB) */
static void
test_smallest_layouts (void)
{
  g_autoptr(VcEstimate) l8 = vc_test_estimate_new ("llama-3-8b", NULL);
  g_autoptr(VcEstimate) l70 = vc_test_estimate_new ("llama-3-70b", NULL);
  g_autoptr(VcEstimate) l405 = vc_test_estimate_new ("llama-3.1-405b", NULL);
  g_autoptr(VcEstimate) train = vc_test_estimate_new ("llama-3-8b", "mode", "training", "finetune", "full",
                                              "mixed-precision", "true", NULL);

  /* 16.06 GB of weights, 0.27 GB of KV, 0.21 GB of activations, 1 GB: one card */
  g_assert_cmpstr (smallest_layout (l8, "rtx-4090"), ==, "1 × RTX 4090");
  /* 141.1 GB of weights: TP 2 puts 70.6 GB on each H100, with 1.3 GB of the rest */
  g_assert_cmpstr (smallest_layout (l70, "h100-80gb"), ==, "2 × H100 80 GB · TP 2");
  /* the search sets its own degrees: an impossible layout of the inputs does not blank the table */
  g_object_set (l70, "tp", 3, NULL);
  g_assert_null (vc_estimate_get_layout_result (l70));
  g_assert_cmpstr (smallest_layout (l70, "h100-80gb"), ==, "2 × H100 80 GB · TP 2");
  g_object_set (l70, "tp", 1, NULL);
  /* on 24 GB cards: 141.1 GB / (24.15 − 1) GB needs 7 cards at least; 7 is no TP degree, so
   * PP 7: 80 layers as 11, 11, 11, 12, 12, 12, 11, and 12 layers of 1.711 GB (855,654,400
   * parameters each) are 20.5 GB + 1 GB. Six stages would hold 14 layers: 24.0 + 1 GB. */
  g_assert_cmpstr (smallest_layout (l70, "l4"), ==, "7 × L4 · PP 7");
  /* 811.7 GB of weights need at least 10 H100s; TP 8 alone gives 101 GB a card, and 10 GPUs
   * are TP 2 × PP 5 (126 layers as 25, 25, 25, 26, 25: 81.2 + 1 GB on the busiest stage) */
  g_assert_cmpstr (smallest_layout (l405, "h100-80gb"), ==, "10 × H100 80 GB · TP 2 × PP 5");
  /* full fine-tuning, mixed precision AdamW: 8.03B × 16 bytes (131 GB with 16.9 GB of
   * activations) is too much for one; ZeRO-3 over 2 holds 8.0 GB of bf16 weights, 32.1 of Adam
   * state, 16.1 of master weights and, at the optimizer step, the 16.1 GB fp32 gradient
   * partition and the foreach step's temporary, one fp32 state of the shard, 16.1 GB: 88.3 GB
   * + 1 GB and 2.1 GB of buffers, too much for 80 GB; over 3 it is 58.9 + 1 + 2.1 GB */
  g_assert_cmpstr (smallest_layout (train, "h100-80gb"), ==, "3 × H100 80 GB · ZeRO-3");
}

/* ZeRO and DDP over 8 GPUs, rule of thumb 7B full fine-tuning with mixed precision AdamW:
 * 14 GB of bf16 weights, 14 of gradients, 56 of Adam state, 28 of fp32 master weights,
 * 1.4 of activations and 2 of overhead (seed 000) */
static void
test_zero (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  const VcLayoutResult *lr;

  g_object_set (e, "mode", VC_MODE_TRAINING, "finetune", VC_FINETUNE_FULL, "mixed-precision", TRUE,
                "dp", 8, NULL);
  /* DDP: everything replicated, plus buckets holding a copy of every gradient */
  lr = layout_of (e);
  g_assert_cmpfloat (lr->total, ==, (14 + 14 + 56 + 28 + 14 + 1.4 + 2) * 1e9);
  g_assert_cmpfloat (lr->buffers, ==, 14e9);

  /* ZeRO-1: state sharded; 16-bit gradients whole, an fp32 gradient partition for the step and
   * DeepSpeed's 5e8-element reduce bucket */
  g_object_set (e, "sharding", VC_SHARDING_ZERO_1, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_GRADIENTS], ==, 14e9 + 28e9 / 8);
  g_assert_cmpfloat (lr->total, ==, (14 + 14 + 3.5 + 7 + 3.5 + 1 + 1.4 + 2) * 1e9);

  /* ZeRO-3: 18 bytes a parameter over 8 GPUs (DeepSpeed's memory.rst), and the gathered
   * 5e7-parameter prefetch bucket with its gradients */
  g_object_set (e, "sharding", VC_SHARDING_ZERO_3, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS] + lr->bytes[VC_COMPONENT_GRADIENTS] +
                     lr->bytes[VC_COMPONENT_OPTIMIZER] + lr->bytes[VC_COMPONENT_MASTER_WEIGHTS], ==, 18 * 7e9 / 8);
  g_assert_cmpfloat (lr->buffers, ==, 5e7 * 4);
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_OPTIMIZER], ==, 56e9);
  g_assert_cmpfloat (lr->host_bytes, ==, 0);

  /* ZeRO-Offload: state and fp32 gradients of the 8 GPUs of the node in host RAM */
  g_object_set (e, "offload", VC_OFFLOAD_OPTIMIZER, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->total, ==, (1.75 + 0.2 + 1.4 + 2) * 1e9);
  g_assert_cmpfloat (lr->host_bytes, ==, (7 + 3.5 + 3.5) * 1e9 * 8);
  g_object_set (e, "offload", VC_OFFLOAD_OPTIMIZER_PARAMS, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, 0);
  g_assert_cmpfloat (lr->host_bytes, ==, (1.75 + 7 + 3.5 + 3.5) * 1e9 * 8);

  /* HSDP shards inside a node of 4: the state is a quarter, whatever the count */
  g_object_set (e, "offload", VC_OFFLOAD_NONE, "sharding", VC_SHARDING_FSDP_HYBRID, "gpus-per-node", 4, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_OPTIMIZER], ==, 56e9 / 4);
}

/* Gradient accumulation keeps the gradients through the next micro-batch's forward pass */
static void
test_grad_accum (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3.2-1b", "mode", "training", "finetune", "full",
                                          "seq", "4096", NULL);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  const VcLayoutResult *lr = layout_of (e);

  g_assert_cmpint (sc->peak_phase, ==, VC_PHASE_FORWARD);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_GRADIENTS], ==, 0);
  g_assert_cmpfloat (lr->total, ==, sc->total);
  g_object_set (e, "grad-accum", 8, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_GRADIENTS], ==, round (sc->gradient_bytes));
  g_assert_cmpfloat (lr->total, ==, sc->total + round (sc->gradient_bytes));
}

/* llama.cpp -ngl N (src/llama-model.cpp, load_tensors: i_gpu_start = max(n_layer + 1 − N, 0),
 * the output being layer n_layer): the output layer and the last N − 1 repeating layers on the
 * GPU, the token embedding always in system RAM; KV follows its layer */
static void
test_gpu_layers (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "gpu-layers", "16", NULL);
  const VcLayoutResult *lr = layout_of (e);

  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, (15 * L8_LAYER + L8_VOCAB + 4096) * 2);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, 15 * L8_KV_LAYER);
  g_assert_cmpfloat (lr->host_bytes, ==, (17 * L8_LAYER + L8_VOCAB) * 2 + 17 * L8_KV_LAYER);

  /* -ngl 1: the output layer alone */
  g_object_set (e, "gpu-layers", 1, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, (L8_VOCAB + 4096) * 2);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, 0);
  g_assert_cmpfloat (lr->host_bytes, ==, (32 * L8_LAYER + L8_VOCAB) * 2 + 32 * L8_KV_LAYER);

  /* -ngl 32 of 33: the first repeating layer stays on the CPU */
  g_object_set (e, "gpu-layers", 32, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, (31 * L8_LAYER + L8_VOCAB + 4096) * 2);
  g_assert_cmpfloat (lr->host_bytes, ==, (L8_LAYER + L8_VOCAB) * 2 + L8_KV_LAYER);

  g_object_set (e, "gpu-layers", 33, NULL);
  lr = layout_of (e);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, (32 * L8_LAYER + L8_VOCAB + 4096) * 2);
  g_assert_cmpfloat (lr->host_bytes, ==, L8_VOCAB * 2);
}

/* llama.cpp over several GPUs: its layer split (load_tensors: layer il of L + 1, the output
 * being layer L, goes to the first GPU whose cumulative share exceeds il / (L + 1)), the token
 * embedding in system RAM; never tensor parallelism, in the inputs or in the GPU table */
static void
test_llama_cpp_layer_split (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3-8b", "engine", "llama.cpp", "pp", "2", NULL);
  g_autoptr(GError) error = NULL;
  const VcLayoutResult *lr = layout_of (e);
  guint n = vc_estimate_get_n_gpus (e);

  /* 33 layers over 2: il 0–16 on the first GPU (17 layers), 17–31 and the output on the second */
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], ==, (32 * L8_LAYER + L8_VOCAB + 4096) * 2);
  g_assert_cmpuint (lr->busiest_stage, ==, 1);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, (15 * L8_LAYER + L8_VOCAB + 4096) * 2);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, 15 * L8_KV_LAYER);
  g_assert_cmpfloat (lr->host_bytes, ==, L8_VOCAB * 2);

  g_object_set (e, "pp", 1, "tp", 2, NULL);
  g_assert_false (vc_estimate_check (e, &error));
  g_assert_nonnull (strstr (error->message, "llama.cpp splits the layers across GPUs, not the tensors"));
  g_object_set (e, "tp", 1, "seq", 65536, "concurrency", 4, NULL);
  for (guint g = 0; g < n; g++)
    {
      const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, g);

      g_assert_cmpuint (fit->layout.tp, ==, 1);
      if (fit->count > 1)
        {
          g_autofree char *how = vc_layout_describe (&fit->layout, VC_MODE_INFERENCE, VC_METHOD_ARCHITECTURE, FALSE);

          g_assert_cmpstr (how, ==, "layer split");
          g_assert_cmpfloat (fit->layout.pp, ==, fit->count);
        }
    }
}

/* --override-tensor exps=CPU: the routed experts in system RAM with the token embedding (which
 * llama.cpp always keeps there), everything else on the GPU */
static void
test_experts_on_cpu (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("mixtral-8x7b", "experts-on-cpu", "true", NULL);
  const VcLayoutResult *lr = layout_of (e);
  double experts = 32.0 * 8 * 3 * 4096 * 14336 * 2;
  double embedding = 32000.0 * 4096 * 2;

  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, whole (e, VC_COMPONENT_WEIGHTS) - experts - embedding);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, whole (e, VC_COMPONENT_KV_CACHE));
  g_assert_cmpfloat (lr->host_bytes, ==, experts + embedding);
}

/* The rule of thumb splits evenly: no heads or layers to check */
static void
test_rule_of_thumb_even_split (void)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  const VcLayoutResult *lr;

  g_object_set (e, "tp", 2, "pp", 2, NULL);
  lr = layout_of (e);
  /* the seed's 7B: 14 + 1.4 + 1.4 GB over 4 GPUs, 2 GB overhead each */
  g_assert_cmpfloat (lr->total, ==, 16.8e9 / 4 + 2e9);
  g_assert_cmpfloat (lr->all_total, ==, 16.8e9 + 4 * 2e9);
}

/* Every preset under every TP and PP it allows: the busiest GPU never holds more than one GPU
 * alone would, and the GPUs together never hold less than the model (replication only adds) */
static void
test_presets_sweep (void)
{
  guint n_presets;
  const VcPreset *presets = vc_presets_get_all (&n_presets);
  guint checked = 0;

  for (guint p = 0; p < n_presets; p++)
    /* every shape of model once (the smallest of each family and kind) */
    for (guint tp = 1; vc_test_first_of_family (p) && tp <= 16; tp *= 2)
      for (guint pp = 1; pp <= 5; pp++)
        {
          g_autoptr(VcEstimate) e = vc_test_estimate_new (presets[p].id, NULL);
          const VcScenarioResult *one = vc_estimate_get_selected (e);

          g_test_message ("%s, tp %u, pp %u", presets[p].id, tp, pp);
          const VcLayoutResult *lr;

          g_object_set (e, "tp", tp, "pp", pp, "concurrency", 3, NULL);
          if (!vc_estimate_check (e, NULL))
            continue;
          lr = vc_estimate_get_layout_result (e);
          g_assert_nonnull (lr);
          g_assert_true (isfinite (lr->total) && lr->total > 0);
          g_assert_cmpfloat (lr->total, <=, one->total);
          g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], >=, one->bytes[VC_COMPONENT_WEIGHTS]);
          g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_KV_CACHE], >=, one->bytes[VC_COMPONENT_KV_CACHE]);
          g_assert_cmpuint (lr->n_gpus, ==, tp * pp);
          checked++;
        }
  g_assert_cmpuint (checked, >, 200);
}

/* Sliding-window layers over pipeline stages placed by the pattern (every Pth layer full, layer i
 * when (i + 1) mod P = 0): the stages together hold the model's cache once, and the busiest GPU
 * its stage's own full layers, not all of them (Gemma 3 27B: 62 layers, P 6; gpt-oss-20b: 24, P 2) */
static void
test_sliding_stages (void)
{
  static const struct { const char *preset; guint pp; double full; } cases[] = {
    { "gemma-3-27b-it", 2, 10 }, { "gemma-3-27b-it", 4, 10 }, { "gpt-oss-20b", 2, 12 }, { "gpt-oss-20b", 3, 12 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(VcEstimate) e = vc_test_estimate_new (cases[c].preset, NULL);
      const VcArch *a = &vc_estimate_get_inputs (e)->arch;
      double one_kv, per_full, per_sliding;
      guint first, n, stage_full = 0;
      const VcLayoutResult *lr;

      g_object_set (e, "seq", 32768, "concurrency", 2, NULL);
      one_kv = vc_estimate_get_selected (e)->bytes[VC_COMPONENT_KV_CACHE];
      /* a full layer's cache of the two requests, and a windowed one's */
      per_full = 2.0 * 32768 * 2 * a->n_kv_heads * a->head_dim * 2;
      per_sliding = per_full * MIN (a->sliding_window, 32768u) / 32768;
      g_assert_cmpfloat (one_kv, ==, cases[c].full * per_full + (a->n_layers - cases[c].full) * per_sliding);
      g_object_set (e, "pp", cases[c].pp, NULL);
      lr = layout_of (e);
      g_assert_cmpfloat_with_epsilon (lr->all_bytes[VC_COMPONENT_KV_CACHE], one_kv, one_kv * 1e-12);
      first = vc_layout_pp_stage_first (a->n_layers, cases[c].pp, lr->busiest_stage);
      n = vc_layout_pp_stage_size (a->n_layers, cases[c].pp, lr->busiest_stage);
      for (guint i = first; i < first + n; i++)
        stage_full += (i + 1) % a->sliding_window_pattern == 0;
      g_test_message ("%s, PP %u: stage %u, layers %u to %u, %u full", cases[c].preset, cases[c].pp,
                      lr->busiest_stage, first, first + n - 1, stage_full);
      g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, stage_full * per_full + (n - stage_full) * per_sliding);
    }
}

static void vramcalc (VcTestRun  *r,
                      const char *first,
                      ...) G_GNUC_NULL_TERMINATED;

/* The CLI's JSON of SGLang at PP 3 (test_sglang_stage_split()): its busiest GPU the last stage,
 * its pool from that stage's weights and cell, and the H100's row of three cards at PP 3 */
static void
test_sglang_stage_split_cli (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(VcTestRun) r = { 0 };
  JsonObject *root, *engine, *per_gpu;
  JsonArray *gpus;
  gboolean seen = FALSE;

  vramcalc (&r, "--preset", "llama-3.1-70b", "--engine", "sglang", "--pp", "3", "--fit-gpu", "h100-80gb", "--format",
            "json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  per_gpu = json_object_get_object_member (root, "per_gpu");
  g_assert_cmpint (json_object_get_int_member (per_gpu, "stage"), ==, 2);
  g_assert_cmpfloat (vc_test_component_bytes (per_gpu, "weights"), ==, 48373809152.0);
  engine = json_object_get_object_member (root, "engine");
  g_assert_cmpint (json_object_get_int_member (engine, "budget_bytes"), ==, 69939196035);
  g_assert_cmpint (json_object_get_int_member (engine, "available_kv_bytes"), ==, 69939196035 - 48373809152);
  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==, 194999);
  g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==, 194999 / 2048.0);
  gpus = json_object_get_array_member (root, "gpus");
  for (guint i = 0; i < json_array_get_length (gpus); i++)
    {
      JsonObject *g = json_array_get_object_element (gpus, i);

      if (!g_str_equal (json_object_get_string_member (g, "id"), "h100-80gb"))
        continue;
      g_assert_cmpint (json_object_get_int_member (g, "count"), ==, 3);
      g_assert_cmpstr (json_object_get_string_member (g, "layout_text"), ==, "3 × H100 80 GB · PP 3");
      g_assert_cmpint (json_object_get_int_member (g, "kv_capacity_tokens"), ==, 194999);
      seen = TRUE;
    }
  g_assert_true (seen);
  /* the text names the busiest stage's layers, from 1, as each engine splits them: SGLang's
   * last stage 54 to 80 (27 layers), vLLM's 55 to 80 (26) */
  for (guint i = 0; i < 2; i++)
    {
      g_auto(VcTestRun) text = { 0 };

      vramcalc (&text, "--preset", "llama-3.1-70b", "--engine", i == 0 ? "sglang" : "vllm", "--pp", "3", NULL);
      g_assert_cmpint (text.status, ==, 0);
      g_assert_nonnull (strstr (text.out, i == 0 ? "Busiest GPU (pipeline stage 3, layers 54 to 80 of 80):"
                                                 : "Busiest GPU (pipeline stage 3, layers 55 to 80 of 80):"));
    }
}

/* Each engine's split of the layers (vc_layout_stage_layers()): SGLang's get_pp_indices
 * (python/sglang/srt/distributed/utils.py at commit 1107be1) gives q = L / PP layers a stage and
 * the remainder r one each to the last r stages, stage i ≥ PP − r starting at i(q + 1) − (PP −
 * r); vLLM's to the stages before the last. 80 layers over 3: q 26, r 2: SGLang 26, 27, 27 from
 * 0, 26 (1 × 27 − 1), 53 (2 × 27 − 1); vLLM 27, 27, 26 from 0, 27, 54. 62 over 4: q 15, r 2:
 * SGLang 15, 15, 16, 16 from 0, 15, 30 (2 × 16 − 2), 46 (3 × 16 − 2); vLLM 15, 16, 16, 15 from
 * 0, 15, 31, 47. An even split is the same in both. The generic engine and llama.cpp's PP take
 * vLLM's, as SGLang's training or rule-of-thumb estimate would. */
static void
test_stage_layers (void)
{
  static const struct
  {
    const char *engine;
    guint layers, pp, sizes[4], firsts[4];
  } cases[] = {
    { "sglang", 80, 3, { 26, 27, 27 }, { 0, 26, 53 } },
    { "vllm", 80, 3, { 27, 27, 26 }, { 0, 27, 54 } },
    { "generic", 80, 3, { 27, 27, 26 }, { 0, 27, 54 } },
    { "sglang", 62, 4, { 15, 15, 16, 16 }, { 0, 15, 30, 46 } },
    { "vllm", 62, 4, { 15, 16, 16, 15 }, { 0, 15, 31, 47 } },
    { "sglang", 80, 4, { 20, 20, 20, 20 }, { 0, 20, 40, 60 } },
    { "sglang", 61, 4, { 15, 15, 15, 16 }, { 0, 15, 30, 45 } },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3.1-70b", "engine", cases[c].engine, NULL);
      VcInputs in = *vc_estimate_get_inputs (e);

      in.arch.n_layers = cases[c].layers;
      for (guint i = 0; i < cases[c].pp; i++)
        {
          guint first, n;

          vc_layout_stage_layers (&in, cases[c].pp, i, &first, &n);
          g_assert_cmpuint (n, ==, cases[c].sizes[i]);
          g_assert_cmpuint (first, ==, cases[c].firsts[i]);
          g_assert_cmpuint (vc_layout_stage_size (&in, cases[c].pp, i), ==, n);
          g_assert_cmpuint (vc_layout_stage_first (&in, cases[c].pp, i), ==, first);
        }
    }
}

/* Llama 3.1 70B (80 layers, h 8192, a_kv 8 × 128, I 28672, V 128256 untied), 16-bit. A layer:
 * attention 2 × 8192² + 2 × 8192 × 1024 = 150,994,944, MLP 3 × 8192 × 28672 = 704,643,072, two
 * norms 16,384: 855,654,400 parameters; embedding and head 128256 × 8192 = 1,050,673,152 each,
 * the final norm 8192. At PP 3 the busiest GPU is the last stage in both engines, with the
 * head, the logits of vLLM's profile run or SGLang's extra layer: vLLM's holds 26 layers (its
 * split gives the extra ones to the stages before the last: 23,297,695,744 parameters,
 * 46,595,391,488 bytes, and vLLM's RoPE table of 131072 × 128 × 2 bytes, 33,554,432), SGLang's
 * 27 (24,153,350,144 parameters, 48,306,700,288 bytes, and SGLang's fp32 table, 67,108,864), and
 * their caches 26 and 27 layers of 2,048 tokens × 4,096 bytes. SGLang's pool there
 * (vc-engine.c, sglang_stages_plain): the budget 0.832 × (85,061,533,696 − 1e9) =
 * 69,939,196,035 bytes (mem_fraction_static 0.832 for an 80 GiB card at TP 1) less the
 * heaviest stage's 48,373,809,152 = 21,565,386,883, over the largest stage's cell, 27 layers ×
 * 2 × 8 × 128 × 2 = 110,592 bytes: 194,999 tokens (195,000 × 110,592 = 21,565,440,000 is too
 * many). No longer refused, the uneven split brings SGLang's GPU table back to three H100s at PP
 * 3 (it held four at TP 4 while only a PP dividing the layers was taken); vLLM two at TP 2; on
 * A100 40 GB SGLang's five stages (80 = 5 × 16) stay. */
#define L70_LAYER 855654400.0
#define L70_VOCAB 1050673152.0
static void
test_sglang_stage_split (void)
{
  static const struct { const char *engine, *gpu; guint count, tp, pp, layers; double rope; } cases[] = {
    { "vllm", "h100-80gb", 2, 2, 1, 26, 33554432 },
    { "sglang", "h100-80gb", 3, 1, 3, 27, 67108864 },
    { "sglang", "a100-40gb", 5, 1, 5, 27, 67108864 },
  };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autoptr(VcEstimate) e = vc_test_estimate_new ("llama-3.1-70b", "engine", cases[c].engine, NULL);
      const VcGpuFit *fit = vc_estimate_get_gpu_fit (e, vc_test_gpu_index (e, cases[c].gpu));
      const VcLayoutResult *lr;

      g_test_message ("%s on %s: %.0f GPUs, TP %u × PP %u", cases[c].engine, cases[c].gpu, fit->count, fit->layout.tp,
                      fit->layout.pp);
      g_assert_cmpfloat (fit->count, ==, cases[c].count);
      g_assert_cmpuint (fit->layout.tp, ==, cases[c].tp);
      g_assert_cmpuint (fit->layout.pp, ==, cases[c].pp);
      g_object_set (e, "pp", 3, NULL);
      lr = layout_of (e);
      g_assert_cmpuint (lr->busiest_stage, ==, 2);
      g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==,
                         (cases[c].layers * L70_LAYER + 8192 + L70_VOCAB) * 2 + cases[c].rope);
      g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE], ==, cases[c].layers * 4096.0 * 2048);
    }
  test_sglang_stage_split_cli ();
}

/* Two layout results, field by field: the same doubles, not nearly */
static void
assert_layout_results_equal (const VcLayoutResult *a,
                             const VcLayoutResult *b)
{
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    {
      g_assert_cmpfloat (a->bytes[c], ==, b->bytes[c]);
      g_assert_cmpfloat (a->all_bytes[c], ==, b->all_bytes[c]);
    }
  g_assert_cmpfloat (a->buffers, ==, b->buffers);
  g_assert_cmpfloat (a->total, ==, b->total);
  g_assert_cmpfloat (a->reserved, ==, b->reserved);
  g_assert_cmpfloat (a->all_buffers, ==, b->all_buffers);
  g_assert_cmpfloat (a->all_total, ==, b->all_total);
  g_assert_cmpfloat (a->host_bytes, ==, b->host_bytes);
  g_assert_cmpuint (a->n_gpus, ==, b->n_gpus);
  g_assert_cmpuint (a->busiest_stage, ==, b->busiest_stage);
  g_assert_cmpint (a->peak_phase, ==, b->peak_phase);
  g_assert_cmpfloat (a->step_temporary, ==, b->step_temporary);
}

/* The search over many cards shares what it computed (vc_layout_smallest_each(): each layout
 * once, each stage's estimate once, the scenario's tensors once): it answers exactly as a search
 * of each card alone, and as the plain computation of the layout it found, with nothing
 * remembered. Every shape of model, by engine and in training, at capacities from a few GiB
 * (many pipeline stages) to one card that holds the model. */
static void
test_search_memo_exact (void)
{
  static const char *const settings[][8] = {
    { "engine", "generic", NULL },
    { "engine", "vllm", "seq", "8192", NULL },
    { "engine", "sglang", "concurrency", "4", NULL },
    { "engine", "llama.cpp", NULL },
    { "mode", "training", "sharding", "zero-2", NULL },
    { "mode", "training", "method", "architecture", "seq", "4096", NULL },
  };
  enum { N_CAPACITIES = 12 };
  guint n_presets, compared = 0, found_some = 0;
  const VcPreset *presets = vc_presets_get_all (&n_presets);
  double capacities[N_CAPACITIES];

  for (guint i = 0; i < N_CAPACITIES; i++)
    capacities[i] = (2.0 + 2.0 * i * i) * 1073741824.0;
  for (guint p = 0; p < n_presets; p++)
    for (guint k = 0; vc_test_first_of_family (p) && k < G_N_ELEMENTS (settings); k++)
      {
        g_autoptr(VcEstimate) e = vc_test_estimate_new (presets[p].id, NULL);
        const VcInputs *in;
        const VcResult *res;
        VcLayout layouts[N_CAPACITIES];
        VcLayoutResult outs[N_CAPACITIES];
        gboolean found[N_CAPACITIES];

        for (guint a = 0; settings[k][a] != NULL; a += 2)
          {
            g_autoptr(GError) error = NULL;

            vc_estimate_set_from_string (e, settings[k][a], settings[k][a + 1], &error);
            g_assert_no_error (error);
          }
        if (!vc_estimate_check (e, NULL))
          continue;
        in = vc_estimate_get_inputs (e);
        res = vc_estimate_get_result (e);
        g_test_message ("%s, %s %s", presets[p].id, settings[k][0], settings[k][1]);
        vc_layout_smallest_each (in, res, res->selected, capacities, NULL, N_CAPACITIES, layouts, outs, found);
        for (guint i = 0; i < N_CAPACITIES; i++)
          {
            VcLayout alone;
            VcLayoutResult alone_out, plain;
            VcInputs at = *in;

            g_assert_cmpint (vc_layout_smallest (in, res, res->selected, capacities[i], &alone, &alone_out), ==,
                             found[i]);
            compared++;
            if (!found[i])
              continue;
            found_some++;
            g_assert_cmpmem (&alone, sizeof alone, &layouts[i], sizeof layouts[i]);
            assert_layout_results_equal (&alone_out, &outs[i]);
            at.layout = layouts[i];
            g_assert_true (vc_layout_compute (&at, res, res->selected, &plain, NULL));
            assert_layout_results_equal (&plain, &outs[i]);
          }
      }
  /* the sweep reaches the searches it is about */
  g_assert_cmpuint (compared, >, 500);
  g_assert_cmpuint (found_some, >, 300);
}

/* A hybrid's pipeline stages: Qwen3-Next's 48 layers over 5 stages are 9, 10, 10, 10 and 9
 * layers; the first 12 attend and the last 36 hold Gated DeltaNet mixers, so the second stage
 * holds 3 attention layers and 7 recurrent ones while the third and fourth hold 10 recurrent
 * ones: three stages of one size that hold different layers. Together the GPUs hold the whole
 * model, 2 × 79,674,391,296 bytes in 16 bits, and no more. */
static void
test_hybrid_stages (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("qwen3-next-80b-a3b-instruct", "pp", "5", NULL);
  const VcLayoutResult *lr;

  g_assert_true (vc_estimate_check (e, NULL));
  lr = vc_estimate_get_layout_result (e);
  g_assert_nonnull (lr);
  g_assert_cmpuint (lr->n_gpus, ==, 5);
  g_assert_cmpfloat (lr->all_bytes[VC_COMPONENT_WEIGHTS], ==, 2 * 79674391296.0);
}

static void
vramcalc (VcTestRun  *r,
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
  r->status = vc_test_run_vramcalc ((const char * const *) args->pdata, NULL, &r->out, &r->err);
}

/* layouts the command line refuses, each with its reason */
static void
check_cli_refusals (void)
{
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-8b", "--tp", "3", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "TP (3) must divide the attention heads (32)"));
  }
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-8b", "--mode", "training", "--zero", "4", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--zero: “4” is not a ZeRO stage; accepted: 0, 1, 2, 3"));
  }
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-8b", "--mode", "training", "--fsdp", "all", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "accepted: full, grad-op, hybrid"));
  }
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-8b", "--gpu-layers", "0", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--gpu-layers: 0 keeps every layer in system RAM"));
  }
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-8b", "--mode", "training", "--tp", "2", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--tp: applies to inference only"));
  }
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-8b", "--grad-accum", "4", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "--grad-accum: applies to training only"));
  }
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-8b", "--pp", "40", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "PP (40) cannot exceed the layers (32)"));
  }
}

static void
test_cli (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *root, *layout, *per_gpu;
  JsonArray *gpus;

  check_cli_refusals ();
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-8b", "--pp", "4", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
    root = json_node_get_object (json_parser_get_root (parser));
    layout = json_object_get_object_member (root, "layout");
    g_assert_cmpint (json_object_get_int_member (layout, "tp"), ==, 1);
    g_assert_cmpint (json_object_get_int_member (layout, "pp"), ==, 4);
    g_assert_cmpint (json_object_get_int_member (layout, "zero"), ==, 0);
    per_gpu = json_object_get_object_member (root, "per_gpu");
    g_assert_cmpint (json_object_get_int_member (per_gpu, "total_bytes"), ==,
                     (gint64) ((8 * L8_LAYER + 4096 + L8_VOCAB) * 2 + 8 * L8_KV_LAYER + 1e9)
                     + json_object_get_int_member (json_array_get_object_element (
                         json_object_get_array_member (per_gpu, "components"), 2), "bytes"));
    g_assert_cmpint (json_object_get_int_member (root, "host_bytes"), ==, 0);
    gpus = json_object_get_array_member (root, "gpus");
    for (guint i = 0; i < json_array_get_length (gpus); i++)
      {
        JsonObject *g = json_array_get_object_element (gpus, i);
        if (g_str_equal (json_object_get_string_member (g, "id"), "rtx-4090"))
          {
            /* one shape for a layout: the top level's object, and the display text beside it */
            JsonObject *gl = json_object_get_object_member (g, "layout");

            g_assert_cmpstr (json_object_get_string_member (g, "layout_text"), ==, "1 × RTX 4090");
            g_assert_cmpint (json_object_get_int_member (gl, "tp"), ==, 1);
            g_assert_cmpint (json_object_get_int_member (gl, "gpus"), ==, 1);
            g_assert_cmpuint (json_object_get_size (gl), ==, json_object_get_size (layout));
          }
        if (g_str_equal (json_object_get_string_member (g, "id"), "rtx-4060-8gb"))
          {
            JsonObject *gl = json_object_get_object_member (g, "layout");

            g_assert_cmpstr (json_object_get_string_member (g, "layout_text"), ==, "3 × RTX 4060 8 GB · PP 3");
            g_assert_cmpint (json_object_get_int_member (gl, "tp"), ==, 1);
            g_assert_cmpint (json_object_get_int_member (gl, "pp"), ==, 3);
          }
      }
  }
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--params", "7B", "--mode", "training", "--finetune", "full", "--mixed-precision",
              "--dp", "8", "--fsdp", "full", "--offload", "optimizer+params", "--format", "json", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
    root = json_node_get_object (json_parser_get_root (parser));
    layout = json_object_get_object_member (root, "layout");
    g_assert_cmpint (json_object_get_int_member (layout, "zero"), ==, 3);
    g_assert_cmpstr (json_object_get_string_member (layout, "sharding"), ==, "fsdp-full");
    g_assert_cmpstr (json_object_get_string_member (layout, "offload"), ==, "optimizer+params");
    g_assert_cmpint (json_object_get_int_member (root, "host_bytes"), ==, (gint64) ((1.75 + 7 + 3.5 + 3.5) * 8e9));
  }
  {
    g_auto(VcTestRun) r = { 0 };
    vramcalc (&r, "--preset", "llama-3-70b", "--tp", "4", "--pp", "2", NULL);
    g_assert_cmpint (r.status, ==, 0);
    g_assert_nonnull (strstr (r.out, "Layout: 8 GPUs · TP 4 × PP 2"));
    g_assert_nonnull (strstr (r.out, "needs 7 GPUs · PP 7 ("));
  }
}

/* Profiles keep the layout */
static void
test_profile_round_trip (void)
{
  g_autoptr(VcEstimate) e = vc_test_estimate_new ("mixtral-8x7b", "tp", "2", "pp", "2", "ep", "4", "dp", "2",
                                          "gpus-per-node", "4", NULL);
  g_autoptr(VcEstimate) offload = vc_test_estimate_new ("mixtral-8x7b", "gpu-layers", "20", "experts-on-cpu", "true", NULL);
  g_autofree char *dir = vc_test_make_tmpdir ("layout");
  g_autofree char *path = g_build_filename (dir, "plan.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  VcEstimate *sources[] = { e, offload };

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autoptr(VcProfile) saver = vc_profile_new (sources[i]);
      g_autoptr(VcEstimate) loaded = vc_estimate_new ();
      g_autoptr(VcProfile) loader = vc_profile_new (loaded);
      g_autoptr(GError) error = NULL;

      g_assert_true (vc_profile_save (saver, file, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (vc_profile_load (loader, file, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (vc_estimate_inputs_equal (sources[i], loaded));
      g_assert_cmpfloat (layout_of (loaded)->total, ==, layout_of (sources[i])->total);
    }
  vc_test_remove_tree (dir);
}

/* The engine at the layout asked for: --engine vllm --tp 4 on H100s answers for TP 4, not for
 * the card's smallest layout. Llama 3 70B: 80 layers × 2 × 8 KV heads × 128 × 2 bytes = 327,680
 * bytes a token, 81,920 on each of 4 GPUs; what the busiest GPU leaves of vLLM's request
 * becomes whole 16-token blocks. */
static void
test_engine_at_layout (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_auto(VcTestRun) r = { 0 };
  g_auto(VcTestRun) table = { 0 };
  g_auto(VcTestRun) refused = { 0 };
  JsonObject *root, *engine, *layout, *per_gpu;
  double capacity, nonkv, available;

  vramcalc (&r, "--preset", "llama-3-70b", "--engine", "vllm", "--tp", "4", "--fit-gpu", "h100-80gb",
            "--seq", "8192", "--format", "json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_true (json_parser_load_from_data (parser, r.out, -1, &error));
  root = json_node_get_object (json_parser_get_root (parser));
  engine = json_object_get_object_member (root, "engine");
  layout = json_object_get_object_member (engine, "layout");
  g_assert_cmpstr (json_object_get_string_member (engine, "name"), ==, "vllm");
  g_assert_cmpstr (json_object_get_string_member (engine, "gpu"), ==, "h100-80gb");
  g_assert_cmpint (json_object_get_int_member (engine, "gpu_count"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (layout, "tp"), ==, 4);
  /* vLLM requests 0.9 of the card as CUDA reports it (the H100's 81,121 MiB) and leaves the
   * busiest GPU's weights and profile run out of it; the CUDA context is outside the request */
  capacity = 81121.0 * 1048576;
  per_gpu = json_object_get_object_member (root, "per_gpu");
  nonkv = vc_test_component_bytes (per_gpu, "weights") + vc_test_component_bytes (per_gpu, "activations");
  available = 0.9 * capacity - nonkv;
  g_assert_cmpfloat (fabs (json_object_get_int_member (engine, "budget_bytes") - 0.9 * capacity), <=, 1);
  g_assert_cmpfloat (fabs (json_object_get_int_member (engine, "available_kv_bytes") - available), <=, 2);
  g_assert_cmpint (json_object_get_int_member (engine, "kv_capacity_tokens"), ==,
                   (gint64) floor (json_object_get_int_member (engine, "available_kv_bytes") / (16.0 * 81920)) * 16);
  g_assert_cmpfloat (json_object_get_double_member (engine, "max_concurrency"), ==,
                     json_object_get_int_member (engine, "kv_capacity_tokens") / 8192.0);

  /* the table says the same; without an engine --fit-gpu needs --solve */
  vramcalc (&table, "--preset", "llama-3-70b", "--engine", "vllm", "--tp", "4", "--fit-gpu", "h100-80gb",
            "--seq", "8192", NULL);
  g_assert_cmpint (table.status, ==, 0);
  g_assert_nonnull (strstr (table.out, "Engine vllm on 4 × H100 80 GB · TP 4: "));
  vramcalc (&refused, "--preset", "llama-3-70b", "--fit-gpu", "h100-80gb", NULL);
  g_assert_cmpint (refused.status, ==, 2);
  g_assert_nonnull (strstr (refused.err, "--fit-gpu: it goes with --solve"));
}

/* Where the engine would not start, the engine line says so as its own error does: nothing left
 * for the cache (the 16-bit gpt-oss-120b on one H100 under vLLM, Llama 3.1 70B on one under
 * SGLang), or vLLM's cache under one request of the sequence (Qwen3 8B at 32,768 tokens on an
 * RTX 4090: 32,672 tokens, 2,042 blocks of 16 for the 2,048 a request takes) */
static void
test_engine_does_not_start (void)
{
  g_auto(VcTestRun) empty = { 0 };
  g_auto(VcTestRun) sglang = { 0 };
  g_auto(VcTestRun) short_of_one = { 0 };
  g_auto(VcTestRun) one = { 0 };

  vramcalc (&empty, "--preset", "gpt-oss-120b", "--engine", "vllm", "--fit-gpu", "h100-80gb", "--seq", "16000", NULL);
  g_assert_cmpint (empty.status, ==, 0);
  g_assert_nonnull (strstr (empty.out, "for the KV cache: 0 tokens, 0.0 requests of 16000 tokens at once\n"
                                       "  vLLM does not start so: nothing is left for the KV cache once the weights "
                                       "and its profile run are out (“No available memory for the cache blocks”)"));
  vramcalc (&sglang, "--preset", "llama-3.1-70b", "--engine", "sglang", "--fit-gpu", "h100-80gb", NULL);
  g_assert_cmpint (sglang.status, ==, 0);
  g_assert_nonnull (strstr (sglang.out, "  SGLang does not start so: nothing is left for its token pool"));
  vramcalc (&short_of_one, "--preset", "qwen3-8b", "--engine", "vllm", "--fit-gpu", "rtx-4090", "--seq", "32768", NULL);
  g_assert_cmpint (short_of_one.status, ==, 0);
  g_assert_nonnull (strstr (short_of_one.out, ": 32672 tokens, 0.99 requests of 32768 tokens at once\n"
                                              "  vLLM does not start so: its cache holds less than one request of "
                                              "the sequence"));
  vramcalc (&one, "--preset", "qwen3-8b", "--engine", "vllm", "--fit-gpu", "rtx-4090", "--seq", "16384", NULL);
  g_assert_cmpint (one.status, ==, 0);
  g_assert_nonnull (strstr (one.out, "Engine vllm on 1 × RTX 4090: "));
  g_assert_null (strstr (one.out, "does not start"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/layout/pp-partition", test_pp_partition);
  g_test_add_func ("/layout/pp-adds-up", test_pp_adds_up);
  g_test_add_func ("/layout/tp-replication", test_tp_replication);
  g_test_add_func ("/layout/tied-embedding-under-pp", test_tied_embedding_under_pp);
  g_test_add_func ("/layout/expert-parallel", test_expert_parallel);
  g_test_add_func ("/layout/constraints", test_constraints);
  g_test_add_func ("/layout/smallest", test_smallest_layouts);
  g_test_add_func ("/layout/zero", test_zero);
  g_test_add_func ("/layout/grad-accum", test_grad_accum);
  g_test_add_func ("/layout/gpu-layers", test_gpu_layers);
  g_test_add_func ("/layout/experts-on-cpu", test_experts_on_cpu);
  g_test_add_func ("/layout/rule-of-thumb", test_rule_of_thumb_even_split);
  g_test_add_func ("/layout/presets-sweep", test_presets_sweep);
  g_test_add_func ("/layout/search-memo-exact", test_search_memo_exact);
  g_test_add_func ("/layout/hybrid-stages", test_hybrid_stages);
  g_test_add_func ("/layout/sliding-stages", test_sliding_stages);
  g_test_add_func ("/layout/stage-layers", test_stage_layers);
  g_test_add_func ("/layout/sglang-stage-split", test_sglang_stage_split);
  g_test_add_func ("/layout/cli", test_cli);
  g_test_add_func ("/layout/llama-cpp-layer-split", test_llama_cpp_layer_split);
  g_test_add_func ("/layout/engine-at-layout", test_engine_at_layout);
  g_test_add_func ("/layout/engine-does-not-start", test_engine_does_not_start);
  g_test_add_func ("/layout/profile", test_profile_round_trip);
  return g_test_run ();
}
