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
char *vc_report_json_with_solve  (VcEstimate       *estimate,
                                  const VcSolution *solve,
                                  const char       *gpu_key);
char *vc_report_table_with_solve (VcEstimate       *estimate,
                                  gboolean          explain,
                                  VcUnit            unit,
                                  const VcSolution *solve,
                                  const char       *gpu_name);
const VcSolveVariable *vc_report_fit_variables (VcMode          mode);
const char            *vc_report_fit_key       (VcSolveVariable variable);

G_END_DECLS
