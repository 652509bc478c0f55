/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-estimate.h: the estimate model, one object holding every input of an estimate (a property
 * each, with its range and default in the GParamSpec) and its results (read-only properties,
 * the breakdown as a GListModel, the GPU fits). The window, the command line and profiles all
 * go through it.
 *
 * Results are recomputed once per burst of changes: setting inputs marks the estimate dirty and
 * schedules one recomputation at high idle priority (before the next frame is drawn); reading a
 * result recomputes at once if needed, so code without a main loop sees fresh values too.
 * "changed" is emitted after each recomputation.
 */
#pragma once

#include <gio/gio.h>

#include "vc-catalog.h"
#include "vc-estimator.h"
#include "vc-solver.h"
#include "vc-layout.h"
#include "vc-plan.h"
#include "vc-types.h"

G_BEGIN_DECLS

/* The largest model an estimate takes (its "parameters" property): 1,000T, ten times the
 * largest size asked for. */
#define VC_MAX_PARAMETERS 1e15

#define VC_TYPE_ESTIMATE (vc_estimate_get_type ())
G_DECLARE_FINAL_TYPE (VcEstimate, vc_estimate, VC, ESTIMATE, GObject)

VcEstimate     *vc_estimate_new                (void);

/* inputs */
const VcInputs *vc_estimate_get_inputs         (VcEstimate   *self);
const char     *vc_estimate_get_preset         (VcEstimate   *self);
gboolean        vc_estimate_set_preset         (VcEstimate   *self,
                                                const char   *preset_id,
                                                GError      **error);
const char     *vc_estimate_get_model_name     (VcEstimate   *self);
void            vc_estimate_set_model_name     (VcEstimate   *self,
                                                const char   *name);
const char * const *vc_estimate_get_model_not_understood (VcEstimate *self);
void            vc_estimate_set_model_not_understood (VcEstimate         *self,
                                                      const char * const *parts);
void            vc_estimate_set_source_inventory (VcEstimate  *self,
                                                  VcInventory *inventory);
VcInventory    *vc_estimate_get_source_inventory (VcEstimate  *self);
void            vc_estimate_set_architecture   (VcEstimate   *self,
                                                const VcArch *arch);
void            vc_estimate_set_model          (VcEstimate   *self,
                                                const VcArch *arch,
                                                double        parameters,
                                                double        active_parameters,
                                                const char   *name);
double          vc_estimate_clamp_to_range     (VcEstimate   *self,
                                                const char   *property,
                                                double        value);
gboolean        vc_estimate_set_value          (VcEstimate   *self,
                                                const char   *property,
                                                const GValue *value,
                                                GError      **error);
gboolean        vc_estimate_set_from_string    (VcEstimate   *self,
                                                const char   *property,
                                                const char   *text,
                                                GError      **error);
gboolean        vc_estimate_check              (VcEstimate   *self,
                                                GError      **error);
char           *vc_estimate_dup_context_warning (VcEstimate  *self);
void            vc_estimate_copy_inputs        (VcEstimate   *self,
                                                VcEstimate   *source);
gboolean        vc_estimate_inputs_equal       (VcEstimate   *a,
                                                VcEstimate   *b);
gboolean        vc_estimate_edits_equal        (VcEstimate   *a,
                                                VcEstimate   *b);
char           *vc_estimate_dup_input_string   (VcEstimate   *self,
                                                const char   *property);
GParamSpec    **vc_estimate_list_inputs        (guint        *n_inputs);
void            vc_estimate_select_scenario    (VcEstimate   *self,
                                                VcScenario    scenario);

/* results */
const VcResult *vc_estimate_get_result         (VcEstimate   *self);
const VcScenarioResult *vc_estimate_get_selected (VcEstimate *self);
GListModel     *vc_estimate_get_breakdown      (VcEstimate   *self);
gboolean        vc_estimate_set_custom_gpus    (VcEstimate   *self,
                                                const char   *text,
                                                GError      **error);
gboolean        vc_estimate_set_chart_gpus     (VcEstimate   *self,
                                                const char   *text,
                                                GError      **error);
GArray         *vc_estimate_get_chart_gpu_indices (VcEstimate *self);
const char     *vc_estimate_get_gpu_key        (VcEstimate   *self,
                                                guint         gpu_index);
const VcSolution *vc_estimate_get_gpu_solution (VcEstimate     *self,
                                                guint           gpu_index,
                                                VcSolveVariable variable);
const VcSolution *vc_estimate_get_row_solution (VcEstimate     *self,
                                                guint           gpu_index,
                                                VcSolveVariable variable);
guint           vc_estimate_get_n_gpus         (VcEstimate   *self);
const VcGpu    *vc_estimate_get_gpu            (VcEstimate   *self,
                                                guint         gpu_index);
const VcGpuFit *vc_estimate_get_gpu_fit        (VcEstimate   *self,
                                                guint         gpu_index);
void            vc_estimate_count_gpus         (VcEstimate   *self,
                                                guint         scenario_index,
                                                guint        *counts);
const VcLayoutResult *vc_estimate_get_layout_result (VcEstimate *self);
char          **vc_estimate_dup_warnings       (VcEstimate   *self);
const char     *vc_estimate_get_mmproj         (VcEstimate   *self);
gboolean        vc_estimate_set_mmproj_file    (VcEstimate   *self,
                                                GFile        *file,
                                                const char   *shown,
                                                GError      **error);
gboolean        vc_estimate_set_plan_text      (VcEstimate   *self,
                                                const char   *property,
                                                const char   *text,
                                                GError      **error);
const VcGpuSet *vc_estimate_get_gpu_set        (VcEstimate   *self);
gboolean        vc_estimate_get_plan_options   (VcEstimate   *self,
                                                VcPlanOptions *options);
gboolean        vc_estimate_compute_plan       (VcEstimate   *self,
                                                VcPlan       *plan,
                                                GError      **error);

const char     *vc_scenario_id                 (VcScenario    scenario);
const char     *vc_scenario_name               (VcScenario    scenario);
const char     *vc_enum_nick                   (GType         enum_type,
                                                int           value);
GStrv           vc_flags_to_nicks              (GType         flags_type,
                                                guint         value);

G_END_DECLS
