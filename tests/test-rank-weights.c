/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One description of a GPU's weights: the KV capacity on n GPUs (vc_engine_kv_capacity_on(), the
 * GPU rows), the engine at a layout (vc_engine_at_layout()) and the layout's busiest GPU
 * (vc_layout_compute()) hold the same bytes, over a dense model, a MoE, Gemma 3 with its vision
 * encoder, Granite 4.0-H (Mamba-2 hybrid) and gpt-oss with vLLM's Marlin MXFP4 experts, under
 * vLLM and SGLang, at TP 1/2/4/8 × PP 1/2 × EP 1/2. The engine adds to the layout's weights only
 * what it allocates on that card at that TP (MXFP4 padding, SGLang's repeated Mamba-2 group);
 * hand-worked cells pin the figures.
 */
#include "config.h"

#include <math.h>

#include "vc-engine.h"
#include "vc-engine-state.h"
#include "vc-estimate.h"
#include "vc-layout.h"
#include "vc-test-util.h"

typedef struct
{
  const char *preset;
  const char *precision;           /* NULL: the preset's */
  const char *gpu;                 /* the card: the A100 for Marlin's padding at any TP */
  gboolean moe;
} Model;

static const Model models[] = {
  { "llama-3-8b", NULL, "h100-80gb", FALSE },
  { "qwen3-30b-a3b", NULL, "h100-80gb", TRUE },
  { "gemma-3-27b-it", NULL, "h100-80gb", FALSE },
  { "granite-4.0-h-tiny", NULL, "h100-80gb", TRUE },
  { "gpt-oss-20b", "mxfp4", "a100-80gb", TRUE },
};

static VcEstimate *
model_estimate (const Model *m,
                VcEngine     engine)
{
  VcEstimate *e = vc_test_estimate_new (m->preset, "seq", "8192", NULL);
  g_autoptr(GError) error = NULL;

  g_object_set (e, "engine", engine, NULL);
  if (m->precision != NULL)
    g_assert_true (vc_estimate_set_from_string (e, "precision", m->precision, &error));
  /* vLLM's Marlin backend is vLLM's alone; its profile run of an encoder is not sized, a
   * cache given is */
  if (engine == VC_ENGINE_VLLM && m->precision != NULL)
    g_assert_true (vc_estimate_set_from_string (e, "mxfp4-backend", "marlin", &error));
  if (engine == VC_ENGINE_VLLM && vc_estimate_get_inputs (e)->arch.encoder_params > 0)
    g_object_set (e, "kv-cache-memory", 20.0, NULL);
  g_assert_no_error (error);
  return e;
}

/* What the engine adds to the layout's busiest GPU at `layout` on `gpu`, by the rules read
 * apart: vLLM's padding without EP (refused beyond), over several stages the busiest stage's
 * share of the MoE layers (every layer of gpt-oss), and in both engines the repeated Mamba-2
 * group */
static gboolean
expected_extra (const VcInputs       *in,
                const VcLayoutResult *lr,
                const VcGpu          *gpu,
                double               *extra)
{
  double tp = MAX (1u, in->layout.tp), repeated = vc_engine_state_repeated_bytes (in, tp);
  double attention, mixers;
  guint first = 0;

  /* over two stages, where which layers hold a mixer is known (Falcon-H1's every layer, the
   * attention-layer pattern of Qwen3-Next and Granite 4.0-H), the busiest stage's mixers' share
   * of Mamba-2's repeated group */
  for (guint s = 0; s < MIN (lr->busiest_stage, in->layout.pp - 1); s++)
    first += vc_layout_stage_size (in, in->layout.pp, s);
  if (in->layout.pp > 1 && repeated > 0 &&
      vc_arch_stage_kinds (&in->arch, first, vc_layout_stage_size (in, in->layout.pp, MIN (lr->busiest_stage, in->layout.pp - 1)),
                           &attention, &mixers))
    repeated = repeated * mixers / MIN (in->arch.recurrent_layers, in->arch.n_layers);
  *extra = 0;
  if (in->engine == VC_ENGINE_SGLANG)
    {
      *extra = repeated;
      return TRUE;
    }
  if (!vc_engine_vllm_mxfp4_extra (in, gpu, tp, extra))
    return FALSE;
  if (*extra != 0 && in->layout.ep > 1)
    return FALSE;
  if (*extra != 0 && in->layout.pp > 1)
    {
      g_assert_cmpuint (in->arch.dense_layers, ==, 0);
      *extra = *extra * vc_layout_stage_size (in, in->layout.pp, lr->busiest_stage) /
               in->arch.n_layers;
    }
  *extra += repeated;
  return TRUE;
}

/* one cell: the three descriptions agree; the capacity on TP n agrees with the engine at TP n */
static void
check_cell (VcEstimate     *e,
            const VcGpu    *gpu,
            const VcLayout *layout,
            guint          *cells)
{
  const VcResult *r = vc_estimate_get_result (e);
  const VcScenarioResult *sc = &r->scenarios[r->selected];
  VcInputs at = *vc_estimate_get_inputs (e);
  const VcArch *arch = &at.arch;
  gboolean pools = (arch->sliding_window > 0 && arch->sliding_window_layers > 0) || vc_arch_state_elements (arch) > 0;
  VcLayoutResult lr;
  VcEngineAtLayout at_layout;
  VcKvCapacity kv;
  double weights, extra;
  gboolean followed;

  at.layout = *layout;
  if (!vc_layout_check (&at, NULL))
    return;
  (*cells)++;
  g_assert_true (vc_layout_compute (&at, r, r->selected, &lr, NULL));
  followed = expected_extra (&at, &lr, gpu, &extra);
  g_assert_cmpint (vc_engine_rank_weights (&at, &lr, gpu, &weights), ==, followed);
  if (!followed)
    return;
  g_assert_cmpfloat (weights, ==, lr.bytes[VC_COMPONENT_WEIGHTS] + extra);
  g_assert_cmpfloat (weights, >, 0);

  vc_engine_at_layout (&at, &lr, gpu, 0, &at_layout);
  if (at_layout.known)
    g_assert_cmpfloat (at_layout.weights_bytes, ==, weights);
  if (layout->pp > 1 || layout->ep > 1)
    return;
  /* a GPU row of TP n GPUs: the same weights, and without separate pools the same cache */
  vc_engine_kv_capacity_on (&at, r, sc, gpu, layout->tp, &kv);
  if (kv.known)
    g_assert_cmpfloat (kv.weights_bytes, ==, weights);
  if (!pools && at.engine == VC_ENGINE_SGLANG)
    {
      g_assert_true (kv.known);
      g_assert_true (at_layout.known);
    }
  if (kv.known && at_layout.known && !pools)
    {
      g_assert_cmpfloat (kv.tokens, ==, at_layout.tokens);
      g_assert_cmpfloat (kv.max_concurrency, ==, at_layout.max_concurrency);
    }
}

static void
test_matrix (void)
{
  static const VcEngine engines[] = { VC_ENGINE_VLLM, VC_ENGINE_SGLANG };
  guint cells = 0;

  for (guint m = 0; m < G_N_ELEMENTS (models); m++)
    for (guint e = 0; e < G_N_ELEMENTS (engines); e++)
      {
        g_autoptr(VcEstimate) est = model_estimate (&models[m], engines[e]);
        const VcGpu *gpu = vc_estimate_get_gpu (est, vc_test_gpu_index (est, models[m].gpu));

        for (guint tp = 1; tp <= 8; tp *= 2)
          for (guint pp = 1; pp <= 2; pp++)
            for (guint ep = 1; ep <= (models[m].moe ? 2u : 1u); ep++)
              {
                VcLayout layout = vc_estimate_get_inputs (est)->layout;

                layout.tp = tp;
                layout.pp = pp;
                layout.ep = ep;
                layout.dp = 1;
                check_cell (est, gpu, &layout, &cells);
              }
      }
  g_test_message ("%u cells", cells);
  /* every model has valid cells under both engines */
  g_assert_cmpuint (cells, >=, 60);
}

static double
rank_weights (VcEstimate *e,
              const char *gpu_id,
              guint       tp)
{
  const VcResult *r = vc_estimate_get_result (e);
  VcKvCapacity kv;

  vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected],
                            vc_estimate_get_gpu (e, vc_test_gpu_index (e, gpu_id)), tp, &kv);
  g_assert_true (kv.known);
  return kv.weights_bytes;
}

/* Hand-worked cells (FORMULAS.md, "Each GPU's weights") */
static void
test_figures (void)
{
  g_autoptr(VcEstimate) llama = model_estimate (&models[0], VC_ENGINE_VLLM);
  g_autoptr(VcEstimate) gemma = model_estimate (&models[2], VC_ENGINE_VLLM);
  g_autoptr(VcEstimate) granite = model_estimate (&models[3], VC_ENGINE_SGLANG);
  g_autoptr(VcEstimate) gptoss = model_estimate (&models[4], VC_ENGINE_VLLM);
  g_autoptr(VcEstimate) whole = vc_test_estimate_new ("gemma-3-27b-it", "seq", "8192", "tp", "4", NULL);
  const VcScenarioResult *sc = vc_estimate_get_selected (gemma);
  double padding;

  /* Llama 3 8B at TP 2: half of all but the 65 norms of 4,096, which each GPU holds whole, and
   * vLLM's 8,192 × 128 bf16 RoPE table */
  g_assert_cmpfloat (rank_weights (llama, "h100-80gb", 2), ==,
                     ((8030261248.0 - 65 * 4096) / 2 + 65 * 4096) * 2 + 8192 * 128 * 2.0);

  /* Gemma 3 27B at TP 4: vLLM divides 415,998,576 of its encoder's 423,060,336 parameters and
   * keeps 7,061,760 whole, 623,997,864 bytes a GPU fewer than the generic engine, which keeps
   * the encoder whole (and builds no RoPE table) */
  g_assert_cmpfloat (vc_estimate_get_inputs (gemma)->arch.encoder_params, ==, 423060336);
  g_assert_cmpfloat (rank_weights (gemma, "h100-80gb", 4) - sc->rope_table, ==,
                     vc_estimate_get_layout_result (whole)->bytes[VC_COMPONENT_WEIGHTS] - 623997864.0);

  /* Granite 4.0-H Tiny at TP 4 under SGLang: the layout's 3,475,603,488 bytes and the one
   * Mamba-2 group repeated on each rank, 21,302,784 more */
  g_assert_cmpfloat (rank_weights (granite, "h100-80gb", 4), ==, 3475603488.0 + 21302784);

  /* gpt-oss 20B on A100s with Marlin at TP 2: the rank's 1,440 intermediate columns rounded up
   * to 1,536, 702,185,472 bytes beside the layout's share */
  g_assert_true (vc_engine_vllm_mxfp4_extra (vc_estimate_get_inputs (gptoss),
                                             vc_estimate_get_gpu (gptoss, vc_test_gpu_index (gptoss, "a100-80gb")),
                                             2, &padding));
  g_assert_cmpfloat (padding, ==, 702185472.0);
  {
    VcLayoutResult lr;
    const VcResult *r = vc_estimate_get_result (gptoss);

    g_assert_true (vc_layout_compute_tp (vc_estimate_get_inputs (gptoss), r, r->selected, 2, &lr, NULL));
    g_assert_cmpfloat (rank_weights (gptoss, "a100-80gb", 2), ==, lr.bytes[VC_COMPONENT_WEIGHTS] + 702185472.0);
  }
}

/* No figure where the engines refuse the TP: Qwen2.5 7B's 28 heads at TP 8, Phi-4's 10 KV heads
 * at TP 4 */
static void
test_refused_tp (void)
{
  static const struct { const char *preset; guint tp; } cases[] = {
    { "qwen2.5-7b-instruct", 8 }, { "phi-4", 4 }, { "gpt2", 8 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(VcEstimate) e = vc_test_estimate_new (cases[i].preset, "engine", "vllm", NULL);
      const VcResult *r = vc_estimate_get_result (e);
      VcLayoutResult lr;
      VcKvCapacity kv;
      g_autoptr(GError) error = NULL;

      g_assert_false (vc_layout_compute_tp (vc_estimate_get_inputs (e), r, r->selected, cases[i].tp, &lr, &error));
      g_assert_nonnull (error);
      vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected],
                                vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb")), cases[i].tp, &kv);
      g_assert_false (kv.known);
      /* and at half that TP, a figure */
      vc_engine_kv_capacity_on (vc_estimate_get_inputs (e), r, &r->scenarios[r->selected],
                                vc_estimate_get_gpu (e, vc_test_gpu_index (e, "h100-80gb")), cases[i].tp / 2 > 1 ? 2 : 1,
                                &kv);
      g_assert_true (kv.known);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/rank-weights/matrix", test_matrix);
  g_test_add_func ("/rank-weights/figures", test_figures);
  g_test_add_func ("/rank-weights/refused-tp", test_refused_tp);
  return g_test_run ();
}
