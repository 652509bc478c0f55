/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-report.h: an estimate written out: JSON for machines (stable keys, integer bytes, no
 * locale) and a text table for people (the locale's numbers and units). */
#pragma once

#include "vc-estimate.h"

G_BEGIN_DECLS

char *vc_report_json  (VcEstimate *estimate);
char *vc_report_table (VcEstimate *estimate,
                       gboolean    explain,
                       VcUnit      unit);
/* What the command line asks beside the estimate */
typedef struct
{
  const VcSolution *solve;         /* the solver's answer; NULL: none */
  int gpu_index;                   /* the card of --fit-gpu; -1: none */
  guint gpu_count;                 /* --gpu-count; 0: the layout's TP × PP × DP */
  const char *command_model;       /* the model of "command" as --model names it; NULL: the
                                    * built-in model's repository */
  gboolean plan_solved;            /* --solve on "My GPUs": plan_value of plan_variable fits */
  VcSolveVariable plan_variable;
  guint plan_value;
} VcReportRequest;

char *vc_report_json_request  (VcEstimate            *estimate,
                               const VcReportRequest *req);
char *vc_report_table_request (VcEstimate            *estimate,
                               gboolean               explain,
                               VcUnit                 unit,
                               const VcReportRequest *req);
const VcSolveVariable *vc_report_fit_variables (VcMode          mode);
const char            *vc_report_fit_key       (VcSolveVariable variable);
/* In place of the count of a card on which the engine does not start (VcGpuFit.refused):
 * why, translated */
const char            *vc_report_gpu_refused_note (void);
/* What follows the count of a card whose count keeps vLLM's MXFP4 experts as stored
 * (VcGpuFit.experts_as_stored): why, translated */
const char            *vc_report_experts_as_stored_note (const VcInputs *inputs,
                                                         const VcGpu    *gpu);

G_END_DECLS
