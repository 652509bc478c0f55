/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every fuzz target that builds an estimate asks of it: finite, non-negative figures in
 * every scenario and component, the inputs' own layout computed or refused, and the
 * breakdown. The reports, with the GPU table of the whole catalog and what fits on each of its
 * rows, are the *-report targets' (FUZZ_REPORT): a few hundred solves an input hold those to
 * tens or hundreds of inputs a second, where the others run at thousands. */
#pragma once

#include <math.h>

#include "vc-estimate.h"
#include "vc-report.h"

#ifndef FUZZ_REPORT
#define FUZZ_REPORT 0
#endif

static inline void
fuzz_check_figures (VcEstimate *estimate)
{
  const VcResult *result = vc_estimate_get_result (estimate);
  const VcLayoutResult *layout;

  g_assert_true (isfinite (result->parameters) && result->parameters >= 0);
  g_assert_true (isfinite (result->active_parameters) && result->active_parameters >= 0);
  g_assert_true (isfinite (result->overhead_bytes) && result->overhead_bytes >= 0);
  g_assert_cmpuint (result->selected, <, result->n_scenarios);
  for (guint i = 0; i < result->n_scenarios; i++)
    {
      const VcScenarioResult *sc = &result->scenarios[i];

      g_assert_true (isfinite (sc->total) && sc->total >= 0);
      g_assert_true (isfinite (sc->reserved) && sc->reserved >= sc->total);
      for (guint c = 0; c < VC_N_COMPONENTS; c++)
        g_assert_true (isfinite (sc->bytes[c]) && sc->bytes[c] >= 0);
    }
  layout = vc_estimate_get_layout_result (estimate);
  if (layout != NULL)
    g_assert_true (isfinite (layout->reserved) && layout->reserved >= 0);
  g_assert_nonnull (vc_estimate_get_breakdown (estimate));
}

/* The JSON and table reports, GPU table and solver included, in UTF-8 (FUZZ_REPORT only) */
static inline void
fuzz_check_reports (VcEstimate *estimate)
{
  g_autofree char *json = NULL;
  g_autofree char *table = NULL;

  if (!FUZZ_REPORT)
    return;
  json = vc_report_json (estimate);
  g_assert_true (g_utf8_validate (json, -1, NULL));
  table = vc_report_table (estimate, TRUE, VC_UNIT_GB);
  g_assert_true (g_utf8_validate (table, -1, NULL));
}
