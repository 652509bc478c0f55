/* vc-report.c: JSON and text reports of an estimate, used by vramcalc and the tests. */
#define G_LOG_DOMAIN "vc-report"

#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <math.h>

#include "vc-catalog.h"
#include "vc-component-row.h"
#include "vc-enums.h"
#include "vc-json-input.h"
#include "vc-report.h"
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
add_components (JsonBuilder            *b,
                const VcInputs         *in,
                const VcScenarioResult *sc)
{
  json_builder_begin_array (b);
  for (guint c = 0; c < VC_N_COMPONENTS; c++)
    {
      if (!vc_component_applies (in, c))
        continue;
      json_builder_begin_object (b);
      json_builder_set_member_name (b, "id");
      json_builder_add_string_value (b, vc_component_id (c));
      json_builder_set_member_name (b, "bytes");
      add_bytes (b, sc->bytes[c]);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
}

char *
vc_report_json (VcEstimate *estimate)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();
  g_autoptr(JsonGenerator) gen = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  const VcResult *r = vc_estimate_get_result (estimate);
  const VcScenarioResult *sel = &r->scenarios[r->selected];
  guint n_gpus;

  json_builder_begin_object (b);
  json_builder_set_member_name (b, "method");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_METHOD, in->method));
  json_builder_set_member_name (b, "mode");
  json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_MODE, in->mode));
  json_builder_set_member_name (b, "preset");
  if (*vc_estimate_get_preset (estimate))
    json_builder_add_string_value (b, vc_estimate_get_preset (estimate));
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "model");
  json_builder_add_string_value (b, vc_estimate_get_model_name (estimate));
  json_builder_set_member_name (b, "scenario");
  json_builder_add_string_value (b, vc_scenario_id (sel->id));
  json_builder_set_member_name (b, "parameters");
  add_bytes (b, r->parameters);
  json_builder_set_member_name (b, "active_parameters");
  add_bytes (b, r->active_parameters);
  json_builder_set_member_name (b, "trainable_parameters");
  add_bytes (b, sel->trainable_parameters);
  json_builder_set_member_name (b, "kv_bytes_per_token");
  if (r->kv_bytes_per_token >= 0)
    add_bytes (b, r->kv_bytes_per_token);
  else
    json_builder_add_null_value (b);
  json_builder_set_member_name (b, "peak_phase");
  if (sel->peak_phase == VC_PHASE_NONE)
    json_builder_add_null_value (b);
  else
    json_builder_add_string_value (b, vc_enum_nick (VC_TYPE_PHASE, sel->peak_phase));
  json_builder_set_member_name (b, "components");
  add_components (b, in, sel);
  json_builder_set_member_name (b, "total_bytes");
  add_bytes (b, sel->total);

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

  json_builder_set_member_name (b, "gpu_count_basis");
  json_builder_add_string_value (b, "weights, KV cache, activations, gradients and optimizer state split "
                                    "evenly across GPUs (KV heads not below one per GPU); each GPU keeps its own overhead");
  json_builder_set_member_name (b, "gpus");
  json_builder_begin_array (b);
  n_gpus = vc_estimate_get_n_gpus (estimate);
  for (guint i = 0; i < n_gpus; i++)
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
      json_builder_set_member_name (b, "fits");
      json_builder_add_boolean_value (b, fit->fits);
      json_builder_set_member_name (b, "count");
      if (fit->count > 0)
        add_bytes (b, fit->count);
      else
        json_builder_add_null_value (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);

  root = json_builder_get_root (b);
  json_generator_set_root (gen, root);
  json_generator_set_pretty (gen, TRUE);
  {
    g_autofree char *raw = json_generator_to_data (gen, NULL);

    /* json-glib 1.6 writes 1e+20 as "1e+20.0", which is not JSON */
    return vc_json_fix_numbers (raw);
  }
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

char *
vc_report_table (VcEstimate *estimate,
                 gboolean    explain)
{
  g_autoptr(GString) s = g_string_new (NULL);
  const VcInputs *in = vc_estimate_get_inputs (estimate);
  const VcResult *r = vc_estimate_get_result (estimate);
  const VcScenarioResult *sel = &r->scenarios[r->selected];
  VcUnit unit = vc_estimate_get_unit (estimate);
  const char *name = vc_estimate_get_model_name (estimate);
  g_autofree char *params = vc_format_count (r->parameters);
  g_autofree char *active = vc_format_count (r->active_parameters);
  g_autofree char *overhead = vc_format_size (r->overhead_bytes, unit);
  GListModel *rows;
  guint n_gpus;
  int name_width = 0;
  int component_width;

  g_string_append_printf (s, _("Model: %s\n"), *name ? name : _("custom"));
  g_string_append_printf (s, _("Method: %s\n"),
                          in->method == VC_METHOD_RULE_OF_THUMB ? _("rule of thumb") : _("architecture"));
  if (r->active_parameters < r->parameters)
    g_string_append_printf (s, _("Parameters: %s (%s activated per token)\n"), params, active);
  else
    g_string_append_printf (s, _("Parameters: %s\n"), params);
  if (r->kv_bytes_per_token >= 0 && in->mode == VC_MODE_INFERENCE)
    {
      g_autofree char *kv = g_format_size_full ((guint64) r->kv_bytes_per_token, G_FORMAT_SIZE_IEC_UNITS);
      g_string_append_printf (s, _("KV cache per token: %s\n"), kv);
    }
  if (in->mode == VC_MODE_INFERENCE)
    g_string_append_printf (s, _("Inference: sequence length %u, batch %u, concurrency %u\n"),
                            in->seq, in->batch, in->concurrency);
  else
    g_string_append_printf (s, _("Training: sequence length %u, batch %u, optimizer %s\n"),
                            in->seq, in->batch, vc_enum_nick (VC_TYPE_OPTIMIZER, in->optimizer));
  g_string_append_c (s, '\n');

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

  g_string_append_printf (s, _("\nBreakdown of %s:\n"), vc_scenario_name (sel->id));
  rows = vc_estimate_get_breakdown (estimate);
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
        g_string_append_printf (s, "      %s\n", vc_component_row_get_formula (row));
    }
  {
    g_autofree char *total = vc_format_size (sel->total, unit);
    append_padded (s, "", 2, FALSE);
    append_padded (s, _("Total"), component_width + 2, FALSE);
    append_padded (s, total, 12, TRUE);
    g_string_append_c (s, '\n');
  }
  if (sel->peak_phase == VC_PHASE_FORWARD)
    g_string_append (s, _("  The peak is at the start of the backward pass (activations and logits held).\n"));
  else if (sel->peak_phase == VC_PHASE_BACKWARD)
    g_string_append (s, _("  The peak is at the end of the backward pass (all gradients held).\n"));

  g_string_append_printf (s, _("\nGPUs (several GPUs split weights, KV cache, activations, gradients and "
                               "optimizer state; each keeps its own %s overhead):\n"), overhead);
  n_gpus = vc_estimate_get_n_gpus (estimate);
  for (guint i = 0; i < n_gpus; i++)
    {
      const VcGpuFit *fit = vc_estimate_get_gpu_fit (estimate, i);
      const VcGpu *gpu = vc_estimate_get_gpu (estimate, i);
      g_autofree char *cap = vc_format_size (gpu->memory_bytes, unit);
      g_autofree char *label = g_strdup_printf ("%s (%s)", gpu->name, cap);
      g_autofree char *count = NULL;

      if (fit->count <= 0)
        count = g_strdup (_("does not fit on any number"));
      else if (fit->fits)
        count = g_strdup (_("fits on 1"));
      else if (fit->count < 1e9)
        count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "needs %.0f GPU", "needs %.0f GPUs",
                                              (gulong) fit->count), fit->count);
      else
        count = g_strdup_printf (_("needs %.3g GPUs"), fit->count);
      append_padded (s, "", 2, FALSE);
      append_padded (s, label, 30, FALSE);
      g_string_append (s, count);
      g_string_append_c (s, '\n');
    }
  /* a terminal whose charset has no no-break space would show "?" in "18.8 GB" */
  vc_plain_spaces_unless_utf8 (s);
  return g_string_free (g_steal_pointer (&s), FALSE);
}
