/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-plan.c: each engine's plan for a set of cards (vc-plan.h; FORMULAS.md, "Plans on a set of
 * cards"). */
#define G_LOG_DOMAIN "vc-plan"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "vc-catalog.h"
#include "vc-engine.h"
#include "vc-error.h"
#include "vc-layout.h"
#include "vc-plan.h"
#include "vc-training-rules.h"
#include "vc-units.h"

#define ROLE(r) VC_TENSOR_ROLE_BIT (VC_TENSOR_##r)

/* a refusal: @error set, %FALSE returned */
#define refuse(error, ...) vc_error_set ((error), VC_ERROR_INVALID_VALUE, __VA_ARGS__)

void
vc_plan_clear (VcPlan *plan)
{
  g_clear_pointer (&plan->devices, g_array_unref);
  g_clear_pointer (&plan->balanced, g_free);
  memset (plan, 0, sizeof *plan);
  plan->fills_first = plan->bounded_by = -1;
}

const char *
vc_plan_engine_id (const VcInputs *inputs)
{
  if (inputs->mode == VC_MODE_TRAINING)
    return "training";
  switch (inputs->engine)
    {
    case VC_ENGINE_LLAMA_CPP: return "llama.cpp";
    case VC_ENGINE_OLLAMA: return "ollama";
    case VC_ENGINE_VLLM: return "vllm";
    case VC_ENGINE_SGLANG: return "sglang";
    case VC_ENGINE_GENERIC:
    case VC_ENGINE_TRANSFORMERS:
    default:
      return "accelerate";
    }
}

const VcPlanDevice *
vc_plan_get_device (const VcPlan *plan,
                    guint         i)
{
  g_return_val_if_fail (plan->devices != NULL && i < plan->devices->len, NULL);
  return &g_array_index (plan->devices, VcPlanDevice, i);
}

double *
vc_plan_parse_tensor_split (const char *text,
                            guint      *n,
                            GError    **error)
{
  g_auto(GStrv) items = NULL;
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (double));
  double sum = 0;

  *n = 0;
  if (text == NULL || *text == '\0')
    return NULL;
  if (strlen (text) > VC_GPU_SET_MAX * 32)
    {
      refuse (error, _("--tensor-split holds more than %u ratios; accepted: one ratio per card, separated by commas (3,1)"),
              VC_GPU_SET_MAX);
      return NULL;
    }
  /* llama.cpp's own parser takes ',' and '/' (common/arg.cpp, --tensor-split) */
  items = g_regex_split_simple ("[,/]", text, 0, 0);
  for (guint i = 0; items[i]; i++)
    {
      g_autofree char *item = g_strstrip (g_strdup (items[i]));
      double v;

      if (!vc_parse_number (item, &v, NULL) || !(v >= 0) || v > 1e12)
        {
          refuse (error, _("“%s” in --tensor-split is not a ratio; accepted: numbers of 0 or more, one per card, separated by commas (3,1)"),
                  item);
          return NULL;
        }
      sum += v;
      g_array_append_val (out, v);
    }
  if (out->len > VC_GPU_SET_MAX || sum <= 0)
    {
      refuse (error, _("--tensor-split needs at least one ratio above 0, and at most %u; accepted: 3,1"), VC_GPU_SET_MAX);
      return NULL;
    }
  *n = out->len;
  return (double *) g_array_free (g_steal_pointer (&out), FALSE);
}

guint *
vc_plan_parse_pp_partition (const char  *text,
                            guint       *n,
                            GError     **error)
{
  g_auto(GStrv) items = NULL;
  g_autoptr(GArray) out = g_array_new (FALSE, FALSE, sizeof (guint));

  *n = 0;
  if (text == NULL || *text == '\0')
    return NULL;
  if (strlen (text) > VC_GPU_SET_MAX * 16)
    {
      refuse (error, _("--pp-partition holds more than %u stages; accepted: the layers of each stage, separated by commas (20,12)"),
              VC_GPU_SET_MAX);
      return NULL;
    }
  /* vLLM's get_pp_indices: int() of each item of VLLM_PP_LAYER_PARTITION.split(",") */
  items = g_strsplit (text, ",", -1);
  for (guint i = 0; items[i]; i++)
    {
      g_autofree char *item = g_strstrip (g_strdup (items[i]));
      guint64 v = 0;
      guint layers;

      if (!g_ascii_string_to_unsigned (item, 10, 1, 1000000, &v, NULL))
        {
          refuse (error, _("“%s” in --pp-partition is not a layer count; accepted: whole numbers of 1 or more, one per pipeline stage, separated by commas (20,12)"),
                  item);
          return NULL;
        }
      layers = (guint) v;
      g_array_append_val (out, layers);
    }
  if (out->len > VC_GPU_SET_MAX)
    {
      refuse (error, _("--pp-partition holds more than %u stages; accepted: the layers of each stage, separated by commas (20,12)"),
              VC_GPU_SET_MAX);
      return NULL;
    }
  *n = out->len;
  return (guint *) (void *) g_array_free (g_steal_pointer (&out), FALSE);
}

static VcPlanDevice *
add_devices (const VcGpuSet *set,
             VcPlan         *plan)
{
  plan->devices = g_array_new (FALSE, TRUE, sizeof (VcPlanDevice));
  for (guint i = 0; i < vc_gpu_set_get_n (set); i++)
    {
      const VcGpuSetDevice *d = vc_gpu_set_get (set, i);
      VcPlanDevice pd = { 0 };

      pd.index = i;
      pd.gpu = d->id ? d->id : d->name;
      pd.memory_bytes = d->memory_bytes;
      pd.available_bytes = vc_gpu_set_available (set, i);
      pd.limit_bytes = pd.available_bytes;
      g_array_append_val (plan->devices, pd);
    }
  return (VcPlanDevice *) (void *) plan->devices->data;
}

static void
finish (VcPlan *plan)
{
  double worst = -1;

  plan->fits = plan->ram_bytes <= 0 || plan->host_bytes <= plan->ram_bytes;
  for (guint i = 0; i < plan->devices->len; i++)
    {
      VcPlanDevice *d = &g_array_index (plan->devices, VcPlanDevice, i);
      double share;

      d->weights = round (d->weights);
      d->experts = round (d->experts);
      d->kv = round (d->kv);
      d->state = round (d->state);
      d->activations = round (d->activations);
      d->overhead = round (d->overhead);
      d->bytes = d->weights + d->kv + d->state + d->activations + d->overhead;
      if (d->bytes > d->limit_bytes)
        plan->fits = FALSE;
      share = d->limit_bytes > 0 ? d->bytes / d->limit_bytes : G_MAXDOUBLE;
      if (d->bytes > 0 && share > worst)
        {
          worst = share;
          plan->fills_first = (int) i;
        }
    }
  plan->host_bytes = round (plan->host_bytes);
}

/* ---- llama.cpp ------------------------------------------------------------------------------ */

/* src/llama-model.cpp, llama_model::load_tensors: i_gpu_start = max(n_layer + 1 − ngl, 0),
 * act_gpu_layers = min(ngl, n_layer + 1); a layer below i_gpu_start is the CPU's, else the
 * device std::upper_bound(splits, float(il − i_gpu_start) / act_gpu_layers) finds, the splits
 * being the running sums of the ratios over their total, in float. */
int
vc_plan_llama_layer_device (guint        n_layer,
                            guint        n_gpu_layers,
                            const float *splits,
                            guint        n_devices,
                            guint        il)
{
  int i_gpu_start = MAX ((int) n_layer + 1 - (int) n_gpu_layers, 0);
  int act_gpu_layers = n_devices == 0 ? 0 : (int) MIN (n_gpu_layers, n_layer + 1);
  float value;
  guint d = 0;

  if ((int) il < i_gpu_start || ((int) il - i_gpu_start) >= act_gpu_layers)
    return -1;
  value = (float) ((int) il - i_gpu_start) / act_gpu_layers;
  while (d < n_devices && !(value < splits[d]))
    d++;
  /* upper_bound past the end: the last split is 1, above every value */
  return (int) MIN (d, n_devices - 1);
}

/* llama.cpp's split points over the `used` devices in use (map: their cards in the set) */
static void
llama_split_points (const VcGpuSet      *set,
                    const VcPlanOptions *opt,
                    VcPlanDevice        *dev,
                    const guint         *map,
                    guint                used,
                    float               *splits)
{
  float sum = 0;

  for (guint i = 0; i < used; i++)
    {
      if (opt->tensor_split != NULL && opt->split_mode != VC_SPLIT_MODE_NONE)
        splits[i] = i < opt->n_tensor_split ? (float) opt->tensor_split[i] : 0.0f;
      else
        splits[i] = (float) vc_gpu_set_available (set, map[i]);
    }
  for (guint i = 0; i < used; i++)
    {
      sum += splits[i];
      splits[i] = sum;
    }
  for (guint i = 0; i < used; i++)
    {
      splits[i] /= sum;
      dev[map[i]].split = round ((splits[i] - (i > 0 ? splits[i - 1] : 0)) * 1e6) / 1e6;
    }
}

/* What a device holds of its layers: their tensors, cache and compute buffer, less the experts
 * --n-cpu-moe N keeps in RAM (layers 0 … N − 1: common/arg.cpp, tensor_buft_overrides
 * "blk.i.ffn_(up|down|gate)_exps" → CPU) */
static void
llama_device_bytes (const VcInputs *in,
                    const VcResult *res,
                    guint           n_cpu_moe,
                    VcPlanDevice   *d,
                    VcPlan         *plan)
{
  VcLayoutStage st;
  guint moe_hi;

  d->overhead = res->overhead_bytes;
  if (d->n_layers == 0 && !d->output)
    return;
  vc_layout_stage_bytes (in, res, res->selected, d->first_layer, d->n_layers, FALSE, d->output, &st);
  d->weights = st.weights;
  d->experts = st.experts;
  d->kv = st.kv;
  d->state = st.state;
  d->activations = st.activations;
  moe_hi = MIN (n_cpu_moe, d->first_layer + d->n_layers);
  if (moe_hi > d->first_layer)
    {
      double moved = vc_layout_role_bytes (in, res, res->selected, ROLE (EXPERTS), d->first_layer,
                                           moe_hi - d->first_layer, FALSE, FALSE);

      d->weights -= moved;
      d->experts -= moved;
      plan->host_bytes += moved;
    }
}

static gboolean
plan_llama_cpp (const VcInputs      *in,
                const VcResult      *res,
                const VcGpuSet      *set,
                const VcPlanOptions *opt,
                VcPlan              *plan,
                GError             **error)
{
  const VcArch *a = &in->arch;
  guint L = a->n_layers, n = vc_gpu_set_get_n (set), used, ngl;
  g_autofree float *splits = NULL;
  g_autofree guint *map = NULL;
  VcPlanDevice *dev;
  guint idx = res->selected, n_cpu_moe = in->layout.experts_on_cpu ? L : opt->n_cpu_moe;
  int output_dev;
  double projector;

  if (opt->split_mode == VC_SPLIT_MODE_ROW)
    return refuse (error, _("llama.cpp's --split-mode row splits every weight matrix by rows across the cards "
                            "(ggml's split buffer type, padded per card): not modelled; accepted: --split-mode layer or none"));
  if (opt->main_gpu >= n)
    return refuse (error, _("--main-gpu %u: the set has %u cards, numbered from 0"), opt->main_gpu, n);
  if (opt->n_tensor_split > n)
    return refuse (error, _("--tensor-split gives %u ratios for %u cards; accepted: at most one per card"),
                   opt->n_tensor_split, n);
  if (in->layout.tp > 1 || in->layout.pp > 1 || in->layout.ep > 1 || in->layout.dp > 1)
    return refuse (error, _("llama.cpp places layers on the cards of the set itself: set TP, PP, EP and DP to 1"));
  if (opt->n_cpu_moe > 0 && !vc_arch_is_moe (a))
    return refuse (error, _("--n-cpu-moe needs a mixture-of-experts model; this one is dense"));

  dev = add_devices (set, plan);
  /* --split-mode none keeps the main GPU alone (src/llama.cpp, llama_model_load_from_file_impl) */
  used = opt->split_mode == VC_SPLIT_MODE_NONE ? 1 : n;
  map = g_new0 (guint, used);
  splits = g_new0 (float, used);
  for (guint i = 0; i < used; i++)
    map[i] = opt->split_mode == VC_SPLIT_MODE_NONE ? opt->main_gpu : i;
  llama_split_points (set, opt, dev, map, used, splits);

  ngl = in->layout.gpu_layers > 0 ? in->layout.gpu_layers : L + 1;
  plan->cpu_layers = 0;
  for (guint il = 0; il < L; il++)
    {
      int d = vc_plan_llama_layer_device (L, ngl, splits, used, il);

      if (d < 0)
        plan->cpu_layers++;
      else if (dev[map[d]].n_layers++ == 0)
        dev[map[d]].first_layer = il;
    }
  output_dev = vc_plan_llama_layer_device (L, ngl, splits, used, L);
  if (output_dev >= 0)
    dev[map[output_dev]].output = TRUE;

  for (guint i = 0; i < used; i++)
    llama_device_bytes (in, res, n_cpu_moe, &dev[map[i]], plan);
  /* the multimodal projector on the set's first card whatever --main-gpu, --split-mode and
   * --tensor-split: the clip_ctx constructor (tools/mtmd/clip.cpp) loads it into
   * ggml_backend_init_by_type(GGML_BACKEND_DEVICE_TYPE_GPU, nullptr), the first GPU device
   * ggml lists, with a CUDA context of its own there when the model leaves that card unused
   * (--split-mode none with another --main-gpu); the input layer always in RAM ("very little
   * benefit to offloading the input layer") */
  projector = vc_layout_role_bytes (in, res, idx, ROLE (ENCODER), 0, 0, TRUE, FALSE);
  if (projector > 0)
    {
      dev[0].weights += projector;
      dev[0].overhead = res->overhead_bytes;
    }
  plan->host_bytes += vc_layout_role_bytes (in, res, idx, ROLE (EMBEDDING) | ROLE (POSITIONS) | ROLE (OTHER),
                                            0, 0, TRUE, FALSE);
  /* with --no-mmproj-offload the projector stays in RAM instead */
  plan->host_bytes += vc_inputs_mmproj_host_bytes (in);
  /* the CPU's layers, their experts and their cache */
  if (plan->cpu_layers > 0 || output_dev < 0)
    {
      VcLayoutStage st;

      vc_layout_stage_bytes (in, res, idx, 0, plan->cpu_layers, FALSE, output_dev < 0, &st);
      plan->host_bytes += st.weights + st.kv + st.state;
    }
  return TRUE;
}

/* ---- vLLM and SGLang ------------------------------------------------------------------------ */

/* The card `i` of the set as the engines' defaults see it: the catalog's card when its free
 * memory is not given, else a card of what it has free */
static void
set_card (const VcGpuSet *set,
          guint           i,
          VcGpu          *gpu)
{
  guint n_catalog;
  const VcGpu *all = vc_gpus_get_all (&n_catalog);
  const VcGpuSetDevice *sd = vc_gpu_set_get (set, i);

  *gpu = (VcGpu) { 0 };
  for (guint k = 0; sd->id && k < n_catalog; k++)
    if (g_str_equal (all[k].id, sd->id))
      {
        if (sd->free_bytes < 0)
          {
            *gpu = all[k];
            return;
          }
        /* a catalog card with less free: still its compute capability (vLLM's MXFP4 backend) */
        gpu->cc_major = all[k].cc_major;
        gpu->cc_minor = all[k].cc_minor;
        gpu->sm_count = all[k].sm_count;
        break;
      }
  gpu->id = (char *) "";
  gpu->name = sd->name;
  gpu->memory_bytes = gpu->capacity_bytes = vc_gpu_set_available (set, i);
}

/* The layers of pipeline stage `s`: vLLM's VLLM_PP_LAYER_PARTITION's when given, else the
 * engine's default split (vc_layout_stage_layers(): vLLM's or SGLang's get_pp_indices) */
static guint
stage_layers (const VcPlanOptions *options,
              const VcInputs      *in,
              guint                pp,
              guint                s)
{
  return options->pp_partition ? options->pp_partition[s] : vc_layout_stage_size (in, pp, s);
}

/* --pp-partition is VLLM_PP_LAYER_PARTITION: vLLM alone reads it, one count per stage summing to
 * the model's layers (get_pp_indices raises otherwise); planned with one card a stage */
static gboolean
check_pp_partition (const VcInputs      *in,
                    const VcGpuSet      *set,
                    const VcPlanOptions *options,
                    GError             **error)
{
  guint n = vc_gpu_set_get_n (set), sum = 0;

  if (options->pp_partition == NULL)
    return TRUE;
  if (in->mode != VC_MODE_INFERENCE || in->engine != VC_ENGINE_VLLM)
    return refuse (error, _("--pp-partition is vLLM’s VLLM_PP_LAYER_PARTITION: no other engine reads it; accepted: --engine vllm"));
  if (in->layout.tp != 1 || in->layout.pp != n)
    return refuse (error, _("--pp-partition plans one card a pipeline stage: the set has %u cards; accepted: --pp %u with --tp 1"),
                   n, n);
  if (options->n_pp_partition != n)
    return refuse (error, _("--pp-partition gives %u layer counts for %u pipeline stages; accepted: one count per stage"),
                   options->n_pp_partition, n);
  for (guint i = 0; i < options->n_pp_partition; i++)
    sum += options->pp_partition[i];
  if (sum != in->arch.n_layers)
    return refuse (error, _("--pp-partition sums to %u layers, the model has %u; accepted: counts summing to %u"),
                   sum, in->arch.n_layers, in->arch.n_layers);
  return TRUE;
}

/* --tensor-split, --main-gpu, --split-mode and --n-cpu-moe are llama.cpp's (common/arg.cpp):
 * another engine's plan would leave them aside, so it refuses them, as --pp-partition is
 * refused but for vLLM */
static gboolean
check_llama_cpp_options (const VcInputs      *in,
                         const VcPlanOptions *options,
                         GError             **error)
{
  const char *given = options->tensor_split != NULL ? "--tensor-split"
                      : options->main_gpu > 0 ? "--main-gpu"
                      : options->split_mode != VC_SPLIT_MODE_LAYER ? "--split-mode"
                      : options->n_cpu_moe > 0 ? "--n-cpu-moe" : NULL;

  if (given == NULL || vc_engine_is_llama_cpp (in))
    return TRUE;
  return refuse (error, _("%s is llama.cpp’s: the %s plan has no such setting; accepted: --engine llama.cpp, or %s left unset"),
                 given, vc_plan_engine_id (in), given);
}

/* The partition in proportion to each card's free memory (largest remainders, a layer at least
 * on each stage): suggested where it differs from the default */
static void
suggest_partition (const VcGpuSet *set,
                   guint           n_layers,
                   VcPlan         *plan)
{
  guint n = vc_gpu_set_get_n (set), given = 0;
  g_autofree guint *counts = g_new0 (guint, n);
  g_autofree double *rest = g_new0 (double, n);
  double total = 0;
  gboolean differs = FALSE;

  if (n < 2 || n_layers < n)
    return;
  for (guint i = 0; i < n; i++)
    total += vc_gpu_set_available (set, i);
  if (!(total > 0))
    return;
  for (guint i = 0; i < n; i++)
    {
      double ideal = n_layers * vc_gpu_set_available (set, i) / total;

      counts[i] = MAX (1u, (guint) floor (ideal));
      rest[i] = ideal - floor (ideal);
      given += counts[i];
    }
  while (given < n_layers)
    {
      guint best = 0;

      for (guint i = 1; i < n; i++)
        if (rest[i] > rest[best])
          best = i;
      counts[best]++;
      rest[best] = -1;
      given++;
    }
  while (given > n_layers)
    {
      guint best = 0;

      for (guint i = 1; i < n; i++)
        if (counts[i] > counts[best])
          best = i;
      counts[best]--;
      given--;
    }
  for (guint i = 0; i < n; i++)
    differs = differs || counts[i] != vc_layout_pp_stage_size (n_layers, n, i);
  if (!differs)
    return;
  plan->balanced = g_steal_pointer (&counts);
  plan->n_balanced = n;
}

/* vLLM, one card a pipeline stage: each holds its stage's layers; its cache is what
 * memory_fraction of it leaves after its weights and the profile run (every stage's with the
 * batch of the inputs, made explicit for the set's first card by plan_tensor_parallel()), in
 * blocks of its layers; every stage allocates the fewest blocks of any (get_kv_cache_configs,
 * the minimum over the workers) */
static void
plan_vllm_stages (const VcInputs      *in,
                  const VcResult      *res,
                  const VcGpuSet      *set,
                  const VcPlanOptions *options,
                  const VcLayoutResult *lr,
                  VcPlan              *plan)
{
  guint n = vc_gpu_set_get_n (set), first = 0;
  double per_replica = (double) in->batch * in->concurrency;
  double cached = (double) vc_engine_context_tokens (in) * per_replica;
  double blocks = G_MAXDOUBLE;
  g_autofree double *per_token = g_new0 (double, n);
  g_autofree double *needed = g_new0 (double, n);

  for (guint s = 0; s < n; s++)
    {
      VcPlanDevice *d = &g_array_index (plan->devices, VcPlanDevice, s);
      VcLayoutStage st;
      VcGpu gpu;
      VcInputs at;
      guint batch_tokens, seqs;
      double capacity, profile, space, b;

      d->n_layers = stage_layers (options, in, n, s);
      d->first_layer = first;
      d->output = s == n - 1;
      vc_layout_stage_bytes (in, res, res->selected, first, d->n_layers, s == 0, s == n - 1, &st);
      first += d->n_layers;
      set_card (set, s, &gpu);
      capacity = vc_engine_gpu_capacity (in, &gpu);
      vc_engine_vllm_batch (in, &gpu, &batch_tokens, &seqs);
      /* each stage's profile run on its own card (its SMs: the Triton sampler's buffer) */
      at = *in;
      at.gpu_sm_count = gpu.sm_count;
      profile = vc_estimator_vllm_profile_bytes (&at, batch_tokens, seqs, 1);
      space = in->kv_cache_memory_gb > 0 ? in->kv_cache_memory_gb * 1e9
              : MAX (0.0, in->memory_fraction * capacity - st.weights - profile);
      per_token[s] = st.kv / cached;
      needed[s] = st.kv;
      b = per_token[s] > 0 ? floor (space / (in->block_size * per_token[s])) : G_MAXDOUBLE;
      if (b < blocks)
        {
          blocks = b;
          plan->bounded_by = (int) s;
        }
      d->weights = st.weights;
      d->state = st.state;
      d->activations = profile;
      d->overhead = lr->bytes[VC_COMPONENT_OVERHEAD];
      d->limit_bytes = MIN (d->available_bytes, vc_engine_usable_bytes (in, capacity, d->overhead));
    }
  plan->kv_tokens = blocks * in->block_size;
  for (guint s = 0; s < n; s++)
    g_array_index (plan->devices, VcPlanDevice, s).kv = plan->kv_tokens * per_token[s];
  finish (plan);
  for (guint s = 0; s < n; s++)
    plan->fits = plan->fits && plan->kv_tokens * per_token[s] >= needed[s];
  if (options->pp_partition == NULL)
    suggest_partition (set, in->arch.n_layers, plan);
}


/* vLLM's MXFP4 experts: each card of the set pads them by its own backend (vc-engine.c); a set
 * with a card whose backend is not followed, or on which vLLM refuses MXFP4, has no cache figure
 * (vc_engine_no_figure_on) */
static gboolean
mxfp4_unsized (const VcInputs *in,
               const VcGpuSet *set,
               guint           tp)
{
  for (guint i = 0; in->engine == VC_ENGINE_VLLM && i < vc_gpu_set_get_n (set); i++)
    {
      VcGpu card;

      set_card (set, i, &card);
      const char *why = vc_engine_no_figure_on (in, &card, tp);

      if (g_strcmp0 (why, "mxfp4-backend") == 0 || g_strcmp0 (why, "mxfp4-capability") == 0)
        return TRUE;
    }
  return FALSE;
}

/* Whether vLLM refuses the inputs' MXFP4 experts on a card of @set (compute capability below
 * 8.0): every rank loads the model, so vLLM does not start on the set at all */
static gboolean
mxfp4_refused (const VcInputs *in,
               const VcGpuSet *set)
{
  for (guint i = 0; i < vc_gpu_set_get_n (set); i++)
    {
      VcGpu card;

      set_card (set, i, &card);
      if (vc_engine_vllm_mxfp4_refused (in, &card))
        return TRUE;
    }
  return FALSE;
}

/* vLLM's MXFP4 experts as card @i of @set pads them by its backend at @tp ranks
 * (vc_engine_vllm_mxfp4_extra(): Marlin's shapes), in @padding: 0 for another engine, or a
 * card whose backend is not followed (the set then has no cache figure, mxfp4_unsized()) */
static double
card_padding (const VcInputs *in,
              const VcGpuSet *set,
              guint           i,
              guint           tp)
{
  VcGpu card;
  double padding;

  set_card (set, i, &card);
  if (in->engine != VC_ENGINE_VLLM || !vc_engine_vllm_mxfp4_extra (in, &card, tp, &padding))
    return 0;
  return padding;
}

/* Each card's padding is its backend's at the stage's TP, over every MoE layer: followed on one
 * stage without expert parallelism (FusedMoE then gives each rank whole experts), as the GPU
 * table's search follows it (vc-layout.c, search_padding); refused beyond */
static gboolean
padding_followed (const VcInputs *in,
                  const VcGpuSet *set,
                  const VcPlan   *plan,
                  GError        **error)
{
  for (guint i = 0; i < vc_gpu_set_get_n (set); i++)
    if (card_padding (in, set, i, plan->tp) > 0 && (plan->pp > 1 || in->layout.ep > 1))
      return refuse (error, _("vLLM pads its MXFP4 experts on these cards (Marlin’s shapes), which is followed on one "
                              "pipeline stage without expert parallelism; accepted: TP over the cards (--pp 1 and "
                              "--ep 1)"));
  return TRUE;
}

/* The layout over the set's @n cards, one model: TP over them, or over the cards of each of PP
 * stages; a TP × PP that is not the set's cards is refused */
static gboolean
set_layout (VcInputs *in,
            guint     n,
            GError  **error)
{
  guint pp = MAX (1u, in->layout.pp);

  if (in->layout.tp * pp != n)
    {
      if (in->layout.tp > 1 || n % pp != 0)
        return refuse (error, _("TP %u × PP %u makes %u GPUs, and the set has %u cards; accepted: TP × PP equal to "
                                "the cards, or PP alone (a divisor of the cards: TP is then the cards per stage)"),
                       in->layout.tp, pp, in->layout.tp * pp, n);
      in->layout.tp = n / pp;
    }
  in->layout.dp = 1;
  return TRUE;
}

/* The card of @set with the least available, in @smallest; SGLang's model runner compares the
 * least memory of the TP group with each card's: below 90 % it raises "The memory capacity is
 * unbalanced" (python/sglang/srt/model_executor/model_runner.py, init_torch_distributed;
 * SGLANG_ENABLE_TP_MEMORY_INBALANCE_CHECK) */
static gboolean
smallest_card (const VcInputs *inputs,
               const VcGpuSet *set,
               guint          *smallest_out,
               GError        **error)
{
  guint n = vc_gpu_set_get_n (set), smallest = 0, largest = 0;

  *smallest_out = 0;
  for (guint i = 1; i < n; i++)
    {
      if (vc_gpu_set_available (set, i) < vc_gpu_set_available (set, smallest))
        smallest = i;
      if (vc_gpu_set_available (set, i) > vc_gpu_set_available (set, largest))
        largest = i;
    }
  if (inputs->engine == VC_ENGINE_SGLANG && n > 1 &&
      vc_gpu_set_available (set, smallest) < 0.9 * vc_gpu_set_available (set, largest))
    return refuse (error, _("SGLang refuses tensor parallelism over cards whose memory differs by more than 10 %% "
                            "(“The memory capacity is unbalanced”, its model runner): the smallest card has %.0f MiB, "
                            "the largest %.0f MiB; accepted: cards of one size, or vLLM or llama.cpp"),
                   floor (vc_gpu_set_available (set, smallest) / 1048576.0),
                   floor (vc_gpu_set_available (set, largest) / 1048576.0));
  *smallest_out = smallest;
  return TRUE;
}

/* A model with sliding-window layers or recurrent state: over several stages the engines' pools
 * are each stage's (vc_engine_at_layout_stages()), on the set's smallest card as for every rank
 * of a stage */
static gboolean
sliding_layers (const VcInputs *in)
{
  return (in->arch.sliding_window > 0 && in->arch.sliding_window_layers > 0) || vc_arch_state_elements (&in->arch) > 0;
}

/* vLLM over several stages of TP ranks: every worker allocates the fewest blocks of any stage
 * (get_kv_cache_configs), not the busiest stage's; each card then holds that many tokens of its
 * own stage's layers. The tokens, set in @at too; 0 where the layout's figure stands (one
 * stage, another engine, no figure, recurrent state). */
static double
vllm_stage_tokens (const VcInputs   *in,
                   const VcResult   *res,
                   const VcGpu      *gpu,
                   VcEngineAtLayout *at)
{
  double tokens;

  if (in->engine != VC_ENGINE_VLLM || MAX (1u, in->layout.pp) <= 1 || !at->known || at->tokens <= 0 ||
      at->block_size != 0 || vc_arch_state_elements (&in->arch) > 0 || sliding_layers (in))
    return 0;
  tokens = vc_engine_vllm_stages_tokens (in, res, res->selected, gpu);
  at->tokens = tokens;
  at->max_concurrency = vc_engine_paged_requests (in, tokens) * at->replicas;
  return tokens;
}

/* The estimate of @in, the inputs on the set's first card: @res, the estimate of @inputs, unless
 * the card sets vLLM's block (an MLA model's on Hopper), which the estimate's cache counts in
 * whole (vc_engine_context_tokens()) and the stages' bytes of a token are read from */
static const VcResult *
card_result (const VcInputs *inputs,
             const VcInputs *in,
             const VcResult *res,
             VcResult       *own)
{
  if (in->block_size == inputs->block_size)
    return res;
  vc_estimator_compute (in, own);
  return own;
}

static gboolean
plan_tensor_parallel (const VcInputs      *inputs,
                      const VcResult      *res,
                      const VcGpuSet      *set,
                      const VcPlanOptions *options,
                      VcPlan              *plan,
                      GError             **error)
{
  VcInputs in = *inputs;
  guint n = vc_gpu_set_get_n (set), smallest = 0;
  VcLayoutResult lr;
  VcResult own;
  VcEngineAtLayout at;
  VcGpu gpu;
  VcPlanDevice *dev;
  VcLayoutStage st = { 0 };
  double usable, stage_tokens = 0;

  if (!smallest_card (&in, set, &smallest, error))
    return FALSE;
  if (!set_layout (&in, n, error))
    return FALSE;
  /* vLLM: one scheduler configuration for every rank, its batch defaults those of device 0, the
   * set's first card (vc_engine_on_card()) */
  set_card (set, 0, &gpu);
  vc_engine_on_card (&in, &gpu, &in);
  res = card_result (inputs, &in, res, &own);
  if (!vc_layout_compute (&in, res, res->selected, &lr, error))
    {
      g_prefix_error (error, _("tensor parallelism over the %u cards of the set: "), n);
      return FALSE;
    }
  plan->tp = in.layout.tp;
  plan->pp = in.layout.pp;

  set_card (set, smallest, &gpu);
  vc_engine_at_layout_stages (&in, res, res->selected, &lr, &gpu, n, &at);
  if (mxfp4_unsized (&in, set, plan->tp))
    at = (VcEngineAtLayout) { .n_gpus = at.n_gpus, .replicas = at.replicas };
  usable = vc_engine_usable_bytes (&in, vc_engine_gpu_capacity (&in, &gpu), lr.bytes[VC_COMPONENT_OVERHEAD]);
  /* the cards' MXFP4 padding over several stages is refused here before any stage's figure
   * (the engine's figures count each stage's share, the plan's cards do not) */
  if (!padding_followed (&in, set, plan, error))
    return FALSE;
  /* one card a stage: each its own cache blocks, none left when the model does not fit */
  if (in.engine == VC_ENGINE_VLLM && plan->pp > 1 && plan->tp == 1 && at.known && !sliding_layers (&in))
    {
      add_devices (set, plan);
      plan_vllm_stages (&in, res, set, options, &lr, plan);
      return TRUE;
    }
  stage_tokens = vllm_stage_tokens (&in, res, &gpu, &at);
  if (options->pp_partition != NULL && !at.known)
    return refuse (error, _("--pp-partition needs vLLM’s KV-cache figure for the model, which it has none of here; accepted: --pp-partition left unset"));

  dev = add_devices (set, plan);
  for (guint i = 0; i < n; i++)
    {
      VcPlanDevice *d = &dev[i];
      guint stage = i / plan->tp;

      d->n_layers = plan->pp > 1 ? stage_layers (options, &in, plan->pp, stage) : inputs->arch.n_layers;
      for (guint s = 0; plan->pp > 1 && s < stage; s++)
        d->first_layer += stage_layers (options, &in, plan->pp, s);
      d->output = stage == plan->pp - 1;
      /* each card holds its own stage's tensors, state and cache, split over the stage's TP
       * ranks (the layout's figures are its busiest stage's), computed once a stage */
      if (i % plan->tp == 0)
        vc_layout_stage_bytes_tp (&in, res, res->selected, d->first_layer, d->n_layers, stage == 0, d->output,
                                  plan->tp, in.layout.ep, &st);
      /* with vLLM's MXFP4 experts as this card's backend pads them */
      d->weights = st.weights + card_padding (&in, set, i, plan->tp);
      d->experts = st.experts + card_padding (&in, set, i, plan->tp);
      d->kv = stage_tokens > 0 ? stage_tokens * st.kv / ((double) vc_engine_context_tokens (&in) * in.batch * in.concurrency)
              : at.tokens > 0 ? MAX (0.0, at.available_kv_bytes) : st.kv;
      d->state = st.state;
      d->activations = lr.bytes[VC_COMPONENT_ACTIVATIONS];
      /* vLLM takes its whole budget of the smallest card: the cache fills what the model and
       * the profile run's peak (activations, at the smallest card's batch) leave of it; SGLang
       * keeps its activations outside mem_fraction_static */
      if (at.tokens > 0 && in.engine == VC_ENGINE_VLLM)
        d->activations = MAX (0.0, at.budget_bytes - d->weights - d->kv - d->state);
      d->overhead = lr.bytes[VC_COMPONENT_OVERHEAD];
      /* every rank allocates the cache blocks of the smallest (vLLM's get_kv_cache_configs,
       * the minimum over the workers) */
      d->limit_bytes = MIN (d->available_bytes, usable);
    }
  plan->kv_tokens = at.tokens;
  plan->bounded_by = (int) smallest;
  finish (plan);
  /* the cache is sized for the smallest: it must hold the sequences asked for; with no cache
   * figure, the estimate itself must fit what the engine may use of the smallest card */
  if (stage_tokens > 0)
    plan->fits = plan->fits && stage_tokens >= (double) vc_engine_context_tokens (&in) * in.batch * in.concurrency;
  else if (at.tokens > 0)
    plan->fits = plan->fits && at.available_kv_bytes >= lr.bytes[VC_COMPONENT_KV_CACHE];
  else
    plan->fits = plan->fits && lr.total <= usable;
  /* nothing runs where vLLM does not start, whatever the memory */
  if (mxfp4_refused (&in, set))
    plan->fits = FALSE;
  return TRUE;
}

/* ---- Transformers and Accelerate ------------------------------------------------------------ */

typedef struct
{
  double size;
  int device;                     /* -1: unplaced; n: the CPU; n + 1: the disk */
  guint layer;                    /* a repeating layer's index, or G_MAXUINT */
} Module;

/* accelerate/utils/modeling.py, get_balanced_memory then infer_auto_device_map: modules in order (the embedding, each
 * decoder layer — a no-split module — the final norm, the head), each on the current device if
 * its size fits under max_memory less, on GPU 0 and the CPU (main_devices), the largest layer
 * still to place (get_max_layer_size over the modules left); else the next device, the CPU after
 * the GPUs, the disk last. */
/* The modules in the order infer_auto_device_map treats them: the embedding (with any encoder),
 * each decoder layer, the final norm, the head */
static void
accelerate_modules (const VcInputs *in,
                    const VcResult *res,
                    Module         *mods)
{
  const VcArch *a = &in->arch;
  guint L = a->n_layers, idx = res->selected;

  mods[0].size = vc_layout_role_bytes (in, res, idx, ROLE (EMBEDDING) | ROLE (POSITIONS) | ROLE (ENCODER) | ROLE (OTHER),
                                       0, 0, TRUE, FALSE);
  for (guint i = 0; i < L; i++)
    {
      mods[1 + i].size = vc_layout_role_bytes (in, res, idx, 0, i, 1, FALSE, FALSE);
      mods[1 + i].layer = i;
    }
  mods[0].layer = G_MAXUINT;
  mods[L + 1].size = vc_layout_role_bytes (in, res, idx, ROLE (OUTPUT_NORM), 0, 0, FALSE, TRUE);
  mods[L + 1].layer = G_MAXUINT;
  /* a tied head has no parameter of its own: named_parameters() lists the embedding once */
  mods[L + 2].size = a->tied_embeddings ? 0 : vc_layout_role_bytes (in, res, idx, ROLE (HEAD) | ROLE (MTP), 0, 0, FALSE, TRUE);
  mods[L + 2].layer = G_MAXUINT;
}

/* device_map="auto" is "balanced" (transformers' _get_device_map calls get_balanced_memory
 * unless "sequential"): every GPU but the last is capped at the model's size ÷ the GPUs, plus
 * 1.25 × the first no-split block (layers.0; the mean leaf module, smaller for any decoder, is
 * left aside), the last one keeping its max_memory */
static double *
accelerate_limits (const VcGpuSet *set,
                   const Module   *mods,
                   guint           m,
                   guint           n_layers)
{
  guint n = vc_gpu_set_get_n (set);
  double *limits = g_new0 (double, n);

  for (guint i = 0; i < n; i++)
    limits[i] = vc_gpu_set_available (set, i);
  if (n > 1 && n_layers > 0)
    {
      double total = 0, per_gpu;

      for (guint k = 0; k < m; k++)
        total += mods[k].size;
      per_gpu = floor (total / n) + floor (1.25 * mods[1].size);
      for (guint i = 0; i + 1 < n; i++)
        limits[i] = MIN (per_gpu, limits[i]);
    }
  return limits;
}

static gboolean
plan_accelerate (const VcInputs *in,
                 const VcResult *res,
                 const VcGpuSet *set,
                 VcPlan         *plan,
                 GError        **error)
{
  const VcArch *a = &in->arch;
  guint L = a->n_layers, n = vc_gpu_set_get_n (set), idx = res->selected, m = L + 3, current = 0;
  g_autofree Module *mods = g_new0 (Module, m);
  g_autofree double *used = g_new0 (double, n + 2);
  g_autofree double *limits = NULL;
  VcPlanDevice *dev;

  if (in->layout.tp > 1 || in->layout.pp > 1 || in->layout.ep > 1 || in->layout.dp > 1)
    return refuse (error, _("Accelerate's device_map places whole modules on one card each: set TP, PP, EP and DP to 1"));
  accelerate_modules (in, res, mods);
  limits = accelerate_limits (set, mods, m, L);

  for (guint k = 0; k < m;)
    {
      double max_layer = 0, limit;
      gboolean main_device = current == 0 || current == n;

      for (guint j = k + 1; j < m; j++)
        max_layer = MAX (max_layer, mods[j].size);
      if (current > n)
        {
          mods[k++].device = (int) current;     /* the disk: no limit */
          continue;
        }
      limit = current < n ? limits[current] : (plan->ram_bytes > 0 ? plan->ram_bytes : G_MAXDOUBLE);
      if (main_device)
        limit -= max_layer;
      if (used[current] + mods[k].size <= limit)
        {
          used[current] += mods[k].size;
          mods[k++].device = (int) current;
        }
      else
        current++;
    }

  /* a tied head goes where the embedding it shares went (the tied parameters' group) */
  if (a->tied_embeddings)
    mods[L + 2].device = mods[0].device;
  dev = add_devices (set, plan);
  for (guint k = 0; k < m; k++)
    {
      int d = mods[k].device;

      if (d > (int) n)
        {
          g_autofree char *ram = vc_format_size (plan->ram_bytes, VC_UNIT_GB);

          return refuse (error, _("Accelerate would offload part of the model to the disk: the cards and %s of RAM "
                                  "do not hold it; accepted: more cards or more --ram"), ram);
        }
      if (d == (int) n)
        {
          plan->host_bytes += mods[k].size;
          plan->cpu_layers += mods[k].layer != G_MAXUINT;
          continue;
        }
      dev[d].weights += mods[k].size;
      if (mods[k].layer != G_MAXUINT && dev[d].n_layers++ == 0)
        dev[d].first_layer = mods[k].layer;
      if (k == L + 2)
        dev[d].output = TRUE;
    }
  for (guint i = 0; i < n; i++)
    {
      VcLayoutStage st;

      if (dev[i].weights <= 0)
        continue;
      dev[i].overhead = res->overhead_bytes;
      vc_layout_stage_bytes (in, res, idx, dev[i].first_layer, dev[i].n_layers, FALSE, dev[i].output, &st);
      dev[i].experts = st.experts;
      dev[i].kv = st.kv;
      dev[i].state = st.state;
      dev[i].activations = st.activations;
    }
  /* the modules in RAM run on the main device, the first GPU of the map (accelerate's
   * dispatch_model: execution_device is main_device for "cpu" and "disk"), and the cache of
   * their layers is made there (transformers' generate: get_layer_device_map over that
   * execution map) */
  if (plan->cpu_layers > 0)
    for (guint k = 0; k < m; k++)
      if (mods[k].device >= 0 && mods[k].device < (int) n)
        {
          VcLayoutStage st;

          vc_layout_stage_bytes (in, res, idx, L - plan->cpu_layers, plan->cpu_layers, FALSE, FALSE, &st);
          dev[mods[k].device].kv += st.kv;
          dev[mods[k].device].state += st.state;
          break;
        }
  return TRUE;
}

/* ---- training ------------------------------------------------------------------------------- */

static gboolean
plan_training (const VcInputs *inputs,
               const VcResult *res,
               const VcGpuSet *set,
               VcPlan         *plan,
               GError        **error)
{
  VcInputs in = *inputs;
  guint n = vc_gpu_set_get_n (set);
  VcLayoutResult lr;
  VcPlanDevice *dev;

  /* DeepSpeed's ZeRO partitions every state into N equal slices and FSDP flattens each unit
   * into N equal shards (deepspeed/runtime/zero/stage_1_and_2.py, torch FSDP's FlatParameter):
   * every rank holds the same, so the smallest card bounds them all, and data-parallel ranks
   * step together */
  if (!vc_gpu_set_is_uniform (set))
    return refuse (error, _("training shards its states equally over the data-parallel GPUs (ZeRO partitions and FSDP "
                            "shards are 1/N each, and the ranks step together), so a mixed set is not planned; "
                            "accepted: a set of one kind of card (h100-80gb:8)"));
  /* the set's GPUs are DP × CP: the context-parallel ranks of each data-parallel one */
  if (n % vc_training_cp (&in) != 0)
    return refuse (error, _("the set’s %u GPUs are DP × CP: CP %u must divide them"), n, vc_training_cp (&in));
  in.layout.dp = n / vc_training_cp (&in);
  if (!vc_layout_compute (&in, res, res->selected, &lr, error))
    return FALSE;
  plan->tp = 1;
  plan->pp = 1;
  dev = add_devices (set, plan);
  for (guint i = 0; i < n; i++)
    {
      dev[i].weights = lr.bytes[VC_COMPONENT_WEIGHTS] + lr.bytes[VC_COMPONENT_GRADIENTS] +
                       lr.bytes[VC_COMPONENT_OPTIMIZER] + lr.bytes[VC_COMPONENT_MASTER_WEIGHTS] + lr.buffers;
      dev[i].activations = lr.reserved - lr.total + lr.bytes[VC_COMPONENT_ACTIVATIONS];
      dev[i].overhead = lr.bytes[VC_COMPONENT_OVERHEAD];
      dev[i].n_layers = in.arch.n_layers;
      dev[i].output = TRUE;
    }
  plan->host_bytes = lr.host_bytes;
  return TRUE;
}

/**
 * vc_plan_compute:
 * @result: the estimate of @inputs
 *
 * Fills @plan (cleared first; vc_plan_clear() frees it) with the plan of the inputs' engine for
 * @set, or refuses with @error naming why.
 */
gboolean
vc_plan_compute (const VcInputs      *inputs,
                 const VcResult      *result,
                 const VcGpuSet      *set,
                 const VcPlanOptions *options,
                 VcPlan              *plan,
                 GError             **error)
{
  VcPlanOptions none = { 0 };
  gboolean ok;

  memset (plan, 0, sizeof *plan);
  plan->fills_first = plan->bounded_by = -1;
  if (options == NULL)
    options = &none;
  plan->engine = inputs->engine;
  plan->training = inputs->mode == VC_MODE_TRAINING;
  plan->ram_bytes = options->ram_bytes;
  if (vc_gpu_set_get_n (set) == 0)
    return refuse (error, _("the GPU set is empty; accepted: --gpus with catalog ids or NAME=SIZE cards (rtx-3090,rtx-3060-12gb)"));
  if (!check_pp_partition (inputs, set, options, error) || !check_llama_cpp_options (inputs, options, error))
    return FALSE;
  if (plan->training)
    ok = plan_training (inputs, result, set, plan, error);
  else if (inputs->engine == VC_ENGINE_VLLM || inputs->engine == VC_ENGINE_SGLANG)
    return plan_tensor_parallel (inputs, result, set, options, plan, error) || (vc_plan_clear (plan), FALSE);
  else if (inputs->method != VC_METHOD_ARCHITECTURE)
    return refuse (error, _("a plan by layers needs the architecture method: the rule of thumb knows no layers"));
  else if (inputs->engine == VC_ENGINE_OLLAMA)
    return refuse (error, _("Ollama picks its own -ngl and --tensor-split for llama.cpp from its memory estimate "
                            "(llm/memory.go), which is not modelled; accepted: --engine llama.cpp with --tensor-split"));
  else if (vc_engine_is_llama_cpp (inputs))
    ok = plan_llama_cpp (inputs, result, set, options, plan, error);
  else
    ok = plan_accelerate (inputs, result, set, plan, error);
  if (!ok)
    {
      vc_plan_clear (plan);
      return FALSE;
    }
  finish (plan);
  return TRUE;
}

/* ---- the solver on the set ------------------------------------------------------------------ */

static gboolean
fits_at (const VcInputs      *inputs,
         const VcGpuSet      *set,
         const VcPlanOptions *options,
         VcSolveVariable      variable,
         guint                value,
         gboolean             layers)
{
  VcInputs tmp = *inputs;
  VcResult r;
  VcPlan plan;
  gboolean fits;

  if (layers)
    tmp.layout.gpu_layers = value;
  else
    vc_solver_set (&tmp, variable, value);
  vc_estimator_compute (&tmp, &r);
  if (!vc_plan_compute (&tmp, &r, set, options, &plan, NULL))
    return FALSE;
  fits = plan.fits;
  vc_plan_clear (&plan);
  return fits;
}

/* the largest value in [1, max] that fits, fits being monotone; 0 when 1 does not */
static guint
bisect (const VcInputs      *inputs,
        const VcGpuSet      *set,
        const VcPlanOptions *options,
        VcSolveVariable      variable,
        guint                max,
        gboolean             layers)
{
  guint lo = 1, hi = max;

  if (!fits_at (inputs, set, options, variable, 1, layers))
    return 0;
  if (fits_at (inputs, set, options, variable, max, layers))
    return max;
  /* lo fits, hi does not */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (fits_at (inputs, set, options, variable, mid, layers))
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

gboolean
vc_plan_solve (const VcInputs      *inputs,
               const VcGpuSet      *set,
               const VcPlanOptions *options,
               VcSolveVariable      variable,
               guint               *value,
               GError             **error)
{
  VcResult r;
  VcPlan plan;
  guint max = vc_solver_input_max (variable);

  *value = 0;
  if (!vc_solver_applies (inputs->mode, variable))
    return refuse (error, _("--solve %s does not apply to this mode"), variable == VC_SOLVE_VARIABLE_SEQ ? "seq" : variable == VC_SOLVE_VARIABLE_BATCH ? "batch" : "concurrency");
  vc_estimator_compute (inputs, &r);
  if (!vc_plan_compute (inputs, &r, set, options, &plan, error))
    return FALSE;
  vc_plan_clear (&plan);
  if (variable == VC_SOLVE_VARIABLE_SEQ && vc_solver_model_context (inputs) > 0)
    max = MIN (max, vc_solver_model_context (inputs));
  *value = bisect (inputs, set, options, variable, max, FALSE);
  return TRUE;
}

gboolean
vc_plan_most_gpu_layers (const VcInputs      *inputs,
                         const VcGpuSet      *set,
                         const VcPlanOptions *options,
                         guint               *layers,
                         GError             **error)
{
  VcResult r;
  VcPlan plan;

  *layers = 0;
  if (inputs->mode != VC_MODE_INFERENCE || inputs->engine != VC_ENGINE_LLAMA_CPP ||
      inputs->method != VC_METHOD_ARCHITECTURE)
    return refuse (error, _("the most layers on the GPUs is llama.cpp's -ngl: it needs the llama.cpp engine and the architecture method"));
  vc_estimator_compute (inputs, &r);
  if (!vc_plan_compute (inputs, &r, set, options, &plan, error))
    return FALSE;
  vc_plan_clear (&plan);
  *layers = bisect (inputs, set, options, VC_SOLVE_VARIABLE_SEQ, inputs->arch.n_layers + 1, TRUE);
  return TRUE;
}
