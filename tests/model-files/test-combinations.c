/* SPDX-License-Identifier: GPL-3.0-or-later */
/* test-combinations.c: every model source against every layout, by invariants rather than
 * hand-picked numbers.
 *
 * Sources: presets at float, 8-bit, 4-bit, GGUF and 4-bit-format precisions; config.json files
 * with and without a quantization_config (fp8 blocks, mxfp4, gptq, awq, bitsandbytes); GGUF
 * files; safetensors folders. Layouts: TP 1/2/4/8, PP 2/3, EP, DP, -ngl from one layer to all,
 * experts in system RAM. For each valid cell: the GPUs together hold the inventory once plus
 * each replicated tensor once per extra copy, exactly; a GPU never holds more with more TP or
 * PP; GPU plus host stay constant as -ngl moves while the GPU's share grows; a checkpoint's
 * quantization_config and the same format given as a precision agree; and no model whose
 * weights divided by 8 fit a card is called "does not fit" on it.
 */
#include "config.h"

#include <math.h>

#include "vc-catalog.h"
#include "vc-estimate.h"
#include "vc-model-file.h"
#include "vc-test-util.h"

static char *fixtures;

typedef struct
{
  const char *name;
  const char *preset;              /* a preset … */
  const char *precision;
  const char *path;                /* … or model files: under the fixtures, or tests/ when hf: */
} Source;

static const Source sources[] = {
  { "preset-bf16", "llama-3-8b", "bf16", NULL },
  { "preset-fp8", "llama-3-8b", "fp8", NULL },
  { "preset-int4", "llama-3-8b", "int4", NULL },
  { "preset-q4_k_m", "llama-3-8b", "q4_k_m", NULL },
  { "preset-gptq", "llama-3-8b", "gptq-int4", NULL },
  { "preset-tied", "llama-3.2-1b", "bf16", NULL },
  { "preset-moe", "mixtral-8x7b", "bf16", NULL },
  { "preset-moe-q4_k_m", "mixtral-8x7b", "q4_k_m", NULL },
  { "config", NULL, NULL, "hf:hf-config/models/Llama-3.1-8B" },
  { "config-moe", NULL, NULL, "hf:hf-config/models/Qwen3-30B-A3B" },
  { "config-fp8-mla", NULL, NULL, "hf:hf-config/models/DeepSeek-V3" },
  { "config-mxfp4", NULL, NULL, "hf:hf-config/models/gpt-oss-120b" },
  { "config-hybrid", NULL, NULL, "hf:hf-config/models/granite-4.0-h-tiny" },
  { "config-gptq", NULL, NULL, "configs/gptq" },
  { "config-awq", NULL, NULL, "configs/awq" },
  { "config-bnb-nf4", NULL, NULL, "configs/bnb-nf4" },
  { "config-fp8-block", NULL, NULL, "configs/fp8-block" },
  { "gguf", NULL, NULL, "gguf/tiny-llama-Q4_K_M.gguf" },
  { "gguf-moe", NULL, NULL, "gguf/tiny-moe.gguf" },
  { "safetensors", NULL, NULL, "safetensors/sharded" },
  { "safetensors-gptq", NULL, NULL, "safetensors/gptq" },
};

static VcEstimate *
source_estimate (const Source *src)
{
  g_autoptr(VcEstimate) e = vc_estimate_new ();
  g_autoptr(GError) error = NULL;

  if (src->preset)
    {
      g_assert_true (vc_estimate_set_preset (e, src->preset, &error));
      g_assert_true (vc_estimate_set_from_string (e, "method", "architecture", &error));
      g_assert_true (vc_estimate_set_from_string (e, "precision", src->precision, &error));
    }
  else
    {
      g_autofree char *path = g_str_has_prefix (src->path, "hf:")
                              ? g_build_filename (g_getenv ("VC_TESTS_SRCDIR"), src->path + 3, NULL)
                              : g_build_filename (fixtures, src->path, NULL);
      g_autoptr(VcModelFile) m = vc_model_file_new_for_path (path, &error);

      g_assert_no_error (error);
      vc_model_file_apply (m, e);
    }
  g_assert_no_error (error);
  return g_steal_pointer (&e);
}

static const VcLayoutResult *
layout_at (VcEstimate *e,
           guint       tp,
           guint       pp,
           guint       ep,
           guint       dp)
{
  g_object_set (e, "tp", tp, "pp", pp, "ep", ep, "dp", dp, "gpu-layers", 0, "experts-on-cpu", FALSE, NULL);
  if (!vc_estimate_check (e, NULL))
    return NULL;
  return vc_estimate_get_layout_result (e);
}

/* What the GPUs of a TP × DP layout (one stage) hold together, from the inventory's groups by
 * the split rules alone: each split tensor once a replica (experts once under EP, which spans
 * the replicas), each replicated one once a GPU. */
static double
expected_all_weights (const VcInventory *inv,
                      const VcArch      *arch,
                      guint              tp,
                      guint              ep,
                      guint              dp)
{
  double all = 0;

  for (guint i = 0; i < vc_inventory_get_n_groups (inv); i++)
    {
      const VcTensorGroup *g = vc_inventory_get_group (inv, i);
      double bytes = MAX (1u, g->n_layers) * g->bytes;
      double share;

      /* the share of one of the stage's TP × DP GPUs */
      switch (vc_tensor_role_split (g->role))
        {
        case VC_SPLIT_TP: share = 1.0 / tp; break;
        case VC_SPLIT_KV_HEADS: share = vc_arch_is_mla (arch) ? 1.0 / tp : 1.0 / MIN (tp, arch->n_kv_heads); break;
        case VC_SPLIT_VOCAB: share = ceil ((double) arch->vocab_size / tp) / arch->vocab_size; break;
        case VC_SPLIT_EXPERTS: share = ep > 1 ? 1.0 / ep : 1.0 / tp; break;
        case VC_SPLIT_REPLICATED:
        default: share = 1; break;
        }
      all += bytes * share * tp * dp;
    }
  return all;
}

static void
check_tp_pp (VcEstimate  *e,
             const char  *name,
             guint       *cells)
{
  const VcInputs *in = vc_estimate_get_inputs (e);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  g_autoptr(VcInventory) inv = vc_estimator_inventory (in, sc->id);
  double weights = sc->bytes[VC_COMPONENT_WEIGHTS];
  double embedding = vc_inventory_role_bytes (inv, VC_TENSOR_EMBEDDING);
  gboolean moe = vc_arch_is_moe (&in->arch);
  double last_tp = INFINITY;
  VcLayout effective;
  gboolean split;

  vc_layout_get_effective (in, &effective);
  split = effective.layer_split;

  /* the estimator's weights are the inventory's */
  g_assert_cmpfloat (fabs (vc_inventory_bytes (inv) - weights), <=, 1e-9 * weights);

  for (guint tp = 1; tp <= 8; tp *= 2)
    {
      double last_pp = INFINITY;

      for (guint pp = 1; pp <= 3; pp++)
        for (guint dp = 1; dp <= 2; dp++)
          for (guint ep = 1; ep <= (moe ? tp * dp : 1); ep *= 2)
            {
              const VcLayoutResult *lr = layout_at (e, tp, pp, ep, dp);
              double all, expected;

              if (lr == NULL)
                continue;
              (*cells)++;
              all = lr->all_bytes[VC_COMPONENT_WEIGHTS];
              if (tp == 1 && ep == 1)
                {
                  /* pipeline stages cover every layer once; a tied embedding gets a copy as
                   * the last stage's head */
                  expected = dp * (weights + (in->arch.tied_embeddings && pp > 1 ? embedding : 0));
                  /* llama.cpp's layer split keeps the input layer in system RAM */
                  if (split && pp > 1)
                    expected -= dp * (embedding + vc_inventory_role_bytes (inv, VC_TENSOR_POSITIONS));
                  if (fabs (all - expected) > 1 + 1e-12 * expected)
                    g_error ("%s TP %u PP %u DP %u: the GPUs hold %.0f bytes of weights, expected %.0f",
                             name, tp, pp, dp, all, expected);
                }
              if (pp == 1)
                {
                  expected = expected_all_weights (inv, &in->arch, tp, ep, dp);
                  if (fabs (all - expected) > 1 + 1e-12 * expected)
                    g_error ("%s TP %u EP %u DP %u: the GPUs hold %.0f bytes of weights, expected %.0f",
                             name, tp, ep, dp, all, expected);
                }
              if (!split || pp == 1)
                g_assert_cmpfloat (all, >=, weights - 1);
              if (dp == 1 && ep == 1)
                {
                  /* more GPUs never put more on the busiest one */
                  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], <=, last_pp + 1);
                  last_pp = lr->bytes[VC_COMPONENT_WEIGHTS];
                  if (pp == 1)
                    {
                      g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], <=, last_tp + 1);
                      last_tp = lr->bytes[VC_COMPONENT_WEIGHTS];
                    }
                }
            }
    }
}

/* -ngl from one layer to all, and the experts in system RAM: what leaves the GPU is in the
 * host's memory, and the GPU's share only grows with N */
static void
check_offload (VcEstimate *e,
               const char *name,
               guint      *cells)
{
  const VcInputs *in = vc_estimate_get_inputs (e);
  guint L = in->arch.n_layers;
  guint steps[] = { 1, MIN (2, L), MAX (MIN (2, L), (L + 1) / 2), L, L + 1, L + 5 };
  double constant = -1, last_gpu = -1;

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    for (int experts = 0; experts <= (vc_arch_is_moe (&in->arch) ? 1 : 0); experts++)
      {
        const VcLayoutResult *lr;
        double sum;

        g_object_set (e, "tp", 1, "pp", 1, "ep", 1, "dp", 1, "gpu-layers", steps[i], "experts-on-cpu", (gboolean) experts, NULL);
        g_assert_true (vc_estimate_check (e, NULL));
        lr = vc_estimate_get_layout_result (e);
        (*cells)++;
        sum = lr->bytes[VC_COMPONENT_WEIGHTS] + lr->bytes[VC_COMPONENT_KV_CACHE] +
              lr->bytes[VC_COMPONENT_SEQUENCE_STATE] + lr->host_bytes;
        if (constant < 0)
          constant = sum;
        if (fabs (sum - constant) > 2)
          g_error ("%s -ngl %u%s: GPU + host = %.0f bytes, at -ngl 1 %.0f", name, steps[i],
                   experts ? " exps=CPU" : "", sum, constant);
        if (!experts)
          {
            g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], >=, last_gpu);
            last_gpu = lr->bytes[VC_COMPONENT_WEIGHTS];
          }
      }
}

/* No card on which the weights divided by 8 fit beside everything else is "does not fit" */
static void
check_fits (VcEstimate *e,
            const char *name)
{
  const VcScenarioResult *sc;
  guint n = vc_estimate_get_n_gpus (e);

  g_object_set (e, "tp", 1, "pp", 1, "ep", 1, "dp", 1, "gpu-layers", 0, "experts-on-cpu", FALSE, NULL);
  sc = vc_estimate_get_selected (e);
  for (guint g = 0; g < n; g++)
    {
      const VcGpu *gpu = vc_estimate_get_gpu (e, g);
      double need = sc->total - sc->bytes[VC_COMPONENT_WEIGHTS] * 7 / 8;

      if (need < 0.9 * gpu->capacity_bytes && vc_estimate_get_gpu_fit (e, g)->count == 0)
        g_error ("%s: %s does not fit on any number of %s, though an eighth of its weights does",
                 name, vc_estimate_get_model_name (e), gpu->name);
    }
}

static void
test_source (gconstpointer data)
{
  const Source *src = data;
  g_autoptr(VcEstimate) e = source_estimate (src);
  guint cells = 0;

  check_tp_pp (e, src->name, &cells);
  check_offload (e, src->name, &cells);
  check_fits (e, src->name);
  g_test_message ("%s: %u layouts", src->name, cells);
  g_assert_cmpuint (cells, >, 8);
}

/* A checkpoint's quantization_config and the same format as a precision: the same tensors at
 * the same bytes, as a whole and per GPU */
static void
test_config_and_precision_agree (void)
{
  static const struct
  {
    const char *path;
    const char *precision;
  } cases[] = {
    { "hf:hf-config/models/gpt-oss-120b", "mxfp4" },
    { "configs/gptq", "gptq-int4" },
    { "configs/awq", "awq-int4" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Source src = { cases[i].path, NULL, NULL, cases[i].path };
      g_autoptr(VcEstimate) a = source_estimate (&src);
      g_autoptr(VcEstimate) b = vc_estimate_new ();

      vc_estimate_copy_inputs (b, a);
      vc_estimate_set_source_inventory (b, NULL);
      g_object_set (b, "source-weights-bytes", 0.0, "source-parameters", 0.0, "source-active-parameters", 0.0,
                    "source-format", "", "source-quantization", "", NULL);
      g_assert_true (vc_estimate_set_from_string (b, "precision", cases[i].precision, NULL));
      g_assert_true (vc_estimate_get_selected (a)->weights_from_source);
      g_assert_false (vc_estimate_get_selected (b)->weights_from_source);
      g_assert_cmpfloat (vc_estimate_get_selected (a)->bytes[VC_COMPONENT_WEIGHTS], ==,
                         vc_estimate_get_selected (b)->bytes[VC_COMPONENT_WEIGHTS]);
      for (guint tp = 2; tp <= 8; tp *= 2)
        {
          const VcLayoutResult *la = layout_at (a, tp, 1, 1, 1);
          const VcLayoutResult *lb = layout_at (b, tp, 1, 1, 1);

          if (la == NULL)
            continue;
          g_assert_nonnull (lb);
          g_assert_cmpfloat (la->bytes[VC_COMPONENT_WEIGHTS], ==, lb->bytes[VC_COMPONENT_WEIGHTS]);
        }
    }
}

/* A hybrid model's stages each keep their own layers' cache and state: over the stages, the KV
 * cache and the recurrent state are the model's, whatever the count (Granite 4.0-H Tiny: 4
 * attention layers and 36 Mamba-2 mixers) */
static void
test_hybrid_stages (void)
{
  Source src = { "hybrid", NULL, NULL, "hf:hf-config/models/granite-4.0-h-tiny" };
  g_autoptr(VcEstimate) e = source_estimate (&src);
  const VcScenarioResult *sc = vc_estimate_get_selected (e);
  double kv = sc->bytes[VC_COMPONENT_KV_CACHE], state = sc->bytes[VC_COMPONENT_SEQUENCE_STATE];

  g_assert_cmpfloat (state, >, 0);
  for (guint pp = 1; pp <= 8; pp++)
    {
      const VcLayoutResult *lr = layout_at (e, 1, pp, 1, 1);

      g_assert_nonnull (lr);
      g_assert_cmpfloat (fabs (lr->all_bytes[VC_COMPONENT_KV_CACHE] - kv), <=, 1);
      g_assert_cmpfloat (fabs (lr->all_bytes[VC_COMPONENT_SEQUENCE_STATE] - state), <=, 1);
      g_assert_cmpfloat (lr->bytes[VC_COMPONENT_KV_CACHE] + lr->bytes[VC_COMPONENT_SEQUENCE_STATE], >, 0);
    }
}

/* The defects this inventory mends, each once wrong: DeepSeek-V3.1's FP8 checkpoint left 627 GiB
 * on every GPU at TP 8; gpt-oss-120b (MXFP4) at -ngl 20 put no weights on the GPU; -ngl past the
 * layers kept the token embedding on the GPU. */
static void
test_regressions (void)
{
  Source ds = { "ds", NULL, NULL, "hf:hf-config/models/DeepSeek-V3" };
  Source oss = { "oss", NULL, NULL, "hf:hf-config/models/gpt-oss-120b" };
  g_autoptr(VcEstimate) e = source_estimate (&ds);
  g_autoptr(VcEstimate) o = source_estimate (&oss);
  const VcLayoutResult *lr;
  double whole = vc_estimate_get_selected (e)->bytes[VC_COMPONENT_WEIGHTS];
  double embedding = 201088.0 * 2880 * 2;

  g_assert_true (vc_estimate_get_selected (e)->weights_from_source);
  lr = layout_at (e, 8, 1, 1, 1);
  g_assert_nonnull (lr);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], <, whole / 7);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], >, whole / 8);
  /* H200s hold it: six of them, TP 2 × PP 3, 113 GB each */
  for (guint g = 0; g < vc_estimate_get_n_gpus (e); g++)
    if (g_str_equal (vc_estimate_get_gpu_key (e, g), "h200"))
      {
        g_object_set (e, "tp", 1, NULL);
        g_assert_cmpfloat (vc_estimate_get_gpu_fit (e, g)->count, ==, 6);
      }

  g_object_set (o, "gpu-layers", 20, NULL);
  lr = vc_estimate_get_layout_result (o);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], >, 0.45 * vc_estimate_get_selected (o)->bytes[VC_COMPONENT_WEIGHTS]);
  g_object_set (o, "gpu-layers", 37, NULL);
  lr = vc_estimate_get_layout_result (o);
  g_assert_cmpfloat (lr->host_bytes, ==, embedding);
  g_assert_cmpfloat (lr->bytes[VC_COMPONENT_WEIGHTS], ==, vc_estimate_get_selected (o)->bytes[VC_COMPONENT_WEIGHTS] - embedding);
}

int
main (int   argc,
      char *argv[])
{
  int result;

  g_test_init (&argc, &argv, NULL);
  fixtures = vc_test_make_model_fixtures ();

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      g_autofree char *name = g_strdup_printf ("/combinations/%s", sources[i].name);

      g_test_add_data_func (name, &sources[i], test_source);
    }
  g_test_add_func ("/combinations/config-and-precision-agree", test_config_and_precision_agree);
  g_test_add_func ("/combinations/regressions", test_regressions);
  g_test_add_func ("/combinations/hybrid-stages", test_hybrid_stages);

  result = g_test_run ();
  vc_test_remove_tree (fixtures);
  return result;
}
