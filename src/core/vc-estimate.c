/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-estimate.c: the estimate model object. */
#define G_LOG_DOMAIN "vc-estimate"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "vc-catalog.h"
#include "vc-component-row.h"
#include "vc-custom-gpus.h"
#include "vc-gpu-set.h"
#include "vc-plan.h"
#include "vc-enums.h"
#include "vc-error.h"
#include "vc-engine.h"
#include "vc-estimate-private.h"
#include "vc-solver.h"
#include "vc-quant.h"
#include "vc-layout.h"
#include "vc-mmproj.h"
#include "vc-units.h"

struct _VcEstimate
{
  GObject parent_instance;

  VcInputs inputs;
  char *preset;
  char *model_name;
  char **model_not_understood;     /* an imported model's parts the estimate is not exact about */
  char *source_format;          /* "", "config", "safetensors" or "gguf" */
  char *source_quantization;
  char *mmproj;                    /* --mmproj: the projector file as given; "" none */
  char *mmproj_projector;          /* its clip.projector_type */
  char *model_warning;             /* the model file's warning (vc_model_file_get_warning) */
  gboolean encoder_in_mmproj;      /* the model file leaves its encoder to a projector file */
  gboolean applying_preset;

  gboolean dirty;
  guint idle_id;
  gboolean checked;                /* invalid is the answer for the current inputs */
  GError *invalid;                 /* why the inputs do not go together; NULL when they do */
  VcResult result;
  VcGpuFit *fits;
  guint n_gpus;
  VcLayoutResult layout;           /* the inputs' own layout; valid when layout_ok */
  gboolean layout_ok;
  char *custom_gpus;               /* as typed: "Name=24GB; Other=48GiB" */
  GArray *user_gpus;               /* VcGpu parsed from it, after the catalog */
  char *chart_gpus;                /* "h100-80gb;My card": ids or custom names, as chosen */
  char *gpu_set;                   /* "My GPUs", in the set's text form (vc-gpu-set.h) */
  VcGpuSet *set;
  char *host_ram;                  /* as typed: "64GB"; "" when not given */
  double ram_bytes;
  char *tensor_split;              /* llama.cpp --tensor-split as typed: "3,1"; "" by free memory */
  char *pp_partition;              /* vLLM's VLLM_PP_LAYER_PARTITION as typed: "20,12"; "" its default */
  guint main_gpu;
  VcSplitMode split_mode;
  guint n_cpu_moe;
  VcSolution *solutions;           /* per GPU and variable, solved when first asked for */
  guint8 *solved;
  VcSolverMemo *solver_memo;       /* the solutions' estimates, shared by the rows */
  gboolean fits_computed;          /* `fits` as the inputs stand (ensure_fits()) */
  GListStore *breakdown;
};

enum {
  PROP_0,
  /* inputs */
  PROP_MODE,
  PROP_METHOD,
  PROP_MODEL_TYPE,
  PROP_PRESET,
  PROP_MODEL_NAME,
  PROP_PARAMETERS,
  PROP_ACTIVE_PARAMETERS,
  PROP_PRECISION,
  PROP_TRAINING_PRECISION,
  PROP_KV_PRECISION,
  PROP_FINETUNE,
  PROP_OPTIMIZER,
  PROP_OPTIMIZER_PRECISION,
  PROP_BATCH,
  PROP_SEQ,
  PROP_CONCURRENCY,
  PROP_LORA_RANK,
  PROP_LORA_PERCENT,
  PROP_LORA_TARGETS,
  PROP_MIXED_PRECISION,
  PROP_CHECKPOINTING,
  PROP_FLASH_ATTENTION,
  PROP_LOSS,
  PROP_OPTIMIZER_IMPL,
  PROP_COMPILE,
  PROP_TRAIN_EMBEDDINGS,
  PROP_EXPANDABLE_SEGMENTS,
  PROP_TRAINER,
  PROP_OPTIMIZER_IN_BACKWARD,
  PROP_PACKING,
  PROP_CHECKPOINT_EVERY,
  PROP_OVERHEAD_GB,
  PROP_ENGINE,
  PROP_MEMORY_FRACTION,
  PROP_BLOCK_SIZE,
  PROP_MAX_NUM_BATCHED_TOKENS,
  PROP_MAX_NUM_SEQS,
  PROP_LIMIT_MM_PER_PROMPT,
  PROP_KV_CACHE_MEMORY,
  PROP_ENGINE_VERSION,
  PROP_ENFORCE_EAGER,
  PROP_MXFP4_BACKEND,
  PROP_VLLM_SAMPLER,
  PROP_MM_ENCODER_TP_MODE,
  PROP_DISABLE_CUSTOM_ALL_REDUCE,
  PROP_MEM_FRACTION_STATIC,
  PROP_SGLANG_VERSION,
  PROP_PAGE_SIZE,
  PROP_N_UBATCH,
  PROP_N_BATCH,
  PROP_KV_UNIFIED,
  PROP_CACHE_TYPE_K,
  PROP_CACHE_TYPE_V,
  PROP_MFU,
  PROP_TP,
  PROP_PP,
  PROP_EP,
  PROP_DP,
  PROP_SHARDING,
  PROP_OFFLOAD,
  PROP_GRAD_ACCUM,
  PROP_CP,
  PROP_GPU_LAYERS,
  PROP_EXPERTS_ON_CPU,
  PROP_GPUS_PER_NODE,
  PROP_CUSTOM_GPUS,
  PROP_CHART_GPUS,
  PROP_GPU_SET,
  PROP_HOST_RAM,
  PROP_TENSOR_SPLIT,
  PROP_PP_PARTITION,
  PROP_MAIN_GPU,
  PROP_SPLIT_MODE,
  PROP_N_CPU_MOE,
  PROP_SOURCE_FORMAT,
  PROP_SOURCE_QUANTIZATION,
  PROP_SOURCE_WEIGHTS_BYTES,
  PROP_SOURCE_PARAMETERS,
  PROP_SOURCE_ACTIVE_PARAMETERS,
  PROP_SOURCE_PRECISION,
  PROP_MMPROJ,
  PROP_MMPROJ_PROJECTOR,
  PROP_MMPROJ_BYTES,
  PROP_MMPROJ_PARAMETERS,
  PROP_MMPROJ_OFFLOAD,
  PROP_MMPROJ_COMPUTE_BYTES,
  PROP_MMPROJ_COMPUTE_BYTES_FA,
  PROP_MODEL_WARNING,
  PROP_ENCODER_IN_MMPROJ,
  /* results */
  PROP_MODEL_PARAMETERS,
  PROP_MODEL_ACTIVE_PARAMETERS,
  PROP_TRAINABLE_PARAMETERS,
  PROP_KV_BYTES_PER_TOKEN,
  PROP_TOTAL_BYTES,
  PROP_RESERVED_BYTES,
  PROP_SCENARIO,
  PROP_PEAK_PHASE,
  PROP_OVERHEAD_BYTES,
  PROP_MODEL_NOT_UNDERSTOOD,
  PROP_ARCH_0,
};

#define FIRST_RESULT PROP_MODEL_PARAMETERS
#define LAST_RESULT PROP_MODEL_NOT_UNDERSTOOD

#define N_SOLVE_VARIABLES (VC_SOLVE_VARIABLE_CONCURRENCY + 1)
/* a consumer card and a data-centre card: the chart has lines to compare with from the start */
#define DEFAULT_CHART_GPUS "rtx-4090;h100-80gb"

static GParamSpec **properties;
static guint n_properties;
static guint n_arch_fields;
static const VcArchField *arch_fields;

enum { CHANGED, INPUTS_REPLACED, N_SIGNALS };
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (VcEstimate, vc_estimate, G_TYPE_OBJECT)

static void ensure_computed (VcEstimate *self);

const char *
vc_enum_nick (GType enum_type,
              int   value)
{
  g_autoptr(GEnumClass) klass = g_type_class_ref (enum_type);
  GEnumValue *v = g_enum_get_value (klass, value);

  return v ? v->value_nick : "";
}

const char *
vc_scenario_id (VcScenario scenario)
{
  return vc_enum_nick (VC_TYPE_SCENARIO, scenario);
}

const char *
vc_scenario_name (VcScenario scenario)
{
  switch (scenario)
    {
    case VC_SCENARIO_INFERENCE_32BIT: return _("Inference (32-bit)");
    case VC_SCENARIO_INFERENCE_16BIT: return _("Inference (16-bit)");
    case VC_SCENARIO_INFERENCE_8BIT: return _("Inference (8-bit)");
    case VC_SCENARIO_INFERENCE_4BIT: return _("Inference (4-bit)");
    case VC_SCENARIO_FULL: return _("Full fine-tuning");
    case VC_SCENARIO_LORA: return _("LoRA fine-tuning");
    case VC_SCENARIO_QLORA_8BIT: return _("QLoRA (8-bit) fine-tuning");
    case VC_SCENARIO_QLORA_4BIT: return _("QLoRA (4-bit) fine-tuning");
    default: return "";
    }
}

/* ---- recomputation ------------------------------------------------------------------------ */

static void
update_breakdown (VcEstimate *self)
{
  const VcScenarioResult *sc = &self->result.scenarios[self->result.selected];
  VcComponent shown[VC_N_COMPONENTS];
  guint n_shown = 0;
  gboolean same;

  /* at the start of the backward pass no gradient exists yet: a bare "0 bytes" row only
   * puzzled; the summary says which peak it is */
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    if (vc_component_applies (&self->inputs, c) &&
        !(c == VC_COMPONENT_GRADIENTS && sc->peak_phase == VC_PHASE_FORWARD))
      shown[n_shown++] = c;

  same = g_list_model_get_n_items (G_LIST_MODEL (self->breakdown)) == n_shown;
  for (guint i = 0; same && i < n_shown; i++)
    {
      g_autoptr(VcComponentRow) row = g_list_model_get_item (G_LIST_MODEL (self->breakdown), i);
      same = vc_component_row_get_component (row) == shown[i];
    }

  if (!same)
    {
      g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < n_shown; i++)
        g_ptr_array_add (rows, vc_component_row_new (shown[i]));
      g_list_store_splice (self->breakdown, 0,
                           g_list_model_get_n_items (G_LIST_MODEL (self->breakdown)),
                           rows->pdata, rows->len);
    }

  for (guint i = 0; i < n_shown; i++)
    {
      g_autoptr(VcComponentRow) row = g_list_model_get_item (G_LIST_MODEL (self->breakdown), i);
      double bytes = sc->bytes[shown[i]];

      vc_component_row_update (row, bytes, sc->total > 0 ? bytes / sc->total : 0);
    }
}

/* How many of each card scenario `index` takes: what the engine lets the model use of the
 * card (vLLM's and SGLang's memory share), and the card's smallest valid layout in it
 * (vc-layout.c), one search for all the cards. The search sets the parallel degrees itself, so
 * it answers even while the inputs' own layout is impossible. */
typedef struct
{
  double *capacities;
  VcLayout *layouts;
  VcLayoutResult *outs;
  gboolean *found;
  const VcGpu **gpus;
} SmallestLayouts;

static void
smallest_layouts_clear (SmallestLayouts *s)
{
  g_clear_pointer (&s->capacities, g_free);
  g_clear_pointer (&s->layouts, g_free);
  g_clear_pointer (&s->outs, g_free);
  g_clear_pointer (&s->found, g_free);
  g_clear_pointer (&s->gpus, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (SmallestLayouts, smallest_layouts_clear)

static void
smallest_layouts (VcEstimate      *self,
                  guint            index,
                  SmallestLayouts *s)
{
  const VcScenarioResult *sc = &self->result.scenarios[index];

  s->capacities = g_new (double, self->n_gpus);
  s->layouts = g_new (VcLayout, self->n_gpus);
  s->outs = g_new (VcLayoutResult, self->n_gpus);
  s->found = g_new (gboolean, self->n_gpus);
  s->gpus = g_new (const VcGpu *, self->n_gpus);
  for (guint i = 0; i < self->n_gpus; i++)
    {
      s->gpus[i] = vc_estimate_get_gpu (self, i);
      s->capacities[i] = vc_engine_usable_bytes (&self->inputs, vc_engine_gpu_capacity (&self->inputs, s->gpus[i]),
                                                 sc->bytes[VC_COMPONENT_OVERHEAD]);
    }
  /* each card's layouts count its MXFP4 padding at their TP degree (vc_layout_smallest_memo) */
  vc_layout_smallest_each (&self->inputs, &self->result, index, s->capacities, s->gpus, self->n_gpus,
                           s->layouts, s->outs, s->found);
}

/* how many of card `i`: 0 when no number of them is enough */
static guint
smallest_count (const SmallestLayouts *s,
                guint                  i)
{
  return s->found[i] ? vc_layout_n_gpus (&s->layouts[i]) : 0;
}

static void ensure_checked (VcEstimate *self);

/* What the engine lets the model use of a card at the fit's layout */
static double
layout_usable (VcEstimate     *self,
               const VcGpuFit *fit,
               const VcGpu    *gpu)
{
  VcInputs at = self->inputs;

  at.layout = fit->layout;
  return vc_engine_usable_bytes (&at, vc_engine_gpu_capacity (&at, gpu),
                                 self->result.scenarios[self->result.selected].bytes[VC_COMPONENT_OVERHEAD]);
}

/* The GPU table: each card's smallest layout. Searched when first asked for after a change,
 * as the solutions are: an estimate nobody shows in a table needs none. */
static void
ensure_fits (VcEstimate *self)
{
  g_auto(SmallestLayouts) smallest = { 0 };
  const VcScenarioResult *sc = &self->result.scenarios[self->result.selected];

  if (self->fits_computed)
    return;
  self->fits_computed = TRUE;
  smallest_layouts (self, self->result.selected, &smallest);
  for (guint i = 0; i < self->n_gpus; i++)
    {
      VcGpuFit *fit = &self->fits[i];
      gboolean found = smallest.found[i];

      /* the count is the layout search's alone (vc_layout_smallest_each) */
      fit->capacity_bytes = vc_engine_gpu_capacity (&self->inputs, vc_estimate_get_gpu (self, i));
      fit->layout = found ? smallest.layouts[i] : self->inputs.layout;
      fit->count = smallest_count (&smallest, i);
      /* in training what the caching allocator reserves is what the card must hold */
      fit->per_gpu_bytes = found ? smallest.outs[i].reserved : sc->reserved;
      /* within what the engine lets the model use at that layout (SGLang's share changes with
       * TP and PP, as the search counts it) */
      fit->fits = found && fit->count == 1 && smallest.outs[i].reserved <= layout_usable (self, fit, smallest.gpus[i]);
      /* padding only adds: "does not fit" stands whatever the backend */
      fit->experts_as_stored = found && vc_engine_vllm_experts_as_stored (&self->inputs, smallest.gpus[i],
                                                                          MAX (1u, fit->layout.tp));
      /* the layout search finds no number of such a card (vc_layout_smallest_each) */
      fit->refused = vc_engine_vllm_mxfp4_refused (&self->inputs, smallest.gpus[i]);
    }
}

static void
recompute (VcEstimate *self)
{
  VcResult old = self->result;
  const VcScenarioResult *sc, *old_sc;

  self->dirty = FALSE;
  ensure_checked (self);
  vc_estimator_compute (&self->inputs, &self->result);
  vc_estimator_add_reserve (&self->inputs, &self->result);
  sc = &self->result.scenarios[self->result.selected];
  old_sc = &old.scenarios[old.selected];

  vc_gpus_get_all (&self->n_gpus);
  self->n_gpus += self->user_gpus->len;
  self->fits = g_renew (VcGpuFit, self->fits, self->n_gpus);
  /* one GPU's, then the row's (as many GPUs as the fit counts) */
  self->solutions = g_renew (VcSolution, self->solutions, 2 * self->n_gpus * N_SOLVE_VARIABLES);
  self->solved = g_renew (guint8, self->solved, 2 * self->n_gpus * N_SOLVE_VARIABLES);
  memset (self->solved, 0, 2 * self->n_gpus * N_SOLVE_VARIABLES);
  g_clear_pointer (&self->solver_memo, vc_solver_memo_free);
  self->layout_ok = vc_layout_compute (&self->inputs, &self->result, self->result.selected,
                                       &self->layout, NULL);
  self->fits_computed = FALSE;

  g_object_freeze_notify (G_OBJECT (self));
  if (old.parameters != self->result.parameters)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_PARAMETERS]);
  if (old.active_parameters != self->result.active_parameters)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_ACTIVE_PARAMETERS]);
  if (old.kv_bytes_per_token != self->result.kv_bytes_per_token)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_KV_BYTES_PER_TOKEN]);
  if (old.overhead_bytes != self->result.overhead_bytes)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_OVERHEAD_BYTES]);
  if (old_sc->total != sc->total)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TOTAL_BYTES]);
  if (old_sc->reserved != sc->reserved)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESERVED_BYTES]);
  if (old_sc->id != sc->id)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SCENARIO]);
  if (old_sc->peak_phase != sc->peak_phase)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PEAK_PHASE]);
  if (old_sc->trainable_parameters != sc->trainable_parameters)
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TRAINABLE_PARAMETERS]);
  update_breakdown (self);
  g_object_thaw_notify (G_OBJECT (self));

  g_signal_emit (self, signals[CHANGED], 0);
}

static gboolean
recompute_idle (gpointer data)
{
  VcEstimate *self = data;

  self->idle_id = 0;
  if (self->dirty)
    recompute (self);
  return G_SOURCE_REMOVE;
}

static void
invalidate (VcEstimate *self)
{
  self->dirty = TRUE;
  self->checked = FALSE;
  /* before GTK's redraw (G_PRIORITY_HIGH_IDLE + 20): the new numbers show in the next frame */
  if (self->idle_id == 0)
    self->idle_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, recompute_idle, self, NULL);
}

static void
ensure_computed (VcEstimate *self)
{
  if (self->dirty)
    {
      g_clear_handle_id (&self->idle_id, g_source_remove);
      recompute (self);
    }
}

void
vc_estimate_flush (VcEstimate *self)
{
  g_return_if_fail (VC_IS_ESTIMATE (self));
  ensure_computed (self);
}

/* ---- properties --------------------------------------------------------------------------- */

static void
leave_preset (VcEstimate *self)
{
  if (self->applying_preset || self->preset[0] == '\0')
    return;
  g_free (self->preset);
  self->preset = g_strdup ("");
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESET]);
}

/* A double input as set: -0 is 0 (a profile writes and reads it back as 0, the text form says
 * "-0": the two must not differ). */
static double
input_double (const GValue *value)
{
  double v = g_value_get_double (value);

  return v == 0 ? 0 : v;
}

#define SET_FIELD(field, getter) G_STMT_START {                     \
    __typeof__ (self->inputs.field) v_ = (__typeof__ (v_)) getter (value); \
    if (self->inputs.field == v_)                                   \
      return;                                                       \
    self->inputs.field = v_;                                        \
  } G_STMT_END

/* The properties with setters of their own: each notifies and invalidates only on a change. */
static void
set_property_by_setter (VcEstimate   *self,
                        guint         prop_id,
                        const GValue *value)
{
  g_autoptr(GError) error = NULL;

  switch (prop_id)
    {
    case PROP_PRESET:
      if (!vc_estimate_set_preset (self, g_value_get_string (value), &error))
        g_warning ("%s", error->message);
      return;
    case PROP_MODEL_NAME:
      vc_estimate_set_model_name (self, g_value_get_string (value));
      return;
    case PROP_CUSTOM_GPUS:
      if (!vc_estimate_set_custom_gpus (self, g_value_get_string (value), &error))
        g_warning ("%s", error->message);
      return;
    case PROP_CHART_GPUS:
      if (!vc_estimate_set_chart_gpus (self, g_value_get_string (value), &error))
        g_warning ("%s", error->message);
      return;
    case PROP_GPU_SET:
    case PROP_HOST_RAM:
    case PROP_TENSOR_SPLIT:
    case PROP_PP_PARTITION:
      if (!vc_estimate_set_plan_text (self, properties[prop_id]->name, g_value_get_string (value), &error))
        g_warning ("%s", error->message);
      return;
    default:
      g_assert_not_reached ();
    }
}

static void
set_source_text (VcEstimate   *self,
                 guint         prop_id,
                 const GValue *value,
                 GParamSpec   *pspec)
{
  char **field = prop_id == PROP_SOURCE_FORMAT ? &self->source_format : &self->source_quantization;
  const char *text = g_value_get_string (value) ? g_value_get_string (value) : "";

  if (g_strcmp0 (*field, text) == 0)
    return;
  g_free (*field);
  *field = g_strdup (text);
  /* a GGUF runs in llama.cpp: its compute buffer is the activations */
  self->inputs.llama_cpp = g_str_equal (self->source_format, "gguf");
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
  invalidate (self);
}

static void
set_mmproj_text (VcEstimate   *self,
                 guint         prop_id,
                 const GValue *value,
                 GParamSpec   *pspec)
{
  char **field = prop_id == PROP_MMPROJ ? &self->mmproj :
                 prop_id == PROP_MODEL_WARNING ? &self->model_warning : &self->mmproj_projector;
  const char *text = g_value_get_string (value) ? g_value_get_string (value) : "";

  if (g_strcmp0 (*field, text) == 0)
    return;
  g_free (*field);
  *field = g_strdup (text);
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
  invalidate (self);
}

/* The projector file's inputs and the model file's warning */
static void
set_mmproj_property (VcEstimate   *self,
                     guint         prop_id,
                     const GValue *value,
                     GParamSpec   *pspec)
{
  switch (prop_id)
    {
    case PROP_MMPROJ_BYTES: SET_FIELD (mmproj_bytes, input_double); break;
    case PROP_MMPROJ_PARAMETERS: SET_FIELD (mmproj_parameters, input_double); break;
    case PROP_MMPROJ_OFFLOAD: SET_FIELD (mmproj_offload, g_value_get_boolean); break;
    case PROP_MMPROJ_COMPUTE_BYTES: SET_FIELD (mmproj_compute_bytes, input_double); break;
    case PROP_MMPROJ_COMPUTE_BYTES_FA: SET_FIELD (mmproj_compute_bytes_fa, input_double); break;
    case PROP_ENCODER_IN_MMPROJ:
      if (self->encoder_in_mmproj == g_value_get_boolean (value))
        return;
      self->encoder_in_mmproj = g_value_get_boolean (value);
      break;
    default:
      set_mmproj_text (self, prop_id, value, pspec);
      return;
    }
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
  invalidate (self);
}

static void
set_arch_property (VcEstimate   *self,
                   guint         prop_id,
                   const GValue *value,
                   GParamSpec   *pspec)
{
  const VcArchField *f;
  guint v;

  if (prop_id < PROP_ARCH_0 || prop_id >= PROP_ARCH_0 + n_arch_fields)
    {
      G_OBJECT_WARN_INVALID_PROPERTY_ID (self, prop_id, pspec);
      return;
    }
  f = &arch_fields[prop_id - PROP_ARCH_0];
  v = f->type == VC_ARCH_FIELD_BOOL ? (guint) g_value_get_boolean (value)
    : f->type == VC_ARCH_FIELD_NORM ? (guint) g_value_get_enum (value)
    : g_value_get_uint (value);
  if (vc_arch_field_get (&self->inputs.arch, f) == v)
    return;
  vc_arch_field_set (&self->inputs.arch, f, v);
  leave_preset (self);
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
  invalidate (self);
}

/* The plan's own inputs (main GPU, split mode, experts in RAM) change the plan on the set of
 * cards, not the estimate: notified without invalidating it. */
static void
set_plan_input (VcEstimate   *self,
                guint         prop_id,
                const GValue *value,
                GParamSpec   *pspec)
{
  guint *field = prop_id == PROP_MAIN_GPU ? &self->main_gpu
                 : prop_id == PROP_N_CPU_MOE ? &self->n_cpu_moe : (guint *) &self->split_mode;
  guint v = prop_id == PROP_SPLIT_MODE ? (guint) g_value_get_enum (value) : g_value_get_uint (value);

  if (*field == v)
    return;
  *field = v;
  g_object_notify_by_pspec (G_OBJECT (self), pspec);
}

/* vLLM's backends and modes among the engine inputs (--mxfp4-backend, --vllm-sampler,
 * --mm-encoder-tp-mode): FALSE for any other property */
static gboolean
set_vllm_choice (VcEstimate   *self,
                 guint         prop_id,
                 const GValue *value,
                 GParamSpec   *pspec)
{
  int *field;
  int v;

  switch (prop_id)
    {
    case PROP_MXFP4_BACKEND: field = (int *) &self->inputs.mxfp4_backend; break;
    case PROP_VLLM_SAMPLER: field = (int *) &self->inputs.vllm_sampler; break;
    case PROP_MM_ENCODER_TP_MODE: field = (int *) &self->inputs.mm_encoder_tp_mode; break;
    default:
      return FALSE;
    }
  v = g_value_get_enum (value);
  if (*field != v)
    {
      *field = v;
      g_object_notify_by_pspec (G_OBJECT (self), pspec);
      invalidate (self);
    }
  return TRUE;
}

static void
vc_estimate_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  VcEstimate *self = VC_ESTIMATE (object);

  switch (prop_id)
    {
    case PROP_MODE: SET_FIELD (mode, g_value_get_enum); break;
    case PROP_METHOD: SET_FIELD (method, g_value_get_enum); break;
    case PROP_MODEL_TYPE: SET_FIELD (model_type, g_value_get_enum); leave_preset (self); break;
    case PROP_PRESET:
    case PROP_MODEL_NAME:
    case PROP_CUSTOM_GPUS:
    case PROP_CHART_GPUS:
    case PROP_GPU_SET:
    case PROP_HOST_RAM:
    case PROP_TENSOR_SPLIT:
    case PROP_PP_PARTITION:
      set_property_by_setter (self, prop_id, value);
      return;
    case PROP_MAIN_GPU:
    case PROP_SPLIT_MODE:
    case PROP_N_CPU_MOE:
      set_plan_input (self, prop_id, value, pspec);
      return;
    case PROP_PARAMETERS: SET_FIELD (parameters, input_double); leave_preset (self); break;
    case PROP_ACTIVE_PARAMETERS: SET_FIELD (active_parameters, input_double); leave_preset (self); break;
    case PROP_PRECISION: SET_FIELD (precision, g_value_get_enum); break;
    case PROP_TRAINING_PRECISION: SET_FIELD (training_precision, g_value_get_enum); break;
    case PROP_KV_PRECISION: SET_FIELD (kv_precision, g_value_get_enum); break;
    case PROP_FINETUNE: SET_FIELD (finetune, g_value_get_enum); break;
    case PROP_OPTIMIZER: SET_FIELD (optimizer, g_value_get_enum); break;
    case PROP_OPTIMIZER_PRECISION: SET_FIELD (optimizer_precision, g_value_get_enum); break;
    case PROP_BATCH: SET_FIELD (batch, g_value_get_uint); break;
    case PROP_SEQ: SET_FIELD (seq, g_value_get_uint); break;
    case PROP_CONCURRENCY: SET_FIELD (concurrency, g_value_get_uint); break;
    case PROP_LORA_RANK: SET_FIELD (lora_rank, g_value_get_uint); break;
    case PROP_LORA_PERCENT: SET_FIELD (lora_percent, input_double); break;
    case PROP_LORA_TARGETS: SET_FIELD (lora_targets, g_value_get_flags); break;
    case PROP_MIXED_PRECISION: SET_FIELD (mixed_precision, g_value_get_boolean); break;
    case PROP_CHECKPOINTING: SET_FIELD (checkpointing, g_value_get_enum); break;
    case PROP_FLASH_ATTENTION: SET_FIELD (flash_attention, g_value_get_boolean); break;
    case PROP_LOSS: SET_FIELD (loss, g_value_get_enum); break;
    case PROP_OPTIMIZER_IMPL: SET_FIELD (optimizer_impl, g_value_get_enum); break;
    case PROP_COMPILE: SET_FIELD (compile, g_value_get_boolean); break;
    case PROP_TRAIN_EMBEDDINGS: SET_FIELD (train_embeddings, g_value_get_boolean); break;
    case PROP_EXPANDABLE_SEGMENTS: SET_FIELD (expandable_segments, g_value_get_boolean); break;
    case PROP_TRAINER: SET_FIELD (trainer, g_value_get_enum); break;
    case PROP_OPTIMIZER_IN_BACKWARD: SET_FIELD (optimizer_in_backward, g_value_get_boolean); break;
    case PROP_PACKING: SET_FIELD (packing, g_value_get_boolean); break;
    case PROP_CHECKPOINT_EVERY: SET_FIELD (checkpoint_every, g_value_get_uint); break;
    case PROP_OVERHEAD_GB: SET_FIELD (overhead_gb, input_double); break;
    case PROP_ENGINE: SET_FIELD (engine, g_value_get_enum); break;
    case PROP_MEMORY_FRACTION: SET_FIELD (memory_fraction, input_double); break;
    case PROP_BLOCK_SIZE: SET_FIELD (block_size, g_value_get_uint); break;
    case PROP_MAX_NUM_BATCHED_TOKENS: SET_FIELD (max_num_batched_tokens, g_value_get_uint); break;
    case PROP_MAX_NUM_SEQS: SET_FIELD (max_num_seqs, g_value_get_uint); break;
    case PROP_LIMIT_MM_PER_PROMPT: SET_FIELD (limit_mm_per_prompt, g_value_get_uint); break;
    case PROP_KV_CACHE_MEMORY: SET_FIELD (kv_cache_memory_gb, input_double); break;
    case PROP_ENGINE_VERSION: SET_FIELD (vllm_version, g_value_get_enum); break;
    case PROP_ENFORCE_EAGER: SET_FIELD (enforce_eager, g_value_get_boolean); break;
    case PROP_DISABLE_CUSTOM_ALL_REDUCE: SET_FIELD (disable_custom_all_reduce, g_value_get_boolean); break;
    case PROP_MEM_FRACTION_STATIC: SET_FIELD (mem_fraction_static, input_double); break;
    case PROP_SGLANG_VERSION: SET_FIELD (sglang_version, g_value_get_enum); break;
    case PROP_PAGE_SIZE: SET_FIELD (page_size, g_value_get_uint); break;
    case PROP_N_UBATCH: SET_FIELD (n_ubatch, g_value_get_uint); break;
    case PROP_N_BATCH: SET_FIELD (n_batch, g_value_get_uint); break;
    case PROP_KV_UNIFIED: SET_FIELD (kv_unified, g_value_get_boolean); break;
    case PROP_CACHE_TYPE_K: SET_FIELD (cache_type_k, g_value_get_enum); break;
    case PROP_CACHE_TYPE_V: SET_FIELD (cache_type_v, g_value_get_enum); break;
    case PROP_MFU: SET_FIELD (mfu, input_double); break;
    case PROP_SOURCE_FORMAT:
    case PROP_SOURCE_QUANTIZATION:
      set_source_text (self, prop_id, value, pspec);
      return;
    case PROP_SOURCE_WEIGHTS_BYTES: SET_FIELD (source_weights_bytes, input_double); break;
    case PROP_SOURCE_PARAMETERS: SET_FIELD (source_parameters, input_double); break;
    case PROP_SOURCE_ACTIVE_PARAMETERS: SET_FIELD (source_active_parameters, input_double); break;
    case PROP_SOURCE_PRECISION: SET_FIELD (source_precision, g_value_get_enum); break;
    case PROP_TP: SET_FIELD (layout.tp, g_value_get_uint); break;
    case PROP_PP: SET_FIELD (layout.pp, g_value_get_uint); break;
    case PROP_EP: SET_FIELD (layout.ep, g_value_get_uint); break;
    case PROP_DP: SET_FIELD (layout.dp, g_value_get_uint); break;
    case PROP_SHARDING: SET_FIELD (layout.sharding, g_value_get_enum); break;
    case PROP_OFFLOAD: SET_FIELD (layout.offload, g_value_get_enum); break;
    case PROP_GRAD_ACCUM: SET_FIELD (layout.grad_accum, g_value_get_uint); break;
    case PROP_CP: SET_FIELD (layout.cp, g_value_get_uint); break;
    case PROP_GPU_LAYERS: SET_FIELD (layout.gpu_layers, g_value_get_uint); break;
    case PROP_EXPERTS_ON_CPU: SET_FIELD (layout.experts_on_cpu, g_value_get_boolean); break;
    case PROP_GPUS_PER_NODE: SET_FIELD (layout.gpus_per_node, g_value_get_uint); break;
    default:
      if (set_vllm_choice (self, prop_id, value, pspec))
        return;
      if (prop_id >= PROP_MMPROJ && prop_id <= PROP_ENCODER_IN_MMPROJ)
        set_mmproj_property (self, prop_id, value, pspec);
      else
        set_arch_property (self, prop_id, value, pspec);
      return;
    }
  g_object_notify_by_pspec (object, pspec);
  invalidate (self);
}

/* A result's property (FIRST_RESULT to LAST_RESULT), once computed */
static void
get_result_property (VcEstimate *self,
                     guint       prop_id,
                     GValue     *value)
{
  const VcInputs *in = &self->inputs;

  switch (prop_id)
    {
    case PROP_MODEL_PARAMETERS: g_value_set_double (value, self->result.parameters); break;
    case PROP_MODEL_ACTIVE_PARAMETERS: g_value_set_double (value, self->result.active_parameters); break;
    case PROP_TRAINABLE_PARAMETERS:
      g_value_set_double (value, self->result.scenarios[self->result.selected].trainable_parameters);
      break;
    case PROP_KV_BYTES_PER_TOKEN: g_value_set_double (value, self->result.kv_bytes_per_token); break;
    case PROP_TOTAL_BYTES:
      g_value_set_double (value, self->result.scenarios[self->result.selected].total);
      break;
    case PROP_RESERVED_BYTES:
      g_value_set_double (value, vc_estimator_models_reserve (in)
                                 ? self->result.scenarios[self->result.selected].reserved : -1);
      break;
    case PROP_SCENARIO:
      g_value_set_enum (value, self->result.scenarios[self->result.selected].id);
      break;
    case PROP_PEAK_PHASE:
      g_value_set_enum (value, self->result.scenarios[self->result.selected].peak_phase);
      break;
    case PROP_OVERHEAD_BYTES: g_value_set_double (value, self->result.overhead_bytes); break;
    case PROP_MODEL_NOT_UNDERSTOOD: g_value_set_boxed (value, self->model_not_understood); break;
    default:
      g_assert_not_reached ();
    }
}

/* An architecture field's property (PROP_ARCH_0 onwards), from the field table of vc-arch.c */
static void
get_arch_property (const VcInputs *in,
                   guint           prop_id,
                   GValue         *value)
{
  const VcArchField *f = &arch_fields[prop_id - PROP_ARCH_0];
  guint v = vc_arch_field_get (&in->arch, f);

  if (f->type == VC_ARCH_FIELD_BOOL)
    g_value_set_boolean (value, v);
  else if (f->type == VC_ARCH_FIELD_NORM)
    g_value_set_enum (value, v);
  else
    g_value_set_uint (value, v);
}

static void
get_mmproj_property (VcEstimate *self,
                     guint       prop_id,
                     GValue     *value)
{
  const VcInputs *in = &self->inputs;

  switch (prop_id)
    {
    case PROP_MMPROJ: g_value_set_string (value, self->mmproj); break;
    case PROP_MMPROJ_PROJECTOR: g_value_set_string (value, self->mmproj_projector); break;
    case PROP_MMPROJ_BYTES: g_value_set_double (value, in->mmproj_bytes); break;
    case PROP_MMPROJ_PARAMETERS: g_value_set_double (value, in->mmproj_parameters); break;
    case PROP_MMPROJ_OFFLOAD: g_value_set_boolean (value, in->mmproj_offload); break;
    case PROP_MMPROJ_COMPUTE_BYTES: g_value_set_double (value, in->mmproj_compute_bytes); break;
    case PROP_MMPROJ_COMPUTE_BYTES_FA: g_value_set_double (value, in->mmproj_compute_bytes_fa); break;
    case PROP_MODEL_WARNING: g_value_set_string (value, self->model_warning); break;
    case PROP_ENCODER_IN_MMPROJ: g_value_set_boolean (value, self->encoder_in_mmproj); break;
    default: g_assert_not_reached ();
    }
}

/* the serving engines' inputs; FALSE for another property */
static gboolean
get_engine_property (const VcInputs *in,
                     guint           prop_id,
                     GValue         *value)
{
  switch (prop_id)
    {
    case PROP_ENGINE: g_value_set_enum (value, in->engine); break;
    case PROP_MEMORY_FRACTION: g_value_set_double (value, in->memory_fraction); break;
    case PROP_BLOCK_SIZE: g_value_set_uint (value, in->block_size); break;
    case PROP_MAX_NUM_BATCHED_TOKENS: g_value_set_uint (value, in->max_num_batched_tokens); break;
    case PROP_MAX_NUM_SEQS: g_value_set_uint (value, in->max_num_seqs); break;
    case PROP_LIMIT_MM_PER_PROMPT: g_value_set_uint (value, in->limit_mm_per_prompt); break;
    case PROP_KV_CACHE_MEMORY: g_value_set_double (value, in->kv_cache_memory_gb); break;
    case PROP_ENGINE_VERSION: g_value_set_enum (value, in->vllm_version); break;
    case PROP_ENFORCE_EAGER: g_value_set_boolean (value, in->enforce_eager); break;
    case PROP_MXFP4_BACKEND: g_value_set_enum (value, in->mxfp4_backend); break;
    case PROP_VLLM_SAMPLER: g_value_set_enum (value, in->vllm_sampler); break;
    case PROP_MM_ENCODER_TP_MODE: g_value_set_enum (value, in->mm_encoder_tp_mode); break;
    case PROP_DISABLE_CUSTOM_ALL_REDUCE: g_value_set_boolean (value, in->disable_custom_all_reduce); break;
    case PROP_MEM_FRACTION_STATIC: g_value_set_double (value, in->mem_fraction_static); break;
    case PROP_SGLANG_VERSION: g_value_set_enum (value, in->sglang_version); break;
    case PROP_PAGE_SIZE: g_value_set_uint (value, in->page_size); break;
    case PROP_N_UBATCH: g_value_set_uint (value, in->n_ubatch); break;
    case PROP_N_BATCH: g_value_set_uint (value, in->n_batch); break;
    case PROP_KV_UNIFIED: g_value_set_boolean (value, in->kv_unified); break;
    case PROP_CACHE_TYPE_K: g_value_set_enum (value, in->cache_type_k); break;
    case PROP_CACHE_TYPE_V: g_value_set_enum (value, in->cache_type_v); break;
    case PROP_MFU: g_value_set_double (value, in->mfu); break;
    default: return FALSE;
    }
  return TRUE;
}

static void
vc_estimate_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  VcEstimate *self = VC_ESTIMATE (object);
  const VcInputs *in = &self->inputs;

  if (prop_id >= FIRST_RESULT && prop_id <= LAST_RESULT)
    {
      ensure_computed (self);
      get_result_property (self, prop_id, value);
      return;
    }

  switch (prop_id)
    {
    case PROP_MODE: g_value_set_enum (value, in->mode); break;
    case PROP_METHOD: g_value_set_enum (value, in->method); break;
    case PROP_MODEL_TYPE: g_value_set_enum (value, in->model_type); break;
    case PROP_PRESET: g_value_set_string (value, self->preset); break;
    case PROP_MODEL_NAME: g_value_set_string (value, self->model_name); break;
    case PROP_PARAMETERS: g_value_set_double (value, in->parameters); break;
    case PROP_ACTIVE_PARAMETERS: g_value_set_double (value, in->active_parameters); break;
    case PROP_PRECISION: g_value_set_enum (value, in->precision); break;
    case PROP_TRAINING_PRECISION: g_value_set_enum (value, in->training_precision); break;
    case PROP_KV_PRECISION: g_value_set_enum (value, in->kv_precision); break;
    case PROP_FINETUNE: g_value_set_enum (value, in->finetune); break;
    case PROP_OPTIMIZER: g_value_set_enum (value, in->optimizer); break;
    case PROP_OPTIMIZER_PRECISION: g_value_set_enum (value, in->optimizer_precision); break;
    case PROP_BATCH: g_value_set_uint (value, in->batch); break;
    case PROP_SEQ: g_value_set_uint (value, in->seq); break;
    case PROP_CONCURRENCY: g_value_set_uint (value, in->concurrency); break;
    case PROP_LORA_RANK: g_value_set_uint (value, in->lora_rank); break;
    case PROP_LORA_PERCENT: g_value_set_double (value, in->lora_percent); break;
    case PROP_LORA_TARGETS: g_value_set_flags (value, in->lora_targets); break;
    case PROP_MIXED_PRECISION: g_value_set_boolean (value, in->mixed_precision); break;
    case PROP_CHECKPOINTING: g_value_set_enum (value, in->checkpointing); break;
    case PROP_FLASH_ATTENTION: g_value_set_boolean (value, in->flash_attention); break;
    case PROP_LOSS: g_value_set_enum (value, in->loss); break;
    case PROP_OPTIMIZER_IMPL: g_value_set_enum (value, in->optimizer_impl); break;
    case PROP_COMPILE: g_value_set_boolean (value, in->compile); break;
    case PROP_TRAIN_EMBEDDINGS: g_value_set_boolean (value, in->train_embeddings); break;
    case PROP_EXPANDABLE_SEGMENTS: g_value_set_boolean (value, in->expandable_segments); break;
    case PROP_TRAINER: g_value_set_enum (value, in->trainer); break;
    case PROP_OPTIMIZER_IN_BACKWARD: g_value_set_boolean (value, in->optimizer_in_backward); break;
    case PROP_PACKING: g_value_set_boolean (value, in->packing); break;
    case PROP_CHECKPOINT_EVERY: g_value_set_uint (value, in->checkpoint_every); break;
    case PROP_OVERHEAD_GB: g_value_set_double (value, in->overhead_gb); break;
    case PROP_TP: g_value_set_uint (value, in->layout.tp); break;
    case PROP_PP: g_value_set_uint (value, in->layout.pp); break;
    case PROP_EP: g_value_set_uint (value, in->layout.ep); break;
    case PROP_DP: g_value_set_uint (value, in->layout.dp); break;
    case PROP_SHARDING: g_value_set_enum (value, in->layout.sharding); break;
    case PROP_OFFLOAD: g_value_set_enum (value, in->layout.offload); break;
    case PROP_GRAD_ACCUM: g_value_set_uint (value, in->layout.grad_accum); break;
    case PROP_CP: g_value_set_uint (value, MAX (1u, in->layout.cp)); break;
    case PROP_GPU_LAYERS: g_value_set_uint (value, in->layout.gpu_layers); break;
    case PROP_EXPERTS_ON_CPU: g_value_set_boolean (value, in->layout.experts_on_cpu); break;
    case PROP_GPUS_PER_NODE: g_value_set_uint (value, in->layout.gpus_per_node); break;
    case PROP_CUSTOM_GPUS: g_value_set_string (value, self->custom_gpus); break;
    case PROP_CHART_GPUS: g_value_set_string (value, self->chart_gpus); break;
    case PROP_GPU_SET: g_value_set_string (value, self->gpu_set); break;
    case PROP_HOST_RAM: g_value_set_string (value, self->host_ram); break;
    case PROP_TENSOR_SPLIT: g_value_set_string (value, self->tensor_split); break;
    case PROP_PP_PARTITION: g_value_set_string (value, self->pp_partition); break;
    case PROP_MAIN_GPU: g_value_set_uint (value, self->main_gpu); break;
    case PROP_SPLIT_MODE: g_value_set_enum (value, self->split_mode); break;
    case PROP_N_CPU_MOE: g_value_set_uint (value, self->n_cpu_moe); break;
    case PROP_SOURCE_FORMAT: g_value_set_string (value, self->source_format); break;
    case PROP_SOURCE_QUANTIZATION: g_value_set_string (value, self->source_quantization); break;
    case PROP_SOURCE_WEIGHTS_BYTES: g_value_set_double (value, in->source_weights_bytes); break;
    case PROP_SOURCE_PARAMETERS: g_value_set_double (value, in->source_parameters); break;
    case PROP_SOURCE_ACTIVE_PARAMETERS: g_value_set_double (value, in->source_active_parameters); break;
    case PROP_SOURCE_PRECISION: g_value_set_enum (value, in->source_precision); break;
    default:
      if (get_engine_property (in, prop_id, value))
        break;
      if (prop_id >= PROP_ARCH_0 && prop_id < PROP_ARCH_0 + n_arch_fields)
        get_arch_property (in, prop_id, value);
      else if (prop_id >= PROP_MMPROJ && prop_id <= PROP_ENCODER_IN_MMPROJ)
        get_mmproj_property (self, prop_id, value);
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
vc_estimate_finalize (GObject *object)
{
  VcEstimate *self = VC_ESTIMATE (object);

  g_clear_handle_id (&self->idle_id, g_source_remove);
  g_clear_error (&self->invalid);
  g_clear_object (&self->breakdown);
  g_free (self->fits);
  g_free (self->custom_gpus);
  g_clear_pointer (&self->user_gpus, g_array_unref);
  g_free (self->chart_gpus);
  g_free (self->gpu_set);
  g_clear_pointer (&self->set, vc_gpu_set_free);
  g_free (self->host_ram);
  g_free (self->tensor_split);
  g_free (self->pp_partition);
  g_free (self->solutions);
  vc_solver_memo_free (self->solver_memo);
  g_free (self->solved);
  g_free (self->preset);
  g_free (self->model_name);
  g_strfreev (self->model_not_understood);
  g_clear_pointer (&self->inputs.source_inventory, vc_inventory_unref);
  g_free (self->source_format);
  g_free (self->source_quantization);
  g_free (self->mmproj);
  g_free (self->mmproj_projector);
  g_free (self->model_warning);
  G_OBJECT_CLASS (vc_estimate_parent_class)->finalize (object);
}

#define RW (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS)
#define RO (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS)

/* What the model is and how it is stored. */
static void
install_model_inputs (const VcInputs *d)
{
  properties[PROP_MODE] =
    g_param_spec_enum ("mode", N_("Mode"), N_("What to estimate (default: inference)"),
                       VC_TYPE_MODE, d->mode, RW);
  properties[PROP_METHOD] =
    g_param_spec_enum ("method", N_("Method"), N_("By parameter count (the counts only) or by architecture"),
                       VC_TYPE_METHOD, d->method, RW);
  properties[PROP_MODEL_TYPE] =
    g_param_spec_enum ("model-type", N_("Model type"), N_("By parameter count (rule-of-thumb): dense or mixture of experts"),
                       VC_TYPE_MODEL_TYPE, d->model_type, RW);
  properties[PROP_PRESET] =
    g_param_spec_string ("preset", N_("Preset"), N_("Id of the built-in model, or empty for a custom model"),
                         "", RW);
  properties[PROP_MODEL_NAME] =
    g_param_spec_string ("model-name", N_("Model name"), N_("Name of a custom or imported model"),
                         "", RW);
  properties[PROP_PARAMETERS] =
    g_param_spec_double ("parameters", N_("Parameters"), N_("Total parameters: 7B, 124M, 1.5T, 7e9"),
                         1e3, VC_MAX_PARAMETERS, d->parameters, RW);
  properties[PROP_ACTIVE_PARAMETERS] =
    g_param_spec_double ("active-parameters", N_("Activated parameters"),
                         N_("MoE: parameters activated per token"),
                         0, VC_MAX_PARAMETERS, d->active_parameters, RW);
  properties[PROP_PRECISION] =
    g_param_spec_enum ("precision", N_("Precision"), N_("Weights or parameters: fp32, fp16 or bf16; inference also fp8, int8, int4, llama.cpp's GGUF recipes (q8_0, q6_k, q5_k_m, q4_k_m, q3_k_m, q2_k, iq4_xs) and gptq-int4, awq-int4, mxfp4, nf4"),
                       VC_TYPE_PRECISION, d->precision, RW);
  properties[PROP_TRAINING_PRECISION] =
    g_param_spec_enum ("training-precision", N_("Training precision"),
                       N_("Parameters of a training run, whatever the mode estimated (default bf16)"),
                       VC_TYPE_TRAINING_PRECISION, d->training_precision, RW);
  properties[PROP_KV_PRECISION] =
    g_param_spec_enum ("kv-precision", N_("KV cache precision"), N_("KV cache precision"),
                       VC_TYPE_PRECISION, d->kv_precision, RW);
  properties[PROP_FINETUNE] =
    g_param_spec_enum ("finetune", N_("Fine-tuning method"), N_("Full, LoRA, QLoRA 8-bit or QLoRA 4-bit"),
                       VC_TYPE_FINETUNE, d->finetune, RW);
  properties[PROP_OPTIMIZER] =
    g_param_spec_enum ("optimizer", N_("Optimizer"), N_("Optimizer: adamw, adam, sgd, sgd-momentum, rmsprop, adamw-8bit or paged-adamw-8bit"), VC_TYPE_OPTIMIZER, d->optimizer, RW);
  properties[PROP_OPTIMIZER_PRECISION] =
    g_param_spec_enum ("optimizer-precision", N_("Optimizer state precision"),
                       N_("Optimizer state precision: fp32 (default) or bf16 (pure-bf16 trainers such as torchtune, LitGPT)"),
                       VC_TYPE_STATE_PRECISION, d->optimizer_precision, RW);
}

/* How it runs: batch, sequences, fine-tuning and attention choices. */
static void
install_run_inputs (const VcInputs *d)
{
  properties[PROP_BATCH] =
    g_param_spec_uint ("batch", N_("Batch size"), N_("Batch size (default 1)"), 1, VC_MAX_BATCH, d->batch, RW);
  properties[PROP_SEQ] =
    g_param_spec_uint ("seq", N_("Sequence length"), N_("Sequence length in tokens, input and output (default 2048)"),
                       1, VC_MAX_SEQ, d->seq, RW);
  properties[PROP_CONCURRENCY] =
    g_param_spec_uint ("concurrency", N_("Concurrency"), N_("Inference: requests served at once (default 1)"),
                       1, VC_MAX_CONCURRENCY, d->concurrency, RW);
  properties[PROP_LORA_RANK] =
    g_param_spec_uint ("lora-rank", N_("LoRA rank"), N_("Architecture: LoRA rank (default 16)"),
                       1, 65536, d->lora_rank, RW);
  properties[PROP_LORA_PERCENT] =
    g_param_spec_double ("lora-percent", N_("LoRA trainable share"),
                         N_("By parameter count (rule-of-thumb): trainable share in percent (default 1)"),
                         0.001, 100, d->lora_percent, RW);
  properties[PROP_LORA_TARGETS] =
    g_param_spec_flags ("lora-targets", N_("LoRA target modules"), N_("q,k,v,o,gate,up,down or all-linear (default)"),
                        VC_TYPE_LORA_TARGETS, d->lora_targets, RW);
  properties[PROP_MIXED_PRECISION] =
    g_param_spec_boolean ("mixed-precision", N_("Mixed precision"),
                          N_("Keep an fp32 master copy of the trainable weights"), d->mixed_precision, RW);
  properties[PROP_CHECKPOINTING] =
    g_param_spec_enum ("checkpointing", N_("Gradient checkpointing"), N_("None, √L segments, every layer, or torchtitan’s selective: per operator, or every N-th layer"),
                       VC_TYPE_CHECKPOINTING, d->checkpointing, RW);
  properties[PROP_FLASH_ATTENTION] =
    g_param_spec_boolean ("flash-attention", N_("Flash attention"),
                          N_("Fused attention that never stores the s × s scores"), d->flash_attention, RW);
  properties[PROP_LOSS] =
    g_param_spec_enum ("loss", N_("Loss"), N_("Training: cross-entropy on full logits, in chunks (torchtune), fused with the head (Liger), cut cross-entropy (no logits stored), or auto: the trainer’s own default"),
                       VC_TYPE_LOSS, d->loss, RW);
  properties[PROP_OPTIMIZER_IMPL] =
    g_param_spec_enum ("optimizer-impl", N_("Optimizer implementation"), N_("Training: how torch.optim steps Adam, AdamW and RMSprop: foreach (one state-sized temporary at the step), fused (none), or auto: the trainer’s own (foreach for generic, hf, trl, llamafactory and unsloth; fused for axolotl, torchtitan and torchtune)"),
                       VC_TYPE_OPTIMIZER_IMPL, d->optimizer_impl, RW);
  properties[PROP_COMPILE] =
    g_param_spec_boolean ("compile", N_("torch.compile"),
                          N_("Training compiled with torch.compile: fused operations keep fewer activations"),
                          d->compile, RW);
  properties[PROP_TRAIN_EMBEDDINGS] =
    g_param_spec_boolean ("train-embeddings", N_("Train embeddings"),
                          N_("LoRA/QLoRA: the token embedding trains too (PEFT modules_to_save)"),
                          d->train_embeddings, RW);
  properties[PROP_EXPANDABLE_SEGMENTS] =
    g_param_spec_boolean ("expandable-segments", N_("Expandable segments"),
                          N_("PyTorch's allocator grows one segment per pool (PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True) instead of reserving a segment per large tensor"),
                          d->expandable_segments, RW);
  properties[PROP_TRAINER] =
    g_param_spec_enum ("trainer", N_("Trainer"),
                       N_("Training: the framework whose habits are followed (default: generic)"),
                       VC_TYPE_TRAINER, d->trainer, RW);
  properties[PROP_OPTIMIZER_IN_BACKWARD] =
    g_param_spec_boolean ("optimizer-in-backward", N_("Optimizer step in backward"),
                          N_("Each parameter's optimizer step runs as soon as its gradient is ready, which is then freed (torchtune's optimizer_in_bwd): one gradient alive instead of all"),
                          d->optimizer_in_backward, RW);
  properties[PROP_PACKING] =
    g_param_spec_boolean ("packing", N_("Sequence packing"),
                          N_("Training: samples packed to the sequence length; torchtune adds its block-causal mask and positions, torchtitan always packs (nothing changes)"),
                          d->packing, RW);
  properties[PROP_CHECKPOINT_EVERY] =
    g_param_spec_uint ("checkpoint-every", N_("Checkpoint every N layers"),
                       N_("Training, --checkpointing selective-layers: every N-th layer checkpointed, the others keep all they save (torchtitan's selective_ac_option = N) (default 2)"),
                       1, 1000, d->checkpoint_every, RW);
}

/* Whose memory arithmetic, and the speed model's utilization. */
static void
install_engine_inputs (const VcInputs *d)
{
  properties[PROP_OVERHEAD_GB] =
    g_param_spec_double ("overhead-gb", N_("Overhead (GB)"),
                         N_("Per-GPU overhead in GB (default 2 by parameter count, 1 by architecture)"),
                         -1, 10000, d->overhead_gb, RW);
  properties[PROP_ENGINE] =
    g_param_spec_enum ("engine", N_("Engine"),
                       N_("Whose memory arithmetic to follow: generic (default), vllm, sglang, llama.cpp or transformers"),
                       VC_TYPE_ENGINE, d->engine, RW);
  properties[PROP_MEMORY_FRACTION] =
    g_param_spec_double ("memory-fraction", N_("Memory fraction"),
                         N_("vLLM: share of each GPU's memory the engine takes (default 0.9)"),
                         0.05, 1.0, d->memory_fraction, RW);
  properties[PROP_BLOCK_SIZE] =
    g_param_spec_uint ("block-size", N_("Block size"),
                       N_("vLLM: tokens per KV-cache block (default 16; vLLM takes 64 for an MLA model on Hopper)"), 1, 1024, d->block_size, RW);
  /* vLLM's engine arguments of the same names (vllm/engine/arg_utils.py) */
  properties[PROP_MAX_NUM_BATCHED_TOKENS] =
    g_param_spec_uint ("max-num-batched-tokens", N_("Batched tokens"),
                       N_("vLLM: tokens of one step and of the profile run that sizes the cache (default: vLLM's for each card, in its GPU count, fit and KV capacity: 8192 from 70 GiB but on an A100, else 2048; a GPU set takes its first card's; 8192 in the breakdown)"),
                       0, 1048576, d->max_num_batched_tokens, RW);
  properties[PROP_MAX_NUM_SEQS] =
    g_param_spec_uint ("max-num-seqs", N_("Sequences"),
                       N_("vLLM: requests of one step, whose logits the profile run samples (default: vLLM's for each card, in its GPU count, fit and KV capacity: 1024 from 70 GiB but on an A100, else 256; a GPU set takes its first card's; 1024 in the breakdown)"),
                       0, 65536, d->max_num_seqs, RW);
  /* vLLM's --limit-mm-per-prompt for images (vllm/config/multimodal.py, MultiModalConfig) */
  properties[PROP_LIMIT_MM_PER_PROMPT] =
    g_param_spec_uint ("limit-mm-per-prompt", N_("Images per prompt"),
                       N_("vLLM: the most images a prompt may hold (--limit-mm-per-prompt '{\"image\": N}'), which caps the images its profile run passes through the vision encoder at max_num_seqs × N; 0 serves without images (default 999, vLLM's)"),
                       0, 100000, d->limit_mm_per_prompt, RW);
  properties[PROP_KV_CACHE_MEMORY] =
    g_param_spec_double ("kv-cache-memory", N_("KV cache memory (GB)"),
                         N_("vLLM: each GPU's KV cache in GB, in place of what --gpu-memory-utilization leaves"),
                         0, 1e6, d->kv_cache_memory_gb, RW);
  properties[PROP_ENGINE_VERSION] =
    g_param_spec_enum ("engine-version", N_("vLLM version"),
                       N_("vLLM: the release whose memory arithmetic to follow: 0.11 (default: 0.11 to 0.13), 0.14 (0.14 to 0.16, checked on 0.15 and 0.16: as 0.11, and 16-bit MoE experts keep their workspace; its sorting sampler is an upper bound for 0.20 and for later releases with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0, which are not checked), 0.17 (0.17 to 0.19, checked on 0.17, 0.18 and 0.19: as 0.14, with no sort at the profile run), 0.10 (before 0.11: one GPU a model) or 0.21 (0.21 and later: with --enforce-eager or --kv-cache-memory)"),
                       VC_TYPE_VLLM_VERSION, d->vllm_version, RW);
  properties[PROP_ENFORCE_EAGER] =
    g_param_spec_boolean ("enforce-eager", N_("Eager mode"),
                          N_("vLLM --enforce-eager: no CUDA graphs, so none measured or kept"),
                          d->enforce_eager, RW);
  properties[PROP_MXFP4_BACKEND] =
    g_param_spec_enum ("mxfp4-backend", N_("MXFP4 backend"),
                       N_("vLLM: the backend of MXFP4 experts (gpt-oss): auto (the one vLLM picks from the card: Marlin on compute capability 8.x, Triton's kernels on 9.x from release 0.14), marlin (VLLM_MXFP4_USE_MARLIN=1, Marlin on every card of compute capability 8.0 or more) or triton (Triton's kernels, which vLLM takes on compute capability 9.x wherever triton_kernels is installed)"),
                       VC_TYPE_MXFP4_BACKEND, d->mxfp4_backend, RW);
  /* the sampler of vLLM's profile run (FORMULAS.md, "the profile run's sampler") */
  properties[PROP_VLLM_SAMPLER] =
    g_param_spec_enum ("vllm-sampler", N_("vLLM sampler"),
                       N_("vLLM: the top-k/top-p sampler its profile run takes: sort (default: PyTorch's, which sorts the vocabulary, 38 bytes a logit, but from release 0.17 (--engine-version 0.17) masks 8 requests or more with a Triton kernel, 14 bytes a logit; VLLM_USE_FLASHINFER_SAMPLER=0) or flashinfer (FlashInfer's, 14 bytes a logit: VLLM_USE_FLASHINFER_SAMPLER=1, and vLLM 0.11.0 and earlier wherever FlashInfer is installed, as in vLLM's container images)"),
                       VC_TYPE_VLLM_SAMPLER, d->vllm_sampler, RW);
  properties[PROP_MM_ENCODER_TP_MODE] =
    g_param_spec_enum ("mm-encoder-tp-mode", N_("Encoder under TP"),
                       N_("vLLM --mm-encoder-tp-mode: weights (default: the vision encoder’s parallel layers divided over the tensor-parallel ranks) or data (the encoder whole on every rank, the images split; Llama 4, Qwen3-VL)"),
                       VC_TYPE_MM_ENCODER_TP_MODE, d->mm_encoder_tp_mode, RW);
  properties[PROP_DISABLE_CUSTOM_ALL_REDUCE] =
    g_param_spec_boolean ("disable-custom-all-reduce", N_("No custom all-reduce"),
                          N_("vLLM and SGLang --disable-custom-all-reduce: NCCL alone, without the custom all-reduce’s buffers on each GPU at TP 2, 4, 6 or 8"),
                          d->disable_custom_all_reduce, RW);
  properties[PROP_MEM_FRACTION_STATIC] =
    g_param_spec_double ("mem-fraction-static", N_("Static memory fraction"),
                         N_("SGLang: --mem-fraction-static, share of each GPU's memory for weights and KV cache (default: SGLang's for the card and TP degree)"),
                         0, 1.0, d->mem_fraction_static, RW);
  properties[PROP_SGLANG_VERSION] =
    g_param_spec_enum ("sglang-version", N_("SGLang version"),
                       N_("SGLang: the source whose pool rules to follow for models with linear-attention or state-space layers: 001ccef (default: ModelRunnerKVCacheMixin, sgl-project/sglang commit 001ccef) or 003fca8 (KVCacheConfigurator: a padding slot in the Mamba pool, the running requests at most a fifth of it)"),
                       VC_TYPE_SGLANG_VERSION, d->sglang_version, RW);
  properties[PROP_PAGE_SIZE] =
    g_param_spec_uint ("page-size", N_("Page size"),
                       N_("SGLang: tokens per KV-cache page (default 1)"), 1, 1024, d->page_size, RW);
  properties[PROP_N_UBATCH] =
    g_param_spec_uint ("n-ubatch", N_("Micro-batch"),
                       N_("llama.cpp/Ollama -ub: micro-batch tokens, which size the compute buffer (default 512; Ollama 512, 1024 past 4096 context tokens, 2048 past 32768)"),
                       0, 1048576, d->n_ubatch, RW);
  properties[PROP_N_BATCH] =
    g_param_spec_uint ("n-batch", N_("Logical batch"),
                       N_("llama.cpp/Ollama -b: logical batch tokens, a cap on the micro-batch (default 2048; Ollama the micro-batch)"),
                       0, 1048576, d->n_batch, RW);
  properties[PROP_KV_UNIFIED] =
    g_param_spec_boolean ("kv-unified", N_("Unified KV cache"),
                          N_("llama.cpp --kv-unified: one KV buffer shared by every sequence rather than one stream each"),
                          d->kv_unified, RW);
  properties[PROP_CACHE_TYPE_K] =
    g_param_spec_enum ("cache-type-k", N_("Key cache type"),
                       N_("llama.cpp/Ollama key cache: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, q5_0, q5_1 (default: the KV precision)"),
                       VC_TYPE_CACHE_TYPE, d->cache_type_k, RW);
  properties[PROP_CACHE_TYPE_V] =
    g_param_spec_enum ("cache-type-v", N_("Value cache type"),
                       N_("llama.cpp/Ollama value cache, as --cache-type-k; a quantized one needs flash attention"),
                       VC_TYPE_CACHE_TYPE, d->cache_type_v, RW);
  properties[PROP_MFU] =
    g_param_spec_double ("mfu", N_("Model FLOPs utilization"),
                         N_("Training: model FLOPs utilization for the step time (default 0.4)"),
                         0.01, 1.0, d->mfu, RW);
}

/* How the GPUs share the model: parallelism, sharding and offload. */
static void
install_layout_inputs (const VcInputs *d)
{
  properties[PROP_TP] =
    g_param_spec_uint ("tp", N_("Tensor parallel"),
                       N_("Inference: tensor parallel GPUs; must divide the attention heads (default 1)"),
                       1, 1024, d->layout.tp, RW);
  properties[PROP_PP] =
    g_param_spec_uint ("pp", N_("Pipeline parallel"), N_("Inference: pipeline stages; at most the layer count (default 1)"),
                       1, 100000, d->layout.pp, RW);
  properties[PROP_EP] =
    g_param_spec_uint ("ep", N_("Expert parallel"), N_("Inference, MoE: expert parallel GPUs; must divide the experts and TP × DP (default 1)"),
                       1, 100000, d->layout.ep, RW);
  properties[PROP_DP] =
    g_param_spec_uint ("dp", N_("Data parallel"),
                       N_("Data-parallel replicas (inference) or GPUs sharing the batch (training) (default 1)"),
                       1, 100000, d->layout.dp, RW);
  properties[PROP_SHARDING] =
    g_param_spec_enum ("sharding", N_("Sharding"), N_("Training: DDP (none), DeepSpeed ZeRO stage or FSDP strategy"),
                       VC_TYPE_SHARDING, d->layout.sharding, RW);
  properties[PROP_OFFLOAD] =
    g_param_spec_enum ("offload", N_("CPU offload"), N_("Training, with ZeRO or FSDP: optimizer state (and parameters) in host RAM"),
                       VC_TYPE_OFFLOAD, d->layout.offload, RW);
  properties[PROP_GRAD_ACCUM] =
    g_param_spec_uint ("grad-accum", N_("Gradient accumulation"),
                       N_("Training: gradient accumulation steps; --batch is the micro-batch (default 1)"),
                       1, 1000000, d->layout.grad_accum, RW);
  properties[PROP_CP] =
    g_param_spec_uint ("cp", N_("Context parallel"),
                       N_("Training: context-parallel GPUs splitting each sequence (ring attention, torchtitan); GPUs = DP × CP (default 1)"),
                       1, 100000, d->layout.cp, RW);
  properties[PROP_GPU_LAYERS] =
    g_param_spec_uint ("gpu-layers", N_("Layers on the GPU"),
                       N_("Inference: layers on the GPU as llama.cpp -ngl counts them (the output layer and the last N − 1), the rest in system RAM (0: all, no offload)"),
                       0, 100000, d->layout.gpu_layers, RW);
  properties[PROP_EXPERTS_ON_CPU] =
    g_param_spec_boolean ("experts-on-cpu", N_("Experts in system RAM"),
                          N_("Inference, MoE: routed experts kept in system RAM (llama.cpp --override-tensor exps=CPU)"),
                          d->layout.experts_on_cpu, RW);
  properties[PROP_GPUS_PER_NODE] =
    g_param_spec_uint ("gpus-per-node", N_("GPUs per node"),
                       N_("GPUs in one machine, for layouts and FSDP hybrid (default 8)"),
                       1, 1024, d->layout.gpus_per_node, RW);
}

/* The GPUs added to the catalog and drawn on the chart, and what a model's files
 * said about themselves. */
static void
install_gpu_and_source_inputs (const VcInputs *d)
{
  properties[PROP_CUSTOM_GPUS] =
    g_param_spec_string ("custom-gpus", N_("Custom GPUs"),
                         N_("Cards added to the catalog: NAME=SIZE separated by semicolons; SIZE in GB, or with a GB, GiB or MiB unit"),
                         "", RW);
  properties[PROP_CHART_GPUS] =
    g_param_spec_string ("chart-gpus", N_("Chart GPUs"),
                         N_("The cards the window's memory chart draws a line for: ids or custom GPU names separated by “;” (kept in profiles)"),
                         DEFAULT_CHART_GPUS, RW);
  properties[PROP_GPU_SET] =
    g_param_spec_string ("gpu-set", N_("My GPUs"),
                         N_("My GPUs, the cards each engine plans for: catalog ids or NAME=SIZE cards separated by commas, each optionally /FREE and :COUNT (rtx-3090,rtx-3060-12gb or h100-80gb:8)"),
                         "", RW);
  properties[PROP_HOST_RAM] =
    g_param_spec_string ("host-ram", N_("System memory"),
                         N_("System memory beside My GPUs, in GB or with a GB, GiB or MiB unit (64GB)"),
                         "", RW);
  properties[PROP_TENSOR_SPLIT] =
    g_param_spec_string ("tensor-split", N_("Tensor split"),
                         N_("llama.cpp plan: one ratio per card of --gpus (3,1); default: by free memory"),
                         "", RW);
  properties[PROP_PP_PARTITION] =
    g_param_spec_string ("pp-partition", N_("Layers per stage"),
                         N_("vLLM plan: the layers of each pipeline stage, one card a stage (20,12), as VLLM_PP_LAYER_PARTITION; default: vLLM's even split"),
                         "", RW);
  properties[PROP_MAIN_GPU] =
    g_param_spec_uint ("main-gpu", N_("Main GPU"),
                       N_("llama.cpp plan: the card of --split-mode none, from 0 (default 0)"),
                       0, VC_GPU_SET_MAX - 1, 0, RW);
  properties[PROP_SPLIT_MODE] =
    g_param_spec_enum ("split-mode", N_("Split mode"),
                       N_("llama.cpp plan: layers across the cards (default), or the main GPU alone; row is refused"),
                       VC_TYPE_SPLIT_MODE, VC_SPLIT_MODE_LAYER, RW);
  properties[PROP_N_CPU_MOE] =
    g_param_spec_uint ("n-cpu-moe", N_("Experts in RAM"),
                       N_("llama.cpp plan, MoE: the routed experts of the first N layers in system RAM"),
                       0, 100000, 0, RW);
  properties[PROP_SOURCE_FORMAT] =
    g_param_spec_string ("source-format", N_("Model file format"),
                         N_("What the model was read from: config, safetensors or gguf; empty for a preset or a custom model"),
                         "", RW);
  properties[PROP_SOURCE_QUANTIZATION] =
    g_param_spec_string ("source-quantization", N_("Checkpoint quantization"),
                         N_("How the model's files store their weights (Q4_K_M, BF16, fp8, …)"), "", RW);
  properties[PROP_SOURCE_WEIGHTS_BYTES] =
    g_param_spec_double ("source-weights-bytes", N_("Weights in the model's files"),
                         N_("Exact bytes of the tensors read from the model's files, used at their own precision (0: none)"),
                         0, 1e18, d->source_weights_bytes, RW);
  properties[PROP_SOURCE_PARAMETERS] =
    g_param_spec_double ("source-parameters", N_("Parameters in the model's files"),
                         N_("Elements of the tensors read from the model's files (0: none)"),
                         0, 1e18, d->source_parameters, RW);
  properties[PROP_SOURCE_ACTIVE_PARAMETERS] =
    g_param_spec_double ("source-active-parameters", N_("Activated parameters in the model's files"),
                         N_("Elements a token goes through, routed experts k of E (0: none)"),
                         0, 1e18, d->source_active_parameters, RW);
  properties[PROP_SOURCE_PRECISION] =
    g_param_spec_enum ("source-precision", N_("Checkpoint precision"),
                       N_("The weight precision whose figures the model's tensors replace"),
                       VC_TYPE_PRECISION, d->source_precision, RW);
  properties[PROP_MMPROJ] =
    g_param_spec_string ("mmproj", N_("Multimodal projector"),
                         N_("llama.cpp --mmproj: the vision or audio encoder's GGUF file, as given (empty: none)"),
                         "", RW);
  properties[PROP_MMPROJ_PROJECTOR] =
    g_param_spec_string ("mmproj-projector", N_("Projector type"),
                         N_("The projector file's clip.projector_type (gemma3, mlp, …; vision+audio for a file of both)"), "", RW);
  properties[PROP_MMPROJ_BYTES] =
    g_param_spec_double ("mmproj-bytes", N_("Weights in the projector file"),
                         N_("Exact bytes of the projector file's tensors (0: no projector)"),
                         0, 1e15, d->mmproj_bytes, RW);
  properties[PROP_MMPROJ_PARAMETERS] =
    g_param_spec_double ("mmproj-parameters", N_("Parameters in the projector file"),
                         N_("Elements of the projector file's tensors"),
                         0, 1e15, d->mmproj_parameters, RW);
  properties[PROP_MMPROJ_OFFLOAD] =
    g_param_spec_boolean ("mmproj-offload", N_("Projector on the GPU"),
                          N_("llama.cpp loads the projector on the GPU unless --no-mmproj-offload, which keeps it in system RAM"),
                          d->mmproj_offload, RW);
  properties[PROP_MMPROJ_COMPUTE_BYTES] =
    g_param_spec_double ("mmproj-compute-bytes", N_("Projector’s compute buffer"),
                         N_("The bytes llama.cpp reserves for the encoder’s graph of its warm-up image without flash attention (0: that graph is not followed)"),
                         0, 1e15, d->mmproj_compute_bytes, RW);
  properties[PROP_MMPROJ_COMPUTE_BYTES_FA] =
    g_param_spec_double ("mmproj-compute-bytes-fa", N_("Projector’s compute buffer with flash attention"),
                         N_("The same with flash attention (0: that graph is not followed)"),
                         0, 1e15, d->mmproj_compute_bytes_fa, RW);
  properties[PROP_MODEL_WARNING] =
    g_param_spec_string ("model-warning", N_("Model file's warning"),
                         N_("What the model's files leave out of the estimate, as their reader says (empty: nothing)"), "", RW);
  properties[PROP_ENCODER_IN_MMPROJ] =
    g_param_spec_boolean ("encoder-in-mmproj", N_("Encoder in a projector file"),
                          N_("The model's file leaves its vision encoder to a separate projector file (llama.cpp's mmproj)"),
                          FALSE, RW);
}

static void
install_results (void)
{
  properties[PROP_MODEL_PARAMETERS] =
    g_param_spec_double ("model-parameters", NULL, NULL, 0, G_MAXDOUBLE, 0, RO);
  properties[PROP_MODEL_ACTIVE_PARAMETERS] =
    g_param_spec_double ("model-active-parameters", NULL, NULL, 0, G_MAXDOUBLE, 0, RO);
  properties[PROP_TRAINABLE_PARAMETERS] =
    g_param_spec_double ("trainable-parameters", NULL, NULL, 0, G_MAXDOUBLE, 0, RO);
  properties[PROP_KV_BYTES_PER_TOKEN] =
    g_param_spec_double ("kv-bytes-per-token", NULL, NULL, -1, G_MAXDOUBLE, -1, RO);
  properties[PROP_TOTAL_BYTES] =
    g_param_spec_double ("total-bytes", NULL, NULL, 0, G_MAXDOUBLE, 0, RO);
  /* what PyTorch's caching allocator reserves (training, architecture method); -1: not modelled */
  properties[PROP_RESERVED_BYTES] =
    g_param_spec_double ("reserved-bytes", NULL, NULL, -1, G_MAXDOUBLE, -1, RO);
  properties[PROP_SCENARIO] =
    g_param_spec_enum ("scenario", NULL, NULL, VC_TYPE_SCENARIO, VC_SCENARIO_INFERENCE_16BIT, RO);
  properties[PROP_PEAK_PHASE] =
    g_param_spec_enum ("peak-phase", NULL, NULL, VC_TYPE_PHASE, VC_PHASE_NONE, RO);
  properties[PROP_OVERHEAD_BYTES] =
    g_param_spec_double ("overhead-bytes", NULL, NULL, 0, G_MAXDOUBLE, 0, RO);
  /* what an imported model holds that the estimate does not understand (an approximate
   * estimate); empty when exact */
  properties[PROP_MODEL_NOT_UNDERSTOOD] =
    g_param_spec_boxed ("model-not-understood", NULL, NULL, G_TYPE_STRV, RO);
}

/* one input per field of the architecture table */
static void
install_arch_inputs (void)
{
  for (guint i = 0; i < n_arch_fields; i++)
    {
      const VcArchField *f = &arch_fields[i];
      GParamSpec *pspec;

      if (f->type == VC_ARCH_FIELD_BOOL)
        pspec = g_param_spec_boolean (f->name, f->nick, f->blurb, f->default_value,
                                      RW);
      else if (f->type == VC_ARCH_FIELD_NORM)
        pspec = g_param_spec_enum (f->name, f->nick, f->blurb, VC_TYPE_NORM, f->default_value,
                                   RW);
      else
        pspec = g_param_spec_uint (f->name, f->nick, f->blurb, f->min, f->max, f->default_value,
                                   RW);
      properties[PROP_ARCH_0 + i] = pspec;
    }
}

static void
vc_estimate_class_init (VcEstimateClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  VcInputs d;

  vc_inputs_init_default (&d);
  object_class->finalize = vc_estimate_finalize;
  object_class->get_property = vc_estimate_get_property;
  object_class->set_property = vc_estimate_set_property;

  arch_fields = vc_arch_fields (&n_arch_fields);
  n_properties = PROP_ARCH_0 + n_arch_fields;
  properties = g_new0 (GParamSpec *, n_properties);
  install_model_inputs (&d);
  install_run_inputs (&d);
  install_engine_inputs (&d);
  install_layout_inputs (&d);
  install_gpu_and_source_inputs (&d);
  install_results ();
  install_arch_inputs ();
  g_object_class_install_properties (object_class, n_properties, properties);

  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * VcEstimate::inputs-replaced:
   *
   * The inputs were replaced as a whole by vc_estimate_copy_inputs() (a profile opened, a new
   * profile). Emitted once the new values are in, before the notifications of the properties
   * they changed: a view that keeps something of the inputs aside learns here that what it
   * kept belongs to inputs no longer shown, before it reacts to the changes.
   */
  signals[INPUTS_REPLACED] = g_signal_new ("inputs-replaced", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                           0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
vc_estimate_init (VcEstimate *self)
{
  vc_inputs_init_default (&self->inputs);
  self->preset = g_strdup ("");
  self->model_name = g_strdup ("");
  self->model_not_understood = g_new0 (char *, 1);
  self->source_format = g_strdup ("");
  self->source_quantization = g_strdup ("");
  self->mmproj = g_strdup ("");
  self->mmproj_projector = g_strdup ("");
  self->model_warning = g_strdup ("");
  self->custom_gpus = g_strdup ("");
  self->chart_gpus = g_strdup (DEFAULT_CHART_GPUS);
  self->gpu_set = g_strdup ("");
  self->set = vc_gpu_set_new ();
  self->host_ram = g_strdup ("");
  self->tensor_split = g_strdup ("");
  self->pp_partition = g_strdup ("");
  self->user_gpus = vc_custom_gpus_parse ("", NULL);
  self->breakdown = g_list_store_new (VC_TYPE_COMPONENT_ROW);
  recompute (self);
}

/**
 * vc_estimate_set_mmproj_file:
 * @file: (nullable): a multimodal projector GGUF (llama.cpp's --mmproj); %NULL: none
 * @shown: (nullable): how the file is named back (the path as given); %NULL: its parse name
 *
 * Reads the projector's header (vc-mmproj.h) and sets mmproj, mmproj-projector, mmproj-bytes,
 * mmproj-parameters and the compute buffers; on an error nothing changes.
 */
gboolean
vc_estimate_set_mmproj_file (VcEstimate  *self,
                             GFile       *file,
                             const char  *shown,
                             GError     **error)
{
  g_auto(VcMmproj) m = { 0 };
  g_autofree char *name = NULL;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);
  if (file == NULL)
    {
      g_object_set (self, "mmproj", "", "mmproj-projector", "", "mmproj-bytes", 0.0, "mmproj-parameters", 0.0,
                    "mmproj-compute-bytes", 0.0, "mmproj-compute-bytes-fa", 0.0, NULL);
      return TRUE;
    }
  if (!vc_mmproj_read (&m, file, NULL, error))
    return FALSE;
  name = shown ? g_strdup (shown) : g_file_get_parse_name (file);
  g_object_set (self, "mmproj", name, "mmproj-projector", m.projector, "mmproj-bytes", (double) m.bytes,
                "mmproj-parameters", (double) m.elements, "mmproj-compute-bytes", (double) m.compute_bytes,
                "mmproj-compute-bytes-fa", (double) m.compute_bytes_fa, NULL);
  return TRUE;
}

/* the projector file as given ("" none) */
const char *
vc_estimate_get_mmproj (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), "");
  return self->mmproj;
}

/**
 * vc_estimate_dup_warnings:
 *
 * What the estimate leaves out, to be said beside it (stderr, the window's model note, JSON
 * `warnings`): the model file's warning, unless the projector file it names is given, and with a
 * projector on the GPU whose graph is not followed, that clip's compute buffer is not counted.
 *
 * Returns: (transfer full): a %NULL-terminated list, empty when there is nothing to say
 */
char **
vc_estimate_dup_warnings (VcEstimate *self)
{
  g_autoptr(GStrvBuilder) b = g_strv_builder_new ();
  const VcInputs *in;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  in = &self->inputs;
  if (*self->model_warning != '\0' && !(self->encoder_in_mmproj && in->mmproj_bytes > 0))
    g_strv_builder_add (b, self->model_warning);
  if (vc_engine_rope_table_assumed (in))
    {
      guint rows, dim;
      g_autofree char *text = NULL;

      vc_engine_rope_table_shape (in, &rows, &dim);
      text = g_strdup_printf (_("The architecture is typed in: the RoPE cos/sin table the engine builds on each "
                                "GPU is taken as a Llama-shaped model’s, one plain table of %u positions × %u "
                                "rotary dimensions; give --rope-table-rows and --rotary-dim if the model’s differs, "
                                "or --rope-table-kind 0 if it has no rotary positions (position_embedding_type "
                                "“nope”, as Granite 4.0-H’s)"),
                              rows, dim);
      g_strv_builder_add (b, text);
    }
  if (vc_inputs_mmproj_on_gpu (in) && !(vc_inputs_mmproj_compute_bytes (in) > 0))
    {
      g_autofree char *w = g_strdup_printf (_("The multimodal projector’s weights are counted on the first GPU, but not its compute buffer: "
                                              "llama.cpp sizes the encoder’s graph when the projector loads (clip.cpp, "
                                              "warm-up, logged as its “compute buffer size”), and the graph of the projector type “%s” "
                                              "is not followed here (it is for gemma3, idefics3, janus_pro, lfm2, qwen2vl_merger, qwen2.5vl_merger, "
                                              "qwen3vl_merger and pixtral)"),
                                            self->mmproj_projector);

      g_strv_builder_add (b, w);
    }
  else if (vc_inputs_mmproj_host_bytes (in) > 0 && !((in->flash_attention ? in->mmproj_compute_bytes_fa
                                                                          : in->mmproj_compute_bytes) > 0))
    {
      g_autofree char *w = g_strdup_printf (_("The multimodal projector’s weights are counted in system memory, but not its compute buffer: "
                                              "llama.cpp sizes the encoder’s graph when the projector loads (clip.cpp, "
                                              "warm-up, logged as its “compute buffer size”), and the graph of the projector type “%s” "
                                              "is not followed here (it is for gemma3, idefics3, janus_pro, lfm2, qwen2vl_merger, qwen2.5vl_merger, "
                                              "qwen3vl_merger and pixtral)"),
                                            self->mmproj_projector);

      g_strv_builder_add (b, w);
    }
  return g_strv_builder_end (b);
}

VcEstimate *
vc_estimate_new (void)
{
  return g_object_new (VC_TYPE_ESTIMATE, NULL);
}

/* ---- public API --------------------------------------------------------------------------- */

const VcInputs *
vc_estimate_get_inputs (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  return &self->inputs;
}

const char *
vc_estimate_get_preset (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  return self->preset;
}

gboolean
vc_estimate_set_preset (VcEstimate  *self,
                        const char  *preset_id,
                        GError     **error)
{
  const VcPreset *preset;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);

  if (preset_id == NULL)
    preset_id = "";
  if (g_strcmp0 (self->preset, preset_id) == 0)
    return TRUE;
  if (*preset_id == '\0')
    {
      g_free (self->preset);
      self->preset = g_strdup ("");
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESET]);
      return TRUE;
    }

  if (!g_utf8_validate (preset_id, -1, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the value given for %s is not UTF-8 text"), "preset");
      return FALSE;
    }
  preset = vc_presets_lookup (preset_id);
  if (preset == NULL)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_UNKNOWN_ID,
                   _("unknown preset “%s”; see vramcalc --list-presets"), preset_id);
      return FALSE;
    }

  g_object_freeze_notify (G_OBJECT (self));
  self->applying_preset = TRUE;
  vc_estimate_set_architecture (self, &preset->arch);
  g_object_set (self,
                "parameters", preset->published_parameters,
                "active-parameters", preset->published_active_parameters,
                "model-type", vc_arch_is_moe (&preset->arch) ? VC_MODEL_TYPE_MOE : VC_MODEL_TYPE_DENSE,
                "model-name", "",
                NULL);
  vc_estimate_set_model_not_understood (self, NULL);
  /* a preset replaces any model read from files */
  g_object_set (self,
                "source-format", "",
                "source-quantization", "",
                "source-weights-bytes", 0.0,
                "source-parameters", 0.0,
                "source-active-parameters", 0.0,
                "model-warning", "",
                "encoder-in-mmproj", FALSE,
                NULL);
  self->applying_preset = FALSE;
  g_free (self->preset);
  self->preset = g_strdup (preset_id);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESET]);
  g_object_thaw_notify (G_OBJECT (self));
  return TRUE;
}

const char *
vc_estimate_get_model_name (VcEstimate *self)
{
  const VcPreset *preset;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  preset = vc_presets_lookup (self->preset);
  if (preset != NULL)
    return preset->name;
  return self->model_name;
}

void
vc_estimate_set_model_name (VcEstimate *self,
                            const char *name)
{
  g_autofree char *valid = NULL;

  g_return_if_fail (VC_IS_ESTIMATE (self));
  if (name == NULL)
    name = "";
  /* what is saved or printed must be UTF-8: other bytes become U+FFFD */
  if (!g_utf8_validate (name, -1, NULL))
    name = valid = g_utf8_make_valid (name, -1);
  if (g_strcmp0 (self->model_name, name) == 0)
    return;
  g_free (self->model_name);
  self->model_name = g_strdup (name);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_NAME]);
}

/* An empty list, never NULL */
const char * const *
vc_estimate_get_model_not_understood (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  return (const char * const *) self->model_not_understood;
}

/* parts: what an imported model holds that the estimate does not understand; NULL or empty when
 * the estimate is exact. A preset clears it. */
void
vc_estimate_set_model_not_understood (VcEstimate         *self,
                                      const char * const *parts)
{
  static const char * const none[] = { NULL };

  g_return_if_fail (VC_IS_ESTIMATE (self));
  if (parts == NULL)
    parts = none;
  if (g_strv_equal ((const char * const *) self->model_not_understood, parts))
    return;
  g_strfreev (self->model_not_understood);
  self->model_not_understood = g_strdupv ((char **) parts);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODEL_NOT_UNDERSTOOD]);
}

/* @value brought into the range of the double property @property. */
double
vc_estimate_clamp_to_range (VcEstimate *self,
                            const char *property,
                            double      value)
{
  GParamSpecDouble *pspec;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), value);
  pspec = G_PARAM_SPEC_DOUBLE (g_object_class_find_property (G_OBJECT_GET_CLASS (self), property));
  return CLAMP (value, pspec->minimum, pspec->maximum);
}

/* A model read from its files, as choosing a preset does: no preset, the architecture, its
 * parameter counts (clamped to the inputs' ranges), the model type, the architecture method
 * and the model's name. */
void
vc_estimate_set_model (VcEstimate   *self,
                       const VcArch *arch,
                       double        parameters,
                       double        active_parameters,
                       const char   *name)
{
  gboolean moe;

  g_return_if_fail (VC_IS_ESTIMATE (self));
  g_return_if_fail (arch != NULL);

  moe = vc_arch_is_moe (arch);
  g_object_freeze_notify (G_OBJECT (self));
  vc_estimate_set_preset (self, "", NULL);
  vc_estimate_set_architecture (self, arch);
  g_object_set (self,
                "parameters", vc_estimate_clamp_to_range (self, "parameters", parameters),
                "active-parameters",
                moe ? vc_estimate_clamp_to_range (self, "active-parameters", active_parameters) : 0.0,
                "model-type", moe ? VC_MODEL_TYPE_MOE : VC_MODEL_TYPE_DENSE,
                "method", VC_METHOD_ARCHITECTURE,
                NULL);
  vc_estimate_set_model_name (self, name);
  g_object_thaw_notify (G_OBJECT (self));
}

/* The model files' tensors (vc-inventory.h), which the layouts partition while the weights
 * are the files' bytes (source-weights-bytes). NULL: none; a profile keeps their bytes only. */
void
vc_estimate_set_source_inventory (VcEstimate  *self,
                                  VcInventory *inventory)
{
  g_return_if_fail (VC_IS_ESTIMATE (self));

  if (self->inputs.source_inventory == inventory)
    return;
  g_clear_pointer (&self->inputs.source_inventory, vc_inventory_unref);
  if (inventory)
    self->inputs.source_inventory = vc_inventory_ref (inventory);
  invalidate (self);
}

VcInventory *
vc_estimate_get_source_inventory (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  return self->inputs.source_inventory;
}

void
vc_estimate_set_architecture (VcEstimate   *self,
                              const VcArch *arch)
{
  g_return_if_fail (VC_IS_ESTIMATE (self));

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < n_arch_fields; i++)
    {
      const VcArchField *f = &arch_fields[i];
      guint v = vc_arch_field_get (arch, f);

      if (vc_arch_field_get (&self->inputs.arch, f) != v)
        {
          vc_arch_field_set (&self->inputs.arch, f, v);
          g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ARCH_0 + i]);
          leave_preset (self);
          invalidate (self);
        }
    }
  g_object_thaw_notify (G_OBJECT (self));
}

GParamSpec **
vc_estimate_list_inputs (guint *n_inputs)
{
  g_autoptr(GPtrArray) list = g_ptr_array_new ();
  g_autoptr(GTypeClass) klass = g_type_class_ref (VC_TYPE_ESTIMATE);

  for (guint i = 1; i < n_properties; i++)
    if (i < FIRST_RESULT || i > LAST_RESULT)
      g_ptr_array_add (list, properties[i]);
  *n_inputs = list->len;
  g_ptr_array_add (list, NULL);
  return (GParamSpec **) g_ptr_array_free (g_steal_pointer (&list), FALSE);
}

static char *
describe_range (GParamSpec *pspec)
{
  if (G_IS_PARAM_SPEC_UINT (pspec))
    return g_strdup_printf (_("a whole number from %u to %u"),
                            G_PARAM_SPEC_UINT (pspec)->minimum, G_PARAM_SPEC_UINT (pspec)->maximum);
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    return g_strdup_printf (_("a number from %g to %g"),
                            G_PARAM_SPEC_DOUBLE (pspec)->minimum, G_PARAM_SPEC_DOUBLE (pspec)->maximum);
  if (G_IS_PARAM_SPEC_ENUM (pspec))
    {
      GEnumClass *klass = G_PARAM_SPEC_ENUM (pspec)->enum_class;
      g_autoptr(GString) s = g_string_new (NULL);

      for (guint i = 0; i < klass->n_values; i++)
        g_string_append_printf (s, "%s%s", i ? ", " : "", klass->values[i].value_nick);
      return g_string_free (g_steal_pointer (&s), FALSE);
    }
  if (G_IS_PARAM_SPEC_FLAGS (pspec))
    {
      GFlagsClass *klass = G_PARAM_SPEC_FLAGS (pspec)->flags_class;
      g_autoptr(GString) s = g_string_new (_("a comma-separated list of "));

      for (guint i = 0; i < klass->n_values; i++)
        g_string_append_printf (s, "%s%s", i ? ", " : "", klass->values[i].value_nick);
      g_string_append (s, _(", or all-linear"));
      return g_string_free (g_steal_pointer (&s), FALSE);
    }
  if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    return g_strdup (_("true or false"));
  return g_strdup (_("text"));
}

gboolean
vc_estimate_set_value (VcEstimate   *self,
                       const char   *property,
                       const GValue *value,
                       GError      **error)
{
  GParamSpec *pspec;
  g_auto(GValue) v = G_VALUE_INIT;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);

  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), property);
  if (pspec == NULL || !(pspec->flags & G_PARAM_WRITABLE))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_UNKNOWN_ID, _("unknown input “%s”"), property);
      return FALSE;
    }
  g_value_init (&v, pspec->value_type);
  if (!g_value_transform (value, &v))
    {
      g_autofree char *accepted = describe_range (pspec);
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("%s has the wrong type; accepted: %s"), property, accepted);
      return FALSE;
    }
  if (G_IS_PARAM_SPEC_STRING (pspec) && g_value_get_string (&v) != NULL &&
      !g_utf8_validate (g_value_get_string (&v), -1, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the value given for %s is not UTF-8 text"), property);
      return FALSE;
    }
  if (G_IS_PARAM_SPEC_DOUBLE (pspec) && !isfinite (g_value_get_double (&v)))
    {
      g_autofree char *accepted = describe_range (pspec);
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("%s is not a finite number; accepted: %s"), property, accepted);
      return FALSE;
    }
  if (g_param_value_validate (pspec, &v))
    {
      g_autofree char *accepted = describe_range (pspec);
      g_autofree char *shown = NULL;

      if (G_VALUE_HOLDS_DOUBLE (value))
        shown = g_strdup_printf ("%g", g_value_get_double (value));
      else if (G_VALUE_HOLDS_UINT (value))
        shown = g_strdup_printf ("%u", g_value_get_uint (value));
      else if (G_VALUE_HOLDS_INT64 (value))
        shown = g_strdup_printf ("%" G_GINT64_FORMAT, g_value_get_int64 (value));
      else
        shown = g_strdup_value_contents (value);
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("%s is out of range for %s; accepted: %s"), shown, property, accepted);
      return FALSE;
    }
  /* -1 stands for the method's default: another negative is no overhead, not the default */
  if (g_str_equal (pspec->name, "overhead-gb") && g_value_get_double (&v) < 0 && g_value_get_double (&v) != -1)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("%g is out of range for overhead-gb; accepted: -1 (the method's default) or 0 to 10000"),
                   g_value_get_double (&v));
      return FALSE;
    }
  if (g_str_equal (pspec->name, "preset"))
    return vc_estimate_set_preset (self, g_value_get_string (&v), error);
  if (g_str_equal (pspec->name, "custom-gpus"))
    return vc_estimate_set_custom_gpus (self, g_value_get_string (&v), error);
  if (g_str_equal (pspec->name, "chart-gpus"))
    return vc_estimate_set_chart_gpus (self, g_value_get_string (&v), error);
  if (g_str_equal (pspec->name, "gpu-set") || g_str_equal (pspec->name, "host-ram") ||
      g_str_equal (pspec->name, "tensor-split") || g_str_equal (pspec->name, "pp-partition"))
    return vc_estimate_set_plan_text (self, pspec->name, g_value_get_string (&v), error);
  g_object_set_property (G_OBJECT (self), pspec->name, &v);
  return TRUE;
}

/* whether every input (as listed by vc_estimate_list_inputs()) is the same in both */
static gboolean
inputs_equal (VcEstimate *a,
              VcEstimate *b,
              gboolean    with_mode)
{
  g_autofree GParamSpec **inputs = NULL;
  guint n;

  inputs = vc_estimate_list_inputs (&n);
  for (guint i = 0; i < n; i++)
    {
      /* the text form is exact: doubles in their shortest round-trip form */
      g_autofree char *ta = vc_estimate_dup_input_string (a, inputs[i]->name);
      g_autofree char *tb = vc_estimate_dup_input_string (b, inputs[i]->name);

      if (!with_mode && inputs[i] == properties[PROP_MODE])
        continue;
      if (!g_str_equal (ta, tb))
        return FALSE;
    }
  return TRUE;
}

gboolean
vc_estimate_inputs_equal (VcEstimate *a,
                          VcEstimate *b)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (a), FALSE);
  g_return_val_if_fail (VC_IS_ESTIMATE (b), FALSE);
  return inputs_equal (a, b, TRUE);
}

/**
 * vc_estimate_edits_equal:
 *
 * Like vc_estimate_inputs_equal(), but the mode, which follows the tab shown, is view state:
 * looking at the other tab is not an edit.
 *
 * Returns: whether every input but the mode is the same in both
 */
gboolean
vc_estimate_edits_equal (VcEstimate *a,
                         VcEstimate *b)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (a), FALSE);
  g_return_val_if_fail (VC_IS_ESTIMATE (b), FALSE);
  return inputs_equal (a, b, FALSE);
}


/**
 * vc_flags_to_nicks:
 * @flags_type: a flags GType
 * @value: flags of that type
 *
 * Returns: (transfer full): the nicks of the flags set in @value, in declaration order; the
 *   form profiles, CSV and vc_estimate_set_from_string() use
 */
GStrv
vc_flags_to_nicks (GType flags_type,
                   guint value)
{
  g_autoptr(GFlagsClass) klass = g_type_class_ref (flags_type);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; i < klass->n_values; i++)
    if ((value & klass->values[i].value) == klass->values[i].value)
      g_strv_builder_add (builder, klass->values[i].value_nick);
  return g_strv_builder_end (builder);
}

/**
 * vc_estimate_dup_input_string:
 * @property: an input's name
 *
 * The inverse of vc_estimate_set_from_string(): enums and flags by their nicks, booleans as
 * true or false, numbers without the locale ('.' decimals, shortest exact form).
 *
 * Returns: (transfer full): the input's value as text
 */
char *
vc_estimate_dup_input_string (VcEstimate *self,
                              const char *property)
{
  GParamSpec *pspec;
  g_auto(GValue) v = G_VALUE_INIT;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), property);
  g_return_val_if_fail (pspec != NULL, NULL);

  g_value_init (&v, pspec->value_type);
  g_object_get_property (G_OBJECT (self), property, &v);
  if (G_IS_PARAM_SPEC_ENUM (pspec))
    return g_strdup (vc_enum_nick (pspec->value_type, g_value_get_enum (&v)));
  if (G_IS_PARAM_SPEC_FLAGS (pspec))
    {
      g_auto(GStrv) nicks = vc_flags_to_nicks (pspec->value_type, g_value_get_flags (&v));
      return g_strjoinv (",", nicks);
    }
  if (G_IS_PARAM_SPEC_BOOLEAN (pspec))
    return g_strdup (g_value_get_boolean (&v) ? "true" : "false");
  if (G_IS_PARAM_SPEC_UINT (pspec))
    return g_strdup_printf ("%u", g_value_get_uint (&v));
  if (G_IS_PARAM_SPEC_DOUBLE (pspec))
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];
      return g_strdup (g_ascii_dtostr (number, sizeof number, g_value_get_double (&v)));
    }
  if (G_IS_PARAM_SPEC_STRING (pspec))
    return g_strdup (g_value_get_string (&v) ? g_value_get_string (&v) : "");
  return g_strdup ("");
}

static gboolean
parse_flags (GFlagsClass *klass,
             const char  *text,
             guint       *out)
{
  g_auto(GStrv) parts = g_strsplit (text, ",", -1);
  g_autofree char *stripped = g_strstrip (g_strdup (text));
  guint flags = 0;

  if (*stripped == '\0')
    return FALSE;
  for (guint i = 0; parts[i]; i++)
    {
      const char *p = g_strstrip (parts[i]);
      GFlagsValue *fv;

      if (g_str_equal (p, "all-linear"))
        {
          flags |= klass->mask;
          continue;
        }
      /* Hugging Face module names are accepted too: q_proj, gate_proj, … */
      {
        g_autofree char *name = g_strdup (p);
        if (g_str_has_suffix (name, "_proj"))
          name[strlen (name) - 5] = '\0';
        fv = g_flags_get_value_by_nick (klass, name);
      }
      if (fv == NULL)
        return FALSE;
      flags |= fv->value;
    }
  *out = flags;
  return TRUE;
}

/* A value refused: not one the input takes, or out of its range (quoting what the user typed) */
static gboolean
value_error (GError     **error,
             GParamSpec  *pspec,
             const char  *property,
             const char  *text,
             gboolean     out_of_range)
{
  g_autofree char *accepted = describe_range (pspec);

  if (out_of_range)
    g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                 _("%s is out of range for %s; accepted: %s"), text, property, accepted);
  else
    g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                 _("“%s” is not valid for %s; accepted: %s"), text, property, accepted);
  return FALSE;
}

/* An enum's nick, flags' nicks or a boolean word into @v; FALSE when @text is none of them. */
static gboolean
choice_from_text (GParamSpec *pspec,
                  const char *text,
                  GValue     *v)
{
  if (G_IS_PARAM_SPEC_ENUM (pspec))
    {
      GEnumValue *ev = g_enum_get_value_by_nick (G_PARAM_SPEC_ENUM (pspec)->enum_class, text);

      if (ev == NULL)
        return FALSE;
      g_value_init (v, pspec->value_type);
      g_value_set_enum (v, ev->value);
      return TRUE;
    }
  if (G_IS_PARAM_SPEC_FLAGS (pspec))
    {
      guint flags;

      if (!parse_flags (G_PARAM_SPEC_FLAGS (pspec)->flags_class, text, &flags) || flags == 0)
        return FALSE;
      g_value_init (v, pspec->value_type);
      g_value_set_flags (v, flags);
      return TRUE;
    }
  g_value_init (v, G_TYPE_BOOLEAN);
  if (g_ascii_strcasecmp (text, "true") == 0 || g_ascii_strcasecmp (text, "yes") == 0 ||
      g_str_equal (text, "1"))
    g_value_set_boolean (v, TRUE);
  else if (g_ascii_strcasecmp (text, "false") == 0 || g_ascii_strcasecmp (text, "no") == 0 ||
           g_str_equal (text, "0"))
    g_value_set_boolean (v, FALSE);
  else
    return FALSE;
  return TRUE;
}

/* A count or a number into @v, in the property's range. */
static gboolean
number_from_text (GParamSpec  *pspec,
                  const char  *property,
                  const char  *text,
                  GValue      *v,
                  GError     **error)
{
  g_autoptr(GError) local = NULL;
  gboolean counts = G_IS_PARAM_SPEC_UINT (pspec) || g_str_has_suffix (property, "parameters");
  double d;

  if (!(counts ? vc_parse_count (text, &d, &local) : vc_parse_number (text, &d, &local)))
    return value_error (error, pspec, property, text, FALSE);
  if (G_IS_PARAM_SPEC_UINT (pspec))
    {
      if (d != floor (d) || d < 0 || d > G_MAXUINT)
        return value_error (error, pspec, property, text, TRUE);
      g_value_init (v, G_TYPE_UINT);
      g_value_set_uint (v, (guint) d);
    }
  else
    {
      g_value_init (v, G_TYPE_DOUBLE);
      g_value_set_double (v, d);
    }
  if (g_param_value_validate (pspec, v))
    return value_error (error, pspec, property, text, TRUE);
  return TRUE;
}

gboolean
vc_estimate_set_from_string (VcEstimate  *self,
                             const char  *property,
                             const char  *text,
                             GError     **error)
{
  GParamSpec *pspec;
  g_auto(GValue) v = G_VALUE_INIT;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);

  pspec = g_object_class_find_property (G_OBJECT_GET_CLASS (self), property);
  if (pspec == NULL || !(pspec->flags & G_PARAM_WRITABLE))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_UNKNOWN_ID, _("unknown input “%s”"), property);
      return FALSE;
    }
  if (text == NULL)
    text = "";
  /* every text input is UTF-8: what is saved must reopen, what is printed must be text */
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the value given for %s is not UTF-8 text"), property);
      return FALSE;
    }

  if (G_IS_PARAM_SPEC_ENUM (pspec) || G_IS_PARAM_SPEC_FLAGS (pspec) || G_IS_PARAM_SPEC_BOOLEAN (pspec))
    {
      if (!choice_from_text (pspec, text, &v))
        return value_error (error, pspec, property, text, FALSE);
    }
  else if (G_IS_PARAM_SPEC_UINT (pspec) || G_IS_PARAM_SPEC_DOUBLE (pspec))
    {
      if (!number_from_text (pspec, property, text, &v, error))
        return FALSE;
    }
  else
    {
      g_value_init (&v, G_TYPE_STRING);
      g_value_set_string (&v, text);
    }
  return vc_estimate_set_value (self, property, &v, error);
}

/* The model file's figures (source-*), as an import sets them or as a profile was edited: a
 * known format, weights and parameters together, and an architecture that describes the same
 * model, so that no figure is shown for another model. */
static gboolean
check_source (VcEstimate  *self,
              GError     **error)
{
  const VcInputs *in = &self->inputs;
  static const char *const formats[] = { "", "config", "safetensors", "gguf", NULL };
  gboolean figures = in->source_weights_bytes > 0 || in->source_parameters > 0 || in->source_active_parameters > 0;

  if (!g_strv_contains (formats, self->source_format))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("source-format “%s” is not known; accepted: config, safetensors, gguf, or empty"), self->source_format);
      return FALSE;
    }
  if (!figures)
    return TRUE;
  if (*self->source_format == '\0' || !(in->source_weights_bytes > 0) || !(in->source_parameters > 0))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("source-weights-bytes and source-parameters go together, with a source-format"));
      return FALSE;
    }
  if (in->source_active_parameters > in->source_parameters)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("source-active-parameters (%g) cannot exceed source-parameters (%g)"),
                   in->source_active_parameters, in->source_parameters);
      return FALSE;
    }
  /* from ternary weights (1.58 bits) to fp64 */
  if (in->source_weights_bytes * 8 < in->source_parameters || in->source_weights_bytes > 8 * in->source_parameters)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("source-weights-bytes (%g) for %g parameters is not 1 to 64 bits a parameter"),
                   in->source_weights_bytes, in->source_parameters);
      return FALSE;
    }
  if (in->method == VC_METHOD_ARCHITECTURE)
    {
      VcParamCounts counts;

      vc_arch_count_params (&in->arch, &counts);
      if (counts.total > 1.1 * in->source_parameters || counts.total < in->source_parameters / 1.1)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                       _("the architecture describes %.4g parameters, the model's files %.4g: the file's figures would be shown for another model"),
                       counts.total, in->source_parameters);
          return FALSE;
        }
    }
  return TRUE;
}

/* What Ollama cannot be told (check_llama_cpp): two cache types, or one it reads as f16
 * (vc_engine_ollama_kv_type()); a type llama.cpp has not is llama.cpp's refusal */
static gboolean
check_ollama (const VcInputs  *in,
              GError         **error)
{
  const char *k = vc_engine_ollama_cache_name (in->cache_type_k, in->kv_precision);
  const char *v = vc_engine_ollama_cache_name (in->cache_type_v, in->kv_precision);

  if (in->engine != VC_ENGINE_OLLAMA || in->method != VC_METHOD_ARCHITECTURE || k == NULL || v == NULL ||
      vc_engine_ollama_kv_type (in) != NULL)
    return TRUE;
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
               _("Ollama takes one KV cache type for keys and values alike (OLLAMA_KV_CACHE_TYPE), f16, q8_0 or "
                 "q4_0, and reads any other as f16; here keys %s and values %s"),
               k, v);
  return FALSE;
}

/* What llama.cpp refuses (check_engine) */
static gboolean
check_llama_cpp (const VcInputs  *in,
                 GError         **error)
{
  if (!check_ollama (in, error))
    return FALSE;
  if (vc_engine_is_llama_cpp (in) && (double) in->batch * in->concurrency > 256)
    {
      /* src/llama-context.cpp: "n_seq_max must be <= LLAMA_MAX_SEQ" (src/llama-cparams.h: 256) */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("llama.cpp serves at most 256 sequences at once; batch × concurrency is %.0f"),
                   (double) in->batch * in->concurrency);
      return FALSE;
    }
  if (vc_engine_is_llama_cpp (in) && in->method == VC_METHOD_ARCHITECTURE &&
      (vc_engine_cache_type_name (in->cache_type_k, in->kv_precision) == NULL ||
       vc_engine_cache_type_name (in->cache_type_v, in->kv_precision) == NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("llama.cpp has no %s KV cache; accepted: fp32, fp16, bf16, int8 (q8_0), int4 (q4_0), "
                     "or a type of --cache-type-k/-v"),
                   vc_enum_nick (VC_TYPE_PRECISION, in->kv_precision));
      return FALSE;
    }
  if (vc_engine_is_llama_cpp (in) && !in->flash_attention &&
      vc_engine_cache_type_is_quantized (in->cache_type_v, in->kv_precision))
    {
      /* src/llama-context.cpp: "quantized V cache was requested, but this requires Flash
       * Attention" */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("llama.cpp refuses a quantized V cache without flash attention; "
                     "turn flash attention on, or keep the value cache in f16, bf16 or f32"));
      return FALSE;
    }
  if (vc_engine_is_llama_cpp (in) && in->method == VC_METHOD_ARCHITECTURE && vc_arch_is_mla (&in->arch) &&
      g_strcmp0 (vc_engine_cache_type_name (in->cache_type_k, in->kv_precision),
                 vc_engine_cache_type_name (in->cache_type_v, in->kv_precision)) != 0)
    {
      /* src/llama-context.cpp, llama_init_from_model */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("llama.cpp refuses different key and value cache types for a model with latent attention"));
      return FALSE;
    }
  if (vc_engine_is_llama_cpp (in) && in->method == VC_METHOD_ARCHITECTURE && in->flash_attention &&
      !vc_arch_is_mla (&in->arch) && vc_arch_head_dim (&in->arch) % 32 != 0 &&
      (vc_engine_cache_type_is_quantized (in->cache_type_k, in->kv_precision) ||
       vc_engine_cache_type_is_quantized (in->cache_type_v, in->kv_precision)))
    {
      /* src/llama-context.cpp, llama_init_from_model: a quantized cache's blocks of 32 values
       * must divide the head dimension */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("llama.cpp refuses a quantized KV cache when its blocks of 32 values do not divide the head dimension (%u)"),
                   vc_arch_head_dim (&in->arch));
      return FALSE;
    }
  return TRUE;
}

/* What the engine chosen refuses (check_inputs) */
static gboolean
check_engine (const VcInputs  *in,
              GError         **error)
{
  if (!check_llama_cpp (in, error))
    return FALSE;
  if (in->mode == VC_MODE_INFERENCE && (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG) &&
      in->method == VC_METHOD_ARCHITECTURE && !vc_engine_kv_dtype_served (in))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("%s’s KV cache is followed here in 16 bits, in fp8, or in fp32 beside fp32 weights; a KV cache "
                     "in %s is not sized for it (its own quantized caches are laid out otherwise than llama.cpp’s)"),
                   in->engine == VC_ENGINE_VLLM ? "vLLM" : "SGLang",
                   vc_enum_nick (VC_TYPE_PRECISION, in->kv_precision));
      return FALSE;
    }
  /* llama.cpp's offload (-ngl, exps=CPU) is not vLLM's or SGLang's: theirs, --cpu-offload-gb,
   * moves weights to the host and keeps every layer's KV cache on the GPU */
  if (in->mode == VC_MODE_INFERENCE && (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG) &&
      ((in->layout.gpu_layers > 0 && in->layout.gpu_layers <= in->arch.n_layers) || in->layout.experts_on_cpu))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("--gpu-layers and --experts-on-cpu are llama.cpp’s offload; %s keeps every layer and its cache "
                     "on the GPU (its --cpu-offload-gb is not modelled): give the engine llama.cpp or ollama, or "
                     "leave them out"),
                   in->engine == VC_ENGINE_VLLM ? "vLLM" : "SGLang");
      return FALSE;
    }
  /* --mxfp4-backend marlin: vLLM's VLLM_MXFP4_USE_MARLIN, read by its MXFP4 experts alone
   * (FORMULAS.md, "vLLM's MXFP4 experts"); never ignored where it means nothing */
  if (in->mode == VC_MODE_INFERENCE && in->mxfp4_backend == VC_MXFP4_BACKEND_MARLIN && in->engine != VC_ENGINE_VLLM)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("the MXFP4 backend marlin is vLLM’s (VLLM_MXFP4_USE_MARLIN=1); the engine is %s: give the engine "
                     "vllm, or the MXFP4 backend auto"),
                   vc_enum_nick (VC_TYPE_ENGINE, in->engine));
      return FALSE;
    }
  if (in->mode == VC_MODE_INFERENCE && in->mxfp4_backend == VC_MXFP4_BACKEND_MARLIN &&
      (in->method != VC_METHOD_ARCHITECTURE || in->precision != VC_PRECISION_MXFP4 || !vc_arch_is_moe (&in->arch)))
    {
      if (in->method != VC_METHOD_ARCHITECTURE || in->precision != VC_PRECISION_MXFP4)
        g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                     _("the MXFP4 backend marlin applies to routed experts stored in MXFP4 (the architecture method "
                       "at precision mxfp4, as gpt-oss); here the %s method is at precision %s: give the MXFP4 "
                       "backend auto"),
                     vc_enum_nick (VC_TYPE_METHOD, in->method), vc_enum_nick (VC_TYPE_PRECISION, in->precision));
      else
        g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                     _("the MXFP4 backend marlin applies to routed experts stored in MXFP4; this model has no routed "
                       "experts (a dense model): give the MXFP4 backend auto"));
      return FALSE;
    }
  if (in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_VLLM &&
      in->vllm_version == VC_VLLM_VERSION_0_21 && !in->enforce_eager && !(in->kv_cache_memory_gb > 0))
    {
      /* vllm/v1/worker/gpu_worker.py, determine_available_memory: profile_cudagraph_memory()
       * captures the graphs on the card and the cache loses what they took */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("vLLM 0.21 and later take from the KV cache the CUDA graphs’ memory they measure on the card, "
                     "which is not sized here; give --enforce-eager (no graphs) or --kv-cache-memory, or --engine-version "
                     "0.11 for a run with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0"));
      return FALSE;
    }
  if (in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_VLLM && in->max_num_batched_tokens > 0 &&
      in->max_num_seqs > in->max_num_batched_tokens)
    {
      /* vllm/config/scheduler.py, SchedulerConfig.verify_max_model_len (and _verify_args before
       * it): "max_num_batched_tokens (…) must be greater than or equal to max_num_seqs (…)" */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("vLLM refuses max_num_batched_tokens (%u) below max_num_seqs (%u): a step must hold a token "
                     "of every request; accepted: batched tokens at least the sequences"),
                   in->max_num_batched_tokens, in->max_num_seqs);
      return FALSE;
    }
  if (in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_VLLM && in->max_num_batched_tokens == 0 &&
      in->max_num_seqs > 8192)
    {
      /* the default batched tokens are 8192 at most (vc_engine_vllm_batch()), below the sequences
       * on every card: the same refusal */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("vLLM’s default max_num_batched_tokens (8192 at most) would be below max_num_seqs (%u), which "
                     "vLLM refuses; give the batched tokens too, at least the sequences"),
                   in->max_num_seqs);
      return FALSE;
    }
  if (in->mode == VC_MODE_INFERENCE && in->engine == VC_ENGINE_VLLM &&
      in->vllm_version == VC_VLLM_VERSION_0_10 && MAX (1u, in->layout.tp) * MAX (1u, in->layout.pp) > 1)
    {
      /* before pull request #25359, init_worker_distributed_environment ran after the memory
       * snapshot: NCCL's buffers count in the profile's memory outside torch */
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("vLLM before 0.11 sets NCCL up after its memory snapshot and takes NCCL’s buffers, whose size "
                     "depends on the GPUs’ interconnect, from the KV cache; with TP × PP = %u they are not sized here. "
                     "Accepted with --engine-version 0.10: one GPU a model (TP 1, PP 1); or give --engine-version 0.11"),
                   MAX (1u, in->layout.tp) * MAX (1u, in->layout.pp));
      return FALSE;
    }
  return TRUE;
}

/* --mxfp4-backend triton, vLLM's Triton kernels for MXFP4 routed experts (FORMULAS.md, "vLLM's
 * MXFP4 experts"), and --vllm-sampler flashinfer, vLLM's VLLM_USE_FLASHINFER_SAMPLER, read by its
 * sampler alone (FORMULAS.md, "the profile run's sampler"); never ignored where they mean
 * nothing */
static gboolean
check_vllm_choices (const VcInputs  *in,
                    GError         **error)
{
  if (in->mode == VC_MODE_INFERENCE && in->mxfp4_backend == VC_MXFP4_BACKEND_TRITON &&
      (in->engine != VC_ENGINE_VLLM || in->method != VC_METHOD_ARCHITECTURE || in->precision != VC_PRECISION_MXFP4 ||
       !vc_arch_is_moe (&in->arch)))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("the MXFP4 backend triton is vLLM’s, for routed experts stored in MXFP4 (the architecture method "
                     "at precision mxfp4 under the engine vllm, as gpt-oss); give the MXFP4 backend auto"));
      return FALSE;
    }
  if (in->mode != VC_MODE_INFERENCE || in->vllm_sampler != VC_VLLM_SAMPLER_FLASHINFER || in->engine == VC_ENGINE_VLLM)
    return TRUE;
  g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
               _("the sampler flashinfer is vLLM’s (VLLM_USE_FLASHINFER_SAMPLER=1); the engine is %s: give the "
                 "engine vllm, or the vLLM sampler sort"),
               vc_enum_nick (VC_TYPE_ENGINE, in->engine));
  return FALSE;
}

/* vLLM's --mm-encoder-tp-mode data (FORMULAS.md, "One inventory of tensors"): vLLM's alone, for
 * a model whose vision encoder its class replicates (supports_encoder_tp_data); for any other
 * model vLLM warns and falls back to weights, so the option is refused rather than ignored. */
static gboolean
check_mm_encoder_tp_mode (const VcInputs  *in,
                          GError         **error)
{
  /* serving alone: training keeps the engine's options unused, as --mxfp4-backend */
  if (in->mode != VC_MODE_INFERENCE || in->mm_encoder_tp_mode != VC_MM_ENCODER_TP_MODE_DATA)
    return TRUE;
  if (in->engine != VC_ENGINE_VLLM)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("the encoder TP mode data is vLLM’s (--mm-encoder-tp-mode data); the engine is %s: give the "
                     "engine vllm, or the encoder TP mode weights"),
                   vc_enum_nick (VC_TYPE_ENGINE, in->engine));
      return FALSE;
    }
  if (in->arch.encoder_params == 0 || !in->arch.encoder_vllm_data)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   in->arch.encoder_params == 0
                     ? _("the encoder TP mode data replicates a vision encoder, and this model has none counted; give "
                         "the encoder TP mode weights")
                     : _("the encoder TP mode data is followed for Llama 4 and Qwen3-VL, whose vLLM classes replicate "
                         "the tower (supports_encoder_tp_data); for Gemma 3 and Mistral 3 vLLM falls back to "
                         "--mm-encoder-tp-mode weights, and other classes are not read here: give the encoder TP "
                         "mode weights"));
      return FALSE;
    }
  return TRUE;
}

/* The --mmproj file's figures, as the file set them or a profile was edited: for llama.cpp or
 * Ollama, a projector type llama.cpp knows, bytes and parameters together. */
static gboolean
check_mmproj (VcEstimate  *self,
              GError     **error)
{
  const VcInputs *in = &self->inputs;

  if (!(in->mmproj_bytes > 0) && !(in->mmproj_parameters > 0) && *self->mmproj == '\0')
    return TRUE;
  /* training serves nothing: the projector, like the engine, applies to inference alone
   * (vc_inputs_mmproj_on_gpu) */
  if (in->engine != VC_ENGINE_LLAMA_CPP && in->engine != VC_ENGINE_OLLAMA)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("--mmproj is llama.cpp’s multimodal projector file: accepted with the engines llama.cpp and ollama, not %s"),
                   vc_enum_nick (VC_TYPE_ENGINE, in->engine));
      return FALSE;
    }
  if (!vc_mmproj_projector_known (self->mmproj_projector))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("mmproj-projector “%s” is not a projector type llama.cpp knows (gemma3, mlp, pixtral, …)"),
                   self->mmproj_projector);
      return FALSE;
    }
  if (!(in->mmproj_bytes > 0) || !(in->mmproj_parameters > 0) ||
      in->mmproj_bytes * 8 < in->mmproj_parameters || in->mmproj_bytes > 8 * in->mmproj_parameters)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("mmproj-bytes (%g) and mmproj-parameters (%g) go together, 1 to 64 bits a parameter"),
                   in->mmproj_bytes, in->mmproj_parameters);
      return FALSE;
    }
  return TRUE;
}

static gboolean
check_inputs (VcEstimate  *self,
              GError     **error)
{
  const VcInputs *in = &self->inputs;

  if (in->method == VC_METHOD_ARCHITECTURE && !vc_arch_validate (&in->arch, error))
    return FALSE;
  if (!vc_layout_check (in, error))
    return FALSE;
  if (in->method == VC_METHOD_ARCHITECTURE)
    {
      VcParamCounts counts;

      /* each field within its range can still multiply into a model no estimate takes: the
       * same ceiling as for the parameter count itself */
      vc_arch_count_params (&in->arch, &counts);
      if (!(counts.total <= VC_MAX_PARAMETERS))
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                       _("the architecture describes a model of %.3g parameters; accepted: up to %.0e"),
                       counts.total, VC_MAX_PARAMETERS);
          return FALSE;
        }
    }
  if (!check_source (self, error))
    return FALSE;
  if (!check_mmproj (self, error))
    return FALSE;
  if (in->method == VC_METHOD_RULE_OF_THUMB && in->model_type == VC_MODEL_TYPE_MOE &&
      in->active_parameters > in->parameters)
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_COMBINATION,
                   _("activated parameters (%g) cannot exceed total parameters (%g)"),
                   in->active_parameters, in->parameters);
      return FALSE;
    }
  if (!check_engine (in, error) || !check_mm_encoder_tp_mode (in, error) || !check_vllm_choices (in, error))
    return FALSE;
  if (vc_precision_is_format (in->kv_precision))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("%s is a weight format, not a KV cache precision; accepted: fp32, fp16, bf16, fp8, int8 (llama.cpp's q8_0), int4 (q4_0)"),
                   vc_enum_nick (VC_TYPE_PRECISION, in->kv_precision));
      return FALSE;
    }
  return TRUE;
}

/* The inputs are checked once after each change, by the recomputation or by the first
 * vc_estimate_check() before it. */
static void
ensure_checked (VcEstimate *self)
{
  if (self->checked)
    return;
  g_clear_error (&self->invalid);
  check_inputs (self, &self->invalid);
  self->checked = TRUE;
}

/**
 * vc_estimate_check:
 *
 * Whether the inputs go together, as checked once after their last change.
 *
 * Returns: %FALSE with @error saying why they do not
 */
gboolean
vc_estimate_check (VcEstimate  *self,
                   GError     **error)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);

  ensure_checked (self);
  if (self->invalid != NULL)
    {
      g_propagate_error (error, g_error_copy (self->invalid));
      return FALSE;
    }
  return TRUE;
}

/**
 * vc_estimate_dup_context_warning:
 *
 * Returns: (transfer full) (nullable): a warning when the sequence length is beyond the model's
 *   maximum context (known from its preset or its config.json), %NULL otherwise
 */
char *
vc_estimate_dup_context_warning (VcEstimate *self)
{
  const VcInputs *in;
  g_autofree char *warning = NULL;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  in = &self->inputs;
  if (in->arch.max_context == 0 || in->seq <= in->arch.max_context)
    return NULL;
  /* TRANSLATORS: the sequence length in tokens, then the model's maximum context in tokens */
  warning = g_strdup_printf (_("%'u tokens per sequence is beyond this model's maximum context of %'u tokens: "
                               "it was not made for such lengths, whatever memory they take"),
                             in->seq, in->arch.max_context);
  if (in->mode != VC_MODE_INFERENCE || (in->engine != VC_ENGINE_VLLM && in->engine != VC_ENGINE_SGLANG))
    return g_steal_pointer (&warning);
  /* vllm/config/model.py, _get_and_verify_max_len: "User-specified max_model_len (…) is greater
   * than the derived max_model_len"; python/sglang/srt/configs/model_config.py: "User-specified
   * context_length (…) is greater than the derived context_length": both raise unless their
   * variable is set */
  return g_strconcat (warning, ". ",
                      in->engine == VC_ENGINE_VLLM
                        ? _("vLLM refuses a --max-model-len above the length it derives from the model’s config "
                            "unless VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set.")
                        : _("SGLang refuses a --context-length above the length it derives from the model’s config "
                            "unless SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 is set."),
                      NULL);
}

void
vc_estimate_copy_inputs (VcEstimate *self,
                         VcEstimate *source)
{
  guint n;
  g_autofree GParamSpec **inputs = vc_estimate_list_inputs (&n);

  g_return_if_fail (VC_IS_ESTIMATE (self));
  g_return_if_fail (VC_IS_ESTIMATE (source));

  g_object_freeze_notify (G_OBJECT (self));
  for (guint i = 0; i < n; i++)
    {
      g_auto(GValue) v = G_VALUE_INIT;

      if (g_str_equal (inputs[i]->name, "preset"))
        continue;
      g_value_init (&v, inputs[i]->value_type);
      g_object_get_property (G_OBJECT (source), inputs[i]->name, &v);
      g_object_set_property (G_OBJECT (self), inputs[i]->name, &v);
    }
  /* the preset last: editing the fields above left it */
  g_free (self->preset);
  self->preset = g_strdup (source->preset);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_PRESET]);
  /* what an imported model's estimate is not exact about goes with the model, and its tensors */
  vc_estimate_set_model_not_understood (self, (const char * const *) source->model_not_understood);
  vc_estimate_set_source_inventory (self, source->inputs.source_inventory);
  g_signal_emit (self, signals[INPUTS_REPLACED], 0);
  g_object_thaw_notify (G_OBJECT (self));
}

void
vc_estimate_select_scenario (VcEstimate *self,
                             VcScenario  scenario)
{
  g_return_if_fail (VC_IS_ESTIMATE (self));

  switch (scenario)
    {
    case VC_SCENARIO_INFERENCE_32BIT:
      g_object_set (self, "precision", VC_PRECISION_FP32, NULL);
      break;
    case VC_SCENARIO_INFERENCE_16BIT:
      if (!(self->inputs.precision == VC_PRECISION_FP16 || self->inputs.precision == VC_PRECISION_BF16))
        g_object_set (self, "precision", VC_PRECISION_BF16, NULL);
      break;
    case VC_SCENARIO_INFERENCE_8BIT:
      if (vc_precision_inference_scenario (self->inputs.precision) != scenario)
        g_object_set (self, "precision", VC_PRECISION_INT8, NULL);
      break;
    case VC_SCENARIO_INFERENCE_4BIT:
      /* a 4-bit format chosen (Q4_K_M, GPTQ, …) stays */
      if (vc_precision_inference_scenario (self->inputs.precision) != scenario)
        g_object_set (self, "precision", VC_PRECISION_INT4, NULL);
      break;
    case VC_SCENARIO_FULL:
    case VC_SCENARIO_LORA:
    case VC_SCENARIO_QLORA_8BIT:
    case VC_SCENARIO_QLORA_4BIT:
      g_object_set (self, "finetune", (VcFinetune) (scenario - VC_SCENARIO_FULL), NULL);
      break;
    default:
      break;
    }
}

const VcResult *
vc_estimate_get_result (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  ensure_computed (self);
  return &self->result;
}

const VcScenarioResult *
vc_estimate_get_selected (VcEstimate *self)
{
  const VcResult *r = vc_estimate_get_result (self);
  return &r->scenarios[r->selected];
}

GListModel *
vc_estimate_get_breakdown (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  ensure_computed (self);
  return G_LIST_MODEL (self->breakdown);
}

/* The GPU an entry of chart-gpus names: a catalog id, or a custom GPU's name. -1: none. */
static int
find_gpu (VcEstimate *self,
          const char *key)
{
  guint n_catalog;
  const VcGpu *catalog = vc_gpus_get_all (&n_catalog);

  for (guint i = 0; i < n_catalog; i++)
    if (g_str_equal (catalog[i].id, key))
      return i;
  for (guint i = 0; i < self->user_gpus->len; i++)
    if (g_str_equal (g_array_index (self->user_gpus, VcGpu, i).name, key))
      return n_catalog + i;
  return -1;
}

static void
take_chart_gpus (VcEstimate *self,
                 char       *text)
{
  if (g_strcmp0 (self->chart_gpus, text) == 0)
    {
      g_free (text);
      return;
    }
  g_free (self->chart_gpus);
  self->chart_gpus = text;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CHART_GPUS]);
}

/* A custom GPU removed leaves the chart too, so that what is saved always loads again. */
static void
prune_chart_gpus (VcEstimate *self)
{
  g_auto(GStrv) items = g_strsplit (self->chart_gpus, ";", -1);
  g_autoptr(GString) kept = g_string_new (NULL);

  for (guint i = 0; items[i]; i++)
    {
      g_strstrip (items[i]);
      if (*items[i] && find_gpu (self, items[i]) >= 0)
        g_string_append_printf (kept, "%s%s", kept->len ? ";" : "", items[i]);
    }
  take_chart_gpus (self, g_string_free (g_steal_pointer (&kept), FALSE));
}

/**
 * vc_estimate_set_chart_gpus:
 * @text: "h100-80gb;rtx-4090;My card": catalog ids or custom GPU names, separated by ";"
 *
 * Chooses the cards whose capacity the memory chart draws. Refuses a name that is no GPU of
 * the catalog nor of the user's own, naming it.
 */
gboolean
vc_estimate_set_chart_gpus (VcEstimate  *self,
                            const char  *text,
                            GError     **error)
{
  g_auto(GStrv) items = NULL;
  g_autoptr(GString) normal = g_string_new (NULL);

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);

  items = g_strsplit (text ? text : "", ";", -1);
  for (guint i = 0; items[i]; i++)
    {
      g_strstrip (items[i]);
      if (*items[i] == '\0')
        continue;
      if (find_gpu (self, items[i]) < 0)
        {
          g_set_error (error, VC_ERROR, VC_ERROR_UNKNOWN_ID,
                       _("“%s” is not a GPU of the catalog nor one of your own; accepted: a GPU id (see vramcalc --list-gpus) or the name of a custom GPU"),
                       items[i]);
          return FALSE;
        }
      g_string_append_printf (normal, "%s%s", normal->len ? ";" : "", items[i]);
    }
  take_chart_gpus (self, g_string_free (g_steal_pointer (&normal), FALSE));
  return TRUE;
}

/* The indices (for vc_estimate_get_gpu()) of the cards chosen for the chart, in their order. */
GArray *
vc_estimate_get_chart_gpu_indices (VcEstimate *self)
{
  g_auto(GStrv) items = NULL;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (guint));

  g_return_val_if_fail (VC_IS_ESTIMATE (self), out);
  items = g_strsplit (self->chart_gpus, ";", -1);
  for (guint i = 0; items[i]; i++)
    {
      int index;

      g_strstrip (items[i]);
      index = *items[i] ? find_gpu (self, items[i]) : -1;
      if (index >= 0)
        {
          guint u = index;
          g_array_append_val (out, u);
        }
    }
  return out;
}

/* The chart's key for a GPU: its catalog id, or a custom GPU's name. */
const char *
vc_estimate_get_gpu_key (VcEstimate *self,
                         guint       gpu_index)
{
  guint n_catalog;
  const VcGpu *gpu = vc_estimate_get_gpu (self, gpu_index);

  vc_gpus_get_all (&n_catalog);
  g_return_val_if_fail (gpu != NULL, NULL);
  return gpu_index < n_catalog ? gpu->id : gpu->name;
}

static const VcSolution *
gpu_solution (VcEstimate      *self,
              guint            gpu_index,
              VcSolveVariable  variable,
              gboolean         row)
{
  guint k;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  g_return_val_if_fail (variable < N_SOLVE_VARIABLES, NULL);
  ensure_computed (self);
  g_return_val_if_fail (gpu_index < self->n_gpus, NULL);
  k = (row ? self->n_gpus * N_SOLVE_VARIABLES : 0) + gpu_index * N_SOLVE_VARIABLES + variable;
  if (!self->solved[k])
    {
      double count = row ? vc_estimate_get_gpu_fit (self, gpu_index)->count : 1;

      /* each step of a row's solve searches its card's layouts: bounded to the rows of one
       * node's GPUs and models of at most 1,000 layers, beyond which the row answers for one
       * card, as the solution's GPU count says */
      if (count > MAX (1u, self->inputs.layout.gpus_per_node) || self->inputs.arch.n_layers > 1000)
        count = 1;

      if (self->solver_memo == NULL)
        self->solver_memo = vc_solver_memo_new ();
      vc_solver_solve_memo (self->solver_memo, vc_estimate_get_gpu (self, gpu_index), &self->inputs, variable,
                            vc_engine_gpu_capacity (&self->inputs, vc_estimate_get_gpu (self, gpu_index)),
                            count >= 1 && count <= G_MAXUINT ? (guint) count : 1, &self->solutions[k]);
      self->solved[k] = TRUE;
    }
  return &self->solutions[k];
}

/**
 * vc_estimate_get_gpu_solution:
 *
 * The largest value of @variable at which the selected scenario fits one GPU @gpu_index, the
 * other inputs as they are (vc_solver_solve()). Solved when first asked for after a change, so
 * the GPU table costs nothing to estimates nobody looks at.
 */
const VcSolution *
vc_estimate_get_gpu_solution (VcEstimate      *self,
                              guint            gpu_index,
                              VcSolveVariable  variable)
{
  return gpu_solution (self, gpu_index, variable, FALSE);
}

/**
 * vc_estimate_get_row_solution:
 *
 * The same on the GPU table's row of @gpu_index: as many of the card as its fit counts (one
 * when no number of it holds the estimate), split as its layout, so that a row of several cards
 * says what fits on them too.
 */
const VcSolution *
vc_estimate_get_row_solution (VcEstimate      *self,
                              guint            gpu_index,
                              VcSolveVariable  variable)
{
  return gpu_solution (self, gpu_index, variable, TRUE);
}

gboolean
vc_estimate_set_custom_gpus (VcEstimate  *self,
                             const char  *text,
                             GError     **error)
{
  g_autoptr(GArray) parsed = NULL;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);

  if (text == NULL)
    text = "";
  if (!g_utf8_validate (text, -1, NULL))
    {
      g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                   _("the GPU list is not UTF-8 text; accepted: NAME=SIZE, the size in GB or with a GB, GiB or MiB unit (RTX 6000 Ada=48GB)"));
      return FALSE;
    }
  if (g_strcmp0 (self->custom_gpus, text) == 0)
    return TRUE;
  parsed = vc_custom_gpus_parse (text, error);
  if (parsed == NULL)
    return FALSE;
  g_free (self->custom_gpus);
  self->custom_gpus = g_strdup (text);
  g_clear_pointer (&self->user_gpus, g_array_unref);
  self->user_gpus = g_steal_pointer (&parsed);
  /* before notifying: a handler counting the GPUs sees the new list */
  invalidate (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CUSTOM_GPUS]);
  prune_chart_gpus (self);
  return TRUE;
}

const VcGpu *
vc_estimate_get_gpu (VcEstimate *self,
                     guint       gpu_index)
{
  guint n_catalog;
  const VcGpu *catalog = vc_gpus_get_all (&n_catalog);

  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  if (gpu_index < n_catalog)
    return &catalog[gpu_index];
  g_return_val_if_fail (gpu_index - n_catalog < self->user_gpus->len, NULL);
  return &g_array_index (self->user_gpus, VcGpu, gpu_index - n_catalog);
}

guint
vc_estimate_get_n_gpus (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), 0);
  ensure_computed (self);
  return self->n_gpus;
}

/**
 * vc_estimate_get_layout_result:
 *
 * Returns: (nullable): the busiest GPU and the host memory of the inputs' layout, or %NULL
 * when the layout is impossible (vc_estimate_check() says why)
 */
const VcLayoutResult *
vc_estimate_get_layout_result (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  ensure_computed (self);
  return self->layout_ok ? &self->layout : NULL;
}

const VcGpuFit *
vc_estimate_get_gpu_fit (VcEstimate *self,
                         guint       gpu_index)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  ensure_computed (self);
  g_return_val_if_fail (gpu_index < self->n_gpus, NULL);
  ensure_fits (self);
  return &self->fits[gpu_index];
}

/**
 * vc_estimate_count_gpus:
 * @scenario_index: a scenario of the result
 * @counts: (out caller-allocates) (array): for each GPU of vc_estimate_get_n_gpus(), how many
 *   of it the scenario takes, as the GPU table counts; 0 when no number of them is enough
 *
 * The GPU table's count for any scenario, not only the selected one (the CSV export lists
 * them all).
 */
void
vc_estimate_count_gpus (VcEstimate *self,
                        guint       scenario_index,
                        guint      *counts)
{
  g_auto(SmallestLayouts) smallest = { 0 };

  g_return_if_fail (VC_IS_ESTIMATE (self));
  ensure_computed (self);
  g_return_if_fail (scenario_index < self->result.n_scenarios);
  if (scenario_index == self->result.selected)
    {
      /* the table's own */
      ensure_fits (self);
      for (guint i = 0; i < self->n_gpus; i++)
        counts[i] = (guint) self->fits[i].count;
      return;
    }
  smallest_layouts (self, scenario_index, &smallest);
  for (guint i = 0; i < self->n_gpus; i++)
    counts[i] = smallest_count (&smallest, i);
}

/**
 * vc_estimate_set_plan_text:
 * @property: "gpu-set", "host-ram", "tensor-split" or "pp-partition"
 *
 * Sets one of the plan's text inputs, refusing with @error a text that does not parse.
 */
gboolean
vc_estimate_set_plan_text (VcEstimate  *self,
                           const char  *property,
                           const char  *text,
                           GError     **error)
{
  char **field;
  g_autofree char *normal = NULL;
  guint prop;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);
  text = text ? text : "";
  if (g_str_equal (property, "gpu-set"))
    {
      g_autoptr(VcGpuSet) set = vc_gpu_set_parse (text, error);

      if (set == NULL)
        return FALSE;
      normal = vc_gpu_set_format (set);
      g_clear_pointer (&self->set, vc_gpu_set_free);
      self->set = g_steal_pointer (&set);
      field = &self->gpu_set;
      prop = PROP_GPU_SET;
    }
  else if (g_str_equal (property, "host-ram"))
    {
      g_autofree char *stripped = g_strstrip (g_strdup (text));
      double bytes = 0;

      if (*stripped != '\0' && !vc_gpu_set_parse_size (stripped, &bytes))
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE,
                       _("“%s” is not a memory size; accepted: 0.1 GB to 100000 GB, in GB or with a GB, GiB or MiB unit (64GB)"),
                       stripped);
          return FALSE;
        }
      self->ram_bytes = bytes;
      normal = g_steal_pointer (&stripped);
      field = &self->host_ram;
      prop = PROP_HOST_RAM;
    }
  else if (g_str_equal (property, "pp-partition"))
    {
      g_autofree guint *counts = NULL;
      guint n = 0;

      if (!g_utf8_validate (text, -1, NULL))
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE, _("--pp-partition is not UTF-8 text; accepted: 20,12"));
          return FALSE;
        }
      normal = g_strstrip (g_strdup (text));
      if (*normal != '\0')
        {
          counts = vc_plan_parse_pp_partition (normal, &n, error);
          if (counts == NULL)
            return FALSE;
        }
      field = &self->pp_partition;
      prop = PROP_PP_PARTITION;
    }
  else
    {
      g_autofree double *ratios = NULL;
      guint n = 0;

      if (g_utf8_validate (text, -1, NULL) && *text != '\0')
        {
          ratios = vc_plan_parse_tensor_split (text, &n, error);
          if (ratios == NULL)
            return FALSE;
        }
      else if (*text != '\0')
        {
          g_set_error (error, VC_ERROR, VC_ERROR_INVALID_VALUE, _("--tensor-split is not UTF-8 text; accepted: 3,1"));
          return FALSE;
        }
      normal = g_strstrip (g_strdup (text));
      field = &self->tensor_split;
      prop = PROP_TENSOR_SPLIT;
    }
  if (g_strcmp0 (*field, normal) == 0)
    return TRUE;
  g_free (*field);
  *field = g_steal_pointer (&normal);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop]);
  return TRUE;
}

const VcGpuSet *
vc_estimate_get_gpu_set (VcEstimate *self)
{
  g_return_val_if_fail (VC_IS_ESTIMATE (self), NULL);
  return self->set;
}

/**
 * vc_estimate_compute_plan:
 * @plan: (out caller-allocates): freed with vc_plan_clear()
 *
 * The inputs' engine's plan on "My GPUs" (vc-plan.h); %FALSE with @error saying why there is
 * none (no set, or a set or layout the engine refuses).
 */
/**
 * vc_estimate_get_plan_options:
 * @options: (out caller-allocates): its tensor_split and pp_partition are newly allocated (g_free)
 *
 * The plan's options as the estimate holds them. Returns: %TRUE
 */
gboolean
vc_estimate_get_plan_options (VcEstimate    *self,
                              VcPlanOptions *options)
{
  guint n = 0;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);
  memset (options, 0, sizeof *options);
  if (*self->tensor_split != '\0')
    options->tensor_split = vc_plan_parse_tensor_split (self->tensor_split, &n, NULL);
  options->n_tensor_split = n;
  n = 0;
  if (*self->pp_partition != '\0')
    options->pp_partition = vc_plan_parse_pp_partition (self->pp_partition, &n, NULL);
  options->n_pp_partition = n;
  options->main_gpu = self->main_gpu;
  options->split_mode = self->split_mode;
  options->n_cpu_moe = self->n_cpu_moe;
  options->ram_bytes = self->ram_bytes;
  return TRUE;
}

gboolean
vc_estimate_compute_plan (VcEstimate  *self,
                          VcPlan      *plan,
                          GError     **error)
{
  VcPlanOptions options;
  gboolean ok;

  g_return_val_if_fail (VC_IS_ESTIMATE (self), FALSE);
  vc_estimate_get_plan_options (self, &options);
  ok = vc_plan_compute (&self->inputs, vc_estimate_get_result (self), self->set, &options, plan, error);
  g_free ((double *) options.tensor_split);
  g_free ((guint *) options.pp_partition);
  return ok;
}
