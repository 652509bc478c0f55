/* SPDX-License-Identifier: GPL-3.0-or-later */
/* vc-report.h: an estimate written out: JSON for machines (stable keys, integer bytes, no
 * locale) and a text table for people (the locale's numbers and units). */
#pragma once

#include "vc-estimate.h"

G_BEGIN_DECLS

char *vc_report_json  (VcEstimate *estimate);
char *vc_report_table (VcEstimate *estimate,
                       gboolean    explain);

G_END_DECLS
