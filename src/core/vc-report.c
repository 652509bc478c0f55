/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-report.c: JSON and text reports of an estimate, used by vramcalc and the tests. */
#define G_LOG_DOMAIN "vc-report"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-catalog.h"
#include "vc-component-row.h"
#include "vc-command.h"
#include "vc-engine.h"
#include "vc-engine-comm.h"
#include "vc-engine-mm.h"
#include "vc-engine-state.h"
#include "vc-enums.h"
#include "vc-formula.h"
#include "vc-layout.h"
#include "vc-plan.h"
#include "vc-json-input.h"
#include "vc-report.h"
#include "vc-speed.h"
#include "vc-text.h"
#include "vc-units.h"

static void
add_bytes (JsonBuilder *b,
           double       bytes)
{
  /* integers while they fit in JSON's usual int64; finite doubles beyond */
  if (bytes < 9.2e18)
    json_builder_add_int_value (b, (gint64) llround (bytes));
  else
    json_builder_add_double_value (b, bytes);
}

static void
add_bytes_or_null (JsonBuilder *b,
                   gboolean     known,
                   double       bytes)
{
  if (known)
    add_bytes (b, bytes);
  else
    json_builder_add_null_value (b);
}

static void
add_string_or_null (JsonBuilder *b,
                    const char  *text)
{
  if (text != NULL && *text != '\0')
    json_builder_add_string_value (b, text);
  else
    json_builder_add_null_value (b);
}

static void
add_number_or_null (JsonBuilder *b,
                    const char  *member,
                    gboolean     known,
                    double       value)
{
  json_builder_set_member_name (b, member);
  if (known && isfinite (value))
    json_builder_add_double_value (b, value);
  else
    json_builder_add_null_value (b);
}

/* Speed on the GPUs the estimate needs (FORMULAS.md, "Speed"), and the engine's KV-cache
 * capacity on them: null where the card's figures are unknown (a card typed in), no number of
 * them holds the model, or the engine does not size a cache. */
static void
add_speed (JsonBuilder    *b,
           VcEstimate     *estimate,
           const VcGpu    *gpu,
           const VcGpuFit *fit)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  const VcResult *r = vc_estimate_get_result (estimate);
  VcSpeed speed;

  vc_speed_compute (in, r, &r->scenarios[r->selected], gpu, fit->count, &speed);
  json_builder_set_member_name (b, "bandwidth_bytes_per_s");
  add_bytes_or_null (b, gpu->bandwidth_bytes_per_s > 0, gpu->bandwidth_bytes_per_s);
  if (in->mode == VC_MODE_INFERENCE)
    {
      VcKvCapacity kv;

      /* the engine's KV-cache capacity (FORMULAS.md, "Engines"): vLLM and SGLang only */
      vc_engine_kv_capacity_fit (in, r, &r->scenarios[r->selected], gpu, fit, &kv);
      json_builder_set_member_name (b, "kv_capacity_tokens");
      add_bytes_or_null (b, kv.known, kv.tokens);
      add_number_or_null (b, "decode_tokens_per_s", speed.known, speed.decode_tokens_per_s);
      add_number_or_null (b, "prefill_tokens_per_s", speed.known, speed.prefill_tokens_per_s);
    }
  else
    {
      add_number_or_null (b, "step_seconds", speed.known, speed.step_seconds);
      add_number_or_null (b, "train_tokens_per_s", speed.known, speed.train_tokens_per_s);
    }
}

/* One {"id", "bytes"} object for each component that applies, in the array being built. */
static void
add_component_items (JsonBuilder    *b,
                     const VcInputs *in,
                     const double    bytes[VC_N_COMPONENTS])
{
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    {
      if (!vc_component_applies (in, c))
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, vc_component_id (c));
      json_builder_set_member_name (b, "bytes");
      add_bytes (b, bytes[c]);
      json_builder_end_object (b);
    }
}

static void
add_components (JsonBuilder            *b,
                const VcInputs         *in,
                const VcScenarioResult *sc)
{
  json_builder_begin_array (b);
  add_component_items (b, in, sc->bytes);
  json_builder_end_array (b);
}

/* What each GPU entry says fits on its row's cards: the longest sequence and the most concurrent
 * requests when serving; the largest batch and the longest sequence when training. */
const VcSolveVariable *
vc_report_fit_variables (VcMode mode)
{
  static const VcSolveVariable inference[] = { VC_SOLVE_VARIABLE_SEQ, VC_SOLVE_VARIABLE_CONCURRENCY };
  static const VcSolveVariable training[] = { VC_SOLVE_VARIABLE_BATCH, VC_SOLVE_VARIABLE_SEQ };

  return mode == VC_MODE_TRAINING ? training : inference;
}

const char *
vc_report_fit_key (VcSolveVariable variable)
{
  switch (variable)
    {
    case VC_SOLVE_VARIABLE_BATCH: return "max_batch";
    case VC_SOLVE_VARIABLE_CONCURRENCY: return "max_concurrency";
    case VC_SOLVE_VARIABLE_SEQ:
    default: return "max_seq";
    }
}

/* The solver's answer: the value, or null when not even 1 fits */
static void
add_solution_value (JsonBuilder      *b,
                    const VcSolution *sol)
{
  if (sol->found)
    json_builder_add_int_value (b, sol->value);
  else
    json_builder_add_null_value (b);
}

static void
add_solve (JsonBuilder      *b,
           const VcSolution *sol,
           const char       *gpu_key)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "variable");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_SOLVE_VARIABLE, sol->variable));
  json_builder_set_member_name (b, "value");
  add_solution_value (b, sol);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, gpu_key);
  json_builder_set_member_name (b, "gpu_count");
  json_builder_add_int_value (b, sol->gpu_count);
  json_builder_set_member_name (b, "limit");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_SOLVE_LIMIT, sol->limit));
  json_builder_set_member_name (b, "total_bytes");
  add_bytes (b, sol->total_bytes);
  json_builder_set_member_name (b, "capacity_bytes");
  add_bytes (b, sol->capacity_bytes);
  json_builder_end_object (b);
}

/* ---- layouts (vc-layout.c): the inputs' layout, its busiest GPU and host memory ------------- */

/* "16 × H100 80 GB · TP 8 × PP 2" */
static char *
gpu_layout_text (VcEstimate     *estimate,
                 const VcGpu    *gpu,
                 const VcGpuFit *fit)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  g_autofree char *how = vc_layout_describe (&fit->layout, in->mode, in->method, FALSE);

  if (*how == '\0')
    return g_strdup_printf ("%.0f × %s", fit->count, gpu->name);
  return g_strdup_printf ("%.0f × %s · %s", fit->count, gpu->name, how);
}

/* A layout as an object: the same shape at the top level and for each GPU of the table */
static void
add_layout_object (JsonBuilder    *b,
                   const VcLayout *l)
{
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "tp");
  json_builder_add_int_value (b, l->tp);
  json_builder_set_member_name (b, "pp");
  json_builder_add_int_value (b, l->pp);
  json_builder_set_member_name (b, "ep");
  json_builder_add_int_value (b, l->ep);
  json_builder_set_member_name (b, "dp");
  json_builder_add_int_value (b, l->dp);
  json_builder_set_member_name (b, "zero");
  json_builder_add_int_value (b, vc_layout_zero_stage (l->sharding));
  json_builder_set_member_name (b, "sharding");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_SHARDING, l->sharding));
  json_builder_set_member_name (b, "offload");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_OFFLOAD, l->offload));
  json_builder_set_member_name (b, "grad_accum");
  json_builder_add_int_value (b, l->grad_accum);
  json_builder_set_member_name (b, "cp");
  json_builder_add_int_value (b, MAX (1u, l->cp));
  json_builder_set_member_name (b, "gpu_layers");
  if (l->gpu_layers > 0)
    json_builder_add_int_value (b, l->gpu_layers);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "experts_on_cpu");
  json_builder_add_boolean_value (b, l->experts_on_cpu);
  json_builder_set_member_name (b, "gpus_per_node");
  json_builder_add_int_value (b, l->gpus_per_node);
  json_builder_set_member_name (b, "gpus");
  json_builder_add_int_value (b, vc_layout_n_gpus (l));
  json_builder_set_member_name (b, "layer_split");
  json_builder_add_boolean_value (b, l->layer_split);
  json_builder_end_object (b);
}

static void
add_layout_json (JsonBuilder *b,
                 VcEstimate  *estimate)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  const VcLayoutResult *lr = vc_estimate_get_layout_result (estimate);
  VcLayout effective;

  vc_layout_get_effective (in, &effective);
  json_builder_set_member_name (b, "layout");
  add_layout_object (b, &effective);

  json_builder_set_member_name (b, "per_gpu");
  if (lr == NULL)
    json_builder_add_null_value (b);
  else
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "components");
      json_builder_begin_array (b);
      add_component_items (b, in, lr->bytes);
      if (in->mode == VC_MODE_TRAINING)
        {
          json_builder_begin_object (b);
          json_builder_set_member_name (b, "id");
          json_builder_add_string_value (b, "buffers");
          json_builder_set_member_name (b, "bytes");
          add_bytes (b, lr->buffers);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_set_member_name (b, "total_bytes");
      add_bytes (b, lr->total);
      json_builder_set_member_name (b, "reserved_bytes");
      add_bytes_or_null (b, vc_estimator_models_reserve (in), lr->reserved);
      json_builder_set_member_name (b, "stage");
      json_builder_add_int_value (b, lr->busiest_stage);
      json_builder_set_member_name (b, "peak_phase");
      if (lr->peak_phase == VC_PHASE_NONE)
        json_builder_add_null_value (b);
      else
        json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_PHASE, lr->peak_phase));
      json_builder_set_member_name (b, "all_gpus_bytes");
      add_bytes (b, lr->all_total);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "host_bytes");
  if (lr == NULL)
    json_builder_add_null_value (b);
  else
    add_bytes (b, lr->host_bytes);
}

static void append_padded (GString    *s,
                           const char *text,
                           int         width,
                           gboolean    right);

static void
append_layout_table (GString    *s,
                     VcEstimate *estimate,
                     VcUnit      unit)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  VcLayout effective;
  const VcLayoutResult *lr = vc_estimate_get_layout_result (estimate);
  g_autofree char *how = NULL;
  g_autofree char *total = NULL;
  g_autofree char *all = NULL;

  if (lr == NULL || vc_layout_is_default (&in->layout))
    return;
  vc_layout_get_effective (in, &effective);
  how = vc_layout_describe (&effective, in->mode, in->method, TRUE);
  total = vc_format_size (lr->total, unit);
  all = vc_format_size (lr->all_total, unit);
  g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE, "\nLayout: %u GPU%s%s\n", "\nLayout: %u GPUs%s%s\n", lr->n_gpus),
                          lr->n_gpus, *how ? " · " : "", how);
  /* its layers as the engine splits them (vc_layout_stage_layers()); llama.cpp's own split aside */
  if (in->layout.pp > 1 && !effective.layer_split)
    {
      guint first, n;

      vc_layout_stage_layers (in, in->layout.pp, lr->busiest_stage, &first, &n);
      g_string_append_printf (s, _("Busiest GPU (pipeline stage %u, layers %u to %u of %u):\n"), lr->busiest_stage + 1,
                              first + 1, first + n, in->arch.n_layers);
    }
  else if (in->layout.pp > 1)
    g_string_append_printf (s, _("Busiest GPU (pipeline stage %u):\n"), lr->busiest_stage + 1);
  else
    g_string_append (s, _("Busiest GPU:\n"));
  {
    const char *buckets = _("Buckets and gathered layers");
    int width = g_utf8_strlen (_("Total"), -1);

    for (guint c = 0; c < VC_N_COMPONENTS; c++)
      if (vc_component_applies (in, c))
        width = MAX (width, g_utf8_strlen (vc_component_name (c), -1));
    if (in->mode == VC_MODE_TRAINING)
      width = MAX (width, g_utf8_strlen (buckets, -1));
    for (guint c = 0; c <= VC_N_COMPONENTS; c++)
      {
        g_autofree char *size = NULL;

        if (c < VC_N_COMPONENTS && !vc_component_applies (in, c))
          continue;
        if (c == VC_N_COMPONENTS && in->mode != VC_MODE_TRAINING)
          continue;
        size = vc_format_size (c < VC_N_COMPONENTS ? lr->bytes[c] : lr->buffers, unit);
        append_padded (s, "", 2, FALSE);
        append_padded (s, c < VC_N_COMPONENTS ? vc_component_name (c) : buckets, width + 2, FALSE);
        append_padded (s, size, 12, TRUE);
        g_string_append_c (s, '\n');
      }
    append_padded (s, "", 2, FALSE);
    append_padded (s, _("Total"), width + 2, FALSE);
    append_padded (s, total, 12, TRUE);
    g_string_append_c (s, '\n');
  }
  if (vc_estimator_models_reserve (in))
    {
      g_autofree char *reserved = vc_format_size (lr->reserved, unit);

      g_string_append_printf (s, _("Reserved by PyTorch's caching allocator on it: %s\n"), reserved);
    }
  g_string_append_printf (s, _("All GPUs together: %s\n"), all);
  if (lr->host_bytes > 0)
    {
      g_autofree char *host = vc_format_size (lr->host_bytes, unit);
      g_string_append_printf (s, _("System RAM for what is offloaded: %s\n"), host);
    }
}

char *
vc_report_json (VcEstimate *estimate)
{
  VcReportRequest req = { NULL, -1, 0 };

  return vc_report_json_request (estimate, &req);
}

/* Where an imported model came from: null for a model typed in or built in. */
static void
add_source_json (JsonBuilder    *b,
                 VcEstimate     *estimate,
                 const VcInputs *in)
{
  g_autofree char *format = NULL;
  g_autofree char *quantization = NULL;

  g_object_get (estimate, "source-format", &format, "source-quantization", &quantization, NULL);
  if (format == NULL || *format == '\0')
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "format");
  json_builder_add_string_value (b, format);
  json_builder_set_member_name (b, "weights_bytes");
  /* the tensors' bytes; a bare config.json has none (its quantization_config is sized) */
  add_bytes_or_null (b, in->source_weights_bytes > 0 && !g_str_equal (format, "config"),
                     in->source_weights_bytes);
  json_builder_set_member_name (b, "quantization");
  add_string_or_null (b, quantization);
  json_builder_end_object (b);
}

/* llama.cpp's --mmproj file: its projector type, its tensors' bytes and where they are; null
 * when none is given */
static void
add_mmproj_json (JsonBuilder    *b,
                 VcEstimate     *estimate,
                 const VcInputs *in)
{
  g_autofree char *file = NULL;
  g_autofree char *projector = NULL;

  if (!(in->mmproj_bytes > 0))
    {
      json_builder_add_null_value (b);
      return;
    }
  g_object_get (estimate, "mmproj", &file, "mmproj-projector", &projector, NULL);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "file");
  add_string_or_null (b, file);
  json_builder_set_member_name (b, "projector");
  add_string_or_null (b, projector);
  json_builder_set_member_name (b, "weights_bytes");
  add_bytes (b, in->mmproj_bytes);
  json_builder_set_member_name (b, "parameters");
  json_builder_add_int_value (b, (gint64) in->mmproj_parameters);
  json_builder_set_member_name (b, "on_gpu");
  json_builder_add_boolean_value (b, vc_inputs_mmproj_on_gpu (in));
  json_builder_set_member_name (b, "compute_buffer_counted");
  json_builder_add_boolean_value (b, vc_inputs_mmproj_compute_bytes (in) > 0);
  json_builder_set_member_name (b, "compute_buffer_bytes");
  if (vc_inputs_mmproj_compute_bytes (in) > 0)
    add_bytes (b, vc_inputs_mmproj_compute_bytes (in));
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
}

static void
add_warnings_json (JsonBuilder *b,
                   VcEstimate  *estimate)
{
  g_auto(GStrv) warnings = vc_estimate_dup_warnings (estimate);

  json_builder_begin_array (b);
  for (guint i = 0; warnings[i] != NULL; i++)
    json_builder_add_string_value (b, warnings[i]);
  json_builder_end_array (b);
}

/* llama.cpp's context as it sizes it (vc_engine_llama_cpp()); null with another engine */
static void
add_llama_cpp_json (JsonBuilder    *b,
                    const VcInputs *in)
{
  VcLlamaCpp l;

  if (!vc_engine_is_llama_cpp (in) || in->method != VC_METHOD_ARCHITECTURE)
    {
      json_builder_add_null_value (b);
      return;
    }
  vc_engine_llama_cpp (in, &l);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "n_seq_max");
  add_bytes (b, l.n_seq);
  json_builder_set_member_name (b, "n_ctx");
  add_bytes (b, l.n_ctx);
  json_builder_set_member_name (b, "n_ctx_seq");
  add_bytes (b, l.n_ctx_seq);
  json_builder_set_member_name (b, "kv_streams");
  add_bytes (b, l.n_stream);
  json_builder_set_member_name (b, "n_batch");
  add_bytes (b, l.n_batch);
  json_builder_set_member_name (b, "n_ubatch");
  add_bytes (b, l.n_ubatch);
  json_builder_set_member_name (b, "swa_cells");
  add_bytes (b, l.swa_cells);
  json_builder_set_member_name (b, "cache_type_k");
  add_string_or_null (b, vc_engine_cache_type_name (in->cache_type_k, in->kv_precision));
  json_builder_set_member_name (b, "cache_type_v");
  add_string_or_null (b, vc_engine_cache_type_name (in->cache_type_v, in->kv_precision));
  json_builder_set_member_name (b, "flash_attention");
  json_builder_add_boolean_value (b, in->flash_attention);
  /* the logits of the last token of each sequence, in host memory (llama_context's output
   * buffer), not counted in the GPU's total */
  json_builder_set_member_name (b, "output_buffer_bytes");
  add_bytes (b, l.output_bytes);
  json_builder_end_object (b);
}

static void
add_model_json (JsonBuilder    *b,
                VcEstimate     *estimate,
                const VcInputs *in)
{
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_METHOD, in->method));
  json_builder_set_member_name (b, "mode");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_MODE, in->mode));
  json_builder_set_member_name (b, "preset");
  add_string_or_null (b, vc_estimate_get_preset (estimate));
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, vc_estimate_get_model_name (estimate));
  /* an imported model's parts the estimate is not exact about: empty when exact */
  json_builder_set_member_name (b, "not_understood");
  json_builder_begin_array (b);
  for (const char * const *part = vc_estimate_get_model_not_understood (estimate); *part; part++)
    json_builder_add_string_value (b, *part);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "source");
  add_source_json (b, estimate, in);
  json_builder_set_member_name (b, "mmproj");
  add_mmproj_json (b, estimate, in);
  json_builder_set_member_name (b, "warnings");
  add_warnings_json (b, estimate);
  json_builder_set_member_name (b, "llama_cpp");
  add_llama_cpp_json (b, in);
}

/* The selected scenario's figures, then every scenario's total and components. */
static void
add_scenarios_json (JsonBuilder    *b,
                    const VcInputs *in,
                    const VcResult *r)
{
  const VcScenarioResult *sel = &r->scenarios[r->selected];

  json_builder_set_member_name (b, "scenario");
  json_builder_add_string_value (b, vc_scenario_id (sel->id));
  json_builder_set_member_name (b, "parameters");
  add_bytes (b, r->parameters);
  json_builder_set_member_name (b, "active_parameters");
  add_bytes (b, r->active_parameters);
  json_builder_set_member_name (b, "trainable_parameters");
  add_bytes (b, sel->trainable_parameters);
  json_builder_set_member_name (b, "kv_bytes_per_token");
  add_bytes_or_null (b, r->kv_bytes_per_token >= 0, r->kv_bytes_per_token);
  /* vLLM's and SGLang's RoPE tables on each GPU, inside the weights */
  json_builder_set_member_name (b, "rope_table_bytes");
  add_bytes_or_null (b, in->mode == VC_MODE_INFERENCE && in->method == VC_METHOD_ARCHITECTURE &&
                        (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG) &&
                        vc_engine_rope_table_unsized (in) == NULL,
                     sel->rope_table);
  json_builder_set_member_name (b, "peak_phase");
  if (sel->peak_phase == VC_PHASE_NONE)
    json_builder_add_null_value (b);
  else
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_PHASE, sel->peak_phase));
  json_builder_set_member_name (b, "components");
  add_components (b, in, sel);
  json_builder_set_member_name (b, "total_bytes");
  add_bytes (b, sel->total);
  json_builder_set_member_name (b, "reserved_bytes");
  add_bytes_or_null (b, vc_estimator_models_reserve (in), sel->reserved);
  /* a paged optimizer's states in CUDA unified memory, outside the total (FORMULAS.md) */
  json_builder_set_member_name (b, "paged_optimizer_bytes");
  add_bytes_or_null (b, vc_estimator_models_reserve (in) && in->optimizer == VC_OPTIMIZER_PAGED_ADAMW_8BIT,
                     sel->paged_optimizer);

  /* the loss the estimate counts: --loss, or the trainer's own default */
  json_builder_set_member_name (b, "loss");
  if (in->mode == VC_MODE_TRAINING)
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_LOSS, vc_trainer_loss (in)));
  else
    json_builder_add_null_value (b);
  /* how the optimizer steps: --optimizer-impl, or the trainer's own */
  json_builder_set_member_name (b, "optimizer_impl");
  if (in->mode == VC_MODE_TRAINING)
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_OPTIMIZER_IMPL, vc_trainer_optimizer_impl (in)));
  else
    json_builder_add_null_value (b);

  json_builder_set_member_name (b, "scenarios");
  json_builder_begin_array (b);
  for (guint i = 0; i < r->n_scenarios; i++)
    {
      const VcScenarioResult *sc = &r->scenarios[i];

      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, vc_scenario_id (sc->id));
      json_builder_set_member_name (b, "total_bytes");
      add_bytes (b, sc->total);
      json_builder_set_member_name (b, "components");
      add_components (b, in, sc);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

/* One GPU of the table: how many hold the model, what fits on one, speed and layout. */
static void
add_gpu_json (JsonBuilder    *b,
              VcEstimate     *estimate,
              const VcInputs *in,
              guint           i)
{
  const VcGpuFit *fit = vc_estimate_get_gpu_fit (estimate, i);
  const VcGpu *gpu = vc_estimate_get_gpu (estimate, i);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "id");
  json_builder_add_string_value (b, gpu->id);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, gpu->name);
  json_builder_set_member_name (b, "memory_bytes");
  add_bytes (b, fit->capacity_bytes);
  /* NVIDIA's compute capability, which picks vLLM's MXFP4 backend (FORMULAS.md) */
  json_builder_set_member_name (b, "compute_capability");
  if (gpu->cc_major > 0)
    {
      g_autofree char *cc = g_strdup_printf ("%u.%u", gpu->cc_major, gpu->cc_minor);

      json_builder_add_string_value (b, cc);
    }
  else
    json_builder_add_null_value (b);
  /* NVIDIA's SMs, which size vLLM 0.17's Triton sampler's buffer (FORMULAS.md) */
  json_builder_set_member_name (b, "sm_count");
  if (gpu->sm_count > 0)
    json_builder_add_int_value (b, gpu->sm_count);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "fits");
  json_builder_add_boolean_value (b, fit->fits);
  json_builder_set_member_name (b, "count");
  add_bytes_or_null (b, fit->count > 0, fit->count);
  for (guint v = 0; v < 2; v++)
    {
      VcSolveVariable var = vc_report_fit_variables (in->mode)[v];

      json_builder_set_member_name (b, vc_report_fit_key (var));
      add_solution_value (b, vc_estimate_get_row_solution (estimate, i, var));
    }
  add_speed (b, estimate, gpu, fit);
  json_builder_set_member_name (b, "layout");
  if (fit->count > 0)
    add_layout_object (b, &fit->layout);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "layout_text");
  if (fit->count > 0)
    {
      g_autofree char *text = gpu_layout_text (estimate, gpu, fit);
      json_builder_add_string_value (b, text);
    }
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "per_gpu_bytes");
  add_bytes_or_null (b, fit->count > 0, fit->per_gpu_bytes);
  /* the count keeps vLLM's MXFP4 experts as stored on this card (FORMULAS.md) */
  json_builder_set_member_name (b, "experts_as_stored");
  json_builder_add_boolean_value (b, fit->experts_as_stored);
  /* the engine does not start on this card, whatever the memory (FORMULAS.md) */
  json_builder_set_member_name (b, "refused");
  if (fit->refused)
    json_builder_add_string_value (b, "mxfp4-capability");
  else
    json_builder_add_null_value (b);
  json_builder_end_object (b);
}

static void
add_gpus_json (JsonBuilder    *b,
               VcEstimate     *estimate,
               const VcInputs *in)
{
  guint n_gpus = vc_estimate_get_n_gpus (estimate);

  json_builder_set_member_name (b, "gpu_count_basis");
  json_builder_add_string_value (b, "the smallest valid layout of each card: tensor parallel inside a node (dividing "
                                    "the heads) times pipeline stages for inference, the data-parallel group sharded "
                                    "with ZeRO-3 unless another stage is set for training; each GPU keeps its own overhead");
  json_builder_set_member_name (b, "gpus");
  json_builder_begin_array (b);
  for (guint i = 0; i < n_gpus; i++)
    add_gpu_json (b, estimate, in, i);
  json_builder_end_array (b);
}

/* "uncounted": what vLLM's or SGLang's figure leaves out at `tp` × `pp`, with its bound:
 * NCCL's buffers (FORMULAS.md, "Tensor parallelism and memory outside torch"); null where
 * there is no figure or nothing is left out */
static void
add_uncounted (JsonBuilder    *b,
               const VcInputs *in,
               gboolean        known,
               double          tp,
               double          pp)
{
  double bound = known ? vc_engine_nccl_bound_bytes (in, tp, pp) : 0;

  json_builder_set_member_name (b, "uncounted");
  if (bound <= 0)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "part");
  json_builder_add_string_value (b, "nccl-buffers");
  json_builder_set_member_name (b, "bytes_bound");
  json_builder_add_int_value (b, (gint64) bound);
  json_builder_set_member_name (b, "reason");
  json_builder_add_string_value (b, "topology-search");
  json_builder_end_object (b);
}

/* "uncounted_moe_workspace": that bound, as "uncounted" gives NCCL's; null where there is none */
static void
add_uncounted_moe (JsonBuilder    *b,
                   const VcInputs *in,
                   const VcGpu    *gpu,
                   gboolean        known,
                   double          tp)
{
  double bound = known ? vc_estimator_vllm_moe_uncounted_bytes (in, gpu, tp) : 0;

  json_builder_set_member_name (b, "uncounted_moe_workspace");
  if (bound <= 0)
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "part");
  json_builder_add_string_value (b, "moe-workspace");
  json_builder_set_member_name (b, "bytes_bound");
  json_builder_add_int_value (b, (gint64) bound);
  json_builder_set_member_name (b, "reason");
  json_builder_add_string_value (b, "experts-kernel");
  json_builder_end_object (b);
}

/* the text of that bound, or NULL */
static char *
moe_uncounted_text (const VcInputs *in,
                    const VcGpu    *gpu,
                    gboolean        known,
                    double          tp)
{
  double bound = known ? vc_estimator_vllm_moe_uncounted_bytes (in, gpu, tp) : 0;
  g_autofree char *size = NULL;

  if (bound <= 0)
    return NULL;
  size = g_format_size_full ((guint64) bound, G_FORMAT_SIZE_IEC_UNITS);
  /* Translators: the bound is a size, "639.0 MiB" */
  return g_strdup_printf (_("The quantized MoE experts’ workspace vLLM keeps is not counted: up to %s less for "
                            "the KV cache on each GPU (vLLM picks their kernel, DeepGEMM, FlashInfer, Triton, "
                            "CUTLASS or Marlin, by the kernels installed and the card)"),
                          size);
}

/* Whether SGLang's default fraction is lowered for a vision model here: not given, and the
 * encoder's layers and width known (vc_engine_sglang_vlm_factor) */
static gboolean
sglang_vlm_lowered (const VcInputs *in)
{
  return in->engine == VC_ENGINE_SGLANG && !(in->mem_fraction_static > 0) &&
         vc_engine_sglang_vlm_factor (&in->arch) != 1;
}

/* SGLang's mem_fraction_static on @gpu at the layout's TP, as its capacity takes it */
static double
sglang_fraction_at (const VcInputs *in,
                    const VcGpu    *gpu)
{
  double gpu_mib = gpu->memory_mib > 0 ? gpu->memory_mib : vc_engine_gpu_capacity (in, gpu) / 1048576.0;

  return vc_engine_sglang_fraction (in, gpu_mib, MAX (1u, in->layout.tp));
}

/* vLLM's MXFP4 expert backend (FORMULAS.md, "vLLM's MXFP4 experts"): the input, and the bytes
 * each rank of @gpu allocates beyond its share of the stored experts at the layout's TP, with
 * PP > 1 those of the busiest GPU's stage (@lr; without it, the stage holding the most) (0
 * without MXFP4 experts; null where that backend is not followed, or for the other engines) */
static void
add_mxfp4_json (JsonBuilder          *b,
                const VcInputs       *in,
                const VcLayoutResult *lr,
                const VcGpu          *gpu)
{
  double padding = 0, share = 0;
  gboolean padded = in->engine == VC_ENGINE_VLLM && vc_engine_vllm_mxfp4_extra (in, gpu, MAX (1u, in->layout.tp), &padding);

  if (lr != NULL)
    share = vc_engine_vllm_mxfp4_stage_share (in, padding, lr->busiest_stage);
  else
    for (guint s = 0; s < MAX (1u, in->layout.pp); s++)
      share = MAX (share, vc_engine_vllm_mxfp4_stage_share (in, padding, s));

  json_builder_set_member_name (b, "mxfp4_backend");
  if (in->engine == VC_ENGINE_VLLM)
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_MXFP4_BACKEND, in->mxfp4_backend));
  else
    json_builder_add_null_value (b);
  /* vLLM's profile-run sampler (FORMULAS.md, "the profile run's sampler") */
  json_builder_set_member_name (b, "vllm_sampler");
  if (in->engine == VC_ENGINE_VLLM)
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_VLLM_SAMPLER, in->vllm_sampler));
  else
    json_builder_add_null_value (b);
  /* vLLM's --mm-encoder-tp-mode (vc-layout.c, vc_layout_encoder_split) */
  json_builder_set_member_name (b, "mm_encoder_tp_mode");
  if (in->engine == VC_ENGINE_VLLM)
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_MM_ENCODER_TP_MODE, in->mm_encoder_tp_mode));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "mxfp4_padding_bytes");
  add_bytes_or_null (b, padded, share);
}

/* vLLM's multimodal profile run on @gpu at the layout's TP (vc-engine-mm.c): null where it is
 * not followed or --kv-cache-memory makes it moot */
static void
add_vllm_mm_json (JsonBuilder    *b,
                  const VcInputs *in,
                  const VcGpu    *gpu)
{
  VcVllmMmProfile mm;
  guint tokens, seqs;

  json_builder_set_member_name (b, "vllm_mm_profile");
  vc_engine_vllm_batch (in, gpu, &tokens, &seqs);
  if (in->kv_cache_memory_gb > 0 ||
      !vc_engine_mm_vllm_profile (in, tokens, seqs, MAX (1u, in->layout.tp), &mm))
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "images");
  json_builder_add_int_value (b, (gint64) mm.items);
  json_builder_set_member_name (b, "encoder_budget_tokens");
  json_builder_add_int_value (b, (gint64) mm.budget_tokens);
  json_builder_set_member_name (b, "encoder_pass_bytes");
  add_bytes (b, mm.encoder_pass_bytes);
  json_builder_set_member_name (b, "embeddings_bytes");
  add_bytes (b, mm.cache_bytes);
  json_builder_set_member_name (b, "later_embeddings_bytes");
  add_bytes (b, mm.later_cache_bytes);
  json_builder_set_member_name (b, "attention_mask_bytes");
  add_bytes (b, mm.mask_bytes);
  json_builder_set_member_name (b, "deepstack_buffer_bytes");
  add_bytes (b, mm.deepstack_bytes);
  json_builder_end_object (b);
}

/* vLLM's profile run on @gpu at the layout's TP (vc_estimator_vllm_profile_bytes, with the
 * card's batch and SMs), and the Triton sampler's buffer in it: "profile_bytes" (null for
 * other engines, other modes, or with --kv-cache-memory, where vLLM's cache does not follow
 * it) and "vllm_triton_buffer" (null where the profile run does not take that kernel) */
static void
add_vllm_profile_json (JsonBuilder    *b,
                       const VcInputs *in,
                       const VcGpu    *gpu)
{
  VcInputs card;
  guint tokens, seqs;
  double bytes, bound;
  gboolean vllm = in->engine == VC_ENGINE_VLLM && in->mode == VC_MODE_INFERENCE && in->kv_cache_memory_gb <= 0;

  vc_engine_on_card (in, gpu, &card);
  vc_engine_vllm_batch (&card, gpu, &tokens, &seqs);
  json_builder_set_member_name (b, "profile_bytes");
  add_bytes_or_null (b, vllm, vllm ? vc_estimator_vllm_profile_bytes (&card, tokens, seqs, MAX (1u, in->layout.tp)) : 0);
  json_builder_set_member_name (b, "vllm_triton_buffer");
  if (!vllm || !vc_estimator_vllm_triton_buffer (&card, MIN (tokens, seqs), &bytes, &bound))
    {
      json_builder_add_null_value (b);
      return;
    }
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "sm_count");
  if (card.gpu_sm_count > 0)
    json_builder_add_int_value (b, card.gpu_sm_count);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "rows");
  add_bytes_or_null (b, bytes > 0, bytes / (4.0 * in->arch.vocab_size));
  json_builder_set_member_name (b, "bytes");
  add_bytes_or_null (b, bytes > 0, bytes);
  json_builder_set_member_name (b, "bytes_bound");
  add_bytes (b, bound);
  json_builder_end_object (b);
}

/* The engine's figures at the layout asked for, on the card of --fit-gpu (null when there is
 * no layout result or the engine sizes no cache from it) */
static void
add_engine_json (JsonBuilder           *b,
                 VcEstimate            *estimate,
                 const VcReportRequest *req)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  const VcLayoutResult *lr = vc_estimate_get_layout_result (estimate);
  const VcGpu *gpu = vc_estimate_get_gpu (estimate, req->gpu_index);
  VcEngineAtLayout at = { 0 };
  VcLayout effective;

  if (lr != NULL)
    vc_engine_at_layout_stages (in, vc_estimate_get_result (estimate), vc_estimate_get_result (estimate)->selected,
                                lr, gpu, req->gpu_count, &at);
  json_builder_set_member_name (b, "engine");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "name");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_ENGINE, in->engine));
  /* vLLM's release and eager mode (FORMULAS.md, "vLLM's releases"), SGLang's source of its
   * pool rules; null for the others */
  json_builder_set_member_name (b, "version");
  if (in->engine == VC_ENGINE_VLLM)
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_VLLM_VERSION, in->vllm_version));
  else if (in->engine == VC_ENGINE_SGLANG)
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_SGLANG_VERSION, in->sglang_version));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "enforce_eager");
  if (in->engine == VC_ENGINE_VLLM)
    json_builder_add_boolean_value (b, in->enforce_eager);
  else
    json_builder_add_null_value (b);
  add_mxfp4_json (b, in, lr, gpu);
  /* vLLM's and SGLang's custom all-reduce (FORMULAS.md, "Tensor parallelism and memory outside
   * torch"); null for the others */
  json_builder_set_member_name (b, "disable_custom_all_reduce");
  if (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG)
    json_builder_add_boolean_value (b, in->disable_custom_all_reduce);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "custom_all_reduce_bytes");
  add_bytes_or_null (b, in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG,
                     vc_engine_custom_ar_bytes (in, MAX (1u, in->layout.tp)));
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, vc_estimate_get_gpu_key (estimate, req->gpu_index));
  json_builder_set_member_name (b, "gpu_count");
  json_builder_add_int_value (b, MAX (req->gpu_count, vc_layout_n_gpus (&in->layout)));
  json_builder_set_member_name (b, "replicas");
  json_builder_add_int_value (b, MAX (1u, MAX (req->gpu_count, vc_layout_n_gpus (&in->layout)) /
                                          (MAX (1u, in->layout.tp) * MAX (1u, in->layout.pp))));
  vc_layout_get_effective (in, &effective);
  json_builder_set_member_name (b, "layout");
  add_layout_object (b, &effective);
  json_builder_set_member_name (b, "budget_bytes");
  add_bytes_or_null (b, at.known, at.budget_bytes);
  json_builder_set_member_name (b, "available_kv_bytes");
  add_bytes_or_null (b, at.known, at.available_kv_bytes);
  json_builder_set_member_name (b, "kv_capacity_tokens");
  add_bytes_or_null (b, at.known, at.tokens);
  add_number_or_null (b, "max_concurrency", at.known, at.max_concurrency);
  /* vLLM's Mamba groups: the attention block raised until a page holds a layer's state, and
   * that page (vc-engine-state.c) */
  json_builder_set_member_name (b, "state_block_size");
  if (at.known && at.block_size > 0)
    json_builder_add_int_value (b, at.block_size);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "state_page_bytes");
  add_bytes_or_null (b, at.known && at.block_size > 0, at.state_page_bytes);
  /* SGLang's Mamba pool: one request's state and the requests it holds (vc-engine-state.c) */
  json_builder_set_member_name (b, "state_request_bytes");
  add_bytes_or_null (b, at.known && at.state_request_bytes > 0, at.state_request_bytes);
  json_builder_set_member_name (b, "state_pool_requests");
  add_bytes_or_null (b, at.known && at.state_request_bytes > 0, at.state_requests);
  /* SGLang's mem_fraction_static at this card and TP: as given, or its default, lowered for a
   * vision model (adjust_mem_fraction_for_vlm, FORMULAS.md, "Multimodal models") */
  add_number_or_null (b, "mem_fraction_static", in->engine == VC_ENGINE_SGLANG,
                      in->engine == VC_ENGINE_SGLANG ? sglang_fraction_at (in, gpu) : 0);
  add_number_or_null (b, "vlm_fraction_factor",
                      in->engine == VC_ENGINE_SGLANG && sglang_vlm_lowered (in),
                      vc_engine_sglang_vlm_factor (&in->arch));
  add_vllm_mm_json (b, in, gpu);
  add_vllm_profile_json (b, in, gpu);
  /* why there is no figure, where it is a part of the model the engine sizes apart */
  json_builder_set_member_name (b, "no_figure");
  if (!at.known && vc_engine_no_figure_on (in, gpu, MAX (1u, in->layout.tp)) != NULL)
    json_builder_add_string_value (b, vc_engine_no_figure_on (in, gpu, MAX (1u, in->layout.tp)));
  else
    json_builder_add_null_value (b);
  /* what the figure leaves out, with its bound: NCCL's buffers at TP × PP > 1 (FORMULAS.md,
   * "Tensor parallelism and memory outside torch") */
  add_uncounted (b, in, at.known, MAX (1u, in->layout.tp), MAX (1u, in->layout.pp));
  /* and the quantized MoE experts' workspace, with its bound (FORMULAS.md, "vLLM's MoE workspace") */
  add_uncounted_moe (b, in, gpu, at.known, MAX (1u, in->layout.tp));
  json_builder_end_object (b);
}

/* The command that runs the estimate on its engine (vc-command.c): its argv and text, or the
 * refusal naming what the engine cannot be told */
static void
add_command_json (JsonBuilder           *b,
                  VcEstimate            *estimate,
                  const VcReportRequest *req)
{
  g_auto(VcCommandRequest) creq = { 0 };
  g_autoptr(VcCommand) command = NULL;
  g_autoptr(GError) error = NULL;
  VcCommandEngine engine;

  if (!vc_command_estimate_engine (vc_estimate_get_inputs (estimate), &engine))
    return;
  vc_command_request_from_estimate (&creq, estimate);
  if (req->command_model == NULL || vc_command_request_set_model (&creq, req->command_model, &error))
    command = vc_command_build (engine, &creq, &error);
  json_builder_set_member_name (b, "command");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "engine");
  json_builder_add_string_value (b, vc_command_engine_id (engine));
  if (command != NULL)
    {
      json_builder_set_member_name (b, "argv");
      json_builder_begin_array (b);
      for (guint i = 0; command->argv[i]; i++)
        json_builder_add_string_value (b, command->argv[i]);
      json_builder_end_array (b);
      json_builder_set_member_name (b, "file_name");
      add_string_or_null (b, command->file_name);
      json_builder_set_member_name (b, "file_text");
      add_string_or_null (b, command->file_text);
      json_builder_set_member_name (b, "text");
      json_builder_add_string_value (b, command->text);
    }
  else
    {
      json_builder_set_member_name (b, "error");
      json_builder_add_string_value (b, error->message);
    }
  json_builder_end_object (b);
}


/* ---- the plan on "My GPUs" ------------------------------------------------------------------ */

static const char *
plan_engine_name (VcEstimate *estimate)
{
  return vc_plan_engine_id (vc_estimate_get_inputs (estimate));
}

/* What a card holds, as components that add up to its bytes */
typedef struct
{
  const char *id;
  double bytes;
} PlanPart;

static guint
plan_parts (const VcPlanDevice *d,
            PlanPart            parts[6])
{
  parts[0] = (PlanPart) { "weights", d->weights - d->experts };
  parts[1] = (PlanPart) { "experts", d->experts };
  parts[2] = (PlanPart) { "kv_cache", d->kv };
  parts[3] = (PlanPart) { "sequence_state", d->state };
  parts[4] = (PlanPart) { "activations", d->activations };
  parts[5] = (PlanPart) { "overhead", d->overhead };
  return 6;
}

static void
add_plan_device_json (JsonBuilder        *b,
                      const VcPlanDevice *d,
                      gboolean            llama_cpp)
{
  PlanPart parts[6];
  guint n = plan_parts (d, parts);

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "gpu");
  json_builder_add_string_value (b, d->gpu);
  json_builder_set_member_name (b, "memory_bytes");
  add_bytes (b, d->memory_bytes);
  json_builder_set_member_name (b, "available_bytes");
  add_bytes (b, d->available_bytes);
  json_builder_set_member_name (b, "limit_bytes");
  add_bytes (b, d->limit_bytes);
  json_builder_set_member_name (b, "bytes");
  add_bytes (b, d->bytes);
  json_builder_set_member_name (b, "layers");
  if (d->n_layers > 0)
    {
      json_builder_begin_array (b);
      json_builder_add_int_value (b, d->first_layer);
      json_builder_add_int_value (b, d->first_layer + d->n_layers - 1);
      json_builder_end_array (b);
    }
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "output");
  json_builder_add_boolean_value (b, d->output);
  if (llama_cpp)
    add_number_or_null (b, "split", TRUE, d->split);
  json_builder_set_member_name (b, "components");
  json_builder_begin_array (b);
  for (guint k = 0; k < n; k++)
    {
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, parts[k].id);
      json_builder_set_member_name (b, "bytes");
      add_bytes (b, parts[k].bytes);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static const char *no_figure_text (const VcInputs *in,
                                   const char     *why);

/* Why vLLM's or SGLang's plan has no cache figure at its TP × PP (vc_engine_no_figure at the
 * plan's degrees, not the layout's); NULL when it has one or the model leaves no cache */
static const char *
plan_no_figure (VcEstimate   *estimate,
                const VcPlan *plan)
{
  VcInputs at = *vc_estimate_get_inputs (estimate);

  if (plan->training || plan->kv_tokens > 0 || (at.engine != VC_ENGINE_VLLM && at.engine != VC_ENGINE_SGLANG))
    return NULL;
  at.layout.tp = plan->tp;
  at.layout.pp = plan->pp;
  /* vLLM's MXFP4 experts on a card of the set on which vLLM refuses them, or whose backend is
   * not followed (vc-plan.c) */
  for (guint i = 0; i < plan->devices->len; i++)
    {
      const VcPlanDevice *d = vc_plan_get_device (plan, i);
      const VcGpu *card = vc_gpus_lookup (d->gpu);
      VcGpu typed = { .id = (char *) "", .name = (char *) d->gpu };
      const char *why = vc_engine_no_figure_on (&at, card != NULL ? card : &typed, plan->tp);

      if (g_strcmp0 (why, "mxfp4-capability") == 0)
        return "mxfp4-capability";
      if (g_strcmp0 (why, "mxfp4-backend") == 0)
        return "mxfp4-backend";
    }
  return vc_engine_no_figure (&at);
}

static void
add_plan_json (JsonBuilder           *b,
               VcEstimate            *estimate,
               const VcReportRequest *req)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  g_autoptr(GError) error = NULL;
  VcPlan plan;

  json_builder_set_member_name (b, "plan");
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "engine");
  json_builder_add_string_value (b, plan_engine_name (estimate));
  if (!vc_estimate_compute_plan (estimate, &plan, &error))
    {
      json_builder_set_member_name (b, "refused");
      json_builder_add_string_value (b, error->message);
      json_builder_end_object (b);
      return;
    }
  json_builder_set_member_name (b, "devices");
  json_builder_begin_array (b);
  for (guint i = 0; i < plan.devices->len; i++)
    add_plan_device_json (b, vc_plan_get_device (&plan, i), vc_engine_is_llama_cpp (in) && in->mode == VC_MODE_INFERENCE);
  json_builder_end_array (b);
  json_builder_set_member_name (b, "host_bytes");
  add_bytes (b, plan.host_bytes);
  json_builder_set_member_name (b, "ram_bytes");
  add_bytes_or_null (b, plan.ram_bytes > 0, plan.ram_bytes);
  json_builder_set_member_name (b, "cpu_layers");
  json_builder_add_int_value (b, plan.cpu_layers);
  json_builder_set_member_name (b, "fills_first");
  if (plan.fills_first >= 0)
    json_builder_add_int_value (b, plan.fills_first);
  else
    json_builder_add_null_value (b);
  if (!plan.training && (in->engine == VC_ENGINE_VLLM || in->engine == VC_ENGINE_SGLANG))
    {
      json_builder_set_member_name (b, "tp");
      json_builder_add_int_value (b, plan.tp);
      json_builder_set_member_name (b, "pp");
      json_builder_add_int_value (b, plan.pp);
      json_builder_set_member_name (b, "kv_capacity_tokens");
      add_bytes_or_null (b, plan.kv_tokens > 0, plan.kv_tokens);
      json_builder_set_member_name (b, "bounded_by");
      json_builder_add_int_value (b, plan.bounded_by);
      add_uncounted (b, in, plan.kv_tokens > 0, plan.tp, plan.pp);
      /* the quantized MoE experts' workspace at vLLM's largest default batch (a card of 70 GiB or
       * more), the most any card of the set keeps */
      add_uncounted_moe (b, in, NULL, plan.kv_tokens > 0, plan.tp);
      json_builder_set_member_name (b, "no_figure");
      if (plan_no_figure (estimate, &plan) != NULL)
        json_builder_add_string_value (b, plan_no_figure (estimate, &plan));
      else
        json_builder_add_null_value (b);
      if (plan.balanced != NULL)
        {
          json_builder_set_member_name (b, "balanced_pp_partition");
          json_builder_begin_array (b);
          for (guint i = 0; i < plan.n_balanced; i++)
            json_builder_add_int_value (b, plan.balanced[i]);
          json_builder_end_array (b);
        }
    }
  if (!plan.training && vc_engine_is_llama_cpp (in) && in->method == VC_METHOD_ARCHITECTURE)
    {
      VcPlanOptions options = { 0 };
      guint most = 0;

      /* the plan's own options, as the estimate holds them */
      if (vc_estimate_get_plan_options (estimate, &options) &&
          vc_plan_most_gpu_layers (in, vc_estimate_get_gpu_set (estimate), &options, &most, NULL))
        {
          json_builder_set_member_name (b, "most_gpu_layers");
          json_builder_add_int_value (b, most);
        }
      g_free ((double *) options.tensor_split);
      g_free ((guint *) options.pp_partition);
    }
  if (req->plan_solved)
    {
      json_builder_set_member_name (b, "solve");
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "variable");
      json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_SOLVE_VARIABLE, req->plan_variable));
      json_builder_set_member_name (b, "value");
      json_builder_add_int_value (b, req->plan_value);
      json_builder_end_object (b);
    }
  json_builder_set_member_name (b, "fits");
  json_builder_add_boolean_value (b, plan.fits);
  json_builder_end_object (b);
  vc_plan_clear (&plan);
}

/* "Plan on My GPUs (llama.cpp): fits", a row per card and one for the RAM */
static void
table_plan (GString               *s,
            VcEstimate            *estimate,
            const VcReportRequest *req,
            VcUnit                 unit)
{
  g_autoptr(GError) error = NULL;
  VcPlan plan;

  g_string_append_c (s, '\n');
  if (!vc_estimate_compute_plan (estimate, &plan, &error))
    {
      /* Translators: "Plan on My GPUs (llama.cpp): refused: <why>" */
      g_string_append_printf (s, _("Plan on My GPUs (%s): refused: %s\n"), plan_engine_name (estimate), error->message);
      return;
    }
  /* Translators: "Plan on My GPUs (llama.cpp): fits" */
  g_string_append_printf (s, _("Plan on My GPUs (%s): %s\n"), plan_engine_name (estimate),
                          plan.fits ? _("fits") : _("does not fit"));
  for (guint i = 0; i < plan.devices->len; i++)
    {
      const VcPlanDevice *d = vc_plan_get_device (&plan, i);
      g_autofree char *holds = vc_format_size (d->bytes, unit);
      g_autofree char *limit = vc_format_size (d->limit_bytes, unit);
      g_autofree char *layers = NULL;

      if (d->n_layers > 0)
        /* Translators: "layers 0–24" */
        layers = g_strdup_printf (_("layers %u–%u%s"), d->first_layer, d->first_layer + d->n_layers - 1,
                                  d->output ? _(" and the output") : "");
      else
        layers = g_strdup (d->output ? _("the output") : _("no layer"));
      /* Translators: "  0  rtx-3090: layers 0–24, 15.2 GB of 24.0 GB" */
      g_string_append_printf (s, _("  %u  %s: %s, %s of %s\n"), i, d->gpu, layers, holds, limit);
    }
  {
    g_autofree char *host = vc_format_size (plan.host_bytes, unit);
    g_autofree char *ram = plan.ram_bytes > 0 ? vc_format_size (plan.ram_bytes, unit) : NULL;

    if (ram != NULL)
      /* Translators: "  RAM: 13 layers, 1.1 GB of 64 GB" */
      g_string_append_printf (s, _("  RAM: %u layers, %s of %s\n"), plan.cpu_layers, host, ram);
    else
      /* Translators: "  RAM: 13 layers, 1.1 GB (--ram not given)" */
      g_string_append_printf (s, _("  RAM: %u layers, %s (--ram not given)\n"), plan.cpu_layers, host);
  }
  if (plan.fills_first >= 0)
    g_string_append_printf (s, _("  Fills first: %s\n"), vc_plan_get_device (&plan, plan.fills_first)->gpu);
  if (plan.bounded_by >= 0 && plan.kv_tokens > 0)
    {
      g_autofree char *nccl = vc_engine_nccl_uncounted_text (vc_estimate_get_inputs (estimate), plan.tp, plan.pp);
      g_autofree char *moe = moe_uncounted_text (vc_estimate_get_inputs (estimate), NULL, TRUE, plan.tp);

      g_string_append_printf (s, _("  KV cache: %'.0f tokens on each card, bounded by %s\n"), plan.kv_tokens,
                              vc_plan_get_device (&plan, plan.bounded_by)->gpu);
      if (nccl != NULL)
        g_string_append_printf (s, "  %s\n", nccl);
      if (moe != NULL)
        g_string_append_printf (s, "  %s\n", moe);
    }
  else if (plan_no_figure (estimate, &plan) != NULL)
    {
      VcInputs at = *vc_estimate_get_inputs (estimate);

      at.layout.tp = plan.tp;
      at.layout.pp = plan.pp;
      if (no_figure_text (&at, plan_no_figure (estimate, &plan)) != NULL)
        g_string_append_printf (s, "  %s\n", no_figure_text (&at, plan_no_figure (estimate, &plan)));
    }
  if (plan.balanced != NULL)
    {
      g_autoptr(GString) counts = g_string_new (NULL);

      for (guint i = 0; i < plan.n_balanced; i++)
        g_string_append_printf (counts, "%s%u", i > 0 ? "," : "", plan.balanced[i]);
      /* Translators: "  Layers in proportion to each card's free memory: --pp-partition 21,11" */
      g_string_append_printf (s, _("  Layers in proportion to each card’s free memory: --pp-partition %s\n"), counts->str);
    }
  if (req->plan_solved)
    {
      const char *what = req->plan_variable == VC_SOLVE_VARIABLE_SEQ ? _("Longest sequence")
                         : req->plan_variable == VC_SOLVE_VARIABLE_BATCH ? _("Largest batch")
                         : _("Most concurrent requests");

      /* Translators: "  Longest sequence on the set: 32,768" */
      g_string_append_printf (s, _("  %s on the set: %'u\n"), what, req->plan_value);
    }
  vc_plan_clear (&plan);
}

/**
 * vc_report_json_request:
 * @req: the solver's answer and the card of --fit-gpu, if any
 *
 * The JSON report; each GPU carries what fits on its row's cards (max_seq and max_concurrency in
 * inference, max_batch and max_seq in training). With a card and an engine other than the
 * generic one, "engine" gives the engine's figures at the inputs' layout on that card.
 */
char *
vc_report_json_request (VcEstimate            *estimate,
                        const VcReportRequest *req)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *raw = NULL;
  const VcInputs *in = vc_estimate_get_inputs (estimate);

  json_builder_begin_object (b);
  add_model_json (b, estimate, in);
  add_scenarios_json (b, in, vc_estimate_get_result (estimate));
  add_layout_json (b, estimate);
  add_gpus_json (b, estimate, in);
  if (req->gpu_index >= 0 && in->engine != VC_ENGINE_GENERIC && in->mode == VC_MODE_INFERENCE)
    add_engine_json (b, estimate, req);
  add_command_json (b, estimate, req);
  if (req->solve != NULL)
    {
      json_builder_set_member_name (b, "solve");
      add_solve (b, req->solve, vc_estimate_get_gpu_key (estimate, req->gpu_index));
    }
  if (vc_gpu_set_get_n (vc_estimate_get_gpu_set (estimate)) > 0)
    add_plan_json (b, estimate, req);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  raw = json_generator_to_data (gen, NULL);
  /* json-glib 1.6 writes 1e+20 as "1e+20.0", which is not JSON */
  return vc_json_fix_numbers (raw);
}

/* Pads to a width in characters, not bytes, so French accents keep columns aligned. */
static void
append_padded (GString    *s,
               const char *text,
               int         width,
               gboolean    right)
{
  int len = g_utf8_strlen (text, -1);
  int pad = MAX (0, width - len);

  if (right)
    for (int i = 0; i < pad; i++)
      g_string_append_c (s, ' ');
  g_string_append (s, text);
  if (!right)
    for (int i = 0; i < pad; i++)
      g_string_append_c (s, ' ');
}

/* The model, the method and the figures every scenario shares. */
static void
table_header (GString    *s,
              VcEstimate *estimate)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  const VcResult *r = vc_estimate_get_result (estimate);
  /* a name read from a file: its control characters escaped, newlines included */
  g_autofree char *name = vc_escape_controls (vc_estimate_get_model_name (estimate), FALSE);
  g_autofree char *params = vc_format_count (r->parameters);
  g_autofree char *active = vc_format_count (r->active_parameters);

  g_string_append_printf (s, _("Model: %s\n"), *name ? name : _("custom"));
  if (*vc_estimate_get_model_not_understood (estimate) != NULL)
    {
      g_autofree char *parts = g_strjoinv (", ", (char **) vc_estimate_get_model_not_understood (estimate));
      g_string_append_printf (s, _("Approximate, not understood: %s\n"), parts);
    }
  g_string_append_printf (s, _("Method: %s\n"),
                          in->method == VC_METHOD_RULE_OF_THUMB ? _("by parameter count") : _("architecture"));
  if (r->active_parameters < r->parameters)
    g_string_append_printf (s, _("Parameters: %s (%s activated per token)\n"), params, active);
  else
    g_string_append_printf (s, _("Parameters: %s\n"), params);
  if (r->kv_bytes_per_token >= 0 && in->mode == VC_MODE_INFERENCE)
    {
      g_autofree char *kv = vc_format_size (r->kv_bytes_per_token, VC_UNIT_GIB);
      g_string_append_printf (s, _("KV cache per token: %s\n"), kv);
    }
  if (in->mode == VC_MODE_INFERENCE)
    g_string_append_printf (s, _("Inference: sequence length %u, batch %u, concurrency %u\n"),
                            in->seq, in->batch, in->concurrency);
  else
    g_string_append_printf (s, _("Training: sequence length %u, batch %u, optimizer %s\n"),
                            in->seq, in->batch, vc_enum_nick (VC_TYPE_OPTIMIZER, in->optimizer));
  g_string_append_c (s, '\n');
}

/* One line per scenario, the selected one starred. */
static void
table_scenarios (GString    *s,
                 VcEstimate *estimate,
                 VcUnit      unit)
{
  const VcResult *r = vc_estimate_get_result (estimate);
  int name_width = 0;

  for (guint i = 0; i < r->n_scenarios; i++)
    name_width = MAX (name_width, g_utf8_strlen (vc_scenario_name (r->scenarios[i].id), -1));
  append_padded (s, "", 2, FALSE);
  append_padded (s, _("Scenario"), name_width + 2, FALSE);
  append_padded (s, _("Required GPU memory"), 20, TRUE);
  g_string_append_c (s, '\n');
  for (guint i = 0; i < r->n_scenarios; i++)
    {
      g_autofree char *total = vc_format_size (r->scenarios[i].total, unit);

      append_padded (s, i == r->selected ? "*" : "", 2, FALSE);
      append_padded (s, vc_scenario_name (r->scenarios[i].id), name_width + 2, FALSE);
      append_padded (s, total, 20, TRUE);
      g_string_append_c (s, '\n');
    }
}

/* The selected scenario's components, with their formulas when asked to explain. */
static void
table_breakdown (GString    *s,
                 VcEstimate *estimate,
                 gboolean    explain,
                 VcUnit      unit)
{
  const VcResult *r = vc_estimate_get_result (estimate);
  const VcScenarioResult *sel = &r->scenarios[r->selected];
  GListModel *rows = vc_estimate_get_breakdown (estimate);
  g_autofree char *total = vc_format_size (sel->total, unit);
  int component_width;

  g_string_append_printf (s, _("\nBreakdown of %s:\n"), vc_scenario_name (sel->id));
  /* the widest component name sets the column, in whatever language */
  component_width = g_utf8_strlen (_("Total"), -1);
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(VcComponentRow) row = g_list_model_get_item (rows, i);
      component_width = MAX (component_width, g_utf8_strlen (vc_component_row_get_name (row), -1));
    }
  for (guint i = 0; i < g_list_model_get_n_items (rows); i++)
    {
      g_autoptr(VcComponentRow) row = g_list_model_get_item (rows, i);
      g_autofree char *size = vc_format_size (vc_component_row_get_bytes (row), unit);
      /* Translators: a share of the total memory in percent, as in "74 %" */
      g_autofree char *share = g_strdup_printf (_("%.0f %%"), 100 * vc_component_row_get_share (row));

      append_padded (s, "", 2, FALSE);
      append_padded (s, vc_component_row_get_name (row), component_width + 2, FALSE);
      append_padded (s, size, 12, TRUE);
      append_padded (s, share, 7, TRUE);
      g_string_append_c (s, '\n');
      if (explain)
        {
          g_autofree char *formula = vc_formula_describe (estimate, r->selected,
                                                          vc_component_row_get_component (row), unit);
          g_string_append_printf (s, "      %s\n", formula);
        }
    }
  append_padded (s, "", 2, FALSE);
  append_padded (s, _("Total"), component_width + 2, FALSE);
  append_padded (s, total, 12, TRUE);
  g_string_append_c (s, '\n');
  if (sel->peak_phase == VC_PHASE_FORWARD)
    g_string_append (s, _("  The peak is at the start of the backward pass (activations and logits held).\n"));
  else if (sel->peak_phase == VC_PHASE_BACKWARD)
    g_string_append (s, _("  The peak is at the end of the backward pass (all gradients held).\n"));
  else if (sel->peak_phase == VC_PHASE_STEP)
    g_string_append (s, _("  The peak is at the optimizer step (all gradients and the foreach step’s temporary held).\n"));
  if (vc_estimator_models_reserve (vc_estimate_get_inputs (estimate)))
    {
      g_autofree char *reserved = vc_format_size (sel->reserved, unit);

      g_string_append_printf (s, _("  Reserved by PyTorch's caching allocator: %s (what a GPU must hold).\n"), reserved);
      if (explain)
        g_string_append (s, _("      One training step replayed through the allocator: requests rounded to 512 bytes; up to 1 MiB "
                              "in 2 MiB segments, up to 10 MiB in 20 MiB segments, larger ones in segments rounded to "
                              "2 MiB (with expandable segments, one segment a pool growing by 2 or 20 MiB pages); freed "
                              "blocks reused best fit and kept, the optimizer state created after the first backward "
                              "pass.\n"));
    }
}

/* A card's label in the GPU table: its name and the memory a program can use on it */
static char *
gpu_label (VcEstimate *estimate,
           guint       i,
           VcUnit      unit)
{
  const VcGpuFit *fit = vc_estimate_get_gpu_fit (estimate, i);
  const VcGpu *gpu = vc_estimate_get_gpu (estimate, i);
  g_autofree char *cap = vc_format_size (fit->capacity_bytes, unit);
  g_autofree char *localized = vc_localize_gpu_name (gpu->name);
  g_autofree char *name = vc_escape_controls (localized, FALSE);

  /* TRANSLATORS: a GPU's name and the memory a program can use on it */
  return g_strdup_printf (_("%s (%s usable)"), name, cap);
}

/**
 * vc_report_experts_as_stored_note:
 *
 * Returns: why the count on @gpu keeps vLLM's MXFP4 experts as stored (FORMULAS.md, "vLLM's
 *   MXFP4 experts"): its backend there is not followed
 */
const char *
vc_report_experts_as_stored_note (const VcInputs *in,
                                  const VcGpu    *gpu)
{
  /* TRANSLATORS: after the count of a card on which vLLM's MXFP4 expert backend is not
   * followed (FORMULAS.md, "vLLM's MXFP4 experts") */
  return _("MXFP4 experts as stored: vLLM’s backend on this card is not known");
}

/**
 * vc_report_gpu_refused_note:
 *
 * Returns: in place of a count, why the engine does not start on @gpu whatever the memory
 *   (VcGpuFit.refused: vLLM refuses MXFP4 below compute capability 8.0), translated
 */
const char *
vc_report_gpu_refused_note (void)
{
  /* TRANSLATORS: in place of a GPU count, for a card on which vLLM does not start with MXFP4
   * experts (its MXFP4 quantization needs compute capability 8.0) */
  return _("vLLM refuses MXFP4 below compute capability 8.0: it does not start on this card");
}

/* How many of each GPU the selected scenario takes. */
static void
table_gpus (GString    *s,
            VcEstimate *estimate,
            VcUnit      unit)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  const VcResult *r = vc_estimate_get_result (estimate);
  g_autofree char *overhead = vc_format_size (r->overhead_bytes, unit);
  guint n_gpus = vc_estimate_get_n_gpus (estimate);
  int width = 28;

  append_layout_table (s, estimate, unit);
  g_string_append_printf (s, _("\nGPUs (the smallest valid layout of each card; each keeps its own "
                               "%s overhead):\n"), overhead);
  g_string_append (s, _("  Cards are sold in GiB; each is compared with the memory a program can use on it.\n"));
  /* the card column fits its longest label, as printed */
  for (guint i = 0; i < n_gpus; i++)
    {
      g_autofree char *label = gpu_label (estimate, i, unit);

      width = MAX (width, (int) g_utf8_strlen (label, -1));
    }
  for (guint i = 0; i < n_gpus; i++)
    {
      const VcGpuFit *fit = vc_estimate_get_gpu_fit (estimate, i);
      g_autofree char *label = gpu_label (estimate, i, unit);
      g_autofree char *count = NULL;

      if (fit->refused)
        count = g_strdup (vc_report_gpu_refused_note ());
      else if (fit->count <= 0)
        count = g_strdup (_("does not fit on any number"));
      else if (fit->fits)
        count = g_strdup (_("fits on 1"));
      else if (fit->count < 1e9)
        {
          g_autofree char *needs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "needs %.0f GPU", "needs %.0f GPUs",
                                                                 (gulong) fit->count), fit->count);
          g_autofree char *how = vc_layout_describe (&fit->layout, in->mode, in->method, TRUE);
          g_autofree char *size = vc_format_size (fit->per_gpu_bytes, unit);
          /* Translators: the memory each GPU of a layout holds, as in "(21.8 GB each)" */
          g_autofree char *each = g_strdup_printf (_("(%s each)"), size);

          count = g_strdup_printf ("%s%s%s %s", needs, *how ? " · " : "", how, each);
        }
      else
        {
          g_autofree char *n = vc_format_number (fit->count);
          /* TRANSLATORS: %s is a huge number of GPUs in the compact form "4.83 × 10¹⁵" */
          count = g_strdup_printf (_("needs %s GPUs"), n);
        }
      if (fit->count > 0 && fit->experts_as_stored)
        {
          g_autofree char *stored = g_steal_pointer (&count);

          count = g_strdup_printf ("%s · %s", stored,
                                   vc_report_experts_as_stored_note (in, vc_estimate_get_gpu (estimate, i)));
        }
      append_padded (s, "", 2, FALSE);
      append_padded (s, label, width + 2, FALSE);
      g_string_append (s, count);
      g_string_append_c (s, '\n');
    }
}

char *
vc_report_table (VcEstimate *estimate,
                 gboolean    explain,
                 VcUnit      unit)
{
  VcReportRequest req = { NULL, -1, 0 };

  return vc_report_table_request (estimate, explain, unit, &req);
}

/* The table, and the solver's answer in a sentence at the end when there is one. */
/* "Engine vllm on 4 × H100 80 GB · TP 4: 76.4 GB budget per GPU, 40.2 GB for the KV cache:
 * 263,168 tokens, 32.1 requests of 8,192 tokens at once" */
/* vLLM's MXFP4 experts where they leave no figure, or NULL for another reason */
static const char *
no_figure_mxfp4_text (const VcInputs *in,
                      const char     *why)
{
  if (g_strcmp0 (why, "mxfp4-capability") == 0)
    return _("vLLM refuses MXFP4 on this card: its compute capability is below 8.0, the minimum of vLLM’s MXFP4 "
             "quantization (Mxfp4Config.get_min_capability), so vLLM does not start, whatever the memory.");
  if (g_strcmp0 (why, "mxfp4-layout") == 0)
    return _("vLLM’s padded MXFP4 experts are followed without expert parallelism (over several pipeline "
             "stages each stage pads its own layers): with --ep each rank holds whole experts at the full "
             "intermediate size, in parts not followed here; --kv-cache-memory gives the cache there.");
  if (g_strcmp0 (why, "mxfp4-backend") == 0 && in->mxfp4_backend == VC_MXFP4_BACKEND_MARLIN)
    return _("vLLM’s Marlin backend (--mxfp4-backend marlin, VLLM_MXFP4_USE_MARLIN=1) is followed on NVIDIA cards of "
             "compute capability 8.0 and later, but on 10.x only from release 0.21 (--engine-version 0.21): before "
             "the kernel oracle of pull request #37128 FlashInfer’s backend, whenever FlashInfer is installed, comes "
             "ahead of that variable there; on a card of unknown capability the backend is not known. "
             "--kv-cache-memory gives the cache there.");
  if (g_strcmp0 (why, "mxfp4-backend") == 0 && in->mxfp4_backend == VC_MXFP4_BACKEND_TRITON)
    return _("vLLM’s Triton backend (--mxfp4-backend triton) is followed on compute capability 9.x without expert "
             "parallelism, and on 8.x vLLM takes Marlin; on 10.x FlashInfer’s backends come first and Triton’s "
             "Blackwell layouts are not followed, and on a card of unknown capability the backend is not known. "
             "--kv-cache-memory gives the cache there.");
  if (g_strcmp0 (why, "mxfp4-backend") == 0)
    return _("vLLM’s MXFP4 experts are followed on NVIDIA cards of compute capability 8.x (the Marlin backend, "
             "which pads them) and on 9.x from release 0.14 without expert parallelism (Triton’s kernels, whose "
             "package its wheels carry). Elsewhere vLLM picks by the kernels installed, environment variables and "
             "the release: Triton’s kernels (9.x before 0.14 where the machine has them; 10.x), FlashInfer’s (9.0 "
             "and 10.x, each padding its own way) or Marlin; on a card of unknown capability the backend is not "
             "known. --kv-cache-memory gives the cache there.");
  return NULL;
}

/* vLLM's multimodal profile run or SGLang's lowered fraction, where they leave no figure
 * ("encoder": vc_engine_no_figure) */
static const char *
no_figure_encoder_text (const VcInputs *in)
{
  if (in->engine == VC_ENGINE_VLLM && in->arch.encoder_tower == VC_ENCODER_TOWER_PIXTRAL &&
      in->arch.encoder_image_tokens > 0)
    return _("vLLM’s profile run passes a batch of images through the vision encoder and keeps their "
             "embeddings. Mistral 3’s images are known from its config.json (the architecture fields "
             "encoder-image-tokens and encoder-patches) and the Pixtral tower’s pass is followed for "
             "releases 0.10 to 0.20 on one pipeline stage. Here it is not: release 0.21 and later profile "
             "the encoder in ways not read, or with PP > 1 which stage runs it is not followed, or "
             "--limit-mm-per-prompt 0 serves text only, whether the tower is then loaded not followed, or "
             "the tower’s widths are not known (encoder-width, encoder-intermediate); --kv-cache-memory "
             "gives the cache.");
  if (in->engine == VC_ENGINE_VLLM && in->arch.encoder_tower == VC_ENCODER_TOWER_LLAMA4 &&
      in->arch.encoder_image_tokens > 0)
    return _("vLLM’s profile run passes a batch of images through the vision encoder and keeps their "
             "embeddings. Llama 4’s images are known from its preprocessor_config.json (max_patches tiles "
             "and a global one: the architecture fields encoder-image-tokens and encoder-patches), and its "
             "tower’s pass is followed for releases 0.10 to 0.20 on one pipeline stage. Here it is not: "
             "release 0.21 and later profile the encoder in ways not read, or with PP > 1 which stage runs it "
             "is not followed, or --mm-encoder-tp-mode data pads the tiles to a multiple of TP (a copy of the "
             "pixels), runs each rank’s share through the whole tower and gathers them before the projector "
             "runs over every tile, whose peak against the tower’s share is not followed, or "
             "--limit-mm-per-prompt 0 serves text only, or the "
             "tower’s widths leave its adapter or projector above its layers (encoder-intermediate 0); "
             "--kv-cache-memory gives the cache.");
  if (in->engine == VC_ENGINE_VLLM && in->arch.encoder_tower == VC_ENCODER_TOWER_QWEN3_VL)
    return _("vLLM’s profile run passes a batch of images through the vision encoder and keeps their "
             "embeddings: followed for Qwen3-VL from release 0.11 to 0.20 on one pipeline stage. Here it is "
             "not: the image’s size comes from the processor’s preprocessor_config.json (size.longest_edge "
             "and size.shortest_edge), and the dummy video’s from its video_preprocessor_config.json, which "
             "must be read beside config.json (a folder or the Hub, or the catalog’s Qwen3-VL 4B and 8B "
             "presets, which carry a cited copy of Qwen’s files; not its 2B and 30B-A3B presets), with a "
             "video of no more tokens than the image; or release 0.10 or 0.21 "
             "and later, not read; or 0.11 with a context of 1,499 images or more (a longer dummy video); or "
             "--mm-encoder-tp-mode data at TP > 1, whose split of the images is not followed; or with PP > 1; "
             "or --limit-mm-per-prompt 0; --kv-cache-memory gives the cache.");
  if (in->engine == VC_ENGINE_VLLM)
    return _("vLLM’s profile run passes a batch of images through the vision encoder and keeps their "
             "embeddings: followed for releases 0.10 to 0.20 on one pipeline stage, for a model whose image "
             "follows from its config.json (Gemma 3: the architecture fields encoder-intermediate, "
             "encoder-patches, encoder-pixel-values, encoder-image-tokens and encoder-image-embeds). "
             "Here it is not: the tokens of an image come from the processor’s settings "
             "(preprocessor_config.json, not read), or release 0.21 and later profile the encoder in ways "
             "not read, or with PP > 1 which stage runs it is not followed, or --limit-mm-per-prompt 0 serves "
             "text only, whether the tower is then loaded not followed; --kv-cache-memory gives the cache.");
  return _("SGLang lowers its default --mem-fraction-static for a vision model by its encoder’s layers and "
             "width, not known here (architecture fields encoder-layers and encoder-width); "
             "--mem-fraction gives the fraction.");
}

/* SGLang's Mamba pool over several pipeline stages where it is followed on one but not over
 * these ("state-pools"; vc-engine-state.c, sglang_stages_followed) */
static const char *
no_figure_sglang_stages_text (const VcInputs *in)
{
  if (in->sglang_version != VC_SGLANG_VERSION_003FCA8)
    return _("SGLang’s Mamba pool over several pipeline stages is followed at source 003fca8 "
             "(--sglang-version 003fca8), where every stage derives the same pool and the same cap on "
             "running requests. At 001ccef each stage caps its running requests from its own token count, "
             "before the smallest over the stages is taken (model_runner_kv_cache_mixin.py, init_memory), "
             "and how the scheduler reconciles the stages’ caps (tp_worker.py, not stored at that commit) "
             "was not read.");
  return _("SGLang’s Mamba pool over several pipeline stages needs each stage’s layers of either kind: "
           "which layers hold a mixer is not known here. It is where every layer holds both (Falcon-H1) "
           "or where the architecture fields attention-layer-period and attention-layer-offset say which "
           "layers hold attention instead of a mixer (Qwen3-Next, Granite 4.0-H).");
}

/* The part of the model vLLM or SGLang sizes apart, named where it leaves no figure
 * (vc_engine_no_figure; FORMULAS.md, "Engines") */
static const char *
no_figure_text (const VcInputs *in,
                const char     *why)
{
  const char *mxfp4 = no_figure_mxfp4_text (in, why);

  if (mxfp4 != NULL)
    return mxfp4;
  if (g_strcmp0 (why, "rope-table") == 0)
    {
      const char *kind = vc_engine_rope_table_unsized (in);

      if (g_strcmp0 (kind, "mrope") == 0)
        return _("The model’s rotary positions are multimodal rope: the engine’s cos/sin table for it "
                 "(MRotaryEmbedding) is followed for vLLM with mrope_section in rope_scaling and the default "
                 "rope type (four times max_position_embeddings rows), not for SGLang, another rope type or a "
                 "Qwen3-VL config without mrope_section, so what it takes from the KV cache is not known.");
      if (g_strcmp0 (kind, "longrope") == 0)
        return _("The model’s rotary positions are longrope: SGLang’s short and long cos/sin tables "
                 "for it are not followed here (vLLM’s are), so what they take from its pool is not known.");
      if (g_strcmp0 (kind, "typed-in") == 0)
        return _("The architecture is typed in without its context: the rows of the engine’s RoPE cos/sin "
                 "table (max_position_embeddings for a Llama-shaped model) are not known. Give --max-context "
                 "(the model’s max_position_embeddings), or --rope-table-rows and --rotary-dim.");
      if (g_strcmp0 (kind, "no-positions") == 0)
        return _("The model’s config gives no max_position_embeddings: the rows of the engine’s RoPE "
                 "cos/sin table (its class default) are not known.");
      return _("The model’s rope_scaling type is one whose cos/sin table in the engine’s get_rope is not "
               "followed here (followed: default, llama3, linear, dynamic with a factor, yarn, longrope "
               "in vLLM), so what it takes from the KV cache is not known.");
    }
  if (g_strcmp0 (why, "state-pools") == 0 && in->engine == VC_ENGINE_VLLM)
    return _("vLLM’s Mamba groups are followed for releases 0.10 to 0.20 on one pipeline stage (PP 1) "
             "without a sliding window, under TP where it divides the mixer’s heads and groups, or where it "
             "divides the heads of a Mamba-2 mixer of one group of known state size in unquantized weights "
             "(vLLM repeats that group on every rank). vLLM refuses other groups that TP does not divide, "
             "and quantized weights with them; with PP > 1 each stage’s layers of either kind count, followed from "
             "release 0.14 where every layer holds both (Falcon-H1) or where the architecture fields "
             "attention-layer-period and attention-layer-offset say which layers hold attention instead of a "
             "mixer (Qwen3-Next, Granite 4.0-H), not where the mixers’ places are not known.");
  if (g_strcmp0 (why, "state-pools") == 0 && in->engine == VC_ENGINE_SGLANG && MAX (1u, in->layout.pp) > 1 &&
      vc_engine_state_sglang_followed (in, MAX (1u, in->layout.tp), 1))
    return no_figure_sglang_stages_text (in);
  if (g_strcmp0 (why, "state-pools") == 0 && in->engine == VC_ENGINE_SGLANG)
    return _("SGLang’s Mamba pool is followed without a sliding window, for a model whose convolution state "
             "is counted apart (its dtype differs from the recurrent state’s), under TP where it divides the "
             "mixer’s heads and groups, or where it divides the heads of a Mamba-2 mixer of one group of "
             "known state size in unquantized weights (SGLang repeats that group on every rank). SGLang "
             "refuses other groups that TP does not divide, and quantized weights with them.");
  if (g_strcmp0 (why, "state-pools") == 0)
    return _("Its linear-attention or state-space layers keep a state per request in a pool of their own "
             "(vLLM’s Mamba groups, SGLang’s Mamba pool), which is not sized here.");
  if (g_strcmp0 (why, "encoder") == 0)
    return no_figure_encoder_text (in);
  if (g_strcmp0 (why, "layout-groups") == 0 && in->arch.sliding_window_layers < in->arch.n_layers &&
      (in->arch.sliding_window_pattern == 0 ||
       in->arch.sliding_window_layers != in->arch.n_layers - in->arch.n_layers / in->arch.sliding_window_pattern))
    return _("Over several pipeline stages each stage’s share of the full and sliding-window layers sizes "
             "the engine’s pools, and which layers use the window is not known here (the architecture field "
             "sliding-window-pattern: every Pth layer full, the others windowed); with one pipeline stage "
             "the count alone is enough.");
  if (g_strcmp0 (why, "layout-groups") == 0 && in->engine == VC_ENGINE_VLLM)
    return _("vLLM’s groups of sliding-window layers over several pipeline stages are followed from release "
             "0.14 (--engine-version 0.14, 0.17 or 0.21), which groups the whole model’s layers and spreads each "
             "stage’s over the groups (pull request #23974); 0.11 spans releases on both sides of that change, "
             "and 0.10 grouped each stage’s own layers.");
  if (g_strcmp0 (why, "layout-groups") == 0)
    return _("SGLang’s sliding-window pool over several pipeline stages is followed at source 003fca8 "
             "(--sglang-version 003fca8), whose pool configurator counts the whole model’s layers on every "
             "stage and keeps the smallest pool of any; at 001ccef how it sizes the stages was not read.");
  return NULL;
}

/* vLLM's multimodal profile run on @gpu at the layout's TP, where followed (vc-engine-mm.c) */
static void
table_vllm_mm (GString        *s,
               const VcInputs *in,
               const VcGpu    *gpu,
               VcUnit          unit)
{
  VcVllmMmProfile mm;
  guint tokens, seqs;
  g_autofree char *pass = NULL, *kept = NULL, *later = NULL;

  if (in->kv_cache_memory_gb > 0)
    return;
  vc_engine_vllm_batch (in, gpu, &tokens, &seqs);
  if (!vc_engine_mm_vllm_profile (in, tokens, seqs, MAX (1u, in->layout.tp), &mm))
    return;
  pass = vc_format_size (mm.encoder_pass_bytes, unit);
  kept = vc_format_size (mm.cache_bytes, unit);
  later = vc_format_size (mm.later_cache_bytes, unit);
  if (vc_engine_vllm_minor (in) >= 14)
    {
      /* Translators: "  vLLM's profile run passes 3 images through the vision encoder (573 MB at
       * its peak) and keeps their embeddings through the text pass: 110 MB, each image's own
       * rows, its embeddings counted against an encoder budget of 8,192 (pull request #30475)" */
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                              "  vLLM’s profile run passes %.0f image through the vision encoder (%s at "
                                              "its peak) and keeps its embeddings through the text pass: %s, the "
                                              "image’s own rows, its embeddings counted against an encoder budget of "
                                              "%'.0f (pull request #30475)\n",
                                              "  vLLM’s profile run passes %.0f images through the vision encoder (%s at "
                                              "its peak) and keeps their embeddings through the text pass: %s, each "
                                              "image’s own rows, its embeddings counted against an encoder budget of "
                                              "%'.0f (pull request #30475)\n",
                                              (gulong) mm.items),
                              mm.items, pass, kept, mm.budget_tokens);
    }
  else
    {
      /* Translators: "  vLLM's profile run passes 31 images through the vision encoder (3.2 GB at
       * its peak) and keeps their embeddings through the text pass: 2.9 GB at an encoder budget
       * of 8,192 tokens as 0.10 and 0.11.x keep them, 0.3 GB from 0.12 on (pull request #29386)" */
      g_string_append_printf (s, g_dngettext (GETTEXT_PACKAGE,
                                              "  vLLM’s profile run passes %.0f image through the vision encoder (%s at "
                                              "its peak) and keeps its embeddings through the text pass: %s at an "
                                              "encoder budget of %'.0f tokens as 0.10 and 0.11.x keep them, counted "
                                              "here; %s from 0.12 on (pull request #29386)\n",
                                              "  vLLM’s profile run passes %.0f images through the vision encoder (%s at "
                                              "its peak) and keeps their embeddings through the text pass: %s at an "
                                              "encoder budget of %'.0f tokens as 0.10 and 0.11.x keep them, counted "
                                              "here; %s from 0.12 on (pull request #29386)\n",
                                              (gulong) mm.items),
                              mm.items, pass, kept, mm.budget_tokens, later);
    }
  if (mm.deepstack_bytes > 0)
    {
      g_autofree char *deep = vc_format_size (mm.deepstack_bytes, unit);

      /* Translators: "  Qwen3-VL's deepstack buffers, one a level of max_num_batched_tokens rows of
       * the text width, made with the model: 201 MB" */
      g_string_append_printf (s, _("  Qwen3-VL’s deepstack buffers, one a level of max_num_batched_tokens rows of "
                                   "the text width, made with the model: %s\n"), deep);
    }
  if (mm.mask_bytes > 0)
    {
      g_autofree char *mask = vc_format_size (mm.mask_bytes, unit);

      /* Translators: "  The Pixtral tower's attention holds a dense mask over the batch's 24,200
       * patches (1.2 GB, within the encoder's peak), without xformers ..." */
      g_string_append_printf (s, _("  The Pixtral tower’s attention holds a dense mask over the batch’s %'.0f "
                                   "patches (%s, within the encoder’s peak), without xformers (not installed by "
                                   "vLLM from 0.13 on; 0.11.0 to 0.11.2 took xformers’ block-diagonal mask, "
                                   "without one)\n"),
                              mm.items * in->arch.encoder_patches, mask);
    }
}

/* What the engine's figures on @gpu leave out, with its bound: NCCL's buffers at TP × PP > 1,
 * vLLM 0.17's Triton sampler's buffer where the card's SM count is not known */
static void
table_uncounted (GString        *s,
                 const VcInputs *in,
                 const VcGpu    *gpu,
                 VcUnit          unit)
{
  g_autofree char *nccl = vc_engine_nccl_uncounted_text (in, MAX (1u, in->layout.tp), MAX (1u, in->layout.pp));
  VcInputs card;
  guint tokens, seqs;
  double bytes, bound;

  if (nccl != NULL)
    g_string_append_printf (s, "  %s\n", nccl);
  vc_engine_on_card (in, gpu, &card);
  vc_engine_vllm_batch (&card, gpu, &tokens, &seqs);
  if (in->engine == VC_ENGINE_VLLM && in->mode == VC_MODE_INFERENCE && in->kv_cache_memory_gb <= 0 &&
      vc_estimator_vllm_triton_buffer (&card, MIN (tokens, seqs), &bytes, &bound) && !(bytes > 0))
    {
      g_autofree char *size = vc_format_size (bound, unit);

      /* Translators: "  vLLM's Triton top-k/top-p buffer is not counted: up to 640 MB less for
       * the KV cache (the card's SM count is not known)" */
      g_string_append_printf (s, _("  vLLM’s Triton top-k/top-p buffer is not counted: up to %s less for the KV "
                                   "cache (the card’s SM count is not known)\n"),
                              size);
    }
}

/* Where the engine would not start with the cache it sizes, as its own error says: nothing left
 * for the cache, or (vLLM, check_enough_kv_cache_memory in vllm/v1/core/kv_cache_utils.py) less
 * than one request of the sequence in it */
static void
engine_start_note (GString                *s,
                   const VcInputs         *in,
                   const VcEngineAtLayout *at)
{
  if (!(at->tokens > 0))
    g_string_append_printf (s, "  %s\n",
                            in->engine == VC_ENGINE_SGLANG
                              ? _("SGLang does not start so: nothing is left for its token pool once the weights "
                                  "are in its share (“Not enough memory. Please try to increase "
                                  "--mem-fraction-static”); more GPUs, a larger fraction or smaller weights leave room.")
                              : _("vLLM does not start so: nothing is left for the KV cache once the weights and "
                                  "its profile run are out (“No available memory for the cache blocks”); more GPUs, "
                                  "a higher --gpu-memory-utilization or smaller weights leave room."));
  else if (in->engine == VC_ENGINE_VLLM && at->max_concurrency < MAX (1u, at->replicas))
    g_string_append_printf (s, "  %s\n",
                            _("vLLM does not start so: its cache holds less than one request of the sequence "
                              "(“To serve at least one request with the models's max seq len … KV cache is needed, "
                              "which is larger than the available KV cache memory”); a shorter sequence, more GPUs "
                              "or a higher --gpu-memory-utilization leave room."));
}

static void
table_engine (GString               *s,
              VcEstimate            *estimate,
              const VcReportRequest *req,
              VcUnit                 unit)
{
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  VcLayout effective;
  const VcLayoutResult *lr = vc_estimate_get_layout_result (estimate);
  const VcGpu *gpu = vc_estimate_get_gpu (estimate, req->gpu_index);
  g_autofree char *how = NULL;
  const char *engine = vc_enum_nick (VC_TYPE_ENGINE, in->engine);
  VcEngineAtLayout at = { 0 };

  vc_layout_get_effective (in, &effective);
  how = vc_layout_describe (&effective, in->mode, in->method, TRUE);
  if (lr != NULL)
    vc_engine_at_layout_stages (in, vc_estimate_get_result (estimate), vc_estimate_get_result (estimate)->selected,
                                lr, gpu, req->gpu_count, &at);
  g_string_append_c (s, '\n');
  if (!at.known)
    {
      const char *why = vc_engine_no_figure_on (in, gpu, MAX (1u, in->layout.tp));

      /* Translators: "Engine vllm on 4 × H100 80 GB · TP 4: no KV-cache figure for this model" */
      g_string_append_printf (s, _("Engine %s on %u × %s%s%s: no KV-cache figure for this model here\n"),
                              engine, at.n_gpus, gpu->name, *how ? " · " : "", how);
      if (no_figure_text (in, why) != NULL)
        g_string_append_printf (s, "  %s\n", no_figure_text (in, why));
      /* the GPU table's capacity for each card still holds it */
      table_vllm_mm (s, in, gpu, unit);
      return;
    }
  {
    g_autofree char *budget = vc_format_size (at.budget_bytes, unit);
    g_autofree char *room = vc_format_size (at.available_kv_bytes, unit);
    g_autofree char *tokens = g_strdup_printf ("%'.0f", at.tokens);
    g_autofree char *seq = g_strdup_printf ("%'u", in->seq);
    /* under one request, rounded down to hundredths: 0.997 is not "1.0" (vLLM does not start) */
    g_autofree char *requests = at.max_concurrency > 0 && at.max_concurrency < 1
                                  ? g_strdup_printf ("%.2f", floor (at.max_concurrency * 100) / 100)
                                  : g_strdup_printf ("%.1f", at.max_concurrency);

    /* Translators: "Engine vllm on 4 × H100 80 GB · TP 4: 76.4 GB budget per GPU, 40.2 GB for the
     * KV cache: 263,168 tokens, 32.1 requests of 8,192 tokens at once" */
    g_string_append_printf (s, _("Engine %s on %u × %s%s%s: %s budget per GPU, %s for the KV cache: %s tokens, "
                                 "%s requests of %s tokens at once\n"),
                            engine, at.n_gpus, gpu->name, *how ? " · " : "", how, budget, room, tokens,
                            requests, seq);
    engine_start_note (s, in, &at);
    if (in->engine == VC_ENGINE_SGLANG && !(in->mem_fraction_static > 0) && in->arch.encoder_params > 0 &&
        in->arch.sglang_multimodal_off)
      g_string_append_printf (s, "  %s\n",
                              _("SGLang serves this model without images unless --enable-multimodal is given: "
                                "its default --mem-fraction-static is not lowered for the vision encoder, "
                                "whose weights it loads all the same."));
    table_vllm_mm (s, in, gpu, unit);
    if (sglang_vlm_lowered (in))
      {
        double f = sglang_fraction_at (in, gpu);
        double factor = vc_engine_sglang_vlm_factor (&in->arch);

        /* Translators: "  SGLang's default --mem-fraction-static lowered for a vision model:
         * 0.835 × 0.9097 = 0.7596 (an encoder of 27 layers of 1,152)" */
        g_string_append_printf (s, _("  SGLang’s default --mem-fraction-static lowered for a vision model: "
                                     "%.3f × %.4f = %.4f (an encoder of %u layers of %'u)\n"),
                                f / factor, factor, f, in->arch.encoder_layers, in->arch.encoder_width);
      }
    if (at.block_size > 0)
      {
        g_autofree char *page = vc_format_size (at.state_page_bytes, unit);

        /* Translators: "  Attention block of 544 tokens, so that a page (1.1 MB) holds one layer's
         * state of a request" */
        g_string_append_printf (s, _("  Attention block of %u tokens, so that a page (%s) holds one layer’s state "
                                     "of a request\n"),
                                at.block_size, page);
      }
    if (at.state_request_bytes > 0)
      {
        g_autofree char *state = vc_format_size (at.state_request_bytes, unit);
        g_autofree char *pool = vc_format_size (at.state_request_bytes * at.state_requests, unit);
        g_autofree char *slots = g_strdup_printf ("%'.0f", at.state_requests);

        /* Translators: "  Mamba pool of 1,234 requests (3.1 GB), 2.5 MB a request, before the KV cache" */
        g_string_append_printf (s, _("  Mamba pool of %s requests (%s), %s a request, before the KV cache\n"),
                                slots, pool, state);
      }
  }
  table_uncounted (s, in, gpu, unit);
  {
    g_autofree char *moe = moe_uncounted_text (in, gpu, TRUE, MAX (1u, in->layout.tp));

    if (moe != NULL)
      g_string_append_printf (s, "  %s\n", moe);
  }
}

char *
vc_report_table_request (VcEstimate            *estimate,
                         gboolean               explain,
                         VcUnit                 unit,
                         const VcReportRequest *req)
{
  g_autoptr(GString) s = g_string_new (NULL);
  const VcInputs *in = vc_estimate_get_inputs (estimate);

  table_header (s, estimate);
  table_scenarios (s, estimate, unit);
  table_breakdown (s, estimate, explain, unit);
  table_gpus (s, estimate, unit);
  if (req->gpu_index >= 0 && in->engine != VC_ENGINE_GENERIC && in->mode == VC_MODE_INFERENCE)
    table_engine (s, estimate, req, unit);
  if (req->solve != NULL)
    {
      const VcSolution *solve = req->solve;
      g_autofree char *need = vc_format_size (solve->total_bytes, unit);
      /* nothing fits: the need is compared with what the engine may use */
      g_autofree char *capacity = vc_format_size (solve->found ? solve->capacity_bytes : solve->usable_bytes, unit);
      g_autofree char *line = vc_solution_describe (solve, vc_estimate_get_gpu (estimate, req->gpu_index)->name,
                                                    need, capacity);

      g_string_append_printf (s, "\n%s\n", line);
      if (solve->found && vc_engine_vllm_experts_as_stored (in, vc_estimate_get_gpu (estimate, req->gpu_index), 1))
        g_string_append_printf (s, "%s\n", _("MXFP4 experts counted as stored: vLLM’s backend on this card is not known."));
      /* a sequence stopped by memory alone may still be beyond what the model was made for */
      if (solve->variable == VC_SOLVE_VARIABLE_SEQ &&
          vc_solver_model_context (in) == 0)
        g_string_append_printf (s, "%s\n", _("The model's maximum context is not known here "
                                               "(--max-context N with the architecture method), "
                                               "so nothing but the input's range caps the sequence."));
    }
  if (vc_gpu_set_get_n (vc_estimate_get_gpu_set (estimate)) > 0)
    table_plan (s, estimate, req, unit);
  /* a terminal whose charset has no no-break space would show "?" in "18.8 GB" */
  vc_plain_spaces_unless_utf8 (s);
  return g_string_free (g_steal_pointer (&s), FALSE);
}
