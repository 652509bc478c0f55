/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-layout.c: per-GPU memory of parallel layouts and offload.
 *
 * Inference, architecture method: one GPU's share of the model is itself a transformer — the
 * same layers with a/TP heads, max(1, a_kv/TP) KV heads, I/TP feed-forward columns, V/TP
 * vocabulary rows and E/EP experts — so the estimator computes it, stage by stage. Embeddings
 * sit on the first pipeline stage, the final norm and head on the last (with a copy of a tied
 * embedding there), and the busiest GPU is the answer. Training shards the estimator's
 * components across the data-parallel GPUs as DeepSpeed ZeRO and FSDP do. FORMULAS.md gives
 * every rule with its source.
 */
#define G_LOG_DOMAIN "vc-layout"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "vc-batch-key.h"
#include "vc-engine.h"
#include "vc-error.h"
#include "vc-layout.h"
#include "vc-training-rules.h"

/* DeepSpeed's defaults (deepspeed/runtime/zero/config.py): reduce_bucket_size, in elements,
 * and stage3_prefetch_bucket_size, the parameters ZeRO-3 fetches ahead. */
#define DS_REDUCE_BUCKET 5e8
#define DS_PREFETCH_BUCKET 5e7
/* The most GPUs the fit search tries in one data-parallel group or pipeline, and the most a
 * layout may have (its count stays exact in a guint). */
#define MAX_SEARCH_GPUS 65536
#define MAX_LAYOUT_GPUS 1000000

guint
vc_layout_n_gpus (const VcLayout *l)
{
  return MAX (1u, l->tp) * MAX (1u, l->pp) * MAX (1u, l->dp) * MAX (1u, l->cp);
}

guint
vc_layout_zero_stage (VcSharding sharding)
{
  switch (sharding)
    {
    case VC_SHARDING_ZERO_1: return 1;
    case VC_SHARDING_ZERO_2:
    case VC_SHARDING_FSDP_GRAD_OP: return 2;
    case VC_SHARDING_ZERO_3:
    case VC_SHARDING_FSDP_FULL:
    case VC_SHARDING_FSDP_HYBRID: return 3;
    case VC_SHARDING_NONE:
    default: return 0;
    }
}

/* One GPU, nothing offloaded: the estimate as the estimator gives it. */
gboolean
vc_layout_is_default (const VcLayout *l)
{
  return vc_layout_n_gpus (l) == 1 && l->ep <= 1 && l->sharding == VC_SHARDING_NONE &&
         l->offload == VC_OFFLOAD_NONE && l->grad_accum <= 1 && l->gpu_layers == 0 &&
         !l->experts_on_cpu;
}

/* llama.cpp's layer split over `n` GPUs of equal memory (src/llama-model.cpp, load_tensors,
 * get_layer_buft_list): with the output counted as layer L, layer il goes to the first device d
 * whose cumulative split (d + 1) / n exceeds il / (L + 1). Device i holds the layers from
 * ⌈i(L + 1)/n⌉ to ⌈(i + 1)(L + 1)/n⌉ − 1, the last one the output among them. */
static void
llama_split_stage (guint  L,
                   guint  n,
                   guint  i,
                   guint *first,
                   guint *n_layers)
{
  guint64 lo = ((guint64) i * (L + 1) + n - 1) / n;
  guint64 hi = ((guint64) (i + 1) * (L + 1) + n - 1) / n;

  *first = (guint) lo;
  *n_layers = (guint) (MIN (hi, (guint64) L) - MIN (lo, (guint64) L));
}

/* The layers of stage `i` of `pp`, as vLLM's get_pp_indices (vllm/distributed/utils.py) splits
 * `L` layers: L / PP layers a stage, the remainder one each to the stages before the last, from
 * the last but one backwards (the first and last stages hold the embedding and the head). */
guint
vc_layout_pp_stage_size (guint L,
                         guint pp,
                         guint i)
{
  guint remaining = L % pp;

  /* stages pp - 1 - remaining … pp - 2 take one more: the indices (2pp - k) % pp, k = 2 …
   * remaining + 1 */
  return L / pp + (remaining > 0 && i + 1 + remaining >= pp && i + 2 <= pp ? 1 : 0);
}

/* a refusal: @error set, %FALSE returned */
#define refuse(error, ...) vc_error_set ((error), VC_ERROR_INVALID_COMBINATION, __VA_ARGS__)

static guint
expert_size (const VcArch *a)
{
  return a->expert_intermediate_size ? a->expert_intermediate_size : a->intermediate_size;
}

static guint
shared_size (const VcArch *a)
{
  return a->shared_intermediate_size ? a->shared_intermediate_size : a->n_shared_experts * expert_size (a);
}

static guint
n_dense_layers (const VcArch *a)
{
  return vc_arch_is_moe (a) ? MIN (a->dense_layers, a->n_layers) : a->n_layers;
}

/* Whether SGLang serves the model on one pipeline stage only (VcArch.sglang_one_stage) */
static gboolean
sglang_one_stage (const VcInputs *in)
{
  return in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_SGLANG && in->method == VC_METHOD_ARCHITECTURE &&
         in->arch.sglang_one_stage;
}

/* Whether the stages follow SGLang's split (vc_layout_stage_layers()) */
static gboolean
sglang_split (const VcInputs *in)
{
  return in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_SGLANG && in->method == VC_METHOD_ARCHITECTURE;
}

/* The layers of stage `i` of `pp` as the inputs' engine splits them: SGLang's get_pp_indices
 * (python/sglang/srt/distributed/utils.py at commit 1107be1) gives L / PP layers a stage and the
 * remainder r one each to the LAST r stages (stage i ≥ PP − r starts at i(q + 1) − (PP − r));
 * vLLM's (vc_layout_pp_stage_size()) to the stages before the last. SGLang's own override of
 * the split, the environment variable SGLANG_PP_LAYER_PARTITION read there, is not followed
 * (no option gives it); vLLM's (--pp-partition) is the plan's (vc-plan.c). @first or @n_layers
 * may be NULL. */
void
vc_layout_stage_layers (const VcInputs *in,
                        guint           pp,
                        guint           i,
                        guint          *first,
                        guint          *n_layers)
{
  guint L = in->arch.n_layers, q, r, t;

  pp = MAX (1u, pp);
  if (!sglang_split (in))
    {
      if (first != NULL)
        *first = vc_layout_pp_stage_first (L, pp, i);
      if (n_layers != NULL)
        *n_layers = vc_layout_pp_stage_size (L, pp, i);
      return;
    }
  q = L / pp, r = L % pp, t = pp - r;
  if (first != NULL)
    *first = i >= t ? i * (q + 1) - t : i * q;
  if (n_layers != NULL)
    *n_layers = q + (i >= t ? 1 : 0);
}

/* Stage `i`'s layer count of vc_layout_stage_layers() */
guint
vc_layout_stage_size (const VcInputs *in,
                      guint           pp,
                      guint           i)
{
  guint n;

  vc_layout_stage_layers (in, pp, i, NULL, &n);
  return n;
}

/* Stage `i`'s first layer of vc_layout_stage_layers() */
guint
vc_layout_stage_first (const VcInputs *in,
                       guint           pp,
                       guint           i)
{
  guint first;

  vc_layout_stage_layers (in, pp, i, &first, NULL);
  return first;
}

static gboolean
check_inference (const VcInputs *in,
                 GError        **error)
{
  const VcLayout *l = &in->layout;
  const VcArch *a = &in->arch;
  gboolean partial = l->gpu_layers > 0 || l->experts_on_cpu;

  if (in->method == VC_METHOD_RULE_OF_THUMB)
    {
      if (l->ep > 1)
        return refuse (error, _("EP (%u) needs the architecture method: counting by parameter count (--method rule-of-thumb) knows no experts to split"), l->ep);
      if (l->gpu_layers > 0)
        return refuse (error, _("--gpu-layers needs the architecture method: counting by parameter count (--method rule-of-thumb) knows no layers"));
      if (l->experts_on_cpu)
        return refuse (error, _("--experts-on-cpu needs the architecture method: counting by parameter count (--method rule-of-thumb) knows no experts"));
      return TRUE;
    }

  if (l->layer_split && (l->tp > 1 || l->ep > 1))
    return refuse (error, _("llama.cpp splits the layers across GPUs, not the tensors: set TP and EP to 1 and PP to the GPUs "
                            "(its --split-mode row is not modelled)"));
  if (a->n_heads % l->tp != 0)
    return refuse (error, _("TP (%u) must divide the attention heads (%u)"), l->tp, a->n_heads);
  if (!vc_arch_is_mla (a) && a->n_kv_heads % l->tp != 0 && l->tp % a->n_kv_heads != 0)
    return refuse (error, _("TP (%u) and the KV heads (%u) must divide one another: each GPU holds whole KV heads"),
                   l->tp, a->n_kv_heads);
  if (n_dense_layers (a) > 0 && a->intermediate_size % l->tp != 0)
    return refuse (error, _("TP (%u) must divide the feed-forward size (%u)"), l->tp, a->intermediate_size);
  if (vc_arch_is_moe (a) && l->ep <= 1 && expert_size (a) % l->tp != 0)
    return refuse (error, _("TP (%u) must divide the expert feed-forward size (%u)"), l->tp, expert_size (a));
  if (vc_arch_is_moe (a) && shared_size (a) % l->tp != 0)
    return refuse (error, _("TP (%u) must divide the shared expert feed-forward size (%u)"), l->tp, shared_size (a));
  if (l->pp > a->n_layers)
    return refuse (error, _("PP (%u) cannot exceed the layers (%u): each stage holds at least one layer"),
                   l->pp, a->n_layers);
  if (l->ep > 1)
    {
      if (!vc_arch_is_moe (a))
        return refuse (error, _("EP (%u) needs a mixture-of-experts model; this one is dense"), l->ep);
      if (a->n_experts % l->ep != 0)
        return refuse (error, _("EP (%u) must divide the experts (%u)"), l->ep, a->n_experts);
      if (l->ep > l->tp * l->dp)
        return refuse (error, _("EP (%u) is larger than the GPUs of a pipeline stage, TP × DP = %u"),
                       l->ep, l->tp * l->dp);
      if ((l->tp * l->dp) % l->ep != 0)
        return refuse (error, _("EP (%u) must divide the GPUs of a pipeline stage, TP × DP = %u"),
                       l->ep, l->tp * l->dp);
    }
  if (partial && (l->tp > 1 || l->pp > 1 || l->dp > 1 || l->ep > 1))
    return refuse (error, _("--gpu-layers and --experts-on-cpu are modelled on one GPU: set TP, PP, EP and DP to 1"));
  if (l->experts_on_cpu && !vc_arch_is_moe (a))
    return refuse (error, _("--experts-on-cpu needs a mixture-of-experts model; this one is dense"));
  return TRUE;
}

static gboolean
check_training (const VcInputs *in,
                GError        **error)
{
  const VcLayout *l = &in->layout;
  guint zero = vc_layout_zero_stage (l->sharding);

  if (l->offload != VC_OFFLOAD_NONE && zero == 0)
    return refuse (error, _("--offload needs ZeRO 1, 2 or 3 or FSDP sharding: the host runs the optimizer "
                            "step on each GPU's shard"));
  if (l->offload == VC_OFFLOAD_OPTIMIZER_PARAMS && zero < 3)
    return refuse (error, _("parameter offload needs ZeRO-3 or FSDP full or hybrid sharding"));
  if (l->sharding == VC_SHARDING_FSDP_HYBRID && l->dp > l->gpus_per_node && l->dp % l->gpus_per_node != 0)
    return refuse (error, _("FSDP hybrid shards inside a node: the data-parallel GPUs (%u) must be a multiple "
                            "of the GPUs per node (%u)"), l->dp, l->gpus_per_node);
  /* torchtune refuses it itself: "Gradient accumulation is not supported with optimizer in bwd" */
  if (in->optimizer_in_backward && l->grad_accum > 1)
    return refuse (error, _("the optimizer step in the backward pass frees each gradient at once: it "
                            "cannot accumulate gradients; accepted: --grad-accum 1"));
  if (in->optimizer_in_backward && l->dp > 1)
    return refuse (error, _("the optimizer step in the backward pass is modelled on one GPU: set --dp 1"));
  if (in->optimizer_in_backward && in->method == VC_METHOD_RULE_OF_THUMB)
    return refuse (error, _("the optimizer step in the backward pass needs the architecture method: its "
                            "gradient is the largest tensor's"));
  if (in->optimizer_impl != VC_OPTIMIZER_IMPL_AUTO &&
      (in->optimizer == VC_OPTIMIZER_ADAMW_8BIT || in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT))
    return refuse (error, _("--optimizer-impl chooses how torch.optim steps; bitsandbytes' 8-bit optimizers "
                            "step in kernels of their own: leave it at auto"));
  if (in->optimizer_impl == VC_OPTIMIZER_IMPL_FUSED && in->optimizer == VC_OPTIMIZER_RMSPROP)
    return refuse (error, _("torch.optim.RMSprop has no fused step: accepted with rmsprop: auto or foreach"));
  if (in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT && l->dp > 1)
    return refuse (error, _("paged optimizers are modelled on one GPU: set --dp 1"));
  if (in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT && in->method == VC_METHOD_RULE_OF_THUMB)
    return refuse (error, _("paged optimizers need the architecture method: which states are paged "
                            "depends on each tensor's size"));
  return vc_training_rules_check (in, error);
}

/* The layout inputs of one mode: an estimate keeps both tabs' settings (the window shares one
 * estimate between them), and each mode uses its own. */
static void
effective_inputs (const VcInputs *in,
                  VcInputs       *out)
{
  *out = *in;
  if (in->mode == VC_MODE_TRAINING)
    {
      out->layout.tp = out->layout.pp = out->layout.ep = 1;
      out->layout.gpu_layers = 0;
      out->layout.experts_on_cpu = FALSE;
    }
  else
    {
      out->layout.cp = 1;
      out->layout.sharding = VC_SHARDING_NONE;
      out->layout.offload = VC_OFFLOAD_NONE;
      out->layout.grad_accum = 1;
    }
  out->layout.layer_split = in->mode == VC_MODE_INFERENCE && in->method == VC_METHOD_ARCHITECTURE &&
                            vc_engine_is_llama_cpp (in);
}

/* The layout the inputs' mode and engine use (the other mode's inputs left out, llama.cpp's
 * layer split marked): what the estimate computes and what reports describe. */
void
vc_layout_get_effective (const VcInputs *in,
                         VcLayout       *out)
{
  VcInputs effective;

  effective_inputs (in, &effective);
  *out = effective.layout;
}

/* Whether a layout input is used in a mode: vramcalc refuses one given for the other mode. */
gboolean
vc_layout_input_applies (const char *property,
                         VcMode      mode,
                         GError    **error)
{
  static const char *inference_only[] = { "tp", "pp", "ep", "gpu-layers", "experts-on-cpu", NULL };
  static const char *training_only[] = { "sharding", "offload", "grad-accum", "cp", NULL };

  if (mode == VC_MODE_TRAINING && g_strv_contains (inference_only, property))
    return refuse (error, _("applies to inference only: training layouts are data parallel (DP with "
                            "--zero or --fsdp, and --offload)"));
  if (mode == VC_MODE_INFERENCE && g_strv_contains (training_only, property))
    return refuse (error, _("applies to training only: inference layouts are TP, PP, EP and DP, "
                            "--gpu-layers and --experts-on-cpu"));
  return TRUE;
}

gboolean
vc_layout_check (const VcInputs *inputs,
                 GError        **error)
{
  VcInputs effective;
  const VcInputs *in = &effective;
  const VcLayout *l = &effective.layout;

  effective_inputs (inputs, &effective);
  if (l->tp == 0 || l->pp == 0 || l->ep == 0 || l->dp == 0 || l->gpus_per_node == 0 || l->grad_accum == 0)
    return refuse (error, _("TP, PP, EP, DP, the GPUs per node and the accumulation steps are at least 1"));
  if ((guint64) l->tp * l->pp * l->dp > MAX_LAYOUT_GPUS)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, (guint64) l->tp * l->pp * l->dp);
      return refuse (error, _("TP × PP × DP is %s GPUs; accepted: at most %u"), count, (guint) MAX_LAYOUT_GPUS);
    }
  if (in->mode == VC_MODE_TRAINING)
    return check_training (in, error);
  if (sglang_one_stage (in) && l->pp > 1)
    return refuse (error, _("SGLang runs this model on one pipeline stage: its Qwen3-Next and Falcon-H1 classes assert "
                            "it, its Granite 4.0 hybrid class ties every stage’s output head to an embedding only the "
                            "first holds, and its model runner refuses its GPT-2, GPT-BigCode, Falcon, Gemma, Gemma 2, "
                            "Gemma 3, Granite, Granite MoE, ERNIE 4.5 and Hunyuan classes, which take no pipeline "
                            "tensors "
                            "(“Pipeline Parallel is not compatible with this model”; the architecture field "
                            "sglang-one-stage); set PP to 1"));
  return check_inference (in, error);
}

/* ---- inference ------------------------------------------------------------------------------ */

/* One GPU's share of every layer under TP (and EP): a narrower transformer. Norms, the router,
 * learned positions and MLA's latent projections keep their full size: they are replicated. */
static void
shard_arch (const VcInputs *in,
            VcArch         *s)
{
  const VcArch *a = &in->arch;
  const VcLayout *l = &in->layout;
  guint tp = l->tp;

  *s = *a;
  s->head_dim = vc_arch_head_dim (a);
  s->n_heads = a->n_heads / tp;
  if (!vc_arch_is_mla (a))
    s->n_kv_heads = MAX (1u, a->n_kv_heads / tp);
  s->intermediate_size = a->intermediate_size / tp;
  s->vocab_size = (a->vocab_size + tp - 1) / tp;
  if (vc_arch_is_moe (a))
    {
      guint shared = shared_size (a);

      if (l->ep > 1)
        {
          s->n_experts = a->n_experts / l->ep;
          s->experts_per_token = MIN (a->experts_per_token, s->n_experts);
          s->expert_intermediate_size = expert_size (a);
        }
      else
        s->expert_intermediate_size = expert_size (a) / tp;
      s->shared_intermediate_size = shared / tp;
    }
}

typedef struct
{
  guint first_layer;
  guint n_layers;
  gboolean embedding;             /* holds the token embedding */
  gboolean head;                  /* holds the final norm and the output head */
} Stage;

/* Whether the sliding-window pattern places the windowed layers (stage_counts()): stages then
 * differ wherever the pattern puts the full-attention layers, each computed on its own */
static gboolean
placed_windows (const VcArch *a)
{
  double full, sliding;

  return a->sliding_window_layers < a->n_layers && vc_arch_stage_windows (a, 0, a->n_layers, &full, &sliding);
}

/* The dense and sliding-window layers among a stage's: what, with its layer count, the
 * embedding and the head, tells stages apart. `dense` is the model's leading dense layers. */
static void
stage_counts (const VcArch *full,
              guint         dense,
              const Stage  *st,
              guint        *stage_dense,
              guint        *stage_sliding)
{
  *stage_dense = st->first_layer < dense ? MIN (st->n_layers, dense - st->first_layer) : 0;
  *stage_sliding = 0;
  if (full->sliding_window > 0)
    {
      guint full_layers = full->n_layers - MIN (full->sliding_window_layers, full->n_layers);
      guint first = MIN (st->first_layer, full->n_layers);
      double f, s;

      /* the stage's own where the pattern places them (vc_arch_stage_windows()); where which
       * layers slide is not known, the busiest case, full-attention layers first */
      if (placed_windows (full) &&
          vc_arch_stage_windows (full, first, MIN (st->first_layer + st->n_layers, full->n_layers) - first, &f, &s))
        *stage_sliding = (guint) s;
      else
        *stage_sliding = st->n_layers - MIN (st->n_layers, full_layers);
    }
}

static guint
leading_dense_layers (const VcArch *full)
{
  return vc_arch_is_moe (full) ? MIN (full->dense_layers, full->n_layers) : 0;
}

/* the stage's own recurrent mixers, as the inventory places them (vc-inventory.c): where the
 * attention-layer pattern says which layers hold one, those of the stage; otherwise the last
 * ones */
static guint
stage_recurrent (const VcArch *full,
                 const Stage  *st)
{
  guint L = full->n_layers, rec = MIN (full->recurrent_layers, L);
  guint lo = MAX (st->first_layer, L - rec), hi = MIN (st->first_layer + st->n_layers, L);
  double attention, mixers;

  if (rec > 0 && rec < L && !full->recurrent_with_attention &&
      vc_arch_stage_kinds (full, st->first_layer, MIN (st->n_layers, L - MIN (L, st->first_layer)), &attention,
                           &mixers))
    return (guint) mixers;
  return hi > lo ? hi - lo : 0;
}

static void
stage_arch (const VcArch *full,
            const VcArch *shard,
            const Stage  *st,
            VcArch       *out)
{
  *out = *shard;
  out->n_layers = st->n_layers;
  stage_counts (full, leading_dense_layers (full), st, &out->dense_layers, &out->sliding_window_layers);
  out->recurrent_layers = stage_recurrent (full, st);
}

/* What each layout computes depends on the card only through vLLM's batch defaults and SM count
 * (vc_engine_on_card()): a search over the catalog computes each layout once for each batch.
 * Keyed (VcBatchKey) by the degrees the search varies (TP, PP, DP) and that batch; ONE_GPU_KEY
 * is the inputs' own layout on one GPU (smallest_training()). The layouts of one search share
 * the scenario's tensors too (`inv`), which do not depend on the layout. */
typedef struct _VcLayoutMemo
{
  GHashTable *results;            /* VcBatchKey → VcLayoutResult, or NULL when refused */
  VcInventory *inv;               /* the tensors of scenario `inv_id` */
  VcScenario inv_id;
} Memo;

/* the stage estimates one layout keeps (run()) */
#define CTX_RUNS 8

/* What a stage's estimate gives it: its weights are the inventory's (vc_inventory_shard_bytes) */
typedef struct
{
  double kv, state, activations;
  double rope_table;              /* the engine's RoPE tables on each of the stage's GPUs */
} StageMemory;

typedef struct
{
  const VcInputs *in;
  VcScenario id;
  VcArch shard;
  guint concurrency;              /* per data-parallel replica */
  VcInventory *inv;               /* the scenario's tensors, which the stages partition */
  /* the estimates of the stage architectures computed at this layout: a first stage and a
   * middle one of the same layers differ only in the embedding's weights, which the estimate
   * of their layers does not read; VcArch is integers only, its bytes its identity */
  VcArch run_arch[CTX_RUNS];
  StageMemory run_result[CTX_RUNS];
  guint n_runs;
} Ctx;

/* The estimate of one stage's layers (`arch`) at the context's layout, scenario and
 * concurrency, computed once for the layout. An inference estimate's memory is the same in
 * each scenario and needs no weights: vc_estimator_inference_memory() gives it alone, as
 * vc_estimator_compute() would (tests/test-fast-paths.c checks both agree). */
static void
run (Ctx          *c,
     const VcArch *arch,
     StageMemory  *out)
{
  VcInputs tmp;

  /* the fields in which a layout's stages differ first, before the whole */
  for (guint k = 0; k < c->n_runs; k++)
    if (c->run_arch[k].n_layers == arch->n_layers && c->run_arch[k].vocab_size == arch->vocab_size &&
        memcmp (&c->run_arch[k], arch, sizeof *arch) == 0)
      {
        *out = c->run_result[k];
        return;
      }
  tmp = *c->in;
  tmp.arch = *arch;
  tmp.concurrency = c->concurrency;
  tmp.method = VC_METHOD_ARCHITECTURE;
  if (tmp.mode == VC_MODE_INFERENCE)
    {
      vc_estimator_inference_memory (&tmp, &out->kv, &out->state, &out->activations);
      out->rope_table = vc_estimator_rope_table (&tmp, c->id);
    }
  else
    {
      VcScenarioResult sc;

      /* the context's scenario alone: the others' weights are not read here */
      if (!vc_estimator_compute_scenario (&tmp, c->id, &sc))
        g_assert_not_reached ();
      out->kv = sc.bytes[VC_COMPONENT_KV_CACHE];
      out->state = sc.bytes[VC_COMPONENT_SEQUENCE_STATE];
      out->activations = sc.bytes[VC_COMPONENT_ACTIVATIONS];
      out->rope_table = sc.rope_table;
    }
  if (c->n_runs < CTX_RUNS)
    {
      c->run_arch[c->n_runs] = *arch;
      c->run_result[c->n_runs] = *out;
      c->n_runs++;
    }
}

static void
ctx_init (Ctx            *c,
          const VcInputs *in,
          VcScenario      id,
          Memo           *memo)
{
  c->in = in;
  c->id = id;
  c->n_runs = 0;
  shard_arch (in, &c->shard);
  c->concurrency = (in->concurrency + in->layout.dp - 1) / in->layout.dp;
  if (memo != NULL && memo->inv != NULL && memo->inv_id == id)
    c->inv = vc_inventory_ref (memo->inv);
  else
    c->inv = vc_estimator_inventory (in, id);
  if (memo != NULL && memo->inv != c->inv)
    {
      g_clear_pointer (&memo->inv, vc_inventory_unref);
      memo->inv = vc_inventory_ref (c->inv);
      memo->inv_id = id;
    }
}

static void
ctx_clear (Ctx *c)
{
  g_clear_pointer (&c->inv, vc_inventory_unref);
}

#define ALL_ROLES ((1u << VC_N_TENSOR_ROLES) - 1)

/* Of the encoder's bytes, the share the inputs' engine divides over its tensor-parallel ranks:
 * vLLM and SGLang build some towers with parallel layers (architecture fields
 * encoder-vllm-tp-params and encoder-sglang-tp-params, FORMULAS.md, "One inventory of tensors");
 * under vLLM's --mm-encoder-tp-mode data only what lies outside its replicated tower
 * (encoder-vllm-data-tp-params); every other engine, and the breakdown without one, keeps the
 * encoder whole. The encoder's
 * tensors are all of one precision (16 bits), so the parameters' share is the bytes'. */
double
vc_layout_encoder_split (const VcInputs *in)
{
  const VcArch *a = &in->arch;
  guint split;

  if (a->encoder_params == 0)
    return 0;
  if (in->engine == VC_ENGINE_VLLM && in->mm_encoder_tp_mode == VC_MM_ENCODER_TP_MODE_DATA)
    split = a->encoder_vllm_data_tp_params; /* the tower replicated, some projector still divided */
  else if (in->engine == VC_ENGINE_VLLM)
    split = a->encoder_vllm_tp_params;
  else if (in->engine == VC_ENGINE_SGLANG)
    split = a->encoder_sglang_tp_params;
  else
    return 0;
  return MIN (1.0, (double) split / a->encoder_params);
}

/* One GPU of a stage: its layers, the embedding on the first stage, the final norm and head on
 * the last; a tied embedding needs its own copy as the head on a last stage without the
 * embedding (vLLM's and Megatron's pipelines). */
static VcShard
stage_shard (const Ctx   *c,
             const Stage *st)
{
  const VcLayout *l = &c->in->layout;
  VcShard s = {
    .tp = l->tp, .ep = l->ep, .first_layer = st->first_layer, .n_layers = st->n_layers,
    .input = st->embedding, .output = st->head,
    .embedding_copy = c->in->arch.tied_embeddings && st->head && !st->embedding,
    .encoder_split = vc_layout_encoder_split (c->in),
  };

  if (l->layer_split && l->pp > 1)
    {
      /* llama.cpp: the token embedding (and positions) in system RAM, the output a duplicate
       * of a tied embedding on the last GPU */
      s.roles = ALL_ROLES & ~(VC_TENSOR_ROLE_BIT (VC_TENSOR_EMBEDDING) | VC_TENSOR_ROLE_BIT (VC_TENSOR_POSITIONS));
      s.embedding_copy = c->in->arch.tied_embeddings && st->head;
    }
  return s;
}

typedef struct
{
  double weights, kv, state, activations, experts;
} StageBytes;

static void
stage_bytes (Ctx         *c,
             const Stage *st,
             StageBytes  *out)
{
  const VcInputs *in = c->in;
  const VcArch *a = &in->arch;
  VcArch sa;
  StageMemory sc;

  VcShard shard = stage_shard (c, st);

  stage_arch (a, &c->shard, st, &sa);
  run (c, &sa, &sc);
  out->kv = sc.kv;
  out->state = sc.state;
  /* each GPU of every stage makes its own RoPE tables (vLLM, SGLang) beside its shard */
  out->weights = vc_inventory_shard_bytes_experts (c->inv, &shard, &out->experts) + sc.rope_table;

  /* logits only where the head is, gathered whole (vLLM's LogitsProcessor gathers the
   * vocabulary-parallel logits) */
  sa.vocab_size = st->head ? a->vocab_size : 0;
  run (c, &sa, &sc);
  out->activations = sc.activations;
}

static void
result_clear (VcLayoutResult *out,
              const VcLayout *l)
{
  memset (out, 0, sizeof *out);
  out->n_gpus = vc_layout_n_gpus (l);
}

static void
result_finish (VcLayoutResult *out)
{
  out->total = out->buffers;
  out->all_total = out->all_buffers;
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    {
      out->bytes[c] = round (MAX (0.0, out->bytes[c]));
      out->all_bytes[c] = round (MAX (0.0, out->all_bytes[c]));
      out->total += out->bytes[c];
      out->all_total += out->all_bytes[c];
    }
  out->buffers = round (out->buffers);
  out->all_buffers = round (out->all_buffers);
  out->host_bytes = round (MAX (0.0, out->host_bytes));
}

/* Stages that hold the same layers compute the same: they are computed once. The same layers
 * are as many, as many of them dense, sliding and recurrent (a hybrid's stage across the
 * attention layers and the recurrent ones differs from one of recurrent layers alone). */
typedef struct
{
  Stage stage;
  guint dense, sliding, recurrent;
  StageBytes bytes;
} StageCache;

/* The kinds of one layout's stages: a handful in place, any more beyond (llama.cpp's split and
 * the plain computation of one layout take each stage on its own) */
#define STAGE_KINDS_IN_PLACE 16

typedef struct
{
  StageCache in_place[STAGE_KINDS_IN_PLACE];
  guint n;
  GArray *more;                   /* StageCache, NULL until the places are full */
} StageKinds;

static StageCache *
stage_kinds_get (StageKinds *kinds,
                 guint       k)
{
  return k < STAGE_KINDS_IN_PLACE ? &kinds->in_place[k]
                                  : &g_array_index (kinds->more, StageCache, k - STAGE_KINDS_IN_PLACE);
}

static StageCache *
stage_kinds_add (StageKinds       *kinds,
                 const StageCache *entry)
{
  if (kinds->n < STAGE_KINDS_IN_PLACE)
    kinds->in_place[kinds->n] = *entry;
  else
    {
      if (kinds->more == NULL)
        kinds->more = g_array_new (FALSE, FALSE, sizeof (StageCache));
      g_array_append_vals (kinds->more, entry, 1);
    }
  return stage_kinds_get (kinds, kinds->n++);
}

/* A whole number of at most 2^52 */
static inline gboolean
small_whole (double v)
{
  return fabs (v) <= 0x1p52 && v == (double) (gint64) v;
}

/* `acc` with `gpus` × `bytes` added `n` times, one addition after the other, as the stages are
 * summed: the same double as the loop gives. Where every product and partial sum is exact
 * (`gpus` whole, `acc` and `bytes` whole multiples of one 2^-k, k = 0, 8 … 32, and
 * |acc| + n·gpus·|bytes| at most 2^52 of them), the loop's sum is acc + n·gpus·bytes, computed
 * exactly; a deep pipeline's thousands of stages then cost one step. A few stages are added. */
static double
add_times (double acc,
           double gpus,
           double bytes,
           guint  n)
{
  double scale = 1;

  for (guint k = 0; n > 16 && k <= 32 && small_whole (gpus) && gpus >= 1; k += 8, scale *= 0x1p8)
    {
      /* exact: a power of two, far from the doubles' ends */
      double a = acc * scale, b = bytes * scale, step;

      if (!small_whole (a) || !small_whole (b))
        {
          if (fabs (a) <= 0x1p52 && fabs (b) <= 0x1p52)
            continue;
          break;
        }
      if (fabs (b) > 0x1p52 / gpus / n)
        break;
      /* each an integer of at most 2^52: exact, and so is their sum, whatever its order */
      step = gpus * b;
      if (fabs (a) + n * fabs (step) <= 0x1p52)
        return (a + n * step) / scale;
      break;
    }
  for (guint j = 0; j < n; j++)
    acc += gpus * bytes;
  return acc;
}

/* llama.cpp's partial offload (src/llama-model.cpp, load_tensors): the output counts as layer
 * n_layer, and -ngl N puts the layers from i_gpu_start = max(n_layer + 1 − N, 0) on the GPU:
 * the output (final norm and head, or a duplicate of a tied token embedding) and the last
 * N − 1 repeating layers. The input layer, the token embedding, always stays on the CPU ("very
 * little benefit to offloading the input layer"). KV follows its layer; with exps=CPU the
 * routed experts of the GPU's layers move to system RAM. A multimodal projector (mmproj) is
 * loaded on the GPU. */
static void
llama_cpp_offload (Ctx            *c,
                   double          overhead,
                   VcLayoutResult *out)
{
  const VcLayout *l = &c->in->layout;
  const VcArch *a = &c->in->arch;
  guint L = a->n_layers;
  guint n = l->gpu_layers > 0 ? MIN (l->gpu_layers, L + 1) : L + 1;
  guint start = L + 1 - n;
  Stage gpu = { start, L - start, FALSE, TRUE };
  guint32 all = ALL_ROLES, encoder = VC_TENSOR_ROLE_BIT (VC_TENSOR_ENCODER);
  VcShard gs = { 1, 1, start, L - start, FALSE, TRUE, a->tied_embeddings, all & ~encoder };
  VcShard cs = { 1, 1, 0, start, TRUE, FALSE, FALSE, all & ~encoder };
  VcShard es = { 1, 1, 0, 0, TRUE, FALSE, FALSE, encoder };
  Stage whole = { 0, L, TRUE, TRUE };
  StageBytes gb, wb = { 0 };

  stage_bytes (c, &gpu, &gb);
  /* the CPU's layers keep the rest of the cache: the whole model's less the GPU's (where the
   * sliding-window pattern is not known each stage alone takes its busiest case) */
  if (start > 0)
    stage_bytes (c, &whole, &wb);
  gb.weights = vc_inventory_shard_bytes (c->inv, &gs) + vc_inventory_shard_bytes (c->inv, &es);
  out->host_bytes = vc_inventory_shard_bytes (c->inv, &cs) + MAX (0.0, wb.kv - gb.kv) + MAX (0.0, wb.state - gb.state);
  if (l->experts_on_cpu)
    {
      gs.roles = VC_TENSOR_ROLE_BIT (VC_TENSOR_EXPERTS);
      gs.embedding_copy = FALSE;
      gb.weights -= vc_inventory_shard_bytes (c->inv, &gs);
      out->host_bytes += vc_inventory_shard_bytes (c->inv, &gs);
    }
  out->bytes[VC_COMPONENT_WEIGHTS] = gb.weights;
  out->bytes[VC_COMPONENT_KV_CACHE] = gb.kv;
  out->bytes[VC_COMPONENT_SEQUENCE_STATE] = gb.state;
  out->bytes[VC_COMPONENT_ACTIVATIONS] = gb.activations;
  out->bytes[VC_COMPONENT_OVERHEAD] = overhead;
  memcpy (out->all_bytes, out->bytes, sizeof out->bytes);
}

/* The first layer of stage `i` of vLLM's split (vc_layout_pp_stage_size()): with q = L / PP and
 * r = L % PP, stages before t = PP − 1 − r hold q layers, stages t … PP − 2 one more. */
guint
vc_layout_pp_stage_first (guint L,
                          guint pp,
                          guint i)
{
  guint q = L / pp, r = L % pp, t = pp - 1 - r;

  return i * q + (r > 0 && i > t ? i - t : 0);
}

/* The stage of the inputs' split (vc_layout_stage_layers()) that holds layer `layer` (< L):
 * the last whose first layer is at most `layer` */
static guint
stage_of_layer (const VcInputs *in,
                guint           pp,
                guint           layer)
{
  guint lo = 0, hi = pp - 1;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo + 1) / 2;

      if (vc_layout_stage_first (in, pp, mid) <= layer)
        lo = mid;
      else
        hi = mid - 1;
    }
  return lo;
}

/* Where the kind of stage changes in the inputs' split of L layers over PP stages (PP ≤ L):
 * after the first stage (the embedding), where the stages of one layer more begin (t = PP − 1 −
 * L % PP in vLLM's split, PP − L % PP in SGLang's: both taken) and at the last stage (the head;
 * one layer less in vLLM's split), around the stage the leading dense layers end in (dense
 * stages before it, none after) and the one the recurrent layers begin in (none before it, all
 * after). Between two such stages, every stage holds as many layers, as many of them dense,
 * sliding and recurrent: the same estimate (inference_architecture() computes each kind once). */
typedef struct
{
  guint at[9];
  guint n;
  guint pp;
} StageRuns;

static void
stage_runs_init (StageRuns      *runs,
                 const VcInputs *in,
                 guint           dense,
                 guint           pp)
{
  const VcArch *a = &in->arch;
  guint L = a->n_layers, rec = MIN (a->recurrent_layers, L);

  runs->n = 0;
  runs->pp = pp;
  runs->at[runs->n++] = 1;
  runs->at[runs->n++] = pp - 1 - L % pp;
  runs->at[runs->n++] = pp - L % pp;
  runs->at[runs->n++] = pp - 1;
  if (dense > 0 && dense < L)
    {
      guint s = stage_of_layer (in, pp, dense);

      runs->at[runs->n++] = s;
      runs->at[runs->n++] = s + 1;
    }
  if (rec > 0 && rec < L)
    {
      guint s = stage_of_layer (in, pp, L - rec);

      runs->at[runs->n++] = s;
      runs->at[runs->n++] = s + 1;
    }
}

/* Whether the attention-layer pattern places the mixers (stage_recurrent()): stages then differ
 * wherever the pattern puts them, each computed on its own */
static gboolean
placed_mixers (const VcArch *a)
{
  double attention, mixers;

  return a->recurrent_layers > 0 && a->recurrent_layers < a->n_layers && !a->recurrent_with_attention &&
         vc_arch_stage_kinds (a, 0, a->n_layers, &attention, &mixers);
}

/* The end of the run of stages of the same kind that starts at stage `i` */
static guint
stage_runs_end (const StageRuns *runs,
                guint            i)
{
  guint end = runs->pp;

  for (guint k = 0; k < runs->n; k++)
    if (runs->at[k] > i && runs->at[k] < end)
      end = runs->at[k];
  return end;
}

static void
inference_architecture (Memo           *memo,
                        const VcInputs *in,
                        VcScenario      id,
                        double          overhead,
                        VcLayoutResult *out)
{
  const VcLayout *l = &in->layout;
  const VcArch *a = &in->arch;
  Ctx c;
  double per_stage_gpus = (double) l->tp * l->dp;
  double best = -1;

  ctx_init (&c, in, id, memo);

  if (l->gpu_layers > 0 || l->experts_on_cpu)
    {
      llama_cpp_offload (&c, overhead, out);
      ctx_clear (&c);
      return;
    }

  {
    /* at most two layer counts, the first and last stages, and the stages the leading dense
     * layers end in: a handful of kinds, however many stages */
    StageKinds kinds;
    guint dense = leading_dense_layers (a), first = 0;
    StageRuns runs;

    kinds.n = 0;
    kinds.more = NULL;
    stage_runs_init (&runs, in, dense, l->pp);
    for (guint i = 0, end; i < l->pp; i = end)
      {
        Stage st = { first, vc_layout_stage_size (in, l->pp, i), i == 0, i == l->pp - 1 };
        guint st_dense, st_sliding, st_recurrent;
        StageCache *hit = NULL;
        double total;

        /* stages [i, end) hold the same layers: a search takes them as one (its layouts reach
         * a stage per layer); llama.cpp's split, whose layer counts follow no such pattern, and
         * the plain computation of one layout, which the searches are checked against
         * (tests/test-layout.c), one stage at a time */
        end = l->layer_split || memo == NULL || placed_mixers (a) || placed_windows (a) ? i + 1
                                                                                      : stage_runs_end (&runs, i);
        if (l->layer_split)
          llama_split_stage (a->n_layers, l->pp, i, &st.first_layer, &st.n_layers);
        first += (end - i) * st.n_layers;
        stage_counts (a, dense, &st, &st_dense, &st_sliding);
        st_recurrent = stage_recurrent (a, &st);
        for (guint k = 0; k < kinds.n && hit == NULL; k++)
          {
            StageCache *e = stage_kinds_get (&kinds, k);

            if (e->stage.n_layers == st.n_layers && e->stage.embedding == st.embedding &&
                e->stage.head == st.head && e->dense == st_dense && e->sliding == st_sliding &&
                e->recurrent == st_recurrent)
              hit = e;
          }
        if (hit == NULL)
          {
            StageCache entry = { st, st_dense, st_sliding, st_recurrent, { 0 } };

            stage_bytes (&c, &st, &entry.bytes);
            hit = stage_kinds_add (&kinds, &entry);
          }

        /* the run's stages are as busy as its first: only the first can be the busiest */
        total = hit->bytes.weights + hit->bytes.kv + hit->bytes.state + hit->bytes.activations;
        if (total > best)
          {
            best = total;
            out->busiest_stage = i;
            out->bytes[VC_COMPONENT_WEIGHTS] = hit->bytes.weights;
            out->bytes[VC_COMPONENT_KV_CACHE] = hit->bytes.kv;
            out->bytes[VC_COMPONENT_SEQUENCE_STATE] = hit->bytes.state;
            out->bytes[VC_COMPONENT_ACTIVATIONS] = hit->bytes.activations;
            out->bytes[VC_COMPONENT_OVERHEAD] = overhead;
          }
        /* summed stage by stage, as the whole is summed */
        out->all_bytes[VC_COMPONENT_WEIGHTS] = add_times (out->all_bytes[VC_COMPONENT_WEIGHTS], per_stage_gpus,
                                                          hit->bytes.weights, end - i);
        out->all_bytes[VC_COMPONENT_KV_CACHE] = add_times (out->all_bytes[VC_COMPONENT_KV_CACHE], per_stage_gpus,
                                                           hit->bytes.kv, end - i);
        out->all_bytes[VC_COMPONENT_SEQUENCE_STATE] = add_times (out->all_bytes[VC_COMPONENT_SEQUENCE_STATE],
                                                                 per_stage_gpus, hit->bytes.state, end - i);
        out->all_bytes[VC_COMPONENT_ACTIVATIONS] = add_times (out->all_bytes[VC_COMPONENT_ACTIVATIONS],
                                                              per_stage_gpus, hit->bytes.activations, end - i);
        out->all_bytes[VC_COMPONENT_OVERHEAD] = add_times (out->all_bytes[VC_COMPONENT_OVERHEAD], per_stage_gpus,
                                                           overhead, end - i);
      }
    if (kinds.more != NULL)
      g_array_unref (kinds.more);
  }
  if (l->layer_split && l->pp > 1)
    {
      /* llama.cpp keeps the input layer in system RAM */
      VcShard host = { 1, 1, 0, 0, TRUE, FALSE, FALSE,
                       VC_TENSOR_ROLE_BIT (VC_TENSOR_EMBEDDING) | VC_TENSOR_ROLE_BIT (VC_TENSOR_POSITIONS) };

      out->host_bytes = vc_inventory_shard_bytes (c.inv, &host);
    }
  ctx_clear (&c);
}

/* The rule of thumb knows neither heads nor layers: TP × PP GPUs split weights, KV cache and
 * activations evenly (the split a valid layout approaches), each keeping its own overhead. */
static void
inference_rule_of_thumb (const VcInputs *in,
                         VcScenario      id,
                         double          overhead,
                         VcLayoutResult *out)
{
  const VcLayout *l = &in->layout;
  VcInputs tmp = *in;
  VcResult r;
  double split = (double) l->tp * l->pp;

  tmp.concurrency = (in->concurrency + l->dp - 1) / l->dp;
  vc_estimator_compute (&tmp, &r);
  for (guint i = 0; i < r.n_scenarios; i++)
    if (r.scenarios[i].id == id)
      for (guint comp = 0; comp < VC_N_COMPONENTS; comp++)
        if (comp != VC_COMPONENT_OVERHEAD)
          {
            out->bytes[comp] = r.scenarios[i].bytes[comp] / split;
            out->all_bytes[comp] = r.scenarios[i].bytes[comp] * l->dp;
          }
  out->bytes[VC_COMPONENT_OVERHEAD] = overhead;
  out->all_bytes[VC_COMPONENT_OVERHEAD] = overhead * vc_layout_n_gpus (l);
}

/* ---- training ------------------------------------------------------------------------------- */

static double
training_value_bytes (const VcInputs *in)
{
  return vc_precision_is_float (in->precision) ? vc_precision_bytes (in->precision) : 2.0;
}

/* What ZeRO-3 / FSDP gathers at once: the largest layer's parameters at their stored precision
 * (with_params) and its unsharded gradient before the reduce-scatter (DeepSpeed's
 * largest_layer_memory, docs/code-docs/source/memory.rst). FSDP wraps each decoder layer, the
 * root unit holding the embedding and head. The rule of thumb knows no layer: it takes
 * DeepSpeed's prefetch bucket (stage3_prefetch_bucket_size). */
static double
gathered_layer_bytes (const VcInputs         *in,
                      const VcScenarioResult *sc,
                      gboolean                with_params)
{
  double e = training_value_bytes (in);
  double lb = sc->weight_bits / 8.0;
  double ob = sc->weight_bits < 16 ? 2.0 : sc->weight_bits / 8.0;
  gboolean full = sc->id == VC_SCENARIO_FULL;
  double params, bytes;

  if (in->method == VC_METHOD_RULE_OF_THUMB)
    {
      params = MIN (DS_PREFETCH_BUCKET, in->parameters);
      return (with_params ? params * lb : 0) + (full ? params * e : 0);
    }
  else
    {
      const VcArch *a = &in->arch;
      VcArch one = *a, none = *a;
      VcParamCounts c0, c1;
      double layer_linear = 0, layer_other = 0, embed, trained;

      none.n_layers = 0;
      none.dense_layers = 0;
      vc_arch_count_params (&none, &c0);
      one.n_layers = 1;
      for (int moe = 0; moe <= 1; moe++)
        {
          if ((moe && (!vc_arch_is_moe (a) || n_dense_layers (a) == a->n_layers)) ||
              (!moe && n_dense_layers (a) == 0))
            continue;
          one.dense_layers = moe ? 0 : 1;
          vc_arch_count_params (&one, &c1);
          if ((c1.linear - c0.linear) * lb + (c1.other - c0.other) * ob > layer_linear * lb + layer_other * ob)
            {
              layer_linear = c1.linear - c0.linear;
              layer_other = c1.other - c0.other;
            }
        }
      embed = MAX (c0.embedding, c0.head);
      params = layer_linear + layer_other;
      bytes = layer_linear * lb + layer_other * ob;
      if (embed * (lb < 2 ? 2.0 : lb) > bytes)
        {
          params = embed;
          bytes = embed * (lb < 2 ? 2.0 : lb);
        }
      trained = full ? params : vc_arch_lora_params (a, in->lora_rank, in->lora_targets) / MAX (1u, a->n_layers);
      return (with_params ? bytes : 0) + trained * e;
    }
}

/* FSDP2 (`fully_shard`, torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py), as torchtitan
 * and torchtune run it: the all-gather of the next block is issued while one computes (implicit
 * forward prefetch, one all-gather state kept; one block prefetched in the backward pass), so two
 * blocks' unsharded parameters are alive; in post_backward, foreach_reduce copies the block's
 * unsharded gradients into a reduce-scatter input in the reduce dtype, kept in
 * reduce_scatter_state until the next block's. torchtitan reduces in fp32 (its
 * mixed_precision_reduce default "float32"); torchtune sets no mixed-precision policy: the
 * parameters' dtype. */
static gboolean
fsdp2 (const VcInputs *in)
{
  return (in->layout.sharding == VC_SHARDING_FSDP_FULL || in->layout.sharding == VC_SHARDING_FSDP_HYBRID) &&
         in->method == VC_METHOD_ARCHITECTURE &&
         (in->trainer == VC_TRAINER_TORCHTITAN || in->trainer == VC_TRAINER_TORCHTUNE);
}

static double
fsdp2_buffers (const VcInputs         *in,
               const VcScenarioResult *sc)
{
  double e = training_value_bytes (in);
  double grads = gathered_layer_bytes (in, sc, FALSE);
  double params = gathered_layer_bytes (in, sc, TRUE) - grads;
  double reduce = in->trainer == VC_TRAINER_TORCHTITAN ? 4.0 : e;

  return 2.0 * params + grads + grads / e * reduce;
}

/* FSDP2's MixedPrecisionPolicy (torch/distributed/fsdp/_fully_shard/_fsdp_param.py): the
 * sharded parameters keep their fp32 and are what the optimizer steps; param_dtype, bf16, is the
 * all-gathered copies' alone (fsdp2_buffers()): no 16-bit shard beside a master. */
static gboolean
fsdp2_fp32_shards (const VcInputs         *in,
                   const VcScenarioResult *sc)
{
  return fsdp2 (in) && in->mixed_precision && sc->id == VC_SCENARIO_FULL &&
         sc->bytes[VC_COMPONENT_MASTER_WEIGHTS] > 0;
}

/* Which phase sets one GPU's peak (architecture method): the start of the backward pass, its
 * end, or the optimizer step with the GPU's share of the step's temporary. */
static void
training_phase (const VcScenarioResult *sc,
                gboolean                accumulating,
                double                  grads_gpu,
                double                  optimizer,
                double                  step,
                VcLayoutResult         *out)
{
  /* with gradient accumulation the gradients stay through the next micro-batch's forward */
  double held = accumulating ? grads_gpu : 0;
  double fwd = sc->forward_activations + held;
  double bwd = sc->backward_activations + grads_gpu;

  if (fwd >= bwd && fwd >= grads_gpu + step)
    {
      out->peak_phase = VC_PHASE_FORWARD;
      out->bytes[VC_COMPONENT_ACTIVATIONS] = sc->forward_activations;
      out->bytes[VC_COMPONENT_GRADIENTS] = held;
    }
  else if (bwd >= grads_gpu + step)
    {
      out->peak_phase = VC_PHASE_BACKWARD;
      out->bytes[VC_COMPONENT_ACTIVATIONS] = sc->backward_activations;
      out->bytes[VC_COMPONENT_GRADIENTS] = grads_gpu;
    }
  else
    {
      out->peak_phase = VC_PHASE_STEP;
      out->bytes[VC_COMPONENT_ACTIVATIONS] = 0;
      out->bytes[VC_COMPONENT_GRADIENTS] = grads_gpu;
      out->bytes[VC_COMPONENT_OPTIMIZER] = optimizer + step;
    }
}

static void
training (const VcInputs         *in,
          const VcScenarioResult *sc,
          double                  overhead,
          VcLayoutResult         *out,
          double                 *gradients_on_gpu)
{
  const VcLayout *l = &in->layout;
  guint zero = vc_layout_zero_stage (l->sharding);
  /* the data-parallel group shards over DP × CP: torchtitan's FSDP mesh is dp_shard_cp
   * (torchtitan/distributed/parallel_dims.py, fsdp = dp_shard * cp), and the CP ranks, which
   * hold the same weights, reduce their gradients with it */
  double world = (double) l->dp * vc_training_cp (in);
  double n = l->sharding == VC_SHARDING_FSDP_HYBRID ? MIN (world, l->gpus_per_node) : world;
  double e = training_value_bytes (in);
  double T = sc->trainable_parameters;
  gboolean arch = in->method == VC_METHOD_ARCHITECTURE;
  double W = sc->bytes[VC_COMPONENT_WEIGHTS];
  /* the optimizer's state alone: the step's temporary is added back below, sharded like it */
  double S = arch ? sc->step_temporary : 0;
  double O = sc->bytes[VC_COMPONENT_OPTIMIZER] - (sc->peak_phase == VC_PHASE_STEP ? S : 0);
  double M = sc->bytes[VC_COMPONENT_MASTER_WEIGHTS];
  double G = arch ? sc->gradient_bytes : sc->bytes[VC_COMPONENT_GRADIENTS];
  double weights, optimizer, master, grads16, grads32, buffers = 0, host = 0, grads_gpu, step;
  double node_gpus = MIN (world, l->gpus_per_node);

  weights = zero >= 3 ? W / n : W;
  optimizer = zero >= 1 ? O / n : O;
  /* each rank steps its own shard of the state: its shard of the temporary */
  step = zero >= 1 ? S / n : S;
  master = zero >= 1 ? M / n : M;
  if (fsdp2_fp32_shards (in, sc))
    {
      weights = M / n;
      master = 0;
    }
  /* ZeRO-2/3 keep the gradient partition only; with mixed precision the optimizer step reads it
   * in fp32 (DeepSpeed's memory.rst: 4 bytes of fp32 gradient a parameter in its 16 and 18) */
  grads16 = zero >= 2 ? (in->mixed_precision ? 0 : G / n) : G;
  grads32 = zero >= 1 && in->mixed_precision ? T * 4.0 / n : 0;

  if (zero == 0 && world > 1)
    /* PyTorch DDP's gradient buckets copy every gradient (gradient_as_bucket_view=False) */
    buffers = G;
  else if (l->sharding == VC_SHARDING_ZERO_1 || l->sharding == VC_SHARDING_ZERO_2)
    /* DeepSpeed allocates its contiguous gradient bucket whole at each backward pass */
    buffers = DS_REDUCE_BUCKET * e;
  else if (l->sharding == VC_SHARDING_FSDP_GRAD_OP)
    /* FSDP reduce-scatters one unit's gradients at a time */
    buffers = gathered_layer_bytes (in, sc, FALSE);
  else if (zero == 3 && fsdp2 (in))
    buffers = fsdp2_buffers (in, sc);
  else if (zero == 3)
    buffers = gathered_layer_bytes (in, sc, TRUE);

  if (l->offload != VC_OFFLOAD_NONE)
    {
      /* ZeRO-Offload / FSDP cpu_offload: the optimizer step runs on the host on its shard:
       * optimizer state, fp32 master and gradient partitions live there */
      host += optimizer + master + grads32 + (zero >= 2 ? grads16 : 0);
      optimizer = master = grads32 = step = 0;
      if (zero >= 2)
        grads16 = 0;
      if (l->offload == VC_OFFLOAD_OPTIMIZER_PARAMS)
        {
          host += weights;
          weights = 0;
        }
    }
  grads_gpu = grads16 + grads32;
  *gradients_on_gpu = grads_gpu;
  out->step_temporary = step;

  out->bytes[VC_COMPONENT_WEIGHTS] = weights;
  out->bytes[VC_COMPONENT_OPTIMIZER] = optimizer;
  out->bytes[VC_COMPONENT_MASTER_WEIGHTS] = master;
  out->bytes[VC_COMPONENT_OVERHEAD] = overhead;
  out->buffers = buffers;
  out->host_bytes = host * node_gpus;

  if (arch)
    training_phase (sc, l->grad_accum > 1, grads_gpu, optimizer, step, out);
  else
    {
      out->bytes[VC_COMPONENT_ACTIVATIONS] = sc->bytes[VC_COMPONENT_ACTIVATIONS];
      out->bytes[VC_COMPONENT_GRADIENTS] = grads_gpu;
    }

  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    out->all_bytes[c] = out->bytes[c] * world;
  out->all_buffers = out->buffers * world;
}

/* with_reserve FALSE leaves the allocator's reserve uncomputed (reserved < 0): replaying a
 * step costs more than the rest, and a layout whose total exceeds a card needs none */
static gboolean
layout_compute (Memo           *memo,
                const VcInputs *inputs,
                const VcResult *res,
                guint           index,
                VcLayoutResult *out,
                gboolean        with_reserve,
                GError        **error)
{
  const VcScenarioResult *sc;
  VcInputs effective;
  const VcInputs *in = &effective;
  double reserve_gradients = 0;

  effective_inputs (inputs, &effective);

  g_return_val_if_fail (index < res->n_scenarios, FALSE);
  sc = &res->scenarios[index];
  result_clear (out, &in->layout);
  if (!vc_layout_check (in, error))
    return FALSE;

  if (in->mode == VC_MODE_TRAINING)
    training (in, sc, res->overhead_bytes, out, &reserve_gradients);
  else if (in->method == VC_METHOD_RULE_OF_THUMB)
    inference_rule_of_thumb (in, sc->id, res->overhead_bytes, out);
  else
    inference_architecture (memo, in, sc->id, res->overhead_bytes, out);
  /* llama.cpp's projector in system RAM with --no-mmproj-offload */
  out->host_bytes += vc_inputs_mmproj_host_bytes (in);
  result_finish (out);
  out->reserved = out->total;
  if (vc_estimator_models_reserve (in) && !with_reserve)
    out->reserved = -1;
  else if (vc_estimator_models_reserve (in))
    {
      /* the allocator's cache around what this GPU holds through a step */
      VcReserveShare share = {
        .weights = out->bytes[VC_COMPONENT_WEIGHTS],
        .optimizer = out->bytes[VC_COMPONENT_OPTIMIZER] -
                     (out->peak_phase == VC_PHASE_STEP ? out->step_temporary : 0),
        .step = out->step_temporary,
        .master = out->bytes[VC_COMPONENT_MASTER_WEIGHTS],
        .gradients = reserve_gradients,
        .buffers = out->buffers,
        .held_gradients = in->layout.grad_accum > 1,
      };

      out->reserved += round (vc_estimator_training_cache_bytes (in, sc, &share));
    }
  return TRUE;
}

gboolean
vc_layout_compute (const VcInputs *inputs,
                   const VcResult *res,
                   guint           index,
                   VcLayoutResult *out,
                   GError        **error)
{
  return layout_compute (NULL, inputs, res, index, out, TRUE, error);
}

gboolean
vc_layout_compute_tp (const VcInputs *inputs,
                      const VcResult *res,
                      guint           index,
                      guint           tp,
                      VcLayoutResult *out,
                      GError        **error)
{
  VcInputs at = *inputs;

  at.layout.tp = MAX (1u, tp);
  at.layout.pp = at.layout.ep = at.layout.dp = 1;
  at.layout.gpu_layers = 0;
  at.layout.experts_on_cpu = FALSE;
  return layout_compute (NULL, &at, res, index, out, TRUE, error);
}

void
vc_layout_stage_bytes (const VcInputs *inputs,
                       const VcResult *res,
                       guint           index,
                       guint           first_layer,
                       guint           n_layers,
                       gboolean        input,
                       gboolean        output,
                       VcLayoutStage  *out)
{
  vc_layout_stage_bytes_tp (inputs, res, index, first_layer, n_layers, input, output, 1, 1, out);
}

/* The same for one of the `tp` GPUs of a tensor-parallel stage, the experts over `ep` of them */
void
vc_layout_stage_bytes_tp (const VcInputs *inputs,
                          const VcResult *res,
                          guint           index,
                          guint           first_layer,
                          guint           n_layers,
                          gboolean        input,
                          gboolean        output,
                          guint           tp,
                          guint           ep,
                          VcLayoutStage  *out)
{
  VcInputs in = *inputs;
  Ctx c;
  Stage st = { first_layer, n_layers, input, output };
  StageBytes b;
  VcShard shard;

  g_return_if_fail (index < res->n_scenarios);
  memset (out, 0, sizeof *out);
  in.layout.pp = in.layout.dp = 1;
  in.layout.tp = MAX (1u, tp);
  in.layout.ep = MAX (1u, ep);
  in.layout.gpu_layers = 0;
  in.layout.experts_on_cpu = FALSE;
  in.layout.layer_split = FALSE;
  ctx_init (&c, &in, res->scenarios[index].id, NULL);
  if (n_layers > 0 || input || output)
    {
      stage_bytes (&c, &st, &b);
      out->kv = b.kv;
      out->state = b.state;
      out->activations = b.activations;
    }
  shard = stage_shard (&c, &st);
  shard.embedding_copy = inputs->arch.tied_embeddings && output && !input;
  /* and the engine's RoPE tables, which every GPU makes whole (vLLM, SGLang) */
  out->weights = vc_inventory_shard_bytes (c.inv, &shard) + res->scenarios[index].rope_table;
  shard.roles = VC_TENSOR_ROLE_BIT (VC_TENSOR_EXPERTS);
  shard.embedding_copy = FALSE;
  out->experts = vc_inventory_shard_bytes (c.inv, &shard);
  {
    VcShard one = { 1, 1, inputs->arch.n_layers > 0 ? inputs->arch.n_layers - 1 : 0, 1, FALSE, FALSE, FALSE,
                    VC_TENSOR_ROLE_BIT (VC_TENSOR_EXPERTS) };

    out->experts_per_layer = vc_inventory_shard_bytes (c.inv, &one);
  }
  ctx_clear (&c);
}

double
vc_layout_role_bytes (const VcInputs *inputs,
                      const VcResult *res,
                      guint           index,
                      guint32         roles,
                      guint           first_layer,
                      guint           n_layers,
                      gboolean        input,
                      gboolean        output)
{
  g_autoptr(VcInventory) inv = NULL;
  VcShard shard = { 1, 1, first_layer, n_layers, input, output, FALSE, roles };

  g_return_val_if_fail (index < res->n_scenarios, 0);
  inv = vc_estimator_inventory (inputs, res->scenarios[index].id);
  return vc_inventory_shard_bytes (inv, &shard);
}

/* ---- the smallest layout of a card ------------------------------------------------------------ */

#define ONE_GPU_KEY G_MININT64

static void
memo_init (Memo *memo)
{
  memo->results = vc_batch_key_table_new (g_free);
  memo->inv = NULL;
  memo->inv_id = 0;
}

static void
memo_clear (Memo *memo)
{
  g_clear_pointer (&memo->results, g_hash_table_unref);
  g_clear_pointer (&memo->inv, vc_inventory_unref);
}

static gboolean
try_layout (Memo           *memo,
            const VcInputs *in,
            const VcResult *res,
            guint           index,
            const VcLayout *layout,
            double          capacity,
            VcLayoutResult *out)
{
  VcBatchKey key = vc_batch_key (in, ((gint64) MIN (layout->tp, 0x1fffffu) << 42) |
                                       ((gint64) MIN (layout->pp, 0x1fffffu) << 21) | MIN (layout->dp, 0x1fffffu));
  gpointer value;
  VcInputs tmp = *in;

  tmp.layout = *layout;
  if (g_hash_table_lookup_extended (memo->results, &key, NULL, &value))
    {
      if (value == NULL)
        return FALSE;
      if (((VcLayoutResult *) value)->reserved < 0 && ((VcLayoutResult *) value)->total <= capacity)
        layout_compute (memo, &tmp, res, index, value, TRUE, NULL);
      *out = *(VcLayoutResult *) value;
      return out->reserved >= 0 && out->reserved <= capacity;
    }
  value = NULL;
  if (layout_compute (memo, &tmp, res, index, out, FALSE, NULL))
    {
      /* the reserve is never below the total: only a layout within the card needs it */
      if (out->reserved < 0 && out->total <= capacity)
        layout_compute (memo, &tmp, res, index, out, TRUE, NULL);
      value = g_memdup2 (out, sizeof *out);
    }
  g_hash_table_insert (memo->results, vc_batch_key_dup (&key), value);
  return value != NULL && out->reserved >= 0 && out->reserved <= capacity;
}

/* One search for the smallest layout of one card: the effective inputs, the estimate, the
 * card's capacity and the card itself (NULL: a capacity alone). */
typedef struct
{
  Memo           *memo;
  const VcInputs *in;
  const VcResult *res;
  guint           index;
  double          capacity;
  const VcGpu    *gpu;
} Search;

/* vLLM's MXFP4 experts as the card's backend pads them at `layout`'s TP degree, in @padding:
 * what each rank allocates beyond its share of the checkpoint (vc_engine_vllm_mxfp4_extra;
 * FORMULAS.md, "vLLM's MXFP4 experts"). The padding changes with TP, so each layout counts its
 * own. It is followed on one pipeline stage without expert parallelism, as the cache at a
 * layout follows it (vc_engine_at_layout): FALSE for a padded layout beyond that. 0 where the
 * estimate is not vLLM serving MXFP4 experts on a card whose backend is followed. */
static gboolean
search_padding (const Search   *s,
                const VcLayout *layout,
                double         *padding)
{
  *padding = 0;
  /* vc_engine_vllm_mxfp4_extra() leaves 0 where it follows no backend: the experts as stored */
  if (s->gpu == NULL || !vc_engine_vllm_mxfp4_extra (s->in, s->gpu, MAX (1u, layout->tp), padding))
    return TRUE;
  return *padding <= 0 || (MAX (1u, layout->pp) == 1 && MAX (1u, layout->ep) == 1);
}

/* What the engine lets the model use of the card at `layout`: the search's capacity is that at
 * the inputs' own layout, and SGLang's mem_fraction_static, when not given, and its NCCL pool
 * change with the layout's TP and PP (ServerArgs._handle_gpu_memory_settings reserves tp × pp
 * / 8 GiB more, vc_engine_sglang_fraction()): a layout holds the estimate in its own share,
 * as the engine then sizes its pool there (vc_engine_at_layout()). */
static double
search_capacity (const Search   *s,
                 const VcLayout *layout)
{
  VcInputs at;
  double card, overhead;

  if (s->gpu == NULL || s->in->mode != VC_MODE_INFERENCE || s->in->engine != VC_ENGINE_SGLANG ||
      s->in->mem_fraction_static > 0 ||
      (MAX (1u, layout->tp) == MAX (1u, s->in->layout.tp) && MAX (1u, layout->pp) == MAX (1u, s->in->layout.pp)))
    return s->capacity;
  at = *s->in;
  at.layout = *layout;
  card = vc_engine_gpu_capacity (s->in, s->gpu);
  overhead = s->res->scenarios[s->index].bytes[VC_COMPONENT_OVERHEAD];
  return s->capacity - vc_engine_usable_bytes (s->in, card, overhead) + vc_engine_usable_bytes (&at, card, overhead);
}

/* vLLM with --kv-cache-memory (vc_engine_vllm_given_cache()): every GPU allocates the cache
 * given, and each stage's share of a replica's requests must fit in it. FALSE where one does
 * not; else @out becomes what the busiest GPU then holds: the cache given in place of its share,
 * and over pipeline stages the stage whose weights and activations are the most (which, the
 * cache being the same on each, need not be the stage busiest with its share). */
static gboolean
search_given_cache (const Search   *s,
                    const VcLayout *layout,
                    VcLayoutResult *out)
{
  const VcInputs *in = s->in;
  double own = out->bytes[VC_COMPONENT_KV_CACHE] + out->bytes[VC_COMPONENT_SEQUENCE_STATE], most = own, extra, spare;
  double every = in->kv_cache_memory_gb * 1e9 * out->n_gpus;
  guint pp = MAX (1u, layout->pp), first = 0, was = out->busiest_stage;
  /* a replica's requests (inference_architecture()), where a stage's bytes count them all */
  double share = ceil ((double) in->concurrency / MAX (1u, layout->dp)) / MAX (1u, in->concurrency);
  VcLayoutStage busiest = { 0 }, heaviest = { 0 };

  if (in->engine != VC_ENGINE_VLLM || in->mode != VC_MODE_INFERENCE || in->method != VC_METHOD_ARCHITECTURE ||
      !(in->kv_cache_memory_gb > 0))
    return TRUE;
  if (!vc_engine_vllm_given_cache (in, own, &extra))
    return FALSE;
  for (guint st = 0; pp > 1 && st < pp; st++)
    {
      guint n = vc_layout_stage_size (in, pp, st);
      VcInputs at = *in;
      VcLayoutStage b;

      at.layout = *layout;
      vc_layout_stage_bytes_tp (&at, s->res, s->index, first, n, st == 0, st == pp - 1, MAX (1u, layout->tp),
                                MAX (1u, layout->ep), &b);
      most = MAX (most, (b.kv + b.state) * share);
      if (st == was)
        busiest = b;
      if (b.weights + b.activations > heaviest.weights + heaviest.activations)
        heaviest = b, out->busiest_stage = st;
      first += n;
    }
  if (!vc_engine_vllm_given_cache (in, most, &spare))
    return FALSE;
  out->bytes[VC_COMPONENT_KV_CACHE] += extra;
  out->bytes[VC_COMPONENT_WEIGHTS] += heaviest.weights - busiest.weights;
  out->bytes[VC_COMPONENT_ACTIVATIONS] += heaviest.activations - busiest.activations;
  out->total += extra + heaviest.weights + heaviest.activations - busiest.weights - busiest.activations;
  out->reserved = out->total;
  out->all_total += every - out->all_bytes[VC_COMPONENT_KV_CACHE] - out->all_bytes[VC_COMPONENT_SEQUENCE_STATE];
  out->all_bytes[VC_COMPONENT_KV_CACHE] = every - out->all_bytes[VC_COMPONENT_SEQUENCE_STATE];
  return TRUE;
}

static gboolean
search_fits (const Search   *s,
             const VcLayout *layout,
             VcLayoutResult *out)
{
  double padding;

  if (!search_padding (s, layout, &padding) ||
      !try_layout (s->memo, s->in, s->res, s->index, layout, search_capacity (s, layout) - padding, out))
    return FALSE;
  /* vLLM's cache as given: whole on every GPU, beside what each holds */
  if (!search_given_cache (s, layout, out) || out->reserved > search_capacity (s, layout) - padding)
    return FALSE;
  /* the busiest GPU holds the padding beside the weights it is counted with */
  out->bytes[VC_COMPONENT_WEIGHTS] += padding;
  out->total += padding;
  out->reserved += padding;
  out->all_bytes[VC_COMPONENT_WEIGHTS] += padding * out->n_gpus;
  out->all_total += padding * out->n_gpus;
  return TRUE;
}

/* `layout` itself, when it holds the estimate. */
static gboolean
search_take (const Search   *s,
             const VcLayout *layout,
             VcLayout       *best,
             VcLayoutResult *best_out)
{
  if (!search_fits (s, layout, best_out))
    return FALSE;
  *best = *layout;
  return TRUE;
}

/* The least `degree` in [lo, hi] at which `layout` fits (it fits at hi) */
static void
search_bisect (const Search *s,
               VcLayout     *layout,
               guint        *degree,
               guint         lo,
               guint         hi)
{
  VcLayoutResult r;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      *degree = mid;
      if (search_fits (s, layout, &r))
        hi = mid;
      else
        lo = mid + 1;
    }
  *degree = hi;
}

/* Whether `one`, the inputs' own layout on one GPU, holds the estimate: its total within the
 * card, then its reserve (computed only then). Remembered in the memo as the layouts are. */
static gboolean
one_gpu_fits (const Search   *s,
              const VcInputs *one,
              VcLayoutResult *out)
{
  VcBatchKey key = vc_batch_key (one, ONE_GPU_KEY);
  VcLayoutResult *stored;

  if (!g_hash_table_lookup_extended (s->memo->results, &key, NULL, (gpointer *) &stored))
    {
      stored = NULL;
      if (layout_compute (s->memo, one, s->res, s->index, out, FALSE, NULL))
        stored = g_memdup2 (out, sizeof *out);
      g_hash_table_insert (s->memo->results, vc_batch_key_dup (&key), stored);
    }
  if (stored == NULL)
    return FALSE;
  if (stored->reserved < 0 && stored->total <= s->capacity)
    layout_compute (s->memo, one, s->res, s->index, stored, TRUE, NULL);
  *out = *stored;
  return out->total <= s->capacity && out->reserved >= 0 && out->reserved <= s->capacity;
}

/* Training: one GPU as the inputs have it when it holds the estimate, else the data-parallel
 * group, sharded as asked or with ZeRO-3 when nothing is (more GPUs help only sharded state). */
static gboolean
smallest_training (const Search   *s,
                   VcLayout        base,
                   VcLayout       *best,
                   VcLayoutResult *best_out)
{
  guint lo = 1, hi = 1;
  VcInputs one = *s->in;
  VcLayoutResult r;

  base.dp = 1;
  /* one GPU that holds it needs no sharding nor its buffers: the inputs' own layout on it */
  one.layout = base;
  if (one_gpu_fits (s, &one, best_out))
    {
      *best = base;
      return TRUE;
    }
  if (vc_layout_zero_stage (base.sharding) == 0)
    base.sharding = VC_SHARDING_ZERO_3;
  if (base.sharding == VC_SHARDING_FSDP_HYBRID)
    base.sharding = VC_SHARDING_FSDP_FULL;
  /* find a count that fits, doubling, then the smallest by bisection */
  while (TRUE)
    {
      base.dp = hi;
      if (search_fits (s, &base, &r))
        break;
      if (hi >= MAX_SEARCH_GPUS)
        return FALSE;
      lo = hi + 1;
      hi = MIN (2 * hi, (guint) MAX_SEARCH_GPUS);
    }
  search_bisect (s, &base, &base.dp, lo, hi);
  search_fits (s, &base, best_out);
  *best = base;
  return TRUE;
}

/* Rule of thumb: an even split, n = ⌈S / (C − O)⌉ GPUs of tensor parallelism. */
static gboolean
smallest_even_split (const Search   *s,
                     VcLayout        base,
                     VcLayout       *best,
                     VcLayoutResult *best_out)
{
  const VcScenarioResult *sc = &s->res->scenarios[s->index];
  double O = sc->bytes[VC_COMPONENT_OVERHEAD];
  double n;

  if (s->capacity <= O)
    return FALSE;
  n = MAX (1.0, ceil ((sc->total - O) / (s->capacity - O) - 1e-9));
  if (n > MAX_SEARCH_GPUS)
    return FALSE;
  base.tp = (guint) n;
  base.pp = base.dp = base.ep = 1;
  return search_take (s, &base, best, best_out);
}

/* Architecture inference: TP inside a node (1, 2, 4 … up to the GPUs per node, dividing the
 * heads) times the fewest pipeline stages, the most TP first at equal count. */
static gboolean
smallest_tp_pp (const Search   *s,
                VcLayout        base,
                VcLayout       *best,
                VcLayoutResult *best_out)
{
  gboolean found = FALSE;
  VcLayoutResult r;
  double padding;

  base.ep = 1;
  base.dp = 1;
  /* llama.cpp splits layers, never tensors: TP 1 and its layer split only */
  for (guint tp = 1; tp <= (base.layer_split ? 1 : base.gpus_per_node); tp *= 2)
    {
      VcLayout cand = base;
      VcInputs tmp = *s->in;

      cand.tp = tp;
      cand.pp = 1;
      tmp.layout = cand;
      if (!vc_layout_check (&tmp, NULL))
        continue;
      /* vLLM's padded MXFP4 experts are followed on one stage only (search_padding()); SGLang
       * runs some models on one stage only */
      if ((!search_padding (s, &cand, &padding) || padding <= 0) && !sglang_one_stage (s->in))
        cand.pp = s->in->arch.n_layers;
      if (!search_fits (s, &cand, &r))
        continue;
      search_bisect (s, &cand, &cand.pp, 1, cand.pp);
      if (!found || vc_layout_n_gpus (&cand) < vc_layout_n_gpus (best) ||
          (vc_layout_n_gpus (&cand) == vc_layout_n_gpus (best) && cand.tp > best->tp))
        {
          *best = cand;
          found = TRUE;
        }
    }
  if (found)
    search_fits (s, best, best_out);
  return found;
}

/* The fewest GPUs of `capacity` bytes that hold the estimate: for training, see
 * smallest_training(); partial offload stays on one GPU; the rule of thumb splits evenly; the
 * architecture method combines TP and PP (smallest_tp_pp()). */
static gboolean
smallest (Memo           *memo,
          const VcInputs *inputs,
          const VcResult *res,
          guint           index,
          double          capacity,
          const VcGpu    *gpu,
          VcLayout       *best,
          VcLayoutResult *best_out)
{
  VcInputs effective;
  Search s = { memo, &effective, res, index, capacity, gpu };

  /* vLLM does not start with MXFP4 experts below compute capability 8.0: no number of the
   * card holds the model, whatever the memory */
  if (vc_engine_vllm_mxfp4_refused (inputs, gpu))
    return FALSE;
  effective_inputs (inputs, &effective);
  /* vLLM's batch of this card (its defaults unless given): the profile run it reserves */
  vc_engine_on_card (&effective, gpu, &effective);
  if (effective.mode == VC_MODE_TRAINING)
    return smallest_training (&s, effective.layout, best, best_out);
  if (effective.layout.gpu_layers > 0 || effective.layout.experts_on_cpu)
    return search_take (&s, &effective.layout, best, best_out);
  if (effective.method == VC_METHOD_RULE_OF_THUMB)
    return smallest_even_split (&s, effective.layout, best, best_out);
  return smallest_tp_pp (&s, effective.layout, best, best_out);
}

gboolean
vc_layout_smallest (const VcInputs *inputs,
                    const VcResult *res,
                    guint           index,
                    double          capacity,
                    VcLayout       *best,
                    VcLayoutResult *best_out)
{
  Memo memo;
  gboolean found;

  memo_init (&memo);
  found = smallest (&memo, inputs, res, index, capacity, NULL, best, best_out);
  memo_clear (&memo);
  return found;
}

VcLayoutMemo *
vc_layout_memo_new (void)
{
  Memo *memo = g_new0 (Memo, 1);

  memo_init (memo);
  return memo;
}

void
vc_layout_memo_free (VcLayoutMemo *memo)
{
  if (memo == NULL)
    return;
  memo_clear (memo);
  g_free (memo);
}

/* vc_layout_smallest() with the layouts of earlier searches of the same estimate and result
 * (other capacities), on @gpu when given: each layout then counts vLLM's MXFP4 experts as that
 * card's backend pads them at its TP degree (search_padding()), beside the layout's own bytes */
gboolean
vc_layout_smallest_memo (VcLayoutMemo   *memo,
                         const VcInputs *inputs,
                         const VcResult *res,
                         guint           index,
                         double          capacity,
                         const VcGpu    *gpu,
                         VcLayout       *best,
                         VcLayoutResult *best_out)
{
  return smallest (memo, inputs, res, index, capacity, gpu, best, best_out);
}

/* vc_layout_smallest() for several cards at once, each layout computed once: found[i] says
 * whether some number of card i holds the estimate; with @gpus (NULL: capacities alone), card
 * i's layouts count its MXFP4 padding as vc_layout_smallest_memo() does. */
void
vc_layout_smallest_each (const VcInputs     *inputs,
                         const VcResult     *res,
                         guint               index,
                         const double       *capacities,
                         const VcGpu *const *gpus,
                         guint               n,
                         VcLayout           *best,
                         VcLayoutResult     *best_out,
                         gboolean           *found)
{
  Memo memo;

  memo_init (&memo);
  for (guint i = 0; i < n; i++)
    found[i] = smallest (&memo, inputs, res, index, capacities[i], gpus != NULL ? gpus[i] : NULL,
                         &best[i], &best_out[i]);
  memo_clear (&memo);
}

/* "TP 8 × PP 2", "ZeRO-3 · optimizer offload", "" for one plain GPU; in English when not
 * translated (JSON). */
char *
vc_layout_describe (const VcLayout *l,
                    VcMode          mode,
                    VcMethod        method,
                    gboolean        translate)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autofree char *joined = NULL;

  if (mode == VC_MODE_TRAINING)
    {
      switch (l->sharding)
        {
        case VC_SHARDING_ZERO_1:
        case VC_SHARDING_ZERO_2:
        case VC_SHARDING_ZERO_3:
          g_string_append_printf (s, "ZeRO-%u", vc_layout_zero_stage (l->sharding));
          break;
        case VC_SHARDING_FSDP_GRAD_OP: g_string_append (s, "FSDP SHARD_GRAD_OP"); break;
        case VC_SHARDING_FSDP_FULL: g_string_append (s, "FSDP FULL_SHARD"); break;
        case VC_SHARDING_FSDP_HYBRID: g_string_append (s, "FSDP HYBRID_SHARD"); break;
        case VC_SHARDING_NONE:
        default:
          if (l->dp > 1)
            g_string_append (s, "DDP");
          break;
        }
      if (MAX (1u, l->cp) > 1)
        g_string_append_printf (s, "%sCP %u", s->len ? " · " : "", l->cp);
      if (l->offload == VC_OFFLOAD_OPTIMIZER)
        g_string_append_printf (s, "%s%s", s->len ? " · " : "", (translate ? _("optimizer offload") : "optimizer offload"));
      else if (l->offload == VC_OFFLOAD_OPTIMIZER_PARAMS)
        g_string_append_printf (s, "%s%s", s->len ? " · " : "", (translate ? _("optimizer and parameter offload") : "optimizer and parameter offload"));
      return g_string_free (g_steal_pointer (&s), FALSE);
    }

  if (method == VC_METHOD_RULE_OF_THUMB)
    {
      if (l->tp * l->pp > 1)
        g_string_append (s, (translate ? _("even split") : "even split"));
    }
  else
    {
      if (l->tp > 1)
        g_ptr_array_add (parts, g_strdup_printf ("TP %u", l->tp));
      if (l->pp > 1 && l->layer_split)
        g_ptr_array_add (parts, g_strdup (translate ? _("layer split") : "layer split"));
      else if (l->pp > 1)
        g_ptr_array_add (parts, g_strdup_printf ("PP %u", l->pp));
      if (l->dp > 1)
        g_ptr_array_add (parts, g_strdup_printf ("DP %u", l->dp));
      g_ptr_array_add (parts, NULL);
      joined = g_strjoinv (" × ", (char **) parts->pdata);
      g_string_append (s, joined);
      if (l->ep > 1)
        g_string_append_printf (s, "%sEP %u", s->len ? " · " : "", l->ep);
    }
  if (l->gpu_layers > 0)
    {
      const char *format = translate ? g_dngettext (GETTEXT_PACKAGE, "%u layer on the GPU", "%u layers on the GPU",
                                                    l->gpu_layers)
                                     : l->gpu_layers == 1 ? "%u layer on the GPU" : "%u layers on the GPU";
      g_autofree char *t = g_strdup_printf (format, l->gpu_layers);
      g_string_append_printf (s, "%s%s", s->len ? " · " : "", t);
    }
  if (l->experts_on_cpu)
    g_string_append_printf (s, "%s%s", s->len ? " · " : "", (translate ? _("experts in system RAM") : "experts in system RAM"));
  return g_string_free (g_steal_pointer (&s), FALSE);
}
