/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-csv.c: the CSV export of an estimate.
 *
 * Columns: section (result, fit, solve or input), scenario id, item id (component, "total",
 * GPU and variable, or input name), name (for people), bytes (integer), value (in the estimate's
 * unit for results, the largest value that fits for fit and solve rows, empty when none does,
 * the input's value for inputs) and unit. Fit rows give, for each GPU, what fits on its row's cards
 * (vc_report_fit_variables()); the solve row, vramcalc --solve's answer. Ids are the stable ones of the JSON report and profiles;
 * names and the header follow the UI language.
 */
#define G_LOG_DOMAIN "vc-csv"

#include "config.h"

#include <glib/gi18n-lib.h>

#include "vc-atomic-file.h"
#include "vc-component-row.h"
#include "vc-csv.h"
#include "vc-engine.h"
#include "vc-enums.h"
#include "vc-report.h"
#include "vc-units.h"

/* OWASP's list: what spreadsheets read as the start of a formula, or that hides one */
static gboolean
starts_formula (const char *text)
{
  return text[0] == '=' || text[0] == '+' || text[0] == '-' || text[0] == '@' ||
         text[0] == '\t' || text[0] == '\r';
}

/* @prefix then @text as one field, quoted if either holds a comma, quote, CR or LF */
static void
append_quoted_prefixed (GString    *row,
                        const char *prefix,
                        const char *text)
{
  if (strpbrk (prefix, ",\"\r\n") == NULL && strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (row, prefix);
      g_string_append (row, text);
      return;
    }
  g_string_append_c (row, '"');
  for (const char *part = prefix; part != NULL; part = part == prefix ? text : NULL)
    for (const char *p = part; *p; p++)
      {
        if (*p == '"')
          g_string_append_c (row, '"');
        g_string_append_c (row, *p);
      }
  g_string_append_c (row, '"');
}

static void
append_quoted (GString    *row,
               const char *text)
{
  append_quoted_prefixed (row, "", text);
}

/* @text as one field at the end of @row (vc_csv_text_cell()) */
static void
append_text_cell (GString    *row,
                  const char *text)
{
  append_quoted_prefixed (row, starts_formula (text) ? "'" : "", text);
}

/**
 * vc_csv_text_cell:
 * @text: a text cell's content
 *
 * Returns: (transfer full): @text as one CSV field: neutralised with a leading apostrophe if it
 *   starts with =, +, -, @, tab or CR, then quoted if it holds a comma, quote, CR or LF
 */
char *
vc_csv_text_cell (const char *text)
{
  GString *cell;

  g_return_val_if_fail (text != NULL, NULL);

  cell = g_string_new (NULL);
  append_text_cell (cell, text);
  return g_string_free (cell, FALSE);
}

typedef struct
{
  GString *out;
  guint n_fields;              /* in the row being written */
} Writer;

static void
add_text (Writer     *w,
          const char *text)
{
  /* written in place, as vc_csv_text_cell() gives it */
  if (w->n_fields++ > 0)
    g_string_append_c (w->out, ',');
  append_text_cell (w->out, text ? text : "");
}

/* Numbers are written by us, never by the user, in the C locale's form; a negative one stays
 * a number, which is why they do not go through the formula check. */
static void
add_number (Writer     *w,
            const char *number)
{
  if (w->n_fields++ > 0)
    g_string_append_c (w->out, ',');
  append_quoted (w->out, number);
}

static void
end_row (Writer *w)
{
  /* every row has the header's number of fields */
  g_assert (w->n_fields == VC_CSV_N_COLUMNS);
  g_string_append (w->out, "\r\n");
  w->n_fields = 0;
}

static void
add_size_row (Writer     *w,
              const char *scenario,
              const char *item,
              const char *name,
              double      bytes,
              VcUnit      unit)
{
  g_autofree char *integer = vc_format_bytes_machine (bytes);
  char value[G_ASCII_DTOSTR_BUF_SIZE];

  if (!(bytes >= 0) || bytes > G_MAXDOUBLE)
    bytes = 0;
  g_ascii_formatd (value, sizeof value, "%.3f", bytes / vc_unit_divisor (unit));
  add_text (w, "result");
  add_text (w, scenario);
  add_text (w, item);
  add_text (w, name);
  add_number (w, integer);
  add_number (w, value);
  add_text (w, unit == VC_UNIT_GIB ? "GiB" : "GB");
  end_row (w);
}

static const char *
variable_unit (VcSolveVariable variable)
{
  switch (variable)
    {
    case VC_SOLVE_VARIABLE_BATCH: return "sequences";
    case VC_SOLVE_VARIABLE_CONCURRENCY: return "requests";
    case VC_SOLVE_VARIABLE_SEQ:
    default: return "tokens";
    }
}

/* One answer of the solver: the bytes per GPU at the value, and the value (empty: none fits) */
static void
add_solution_row (Writer           *w,
                  const char       *section,
                  const char       *scenario,
                  const char       *item,
                  const char       *name,
                  const VcSolution *sol)
{
  g_autofree char *integer = vc_format_bytes_machine (sol->total_bytes);
  g_autofree char *value = sol->found ? g_strdup_printf ("%u", sol->value) : g_strdup ("");

  add_text (w, section);
  add_text (w, scenario);
  add_text (w, item);
  add_text (w, name);
  add_number (w, integer);
  add_number (w, value);
  add_text (w, variable_unit (sol->variable));
  end_row (w);
}

/* One card for one scenario: its usable memory in bytes, how many of it the scenario takes
 * (empty when no number of them is enough) and whether one holds it: "fits", "several" or
 * "none", or "refused" where the engine does not start on the card whatever the memory
 * (vLLM's MXFP4 below compute capability 8.0). */
static void
add_gpu_row (Writer      *w,
             const char  *scenario_id,
             const VcGpu *gpu,
             guint        n,
             gboolean     refused)
{
  g_autofree char *name = vc_localize_gpu_name (gpu->name);
  g_autofree char *capacity = vc_format_bytes_machine (gpu->capacity_bytes);
  char count[G_ASCII_DTOSTR_BUF_SIZE] = "";

  if (n > 0)
    g_snprintf (count, sizeof count, "%u", n);
  add_text (w, "gpu");
  add_text (w, scenario_id);
  add_text (w, gpu->id);
  add_text (w, name);
  add_number (w, capacity);
  add_number (w, count);
  add_text (w, refused ? "refused" : n == 0 ? "none" : n == 1 ? "fits" : "several");
  end_row (w);
}

/* Every card for one scenario, counted as the GPU table counts. */
static void
add_gpu_rows (Writer     *w,
              VcEstimate *estimate,
              guint       scenario_index)
{
  const VcResult *r = vc_estimate_get_result (estimate);
  guint n_gpus = vc_estimate_get_n_gpus (estimate);
  g_autofree guint *counts = g_new (guint, n_gpus);

  vc_estimate_count_gpus (estimate, scenario_index, counts);
  for (guint g = 0; g < n_gpus; g++)
    add_gpu_row (w, vc_scenario_id (r->scenarios[scenario_index].id), vc_estimate_get_gpu (estimate, g),
                 counts[g], vc_engine_vllm_mxfp4_refused (vc_estimate_get_inputs (estimate), vc_estimate_get_gpu (estimate, g)));
}

static void
add_input_row (Writer     *w,
               VcEstimate *estimate,
               GParamSpec *pspec)
{
  g_autofree char *value = vc_estimate_dup_input_string (estimate, pspec->name);

  add_text (w, "input");
  add_text (w, "");
  add_text (w, pspec->name);
  add_text (w, _(g_param_spec_get_nick (pspec)));
  add_text (w, "");
  /* numbers stay numbers: "-1" is a value here, not a formula to neutralise */
  if (G_IS_PARAM_SPEC_UINT (pspec) || G_IS_PARAM_SPEC_DOUBLE (pspec))
    add_number (w, value);
  else
    add_text (w, value);
  add_text (w, g_str_has_suffix (pspec->name, "-gb") ? "GB" : "");
  end_row (w);
}

/* the display unit, listed with the inputs where profiles keep it */
static void
add_unit_row (Writer *w,
              VcUnit  unit)
{
  add_text (w, "input");
  add_text (w, "");
  add_text (w, "unit");
  add_text (w, _("Unit"));
  add_text (w, "");
  add_text (w, vc_unit_to_string (unit));
  add_text (w, "");
  end_row (w);
}

/**
 * vc_csv_export:
 * @estimate: the estimate
 * @unit: the unit of the sizes
 * @length: (out) (optional): length in bytes
 *
 * Returns: (transfer full): the CSV text: a header, for each scenario of the current mode one
 *   row per component shown and a total, then one row per input
 */
char *
vc_csv_export (VcEstimate *estimate,
               VcUnit      unit,
               gsize      *length)
{
  return vc_csv_export_with_solve (estimate, NULL, NULL, NULL, unit, length);
}

/**
 * vc_csv_export_with_solve:
 * @solve: (nullable): the solver's answer for a solve row, on @gpu_key (@gpu_name for people)
 */
char *
vc_csv_export_with_solve (VcEstimate       *estimate,
                          const VcSolution *solve,
                          const char       *gpu_key,
                          const char       *gpu_name,
                          VcUnit            unit,
                          gsize            *length)
{
  Writer w = { g_string_new (NULL), 0 };
  const VcInputs *in;
  const VcResult *r;
  g_autofree GParamSpec **inputs = NULL;
  guint n;

  g_return_val_if_fail (VC_IS_ESTIMATE (estimate), NULL);

  in = vc_estimate_get_inputs (estimate);
  r = vc_estimate_get_result (estimate);

  /* TRANSLATORS: CSV column: "result" rows or "input" rows */
  add_text (&w, _("Section"));
  /* TRANSLATORS: CSV column: scenario id such as inference-16bit */
  add_text (&w, _("Scenario"));
  /* TRANSLATORS: CSV column: component id, "total" or input name */
  add_text (&w, _("Item"));
  add_text (&w, _("Name"));
  add_text (&w, _("Bytes"));
  add_text (&w, _("Value"));
  add_text (&w, _("Unit"));
  end_row (&w);

  for (guint i = 0; i < r->n_scenarios; i++)
    {
      const VcScenarioResult *sc = &r->scenarios[i];
      const char *id = vc_scenario_id (sc->id);

      for (guint c = 0; c < VC_N_COMPONENTS; c++)
        if (vc_component_applies (in, c))
          add_size_row (&w, id, vc_component_id (c), vc_component_name (c), sc->bytes[c], unit);
      add_size_row (&w, id, "total", vc_scenario_name (sc->id), sc->total, unit);
    }

  for (guint i = 0; i < vc_estimate_get_n_gpus (estimate); i++)
    for (guint v = 0; v < 2; v++)
      {
        VcSolveVariable var = vc_report_fit_variables (in->mode)[v];
        const VcSolution *sol = vc_estimate_get_row_solution (estimate, i, var);
        g_autofree char *item = g_strdup_printf ("%s/%s", vc_estimate_get_gpu_key (estimate, i),
                                                 vc_report_fit_key (var));
        /* the sentence without its sizes: the Bytes column has them */
        g_autofree char *name = vc_solution_describe (sol, vc_estimate_get_gpu (estimate, i)->name, NULL, NULL);

        add_solution_row (&w, "fit", vc_scenario_id (r->scenarios[r->selected].id), item, name, sol);
      }
  if (solve != NULL)
    {
      g_autofree char *item = g_strdup_printf ("%s/%s", gpu_key, vc_enum_nick (VC_TYPE_SOLVE_VARIABLE, solve->variable));
      g_autofree char *name = vc_solution_describe (solve, gpu_name, NULL, NULL);
      add_solution_row (&w, "solve", vc_scenario_id (r->scenarios[r->selected].id), item, name, solve);
    }
  for (guint i = 0; i < r->n_scenarios; i++)
    add_gpu_rows (&w, estimate, i);
  /* the cards whose table count keeps vLLM's MXFP4 experts as stored (FORMULAS.md, "vLLM's
   * MXFP4 experts"), for the selected scenario, whose count is the table's */
  for (guint i = 0; i < vc_estimate_get_n_gpus (estimate); i++)
    if (vc_estimate_get_gpu_fit (estimate, i)->experts_as_stored)
      {
        const VcGpu *gpu = vc_estimate_get_gpu (estimate, i);

        add_text (&w, "experts_as_stored");
        add_text (&w, vc_scenario_id (r->scenarios[r->selected].id));
        add_text (&w, gpu->id);
        add_text (&w, vc_report_experts_as_stored_note (in, gpu));
        add_number (&w, "");
        add_number (&w, "");
        add_text (&w, "");
        end_row (&w);
      }

  inputs = vc_estimate_list_inputs (&n);
  for (guint i = 0; i < n; i++)
    {
      add_input_row (&w, estimate, inputs[i]);
      if (g_str_equal (inputs[i]->name, VC_UNIT_FOLLOWS_INPUT))
        add_unit_row (&w, unit);
    }

  if (length)
    *length = w.out->len;
  return g_string_free (w.out, FALSE);
}

/**
 * vc_csv_write_file:
 *
 * Writes vc_csv_export() to @file atomically (a failure leaves a previous file intact).
 */
gboolean
vc_csv_write_file (GFile         *file,
                   VcEstimate    *estimate,
                   VcUnit         unit,
                   GCancellable  *cancellable,
                   GError       **error)
{
  g_autofree char *data = NULL;
  gsize length;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (VC_IS_ESTIMATE (estimate), FALSE);

  data = vc_csv_export (estimate, unit, &length);
  return vc_atomic_file_replace (file, data, length, cancellable, error);
}
